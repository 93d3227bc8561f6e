//! Access to the real-file corpus in `../shared/corpus` (never copied into this repository).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub mod module_fixture;

/// The corpus folder beside the checkout.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

/// Every corpus file whose `format` column in `SOURCES.tsv` is one of `formats`.
/// Panics (failing the test) when `SOURCES.tsv` is missing: a corpus test must not pass on an
/// empty folder.
pub fn corpus_files(formats: &[&str]) -> Vec<PathBuf> {
    let dir = corpus_dir();
    let sources = std::fs::read_to_string(dir.join("SOURCES.tsv"))
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.join("SOURCES.tsv").display()));
    let mut header = None;
    let mut out = Vec::new();
    for line in sources.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        let Some(h) = &header else {
            header = Some(cols.iter().map(|s| s.to_string()).collect::<Vec<_>>());
            continue;
        };
        let fi = h.iter().position(|c| c == "file").expect("file column");
        let fo = h.iter().position(|c| c == "format").expect("format column");
        if formats.contains(&cols[fo]) {
            out.push(dir.join(cols[fi]));
        }
    }
    out.sort();
    out
}

/// A closed box walkmesh (placeable or door, every face non-walkable): `2 hx` by `2 hy` in
/// plan about the origin, `h` high, with everything derived rebuilt.
#[allow(dead_code)]
pub fn box_walkmesh(hx: f32, hy: f32, h: f32) -> areakit_app::formats::bwm::Bwm {
    use areakit_app::formats::bwm;
    let mut m = bwm::Bwm {
        walkmesh_type: bwm::WalkmeshType::PlaceableOrDoor,
        ..bwm::Bwm::default()
    };
    for z in [0.0, h] {
        for (x, y) in [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)] {
            m.vertices.push([x, y, z]);
        }
    }
    for [a, b, c, d] in [
        [4, 5, 6, 7],
        [0, 1, 5, 4],
        [1, 2, 6, 5],
        [2, 3, 7, 6],
        [3, 0, 4, 7],
    ] {
        for v in [[a, b, c], [a, c, d]] {
            m.faces.push(bwm::Face {
                vertices: v,
                material: bwm::Material::NonWalk,
            });
        }
    }
    areakit_app::walkmesh::rebuild(&m).unwrap()
}
