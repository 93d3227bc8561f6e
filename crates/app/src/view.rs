//! `areakit view`: one self-contained HTML page (data and script inline, no network) that
//! shows a walkmesh, an area or an NWN2 terrain with pan, zoom, layers and a face inspector.
//!
//! Everything the page shows is computed here: area-space vertices, faces, materials,
//! normals, neighbours, boundary and transition edges, transition labels, room names, AABB
//! boxes with their depth, the findings of `check`, placed objects, paths and the top-down
//! outlines of an area's room models (a layer under the walkmesh). The page
//! (`src/viewer/page.html`, `src/viewer/viewer.js`) only draws and picks. Large arrays travel
//! as base64 little-endian typed arrays so a 100 000-face mesh stays a few MB and decodes fast.

use std::path::Path;

use base64::Engine as _;
use serde_json::{Value, json};

use areakit_formats::bwm::Material;

use crate::Error;
use crate::picture::{MapInput, Overlays, load_picture};
use crate::render::{MODEL_FILL, MODEL_STROKE, MapObject, material_colour, transition_labels};
use crate::session::{Session, refuse_overwrite, write_atomic};

const PAGE: &str = include_str!("viewer/page.html");
const SCRIPT: &str = include_str!("viewer/viewer.js");

/// What a page was made from (counts for the command's report).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ViewSummary {
    /// Faces shown.
    pub faces: usize,
    /// Rooms shown.
    pub rooms: usize,
    /// Findings listed.
    pub findings: usize,
    /// Size of the page in bytes.
    pub bytes: usize,
}

fn b64_f32(v: impl IntoIterator<Item = f32>) -> String {
    let bytes: Vec<u8> = v.into_iter().flat_map(f32::to_le_bytes).collect();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn b64_i32(v: impl IntoIterator<Item = i32>) -> String {
    let bytes: Vec<u8> = v.into_iter().flat_map(i32::to_le_bytes).collect();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn b64_u16(v: impl IntoIterator<Item = u16>) -> String {
    let bytes: Vec<u8> = v.into_iter().flat_map(u16::to_le_bytes).collect();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn b64_i16(v: impl IntoIterator<Item = i16>) -> String {
    let bytes: Vec<u8> = v.into_iter().flat_map(i16::to_le_bytes).collect();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The deepest AABB level the page carries (at most 2^13 - 1 boxes per room): deeper boxes
/// are smaller than a face or two and would make big pages much bigger.
pub const MAX_AABB_DEPTH: u32 = 12;

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// A finite number for JSON (NaN and infinities become 0: a hostile file must not break the
/// page's JSON).
fn fin(x: f32) -> f32 {
    if x.is_finite() { x } else { 0.0 }
}

/// A coordinate rounded to centimetres as an `f64` (so the JSON says `12.35`, not the `f32`'s
/// `12.350000381469727`); non-finite as 0.
fn cm(x: f32) -> f64 {
    (f64::from(fin(x)) * 100.0).round() / 100.0
}

/// The data object the page reads (`<script id="areakit-data" type="application/json">`).
pub fn view_data(map: &MapInput, objects: &[MapObject], paths: &[Vec<[f32; 3]>]) -> Value {
    let mut vertices: Vec<f32> = Vec::new();
    let mut faces: Vec<i32> = Vec::new();
    let mut face_material: Vec<u16> = Vec::new();
    let mut normals: Vec<f32> = Vec::new();
    let mut neighbours: Vec<i32> = Vec::new();
    let mut edge_kind: Vec<i16> = Vec::new();
    let mut rooms = Vec::new();
    let mut materials: Vec<Material> = Vec::new();
    let mut labels = Vec::new();
    let mut aabb: Vec<f32> = Vec::new();
    let mut aabb_depth: Vec<u16> = Vec::new();
    for (name, b) in &map.rooms {
        let v0 = vertices.len() / 3;
        let f0 = face_material.len();
        for p in &b.vertices {
            vertices.extend(p.iter().map(|c| fin(*c)));
        }
        // Faces with a vertex out of range are kept (their index matters) with corners -1:
        // the page draws them nowhere.
        let nv = b.vertices.len();
        let mut lo = [f32::INFINITY; 2];
        let mut hi = [f32::NEG_INFINITY; 2];
        for (fi, f) in b.faces.iter().enumerate() {
            let ok = f.vertices.iter().all(|&v| (v as usize) < nv);
            for &v in &f.vertices {
                faces.push(if ok { (v0 + v as usize) as i32 } else { -1 });
            }
            let mi = match materials.iter().position(|m| *m == f.material) {
                Some(i) => i,
                None => {
                    materials.push(f.material);
                    materials.len() - 1
                }
            };
            face_material.push(u16::try_from(mi).unwrap_or(u16::MAX));
            let n = if ok {
                let [a, c, d] = f.vertices.map(|v| b.vertices[v as usize]);
                let u = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
                let w = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
                let n = [
                    u[1] * w[2] - u[2] * w[1],
                    u[2] * w[0] - u[0] * w[2],
                    u[0] * w[1] - u[1] * w[0],
                ];
                let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                for q in [a, c, d] {
                    for k in 0..2 {
                        lo[k] = lo[k].min(q[k]);
                        hi[k] = hi[k].max(q[k]);
                    }
                }
                if l > 0.0 && l.is_finite() {
                    n.map(|x| x / l)
                } else {
                    [0.0; 3]
                }
            } else {
                [0.0; 3]
            };
            normals.extend(n);
            // Neighbours: the room's own adjacency (walkable faces), as room-local faces.
            let adj = b.adjacency.get(fi).copied().unwrap_or([-1; 3]);
            neighbours.extend(adj.map(|a| if a < 0 { -1 } else { a / 3 }));
            edge_kind.extend([-2, -2, -2]);
        }
        // Edge kinds: -2 inner (or unknown), -1 boundary, >= 0 a transition (i16: a larger
        // room index shows as 32767).
        let mut listed = std::collections::HashSet::new();
        for e in &b.edges {
            listed.insert(e.edge);
            if let Some(slot) = edge_kind.get_mut(f0 * 3 + e.edge as usize)
                && (e.face() as usize) < b.faces.len()
            {
                *slot = i16::try_from(e.transition.max(-1)).unwrap_or(i16::MAX);
            }
        }
        for (fi, adj) in b.adjacency.iter().enumerate() {
            for (k, &a) in adj.iter().enumerate() {
                let code = (fi * 3 + k) as u32;
                if a == -1
                    && !listed.contains(&code)
                    && let Some(slot) = edge_kind.get_mut(f0 * 3 + fi * 3 + k)
                {
                    *slot = -1;
                }
            }
        }
        for l in transition_labels(b, [0.0; 3], &map.room_names) {
            labels.push(json!({
                "x": fin(l.at[0]), "y": fin(l.at[1]),
                "dx": fin(l.inward[0]), "dy": fin(l.inward[1]),
                "text": l.text,
            }));
        }
        // AABB boxes with their depth (pre-order from the root; unreachable nodes left out).
        let mut depth = vec![u32::MAX; b.aabb_nodes.len()];
        let mut stack = if b.aabb_nodes.is_empty() {
            vec![]
        } else {
            vec![(0usize, 0u32)]
        };
        while let Some((i, d)) = stack.pop() {
            if depth[i] != u32::MAX || d > MAX_AABB_DEPTH {
                continue;
            }
            depth[i] = d;
            let n = &b.aabb_nodes[i];
            aabb.extend([fin(n.min[0]), fin(n.min[1]), fin(n.max[0]), fin(n.max[1])]);
            aabb_depth.push(d as u16);
            for c in [n.left, n.right] {
                if (c as usize) < b.aabb_nodes.len() {
                    stack.push((c as usize, d + 1));
                }
            }
        }
        rooms.push(json!({
            "name": name,
            "face_start": f0,
            "face_count": b.faces.len(),
            "centre": if lo[0].is_finite() {
                json!([fin((lo[0] + hi[0]) / 2.0), fin((lo[1] + hi[1]) / 2.0)])
            } else {
                Value::Null
            },
        }));
    }
    let findings: Vec<Value> = map
        .findings
        .iter()
        .enumerate()
        .map(|(n, (ri, f))| {
            let pos = f.place.position.filter(|p| p.iter().all(|c| c.is_finite()));
            json!({
                "n": n + 1,
                "severity": f.severity.name(),
                "code": f.code,
                "message": f.message,
                "room": map.rooms.get(*ri).and_then(|r| r.0.clone()),
                "position": pos,
            })
        })
        .collect();
    let objects: Vec<Value> = objects
        .iter()
        .map(|o| {
            json!({
                "label": o.label,
                "triangles": o.triangles.iter().flatten().flat_map(|p| [fin(p[0]), fin(p[1])]).collect::<Vec<_>>(),
            })
        })
        .collect();
    let paths: Vec<Value> = paths
        .iter()
        .map(|p| json!(p.iter().map(|q| q.map(fin)).collect::<Vec<_>>()))
        .collect();
    // Room models: per room its outline loops, each a flat [x, y, x, y, ...] in centimetres'
    // precision (the outline's own), written short.
    let models: Vec<Value> = map
        .models
        .iter()
        .map(|m| {
            json!({
                "room": m.room,
                "loops": m.loops.iter().map(|l| l.iter().flat_map(|p| [cm(p[0]), cm(p[1])]).collect::<Vec<_>>()).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "title": map.title,
        "kind": if map.trx { "trx" } else if map.room_names.is_empty() { "walkmesh" } else { "area" },
        "materials": materials.iter().map(|m| json!({
            "id": m.id(),
            "name": m.name(),
            "walkable": m.is_walkable(),
            "colour": hex(material_colour(*m)),
        })).collect::<Vec<_>>(),
        "rooms": rooms,
        "room_names": map.room_names,
        "face_count": face_material.len(),
        "vertices": b64_f32(vertices),
        "faces": b64_i32(faces),
        "face_material": b64_u16(face_material),
        "normals": b64_f32(normals),
        "neighbours": b64_i32(neighbours),
        "edge_kind": b64_i16(edge_kind),
        "aabb": b64_f32(aabb),
        "aabb_depth": b64_u16(aabb_depth),
        "transition_labels": labels,
        "findings": findings,
        "objects": objects,
        "paths": paths,
        "models": models,
        "model_colours": {"fill": MODEL_FILL, "stroke": MODEL_STROKE},
    })
}

/// The data as JSON for a `<script>` element: `</` written `<\/`, so no string in the data
/// can close the element.
pub fn script_json(data: &Value) -> String {
    serde_json::to_string(data)
        .unwrap_or_else(|_| "{}".to_string())
        .replace("</", "<\\/")
}

/// The data's `title` as HTML text.
pub fn html_title(data: &Value) -> String {
    data["title"]
        .as_str()
        .unwrap_or("areakit view")
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A usage error unless `output` ends in `.html` (or `.htm`).
pub fn check_page_name(output: &Path) -> Result<(), Error> {
    let html = output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    if html {
        Ok(())
    } else {
        Err(Error::usage(format!(
            "{}: the page must end in .html",
            output.display()
        )))
    }
}

/// The page: the template with the data and the script inline ([`script_json`]).
pub fn view_page(data: &Value) -> String {
    let json = script_json(data);
    let title = html_title(data);
    PAGE.replacen("{{TITLE}}", &title, 1)
        .replacen("{{DATA}}", &json, 1)
        .replacen("{{SCRIPT}}", SCRIPT, 1)
}

/// `areakit view INPUT -o PAGE.html`: loads the input (with the findings of `check`), the
/// overlays, and writes the page atomically. Returns the summary and a message for each path
/// that was not found.
pub fn view_file(
    session: &Session,
    input: &Path,
    output: &Path,
    overlays: &Overlays,
) -> Result<(ViewSummary, Vec<String>), Error> {
    check_page_name(output)?;
    refuse_overwrite(input, output, false)?;
    let (map, drawn) = load_picture(session, input, true, overlays)?;
    let data = view_data(&map, &drawn.objects, &drawn.paths);
    let page = view_page(&data);
    write_atomic(output, page.as_bytes())?;
    Ok((
        ViewSummary {
            faces: map.rooms.iter().map(|r| r.1.faces.len()).sum(),
            rooms: map.rooms.len(),
            findings: map.findings.len(),
            bytes: page.len(),
        },
        drawn.notes,
    ))
}

/// Starts the system's browser on `page` (without waiting for it).
pub fn open_in_browser(page: &Path) -> Result<(), Error> {
    let page = std::path::absolute(page).map_err(|e| Error::io(page, e))?;
    let mut cmd = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    cmd.arg(&page)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
        .map_err(|e| Error::io(&page, e))
}
