//! Path searches on every corpus WOK with walkable faces: random pairs of points in the same
//! island get a path in both modes, the paths lie on walkable ground (every sample on a
//! corridor triangle at its height, the corridor a chain of neighbours) and the optimal path is
//! never longer than the fast one; and the optimal search on the polygon layer (the default)
//! gives the lengths of the optimal search on the triangles, on every corpus WOK and TRX.

use areakit_geometry::Vec3;
use areakit_geometry::nav::{
    FAST_BOUND, Mode, NavMesh, NavSet, Path, Request, Search, Searcher, Surface,
};

/// The walkable faces of a walkmesh as a surface (one region).
fn surface_of(b: &areakit_formats::bwm::Bwm) -> Surface {
    let m = areakit_area::walkmesh::to_mesh(b);
    let triangles: Vec<[u32; 3]> = m
        .faces
        .iter()
        .zip(&m.walkable)
        .filter(|(_, w)| **w)
        .map(|(f, _)| *f)
        .collect();
    Surface {
        links: Vec::new(),
        vertices: m.vertices.iter().map(|v| Vec3::from_array(*v)).collect(),
        regions: vec![0; triangles.len()],
        triangles,
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn cross(o: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

/// Whether plan point `p` at height `z` lies on triangle `t` (within a small tolerance).
fn on_triangle(mesh: &NavMesh, t: u32, p: [f64; 2], z: f64) -> bool {
    let [a, b, c] = mesh.triangle_points(t).map(|v| v.as_dvec3());
    let (pa, pb, pc) = ([a.x, a.y], [b.x, b.y], [c.x, c.y]);
    let area = cross(pa, pb, pc);
    if area == 0.0 {
        return false;
    }
    let scale = 1e-4 * (1.0 + p[0].abs().max(p[1].abs()));
    let mut ok = true;
    for (u, v) in [(pa, pb), (pb, pc), (pc, pa)] {
        let l = ((v[0] - u[0]).powi(2) + (v[1] - u[1]).powi(2)).sqrt();
        if cross(u, v, p) / l < -scale {
            ok = false;
        }
    }
    let wa = cross(pb, pc, p) / area;
    let wb = cross(pc, pa, p) / area;
    let h = wa * a.z + wb * b.z + (1.0 - wa - wb) * c.z;
    // Height tolerance: 1e-3, plus what the plan tolerance is worth on a steep face.
    let n = (b - a).cross(c - a);
    let slope = n.truncate().length() / n.z.abs().max(1e-12);
    ok && (h - z).abs() <= 1e-3 * (1.0 + z.abs()) + slope.min(1e6) * scale
}

fn check_on_ground(mesh: &NavMesh, path: &Path) -> Result<(), String> {
    let cor = &path.triangles;
    for w in cor.windows(2) {
        if !mesh.neighbours(w[0]).contains(&Some(w[1])) {
            return Err(format!("corridor {} -> {} not neighbours", w[0], w[1]));
        }
    }
    let mut at = 0;
    for w in path.surface_points().windows(2) {
        let (a, b) = (w[0].as_dvec3(), w[1].as_dvec3());
        let n = (((b - a).truncate().length() / 0.05).ceil() as usize).max(1);
        for i in 0..=n {
            let p = a + (b - a) * (i as f64 / n as f64);
            match (at..cor.len()).find(|&k| on_triangle(mesh, cor[k], [p.x, p.y], p.z)) {
                Some(k) => at = k,
                None => return Err(format!("{p:?} is not on the corridor")),
            }
        }
    }
    Ok(())
}

#[test]
fn paths_on_every_corpus_wok() {
    let files = areakit_testkit::corpus_files(&["wok"]);
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let (mut meshes, mut pairs, mut longer) = (0, 0, 0usize);
    let mut graphed_pairs = 0usize;
    let (mut without_walkable, mut unreadable) = (0, 0);
    let (mut triangles, mut polygons) = (0usize, 0usize);
    for f in &files {
        let Ok(b) = areakit_formats::bwm::read(&std::fs::read(f).unwrap()) else {
            unreadable += 1;
            continue;
        };
        let s = surface_of(&b);
        let set = NavSet::build(&s).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let mesh = &set.mesh;
        let usable: Vec<u32> = (0..s.triangles.len() as u32)
            .filter(|&t| !mesh.is_flat(t))
            .collect();
        if usable.is_empty() {
            without_walkable += 1;
            continue;
        }
        meshes += 1;
        triangles += usable.len();
        polygons += set.polygons.count();
        let graphed = graphed(&set, meshes % 2 == 0);
        let point = |rng: &mut Rng, t: u32| {
            let [a, b, c] = mesh.triangle_points(t).map(|v| v.as_dvec3());
            let (mut u, mut v) = (rng.unit(), rng.unit());
            if u + v > 1.0 {
                u = 1.0 - u;
                v = 1.0 - v;
            }
            (a + (b - a) * u + (c - a) * v).as_vec3()
        };
        let mut found = 0;
        let mut tries = 0;
        while found < 25 && tries < 500 {
            tries += 1;
            let ta = usable[(rng.next() % usable.len() as u64) as usize];
            let tb = usable[(rng.next() % usable.len() as u64) as usize];
            let (a, b) = (point(&mut rng, ta), point(&mut rng, tb));
            // The points as located (a point over overlapping faces may locate on another).
            let (Some(la), Some(lb)) = (
                mesh.locate(a.x, a.y, Some(a.z)),
                mesh.locate(b.x, b.y, Some(b.z)),
            ) else {
                continue;
            };
            if !mesh.reachable(la.triangle, lb.triangle) {
                continue;
            }
            searcher
                .path_between(
                    &set.data(),
                    la,
                    lb,
                    &Request::new(Mode::Optimal, Search::Polygons),
                    &mut path,
                )
                .unwrap_or_else(|e| panic!("{}: {a} -> {b}: {e}", f.display()));
            check_on_ground(mesh, &path).unwrap_or_else(|e| {
                panic!(
                    "{}: optimal {a} -> {b}: {e}\n{la:?} {lb:?}\n{:?}\n{:?}\n{:?}",
                    f.display(),
                    path.points,
                    path.triangles,
                    path.triangles
                        .iter()
                        .map(|&t| mesh.triangle_points(t))
                        .collect::<Vec<_>>()
                )
            });
            let optimal = path.length_plan;
            searcher
                .path_between(
                    &set.data(),
                    la,
                    lb,
                    &Request::new(Mode::Optimal, Search::Triangles),
                    &mut path,
                )
                .unwrap_or_else(|e| panic!("{}: triangles {a} -> {b}: {e}", f.display()));
            let rel = (path.length_plan - optimal).abs() / optimal.max(1e-3);
            assert!(
                rel <= 1e-6,
                "{}: {a} -> {b}: polygons {optimal}, triangles {}",
                f.display(),
                path.length_plan
            );
            check_graphed(&graphed, &mut searcher, la, lb, optimal)
                .unwrap_or_else(|e| panic!("{}: {a} -> {b}: {e}", f.display()));
            graphed_pairs += 1;
            searcher
                .path_between(
                    &set.data(),
                    la,
                    lb,
                    &Request::new(Mode::Fast, Search::Polygons),
                    &mut path,
                )
                .unwrap_or_else(|e| panic!("{}: fast {a} -> {b}: {e}", f.display()));
            check_on_ground(mesh, &path)
                .unwrap_or_else(|e| panic!("{}: fast {a} -> {b}: {e}", f.display()));
            assert!(
                optimal <= path.length_plan * (1.0 + 1e-5) + 1e-5,
                "{}: optimal {optimal} > fast {}",
                f.display(),
                path.length_plan
            );
            if path.length_plan > optimal * (1.0 + 1e-5) {
                longer += 1;
            }
            found += 1;
        }
        pairs += found;
    }
    eprintln!(
        "{} WOKs: {meshes} with walkable faces ({without_walkable} without, {unreadable} unreadable), {triangles} walkable triangles in {polygons} polygons, {pairs} pairs, fast longer on {longer}",
        files.len()
    );
    assert_eq!(files.len(), 108);
    assert_eq!(meshes, 108);
    assert_eq!(pairs, 108 * 25);
    assert_eq!(graphed_pairs, pairs);
    assert_eq!(
        searcher.corner_fallbacks(),
        0,
        "corner-graph queries fell back"
    );
    assert_eq!(
        searcher.walk_fallbacks(),
        0,
        "corner-graph paths not walked through the triangles"
    );
}

/// `set` with the corner graph (and 4 landmarks besides when `landmarks`).
fn graphed(set: &NavSet, landmarks: bool) -> NavSet {
    let mut m = set.clone();
    if landmarks {
        m.measure_landmarks(4);
    }
    m.build_corner_graph(true);
    m
}

/// On a mesh with the corner graph: the optimal length is `want` (within 1e-6) and the fast
/// one at most [`FAST_BOUND`] times it, both on the ground.
fn check_graphed(
    set: &NavSet,
    searcher: &mut Searcher,
    la: areakit_geometry::nav::Location,
    lb: areakit_geometry::nav::Location,
    want: f32,
) -> Result<(), String> {
    let mut path = Path::default();
    let (mesh, data) = (&set.mesh, set.data());
    let req = |mode| Request {
        landmarks: set.landmarks.is_some(),
        ..Request::new(mode, Search::CornerGraph)
    };
    searcher
        .path_between(&data, la, lb, &req(Mode::Optimal), &mut path)
        .map_err(|e| format!("corner graph: {e}"))?;
    check_on_ground(mesh, &path).map_err(|e| format!("corner graph: {e}"))?;
    let rel = f64::from((path.length_plan - want).abs()) / f64::from(want.max(1e-3));
    if rel > 1e-6 {
        return Err(format!("corner graph: {} for {want}", path.length_plan));
    }
    searcher
        .path_between(&data, la, lb, &req(Mode::Fast), &mut path)
        .map_err(|e| format!("corner graph, fast: {e}"))?;
    check_on_ground(mesh, &path).map_err(|e| format!("corner graph, fast: {e}"))?;
    let f = path.length_plan;
    if f < want * (1.0 - 1e-6) || f > want * FAST_BOUND as f32 * (1.0 + 1e-6) + 1e-5 {
        return Err(format!("corner graph, fast: {f} for {want}"));
    }
    Ok(())
}

/// Every corpus TRX (NWN2 terrain: regular grids, whose straight rows of vertices are where
/// merged polygons and rays through vertices meet): random reachable pairs get the same optimal
/// length on the polygon layer as on the triangles (within 1e-6), a path on the ground, and a
/// fast path no shorter.
#[test]
fn polygon_layer_lengths_equal_the_triangles_on_every_corpus_trx() {
    let files = areakit_testkit::corpus_files(&["trx"]);
    let mut rng = Rng(0x7a11_90e5_0bad_cafe);
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let (mut meshes, mut pairs, mut worst) = (0, 0, 0.0f64);
    let mut graphed_pairs = 0usize;
    let (mut triangles, mut polygons) = (0usize, 0usize);
    for f in &files {
        let Ok(t) = areakit_formats::trx::read(&std::fs::read(f).unwrap()) else {
            continue;
        };
        let Some(w) = t.walkmesh() else { continue };
        let src = areakit_area::navigation::NavSource::from_trx(w, "t");
        let set = NavSet::build(&src.surface).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let mesh = &set.mesh;
        set.polygons
            .validate(mesh)
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let usable: Vec<u32> = (0..mesh.triangle_count() as u32)
            .filter(|&t| !mesh.is_flat(t))
            .collect();
        if usable.is_empty() {
            continue;
        }
        meshes += 1;
        triangles += usable.len();
        polygons += set.polygons.count();
        let graphed = graphed(&set, meshes % 2 == 0);
        let mut found = 0;
        let mut tries = 0;
        while found < 12 && tries < 400 {
            tries += 1;
            let ta = usable[(rng.next() % usable.len() as u64) as usize];
            let tb = usable[(rng.next() % usable.len() as u64) as usize];
            let centre = |t: u32| {
                let [a, b, c] = mesh.triangle_points(t);
                (a + b + c) / 3.0
            };
            let (a, b) = (centre(ta), centre(tb));
            let (Some(la), Some(lb)) = (
                mesh.locate(a.x, a.y, Some(a.z)),
                mesh.locate(b.x, b.y, Some(b.z)),
            ) else {
                continue;
            };
            if !mesh.reachable(la.triangle, lb.triangle) {
                continue;
            }
            searcher
                .path_between(
                    &set.data(),
                    la,
                    lb,
                    &Request::new(Mode::Optimal, Search::Triangles),
                    &mut path,
                )
                .unwrap_or_else(|e| panic!("{}: triangles {a} -> {b}: {e}", f.display()));
            let want = path.length_plan;
            searcher
                .path_between(
                    &set.data(),
                    la,
                    lb,
                    &Request::new(Mode::Optimal, Search::Polygons),
                    &mut path,
                )
                .unwrap_or_else(|e| panic!("{}: polygons {a} -> {b}: {e}", f.display()));
            check_on_ground(mesh, &path)
                .unwrap_or_else(|e| panic!("{}: polygons {a} -> {b}: {e}", f.display()));
            let rel = f64::from((path.length_plan - want).abs()) / f64::from(want.max(1e-3));
            assert!(
                rel <= 1e-6,
                "{}: {a} -> {b}: polygons {}, triangles {want}",
                f.display(),
                path.length_plan
            );
            worst = worst.max(rel);
            check_graphed(&graphed, &mut searcher, la, lb, want)
                .unwrap_or_else(|e| panic!("{}: {a} -> {b}: {e}", f.display()));
            graphed_pairs += 1;
            searcher
                .path_between(
                    &set.data(),
                    la,
                    lb,
                    &Request::new(Mode::Fast, Search::Polygons),
                    &mut path,
                )
                .unwrap_or_else(|e| panic!("{}: fast {a} -> {b}: {e}", f.display()));
            check_on_ground(mesh, &path)
                .unwrap_or_else(|e| panic!("{}: fast {a} -> {b}: {e}", f.display()));
            assert!(
                path.length_plan >= want * (1.0 - 1e-6),
                "{}: fast shorter",
                f.display()
            );
            found += 1;
        }
        pairs += found;
    }
    eprintln!(
        "{} TRX: {meshes} walkmeshes, {triangles} triangles in {polygons} polygons, {pairs} pairs, worst relative difference {worst:.2e}",
        files.len()
    );
    assert_eq!(files.len(), 61);
    assert_eq!(meshes, 61);
    assert!(pairs >= 61 * 10, "only {pairs} pairs");
    assert_eq!(graphed_pairs, pairs);
    // A vertex where two walkable wedges touch without a shared edge (a crack in the ground)
    // can make the graph's shortest route pass through it; no corridor follows it, and the
    // query falls back to the polygon search (2 of 732 pairs here, each in both modes).
    let fallbacks = searcher.corner_fallbacks();
    let walk_fallbacks = searcher.walk_fallbacks();
    eprintln!(
        "corner graph: {fallbacks} of {} queries fell back, {walk_fallbacks} not walked straight",
        2 * graphed_pairs
    );
    assert!(
        walk_fallbacks * 100 <= 2 * graphed_pairs,
        "{walk_fallbacks} not walked straight"
    );
    assert!(
        fallbacks * 100 <= 2 * graphed_pairs,
        "{fallbacks} fell back"
    );
}

use crate::nav_support;

/// On corpus rooms whose walkable faces do not overlap in plan (no `bwm-overlap`,
/// `bwm-non-manifold-edge` or `bwm-duplicate-face` finding), optimal lengths equal an
/// independent oracle (visibility graph over reflex boundary vertices, `nav_support`) within
/// 1e-5 relative, and the `polyanya` crate's lengths.
#[test]
fn optimal_equals_the_oracle_and_polyanya_on_corpus_rooms() {
    let files = areakit_testkit::corpus_files(&["wok"]);
    let mut rng = Rng(0x0ac1_e5ee_d000_0001);
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let (mut rooms, mut pairs, mut worst) = (0, 0, 0.0f64);
    let (mut polyanya_failed, mut polyanya_pairs) = (0, 0);
    for f in &files {
        let Ok(b) = areakit_formats::bwm::read(&std::fs::read(f).unwrap()) else {
            continue;
        };
        let planar = !areakit_area::walkmesh::check_bwm(&b).iter().any(|x| {
            matches!(
                x.code,
                "bwm-overlap" | "bwm-non-manifold-edge" | "bwm-duplicate-face"
            )
        });
        if !planar {
            continue;
        }
        let mut s = surface_of(&b);
        // The oracle takes triangles with plan area only (the navmesh leaves the others out).
        let keep: Vec<[u32; 3]> = s
            .triangles
            .iter()
            .copied()
            .filter(|t| {
                let [a, b, c] = t.map(|i| s.vertices[i as usize].as_dvec3());
                ((b - a).x * (c - a).y - (b - a).y * (c - a).x).abs() > 1e-9
            })
            .collect();
        s.regions = vec![0; keep.len()];
        s.triangles = keep;
        if s.triangles.len() < 2 {
            continue;
        }
        let set = NavSet::build(&s).unwrap();
        let mesh = &set.mesh;
        let oracle = nav_support::Oracle::new(&s);
        // The polyanya crate panics on some rooms (its sort meets a comparison that is not a
        // total order): those are compared with the oracle only.
        let poly = std::panic::catch_unwind(|| nav_support::polyanya_mesh(&s)).ok();
        if poly.is_none() {
            polyanya_failed += 1;
        }
        rooms += 1;
        let n = s.triangles.len() as u64;
        let mut done = 0;
        for _ in 0..200 {
            if done == 6 {
                break;
            }
            let (ta, tb) = ((rng.next() % n) as u32, (rng.next() % n) as u32);
            let centre = |t: u32| {
                let [a, b, c] = mesh.triangle_points(t);
                (a + b + c) / 3.0
            };
            let (a, b) = (centre(ta), centre(tb));
            let (Some(la), Some(lb)) = (mesh.locate(a.x, a.y, None), mesh.locate(b.x, b.y, None))
            else {
                continue;
            };
            if !mesh.reachable(la.triangle, lb.triangle) {
                continue;
            }
            searcher
                .path_between(
                    &set.data(),
                    la,
                    lb,
                    &Request::new(Mode::Optimal, Search::Polygons),
                    &mut path,
                )
                .unwrap();
            let ours = f64::from(path.length_plan);
            let want = oracle.distance(
                [f64::from(a.x), f64::from(a.y)],
                [f64::from(b.x), f64::from(b.y)],
            );
            let rel = (ours - want).abs() / want.max(1.0);
            assert!(
                rel <= 1e-5,
                "{}: {a:?} -> {b:?}: ours {ours}, oracle {want}",
                f.display()
            );
            if let Some(p) = poly
                .as_ref()
                .and_then(|m| nav_support::polyanya_length(m, a, b))
            {
                let relp = (ours - f64::from(p)).abs() / f64::from(p).max(1.0);
                assert!(relp <= 1e-5, "{}: ours {ours}, polyanya {p}", f.display());
                polyanya_pairs += 1;
            }
            worst = worst.max(rel);
            done += 1;
            pairs += 1;
        }
    }
    eprintln!(
        "{rooms} planar corpus rooms, {pairs} pairs, worst relative error {worst:e}; polyanya: {polyanya_pairs} pairs equal, {polyanya_failed} rooms it cannot build"
    );
    assert!(rooms >= 30, "only {rooms} planar rooms");
    assert!(pairs >= 150, "only {pairs} pairs");
}
