//! Readers and writers for the area files of BioWare's Aurora-family engines.
//!
//! One module per format, each with its model types, `read`/`write` functions and its errors
//! ([`DecodeError`] for input, [`EncodeError`] for models a format cannot express). This crate
//! knows bytes and text, not geometry: rebuilding derived data lives in `areakit-geometry`.
//!
//! ```
//! use areakit_formats::bwm;
//! let mut mesh = bwm::Bwm::default();
//! mesh.vertices = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
//! mesh.faces = vec![bwm::Face { vertices: [0, 1, 2], material: bwm::Material::Stone }];
//! mesh.normals = vec![[0.0, 0.0, 1.0]];
//! mesh.distances = vec![0.0];
//! let bytes = bwm::write(&mesh).unwrap();
//! assert_eq!(bwm::read(&bytes).unwrap(), mesh);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod any;
pub mod bif;
pub mod bwm;
pub mod census;
pub mod cursor;
pub mod dxt;
pub mod erf;
mod error;
pub mod finding;
pub mod gff;
pub mod image;
pub mod key;
pub mod lyt;
pub mod mdb;
pub mod mdl;
pub mod mdl_ascii;
pub mod names;
pub mod png;
pub mod restype;
pub mod rim;
mod text_lines;
pub mod tga;
pub mod tpc;
pub mod trx;
pub mod twoda;
pub mod txi;
pub mod vis;

pub use error::{DecodeError, EncodeError, ErrorKind, Location};
pub use finding::{Finding, Place, Severity};
