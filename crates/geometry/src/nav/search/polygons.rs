//! The searches on the polygon layer ([`Layer::Polygons`](super::Layer::Polygons)).
//!
//! The same two searches as on triangles, with a convex polygon in place of a triangle:
//!
//! - **Optimal** (Polyanya): a node's interval lies on an edge of the polygon it looks into;
//!   expanding it projects the interval's two rays across the polygon's far edges (from the
//!   entry edge's right end round to its left end). The parts of the far edges between the
//!   rays are observable (same root); the parts right of the right ray are reached by turning
//!   at the interval's right end, when that end is a corner vertex (new root), and likewise on
//!   the left; an edge that runs from the new root is swept by a collinear node, which sees
//!   every far edge of the polygon beyond. Root-level pruning, following single successors
//!   without the queue and skipping bridge-tree components off the start–goal tree path are as
//!   on triangles.
//! - **Fast**: A* over polygons (a polygon's position is the midpoint of the edge it was
//!   entered by).
//!
//! Both give a corridor of polygons with the edges crossed. The path itself is then taken down
//! to triangles ([`Searcher::walk_corridor`]): the funnel over the polygons' edges gives the
//! path, and its straight pieces are walked through the triangles ([`super::walk`]), which
//! gives [`Path::triangles`], the regions and the points on the surface as on the triangle
//! layer.

use super::{
    COLLINEAR, FINAL, L_VERT, LAZY_BOUND, NO_TRIANGLE, Node, PathError, Query, R_VERT, START,
    Searcher, Succ, TriState, dist, heuristic, lerp, queue_key,
};
use crate::nav::mesh::{Location, NavMesh, cross2};
use crate::nav::poly::NO_POLYGON;

/// [`PolyStep::edge`] of the start's polygon (not entered by an edge).
const NO_EDGE: u8 = u8::MAX;

/// One polygon of a corridor and the edge (its own slot index) it was entered by.
#[derive(Debug, Clone, Copy)]
pub(super) struct PolyStep {
    pub(super) poly: u32,
    pub(super) edge: u8,
}

/// The flags of a successor through the edge from `w0` to `w1` with its root at `rp`:
/// [`COLLINEAR`] when the root lies on the edge itself (it sees the whole polygon beyond), else
/// none. A root on the edge's line but off the edge gives a degenerate node (its rays run along
/// that line): it sees nothing beyond but carries the path along the line to the edge's end,
/// where it may turn.
/// The distance from `p` to the segment from `a` to `b`.
#[inline]
fn point_segment(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let d = [b[0] - a[0], b[1] - a[1]];
    let dd = d[0] * d[0] + d[1] * d[1];
    let u = if dd > 0.0 {
        (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / dd).clamp(0.0, 1.0)
    } else {
        0.0
    };
    dist(p, lerp(a, b, u))
}

#[inline]
fn line_class(rp: [f64; 2], w0: [f64; 2], w1: [f64; 2]) -> u8 {
    if cross2(w0, w1, rp) != 0.0 {
        return 0;
    }
    let d = [w1[0] - w0[0], w1[1] - w0[1]];
    let u = (rp[0] - w0[0]) * d[0] + (rp[1] - w0[1]) * d[1];
    if u >= 0.0 && u <= d[0] * d[0] + d[1] * d[1] {
        COLLINEAR
    } else {
        0
    }
}

impl Searcher {
    #[inline]
    pub(super) fn ppos(mesh: &NavMesh, v: u32) -> [f64; 2] {
        let p = mesh.vertices[v as usize];
        [f64::from(p.x), f64::from(p.y)]
    }

    /// Polyanya on the polygons: fills `self.steps` with the polygon corridor of the optimal
    /// path.
    pub(super) fn polyanya_poly(&mut self, mesh: &NavMesh, q: &Query) -> Result<usize, PathError> {
        let limit = 32 * mesh.triangle_count() + 1_000_000;
        let mut buf = std::mem::take(&mut self.pbuf);
        Self::start_psuccs(mesh, q, &mut buf);
        for s in buf.drain(..) {
            self.push(s);
        }
        let mut expanded = 0usize;
        let mut result = Err(PathError::NotFound);
        'search: while let Some((_, idx)) = self.heap.pop() {
            let mut ni = idx;
            loop {
                let node = self.nodes[ni as usize];
                if node.flags & FINAL != 0 {
                    self.collect_poly_chain(q, ni);
                    result = Ok(expanded);
                    break 'search;
                }
                if node.root != START {
                    let v = node.root as usize;
                    if self.vstamp[v] == self.stamp && self.vbest[v] < node.g {
                        break;
                    }
                }
                expanded += 1;
                buf.clear();
                self.expand_poly(mesh, q, ni, &mut buf);
                if self.nodes.len() > limit {
                    result = Err(PathError::SearchLimit {
                        nodes: self.nodes.len(),
                    });
                    break 'search;
                }
                if buf.len() == 1 && buf[0].node.flags & FINAL == 0 && buf[0].node.root == node.root
                {
                    ni = self.nodes.len() as u32;
                    self.nodes.push(buf[0].node);
                    continue;
                }
                for &s in &buf {
                    self.push(s);
                }
                break;
            }
        }
        self.pbuf = buf;
        result
    }

    /// A sweep node's landmark bound: the least length from its root through its interval to
    /// the goal (`q.lm`'s), 0 without landmarks.
    pub(super) fn sweep_bound(mesh: &NavMesh, q: &Query, node: &Node) -> f64 {
        let (Some(gb), Some(lm)) = (q.lm, &mesh.lm) else {
            return 0.0;
        };
        let pl = &mesh.poly;
        let range = pl.slots(node.tri);
        let (f0, n) = (range.start, range.len());
        let e = node.edge as usize;
        let (va, vb) = (
            pl.verts[f0 + e],
            pl.verts[f0 + if e + 1 == n { 0 } else { e + 1 }],
        );
        let rp = Self::root_pos(mesh, q, node.root);
        point_segment(rp, node.r, node.l)
            + lm.edge_bound(
                gb,
                (va, Self::ppos(mesh, va)),
                (vb, Self::ppos(mesh, vb)),
                node.r,
                node.l,
            )
    }

    /// The first nodes: one through each edge of the start's polygon (into `buf`, cleared).
    pub(super) fn start_psuccs(mesh: &NavMesh, q: &Query, buf: &mut Vec<Succ>) {
        let pl = &mesh.poly;
        let p0 = q.start_poly;
        buf.clear();
        let range = pl.slots(p0);
        let n0 = range.len();
        for i in 0..n0 {
            let pa = Self::ppos(mesh, pl.verts[range.start + i]);
            let pb = Self::ppos(mesh, pl.verts[range.start + (i + 1) % n0]);
            let flags = line_class(q.s, pa, pb);
            Self::make_psucc(
                mesh,
                q,
                buf,
                p0,
                i,
                (pa, true),
                (pb, true),
                START,
                0.0,
                flags,
                p0,
                NO_TRIANGLE,
            );
        }
    }

    #[inline]
    fn record(&mut self, v: u32, d: f64) {
        let x = &mut self.fdist[v as usize];
        if d < *x {
            *x = d;
        }
    }

    /// A flood's records for an expanded node (not collinear): every corner of the polygon
    /// the root sees (in the cone, or an interval end that is a corner), and those seen by
    /// turning at an interval end where the expansion turned (the parts outside the cone,
    /// walls included: nothing else would reach a wall's corners from there).
    fn record_seen(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
        node: &Node,
        p: u32,
        turn_r: Option<(bool, f64)>,
        turn_l: Option<(bool, f64)>,
    ) {
        let pl = &mesh.poly;
        let range = pl.slots(p);
        let (f0, n) = (range.start, range.len());
        let k = node.edge as usize;
        let rp = Self::root_pos(mesh, q, node.root);
        let (ia, ib) = (pl.verts[f0 + k], pl.verts[f0 + (k + 1) % n]);
        let (a, b) = (Self::ppos(mesh, ia), Self::ppos(mesh, ib));
        if node.flags & L_VERT != 0 {
            self.record(ia, node.g + dist(rp, a));
        }
        if node.flags & R_VERT != 0 {
            self.record(ib, node.g + dist(rp, b));
        }
        for j in 1..n {
            let v = pl.verts[f0 + (k + j) % n];
            let w = Self::ppos(mesh, v);
            let (or, ol) = (cross2(rp, node.r, w), cross2(rp, node.l, w));
            if or >= 0.0 && ol <= 0.0 {
                self.record(v, node.g + dist(rp, w));
            } else if or < 0.0 {
                if let Some((true, g2)) = turn_r {
                    self.record(v, g2 + dist(b, w));
                }
            } else if let Some((true, g2)) = turn_l {
                self.record(v, g2 + dist(a, w));
            }
        }
    }

    /// The walking distance (in plan) from `source` to every vertex: the optimal search with
    /// no goal run until nothing is left, recording each vertex seen from a node's root at
    /// the root's distance plus the straight piece (infinite for vertices it cannot reach).
    pub(crate) fn flood(&mut self, mesh: &NavMesh, source: Location) -> &[f64] {
        let nv = mesh.vertices.len();
        self.fdist.clear();
        self.fdist.resize(nv, f64::INFINITY);
        let Some(sp) = mesh.poly.of_triangle(source.triangle) else {
            return &self.fdist;
        };
        self.prepare(mesh);
        let s = [f64::from(source.point.x), f64::from(source.point.y)];
        let q = Query {
            allowed: &[],
            stamp: self.stamp,
            s,
            t: s,
            s_vertex: mesh
                .poly
                .corners(sp)
                .iter()
                .copied()
                .find(|&v| Self::ppos(mesh, v) == s)
                .unwrap_or(NO_TRIANGLE),
            goal: NO_POLYGON,
            start_poly: sp,
            flood: true,
            sweep: false,
            seen: false,
            lm: None,
        };
        for &v in mesh.poly.corners(sp) {
            self.record(v, dist(s, Self::ppos(mesh, v)));
        }
        let _ = self.polyanya_poly(mesh, &q);
        &self.fdist
    }

    /// Builds the successor through edge `e` (a slot index) of polygon `p`; as
    /// [`Searcher::make_succ`] on triangles.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn make_psucc(
        mesh: &NavMesh,
        q: &Query,
        buf: &mut Vec<Succ>,
        p: u32,
        e: usize,
        near_start: ([f64; 2], bool),
        near_end: ([f64; 2], bool),
        root: u32,
        g: f64,
        flags: u8,
        sweep: u32,
        parent: u32,
    ) {
        let pl = &mesh.poly;
        let s = pl.first[p as usize] as usize + e;
        let nb = pl.adj[s];
        if nb == NO_POLYGON {
            return;
        }
        if flags & COLLINEAR != 0 && nb == sweep {
            return;
        }
        if !q.allowed.is_empty() && q.allowed[pl.comp[nb as usize] as usize] != q.stamp {
            return;
        }
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
        let mut h = if q.flood {
            0.0
        } else if flags & COLLINEAR != 0 {
            dist(rp, q.t)
        } else {
            heuristic(rp, l, r, q.t)
        };
        if let (Some(gb), Some(lm)) = (q.lm, &mesh.lm) {
            if q.sweep {
                // The root stays; the bound from the interval on is taken when the node
                // leaves the queue ([`Searcher::sweep_bound`]): most never do.
                fl |= LAZY_BOUND;
            } else {
                h = h.max(if root == START {
                    gb.start
                } else {
                    lm.bound(gb, root)
                });
            }
        }
        buf.push(Succ {
            node: Node {
                l,
                r,
                g,
                root,
                tri: nb,
                parent,
                sweep,
                edge: pl.adj_edge[s],
                flags: fl,
            },
            f: g + h,
        });
    }

    fn final_psucc(buf: &mut Vec<Succ>, node: &Node, parent: u32, root: u32, total: f64) {
        buf.push(Succ {
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
    }

    pub(super) fn expand_poly(&mut self, mesh: &NavMesh, q: &Query, ni: u32, buf: &mut Vec<Succ>) {
        let node = self.nodes[ni as usize];
        let pl = &mesh.poly;
        let p = node.tri;
        let range = pl.slots(p);
        let (f0, n) = (range.start, range.len());
        let k = node.edge as usize;
        // Corner i counted from the entry edge: 0 is its left end A, 1 its right end B; the
        // far edges j = 1..n run from corner j to j + 1 (corner n is A again).
        // (k + i) mod n for i in 0..=n, without a division.
        let wrap = |i: usize| if k + i >= n { k + i - n } else { k + i };
        let vid = |i: usize| pl.verts[f0 + wrap(i)];
        let edge = wrap;
        let rp = Self::root_pos(mesh, q, node.root);
        let g = node.g;
        let (l, r) = (node.l, node.r);

        if node.flags & COLLINEAR != 0 {
            if p == q.goal {
                Self::final_psucc(buf, &node, ni, node.root, g + dist(rp, q.t));
                if !q.sweep {
                    return;
                }
            }
            if q.flood {
                // The root sees the whole polygon.
                for j in 0..n {
                    self.record(vid(j), g + dist(rp, Self::ppos(mesh, vid(j))));
                }
            }
            if q.seen {
                for j in 0..n {
                    self.seen_corner(mesh, vid(j), g + dist(rp, Self::ppos(mesh, vid(j))), ni);
                }
            }
            for j in 1..n {
                let (va, vb) = (Self::ppos(mesh, vid(j)), Self::ppos(mesh, vid(j + 1)));
                let flags = line_class(rp, va, vb);
                Self::make_psucc(
                    mesh,
                    q,
                    buf,
                    p,
                    edge(j),
                    (va, true),
                    (vb, true),
                    node.root,
                    g,
                    flags,
                    if flags != 0 { node.sweep } else { NO_TRIANGLE },
                    ni,
                );
            }
            return;
        }

        let r_vert = node.flags & R_VERT != 0;
        let l_vert = node.flags & L_VERT != 0;
        let (ia, ib) = (vid(0), vid(1));
        let (a, b) = (Self::ppos(mesh, ia), Self::ppos(mesh, ib));

        if p == q.goal && q.sweep {
            // A sweep sees the goal or not, and goes on (its turns are all wanted).
            if cross2(rp, r, q.t) >= 0.0 && cross2(rp, l, q.t) <= 0.0 {
                Self::final_psucc(buf, &node, ni, node.root, g + dist(rp, q.t));
            }
        } else if p == q.goal {
            let tp = q.t;
            if cross2(rp, r, tp) >= 0.0 && cross2(rp, l, tp) <= 0.0 {
                Self::final_psucc(buf, &node, ni, node.root, g + dist(rp, tp));
            } else if cross2(rp, r, tp) < 0.0 {
                if r_vert && mesh.is_corner(ib) {
                    let g2 = g + dist(rp, b);
                    if self.claim_root(ib, g2) {
                        Self::final_psucc(buf, &node, ni, ib, g2 + dist(b, tp));
                    }
                }
            } else if l_vert && mesh.is_corner(ia) {
                let g2 = g + dist(rp, a);
                if self.claim_root(ia, g2) {
                    Self::final_psucc(buf, &node, ni, ia, g2 + dist(a, tp));
                }
            }
            return;
        }

        // A root on the interval's own line (off the interval, else the node would be
        // collinear) sees nothing of this polygon but the line: the node only carries the path
        // along it to the interval's ends, where it may turn. Its observable successors would
        // lie on that line too and lead back across it.
        let degenerate = cross2(l, r, rp) == 0.0;
        // Turning at B (right) or A (left): decided once, when first needed.
        let mut turn_r: Option<(bool, f64)> = if r_vert && mesh.is_corner(ib) {
            None
        } else {
            Some((false, 0.0))
        };
        let mut turn_l: Option<(bool, f64)> = if l_vert && mesh.is_corner(ia) {
            None
        } else {
            Some((false, 0.0))
        };
        if q.seen && !degenerate {
            if l_vert {
                self.seen_corner(mesh, ia, g + dist(rp, a), ni);
            }
            if r_vert {
                self.seen_corner(mesh, ib, g + dist(rp, b), ni);
            }
        }
        let mut w0 = b;
        let mut or0 = cross2(rp, r, w0);
        let mut ol0 = cross2(rp, l, w0);
        for j in 1..n {
            let w1 = if j + 1 == n {
                a
            } else {
                Self::ppos(mesh, vid(j + 1))
            };
            let or1 = cross2(rp, r, w1);
            let ol1 = cross2(rp, l, w1);
            if q.seen && j + 1 < n && or1 >= 0.0 && ol1 <= 0.0 && !degenerate {
                self.seen_corner(mesh, vid(j + 1), g + dist(rp, w1), ni);
            }
            // The part right of the right ray: u in [0, rs]; left of the left ray: [ls, 1].
            let rs = if or0 <= 0.0 && or1 < 0.0 {
                1.0
            } else if or0 < 0.0 && or1 >= 0.0 {
                (or0 / (or0 - or1)).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut ls = if ol1 >= 0.0 && ol0 > 0.0 {
                0.0
            } else if ol1 > 0.0 && ol0 <= 0.0 {
                (ol0 / (ol0 - ol1)).clamp(0.0, 1.0)
            } else {
                1.0
            };
            if ls < rs {
                ls = rs;
            }
            let at = |u: f64| -> ([f64; 2], bool) {
                if u == 0.0 {
                    (w0, true)
                } else if u == 1.0 {
                    (w1, true)
                } else {
                    (lerp(w0, w1, u), false)
                }
            };
            let e = edge(j);
            if rs > 0.0 {
                let (ok, g2) = *turn_r.get_or_insert_with(|| {
                    let g2 = g + dist(rp, b);
                    (self.turn_at(q, ib, g2, ni), g2)
                });
                if ok {
                    let flags = line_class(b, w0, w1);
                    Self::make_psucc(
                        mesh,
                        q,
                        buf,
                        p,
                        e,
                        (w0, true),
                        at(rs),
                        ib,
                        g2,
                        flags,
                        if flags != 0 { p } else { NO_TRIANGLE },
                        ni,
                    );
                }
            }
            if rs < ls && !degenerate {
                Self::make_psucc(
                    mesh,
                    q,
                    buf,
                    p,
                    e,
                    at(rs),
                    at(ls),
                    node.root,
                    g,
                    0,
                    NO_TRIANGLE,
                    ni,
                );
            }
            if ls < 1.0 {
                let (ok, g2) = *turn_l.get_or_insert_with(|| {
                    let g2 = g + dist(rp, a);
                    (self.turn_at(q, ia, g2, ni), g2)
                });
                if ok {
                    let flags = line_class(a, w0, w1);
                    Self::make_psucc(
                        mesh,
                        q,
                        buf,
                        p,
                        e,
                        at(ls),
                        (w1, true),
                        ia,
                        g2,
                        flags,
                        if flags != 0 { p } else { NO_TRIANGLE },
                        ni,
                    );
                }
            }
            w0 = w1;
            or0 = or1;
            ol0 = ol1;
        }
        if q.flood {
            self.record_seen(mesh, q, &node, p, turn_r, turn_l);
        }
    }

    /// The polygon corridor of node `fi`'s chain (the start's polygon first; a final node
    /// adds none), into `self.steps`.
    pub(super) fn collect_poly_chain(&mut self, q: &Query, fi: u32) {
        self.steps.clear();
        self.steps.push(PolyStep {
            poly: q.start_poly,
            edge: NO_EDGE,
        });
        self.append_chain(fi);
    }

    /// A* over the polygons: fills `self.steps` with the corridor.
    pub(super) fn astar_poly(&mut self, mesh: &NavMesh, q: &Query) -> Result<usize, PathError> {
        let pl = &mesh.poly;
        let stamp = self.stamp;
        let p0 = q.start_poly;
        self.tstate[p0 as usize] = TriState {
            stamp,
            g: 0.0,
            parent: NO_TRIANGLE,
            entry: NO_EDGE,
            closed: false,
        };
        let (qs, qt) = (q.s.map(|c| c as f32), q.t.map(|c| c as f32));
        let dist32 = |a: [f32; 2], b: [f32; 2]| {
            let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
            (dx * dx + dy * dy).sqrt()
        };
        let vpos = |v: u32| {
            let p = mesh.vertices[v as usize];
            [p.x, p.y]
        };
        self.tqueue.push(queue_key(dist32(qs, qt), p0));
        let mut expanded = 0usize;
        let mut found = false;
        while let Some(kq) = self.tqueue.pop() {
            let p = kq as u32;
            let pu = p as usize;
            let st = &mut self.tstate[pu];
            if st.closed {
                continue;
            }
            st.closed = true;
            let (g, entry) = (st.g, st.entry);
            expanded += 1;
            if p == q.goal {
                found = true;
                break;
            }
            let range = pl.slots(p);
            let (f0, n) = (range.start, range.len());
            let mid = |i: usize| {
                let (a, b) = (vpos(pl.verts[f0 + i]), vpos(pl.verts[f0 + (i + 1) % n]));
                [(a[0] + b[0]) * 0.5, (a[1] + b[1]) * 0.5]
            };
            let pos = if entry == NO_EDGE {
                qs
            } else {
                mid(entry as usize)
            };
            for i in 0..n {
                let nb = pl.adj[f0 + i];
                if nb == NO_POLYGON {
                    continue;
                }
                let nbu = nb as usize;
                let ns = self.tstate[nbu];
                let seen = ns.stamp == stamp;
                if seen && ns.closed || q.allowed[pl.comp[nbu] as usize] != q.stamp {
                    continue;
                }
                let m = mid(i);
                let g2 = g + dist32(pos, m);
                if seen && ns.g <= g2 {
                    continue;
                }
                self.tstate[nbu] = TriState {
                    stamp,
                    g: g2,
                    parent: p,
                    entry: pl.adj_edge[f0 + i],
                    closed: false,
                };
                self.tqueue.push(queue_key(g2 + dist32(m, qt), nb));
            }
        }
        if !found {
            return Err(PathError::NotFound);
        }
        self.steps.clear();
        let mut p = q.goal;
        while p != NO_TRIANGLE {
            let st = self.tstate[p as usize];
            self.steps.push(PolyStep {
                poly: p,
                edge: st.entry,
            });
            p = st.parent;
        }
        self.steps.reverse();
        Ok(expanded)
    }

    /// The path through the polygon corridor in `self.steps` (from the start's polygon to the
    /// goal's): the funnel over the polygons' edges gives its turns, and its pieces are walked
    /// straight through the triangles ([`Searcher::walk_polyline`]), which fills
    /// `self.corridor` and `self.turns`. A polygon met twice has the loop between cut out (a
    /// shortest path crosses a convex polygon once). False if the walk fails.
    pub(super) fn walk_corridor(
        &mut self,
        mesh: &NavMesh,
        start: Location,
        goal: Location,
        q: &Query,
    ) -> bool {
        let pl = &mesh.poly;
        // Cut loops: keep, per polygon, its position in the kept list.
        let np = pl.count();
        if self.pstamp.len() < np {
            self.pstamp.resize(np, 0);
            self.ppos_of.resize(np, 0);
        }
        let stamp = self.stamp;
        let mut kept = 0usize;
        for i in 0..self.steps.len() {
            let step = self.steps[i];
            let pu = step.poly as usize;
            let at = self.ppos_of[pu] as usize;
            if self.pstamp[pu] == stamp && at < kept && self.steps[at].poly == step.poly {
                // Back in a polygon kept before: the loop since is dropped, and the polygon
                // stays with the edge it was first entered by.
                kept = at + 1;
                continue;
            }
            self.pstamp[pu] = stamp;
            self.ppos_of[pu] = kept as u32;
            self.steps[kept] = step;
            kept += 1;
        }
        self.steps.truncate(kept);
        // The funnel over the polygons' edges.
        self.portals.clear();
        self.portals.push((q.s, START, q.s, START));
        for i in 1..self.steps.len() {
            let step = self.steps[i];
            let f0 = pl.first[step.poly as usize] as usize;
            let n = pl.first[step.poly as usize + 1] as usize - f0;
            let e = step.edge as usize;
            // The polygon entered has the edge from its corner e to e + 1; the polygon left
            // behind has it from e + 1 to e, and walking out across it corner e is on the left
            // (as `funnel` reads a triangle edge).
            let (vl, vr) = (pl.verts[f0 + e], pl.verts[f0 + (e + 1) % n]);
            self.portals
                .push((Self::ppos(mesh, vl), vl, Self::ppos(mesh, vr), vr));
        }
        self.turns.clear();
        self.run_funnel(mesh, start, goal, q);
        let mut corners = std::mem::take(&mut self.chain);
        corners.clear();
        corners.extend(
            self.turns[1..self.turns.len() - 1]
                .iter()
                .map(|t| t.0)
                .filter(|&v| v < START - 1),
        );
        let ok = self.walk_polyline(mesh, start, goal, &corners);
        self.chain = corners;
        ok
    }
}

#[cfg(test)]
mod tests {
    use crate::nav::{Layer, Mode, NavMesh, Path, SearchOptions, Searcher, Surface};
    use glam::Vec3;

    /// A 9 × 1 strip of unit cells, each split by its rising diagonal: one polygon.
    fn strip() -> NavMesh {
        let mut s = Surface::default();
        for x in 0..=9 {
            s.vertices.push(Vec3::new(x as f32, 0.0, 0.0));
            s.vertices.push(Vec3::new(x as f32, 1.0, 0.0));
        }
        for x in 0..9u32 {
            let (a, b, c, d) = (2 * x, 2 * x + 2, 2 * x + 3, 2 * x + 1);
            s.triangles.push([a, b, c]);
            s.triangles.push([a, c, d]);
            s.regions.extend([0, 0]);
        }
        NavMesh::build(&s).unwrap()
    }

    #[test]
    fn a_straight_walk_from_a_start_on_its_triangle_edge() {
        let mesh = strip();
        assert_eq!(mesh.polygons().count(), 1);
        let mut s = Searcher::new();
        let mut p = Path::default();
        for (mode, layer) in [
            (Mode::Optimal, Layer::Triangles),
            (Mode::Optimal, Layer::Polygons),
            (Mode::Fast, Layer::Triangles),
            (Mode::Fast, Layer::Polygons),
        ] {
            let o = SearchOptions {
                mode,
                layer,
                ..SearchOptions::default()
            };
            s.find_path_into(
                &mesh,
                Vec3::new(1.0, 0.35, 0.0),
                Vec3::new(3.0, 0.35, 0.0),
                &o,
                &mut p,
            )
            .unwrap();
            assert_eq!(
                p.points.len(),
                2,
                "{mode:?} {layer:?}: {:?} {:?}",
                p.points,
                p.triangles
            );
            assert!((p.length_plan - 2.0).abs() < 1e-6, "{mode:?} {layer:?}");
        }
    }
}
