//! Point location: the uniform grid over the triangles' boxes, [`NavMesh::locate`], and
//! snapping a point to the nearest walkable one.

use super::{LocateError, Location, NavMesh, cross2, plan};
use crate::query::tri_height_at_f64;
use glam::Vec3;

/// The uniform point-location grid.
#[derive(Debug, Clone, Default)]
pub(super) struct Grid {
    min: [f64; 2],
    inv_cell: f64,
    nx: u32,
    ny: u32,
    /// `start[c]..start[c + 1]` indexes `items` for cell `c = y * nx + x`.
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Grid {
    #[inline]
    fn cell_of(&self, x: f64, y: f64) -> (i64, i64) {
        (
            ((x - self.min[0]) * self.inv_cell).floor() as i64,
            ((y - self.min[1]) * self.inv_cell).floor() as i64,
        )
    }

    #[inline]
    fn cell_items(&self, cx: i64, cy: i64) -> &[u32] {
        if cx < 0 || cy < 0 || cx >= i64::from(self.nx) || cy >= i64::from(self.ny) {
            return &[];
        }
        let c = cy as usize * self.nx as usize + cx as usize;
        &self.items[self.start[c] as usize..self.start[c + 1] as usize]
    }
}

impl Grid {
    pub(super) fn memory_bytes(&self) -> usize {
        (self.start.capacity() + self.items.capacity()) * 4
    }
}

/// Heights within this of each other (1 mm in the games' metres) are one floor when a point
/// is located: which of the triangles there is taken then follows [`NavMesh::locate`]'s tie
/// rule, not the last bits of the arithmetic (coplanar ground laid twice, a sliver on its
/// neighbour's edge).
pub const SAME_FLOOR: f64 = 1e-3;

/// Island plan areas within this relative difference are equal (the sums' last bits depend on
/// the order of their terms).
const SAME_AREA: f64 = 1e-9;

impl NavMesh {
    /// The height of triangle `t` at `(x, y)` if it contains the point seen from above.
    #[inline]
    pub fn height_in(&self, t: u32, x: f32, y: f32) -> Option<f32> {
        self.height_in_f64(t, x, y).map(|h| h as f32)
    }

    #[inline]
    fn height_in_f64(&self, t: u32, x: f32, y: f32) -> Option<f64> {
        let p = self.triangle_points(t).map(|v| v.to_array());
        tri_height_at_f64(&p, x, y)
    }

    /// The walkable point at `(x, y)`: of the triangles containing it seen from above (edges
    /// included), with a height hint `z` the one whose height there is nearest to it, without
    /// one the highest. Triangles within [`SAME_FLOOR`] of that best height are one floor:
    /// of them the one on the island of the largest plan area wins, then the lowest index (a
    /// point on a patch laid over a floor stands on the floor). `None` when no triangle lies
    /// under or over the point.
    pub fn locate(&self, x: f32, y: f32, z: Option<f32>) -> Option<Location> {
        if !(x.is_finite() && y.is_finite() && z.is_none_or(f32::is_finite)) {
            return None;
        }
        if self.grid.items.is_empty() {
            return None;
        }
        let (cx, cy) = self.grid.cell_of(f64::from(x), f64::from(y));
        let here = || {
            self.grid
                .cell_items(cx, cy)
                .iter()
                .filter_map(|&t| self.height_in_f64(t, x, y).map(|h| (t, h)))
        };
        let (t, h) = self.floor_pick(here, z)?;
        Some(Location {
            triangle: t,
            point: Vec3::new(x, y, h as f32),
            snapped: 0.0,
        })
    }

    /// [`NavMesh::locate`]'s choice among `(triangle, height)` candidates.
    fn floor_pick<I: Iterator<Item = (u32, f64)>>(
        &self,
        candidates: impl Fn() -> I,
        z: Option<f32>,
    ) -> Option<(u32, f64)> {
        let score = |h: f64| z.map_or(-h, |z| (h - f64::from(z)).abs());
        let best = candidates().map(|c| score(c.1)).min_by(f64::total_cmp)?;
        let floor = || candidates().filter(move |c| score(c.1) <= best + SAME_FLOOR);
        let area = |t: u32| self.islands[self.island[t as usize] as usize].plan_area;
        let largest = floor().map(|c| area(c.0)).max_by(f64::total_cmp)?;
        floor()
            .filter(|c| area(c.0) >= largest * (1.0 - SAME_AREA))
            .min_by_key(|c| c.0)
    }

    /// Every triangle a located point stands on, into `out` (cleared): the located one first,
    /// then by index, each that holds the point's plan position (edges and corners included)
    /// with its height there within [`SAME_FLOOR`] of the point's. A point inside one triangle
    /// stands on it alone; on an edge, on both sides; on a vertex, on its whole fan; where
    /// ground is laid twice (a fold, a patch over a floor), on every layer. At a pinch (the
    /// point on a vertex where the ground meets itself only there) it stands on the located
    /// triangle's fan only: a path never passes from one fan to another
    /// (`docs/navigation.md`, "Point location").
    pub fn standing(&self, at: &Location, out: &mut Vec<u32>) {
        out.clear();
        out.push(at.triangle);
        if self.grid.items.is_empty() || at.triangle as usize >= self.tris.len() {
            return;
        }
        let (x, y) = (at.point.x, at.point.y);
        let h0 = f64::from(at.point.z);
        let p = [f64::from(x), f64::from(y)];
        // The located triangle's vertex at the point, if the point is one.
        let v = self.tris[at.triangle as usize]
            .into_iter()
            .find(|&v| plan(self.vertices[v as usize]) == p);
        let other_fan = |u: u32| {
            v.is_some_and(|v| {
                let sv = self.surface_vertex(v);
                self.tris[u as usize]
                    .iter()
                    .any(|&w| w != v && self.surface_vertex(w) == sv)
            })
        };
        let (cx, cy) = self.grid.cell_of(p[0], p[1]);
        let start = out.len();
        for &t in self.grid.cell_items(cx, cy) {
            if t == at.triangle || other_fan(t) {
                continue;
            }
            if let Some(h) = self.height_in_f64(t, x, y)
                && (h - h0).abs() <= SAME_FLOOR
            {
                out.push(t);
            }
        }
        out[start..].sort_unstable();
    }

    /// [`NavMesh::locate`], or else the nearest walkable point within `snap`: with a height
    /// hint by 3-D distance to `(x, y, z)`, without one by plan distance (the highest point
    /// at the nearest plan distance). Ties go to the lowest triangle index.
    pub fn locate_or_snap(
        &self,
        x: f32,
        y: f32,
        z: Option<f32>,
        snap: f32,
    ) -> Result<Location, LocateError> {
        if !(x.is_finite() && y.is_finite() && z.is_none_or(f32::is_finite)) {
            return Err(LocateError::NotFinite);
        }
        if self.grid.items.is_empty() {
            return Err(LocateError::EmptySurface);
        }
        if let Some(l) = self.locate(x, y, z) {
            return Ok(l);
        }
        let snap = if snap.is_finite() { snap.max(0.0) } else { 0.0 };
        if let Some(l) = self.nearest(x, y, z, f64::from(snap)) {
            return Ok(l);
        }
        let wider = (f64::from(snap) * 8.0).max(8.0);
        Err(LocateError::TooFar {
            snap,
            nearest: self.nearest(x, y, z, wider).map(|l| l.snapped),
        })
    }

    /// The nearest walkable point within `radius` (see [`NavMesh::locate_or_snap`]). The
    /// distance is measured to where the point ends up — the nearest point of a triangle,
    /// rounded to `f32` and moved onto it — and that point is then located as
    /// [`NavMesh::locate`] would with its own height as the hint, so a snapped end stands on
    /// the triangle a query for the snapped point names.
    fn nearest(&self, x: f32, y: f32, z: Option<f32>, radius: f64) -> Option<Location> {
        let g = &self.grid;
        let p = [f64::from(x), f64::from(y), z.map_or(0.0, f64::from)];
        let (x0, y0) = g.cell_of(p[0] - radius, p[1] - radius);
        let (x1, y1) = g.cell_of(p[0] + radius, p[1] + radius);
        let x0 = x0.max(0);
        let y0 = y0.max(0);
        let x1 = x1.min(i64::from(g.nx) - 1);
        let y1 = y1.min(i64::from(g.ny) - 1);
        // How far `p` moves to reach (x, y, h).
        let moved = |x: f32, y: f32, h: f32| {
            let d = [
                f64::from(x) - p[0],
                f64::from(y) - p[1],
                f64::from(h) - p[2],
            ];
            let plan = d[0] * d[0] + d[1] * d[1];
            (if z.is_some() {
                plan + d[2] * d[2]
            } else {
                plan
            })
            .sqrt()
        };
        // (distance, -z for ties without a hint, triangle, point)
        let mut best: Option<(f64, f32, u32, Vec3)> = None;
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                for &t in g.cell_items(cx, cy) {
                    let tri = self.triangle_points(t).map(|v| v.to_array().map(f64::from));
                    let (q, d2) = match z {
                        Some(_) => closest_on_triangle(&tri, p),
                        None => closest_in_plan(&tri, [p[0], p[1]]),
                    };
                    if d2 > radius * radius {
                        continue;
                    }
                    let (qx, qy) = self.inside(t, [q[0] as f32, q[1] as f32]);
                    let h = self.height_in(t, qx, qy).unwrap_or(q[2] as f32);
                    let d = moved(qx, qy, h);
                    if d > radius {
                        continue;
                    }
                    let key = (d, -h, t);
                    if best.is_none_or(|(bd, bz, bt, _)| {
                        key.0 < bd || (key.0 == bd && (key.1 < bz || (key.1 == bz && t < bt)))
                    }) {
                        best = Some((d, -h, t, Vec3::new(qx, qy, h)));
                    }
                }
            }
        }
        best.map(|(d, _, t, q)| match self.locate(q.x, q.y, Some(q.z)) {
            Some(l) => Location {
                snapped: moved(q.x, q.y, l.point.z) as f32,
                ..l
            },
            None => Location {
                triangle: t,
                point: q,
                snapped: d as f32,
            },
        })
    }

    /// `p` (a point on triangle `t` rounded to `f32`), moved onto the triangle if the
    /// rounding put it just off: the searches take an end to lie on its triangle exactly.
    fn inside(&self, t: u32, p: [f32; 2]) -> (f32, f32) {
        let c = self.triangle_points(t).map(plan);
        let holds = |x: [f32; 2]| {
            let x = [f64::from(x[0]), f64::from(x[1])];
            (0..3).all(|k| cross2(c[k], c[(k + 1) % 3], x) >= 0.0)
        };
        if holds(p) {
            return (p[0], p[1]);
        }
        // Towards the centre, a little more each time; a corner is on it in any case.
        let centre = [
            (c[0][0] + c[1][0] + c[2][0]) / 3.0,
            (c[0][1] + c[1][1] + c[2][1]) / 3.0,
        ];
        let mut step = 1e-7;
        while step <= 1.0 {
            let q = [
                (f64::from(p[0]) + (centre[0] - f64::from(p[0])) * step) as f32,
                (f64::from(p[1]) + (centre[1] - f64::from(p[1])) * step) as f32,
            ];
            if holds(q) {
                return (q[0], q[1]);
            }
            step *= 4.0;
        }
        let v = self.vertices[self.tris[t as usize][0] as usize];
        (v.x, v.y)
    }
}

pub(super) fn build_grid(vertices: &[Vec3], tris: &[[u32; 3]], flat: &[bool]) -> Grid {
    let mut min = [f64::INFINITY; 2];
    let mut max = [f64::NEG_INFINITY; 2];
    let mut count = 0usize;
    for (t, f) in tris.iter().zip(flat) {
        if *f {
            continue;
        }
        count += 1;
        for &i in t {
            let p = plan(vertices[i as usize]);
            for k in 0..2 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
    }
    if count == 0 {
        return Grid::default();
    }
    let w = (max[0] - min[0]).max(1e-6);
    let h = (max[1] - min[1]).max(1e-6);
    let mut cell = (32.0 * w * h / count as f64).sqrt().max(w.max(h) / 65536.0);
    let boxes = |cell: f64| {
        let inv = 1.0 / cell;
        let nx = ((w * inv).floor() as u64 + 1).min(1 << 20) as u32;
        let ny = ((h * inv).floor() as u64 + 1).min(1 << 20) as u32;
        (inv, nx, ny)
    };
    loop {
        let (inv, nx, ny) = boxes(cell);
        let cells = nx as usize * ny as usize;
        let span = |t: &[u32; 3]| {
            let p = t.map(|i| plan(vertices[i as usize]));
            let lo = |k: usize| p[0][k].min(p[1][k]).min(p[2][k]);
            let hi = |k: usize| p[0][k].max(p[1][k]).max(p[2][k]);
            let c = |v: f64, k: usize, n: u32| {
                (((v - min[k]) * inv).floor().max(0.0) as u64).min(u64::from(n) - 1) as u32
            };
            (
                c(lo(0), 0, nx),
                c(lo(1), 1, ny),
                c(hi(0), 0, nx),
                c(hi(1), 1, ny),
            )
        };
        let mut total = 0usize;
        for (t, f) in tris.iter().zip(flat) {
            if !*f {
                let (x0, y0, x1, y1) = span(t);
                total += (x1 - x0 + 1) as usize * (y1 - y0 + 1) as usize;
            }
        }
        if (total > 8 * count + 1024 || cells > 4 * count + 1024) && cell < w.max(h) {
            cell *= 2.0;
            continue;
        }
        let mut start = vec![0u32; cells + 1];
        for (t, f) in tris.iter().zip(flat) {
            if !*f {
                let (x0, y0, x1, y1) = span(t);
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        start[y as usize * nx as usize + x as usize + 1] += 1;
                    }
                }
            }
        }
        for i in 0..cells {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; total];
        for (ti, (t, f)) in tris.iter().zip(flat).enumerate() {
            if !*f {
                let (x0, y0, x1, y1) = span(t);
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        let s = &mut fill[y as usize * nx as usize + x as usize];
                        items[*s as usize] = ti as u32;
                        *s += 1;
                    }
                }
            }
        }
        return Grid {
            min,
            inv_cell: inv,
            nx,
            ny,
            start,
            items,
        };
    }
}

#[inline]
fn sub3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
#[inline]
fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
#[inline]
fn lerp3(a: [f64; 3], b: [f64; 3], t: f64) -> [f64; 3] {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// Closest point of a segment to `p` in 3-D, and its squared distance.
fn closest_on_segment(a: [f64; 3], b: [f64; 3], p: [f64; 3]) -> ([f64; 3], f64) {
    let ab = sub3(b, a);
    let l2 = dot3(ab, ab);
    let t = if l2 > 0.0 {
        (dot3(sub3(p, a), ab) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let q = lerp3(a, b, t);
    let d = sub3(p, q);
    (q, dot3(d, d))
}

/// Closest point of triangle `t` (non-degenerate in plan) to `p` in 3-D, and its squared
/// distance: the foot of the perpendicular when it falls inside, else the nearest edge point.
pub(crate) fn closest_on_triangle(t: &[[f64; 3]; 3], p: [f64; 3]) -> ([f64; 3], f64) {
    let [a, b, c] = *t;
    let ab = sub3(b, a);
    let ac = sub3(c, a);
    let n = [
        ab[1] * ac[2] - ab[2] * ac[1],
        ab[2] * ac[0] - ab[0] * ac[2],
        ab[0] * ac[1] - ab[1] * ac[0],
    ];
    let nn = dot3(n, n);
    if nn > 0.0 {
        let s = dot3(sub3(p, a), n) / nn;
        let q = [p[0] - n[0] * s, p[1] - n[1] * s, p[2] - n[2] * s];
        // Inside when q is on the inner side of every edge (same side as the normal).
        let inside = (0..3).all(|k| {
            let u = t[k];
            let v = t[(k + 1) % 3];
            let e = sub3(v, u);
            let w = sub3(q, u);
            let c = [
                e[1] * w[2] - e[2] * w[1],
                e[2] * w[0] - e[0] * w[2],
                e[0] * w[1] - e[1] * w[0],
            ];
            dot3(c, n) >= 0.0
        });
        if inside {
            let d = sub3(p, q);
            return (q, dot3(d, d));
        }
    }
    let mut best = closest_on_segment(a, b, p);
    for (u, v) in [(b, c), (c, a)] {
        let r = closest_on_segment(u, v, p);
        if r.1 < best.1 {
            best = r;
        }
    }
    best
}

/// Closest point of triangle `t` to `p` in plan (its height on the triangle), and the squared
/// plan distance.
fn closest_in_plan(t: &[[f64; 3]; 3], p: [f64; 2]) -> ([f64; 3], f64) {
    let flat = t.map(|v| [v[0], v[1], 0.0]);
    let (q, d2) = closest_on_triangle(&flat, [p[0], p[1], 0.0]);
    // Height at q by barycentric weights in plan.
    let [a, b, c] = t.map(|v| [v[0], v[1]]);
    let area = cross2(a, b, c);
    let z = if area != 0.0 {
        let qq = [q[0], q[1]];
        let wa = cross2(qq, b, c) / area;
        let wb = cross2(qq, c, a) / area;
        let wc = 1.0 - wa - wb;
        wa * t[0][2] + wb * t[1][2] + wc * t[2][2]
    } else {
        t[0][2]
    };
    ([q[0], q[1], z], d2)
}
