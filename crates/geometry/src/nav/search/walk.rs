//! A path whose turning points are known, walked straight through the triangles.
//!
//! The corner graph's search ([`super::corners`]) ends with the path itself: the start, the
//! corners it turns at, the goal (a search over the polygons gets it from the funnel over the
//! polygons' edges). What is left is its corridor, the triangles each straight piece crosses,
//! and that is a walk: from the triangle holding a piece's start, across the edge the piece
//! leaves by, until the triangle holding its end. No funnel over the triangles is needed.
//!
//! Every test is the sign of [`cross2`] on plan coordinates that come from `f32` values, so it
//! is exact (their differences and products fit in an `f64`): a piece through a vertex is seen
//! to pass through it. There the walk turns round the vertex, through the triangles that
//! touch it, to the one whose wedge the piece leaves by. A piece that would have to leave the
//! ground (through a point where two walkable wedges touch) makes the walk give up, and the
//! caller answers another way (the corridor rebuilt from the polygons, or the triangle
//! layer's search).

use super::{NO_TRIANGLE, START, Searcher, vertex_at};
use crate::nav::mesh::{Location, NavMesh, cross2, plan};

/// The most triangles the walk turns through round one vertex.
const MAX_FAN: usize = 4096;

/// Where a turn round a vertex stops.
#[derive(Clone, Copy)]
enum Round {
    /// At the triangle whose wedge at the vertex holds the direction to this point.
    Towards([f64; 2]),
    /// At this triangle.
    Triangle(u32),
}

impl Searcher {
    /// Fills `self.corridor` and `self.turns` with the path from `start` through `corners`
    /// (vertices, in order) to `goal`, each piece walked straight through the triangles it
    /// crosses. A corner where the path goes straight on is not a turn. False if a piece
    /// cannot be walked on the ground (the corridor is then unusable).
    pub(super) fn walk_polyline(
        &mut self,
        mesh: &NavMesh,
        start: Location,
        goal: Location,
        corners: &[u32],
    ) -> bool {
        self.corridor.clear();
        self.turns.clear();
        self.corridor.push(start.triangle);
        self.turns.push((START, start.point, 0));
        let mut budget = 4 * mesh.triangle_count() + 64;
        let mut from = plan(start.point);
        let mut from_v = vertex_at(mesh, start);
        // How the path turns at `from_v`: clockwise (a right turn) or not; none at the start.
        let mut turn = None;
        let t = plan(goal.point);
        for (i, &c) in corners.iter().enumerate() {
            let x = Self::ppos(mesh, c);
            let next = corners.get(i + 1).map_or(t, |&n| Self::ppos(mesh, n));
            let (d1, d2) = (
                [x[0] - from[0], x[1] - from[1]],
                [next[0] - x[0], next[1] - x[1]],
            );
            let side = cross2(from, x, next);
            if side == 0.0 && d1[0] * d2[0] + d1[1] * d2[1] > 0.0 {
                // Straight on: the next piece passes through the corner.
                continue;
            }
            let piece = (from, from_v, turn);
            if !self.walk_piece(mesh, piece, (x, c, NO_TRIANGLE), &mut budget) {
                return false;
            }
            self.turns
                .push((c, mesh.vertices[c as usize], self.corridor.len() - 1));
            from = x;
            from_v = c;
            turn = (side != 0.0).then_some(side < 0.0);
        }
        let piece = (from, from_v, turn);
        if !self.walk_piece(mesh, piece, (t, NO_TRIANGLE, goal.triangle), &mut budget) {
            return false;
        }
        self.turns.push((START, goal.point, usize::MAX));
        true
    }

    /// Whether the straight line from `from` to vertex `v` stays on the ground: walked
    /// through the triangles (into `self.corridor`, which it leaves unusable).
    pub(super) fn sees_vertex(&mut self, mesh: &NavMesh, from: Location, v: u32) -> bool {
        self.corridor.clear();
        self.corridor.push(from.triangle);
        let mut budget = 4 * mesh.triangle_count() + 64;
        let p = (plan(from.point), vertex_at(mesh, from), None);
        self.walk_piece(mesh, p, (Self::ppos(mesh, v), v, NO_TRIANGLE), &mut budget)
    }

    /// Walks the piece from `p` (vertex `pv`, or a point in the corridor's last triangle) to
    /// `x`: until a triangle with vertex `xv`, or (`xv` none) triangle `x_tri`, which holds
    /// `x`. Where the path turns at `pv` (`turn`: clockwise or not), the walk goes round `pv`
    /// on the outside of the turn first, the way the path sweeps (the inside may be ground
    /// too, at a vertex that is not a corner, but round there the corridor would hold another
    /// path).
    /// `budget` bounds the steps of the whole walk.
    fn walk_piece(
        &mut self,
        mesh: &NavMesh,
        (p, pv, turn): ([f64; 2], u32, Option<bool>),
        (x, xv, x_tri): ([f64; 2], u32, u32),
        budget: &mut usize,
    ) -> bool {
        if pv != NO_TRIANGLE && !self.round(mesh, pv, Round::Towards(x), turn) {
            return false;
        }
        let d = [x[0] - p[0], x[1] - p[1]];
        loop {
            let t = self.corridor[self.corridor.len() - 1];
            let tri = mesh.tris[t as usize];
            if xv == NO_TRIANGLE {
                if t == x_tri {
                    return true;
                }
            } else if tri.contains(&xv) {
                return true;
            }
            let pos = tri.map(|v| Self::ppos(mesh, v));
            if xv == NO_TRIANGLE && (0..3).all(|k| cross2(pos[k], pos[(k + 1) % 3], x) >= 0.0) {
                // The end lies on this triangle's side or corner: its own triangle is across
                // that side or round that corner.
                if let Some(&l) = mesh.links[t as usize]
                    .iter()
                    .find(|&&l| l != NO_TRIANGLE && l >> 2 == x_tri)
                {
                    self.corridor.push(l >> 2);
                    return true;
                }
                return match (0..3).find(|&k| pos[k] == x) {
                    Some(k) => self.round(mesh, tri[k], Round::Triangle(x_tri), None),
                    None => false,
                };
            }
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let o = pos.map(|q| cross2(p, x, q));
            // The piece leaves across the side whose start is on its right, end on its left.
            if let Some(k) = (0..3).find(|&k| o[k] < 0.0 && o[(k + 1) % 3] > 0.0) {
                let l = mesh.links[t as usize][k];
                if l == NO_TRIANGLE {
                    return false;
                }
                self.corridor.push(l >> 2);
                continue;
            }
            // Else through a corner on its line: the one farthest along it.
            let ahead = |k: usize| (pos[k][0] - p[0]) * d[0] + (pos[k][1] - p[1]) * d[1];
            let Some(k) = (0..3)
                .filter(|&k| o[k] == 0.0 && ahead(k) > 0.0)
                .max_by(|&a, &b| ahead(a).total_cmp(&ahead(b)))
            else {
                return false;
            };
            let before = self.corridor.len();
            if !self.round(mesh, tri[k], Round::Towards(x), None) || self.corridor.len() == before {
                return false;
            }
        }
    }

    /// Turns round vertex `v` of the corridor's last triangle, through the triangles that
    /// touch it (appended to the corridor), until `to`: clockwise first if `cw`,
    /// counter-clockwise first if not, and if `None` first the way `to` lies. False if neither
    /// way reaches it.
    fn round(&mut self, mesh: &NavMesh, v: u32, to: Round, cw: Option<bool>) -> bool {
        let base = self.corridor.len();
        let t0 = self.corridor[base - 1];
        let pv = Self::ppos(mesh, v);
        // Corner index of v in t (if it is one of t's).
        let at = |t: u32| mesh.tris[t as usize].iter().position(|&w| w == v);
        let holds = |t: u32, k: usize| match to {
            Round::Triangle(g) => t == g,
            Round::Towards(x) => {
                let tri = mesh.tris[t as usize];
                let (a, b) = (
                    Self::ppos(mesh, tri[(k + 1) % 3]),
                    Self::ppos(mesh, tri[(k + 2) % 3]),
                );
                cross2(pv, a, x) >= 0.0 && cross2(pv, x, b) >= 0.0
            }
        };
        let Some(k0) = at(t0) else {
            return false;
        };
        if holds(t0, k0) {
            return true;
        }
        // Clockwise (across the side from v) first when `to` lies clockwise of that side.
        let cw_first = cw.unwrap_or_else(|| match to {
            Round::Towards(x) => {
                cross2(
                    pv,
                    Self::ppos(mesh, mesh.tris[t0 as usize][(k0 + 1) % 3]),
                    x,
                ) < 0.0
            }
            Round::Triangle(_) => true,
        });
        for cw in [cw_first, !cw_first] {
            let (mut t, mut k) = (t0, k0);
            for _ in 0..MAX_FAN {
                let side = if cw { k } else { (k + 2) % 3 };
                let l = mesh.links[t as usize][side];
                if l == NO_TRIANGLE || l >> 2 == t0 {
                    break;
                }
                t = l >> 2;
                let Some(kt) = at(t) else { break };
                k = kt;
                self.corridor.push(t);
                if holds(t, k) {
                    return true;
                }
            }
            self.corridor.truncate(base);
        }
        false
    }
}
