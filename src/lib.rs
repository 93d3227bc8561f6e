//! areakit: the operations behind the `areakit` command line.
#![forbid(unsafe_code)]

pub use areakit_formats as formats;
pub use areakit_geometry as geometry;

pub mod render;
pub mod walkmesh;
