//! `check_bwm` over the corpus: no error on the files of the game's tools and PyKotor's
//! writer; errors on the damaged files; every rebuilt walkmesh is free of structural findings.

use std::collections::BTreeMap;

use areakit_area::walkmesh::{self, check_bwm};
use areakit_formats::Severity;
use areakit_formats::bwm;

/// Codes that describe the stored derived data or drift in the source geometry — the ones a
/// rebuild can still show (geometry the rebuild keeps as it is).
const GEOMETRY_ONLY: &[&str] = &[
    "bwm-degenerate-face",
    "bwm-duplicate-face",
    "bwm-non-manifold-edge",
    "bwm-walkable-facing-down",
    "bwm-t-junction",
    "bwm-crack",
    "bwm-overlap",
    "bwm-small-island",
    "bwm-walkable-count",
    // Follows from non-manifold edges (out.wok): adjacency can name one of three faces.
    "bwm-adjacency-asymmetric",
    // Non-manifold boundaries (out.wok) cannot always be split into closed loops.
    "bwm-perimeter-loop",
];

#[test]
fn corpus_check_findings() {
    let files = areakit_testkit::corpus_files(&["wok", "bwm", "pwk"]);
    assert_eq!(files.len(), 112);
    let mut codes: BTreeMap<(&'static str, Severity), usize> = BTreeMap::new();
    let mut with_errors = Vec::new();
    for path in &files {
        let m = bwm::read(&std::fs::read(path).unwrap()).unwrap();
        let findings = check_bwm(&m);
        let name = path
            .strip_prefix(areakit_testkit::corpus_dir())
            .unwrap()
            .display()
            .to_string();
        for f in &findings {
            *codes.entry((f.code, f.severity)).or_default() += 1;
            if f.severity == Severity::Error {
                println!("ERROR {name}: {} {} ({})", f.code, f.message, f.place);
            }
            // Every finding names a place.
            assert!(
                f.place.face.is_some() || f.place.item.is_some() || f.place.offset.is_some(),
                "{f:?}"
            );
        }
        if findings.iter().any(|f| f.severity == Severity::Error) {
            with_errors.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
        // The rebuild repairs every structural problem.
        let r = walkmesh::rebuild(&m).unwrap();
        for f in check_bwm(&r) {
            assert!(
                GEOMETRY_ONLY.contains(&f.code)
                    || f.severity == Severity::Warning
                        && f.code == "bwm-normal-mismatch"
                        && name.ends_with(".pwk"),
                "{name} rebuilt: {f:?} ({})",
                f.place
            );
            assert!(
                f.severity != Severity::Error || f.code == "bwm-walkable-count",
                "{name} rebuilt: {f:?}"
            );
        }
    }
    for ((c, s), n) in &codes {
        println!("{c:28} {s:8} {n}");
    }
    with_errors.sort();
    assert_eq!(with_errors, ["floor_plain.wok", "out.wok"]);
}
