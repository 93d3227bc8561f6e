//! The pieces of a compiled model's scene both games share: a textured mesh from positions,
//! normals, UVs and faces ([`textured_mesh`]), skins bound with per-vertex weights, and
//! animation channels. `scene.rs` (KotOR) and `nwn_scene.rs` (NWN) both build on it; it
//! imports neither.

use std::collections::{HashMap, HashSet};

use areakit_formats::mdl;
use serde_json::{Value, json};

use super::{Animation, Channel, Group, Maps, Mesh, Property, Scene, Shape, Skin, rgba, unit_quat};

/// The colour of a model's meshes in the scene (see `scene::TRX_WALKABLE`'s palette).
pub const MODEL_MESH: [u8; 3] = [170, 170, 180];

/// The material of binary-model meshes without a texture (`NULL` or empty `texture0`).
pub const UNTEXTURED: &str = "untextured";

/// What a model mesh of either game gives the scene.
pub(super) struct MeshSource<'a> {
    pub positions: &'a [[f32; 3]],
    pub normals: Option<&'a [[f32; 3]]>,
    /// The diffuse texture's UVs and the lightmap's.
    pub uvs: [Option<&'a [[f32; 2]]>; 2],
    pub faces: &'a [mdl::Face],
    /// The diffuse texture and the lightmap (none or `NULL`: none).
    pub textures: [String; 2],
}

/// A model mesh for the scene: its positions, the normals (made unit length; ones without a
/// direction become +z, counted) and UVs when they have one row per vertex, and every face
/// whose vertices exist, as one group named by the texture (as first spelt: `spellings` maps
/// lower case to it, the game's names being case-insensitive; none or `NULL`: untextured), the
/// lightmap drawn with the second UV set (without one it cannot be placed).
pub(super) fn textured_mesh(
    src: &MeshSource,
    spellings: &mut HashMap<String, String>,
) -> (Option<Mesh>, usize) {
    let nv = src.positions.len();
    let mut triangles = Vec::with_capacity(src.faces.len());
    let mut kept = Vec::with_capacity(src.faces.len());
    for (fi, f) in src.faces.iter().enumerate() {
        if f.vertices.iter().all(|&v| usize::from(v) < nv) {
            triangles.push(f.vertices.map(u32::from));
            kept.push(fi as u32);
        }
    }
    if triangles.is_empty() {
        return (None, 0);
    }
    let mut replaced = 0;
    let normals = match src.normals.filter(|n| n.len() == nv) {
        Some(n) => n
            .iter()
            .map(|n| {
                let v = n.map(f64::from);
                let len = v.iter().map(|c| c * c).sum::<f64>().sqrt();
                if len.is_finite() && len > 1e-9 {
                    v.map(|c| (c / len) as f32)
                } else {
                    replaced += 1;
                    [0.0, 0.0, 1.0]
                }
            })
            .collect(),
        None => Vec::new(),
    };
    let uv_rows = |uvs: Option<&[[f32; 2]]>| -> Vec<[f32; 2]> {
        match uvs.filter(|u| u.len() == nv) {
            Some(u) => u
                .iter()
                .map(|uv| uv.map(|c| if c.is_finite() { c } else { 0.0 }))
                .collect(),
            None => Vec::new(),
        }
    };
    let (uvs, uvs2) = (uv_rows(src.uvs[0]), uv_rows(src.uvs[1]));
    let mut spelt = |t: &str| -> Option<String> {
        (!t.is_empty() && !t.eq_ignore_ascii_case("null")).then(|| {
            spellings
                .entry(t.to_ascii_lowercase())
                .or_insert_with(|| t.to_string())
                .clone()
        })
    };
    let diffuse = spelt(&src.textures[0]);
    let lightmap = spelt(&src.textures[1]).filter(|_| !uvs2.is_empty());
    let (material, texture) = match &diffuse {
        None => (UNTEXTURED.to_string(), Value::Null),
        Some(name) => (name.clone(), json!(name)),
    };
    let mut material_extras = json!({"texture": texture});
    if let (Some(lm), Value::Object(map)) = (&lightmap, &mut material_extras) {
        map.insert("lightmap".into(), json!(lm));
    }
    let mesh = Mesh {
        positions: src
            .positions
            .iter()
            .map(|p| p.map(|c| if c.is_finite() { c } else { 0.0 }))
            .collect(),
        normals,
        uvs,
        uvs2,
        groups: vec![Group {
            material,
            colour: rgba(MODEL_MESH, 1.0),
            extras: Value::Null,
            material_extras,
            maps: Maps { diffuse, lightmap },
            shape: Shape::Triangles {
                triangles,
                faces: kept,
            },
        }],
        ..Mesh::default()
    };
    (Some(mesh), replaced)
}

/// Adds `skin` to the scene and binds scene node `si`'s mesh to it with per-vertex joints and
/// weights ([`vertex_weights`]); the count of vertices that fell back goes to the node's
/// extras as `unweighted_vertices`.
pub(super) fn attach_skin(
    scene: &mut Scene,
    si: usize,
    skin: Skin,
    (joints, weights, fallbacks): (Vec<[u16; 4]>, Vec<[f32; 4]>, usize),
) {
    scene.skins.push(skin);
    let node = &mut scene.nodes[si];
    node.skin = Some(scene.skins.len() - 1);
    if let Some(mesh) = &mut node.mesh {
        mesh.joints = joints;
        mesh.weights = weights;
    }
    if fallbacks > 0
        && let Value::Object(map) = &mut node.extras
    {
        map.insert("unweighted_vertices".into(), json!(fallbacks));
    }
}

/// Per vertex, its four (joint, weight) influences as glTF wants them: weights above 0 on a
/// known joint, a joint named twice summed, normalised to 1 (the heaviest takes what rounding
/// to f32 leaves), heaviest first, unused slots joint 0 weight 0; a vertex with no usable
/// weight follows `own`. Returns the joints, the weights and how many vertices fell back.
pub(super) fn vertex_weights(
    influences: impl Iterator<Item = [(Option<u16>, f64); 4]>,
    own: u16,
) -> (Vec<[u16; 4]>, Vec<[f32; 4]>, usize) {
    let mut fallbacks = 0;
    let mut out_joints = Vec::new();
    let mut out_weights = Vec::new();
    for influence in influences {
        let mut slots: Vec<(u16, f64)> = Vec::with_capacity(4);
        for (joint, weight) in influence {
            let Some(j) = joint.filter(|_| weight.is_finite() && weight > 0.0) else {
                continue;
            };
            match slots.iter_mut().find(|s| s.0 == j) {
                Some(s) => s.1 += weight,
                None => slots.push((j, weight)),
            }
        }
        let mut sum: f64 = slots.iter().map(|s| s.1).sum();
        if !(sum.is_finite() && sum > 0.0) {
            fallbacks += 1;
            slots = vec![(own, 1.0)];
            sum = 1.0;
        }
        // The heaviest slot takes what rounding to f32 leaves, so the sum is 1 in f32 too.
        slots.sort_by(|a, b| b.1.total_cmp(&a.1));
        let mut jj = [0u16; 4];
        let mut ww = [0f32; 4];
        for (k, (j, weight)) in slots.iter().enumerate() {
            ww[k] = (weight / sum) as f32;
            // A weight too small for f32 is no weight: its slot is unused (joint 0).
            jj[k] = if ww[k] > 0.0 { *j } else { 0 };
        }
        ww[0] = 1.0 - ww[1..].iter().sum::<f32>();
        out_joints.push(jj);
        out_weights.push(ww);
    }
    (out_joints, out_weights, fallbacks)
}

/// Adds the channel of `rows` (cleaned by [`clean_keys`]) for a node's property, unless the
/// node has one for it already or no key is left.
pub(super) fn add_channel(
    channels: &mut Vec<Channel>,
    seen: &mut HashSet<(usize, Property)>,
    (node, property): (usize, Property),
    rows: Vec<(f32, [f64; 4])>,
) {
    let (times, values) = clean_keys(rows, property);
    if times.is_empty() || !seen.insert((node, property)) {
        return;
    }
    channels.push(Channel {
        node,
        property,
        times,
        values,
    });
}

/// A compiled model's animation from its name, length and transition, root node, events, the
/// names of its nodes no geometry node matched and its channels; `None` without a channel.
pub(super) fn model_animation(
    name: String,
    [length, transition]: [f32; 2],
    root: String,
    events: &[mdl::Event],
    unmatched: Vec<String>,
    channels: Vec<Channel>,
) -> Option<Animation> {
    if channels.is_empty() {
        return None;
    }
    let events: Vec<Value> = events
        .iter()
        .map(|e| json!({"time": e.time, "name": e.name.as_string()}))
        .collect();
    let mut extras = json!({
        "kind": "model-animation",
        "length": length,
        "transition": transition,
        "animation_root": root,
        "events": events,
    });
    if !unmatched.is_empty()
        && let Value::Object(map) = &mut extras
    {
        map.insert("unmatched_nodes".into(), json!(unmatched));
    }
    Some(Animation {
        name,
        extras,
        channels,
    })
}

/// Keys fit for glTF: finite values (rotations made unit length), times finite and not
/// negative, sorted, each time once (the first key at a time wins).
pub(super) fn clean_keys(rows: Vec<(f32, [f64; 4])>, property: Property) -> (Vec<f32>, Vec<f32>) {
    let width = property.width();
    let mut keys: Vec<(f32, [f32; 4])> = rows
        .into_iter()
        .filter(|(t, _)| t.is_finite() && *t >= 0.0)
        .filter_map(|(t, v)| {
            let t = t + 0.0; // -0 as 0
            let v = match property {
                Property::Rotation => unit_quat(v)?,
                _ => v,
            };
            let v = v.map(|c| c as f32);
            v[..width].iter().all(|c| c.is_finite()).then_some((t, v))
        })
        .collect();
    keys.sort_by(|a, b| a.0.total_cmp(&b.0));
    keys.dedup_by(|b, a| a.0 == b.0);
    let times = keys.iter().map(|k| k.0).collect();
    let values = keys.iter().flat_map(|k| k.1[..width].to_vec()).collect();
    (times, values)
}
