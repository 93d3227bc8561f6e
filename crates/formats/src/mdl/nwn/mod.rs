//! NWN compiled models (the binary MDL of Neverwinter Nights and NWN:EE): headers, the node
//! tree, controllers, animations with events, and the vertex data in the raw-data block after
//! the model data (there is no MDX).
//!
//! - [`Model`] and friends ([`model`]): every field of the file kept; pointers and counts are
//!   derived by the writer;
//! - [`read`] / [`write`]: bytes to model and back; an unmodified model writes back byte for
//!   byte (the reader records the source layout), an edited one in a canonical layout (blocks
//!   packed in walk order) that reads back equal;
//! - [`is_nwn_layout`]: tells an NWN compiled model from a KotOR one by its structure;
//! - [`to_ascii`] / [`from_ascii`]: the NWN MDL ASCII dialect both ways (what the text cannot
//!   carry and what compiling derives are in the format document).
//!
//! What it shares with the KotOR codec (the node-tree walk, geometry headers, events, faces,
//! lights, AABB trees, the byte-exact layout machinery) lives in `mdl`'s shared files; the
//! layout and what the corpus showed are in `docs/formats/mdl-nwn-binary.md`.

mod compile;
mod controllers;
mod decompile;
pub mod model;
pub mod raw;
mod read;
mod validate;
mod write;

pub use compile::{Compiled, from_ascii, is_nwn_ascii};
pub use decompile::to_ascii;
pub use model::{
    AnimMesh, Animation, Controller, Dangly, Emitter, Mesh, Model, ModelHeader, Node, Reference,
    Skin,
};
pub use read::{is_nwn_layout, read};
pub use validate::validate;
pub use write::write;
