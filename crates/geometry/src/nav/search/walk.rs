//! A path whose turning points are known, walked straight through the triangles.
//!
//! The corner graph's search ([`super::corners`]) ends with the path itself: the start, the
//! corners it turns at, the goal (a search over the polygons gets it from the funnel over the
//! polygons' edges). What is left is its corridor, the triangles each straight piece crosses,
//! and that is a walk: from the triangle holding a piece's start, across the edge the piece
//! leaves by, until the triangle holding its end. No funnel over the triangles is needed.
//!
//! Every test is the sign of [`cross2`] on plan coordinates that come from `f32` values, so it
//! is exact for the coordinates of real ground: a piece through a vertex is seen to pass
//! through it. There the walk turns round the vertex, through the triangles of its fan (never
//! into another fan: the ground touching itself only at the vertex, a pinch, is not crossed),
//! to a triangle whose wedge the piece leaves by. Where more than one does (a piece along an
//! edge, or along a crack, whose two sides both hold it; a fan that overlaps itself in plan),
//! the walk takes one and comes back to the others if that way ends off the ground or on other
//! ground than the piece's end (the other side of a crack, another floor): a search with
//! backtracking, nearly always a straight line of steps.

use super::result::Turn;
use super::{START, vertex_at};
use crate::nav::mesh::{Location, NO_TRIANGLE, NavMesh, cross2, plan};

/// The most triangles the walk turns through round one vertex.
const MAX_FAN: usize = 4096;

/// Where a piece ends.
#[derive(Debug, Clone, Copy, PartialEq)]
enum End {
    /// At this vertex (a turn, or the vertex a visibility test walks to).
    Vertex(u32),
    /// At the goal point, in this triangle.
    Goal(u32),
}

/// Where the walk stands, in the corridor's last triangle.
#[derive(Clone, Copy)]
enum At {
    /// Inside it (or on its side): at this point of the piece (its start, or a vertex it
    /// passed), or `None` having just crossed into it.
    Tri(Option<[f64; 2]>),
    /// At this vertex of it.
    Vertex(u32),
}

/// A way not taken yet: the walk as it stood (its piece, corridor and turns lengths) and the
/// triangles round a vertex that lead to the other exit (in [`Walker::alt_tris`]).
#[derive(Debug, Clone, Copy)]
struct Alt {
    piece: u32,
    corridor: u32,
    turns: u32,
    /// The vertex the walk leaves from, its position.
    from: [f64; 2],
    tris: (u32, u32),
}

/// The walk's working memory and result: the corridor of triangles and the turns along it.
#[derive(Debug, Default)]
pub(crate) struct Walker {
    /// The triangles the path crosses, in order, each a neighbour of the one before.
    pub(crate) corridor: Vec<u32>,
    /// The start, the turns, the goal.
    pub(crate) turns: Vec<Turn>,
    /// The pieces' ends, the ways not taken, the triangles round a vertex to each, and one
    /// vertex's exits.
    ends: Vec<End>,
    alts: Vec<Alt>,
    alt_tris: Vec<u32>,
    exits: Vec<(u32, u32)>,
}

#[inline]
fn ppos(mesh: &NavMesh, v: u32) -> [f64; 2] {
    plan(mesh.vertices[v as usize])
}

impl Walker {
    /// Fills `self.corridor` and `self.turns` with the path from `start` through `corners`
    /// (vertices, in order) to `goal`, each piece walked straight through the triangles it
    /// crosses. A corner where the path goes straight on is not a turn. False if no walk keeps
    /// every piece on the ground (the corridor is then unusable).
    pub(crate) fn walk_polyline(
        &mut self,
        mesh: &NavMesh,
        start: Location,
        goal: Location,
        corners: &[u32],
    ) -> bool {
        // The pieces' ends: the corners the path turns at, then the goal.
        let mut ends = std::mem::take(&mut self.ends);
        ends.clear();
        let mut from = plan(start.point);
        let t = plan(goal.point);
        for (i, &c) in corners.iter().enumerate() {
            let x = ppos(mesh, c);
            let next = corners.get(i + 1).map_or(t, |&n| ppos(mesh, n));
            let (d1, d2) = (
                [x[0] - from[0], x[1] - from[1]],
                [next[0] - x[0], next[1] - x[1]],
            );
            if cross2(from, x, next) == 0.0 && d1[0] * d2[0] + d1[1] * d2[1] > 0.0 {
                // Straight on: the next piece passes through the corner.
                continue;
            }
            if x != from {
                ends.push(End::Vertex(c));
            }
            from = x;
        }
        ends.push(End::Goal(goal.triangle));
        let ok = self.walk(mesh, start, goal.point, &ends);
        self.ends = ends;
        ok
    }

    /// The path within one triangle: the start, the goal.
    pub(crate) fn single(&mut self, start: Location, goal: Location) {
        self.corridor.clear();
        self.turns.clear();
        self.corridor.push(start.triangle);
        self.turns.push((START, start.point, 0));
        self.turns.push((START, goal.point, usize::MAX));
    }

    /// Whether the straight line from `from` to vertex `v` stays on the ground: walked
    /// through the triangles (into `self.corridor`, which it leaves unusable).
    pub(crate) fn sees_vertex(&mut self, mesh: &NavMesh, from: Location, v: u32) -> bool {
        self.walk(mesh, from, mesh.vertices[v as usize], &[End::Vertex(v)])
    }

    /// Walks the one straight piece from `from` to `to`: to the mesh vertex `vertex` (at
    /// `to.point`) when given, else to the point `to` in its triangle. The triangle it arrives
    /// in, or `None` if it leaves the ground (`self.corridor` then is unusable).
    pub(crate) fn walk_piece(
        &mut self,
        mesh: &NavMesh,
        from: Location,
        to: Location,
        vertex: Option<u32>,
    ) -> Option<u32> {
        let end = vertex.map_or(End::Goal(to.triangle), End::Vertex);
        if self.walk(mesh, from, to.point, &[end]) {
            self.corridor.last().copied()
        } else {
            None
        }
    }

    /// The position of a piece's end.
    fn end_pos(mesh: &NavMesh, e: End, goal: [f64; 2]) -> [f64; 2] {
        match e {
            End::Vertex(v) => ppos(mesh, v),
            End::Goal(_) => goal,
        }
    }

    /// Walks from `start` through `ends` (`goal_point`: the goal, where the last end is one),
    /// into `self.corridor` and `self.turns`.
    fn walk(
        &mut self,
        mesh: &NavMesh,
        start: Location,
        goal_point: glam::Vec3,
        ends: &[End],
    ) -> bool {
        let goal = plan(goal_point);
        self.corridor.clear();
        self.turns.clear();
        self.alts.clear();
        self.alt_tris.clear();
        self.corridor.push(start.triangle);
        self.turns.push((START, start.point, 0));
        let mut budget = 4 * mesh.triangle_count() + 64;
        let mut piece = 0usize;
        let mut p = plan(start.point);
        let sv = vertex_at(mesh, start);
        let mut at = if sv == NO_TRIANGLE {
            At::Tri(Some(p))
        } else {
            At::Vertex(sv)
        };
        // How the path turns at the piece's start: clockwise or not (none at the start).
        let mut turn: Option<bool> = None;
        loop {
            if budget == 0 {
                return false;
            }
            budget -= 1;
            let end = ends[piece];
            let q = Self::end_pos(mesh, end, goal);
            let step = match at {
                At::Vertex(v) => self.leave_vertex(mesh, v, q, end, piece, turn),
                At::Tri(cur) => self.cross_triangle(mesh, p, q, cur, end),
            };
            match step {
                Step::Go(next) => at = next,
                Step::Arrived => {
                    if piece + 1 == ends.len() {
                        if let End::Goal(_) = end {
                            self.turns.push((START, goal_point, usize::MAX));
                        }
                        return true;
                    }
                    let End::Vertex(c) = end else { return false };
                    self.turns
                        .push((c, mesh.vertices[c as usize], self.corridor.len() - 1));
                    let next = Self::end_pos(mesh, ends[piece + 1], goal);
                    let side = cross2(p, q, next);
                    turn = (side != 0.0).then_some(side < 0.0);
                    piece += 1;
                    p = q;
                    at = At::Vertex(c);
                }
                Step::Stuck => {
                    // Back to the last way not taken.
                    let Some(alt) = self.alts.pop() else {
                        return false;
                    };
                    piece = alt.piece as usize;
                    self.corridor.truncate(alt.corridor as usize);
                    self.turns.truncate(alt.turns as usize);
                    let (a, b) = (alt.tris.0 as usize, alt.tris.1 as usize);
                    self.corridor.extend_from_slice(&self.alt_tris[a..b]);
                    p = if piece == 0 {
                        plan(start.point)
                    } else {
                        Self::end_pos(mesh, ends[piece - 1], goal)
                    };
                    at = At::Tri(Some(alt.from));
                }
            }
        }
    }

    /// At vertex `v` of the corridor's last triangle, on the piece to `q` (ending at
    /// `end`): arrived if `v` is the end (or the goal's triangle is round it), else into a
    /// triangle of `v`'s fan whose wedge holds the rest of the piece (the others kept as ways
    /// not taken). `turn`: how the path turns at `v` when `v` is the piece's start, the side
    /// it goes round first (the outside of the turn; round the inside the corridor would hold
    /// another path).
    fn leave_vertex(
        &mut self,
        mesh: &NavMesh,
        v: u32,
        q: [f64; 2],
        end: End,
        piece: usize,
        turn: Option<bool>,
    ) -> Step {
        let pv = ppos(mesh, v);
        match end {
            End::Vertex(c) if c == v => return Step::Arrived,
            End::Goal(g) if pv == q => {
                return if self.round_to(mesh, v, g) {
                    Step::Arrived
                } else {
                    Step::Stuck
                };
            }
            _ if pv == q => return Step::Stuck,
            _ => {}
        }
        let base = self.corridor.len();
        let t0 = self.corridor[base - 1];
        let holds = |t: u32| {
            let tri = mesh.tris[t as usize];
            let Some(k) = tri.iter().position(|&w| w == v) else {
                return false;
            };
            let (a, b) = (ppos(mesh, tri[(k + 1) % 3]), ppos(mesh, tri[(k + 2) % 3]));
            cross2(pv, a, q) >= 0.0 && cross2(pv, q, b) >= 0.0
        };
        let cw_first = turn.unwrap_or_else(|| {
            let tri = mesh.tris[t0 as usize];
            let k = tri.iter().position(|&w| w == v).unwrap_or(0);
            cross2(pv, ppos(mesh, tri[(k + 1) % 3]), q) < 0.0
        });
        // Every exit round the fan, as a range of `alt_tris` (the triangles from `t0` round
        // to it): the first found goes on now, the others are ways not taken.
        let mut exits = std::mem::take(&mut self.exits);
        exits.clear();
        let last_of =
            |alt: &[u32], (a, b): (u32, u32)| if a == b { t0 } else { alt[b as usize - 1] };
        if holds(t0) {
            let n = self.alt_tris.len() as u32;
            exits.push((n, n));
        }
        for cw in [cw_first, !cw_first] {
            let from = self.alt_tris.len() as u32;
            let mut t = t0;
            for _ in 0..MAX_FAN {
                let Some(next) = fan_next(mesh, t, v, cw, t0) else {
                    break;
                };
                t = next;
                self.alt_tris.push(t);
                if holds(t) && !exits.iter().any(|&e| last_of(&self.alt_tris, e) == t) {
                    exits.push((from, self.alt_tris.len() as u32));
                }
            }
        }
        let Some(&(a, b)) = exits.first() else {
            self.exits = exits;
            return Step::Stuck;
        };
        for &tris in exits[1..].iter().rev() {
            self.alts.push(Alt {
                piece: piece as u32,
                corridor: base as u32,
                turns: self.turns.len() as u32,
                from: pv,
                tris,
            });
        }
        self.exits = exits;
        for i in a..b {
            let t = self.alt_tris[i as usize];
            self.corridor.push(t);
        }
        Step::Go(At::Tri(Some(pv)))
    }

    /// In the corridor's last triangle on the piece from `p` to `q` (at `cur` if known, else
    /// just crossed into it): arrived if it holds the end, else across the side the piece
    /// leaves by, or to the vertex on the piece farthest along it.
    fn cross_triangle(
        &mut self,
        mesh: &NavMesh,
        p: [f64; 2],
        q: [f64; 2],
        cur: Option<[f64; 2]>,
        end: End,
    ) -> Step {
        let t = self.corridor[self.corridor.len() - 1];
        let tri = mesh.tris[t as usize];
        let pos = tri.map(|v| ppos(mesh, v));
        match end {
            End::Vertex(c) if tri.contains(&c) => return Step::Arrived,
            End::Goal(g) if t == g => return Step::Arrived,
            _ => {}
        }
        if (0..3).all(|k| cross2(pos[k], pos[(k + 1) % 3], q) >= 0.0) {
            // The end lies in this triangle but is not reached here: the goal across a side
            // or round a corner, else not on this ground.
            let End::Goal(g) = end else {
                return Step::Stuck;
            };
            if let Some(&l) = mesh.links[t as usize]
                .iter()
                .find(|&&l| l != NO_TRIANGLE && l >> 2 == g)
            {
                self.corridor.push(l >> 2);
                return Step::Arrived;
            }
            return match (0..3).find(|&k| pos[k] == q) {
                Some(k) if self.round_to(mesh, tri[k], g) => Step::Arrived,
                _ => Step::Stuck,
            };
        }
        let o = pos.map(|x| cross2(p, q, x));
        // The piece leaves across the side whose start is on its right, end on its left.
        if let Some(k) = (0..3).find(|&k| o[k] < 0.0 && o[(k + 1) % 3] > 0.0) {
            let l = mesh.links[t as usize][k];
            if l == NO_TRIANGLE {
                return Step::Stuck;
            }
            self.corridor.push(l >> 2);
            return Step::Go(At::Tri(None));
        }
        // Else through a corner on its line: the one farthest along it, ahead of `cur`.
        // Points on one line are ordered by the coordinate along which it is not constant.
        let d = [q[0] - p[0], q[1] - p[1]];
        let ahead = |a: [f64; 2], b: [f64; 2]| {
            if d[0] != 0.0 {
                (b[0] - a[0]) * d[0] > 0.0
            } else {
                (b[1] - a[1]) * d[1] > 0.0
            }
        };
        let mut best: Option<usize> = None;
        for k in 0..3 {
            if o[k] == 0.0
                && cur.is_none_or(|c| ahead(c, pos[k]))
                && best.is_none_or(|b| ahead(pos[b], pos[k]))
            {
                best = Some(k);
            }
        }
        match best {
            Some(k) => Step::Go(At::Vertex(tri[k])),
            None => Step::Stuck,
        }
    }

    /// Turns round vertex `v` of the corridor's last triangle, through the triangles of its
    /// fan (appended to the corridor), to triangle `to`: the shorter way round first. False
    /// if `to` is not in the fan.
    fn round_to(&mut self, mesh: &NavMesh, v: u32, to: u32) -> bool {
        let base = self.corridor.len();
        let t0 = self.corridor[base - 1];
        if t0 == to {
            return true;
        }
        let mut best: Option<Vec<u32>> = None;
        for cw in [true, false] {
            let mut path = Vec::new();
            let mut t = t0;
            for _ in 0..MAX_FAN {
                let Some(next) = fan_next(mesh, t, v, cw, t0) else {
                    break;
                };
                t = next;
                path.push(t);
                if t == to {
                    if best.as_ref().is_none_or(|b| path.len() < b.len()) {
                        best = Some(path.clone());
                    }
                    break;
                }
            }
        }
        match best {
            Some(path) => {
                self.corridor.extend_from_slice(&path);
                true
            }
            None => false,
        }
    }
}

/// What one step of the walk did.
enum Step {
    Go(At),
    Arrived,
    Stuck,
}

/// The corners of the triangles round vertex `v` from triangle `t0` (its fan, both ways round
/// to its borders), into `out`.
pub(crate) fn fan_corners(mesh: &NavMesh, t0: u32, v: u32, out: &mut Vec<u32>) {
    out.clear();
    let mut add = |t: u32| {
        for w in mesh.tris[t as usize] {
            if w != v && mesh.is_corner(w) && !out.contains(&w) {
                out.push(w);
            }
        }
    };
    add(t0);
    for cw in [true, false] {
        let mut t = t0;
        for _ in 0..MAX_FAN {
            let Some(next) = fan_next(mesh, t, v, cw, t0) else {
                break;
            };
            t = next;
            add(t);
        }
    }
}

/// The triangle after `t` round vertex `v` of its fan (clockwise or not), or `None` at the
/// fan's border or when the fan has come back round to `t0`.
fn fan_next(mesh: &NavMesh, t: u32, v: u32, cw: bool, t0: u32) -> Option<u32> {
    let k = mesh.tris[t as usize].iter().position(|&w| w == v)?;
    let side = if cw { k } else { (k + 2) % 3 };
    let l = mesh.links[t as usize][side];
    (l != NO_TRIANGLE && l >> 2 != t0).then_some(l >> 2)
}
