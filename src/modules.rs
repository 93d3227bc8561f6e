//! Modules as one area for `check`, `render` and `path`: the area of a module (its layout,
//! room walkmeshes and the placeables and doors of its GIT, [`areakit_area::module`]) read
//! from any [`Resources`] — a folder of loose resources here; capsules and game installs
//! answer the same question.
//!
//! Entry points, one per command (each takes the resources and the area's resref, or `None`
//! for the entry area of the resources' `module.ifo`):
//!
//! - [`open`]: the assembled [`Module`];
//! - [`check`]: the `check` report of the module;
//! - [`render`]: the map with the placed objects;
//! - [`path_context`]: the `path` searcher, the placed objects as blockers.
//!
//! On the command line, a folder (or a LYT in it) holding `module.ifo` or `<area>.git` beside
//! the LYT is a module ([`detect`]); so is a capsule file, a LYT inside one
//! (`m13aa.mod/m13aa.lyt`), and with `--game DIR --module NAME` a LYT resource (`m13aa.lyt`)
//! or no input at all ([`named_input`]); other areas are read as before.

use std::path::{Path, PathBuf};

use areakit_area::area::Area;
use areakit_area::module::{self, Module, ModuleError};
use areakit_area::navigation::NavSource;
use areakit_area::objects::{PlacedObject, PlacedWalkmesh};
use areakit_area::resources::{FolderResources, Resources};
use areakit_formats::Finding;

use crate::Error;
use crate::check::Report;
use crate::navigate::{PathContext, PathRequest};
use crate::ops::{self, Overlays};
use crate::resolve::{self, Sources};

/// Maps an assembly error to an exit-code class (as [`ops::open_area`] does for areas).
fn module_error(e: ModuleError) -> Error {
    match e {
        ModuleError::Area(e) => ops::area_error(e),
        ModuleError::NoArea(why) => Error::usage(why),
    }
}

/// Assembles the module of `res`: the area `area`, or else the entry area of its
/// `module.ifo`.
pub fn open(res: &dyn Resources, area: Option<&str>) -> Result<Module, Error> {
    Module::assemble(res, area).map_err(module_error)
}

/// Whether `path` (a folder, or a LYT file) holds a module: `module.ifo` in the folder, or
/// `<area>.git` beside the LYT. Returns the folder's resources and the area to assemble
/// (`None`: the IFO's entry area, for a folder with an IFO and several LYTs).
pub fn detect(path: &Path) -> Result<Option<(FolderResources, Option<String>)>, Error> {
    let (dir, lyt) = if path.is_dir() {
        (path.to_path_buf(), None)
    } else {
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_string);
        (dir.to_path_buf(), stem)
    };
    let res = FolderResources::open(&dir).map_err(|e| Error::io(&dir, e))?;
    let has_ifo = res.path_of(module::MODULE_IFO, "ifo").is_some();
    let area = match lyt {
        Some(a) => Some(a),
        None => {
            let lyts = lyt_names(&dir)?;
            match lyts.len() {
                1 => lyts.into_iter().next(),
                _ => None,
            }
        }
    };
    let has_git = area
        .as_deref()
        .is_some_and(|a| res.path_of(a, "git").is_some());
    Ok(match (has_ifo, has_git) {
        (false, false) => None,
        _ => Some((res, area)),
    })
}

/// The resrefs of the LYT files in `dir`, sorted.
fn lyt_names(dir: &Path) -> Result<Vec<String>, Error> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let p = e.map_err(|e| Error::io(dir, e))?.path();
        if p.is_file()
            && p.extension().is_some_and(|x| x.eq_ignore_ascii_case("lyt"))
            && let Some(s) = p.file_stem().and_then(|s| s.to_str())
        {
            out.push(s.to_string());
        }
    }
    out.sort();
    Ok(out)
}

/// The module of a folder or LYT when [`detect`] finds one, read with the folder rules of
/// [`Area::open`] (stray WOKs reported); `None` for a plain area.
pub fn open_path(path: &Path) -> Result<Option<Module>, Error> {
    let Some((res, area)) = detect(path)? else {
        return Ok(None);
    };
    let module = match area {
        Some(a) => {
            let lyt = res
                .path_of(&a, "lyt")
                .map(Path::to_path_buf)
                .unwrap_or_else(|| res.dir().join(format!("{a}.lyt")));
            Module::around(&res, ops::open_area(&lyt)?)
        }
        None => open(&res, None)?,
    };
    Ok(Some(module))
}

/// The module around an area opened from a folder (its IFO, ARE, GIT, objects and
/// `surfacemat.2da` from the same folder): what `check` uses for every LYT it meets. A folder
/// without them gives a module with no objects.
pub fn around_folder(area: Area) -> Result<Module, Error> {
    let res = FolderResources::open(&area.dir).map_err(|e| Error::io(&area.dir, e))?;
    Ok(Module::around(&res, area))
}

/// The ground and the placed objects of a module, for the navigation layer.
pub fn ground(module: &Module) -> (NavSource, Vec<(PlacedObject, PlacedWalkmesh)>) {
    (module.nav_source(), module.placed())
}

/// Everything `check` says about a module's area: the area checks, the navigation checks (the
/// placed objects as blockers) and the module's own checks ([`module::check`]).
pub fn findings(module: &Module) -> Vec<Finding> {
    let (source, placed) = ground(module);
    let walls: Vec<PlacedWalkmesh> = placed.into_iter().map(|(_, w)| w).collect();
    let mut out = crate::area::check(&module.area);
    out.extend(crate::navigation::nav_findings(&source, &walls));
    out.extend(module::check(module));
    out
}

/// `check` of the module of `res`: the findings of [`findings`], each under the file (or
/// capsule member) it is about. `files_checked` counts the module's resources read (LYT, VIS,
/// IFO, ARE, GIT, PTH).
pub fn check(res: &dyn Resources, area: Option<&str>) -> Result<Report, Error> {
    let module = open(res, area)?;
    // The area's path graph, against its ground.
    let resref = &module.area.resref;
    let pth = res
        .get(resref, "pth")
        .map_err(|e| Error::io(Path::new(&format!("{resref}.pth")), e))?
        .map(|r| (PathBuf::from(r.origin), r.data));
    let unit = crate::check::module_unit(&module, pth);
    let mut report = Report {
        files_checked: unit.files_checked
            + usize::from(module.ifo.is_some())
            + usize::from(module.are.is_some())
            + usize::from(module.git.is_some()),
        findings: unit.findings,
        ..Report::default()
    };
    report.findings.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(report)
}

/// `render` of the module of `res` to `output` (`.svg` or `.png`): the rooms, the placed
/// objects (and those of `overlays.objects`), the paths of `overlays` around them, and with
/// `with_findings` every finding of [`findings`] and the room walkmeshes' own. Returns a
/// message for each path not found.
pub fn render(
    res: &dyn Resources,
    area: Option<&str>,
    output: &Path,
    with_findings: bool,
    size: u32,
    overlays: &Overlays,
) -> Result<Vec<String>, Error> {
    let module = open(res, area)?;
    ops::render_module(&module, output, with_findings, size, overlays)
}

/// The `path` searcher of the module of `res`: its ground (walkable by the module's
/// `surfacemat.2da` when it has one), its placed objects as blockers (plus those of
/// `req.objects`), for `req`'s radius, snap and mode. `req.input` names the module in
/// messages.
pub fn path_context(
    res: &dyn Resources,
    area: Option<&str>,
    req: &PathRequest<'_>,
) -> Result<PathContext, Error> {
    let module = open(res, area)?;
    let (source, objects) = ground(&module);
    PathContext::from_parts(source, objects, req)
}

/// Reads a folder's module resources for `path` and `render`, or the plain area.
pub(crate) fn folder_or_area(path: &Path) -> Result<Module, Error> {
    match open_path(path)? {
        Some(m) => Ok(m),
        None => around_folder(ops::open_area(path)?),
    }
}

/// Resources holding a module, and the resref of the area to assemble (`None`: the entry area
/// of its `module.ifo`).
pub type NamedModule = (Box<dyn Resources>, Option<String>);

/// The module an input of `check`, `render` or `path` names through the game or a capsule,
/// with the area to assemble (`None`: the entry area of the module's `module.ifo`):
///
/// - a capsule file (`m13aa.mod`, `danm13.rim`): its resources, searched before the game's;
/// - a LYT member of a capsule (`danm13_s.rim/m13aa.lyt`): that capsule, that area;
/// - with `--game` (and `--module`), a `.lyt` resource that is no file on disk (`m13aa.lyt`):
///   the game's resources, that area; with `--module`, no input at all (`None`): the module's
///   entry area.
///
/// `Ok(None)` for every other input (files and folders are read as before).
pub fn named_input(input: Option<&Path>, sources: &Sources) -> Result<Option<NamedModule>, Error> {
    let Some(input) = input else {
        if sources.module.is_none() {
            return Ok(None);
        }
        return Ok(Some((resolve::open_resources(sources)?, None)));
    };
    let lyt_stem = || {
        input
            .extension()
            .filter(|x| x.eq_ignore_ascii_case("lyt"))
            .and(input.file_stem())
            .and_then(|s| s.to_str())
            .map(str::to_string)
    };
    if resolve::is_capsule_file(input) {
        let mut with = sources.clone();
        with.capsules.insert(0, input.to_path_buf());
        return Ok(Some((resolve::open_resources(&with)?, None)));
    }
    if input.exists() {
        return Ok(None);
    }
    let Some(area) = lyt_stem() else {
        return Ok(None);
    };
    if let Some(capsule) = input.parent().filter(|p| resolve::is_capsule_file(p)) {
        let mut with = sources.clone();
        with.capsules.insert(0, capsule.to_path_buf());
        return Ok(Some((resolve::open_resources(&with)?, Some(area))));
    }
    if sources.game.is_some() && input.parent().is_none_or(|p| p.as_os_str().is_empty()) {
        return Ok(Some((resolve::open_resources(sources)?, Some(area))));
    }
    Ok(None)
}
