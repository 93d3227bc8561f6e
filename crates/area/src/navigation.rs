//! Navigation over areas: the walkable ground of a KotOR room walkmesh, of a whole KotOR area
//! (its rooms stitched along their shared edges) or of an NWN2 terrain, with placed objects
//! and an agent radius, handed to the geometry layer's navigation mesh and searches
//! ([`areakit_geometry::nav`]).
//!
//! - [`NavSource`]: the walkable faces of a file as a [`Surface`] (one region per room), with
//!   the face each triangle came from;
//! - [`AreaNav`]: the navigation mesh built from a source, its placed objects
//!   ([`PlacedWalkmesh`], every face a blocker) and a radius (the ground carved by the radius
//!   around walls and blockers);
//! - [`AreaNav::find`]: one path query in the modes of [`PathMode`] — `optimal` (the exact
//!   shortest path), `fast` (A* and funnel) and, on a baked NWN2 terrain, `baked` (the route
//!   the engine's baked tile and island path tables choose, then the funnel inside it);
//! - [`nav_findings`]: the `nav-unreachable-island` and `nav-narrow-passage` checks.
//!
//! `docs/navigation.md` describes the model and what the real files showed.

use areakit_formats::bwm::Bwm;
use areakit_formats::trx;
use areakit_formats::twoda::SurfaceMaterials;
use areakit_formats::{Finding, Place};
use areakit_geometry::nav::clearance::{
    self, Blocker, CarveStats, Clearance, ClearanceError, ClearanceOptions,
};
use areakit_geometry::nav::{
    self, CornerGraph, Endpoint, Landmarks, LocateError, Location, NavMesh, NavSet, Path,
    PathError, Request, Seam, Search, Searcher, Surface, SurfaceError,
};
use glam::Vec3;

use crate::area::Area;
pub use crate::baked::{BakedRouteError, baked_route};
use crate::objects::PlacedWalkmesh;

/// Boundary edges of two rooms closer than this (metres, in 3-D) are joined by
/// [`AreaNav::build`]. Rooms meet at doorways with small steps: in the Holocron Toolset's
/// `hiddenbek` kit the elevator's doorway edge stands 4.6 cm above the hallway's, 2.4 mm
/// apart in plan (`docs/navigation.md`). Ten centimetres joins such steps and never a floor
/// above another (a bridge or balcony is metres higher).
pub const DEFAULT_STITCH_TOLERANCE: f32 = 0.1;

/// Where a [`NavSource`] came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// One BWM walkmesh (a room WOK, or any walkmesh).
    Walkmesh,
    /// A KotOR area: the room WOKs of a layout.
    Area,
    /// An NWN2 terrain walkmesh (TRX/TRN).
    Terrain,
}

/// The walkable ground of a file, ready for the navigation mesh.
#[derive(Debug, Clone)]
pub struct NavSource {
    /// Walkable triangles; region = room index (LYT order), 0 for a single walkmesh.
    pub surface: Surface,
    /// One name per region (room names; the file's name for a single walkmesh or terrain).
    pub regions: Vec<String>,
    /// Per surface triangle: the face (BWM) or triangle (TRX) of its region's file.
    pub faces: Vec<u32>,
    /// What the ground came from.
    pub kind: SourceKind,
    /// The terrain walkmesh, when it carries baked path tables ([`PathMode::Baked`]).
    pub baked: Option<Box<trx::Walkmesh>>,
}

impl NavSource {
    /// The walkable faces of one walkmesh (materials walkable by the stock table).
    pub fn from_bwm(bwm: &Bwm, name: &str) -> NavSource {
        let mut s = NavSource::empty(SourceKind::Walkmesh);
        s.regions.push(name.to_string());
        s.add_bwm(bwm, 0, &stock_walkable);
        s
    }

    /// The walkable faces of every room of an area that has a walkmesh; region = the room's
    /// index in the LYT. Room walkmeshes are in area space already. Walkable by the stock
    /// `surfacemat.2da` ([`areakit_formats::bwm::Material::is_walkable`]).
    pub fn from_area(area: &Area) -> NavSource {
        NavSource::from_area_with(area, None)
    }

    /// [`NavSource::from_area`] with the walkable materials of a game's own `surfacemat.2da`
    /// (its `walk` column) instead of the stock table, when one is given.
    pub fn from_area_with(area: &Area, materials: Option<&SurfaceMaterials>) -> NavSource {
        let by_table = |id: u32| materials.is_some_and(|m| m.is_walkable(id));
        let walkable: &dyn Fn(u32) -> bool = if materials.is_some() {
            &by_table
        } else {
            &stock_walkable
        };
        let mut s = NavSource::empty(SourceKind::Area);
        for (i, room) in area.rooms.iter().enumerate() {
            s.regions.push(room.name.clone());
            if let Some(w) = &room.wok {
                s.add_bwm(w, i as u32, walkable);
            }
        }
        s
    }

    /// The walkable triangles (walkable flag) of an NWN2 terrain walkmesh.
    pub fn from_trx(w: &trx::Walkmesh, name: &str) -> NavSource {
        let mut s = NavSource::empty(SourceKind::Terrain);
        s.regions.push(name.to_string());
        let mut map = vec![u32::MAX; w.vertices.len()];
        for (t, tri) in w.triangles.iter().enumerate() {
            if !tri.is_walkable() {
                continue;
            }
            if let Some(idx) = s.take_vertices(&mut map, tri.vertices, |v| {
                w.vertices.get(v as usize).copied()
            }) {
                s.surface.triangles.push(idx);
                s.surface.regions.push(0);
                s.faces.push(t as u32);
            }
        }
        s.surface.links = trx_links(w, &s.faces);
        if w.is_baked() {
            s.baked = Some(Box::new(w.clone()));
        }
        s
    }

    fn empty(kind: SourceKind) -> NavSource {
        NavSource {
            surface: Surface::default(),
            regions: Vec::new(),
            faces: Vec::new(),
            kind,
            baked: None,
        }
    }

    fn add_bwm(&mut self, bwm: &Bwm, region: u32, walkable: &dyn Fn(u32) -> bool) {
        let mut map = vec![u32::MAX; bwm.vertices.len()];
        for (f, face) in bwm.faces.iter().enumerate() {
            if !walkable(face.material.id()) {
                continue;
            }
            if let Some(idx) = self.take_vertices(&mut map, face.vertices, |v| {
                bwm.vertices.get(v as usize).copied()
            }) {
                self.surface.triangles.push(idx);
                self.surface.regions.push(region);
                self.faces.push(f as u32);
            }
        }
    }

    /// The surface indices of a face's corners, copying vertices on first use; `None` when a
    /// corner is missing or not finite (the file's check reports it; the face is left out).
    fn take_vertices(
        &mut self,
        map: &mut [u32],
        corners: [u32; 3],
        get: impl Fn(u32) -> Option<[f32; 3]>,
    ) -> Option<[u32; 3]> {
        let mut pts = [[0.0f32; 3]; 3];
        for (k, &c) in corners.iter().enumerate() {
            let p = get(c)?;
            if !p.iter().all(|x| x.is_finite()) {
                return None;
            }
            pts[k] = p;
        }
        let mut out = [0u32; 3];
        for (k, &c) in corners.iter().enumerate() {
            let m = &mut map[c as usize];
            if *m == u32::MAX {
                *m = self.surface.vertices.len() as u32;
                self.surface.vertices.push(Vec3::from(pts[k]));
            }
            out[k] = *m;
        }
        Some(out)
    }
}

/// Walkable by the stock `surfacemat.2da`.
fn stock_walkable(id: u32) -> bool {
    areakit_formats::bwm::Material::from_id(id).is_walkable()
}

/// How to build the navigation data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavOptions {
    /// The agent's radius (metres): the ground is carved by it around walls and blockers.
    pub radius: f32,
    /// Rooms are joined where their boundary edges lie within this distance (metres).
    pub stitch_tolerance: f32,
    /// Agent height and the carving tolerances.
    pub clearance: ClearanceOptions,
}

impl Default for NavOptions {
    fn default() -> Self {
        NavOptions {
            radius: 0.0,
            stitch_tolerance: DEFAULT_STITCH_TOLERANCE,
            clearance: ClearanceOptions::default(),
        }
    }
}

/// Why the navigation data could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NavError {
    /// The surface's arrays do not agree (a bug, or a file beyond the limits).
    #[error("walkable surface: {0}")]
    Surface(#[from] SurfaceError),
    /// Carving for the radius or the objects failed.
    #[error("clearance: {0}")]
    Clearance(#[from] ClearanceError),
}

/// Which search answers a query. Its names (`optimal`, `fast`, `baked`: the command line's
/// `--mode`, Python's `mode=`, the JSON's `"mode"`) and help lines are derived from this enum
/// (`FromStr`, `&'static str`, [`strum::VariantArray`], [`strum::EnumMessage`]): a new mode
/// is a new variant and its search in [`AreaNav::find_by`], nothing else.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
    strum::EnumMessage,
)]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum PathMode {
    /// The exact Euclidean shortest path (Polyanya). The default.
    #[default]
    #[strum(message = "The exact Euclidean shortest path (any-angle, Polyanya)")]
    Optimal,
    /// A* over the triangles and the funnel algorithm: quick, not always shortest.
    #[strum(message = "A* over the faces and the funnel algorithm")]
    Fast,
    /// NWN2 only: the route of the file's baked tile and island path tables (as the engine
    /// picks it), then the funnel inside that corridor.
    #[strum(
        message = "NWN2 TRX: the route of the baked tile and island path tables, then the funnel"
    )]
    Baked,
}

impl PathMode {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// Why a start or goal could not be put on the ground searched.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EndError {
    /// Off the ground (beyond the snap distance, or no ground at all).
    #[error("{what}: {source}")]
    Off {
        /// `start` or `goal`.
        what: &'static str,
        /// Why the ground's locator refused it.
        source: LocateError,
    },
    /// On the uncarved ground but short of clearance, the nearest point with clearance beyond
    /// the snap distance.
    #[error(
        "{what} {why}; the nearest point with clearance is {nearest:.3} m away (snap distance {snap})"
    )]
    ClearanceFar {
        /// `start` or `goal`.
        what: &'static str,
        /// Its clearance, in words.
        why: String,
        /// The distance to the nearest point with clearance.
        nearest: f32,
        /// The snap distance.
        snap: f32,
    },
    /// On the uncarved ground but short of clearance, no point with clearance near.
    #[error("{what} {why}; no point with clearance within the snap distance {snap}")]
    NoClearance {
        /// `start` or `goal`.
        what: &'static str,
        /// Its clearance, in words.
        why: String,
        /// The snap distance.
        snap: f32,
    },
}

/// A start or goal as asked, with an optional height (which floor).
pub type PathPoint = Endpoint;

/// How [`AreaNav::find_by`] searches, as its caller chose: the data it names must have been
/// built ([`AreaNav::build_corner_graph`], [`AreaNav::measure_landmarks`]). Optimal lengths
/// are the same every way; fast paths over the corner graph are other paths (within
/// [`nav::FAST_BOUND`] of the shortest) than over the polygons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchChoice {
    /// Over the corner graph instead of the polygons.
    pub corner_graph: bool,
    /// Bounded by the landmarks.
    pub landmarks: bool,
}

/// The answer to one path query.
#[derive(Debug, Clone, Default)]
pub struct PathOutcome {
    /// The path, when one was found.
    pub path: Option<Path>,
    /// Why none was found.
    pub reason: Option<String>,
    /// The start and goal as used (on the ground, after any snap).
    pub ends: Option<[Location; 2]>,
    /// Remarks on a found path (a start moved to reach ground with clearance, ...).
    pub notes: Vec<String>,
    /// The rooms passed, by name, in order.
    pub rooms: Vec<String>,
    /// The search effort: nodes expanded (optimal), polygons taken from the queue (fast),
    /// triangles of the corridor (baked).
    pub faces_visited: usize,
    /// The mode that answered.
    pub mode: PathMode,
}

impl PathOutcome {
    /// Whether a path was found.
    pub fn found(&self) -> bool {
        self.path.is_some()
    }

    /// Plan length of the path (0 when none).
    pub fn length(&self) -> f32 {
        self.path.as_ref().map_or(0.0, |p| p.length_plan)
    }
}

/// The JSON object of `areakit path --json` (and of each `--pairs` line, and Python's
/// `PathResult.to_dict()`): `found`, `reason`, `length` (plan metres), `length_3d`, `points`
/// (`[x, y, z]` turning points), `rooms`, `faces_visited`, `mode`, `start`, `goal` (the
/// points used, or null), `snapped` (how far each was moved, to the `f32`'s shortest digits: a
/// move of a few micrometres is not printed as 0), `notes`. The lengths and points are
/// rounded to 1e-5.
#[derive(serde::Serialize)]
struct PathJson<'a> {
    found: bool,
    reason: &'a Option<String>,
    length: Option<f64>,
    length_3d: Option<f64>,
    points: Vec<[f64; 3]>,
    rooms: &'a [String],
    faces_visited: usize,
    mode: &'static str,
    start: Option<[f64; 3]>,
    goal: Option<[f64; 3]>,
    snapped: Option<[f64; 2]>,
    notes: &'a [String],
}

impl serde::Serialize for PathOutcome {
    /// `path --json`: [`PathJson`].
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = |x: f32| (f64::from(x) * 1e5).round() / 1e5;
        // The shortest decimal that reads back as the same `f32`.
        let exact = |x: f32| x.to_string().parse::<f64>().unwrap_or(f64::from(x));
        let pt = |p: Vec3| [r(p.x), r(p.y), r(p.z)];
        let path = self.path.as_ref();
        PathJson {
            found: self.found(),
            reason: &self.reason,
            length: path.map(|p| r(p.length_plan)),
            length_3d: path.map(|p| r(p.length_3d)),
            points: path.map_or_else(Vec::new, |p| p.points.iter().map(|&q| pt(q)).collect()),
            rooms: &self.rooms,
            faces_visited: self.faces_visited,
            mode: self.mode.name(),
            start: self.ends.map(|e| pt(e[0].point)),
            goal: self.ends.map(|e| pt(e[1].point)),
            snapped: self
                .ends
                .map(|e| [exact(e[0].snapped), exact(e[1].snapped)]),
            notes: &self.notes,
        }
        .serialize(s)
    }
}

/// The navigation data of an area: the mesh searched and what it was made from.
#[derive(Debug, Clone)]
pub struct AreaNav {
    /// The navigation mesh searched (carved when there is a radius or a blocker) and the data
    /// built from it: its polygons, and the landmarks and corner graph when asked for
    /// ([`AreaNav::measure_landmarks`], [`AreaNav::build_corner_graph`]).
    pub set: NavSet,
    /// Region (room) names.
    pub regions: Vec<String>,
    /// Per mesh triangle: the source surface triangle it came from.
    pub origin: Vec<u32>,
    /// The seams where rooms were joined.
    pub seams: Vec<Seam>,
    /// The agent radius the ground was carved for.
    pub radius: f32,
    /// The placed objects' faces.
    pub blockers: Vec<Blocker>,
    /// What the carve did, when it ran.
    pub carve: Option<CarveStats>,
    /// The stitched ground before carving and its mesh (kept when carved, to explain why an
    /// end has no clearance).
    base: Option<Surface>,
    base_mesh: Option<NavMesh>,
    /// For the baked mode: TRX triangle → mesh triangle.
    trx_to_mesh: std::collections::HashMap<u32, u32>,
    /// Per source surface triangle: its face in the region's file.
    faces: Vec<u32>,
    clearance: ClearanceOptions,
    baked: Option<Box<trx::Walkmesh>>,
}

impl AreaNav {
    /// Builds the navigation data: rooms stitched (areas), the objects' faces as blockers, the
    /// ground carved for the radius, the mesh.
    pub fn build(
        source: &NavSource,
        objects: &[PlacedWalkmesh],
        options: &NavOptions,
    ) -> Result<AreaNav, NavError> {
        let (surface, origin, seams) = if source.kind == SourceKind::Area {
            let s = nav::stitch(&source.surface, options.stitch_tolerance)?;
            (s.surface, s.origin, s.seams)
        } else {
            source.surface.validate()?;
            let n = source.surface.triangles.len() as u32;
            (source.surface.clone(), (0..n).collect(), Vec::new())
        };
        let blockers: Vec<Blocker> = objects
            .iter()
            .map(|o| Blocker::new(o.triangles.iter().map(|t| t.map(Vec3::from)).collect()))
            .filter(|b| !b.triangles.is_empty())
            .collect();
        let radius = options.radius;
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(NavError::Clearance(ClearanceError::Radius(radius)));
        }
        let (mesh, origin, carve, base, base_mesh) = if radius > 0.0 || !blockers.is_empty() {
            let c = Clearance::new(&surface, &blockers, options.clearance)?;
            let carved = c.carve(radius)?;
            let mesh = NavSet::build(&carved.surface)?;
            let origin = carved.origin.iter().map(|&t| origin[t as usize]).collect();
            let base_mesh = NavMesh::build(&surface)?;
            (
                mesh,
                origin,
                Some(carved.stats),
                Some(surface),
                Some(base_mesh),
            )
        } else {
            (NavSet::build(&surface)?, origin, None, None, None)
        };
        let mut trx_to_mesh = std::collections::HashMap::new();
        if source.baked.is_some() && base.is_none() {
            trx_to_mesh.reserve(origin.len());
            for (m, &o) in origin.iter().enumerate() {
                trx_to_mesh.insert(source.faces[o as usize], m as u32);
            }
        }
        Ok(AreaNav {
            set: mesh,
            regions: source.regions.clone(),
            origin,
            seams,
            radius,
            blockers,
            carve,
            base,
            base_mesh,
            trx_to_mesh,
            faces: source.faces.clone(),
            clearance: options.clearance,
            baked: source.baked.clone(),
        })
    }

    /// Measures distances from `count` landmarks on the searched mesh (0 removes them): the
    /// optimal search's bound ([`areakit_geometry::nav::landmarks`]); answers are unchanged.
    pub fn measure_landmarks(&mut self, count: usize) {
        if count > 0 || self.set.landmarks.is_some() {
            self.set.measure_landmarks(count);
        }
    }

    /// The mesh searched.
    pub fn mesh(&self) -> &NavMesh {
        &self.set.mesh
    }

    /// The landmarks, if measured.
    pub fn landmarks(&self) -> Option<&Landmarks> {
        self.set.landmarks.as_ref()
    }

    /// The corner graph, if built.
    pub fn corner_graph(&self) -> Option<&CornerGraph> {
        self.set.graph.as_ref()
    }

    /// The request of a search in `mode` made the caller's way (`how`): over the corner graph
    /// or the polygons, bounded by the landmarks or not. Nothing is chosen by which data
    /// happens to be there; a choice whose data was not built is answered by
    /// [`PathError::Missing`].
    pub fn request(&self, mode: nav::Mode, how: SearchChoice, snap: f32) -> Request {
        Request {
            mode,
            search: if how.corner_graph {
                Search::CornerGraph
            } else {
                Search::Polygons
            },
            landmarks: how.landmarks,
            snap,
        }
    }

    /// Builds (or with `false` drops) the corner graph of the searched mesh with the
    /// polygons' sight lists ([`areakit_geometry::nav::corners`]): both modes then search the
    /// graph between the corners that see the start and those that see the goal. Optimal
    /// lengths are unchanged; fast ones stay within [`nav::FAST_BOUND`] times the shortest.
    pub fn build_corner_graph(&mut self, on: bool) {
        if on {
            self.set.build_corner_graph(true);
        } else {
            self.set.drop_corner_graph();
        }
    }

    /// The ground before any carving (rooms stitched, no radius, no blockers): the mesh
    /// searched when nothing was carved.
    pub fn ground_mesh(&self) -> &NavMesh {
        self.base_mesh.as_ref().unwrap_or(&self.set.mesh)
    }

    /// Whether `PathMode::Baked` can answer: a baked terrain, neither carved nor blocked.
    pub fn can_bake(&self) -> bool {
        self.baked.is_some() && self.base.is_none()
    }

    /// The face (BWM) or triangle (TRX) of its region's file that mesh triangle `t` came from.
    pub fn source_face(&self, t: u32) -> Option<u32> {
        let o = *self.origin.get(t as usize)?;
        self.faces.get(o as usize).copied()
    }

    /// Finds a path from `from` to `to` (snapped to the ground within `snap`), over the
    /// polygons without landmarks ([`AreaNav::find_by`] chooses).
    pub fn find(
        &self,
        searcher: &mut Searcher,
        from: PathPoint,
        to: PathPoint,
        mode: PathMode,
        snap: f32,
    ) -> PathOutcome {
        self.find_by(searcher, (from, to), mode, SearchChoice::default(), snap)
    }

    /// [`AreaNav::find`] searching the way `how` says (the optimal and fast modes; the
    /// baked mode follows the file's tables).
    pub fn find_by(
        &self,
        searcher: &mut Searcher,
        (from, to): (PathPoint, PathPoint),
        mode: PathMode,
        how: SearchChoice,
        snap: f32,
    ) -> PathOutcome {
        let mut out = PathOutcome {
            mode,
            ..PathOutcome::default()
        };
        let start = match self.locate(from, snap, "start") {
            Ok((l, note)) => {
                out.notes.extend(note);
                l
            }
            Err(reason) => {
                out.reason = Some(reason.to_string());
                return out;
            }
        };
        let goal = match self.locate(to, snap, "goal") {
            Ok((l, note)) => {
                out.notes.extend(note);
                l
            }
            Err(reason) => {
                out.reason = Some(reason.to_string());
                return out;
            }
        };
        out.ends = Some([start, goal]);
        let mut path = Path::default();
        let result = match mode {
            PathMode::Optimal | PathMode::Fast => {
                let m = if mode == PathMode::Fast {
                    nav::Mode::Fast
                } else {
                    nav::Mode::Optimal
                };
                let req = self.request(m, how, snap);
                searcher.path_between(&self.set.data(), start, goal, &req, &mut path)
            }
            PathMode::Baked => match self.baked_corridor(start, goal) {
                Ok(corridor) => {
                    searcher.path_along(&self.set.mesh, start, goal, &corridor, &mut path)
                }
                Err(reason) => {
                    out.reason = Some(reason.to_string());
                    return out;
                }
            },
        };
        match result {
            Ok(()) => {
                out.faces_visited = path.expanded;
                out.rooms = path
                    .regions
                    .iter()
                    .map(|&r| self.regions.get(r as usize).cloned().unwrap_or_default())
                    .collect();
                out.path = Some(path);
            }
            Err(e) => {
                out.faces_visited = path.expanded;
                out.reason = Some(match e {
                    PathError::DifferentIslands { .. } if self.base.is_some() => format!(
                        "{e} (with radius {} and {} blocker(s))",
                        self.radius,
                        self.blockers.len()
                    ),
                    _ => e.to_string(),
                });
            }
        }
        out
    }

    /// Puts an end on the searched ground. On carved ground, an end that needed moving is
    /// checked against the uncarved ground: if it stands there, its clearance is too small,
    /// and the note or reason says so.
    fn locate(
        &self,
        p: PathPoint,
        snap: f32,
        what: &'static str,
    ) -> Result<(Location, Option<String>), EndError> {
        let carved = self.set.mesh.locate_or_snap(p.x, p.y, p.z, snap);
        let moved = carved.as_ref().map_or(true, |l| l.snapped > 0.0);
        let off = |source| EndError::Off { what, source };
        let (Some(base), Some(base_mesh)) = (
            self.base.as_ref().filter(|_| moved),
            self.base_mesh.as_ref(),
        ) else {
            return carved.map(|l| (l, None)).map_err(off);
        };
        // Where does the point stand on the uncarved ground, and with what clearance?
        let ground = base_mesh.locate_or_snap(p.x, p.y, p.z, snap).ok();
        let Some(g) = ground else {
            return carved.map(|l| (l, None)).map_err(off);
        };
        let c = Clearance::new(base, &self.blockers, self.clearance)
            .ok()
            .and_then(|c| c.clearance_at(g.point));
        let why = match c {
            Some(c) if c <= 0.0 => {
                "has no clearance (it stands on a wall or in a blocker)".to_string()
            }
            Some(c) => format!(
                "has clearance {:.3} m, less than the radius {} m",
                c, self.radius
            ),
            None => format!("has less clearance than the radius {} m", self.radius),
        };
        match carved {
            Ok(l) => Ok((
                l,
                Some(format!(
                    "{what} {why}: moved {:.3} m to the nearest point with clearance",
                    l.snapped
                )),
            )),
            Err(LocateError::TooFar {
                nearest: Some(nearest),
                ..
            }) => Err(EndError::ClearanceFar {
                what,
                why,
                nearest,
                snap,
            }),
            Err(_) => Err(EndError::NoClearance { what, why, snap }),
        }
    }

    /// The corridor (mesh triangles) the baked tables choose from `start` to `goal`.
    fn baked_corridor(&self, start: Location, goal: Location) -> Result<Vec<u32>, BakedRouteError> {
        let Some(w) = self.baked.as_deref().filter(|_| self.base.is_none()) else {
            return Err(if self.baked.is_none() {
                BakedRouteError::NoTables
            } else {
                BakedRouteError::Carved
            });
        };
        let (s, g) = (
            self.faces[self.origin[start.triangle as usize] as usize],
            self.faces[self.origin[goal.triangle as usize] as usize],
        );
        let route = baked_route(w, s, g)?;
        let slots: Vec<u32> = route
            .iter()
            .map(|t| (self.trx_to_mesh.get(t).copied()).ok_or(BakedRouteError::NotWalkable(*t)))
            .collect::<Result<_, _>>()?;
        Ok(join_corridor(&self.set.mesh, &slots))
    }
}

/// How many triangles [`join_corridor`] may put between two of a route's.
const MAX_JOIN: usize = 8;

/// A route of mesh triangles made a corridor (each a neighbour of the one before): where
/// the mesh flipped a sliver with its neighbour (`nav::mesh`, "Slivers"), two triangles the
/// file joins need not be neighbours in the mesh, though the flipped pair covers the same
/// ground; they are joined by the fewest neighbours between them (at most [`MAX_JOIN`]), and
/// a triangle met again cuts the loop it closes. A gap that cannot be joined is left (the
/// corridor walk then names it).
fn join_corridor(mesh: &NavMesh, route: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::with_capacity(route.len());
    // Where each triangle of `out` is, to cut a loop in one step.
    let mut at: std::collections::HashMap<u32, usize> = Default::default();
    let mut push = |out: &mut Vec<u32>, t: u32| match at.get(&t) {
        Some(&i) => {
            for u in out.drain(i + 1..) {
                at.remove(&u);
            }
        }
        None => {
            at.insert(t, out.len());
            out.push(t);
        }
    };
    for &t in route {
        if let Some(&last) = out.last()
            && last != t
            && !mesh.neighbours(last).contains(&Some(t))
        {
            for u in chain_between(mesh, last, t) {
                push(&mut out, u);
            }
        }
        push(&mut out, t);
    }
    out
}

/// The triangles strictly between `a` and `b` on a shortest chain of neighbours (breadth
/// first, at most [`MAX_JOIN`] between them); empty when there is none that short.
fn chain_between(mesh: &NavMesh, a: u32, b: u32) -> Vec<u32> {
    let mut parent = std::collections::HashMap::from([(a, a)]);
    let mut frontier = vec![a];
    for _ in 0..=MAX_JOIN {
        let mut next = Vec::new();
        for &t in &frontier {
            for u in mesh.neighbours(t).into_iter().flatten() {
                if parent.contains_key(&u) {
                    continue;
                }
                parent.insert(u, t);
                if u == b {
                    let mut chain = Vec::new();
                    let mut x = t;
                    while x != a {
                        chain.push(x);
                        x = parent[&x];
                    }
                    chain.reverse();
                    return chain;
                }
                next.push(u);
            }
        }
        frontier = next;
    }
    Vec::new()
}

/// Smallest plan area (m²) of an island for `nav-unreachable-island`; smaller ones are the
/// walkmesh check's `bwm-small-island`.
pub const MIN_REPORTED_ISLAND: f64 = 0.5;

/// The navigation checks of an area or terrain:
///
/// - `nav-unreachable-island` (warning): a walkable island that no walk from the largest one
///   reaches (rooms joined along their shared edges), of at least [`MIN_REPORTED_ISLAND`] m²;
/// - `nav-narrow-passage` (warning): a place narrower than a human (twice
///   [`clearance::HUMAN_RADIUS`]) where eroding the ground by that radius splits an island,
///   with its position.
pub fn nav_findings(source: &NavSource, objects: &[PlacedWalkmesh]) -> Vec<Finding> {
    match AreaNav::build(source, objects, &NavOptions::default()) {
        Ok(nav) => nav_findings_of(&nav, source.kind),
        Err(_) => Vec::new(),
    }
}

/// [`nav_findings`] on navigation data already built (with the default options: no radius)
/// from a source of `kind`, so that one build serves several checks.
pub fn nav_findings_of(nav: &AreaNav, kind: SourceKind) -> Vec<Finding> {
    let mut out = Vec::new();
    let mesh = nav.mesh();
    let islands = mesh.islands();
    let main = islands
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.plan_area.total_cmp(&b.1.plan_area))
        .map(|(i, _)| i);
    let room_of = |t: u32| {
        let r = mesh.region(t);
        nav.regions.get(r as usize).cloned().unwrap_or_default()
    };
    for (i, isl) in islands.iter().enumerate() {
        if Some(i) == main || isl.plan_area < MIN_REPORTED_ISLAND {
            continue;
        }
        let t = isl.first_triangle;
        let [a, b, c] = mesh.triangle_points(t);
        let centre = (a + b + c) / 3.0;
        let mut place = Place::default()
            .position(centre.to_array())
            .item(format!("island {i}"));
        if kind == SourceKind::Area {
            place = place.room(room_of(t));
        }
        if let Some(f) = nav.source_face(t) {
            place = place.face(f);
        }
        out.push(Finding::warning(
            "nav-unreachable-island",
            place,
            format!(
                "a walkable island of {} triangle(s) and {:.1} m² that no walk from the largest island ({:.1} m²) reaches",
                isl.triangles,
                isl.plan_area,
                main.map_or(0.0, |m| islands[m].plan_area)
            ),
        ));
    }
    let ground = match nav.base.as_ref() {
        Some(s) => s.clone(),
        None => {
            let mut s = Surface {
                vertices: mesh.vertices().to_vec(),
                ..Surface::default()
            };
            // The surface's own vertices (a pinched vertex is one again).
            for t in 0..mesh.triangle_count() as u32 {
                s.triangles
                    .push(mesh.triangle(t).map(|v| mesh.surface_vertex(v)));
                s.regions.push(mesh.region(t));
            }
            s
        }
    };
    if let Ok(passages) = clearance::narrow_passages(
        &ground,
        &nav.blockers,
        clearance::HUMAN_RADIUS,
        ClearanceOptions::default(),
    ) {
        for p in passages {
            let mut place = Place::default().position(p.position.to_array());
            if kind == SourceKind::Area {
                place = place.room(
                    nav.regions
                        .get(p.region as usize)
                        .cloned()
                        .unwrap_or_default(),
                );
            }
            out.push(Finding::warning(
                "nav-narrow-passage",
                place,
                format!(
                    "a passage {:.2} m wide: a human ({} m radius) cannot pass, and the ground beyond is reached only through it",
                    p.width,
                    clearance::HUMAN_RADIUS
                ),
            ));
        }
    }
    out
}

/// A TRX's own triangle links (`linked_triangles`) in the numbering of the surface made of
/// its walkable triangles (`faces[s]` is surface triangle `s`'s index in the file): what the
/// game walks by. A link to a triangle left out (not walkable, or with a bad corner) is none.
fn trx_links(w: &trx::Walkmesh, faces: &[u32]) -> Vec<[u32; 3]> {
    let mut surface_of = vec![u32::MAX; w.triangles.len()];
    for (s, &f) in faces.iter().enumerate() {
        surface_of[f as usize] = s as u32;
    }
    faces
        .iter()
        .map(|&f| {
            w.triangles[f as usize]
                .linked_triangles
                .map(|l| surface_of.get(l as usize).copied().unwrap_or(u32::MAX))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snap_of_micrometres_is_written_as_it_is() {
        let at = |snapped: f32| Location {
            triangle: 0,
            point: Vec3::new(1.0, 2.0, 0.0),
            snapped,
        };
        let o = PathOutcome {
            ends: Some([at(3.2e-6), at(0.25)]),
            ..PathOutcome::default()
        };
        let v = serde_json::to_value(&o).unwrap();
        assert_eq!(v["snapped"], serde_json::json!([3.2e-6, 0.25]), "{v}");
        // The shortest digits of the f32, not its f64 widening.
        let v = PathOutcome {
            ends: Some([at(0.1), at(0.0)]),
            ..PathOutcome::default()
        };
        let v = serde_json::to_value(&v).unwrap();
        assert_eq!(v["snapped"], serde_json::json!([0.1, 0.0]), "{v}");
    }
}
