//! Every corpus LYT and VIS file reads without error and writes back byte for byte.

mod common;

use areakit_formats::lyt;

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
