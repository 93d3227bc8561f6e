//! Every search against the independent oracle on the demo area and on kit-built areas (each
//! corpus kit's rooms chained door to door, and each example layout built by `areakit build`
//! from the corpus kits): the ground the area's navigation searches (its rooms stitched), a
//! fixed set of random pairs, asked of every search the engine has and judged as in the
//! geometry crate's `nav_differential.rs` (the same harness, `#[path]`).

use crate::common;
use crate::support::run;
use areakit_area::area::Area;
use areakit_area::navigation::{NavOptions, NavSource};
use areakit_geometry::nav::{Searcher, stitch};
use areakit_testkit::nav_meshes::Rng;
use areakit_testkit::nav_oracle::Oracle;
use std::path::{Path, PathBuf};

#[path = "../../crates/geometry/tests/nav_support/mod.rs"]
#[allow(unused_imports)]
mod nav_support;

use nav_support::differential::{Plain, Tally, build, pairs};

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-navdiff-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Pairs per area.
const PER_AREA: usize = 40;

/// Judges `PER_AREA` pairs on the stitched ground of the area at `lyt` (a LYT or a folder).
fn judge_area(name: &str, lyt: &Path, rng: &mut Rng, tally: &mut Tally) {
    let area = Area::open(lyt).unwrap_or_else(|e| panic!("{name}: {e}"));
    let source = NavSource::from_area(&area);
    let ground = stitch(&source.surface, NavOptions::default().stitch_tolerance)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .surface;
    let vertices: Vec<[f32; 3]> = ground.vertices.iter().map(|v| v.to_array()).collect();
    let plain = Plain {
        vertices: &vertices,
        triangles: &ground.triangles,
    };
    let o = Oracle::new(&vertices, &ground.triangles);
    let built = build(&plain);
    let mut searcher = Searcher::new();
    let before = tally.pairs;
    for pair in pairs(&plain, &o, rng, PER_AREA) {
        tally.pair(name, &o, &built, pair, &mut searcher);
    }
    assert_eq!(tally.pairs - before, PER_AREA, "{name}: pairs judged");
}

#[test]
fn every_search_agrees_with_the_oracle_on_the_demo_and_kit_built_areas() {
    let mut rng = Rng(0x7a11_0037_0000_0005);
    let mut tally = Tally::default();
    let mut areas = 0;
    // The demo area.
    let dir = tmp("demo");
    areakit_app::demo::run(&dir).unwrap();
    judge_area("demo", &dir.join("demo.lyt"), &mut rng, &mut tally);
    areas += 1;
    // Each corpus kit's rooms chained door to door.
    let kits = common::corpus_files(&["kit-json"]);
    assert!(!kits.is_empty(), "no kit in the corpus");
    for kit in &kits {
        let name = kit.file_stem().unwrap().to_string_lossy().into_owned();
        let out = dir.join(format!("chain-{name}"));
        crate::nav_area::kit_chain(kit, &out);
        judge_area(&format!("{name} chain"), &out, &mut rng, &mut tally);
        areas += 1;
    }
    // Each example layout, built from the corpus kits.
    let kits_dir =
        common::corpus_dir().join("kotor/openkotor_pykotor/Tools/HolocronToolset/src/toolset/kits");
    let layouts = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/layouts");
    let mut built = 0;
    for entry in std::fs::read_dir(&layouts).unwrap() {
        let layout = entry.unwrap().path();
        if layout.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let name = layout.file_stem().unwrap().to_string_lossy().into_owned();
        let out = dir.join(format!("built-{name}"));
        let (code, stdout, stderr) = run(&[
            "build".as_ref(),
            layout.as_os_str(),
            "--kits".as_ref(),
            kits_dir.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
            "--json".as_ref(),
        ]);
        assert_eq!(code, 0, "build {name}: {stderr}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let module = report["build"]["module"]
            .as_str()
            .unwrap_or(&name)
            .to_string();
        let lyt = out.join(format!("{module}.lyt"));
        judge_area(&format!("{name} built"), &lyt, &mut rng, &mut tally);
        built += 1;
        areas += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    tally.report("demo and kit-built areas");
    assert!(built >= 3, "only {built} example layouts built");
    assert_eq!(tally.pairs, areas * PER_AREA);
    assert_eq!(tally.disagreements(), 0);
}
