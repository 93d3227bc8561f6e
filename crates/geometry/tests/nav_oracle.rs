//! Optimal paths against an independent oracle (visibility graph over the reflex boundary
//! vertices + Dijkstra) on random polygons with holes; fast paths are never shorter; every
//! path lies on walkable ground; and lengths agree with the `polyanya` crate.

mod nav_support;

use areakit_geometry::Vec3;
use areakit_geometry::nav::corners::MAX_ENTRIES;
use areakit_geometry::nav::{FAST_BOUND, Mode, NavMesh, Path, PathError, SearchOptions, Searcher};
use nav_support::*;

fn opts(mode: Mode) -> SearchOptions {
    SearchOptions {
        mode,
        ..SearchOptions::default()
    }
}

fn p2(v: Vec3) -> [f64; 2] {
    [f64::from(v.x), f64::from(v.y)]
}

#[test]
fn optimal_equals_visibility_graph_oracle() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let (mut domains, mut pairs, mut vertex_pairs, mut worst) = (0, 0, 0, 0.0f64);
    let mut landmark_checks = 0usize;
    let mut cg_pairs = 0usize;
    let (mut entry_checks, mut polys_with_entries, mut polys_total) = (0usize, 0usize, 0usize);
    let mut ratios = Vec::new();
    let mut samples = 0;
    for d in 0..24 {
        let (nx, ny) = (6 + d % 5, 5 + d % 7);
        let holes = 1 + d % 6;
        let mixed = d % 3 == 0;
        let s = grid_domain(&mut rng, nx, ny, holes, 0.25, mixed, |_, _| 0.0);
        let mesh = NavMesh::build(&s).unwrap();
        let oracle = Oracle::new(&s);
        assert!(oracle.node_count() > 0, "domain {d} has reflex vertices");
        domains += 1;
        // The same mesh with landmarks: their distances are the oracle's, and the search
        // they bound stays exact.
        let mut with_lm = mesh.clone();
        with_lm.measure_landmarks(3);
        let lm = with_lm.landmarks().expect("landmarks");
        for i in 0..lm.count() {
            let src = s.vertices[lm.sources()[i] as usize];
            for p in 0..with_lm.polygons().count() as u32 {
                for &v in with_lm.polygons().corners(p) {
                    let want = oracle.distance(p2(src), p2(s.vertices[v as usize]));
                    let got = f64::from(lm.distance(i, v));
                    assert!(
                        (got - want).abs() <= 1e-5 * want.max(1.0),
                        "domain {d}: landmark {i} to vertex {v}: {got}, oracle {want}"
                    );
                    landmark_checks += 1;
                }
            }
        }
        // With the corner graph (and with landmarks besides): exact, and fast within
        // FAST_BOUND.
        let mut with_cg = mesh.clone();
        with_cg.build_corner_graph();
        // Every polygon's entries see the whole polygon: its corners and its centre straight.
        let cg = with_cg.corner_graph().expect("corner graph");
        let pl = with_cg.polygons();
        for p in 0..pl.count() as u32 {
            let entries = cg.entries(p);
            assert!(entries.len() <= MAX_ENTRIES);
            polys_with_entries += usize::from(!entries.is_empty());
            let c = pl.corners(p);
            let centre = c.iter().fold([0.0; 2], |m, &v| {
                let x = p2(s.vertices[v as usize]);
                [m[0] + x[0] / c.len() as f64, m[1] + x[1] / c.len() as f64]
            });
            for &e in entries {
                assert!(with_cg.is_corner(e), "domain {d}: entry {e} not a corner");
                let pe = p2(s.vertices[e as usize]);
                let targets = c.iter().map(|&v| p2(s.vertices[v as usize]));
                for x in targets.chain([centre]) {
                    let straight = ((x[0] - pe[0]).powi(2) + (x[1] - pe[1]).powi(2)).sqrt();
                    let walk = oracle.distance(pe, x);
                    assert!(
                        walk <= straight * (1.0 + 1e-6) + 1e-6,
                        "domain {d}: polygon {p} entry {e} does not see {x:?} ({walk} > {straight})"
                    );
                    entry_checks += 1;
                }
            }
        }
        polys_total += pl.count();
        let mut with_both = with_lm.clone();
        with_both.build_corner_graph();
        // Without the entries the fast mode sweeps from both ends instead.
        let mut without_entries = mesh.clone();
        without_entries.build_corner_graph_with(false);
        let g = without_entries.corner_graph().expect("corner graph");
        assert!(!g.has_entries() && g.entries(0).is_empty());
        assert_eq!(
            g.edge_count(),
            with_cg.corner_graph().map_or(0, |g| g.edge_count())
        );
        for k in 0..30 {
            // Some endpoints exactly on vertices (start/goal at a corner).
            let a = if k % 7 == 0 {
                let t = s.triangles[rng.below(s.triangles.len() as u64) as usize];
                s.vertices[t[0] as usize]
            } else {
                random_point(&mut rng, &s).1
            };
            let b = if k % 5 == 0 {
                let t = s.triangles[rng.below(s.triangles.len() as u64) as usize];
                s.vertices[t[1] as usize]
            } else {
                random_point(&mut rng, &s).1
            };
            if k % 7 == 0 || k % 5 == 0 {
                vertex_pairs += 1;
            }
            let want = oracle.distance(p2(a), p2(b));
            assert!(want.is_finite(), "oracle: domain {d} pair {k} unreachable");
            searcher
                .find_path_into(&mesh, a, b, &opts(Mode::Optimal), &mut path)
                .unwrap_or_else(|e| panic!("domain {d} pair {k} {a} -> {b}: {e}"));
            let got = f64::from(path.length_plan);
            let rel = (got - want).abs() / want.max(1e-9);
            worst = worst.max(rel);
            assert!(
                rel <= 1e-5,
                "domain {d} pair {k} {a} -> {b}: optimal {got} oracle {want} ({:?})",
                path.points
            );
            samples += check_on_ground(&mesh, &path, 0.05)
                .unwrap_or_else(|e| panic!("domain {d} pair {k}: {e}"));
            let optimal = path.length_plan;
            searcher
                .find_path_into(&with_lm, a, b, &opts(Mode::Optimal), &mut path)
                .unwrap_or_else(|e| panic!("landmarks: domain {d} pair {k}: {e}"));
            let rel = (f64::from(path.length_plan) - want).abs() / want.max(1e-9);
            assert!(
                rel <= 1e-5,
                "landmarks: domain {d} pair {k}: {} oracle {want}",
                path.length_plan
            );
            for (what, m) in [
                ("corner graph", &with_cg),
                ("graph and landmarks", &with_both),
                ("graph without entries", &without_entries),
            ] {
                searcher
                    .find_path_into(m, a, b, &opts(Mode::Optimal), &mut path)
                    .unwrap_or_else(|e| panic!("{what}: domain {d} pair {k}: {e}"));
                let rel = (f64::from(path.length_plan) - want).abs() / want.max(1e-9);
                assert!(
                    rel <= 1e-5,
                    "{what}: domain {d} pair {k} {a} -> {b}: {} oracle {want} ({:?})",
                    path.length_plan,
                    path.points
                );
                samples += check_on_ground(m, &path, 0.05)
                    .unwrap_or_else(|e| panic!("{what}: domain {d} pair {k}: {e}"));
                searcher
                    .find_path_into(m, a, b, &opts(Mode::Fast), &mut path)
                    .unwrap_or_else(|e| panic!("{what} fast: domain {d} pair {k}: {e}"));
                let f = f64::from(path.length_plan);
                assert!(
                    f >= want * (1.0 - 1e-5) && f <= want * FAST_BOUND * (1.0 + 1e-5),
                    "{what} fast: domain {d} pair {k}: {f} oracle {want}"
                );
                samples += check_on_ground(m, &path, 0.05)
                    .unwrap_or_else(|e| panic!("{what} fast: domain {d} pair {k}: {e}"));
                cg_pairs += 1;
            }
            searcher
                .find_path_into(&mesh, a, b, &opts(Mode::Fast), &mut path)
                .unwrap();
            assert!(
                path.length_plan >= optimal * (1.0 - 1e-6),
                "fast {} < optimal {optimal}",
                path.length_plan
            );
            samples += check_on_ground(&mesh, &path, 0.05)
                .unwrap_or_else(|e| panic!("fast: domain {d} pair {k}: {e}"));
            if optimal > 0.0 {
                ratios.push(path.length_plan / optimal);
            }
            pairs += 1;
        }
    }
    ratios.sort_by(f32::total_cmp);
    eprintln!(
        "oracle: {domains} domains, {pairs} pairs ({vertex_pairs} with a vertex end), worst relative error {worst:e}; fast/optimal median {} worst {}; {samples} ground samples",
        ratios[ratios.len() / 2],
        ratios[ratios.len() - 1]
    );
    assert_eq!(domains, 24);
    assert_eq!(pairs, 24 * 30);
    assert_eq!(cg_pairs, 3 * 24 * 30);
    assert_eq!(
        searcher.corner_fallbacks(),
        0,
        "corner-graph queries fell back to the polygon search"
    );
    assert_eq!(
        searcher.walk_fallbacks(),
        0,
        "corner-graph paths not walked straight through the triangles"
    );
    assert!(
        entry_checks > 24 * 50,
        "only {entry_checks} entry sights checked"
    );
    assert!(
        polys_with_entries * 10 >= polys_total * 9,
        "{polys_with_entries} of {polys_total} polygons have entries"
    );
    assert!(
        landmark_checks > 24 * 20,
        "only {landmark_checks} landmark distances checked"
    );
}

#[test]
fn paths_on_random_mazes_stay_on_ground_and_match_polyanya() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let (mut meshes, mut pairs, mut worst) = (0, 0, 0.0f64);
    for m in 0..8 {
        let s = maze(&mut rng, 6 + m, 5 + m, m * 2, 0.2);
        let mesh = NavMesh::build(&s).unwrap();
        let poly = polyanya_mesh(&s);
        meshes += 1;
        for k in 0..40 {
            let (ta, a) = random_point(&mut rng, &s);
            let (tb, b) = random_point(&mut rng, &s);
            assert!(mesh.reachable(ta, tb));
            searcher
                .find_path_into(&mesh, a, b, &opts(Mode::Optimal), &mut path)
                .unwrap_or_else(|e| panic!("maze {m} pair {k}: {e}"));
            check_on_ground(&mesh, &path, 0.05).unwrap_or_else(|e| panic!("maze {m} {k}: {e}"));
            let theirs = polyanya_length(&poly, a, b).expect("polyanya finds a path");
            let rel = f64::from((path.length_plan - theirs).abs()) / f64::from(theirs.max(1e-6));
            worst = worst.max(rel);
            assert!(
                rel <= 1e-4,
                "maze {m} pair {k}: ours {} polyanya {theirs}",
                path.length_plan
            );
            pairs += 1;
        }
    }
    eprintln!("polyanya: {meshes} mazes, {pairs} pairs, worst relative difference {worst:e}");
    assert_eq!(pairs, 8 * 40);
}

#[test]
fn same_point_and_unreachable() {
    let mut rng = Rng(7);
    let s = grid_domain(&mut rng, 5, 5, 0, 0.2, false, |_, _| 0.0);
    let mesh = NavMesh::build(&s).unwrap();
    let mut searcher = Searcher::new();
    let (_, a) = random_point(&mut rng, &s);
    for mode in [Mode::Optimal, Mode::Fast] {
        let p = searcher.find_path(&mesh, a, a, &opts(mode)).unwrap();
        assert_eq!(p.length_plan, 0.0);
        assert_eq!(p.length_3d, 0.0);
        assert_eq!(p.triangles.len(), 1);
    }
    // Off the surface, beyond the snap distance.
    let far = Vec3::new(100.0, 100.0, 0.0);
    let e = searcher
        .find_path(&mesh, a, far, &SearchOptions::default())
        .unwrap_err();
    assert!(matches!(e, PathError::Goal(_)), "{e:?}");
    // Just off the edge: snapped.
    let near = Vec3::new(-0.5, 2.5, 0.0);
    let p = searcher
        .find_path(&mesh, near, a, &SearchOptions::default())
        .unwrap();
    assert!(p.points[0].x > -0.3, "{:?}", p.points[0]);
}
