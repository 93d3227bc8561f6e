//! NWN compiled-model throughput over every corpus `nwn-mdl-bin` model: decoding into the owned
//! model, writing it back (source and canonical layouts), decompiling to NWN MDL ASCII, against
//! copying the same bytes (`memcpy`) in the same run.
//!
//! `cargo bench --bench mdl_nwn` (needs `../shared/corpus`). The target is decoding at 1 GB/s
//! or more.

use areakit_formats::mdl::nwn;
use divan::{Bencher, counter::BytesCount};
use std::sync::OnceLock;

fn main() {
    divan::main();
}

fn corpus() -> &'static Vec<Vec<u8>> {
    static FILES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    FILES.get_or_init(|| {
        let files: Vec<Vec<u8>> = areakit_testkit::corpus_files(&["nwn-mdl-bin"])
            .iter()
            .map(|p| std::fs::read(p).expect("corpus file"))
            .collect();
        assert_eq!(files.len(), 108);
        files
    })
}

fn total() -> usize {
    corpus().iter().map(Vec::len).sum()
}

/// Decode every model into the owned model (source layout recorded).
#[divan::bench(sample_count = 30)]
fn decode(b: Bencher) {
    let files = corpus();
    b.counter(BytesCount::new(total())).bench(|| {
        let mut nodes = 0usize;
        for f in files {
            let m = nwn::read(divan::black_box(f)).expect("decodes");
            nodes += m.nodes.len();
        }
        nodes
    });
}

/// Write every decoded model back (its source layout: the same bytes).
#[divan::bench(sample_count = 30)]
fn write(b: Bencher) {
    write_all(b, true);
}

/// Write every model in the canonical layout (as an edited model is written).
#[divan::bench(sample_count = 30)]
fn write_canonical(b: Bencher) {
    write_all(b, false);
}

fn write_all(b: Bencher, source_layout: bool) {
    let models: Vec<nwn::Model> = corpus()
        .iter()
        .map(|f| {
            let mut m = nwn::read(f).expect("decodes");
            if !source_layout {
                m.clear_source_layout();
            }
            m
        })
        .collect();
    b.counter(BytesCount::new(total())).bench(|| {
        let mut n = 0usize;
        for m in &models {
            n += nwn::write(divan::black_box(m)).expect("writes").len();
        }
        n
    });
}

/// Decompile every model to NWN MDL ASCII text.
#[divan::bench(sample_count = 10)]
fn to_ascii(b: Bencher) {
    let models: Vec<nwn::Model> = corpus().iter().map(|f| nwn::read(f).unwrap()).collect();
    b.counter(BytesCount::new(total())).bench(|| {
        let mut n = 0usize;
        for m in &models {
            let text = areakit_formats::mdl_ascii::write(&nwn::to_ascii(divan::black_box(m)));
            n += text.len();
        }
        n
    });
}

/// Baseline: copy the same bytes into fresh buffers.
#[divan::bench(sample_count = 30)]
fn memcpy(b: Bencher) {
    let files = corpus();
    b.counter(BytesCount::new(total())).bench(|| {
        let mut n = 0usize;
        for f in files {
            n += divan::black_box(f).to_vec().len();
        }
        n
    });
}
