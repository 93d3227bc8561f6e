//! `areakit build`: a module from a layout of kit rooms, checked before it is put in place.
//!
//! The layout is read, every room loaded (kit components from the kits folder; other rooms
//! through the session: files, capsule member paths, game resources), the module made in
//! memory ([`areakit_area::build::build`]), written to a temporary place beside the output
//! (a folder, or a `.mod` capsule), checked there with `check` — a module with an `error`
//! finding is not put in place — and renamed over the output.

use std::path::{Path, PathBuf};

use areakit_area::build::{self as area_build, BuildError, Built};
pub use areakit_area::build::{BuildReport, TargetGame};
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
    /// The warnings, as `check --json` gives them.
    pub findings: Vec<FileFinding>,
}

/// What `areakit build` did (its serialisation is `build --json`).
#[derive(Debug, Clone, Serialize)]
pub struct BuildOutput {
    /// The layout read.
    pub layout: PathBuf,
    /// The module written.
    pub output: PathBuf,
    /// Whether it is a `.mod` capsule (else a folder).
    pub packed: bool,
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

/// Builds the module `layout` describes and writes it to `output` (a folder, or a `.mod`).
pub fn build(
    session: &Session,
    layout: &Path,
    output: &Path,
    opts: &BuildOptions,
) -> Result<BuildOutput, Error> {
    let built = build_in_memory(session, layout, opts)?;
    write_module(session, layout, output, built, opts.force)
}

/// Reads the layout and everything it names, and makes the module in memory.
pub fn build_in_memory(
    session: &Session,
    layout: &Path,
    opts: &BuildOptions,
) -> Result<Built, Error> {
    let bytes = session.read(layout)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| build_error(layout, BuildError::Layout("expected UTF-8 JSON".into())))?;
    let parsed = area_build::layout::parse(&text).map_err(|e| build_error(layout, e))?;
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
    area_build::build(&input).map_err(|e| build_error(layout, e))
}

fn is_mod(output: &Path) -> bool {
    output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("mod"))
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

/// Writes a built module to a temporary place, checks it, and renames it over `output`.
pub fn write_module(
    session: &Session,
    layout: &Path,
    output: &Path,
    built: Built,
    force: bool,
) -> Result<BuildOutput, Error> {
    let packed = is_mod(output);
    if output.exists() && !force {
        return Err(Error::usage(format!(
            "{}: exists (use --force to replace it)",
            output.display()
        )));
    }
    if packed && output.is_dir() {
        return Err(Error::usage(format!(
            "{}: is a folder; a .mod output must be a file",
            output.display()
        )));
    }
    let names: Vec<String> = built.files.iter().map(|f| f.file_name()).collect();
    let bytes: u64 = built.files.iter().map(|f| f.data.len() as u64).sum();
    let tmp = temporary_beside(output, "building");
    let cleanup = |p: &Path| {
        let _ = if p.is_dir() {
            std::fs::remove_dir_all(p)
        } else {
            std::fs::remove_file(p)
        };
    };
    let result = (|| -> Result<BuildCheck, Error> {
        if packed {
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
            let erf =
                Erf::from_resources(ErfKind::Mod, members).map_err(|e| Error::encode(output, e))?;
            let data = areakit_formats::erf::write(&erf).map_err(|e| Error::encode(output, e))?;
            // The temporary capsule must keep the .mod extension for check to open it.
            let tmp_mod = PathBuf::from(format!("{}.mod", tmp.display()));
            let c = std::fs::write(&tmp_mod, &data)
                .map_err(|e| Error::io(&tmp_mod, e))
                .and_then(|()| check_module(session, &tmp_mod));
            let done = match c {
                Ok(c) if c.errors == 0 => std::fs::rename(&tmp_mod, output)
                    .map(|()| c)
                    .map_err(|e| Error::io(output, e)),
                other => other.and_then(|c| Err(refused(layout, &c))),
            };
            if done.is_err() {
                cleanup(&tmp_mod);
            }
            done
        } else {
            std::fs::create_dir(&tmp).map_err(|e| Error::io(&tmp, e))?;
            for f in &built.files {
                let p = tmp.join(f.file_name());
                std::fs::write(&p, &f.data).map_err(|e| Error::io(&p, e))?;
            }
            let c = check_module(session, &tmp)?;
            if c.errors > 0 {
                return Err(refused(layout, &c));
            }
            if output.exists() {
                let old = temporary_beside(output, "replaced");
                std::fs::rename(output, &old).map_err(|e| Error::io(output, e))?;
                if let Err(e) = std::fs::rename(&tmp, output) {
                    let _ = std::fs::rename(&old, output);
                    return Err(Error::io(output, e));
                }
                cleanup(&old);
            } else {
                std::fs::rename(&tmp, output).map_err(|e| Error::io(output, e))?;
            }
            Ok(c)
        }
    })();
    if tmp.exists() {
        cleanup(&tmp);
    }
    let check = result?;
    Ok(BuildOutput {
        layout: layout.to_path_buf(),
        output: output.to_path_buf(),
        packed,
        files: names,
        bytes,
        build: built.report,
        check,
    })
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

fn check_module(session: &Session, path: &Path) -> Result<BuildCheck, Error> {
    let report = check::check_paths(session, &[path.to_path_buf()])?;
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
        findings: report
            .findings
            .iter()
            .filter(|f| f.finding.severity != Severity::Info)
            .cloned()
            .collect(),
    })
}
