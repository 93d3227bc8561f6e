//! Textures: DXT decoding of every level of every corpus TPC to RGBA (the throughput counts
//! the RGBA bytes written), against texpresso's decoder on the same blocks in the same run;
//! reading the corpus TPCs (parse and copy, no decoding); encoding a 512x512 picture as DXT1
//! and DXT5 with its mip chain.
//!
//! `cargo bench --bench texture` (needs `../shared/corpus`). PyKotor 2.3.12's TPC read on the
//! same files is timed by `python/bench/textures.sh` (same machine, same run of that script).

use divan::{Bencher, counter::BytesCount};
use std::sync::OnceLock;

use areakit_formats::{dxt, image::Image, tpc};

fn main() {
    divan::main();
}

fn corpus() -> &'static Vec<Vec<u8>> {
    static FILES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    FILES.get_or_init(|| {
        areakit_testkit::corpus_files(&["tpc"])
            .iter()
            .map(|p| std::fs::read(p).expect("corpus file"))
            .collect()
    })
}

/// A DXT level: block kind, width, height, blocks.
type Level = (dxt::Block, u32, u32, Vec<u8>);

/// Every DXT level of the corpus.
fn levels() -> &'static Vec<Level> {
    static LEVELS: OnceLock<Vec<Level>> = OnceLock::new();
    LEVELS.get_or_init(|| {
        let mut out = Vec::new();
        for data in corpus() {
            let t = tpc::read(data).expect("decodes");
            let Some(block) = t.encoding.block() else {
                continue;
            };
            for m in t.layers.iter().flatten() {
                out.push((block, m.width, m.height, m.data.clone()));
            }
        }
        out
    })
}

fn rgba_bytes() -> usize {
    levels()
        .iter()
        .map(|(_, w, h, _)| *w as usize * *h as usize * 4)
        .sum()
}

/// areakit's DXT decoding (bcdec_rs) of every DXT level of the corpus.
#[divan::bench(sample_count = 30)]
fn dxt_decode(b: Bencher) {
    let levels = levels();
    b.counter(BytesCount::new(rgba_bytes())).bench(|| {
        let mut n = 0usize;
        for (kind, w, h, data) in levels {
            n += dxt::decode(*kind, divan::black_box(data), *w, *h)
                .expect("decodes")
                .rgba
                .len();
        }
        n
    });
}

/// The baseline: texpresso's decoder on the same levels, into the same RGBA output.
#[divan::bench(sample_count = 30)]
fn dxt_decode_texpresso(b: Bencher) {
    let levels = levels();
    b.counter(BytesCount::new(rgba_bytes())).bench(|| {
        let mut n = 0usize;
        for (kind, w, h, data) in levels {
            let format = match kind {
                dxt::Block::Dxt1 => texpresso::Format::Bc1,
                dxt::Block::Dxt3 => texpresso::Format::Bc2,
                dxt::Block::Dxt5 => texpresso::Format::Bc3,
            };
            let mut out = vec![0u8; *w as usize * *h as usize * 4];
            format.decompress(divan::black_box(data), *w as usize, *h as usize, &mut out);
            n += out.len();
        }
        n
    });
}

/// Reading every corpus TPC (header, levels, trailer: parse and copy; no pixels decoded).
#[divan::bench(sample_count = 30)]
fn tpc_read(b: Bencher) {
    let files = corpus();
    let total: usize = files.iter().map(Vec::len).sum();
    b.counter(BytesCount::new(total)).bench(|| {
        let mut n = 0usize;
        for d in files {
            n += tpc::read(divan::black_box(d)).expect("reads").mip_count();
        }
        n
    });
}

/// Reading every corpus TPC and decoding its first level to RGBA (what a viewer does).
#[divan::bench(sample_count = 20)]
fn tpc_read_and_decode(b: Bencher) {
    let files = corpus();
    let total: usize = files.iter().map(Vec::len).sum();
    b.counter(BytesCount::new(total)).bench(|| {
        let mut n = 0usize;
        for d in files {
            let t = tpc::read(divan::black_box(d)).expect("reads");
            n += t.rgba(0, 0).expect("decodes").rgba.len();
        }
        n
    });
}

/// A 512x512 picture (the first level of a corpus DXT5 texture) encoded with its mip chain.
#[divan::bench(args = ["dxt1", "dxt5"], sample_count = 5)]
fn encode_512(b: Bencher, encoding: &str) {
    let src = corpus()
        .iter()
        .map(|d| tpc::read(d).expect("reads"))
        .find(|t| t.encoding == tpc::Encoding::Dxt5 && t.width() == 512)
        .expect("a 512x512 DXT5 texture");
    let img: Image = src.rgba(0, 0).expect("decodes");
    let opts = tpc::EncodeOptions {
        encoding: tpc::Encoding::from_name(encoding),
        ..Default::default()
    };
    b.counter(BytesCount::new(img.rgba.len()))
        .bench(|| tpc::Tpc::from_image(divan::black_box(&img), b"", &opts).expect("encodes"));
}
