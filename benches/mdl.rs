//! Compiled-model throughput, each against copying the same bytes (`memcpy`) in the same run:
//! every corpus KotOR `mdl-bin` pair (MDL + MDX) and every NWN `nwn-mdl-bin` model, decoded
//! into the owned model and written back (source and canonical layouts); NWN models also
//! decompiled to NWN MDL ASCII.
//!
//! `cargo bench --bench mdl` (needs `../shared/corpus`). PyKotor 2.3.12's `read_mdl` on the
//! KotOR files is timed by `python/bench/mdl_counts.py --time` (see README's benchmark table).
//! The target for NWN decoding is 1 GB/s or more.

use divan::{Bencher, counter::BytesCount};
use std::sync::OnceLock;

fn main() {
    divan::main();
}

/// Runs `f` over every item, counting `bytes` per run; `f` returns a size so that nothing is
/// optimised away (the copies of `memcpy` also go through `black_box`: a copy whose only use
/// is its length is otherwise elided).
fn over<T: Sync>(b: Bencher, bytes: usize, items: &[T], f: impl Fn(&T) -> usize + Sync) {
    b.counter(BytesCount::new(bytes))
        .bench(|| items.iter().map(|t| f(divan::black_box(t))).sum::<usize>());
}

/// KotOR: MDL + MDX pairs.
mod kotor {
    use super::*;
    use areakit_formats::mdl;

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

    /// Every model decoded, its source layout or (`source_layout` false) none kept.
    fn models(source_layout: bool) -> Vec<mdl::Model> {
        corpus()
            .iter()
            .map(|(a, x)| {
                let mut m = mdl::read(a, x).expect("decodes");
                if !source_layout {
                    m.clear_source_layout();
                }
                m
            })
            .collect()
    }

    /// Decode every pair into the owned model (source layout recorded).
    #[divan::bench(sample_count = 20)]
    fn decode(b: Bencher) {
        over(b, total(), corpus(), |(a, x)| {
            mdl::read(a, x).expect("decodes").nodes.len()
        });
    }

    /// Write every decoded model back (the source layout: the same bytes).
    #[divan::bench(sample_count = 20)]
    fn write(b: Bencher) {
        over(b, total(), &models(true), |m| {
            let (a, x) = mdl::write(m).expect("writes");
            a.len() + x.len()
        });
    }

    /// Write every model in the canonical layout (as an edited model is written).
    #[divan::bench(sample_count = 20)]
    fn write_canonical(b: Bencher) {
        over(b, total(), &models(false), |m| {
            let (a, x) = mdl::write(m).expect("writes");
            a.len() + x.len()
        });
    }

    /// Baseline: copy the same bytes into fresh buffers.
    #[divan::bench(sample_count = 20)]
    fn memcpy(b: Bencher) {
        over(b, total(), corpus(), |(a, x)| {
            divan::black_box(a.to_vec()).len() + divan::black_box(x.to_vec()).len()
        });
    }
}

/// NWN: one file a model.
mod nwn {
    use super::*;
    use areakit_formats::mdl::nwn;

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

    /// Every model decoded, its source layout or (`source_layout` false) none kept.
    fn models(source_layout: bool) -> Vec<nwn::Model> {
        corpus()
            .iter()
            .map(|f| {
                let mut m = nwn::read(f).expect("decodes");
                if !source_layout {
                    m.clear_source_layout();
                }
                m
            })
            .collect()
    }

    /// Decode every model into the owned model (source layout recorded).
    #[divan::bench(sample_count = 30)]
    fn decode(b: Bencher) {
        over(b, total(), corpus(), |f| {
            nwn::read(f).expect("decodes").nodes.len()
        });
    }

    /// Write every decoded model back (its source layout: the same bytes).
    #[divan::bench(sample_count = 30)]
    fn write(b: Bencher) {
        over(b, total(), &models(true), |m| {
            nwn::write(m).expect("writes").len()
        });
    }

    /// Write every model in the canonical layout (as an edited model is written).
    #[divan::bench(sample_count = 30)]
    fn write_canonical(b: Bencher) {
        over(b, total(), &models(false), |m| {
            nwn::write(m).expect("writes").len()
        });
    }

    /// Decompile every model to NWN MDL ASCII text.
    #[divan::bench(sample_count = 10)]
    fn to_ascii(b: Bencher) {
        over(b, total(), &models(true), |m| {
            areakit_formats::mdl_ascii::write(&nwn::to_ascii(m)).len()
        });
    }

    /// Baseline: copy the same bytes into fresh buffers.
    #[divan::bench(sample_count = 30)]
    fn memcpy(b: Bencher) {
        over(b, total(), corpus(), |f| divan::black_box(f.to_vec()).len());
    }
}
