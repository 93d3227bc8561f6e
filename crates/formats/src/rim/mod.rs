//! RIM (`RIM V1.0`): KotOR's module resource capsules (`modules/*.rim`, `*_s.rim`).
//!
//! - [`raw`]: on-disk constants;
//! - [`Rim`], [`Resource`], [`Header`], [`Layout`]: the owned model ([`model`]), with the
//!   builders [`Rim::from_resources`] / [`Rim::from_files`] / [`Rim::push`];
//! - [`RimIndex`]: the header and key table only;
//! - [`read`] / [`write`]: bytes to model and back, byte-exact for unmodified archives
//!   (the padding real RIMs carry is kept); [`write_canonical`] lays a RIM out anew;
//! - [`validate`]: the findings.
//!
//! The byte layout and what the real files showed are in `docs/formats/rim.md`.
//!
//! ```
//! use areakit_formats::rim::{self, Rim};
//! let r = Rim::from_files([("module.ifo", b"IFO V3.2".to_vec())]).unwrap();
//! let bytes = rim::write(&r).unwrap();
//! assert_eq!(rim::read(&bytes).unwrap().resources, r.resources);
//! ```

pub mod model;
pub mod raw;
mod read;
#[cfg(test)]
mod tests;
mod validate;
mod write;

pub use model::{Header, Layout, Resource, Rim};
pub use read::{Entry, RimIndex, read};
pub use validate::validate;
pub use write::{write, write_canonical};
