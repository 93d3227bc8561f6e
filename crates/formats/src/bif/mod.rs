//! BIF (`BIFFV1  `): the resource data files a KEY indexes (`data/*.bif` of KotOR and NWN).
//!
//! - [`raw`]: on-disk constants;
//! - [`Bif`], [`BifResource`], [`FixedResource`], [`Layout`]: the owned model ([`model`]),
//!   with the builder [`Bif::from_resources`];
//! - [`BifIndex`]: the header and tables only — from memory ([`BifIndex::parse`]) or through
//!   `Read + Seek` ([`BifIndex::read`], reading nothing but the header and tables), with
//!   [`BifIndex::read_resource`] doing one positioned read per resource;
//! - [`read`] / [`write`]: whole-buffer decode and encode, byte-exact for unmodified files;
//!   [`write_canonical`] lays a BIF out anew;
//! - [`validate`] / [`validate_index`]: findings.
//!
//! The byte layout is in `docs/formats/bif.md`. `BZF ` (LZMA-compressed, KotOR's mobile
//! ports) and version `V1.1` (The Witcher) are
//! [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported).

pub mod model;
pub mod raw;
mod read;
#[cfg(test)]
mod tests;
mod validate;
mod write;

pub use model::{Bif, BifResource, FixedResource, Layout};
pub use read::{BifIndex, FixedEntry, VarEntry, read};
pub use validate::{validate, validate_index};
pub use write::{canonical_len, write, write_canonical};
