//! KotOR areas as the engine assembles them, between the format layer and the application.
//!
//! - [`walkmesh`]: BWM walkmeshes ↔ the format-free geometry (rebuild, queries, transforms,
//!   checks);
//! - [`area`]: a layout (LYT), its visibility (VIS) and one walkmesh per room, their links and
//!   the checks that need all of them;
//! - [`objects`]: placeables and doors standing in an area, their walkmeshes in area space,
//!   and the `--objects` JSON file;
//! - [`module`]: a module as one area: the area of its IFO (or a named one) with the placeables
//!   and doors of its GIT, each with its walkmesh placed, and the module's checks;
//! - [`models`], [`nwn_models`]: KotOR and NWN compiled models against the geometry (walkmesh
//!   faces, transforms, what compiling derives);
//! - [`resources`]: where an area's resources come from (a folder; capsules and installs answer
//!   the same [`resources::Resources`] question).
//!
//! This crate reads files (an area is several), but knows no command line: the `areakit` crate
//! drives it.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod area;
pub mod baked;
pub mod build;
pub mod install;
pub mod io;
pub mod minimap;
pub mod models;
pub mod module;
pub mod navigation;
pub mod nwn2_cut;
pub mod nwn2_git;
pub mod nwn2_stale;
pub mod nwn_models;
pub mod objects;
pub mod pth;
pub mod relink;
pub mod resources;
pub mod visgen;
pub mod walkmesh;
