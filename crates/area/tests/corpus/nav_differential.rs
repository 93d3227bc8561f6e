//! Every search against the independent oracle on every corpus TRX and WOK: a fixed set of
//! random pairs per mesh (centres, inner points and corners of random walkable triangles),
//! asked of every search the engine has and judged as in the geometry crate's
//! `nav_differential.rs` (the same harness). A larger run, 1 000 pairs per TRX and WOK, is
//! `--ignored` (`docs/navigation.md` has its counts).

use crate::file_links::{bwm_links, trx_links};
use crate::nav_support::differential::{Plain, Tally, build_linked, pairs};
use areakit_area::navigation::NavSource;
use areakit_geometry::nav::Searcher;
use areakit_testkit::nav_meshes::Rng;
use areakit_testkit::nav_oracle::{Links, Oracle};

/// The walkable ground of every corpus file of `format` (TRX: the walkable triangles; WOK:
/// the walkable faces), with the file's name and its own links (`file_links`).
pub(crate) fn corpus_ground(format: &str) -> Vec<(String, NavSource, Vec<[u32; 3]>)> {
    let files = areakit_testkit::corpus_files(&[format]);
    let mut out = Vec::new();
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let (src, links) = if format == "trx" {
            let Ok(t) = areakit_formats::trx::read(&data) else {
                continue;
            };
            let Some(w) = t.walkmesh() else { continue };
            let src = NavSource::from_trx(w, &name);
            let links = trx_links(w, &src.faces);
            (src, links)
        } else {
            let Ok(b) = areakit_formats::bwm::read(&data) else {
                continue;
            };
            let src = NavSource::from_bwm(&b, &name);
            let links = bwm_links(&b, &src.faces);
            (src, links)
        };
        if !src.surface.triangles.is_empty() {
            out.push((name, src, links));
        }
    }
    out
}

fn run(format: &str, per_mesh: usize, seed: u64) -> (usize, Tally) {
    let mut rng = Rng(seed);
    let mut searcher = Searcher::new();
    let mut tally = Tally::default();
    let mut grounds = corpus_ground(format);
    // `NAV_DIFF_FILES=n`: only the first n files (the same pairs as in the whole run).
    if let Some(n) = std::env::var("NAV_DIFF_FILES")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        grounds.truncate(n);
    }
    for (name, src, links) in &grounds {
        let vertices: Vec<[f32; 3]> = src.surface.vertices.iter().map(|v| v.to_array()).collect();
        let plain = Plain {
            vertices: &vertices,
            triangles: &src.surface.triangles,
        };
        let o = Oracle::with_links(&vertices, &src.surface.triangles, Links::File(links));
        // The engine walks a TRX by its own links and a WOK by the model's rule
        // (`docs/navigation.md`, "Adjacency"): a disagreement on a WOK that the rule's oracle
        // does not share is the file's.
        let rule = (format == "wok").then(|| Oracle::new(&vertices, &src.surface.triangles));
        let built = build_linked(&plain, &src.surface.links);
        for pair in pairs(&plain, &o, &mut rng, per_mesh) {
            tally.pair_on_links(name, (&o, rule.as_ref()), &built, pair, &mut searcher);
        }
        // Progress (shown with `--nocapture`).
        eprintln!(
            "{name}: {} pairs so far, {} disagreements",
            tally.pairs,
            tally.disagreements()
        );
    }
    (grounds.len(), tally)
}

#[test]
fn every_search_agrees_with_the_oracle_on_every_corpus_trx() {
    let (files, tally) = run("trx", 6, 0x7a11_0037_0000_0001);
    tally.report("corpus TRX");
    assert_eq!(files, 61, "every corpus TRX has walkable ground");
    assert_eq!(tally.pairs, files * 6, "pairs judged");
    assert_eq!(tally.disagreements(), 0);
}

#[test]
fn every_search_agrees_with_the_oracle_on_every_corpus_wok() {
    let (files, tally) = run("wok", 10, 0x7a11_0037_0000_0002);
    tally.report("corpus WOK");
    assert_eq!(files, 108, "every corpus WOK has walkable ground");
    assert_eq!(tally.pairs, files * 10, "pairs judged");
    assert_eq!(tally.disagreements(), 0);
}

/// The larger run: 1 000 pairs per corpus TRX and WOK (`NAV_DIFF_TRX_PAIRS`,
/// `NAV_DIFF_WOK_PAIRS` change them). Long on two cores:
/// `cargo test --release -p areakit-area --test corpus nav_differential -- --ignored --nocapture`.
#[test]
#[ignore]
fn every_search_agrees_with_the_oracle_on_many_corpus_pairs() {
    let count = |var: &str, default: usize| {
        std::env::var(var)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let per_trx = count("NAV_DIFF_TRX_PAIRS", 1000);
    let (files, trx) = run("trx", per_trx, 0x7a11_0037_0000_0003);
    trx.report("corpus TRX");
    assert_eq!(trx.pairs, files * per_trx, "TRX pairs judged");
    let per_wok = count("NAV_DIFF_WOK_PAIRS", 1000);
    let (files, wok) = run("wok", per_wok, 0x7a11_0037_0000_0004);
    wok.report("corpus WOK");
    assert_eq!(wok.pairs, files * per_wok, "WOK pairs judged");
    assert_eq!(trx.disagreements() + wok.disagreements(), 0);
}
