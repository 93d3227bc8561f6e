//! Landmarks: exact distances from a few far-apart vertices to every vertex, precomputed once,
//! which give the optimal search a better lower bound than the straight line (the *differential
//! heuristic* of the ALT line of work, for any-angle paths).
//!
//! For a landmark `L` and any two points `a`, `b` of one island, the triangle inequality of
//! the walking distance `d` gives `d(a, b) ≥ |d(L, a) − d(L, b)|`. A search node's root is a
//! vertex, whose `d(L, root)` is stored; the goal is a point inside a convex polygon, every
//! corner `v` of which it sees, so `d(L, v) − |v t| ≤ d(L, t) ≤ d(L, v) + |v t|` bounds its
//! distance from the stored ones. Every path from the root to the goal is at least as long as
//! the largest of these bounds, so `f = g + max(h, bound)` still never overestimates and the
//! search stays exact, while roots that lead away from the goal (into a maze's dead ends, round
//! the wrong side of a building) get a large `f` and are left alone.
//!
//! The distances are the optimal search's own: a search from the landmark with no goal
//! (a flood, [`super::search::polyanya`]), which meets every vertex within its visibility cone
//! on the way, so each vertex gets its exact walking distance. A vertex where the ground
//! meets itself only at a point has a mesh vertex per side ([`super::mesh`]), so each side
//! gets its own distance. They are stored as `f32`
//! (landmark-major per vertex); the bound gives up a millionth of the distances, far more than
//! their rounding, so it never exceeds the true distance.
//!
//! Landmarks are chosen far apart: the first is the vertex farthest from a vertex of the
//! largest island, each next one the vertex farthest from all chosen (by the smallest of its
//! distances). Other islands get no bound (their searches run as without landmarks).

use super::mesh::NavMesh;
use super::poly::{NO_POLYGON, Polygons};
use super::search::polyanya::{self, Bound};
use super::search::pool::Pool;

/// The most landmarks a mesh holds.
pub const MAX_LANDMARKS: usize = 8;

/// Distances from a few landmarks to every vertex. See the [module docs](self).
#[derive(Debug, Clone, Default)]
pub struct Landmarks {
    k: usize,
    /// `dist[v * k + i]`: walking distance from landmark `i` to vertex `v` (infinite where it
    /// cannot be reached).
    dist: Vec<f32>,
    sources: Vec<u32>,
    /// The [`NavMesh::id`] of the mesh they were measured on.
    mesh: u64,
}

/// Per query: the bounds of the goal's and the start's distances from each landmark.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GoalBounds<'a> {
    lm: &'a Landmarks,
    k: usize,
    lo: [f64; MAX_LANDMARKS],
    hi: [f64; MAX_LANDMARKS],
    /// The bound for the start itself (root = start).
    pub(crate) start: f64,
}

/// What the bound gives up: a millionth of the distances plus a micrometre (`f32` rounding of
/// the stored distances is a few parts in 10⁸).
#[inline]
fn margin(a: f64, b: f64) -> f64 {
    1e-6 * (a.abs() + b.abs()) + 1e-6
}

impl Landmarks {
    /// The [`NavMesh::id`] of the mesh they were measured on.
    pub fn mesh_id(&self) -> u64 {
        self.mesh
    }

    /// Chooses `count` landmarks (at most [`MAX_LANDMARKS`]) on `mesh` and measures every
    /// vertex's distance from each (flooding over `polygons`, the mesh's). `count + 1` searches
    /// over the whole mesh.
    pub fn build(mesh: &NavMesh, polygons: &Polygons, count: usize) -> Landmarks {
        let k = count.min(MAX_LANDMARKS);
        let nv = mesh.vertices.len();
        let pl = polygons;
        if k == 0 || pl.count() == 0 {
            return Landmarks {
                mesh: mesh.id(),
                ..Landmarks::default()
            };
        }
        // A triangle at each vertex (to place a source there).
        let mut at = vec![u32::MAX; nv];
        for (t, tri) in mesh.tris.iter().enumerate() {
            if pl.tri_poly[t] == NO_POLYGON {
                continue;
            }
            for &v in tri {
                if at[v as usize] == u32::MAX {
                    at[v as usize] = t as u32;
                }
            }
        }
        let largest = mesh
            .islands()
            .iter()
            .max_by(|a, b| a.plan_area.total_cmp(&b.plan_area))
            .map(|i| i.first_triangle)
            .unwrap_or(0);
        let mut pool = Pool::default();
        let mut flood = |v: u32| {
            let p = mesh.vertices[v as usize];
            let cell = pl.tri_poly[at[v as usize] as usize];
            polyanya::flood(
                &mut pool,
                mesh,
                pl,
                ([f64::from(p.x), f64::from(p.y)], cell, v),
            );
            pool.fdist.clone()
        };
        let farthest = |score: &dyn Fn(usize) -> f64| {
            (0..nv)
                .filter(|&v| at[v] != u32::MAX)
                .map(|v| (score(v), v))
                .filter(|(s, _)| s.is_finite())
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, v)| v as u32)
        };
        let seed = mesh.tris[largest as usize][0];
        let first = flood(seed);
        let Some(mut next) = farthest(&|v| first[v]) else {
            return Landmarks::default();
        };
        let mut fields: Vec<Vec<f64>> = Vec::with_capacity(k);
        let mut sources = Vec::with_capacity(k);
        let mut nearest = vec![f64::INFINITY; nv];
        for _ in 0..k {
            let d = flood(next);
            for (n, &x) in nearest.iter_mut().zip(&d) {
                *n = n.min(x);
            }
            sources.push(next);
            fields.push(d);
            match farthest(&|v| {
                if nearest[v] > 0.0 {
                    nearest[v]
                } else {
                    f64::NAN
                }
            }) {
                Some(v) if !sources.contains(&v) => next = v,
                _ => break,
            }
        }
        let k = fields.len();
        let mut dist = vec![f32::INFINITY; nv * k];
        for (i, f) in fields.iter().enumerate() {
            for v in 0..nv {
                dist[v * k + i] = f[v] as f32;
            }
        }
        Landmarks {
            k,
            dist,
            sources,
            mesh: mesh.id(),
        }
    }

    /// Number of landmarks.
    pub fn count(&self) -> usize {
        self.k
    }

    /// The landmark vertices.
    pub fn sources(&self) -> &[u32] {
        &self.sources
    }

    /// The walking distance from landmark `i` to vertex `v` (infinite where it cannot be
    /// reached; `f32`).
    pub fn distance(&self, i: usize, v: u32) -> f32 {
        if i >= self.k {
            return f32::INFINITY;
        }
        self.dist
            .get(v as usize * self.k + i)
            .copied()
            .unwrap_or(f32::INFINITY)
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.dist.capacity() * 4 + self.sources.capacity() * 4
    }

    /// The bounds of the distances of `t` (in cell `gp`, whose corners `cells` gives) and `s`
    /// (in cell `sp`) from each landmark, through the corners of their cells.
    pub(crate) fn goal_bounds<'a>(
        &'a self,
        mesh: &NavMesh,
        corners: &dyn Fn(u32) -> &'a [u32],
        (gp, t): (u32, [f64; 2]),
        (sp, s): (u32, [f64; 2]),
    ) -> GoalBounds<'a> {
        let mut g = GoalBounds {
            lm: self,
            k: self.k,
            lo: [f64::NEG_INFINITY; MAX_LANDMARKS],
            hi: [f64::INFINITY; MAX_LANDMARKS],
            start: 0.0,
        };
        let (slo, shi) = self.point_bounds(mesh, corners(sp), s);
        let (tlo, thi) = self.point_bounds(mesh, corners(gp), t);
        g.lo = tlo;
        g.hi = thi;
        for i in 0..self.k {
            if slo[i].is_finite() && thi[i].is_finite() {
                let b = (slo[i] - thi[i]).max(tlo[i] - shi[i]) - margin(shi[i], thi[i]);
                g.start = g.start.max(b);
            }
        }
        g
    }

    fn point_bounds(
        &self,
        mesh: &NavMesh,
        corners: &[u32],
        x: [f64; 2],
    ) -> ([f64; MAX_LANDMARKS], [f64; MAX_LANDMARKS]) {
        let mut lo = [f64::NEG_INFINITY; MAX_LANDMARKS];
        let mut hi = [f64::INFINITY; MAX_LANDMARKS];
        for &v in corners {
            let q = mesh.vertices[v as usize];
            let (dx, dy) = (f64::from(q.x) - x[0], f64::from(q.y) - x[1]);
            let r = (dx * dx + dy * dy).sqrt();
            for i in 0..self.k {
                let d = f64::from(self.dist[v as usize * self.k + i]);
                if d.is_finite() {
                    lo[i] = lo[i].max(d - r);
                    hi[i] = hi[i].min(d + r);
                }
            }
        }
        (lo, hi)
    }

    /// A lower bound on the walking distance to the goal of `g` from any point of the piece
    /// `[r, l]` of the edge from vertex `a` to vertex `b` (every such point is within
    /// `max(|a r|, |a l|)` of `a` along the edge, and likewise for `b`).
    #[inline]
    fn edge_bound(
        &self,
        g: &GoalBounds,
        (a, pa): (u32, [f64; 2]),
        (b, pb): (u32, [f64; 2]),
        r: [f64; 2],
        l: [f64; 2],
    ) -> f64 {
        let d2 = |p: [f64; 2], q: [f64; 2]| {
            (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1])
        };
        let ea = d2(pa, r).max(d2(pa, l)).sqrt();
        let eb = d2(pb, r).max(d2(pb, l)).sqrt();
        let ra = &self.dist[a as usize * self.k..a as usize * self.k + self.k];
        let rb = &self.dist[b as usize * self.k..b as usize * self.k + self.k];
        let mut best = 0.0f64;
        for i in 0..g.k {
            let (da, db) = (f64::from(ra[i]), f64::from(rb[i]));
            if !(da.is_finite() && db.is_finite() && g.hi[i].is_finite()) {
                continue;
            }
            let lo = (da - ea).max(db - eb);
            let hi = (da + ea).min(db + eb);
            let b = (g.lo[i] - hi).max(lo - g.hi[i]) - margin(hi, g.hi[i]);
            best = best.max(b);
        }
        best
    }

    /// A lower bound on the walking distance from vertex `v` to the goal of `g`.
    #[inline]
    fn bound(&self, g: &GoalBounds, v: u32) -> f64 {
        let row = &self.dist[v as usize * self.k..v as usize * self.k + self.k];
        let mut best = 0.0f64;
        for (i, &d) in row.iter().enumerate().take(g.k) {
            let d = f64::from(d);
            if d.is_finite() && g.hi[i].is_finite() {
                let b = (d - g.hi[i]).max(g.lo[i] - d) - margin(d, g.hi[i]);
                best = best.max(b);
            }
        }
        best
    }
}

impl Bound for GoalBounds<'_> {
    fn start(&self) -> f64 {
        self.start
    }

    #[inline]
    fn root(&self, v: u32) -> f64 {
        self.lm.bound(self, v)
    }

    #[inline]
    fn edge(&self, a: (u32, [f64; 2]), b: (u32, [f64; 2]), r: [f64; 2], l: [f64; 2]) -> f64 {
        self.lm.edge_bound(self, a, b, r, l)
    }
}
