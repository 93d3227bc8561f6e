//! Plan (x, y) geometry in f64 for the clearance module: distances, boxes, convex polygons
//! (split, clip, hull, area) and the disk approximation.

use glam::DVec2;

/// `(b - a) x (c - a)`: positive when `a, b, c` turn left (counter-clockwise).
#[inline]
pub(super) fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// Squared distance from `p` to segment `a-b` and the parameter of the closest point.
#[inline]
pub(super) fn seg_dist2_t(p: DVec2, a: DVec2, b: DVec2) -> (f64, f64) {
    let ab = b - a;
    let l2 = ab.length_squared();
    let t = if l2 > 0.0 {
        ((p - a).dot(ab) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((a + ab * t - p).length_squared(), t)
}

/// Squared distance from `p` to segment `a-b`.
#[inline]
pub(super) fn seg_dist2(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    seg_dist2_t(p, a, b).0
}

/// Whether segments `a-b` and `c-d` cross or touch (exact orientation signs).
fn segments_meet(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let o1 = orient(a, b, c);
    let o2 = orient(a, b, d);
    let o3 = orient(c, d, a);
    let o4 = orient(c, d, b);
    if ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0))
        && ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0))
    {
        return true;
    }
    let on = |p: DVec2, q: DVec2, r: DVec2| {
        r.x >= p.x.min(q.x) && r.x <= p.x.max(q.x) && r.y >= p.y.min(q.y) && r.y <= p.y.max(q.y)
    };
    (o1 == 0.0 && on(a, b, c))
        || (o2 == 0.0 && on(a, b, d))
        || (o3 == 0.0 && on(c, d, a))
        || (o4 == 0.0 && on(c, d, b))
}

/// Squared distance between segments `a-b` and `c-d`.
pub(super) fn seg_seg_dist2(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> f64 {
    if segments_meet(a, b, c, d) {
        return 0.0;
    }
    seg_dist2(a, c, d)
        .min(seg_dist2(b, c, d))
        .min(seg_dist2(c, a, b))
        .min(seg_dist2(d, a, b))
}

/// Whether `p` lies in the closed triangle `t` (either winding; a degenerate triangle holds
/// only the points of its segments).
pub(super) fn in_triangle(p: DVec2, t: &[DVec2; 3]) -> bool {
    let d0 = orient(t[0], t[1], p);
    let d1 = orient(t[1], t[2], p);
    let d2 = orient(t[2], t[0], p);
    let neg = d0 < 0.0 || d1 < 0.0 || d2 < 0.0;
    let pos = d0 > 0.0 || d1 > 0.0 || d2 > 0.0;
    if !(neg && pos) {
        if orient(t[0], t[1], t[2]) != 0.0 {
            return true;
        }
        // Degenerate: on one of its segments.
        return (0..3).any(|k| seg_dist2(p, t[k], t[(k + 1) % 3]) == 0.0);
    }
    false
}

/// Squared plan distance between two triangles (0 when they overlap or touch).
pub(super) fn tri_tri_dist2(a: &[DVec2; 3], b: &[DVec2; 3]) -> f64 {
    if in_triangle(a[0], b) || in_triangle(b[0], a) {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for i in 0..3 {
        for j in 0..3 {
            best = best.min(seg_seg_dist2(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3]));
            if best == 0.0 {
                return 0.0;
            }
        }
    }
    best
}

/// Whether two triangles lie within squared plan distance `l2` (stops at the first pair of
/// sides that close).
pub(super) fn tri_tri_within(a: &[DVec2; 3], b: &[DVec2; 3], l2: f64) -> bool {
    // Separated by more than the limit along a side's normal: far apart.
    let l = l2.sqrt();
    let apart = |p: &[DVec2; 3], q: &[DVec2; 3]| {
        let o = orient(p[0], p[1], p[2]);
        if o == 0.0 {
            return false;
        }
        (0..3).any(|k| {
            let (u, v) = (p[k], p[(k + 1) % 3]);
            let e = v - u;
            let len = e.length();
            // Outward normal (for either winding), scaled by the side length.
            let n = if o > 0.0 {
                DVec2::new(e.y, -e.x)
            } else {
                DVec2::new(-e.y, e.x)
            };
            q.iter().all(|&w| n.dot(w - u) > l * len)
        })
    };
    if apart(a, b) || apart(b, a) {
        return false;
    }
    if in_triangle(a[0], b) || in_triangle(b[0], a) {
        return true;
    }
    // Corners against sides first (cheap), then side crossings.
    for i in 0..3 {
        for j in 0..3 {
            if seg_dist2(a[i], b[j], b[(j + 1) % 3]) <= l2
                || seg_dist2(b[j], a[i], a[(i + 1) % 3]) <= l2
            {
                return true;
            }
        }
    }
    // Both triangles' corners are farther than the limit from the other's sides: they can
    // only be closer by crossing, which puts a corner of one inside the other or makes two
    // sides cross.
    for i in 0..3 {
        for j in 0..3 {
            if segments_meet(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3]) {
                return true;
            }
        }
    }
    false
}

/// Squared distance from `p` to a convex polygon (0 inside). `poly` is counter-clockwise.
pub(super) fn poly_dist2(p: DVec2, poly: &[DVec2]) -> f64 {
    match poly.len() {
        0 => return f64::INFINITY,
        1 => return (p - poly[0]).length_squared(),
        _ => {}
    }
    let n = poly.len();
    let mut inside = n >= 3;
    let mut best = f64::INFINITY;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if orient(a, b, p) < 0.0 {
            inside = false;
        }
        best = best.min(seg_dist2(p, a, b));
    }
    if inside { 0.0 } else { best }
}

/// Signed area (positive counter-clockwise).
pub(super) fn area(poly: &[DVec2]) -> f64 {
    let n = poly.len();
    if n < 3 {
        return 0.0;
    }
    let o = poly[0];
    let mut s = 0.0;
    for i in 1..n - 1 {
        s += orient(o, poly[i], poly[i + 1]);
    }
    s * 0.5
}

/// An axis-aligned box in plan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Aabb {
    pub min: DVec2,
    pub max: DVec2,
}

impl Aabb {
    pub const EMPTY: Aabb = Aabb {
        min: DVec2::splat(f64::INFINITY),
        max: DVec2::splat(f64::NEG_INFINITY),
    };

    pub fn of(points: &[DVec2]) -> Aabb {
        let mut b = Aabb::EMPTY;
        for &p in points {
            b.add(p);
        }
        b
    }

    #[inline]
    pub fn add(&mut self, p: DVec2) {
        self.min = self.min.min(p);
        self.max = self.max.max(p);
    }

    #[inline]
    pub fn grown(&self, d: f64) -> Aabb {
        Aabb {
            min: self.min - DVec2::splat(d),
            max: self.max + DVec2::splat(d),
        }
    }

    #[inline]
    pub fn overlaps(&self, o: &Aabb) -> bool {
        self.min.x <= o.max.x
            && o.min.x <= self.max.x
            && self.min.y <= o.max.y
            && o.min.y <= self.max.y
    }

    /// Squared distance between two boxes (0 when they overlap).
    #[inline]
    pub fn dist2(&self, o: &Aabb) -> f64 {
        let dx = (o.min.x - self.max.x).max(self.min.x - o.max.x).max(0.0);
        let dy = (o.min.y - self.max.y).max(self.min.y - o.max.y).max(0.0);
        dx * dx + dy * dy
    }

    pub fn is_empty(&self) -> bool {
        !(self.min.x <= self.max.x && self.min.y <= self.max.y)
    }
}

/// The regular polygon circumscribing the unit disk used for every arc: `n` (even) vertices,
/// edges at distance 1 from the centre, one pair of edges normal to +y (so a segment along +x
/// swept by it has exact straight sides).
#[derive(Debug, Clone)]
pub(super) struct Disk {
    /// Vertex offsets for the unit radius, counter-clockwise.
    pub unit: Vec<DVec2>,
}

impl Disk {
    /// The number of sides for which the polygon's vertices lie at most `tolerance * r` outside
    /// the circle of radius `r`: `1 / cos(pi / n) - 1 <= tolerance`, `n` even, 8 ..= 256.
    pub fn sides_for(tolerance: f64) -> usize {
        let mut n = 8usize;
        while n < 256 && 1.0 / (std::f64::consts::PI / n as f64).cos() - 1.0 > tolerance {
            n += 2;
        }
        n
    }

    pub fn new(n: usize) -> Disk {
        let n = n.max(4) & !1;
        let pi = std::f64::consts::PI;
        let radius = 1.0 / (pi / n as f64).cos();
        let unit = (0..n)
            .map(|k| {
                let a = pi / 2.0 + pi / n as f64 + 2.0 * pi * k as f64 / n as f64;
                DVec2::new(a.cos(), a.sin()) * radius
            })
            .collect();
        Disk { unit }
    }

    /// The largest distance from the centre of a vertex, per unit radius.
    pub fn vertex_radius(&self) -> f64 {
        self.unit.first().map_or(1.0, |v| v.length())
    }

    /// Segment `a-b` swept by the polygon of radius `r`, with its straight sides exactly at
    /// distance `r`; pushed counter-clockwise to `out`.
    pub fn capsule(&self, a: DVec2, b: DVec2, r: f64, out: &mut Vec<DVec2>) {
        let d = b - a;
        let len = d.length();
        let (c, s) = if len > 0.0 && len.is_finite() {
            (d.x / len, d.y / len)
        } else {
            (1.0, 0.0)
        };
        for u in &self.unit {
            let o = DVec2::new(c * u.x - s * u.y, s * u.x + c * u.y) * r;
            out.push(if o.dot(d) > 0.0 { b + o } else { a + o });
        }
    }

    /// The convex polygon `poly` (counter-clockwise; or one or two points) swept by a disk of
    /// radius `r`, pushed counter-clockwise to `out`: every side moved out by exactly `r`, and
    /// around each corner the arc between its sides' normals cut into steps of at most
    /// `2 pi / n`, circumscribed (corners within `r / cos(pi / n)`).
    pub fn offset(&self, poly: &[DVec2], r: f64, out: &mut Vec<DVec2>) {
        let n = self.unit.len().max(4);
        match poly.len() {
            0 => {}
            1 => {
                for u in &self.unit {
                    out.push(poly[0] + *u * r);
                }
            }
            2 => self.capsule(poly[0], poly[1], r, out),
            m => {
                let tau = std::f64::consts::TAU;
                let normal = |i: usize| {
                    let e = poly[(i + 1) % m] - poly[i];
                    e.y.atan2(e.x) - std::f64::consts::FRAC_PI_2
                };
                for (i, &corner) in poly.iter().enumerate() {
                    let from = normal((i + m - 1) % m);
                    let mut turn = (normal(i) - from).rem_euclid(tau);
                    if turn >= tau - 1e-12 {
                        turn = 0.0;
                    }
                    let k = ((turn / (tau / n as f64)).ceil() as usize).clamp(1, n);
                    let step = turn / k as f64;
                    let reach = r / (0.5 * step).cos();
                    for j in 0..k {
                        let a = from + (j as f64 + 0.5) * step;
                        out.push(corner + DVec2::new(a.cos(), a.sin()) * reach);
                    }
                }
            }
        }
    }
}

/// Convex hull (Andrew's monotone chain), counter-clockwise, collinear points dropped;
/// `points` is sorted in place. Pushes to `out`.
pub(super) fn hull(points: &mut [DVec2], out: &mut Vec<DVec2>) {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    // Drop repeated points.
    let mut n = 0;
    for i in 0..points.len() {
        if n == 0 || points[i] != points[n - 1] {
            points[n] = points[i];
            n += 1;
        }
    }
    let points = &points[..n];
    let start = out.len();
    if n <= 2 {
        out.extend_from_slice(points);
        return;
    }
    for &p in points {
        while out.len() >= start + 2 && orient(out[out.len() - 2], out[out.len() - 1], p) <= 0.0 {
            out.pop();
        }
        out.push(p);
    }
    let lower = out.len();
    for &p in points.iter().rev().skip(1) {
        while out.len() > lower && orient(out[out.len() - 2], out[out.len() - 1], p) <= 0.0 {
            out.pop();
        }
        out.push(p);
    }
    out.pop(); // the first point again
}

/// Where a point lies relative to a line: outside (`> eps`), inside (`< -eps`) or on it.
#[inline]
fn side(s: f64, eps: f64) -> i8 {
    if s > eps {
        1
    } else if s < -eps {
        -1
    } else {
        0
    }
}

/// The crossing of edge `u-v` with the line, computed from the lexicographically smaller
/// endpoint so that two pieces sharing the edge get bit-identical points.
#[inline]
fn crossing(u: DVec2, su: f64, v: DVec2, sv: f64) -> DVec2 {
    let (p, sp, q, sq) = if (u.x, u.y) <= (v.x, v.y) {
        (u, su, v, sv)
    } else {
        (v, sv, u, su)
    };
    let t = (sp / (sp - sq)).clamp(0.0, 1.0);
    p + (q - p) * t
}

/// Signed distance of `v` from the line through `a` with unit normal `n`.
#[inline]
pub(super) fn line_dist(v: DVec2, a: DVec2, n: DVec2) -> f64 {
    (v - a).dot(n)
}

/// Splits convex `poly` by the line through `a` with unit normal `n`: the part with
/// `n . (v - a) >= -eps` goes to `outside`, the part with `<= eps` to `inside` (points within
/// `eps` of the line go to both). Returns (has outside vertices, has inside vertices).
pub(super) fn split(
    poly: &[DVec2],
    a: DVec2,
    n: DVec2,
    eps: f64,
    outside: &mut Vec<DVec2>,
    inside: &mut Vec<DVec2>,
) {
    outside.clear();
    inside.clear();
    let m = poly.len();
    for i in 0..m {
        let u = poly[i];
        let v = poly[(i + 1) % m];
        let su = line_dist(u, a, n);
        let sv = line_dist(v, a, n);
        let (cu, cv) = (side(su, eps), side(sv, eps));
        match cu {
            1 => outside.push(u),
            -1 => inside.push(u),
            _ => {
                outside.push(u);
                inside.push(u);
            }
        }
        if cu * cv < 0 {
            let x = crossing(u, su, v, sv);
            outside.push(x);
            inside.push(x);
        }
    }
}

/// Keeps the part of convex `poly` with `n . (v - a) <= eps` (clips away the outside).
pub(super) fn clip_keep_inside(poly: &[DVec2], a: DVec2, n: DVec2, eps: f64, out: &mut Vec<DVec2>) {
    out.clear();
    let m = poly.len();
    for i in 0..m {
        let u = poly[i];
        let v = poly[(i + 1) % m];
        let su = line_dist(u, a, n);
        let sv = line_dist(v, a, n);
        let (cu, cv) = (side(su, eps), side(sv, eps));
        if cu <= 0 {
            out.push(u);
        }
        if cu * cv < 0 {
            out.push(crossing(u, su, v, sv));
        }
    }
}

/// The outward unit normal of edge `a -> b` of a counter-clockwise polygon (None when the
/// edge has no length).
#[inline]
pub(super) fn outward(a: DVec2, b: DVec2) -> Option<DVec2> {
    let e = b - a;
    let len = e.length();
    (len > 0.0 && len.is_finite()).then(|| DVec2::new(e.y / len, -e.x / len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    #[test]
    fn disk_sides_meet_the_tolerance() {
        assert_eq!(Disk::sides_for(0.02), 16);
        for tol in [0.1, 0.02, 0.005, 0.001] {
            let n = Disk::sides_for(tol);
            let d = Disk::new(n);
            assert!(d.vertex_radius() - 1.0 <= tol + 1e-12, "{tol} {n}");
            // Every edge is tangent to the unit circle.
            for i in 0..n {
                let (a, b) = (d.unit[i], d.unit[(i + 1) % n]);
                let dist = seg_dist2(DVec2::ZERO, a, b).sqrt();
                assert!((dist - 1.0).abs() < 1e-12);
                assert!(orient(DVec2::ZERO, a, b) > 0.0);
            }
        }
    }

    #[test]
    fn capsule_has_exact_sides_and_contains_the_swept_disk() {
        let d = Disk::new(16);
        let mut out = Vec::new();
        let (a, b) = (v(1.0, 2.0), v(4.0, 6.0));
        d.capsule(a, b, 0.5, &mut out);
        assert_eq!(out.len(), 16);
        assert!(area(&out) > 0.0);
        // Every edge at distance >= 0.5 from the segment, and points at 0.5 inside.
        let n = out.len();
        let mut exact = 0;
        for i in 0..n {
            let (p, q) = (out[i], out[(i + 1) % n]);
            let dd = seg_seg_dist2(p, q, a, b).sqrt();
            assert!(dd >= 0.5 - 1e-9, "{dd}");
            if (dd - 0.5).abs() < 1e-9 && (q - p).length() > 4.0 {
                exact += 1;
            }
        }
        assert_eq!(exact, 2, "the two long sides are exact");
        for k in 0..64 {
            let ang = k as f64 * 0.1;
            for s in [0.0, 0.3, 1.0] {
                let p = a + (b - a) * s + DVec2::new(ang.cos(), ang.sin()) * 0.4999;
                assert_eq!(poly_dist2(p, &out), 0.0);
            }
        }
    }

    #[test]
    fn offset_has_exact_sides_and_contains_the_swept_polygon() {
        let d = Disk::new(16);
        let tri = [v(0.0, 0.0), v(3.0, 0.5), v(1.0, 2.0)];
        let mut out = Vec::new();
        d.offset(&tri, 0.4, &mut out);
        assert!(area(&out) > 0.0);
        let m = out.len();
        let mut exact = 0;
        for i in 0..m {
            let (p, q) = (out[i], out[(i + 1) % m]);
            // Convex, and every side at distance >= r from the triangle.
            assert!(orient(p, q, out[(i + 2) % m]) > 0.0);
            let dist = (0..3)
                .map(|k| seg_seg_dist2(p, q, tri[k], tri[(k + 1) % 3]))
                .fold(f64::INFINITY, f64::min)
                .sqrt();
            assert!(dist >= 0.4 - 1e-9, "{dist}");
            if (dist - 0.4).abs() < 1e-9 && (q - p).length() > 1.0 {
                exact += 1;
            }
            // Corners within r / cos(pi / 16) of the triangle.
            let reach = (0..3)
                .map(|k| seg_dist2(p, tri[k], tri[(k + 1) % 3]))
                .fold(f64::INFINITY, f64::min)
                .sqrt();
            assert!(reach <= 0.4 * d.vertex_radius() + 1e-9);
        }
        assert_eq!(exact, 3, "one exact side per triangle side");
        // One and two points: a polygon around the point, a capsule.
        out.clear();
        d.offset(&[v(1.0, 1.0)], 0.5, &mut out);
        assert_eq!(out.len(), 16);
        out.clear();
        d.offset(&[v(1.0, 1.0), v(2.0, 1.0)], 0.5, &mut out);
        assert_eq!(out.len(), 16);
    }

    #[test]
    fn split_keeps_area_and_shares_crossings() {
        let sq = [v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)];
        let (mut o, mut i) = (Vec::new(), Vec::new());
        let n = DVec2::new(1.0, 1.0).normalize();
        split(&sq, v(1.0, 0.5), n, 1e-12, &mut o, &mut i);
        assert!((area(&o) + area(&i) - 4.0).abs() < 1e-12);
        assert!(area(&o) > 0.0 && area(&i) > 0.0);
        let mut hits = 0;
        for p in &o {
            if i.contains(p) {
                hits += 1;
            }
        }
        assert_eq!(hits, 2);
    }

    #[test]
    fn hull_drops_collinear_and_handles_degenerate_sets() {
        let mut out = Vec::new();
        hull(
            &mut [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(1.0, 1.0)],
            &mut out,
        );
        assert_eq!(out.len(), 3);
        out.clear();
        hull(&mut [v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0)], &mut out);
        assert_eq!(out, vec![v(0.0, 0.0), v(2.0, 2.0)]);
        out.clear();
        hull(&mut [v(3.0, 3.0), v(3.0, 3.0)], &mut out);
        assert_eq!(out, vec![v(3.0, 3.0)]);
    }

    #[test]
    fn distances() {
        let t = [v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)];
        let u = [v(2.0, 0.0), v(3.0, 0.0), v(2.0, 1.0)];
        assert!((tri_tri_dist2(&t, &u) - 1.0).abs() < 1e-12);
        let w = [v(0.2, 0.2), v(0.3, 0.2), v(0.2, 0.3)];
        assert_eq!(tri_tri_dist2(&t, &w), 0.0);
        assert_eq!(
            seg_seg_dist2(v(0.0, 0.0), v(1.0, 1.0), v(0.0, 1.0), v(1.0, 0.0)),
            0.0
        );
        assert!(in_triangle(v(0.5, 0.0), &t));
        assert!(!in_triangle(v(0.6, 0.6), &t));
    }
}
