//! The format-free walkmesh: vertices, triangles and a walkable flag per triangle, plus the
//! derived tables a walkmesh carries (normals, plane distances, adjacency, boundary edges,
//! perimeter loops, AABB tree).

/// "No transition" / "no neighbour" in the per-edge tables.
pub const NONE: i32 = -1;

/// A triangle mesh with one walkable flag per triangle.
///
/// Edge `k` of a face runs from vertex `k` to vertex `(k + 1) % 3`; an edge is named
/// `face * 3 + k` in every table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// Vertex positions.
    pub vertices: Vec<[f32; 3]>,
    /// Triangles: three indices into [`Mesh::vertices`].
    pub faces: Vec<[u32; 3]>,
    /// One flag per face: can creatures stand on it.
    pub walkable: Vec<bool>,
}

/// Why a mesh cannot be processed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MeshError {
    /// `walkable` (or a per-face table) does not have one entry per face.
    #[error("{what} has {len} entries for {faces} faces (one per face)")]
    Length {
        /// Which table.
        what: &'static str,
        /// Its length.
        len: usize,
        /// The face count.
        faces: usize,
    },
    /// A face names a vertex that does not exist.
    #[error("face {face}: vertex index {index} >= vertex count {vertices}")]
    VertexIndex {
        /// The face.
        face: usize,
        /// The bad index.
        index: u32,
        /// The vertex count.
        vertices: usize,
    },
    /// A non-finite coordinate.
    #[error("vertex {vertex}: not a finite position")]
    NotFinite {
        /// The vertex.
        vertex: usize,
    },
    /// More faces or edges than the 32-bit tables can name.
    #[error("{faces} faces: edge indices face*3+k do not fit in an i32")]
    TooLarge {
        /// The face count.
        faces: usize,
    },
}

impl Mesh {
    /// Number of faces.
    pub fn face_count(&self) -> usize {
        self.faces.len()
    }

    /// Checks lengths, indices and coordinates; every algorithm of this crate assumes them.
    pub fn validate(&self) -> Result<(), MeshError> {
        if self.walkable.len() != self.faces.len() {
            return Err(MeshError::Length {
                what: "walkable",
                len: self.walkable.len(),
                faces: self.faces.len(),
            });
        }
        if self.faces.len() > (i32::MAX as usize) / 3 {
            return Err(MeshError::TooLarge {
                faces: self.faces.len(),
            });
        }
        let nv = self.vertices.len();
        for (i, f) in self.faces.iter().enumerate() {
            for &index in f {
                if index as usize >= nv {
                    return Err(MeshError::VertexIndex {
                        face: i,
                        index,
                        vertices: nv,
                    });
                }
            }
        }
        if let Some(vertex) = self
            .vertices
            .iter()
            .position(|v| v.iter().any(|c| !c.is_finite()))
        {
            return Err(MeshError::NotFinite { vertex });
        }
        Ok(())
    }

    /// The three corner positions of face `i`. Panics on a bad index: call
    /// [`Mesh::validate`] first.
    #[inline]
    pub fn tri(&self, i: usize) -> [[f32; 3]; 3] {
        let f = self.faces[i];
        [
            self.vertices[f[0] as usize],
            self.vertices[f[1] as usize],
            self.vertices[f[2] as usize],
        ]
    }

    /// Number of walkable faces.
    pub fn walkable_count(&self) -> usize {
        self.walkable.iter().filter(|w| **w).count()
    }
}

/// A boundary edge of the walkable surface with its transition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoundaryEdge {
    /// `face * 3 + k`.
    pub edge: u32,
    /// The room across the edge, or [`NONE`].
    pub transition: i32,
}

/// A node of an AABB tree over the faces, in the layout walkmeshes store.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AabbNode {
    /// Minimum corner.
    pub min: [f32; 3],
    /// Maximum corner.
    pub max: [f32; 3],
    /// The face of a leaf, `-1` on internal nodes.
    pub face: i32,
    /// Split plane: `0` on leaves; `1`/`2`/`4` = +X/+Y/+Z, `8`/`16`/`32` = -X/-Y/-Z.
    pub plane: u32,
    /// Left child (0-based node index), `u32::MAX` on leaves.
    pub left: u32,
    /// Right child, `u32::MAX` on leaves.
    pub right: u32,
}

/// "No child" in [`AabbNode::left`] / [`AabbNode::right`].
pub const NO_CHILD: u32 = u32::MAX;

/// Everything a walkmesh derives from its vertices, faces, walkability and per-edge transitions.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Derived {
    /// Unit normal per face.
    pub normals: Vec<[f32; 3]>,
    /// Plane distance per face: `d` of `n . p + d = 0`.
    pub distances: Vec<f32>,
    /// Per walkable face (the first faces): the neighbouring `face * 3 + k` or [`NONE`].
    pub adjacency: Vec<[i32; 3]>,
    /// Boundary edges of the walkable surface, loop after loop.
    pub edges: Vec<BoundaryEdge>,
    /// 1-based end of each loop in [`Derived::edges`].
    pub perimeters: Vec<u32>,
    /// AABB tree over all faces, pre-order, root first.
    pub aabb: Vec<AabbNode>,
}
