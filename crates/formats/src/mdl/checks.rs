//! The mesh, AABB-tree and skin checks both compiled-model layouts share: they see a mesh as
//! its positions, faces and index lists, whichever file it came from. `docs/checks.md` lists
//! each code with its evidence.

use super::common::{Aabb, Face};
use super::tree::TreeNode;
use crate::finding::{Finding, Place};

/// A mesh as the checks see it.
pub(crate) struct MeshView<'a> {
    pub positions: &'a [[f32; 3]],
    pub faces: &'a [Face],
    pub index_lists: &'a [Vec<u16>],
}

/// `mdl-face-index-out-of-range` (error) for faces and index lists that name a vertex the mesh
/// does not have; `mdl-degenerate-face` (warning) for a face with a repeated vertex or no area.
pub(crate) fn face_findings(m: &MeshView<'_>, place: &dyn Fn() -> Place, out: &mut Vec<Finding>) {
    let n = m.positions.len();
    for (f, face) in m.faces.iter().enumerate() {
        if let Some(&v) = face.vertices.iter().find(|&&v| usize::from(v) >= n) {
            out.push(Finding::error(
                "mdl-face-index-out-of-range",
                place().face(f as u32),
                format!("face {f} names vertex {v}, but the mesh has {n} vertices"),
            ));
            continue;
        }
        let [a, b, c] = face.vertices.map(|v| m.positions[usize::from(v)]);
        let area = cross_len(sub(b, a), sub(c, a)) / 2.0;
        let [i, j, k] = face.vertices;
        if a == b || b == c || a == c || i == j || j == k || i == k || area <= 1e-12 {
            out.push(Finding::warning(
                "mdl-degenerate-face",
                place().face(f as u32).position(a),
                format!("face {f} has no area (vertices {:?})", face.vertices),
            ));
        }
    }
    for (l, list) in m.index_lists.iter().enumerate() {
        if let Some(&v) = list.iter().find(|&&v| usize::from(v) >= n) {
            out.push(Finding::error(
                "mdl-face-index-out-of-range",
                place(),
                format!("index list {l} names vertex {v}, but the mesh has {n} vertices"),
            ));
        }
    }
}

/// `mdl-aabb-face-missing` (error): a walkmesh face no leaf holds, so a query through the tree
/// never finds it; `mdl-aabb-box` (warning): a box that does not contain its face or children;
/// `mdl-face-index-out-of-range` (error): a leaf naming a face the mesh does not have.
pub(crate) fn aabb_findings(
    m: &MeshView<'_>,
    a: &Aabb,
    place: &dyn Fn() -> Place,
    out: &mut Vec<Finding>,
) {
    let faces = m.faces.len();
    let mut held = vec![false; faces];
    let eps = 1e-3;
    let contains = |min: [f32; 3], max: [f32; 3], p: [f32; 3]| {
        (0..3).all(|k| p[k] >= min[k] - eps && p[k] <= max[k] + eps)
    };
    let mut box_reported = false;
    for (i, t) in a.tree.iter().enumerate() {
        if t.face >= 0 {
            let f = t.face as usize;
            match m.faces.get(f) {
                Some(face) => {
                    held[f] = true;
                    let inside = face.vertices.iter().all(|&v| {
                        m.positions
                            .get(usize::from(v))
                            .is_none_or(|&p| contains(t.min, t.max, p))
                    });
                    if !inside && !box_reported {
                        box_reported = true;
                        out.push(Finding::warning(
                            "mdl-aabb-box",
                            place().face(f as u32),
                            format!("AABB leaf {i} does not contain its face {f}"),
                        ));
                    }
                }
                None => out.push(Finding::error(
                    "mdl-face-index-out-of-range",
                    place(),
                    format!("AABB leaf {i} names face {f}, but the mesh has {faces} faces"),
                )),
            }
        }
        for c in [t.left, t.right].into_iter().flatten() {
            if let Some(child) = a.tree.get(c as usize)
                && !box_reported
                && !(contains(t.min, t.max, child.min) && contains(t.min, t.max, child.max))
            {
                box_reported = true;
                out.push(Finding::warning(
                    "mdl-aabb-box",
                    place(),
                    format!("AABB node {i} does not contain its child {c}"),
                ));
            }
        }
    }
    if let Some(f) = held.iter().position(|h| !h) {
        let missing = held.iter().filter(|h| !**h).count();
        let at = m.faces[f].vertices[0];
        out.push(Finding::error(
            "mdl-aabb-face-missing",
            place().face(f as u32).position(
                m.positions
                    .get(usize::from(at))
                    .copied()
                    .unwrap_or_default(),
            ),
            format!("{missing} faces (first: face {f}) are in no leaf of the AABB tree"),
        ));
    }
}

/// `mdl-skin-bone-missing` (error): the first vertex weighted (weight above 0) to a bone index
/// at or past `bones`. `influences` gives, per vertex, its (bone index, weight) pairs.
pub(crate) fn skin_bone_findings(
    influences: impl Iterator<Item = [(f32, f32); 4]>,
    bones: usize,
    place: &dyn Fn() -> Place,
    out: &mut Vec<Finding>,
) {
    let bad = influences.enumerate().find_map(|(v, pairs)| {
        pairs
            .iter()
            .find_map(|&(b, w)| (w > 0.0 && b >= 0.0 && (b as usize) >= bones).then_some((v, b)))
    });
    if let Some((v, b)) = bad {
        out.push(Finding::error(
            "mdl-skin-bone-missing",
            place(),
            format!("vertex {v} is weighted to bone {b}, but the skin has {bones} bones"),
        ));
    }
}

/// `mdl-shared-node` (warning): an animation node reached from two parents (the engine loads
/// such a file; the block is written once and referenced twice, as the source does).
pub(crate) fn shared_node_findings<N: TreeNode>(
    animation: &str,
    nodes: &[N],
    out: &mut Vec<Finding>,
) {
    let mut parents = vec![0u32; nodes.len()];
    let mut first = None;
    for &c in nodes.iter().flat_map(|n| n.children()) {
        if let Some(p) = parents.get_mut(c as usize) {
            *p += 1;
            if *p == 2 && first.is_none() {
                first = Some(c);
            }
        }
    }
    if let Some(c) = first {
        let shared = parents.iter().filter(|&&p| p > 1).count();
        out.push(Finding::warning(
            "mdl-shared-node",
            Place::default().item(format!("animation {animation}")),
            format!(
                "{shared} node(s) of animation {animation} (first: node {c}) are children of two \
                 parents: one node block referenced twice"
            ),
        ));
    }
}

/// `mdl-trailing-bytes` (warning): bytes after the end the header's size words declare.
/// `declared_end` is the file offset where they start, when the model was read from a file.
pub(crate) fn trailing_findings(
    trailing: &[u8],
    declared_end: Option<u64>,
    out: &mut Vec<Finding>,
) {
    if !trailing.is_empty() {
        out.push(Finding::warning(
            "mdl-trailing-bytes",
            declared_end.map_or_else(Place::default, Place::offset),
            format!(
                "{} bytes after the end the header declares; the game does not read them, \
                 areakit keeps them",
                trailing.len()
            ),
        ));
    }
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross_len(a: [f32; 3], b: [f32; 3]) -> f32 {
    let c = [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ];
    (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt()
}
