//! Pictures of an input: what a map shows (rooms, objects, findings, paths) loaded once
//! ([`load_picture`]) and drawn by [`crate::render`] (`render`), or handed to the viewer
//! (`view`).

use std::path::Path;

use areakit_area::module::Module;
use areakit_area::objects::{PlacedObject, PlacedWalkmesh};
use areakit_formats::Finding;
use areakit_formats::bwm::{self, Bwm, Face, Material, WalkmeshType};
use areakit_geometry::nav::Endpoint;

use crate::Error;
use crate::input::{self, Opened};
use crate::navigate::{PathContext, PathRequest};
use crate::render::{self, MapRoom, RenderOptions};
use crate::session::{Session, write_atomic};

/// The largest picture `render` draws (pixels on the longer side): 16384² RGBA is 1 GiB.
pub const MAX_PICTURE_SIZE: u32 = 16384;

/// What to draw over a map besides the ground: placed objects and paths.
#[derive(Debug, Clone, Default)]
pub struct Overlays {
    /// An `--objects` file: its objects are drawn, and paths go around them.
    pub objects: Option<std::path::PathBuf>,
    /// Paths to find and draw (start, goal).
    pub paths: Vec<(Endpoint, Endpoint)>,
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

/// Loads what a map of `input` shows ([`input::open`]: a BWM, an NWN2 terrain, or an area —
/// with the placed objects of its module), with the findings of `check` when
/// `with_findings`, and the overlays (objects, paths) drawn over it. The input is read once.
pub fn load_picture(
    session: &Session,
    input: &Path,
    with_findings: bool,
    overlays: &Overlays,
) -> Result<(MapInput, DrawnOverlays), Error> {
    match input::open(session, Some(input))? {
        Opened::Area { module, title, .. } => {
            module_picture(session, &module, &title, with_findings, overlays)
        }
        Opened::File { path, data } => file_picture(session, &path, &data, with_findings, overlays),
    }
}

/// What a map of one walkmesh or terrain file shows.
fn file_picture(
    session: &Session,
    input: &Path,
    data: &[u8],
    with_findings: bool,
    overlays: &Overlays,
) -> Result<(MapInput, DrawnOverlays), Error> {
    let mut map = MapInput {
        title: input::title_of(input),
        ..MapInput::default()
    };
    let (mesh, findings): (Bwm, Vec<Finding>) = if data.starts_with(b"NWN2") {
        let t = areakit_formats::trx::read(data).map_err(|e| Error::invalid(input, e))?;
        let w = t
            .walkmesh()
            .ok_or_else(|| crate::navigate::no_walkmesh(input))?;
        let f = if with_findings {
            areakit_formats::trx::validate(&t)
        } else {
            Vec::new()
        };
        map.trx = true;
        (trx_picture_mesh(w), f)
    } else {
        let m = bwm::read(data).map_err(|e| Error::invalid(input, e))?;
        let f = if with_findings {
            areakit_area::walkmesh::check_bwm(&m)
        } else {
            Vec::new()
        };
        (m, f)
    };
    let drawn = if overlays.objects.is_some() || !overlays.paths.is_empty() {
        let source = crate::navigate::file_source(input, data)?;
        let req = overlay_request(input, overlays);
        let mut ctx = PathContext::from_parts(session, source, Vec::new(), &req)?;
        draw_overlays(Some(&mut ctx), overlays, Vec::new())
    } else {
        DrawnOverlays::default()
    };
    map.findings = findings.into_iter().map(|f| (0, f)).collect();
    map.rooms = vec![(None, mesh)];
    Ok((map, drawn))
}

/// What a map of a module's area shows: its rooms, its placed objects and those of
/// `overlays.objects`, the paths of `overlays` around them, and with `with_findings` the
/// area's, the navigation's, the module's and each room walkmesh's findings.
pub fn module_picture(
    session: &Session,
    module: &Module,
    title: &str,
    with_findings: bool,
    overlays: &Overlays,
) -> Result<(MapInput, DrawnOverlays), Error> {
    let objects = module.placed();
    // With paths or more objects, the path context places and draws every object.
    let drawn = if overlays.objects.is_some() || !overlays.paths.is_empty() {
        let req = overlay_request(&module.area.lyt_path, overlays);
        let mut c = PathContext::from_parts(session, module.nav_source(), objects, &req)?;
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
        for f in crate::check::module_findings(module).0 {
            let room = f
                .place
                .room
                .as_deref()
                .and_then(|n| names.iter().position(|m| m.eq_ignore_ascii_case(n)));
            map.findings.push((room.unwrap_or(0), f));
        }
        for (i, (_, w)) in map.rooms.iter().enumerate() {
            map.findings.extend(
                areakit_area::walkmesh::check_bwm(w)
                    .into_iter()
                    .map(|f| (i, f)),
            );
        }
    }
    Ok((map, drawn))
}

/// Draws `input` ([`load_picture`]) to `output` (`.svg` or `.png`), with the findings of
/// `check` marked when `with_findings`, and the overlays. Returns a message for each path that
/// was not found (the picture is written without it).
pub fn render_file(
    session: &Session,
    input: &Path,
    output: &Path,
    with_findings: bool,
    size: u32,
    overlays: &Overlays,
) -> Result<Vec<String>, Error> {
    crate::session::refuse_overwrite(input, output, false)?;
    let png = picture_kind(output, size)?;
    let (map, drawn) = load_picture(session, input, with_findings, overlays)?;
    write_picture(map, drawn, output, size, png)
}

fn overlay_request<'a>(input: &'a Path, overlays: &'a Overlays) -> PathRequest<'a> {
    PathRequest {
        input,
        objects: overlays.objects.as_deref(),
        radius: overlays.radius,
        snap: areakit_geometry::nav::DEFAULT_SNAP,
        mode: areakit_area::navigation::PathMode::Optimal,
    }
}

fn map_object(o: &PlacedObject, w: &PlacedWalkmesh) -> render::MapObject {
    render::MapObject {
        label: o.tag.clone().unwrap_or_else(|| o.model.clone()),
        triangles: w.triangles.clone(),
    }
}

/// `objects`, the objects of a path context and the paths of `overlays` found in it; a message
/// for each path not found.
fn draw_overlays(
    ctx: Option<&mut PathContext>,
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
            "picture size {size}: expected 16 to {MAX_PICTURE_SIZE} pixels"
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
        render::render_png(&rooms, &opts).map_err(|source| Error::Render {
            path: output.to_path_buf(),
            source,
        })?
    } else {
        render::render_svg(&rooms, &opts).into_bytes()
    };
    write_atomic(output, &bytes)?;
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
