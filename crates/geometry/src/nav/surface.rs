//! [`Surface`]: the walkable ground as plain arrays, what every navigation structure is built
//! from.

use glam::Vec3;

/// The most triangles a surface (and so a [`super::mesh::NavMesh`]) holds: a neighbour link
/// packs the triangle and its edge in 32 bits.
pub const MAX_TRIANGLES: usize = (1 << 30) - 1;

/// The walkable ground: triangles over shared vertices, one region id per triangle.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Surface {
    /// Vertex positions (x, y in plan, z up).
    pub vertices: Vec<Vec3>,
    /// Walkable triangles: three indices into [`Surface::vertices`].
    pub triangles: Vec<[u32; 3]>,
    /// One region (room) id per triangle.
    pub regions: Vec<u32>,
    /// The neighbours the source file names, per triangle (in any order of its edges,
    /// [`u32::MAX`] for none), or empty: then two triangles are neighbours by the mesh's rule
    /// (the same two vertex indices in opposite directions). Given, a pair is joined only when
    /// both name each other across an edge whose two vertex indices they share, from opposite
    /// sides of it ([`super::mesh`], "Neighbours").
    pub links: Vec<[u32; 3]>,
}

/// Why a [`Surface`] cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SurfaceError {
    /// `regions` does not have one entry per triangle.
    #[error("{regions} region ids for {triangles} triangles (one per triangle)")]
    RegionCount {
        /// Its length.
        regions: usize,
        /// The triangle count.
        triangles: usize,
    },
    /// A triangle names a vertex that does not exist.
    #[error("triangle {triangle}: vertex index {index} out of range")]
    VertexIndex {
        /// The triangle.
        triangle: usize,
        /// The bad index.
        index: u32,
    },
    /// A vertex with a NaN or infinite coordinate.
    #[error("vertex {vertex}: not a finite position")]
    NotFinite {
        /// The vertex.
        vertex: usize,
    },
    /// `links` is given but does not have one entry per triangle.
    #[error("{links} link entries for {triangles} triangles (one per triangle, or none)")]
    LinkCount {
        /// Its length.
        links: usize,
        /// The triangle count.
        triangles: usize,
    },
    /// More triangles than a navmesh can number ([`MAX_TRIANGLES`]).
    #[error("{triangles} triangles: more than a navmesh holds ({MAX_TRIANGLES})")]
    TooLarge {
        /// The triangle count.
        triangles: usize,
    },
}

impl Surface {
    /// Checks the arrays agree: one region (and no or one link entry) per triangle, indices in
    /// range, finite vertices.
    pub fn validate(&self) -> Result<(), SurfaceError> {
        if self.regions.len() != self.triangles.len() {
            return Err(SurfaceError::RegionCount {
                regions: self.regions.len(),
                triangles: self.triangles.len(),
            });
        }
        if !self.links.is_empty() && self.links.len() != self.triangles.len() {
            return Err(SurfaceError::LinkCount {
                links: self.links.len(),
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
            links: Vec::new(),
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
