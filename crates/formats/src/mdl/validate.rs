//! The checks of a binary model: what the engine would misread (errors) and what is legal but
//! suspicious (warnings). `docs/checks.md` lists each code with its evidence.

use super::checks::*;
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
/// - `mdl-skin-bone-missing` (error): a vertex weighted to a bone the skin does not have;
/// - `mdl-shared-node` (warning): an animation node block reached from two parents;
/// - `mdl-trailing-bytes` (warning): bytes after the MDL size the header declares;
/// - `mdl-mdx-size` (warning): the MDX is shorter than the header's MDX size word.
pub fn validate(model: &Model) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, node) in model.nodes.iter().enumerate() {
        let Some(mesh) = &node.mesh else { continue };
        let path = model.node_path(i);
        let place = || Place::default().item(path.clone());
        let view = MeshView {
            positions: &mesh.positions,
            faces: &mesh.faces,
            index_lists: &mesh.index_lists,
        };
        face_findings(&view, &place, &mut out);
        mdx_findings(mesh, node.skin.as_ref(), &place, &mut out);
        if let Some(a) = &node.aabb {
            aabb_findings(&view, a, &place, &mut out);
        }
        if let Some(s) = &node.skin {
            let v = &mesh.vertices;
            let influences = v
                .bone_indices
                .iter()
                .zip(&v.bone_weights)
                .map(|(ix, w)| [(ix[0], w[0]), (ix[1], w[1]), (ix[2], w[2]), (ix[3], w[3])]);
            skin_bone_findings(influences, s.qbones.len(), &place, &mut out);
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
    for a in &model.animations {
        shared_node_findings(&a.geometry.name.as_string(), &a.nodes, &mut out);
    }
    let declared = model.layout.as_ref().map(|l| 12 + u64::from(l.mdl_size));
    trailing_findings(&model.trailing, declared, &mut out);
    if let Some(l) = &model.layout {
        mdx_size_finding(l, &mut out);
    }
    out
}

/// `mdl-mdx-size` (warning): the MDX read is shorter than the header's MDX size word. Every
/// row the meshes name was read (else the model would not have decoded); what is missing is
/// after them (the end-of-mesh marker row the compiler writes, padding). Some of PyKotor's
/// test models are so; a longer MDX is not reported (the PyKotor models show both).
fn mdx_size_finding(l: &super::layout::Layout, out: &mut Vec<Finding>) {
    if l.mdx_size >= l.mdx_size_word {
        return;
    }
    let rows_end = l.mdx_blocks.iter().map(|&(o, n)| o + n).max().unwrap_or(0);
    out.push(Finding::warning(
        "mdl-mdx-size",
        Place::offset(8),
        format!(
            "the header gives an MDX of {} bytes, but the MDX has {}: the last {} are missing \
             (the rows the meshes name end at MDX offset {rows_end:#x} and are all there)",
            l.mdx_size_word,
            l.mdx_size,
            l.mdx_size_word - l.mdx_size
        ),
    ));
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
