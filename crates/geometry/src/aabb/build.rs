//! The tree builders.
//!
//! Both work on arrays of face indices and per-face tables computed once (centroid keys or
//! centroids, boxes): a node reorders its range of the arrays so that its left child's faces
//! come first, then recurses on the two halves, writing its subtree in pre-order into its own
//! range of the output. Nothing is allocated per node; the working memory lives in a
//! [`MedianScratch`] / [`MeanScratch`] that [`super::TreeBuilder`] keeps between builds.
//! Large subtrees are built on several threads; the result does not depend on it.
//!
//! The median split selects the median of a large node over its faces in face order (all
//! reads sequential), and below that size keeps a node's faces sorted along each axis it has
//! needed (radix sorts, then stable partitions); the mean split makes one pass per node that
//! partitions and accumulates both children's boxes and sums.

use super::{PAD_MAX, PAD_MIN, plane_code};
use crate::mesh::{AabbNode, Mesh, NO_CHILD};

/// Subtrees of at least this many faces may be handed to another thread.
const PARALLEL_SPLIT: usize = 1 << 15;

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
pub(crate) fn tri_box(t: &[[f32; 3]; 3]) -> ([f32; 3], [f32; 3]) {
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

/// A box as the median-split builder keeps it: minimum in 0..3, negated maximum in 3..6 (a
/// union is one lane-wise minimum).
type Union = [f32; 6];

/// Fills the median-split tables of faces `first..` (one chunk): centroid keys per axis (as
/// [`total_key`]) and boxes.
fn fill_median(
    mesh: &Mesh,
    first: usize,
    kx: &mut [u64],
    ky: &mut [u64],
    kz: &mut [u64],
    bx: &mut [Union],
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

/// The first `n` elements of `v`, grown if shorter (contents are overwritten before they are
/// read; a reused vector that is long enough is not touched).
fn sized<T: Copy + Default>(v: &mut Vec<T>, n: usize) -> &mut [T] {
    if v.len() < n {
        v.resize(n, T::default());
    }
    &mut v[..n]
}

/// Working memory of the median-split builder, kept between builds by
/// [`super::TreeBuilder`].
#[derive(Default)]
pub(super) struct MedianScratch {
    /// Box per face.
    bx: Vec<Union>,
    /// Centroid key per face and axis.
    key: [Vec<u64>; 3],
    /// The faces sorted along each axis (by key, then face index) where a node has sorted
    /// them; each node owns one range of all three.
    list: [Vec<u32>; 3],
    /// The faces in face order, split along with the nodes while they are large.
    forder: Vec<u32>,
    /// Scratch of each thread.
    sort: Vec<SortBuf>,
}

/// Sorts `rec` (`top << 32 | face`) by `top` (`tmp`: scratch of the same length), stably:
/// least-significant-digit radix sort on three digits (11, 11 and 10 bits), skipping digits
/// all records share.
fn radix_sort_high(rec: &mut [u64], tmp: &mut [u64]) {
    const SHIFT: [u32; 3] = [32, 43, 54];
    let n = rec.len();
    let Some(&first) = rec.first() else {
        return;
    };
    let digit = |r: u64, d: usize| ((r >> SHIFT[d]) & 0x7ff) as usize;
    let mut hist = [[0u32; 2048]; 3];
    for &r in rec.iter() {
        for (d, h) in hist.iter_mut().enumerate() {
            h[digit(r, d)] += 1;
        }
    }
    let (mut src, mut dst) = (rec, tmp);
    let mut in_scratch = false;
    for (d, h) in hist.iter_mut().enumerate() {
        if h[digit(first, d)] as usize == n {
            continue;
        }
        // Counts become the first slot of each digit.
        let mut sum = 0;
        for c in h.iter_mut() {
            (*c, sum) = (sum, sum + *c);
        }
        for &r in src.iter() {
            let o = &mut h[digit(r, d)];
            dst[*o as usize] = r;
            *o += 1;
        }
        std::mem::swap(&mut src, &mut dst);
        in_scratch = !in_scratch;
    }
    if in_scratch {
        // `src` is the scratch, `dst` the caller's `rec`.
        dst.copy_from_slice(src);
    }
}

/// Radix-sorting pays from this many faces on; fewer are sorted by comparison.
const RADIX_MIN: usize = 2048;

/// Scratch of one thread of the median-split builder: sort records, comparison-sort and
/// selection keys, and the right side of a partition.
#[derive(Default)]
pub(super) struct SortBuf {
    rec: Vec<u64>,
    tmp: Vec<u64>,
    small: Vec<u128>,
    right: Vec<u32>,
}

/// `(key << 32) | face`: the order of faces along an axis.
#[inline]
fn order_key(key: &[u64], f: u32) -> u128 {
    (u128::from(key[f as usize]) << 32) | u128::from(f)
}

/// Writes the faces of `src` (or of `dst` itself) into `dst` sorted by `(key, face)`.
///
/// Many faces: a stable radix sort of `top 32 bits of key << 32 | face` on the top 32 bits
/// (which order like the keys; the input order breaks ties, so each run of equal top bits is
/// then checked against the full keys and sorted if need be: usually it already is). Few
/// faces: a comparison sort of `key << 64 | face`.
fn sort_faces(key: &[u64], src: Option<&[u32]>, dst: &mut [u32], sb: &mut SortBuf) {
    let m = dst.len();
    let faces = src.unwrap_or(dst);
    if m < RADIX_MIN {
        sb.small.clear();
        sb.small.extend(
            faces
                .iter()
                .map(|&f| (u128::from(key[f as usize]) << 64) | u128::from(f)),
        );
        sb.small.sort_unstable();
        for (d, &r) in dst.iter_mut().zip(sb.small.iter()) {
            *d = r as u32;
        }
        return;
    }
    sb.rec.clear();
    sb.rec.extend(
        faces
            .iter()
            .map(|&f| (key[f as usize] & !0xffff_ffff) | u64::from(f)),
    );
    let rec = &mut sb.rec[..];
    radix_sort_high(rec, sized(&mut sb.tmp, m));
    let full = |r: u64| order_key(key, r as u32);
    let mut i = 0;
    while i < m {
        let high = rec[i] >> 32;
        let mut j = i + 1;
        while j < m && rec[j] >> 32 == high {
            j += 1;
        }
        let run = &mut rec[i..j];
        if run.len() > 1 && !run.is_sorted_by_key(|&r| full(r)) {
            run.sort_unstable_by_key(|&r| full(r));
        }
        i = j;
    }
    for (d, &r) in dst.iter_mut().zip(sb.rec.iter()) {
        *d = r as u32;
    }
}

/// The compiler's tree: for each node the box of its faces' vertices; the longest axis of the
/// box (`x` if no shorter than `y` and `z`, else `y` if no shorter than `z`, else `z`); the
/// faces ordered by centroid `(v1 + v2 + v3) / 3` (double precision) along it, ties by face
/// index; the first half (rounded down) goes left. Boxes are padded by [`PAD_MIN`] /
/// [`PAD_MAX`]. The plane names the axis along which the right child's box centre lies
/// farthest from the left child's, with its sign (`1/2/4` positive, `8/16/32` negative); when
/// the two boxes coincide, the split axis.
pub fn build_median_split(mesh: &Mesh) -> Vec<AabbNode> {
    let mut out = Vec::new();
    median_into(&mut MedianScratch::default(), mesh, &mut out);
    out
}

/// [`build_median_split`] into `out`, with the working memory of `s`.
///
/// Nodes of at least [`LARGE`] faces select their median over their faces kept in face order
/// ([`large_node`]), on two threads below the root. Below that size a node owns a range of
/// three face lists, sorted along each axis some ancestor (or the node itself, when it first
/// needs the axis) has sorted them by `(key, face)`; its left child's faces are the first half
/// of its range along the split axis, and the other sorted lists are partitioned stably by
/// comparing each face with the median, so every child range stays sorted
/// ([`median_node`]). Nothing is allocated per node.
pub(super) fn median_into(s: &mut MedianScratch, mesh: &Mesh, out: &mut Vec<AabbNode>) {
    let n = mesh.faces.len();
    if n == 0 {
        out.clear();
        return;
    }
    let threads = threads_for(n);
    let bx = sized(&mut s.bx, n);
    let [kx, ky, kz] = &mut s.key;
    let (kx, ky, kz) = (sized(kx, n), sized(ky, n), sized(kz, n));
    let chunk = n.div_ceil(threads);
    if threads <= 1 {
        fill_median(mesh, 0, kx, ky, kz, bx);
    } else {
        std::thread::scope(|sc| {
            for (c, (((x, y), z), b)) in kx
                .chunks_mut(chunk)
                .zip(ky.chunks_mut(chunk))
                .zip(kz.chunks_mut(chunk))
                .zip(bx.chunks_mut(chunk))
                .enumerate()
            {
                sc.spawn(move || fill_median(mesh, c * chunk, x, y, z, b));
            }
        });
    }
    let [lx, ly, lz] = &mut s.list;
    let (lx, ly, lz) = (sized(lx, n), sized(ly, n), sized(lz, n));
    let total = 2 * n - 1;
    // Every node is written below; a reused vector of the same size is not touched here.
    out.resize(total, LEAF);
    let t = MedianTables {
        bx,
        key: [kx, ky, kz],
    };
    let u = union_all(bx);
    s.sort
        .resize_with(threads.max(s.sort.len()), SortBuf::default);
    let sb = &mut s.sort[..threads];
    if n >= LARGE {
        let fo = sized(&mut s.forder, n);
        for (i, f) in fo.iter_mut().enumerate() {
            *f = i as u32;
        }
        let node = LargeNode {
            fo,
            lists: [lx, ly, lz],
            out: &mut out[..total],
            base: 0,
        };
        large_node(&t, node, sb, u, threads);
    } else {
        for (i, f) in lx.iter_mut().enumerate() {
            *f = i as u32;
        }
        let mut node = MedianNode {
            lists: [lx, ly, lz],
            valid: 0,
            out: &mut out[..total],
            base: 0,
        };
        median_node(&t, &mut node, &mut sb[0], u);
    }
}

/// The union of all boxes.
fn union_all(bx: &[Union]) -> Union {
    bx.iter().fold([f32::INFINITY; 6], |u, b| {
        std::array::from_fn(|k| if b[k] < u[k] { b[k] } else { u[k] })
    })
}

/// A placeholder node.
const LEAF: AabbNode = AabbNode {
    min: [0.0; 3],
    max: [0.0; 3],
    face: -1,
    plane: 0,
    left: NO_CHILD,
    right: NO_CHILD,
};

/// The per-face tables of a median-split build.
struct MedianTables<'a> {
    bx: &'a [Union],
    key: [&'a [u64]; 3],
}

/// What one node of the median-split builder owns.
struct MedianNode<'a> {
    /// The node's faces sorted along each axis whose bit is set in `valid` (the others hold
    /// garbage; with no bit set, `lists[0]` holds the faces in face order).
    lists: Lists<'a>,
    valid: u8,
    /// Exactly the subtree's `2n - 1` nodes, the first being node `base` of the tree.
    out: &'a mut [AabbNode],
    base: u32,
}

/// Nodes of at least this many faces are built by [`large_node`]: their tables do not fit in
/// a core's cache. (Only they are split between threads: [`PARALLEL_SPLIT`] is no smaller.)
const LARGE: usize = 1 << 15;

/// The union of the boxes of `faces`.
#[inline]
fn union(bx: &[Union], faces: &[u32]) -> Union {
    // Two accumulators (even and odd positions) halve the dependency chains.
    let mut u = [[f32::INFINITY; 6]; 2];
    let mut pairs = faces.chunks_exact(2);
    for p in &mut pairs {
        for (acc, &f) in u.iter_mut().zip(p) {
            let b = &bx[f as usize];
            for k in 0..6 {
                // No NaN here; the sign of a zero is lost to the padding.
                acc[k] = if b[k] < acc[k] { b[k] } else { acc[k] };
            }
        }
    }
    for &f in pairs.remainder() {
        let b = &bx[f as usize];
        for k in 0..6 {
            u[0][k] = if b[k] < u[0][k] { b[k] } else { u[0][k] };
        }
    }
    let [a, b] = u;
    std::array::from_fn(|k| if b[k] < a[k] { b[k] } else { a[k] })
}

/// The compiler's split axis, the longest side of the box: `x` if no shorter than `y` and `z`,
/// else `y` if no shorter than `z`, else `z`.
#[inline]
fn longest_axis(u: &Union) -> usize {
    let ext = [-u[3] - u[0], -u[4] - u[1], -u[5] - u[2]];
    if ext[0] >= ext[1] && ext[0] >= ext[2] {
        0
    } else if ext[1] >= ext[2] {
        1
    } else {
        2
    }
}

/// Padded box from a union.
#[inline]
fn padded(u: &Union) -> ([f32; 3], [f32; 3]) {
    (
        [u[0] - PAD_MIN, u[1] - PAD_MIN, u[2] - PAD_MIN],
        [-u[3] + PAD_MAX, -u[4] + PAD_MAX, -u[5] + PAD_MAX],
    )
}

/// Moves the faces of `list` for which `left` holds to the front, keeping the order on both
/// sides (`left` sees every face once, in order), and returns how many there are. `tmp` must
/// be longer than the number of faces that go right (as long as `list` always is).
#[inline]
fn stable_partition(list: &mut [u32], tmp: &mut [u32], mut left: impl FnMut(u32) -> bool) -> usize {
    let (mut l, mut r) = (0usize, 0usize);
    for i in 0..list.len() {
        let f = list[i];
        let go_left = left(f);
        // `l <= i`: a left face never overwrites one not yet read. A face going right lands
        // in a slot a later face overwrites (or, past the left ones, one the copy below
        // fills).
        list[l] = f;
        tmp[r] = f;
        l += usize::from(go_left);
        r += usize::from(!go_left);
    }
    list[l..].copy_from_slice(&tmp[..r]);
    l
}

/// Moves the faces of `list` that order before `pivot` along the split axis (`key`) to the
/// front (the first `mid`), keeping the order on both sides.
#[inline]
fn partition(list: &mut [u32], tmp: &mut Vec<u32>, key: &[u64], pivot: u128, mid: usize) {
    let tmp = sized(tmp, list.len() - mid + 1);
    let l = stable_partition(list, tmp, |f| order_key(key, f) < pivot);
    debug_assert_eq!(l, mid);
}

/// The order key (see [`order_key`]) of the face at position `mid` when the faces of `fo` are
/// ordered along the axis of `key` (Floyd and Rivest's selection): two pivots taken from a
/// random sample bracket it, one pass counts the faces below them and keeps the keys in
/// between, and only those are selected from. The pass reads the keys in the order of `fo`.
fn median_key(key: &[u64], fo: &[u32], mid: usize, sb: &mut SortBuf) -> u128 {
    let n = fo.len();
    // About n^(2/3) / 2 samples at positions from a fixed-seed generator (the result does not
    // depend on them, only the speed).
    let s = ((n as f64).powf(2.0 / 3.0) as usize / 2).max(32);
    let mut rng = 0x9e37_79b9_7f4a_7c15u64 ^ n as u64;
    let sample = &mut sb.small;
    sample.clear();
    for _ in 0..s {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let j = ((rng >> 32) as usize * n) >> 32;
        sample.push(order_key(key, fo[j]));
    }
    sample.sort_unstable();
    // Pivot ranks about two standard deviations of the sample median's rank apart.
    let r = mid * s / n;
    let d = s.isqrt() + 2;
    let p1 = if r >= d { sample[r - d] } else { 0 };
    let p2 = if r + d < s { sample[r + d] } else { u128::MAX };
    // Room for four times the expected number of keys between the pivots.
    let cap = (8 * d + 4) * n / s + 64;
    if let Some(k) = select_between(key, fo, mid, (p1, p2), cap, sample) {
        return k;
    }
    // The pivots missed (unlikely): select among all.
    sample.clear();
    sample.extend(fo.iter().map(|&f| order_key(key, f)));
    *sample.select_nth_unstable(mid).1
}

/// The order key at position `mid` of the faces of `fo`, if it lies between the pivots
/// (inclusive) and at most `cap - 1` keys do; one pass counts the keys below the pivots and
/// keeps those between them in `buf`.
fn select_between(
    key: &[u64],
    fo: &[u32],
    mid: usize,
    (p1, p2): (u128, u128),
    cap: usize,
    buf: &mut Vec<u128>,
) -> Option<u128> {
    let between = sized(buf, cap.max(1));
    let last = between.len() - 1;
    let (mut below, mut m) = (0usize, 0usize);
    for &f in fo {
        let k = order_key(key, f);
        below += usize::from(k < p1);
        // A key outside the pivots lands in the next free slot, which the next key in
        // between overwrites.
        between[m.min(last)] = k;
        m += usize::from(k >= p1 && k <= p2);
    }
    if m <= last && below <= mid && mid < below + m {
        let (_, k, _) = between[..m].select_nth_unstable(mid - below);
        return Some(*k);
    }
    None
}

/// Moves the faces of `list` that order before `pivot` along the split axis (`key`) to the
/// front (the first `mid`), keeping the order on both sides, and returns the unions of both
/// sides' boxes (read in the order of `list`).
fn partition_union(
    list: &mut [u32],
    tmp: &mut Vec<u32>,
    key: &[u64],
    pivot: u128,
    mid: usize,
    bx: &[Union],
) -> (Union, Union) {
    let tmp = sized(tmp, list.len() - mid + 1);
    let mut u = [[f32::INFINITY; 6]; 2];
    let l = stable_partition(list, tmp, |f| {
        let left = order_key(key, f) < pivot;
        let b = &bx[f as usize];
        // In face order, faces on one side come in runs: the branch is predictable.
        let acc = if left { &mut u[0] } else { &mut u[1] };
        for k in 0..6 {
            acc[k] = if b[k] < acc[k] { b[k] } else { acc[k] };
        }
        left
    });
    debug_assert_eq!(l, mid);
    (u[0], u[1])
}

/// An internal node of the compiler's tree: its padded box `(pmin, pmax)`, its children's
/// padded boxes (for the plane), its index `base` and its right child's `right`.
#[inline]
fn internal_node(
    (pmin, pmax): ([f32; 3], [f32; 3]),
    l: ([f32; 3], [f32; 3]),
    r: ([f32; 3], [f32; 3]),
    axis: usize,
    base: u32,
    right: u32,
) -> AabbNode {
    AabbNode {
        min: pmin,
        max: pmax,
        face: -1,
        plane: child_plane(l, r, axis),
        left: base + 1,
        right,
    }
}

/// A node's ranges of the three face lists.
type Lists<'a> = [&'a mut [u32]; 3];

/// Splits each of three lists at `mid`: the left parts and the right parts.
fn split_lists(lists: Lists<'_>, mid: usize) -> (Lists<'_>, Lists<'_>) {
    let [l0, l1, l2] = lists;
    let ((a0, b0), (a1, b1), (a2, b2)) = (
        l0.split_at_mut(mid),
        l1.split_at_mut(mid),
        l2.split_at_mut(mid),
    );
    ([a0, a1, a2], [b0, b1, b2])
}

/// What a node of at least [`LARGE`] faces owns: its faces in face order (`fo`), its ranges
/// of the three lists (unsorted; handed down to the children that are not large), its range
/// of the output and its index `base` in the tree.
struct LargeNode<'a> {
    fo: &'a mut [u32],
    lists: Lists<'a>,
    out: &'a mut [AabbNode],
    base: u32,
}

/// Builds the subtree of a node of at least [`LARGE`] faces (the union of whose boxes is
/// `u`): its split is found by selection over its faces in face order, so its tables (which
/// do not fit in a core's cache) are read in memory order; nothing is sorted at this size.
fn large_node(t: &MedianTables, node: LargeNode, sb: &mut [SortBuf], u: Union, threads: usize) {
    let LargeNode {
        fo,
        lists,
        out,
        base,
    } = node;
    let n = fo.len();
    let (pmin, pmax) = padded(&u);
    let axis = longest_axis(&u);
    let key = t.key[axis];
    let mid = n / 2;
    let pivot = median_key(key, fo, mid, &mut sb[0]);
    let (lu, ru) = partition_union(fo, &mut sb[0].right, key, pivot, mid, t.bx);
    let rbase = base + 2 * mid as u32;
    out[0] = internal_node((pmin, pmax), padded(&lu), padded(&ru), axis, base, rbase);
    let (lo, ro) = out[1..].split_at_mut(2 * mid - 1);
    let (fl, fr) = fo.split_at_mut(mid);
    let (ll, rl) = split_lists(lists, mid);
    let left = LargeNode {
        fo: fl,
        lists: ll,
        out: lo,
        base: base + 1,
    };
    let right = LargeNode {
        fo: fr,
        lists: rl,
        out: ro,
        base: rbase,
    };
    if threads > 1 && n - mid >= PARALLEL_SPLIT {
        let (sl, sr) = sb.split_at_mut(threads / 2);
        join(
            || large_child(t, left, sl, lu, threads / 2),
            || large_child(t, right, sr, ru, threads - threads / 2),
        );
    } else {
        large_child(t, left, sb, lu, threads);
        large_child(t, right, sb, ru, threads);
    }
}

/// A child of a large node: large too, or the root of a subtree built from sorted lists.
fn large_child(t: &MedianTables, node: LargeNode, sb: &mut [SortBuf], u: Union, threads: usize) {
    if node.fo.len() >= LARGE {
        return large_node(t, node, sb, u, threads);
    }
    let LargeNode {
        fo,
        lists,
        out,
        base,
    } = node;
    lists[0].copy_from_slice(fo);
    let mut node = MedianNode {
        lists,
        valid: 0,
        out,
        base,
    };
    median_node(t, &mut node, &mut sb[0], u);
}

/// Builds the subtree of the node's faces (fewer than [`LARGE`]; the union of whose boxes is
/// `u`) in pre-order into `node.out`, on this thread.
///
/// A node sorts its faces along its split axis unless an ancestor has (the lists stay sorted
/// through stable partitions), so an axis no node splits along (`z` in a flat area) is only
/// sorted for the small subtrees that use it.
fn median_node(t: &MedianTables, node: &mut MedianNode, sb: &mut SortBuf, u: Union) {
    let n = node.lists[0].len();
    let (pmin, pmax) = padded(&u);
    let src = if node.valid == 0 {
        0
    } else {
        node.valid.trailing_zeros() as usize
    };
    if n == 1 {
        node.out[0] = AabbNode {
            min: pmin,
            max: pmax,
            face: node.lists[src][0] as i32,
            ..LEAF
        };
        return;
    }
    let axis = longest_axis(&u);
    let base = node.base;
    let mid = n / 2;
    if n == 2 {
        // Two leaves, in order along the axis.
        let (f, g) = (node.lists[src][0], node.lists[src][1]);
        let key = t.key[axis];
        let (f, g) = if order_key(key, f) < order_key(key, g) {
            (f, g)
        } else {
            (g, f)
        };
        let (lp, rp) = (padded(&t.bx[f as usize]), padded(&t.bx[g as usize]));
        node.out[0] = internal_node((pmin, pmax), lp, rp, axis, base, base + 2);
        node.out[1] = AabbNode {
            min: lp.0,
            max: lp.1,
            face: f as i32,
            ..LEAF
        };
        node.out[2] = AabbNode {
            min: rp.0,
            max: rp.1,
            face: g as i32,
            ..LEAF
        };
        return;
    }
    let bit = 1u8 << axis;
    if node.valid & bit == 0 {
        if src == axis {
            // Only at the root: `lists[0]` in face order, sorted in place.
            sort_faces(t.key[axis], None, node.lists[axis], sb);
        } else {
            let [l0, l1, l2] = &mut node.lists;
            let (s, d): (&[u32], &mut [u32]) = match (src, axis) {
                (0, 1) => (l0, l1),
                (0, 2) => (l0, l2),
                (1, 0) => (l1, l0),
                (1, 2) => (l1, l2),
                (2, 0) => (l2, l0),
                _ => (l2, l1),
            };
            sort_faces(t.key[axis], Some(s), d, sb);
        }
        node.valid |= bit;
    }
    let split = &*node.lists[axis];
    let lu = union(t.bx, &split[..mid]);
    let ru = union(t.bx, &split[mid..]);
    let pivot = order_key(t.key[axis], split[mid]);
    for k in 0..3 {
        if k != axis && node.valid & (1 << k) != 0 {
            partition(node.lists[k], &mut sb.right, t.key[axis], pivot, mid);
        }
    }
    // The left subtree holds `2 * mid - 1` nodes.
    let rbase = base + 2 * mid as u32;
    node.out[0] = internal_node((pmin, pmax), padded(&lu), padded(&ru), axis, base, rbase);
    let valid = node.valid;
    let (ll, rl) = split_lists(std::mem::take(&mut node.lists), mid);
    let (lo, ro) = std::mem::take(&mut node.out)[1..].split_at_mut(2 * mid - 1);
    let mut left = MedianNode {
        lists: ll,
        valid,
        out: lo,
        base: base + 1,
    };
    let mut right = MedianNode {
        lists: rl,
        valid,
        out: ro,
        base: rbase,
    };
    median_node(t, &mut left, sb, lu);
    median_node(t, &mut right, sb, ru);
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

/// Per-face record of the mean-split builder: centroid, box (`f32::min` / `f32::max` of the
/// corners; the output is unpadded, so unions keep the reference's operations and order).
#[derive(Clone, Copy, Default)]
struct MeanFace {
    c: [f64; 3],
    min: [f32; 3],
    max: [f32; 3],
}

/// Fills the mean-split records of faces `first..` (one chunk).
fn fill_mean(mesh: &Mesh, first: usize, recs: &mut [MeanFace]) {
    for (i, r) in recs.iter_mut().enumerate() {
        let t = tri(mesh, first + i);
        let (min, max) = tri_box(&t);
        *r = MeanFace {
            c: centroid(&t),
            min,
            max,
        };
    }
}

/// Box and centroid sum of a run of faces, accumulated in face order like the reference.
#[derive(Clone, Copy)]
struct MeanAcc {
    min: [f32; 3],
    max: [f32; 3],
    sum: [f64; 3],
}

impl MeanAcc {
    const EMPTY: MeanAcc = MeanAcc {
        min: [f32::INFINITY; 3],
        max: [f32::NEG_INFINITY; 3],
        sum: [0.0; 3],
    };

    #[inline]
    fn add(&mut self, r: &MeanFace) {
        for k in 0..3 {
            self.min[k] = if r.min[k] < self.min[k] {
                r.min[k]
            } else {
                self.min[k]
            };
            self.max[k] = if r.max[k] > self.max[k] {
                r.max[k]
            } else {
                self.max[k]
            };
            self.sum[k] += r.c[k];
        }
    }
}

fn mean_acc(recs: &[MeanFace], faces: &[u32]) -> MeanAcc {
    let mut a = MeanAcc::EMPTY;
    for &f in faces {
        a.add(&recs[f as usize]);
    }
    a
}

/// Working memory of the mean-split builder, kept between builds by [`super::TreeBuilder`].
#[derive(Default)]
pub(super) struct MeanScratch {
    recs: Vec<MeanFace>,
    faces: Vec<u32>,
    spare: Vec<u32>,
}

/// PyKotor's tree (the writer of most community walkmeshes).
///
/// Each node splits its faces by comparing their centroids with the mean centroid along the
/// longest side of the node's box (`y` if longer than `x`, then `z` if longer than `y`), trying
/// the next axis when all centroids fall on one side; when no axis separates them the faces
/// are split in half in face order, so every face always gets its leaf.
pub fn build_mean_split(mesh: &Mesh) -> Vec<AabbNode> {
    let mut out = Vec::new();
    mean_into(&mut MeanScratch::default(), mesh, &mut out);
    out
}

/// [`build_mean_split`] into `out`, with the working memory of `s`.
pub(super) fn mean_into(s: &mut MeanScratch, mesh: &Mesh, out: &mut Vec<AabbNode>) {
    let n = mesh.faces.len();
    if n == 0 {
        out.clear();
        return;
    }
    let threads = threads_for(n);
    let recs = sized(&mut s.recs, n);
    let chunk = n.div_ceil(threads);
    if threads <= 1 {
        fill_mean(mesh, 0, recs);
    } else {
        std::thread::scope(|sc| {
            for (i, r) in recs.chunks_mut(chunk).enumerate() {
                sc.spawn(move || fill_mean(mesh, i * chunk, r));
            }
        });
    }
    let faces = sized(&mut s.faces, n);
    for (i, f) in faces.iter_mut().enumerate() {
        *f = i as u32;
    }
    let spare = sized(&mut s.spare, n);
    let total = 2 * n - 1;
    out.resize(total, LEAF);
    let acc = mean_acc(recs, faces);
    mean_node(recs, faces, spare, &mut out[..total], 0, acc, threads);
}

/// Builds the subtree of `faces` (in face order; `acc` their box and centroid sum) in
/// pre-order into `out` (exactly its `2n - 1` nodes, the first being node `base` of the whole
/// tree), on up to `threads` threads. Splits are stable, so every node's faces stay in face
/// order and the sums add in the reference's order.
fn mean_node(
    recs: &[MeanFace],
    faces: &mut [u32],
    spare: &mut [u32],
    out: &mut [AabbNode],
    base: u32,
    acc: MeanAcc,
    threads: usize,
) {
    let MeanAcc { min, max, sum } = acc;
    let n = faces.len();
    if n == 1 {
        out[0] = AabbNode {
            min,
            max,
            face: faces[0] as i32,
            ..LEAF
        };
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
    let mut split = None;
    for _ in 0..3 {
        let m = mean[axis];
        // One pass: faces below the mean move to the front, and both sides' boxes and sums
        // accumulate in face order. When all fall on one side, the list comes back unchanged.
        let mut accs = [MeanAcc::EMPTY; 2];
        let l = stable_partition(faces, spare, |f| {
            let rec = &recs[f as usize];
            let lt = rec.c[axis] < m;
            accs[usize::from(!lt)].add(rec);
            lt
        });
        if l > 0 && l < n {
            split = Some((l, accs[0], accs[1]));
            break;
        }
        axis = (axis + 1) % 3;
    }
    let (mid, la, ra) = split.unwrap_or_else(|| {
        let mid = n / 2;
        (
            mid,
            mean_acc(recs, &faces[..mid]),
            mean_acc(recs, &faces[mid..]),
        )
    });
    let rbase = base + 2 * mid as u32;
    out[0] = AabbNode {
        min,
        max,
        face: -1,
        plane: plane_code(axis),
        left: base + 1,
        right: rbase,
    };
    let (lo, ro) = out[1..].split_at_mut(2 * mid - 1);
    let (lf, rf) = faces.split_at_mut(mid);
    let (ls, rs) = spare.split_at_mut(mid);
    if threads > 1 && mid.min(n - mid) >= PARALLEL_SPLIT {
        join(
            || mean_node(recs, lf, ls, lo, base + 1, la, threads / 2),
            || mean_node(recs, rf, rs, ro, rbase, ra, threads - threads / 2),
        );
    } else {
        // One after the other; either may still split its own subtree between threads.
        mean_node(recs, lf, ls, lo, base + 1, la, threads);
        mean_node(recs, rf, rs, ro, rbase, ra, threads);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys with many repeats and faces in a shuffled order.
    fn keys_and_faces(n: usize, seed: u64) -> (Vec<u64>, Vec<u32>) {
        let mut s = seed | 1;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let keys = (0..n).map(|_| next() % (n as u64 / 3 + 2)).collect();
        let mut faces: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            faces.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        (keys, faces)
    }

    fn sorted_keys(keys: &[u64], faces: &[u32]) -> Vec<u128> {
        let mut all: Vec<u128> = faces.iter().map(|&f| order_key(keys, f)).collect();
        all.sort_unstable();
        all
    }

    #[test]
    fn median_key_is_the_sorted_median() {
        let mut sb = SortBuf::default();
        for (n, seed) in [(1, 3), (2, 5), (7, 9), (100, 11), (5_000, 13), (40_000, 17)] {
            let (keys, faces) = keys_and_faces(n, seed);
            let all = sorted_keys(&keys, &faces);
            for mid in [0, n / 2, n - 1] {
                assert_eq!(
                    median_key(&keys, &faces, mid, &mut sb),
                    all[mid],
                    "n {n} mid {mid}"
                );
            }
        }
    }

    #[test]
    fn pivots_that_miss_or_overflow_give_none() {
        let mut buf = Vec::new();
        let (keys, faces) = keys_and_faces(1_000, 23);
        let all = sorted_keys(&keys, &faces);
        let mid = 500;
        // Bracketing pivots: found.
        let hit = select_between(&keys, &faces, mid, (all[400], all[600]), 1_000, &mut buf);
        assert_eq!(hit, Some(all[mid]));
        // Both pivots above or below the median, or too little room: not found.
        assert_eq!(
            select_between(&keys, &faces, mid, (all[501], all[900]), 1_000, &mut buf),
            None
        );
        assert_eq!(
            select_between(&keys, &faces, mid, (all[10], all[499]), 1_000, &mut buf),
            None
        );
        assert_eq!(
            select_between(&keys, &faces, mid, (all[400], all[600]), 150, &mut buf),
            None
        );
        // Exactly enough room (201 keys between, one spare slot).
        let fit = select_between(&keys, &faces, mid, (all[400], all[600]), 202, &mut buf);
        assert_eq!(fit, Some(all[mid]));
    }
}
