//! One way to open an input. Every command that reads "a walkmesh, an area or a terrain"
//! (`render`, `view`, `export`, `path`, `query`, `pth`) opens it here, so each accepts every
//! kind of input that makes sense for it:
//!
//! | input | opens as |
//! |---|---|
//! | a file (`room.wok`, `terrain.trx`, `model.mdl`) | [`Opened::File`]: its bytes |
//! | a capsule member path (`m13aa.mod/m13aa_01a.wok`) | [`Opened::File`] |
//! | with `--game`, a bare resource (`m13aa_01a.wok`) | [`Opened::File`] |
//! | a LYT file, or a folder holding one LYT | [`Opened::Area`]: the area, with its module (IFO, ARE, GIT objects) when the folder holds one |
//! | a capsule (`.mod`, `.rim`, `.erf`, ...) | [`Opened::Area`]: the entry area of its `module.ifo`, else its one LYT |
//! | a LYT member of a capsule (`danm13_s.rim/m13aa.lyt`) | [`Opened::Area`]: that area, the capsule searched before the game |
//! | with `--game`, a bare `.lyt` resource (`m13aa.lyt`) | [`Opened::Area`]: that area of the game |
//! | no input, with `--game DIR --module NAME` | [`Opened::Area`]: the module's entry area |
//!
//! A folder or capsule with several LYTs and no `module.ifo` is an error that lists them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use areakit_area::area::{Area, AreaError};
use areakit_area::install::SearchPath;
use areakit_area::module::{self, Module, ModuleError};
use areakit_area::resources::{FolderResources, Resources};
use areakit_formats::bwm::{self, Bwm};

use crate::Error;
use crate::format::Format;
use crate::session::{Session, is_bare, is_capsule_file, open_capsule_or_key};

/// An input opened for the commands that draw, walk, query or export it.
pub enum Opened {
    /// An area: its module (layout, rooms, and where present its IFO, ARE and GIT objects).
    Area {
        /// The module.
        module: Box<Module>,
        /// What the input is called in titles: the LYT or folder's file name, or for a module
        /// found through resources its layout's.
        title: String,
        /// The resources the area was found in (its folder, or the capsule and the game): where
        /// its rooms' models are looked up ([`crate::rooms::room_models`]).
        resources: Arc<dyn Resources>,
    },
    /// One file's bytes (a regular file, a capsule member, a game resource).
    File {
        /// The path as given.
        path: PathBuf,
        /// Its bytes.
        data: Vec<u8>,
    },
}

/// Opens `input` (or, with `None`, the module that `--game --module` names) as the table in
/// this module's documentation says.
pub fn open(session: &Session, input: Option<&Path>) -> Result<Opened, Error> {
    if let Some((module, resources)) = open_module_with(session, input)? {
        let title = match input {
            Some(p) if is_area(p) => title_of(p),
            _ => title_of(&module.area.lyt_path),
        };
        return Ok(Opened::Area {
            module: Box::new(module),
            title,
            resources,
        });
    }
    let Some(path) = input else {
        return Err(Error::usage(
            "name an input (or a game and a module: the module's entry area)",
        ));
    };
    Ok(Opened::File {
        path: path.to_path_buf(),
        data: session.read(path)?,
    })
}

/// The module `input` names, when it names an area (a LYT, a folder, a capsule, a LYT member
/// of a capsule, a bare `.lyt` resource of the game, or nothing with `--module`); `None` for
/// an input that is one file.
pub fn open_module(session: &Session, input: Option<&Path>) -> Result<Option<Module>, Error> {
    Ok(open_module_with(session, input)?.map(|(m, _)| m))
}

/// A module with the resources it was found in (its folder, or the capsule and the game).
pub type ModuleWithResources = (Module, Arc<dyn Resources>);

/// [`open_module`], with the resources the module was found in.
pub fn open_module_with(
    session: &Session,
    input: Option<&Path>,
) -> Result<Option<ModuleWithResources>, Error> {
    if let Some(path) = input
        && is_area(path)
    {
        let module = folder_module(path)?;
        let res =
            FolderResources::open(&module.area.dir).map_err(|e| Error::io(&module.area.dir, e))?;
        return Ok(Some((module, Arc::new(res))));
    }
    match named_module(session, input)? {
        Some((res, area)) => {
            let module = assemble(&res, area.as_deref())?;
            Ok(Some((module, Arc::new(res))))
        }
        None => Ok(None),
    }
}

/// The file name of `input` (or its whole path when it has none), for titles.
pub fn title_of(input: &Path) -> String {
    input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| input.display().to_string())
}

/// Whether `path` names an area on disk (a LYT file or a folder) rather than a single file.
/// A LYT member of a capsule (`x.mod/a.lyt`) or of the game is no file on disk:
/// [`named_module`] opens it.
pub fn is_area(path: &Path) -> bool {
    path.is_dir()
        || (path.is_file()
            && path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("lyt")))
}

/// Opens an area from disk (a LYT, or a folder holding one), mapping its errors to exit-code
/// classes.
pub fn open_area(path: &Path) -> Result<Area, Error> {
    Area::open(path).map_err(area_error)
}

/// An area error as an [`Error`] of its exit-code class: unreadable files are I/O errors, a
/// layout that does not decode is invalid input, the rest (no layout, several) usage errors.
pub fn area_error(e: AreaError) -> Error {
    match e {
        AreaError::Io { path, source } => Error::io(&path, source),
        AreaError::Lyt { path, source } => Error::invalid(&path, source),
        other => Error::usage(other.to_string()),
    }
}

/// A module assembly error as an [`Error`] (as [`area_error`] does for areas).
pub fn module_error(e: ModuleError) -> Error {
    match e {
        ModuleError::Area(e) => area_error(e),
        ModuleError::NoArea(why) => Error::usage(why),
    }
}

/// Assembles the module of `res`: the area `area`, or else the entry area of its
/// `module.ifo`.
pub fn assemble(res: &dyn Resources, area: Option<&str>) -> Result<Module, Error> {
    Module::assemble(res, area).map_err(module_error)
}

/// Reads a BWM walkmesh input (a file, a capsule member, a game resource) with
/// [`decode_bwm`].
pub fn load_bwm(session: &Session, path: &Path) -> Result<Bwm, Error> {
    decode_bwm(path, &session.read(path)?, "a BWM walkmesh (WOK/PWK/DWK)")
}

/// Decodes a BWM input's bytes. A file of another format that areakit knows (a LYT, a TRX, a
/// capsule, ...) is refused as a usage error that says what it is and what the command takes
/// (`wanted`); bytes of no known format are invalid input.
pub fn decode_bwm(path: &Path, data: &[u8], wanted: &str) -> Result<Bwm, Error> {
    match Format::detect(path, data) {
        Some(Format::Bwm) | None => bwm::read(data).map_err(|e| Error::invalid(path, e)),
        Some(other) => Err(not_a(path, other, wanted)),
    }
}

/// The refusal of an input of format `found` where a command takes `wanted`.
pub fn not_a(path: &Path, found: Format, wanted: &str) -> Error {
    Error::usage(format!(
        "{}: a {} file, not {wanted}",
        path.display(),
        found.name()
    ))
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

/// The module around an area opened from a folder (its IFO, ARE, GIT, objects and
/// `surfacemat.2da` from the same folder): what `check` uses for every LYT it meets. A folder
/// without them gives a module with no objects.
pub fn around_folder(area: Area) -> Result<Module, Error> {
    let res = FolderResources::open(&area.dir).map_err(|e| Error::io(&area.dir, e))?;
    Ok(Module::around(&res, area))
}

/// The module of an area on disk (a LYT, or a folder): the folder's module when [`detect`]
/// finds one, else the plain area (with the folder rules of [`Area::open`]: stray WOKs
/// reported) and whatever module resources the folder holds.
pub fn folder_module(path: &Path) -> Result<Module, Error> {
    let Some((res, area)) = detect(path)? else {
        return around_folder(open_area(path)?);
    };
    match area {
        Some(a) => {
            let lyt = res
                .path_of(&a, "lyt")
                .map(Path::to_path_buf)
                .unwrap_or_else(|| res.dir().join(format!("{a}.lyt")));
            Ok(Module::around(&res, open_area(&lyt)?))
        }
        None => assemble(&res, None),
    }
}

/// Resources holding a module, and the resref of the area to assemble (`None`: the entry area
/// of its `module.ifo`).
pub type NamedModule = (SearchPath, Option<String>);

/// The module an input names through the game or a capsule, with the area to assemble:
///
/// - a capsule file (`m13aa.mod`, `danm13.rim`): its resources, searched before the game's;
///   the entry area of the `module.ifo` they hold, else the capsule's one LYT (several are a
///   usage error that lists them);
/// - a LYT member of a capsule (`danm13_s.rim/m13aa.lyt`): that capsule, that area;
/// - with `--game` (and `--module`), a `.lyt` resource that is no file on disk (`m13aa.lyt`):
///   the game's resources, that area; with `--module`, no input at all (`None`): the module's
///   entry area.
///
/// `Ok(None)` for every other input (files and folders).
pub fn named_module(session: &Session, input: Option<&Path>) -> Result<Option<NamedModule>, Error> {
    let Some(input) = input else {
        if !session.has_module() {
            return Ok(None);
        }
        return Ok(Some((session.resources(&[])?, None)));
    };
    if is_capsule_file(input) {
        let capsule = open_capsule_or_key(input)?;
        let lyts: Vec<String> = capsule
            .list()
            .map_err(|e| Error::io(input, e))?
            .into_iter()
            .filter(|l| l.restype.extension() == Some("lyt"))
            .map(|l| l.resref.name())
            .collect();
        let res = session.resources_with(vec![(input.display().to_string(), capsule)])?;
        let has_ifo = res
            .get(module::MODULE_IFO, "ifo")
            .map_err(|e| Error::io(input, e))?
            .is_some();
        let area = match (has_ifo, lyts.as_slice()) {
            (true, _) => None,
            (false, [one]) => Some(one.clone()),
            (false, []) => {
                return Err(Error::usage(format!(
                    "{}: holds no module.ifo and no LYT: no area to open",
                    input.display()
                )));
            }
            (false, many) => {
                return Err(Error::usage(format!(
                    "{}: holds no module.ifo and several LYTs, name one ({}): {}",
                    input.display(),
                    many.len(),
                    many.iter()
                        .map(|a| format!("{}/{a}.lyt", input.display()))
                        .collect::<Vec<_>>()
                        .join(" ")
                )));
            }
        };
        return Ok(Some((res, area)));
    }
    if input.exists() {
        return Ok(None);
    }
    let lyt_stem = input
        .extension()
        .filter(|x| x.eq_ignore_ascii_case("lyt"))
        .and(input.file_stem())
        .and_then(|s| s.to_str())
        .map(str::to_string);
    let Some(area) = lyt_stem else {
        return Ok(None);
    };
    if let Some(capsule) = input.parent().filter(|p| is_capsule_file(p)) {
        return Ok(Some((
            session.resources(&[capsule.to_path_buf()])?,
            Some(area),
        )));
    }
    if session.game().is_some() && is_bare(input) {
        return Ok(Some((session.resources(&[])?, Some(area))));
    }
    Ok(None)
}
