//! Every corpus NWN2 model (MDB) reads, writes back byte for byte, holds the packets the
//! format document lists, survives modification, and fails cleanly when cut.

use std::collections::BTreeMap;
use std::path::PathBuf;

use areakit_formats::mdb::{self, Packet};

fn corpus() -> Vec<(PathBuf, Vec<u8>)> {
    let files = areakit_testkit::corpus_files(&["mdb"]);
    assert_eq!(files.len(), 32, "expected the 32 corpus MDB files");
    files
        .into_iter()
        .map(|p| {
            let d = std::fs::read(&p).unwrap();
            (p, d)
        })
        .collect()
}

#[test]
fn corpus_reads_and_writes_byte_exact() {
    let mut covered = 0;
    let mut tags: BTreeMap<String, usize> = BTreeMap::new();
    for (path, data) in &corpus() {
        let m = mdb::read(data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(mdb::is_mdb(data), "{}", path.display());
        assert_eq!(
            (m.version_major, m.version_minor),
            (1, 12),
            "{}",
            path.display()
        );
        assert_eq!(m.layout, None, "{}: canonical layout", path.display());
        let back = mdb::write(&m).unwrap();
        assert!(
            &back == data,
            "{}: write is not byte-identical",
            path.display()
        );
        for p in &m.packets {
            *tags
                .entry(String::from_utf8_lossy(&p.tag()).into_owned())
                .or_default() += 1;
            assert!(
                !matches!(p, Packet::Other { .. }),
                "{}: every corpus packet is of a decoded kind",
                path.display()
            );
            faces_in_range(p, path);
        }
        covered += 1;
    }
    assert_eq!(covered, 32);
    // The census docs/formats/mdb.md records; no corpus model has a WALK packet.
    let census: Vec<(&str, usize)> = tags.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(census, [("COL2", 29), ("COL3", 28), ("RIGD", 39)]);
}

/// Every face of a real mesh names a vertex it has.
fn faces_in_range(p: &Packet, path: &std::path::Path) {
    let (faces, n) = match p {
        Packet::Rigid(m) => (&m.faces, m.vertices.len()),
        Packet::Collision2(m) | Packet::Collision3(m) => (&m.faces, m.vertices.len()),
        _ => return,
    };
    assert!(
        faces.iter().flatten().all(|&i| usize::from(i) < n),
        "{}: a face index past the vertices",
        path.display()
    );
}

/// No corpus terrain file is taken for a model (the same `NWN2` container).
#[test]
fn corpus_terrain_files_are_no_models() {
    let files = areakit_testkit::corpus_files(&["trx", "trn"]);
    assert_eq!(files.len(), 70);
    for p in &files {
        assert!(!mdb::is_mdb(&std::fs::read(p).unwrap()), "{}", p.display());
    }
}

#[test]
fn corpus_modified_models_round_trip() {
    let mut covered = 0;
    for (path, data) in &corpus() {
        let mut m = mdb::read(data).unwrap();
        // Move every rigid vertex and drop the last collision face: sizes change, the
        // canonical writer lays the file out again, and it reads back as the edit.
        for p in &mut m.packets {
            match p {
                Packet::Rigid(r) => r.vertices.iter_mut().for_each(|v| v.position[2] += 1.0),
                Packet::Collision2(c) | Packet::Collision3(c) => {
                    c.faces.pop();
                }
                _ => {}
            }
        }
        let bytes = mdb::write(&m).unwrap();
        assert_ne!(&bytes, data, "{}", path.display());
        assert_eq!(mdb::read(&bytes).unwrap(), m, "{}", path.display());
        covered += 1;
    }
    assert_eq!(covered, 32);
}

#[test]
fn corpus_cuts_fail_with_an_offset() {
    let files = corpus();
    // The smallest file, cut at every length, and every file at a spread of lengths.
    let (path, data) = files.iter().min_by_key(|(_, d)| d.len()).unwrap();
    let mut cuts = 0;
    for n in 0..data.len() {
        cuts += expect_cut_error(path, &data[..n]);
    }
    assert_eq!(cuts, data.len());
    for (path, data) in &files {
        for n in (0..data.len()).step_by(97) {
            expect_cut_error(path, &data[..n]);
        }
    }
}

fn expect_cut_error(path: &std::path::Path, cut: &[u8]) -> usize {
    let e = mdb::read(cut).expect_err("a cut MDB cannot read");
    assert!(
        matches!(e.location(), areakit_formats::Location::Offset(_)),
        "{} cut at {}: {e}",
        path.display(),
        cut.len()
    );
    1
}
