//! What the clearance computations derive once from a surface and its blockers: active
//! triangles, edges and their incident triangles, boundary edges, planes, tolerances, the
//! same-floor neighbourhoods, a uniform grid, and the blockers' plan footprints.

use crate::nav::union_find::root;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::{DVec2, Vec3};

use super::geom::{self, Aabb};
use super::{Blocker, ClearanceError};
use crate::derive::adjacency;
use crate::mesh::Mesh;
use crate::nav::surface::Surface;

/// The topology and per-triangle data of a surface.
pub(super) struct Topo {
    /// Triangle count (all of them, active or not).
    pub n: usize,
    /// Non-degenerate triangles: three distinct vertex indices and a plan height above the
    /// triangle's tolerance. Only these are ground.
    pub active: Vec<bool>,
    /// Vertex indices per triangle.
    pub idx: Vec<[u32; 3]>,
    /// Plan corners per triangle.
    pub plan: Vec<[DVec2; 3]>,
    /// Heights of the corners.
    pub z: Vec<[f64; 3]>,
    /// Counter-clockwise in plan (normal up).
    pub ccw: Vec<bool>,
    /// Plane gradient: `z(p) = z[0] + grad . (p - plan[0])`.
    pub grad: Vec<DVec2>,
    /// Plan boxes.
    pub bbox: Vec<Aabb>,
    /// Per-triangle length tolerance (welding, snapping): 4 f32 ulps of the largest plan
    /// coordinate plus 1e-9 of the triangle's size, raised to the largest of its neighbours
    /// across an edge (so it is at least the tolerance of each of its edges).
    pub eps: Vec<f64>,
    /// Edge id of each triangle side (`u32::MAX` for inactive triangles).
    pub edge_of: Vec<[u32; 3]>,
    /// Per edge: lower and higher vertex index.
    pub edge_ends: Vec<[u32; 2]>,
    /// Per edge: the largest tolerance of the triangles around it.
    pub edge_eps: Vec<f64>,
    /// Compressed rows: the sides `t * 3 + k` around each edge.
    edge_start: Vec<u32>,
    edge_sides: Vec<u32>,
    /// Boundary sides `t * 3 + k` (edges with one triangle), ascending.
    pub boundary: Vec<u32>,
    /// Plan bounds of the active ground.
    pub bounds: Aabb,
}

/// Reusable visit marks (no clearing between searches).
pub(super) struct Marks {
    stamp: Vec<u32>,
    generation: u32,
}

impl Marks {
    pub fn new(n: usize) -> Marks {
        Marks {
            stamp: vec![0; n],
            generation: 0,
        }
    }

    /// Starts a new search.
    pub fn next(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
    }

    /// Whether `i` is marked in this search.
    #[inline]
    pub fn is_marked(&self, i: usize) -> bool {
        self.stamp[i] == self.generation
    }

    /// Marks `i`; true when it was not marked in this search.
    #[inline]
    pub fn mark(&mut self, i: usize) -> bool {
        if self.stamp[i] == self.generation {
            false
        } else {
            self.stamp[i] = self.generation;
            true
        }
    }
}

/// The tolerance of a triangle: 4 f32 ulps at its largest coordinate plus 1e-9 of its size.
fn tolerance(p: &[DVec2; 3]) -> f64 {
    let m = p
        .iter()
        .fold(0.0f64, |m, v| m.max(v.x.abs()).max(v.y.abs()));
    let b = Aabb::of(p);
    let size = (b.max - b.min).max_element();
    4.0 * f64::from(f32::EPSILON) * m + 1e-9 * size + f64::MIN_POSITIVE
}

impl Topo {
    pub fn new(surface: &Surface) -> Result<Topo, ClearanceError> {
        surface.validate().map_err(ClearanceError::Surface)?;
        let n = surface.triangles.len();
        if n > (i32::MAX as usize) / 3 {
            return Err(ClearanceError::TooLarge {
                triangles: n,
                vertices: surface.vertices.len(),
            });
        }
        let mut plan = Vec::with_capacity(n);
        let mut z = Vec::with_capacity(n);
        let mut active = Vec::with_capacity(n);
        let mut ccw = Vec::with_capacity(n);
        let mut grad = Vec::with_capacity(n);
        let mut bbox = Vec::with_capacity(n);
        let mut eps = Vec::with_capacity(n);
        let mut bounds = Aabb::EMPTY;
        for t in &surface.triangles {
            let v = t.map(|i| surface.vertices[i as usize]);
            let p = v.map(|q| DVec2::new(f64::from(q.x), f64::from(q.y)));
            let h = v.map(|q| f64::from(q.z));
            let e = tolerance(&p);
            let o = geom::orient(p[0], p[1], p[2]);
            let longest = (0..3)
                .map(|k| (p[(k + 1) % 3] - p[k]).length())
                .fold(0.0f64, f64::max);
            let distinct = t[0] != t[1] && t[1] != t[2] && t[0] != t[2];
            let is_active = distinct && longest > 0.0 && o.abs() / longest > e;
            let g = if is_active {
                let (e1, e2) = (p[1] - p[0], p[2] - p[0]);
                let (d1, d2) = (h[1] - h[0], h[2] - h[0]);
                DVec2::new((d1 * e2.y - d2 * e1.y) / o, (d2 * e1.x - d1 * e2.x) / o)
            } else {
                DVec2::ZERO
            };
            let b = Aabb::of(&p);
            if is_active {
                bounds.add(b.min);
                bounds.add(b.max);
            }
            plan.push(p);
            z.push(h);
            active.push(is_active);
            ccw.push(o > 0.0);
            grad.push(if g.is_finite() { g } else { DVec2::ZERO });
            bbox.push(b);
            eps.push(e);
        }

        // Edges from the shared adjacency rule (same two vertex indices, either direction):
        // sides linked by it are one edge (a union over the links groups non-manifold fans).
        let ids: Vec<u32> = (0..n as u32).filter(|&t| active[t as usize]).collect();
        let mesh = Mesh {
            vertices: surface.vertices.iter().map(|v| v.to_array()).collect(),
            faces: ids.iter().map(|&t| surface.triangles[t as usize]).collect(),
            walkable: vec![true; ids.len()],
        };
        let adj = adjacency(&mesh, ids.len());
        let mut parent: Vec<u32> = (0..ids.len() as u32 * 3).collect();
        for (fi, a) in adj.iter().enumerate() {
            for (k, &o) in a.iter().enumerate() {
                if o >= 0 {
                    let (x, y) = (
                        root(&mut parent, (fi * 3 + k) as u32),
                        root(&mut parent, o as u32),
                    );
                    if x != y {
                        parent[x.max(y) as usize] = x.min(y);
                    }
                }
            }
        }
        let mut edge_of = vec![[u32::MAX; 3]; n];
        let mut root_id = vec![u32::MAX; ids.len() * 3];
        let mut edge_ends = Vec::new();
        let mut count = Vec::new();
        for (fi, &t) in ids.iter().enumerate() {
            let tri = surface.triangles[t as usize];
            for k in 0..3 {
                let r = root(&mut parent, (fi * 3 + k) as u32) as usize;
                if root_id[r] == u32::MAX {
                    root_id[r] = edge_ends.len() as u32;
                    let (a, b) = (tri[k], tri[(k + 1) % 3]);
                    edge_ends.push([a.min(b), a.max(b)]);
                    count.push(0u32);
                }
                let g = root_id[r];
                edge_of[t as usize][k] = g;
                count[g as usize] += 1;
            }
        }
        let ne = edge_ends.len();
        let mut edge_start = vec![0u32; ne + 1];
        for g in 0..ne {
            edge_start[g + 1] = edge_start[g] + count[g];
        }
        let mut fill = edge_start.clone();
        let mut edge_sides = vec![0u32; edge_start[ne] as usize];
        let mut edge_eps = vec![0.0f64; ne];
        for &t in &ids {
            for (k, &g) in edge_of[t as usize].iter().enumerate() {
                let g = g as usize;
                edge_sides[fill[g] as usize] = t * 3 + k as u32;
                fill[g] += 1;
                edge_eps[g] = edge_eps[g].max(eps[t as usize]);
            }
        }
        // A triangle works with the largest tolerance of its edges, so that the points it keeps
        // apart (more than its tolerance) are never merged by an edge's tolerance later.
        for &t in &ids {
            for &g in &edge_of[t as usize] {
                eps[t as usize] = eps[t as usize].max(edge_eps[g as usize]);
            }
        }
        let mut boundary = Vec::new();
        for g in 0..ne {
            if edge_start[g + 1] - edge_start[g] == 1 {
                boundary.push(edge_sides[edge_start[g] as usize]);
            }
        }
        boundary.sort_unstable();
        Ok(Topo {
            n,
            idx: surface.triangles.clone(),
            active,
            plan,
            z,
            ccw,
            grad,
            bbox,
            eps,
            edge_of,
            edge_ends,
            edge_eps,
            edge_start,
            edge_sides,
            boundary,
            bounds,
        })
    }

    /// The sides `t * 3 + k` around edge `g`.
    #[inline]
    pub fn sides(&self, g: u32) -> &[u32] {
        let g = g as usize;
        &self.edge_sides[self.edge_start[g] as usize..self.edge_start[g + 1] as usize]
    }

    /// Calls `f` with every neighbour of triangle `t` (triangles sharing an edge).
    #[inline]
    pub fn for_neighbours(&self, t: usize, mut f: impl FnMut(usize)) {
        for &g in &self.edge_of[t] {
            if g == u32::MAX {
                continue;
            }
            for &s in self.sides(g) {
                let u = (s / 3) as usize;
                if u != t {
                    f(u);
                }
            }
        }
    }

    /// Height of triangle `t`'s plane at plan point `p`.
    #[inline]
    pub fn height(&self, t: usize, p: DVec2) -> f64 {
        self.z[t][0] + self.grad[t].dot(p - self.plan[t][0])
    }

    /// Lowest and highest corner of triangle `t`.
    #[inline]
    pub fn z_range(&self, t: usize) -> (f64, f64) {
        let z = self.z[t];
        (z[0].min(z[1]).min(z[2]), z[0].max(z[1]).max(z[2]))
    }

    /// Plan distance between triangles `a` and `b` within `limit` (None beyond it).
    #[inline]
    pub fn tri_dist_within(&self, a: usize, b: usize, limit: f64) -> Option<f64> {
        let l2 = limit * limit;
        if self.bbox[a].dist2(&self.bbox[b]) > l2 {
            return None;
        }
        if self.idx[a].iter().any(|v| self.idx[b].contains(v)) {
            return Some(0.0);
        }
        let d2 = geom::tri_tri_dist2(&self.plan[a], &self.plan[b]);
        (d2 <= l2).then(|| d2.sqrt())
    }

    /// Whether triangles `a` and `b` lie within plan distance `limit`.
    #[inline]
    pub fn tri_within(&self, a: usize, b: usize, limit: f64) -> bool {
        let l2 = limit * limit;
        if self.bbox[a].dist2(&self.bbox[b]) > l2 {
            return false;
        }
        if self.idx[a].iter().any(|v| self.idx[b].contains(v)) {
            return true;
        }
        geom::tri_tri_within(&self.plan[a], &self.plan[b], l2)
    }

    /// The same-floor neighbourhood of `t`: the active triangles joined to `t` through
    /// neighbours that all lie within plan distance `limit` of `t` (breadth first).
    /// `t` first.
    pub fn neighbourhood(&self, t: usize, limit: f64, marks: &mut Marks, out: &mut Vec<u32>) {
        out.clear();
        marks.next();
        marks.mark(t);
        out.push(t as u32);
        let mut i = 0;
        while i < out.len() {
            let u = out[i] as usize;
            i += 1;
            self.for_neighbours(u, |w| {
                if marks.mark(w) && self.tri_within(w, t, limit) {
                    out.push(w as u32);
                }
            });
        }
    }

    /// [`Topo::neighbourhood`] with each triangle's activation: the smallest limit at which it
    /// joins (the least, over chains of neighbours from `t`, of the largest plan distance to
    /// `t` along the chain). Ascending activation; `t` first with 0.
    pub fn neighbourhood_ranked(
        &self,
        t: usize,
        limit: f64,
        marks: &mut Marks,
        out: &mut Vec<(u32, f64)>,
    ) {
        out.clear();
        marks.next();
        let mut heap = BinaryHeap::new();
        heap.push((Reverse(0u64), t as u32));
        // Marks are set when a triangle is settled; a triangle may be queued more than once.
        while let Some((Reverse(key), u)) = heap.pop() {
            if !marks.mark(u as usize) {
                continue;
            }
            let a = f64::from_bits(key);
            out.push((u, a));
            self.for_neighbours(u as usize, |w| {
                if let Some(d) = self.tri_dist_within(w, t, limit) {
                    // Non-negative f64 order equals their bit order.
                    heap.push((Reverse(a.max(d).to_bits()), w as u32));
                }
            });
            if out.len() > self.n {
                break;
            }
        }
    }
}

/// A uniform grid over boxes: item ids per cell; items covering many cells kept apart.
pub(super) struct Grid {
    min: DVec2,
    inv: f64,
    nx: usize,
    ny: usize,
    start: Vec<u32>,
    items: Vec<u32>,
    big: Vec<u32>,
}

/// Items covering more cells than this are checked on every query instead.
const BIG_ITEM_CELLS: usize = 256;

impl Grid {
    pub fn new(boxes: &[Aabb]) -> Grid {
        let mut bounds = Aabb::EMPTY;
        let mut count = 0usize;
        for b in boxes.iter().filter(|b| !b.is_empty()) {
            bounds.add(b.min);
            bounds.add(b.max);
            count += 1;
        }
        if count == 0 {
            return Grid {
                min: DVec2::ZERO,
                inv: 1.0,
                nx: 1,
                ny: 1,
                start: vec![0, 0],
                items: Vec::new(),
                big: Vec::new(),
            };
        }
        let ext = (bounds.max - bounds.min).max(DVec2::splat(f64::MIN_POSITIVE));
        // About one item per cell, at most 2^22 cells, at most 4096 per side.
        let cells = (count as f64).clamp(1.0, (1u32 << 22) as f64);
        let mut cell = (ext.x * ext.y / cells).sqrt();
        cell = cell.max(ext.x / 4096.0).max(ext.y / 4096.0);
        if !(cell > 0.0 && cell.is_finite()) {
            cell = ext.max_element().max(f64::MIN_POSITIVE);
        }
        let inv = 1.0 / cell;
        let nx = ((ext.x * inv).ceil() as usize).clamp(1, 4096);
        let ny = ((ext.y * inv).ceil() as usize).clamp(1, 4096);
        let mut g = Grid {
            min: bounds.min,
            inv: if inv.is_finite() { inv } else { 1.0 },
            nx,
            ny,
            start: vec![0; nx * ny + 1],
            items: Vec::new(),
            big: Vec::new(),
        };
        let mut spans = Vec::with_capacity(boxes.len());
        for (i, b) in boxes.iter().enumerate() {
            if b.is_empty() {
                spans.push(None);
                continue;
            }
            let (x0, y0, x1, y1) = g.range(b);
            if (x1 - x0 + 1) * (y1 - y0 + 1) > BIG_ITEM_CELLS {
                g.big.push(i as u32);
                spans.push(None);
            } else {
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        g.start[y * nx + x + 1] += 1;
                    }
                }
                spans.push(Some((x0, y0, x1, y1)));
            }
        }
        for c in 0..nx * ny {
            g.start[c + 1] += g.start[c];
        }
        let mut fill = g.start.clone();
        g.items = vec![0; g.start[nx * ny] as usize];
        for (i, s) in spans.iter().enumerate() {
            if let Some((x0, y0, x1, y1)) = *s {
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        let c = y * nx + x;
                        g.items[fill[c] as usize] = i as u32;
                        fill[c] += 1;
                    }
                }
            }
        }
        g
    }

    fn cell(&self, v: f64, n: usize) -> usize {
        let c = (v * self.inv).floor();
        if c <= 0.0 {
            0
        } else if c >= (n - 1) as f64 {
            n - 1
        } else {
            c as usize
        }
    }

    fn range(&self, b: &Aabb) -> (usize, usize, usize, usize) {
        let lo = b.min - self.min;
        let hi = b.max - self.min;
        (
            self.cell(lo.x, self.nx),
            self.cell(lo.y, self.ny),
            self.cell(hi.x, self.nx),
            self.cell(hi.y, self.ny),
        )
    }

    /// Items whose cells meet box `b` (a superset of the items whose boxes meet it), each
    /// once, in no particular order.
    pub fn query(&self, b: &Aabb, marks: &mut Marks, out: &mut Vec<u32>) {
        out.clear();
        marks.next();
        for &i in &self.big {
            if marks.mark(i as usize) {
                out.push(i);
            }
        }
        if self.items.is_empty() {
            return;
        }
        let (x0, y0, x1, y1) = self.range(b);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let c = y * self.nx + x;
                for &i in &self.items[self.start[c] as usize..self.start[c + 1] as usize] {
                    if marks.mark(i as usize) {
                        out.push(i);
                    }
                }
            }
        }
    }
}

/// The blockers reduced to convex plan footprints with their vertical spans.
pub(super) struct Footprints {
    /// Polygon corners (counter-clockwise; 1 or 2 points for point and segment footprints).
    pub points: Vec<DVec2>,
    /// Per polygon: range in `points` and the blocker index.
    pub polys: Vec<(u32, u32, u32)>,
    /// Per blocker: lowest and highest z of its triangles.
    pub spans: Vec<(f64, f64)>,
}

/// Footprints of a blocker with more triangles than this are not merged (only deduplicated
/// up to [`DEDUP_LIMIT`]): the pairwise merging is quadratic.
const MERGE_LIMIT: usize = 64;
/// See [`MERGE_LIMIT`].
const DEDUP_LIMIT: usize = 512;

impl Footprints {
    pub fn new(blockers: &[Blocker]) -> Result<Footprints, ClearanceError> {
        let mut fp = Footprints {
            points: Vec::new(),
            polys: Vec::new(),
            spans: Vec::with_capacity(blockers.len()),
        };
        let mut polys: Vec<Vec<DVec2>> = Vec::new();
        let mut scratch = Vec::new();
        for (bi, b) in blockers.iter().enumerate() {
            let mut lo = f64::INFINITY;
            let mut hi = f64::NEG_INFINITY;
            polys.clear();
            for (ti, t) in b.triangles.iter().enumerate() {
                if !t.iter().all(|v: &Vec3| v.is_finite()) {
                    return Err(ClearanceError::Blocker {
                        blocker: bi,
                        triangle: ti,
                    });
                }
                let mut pts: Vec<DVec2> = t
                    .iter()
                    .map(|v| DVec2::new(f64::from(v.x), f64::from(v.y)))
                    .collect();
                for v in t {
                    lo = lo.min(f64::from(v.z));
                    hi = hi.max(f64::from(v.z));
                }
                let mut h = Vec::with_capacity(3);
                geom::hull(&mut pts, &mut h);
                polys.push(h);
            }
            if polys.len() <= DEDUP_LIMIT {
                let merge = polys.len() <= MERGE_LIMIT;
                simplify(&mut polys, merge, &mut scratch);
            }
            for p in &polys {
                let s = fp.points.len() as u32;
                fp.points.extend_from_slice(p);
                fp.polys.push((s, fp.points.len() as u32, bi as u32));
            }
            fp.spans.push((lo, hi));
        }
        Ok(fp)
    }

    #[inline]
    pub fn poly(&self, i: usize) -> &[DVec2] {
        let (s, e, _) = self.polys[i];
        &self.points[s as usize..e as usize]
    }
}

/// Drops footprints covered by another and (when `merge`) merges pairs whose union is
/// convex (their hull adds no area), so a box-shaped object becomes one polygon.
fn simplify(polys: &mut Vec<Vec<DVec2>>, merge: bool, scratch: &mut Vec<DVec2>) {
    let size = polys.iter().flatten().fold(Aabb::EMPTY, |mut b, &p| {
        b.add(p);
        b
    });
    if size.is_empty() {
        return;
    }
    let ext = (size.max - size.min).max_element();
    let m = size.min.abs().max(size.max.abs()).max_element();
    let eps = 4.0 * f64::from(f32::EPSILON) * m + 1e-9 * ext;
    let e2 = eps * eps;
    let covered = |inner: &[DVec2], outer: &[DVec2]| match outer.len() {
        0 => false,
        1 => inner.iter().all(|&p| (p - outer[0]).length_squared() <= e2),
        2 => inner
            .iter()
            .all(|&p| geom::seg_dist2(p, outer[0], outer[1]) <= e2),
        _ => inner.iter().all(|&p| geom::poly_dist2(p, outer) <= e2),
    };
    let perimeter = |p: &[DVec2]| -> f64 {
        (0..p.len())
            .map(|i| (p[(i + 1) % p.len()] - p[i]).length())
            .sum()
    };
    // Larger polygons first, so covered ones come after what covers them.
    polys.sort_by(|a, b| {
        geom::area(b)
            .total_cmp(&geom::area(a))
            .then(perimeter(b).total_cmp(&perimeter(a)))
    });
    let mut kept: Vec<Vec<DVec2>> = Vec::with_capacity(polys.len());
    for p in polys.drain(..) {
        if !kept.iter().any(|k| covered(&p, k)) {
            kept.push(p);
        }
    }
    if merge {
        let mut inter = Vec::new();
        let mut tmp = Vec::new();
        let mut changed = true;
        while changed {
            changed = false;
            'outer: for i in 0..kept.len() {
                for j in i + 1..kept.len() {
                    if kept[i].len() < 3 || kept[j].len() < 3 {
                        continue;
                    }
                    scratch.clear();
                    scratch.extend_from_slice(&kept[i]);
                    scratch.extend_from_slice(&kept[j]);
                    let mut h = Vec::new();
                    geom::hull(scratch, &mut h);
                    // Area of the intersection by clipping i against j's edge lines.
                    inter.clear();
                    inter.extend_from_slice(&kept[i]);
                    let q = &kept[j];
                    for e in 0..q.len() {
                        if let Some(nrm) = geom::outward(q[e], q[(e + 1) % q.len()]) {
                            geom::clip_keep_inside(&inter, q[e], nrm, 0.0, &mut tmp);
                            std::mem::swap(&mut inter, &mut tmp);
                        }
                    }
                    let union = geom::area(&kept[i]) + geom::area(&kept[j]) - geom::area(&inter);
                    if geom::area(&h) <= union + eps * ext {
                        kept[i] = h;
                        kept.swap_remove(j);
                        changed = true;
                        break 'outer;
                    }
                }
            }
        }
    }
    *polys = kept;
}
