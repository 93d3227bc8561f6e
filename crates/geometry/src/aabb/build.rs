//! The tree builders.
//!
//! Both work on an array of face indices and per-face tables computed once (centroid keys,
//! boxes): a node reorders its slice of the array so that its left child's faces come first,
//! then recurses on the two halves, writing nodes in pre-order. Nothing is allocated per node.
//! Large subtrees are built on several threads; the result does not depend on it.

use super::{PAD_MAX, PAD_MIN, plane_code};
use crate::mesh::{AabbNode, Mesh, NO_CHILD};

/// Subtrees of at least this many faces may be handed to another thread.
const PARALLEL_SPLIT: usize = 1 << 15;

/// Nodes of at least this many faces are split by [`MedianScratch::sampled_split`].
const SAMPLED_SPLIT: usize = 8192;

/// How many threads a build of `n` faces may use.
fn threads_for(n: usize) -> usize {
    if n < 2 * PARALLEL_SPLIT {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |p| p.get().min(8))
    }
}

/// Runs `a` here and `b` on another thread.
fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA,
    B: FnOnce() -> RB + Send,
    RB: Send,
{
    std::thread::scope(|s| {
        let h = s.spawn(b);
        let ra = a();
        let rb = h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        (ra, rb)
    })
}

/// The bits of `x` as an unsigned integer ordered like [`f64::total_cmp`].
#[inline]
fn total_key(x: f64) -> u64 {
    let b = x.to_bits();
    // Negative numbers: flip all bits; positive: flip the sign bit.
    b ^ ((((b as i64) >> 63) as u64) | (1 << 63))
}

/// Centroid `(v1 + v2 + v3) / 3` of a triangle, per axis, in double precision.
#[inline]
fn centroid(t: &[[f32; 3]; 3]) -> [f64; 3] {
    let c = |k: usize| (f64::from(t[0][k]) + f64::from(t[1][k]) + f64::from(t[2][k])) / 3.0;
    [c(0), c(1), c(2)]
}

/// The box of a triangle (corners folded in order, as [`super::face_box`]).
#[inline]
pub(super) fn tri_box(t: &[[f32; 3]; 3]) -> ([f32; 3], [f32; 3]) {
    let mut min = t[0];
    let mut max = t[0];
    for v in &t[1..] {
        for k in 0..3 {
            min[k] = min[k].min(v[k]);
            max[k] = max[k].max(v[k]);
        }
    }
    (min, max)
}

#[inline]
fn tri(mesh: &Mesh, f: usize) -> [[f32; 3]; 3] {
    let v = &mesh.vertices;
    let face = mesh.faces[f];
    [
        v[face[0] as usize],
        v[face[1] as usize],
        v[face[2] as usize],
    ]
}

// ---------------------------------------------------------------------------------------------
// Median split (the compiler's tree)
// ---------------------------------------------------------------------------------------------

/// Per-face tables of the median-split builder (one array per field: each pass reads only
/// what it needs; zeroed allocations are written once).
struct MedianTables {
    /// Centroid per axis, as [`total_key`].
    key: [Vec<u64>; 3],
    /// Box: the minimum in 0..3, the negated maximum in 3..6 (a union is one lane-wise
    /// minimum).
    bx: Vec<[f32; 6]>,
}

/// Fills the median-split tables of faces `first..` (one chunk).
fn fill_median(
    mesh: &Mesh,
    first: usize,
    kx: &mut [u64],
    ky: &mut [u64],
    kz: &mut [u64],
    bx: &mut [[f32; 6]],
) {
    for (i, (((x, y), z), b)) in kx
        .iter_mut()
        .zip(ky.iter_mut())
        .zip(kz.iter_mut())
        .zip(bx.iter_mut())
        .enumerate()
    {
        let t = tri(mesh, first + i);
        let c = centroid(&t);
        (*x, *y, *z) = (total_key(c[0]), total_key(c[1]), total_key(c[2]));
        let (lo, hi) = tri_box(&t);
        // A NaN bound (all three corners NaN on an axis; `f32::min` ignores NaN otherwise) is
        // ignored by the union, as an infinity.
        let clean = |x: f32| if x.is_nan() { f32::INFINITY } else { x };
        *b = [
            clean(lo[0]),
            clean(lo[1]),
            clean(lo[2]),
            clean(-hi[0]),
            clean(-hi[1]),
            clean(-hi[2]),
        ];
    }
}

/// A box as the median-split builder keeps it: minimum, negated maximum.
type Union = [f32; 6];

/// The compiler's tree: for each node the box of its faces' vertices; the longest axis of the
/// box (`x` if no shorter than `y` and `z`, else `y` if no shorter than `z`, else `z`); the
/// faces ordered by centroid `(v1 + v2 + v3) / 3` (double precision) along it, ties by face
/// index; the first half (rounded down) goes left. Boxes are padded by [`PAD_MIN`] /
/// [`PAD_MAX`]. The plane names the axis along which the right child's box centre lies
/// farthest from the left child's, with its sign (`1/2/4` positive, `8/16/32` negative); when
/// the two boxes coincide, the split axis.
pub fn build_median_split(mesh: &Mesh) -> Vec<AabbNode> {
    let n = mesh.faces.len();
    if n == 0 {
        return Vec::new();
    }
    let threads = threads_for(n);
    let mut key: [Vec<u64>; 3] = std::array::from_fn(|_| vec![0; n]);
    let mut bx = vec![[0.0f32; 6]; n];
    let [kx, ky, kz] = &mut key;
    let chunk = n.div_ceil(threads);
    if threads <= 1 {
        fill_median(mesh, 0, kx, ky, kz, &mut bx);
    } else {
        std::thread::scope(|s| {
            for (c, (((x, y), z), b)) in kx
                .chunks_mut(chunk)
                .zip(ky.chunks_mut(chunk))
                .zip(kz.chunks_mut(chunk))
                .zip(bx.chunks_mut(chunk))
                .enumerate()
            {
                s.spawn(move || fill_median(mesh, c * chunk, x, y, z, b));
            }
        });
    }
    let tables = MedianTables { key, bx };
    let mut faces: Vec<u32> = (0..n as u32).collect();
    let mut s = MedianScratch::new(n, 0);
    let u = union(&tables, &faces);
    median_node(&tables, &mut s, &mut faces, u, threads);
    s.nodes
}

/// The union of the boxes of `faces`.
#[inline]
fn union(t: &MedianTables, faces: &[u32]) -> Union {
    let mut u = [f32::INFINITY; 6];
    for &f in faces {
        let b = &t.bx[f as usize];
        for k in 0..6 {
            // No NaN here; the sign of a zero is lost to the padding.
            u[k] = if b[k] < u[k] { b[k] } else { u[k] };
        }
    }
    u
}

/// Padded box from a union.
#[inline]
fn padded(u: &Union) -> ([f32; 3], [f32; 3]) {
    (
        [u[0] - PAD_MIN, u[1] - PAD_MIN, u[2] - PAD_MIN],
        [-u[3] + PAD_MAX, -u[4] + PAD_MAX, -u[5] + PAD_MAX],
    )
}

/// Scratch space and output of one thread of the median-split builder.
struct MedianScratch {
    /// `(key << 32) | face` of a node's faces, for selecting the median.
    sort: Vec<u128>,
    /// Scratch for splits.
    spare: Vec<u32>,
    /// Sampled keys for [`MedianScratch::sampled_split`], and its random generator.
    sample: Vec<u128>,
    rng: u64,
    /// Index of the first node of `nodes` in the whole tree.
    base: u32,
    nodes: Vec<AabbNode>,
}

impl MedianScratch {
    fn new(n: usize, base: u32) -> Self {
        MedianScratch {
            // Zeroed allocations: pages never touched cost nothing.
            sort: vec![0; n],
            spare: vec![0; n],
            sample: Vec::new(),
            rng: 0x9e37_79b9_7f4a_7c15,
            base,
            nodes: Vec::with_capacity(2 * n - 1),
        }
    }

    /// Index of the next node.
    #[inline]
    fn next(&self) -> u32 {
        self.base + self.nodes.len() as u32
    }

    /// Moves the faces of the lower half (by key along `axis`, then face index) to the front of
    /// `faces` (Floyd and Rivest's selection): two pivots taken from a random sample bracket the
    /// median, one pass sends the faces below / above them to their side, and only those in
    /// between are selected exactly. Faces keep their relative order on each side (the upper
    /// side reversed), which keeps reads of the per-face tables sequential. Returns false, with
    /// `faces` unchanged, when the pivots miss the median (unlikely; the caller selects then).
    fn sampled_split(&mut self, t: &MedianTables, faces: &mut [u32], axis: usize) -> bool {
        let n = faces.len();
        let mid = n / 2;
        let key = &t.key[axis];
        let k = |f: u32| (u128::from(key[f as usize]) << 32) | u128::from(f);
        // Sample about n^(2/3) / 2 keys (positions from a fixed-seed generator: the result
        // does not depend on them, only the speed).
        let s = ((n as f64).powf(2.0 / 3.0) as usize / 2).max(32);
        self.sample.clear();
        for _ in 0..s {
            self.rng ^= self.rng << 13;
            self.rng ^= self.rng >> 7;
            self.rng ^= self.rng << 17;
            let j = ((self.rng >> 32) as usize * n) >> 32;
            self.sample.push(k(faces[j]));
        }
        self.sample.sort_unstable();
        // Pivot ranks about two standard deviations of the sample median's rank apart.
        let r = mid * s / n;
        let d = s.isqrt() + 2;
        let p1 = if r >= d { self.sample[r - d] } else { 0 };
        let p2 = if r + d < s {
            self.sample[r + d]
        } else {
            u128::MAX
        };
        let dst = &mut self.spare[..n];
        let between = &mut self.sort[..n];
        let (mut l, mut h, mut m) = (0usize, 0usize, 0usize);
        for &f in faces.iter() {
            let kf = k(f);
            let low = kf < p1;
            let high = kf > p2;
            // A face between the pivots lands in the next upper slot, which a later upper face
            // or the faces between the pivots overwrite.
            dst[if low { l } else { n - 1 - h }] = f;
            between[m] = kf;
            l += usize::from(low);
            h += usize::from(high);
            m += usize::from(!low && !high);
        }
        if !(l <= mid && mid < l + m) {
            return false;
        }
        let between = &mut between[..m];
        between.select_nth_unstable(mid - l);
        for (d, &kf) in dst[l..l + m].iter_mut().zip(between.iter()) {
            *d = kf as u32;
        }
        faces.copy_from_slice(dst);
        true
    }
}

/// Builds the subtree of `faces` (the union of whose boxes is `u`) in pre-order at the end of
/// `s.nodes`, on up to `threads` threads.
fn median_node(
    t: &MedianTables,
    s: &mut MedianScratch,
    faces: &mut [u32],
    u: Union,
    threads: usize,
) {
    let n = faces.len();
    let (pmin, pmax) = padded(&u);
    if n == 1 {
        s.nodes.push(AabbNode {
            min: pmin,
            max: pmax,
            face: faces[0] as i32,
            plane: 0,
            left: NO_CHILD,
            right: NO_CHILD,
        });
        return;
    }
    let ext = [-u[3] - u[0], -u[4] - u[1], -u[5] - u[2]];
    let axis = if ext[0] >= ext[1] && ext[0] >= ext[2] {
        0
    } else if ext[1] >= ext[2] {
        1
    } else {
        2
    };
    let mid = n / 2;
    if n == 2 {
        // Two leaves.
        let (f, g) = (faces[0], faces[1]);
        let key = &t.key[axis];
        let (f, g) = if (key[f as usize], f) < (key[g as usize], g) {
            (f, g)
        } else {
            (g, f)
        };
        let (lp, rp) = (padded(&t.bx[f as usize]), padded(&t.bx[g as usize]));
        let me = s.next();
        let leaf = |face: u32, (min, max): ([f32; 3], [f32; 3])| AabbNode {
            min,
            max,
            face: face as i32,
            plane: 0,
            left: NO_CHILD,
            right: NO_CHILD,
        };
        s.nodes.extend([
            AabbNode {
                min: pmin,
                max: pmax,
                face: -1,
                plane: child_plane(lp, rp, axis),
                left: me + 1,
                right: me + 2,
            },
            leaf(f, lp),
            leaf(g, rp),
        ]);
        return;
    }
    // Keys with the face index are distinct, so the halves are the same for any selection
    // algorithm; only their inner order (which nothing depends on) is the selection's.
    if n < SAMPLED_SPLIT || !s.sampled_split(t, faces, axis) {
        let key = &t.key[axis];
        let sort = &mut s.sort[..n];
        for (k, &f) in sort.iter_mut().zip(faces.iter()) {
            *k = (u128::from(key[f as usize]) << 32) | u128::from(f);
        }
        sort.select_nth_unstable(mid);
        for (f, &k) in faces.iter_mut().zip(sort.iter()) {
            *f = k as u32;
        }
    }
    let (left, right) = faces.split_at_mut(mid);
    let lu = union(t, left);
    let ru = union(t, right);
    let me = s.next();
    s.nodes.push(AabbNode {
        min: pmin,
        max: pmax,
        face: -1,
        plane: child_plane(padded(&lu), padded(&ru), axis),
        left: me + 1,
        // The left subtree holds `2 * mid - 1` nodes.
        right: me + 2 * mid as u32,
    });
    let par = threads > 1 && right.len() >= PARALLEL_SPLIT;
    if !par {
        median_node(t, s, left, lu, threads);
        median_node(t, s, right, ru, threads);
        return;
    }
    let rbase = me + 2 * mid as u32;
    let ((), rs) = join(
        || median_node(t, s, left, lu, threads / 2),
        || {
            let mut rs = MedianScratch::new(right.len(), rbase);
            median_node(t, &mut rs, right, ru, threads - threads / 2);
            rs
        },
    );
    s.nodes.extend_from_slice(&rs.nodes);
}

/// The compiler's plane code from the (padded) boxes of the two children: the axis along which
/// the right box centre lies farthest from the left one, with its sign; `split` if they
/// coincide.
#[inline]
fn child_plane(l: ([f32; 3], [f32; 3]), r: ([f32; 3], [f32; 3]), split: usize) -> u32 {
    let c = |k: usize| {
        (f64::from(r.0[k]) + f64::from(r.1[k])) / 2.0
            - (f64::from(l.0[k]) + f64::from(l.1[k])) / 2.0
    };
    let d = [c(0), c(1), c(2)];
    let mut a = 0;
    for k in 1..3 {
        if d[k].abs() > d[a].abs() {
            a = k;
        }
    }
    if d[a] > 0.0 {
        1 << a
    } else if d[a] < 0.0 {
        8 << a
    } else {
        plane_code(split)
    }
}

// ---------------------------------------------------------------------------------------------
// Mean split (PyKotor's tree)
// ---------------------------------------------------------------------------------------------

/// Per-face tables of the mean-split builder (one array per field, as [`MedianTables`]).
struct MeanTables {
    /// Centroid per axis.
    c: [Vec<f64>; 3],
    /// Box (`f32::min` / `f32::max` of the corners; the output is unpadded, so unions keep the
    /// reference's operations and order): minimum in 0..3, maximum in 3..6.
    bx: Vec<[f32; 6]>,
}

/// Fills the mean-split tables of faces `first..` (one chunk).
fn fill_mean(
    mesh: &Mesh,
    first: usize,
    cx: &mut [f64],
    cy: &mut [f64],
    cz: &mut [f64],
    bx: &mut [[f32; 6]],
) {
    for (i, (((x, y), z), b)) in cx
        .iter_mut()
        .zip(cy.iter_mut())
        .zip(cz.iter_mut())
        .zip(bx.iter_mut())
        .enumerate()
    {
        let t = tri(mesh, first + i);
        [*x, *y, *z] = centroid(&t);
        let (lo, hi) = tri_box(&t);
        *b = [lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]];
    }
}

/// Box and centroid sum of a run of faces, accumulated in face order like the reference.
#[derive(Clone, Copy)]
struct MeanAcc {
    min: [f32; 3],
    max: [f32; 3],
    sum: [f64; 3],
}

fn mean_acc(t: &MeanTables, faces: &[u32]) -> MeanAcc {
    let mut a = MeanAcc {
        min: [f32::INFINITY; 3],
        max: [f32::NEG_INFINITY; 3],
        sum: [0.0; 3],
    };
    for &f in faces {
        let f = f as usize;
        let b = &t.bx[f];
        for k in 0..3 {
            a.min[k] = if b[k] < a.min[k] { b[k] } else { a.min[k] };
            a.max[k] = if b[3 + k] > a.max[k] {
                b[3 + k]
            } else {
                a.max[k]
            };
            a.sum[k] += t.c[k][f];
        }
    }
    a
}

/// PyKotor's tree (the writer of most community walkmeshes).
///
/// Each node splits its faces by comparing their centroids with the mean centroid along the
/// longest side of the node's box (`y` if longer than `x`, then `z` if longer than `y`), trying
/// the next axis when all centroids fall on one side; when no axis separates them the faces
/// are split in half in face order, so every face always gets its leaf.
pub fn build_mean_split(mesh: &Mesh) -> Vec<AabbNode> {
    let n = mesh.faces.len();
    if n == 0 {
        return Vec::new();
    }
    let threads = threads_for(n);
    let mut c: [Vec<f64>; 3] = std::array::from_fn(|_| vec![0.0; n]);
    let mut bx = vec![[0.0f32; 6]; n];
    let [cx, cy, cz] = &mut c;
    let chunk = n.div_ceil(threads);
    if threads <= 1 {
        fill_mean(mesh, 0, cx, cy, cz, &mut bx);
    } else {
        std::thread::scope(|s| {
            for (i, (((x, y), z), b)) in cx
                .chunks_mut(chunk)
                .zip(cy.chunks_mut(chunk))
                .zip(cz.chunks_mut(chunk))
                .zip(bx.chunks_mut(chunk))
                .enumerate()
            {
                s.spawn(move || fill_mean(mesh, i * chunk, x, y, z, b));
            }
        });
    }
    let tables = MeanTables { c, bx };
    let mut faces: Vec<u32> = (0..n as u32).collect();
    let mut s = MeanScratch {
        spare: vec![0; n],
        base: 0,
        nodes: Vec::with_capacity(2 * n - 1),
    };
    let acc = mean_acc(&tables, &faces);
    mean_node(&tables, &mut s, &mut faces, acc, threads);
    s.nodes
}

/// Scratch space and output of one thread of the mean-split builder.
struct MeanScratch {
    spare: Vec<u32>,
    /// Index of the first node of `nodes` in the whole tree.
    base: u32,
    nodes: Vec<AabbNode>,
}

/// Builds the subtree of `faces` (in face order; `acc` their box and centroid sum) in
/// pre-order at the end of `s.nodes`, on up to `threads` threads. Splits are stable, so every
/// node's faces stay in face order and the sums add in the reference's order.
fn mean_node(t: &MeanTables, s: &mut MeanScratch, faces: &mut [u32], acc: MeanAcc, threads: usize) {
    let MeanAcc { min, max, sum } = acc;
    let n = faces.len();
    if n == 1 {
        s.nodes.push(AabbNode {
            min,
            max,
            face: faces[0] as i32,
            plane: 0,
            left: NO_CHILD,
            right: NO_CHILD,
        });
        return;
    }
    let count = n as f64;
    let mean = [sum[0] / count, sum[1] / count, sum[2] / count];
    let size = [
        f64::from(max[0]) - f64::from(min[0]),
        f64::from(max[1]) - f64::from(min[1]),
        f64::from(max[2]) - f64::from(min[2]),
    ];
    let mut axis = 0;
    if size[1] > size[0] {
        axis = 1;
    }
    if size[2] > size[1] {
        axis = 2;
    }
    let mut mid = n / 2;
    for _ in 0..3 {
        let m = mean[axis];
        let c = &t.c[axis];
        let below = faces.iter().filter(|&&f| c[f as usize] < m).count();
        if below > 0 && below < n {
            // Stable split: centroids below the mean first.
            let spare = &mut s.spare[..n];
            let (mut l, mut r) = (0usize, below);
            for &f in faces.iter() {
                let lt = c[f as usize] < m;
                spare[if lt { l } else { r }] = f;
                l += usize::from(lt);
                r += usize::from(!lt);
            }
            faces.copy_from_slice(spare);
            mid = below;
            break;
        }
        axis = (axis + 1) % 3;
    }
    let me = s.base + s.nodes.len() as u32;
    s.nodes.push(AabbNode {
        min,
        max,
        face: -1,
        plane: plane_code(axis),
        left: me + 1,
        right: me + 2 * mid as u32,
    });
    let (left, right) = faces.split_at_mut(mid);
    let la = mean_acc(t, left);
    let ra = mean_acc(t, right);
    let par = threads > 1 && left.len().min(right.len()) >= PARALLEL_SPLIT;
    if !par {
        // One after the other; either may still split its own subtree between threads.
        mean_node(t, s, left, la, threads);
        mean_node(t, s, right, ra, threads);
        return;
    }
    let rbase = me + 2 * mid as u32;
    let ((), rs) = join(
        || mean_node(t, s, left, la, threads / 2),
        || {
            let mut rs = MeanScratch {
                spare: vec![0; right.len()],
                base: rbase,
                nodes: Vec::with_capacity(2 * right.len() - 1),
            };
            mean_node(t, &mut rs, right, ra, threads - threads / 2);
            rs
        },
    );
    s.nodes.extend_from_slice(&rs.nodes);
}
