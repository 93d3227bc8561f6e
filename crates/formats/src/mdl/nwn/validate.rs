//! The checks of an NWN compiled model: the mesh, AABB-tree and skin checks the KotOR codec
//! uses, and NWN's own (vertex streams and skins by their raw layout). `docs/checks.md` lists
//! each code with its evidence.

use super::model::*;
use crate::finding::{Finding, Place};
use crate::mdl::checks::*;

/// Finds what is wrong with an NWN compiled model.
///
/// - the shared checks: `mdl-face-index-out-of-range`, `mdl-degenerate-face`,
///   `mdl-aabb-face-missing`, `mdl-aabb-box`, `mdl-skin-bone-missing` (a weight on a bone slot
///   past the skin's 17, or on a slot naming no node), `mdl-shared-node`, `mdl-trailing-bytes`;
/// - `mdl-nwn-stream-length` (error): a vertex stream (UVs, normals, colours) with another
///   count than the positions (a model built in code; a file's streams always match);
/// - `mdl-nwn-texture-count` (warning): the texture count names a UV set the mesh has not.
pub fn validate(model: &Model) -> Vec<Finding> {
    let mut out = Vec::new();
    let count = model.nodes.len();
    for (i, node) in model.nodes.iter().enumerate() {
        let Some(mesh) = &node.mesh else { continue };
        let path = model.node_path(i);
        let place = || Place::default().item(path.clone());
        let view = MeshView {
            positions: mesh.positions(),
            faces: &mesh.faces,
            index_lists: &mesh.index_lists,
        };
        face_findings(&view, &place, &mut out);
        stream_findings(mesh, &place, &mut out);
        if let Some(a) = &node.aabb {
            aabb_findings(&view, a, &place, &mut out);
        }
        if let Some(s) = &node.skin {
            skin_findings(s, count, &place, &mut out);
        }
    }
    for a in &model.animations {
        shared_node_findings(&a.geometry.name.as_string(), &a.nodes, &mut out);
    }
    let declared = model
        .layout
        .as_ref()
        .map(|l| 12 + u64::from(l.mdl_size) + u64::from(l.mdx_size));
    trailing_findings(&model.trailing, declared, &mut out);
    out
}

fn stream_findings(mesh: &Mesh, place: &dyn Fn() -> Place, out: &mut Vec<Finding>) {
    let n = mesh.vertex_count();
    let lens = [
        ("UV set 1", mesh.uvs[0].as_ref().map(Vec::len)),
        ("UV set 2", mesh.uvs[1].as_ref().map(Vec::len)),
        ("UV set 3", mesh.uvs[2].as_ref().map(Vec::len)),
        ("UV set 4", mesh.uvs[3].as_ref().map(Vec::len)),
        ("normals", mesh.normals.as_ref().map(Vec::len)),
        ("colours", mesh.colors.as_ref().map(Vec::len)),
    ];
    for (what, len) in lens {
        if let Some(l) = len.filter(|&l| l != n) {
            out.push(Finding::error(
                "mdl-nwn-stream-length",
                place(),
                format!("{l} {what} for {n} vertices"),
            ));
        }
    }
    let sets = usize::from(mesh.texture_count).min(4);
    if n > 0
        && let Some(k) = (0..sets).find(|&k| mesh.uvs[k].is_none())
    {
        out.push(Finding::warning(
            "mdl-nwn-texture-count",
            place(),
            format!(
                "the texture count is {}, but UV set {} is absent",
                mesh.texture_count,
                k + 1
            ),
        ));
    }
}

/// A skin's weights name bone slots (0-16), each slot a node number.
fn skin_findings(s: &Skin, nodes: usize, place: &dyn Fn() -> Place, out: &mut Vec<Finding>) {
    let (Some(w), Some(ix)) = (&s.weights, &s.bone_indices) else {
        return;
    };
    // A slot is a bone when it names a node of the model.
    let slots = s
        .bone_nodes
        .iter()
        .position(|&b| b < 0 || b as usize >= nodes)
        .unwrap_or(s.bone_nodes.len());
    let influences = ix.iter().zip(w).map(|(ix, w)| {
        let b = |k: usize| f32::from(ix[k]);
        [(b(0), w[0]), (b(1), w[1]), (b(2), w[2]), (b(3), w[3])]
    });
    skin_bone_findings(influences, slots, place, out);
}
