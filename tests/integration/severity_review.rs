//! The severity promise over the whole corpus: `areakit check ../shared/corpus` gives error
//! findings only on the files `docs/checks.md` names as broken ("Severity review"), and on each
//! of them.

use crate::common;

use std::collections::BTreeSet;
use std::process::Command;

/// The files the docs name as broken, by the end of their path. PyKotor's deliberately
/// corrupted test files (`test_corrupted.*`) are matched by name.
const BROKEN: [&str; 5] = [
    "openkotor_pykotor/out.wok",
    "kits/old/dantooineestate.json",
    "kits/old/enclavesurface.json",
    "kits_v2/floor_plain.wok",
    "test_files/mdl/c_dewback.mdl",
];

fn documented_broken(path: &str) -> bool {
    let path = path.replace('\\', "/");
    let name = path.rsplit('/').next().unwrap_or("");
    BROKEN.iter().any(|b| path.ends_with(b)) || name.starts_with("test_corrupted.")
}

#[test]
fn errors_only_on_the_files_the_docs_name_as_broken() {
    let dir = common::corpus_dir();
    let out = Command::new(env!("CARGO_BIN_EXE_areakit"))
        .args(["check", "--json"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "the broken files make check exit 1; stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let checked = v["files_checked"].as_u64().unwrap();
    assert!(checked >= 580, "only {checked} corpus files checked");

    let mut with_errors = BTreeSet::new();
    for f in v["findings"].as_array().unwrap() {
        if f["severity"] == "error" {
            with_errors.insert(f["path"].as_str().unwrap().to_string());
        }
    }
    let undocumented: Vec<&String> = with_errors
        .iter()
        .filter(|p| !documented_broken(p))
        .collect();
    assert!(
        undocumented.is_empty(),
        "error findings on files docs/checks.md does not name as broken: {undocumented:#?}"
    );
    for b in BROKEN {
        assert!(
            with_errors
                .iter()
                .any(|p| p.replace('\\', "/").ends_with(b)),
            "{b} is documented as broken but has no error finding"
        );
    }
    println!(
        "{checked} files checked; errors on {} files, all documented as broken",
        with_errors.len()
    );
}
