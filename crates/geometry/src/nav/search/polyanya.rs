//! Polyanya (Cui, Harabor and Grastien, IJCAI 2017), written once over any convex cells
//! ([`Cells`]: the triangles, or the polygons merged from them).
//!
//! A search node is a *root* (the start, or a corner where the path turns) and an *interval*
//! on an edge of the cell it looks into, every point of which the root sees in a straight
//! line. `g` is the length from the start to the root, `h` the exact length from the root
//! through the interval to the goal (the goal mirrored across the interval's line when it lies
//! on the root's side), so `f = g + h` never overestimates. Expanding a node projects its two
//! bounding rays across the cell's far edges, from the entry edge's right end round to its
//! left end:
//!
//! - the parts between the rays are *observable*: new intervals with the same root;
//! - the parts right of the right ray are reached by turning at the interval's right end when
//!   that end is a corner ([`NavMesh::is_corner`]), which becomes the new root; likewise on the
//!   left. An edge that starts at the new root is swept by a *collinear* node, which sees the
//!   whole cell beyond.
//!
//! Cells bring what triangles never have: several edges on one line, so a root can lie on an
//! edge's line without lying on the edge. Such a node is *degenerate*: its rays run along the
//! line, it sees nothing of the cell beyond but carries the path along the line to the edge's
//! ends, where it may turn; it makes no observable successors (they would lie on its line and
//! lead back across it).
//!
//! **Exactness.** The rays are kept exactly: each bounding ray passes through the root and a
//! point (a vertex, or the start) that fixes it — the interval end itself when that is a cell
//! corner, else the point of the ray it was cut from, and for a ray inherited through a turn
//! the root before (the ray then runs from that point through the new root). So every decision
//! — which side of a ray a corner lies, whether a ray passes exactly through a corner and the
//! cut interval ends there — is the sign of a cross product of exact points, and a path that
//! grazes a row of corners on a grid's line turns at the right one. Positions of cut interval
//! ends are rounded, and only measure (`h`).
//!
//! Pruning: a root vertex keeps the smallest `g` it was reached with, and nodes of the same
//! root with a larger `g` are dropped (*root-level pruning*; a vertex of a pinch has one mesh
//! vertex per side, so this never mixes sides); a node with a single observable successor is
//! followed at once without going through the queue; a cell that leads nowhere and does not
//! hold the goal is not entered; and no cell is entered whose bridge-tree component lies off
//! the tree path between the start's and the goal's ([`crate::nav::poly`]).
//!
//! Two other uses share the expansion: a *flood* (no goal, every vertex's distance recorded:
//! the landmarks' distances) and a *sweep* (the root held: where the search would turn at a
//! corner, the corner is recorded instead: the corner graph's edges and sight lists).

use super::START;
use super::cells::Cells;
use super::pool::{
    COLLINEAR, FINAL, L_BEHIND, L_VERT, LAZY_BOUND, NONE, Node, Pool, R_BEHIND, R_VERT, Succ,
};
use super::result::PathError;
use crate::nav::mesh::{NavMesh, cross2};

/// A lower bound on the rest of the way to the goal, beyond the straight line (the
/// landmarks' [`crate::nav::landmarks`]).
pub(crate) trait Bound {
    /// For the start itself.
    fn start(&self) -> f64;
    /// From vertex `v`.
    fn root(&self, v: u32) -> f64;
    /// From any point of the piece `[r, l]` of the edge from vertex `a` to vertex `b`.
    fn edge(&self, a: (u32, [f64; 2]), b: (u32, [f64; 2]), r: [f64; 2], l: [f64; 2]) -> f64;
}

/// One query's constants.
#[derive(Clone, Copy)]
pub(crate) struct Query<'a> {
    /// Per bridge-tree component: `stamp` where the search may go; empty: anywhere.
    pub(crate) allowed: &'a [u32],
    pub(crate) stamp: u32,
    /// The start (or a sweep's source) and the goal.
    pub(crate) s: [f64; 2],
    pub(crate) t: [f64; 2],
    /// The vertex the start lies exactly on, or `NONE`.
    pub(crate) s_vertex: u32,
    /// The goal's cell, or `NONE`.
    pub(crate) goal: u32,
    /// The start's cell.
    pub(crate) start_cell: u32,
    /// No goal: `h` = 0 and every vertex's distance recorded ([`flood`]).
    pub(crate) flood: bool,
    /// The root never changes; turns are recorded in [`Pool::events`] ([`sweep_from`]).
    pub(crate) sweep: bool,
    /// In a sweep: also record every corner seen (the goal's sweep of the corner graph's
    /// search: the last turn of a path is a corner that sees the goal).
    pub(crate) seen: bool,
    /// A lower bound beyond the straight line, if any.
    pub(crate) bound: Option<&'a dyn Bound>,
}

impl<'a> Query<'a> {
    /// From `s` (exactly on vertex `s_vertex`, or `NONE`) in cell `start_cell` to `t` in cell
    /// `goal`, within the components `allowed` marks with `stamp`: no flag set, no bound.
    pub(crate) fn between(
        (allowed, stamp): (&'a [u32], u32),
        (s, s_vertex, start_cell): ([f64; 2], u32, u32),
        (t, goal): ([f64; 2], u32),
    ) -> Query<'a> {
        Query {
            allowed,
            stamp,
            s,
            t,
            s_vertex,
            goal,
            start_cell,
            flood: false,
            sweep: false,
            seen: false,
            bound: None,
        }
    }
}

/// One end of an interval being made: its position, whether it is exactly a cell corner, and
/// the point that fixes its ray with the root (and whether that point lies behind the root).
#[derive(Clone, Copy)]
struct End {
    at: [f64; 2],
    vertex: bool,
    def: u32,
    behind: bool,
}

impl End {
    /// A cell corner at `p` (vertex `v`): its ray runs from the root through it.
    #[inline]
    fn corner(v: u32, p: [f64; 2]) -> End {
        End {
            at: p,
            vertex: true,
            def: v,
            behind: false,
        }
    }
}

#[inline]
pub(crate) fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1])).sqrt()
}

#[inline]
pub(crate) fn lerp(a: [f64; 2], b: [f64; 2], u: f64) -> [f64; 2] {
    [a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u]
}

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

/// The exact length from `root` through the interval `[l, r]` to `t` (the goal mirrored
/// across the interval's line when on the root's side).
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

/// [`COLLINEAR`] when `rp` lies on the edge from `w0` to `w1` itself (it sees the whole cell
/// beyond), else none. (A root on the edge's line but off the edge gives a degenerate node.)
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

/// The plan position of vertex `v`, or of the start for [`START`].
#[inline]
pub(crate) fn pos(mesh: &NavMesh, q: &Query, v: u32) -> [f64; 2] {
    if v == START {
        q.s
    } else {
        let p = mesh.vertices[v as usize];
        [f64::from(p.x), f64::from(p.y)]
    }
}

/// Which side of a node's ray `x` lies: positive left of it, negative right, zero on it. The
/// ray runs from the root through `def`, or (`behind`) from `def` through the root.
#[inline]
fn side(rp: [f64; 2], def: [f64; 2], behind: bool, x: [f64; 2]) -> f64 {
    if behind {
        cross2(def, rp, x)
    } else {
        cross2(rp, def, x)
    }
}

/// Builds the successor through edge `e` of cell `c` (its right end `r`, left end `l` seen
/// from the root) into `buf`, unless pruned.
#[allow(clippy::too_many_arguments)]
#[inline]
fn make_succ<C: Cells>(
    mesh: &NavMesh,
    cells: &C,
    q: &Query,
    buf: &mut Vec<Succ>,
    (c, e): (u32, usize),
    (r, l): (End, End),
    (root, g): (u32, f64),
    (flags, sweep, parent): (u8, u32, u32),
) {
    let (nb, nb_edge) = cells.across(c, e);
    if nb == NONE || (flags & COLLINEAR != 0 && nb == sweep) {
        return;
    }
    if !q.allowed.is_empty() && q.allowed[cells.component(nb) as usize] != q.stamp {
        return;
    }
    if nb != q.goal && cells.dead_end(nb, usize::from(nb_edge)) {
        return;
    }
    if l.at == r.at {
        return;
    }
    let mut fl = flags;
    if l.vertex {
        fl |= L_VERT;
    }
    if r.vertex {
        fl |= R_VERT;
    }
    if l.behind {
        fl |= L_BEHIND;
    }
    if r.behind {
        fl |= R_BEHIND;
    }
    let rp = pos(mesh, q, root);
    let mut h = if q.flood {
        0.0
    } else if flags & COLLINEAR != 0 {
        dist(rp, q.t)
    } else {
        heuristic(rp, l.at, r.at, q.t)
    };
    if let Some(b) = q.bound {
        if q.sweep {
            // The root stays; the bound from the interval on is taken when the node leaves
            // the queue ([`sweep_bound`]): most never do.
            fl |= LAZY_BOUND;
        } else {
            h = h.max(if root == START {
                b.start()
            } else {
                b.root(root)
            });
        }
    }
    buf.push(Succ {
        node: Node {
            l: l.at,
            r: r.at,
            g,
            root,
            cell: nb,
            parent,
            sweep,
            ldef: l.def,
            rdef: r.def,
            edge: nb_edge,
            flags: fl,
        },
        f: g + h,
    });
}

fn final_succ(buf: &mut Vec<Succ>, node: &Node, parent: u32, root: u32, total: f64) {
    buf.push(Succ {
        node: Node {
            l: [0.0; 2],
            r: [0.0; 2],
            g: total,
            root,
            cell: node.cell,
            parent,
            sweep: NONE,
            ldef: NONE,
            rdef: NONE,
            edge: 0,
            flags: FINAL,
        },
        f: total,
    });
}

/// The first nodes: one through each edge of the start's cell (into `buf`, cleared).
pub(crate) fn start_succs<C: Cells>(mesh: &NavMesh, cells: &C, q: &Query, buf: &mut Vec<Succ>) {
    buf.clear();
    let c0 = q.start_cell;
    let corners = cells.corners(c0);
    let n = corners.len();
    for i in 0..n {
        let (va, vb) = (corners[i], corners[(i + 1) % n]);
        let (pa, pb) = (pos(mesh, q, va), pos(mesh, q, vb));
        let flags = line_class(q.s, pa, pb);
        make_succ(
            mesh,
            cells,
            q,
            buf,
            (c0, i),
            (End::corner(va, pa), End::corner(vb, pb)),
            (START, 0.0),
            (flags, c0, NONE),
        );
    }
}

/// Where a node would turn at corner `v` after `g`: in a sweep, records the corner (no node
/// turns); else claims the root ([`Pool::claim_root`]).
#[inline]
fn turn_at(pool: &mut Pool, q: &Query, v: u32, g: f64, ni: u32) -> bool {
    if q.sweep {
        if v != q.s_vertex {
            pool.events.push((v, g, ni));
        }
        false
    } else {
        pool.claim_root(v, g)
    }
}

/// A sweep that sees vertex `v` at distance `d` from node `ni`: recorded if a corner.
#[inline]
fn seen_corner(pool: &mut Pool, mesh: &NavMesh, v: u32, d: f64, ni: u32) {
    if mesh.is_corner(v) {
        pool.events.push((v, d, ni));
    }
}

#[inline]
fn record(pool: &mut Pool, v: u32, d: f64) {
    let x = &mut pool.fdist[v as usize];
    if d < *x {
        *x = d;
    }
}

/// Expands node `ni` into `buf` (see the module docs).
pub(crate) fn expand<C: Cells>(
    pool: &mut Pool,
    mesh: &NavMesh,
    cells: &C,
    q: &Query,
    ni: u32,
    buf: &mut Vec<Succ>,
) {
    let node = pool.nodes[ni as usize];
    let c = node.cell;
    let corners = cells.corners(c);
    let n = corners.len();
    let k = node.edge as usize;
    // Corner i counted from the entry edge: 0 is its left end A, 1 its right end B; the far
    // edges j = 1..n run from corner j to j + 1 (corner n is A again).
    let wrap = |i: usize| if k + i >= n { k + i - n } else { k + i };
    let vid = |i: usize| corners[wrap(i)];
    let vpos = |i: usize| pos(mesh, q, vid(i));
    let rp = pos(mesh, q, node.root);
    let g = node.g;

    if node.flags & COLLINEAR != 0 {
        expand_collinear(pool, mesh, cells, q, ni, &node, buf);
        return;
    }
    let (ia, ib) = (vid(0), vid(1));
    let (a, b) = (vpos(0), vpos(1));
    let r_vert = node.flags & R_VERT != 0;
    let l_vert = node.flags & L_VERT != 0;
    let (rdef, ldef) = (pos(mesh, q, node.rdef), pos(mesh, q, node.ldef));
    let (rbehind, lbehind) = (node.flags & R_BEHIND != 0, node.flags & L_BEHIND != 0);
    let side_r = |x: [f64; 2]| side(rp, rdef, rbehind, x);
    let side_l = |x: [f64; 2]| side(rp, ldef, lbehind, x);

    if c == q.goal && !q.sweep {
        let tp = q.t;
        let (sr, sl) = (side_r(tp), side_l(tp));
        if sr >= 0.0 && sl <= 0.0 {
            final_succ(buf, &node, ni, node.root, g + dist(rp, tp));
        } else if sr < 0.0 {
            if r_vert && mesh.is_corner(ib) {
                let g2 = g + dist(rp, b);
                if pool.claim_root(ib, g2) {
                    final_succ(buf, &node, ni, ib, g2 + dist(b, tp));
                }
            }
        } else if l_vert && mesh.is_corner(ia) {
            let g2 = g + dist(rp, a);
            if pool.claim_root(ia, g2) {
                final_succ(buf, &node, ni, ia, g2 + dist(a, tp));
            }
        }
        return;
    }
    if c == q.goal && side_r(q.t) >= 0.0 && side_l(q.t) <= 0.0 {
        // A sweep sees the goal or not, and goes on (its turns are all wanted).
        final_succ(buf, &node, ni, node.root, g + dist(rp, q.t));
    }

    // A root on the entry edge's own line (off the edge, else the node would be collinear)
    // sees nothing of this cell but the line: the node only carries the path along it to the
    // interval's ends, where it may turn.
    let degenerate = cross2(a, b, rp) == 0.0;
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
            seen_corner(pool, mesh, ia, g + dist(rp, a), ni);
        }
        if r_vert {
            seen_corner(pool, mesh, ib, g + dist(rp, b), ni);
        }
    }
    // The rays as seen from the roots of the turns: a ray inherited through a turn runs on
    // from the old root through the new one.
    let inherit_r = End {
        at: [0.0; 2],
        vertex: false,
        def: node.rdef,
        behind: rbehind,
    };
    let inherit_l = End {
        at: [0.0; 2],
        vertex: false,
        def: node.ldef,
        behind: lbehind,
    };
    let through = End {
        at: [0.0; 2],
        vertex: false,
        def: node.root,
        behind: true,
    };
    let mut w0 = b;
    let mut or0 = side_r(w0);
    let mut ol0 = side_l(w0);
    for j in 1..n {
        let (v0, v1) = (vid(j), vid(j + 1));
        let w1 = if j + 1 == n { a } else { vpos(j + 1) };
        let or1 = side_r(w1);
        let ol1 = side_l(w1);
        if q.seen && j + 1 < n && or1 >= 0.0 && ol1 <= 0.0 && !degenerate {
            seen_corner(pool, mesh, v1, g + dist(rp, w1), ni);
        }
        // The part right of the right ray: u in [0, rs]; left of the left ray: [ls, 1].
        // The signs are exact: a crossing strictly inside the edge is never a corner.
        let rs = if or0 <= 0.0 && or1 < 0.0 {
            1.0
        } else if or0 < 0.0 && or1 >= 0.0 {
            if or1 == 0.0 {
                1.0
            } else {
                (or0 / (or0 - or1)).clamp(0.0, 1.0)
            }
        } else {
            0.0
        };
        let mut ls = if ol1 >= 0.0 && ol0 > 0.0 {
            0.0
        } else if ol1 > 0.0 && ol0 <= 0.0 {
            if ol0 == 0.0 {
                0.0
            } else {
                (ol0 / (ol0 - ol1)).clamp(0.0, 1.0)
            }
        } else {
            1.0
        };
        if ls < rs {
            ls = rs;
        }
        // An end of a piece of this edge at `u`: a corner at 0 or 1, else cut by `ray`.
        let at = |u: f64, ray: End| -> End {
            if u == 0.0 {
                End::corner(v0, w0)
            } else if u == 1.0 {
                End::corner(v1, w1)
            } else {
                End {
                    at: lerp(w0, w1, u),
                    ..ray
                }
            }
        };
        let e = wrap(j);
        if rs > 0.0 {
            let (ok, g2) = *turn_r.get_or_insert_with(|| {
                let g2 = g + dist(rp, b);
                (turn_at(pool, q, ib, g2, ni), g2)
            });
            if ok {
                let flags = line_class(b, w0, w1);
                make_succ(
                    mesh,
                    cells,
                    q,
                    buf,
                    (c, e),
                    (End::corner(v0, w0), at(rs, through)),
                    (ib, g2),
                    (flags, if flags != 0 { c } else { NONE }, ni),
                );
            }
        }
        if rs < ls && !degenerate {
            make_succ(
                mesh,
                cells,
                q,
                buf,
                (c, e),
                (at(rs, inherit_r), at(ls, inherit_l)),
                (node.root, g),
                (0, NONE, ni),
            );
        }
        if ls < 1.0 {
            let (ok, g2) = *turn_l.get_or_insert_with(|| {
                let g2 = g + dist(rp, a);
                (turn_at(pool, q, ia, g2, ni), g2)
            });
            if ok {
                let flags = line_class(a, w0, w1);
                make_succ(
                    mesh,
                    cells,
                    q,
                    buf,
                    (c, e),
                    (at(ls, through), End::corner(v1, w1)),
                    (ia, g2),
                    (flags, if flags != 0 { c } else { NONE }, ni),
                );
            }
        }
        w0 = w1;
        or0 = or1;
        ol0 = ol1;
    }
    if q.flood {
        record_seen(pool, mesh, cells, q, &node, turn_r, turn_l);
    }
}

/// A collinear node (its root on the entry edge) sees the whole cell: a node through every far
/// edge, collinear again where the root lies on that edge too.
fn expand_collinear<C: Cells>(
    pool: &mut Pool,
    mesh: &NavMesh,
    cells: &C,
    q: &Query,
    ni: u32,
    node: &Node,
    buf: &mut Vec<Succ>,
) {
    let c = node.cell;
    let corners = cells.corners(c);
    let n = corners.len();
    let k = node.edge as usize;
    let vid = |i: usize| corners[(k + i) % n];
    let rp = pos(mesh, q, node.root);
    let g = node.g;
    if c == q.goal {
        final_succ(buf, node, ni, node.root, g + dist(rp, q.t));
        if !q.sweep {
            return;
        }
    }
    for j in 0..n {
        let v = vid(j);
        let d = g + dist(rp, pos(mesh, q, v));
        if q.flood {
            record(pool, v, d);
        }
        if q.seen {
            seen_corner(pool, mesh, v, d, ni);
        }
    }
    for j in 1..n {
        let (v0, v1) = (vid(j), vid(j + 1));
        let (w0, w1) = (pos(mesh, q, v0), pos(mesh, q, v1));
        let flags = line_class(rp, w0, w1);
        make_succ(
            mesh,
            cells,
            q,
            buf,
            (c, (k + j) % n),
            (End::corner(v0, w0), End::corner(v1, w1)),
            (node.root, g),
            (flags, if flags != 0 { node.sweep } else { NONE }, ni),
        );
    }
}

/// A flood's records for an expanded node (not collinear): every corner of the cell the root
/// sees (in the cone, or an interval end that is a corner), and those seen by turning at an
/// interval end where the expansion turned (the parts outside the cone, walls included:
/// nothing else would reach a wall's corners from there).
fn record_seen<C: Cells>(
    pool: &mut Pool,
    mesh: &NavMesh,
    cells: &C,
    q: &Query,
    node: &Node,
    turn_r: Option<(bool, f64)>,
    turn_l: Option<(bool, f64)>,
) {
    let corners = cells.corners(node.cell);
    let n = corners.len();
    let k = node.edge as usize;
    let rp = pos(mesh, q, node.root);
    let (ia, ib) = (corners[k], corners[(k + 1) % n]);
    let (a, b) = (pos(mesh, q, ia), pos(mesh, q, ib));
    let (rdef, ldef) = (pos(mesh, q, node.rdef), pos(mesh, q, node.ldef));
    let (rbehind, lbehind) = (node.flags & R_BEHIND != 0, node.flags & L_BEHIND != 0);
    if node.flags & L_VERT != 0 {
        record(pool, ia, node.g + dist(rp, a));
    }
    if node.flags & R_VERT != 0 {
        record(pool, ib, node.g + dist(rp, b));
    }
    for j in 1..n {
        let v = corners[(k + j) % n];
        let w = pos(mesh, q, v);
        let (or, ol) = (side(rp, rdef, rbehind, w), side(rp, ldef, lbehind, w));
        if or >= 0.0 && ol <= 0.0 {
            record(pool, v, node.g + dist(rp, w));
        } else if or < 0.0 {
            if let Some((true, g2)) = turn_r {
                record(pool, v, g2 + dist(b, w));
            }
        } else if let Some((true, g2)) = turn_l {
            record(pool, v, g2 + dist(a, w));
        }
    }
}

/// A sweep node's landmark bound: the least length from its root through its interval to the
/// goal, 0 without a bound.
pub(crate) fn sweep_bound<C: Cells>(mesh: &NavMesh, cells: &C, q: &Query, node: &Node) -> f64 {
    let Some(b) = q.bound else {
        return 0.0;
    };
    let corners = cells.corners(node.cell);
    let n = corners.len();
    let e = node.edge as usize;
    let (va, vb) = (corners[e], corners[(e + 1) % n]);
    let rp = pos(mesh, q, node.root);
    point_segment(rp, node.r, node.l)
        + b.edge(
            (va, pos(mesh, q, va)),
            (vb, pos(mesh, q, vb)),
            node.r,
            node.l,
        )
}

/// The search from the start's cell to the goal's: the final node and the nodes expanded.
pub(crate) fn search<C: Cells>(
    pool: &mut Pool,
    mesh: &NavMesh,
    cells: &C,
    q: &Query,
) -> Result<(u32, usize), PathError> {
    let limit = 32 * cells.count() + 1_000_000;
    let mut buf = std::mem::take(&mut pool.buf);
    start_succs(mesh, cells, q, &mut buf);
    for s in buf.drain(..) {
        pool.push(s);
    }
    let mut expanded = 0usize;
    let mut result = Err(PathError::NotFound);
    'search: while let Some((_, idx)) = pool.heap.pop() {
        let mut ni = idx;
        loop {
            let node = pool.nodes[ni as usize];
            if node.flags & FINAL != 0 {
                result = Ok((ni, expanded));
                break 'search;
            }
            if pool.beaten(node.root, node.g) {
                break;
            }
            expanded += 1;
            buf.clear();
            expand(pool, mesh, cells, q, ni, &mut buf);
            if pool.nodes.len() > limit {
                result = Err(PathError::SearchLimit {
                    nodes: pool.nodes.len(),
                });
                break 'search;
            }
            if buf.len() == 1 && buf[0].node.flags & FINAL == 0 && buf[0].node.root == node.root {
                ni = pool.nodes.len() as u32;
                pool.nodes.push(buf[0].node);
                continue;
            }
            for &s in &buf {
                pool.push(s);
            }
            break;
        }
    }
    buf.clear();
    pool.buf = buf;
    result
}

/// The turning vertices of node `fi`'s chain, in order from the start (into `out`, cleared).
pub(crate) fn turns(pool: &Pool, fi: u32, out: &mut Vec<u32>) {
    out.clear();
    let mut i = fi;
    let mut last = NONE;
    while i != NONE {
        let n = &pool.nodes[i as usize];
        if n.root != START && n.root != last {
            out.push(n.root);
        }
        last = n.root;
        i = n.parent;
    }
    out.reverse();
}

/// The walking distance (in plan) from `source` (a point on cell `cell`; `vertex` the vertex it
/// lies on, or `NONE`) to every vertex: the search with no goal run until nothing is left,
/// recording each vertex seen from a node's root at the root's distance plus the straight
/// piece (infinite for vertices it cannot reach). Into `pool.fdist`.
pub(crate) fn flood<C: Cells>(
    pool: &mut Pool,
    mesh: &NavMesh,
    cells: &C,
    (source, cell, vertex): ([f64; 2], u32, u32),
) {
    let nv = mesh.vertices.len();
    pool.fdist.clear();
    pool.fdist.resize(nv, f64::INFINITY);
    pool.prepare(nv, 0, 0);
    let q = Query {
        flood: true,
        ..Query::between((&[], pool.stamp), (source, vertex, cell), (source, NONE))
    };
    for &v in cells.corners(cell) {
        let d = dist(source, pos(mesh, &q, v));
        record(pool, v, d);
    }
    let _ = search(pool, mesh, cells, &q);
}

/// Sweeps from vertex `v`, starting in cell `cell` (one that has `v` as a corner): the corners
/// a taut path from `v` may turn at next, with their distances and the node that saw them (a
/// corner may be listed more than once), in `pool.events`; the sweep's nodes stay in
/// `pool.nodes`.
pub(crate) fn sweep_from<C: Cells>(pool: &mut Pool, mesh: &NavMesh, cells: &C, v: u32, cell: u32) {
    pool.prepare(mesh.vertices.len(), 0, 0);
    pool.events.clear();
    let p = mesh.vertices[v as usize];
    let s = [f64::from(p.x), f64::from(p.y)];
    let q = Query {
        sweep: true,
        ..Query::between((&[], pool.stamp), (s, v, cell), (s, NONE))
    };
    let limit = 32 * cells.count() + 1_000_000;
    let mut buf = std::mem::take(&mut pool.buf);
    let mut stack = std::mem::take(&mut pool.stack);
    stack.clear();
    start_succs(mesh, cells, &q, &mut buf);
    loop {
        for s in buf.drain(..) {
            if s.node.flags & FINAL == 0 {
                stack.push(pool.nodes.len() as u32);
                pool.nodes.push(s.node);
            }
        }
        let Some(ni) = stack.pop() else { break };
        if pool.nodes.len() > limit {
            break;
        }
        expand(pool, mesh, cells, &q, ni, &mut buf);
    }
    pool.buf = buf;
    pool.stack = stack;
}
