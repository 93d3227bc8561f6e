//! areakit: the operations behind the `areakit` command line.
//!
//! This crate glues the format layer ([`areakit_formats`], re-exported as [`formats`]), the
//! geometry layer ([`areakit_geometry`], re-exported as [`geometry`]) and the area layer
//! ([`areakit_area`]: [`area`] and [`walkmesh`] are re-exported): it detects formats, loads
//! documents, writes files atomically, and runs the operations the CLI exposes.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub use areakit_formats as formats;
pub use areakit_geometry as geometry;

pub use areakit_area::{area, install, module, navigation, objects, pth, resources, walkmesh};

pub mod ascii_walkmesh;
pub mod bake;
pub mod capsules;
pub mod check;
pub mod demo;
pub mod document;
mod error;
pub mod fsio;
pub mod info;
pub mod interop;
pub mod modules;
pub mod navigate;
pub mod ops;
pub mod render;
pub mod resolve;
pub mod view;

pub use error::Error;
