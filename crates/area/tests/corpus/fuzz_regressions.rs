//! One test per input the fuzzers found (fuzz/README.md, "Known findings"): each once broke a
//! round-trip property.

use areakit_area::walkmesh::{self, AabbStyle};
use areakit_formats::bwm::{self, Bwm, Face, Material, WalkmeshType};
use areakit_formats::{lyt, mdl_ascii, vis};

/// LYT: a Latin-1 no-break space (0xA0) or NEL (0x85) inside a room name is part of the token
/// when read, so the unmodified model must write back (it used to be an encode error).
#[test]
fn lyt_latin1_space_in_a_name_writes_back() {
    for byte in [0xA0u8, 0x85] {
        let mut input = b"beginlayout\n   roomcount 1\n      a".to_vec();
        input.push(byte);
        input.extend_from_slice(b"b 1.0 2.0 0.0\ndonelayout\n");
        let m = lyt::read(&input).unwrap();
        assert_eq!(m.rooms.len(), 1);
        assert_eq!(lyt::write(&m).unwrap(), input);
    }
}

/// VIS: the same for room names.
#[test]
fn vis_latin1_space_in_a_name_writes_back() {
    let input = b"ab 1\n  c\x85d\n".to_vec();
    let m = vis::read(&input).unwrap();
    assert_eq!(vis::write(&m).unwrap(), input);
    let input = b"a\xa0b 1\n  c\nc 1\n  a\xa0b\n".to_vec();
    let m = vis::read(&input).unwrap();
    assert_eq!(vis::write(&m).unwrap(), input);
}

fn canonical_equal(input: &[u8]) {
    let m = mdl_ascii::read(input).unwrap();
    assert_eq!(mdl_ascii::write(&m), input, "lossless write");
    let canon = mdl_ascii::write_canonical(&m);
    let back = mdl_ascii::read(canon.as_bytes()).unwrap();
    assert!(
        back == m,
        "canonical text reads back to an equal model:\n{canon}"
    );
}

/// MDL ASCII: a number beyond the f64 range reads as infinity; the canonical text must write
/// it so that it reads back as infinity (it was written `inf`, which does not read).
#[test]
fn mdl_infinite_numbers_survive_canonical_text() {
    canonical_equal(b"node dummy a\n  position 1e999 0 0\nendnode\n");
    canonical_equal(b"node dummy a\n  orientationkey\n    0 1e999 0 0 1\n  endlist\nendnode\n");
}

/// MDL ASCII: a key token with invalid UTF-8 longer than 32 bytes once written as UTF-8 must
/// still be read as a key list (`...key`), as the original bytes were.
#[test]
fn mdl_long_non_utf8_list_key_survives_canonical_text() {
    let mut input = b"node dummy a\nx".to_vec();
    input.extend_from_slice(&[0xFF; 10]);
    input.extend_from_slice(b"key\nendnode\n");
    let m = mdl_ascii::read(&input).unwrap();
    // The bytes: names keep their bytes above 0x7F, which a `String` cannot hold.
    let canon = mdl_ascii::write_canonical_bytes(&m);
    let back = mdl_ascii::read(&canon).unwrap();
    assert!(back == m, "{canon:?}");
}

/// walkmesh: a vertex that no face names, above every face. The rebuilt PyKotor-style tree
/// encloses the faces, so its root is below that vertex; the style guess compared the root
/// with the bounds of all vertices, read the rebuilt tree as a compiler tree, and a second
/// rebuild padded it: `rebuild` was not idempotent. The guess now uses the faces' vertices.
#[test]
fn walkmesh_rebuild_is_idempotent_with_an_unused_vertex() {
    let mut m = Bwm {
        walkmesh_type: WalkmeshType::Area,
        vertices: vec![
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 2.0, 0.5],
            [0.0, 2.0, 0.0],
            [1.0, 1.0, 9.0], // named by no face
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
        ..Bwm::default()
    };
    m = walkmesh::rebuild_styled(&m, &[], AabbStyle::PyKotor).unwrap();
    assert_eq!(
        m.aabb_nodes[0].max[2], 0.5,
        "the tree encloses the faces only"
    );
    assert_eq!(walkmesh::aabb_style_of(&m), AabbStyle::PyKotor);
    let once = walkmesh::rebuild(&m).unwrap();
    let twice = walkmesh::rebuild(&once).unwrap();
    assert_eq!(
        once.aabb_nodes, m.aabb_nodes,
        "rebuild keeps the PyKotor tree"
    );
    assert_eq!(bwm::write(&twice).unwrap(), bwm::write(&once).unwrap());
}
