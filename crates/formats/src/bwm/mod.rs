//! BWM (`BWM V1.0`): KotOR binary walkmeshes — WOK (area rooms), PWK (placeables), DWK (doors).
//!
//! - [`raw`]: on-disk constants and the table directory;
//! - [`Bwm`] and friends: the owned model ([`model`]);
//! - [`read`] / [`write`]: bytes to model and back, byte-exact for unmodified files;
//! - [`Material`]: the surface material ids.
//!
//! The byte layout and how the disagreements between the community specs were resolved are in
//! `docs/formats/bwm.md`.

pub mod material;
pub mod model;
pub mod raw;
mod view;
mod write;

pub use material::Material;
pub use model::{AabbNode, Bwm, BwmKind, Edge, Face, SourceLayout, WalkmeshType};
pub use view::{BwmView, read, read_directory};
pub use write::write;

#[cfg(test)]
mod tests;
