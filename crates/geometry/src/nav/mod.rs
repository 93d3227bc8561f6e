//! Navigation over walkable surfaces: stitching rooms, the navigation mesh, path searches.
//!
//! A [`Surface`] is the walkable ground of an area as plain arrays: triangles over shared
//! vertices, each tagged with the region (room) it came from — one KotOR room WOK, the rooms
//! of an area, an NWN2 TRX walkmesh, or any of these carved for an agent's radius. Nothing here
//! knows a file format: the `areakit` crate fills a `Surface`.
//!
//! # The model
//!
//! - **Connectivity** comes only from shared edges: two triangles are neighbours when they use
//!   the same two vertex indices on opposite sides in plan ([`mesh`] has the exact rule,
//!   including edges shared by three or more triangles). Floors that overlap in plan (a bridge
//!   over a corridor, a balcony over a hall) are never joined by overlapping, so no path jumps
//!   between them.
//! - **Rooms** are separate triangle sets; [`stitch()`] joins them where their boundary edges
//!   coincide in 3-D (within a tolerance; floors at different heights never join), splitting
//!   triangles at T-junctions, and reports each seam.
//! - **Metric**: lengths are plan (x, y) Euclidean, as the engines plan; the path's `z`
//!   follows the faces, and [`Path::length_3d`] measures along the surface.
//! - **Points**: a start or goal is located like [`crate::query::Locator::face_at`] (with a
//!   height hint the face nearest in height, without one the highest); off the surface it snaps
//!   to the nearest walkable point within a snap distance (3-D with a hint, plan without), else
//!   the search says how far the nearest walkable point is ([`LocateError`]).
//!
//! # The searches
//!
//! [`Searcher`] runs two modes on a [`NavMesh`] ([`search`] explains both):
//!
//! - [`Mode::Optimal`] (default): the exact shortest path (Polyanya: root/interval search
//!   nodes, exact heuristic, root-level pruning);
//! - [`Mode::Fast`]: A* over polygons (or triangles) and the funnel algorithm, or with the
//!   corner graph the optimal search over it with weighted bounds; never shorter than optimal,
//!   and over the graph at most [`FAST_BOUND`] times it.
//!
//! Both return a [`Path`]: turning points (z on the surface), plan and 3-D lengths, the
//! corridor of triangles, the regions passed and the search effort, and the densified surface
//! polyline ([`Path::surface_points`]). Unreachable goals give a reason ([`PathError`]:
//! off the surface, different islands). A `Searcher` reuses its buffers, so repeated queries
//! allocate nothing.

pub mod clearance;
pub mod corners;

use glam::Vec3;

pub mod landmarks;
pub mod mesh;
pub mod poly;
pub mod search;
pub mod stitch;

pub use mesh::{Island, LocateError, Location, NavMesh};
pub use poly::Polygons;
pub use search::{
    DEFAULT_SNAP, Endpoint, FAST_BOUND, Layer, Mode, Path, PathError, SearchOptions, Searcher,
};
pub use stitch::{Seam, SeamSegment, Stitched, stitch};

/// The walkable ground: triangles over shared vertices, one region id per triangle.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Surface {
    /// Vertex positions (x, y in plan, z up).
    pub vertices: Vec<Vec3>,
    /// Walkable triangles: three indices into [`Surface::vertices`].
    pub triangles: Vec<[u32; 3]>,
    /// One region (room) id per triangle.
    pub regions: Vec<u32>,
}

/// Why a [`Surface`] cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SurfaceError {
    /// `regions` does not have one entry per triangle.
    RegionCount {
        /// Its length.
        regions: usize,
        /// The triangle count.
        triangles: usize,
    },
    /// A triangle names a vertex that does not exist.
    VertexIndex {
        /// The triangle.
        triangle: usize,
        /// The bad index.
        index: u32,
    },
    /// A vertex with a NaN or infinite coordinate.
    NotFinite {
        /// The vertex.
        vertex: usize,
    },
    /// More triangles than a navmesh can number ([`mesh::MAX_TRIANGLES`]).
    TooLarge {
        /// The triangle count.
        triangles: usize,
    },
}

impl std::fmt::Display for SurfaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SurfaceError::RegionCount { regions, triangles } => write!(
                f,
                "{regions} region ids for {triangles} triangles (one per triangle)"
            ),
            SurfaceError::VertexIndex { triangle, index } => {
                write!(f, "triangle {triangle}: vertex index {index} out of range")
            }
            SurfaceError::NotFinite { vertex } => {
                write!(f, "vertex {vertex}: not a finite position")
            }
            SurfaceError::TooLarge { triangles } => write!(
                f,
                "{triangles} triangles: more than a navmesh holds ({})",
                mesh::MAX_TRIANGLES
            ),
        }
    }
}

impl std::error::Error for SurfaceError {}

impl Surface {
    /// Checks the arrays agree: one region per triangle, indices in range, finite vertices.
    pub fn validate(&self) -> Result<(), SurfaceError> {
        if self.regions.len() != self.triangles.len() {
            return Err(SurfaceError::RegionCount {
                regions: self.regions.len(),
                triangles: self.triangles.len(),
            });
        }
        if let Some(vertex) = self.vertices.iter().position(|v| !v.is_finite()) {
            return Err(SurfaceError::NotFinite { vertex });
        }
        let n = self.vertices.len();
        for (triangle, t) in self.triangles.iter().enumerate() {
            if let Some(&index) = t.iter().find(|&&i| i as usize >= n) {
                return Err(SurfaceError::VertexIndex { triangle, index });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_names_the_first_problem() {
        let mut s = Surface {
            vertices: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
            triangles: vec![[0, 1, 2]],
            regions: vec![0],
        };
        assert_eq!(s.validate(), Ok(()));
        s.triangles.push([0, 1, 3]);
        assert_eq!(
            s.validate(),
            Err(SurfaceError::RegionCount {
                regions: 1,
                triangles: 2
            })
        );
        s.regions.push(0);
        assert_eq!(
            s.validate(),
            Err(SurfaceError::VertexIndex {
                triangle: 1,
                index: 3
            })
        );
        s.vertices[2].z = f32::NAN;
        assert_eq!(s.validate(), Err(SurfaceError::NotFinite { vertex: 2 }));
    }
}
