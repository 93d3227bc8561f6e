//! The geometry crate's modules form layers: no module imports another that imports it back,
//! directly or through others; likewise the navigation modules inside `nav` (ARCHITECTURE.md
//! and `nav`'s module docs draw them). Reads the sources and fails on the first cycle, naming
//! it.

use areakit_testkit::layers::{cycle, import_graph};
use std::path::Path;

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_modules_import_no_cycle() {
    let graph = import_graph(&src(), &[]);
    assert!(graph.len() >= 8, "read {} modules: {graph:?}", graph.len());
    assert_eq!(cycle(&graph), None, "{graph:#?}");
}

#[test]
fn the_navigation_modules_import_no_cycle() {
    let graph = import_graph(&src(), &["nav"]);
    for m in [
        "mesh",
        "poly",
        "search",
        "landmarks",
        "corners",
        "query",
        "surface",
    ] {
        assert!(graph.contains_key(m), "no module nav::{m}: {graph:?}");
    }
    assert_eq!(cycle(&graph), None, "{graph:#?}");
    // The engine's parts import no acceleration data and no query: they are handed them.
    for m in ["mesh", "poly", "search", "surface"] {
        for above in ["landmarks", "corners", "query"] {
            assert!(!graph[m].contains(above), "nav::{m} imports nav::{above}");
        }
    }
    let search = import_graph(&src(), &["nav", "search"]);
    assert_eq!(cycle(&search), None, "{search:#?}");
}
