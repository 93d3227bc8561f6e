//! Binary MDL + MDX throughput over every corpus `mdl-bin` pair: decoding into the owned model
//! and writing it back, against copying the same bytes (`memcpy`).
//!
//! `cargo bench --bench mdl` (needs `../shared/corpus`). PyKotor 2.3.12's `read_mdl` on the same
//! files is timed by `python/bench/mdl_counts.py --time` (see README's benchmark table).

use divan::{Bencher, counter::BytesCount};
use std::sync::OnceLock;

fn main() {
    divan::main();
}

fn corpus() -> &'static Vec<(Vec<u8>, Vec<u8>)> {
    static FILES: OnceLock<Vec<(Vec<u8>, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        areakit_testkit::corpus_files(&["mdl-bin"])
            .iter()
            .map(|p| {
                let mdl = std::fs::read(p).expect("corpus file");
                let mdx = std::fs::read(p.with_extension("mdx")).expect("its MDX");
                (mdl, mdx)
            })
            .collect()
    })
}

fn total() -> usize {
    corpus().iter().map(|(a, x)| a.len() + x.len()).sum()
}

/// Decode every pair into the owned model (source layout recorded).
#[divan::bench(sample_count = 20)]
fn decode(b: Bencher) {
    let files = corpus();
    b.counter(BytesCount::new(total())).bench(|| {
        let mut nodes = 0usize;
        for (a, x) in files {
            let m = areakit_formats::mdl::read(divan::black_box(a), divan::black_box(x))
                .expect("decodes");
            nodes += m.nodes.len();
        }
        nodes
    });
}

/// Write every decoded model back (the source layout: the same bytes).
#[divan::bench(sample_count = 20)]
fn write(b: Bencher) {
    write_all(b, true);
}

/// Write every model in the canonical layout (as an edited model is written).
#[divan::bench(sample_count = 20)]
fn write_canonical(b: Bencher) {
    write_all(b, false);
}

/// Writes every corpus model, in its source layout or (`source_layout` false) the canonical one.
fn write_all(b: Bencher, source_layout: bool) {
    let models: Vec<_> = corpus()
        .iter()
        .map(|(a, x)| {
            let mut m = areakit_formats::mdl::read(a, x).expect("decodes");
            if !source_layout {
                m.clear_source_layout();
            }
            m
        })
        .collect();
    b.counter(BytesCount::new(total())).bench(|| {
        let mut n = 0usize;
        for m in &models {
            let (a, x) = areakit_formats::mdl::write(divan::black_box(m)).expect("writes");
            n += a.len() + x.len();
        }
        n
    });
}

/// Baseline: copy the same bytes into fresh buffers.
#[divan::bench(sample_count = 20)]
fn memcpy(b: Bencher) {
    let files = corpus();
    b.counter(BytesCount::new(total())).bench(|| {
        let mut n = 0usize;
        for (a, x) in files {
            let a = divan::black_box(a).to_vec();
            let x = divan::black_box(x).to_vec();
            n += a.len() + x.len();
        }
        n
    });
}
