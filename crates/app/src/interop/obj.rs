//! Wavefront OBJ: [`write`] a [`Scene`] as OBJ text and its MTL, and [`read`] OBJ text back to a
//! [`Soup`] (a hand parser: every error names its line and column).
//!
//! Layout: y up as 3-D tools expect (`(x, z, -y)` of the game's `(x, y, z)`), one `o` per node
//! with a mesh (areas: one per LYT room, in LYT order, empty for rooms without a walkmesh), a
//! `# areakit-node {json}` comment carrying the node's `extras`, faces in the walkmesh's own
//! order with a `g`/`usemtl` line wherever the material changes, paths as `l` lines. Meshes
//! with normals and UVs (binary models) add `vn`/`vt` lines, one per vertex, numbered like the
//! vertices; a material's extras (a model's texture name) are a `# areakit-material` comment.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

use super::{Mat4, Scene, Shape, Soup, SoupTriangle, invalid};
use crate::Error;
use crate::session::Session;

/// The first line of areakit's OBJ files (import keeps their vertex table and face order).
pub const HEADER: &str = "# areakit";
const NODE_COMMENT: &str = "# areakit-node ";

/// The file name of a group's diffuse texture beside the OBJ (`name.png`, lower case), when the
/// scene has its picture.
pub fn texture_file(scene: &Scene, maps: &super::Maps) -> Option<String> {
    let key = maps.diffuse.as_ref()?.to_ascii_lowercase();
    scene
        .images
        .contains_key(&key)
        .then(|| format!("{key}.png"))
}

/// The OBJ and MTL texts of a scene; `mtl_name` is the MTL file's name for `mtllib`.
pub fn write(scene: &Scene, mtl_name: &str) -> (String, String) {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{HEADER} {} export (Wavefront OBJ)",
        env!("CARGO_PKG_VERSION")
    );
    o.push_str("# y up: each vertex is (x, z, -y) of the game's (x, y, z), in metres.\n");
    o.push_str(
        "# faces in the walkmesh's own order; `usemtl` names the game's surface material.\n",
    );
    let _ = writeln!(o, "mtllib {mtl_name}");
    let mut mtl = String::from("# areakit materials: the colours of areakit's maps\n");
    let mut materials: Vec<String> = Vec::new();
    let world = scene.world_matrices();
    let mut next_vertex = 1u64;
    let (mut next_uv, mut next_normal) = (1u64, 1u64);
    for (ni, n) in scene.nodes.iter().enumerate() {
        // Every LYT room gets exactly one `o` (so `--room-index` counts objects as rooms).
        let kind = n.extras.get("kind").and_then(Value::as_str);
        let room_placeholder = (kind == Some("room")
            && n.extras.get("has_walkmesh") == Some(&Value::Bool(false)))
            || kind == Some("walkmesh");
        if n.mesh.is_none() && !room_placeholder {
            continue;
        }
        let _ = writeln!(o, "o {}", one_line(&n.name));
        let mut extras = n.extras.clone();
        let Some(mesh) = &n.mesh else {
            let _ = writeln!(o, "{NODE_COMMENT}{extras}");
            continue;
        };
        // Faces in source order (groups interleave), each with its group.
        let mut faces: Vec<(u32, usize, [u32; 3])> = Vec::new();
        for (gi, g) in mesh.groups.iter().enumerate() {
            if let Shape::Triangles {
                triangles,
                faces: keys,
            } = &g.shape
            {
                faces.extend(keys.iter().zip(triangles).map(|(&k, &t)| (k, gi, t)));
            }
        }
        faces.sort_by_key(|f| f.0);
        if faces.iter().enumerate().any(|(i, f)| f.0 as usize != i)
            && let Value::Object(map) = &mut extras
        {
            map.insert(
                "face_ids".into(),
                Value::from(faces.iter().map(|f| f.0).collect::<Vec<_>>()),
            );
        }
        let _ = writeln!(o, "{NODE_COMMENT}{extras}");
        let nv = mesh.positions.len();
        let (uvs, normals) = write_vertices(&mut o, mesh, &Mat4::Z_UP_TO_Y_UP.mul(&world[ni]));
        // `f v`, `f v/vt`, `f v//vn` or `f v/vt/vn`: vertex `i` of the mesh has the `i`-th
        // `vt` and `vn` line of the mesh too.
        let (vt0, vn0) = (next_uv, next_normal);
        let corner = |i: u32| {
            let v = next_vertex + u64::from(i);
            let (t, n) = (vt0 + u64::from(i), vn0 + u64::from(i));
            match (uvs, normals) {
                (false, false) => v.to_string(),
                (true, false) => format!("{v}/{t}"),
                (false, true) => format!("{v}//{n}"),
                (true, true) => format!("{v}/{t}/{n}"),
            }
        };
        let mut current = usize::MAX;
        for (_, gi, t) in &faces {
            if *gi != current {
                current = *gi;
                let g = &mesh.groups[*gi];
                let _ = writeln!(
                    o,
                    "g {}\nusemtl {}",
                    one_line(&g.material),
                    one_line(&g.material)
                );
            }
            let _ = writeln!(o, "f {} {} {}", corner(t[0]), corner(t[1]), corner(t[2]));
        }
        for g in &mesh.groups {
            if let Shape::LineStrip(l) = &g.shape {
                let _ = writeln!(
                    o,
                    "g {}\nusemtl {}",
                    one_line(&g.material),
                    one_line(&g.material)
                );
                o.push('l');
                for v in l {
                    let _ = write!(o, " {}", next_vertex + u64::from(*v));
                }
                o.push('\n');
            }
        }
        for g in &mesh.groups {
            if !materials.contains(&g.material) {
                materials.push(g.material.clone());
                write_material(&mut mtl, scene, g);
            }
        }
        next_vertex += nv as u64;
        if uvs {
            next_uv += nv as u64;
        }
        if normals {
            next_normal += nv as u64;
        }
    }
    (o, mtl)
}

/// The position of a `v` line (its words `w`, the keyword first).
fn vertex(path: &Path, line_no: usize, line: &str, w: &[(usize, &str)]) -> Result<[f32; 3], Error> {
    let mut p = [0f32; 3];
    for (k, slot) in p.iter_mut().enumerate() {
        let (col, word) = w.get(k + 1).copied().unwrap_or((line.len() + 1, ""));
        *slot = word
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| {
                let what = format!(
                    "expected a finite number (vertex coordinate {}), found `{word}`",
                    k + 1
                );
                err_at(path, line_no, col, what)
            })?;
    }
    Ok(p)
}

/// The soup indices of a face's corners (`corners`: the words after `f`; `v`, `v/vt`,
/// `v//vn`, negative numbers counting back), taking into the soup a vertex of an object not
/// selected (`map` says where each `v` of the file went).
fn face_corners(
    path: &Path,
    line_no: usize,
    corners: &[(usize, &str)],
    all: &[[f32; 3]],
    map: &mut [Option<u32>],
    soup: &mut Soup,
) -> Result<Vec<u32>, Error> {
    let mut out = Vec::with_capacity(corners.len());
    for &(col, word) in corners {
        let first = word.split('/').next().unwrap_or("");
        let n: i64 = first.parse().map_err(|_| {
            err_at(
                path,
                line_no,
                col,
                format!("expected a vertex number, found `{word}`"),
            )
        })?;
        let count = all.len() as i64;
        let index = if n > 0 { n - 1 } else { count + n };
        if n == 0 || index < 0 || index >= count {
            return Err(err_at(
                path,
                line_no,
                col,
                format!("vertex {n} does not exist ({count} vertices so far)"),
            ));
        }
        let index = index as usize;
        let soup_index = match map[index] {
            Some(s) => s,
            None => {
                let s = soup.positions.len() as u32;
                soup.positions.push(all[index]);
                map[index] = Some(s);
                s
            }
        };
        out.push(soup_index);
    }
    Ok(out)
}

/// The `v`, `vt` and `vn` lines of a mesh (the last two when every vertex has one), in the
/// OBJ's y-up space; returns whether `vt` and `vn` lines were written.
fn write_vertices(o: &mut String, mesh: &super::Mesh, m: &Mat4) -> (bool, bool) {
    for p in &mesh.positions {
        let [x, y, z] = m.point(*p);
        let _ = writeln!(o, "v {x} {y} {z}");
    }
    let nv = mesh.positions.len();
    let uvs = mesh.uvs.len() == nv;
    let normals = mesh.normals.len() == nv;
    if uvs {
        for [u, v] in &mesh.uvs {
            let _ = writeln!(o, "vt {u} {v}");
        }
    }
    if normals {
        for n in &mesh.normals {
            let [x, y, z] = m.vector(*n);
            let len = (x * x + y * y + z * z).sqrt();
            let [x, y, z] = if len > 0.0 {
                [x / len, y / len, z / len].map(|c| c as f32)
            } else {
                [0.0, 1.0, 0.0]
            };
            let _ = writeln!(o, "vn {x} {y} {z}");
        }
    }
    (uvs, normals)
}

/// A group's `newmtl` entry: its colour (white under a diffuse texture the scene has, the PNG
/// beside as `map_Kd`) and areakit's material extras as a comment.
fn write_material(mtl: &mut String, scene: &Scene, g: &super::Group) {
    let [r, gr, b, a] = g.colour;
    let image = texture_file(scene, &g.maps);
    let (r, gr, b) = if image.is_some() {
        (1.0, 1.0, 1.0)
    } else {
        (r, gr, b)
    };
    let _ = writeln!(
        mtl,
        "\nnewmtl {}\nKd {r} {gr} {b}\nKa 0 0 0\nd {a}\nillum 1",
        one_line(&g.material)
    );
    if let Some(file) = image {
        let _ = writeln!(mtl, "map_Kd {file}");
    }
    if !g.material_extras.is_null() {
        let _ = writeln!(mtl, "# areakit-material {}", g.material_extras);
    }
}

fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

fn err_at(path: &Path, line: usize, column: usize, msg: impl Into<String>) -> Error {
    invalid(
        path,
        areakit_formats::Location::LineCol {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        },
        msg,
    )
}

/// The words of a line with their 1-based byte columns.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s + 1, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s + 1, &line[s..]));
    }
    out
}

/// Reads an OBJ file (its text) to a soup in the game's coordinates (y up turned back to z
/// up). Polygons are split into fans. `room` keeps only the faces of the `room`-th object
/// (`o` line, 0-based).
pub fn read(session: &Session, path: &Path, room: Option<usize>) -> Result<Soup, Error> {
    let data = session.read(path)?;
    let text = std::str::from_utf8(&data).map_err(|e| {
        let before = &data[..e.valid_up_to()];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = before.len()
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1)
            + 1;
        err_at(path, line, col, "not UTF-8 text")
    })?;
    parse(path, text, room)
}

/// [`read`] on text already in memory (`path` names it in errors).
pub fn parse(path: &Path, text: &str, room: Option<usize>) -> Result<Soup, Error> {
    let mut soup = Soup {
        areakit: text.starts_with(HEADER),
        ..Soup::default()
    };
    let back = Mat4::Y_UP_TO_Z_UP;
    // Every `v` of the file, and its index in the soup once used.
    let mut all: Vec<[f32; 3]> = Vec::new();
    let mut map: Vec<Option<u32>> = Vec::new();
    let mut object: Option<usize> = None;
    let mut objects = 0usize;
    let mut material: Option<(String, usize, usize)> = None;
    let mut node_extras: Option<Value> = None;
    let mut face_in_object = 0usize;
    // Without a room, every object but those of an area's models layer (room models).
    let mut models_layer = false;
    let selected = |object: Option<usize>, models_layer: bool| {
        if room.is_none() {
            !models_layer
        } else {
            object == room
        }
    };
    for (li, raw_line) in text.split('\n').enumerate() {
        let line_no = li + 1;
        let line = raw_line.strip_suffix('\r').unwrap_or(raw_line);
        if let Some(json_text) = line.strip_prefix(NODE_COMMENT) {
            if soup.areakit && selected(object, models_layer) {
                let v: Value = serde_json::from_str(json_text).map_err(|e| {
                    err_at(
                        path,
                        line_no,
                        NODE_COMMENT.len() + e.column(),
                        format!("areakit-node comment: {e}"),
                    )
                })?;
                if room.is_none() && v.get("layer").and_then(Value::as_str) == Some("models") {
                    models_layer = true;
                    continue;
                }
                if v.get("kind").and_then(Value::as_str) == Some("walkmesh") {
                    soup.rooms.push((soup.triangles.len(), v.clone()));
                }
                node_extras = Some(v);
            }
            continue;
        }
        let w = words(line);
        let Some(&(_, keyword)) = w.first() else {
            continue;
        };
        match keyword {
            "v" => {
                let p = back.point(vertex(path, line_no, line, &w)?);
                all.push(p);
                if selected(object, models_layer) {
                    map.push(Some(soup.positions.len() as u32));
                    soup.positions.push(p);
                } else {
                    map.push(None);
                }
            }
            "o" => {
                object = Some(objects);
                objects += 1;
                models_layer = false;
                node_extras = None;
                face_in_object = 0;
            }
            "usemtl" => {
                let (col, _) = w.get(1).copied().ok_or_else(|| {
                    err_at(
                        path,
                        line_no,
                        line.len() + 1,
                        "expected a material name after usemtl",
                    )
                })?;
                let name = line[col - 1..].trim().to_string();
                material = Some((name, line_no, col));
            }
            "f" if selected(object, models_layer) => {
                if w.len() < 4 {
                    return Err(err_at(
                        path,
                        line_no,
                        line.len() + 1,
                        format!("a face needs at least 3 vertices, found {}", w.len() - 1),
                    ));
                }
                let corners = face_corners(path, line_no, &w[1..], &all, &mut map, &mut soup)?;
                let (name, mline, mcol) = material.clone().ok_or_else(|| {
                    err_at(
                        path,
                        line_no,
                        1,
                        "a face before any `usemtl`: its material is unknown",
                    )
                })?;
                for k in 2..corners.len() {
                    let key = if soup.areakit && corners.len() == 3 {
                        match node_extras.as_ref().and_then(|e| e.get("face_ids")) {
                            Some(ids) => ids
                                .get(face_in_object)
                                .and_then(Value::as_u64)
                                .map(|v| v as u32),
                            None => u32::try_from(face_in_object).ok(),
                        }
                    } else {
                        None
                    };
                    soup.triangles.push(SoupTriangle {
                        vertices: [corners[0], corners[k - 1], corners[k]],
                        material: name.clone(),
                        origin: format!("line {mline}:{mcol}"),
                        key,
                    });
                    face_in_object += 1;
                }
            }
            _ => {}
        }
    }
    if let Some(r) = room
        && r >= objects
    {
        return Err(Error::usage(format!(
            "{}: room index {r}: no such object (the file has {objects} `o` objects)",
            path.display()
        )));
    }
    Ok(soup)
}
