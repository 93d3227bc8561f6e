//! Synthetic areas of box rooms, for the tests, the benchmark and examples of the VIS
//! generator: a grid of rooms, each a box (floor, ceiling, four walls facing inwards) whose
//! model stands at the room's LYT position, with doorways cut in the walls between some
//! neighbours (those rooms are linked), and pillars standing in some rooms.

use areakit_formats::bwm::{Bwm, Face, Material};
use areakit_formats::mdl::Model;

use super::{VisRoom, trimesh_model};

/// A room of a synthetic area.
#[derive(Debug, Clone)]
pub struct SyntheticRoom {
    /// `r<col>_<row>`.
    pub name: String,
    /// The floor (two walkable faces), in area space.
    pub walkmesh: Bwm,
    /// The box, in model space (one rendered trimesh).
    pub model: Model,
    /// The model's drawn triangles, in area space (what an oracle tests against).
    pub triangles: Vec<[[f32; 3]; 3]>,
    /// The LYT position (the room's lower corner).
    pub position: [f32; 3],
}

/// A synthetic area: rooms and the pairs linked by a doorway.
#[derive(Debug, Clone)]
pub struct SyntheticArea {
    /// The rooms, column-major in the grid.
    pub rooms: Vec<SyntheticRoom>,
    /// Pairs of room indices joined by a doorway.
    pub links: Vec<(usize, usize)>,
    /// Pairs of room indices with a window between them (not linked).
    pub windows: Vec<(usize, usize)>,
}

impl SyntheticArea {
    /// The rooms as the generator takes them.
    pub fn vis_rooms(&self) -> Vec<VisRoom<'_>> {
        self.rooms
            .iter()
            .map(|r| VisRoom {
                name: r.name.clone(),
                walkmesh: Some(&r.walkmesh),
                model: Some(&r.model),
                position: r.position,
            })
            .collect()
    }
}

/// The shape of a synthetic grid.
#[derive(Debug, Clone, PartialEq)]
pub struct GridSpec {
    /// Rooms along x.
    pub cols: usize,
    /// Rooms along y.
    pub rows: usize,
    /// A room's side, in metres.
    pub size: f32,
    /// A room's height, in metres.
    pub height: f32,
    /// Doorway width and height, in metres.
    pub door: [f32; 2],
    /// Chance that two neighbours share a doorway.
    pub door_chance: f64,
    /// Chance that a room has a pillar.
    pub pillar_chance: f64,
    /// Chance that two neighbours without a doorway share a window instead (no walkmesh link).
    pub window_chance: f64,
    /// Window width, height and sill height, in metres (a narrow slit by choice).
    pub window: [f32; 3],
    /// Seeds the choices (the same seed, the same area).
    pub seed: u64,
}

impl Default for GridSpec {
    fn default() -> Self {
        GridSpec {
            cols: 4,
            rows: 3,
            size: 10.0,
            height: 4.0,
            door: [1.6, 2.6],
            door_chance: 0.6,
            pillar_chance: 0.3,
            window_chance: 0.0,
            window: [0.1, 1.0, 1.2],
            seed: 1,
        }
    }
}

/// A small deterministic generator (SplitMix64).
#[derive(Debug, Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A quad `a b c d` (counter-clockwise seen from its front) as two triangles.
fn quad(out: &mut Vec<[[f32; 3]; 3]>, a: [f32; 3], b: [f32; 3], c: [f32; 3], d: [f32; 3]) {
    out.push([a, b, c]);
    out.push([a, c, d]);
}

/// A wall in the vertical plane through `from` → `to` (at floor height 0), seen from its left
/// (counter-clockwise order as seen from the room when walking `from` → `to` keeps the room on
/// the left), `h` high, with a hole `door` = (centre along the wall from `from`, width,
/// height, sill) cut in it: a doorway with sill 0, a window above it.
fn wall(out: &mut Vec<[[f32; 3]; 3]>, from: [f32; 2], to: [f32; 2], h: f32, door: Option<Hole>) {
    let len = ((to[0] - from[0]).powi(2) + (to[1] - from[1]).powi(2)).sqrt();
    let at = |s: f32, z: f32| {
        let k = s / len;
        [
            from[0] + (to[0] - from[0]) * k,
            from[1] + (to[1] - from[1]) * k,
            z,
        ]
    };
    // Seen from the room (on the left of from → to), a quad from s0 to s1 and z0 to z1 runs
    // counter-clockwise as (s1, z0), (s0, z0), (s0, z1), (s1, z1).
    let mut panel = |s0: f32, s1: f32, z0: f32, z1: f32| {
        if s1 > s0 && z1 > z0 {
            quad(out, at(s1, z0), at(s0, z0), at(s0, z1), at(s1, z1));
        }
    };
    match door {
        None => panel(0.0, len, 0.0, h),
        Some((c, w, dh, sill)) => {
            let (s0, s1) = (c - w / 2.0, c + w / 2.0);
            panel(0.0, s0, 0.0, h);
            panel(s1, len, 0.0, h);
            panel(s0, s1, (sill + dh).min(h), h);
            panel(s0, s1, 0.0, sill.min(h));
        }
    }
}

/// A hole in a wall of [`box_room`]: centre along the wall (from its lower-coordinate end),
/// width, height, sill (0 for a doorway).
pub type Hole = (f32, f32, f32, f32);

/// A box room `size` square and `height` high with its lower corner at `position` (its LYT
/// position): floor, ceiling and four walls facing in, each wall (south, east, north, west)
/// with an optional hole, and an optional 1 m square pillar (its lower corner, in room space).
/// Its walkmesh is the floor (two walkable faces, area space).
pub fn box_room(
    name: &str,
    position: [f32; 3],
    size: f32,
    height: f32,
    holes: [Option<Hole>; 4],
    pillar: Option<[f32; 2]>,
) -> SyntheticRoom {
    let (s, h) = (size, height);
    let mut tris = Vec::new();
    // Floor (seen from above) and ceiling (seen from below).
    quad(
        &mut tris,
        [0.0, 0.0, 0.0],
        [s, 0.0, 0.0],
        [s, s, 0.0],
        [0.0, s, 0.0],
    );
    quad(
        &mut tris,
        [0.0, 0.0, h],
        [0.0, s, h],
        [s, s, h],
        [s, 0.0, h],
    );
    let [south, east, north, west] = holes;
    let flip = |d: Option<Hole>| d.map(|(at, w, dh, sill)| (s - at, w, dh, sill));
    wall(&mut tris, [0.0, 0.0], [s, 0.0], h, south);
    wall(&mut tris, [s, 0.0], [s, s], h, east);
    wall(&mut tris, [s, s], [0.0, s], h, flip(north));
    wall(&mut tris, [0.0, s], [0.0, 0.0], h, flip(west));
    if let Some([px, py]) = pillar {
        // Walls facing out of the pillar: walk it clockwise (seen from above).
        let corners = [
            [px, py],
            [px, py + 1.0],
            [px + 1.0, py + 1.0],
            [px + 1.0, py],
        ];
        for k in 0..4 {
            wall(&mut tris, corners[k], corners[(k + 1) % 4], h, None);
        }
    }
    let walkmesh = Bwm {
        vertices: vec![
            [position[0], position[1], position[2]],
            [position[0] + s, position[1], position[2]],
            [position[0] + s, position[1] + s, position[2]],
            [position[0], position[1] + s, position[2]],
        ],
        faces: vec![
            Face {
                vertices: [0, 1, 2],
                material: Material::from_id(4),
            },
            Face {
                vertices: [0, 2, 3],
                material: Material::from_id(4),
            },
        ],
        ..Bwm::default()
    };
    let model = trimesh_model(name, &tris);
    let triangles = tris
        .iter()
        .map(|t| t.map(|p| [p[0] + position[0], p[1] + position[1], p[2] + position[2]]))
        .collect();
    SyntheticRoom {
        name: name.to_string(),
        walkmesh,
        model,
        triangles,
        position,
    }
}

/// A grid of box rooms as `spec` says. Doorways between neighbours are at a random place
/// along the shared wall (both rooms' walls have the gap); windows (between neighbours without
/// a doorway, not linked) likewise; pillars are 1 m square, floor to ceiling, at a random
/// place in the room.
pub fn grid_area(spec: &GridSpec) -> SyntheticArea {
    let mut rng = Rng(spec.seed);
    let (n, s, h) = (spec.cols * spec.rows, spec.size, spec.height);
    let index = |c: usize, r: usize| c * spec.rows + r;
    // Doorways: (room a, room b, along x?, centre along the wall).
    let mut doors: Vec<(usize, usize, f32)> = Vec::new();
    for c in 0..spec.cols {
        for r in 0..spec.rows {
            if c + 1 < spec.cols && rng.unit() < spec.door_chance {
                let at = spec.door[0] + rng.unit() as f32 * (s - 2.0 * spec.door[0]);
                doors.push((index(c, r), index(c + 1, r), at));
            }
            if r + 1 < spec.rows && rng.unit() < spec.door_chance {
                let at = spec.door[0] + rng.unit() as f32 * (s - 2.0 * spec.door[0]);
                doors.push((index(c, r), index(c, r + 1), at));
            }
        }
    }
    // Windows: between neighbours without a doorway, chosen after the doorways (so an area
    // without windows is the same as before they existed).
    let mut windows: Vec<(usize, usize, f32)> = Vec::new();
    if spec.window_chance > 0.0 {
        let w = spec.window[0].max(0.01);
        for c in 0..spec.cols {
            for r in 0..spec.rows {
                for (a, b) in [
                    (c + 1 < spec.cols).then(|| (index(c, r), index(c + 1, r))),
                    (r + 1 < spec.rows).then(|| (index(c, r), index(c, r + 1))),
                ]
                .into_iter()
                .flatten()
                {
                    let has_door = doors.iter().any(|d| (d.0, d.1) == (a, b));
                    if !has_door && rng.unit() < spec.window_chance {
                        let at = w + rng.unit() as f32 * (s - 2.0 * w);
                        windows.push((a, b, at));
                    }
                }
            }
        }
    }
    let door_between = |a: usize, b: usize| {
        let key = (a.min(b), a.max(b));
        doors
            .iter()
            .find(|d| (d.0, d.1) == key)
            .map(|d| (d.2, spec.door[0], spec.door[1], 0.0))
            .or_else(|| {
                windows
                    .iter()
                    .find(|d| (d.0, d.1) == key)
                    .map(|d| (d.2, spec.window[0], spec.window[1], spec.window[2]))
            })
    };
    let mut rooms = Vec::with_capacity(n);
    for c in 0..spec.cols {
        for r in 0..spec.rows {
            let i = index(c, r);
            // Walls, walking counter-clockwise round the room (the room on the left). The
            // doorway centre is measured from the wall's lower-coordinate end.
            let south = (r > 0).then(|| door_between(i, index(c, r - 1))).flatten();
            let east = (c + 1 < spec.cols)
                .then(|| door_between(i, index(c + 1, r)))
                .flatten();
            let north = (r + 1 < spec.rows)
                .then(|| door_between(i, index(c, r + 1)))
                .flatten();
            let west = (c > 0).then(|| door_between(i, index(c - 1, r))).flatten();
            let pillar = (rng.unit() < spec.pillar_chance).then(|| {
                let px = 2.0 + rng.unit() as f32 * (s - 5.0);
                let py = 2.0 + rng.unit() as f32 * (s - 5.0);
                [px, py]
            });
            rooms.push(box_room(
                &format!("r{c}_{r}"),
                [c as f32 * s, r as f32 * s, 0.0],
                s,
                h,
                [south, east, north, west],
                pillar,
            ));
        }
    }
    let links = doors.iter().map(|d| (d.0, d.1)).collect();
    let windows = windows.iter().map(|d| (d.0, d.1)).collect();
    SyntheticArea {
        rooms,
        links,
        windows,
    }
}
