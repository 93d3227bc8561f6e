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
    Area::open(path).map_err(|e| match e {
        AreaError::Io { path, source } => Error::io(&path, source),
        AreaError::Lyt { path, source } => Error::invalid(&path, source),
        other => Error::usage(other.to_string()),
    })
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

/// Loads what a map of `input` (a BWM, an area, or an NWN2 terrain) shows, with the findings
/// of `check` when `with_findings`.
pub fn load_map(input: &Path, with_findings: bool) -> Result<MapInput, Error> {
    let mut map = MapInput {
        title: input
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| input.display().to_string()),
        ..MapInput::default()
    };
    if is_area(input) {
        let area = open_area(input)?;
        map.title = format!("{} (area {})", map.title, area.resref);
        map.room_names = area.rooms.iter().map(|r| r.name.clone()).collect();
        map.rooms = area
            .rooms
            .iter()
            .filter_map(|r| r.wok.clone().map(|w| (Some(r.name.clone()), w)))
            .collect();
        if with_findings {
            let names: Vec<&str> = map
                .rooms
                .iter()
                .map(|r| r.0.as_deref().unwrap_or_default())
                .collect();
            for f in crate::area::check(&area) {
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
    } else {
        let data = fsio::read(input)?;
        let (mesh, findings): (Bwm, Vec<Finding>) = if data.starts_with(b"NWN2") {
            let t = areakit_formats::trx::read(&data).map_err(|e| Error::invalid(input, e))?;
            let w = t.walkmesh().ok_or_else(|| {
                Error::usage(format!("{}: no ASWM walkmesh packet", input.display()))
            })?;
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
    }
    Ok(map)
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

/// Placed objects and found paths of `overlays` over `input`.
pub fn load_overlays(input: &Path, overlays: &Overlays) -> Result<DrawnOverlays, Error> {
    let mut notes = Vec::new();
    let mut drawn_objects = Vec::new();
    let mut drawn_paths = Vec::new();
    if overlays.objects.is_some() || !overlays.paths.is_empty() {
        let req = crate::navigate::PathRequest {
            input,
            objects: overlays.objects.as_deref(),
            radius: overlays.radius,
            snap: crate::geometry::nav::DEFAULT_SNAP,
            mode: crate::navigation::PathMode::Optimal,
        };
        let mut ctx = crate::navigate::PathContext::open(&req)?;
        for (o, w) in &ctx.objects {
            drawn_objects.push(render::MapObject {
                label: o.tag.clone().unwrap_or_else(|| o.model.clone()),
                triangles: w.triangles.clone(),
            });
        }
        for &(a, b) in &overlays.paths {
            let r = ctx.find(a, b);
            match &r.path {
                Some(p) => {
                    drawn_paths.push(p.surface_points().iter().map(|v| v.to_array()).collect())
                }
                None => notes.push(format!(
                    "path {},{} -> {},{}: {}",
                    a.x,
                    a.y,
                    b.x,
                    b.y,
                    r.reason.as_deref().unwrap_or("not found")
                )),
            }
        }
    }
    Ok(DrawnOverlays {
        objects: drawn_objects,
        paths: drawn_paths,
        notes,
    })
}

/// [`render_file`] with overlays. Returns a message for each path that was not found (the
/// picture is written without it).
pub fn render_file_with(
    input: &Path,
    output: &Path,
    with_findings: bool,
    size: u32,
    overlays: &Overlays,
) -> Result<Vec<String>, Error> {
    let DrawnOverlays {
        objects,
        paths,
        notes,
    } = load_overlays(input, overlays)?;
    if !(16..=MAX_PICTURE_SIZE).contains(&size) {
        return Err(Error::usage(format!(
            "--size {size}: expected 16 to {MAX_PICTURE_SIZE} pixels"
        )));
    }
    let ext = output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let png = match ext.as_deref() {
        Some("png") => true,
        Some("svg") => false,
        _ => {
            return Err(Error::usage(format!(
                "{}: the picture must end in .svg or .png",
                output.display()
            )));
        }
    };
    let input_map = load_map(input, with_findings)?;
    let opts = RenderOptions {
        size,
        objects,
        paths,
        findings: input_map.findings,
        title: Some(input_map.title),
        room_names: input_map.room_names,
    };
    let map: Vec<MapRoom<'_>> = input_map
        .rooms
        .iter()
        .map(|(name, bwm)| MapRoom {
            name: name.as_deref(),
            offset: [0.0; 3],
            bwm,
        })
        .collect();
    let bytes = if png {
        render::render_png(&map, &opts)
            .map_err(|e| Error::usage(format!("{}: {e}", output.display())))?
    } else {
        render::render_svg(&map, &opts).into_bytes()
    };
    fsio::write_atomic(output, &bytes)?;
    Ok(notes)
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
