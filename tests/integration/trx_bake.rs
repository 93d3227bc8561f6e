//! Baking every corpus TRX from its own geometry reproduces the shipped baked data.

use crate::common;

use areakit_app::bake::{BakeAgreement, agreement, bake};
use areakit_formats::trx;

#[test]
fn bake_reproduces_the_corpus() {
    let files = common::corpus_files(&["trx"]);
    assert_eq!(files.len(), 61);
    let mut total = BakeAgreement::default();
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let t = trx::read(&data).unwrap();
        let baked = bake(&t).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // The baked model encodes, and reads back to itself.
        let bytes = trx::write(&baked).unwrap();
        assert_eq!(trx::read(&bytes).unwrap(), baked, "{}", path.display());
        // Baking is idempotent.
        assert_eq!(bake(&baked).unwrap(), baked, "{}", path.display());
        total += agreement(t.walkmesh().unwrap(), baked.walkmesh().unwrap());
        assert!(
            areakit_app::bake::check_bake(&t).is_empty(),
            "{}: stale bake reported",
            path.display()
        );
    }
    // Measured: every next hop, island and island path entry is reproduced.
    assert_eq!(total.path_entries, 11_514_196);
    assert_eq!(total.path_next_same, total.path_entries);
    assert_eq!(total.triangles, 371_847);
    assert_eq!(total.island_same, total.triangles);
    assert_eq!(total.owner_same, total.triangles);
    assert_eq!(total.islands, 5452);
    assert_eq!(total.islands_same, total.islands);
    assert_eq!(total.island_path_entries, 840_426);
    assert_eq!(total.island_path_same, total.island_path_entries);
    // Line-of-sight bits are left clear (run-time test); 77.47% of shipped bytes have none.
    assert_eq!(total.path_bytes_same, 8_919_986);
}

#[test]
fn bake_of_a_corrupted_walkmesh_never_panics() {
    let files = common::corpus_files(&["trx"]);
    let data = std::fs::read(&files[0]).unwrap();
    let t = trx::read(&data).unwrap();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..50 {
        let mut m = t.clone();
        let w = m.walkmesh_mut().unwrap();
        let n = w.triangles.len() as u64;
        for _ in 0..20 {
            let i = (rnd() % n) as usize;
            let tri = &mut w.triangles[i];
            match rnd() % 4 {
                0 => tri.linked_triangles[(rnd() % 3) as usize] = rnd() as u32,
                1 => tri.center = [f32::NAN, rnd() as f32],
                2 => tri.flags ^= 1,
                _ => tri.linked_triangles = [i as u32; 3],
            }
        }
        let k = (rnd() % w.tiles.len() as u64) as usize;
        w.tiles[k].triangles_offset = rnd() as u32;
        let _ = bake(&m);
        let _ = trx::validate(&m);
    }
}

#[test]
fn stale_bake_is_reported() {
    let files = common::corpus_files(&["trx"]);
    let data = std::fs::read(&files[0]).unwrap();
    let mut t = trx::read(&data).unwrap();
    let w = t.walkmesh_mut().unwrap();
    // Make a walkable triangle unwalkable: its island and paths are now stale.
    let i = w.triangles.iter().position(|t| t.is_walkable()).unwrap();
    w.triangles[i].flags &= !1;
    let f = areakit_app::bake::check_bake(&t);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].code, "trx-stale-bake");
    let rebaked = bake(&t).unwrap();
    assert!(areakit_app::bake::check_bake(&rebaked).is_empty());
}
