//! Pictures of an input: what a map shows (rooms, objects, findings, paths) loaded once
//! ([`load_picture`]) and drawn by [`crate::render`] (`render`), or handed to the viewer
//! (`view`).

use std::path::Path;

use areakit_area::module::Module;
use areakit_area::objects::{PlacedObject, PlacedWalkmesh};
use areakit_formats::Finding;
use areakit_formats::bwm::{self, Bwm, Face, Material, WalkmeshType};
use areakit_formats::mdl;
use areakit_geometry::nav::Endpoint;

use crate::Error;
use crate::input::{self, Opened};
use crate::navigate::{PathContext, PathRequest};
use crate::render::{self, MapModel, MapRoom, RenderOptions};
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
    pub radius: crate::request::Distance,
    /// Leave out the room models of an area (drawn by default: [`room_model_outlines`]).
    pub no_models: bool,
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
    /// The top-down outlines of an area's room models, drawn under the walkmesh.
    pub models: Vec<MapModel>,
    /// An NWN2 terrain's walkmesh cutters, from the GIT of its name beside it.
    pub cutters: Vec<render::MapCutter>,
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
        Opened::Area {
            module,
            title,
            resources,
        } => {
            let (mut map, mut drawn) =
                module_picture(session, &module, &title, with_findings, overlays)?;
            // Rooms whose walkmesh was found nowhere are not drawn: say so, and how to
            // supply them.
            if let Some(note) = module.area.missing_walkmeshes_note() {
                drawn.notes.push(format!("{note}; they are not drawn"));
            }
            if !overlays.no_models {
                let models = crate::rooms::room_models(&module, resources.as_ref());
                let (outlines, notes) = room_model_outlines(&models);
                map.models = outlines;
                drawn.notes.extend(notes);
            }
            Ok((map, drawn))
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
    let format = crate::format::Format::detect(input, data);
    if format == Some(crate::format::Format::Mdl) {
        return model_picture(session, input, data, map, with_findings, overlays.no_models);
    }
    let (mesh, findings): (Bwm, Vec<Finding>) = if format == Some(crate::format::Format::Trx) {
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
        map.cutters = git_cutters(session, input);
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

/// The walkmesh cutters of the GIT beside an NWN2 terrain (same name, any case), those with a
/// polygon; none when there is no GIT or it does not read as one (`check` says why).
fn git_cutters(session: &Session, terrain: &Path) -> Vec<render::MapCutter> {
    let Ok(Some(git)) = crate::bake_area::beside(terrain, "git") else {
        return Vec::new();
    };
    let Ok(g) = crate::bake_area::read_git(session, &git) else {
        return Vec::new();
    };
    g.cutters
        .iter()
        .filter(|c| c.cuts())
        .map(|c| render::MapCutter {
            label: format!("cutter {} ({})", c.index, c.tag),
            ring: c.corners.clone(),
        })
        .collect()
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
    let mut drawn = drawn;
    drawn.objects.extend(stand_ins(module));
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
        objects: overlays.objects.as_deref(),
        radius: overlays.radius,
        ..PathRequest::new(input)
    }
}

/// The objects the module places without a walkmesh (a module built without the game, whose
/// door and placeable models only the game holds), drawn in their stead: a door as a slab
/// 0.3 m deep across its doorway (the extent of the room links' edges within
/// [`DOORWAY_REACH`] of it along the door's axis, else [`DOOR_WIDTH`]), a placeable as a 1 m
/// square; the label says so.
fn stand_ins(module: &Module) -> Vec<render::MapObject> {
    use areakit_area::objects::ObjectKind;
    use glam::Vec3;
    let woks: Vec<&Bwm> = module
        .area
        .rooms
        .iter()
        .filter_map(|r| r.wok.as_ref())
        .collect();
    module
        .objects
        .iter()
        .filter(|o| o.walkmesh.is_none())
        .map(|o| {
            let q = o.object.orientation.rotation();
            let (ax, ay) = (q * Vec3::X, q * Vec3::Y);
            let p = Vec3::from(o.object.position);
            let (half_w, half_d) = match o.object.kind {
                ObjectKind::Door => (doorway_width(&woks, p, ax) / 2.0, 0.15),
                ObjectKind::Placeable => (0.5, 0.5),
            };
            let c = |sx: f32, sy: f32| (p + ax * (sx * half_w) + ay * (sy * half_d)).to_array();
            let (a, b, cc, d) = (c(-1.0, -1.0), c(1.0, -1.0), c(1.0, 1.0), c(-1.0, 1.0));
            render::MapObject {
                label: format!(
                    "{} (no walkmesh: drawn as its {})",
                    o.object
                        .tag
                        .clone()
                        .unwrap_or_else(|| o.object.model.clone()),
                    match o.object.kind {
                        ObjectKind::Door => "doorway",
                        ObjectKind::Placeable => "position",
                    }
                ),
                triangles: vec![[a, b, cc], [a, cc, d]],
            }
        })
        .collect()
}

/// How far from a door (metres, in plan) a room link's edge is part of its doorway.
pub const DOORWAY_REACH: f32 = 0.6;
/// The width a door without a walkmesh is drawn at when no room link lies at it (metres).
pub const DOOR_WIDTH: f32 = 2.0;

/// The width of the doorway at `p` along `axis`: the extent of the room-link edges (any
/// transition) that pass within [`DOORWAY_REACH`] of it, clamped to 1–8 m.
fn doorway_width(woks: &[&Bwm], p: glam::Vec3, axis: glam::Vec3) -> f32 {
    let flat = |v: [f32; 3]| glam::Vec2::new(v[0], v[1]);
    let (p2, a2) = (
        flat(p.to_array()),
        flat(axis.to_array()).normalize_or_zero(),
    );
    let mut lo = f32::MAX;
    let mut hi = f32::MIN;
    for w in woks {
        for e in w.edges.iter().filter(|e| e.transition >= 0) {
            let Some(f) = w.face_positions(e.face() as usize) else {
                continue;
            };
            let s = e.side() as usize;
            let (a, b) = (flat(f[s]), flat(f[(s + 1) % 3]));
            let d = b - a;
            let t = ((p2 - a).dot(d) / d.length_squared().max(1e-12)).clamp(0.0, 1.0);
            if (a + d * t).distance(p2) > DOORWAY_REACH {
                continue;
            }
            for q in [a, b] {
                let x = (q - p2).dot(a2);
                lo = lo.min(x);
                hi = hi.max(x);
            }
        }
    }
    if hi > lo {
        (hi - lo).clamp(1.0, 8.0)
    } else {
        DOOR_WIDTH
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
        models: map.models,
        cutters: map.cutters,
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

/// The top-down outlines of the rooms' models ([`crate::rooms::room_models`]), in LYT order;
/// a warning for each model that does not decode (it is left out). A room whose model has no
/// drawable triangle has no outline.
pub fn room_model_outlines(models: &[crate::rooms::RoomModel]) -> (Vec<MapModel>, Vec<String>) {
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for rm in models {
        match &rm.model {
            Ok(m) => {
                let loops = model_outline(&model_triangles(m, rm.position));
                if !loops.is_empty() {
                    out.push(MapModel {
                        room: rm.name.clone(),
                        loops,
                    });
                }
            }
            Err(e) => notes.push(format!(
                "room {}: its model {} does not decode ({e}); not drawn",
                rm.name, rm.origin
            )),
        }
    }
    (out, notes)
}

/// What a map of one binary model shows: its walkmesh (the aabb nodes' faces in model space,
/// with their materials and derived edges) as the room, and the model's outline under it; the
/// model's own findings when `with_findings`.
fn model_picture(
    session: &Session,
    input: &Path,
    data: &[u8],
    mut map: MapInput,
    with_findings: bool,
    no_models: bool,
) -> Result<(MapInput, DrawnOverlays), Error> {
    use crate::document::Document;
    let doc = Document::decode_read(session, input, data)?;
    let (ground, triangles, findings) = match &doc {
        Document::Mdl(m) => (
            areakit_area::models::model_walkmesh(m),
            model_triangles(m, [0.0; 3]),
            mdl::validate(m),
        ),
        Document::NwnMdl(m) => (
            areakit_area::nwn_models::model_walkmesh(m),
            nwn_model_triangles(m, [0.0; 3]),
            mdl::nwn::validate(m),
        ),
        _ => {
            return Err(Error::usage(format!(
                "{}: not a binary model",
                input.display()
            )));
        }
    };
    let ground = ground.map_err(|e| Error::geometry(input, e))?;
    let loops = if no_models {
        Vec::new()
    } else {
        model_outline(&triangles)
    };
    if !loops.is_empty() {
        map.models = vec![MapModel {
            room: input::title_of(input),
            loops,
        }];
    }
    if with_findings {
        map.findings = findings.into_iter().map(|f| (0, f)).collect();
    }
    map.rooms = vec![(None, ground)];
    Ok((map, DrawnOverlays::default()))
}

/// The model's drawn triangles in plan (x, y), in area space (`offset`: the room's LYT
/// position, where the model's origin stands): every face of every mesh node that renders
/// (render flag set), except the walkmesh (aabb) nodes. Faces with a missing or non-finite
/// corner, and faces seen edge-on from above (walls), are left out.
pub fn model_triangles(m: &mdl::Model, offset: [f32; 3]) -> Vec<[[f32; 2]; 3]> {
    let world = m.world_transforms();
    let meshes = m.nodes.iter().enumerate().filter_map(|(i, n)| {
        let mesh = n.mesh.as_ref()?;
        let drawn = n.aabb.is_none() && n.flags & mdl::flags::AABB == 0 && mesh.render != 0;
        drawn.then(|| (world[i], &mesh.positions[..], &mesh.faces[..]))
    });
    plan_triangles(meshes, offset)
}

/// [`model_triangles`] of an NWN compiled model.
pub fn nwn_model_triangles(m: &mdl::nwn::Model, offset: [f32; 3]) -> Vec<[[f32; 2]; 3]> {
    let world = areakit_area::nwn_models::world_transforms(m);
    let meshes = m.nodes.iter().enumerate().filter_map(|(i, n)| {
        let mesh = n.mesh.as_ref()?;
        let drawn = !areakit_area::nwn_models::is_walkmesh_node(n) && mesh.render != 0;
        drawn.then(|| (world[i], mesh.positions(), &mesh.faces[..]))
    });
    plan_triangles(meshes, offset)
}

/// The faces of placed meshes (model-space rotation and translation, vertices, faces) in plan,
/// moved by `offset`; faces with a missing or non-finite corner or seen edge-on are left out.
fn plan_triangles<'a>(
    meshes: impl Iterator<Item = ((mdl::quat::Quat, [f64; 3]), &'a [[f32; 3]], &'a [mdl::Face])>,
    offset: [f32; 3],
) -> Vec<[[f32; 2]; 3]> {
    let offset = offset.map(|c| if c.is_finite() { f64::from(c) } else { 0.0 });
    let mut out = Vec::new();
    for ((q, t), positions, faces) in meshes {
        let place = |v: [f32; 3]| -> [f32; 2] {
            let p = mdl::quat::rotate(q, v.map(f64::from));
            [
                (p[0] + t[0] + offset[0]) as f32,
                (p[1] + t[1] + offset[1]) as f32,
            ]
        };
        let plan: Vec<[f32; 2]> = positions.iter().map(|&v| place(v)).collect();
        for f in faces {
            let Some(c) = f
                .vertices
                .iter()
                .map(|&v| plan.get(usize::from(v)).copied())
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            if !c.iter().flatten().all(|x| x.is_finite()) {
                continue;
            }
            let area = (c[1][0] - c[0][0]) * (c[2][1] - c[0][1])
                - (c[2][0] - c[0][0]) * (c[1][1] - c[0][1]);
            if area.abs() > 1e-4 {
                out.push([c[0], c[1], c[2]]);
            }
        }
    }
    out
}

/// Cells on the longer side of an outline's grid (finer cells for small models, down to
/// [`OUTLINE_MIN_CELL`]).
const OUTLINE_CELLS: f32 = 600.0;
/// The smallest grid cell of an outline, in metres.
const OUTLINE_MIN_CELL: f32 = 0.1;

/// The outline of the union of `triangles` (plan): the triangles are drawn on a grid (a cell
/// is inside when its centre is in a triangle; cells of [`OUTLINE_MIN_CELL`] metres or
/// 1/[`OUTLINE_CELLS`] of the longer side), the boundary between inside and outside cells is
/// traced into closed loops (outer loops counter-clockwise, holes clockwise; cells touching at
/// a corner only are apart), and each loop is simplified within one cell (Douglas-Peucker).
/// Loops smaller than four cells are dropped. Corners are rounded to centimetres.
pub fn model_outline(triangles: &[[[f32; 2]; 3]]) -> Vec<Vec<[f32; 2]>> {
    let mut lo = [f32::INFINITY; 2];
    let mut hi = [f32::NEG_INFINITY; 2];
    for p in triangles.iter().flatten() {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    if !(lo[0].is_finite() && lo[1].is_finite() && hi[0].is_finite() && hi[1].is_finite()) {
        return Vec::new();
    }
    let extent = (hi[0] - lo[0]).max(hi[1] - lo[1]);
    let cell = (extent / OUTLINE_CELLS).max(OUTLINE_MIN_CELL);
    let w = ((hi[0] - lo[0]) / cell).ceil() as usize + 1;
    let h = ((hi[1] - lo[1]) / cell).ceil() as usize + 1;
    // Each triangle's span in each row it crosses, as +1 at its first cell and -1 after its
    // last (so the work is one step per triangle and row, however large the triangle); a
    // cell is inside where the running sum along its row is positive.
    let mut spans = vec![0i32; (w + 1) * h];
    for t in triangles {
        // Grid units, cell centres at whole numbers.
        let g = t.map(|p| [(p[0] - lo[0]) / cell - 0.5, (p[1] - lo[1]) / cell - 0.5]);
        let y0 = g[0][1].min(g[1][1]).min(g[2][1]).ceil().max(0.0) as isize;
        let y1 = (g[0][1].max(g[1][1]).max(g[2][1]).floor() as isize).min(h as isize - 1);
        for j in y0..=y1 {
            let y = j as f32;
            let mut xa = f32::INFINITY;
            let mut xb = f32::NEG_INFINITY;
            for k in 0..3 {
                let (p, q) = (g[k], g[(k + 1) % 3]);
                if !((p[1] <= y && y <= q[1]) || (q[1] <= y && y <= p[1])) {
                    continue;
                }
                let (a, b) = if p[1] == q[1] {
                    (p[0].min(q[0]), p[0].max(q[0]))
                } else {
                    let x = p[0] + (y - p[1]) * (q[0] - p[0]) / (q[1] - p[1]);
                    (x, x)
                };
                xa = xa.min(a);
                xb = xb.max(b);
            }
            let i0 = xa.ceil().max(0.0) as isize;
            let i1 = (xb.floor() as isize).min(w as isize - 1);
            if i0 <= i1 {
                let row = j as usize * (w + 1);
                spans[row + i0 as usize] += 1;
                spans[row + i1 as usize + 1] -= 1;
            }
        }
    }
    let mut inside = vec![false; w * h];
    for j in 0..h {
        let mut sum = 0i32;
        for i in 0..w {
            sum += spans[j * (w + 1) + i];
            inside[j * w + i] = sum > 0;
        }
    }
    let at = |i: isize, j: isize| {
        i >= 0
            && j >= 0
            && (i as usize) < w
            && (j as usize) < h
            && inside[j as usize * w + i as usize]
    };
    // Boundary edges between grid corners, inside on the left: (from, to).
    let mut edges: Vec<([i32; 2], [i32; 2])> = Vec::new();
    for j in 0..h as isize {
        for i in 0..w as isize {
            if !at(i, j) {
                continue;
            }
            let (x, y) = (i as i32, j as i32);
            if !at(i, j - 1) {
                edges.push(([x, y], [x + 1, y]));
            }
            if !at(i + 1, j) {
                edges.push(([x + 1, y], [x + 1, y + 1]));
            }
            if !at(i, j + 1) {
                edges.push(([x + 1, y + 1], [x, y + 1]));
            }
            if !at(i - 1, j) {
                edges.push(([x, y + 1], [x, y]));
            }
        }
    }
    let mut from: std::collections::HashMap<[i32; 2], Vec<usize>> =
        std::collections::HashMap::with_capacity(edges.len());
    for (k, e) in edges.iter().enumerate() {
        from.entry(e.0).or_default().push(k);
    }
    let mut used = vec![false; edges.len()];
    let mut loops = Vec::new();
    for start in 0..edges.len() {
        if used[start] {
            continue;
        }
        let mut corners: Vec<[i32; 2]> = Vec::new();
        let mut k = start;
        loop {
            used[k] = true;
            let (a, b) = edges[k];
            corners.push(a);
            let d = [b[0] - a[0], b[1] - a[1]];
            // Where two loops meet at a corner (cells touching diagonally), turn left: each
            // loop keeps to its own cells (and every edge has one next edge).
            let next = from.get(&b).and_then(|out| {
                out.iter().copied().max_by_key(|&e| {
                    let n = [edges[e].1[0] - b[0], edges[e].1[1] - b[1]];
                    d[0] * n[1] - d[1] * n[0]
                })
            });
            match next {
                Some(e) if !used[e] => k = e,
                _ => break,
            }
        }
        if corners.len() < 4 {
            continue;
        }
        let pts: Vec<[f32; 2]> = corners.iter().map(|c| [c[0] as f32, c[1] as f32]).collect();
        let area2: f32 = (0..pts.len())
            .map(|i| {
                let (p, q) = (pts[i], pts[(i + 1) % pts.len()]);
                p[0] * q[1] - q[0] * p[1]
            })
            .sum();
        if area2.abs() < 8.0 {
            continue;
        }
        let simple = simplify_loop(&pts, 1.0);
        if simple.len() < 3 {
            continue;
        }
        let round = |v: f32| (v * 100.0).round() / 100.0;
        loops.push(
            simple
                .into_iter()
                .map(|p| [round(lo[0] + p[0] * cell), round(lo[1] + p[1] * cell)])
                .collect(),
        );
    }
    loops
}

/// A closed polyline simplified (Douglas-Peucker) so that no dropped point is farther than
/// `tolerance` from the kept outline; split at its first point and the point farthest from it.
fn simplify_loop(pts: &[[f32; 2]], tolerance: f32) -> Vec<[f32; 2]> {
    let n = pts.len();
    if n < 4 {
        return pts.to_vec();
    }
    let d2 = |a: [f32; 2], b: [f32; 2]| (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2);
    let far = (1..n)
        .max_by(|&a, &b| d2(pts[0], pts[a]).total_cmp(&d2(pts[0], pts[b])))
        .unwrap_or(n / 2);
    let mut keep = vec![false; n];
    keep[0] = true;
    keep[far] = true;
    let ring: Vec<[f32; 2]> = pts.iter().copied().chain(std::iter::once(pts[0])).collect();
    let mut stack = vec![(0usize, far), (far, n)];
    while let Some((a, b)) = stack.pop() {
        if b <= a + 1 {
            continue;
        }
        let (p, q) = (ring[a], ring[b]);
        let len = d2(p, q).sqrt();
        let dist = |r: [f32; 2]| {
            if len == 0.0 {
                d2(p, r).sqrt()
            } else {
                ((q[0] - p[0]) * (p[1] - r[1]) - (p[0] - r[0]) * (q[1] - p[1])).abs() / len
            }
        };
        let (worst, d) = (a + 1..b)
            .map(|i| (i, dist(ring[i])))
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .unwrap_or((a, 0.0));
        if d > tolerance {
            keep[worst % n] = true;
            stack.push((a, worst));
            stack.push((worst, b));
        }
    }
    (0..n).filter(|&i| keep[i]).map(|i| pts[i]).collect()
}
