//! Visibility sweeps on the polygon layer: the optimal search held to one root.
//!
//! A sweep from a source runs the polygon layer's Polyanya expansion with the root fixed: its
//! nodes are the intervals the source sees, and where the search would turn at a corner (a
//! taut path from the source may bend there) the corner is recorded instead, with its
//! distance. Every optimal path's turning points are such corners of the turning point before
//! (the optimal search finds every optimal path by exactly these turns), which makes the
//! recorded corners the edges of the corner graph ([`crate::nav::corners`]).
//!
//! A query over the graph reads the start's and the goal's polygons' sight lists in place of
//! sweeping from them ([`Searcher::corner_query`]); it sweeps only where a list is missing.

use super::polygons::PolyStep;
use super::{
    COLLINEAR, FAST_BOUND, FINAL, L_VERT, LAZY_BOUND, Mode, NO_TRIANGLE, PathError, Query, R_VERT,
    Searcher, dist, key, vertex_at,
};
use crate::nav::corners::{CornerGraph, SEES_WHOLE};
use crate::nav::landmarks::GoalBounds;
use crate::nav::mesh::{Location, NavMesh, cross2};
use crate::nav::poly::NO_POLYGON;

impl Searcher {
    /// Where a node would turn at corner `v` after `g`: in a sweep, records the corner (no
    /// node turns); else claims the root ([`Searcher::claim_root`]).
    #[inline]
    pub(super) fn turn_at(&mut self, q: &Query, v: u32, g: f64, ni: u32) -> bool {
        if q.sweep {
            if v != q.s_vertex {
                self.events.push((v, g, ni));
            }
            false
        } else {
            self.claim_root(v, g)
        }
    }

    /// Calls `f` with the polygon of every node of the last sweep.
    pub(crate) fn swept_polygons(&self, mut f: impl FnMut(u32)) {
        for n in &self.nodes {
            f(n.tri);
        }
    }

    /// Calls `f` with every polygon the last sweep (from vertex `v`) sees whole: one whose
    /// corners' directions from `v` the cones of the nodes looking into it cover without a
    /// gap (a convex polygon lies in any convex cone that holds its corners), or one a node
    /// looks into along an edge from `v` itself. Polygons with `v` as a corner may be missing
    /// (the sweep starts inside them).
    pub(crate) fn seen_whole(&mut self, mesh: &NavMesh, v: u32, mut f: impl FnMut(u32)) {
        let rp = Self::ppos(mesh, v);
        let mut by = std::mem::take(&mut self.stack);
        by.clear();
        // First each node alone (most polygons are seen through one edge); the others are
        // grouped by polygon.
        for (i, n) in self.nodes.iter().enumerate() {
            if n.flags & FINAL != 0 {
                continue;
            }
            let alone = n.flags & COLLINEAR != 0
                || mesh
                    .poly
                    .corners(n.tri)
                    .iter()
                    .all(|&c| in_cone(rp, n.l, n.r, Self::ppos(mesh, c)));
            if alone {
                f(n.tri);
            } else {
                by.push(i as u32);
            }
        }
        by.sort_unstable_by_key(|&i| self.nodes[i as usize].tri);
        for group in by.chunk_by(|&a, &b| self.nodes[a as usize].tri == self.nodes[b as usize].tri)
        {
            if group.len() < 2 {
                continue;
            }
            let p = self.nodes[group[0] as usize].tri;
            // The polygon's rightmost and leftmost corners seen from `v` (it lies on one side of
            // `v`, which is not one of its corners).
            let corners = mesh.poly.corners(p);
            let mut lo = Self::ppos(mesh, corners[0]);
            let mut hi = lo;
            for &c in &corners[1..] {
                let x = Self::ppos(mesh, c);
                if cross2(rp, lo, x) < 0.0 {
                    lo = x;
                }
                if cross2(rp, hi, x) > 0.0 {
                    hi = x;
                }
            }
            // Walk the cones from `lo` leftwards until one holds `hi`.
            let mut d = lo;
            let whole = loop {
                let mut next: Option<[f64; 2]> = None;
                for &i in group {
                    let n = &self.nodes[i as usize];
                    if in_cone(rp, n.l, n.r, d) && next.is_none_or(|m| cross2(rp, m, n.l) > 0.0) {
                        next = Some(n.l);
                    }
                }
                let Some(l) = next else { break false };
                if cross2(rp, l, hi) <= 0.0 {
                    break true;
                }
                if cross2(rp, d, l) <= 0.0 {
                    break false;
                }
                d = l;
            };
            if whole {
                f(p);
            }
        }
        self.stack = by;
    }

    /// A goal's sweep sees vertex `v` at distance `d` from node `ni`: recorded if a corner.
    #[inline]
    pub(super) fn seen_corner(&mut self, mesh: &NavMesh, v: u32, d: f64, ni: u32) {
        if mesh.is_corner(v) {
            self.events.push((v, d, ni));
        }
    }

    /// Sweeps from vertex `v`, starting in polygon `poly` (one that has `v` as a corner): the
    /// corners a taut path from `v` may turn at next, with their distances (a corner may be
    /// listed more than once).
    pub(crate) fn sweep_from(&mut self, mesh: &NavMesh, v: u32, poly: u32) -> &[(u32, f64, u32)] {
        self.prepare(mesh);
        self.events.clear();
        let s = Self::ppos(mesh, v);
        let q = Query {
            allowed: &[],
            stamp: self.stamp,
            s,
            t: s,
            s_vertex: v,
            goal: NO_POLYGON,
            start_poly: poly,
            flood: false,
            sweep: true,
            seen: false,
            lm: None,
        };
        let limit = 32 * mesh.triangle_count() + 1_000_000;
        let mut buf = std::mem::take(&mut self.pbuf);
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        Self::start_psuccs(mesh, &q, &mut buf);
        loop {
            for s in buf.drain(..) {
                if s.node.flags & FINAL == 0 {
                    stack.push(self.nodes.len() as u32);
                    self.nodes.push(s.node);
                }
            }
            let Some(ni) = stack.pop() else { break };
            if self.nodes.len() > limit {
                break;
            }
            self.expand_poly(mesh, &q, ni, &mut buf);
        }
        self.pbuf = buf;
        self.stack = stack;
        &self.events
    }
}

/// Heap tags: a node of the start's sweep, of the goal's sweep, or a corner.
const TAG_S: u32 = 0;
const TAG_T: u32 = 1 << 30;
const TAG_C: u32 = 2 << 30;
const TAG_MASK: u32 = 3 << 30;

/// A corner's state in a corner-graph query.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct CornerState {
    /// The query that last reached it.
    stamp: u32,
    closed: bool,
    g: f64,
    /// The corner before it, or `TAG_S | node` for the start's sweep node that saw it.
    parent: u32,
    /// The query whose goal sweep or goal list saw it (then `td` is its distance to the
    /// goal).
    tstamp: u32,
    td: f64,
    /// Whether it sees the goal ([`SEES`]), may ([`MAY_SEE`]: from a sight list, not yet
    /// walked) or does not ([`SEES_NOT`]); valid with `tstamp`.
    tsee: u8,
}

/// [`CornerState::tsee`] values.
const SEES: u8 = 0;
const MAY_SEE: u8 = 1;
const SEES_NOT: u8 = 2;
/// The parent of a corner the start sees by its sight list (`TAG_S |` this: no sweep node).
const SIGHT_START: u32 = !TAG_MASK;

/// What a directed sweep looks for.
#[derive(Clone, Copy)]
enum Target {
    Corner(u32),
    Goal,
}

/// A corner-graph query's constants for [`Searcher::relax`].
struct GraphQuery<'a> {
    graph: &'a CornerGraph,
    /// The goal.
    t: [f64; 2],
    /// Landmark bounds for the goal.
    lmb: Option<&'a GoalBounds>,
    /// The weight on the bounds (1: optimal).
    weight: f64,
}

/// The best complete path so far: its length and its last corner.
struct Best {
    len: f64,
    corner: u32,
}

impl Best {
    /// A complete path of length `len` through last corner `corner`: kept if shorter.
    #[inline]
    fn offer(&mut self, len: f64, corner: u32) {
        if len < self.len {
            self.len = len;
            self.corner = corner;
        }
    }
}

impl GraphQuery<'_> {
    /// The queue key of corner `c` (at `pc`) reached at `g`: `g` plus the weighted lower
    /// bound of the rest (the straight distance to the goal, raised by the landmarks').
    #[inline]
    fn key(&self, mesh: &NavMesh, (c, pc): (u32, [f64; 2]), g: f64) -> u64 {
        let mut h = dist(pc, self.t);
        if let (Some(gb), Some(lm)) = (self.lmb, &mesh.lm) {
            h = h.max(lm.bound(gb, c));
        }
        key(g + self.weight * h)
    }
}

/// Whether `x` lies in the cone from `rp` between the rays through `r` and `l` (on them
/// included), exactly as the signs fall.
#[inline]
fn in_cone(rp: [f64; 2], l: [f64; 2], r: [f64; 2], x: [f64; 2]) -> bool {
    cross2(rp, r, x) >= 0.0 && cross2(rp, l, x) <= 0.0
}

#[inline]
fn cone_holds(rp: [f64; 2], l: [f64; 2], r: [f64; 2], x: [f64; 2]) -> bool {
    let tol = 1e-9 * (dist(rp, x) * (dist(rp, l) + dist(rp, r)) + 1e-12);
    cross2(rp, r, x) >= -tol && cross2(rp, l, x) <= tol
}

impl Searcher {
    /// A query on a mesh with the corner graph: the search from the polygons' sight lists
    /// ([`Searcher::sight_search`]) where it answers; otherwise the search over the graph
    /// with sweeps ([`Searcher::corner_search`]) from `q` (the polygon layer's query from
    /// `start`, `gb` its landmark bounds) and the same query from `goal`. Both weight their
    /// bounds by [`FAST_BOUND`] in the fast mode. The path found is walked straight through the triangles
    /// ([`Searcher::walk_polyline`]: `self.corridor` and `self.turns` are then the path, and
    /// the result says so); if that walk fails, its polygon corridor is rebuilt into
    /// `self.steps`; if that fails too, the polygon layer's optimal search fills `self.steps`.
    pub(super) fn corner_query(
        &mut self,
        mesh: &NavMesh,
        graph: &CornerGraph,
        q: &Query,
        gb: Option<&GoalBounds>,
        (start, goal): (Location, Location),
        mode: Mode,
    ) -> Result<(usize, bool), PathError> {
        let weight = match mode {
            Mode::Optimal => 1.0,
            Mode::Fast => FAST_BOUND,
        };
        if let Some(expanded) = self.sight_search(mesh, graph, q, gb, (start, goal), weight) {
            return Ok((expanded, true));
        }
        let goal_vertex = vertex_at(mesh, goal);
        let gb_rev = mesh
            .lm
            .as_ref()
            .map(|lm| lm.goal_bounds(mesh, q.start_poly, q.s, q.goal, q.t));
        let qt = Query {
            s: q.t,
            t: q.s,
            s_vertex: goal_vertex,
            goal: q.start_poly,
            start_poly: q.goal,
            sweep: true,
            seen: true,
            lm: gb_rev.as_ref(),
            ..*q
        };
        let qs = Query { sweep: true, ..*q };
        match self.corner_search(mesh, graph, &qs, &qt, gb, weight) {
            Ok(expanded) => {
                let seq = std::mem::take(&mut self.chain);
                let walked = self.walk_polyline(mesh, start, goal, &seq);
                self.chain = seq;
                if walked {
                    return Ok((expanded, true));
                }
                self.walk_fallbacks += 1;
                if self.chain.is_empty() {
                    self.collect_poly_chain(q, self.route);
                    return Ok((expanded, false));
                }
                if self.corner_corridor(mesh, q, goal_vertex) {
                    return Ok((expanded, false));
                }
            }
            Err(PathError::NotFound) => {}
            Err(e) => return Err(e),
        }
        self.fallbacks += 1;
        self.nodes.clear();
        self.heap.clear();
        self.polyanya_poly(mesh, q).map(|e| (e, false))
    }

    /// The search over the corner graph from the sight lists ([`CornerGraph::sight_list`]),
    /// without sweeps: the goal straight from the start, else the start polygon's corners
    /// at their straight distance from the start, the goal polygon's at theirs to the goal,
    /// and the graph between, weighted by `weight`, all in one queue. A corner that sees only
    /// part of its polygon is walked to ([`Searcher::sees_vertex`]) when it is the best left,
    /// from the start or from the goal, and dropped if the line leaves the ground; so the
    /// result is the search with sweeps' (the shortest path for weight 1). The path found is
    /// walked through the triangles (`self.corridor` and `self.turns`). `None` (no lists for
    /// either polygon, an end on a vertex, or a path the walk could not follow: counted in
    /// `walk_fallbacks`) leaves the query to the sweeps.
    fn sight_search(
        &mut self,
        mesh: &NavMesh,
        graph: &CornerGraph,
        q: &Query,
        lmb: Option<&GoalBounds>,
        (start, goal): (Location, Location),
        weight: f64,
    ) -> Option<usize> {
        let (Some(ls), Some(lt)) = (graph.sight_list(q.start_poly), graph.sight_list(q.goal))
        else {
            return None;
        };
        // An end on a vertex may be seen through polygons round it whose lists are not read.
        if q.s_vertex != NO_TRIANGLE || vertex_at(mesh, goal) != NO_TRIANGLE {
            return None;
        }
        let straight = dist(q.s, q.t);
        let lower = straight.max(lmb.map_or(0.0, |b| b.start));
        if lower <= straight * (1.0 + 1e-6) + 1e-6 && self.walk_polyline(mesh, start, goal, &[]) {
            return Some(0);
        }
        self.begin_corners(mesh);
        let stamp = self.cq;
        let mut best = Best {
            len: f64::INFINITY,
            corner: NO_TRIANGLE,
        };
        for &e in lt {
            let c = e & !SEES_WHOLE;
            let d = dist(Self::ppos(mesh, c), q.t);
            if e & SEES_WHOLE != 0 {
                self.sees_goal(c, d, &mut best);
            } else {
                let st = &mut self.cstate[c as usize];
                st.tstamp = stamp;
                st.td = d;
                st.tsee = MAY_SEE;
            }
        }
        let gq = GraphQuery {
            graph,
            t: q.t,
            lmb,
            weight,
        };
        self.heap.clear();
        for &e in ls {
            let c = e & !SEES_WHOLE;
            // A corner without edges is only ever a last corner.
            if graph.degree(c) == 0 && self.cstate[c as usize].tstamp != stamp {
                continue;
            }
            let pc = Self::ppos(mesh, c);
            let g = dist(q.s, pc);
            if e & SEES_WHOLE != 0 {
                self.relax(mesh, &gq, c, g, TAG_S | SIGHT_START, &mut best);
            } else {
                self.heap.push((gq.key(mesh, (c, pc), g), c | TAG_S));
            }
        }
        let mut expanded = 0usize;
        while let Some((k, item)) = self.heap.pop() {
            if k >= key(best.len) {
                break;
            }
            let (tag, c) = (item & TAG_MASK, item & !TAG_MASK);
            expanded += 1;
            match tag {
                TAG_C => self.pop_corner(mesh, &gq, c, q.s, &mut best),
                TAG_S => {
                    let st = &self.cstate[c as usize];
                    if st.stamp == stamp && st.closed {
                        continue;
                    }
                    if self.sees_vertex(mesh, start, c) {
                        let g = dist(q.s, Self::ppos(mesh, c));
                        self.relax(mesh, &gq, c, g, TAG_S | SIGHT_START, &mut best);
                    }
                }
                _ => {
                    if self.cstate[c as usize].tsee == MAY_SEE {
                        let sees = self.sees_vertex(mesh, goal, c);
                        self.cstate[c as usize].tsee = if sees { SEES } else { SEES_NOT };
                    }
                    let st = &self.cstate[c as usize];
                    if st.tsee == SEES {
                        best.offer(st.g + st.td, c);
                    }
                }
            }
        }
        self.heap.clear();
        if best.corner == NO_TRIANGLE {
            return None;
        }
        self.trace_chain(best.corner);
        let seq = std::mem::take(&mut self.chain);
        let walked = self.walk_polyline(mesh, start, goal, &seq);
        self.chain = seq;
        if !walked {
            self.walk_fallbacks += 1;
        }
        walked.then_some(expanded)
    }

    /// Corner `c` sees the goal at distance `d`: kept if shorter, and a complete path if the
    /// search has reached `c`.
    #[inline]
    fn sees_goal(&mut self, c: u32, d: f64, best: &mut Best) {
        let stamp = self.cq;
        let st = &mut self.cstate[c as usize];
        if st.tstamp != stamp || d < st.td {
            st.tstamp = stamp;
            st.td = d;
            st.tsee = SEES;
        }
        if st.stamp == stamp {
            best.offer(st.g + st.td, c);
        }
    }

    /// Starts a corner-graph search: a fresh stamp for `self.cstate`.
    fn begin_corners(&mut self, mesh: &NavMesh) {
        let nv = mesh.vertices.len();
        if self.cstate.len() < nv {
            self.cstate.resize(nv, CornerState::default());
        }
        self.cq = self.cq.wrapping_add(1);
        if self.cq == 0 {
            self.cstate.fill(CornerState::default());
            self.cq = 1;
        }
    }

    /// Closes corner `i` (unless closed already) and relaxes the edges a taut path may take
    /// from it (`s`: the start).
    #[inline]
    fn pop_corner(
        &mut self,
        mesh: &NavMesh,
        gq: &GraphQuery,
        i: u32,
        s: [f64; 2],
        best: &mut Best,
    ) {
        let st = &mut self.cstate[i as usize];
        if st.closed {
            return;
        }
        st.closed = true;
        let (g, parent) = (st.g, st.parent);
        // Where the path came from: the corner before, or the start.
        let u = if parent & TAG_MASK == TAG_C {
            Self::ppos(mesh, parent & !TAG_MASK)
        } else {
            s
        };
        let graph = gq.graph;
        let (to, len) = graph.edges(i);
        for (&w, &d) in to.iter().zip(len) {
            if !graph.taut(mesh, i, u, Self::ppos(mesh, w)) {
                continue;
            }
            let g2 = g + f64::from(d);
            self.relax(mesh, gq, w, g2, i | TAG_C, best);
        }
    }

    /// `self.chain`: the corners from the first to `last`; returns the parent of the first
    /// (the start's sweep node that saw it, or [`SIGHT_START`]).
    fn trace_chain(&mut self, last: u32) -> u32 {
        self.chain.clear();
        let mut c = last;
        let first_parent = loop {
            self.chain.push(c);
            let p = self.cstate[c as usize].parent;
            if p & TAG_MASK == TAG_C {
                c = p & !TAG_MASK;
            } else {
                break p & !TAG_MASK;
            }
        };
        self.chain.reverse();
        first_parent
    }

    /// The optimal search over the corner graph: sweeps from the start and from the goal and a
    /// search over the graph between the corners they see, all in one queue ordered by lower
    /// bounds of the whole length. Fills `self.steps` with the polygon corridor of the optimal
    /// path (as [`Searcher::polyanya_poly`]); `q` is the query from the start, `qt` the same
    /// from the goal.
    pub(super) fn corner_search(
        &mut self,
        mesh: &NavMesh,
        graph: &CornerGraph,
        q: &Query,
        qt: &Query,
        lmb: Option<&GoalBounds>,
        weight: f64,
    ) -> Result<usize, PathError> {
        let gq = GraphQuery {
            graph,
            t: q.t,
            lmb,
            weight,
        };
        self.begin_corners(mesh);
        let limit = 32 * mesh.triangle_count() + 1_000_000;
        let mut buf = std::mem::take(&mut self.pbuf);
        for (qq, tag) in [(q, TAG_S), (qt, TAG_T)] {
            Self::start_psuccs(mesh, qq, &mut buf);
            for s in buf.drain(..) {
                if s.node.flags & FINAL == 0 {
                    let i = self.nodes.len() as u32;
                    self.nodes.push(s.node);
                    self.heap.push((key(weight * s.f), i | tag));
                }
            }
        }
        let mut best = Best {
            len: f64::INFINITY,
            corner: NO_TRIANGLE,
        };
        let mut direct = NO_TRIANGLE;
        let mut expanded = 0usize;
        'search: while let Some((k, item)) = self.heap.pop() {
            if k >= key(best.len) {
                break;
            }
            let (tag, i) = (item & TAG_MASK, item & !TAG_MASK);
            if tag != TAG_C && self.nodes[i as usize].flags & LAZY_BOUND != 0 {
                // Its landmark bound now: back in the queue if that raises it.
                let node = &mut self.nodes[i as usize];
                node.flags &= !LAZY_BOUND;
                let qq = if tag == TAG_S { q } else { qt };
                let k2 = key(weight * Self::sweep_bound(mesh, qq, node));
                if k2 > k {
                    self.heap.push((k2, item));
                    continue;
                }
            }
            expanded += 1;
            if tag == TAG_C {
                self.pop_corner(mesh, &gq, i, q.s, &mut best);
                continue;
            }
            let qq = if tag == TAG_S { q } else { qt };
            let mut ni = i;
            loop {
                buf.clear();
                self.events.clear();
                self.expand_poly(mesh, qq, ni, &mut buf);
                let events = std::mem::take(&mut self.events);
                for &(c, d, e) in &events {
                    if tag == TAG_S {
                        self.relax(mesh, &gq, c, d, TAG_S | e, &mut best);
                    } else {
                        self.sees_goal(c, d, &mut best);
                    }
                }
                self.events = events;
                if self.nodes.len() > limit {
                    self.pbuf = buf;
                    return Err(PathError::SearchLimit {
                        nodes: self.nodes.len(),
                    });
                }
                // A single successor is followed at once (its bound is no smaller).
                if buf.len() == 1 && buf[0].node.flags & FINAL == 0 {
                    ni = self.nodes.len() as u32;
                    self.nodes.push(buf[0].node);
                    continue;
                }
                for s in buf.drain(..) {
                    let j = self.nodes.len() as u32;
                    if s.node.flags & FINAL != 0 {
                        if tag == TAG_S {
                            // The goal seen straight from the start: nothing is shorter.
                            self.nodes.push(s.node);
                            direct = j;
                            break 'search;
                        }
                        continue;
                    }
                    self.nodes.push(s.node);
                    self.heap.push((key(weight * s.f), j | tag));
                }
                break;
            }
        }
        self.pbuf = buf;
        self.chain.clear();
        if direct != NO_TRIANGLE {
            self.route = direct;
            return Ok(expanded);
        }
        if best.corner == NO_TRIANGLE {
            return Err(PathError::NotFound);
        }
        // The corners, and the start's sweep node that saw the first.
        self.route = self.trace_chain(best.corner);
        Ok(expanded)
    }

    /// The polygon corridor of the route the last [`Searcher::corner_search`] found (its
    /// corners in `self.chain`), into `self.steps`: the start's sweep up to the first corner,
    /// then a sweep held to each next turn. False if rounding hides a turn.
    fn corner_corridor(&mut self, mesh: &NavMesh, q: &Query, goal_vertex: u32) -> bool {
        self.collect_poly_chain(q, self.route);
        let seq = std::mem::take(&mut self.chain);
        let ok = (0..seq.len()).all(|j| {
            let target = if j + 1 < seq.len() {
                Target::Corner(seq[j + 1])
            } else {
                Target::Goal
            };
            self.directed(mesh, seq[j], target, q, goal_vertex)
        });
        self.chain = seq;
        ok
    }

    /// Corner `c` reached at `g` (from `parent`): kept if shorter, completes a path if it sees
    /// the goal (queued to be walked to from the goal first if that is not known yet), and is
    /// queued if it has edges.
    #[inline]
    fn relax(
        &mut self,
        mesh: &NavMesh,
        gq: &GraphQuery,
        c: u32,
        g: f64,
        parent: u32,
        best: &mut Best,
    ) {
        let stamp = self.cq;
        let st = &mut self.cstate[c as usize];
        if st.stamp != stamp {
            st.stamp = stamp;
            st.closed = false;
            st.g = f64::INFINITY;
        }
        if st.closed || g >= st.g {
            return;
        }
        st.g = g;
        st.parent = parent;
        if st.tstamp == stamp && g + st.td < best.len {
            match st.tsee {
                SEES => best.offer(g + st.td, c),
                // To be walked when it is the best left.
                MAY_SEE => self.heap.push((key(g + st.td), c | TAG_T)),
                _ => {}
            }
        }
        if gq.graph.degree(c) == 0 {
            // Only ever the last corner: the goal's sweep or list completes it.
            return;
        }
        self.heap
            .push((gq.key(mesh, (c, Self::ppos(mesh, c)), g), c | TAG_C));
    }

    /// Appends the polygons of node `ni`'s chain (root first) to `self.steps`.
    pub(super) fn append_chain(&mut self, ni: u32) {
        let at = self.steps.len();
        let mut i = ni;
        while i != NO_TRIANGLE {
            let n = &self.nodes[i as usize];
            if n.flags & FINAL == 0 {
                self.steps.push(PolyStep {
                    poly: n.tri,
                    edge: n.edge,
                });
            }
            i = n.parent;
        }
        self.steps[at..].reverse();
    }

    /// Sweeps from corner `from`, starting in the last polygon of `self.steps`, along the
    /// straight piece to `target` only, and appends the polygons it crosses to `self.steps`.
    /// False if rounding hides the target.
    fn directed(
        &mut self,
        mesh: &NavMesh,
        from: u32,
        target: Target,
        q0: &Query,
        goal_vertex: u32,
    ) -> bool {
        let Some(last) = self.steps.last() else {
            return false;
        };
        let poly = last.poly;
        let at_goal = matches!(target, Target::Goal);
        if at_goal && poly == q0.goal {
            // The goal's polygon is convex: the last piece stays inside it.
            return true;
        }
        // A goal on a vertex is reached in any polygon round it, then the polygons round the
        // vertex lead to the goal's.
        let tv = if at_goal { goal_vertex } else { NO_TRIANGLE };
        if tv != NO_TRIANGLE && mesh.poly.corners(poly).contains(&tv) {
            return self.round_vertex(mesh, tv, q0.goal);
        }
        let s = Self::ppos(mesh, from);
        let (x, goal) = match target {
            Target::Corner(v) => (Self::ppos(mesh, v), NO_POLYGON),
            Target::Goal => (q0.t, q0.goal),
        };
        let q = Query {
            allowed: &[],
            stamp: self.stamp,
            s,
            t: x,
            s_vertex: from,
            goal,
            start_poly: poly,
            flood: false,
            sweep: true,
            seen: false,
            lm: None,
        };
        let mut buf = std::mem::take(&mut self.pbuf);
        let mut stack = std::mem::take(&mut self.stack);
        let mut found = NO_TRIANGLE;
        let limit = 4 * mesh.triangle_count() + 1000;
        // First only the nodes whose cone holds the target; if rounding hid it there, the
        // whole sweep.
        for filtered in [true, false] {
            self.nodes.clear();
            stack.clear();
            Self::start_psuccs(mesh, &q, &mut buf);
            'sweep: loop {
                for sc in buf.drain(..) {
                    let n = sc.node;
                    if n.flags & FINAL != 0 {
                        if matches!(target, Target::Goal) {
                            found = n.parent;
                            break 'sweep;
                        }
                        continue;
                    }
                    if !filtered || n.flags & COLLINEAR != 0 || cone_holds(s, n.l, n.r, x) {
                        if tv != NO_TRIANGLE
                            && (n.flags & L_VERT != 0 && n.l == x
                                || n.flags & R_VERT != 0 && n.r == x)
                        {
                            found = self.nodes.len() as u32;
                            self.nodes.push(n);
                            break 'sweep;
                        }
                        stack.push(self.nodes.len() as u32);
                        self.nodes.push(n);
                    }
                }
                let Some(ni) = stack.pop() else { break };
                if self.nodes.len() > limit {
                    break;
                }
                self.events.clear();
                self.expand_poly(mesh, &q, ni, &mut buf);
                if let Target::Corner(v) = target
                    && let Some(&(_, _, e)) = self.events.iter().find(|e| e.0 == v)
                {
                    found = e;
                    break;
                }
            }
            buf.clear();
            if found != NO_TRIANGLE {
                break;
            }
        }
        self.pbuf = buf;
        self.stack = stack;
        if found == NO_TRIANGLE {
            return false;
        }
        self.append_chain(found);
        tv == NO_TRIANGLE || self.round_vertex(mesh, tv, q0.goal)
    }

    /// Appends the polygons round vertex `v` from the last of `self.steps` to polygon `to`
    /// (either way round; false if neither reaches it).
    fn round_vertex(&mut self, mesh: &NavMesh, v: u32, to: u32) -> bool {
        let pl = &mesh.poly;
        let Some(&last) = self.steps.last() else {
            return false;
        };
        let at = self.steps.len();
        for forward in [true, false] {
            let mut p = last.poly;
            let mut guard = 0;
            while p != to && guard < 64 {
                guard += 1;
                let range = pl.slots(p);
                let n = range.len();
                let Some(i) = (0..n).find(|&i| pl.verts[range.start + i] == v) else {
                    break;
                };
                // The edge from v (forward) or the edge into v.
                let e = if forward { i } else { (i + n - 1) % n };
                let nb = pl.adj[range.start + e];
                if nb == NO_POLYGON || nb == last.poly {
                    break;
                }
                self.steps.push(PolyStep {
                    poly: nb,
                    edge: pl.adj_edge[range.start + e],
                });
                p = nb;
            }
            if p == to {
                return true;
            }
            self.steps.truncate(at);
        }
        false
    }
}
