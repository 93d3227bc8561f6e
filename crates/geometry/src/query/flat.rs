//! Flat, query-ready copies of a tree and of the faces: each internal node holds both
//! children's boxes (so a child is tested before it is visited), per-face data is precomputed
//! in the exact form the per-face tests use, and traversals keep an explicit small stack.
//!
//! Every number here is computed by the same operations, in the same order, as the per-face
//! tests and box tests of the parent module, so answers do not change.

use crate::mesh::{AabbNode, Mesh};

/// A child reference: an internal node index, or `LEAF | face`.
pub(super) const LEAF: u32 = 1 << 31;

/// An internal node for point queries: per child its box seen from above
/// (`[min x, min y, max x, max y]`) and its reference.
#[derive(Debug, Clone, Copy)]
pub(super) struct PointNode {
    pub(super) b: [[f32; 4]; 2],
    pub(super) c: [u32; 2],
}

/// An internal node for rays: its children's boxes enlarged as the slab test does, in double
/// precision (`b[axis][0 = lo, 1 = hi][child]`, so that both children are tested at once),
/// and their references.
#[derive(Debug, Clone, Copy)]
pub(super) struct RayNode {
    pub(super) b: [[[f64; 2]; 2]; 3],
    pub(super) c: [u32; 2],
}

/// Per-face data for the point test ([`super::tri_height_at`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct PointFace {
    /// `[min x, max x, min y, max y]` of the corners (in `f32`, as the test folds them).
    pub(super) bb: [f32; 4],
    /// Corners in double precision.
    pub(super) a: [f64; 3],
    pub(super) b: [f64; 3],
    pub(super) c: [f64; 3],
    /// Twice the signed area seen from above (zero: the face contains no point).
    pub(super) area: f64,
    pub(super) walkable: bool,
}

/// Per-face data for the ray test ([`super::ray_tri`]): first corner and edges in double
/// precision, and the box a hit must lie in ([`super::hit_box`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct RayFace {
    pub(super) v0: [f64; 3],
    pub(super) e1: [f64; 3],
    pub(super) e2: [f64; 3],
    pub(super) bx: [[f64; 3]; 2],
}

/// A tree in both flat forms. `root` is the reference of the root (with its boxes in
/// `root_point` / `root_ray`); internal nodes are numbered in pre-order.
#[derive(Debug, Clone, Default)]
pub(super) struct Flat {
    pub(super) root: u32,
    pub(super) root_point: [f32; 4],
    pub(super) root_ray: [[f64; 3]; 2],
    pub(super) point: Vec<PointNode>,
    pub(super) ray: Vec<RayNode>,
    pub(super) pface: Vec<PointFace>,
    pub(super) rface: Vec<RayFace>,
    /// Whether there is a tree at all.
    pub(super) some: bool,
}

/// The box of the slab test: [`super::widened`] by [`super::SLAB_MARGIN`].
#[inline]
fn slab_box(min: [f32; 3], max: [f32; 3]) -> [[f64; 3]; 2] {
    super::widened(min, max, super::SLAB_MARGIN)
}

#[inline]
fn point_box(n: &AabbNode) -> [f32; 4] {
    [n.min[0], n.min[1], n.max[0], n.max[1]]
}

impl Flat {
    /// Flattens a tree that [`crate::aabb::check_usable`] accepts (a proper binary tree from
    /// node 0 with one leaf per face).
    pub(super) fn new(mesh: &Mesh, nodes: &[AabbNode]) -> Flat {
        let pface = mesh
            .faces
            .iter()
            .enumerate()
            .map(|(f, _)| {
                let t = mesh.tri(f);
                let a = t[0].map(f64::from);
                let b = t[1].map(f64::from);
                let c = t[2].map(f64::from);
                PointFace {
                    bb: [
                        t[0][0].min(t[1][0]).min(t[2][0]),
                        t[0][0].max(t[1][0]).max(t[2][0]),
                        t[0][1].min(t[1][1]).min(t[2][1]),
                        t[0][1].max(t[1][1]).max(t[2][1]),
                    ],
                    a,
                    b,
                    c,
                    area: (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]),
                    walkable: mesh.walkable[f],
                }
            })
            .collect();
        let rface = (0..mesh.faces.len())
            .map(|f| {
                let t = mesh.tri(f);
                let v0 = t[0].map(f64::from);
                let e1 = super::sub(t[1].map(f64::from), v0);
                let e2 = super::sub(t[2].map(f64::from), v0);
                RayFace {
                    v0,
                    e1,
                    e2,
                    bx: super::hit_box(&t),
                }
            })
            .collect();
        let mut flat = Flat {
            pface,
            rface,
            ..Flat::default()
        };
        let Some(root) = nodes.first() else {
            return flat;
        };
        flat.some = true;
        flat.root_point = point_box(root);
        flat.root_ray = slab_box(root.min, root.max);
        // Number the internal nodes in pre-order (left subtree first), then fill them.
        let mut index = vec![u32::MAX; nodes.len()];
        let mut order: Vec<usize> = Vec::with_capacity(nodes.len() / 2 + 1);
        let mut stack = vec![0usize];
        while let Some(i) = stack.pop() {
            let n = &nodes[i];
            if n.face >= 0 {
                continue;
            }
            index[i] = order.len() as u32;
            order.push(i);
            stack.push(n.right as usize);
            stack.push(n.left as usize);
        }
        let reference = |i: usize| {
            let n = &nodes[i];
            if n.face >= 0 {
                LEAF | n.face as u32
            } else {
                index[i]
            }
        };
        flat.root = reference(0);
        for &i in &order {
            let n = &nodes[i];
            let (l, r) = (&nodes[n.left as usize], &nodes[n.right as usize]);
            let c = [reference(n.left as usize), reference(n.right as usize)];
            flat.point.push(PointNode {
                b: [point_box(l), point_box(r)],
                c,
            });
            let (lb, rb) = (slab_box(l.min, l.max), slab_box(r.min, r.max));
            flat.ray.push(RayNode {
                b: std::array::from_fn(|k| [[lb[0][k], rb[0][k]], [lb[1][k], rb[1][k]]]),
                c,
            });
        }
        flat
    }
}

/// Whether `(x, y)` lies in a box seen from above (written as the reference test, so that a
/// NaN coordinate is "inside" as there).
#[inline(always)]
pub(super) fn in_box(b: &[f32; 4], x: f32, y: f32) -> bool {
    !(x < b[0] || x > b[2] || y < b[1] || y > b[3])
}

/// [`super::tri_height_at`] on precomputed data.
#[inline(always)]
pub(super) fn face_height(p: &PointFace, x: f32, y: f32) -> Option<f32> {
    if x < p.bb[0] || x > p.bb[1] || y < p.bb[2] || y > p.bb[3] {
        return None;
    }
    let (px, py) = (f64::from(x), f64::from(y));
    let (a, b, c, area) = (&p.a, &p.b, &p.c, p.area);
    if area == 0.0 {
        return None;
    }
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
    Some(((wa * a[2] + wb * b[2] + wc * c[2]) / area) as f32)
}

/// [`super::ray_tri`] on precomputed data.
#[inline(always)]
pub(super) fn ray_face(r: &RayFace, o: [f64; 3], d: [f64; 3]) -> Option<f64> {
    use super::{cross, dot, sub};
    let p = cross(d, r.e2);
    let det = dot(r.e1, p);
    if det == 0.0 {
        return None;
    }
    let inv = 1.0 / det;
    let s = sub(o, r.v0);
    let u = dot(s, p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = cross(s, r.e1);
    let v = dot(d, q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let tt = dot(r.e2, q) * inv;
    (tt >= 0.0 && super::in_hit_box(&r.bx, o, d, tt)).then_some(tt)
}

/// A ray prepared for slab tests.
pub(super) struct SlabRay {
    o: [f64; 3],
    inv: [f64; 3],
    /// Per axis, which side of a box the ray meets first: 0 (`lo`) or 1 (`hi`).
    near: [usize; 3],
    /// Per axis, whether the ray runs parallel to it (infinite inverse direction).
    parallel: [bool; 3],
}

impl SlabRay {
    /// A ray from `o` along the unit direction `d`.
    pub(super) fn new(o: [f64; 3], d: [f64; 3]) -> Self {
        let inv = d.map(|c| 1.0 / c);
        SlabRay {
            o,
            inv,
            near: inv.map(|i| usize::from(i.is_sign_negative())),
            parallel: inv.map(f64::is_infinite),
        }
    }

    /// The slab test of the parent module on a precomputed enlarged box (`[lo, hi]`): the entry
    /// parameter if the ray enters at `t >= 0` or starts inside.
    ///
    /// Same answer as the reference for every finite origin (with a non-finite origin no face
    /// is ever hit, whatever the boxes say): per axis the entry and exit parameters are the
    /// reference's, ordered by the sign of the inverse direction instead of compared (the same
    /// since `lo <= hi`, and they are never NaN), and an empty interval found early or late is
    /// the same.
    #[inline(always)]
    pub(super) fn enter(&self, b: &[[f64; 3]; 2]) -> Option<f64> {
        let mut t0 = 0.0f64;
        let mut t1 = f64::INFINITY;
        for k in 0..3 {
            let o = self.o[k];
            if self.parallel[k] {
                if o < b[0][k] || o > b[1][k] {
                    return None;
                }
                continue;
            }
            let near = (b[self.near[k]][k] - o) * self.inv[k];
            let far = (b[1 - self.near[k]][k] - o) * self.inv[k];
            t0 = if near > t0 { near } else { t0 };
            t1 = if far < t1 { far } else { t1 };
        }
        (t0 <= t1).then_some(t0)
    }

    /// [`SlabRay::enter`] on both children of a node at once: per child the entry parameter
    /// and whether the ray meets the box.
    #[inline(always)]
    pub(super) fn enter2(&self, n: &RayNode) -> ([f64; 2], [bool; 2]) {
        let mut t0 = [0.0f64; 2];
        let mut t1 = [f64::INFINITY; 2];
        for k in 0..3 {
            let o = self.o[k];
            let b = &n.b[k];
            if self.parallel[k] {
                for l in 0..2 {
                    // Outside the slab: an empty interval.
                    t1[l] = if o < b[0][l] || o > b[1][l] {
                        f64::NEG_INFINITY
                    } else {
                        t1[l]
                    };
                }
                continue;
            }
            let (nb, fb) = (&b[self.near[k]], &b[1 - self.near[k]]);
            let inv = self.inv[k];
            for l in 0..2 {
                let near = (nb[l] - o) * inv;
                let far = (fb[l] - o) * inv;
                t0[l] = if near > t0[l] { near } else { t0[l] };
                t1[l] = if far < t1[l] { far } else { t1[l] };
            }
        }
        (t0, [t0[0] <= t1[0], t0[1] <= t1[1]])
    }
}

/// A stack of `T` on the call stack, spilling to the heap past `N` entries (stored trees may
/// be arbitrarily deep).
pub(super) struct Stack<T: Copy, const N: usize> {
    a: [T; N],
    sp: usize,
    spill: Vec<T>,
}

impl<T: Copy, const N: usize> Stack<T, N> {
    #[inline(always)]
    pub(super) fn new(fill: T) -> Self {
        Stack {
            a: [fill; N],
            sp: 0,
            spill: Vec::new(),
        }
    }

    #[inline(always)]
    pub(super) fn push(&mut self, v: T) {
        if self.sp < N {
            self.a[self.sp] = v;
            self.sp += 1;
        } else {
            self.spill.push(v);
        }
    }

    #[inline(always)]
    pub(super) fn pop(&mut self) -> Option<T> {
        if let Some(v) = self.spill.pop() {
            return Some(v);
        }
        if self.sp == 0 {
            return None;
        }
        self.sp -= 1;
        Some(self.a[self.sp])
    }
}
