//! TRX reading against raw zlib inflation of the same ASWM packets, and baking.
//! `cargo bench --bench trx`

use areakit_app::formats::trx;

fn corpus_trx() -> Vec<Vec<u8>> {
    let files: Vec<Vec<u8>> = areakit_testkit::corpus_files(&["trx"])
        .iter()
        .map(|p| std::fs::read(p).expect("file"))
        .collect();
    assert_eq!(files.len(), 61);
    files
}

/// The compressed streams and declared sizes of every ASWM packet.
fn streams(files: &[Vec<u8>]) -> Vec<(Vec<u8>, u32)> {
    files
        .iter()
        .map(|d| {
            let t = trx::read(d).unwrap();
            let p = t.aswm().unwrap().original_payload().unwrap();
            let size = u32::from_le_bytes(p[8..12].try_into().unwrap());
            (p[12..].to_vec(), size)
        })
        .collect()
}

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 20)]
fn read_all_61_trx(b: divan::Bencher) {
    let files = corpus_trx();
    b.bench(|| {
        for f in &files {
            divan::black_box(trx::read(divan::black_box(f)).unwrap());
        }
    });
}

#[divan::bench(sample_count = 20)]
fn inflate_only_61_aswm(b: divan::Bencher) {
    let s = streams(&corpus_trx());
    b.bench(|| {
        for (z, n) in &s {
            divan::black_box(trx::aswm::inflate(divan::black_box(z), *n, 8).unwrap());
        }
    });
}

#[divan::bench(sample_count = 20)]
fn write_all_61_trx_unmodified(b: divan::Bencher) {
    let models: Vec<trx::Trx> = corpus_trx().iter().map(|d| trx::read(d).unwrap()).collect();
    b.bench(|| {
        for m in &models {
            divan::black_box(trx::write(divan::black_box(m)).unwrap());
        }
    });
}

#[divan::bench(sample_count = 10)]
fn bake_largest(b: divan::Bencher) {
    let files = corpus_trx();
    let largest = files
        .iter()
        .map(|d| trx::read(d).unwrap())
        .max_by_key(|t| t.walkmesh().unwrap().triangles.len())
        .unwrap();
    b.bench(|| divan::black_box(areakit_app::bake::bake(divan::black_box(&largest)).unwrap()));
}

#[divan::bench(sample_count = 10)]
fn validate_largest(b: divan::Bencher) {
    let files = corpus_trx();
    let largest = files
        .iter()
        .map(|d| trx::read(d).unwrap())
        .max_by_key(|t| t.walkmesh().unwrap().triangles.len())
        .unwrap();
    b.bench(|| divan::black_box(trx::validate(divan::black_box(&largest))));
}

/// The 8 corpus areas with TRN and GIT: (TRN model, GIT).
fn areas_with_git() -> Vec<(trx::Trx, areakit_app::nwn2_git::Nwn2Git)> {
    let gits = areakit_testkit::corpus_files(&["nwn2-git"]);
    assert_eq!(gits.len(), 8);
    gits.iter()
        .map(|g| {
            let dir = g.parent().unwrap();
            let stem = g.file_stem().unwrap();
            let trn = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| {
                    p.file_stem() == Some(stem)
                        && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("trn"))
                })
                .unwrap();
            let t = trx::read(&std::fs::read(trn).unwrap()).unwrap();
            let gff = areakit_app::formats::gff::read(&std::fs::read(g).unwrap()).unwrap();
            (t, areakit_app::nwn2_git::Nwn2Git::from_gff(&gff).unwrap())
        })
        .collect()
}

/// `bake --git` of the 8 areas: every cutter cut (482 cutters over 29 414 TRN triangles), the
/// TRX laid out, the tables baked. Compare with `bake_8_trn_tables_only` in the same run.
#[divan::bench(sample_count = 10)]
fn bake_8_areas_with_their_git(b: divan::Bencher) {
    let areas = areas_with_git();
    b.bench(|| {
        for (t, g) in &areas {
            divan::black_box(areakit_app::bake::bake_with_git(t, Some(g), &[]).unwrap());
        }
    });
}

/// The baseline of `bake_8_areas_with_their_git`: the same 8 TRN, tables only.
#[divan::bench(sample_count = 10)]
fn bake_8_trn_tables_only(b: divan::Bencher) {
    let areas = areas_with_git();
    b.bench(|| {
        for (t, _) in &areas {
            divan::black_box(areakit_app::bake::bake(t).unwrap());
        }
    });
}
