//! Building the corner graph: a sweep from every corner (on all cores), each giving the
//! corner's edges and, per polygon it looks into, whether it sees the polygon whole or in part
//! (the sight lists).

use super::{CornerGraph, MAX_SIGHTS, NO_WALLS, SEES_WHOLE};
use crate::nav::mesh::{NO_TRIANGLE, NavMesh, cross2, plan};
use crate::nav::poly::{NO_POLYGON, Polygons};
use crate::nav::search::polyanya;
use crate::nav::search::pool::{COLLINEAR, FINAL, Pool};

/// [`CornerGraph::build_with`].
pub(super) fn build(mesh: &NavMesh, pl: &Polygons, want_sights: bool) -> Option<CornerGraph> {
    let nv = mesh.vertices.len();
    // Per vertex, the polygons with it as a corner.
    let mut around_first = vec![0u32; nv + 1];
    for p in 0..pl.count() as u32 {
        for &v in pl.corners(p) {
            around_first[v as usize + 1] += 1;
        }
    }
    for v in 0..nv {
        around_first[v + 1] += around_first[v];
    }
    let mut fill = around_first.clone();
    let mut around = vec![NO_POLYGON; around_first[nv] as usize];
    for p in 0..pl.count() as u32 {
        for &v in pl.corners(p) {
            around[fill[v as usize] as usize] = p;
            fill[v as usize] += 1;
        }
    }
    drop(fill);
    let around = Around {
        first: around_first,
        polys: around,
    };
    let walls = walls(mesh);
    let wl = &walls;
    let np = if want_sights { pl.count() } else { 0 };
    // Directed: per corner, its sorted distinct targets with distances. The vertices are
    // swept in blocks on all cores (thread `i` takes every `threads`-th block, so that
    // crowded and empty stretches spread evenly), each thread with its own searcher.
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(16);
    let block = (nv / (threads * 16)).max(1024);
    let nblocks = nv.div_ceil(block);
    // Each thread also gathers its sight lists' `(polygon, corner)` pairs (at most
    // MAX_SIGHTS per polygon).
    let (mut parts, sights) = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                let around = &around;
                scope.spawn(move || {
                    let mut sights = want_sights.then(|| SightPairs::new(np));
                    let blocks = (i..nblocks)
                        .step_by(threads)
                        .map(|b| {
                            let r = b * block..((b + 1) * block).min(nv);
                            (b, sweep_block((mesh, pl), around, wl, r, sights.as_mut()))
                        })
                        .collect::<Vec<_>>();
                    (blocks, sights)
                })
            })
            .collect();
        let mut all = Vec::with_capacity(nblocks);
        let mut sights = SightPairs::new(np);
        for h in handles {
            let (blocks, s) = h.join().ok()?;
            all.extend(blocks);
            if let Some(s) = s {
                sights.merge(s);
            }
        }
        Some((all, sights))
    })?;
    parts.sort_unstable_by_key(|p| p.0);
    let mut first = Vec::with_capacity(nv + 1);
    let total = parts.iter().map(|p| p.1.to.len()).sum();
    let mut to = Vec::with_capacity(total);
    let mut len = Vec::with_capacity(total);
    for (_, b) in parts {
        let base = to.len() as u32;
        first.extend(b.first.iter().map(|&f| f + base));
        to.extend(b.to);
        len.extend(b.len);
    }
    first.push(to.len() as u32);
    to.shrink_to_fit();
    len.shrink_to_fit();
    let (sight_first, sights, sight_over) = if want_sights {
        sights.lists()
    } else {
        Default::default()
    };
    Some(CornerGraph {
        mesh: mesh.id(),
        first,
        to,
        len,
        walls,
        sight_first,
        sights,
        sight_over,
    })
}

/// Per vertex: the far ends of its wall into it and its wall out of it (boundary edges of
/// triangles with plan area, which have the ground on their left), where it has exactly one of
/// each and the plan angles round it (the triangles' and the obstacle's between the walls) add
/// up to one turn; else [`NO_WALLS`] (a pinched vertex, ground overlapping itself round the
/// vertex, or no wall).
fn walls(mesh: &NavMesh) -> Vec<[u32; 2]> {
    const MANY: u32 = u32::MAX - 1;
    let nv = mesh.vertices.len();
    let mut w = vec![NO_WALLS; nv];
    let set = |slot: &mut u32, x: u32| *slot = if *slot == u32::MAX { x } else { MANY };
    for (t, tri) in mesh.tris.iter().enumerate() {
        if mesh.is_flat(t as u32) {
            continue;
        }
        for k in 0..3 {
            if mesh.links[t][k] == NO_TRIANGLE {
                let (a, b) = (tri[k], tri[(k + 1) % 3]);
                set(&mut w[a as usize][1], b);
                set(&mut w[b as usize][0], a);
            }
        }
    }
    let pos = |x: u32| mesh.vertices[x as usize].truncate().as_dvec2();
    let angle = |o: glam::DVec2, a: glam::DVec2, b: glam::DVec2| {
        let (a, b) = (a - o, b - o);
        // Counter-clockwise from a to b, in [0, 2π).
        let t = a.perp_dot(b).atan2(a.dot(b));
        if t < 0.0 {
            t + std::f64::consts::TAU
        } else {
            t
        }
    };
    let mut turn = vec![0.0f64; nv];
    for v in 0..nv {
        let [p, n] = w[v];
        if p >= MANY || n >= MANY {
            w[v] = NO_WALLS;
        } else {
            let o = pos(v as u32);
            turn[v] = angle(o, pos(p), pos(n));
        }
    }
    for (t, tri) in mesh.tris.iter().enumerate() {
        if mesh.is_flat(t as u32) {
            continue;
        }
        for k in 0..3 {
            let v = tri[k] as usize;
            if w[v] != NO_WALLS {
                turn[v] += angle(pos(tri[k]), pos(tri[(k + 1) % 3]), pos(tri[(k + 2) % 3]));
            }
        }
    }
    for v in 0..nv {
        if w[v] != NO_WALLS && (turn[v] - std::f64::consts::TAU).abs() > 1e-6 {
            w[v] = NO_WALLS;
        }
    }
    w
}

/// One block's sweeps.
struct Block {
    /// Per vertex its first edge (counted from the block's start).
    first: Vec<u32>,
    /// Per edge its target and distance.
    to: Vec<u32>,
    len: Vec<f32>,
}

/// Whether vertex `v` has two walls ([`walls`]) that do not run straight through it: they
/// turn, or both leave it the same way (the tip of a crack, which paths turn round).
fn turning_corner(mesh: &NavMesh, walls: &[[u32; 2]], v: u32) -> bool {
    let [p, n] = walls[v as usize];
    if p == u32::MAX {
        return false;
    }
    let pos = |x: u32| plan(mesh.vertices[x as usize]);
    let (o, a, b) = (pos(v), pos(p), pos(n));
    let (u, w) = ([a[0] - o[0], a[1] - o[1]], [b[0] - o[0], b[1] - o[1]]);
    u[0] * w[1] - u[1] * w[0] != 0.0 || u[0] * w[0] + u[1] * w[1] > 0.0
}

/// The sweeps from the corners among vertices `range`: per vertex its first edge (counted from
/// the block's start), then the targets and distances; with `sights`, the sight lists'
/// `(polygon, corner)` pairs are added to it.
fn sweep_block(
    (mesh, polygons): (&NavMesh, &Polygons),
    around: &Around,
    walls: &[[u32; 2]],
    range: std::ops::Range<usize>,
    mut sights: Option<&mut SightPairs>,
) -> Block {
    let mut pool = Pool::default();
    let mut first = Vec::with_capacity(range.len());
    let mut to: Vec<u32> = Vec::new();
    let mut len: Vec<f32> = Vec::new();
    let mut row: Vec<(u32, f32)> = Vec::new();
    let mut covered: Vec<bool> = Vec::new();
    let mut mine: Vec<(u32, u32)> = Vec::new();
    for v in range {
        first.push(to.len() as u32);
        let polys = &around.polys[around.first[v] as usize..around.first[v + 1] as usize];
        if polys.is_empty() || !mesh.is_corner(v as u32) {
            continue;
        }
        // A sight list holds corners a path may turn at (a straight wall's vertices never
        // are); a corner sees the whole of each polygon it is a corner of (they are convex).
        let sighted =
            sights.is_some() && (walls[v] == NO_WALLS || turning_corner(mesh, walls, v as u32));
        mine.clear();
        if sighted {
            mine.extend(polys.iter().map(|&p| (p, 0)));
        }
        row.clear();
        // One sweep per wedge round the vertex (a sweep turns round the vertex through the
        // polygons that share its edges; a pinched vertex has several wedges).
        covered.clear();
        covered.resize(polys.len(), false);
        for i in 0..polys.len() {
            if covered[i] {
                continue;
            }
            polyanya::sweep_from(&mut pool, mesh, polygons, v as u32, polys[i]);
            row.extend(pool.events.iter().map(|&(w, d, _)| (w, d as f32)));
            covered[i] = true;
            if sighted {
                seen_whole(&mut pool, (mesh, polygons), v as u32, |p| mine.push((p, 0)));
            }
            for p in pool.nodes.iter().map(|n| n.cell) {
                if let Some(j) = polys.iter().position(|&q| q == p) {
                    covered[j] = true;
                }
                if sighted {
                    mine.push((p, 1));
                }
            }
        }
        if let Some(sights) = sights.as_deref_mut() {
            // Each polygon once, whole where any sweep saw it whole.
            mine.sort_unstable();
            mine.dedup_by_key(|e| e.0);
            for &(p, part) in &mine {
                sights.add(p, v as u32 | if part == 0 { SEES_WHOLE } else { 0 });
            }
        }
        row.sort_unstable_by_key(|e| e.0);
        row.dedup_by_key(|e| e.0);
        for &(w, d) in &row {
            to.push(w);
            len.push(d);
        }
    }
    Block { first, to, len }
}

/// A build thread's sight-list pairs `(polygon, corner)`, at most [`MAX_SIGHTS`] per polygon
/// (a count of [`SIGHTS_OVER`]: more were seen, and the polygon gets no list).
struct SightPairs {
    pairs: Vec<(u32, u32)>,
    count: Vec<u8>,
}

/// [`SightPairs::count`] of a polygon seen by too many corners.
const SIGHTS_OVER: u8 = MAX_SIGHTS as u8 + 1;

impl SightPairs {
    fn new(polygons: usize) -> Self {
        SightPairs {
            pairs: Vec::new(),
            count: vec![0; polygons],
        }
    }

    #[inline]
    fn add(&mut self, p: u32, c: u32) {
        let n = &mut self.count[p as usize];
        if usize::from(*n) < MAX_SIGHTS {
            *n += 1;
            self.pairs.push((p, c));
        } else {
            *n = SIGHTS_OVER;
        }
    }

    /// Takes in another thread's pairs (a polygon is over if over in either, or in both
    /// together).
    fn merge(&mut self, other: SightPairs) {
        for (n, m) in self.count.iter_mut().zip(&other.count) {
            let sum = usize::from(*n) + usize::from(*m);
            *n = if *n == SIGHTS_OVER || *m == SIGHTS_OVER || sum > MAX_SIGHTS {
                SIGHTS_OVER
            } else {
                sum as u8
            };
        }
        self.pairs.extend(other.pairs);
    }

    /// The lists: per polygon its corners in order (`first`, `corners`), and the polygons
    /// over the limit (bits), which get none.
    fn lists(self) -> (Vec<u32>, Vec<u32>, Vec<u64>) {
        let np = self.count.len();
        let mut over = vec![0u64; np.div_ceil(64)];
        let mut first = vec![0u32; np + 1];
        for (p, &n) in self.count.iter().enumerate() {
            if n == SIGHTS_OVER {
                over[p / 64] |= 1 << (p % 64);
            } else {
                first[p + 1] = u32::from(n);
            }
        }
        for p in 0..np {
            first[p + 1] += first[p];
        }
        let mut fill = first.clone();
        let mut corners = vec![0u32; first[np] as usize];
        for &(p, c) in &self.pairs {
            if self.count[p as usize] != SIGHTS_OVER {
                corners[fill[p as usize] as usize] = c;
                fill[p as usize] += 1;
            }
        }
        for p in 0..np {
            corners[first[p] as usize..first[p + 1] as usize]
                .sort_unstable_by_key(|&c| c & !SEES_WHOLE);
        }
        (first, corners, over)
    }
}

/// Per vertex, the polygons with it as a corner (`polys[first[v]..first[v + 1]]`).
struct Around {
    first: Vec<u32>,
    polys: Vec<u32>,
}

/// Whether `x` lies in the cone from `rp` between the rays through `r` and `l` (on them
/// included), exactly as the signs fall.
#[inline]
fn in_cone(rp: [f64; 2], l: [f64; 2], r: [f64; 2], x: [f64; 2]) -> bool {
    cross2(rp, r, x) >= 0.0 && cross2(rp, l, x) <= 0.0
}

/// Calls `f` with every polygon the last sweep (from vertex `v`) sees whole: one whose
/// corners' directions from `v` the cones of the nodes looking into it cover without a
/// gap (a convex polygon lies in any convex cone that holds its corners), or one a node
/// looks into along an edge from `v` itself. Polygons with `v` as a corner may be missing
/// (the sweep starts inside them).
fn seen_whole(
    pool: &mut Pool,
    (mesh, polygons): (&NavMesh, &Polygons),
    v: u32,
    mut f: impl FnMut(u32),
) {
    let ppos = |x: u32| plan(mesh.vertices[x as usize]);
    let rp = ppos(v);
    let mut by = std::mem::take(&mut pool.stack);
    by.clear();
    // First each node alone (most polygons are seen through one edge); the others are
    // grouped by polygon.
    for (i, n) in pool.nodes.iter().enumerate() {
        if n.flags & FINAL != 0 {
            continue;
        }
        let alone = n.flags & COLLINEAR != 0
            || polygons
                .corners(n.cell)
                .iter()
                .all(|&c| in_cone(rp, n.l, n.r, ppos(c)));
        if alone {
            f(n.cell);
        } else {
            by.push(i as u32);
        }
    }
    by.sort_unstable_by_key(|&i| pool.nodes[i as usize].cell);
    for group in by.chunk_by(|&a, &b| pool.nodes[a as usize].cell == pool.nodes[b as usize].cell) {
        if group.len() < 2 {
            continue;
        }
        let p = pool.nodes[group[0] as usize].cell;
        // The polygon's rightmost and leftmost corners seen from `v` (it lies on one side of
        // `v`, which is not one of its corners).
        let corners = polygons.corners(p);
        let mut lo = ppos(corners[0]);
        let mut hi = lo;
        for &c in &corners[1..] {
            let x = ppos(c);
            if cross2(rp, lo, x) < 0.0 {
                lo = x;
            }
            if cross2(rp, hi, x) > 0.0 {
                hi = x;
            }
        }
        // Walk the cones from `lo` leftwards until one holds `hi`.
        let mut d = lo;
        let whole = loop {
            let mut next: Option<[f64; 2]> = None;
            for &i in group {
                let n = &pool.nodes[i as usize];
                if in_cone(rp, n.l, n.r, d) && next.is_none_or(|m| cross2(rp, m, n.l) > 0.0) {
                    next = Some(n.l);
                }
            }
            let Some(l) = next else { break false };
            if cross2(rp, l, hi) <= 0.0 {
                break true;
            }
            if cross2(rp, d, l) <= 0.0 {
                break false;
            }
            d = l;
        };
        if whole {
            f(p);
        }
    }
    pool.stack = by;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_polygon_seen_by_too_many_corners_gets_no_list() {
        // Two build threads: polygon 0 seen by MAX_SIGHTS corners in all (a list), polygon 1
        // by one more than that (none), polygon 2 by more in one thread alone (none).
        let (mut a, mut b) = (SightPairs::new(4), SightPairs::new(4));
        let half = MAX_SIGHTS as u32 / 2;
        for c in 0..half {
            a.add(0, c | SEES_WHOLE);
            b.add(0, 1000 + c);
            a.add(1, c);
            b.add(1, 1000 + c);
        }
        b.add(1, 5000);
        for c in 0..=MAX_SIGHTS as u32 {
            a.add(2, c);
        }
        b.add(3, 7);
        a.merge(b);
        let (first, corners, over) = a.lists();
        let over_bit = |p: usize| over[p / 64] >> (p % 64) & 1 != 0;
        assert_eq!((first[1] - first[0]) as usize, MAX_SIGHTS);
        assert!(!over_bit(0) && over_bit(1) && over_bit(2) && !over_bit(3));
        assert_eq!(first[2], first[1]);
        assert_eq!(first[3], first[2]);
        assert_eq!(&corners[first[3] as usize..first[4] as usize], &[7]);
        // In corner order, the whole-sight mark kept.
        let l0 = &corners[..MAX_SIGHTS];
        assert!(
            l0.windows(2)
                .all(|w| w[0] & !SEES_WHOLE < w[1] & !SEES_WHOLE)
        );
        assert_eq!(
            l0.iter().filter(|&&c| c & SEES_WHOLE != 0).count(),
            half as usize
        );
    }
}
