//! Unit tests over models built from the format description.

use super::*;
use crate::{ErrorKind, Location};

fn name(s: &str) -> [u8; 32] {
    let mut n = [0u8; 32];
    n[..s.len()].copy_from_slice(s.as_bytes());
    n
}

/// A WALK payload assembled byte by byte from the layout in `docs/formats/mdb.md` (not
/// through the encoder): a unit square of two triangles, one walkable stone, one not, and a
/// link vertex below.
fn walk_payload() -> Vec<u8> {
    let mut p = Vec::new();
    let mut n = name("PLC_TEST_W");
    n[20] = 0xaa; // a byte after the terminator survives
    p.extend_from_slice(&n);
    p.extend_from_slice(&7u32.to_le_bytes()); // header flags
    p.extend_from_slice(&5u32.to_le_bytes()); // vertices
    p.extend_from_slice(&3u32.to_le_bytes()); // triangles
    for v in [
        [0.0f32, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.5, 0.5, raw::LINK_VERTEX_Z],
    ] {
        for c in v {
            p.extend_from_slice(&c.to_le_bytes());
        }
    }
    for (t, flags) in [
        ([0u16, 1, 2], 0x21u32),
        ([0, 2, 3], 0x0010),
        ([0, 1, 4], 0x8000_0001),
    ] {
        for i in t {
            p.extend_from_slice(&i.to_le_bytes());
        }
        p.extend_from_slice(&flags.to_le_bytes());
    }
    p
}

/// A whole file around payloads, laid out canonically, assembled by hand.
fn file_of(version: (u16, u16), packets: &[([u8; 4], Vec<u8>)]) -> Vec<u8> {
    let mut out = b"NWN2".to_vec();
    out.extend_from_slice(&version.0.to_le_bytes());
    out.extend_from_slice(&version.1.to_le_bytes());
    out.extend_from_slice(&(packets.len() as u32).to_le_bytes());
    let mut offset = 12 + 8 * packets.len();
    for (tag, p) in packets {
        out.extend_from_slice(tag);
        out.extend_from_slice(&(offset as u32).to_le_bytes());
        offset += 8 + p.len();
    }
    for (tag, p) in packets {
        out.extend_from_slice(tag);
        out.extend_from_slice(&(p.len() as u32).to_le_bytes());
        out.extend_from_slice(p);
    }
    out
}

fn walk_file() -> Vec<u8> {
    file_of((1, 12), &[(*b"WALK", walk_payload())])
}

#[test]
fn hand_made_walk_reads_every_field() {
    let m = read(&walk_file()).unwrap();
    assert_eq!((m.version_major, m.version_minor), (1, 12));
    assert_eq!(m.layout, None);
    let w = m.walk().expect("a WALK packet");
    assert_eq!(name_text(&w.name), "PLC_TEST_W");
    assert_eq!(w.name[20], 0xaa);
    assert_eq!(w.flags, 7);
    assert_eq!(w.vertices.len(), 5);
    assert_eq!(w.vertices[2], [1.0, 1.0, 0.0]);
    assert_eq!(w.vertices[4][2], raw::LINK_VERTEX_Z);
    assert_eq!(
        w.triangles,
        vec![
            WalkTriangle {
                vertices: [0, 1, 2],
                flags: 0x21
            },
            WalkTriangle {
                vertices: [0, 2, 3],
                flags: 0x10
            },
            WalkTriangle {
                vertices: [0, 1, 4],
                flags: 0x8000_0001
            },
        ]
    );
    assert!(w.triangles[0].is_walkable());
    assert!(!w.triangles[1].is_walkable());
    assert_eq!(w.triangles[0].materials(), vec!["stone"]);
    assert_eq!(w.triangles[1].materials(), vec!["grass"]);
    assert_eq!(w.walkable_count(), 2);
}

#[test]
fn hand_made_walk_writes_back_byte_for_byte() {
    let bytes = walk_file();
    assert_eq!(write(&read(&bytes).unwrap()).unwrap(), bytes);
}

#[test]
fn walk_surface_gives_model_space_triangles_and_walkable_flags() {
    let m = read(&walk_file()).unwrap();
    let s = m.walk().unwrap().surface().unwrap();
    assert_eq!(s.triangles, vec![[0, 1, 2], [0, 2, 3], [0, 1, 4]]);
    assert_eq!(s.walkable, vec![true, false, true]);
    assert_eq!(s.flags, vec![0x21, 0x10, 0x8000_0001]);
    assert!(s.is_link_vertex(4) && !s.is_link_vertex(0) && !s.is_link_vertex(99));
    let walkable: Vec<_> = s.walkable_triangles().collect();
    assert_eq!(walkable.len(), 2);
    assert_eq!(
        walkable[0],
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]
    );
    assert_eq!(walkable[1][2], [0.5, 0.5, raw::LINK_VERTEX_Z]);
}

#[test]
fn walk_surface_refuses_an_index_past_the_vertices() {
    let mut w = read(&walk_file()).unwrap().walk().unwrap().clone();
    w.triangles[1].vertices[2] = 5;
    let e = w.surface().unwrap_err();
    assert_eq!((e.triangle, e.vertex, e.vertex_count), (1, 5, 5));
    assert!(e.to_string().contains("triangle 1 names vertex 5"), "{e}");
}

/// A synthetic WALK built as a model, written, read back: equal, and the bytes a fixed
/// point.
#[test]
fn synthetic_walk_writer_to_reader() {
    let w = Walk {
        name: name("door_w"),
        flags: 0,
        vertices: (0..40)
            .map(|i| {
                [
                    i as f32 * 0.25,
                    (i % 7) as f32,
                    f32::from_bits(0x7fc0_0001 + i),
                ]
            })
            .collect(),
        triangles: (0..30)
            .map(|i| WalkTriangle {
                vertices: [i, i + 1, i + 9],
                flags: if i % 3 == 0 { 0x41 } else { 0x1000 },
            })
            .collect(),
    };
    let m = Mdb {
        packets: vec![Packet::Walk(w.clone())],
        ..Mdb::default()
    };
    let bytes = write(&m).unwrap();
    assert_eq!(bytes.len(), 12 + 8 + 8 + 44 + 40 * 12 + 30 * 10);
    let back = read(&bytes).unwrap();
    // NaN payloads compare by bits.
    let bw = back.walk().unwrap();
    assert_eq!(bw.triangles, w.triangles);
    assert!(
        bw.vertices
            .iter()
            .zip(&w.vertices)
            .all(|(a, b)| a.map(f32::to_bits) == b.map(f32::to_bits))
    );
    assert_eq!(write(&back).unwrap(), bytes);
    assert_eq!(bw.walkable_count(), 10);
}

fn mesh<V: Clone>(n: &str, v: V) -> Mesh<V> {
    Mesh {
        name: name(n),
        material: material(),
        vertices: vec![v; 3],
        faces: vec![[0, 1, 2]],
    }
}

fn material() -> Material {
    Material {
        diffuse_map: name("PLC_TEST"),
        normal_map: name("PLC_TEST_N"),
        diffuse_color: [1.0, 0.5, 0.25],
        specular_color: [1.0, 1.0, 1.0],
        specular_power: 1.2,
        specular_value: 10.0,
        flags: 8,
        ..Material::default()
    }
}

/// One packet of every decoded kind and an unknown one.
fn every_packet() -> Mdb {
    let rv = RigidVertex {
        position: [1.0, 2.0, 3.0],
        normal: [0.0, 0.0, 1.0],
        tangent: [1.0, 0.0, 0.0],
        binormal: [0.0, 1.0, 0.0],
        uvw: [0.5, 0.5, 0.0],
    };
    let cv = CollisionVertex {
        position: [1.0, 2.0, 3.0],
        normal: [0.0, 0.0, 1.0],
        uvw: [0.0, 1.0, 0.0],
    };
    let sv = SkinVertex {
        position: [1.0, 2.0, 3.0],
        bone_weights: [0.5, 0.5, 0.0, 0.0],
        bone_indices: [1, 2, 0, 255],
        bone_count: 2.0,
        ..SkinVertex::default()
    };
    let point = |n: &str, word| Point {
        name: name(n),
        word,
        position: [0.1, 0.2, 0.3],
        orientation: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    };
    Mdb {
        packets: vec![
            Packet::Rigid(mesh("R", rv)),
            Packet::Skin(Skin {
                skeleton: name("P_HHM_skel"),
                mesh: mesh("S", sv),
            }),
            Packet::Collision2(mesh("C2", cv)),
            Packet::Collision3(mesh("C3", cv)),
            Packet::Spheres(vec![Sphere {
                bone: 3,
                radius: 0.75,
            }]),
            Packet::Hook(point("HP_hook", 0x0002_0001)),
            Packet::Hair(point("HAIR", 2)),
            Packet::Helm(point("HELM", 3)),
            Packet::Walk(read(&walk_file()).unwrap().walk().unwrap().clone()),
            Packet::Other {
                tag: *b"TRRN",
                data: vec![1, 2, 3],
            },
        ],
        ..Mdb::default()
    }
}

#[test]
fn every_packet_kind_writer_to_reader() {
    let m = every_packet();
    let bytes = write(&m).unwrap();
    let back = read(&bytes).unwrap();
    assert_eq!(back, m);
    assert_eq!(write(&back).unwrap(), bytes);
    let tags: Vec<[u8; 4]> = back.packets.iter().map(Packet::tag).collect();
    assert_eq!(
        tags,
        [
            *b"RIGD", *b"SKIN", *b"COL2", *b"COL3", *b"COLS", *b"HOOK", *b"HAIR", *b"HELM",
            *b"WALK", *b"TRRN"
        ]
    );
    assert_eq!(
        back.packets[5].name().map(name_text).as_deref(),
        Some("HP_hook")
    );
}

/// Payload sizes from the references: RIGD/COL 204 + records, SKIN 236 + records, points
/// 84, COLS 4 + 8 per sphere, WALK 44 + records.
#[test]
fn payload_sizes_match_the_described_layout() {
    let m = every_packet();
    let sizes: Vec<usize> = m
        .packets
        .iter()
        .map(|p| encode_packet(p).unwrap().len())
        .collect();
    assert_eq!(
        sizes,
        [
            204 + 3 * 60 + 6,
            236 + 3 * 84 + 6,
            204 + 3 * 36 + 6,
            204 + 3 * 36 + 6,
            4 + 8,
            84,
            84,
            84,
            44 + 5 * 12 + 3 * 10,
            3
        ]
    );
}

#[test]
fn non_canonical_layout_round_trips() {
    // Packets in reverse order of the table, a gap between them, bytes after the last.
    let walk = walk_payload();
    let hook = encode_packet(&every_packet().packets[5]).unwrap();
    let mut out = b"NWN2\x01\x00\x0c\x00\x02\x00\x00\x00".to_vec();
    let hook_at = 28u32;
    let walk_at = hook_at + 8 + hook.len() as u32 + 5;
    out.extend_from_slice(b"WALK");
    out.extend_from_slice(&walk_at.to_le_bytes());
    out.extend_from_slice(b"HOOK");
    out.extend_from_slice(&hook_at.to_le_bytes());
    out.extend_from_slice(b"HOOK");
    out.extend_from_slice(&(hook.len() as u32).to_le_bytes());
    out.extend_from_slice(&hook);
    out.extend_from_slice(b"gap!!");
    out.extend_from_slice(b"WALK");
    out.extend_from_slice(&(walk.len() as u32).to_le_bytes());
    out.extend_from_slice(&walk);
    out.extend_from_slice(b"tail");
    let m = read(&out).unwrap();
    let layout = m.layout.as_ref().expect("a recorded layout");
    assert_eq!(layout.filler.len(), 2);
    assert_eq!(write(&m).unwrap(), out);
    // A changed size falls back to the canonical layout, which reads back equal.
    let mut m2 = m.clone();
    if let Packet::Walk(w) = &mut m2.packets[0] {
        w.vertices.push([9.0; 3]);
    }
    let canon = write(&m2).unwrap();
    let back = read(&canon).unwrap();
    assert_eq!(back.layout, None);
    assert_eq!(back.packets, m2.packets);
}

fn offset_of(e: &crate::DecodeError) -> u64 {
    match e.location() {
        Location::Offset(o) => o,
        other => panic!("expected an offset, got {other:?}: {e}"),
    }
}

#[test]
fn every_truncation_of_a_walk_model_is_an_error_with_an_offset() {
    let bytes = every_packet_bytes();
    for n in 0..bytes.len() {
        let e = read(&bytes[..n]).expect_err("a cut file cannot read");
        offset_of(&e);
    }
}

fn every_packet_bytes() -> Vec<u8> {
    write(&every_packet()).unwrap()
}

#[test]
fn walk_counts_that_disagree_with_the_payload_are_errors() {
    let payload = walk_payload();
    // Vertex count at payload offset 36; the payload starts at file offset 28.
    for (count, what) in [(6u32, "need"), (4, "need"), (u32::MAX, "need")] {
        let mut p = payload.clone();
        p[36..40].copy_from_slice(&count.to_le_bytes());
        let e = read(&file_of((1, 12), &[(*b"WALK", p)])).unwrap_err();
        assert_eq!(offset_of(&e), 28 + 44, "{e}");
        assert!(e.message().contains(what), "{e}");
        assert!(e.to_string().contains("packet 0 \"WALK\""), "{e}");
    }
    // A payload with one byte more than its counts account for.
    let mut p = payload;
    p.push(0);
    let e = read(&file_of((1, 12), &[(*b"WALK", p)])).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Malformed);
}

#[test]
fn fixed_size_packets_refuse_extra_bytes() {
    let mut hook = encode_packet(&every_packet().packets[5]).unwrap();
    hook.extend_from_slice(&[0; 4]);
    let e = read(&file_of((1, 12), &[(*b"HOOK", hook)])).unwrap_err();
    assert_eq!(offset_of(&e), 28 + 84, "{e}");
    assert!(e.message().contains("4 unexpected bytes"), "{e}");
}

#[test]
fn mesh_counts_are_checked_before_allocating() {
    let mut p = encode_packet(&every_packet().packets[0]).unwrap();
    p[196..200].copy_from_slice(&u32::MAX.to_le_bytes());
    p[200..204].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = read(&file_of((1, 12), &[(*b"RIGD", p)])).unwrap_err();
    assert_eq!(offset_of(&e), 28 + 204, "{e}");
    let mut s = encode_packet(&every_packet().packets[4]).unwrap();
    s[0..4].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = read(&file_of((1, 12), &[(*b"COLS", s)])).unwrap_err();
    assert_eq!(offset_of(&e), 28 + 4, "{e}");
}

#[test]
fn every_single_byte_mutation_reads_or_fails_cleanly() {
    let bytes = every_packet_bytes();
    for i in 0..bytes.len() {
        for x in [0x01u8, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[i] ^= x;
            if let Ok(m) = read(&b) {
                // What reads writes back to the same bytes.
                assert_eq!(write(&m).unwrap(), b, "mutation at {i}");
            }
        }
    }
}

#[test]
fn is_mdb_tells_models_by_their_packets() {
    assert!(is_mdb(&walk_file()));
    assert!(is_mdb(&every_packet_bytes()));
    let terrain = file_of(
        (2, 3),
        &[(*b"TRWH", vec![0; 12]), (*b"WALK", walk_payload())],
    );
    assert!(!is_mdb(&terrain));
    assert!(!is_mdb(&file_of((1, 12), &[(*b"TRRN", vec![1])])));
    assert!(!is_mdb(&write(&Mdb::default()).unwrap()));
    let bytes = walk_file();
    for n in 0..20 {
        assert!(!is_mdb(&bytes[..n]), "cut at {n}");
    }
}

#[test]
fn wrong_magic_is_named() {
    let mut b = walk_file();
    b[0] = b'X';
    let e = read(&b).unwrap_err();
    assert_eq!(offset_of(&e), 0);
    assert!(e.message().contains("NWN2"), "{e}");
}

mod props {
    use super::super::*;
    use proptest::prelude::*;

    fn walk_strategy() -> impl Strategy<Value = Walk> {
        (
            prop::array::uniform32(any::<u8>()),
            any::<u32>(),
            prop::collection::vec(prop::array::uniform3(-1e4f32..1e4), 0..40),
            prop::collection::vec((prop::array::uniform3(any::<u16>()), any::<u32>()), 0..40),
        )
            .prop_map(|(name, flags, vertices, tris)| Walk {
                name,
                flags,
                vertices,
                triangles: tris
                    .into_iter()
                    .map(|(vertices, flags)| WalkTriangle { vertices, flags })
                    .collect(),
            })
    }

    proptest! {
        /// Any WALK model (and a hook beside it) writes, reads back equal, and its surface
        /// agrees with its triangles: walkable exactly where bit 0 is set, indices checked.
        #[test]
        fn walk_writer_to_reader(w in walk_strategy(), walk_first in any::<bool>()) {
            let hook = Packet::Hook(Point::default());
            let mut packets = vec![Packet::Walk(w.clone()), hook];
            if !walk_first {
                packets.reverse();
            }
            let m = Mdb { packets, ..Mdb::default() };
            let bytes = write(&m).unwrap();
            let back = read(&bytes).unwrap();
            prop_assert_eq!(&back, &m);
            let bw = back.walk().unwrap();
            match bw.surface() {
                Ok(s) => {
                    prop_assert_eq!(s.walkable.len(), w.triangles.len());
                    for (t, walkable) in w.triangles.iter().zip(&s.walkable) {
                        prop_assert_eq!(*walkable, t.flags & 1 == 1);
                    }
                    prop_assert_eq!(s.walkable_triangles().count(), w.walkable_count());
                }
                Err(e) => {
                    let t = w.triangles[e.triangle];
                    prop_assert!(usize::from(e.vertex) >= w.vertices.len());
                    prop_assert!(t.vertices.contains(&e.vertex));
                }
            }
        }
    }
}
