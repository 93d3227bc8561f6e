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
//! wedges meet only at a point gets one sweep per wedge. A query then searches the graph
//! between the corners its start sees and those its goal sees ([`super::search`]'s corner
//! search), found by sweeping from both or, with the sight lists below, without sweeping.
//!
//! The same sweeps give each polygon its *sight list*: the corners a path may turn at (walls
//! that turn, a crack's tip, or walls not known) that see some of the polygon, each marked where it sees the
//! whole polygon (exact cone geometry: the cones of the sweep's nodes that look into the
//! polygon cover it without a gap). A query reads its start's and goal's lists in place of the
//! two sweeps: a corner that sees the whole polygon sees the point, and one that sees part of
//! it is walked to (a straight walk through the triangles) only when the search would take
//! it ([`super::search`]'s sight search). A polygon seen by more than [`MAX_SIGHTS`] corners
//! has no list, and its queries sweep.
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
    /// `sight_first[p]..sight_first[p + 1]`: polygon `p`'s sight list in `sights` (see
    /// [`CornerGraph::sights`]), each corner with [`SEES_WHOLE`] where it sees all of `p`.
    sight_first: Vec<u32>,
    sights: Vec<u32>,
    /// Per polygon (bits): seen by more than [`MAX_SIGHTS`] corners, so without a list.
    sight_over: Vec<u64>,
}

/// The most corners in a polygon's sight list: a polygon seen by more has none (its queries
/// sweep instead), which bounds the lists at this many per polygon.
pub const MAX_SIGHTS: usize = 128;

/// In a sight list: the corner sees the whole polygon.
pub(crate) const SEES_WHOLE: u32 = 1 << 31;

/// [`CornerGraph`]'s `walls` of a vertex where turns are not filtered.
const NO_WALLS: [u32; 2] = [u32::MAX; 2];

impl CornerGraph {
    /// Sweeps from every corner of `mesh` and keeps the turns and the polygons' sight lists
    /// (`None` only if a worker thread failed).
    pub fn build(mesh: &NavMesh) -> Option<CornerGraph> {
        Self::build_with(mesh, true)
    }

    /// [`CornerGraph::build`], with the polygons' sight lists only if `sights` (without them
    /// every query sweeps from its start and goal).
    pub fn build_with(mesh: &NavMesh, want_sights: bool) -> Option<CornerGraph> {
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
                                (b, sweep_block(mesh, around, wl, r, sights.as_mut()))
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
            first,
            to,
            len,
            walls,
            sight_first,
            sights,
            sight_over,
        })
    }

    /// Whether the graph holds the polygons' sight lists ([`CornerGraph::build_with`]).
    pub fn has_sights(&self) -> bool {
        !self.sight_first.is_empty()
    }

    /// Polygon `p`'s sight list: the corners a path may turn at (module docs) that see
    /// some of it, each with [`SEES_WHOLE`] where it sees all of it; `None` where more than
    /// [`MAX_SIGHTS`] corners see it or the graph has no sight lists.
    #[inline]
    pub(crate) fn sight_list(&self, p: u32) -> Option<&[u32]> {
        let (a, b) = (
            *self.sight_first.get(p as usize)?,
            *self.sight_first.get(p as usize + 1)?,
        );
        let over = self.sight_over[p as usize / 64] >> (p % 64) & 1 != 0;
        (!over).then(|| &self.sights[a as usize..b as usize])
    }

    /// The corners that see polygon `p` (see the module docs), each with whether it sees the
    /// whole polygon; `None` where the graph holds no list for it.
    pub fn sights(&self, p: u32) -> Option<impl Iterator<Item = (u32, bool)> + '_> {
        self.sight_list(p)
            .map(|l| l.iter().map(|&c| (c & !SEES_WHOLE, c & SEES_WHOLE != 0)))
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
            + self.sight_first.capacity() * 4
            + self.sights.capacity() * 4
            + self.sight_over.capacity() * 8
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
    mesh: &NavMesh,
    around: &Around,
    walls: &[[u32; 2]],
    range: std::ops::Range<usize>,
    mut sights: Option<&mut SightPairs>,
) -> Block {
    let mut searcher = Searcher::new();
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
            row.extend(
                searcher
                    .sweep_from(mesh, v as u32, polys[i])
                    .iter()
                    .map(|&(w, d, _)| (w, d as f32)),
            );
            covered[i] = true;
            if sighted {
                searcher.seen_whole(mesh, v as u32, |p| mine.push((p, 0)));
            }
            searcher.swept_polygons(|p| {
                if let Some(j) = polys.iter().position(|&q| q == p) {
                    covered[j] = true;
                }
                if sighted {
                    mine.push((p, 1));
                }
            });
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
    fn sight_lists_are_the_corners_that_see_each_polygon() {
        let mut mesh = holed_grid();
        mesh.build_corner_graph();
        let g = mesh.corner_graph().expect("graph");
        assert!(g.has_sights());
        // The hole's four corners are the only corners that turn. A hole corner sees a point
        // unless the line to it leaves the corner straight into the hole (the hole is
        // convex, so a line from its corner that does not enter it at once never does).
        let hole = [[2.0, 2.0], [4.0, 2.0], [4.0, 4.0], [2.0, 4.0]];
        let sees = |c: [f64; 2], x: [f64; 2]| {
            let (dx, dy) = (x[0] - c[0], x[1] - c[1]);
            let (ix, iy) = (3.0 - c[0], 3.0 - c[1]);
            !(dx * ix > 0.0 && dy * iy > 0.0)
        };
        let np = mesh.poly.count() as u32;
        let mut partial = 0;
        for p in 0..np {
            // Points of the polygon: its triangles sampled inside and at their corners (the
            // hole's shadows are bounded by grid lines, so a triangle is in one or out).
            let mut pts = Vec::new();
            for t in 0..mesh.triangle_count() {
                if mesh.poly.tri_poly[t] != p {
                    continue;
                }
                let c = mesh.tris[t].map(|v| plan(mesh.vertices[v as usize]));
                for (i, j) in [(0, 0), (8, 0), (0, 8), (2, 3), (5, 1), (1, 6)] {
                    let (a, b) = (f64::from(i) / 8.0, f64::from(j) / 8.0);
                    let w = 1.0 - a - b;
                    pts.push([
                        w * c[0][0] + a * c[1][0] + b * c[2][0],
                        w * c[0][1] + a * c[1][1] + b * c[2][1],
                    ]);
                }
            }
            let list: Vec<(u32, bool)> = g.sights(p).expect("a list").collect();
            let mut want = Vec::new();
            for h in hole {
                let v = mesh
                    .vertices
                    .iter()
                    .position(|q| f64::from(q.x) == h[0] && f64::from(q.y) == h[1])
                    .expect("hole corner") as u32;
                let seen = pts.iter().filter(|&&x| sees(h, x)).count();
                if seen > 0 {
                    want.push((v, seen == pts.len()));
                }
            }
            want.sort_unstable();
            assert_eq!(list, want, "polygon {p}");
            partial += want.iter().filter(|w| !w.1).count();
        }
        assert!(partial > 0, "no polygon seen in part");
        // Without the lists: the same edges, and every query sweeps.
        let edges = g.edge_count();
        mesh.build_corner_graph_with(false);
        let g = mesh.corner_graph().expect("graph");
        assert!(!g.has_sights() && (0..np).all(|p| g.sights(p).is_none()));
        assert_eq!(g.edge_count(), edges);
    }

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
