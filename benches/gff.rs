//! GFF decode and encode throughput over the 35 loose corpus GFFs and over the GFF members of
//! the corpus capsules (about 6 000), against copying the same bytes (`to_vec`) in the same
//! run. Run: `cargo bench --bench gff`.

use areakit_formats::gff;
use divan::{Bencher, black_box, counter::BytesCount};

fn main() {
    divan::main();
}

/// Every `gff` file listed in the corpus SOURCES.tsv.
fn loose() -> Vec<Vec<u8>> {
    let files: Vec<Vec<u8>> = areakit_testkit::corpus_files(&["gff"])
        .iter()
        .map(|p| std::fs::read(p).expect("corpus file"))
        .collect();
    assert_eq!(files.len(), 35, "expected 35 loose corpus GFF files");
    files
}

/// Every GFF member of the corpus capsules (ERF/MOD and RIM files that read; PyKotor's
/// deliberately corrupted ones do not).
fn members() -> Vec<Vec<u8>> {
    use areakit_formats::{erf, rim};
    let mut out = Vec::new();
    for (format, path) in ["erf", "rim"].into_iter().flat_map(|f| {
        areakit_testkit::corpus_files(&[f])
            .into_iter()
            .map(move |p| (f, p))
    }) {
        let data = std::fs::read(path).expect("corpus file");
        let members: Vec<Vec<u8>> = if format == "erf" {
            erf::read(&data)
                .map(|e| e.resources.into_iter().map(|r| r.data).collect())
                .unwrap_or_default()
        } else {
            rim::read(&data)
                .map(|r| r.resources.into_iter().map(|r| r.data).collect())
                .unwrap_or_default()
        };
        out.extend(members.into_iter().filter(|d| d.get(4..8) == Some(b"V3.2")));
    }
    assert!(
        out.len() >= 5_000,
        "only {} GFF members in the corpus capsules",
        out.len()
    );
    out
}

fn total(files: &[Vec<u8>]) -> usize {
    files.iter().map(Vec::len).sum()
}

fn memcpy(b: Bencher, files: &[Vec<u8>]) {
    b.counter(BytesCount::new(total(files))).bench(|| {
        for f in files {
            black_box(black_box(f.as_slice()).to_vec());
        }
    });
}

fn decode(b: Bencher, files: &[Vec<u8>]) {
    b.counter(BytesCount::new(total(files))).bench(|| {
        for f in files {
            black_box(gff::read(black_box(f)).expect("corpus GFF decodes"));
        }
    });
}

/// Baseline: an owned copy of every file's bytes.
#[divan::bench]
fn loose_memcpy(b: Bencher) {
    memcpy(b, &loose());
}

/// Decode of every file into the owned tree (the input is kept as the original layout).
#[divan::bench]
fn loose_decode(b: Bencher) {
    decode(b, &loose());
}

/// Encode of every decoded, unmodified tree into its original layout (walks the tree and the
/// original tables in step, checking every value).
#[divan::bench]
fn loose_encode_original_layout(b: Bencher) {
    let files = loose();
    let trees: Vec<gff::Gff> = files.iter().map(|f| gff::read(f).unwrap()).collect();
    b.counter(BytesCount::new(total(&files))).bench(|| {
        for t in &trees {
            black_box(gff::write(black_box(t)).unwrap());
        }
    });
}

/// Encode of every decoded tree in the canonical layout (numbering, label table, one buffer).
#[divan::bench]
fn loose_encode_canonical(b: Bencher) {
    let files = loose();
    let trees: Vec<gff::Gff> = files.iter().map(|f| gff::read(f).unwrap()).collect();
    b.counter(BytesCount::new(total(&files))).bench(|| {
        for t in &trees {
            black_box(gff::write_canonical(black_box(t)).unwrap());
        }
    });
}

/// Baseline over the capsule members (see the module docs).
#[divan::bench(sample_count = 20)]
fn members_memcpy(b: Bencher) {
    memcpy(b, &members());
}

/// Decode over the capsule members.
#[divan::bench(sample_count = 20)]
fn members_decode(b: Bencher) {
    decode(b, &members());
}

/// Canonical encode over the capsule members.
#[divan::bench(sample_count = 20)]
fn members_encode_canonical(b: Bencher) {
    let files = members();
    let trees: Vec<gff::Gff> = files.iter().map(|f| gff::read(f).unwrap()).collect();
    b.counter(BytesCount::new(total(&files))).bench(|| {
        for t in &trees {
            black_box(gff::write_canonical(black_box(t)).unwrap());
        }
    });
}
