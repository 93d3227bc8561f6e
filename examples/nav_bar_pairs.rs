//! Writes the pairs of the navigation bar (`docs/navigation.md`, "The bar"): for every corpus
//! TRX 1 000 and for every corpus WOK 200 pairs of walkable-triangle centres (a TRX's centres as
//! the file stores them, a WOK's the mean of the face's corners), picked with the test kit's
//! `Rng(5)` in corpus order, one `X,Y X,Y` line per pair:
//! `cargo run --release --example nav_bar_pairs -- OUTDIR` writes `OUTDIR/NNN.pairs` and
//! `OUTDIR/list.tsv` (the pairs file, then the ground file, per line). `benches/nav_bar.sh`
//! asks `areakit path --pairs` and judges the answers.

use areakit_testkit::nav_meshes::Rng;
use std::fmt::Write;

fn main() {
    let out = std::env::args()
        .nth(1)
        .expect("usage: nav_bar_pairs OUTDIR");
    let out = std::path::Path::new(&out);
    std::fs::create_dir_all(out).expect("the output folder");
    let mut rng = Rng(5);
    let mut list = String::new();
    let mut files = areakit_testkit::corpus_files(&["trx"]);
    let trx = files.len();
    files.extend(areakit_testkit::corpus_files(&["wok"]));
    let mut written = 0;
    for (i, f) in files.iter().enumerate() {
        let data = std::fs::read(f).expect("a corpus file");
        let (centres, count) = if i < trx {
            (trx_centres(&data), 1000)
        } else {
            (wok_centres(&data), 200)
        };
        if centres.is_empty() {
            continue;
        }
        let mut text = String::new();
        for _ in 0..count {
            let a = centres[rng.below(centres.len() as u64) as usize];
            let b = centres[rng.below(centres.len() as u64) as usize];
            writeln!(text, "{},{} {},{}", a[0], a[1], b[0], b[1]).unwrap();
        }
        let name = out.join(format!("{i:03}.pairs"));
        std::fs::write(&name, text).expect("a pairs file");
        writeln!(list, "{}\t{}", name.display(), f.display()).unwrap();
        written += 1;
    }
    std::fs::write(out.join("list.tsv"), list).expect("the list");
    println!("{written} grounds ({trx} TRX files listed)");
}

fn trx_centres(data: &[u8]) -> Vec<[f32; 2]> {
    let Ok(t) = areakit_formats::trx::read(data) else {
        return Vec::new();
    };
    let Some(w) = t.walkmesh() else {
        return Vec::new();
    };
    w.triangles
        .iter()
        .filter(|t| t.is_walkable())
        .map(|t| t.center)
        .collect()
}

fn wok_centres(data: &[u8]) -> Vec<[f32; 2]> {
    let Ok(b) = areakit_formats::bwm::read(data) else {
        return Vec::new();
    };
    let src = areakit_area::navigation::NavSource::from_bwm(&b, "w");
    src.surface
        .triangles
        .iter()
        .map(|t| {
            let p = t.map(|v| src.surface.vertices[v as usize]);
            [
                (p[0].x + p[1].x + p[2].x) / 3.0,
                (p[0].y + p[1].y + p[2].y) / 3.0,
            ]
        })
        .collect()
}
