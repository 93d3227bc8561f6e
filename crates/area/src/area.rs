//! KotOR areas: a layout (LYT), its room visibility (VIS) and one walkmesh (WOK) per room,
//! read together from a folder, and the checks that need all of them.
//!
//! ```no_run
//! let area = areakit_area::area::Area::open("modules/m01aa/m01aa.lyt".as_ref()).unwrap();
//! for f in areakit_area::area::check(&area) {
//!     println!("{} {} {}: {}", f.severity, f.code, f.place, f.message);
//! }
//! ```
//!
//! Room links: a WOK edge whose transition is `t` leads into room `t` of the LYT (0-based, in
//! file order). A link from room A to B is *matched* when B's walkmesh has a boundary edge with
//! transition A at the same place (collinear and overlapping within [`CheckOptions::tolerance`],
//! in world space: area walkmesh vertices are world coordinates).
//!
//! The finding codes are documented in `docs/checks.md`.

use std::path::{Path, PathBuf};

use areakit_formats::bwm::{self, Bwm, WalkmeshType};
use areakit_formats::{DecodeError, Finding, Place, lyt, vis};

use crate::resources::Resources;

/// Why an area could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum AreaError {
    /// A file or folder could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The system error.
        source: std::io::Error,
    },
    /// The layout does not decode.
    #[error("{}: {source}", path.display())]
    Lyt {
        /// The LYT file.
        path: PathBuf,
        /// The decoding error (line:column and what was expected).
        source: DecodeError,
    },
    /// The folder holds no `.lyt` file.
    #[error("{}: no .lyt file in this folder", .0.display())]
    NoLayout(PathBuf),
    /// The folder holds several `.lyt` files: name one.
    #[error("several .lyt files, name one:{}", path_list(.0))]
    ManyLayouts(Vec<PathBuf>),
    /// A resource place does not hold the layout (`m13aa.lyt`).
    #[error(
        "{0}: the area's layout is in none of the places searched, so its rooms cannot be read \
         (a KotOR module keeps its layout and rooms in the game's layouts.bif: name the game \
         with --game DIR)"
    )]
    NotFound(String),
}

fn path_list(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| format!(" {}", p.display())).collect()
}

/// A resource found for an area: where it is, and its bytes (or why they could not be read).
type Found = (PathBuf, std::io::Result<Vec<u8>>);

/// A room of the layout and its walkmesh.
#[derive(Debug, Clone)]
pub struct AreaRoom {
    /// The room name as the LYT spells it.
    pub name: String,
    /// The WOK file found for it (case-insensitive `<name>.wok` next to the LYT).
    pub wok_path: Option<PathBuf>,
    /// The decoded walkmesh.
    pub wok: Option<Bwm>,
    /// Why the WOK file could not be read or decoded.
    pub wok_error: Option<String>,
}

impl AreaRoom {
    /// Whether the LYT entry is the placeholder `****` (a removed room keeping the indices).
    pub fn is_placeholder(&self) -> bool {
        self.name == lyt::PLACEHOLDER_ROOM
    }
}

/// A layout, its visibility and its rooms' walkmeshes.
#[derive(Debug, Clone)]
pub struct Area {
    /// The folder holding the files.
    pub dir: PathBuf,
    /// The area's resref: the LYT file name without extension.
    pub resref: String,
    /// The LYT file.
    pub lyt_path: PathBuf,
    /// The layout.
    pub lyt: lyt::Lyt,
    /// The VIS file with the same resref, if there is one.
    pub vis_path: Option<PathBuf>,
    /// The visibility, if the VIS file decoded.
    pub vis: Option<vis::Vis>,
    /// Why the VIS file could not be read or decoded.
    pub vis_error: Option<String>,
    /// One entry per LYT room, in LYT order (the index is the transition number).
    pub rooms: Vec<AreaRoom>,
    /// `.wok` files in the folder that match no room of this LYT nor of another LYT beside
    /// it.
    pub unlisted_woks: Vec<PathBuf>,
}

/// A boundary edge of a room's walkmesh that leads into another room.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoomLink {
    /// Index of the room the edge belongs to.
    pub from: usize,
    /// The transition: index of the room across the edge (may be out of range).
    pub to: u32,
    /// Index in the walkmesh's edge table.
    pub edge_index: usize,
    /// The face.
    pub face: u32,
    /// Which edge of the face (0..3).
    pub side: u32,
    /// The edge's end points (world space), when its face and vertices exist.
    pub segment: Option<[[f32; 3]; 2]>,
}

impl RoomLink {
    /// The middle of the edge.
    pub fn midpoint(&self) -> Option<[f32; 3]> {
        self.segment.map(|[a, b]| {
            [
                (a[0] + b[0]) / 2.0,
                (a[1] + b[1]) / 2.0,
                (a[2] + b[2]) / 2.0,
            ]
        })
    }
}

/// Files in `dir` by lower-case name.
fn list_dir(dir: &Path) -> Result<Vec<(String, PathBuf)>, AreaError> {
    let rd = std::fs::read_dir(dir).map_err(|source| AreaError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut out = Vec::new();
    for e in rd {
        let e = e.map_err(|source| AreaError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let p = e.path();
        if p.is_file()
            && let Some(name) = p.file_name().and_then(|n| n.to_str())
        {
            out.push((name.to_ascii_lowercase(), p));
        }
    }
    out.sort();
    Ok(out)
}

fn has_ext(name: &str, ext: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(_, e)| e == ext)
}

impl Area {
    /// The rooms (not placeholders) whose walkmesh was found nowhere, by name: what `info`,
    /// `render` and `check` say they could not read.
    pub fn rooms_without_walkmesh(&self) -> Vec<&str> {
        self.rooms
            .iter()
            .filter(|r| r.wok_path.is_none() && !r.is_placeholder())
            .map(|r| r.name.as_str())
            .collect()
    }

    /// The sentence for [`Area::rooms_without_walkmesh`] (`None` when every room has one):
    /// how many, which, and how to supply them.
    pub fn missing_walkmeshes_note(&self) -> Option<String> {
        let missing = self.rooms_without_walkmesh();
        (!missing.is_empty()).then(|| {
            format!(
                "{} of {} rooms have no walkmesh among the resources: {} (put their WOKs beside \
                 the LYT, or name the game that holds them with --game DIR)",
                missing.len(),
                self.rooms.len(),
                missing.join(", ")
            )
        })
    }

    /// Opens an area from its `.lyt` file or from the folder holding it (which must hold
    /// exactly one `.lyt`). The VIS with the same resref and each room's WOK are looked up
    /// next to the LYT, ignoring letter case. A VIS or WOK that cannot be read is recorded
    /// (and reported by [`check`]), not an error here.
    pub fn open(path: &Path) -> Result<Area, AreaError> {
        let (dir, lyt_path) = if path.is_dir() {
            let files = list_dir(path)?;
            let lyts: Vec<PathBuf> = files
                .iter()
                .filter(|(n, _)| has_ext(n, "lyt"))
                .map(|(_, p)| p.clone())
                .collect();
            match lyts.len() {
                0 => return Err(AreaError::NoLayout(path.to_path_buf())),
                1 => (path.to_path_buf(), lyts[0].clone()),
                _ => return Err(AreaError::ManyLayouts(lyts)),
            }
        } else {
            let dir = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
                .to_path_buf();
            (dir, path.to_path_buf())
        };
        let data = crate::io::read_regular_file(&lyt_path).map_err(|source| AreaError::Io {
            path: lyt_path.clone(),
            source,
        })?;
        let layout = lyt::read(&data).map_err(|source| AreaError::Lyt {
            path: lyt_path.clone(),
            source,
        })?;
        let resref = lyt_path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let files = list_dir(&dir)?;
        let find = |name: &str, ext: &str| {
            let want = crate::resources::resource_key(name, ext);
            files
                .iter()
                .find(|(n, _)| *n == want)
                .map(|(_, p)| (p.clone(), crate::io::read_regular_file(p)))
        };
        let mut area = Area::assemble(&find, dir, resref, lyt_path.clone(), layout);
        let layout = &area.lyt;
        let mut unlisted_woks: Vec<PathBuf> = files
            .iter()
            .filter(|(n, _)| has_ext(n, "wok") && layout.room_index(&n[..n.len() - 4]).is_none())
            .map(|(_, p)| p.clone())
            .collect();
        // A folder may hold several areas (a game's extracted modules): a WOK that is a room
        // of another LYT beside this one belongs to that area. (An unreadable LYT claims
        // nothing; `check` reports it on its own.)
        if !unlisted_woks.is_empty() {
            let others: Vec<lyt::Lyt> = files
                .iter()
                .filter(|(n, p)| has_ext(n, "lyt") && *p != lyt_path)
                .filter_map(|(_, p)| lyt::read(&crate::io::read_regular_file(p).ok()?).ok())
                .collect();
            unlisted_woks.retain(|p| {
                let stem = p
                    .file_stem()
                    .map(|s| s.to_string_lossy())
                    .unwrap_or_default();
                others.iter().all(|o| o.room_index(&stem).is_none())
            });
        }
        area.unlisted_woks = unlisted_woks;
        Ok(area)
    }

    /// Opens the area `resref` from a place that answers resource questions (a folder, a
    /// capsule, a game install): `<resref>.lyt`, `<resref>.vis` and each room's `.wok`, as
    /// [`Area::open`] reads them from a folder. The paths recorded are the resources'
    /// origins (`m13aa.mod/m13aa_01a.wok`); [`Area::dir`] is the folder (or capsule) of the
    /// LYT's origin. A resource that cannot be read is recorded like an unreadable file.
    /// [`Area::unlisted_woks`] stays empty: a resource place is not listed.
    pub fn from_resources(res: &dyn Resources, resref: &str) -> Result<Area, AreaError> {
        let want = format!("{resref}.lyt");
        let found = res.get(resref, "lyt").map_err(|source| AreaError::Io {
            path: PathBuf::from(&want),
            source,
        })?;
        let Some(found) = found else {
            return Err(AreaError::NotFound(want));
        };
        let lyt_path = PathBuf::from(&found.origin);
        let layout = lyt::read(&found.data).map_err(|source| AreaError::Lyt {
            path: lyt_path.clone(),
            source,
        })?;
        let dir = lyt_path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let find = |name: &str, ext: &str| match res.get(name, ext) {
            Ok(None) => None,
            Ok(Some(r)) => Some((PathBuf::from(r.origin), Ok(r.data))),
            Err(e) => Some((PathBuf::from(format!("{name}.{ext}")), Err(e))),
        };
        Ok(Area::assemble(
            &find,
            dir,
            resref.to_string(),
            lyt_path,
            layout,
        ))
    }

    /// The area of a decoded layout, its VIS and room WOKs found through `find` (name,
    /// extension → where it is and its bytes, or `None` when there is no such resource).
    /// Shared by [`Area::open`] and [`Area::from_resources`].
    fn assemble(
        find: &dyn Fn(&str, &str) -> Option<Found>,
        dir: PathBuf,
        resref: String,
        lyt_path: PathBuf,
        layout: lyt::Lyt,
    ) -> Area {
        let (vis_path, vis, vis_error) = match find(&resref, "vis") {
            None => (None, None, None),
            Some((p, Err(e))) => (Some(p), None, Some(e.to_string())),
            Some((p, Ok(d))) => match vis::read(&d) {
                Ok(v) => (Some(p), Some(v), None),
                Err(e) => (Some(p), None, Some(e.to_string())),
            },
        };
        let mut rooms = Vec::with_capacity(layout.rooms.len());
        for r in &layout.rooms {
            let mut room = AreaRoom {
                name: r.name.clone(),
                wok_path: None,
                wok: None,
                wok_error: None,
            };
            if !r.is_placeholder()
                && let Some((p, data)) = find(&r.name, "wok")
            {
                match data {
                    Err(e) => room.wok_error = Some(e.to_string()),
                    Ok(d) => match bwm::read(&d) {
                        Ok(m) => room.wok = Some(m),
                        Err(e) => room.wok_error = Some(e.to_string()),
                    },
                }
                room.wok_path = Some(p);
            }
            rooms.push(room);
        }
        Area {
            dir,
            resref,
            lyt_path,
            lyt: layout,
            vis_path,
            vis,
            vis_error,
            rooms,
            unlisted_woks: Vec::new(),
        }
    }

    /// Every WOK edge with a transition, room by room in LYT order.
    pub fn links(&self) -> Vec<RoomLink> {
        let mut out = Vec::new();
        for (from, room) in self.rooms.iter().enumerate() {
            let Some(wok) = &room.wok else { continue };
            for (edge_index, e) in wok.edges.iter().enumerate() {
                let Some(to) = e.transition() else { continue };
                out.push(RoomLink {
                    from,
                    to,
                    edge_index,
                    face: e.face(),
                    side: e.side(),
                    segment: edge_segment(wok, e.face(), e.side()),
                });
            }
        }
        out
    }

    /// The room a link leads into, if the transition names a room of the layout.
    pub fn link_target(&self, link: &RoomLink) -> Option<&AreaRoom> {
        self.rooms.get(usize::try_from(link.to).ok()?)
    }

    /// The matching link back from the target room, if any (see [`CheckOptions::tolerance`]).
    pub fn reverse_link(&self, link: &RoomLink, tolerance: f32) -> Option<RoomLink> {
        let seg = link.segment?;
        let from = u32::try_from(link.from).ok()?;
        self.links().into_iter().find(|l| {
            l.from == link.to as usize
                && l.to == from
                && l.segment
                    .is_some_and(|s| segments_overlap(seg, s, tolerance))
        })
    }
}

fn edge_segment(wok: &Bwm, face: u32, side: u32) -> Option<[[f32; 3]; 2]> {
    let p = wok.face_positions(face as usize)?;
    let s = side as usize;
    Some([p[s], p[(s + 1) % 3]])
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Whether two segments lie on the same line (each end of `b` within `tol` of `a`'s line) and
/// overlap along it by more than `tol` (or, for degenerate segments, coincide).
pub fn segments_overlap(a: [[f32; 3]; 2], b: [[f32; 3]; 2], tol: f32) -> bool {
    let d = sub(a[1], a[0]);
    let len2 = dot(d, d);
    if len2 <= tol * tol {
        let near = |p: [f32; 3], q: [f32; 3]| dot(sub(p, q), sub(p, q)) <= tol * tol;
        return near(a[0], b[0]) && near(a[1], b[1]) || near(a[0], b[1]) && near(a[1], b[0]);
    }
    let len = len2.sqrt();
    let mut t = [0.0f32; 2];
    for (k, q) in b.iter().enumerate() {
        let v = sub(*q, a[0]);
        let along = dot(v, d) / len;
        let off2 = (dot(v, v) - along * along).max(0.0);
        if off2 > tol * tol {
            return false;
        }
        t[k] = along;
    }
    let (lo, hi) = (t[0].min(t[1]), t[0].max(t[1]));
    hi.min(len) - lo.max(0.0) > tol
}

/// The links with a segment, grouped by `(from room, to room)` and sorted by the low x of
/// their segments' boxes, so that finding a link back scans only the candidates of one room
/// pair whose boxes can meet (a linear scan of every link for every link was quadratic).
struct LinkIndex {
    /// `(from, to)` → the links' segments with their boxes ([`seg_box`]), by low x.
    by_pair: std::collections::HashMap<(usize, usize), Vec<BoxedSegment>>,
}

/// A segment with its widened box ([`seg_box`]).
type BoxedSegment = ([f32; 4], [[f32; 3]; 2]);

impl LinkIndex {
    fn new(links: &[RoomLink], tol: f32) -> Self {
        let mut by_pair: std::collections::HashMap<_, Vec<_>> = std::collections::HashMap::new();
        for l in links {
            if let Some(s) = l.segment {
                by_pair
                    .entry((l.from, l.to as usize))
                    .or_default()
                    .push((seg_box(s, tol), s));
            }
        }
        for v in by_pair.values_mut() {
            v.sort_by(|a, b| a.0[0].total_cmp(&b.0[0]));
        }
        LinkIndex { by_pair }
    }

    /// Whether a link from room `from` into room `to` lies on `seg` (see [`segments_overlap`]).
    fn any_back(&self, from: usize, to: usize, seg: [[f32; 3]; 2], tol: f32) -> bool {
        let Some(cands) = self.by_pair.get(&(from, to)) else {
            return false;
        };
        let q = seg_box(seg, tol);
        // Overlapping segments have boxes (widened by the tolerance) that meet.
        let end = cands.partition_point(|c| c.0[0] <= q[1]);
        cands[..end].iter().any(|(b, s)| {
            b[1] >= q[0] && b[2] <= q[3] && b[3] >= q[2] && segments_overlap(seg, *s, tol)
        })
    }
}

/// `[low x, high x, low y, high y]` of a segment, widened by `tol`.
fn seg_box(s: [[f32; 3]; 2], tol: f32) -> [f32; 4] {
    [
        s[0][0].min(s[1][0]) - tol,
        s[0][0].max(s[1][0]) + tol,
        s[0][1].min(s[1][1]) - tol,
        s[0][1].max(s[1][1]) + tol,
    ]
}

/// How far (world units) two rooms' boundary edges may be apart and still be "the same place"
/// for a link and its link back: the default of [`CheckOptions`] and of `relink`'s options
/// (`crate::relink::RelinkOptions`), so a relinked area has no one-way link. Real game rooms
/// share the edge's vertices; kit rooms joined at their hooks are up to ~5 cm apart.
pub const LINK_TOLERANCE: f32 = 0.1;

/// Settings of [`check_with`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CheckOptions {
    /// How far (world units) two rooms' boundary edges may be apart and still be "the same
    /// place" for a link and its link back. Default [`LINK_TOLERANCE`].
    pub tolerance: f32,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            tolerance: LINK_TOLERANCE,
        }
    }
}

/// [`check_with`] with the default options.
pub fn check(area: &Area) -> Vec<Finding> {
    check_with(area, &CheckOptions::default())
}

fn path_str(p: &Path) -> String {
    p.display().to_string()
}

/// Checks an area: the LYT and VIS file checks ([`lyt::validate`], [`vis::validate`]), then
/// the cross-file checks. Every finding names its file in [`Place::file`].
///
/// Codes (see `docs/checks.md`): `area-room-missing-wok`, `area-wok-unreadable`,
/// `area-wok-not-area`, `area-wok-not-in-lyt`, `area-vis-missing`, `area-vis-unreadable`,
/// `area-vis-unknown-room`, `area-room-not-in-vis`, `area-transition-missing-room`,
/// `area-link-one-way`.
pub fn check_with(area: &Area, opts: &CheckOptions) -> Vec<Finding> {
    let lyt_file = path_str(&area.lyt_path);
    let mut out: Vec<Finding> = lyt::validate(&area.lyt)
        .into_iter()
        .map(|mut f| {
            f.place.file = Some(lyt_file.clone());
            f
        })
        .collect();
    walkmesh_findings(area, &lyt_file, &mut out);
    visibility_findings(area, &mut out);
    link_findings(area, opts, &mut out);
    out
}

/// The rooms' walkmeshes: missing, unreadable, of another type, or matching no room.
fn walkmesh_findings(area: &Area, lyt_file: &str, out: &mut Vec<Finding>) {
    // Walkmeshes. Files beside a layout override the game's archives, so a folder with only
    // some of them is a patch set, not a module: when no room has its WOK there, or some rooms
    // lack theirs and there is no VIS either, the absence is one warning, not an error per
    // room. A folder with the VIS and some WOKs is a whole area: a missing WOK is an error.
    let real_rooms = area.rooms.iter().filter(|r| !r.is_placeholder()).count();
    let missing = area
        .rooms
        .iter()
        .filter(|r| !r.is_placeholder() && r.wok_path.is_none())
        .count();
    let loose_layout = missing > 0 && (missing == real_rooms || area.vis_path.is_none());
    if loose_layout {
        out.push(Finding::warning(
            "area-woks-not-found",
            Place { file: Some(lyt_file.to_string()), ..Place::default() },
            format!(
                "{missing} of the {real_rooms} rooms have no walkmesh beside the layout in {}{}: a loose \
                 layout or patch set (the game loads the other WOKs from its archives); their checks are skipped",
                area.dir.display(),
                if area.vis_path.is_none() { " and there is no VIS" } else { "" }
            ),
        ));
    }
    for (i, (room, rec)) in area.rooms.iter().zip(&area.lyt.rooms).enumerate() {
        if room.is_placeholder() {
            continue;
        }
        let lyt_place = Place {
            file: Some(lyt_file.to_string()),
            line: rec.line(),
            column: rec.line().map(|_| 1),
            room: Some(room.name.clone()),
            item: Some(format!("rooms[{i}]")),
            ..Place::default()
        };
        match (&room.wok_path, &room.wok_error, &room.wok) {
            (None, _, _) if loose_layout => {}
            (None, _, _) => out.push(Finding::warning(
                "area-room-missing-wok",
                lyt_place,
                format!(
                    "room {i} `{}` has no walkmesh `{}.wok` in {}",
                    room.name,
                    room.name.to_ascii_lowercase(),
                    area.dir.display()
                ),
            )),
            (Some(p), Some(e), _) => out.push(Finding::error(
                "area-wok-unreadable",
                Place::default().file(path_str(p)).room(&room.name),
                format!("the walkmesh of room `{}` cannot be read: {e}", room.name),
            )),
            (Some(p), None, Some(w)) if w.walkmesh_type != WalkmeshType::Area => {
                out.push(Finding::warning(
                    "area-wok-not-area",
                    Place::default().file(path_str(p)).room(&room.name),
                    format!(
                        "walkmesh type {} is not 1 (area room walkmesh)",
                        w.walkmesh_type.raw()
                    ),
                ));
            }
            _ => {}
        }
    }
    for p in &area.unlisted_woks {
        out.push(Finding::warning(
            "area-wok-not-in-lyt",
            Place::default().file(path_str(p)),
            format!(
                "walkmesh `{}` matches no room of {}",
                p.file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default(),
                lyt_file
            ),
        ));
    }
}

/// The VIS: unreadable, missing, or what its validator and the cross-checks with the layout say.
fn visibility_findings(area: &Area, out: &mut Vec<Finding>) {
    // Visibility.
    let expected_vis = area.dir.join(format!("{}.vis", area.resref));
    let vis_file = area
        .vis_path
        .as_deref()
        .map_or_else(|| path_str(&expected_vis), path_str);
    match (&area.vis, &area.vis_error) {
        (_, Some(e)) => out.push(Finding::error(
            "area-vis-unreadable",
            Place::default().file(&vis_file),
            format!("the VIS file cannot be read: {e}"),
        )),
        (None, None) => out.push(Finding::warning(
            "area-vis-missing",
            Place::default().file(&vis_file),
            "no VIS file: the engine draws every room from everywhere",
        )),
        (Some(v), None) => {
            out.extend(vis::validate(v).into_iter().map(|mut f| {
                f.place.file = Some(vis_file.clone());
                f
            }));
            vis_cross_checks(area, v, &vis_file, out);
        }
    }
}

/// The room links: transitions into rooms the layout lacks or places a placeholder at, and
/// links with no edge back.
fn link_findings(area: &Area, opts: &CheckOptions, out: &mut Vec<Finding>) {
    // Room links.
    let links = area.links();
    let backs = LinkIndex::new(&links, opts.tolerance);
    for l in &links {
        let room = &area.rooms[l.from];
        let wok_file = room.wok_path.as_deref().map(path_str).unwrap_or_default();
        let mut place = Place::default()
            .file(&wok_file)
            .room(&room.name)
            .face(l.face)
            .edge(l.side)
            .item(format!("edges[{}]", l.edge_index));
        if let Some(m) = l.midpoint() {
            place = place.position(m);
        }
        let target = area.link_target(l);
        match target {
            None => {
                out.push(Finding::error(
                    "area-transition-missing-room",
                    place,
                    format!(
                        "edge leads into room {} but the layout has {} rooms",
                        l.to,
                        area.rooms.len()
                    ),
                ));
                continue;
            }
            Some(t) if t.is_placeholder() => {
                out.push(Finding::warning(
                    "area-transition-missing-room",
                    place,
                    format!(
                        "edge leads into room {}, a `{}` placeholder (no room there)",
                        l.to,
                        lyt::PLACEHOLDER_ROOM
                    ),
                ));
                continue;
            }
            Some(t) if t.wok.is_none() => continue, // reported as area-room-missing-wok
            Some(t) => {
                let Some(seg) = l.segment else { continue };
                let back = backs.any_back(l.to as usize, l.from, seg, opts.tolerance);
                if !back {
                    out.push(Finding::warning(
                        "area-link-one-way",
                        place,
                        format!(
                            "edge leads from `{}` into room {} `{}`, but `{}` has no edge back into room {} at the same place",
                            room.name, l.to, t.name, t.name, l.from
                        ),
                    ));
                }
            }
        }
    }
}

fn vis_cross_checks(area: &Area, v: &vis::Vis, vis_file: &str, out: &mut Vec<Finding>) {
    for (i, r) in v.rooms.iter().enumerate() {
        let lines = r.child_lines();
        let names = std::iter::once((r.line(), &r.name, format!("rooms[{i}]"))).chain(
            r.visible
                .iter()
                .enumerate()
                .map(|(k, n)| (lines[k], n, format!("rooms[{i}].visible[{k}]"))),
        );
        for (line, name, item) in names {
            if area.lyt.room_index(name).is_none() {
                out.push(Finding::warning(
                    "area-vis-unknown-room",
                    Place {
                        file: Some(vis_file.to_string()),
                        line,
                        column: line.map(|_| 1),
                        room: Some(name.clone()),
                        item: Some(item),
                        ..Place::default()
                    },
                    format!("`{name}` is not a room of {}", area.lyt_path.display()),
                ));
            }
        }
    }
    for room in &area.rooms {
        if !room.is_placeholder() && v.room(&room.name).is_none() {
            out.push(Finding::warning(
                "area-room-not-in-vis",
                Place::default().file(vis_file).room(&room.name),
                format!(
                    "room `{}` has no VIS entry: nothing is drawn while the player is in it",
                    room.name
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap() {
        let a = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0]];
        assert!(segments_overlap(
            a,
            [[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
            0.01
        ));
        assert!(segments_overlap(
            a,
            [[1.0, 0.005, 0.0], [3.0, 0.0, 0.0]],
            0.01
        ));
        assert!(!segments_overlap(
            a,
            [[2.0, 0.0, 0.0], [3.0, 0.0, 0.0]],
            0.01
        ));
        assert!(!segments_overlap(
            a,
            [[0.0, 0.1, 0.0], [2.0, 0.1, 0.0]],
            0.01
        ));
        assert!(!segments_overlap(
            a,
            [[0.0, 0.0, 0.0], [0.0, 2.0, 0.0]],
            0.01
        ));
    }
}
