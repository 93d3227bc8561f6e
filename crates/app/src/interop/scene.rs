//! Scenes from the game's files: a walkmesh, an area (LYT or folder), an NWN2 TRX/TRN, an MDL
//! ASCII model and a binary MDL model (with skins and animations), with placed objects and paths;
//! and [`export_file`], which writes one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use areakit_formats::bwm::{Bwm, Material};
use areakit_formats::mdl_ascii::{self, NodeKind};
use areakit_formats::{Location, trx};
use serde_json::{Value, json};

use super::{ExportFormat, Group, Mesh, Node, Scene, Shape, axis_angle_to_quat, invalid, rgba};
use areakit_area::area::Area;
use areakit_area::navigation::PathMode;
use areakit_geometry::nav::{DEFAULT_SNAP, Endpoint};

use crate::Error;
use crate::document::Document;
use crate::input::{self, Opened};
use crate::navigate::{
    PathContext, PathRequest, file_source, load_objects, no_walkmesh, path_note,
};
use crate::render::material_colour;
use crate::session::{Session, refuse_overwrite, write_atomic};

/// What to export besides the ground.
#[derive(Debug, Clone, Default)]
pub struct ExportOptions {
    /// Leave out non-walkable faces.
    pub walkable_only: bool,
    /// Paths to find (through the navigation library) and export as lines.
    pub paths: Vec<(Endpoint, Endpoint)>,
    /// An `--objects` file: placed objects exported as meshes (and blockers for the paths).
    pub objects: Option<PathBuf>,
}

/// What [`export_file`] wrote.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ExportSummary {
    /// The files written (the OBJ's `.mtl` too).
    pub written: Vec<PathBuf>,
    /// Vertices written (every mesh, objects and paths included).
    pub vertices: usize,
    /// Triangles written.
    pub faces: usize,
    /// Nodes.
    pub nodes: usize,
    /// Messages (a path that was not found).
    pub notes: Vec<String>,
}

/// The glTF/OBJ material name and colour of placed objects and paths.
pub const OBJECT_MATERIAL: (&str, [u8; 3]) = ("placed-object", [150, 40, 40]);
/// The material of exported paths.
pub const PATH_MATERIAL: (&str, [u8; 3]) = ("path", [30, 90, 220]);
/// The material of NWN2 walkable and non-walkable triangles and of MDL meshes that are not
/// walkmeshes.
pub const TRX_WALKABLE: (&str, [u8; 3]) = ("walkable", [200, 195, 180]);
/// See [`TRX_WALKABLE`].
pub const TRX_NON_WALKABLE: (&str, [u8; 3]) = ("non-walkable", [120, 120, 120]);
/// See [`TRX_WALKABLE`].
pub const MODEL_MESH: [u8; 3] = [170, 170, 180];

/// Exports `input` ([`input::open`]: a BWM, an area with its module's placed objects, an
/// NWN2 TRX/TRN, an MDL ASCII model or a binary MDL with its MDX) to `output`, whose extension (`.glb`, `.gltf`, `.obj`)
/// picks the format. Writes atomically; never the input.
pub fn export_file(
    session: &Session,
    input: &Path,
    output: &Path,
    options: &ExportOptions,
) -> Result<ExportSummary, Error> {
    let format = ExportFormat::from_path(output).ok_or_else(|| {
        Error::usage(format!(
            "{}: the output must end in .glb, .gltf or .obj",
            output.display()
        ))
    })?;
    refuse_overwrite(input, output, false)?;
    let opened = input::open(session, Some(input))?;
    let mut scene = scene_of(&opened, input, options.walkable_only)?;
    let notes = add_overlays(session, &mut scene, &opened, input, options)?;
    let (vertices, faces) = scene.counts();
    let mut written = vec![output.to_path_buf()];
    match format {
        ExportFormat::Glb | ExportFormat::Gltf => {
            let bytes = super::gltf::write(&scene, format == ExportFormat::Glb)
                .map_err(|m| invalid(input, Location::Input, m))?;
            write_atomic(output, &bytes)?;
        }
        ExportFormat::Obj => {
            let mtl = output.with_extension("mtl");
            refuse_overwrite(input, &mtl, false)?;
            let mtl_name = mtl
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let (obj_text, mtl_text) = super::obj::write(&scene, &mtl_name);
            write_atomic(&mtl, mtl_text.as_bytes())?;
            write_atomic(output, obj_text.as_bytes())?;
            written.push(mtl);
        }
    }
    Ok(ExportSummary {
        written,
        vertices,
        faces,
        nodes: scene.nodes.len(),
        notes,
    })
}

/// The scene of an input ([`input::open`]): an area, a BWM, an NWN2 TRX/TRN, an MDL ASCII
/// model or a binary MDL, without overlays.
pub fn build_scene(session: &Session, input: &Path, walkable_only: bool) -> Result<Scene, Error> {
    scene_of(&input::open(session, Some(input))?, input, walkable_only)
}

/// The scene of an opened input (`input` names it in messages).
fn scene_of(opened: &Opened, input: &Path, walkable_only: bool) -> Result<Scene, Error> {
    let mut scene = Scene::default();
    let (path, data) = match opened {
        Opened::Area { module, .. } => {
            add_area(&mut scene, &module.area, walkable_only, input)?;
            return Ok(scene);
        }
        Opened::File { path, data } => (path, data),
    };
    let doc = Document::decode(path, data)?;
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match &doc {
        Document::Bwm(b) => {
            check_finite(input, &b.vertices)?;
            let ext = input.extension().and_then(|e| e.to_str());
            let mut node = Node::new(&stem, bwm_extras(b, None, ext));
            node.mesh = walkmesh_mesh(b, walkable_only);
            scene.add(node, None);
        }
        Document::Trx(t) => {
            let w = t.walkmesh().ok_or_else(|| no_walkmesh(input))?;
            check_finite(input, &w.vertices)?;
            let mut node = Node::new(
                &stem,
                json!({"kind": "trx-walkmesh", "triangles": w.triangles.len(), "islands": w.islands.len()}),
            );
            node.mesh = trx_mesh(w, walkable_only);
            scene.add(node, None);
        }
        Document::MdlAscii(m) => add_model(&mut scene, m, &stem, walkable_only),
        Document::Mdl(m) => add_binary_model(&mut scene, m),
        other => {
            return Err(Error::usage(format!(
                "{}: {} has no geometry to export (expected a walkmesh, an area, a TRX or an MDL model)",
                input.display(),
                other.format().name()
            )));
        }
    }
    Ok(scene)
}

fn check_finite(input: &Path, vertices: &[[f32; 3]]) -> Result<(), Error> {
    match vertices
        .iter()
        .position(|v| !v.iter().all(|c| c.is_finite()))
    {
        Some(i) => Err(invalid(
            input,
            Location::Input,
            format!(
                "vertex {i} is not finite: {:?} (glTF and OBJ need finite numbers)",
                vertices[i]
            ),
        )),
        None => Ok(()),
    }
}

/// The `extras` of a walkmesh node: what `import` needs to give the BWM back (header fields and
/// transitions as `[face, side, room]` with the walkmesh's own face numbers) and room names.
pub fn bwm_extras(b: &Bwm, room: Option<(usize, &str)>, ext: Option<&str>) -> Value {
    let transitions: Vec<[i64; 3]> = b
        .edges
        .iter()
        .filter(|e| e.transition >= 0)
        .map(|e| {
            [
                i64::from(e.face()),
                i64::from(e.side()),
                i64::from(e.transition),
            ]
        })
        .collect();
    let mut v = json!({
        "kind": "walkmesh",
        "walkmesh_kind": b.kind(ext).name(),
        "walkmesh_type": b.walkmesh_type.raw(),
        "faces": b.faces.len(),
        "walkable_faces": b.faces.iter().filter(|f| f.material.is_walkable()).count(),
        "position": b.position,
        "relative_use": b.relative_use,
        "absolute_use": b.absolute_use,
        "transitions": transitions,
    });
    if let (Some((index, name)), Value::Object(map)) = (room, &mut v) {
        map.insert("room".into(), json!(name));
        map.insert("room_index".into(), json!(index));
    }
    v
}

/// A walkmesh as a mesh: every vertex (in file order), one group per material in order of
/// first use, triangles in face order inside each group.
pub fn walkmesh_mesh(b: &Bwm, walkable_only: bool) -> Option<Mesh> {
    let nv = b.vertices.len();
    let mut groups: Vec<Group> = Vec::new();
    let mut by_material: HashMap<Material, usize> = HashMap::new();
    for (fi, f) in b.faces.iter().enumerate() {
        if (walkable_only && !f.material.is_walkable())
            || f.vertices.iter().any(|&v| v as usize >= nv)
        {
            continue;
        }
        let gi = *by_material.entry(f.material).or_insert_with(|| {
            let walkable = f.material.is_walkable();
            groups.push(Group {
                material: f.material.name().into_owned(),
                colour: rgba(material_colour(f.material), 1.0),
                extras: json!({"material": f.material.name(), "material_id": f.material.id(), "walkable": walkable}),
                material_extras: Value::Null,
                shape: Shape::Triangles {
                    triangles: Vec::new(),
                    faces: Vec::new(),
                },
            });
            groups.len() - 1
        });
        if let Shape::Triangles { triangles, faces } = &mut groups[gi].shape {
            triangles.push(f.vertices);
            faces.push(fi as u32);
        }
    }
    (!groups.is_empty()).then(|| Mesh {
        positions: b.vertices.clone(),
        groups,
        ..Mesh::default()
    })
}

fn add_area(
    scene: &mut Scene,
    area: &Area,
    walkable_only: bool,
    input: &Path,
) -> Result<(), Error> {
    let root = scene.add(
        Node::new(
            &area.resref,
            json!({"kind": "area", "rooms": area.rooms.len()}),
        ),
        None,
    );
    for (i, room) in area.rooms.iter().enumerate() {
        let position = area
            .lyt
            .rooms
            .get(i)
            .map_or([0.0; 3], |r| r.position)
            .map(f64::from);
        // The room node sits at its LYT position; the WOK's vertices are already in area
        // space, so the mesh node below it takes the position back off (world = vertices).
        let mut node = Node::new(
            &room.name,
            json!({"kind": "room", "room": room.name, "room_index": i, "lyt_position": position, "has_walkmesh": room.wok.is_some()}),
        );
        node.translation = position;
        let room_node = scene.add(node, Some(root));
        if let Some(w) = &room.wok {
            check_finite(room.wok_path.as_deref().unwrap_or(input), &w.vertices)?;
            let mut mesh_node = Node::new(
                format!("{}_walkmesh", room.name),
                bwm_extras(w, Some((i, &room.name)), Some("wok")),
            );
            mesh_node.translation = position.map(|c| -c);
            mesh_node.mesh = walkmesh_mesh(w, walkable_only);
            scene.add(mesh_node, Some(room_node));
        }
    }
    Ok(())
}

fn trx_mesh(w: &trx::Walkmesh, walkable_only: bool) -> Option<Mesh> {
    let nv = w.vertices.len();
    let mut groups = Vec::new();
    for (walk, (name, colour)) in [(true, TRX_WALKABLE), (false, TRX_NON_WALKABLE)] {
        if walkable_only && !walk {
            continue;
        }
        let mut triangles = Vec::new();
        let mut faces = Vec::new();
        for (i, t) in w.triangles.iter().enumerate() {
            if t.is_walkable() == walk && t.vertices.iter().all(|&v| (v as usize) < nv) {
                triangles.push(t.vertices);
                faces.push(i as u32);
            }
        }
        if !triangles.is_empty() {
            groups.push(Group {
                material: name.to_string(),
                colour: rgba(colour, 1.0),
                extras: json!({"walkable": walk}),
                material_extras: Value::Null,
                shape: Shape::Triangles { triangles, faces },
            });
        }
    }
    (!groups.is_empty()).then(|| Mesh {
        positions: w.vertices.clone(),
        groups,
        ..Mesh::default()
    })
}

/// An MDL ASCII model: one node per geometry node with its position and orientation, parents
/// by name (a parent must come earlier in the file; other nodes hang from the model's root).
/// Mesh nodes get their `verts` and `faces`; `aabb` (walkmesh) faces are grouped by surface
/// material, other meshes form one group.
fn add_model(scene: &mut Scene, m: &mdl_ascii::Model, stem: &str, walkable_only: bool) {
    let name = m.name().unwrap_or(stem).to_string();
    let root = scene.add(
        Node::new(
            &name,
            json!({"kind": "model", "model": name, "supermodel": m.supermodel()}),
        ),
        None,
    );
    let mut by_name: HashMap<String, usize> = HashMap::new();
    for n in m.nodes() {
        let parent = n
            .parent()
            .and_then(|p| by_name.get(&p.to_ascii_lowercase()).copied())
            .unwrap_or(root);
        let mut node = Node::new(
            &n.name,
            json!({"kind": "model-node", "node_type": n.kind.name()}),
        );
        if let Some(p) = n.position().filter(|p| p.iter().all(|c| c.is_finite())) {
            node.translation = p;
        }
        if let Some(o) = n.orientation() {
            node.rotation = axis_angle_to_quat(o);
        }
        if n.kind.is_mesh() {
            node.mesh = model_mesh(n, walkable_only);
        }
        let idx = scene.add(node, Some(parent));
        by_name.entry(n.name.to_ascii_lowercase()).or_insert(idx);
    }
}

fn model_mesh(n: &mdl_ascii::Node, walkable_only: bool) -> Option<Mesh> {
    let verts = n.list("verts")?;
    // A short or non-finite row leaves the node's geometry out (its faces' numbers would
    // shift otherwise); `check` reports such files.
    let positions: Vec<[f32; 3]> = verts
        .rows
        .iter()
        .map(|r| match r {
            [x, y, z, ..] => [*x as f32, *y as f32, *z as f32],
            _ => [f32::NAN; 3],
        })
        .collect();
    if positions.iter().flatten().any(|c| !c.is_finite()) {
        return None;
    }
    let nv = positions.len();
    let walkmesh = n.kind == NodeKind::Aabb;
    let mut groups: Vec<Group> = Vec::new();
    let mut by_key: HashMap<u32, usize> = HashMap::new();
    if let Some(faces) = n.list("faces") {
        for (fi, r) in faces.rows.iter().enumerate() {
            let idx = |k: usize| {
                r.get(k)
                    .filter(|v| **v >= 0.0 && v.fract() == 0.0 && (**v as usize) < nv)
                    .map(|v| *v as u32)
            };
            let (Some(a), Some(b), Some(c)) = (idx(0), idx(1), idx(2)) else {
                continue;
            };
            let material = if walkmesh {
                let id = r
                    .get(7)
                    .filter(|v| **v >= 0.0 && v.fract() == 0.0 && **v <= f64::from(u32::MAX))
                    .map_or(0, |v| *v as u32);
                Some(Material::from_id(id))
            } else {
                None
            };
            if walkable_only && material.is_some_and(|m| !m.is_walkable()) {
                continue;
            }
            let key = material.map_or(u32::MAX, Material::id);
            let gi = *by_key.entry(key).or_insert_with(|| {
                groups.push(match material {
                    Some(m) => Group {
                        material: m.name().into_owned(),
                        colour: rgba(material_colour(m), 1.0),
                        extras: json!({"material": m.name(), "material_id": m.id(), "walkable": m.is_walkable()}),
                        material_extras: Value::Null,
                        shape: Shape::Triangles { triangles: Vec::new(), faces: Vec::new() },
                    },
                    None => Group {
                        material: n.kind.name().to_string(),
                        colour: rgba(MODEL_MESH, 1.0),
                        extras: Value::Null,
                        material_extras: Value::Null,
                        shape: Shape::Triangles { triangles: Vec::new(), faces: Vec::new() },
                    },
                });
                groups.len() - 1
            });
            if let Shape::Triangles { triangles, faces } = &mut groups[gi].shape {
                triangles.push([a, b, c]);
                faces.push(fi as u32);
            }
        }
    }
    (!groups.is_empty()).then_some(Mesh {
        positions,
        groups,
        ..Mesh::default()
    })
}

/// Adds placed objects (those of the input's module, then those of `options.objects`) and
/// paths (area space, around the objects) under a node of their own each.
fn add_overlays(
    session: &Session,
    scene: &mut Scene,
    opened: &Opened,
    input: &Path,
    options: &ExportOptions,
) -> Result<Vec<String>, Error> {
    let mut notes = Vec::new();
    let placed = match opened {
        Opened::Area { module, .. } => module.placed(),
        Opened::File { .. } => Vec::new(),
    };
    let (objects, paths) = if options.paths.is_empty() {
        let mut objects = placed;
        if let Some(f) = &options.objects {
            objects.extend(load_objects(session, f)?);
        }
        (objects, Vec::new())
    } else {
        let req = PathRequest {
            input,
            objects: options.objects.as_deref(),
            radius: 0.0,
            snap: DEFAULT_SNAP,
            mode: PathMode::Optimal,
        };
        let source = match opened {
            Opened::Area { module, .. } => module.nav_source(),
            Opened::File { path, data } => file_source(path, data)?,
        };
        let mut ctx = PathContext::from_parts(session, source, placed, &req)?;
        let mut paths = Vec::new();
        for &(a, b) in &options.paths {
            let r = ctx.find(a, b);
            match &r.path {
                Some(p) => paths.push((
                    a,
                    b,
                    r.length(),
                    r.rooms.clone(),
                    p.surface_points()
                        .iter()
                        .map(|v| v.to_array())
                        .collect::<Vec<_>>(),
                )),
                None => notes.push(path_note(a, b, &r)),
            }
        }
        (std::mem::take(&mut ctx.objects), paths)
    };
    for (o, w) in &objects {
        let label = o.tag.clone().unwrap_or_else(|| o.model.clone());
        let mut positions = Vec::with_capacity(w.triangles.len() * 3);
        let mut triangles = Vec::with_capacity(w.triangles.len());
        for t in &w.triangles {
            if t.iter().flatten().all(|c| c.is_finite()) {
                let base = positions.len() as u32;
                positions.extend_from_slice(t);
                triangles.push([base, base + 1, base + 2]);
            }
        }
        let mut node = Node::new(
            format!("object {label}"),
            json!({"kind": "object", "model": o.model, "tag": o.tag, "position": o.position}),
        );
        if !triangles.is_empty() {
            let faces = (0..triangles.len() as u32).collect();
            node.mesh = Some(Mesh {
                positions,
                groups: vec![Group {
                    material: OBJECT_MATERIAL.0.into(),
                    colour: rgba(OBJECT_MATERIAL.1, 1.0),
                    extras: Value::Null,
                    material_extras: Value::Null,
                    shape: Shape::Triangles { triangles, faces },
                }],
                ..Mesh::default()
            });
        }
        scene.add(node, None);
    }
    for (a, b, length, rooms, points) in paths {
        let points: Vec<[f32; 3]> = points
            .into_iter()
            .filter(|p| p.iter().all(|c| c.is_finite()))
            .collect();
        let mut node = Node::new(
            "path",
            json!({"kind": "path", "from": [a.x, a.y], "to": [b.x, b.y], "length": length, "rooms": rooms}),
        );
        if points.len() >= 2 {
            node.mesh = Some(Mesh {
                groups: vec![Group {
                    material: PATH_MATERIAL.0.into(),
                    colour: rgba(PATH_MATERIAL.1, 1.0),
                    extras: Value::Null,
                    material_extras: Value::Null,
                    shape: Shape::LineStrip((0..points.len() as u32).collect()),
                }],
                positions: points,
                ..Mesh::default()
            });
        }
        scene.add(node, None);
    }
    Ok(notes)
}
