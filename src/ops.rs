//! Operations on walkmeshes and areas behind `rebuild`, `query`, `transform` and `render`:
//! loading the input (a file or an area), running the geometry layer, and writing results.

use std::path::Path;

use areakit_formats::Finding;
use areakit_formats::bwm::{self, Bwm, Face, Material, WalkmeshType};
use serde_json::{Value, json};

use crate::area::{Area, AreaError};
use crate::render::{self, MapRoom, RenderOptions};
use crate::walkmesh;
use crate::{Error, fsio};

/// Reads a BWM file.
pub fn load_bwm(path: &Path) -> Result<Bwm, Error> {
    let data = fsio::read(path)?;
    bwm::read(&data).map_err(|e| Error::invalid(path, e))
}

/// Whether `path` names an area (a LYT file or a folder) rather than a single file.
pub fn is_area(path: &Path) -> bool {
    path.is_dir()
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("lyt"))
}

/// Opens an area, mapping its errors to exit-code classes.
pub fn open_area(path: &Path) -> Result<Area, Error> {
    Area::open(path).map_err(area_error)
}

/// An area error as an [`Error`] of its exit-code class: unreadable files are I/O errors, a
/// layout that does not decode is invalid input, the rest (no layout, several) usage errors.
pub fn area_error(e: AreaError) -> Error {
    match e {
        AreaError::Io { path, source } => Error::io(&path, source),
        AreaError::Lyt { path, source } => Error::invalid(&path, source),
        other => Error::usage(other.to_string()),
    }
}

fn mesh_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::invalid(
        path,
        areakit_formats::DecodeError::new(
            areakit_formats::ErrorKind::Malformed,
            areakit_formats::Location::Input,
            e.to_string(),
        ),
    )
}

/// The rooms of an area that have a walkmesh: `(name, offset, walkmesh)`. Room walkmeshes are
/// in area (world) space, as the game's tools write them, so the offset is zero.
pub fn area_rooms(area: &Area) -> Vec<(String, [f32; 3], Bwm)> {
    area.rooms
        .iter()
        .filter_map(|r| r.wok.clone().map(|w| (r.name.clone(), [0.0; 3], w)))
        .collect()
}

/// A point query: the face under `(x, y)` (nearest `z` where faces overlap), as JSON
/// `{"face", "z", "material", "walkable"}` plus `"room"` for areas.
pub fn query_at(path: &Path, x: f32, y: f32, z: Option<f32>) -> Result<Value, Error> {
    if is_area(path) {
        let area = open_area(path)?;
        let q = walkmesh::Area::new(&area_rooms(&area)).map_err(|e| mesh_error(path, e))?;
        let a = q.at(x, y, z);
        let mut v = a.answer.to_json();
        v["room"] = json!(a.room);
        return Ok(v);
    }
    let mesh = load_bwm(path)?;
    Ok(walkmesh::query_at(&mesh, x, y, z)
        .map_err(|e| mesh_error(path, e))?
        .to_json())
}

/// A ray query: the nearest face hit, as JSON `{"face", "distance", "point", "material",
/// "walkable"}` plus `"room"` for areas.
pub fn query_ray(path: &Path, origin: [f32; 3], dir: [f32; 3]) -> Result<Value, Error> {
    if is_area(path) {
        let area = open_area(path)?;
        let rooms = area_rooms(&area);
        let q = walkmesh::Area::new(&rooms).map_err(|e| mesh_error(path, e))?;
        return Ok(match q.ray(origin, dir) {
            Some((room, hit)) => {
                let bwm = &rooms.iter().find(|r| r.0 == room).map(|r| &r.2);
                let material = bwm
                    .and_then(|b| b.faces.get(hit.face as usize))
                    .map(|f| f.material);
                json!({
                    "room": room, "face": hit.face, "distance": hit.distance, "point": hit.point,
                    "material": material.map(|m| m.name()), "walkable": material.is_some_and(Material::is_walkable),
                })
            }
            None => {
                json!({"room": null, "face": null, "distance": null, "point": null, "material": null, "walkable": false})
            }
        });
    }
    let mesh = load_bwm(path)?;
    Ok(walkmesh::query_ray(&mesh, origin, dir)
        .map_err(|e| mesh_error(path, e))?
        .to_json())
}

/// Rebuilds a walkmesh's derived data and writes it atomically.
pub fn rebuild_file(input: &Path, output: &Path) -> Result<Bwm, Error> {
    let mesh = load_bwm(input)?;
    let rebuilt = walkmesh::rebuild(&mesh).map_err(|e| mesh_error(input, e))?;
    let bytes = bwm::write(&rebuilt).map_err(|source| Error::Encode {
        path: output.to_path_buf(),
        source,
    })?;
    fsio::write_atomic(output, &bytes)?;
    Ok(rebuilt)
}

/// The largest picture `render` draws (pixels on the longer side): 16384² RGBA is 1 GiB.
pub const MAX_PICTURE_SIZE: u32 = 16384;

/// Draws `input` (a BWM, an area, or an NWN2 terrain) to `output` (`.svg` or `.png`), with the
/// findings of `check` marked when `with_findings`.
pub fn render_file(
    input: &Path,
    output: &Path,
    with_findings: bool,
    size: u32,
) -> Result<(), Error> {
    render_file_with(input, output, with_findings, size, &Overlays::default()).map(|_| ())
}

/// What to draw over a map besides the ground: placed objects and paths.
#[derive(Debug, Clone, Default)]
pub struct Overlays {
    /// An `--objects` file: its objects are drawn, and paths go around them.
    pub objects: Option<std::path::PathBuf>,
    /// Paths to find and draw (start, goal).
    pub paths: Vec<(
        crate::geometry::nav::Endpoint,
        crate::geometry::nav::Endpoint,
    )>,
    /// The agent radius of the paths.
    pub radius: f32,
}

/// What a map shows of an input: its rooms (name and walkmesh), the names of every room of
/// the layout (transition targets), the findings of `check` with the index of their room, and
/// a title. Shared by `render` and `view`.
#[derive(Debug, Clone, Default)]
pub struct MapInput {
    /// Rooms with a walkmesh: name (areas) and walkmesh in area space.
    pub rooms: Vec<(Option<String>, Bwm)>,
    /// Every room of the layout in LYT order (a transition is an index into it).
    pub room_names: Vec<String>,
    /// Findings of `check` and the index in `rooms` of the room each is about.
    pub findings: Vec<(usize, Finding)>,
    /// The input's file (or folder) name.
    pub title: String,
    /// Whether the input is an NWN2 TRX/TRN (faces coloured by island, not material).
    pub trx: bool,
}

/// The overlays of a map, ready to draw.
#[derive(Debug, Clone, Default)]
pub struct DrawnOverlays {
    /// Placed objects' footprints.
    pub objects: Vec<render::MapObject>,
    /// Found paths (area space).
    pub paths: Vec<Vec<[f32; 3]>>,
    /// A message for each path that was not found.
    pub notes: Vec<String>,
}

fn title_of(input: &Path) -> String {
    input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| input.display().to_string())
}

/// Loads what a map of `input` shows (a BWM, an NWN2 terrain, or an area — with the placed
/// objects of its module when its folder holds one, [`crate::modules::detect`]), with the
/// findings of `check` when `with_findings`, and the overlays (objects, paths) drawn over it.
/// The input is read once.
pub fn load_picture(
    input: &Path,
    with_findings: bool,
    overlays: &Overlays,
) -> Result<(MapInput, DrawnOverlays), Error> {
    if is_area(input) {
        let module = crate::modules::folder_or_area(input)?;
        return module_picture(&module, &title_of(input), with_findings, overlays);
    }
    let mut map = MapInput {
        title: title_of(input),
        ..MapInput::default()
    };
    let mut ctx = None;
    if overlays.objects.is_some() || !overlays.paths.is_empty() {
        let req = overlay_request(input, overlays);
        ctx = Some(crate::navigate::PathContext::open(&req)?);
    }
    let data = fsio::read(input)?;
    let (mesh, findings): (Bwm, Vec<Finding>) = if data.starts_with(b"NWN2") {
        let t = areakit_formats::trx::read(&data).map_err(|e| Error::invalid(input, e))?;
        let w = t
            .walkmesh()
            .ok_or_else(|| Error::usage(format!("{}: no ASWM walkmesh packet", input.display())))?;
        let f = if with_findings {
            areakit_formats::trx::validate(&t)
        } else {
            Vec::new()
        };
        map.trx = true;
        (trx_picture_mesh(w), f)
    } else {
        let m = bwm::read(&data).map_err(|e| Error::invalid(input, e))?;
        let f = if with_findings {
            walkmesh::check_bwm(&m)
        } else {
            Vec::new()
        };
        (m, f)
    };
    map.findings = findings.into_iter().map(|f| (0, f)).collect();
    map.rooms = vec![(None, mesh)];
    let drawn = draw_overlays(ctx.as_mut(), overlays, Vec::new());
    Ok((map, drawn))
}

/// What a map of a module's area shows: its rooms, its placed objects and those of
/// `overlays.objects`, the paths of `overlays` around them, and with `with_findings` the
/// area's, the navigation's, the module's and each room walkmesh's findings.
pub fn module_picture(
    module: &crate::module::Module,
    title: &str,
    with_findings: bool,
    overlays: &Overlays,
) -> Result<(MapInput, DrawnOverlays), Error> {
    let (source, objects) = crate::modules::ground(module);
    // With paths or more objects, the path context places and draws every object.
    let drawn = if overlays.objects.is_some() || !overlays.paths.is_empty() {
        let req = overlay_request(&module.area.lyt_path, overlays);
        let mut c = crate::navigate::PathContext::from_parts(source, objects, &req)?;
        draw_overlays(Some(&mut c), overlays, Vec::new())
    } else {
        let objects = objects.iter().map(|(o, w)| map_object(o, w)).collect();
        draw_overlays(None, overlays, objects)
    };
    let area = &module.area;
    let mut map = MapInput {
        title: format!("{title} (area {})", area.resref),
        room_names: area.rooms.iter().map(|r| r.name.clone()).collect(),
        rooms: area
            .rooms
            .iter()
            .filter_map(|r| r.wok.clone().map(|w| (Some(r.name.clone()), w)))
            .collect(),
        ..MapInput::default()
    };
    if with_findings {
        let names: Vec<&str> = map
            .rooms
            .iter()
            .map(|r| r.0.as_deref().unwrap_or_default())
            .collect();
        for f in crate::modules::findings(module) {
            let room = f
                .place
                .room
                .as_deref()
                .and_then(|n| names.iter().position(|m| m.eq_ignore_ascii_case(n)));
            map.findings.push((room.unwrap_or(0), f));
        }
        for (i, (_, w)) in map.rooms.iter().enumerate() {
            map.findings
                .extend(walkmesh::check_bwm(w).into_iter().map(|f| (i, f)));
        }
    }
    Ok((map, drawn))
}

/// [`render_file`] with overlays. An area (a LYT or a folder) is drawn with the placed
/// objects of its module when the folder holds one ([`crate::modules::detect`]). Returns a
/// message for each path that was not found (the picture is written without it).
pub fn render_file_with(
    input: &Path,
    output: &Path,
    with_findings: bool,
    size: u32,
    overlays: &Overlays,
) -> Result<Vec<String>, Error> {
    let png = picture_kind(output, size)?;
    let (map, drawn) = load_picture(input, with_findings, overlays)?;
    write_picture(map, drawn, output, size, png)
}

/// Draws a module's area ([`module_picture`]) to `output` (`.svg` or `.png`).
pub fn render_module(
    module: &crate::module::Module,
    output: &Path,
    with_findings: bool,
    size: u32,
    overlays: &Overlays,
) -> Result<Vec<String>, Error> {
    let png = picture_kind(output, size)?;
    let title = title_of(&module.area.lyt_path);
    let (map, drawn) = module_picture(module, &title, with_findings, overlays)?;
    write_picture(map, drawn, output, size, png)
}

fn overlay_request<'a>(
    input: &'a Path,
    overlays: &'a Overlays,
) -> crate::navigate::PathRequest<'a> {
    crate::navigate::PathRequest {
        input,
        objects: overlays.objects.as_deref(),
        radius: overlays.radius,
        snap: crate::geometry::nav::DEFAULT_SNAP,
        mode: crate::navigation::PathMode::Optimal,
    }
}

fn map_object(
    o: &crate::objects::PlacedObject,
    w: &crate::objects::PlacedWalkmesh,
) -> render::MapObject {
    render::MapObject {
        label: o.tag.clone().unwrap_or_else(|| o.model.clone()),
        triangles: w.triangles.clone(),
    }
}

/// `objects`, the objects of a path context and the paths of `overlays` found in it; a message
/// for each path not found.
fn draw_overlays(
    ctx: Option<&mut crate::navigate::PathContext>,
    overlays: &Overlays,
    mut objects: Vec<render::MapObject>,
) -> DrawnOverlays {
    let mut drawn = DrawnOverlays::default();
    if let Some(ctx) = ctx {
        for (o, w) in &ctx.objects {
            objects.push(map_object(o, w));
        }
        for &(a, b) in &overlays.paths {
            let r = ctx.find(a, b);
            match &r.path {
                Some(p) => drawn
                    .paths
                    .push(p.surface_points().iter().map(|v| v.to_array()).collect()),
                None => drawn.notes.push(crate::navigate::path_note(a, b, &r)),
            }
        }
    }
    drawn.objects = objects;
    drawn
}

/// Whether the picture is a PNG (else SVG), after checking its size and name.
fn picture_kind(output: &Path, size: u32) -> Result<bool, Error> {
    if !(16..=MAX_PICTURE_SIZE).contains(&size) {
        return Err(Error::usage(format!(
            "--size {size}: expected 16 to {MAX_PICTURE_SIZE} pixels"
        )));
    }
    let ext = output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("png") => Ok(true),
        Some("svg") => Ok(false),
        _ => Err(Error::usage(format!(
            "{}: the picture must end in .svg or .png",
            output.display()
        ))),
    }
}

/// Writes the map with its overlays; returns the overlays' notes.
fn write_picture(
    map: MapInput,
    drawn: DrawnOverlays,
    output: &Path,
    size: u32,
    png: bool,
) -> Result<Vec<String>, Error> {
    let opts = RenderOptions {
        size,
        objects: drawn.objects,
        paths: drawn.paths,
        findings: map.findings,
        title: Some(map.title),
        room_names: map.room_names,
    };
    let rooms: Vec<MapRoom<'_>> = map
        .rooms
        .iter()
        .map(|(name, bwm)| MapRoom {
            name: name.as_deref(),
            offset: [0.0; 3],
            bwm,
        })
        .collect();
    let bytes = if png {
        render::render_png(&rooms, &opts)
            .map_err(|e| Error::usage(format!("{}: {e}", output.display())))?
    } else {
        render::render_svg(&rooms, &opts).into_bytes()
    };
    fsio::write_atomic(output, &bytes)?;
    Ok(drawn.notes)
}

/// An NWN2 walkmesh as a picture-only BWM: walkable triangles coloured by island (cycling
/// through the walkable material colours), the rest non-walkable. Triangles with vertex
/// indices out of range are left out (`check` reports them).
fn trx_picture_mesh(w: &areakit_formats::trx::Walkmesh) -> Bwm {
    const ISLAND_COLOURS: [Material; 8] = [
        Material::Stone,
        Material::Grass,
        Material::Metal,
        Material::Wood,
        Material::Carpet,
        Material::Dirt,
        Material::Sand,
        Material::Water,
    ];
    let nv = w.vertices.len();
    let faces: Vec<Face> = w
        .triangles
        .iter()
        .filter(|t| t.vertices.iter().all(|&v| (v as usize) < nv))
        .map(|t| Face {
            vertices: t.vertices,
            material: if t.is_walkable() {
                ISLAND_COLOURS[usize::from(t.island) % ISLAND_COLOURS.len()]
            } else {
                Material::NonWalk
            },
        })
        .collect();
    Bwm {
        walkmesh_type: WalkmeshType::Area,
        vertices: w.vertices.clone(),
        normals: vec![[0.0, 0.0, 1.0]; faces.len()],
        distances: vec![0.0; faces.len()],
        faces,
        ..Bwm::default()
    }
}

/// Compiles an ASCII walkmesh (KotOR ASCII WOK, NWN PWK/DWK, or the `aabb` node of an MDL
/// ASCII model) to a BWM with every derived table rebuilt. `output` decides the type: a
/// `.pwk`/`.dwk` name gives a placeable/door walkmesh, anything else an area walkmesh.
pub fn compile_walkmesh(
    model: &areakit_formats::mdl_ascii::Model,
    output: &Path,
) -> Result<Bwm, Error> {
    use crate::ascii_walkmesh::{ToBwmOptions, to_bwm, walkmesh_from_model};
    let name = output
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let placeable = name.ends_with(".pwk") || name.ends_with(".dwk");
    let w = walkmesh_from_model(model).map_err(|e| Error::invalid(output, e))?;
    let opts = ToBwmOptions {
        walkmesh_type: if placeable {
            WalkmeshType::PlaceableOrDoor
        } else {
            WalkmeshType::Area
        },
        ..ToBwmOptions::default()
    };
    let geometry = to_bwm(&w, &opts);
    let mut transitions = vec![[-1i32; 3]; geometry.bwm.faces.len()];
    for t in &geometry.transitions {
        if let Some(face) = transitions.get_mut((t.edge / 3) as usize) {
            face[(t.edge % 3) as usize] = t.room;
        }
    }
    let mut template = geometry.bwm;
    let n = template.faces.len();
    template.normals = vec![[0.0; 3]; n];
    template.distances = vec![0.0; n];
    let mut compiled = walkmesh::rebuild_with_transitions(&template, &transitions)
        .map_err(|e| mesh_error(output, e))?;
    number_vertices_by_first_use(&mut compiled);
    Ok(compiled)
}

/// Renumbers vertices in order of first use by the faces (in their final, walkable-first
/// order), unused ones last — the numbering of the game compiler's output: the compiled
/// `m13aa_04a.wok` in the corpus numbers its 265 vertices this way, so compiling its ASCII
/// source gives the same vertex and face tables.
pub fn number_vertices_by_first_use(bwm: &mut Bwm) {
    const UNSET: u32 = u32::MAX;
    let mut new_index = vec![UNSET; bwm.vertices.len()];
    let mut order = Vec::with_capacity(bwm.vertices.len());
    for f in &bwm.faces {
        for &v in &f.vertices {
            if let Some(slot) = new_index.get_mut(v as usize) {
                if *slot == UNSET {
                    *slot = order.len() as u32;
                    order.push(v);
                }
            }
        }
    }
    for (v, slot) in new_index.iter_mut().enumerate() {
        if *slot == UNSET {
            *slot = order.len() as u32;
            order.push(v as u32);
        }
    }
    bwm.vertices = order.iter().map(|&v| bwm.vertices[v as usize]).collect();
    for f in &mut bwm.faces {
        for v in &mut f.vertices {
            if let Some(&n) = new_index.get(*v as usize) {
                *v = n;
            }
        }
    }
}
