//! The area crate (walkmeshes, areas, navigation glue) against the real-file corpus and the
//! fuzzers' findings. One test binary; each module was a test file of its own.

mod file_links;
mod fuzz_regressions;
mod hostile_inputs;
mod kit_check_corpus;
mod lyt_vis_corpus;
mod minimap_corpus;
mod models_corpus;
mod nav_corpus;
mod nav_differential;
mod nav_links;
mod nav_regressions;
/// The geometry crate's navigation test support: generated domains, the old oracle, the
/// differential harness.
#[path = "../../../geometry/tests/nav_support/mod.rs"]
mod nav_support;
mod nwn2_areas;
mod nwn_models_corpus;
mod records_corpus;
mod relink_corpus;
mod visgen_corpus;
mod walkmesh_check;
mod walkmesh_query;
mod walkmesh_rebuild;
mod walkmesh_transform;
