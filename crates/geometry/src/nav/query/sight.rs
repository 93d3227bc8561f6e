//! Line of sight on the ground: whether the straight segment between two located points stays
//! on walkable ground, by the exact walk through the triangles every path is checked with
//! ([`crate::nav::search::walk`]), not by a search.

use super::{Searcher, on_triangle};
use crate::nav::mesh::{Location, NavMesh};

impl Searcher {
    /// Whether the straight line from `a` to `b` stays on the ground of `mesh`: it crosses
    /// triangles by shared edges only, from a triangle `a` stands on to one `b` stands on
    /// ([`NavMesh::standing`]), and never crosses the ground where it touches itself only at
    /// a vertex (a pinch). Exactly when this holds, the shortest path between the two is the
    /// straight line. Costs the triangles the line crosses, no search.
    pub fn sees(&mut self, mesh: &NavMesh, a: Location, b: Location) -> bool {
        let n = mesh.triangle_count();
        if a.triangle as usize >= n || b.triangle as usize >= n {
            return false;
        }
        let (mut sa, mut sb) = (
            std::mem::take(&mut self.stand_s),
            std::mem::take(&mut self.stand_g),
        );
        mesh.standing(&a, &mut sa);
        mesh.standing(&b, &mut sb);
        let on = |l: Location, t: u32| on_triangle(mesh, l, t);
        let seen = sa.iter().any(|t| sb.contains(t))
            || sa.iter().any(|&s| {
                sb.iter()
                    .any(|&g| self.walker.walk_polyline(mesh, on(a, s), on(b, g), &[]))
            });
        (self.stand_s, self.stand_g) = (sa, sb);
        seen
    }
}
