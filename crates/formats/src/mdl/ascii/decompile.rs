//! A KotOR binary model to the KotOR MDL ASCII dialect.

use std::collections::HashMap;

use super::controllers::*;
use super::text::*;
use crate::mdl::model::*;
use crate::mdl::quat;
use crate::mdl_ascii::{
    self, Animation as AAnim, Geometry, ListProp, Node as ANode, NodeKind, Property, Rows, Stmt,
    Value,
};

/// The rows of a controller as the ASCII dialect writes them: time, then the values
/// (orientations as axis and angle; positions of animation nodes made absolute with `rest`).
fn ascii_rows(node: &Node, c: &Controller, rest: Option<[f32; 3]>) -> Vec<Vec<f64>> {
    let bezier = c.is_bezier();
    node.keys(c)
        .map(|(t, v)| {
            let mut row = vec![d(t)];
            match (c.kind, c.columns & 0x0F, bezier) {
                (20, 4, false) => {
                    let q = [v[0], v[1], v[2], v[3]].map(f32::to_bits);
                    row.extend(orientation_text(q, axis_angle_of_bits, quat_bits));
                }
                (20, 2, false) => {
                    row.extend(orientation_text(
                        v[0].to_bits(),
                        |w| axis_angle(quat::decompress(w)),
                        |a| quat::compress(quat_of([a[0], a[1], a[2], a[3]])),
                    ));
                }
                (8, 3, _) if rest.is_some() => {
                    let r = rest.unwrap_or_default();
                    for (k, &x) in v.iter().enumerate() {
                        // Bezier tangents stay relative to the key.
                        let add = if k < 3 { r[k] } else { 0.0 };
                        row.push(relative_text(x, add));
                    }
                }
                _ => row.extend(v.iter().map(|&x| d(x))),
            }
            row
        })
        .collect()
}

/// The text of `x + rest` (an animation position made absolute), such that the compiler's
/// `(text - rest) as f32` is `x` again: short when a short text does it (see `exact_text`).
fn relative_text(x: f32, rest: f32) -> f64 {
    let exact = f64::from(x) + f64::from(rest);
    exact_text([exact], |a| {
        ((a[0] - f64::from(rest)) as f32).to_bits() == x.to_bits()
    })
    .map_or(d(x + rest), |a| a[0])
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
        light_stmts(
            l,
            ["nDynamicType", "affectDynamic", "flare", "fadingLight"],
            b,
        );
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
    b.push(faces_list(&mesh.faces));
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
                                .unwrap_or_else(|| unnamed(bi as i64)),
                        );
                        row.push(format!("{}", d(*wt)));
                    }
                }
                if row.is_empty() {
                    row = no_bones_row();
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

fn animation(m: &Model, a: &Animation, model: &str) -> AAnim {
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
