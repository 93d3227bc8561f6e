//! Bakes every corpus TRX from its own geometry and prints how much of the shipped baked
//! data the bake reproduces: `cargo run --release --example trx_bake_agreement`.

use areakit_app::bake::{BakeAgreement, agreement, bake};
use areakit_app::formats::trx;

fn pct(a: u64, b: u64) -> f64 {
    if b == 0 {
        100.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

fn main() {
    let dir = areakit_testkit::corpus_dir();
    let mut total = BakeAgreement::default();
    let mut files = 0;
    for path in areakit_testkit::corpus_files(&["trx"]) {
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        let data = std::fs::read(&path).expect("corpus file");
        let t = trx::read(&data).expect("reads");
        let baked = match bake(&t) {
            Ok(b) => b,
            Err(e) => {
                println!("{name}: bake failed: {e}");
                continue;
            }
        };
        let a = agreement(t.walkmesh().unwrap(), baked.walkmesh().unwrap());
        println!(
            "{:60} next-hop {:8.4}%  bytes {:8.4}%  islands {:8.4}%  island-paths {:8.4}%",
            name.rsplit('/').next().unwrap_or(&name),
            pct(a.path_next_same, a.path_entries),
            pct(a.path_bytes_same, a.path_entries),
            pct(a.island_same, a.triangles),
            pct(a.island_path_same, a.island_path_entries),
        );
        total += a;
        files += 1;
    }
    let t = total;
    println!("files: {files}");
    println!(
        "tile path-table entries: {} ; next hop identical {} ({:.4}%) ; byte identical incl. LOS bit {} ({:.4}%)",
        t.path_entries,
        t.path_next_same,
        pct(t.path_next_same, t.path_entries),
        t.path_bytes_same,
        pct(t.path_bytes_same, t.path_entries)
    );
    println!(
        "triangles: {} ; island identical {} ({:.4}%) ; tile owner identical {} ({:.4}%)",
        t.triangles,
        t.island_same,
        pct(t.island_same, t.triangles),
        t.owner_same,
        pct(t.owner_same, t.triangles)
    );
    println!(
        "islands: {} ; identical (centre, count, links, distances, exits) {} ({:.4}%)",
        t.islands,
        t.islands_same,
        pct(t.islands_same, t.islands)
    );
    println!(
        "island path entries: {} ; next identical {} ({:.4}%) ; next+weight identical {} ({:.4}%)",
        t.island_path_entries,
        t.island_path_next_same,
        pct(t.island_path_next_same, t.island_path_entries),
        t.island_path_same,
        pct(t.island_path_same, t.island_path_entries)
    );
    println!(
        "tiles: {} ; vertex+edge counts identical {} ({:.4}%)",
        t.tiles,
        t.tile_counts_same,
        pct(t.tile_counts_same, t.tiles)
    );
}
