//! Path searches on a [`NavMesh`]: the exact any-angle shortest path ([`Mode::Optimal`],
//! Polyanya) and a fast corridor search ([`Mode::Fast`], A* over triangles + funnel).
//!
//! # Metric
//!
//! Lengths are measured in plan: the Euclidean distance of `(x, y)`, as the engines plan their
//! paths. The path lies on the walkable triangles and its `z` follows them: each turning
//! point is a triangle corner (or the start/goal) at its own height, and
//! [`Path::surface_points`] adds a point at each triangle-edge crossing, on the edge, so the
//! polyline lies on the surface; [`Path::length_3d`] is the length of that polyline.
//!
//! A search moves only through the neighbour links of the [`NavMesh`] (shared edges), so two
//! floors that overlap in plan stay apart unless their triangles are joined by an edge.
//!
//! # Optimal mode (Polyanya)
//!
//! The search of Cui, Harabor and Grastien (IJCAI 2017) on triangles. A search node is a
//! *root* (the start, or a corner vertex where the path turns) and an *interval* on a
//! triangle edge, every point of which the root sees in a straight line; the node looks into
//! the triangle beyond the edge. `g` is the length from the start to the root, `h` the exact
//! length from the root through the interval to the goal (the goal mirrored across the
//! interval's line when it lies on the root's side), so `f = g + h` never overestimates.
//! Expanding a node projects the interval's two bounding rays through the triangle:
//!
//! - the part of the far edges between the rays is *observable*: new intervals with the same
//!   root;
//! - the parts outside the rays are *non-observable*; they are reached only by turning at an
//!   interval end that is a corner vertex (see [`NavMesh::is_corner`]), which becomes the
//!   new root. The rest of that corner's fan, beyond the triangle, is swept by *collinear*
//!   nodes (an interval on an edge through its own root sees the whole triangle beyond).
//!
//! Pruning: a root vertex keeps the smallest `g` it was reached with, and nodes of the same
//! root with a larger `g` are dropped (*root-level pruning*); a node with a single observable
//! successor is followed at once without going through the queue; a triangle whose two
//! other edges are walls and that does not hold the goal is not entered; and no triangle is
//! entered whose component of the [bridge tree](super::mesh#dead-ends) lies off the tree path
//! between the start's and the goal's components (a shortest path never goes into a dead end
//! and back out through the same edge). Fast mode applies the same dead-end rule. Geometry is done in
//! double precision on the `f32` vertices; interval ends that are exactly a vertex are carried
//! as such, so corners are recognised without tolerances.
//!
//! The first goal node taken from the queue gives the shortest path; its chain of nodes gives
//! the corridor of triangles and its roots give the turning points.
//!
//! # Fast mode
//!
//! A* over the triangles (a triangle's position is the midpoint of the edge it was entered by;
//! costs are plan distances between those points; the heuristic is the plan distance to the
//! goal), then the funnel algorithm (string pulling) over the corridor's portals. The path is
//! never shorter than the optimal one and usually a few percent longer.
//!
//! On a mesh with the corner graph, fast mode runs the optimal mode's search over the graph
//! with its lower bounds weighted by [`FAST_BOUND`] (so at most that much longer). Over the
//! graph `expanded` counts the items taken from the queue.
//!
//! # What `expanded` counts
//!
//! [`Path::expanded`] is the search effort: in optimal mode the number of search nodes
//! expanded (taken from the queue or followed at once), each of which visits one polygon (one
//! triangle on [`Layer::Triangles`]); in fast mode the number of polygons (triangles) taken
//! from the queue. A start and goal in one polygon expand none.
//!
//! # Reuse
//!
//! A [`Searcher`] keeps its working memory (node arena, queue, per-vertex and per-triangle
//! stamps) between queries; with [`Searcher::find_path_into`] and a kept [`Path`], repeated
//! queries allocate nothing once the buffers have grown.

use super::mesh::{LocateError, Location, NO_TRIANGLE, NavMesh, cross2};
use super::poly::NO_POLYGON;
use glam::Vec3;

mod corners;
mod polygons;
mod walk;

/// Which search to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// The exact Euclidean (plan) shortest path (Polyanya).
    #[default]
    Optimal,
    /// A* over triangles and the funnel algorithm: quick, not always shortest.
    Fast,
}

/// Which graph a search runs on.
///
/// Both give the same optimal lengths; [`Layer::Triangles`] is the search as it was before the
/// polygon layer (kept to measure against, and for callers that want the triangle corridor
/// search itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layer {
    /// The convex polygons merged from the triangles ([`super::poly`]), the default.
    #[default]
    Polygons,
    /// The walkable triangles themselves.
    Triangles,
}

/// The default snap distance (3-D, in world units) used by [`SearchOptions::default`].
pub const DEFAULT_SNAP: f32 = 1.0;

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchOptions {
    /// The search mode.
    pub mode: Mode,
    /// How far a start or goal off the surface may be moved to the nearest walkable point
    /// (3-D distance with a height hint, plan distance without one).
    pub snap: f32,
    /// The graph searched (the answer is the same; the polygons are faster).
    pub layer: Layer,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            mode: Mode::Optimal,
            snap: DEFAULT_SNAP,
            layer: Layer::default(),
        }
    }
}

/// A start or goal: a plan position and an optional height hint (which floor).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Endpoint {
    /// X.
    pub x: f32,
    /// Y.
    pub y: f32,
    /// The height hint: the walkable point nearest in height is taken; `None`: the highest.
    pub z: Option<f32>,
}

impl Endpoint {
    /// A plan position without a height hint.
    pub fn plan(x: f32, y: f32) -> Self {
        Endpoint { x, y, z: None }
    }
}

impl From<Vec3> for Endpoint {
    fn from(v: Vec3) -> Self {
        Endpoint {
            x: v.x,
            y: v.y,
            z: Some(v.z),
        }
    }
}

/// A path found on the surface.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Path {
    /// The turning points, start and goal included; `z` on the surface.
    pub points: Vec<Vec3>,
    /// Length in plan (the searched metric).
    pub length_plan: f32,
    /// Length along the surface: of [`Path::surface_points`].
    pub length_3d: f32,
    /// The corridor: the triangles the path passes through, in order.
    pub triangles: Vec<u32>,
    /// The regions (rooms) passed, in order, runs of one region given once.
    pub regions: Vec<u32>,
    /// The search effort (see the [module docs](self#what-expanded-counts)).
    pub expanded: usize,
    surface: Vec<Vec3>,
}

impl Path {
    /// The polyline on the surface: the turning points plus a point on each triangle edge the
    /// path crosses (consecutive duplicates removed).
    pub fn surface_points(&self) -> &[Vec3] {
        &self.surface
    }

    fn clear(&mut self) {
        self.points.clear();
        self.triangles.clear();
        self.regions.clear();
        self.surface.clear();
        self.length_plan = 0.0;
        self.length_3d = 0.0;
        self.expanded = 0;
    }
}

/// Why no path was found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PathError {
    /// The start is not on (or within the snap distance of) the walkable surface.
    Start(LocateError),
    /// The goal is not on (or within the snap distance of) the walkable surface.
    Goal(LocateError),
    /// Start and goal lie on different islands: no walk joins them.
    DifferentIslands {
        /// The start's island.
        start: u32,
        /// The goal's island.
        goal: u32,
    },
    /// The search stopped at its node limit, 32 nodes per triangle plus a million (a
    /// safeguard against numerical trouble; not expected on valid input).
    SearchLimit {
        /// Nodes generated when it stopped.
        nodes: usize,
    },
    /// The search ended without reaching the goal although both lie on one island (not
    /// expected; a numerical failure).
    NotFound,
    /// A corridor given to [`Searcher::path_along`] does not start at the start's triangle,
    /// end at the goal's, or step between neighbours.
    Corridor {
        /// The position in the corridor where it breaks.
        index: usize,
    },
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathError::Start(e) => write!(f, "start: {e}"),
            PathError::Goal(e) => write!(f, "goal: {e}"),
            PathError::DifferentIslands { start, goal } => write!(
                f,
                "start (island {start}) and goal (island {goal}) are not connected"
            ),
            PathError::SearchLimit { nodes } => {
                write!(f, "search stopped after {nodes} nodes")
            }
            PathError::NotFound => write!(f, "no path found"),
            PathError::Corridor { index } => write!(
                f,
                "the corridor breaks at position {index} (not the start's or goal's triangle, or not a neighbour of the one before)"
            ),
        }
    }
}

impl std::error::Error for PathError {}

/// On a mesh with the corner graph, a fast path is at most this much longer than the shortest
/// (plus `f32` rounding): the fast mode's search over the graph weights its lower bounds by
/// this.
pub const FAST_BOUND: f64 = 1.02;

/// The root of the start point.
const START: u32 = u32::MAX;
const L_VERT: u8 = 1;
const R_VERT: u8 = 2;
const COLLINEAR: u8 = 4;
const FINAL: u8 = 8;
/// A sweep node whose landmark bound is still to be taken (when it leaves the queue).
const LAZY_BOUND: u8 = 16;

/// A Polyanya search node.
#[derive(Clone, Copy)]
struct Node {
    /// The interval's left end (seen from the root; near corner `edge` of `tri`).
    l: [f64; 2],
    /// The interval's right end (near corner `edge + 1`).
    r: [f64; 2],
    /// Length from the start to the root (for a final node: the whole length).
    g: f64,
    root: u32,
    /// The triangle the node looks into (for a final node: the goal's).
    tri: u32,
    /// The node this one came from ([`NO_TRIANGLE`] for the first ones).
    parent: u32,
    /// For collinear nodes: the triangle the sweep started from.
    sweep: u32,
    /// The entry edge of `tri`.
    edge: u8,
    flags: u8,
}

/// A successor being built: where it is and what it carries.
#[derive(Debug, Clone, Copy)]
struct Succ {
    node: Node,
    f: f64,
}

/// Per-query constants.
#[derive(Clone, Copy)]
struct Query<'a> {
    /// Per bridge-tree component: `stamp` when the component lies on the tree path between
    /// the start's and the goal's (only those can hold the path).
    allowed: &'a [u32],
    stamp: u32,
    s: [f64; 2],
    t: [f64; 2],
    /// The vertex the start lies exactly on, if any.
    s_vertex: u32,
    /// The goal's triangle, or on the polygon layer its polygon.
    goal: u32,
    /// On the polygon layer: the start's polygon.
    start_poly: u32,
    /// A flood ([`Searcher::flood`]): no goal, `h` = 0, every vertex's distance recorded.
    flood: bool,
    /// A visibility sweep ([`Searcher::sweep_from`]): the root never changes; where the
    /// optimal search would turn at a corner, the corner is recorded in
    /// [`Searcher::events`] instead.
    sweep: bool,
    /// In a sweep: also record every corner seen (the goal's sweep: the last turn of a path
    /// is a corner that sees the goal).
    seen: bool,
    /// Landmark bounds for the goal ([`super::landmarks`]), if the mesh has landmarks.
    lm: Option<&'a super::landmarks::GoalBounds>,
}

/// The reusable working memory of path searches. See the [module docs](self#reuse).
#[derive(Debug, Default)]
pub struct Searcher {
    nodes: Vec<Node>,
    /// The optimal mode's queue: (`f` key, node).
    heap: Quad<(u64, u32)>,
    /// Per vertex: best `g` of a root, valid where `vstamp == stamp`.
    vbest: Vec<f64>,
    vstamp: Vec<u32>,
    /// Per triangle (fast mode): its search state, valid where `stamp` is the query's.
    tstate: Vec<TriState>,
    /// The fast mode's queue: `f` (as `f32` bits) above, the triangle below.
    tqueue: Quad<u64>,
    cstamp: Vec<u32>,
    stamp: u32,
    chain: Vec<u32>,
    corridor: Vec<u32>,
    /// Turning points: vertex (or [`START`]), position, and the corridor edge before which
    /// the path reaches it.
    turns: Vec<(u32, Vec3, usize)>,
    portals: Vec<([f64; 2], u32, [f64; 2], u32)>,
    /// Polygon layer: successors of one expansion, the corridor of polygons, per polygon the
    /// query that last kept it in the corridor and where.
    pbuf: Vec<Succ>,
    steps: Vec<polygons::PolyStep>,
    pstamp: Vec<u32>,
    ppos_of: Vec<u32>,
    /// A flood's distances per vertex ([`Searcher::flood`]).
    fdist: Vec<f64>,
    /// A sweep's turning corners: vertex, distance from the source, the node that saw it.
    events: Vec<(u32, f64, u32)>,
    /// A sweep's pending nodes.
    stack: Vec<u32>,
    /// Per vertex: its state in a corner-graph query.
    cstate: Vec<corners::CornerState>,
    /// The stamp of the current corner-graph search in `cstate` (its own: a query may run
    /// two such searches).
    cq: u32,
    /// Corner-graph queries that fell back to the polygon search (no corridor followed the
    /// graph's route).
    fallbacks: usize,
    /// Paths that could not be walked straight through the triangles (over the corner graph:
    /// the polygon corridor was rebuilt instead; over a polygon corridor: the triangle layer
    /// searched instead), counted at each step that failed.
    walk_fallbacks: usize,
    /// The last corner-graph route's first sweep node (the start's, which saw its first
    /// corner or the goal).
    route: u32,
    /// The straight walk's pieces' ends, ways not taken, the triangles round a vertex to
    /// each, and one vertex's exits ([`walk`]).
    ends: Vec<walk::End>,
    alts: Vec<walk::Alt>,
    alt_tris: Vec<u32>,
    exits: Vec<(u32, u32)>,
    /// A fast path's piece replaced by the shortest one ([`Searcher::pull_taut`]), and the
    /// searcher that finds it.
    piece: Path,
    sub: Option<Box<Searcher>>,
}

/// A triangle's state in a fast-mode search: everything one expansion reads or writes about
/// a triangle, in one place.
#[derive(Debug, Clone, Copy, Default)]
struct TriState {
    /// The query that last reached it ([`Searcher::stamp`]).
    stamp: u32,
    /// Length from the start to the entry point (single precision keeps the record at 16
    /// bytes; it only steers the search, the path's length is measured afterwards).
    g: f32,
    /// The triangle it was entered from ([`NO_TRIANGLE`] for the start's).
    parent: u32,
    /// The edge it was entered by (its midpoint is the entry point); [`FROM_START`] for the
    /// start's triangle (entered at the start).
    entry: u8,
    /// Taken from the queue.
    closed: bool,
}

/// [`TriState::entry`] of the start's triangle.
const FROM_START: u8 = 3;

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Node(root {}, tri {}.{}, l {:?}, r {:?}, g {}, flags {})",
            self.root as i64, self.tri, self.edge, self.l, self.r, self.g, self.flags
        )
    }
}

/// The vertex of its triangle a located point lies exactly on (in plan), if any.
fn vertex_at(mesh: &NavMesh, at: Location) -> u32 {
    mesh.triangle(at.triangle)
        .into_iter()
        .find(|&v| {
            let p = mesh.vertices[v as usize];
            p.x == at.point.x && p.y == at.point.y
        })
        .unwrap_or(NO_TRIANGLE)
}

#[inline]
fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1])).sqrt()
}

#[inline]
fn lerp(a: [f64; 2], b: [f64; 2], u: f64) -> [f64; 2] {
    [a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u]
}

/// A fast-mode queue entry: `f` rounded to `f32` above (non-negative floats order as their
/// bits), the triangle below; smaller `f` first, then the lower triangle.
#[inline]
fn queue_key(f: f32, t: u32) -> u64 {
    (u64::from(f.max(0.0).to_bits()) << 32) | u64::from(t)
}

/// An open list: a 4-ary min-heap. Four children per node halve the depth of a binary heap,
/// and a node's children sit side by side (one cache line for `u64` keys), so a pop, the
/// searches' most frequent cost, touches fewer lines.
#[derive(Debug, Clone)]
struct Quad<T> {
    keys: Vec<T>,
}

impl<T> Default for Quad<T> {
    fn default() -> Self {
        Quad { keys: Vec::new() }
    }
}

impl<T: Ord + Copy> Quad<T> {
    fn clear(&mut self) {
        self.keys.clear();
    }

    #[inline]
    fn push(&mut self, key: T) {
        let mut i = self.keys.len();
        self.keys.push(key);
        while i > 0 {
            let parent = (i - 1) / 4;
            let p = self.keys[parent];
            if p <= key {
                break;
            }
            self.keys[i] = p;
            i = parent;
        }
        self.keys[i] = key;
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        let last = self.keys.pop()?;
        let n = self.keys.len();
        if n == 0 {
            return Some(last);
        }
        let top = self.keys[0];
        // Move the hole down along the smallest children, then put `last` in it.
        let mut i = 0;
        loop {
            let first = 4 * i + 1;
            if first >= n {
                break;
            }
            let end = (first + 4).min(n);
            let mut best = first;
            let mut bk = self.keys[first];
            for c in first + 1..end {
                let k = self.keys[c];
                if k < bk {
                    best = c;
                    bk = k;
                }
            }
            if bk >= last {
                break;
            }
            self.keys[i] = bk;
            i = best;
        }
        self.keys[i] = last;
        Some(top)
    }
}

#[inline]
fn key(f: f64) -> u64 {
    // Non-negative finite floats order as their bits.
    f.max(0.0).to_bits()
}

/// The exact length from `root` through the interval `[l, r]` to `t` (the goal mirrored across
/// the interval's line when on the root's side).
#[inline]
fn heuristic(root: [f64; 2], l: [f64; 2], r: [f64; 2], t: [f64; 2]) -> f64 {
    let mut tt = t;
    if cross2(l, r, t) < 0.0 {
        let d = [r[0] - l[0], r[1] - l[1]];
        let dd = d[0] * d[0] + d[1] * d[1];
        if dd > 0.0 {
            let s = ((t[0] - l[0]) * d[0] + (t[1] - l[1]) * d[1]) / dd;
            let foot = [l[0] + d[0] * s, l[1] + d[1] * s];
            tt = [2.0 * foot[0] - t[0], 2.0 * foot[1] - t[1]];
        }
    }
    if cross2(root, r, tt) < 0.0 {
        dist(root, r) + dist(r, tt)
    } else if cross2(root, l, tt) > 0.0 {
        dist(root, l) + dist(l, tt)
    } else {
        dist(root, tt)
    }
}

impl Searcher {
    /// A searcher with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Finds a path from `from` to `to` (each located on the surface, or snapped to it within
    /// `options.snap`).
    pub fn find_path(
        &mut self,
        mesh: &NavMesh,
        from: impl Into<Endpoint>,
        to: impl Into<Endpoint>,
        options: &SearchOptions,
    ) -> Result<Path, PathError> {
        let mut out = Path::default();
        self.find_path_into(mesh, from, to, options, &mut out)?;
        Ok(out)
    }

    /// [`Searcher::find_path`] writing into `out` (its buffers are reused).
    pub fn find_path_into(
        &mut self,
        mesh: &NavMesh,
        from: impl Into<Endpoint>,
        to: impl Into<Endpoint>,
        options: &SearchOptions,
        out: &mut Path,
    ) -> Result<(), PathError> {
        let (from, to) = (from.into(), to.into());
        let s = mesh
            .locate_or_snap(from.x, from.y, from.z, options.snap)
            .map_err(PathError::Start)?;
        let t = mesh
            .locate_or_snap(to.x, to.y, to.z, options.snap)
            .map_err(PathError::Goal)?;
        self.path_between_on(mesh, s, t, options.mode, options.layer, out)
    }

    /// Corner-graph queries so far that fell back to the polygon search ([`NavMesh::build_corner_graph`]).
    #[doc(hidden)]
    pub fn corner_fallbacks(&self) -> usize {
        self.fallbacks
    }

    /// Paths so far that were not walked straight through the triangles at some step (over
    /// the corner graph: a route through a point where two walkable wedges touch; the
    /// corridor was then rebuilt from the polygons, and failing that the query answered
    /// another way), counted at each step that failed.
    #[doc(hidden)]
    pub fn walk_fallbacks(&self) -> usize {
        self.walk_fallbacks
    }

    /// The path between two located points (see [`NavMesh::locate`]), on the default
    /// [`Layer`].
    pub fn path_between(
        &mut self,
        mesh: &NavMesh,
        start: Location,
        goal: Location,
        mode: Mode,
        out: &mut Path,
    ) -> Result<(), PathError> {
        self.path_between_on(mesh, start, goal, mode, Layer::default(), out)
    }

    /// [`Searcher::path_between`] on a chosen [`Layer`].
    pub fn path_between_on(
        &mut self,
        mesh: &NavMesh,
        start: Location,
        goal: Location,
        mode: Mode,
        layer: Layer,
        out: &mut Path,
    ) -> Result<(), PathError> {
        out.clear();
        let n = mesh.triangle_count();
        if start.triangle as usize >= n {
            return Err(PathError::Start(LocateError::EmptySurface));
        }
        if goal.triangle as usize >= n {
            return Err(PathError::Goal(LocateError::EmptySurface));
        }
        let (si, gi) = (
            mesh.island_of(start.triangle),
            mesh.island_of(goal.triangle),
        );
        if si != gi {
            return Err(PathError::DifferentIslands {
                start: si,
                goal: gi,
            });
        }
        self.corridor.clear();
        self.turns.clear();
        let (sp, gp) = (
            mesh.poly.tri_poly[start.triangle as usize],
            mesh.poly.tri_poly[goal.triangle as usize],
        );
        let polygons = layer == Layer::Polygons && sp != NO_POLYGON && gp != NO_POLYGON;
        if start.triangle == goal.triangle {
            self.corridor.push(start.triangle);
            self.turns.push((START, start.point, 0));
            self.turns.push((START, goal.point, usize::MAX));
        } else {
            self.prepare(mesh);
            // The components on the bridge-tree path between start and goal.
            let mut allowed = std::mem::take(&mut self.cstamp);
            // (Polygon components: a triangle's is its polygon's, on either layer; located
            // triangles have plan area, so a polygon.)
            let pl = &mesh.poly;
            let (comp_parent, comp_depth) = (&pl.comp_parent, &pl.comp_depth);
            let (a, b) = if sp != NO_POLYGON && gp != NO_POLYGON {
                (pl.comp[sp as usize], pl.comp[gp as usize])
            } else {
                (NO_TRIANGLE, NO_TRIANGLE)
            };
            let (mut a, mut b) = (a, b);
            while a != b {
                if comp_depth[a as usize] >= comp_depth[b as usize] {
                    allowed[a as usize] = self.stamp;
                    a = comp_parent[a as usize];
                } else {
                    allowed[b as usize] = self.stamp;
                    b = comp_parent[b as usize];
                }
                if a == NO_TRIANGLE || b == NO_TRIANGLE {
                    break;
                }
            }
            if a != NO_TRIANGLE {
                allowed[a as usize] = self.stamp;
            }
            let q = Query {
                allowed: &allowed,
                stamp: self.stamp,
                s: [f64::from(start.point.x), f64::from(start.point.y)],
                t: [f64::from(goal.point.x), f64::from(goal.point.y)],
                s_vertex: vertex_at(mesh, start),
                goal: if polygons { gp } else { goal.triangle },
                start_poly: sp,
                flood: false,
                sweep: false,
                seen: false,
                lm: None,
            };
            let gb = match (
                &mesh.lm,
                polygons && (mode == Mode::Optimal || mesh.cg.is_some()),
            ) {
                (Some(lm), true) => Some(lm.goal_bounds(mesh, gp, q.t, sp, q.s)),
                _ => None,
            };
            let q = Query {
                lm: gb.as_ref(),
                ..q
            };
            let r = if polygons {
                let r = if sp == gp {
                    self.steps.clear();
                    self.steps.push(polygons::PolyStep {
                        poly: sp,
                        edge: u8::MAX,
                    });
                    Ok((0, false))
                } else {
                    match (mode, &mesh.cg) {
                        (_, Some(cg)) => {
                            self.corner_query(mesh, cg, &q, gb.as_ref(), (start, goal), mode)
                        }
                        (Mode::Optimal, None) => self.polyanya_poly(mesh, &q).map(|e| (e, false)),
                        (Mode::Fast, None) => self.astar_poly(mesh, &q).map(|e| (e, false)),
                    }
                };
                match r {
                    Ok((expanded, walked)) => {
                        out.expanded = expanded;
                        if walked || self.walk_corridor(mesh, start, goal, &q) {
                            Ok(())
                        } else {
                            // Not walked straight through the triangles (not expected: every
                            // test is exact): the triangle layer's search instead, from a
                            // clean start (the polygon search's queue, nodes and root bests
                            // are not the triangles').
                            self.walk_fallbacks += 1;
                            self.prepare(mesh);
                            self.corridor.clear();
                            self.turns.clear();
                            let qt = Query {
                                goal: goal.triangle,
                                lm: None,
                                ..q
                            };
                            match mode {
                                Mode::Optimal => self.polyanya(mesh, start, goal, &qt, out),
                                Mode::Fast => self.astar(mesh, start, goal, &qt, out),
                            }
                        }
                    }
                    Err(e) => Err(e),
                }
            } else {
                match mode {
                    Mode::Optimal => self.polyanya(mesh, start, goal, &q, out),
                    Mode::Fast => self.astar(mesh, start, goal, &q, out),
                }
            };
            self.cstamp = allowed;
            r?;
            if mode == Mode::Fast {
                self.pull_taut(mesh, start, goal);
            }
        }
        self.finish(mesh, out);
        Ok(())
    }

    /// The shortest path inside a given corridor: triangles from the start's to the goal's,
    /// each a neighbour of the one before (a route chosen elsewhere, such as the NWN2 engine's
    /// baked path tables). The funnel algorithm pulls the string through the corridor's
    /// portals; `expanded` is the corridor's length.
    pub fn path_along(
        &mut self,
        mesh: &NavMesh,
        start: Location,
        goal: Location,
        corridor: &[u32],
        out: &mut Path,
    ) -> Result<(), PathError> {
        out.clear();
        let n = mesh.triangle_count();
        if corridor.first() != Some(&start.triangle) || start.triangle as usize >= n {
            return Err(PathError::Corridor { index: 0 });
        }
        if corridor.last() != Some(&goal.triangle) {
            return Err(PathError::Corridor {
                index: corridor.len() - 1,
            });
        }
        for (i, w) in corridor.windows(2).enumerate() {
            let (a, b) = (w[0] as usize, w[1]);
            if b as usize >= n
                || !mesh.links[a]
                    .iter()
                    .any(|&l| l != NO_TRIANGLE && l >> 2 == b)
            {
                return Err(PathError::Corridor { index: i + 1 });
            }
        }
        self.corridor.clear();
        self.corridor.extend_from_slice(corridor);
        self.turns.clear();
        let q = Query {
            allowed: &[],
            stamp: 0,
            s: [f64::from(start.point.x), f64::from(start.point.y)],
            t: [f64::from(goal.point.x), f64::from(goal.point.y)],
            s_vertex: NO_TRIANGLE,
            goal: goal.triangle,
            start_poly: NO_POLYGON,
            flood: false,
            sweep: false,
            seen: false,
            lm: None,
        };
        if corridor.len() == 1 {
            self.turns.push((START, start.point, 0));
            self.turns.push((START, goal.point, usize::MAX));
        } else {
            self.funnel(mesh, start, goal, &q);
        }
        self.finish(mesh, out);
        out.expanded = corridor.len();
        Ok(())
    }

    fn prepare(&mut self, mesh: &NavMesh) {
        let nv = mesh.vertices.len();
        let nt = mesh.triangle_count();
        if self.vstamp.len() < nv {
            self.vstamp.resize(nv, 0);
            self.vbest.resize(nv, 0.0);
        }
        let ncomp = mesh.poly.comp_parent.len();
        if self.cstamp.len() < ncomp {
            self.cstamp.resize(ncomp, 0);
        }
        if self.tstate.len() < nt {
            self.tstate.resize(nt, TriState::default());
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.vstamp.iter_mut().for_each(|s| *s = 0);
            self.tstate.iter_mut().for_each(|s| s.stamp = 0);
            self.cstamp.iter_mut().for_each(|s| *s = 0);
            self.pstamp.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.nodes.clear();
        self.heap.clear();
        self.tqueue.clear();
    }

    // -----------------------------------------------------------------------------------------
    // Optimal mode
    // -----------------------------------------------------------------------------------------

    #[inline]
    fn root_pos(mesh: &NavMesh, q: &Query, root: u32) -> [f64; 2] {
        if root == START {
            q.s
        } else {
            let v = mesh.vertices[root as usize];
            [f64::from(v.x), f64::from(v.y)]
        }
    }

    /// Records `g` for root vertex `v`; false when a shorter way to it is known.
    #[inline]
    fn claim_root(&mut self, v: u32, g: f64) -> bool {
        let i = v as usize;
        if self.vstamp[i] == self.stamp {
            if self.vbest[i] < g {
                return false;
            }
            self.vbest[i] = g;
        } else {
            self.vstamp[i] = self.stamp;
            self.vbest[i] = g;
        }
        true
    }

    fn polyanya(
        &mut self,
        mesh: &NavMesh,
        start: Location,
        goal: Location,
        q: &Query,
        out: &mut Path,
    ) -> Result<(), PathError> {
        let limit = 32 * mesh.triangle_count() + 1_000_000;
        let t0 = start.triangle;
        let tri = mesh.tris[t0 as usize];
        let mut buf = [None::<Succ>; 8];
        // The first nodes: every edge of the start triangle, root = start.
        for k in 0..3 {
            let a = tri[k];
            let b = tri[(k + 1) % 3];
            let pa = Self::vpos(mesh, a);
            let pb = Self::vpos(mesh, b);
            let collinear = cross2(pa, pb, q.s) == 0.0;
            let mut cnt = 0;
            Self::make_succ(
                mesh,
                q,
                &mut buf,
                &mut cnt,
                t0,
                k,
                (pa, true),
                (pb, true),
                START,
                0.0,
                if collinear { COLLINEAR } else { 0 },
                t0,
                NO_TRIANGLE,
            );
            for s in buf.iter().take(cnt).flatten() {
                self.push(*s);
            }
        }
        let mut expanded = 0usize;
        while let Some((_, idx)) = self.heap.pop() {
            let mut ni = idx;
            loop {
                let node = self.nodes[ni as usize];
                if node.flags & FINAL != 0 {
                    out.expanded = expanded;
                    self.collect_optimal(mesh, start, goal, ni);
                    return Ok(());
                }
                if node.root != START {
                    let v = node.root as usize;
                    if self.vstamp[v] == self.stamp && self.vbest[v] < node.g {
                        break;
                    }
                }
                expanded += 1;
                let mut cnt = 0;
                self.expand(mesh, q, ni, &mut buf, &mut cnt);
                if self.nodes.len() > limit {
                    return Err(PathError::SearchLimit {
                        nodes: self.nodes.len(),
                    });
                }
                if cnt == 1
                    && let Some(s) = buf[0]
                    && s.node.flags & FINAL == 0
                    && s.node.root == node.root
                {
                    ni = self.nodes.len() as u32;
                    self.nodes.push(s.node);
                    continue;
                }
                for s in buf.iter().take(cnt).flatten() {
                    self.push(*s);
                }
                break;
            }
        }
        Err(PathError::NotFound)
    }

    #[inline]
    fn push(&mut self, s: Succ) {
        let i = self.nodes.len() as u32;
        self.nodes.push(s.node);
        self.heap.push((key(s.f), i));
    }

    #[inline]
    fn vpos(mesh: &NavMesh, v: u32) -> [f64; 2] {
        let p = mesh.vertices[v as usize];
        [f64::from(p.x), f64::from(p.y)]
    }

    /// Builds the successor through edge `e` of triangle `t` (the interval's end near corner
    /// `e` is `near_start`, near corner `e + 1` is `near_end`; each with whether it is
    /// exactly that corner) and adds it to `buf` unless it is pruned.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn make_succ(
        mesh: &NavMesh,
        q: &Query,
        buf: &mut [Option<Succ>; 8],
        cnt: &mut usize,
        t: u32,
        e: usize,
        near_start: ([f64; 2], bool),
        near_end: ([f64; 2], bool),
        root: u32,
        g: f64,
        flags: u8,
        sweep: u32,
        parent: u32,
    ) {
        let link = mesh.links[t as usize][e];
        if link == NO_TRIANGLE {
            return;
        }
        let nb = link >> 2;
        let j = (link & 3) as usize;
        if flags & COLLINEAR != 0 && nb == sweep {
            return;
        }
        if q.allowed[mesh.poly.comp[mesh.poly.tri_poly[nb as usize] as usize] as usize] != q.stamp {
            return;
        }
        if nb != q.goal {
            let nl = mesh.links[nb as usize];
            if nl[(j + 1) % 3] == NO_TRIANGLE && nl[(j + 2) % 3] == NO_TRIANGLE {
                return;
            }
        }
        // In the neighbour, its edge j runs from our corner e + 1 to our corner e.
        let l = near_end.0;
        let r = near_start.0;
        if l == r {
            return;
        }
        let mut fl = flags;
        if near_end.1 {
            fl |= L_VERT;
        }
        if near_start.1 {
            fl |= R_VERT;
        }
        let rp = Self::root_pos(mesh, q, root);
        let h = if flags & COLLINEAR != 0 {
            dist(rp, q.t)
        } else {
            heuristic(rp, l, r, q.t)
        };
        buf[*cnt] = Some(Succ {
            node: Node {
                l,
                r,
                g,
                root,
                tri: nb,
                parent,
                sweep,
                edge: j as u8,
                flags: fl,
            },
            f: g + h,
        });
        *cnt += 1;
    }

    #[inline]
    fn final_succ(
        buf: &mut [Option<Succ>; 8],
        cnt: &mut usize,
        node: &Node,
        parent: u32,
        root: u32,
        total: f64,
    ) {
        buf[*cnt] = Some(Succ {
            node: Node {
                l: [0.0; 2],
                r: [0.0; 2],
                g: total,
                root,
                tri: node.tri,
                parent,
                sweep: NO_TRIANGLE,
                edge: 0,
                flags: FINAL,
            },
            f: total,
        });
        *cnt += 1;
    }

    fn expand(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
        ni: u32,
        buf: &mut [Option<Succ>; 8],
        cnt: &mut usize,
    ) {
        let node = self.nodes[ni as usize];
        let t = node.tri;
        let tri = mesh.tris[t as usize];
        let k = node.edge as usize;
        let (e1, e2) = ((k + 1) % 3, (k + 2) % 3);
        let (ia, ib, ic) = (tri[k], tri[e1], tri[e2]);
        let (a, b, c) = (
            Self::vpos(mesh, ia),
            Self::vpos(mesh, ib),
            Self::vpos(mesh, ic),
        );
        let rp = Self::root_pos(mesh, q, node.root);
        let g = node.g;
        let (l, r) = (node.l, node.r);

        if node.flags & COLLINEAR != 0 {
            if t == q.goal {
                Self::final_succ(buf, cnt, &node, ni, node.root, g + dist(rp, q.t));
                return;
            }
            let rv = if node.root == START {
                q.s_vertex
            } else {
                node.root
            };
            let sw = node.sweep;
            if rv == ia {
                Self::make_succ(
                    mesh,
                    q,
                    buf,
                    cnt,
                    t,
                    e2,
                    (c, true),
                    (a, true),
                    node.root,
                    g,
                    COLLINEAR,
                    sw,
                    ni,
                );
                Self::make_succ(
                    mesh,
                    q,
                    buf,
                    cnt,
                    t,
                    e1,
                    (b, true),
                    (c, true),
                    node.root,
                    g,
                    0,
                    NO_TRIANGLE,
                    ni,
                );
            } else if rv == ib {
                Self::make_succ(
                    mesh,
                    q,
                    buf,
                    cnt,
                    t,
                    e1,
                    (b, true),
                    (c, true),
                    node.root,
                    g,
                    COLLINEAR,
                    sw,
                    ni,
                );
                Self::make_succ(
                    mesh,
                    q,
                    buf,
                    cnt,
                    t,
                    e2,
                    (c, true),
                    (a, true),
                    node.root,
                    g,
                    0,
                    NO_TRIANGLE,
                    ni,
                );
            } else {
                for (e, p0, p1) in [(e1, b, c), (e2, c, a)] {
                    Self::make_succ(
                        mesh,
                        q,
                        buf,
                        cnt,
                        t,
                        e,
                        (p0, true),
                        (p1, true),
                        node.root,
                        g,
                        0,
                        NO_TRIANGLE,
                        ni,
                    );
                }
            }
            return;
        }

        let r_vert = node.flags & R_VERT != 0;
        let l_vert = node.flags & L_VERT != 0;

        if t == q.goal {
            let tp = q.t;
            if cross2(rp, r, tp) >= 0.0 && cross2(rp, l, tp) <= 0.0 {
                Self::final_succ(buf, cnt, &node, ni, node.root, g + dist(rp, tp));
            } else if cross2(rp, r, tp) < 0.0 {
                if r_vert && mesh.is_corner(ib) {
                    let g2 = g + dist(rp, b);
                    if self.claim_root(ib, g2) {
                        Self::final_succ(buf, cnt, &node, ni, ib, g2 + dist(b, tp));
                    }
                }
            } else if l_vert && mesh.is_corner(ia) {
                let g2 = g + dist(rp, a);
                if self.claim_root(ia, g2) {
                    Self::final_succ(buf, cnt, &node, ni, ia, g2 + dist(a, tp));
                }
            }
            return;
        }

        let o_r = cross2(rp, r, c);
        let o_l = cross2(rp, l, c);
        if o_r < 0.0 {
            // Both rays leave through edge e2 (C -> A).
            let oa = cross2(rp, r, a);
            let ur = if oa - o_r > 0.0 {
                (o_r / (o_r - oa)).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let pr = lerp(c, a, ur);
            let (pl, ul) = if l_vert {
                (a, 1.0)
            } else {
                let oal = cross2(rp, l, a);
                let u = if oal - o_l > 0.0 {
                    (o_l / (o_l - oal)).clamp(ur, 1.0)
                } else {
                    1.0
                };
                (lerp(c, a, u), u)
            };
            Self::make_succ(
                mesh,
                q,
                buf,
                cnt,
                t,
                e2,
                (pr, false),
                (pl, l_vert && ul == 1.0),
                node.root,
                g,
                0,
                NO_TRIANGLE,
                ni,
            );
            if r_vert && mesh.is_corner(ib) {
                let g2 = g + dist(rp, b);
                if self.claim_root(ib, g2) {
                    Self::make_succ(
                        mesh,
                        q,
                        buf,
                        cnt,
                        t,
                        e2,
                        (c, true),
                        (pr, false),
                        ib,
                        g2,
                        0,
                        NO_TRIANGLE,
                        ni,
                    );
                    Self::make_succ(
                        mesh,
                        q,
                        buf,
                        cnt,
                        t,
                        e1,
                        (b, true),
                        (c, true),
                        ib,
                        g2,
                        COLLINEAR,
                        t,
                        ni,
                    );
                }
            }
        } else if o_l > 0.0 {
            // Both rays leave through edge e1 (B -> C).
            let ob_l = cross2(rp, l, b);
            let ul = if o_l - ob_l > 0.0 {
                (ob_l / (ob_l - o_l)).clamp(0.0, 1.0)
            } else {
                1.0
            };
            let pl = lerp(b, c, ul);
            let pr = if r_vert {
                b
            } else {
                let ob = cross2(rp, r, b);
                let u = if o_r - ob > 0.0 {
                    (ob / (ob - o_r)).clamp(0.0, ul)
                } else {
                    0.0
                };
                lerp(b, c, u)
            };
            Self::make_succ(
                mesh,
                q,
                buf,
                cnt,
                t,
                e1,
                (pr, r_vert),
                (pl, false),
                node.root,
                g,
                0,
                NO_TRIANGLE,
                ni,
            );
            if l_vert && mesh.is_corner(ia) {
                let g2 = g + dist(rp, a);
                if self.claim_root(ia, g2) {
                    Self::make_succ(
                        mesh,
                        q,
                        buf,
                        cnt,
                        t,
                        e1,
                        (pl, false),
                        (c, true),
                        ia,
                        g2,
                        0,
                        NO_TRIANGLE,
                        ni,
                    );
                    Self::make_succ(
                        mesh,
                        q,
                        buf,
                        cnt,
                        t,
                        e2,
                        (c, true),
                        (a, true),
                        ia,
                        g2,
                        COLLINEAR,
                        t,
                        ni,
                    );
                }
            }
        } else {
            // C is inside the cone: the right ray leaves through e1, the left through e2.
            let pr = if r_vert {
                b
            } else if o_r == 0.0 {
                c
            } else {
                let ob = cross2(rp, r, b);
                let u = if o_r - ob > 0.0 {
                    (ob / (ob - o_r)).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                lerp(b, c, u)
            };
            let pl = if l_vert {
                a
            } else if o_l == 0.0 {
                c
            } else {
                let oal = cross2(rp, l, a);
                let u = if oal - o_l > 0.0 {
                    (o_l / (o_l - oal)).clamp(0.0, 1.0)
                } else {
                    1.0
                };
                lerp(c, a, u)
            };
            Self::make_succ(
                mesh,
                q,
                buf,
                cnt,
                t,
                e1,
                (pr, r_vert),
                (c, true),
                node.root,
                g,
                0,
                NO_TRIANGLE,
                ni,
            );
            Self::make_succ(
                mesh,
                q,
                buf,
                cnt,
                t,
                e2,
                (c, true),
                (pl, l_vert),
                node.root,
                g,
                0,
                NO_TRIANGLE,
                ni,
            );
        }
    }

    fn collect_optimal(&mut self, mesh: &NavMesh, start: Location, goal: Location, fi: u32) {
        self.chain.clear();
        let mut i = fi;
        while i != NO_TRIANGLE {
            self.chain.push(i);
            i = self.nodes[i as usize].parent;
        }
        self.chain.reverse();
        self.corridor.push(start.triangle);
        self.turns.push((START, start.point, 0));
        let mut last_root = START;
        for &ni in &self.chain {
            let n = &self.nodes[ni as usize];
            if n.root != last_root {
                // The turn is in the triangle before this node's (at a corner of it).
                last_root = n.root;
                let e = self.corridor.len() - 1;
                self.turns.push((n.root, mesh.vertices[n.root as usize], e));
            }
            if n.flags & FINAL == 0 {
                self.corridor.push(n.tri);
            }
        }
        self.turns.push((START, goal.point, usize::MAX));
    }

    // -----------------------------------------------------------------------------------------
    // Fast mode
    // -----------------------------------------------------------------------------------------

    fn astar(
        &mut self,
        mesh: &NavMesh,
        start: Location,
        goal: Location,
        q: &Query,
        out: &mut Path,
    ) -> Result<(), PathError> {
        let stamp = self.stamp;
        let t0 = start.triangle;
        self.tstate[t0 as usize] = TriState {
            stamp,
            g: 0.0,
            parent: NO_TRIANGLE,
            entry: FROM_START,
            closed: false,
        };
        // Single precision throughout: the search only steers (the corridor's path is measured
        // afterwards), and the corners are stored in `f32`.
        let (qs, qt) = (q.s.map(|c| c as f32), q.t.map(|c| c as f32));
        let dist32 = |a: [f32; 2], b: [f32; 2]| {
            let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
            (dx * dx + dy * dy).sqrt()
        };
        self.tqueue.push(queue_key(dist32(qs, qt), t0));
        let mut expanded = 0usize;
        let mut found = false;
        while let Some(k) = self.tqueue.pop() {
            let t = k as u32;
            let tu = t as usize;
            let st = &mut self.tstate[tu];
            if st.closed {
                continue;
            }
            st.closed = true;
            let (g, entry) = (st.g, st.entry);
            expanded += 1;
            if t == q.goal {
                found = true;
                break;
            }
            // The corners, and the edge midpoints (edge k from corner k to k + 1).
            let tri = mesh.tris[tu];
            let c = tri.map(|v| {
                let p = mesh.vertices[v as usize];
                [p.x, p.y]
            });
            let half = |a: [f32; 2], b: [f32; 2]| [(a[0] + b[0]) * 0.5, (a[1] + b[1]) * 0.5];
            let mid = [half(c[0], c[1]), half(c[1], c[2]), half(c[2], c[0])];
            let pos = if entry == FROM_START {
                qs
            } else {
                mid[entry as usize]
            };
            for (k, &m) in mid.iter().enumerate() {
                let link = mesh.links[tu][k];
                if link == NO_TRIANGLE {
                    continue;
                }
                let nb = (link >> 2) as usize;
                let ns = self.tstate[nb];
                let seen = ns.stamp == stamp;
                let comp = mesh.poly.comp[mesh.poly.tri_poly[nb] as usize];
                if seen && ns.closed || q.allowed[comp as usize] != q.stamp {
                    continue;
                }
                let g2 = g + dist32(pos, m);
                if seen && ns.g <= g2 {
                    continue;
                }
                self.tstate[nb] = TriState {
                    stamp,
                    g: g2,
                    parent: t,
                    entry: (link & 3) as u8,
                    closed: false,
                };
                self.tqueue.push(queue_key(g2 + dist32(m, qt), nb as u32));
            }
        }
        out.expanded = expanded;
        if !found {
            return Err(PathError::NotFound);
        }
        // The corridor, start to goal.
        let mut t = q.goal;
        while t != NO_TRIANGLE {
            self.corridor.push(t);
            t = self.tstate[t as usize].parent;
        }
        self.corridor.reverse();
        self.funnel(mesh, start, goal, q);
        Ok(())
    }

    /// Adds a turning point unless it repeats the last one's position (two vertices at one
    /// place, or the funnel turning twice at one corner).
    fn push_turn(&mut self, turn: (u32, Vec3, usize)) {
        if self.turns.last().is_some_and(|t| t.1 == turn.1) {
            return;
        }
        self.turns.push(turn);
    }

    /// The funnel algorithm over the corridor's portals; fills `turns`.
    fn funnel(&mut self, mesh: &NavMesh, start: Location, goal: Location, q: &Query) {
        self.portals.clear();
        self.portals.push((q.s, START, q.s, START));
        for w in self.corridor.windows(2) {
            let (ta, tb) = (w[0] as usize, w[1]);
            let tri = mesh.tris[ta];
            let k = (0..3)
                .find(|&k| mesh.links[ta][k] != NO_TRIANGLE && mesh.links[ta][k] >> 2 == tb)
                .unwrap_or(0);
            let (u, v) = (tri[k], tri[(k + 1) % 3]);
            // Walking out of `ta` across edge u -> v: v on the left, u on the right.
            self.portals
                .push((Self::vpos(mesh, v), v, Self::vpos(mesh, u), u));
        }
        self.run_funnel(mesh, start, goal, q);
    }

    /// The funnel algorithm over `self.portals` (the start, the corridor's edges, then the
    /// goal is added here); fills `turns`, each turn with the index of the corridor edge it
    /// lies on.
    fn run_funnel(&mut self, mesh: &NavMesh, start: Location, goal: Location, q: &Query) {
        // A start lying on the first portals (on the edge of its triangle) crosses them where
        // it stands, and a goal on the last ones likewise: they become points, which keeps the
        // funnel from opening at an apex on its own portal's line.
        let on = |p: [f64; 2], (l, _, r, _): ([f64; 2], u32, [f64; 2], u32)| {
            let d = [r[0] - l[0], r[1] - l[1]];
            let u = (p[0] - l[0]) * d[0] + (p[1] - l[1]) * d[1];
            cross2(l, r, p) == 0.0 && u >= 0.0 && u <= d[0] * d[0] + d[1] * d[1]
        };
        let n = self.portals.len();
        let mut i = 1;
        while i < n && on(q.s, self.portals[i]) {
            self.portals[i] = (q.s, START, q.s, START);
            i += 1;
        }
        let mut j = n;
        while j > i && on(q.t, self.portals[j - 1]) {
            self.portals[j - 1] = (q.t, START - 1, q.t, START - 1);
            j -= 1;
        }
        self.portals.push((q.t, START - 1, q.t, START - 1));
        self.turns.push((START, start.point, 0));
        let (mut apex, mut apex_id) = (q.s, START);
        let (mut left, mut left_id) = (q.s, START);
        let (mut right, mut right_id) = (q.s, START);
        let (mut left_i, mut right_i) = (0usize, 0usize);
        let mut i = 1;
        let n = self.portals.len();
        while i < n {
            let (pl, pl_id, pr, pr_id) = self.portals[i];
            // Right leg.
            if cross2(apex, right, pr) >= 0.0 {
                if apex_id == right_id || cross2(apex, left, pr) < 0.0 {
                    right = pr;
                    right_id = pr_id;
                    right_i = i;
                } else {
                    // The right leg crosses the left: the left point is a turn.
                    (apex, apex_id) = (left, left_id);
                    if left_id < START - 1 && left_id != q.s_vertex {
                        self.push_turn((left_id, mesh.vertices[left_id as usize], left_i - 1));
                    }
                    right = apex;
                    right_id = left_id;
                    right_i = left_i;
                    i = left_i + 1;
                    continue;
                }
            }
            // Left leg.
            if cross2(apex, left, pl) <= 0.0 {
                if apex_id == left_id || cross2(apex, right, pl) > 0.0 {
                    left = pl;
                    left_id = pl_id;
                    left_i = i;
                } else {
                    (apex, apex_id) = (right, right_id);
                    if right_id < START - 1 && right_id != q.s_vertex {
                        self.push_turn((right_id, mesh.vertices[right_id as usize], right_i - 1));
                    }
                    left = apex;
                    left_id = right_id;
                    left_i = right_i;
                    i = right_i + 1;
                    continue;
                }
            }
            i += 1;
        }
        self.turns.push((START, goal.point, usize::MAX));
    }

    // -----------------------------------------------------------------------------------------
    // The path
    // -----------------------------------------------------------------------------------------

    /// A fast path from a corridor may turn at a vertex that is no corner (the corridor went
    /// round it, on ground that goes on beyond): such a turn is dropped where the path
    /// without it still walks on the ground.
    fn pull_taut(&mut self, mesh: &NavMesh, start: Location, goal: Location) {
        let n = self.turns.len();
        if n < 3 || self.turns[1..n - 1].iter().all(|t| mesh.is_corner(t.0)) {
            return;
        }
        let mut corners: Vec<u32> = self.turns[1..n - 1].iter().map(|t| t.0).collect();
        let before = corners.clone();
        let mut i = 0;
        while i < corners.len() {
            if mesh.is_corner(corners[i]) {
                i += 1;
                continue;
            }
            let mut trial = corners.clone();
            trial.remove(i);
            if self.walk_polyline(mesh, start, goal, &trial) {
                corners = trial;
                i = i.saturating_sub(1);
            } else {
                i += 1;
            }
        }
        // Those left stand where the path must bend round something else: the piece from the
        // turn before to the one after is replaced by the shortest path between them (which
        // turns at corners only, and is no longer).
        while self.walk_polyline(mesh, start, goal, &corners) {
            let Some(i) = corners.iter().position(|&c| !mesh.is_corner(c)) else {
                return;
            };
            // The turns' places on the walked corridor (`turns[0]` is the start).
            let at = |s: &Self, j: usize| Location {
                triangle: s.corridor[s.turns[j].2],
                point: s.turns[j].1,
                snapped: 0.0,
            };
            let a = if i == 0 { start } else { at(self, i) };
            let b = if i + 1 == corners.len() {
                goal
            } else {
                at(self, i + 2)
            };
            let sub = self.sub.get_or_insert_with(Default::default);
            let mut piece = std::mem::take(&mut self.piece);
            if sub
                .path_between_on(mesh, a, b, Mode::Optimal, Layer::Polygons, &mut piece)
                .is_err()
            {
                self.piece = piece;
                break;
            }
            let inner = piece.points.len().saturating_sub(2);
            let vertices: Vec<u32> = (0..inner).map(|k| sub.turn_vertex(k + 1)).collect();
            self.piece = piece;
            corners.splice(i..i + 1, vertices);
        }
        // Not expected: the funnel's path as it was.
        let _ = self.walk_polyline(mesh, start, goal, &before);
    }

    /// The vertex of the last path's turn `i` (1: the first after the start).
    fn turn_vertex(&self, i: usize) -> u32 {
        self.turns[i].0
    }

    /// Fills `out` from `corridor` and `turns`: points, lengths, surface polyline, regions.
    fn finish(&mut self, mesh: &NavMesh, out: &mut Path) {
        // A turn at the start's or the goal's own place (an end on a corner) is no turn.
        let mut i = 1;
        while i < self.turns.len() && self.turns.len() > 2 {
            let (a, b) = (self.turns[i].1, self.turns[i - 1].1);
            if a.x == b.x && a.y == b.y {
                let at = if i + 1 == self.turns.len() { i - 1 } else { i };
                self.turns.remove(at);
            } else {
                i += 1;
            }
        }
        out.points.extend(self.turns.iter().map(|t| t.1));
        let mut plan_len = 0.0f64;
        for w in out.points.windows(2) {
            plan_len += dist(
                [f64::from(w[0].x), f64::from(w[0].y)],
                [f64::from(w[1].x), f64::from(w[1].y)],
            );
        }
        out.length_plan = plan_len as f32;
        out.triangles.extend_from_slice(&self.corridor);
        for &t in &self.corridor {
            let r = mesh.regions.get(t);
            if out.regions.last() != Some(&r) {
                out.regions.push(r);
            }
        }
        // The surface polyline: a point where the path crosses each corridor edge.
        let pts = &out.points;
        let surf = &mut out.surface;
        let p2 = |v: Vec3| [f64::from(v.x), f64::from(v.y)];
        surf.push(pts[0]);
        let mut j = 0usize;
        for (e, w) in self.corridor.windows(2).enumerate() {
            // Turning points reached before this edge.
            while j + 2 < pts.len() && self.turns[j + 1].2 <= e {
                j += 1;
                push_distinct(surf, pts[j]);
            }
            let (ta, tb) = (w[0] as usize, w[1]);
            let tri = mesh.tris[ta];
            let Some(k) =
                (0..3).find(|&k| mesh.links[ta][k] != NO_TRIANGLE && mesh.links[ta][k] >> 2 == tb)
            else {
                continue;
            };
            let (uu, vv) = (
                mesh.vertices[tri[k] as usize],
                mesh.vertices[tri[(k + 1) % 3] as usize],
            );
            let (u, v) = (p2(uu), p2(vv));
            let (p, q) = (p2(pts[j]), p2(pts[j + 1]));
            let du = cross2(p, q, u);
            let dv = cross2(p, q, v);
            let s = if du != dv {
                du / (du - dv)
            } else {
                // Along the edge (or a point): the edge point nearest to p.
                let d = [v[0] - u[0], v[1] - u[1]];
                let dd = d[0] * d[0] + d[1] * d[1];
                if dd > 0.0 {
                    ((p[0] - u[0]) * d[0] + (p[1] - u[1]) * d[1]) / dd
                } else {
                    0.0
                }
            };
            let x = uu + (vv - uu) * s.clamp(0.0, 1.0) as f32;
            push_distinct(surf, x);
        }
        for &p in &pts[j + 1..] {
            push_distinct(surf, p);
        }
        let mut len3 = 0.0f64;
        for w in surf.windows(2) {
            len3 += (w[1] - w[0]).as_dvec3().length();
        }
        out.length_3d = len3 as f32;
    }
}

#[inline]
fn push_distinct(v: &mut Vec<Vec3>, p: Vec3) {
    if v.last() != Some(&p) {
        v.push(p);
    }
}

#[cfg(test)]
mod tests {
    use super::Quad;

    #[test]
    fn quad_heap_pops_in_order_through_interleaved_pushes() {
        let mut q = Quad::default();
        let mut reference = std::collections::BinaryHeap::new();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut popped = 0;
        for round in 0..5_000u64 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Small keys: many ties, which the packed keys break by their low bits.
            for k in 0..rng % 4 {
                let key = (rng >> 20) % 64 * 8 + k;
                q.push(key);
                reference.push(std::cmp::Reverse(key));
            }
            if round % 3 != 0 {
                assert_eq!(q.pop(), reference.pop().map(|r| r.0));
                popped += 1;
            }
        }
        while let Some(std::cmp::Reverse(k)) = reference.pop() {
            assert_eq!(q.pop(), Some(k));
            popped += 1;
        }
        assert_eq!(q.pop(), None);
        assert!(popped > 5_000);
        q.push(3);
        q.clear();
        assert_eq!(q.pop(), None);
    }
}
