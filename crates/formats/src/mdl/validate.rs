//! The checks of a binary model: what the engine would misread (errors) and what is legal but
//! suspicious (warnings). `docs/checks.md` lists each code with its evidence.

use super::model::*;
use crate::finding::{Finding, Place};

/// Finds what is wrong with a model.
///
/// - `mdl-face-index-out-of-range` (error): a face or index-list entry names a vertex the mesh
///   does not have;
/// - `mdl-mdx-flag-without-offset` (error): a data flag names an MDX column whose offset is -1;
/// - `mdl-mdx-offset-without-flag` (warning): a column has an offset but no flag (not read);
/// - `mdl-mdx-stride-mismatch` (warning): the row stride is not the sum of its columns;
/// - `mdl-degenerate-face` (warning): a face with a repeated vertex or no area;
/// - `mdl-aabb-face-missing` (error): a walkmesh face no leaf of the AABB tree holds, so a
///   query through the tree never finds it;
/// - `mdl-aabb-box` (warning): a tree box does not contain its face or its children;
/// - `mdl-skin-bone-missing` (error): a vertex weighted to a bone the skin does not have.
pub fn validate(model: &Model) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, node) in model.nodes.iter().enumerate() {
        let Some(mesh) = &node.mesh else { continue };
        let path = model.node_path(i);
        let place = || Place::default().item(path.clone());
        let n = mesh.positions.len();
        for (f, face) in mesh.faces.iter().enumerate() {
            if let Some(&v) = face.vertices.iter().find(|&&v| usize::from(v) >= n) {
                out.push(Finding::error(
                    "mdl-face-index-out-of-range",
                    place().face(f as u32),
                    format!("face {f} names vertex {v}, but the mesh has {n} vertices"),
                ));
                continue;
            }
            let [a, b, c] = face.vertices.map(|v| mesh.positions[usize::from(v)]);
            let area = cross_len(sub(b, a), sub(c, a)) / 2.0;
            if a == b
                || b == c
                || a == c
                || face.vertices[0] == face.vertices[1]
                || face.vertices[1] == face.vertices[2]
                || face.vertices[0] == face.vertices[2]
                || area <= 1e-12
            {
                out.push(Finding::warning(
                    "mdl-degenerate-face",
                    place().face(f as u32).position(a),
                    format!("face {f} has no area (vertices {:?})", face.vertices),
                ));
            }
        }
        for (l, list) in mesh.index_lists.iter().enumerate() {
            if let Some(&v) = list.iter().find(|&&v| usize::from(v) >= n) {
                out.push(Finding::error(
                    "mdl-face-index-out-of-range",
                    place(),
                    format!("index list {l} names vertex {v}, but the mesh has {n} vertices"),
                ));
            }
        }
        mdx_findings(mesh, node.skin.as_ref(), &place, &mut out);
        if let Some(a) = &node.aabb {
            aabb_findings(mesh, a, &place, &mut out);
        }
        if let Some(s) = &node.skin {
            let bones = s.qbones.len();
            let bad = mesh
                .vertices
                .bone_indices
                .iter()
                .zip(&mesh.vertices.bone_weights)
                .enumerate()
                .find_map(|(v, (ix, w))| {
                    ix.iter().zip(w).find_map(|(&b, &w)| {
                        (w > 0.0 && b >= 0.0 && (b as usize) >= bones).then_some((v, b))
                    })
                });
            if let Some((v, b)) = bad {
                out.push(Finding::error(
                    "mdl-skin-bone-missing",
                    place(),
                    format!("vertex {v} is weighted to bone {b}, but the skin has {bones} bones"),
                ));
            }
            // The bone map is indexed like the name table (kotorblender reads it so: the node
            // of entry i is the node named names[i]).
            let names = model.names.len();
            if let Some(b) = s
                .bone_map
                .iter()
                .enumerate()
                .find_map(|(i, &bone)| (bone >= 0.0 && i >= names).then_some(i))
            {
                out.push(Finding::error(
                    "mdl-skin-bone-missing",
                    place(),
                    format!("bone map entry {b} gives a bone to a node the name table ({names} names) does not have"),
                ));
            }
        }
    }
    out
}

fn mdx_findings(
    mesh: &Mesh,
    skin: Option<&Skin>,
    place: &dyn Fn() -> Place,
    out: &mut Vec<Finding>,
) {
    use mdx_flags::*;
    let columns: [(u32, usize, usize, &str); 11] = [
        (POSITION, 0, 12, "positions"),
        (NORMAL, 1, 12, "normals"),
        (COLOR, 2, 12, "colours"),
        (UV1, 3, 8, "UV set 1"),
        (UV2, 4, 8, "UV set 2"),
        (UV3, 5, 8, "UV set 3"),
        (UV4, 6, 8, "UV set 4"),
        (TANGENT1, 7, 36, "tangent space 1"),
        (TANGENT2, 8, 36, "tangent space 2"),
        (TANGENT3, 9, 36, "tangent space 3"),
        (TANGENT4, 10, 36, "tangent space 4"),
    ];
    let mut width = 0;
    for (flag, k, size, what) in columns {
        let off = mesh.mdx_offsets[k];
        let flagged = mesh.mdx_flags & flag != 0;
        if flagged && off < 0 {
            out.push(Finding::error(
                "mdl-mdx-flag-without-offset",
                place(),
                format!("the data flags name {what}, but its MDX offset is -1"),
            ));
        } else if !flagged && off >= 0 && !mesh.positions.is_empty() {
            out.push(Finding::warning(
                "mdl-mdx-offset-without-flag",
                place(),
                format!("{what} have MDX offset {off} but no data flag"),
            ));
        }
        if off >= 0 {
            width += size;
        }
    }
    if let Some(s) = skin {
        width += 16 * usize::from(s.weights_offset >= 0) + 16 * usize::from(s.indices_offset >= 0);
    }
    if !mesh.positions.is_empty() && mesh.mdx_stride as usize != width && mesh.mdx_stride != 0 {
        out.push(Finding::warning(
            "mdl-mdx-stride-mismatch",
            place(),
            format!(
                "the MDX row stride is {}, its columns take {width} bytes",
                mesh.mdx_stride
            ),
        ));
    }
}

fn aabb_findings(mesh: &Mesh, a: &Aabb, place: &dyn Fn() -> Place, out: &mut Vec<Finding>) {
    let faces = mesh.faces.len();
    let mut held = vec![false; faces];
    let eps = 1e-3;
    let contains = |min: [f32; 3], max: [f32; 3], p: [f32; 3]| {
        (0..3).all(|k| p[k] >= min[k] - eps && p[k] <= max[k] + eps)
    };
    let mut box_reported = false;
    for (i, t) in a.tree.iter().enumerate() {
        if t.face >= 0 {
            let f = t.face as usize;
            match mesh.faces.get(f) {
                Some(face) => {
                    held[f] = true;
                    let inside = face.vertices.iter().all(|&v| {
                        mesh.positions
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
        let at = mesh.faces[f].vertices[0];
        out.push(Finding::error(
            "mdl-aabb-face-missing",
            place().face(f as u32).position(
                mesh.positions
                    .get(usize::from(at))
                    .copied()
                    .unwrap_or_default(),
            ),
            format!("{missing} faces (first: face {f}) are in no leaf of the AABB tree"),
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
