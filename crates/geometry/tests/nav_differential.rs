//! Every search against the independent oracle (`areakit_testkit::nav_oracle`) on generated
//! ground: mazes, holes, pinches, rings, spirals, levels, coincident vertices, slivers and
//! T-junctions. Each pair is asked in both modes, on the polygons and the triangles, with and
//! without landmarks and the corner graph (with and without sight lists), and every answer is
//! judged: found exactly when the ends are connected, on the ground (no repeated point, no turn
//! but at a boundary corner, no piece off the ground or across a pinch), optimal no longer than
//! fast nor than the oracle, fast over the graph within `FAST_BOUND` of the oracle.

use areakit_geometry::Vec3;
use areakit_geometry::nav::{FAST_BOUND, Layer, Location, Mode, NavMesh, Path, Searcher, Surface};
use areakit_testkit::nav_meshes::{self, Ground, Rng};
use areakit_testkit::nav_oracle::{Answer, Disagreement, End, Oracle, Promise};

/// The navigation data a pair is asked on.
struct Variant {
    name: &'static str,
    mesh: NavMesh,
}

fn variants(g: &Ground) -> Vec<Variant> {
    let surface = Surface {
        vertices: g.vertices.iter().map(|v| Vec3::from_array(*v)).collect(),
        triangles: g.triangles.clone(),
        regions: vec![0; g.triangles.len()],
    };
    let base = NavMesh::build(&surface).expect("a valid surface");
    let mut landmarks = base.clone();
    landmarks.measure_landmarks(4);
    let mut graph = base.clone();
    graph.build_corner_graph();
    let mut both = landmarks.clone();
    both.build_corner_graph();
    let mut no_sights = base.clone();
    no_sights.build_corner_graph_with(false);
    vec![
        Variant {
            name: "plain",
            mesh: base,
        },
        Variant {
            name: "landmarks",
            mesh: landmarks,
        },
        Variant {
            name: "graph",
            mesh: graph,
        },
        Variant {
            name: "graph+landmarks",
            mesh: both,
        },
        Variant {
            name: "graph without sights",
            mesh: no_sights,
        },
    ]
}

/// The answers for one pair on every variant, mode and layer.
fn answers(vs: &[Variant], s: Location, t: Location, searcher: &mut Searcher) -> Vec<Answer> {
    let mut out = Vec::new();
    let mut path = Path::default();
    for v in vs {
        let graph = v.mesh.corner_graph().is_some();
        for mode in [Mode::Optimal, Mode::Fast] {
            for layer in [Layer::Polygons, Layer::Triangles] {
                if layer == Layer::Triangles && v.name != "plain" {
                    continue;
                }
                let r = searcher.path_between_on(&v.mesh, s, t, mode, layer, &mut path);
                out.push(Answer {
                    how: format!("{mode:?} {layer:?} {}", v.name),
                    promise: match mode {
                        Mode::Optimal => Promise::Shortest,
                        Mode::Fast if graph && layer == Layer::Polygons => {
                            Promise::Within(FAST_BOUND)
                        }
                        Mode::Fast => Promise::Path,
                    },
                    found: r.is_ok(),
                    length: if r.is_ok() {
                        f64::from(path.length_plan)
                    } else {
                        0.0
                    },
                    points: path.points.iter().map(|p| p.to_array()).collect(),
                });
            }
        }
    }
    out
}

/// Random pairs on one ground: centres, points inside and corners of random ground triangles.
fn pairs(g: &Ground, o: &Oracle, rng: &mut Rng, count: usize) -> Vec<(End, End, Vec3, Vec3)> {
    let ground: Vec<u32> = (0..g.triangles.len() as u32)
        .filter(|&t| o.is_ground(t))
        .collect();
    (0..count)
        .map(|k| {
            let mut end = |kind: u8| loop {
                let t = ground[rng.below(ground.len() as u64) as usize];
                let p = nav_meshes::point_on(g, t, kind, rng);
                if o.holds(t, [p[0], p[1]]) {
                    break (
                        End {
                            point: [p[0], p[1]],
                            triangle: t,
                        },
                        Vec3::from_array(p),
                    );
                }
            };
            let (a, pa) = end((k % 3) as u8);
            let (b, pb) = end(((k / 3) % 3) as u8);
            (a, b, pa, pb)
        })
        .collect()
}

/// The height of triangle `t` of `mesh` at a plan point (the engine's own `Location`).
fn located(mesh: &NavMesh, e: End, p: Vec3) -> Location {
    let z = mesh.height_in(e.triangle, p.x, p.y).unwrap_or(p.z);
    Location {
        triangle: e.triangle,
        point: Vec3::new(p.x, p.y, z),
        snapped: 0.0,
    }
}

#[test]
fn every_search_agrees_with_the_oracle_on_generated_ground() {
    let mut rng = Rng(0x5eed_0f_0a_c1e5);
    let mut searcher = Searcher::new();
    let (mut pairs_done, mut queries) = (0usize, 0usize);
    let mut all: Vec<(String, Disagreement)> = Vec::new();
    for g in nav_meshes::families(37) {
        let o = Oracle::new(&g.vertices, &g.triangles);
        let vs = variants(&g);
        for (a, b, pa, pb) in pairs(&g, &o, &mut rng, 40) {
            let (s, t) = (located(&vs[0].mesh, a, pa), located(&vs[0].mesh, b, pb));
            let ans = answers(&vs, s, t, &mut searcher);
            queries += ans.len();
            pairs_done += 1;
            for d in o.judge(a, b, &ans) {
                all.push((format!("{}: {:?} -> {:?}", g.name, a, b), d));
            }
        }
    }
    if std::env::var_os("NAV_DIFF_LOG").is_some() {
        for (pair, d) in &all {
            eprintln!(
                "LOG\t{}\t{}\t{}\t{pair}\t{}",
                d.kind,
                d.how,
                d.detail.split(':').next().unwrap_or(""),
                d.detail
            );
        }
    }
    let mut shown = std::collections::BTreeMap::new();
    for (pair, d) in &all {
        let n = shown
            .entry((d.kind, d.detail.split(':').next().unwrap_or("").to_string()))
            .or_insert(0);
        *n += 1;
        if *n <= 4 {
            eprintln!("{pair}\n  {} [{}]: {}", d.kind, d.how, d.detail);
        }
    }
    let mut kinds = std::collections::BTreeMap::new();
    for (_, d) in &all {
        *kinds.entry(d.kind).or_insert(0usize) += 1;
    }
    eprintln!("{pairs_done} pairs, {queries} queries, disagreements {kinds:?}");
    assert!(pairs_done >= 600);
    assert!(all.is_empty(), "{} disagreements", all.len());
}
