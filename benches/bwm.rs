//! BWM decode throughput over every corpus WOK, against copying the same bytes (`to_vec`) in the
//! same run. Run: `cargo bench --bench bwm`.

use areakit_formats::bwm;
use divan::{Bencher, black_box, counter::BytesCount};

fn main() {
    divan::main();
}

/// Every `wok` file listed in the corpus SOURCES.tsv.
fn corpus_woks() -> Vec<Vec<u8>> {
    let files: Vec<Vec<u8>> = areakit_testkit::corpus_files(&["wok"])
        .iter()
        .map(|p| std::fs::read(p).expect("corpus file"))
        .collect();
    assert_eq!(files.len(), 108, "expected 108 corpus WOK files");
    files
}

fn total(files: &[Vec<u8>]) -> usize {
    files.iter().map(Vec::len).sum()
}

/// Baseline: an owned copy of every file's bytes.
#[divan::bench]
fn memcpy_all_woks(b: Bencher) {
    let files = corpus_woks();
    b.counter(BytesCount::new(total(&files))).bench(|| {
        for f in &files {
            black_box(black_box(f.as_slice()).to_vec());
        }
    });
}

/// Owned decode of every file (validated, every table in Vecs).
#[divan::bench]
fn decode_all_woks(b: Bencher) {
    let files = corpus_woks();
    b.counter(BytesCount::new(total(&files))).bench(|| {
        for f in &files {
            black_box(bwm::read(black_box(f)).expect("corpus WOK decodes"));
        }
    });
}

/// Encode of every file (the decoded models, written back).
#[divan::bench]
fn encode_all_woks(b: Bencher) {
    let files = corpus_woks();
    let models: Vec<_> = files
        .iter()
        .map(|f| bwm::read(f).expect("decodes"))
        .collect();
    b.counter(BytesCount::new(total(&files))).bench(|| {
        for m in &models {
            black_box(bwm::write(black_box(m)).expect("encodes"));
        }
    });
}

/// Zero-copy validated view of every file (same checks as the owned decode, no allocation).
#[divan::bench]
fn view_all_woks(b: Bencher) {
    let files = corpus_woks();
    b.counter(BytesCount::new(total(&files))).bench(|| {
        for f in &files {
            black_box(bwm::BwmView::parse(black_box(f)).expect("corpus WOK parses"));
        }
    });
}
