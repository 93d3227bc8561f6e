//! `areakit demo`: a small KotOR-style area generated in memory (no corpus file is embedded),
//! written to a folder, read back and verified.
//!
//! The area has three rooms in a row and a corner, each a walkable floor grid with a different
//! material mix and a non-walkable pillar (its footprint and its sides), joined by doorways
//! whose boundary edges carry transitions to the room across.

use std::path::{Path, PathBuf};

use areakit_formats::bwm::{self, Bwm, Face, Material, WalkmeshType};
use serde_json::{Value, json};

use crate::{Error, fsio};

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

/// What the demo did.
#[derive(Debug, Clone)]
pub struct DemoReport {
    /// The output folder.
    pub out: PathBuf,
    /// Per room: name, WOK path, faces, walkable faces, edges, transitions, round trip ok.
    pub rooms: Vec<RoomReport>,
}

/// One room's line in the demo report.
#[derive(Debug, Clone)]
pub struct RoomReport {
    /// Room name.
    pub name: String,
    /// The WOK written.
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
    /// Whether every check passed.
    pub fn ok(&self) -> bool {
        self.rooms.iter().all(|r| r.round_trip)
    }

    /// The report as JSON.
    pub fn to_json(&self) -> Value {
        let rooms: Vec<Value> = self
            .rooms
            .iter()
            .map(|r| {
                json!({
                    "name": r.name, "wok": r.wok.display().to_string(), "faces": r.faces,
                    "walkable_faces": r.walkable_faces, "edges": r.edges, "perimeters": r.perimeters,
                    "transitions": r.transitions, "round_trip": r.round_trip,
                })
            })
            .collect();
        json!({ "out": self.out.display().to_string(), "ok": self.ok(), "rooms": rooms })
    }

    /// The report as text.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "areakit demo: {} rooms written to {}\n",
            self.rooms.len(),
            self.out.display()
        );
        for r in &self.rooms {
            s.push_str(&format!(
                "  {:<8} {:>4} faces ({} walkable), {} edges in {} loops, {} transitions, round trip {}\n",
                r.name,
                r.faces,
                r.walkable_faces,
                r.edges,
                r.perimeters,
                r.transitions,
                if r.round_trip { "ok" } else { "FAILED" }
            ));
        }
        s.push_str(if self.ok() {
            "all checks passed\n"
        } else {
            "some checks FAILED\n"
        });
        s
    }
}

/// Builds the demo area, writes it into `out`, reads every file back and verifies it.
pub fn run(out: &Path, rebuild: impl Fn(&Bwm, &[[i32; 3]]) -> Bwm) -> Result<DemoReport, Error> {
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let mut report = DemoReport {
        out: out.to_path_buf(),
        rooms: Vec::new(),
    };
    for room in rooms() {
        let mesh = rebuild(&room.mesh, &room.transitions);
        let path = out.join(format!("{}.wok", room.name));
        let bytes = bwm::write(&mesh).map_err(|source| Error::Encode {
            path: path.clone(),
            source,
        })?;
        fsio::write_atomic(&path, &bytes)?;
        let back_bytes = fsio::read(&path)?;
        let back = bwm::read(&back_bytes).map_err(|e| Error::invalid(&path, e))?;
        let round_trip = back == mesh && bwm::write(&back).ok().as_deref() == Some(&back_bytes[..]);
        report.rooms.push(RoomReport {
            name: room.name,
            wok: path,
            faces: back.faces.len(),
            walkable_faces: back.walkable_face_count(),
            edges: back.edges.len(),
            perimeters: back.perimeters.len(),
            transitions: back.edges.iter().filter(|e| e.transition >= 0).count(),
            round_trip,
        });
    }
    Ok(report)
}
