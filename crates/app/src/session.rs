//! Where an operation reads from and how it writes: the [`Session`].
//!
//! A session is the explicit value every operation takes: the game folder and module named on
//! the command line (`--game DIR`, `--module NAME`), opened once. Through it an input path is
//! read ([`Session::read`]): a regular file; else a capsule member path
//! (`m13aa.mod/m13aa_01a.wok`); else, with a game, a bare `resref.ext` found the way the game
//! finds it. There is no process-wide state: two sessions with different games can run side by
//! side.
//!
//! Writes go through [`write_atomic`] and [`crate::atomic::write_set`] (temporary files beside
//! the outputs, renamed over them in an order), and [`refuse_overwrite`] keeps an operation from
//! writing over its own input.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use areakit_area::install::{self, Capsule, Install, KeyResources, OpenError, SearchPath};
use areakit_area::resources::Resources;

use crate::Error;
pub use crate::atomic::write_atomic;
use crate::format::Format;

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

/// What one run reads from: the [`Sources`] it was given, and the game they name, opened once.
#[derive(Clone, Default)]
pub struct Session {
    sources: Sources,
    game: Option<Arc<dyn Resources>>,
    notes: Vec<String>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("sources", &self.sources)
            .field("game", &self.game.is_some())
            .field("notes", &self.notes)
            .finish()
    }
}

impl Session {
    /// A session that reads files only: no game, no module, no capsules.
    pub fn files_only() -> Session {
        Session::default()
    }

    /// Opens the game `sources` names (its override, the module's capsules, KEY/BIF) once.
    /// `--module` without `--game` is a usage error. `sources.capsules` are kept for the
    /// operations on resources ([`Session::resources`]); reading inputs does not search them.
    pub fn open(sources: Sources) -> Result<Session, Error> {
        if sources.module.is_some() && sources.game.is_none() {
            return Err(Error::usage("a module needs a game folder to be found in"));
        }
        let mut notes = Vec::new();
        let game = match &sources.game {
            Some(dir) => {
                let install = Install::open(dir, sources.module.as_deref()).map_err(open_error)?;
                notes.extend(
                    install
                        .skipped()
                        .iter()
                        .map(|e| format!("texture pack skipped: {e}")),
                );
                Some(Arc::new(install) as Arc<dyn Resources>)
            }
            None => None,
        };
        Ok(Session {
            sources,
            game,
            notes,
        })
    }

    /// What opening the game left out (a texture pack that does not open), one line each: the
    /// caller reports them (the CLI on stderr).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The sources this session was opened with.
    pub fn sources(&self) -> &Sources {
        &self.sources
    }

    /// The game's resources, when a game was named.
    pub fn game(&self) -> Option<&Arc<dyn Resources>> {
        self.game.as_ref()
    }

    /// Whether a module was named (`--module`).
    pub fn has_module(&self) -> bool {
        self.sources.module.is_some()
    }

    /// One search path over `capsules` (in the order given, first wins), then the session's
    /// own capsules, then the game. Naming nothing at all is a usage error.
    pub fn resources(&self, capsules: &[PathBuf]) -> Result<SearchPath, Error> {
        let mut first = Vec::with_capacity(capsules.len());
        for c in capsules {
            first.push((c.display().to_string(), open_capsule_or_key(c)?));
        }
        self.resources_with(first)
    }

    /// [`Session::resources`] with the first places already opened (name, place).
    pub fn resources_with(
        &self,
        first: Vec<(String, Box<dyn Resources>)>,
    ) -> Result<SearchPath, Error> {
        if self.game.is_none() && first.is_empty() && self.sources.capsules.is_empty() {
            return Err(Error::usage(
                "name a capsule (ERF/MOD/RIM/KEY file) or a game folder",
            ));
        }
        let mut search = SearchPath::new();
        for (name, place) in first {
            search.push(name, place);
        }
        for c in &self.sources.capsules {
            search.push(c.display().to_string(), open_capsule_or_key(c)?);
        }
        if let (Some(dir), Some(game)) = (&self.sources.game, &self.game) {
            search.push(dir.display().to_string(), Box::new(game.clone()));
        }
        Ok(search)
    }

    /// Reads an input: a regular file; else a capsule member path (`x.mod/name.ext`); else,
    /// with a game, a bare `resref.ext` resolved through it. Otherwise the error of reading
    /// the file (naming the path). A folder, a FIFO or a device is an I/O error, never a hang;
    /// a capsule that does not decode is invalid input.
    pub fn read(&self, path: &Path) -> Result<Vec<u8>, Error> {
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
        if let (true, Some(game)) = (is_bare(path), &self.game) {
            let name = path.to_string_lossy();
            if let Some((resref, ext)) = name.rsplit_once('.') {
                return match game.get(resref, ext) {
                    Ok(Some(r)) => Ok(r.data),
                    Ok(None) => Err(Error::io(
                        path,
                        io::Error::new(
                            io::ErrorKind::NotFound,
                            "no such file, and the game holds no such resource",
                        ),
                    )),
                    Err(e) => Err(Error::io(path, e)),
                };
            }
        }
        Err(Error::io(path, err))
    }

    /// Whether `path` names an input [`Session::read`] reads without it being a file: a
    /// capsule member path, or with a game a bare name.
    pub fn is_virtual_input(&self, path: &Path) -> bool {
        if path.exists() {
            return false;
        }
        install::split_member_path(path).is_some() || (is_bare(path) && self.game.is_some())
    }
}

/// Reads a regular file on disk (never a member path or a game resource): what an operation
/// reads that is not an input, such as a capsule manifest. A folder, a FIFO or a device is an
/// I/O error, never a hang.
pub fn read_file(path: &Path) -> Result<Vec<u8>, Error> {
    areakit_area::io::read_regular_file(path).map_err(|e| Error::io(path, e))
}

/// Whether `path` is a bare name (no folder part).
pub fn is_bare(path: &Path) -> bool {
    path.parent().is_none_or(|p| p.as_os_str().is_empty())
}

/// A capsule file, or a KEY (its BIFs found beside it, relative to its folder). A capsule
/// member path (`x.mod/a.wok`) is refused: it names a resource, not a place of resources.
pub fn open_capsule_or_key(path: &Path) -> Result<Box<dyn Resources>, Error> {
    if !path.exists() && install::split_member_path(path).is_some() {
        return Err(Error::usage(format!(
            "{}: a member of a capsule, not a capsule (name the capsule, or extract the member)",
            path.display()
        )));
    }
    if file_format(path) == Some(Format::Key) {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        return Ok(Box::new(KeyResources::open(path, dir).map_err(open_error)?));
    }
    Ok(Box::new(Capsule::open(path).map_err(open_error)?))
}

/// The first `n` bytes of the regular file at `path` (fewer when it is shorter); `None` when
/// it is not a regular file or cannot be read. Only a regular file is opened: opening a FIFO
/// would wait for a writer.
fn head(path: &Path, n: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    if !path.is_file() {
        return None;
    }
    let f = std::fs::File::open(path).ok()?;
    let mut head = Vec::with_capacity(n as usize);
    f.take(n).read_to_end(&mut head).ok()?;
    Some(head)
}

/// Whether `path` is a regular file whose first bytes are those of a capsule (ERF family,
/// RIM) or a KEY.
pub fn is_capsule_file(path: &Path) -> bool {
    head(path, 8).is_some_and(|h| {
        matches!(
            Format::from_magic(&h),
            Some(Format::Erf | Format::Rim | Format::Key)
        )
    })
}

/// The format the first bytes of the regular file at `path` name ([`Format::from_magic`]:
/// `KEY`, `BIF`, a capsule, ...); `None` when they name none or the file cannot be read.
pub fn file_format(path: &Path) -> Option<Format> {
    Format::from_magic(&head(path, 8)?)
}

/// Whether two paths name the same file (after resolving links); a path that does not exist yet
/// is the same as another only if their absolute forms are equal.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => std::path::absolute(a).ok() == std::path::absolute(b).ok(),
    }
}

/// Refuses to write `out` when it is the input `input`, unless `allow` is set.
pub fn refuse_overwrite(input: &Path, out: &Path, allow: bool) -> Result<(), Error> {
    if !allow && same_file(input, out) {
        return Err(Error::usage(format!(
            "{}: refusing to overwrite the input file (write to another path)",
            out.display()
        )));
    }
    Ok(())
}
