//! The query object: [`Searcher`] answers a [`Request`] on [`NavData`] — the immutable mesh
//! and whatever acceleration data the caller built and hands over (the polygons, landmarks,
//! the corner graph). The request names the search; nothing is chosen by which data happens
//! to be there, and a search whose data is missing is an error ([`PathError::Missing`]).
//!
//! # The searches
//!
//! Lengths are measured in plan, the Euclidean distance of `(x, y)`, as the engines plan their
//! paths; the path's `z` follows the triangles. A search moves only through shared edges, so
//! two floors that overlap in plan stay apart unless their triangles are joined.
//!
//! - [`Mode::Optimal`] on [`Search::Polygons`] or [`Search::Triangles`]: the exact shortest
//!   path, Polyanya over those cells ([`crate::nav::search::polyanya`]); its turns are the
//!   roots of the final node's chain. With `landmarks`, bounded by the landmark distances.
//! - [`Mode::Fast`] on either: A* over the cells ([`crate::nav::search::astar`]) and the funnel
//!   over its corridor ([`crate::nav::search::funnel`]); a turn the funnel makes at a vertex
//!   that is no corner (the corridor went round a vertex with ground beyond it) is dropped, or
//!   swapped for a corner of its fan, or the piece round it replaced by the shortest one, so a
//!   fast path too turns only at corners ([`Searcher::pull_taut`]: each trial walks one piece,
//!   not the whole path). Never shorter than the optimal path.
//! - [`Search::CornerGraph`]: the search over the corner graph ([`graph`]), exact in the optimal
//!   mode, its bounds weighted by [`FAST_BOUND`] in the fast mode (at most that much longer).
//!
//! On the polygons or the triangles, both modes first walk the straight line from the start:
//! when it reaches the goal, that is the shortest path and no search runs (the walk stops at
//! the first wall it meets, so a goal out of sight costs the triangles to that wall).
//!
//! Every path is then walked straight through the triangles
//! ([`crate::nav::search::walk`]), which gives its corridor, regions and points on the
//! surface ([`Path`]). That walk failing would mean a search returned a path off the ground;
//! the query then answers by Polyanya on the triangles and counts it
//! ([`Searcher::walk_fallbacks`]; no test meets one).
//!
//! # Reuse
//!
//! A `Searcher` keeps its working memory (node pool, queues, per-vertex and per-cell stamps)
//! between queries; with [`Searcher::find_path_into`] and a kept [`Path`], repeated queries
//! allocate nothing once the buffers have grown.

mod data;
mod graph;
mod sight;

pub use data::{NavData, NavSet};

use crate::nav::mesh::{LocateError, Location, NO_TRIANGLE, NavMesh};
use crate::nav::search::astar::{self, Step};
use crate::nav::search::cells::{Cells, Triangles, allow_path, components};
use crate::nav::search::funnel::{self, Portal};
use crate::nav::search::polyanya::{self, Bound, Query};
use crate::nav::search::pool::{NO_EDGE, NONE, Pool};
use crate::nav::search::result::{Endpoint, Path, PathError, Turn, finish};
use crate::nav::search::walk::{Walker, fan_corners};
use crate::nav::search::{START, vertex_at};

/// The optimal path or a fast one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// The exact Euclidean (plan) shortest path.
    #[default]
    Optimal,
    /// Quicker, not always the shortest (over the corner graph at most [`FAST_BOUND`] times
    /// it).
    Fast,
}

/// Which search answers a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Search {
    /// Over the convex polygons merged from the triangles (needs [`NavData::polygons`]).
    #[default]
    Polygons,
    /// Over the triangles themselves (the polygons' bridge tree prunes it where given).
    Triangles,
    /// Over the corner graph (needs [`NavData::polygons`] and [`NavData::graph`]).
    CornerGraph,
}

/// The default snap distance (3-D, in world units) of [`Request::default`].
pub const DEFAULT_SNAP: f32 = 1.0;

/// Over the corner graph, a fast path is at most this much longer than the shortest (plus
/// `f32` rounding): the fast mode's search over the graph weights its lower bounds by this.
pub const FAST_BOUND: f64 = 1.02;

/// What to search for and how.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Request {
    /// Optimal or fast.
    pub mode: Mode,
    /// The search.
    pub search: Search,
    /// Bound the optimal search (and the corner graph's, in both modes) by the landmark
    /// distances (needs [`NavData::landmarks`]); the answers are the same.
    pub landmarks: bool,
    /// How far a start or goal off the surface may be moved to the nearest walkable point
    /// (3-D distance with a height hint, plan distance without one).
    pub snap: f32,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            mode: Mode::Optimal,
            search: Search::Polygons,
            landmarks: false,
            snap: DEFAULT_SNAP,
        }
    }
}

impl Request {
    /// The default request in `mode` with `search`.
    pub fn new(mode: Mode, search: Search) -> Self {
        Request {
            mode,
            search,
            ..Request::default()
        }
    }
}

/// The reusable working memory of path searches. See the [module docs](self#reuse).
#[derive(Debug, Default)]
pub struct Searcher {
    pool: Pool,
    walker: Walker,
    /// A fast search's corridor, its portals and the funnel's turns.
    steps: Vec<Step>,
    portals: Vec<Portal>,
    fturns: Vec<Turn>,
    /// The vertices a path turns at (Polyanya's roots, the funnel's or the graph's turns).
    chain: Vec<u32>,
    /// Per vertex: its state in a corner-graph query, and that query's stamp.
    cstate: Vec<graph::CornerState>,
    cq: u32,
    /// Corner-graph queries answered by Polyanya instead.
    fallbacks: usize,
    /// Paths that could not be walked straight through the triangles.
    walk_fallbacks: usize,
    /// A fast path's piece replaced by the shortest one ([`Searcher::pull_taut`]), and the
    /// searcher that finds it.
    piece: Path,
    sub: Option<Box<Searcher>>,
    /// The fast path's turns being pulled taut, and those kept (each with where it was
    /// reached).
    taut: Vec<(u32, Location)>,
    kept: Vec<(u32, Location)>,
    cands: Vec<u32>,
    /// The triangles the start and the goal stand on, and the path of another pair of them.
    stand_s: Vec<u32>,
    stand_g: Vec<u32>,
    alt: Path,
}

impl Searcher {
    /// A searcher with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Finds a path from `from` to `to` (each located on the surface, or snapped to it within
    /// `req.snap`).
    pub fn find_path(
        &mut self,
        data: &NavData,
        from: impl Into<Endpoint>,
        to: impl Into<Endpoint>,
        req: &Request,
    ) -> Result<Path, PathError> {
        let mut out = Path::default();
        self.find_path_into(data, from, to, req, &mut out)?;
        Ok(out)
    }

    /// [`Searcher::find_path`] writing into `out` (its buffers are reused).
    pub fn find_path_into(
        &mut self,
        data: &NavData,
        from: impl Into<Endpoint>,
        to: impl Into<Endpoint>,
        req: &Request,
        out: &mut Path,
    ) -> Result<(), PathError> {
        let (from, to) = (from.into(), to.into());
        let s = data
            .mesh
            .locate_or_snap(from.x, from.y, from.z, req.snap)
            .map_err(PathError::Start)?;
        let t = data
            .mesh
            .locate_or_snap(to.x, to.y, to.z, req.snap)
            .map_err(PathError::Goal)?;
        self.path_between(data, s, t, req, out)
    }

    /// Corner-graph queries so far that were answered by Polyanya instead.
    #[doc(hidden)]
    pub fn corner_fallbacks(&self) -> usize {
        self.fallbacks
    }

    /// Paths so far that could not be walked straight through the triangles (and were
    /// answered by Polyanya on the triangles instead).
    #[doc(hidden)]
    pub fn walk_fallbacks(&self) -> usize {
        self.walk_fallbacks
    }

    /// The path between two located points (see [`NavMesh::locate`]). Each end stands on
    /// every triangle [`NavMesh::standing`] lists (an edge, a vertex's fan, ground laid twice):
    /// the path leaves the start from, and reaches the goal through, whichever of them gives
    /// the shortest way. A point inside one triangle is one search; otherwise one per pair of
    /// distinct cells the ends stand on (the located pair first; a later one wins only when
    /// shorter), and `expanded` counts them all.
    pub fn path_between(
        &mut self,
        data: &NavData,
        start: Location,
        goal: Location,
        req: &Request,
        out: &mut Path,
    ) -> Result<(), PathError> {
        let mesh = data.mesh;
        let (mut ss, mut gs) = (
            std::mem::take(&mut self.stand_s),
            std::mem::take(&mut self.stand_g),
        );
        mesh.standing(&start, &mut ss);
        mesh.standing(&goal, &mut gs);
        let first = self.path_one(data, start, goal, req, out);
        if ss.len() > 1 || gs.len() > 1 {
            self.distinct_cells(data, req, &mut ss);
            self.distinct_cells(data, req, &mut gs);
        }
        if ss.len() == 1 && gs.len() == 1 {
            (self.stand_s, self.stand_g) = (ss, gs);
            return first;
        }
        let mut best = first.is_ok().then_some(out.length_plan);
        let mut expanded = out.expanded;
        let mut alt = std::mem::take(&mut self.alt);
        for (i, &st) in ss.iter().enumerate() {
            for (j, &gt) in gs.iter().enumerate() {
                if (i, j) == (0, 0) || mesh.island_of(st) != mesh.island_of(gt) {
                    continue;
                }
                let on = |l: Location, t: u32| on_triangle(mesh, l, t);
                if self
                    .path_one(data, on(start, st), on(goal, gt), req, &mut alt)
                    .is_err()
                {
                    continue;
                }
                expanded += alt.expanded;
                let shorter = best.is_none_or(|b| alt.length_plan < b - 1e-5 * b.max(1.0));
                if shorter {
                    best = Some(alt.length_plan);
                    std::mem::swap(out, &mut alt);
                }
            }
        }
        (self.alt, self.stand_s, self.stand_g) = (alt, ss, gs);
        match best {
            Some(_) => {
                out.expanded = expanded;
                Ok(())
            }
            None => first,
        }
    }

    /// Keeps, of the triangles in `ts` (the located one first), the first of each cell the
    /// search `req` runs on.
    fn distinct_cells(&self, data: &NavData, req: &Request, ts: &mut Vec<u32>) {
        let cell = |t: u32| match (req.search, data.polygons) {
            (Search::Polygons | Search::CornerGraph, Some(p)) => Cells::of_triangle(p, t),
            _ => t,
        };
        let mut i = 0;
        while i < ts.len() {
            let c = cell(ts[i]);
            if ts[..i].iter().any(|&u| cell(u) == c) {
                ts.remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// The path between two located points, each on the triangle it names.
    fn path_one(
        &mut self,
        data: &NavData,
        start: Location,
        goal: Location,
        req: &Request,
        out: &mut Path,
    ) -> Result<(), PathError> {
        out.clear();
        data.check()?;
        let mesh = data.mesh;
        let n = mesh.triangle_count();
        if start.triangle as usize >= n || mesh.is_flat(start.triangle) {
            return Err(PathError::Start(LocateError::EmptySurface));
        }
        if goal.triangle as usize >= n || mesh.is_flat(goal.triangle) {
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
        if req.landmarks && data.landmarks.is_none() {
            return Err(PathError::Missing {
                what: "the landmarks",
            });
        }
        let expanded = if start.triangle == goal.triangle {
            self.walker.single(start, goal);
            0
        } else {
            let r = match req.search {
                Search::Triangles => self.on_cells(data, &triangles(data), (start, goal), req),
                Search::Polygons => {
                    let p = data.polygons.ok_or(PathError::Missing {
                        what: "the polygons",
                    })?;
                    self.on_cells(data, p, (start, goal), req)
                }
                Search::CornerGraph => self.on_graph(data, (start, goal), req),
            };
            match r {
                Err(Walk) => {
                    // Not expected (every test is exact): Polyanya on the triangles.
                    self.walk_fallbacks += 1;
                    let req = Request {
                        mode: Mode::Optimal,
                        landmarks: false,
                        ..*req
                    };
                    match self.on_cells(data, &triangles(data), (start, goal), &req) {
                        Ok(e) => e,
                        Err(Walk) => return Err(PathError::NotFound),
                        Err(Error(e)) => return Err(e),
                    }
                }
                Err(Error(e)) => return Err(e),
                Ok(e) => e,
            }
        };
        out.expanded = expanded;
        finish(mesh, &self.walker.corridor, &mut self.walker.turns, out);
        Ok(())
    }

    /// Readies the pool for a search from cell `sc` to cell `gc` of `cells`: the components
    /// the path may cross (taken from the pool; put them back after the search) and their
    /// stamp.
    fn begin<C: Cells>(&mut self, mesh: &NavMesh, cells: &C, sc: u32, gc: u32) -> (Vec<u32>, u32) {
        self.pool
            .prepare(mesh.vertices.len(), cells.count(), components(cells));
        let stamp = self.pool.stamp;
        let mut allowed = std::mem::take(&mut self.pool.allowed);
        allow_path(cells, &mut allowed, stamp, sc, gc);
        (allowed, stamp)
    }

    /// Optimal or fast on `cells`: the path walked into `self.walker`, and the search effort.
    fn on_cells<C: Cells>(
        &mut self,
        data: &NavData,
        cells: &C,
        (start, goal): (Location, Location),
        req: &Request,
    ) -> Result<usize, Failure> {
        let mesh = data.mesh;
        let (sc, gc) = (
            cells.of_triangle(start.triangle),
            cells.of_triangle(goal.triangle),
        );
        if sc == gc {
            // One convex cell: the straight line.
            return if self.walker.walk_polyline(mesh, start, goal, &[]) {
                Ok(0)
            } else {
                Err(Walk)
            };
        }
        // The goal in sight: the straight line is the shortest path, in either mode (a walk
        // through the triangles it crosses, stopped at the first wall; the search would cost
        // more). Its effort: the triangles it crossed.
        if self.walker.walk_polyline(mesh, start, goal, &[]) {
            return Ok(self.walker.corridor.len());
        }
        let (allowed, stamp) = self.begin(mesh, cells, sc, gc);
        let (s, t) = (plan(start.point), plan(goal.point));
        let corners = |c: u32| cells.corners(c);
        let bounds = match (data.landmarks, req.landmarks && req.mode == Mode::Optimal) {
            (Some(lm), true) => Some(lm.goal_bounds(mesh, &corners, (gc, t), (sc, s))),
            _ => None,
        };
        let q = Query {
            bound: bounds.as_ref().map(|b| b as &dyn Bound),
            ..Query::between((&allowed, stamp), (s, vertex_at(mesh, start), sc), (t, gc))
        };
        let r = match req.mode {
            Mode::Optimal => polyanya::search(&mut self.pool, mesh, cells, &q).map(|(fi, e)| {
                polyanya::turns(&self.pool, fi, &mut self.chain);
                e
            }),
            Mode::Fast => astar::corridor(&mut self.pool, mesh, cells, &q, &mut self.steps)
                .inspect(|_| {
                    funnel::portals(mesh, cells, s, &self.steps, &mut self.portals);
                    funnel::funnel(
                        mesh,
                        &mut self.portals,
                        (s, q.s_vertex),
                        t,
                        &mut self.fturns,
                    );
                    self.chain.clear();
                    self.chain.extend(self.fturns.iter().map(|t| t.0));
                }),
        };
        self.pool.allowed = allowed;
        let expanded = r.map_err(Error)?;
        let chain = std::mem::take(&mut self.chain);
        let walked = self.walker.walk_polyline(mesh, start, goal, &chain);
        self.chain = chain;
        if !walked {
            return Err(Walk);
        }
        if req.mode == Mode::Fast && !self.pull_taut(data, start, goal) {
            return Err(Walk);
        }
        Ok(expanded)
    }

    /// Over the corner graph: the path walked into `self.walker`, and the search effort; if
    /// the graph's path cannot be walked, Polyanya on the polygons answers (counted in
    /// [`Searcher::corner_fallbacks`]).
    fn on_graph(
        &mut self,
        data: &NavData,
        (start, goal): (Location, Location),
        req: &Request,
    ) -> Result<usize, Failure> {
        let mesh = data.mesh;
        let missing = |what| Error(PathError::Missing { what });
        let polygons = data.polygons.ok_or(missing("the polygons"))?;
        let graph = data.graph.ok_or(missing("the corner graph"))?;
        let (sc, gc) = (
            Cells::of_triangle(polygons, start.triangle),
            Cells::of_triangle(polygons, goal.triangle),
        );
        if sc == gc {
            return self.on_cells(data, polygons, (start, goal), req);
        }
        let (allowed, stamp) = self.begin(mesh, polygons, sc, gc);
        let (s, t) = (plan(start.point), plan(goal.point));
        let corners = |c: u32| polygons.corners(c);
        let (bounds, back) = match (data.landmarks, req.landmarks) {
            (Some(lm), true) => (
                Some(lm.goal_bounds(mesh, &corners, (gc, t), (sc, s))),
                Some(lm.goal_bounds(mesh, &corners, (sc, s), (gc, t))),
            ),
            _ => (None, None),
        };
        let q = Query {
            bound: bounds.as_ref().map(|b| b as &dyn Bound),
            ..Query::between((&allowed, stamp), (s, vertex_at(mesh, start), sc), (t, gc))
        };
        let gq = graph::GraphQuery {
            mesh,
            polygons,
            graph,
            t,
            bound: bounds.as_ref().map(|b| b as &dyn Bound),
            bound_back: back.as_ref().map(|b| b as &dyn Bound),
            weight: match req.mode {
                Mode::Optimal => 1.0,
                Mode::Fast => FAST_BOUND,
            },
        };
        let r = self.graph_query(&gq, &q, (start, goal));
        self.pool.allowed = allowed;
        match r {
            Ok(e) => Ok(e),
            Err(PathError::NotFound) => {
                self.fallbacks += 1;
                let req = Request {
                    mode: Mode::Optimal,
                    search: Search::Polygons,
                    ..*req
                };
                self.on_cells(data, polygons, (start, goal), &req)
            }
            Err(e) => Err(Error(e)),
        }
    }

    /// A fast path from a corridor may turn at a vertex that is no corner (the corridor went
    /// round it, on ground that goes on beyond). Such a turn is dropped where the one straight
    /// piece from the turn before it to the turn after it stays on the ground
    /// ([`Searcher::drop_turns`]). One that stays is replaced by a corner of its fan that both
    /// neighbouring turns see, if that is no longer ([`Searcher::fan_corner`]), else the piece
    /// round it by the shortest path between the turns before and after it (which turns at
    /// corners only, and is no longer). Only single pieces are walked for these trials; the
    /// path is then walked whole once. False if that fails (not expected; the caller then
    /// answers by Polyanya).
    fn pull_taut(&mut self, data: &NavData, start: Location, goal: Location) -> bool {
        let mesh = data.mesh;
        let w = &self.walker;
        let n = w.turns.len();
        if n < 3 || w.turns[1..n - 1].iter().all(|t| mesh.is_corner(t.0)) {
            return true;
        }
        let mut kept = std::mem::take(&mut self.kept);
        self.drop_turns(mesh, (start, goal), &mut kept);
        let req = Request::new(
            Mode::Optimal,
            if data.polygons.is_some() {
                Search::Polygons
            } else {
                Search::Triangles
            },
        );
        let mut turns = std::mem::take(&mut self.taut);
        turns.clear();
        let mut ok = true;
        for i in 0..kept.len() {
            let (c, at) = kept[i];
            if mesh.is_corner(c) {
                turns.push((c, at));
                continue;
            }
            let a = turns.last().map_or(start, |t| t.1);
            let b = kept.get(i + 1).map_or((goal, None), |t| (t.1, Some(t.0)));
            if let Some((k, at_k, t)) = self.fan_corner(mesh, a, (c, at), b) {
                turns.push((k, at_k));
                if let Some(n) = kept.get_mut(i + 1) {
                    n.1.triangle = t;
                }
                continue;
            }
            let sub = self.sub.get_or_insert_with(Default::default);
            if sub.path_one(data, a, b.0, &req, &mut self.piece).is_err() {
                ok = false;
                break;
            }
            let st = &sub.walker.turns;
            turns.extend(
                st[1..st.len() - 1]
                    .iter()
                    .map(|t| (t.0, reached(&sub.walker, t))),
            );
        }
        cut_loops(&mut turns, start, goal);
        let mut chain = std::mem::take(&mut self.chain);
        chain.clear();
        chain.extend(turns.iter().map(|t| t.0));
        let ok = ok && self.walker.walk_polyline(mesh, start, goal, &chain);
        (self.chain, self.taut, self.kept) = (chain, turns, kept);
        ok
    }

    /// Into `kept`, the walked path's turns (each where the walk reached it: the triangle it
    /// arrived in) less those at no corner that can be dropped: the straight piece from the
    /// turn before to the turn after walks on the ground. After each drop the turn before,
    /// if no corner either, is tried again.
    fn drop_turns(
        &mut self,
        mesh: &NavMesh,
        (start, goal): (Location, Location),
        kept: &mut Vec<(u32, Location)>,
    ) {
        let w = &self.walker;
        let mut turns = std::mem::take(&mut self.taut);
        turns.clear();
        turns.extend(
            w.turns[1..w.turns.len() - 1]
                .iter()
                .map(|t| (t.0, reached(w, t))),
        );
        kept.clear();
        for i in 0..turns.len() {
            kept.push(turns[i]);
            let (to, vertex) = turns
                .get(i + 1)
                .map_or((goal, None), |&(v, l)| (l, Some(v)));
            while let Some(&(c, _)) = kept.last()
                && !mesh.is_corner(c)
            {
                let from = kept.len().checked_sub(2).map_or(start, |k| kept[k].1);
                let Some(t) = self.walker.walk_piece(mesh, from, to, vertex) else {
                    break;
                };
                kept.pop();
                if let Some(next) = turns.get_mut(i + 1) {
                    next.1.triangle = t;
                }
            }
        }
        self.taut = turns;
    }

    /// For the turn at `c` (no corner, reached at `at`) between `a` and `b` (the goal, or a
    /// turn at the given vertex): the corner of `c`'s fan nearest by way of it that sees both,
    /// if going by it is no longer than by `c`. The corner, where it is reached, and the
    /// triangle the piece from it reaches `b` in.
    fn fan_corner(
        &mut self,
        mesh: &NavMesh,
        a: Location,
        (c, at): (u32, Location),
        (b, bv): (Location, Option<u32>),
    ) -> Option<(u32, Location, u32)> {
        let mut cands = std::mem::take(&mut self.cands);
        fan_corners(mesh, at.triangle, c, &mut cands);
        let bound = plan_dist(a.point, at.point) + plan_dist(at.point, b.point);
        let mut best: Option<(f64, u32, Location, u32)> = None;
        for &k in &cands {
            let p = mesh.vertices[k as usize];
            let len = plan_dist(a.point, p) + plan_dist(p, b.point);
            if len > bound || best.is_some_and(|x| x.0 <= len) {
                continue;
            }
            let to = Location {
                triangle: at.triangle,
                point: p,
                snapped: 0.0,
            };
            let Some(t1) = self.walker.walk_piece(mesh, a, to, Some(k)) else {
                continue;
            };
            let from = Location { triangle: t1, ..to };
            if let Some(t2) = self.walker.walk_piece(mesh, from, b, bv) {
                best = Some((len, k, from, t2));
            }
        }
        self.cands = cands;
        best.map(|(_, k, at_k, t)| (k, at_k, t))
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
        self.steps.clear();
        self.steps.push(Step {
            cell: start.triangle,
            edge: NO_EDGE,
        });
        for (i, w) in corridor.windows(2).enumerate() {
            let (a, b) = (w[0] as usize, w[1]);
            let link = mesh.links[a]
                .iter()
                .copied()
                .find(|&l| l != NO_TRIANGLE && l >> 2 == b);
            match link {
                Some(l) if (b as usize) < n => self.steps.push(Step {
                    cell: b,
                    edge: (l & 3) as u8,
                }),
                _ => return Err(PathError::Corridor { index: i + 1 }),
            }
        }
        let w = &mut self.walker;
        w.corridor.clear();
        w.corridor.extend_from_slice(corridor);
        w.turns.clear();
        w.turns.push((START, start.point, 0));
        if corridor.len() > 1 {
            let (s, t) = (plan(start.point), plan(goal.point));
            let cells = Triangles {
                mesh,
                polygons: None,
            };
            funnel::portals(mesh, &cells, s, &self.steps, &mut self.portals);
            funnel::funnel(mesh, &mut self.portals, (s, NONE), t, &mut self.fturns);
            w.turns.extend_from_slice(&self.fturns);
        }
        w.turns.push((START, goal.point, usize::MAX));
        finish(mesh, &w.corridor, &mut w.turns, out);
        out.expanded = corridor.len();
        Ok(())
    }
}

/// The triangles of `data`'s mesh, pruned by its polygons' bridge tree when given.
fn triangles<'a>(data: &NavData<'a>) -> Triangles<'a> {
    Triangles {
        mesh: data.mesh,
        polygons: data.polygons,
    }
}

/// Cuts the loops out of a path's turns: a turn at the place of the start or of an earlier
/// turn drops the turns since (the path came back there), and one at the goal's place the
/// turns after it. Each piece left is one the path had (from the place the loop came back
/// to), so the path stays on the ground, and it is no longer.
fn cut_loops(turns: &mut Vec<(u32, Location)>, start: Location, goal: Location) {
    let (s, t) = (plan(start.point), plan(goal.point));
    let mut kept = 0;
    for i in 0..turns.len() {
        let p = plan(turns[i].1.point);
        if p == t {
            break;
        }
        if p == s {
            kept = 0;
            continue;
        }
        if let Some(j) = turns[..kept].iter().position(|u| plan(u.1.point) == p) {
            kept = j;
        }
        turns[kept] = turns[i];
        kept += 1;
    }
    turns.truncate(kept);
}

/// The plan distance of two points.
/// `l` moved onto triangle `t` (one it stands on): its height there.
pub(super) fn on_triangle(mesh: &NavMesh, l: Location, t: u32) -> Location {
    Location {
        triangle: t,
        point: glam::Vec3::new(
            l.point.x,
            l.point.y,
            mesh.height_in(t, l.point.x, l.point.y).unwrap_or(l.point.z),
        ),
        ..l
    }
}

fn plan_dist(a: glam::Vec3, b: glam::Vec3) -> f64 {
    let (a, b) = (plan(a), plan(b));
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// Where `walker`'s walk reached turn `t`: its point in the triangle it arrived in.
fn reached(walker: &Walker, t: &Turn) -> Location {
    Location {
        triangle: walker.corridor[t.2],
        point: t.1,
        snapped: 0.0,
    }
}

/// How a search failed: an error to report, or a path that could not be walked on the ground.
enum Failure {
    Walk,
    Error(PathError),
}
use Failure::{Error, Walk};

#[inline]
fn plan(v: glam::Vec3) -> [f64; 2] {
    [f64::from(v.x), f64::from(v.y)]
}
