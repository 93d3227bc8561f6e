//! Line of sight on the ground: whether the straight segment between two located points stays
//! on walkable ground, by the exact walk through the triangles every path is checked with
//! ([`crate::nav::search::walk`]), not by a search.

use super::Searcher;
use crate::nav::mesh::{Location, NavMesh};

impl Searcher {
    /// Whether the straight line from `a` to `b` stays on the ground of `mesh`: it crosses
    /// triangles by shared edges only, from `a`'s triangle to `b`'s, and never crosses the
    /// ground where it touches itself only at a vertex (a pinch). Exactly when this holds, the
    /// shortest path between the two is the straight line. Costs the triangles the line
    /// crosses, no search.
    pub fn sees(&mut self, mesh: &NavMesh, a: Location, b: Location) -> bool {
        let n = mesh.triangle_count();
        if a.triangle as usize >= n || b.triangle as usize >= n {
            return false;
        }
        a.triangle == b.triangle || self.walker.walk_polyline(mesh, a, b, &[])
    }
}
