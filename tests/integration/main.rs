//! areakit's integration tests, in one binary (each test binary costs a link on a fresh
//! machine): the command line run as a user runs it (`CARGO_BIN_EXE_areakit`), and the
//! application crate's operations called as a library. Each module was a test file of its
//! own; the corpus tests of the format and area crates live in those crates.

#[path = "../common/mod.rs"]
mod common;

mod area_check;
mod ascii_walkmesh;
mod build;
mod cli_bwm;
mod cli_capsules;
mod cli_formats;
mod cli_view;
mod decode_agreement;
mod demo_area;
mod export_import;
mod hostile_matrix;
mod inputs;
mod install;
mod json_keys;
mod minimap;
mod models;
mod module;
mod nav_area;
mod nav_differential_areas;
mod newcomer;
mod nwn2_bake_git;
mod nwn2_import;
mod nwn2_models;
mod nwn_models;
mod relink;
mod render;
mod severity_review;
mod severity_seams;
mod support;
mod text_oddities;
mod textured_export;
mod textures;
mod trx_bake;
mod unsafe_names;
mod viewer3d_browser;
mod viewer_browser;
mod vis;
mod write_faults;
