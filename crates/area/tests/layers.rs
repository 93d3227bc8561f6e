//! The area crate's modules form layers: no module imports another that imports it back,
//! directly or through others (ARCHITECTURE.md lists them). Reads the sources and fails on the
//! first cycle, naming it.

use areakit_testkit::layers::{cycle, import_graph};

#[test]
fn the_modules_import_no_cycle() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = import_graph(&src, &[]);
    assert!(graph.len() >= 12, "read {} modules: {graph:?}", graph.len());
    assert_eq!(cycle(&graph), None, "{graph:#?}");
}
