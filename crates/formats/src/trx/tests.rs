//! Unit tests over small hand-made files.

use super::*;
use crate::ErrorKind;

/// A 1 x 1 tile walkmesh: a unit square split into two walkable triangles.
pub(crate) fn square() -> Walkmesh {
    let n = raw::NONE_U32;
    let tri = |vertices, linked_edges, linked_triangles, center| Triangle {
        vertices,
        linked_edges,
        linked_triangles,
        center,
        normal: [0.0, 0.0, 1.0],
        dot_product: 0.0,
        island: 0,
        flags: raw::FLAG_WALKABLE | raw::FLAG_CLOCKWISE | 0x20,
    };
    Walkmesh {
        name: *b"square\0garbage-after-terminator!",
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
        ],
        edges: vec![
            Edge {
                vertices: [0, 1],
                triangles: [0, n],
            },
            Edge {
                vertices: [1, 2],
                triangles: [0, n],
            },
            Edge {
                vertices: [2, 0],
                triangles: [0, 1],
            },
            Edge {
                vertices: [2, 3],
                triangles: [1, n],
            },
            Edge {
                vertices: [3, 0],
                triangles: [1, n],
            },
        ],
        triangles: vec![
            tri([0, 2, 1], [2, 1, 0], [1, n, n], [2.0 / 3.0, 1.0 / 3.0]),
            tri([0, 3, 2], [4, 3, 2], [n, n, 0], [1.0 / 3.0, 2.0 / 3.0]),
        ],
        grid_height: 1,
        grid_width: 1,
        tiles: vec![Tile {
            name: [0xcd; 32],
            vertex_count: 4,
            edge_count: 5,
            triangle_count: 2,
            path_table: PathTable {
                local_to_node: vec![0, 1],
                node_to_local: vec![0, 1],
                nodes: vec![0xff, 0x81, 0x80, 0xff],
                trailing_flags: 31,
                ..PathTable::default()
            },
            ..Tile::default()
        }],
        islands: vec![Island {
            index: 0,
            tile: 0x1234_5678,
            center: [0.5, 0.5, 0.0],
            triangle_count: 2,
            ..Island::default()
        }],
        island_paths: vec![IslandPathNode {
            next: raw::NONE_U16,
            padding: 0xbeef,
            weight: f32::NAN,
        }],
        ..Walkmesh::default()
    }
}

pub(crate) fn file(w: Walkmesh) -> Trx {
    Trx {
        packets: vec![
            Packet::Trwh(Trwh {
                width: 1,
                height: 1,
                id: 7,
            }),
            Packet::Opaque {
                tag: *b"TRRN",
                data: vec![1, 2, 3],
            },
            Packet::Aswm(Box::new(Aswm::new(w))),
        ],
        ..Trx::default()
    }
}

#[test]
fn hand_made_file_round_trips() {
    let t = file(square());
    let bytes = write(&t).unwrap();
    assert_eq!(&bytes[..4], b"NWN2");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 3);
    // First packet right after the 3-entry table.
    assert_eq!(
        u32::from_le_bytes(bytes[16..20].try_into().unwrap()),
        12 + 3 * 8
    );
    let back = read(&bytes).unwrap();
    assert_eq!(back, t);
    assert!(back.aswm().unwrap().has_original_bytes());
    assert_eq!(write(&back).unwrap(), bytes);
    let s = summary(&back);
    assert_eq!(s.format, "trx");
    assert_eq!(s.packets.len(), 3);
    assert_eq!(s.packets[0].size, 12);
    assert_eq!(s.packets[1].tag, "TRRN");
    let ws = s.walkmesh.unwrap();
    assert_eq!(
        (ws.vertices, ws.edges, ws.triangles, ws.walkable_triangles),
        (4, 5, 2, 2)
    );
    assert_eq!((ws.tiles, ws.islands), (1, 1));
}

#[test]
fn walkmesh_layout_offsets() {
    let w = square();
    let b = encode_walkmesh(&w).unwrap();
    let u32_at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap());
    assert_eq!(u32_at(0), 0x6c);
    assert_eq!(&b[4..10], b"square");
    assert_eq!(b[36], 1, "owns-data byte");
    assert_eq!(
        (u32_at(37), u32_at(41), u32_at(45), u32_at(49)),
        (4, 5, 2, 0)
    );
    let tiles = 53 + 4 * 12 + 5 * 16 + 2 * 64;
    assert_eq!(u32_at(tiles), 31, "tiles flags");
    assert_eq!(
        f32::from_le_bytes(b[tiles + 4..tiles + 8].try_into().unwrap()),
        9.0
    );
    let tile = tiles + 16;
    assert_eq!(&b[tile..tile + 32], &[0xcd; 32]);
    let pt = tile + 57;
    assert_eq!(u32_at(pt + 4), 2, "local-to-node count");
    assert_eq!(b[pt + 8], 2, "node count is a byte");
    let after_tile = pt + 13 + 2 + 2 * 4 + 4 + 4;
    assert_eq!(u32_at(after_tile), 0, "border size after the tiles");
    assert_eq!(u32_at(after_tile + 4), 1, "island count");
    assert_eq!(b.len(), after_tile + 8 + 36 + 8);
    assert_eq!(decode_walkmesh(&b).unwrap(), w);
}

#[test]
fn tile_with_own_data_round_trips() {
    let mut w = square();
    w.tiles[0].owns_data = 1;
    w.tiles[0].vertex_count = 1;
    w.tiles[0].edge_count = 1;
    w.tiles[0].vertices = vec![[1.0, 2.0, 3.0]];
    w.tiles[0].edges = vec![Edge {
        vertices: [0, 1],
        triangles: [0, 1],
    }];
    let b = encode_walkmesh(&w).unwrap();
    assert_eq!(decode_walkmesh(&b).unwrap(), w);
}

#[test]
fn inconsistent_models_do_not_encode() {
    let mut w = square();
    w.tiles[0].path_table.nodes.pop();
    assert!(encode_walkmesh(&w).is_err());
    let mut w = square();
    w.tiles.clear();
    assert!(encode_walkmesh(&w).is_err());
    let mut w = square();
    w.island_paths.clear();
    assert!(encode_walkmesh(&w).is_err());
    let mut w = square();
    w.tiles[0].vertices.push([0.0; 3]);
    assert!(encode_walkmesh(&w).is_err());
    let mut w = square();
    w.tiles[0].path_table.node_to_local = vec![0; 256];
    w.tiles[0].path_table.nodes = vec![0; 256 * 256];
    assert!(encode_walkmesh(&w).is_err());
}

fn aswm_payload(bytes: &[u8]) -> Vec<u8> {
    let t = read(bytes).unwrap();
    t.aswm().unwrap().original_payload().unwrap().to_vec()
}

/// A file whose ASWM payload is replaced by `payload`.
fn with_payload(payload: Vec<u8>) -> Vec<u8> {
    let t = Trx {
        packets: vec![Packet::Opaque {
            tag: *b"ASWM",
            data: payload,
        }],
        ..Trx::default()
    };
    write(&t).unwrap()
}

#[test]
fn container_errors_name_their_offset() {
    let good = write(&file(square())).unwrap();
    let mut bad = good.clone();
    bad[0] = b'X';
    let e = read(&bad).unwrap_err();
    assert_eq!(e.location(), crate::Location::Offset(0));
    // Table says TRWH but the packet starts with something else.
    let mut bad = good.clone();
    bad[12 + 3 * 8] = b'X';
    let e = read(&bad).unwrap_err();
    assert!(e.message().contains("the table names"), "{e}");
    // Packet offset past the end.
    let mut bad = good.clone();
    bad[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(read(&bad).is_err());
    // Huge packet count: rejected before allocating.
    let mut bad = good;
    bad[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(read(&bad).is_err());
}

#[test]
fn aswm_payload_errors() {
    let good = write(&file(square())).unwrap();
    let p = aswm_payload(&good);
    assert!(read(&with_payload(p.clone())).is_ok());

    let mut bad = p.clone();
    bad[0..4].copy_from_slice(b"RAW ");
    assert_eq!(
        read(&with_payload(bad)).unwrap_err().kind(),
        ErrorKind::Unsupported
    );

    let mut bad = p.clone();
    bad[4..8].copy_from_slice(&1u32.to_le_bytes());
    let e = read(&with_payload(bad)).unwrap_err();
    assert!(e.message().contains("compressed size"), "{e}");

    let mut bad = p.clone();
    bad[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        read(&with_payload(bad)).unwrap_err().kind(),
        ErrorKind::LimitExceeded
    );

    let declared = u32::from_le_bytes(p[8..12].try_into().unwrap());
    for wrong in [declared - 1, declared + 1] {
        let mut bad = p.clone();
        bad[8..12].copy_from_slice(&wrong.to_le_bytes());
        let e = read(&with_payload(bad)).unwrap_err();
        assert!(e.message().contains("declared"), "{e}");
    }

    let mut bad = p.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0xff; // adler-32 checksum
    assert!(read(&with_payload(bad)).is_err());

    let mut bad = p.clone();
    bad[12] = 0x00; // zlib header
    assert!(read(&with_payload(bad)).is_err());

    let mut bad = p;
    bad.push(0);
    let n = bad.len() as u32 - 12;
    bad[4..8].copy_from_slice(&n.to_le_bytes());
    let e = read(&with_payload(bad)).unwrap_err();
    assert!(
        e.message().contains("after the end of the zlib stream"),
        "{e}"
    );
}

#[test]
fn walkmesh_errors_are_in_the_decompressed_context() {
    let b = encode_walkmesh(&square()).unwrap();
    let mut bad = b.clone();
    bad[0] = 0x6b;
    assert_eq!(
        decode_walkmesh(&bad).unwrap_err().kind(),
        ErrorKind::Unsupported
    );
    let mut bad = b.clone();
    bad[37..41].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = decode_walkmesh(&bad).unwrap_err();
    assert_eq!(e.location(), crate::Location::Offset(53));
    let mut bad = b.clone();
    bad.push(0);
    assert!(
        decode_walkmesh(&bad)
            .unwrap_err()
            .message()
            .contains("unexpected bytes")
    );
    // Through the container: the context names the packet and the decompressed payload.
    let mut t = file(square());
    let w = t.walkmesh_mut().unwrap();
    w.islands[0].links = vec![1, 2];
    let mut dec = encode_walkmesh(w).unwrap();
    dec.truncate(dec.len() - 20);
    let z = aswm::deflate(&dec).unwrap();
    let mut payload = b"COMP".to_vec();
    payload.extend_from_slice(&(z.len() as u32).to_le_bytes());
    payload.extend_from_slice(&(dec.len() as u32).to_le_bytes());
    payload.extend_from_slice(&z);
    let e = read(&with_payload(payload)).unwrap_err();
    assert_eq!(e.context().len(), 2, "{e}");
    assert!(e.context()[0].starts_with("packet 0 \"ASWM\""), "{e}");
    assert_eq!(e.context()[1], "packet ASWM (decompressed)");
}

#[test]
fn compressed_path_tables_are_unsupported() {
    let mut w = square();
    w.tiles[0].path_table.flags = 1;
    let b = encode_walkmesh(&w).unwrap();
    let e = decode_walkmesh(&b).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(e.context().iter().any(|c| c == "tile 0"));
}

#[test]
fn water_packet_round_trips() {
    let w = Watr {
        name: [b'w'; 32],
        unknown: [7; 96],
        color: [0.1, 0.2, 0.3],
        ripple: [1.0, 2.0],
        smoothness: 0.5,
        reflect_bias: 0.25,
        reflect_power: 2.0,
        specular_power: 3.0,
        specular_coefficient: 4.0,
        textures: [WaterTexture::default(); 3],
        uv_offset: [0.0, 1.0],
        vertices: vec![WaterVertex::default(); 3],
        triangles: vec![[0, 1, 2]],
        triangle_flags: vec![1],
        dds: b"DDS ....".to_vec(),
        megatile: [2, 3],
    };
    let t = Trx {
        packets: vec![Packet::Watr(Box::new(w))],
        ..Trx::default()
    };
    let b = write(&t).unwrap();
    assert_eq!(read(&b).unwrap(), t);
    // One byte short: an error, not a panic.
    let mut cut = b.clone();
    cut.pop();
    let n = u32::from_le_bytes(cut[20..24].try_into().unwrap()) - 1;
    cut[20..24].copy_from_slice(&n.to_le_bytes());
    assert!(read(&cut).is_err());
}

#[test]
fn every_truncation_of_a_hand_made_file_is_an_error() {
    let b = write(&file(square())).unwrap();
    for len in 0..b.len() {
        assert!(read(&b[..len]).is_err(), "cut at {len}");
    }
}

fn codes(w: Walkmesh) -> Vec<&'static str> {
    let mut c: Vec<_> = validate(&file(w)).into_iter().map(|f| f.code).collect();
    c.sort_unstable();
    c.dedup();
    c
}

#[test]
fn validation_of_a_good_file_is_empty() {
    assert_eq!(codes(square()), Vec::<&str>::new());
}

#[test]
fn validation_finds_each_class_of_problem() {
    let mut w = square();
    w.triangles[0].vertices[0] = 99;
    assert!(codes(w).contains(&"trx-vertex-index"));

    let mut w = square();
    w.triangles[0].linked_edges[0] = 99;
    assert!(codes(w).contains(&"trx-edge-index"));

    let mut w = square();
    w.triangles[0].linked_triangles[0] = 99;
    assert!(codes(w).contains(&"trx-triangle-index"));

    let mut w = square();
    w.triangles[1].linked_triangles[2] = raw::NONE_U32;
    let c = codes(w);
    assert!(
        c.contains(&"trx-link-asymmetric") && c.contains(&"trx-edge-mismatch"),
        "{c:?}"
    );

    let mut w = square();
    w.tiles[0].triangle_count = 3;
    assert!(codes(w).contains(&"trx-tile-range"));

    let mut w = square();
    w.grid_width = 2;
    w.tiles.push(w.tiles[0].clone());
    w.island_paths = vec![w.island_paths[0]];
    let c = codes(w);
    assert!(c.contains(&"trx-tile-overlap"), "{c:?}");

    let mut w = square();
    w.tiles[0].triangle_count = 1;
    w.tiles[0].path_table.local_to_node.pop();
    let c = codes(w);
    assert!(
        c.contains(&"trx-tile-unowned") && c.contains(&"trx-path-table-shape"),
        "{c:?}"
    );

    let mut w = square();
    w.triangles[0].center = [50.0, 50.0];
    let c = codes(w);
    assert!(
        c.contains(&"trx-tile-outside") && c.contains(&"trx-stale-centre"),
        "{c:?}"
    );

    let mut w = square();
    w.tiles[0].vertex_count = 3;
    assert_eq!(codes(w), ["trx-stale-tile-counts"]);

    let mut w = square();
    w.tiles[0].path_table.nodes[2] = 0x01; // node 1 toward node 0 steps to itself
    assert_eq!(codes(w), ["trx-path-no-arrival", "trx-path-non-neighbour"]);

    let mut w = square();
    w.triangles[0].linked_triangles = [raw::NONE_U32; 3];
    w.triangles[1].linked_triangles = [raw::NONE_U32; 3];
    let c = codes(w);
    assert!(c.contains(&"trx-path-non-neighbour"), "{c:?}");

    let mut w = square();
    w.triangles[0].island = 5;
    assert!(codes(w).contains(&"trx-island-index"));

    let mut w = square();
    w.triangles[0].flags &= !raw::FLAG_WALKABLE;
    assert!(codes(w).contains(&"trx-island-mismatch"));

    let mut w = square();
    w.islands[0].links = vec![0];
    assert!(codes(w).contains(&"trx-island-mismatch"));

    let mut w = square();
    w.island_paths[0].next = 0;
    assert_eq!(codes(w), ["trx-island-path-non-neighbour"]);

    let mut w = square();
    w.island_paths.push(IslandPathNode::default());
    assert_eq!(codes(w), ["trx-island-path-shape"]);
}

/// A file whose packets do not sit back to back (bytes after the table, between packets,
/// after the last one, packets out of table order) writes back byte for byte; found by the
/// `trx` fuzz target, which wrote such files canonically.
#[test]
fn non_canonical_layout_round_trips() {
    let trwh = [1u32, 2, 3]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect::<Vec<_>>();
    let mut f = Vec::new();
    f.extend_from_slice(b"NWN2");
    f.extend_from_slice(&2u16.to_le_bytes());
    f.extend_from_slice(&3u16.to_le_bytes());
    f.extend_from_slice(&2u32.to_le_bytes());
    // Table: the second packet comes first in the file.
    f.extend_from_slice(b"TRWH");
    f.extend_from_slice(&60u32.to_le_bytes());
    f.extend_from_slice(b"XTRA");
    f.extend_from_slice(&32u32.to_le_bytes());
    f.extend_from_slice(b"gap!"); // 28..32
    f.extend_from_slice(b"XTRA");
    f.extend_from_slice(&4u32.to_le_bytes());
    f.extend_from_slice(b"data"); // 32..44
    f.extend_from_slice(&[0xAA; 16]); // 44..60
    f.extend_from_slice(b"TRWH");
    f.extend_from_slice(&12u32.to_le_bytes());
    f.extend_from_slice(&trwh); // 60..80
    f.extend_from_slice(b"\0tail"); // after the last packet
    let t = read(&f).unwrap();
    let layout = t.layout.clone().expect("a non-canonical layout is kept");
    assert_eq!(layout.offsets, [60, 32]);
    assert_eq!(layout.filler.len(), 3);
    assert_eq!(write(&t).unwrap(), f);

    // A packet that changes size cannot keep its place: the file is written canonically.
    let mut grown = t.clone();
    grown.packets[1] = Packet::Opaque {
        tag: *b"XTRA",
        data: b"longer".to_vec(),
    };
    let b = write(&grown).unwrap();
    let back = read(&b).unwrap();
    assert_eq!(back.layout, None);
    assert_eq!(back.packets, grown.packets);

    // A packet may not start inside the header or table.
    let mut bad = f.clone();
    bad[16..20].copy_from_slice(&8u32.to_le_bytes());
    let e = read(&bad).unwrap_err();
    assert!(e.to_string().contains("inside the header"), "{e}");
}

/// The canonical layout reads as `layout: None`.
#[test]
fn canonical_layout_is_none() {
    let b = write(&file(Walkmesh::default())).unwrap();
    assert_eq!(read(&b).unwrap().layout, None);
}
