//! 2DA: the games' tables (two-dimensional arrays of strings), in both layouts.
//!
//! - `2DA V2.b`, the binary layout of KotOR's game files: column labels, row labels, a `u16`
//!   offset per cell into a block of NUL-terminated strings (deduplicated by the writers);
//! - `2DA V2.0`, the text layout of NWN and of KotOR sources: whitespace-separated values,
//!   `****` for an empty cell, an optional `DEFAULT:` line.
//!
//! One model serves both:
//!
//! - [`TwoDa`]: columns and [`Row`]s (label, cells), with case-insensitive lookups
//!   ([`TwoDa::get`]) and edits ([`TwoDa::set`], [`TwoDa::add_row`], [`TwoDa::add_column`]);
//! - [`read`] (either layout), [`read_binary`], [`read_text`]; [`write`] (the layout read
//!   from), [`write_binary`], [`write_text`]: byte-exact for unmodified files, converting
//!   between the layouts otherwise;
//! - [`validate`]: the file-level checks;
//! - typed lookups ([`placeable_model`], [`door_model`], [`SurfaceMaterials`]) in [`lookup`].
//!
//! Layouts, byte offsets and what the real files showed are in `docs/formats/2da.md`.

mod cp1252;
mod layout;
pub mod lookup;
pub mod model;
pub mod raw;
mod read;
mod read_text;
mod syntax;
#[cfg(test)]
mod tests;
mod validate;
mod write;
mod write_text;

pub use lookup::{
    KOTOR_SURFACEMAT, StockSurface, SurfaceMaterial, SurfaceMaterials, door_model, placeable_model,
};
pub use model::{EditError, Row, TwoDa, TwoDaSummary, Variant, is_empty_cell};
pub use read::{read, read_binary};
pub use read_text::read_text;
pub use validate::validate;
pub use write::{write, write_binary};
pub use write_text::write_text;
