//! A compact bounding volume hierarchy over occluder triangles, for segment queries: whether
//! anything blocks a segment (any hit), and how far a ray goes before it meets a triangle.
//!
//! Built by the surface area heuristic (binned) down to a depth of [`SAH_MAX_DEPTH`], then by the
//! median on the longest axis of the centroids' box (leaves of up to [`LEAF_SIZE`] triangles),
//! so its depth is at most [`SAH_MAX_DEPTH`] + ⌈log2 n⌉ + 1 and a fixed stack suffices.
//! Triangles are double-sided. Each triangle may carry a margin along its *boundary* edges (edges
//! no other occluder triangle shares): a segment passing within the margin of such an edge is
//! not blocked by that triangle. Openings are thereby widened a little (see `docs/vis.md`), while
//! seams between the triangles of one wall stay closed.

use glam::Vec3;

/// Triangles per leaf at most.
pub const LEAF_SIZE: usize = 4;

/// One occluder triangle, ready for intersection.
#[derive(Debug, Clone, Copy)]
pub struct Tri {
    v0: Vec3,
    e1: Vec3,
    e2: Vec3,
    /// Per barycentric coordinate (of v0, v1, v2): the least value that still blocks (the
    /// margin divided by the altitude onto the opposite edge, 0 for a shared edge).
    min_bary: [f32; 3],
    /// Triangles of one group are the same face (repeated, in either winding).
    pub group: u32,
}

impl Tri {
    /// A triangle with no margin.
    pub fn new(c: [Vec3; 3]) -> Tri {
        Tri {
            v0: c[0],
            e1: c[1] - c[0],
            e2: c[2] - c[0],
            min_bary: [0.0; 3],
            group: u32::MAX,
        }
    }

    /// The triangle with `margin` (metres) along each edge `boundary` marks: edge `k` joins
    /// corners `k` and `k + 1` (mod 3) and lies opposite corner `k + 2`.
    pub fn with_margin(c: [Vec3; 3], boundary: [bool; 3], margin: f32) -> Tri {
        let mut t = Tri::new(c);
        let area2 = t.e1.cross(t.e2).length();
        if area2 > 0.0 && margin > 0.0 {
            for k in 0..3 {
                if boundary[k] {
                    let (a, b) = (c[k], c[(k + 1) % 3]);
                    let len = (b - a).length();
                    // Altitude onto edge k: twice the area over the edge's length.
                    let h = area2 / len.max(f32::MIN_POSITIVE);
                    t.min_bary[(k + 2) % 3] = (margin / h).min(2.0);
                }
            }
        }
        t
    }

    /// The segment `o + s·d` (s in `(lo, hi)`) meets the triangle (inside its margins) at
    /// `Some(s)`.
    #[inline]
    fn hit(&self, o: Vec3, d: Vec3, lo: f32, hi: f32) -> Option<f32> {
        let p = d.cross(self.e2);
        let det = self.e1.dot(p);
        if det.abs() < 1e-12 {
            return None;
        }
        let inv = 1.0 / det;
        let s = o - self.v0;
        let u = s.dot(p) * inv;
        if u < self.min_bary[1] || u > 1.0 {
            return None;
        }
        let q = s.cross(self.e1);
        let v = d.dot(q) * inv;
        if v < self.min_bary[2] || u + v > 1.0 - self.min_bary[0] {
            return None;
        }
        let t = self.e2.dot(q) * inv;
        (t > lo && t < hi).then_some(t)
    }

    fn bounds(&self) -> (Vec3, Vec3) {
        let (a, b, c) = (self.v0, self.v0 + self.e1, self.v0 + self.e2);
        (a.min(b).min(c), a.max(b).max(c))
    }
}

#[derive(Debug, Clone, Copy)]
struct Node {
    min: Vec3,
    max: Vec3,
    /// A leaf: its first triangle; an inner node: its right child (the left child follows it).
    index: u32,
    /// Triangles of a leaf; 0 for an inner node.
    count: u32,
    /// The split axis of an inner node (the child nearer along it is visited first).
    axis: u32,
}

/// The hierarchy: nodes in pre-order, triangles in leaf order.
#[derive(Debug, Clone, Default)]
pub struct Bvh {
    nodes: Vec<Node>,
    tris: Vec<Tri>,
}

/// Stack depth of a traversal: enough for any tree [`Bvh::build`] makes (depth ≤ log2 n + 2).
const STACK: usize = 64;

impl Bvh {
    /// Builds the hierarchy over `tris` (triangles with a non-finite corner are left out).
    pub fn build(tris: Vec<Tri>) -> Bvh {
        let tris: Vec<Tri> = tris
            .into_iter()
            .filter(|t| {
                let (lo, hi) = t.bounds();
                lo.is_finite() && hi.is_finite()
            })
            .collect();
        let mut items: Vec<(Vec3, u32)> = tris
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let (lo, hi) = t.bounds();
                ((lo + hi) * 0.5, i as u32)
            })
            .collect();
        let mut bvh = Bvh {
            nodes: Vec::with_capacity(2 * items.len() / LEAF_SIZE + 1),
            tris: Vec::with_capacity(tris.len()),
        };
        if !items.is_empty() {
            bvh.split(&tris, &mut items, 0);
        }
        bvh
    }

    /// Appends the subtree over `items` (pre-order) and returns its node's index.
    fn split(&mut self, tris: &[Tri], items: &mut [(Vec3, u32)], depth: usize) -> usize {
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        let (mut clo, mut chi) = (lo, hi);
        for &(c, i) in items.iter() {
            let (a, b) = tris[i as usize].bounds();
            lo = lo.min(a);
            hi = hi.max(b);
            clo = clo.min(c);
            chi = chi.max(c);
        }
        let at = self.nodes.len();
        self.nodes.push(Node {
            min: lo,
            max: hi,
            index: 0,
            count: 0,
            axis: 0,
        });
        let ext = chi - clo;
        if items.len() <= LEAF_SIZE || ext.max_element() <= 0.0 {
            self.nodes[at].index = self.tris.len() as u32;
            self.nodes[at].count = items.len() as u32;
            self.tris
                .extend(items.iter().map(|&(_, i)| tris[i as usize]));
            return at;
        }
        let (axis, mid) = match sah_split(tris, items, clo, chi, depth) {
            Some(split) => split,
            None => {
                // The median on the longest axis: balanced, so the depth stays bounded.
                let axis = if ext.x >= ext.y && ext.x >= ext.z {
                    0
                } else if ext.y >= ext.z {
                    1
                } else {
                    2
                };
                let mid = items.len() / 2;
                items.select_nth_unstable_by(mid, |a, b| a.0[axis].total_cmp(&b.0[axis]));
                (axis, mid)
            }
        };
        let (left, right) = items.split_at_mut(mid);
        self.split(tris, left, depth + 1);
        let r = self.split(tris, right, depth + 1);
        self.nodes[at].index = r as u32;
        self.nodes[at].axis = axis as u32;
        at
    }

    /// Triangles in the hierarchy.
    pub fn len(&self) -> usize {
        self.tris.len()
    }

    /// Whether it holds no triangle.
    pub fn is_empty(&self) -> bool {
        self.tris.is_empty()
    }

    /// Whether a triangle meets the open segment from `a` to `b` (its ends excluded).
    pub fn blocked(&self, a: Vec3, b: Vec3) -> bool {
        let d = b - a;
        self.walk(a, d, 1.0, |_, _| None).is_some()
    }

    /// How far along `d` (in units of `d`, up to `max`) the ray from `o` first meets a
    /// triangle.
    pub fn first_hit(&self, o: Vec3, d: Vec3, max: f32) -> Option<f32> {
        self.first_hit_triangle(o, d, max).map(|h| h.0)
    }

    /// The group of triangle `i` (its index in the hierarchy); `u32::MAX` for none.
    pub fn group(&self, i: u32) -> u32 {
        self.tris.get(i as usize).map_or(u32::MAX, |t| t.group)
    }

    /// [`Bvh::first_hit`] with the triangle hit (its index in the hierarchy).
    pub fn first_hit_triangle(&self, o: Vec3, d: Vec3, max: f32) -> Option<(f32, u32)> {
        let mut best = None;
        self.walk(o, d, max, |t, i| {
            best = Some((t, i));
            // Only nearer hits are wanted from now on.
            Some(t)
        });
        best
    }

    /// Whether the plane of triangle `i` has `a` and `b` strictly on opposite sides.
    pub fn separates(&self, i: u32, a: Vec3, b: Vec3) -> bool {
        let Some(t) = self.tris.get(i as usize) else {
            return false;
        };
        let n = t.e1.cross(t.e2);
        let (sa, sb) = (n.dot(a - t.v0), n.dot(b - t.v0));
        (sa > 0.0 && sb < 0.0) || (sa < 0.0 && sb > 0.0)
    }

    /// Visits the triangles hit on `o + s·d`, s in (0, max): `seen` is told of each hit (its
    /// `s` and triangle) and answers the new `max` to go on with, or `None` to stop there (the
    /// hit that stopped the walk is returned).
    #[inline]
    fn walk(
        &self,
        o: Vec3,
        d: Vec3,
        mut max: f32,
        mut seen: impl FnMut(f32, u32) -> Option<f32>,
    ) -> Option<f32> {
        if self.nodes.is_empty() {
            return None;
        }
        let inv = d.recip();
        let mut stack = [0u32; STACK];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let at = stack[top];
            let n = self.nodes[at as usize];
            if !slab(n.min, n.max, o, inv, max) {
                continue;
            }
            if n.count > 0 {
                let first = n.index as usize;
                for (k, t) in self.tris[first..first + n.count as usize]
                    .iter()
                    .enumerate()
                {
                    if let Some(s) = t.hit(o, d, 0.0, max) {
                        match seen(s, (first + k) as u32) {
                            Some(m) => max = m,
                            None => return Some(s),
                        }
                    }
                }
            } else if top + 2 <= STACK {
                // The left child (lower along the axis) follows its parent in pre-order; the
                // child nearer the ray's origin is visited first.
                let (near, far) = if d[n.axis as usize] >= 0.0 {
                    (at + 1, n.index)
                } else {
                    (n.index, at + 1)
                };
                stack[top] = far;
                stack[top + 1] = near;
                top += 2;
            }
        }
        None
    }
}

/// Bins of the surface area heuristic.
const SAH_BINS: usize = 16;

/// Below this depth splits follow the surface area heuristic; deeper ones the median, so a tree
/// is never deeper than this plus ⌈log2 n⌉ and the traversal stack always suffices.
const SAH_MAX_DEPTH: usize = 24;

/// The surface area heuristic's split of `items` (centroid box `clo`..`chi`) over
/// [`SAH_BINS`] bins per axis: the plane with the least `area(left)·n(left) + area(right)·n(right)`;
/// the items are partitioned around it. Walls and floors of rooms are large and flat, so this
/// keeps far fewer overlapping boxes on a segment's way than the median. `None` (the caller
/// takes the median) when too deep, or when no plane separates the items.
fn sah_split(
    tris: &[Tri],
    items: &mut [(Vec3, u32)],
    clo: Vec3,
    chi: Vec3,
    depth: usize,
) -> Option<(usize, usize)> {
    if depth >= SAH_MAX_DEPTH {
        return None;
    }
    let half_area = |lo: Vec3, hi: Vec3| {
        let e = (hi - lo).max(Vec3::ZERO);
        e.x * e.y + e.y * e.z + e.z * e.x
    };
    let mut best: Option<(f32, usize, usize)> = None;
    for axis in 0..3 {
        let (c0, c1) = (clo[axis], chi[axis]);
        if c1 <= c0 {
            continue;
        }
        let scale = SAH_BINS as f32 / (c1 - c0);
        let bin = |c: f32| (((c - c0) * scale) as usize).min(SAH_BINS - 1);
        let mut counts = [0usize; SAH_BINS];
        let mut lo = [Vec3::splat(f32::INFINITY); SAH_BINS];
        let mut hi = [Vec3::splat(f32::NEG_INFINITY); SAH_BINS];
        for &(c, i) in items.iter() {
            let b = bin(c[axis]);
            let (a, z) = tris[i as usize].bounds();
            counts[b] += 1;
            lo[b] = lo[b].min(a);
            hi[b] = hi[b].max(z);
        }
        // Right-hand sweeps, then the left-hand one evaluates each plane.
        let mut right_cost = [0.0f32; SAH_BINS];
        let (mut rlo, mut rhi, mut rn) = (
            Vec3::splat(f32::INFINITY),
            Vec3::splat(f32::NEG_INFINITY),
            0,
        );
        for b in (1..SAH_BINS).rev() {
            rlo = rlo.min(lo[b]);
            rhi = rhi.max(hi[b]);
            rn += counts[b];
            right_cost[b] = half_area(rlo, rhi) * rn as f32;
        }
        let (mut llo, mut lhi, mut ln) = (
            Vec3::splat(f32::INFINITY),
            Vec3::splat(f32::NEG_INFINITY),
            0,
        );
        for b in 0..SAH_BINS - 1 {
            llo = llo.min(lo[b]);
            lhi = lhi.max(hi[b]);
            ln += counts[b];
            if ln == 0 || ln == items.len() {
                continue;
            }
            let cost = half_area(llo, lhi) * ln as f32 + right_cost[b + 1];
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, axis, b));
            }
        }
    }
    let (_, axis, b) = best?;
    let (c0, c1) = (clo[axis], chi[axis]);
    let scale = SAH_BINS as f32 / (c1 - c0);
    let bin = |c: f32| (((c - c0) * scale) as usize).min(SAH_BINS - 1);
    let mut mid = 0;
    for k in 0..items.len() {
        if bin(items[k].0[axis]) <= b {
            items.swap(k, mid);
            mid += 1;
        }
    }
    (mid > 0 && mid < items.len()).then_some((axis, mid))
}

/// Whether the ray `o + s·d` (`inv` = 1/d) meets the box for some s in [0, max].
#[inline]
fn slab(min: Vec3, max_b: Vec3, o: Vec3, inv: Vec3, max: f32) -> bool {
    let t1 = (min - o) * inv;
    let t2 = (max_b - o) * inv;
    let near = t1.min(t2);
    let far = t1.max(t2);
    // NaN (a zero direction component on a face of the box) falls through min/max.
    let enter = near.x.max(near.y).max(near.z).max(0.0);
    let exit = far.x.min(far.y).min(far.z).min(max);
    enter <= exit
}
