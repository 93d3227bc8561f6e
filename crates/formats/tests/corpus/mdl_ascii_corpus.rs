//! Every corpus MDL ASCII, WOK ASCII and PWK ASCII file reads, writes back byte-identical, and
//! its canonical text reads back to an equal model.

use areakit_formats::mdl_ascii;

const FORMATS: &[&str] = &["mdl-ascii", "wok-ascii", "pwk-ascii"];

#[test]
fn corpus_round_trips() {
    let files = areakit_testkit::corpus_files(FORMATS);
    assert_eq!(
        files.len(),
        380,
        "370 mdl-ascii + 5 wok-ascii + 5 pwk-ascii"
    );
    let mut findings_total = 0usize;
    let mut by_code = std::collections::BTreeMap::<&str, usize>::new();
    let (mut identical, mut canonical_equal) = (0, 0);
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let (model, findings) = mdl_ascii::read_with_findings(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        findings_total += findings.len();
        for x in &findings {
            *by_code.entry(x.code).or_default() += 1;
        }
        let out = mdl_ascii::write(&model);
        assert!(out == bytes, "{}: lossless write differs", f.display());
        identical += 1;
        let canon = mdl_ascii::write_canonical(&model);
        let again = mdl_ascii::read(canon.as_bytes()).unwrap();
        assert!(again == model, "{}: canonical re-read differs", f.display());
        // Canonical text is a fixed point.
        assert_eq!(mdl_ascii::write_canonical(&again), canon, "{}", f.display());
        canonical_equal += 1;
    }
    assert_eq!(identical, 380);
    assert_eq!(canonical_equal, 380);
    eprintln!("read findings: {findings_total} {by_code:?}");
}
