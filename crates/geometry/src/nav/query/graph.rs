//! The search over the corner graph ([`crate::nav::corners`]).
//!
//! With the polygons' sight lists ([`Searcher::sight_search`]): the goal straight from the
//! start first; else the start polygon's listed corners enter at their straight distance from
//! the start, the goal polygon's are marked with theirs to the goal, and A* over the graph
//! runs between, all in one queue ordered by a lower bound of the whole length. A corner that
//! sees its polygon only in part is walked to through the triangles when it is the least item
//! in the queue. Without lists (or an end on a vertex), sweeps from the start and the goal
//! ([`Searcher::corner_search`]) take the lists' place in the same queue. Only taut turns are
//! followed ([`CornerGraph::taut`]). Both weight their bounds by [`super::FAST_BOUND`] in the
//! fast mode.

use super::Searcher;
use crate::nav::corners::{CornerGraph, SEES_WHOLE};
use crate::nav::mesh::{Location, NavMesh};
use crate::nav::poly::Polygons;
use crate::nav::search::polyanya::{self, Bound, Query, dist};
use crate::nav::search::pool::{FINAL, LAZY_BOUND, NONE, key};
use crate::nav::search::result::PathError;

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

/// A corner-graph query's constants.
pub(super) struct GraphQuery<'a> {
    pub(super) mesh: &'a NavMesh,
    pub(super) polygons: &'a Polygons,
    pub(super) graph: &'a CornerGraph,
    /// The goal.
    pub(super) t: [f64; 2],
    /// A lower bound beyond the straight line (landmarks), from the start and from the goal.
    pub(super) bound: Option<&'a dyn Bound>,
    pub(super) bound_back: Option<&'a dyn Bound>,
    /// The weight on the bounds (1: optimal).
    pub(super) weight: f64,
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
    /// The queue key of corner `c` reached at `g`: `g` plus the weighted lower bound of the
    /// rest (the straight distance to the goal, raised by the landmarks').
    #[inline]
    fn key(&self, c: u32, g: f64) -> u64 {
        let mut h = dist(pos(self.mesh, c), self.t);
        if let Some(b) = self.bound {
            h = h.max(b.root(c));
        }
        key(g + self.weight * h)
    }
}

#[inline]
fn pos(mesh: &NavMesh, v: u32) -> [f64; 2] {
    let p = mesh.vertices[v as usize];
    [f64::from(p.x), f64::from(p.y)]
}

impl Searcher {
    /// A query over the corner graph: the path walked into `self.walker`, and the items taken
    /// from the queue. `q` is the polygon layer's query from the start.
    pub(super) fn graph_query(
        &mut self,
        gq: &GraphQuery,
        q: &Query,
        (start, goal): (Location, Location),
    ) -> Result<usize, PathError> {
        if let Some(expanded) = self.sight_search(gq, q, (start, goal)) {
            return Ok(expanded);
        }
        let goal_vertex = crate::nav::search::vertex_at(gq.mesh, goal);
        let qt = Query {
            s: q.t,
            t: q.s,
            s_vertex: goal_vertex,
            goal: q.start_cell,
            start_cell: q.goal,
            sweep: true,
            seen: true,
            bound: gq.bound_back,
            ..*q
        };
        let qs = Query { sweep: true, ..*q };
        let expanded = self.corner_search(gq, &qs, &qt)?;
        let chain = std::mem::take(&mut self.chain);
        let walked = self.walker.walk_polyline(gq.mesh, start, goal, &chain);
        self.chain = chain;
        if walked {
            Ok(expanded)
        } else {
            self.walk_fallbacks += 1;
            Err(PathError::NotFound)
        }
    }

    /// The search over the corner graph from the sight lists ([`CornerGraph::sights`]),
    /// without sweeps: the goal straight from the start, else the start polygon's corners
    /// at their straight distance from the start, the goal polygon's at theirs to the goal,
    /// and the graph between, weighted, all in one queue. A corner that sees only part of its
    /// polygon is walked to ([`crate::nav::search::walk::Walker::sees_vertex`]) when it is the
    /// best left, from the start or from the goal, and dropped if the line leaves the ground;
    /// so the result is the search with sweeps' (the shortest path for weight 1). The path
    /// found is walked through the triangles. `None` (no lists for either polygon, an end on a
    /// vertex, or a path the walk could not follow: counted in `walk_fallbacks`) leaves the
    /// query to the sweeps.
    fn sight_search(
        &mut self,
        gq: &GraphQuery,
        q: &Query,
        (start, goal): (Location, Location),
    ) -> Option<usize> {
        let (mesh, graph) = (gq.mesh, gq.graph);
        let (Some(ls), Some(lt)) = (graph.sight_list(q.start_cell), graph.sight_list(q.goal))
        else {
            return None;
        };
        // An end on a vertex may be seen through polygons round it whose lists are not read.
        if q.s_vertex != NONE || crate::nav::search::vertex_at(mesh, goal) != NONE {
            return None;
        }
        let straight = dist(q.s, q.t);
        let lower = straight.max(gq.bound.map_or(0.0, |b| b.start()));
        if lower <= straight * (1.0 + 1e-6) + 1e-6
            && self.walker.walk_polyline(mesh, start, goal, &[])
        {
            return Some(0);
        }
        self.begin_corners(mesh);
        let stamp = self.cq;
        let mut best = Best {
            len: f64::INFINITY,
            corner: NONE,
        };
        for &e in lt {
            let c = e & !SEES_WHOLE;
            let d = dist(pos(mesh, c), q.t);
            if e & SEES_WHOLE != 0 {
                self.sees_goal(c, d, &mut best);
            } else {
                let st = &mut self.cstate[c as usize];
                st.tstamp = stamp;
                st.td = d;
                st.tsee = MAY_SEE;
            }
        }
        self.pool.heap.clear();
        for &e in ls {
            let c = e & !SEES_WHOLE;
            // A corner without edges is only ever a last corner.
            if graph.degree(c) == 0 && self.cstate[c as usize].tstamp != stamp {
                continue;
            }
            let g = dist(q.s, pos(mesh, c));
            if e & SEES_WHOLE != 0 {
                self.relax(gq, c, g, TAG_S | SIGHT_START, &mut best);
            } else {
                self.pool.heap.push((gq.key(c, g), c | TAG_S));
            }
        }
        let mut expanded = 0usize;
        while let Some((k, item)) = self.pool.heap.pop() {
            if k >= key(best.len) {
                break;
            }
            let (tag, c) = (item & TAG_MASK, item & !TAG_MASK);
            expanded += 1;
            match tag {
                TAG_C => self.pop_corner(gq, c, q.s, &mut best),
                TAG_S => {
                    let st = &self.cstate[c as usize];
                    if st.stamp == stamp && st.closed {
                        continue;
                    }
                    if self.walker.sees_vertex(mesh, start, c) {
                        let g = dist(q.s, pos(mesh, c));
                        self.relax(gq, c, g, TAG_S | SIGHT_START, &mut best);
                    }
                }
                _ => {
                    if self.cstate[c as usize].tsee == MAY_SEE {
                        let sees = self.walker.sees_vertex(mesh, goal, c);
                        self.cstate[c as usize].tsee = if sees { SEES } else { SEES_NOT };
                    }
                    let st = &self.cstate[c as usize];
                    if st.tsee == SEES {
                        best.offer(st.g + st.td, c);
                    }
                }
            }
        }
        self.pool.heap.clear();
        if best.corner == NONE {
            return None;
        }
        self.trace_chain(best.corner);
        let seq = std::mem::take(&mut self.chain);
        let walked = self.walker.walk_polyline(mesh, start, goal, &seq);
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
    fn pop_corner(&mut self, gq: &GraphQuery, i: u32, s: [f64; 2], best: &mut Best) {
        let st = &mut self.cstate[i as usize];
        if st.closed {
            return;
        }
        st.closed = true;
        let (g, parent) = (st.g, st.parent);
        // Where the path came from: the corner before, or the start.
        let u = if parent & TAG_MASK == TAG_C {
            pos(gq.mesh, parent & !TAG_MASK)
        } else {
            s
        };
        let graph = gq.graph;
        let (to, len) = graph.edges(i);
        for (&w, &d) in to.iter().zip(len) {
            if !graph.taut(gq.mesh, i, u, pos(gq.mesh, w)) {
                continue;
            }
            self.relax(gq, w, g + f64::from(d), i | TAG_C, best);
        }
    }

    /// `self.chain`: the corners from the first to `last`.
    fn trace_chain(&mut self, last: u32) {
        self.chain.clear();
        let mut c = last;
        loop {
            self.chain.push(c);
            let p = self.cstate[c as usize].parent;
            if p & TAG_MASK == TAG_C {
                c = p & !TAG_MASK;
            } else {
                break;
            }
        }
        self.chain.reverse();
    }

    /// The search over the corner graph with sweeps: from the start and from the goal, and
    /// over the graph between the corners they see, all in one queue ordered by lower bounds
    /// of the whole length. Fills `self.chain` with the corners of the path found (none when
    /// the start's sweep saw the goal); `qs` sweeps from the start, `qt` from the goal.
    fn corner_search(
        &mut self,
        gq: &GraphQuery,
        qs: &Query,
        qt: &Query,
    ) -> Result<usize, PathError> {
        let (mesh, cells) = (gq.mesh, gq.polygons);
        let weight = gq.weight;
        self.begin_corners(mesh);
        let limit = 32 * mesh.triangle_count() + 1_000_000;
        let mut buf = std::mem::take(&mut self.pool.buf);
        for (qq, tag) in [(qs, TAG_S), (qt, TAG_T)] {
            polyanya::start_succs(mesh, cells, qq, &mut buf);
            for s in buf.drain(..) {
                if s.node.flags & FINAL == 0 {
                    let i = self.pool.nodes.len() as u32;
                    self.pool.nodes.push(s.node);
                    self.pool.heap.push((key(weight * s.f), i | tag));
                }
            }
        }
        let mut best = Best {
            len: f64::INFINITY,
            corner: NONE,
        };
        let mut direct = false;
        let mut expanded = 0usize;
        let mut result = Ok(());
        'search: while let Some((k, item)) = self.pool.heap.pop() {
            if k >= key(best.len) {
                break;
            }
            let (tag, i) = (item & TAG_MASK, item & !TAG_MASK);
            if tag != TAG_C && self.pool.nodes[i as usize].flags & LAZY_BOUND != 0 {
                // Its landmark bound now: back in the queue if that raises it.
                let qq = if tag == TAG_S { qs } else { qt };
                let node = &mut self.pool.nodes[i as usize];
                node.flags &= !LAZY_BOUND;
                let k2 = key(weight * polyanya::sweep_bound(mesh, cells, qq, node));
                if k2 > k {
                    self.pool.heap.push((k2, item));
                    continue;
                }
            }
            expanded += 1;
            if tag == TAG_C {
                self.pop_corner(gq, i, qs.s, &mut best);
                continue;
            }
            let qq = if tag == TAG_S { qs } else { qt };
            let mut ni = i;
            loop {
                buf.clear();
                self.pool.events.clear();
                polyanya::expand(&mut self.pool, mesh, cells, qq, ni, &mut buf);
                let events = std::mem::take(&mut self.pool.events);
                for &(c, d, e) in &events {
                    if tag == TAG_S {
                        self.relax(gq, c, d, TAG_S | e, &mut best);
                    } else {
                        self.sees_goal(c, d, &mut best);
                    }
                }
                self.pool.events = events;
                if self.pool.nodes.len() > limit {
                    result = Err(PathError::SearchLimit {
                        nodes: self.pool.nodes.len(),
                    });
                    break 'search;
                }
                // A single successor is followed at once (its bound is no smaller).
                if buf.len() == 1 && buf[0].node.flags & FINAL == 0 {
                    ni = self.pool.nodes.len() as u32;
                    self.pool.nodes.push(buf[0].node);
                    continue;
                }
                for s in buf.drain(..) {
                    if s.node.flags & FINAL != 0 {
                        if tag == TAG_S {
                            // The goal seen straight from the start: nothing is shorter.
                            direct = true;
                            break 'search;
                        }
                        continue;
                    }
                    let j = self.pool.nodes.len() as u32;
                    self.pool.nodes.push(s.node);
                    self.pool.heap.push((key(weight * s.f), j | tag));
                }
                break;
            }
        }
        buf.clear();
        self.pool.buf = buf;
        result?;
        self.chain.clear();
        if direct {
            return Ok(expanded);
        }
        if best.corner == NONE {
            return Err(PathError::NotFound);
        }
        self.trace_chain(best.corner);
        Ok(expanded)
    }

    /// Corner `c` reached at `g` (from `parent`): kept if shorter, completes a path if it sees
    /// the goal (queued to be walked to from the goal first if that is not known yet), and is
    /// queued if it has edges.
    #[inline]
    fn relax(&mut self, gq: &GraphQuery, c: u32, g: f64, parent: u32, best: &mut Best) {
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
                MAY_SEE => self.pool.heap.push((key(g + st.td), c | TAG_T)),
                _ => {}
            }
        }
        if gq.graph.degree(c) == 0 {
            // Only ever the last corner: the goal's sweep or list completes it.
            return;
        }
        self.pool.heap.push((gq.key(c, g), c | TAG_C));
    }
}
