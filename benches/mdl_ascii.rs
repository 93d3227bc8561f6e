//! MDL ASCII parse throughput over every corpus `mdl-ascii` file, against a plain
//! line-splitting pass over the same bytes.
//!
//! `cargo bench --bench mdl_ascii` (needs `../shared/corpus`).

use divan::{Bencher, counter::BytesCount};
use std::sync::OnceLock;

fn main() {
    divan::main();
}

fn corpus() -> &'static Vec<Vec<u8>> {
    static FILES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    FILES.get_or_init(|| {
        areakit_testkit::corpus_files(&["mdl-ascii"])
            .iter()
            .map(|p| std::fs::read(p).expect("corpus file"))
            .collect()
    })
}

fn total() -> usize {
    corpus().iter().map(Vec::len).sum()
}

/// The full reader: typed model, original spans, findings.
#[divan::bench(sample_count = 20)]
fn parse(b: Bencher) {
    let files = corpus();
    b.counter(BytesCount::new(total())).bench(|| {
        let mut nodes = 0usize;
        for f in files {
            let m = areakit_formats::mdl_ascii::read(divan::black_box(f)).expect("parses");
            nodes += m.stmts.len();
        }
        nodes
    });
}

/// Baseline: split the same bytes into lines and count non-blank ones.
#[divan::bench(sample_count = 20)]
fn line_split(b: Bencher) {
    let files = corpus();
    b.counter(BytesCount::new(total())).bench(|| {
        let mut n = 0usize;
        for f in files {
            n += divan::black_box(f)
                .split(|&c| c == b'\n')
                .filter(|l| !l.is_empty())
                .count();
        }
        n
    });
}

/// Baseline plus whitespace tokenizing (what any text parser must at least do).
#[divan::bench(sample_count = 20)]
fn line_split_tokens(b: Bencher) {
    let files = corpus();
    b.counter(BytesCount::new(total())).bench(|| {
        let mut n = 0usize;
        for f in files {
            for l in divan::black_box(f).split(|&c| c == b'\n') {
                n += l
                    .split(|c| c.is_ascii_whitespace())
                    .filter(|t| !t.is_empty())
                    .count();
            }
        }
        n
    });
}

/// Lossless write of unmodified models (re-parses each statement to confirm it is unchanged).
#[divan::bench(sample_count = 10)]
fn write_lossless(b: Bencher) {
    let models: Vec<_> = corpus()
        .iter()
        .map(|f| areakit_formats::mdl_ascii::read(f).expect("parses"))
        .collect();
    b.counter(BytesCount::new(total())).bench(|| {
        models
            .iter()
            .map(|m| areakit_formats::mdl_ascii::write(m).len())
            .sum::<usize>()
    });
}
