//! The area crate (walkmeshes, areas, navigation glue) against the real-file corpus and the
//! fuzzers' findings. One test binary; each module was a test file of its own.

mod fuzz_regressions;
mod hostile_inputs;
mod kit_check_corpus;
mod lyt_vis_corpus;
mod minimap_corpus;
mod models_corpus;
mod nav_corpus;
mod records_corpus;
mod relink_corpus;
mod visgen_corpus;
mod walkmesh_check;
mod walkmesh_query;
mod walkmesh_rebuild;
mod walkmesh_transform;
