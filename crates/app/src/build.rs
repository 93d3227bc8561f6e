//! `areakit build`: a module from a layout of kit rooms, checked before it is put in place.
//!
//! The layout is read, every room loaded (kit components from the kits folder; other rooms
//! through the session: files, capsule member paths, game resources), the module made in
//! memory ([`areakit_area::build::build`]), written to a temporary place beside the output
//! (a folder, or a `.mod` capsule), checked there with `check` — a module with an `error`
//! finding is not put in place — and renamed over the output.

use std::path::{Path, PathBuf};

use areakit_area::build::{self as area_build, BuildError, Built};
pub use areakit_area::build::{BuildReport, Stage, TargetGame};
use areakit_formats::Severity;
use areakit_formats::erf::{Erf, ErfKind};
use areakit_formats::restype::{ResRef, ResType};
use serde::Serialize;

use crate::Error;
use crate::Session;
use crate::check;
use crate::report::FileFinding;

/// How to build.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// The kits folder (`--kits`); else the one the layout names.
    pub kits: Option<PathBuf>,
    /// Replace an existing output.
    pub force: bool,
}

/// The module's check, summed up.
#[derive(Debug, Clone, Serialize)]
pub struct BuildCheck {
    /// Error findings (a module is only written with none).
    pub errors: usize,
    /// Warning findings.
    pub warnings: usize,
    /// Info findings.
    pub infos: usize,
    /// The findings (warnings and infos; a module with an error is not written), as
    /// `check --json` gives them.
    pub findings: Vec<FileFinding>,
}

/// What `areakit build` did (its serialisation is `build --json`).
#[derive(Debug, Clone, Serialize)]
pub struct BuildOutput {
    /// The layout read.
    pub layout: PathBuf,
    /// The module written.
    pub output: PathBuf,
    /// Whether it is a capsule (else a folder).
    pub packed: bool,
    /// `folder`, `mod`, `erf` or `sav`.
    pub kind: String,
    /// The files of the module, `resref.ext` in the order written.
    pub files: Vec<String>,
    /// Their total size.
    pub bytes: u64,
    /// The build's report: rooms, connections, doors, entry, VIS, minimap, warnings.
    pub build: BuildReport,
    /// `check` of the written module.
    pub check: BuildCheck,
}

fn build_error(layout: &Path, e: BuildError) -> Error {
    Error::Build {
        path: layout.to_path_buf(),
        source: e,
    }
}

/// Where a module goes: a folder, or a capsule of the kind the output's extension names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// A folder of loose files (an output name without an extension, or an existing folder).
    Folder,
    /// A `.mod`, `.erf` or `.sav` capsule.
    Capsule(ErfKind),
}

impl OutputKind {
    /// `folder`, `mod`, `erf` or `sav`.
    pub fn name(self) -> &'static str {
        match self {
            OutputKind::Folder => "folder",
            OutputKind::Capsule(ErfKind::Erf) => "erf",
            OutputKind::Capsule(ErfKind::Sav) => "sav",
            OutputKind::Capsule(ErfKind::Hak) => "hak",
            OutputKind::Capsule(ErfKind::Mod) => "mod",
        }
    }
}

/// What `-o OUTPUT` asks for, checked before anything is built (so a refusal costs nothing):
/// a `.mod`, `.erf` or `.sav` name is that capsule; a name without an extension, or an
/// existing folder, is a folder. An existing output is refused without `force`, and so is any
/// other extension on a name that does not exist (a typo would otherwise become a folder).
pub fn output_kind(output: &Path, force: bool) -> Result<OutputKind, Error> {
    let ext = output
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let kind = match ext.as_deref() {
        Some("mod") => OutputKind::Capsule(ErfKind::Mod),
        Some("erf") => OutputKind::Capsule(ErfKind::Erf),
        Some("sav") => OutputKind::Capsule(ErfKind::Sav),
        None => OutputKind::Folder,
        Some(_) if output.is_dir() => OutputKind::Folder,
        Some(e) => {
            return Err(Error::usage(format!(
                "{}: .{e} is not an output areakit writes: name a folder (no extension) or a .mod, .erf or .sav capsule",
                output.display()
            )));
        }
    };
    let exists = std::fs::symlink_metadata(output).is_ok();
    if exists && !force {
        return Err(Error::usage(format!(
            "{}: exists (use --force to replace it)",
            output.display()
        )));
    }
    match kind {
        OutputKind::Capsule(_) if output.is_dir() => Err(Error::usage(format!(
            "{}: is a folder; a .{} output is a capsule file",
            output.display(),
            kind.name()
        ))),
        OutputKind::Folder if exists && !output.is_dir() => Err(Error::usage(format!(
            "{}: is a file; a module folder cannot replace it",
            output.display()
        ))),
        _ => Ok(kind),
    }
}

/// A step of `areakit build`, as the progress callback is told of it: reading the layout and
/// what it names, the library's stages, the check, the write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildStep {
    /// The layout, the kits and the rooms read.
    Reading,
    /// A stage of the module's making.
    Building(Stage),
    /// The module checked in memory.
    Checking,
    /// The module written.
    Writing,
}

impl BuildStep {
    /// A few words for a progress line.
    pub fn describe(self) -> &'static str {
        match self {
            BuildStep::Reading => "reading the layout and kits",
            BuildStep::Building(s) => s.describe(),
            BuildStep::Checking => "checking the module",
            BuildStep::Writing => "writing",
        }
    }

    /// Its place among the steps, from 0, and how many there are.
    pub fn position(self) -> (usize, usize) {
        let n = Stage::ALL.len();
        let at = match self {
            BuildStep::Reading => 0,
            BuildStep::Building(s) => 1 + Stage::ALL.iter().position(|&x| x == s).unwrap_or(0),
            BuildStep::Checking => n + 1,
            BuildStep::Writing => n + 2,
        };
        (at, n + 3)
    }
}

/// Builds the module `layout` describes and writes it to `output` (a folder, or a `.mod`,
/// `.erf` or `.sav` capsule). The output is refused before any work when it exists (without
/// `force`) or names no kind of output; the module is made and checked in memory, and written
/// only when its check has no error.
pub fn build(
    session: &Session,
    layout: &Path,
    output: &Path,
    opts: &BuildOptions,
) -> Result<BuildOutput, Error> {
    build_reporting(session, layout, output, opts, &|_| {})
}

/// [`build`], telling `progress` as each step starts.
pub fn build_reporting(
    session: &Session,
    layout: &Path,
    output: &Path,
    opts: &BuildOptions,
    progress: &dyn Fn(BuildStep),
) -> Result<BuildOutput, Error> {
    let kind = output_kind(output, opts.force)?;
    progress(BuildStep::Reading);
    let built =
        build_in_memory_reporting(session, layout, opts, &|s| progress(BuildStep::Building(s)))?;
    write_module_reporting(session, layout, output, kind, built, progress)
}

/// Reads the layout and everything it names, and makes the module in memory.
pub fn build_in_memory(
    session: &Session,
    layout: &Path,
    opts: &BuildOptions,
) -> Result<Built, Error> {
    build_in_memory_reporting(session, layout, opts, &|_| {})
}

/// [`build_in_memory`], telling `progress` as each stage starts.
pub fn build_in_memory_reporting(
    session: &Session,
    layout: &Path,
    opts: &BuildOptions,
    progress: &dyn Fn(Stage),
) -> Result<Built, Error> {
    let bytes = session.read(layout)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| build_error(layout, BuildError::Layout("expected UTF-8 JSON".into())))?;
    let parsed = area_build::layout::parse(&text).map_err(|e| build_error(layout, e))?;
    area_build::check_module_name(&parsed.module.to_ascii_lowercase())
        .map_err(|e| build_error(layout, e))?;
    let dir = layout.parent().unwrap_or(Path::new(".")).to_path_buf();
    let read = |name: &str| -> Result<Vec<u8>, BuildError> {
        let p = Path::new(name);
        let p = if p.is_relative() && !session.is_virtual_input(p) && dir.join(p).exists() {
            dir.join(p)
        } else {
            p.to_path_buf()
        };
        session.read(&p).map_err(|e| match e {
            Error::Io { path, source } => BuildError::Io { path, source },
            other => BuildError::Missing(other.to_string()),
        })
    };
    let input = area_build::load::load(parsed, opts.kits.as_deref(), &dir, &read)
        .map_err(|e| build_error(layout, e))?;
    area_build::build_with(&input, progress).map_err(|e| build_error(layout, e))
}

/// A name beside `output` that nothing uses.
fn temporary_beside(output: &Path, tag: &str) -> PathBuf {
    let parent = output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = output
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "module".into());
    let pid = std::process::id();
    (0u32..u32::MAX)
        .map(|k| parent.join(format!(".{name}.{tag}-{pid}-{k}")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| parent.join(format!(".{name}.{tag}-{pid}")))
}

/// The module's files as a capsule of `kind`, in memory.
fn capsule_bytes(output: &Path, kind: ErfKind, built: &Built) -> Result<Vec<u8>, Error> {
    let mut members = Vec::with_capacity(built.files.len());
    for f in &built.files {
        let resref = ResRef::new(&f.resref).map_err(|e| Error::encode(output, e))?;
        let restype = ResType::from_extension(&f.ext).ok_or_else(|| {
            Error::usage(format!(
                "{}: no resource type for .{}",
                f.file_name(),
                f.ext
            ))
        })?;
        members.push((resref, restype, f.data.clone()));
    }
    let erf = Erf::from_resources(kind, members).map_err(|e| Error::encode(output, e))?;
    areakit_formats::erf::write(&erf).map_err(|e| Error::encode(output, e))
}

/// Checks a built module in memory, its findings named by where its files will be (`OUT/x.wok`
/// or `OUT.mod/x.wok`), and writes it to `output` only when the check has no error: a capsule
/// through the one atomic write, a folder written beside the output and renamed into place.
pub fn write_module(
    session: &Session,
    layout: &Path,
    output: &Path,
    kind: OutputKind,
    built: Built,
) -> Result<BuildOutput, Error> {
    write_module_reporting(session, layout, output, kind, built, &|_| {})
}

/// [`write_module`], telling `progress` as the check and the write start.
pub fn write_module_reporting(
    session: &Session,
    layout: &Path,
    output: &Path,
    kind: OutputKind,
    built: Built,
    progress: &dyn Fn(BuildStep),
) -> Result<BuildOutput, Error> {
    let names: Vec<String> = built.files.iter().map(|f| f.file_name()).collect();
    let bytes: u64 = built.files.iter().map(|f| f.data.len() as u64).sum();
    let capsule_kind = match kind {
        OutputKind::Capsule(k) => k,
        OutputKind::Folder => ErfKind::Mod,
    };
    let data = capsule_bytes(output, capsule_kind, &built)?;
    let capsule = areakit_area::install::Capsule::from_bytes(output, data)
        .map_err(|e| Error::usage(format!("{}: {e}", output.display())))?;
    let capsule = std::sync::Arc::new(capsule);
    progress(BuildStep::Checking);
    // The check reuses what the build computed: the VIS flow and the ground's navigation.
    let known = check::Known {
        vis_pairs: Some(&built.facts.vis_pairs),
        nav: built.facts.nav.as_ref(),
    };
    let check = check_module(
        session,
        &capsule,
        matches!(kind, OutputKind::Capsule(_)),
        known,
    )?;
    if check.errors > 0 {
        return Err(refused(layout, &check));
    }
    progress(BuildStep::Writing);
    match kind {
        OutputKind::Capsule(_) => {
            crate::session::write_atomic(output, capsule.bytes())?;
        }
        OutputKind::Folder => write_folder(output, &built)?,
    }
    Ok(BuildOutput {
        layout: layout.to_path_buf(),
        output: output.to_path_buf(),
        packed: matches!(kind, OutputKind::Capsule(_)),
        kind: kind.name().to_string(),
        files: names,
        bytes,
        build: built.report,
        check,
    })
}

/// Writes the module's files into a new folder beside `output`, then renames it into place
/// (replacing an existing folder only after the new one is whole).
fn write_folder(output: &Path, built: &Built) -> Result<(), Error> {
    let tmp = temporary_beside(output, "building");
    let result = (|| -> Result<(), Error> {
        std::fs::create_dir(&tmp).map_err(|e| Error::io(&tmp, e))?;
        for f in &built.files {
            // Each file through the one atomic write (its size limit and fault handling),
            // inside the folder that is renamed into place whole.
            crate::session::write_atomic(&tmp.join(f.file_name()), &f.data)?;
        }
        if output.exists() {
            let old = temporary_beside(output, "replaced");
            std::fs::rename(output, &old).map_err(|e| Error::io(output, e))?;
            if let Err(e) = std::fs::rename(&tmp, output) {
                let _ = std::fs::rename(&old, output);
                return Err(Error::io(output, e));
            }
            let _ = std::fs::remove_dir_all(&old);
        } else {
            std::fs::rename(&tmp, output).map_err(|e| Error::io(output, e))?;
        }
        Ok(())
    })();
    if tmp.exists() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

fn refused(layout: &Path, c: &BuildCheck) -> Error {
    let first: Vec<String> = c
        .findings
        .iter()
        .filter(|f| f.finding.severity == Severity::Error)
        .take(5)
        .map(|f| {
            format!(
                "{}: {} {}",
                f.path.display(),
                f.finding.code,
                f.finding.message
            )
        })
        .collect();
    build_error(
        layout,
        BuildError::Placement(format!(
            "the built module fails its check with {} error(s), so nothing was written: {}",
            c.errors,
            first.join("; ")
        )),
    )
}

fn check_module(
    session: &Session,
    capsule: &std::sync::Arc<areakit_area::install::Capsule>,
    container: bool,
    known: check::Known<'_>,
) -> Result<BuildCheck, Error> {
    let report = check::check_capsule(session, capsule, container, known)?;
    let count = |s: Severity| {
        report
            .findings
            .iter()
            .filter(|f| f.finding.severity == s)
            .count()
    };
    Ok(BuildCheck {
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        infos: count(Severity::Info),
        findings: report.findings,
    })
}
