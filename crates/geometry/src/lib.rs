//! Walkmesh geometry and navigation: algorithms that know no file format.
//!
//! - [`Mesh`]: vertices, triangles, walkable flags; [`Derived`]: the tables a walkmesh derives
//!   from them;
//! - [`derive`](mod@derive): rebuilding the derived tables ([`derive::rebuild`]);
//! - [`aabb`]: the AABB tree (build and checks);
//! - [`model_mesh`]: what a model compiler derives from a mesh (face planes, adjacency by edge
//!   positions, extent, smoothed vertex normals);
//! - [`query`]: face / height at a point, nearest walkable point, ray casts, multi-room areas;
//! - [`transform`]: translate, rotate, mirror, transition remapping;
//! - [`cut`]: holes cut in a mesh by polygons, with exact predicates (NWN2 walkmesh cutters);
//! - [`analysis`]: geometric defects (degenerate, duplicate, non-manifold, T-junctions, ...);
//! - [`nav`]: navigation: stitching rooms ([`nav::stitch()`]), the [`nav::NavMesh`] and path
//!   searches ([`nav::Searcher`]: exact any-angle shortest paths, or a fast corridor search).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod aabb;
pub mod analysis;
pub mod cut;
pub mod derive;
mod mesh;
pub mod model_mesh;
pub mod nav;
pub mod query;
pub mod transform;

pub use glam::{Vec2, Vec3};
pub use mesh::{AabbNode, BoundaryEdge, Derived, Mesh, MeshError, NO_CHILD, NONE};

pub mod nwn2_bake;
