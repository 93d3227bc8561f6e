//! GFF V3.2, BioWare's Generic File Format: ARE, GIT, IFO, UTP, UTD, UTC, DLG, PTH and every
//! other GFF resource of KotOR, NWN and NWN2.
//!
//! - [`raw`]: on-disk constants, type ids and the header;
//! - [`Gff`], [`Struct`], [`Field`], [`Value`] and friends: the editable tree ([`model`]), with
//!   lookups by label (`gff.root().get_string("Tag")`) and setters;
//! - [`read()`] / [`write()`]: bytes to tree and back. A tree read from bytes keeps them as its
//!   original layout and writes back byte for byte while unmodified; an edit that keeps the
//!   tree's shape is written in place, any other edit makes [`write()`] lay the file out
//!   canonically (the game's own order; [`write_canonical`] forces it);
//! - [`validate()`]: findings about the tree and the layout as read;
//! - [`views`]: typed, tolerant views of ARE, GIT, IFO, UTP, UTD and PTH, and the PTH builder;
//! - [`Gff::summary`]: the counts `areakit info` prints.
//!
//! Byte layout, what the corpus showed and the limits are in `docs/formats/gff.md`.

pub mod model;
pub mod raw;
mod read;
pub mod validate;
pub mod views;
mod write;

pub use model::{Field, Gff, Label, LocString, LocSubString, Struct, Summary, Text, Value};
pub use read::read;
pub use validate::{is_nwn2, validate};
pub use write::{fits_original_layout, write, write_canonical};

#[cfg(test)]
mod tests;
