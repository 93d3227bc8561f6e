//! The NWN MDL ASCII dialect compiled to an NWN compiled model: the structure and every value
//! the text holds (names and node numbers, the tree, controllers, lights, emitters, references,
//! meshes with their vertex streams split at UV seams, skin weights, dangly constraints,
//! animated-mesh sets, AABB rows, animations with events). What is derived from the geometry
//! (face planes, adjacency, bounds, radius, vertex normals the text lacks, skin bind poses,
//! AABB trees without rows) is left to `areakit_area::nwn_models::derive_compiled`: formats
//! holds no geometry algorithms.

use std::collections::HashMap;

use super::controllers::*;
use super::model::*;
use crate::error::{DecodeError, Location};
use crate::mdl::ascii::text::*;
use crate::mdl_ascii::{self, Animation as AAnim, Node as ANode, NodeKind, Rows, Stmt};

/// A compiled model and what its derivation needs that the model does not keep.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The model, its derived data not yet filled in.
    pub model: Model,
    /// Per geometry node, the smoothing group of each face when the text gave no normals (the
    /// normals are then made from them); `None` otherwise.
    pub smoothing: Vec<Option<Vec<u32>>>,
}

/// The function-pointer words of NWN:EE's compiler (the rollnw corpus models): the model and
/// animation geometry headers.
const MODEL_FNS: [u32; 2] = [4_242_368, 4_242_384];
const ANIMATION_FNS: [u32; 2] = [4_241_088, 4_515_584];
/// Node header words per type (dummy, light, emitter, trimesh, skin, aabb); other mesh types
/// take the trimesh's, references the dummy's.
const NODE_FNS: [(u32, [u32; 6]); 6] = [
    (
        1,
        [
            4_246_384, 4_246_480, 4_246_496, 4_246_512, 4_246_544, 4_246_560,
        ],
    ),
    (
        3,
        [
            4_250_480, 4_250_496, 4_250_512, 4_250_528, 4_250_560, 4_250_576,
        ],
    ),
    (
        5,
        [
            4_246_384, 4_250_032, 4_250_048, 4_250_064, 4_250_096, 4_250_112,
        ],
    ),
    (
        33,
        [
            4_252_384, 4_252_400, 4_252_416, 4_252_432, 4_252_464, 4_252_480,
        ],
    ),
    (
        97,
        [
            4_249_360, 4_249_488, 4_249_504, 4_252_432, 4_249_520, 4_249_536,
        ],
    ),
    (
        545,
        [
            4_253_280, 4_253_408, 4_252_416, 4_252_432, 4_252_464, 4_253_424,
        ],
    ),
];
/// Mesh header words: trimesh (and every other mesh type), skin.
const MESH_FNS: [u32; 2] = [4_252_496, 4_249_568];
const SKIN_MESH_FNS: [u32; 2] = [4_249_552, 4_249_568];

fn node_fns(f: u32) -> [u32; 6] {
    let key = if f & u32::from(flags::SKIN) != 0 {
        97
    } else if f & u32::from(flags::AABB) != 0 {
        545
    } else if f & u32::from(flags::MESH) != 0 {
        33
    } else if f & u32::from(flags::EMITTER) != 0 {
        5
    } else if f & u32::from(flags::LIGHT) != 0 {
        3
    } else {
        1
    };
    NODE_FNS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or([0; 6], |(_, w)| *w)
}

/// The content flags of an ASCII node type.
fn flags_of(kind: &NodeKind) -> u32 {
    use flags::*;
    u32::from(match kind {
        NodeKind::Trimesh => HEADER | MESH,
        NodeKind::Skin => HEADER | MESH | SKIN,
        NodeKind::Danglymesh => HEADER | MESH | DANGLY,
        NodeKind::Animmesh => HEADER | MESH | ANIM,
        NodeKind::Aabb => HEADER | MESH | AABB,
        NodeKind::Light => HEADER | LIGHT,
        NodeKind::Emitter => HEADER | EMITTER,
        NodeKind::Reference => HEADER | REFERENCE,
        _ => HEADER,
    })
}

/// Keys only NWN's dialect writes (mesh material, tile and EE properties, NWN's light names).
const NWN_KEYS: [&str; 9] = [
    "specular",
    "shininess",
    "tilefade",
    "renderhint",
    "materialname",
    "inheritcolor",
    "setfillumcolor",
    "isdynamic",
    "generateflare",
];
/// Keys only KotOR's dialect writes.
const KOTOR_KEYS: [&str; 10] = [
    "classification_unk1",
    "compress_quaternions",
    "bitmap2",
    "m_bisbackgroundgeometry",
    "tangentspace",
    "inv_count",
    "animateuv",
    "dirt_enabled",
    "hologram_donotdraw",
    "m_bframeblending",
];
/// Words of the comment lines the tools write: NWN's exporters, then KotOR's.
const NWN_TOOLS: [&str; 5] = ["maxmodel", "nwmax", "gmax mdl tool", "mdl2ascii", "nwn"];
const KOTOR_TOOLS: [&str; 4] = ["kotormax", "mdlops", "kotorblender", "kotor"];

/// Which dialect an MDL ASCII model is written in: `Some(true)` NWN, `Some(false)` KotOR: NWN
/// when it has a key only NWN's dialect writes, else by the comment lines the tools write
/// (`#MAXMODEL ASCII`, NWmax, mdl2ascii; KOTORmax, mdlops, kotorblender), else KotOR when it
/// has a key only KotOR's dialect writes; `None` when nothing tells.
pub fn is_nwn_ascii(a: &mdl_ascii::Model) -> Option<bool> {
    let has = |keys: &[&str]| {
        a.nodes().any(|n| {
            n.body.iter().any(|s| match s {
                Stmt::Prop(p) => keys.iter().any(|k| p.key.eq_ignore_ascii_case(k)),
                _ => false,
            })
        }) || keys.iter().any(|k| a.header(k).is_some())
    };
    if has(&NWN_KEYS) {
        return Some(true);
    }
    let comments: Vec<String> = a
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Trivia(t) if t.kind == mdl_ascii::TriviaKind::Comment => {
                Some(t.text.to_ascii_lowercase())
            }
            _ => None,
        })
        .collect();
    let said = |words: &[&str]| comments.iter().any(|c| words.iter().any(|w| c.contains(w)));
    if said(&KOTOR_TOOLS) {
        Some(false)
    } else if said(&NWN_TOOLS) {
        Some(true)
    } else if has(&KOTOR_KEYS)
        || a.nodes()
            .any(|n| n.kind.name().eq_ignore_ascii_case("lightsaber"))
    {
        Some(false)
    } else {
        None
    }
}

/// Compiles NWN MDL ASCII text (a model with a geometry block) to a compiled model.
pub fn from_ascii(a: &mdl_ascii::Model) -> Result<Compiled, DecodeError> {
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
    let index_of = names_index(&anodes);
    let (order, children) = tree_order(src, &anodes, &index_of)?;
    let arena_of: HashMap<usize, usize> = order.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let mut model = Model {
        geometry: GeometryHeader {
            function_pointers: MODEL_FNS,
            name: Name::new(&name),
            node_count: anodes.len() as u32,
            model_type: 2,
            ..GeometryHeader::default()
        },
        header: ModelHeader {
            classification: a.classification().map_or(0, class_of),
            fog: u8::from(a.header("ignorefog").and_then(|p| p.value.as_f64()) != Some(1.0)),
            animation_scale: a.animation_scale().unwrap_or(1.0) as f32,
            supermodel: Name::new(a.supermodel().unwrap_or("NULL")),
            ..ModelHeader::default()
        },
        ..Model::default()
    };
    let mut smoothing = Vec::with_capacity(order.len());
    let mut sources = Vec::with_capacity(order.len());
    for (k, &i) in order.iter().enumerate() {
        let n = anodes[i];
        let within =
            |e: DecodeError| placed(e, place(src, &n.head)).within(format!("node {}", n.name));
        let (mut node, source, groups) = compile_node(src, n, k as i32).map_err(within)?;
        node.children = children[i].iter().map(|c| arena_of[c] as u32).collect();
        model.nodes.push(node);
        sources.push(source);
        smoothing.push(groups);
    }
    let numbers: HashMap<String, i32> = model
        .nodes
        .iter()
        .map(|n| (n.name().to_ascii_lowercase(), n.node_number))
        .collect();
    for (k, &i) in order.iter().enumerate() {
        if model.nodes[k].skin.is_some() {
            let n = anodes[i];
            skin_weights(&mut model.nodes[k], n, &sources[k], &numbers).map_err(|e| {
                let at = n
                    .list("weights")
                    .map_or(Location::Input, |l| place(src, &l.raw));
                placed(e, at).within(format!("node {}", n.name))
            })?;
        }
    }
    for an in a.animations() {
        let anim = compile_animation(src, &model, an).map_err(|e| {
            placed(e, place(src, &an.head)).within(format!("animation {}", an.name))
        })?;
        model.animations.push(anim);
    }
    Ok(Compiled { model, smoothing })
}

/// Lower-case name → index of the first node of that name.
fn names_index(anodes: &[&ANode]) -> HashMap<String, usize> {
    anodes
        .iter()
        .enumerate()
        .rev()
        .map(|(i, n)| (n.name.to_ascii_lowercase(), i))
        .collect()
}

/// A controller from key rows (time, values): times first, then the values, appended to the
/// node's data (BioWare's layout). The header's indices and row count are 16-bit: a node whose
/// keys would reach past them is refused.
fn push_controller(
    n: &mut Node,
    kind: u32,
    rows: &[(f32, Vec<f32>)],
    columns: u8,
) -> Result<(), DecodeError> {
    let start = n.controller_data.len();
    let (Ok(time_index), Ok(data_index), Ok(count)) = (
        u16::try_from(start),
        u16::try_from(start + rows.len()),
        u16::try_from(rows.len()),
    ) else {
        return Err(bad(format!(
            "controller {kind}: {} keys after {start} floats of the node's controller data: \
             a compiled controller indexes at most 65 535 floats",
            rows.len()
        )));
    };
    n.controller_data.extend(rows.iter().map(|(t, _)| *t));
    for (_, v) in rows {
        n.controller_data.extend_from_slice(v);
    }
    n.controllers.push(Controller {
        kind,
        rows: count,
        time_index,
        data_index,
        columns,
        padding: 0,
    });
    Ok(())
}

/// A controller from rows of time and values (orientations as axis and angle).
fn compile_keys(
    n: &mut Node,
    kind: u32,
    bezier: bool,
    rows: &[Vec<f64>],
) -> Result<(), DecodeError> {
    let Some(first) = rows.first() else {
        return Ok(());
    };
    let width = first.len().saturating_sub(1);
    if rows.iter().any(|r| r.len() != width + 1) {
        return Err(bad(format!(
            "controller {kind}: key rows of different lengths"
        )));
    }
    // The column count shares its byte with the bezier flag: at most 15 values (a bezier
    // row: 15 sets of value and two tangents).
    let columns = match u8::try_from(if bezier { width / 3 } else { width }) {
        Ok(c) if c < Controller::BEZIER && (!bezier || width % 3 == 0) => {
            if bezier {
                c | Controller::BEZIER
            } else {
                c
            }
        }
        _ => {
            return Err(bad(format!(
                "controller {kind}: {width} values a key{}: a compiled controller holds at \
                 most 15{}",
                if bezier { " (bezier)" } else { "" },
                if bezier {
                    ", in sets of a value and two tangents"
                } else {
                    ""
                }
            )));
        }
    };
    let out: Vec<(f32, Vec<f32>)> = rows
        .iter()
        .map(|r| {
            let v = &r[1..];
            let vals = if kind == 20 && !bezier && v.len() == 4 {
                quat_xyzw(v)
            } else {
                v.iter().map(|&x| x as f32).collect()
            };
            (r[0] as f32, vals)
        })
        .collect();
    push_controller(n, kind, &out, columns)
}

/// The controllers of a node's properties (one key at time 0) and key lists, in file order.
fn node_controllers(node: &mut Node, n: &ANode) -> Result<(), DecodeError> {
    let f = node.flags;
    for s in &n.body {
        match s {
            Stmt::Prop(p) => {
                let Some(kind) = controller_kind(f, &p.key) else {
                    continue;
                };
                let v = numbers(&p.value);
                let row = if kind == 20 && v.len() >= 4 {
                    vec![0.0, v[0], v[1], v[2], v[3]]
                } else {
                    std::iter::once(0.0).chain(v).collect()
                };
                compile_keys(node, kind, false, &[row])?;
            }
            Stmt::List(l) if l.is_keys() => {
                let (kind, bezier) = key_controller(&l.key, |b| controller_kind(f, b))?;
                let rows: Vec<Vec<f64>> = l.rows.iter().map(<[f64]>::to_vec).collect();
                compile_keys(node, kind, bezier, &rows)?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// A compiled geometry node, with (for meshes) the text vertex of each compiled vertex and,
/// when the text gave no normals, the faces' smoothing groups.
#[allow(clippy::type_complexity)]
fn compile_node(
    src: &[u8],
    n: &ANode,
    number: i32,
) -> Result<(Node, Vec<(u32, u32)>, Option<Vec<u32>>), DecodeError> {
    let f = flags_of(&n.kind);
    let mut node = Node {
        flags: f,
        function_pointers: node_fns(f),
        inherit_color: int(n, "inheritcolor"),
        node_number: number,
        name: Name::new(&n.name),
        ..Node::default()
    };
    node_controllers(&mut node, n)?;
    let bits = f as u16;
    if bits & flags::LIGHT != 0 {
        node.light = Some(Box::new(light_of(
            n,
            &["isdynamic", "ndynamictype"],
            &["generateflare", "lensflares"],
        )));
    }
    if bits & flags::EMITTER != 0 {
        node.emitter = Some(Box::new(emitter(n)));
    }
    if bits & flags::REFERENCE != 0 {
        node.reference = Some(Box::new(Reference {
            model: name_field(n, "refmodel"),
            reattachable: int(n, "reattachable"),
        }));
    }
    let (mut source, mut groups) = (Vec::new(), None);
    if bits & flags::MESH != 0 {
        let (mesh, s, g) = compile_mesh(src, n, bits & flags::SKIN != 0)?;
        let count = mesh.vertex_count();
        node.mesh = Some(Box::new(mesh));
        if bits & flags::DANGLY != 0 {
            let c = per_vertex(&rows_of(n, "constraints"), &s, 1, false).unwrap_or_default();
            node.dangly = Some(Dangly {
                constraints: c.iter().map(|r| r[0]).collect(),
                displacement: num32(n, "displacement", 0.0),
                tightness: num32(n, "tightness", 0.0),
                period: num32(n, "period", 0.0),
            });
        }
        if bits & flags::ANIM != 0 {
            node.anim = Some(Box::new(anim_mesh(n, count)?));
        }
        if bits & flags::SKIN != 0 {
            node.skin = Some(Box::default());
        }
        (source, groups) = (s, g);
    }
    if bits & flags::AABB != 0 {
        let rows = rows_of(n, "aabb");
        node.aabb = Some(if rows.is_empty() {
            Aabb::default()
        } else {
            aabb_from_rows(&rows)?
        });
    }
    Ok((node, source, groups))
}

fn emitter(n: &ANode) -> Emitter {
    let mut bits = 0;
    for &(bit, key) in EMITTER_FLAGS {
        if num(n, key).is_some_and(|x| x != 0.0) {
            bits |= bit;
        }
    }
    Emitter {
        dead_space: num32(n, "deadspace", 0.0),
        blast_radius: num32(n, "blastRadius", 0.0),
        blast_length: num32(n, "blastLength", 0.0),
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
        padding: 0,
        flags: bits,
    }
}

/// A compiled mesh, the text vertex (and corner) each compiled vertex came from, and the faces'
/// smoothing groups when the text has no normals.
type CompiledMesh = (Mesh, Vec<(u32, u32)>, Option<Vec<u32>>);

/// A mesh from its text: vertices split at UV seams, faces, UV sets, normals, colours,
/// tangents, the index list; with the text vertex of each compiled vertex and, without
/// normals, the faces' smoothing groups.
fn compile_mesh(src: &[u8], n: &ANode, skin: bool) -> Result<CompiledMesh, DecodeError> {
    let verts = rows_of(n, "verts");
    let faces = n.list("faces");
    let c = split_corners(verts.len(), &rows_of(n, "faces"), |i| {
        faces.map_or(Location::Input, |l| row_place(src, l, i))
    })?;
    let positions: Vec<[f32; 3]> = per_vertex(&verts, &c.source, 3, false)
        .unwrap_or_default()
        .iter()
        .map(|r| [r[0], r[1], r[2]])
        .collect();
    let mut uvs: [Option<Vec<[f32; 2]>>; 4] = Default::default();
    for (k, key) in ["tverts", "tverts1", "tverts2", "tverts3"]
        .into_iter()
        .enumerate()
    {
        uvs[k] = per_vertex(&rows_of(n, key), &c.source, 2, true)
            .map(|u| u.iter().map(|r| [r[0], r[1]]).collect());
    }
    let normals = per_vertex(&rows_of(n, "normals"), &c.source, 3, false)
        .map(|v| v.iter().map(|r| [r[0], r[1], r[2]]).collect::<Vec<_>>());
    let colors = per_vertex(&rows_of(n, "colors"), &c.source, 4, false).map(|v| {
        let alpha = rows_of(n, "colors").iter().all(|r| r.len() < 4);
        v.iter()
            .map(|r| {
                let b = |x: f32| (x * 255.0).round().clamp(0.0, 255.0) as u8;
                [b(r[0]), b(r[1]), b(r[2]), if alpha { 255 } else { b(r[3]) }]
            })
            .collect()
    });
    let mut extra: [Option<Vec<u8>>; 6] = Default::default();
    let tangent_rows = rows_of(n, "tangents");
    if let Some(t) = per_vertex(&tangent_rows, &c.source, 4, false) {
        let xyz: Vec<[f32; 3]> = t.iter().map(|r| [r[0], r[1], r[2]]).collect();
        extra[3] = Some(crate::mdl::le::f32_rows_bytes(&xyz));
        if tangent_rows.iter().all(|r| r.len() >= 4) {
            let w: Vec<f32> = t.iter().map(|r| r[3]).collect();
            extra[5] = Some(crate::mdl::le::f32_bytes(&w));
        }
    }
    let faces: Vec<Face> = c
        .faces
        .iter()
        .zip(&c.materials)
        .map(|(&v, &m)| Face {
            material: m,
            adjacent: [0xFFFF; 3],
            vertices: v,
            ..Face::default()
        })
        .collect();
    let texture_count = uvs.iter().take_while(|u| u.is_some()).count() as u16;
    let render_hint = match n.prop("renderhint").map(|p| word(&p.value)) {
        Some(w) if w.eq_ignore_ascii_case("NormalAndSpecMapped") => 2,
        Some(w) if w.eq_ignore_ascii_case("NormalTangents") => 2,
        Some(w) => w.parse().unwrap_or(0),
        None => 0,
    };
    let texture = |key: &str| name_field::<64>(n, key);
    let groups = normals.is_none().then(|| c.smoothing.clone());
    let mesh = Mesh {
        function_pointers: if skin { SKIN_MESH_FNS } else { MESH_FNS },
        diffuse: vec3_of(n, "diffuse").unwrap_or([1.0; 3]),
        ambient: vec3_of(n, "ambient").unwrap_or([1.0; 3]),
        specular: vec3_of(n, "specular").unwrap_or([0.2; 3]),
        shininess: num32(n, "shininess", 0.0),
        shadow: num(n, "shadow").map_or(1, |x| x as u32),
        beaming: int(n, "beaming"),
        render: num(n, "render").map_or(1, |x| x as u32),
        transparency_hint: int(n, "transparencyhint"),
        render_hint,
        textures: [
            texture("bitmap"),
            texture("texture1"),
            texture("texture2"),
            texture("materialname"),
        ],
        tile_fade: int(n, "tilefade"),
        index_lists: if faces.is_empty() {
            Vec::new()
        } else {
            vec![faces.iter().flat_map(|f| f.vertices).collect()]
        },
        unknown1: -1,
        triangle_mode: 3,
        texture_count,
        positions: Some(positions),
        uvs,
        normals,
        colors,
        extra,
        lightmapped: int(n, "lightmapped"),
        rotate_texture: int(n, "rotatetexture"),
        faces,
        ..Mesh::default()
    };
    Ok((mesh, c.source, groups))
}

/// The animated-mesh sets: `animverts` rows in sets of the vertex count, `animtverts` too.
fn anim_mesh(n: &ANode, count: usize) -> Result<AnimMesh, DecodeError> {
    let sets = |rows: &[Vec<f64>], what: &str| -> Result<u32, DecodeError> {
        if count == 0 || rows.len() % count != 0 {
            if rows.is_empty() {
                return Ok(0);
            }
            return Err(bad(format!(
                "{} {what} rows are not whole sets of {count} vertices",
                rows.len()
            )));
        }
        Ok((rows.len() / count) as u32)
    };
    let v = rows_of(n, "animverts");
    let t = rows_of(n, "animtverts");
    Ok(AnimMesh {
        sample_period: num32(n, "sampleperiod", 0.0),
        vertex_sets: sets(&v, "animverts")?,
        tvert_sets: sets(&t, "animtverts")?,
        vertices: (!v.is_empty()).then(|| {
            v.iter()
                .map(|r| [0, 1, 2].map(|k| r.get(k).copied().unwrap_or(0.0) as f32))
                .collect()
        }),
        tverts: (!t.is_empty()).then(|| {
            t.iter()
                .map(|r| [0, 1].map(|k| r.get(k).copied().unwrap_or(0.0) as f32))
                .collect()
        }),
        ..AnimMesh::default()
    })
}

/// A skin's weights: its bone slots (node numbers, in order of first use, at most 17), each
/// compiled vertex's slots and weights, the bone map by node number. The bind poses are
/// derived from the tree (`areakit_area::nwn_models::derive_compiled`).
fn skin_weights(
    node: &mut Node,
    n: &ANode,
    source: &[(u32, u32)],
    numbers: &HashMap<String, i32>,
) -> Result<(), DecodeError> {
    let rows = match n.list("weights").map(|l| &l.rows) {
        Some(Rows::Words(w)) => w.clone(),
        _ => Vec::new(),
    };
    let mut slots: Vec<i32> = Vec::new();
    let mut text: Vec<[(i16, f32); 4]> = Vec::with_capacity(rows.len());
    for row in &rows {
        let mut v = [(-1i16, 0f32); 4];
        for (k, pair) in row.chunks(2).take(4).enumerate() {
            if numbers.get(&pair[0].to_ascii_lowercase()).is_none()
                && unnamed_number(&pair[0]) == Some(-1)
            {
                // No bone (the row of a vertex without weights).
                continue;
            }
            let number = match numbers.get(&pair[0].to_ascii_lowercase()) {
                Some(&n) => n,
                None => unnamed_number(&pair[0])
                    .and_then(|n| i32::try_from(n).ok())
                    .ok_or_else(|| bad(format!("weights name {}, which is not a node", pair[0])))?,
            };
            let slot = match slots.iter().position(|&s| s == number) {
                Some(s) => s,
                None => {
                    slots.push(number);
                    slots.len() - 1
                }
            };
            if slot >= 17 {
                return Err(bad(
                    "more than 17 bones: a compiled skin holds 17 bone slots",
                ));
            }
            v[k] = (
                slot as i16,
                pair.get(1).and_then(|x| x.parse().ok()).unwrap_or(0.0),
            );
        }
        text.push(v);
    }
    let count = numbers.values().copied().max().map_or(0, |m| m + 1) as usize;
    let mut bone_map = vec![-1i16; count];
    let mut bone_nodes = [0i16; 17];
    for (s, &number) in slots.iter().enumerate() {
        bone_nodes[s] = i16::try_from(number).map_err(|_| {
            bad(format!(
                "bone node {number}: a compiled skin numbers at most 32 767 nodes"
            ))
        })?;
        if let Some(slot) = bone_map.get_mut(number as usize) {
            *slot = s as i16;
        }
    }
    let pick = |v: u32| text.get(v as usize).copied().unwrap_or([(-1, 0.0); 4]);
    let skin = node.skin.get_or_insert_with(Box::default);
    skin.weights = Some(
        source
            .iter()
            .map(|&(v, _)| pick(v).map(|(_, w)| w))
            .collect(),
    );
    skin.bone_indices = Some(
        source
            .iter()
            .map(|&(v, _)| pick(v).map(|(s, _)| s))
            .collect(),
    );
    skin.bone_map = bone_map;
    skin.bone_nodes = bone_nodes;
    Ok(())
}

fn compile_animation(src: &[u8], m: &Model, an: &AAnim) -> Result<Animation, DecodeError> {
    let anodes: Vec<&ANode> = an.nodes().collect();
    let mut anim = Animation {
        geometry: GeometryHeader {
            function_pointers: ANIMATION_FNS,
            name: Name::new(&an.name),
            node_count: m.nodes.len() as u32,
            model_type: 5,
            ..GeometryHeader::default()
        },
        length: an.length().unwrap_or(0.0) as f32,
        transition: an.transtime().unwrap_or(0.0) as f32,
        root: Name::new(an.animroot().unwrap_or(&m.name())),
        events: an
            .events()
            .map(|(t, n)| Event {
                time: t as f32,
                name: Name::new(n),
            })
            .collect(),
        nodes: Vec::new(),
    };
    if anodes.is_empty() {
        return Ok(anim);
    }
    let (order, children) = tree_order(src, &anodes, &names_index(&anodes))?;
    let arena_of: HashMap<usize, usize> = order.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    for &i in &order {
        let n = anodes[i];
        let f = flags_of(&n.kind);
        let number = m.find_node(&n.name).map_or(-1, |g| m.nodes[g].node_number);
        let mut node = Node {
            flags: f,
            function_pointers: node_fns(f),
            node_number: number,
            name: Name::new(&n.name),
            ..Node::default()
        };
        node_controllers(&mut node, n).map_err(|e| e.within(format!("node {}", n.name)))?;
        animation_parts(&mut node);
        node.children = children[i].iter().map(|c| arena_of[c] as u32).collect();
        anim.nodes.push(node);
    }
    Ok(anim)
}

/// The parts an animation node's type asks for, as BioWare's compiler leaves them (a mesh
/// without vertices whose position and normal streams are present and empty).
fn animation_parts(node: &mut Node) {
    let bits = node.flags as u16;
    if bits & flags::LIGHT != 0 {
        node.light = Some(Box::default());
    }
    if bits & flags::EMITTER != 0 {
        node.emitter = Some(Box::default());
    }
    if bits & flags::REFERENCE != 0 {
        node.reference = Some(Box::default());
    }
    if bits & flags::MESH != 0 {
        node.mesh = Some(Box::new(Mesh {
            function_pointers: if bits & flags::SKIN != 0 {
                SKIN_MESH_FNS
            } else {
                MESH_FNS
            },
            unknown1: -1,
            positions: Some(Vec::new()),
            normals: Some(Vec::new()),
            ..Mesh::default()
        }));
    }
    if bits & flags::SKIN != 0 {
        node.skin = Some(Box::default());
    }
    if bits & flags::ANIM != 0 {
        node.anim = Some(Box::default());
    }
    if bits & flags::DANGLY != 0 {
        node.dangly = Some(Dangly::default());
    }
    if bits & flags::AABB != 0 {
        node.aabb = Some(Aabb::default());
    }
}
