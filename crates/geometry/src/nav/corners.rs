//! The corner graph: for every corner, the corners the optimal search may turn at next from
//! it, and their distances, precomputed once (optional, like [`super::landmarks`]).
//!
//! An optimal path turns only at corners ([`NavMesh::is_corner`]). The optimal search
//! ([`super::search`], Polyanya) reaches each turn from the one before by a *sweep*: the
//! intervals the previous turn sees, until a ray grazes a corner with ground beyond it, where
//! the path may turn. The graph holds exactly those turns, `v → w` when the sweep from `v`
//! turns at `w` (directed: along a wall with collinear corners the sweep from one end turns at
//! the far end and the sweep from there at the nearest corner, so keeping only pairs seen from
//! both ends, the classic tangent visibility graph, loses paths). A vertex whose walkable
//! wedges meet only at a point gets one sweep per wedge. A query then sweeps only from its
//! start and its goal and searches the graph between them ([`super::search`]'s corner search).
//!
//! The same sweeps give each polygon its *entries* for the fast mode: the corners (with edges
//! out and walls not on one line) that see the whole polygon, the nearest [`MAX_ENTRIES`] to
//! its centre. A fast
//! query searches the graph from the start polygon's entries to the goal polygon's without
//! sweeping ([`super::search`]).
//!
//! Distances are stored as `f32` (the route's length is measured again on its points).

use super::mesh::{NavMesh, plan};
use super::poly::NO_POLYGON;
use super::search::Searcher;

/// The turns of the optimal search between corners. See the [module docs](self).
#[derive(Debug, Clone, Default)]
pub struct CornerGraph {
    /// `first[v]..first[v + 1]`: the edges of vertex `v` in `to` and `len`.
    first: Vec<u32>,
    to: Vec<u32>,
    len: Vec<f32>,
    /// Per vertex: the far ends of its two walls (the boundary edge into it, the one out of
    /// it), where it has one wall each way and its triangles go round it once in plan; else
    /// [`NO_WALLS`]. See [`CornerGraph::taut`].
    walls: Vec<[u32; 2]>,
    /// `entry_first[p]..entry_first[p + 1]`: polygon `p`'s entries in `entries` (see
    /// [`CornerGraph::entries`]).
    entry_first: Vec<u32>,
    entries: Vec<u32>,
}

/// The most entries kept per polygon.
pub const MAX_ENTRIES: usize = 16;

/// [`CornerGraph`]'s `walls` of a vertex where turns are not filtered.
const NO_WALLS: [u32; 2] = [u32::MAX; 2];

impl CornerGraph {
    /// Sweeps from every corner of `mesh` and keeps the turns and the polygons' entries
    /// (`None` only if a worker thread failed).
    pub fn build(mesh: &NavMesh) -> Option<CornerGraph> {
        Self::build_with(mesh, true)
    }

    /// [`CornerGraph::build`], with the polygons' entries only if `entries` (without them
    /// every polygon has none).
    pub fn build_with(mesh: &NavMesh, want_entries: bool) -> Option<CornerGraph> {
        let nv = mesh.vertices.len();
        let pl = &mesh.poly;
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
        let centres = want_entries.then(|| centres(mesh));
        let centres = centres.as_deref();
        let wl = &walls;
        // Directed: per corner, its sorted distinct targets with distances. The vertices are
        // swept in blocks on all cores (thread `i` takes every `threads`-th block, so that
        // crowded and empty stretches spread evenly), each thread with its own searcher.
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(16);
        let block = (nv / (threads * 16)).max(1024);
        let nblocks = nv.div_ceil(block);
        // Each thread also gathers the `(polygon, corner)` pairs of whole sight for the
        // entries, reduced to the nearest per polygon whenever they grow past `seen_limit`.
        let (mut parts, seen) = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|i| {
                    let around = &around;
                    scope.spawn(move || {
                        let mut seen = Vec::new();
                        let blocks = (i..nblocks)
                            .step_by(threads)
                            .map(|b| {
                                let r = b * block..((b + 1) * block).min(nv);
                                (b, sweep_block(mesh, around, wl, r, centres, &mut seen))
                            })
                            .collect::<Vec<_>>();
                        (blocks, seen)
                    })
                })
                .collect();
            let mut all = Vec::with_capacity(nblocks);
            let mut seen: Vec<(u32, u32)> = Vec::new();
            for h in handles {
                let (blocks, s) = h.join().ok()?;
                all.extend(blocks);
                if let Some(c) = centres
                    && seen.len() + s.len() > seen_limit(c.len())
                {
                    keep_nearest(mesh, c, &mut seen);
                }
                seen.extend(s);
            }
            Some((all, seen))
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
        let (entry_first, entries) = match centres {
            Some(c) => entries(mesh, c, seen),
            None => (Vec::new(), Vec::new()),
        };
        Some(CornerGraph {
            first,
            to,
            len,
            walls,
            entry_first,
            entries,
        })
    }

    /// Whether the graph holds the polygons' entries ([`CornerGraph::build_with`]).
    pub fn has_entries(&self) -> bool {
        !self.entry_first.is_empty()
    }

    /// The entries of polygon `p`: corners that see the whole polygon, nearest first (at most
    /// [`MAX_ENTRIES`]).
    #[inline]
    pub fn entries(&self, p: u32) -> &[u32] {
        match (
            self.entry_first.get(p as usize),
            self.entry_first.get(p as usize + 1),
        ) {
            (Some(&a), Some(&b)) => &self.entries[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Whether a path that reaches corner `v` from `u` and goes on to `w` (plan positions) may
    /// be a shortest one: it must turn round the obstacle at `v`, that is, the walls at `v`
    /// lie in the angle between the two pieces (a path that turns away from them can be cut
    /// short beside `v`). Exact: every test is the sign of a product of differences of `f32`
    /// coordinates. True where `v`'s walls are not known ([`NO_WALLS`]) and for a path going
    /// straight on.
    #[inline]
    pub(crate) fn taut(&self, mesh: &NavMesh, v: u32, u: [f64; 2], w: [f64; 2]) -> bool {
        let [p, n] = self.walls[v as usize];
        if p == u32::MAX {
            return true;
        }
        let pos = |x: u32| plan(mesh.vertices[x as usize]);
        let o = pos(v);
        let rel = |a: [f64; 2]| [a[0] - o[0], a[1] - o[1]];
        let cross = |a: [f64; 2], b: [f64; 2]| a[0] * b[1] - a[1] * b[0];
        let (l1, l2) = (rel(u), rel(w));
        let s = cross(l1, l2);
        if s == 0.0 {
            return true;
        }
        // The angle between the pieces, counter-clockwise from `a` to `b` (under 180°).
        let (a, b) = if s > 0.0 { (l1, l2) } else { (l2, l1) };
        let inside = |x: [f64; 2]| cross(a, x) >= 0.0 && cross(x, b) >= 0.0;
        inside(rel(pos(p))) || inside(rel(pos(n)))
    }

    /// Number of directed edges.
    pub fn edge_count(&self) -> usize {
        self.to.len()
    }

    /// The edges of vertex `v`: target corners and distances.
    pub fn edges(&self, v: u32) -> (&[u32], &[f32]) {
        let r = self.range(v);
        (&self.to[r.clone()], &self.len[r])
    }

    #[inline]
    fn range(&self, v: u32) -> std::ops::Range<usize> {
        match (self.first.get(v as usize), self.first.get(v as usize + 1)) {
            (Some(&a), Some(&b)) => a as usize..b as usize,
            _ => 0..0,
        }
    }

    /// Number of edges of vertex `v`.
    #[inline]
    pub fn degree(&self, v: u32) -> usize {
        self.range(v).len()
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.first.capacity() * 4
            + self.to.capacity() * 4
            + self.len.capacity() * 4
            + self.walls.capacity() * 8
            + self.entry_first.capacity() * 4
            + self.entries.capacity() * 4
    }
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
            if mesh.links[t][k] == super::mesh::NO_TRIANGLE {
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

/// Whether vertex `v` has two walls ([`walls`]) that are not on one line.
fn turning_corner(mesh: &NavMesh, walls: &[[u32; 2]], v: u32) -> bool {
    let [p, n] = walls[v as usize];
    if p == u32::MAX {
        return false;
    }
    let pos = |x: u32| plan(mesh.vertices[x as usize]);
    let (o, a, b) = (pos(v), pos(p), pos(n));
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]) != 0.0
}

/// The plan centre of each polygon (the mean of its corners).
fn centres(mesh: &NavMesh) -> Vec<[f64; 2]> {
    let pl = &mesh.poly;
    (0..pl.count() as u32)
        .map(|p| {
            let c = pl.corners(p);
            let mut m = [0.0f64; 2];
            for &v in c {
                let q = plan(mesh.vertices[v as usize]);
                m = [m[0] + q[0], m[1] + q[1]];
            }
            let n = c.len().max(1) as f64;
            [m[0] / n, m[1] / n]
        })
        .collect()
}

/// Keeps of the `(polygon, corner)` pairs, per polygon, the [`MAX_ENTRIES`] distinct corners
/// nearest to its centre (ties: the lower vertex), grouped by polygon in order, nearest first.
/// The nearest of a union are the nearest of the parts' nearest, so a part may be reduced
/// early (which bounds the pairs a build holds).
fn keep_nearest(mesh: &NavMesh, centres: &[[f64; 2]], seen: &mut Vec<(u32, u32)>) {
    let np = centres.len();
    let mut start = vec![0u32; np + 1];
    for &(p, _) in seen.iter() {
        start[p as usize + 1] += 1;
    }
    for p in 0..np {
        start[p + 1] += start[p];
    }
    let mut fill = start.clone();
    let mut by = vec![0u32; seen.len()];
    for &(p, v) in seen.iter() {
        by[fill[p as usize] as usize] = v;
        fill[p as usize] += 1;
    }
    drop(fill);
    seen.clear();
    let mut row: Vec<(f64, u32)> = Vec::new();
    for (p, m) in centres.iter().enumerate() {
        row.clear();
        for &v in &by[start[p] as usize..start[p + 1] as usize] {
            let q = plan(mesh.vertices[v as usize]);
            let (dx, dy) = (q[0] - m[0], q[1] - m[1]);
            row.push(((dx * dx + dy * dy).sqrt(), v));
        }
        row.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        row.dedup_by_key(|e| e.1);
        seen.extend(row.iter().take(MAX_ENTRIES).map(|e| (p as u32, e.1)));
    }
}

/// A build thread reduces its pairs ([`keep_nearest`]) when it holds more than this many, or
/// than four times what the reduction keeps, whichever is more (so that each reduction at
/// least quarters them).
const SEEN_LIMIT: usize = 1 << 22;

/// [`SEEN_LIMIT`] for `polygons` polygons.
fn seen_limit(polygons: usize) -> usize {
    SEEN_LIMIT.max(4 * MAX_ENTRIES * polygons)
}

/// Per polygon its entries ([`CornerGraph::entries`]) from the `(polygon, corner)` pairs of
/// the sweeps.
fn entries(
    mesh: &NavMesh,
    centres: &[[f64; 2]],
    mut seen: Vec<(u32, u32)>,
) -> (Vec<u32>, Vec<u32>) {
    keep_nearest(mesh, centres, &mut seen);
    let np = centres.len();
    let mut first = Vec::with_capacity(np + 1);
    let mut out = Vec::with_capacity(seen.len());
    let mut i = 0;
    for p in 0..np as u32 {
        first.push(out.len() as u32);
        while i < seen.len() && seen[i].0 == p {
            out.push(seen[i].1);
            i += 1;
        }
    }
    first.push(out.len() as u32);
    (first, out)
}

/// The sweeps from the corners among vertices `range`: per vertex its first edge (counted from
/// the block's start), then the targets and distances; with `centres` (the entries wanted),
/// the `(polygon, corner)` pairs of whole sight are added to `seen`.
fn sweep_block(
    mesh: &NavMesh,
    around: &Around,
    walls: &[[u32; 2]],
    range: std::ops::Range<usize>,
    centres: Option<&[[f64; 2]]>,
    seen: &mut Vec<(u32, u32)>,
) -> Block {
    let mut searcher = Searcher::new();
    let mut first = Vec::with_capacity(range.len());
    let mut to: Vec<u32> = Vec::new();
    let mut len: Vec<f32> = Vec::new();
    let mut row: Vec<(u32, f32)> = Vec::new();
    let mut covered: Vec<bool> = Vec::new();
    for v in range {
        first.push(to.len() as u32);
        let polys = &around.polys[around.first[v] as usize..around.first[v + 1] as usize];
        if polys.is_empty() || !mesh.is_corner(v as u32) {
            continue;
        }
        // Entries are corners with walls that turn (a straight wall's vertices are corners
        // that sweeps hardly ever turn at, so they would be poor last corners) and with edges
        // out (kept below). A corner sees the whole of each polygon it is a corner of (they
        // are convex).
        if let Some(c) = centres
            && seen.len() > seen_limit(c.len())
        {
            keep_nearest(mesh, c, seen);
        }
        let at = seen.len();
        let entry = centres.filter(|_| turning_corner(mesh, walls, v as u32));
        if entry.is_some() {
            seen.extend(polys.iter().map(|&p| (p, v as u32)));
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
            row.extend(
                searcher
                    .sweep_from(mesh, v as u32, polys[i])
                    .iter()
                    .map(|&(w, d, _)| (w, d as f32)),
            );
            covered[i] = true;
            if entry.is_some() {
                searcher.seen_whole(mesh, v as u32, |p| seen.push((p, v as u32)));
            }
            searcher.swept_polygons(|p| {
                if let Some(j) = polys.iter().position(|&q| q == p) {
                    covered[j] = true;
                }
            });
        }
        if row.is_empty() {
            seen.truncate(at);
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

/// Per vertex, the polygons with it as a corner (`polys[first[v]..first[v + 1]]`).
struct Around {
    first: Vec<u32>,
    polys: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nav::Surface;
    use glam::Vec3;

    /// A 6 × 6 grid of unit squares with a 2 × 2 hole in the middle.
    fn holed_grid() -> NavMesh {
        let n = 6u32;
        let vertices = (0..=n)
            .flat_map(|j| (0..=n).map(move |i| Vec3::new(i as f32, j as f32, 0.0)))
            .collect();
        let id = |i: u32, j: u32| j * (n + 1) + i;
        let mut triangles = Vec::new();
        for j in 0..n {
            for i in 0..n {
                if (2..4).contains(&i) && (2..4).contains(&j) {
                    continue;
                }
                triangles.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
                triangles.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
        let regions = vec![0; triangles.len()];
        NavMesh::build(&Surface {
            vertices,
            triangles,
            regions,
        })
        .expect("valid grid")
    }

    #[test]
    fn keeping_the_nearest_early_changes_nothing() {
        let mesh = holed_grid();
        let c = centres(&mesh);
        let nv = mesh.vertices.len() as u32;
        // Every polygon with every vertex, twice (duplicates are dropped), in a scrambled order.
        let mut all: Vec<(u32, u32)> = (0..c.len() as u32)
            .flat_map(|p| (0..2 * nv).map(move |k| (p, (k * 5 + p) % nv)))
            .collect();
        all.reverse();
        let mut whole = all.clone();
        keep_nearest(&mesh, &c, &mut whole);
        let mut early = Vec::new();
        for chunk in all.chunks(37) {
            if early.len() > 50 {
                keep_nearest(&mesh, &c, &mut early);
            }
            early.extend_from_slice(chunk);
        }
        keep_nearest(&mesh, &c, &mut early);
        assert_eq!(whole, early);
        // At most MAX_ENTRIES distinct corners per polygon, nearest first.
        for p in 0..c.len() as u32 {
            let row: Vec<u32> = whole.iter().filter(|e| e.0 == p).map(|e| e.1).collect();
            assert_eq!(row.len(), MAX_ENTRIES.min(nv as usize), "polygon {p}");
            let d = |v: u32| {
                let q = plan(mesh.vertices[v as usize]);
                let m = c[p as usize];
                (q[0] - m[0]).hypot(q[1] - m[1])
            };
            assert!(row.windows(2).all(|w| d(w[0]) <= d(w[1]) && w[0] != w[1]));
        }
    }

    #[test]
    fn entries_see_their_polygons_and_are_left_out_on_request() {
        let mut mesh = holed_grid();
        mesh.build_corner_graph();
        let g = mesh.corner_graph().expect("graph");
        assert!(g.has_entries());
        let np = mesh.poly.count() as u32;
        // The hole's four corners are the only corners with turning walls; each polygon is
        // seen whole by at least one of them.
        for p in 0..np {
            let e = g.entries(p);
            assert!(!e.is_empty() && e.len() <= 4, "polygon {p}: {e:?}");
            assert!(e.iter().all(|&v| mesh.is_corner(v) && g.degree(v) > 0));
        }
        mesh.build_corner_graph_with(false);
        let g = mesh.corner_graph().expect("graph");
        assert!(!g.has_entries() && (0..np).all(|p| g.entries(p).is_empty()));
    }
}
