//! The differential harness: one pair asked of every search the engine has (both modes, the
//! polygons, the triangles and the corner graph, with and without landmarks, the graph with
//! and without sight lists), every answer judged by the independent oracle
//! (`areakit_testkit::nav_oracle`). Shared by the geometry crate's tests on generated ground
//! and the area crate's on the corpus (`#[path]`).
#![allow(dead_code)]

use areakit_geometry::Vec3;
use areakit_geometry::nav::{
    CornerGraph, FAST_BOUND, Location, Mode, NavMesh, NavSet, Path, PathError, Request, Search,
    Searcher, Surface,
};
use areakit_testkit::nav_meshes::{self, Rng};
use areakit_testkit::nav_oracle::{Answer, Disagreement, End, Oracle, Promise};
use std::collections::BTreeMap;

/// The navigation data a pair is asked on: the mesh with its polygons, 4 landmarks and the
/// corner graph, and a corner graph without sight lists.
pub struct Built {
    pub set: NavSet,
    pub no_sights: CornerGraph,
}

/// Ground as plain arrays (what the oracle reads).
pub struct Plain<'a> {
    pub vertices: &'a [[f32; 3]],
    pub triangles: &'a [[u32; 3]],
}

pub fn build(g: &Plain) -> Built {
    build_linked(g, &[])
}

/// [`build`] with the file's own links (`Surface::links`; empty: the model's rule).
pub fn build_linked(g: &Plain, links: &[[u32; 3]]) -> Built {
    let surface = Surface {
        links: links.to_vec(),
        vertices: g.vertices.iter().map(|v| Vec3::from_array(*v)).collect(),
        triangles: g.triangles.to_vec(),
        regions: vec![0; g.triangles.len()],
    };
    let mut set = NavSet::build(&surface).expect("a valid surface");
    set.measure_landmarks(4);
    set.build_corner_graph(true);
    let no_sights = CornerGraph::build_with(&set.mesh, &set.polygons, false).expect("a graph");
    Built { set, no_sights }
}

/// Every way of asking: (name, search, landmarks, the graph without sight lists).
pub const WAYS: [(&str, Search, bool, bool); 7] = [
    ("polygons", Search::Polygons, false, false),
    ("triangles", Search::Triangles, false, false),
    ("polygons+landmarks", Search::Polygons, true, false),
    ("triangles+landmarks", Search::Triangles, true, false),
    ("graph", Search::CornerGraph, false, false),
    ("graph+landmarks", Search::CornerGraph, true, false),
    ("graph without sights", Search::CornerGraph, false, true),
];

/// The answers for one pair in both modes every way, and the fallbacks they took.
pub fn answers(
    b: &Built,
    s: Location,
    t: Location,
    searcher: &mut Searcher,
) -> (Vec<Answer>, usize) {
    let mut out = Vec::new();
    let mut path = Path::default();
    let fallbacks = searcher.walk_fallbacks() + searcher.corner_fallbacks();
    for (name, search, landmarks, no_sights) in WAYS {
        let data = if no_sights {
            b.set.data().with_graph(Some(&b.no_sights))
        } else {
            b.set.data()
        };
        for mode in [Mode::Optimal, Mode::Fast] {
            let req = Request {
                mode,
                search,
                landmarks,
                ..Request::default()
            };
            let r = searcher.path_between(&data, s, t, &req, &mut path);
            if let Err(e) = r
                && !matches!(e, PathError::DifferentIslands { .. })
            {
                // Found or not is judged below; other errors are the engine's own.
                assert!(!matches!(e, PathError::Missing { .. }), "{name}: {e}");
            }
            out.push(Answer {
                how: format!("{mode:?} {name}"),
                promise: match (mode, search) {
                    (Mode::Optimal, _) => Promise::Shortest,
                    (Mode::Fast, Search::CornerGraph) => Promise::Within(FAST_BOUND),
                    (Mode::Fast, _) => Promise::Path,
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
    let used = searcher.walk_fallbacks() + searcher.corner_fallbacks() - fallbacks;
    (out, used)
}

/// Random pairs: centres, points inside and corners of random ground triangles (in turn),
/// each on its triangle exactly.
pub fn pairs(g: &Plain, o: &Oracle, rng: &mut Rng, count: usize) -> Vec<(End, End)> {
    let ground: Vec<u32> = (0..g.triangles.len() as u32)
        .filter(|&t| o.is_ground(t))
        .collect();
    if ground.is_empty() {
        return Vec::new();
    }
    (0..count)
        .map(|k| {
            let mut end = |kind: u8| loop {
                let t = ground[rng.below(ground.len() as u64) as usize];
                let p = nav_meshes::point_on((g.vertices, g.triangles), t, kind, rng);
                if o.holds(t, [p[0], p[1]]) {
                    break End {
                        point: [p[0], p[1]],
                        triangle: t,
                    };
                }
            };
            (end((k % 3) as u8), end(((k / 3) % 3) as u8))
        })
        .collect()
}

/// An end as the engine's `Location` (its height on its triangle).
pub fn located(mesh: &NavMesh, e: End) -> Location {
    let [x, y] = e.point;
    let z = mesh.height_in(e.triangle, x, y).unwrap_or(0.0);
    Location {
        triangle: e.triangle,
        point: Vec3::new(x, y, z),
        snapped: 0.0,
    }
}

/// What a run saw: pairs, queries and disagreements by kind, with the first few written out.
#[derive(Default)]
pub struct Tally {
    pub pairs: usize,
    pub queries: usize,
    pub kinds: BTreeMap<&'static str, usize>,
    pub shown: Vec<String>,
    /// Disagreements with an oracle on the file's own links that the oracle on the model's
    /// rule does not share: the file and the rule join the ground differently there (a
    /// finding of the test, `docs/navigation.md` "Adjacency"), by kind.
    pub link_findings: BTreeMap<&'static str, usize>,
}

impl Tally {
    /// Asks the pair every way and judges the answers; a fallback taken is a disagreement
    /// too (the engine's own checks failed).
    pub fn pair(
        &mut self,
        what: &str,
        o: &Oracle,
        built: &Built,
        ends: (End, End),
        searcher: &mut Searcher,
    ) {
        self.pair_on_links(what, (o, None), built, ends, searcher);
    }

    /// [`Tally::pair`] judged by `file` (an oracle on the file's own links); with `rule` (the
    /// oracle on the adjacency the engine was given, where that is not the file's: the
    /// model's rule for a WOK), each disagreement `rule` does not share for the same answer
    /// is a link finding, the others disagreements.
    pub fn pair_on_links(
        &mut self,
        what: &str,
        (file, rule): (&Oracle, Option<&Oracle>),
        built: &Built,
        (a, b): (End, End),
        searcher: &mut Searcher,
    ) {
        let mesh = &built.set.mesh;
        let (s, t) = (located(mesh, a), located(mesh, b));
        let (ans, fallbacks) = answers(built, s, t, searcher);
        self.queries += ans.len();
        self.pairs += 1;
        let bad = file.judge(a, b, &ans);
        let by_rule = match rule {
            Some(r) if !bad.is_empty() => r.judge(a, b, &ans),
            _ => Vec::new(),
        };
        for d in bad {
            if rule.is_none() || by_rule.iter().any(|r| r.how == d.how) {
                self.record(what, (a, b), d);
            } else {
                *self.link_findings.entry(d.kind).or_default() += 1;
                if self.shown.len() < 30 {
                    self.shown.push(format!(
                        "{what}: {a:?} -> {b:?}\n  link finding {} [{}]: {}",
                        d.kind, d.how, d.detail
                    ));
                }
            }
        }
        if fallbacks > 0 {
            let d = Disagreement {
                kind: "fallback",
                how: String::new(),
                detail: format!("{fallbacks} fallback(s)"),
            };
            self.record(what, (a, b), d);
        }
    }

    fn record(&mut self, what: &str, (a, b): (End, End), d: Disagreement) {
        *self.kinds.entry(d.kind).or_default() += 1;
        if self.shown.len() < 30 {
            self.shown.push(format!(
                "{what}: {a:?} -> {b:?}\n  {} [{}]: {}",
                d.kind, d.how, d.detail
            ));
        }
    }

    /// The number of disagreements.
    pub fn disagreements(&self) -> usize {
        self.kinds.values().sum()
    }

    /// Writes the summary (and the first disagreements) to stderr.
    pub fn report(&self, family: &str) {
        for s in &self.shown {
            eprintln!("{s}");
        }
        eprintln!(
            "{family}: {} pairs, {} queries, {} disagreements {:?}, link findings {:?}",
            self.pairs,
            self.queries,
            self.disagreements(),
            self.kinds,
            self.link_findings
        );
    }
}
