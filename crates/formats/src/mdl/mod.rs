//! KotOR binary models: the MDL (headers, node tree, controllers, animations) and its MDX
//! (vertex rows), K1 and K2, PC layout.
//!
//! - [`Model`] and friends: the owned model ([`model`]); every field of the file is kept, and
//!   pointers and counts are derived by the writer;
//! - [`read`] / [`write`]: bytes to model and back; an unmodified model writes back byte for
//!   byte (the reader records the source layout), an edited one in a canonical layout that reads
//!   back equal.
//!
//! The byte layout, how K1 and K2 differ and what the real files showed are in
//! `docs/formats/mdl-binary.md`.

mod ascii;
mod checks;
mod common;
mod layout;
pub mod le;
pub mod model;
pub mod nwn;
mod parts;
pub mod quat;
pub mod raw;
mod read;
mod space;
mod tree;
mod validate;
mod write;

pub use ascii::{ascii_game, from_ascii, to_ascii};
pub use model::{
    Aabb, AabbNode, Animation, Controller, Dangly, Emitter, Event, Face, Game, GeometryHeader,
    Light, Mesh, Model, ModelHeader, Name, Node, Reference, Saber, Skin, VertexData, flags,
    kind_name, mdx_flags,
};
pub use nwn::is_nwn_layout;
pub use read::read;
pub use validate::validate;
pub use write::write;

#[cfg(test)]
mod tests;
