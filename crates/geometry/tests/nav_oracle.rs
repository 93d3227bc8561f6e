//! Optimal paths against an independent oracle (visibility graph over the reflex boundary
//! vertices + Dijkstra) on random polygons with holes; fast paths are never shorter; every
//! path lies on walkable ground; and lengths agree with the `polyanya` crate.

mod nav_support;

use areakit_geometry::Vec3;
use areakit_geometry::nav::{
    FAST_BOUND, Mode, NavSet, Path, PathError, Request, Search, Searcher, Surface,
};
use nav_support::*;

/// The request for what `s` holds: over the corner graph if built, bounded by landmarks if
/// measured.
fn ask(s: &NavSet, mode: Mode) -> Request {
    Request {
        mode,
        search: if s.graph.is_some() {
            Search::CornerGraph
        } else {
            Search::Polygons
        },
        landmarks: s.landmarks.is_some(),
        ..Request::default()
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
    let (mut whole_checks, mut unseen_checks, mut partial) = (0usize, 0usize, 0usize);
    let mut ratios = Vec::new();
    let mut samples = 0;
    for d in 0..24 {
        let (nx, ny) = (6 + d % 5, 5 + d % 7);
        let holes = 1 + d % 6;
        let mixed = d % 3 == 0;
        let s = grid_domain(&mut rng, nx, ny, holes, 0.25, mixed, |_, _| 0.0);
        let mesh = NavSet::build(&s).unwrap();
        let oracle = Oracle::new(&s);
        assert!(oracle.node_count() > 0, "domain {d} has reflex vertices");
        domains += 1;
        // The same mesh with landmarks: their distances are the oracle's, and the search
        // they bound stays exact.
        let mut with_lm = mesh.clone();
        with_lm.measure_landmarks(3);
        let lm = with_lm.landmarks.as_ref().expect("landmarks");
        for i in 0..lm.count() {
            let src = s.vertices[lm.sources()[i] as usize];
            for p in 0..with_lm.polygons.count() as u32 {
                for &v in with_lm.polygons.corners(p) {
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
        with_cg.build_corner_graph(true);
        // Every polygon's sight list against the oracle: a corner marked whole sees the
        // polygon's corners and its centre straight; a reflex corner left out sees none of
        // its inner points (its centre, and halfway from there to each corner).
        let cg = with_cg.graph.as_ref().expect("corner graph");
        let pl = &with_cg.polygons;
        let vertex_of = |x: [f64; 2]| {
            s.vertices
                .iter()
                .position(|v| p2(*v) == x)
                .expect("a node is a vertex") as u32
        };
        let nodes: Vec<(u32, [f64; 2])> =
            oracle.nodes().iter().map(|&x| (vertex_of(x), x)).collect();
        let sees = |a: [f64; 2], x: [f64; 2]| {
            let straight = ((x[0] - a[0]).powi(2) + (x[1] - a[1]).powi(2)).sqrt();
            oracle.distance(a, x) <= straight * (1.0 + 1e-6) + 1e-6
        };
        for p in 0..pl.count() as u32 {
            let list: Vec<(u32, bool)> = cg
                .sights(p)
                .unwrap_or_else(|| panic!("domain {d}: polygon {p} has no sight list"))
                .collect();
            let c = pl.corners(p);
            let corner_pts: Vec<[f64; 2]> = c.iter().map(|&v| p2(s.vertices[v as usize])).collect();
            let centre = corner_pts.iter().fold([0.0; 2], |m, x| {
                [m[0] + x[0] / c.len() as f64, m[1] + x[1] / c.len() as f64]
            });
            for &(e, whole) in &list {
                assert!(
                    with_cg.mesh.is_corner(e),
                    "domain {d}: sight {e} not a corner"
                );
                if !whole {
                    partial += 1;
                    continue;
                }
                let pe = p2(s.vertices[e as usize]);
                for &x in corner_pts.iter().chain([&centre]) {
                    assert!(
                        sees(pe, x),
                        "domain {d}: polygon {p}: corner {e} marked whole does not see {x:?}"
                    );
                    whole_checks += 1;
                }
            }
            let inner: Vec<[f64; 2]> = corner_pts
                .iter()
                .map(|x| [(x[0] + centre[0]) / 2.0, (x[1] + centre[1]) / 2.0])
                .chain([centre])
                .collect();
            for &(v, x) in &nodes {
                if list.iter().any(|l| l.0 == v) {
                    continue;
                }
                for &y in &inner {
                    assert!(
                        !sees(x, y),
                        "domain {d}: polygon {p}: corner {v} sees {y:?} but is not listed"
                    );
                    unseen_checks += 1;
                }
            }
        }
        let mut with_both = with_lm.clone();
        with_both.build_corner_graph(true);
        // Without the sight lists every query sweeps from both ends instead.
        let mut without_sights = mesh.clone();
        without_sights.build_corner_graph(false);
        let g = without_sights.graph.as_ref().expect("corner graph");
        assert!(!g.has_sights() && g.sights(0).is_none());
        assert_eq!(
            g.edge_count(),
            with_cg.graph.as_ref().map_or(0, |g| g.edge_count())
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
                .find_path_into(&mesh.data(), a, b, &ask(&mesh, Mode::Optimal), &mut path)
                .unwrap_or_else(|e| panic!("domain {d} pair {k} {a} -> {b}: {e}"));
            let got = f64::from(path.length_plan);
            let rel = (got - want).abs() / want.max(1e-9);
            worst = worst.max(rel);
            assert!(
                rel <= 1e-5,
                "domain {d} pair {k} {a} -> {b}: optimal {got} oracle {want} ({:?})",
                path.points
            );
            samples += check_on_ground(&mesh.mesh, &path, 0.05)
                .unwrap_or_else(|e| panic!("domain {d} pair {k}: {e}"));
            let optimal = path.length_plan;
            searcher
                .find_path_into(
                    &with_lm.data(),
                    a,
                    b,
                    &ask(&with_lm, Mode::Optimal),
                    &mut path,
                )
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
                ("graph without sight lists", &without_sights),
            ] {
                searcher
                    .find_path_into(&m.data(), a, b, &ask(m, Mode::Optimal), &mut path)
                    .unwrap_or_else(|e| panic!("{what}: domain {d} pair {k}: {e}"));
                let rel = (f64::from(path.length_plan) - want).abs() / want.max(1e-9);
                assert!(
                    rel <= 1e-5,
                    "{what}: domain {d} pair {k} {a} -> {b}: {} oracle {want} ({:?})",
                    path.length_plan,
                    path.points
                );
                samples += check_on_ground(&m.mesh, &path, 0.05)
                    .unwrap_or_else(|e| panic!("{what}: domain {d} pair {k}: {e}"));
                searcher
                    .find_path_into(&m.data(), a, b, &ask(m, Mode::Fast), &mut path)
                    .unwrap_or_else(|e| panic!("{what} fast: domain {d} pair {k}: {e}"));
                let f = f64::from(path.length_plan);
                assert!(
                    f >= want * (1.0 - 1e-5) && f <= want * FAST_BOUND * (1.0 + 1e-5),
                    "{what} fast: domain {d} pair {k}: {f} oracle {want}"
                );
                samples += check_on_ground(&m.mesh, &path, 0.05)
                    .unwrap_or_else(|e| panic!("{what} fast: domain {d} pair {k}: {e}"));
                cg_pairs += 1;
            }
            searcher
                .find_path_into(&mesh.data(), a, b, &ask(&mesh, Mode::Fast), &mut path)
                .unwrap();
            assert!(
                path.length_plan >= optimal * (1.0 - 1e-6),
                "fast {} < optimal {optimal}",
                path.length_plan
            );
            samples += check_on_ground(&mesh.mesh, &path, 0.05)
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
        whole_checks > 24 * 50 && unseen_checks > 24 * 50 && partial > 24,
        "sight lists: only {whole_checks} whole sights, {unseen_checks} unseen points and {partial} partial sights checked"
    );
    assert!(
        landmark_checks > 24 * 20,
        "only {landmark_checks} landmark distances checked"
    );
}

/// A wide strip with a notch in every other cell of its two long walls: the open middle is
/// seen by more corners than a sight list holds, so queries from and to it sweep instead, and
/// stay exact.
#[test]
fn polygons_without_a_sight_list_are_searched_by_sweeps() {
    let mut rng = Rng(0x5167_1157);
    let (w, h) = (141usize, 6usize);
    let vertices = (0..=h)
        .flat_map(|j| (0..=w).map(move |i| Vec3::new(i as f32, j as f32, 0.0)))
        .collect();
    let id = |i: usize, j: usize| (j * (w + 1) + i) as u32;
    let mut triangles = Vec::new();
    for j in 0..h {
        for i in 0..w {
            if (j == 0 || j == h - 1) && i % 2 == 1 && i + 1 < w {
                continue;
            }
            triangles.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            triangles.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    let s = Surface {
        links: Vec::new(),
        regions: vec![0; triangles.len()],
        vertices,
        triangles,
    };
    let mut mesh = NavSet::build(&s).unwrap();
    mesh.build_corner_graph(true);
    let oracle = Oracle::new(&s);
    let cg = mesh.graph.as_ref().expect("corner graph");
    let pl = &mesh.polygons;
    let unlisted: Vec<bool> = (0..pl.count() as u32)
        .map(|p| cg.sights(p).is_none())
        .collect();
    let n_unlisted = unlisted.iter().filter(|&&u| u).count();
    assert!(
        n_unlisted * 2 > pl.count(),
        "{n_unlisted} of {} polygons without a list",
        pl.count()
    );
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let (mut pairs, mut from_unlisted) = (0, 0);
    for k in 0..40 {
        // Starts in polygons without a list.
        let (ta, a) = loop {
            let (t, x) = random_point(&mut rng, &s);
            if unlisted[pl.of_triangle(t).expect("a polygon") as usize] {
                break (t, x);
            }
        };
        let (_, b) = random_point(&mut rng, &s);
        from_unlisted += usize::from(unlisted[pl.of_triangle(ta).unwrap() as usize]);
        let want = oracle.distance(p2(a), p2(b));
        for mode in [Mode::Optimal, Mode::Fast] {
            searcher
                .find_path_into(&mesh.data(), a, b, &ask(&mesh, mode), &mut path)
                .unwrap_or_else(|e| panic!("pair {k} {mode:?}: {e}"));
            let got = f64::from(path.length_plan);
            let limit = if mode == Mode::Optimal {
                1.0
            } else {
                FAST_BOUND
            };
            assert!(
                got >= want * (1.0 - 1e-5) && got <= want * limit * (1.0 + 1e-5),
                "pair {k} {mode:?}: {got} oracle {want}"
            );
            check_on_ground(&mesh.mesh, &path, 0.05).unwrap_or_else(|e| panic!("pair {k}: {e}"));
        }
        pairs += 1;
    }
    assert_eq!(pairs, 40);
    assert_eq!(from_unlisted, 40);
    assert_eq!(searcher.walk_fallbacks(), 0);
}

#[test]
fn paths_on_random_mazes_stay_on_ground_and_match_polyanya() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let (mut meshes, mut pairs, mut worst) = (0, 0, 0.0f64);
    for m in 0..8 {
        let s = maze(&mut rng, 6 + m, 5 + m, m * 2, 0.2);
        let mesh = NavSet::build(&s).unwrap();
        let poly = polyanya_mesh(&s);
        meshes += 1;
        for k in 0..40 {
            let (ta, a) = random_point(&mut rng, &s);
            let (tb, b) = random_point(&mut rng, &s);
            assert!(mesh.mesh.reachable(ta, tb));
            searcher
                .find_path_into(&mesh.data(), a, b, &ask(&mesh, Mode::Optimal), &mut path)
                .unwrap_or_else(|e| panic!("maze {m} pair {k}: {e}"));
            check_on_ground(&mesh.mesh, &path, 0.05)
                .unwrap_or_else(|e| panic!("maze {m} {k}: {e}"));
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
    let mesh = NavSet::build(&s).unwrap();
    let mut searcher = Searcher::new();
    let (_, a) = random_point(&mut rng, &s);
    for mode in [Mode::Optimal, Mode::Fast] {
        let p = searcher
            .find_path(&mesh.data(), a, a, &ask(&mesh, mode))
            .unwrap();
        assert_eq!(p.length_plan, 0.0);
        assert_eq!(p.length_3d, 0.0);
        assert_eq!(p.triangles.len(), 1);
    }
    // Off the surface, beyond the snap distance.
    let far = Vec3::new(100.0, 100.0, 0.0);
    let e = searcher
        .find_path(&mesh.data(), a, far, &Request::default())
        .unwrap_err();
    assert!(matches!(e, PathError::Goal(_)), "{e:?}");
    // Just off the edge: snapped.
    let near = Vec3::new(-0.5, 2.5, 0.0);
    let p = searcher
        .find_path(&mesh.data(), near, a, &Request::default())
        .unwrap();
    assert!(p.points[0].x > -0.3, "{:?}", p.points[0]);
}
