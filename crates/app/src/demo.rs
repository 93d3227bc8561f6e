//! `areakit demo`: a small KotOR-style area generated in memory (no corpus file is embedded),
//! written to a folder, read back and verified.
//!
//! The area has three rooms in a row and a corner, each a walkable floor grid with a different
//! material mix and a non-walkable pillar (its footprint and its sides), joined by doorways
//! whose boundary edges carry transitions to the room across.

use std::path::{Path, PathBuf};

use areakit_formats::bwm::{self, Bwm, Face, Material, WalkmeshType};
use areakit_formats::{lyt, vis};

use areakit_area::walkmesh;
use areakit_geometry::nav::Endpoint;

use crate::Error;
use crate::navigate::{PathContext, PathRequest};
use crate::report::Report;
use crate::session::{Session, write_atomic};

/// A room of the demo area before its derived data is built.
#[derive(Debug, Clone)]
pub struct DemoRoom {
    /// Room (and WOK resource) name.
    pub name: String,
    /// The room's position in the layout.
    pub position: [f32; 3],
    /// Vertices (world space), faces and materials; derived tables empty.
    pub mesh: Bwm,
    /// Per face, per edge: the index (in layout order) of the room across, or -1.
    pub transitions: Vec<[i32; 3]>,
}

/// A doorway on one side of a room: the side, the span along it, and the room across.
#[derive(Debug, Clone, Copy)]
enum Side {
    West,
    East,
    South,
    North,
}

struct RoomSpec {
    name: &'static str,
    origin: [f32; 2],
    size: [usize; 2],
    floor: fn(usize, usize) -> Material,
    pillar: [usize; 2],
    doors: &'static [(Side, [f32; 2], i32)],
}

const PILLAR_HEIGHT: f32 = 3.0;

fn floor_a(_: usize, _: usize) -> Material {
    Material::Stone
}

fn floor_b(_: usize, y: usize) -> Material {
    if (4..6).contains(&y) {
        Material::Carpet
    } else {
        Material::Metal
    }
}

fn floor_c(x: usize, y: usize) -> Material {
    if (x + y) % 7 == 0 {
        Material::Dirt
    } else {
        Material::Grass
    }
}

const ROOMS: [RoomSpec; 3] = [
    RoomSpec {
        name: "demo_a",
        origin: [0.0, 0.0],
        size: [10, 10],
        floor: floor_a,
        pillar: [3, 3],
        doors: &[(Side::East, [4.0, 6.0], 1)],
    },
    RoomSpec {
        name: "demo_b",
        origin: [10.0, 0.0],
        size: [10, 10],
        floor: floor_b,
        pillar: [6, 2],
        doors: &[(Side::West, [4.0, 6.0], 0), (Side::North, [14.0, 16.0], 2)],
    },
    RoomSpec {
        name: "demo_c",
        origin: [10.0, 10.0],
        size: [10, 8],
        floor: floor_c,
        pillar: [2, 5],
        doors: &[(Side::South, [14.0, 16.0], 1)],
    },
];

/// The demo rooms, in layout order.
pub fn rooms() -> Vec<DemoRoom> {
    ROOMS.iter().map(build_room).collect()
}

fn build_room(spec: &RoomSpec) -> DemoRoom {
    let [nx, ny] = spec.size;
    let [ox, oy] = spec.origin;
    let mut mesh = Bwm {
        walkmesh_type: WalkmeshType::Area,
        position: [ox, oy, 0.0],
        ..Bwm::default()
    };
    let mut transitions = Vec::new();
    for y in 0..=ny {
        for x in 0..=nx {
            mesh.vertices.push([ox + x as f32, oy + y as f32, 0.0]);
        }
    }
    let v = |x: usize, y: usize| (y * (nx + 1) + x) as u32;
    let door = |side: Side, a: f32, b: f32| -> i32 {
        spec.doors
            .iter()
            .find(|(s, span, _)| {
                std::mem::discriminant(s) == std::mem::discriminant(&side)
                    && a >= span[0]
                    && b <= span[1]
            })
            .map_or(-1, |d| d.2)
    };
    for y in 0..ny {
        for x in 0..nx {
            let pillar = [x, y] == spec.pillar;
            let material = if pillar {
                Material::NonWalk
            } else {
                (spec.floor)(x, y)
            };
            // Counter-clockwise seen from above: (00, 10, 11) and (00, 11, 01).
            mesh.faces.push(Face {
                vertices: [v(x, y), v(x + 1, y), v(x + 1, y + 1)],
                material,
            });
            mesh.faces.push(Face {
                vertices: [v(x, y), v(x + 1, y + 1), v(x, y + 1)],
                material,
            });
            let (fx, fy) = (ox + x as f32, oy + y as f32);
            let mut t1 = [-1; 3];
            let mut t2 = [-1; 3];
            if y == 0 {
                t1[0] = door(Side::South, fx, fx + 1.0);
            }
            if x == nx - 1 {
                t1[1] = door(Side::East, fy, fy + 1.0);
            }
            if y == ny - 1 {
                t2[1] = door(Side::North, fx, fx + 1.0);
            }
            if x == 0 {
                t2[2] = door(Side::West, fy, fy + 1.0);
            }
            transitions.push(t1);
            transitions.push(t2);
        }
    }
    // The pillar's four sides and its top: non-walkable.
    let [px, py] = spec.pillar;
    let base = mesh.vertices.len() as u32;
    let corners = [[px, py], [px + 1, py], [px + 1, py + 1], [px, py + 1]];
    for [cx, cy] in corners {
        mesh.vertices
            .push([ox + cx as f32, oy + cy as f32, PILLAR_HEIGHT]);
    }
    for k in 0..4 {
        let (a, b) = (corners[k], corners[(k + 1) % 4]);
        let (lo_a, lo_b) = (v(a[0], a[1]), v(b[0], b[1]));
        let (hi_a, hi_b) = (base + k as u32, base + ((k + 1) % 4) as u32);
        mesh.faces.push(Face {
            vertices: [lo_a, lo_b, hi_b],
            material: Material::NonWalk,
        });
        mesh.faces.push(Face {
            vertices: [lo_a, hi_b, hi_a],
            material: Material::NonWalk,
        });
        transitions.push([-1; 3]);
        transitions.push([-1; 3]);
    }
    mesh.faces.push(Face {
        vertices: [base, base + 1, base + 2],
        material: Material::NonWalk,
    });
    mesh.faces.push(Face {
        vertices: [base, base + 2, base + 3],
        material: Material::NonWalk,
    });
    transitions.push([-1; 3]);
    transitions.push([-1; 3]);
    DemoRoom {
        name: spec.name.to_string(),
        position: [ox, oy, 0.0],
        mesh,
        transitions,
    }
}

/// The doorways of the demo area: `(room, door name, position)` for the LYT door hooks.
const DOORS: [(&str, &str, [f32; 3]); 2] = [
    ("demo_a", "door_ab", [10.0, 5.0, 0.0]),
    ("demo_b", "door_bc", [15.0, 10.0, 0.0]),
];

/// The area's resref (the LYT and VIS file names).
pub const AREA: &str = "demo";

/// What the demo did.
#[derive(Debug, Clone)]
pub struct DemoReport {
    /// The output folder.
    pub out: PathBuf,
    /// The files written.
    pub files: Vec<PathBuf>,
    /// Per room: what its WOK holds and whether it round-tripped.
    pub rooms: Vec<RoomReport>,
    /// Whether the LYT and VIS read back to the same models and the same bytes.
    pub layout_round_trip: bool,
    /// `areakit check` on the folder.
    pub check: Report,
    /// Area queries asked of the written area: `(x, y, room answered)`.
    pub queries: Vec<(f32, f32, Option<String>)>,
    /// The shortest path from the first room to the last, drawn on the map.
    pub path: Option<areakit_area::navigation::PathOutcome>,
}

/// The demo path's ends: from a corner of the first room to the far corner of the last, so
/// that the walk passes through all three rooms.
pub const PATH_ENDS: [[f32; 2]; 2] = [[1.5, 1.5], [18.5, 16.5]];

/// `demo --json`: `out`, `ok`, `files`, `rooms` (each `name`, `wok`, `faces`,
/// `walkable_faces`, `edges`, `perimeters`, `transitions`, `round_trip`),
/// `layout_round_trip`, `check` (the `check --json` object), `queries` (each `at` and
/// `room`) and `path` (the `path --json` object).
#[derive(serde::Serialize)]
struct DemoJson<'a> {
    out: String,
    ok: bool,
    files: Vec<String>,
    rooms: &'a [RoomReport],
    layout_round_trip: bool,
    check: &'a Report,
    queries: Vec<QueryJson<'a>>,
    path: Option<&'a areakit_area::navigation::PathOutcome>,
}

#[derive(serde::Serialize)]
struct QueryJson<'a> {
    at: [f32; 2],
    room: &'a Option<String>,
}

impl serde::Serialize for DemoReport {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        DemoJson {
            out: self.out.display().to_string(),
            ok: self.ok(),
            files: self.files.iter().map(|f| f.display().to_string()).collect(),
            rooms: &self.rooms,
            layout_round_trip: self.layout_round_trip,
            check: &self.check,
            queries: (self.queries.iter())
                .map(|(x, y, room)| QueryJson { at: [*x, *y], room })
                .collect(),
            path: self.path.as_ref(),
        }
        .serialize(s)
    }
}

fn display_path<S: serde::Serializer>(p: &Path, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&p.display())
}

/// One room's line in the demo report.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RoomReport {
    /// Room name.
    pub name: String,
    /// The WOK written.
    #[serde(serialize_with = "display_path")]
    pub wok: PathBuf,
    /// Faces.
    pub faces: usize,
    /// Walkable faces.
    pub walkable_faces: usize,
    /// Boundary edges.
    pub edges: usize,
    /// Perimeter loops.
    pub perimeters: usize,
    /// Edges with a transition.
    pub transitions: usize,
    /// Whether the file read back to the same model and wrote back to the same bytes.
    pub round_trip: bool,
}

impl DemoReport {
    /// Whether every check passed: every file round-trips, `check` finds nothing, and every
    /// query landed in the room expected.
    pub fn ok(&self) -> bool {
        self.rooms.iter().all(|r| r.round_trip)
            && self.layout_round_trip
            && self.check.findings.is_empty()
            && self.queries.iter().all(|q| q.2.is_some())
            && self.path_through_all_rooms()
    }

    /// Whether the demo path was found and passes through every room.
    pub fn path_through_all_rooms(&self) -> bool {
        self.path.as_ref().is_some_and(|p| {
            p.found()
                && self
                    .rooms
                    .iter()
                    .all(|r| p.rooms.iter().any(|n| n == &r.name))
        })
    }
}

/// The demo's layout: the rooms at their positions and a door hook per doorway.
pub fn layout(rooms: &[DemoRoom]) -> lyt::Lyt {
    let mut l = lyt::Lyt::default();
    l.rooms = rooms
        .iter()
        .map(|r| lyt::Placement::new(&r.name, r.position))
        .collect();
    l.doorhooks = DOORS
        .iter()
        .map(|(room, door, p)| lyt::DoorHook::new(*room, *door, *p))
        .collect();
    l
}

/// The demo's visibility: every room sees itself and the rooms it has a doorway to.
pub fn visibility(rooms: &[DemoRoom]) -> vis::Vis {
    let mut v = vis::Vis::default();
    for r in rooms {
        v.add_room(&r.name);
        v.set_visible(&r.name, &r.name, true);
        for t in r.transitions.iter().flatten().filter(|t| **t >= 0) {
            if let Some(other) = rooms.get(*t as usize) {
                v.set_visible(&r.name, &other.name, true);
            }
        }
    }
    v
}

/// Builds the demo area, writes it into `out` (LYT, VIS, one WOK per room, and a map as SVG
/// and PNG), reads every file back and verifies it, runs `check` on the folder and asks the
/// area a few questions.
pub fn run(out: &Path) -> Result<DemoReport, Error> {
    // The demo reads back only the files it wrote.
    let session = Session::files_only();
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let rooms = rooms();
    let mut report = DemoReport {
        out: out.to_path_buf(),
        files: Vec::new(),
        rooms: Vec::new(),
        layout_round_trip: true,
        check: Report::default(),
        queries: Vec::new(),
        path: None,
    };
    let mut meshes = Vec::new();
    for room in &rooms {
        let path = out.join(format!("{}.wok", room.name));
        let mesh = walkmesh::rebuild_with_transitions(&room.mesh, &room.transitions)
            .map_err(|e| Error::geometry(&path, e))?;
        let bytes = bwm::write(&mesh).map_err(|e| Error::encode(&path, e))?;
        write_atomic(&path, &bytes)?;
        let back_bytes = session.read(&path)?;
        let back = bwm::read(&back_bytes).map_err(|e| Error::invalid(&path, e))?;
        let round_trip = back == mesh && bwm::write(&back).ok().as_deref() == Some(&back_bytes[..]);
        report.rooms.push(RoomReport {
            name: room.name.clone(),
            wok: path.clone(),
            faces: back.faces.len(),
            walkable_faces: back.walkable_face_count(),
            edges: back.edges.len(),
            perimeters: back.perimeters.len(),
            transitions: back.edges.iter().filter(|e| e.transition >= 0).count(),
            round_trip,
        });
        report.files.push(path);
        meshes.push(back);
    }

    let lyt_path = out.join(format!("{AREA}.lyt"));
    let vis_path = out.join(format!("{AREA}.vis"));
    let layout = layout(&rooms);
    let visibility = visibility(&rooms);
    let lyt_bytes = lyt::write(&layout).map_err(|e| Error::encode(&lyt_path, e))?;
    let vis_bytes = vis::write(&visibility).map_err(|e| Error::encode(&vis_path, e))?;
    write_atomic(&lyt_path, &lyt_bytes)?;
    write_atomic(&vis_path, &vis_bytes)?;
    let lyt_back =
        lyt::read(&session.read(&lyt_path)?).map_err(|e| Error::invalid(&lyt_path, e))?;
    let vis_back =
        vis::read(&session.read(&vis_path)?).map_err(|e| Error::invalid(&vis_path, e))?;
    report.layout_round_trip = lyt_back == layout
        && vis_back == visibility
        && lyt::write(&lyt_back).ok() == Some(lyt_bytes)
        && vis::write(&vis_back).ok() == Some(vis_bytes);
    report.files.push(lyt_path.clone());
    report.files.push(vis_path);

    // The shortest path from the first room to the last.
    let [a, b] = PATH_ENDS.map(|[x, y]| Endpoint::plan(x, y));
    let mut ctx = PathContext::open(&session, &PathRequest::new(&lyt_path))?;
    report.path = Some(ctx.find(a, b));

    // The map with the path, then everything `check` says about the folder (the pictures are
    // not checked).
    let overlays = crate::picture::Overlays {
        paths: vec![(a, b)],
        ..Default::default()
    };
    for ext in ["svg", "png"] {
        let pic = out.join(format!("{AREA}.{ext}"));
        crate::picture::render_file(&session, &lyt_path, &pic, true, 800, &overlays)?;
        report.files.push(pic);
    }
    report.check = crate::check::check_paths(&session, &[out.to_path_buf()])?;

    // Ask the area what lies at the centre of each room's floor.
    let area_rooms: Vec<(String, [f32; 3], Bwm)> = rooms
        .iter()
        .zip(meshes)
        .map(|(r, m)| (r.name.clone(), [0.0; 3], m))
        .collect();
    let query = walkmesh::Area::new(&area_rooms).map_err(|e| Error::geometry(out, e))?;
    for spec in &ROOMS {
        let (x, y) = (spec.origin[0] + 0.5 + 0.25, spec.origin[1] + 0.25);
        let answer = query.at(x, y, None);
        let expected = answer.room.as_deref() == Some(spec.name);
        report
            .queries
            .push((x, y, answer.room.filter(|_| expected)));
    }
    Ok(report)
}
