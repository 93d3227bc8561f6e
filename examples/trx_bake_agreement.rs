//! Bakes every corpus TRX from its own geometry and prints how much of the shipped baked
//! data the bake reproduces: `cargo run --release --example trx_bake_agreement`.

use std::path::Path;

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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let sources = std::fs::read_to_string(dir.join("SOURCES.tsv")).expect("SOURCES.tsv");
    let mut total = BakeAgreement::default();
    let mut files = 0;
    for line in sources.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.get(6) != Some(&"trx") {
            continue;
        }
        let data = std::fs::read(dir.join(cols[0])).expect("corpus file");
        let t = trx::read(&data).expect("reads");
        let baked = match bake(&t) {
            Ok(b) => b,
            Err(e) => {
                println!("{}: bake failed: {e}", cols[0]);
                continue;
            }
        };
        let a = agreement(t.walkmesh().unwrap(), baked.walkmesh().unwrap());
        println!(
            "{:60} next-hop {:8.4}%  bytes {:8.4}%  islands {:8.4}%  island-paths {:8.4}%",
            cols[0].rsplit('/').next().unwrap_or(cols[0]),
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
