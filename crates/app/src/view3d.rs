//! `areakit view` in 3-D: one self-contained HTML page (three.js, data and script inline; no
//! network; opens from a file) that draws an area's room models with their textures and
//! lightmaps, its GIT doors and placeables (their models when found, else boxes), the
//! walkmesh as an overlay coloured by material with the findings of `check`, paths, with orbit
//! and walk cameras (walking keeps to the walkmesh through `query`'s height rule), a VIS
//! inspector, and the 2-D map (`view.rs`) as a second tab. Layout of the data and the page:
//! `docs/viewer.md`.
//!
//! Everything is computed here: the models through the export's scene
//! ([`crate::interop::scene::models_scene`]), placed in area space; textures found as the game
//! finds them and made PNG ([`crate::interop::textures`]); the walkmesh, findings and paths
//! through [`crate::picture::load_picture`]. Geometry and pictures travel as base64 chunks, one
//! per mesh and per texture, which the page decodes one by one behind a progress bar.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde::Serialize;
use serde_json::{Value, json};

use crate::Error;
use crate::input::{self, Opened};
use crate::interop::scene::{binary_model_scene, models_scene};
use crate::interop::textures::{TextureReport, attach_textures_sized, texture_places};
use crate::interop::{Mat4, Node, Scene, Shape};
use crate::picture::{MapInput, Overlays, load_picture};
use crate::render::material_colour;
use crate::session::{Session, refuse_overwrite, write_atomic};
use crate::texture::TextureLookup;
use crate::view::{ViewSummary, check_page_name, html_title, script_json, view_data, view_page};

const PAGE: &str = include_str!("viewer3d/page.html");
const SCRIPT: &str = include_str!("viewer3d/viewer3d.js");
/// three.js 0.170.0, pinned and vendored (`viewer3d/vendor/`), as a classic script.
const THREE: &str = include_str!("viewer3d/three.min.js");

/// How `view` draws.
#[derive(Debug, Clone)]
pub struct ViewOptions {
    /// The 2-D map even when the input has models.
    pub two_d: bool,
    /// Folders searched for textures (and object models) after the input's own places.
    pub texture_dirs: Vec<PathBuf>,
    /// Leave the textures out (flat materials).
    pub no_textures: bool,
    /// Textures are halved until no side exceeds this (smaller pages).
    pub texture_size: u32,
}

impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            two_d: false,
            texture_dirs: Vec::new(),
            no_textures: false,
            texture_size: 512,
        }
    }
}

/// What `view` wrote.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ViewReport {
    /// `3d` or `2d`.
    pub mode: &'static str,
    /// Walkmesh faces.
    pub faces: usize,
    /// Rooms.
    pub rooms: usize,
    /// Findings listed.
    pub findings: usize,
    /// Size of the page in bytes.
    pub bytes: usize,
    /// Meshes drawn (3-D).
    pub meshes: usize,
    /// Their vertices.
    pub vertices: usize,
    /// Their triangles.
    pub triangles: usize,
    /// GIT doors and placeables drawn, and how many of them by their model.
    pub objects: usize,
    /// Objects drawn with their model (the rest are boxes).
    pub object_models: usize,
    /// Textures embedded and missing (3-D).
    pub textures: TextureReport,
}

impl From<ViewSummary> for ViewReport {
    fn from(s: ViewSummary) -> Self {
        ViewReport {
            mode: "2d",
            faces: s.faces,
            rooms: s.rooms,
            findings: s.findings,
            bytes: s.bytes,
            meshes: 0,
            vertices: 0,
            triangles: 0,
            objects: 0,
            object_models: 0,
            textures: TextureReport::default(),
        }
    }
}

/// `areakit view INPUT -o PAGE.html`: the 3-D page when the input has room models or is a
/// model (and `--2d` is not given), else the 2-D map ([`crate::view::view_file`]). Writes
/// atomically; returns the report and the notes (paths not found, models or textures left
/// out).
pub fn view(
    session: &Session,
    input: &Path,
    output: &Path,
    overlays: &Overlays,
    options: &ViewOptions,
) -> Result<(ViewReport, Vec<String>), Error> {
    check_page_name(output)?;
    if options.two_d {
        return crate::view::view_file(session, input, output, overlays)
            .map(|(s, n)| (s.into(), n));
    }
    refuse_overwrite(input, output, false)?;
    let opened = input::open(session, Some(input))?;
    let Some((mut scene, mut notes)) = models_scene(&opened)? else {
        return crate::view::view_file(session, input, output, overlays)
            .map(|(s, n)| (s.into(), n));
    };
    let places = texture_places(session, &opened, input, &options.texture_dirs)?;
    let lookup = TextureLookup::new(places);
    // GIT doors and placeables: their models join the scene under a node each.
    let objects = match &opened {
        Opened::Area { module, .. } => add_objects(&mut scene, module, &lookup),
        Opened::File { .. } => Vec::new(),
    };
    let textures = if options.no_textures {
        TextureReport::default()
    } else {
        attach_textures_sized(&mut scene, &lookup, Some(options.texture_size))
    };
    if !textures.missing.is_empty() {
        notes.push(format!(
            "{} of {} textures not found (flat): {}",
            textures.missing.len(),
            textures.missing.len() + textures.embedded.len(),
            textures
                .missing
                .iter()
                .map(|m| m.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let (map, drawn) = match &opened {
        Opened::Area { .. } => {
            let (map, drawn) = load_picture(session, input, true, overlays)?;
            notes.extend(drawn.notes.iter().cloned());
            (Some(map), Some(drawn))
        }
        Opened::File { .. } => (None, None),
    };
    let mut page = PageBuilder::default();
    page.add_scene(&scene);
    let title = match &opened {
        Opened::Area { title, .. } => title.clone(),
        Opened::File { path, .. } => path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let mut data = page.data(&title, &objects);
    if let (Opened::Area { module, .. }, Some(map), Some(drawn)) = (&opened, &map, &drawn) {
        add_area(&mut data, module, map, &drawn.paths);
        // The 2-D map, as its own page, for the second tab.
        let two_d = view_page(&view_data(map, &drawn.objects, &drawn.paths));
        page.chunks.push((
            "map2d-page".into(),
            base64::engine::general_purpose::STANDARD.encode(two_d.as_bytes()),
        ));
        data["map2d"] = json!("map2d-page");
    }
    let html = page3d(&data, &page.chunks);
    write_atomic(output, html.as_bytes())?;
    let report = ViewReport {
        mode: "3d",
        faces: map
            .as_ref()
            .map_or(0, |m| m.rooms.iter().map(|r| r.1.faces.len()).sum()),
        rooms: match &opened {
            Opened::Area { module, .. } => module.area.rooms.len(),
            Opened::File { .. } => 0,
        },
        findings: map.as_ref().map_or(0, |m| m.findings.len()),
        bytes: html.len(),
        meshes: page.meshes.len(),
        vertices: page.vertices,
        triangles: page.triangles,
        objects: objects.len(),
        object_models: objects.iter().filter(|o| o.model_found).count(),
        textures,
    };
    Ok((report, notes))
}

/// A GIT door or placeable in the page.
struct PageObject {
    value: Value,
    model_found: bool,
}

/// Each GIT object's model (`<model>.mdl` with its `.mdx`, found in the places textures are
/// found in) under a node at the object's position and orientation; objects without one get a
/// box in the page (the bounds of their placed walkmesh, else a 1 m cube on the ground).
fn add_objects(
    scene: &mut Scene,
    module: &areakit_area::module::Module,
    lookup: &TextureLookup,
) -> Vec<PageObject> {
    let mut out = Vec::new();
    for (i, o) in module.objects.iter().enumerate() {
        let p = &o.object;
        let label = p.tag.clone().unwrap_or_else(|| p.model.clone());
        let kind = match p.kind {
            areakit_area::objects::ObjectKind::Door => "door",
            areakit_area::objects::ObjectKind::Placeable => "placeable",
        };
        let model = lookup.model(&p.model);
        let model_found = model.is_some();
        if let Some(m) = model {
            let q = p.orientation.rotation().to_array().map(f64::from);
            let mut node = Node::new(
                format!("object {label}"),
                json!({"kind": "object", "object_index": i}),
            );
            node.translation = p.position.map(f64::from);
            node.rotation = q;
            let root = scene.add(node, None);
            append_scene(scene, binary_model_scene(&m), root);
        }
        let bounds = o.walkmesh.as_ref().and_then(|w| {
            let mut lo = [f32::INFINITY; 3];
            let mut hi = [f32::NEG_INFINITY; 3];
            for v in w.triangles.iter().flatten() {
                for k in 0..3 {
                    lo[k] = lo[k].min(v[k]);
                    hi[k] = hi[k].max(v[k]);
                }
            }
            lo[0].is_finite().then_some([lo, hi])
        });
        let [x, y, z] = p.position;
        let bounds = bounds.unwrap_or([[x - 0.5, y - 0.5, z], [x + 0.5, y + 0.5, z + 1.0]]);
        out.push(PageObject {
            value: json!({
                "kind": kind,
                "label": label,
                "model": p.model,
                "template": o.template,
                "position": p.position.map(fin),
                "model_found": model_found,
                "box": [bounds[0].map(fin), bounds[1].map(fin)],
                "source": p.source,
            }),
            model_found,
        });
    }
    out
}

/// `other`'s nodes added below node `parent` of `scene` (parents kept; skins and animations
/// left out: the page draws the rest pose).
fn append_scene(scene: &mut Scene, other: Scene, parent: usize) {
    let base = scene.nodes.len();
    for mut n in other.nodes {
        let p = n.parent.map(|p| p + base).or(Some(parent));
        n.skin = None;
        n.parent = None;
        scene.add(n, p);
    }
    for (k, v) in other.images {
        scene.images.entry(k).or_insert(v);
    }
}

fn fin(x: f32) -> f32 {
    if x.is_finite() { x } else { 0.0 }
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A material of the page: the texture names (lower case: a missing texture keeps its name
/// for the pick panel), alpha mode and colour.
type MaterialKey = (Option<String>, Option<String>, &'static str, [u32; 4]);

/// The page's meshes, materials, textures and chunks, built from a scene.
#[derive(Default)]
struct PageBuilder {
    textures: Vec<Value>,
    texture_index: HashMap<String, usize>,
    materials: Vec<Value>,
    material_index: HashMap<MaterialKey, usize>,
    meshes: Vec<Value>,
    /// `(element id, base64)`.
    chunks: Vec<(String, String)>,
    vertices: usize,
    triangles: usize,
    lo: [f32; 3],
    hi: [f32; 3],
}

impl PageBuilder {
    /// Every mesh node of the scene that the game draws (not an aabb walkmesh node, not a mesh
    /// flagged not to render) in area space, with its room (the `room-model` node above it) or
    /// object (the `object` node above it).
    fn add_scene(&mut self, scene: &Scene) {
        self.lo = [f32::INFINITY; 3];
        self.hi = [f32::NEG_INFINITY; 3];
        for (key, img) in &scene.images {
            let id = format!("t{}", self.textures.len());
            self.texture_index.insert(key.clone(), self.textures.len());
            self.textures
                .push(json!({"name": img.name, "chunk": id, "alpha": img.alpha.name()}));
            self.chunks.push((id, b64(&img.png)));
        }
        let world = scene.world_matrices();
        // One geometry per room and per object (and one for the rest): each mesh node's
        // vertices in area space, its triangles grouped by material with the others'.
        let mut merged: Vec<Merged> = Vec::new();
        let mut slot: HashMap<(Option<usize>, Option<usize>), usize> = HashMap::new();
        for (i, n) in scene.nodes.iter().enumerate() {
            let Some(mesh) = &n.mesh else { continue };
            let skip = n.extras.get("walkmesh") == Some(&json!(true))
                || n.extras.get("render") == Some(&json!(false));
            if skip || mesh.positions.is_empty() {
                continue;
            }
            let key = owner(scene, i);
            let k = *slot.entry(key).or_insert_with(|| {
                merged.push(Merged {
                    room: key.0,
                    object: key.1,
                    ..Merged::default()
                });
                merged.len() - 1
            });
            self.merge(scene, &world[i], mesh, k, &mut merged);
        }
        for m in merged {
            self.push_merged(m);
        }
    }

    fn material(&mut self, scene: &Scene, g: &crate::interop::Group) -> usize {
        let tex = |name: &Option<String>| {
            let key = name.as_ref()?.to_ascii_lowercase();
            self.texture_index.get(&key).copied()
        };
        let (diffuse, lightmap) = (tex(&g.maps.diffuse), tex(&g.maps.lightmap));
        let alpha = g
            .maps
            .diffuse
            .as_ref()
            .and_then(|d| scene.images.get(&d.to_ascii_lowercase()))
            .map_or("opaque", |img| img.alpha.name());
        let lower = |n: &Option<String>| n.as_ref().map(|n| n.to_ascii_lowercase());
        let key = (
            lower(&g.maps.diffuse),
            lower(&g.maps.lightmap),
            alpha,
            g.colour.map(f32::to_bits),
        );
        if let Some(&i) = self.material_index.get(&key) {
            return i;
        }
        self.materials.push(json!({
            "name": g.material,
            "colour": g.colour,
            "diffuse": diffuse,
            "lightmap": lightmap,
            "alpha": alpha,
            "texture_name": g.maps.diffuse,
            "lightmap_name": g.maps.lightmap,
        }));
        self.material_index.insert(key, self.materials.len() - 1);
        self.materials.len() - 1
    }

    /// Adds a mesh node's vertices (in area space through `m`) and its triangles (by
    /// material) to merged geometry `k`.
    fn merge(
        &mut self,
        scene: &Scene,
        m: &Mat4,
        mesh: &crate::interop::Mesh,
        k: usize,
        merged: &mut [Merged],
    ) {
        let nv = mesh.positions.len();
        let base = merged[k].positions.len() as u32;
        let mut groups = Vec::new();
        for g in &mesh.groups {
            if let Shape::Triangles { triangles, .. } = &g.shape {
                groups.push((self.material(scene, g), triangles));
            }
        }
        let out = &mut merged[k];
        for p in &mesh.positions {
            let q = m.point(*p).map(fin);
            for (k, c) in q.iter().enumerate() {
                self.lo[k] = self.lo[k].min(*c);
                self.hi[k] = self.hi[k].max(*c);
            }
            out.positions.push(q);
        }
        for i in 0..nv {
            let n = match mesh.normals.get(i).filter(|_| mesh.normals.len() == nv) {
                Some(v) => {
                    let d = m.vector(*v);
                    let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                    if len > 1e-12 && len.is_finite() {
                        d.map(|c| (c / len) as f32)
                    } else {
                        [0.0, 0.0, 1.0]
                    }
                }
                None => {
                    out.missing_normals = true;
                    [0.0, 0.0, 1.0]
                }
            };
            out.normals.push(n);
            let uv = |set: &Vec<[f32; 2]>| {
                set.get(i)
                    .filter(|_| set.len() == nv)
                    .map_or([0.0; 2], |uv| uv.map(fin))
            };
            out.uv.push(uv(&mesh.uvs));
            out.uv2.push(uv(&mesh.uvs2));
        }
        out.any_uv |= mesh.uvs.len() == nv;
        out.any_uv2 |= mesh.uvs2.len() == nv;
        for (material, triangles) in groups {
            let list = out.by_material.entry(material).or_default();
            for t in triangles {
                list.extend(t.map(|v| v + base));
            }
        }
    }

    /// Writes merged geometry as one mesh of the page and its chunk: positions, normals
    /// (unless some node had none: the page computes them), UV sets, indices by material.
    fn push_merged(&mut self, m: Merged) {
        let nv = m.positions.len();
        let indices: usize = m.by_material.values().map(Vec::len).sum();
        if indices == 0 {
            return;
        }
        let mut bytes: Vec<u8> = Vec::with_capacity(nv * 40 + indices * 4);
        let mut put = |v: &[f32]| v.iter().for_each(|c| bytes.extend(c.to_le_bytes()));
        m.positions.iter().for_each(|p| put(p));
        let normals = !m.missing_normals;
        if normals {
            m.normals.iter().for_each(|n| put(n));
        }
        if m.any_uv {
            m.uv.iter().for_each(|t| put(t));
        }
        let uv2 = m.any_uv && m.any_uv2;
        if uv2 {
            m.uv2.iter().for_each(|t| put(t));
        }
        let mut groups = Vec::new();
        let mut at = 0usize;
        for (material, list) in &m.by_material {
            groups.push(json!([material, at, list.len()]));
            list.iter().for_each(|v| bytes.extend(v.to_le_bytes()));
            at += list.len();
        }
        // The mesh's own box: the page fits its camera to these, which hug an L-shaped area
        // better than the bounds of the whole.
        let mut b = [[f32::INFINITY; 3], [f32::NEG_INFINITY; 3]];
        for p in &m.positions {
            for k in 0..3 {
                b[0][k] = b[0][k].min(p[k]);
                b[1][k] = b[1][k].max(p[k]);
            }
        }
        let id = format!("m{}", self.meshes.len());
        let name = match (m.room, m.object) {
            (Some(r), _) => format!("room {r}"),
            (_, Some(o)) => format!("object {o}"),
            _ => "model".to_string(),
        };
        self.meshes.push(json!({
            "name": name,
            "room": m.room,
            "object": m.object,
            "chunk": id,
            "vertices": nv,
            "indices": indices,
            "normals": normals,
            "uv": m.any_uv,
            "uv2": uv2,
            "groups": groups,
            "box": b,
        }));
        self.chunks.push((id, b64(&bytes)));
        self.vertices += nv;
        self.triangles += indices / 3;
    }

    /// The page's data object (without the area's parts: [`add_area`]).
    fn data(&self, title: &str, objects: &[PageObject]) -> Value {
        let bounds = if self.lo[0].is_finite() {
            json!({"min": self.lo, "max": self.hi})
        } else {
            Value::Null
        };
        json!({
            "title": title,
            "kind": "model",
            "textures": self.textures,
            "materials": self.materials,
            "meshes": self.meshes,
            "objects": objects.iter().map(|o| o.value.clone()).collect::<Vec<_>>(),
            "bounds": bounds,
            "rooms": [],
            "vis": {"present": false, "rows": []},
            "walkmesh": Value::Null,
            "findings": [],
            "paths": [],
            "map2d": Value::Null,
            "eye_height": 1.7,
        })
    }
}

/// The mesh nodes of one room (or object) merged into one geometry.
#[derive(Default)]
struct Merged {
    room: Option<usize>,
    object: Option<usize>,
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    uv: Vec<[f32; 2]>,
    uv2: Vec<[f32; 2]>,
    /// A node without normals (the page then computes every normal of the geometry).
    missing_normals: bool,
    any_uv: bool,
    any_uv2: bool,
    /// Triangles (indices into the merged vertices) by material, in material order.
    by_material: std::collections::BTreeMap<usize, Vec<u32>>,
}

/// The room and object a scene node belongs to: the `room_index` of the `room-model` node and
/// the `object_index` of the `object` node above it.
fn owner(scene: &Scene, mut i: usize) -> (Option<usize>, Option<usize>) {
    loop {
        let e = &scene.nodes[i].extras;
        match e.get("kind").and_then(Value::as_str) {
            Some("room-model") => {
                return (
                    e.get("room_index")
                        .and_then(Value::as_u64)
                        .map(|r| r as usize),
                    None,
                );
            }
            Some("object") => {
                return (
                    None,
                    e.get("object_index")
                        .and_then(Value::as_u64)
                        .map(|o| o as usize),
                );
            }
            _ => {}
        }
        match scene.nodes[i].parent {
            Some(p) => i = p,
            None => return (None, None),
        }
    }
}

/// An area's parts of the data: rooms (LYT order) with their VIS rows, the walkmesh (every
/// room's faces in area space, material, walkability and room, for the overlay and the walk
/// camera's height query), the findings of `check` and the paths.
fn add_area(
    data: &mut Value,
    module: &areakit_area::module::Module,
    map: &MapInput,
    paths: &[Vec<[f32; 3]>],
) {
    let area = &module.area;
    let names: Vec<String> = area.rooms.iter().map(|r| r.name.clone()).collect();
    let index_of = |name: &str| names.iter().position(|n| n.eq_ignore_ascii_case(name));
    let rows: Vec<Value> = names
        .iter()
        .map(|n| {
            area.vis.as_ref().map_or(Value::Null, |v| {
                let mut row: Vec<usize> =
                    v.visible_from(n).into_iter().filter_map(index_of).collect();
                row.sort_unstable();
                row.dedup();
                json!(row)
            })
        })
        .collect();
    data["kind"] = json!("area");
    data["rooms"] = json!(
        area.rooms
            .iter()
            .enumerate()
            .map(|(i, r)| json!({
                "name": r.name,
                "index": i,
                "position": area.lyt.rooms.get(i).map_or([0.0; 3], |p| p.position.map(fin)),
                "has_walkmesh": r.wok.is_some(),
            }))
            .collect::<Vec<_>>()
    );
    data["vis"] = json!({"present": area.vis.is_some(), "rows": rows});
    // The walkmesh: rooms of the map (those with a WOK), in order.
    let mut vertices: Vec<u8> = Vec::new();
    let mut faces: Vec<u8> = Vec::new();
    let mut material: Vec<u8> = Vec::new();
    let mut materials: Vec<areakit_formats::bwm::Material> = Vec::new();
    let mut rooms = Vec::new();
    let (mut v0, mut f0) = (0u32, 0usize);
    for (name, b) in &map.rooms {
        for p in &b.vertices {
            p.iter().for_each(|c| vertices.extend(c.to_le_bytes()));
        }
        let nv = b.vertices.len() as u32;
        for f in &b.faces {
            let ok = f.vertices.iter().all(|&v| v < nv);
            for v in f.vertices {
                let i = if ok { (v0 + v) as i32 } else { -1 };
                faces.extend(i.to_le_bytes());
            }
            let mi = materials
                .iter()
                .position(|m| *m == f.material)
                .unwrap_or_else(|| {
                    materials.push(f.material);
                    materials.len() - 1
                });
            material.extend((mi as u16).to_le_bytes());
        }
        rooms.push(json!({
            "name": name,
            "index": name.as_deref().and_then(index_of),
            "face_start": f0,
            "face_count": b.faces.len(),
        }));
        v0 += nv;
        f0 += b.faces.len();
    }
    data["walkmesh"] = json!({
        "vertices": b64(&vertices),
        "faces": b64(&faces),
        "face_material": b64(&material),
        "face_count": f0,
        "materials": materials.iter().map(|m| json!({
            "id": m.id(),
            "name": m.name(),
            "walkable": m.is_walkable(),
            "colour": material_colour(*m),
        })).collect::<Vec<_>>(),
        "rooms": rooms,
    });
    data["findings"] = json!(
        map.findings
            .iter()
            .enumerate()
            .map(|(n, (ri, f))| json!({
                "n": n + 1,
                "severity": f.severity.name(),
                "code": f.code,
                "message": f.message,
                "room": map.rooms.get(*ri).and_then(|r| r.0.clone()),
                "position": f.place.position.filter(|p| p.iter().all(|c| c.is_finite())),
            }))
            .collect::<Vec<_>>()
    );
    data["paths"] = json!(
        paths
            .iter()
            .map(|p| p.iter().map(|q| q.map(fin)).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    );
}

/// The page: the template with three.js, the data ([`script_json`]), the chunks (base64) and
/// the script inline.
fn page3d(data: &Value, chunks: &[(String, String)]) -> String {
    let json = script_json(data);
    let title = html_title(data);
    let mut blocks = String::with_capacity(chunks.iter().map(|c| c.1.len() + 64).sum());
    for (id, text) in chunks {
        blocks.push_str("<script type=\"text/plain\" id=\"");
        blocks.push_str(id);
        blocks.push_str("\">");
        blocks.push_str(text);
        blocks.push_str("</script>\n");
    }
    fill(
        PAGE,
        &[
            ("{{TITLE}}", &title),
            ("{{THREE}}", THREE),
            ("{{DATA}}", &json),
            ("{{CHUNKS}}", &blocks),
            ("{{SCRIPT}}", SCRIPT),
        ],
    )
}

/// `template` with each placeholder replaced once, scanning the template only (a value that
/// happens to contain a placeholder's text is left alone).
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some((at, (key, value))) = values
        .iter()
        .filter_map(|kv| rest.find(kv.0).map(|i| (i, kv)))
        .min_by_key(|(i, _)| *i)
    {
        out.push_str(&rest[..at]);
        out.push_str(value);
        rest = &rest[at + key.len()..];
    }
    out.push_str(rest);
    out
}
