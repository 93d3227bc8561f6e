//! LYT: KotOR room layouts (ASCII): rooms and their positions, swoop tracks and obstacles,
//! door hooks, `filedependancy` lines.
//!
//! - [`Lyt`] and its records: the owned model ([`model`]); a room's index in [`Lyt::rooms`] is
//!   the number WOK edge transitions use for it;
//! - [`read`] / [`write`]: text to model and back, byte-exact for unmodified files, edits
//!   touching only the edited lines;
//! - [`validate`]: the file-level checks.
//!
//! The syntax and what the real files showed are in `docs/formats/lyt.md`.

pub mod model;
mod read;
#[cfg(test)]
mod tests;
mod validate;
mod write;

pub use model::{DoorHook, FileDependency, Lyt, LytSummary, PLACEHOLDER_ROOM, Placement, Section};
pub use read::read;
pub use validate::{MAX_RESREF, validate};
pub use write::write;
