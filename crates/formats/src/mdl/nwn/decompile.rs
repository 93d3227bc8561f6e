//! An NWN compiled model to the NWN MDL ASCII dialect (seed 004): the header, every geometry
//! node with its type's properties, single-key controllers as properties (orientations as axis
//! and angle), vertices, faces, UV sets, normals, colours, NWN:EE tangents, skin weights,
//! dangly constraints, animated-mesh sets, the AABB tree, and every animation with its events
//! and keys. What the text cannot carry is listed in `docs/formats/mdl-nwn-binary.md`.

use std::collections::HashMap;

use super::controllers::*;
use super::model::*;
use crate::mdl::ascii::text::*;
use crate::mdl_ascii::{
    self, Animation as AAnim, Geometry, ListProp, Node as ANode, NodeKind, Property, Rows, Stmt,
    Trivia, TriviaKind, Value,
};

/// The MDL ASCII text model of an NWN compiled model.
pub fn to_ascii(m: &Model) -> mdl_ascii::Model {
    let name = m.name();
    let nwnmdlcomp = is_nwnmdlcomp(
        m.nodes
            .iter()
            .chain(m.animations.iter().flat_map(|a| &a.nodes))
            .filter(|n| n.flags & u32::from(flags::EMITTER) != 0)
            .flat_map(|n| n.controllers.iter().map(|c| c.kind)),
    );
    let class = CLASSES
        .iter()
        .find(|(b, _)| *b == m.header.classification)
        .map_or_else(
            || m.header.classification.to_string(),
            |(_, n)| (*n).to_string(),
        );
    let mut stmts = vec![
        Stmt::Trivia(Trivia {
            kind: TriviaKind::Comment,
            text: "# NWN MDL ASCII, decompiled by areakit".into(),
            raw: Default::default(),
        }),
        prop("newmodel", Value::Name(name.clone())),
        prop(
            "setsupermodel",
            Value::Words(vec![
                name.clone(),
                non_empty(m.header.supermodel.as_string()),
            ]),
        ),
        prop("classification", Value::Name(class)),
        pint("ignorefog", i64::from(m.header.fog == 0)),
        pnum("setanimationscale", m.header.animation_scale),
    ];
    let parents = m.parents();
    let by_number: HashMap<i32, String> =
        m.nodes.iter().map(|n| (n.node_number, n.name())).collect();
    let mut body = Vec::with_capacity(m.nodes.len());
    for (i, n) in m.nodes.iter().enumerate() {
        let parent = parents[i].map(|p| m.nodes[p].name());
        body.push(Stmt::Node(geometry_node(n, parent, &by_number, nwnmdlcomp)));
    }
    stmts.push(Stmt::Geometry(Geometry {
        name: name.clone(),
        body,
        head: Default::default(),
        end: Default::default(),
    }));
    for a in &m.animations {
        stmts.push(Stmt::Animation(animation(a, &name, nwnmdlcomp)));
    }
    stmts.push(prop("donemodel", Value::Name(name)));
    mdl_ascii::Model {
        stmts,
        ..mdl_ascii::Model::default()
    }
}

/// The ASCII node type of content flags `f`.
pub(crate) fn kind_of(f: u32) -> NodeKind {
    match crate::mdl::common::kind_name(f as u16) {
        "trimesh" => NodeKind::Trimesh,
        "skin" => NodeKind::Skin,
        "danglymesh" => NodeKind::Danglymesh,
        "animmesh" => NodeKind::Animmesh,
        "aabb" => NodeKind::Aabb,
        "light" => NodeKind::Light,
        "emitter" => NodeKind::Emitter,
        "reference" => NodeKind::Reference,
        _ => NodeKind::Dummy,
    }
}

/// The key rows of a controller: time, then its values (orientations as axis and angle).
fn key_rows(n: &Node, c: &Controller) -> Vec<Vec<f64>> {
    n.keys(c)
        .map(|(t, v)| {
            let mut row = vec![d(t)];
            if c.kind == 20 && v.len() == 4 && !c.is_bezier() {
                let q = [v[0], v[1], v[2], v[3]].map(f32::to_bits);
                row.extend(orientation_text(q, axis_angle_of_bits, quat_bits));
            } else {
                row.extend(v.iter().map(|&x| d(x)));
            }
            row
        })
        .collect()
}

/// The controllers of a node: one key at time 0 as a property (a geometry node), else a key
/// list.
fn controllers(n: &Node, as_properties: bool, nwnmdlcomp: bool, b: &mut Vec<Stmt>) {
    for c in &n.controllers {
        let key = controller_name(n.flags, c.kind, nwnmdlcomp);
        let rows = key_rows(n, c);
        if as_properties && rows.len() == 1 && rows[0][0] == 0.0 && !c.is_bezier() {
            let v = &rows[0][1..];
            let value = match (c.kind, v.len()) {
                (8, 3) => Value::Vec3([v[0], v[1], v[2]]),
                (20, 4) => Value::AxisAngle([v[0], v[1], v[2], v[3]]),
                (_, 0) => Value::None,
                _ => Value::Numbers(v.to_vec()),
            };
            b.push(Stmt::Prop(Property::new(key, value)));
        } else {
            let suffix = if c.is_bezier() { "bezierkey" } else { "key" };
            b.push(rows_list(format!("{key}{suffix}"), rows, true));
        }
    }
}

fn geometry_node(
    n: &Node,
    parent: Option<String>,
    by_number: &HashMap<i32, String>,
    nwnmdlcomp: bool,
) -> ANode {
    let mut a = ANode::new(kind_of(n.flags), n.name());
    let b = &mut a.body;
    b.push(pname("parent", parent.unwrap_or_default()));
    controllers(n, true, nwnmdlcomp, b);
    if n.inherit_color != 0 {
        b.push(pint("inheritcolor", i64::from(n.inherit_color)));
    }
    if let Some(l) = &n.light {
        light_stmts(
            l,
            ["isdynamic", "affectdynamic", "generateflare", "fadinglight"],
            b,
        );
    }
    if let Some(e) = &n.emitter {
        emitter(e, b);
    }
    if let Some(r) = &n.reference {
        named("refmodel", r.model.as_string(), b);
        b.push(pint("reattachable", i64::from(r.reattachable)));
    }
    if let Some(mesh) = &n.mesh {
        mesh_body(mesh, b);
        if let (Some(s), Some(w), Some(ix)) = (
            &n.skin,
            n.skin.as_ref().and_then(|s| s.weights.as_ref()),
            n.skin.as_ref().and_then(|s| s.bone_indices.as_ref()),
        ) {
            b.push(weights(s, w, ix, by_number));
        }
        if let Some(a) = &n.anim {
            anim_mesh(a, b);
        }
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
    if let Some(t) = n.aabb.as_ref().filter(|t| !t.tree.is_empty()) {
        let mut rows = Vec::new();
        aabb_rows(&t.tree, 0, &mut rows, 0);
        b.push(rows_list("aabb", rows, false));
    }
    a
}

fn emitter(e: &Emitter, b: &mut Vec<Stmt>) {
    b.push(pnum("deadspace", e.dead_space));
    b.push(pnum("blastRadius", e.blast_radius));
    b.push(pnum("blastLength", e.blast_length));
    b.push(pint("xgrid", i64::from(e.x_grid)));
    b.push(pint("ygrid", i64::from(e.y_grid)));
    b.push(pint("spawntype", i64::from(e.spawn_type)));
    for (key, name) in [
        ("update", e.update.as_string()),
        ("render", e.render.as_string()),
        ("blend", e.blend.as_string()),
        ("texture", e.texture.as_string()),
        ("chunkname", e.chunk.as_string()),
    ] {
        named(key, name, b);
    }
    b.push(pint("twosidedtex", i64::from(e.two_sided_texture)));
    b.push(pint("loop", i64::from(e.looping)));
    b.push(pint("renderorder", i64::from(e.render_order)));
    for &(bit, key) in EMITTER_FLAGS {
        b.push(pint(key, i64::from(e.flags & bit != 0)));
    }
}

/// A name field as a property, left out when empty (a field holding the text `NULL` is written
/// so, and compiles back to it: the compiled files hold both).
fn named(key: &'static str, name: String, b: &mut Vec<Stmt>) {
    if !name.is_empty() {
        b.push(prop(key, Value::Name(name)));
    }
}

fn mesh_body(mesh: &Mesh, b: &mut Vec<Stmt>) {
    b.push(pnums("ambient", &mesh.ambient));
    b.push(pnums("diffuse", &mesh.diffuse));
    b.push(pnums("specular", &mesh.specular));
    b.push(pnum("shininess", mesh.shininess));
    b.push(pint("shadow", i64::from(mesh.shadow)));
    b.push(pint("beaming", i64::from(mesh.beaming)));
    b.push(pint("render", i64::from(mesh.render)));
    b.push(pint("transparencyhint", i64::from(mesh.transparency_hint)));
    match mesh.render_hint {
        0 => {}
        2 => b.push(pname("renderhint", "NormalAndSpecMapped".into())),
        h => b.push(pint("renderhint", i64::from(h))),
    }
    b.push(pint("tilefade", i64::from(mesh.tile_fade)));
    b.push(pint("rotatetexture", i64::from(mesh.rotate_texture)));
    b.push(pint("lightmapped", i64::from(mesh.lightmapped)));
    for (k, key) in [
        (0, "bitmap"),
        (1, "texture1"),
        (2, "texture2"),
        (3, "materialname"),
    ] {
        named(key, mesh.texture(k), b);
    }
    b.push(list("verts", mesh.positions()));
    b.push(faces_list(&mesh.faces));
    let tverts: [&'static str; 4] = ["tverts", "tverts1", "tverts2", "tverts3"];
    for (k, key) in tverts.into_iter().enumerate() {
        if let Some(uv) = &mesh.uvs[k] {
            b.push(rows_list(
                key,
                uv.iter().map(|t| vec![d(t[0]), d(t[1]), 0.0]).collect(),
                false,
            ));
        }
    }
    if let Some(nr) = &mesh.normals {
        b.push(list("normals", nr));
    }
    if let Some(c) = &mesh.colors {
        let alpha = c.iter().any(|c| c[3] != 255);
        let rows = c
            .iter()
            .map(|c| {
                let w = if alpha { 4 } else { 3 };
                c[..w].iter().map(|&x| d(f32::from(x) / 255.0)).collect()
            })
            .collect();
        b.push(rows_list("colors", rows, false));
    }
    if let Some(t) = &mesh.extra[3] {
        let hand = mesh.extra[5].as_deref();
        let rows = t
            .chunks_exact(12)
            .enumerate()
            .map(|(i, c)| {
                let f = |k: usize| d(f32::from_le_bytes([c[k], c[k + 1], c[k + 2], c[k + 3]]));
                let w = hand
                    .and_then(|h| h.get(4 * i..4 * i + 4))
                    .map_or(1.0, |s| d(f32::from_le_bytes([s[0], s[1], s[2], s[3]])));
                vec![f(0), f(4), f(8), w]
            })
            .collect();
        b.push(rows_list("tangents", rows, false));
    }
}

/// One row per vertex: (bone node name, weight) for each slot with a weight above 0.
fn weights(s: &Skin, w: &[[f32; 4]], ix: &[[i16; 4]], by_number: &HashMap<i32, String>) -> Stmt {
    let rows: Vec<Vec<String>> = w
        .iter()
        .zip(ix)
        .map(|(w, ix)| {
            let mut row = Vec::new();
            for (&wt, &slot) in w.iter().zip(ix) {
                if wt > 0.0 && slot >= 0 {
                    let node = s.bone_nodes.get(slot as usize).copied().unwrap_or(-1);
                    row.push(
                        by_number
                            .get(&i32::from(node))
                            .cloned()
                            .unwrap_or_else(|| unnamed(node)),
                    );
                    row.push(format!("{}", d(wt)));
                }
            }
            if row.is_empty() {
                row = no_bones_row();
            }
            row
        })
        .collect();
    Stmt::List(ListProp::counted("weights", Rows::Words(rows)))
}

fn anim_mesh(a: &AnimMesh, b: &mut Vec<Stmt>) {
    b.push(pnum("sampleperiod", a.sample_period));
    if let Some(v) = &a.vertices {
        b.push(list("animverts", v));
    }
    if let Some(t) = &a.tverts {
        b.push(rows_list(
            "animtverts",
            t.iter().map(|t| vec![d(t[0]), d(t[1]), 0.0]).collect(),
            false,
        ));
    }
}

fn animation(a: &Animation, model: &str, nwnmdlcomp: bool) -> AAnim {
    let mut body = vec![
        pnum("length", a.length),
        pnum("transtime", a.transition),
        pname("animroot", a.root.as_string()),
    ];
    for e in &a.events {
        body.push(prop("event", Value::Event(d(e.time), e.name.as_string())));
    }
    let parents = crate::mdl::tree::parents(&a.nodes);
    for (i, n) in a.nodes.iter().enumerate() {
        let mut node = ANode::new(kind_of(n.flags), n.name());
        node.body.push(pname(
            "parent",
            parents[i].map_or_else(String::new, |p| a.nodes[p].name()),
        ));
        controllers(n, false, nwnmdlcomp, &mut node.body);
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
