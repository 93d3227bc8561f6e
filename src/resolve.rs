//! Where inputs come from: a file, a capsule member path (`m13aa.mod/m13aa_01a.wok`), or a
//! resource (`m13aa_01a.wok`) found through a game install (`--game DIR`, `--module NAME`).
//!
//! Every command reads its input files through [`crate::fsio::read`], which asks
//! [`read_input`]: so `info`, `check`, `convert`, `render`, `query` and `path` accept all three
//! without knowing it. [`open_resources`] turns the global options (or capsule paths) into a
//! [`Resources`] for the commands that work on resources (`ls`, `extract`, module assembly).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use areakit_area::install::{self, Capsule, Install, KeyResources, OpenError, SearchPath};
use areakit_area::resources::Resources;

use crate::Error;

/// An [`OpenError`] as an areakit [`Error`]: I/O (exit 2) or invalid input (exit 1).
pub fn open_error(e: OpenError) -> Error {
    match e {
        OpenError::Io { path, source } => Error::Io { path, source },
        OpenError::Invalid { path, source } => Error::Invalid { path, source },
    }
}

/// The places named on the command line: a game folder, a module of it, capsule files.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// `--game DIR` (or `AREAKIT_GAME`).
    pub game: Option<PathBuf>,
    /// `--module NAME`.
    pub module: Option<String>,
    /// Capsules (ERF/MOD/SAV/HAK, RIM) or KEY files, searched in the order given, before the
    /// game.
    pub capsules: Vec<PathBuf>,
}

/// Opens what `sources` names as one search path: the capsules in the order given, then the
/// game's override → module capsules → KEY/BIF. `--module` without `--game` is a usage error;
/// so is naming nothing.
pub fn open_resources(sources: &Sources) -> Result<Box<dyn Resources>, Error> {
    Ok(Box::new(open_search_path(sources)?))
}

/// [`open_resources`] as the concrete [`SearchPath`].
pub fn open_search_path(sources: &Sources) -> Result<SearchPath, Error> {
    if sources.module.is_some() && sources.game.is_none() {
        return Err(Error::usage(
            "--module NAME needs --game DIR (or AREAKIT_GAME)",
        ));
    }
    if sources.game.is_none() && sources.capsules.is_empty() {
        return Err(Error::usage(
            "name a capsule (ERF/MOD/RIM/KEY file) or a game folder with --game DIR (or AREAKIT_GAME)",
        ));
    }
    let mut search = SearchPath::new();
    for c in &sources.capsules {
        search.push(c.display().to_string(), open_capsule_or_key(c)?);
    }
    if let Some(game) = &sources.game {
        let install = Install::open(game, sources.module.as_deref()).map_err(open_error)?;
        search.push(game.display().to_string(), Box::new(install));
    }
    Ok(search)
}

/// A capsule file, or a KEY (its BIFs found beside it, relative to its folder).
pub fn open_capsule_or_key(path: &Path) -> Result<Box<dyn Resources>, Error> {
    if file_starts_with(path, b"KEY ") {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        return Ok(Box::new(KeyResources::open(path, dir).map_err(open_error)?));
    }
    Ok(Box::new(Capsule::open(path).map_err(open_error)?))
}

/// Whether `path` is a regular file whose first bytes are those of a capsule (ERF family,
/// RIM) or a KEY.
pub fn is_capsule_file(path: &Path) -> bool {
    use std::io::Read;
    // Only a regular file is opened: opening a FIFO would wait for a writer.
    if !path.is_file() {
        return false;
    }
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::with_capacity(8);
    if f.take(8).read_to_end(&mut head).is_err() {
        return false;
    }
    matches!(
        crate::document::Format::from_magic(&head),
        Some(
            crate::document::Format::Erf
                | crate::document::Format::Rim
                | crate::document::Format::Key
        )
    )
}

/// Whether the regular file at `path` starts with `magic` (false when it cannot be read).
pub fn file_starts_with(path: &Path, magic: &[u8]) -> bool {
    use std::io::Read;
    if !path.is_file() {
        return false;
    }
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::with_capacity(magic.len());
    f.take(magic.len() as u64).read_to_end(&mut head).is_ok() && head == magic
}

/// The game resources bare `resref.ext` inputs are found in (set once by the command line).
static GAME: RwLock<Option<Arc<dyn Resources>>> = RwLock::new(None);

/// Makes bare `resref.ext` inputs that are not files resolve through `resources` (what
/// `--game DIR [--module NAME]` gives), for every later [`read_input`] of this process.
pub fn set_game(resources: Option<Arc<dyn Resources>>) {
    if let Ok(mut g) = GAME.write() {
        *g = resources;
    }
}

/// The game resources set by [`set_game`], if any.
pub(crate) fn game() -> Option<Arc<dyn Resources>> {
    GAME.read().ok().and_then(|g| g.clone())
}

/// Reads an input: a regular file; else a capsule member path (`x.mod/name.ext`); else, with a
/// game set ([`set_game`]), a bare `resref.ext` resolved through it. Otherwise the error of
/// reading the file (naming the path).
pub fn read_input(path: &Path) -> Result<Vec<u8>, Error> {
    let err = match areakit_area::io::read_regular_file(path) {
        Ok(data) => return Ok(data),
        Err(e) => e,
    };
    if err.kind() != io::ErrorKind::NotFound && err.kind() != io::ErrorKind::NotADirectory {
        return Err(Error::io(path, err));
    }
    if let Some(r) = install::read_member_path(path).map_err(open_error)? {
        return Ok(r.data);
    }
    let bare = path.parent().is_none_or(|p| p.as_os_str().is_empty());
    if let (true, Some(game)) = (bare, game()) {
        let name = path.to_string_lossy();
        if let Some((resref, ext)) = name.rsplit_once('.') {
            match game.get(resref, ext) {
                Ok(Some(r)) => return Ok(r.data),
                Ok(None) => {
                    return Err(Error::io(
                        path,
                        io::Error::new(
                            io::ErrorKind::NotFound,
                            "no such file, and the game holds no such resource",
                        ),
                    ));
                }
                Err(e) => return Err(Error::io(path, e)),
            }
        }
    }
    Err(Error::io(path, err))
}

/// Whether `path` names an input [`read_input`] can read without it being a file.
pub fn is_virtual_input(path: &Path) -> bool {
    if path.exists() {
        return false;
    }
    install::split_member_path(path).is_some()
        || (path.parent().is_none_or(|p| p.as_os_str().is_empty()) && game().is_some())
}
