//! Walkmesh geometry and navigation: algorithms that know no file format.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub use glam::{Vec2, Vec3};

pub mod nwn2_bake;
