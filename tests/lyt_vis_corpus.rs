//! Every corpus LYT and VIS file reads without error and writes back byte for byte.

mod common;

use areakit_formats::{lyt, vis};

#[test]
fn corpus_lyt_round_trips_byte_exact() {
    let files = common::corpus_files(&["lyt"]);
    assert_eq!(files.len(), 13, "expected the 13 corpus LYT files");
    let mut covered = 0;
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let l = lyt::read(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let back = lyt::write(&l).unwrap();
        assert!(
            back == data,
            "{}: write is not byte-identical",
            path.display()
        );
        let findings = lyt::validate(&l);
        eprintln!("{}: {:?}", path.display(), l.summary());
        for f in &findings {
            eprintln!("  {} {} {}: {}", f.severity, f.code, f.place, f.message);
        }
        covered += 1;
    }
    assert_eq!(covered, 13);
}

#[test]
fn corpus_vis_round_trips_byte_exact() {
    let files = common::corpus_files(&["vis"]);
    assert_eq!(files.len(), 11, "expected the 11 corpus VIS files");
    let mut covered = 0;
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let v = vis::read(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let back = vis::write(&v).unwrap();
        assert!(
            back == data,
            "{}: write is not byte-identical",
            path.display()
        );
        // Every non-blank line is a parent or a child: nothing is dropped.
        let non_blank = String::from_utf8_lossy(&data)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .count();
        assert_eq!(
            v.rooms.len() + v.link_count(),
            non_blank,
            "{}",
            path.display()
        );
        eprintln!("{}: {:?}", path.display(), v.summary());
        for f in vis::validate(&v) {
            eprintln!("  {} {} {}: {}", f.severity, f.code, f.place, f.message);
        }
        covered += 1;
    }
    assert_eq!(covered, 11);
}
