//! What `areakit info` reports about a file: a JSON object per format and a human rendering.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use areakit_formats::bwm::Bwm;
use serde_json::{Value, json};

use crate::document::Document;
use crate::session::Session;

/// The `info` JSON object of a document.
pub fn info_json(path: &Path, doc: &Document) -> Value {
    let mut v = match doc {
        Document::Bwm(m) => bwm_json(path, m),
        Document::Lyt(l) => areakit_area::area::lyt_info(l),
        Document::Vis(l) => areakit_area::area::vis_info(l),
        Document::MdlAscii(m) => mdl_json(m),
        Document::Trx(t) => trx_json(t),
        Document::Gff(g) => gff_json(g),
        Document::TwoDa(t) => twoda_json(t),
        Document::Erf(e) => erf_json(e),
        Document::Rim(r) => rim_json(r),
        Document::Key(k) => key_json(k),
        Document::Bif(b) => {
            let mut types: BTreeMap<String, usize> = BTreeMap::new();
            for r in &b.resources {
                *types.entry(r.restype.to_string()).or_default() += 1;
            }
            bif_json(b.resources.len(), b.fixed.len(), types)
        }
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

/// The `info` JSON object of a GFF: `format` (`"gff"`), `type` (the four-character file type,
/// trimmed, e.g. `"GIT"`), `version`, `structs`, `fields`, `lists`, `list_elements`, `labels`
/// (distinct) and `depth` (deepest struct nesting).
pub fn gff_json(g: &areakit_formats::gff::Gff) -> Value {
    let s = g.summary();
    json!({
        "format": "gff",
        "type": s.file_type.trim_end(),
        "version": s.version,
        "structs": s.structs,
        "fields": s.fields,
        "lists": s.lists,
        "list_elements": s.list_elements,
        "labels": s.labels,
        "depth": s.depth,
    })
}

/// The `info` JSON object of a 2DA: `format` (`"2da"`), `variant` (`binary`/`text`),
/// `columns`, `rows`, `filled_cells`.
pub fn twoda_json(t: &areakit_formats::twoda::TwoDa) -> Value {
    let s = t.summary();
    json!({
        "format": "2da",
        "variant": s.variant.map(|v| v.name()),
        "columns": s.columns,
        "rows": s.rows,
        "filled_cells": s.filled_cells,
    })
}

/// Resource counts by type (extension, or the decimal id when unknown).
fn type_counts<'a>(
    types: impl Iterator<Item = areakit_formats::restype::ResType> + 'a,
) -> BTreeMap<String, usize> {
    let mut out: BTreeMap<String, usize> = BTreeMap::new();
    for t in types {
        *out.entry(t.to_string()).or_default() += 1;
    }
    out
}

/// The `info` JSON object of an ERF-family capsule: `format` (`"erf"`), `kind` (`ERF`, `MOD`,
/// `SAV`, `HAK`), `resources` (count), `types` (extension → count), `build_year` (since
/// 1900), `build_day`, `description_strref`, `languages` (localized descriptions), `bytes`.
pub fn erf_json(e: &areakit_formats::erf::Erf) -> Value {
    let kind = e.header.kind.magic();
    json!({
        "format": "erf",
        "kind": String::from_utf8_lossy(&kind).trim_end(),
        "resources": e.resources.len(),
        "types": type_counts(e.resources.iter().map(|r| r.restype)),
        "build_year": e.header.build_year,
        "build_day": e.header.build_day,
        "description_strref": e.header.description_strref,
        "languages": e.strings.len(),
        "data_bytes": e.resources.iter().map(|r| r.data.len() as u64).sum::<u64>(),
    })
}

/// The `info` JSON object of a RIM: `format` (`"rim"`), `resources`, `types`, `data_bytes`.
pub fn rim_json(r: &areakit_formats::rim::Rim) -> Value {
    json!({
        "format": "rim",
        "resources": r.resources.len(),
        "types": type_counts(r.resources.iter().map(|m| m.restype)),
        "data_bytes": r.resources.iter().map(|m| m.data.len() as u64).sum::<u64>(),
    })
}

/// The `info` JSON object of a KEY: `format` (`"key"`), `resources` (key entries), `bifs`
/// (each `name`, `size`, `resources`), `types`.
pub fn key_json(k: &areakit_formats::key::Key) -> Value {
    let bifs: Vec<Value> = k
        .bifs
        .iter()
        .enumerate()
        .map(|(i, b)| {
            json!({
                "name": b.name(),
                "size": b.file_size,
                "resources": k.entries_of_bif(i as u32).count(),
            })
        })
        .collect();
    json!({
        "format": "key",
        "resources": k.keys.len(),
        "bifs": bifs,
        "types": type_counts(k.keys.iter().map(|e| e.restype)),
    })
}

/// The `info` JSON object of a BIF: `format` (`"bif"`), `resources` (variable resources),
/// `fixed_resources`, `types`.
pub fn bif_json(resources: usize, fixed: usize, types: BTreeMap<String, usize>) -> Value {
    json!({
        "format": "bif",
        "resources": resources,
        "fixed_resources": fixed,
        "types": types,
    })
}

/// The `info` JSON object of the file at `path` (a file, a capsule member path or, with a game
/// in the session, a resource of the game). A BIF on disk is described from its
/// header and tables alone (a multi-gigabyte BIF is not read whole).
pub fn info_path(session: &Session, path: &Path) -> Result<Value, crate::Error> {
    if path.is_file() && crate::session::file_starts_with(path, b"BIFFV1  ") {
        let mut file = std::fs::File::open(path).map_err(|e| crate::Error::io(path, e))?;
        let index = areakit_formats::bif::BifIndex::read(&mut file).map_err(|e| match e {
            areakit_formats::cursor::StreamError::Io(e) => crate::Error::io(path, e),
            areakit_formats::cursor::StreamError::Decode(e) => crate::Error::invalid(path, e),
        })?;
        let mut v = bif_json(
            index.resources.len(),
            index.fixed.len(),
            type_counts(index.resources.iter().map(|r| r.restype)),
        );
        if let Value::Object(map) = &mut v {
            let mut with_path = serde_json::Map::new();
            with_path.insert("path".into(), json!(path.display().to_string()));
            with_path.append(map);
            *map = with_path;
        }
        return Ok(v);
    }
    let doc = Document::open(session, path)?;
    Ok(info_json(path, &doc))
}
