//! Every corpus 2DA reads and writes back byte for byte; binary → text → binary keeps every
//! cell; the canonical binary layout reproduces the files written in it.

use areakit_formats::twoda::{self, TwoDa, Variant};
use areakit_formats::{ErrorKind, Location};

/// A corpus path without the corpus folder and the family folder.
fn corpus_name(path: &std::path::Path) -> String {
    let rel = path
        .strip_prefix(areakit_testkit::corpus_dir())
        .unwrap_or(path);
    let parts: Vec<_> = rel.iter().skip(1).map(|p| p.to_string_lossy()).collect();
    parts.join("/")
}

/// The corpus 2DA files: (name, bytes).
fn files() -> Vec<(String, Vec<u8>)> {
    let files = areakit_testkit::corpus_files(&["2da"]);
    assert_eq!(files.len(), 14, "expected the 14 corpus 2DA files");
    files
        .iter()
        .map(|p| (corpus_name(p), std::fs::read(p).unwrap()))
        .collect()
}

const CORRUPTED: &str = "/test_corrupted.2da";

#[test]
fn corpus_round_trips_byte_exact() {
    let mut read = 0;
    let mut totals = [0usize; 3];
    let mut warnings = Vec::new();
    for (name, data) in files() {
        if name.ends_with(CORRUPTED) {
            continue;
        }
        let t = twoda::read(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.variant(), Some(Variant::Binary), "{name}");
        assert!(
            twoda::write(&t).unwrap() == data,
            "{name}: write is not byte-identical"
        );
        assert!(
            twoda::write_binary(&t).unwrap() == data,
            "{name}: write_binary is not byte-identical"
        );
        totals[0] += t.rows.len();
        totals[1] += t.columns.len();
        totals[2] += t.rows.iter().map(|r| r.cells.len()).sum::<usize>();
        for f in twoda::validate(&t) {
            warnings.push(format!("{name} {} {} {}", f.severity, f.code, f.place));
        }
        read += 1;
    }
    assert_eq!(read, 13);
    assert_eq!(totals, [2902, 313, 118_594], "rows, columns, cells");
    assert_eq!(warnings, WARNINGS);
}

/// What `validate` says about the corpus (file, severity, code, place), in file order.
const WARNINGS: [&str; 6] = [
    "KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/visualeffects.2da warning twoda-row-label-not-index rows[0]",
    "openkotor_pykotor/Libraries/PyKotor/tests/test_files/appearance.2da warning twoda-data-size-mismatch offset 0x225f9",
    "openkotor_pykotor/Libraries/PyKotor/tests/test_files/appearance.2da warning twoda-duplicate-row-label rows[673]",
    "openkotor_pykotor/Libraries/PyKotor/tests/test_files/appearance.2da warning twoda-row-label-not-index rows[673]",
    "openkotor_pykotor/Libraries/PyKotor/tests/test_files/test.2da warning twoda-data-size-mismatch offset 0x36",
    "openkotor_pykotor/Libraries/PyKotor/tests/test_files/test.2da warning twoda-row-label-not-index rows[0]",
];

#[test]
fn corrupted_file_gives_a_located_error() {
    let (_, data) = files()
        .into_iter()
        .find(|(n, _)| n.ends_with(CORRUPTED))
        .expect("the corrupted PyKotor file is in the corpus");
    let e = twoda::read(&data).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Malformed);
    assert_eq!(e.location(), Location::Offset(8));
    assert!(e.message().contains("line feed"), "{e}");
}

#[test]
fn binary_to_text_to_binary_keeps_every_cell() {
    let mut converted = 0;
    let mut cells = 0;
    for (name, data) in files() {
        let Ok(t) = twoda::read(&data) else { continue };
        let text = twoda::write_text(&t).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = twoda::read(&text).unwrap_or_else(|e| panic!("{name} as text: {e}"));
        assert_eq!(back.variant(), Some(Variant::Text));
        assert_eq!(back, t, "{name}: text changed the table");
        // The text reads without any finding: the canonical text is regular.
        assert!(
            back.read_findings().is_empty(),
            "{name}: {:?}",
            back.read_findings()
        );
        let binary = twoda::write_binary(&back).unwrap();
        let again = twoda::read(&binary).unwrap();
        assert_eq!(again, t, "{name}: binary → text → binary changed the table");
        // Text written from the re-read text is the same text.
        assert!(twoda::write_text(&back).unwrap() == text, "{name}");
        cells += t.rows.iter().map(|r| r.cells.len()).sum::<usize>();
        converted += 1;
    }
    assert_eq!(converted, 13);
    assert_eq!(cells, 118_594);
}

#[test]
fn canonical_binary_layout_reproduces_the_community_patch_files() {
    // The 11 files of the community patch are laid out exactly as `write_binary` lays out a
    // table canonically; PyKotor's 2 test files are not (data size 0, another string order).
    let mut same = Vec::new();
    let mut differ = Vec::new();
    for (name, data) in files() {
        let Ok(mut t) = twoda::read(&data) else {
            continue;
        };
        t.clear_source();
        let canonical = twoda::write_binary(&t).unwrap();
        assert_eq!(canonical.len(), data.len(), "{name}: canonical size");
        let back: TwoDa = twoda::read(&canonical).unwrap();
        assert_eq!(back, t, "{name}");
        if canonical == data {
            same.push(name);
        } else {
            differ.push(name);
        }
    }
    assert_eq!(same.len(), 11, "{differ:?}");
    assert!(
        same.iter().all(|n| n.contains("K1_Community_Patch")),
        "{same:?}"
    );
    assert_eq!(differ.len(), 2, "{differ:?}");
}

#[test]
fn editing_one_cell_relays_the_strings_and_keeps_the_rest() {
    let mut edited = 0;
    for (name, data) in files() {
        let Ok(mut t) = twoda::read(&data) else {
            continue;
        };
        if t.columns.is_empty() || t.rows.is_empty() {
            continue;
        }
        let col = t.columns[0].clone();
        t.set(0, &col, "areakit-edit").unwrap();
        let bytes = twoda::write(&t).unwrap();
        let back = twoda::read(&bytes).unwrap();
        assert_eq!(back, t, "{name}");
        assert_eq!(back.get(0, &col), Some("areakit-edit"));
        // Labels and columns are written as before: the bytes agree up to the offset table.
        let head = data.len().min(bytes.len());
        let header_end = 9 + t.columns.iter().map(|c| c.len() + 1).sum::<usize>() + 1 + 4;
        assert_eq!(
            bytes[..header_end.min(head)],
            data[..header_end.min(head)],
            "{name}"
        );
        edited += 1;
    }
    assert_eq!(edited, 13);
}
