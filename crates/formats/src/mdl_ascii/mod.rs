//! MDL ASCII: NWN and KotOR text models (`newmodel` ... `donemodel`) and the ASCII walkmeshes
//! that share the syntax (NWN PWK/DWK, KotOR WOK ASCII from KOTORMax and KAurora/PyKotor).
//!
//! - [`read`] / [`read_with_findings`]: text to [`Model`], keeping every line's original text;
//! - [`write`]: back to text, byte-identical for an unmodified model, re-formatting only the
//!   statements whose typed content changed;
//! - [`write_canonical_bytes`] (and [`write_canonical`], as a string): normalised text that
//!   reads back to an equal model;
//! - [`validate`]: consistency checks (counts, indices, parents, names, key times);
//! - [`Model::summary`]: what `areakit info` prints.
//!
//! ```
//! use areakit_formats::mdl_ascii;
//! let text = b"newmodel box\nbeginmodelgeom box\nnode dummy box\n  parent NULL\nendnode\nendmodelgeom box\ndonemodel box\n";
//! let model = mdl_ascii::read(text).unwrap();
//! assert_eq!(model.name(), Some("box"));
//! assert_eq!(mdl_ascii::write(&model), text.to_vec());
//! let canonical = mdl_ascii::write_canonical(&model);
//! assert_eq!(mdl_ascii::read(canonical.as_bytes()).unwrap(), model);
//! ```
//!
//! The dialects and what the real files showed are in `docs/formats/mdl-ascii.md`.

pub(crate) mod lex;
pub mod model;
mod read;
mod validate;
mod write;

pub(crate) use lex::parse_f64 as parse_number;
pub use model::{
    Animation, Eol, Geometry, ListProp, Model, Node, NodeKind, Property, Raw, Rows, Stmt, Summary,
    Trivia, TriviaKind, Value,
};
pub use read::{read, read_with_findings};
pub use validate::validate;
pub use write::{write, write_canonical, write_canonical_bytes};

#[cfg(test)]
mod tests;
