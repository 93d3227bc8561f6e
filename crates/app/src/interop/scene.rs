//! Scenes from the game's files: a walkmesh, an area (LYT or folder), an NWN2 TRX/TRN, an MDL
//! ASCII model and a binary MDL model (with skins and animations), with placed objects and paths;
//! and [`export_file`], which writes one.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use areakit_formats::bwm::{Bwm, Material};
use areakit_formats::mdl;
use areakit_formats::mdl_ascii::{self, NodeKind};
use areakit_formats::{Location, trx};
use serde_json::{Value, json};

use super::model_parts::{
    MeshSource, add_channel, attach_skin, model_animation, textured_mesh, vertex_weights,
};

use super::{
    Animation, ExportFormat, Group, Maps, Mat4, Mesh, Node, Property, Scene, Shape, Skin,
    axis_angle_to_quat, invalid, rgba, unit_quat, wxyz_to_unit_xyzw,
};
use areakit_area::area::Area;
use areakit_geometry::nav::Endpoint;

use crate::Error;
use crate::document::Document;
use crate::format::Format;
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
    /// Leave out the room models of an area (the `models` layer, [`add_room_models`]); implied
    /// by `walkable_only`.
    pub no_models: bool,
    /// Leave the textures out (materials stay flat, named after their textures).
    pub no_textures: bool,
    /// Folders searched for textures after the input's own places (`--textures`; a kit's
    /// texture and lightmap folders).
    pub texture_dirs: Vec<PathBuf>,
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
    /// Warnings: a path that was not found, a room model that does not decode (left out),
    /// textures not found.
    pub notes: Vec<String>,
    /// The textures embedded and those missing.
    pub textures: super::textures::TextureReport,
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
pub use super::model_parts::{MODEL_MESH, UNTEXTURED};

/// Exports `input` ([`input::open`]: a BWM, an area with its module's placed objects, an
/// NWN2 TRX/TRN, an MDL ASCII model or a binary MDL with its MDX) to `output`, whose extension
/// (`.glb`, `.gltf`, `.obj`) picks the format. Writes atomically; never the input.
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
    let mut notes = Vec::new();
    // The walkable ground alone: no room models (their faces are no ground).
    if let Opened::Area {
        module, resources, ..
    } = &opened
        && !options.no_models
        && !options.walkable_only
    {
        let models = crate::rooms::room_models(module, resources.as_ref());
        notes.extend(add_room_models(&mut scene, &models));
    }
    notes.extend(add_overlays(session, &mut scene, &opened, input, options)?);
    let textures = if options.no_textures {
        super::textures::TextureReport::default()
    } else {
        let places =
            super::textures::texture_places(session, &opened, input, &options.texture_dirs)?;
        let report = super::textures::attach_textures(
            &mut scene,
            &crate::texture::TextureLookup::new(places),
        );
        if !report.missing.is_empty() {
            let names: Vec<&str> = report.missing.iter().map(|m| m.name.as_str()).collect();
            notes.push(format!(
                "{} of {} textures not embedded (their materials are flat): {}",
                names.len(),
                names.len() + report.embedded.len(),
                names.join(", ")
            ));
        }
        report
    };
    let (vertices, faces) = scene.counts();
    let mut written = vec![output.to_path_buf()];
    match format {
        ExportFormat::Glb | ExportFormat::Gltf => {
            let bytes = super::gltf::write(&scene, format == ExportFormat::Glb)
                .map_err(|m| invalid(input, Location::Input, m.to_string()))?;
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
            // The diffuse textures as PNGs beside the OBJ (`map_Kd`).
            let dir = output.parent().unwrap_or(Path::new(""));
            let mut pictures: Vec<(PathBuf, &[u8])> = Vec::new();
            for g in scene
                .nodes
                .iter()
                .filter_map(|n| n.mesh.as_ref())
                .flat_map(|m| &m.groups)
            {
                if let Some(file) = super::obj::texture_file(&scene, &g.maps) {
                    let path = dir.join(&file);
                    if !pictures.iter().any(|(p, _)| *p == path) {
                        let key = file.trim_end_matches(".png");
                        pictures.push((path, &scene.images[key].png));
                    }
                }
            }
            for (path, png) in &pictures {
                refuse_overwrite(input, path, false)?;
                write_atomic(path, png)?;
            }
            write_atomic(&mtl, mtl_text.as_bytes())?;
            write_atomic(output, obj_text.as_bytes())?;
            written.push(mtl);
            written.extend(pictures.into_iter().map(|(p, _)| p));
        }
    }
    Ok(ExportSummary {
        written,
        vertices,
        faces,
        nodes: scene.nodes.len(),
        notes,
        textures,
    })
}

/// What a 3-D view draws of an opened input: an area's models layer (each room's model at its
/// LYT position, [`add_room_models`]) or a model file's nodes (binary MDL or MDL ASCII), and
/// the notes of models left out. `None` for an input without models (a walkmesh, a TRX, an area
/// none of whose rooms has a model).
pub fn models_scene(opened: &Opened) -> Result<Option<(Scene, Vec<String>)>, Error> {
    let mut scene = Scene::default();
    match opened {
        Opened::Area {
            module, resources, ..
        } => {
            let models = crate::rooms::room_models(module, resources.as_ref());
            if !models.iter().any(|m| m.model.is_ok()) {
                return Ok(None);
            }
            let notes = add_room_models(&mut scene, &models);
            Ok(Some((scene, notes)))
        }
        Opened::File { path, data } => match Format::detect(path, data) {
            Some(Format::Mdl | Format::MdlAscii) => {
                let stem = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                match Document::decode(path, data)? {
                    Document::Mdl(m) => add_binary_model(&mut scene, &m, None),
                    Document::MdlAscii(m) => add_model(&mut scene, &m, &stem, false),
                    _ => return Ok(None),
                }
                Ok(Some((scene, Vec::new())))
            }
            _ => Ok(None),
        },
    }
}

/// The scene of a binary model alone (its root at the origin): a placed object's model.
pub fn binary_model_scene(m: &mdl::Model) -> Scene {
    let mut scene = Scene::default();
    add_binary_model(&mut scene, m, None);
    scene
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
        Document::Mdl(m) => add_binary_model(&mut scene, m, None),
        Document::NwnMdl(m) => super::nwn_scene::add_nwn_model(&mut scene, m),
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
                maps: Maps::default(),
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
            json!({"kind": "area", "layer": "walkmesh", "rooms": area.rooms.len()}),
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
                maps: Maps::default(),
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
                        maps: Maps::default(),
                        shape: Shape::Triangles { triangles: Vec::new(), faces: Vec::new() },
                    },
                    None => Group {
                        material: n.kind.name().to_string(),
                        colour: rgba(MODEL_MESH, 1.0),
                        extras: Value::Null,
                        material_extras: Value::Null,
                        maps: Maps::default(),
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

/// Controller types of the transform controllers (every node type has them).
const CTRL_POSITION: u32 = 8;
const CTRL_ORIENTATION: u32 = 20;
const CTRL_SCALE: u32 = 36;

/// A binary model: one node per geometry node (`nodes[0]`, the model's root, carries the
/// model's fields), parents from the node tree, local transforms from position and
/// orientation. Mesh nodes get one group each: the faces, with the texture (`texture0`) as the
/// material; skin nodes a skin; every animation with transform keys becomes an animation.
/// The model's root hangs from `parent` (a room node of an area's models layer), or is a root.
/// The layout is described in `docs/formats/gltf-export-mdl.md`.
fn add_binary_model(scene: &mut Scene, m: &mdl::Model, parent: Option<usize>) {
    let parents = m.parents();
    let base = scene.nodes.len();
    let mut index_of = Vec::with_capacity(m.nodes.len());
    let mut spellings = HashMap::new();
    for (i, n) in m.nodes.iter().enumerate() {
        let mut extras = if i == 0 {
            json!({
                "kind": "model",
                "model": m.geometry.name.as_string(),
                "supermodel": m.header.supermodel.as_string(),
                "game": m.game.name(),
                "classification": m.header.classification,
                "animation_scale": m.header.animation_scale,
                "node_type": n.kind_name(),
            })
        } else {
            json!({"kind": "model-node", "node_type": n.kind_name(), "node_number": n.node_number})
        };
        let mut node_mesh = None;
        if let Value::Object(map) = &mut extras {
            if n.flags & mdl::flags::AABB != 0 || n.aabb.is_some() {
                map.insert("walkmesh".into(), json!(true));
            }
            if let Some(r) = &n.reference {
                map.insert("reference".into(), json!(r.model.as_string()));
            }
            if let Some(me) = &n.mesh {
                if me.render == 0 {
                    map.insert("render".into(), json!(false));
                }
                if !mdx_matches(me) {
                    map.insert("mdx_mismatch".into(), json!(true));
                }
                let (mesh, replaced) = binary_mesh(me, &mut spellings);
                if replaced > 0 {
                    map.insert("normals_replaced".into(), json!(replaced));
                }
                node_mesh = mesh;
            }
        }
        let mut node = Node::new(m.node_name(n), extras);
        if n.position.iter().all(|c| c.is_finite()) {
            node.translation = n.position.map(f64::from);
        }
        node.rotation = wxyz_to_unit_xyzw(n.orientation);
        node.mesh = node_mesh;
        let parent = match parents.get(i).copied().flatten() {
            Some(p) if p < i => Some(index_of[p]),
            _ => parent,
        };
        index_of.push(scene.add(node, parent));
    }
    let world = scene.world_matrices();
    for (i, n) in m.nodes.iter().enumerate() {
        let (Some(skin), Some(me)) = (&n.skin, &n.mesh) else {
            continue;
        };
        let si = index_of[i];
        if scene.nodes[si].mesh.is_none() {
            continue;
        }
        let name = scene.nodes[si].name.clone();
        let Some(BoundSkin {
            skin: s,
            joints,
            weights,
            fallbacks,
        }) = binary_skin(m, i, skin, me, &index_of, &world, name)
        else {
            continue;
        };
        attach_skin(scene, si, s, (joints, weights, fallbacks));
    }
    let mut skipped = Vec::new();
    for a in &m.animations {
        match binary_animation(m, a, &index_of, scene) {
            Some(anim) => scene.animations.push(anim),
            None => skipped.push(a.geometry.name.as_string()),
        }
    }
    if let Some(Value::Object(map)) = scene.nodes.get_mut(base).map(|n| &mut n.extras) {
        map.insert("animations".into(), json!(m.animations.len()));
        if !skipped.is_empty() {
            map.insert("animations_without_transform_keys".into(), json!(skipped));
        }
    }
}

/// Whether the MDX rows of a mesh belong to it: their positions (when the rows have them) are
/// the MDL's copy. Some files come with the MDX of another build of the model, whose rows of
/// other meshes hold unrelated numbers; their normals, UVs and skin weights are left out.
fn mdx_matches(me: &mdl::Mesh) -> bool {
    let rows = &me.vertices.positions;
    rows.is_empty()
        || (rows.len() == me.positions.len()
            && rows
                .iter()
                .zip(&me.positions)
                .all(|(a, b)| (0..3).all(|k| (a[k] - b[k]).abs() <= 1e-4 * (1.0 + b[k].abs()))))
}

/// A mesh of a binary model: the MDL's positions, the MDX's normals (made unit length; ones
/// without a direction become +z, counted) and first two UV sets when they have a row per
/// vertex (and the rows are the mesh's: [`mdx_matches`]), and every face whose vertices exist,
/// as one group named by the texture (as first spelt: `spellings` maps lower case to it, the
/// game's names being case-insensitive), with its lightmap.
fn binary_mesh(me: &mdl::Mesh, spellings: &mut HashMap<String, String>) -> (Option<Mesh>, usize) {
    let mdx = mdx_matches(me);
    let v = &me.vertices;
    textured_mesh(
        &MeshSource {
            positions: &me.positions,
            normals: mdx.then_some(&v.normals[..]),
            uvs: [mdx.then_some(&v.uvs[0][..]), mdx.then_some(&v.uvs[1][..])],
            faces: &me.faces,
            textures: [me.texture0.as_string(), me.texture1.as_string()],
        },
        spellings,
    )
}

/// The skin of geometry node `mesh_node`, its vertices' joints and weights, and how many
/// vertices had no usable weight (they follow the mesh node's own joint, else joint 0). `None`
/// when the mesh has no weight rows, they are not its own ([`mdx_matches`]) or no node is a
/// bone.
///
/// The bone map has one entry per geometry node in pre-order (the node's bone number, -1 for
/// none); the joints are the mapped nodes in bone-number order. `qbones`/`tbones` are indexed
/// like the bone map and give, per node, the mesh's space to that node's space at rest
/// (translation after rotation); they are the inverse bind matrices. A node without them gets
/// the rest pose's `inverse(bone world) * mesh world`.
fn binary_skin(
    m: &mdl::Model,
    mesh_node: usize,
    skin: &mdl::Skin,
    me: &mdl::Mesh,
    index_of: &[usize],
    world: &[Mat4],
    name: String,
) -> Option<BoundSkin> {
    let nv = me.positions.len();
    let v = &me.vertices;
    if v.bone_weights.len() != nv || v.bone_indices.len() != nv || !mdx_matches(me) {
        return None;
    }
    let mut node_of_bone: BTreeMap<i64, usize> = BTreeMap::new();
    for (ni, &b) in skin.bone_map.iter().enumerate().take(m.nodes.len()) {
        if (0.0..65536.0).contains(&b) {
            node_of_bone.insert(b.round() as i64, ni);
        }
    }
    if node_of_bone.is_empty() {
        return None;
    }
    let mesh_world = world[index_of[mesh_node]];
    let mut joint_of_bone: HashMap<i64, u16> = HashMap::new();
    let mut joints = Vec::with_capacity(node_of_bone.len());
    let mut inverse_bind = Vec::with_capacity(node_of_bone.len());
    for (j, (&b, &ni)) in node_of_bone.iter().enumerate() {
        joint_of_bone.insert(b, j as u16);
        joints.push(index_of[ni]);
        let stored = match (skin.qbones.get(ni), skin.tbones.get(ni)) {
            (Some(q), Some(t)) if q.iter().chain(t).all(|c| c.is_finite()) => {
                unit_quat([q[1], q[2], q[3], q[0]].map(f64::from))
                    .map(|q| Mat4::from_trs(t.map(f64::from), q))
            }
            _ => None,
        };
        inverse_bind
            .push(stored.unwrap_or_else(|| world[index_of[ni]].inverse_rigid().mul(&mesh_world)));
    }
    let own = node_of_bone
        .iter()
        .find(|&(_, &ni)| ni == mesh_node)
        .and_then(|(b, _)| joint_of_bone.get(b).copied())
        .unwrap_or(0);
    let influences = v.bone_weights.iter().zip(&v.bone_indices).map(|(w, b)| {
        [0, 1, 2, 3].map(|k| {
            let bone = (b[k].is_finite() && b[k] >= 0.0).then(|| b[k].round() as i64);
            (
                bone.and_then(|b| joint_of_bone.get(&b).copied()),
                f64::from(w[k]),
            )
        })
    });
    let (out_joints, out_weights, fallbacks) = vertex_weights(influences, own);
    let skin = Skin {
        name,
        joints,
        inverse_bind,
    };
    Some(BoundSkin {
        skin,
        joints: out_joints,
        weights: out_weights,
        fallbacks,
    })
}

/// A skin with its mesh's per-vertex joints and weights ([`binary_skin`]).
pub(super) struct BoundSkin {
    pub skin: Skin,
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
    /// Vertices without a usable weight.
    pub fallbacks: usize,
}

/// An animation of a binary model: the position (8), orientation (20) and scale (36) keys of
/// each animation node with the name of a geometry node, as linear channels of that node.
/// Positions are offsets from the node's rest position scaled by the model's animation scale;
/// orientations are absolute `[x, y, z, w]` quaternions (or one compressed word per key);
/// bezier keys give their value column. Keys with a negative or non-finite time or value are
/// dropped, the rest sorted by time with repeated times dropped. `None` when no channel is left.
fn binary_animation(
    m: &mdl::Model,
    a: &mdl::Animation,
    index_of: &[usize],
    scene: &Scene,
) -> Option<Animation> {
    let scale = f64::from(m.header.animation_scale);
    let scale = if scale.is_finite() { scale } else { 1.0 };
    let mut by_name_index: HashMap<u16, usize> = HashMap::new();
    for (i, n) in m.nodes.iter().enumerate() {
        by_name_index.entry(n.name_index).or_insert(i);
    }
    let mut channels = Vec::new();
    let mut seen: HashSet<(usize, Property)> = HashSet::new();
    let mut unmatched = Vec::new();
    for an in &a.nodes {
        if an.controllers.is_empty() {
            continue;
        }
        let geometry = by_name_index
            .get(&an.name_index)
            .copied()
            .or_else(|| m.find_node(&m.node_name(an)));
        let Some(gi) = geometry else {
            unmatched.push(m.node_name(an));
            continue;
        };
        let target = index_of[gi];
        let rest = scene.nodes[target].translation;
        for c in &an.controllers {
            let property = match c.kind {
                CTRL_POSITION => Property::Translation,
                CTRL_ORIENTATION => Property::Rotation,
                CTRL_SCALE => Property::Scale,
                _ => continue,
            };
            if seen.contains(&(target, property)) {
                continue;
            }
            let rows = controller_rows(an, c, property, rest, scale);
            add_channel(&mut channels, &mut seen, (target, property), rows);
        }
    }
    model_animation(
        a.geometry.name.as_string(),
        [a.length, a.transition],
        a.root.as_string(),
        &a.events,
        unmatched,
        channels,
    )
}

/// The keys of a transform controller as (time, value) in the scene's terms (translation,
/// `[x, y, z, w]` rotation, per-axis scale), unfiltered; empty for a column count that does
/// not fit the property.
fn controller_rows(
    n: &mdl::Node,
    c: &mdl::Controller,
    property: Property,
    rest: [f64; 3],
    scale: f64,
) -> Vec<(f32, [f64; 4])> {
    let base = c.columns & 0x0F;
    match property {
        Property::Translation if base == 3 => n
            .keys(c)
            .map(|(t, v)| {
                let p = [0, 1, 2].map(|k| rest[k] + scale * f64::from(v[k]));
                (t, [p[0], p[1], p[2], 0.0])
            })
            .collect(),
        // One compressed word per key ([`mdl::Controller::width`] is 1).
        Property::Rotation if c.width() == 1 => n
            .keys(c)
            .map(|(t, v)| {
                let [w, x, y, z] = mdl::quat::decompress(v[0].to_bits());
                (t, [x, y, z, w])
            })
            .collect(),
        Property::Rotation if base == 4 => n
            .keys(c)
            .map(|(t, v)| (t, [v[0], v[1], v[2], v[3]].map(f64::from)))
            .collect(),
        Property::Scale if base == 1 => n
            .keys(c)
            .map(|(t, v)| {
                let s = f64::from(v[0]);
                (t, [s, s, s, 0.0])
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The `models` layer of an area: a top-level node `models` (`extras.kind = "layer"`,
/// `layer = "models"`) and below it one node per room with a model (`<room>_model`, in LYT
/// order) at the room's LYT position, the room's binary model ([`add_binary_model`]: every
/// node, mesh nodes with their textures as materials) below that. A game room's model origin
/// stands at its LYT position, so its vertices need no other offset. Every node of the layer
/// carries `extras.layer = "models"` (import leaves them out). A model that does not decode is
/// left out with a warning (returned); no layer at all when no room has a model.
fn add_room_models(scene: &mut Scene, models: &[crate::rooms::RoomModel]) -> Vec<String> {
    let mut notes = Vec::new();
    let mut layer = None;
    let mut rooms = 0usize;
    for rm in models {
        let m = match &rm.model {
            Ok(m) => m,
            Err(e) => {
                notes.push(format!(
                    "room {}: its model {} does not decode ({e}); left out of the models layer",
                    rm.name, rm.origin
                ));
                continue;
            }
        };
        let layer = *layer.get_or_insert_with(|| {
            scene.add(
                Node::new("models", json!({"kind": "layer", "layer": "models"})),
                None,
            )
        });
        let position = rm
            .position
            .map(|c| if c.is_finite() { f64::from(c) } else { 0.0 });
        let mut node = Node::new(
            format!("{}_model", rm.name),
            json!({"kind": "room-model", "layer": "models", "room": rm.name, "room_index": rm.room,
                "lyt_position": position, "source": rm.origin}),
        );
        node.translation = position;
        let room_node = scene.add(node, Some(layer));
        let first = scene.nodes.len();
        add_binary_model(scene, m, Some(room_node));
        for n in &mut scene.nodes[first..] {
            if let Value::Object(map) = &mut n.extras {
                map.insert("layer".into(), json!("models"));
            }
        }
        rooms += 1;
    }
    if let Some(Value::Object(map)) = layer
        .and_then(|l| scene.nodes.get_mut(l))
        .map(|n| &mut n.extras)
    {
        map.insert("rooms".into(), json!(rooms));
    }
    notes
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
            objects: options.objects.as_deref(),
            ..PathRequest::new(input)
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
                    maps: Maps::default(),
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
                    maps: Maps::default(),
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

#[cfg(test)]
mod tests {
    use super::super::model_parts::clean_keys;
    use super::*;

    #[test]
    fn keys_are_sorted_unique_finite_and_unit() {
        let rows = vec![
            (0.5, [0.0, 0.0, 2.0, 0.0]),
            (-0.1, [0.0, 0.0, 0.0, 1.0]),
            (0.0, [0.0, 0.0, 0.0, 3.0]),
            (0.5, [1.0, 0.0, 0.0, 0.0]),
            (f32::NAN, [0.0, 0.0, 0.0, 1.0]),
            (0.7, [0.0; 4]),
            (0.9, [f64::NAN, 0.0, 0.0, 1.0]),
        ];
        let (times, values) = clean_keys(rows, Property::Rotation);
        assert_eq!(times, [0.0, 0.5]);
        assert_eq!(values, [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0]);
        let (times, values) = clean_keys(vec![(-0.0, [1.0, 2.0, 3.0, 0.0])], Property::Scale);
        assert!(times[0].is_sign_positive());
        assert_eq!(values, [1.0, 2.0, 3.0]);
    }

    #[test]
    fn rigid_inverse_undoes_the_transform() {
        let q = axis_angle_to_quat([0.3, -1.0, 0.5, 1.1]);
        let m = Mat4::from_trs([1.0, -2.0, 3.5], q);
        let id = m.inverse_rigid().mul(&m);
        for (a, b) in id.0.iter().zip(Mat4::IDENTITY.0) {
            assert!((a - b).abs() < 1e-12, "{id:?}");
        }
    }
}
