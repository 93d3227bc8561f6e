//! The KotOR MDL ASCII dialect compiled to a binary model: the structure and every value the
//! text holds (names, tree, controllers, meshes with their vertex rows and MDX layout, skins
//! with their bind poses, AABB rows, animations). What is derived from the geometry (face
//! planes, adjacency, bounds, radius, AABB trees without rows) is left to
//! `areakit_area::models::derive_compiled`: formats holds no geometry algorithms.

use std::collections::HashMap;

use super::controllers::*;
use super::text::*;
use crate::error::{DecodeError, Location};
use crate::mdl::model::*;
use crate::mdl::quat::{self, conj, mul as qmul, rotate as rot};
use crate::mdl_ascii::{self, Animation as AAnim, Node as ANode, NodeKind, Rows, Stmt};

/// The game an ASCII model is for: K2 when a mesh carries one of the K2-only properties
/// (`dirt_enabled`, `dirt_texture`, `dirt_worldspace`, `hologram_donotdraw`), K1 otherwise.
pub fn ascii_game(a: &mdl_ascii::Model) -> Game {
    let k2 = a.nodes().any(|n| {
        [
            "dirt_enabled",
            "dirt_texture",
            "dirt_worldspace",
            "hologram_donotdraw",
        ]
        .iter()
        .any(|k| n.prop(k).is_some())
    });
    if k2 { Game::K2 } else { Game::K1 }
}

/// Compiles an MDL ASCII model (the KotOR dialect) into a binary model for `game`.
///
/// Errors are located by node (`node NAME: ...`). Derived data is built: face planes and
/// adjacency, bounds, radii, average points and areas, index lists, the MDX layout (positions,
/// normals, UV sets, colours, tangent space, then skin weights and indices), the skin's bone
/// map and bind poses, the AABB tree of aabb nodes from their `aabb` rows (without rows the tree
/// stays empty: `areakit_area::models::build_missing_aabb_trees` builds it), and
/// controllers for the geometry properties and animation keys.
pub fn from_ascii(a: &mdl_ascii::Model, game: Game) -> Result<Model, DecodeError> {
    let name = a.name().unwrap_or("model").to_string();
    let src = a.source.as_slice();
    let geometry = a
        .geometry()
        .ok_or_else(|| bad_at(end_place(src), "the model has no beginmodelgeom block"))?;
    let anodes: Vec<&ANode> = geometry.nodes().collect();
    if anodes.is_empty() {
        return Err(bad_at(
            place(src, &geometry.head),
            "the geometry has no nodes",
        ));
    }
    let mut m = Model::new(game, &name);
    m.names = anodes.iter().map(|n| latin1(&n.name)).collect();
    let index_of: HashMap<String, usize> = anodes
        .iter()
        .enumerate()
        .rev()
        .map(|(i, n)| (n.name.to_ascii_lowercase(), i))
        .collect();
    let (order, children) = tree_order(src, &anodes, &index_of)?;
    let arena_of: HashMap<usize, usize> = order.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let mut nodes = Vec::with_capacity(order.len());
    let mut sources = Vec::with_capacity(order.len());
    for &i in &order {
        let n = anodes[i];
        let (mut node, source) = compile_node(src, n, i as u16, game)
            .map_err(|e| placed(e, place(src, &n.head)).within(format!("node {}", n.name)))?;
        node.children = children[i].iter().map(|c| arena_of[c] as u32).collect();
        nodes.push(node);
        sources.push(source);
    }
    m.nodes = nodes;
    // Skins need the whole tree: bone maps and bind poses.
    for k in 0..m.nodes.len() {
        if m.nodes[k].flags & flags::SKIN != 0 {
            let n = anodes[order[k]];
            skin(&mut m, k, n, &index_of, &sources[k])
                .map_err(|e| e.within(format!("node {}", n.name)))?;
        }
    }
    m.geometry.node_count = m.nodes.len() as u32;
    m.header.classification = a
        .classification()
        .and_then(|c| {
            CLASSES
                .iter()
                .find(|(_, n)| n.eq_ignore_ascii_case(c))
                .map(|(b, _)| *b)
        })
        .unwrap_or(0);
    let header = |key: &str| a.header(key).map(|p| numbers(&p.value));
    m.header.subclassification = header("classification_unk1")
        .and_then(|v| v.first().map(|&x| x as u8))
        .unwrap_or(0);
    m.header.affected_by_fog = u8::from(
        header("ignorefog")
            .and_then(|v| v.first().copied())
            .unwrap_or(0.0)
            == 0.0,
    );
    m.header.animation_scale = a.animation_scale().unwrap_or(1.0) as f32;
    m.header.supermodel = Name::new(a.supermodel().unwrap_or("NULL"));
    let compress = header("compress_quaternions")
        .and_then(|v| v.first().copied())
        .unwrap_or(0.0)
        != 0.0;
    let geo_prop = |key: &str| geometry.prop(key).map(|p| numbers(&p.value));
    // Without `bmin`/`bmax`/`radius` the header keeps zeros, which
    // `areakit_area::models::derive_compiled` fills from the meshes.
    if let (Some(lo), Some(hi)) = (geo_prop("bmin"), geo_prop("bmax"))
        && lo.len() >= 3
        && hi.len() >= 3
    {
        m.header.bounds_min = [lo[0] as f32, lo[1] as f32, lo[2] as f32];
        m.header.bounds_max = [hi[0] as f32, hi[1] as f32, hi[2] as f32];
    }
    m.header.radius = geo_prop("radius")
        .and_then(|v| v.first().map(|&x| x as f32))
        .unwrap_or(0.0);
    for an in a.animations() {
        let anim = compile_animation(src, &mut m, an, game, compress).map_err(|e| {
            placed(e, place(src, &an.head)).within(format!("animation {}", an.name))
        })?;
        m.animations.push(anim);
    }
    Ok(m)
}

fn flags_of(kind: &NodeKind) -> u16 {
    use flags::*;
    match kind {
        NodeKind::Trimesh => HEADER | MESH,
        NodeKind::Skin => HEADER | MESH | SKIN,
        NodeKind::Danglymesh => HEADER | MESH | DANGLY,
        NodeKind::Aabb => HEADER | MESH | AABB,
        NodeKind::Light => HEADER | LIGHT,
        NodeKind::Emitter => HEADER | EMITTER,
        NodeKind::Reference => HEADER | REFERENCE,
        NodeKind::Other(s) if s.eq_ignore_ascii_case("lightsaber") => HEADER | MESH | SABER,
        _ => HEADER,
    }
}

/// A controller of one row at time 0 (geometry properties).
fn push_controller(n: &mut Node, kind: u32, unknown: u16, rows: &[(f32, Vec<f32>)], columns: u8) {
    let time_index = n.controller_data.len() as u16;
    for (t, _) in rows {
        n.controller_data.push(*t);
    }
    let data_index = n.controller_data.len() as u16;
    for (_, v) in rows {
        n.controller_data.extend_from_slice(v);
    }
    n.controllers.push(Controller {
        kind,
        unknown,
        rows: rows.len() as u16,
        time_index,
        data_index,
        columns,
        padding: [0; 3],
    });
}

/// A compiled node, with (for meshes) the text vertex each compiled vertex comes from.
fn compile_node(
    src: &[u8],
    n: &ANode,
    name_index: u16,
    game: Game,
) -> Result<(Node, Vec<u32>), DecodeError> {
    let f = flags_of(&n.kind);
    let mut node = Node {
        flags: f,
        node_number: name_index,
        name_index,
        orientation: [1.0, 0.0, 0.0, 0.0],
        ..Node::default()
    };
    // Geometry controllers: properties in file order (position, orientation first).
    for s in &n.body {
        match s {
            Stmt::Prop(p) => {
                let key = p.key.as_ref();
                let v = numbers(&p.value);
                if key.eq_ignore_ascii_case("position") && v.len() >= 3 {
                    node.position = [v[0] as f32, v[1] as f32, v[2] as f32];
                    let p = node.position.to_vec();
                    push_controller(&mut node, 8, 0xFFFF, &[(0.0, p)], 3);
                } else if key.eq_ignore_ascii_case("orientation") && v.len() >= 4 {
                    let q = quat_xyzw(&v);
                    node.orientation = [q[3], q[0], q[1], q[2]];
                    push_controller(&mut node, 20, 0xFFFF, &[(0.0, q)], 4);
                } else if !is_node_property(key)
                    && let Some(kind) = controller_kind(f, key)
                    && !v.is_empty()
                {
                    let vals: Vec<f32> = v.iter().map(|&x| x as f32).collect();
                    push_controller(
                        &mut node,
                        kind,
                        0xFFFF,
                        &[(0.0, vals.clone())],
                        vals.len() as u8,
                    );
                }
            }
            Stmt::List(l) if l.is_keys() => {
                let (kind, bezier) = key_controller(&l.key, |b| controller_kind(f, b))?;
                let rows: Vec<Vec<f64>> = l.rows.iter().map(<[f64]>::to_vec).collect();
                compile_keys(&mut node, kind, bezier, &rows, 0xFFFF, None, false)?;
            }
            _ => {}
        }
    }
    if f & flags::LIGHT != 0 {
        node.light = Some(light_of(n, &["nDynamicType"], &["flare"]));
    }
    if f & flags::EMITTER != 0 {
        let mut bits = 0;
        for (bit, key) in EMITTER_FLAGS {
            if num(n, key).is_some_and(|x| x != 0.0) {
                bits |= bit;
            }
        }
        node.emitter = Some(Emitter {
            dead_space: num32(n, "deadspace", 0.0),
            blast_radius: num32(n, "blastRadius", 0.0),
            blast_length: num32(n, "blastLength", 0.0),
            branch_count: int(n, "numBranches"),
            control_point_smoothing: num32(n, "controlptsmoothing", 0.0),
            x_grid: int(n, "xgrid"),
            y_grid: int(n, "ygrid"),
            spawn_type: int(n, "spawntype"),
            update: name_field(n, "update"),
            render: name_field(n, "render"),
            blend: name_field(n, "blend"),
            texture: name_field(n, "texture"),
            chunk: name_field(n, "chunkname"),
            two_sided_texture: int(n, "twosidedtex"),
            looping: int(n, "loop"),
            render_order: int(n, "renderorder"),
            frame_blending: int(n, "m_bFrameBlending"),
            depth_texture: name_field(n, "m_sDepthTextureName"),
            padding: 0,
            flags: bits,
        });
    }
    if f & flags::REFERENCE != 0 {
        node.reference = Some(Reference {
            model: name_field(n, "refModel"),
            reattachable: int(n, "reattachable"),
        });
    }
    let mut source = Vec::new();
    if f & flags::MESH != 0 {
        source = compile_mesh(src, &mut node, n, game)?;
    }
    Ok((node, source))
}

/// Keys that are node properties, never controllers (they share names with some: `shadow`,
/// `render`, `radius` of a model).
fn is_node_property(key: &str) -> bool {
    const KEYS: [&str; 12] = [
        "parent",
        "shadow",
        "render",
        "bitmap",
        "bitmap2",
        "flare",
        "texture",
        "ambient",
        "diffuse",
        "tangentspace",
        "inv_count",
        "lightmapped",
    ];
    KEYS.iter().any(|k| k.eq_ignore_ascii_case(key))
}

/// Adds a controller from key rows (time, values). Orientation rows are axis and angle; with
/// `compress` they are stored as compressed words. Animation positions (`rest` given) are
/// stored relative to the rest position.
fn compile_keys(
    node: &mut Node,
    kind: u32,
    bezier: bool,
    rows: &[Vec<f64>],
    unknown: u16,
    rest: Option<[f32; 3]>,
    compress: bool,
) -> Result<(), DecodeError> {
    if rows.is_empty() {
        return Ok(());
    }
    let width = rows[0].len().saturating_sub(1);
    if width == 0 || rows.iter().any(|r| r.len() != width + 1) {
        return Err(bad(format!(
            "controller {kind}: key rows of different lengths"
        )));
    }
    let mut out = Vec::with_capacity(rows.len());
    let mut columns = if bezier {
        (width / 3) as u8 | Controller::BEZIER
    } else {
        width as u8
    };
    for r in rows {
        let t = r[0] as f32;
        let v = &r[1..];
        let vals: Vec<f32> = match (kind, bezier) {
            (20, false) if v.len() == 4 => {
                if compress {
                    let q = quat_of([v[0], v[1], v[2], v[3]]);
                    columns = 2;
                    vec![f32::from_bits(quat::compress(q))]
                } else {
                    quat_xyzw(v)
                }
            }
            (8, _) if rest.is_some() => {
                let r = rest.unwrap_or_default();
                v.iter()
                    .enumerate()
                    .map(|(k, &x)| (x - if k < 3 { f64::from(r[k]) } else { 0.0 }) as f32)
                    .collect()
            }
            _ => v.iter().map(|&x| x as f32).collect(),
        };
        out.push((t, vals));
    }
    push_controller(node, kind, unknown, &out, columns);
    Ok(())
}

fn compile_mesh(
    src: &[u8],
    node: &mut Node,
    n: &ANode,
    game: Game,
) -> Result<Vec<u32>, DecodeError> {
    let f = node.flags;
    let verts: Vec<[f32; 3]> = rows_of(n, "verts")
        .iter()
        .map(|r| [0, 1, 2].map(|k| r.get(k).copied().unwrap_or(0.0) as f32))
        .collect();
    // Each (vertex, UV index) pair is one output vertex: the dialect indexes UVs per face corner.
    let faces_list = n.list("faces");
    let corners = split_corners(verts.len(), &rows_of(n, "faces"), |i| {
        faces_list.map_or(Location::Input, |l| row_place(src, l, i))
    })?;
    let faces: Vec<Face> = corners
        .faces
        .iter()
        .zip(&corners.materials)
        .map(|(&vertices, &material)| Face {
            material,
            adjacent: [0xFFFF; 3],
            vertices,
            ..Face::default()
        })
        .collect();
    let source = corners.source;
    let positions: Vec<[f32; 3]> = source.iter().map(|&(v, _)| verts[v as usize]).collect();
    let vd = vertex_data(n, &source, positions.clone());
    let mut mesh = mesh_of(n, game, f, faces, positions, vd);
    let skin = f & flags::SKIN != 0;
    mdx_layout(&mut mesh, skin);
    mesh_extensions(node, &mut mesh, n, &source)?;
    node.mesh = Some(mesh);
    Ok(source.iter().map(|&(v, _)| v).collect())
}

/// The per-vertex columns of the output vertices (`source`: each one's text vertex and UV
/// index), `positions` already picked.
fn vertex_data(n: &ANode, source: &[(u32, u32)], positions: Vec<[f32; 3]>) -> VertexData {
    let pick = |rows: &[Vec<f64>], w: usize, by_uv: bool| per_vertex(rows, source, w, by_uv);
    let mut vd = VertexData {
        positions,
        ..VertexData::default()
    };
    if let Some(u) = pick(&rows_of(n, "tverts"), 2, true) {
        vd.uvs[0] = u.iter().map(|r| [r[0], r[1]]).collect();
    }
    for k in 1..4 {
        let key = ["tverts1", "tverts2", "tverts3"][k - 1];
        if let Some(u) = pick(&rows_of(n, key), 2, true) {
            vd.uvs[k] = u.iter().map(|r| [r[0], r[1]]).collect();
        }
    }
    if let Some(nr) = pick(&rows_of(n, "normals"), 3, false) {
        vd.normals = nr.iter().map(|r| [r[0], r[1], r[2]]).collect();
    }
    if let Some(c) = pick(&rows_of(n, "colors"), 3, false) {
        vd.colors = c.iter().map(|r| [r[0], r[1], r[2]]).collect();
    }
    if let Some(t) = pick(&rows_of(n, "tangents"), 9, false) {
        vd.tangents[0] = t.iter().map(|r| std::array::from_fn(|i| r[i])).collect();
    }
    vd
}

/// The mesh header from the node's properties (`f`: the node's flags), with its faces and
/// vertices. Face planes, adjacency, bounds, radius, average and area are derived by
/// `areakit_area::models::derive_compiled`.
fn mesh_of(
    n: &ANode,
    game: Game,
    f: u16,
    faces: Vec<Face>,
    positions: Vec<[f32; 3]>,
    vd: VertexData,
) -> Mesh {
    let mut mesh = Mesh {
        function_pointers: game.mesh_function_pointers(f),
        diffuse: vec3_of(n, "diffuse").unwrap_or([0.8; 3]),
        ambient: vec3_of(n, "ambient").unwrap_or([0.2; 3]),
        transparency_hint: int(n, "transparencyhint"),
        texture0: name_field(n, "bitmap"),
        texture1: {
            let t = text_of(n, "bitmap2");
            let t = if t.is_empty() {
                text_of(n, "lightmap")
            } else {
                t
            };
            Name::new(&t)
        },
        texture2: name_field(n, "texture2"),
        texture3: name_field(n, "texture3"),
        index_lists: if faces.is_empty() {
            Vec::new()
        } else {
            vec![faces.iter().flat_map(|f| f.vertices).collect()]
        },
        inverted_counters: n
            .prop("inv_count")
            .map(|p| numbers(&p.value).iter().map(|&x| x as u32).collect())
            .unwrap_or_else(|| {
                if faces.is_empty() {
                    Vec::new()
                } else {
                    vec![0]
                }
            }),
        unknown: [-1, -1, 0],
        saber_unknown: [3, 0, 0, 0, 0, 0, 0, 0],
        animate_uv: int(n, "animateuv"),
        uv_direction: [num32(n, "uvdirectionx", 0.0), num32(n, "uvdirectiony", 0.0)],
        uv_jitter: num32(n, "uvjitter", 0.0),
        uv_jitter_speed: num32(n, "uvjitterspeed", 0.0),
        texture_count: u16::from(
            !name_field::<32>(n, "bitmap").is_empty() && text_of(n, "bitmap") != "NULL",
        ) + u16::from(
            !text_of(n, "bitmap2").is_empty() && text_of(n, "bitmap2") != "NULL",
        ),
        lightmapped: int(n, "lightmapped"),
        rotate_texture: int(n, "rotatetexture"),
        background: int(n, "m_bIsBackgroundGeometry"),
        shadow: int(n, "shadow"),
        beaming: int(n, "beaming"),
        render: num(n, "render").map_or(1, |x| x as u8),
        faces,
        positions,
        vertices: vd,
        ..Mesh::default()
    };
    if game == Game::K2 {
        let dt: u16 = int(n, "dirt_texture");
        let ds: u16 = int(n, "dirt_worldspace");
        mesh.k2 = [
            int(n, "dirt_enabled"),
            0,
            dt.to_le_bytes()[0],
            dt.to_le_bytes()[1],
            ds.to_le_bytes()[0],
            ds.to_le_bytes()[1],
            int(n, "hologram_donotdraw"),
            0,
        ];
    }
    mesh
}

/// The dangly, AABB and saber parts the node's flags call for; a saber moves the mesh's
/// vertices into its own part.
fn mesh_extensions(
    node: &mut Node,
    mesh: &mut Mesh,
    n: &ANode,
    source: &[(u32, u32)],
) -> Result<(), DecodeError> {
    let f = node.flags;
    if f & flags::DANGLY != 0 {
        node.dangly = Some(Dangly {
            constraints: per_vertex(&rows_of(n, "constraints"), source, 1, false)
                .map(|c| c.iter().map(|r| r[0]).collect())
                .unwrap_or_else(|| vec![0.0; source.len()]),
            displacement: num32(n, "displacement", 0.0),
            tightness: num32(n, "tightness", 0.0),
            period: num32(n, "period", 0.0),
            vertices: mesh.positions.clone(),
        });
    }
    if f & flags::AABB != 0 {
        let rows = rows_of(n, "aabb");
        // Without rows the tree stays empty: `areakit_area::models::build_missing_aabb_trees`
        // builds it as the game's compiler does (the writer refuses an empty tree).
        node.aabb = Some(if rows.is_empty() {
            Aabb::default()
        } else {
            aabb_from_rows(&rows)?
        });
    }
    if f & flags::SABER != 0 {
        let m = mesh;
        node.saber = Some(Saber {
            positions: m.positions.clone(),
            uvs: m.vertices.uvs[0].clone(),
            normals: m.vertices.normals.clone(),
            unknown: [0, 0],
        });
        m.faces.clear();
        m.index_lists.clear();
        m.inverted_counters.clear();
        m.vertices = VertexData::default();
        m.mdx_offsets = [-1; 11];
        m.mdx_flags = 0;
        m.mdx_stride = 0;
    }
    Ok(())
}

/// The MDX row layout of the columns the mesh has: position, normal, colour, UV 1-4, tangent
/// spaces, then the skin's weights and indices.
fn mdx_layout(mesh: &mut Mesh, skin: bool) {
    let v = &mesh.vertices;
    let mut off = 0i32;
    let mut offsets = [-1i32; 11];
    let mut flags_ = 0;
    let mut col = |present: bool, k: usize, size: i32, flag: u32| {
        if present {
            offsets[k] = off;
            off += size;
            flags_ |= flag;
        }
    };
    col(!v.positions.is_empty(), 0, 12, mdx_flags::POSITION);
    col(!v.normals.is_empty(), 1, 12, mdx_flags::NORMAL);
    col(!v.colors.is_empty(), 2, 12, mdx_flags::COLOR);
    col(!v.uvs[0].is_empty(), 3, 8, mdx_flags::UV1);
    col(!v.uvs[1].is_empty(), 4, 8, mdx_flags::UV2);
    col(!v.uvs[2].is_empty(), 5, 8, mdx_flags::UV3);
    col(!v.uvs[3].is_empty(), 6, 8, mdx_flags::UV4);
    col(!v.tangents[0].is_empty(), 7, 36, mdx_flags::TANGENT1);
    mesh.mdx_offsets = offsets;
    mesh.mdx_flags = flags_;
    mesh.mdx_stride = (off + if skin { 32 } else { 0 }) as u32;
}

/// The skin of arena node `k`: bone map over the name table from the weights' bone names, bind
/// poses per node (the inverse of each node's model-space transform composed with the skin
/// node's), weights and indices in the MDX rows.
fn skin(
    m: &mut Model,
    k: usize,
    n: &ANode,
    index_of: &HashMap<String, usize>,
    source: &[u32],
) -> Result<(), DecodeError> {
    let weights = match n.list("weights").map(|l| &l.rows) {
        Some(Rows::Words(w)) => w.clone(),
        _ => Vec::new(),
    };
    // Bones in order of name index.
    let mut used: Vec<usize> = Vec::new();
    for row in &weights {
        for pair in row.chunks(2) {
            let name = pair[0].to_ascii_lowercase();
            match index_of.get(&name) {
                Some(&i) if !used.contains(&i) => used.push(i),
                Some(_) => {}
                // A bone index without a node (`@N`): kept as the index.
                None if unnamed_number(&name).is_some() => {}
                None => {
                    return Err(bad(format!(
                        "weights name {}, which is not a node",
                        pair[0]
                    )));
                }
            }
        }
    }
    used.sort_unstable();
    let mut bone_map = vec![-1.0f32; m.names.len()];
    for (b, &i) in used.iter().enumerate() {
        bone_map[i] = b as f32;
    }
    let world = m.world_transforms();
    let (sq, st) = world[k];
    // Bind poses per name-table entry (kotorblender: bone^-1 · skin).
    let mut by_name = vec![([1.0, 0.0, 0.0, 0.0], [0.0; 3]); m.names.len()];
    for (a, node) in m.nodes.iter().enumerate() {
        if let Some(slot) = by_name.get_mut(usize::from(node.name_index)) {
            let (bq, bt) = world[a];
            let inv = conj(bq);
            let q = qmul(inv, sq);
            let dt = [st[0] - bt[0], st[1] - bt[1], st[2] - bt[2]];
            *slot = (q, rot(inv, dt));
        }
    }
    // One weights row per text vertex; each compiled vertex takes its text vertex's row.
    let mut bw = Vec::with_capacity(source.len());
    let mut bi = Vec::with_capacity(source.len());
    for &v in source {
        let mut w = [0f32; 4];
        let mut ix = [-1f32; 4];
        if let Some(row) = weights.get(v as usize) {
            for (s, pair) in row.chunks(2).take(4).enumerate() {
                let bone = match index_of.get(&pair[0].to_ascii_lowercase()) {
                    Some(&i) => Some(bone_map[i]),
                    None => unnamed_number(&pair[0]).map(|b| b as f32),
                };
                if let Some(b) = bone {
                    ix[s] = b;
                    w[s] = pair.get(1).and_then(|x| x.parse().ok()).unwrap_or(0.0);
                }
            }
        }
        bw.push(w);
        bi.push(ix);
    }
    let mut bone_nodes = [0u16; 16];
    for (b, &i) in used.iter().take(16).enumerate() {
        bone_nodes[b] = i as u16;
    }
    let node = &mut m.nodes[k];
    let Some(mesh) = node.mesh.as_mut() else {
        return Ok(());
    };
    let base = mesh.mdx_stride as i32 - 32;
    mesh.vertices.bone_weights = bw;
    mesh.vertices.bone_indices = bi;
    node.skin = Some(Skin {
        unknown: Vec::new(),
        weights_offset: base,
        indices_offset: base + 16,
        bone_map,
        qbones: by_name.iter().map(|(q, _)| q.map(|c| c as f32)).collect(),
        tbones: by_name.iter().map(|(_, t)| t.map(|c| c as f32)).collect(),
        unknown2: vec![0; m.names.len()],
        bone_nodes,
        padding: 0,
    });
    Ok(())
}

fn compile_animation(
    src: &[u8],
    m: &mut Model,
    an: &AAnim,
    game: Game,
    compress: bool,
) -> Result<Animation, DecodeError> {
    let anodes: Vec<&ANode> = an.nodes().collect();
    let mut anim = Animation {
        geometry: GeometryHeader {
            function_pointers: game.animation_function_pointers(),
            name: Name::new(&an.name),
            node_count: m.names.len() as u32,
            model_type: 5,
            ..GeometryHeader::default()
        },
        length: an.length().unwrap_or(0.0) as f32,
        transition: an.transtime().unwrap_or(0.0) as f32,
        root: Name::new(an.animroot().unwrap_or(&m.geometry.name.as_string())),
        events: an
            .events()
            .map(|(t, n)| Event {
                time: t as f32,
                name: Name::new(n),
            })
            .collect(),
        padding: 0,
        nodes: Vec::new(),
    };
    if anodes.is_empty() {
        return Ok(anim);
    }
    let name_index = |m: &mut Model, s: &str| -> u16 {
        match m
            .names
            .iter()
            .position(|x| x.eq_ignore_ascii_case(s.as_bytes()))
        {
            Some(i) => i as u16,
            None => {
                m.names.push(latin1(s));
                (m.names.len() - 1) as u16
            }
        }
    };
    let local: HashMap<String, usize> = anodes
        .iter()
        .enumerate()
        .rev()
        .map(|(i, n)| (n.name.to_ascii_lowercase(), i))
        .collect();
    let (order, children) = tree_order(src, &anodes, &local)?;
    let arena_of: HashMap<usize, usize> = order.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    for &i in &order {
        let n = anodes[i];
        let ni = name_index(m, &n.name);
        let geo = m
            .nodes
            .iter()
            .find(|g| m.node_name(g).eq_ignore_ascii_case(&n.name));
        let f = geo.map_or(flags::HEADER, |g| g.flags);
        let rest = geo.map_or([0.0; 3], |g| g.position);
        let number = geo.map_or(ni, |g| g.node_number);
        let mut node = Node {
            flags: flags::HEADER,
            node_number: number,
            name_index: ni,
            orientation: [1.0, 0.0, 0.0, 0.0],
            ..Node::default()
        };
        for l in n.lists().filter(|l| l.is_keys()) {
            let (kind, bezier) = key_controller(&l.key, |b| controller_kind(f, b))
                .map_err(|e| e.within(format!("node {}", n.name)))?;
            let rows: Vec<Vec<f64>> = l.rows.iter().map(<[f64]>::to_vec).collect();
            let unknown = match kind {
                8 => 16,
                20 => 28,
                _ => 0xFFFF,
            };
            compile_keys(
                &mut node,
                kind,
                bezier,
                &rows,
                unknown,
                (kind == 8).then_some(rest),
                compress && kind == 20,
            )
            .map_err(|e| e.within(format!("node {}", n.name)))?;
        }
        node.children = children[i].iter().map(|c| arena_of[c] as u32).collect();
        anim.nodes.push(node);
    }
    Ok(anim)
}
