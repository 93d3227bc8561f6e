//! areakit's operations as library calls: `check`, `info`, `render`, `view`, `export`,
//! `import`, `path`, `pth`, `bake`, `transform`, `rebuild`, `convert`, `ls`/`extract`/`pack`
//! and `demo`. Each takes its inputs and an explicit [`Session`] (the game and module the run
//! reads from; there is no process-wide state) and returns a typed report or an [`Error`]
//! whose kind decides the exit code. The library prints nothing: the `areakit` binary and the
//! Python package are thin faces over it.
//!
//! It builds on the format layer ([`areakit_formats`], re-exported as [`formats`]), the
//! geometry layer ([`areakit_geometry`], [`geometry`]) and the area layer ([`areakit_area`]:
//! [`area`], [`module`], [`navigation`], [`walkmesh`], ... are re-exported).
//!
//! The modules form layers; each imports only modules of the layers below it (see
//! `ARCHITECTURE.md`):
//!
//! 1. [`error`], [`request`], [`format`], [`render`], [`bake`], [`ascii_walkmesh`], [`report`];
//! 2. [`session`];
//! 3. [`document`], [`input`], [`capsules`];
//! 4. [`navigate`], [`info`], [`ops`];
//! 5. [`check`], [`choice`];
//! 6. [`picture`], [`interop`];
//! 7. [`view`], [`demo`].
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub use areakit_formats as formats;
pub use areakit_geometry as geometry;

pub use areakit_area::{
    area, install, module, navigation, nwn_models, nwn2_cut, nwn2_git, nwn2_stale, objects, pth,
    resources, walkmesh,
};

pub mod ascii_walkmesh;
pub mod atomic;
pub mod bake;
pub mod bake_area;
pub mod build;
pub mod capsules;
pub mod check;
pub mod choice;
pub mod demo;
pub mod document;
pub mod error;
pub mod format;
pub mod info;
pub mod input;
pub mod interop;
pub mod minimap;
pub mod navigate;
pub mod ops;
pub mod picture;
pub mod relink;
pub mod render;
pub mod report;
pub mod request;
pub mod rooms;
pub mod session;
pub mod texture;
pub mod view;
pub mod view3d;
pub mod visibility;

pub use error::Error;
pub use session::{Session, Sources};
