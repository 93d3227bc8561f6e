use super::*;

/// A model with every node type, controllers and an animation, for `game`.
pub(crate) fn sample(game: Game) -> Model {
    let mut m = Model::new(game, "sample");
    m.names = [
        "sample", "light", "fx", "ref", "mesh", "skin", "dangly", "walk", "blade",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    m.nodes[0].orientation = [1.0, 0.0, 0.0, 0.0];
    m.nodes[0].controllers = vec![Controller {
        kind: 8,
        unknown: 0xFFFF,
        rows: 1,
        time_index: 0,
        data_index: 1,
        columns: 3,
        padding: [0; 3],
    }];
    m.nodes[0].controller_data = vec![0.0, 1.0, 2.0, 3.0];
    let mut push = |flags: u16, name_index: u16, f: &dyn Fn(&mut Node)| {
        let mut n = Node {
            flags,
            node_number: name_index,
            name_index,
            position: [f32::from(name_index), 0.5, 0.0],
            orientation: [1.0, 0.0, 0.0, 0.0],
            ..Node::default()
        };
        f(&mut n);
        let i = m.nodes.len() as u32;
        m.nodes.push(n);
        m.nodes[0].children.push(i);
    };
    push(flags::HEADER | flags::LIGHT, 1, &|n| {
        n.light = Some(Light {
            flare_radius: 2.0,
            flare_sizes: vec![1.0, 2.0],
            flare_positions: vec![0.5, 0.25],
            flare_color_shifts: vec![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            flare_textures: vec![b"flare1".to_vec(), b"flare2".to_vec()],
            priority: 3,
            flare: 1,
            ..Light::default()
        })
    });
    push(flags::HEADER | flags::EMITTER, 2, &|n| {
        n.emitter = Some(Emitter {
            update: Name::new("Fountain"),
            render: Name::new("Normal"),
            blend: Name::new("Lighten"),
            texture: Name::new("fx_spark"),
            x_grid: 4,
            y_grid: 2,
            flags: 0x21,
            ..Emitter::default()
        })
    });
    push(flags::HEADER | flags::REFERENCE, 3, &|n| {
        n.reference = Some(Reference {
            model: Name::new("other"),
            reattachable: 1,
        })
    });
    let mesh = |game: Game, flags: u16, with_weights: bool| {
        let positions = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [1.0, 1.0, 0.5],
        ];
        let mut v = VertexData {
            positions: positions.clone(),
            normals: vec![[0.0, 0.0, 1.0]; 4],
            ..VertexData::default()
        };
        v.uvs[0] = vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
        v.tangents[0] = vec![[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]; 4];
        let mut offsets = [-1; 11];
        offsets[0] = 0;
        offsets[1] = 12;
        offsets[3] = 24;
        offsets[7] = 32;
        let mut stride = 68;
        if with_weights {
            v.bone_weights = vec![[1.0, 0.0, 0.0, 0.0]; 4];
            v.bone_indices = vec![[0.0, -1.0, -1.0, -1.0]; 4];
            stride += 32;
        }
        Mesh {
            function_pointers: game.mesh_function_pointers(flags),
            faces: vec![
                Face {
                    normal: [0.0, 0.0, 1.0],
                    distance: 0.0,
                    material: 1,
                    adjacent: [0xFFFF, 1, 0xFFFF],
                    vertices: [0, 1, 2],
                },
                Face {
                    normal: [0.0, 0.0, 1.0],
                    distance: 0.0,
                    material: 1,
                    adjacent: [0xFFFF, 0xFFFF, 0],
                    vertices: [1, 3, 2],
                },
            ],
            texture0: Name::new("tex"),
            texture1: Name::new("lightmap"),
            index_lists: vec![vec![0, 1, 2, 1, 3, 2]],
            inverted_counters: vec![98],
            unknown: [-1, -1, 0],
            mdx_stride: stride,
            mdx_flags: mdx_flags::POSITION
                | mdx_flags::NORMAL
                | mdx_flags::UV1
                | mdx_flags::TANGENT1,
            mdx_offsets: offsets,
            texture_count: 2,
            render: 1,
            k2: if game == Game::K2 {
                [1, 0, 2, 0, 1, 0, 1, 0]
            } else {
                [0; 8]
            },
            total_area: 1.0,
            positions,
            vertices: v,
            ..Mesh::default()
        }
    };
    let trimesh = flags::HEADER | flags::MESH;
    push(trimesh, 4, &|n| n.mesh = Some(mesh(game, trimesh, false)));
    let skin = trimesh | flags::SKIN;
    push(skin, 5, &|n| {
        n.mesh = Some(mesh(game, skin, true));
        n.skin = Some(Skin {
            weights_offset: 68,
            indices_offset: 84,
            bone_map: vec![0.0, -1.0, -1.0],
            qbones: vec![[1.0, 0.0, 0.0, 0.0]],
            tbones: vec![[0.0, 0.0, 0.0]],
            bone_nodes: [0; 16],
            ..Skin::default()
        });
    });
    let dangly = trimesh | flags::DANGLY;
    push(dangly, 6, &|n| {
        n.mesh = Some(mesh(game, dangly, false));
        n.dangly = Some(Dangly {
            constraints: vec![0.0, 1.0, 2.0, 3.0],
            displacement: 0.5,
            tightness: 1.0,
            period: 2.0,
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [1.0, 1.0, 0.5],
            ],
        });
    });
    let aabb = trimesh | flags::AABB;
    push(aabb, 7, &|n| {
        n.mesh = Some(mesh(game, aabb, false));
        n.aabb = Some(Aabb {
            tree: vec![
                AabbNode {
                    min: [0.0; 3],
                    max: [1.0, 1.0, 0.5],
                    left: Some(1),
                    right: Some(2),
                    face: -1,
                    plane: 1,
                },
                AabbNode {
                    min: [0.0; 3],
                    max: [1.0, 1.0, 0.0],
                    left: None,
                    right: None,
                    face: 0,
                    plane: 0,
                },
                AabbNode {
                    min: [0.0, 0.0, 0.0],
                    max: [1.0, 1.0, 0.5],
                    left: None,
                    right: None,
                    face: 1,
                    plane: 0,
                },
            ],
        });
    });
    let saber = trimesh | flags::SABER;
    push(saber, 8, &|n| {
        let mut m = mesh(game, saber, false);
        m.faces.clear();
        m.index_lists.clear();
        m.vertices = VertexData::default();
        m.mdx_offsets = [-1; 11];
        m.mdx_stride = 0;
        n.saber = Some(Saber {
            positions: m.positions.clone(),
            uvs: vec![[0.0, 0.0]; 4],
            normals: vec![[0.0, 0.0, 1.0]; 4],
            unknown: [0, 0],
        });
        n.mesh = Some(m);
    });
    m.geometry.node_count = m.nodes.len() as u32;
    m.animations.push(Animation {
        geometry: GeometryHeader {
            function_pointers: game.animation_function_pointers(),
            name: Name::new("pause1"),
            model_type: 5,
            ..GeometryHeader::default()
        },
        length: 2.0,
        transition: 0.25,
        root: Name::new("sample"),
        events: vec![Event {
            time: 1.0,
            name: Name::new("snd_footstep"),
        }],
        padding: 0,
        nodes: vec![
            Node {
                flags: flags::HEADER,
                children: vec![1],
                ..Node::default()
            },
            Node {
                flags: flags::HEADER,
                node_number: 4,
                name_index: 4,
                controllers: vec![Controller {
                    kind: 20,
                    unknown: 0xFFFF,
                    rows: 2,
                    time_index: 0,
                    data_index: 2,
                    columns: 4,
                    padding: [0; 3],
                }],
                controller_data: vec![0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
                ..Node::default()
            },
        ],
    });
    m
}

#[test]
fn a_model_with_every_node_type_reads_back_equal_for_both_games() {
    for game in [Game::K1, Game::K2] {
        let m = sample(game);
        let (a, x) = write(&m).unwrap();
        let back = read(&a, &x).unwrap();
        assert_eq!(back, m, "{game:?}");
        assert_eq!(back.game, game);
        // Written again (now in its own layout) it gives the same bytes.
        assert_eq!(write(&back).unwrap(), (a, x));
    }
}

#[test]
fn k2_mesh_headers_are_eight_bytes_longer() {
    let (k1, _) = write(&sample(Game::K1)).unwrap();
    let (k2, _) = write(&sample(Game::K2)).unwrap();
    // Five mesh nodes (trimesh, skin, dangly, aabb, saber).
    assert_eq!(k2.len() - k1.len(), 5 * 8);
    let m = read(&k2, &write(&sample(Game::K2)).unwrap().1).unwrap();
    assert_eq!(
        m.nodes[4].mesh.as_ref().unwrap().k2,
        [1, 0, 2, 0, 1, 0, 1, 0]
    );
}

#[test]
fn the_game_is_told_by_the_mesh_pointers_when_the_model_pointers_are_unknown() {
    let mut m = sample(Game::K2);
    m.geometry.function_pointers = [0x1234, 0x5678];
    let (a, x) = write(&m).unwrap();
    assert_eq!(read(&a, &x).unwrap().game, Game::K2);
}

#[test]
fn an_edited_model_is_written_in_the_canonical_layout() {
    let m = sample(Game::K1);
    let (a, x) = write(&m).unwrap();
    let mut back = read(&a, &x).unwrap();
    let mesh = back.nodes[4].mesh.as_mut().unwrap();
    mesh.faces.pop();
    mesh.index_lists[0].truncate(3);
    let (b, y) = write(&back).unwrap();
    assert_ne!(b.len(), a.len());
    assert_eq!(read(&b, &y).unwrap(), back);
}

#[test]
fn values_edited_in_place_keep_the_source_layout() {
    let (a, x) = write(&sample(Game::K1)).unwrap();
    let mut m = read(&a, &x).unwrap();
    m.nodes[4].mesh.as_mut().unwrap().positions[0] = [9.0, 9.0, 9.0];
    let (b, y) = write(&m).unwrap();
    assert_eq!(b.len(), a.len());
    assert_eq!(y, x);
    assert_eq!(read(&b, &y).unwrap(), m);
}

#[test]
fn inconsistent_models_are_refused_not_written() {
    let mut m = sample(Game::K1);
    m.nodes[4].mesh.as_mut().unwrap().vertices.normals.pop();
    assert!(write(&m).unwrap_err().0.contains("normals"));
    let mut m = sample(Game::K1);
    m.nodes[1].light = None;
    assert!(write(&m).unwrap_err().0.contains("light"));
    let mut m = sample(Game::K1);
    m.nodes[0].children.push(0);
    assert!(write(&m).is_err());
    let mut m = sample(Game::K1);
    m.names[1] = b"a\0b".to_vec();
    assert!(write(&m).unwrap_err().0.contains("NUL"));
}

#[test]
fn every_truncation_gives_a_located_error() {
    let (a, x) = write(&sample(Game::K2)).unwrap();
    for n in 0..a.len() {
        let mut t = a[..n].to_vec();
        if n >= 12 {
            // Keep the size word consistent so the walk itself meets the end.
            t[4..8].copy_from_slice(&((n - 12) as u32).to_le_bytes());
        }
        let e = read(&t, &x).unwrap_err();
        assert!(
            matches!(e.location(), crate::Location::Offset(_)),
            "{n}: {e}"
        );
    }
    for n in 0..x.len() {
        let e = read(&a, &x[..n]).unwrap_err();
        assert!(e.to_string().contains("MDX"), "{n}: {e}");
        assert!(e.to_string().contains("node sample/"), "{n}: {e}");
    }
}

#[test]
fn errors_name_the_node_path() {
    let mut m = sample(Game::K1);
    m.nodes[4].mesh.as_mut().unwrap().faces[0].vertices = [0, 1, 2];
    let (mut a, x) = write(&m).unwrap();
    // Point the first mesh's face array past the end.
    let data = &a[12..];
    let mesh_header = (0..data.len() - 4)
        .find(|&o| {
            u32::from_le_bytes(data[o..o + 4].try_into().unwrap())
                == Game::K1.mesh_function_pointers(flags::HEADER | flags::MESH)[0]
        })
        .unwrap();
    let at = 12 + mesh_header + 8;
    a[at..at + 4].copy_from_slice(&0x00FF_FFFFu32.to_le_bytes());
    let e = read(&a, &x).unwrap_err();
    assert!(
        e.to_string().starts_with("node sample/mesh: offset 0x"),
        "{e}"
    );
    assert!(e.to_string().contains("the faces"), "{e}");
}

#[test]
fn an_xbox_model_is_refused_as_unsupported() {
    let (mut a, x) = write(&sample(Game::K1)).unwrap();
    a[12..16].copy_from_slice(&raw::MODEL_FN_K1_XBOX.to_le_bytes());
    let e = read(&a, &x).unwrap_err();
    assert_eq!(e.kind(), crate::ErrorKind::Unsupported);
}

#[test]
fn node_trees_deeper_than_the_limit_are_refused() {
    let chain = |depth: usize| {
        let mut m = Model::new(Game::K1, "deep");
        for i in 1..=depth {
            m.names.push(format!("n{i}").into_bytes());
            m.nodes.push(Node {
                flags: flags::HEADER,
                name_index: i as u16,
                orientation: [1.0, 0.0, 0.0, 0.0],
                ..Node::default()
            });
            m.nodes[i - 1].children.push(i as u32);
        }
        m
    };
    let ok = chain(tree::MAX_DEPTH);
    let (a, x) = write(&ok).unwrap();
    assert_eq!(read(&a, &x).unwrap().nodes.len(), tree::MAX_DEPTH + 1);
    assert!(
        write(&chain(tree::MAX_DEPTH + 1))
            .unwrap_err()
            .0
            .contains("deeper")
    );
}

#[test]
fn blocks_shared_in_the_source_write_back_byte_for_byte_even_with_nan() {
    // Two nodes with the same controller data (a NaN among it), then the second node's data
    // pointer aimed at the first's: the source layout has two blocks on the same bytes.
    let mut m = sample(Game::K1);
    let data = vec![f32::NAN, 1.5, 2.5, 3.5];
    m.nodes[0].controller_data = data.clone();
    m.nodes[1].controller_data = data.clone();
    m.nodes[1].controllers = m.nodes[0].controllers.clone();
    let (mut a, x) = write(&m).unwrap();
    let pattern: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    let at: Vec<usize> = (12..a.len() - pattern.len())
        .filter(|&i| a[i..i + pattern.len()] == pattern[..])
        .collect();
    assert_eq!(at.len(), 2, "the two data blocks");
    let (first, second) = ((at[0] - 12) as u32, (at[1] - 12) as u32);
    let mut header = second.to_le_bytes().to_vec();
    header.extend_from_slice(&4u32.to_le_bytes());
    let ptr = (12..a.len() - 8)
        .find(|&i| a[i..i + 8] == header[..])
        .unwrap();
    a[ptr..ptr + 4].copy_from_slice(&first.to_le_bytes());
    let shared = read(&a, &x).unwrap();
    assert_eq!(write(&shared).unwrap(), (a.clone(), x.clone()));
    // Edited so that the shared bytes would disagree: written in the canonical layout, it
    // reads back as the edit.
    let mut edited = shared.clone();
    edited.nodes[1].controller_data[1] = 9.0;
    let (b, y) = write(&edited).unwrap();
    assert_ne!(b, a);
    assert_eq!(read(&b, &y).unwrap().nodes[1].controller_data[1], 9.0);
    assert_eq!(read(&b, &y).unwrap().nodes[0].controller_data[1], 1.5);
}

#[test]
fn a_mesh_without_vertices_keeps_column_offsets_beyond_its_stride() {
    // Found by the fuzzer: no rows, so the reader takes any offsets; the writer must too.
    let mut m = sample(Game::K1);
    let mesh = m.nodes[4].mesh.as_mut().unwrap();
    mesh.positions.clear();
    mesh.faces.clear();
    mesh.index_lists.clear();
    mesh.vertices = VertexData::default();
    mesh.mdx_offsets = [-1; 11];
    mesh.mdx_stride = 32;
    let (a, x) = write(&m).unwrap();
    let mut back = read(&a, &x).unwrap();
    back.nodes[4].mesh.as_mut().unwrap().mdx_offsets[7] = 131_071;
    let (b, y) = write(&back).unwrap();
    let again = read(&b, &y).unwrap();
    assert_eq!(
        again.nodes[4].mesh.as_ref().unwrap().mdx_offsets[7],
        131_071
    );
    assert_eq!(write(&again).unwrap(), (b, y));
}
