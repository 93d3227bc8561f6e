//! Building a module from kit rooms (`areakit build`): a [`Layout`] of rooms (Holocron kit
//! components, or any room model + walkmesh) placed by flip → rotate → move, joined where
//! their door hooks meet, becomes every file of a module: LYT (rooms, door hooks), VIS (from
//! geometry, [`crate::visgen`]), each room's MDL/MDX and WOK transformed and renamed
//! `<module>_<nn>`, the WOK room links set by [`crate::relink`], ARE with its map block and
//! the minimap ([`crate::minimap`]), GIT doors at the connected hooks, IFO with an entry
//! point on walkable ground, and what the kits supply (door templates, lightmaps, textures,
//! `always/` files). Everything is made in memory; the caller writes it (`docs/build.md`).

pub mod kit;
pub mod kit_check;
pub mod layout;
pub mod load;
pub mod records;
pub mod stages;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use areakit_formats::bwm::Bwm;
use areakit_formats::gff::Gff;
use areakit_formats::mdl::{Game, Model, Name};
use areakit_geometry::transform::{Axis, Transform};
use serde::Serialize;

pub use layout::{
    Connection, Layout, LayoutKind, LayoutRoom, Placement, Position, RoomSource, TargetGame,
};
pub use stages::{BuildFacts, Stage, build_with};

use crate::minimap::RoomImage;

/// Why a module could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The layout (or a kit JSON) is malformed: line:column and what was expected.
    #[error("layout: {0}")]
    Layout(String),
    /// Something the layout names is not there (kit, component, file, hook).
    #[error("missing: {0}")]
    Missing(String),
    /// A file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file given to the build is unusable: it does not decode, or its content cannot be
    /// used as a room (a walkmesh that cannot be placed, a broken hook).
    #[error("{what}: {source}")]
    Invalid {
        /// What it is (kit/component file, or the path).
        what: String,
        /// Why, with the decoder's located error where it did not decode.
        #[source]
        source: Malformed,
    },
    /// The rooms cannot make a module as placed (overlap, name too long, ...); names the rooms.
    #[error("{0}")]
    Placement(String),
    /// A file of the module could not be made.
    #[error("encoding the module: {what}: {source}")]
    Encode {
        /// The module file (`x.wok`, `LYT`, `minimap`).
        what: String,
        /// Why.
        #[source]
        source: Unencodable,
    },
}

/// Why a file given to the build is unusable ([`BuildError::Invalid`]).
#[derive(Debug, thiserror::Error)]
pub enum Malformed {
    /// It does not decode as its format.
    #[error(transparent)]
    Decode(#[from] areakit_formats::DecodeError),
    /// Its walkmesh cannot be moved into place.
    #[error(transparent)]
    Walkmesh(#[from] areakit_geometry::MeshError),
    /// Its minimap image does not decode.
    #[error(transparent)]
    Image(#[from] crate::minimap::MinimapError),
    /// A hook off its opening, facing in or naming no door (the kit check's message).
    #[error("broken hook: {0}")]
    BrokenHook(String),
}

/// Why a file of the module could not be made ([`BuildError::Encode`]).
#[derive(Debug, thiserror::Error)]
pub enum Unencodable {
    /// Its encoder refused the value.
    #[error(transparent)]
    Encode(#[from] areakit_formats::EncodeError),
    /// The minimap could not be drawn.
    #[error(transparent)]
    Minimap(#[from] crate::minimap::MinimapError),
}

impl BuildError {
    /// [`BuildError::Invalid`]: `what` is unusable for `source`.
    pub fn invalid(what: impl Into<String>, source: impl Into<Malformed>) -> BuildError {
        BuildError::Invalid {
            what: what.into(),
            source: source.into(),
        }
    }

    /// [`BuildError::Encode`]: the module file `what` could not be made for `source`.
    pub fn encode(what: impl Into<String>, source: impl Into<Unencodable>) -> BuildError {
        BuildError::Encode {
            what: what.into(),
            source: source.into(),
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> BuildError {
        BuildError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// A door hook of a component, in the component's space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ComponentHook {
    /// Position.
    pub position: [f32; 3],
    /// The direction the doorway faces: degrees counter-clockwise from +y.
    pub rotation: f32,
    /// Index into [`Component::doors`].
    pub door: usize,
    /// The transition value marking the doorway's edges in the component's WOK, if any.
    pub edge: Option<i32>,
}

/// A door template a component's hooks use.
#[derive(Debug, Clone)]
pub struct DoorTemplate {
    /// Where it came from (for messages).
    pub label: String,
    /// The UTD.
    pub utd: Gff,
    /// Doorway width (the wider door of a connection is placed).
    pub width: f32,
    /// Doorway height.
    pub height: f32,
}

/// A room's model, walkmesh, hooks, minimap image and doors, in the room's own space, loaded.
#[derive(Debug, Clone)]
pub struct Component {
    /// `kit/component` or the file it came from (for messages and the report).
    pub label: String,
    /// The walkmesh.
    pub walkmesh: Bwm,
    /// The model, when there is one.
    pub model: Option<Model>,
    /// Door hooks.
    pub hooks: Vec<ComponentHook>,
    /// Minimap image (Holocron's convention: 10 px per metre, centred on the origin).
    pub image: Option<RoomImage>,
    /// Door templates, indexed by [`ComponentHook::door`]; `None` where the kit names a
    /// template it does not hold (those doorways stay open, with a warning).
    pub doors: Vec<Option<DoorTemplate>>,
    /// The kit it comes from (its doorway padding models apply to its doors).
    pub kit: Option<String>,
}

/// A file a kit supplies that the module carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuppliedFile {
    /// Resref (file stem).
    pub resref: String,
    /// Extension, lower case.
    pub ext: String,
    /// Bytes.
    pub data: Vec<u8>,
}

/// What the kits supply besides rooms and doors.
#[derive(Debug, Clone, Default)]
pub struct Supplies {
    /// `lightmaps/`: TGA (and TXI) by lightmap name; renamed `<module>_lm<n>` with the model
    /// references.
    pub lightmaps: Vec<SuppliedFile>,
    /// `textures/`: TGA/TXI, copied under their names.
    pub textures: Vec<SuppliedFile>,
    /// `always/`: copied as they are.
    pub always: Vec<SuppliedFile>,
    /// The skybox model the layout names, if a kit has it.
    pub skybox: Option<Model>,
    /// `doorway/` padding models: where two connected doors differ in height (`top`) or
    /// width (`side`), the padding of the smaller door closes the gap.
    pub padding: Vec<Padding>,
}

/// Which gap a padding model closes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaddingKind {
    /// Above the smaller door (`top<door>_<size>`): the other door is taller.
    Top,
    /// Beside it (`side<door>_<size>`): the other door is wider.
    Side,
}

/// A doorway padding model of a kit (`doorway/top<door>_<size>.mdl` or `side...`).
#[derive(Debug, Clone)]
pub struct Padding {
    /// The kit.
    pub kit: String,
    /// Top or side.
    pub kind: PaddingKind,
    /// The kit door (index into its doors) it pads.
    pub door: usize,
    /// The other door's size it is made for, in centimetres.
    pub size_cm: u32,
    /// The model.
    pub model: Model,
}

/// Reads `top<door>_<size>` / `side<door>_<size>` (a padding model's file stem): kind, door,
/// size in centimetres.
pub fn padding_name(stem: &str) -> Option<(PaddingKind, usize, u32)> {
    let lower = stem.to_ascii_lowercase();
    let (kind, rest) = if let Some(r) = lower.strip_prefix("top") {
        (PaddingKind::Top, r)
    } else if let Some(r) = lower.strip_prefix("side") {
        (PaddingKind::Side, r)
    } else {
        return None;
    };
    let (door, size) = rest.split_once('_')?;
    Some((kind, door.parse().ok()?, size.parse().ok()?))
}

/// Everything `build` needs, loaded: the layout, one component per layout room, supplies.
#[derive(Debug, Clone)]
pub struct BuildInput {
    /// The layout.
    pub layout: Layout,
    /// The components; `room_components[i]` is layout room `i`'s.
    pub components: Vec<Component>,
    /// Per layout room, its component.
    pub room_components: Vec<usize>,
    /// Kit supplies.
    pub supplies: Supplies,
    /// The game the module is for.
    pub game: TargetGame,
    /// Threads for the VIS ray tests (0: one per core).
    pub threads: usize,
}

/// One file of the module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleFile {
    /// Resref.
    pub resref: String,
    /// Extension, lower case (`mdl`, `wok`, `are`, ...; `ifo` for `module.ifo`).
    pub ext: String,
    /// Bytes.
    pub data: Vec<u8>,
}

impl ModuleFile {
    /// `resref.ext`.
    pub fn file_name(&self) -> String {
        format!("{}.{}", self.resref, self.ext)
    }
}

/// A built room, for the report.
#[derive(Debug, Clone, Serialize)]
pub struct BuiltRoom {
    /// Its LYT name.
    pub name: String,
    /// Its component.
    pub source: String,
    /// Where it went.
    pub position: [f32; 3],
    /// Rotation, degrees.
    pub rotation: f32,
    /// Flipped in x.
    pub flip_x: bool,
    /// Flipped in y.
    pub flip_y: bool,
    /// Per hook: the room (LYT index) it connects to.
    pub hooks: Vec<Option<usize>>,
    /// Walkable edges linked to other rooms (transitions set).
    pub links: usize,
    /// Whether a path from the entry reaches it.
    pub reached: bool,
}

/// A connection made, for the report.
#[derive(Debug, Clone, Serialize)]
pub struct BuiltConnection {
    /// The two rooms (LYT indices).
    pub rooms: [usize; 2],
    /// Their hooks.
    pub hooks: [usize; 2],
    /// The door placed (its resref).
    pub door: String,
    /// Where.
    pub position: [f32; 3],
    /// Whether the layout named it (else the hooks met).
    pub explicit: bool,
}

/// What `build` made and found.
#[derive(Debug, Clone, Serialize)]
pub struct BuildReport {
    /// The module resref.
    pub module: String,
    /// The target game.
    pub game: TargetGame,
    /// The layout format read.
    pub layout: LayoutKind,
    /// Rooms in LYT order.
    pub rooms: Vec<BuiltRoom>,
    /// Connections (doors).
    pub connections: Vec<BuiltConnection>,
    /// The entry point.
    pub entry: [f32; 3],
    /// Room pairs the VIS lists (each pair once).
    pub vis_pairs: usize,
    /// Room pairs linked through their walkmeshes.
    pub linked_pairs: usize,
    /// Share of sampled walkable points that the ARE map block puts on drawn minimap pixels.
    pub minimap_coverage: f32,
    /// Rooms whose minimap came from a kit image.
    pub minimap_images: usize,
    /// Warnings, each naming its room.
    pub warnings: Vec<String>,
}

/// A built module: its files (in a stable order), the report, and what its check need not
/// compute again.
#[derive(Debug, Clone)]
pub struct Built {
    /// The files.
    pub files: Vec<ModuleFile>,
    /// The report.
    pub report: BuildReport,
    /// The VIS pairs and the navigation data the build made.
    pub facts: BuildFacts,
}

/// A connection found: (room a, hook a, room b, hook b, explicit).
pub(crate) type Joint = (usize, usize, usize, usize, bool);

/// How far below the hook plan tolerance two hook heights may differ (metres).
const HOOK_HEIGHT_TOLERANCE: f32 = 0.5;
/// How far from exactly opposite two hooks may face (degrees).
const HOOK_ANGLE_TOLERANCE: f32 = 2.0;
/// Overlap grid cell (metres) and the overlapping walkable area that is an error.
const OVERLAP_CELL: f32 = 0.25;
const OVERLAP_LIMIT_M2: f32 = 1.0;
/// Walkable ground of two rooms this far apart in height overlaps as floors stacked, not as
/// rooms in each other.
const STACKED_HEIGHT: f32 = 2.5;

/// Checks a module resref: lower-case letters, digits and `_`, and short enough that
/// `lbl_map<module>` (the minimap) fits a 16-character resref.
pub fn check_module_name(module: &str) -> Result<(), BuildError> {
    if module.is_empty()
        || !module
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    {
        return Err(BuildError::Placement(format!(
            "module name {module:?}: expected lower-case letters, digits and _ (a resref)"
        )));
    }
    if module.len() > 9 {
        return Err(BuildError::Placement(format!(
            "module name {module:?} has {} characters: at most 9, so that lbl_map{module} (the minimap) fits the game's 16-character resrefs",
            module.len()
        )));
    }
    Ok(())
}

/// The LYT name of room `i` of `n`: `<module>_<nn>` (two digits; three from 100 rooms).
pub fn room_name(module: &str, i: usize, n: usize) -> String {
    if n > 100 {
        format!("{module}_{i:03}")
    } else {
        format!("{module}_{i:02}")
    }
}

/// Resolves every room's placement: explicit ones as given, attached ones so that their hook
/// meets the earlier room's, facing it.
pub fn placements(input: &BuildInput) -> Result<Vec<Placement>, BuildError> {
    let mut out: Vec<Placement> = Vec::with_capacity(input.layout.rooms.len());
    for (i, room) in input.layout.rooms.iter().enumerate() {
        let comp = &input.components[input.room_components[i]];
        let p = match room.position {
            Position::At(p) => p,
            Position::Attach {
                room: j,
                to_hook,
                hook,
                flip_x,
                flip_y,
            } => {
                let other = &input.components[input.room_components[j]];
                let theirs = other.hooks.get(to_hook).ok_or_else(|| {
                    BuildError::Missing(format!(
                        "room {i}: attach.to_hook {to_hook}: room {j} ({}) has {} hooks",
                        other.label,
                        other.hooks.len()
                    ))
                })?;
                let mine = comp.hooks.get(hook).ok_or_else(|| {
                    BuildError::Missing(format!(
                        "room {i} ({}): attach.hook {hook}: it has {} hooks",
                        comp.label,
                        comp.hooks.len()
                    ))
                })?;
                let pj = out[j];
                let at = pj.point(theirs.position);
                let facing = pj.direction(theirs.rotation);
                let flipped = Placement {
                    position: [0.0; 3],
                    rotation: 0.0,
                    flip_x,
                    flip_y,
                };
                let own = flipped.direction(mine.rotation);
                let rotation = (facing + 180.0 - own).rem_euclid(360.0);
                let turned = Placement {
                    rotation,
                    ..flipped
                }
                .point(mine.position);
                Placement {
                    position: [at[0] - turned[0], at[1] - turned[1], at[2] - turned[2]],
                    rotation,
                    flip_x,
                    flip_y,
                }
            }
        };
        if !(p.position.iter().all(|c| c.is_finite()) && p.rotation.is_finite()) {
            return Err(BuildError::Placement(format!(
                "room {i} ({}): position and rotation must be finite",
                comp.label
            )));
        }
        out.push(p);
    }
    Ok(out)
}

pub(crate) fn steps_of(p: &Placement, translate: bool) -> Vec<Transform> {
    let mut steps = Vec::with_capacity(4);
    if p.flip_x {
        steps.push(Transform::Mirror(Axis::X));
    }
    if p.flip_y {
        steps.push(Transform::Mirror(Axis::Y));
    }
    if p.rotation != 0.0 {
        steps.push(Transform::RotateZ(p.rotation as f64));
    }
    if translate && p.position != [0.0; 3] {
        steps.push(Transform::Translate(p.position));
    }
    steps
}

fn angle_gap(a: f32, b: f32) -> f32 {
    let d = (a - b).rem_euclid(360.0);
    d.min(360.0 - d)
}

/// Finds the connections: explicit ones, then hooks of different rooms that meet (plan
/// distance within the tolerance, heights within 0.5 m, facing each other within 2°). A hook
/// joins at most one other (the nearest). Warnings for hooks that meet without facing.
pub(crate) fn connect(
    input: &BuildInput,
    places: &[Placement],
    warnings: &mut Vec<String>,
) -> Result<Vec<Joint>, BuildError> {
    let world: Vec<Vec<([f32; 3], f32)>> = places
        .iter()
        .enumerate()
        .map(|(i, p)| {
            input.components[input.room_components[i]]
                .hooks
                .iter()
                .map(|h| (p.point(h.position), p.direction(h.rotation)))
                .collect()
        })
        .collect();
    let mut used: HashMap<(usize, usize), usize> = HashMap::new();
    let mut joints: Vec<Joint> = Vec::new();
    for c in &input.layout.connections {
        let [a, b] = c.rooms;
        let [ha, hb] = c.hooks;
        for (r, h) in [(a, ha), (b, hb)] {
            if world.get(r).and_then(|w| w.get(h)).is_none() {
                return Err(BuildError::Missing(format!(
                    "connection {a}:{ha} - {b}:{hb}: room {r} has no hook {h}"
                )));
            }
        }
        if a == b {
            return Err(BuildError::Placement(format!(
                "connection {a}:{ha} - {b}:{hb} joins a room to itself"
            )));
        }
        let (pa, pb) = (world[a][ha].0, world[b][hb].0);
        let d = dist(pa, pb);
        if d > 0.5 {
            return Err(BuildError::Placement(format!(
                "connection room {a} hook {ha} - room {b} hook {hb}: the hooks are {d:.2} m apart; rooms join only where their doorways meet"
            )));
        }
        for k in [(a, ha), (b, hb)] {
            if used.insert(k, joints.len()).is_some() {
                return Err(BuildError::Placement(format!(
                    "room {} hook {} is in two connections",
                    k.0, k.1
                )));
            }
        }
        joints.push((a, ha, b, hb, true));
    }
    let tol = input.layout.hook_tolerance;
    let mut candidates: Vec<(f32, usize, usize, usize, usize)> = Vec::new();
    for a in 0..world.len() {
        for b in a + 1..world.len() {
            for (ha, &(pa, da)) in world[a].iter().enumerate() {
                for (hb, &(pb, db)) in world[b].iter().enumerate() {
                    let plan = ((pa[0] - pb[0]).powi(2) + (pa[1] - pb[1]).powi(2)).sqrt();
                    if plan > tol || (pa[2] - pb[2]).abs() > HOOK_HEIGHT_TOLERANCE {
                        continue;
                    }
                    if (angle_gap(da, db) - 180.0).abs() > HOOK_ANGLE_TOLERANCE {
                        warnings.push(format!(
                            "room {a} hook {ha} and room {b} hook {hb} meet but do not face each other ({da:.0}° and {db:.0}°): not connected"
                        ));
                        continue;
                    }
                    candidates.push((plan, a, ha, b, hb));
                }
            }
        }
    }
    candidates.sort_by(|x, y| x.0.total_cmp(&y.0));
    for (_, a, ha, b, hb) in candidates {
        if used.contains_key(&(a, ha)) || used.contains_key(&(b, hb)) {
            continue;
        }
        used.insert((a, ha), joints.len());
        used.insert((b, hb), joints.len());
        joints.push((a, ha, b, hb, false));
    }
    Ok(joints)
}

fn dist(a: [f32; 3], b: [f32; 3]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// The walkable triangles of a walkmesh (area space).
pub(crate) fn walkable_triangles(w: &Bwm) -> impl Iterator<Item = [[f32; 3]; 3]> + '_ {
    w.faces
        .iter()
        .filter(|f| f.material.is_walkable())
        .filter_map(|f| {
            let v = |i: u32| w.vertices.get(i as usize).copied();
            Some([v(f.vertices[0])?, v(f.vertices[1])?, v(f.vertices[2])?])
        })
}

/// Rooms whose walkable ground overlaps in plan (more than 1 m² at heights within 2.5 m):
/// an error naming both.
pub(crate) fn check_overlaps(rooms: &[(String, &Bwm)]) -> Result<(), BuildError> {
    // cell → (room, height) of the first room whose walkable ground covers the cell centre.
    let mut cells: HashMap<(i32, i32), Vec<(usize, f32)>> = HashMap::new();
    let mut overlap: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for (r, (_, w)) in rooms.iter().enumerate() {
        let mut mine: HashMap<(i32, i32), f32> = HashMap::new();
        for t in walkable_triangles(w) {
            let (lo_x, hi_x) = span(t.map(|v| v[0]));
            let (lo_y, hi_y) = span(t.map(|v| v[1]));
            let cells_wide =
                ((hi_x - lo_x) / OVERLAP_CELL) as i64 * ((hi_y - lo_y) / OVERLAP_CELL) as i64;
            if !(0..=4_000_000).contains(&cells_wide) {
                continue;
            }
            let (x0, x1) = (
                (lo_x / OVERLAP_CELL).floor() as i32,
                (hi_x / OVERLAP_CELL).ceil() as i32,
            );
            let (y0, y1) = (
                (lo_y / OVERLAP_CELL).floor() as i32,
                (hi_y / OVERLAP_CELL).ceil() as i32,
            );
            for cx in x0..=x1 {
                for cy in y0..=y1 {
                    let p = [
                        (cx as f32 + 0.5) * OVERLAP_CELL,
                        (cy as f32 + 0.5) * OVERLAP_CELL,
                    ];
                    if let Some(z) = height_in(t, p) {
                        mine.entry((cx, cy)).or_insert(z);
                    }
                }
            }
        }
        for (cell, z) in mine {
            let list = cells.entry(cell).or_default();
            for &(o, oz) in list.iter() {
                if (oz - z).abs() < STACKED_HEIGHT {
                    *overlap.entry((o, r)).or_default() += 1;
                }
            }
            list.push((r, z));
        }
    }
    let cell_area = OVERLAP_CELL * OVERLAP_CELL;
    let bad: Vec<String> = overlap
        .iter()
        .filter(|(_, n)| **n as f32 * cell_area > OVERLAP_LIMIT_M2)
        .map(|((a, b), n)| {
            format!(
                "rooms {a} ({}) and {b} ({}) overlap in plan: {:.1} m² of walkable ground in both",
                rooms[*a].0,
                rooms[*b].0,
                *n as f32 * cell_area
            )
        })
        .collect();
    if bad.is_empty() {
        Ok(())
    } else {
        Err(BuildError::Placement(bad.join("; ")))
    }
}

fn span(v: [f32; 3]) -> (f32, f32) {
    (v[0].min(v[1]).min(v[2]), v[0].max(v[1]).max(v[2]))
}

/// The height of triangle `t` above plan point `p`, when `p` is inside it.
fn height_in(t: [[f32; 3]; 3], p: [f32; 2]) -> Option<f32> {
    let [a, b, c] = t;
    let d = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
    if d.abs() < 1e-12 {
        return None;
    }
    let l1 = ((b[1] - c[1]) * (p[0] - c[0]) + (c[0] - b[0]) * (p[1] - c[1])) / d;
    let l2 = ((c[1] - a[1]) * (p[0] - c[0]) + (a[0] - c[0]) * (p[1] - c[1])) / d;
    let l3 = 1.0 - l1 - l2;
    (l1 >= 0.0 && l2 >= 0.0 && l3 >= 0.0).then(|| l1 * a[2] + l2 * b[2] + l3 * c[2])
}

/// The walkable point of a room farthest (in plan) from its walkable boundary, sampled at the
/// walkable faces' centroids: where the entry point of the first room goes, and where paths to
/// a room end. `None` when the room has no walkable face.
pub fn interior_point(w: &Bwm) -> Option<[f32; 3]> {
    let tris: Vec<[[f32; 3]; 3]> = walkable_triangles(w).collect();
    // The walkable boundary: the WOK's own perimeter edges (`face * 3 + side`).
    let boundary: Vec<([f32; 2], [f32; 2])> = w
        .edges
        .iter()
        .filter_map(|e| {
            let t = w.face_positions((e.edge / 3) as usize)?;
            let k = (e.edge % 3) as usize;
            let (p, q) = (t[k], t[(k + 1) % 3]);
            Some(([p[0], p[1]], [q[0], q[1]]))
        })
        .collect();
    let mut best: Option<(f32, [f32; 3])> = None;
    for t in &tris {
        let c = [
            (t[0][0] + t[1][0] + t[2][0]) / 3.0,
            (t[0][1] + t[1][1] + t[2][1]) / 3.0,
            (t[0][2] + t[1][2] + t[2][2]) / 3.0,
        ];
        let clear = boundary
            .iter()
            .map(|&(a, b)| seg_dist([c[0], c[1]], a, b))
            .fold(f32::INFINITY, f32::min);
        if best.is_none_or(|(d, _)| clear > d) {
            best = Some((clear, c));
        }
    }
    best.map(|(_, c)| c)
}

fn seg_dist(p: [f32; 2], a: [f32; 2], b: [f32; 2]) -> f32 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let l2 = dx * dx + dy * dy;
    let t = if l2 > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((p[0] - a[0] - t * dx).powi(2) + (p[1] - a[1] - t * dy).powi(2)).sqrt()
}

/// Renames a model (geometry name, the root node, nodes and animation roots named after it)
/// and, per `lightmaps`, its meshes' lightmap textures.
pub(crate) fn rename_model(m: &mut Model, new: &str, lightmaps: &HashMap<String, String>) {
    let old = m.geometry.name.as_string();
    m.geometry.name = Name::new(new);
    let root_index = m.nodes.first().map(|n| n.name_index as usize);
    for (i, name) in m.names.iter_mut().enumerate() {
        let s = String::from_utf8_lossy(name).into_owned();
        if Some(i) == root_index || (!old.is_empty() && s.eq_ignore_ascii_case(&old)) {
            *name = new.as_bytes().to_vec();
        } else if !old.is_empty()
            && s.len() > old.len()
            && s[..old.len()].eq_ignore_ascii_case(&old)
            && s.is_char_boundary(old.len())
        {
            // `<room>_wg`-style children named after the model keep their suffix.
            let renamed = format!("{new}{}", &s[old.len()..]);
            if renamed.len() <= 32 {
                *name = renamed.into_bytes();
            }
        }
    }
    for a in &mut m.animations {
        if a.root.as_string().eq_ignore_ascii_case(&old) {
            a.root = Name::new(new);
        }
    }
    if !lightmaps.is_empty() {
        for n in &mut m.nodes {
            if let Some(mesh) = &mut n.mesh {
                let lm = mesh.texture1.as_string().to_ascii_lowercase();
                if let Some(to) = lightmaps.get(&lm) {
                    mesh.texture1 = Name::new(to);
                }
            }
        }
    }
}

/// Moves a model to the other game's layout: function pointers of the model, its
/// animations and meshes (the writer lays the K2 mesh header out from them).
pub(crate) fn retarget(m: &mut Model, game: Game) {
    if m.game == game {
        return;
    }
    m.game = game;
    m.geometry.function_pointers = game.model_function_pointers();
    for a in &mut m.animations {
        a.geometry.function_pointers = game.animation_function_pointers();
    }
    for n in &mut m.nodes {
        let flags = n.flags;
        if let Some(mesh) = &mut n.mesh {
            mesh.function_pointers = game.mesh_function_pointers(flags);
        }
    }
    m.clear_source_layout();
}

pub(crate) fn lyt_orientation(bearing_rad: f32) -> [f32; 4] {
    let h = bearing_rad as f64 / 2.0;
    [h.cos() as f32, 0.0, 0.0, h.sin() as f32]
}

/// Builds the module (every file in memory, and the report): [`stages::build_with`] with no
/// one told of the stages.
pub fn build(input: &BuildInput) -> Result<Built, BuildError> {
    build_with(input, &|_| {})
}

#[cfg(test)]
mod tests;
