//! areakit's `info` of an NWN compiled model against nwnrs-types' reading of the same bytes:
//! the counts `info` reports (geometry nodes, meshes, vertices, faces, animations) and the node
//! names, in the same pre-order.

use std::path::Path;

use areakit_app::document::Document;
use nwnrs_types::mdl::{BinaryModel, parse_binary_model_bytes};

/// The counts and names both readers give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counts {
    pub nodes: usize,
    pub meshes: usize,
    pub vertices: usize,
    pub faces: usize,
    pub animations: usize,
    /// Geometry node names in pre-order (lower case: nwnrs keeps the case, so does areakit).
    pub names: Vec<String>,
    /// Per animation: its name and node count.
    pub animation_nodes: Vec<(String, usize)>,
}

/// areakit's counts: `info`'s numbers (through [`Document`]), names from the model.
pub fn areakit(path: &Path, bytes: &[u8]) -> Result<Counts, String> {
    let doc = Document::decode(path, bytes).map_err(|e| e.to_string())?;
    let Document::NwnMdl(m) = &doc else {
        return Err("not decoded as an NWN compiled model".into());
    };
    let info = areakit_app::info::nwn_model_info(m);
    Ok(Counts {
        nodes: info.nodes.total,
        meshes: info.meshes,
        vertices: info.vertices,
        faces: info.faces,
        animations: info.animations,
        names: m.nodes.iter().map(|n| n.name()).collect(),
        animation_nodes: m
            .animations
            .iter()
            .map(|a| (a.geometry.name.as_string(), a.nodes.len()))
            .collect(),
    })
}

/// nwnrs-types' counts of the same bytes.
pub fn nwnrs(bytes: &[u8]) -> Result<(Counts, BinaryModel), String> {
    let m = parse_binary_model_bytes(bytes).map_err(|e| e.to_string())?;
    let meshes = m.nodes.iter().filter_map(|n| n.mesh.as_ref());
    let c = Counts {
        nodes: m.nodes.len(),
        meshes: meshes.clone().count(),
        vertices: meshes.clone().map(|x| x.vertices.len()).sum(),
        faces: meshes.map(|x| x.faces.len()).sum(),
        animations: m.animations.len(),
        names: m.nodes.iter().map(|n| n.name.clone()).collect(),
        animation_nodes: m
            .animations
            .iter()
            .map(|a| (a.name.clone(), a.nodes.len()))
            .collect(),
    };
    Ok((c, m))
}

/// What differs between two readings, one line each (empty: they agree).
pub fn differences(a: &Counts, b: &Counts) -> Vec<String> {
    let mut out = Vec::new();
    let pairs = [
        ("nodes", a.nodes, b.nodes),
        ("meshes", a.meshes, b.meshes),
        ("vertices", a.vertices, b.vertices),
        ("faces", a.faces, b.faces),
        ("animations", a.animations, b.animations),
    ];
    for (what, x, y) in pairs {
        if x != y {
            out.push(format!("{what}: areakit {x}, nwnrs {y}"));
        }
    }
    if a.names != b.names {
        let first = a
            .names
            .iter()
            .zip(&b.names)
            .position(|(x, y)| x != y)
            .unwrap_or(a.names.len().min(b.names.len()));
        out.push(format!(
            "node names differ from node {first}: areakit {:?}, nwnrs {:?}",
            a.names.get(first),
            b.names.get(first)
        ));
    }
    if a.animation_nodes != b.animation_nodes {
        let first = a
            .animation_nodes
            .iter()
            .zip(&b.animation_nodes)
            .position(|(x, y)| x != y)
            .unwrap_or(a.animation_nodes.len().min(b.animation_nodes.len()));
        out.push(format!(
            "animations differ from animation {first}: areakit {:?}, nwnrs {:?}",
            a.animation_nodes.get(first),
            b.animation_nodes.get(first)
        ));
    }
    out
}

/// Beyond the counts: every mesh's vertex positions, UV set 1, normals and faces (vertices,
/// material, plane), every controller's type, key times and values, and every animation's
/// events, compared bit for bit between the two readings. One line per difference (the first
/// per node).
pub fn value_differences(path: &Path, bytes: &[u8], theirs: &BinaryModel) -> Vec<String> {
    let Ok(Document::NwnMdl(m)) = Document::decode(path, bytes) else {
        return vec!["not decoded as an NWN compiled model".into()];
    };
    let mut out = Vec::new();
    let bits3 =
        |v: &[[f32; 3]]| -> Vec<[u32; 3]> { v.iter().map(|p| p.map(f32::to_bits)).collect() };
    for (a, b) in m.nodes.iter().zip(&theirs.nodes) {
        let name = a.name();
        if let (Some(x), Some(y)) = (&a.mesh, &b.mesh) {
            if bits3(x.positions()) != bits3(&y.vertices) {
                out.push(format!("{name}: vertex positions differ"));
            }
            let ours_uv: Vec<[u32; 2]> = x.uvs[0]
                .iter()
                .flatten()
                .map(|t| t.map(f32::to_bits))
                .collect();
            let theirs_uv: Vec<[u32; 2]> = y
                .uv_sets
                .iter()
                .find(|s| s.index == 0)
                .map(|s| s.coordinates.iter().map(|t| t.map(f32::to_bits)).collect())
                .unwrap_or_default();
            if ours_uv != theirs_uv {
                out.push(format!("{name}: UV set 1 differs"));
            }
            if bits3(x.normals.as_deref().unwrap_or_default()) != bits3(&y.normals) {
                out.push(format!("{name}: normals differ"));
            }
            let faces_a: Vec<_> = x
                .faces
                .iter()
                .map(|f| {
                    (
                        f.vertices,
                        f.material as i32,
                        f.normal.map(f32::to_bits),
                        f.distance.to_bits(),
                    )
                })
                .collect();
            let faces_b: Vec<_> = y
                .faces
                .iter()
                .map(|f| {
                    (
                        f.vertex_indices,
                        f.surface_id,
                        f.normal.map(f32::to_bits),
                        f.distance.to_bits(),
                    )
                })
                .collect();
            if faces_a != faces_b {
                out.push(format!("{name}: faces differ"));
            }
        }
        let keys_a: Vec<(u32, Vec<u32>, Vec<u32>)> = a
            .controllers
            .iter()
            .map(|c| {
                let (t, v): (Vec<f32>, Vec<&[f32]>) = a.keys(c).unzip();
                (
                    c.kind,
                    t.iter().map(|x| x.to_bits()).collect(),
                    v.concat().iter().map(|x| x.to_bits()).collect(),
                )
            })
            .collect();
        let keys_b: Vec<(u32, Vec<u32>, Vec<u32>)> = b
            .controllers
            .iter()
            .map(|c| {
                (
                    c.type_id as u32,
                    c.time_keys.iter().map(|x| x.to_bits()).collect(),
                    c.values.concat().iter().map(|x| x.to_bits()).collect(),
                )
            })
            .collect();
        if keys_a != keys_b {
            out.push(format!("{name}: controllers differ"));
        }
    }
    for (a, b) in m.animations.iter().zip(&theirs.animations) {
        let ea: Vec<(u32, String)> = a
            .events
            .iter()
            .map(|e| (e.time.to_bits(), e.name.as_string()))
            .collect();
        let eb: Vec<(u32, String)> = b
            .events
            .iter()
            .map(|e| (e.time.to_bits(), e.name.clone()))
            .collect();
        if ea != eb {
            out.push(format!("animation {}: events differ", b.name));
        }
    }
    out
}
