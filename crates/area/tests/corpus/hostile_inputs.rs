//! Small hostile files must not make areakit use memory or time out of proportion to their
//! size (review findings).

use areakit_formats::{bwm, trx};

/// 4000 copies of one walkable triangle: every pair overlaps. The findings stay bounded.
#[test]
fn stacked_faces_give_a_bounded_number_of_findings() {
    let n = 4000usize;
    let mut m = bwm::Bwm {
        vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        ..bwm::Bwm::default()
    };
    m.faces = vec![
        bwm::Face {
            vertices: [0, 1, 2],
            material: bwm::Material::Stone
        };
        n
    ];
    m.normals = vec![[0.0, 0.0, 1.0]; n];
    m.distances = vec![0.0; n];
    let findings = areakit_area::walkmesh::check_bwm(&m);
    let mut per_code = std::collections::HashMap::new();
    for f in &findings {
        *per_code.entry(f.code).or_insert(0usize) += 1;
    }
    assert!(
        per_code
            .values()
            .all(|&c| c <= areakit_area::walkmesh::check::MAX_PER_CODE + 1),
        "{per_code:?}"
    );
    assert!(per_code.contains_key("bwm-duplicate-face"), "{per_code:?}");
}

/// A packet table naming the same packet twice is an error, not two decodes of one payload.
#[test]
fn trx_packets_may_not_share_bytes() {
    let mut f = b"NWN2".to_vec();
    f.extend_from_slice(&2u16.to_le_bytes());
    f.extend_from_slice(&3u16.to_le_bytes());
    f.extend_from_slice(&2u32.to_le_bytes());
    let packet_at = 12 + 2 * 8;
    for _ in 0..2 {
        f.extend_from_slice(b"TRWH");
        f.extend_from_slice(&(packet_at as u32).to_le_bytes());
    }
    f.extend_from_slice(b"TRWH");
    f.extend_from_slice(&12u32.to_le_bytes());
    f.extend_from_slice(&[0u8; 12]);
    let e = trx::read(&f).expect_err("overlapping packets");
    assert!(e.to_string().contains("overlap"), "{e}");
    // The same packet listed once reads.
    let mut once = f.clone();
    once[8..12].copy_from_slice(&1u32.to_le_bytes());
    once.drain(20..28);
    let packet_at = 20u32;
    once[16..20].copy_from_slice(&packet_at.to_le_bytes());
    assert!(trx::read(&once).is_ok());
}
