//! Faults the oracle found (`nav_differential.rs`), each as a fixed case: the generated ground
//! it was found on (`areakit_testkit::nav_meshes::families(37)`), the pair, and what went
//! wrong, judged by the oracle.

use areakit_geometry::Vec3;
use areakit_geometry::nav::{
    FAST_BOUND, Location, Mode, NavSet, Path, PathError, Request, Search, Searcher, Surface,
};
use areakit_testkit::nav_meshes::{self, Ground};
use areakit_testkit::nav_oracle::{Answer, End, Oracle, Promise};

fn ground(name: &str) -> Ground {
    nav_meshes::families(37)
        .into_iter()
        .find(|g| g.name == name)
        .unwrap_or_else(|| panic!("no generated ground {name}"))
}

fn mesh(g: &Ground) -> NavSet {
    NavSet::build(&Surface {
        links: Vec::new(),
        vertices: g.vertices.iter().map(|v| Vec3::from_array(*v)).collect(),
        triangles: g.triangles.clone(),
        regions: vec![0; g.triangles.len()],
    })
    .unwrap()
}

/// Asks `set` for the pair in `mode` with `search` (and its landmarks, if it has some) and
/// judges the answer; returns it.
fn judge(g: &Ground, set: &NavSet, (a, b): (End, End), mode: Mode, search: Search) -> Answer {
    let mesh = &set.mesh;
    let o = Oracle::new(&g.vertices, &g.triangles);
    assert!(
        o.holds(a.triangle, a.point) && o.holds(b.triangle, b.point),
        "the case's ends moved"
    );
    let loc = |e: End| Location {
        triangle: e.triangle,
        point: Vec3::new(
            e.point[0],
            e.point[1],
            mesh.height_in(e.triangle, e.point[0], e.point[1]).unwrap(),
        ),
        snapped: 0.0,
    };
    let mut path = Path::default();
    let req = Request {
        mode,
        search,
        landmarks: set.landmarks.is_some(),
        ..Request::default()
    };
    let r = Searcher::new().path_between(&set.data(), loc(a), loc(b), &req, &mut path);
    let answer = Answer {
        how: format!("{mode:?} {search:?}"),
        promise: match (mode, search) {
            (Mode::Optimal, _) => Promise::Shortest,
            (Mode::Fast, Search::CornerGraph) => Promise::Within(FAST_BOUND),
            (Mode::Fast, _) => Promise::Path,
        },
        found: r.is_ok(),
        length: f64::from(path.length_plan),
        points: path.points.iter().map(|p| p.to_array()).collect(),
    };
    let bad = o.judge(a, b, std::slice::from_ref(&answer));
    assert!(bad.is_empty(), "{bad:?}");
    answer
}

fn end(x: f32, y: f32, triangle: u32) -> End {
    End {
        point: [x, y],
        triangle,
    }
}

/// A piece that runs along a crack (the T-junction line) from its tip: the walk took the
/// crack's wrong side, failed, and the triangle layer's answer was appended to what the failed
/// walk had left: start, tip, start, tip, goal (2.887 m for 2.296 m).
#[test]
fn a_piece_along_a_crack_is_walked_on_its_own_side() {
    let g = ground("t-junctions 8 split 3");
    let m = mesh(&g);
    let pair = (end(2.9558866, 4.292287, 72), end(1.0, 4.0, 49));
    let a = judge(&g, &m, pair, Mode::Optimal, Search::Polygons);
    assert_eq!(a.points.len(), 3, "{:?}", a.points);
}

/// Round a pillar on a ramp that winds over itself: the funnel dropped a turn whose plan
/// position was the start's (a corner one floor below), cutting through the pillar; the
/// triangle layer's answer after a failed walk was appended to the walk's leftovers (a loop
/// round the pillar too many); and the fast search on the triangles after a failed walk found
/// nothing (its components were stamped for the polygon search before).
#[test]
fn a_ramp_round_a_pillar_keeps_its_floors() {
    let g = ground("spiral ramp 3x12");
    let m = mesh(&g);
    for pair in [
        (end(1.1547005, -2.0, 67), end(-3.7651746, -1.5665847, 36)),
        (end(2.0, -1.1547005, 23), end(-0.38490018, -3.3333333, 65)),
    ] {
        for mode in [Mode::Optimal, Mode::Fast] {
            for search in [Search::Polygons, Search::Triangles] {
                judge(&g, &m, pair, mode, search);
            }
        }
    }
}

/// An end on a vertex where the path also turns: the point was given twice (a step of no
/// length).
#[test]
fn an_end_on_a_turning_corner_is_given_once() {
    let g = ground("maze 5x4 +0");
    let m = mesh(&g);
    judge(
        &g,
        &m,
        (end(8.698529, 0.4216326, 14), end(7.9123573, 3.8215723, 52)),
        Mode::Optimal,
        Search::Triangles,
    );
    let g = ground("coincident 10 0.30000000000000004");
    let m = mesh(&g);
    judge(
        &g,
        &m,
        (end(8.910028, 3.0612984, 57), end(8.566083, 9.372357, 186)),
        Mode::Optimal,
        Search::Polygons,
    );
}

/// Landmark distances kept per vertex where the ground meets itself only at the vertex (a
/// pinch): the nearer side's distance bounded the other side's ground, the bound exceeded the
/// straight line, and the straight path went unseen (4.665 m for 4.036 m).
#[test]
fn landmarks_bound_each_side_of_a_pinch_apart() {
    for (name, pair) in [
        (
            "coincident 6 0.1",
            (end(1.5941769, 3.3484025, 38), end(4.6505747, 0.71243805, 9)),
        ),
        (
            "t-junctions 8 split 3",
            (
                end(2.3333333, 7.3333335, 119),
                end(0.7284103, 4.1169424, 66),
            ),
        ),
    ] {
        let g = ground(name);
        let mut m = mesh(&g);
        m.measure_landmarks(4);
        m.build_corner_graph(true);
        for search in [Search::Polygons, Search::CornerGraph] {
            let a = judge(&g, &m, pair, Mode::Optimal, search);
            assert_eq!(
                a.points.len(),
                2,
                "{name}: the straight line, {:?}",
                a.points
            );
            judge(&g, &m, pair, Mode::Fast, search);
        }
    }
}

/// A fast path from a corridor that went round a vertex with ground beyond it turned there.
#[test]
fn a_fast_path_turns_only_at_corners() {
    let g = ground("holes 8x7 3");
    let m = mesh(&g);
    for pair in [
        (end(1.2767417, 2.6151853, 33), end(0.7480033, 5.994952, 90)),
        (end(0.31204903, 0.30849093, 0), end(3.595958, 5.605484, 81)),
    ] {
        for search in [Search::Polygons, Search::Triangles] {
            judge(&g, &m, pair, Mode::Fast, search);
        }
    }
}

/// Acceleration data of another mesh (here a larger one, whose polygon and vertex numbers run
/// past this mesh's) is refused by name, never indexed.
#[test]
fn data_of_another_mesh_is_a_mismatch() {
    let small = mesh(&ground("holes 8x7 3"));
    let largest = nav_meshes::families(37)
        .into_iter()
        .max_by_key(|g| g.triangles.len())
        .unwrap();
    let mut large = mesh(&largest);
    assert!(large.mesh.triangle_count() > 2 * small.mesh.triangle_count());
    large.measure_landmarks(2);
    large.build_corner_graph(true);
    assert_ne!(small.mesh.id(), large.mesh.id());
    let (a, b) = (
        Location {
            triangle: 0,
            point: small.mesh.triangle_points(0).iter().sum::<Vec3>() / 3.0,
            snapped: 0.0,
        },
        Location {
            triangle: 90,
            point: small.mesh.triangle_points(90).iter().sum::<Vec3>() / 3.0,
            snapped: 0.0,
        },
    );
    let own = small.data();
    let cases = [
        (own.with_polygons(&large.polygons), "the polygons"),
        (
            own.with_landmarks(large.landmarks.as_ref()),
            "the landmarks",
        ),
        (own.with_graph(large.graph.as_ref()), "the corner graph"),
    ];
    let mut s = Searcher::new();
    let mut path = Path::default();
    for (data, what) in cases {
        for search in [Search::Polygons, Search::CornerGraph] {
            let r = s.path_between(&data, a, b, &Request::new(Mode::Optimal, search), &mut path);
            assert!(
                matches!(r, Err(PathError::Mismatch { what: w }) if w == what),
                "{what}: {r:?}"
            );
        }
    }
    // A clone is the same mesh.
    let copy = small.clone();
    assert_eq!(copy.mesh.id(), small.mesh.id());
    let r = s.path_between(
        &small.data().with_polygons(&copy.polygons),
        a,
        b,
        &Request::default(),
        &mut path,
    );
    assert!(r.is_ok(), "{r:?}");
}
