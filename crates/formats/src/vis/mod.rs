//! VIS: KotOR room visibility (ASCII): for each room, the rooms the engine draws while the
//! player is in it.
//!
//! - [`Vis`]: the owned model ([`model`]) with case-insensitive queries ([`Vis::is_visible`])
//!   and edits ([`Vis::add_room`], [`Vis::remove_room`], [`Vis::rename_room`],
//!   [`Vis::set_visible`]);
//! - [`read`] / [`write`]: text to model and back, byte-exact for unmodified files, edits
//!   touching only the edited lines;
//! - [`validate`]: the file-level checks.
//!
//! The syntax and what the real files showed are in `docs/formats/vis.md`.

pub mod model;
mod read;
#[cfg(test)]
mod tests;
mod validate;
mod write;

pub use model::{Vis, VisRoom, VisSummary};
pub use read::read;
pub use validate::validate;
pub use write::write;
