//! ERF family (`V1.0`): the capsules of KotOR and Neverwinter Nights — `ERF ` (generic),
//! `MOD ` (modules; KotOR saves too), `SAV ` (NWN saves), `HAK ` (NWN hak paks).
//!
//! - [`raw`]: on-disk constants;
//! - [`Erf`], [`Resource`], [`Header`], [`Layout`]: the owned model ([`model`]), with the
//!   builders [`Erf::from_resources`] / [`Erf::from_files`] / [`Erf::push`];
//! - [`ErfIndex`]: the header and tables only (listing without copying data);
//! - [`read`] / [`write`]: bytes to model and back, byte-exact for unmodified archives
//!   (padding, gaps and unreferenced bytes kept); [`write_canonical`] lays an archive out
//!   anew;
//! - [`validate`]: findings (duplicates, unknown types, overlapping data, ...).
//!
//! Other versions (`V1.1` of NWN2 and NWN premium modules, Dragon Age's UTF-16 `V2.x`/`V3.0`)
//! are [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported). The byte layout and what
//! the real files showed are in `docs/formats/erf.md`.
//!
//! ```
//! use areakit_formats::erf::{self, Erf, ErfKind};
//! let a = Erf::from_files(ErfKind::Mod, [("m01aa.are", b"ARE V3.2...".to_vec())]).unwrap();
//! let bytes = erf::write(&a).unwrap();
//! let index = erf::ErfIndex::parse(&bytes).unwrap();
//! assert_eq!(index.entries[0].file_name(), "m01aa.are");
//! assert_eq!(index.data(&bytes, 0).unwrap(), b"ARE V3.2...");
//! ```

pub mod model;
pub mod raw;
mod read;
#[cfg(test)]
mod tests;
mod validate;
mod write;

pub use model::{DataRange, Erf, ErfKind, Header, Layout, LocalizedString, Resource};
pub use read::{Entry, ErfIndex, read};
pub use validate::validate;
pub use write::{write, write_canonical};

pub(crate) use read::{relocate, show};
pub(crate) use validate::{Codes, Member, check_members};
pub(crate) use write::u32_of;
