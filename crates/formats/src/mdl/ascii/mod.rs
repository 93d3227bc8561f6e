//! Binary models to and from the KotOR MDL ASCII dialect (the text KOTORMax, mdlops and
//! kotorblender exchange), through the [`crate::mdl_ascii`] statement model.
//!
//! [`to_ascii`] writes every node with its type's properties, geometry controllers as
//! properties, vertices, faces, UV sets, normals, tangent spaces, colours, skin weights, dangly
//! constraints, the AABB tree, and every animation with its events and keys (positions absolute,
//! orientations as axis and angle). [`from_ascii`] compiles such text back: it builds the name
//! table, node tree, controllers (geometry keys and animation keys), meshes with derived face
//! planes, adjacency, bounds and MDX layout, skin bone maps and bind poses, AABB trees.
//!
//! - [`text`]: what both dialects' decompilers and compilers share;
//! - `decompile` ([`to_ascii`]), `compile` ([`from_ascii`]), `controllers` (KotOR's
//!   controller numbers and names).

mod compile;
pub(crate) mod controllers;
mod decompile;
pub(crate) mod text;

pub use compile::{ascii_game, from_ascii};
pub use decompile::to_ascii;
