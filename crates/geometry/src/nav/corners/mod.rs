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
use super::poly::Polygons;

mod build;
mod estimate;

pub use estimate::{CornerSample, sample_indices};

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
    /// The [`NavMesh::id`] of the mesh it was built from.
    mesh: u64,
}

/// The most corners in a polygon's sight list: a polygon seen by more has none (its queries
/// sweep instead), which bounds the lists at this many per polygon.
pub const MAX_SIGHTS: usize = 128;

/// In a sight list: the corner sees the whole polygon.
pub(crate) const SEES_WHOLE: u32 = 1 << 31;

/// [`CornerGraph`]'s `walls` of a vertex where turns are not filtered.
const NO_WALLS: [u32; 2] = [u32::MAX; 2];

impl CornerGraph {
    /// Sweeps from every corner of `mesh` over its `polygons` and keeps the turns and the
    /// polygons' sight lists (`None` only if a worker thread failed).
    pub fn build(mesh: &NavMesh, polygons: &Polygons) -> Option<CornerGraph> {
        Self::build_with(mesh, polygons, true)
    }

    /// [`CornerGraph::build`], with the polygons' sight lists only if `sights` (without them
    /// every query sweeps from its start and goal).
    pub fn build_with(mesh: &NavMesh, polygons: &Polygons, sights: bool) -> Option<CornerGraph> {
        build::build(mesh, polygons, sights)
    }

    /// The [`NavMesh::id`] of the mesh it was built from.
    pub fn mesh_id(&self) -> u64 {
        self.mesh
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
            links: Vec::new(),
            vertices,
            triangles,
            regions,
        })
        .expect("valid grid")
    }

    #[test]
    fn a_corner_sample_draws_every_corner_once_in_a_seeded_order() {
        let mesh = holed_grid();
        let poly = Polygons::build(&mesh);
        let draw = |seed| {
            let mut s = CornerSample::new(&mesh, &poly, seed);
            let n = s.corners();
            let nodes: Vec<u64> = std::iter::from_fn(|| s.sweep_next()).collect();
            assert_eq!(nodes.len(), n);
            nodes
        };
        let (a, b) = (draw(1), draw(2));
        // Every vertex on a wall: the border's 24 and the hole's 4 (the build sweeps from each,
        // and only those have edges).
        assert_eq!(a.len(), 28);
        let g = CornerGraph::build(&mesh, &poly).expect("graph");
        let swept = (0..mesh.vertices.len() as u32)
            .filter(|&v| g.degree(v) > 0)
            .count();
        assert!((4..=28).contains(&swept), "{swept}");
        assert!(a.iter().all(|&n| n > 0));
        assert_eq!(a, draw(1));
        // Another order of the same sweeps.
        let (mut sa, mut sb) = (a.clone(), b.clone());
        sa.sort_unstable();
        sb.sort_unstable();
        assert_eq!(sa, sb);
    }

    #[test]
    fn sight_lists_are_the_corners_that_see_each_polygon() {
        let mesh = holed_grid();
        let poly = Polygons::build(&mesh);
        let g = CornerGraph::build(&mesh, &poly).expect("graph");
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
        let np = poly.count() as u32;
        let mut partial = 0;
        for p in 0..np {
            // Points of the polygon: its triangles sampled inside and at their corners (the
            // hole's shadows are bounded by grid lines, so a triangle is in one or out).
            let mut pts = Vec::new();
            for t in 0..mesh.triangle_count() {
                if poly.tri_poly[t] != p {
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
        let g = CornerGraph::build_with(&mesh, &poly, false).expect("graph");
        assert!(!g.has_sights() && (0..np).all(|p| g.sights(p).is_none()));
        assert_eq!(g.edge_count(), edges);
    }
}
