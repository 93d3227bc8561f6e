//! NWN2 models (MDB): the packet container and every packet the references describe (RIGD,
//! SKIN, COL2, COL3, COLS, HOOK, HAIR, HELM, WALK), decoded whole; other packets (`TRRN`,
//! unknown tags) kept as bytes.
//!
//! - [`raw`]: on-disk constants and sizes;
//! - [`Mdb`], [`Packet`], [`Mesh`], [`Walk`] and friends: the owned model ([`model`]);
//! - [`read`] / [`write()`]: bytes to model and back, byte-exact for unmodified files (the 32
//!   corpus models);
//! - [`is_mdb`]: tells an MDB from a TRN/TRX (the same `NWN2` container) by its packets;
//! - [`Walk::surface`]: the WALK walkmesh as placement uses it ([`WalkSurface`]: model-space
//!   vertices, triangles, walkable flag per triangle).
//!
//! Byte layout, what the corpus files hold and the sources consulted are in
//! `docs/formats/mdb.md`.

mod mesh;
pub mod model;
pub mod raw;
mod read;
mod walk;
mod write;

pub use model::{
    CollisionVertex, Layout, Material, Mdb, Mesh, Packet, Point, RigidVertex, Skin, SkinVertex,
    Sphere, Walk, WalkTriangle, name_text,
};
pub use read::{is_mdb, read};
pub use walk::{WalkIndexError, WalkSurface};
pub use write::{encode_packet, write};

#[cfg(test)]
mod tests;
