//! Queries on a walkmesh: the face (and height) at a point seen from above, the nearest
//! walkable point, ray casts; and the same over an area of several rooms.
//!
//! Every query has a tree-accelerated form on [`Locator`] and a brute-force form in
//! [`brute`]; both apply the same per-face tests and the same tie rules, so they give the
//! same answers (the tests check this on the corpus).
//!
//! Rules:
//! - a face contains `(x, y)` when the point lies in its box and on the inner side of (or on)
//!   all three edges seen from above; vertical faces contain no point;
//! - [`Locator::face_at`]: walkable faces win over non-walkable ones; then, with a height hint
//!   `z`, the face whose height at the point is nearest to `z` (a NaN hint is no nearer to one
//!   face than another), without a hint the highest; remaining ties go to the lowest face
//!   index;
//! - [`Locator::height_at`]: the same over walkable faces only;
//! - rays hit both sides of a face; the nearest hit wins, ties to the lowest face index.

use crate::aabb;
use crate::mesh::{AabbNode, Mesh};

mod flat;
mod grid;

/// A face found at a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointHit {
    /// The face index.
    pub face: u32,
    /// The height of the face at the point.
    pub z: f32,
    /// Whether the face is walkable.
    pub walkable: bool,
}

/// A ray hit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit {
    /// The face index.
    pub face: u32,
    /// Distance from the origin along the (normalised) direction.
    pub distance: f32,
    /// The hit point.
    pub point: [f32; 3],
}

/// The nearest walkable point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearestHit {
    /// The face index.
    pub face: u32,
    /// The closest point on it.
    pub point: [f32; 3],
    /// Distance to the query point.
    pub distance: f32,
}

/// Which faces a query considers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FaceFilter {
    /// Every face.
    #[default]
    All,
    /// Walkable faces only.
    Walkable,
}

impl FaceFilter {
    #[inline]
    fn accepts(self, mesh: &Mesh, f: usize) -> bool {
        match self {
            FaceFilter::All => true,
            FaceFilter::Walkable => mesh.walkable[f],
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Per-face tests (shared by tree and brute force)
// ---------------------------------------------------------------------------------------------

/// The height of face `f` at `(x, y)` if it contains the point seen from above.
#[inline]
pub fn face_height_at(mesh: &Mesh, f: usize, x: f32, y: f32) -> Option<f32> {
    tri_height_at(&mesh.tri(f), x, y)
}

/// The height of triangle `t` at `(x, y)` if it contains the point seen from above.
#[inline]
pub fn tri_height_at(t: &[[f32; 3]; 3], x: f32, y: f32) -> Option<f32> {
    tri_height_at_f64(t, x, y).map(|h| h as f32)
}

/// [`tri_height_at`] before the height is rounded to `f32`: heights of nearly coplanar
/// triangles that round to the same `f32` still compare.
#[inline]
pub(crate) fn tri_height_at_f64(t: &[[f32; 3]; 3], x: f32, y: f32) -> Option<f64> {
    let minx = t[0][0].min(t[1][0]).min(t[2][0]);
    let maxx = t[0][0].max(t[1][0]).max(t[2][0]);
    let miny = t[0][1].min(t[1][1]).min(t[2][1]);
    let maxy = t[0][1].max(t[1][1]).max(t[2][1]);
    if x < minx || x > maxx || y < miny || y > maxy {
        return None;
    }
    let (px, py) = (f64::from(x), f64::from(y));
    let a = [f64::from(t[0][0]), f64::from(t[0][1]), f64::from(t[0][2])];
    let b = [f64::from(t[1][0]), f64::from(t[1][1]), f64::from(t[1][2])];
    let c = [f64::from(t[2][0]), f64::from(t[2][1]), f64::from(t[2][2])];
    let area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    if area == 0.0 {
        return None;
    }
    // Barycentric weights (signed areas of the sub-triangles).
    let wa = (b[0] - px) * (c[1] - py) - (b[1] - py) * (c[0] - px);
    let wb = (c[0] - px) * (a[1] - py) - (c[1] - py) * (a[0] - px);
    let wc = (a[0] - px) * (b[1] - py) - (a[1] - py) * (b[0] - px);
    let inside = if area > 0.0 {
        wa >= 0.0 && wb >= 0.0 && wc >= 0.0
    } else {
        wa <= 0.0 && wb <= 0.0 && wc <= 0.0
    };
    if !inside {
        return None;
    }
    Some((wa * a[2] + wb * b[2] + wc * c[2]) / area)
}

/// Preference of a candidate for `face_at`: smaller is better.
#[inline]
fn point_key(walkable: bool, z: f32, hint: Option<f32>, face: u32) -> (u8, f32, u32) {
    let score = match hint {
        Some(h) => (z - h).abs(),
        None => -z,
    };
    // A NaN hint scores every face alike: the lowest index wins, whatever the visit order.
    let score = if score.is_nan() { f32::INFINITY } else { score };
    (u8::from(!walkable), score, face)
}

#[inline]
fn better(a: (u8, f32, u32), b: (u8, f32, u32)) -> bool {
    // `a` strictly better than `b`.
    a.0 < b.0 || (a.0 == b.0 && (a.1 < b.1 || (a.1 == b.1 && a.2 < b.2)))
}

/// Ray / triangle (Möller–Trumbore, double-sided, in double precision): the parameter `t >= 0`
/// along the normalised direction.
#[inline]
fn ray_triangle(mesh: &Mesh, f: usize, o: [f64; 3], d: [f64; 3]) -> Option<f64> {
    ray_tri(&mesh.tri(f), o, d)
}

#[inline]
fn ray_tri(t: &[[f32; 3]; 3], o: [f64; 3], d: [f64; 3]) -> Option<f64> {
    let v0 = t[0].map(f64::from);
    let e1 = sub(t[1].map(f64::from), v0);
    let e2 = sub(t[2].map(f64::from), v0);
    let p = cross(d, e2);
    let det = dot(e1, p);
    if det == 0.0 {
        return None;
    }
    let inv = 1.0 / det;
    let s = sub(o, v0);
    let u = dot(s, p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = cross(s, e1);
    let v = dot(d, q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let tt = dot(e2, q) * inv;
    (tt >= 0.0 && in_hit_box(&hit_box(t), o, d, tt)).then_some(tt)
}

/// The relative margin of the trees' slab boxes ([`widened`]).
pub(crate) const SLAB_MARGIN: f64 = 1e-5;

/// A box with each side moved out by `margin * (1 + max(|min|, |max|))` on its axis, in double
/// precision.
#[inline]
pub(crate) fn widened(min: [f32; 3], max: [f32; 3], margin: f64) -> [[f64; 3]; 2] {
    let mut lo = [0.0; 3];
    let mut hi = [0.0; 3];
    for k in 0..3 {
        let pad = margin * (1.0 + f64::from(min[k].abs().max(max[k].abs())));
        lo[k] = f64::from(min[k]) - pad;
        hi[k] = f64::from(max[k]) + pad;
    }
    [lo, hi]
}

/// The box a ray's hit on a triangle must lie in: the corners' box [`widened`] by half the
/// margin of the trees' slab boxes.
///
/// A ray nearly parallel to a face makes the determinant tiny, and the computed "hit" can land
/// far outside the face; such hits are rejected. An accepted hit lies well inside the slab box
/// of every tree node above its face (each contains the face's box, with a larger margin), so
/// no traversal order or pruning can miss it: the tree answers exactly as brute force does
/// (while coordinates stay within ±1e6, where double-precision slab tests err by far less than
/// that margin).
pub(crate) fn hit_box(t: &[[f32; 3]; 3]) -> [[f64; 3]; 2] {
    let (min, max) = aabb::tri_box(t);
    widened(min, max, SLAB_MARGIN / 2.0)
}

/// Whether the point at `t` along the ray lies in `b` (a NaN coordinate does not).
#[inline]
pub(crate) fn in_hit_box(b: &[[f64; 3]; 2], o: [f64; 3], d: [f64; 3], t: f64) -> bool {
    (0..3).all(|k| {
        let p = o[k] + d[k] * t;
        p >= b[0][k] && p <= b[1][k]
    })
}

/// Closest point on triangle `f` to `p` (Ericson, in double precision) and its squared distance.
fn closest_on_triangle(mesh: &Mesh, f: usize, p: [f64; 3]) -> ([f64; 3], f64) {
    let t = mesh.tri(f);
    let a = t[0].map(f64::from);
    let b = t[1].map(f64::from);
    let c = t[2].map(f64::from);
    let ab = sub(b, a);
    let ac = sub(c, a);
    let ap = sub(p, a);
    let d1 = dot(ab, ap);
    let d2 = dot(ac, ap);
    let q = if d1 <= 0.0 && d2 <= 0.0 {
        a
    } else {
        let bp = sub(p, b);
        let d3 = dot(ab, bp);
        let d4 = dot(ac, bp);
        if d3 >= 0.0 && d4 <= d3 {
            b
        } else {
            let vc = d1 * d4 - d3 * d2;
            if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
                let v = d1 / (d1 - d3);
                add(a, scale(ab, v))
            } else {
                let cp = sub(p, c);
                let d5 = dot(ab, cp);
                let d6 = dot(ac, cp);
                if d6 >= 0.0 && d5 <= d6 {
                    c
                } else {
                    let vb = d5 * d2 - d1 * d6;
                    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
                        let w = d2 / (d2 - d6);
                        add(a, scale(ac, w))
                    } else {
                        let va = d3 * d6 - d5 * d4;
                        if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
                            let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
                            add(b, scale(sub(c, b), w))
                        } else {
                            let denom = va + vb + vc;
                            if denom == 0.0 || !denom.is_finite() {
                                // Degenerate triangle: nearest of its corners.
                                let mut best = (a, dot(ap, ap));
                                for v in [b, c] {
                                    let dv = sub(p, v);
                                    let d = dot(dv, dv);
                                    if d < best.1 {
                                        best = (v, d);
                                    }
                                }
                                best.0
                            } else {
                                let v = vb / denom;
                                let w = vc / denom;
                                add(a, add(scale(ab, v), scale(ac, w)))
                            }
                        }
                    }
                }
            }
        }
    };
    let dq = sub(p, q);
    (q, dot(dq, dq))
}

#[inline]
fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
#[inline]
fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
#[inline]
fn scale(a: [f64; 3], s: f64) -> [f64; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}
#[inline]
fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
#[inline]
fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalise(d: [f32; 3]) -> Option<[f64; 3]> {
    let d = d.map(f64::from);
    let len = dot(d, d).sqrt();
    (len > 0.0 && len.is_finite()).then(|| scale(d, 1.0 / len))
}

// ---------------------------------------------------------------------------------------------
// Brute force
// ---------------------------------------------------------------------------------------------

/// Brute-force versions of the queries: every face is tested. The reference for the tree.
pub mod brute {
    use super::*;

    /// Every face (passing `filter`) containing `(x, y)`, with its height there.
    pub fn faces_at(mesh: &Mesh, x: f32, y: f32, filter: FaceFilter) -> Vec<(u32, f32)> {
        (0..mesh.faces.len())
            .filter(|&f| filter.accepts(mesh, f))
            .filter_map(|f| face_height_at(mesh, f, x, y).map(|z| (f as u32, z)))
            .collect()
    }

    /// See [`Locator::face_at`].
    pub fn face_at(
        mesh: &Mesh,
        x: f32,
        y: f32,
        hint: Option<f32>,
        filter: FaceFilter,
    ) -> Option<PointHit> {
        let mut best: Option<((u8, f32, u32), PointHit)> = None;
        for f in 0..mesh.faces.len() {
            if !filter.accepts(mesh, f) {
                continue;
            }
            if let Some(z) = face_height_at(mesh, f, x, y) {
                let w = mesh.walkable[f];
                let k = point_key(w, z, hint, f as u32);
                if best.as_ref().is_none_or(|(bk, _)| better(k, *bk)) {
                    best = Some((
                        k,
                        PointHit {
                            face: f as u32,
                            z,
                            walkable: w,
                        },
                    ));
                }
            }
        }
        best.map(|b| b.1)
    }

    /// See [`Locator::ray`].
    pub fn ray(mesh: &Mesh, origin: [f32; 3], dir: [f32; 3], filter: FaceFilter) -> Option<RayHit> {
        let d = normalise(dir)?;
        let o = origin.map(f64::from);
        let mut best: Option<(f64, u32)> = None;
        for f in 0..mesh.faces.len() {
            if !filter.accepts(mesh, f) {
                continue;
            }
            if let Some(t) = ray_triangle(mesh, f, o, d)
                && best.is_none_or(|(bt, _)| t < bt)
            {
                best = Some((t, f as u32));
            }
        }
        best.map(|(t, f)| ray_hit(o, d, t, f))
    }

    /// See [`Locator::nearest_walkable`].
    pub fn nearest_walkable(mesh: &Mesh, p: [f32; 3]) -> Option<NearestHit> {
        let pp = p.map(f64::from);
        let mut best: Option<(f64, u32, [f64; 3])> = None;
        for f in 0..mesh.faces.len() {
            if !mesh.walkable[f] {
                continue;
            }
            let (q, d2) = closest_on_triangle(mesh, f, pp);
            if best.is_none_or(|(bd, _, _)| d2 < bd) {
                best = Some((d2, f as u32, q));
            }
        }
        best.map(|(d2, f, q)| NearestHit {
            face: f,
            point: q.map(|c| c as f32),
            distance: d2.sqrt() as f32,
        })
    }
}

fn ray_hit(o: [f64; 3], d: [f64; 3], t: f64, f: u32) -> RayHit {
    RayHit {
        face: f,
        distance: t as f32,
        point: add(o, scale(d, t)).map(|c| c as f32),
    }
}

// ---------------------------------------------------------------------------------------------
// Tree-accelerated
// ---------------------------------------------------------------------------------------------

/// Compact node for traversal: box, and either a face (leaf) or the right child (the left
/// child is the next node in pre-order).
#[derive(Debug, Clone, Copy)]
struct Node {
    min: [f32; 3],
    max: [f32; 3],
    /// Leaf: face index; internal: `u32::MAX`.
    face: u32,
    /// Internal: index of the right child.
    right: u32,
    /// Internal: index of the left child.
    left: u32,
}

/// Answers queries on one mesh through an AABB tree (the stored one when it is usable, else a
/// freshly built one).
#[derive(Debug, Clone)]
pub struct Locator<'a> {
    mesh: &'a Mesh,
    /// The tree as stored, for [`Locator::nearest_walkable`].
    nodes: Vec<Node>,
    /// The tree and faces laid out for point and ray queries.
    flat: flat::Flat,
    /// Whether the stored tree was used.
    stored: bool,
    /// The grid for point queries, made at the first one (`None` inside: the tree answers).
    grid: std::sync::OnceLock<Option<grid::PointGrid>>,
}

impl<'a> Locator<'a> {
    /// A locator over `mesh` using `stored` when [`aabb::check_usable`] accepts it, otherwise
    /// a tree built by [`aabb::build`]. The mesh must pass [`Mesh::validate`].
    pub fn new(mesh: &'a Mesh, stored: &[AabbNode]) -> Self {
        let use_stored = !stored.is_empty() && aabb::check_usable(mesh, stored).is_ok();
        let built;
        let src: &[AabbNode] = if use_stored {
            stored
        } else {
            built = aabb::build(mesh);
            &built
        };
        let nodes = src
            .iter()
            .map(|n| Node {
                min: n.min,
                max: n.max,
                face: if n.face >= 0 { n.face as u32 } else { u32::MAX },
                right: n.right,
                left: n.left,
            })
            .collect();
        Locator {
            mesh,
            nodes,
            flat: flat::Flat::new(mesh, src),
            stored: use_stored,
            grid: std::sync::OnceLock::new(),
        }
    }

    /// A locator with a freshly built tree.
    pub fn build(mesh: &'a Mesh) -> Self {
        Self::new(mesh, &[])
    }

    /// Whether the stored tree is used (false: it was missing or unusable and was rebuilt).
    pub fn uses_stored_tree(&self) -> bool {
        self.stored
    }

    /// The mesh.
    pub fn mesh(&self) -> &'a Mesh {
        self.mesh
    }

    /// Calls `visit(face)` for faces that may contain `(x, y)` seen from above: those listed
    /// in the point grid's cell (see `grid`), or without a grid every leaf whose box contains
    /// the point (and all of whose ancestors' boxes do), in pre-order. Either way every face
    /// whose own box contains the point is visited; callers test that box first
    /// ([`flat::face_height`]), so both give the same answers.
    #[inline(always)]
    fn for_each_at(&self, x: f32, y: f32, mut visit: impl FnMut(u32)) {
        let fl = &self.flat;
        if !fl.some {
            return;
        }
        let grid = self.grid.get_or_init(|| {
            let boxes: Vec<[f32; 4]> = fl.pface.iter().map(|p| p.bb).collect();
            grid::PointGrid::new(&boxes)
        });
        if let Some(g) = grid {
            // Only faces whose box may hold the point; the caller's face test checks the box.
            // The box tests first, into a mask (no branch per entry: which boxes hold a
            // random point is unpredictable), then the faces they pass.
            for chunk in g.candidates(x, y).chunks(64) {
                let mut mask = 0u64;
                for (i, e) in chunk.iter().enumerate() {
                    mask |= u64::from(e.holds(x, y)) << i;
                }
                while mask != 0 {
                    visit(chunk[mask.trailing_zeros() as usize].face);
                    mask &= mask - 1;
                }
            }
            return;
        }
        if !flat::in_box(&fl.root_point, x, y) {
            return;
        }
        let mut cur = fl.root;
        let mut stack: flat::Stack<u32, 64> = flat::Stack::new(0);
        loop {
            if cur & flat::LEAF != 0 {
                visit(cur & !flat::LEAF);
            } else {
                // Children are tested here, before they are visited.
                let n = &fl.point[cur as usize];
                let hl = flat::in_box(&n.b[0], x, y);
                let hr = flat::in_box(&n.b[1], x, y);
                if hl {
                    if hr {
                        stack.push(n.c[1]);
                    }
                    cur = n.c[0];
                    continue;
                }
                if hr {
                    cur = n.c[1];
                    continue;
                }
            }
            match stack.pop() {
                Some(c) => cur = c,
                None => return,
            }
        }
    }

    /// Every face (passing `filter`) containing `(x, y)` with its height there, by face index.
    pub fn faces_at(&self, x: f32, y: f32, filter: FaceFilter) -> Vec<(u32, f32)> {
        let mut out = Vec::new();
        let pface = &self.flat.pface;
        self.for_each_at(x, y, |f| {
            let p = &pface[f as usize];
            if (filter == FaceFilter::All || p.walkable)
                && let Some(z) = flat::face_height(p, x, y)
            {
                out.push((f, z));
            }
        });
        out.sort_by_key(|a| a.0);
        out
    }

    /// The face at `(x, y)` seen from above (see the module rules), with its height.
    pub fn face_at(
        &self,
        x: f32,
        y: f32,
        hint: Option<f32>,
        filter: FaceFilter,
    ) -> Option<PointHit> {
        let mut best: Option<((u8, f32, u32), PointHit)> = None;
        let pface = &self.flat.pface;
        let walkable_only = filter == FaceFilter::Walkable;
        self.for_each_at(x, y, |f| {
            let p = &pface[f as usize];
            if walkable_only && !p.walkable {
                return;
            }
            if let Some(z) = flat::face_height(p, x, y) {
                let w = p.walkable;
                let k = point_key(w, z, hint, f);
                if best.as_ref().is_none_or(|(bk, _)| better(k, *bk)) {
                    best = Some((
                        k,
                        PointHit {
                            face: f,
                            z,
                            walkable: w,
                        },
                    ));
                }
            }
        });
        best.map(|b| b.1)
    }

    /// The walkable height at `(x, y)`: with a hint, of the walkable face nearest to it in
    /// height (where walkable faces overlap, e.g. a bridge over a floor), else the highest.
    pub fn height_at(&self, x: f32, y: f32, hint: Option<f32>) -> Option<PointHit> {
        self.face_at(x, y, hint, FaceFilter::Walkable)
    }

    /// The nearest hit of a ray (direction need not be normalised; a zero direction hits
    /// nothing); of equally near hits, the lowest face. A hit must lie on its face's box (to
    /// within `5e-6 * (1 + |coordinate|)`): the far-off "hits" Möller–Trumbore reports for a
    /// ray parallel to a face are not hits. The same as [`brute::ray`], exactly, while
    /// coordinates (vertices and origin) stay within ±1e6; far beyond (~1e30), the ray
    /// parameter cannot resolve small boxes and the two may differ.
    pub fn ray(&self, origin: [f32; 3], dir: [f32; 3], filter: FaceFilter) -> Option<RayHit> {
        let d = normalise(dir)?;
        let fl = &self.flat;
        if !fl.some {
            return None;
        }
        let o = origin.map(f64::from);
        let r = flat::SlabRay::new(o, d);
        r.enter(&fl.root_ray)?;
        let walkable_only = filter == FaceFilter::Walkable;
        // Best hit so far (`bt` infinite: none; no box is pruned then).
        let (mut bt, mut bf) = (f64::INFINITY, u32::MAX);
        let mut cur = fl.root;
        // Pending right children and their entry parameters: a small stack here, spilling to
        // the heap in deep (stored) trees.
        let mut st_node = [0u32; 32];
        let mut st_t = [0.0f64; 32];
        let mut sp = 0usize;
        let mut spill: Vec<(u32, f64)> = Vec::new();
        'walk: loop {
            if cur & flat::LEAF != 0 {
                let f = cur & !flat::LEAF;
                if (!walkable_only || fl.pface[f as usize].walkable)
                    && let Some(t) = flat::ray_face(&fl.rface[f as usize], o, d)
                    && (t < bt || (t == bt && f < bf))
                {
                    (bt, bf) = (t, f);
                }
            } else {
                // Both children's boxes are tested here; the left subtree is visited first
                // and the right one left for later (a box entered beyond the best hit is
                // pruned when it is reached). Hits lie on their faces' boxes, so the answer
                // is brute force's whatever the order; left first measured faster than nearer
                // first (fewer unpredictable branches).
                let n = &fl.ray[cur as usize];
                let (t, hit) = r.enter2(n);
                if hit[1] {
                    if sp < st_node.len() {
                        st_node[sp] = n.c[1];
                        st_t[sp] = t[1];
                        sp += 1;
                    } else {
                        spill.push((n.c[1], t[1]));
                    }
                }
                if hit[0] && t[0] <= bt {
                    cur = n.c[0];
                    continue 'walk;
                }
            }
            loop {
                let (c, t) = if let Some(e) = spill.pop() {
                    e
                } else if sp > 0 {
                    sp -= 1;
                    (st_node[sp], st_t[sp])
                } else {
                    break 'walk;
                };
                if t <= bt {
                    cur = c;
                    continue 'walk;
                }
            }
        }
        (bf != u32::MAX).then(|| ray_hit(o, d, bt, bf))
    }

    /// The nearest point of the walkable surface to `p`.
    pub fn nearest_walkable(&self, p: [f32; 3]) -> Option<NearestHit> {
        if self.nodes.is_empty() {
            return None;
        }
        let pp = p.map(f64::from);
        let mut best: Option<(f64, u32, [f64; 3])> = None;
        let mut stack: Vec<(f64, u32)> = vec![(0.0, 0)];
        while let Some((bd, i)) = stack.pop() {
            if let Some((b, _, _)) = best
                && bd > b
            {
                continue;
            }
            let n = &self.nodes[i as usize];
            if n.face != u32::MAX {
                let f = n.face as usize;
                if !self.mesh.walkable[f] {
                    continue;
                }
                let (q, d2) = closest_on_triangle(self.mesh, f, pp);
                if best.is_none_or(|(b, bf, _)| d2 < b || (d2 == b && (f as u32) < bf)) {
                    best = Some((d2, f as u32, q));
                }
            } else {
                let l = &self.nodes[n.left as usize];
                let r = &self.nodes[n.right as usize];
                let dl = box_dist2(pp, l.min, l.max);
                let dr = box_dist2(pp, r.min, r.max);
                // Visit the nearer child first (pushed last).
                if dl <= dr {
                    stack.push((dr, n.right));
                    stack.push((dl, n.left));
                } else {
                    stack.push((dl, n.left));
                    stack.push((dr, n.right));
                }
            }
        }
        best.map(|(d2, f, q)| NearestHit {
            face: f,
            point: q.map(|c| c as f32),
            distance: d2.sqrt() as f32,
        })
    }
}

/// Squared distance from `p` to a box, made slightly smaller so rounding never prunes a face.
#[inline]
fn box_dist2(p: [f64; 3], min: [f32; 3], max: [f32; 3]) -> f64 {
    let mut d = 0.0;
    for k in 0..3 {
        let lo = f64::from(min[k]);
        let hi = f64::from(max[k]);
        let e = if p[k] < lo {
            lo - p[k]
        } else if p[k] > hi {
            p[k] - hi
        } else {
            0.0
        };
        d += e * e;
    }
    (d * (1.0 - 1e-9) - 1e-12).max(0.0)
}

// ---------------------------------------------------------------------------------------------
// Areas of several rooms
// ---------------------------------------------------------------------------------------------

/// One room of an area: a named mesh placed at an offset.
#[derive(Debug, Clone)]
pub struct Room<'a> {
    /// The room name.
    pub name: String,
    /// Where the room's mesh sits in the area (added to its vertices).
    pub offset: [f32; 3],
    /// The room's locator.
    pub locator: Locator<'a>,
}

/// A hit in an area: which room, and the hit in that room's mesh (positions in area space).
#[derive(Debug, Clone, PartialEq)]
pub struct AreaHit<T> {
    /// Index of the room in the list.
    pub room: usize,
    /// The room's name.
    pub name: String,
    /// The hit.
    pub hit: T,
}

/// The face at `(x, y)` over all rooms, by the rules of [`Locator::face_at`] (ties between
/// rooms go to the earlier room). Heights are in area space.
pub fn area_face_at(
    rooms: &[Room<'_>],
    x: f32,
    y: f32,
    hint: Option<f32>,
    filter: FaceFilter,
) -> Option<AreaHit<PointHit>> {
    let mut best: Option<((u8, f32, u32), usize, PointHit)> = None;
    for (ri, r) in rooms.iter().enumerate() {
        let [ox, oy, oz] = r.offset;
        let local_hint = hint.map(|h| h - oz);
        if let Some(mut h) = r.locator.face_at(x - ox, y - oy, local_hint, filter) {
            h.z += oz;
            // Compare across rooms on (walkable, score) only; the face index is per room.
            let k = point_key(h.walkable, h.z, hint, 0);
            if best
                .as_ref()
                .is_none_or(|(bk, _, _)| k.0 < bk.0 || (k.0 == bk.0 && k.1 < bk.1))
            {
                best = Some((k, ri, h));
            }
        }
    }
    best.map(|(_, ri, hit)| AreaHit {
        room: ri,
        name: rooms[ri].name.clone(),
        hit,
    })
}

/// The nearest ray hit over all rooms (positions in area space; ties to the earlier room).
pub fn area_ray(
    rooms: &[Room<'_>],
    origin: [f32; 3],
    dir: [f32; 3],
    filter: FaceFilter,
) -> Option<AreaHit<RayHit>> {
    let mut best: Option<(usize, RayHit)> = None;
    for (ri, r) in rooms.iter().enumerate() {
        let o = [0, 1, 2].map(|k| origin[k] - r.offset[k]);
        if let Some(mut h) = r.locator.ray(o, dir, filter) {
            for k in 0..3 {
                h.point[k] += r.offset[k];
            }
            if best.as_ref().is_none_or(|(_, b)| h.distance < b.distance) {
                best = Some((ri, h));
            }
        }
    }
    best.map(|(ri, hit)| AreaHit {
        room: ri,
        name: rooms[ri].name.clone(),
        hit,
    })
}
