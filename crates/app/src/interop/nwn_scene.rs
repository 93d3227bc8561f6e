//! An NWN compiled model as a scene (`export` to glTF and OBJ): one node per geometry node,
//! local transforms from the position and orientation controllers, mesh nodes with their
//! faces, normals and first UV set (the texture as material), skins with their joints and bind
//! poses, and every animation's position, orientation and scale keys as channels. The layout
//! is the KotOR models' (`docs/formats/gltf-export-mdl.md`).

use std::collections::{HashMap, HashSet};

use areakit_area::nwn_models;
use areakit_formats::mdl::nwn;
use serde_json::{Value, json};

use super::model_parts::{
    MeshSource, add_channel, attach_skin, model_animation, textured_mesh, vertex_weights,
};
use super::{Animation, Mat4, Node, Property, Scene, Skin, unit_quat};

const POSITION: u32 = 8;
const ORIENTATION: u32 = 20;
const SCALE: u32 = 36;

/// Adds an NWN compiled model to `scene` as a root.
pub(super) fn add_nwn_model(scene: &mut Scene, m: &nwn::Model) {
    let parents = m.parents();
    let base = scene.nodes.len();
    let mut index_of = Vec::with_capacity(m.nodes.len());
    let mut spellings = HashMap::new();
    for (i, n) in m.nodes.iter().enumerate() {
        let mut extras = if i == 0 {
            json!({
                "kind": "model",
                "model": m.name(),
                "supermodel": m.header.supermodel.as_string(),
                "game": "nwn",
                "classification": m.header.classification,
                "animation_scale": m.header.animation_scale,
                "node_type": n.kind_name(),
            })
        } else {
            json!({"kind": "model-node", "node_type": n.kind_name(), "node_number": n.node_number})
        };
        let mut node_mesh = None;
        if let Value::Object(map) = &mut extras {
            if nwn_models::is_walkmesh_node(n) {
                map.insert("walkmesh".into(), json!(true));
            }
            if let Some(r) = &n.reference {
                map.insert("reference".into(), json!(r.model.as_string()));
            }
            if let Some(me) = &n.mesh {
                let (mesh, replaced) = textured_mesh(
                    &MeshSource {
                        positions: me.positions(),
                        normals: me.normals.as_deref(),
                        // NWN models carry no lightmap: only the diffuse texture is drawn.
                        uvs: [me.uvs[0].as_deref(), None],
                        faces: &me.faces,
                        textures: [me.texture(0), String::new()],
                    },
                    &mut spellings,
                );
                if replaced > 0 {
                    map.insert("normals_replaced".into(), json!(replaced));
                }
                node_mesh = mesh;
            }
        }
        let mut node = Node::new(n.name(), extras);
        let p = nwn_models::rest_position(n);
        if p.iter().all(|c| c.is_finite()) {
            node.translation = p.map(f64::from);
        }
        let [w, x, y, z] = nwn_models::rest_orientation(n);
        node.rotation = [x, y, z, w];
        node.mesh = node_mesh;
        let parent = parents
            .get(i)
            .copied()
            .flatten()
            .filter(|&p| p < i)
            .map(|p| index_of[p]);
        index_of.push(scene.add(node, parent));
    }
    add_skins(scene, m, &index_of);
    let mut skipped = Vec::new();
    for a in &m.animations {
        match animation(m, a, &index_of) {
            Some(anim) => scene.animations.push(anim),
            None => skipped.push(a.geometry.name.as_string()),
        }
    }
    if let Some(Value::Object(map)) = scene.nodes.get_mut(base).map(|n| &mut n.extras) {
        map.insert("animations".into(), json!(m.animations.len()));
        if !skipped.is_empty() {
            map.insert("animations_without_transform_keys".into(), json!(skipped));
        }
    }
}

/// Each skin node's skin: its bone slots (node numbers) are the joints; a vertex's slot index
/// is its joint; the inverse bind matrices are the skin's bind poses of the joints' node
/// numbers (`qbones`/`tbones`), else the rest pose's `inverse(bone world) * mesh world`.
fn add_skins(scene: &mut Scene, m: &nwn::Model, index_of: &[usize]) {
    let world = scene.world_matrices();
    let by_number: HashMap<i32, usize> = m
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.node_number, i))
        .collect();
    for (i, n) in m.nodes.iter().enumerate() {
        let (Some(skin), Some(me)) = (&n.skin, &n.mesh) else {
            continue;
        };
        let (Some(w), Some(ix)) = (&skin.weights, &skin.bone_indices) else {
            continue;
        };
        let si = index_of[i];
        if scene.nodes[si].mesh.is_none() || w.len() != me.vertex_count() {
            continue;
        }
        let mesh_world = world[si];
        let mut joints = Vec::new();
        let mut inverse_bind = Vec::new();
        let mut joint_of_slot = [None::<u16>; 17];
        for (slot, &number) in skin.bone_nodes.iter().enumerate() {
            let Some(&ni) = by_number.get(&i32::from(number)) else {
                break;
            };
            joint_of_slot[slot] = Some(joints.len() as u16);
            joints.push(index_of[ni]);
            let k = number as usize;
            let stored = match (skin.qbones.get(k), skin.tbones.get(k)) {
                (Some(q), Some(t)) if q.iter().chain(t).all(|c| c.is_finite()) => {
                    unit_quat([q[1], q[2], q[3], q[0]].map(f64::from))
                        .map(|q| Mat4::from_trs(t.map(f64::from), q))
                }
                _ => None,
            };
            inverse_bind.push(
                stored.unwrap_or_else(|| world[index_of[ni]].inverse_rigid().mul(&mesh_world)),
            );
        }
        if joints.is_empty() {
            continue;
        }
        let own = joints.iter().position(|&j| j == si).unwrap_or(0) as u16;
        let influences = w.iter().zip(ix).map(|(w, ix)| {
            [0, 1, 2, 3].map(|k| {
                let slot = usize::try_from(ix[k]).ok();
                let joint = slot.and_then(|s| joint_of_slot.get(s).copied().flatten());
                (joint, f64::from(w[k]))
            })
        });
        let skin = Skin {
            name: scene.nodes[si].name.clone(),
            joints,
            inverse_bind,
        };
        attach_skin(scene, si, skin, vertex_weights(influences, own));
    }
}

/// An animation: the position (absolute, NWN's), orientation (x, y, z, w) and scale keys of
/// each animation node named like a geometry node, as channels of that node.
fn animation(m: &nwn::Model, a: &nwn::Animation, index_of: &[usize]) -> Option<Animation> {
    let mut channels = Vec::new();
    let mut seen: HashSet<(usize, Property)> = HashSet::new();
    let mut unmatched = Vec::new();
    for an in &a.nodes {
        if an.controllers.is_empty() {
            continue;
        }
        let Some(gi) = m.find_node(&an.name()) else {
            unmatched.push(an.name());
            continue;
        };
        let target = index_of[gi];
        for c in &an.controllers {
            let (property, width) = match c.kind {
                POSITION => (Property::Translation, 3),
                ORIENTATION => (Property::Rotation, 4),
                SCALE => (Property::Scale, 1),
                _ => continue,
            };
            if seen.contains(&(target, property)) || c.is_bezier() || c.width() != width {
                continue;
            }
            let rows = an
                .keys(c)
                .map(|(t, v)| {
                    let v = v.iter().map(|&x| f64::from(x)).collect::<Vec<_>>();
                    let value = match property {
                        Property::Scale => [v[0], v[0], v[0], 0.0],
                        Property::Translation => [v[0], v[1], v[2], 0.0],
                        _ => [v[0], v[1], v[2], v[3]],
                    };
                    (t, value)
                })
                .collect();
            add_channel(&mut channels, &mut seen, (target, property), rows);
        }
    }
    model_animation(
        a.geometry.name.as_string(),
        [a.length, a.transition],
        a.root.as_string(),
        &a.events,
        unmatched,
        channels,
    )
}
