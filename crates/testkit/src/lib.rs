//! Test support shared by areakit's crates: the real-file corpus in `../shared/corpus` beside
//! the checkout (never copied into the repository), the navigation tests' independent
//! shortest-path oracle ([`nav_oracle`]) and their generated ground ([`nav_meshes`]), and
//! the import-cycle search of the layers tests ([`layers`]). A dev-dependency only.

use std::path::{Path, PathBuf};

/// The corpus folder beside the checkout (`AREAKIT_CORPUS` overrides it).
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("AREAKIT_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    }
}

/// Every corpus file whose `format` column in `SOURCES.tsv` is one of `formats`, sorted.
/// Panics (failing the test) when `SOURCES.tsv` is missing: a corpus test must not pass on an
/// empty folder.
pub fn corpus_files(formats: &[&str]) -> Vec<PathBuf> {
    let dir = corpus_dir();
    let sources = std::fs::read_to_string(dir.join("SOURCES.tsv"))
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.join("SOURCES.tsv").display()));
    let mut lines = sources.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let fi = header
        .iter()
        .position(|c| *c == "file")
        .expect("file column");
    let fo = header
        .iter()
        .position(|c| *c == "format")
        .expect("format column");
    let mut out = Vec::new();
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.get(fo).is_some_and(|f| formats.contains(f))
            && let Some(file) = cols.get(fi)
        {
            out.push(dir.join(file));
        }
    }
    out.sort();
    out
}

pub mod layers;
pub mod nav_meshes;
pub mod nav_oracle;
