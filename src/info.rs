//! What `areakit info` reports about a file: a JSON object per format and a human rendering.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use areakit_formats::bwm::Bwm;
use serde_json::{Value, json};

use crate::document::Document;

/// The `info` JSON object of a document.
pub fn info_json(path: &Path, doc: &Document) -> Value {
    let mut v = match doc {
        Document::Bwm(m) => bwm_json(path, m),
        Document::Lyt(l) => crate::area::lyt_info(l),
        Document::Vis(l) => crate::area::vis_info(l),
        Document::MdlAscii(m) => mdl_json(m),
        Document::Trx(t) => trx_json(t),
    };
    if let Value::Object(map) = &mut v {
        if !map.contains_key("path") {
            let mut with_path = serde_json::Map::new();
            with_path.insert("path".into(), json!(path.display().to_string()));
            with_path.append(map);
            *map = with_path;
        }
    }
    v
}

/// The `info` JSON object of an MDL ASCII model: `format` (`"mdl-ascii"`), `name`,
/// `supermodel`, `classification`, `nodes` (total), `nodes_by_type`, `animations`,
/// `vertices` and `faces` (totals over geometry nodes).
pub fn mdl_json(m: &areakit_formats::mdl_ascii::Model) -> Value {
    let s = m.summary();
    let by_type: serde_json::Map<String, Value> = s
        .nodes_by_type
        .iter()
        .map(|(k, n)| (k.clone(), json!(n)))
        .collect();
    json!({
        "format": "mdl-ascii",
        "name": s.name,
        "supermodel": s.supermodel,
        "classification": s.classification,
        "nodes": s.node_count,
        "nodes_by_type": by_type,
        "animations": s.animation_count,
        "vertices": s.vertex_count,
        "faces": s.face_count,
    })
}

/// The `info` JSON object of an NWN2 terrain file: `format` (`"trx"` when baked, else
/// `"trn"`), `version`, `packets` (`tag` and `size` each) and, with an ASWM packet, `vertices`,
/// `edges`, `triangles`, `walkable_triangles`, `tiles`, `islands`.
pub fn trx_json(t: &areakit_formats::trx::Trx) -> Value {
    let s = areakit_formats::trx::summary(t);
    let packets: Vec<Value> = s
        .packets
        .iter()
        .map(|p| json!({"tag": p.tag, "size": p.size}))
        .collect();
    let mut v = json!({
        "format": s.format,
        "version": format!("{}.{}", s.version.0, s.version.1),
        "packets": packets,
    });
    if let (Some(w), Value::Object(map)) = (s.walkmesh, &mut v) {
        for (k, n) in [
            ("vertices", w.vertices),
            ("edges", w.edges),
            ("triangles", w.triangles),
            ("walkable_triangles", w.walkable_triangles),
            ("tiles", w.tiles),
            ("islands", w.islands),
        ] {
            map.insert(k.into(), json!(n));
        }
    }
    v
}

/// The `info` JSON object of a BWM walkmesh.
///
/// Keys: `format` (`"bwm"`), `kind` (`wok`/`pwk`/`dwk`), `type` (the raw type word), the header
/// counts `vertices`, `faces`, `walkable_faces` (the adjacency count), `aabb_nodes`, `edges`,
/// `perimeters` (loops), `materials` (name → face count), `bounds` (`min`/`max`, null without
/// vertices), and the header vectors `position`, `relative_use`, `absolute_use`.
pub fn bwm_json(path: &Path, m: &Bwm) -> Value {
    let ext = path.extension().and_then(|e| e.to_str());
    let mut materials: BTreeMap<String, usize> = BTreeMap::new();
    for f in &m.faces {
        *materials.entry(f.material.name().into_owned()).or_default() += 1;
    }
    let bounds = m
        .bounds()
        .map(|(min, max)| json!({"min": min, "max": max}))
        .unwrap_or(Value::Null);
    json!({
        "path": path.display().to_string(),
        "format": "bwm",
        "kind": m.kind(ext).name(),
        "type": m.walkmesh_type.raw(),
        "vertices": m.vertices.len(),
        "faces": m.faces.len(),
        "walkable_faces": m.walkable_face_count(),
        "walkable_by_material": m.faces.iter().filter(|f| f.material.is_walkable()).count(),
        "aabb_nodes": m.aabb_nodes.len(),
        "edges": m.edges.len(),
        "perimeters": m.perimeter_loops(),
        "transitions": m.edges.iter().filter(|e| e.transition >= 0).count(),
        "materials": materials,
        "bounds": bounds,
        "position": m.position,
        "relative_use": m.relative_use,
        "absolute_use": m.absolute_use,
    })
}

/// A human-readable rendering of an `info` JSON object: one `key: value` line per field, with
/// nested maps indented.
pub fn human(v: &Value) -> String {
    let mut out = String::new();
    if let Value::Object(map) = v {
        for (k, val) in map {
            write_field(&mut out, k, val, 0);
        }
    }
    out
}

fn write_field(out: &mut String, key: &str, v: &Value, depth: usize) {
    let pad = "  ".repeat(depth);
    match v {
        Value::Object(map) if !map.is_empty() && !is_vector_pair(v) => {
            let _ = writeln!(out, "{pad}{key}:");
            for (k, val) in map {
                write_field(out, k, val, depth + 1);
            }
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, x)| format!("{k} {}", compact(x)))
                .collect();
            let _ = writeln!(out, "{pad}{key}: {}", parts.join(", "));
        }
        Value::Array(items) if items.iter().all(|i| i.is_object()) && !items.is_empty() => {
            let _ = writeln!(out, "{pad}{key}:");
            for (i, item) in items.iter().enumerate() {
                write_field(out, &format!("[{i}]"), item, depth + 1);
            }
        }
        other => {
            let _ = writeln!(out, "{pad}{key}: {}", compact(other));
        }
    }
}

fn is_vector_pair(v: &Value) -> bool {
    matches!(v, Value::Object(m) if m.contains_key("min") && m.contains_key("max"))
}

fn compact(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Array(a) => format!("[{}]", a.iter().map(compact).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}
