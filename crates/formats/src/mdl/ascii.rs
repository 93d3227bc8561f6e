//! Binary models to and from the KotOR MDL ASCII dialect (the text KOTORMax, mdlops and
//! kotorblender exchange), through the [`crate::mdl_ascii`] statement model.
//!
//! [`to_ascii`] writes every node with its type's properties, geometry controllers as
//! properties, vertices, faces, UV sets, normals, tangent spaces, colours, skin weights, dangly
//! constraints, the AABB tree, and every animation with its events and keys (positions absolute,
//! orientations as axis and angle). [`from_ascii`] compiles such text back: it builds the name
//! table, node tree, controllers (geometry keys and animation keys), meshes with derived face
//! planes, adjacency, bounds and MDX layout, skin bone maps and bind poses, AABB trees.

use std::collections::HashMap;

use super::model::*;
use super::quat::{self, conj, mul as qmul, rotate as rot};
use crate::error::{DecodeError, ErrorKind, Location};
use crate::mdl_ascii::{
    self, Animation as AAnim, Geometry, ListProp, Node as ANode, NodeKind, Property, Rows, Stmt,
    Value,
};

/// A float as the shortest decimal that reads back as the same `f32`.
fn d(x: f32) -> f64 {
    if !x.is_finite() {
        return f64::from(x);
    }
    format!("{x}").parse().unwrap_or(f64::from(x))
}

fn prop(key: &'static str, value: Value) -> Stmt {
    Stmt::Prop(Property::new(key, value))
}

fn pnum(key: &'static str, v: f32) -> Stmt {
    prop(key, Value::Float(d(v)))
}

fn pint(key: &'static str, v: i64) -> Stmt {
    prop(key, Value::Int(v))
}

fn pnums(key: impl Into<std::borrow::Cow<'static, str>>, v: &[f32]) -> Stmt {
    Stmt::Prop(Property::new(
        key,
        Value::Numbers(v.iter().map(|&x| d(x)).collect()),
    ))
}

fn pname(key: &'static str, s: String) -> Stmt {
    prop(
        key,
        Value::Name(if s.is_empty() { "NULL".into() } else { s }),
    )
}

fn list<const N: usize>(key: &'static str, rows: &[[f32; N]]) -> Stmt {
    let mut r = Rows::default();
    let mut buf = [0f64; N];
    for row in rows {
        for (b, &x) in buf.iter_mut().zip(row) {
            *b = d(x);
        }
        r.push(&buf);
    }
    Stmt::List(ListProp::counted(key, r))
}

fn rows_list(
    key: impl Into<std::borrow::Cow<'static, str>>,
    rows: Vec<Vec<f64>>,
    endlist: bool,
) -> Stmt {
    let mut r = Rows::default();
    for row in &rows {
        r.push(row);
    }
    let mut l = ListProp::counted(key, r);
    if endlist {
        l.count = None;
        l.endlist = true;
    }
    Stmt::List(l)
}

/// Classification byte ↔ name.
const CLASSES: [(u8, &str); 8] = [
    (0x00, "Other"),
    (0x01, "Effect"),
    (0x02, "Tile"),
    (0x04, "Character"),
    (0x08, "Door"),
    (0x10, "Lightsaber"),
    (0x20, "Placeable"),
    (0x40, "Flyer"),
];

/// Controller names per node kind (type number, name). Type numbers repeat across kinds.
const COMMON: [(u32, &str); 3] = [(8, "position"), (20, "orientation"), (36, "scale")];
const MESH_CONTROLLERS: [(u32, &str); 2] = [(100, "selfillumcolor"), (132, "alpha")];
const LIGHT_CONTROLLERS: [(u32, &str); 5] = [
    (76, "color"),
    (88, "radius"),
    (96, "shadowradius"),
    (100, "verticaldisplacement"),
    (140, "multiplier"),
];
const EMITTER_CONTROLLERS: [(u32, &str); 48] = [
    (80, "alphaEnd"),
    (84, "alphaStart"),
    (88, "birthrate"),
    (92, "bounce_co"),
    (96, "combinetime"),
    (100, "drag"),
    (104, "fps"),
    (108, "frameEnd"),
    (112, "frameStart"),
    (116, "grav"),
    (120, "lifeExp"),
    (124, "mass"),
    (128, "p2p_bezier2"),
    (132, "p2p_bezier3"),
    (136, "particleRot"),
    (140, "randvel"),
    (144, "sizeStart"),
    (148, "sizeEnd"),
    (152, "sizeStart_y"),
    (156, "sizeEnd_y"),
    (160, "spread"),
    (164, "threshold"),
    (168, "velocity"),
    (172, "xsize"),
    (176, "ysize"),
    (180, "blurlength"),
    (184, "lightningDelay"),
    (188, "lightningRadius"),
    (192, "lightningScale"),
    (196, "lightningSubDiv"),
    (200, "lightningzigzag"),
    (216, "alphaMid"),
    (220, "percentStart"),
    (224, "percentMid"),
    (228, "percentEnd"),
    (232, "sizeMid"),
    (236, "sizeMid_y"),
    (240, "m_fRandomBirthRate"),
    (252, "targetsize"),
    (256, "numcontrolpts"),
    (260, "controlptradius"),
    (264, "controlptdelay"),
    (268, "tangentspread"),
    (272, "tangentlength"),
    (284, "colorMid"),
    (380, "colorEnd"),
    (392, "colorStart"),
    (502, "detonate"),
];

/// The controller name groups of a node with `flags`, in lookup order: for writing a name
/// (binary → ASCII) meshes, emitters, lights; for reading one (ASCII → binary) lights, emitters,
/// meshes (mdlops's orders: type numbers repeat across kinds); the common names last.
fn groups(f: u16, reading: bool) -> Vec<&'static [(u32, &'static str)]> {
    let mut g: Vec<&'static [(u32, &'static str)]> = Vec::new();
    for kind in [flags::MESH, flags::EMITTER, flags::LIGHT] {
        if f & kind != 0 {
            g.push(match kind {
                flags::MESH => &MESH_CONTROLLERS,
                flags::EMITTER => &EMITTER_CONTROLLERS,
                _ => &LIGHT_CONTROLLERS,
            });
        }
    }
    if reading {
        g.reverse();
    }
    g.push(&COMMON);
    g
}

fn controller_name(f: u16, kind: u32) -> String {
    groups(f, false)
        .iter()
        .find_map(|g| g.iter().find(|(k, _)| *k == kind))
        .map_or_else(|| format!("controller{kind}"), |(_, n)| (*n).to_string())
}

/// The type number of a controller name for a node with `flags` (`controller<N>` for any
/// number).
fn controller_kind(f: u16, name: &str) -> Option<u32> {
    groups(f, true)
        .iter()
        .find_map(|g| g.iter().find(|(_, n)| n.eq_ignore_ascii_case(name)))
        .map(|(k, _)| *k)
        .or_else(|| name.strip_prefix("controller").and_then(|n| n.parse().ok()))
}

/// Quaternion (w, x, y, z) → axis and angle.
fn axis_angle(q: [f64; 4]) -> [f64; 4] {
    let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    if len.is_nan() || len <= 1e-12 {
        return [0.0, 0.0, 0.0, 0.0];
    }
    let [w, x, y, z] = q.map(|c| c / len);
    let s = (1.0 - w * w).max(0.0).sqrt();
    if s < 1e-9 {
        return [0.0, 0.0, 0.0, 0.0];
    }
    let angle = 2.0 * w.clamp(-1.0, 1.0).acos();
    [x / s, y / s, z / s, angle]
}

/// Axis and angle → quaternion (w, x, y, z); a zero axis is the identity.
fn quat_of(a: [f64; 4]) -> [f64; 4] {
    let len = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    if len.is_nan() || len <= 1e-12 {
        return [1.0, 0.0, 0.0, 0.0];
    }
    let (s, c) = (a[3] / 2.0).sin_cos();
    [c, a[0] / len * s, a[1] / len * s, a[2] / len * s]
}

/// The rows of a controller as the ASCII dialect writes them: time, then the values
/// (orientations as axis and angle; positions of animation nodes made absolute with `rest`).
fn ascii_rows(node: &Node, c: &Controller, rest: Option<[f32; 3]>) -> Vec<Vec<f64>> {
    let bezier = c.is_bezier();
    node.keys(c)
        .map(|(t, v)| {
            let mut row = vec![d(t)];
            match (c.kind, c.columns & 0x0F, bezier) {
                (20, 4, false) => {
                    let q = [v[3], v[0], v[1], v[2]].map(f64::from);
                    row.extend(axis_angle(q));
                }
                (20, 2, false) => {
                    row.extend(axis_angle(quat::decompress(v[0].to_bits())));
                }
                (8, 3, _) if rest.is_some() => {
                    let r = rest.unwrap_or_default();
                    for (k, &x) in v.iter().enumerate() {
                        // Bezier tangents stay relative to the key.
                        let add = if k < 3 { r[k] } else { 0.0 };
                        row.push(d(x + add));
                    }
                }
                _ => row.extend(v.iter().map(|&x| d(x))),
            }
            row
        })
        .collect()
}

/// The MDL ASCII text model of a binary model.
pub fn to_ascii(m: &Model) -> mdl_ascii::Model {
    let name = m.geometry.name.as_string();
    let mut stmts = vec![
        prop("newmodel", Value::Name(name.clone())),
        prop(
            "setsupermodel",
            Value::Words(vec![
                name.clone(),
                non_empty(m.header.supermodel.as_string()),
            ]),
        ),
        prop(
            "classification",
            Value::Name(
                CLASSES
                    .iter()
                    .find(|(b, _)| *b == m.header.classification)
                    .map_or_else(
                        || format!("{}", m.header.classification),
                        |(_, n)| (*n).into(),
                    ),
            ),
        ),
        pint("classification_unk1", i64::from(m.header.subclassification)),
        pint("ignorefog", i64::from(m.header.affected_by_fog == 0)),
        pint(
            "compress_quaternions",
            i64::from(
                m.animations
                    .iter()
                    .flat_map(|a| &a.nodes)
                    .flat_map(|n| &n.controllers)
                    .any(|c| c.kind == 20 && c.columns & 0x0F == 2),
            ),
        ),
        pnum("setanimationscale", m.header.animation_scale),
    ];
    let parents = m.parents();
    let mut body = vec![
        pnums("bmin", &m.header.bounds_min),
        pnums("bmax", &m.header.bounds_max),
        pnum("radius", m.header.radius),
    ];
    for (i, n) in m.nodes.iter().enumerate() {
        body.push(Stmt::Node(geometry_node(m, n, parents[i])));
    }
    stmts.push(Stmt::Geometry(Geometry {
        name: name.clone(),
        body,
        head: Default::default(),
        end: Default::default(),
    }));
    for a in &m.animations {
        stmts.push(Stmt::Animation(animation(m, a, &name)));
    }
    stmts.push(prop("donemodel", Value::Name(name)));
    mdl_ascii::Model {
        stmts,
        ..mdl_ascii::Model::default()
    }
}

fn non_empty(s: String) -> String {
    if s.is_empty() { "NULL".into() } else { s }
}

fn kind_of(f: u16) -> NodeKind {
    match kind_name(f) {
        "trimesh" => NodeKind::Trimesh,
        "skin" => NodeKind::Skin,
        "danglymesh" => NodeKind::Danglymesh,
        "aabb" => NodeKind::Aabb,
        "light" => NodeKind::Light,
        "emitter" => NodeKind::Emitter,
        "reference" => NodeKind::Reference,
        "lightsaber" => NodeKind::Other("lightsaber".into()),
        _ => NodeKind::Dummy,
    }
}

fn geometry_node(m: &Model, n: &Node, parent: Option<usize>) -> ANode {
    let mut a = ANode::new(kind_of(n.flags), m.node_name(n));
    let b = &mut a.body;
    b.push(pname(
        "parent",
        parent.map_or_else(String::new, |p| m.node_name(&m.nodes[p])),
    ));
    for c in &n.controllers {
        let key = controller_name(n.flags, c.kind);
        let rows = ascii_rows(n, c, None);
        if rows.len() == 1 && rows[0][0] == 0.0 && !c.is_bezier() {
            let v = &rows[0][1..];
            match c.kind {
                8 if v.len() == 3 => b.push(prop("position", Value::Vec3([v[0], v[1], v[2]]))),
                20 if v.len() == 4 => b.push(prop(
                    "orientation",
                    Value::AxisAngle([v[0], v[1], v[2], v[3]]),
                )),
                _ => b.push(Stmt::Prop(Property::new(key, Value::Numbers(v.to_vec())))),
            }
        } else {
            let key = if c.is_bezier() {
                format!("{key}bezierkey")
            } else {
                format!("{key}key")
            };
            b.push(rows_list(key, rows, true));
        }
    }
    if let Some(l) = &n.light {
        b.push(pnum("flareradius", l.flare_radius));
        b.push(pint("lightpriority", i64::from(l.priority)));
        b.push(pint("ambientonly", i64::from(l.ambient_only)));
        b.push(pint("nDynamicType", i64::from(l.dynamic_type)));
        b.push(pint("affectDynamic", i64::from(l.affect_dynamic)));
        b.push(pint("shadow", i64::from(l.shadow)));
        b.push(pint("flare", i64::from(l.flare)));
        b.push(pint("fadingLight", i64::from(l.fading)));
        if !l.flare_textures.is_empty() {
            let names: Vec<Vec<String>> = l
                .flare_textures
                .iter()
                .map(|t| vec![t.iter().map(|&c| char::from(c)).collect()])
                .collect();
            let mut lp = ListProp::counted("texturenames", Rows::Words(names));
            lp.count = Some(l.flare_textures.len() as u64);
            b.push(Stmt::List(lp));
        }
        if !l.flare_positions.is_empty() {
            b.push(rows_list(
                "flarepositions",
                l.flare_positions.iter().map(|&x| vec![d(x)]).collect(),
                false,
            ));
        }
        if !l.flare_sizes.is_empty() {
            b.push(rows_list(
                "flaresizes",
                l.flare_sizes.iter().map(|&x| vec![d(x)]).collect(),
                false,
            ));
        }
        if !l.flare_color_shifts.is_empty() {
            b.push(list("flarecolorshifts", &l.flare_color_shifts));
        }
    }
    if let Some(e) = &n.emitter {
        b.push(pnum("deadspace", e.dead_space));
        b.push(pnum("blastRadius", e.blast_radius));
        b.push(pnum("blastLength", e.blast_length));
        b.push(pint("numBranches", i64::from(e.branch_count)));
        b.push(pnum("controlptsmoothing", e.control_point_smoothing));
        b.push(pint("xgrid", i64::from(e.x_grid)));
        b.push(pint("ygrid", i64::from(e.y_grid)));
        b.push(pint("spawntype", i64::from(e.spawn_type)));
        b.push(pname("update", e.update.as_string()));
        b.push(pname("render", e.render.as_string()));
        b.push(pname("blend", e.blend.as_string()));
        b.push(pname("texture", e.texture.as_string()));
        b.push(pname("chunkname", e.chunk.as_string()));
        b.push(pint("twosidedtex", i64::from(e.two_sided_texture)));
        b.push(pint("loop", i64::from(e.looping)));
        b.push(pint("renderorder", i64::from(e.render_order)));
        b.push(pint("m_bFrameBlending", i64::from(e.frame_blending)));
        b.push(pname("m_sDepthTextureName", e.depth_texture.as_string()));
        for (bit, key) in EMITTER_FLAGS {
            b.push(pint(key, i64::from(e.flags & bit != 0)));
        }
    }
    if let Some(r) = &n.reference {
        b.push(pname("refModel", r.model.as_string()));
        b.push(pint("reattachable", i64::from(r.reattachable)));
    }
    if let Some(mesh) = &n.mesh {
        mesh_body(m, n, mesh, b);
    }
    a
}

const EMITTER_FLAGS: [(u32, &str); 13] = [
    (0x0001, "p2p"),
    (0x0002, "p2p_sel"),
    (0x0004, "affectedByWind"),
    (0x0008, "m_isTinted"),
    (0x0010, "bounce"),
    (0x0020, "random"),
    (0x0040, "inherit"),
    (0x0080, "inheritvel"),
    (0x0100, "inherit_local"),
    (0x0200, "splat"),
    (0x0400, "inherit_part"),
    (0x0800, "depth_texture"),
    (0x1000, "emitterflag13"),
];

fn mesh_body(m: &Model, n: &Node, mesh: &Mesh, b: &mut Vec<Stmt>) {
    b.push(pnums("diffuse", &mesh.diffuse));
    b.push(pnums("ambient", &mesh.ambient));
    b.push(pint("transparencyhint", i64::from(mesh.transparency_hint)));
    b.push(pint("animateuv", i64::from(mesh.animate_uv)));
    b.push(pnum("uvdirectionx", mesh.uv_direction[0]));
    b.push(pnum("uvdirectiony", mesh.uv_direction[1]));
    b.push(pnum("uvjitter", mesh.uv_jitter));
    b.push(pnum("uvjitterspeed", mesh.uv_jitter_speed));
    b.push(pint("lightmapped", i64::from(mesh.lightmapped)));
    b.push(pint("rotatetexture", i64::from(mesh.rotate_texture)));
    b.push(pint("m_bIsBackgroundGeometry", i64::from(mesh.background)));
    b.push(pint("shadow", i64::from(mesh.shadow)));
    b.push(pint("beaming", i64::from(mesh.beaming)));
    b.push(pint("render", i64::from(mesh.render)));
    if m.game == Game::K2 {
        b.push(pint("dirt_enabled", i64::from(mesh.k2[0])));
        b.push(pint(
            "dirt_texture",
            i64::from(u16::from_le_bytes([mesh.k2[2], mesh.k2[3]])),
        ));
        b.push(pint(
            "dirt_worldspace",
            i64::from(u16::from_le_bytes([mesh.k2[4], mesh.k2[5]])),
        ));
        b.push(pint("hologram_donotdraw", i64::from(mesh.k2[6])));
    }
    b.push(pint(
        "tangentspace",
        i64::from(!mesh.vertices.tangents[0].is_empty()),
    ));
    b.push(Stmt::Prop(Property::new(
        "inv_count",
        Value::Numbers(
            mesh.inverted_counters
                .iter()
                .map(|&c| f64::from(c))
                .collect(),
        ),
    )));
    b.push(pname("bitmap", mesh.texture0.as_string()));
    b.push(pname("bitmap2", mesh.texture1.as_string()));
    b.push(pname("texture2", mesh.texture2.as_string()));
    b.push(pname("texture3", mesh.texture3.as_string()));
    let saber = n.saber.as_ref();
    let positions = saber.map_or(&mesh.positions, |s| &s.positions);
    b.push(list("verts", positions));
    b.push(rows_list(
        "faces",
        mesh.faces
            .iter()
            .map(|f| {
                let [a, bb, c] = f.vertices.map(f64::from);
                vec![a, bb, c, 1.0, a, bb, c, f64::from(f.material)]
            })
            .collect(),
        false,
    ));
    let v = &mesh.vertices;
    let uv1 = saber.map_or(&v.uvs[0], |s| &s.uvs);
    if !uv1.is_empty() {
        b.push(rows_list(
            "tverts",
            uv1.iter().map(|t| vec![d(t[0]), d(t[1]), 0.0]).collect(),
            false,
        ));
    }
    for k in 1..4 {
        if !v.uvs[k].is_empty() {
            let key: &'static str = ["tverts1", "tverts2", "tverts3"][k - 1];
            b.push(rows_list(
                key,
                v.uvs[k]
                    .iter()
                    .map(|t| vec![d(t[0]), d(t[1]), 0.0])
                    .collect(),
                false,
            ));
        }
    }
    let normals = saber.map_or(&v.normals, |s| &s.normals);
    if !normals.is_empty() {
        b.push(list("normals", normals));
    }
    if !v.colors.is_empty() {
        b.push(list("colors", &v.colors));
    }
    if !v.tangents[0].is_empty() {
        b.push(list("tangents", &v.tangents[0]));
    }
    if let Some(s) = &n.skin {
        // Bone index → the node the bone map gives it.
        let mut bone_node: HashMap<i64, String> = HashMap::new();
        for (i, &bone) in s.bone_map.iter().enumerate() {
            if bone >= 0.0 {
                bone_node
                    .entry(bone as i64)
                    .or_insert_with(|| name_of(&m.names, i as u16));
            }
        }
        let rows: Vec<Vec<String>> = v
            .bone_weights
            .iter()
            .zip(&v.bone_indices)
            .map(|(w, ix)| {
                let mut row = Vec::new();
                for (wt, &bi) in w.iter().zip(ix) {
                    if *wt > 0.0 && bi >= 0.0 {
                        row.push(
                            bone_node
                                .get(&(bi as i64))
                                .cloned()
                                .unwrap_or_else(|| format!("#{bi}")),
                        );
                        row.push(format!("{}", d(*wt)));
                    }
                }
                row
            })
            .collect();
        b.push(Stmt::List(ListProp::counted("weights", Rows::Words(rows))));
    }
    if let Some(dg) = &n.dangly {
        b.push(pnum("displacement", dg.displacement));
        b.push(pnum("tightness", dg.tightness));
        b.push(pnum("period", dg.period));
        b.push(rows_list(
            "constraints",
            dg.constraints.iter().map(|&c| vec![d(c)]).collect(),
            false,
        ));
    }
    if let Some(t) = &n.aabb {
        let mut rows = Vec::new();
        aabb_rows(&t.tree, 0, &mut rows, 0);
        b.push(rows_list("aabb", rows, false));
    }
}

/// The AABB tree in pre-order, left subtree first (how the dialect lists it).
fn aabb_rows(tree: &[AabbNode], i: usize, out: &mut Vec<Vec<f64>>, depth: usize) {
    let Some(t) = tree.get(i) else { return };
    if depth > 256 || out.len() > tree.len() {
        return;
    }
    let mut row: Vec<f64> = t.min.iter().chain(&t.max).map(|&x| d(x)).collect();
    row.push(f64::from(t.face));
    out.push(row);
    if let Some(l) = t.left {
        aabb_rows(tree, l as usize, out, depth + 1);
    }
    if let Some(r) = t.right {
        aabb_rows(tree, r as usize, out, depth + 1);
    }
}

fn animation(m: &Model, a: &Animation, model: &str) -> AAnim {
    let mut body = vec![
        pnum("length", a.length),
        pnum("transtime", a.transition),
        pname("animroot", a.root.as_string()),
    ];
    for e in &a.events {
        body.push(prop("event", Value::Event(d(e.time), e.name.as_string())));
    }
    let parents = parents(&a.nodes);
    for (i, n) in a.nodes.iter().enumerate() {
        let mut node = ANode::new(NodeKind::Dummy, name_of(&m.names, n.name_index));
        node.body.push(pname(
            "parent",
            parents[i].map_or_else(String::new, |p| name_of(&m.names, a.nodes[p].name_index)),
        ));
        // The geometry node of the same name gives the controller names and the rest position
        // (by name: a name table may hold a name twice).
        let name = name_of(&m.names, n.name_index);
        let geo = m
            .nodes
            .iter()
            .find(|g| m.node_name(g).eq_ignore_ascii_case(&name));
        let f = geo.map_or(flags::HEADER, |g| g.flags);
        let rest = geo.map(|g| g.position);
        for c in &n.controllers {
            let key = controller_name(f, c.kind);
            let key = if c.is_bezier() {
                format!("{key}bezierkey")
            } else {
                format!("{key}key")
            };
            node.body.push(rows_list(
                key,
                ascii_rows(n, c, rest.or(Some([0.0; 3]))),
                true,
            ));
        }
        body.push(Stmt::Node(node));
    }
    AAnim {
        name: a.geometry.name.as_string(),
        model: model.to_string(),
        body,
        head: Default::default(),
        end: Default::default(),
    }
}

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

/// Why an ASCII model cannot be compiled.
fn bad(msg: impl Into<String>) -> DecodeError {
    DecodeError::new(ErrorKind::Malformed, Location::Input, msg)
}

/// Every number a value holds.
fn numbers(v: &Value) -> Vec<f64> {
    match v {
        Value::Flag(b) => vec![f64::from(u8::from(*b))],
        Value::Int(i) => vec![*i as f64],
        Value::Float(f) => vec![*f],
        Value::Vec3(x) | Value::Color(x) => x.to_vec(),
        Value::AxisAngle(x) => x.to_vec(),
        Value::Numbers(x) => x.clone(),
        Value::Words(w) => w.iter().filter_map(|s| s.parse().ok()).collect(),
        Value::Name(s) => s.parse().ok().into_iter().collect(),
        Value::Event(t, _) => vec![*t],
        Value::None => Vec::new(),
    }
}

fn word(v: &Value) -> String {
    match v {
        Value::Name(s) => s.clone(),
        Value::Words(w) => w.first().cloned().unwrap_or_default(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Flag(b) => u8::from(*b).to_string(),
        _ => String::new(),
    }
}

fn num(n: &ANode, key: &str) -> Option<f64> {
    n.prop(key).and_then(|p| numbers(&p.value).first().copied())
}

fn num32(n: &ANode, key: &str, default: f32) -> f32 {
    num(n, key).map_or(default, |x| x as f32)
}

fn int<T: TryFrom<i64> + Default>(n: &ANode, key: &str) -> T {
    num(n, key)
        .and_then(|x| T::try_from(x as i64).ok())
        .unwrap_or_default()
}

fn text_of(n: &ANode, key: &str) -> String {
    n.prop(key).map(|p| word(&p.value)).unwrap_or_default()
}

fn name_field<const N: usize>(n: &ANode, key: &str) -> Name<N> {
    let s = text_of(n, key);
    Name::new(&s)
}

fn vec3_of(n: &ANode, key: &str) -> Option<[f32; 3]> {
    let v = numbers(&n.prop(key)?.value);
    (v.len() >= 3).then(|| [v[0] as f32, v[1] as f32, v[2] as f32])
}

fn rows_of(n: &ANode, key: &str) -> Vec<Vec<f64>> {
    n.list(key)
        .map(|l| l.rows.iter().map(<[f64]>::to_vec).collect())
        .unwrap_or_default()
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
    let geometry = a
        .geometry()
        .ok_or_else(|| bad("the model has no beginmodelgeom block"))?;
    let anodes: Vec<&ANode> = geometry.nodes().collect();
    if anodes.is_empty() {
        return Err(bad("the geometry has no nodes"));
    }
    let mut m = Model::new(game, &name);
    m.names = anodes.iter().map(|n| latin1(&n.name)).collect();
    let index_of: HashMap<String, usize> = anodes
        .iter()
        .enumerate()
        .rev()
        .map(|(i, n)| (n.name.to_ascii_lowercase(), i))
        .collect();
    let (order, children) = tree_order(&anodes, &index_of)?;
    let arena_of: HashMap<usize, usize> = order.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let mut nodes = Vec::with_capacity(order.len());
    let mut sources = Vec::with_capacity(order.len());
    for &i in &order {
        let n = anodes[i];
        let (mut node, source) =
            compile_node(n, i as u16, game).map_err(|e| e.within(format!("node {}", n.name)))?;
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
    match (geo_prop("bmin"), geo_prop("bmax")) {
        (Some(lo), Some(hi)) if lo.len() >= 3 && hi.len() >= 3 => {
            m.header.bounds_min = [lo[0] as f32, lo[1] as f32, lo[2] as f32];
            m.header.bounds_max = [hi[0] as f32, hi[1] as f32, hi[2] as f32];
        }
        _ => model_bounds(&mut m),
    }
    m.header.radius = geo_prop("radius")
        .and_then(|v| v.first().map(|&x| x as f32))
        .unwrap_or_else(|| {
            let c = m
                .header
                .bounds_max
                .iter()
                .zip(&m.header.bounds_min)
                .map(|(a, b)| (a - b) / 2.0);
            c.map(|x| x * x).sum::<f32>().sqrt()
        });
    for an in a.animations() {
        let anim = compile_animation(&mut m, an, game, compress)
            .map_err(|e| e.within(format!("animation {}", an.name)))?;
        m.animations.push(anim);
    }
    Ok(m)
}

/// The nodes of a geometry block or an animation in pre-order from their one parentless node,
/// and each node's children (indices into `anodes`), from their `parent` names (`index_of`:
/// lower-case name → index). A parent that is no node, a second root, a cycle or a node not
/// under the root is an error: compiling would lose it.
fn tree_order(
    anodes: &[&ANode],
    index_of: &HashMap<String, usize>,
) -> Result<(Vec<usize>, Vec<Vec<usize>>), DecodeError> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); anodes.len()];
    let mut root = None;
    for (i, n) in anodes.iter().enumerate() {
        match n.parent() {
            Some(p) => {
                let pi = *index_of
                    .get(&p.to_ascii_lowercase())
                    .ok_or_else(|| bad(format!("node {}: parent {p} is not a node", n.name)))?;
                if pi == i {
                    return Err(bad(format!("node {}: its own parent", n.name)));
                }
                children[pi].push(i);
            }
            None if root.is_none() => root = Some(i),
            None => {
                return Err(bad(format!(
                    "node {}: a second node without a parent",
                    n.name
                )));
            }
        }
    }
    let root = root.ok_or_else(|| bad("no node without a parent (the root)"))?;
    let mut order = Vec::with_capacity(anodes.len());
    let mut stack = vec![root];
    let mut seen = vec![false; anodes.len()];
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            return Err(bad(format!(
                "node {}: the parents form a cycle",
                anodes[i].name
            )));
        }
        order.push(i);
        stack.extend(children[i].iter().rev());
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(bad(format!("node {}: not under the root", anodes[i].name)));
    }
    Ok((order, children))
}

fn latin1(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect()
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

fn quat_xyzw(a: &[f64]) -> Vec<f32> {
    let q = quat_of([a[0], a[1], a[2], a[3]]);
    vec![q[1] as f32, q[2] as f32, q[3] as f32, q[0] as f32]
}

/// A compiled node, with (for meshes) the text vertex each compiled vertex comes from.
fn compile_node(n: &ANode, name_index: u16, game: Game) -> Result<(Node, Vec<u32>), DecodeError> {
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
                let (kind, bezier) = key_controller(f, &l.key)?;
                let rows: Vec<Vec<f64>> = l.rows.iter().map(<[f64]>::to_vec).collect();
                compile_keys(&mut node, kind, bezier, &rows, 0xFFFF, None, false)?;
            }
            _ => {}
        }
    }
    if f & flags::LIGHT != 0 {
        let shifts = rows_of(n, "flarecolorshifts");
        node.light = Some(Light {
            flare_radius: num32(n, "flareradius", 0.0),
            unknown: Vec::new(),
            flare_sizes: rows_of(n, "flaresizes")
                .iter()
                .filter_map(|r| r.first().map(|&x| x as f32))
                .collect(),
            flare_positions: rows_of(n, "flarepositions")
                .iter()
                .filter_map(|r| r.first().map(|&x| x as f32))
                .collect(),
            flare_color_shifts: shifts
                .iter()
                .filter(|r| r.len() >= 3)
                .map(|r| [r[0] as f32, r[1] as f32, r[2] as f32])
                .collect(),
            flare_textures: match n.list("texturenames").map(|l| &l.rows) {
                Some(Rows::Words(w)) => w
                    .iter()
                    .filter_map(|r| r.first())
                    .map(|s| latin1(s))
                    .collect(),
                _ => Vec::new(),
            },
            priority: int(n, "lightpriority"),
            ambient_only: int(n, "ambientonly"),
            dynamic_type: int(n, "nDynamicType"),
            affect_dynamic: int(n, "affectDynamic"),
            shadow: int(n, "shadow"),
            flare: int(n, "flare"),
            fading: int(n, "fadingLight"),
        });
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
        source = compile_mesh(&mut node, n, game)?;
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

/// The controller of a key list's name (`positionkey`, `alphabezierkey`, `controller132key`).
fn key_controller(f: u16, key: &str) -> Result<(u32, bool), DecodeError> {
    let lower = key.to_ascii_lowercase();
    let (base, bezier) = match lower.strip_suffix("bezierkey") {
        Some(b) => (b.to_string(), true),
        None => (
            lower.strip_suffix("key").unwrap_or(&lower).to_string(),
            false,
        ),
    };
    let kind =
        controller_kind(f, &base).ok_or_else(|| bad(format!("{key}: no such controller")))?;
    Ok((kind, bezier))
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

fn compile_mesh(node: &mut Node, n: &ANode, game: Game) -> Result<Vec<u32>, DecodeError> {
    let f = node.flags;
    let verts: Vec<[f32; 3]> = rows_of(n, "verts")
        .iter()
        .map(|r| [0, 1, 2].map(|k| r.get(k).copied().unwrap_or(0.0) as f32))
        .collect();
    let face_rows = rows_of(n, "faces");
    let tverts = rows_of(n, "tverts");
    let normals_in = rows_of(n, "normals");
    // Each (vertex, UV index) pair is one output vertex: the dialect indexes UVs per face corner.
    let mut corner: HashMap<(u32, u32), u16> = HashMap::new();
    let mut source: Vec<(u32, u32)> = Vec::new();
    let mut faces = Vec::with_capacity(face_rows.len());
    for (i, r) in face_rows.iter().enumerate() {
        if r.len() < 3 {
            return Err(bad(format!("face {i}: fewer than three vertices")));
        }
        let v = [r[0], r[1], r[2]].map(|x| x as i64);
        let t = if r.len() >= 7 {
            [r[4], r[5], r[6]].map(|x| x as i64)
        } else {
            v
        };
        let material = r.get(7).copied().unwrap_or(0.0) as u32;
        let mut idx = [0u16; 3];
        for k in 0..3 {
            if v[k] < 0 || v[k] as usize >= verts.len() {
                return Err(bad(format!(
                    "face {i} names vertex {}, of {}",
                    v[k],
                    verts.len()
                )));
            }
            let key = (v[k] as u32, t[k].max(0) as u32);
            let next = source.len();
            let e = *corner.entry(key).or_insert_with(|| {
                source.push(key);
                next as u16
            });
            if source.len() > 65_535 {
                return Err(bad("more than 65535 vertices"));
            }
            idx[k] = e;
        }
        faces.push(Face {
            normal: [0.0; 3],
            distance: 0.0,
            material,
            adjacent: [0xFFFF; 3],
            vertices: idx,
        });
    }
    // Vertices never used by a face keep their place when the corners are 1:1 (our own text).
    let one_to_one = source.iter().all(|&(v, t)| v == t) && source.len() <= verts.len();
    if one_to_one {
        source = (0..verts.len() as u32).map(|v| (v, v)).collect();
        let remap: HashMap<(u32, u32), u16> = source
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, i as u16))
            .collect();
        for (fc, r) in faces.iter_mut().zip(&face_rows) {
            for k in 0..3 {
                fc.vertices[k] = remap[&(r[k] as u32, r[k] as u32)];
            }
        }
    }
    let pick = |rows: &[Vec<f64>], k: usize, w: usize, by_uv: bool| -> Option<Vec<Vec<f32>>> {
        if rows.is_empty() {
            return None;
        }
        Some(
            source
                .iter()
                .map(|&(v, t)| {
                    let i = if by_uv { t } else { v } as usize;
                    let row = rows.get(i);
                    (0..w)
                        .map(|c| row.and_then(|r| r.get(k + c)).copied().unwrap_or(0.0) as f32)
                        .collect()
                })
                .collect(),
        )
    };
    let positions: Vec<[f32; 3]> = source.iter().map(|&(v, _)| verts[v as usize]).collect();
    let mut vd = VertexData {
        positions: positions.clone(),
        ..VertexData::default()
    };
    if let Some(u) = pick(&tverts, 0, 2, true) {
        vd.uvs[0] = u.iter().map(|r| [r[0], r[1]]).collect();
    }
    for k in 1..4 {
        let key = ["tverts1", "tverts2", "tverts3"][k - 1];
        if let Some(u) = pick(&rows_of(n, key), 0, 2, true) {
            vd.uvs[k] = u.iter().map(|r| [r[0], r[1]]).collect();
        }
    }
    if let Some(nr) = pick(&normals_in, 0, 3, false) {
        vd.normals = nr.iter().map(|r| [r[0], r[1], r[2]]).collect();
    }
    if let Some(c) = pick(&rows_of(n, "colors"), 0, 3, false) {
        vd.colors = c.iter().map(|r| [r[0], r[1], r[2]]).collect();
    }
    if let Some(t) = pick(&rows_of(n, "tangents"), 0, 9, false) {
        vd.tangents[0] = t.iter().map(|r| std::array::from_fn(|i| r[i])).collect();
    }
    // Derived face data: planes, adjacency.
    for fc in &mut faces {
        let [a, b, c] = fc.vertices.map(|v| positions[usize::from(v)]);
        let u = sub(b, a);
        let w = sub(c, a);
        let nrm = normalize(cross(u, w));
        fc.normal = nrm;
        fc.distance = -(nrm[0] * a[0] + nrm[1] * a[1] + nrm[2] * a[2]);
    }
    adjacency(&mut faces, &positions);
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
    mesh_bounds(&mut mesh);
    let skin = f & flags::SKIN != 0;
    mdx_layout(&mut mesh, skin);
    if f & flags::DANGLY != 0 {
        node.dangly = Some(Dangly {
            constraints: {
                let c = rows_of(n, "constraints");
                mesh_rows(&c, &source)
            },
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
        let m = &mut mesh;
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
    node.mesh = Some(mesh);
    Ok(source.iter().map(|&(v, _)| v).collect())
}

/// One value per output vertex from per-source-vertex rows (dangly constraints).
fn mesh_rows(rows: &[Vec<f64>], source: &[(u32, u32)]) -> Vec<f32> {
    source
        .iter()
        .map(|&(v, _)| {
            rows.get(v as usize)
                .and_then(|r| r.first())
                .copied()
                .unwrap_or(0.0) as f32
        })
        .collect()
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalize(v: [f32; 3]) -> [f32; 3] {
    let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if l > 0.0 { v.map(|c| c / l) } else { v }
}

/// Face adjacency by shared edges (positions compared, so split vertices still connect).
fn adjacency(faces: &mut [Face], positions: &[[f32; 3]]) {
    let key = |v: u16| positions[usize::from(v)].map(f32::to_bits);
    // Edge (corner positions as bits, lower first) -> (face, edge) of each face using it.
    type EdgeKey = ([u32; 3], [u32; 3]);
    let mut edges: HashMap<EdgeKey, Vec<(usize, usize)>> = HashMap::new();
    for (i, f) in faces.iter().enumerate() {
        for e in 0..3 {
            let (a, b) = (key(f.vertices[e]), key(f.vertices[(e + 1) % 3]));
            let k = if a <= b { (a, b) } else { (b, a) };
            edges.entry(k).or_default().push((i, e));
        }
    }
    for list in edges.values() {
        if list.len() == 2 {
            let ((f1, e1), (f2, e2)) = (list[0], list[1]);
            faces[f1].adjacent[e1] = f2.min(0xFFFE) as u16;
            faces[f2].adjacent[e2] = f1.min(0xFFFE) as u16;
        }
    }
}

fn mesh_bounds(mesh: &mut Mesh) {
    let p = &mesh.positions;
    if p.is_empty() {
        return;
    }
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    let mut sum = [0f64; 3];
    for v in p {
        for k in 0..3 {
            lo[k] = lo[k].min(v[k]);
            hi[k] = hi[k].max(v[k]);
            sum[k] += f64::from(v[k]);
        }
    }
    mesh.bounds_min = lo;
    mesh.bounds_max = hi;
    mesh.average = sum.map(|s| (s / p.len() as f64) as f32);
    let c = mesh.average;
    mesh.radius = p
        .iter()
        .map(|v| {
            let dd = sub(*v, c);
            (dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2]).sqrt()
        })
        .fold(0.0, f32::max);
    mesh.total_area = mesh
        .faces
        .iter()
        .map(|f| {
            let [a, b, c] = f.vertices.map(|v| p[usize::from(v)]);
            let cr = cross(sub(b, a), sub(c, a));
            (cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]).sqrt() / 2.0
        })
        .sum();
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

fn aabb_from_rows(rows: &[Vec<f64>]) -> Result<Aabb, DecodeError> {
    let mut tree = Vec::with_capacity(rows.len());
    for r in rows {
        if r.len() < 7 {
            return Err(bad("an aabb row needs min, max and a face"));
        }
        tree.push(AabbNode {
            min: [r[0] as f32, r[1] as f32, r[2] as f32],
            max: [r[3] as f32, r[4] as f32, r[5] as f32],
            left: None,
            right: None,
            face: r[6] as i32,
            plane: 0,
        });
    }
    // Pre-order: an inner node's left child follows it, its right child follows the left subtree.
    fn link(tree: &mut Vec<AabbNode>, i: usize, depth: usize) -> Result<usize, DecodeError> {
        if i >= tree.len() || depth > 256 {
            return Err(bad("the aabb rows do not form a tree"));
        }
        if tree[i].face >= 0 {
            return Ok(i + 1);
        }
        let l = i + 1;
        let r = link(tree, l, depth + 1)?;
        let end = link(tree, r, depth + 1)?;
        tree[i].left = Some(l as u32);
        tree[i].right = Some(r as u32);
        tree[i].plane = split_plane(&tree[l], &tree[r]);
        Ok(end)
    }
    let end = link(&mut tree, 0, 0)?;
    if end != tree.len() {
        return Err(bad(format!(
            "{} aabb rows after the tree",
            tree.len() - end
        )));
    }
    Ok(Aabb { tree })
}

/// The plane word of an inner node: the axis along which the right child's box centre lies
/// furthest from the left's, with its direction.
fn split_plane(l: &AabbNode, r: &AabbNode) -> u32 {
    let c = |n: &AabbNode, k: usize| (n.min[k] + n.max[k]) / 2.0;
    let (k, dd) = (0..3)
        .map(|k| (k, c(r, k) - c(l, k)))
        .fold(
            (0, 0.0f32),
            |best, x| if x.1.abs() > best.1.abs() { x } else { best },
        );
    if dd >= 0.0 { 1 << k } else { 8 << k }
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
            let i = *index_of
                .get(&name)
                .ok_or_else(|| bad(format!("weights name {}, which is not a node", pair[0])))?;
            if !used.contains(&i) {
                used.push(i);
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
                if let Some(&i) = index_of.get(&pair[0].to_ascii_lowercase()) {
                    ix[s] = bone_map[i];
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

fn model_bounds(m: &mut Model) {
    let world = m.world_transforms();
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for (i, n) in m.nodes.iter().enumerate() {
        if let Some(mesh) = &n.mesh {
            for p in &mesh.positions {
                let w = rot(world[i].0, p.map(f64::from));
                for k in 0..3 {
                    let x = (w[k] + world[i].1[k]) as f32;
                    lo[k] = lo[k].min(x);
                    hi[k] = hi[k].max(x);
                }
            }
        }
    }
    if lo[0].is_finite() {
        m.header.bounds_min = lo;
        m.header.bounds_max = hi;
    }
}

fn compile_animation(
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
    let (order, children) = tree_order(&anodes, &local)?;
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
            let (kind, bezier) =
                key_controller(f, &l.key).map_err(|e| e.within(format!("node {}", n.name)))?;
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
