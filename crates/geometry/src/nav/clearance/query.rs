//! Clearance at a point: the obstacles that count for its triangle, each with the radius at
//! which it starts to count, and the smallest radius at which one of them lies closer than it.

use glam::DVec2;

use super::Clearance;
use super::carve::Z_SLACK;
use super::geom::{self, Aabb};
use super::prepare::Marks;

/// A boundary side that may count for the source triangle.
#[derive(Debug, Clone, Copy)]
struct Side {
    /// The radius from which its triangle is in the same-floor neighbourhood.
    activation: f64,
    a: DVec2,
    b: DVec2,
    za: f64,
    zb: f64,
    /// A side of the source triangle itself (no height filter).
    own: bool,
}

/// The obstacles that may count for points of one triangle, up to a radius `hi`.
pub(super) struct Candidates {
    t: usize,
    pub hi: f64,
    /// Activation and steepest gradient so far, ascending activation.
    slopes: Vec<(f64, f64)>,
    sides: Vec<Side>,
    /// Footprint polygons near the triangle.
    footprints: Vec<u32>,
}

impl Clearance<'_> {
    /// The active triangle whose plan contains `p` (within its tolerance) with its height there
    /// nearest to `z`; ties to the lowest index.
    pub(super) fn locate(&self, p: DVec2, z: f64) -> Option<usize> {
        let topo = &self.topo;
        let mut near = Vec::new();
        self.with_marks(|marks, _| {
            self.tri_grid
                .query(&Aabb { min: p, max: p }, marks, &mut near)
        });
        near.sort_unstable();
        let mut best: Option<(f64, usize)> = None;
        for &t in &near {
            let t = t as usize;
            if !topo.active[t] {
                continue;
            }
            let e = topo.eps[t];
            let tri = &topo.plan[t];
            let inside = geom::in_triangle(p, tri)
                || (0..3).any(|k| geom::seg_dist2(p, tri[k], tri[(k + 1) % 3]) <= e * e);
            if !inside {
                continue;
            }
            let dz = (topo.height(t, p) - z).abs();
            if best.is_none_or(|(bd, _)| dz < bd) {
                best = Some((dz, t));
            }
        }
        best.map(|(_, t)| t)
    }

    /// Runs `f` with the query marks (triangles, footprints), kept between queries.
    fn with_marks<R>(&self, f: impl FnOnce(&mut Marks, &mut Marks) -> R) -> R {
        let kept = self.marks.lock().ok().and_then(|mut m| m.take());
        let (mut a, mut b) =
            kept.unwrap_or_else(|| (Marks::new(self.topo.n), Marks::new(self.fp.polys.len())));
        let r = f(&mut a, &mut b);
        if let Ok(mut m) = self.marks.lock() {
            *m = Some((a, b));
        }
        r
    }

    /// The obstacles that may count for triangle `t` up to radius `hi`.
    pub(super) fn candidates(
        &self,
        t: usize,
        hi: f64,
        marks: &mut Marks,
        fmarks: &mut Marks,
    ) -> Candidates {
        let topo = &self.topo;
        let eps = topo.eps[t];
        let mut ranked = Vec::new();
        topo.neighbourhood_ranked(t, hi + eps, marks, &mut ranked);
        let mut slopes = Vec::with_capacity(ranked.len());
        let mut s = 0.0f64;
        let mut sides = Vec::new();
        let is_boundary = |u: usize, k: usize| {
            let g = topo.edge_of[u][k];
            g != u32::MAX && topo.sides(g).len() == 1
        };
        for &(u, a) in &ranked {
            let u = u as usize;
            s = s.max(topo.grad[u].length());
            slopes.push((a, s));
            for k in 0..3 {
                if is_boundary(u, k) {
                    sides.push(Side {
                        activation: a,
                        a: topo.plan[u][k],
                        b: topo.plan[u][(k + 1) % 3],
                        za: topo.z[u][k],
                        zb: topo.z[u][(k + 1) % 3],
                        own: u == t,
                    });
                }
            }
        }
        let mut footprints = Vec::new();
        self.fp_grid
            .query(&topo.bbox[t].grown(hi + eps), fmarks, &mut footprints);
        footprints.sort_unstable();
        Candidates {
            t,
            hi,
            slopes,
            sides,
            footprints,
        }
    }

    /// The steepest gradient among the triangles counting at radius `r`.
    fn slope_at(c: &Candidates, r: f64) -> f64 {
        let n = c.slopes.partition_point(|x| x.0 <= r);
        if n == 0 { 0.0 } else { c.slopes[n - 1].1 }
    }

    /// Whether the height filter keeps all of side `s` at radius `r`.
    fn window_full(&self, c: &Candidates, s: &Side, r: f64) -> bool {
        let tau = 2.0 * Self::slope_at(c, r) * r + Z_SLACK + self.topo.eps[c.t];
        matches!(height_window(&self.topo, c.t, s, tau), Some((a, b)) if a <= 0.0 && b >= 1.0)
    }

    /// Whether boundary side `s` counts and lies closer than `r` to `p` at radius `r`.
    fn side_blocks(&self, c: &Candidates, s: &Side, p: DVec2, r: f64) -> bool {
        if s.activation > r {
            return false;
        }
        if s.own {
            return geom::seg_dist2(p, s.a, s.b) < r * r;
        }
        let tau = 2.0 * Self::slope_at(c, r) * r + Z_SLACK + self.topo.eps[c.t];
        match height_window(&self.topo, c.t, s, tau) {
            Some((s0, s1)) => {
                let (a, b) = (s.a + (s.b - s.a) * s0, s.a + (s.b - s.a) * s1);
                geom::seg_dist2(p, a, b) < r * r
            }
            None => false,
        }
    }

    /// The clearance of `p` (on triangle `c.t`, ground height `z`) from the candidates, capped
    /// at `c.hi` (returned when nothing counts closer).
    pub(super) fn clearance_with(&self, c: &Candidates, p: DVec2, z: f64) -> f64 {
        let mut best = c.hi;
        let opts = &self.options;
        for &i in &c.footprints {
            let (_, _, b) = self.fp.polys[i as usize];
            let (lo, hi) = self.fp.spans[b as usize];
            if z < lo - f64::from(opts.agent_height) || z > hi + f64::from(opts.ground_tolerance) {
                continue;
            }
            let d = geom::poly_dist2(p, self.fp.poly(i as usize)).sqrt();
            best = best.min(d);
        }
        for s in &c.sides {
            if s.activation >= best {
                continue;
            }
            // The full side counts from radius v = max(activation, distance) on, unless the
            // height filter cuts it there.
            let d = geom::seg_dist2(p, s.a, s.b).sqrt();
            let v = s.activation.max(d);
            if v >= best {
                continue;
            }
            if s.own || self.window_full(c, s, v) {
                best = v;
                continue;
            }
            // A partial window: the smallest radius in [v, best) at which it blocks.
            if !self.side_blocks(c, s, p, best) {
                continue;
            }
            let (mut lo, mut hi) = (v, best);
            for _ in 0..64 {
                let mid = 0.5 * (lo + hi);
                if mid <= lo || mid >= hi {
                    break;
                }
                if self.side_blocks(c, s, p, mid) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            best = hi;
        }
        best
    }

    /// The clearance of plan point `p` on triangle `t` (growing the search radius until
    /// something counts); infinity when nothing bounds the ground.
    pub(super) fn clearance_on(&self, t: usize, p: DVec2) -> f64 {
        let topo = &self.topo;
        let b = topo.bounds;
        let diag = if b.is_empty() {
            0.0
        } else {
            (b.max - b.min).length()
        };
        let z = topo.height(t, p);
        let bb = topo.bbox[t];
        let mut hi = (bb.max - bb.min).max_element().max(1e-3);
        loop {
            let c = self.with_marks(|marks, fmarks| self.candidates(t, hi, marks, fmarks));
            let d = self.clearance_with(&c, p, z);
            if d < hi {
                return d;
            }
            if hi > 4.0 * diag + 1.0 {
                return f64::INFINITY;
            }
            hi *= 4.0;
        }
    }
}

/// The part `[s0, s1]` of side `s` whose height is within `tau` of triangle `t`'s plane.
fn height_window(topo: &super::prepare::Topo, t: usize, s: &Side, tau: f64) -> Option<(f64, f64)> {
    super::carve::height_window(topo, t, s.a, s.b, s.za, s.zb, tau)
}
