//! Unit tests on hand-made walkmeshes: a DWK (no public DWK exists), error paths, layouts.

use super::*;
use crate::ErrorKind;

/// A door walkmesh: two faces of a thin slab, type 0, no area tables.
fn door() -> Bwm {
    Bwm {
        walkmesh_type: WalkmeshType::PlaceableOrDoor,
        relative_use: [[0.5, -1.0, 0.0], [0.5, 1.0, 0.0]],
        absolute_use: [[10.5, 4.0, 0.0], [10.5, 6.0, 0.0]],
        position: [10.0, 5.0, 0.0],
        vertices: vec![
            [0.0, -0.1, 0.0],
            [1.0, -0.1, 0.0],
            [1.0, 0.1, 0.0],
            [0.0, 0.1, 0.0],
        ],
        faces: vec![
            Face {
                vertices: [0, 1, 2],
                material: Material::NonWalk,
            },
            Face {
                vertices: [0, 2, 3],
                material: Material::NonWalk,
            },
        ],
        normals: vec![[0.0, 0.0, 1.0]; 2],
        distances: vec![0.0; 2],
        ..Bwm::default()
    }
}

/// An area walkmesh: one walkable square of two faces with a transition on one edge.
fn room() -> Bwm {
    Bwm {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 2.0, 0.0],
            [0.0, 2.0, 0.0],
        ],
        faces: vec![
            Face {
                vertices: [0, 1, 2],
                material: Material::Stone,
            },
            Face {
                vertices: [0, 2, 3],
                material: Material::Stone,
            },
        ],
        normals: vec![[0.0, 0.0, 1.0]; 2],
        distances: vec![-0.0; 2],
        aabb_nodes: vec![
            AabbNode {
                min: [0.0; 3],
                max: [2.0, 2.0, 0.0],
                face: -1,
                unknown: 4,
                plane: 1,
                left: 1,
                right: 2,
            },
            AabbNode {
                min: [0.0; 3],
                max: [2.0, 2.0, 0.0],
                face: 0,
                unknown: 4,
                plane: 0,
                left: u32::MAX,
                right: u32::MAX,
            },
            AabbNode {
                min: [0.0; 3],
                max: [2.0, 2.0, 0.0],
                face: 1,
                unknown: 4,
                plane: 0,
                left: u32::MAX,
                right: u32::MAX,
            },
        ],
        adjacency: vec![[-1, -1, 3], [2, -1, -1]],
        edges: vec![
            Edge {
                edge: 0,
                transition: -1,
            },
            Edge {
                edge: 1,
                transition: 3,
            },
            Edge {
                edge: 4,
                transition: -1,
            },
            Edge {
                edge: 5,
                transition: -1,
            },
        ],
        perimeters: vec![4],
        ..Bwm::default()
    }
}

#[test]
fn dwk_round_trips_with_zero_area_offsets() {
    let m = door();
    let bytes = write(&m).unwrap();
    assert_eq!(bytes.len(), 136 + 4 * 12 + 2 * (12 + 4 + 12 + 4));
    // Area-only tables of a type-0 walkmesh have offset 0.
    for field in [0x68usize, 0x74, 0x7C, 0x84] {
        assert_eq!(
            u32::from_le_bytes(bytes[field..field + 4].try_into().unwrap()),
            0,
            "{field:#x}"
        );
    }
    let back = read(&bytes).unwrap();
    assert_eq!(back, m);
    assert_eq!(back.kind(Some("dwk")), BwmKind::Dwk);
    assert_eq!(back.kind(Some("pwk")), BwmKind::Pwk);
    assert_eq!(back.kind(None), BwmKind::Pwk);
}

#[test]
fn wok_round_trips_and_view_agrees() {
    let m = room();
    let bytes = write(&m).unwrap();
    let v = BwmView::parse(&bytes).unwrap();
    assert_eq!(v.face_count(), 2);
    assert_eq!(
        v.edge(1),
        Edge {
            edge: 1,
            transition: 3
        }
    );
    assert_eq!(v.aabb_node(0).right_child(), Some(2));
    assert_eq!(v.to_bwm(), m);
    assert_eq!(write(&read(&bytes).unwrap()).unwrap(), bytes);
}

fn put(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn err(bytes: &[u8]) -> crate::DecodeError {
    read(bytes).expect_err("must be rejected")
}

#[test]
fn bad_magic_and_version() {
    let mut b = write(&room()).unwrap();
    b[0] = b'X';
    let e = err(&b);
    assert_eq!(e.location(), crate::Location::Offset(0));
    assert!(e.to_string().contains("expected magic"), "{e}");
    let mut b = write(&room()).unwrap();
    b[5] = b'2';
    let e = err(&b);
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert_eq!(e.location(), crate::Location::Offset(4));
}

#[test]
fn table_past_end_names_the_offset_field() {
    let mut b = write(&room()).unwrap();
    put(&mut b, 0x7C, 0xFFFF_FF00); // edge offset
    let e = err(&b);
    assert_eq!(e.location(), crate::Location::Offset(0x7C));
    assert!(e.to_string().contains("edge table"), "{e}");
}

#[test]
fn huge_counts_do_not_allocate_or_overflow() {
    let mut b = write(&room()).unwrap();
    put(&mut b, 0x48, u32::MAX); // vertex count
    assert_eq!(err(&b).location(), crate::Location::Offset(0x4C));
    let mut b = write(&room()).unwrap();
    put(&mut b, 0x50, u32::MAX); // face count
    let e = err(&b);
    assert!(matches!(e.location(), crate::Location::Offset(_)), "{e}");
}

#[test]
fn vertex_index_out_of_range() {
    let mut b = write(&room()).unwrap();
    let face_off = u32::from_le_bytes(b[0x54..0x58].try_into().unwrap()) as usize;
    put(&mut b, face_off + 12 + 8, 9); // face 1, third index
    let e = err(&b);
    assert_eq!(
        e.location(),
        crate::Location::Offset((face_off + 20) as u64)
    );
    assert!(
        e.to_string()
            .contains("(face 1): vertex index 9 >= vertex count 4"),
        "{e}"
    );
}

#[test]
fn non_finite_coordinates() {
    let mut b = write(&room()).unwrap();
    let vo = u32::from_le_bytes(b[0x4C..0x50].try_into().unwrap()) as usize;
    put(&mut b, vo + 12 * 2 + 4, f32::NAN.to_bits());
    let e = err(&b);
    assert_eq!(e.location(), crate::Location::Offset((vo + 28) as u64));
    assert!(e.to_string().contains("(vertex 2)"), "{e}");
    let mut b = write(&room()).unwrap();
    put(&mut b, 0x40, f32::INFINITY.to_bits());
    assert!(err(&b).to_string().contains("position"));
}

#[test]
fn aabb_child_and_face_out_of_range() {
    let mut b = write(&room()).unwrap();
    let ao = u32::from_le_bytes(b[0x68..0x6C].try_into().unwrap()) as usize;
    put(&mut b, ao + 40, 7); // node 0 right child
    let e = err(&b);
    assert_eq!(e.location(), crate::Location::Offset((ao + 40) as u64));
    assert!(
        e.to_string().contains("child index 7 >= node count 3"),
        "{e}"
    );
    let mut b = write(&room()).unwrap();
    put(&mut b, ao + 44 + 24, 5); // node 1 face
    assert!(err(&b).to_string().contains("face index 5"));
}

#[test]
fn adjacency_count_above_face_count() {
    let mut b = write(&room()).unwrap();
    put(&mut b, 0x70, 3);
    assert_eq!(err(&b).location(), crate::Location::Offset(0x70));
}

#[test]
fn unusual_layout_is_preserved_until_counts_change() {
    let m = room();
    let canonical = write(&m).unwrap();
    // Move the perimeter table 8 bytes further and put junk in the gap and after it.
    let po = u32::from_le_bytes(canonical[0x84..0x88].try_into().unwrap()) as usize;
    let mut b = canonical[..po].to_vec();
    b.extend_from_slice(b"GAPGAP!!");
    b.extend_from_slice(&canonical[po..]);
    b.extend_from_slice(b"tail");
    put(&mut b, 0x84, (po + 8) as u32);
    let back = read(&b).unwrap();
    assert!(back.source_layout.is_some());
    assert_eq!(
        write(&back).unwrap(),
        b,
        "unmodified file writes back byte for byte"
    );
    let mut edited = back.clone();
    edited.perimeters.push(4);
    let fresh = write(&edited).unwrap();
    assert_eq!(
        read(&fresh).unwrap().source_layout,
        None,
        "a changed table gets a fresh layout"
    );
}

#[test]
fn inconsistent_model_is_an_encode_error() {
    let mut m = room();
    m.normals.pop();
    assert!(write(&m).is_err());
}
