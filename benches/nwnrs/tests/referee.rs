//! nwnrs-types, an independent reader, against areakit over every corpus NWN compiled model:
//! the `info` counts and node names, then vertex, UV, normal, face, controller-key and event
//! values bit for bit. Run with `cargo test --release` in this folder (not part of CI: it
//! builds the referee, a GPL-3.0 crate, outside the product's dependency graph).

use areakit_nwnrs_referee::{areakit, differences, nwnrs, value_differences};

#[test]
fn nwnrs_types_reads_every_corpus_model_as_areakit_does() {
    let files = areakit_testkit::corpus_files(&["nwn-mdl-bin"]);
    assert_eq!(files.len(), 108);
    let mut disagreements = Vec::new();
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let ours = areakit(p, &bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let (theirs, model) =
            nwnrs(&bytes).unwrap_or_else(|e| panic!("{}: nwnrs: {e}", p.display()));
        for d in differences(&ours, &theirs)
            .into_iter()
            .chain(value_differences(p, &bytes, &model))
        {
            disagreements.push(format!("{}: {d}", p.display()));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
