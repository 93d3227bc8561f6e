//! `areakit check`: walk files and folders, decode every file of a known format, run its
//! validators, and collect the findings.

use std::path::{Path, PathBuf};

use areakit_formats::{DecodeError, Finding, Location, Place, Severity};
use serde_json::{Map, Value, json};

use crate::document::{Document, Format};
use crate::{Error, fsio};

/// A finding about one file.
#[derive(Debug, Clone, PartialEq)]
pub struct FileFinding {
    /// The file (or area folder) the finding is about.
    pub path: PathBuf,
    /// The finding.
    pub finding: Finding,
}

/// The result of checking a set of paths.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// Number of files decoded and checked.
    pub files_checked: usize,
    /// Every finding, in path order.
    pub findings: Vec<FileFinding>,
}

impl Report {
    /// Number of findings of `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.finding.severity == severity)
            .count()
    }

    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.count(Severity::Error) > 0
    }

    /// The JSON object `{"files_checked": N, "findings": [...]}`. Each finding has `path`,
    /// `severity`, `code`, `message` and the location keys that apply: `offset`, `line`,
    /// `column`, `room`, `face`, `edge`, `position`, `item`.
    pub fn to_json(&self) -> Value {
        let findings: Vec<Value> = self.findings.iter().map(finding_json).collect();
        json!({
            "files_checked": self.files_checked,
            "errors": self.count(Severity::Error),
            "warnings": self.count(Severity::Warning),
            "findings": findings,
        })
    }

    /// One line per finding (`path:location: severity[code]: message`) and a summary line.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for f in &self.findings {
            let place = f.finding.place.to_string();
            let sep = if place.is_empty() {
                String::new()
            } else {
                format!(":{place}")
            };
            s.push_str(&format!(
                "{}{sep}: {}[{}]: {}\n",
                f.path.display(),
                f.finding.severity,
                f.finding.code,
                f.finding.message
            ));
        }
        s.push_str(&format!(
            "{} files checked: {} errors, {} warnings\n",
            self.files_checked,
            self.count(Severity::Error),
            self.count(Severity::Warning)
        ));
        s
    }
}

fn finding_json(f: &FileFinding) -> Value {
    let p = &f.finding.place;
    let mut m = Map::new();
    m.insert("path".into(), json!(f.path.display().to_string()));
    m.insert("severity".into(), json!(f.finding.severity.name()));
    m.insert("code".into(), json!(f.finding.code));
    m.insert("message".into(), json!(f.finding.message));
    let mut opt = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            m.insert(k.into(), v);
        }
    };
    opt("offset", p.offset.map(|o| json!(o)));
    opt("line", p.line.map(|o| json!(o)));
    opt("column", p.column.map(|o| json!(o)));
    opt("room", p.room.as_ref().map(|o| json!(o)));
    opt("face", p.face.map(|o| json!(o)));
    opt("edge", p.edge.map(|o| json!(o)));
    opt("position", p.position.map(|o| json!(o)));
    opt("item", p.item.as_ref().map(|o| json!(o)));
    Value::Object(m)
}

/// The finding for a file that does not decode: `invalid-file` (error), or `unsupported-file`
/// (warning) for a valid variant areakit does not read.
pub fn decode_finding(e: &DecodeError) -> Finding {
    let mut place = match e.location() {
        Location::Offset(o) => Place::offset(o),
        Location::LineCol { line, column } => Place::line_col(line, column),
        _ => Place::default(),
    };
    if !e.context().is_empty() {
        place.item = Some(e.context().join(": "));
    }
    if e.kind() == areakit_formats::ErrorKind::Unsupported {
        // A valid file of a variant areakit does not read (a compiled MDL, another version):
        // nothing is known to be wrong with it.
        return Finding::warning("unsupported-file", place, e.message().to_string());
    }
    Finding::error("invalid-file", place, e.message().to_string())
}

/// Whether a path found while walking a folder is one `check` looks at.
fn known_extension(path: &Path) -> bool {
    Format::from_extension(path).is_some()
        || ["wok", "pwk", "dwk"].iter().any(|e| extension_is(path, e))
}

/// Checks every path: files directly, folders recursively (files of known formats only).
/// A path that does not exist is an I/O error (exit code 2).
pub fn check_paths(paths: &[PathBuf]) -> Result<Report, Error> {
    let mut files = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| Error::io(p, e))?;
        if meta.is_dir() {
            for entry in walkdir::WalkDir::new(p).sort_by_file_name() {
                let entry = entry.map_err(|e| {
                    let path = e.path().unwrap_or(p).to_path_buf();
                    Error::io(
                        &path,
                        e.into_io_error()
                            .unwrap_or_else(|| std::io::Error::other("file system loop")),
                    )
                })?;
                if entry.file_type().is_file() && known_extension(entry.path()) {
                    files.push(entry.into_path());
                }
            }
        } else {
            files.push(p.clone());
        }
    }
    let mut report = Report::default();
    // Areas first: each LYT brings its VIS and WOKs; the LYT and VIS file checks are part of
    // the area check, so those two files are not validated again on their own.
    let mut covered: Vec<PathBuf> = Vec::new();
    for lyt_path in files.iter().filter(|p| extension_is(p, "lyt")) {
        match crate::area::Area::open(lyt_path) {
            Ok(area) => {
                report.files_checked += 1;
                covered.push(area.lyt_path.clone());
                if let Some(v) = &area.vis_path {
                    covered.push(v.clone());
                    report.files_checked += 1;
                }
                for mut f in crate::area::check(&area) {
                    let path = f
                        .place
                        .file
                        .take()
                        .map_or_else(|| area.lyt_path.clone(), PathBuf::from);
                    report.findings.push(FileFinding { path, finding: f });
                }
            }
            Err(crate::area::AreaError::Lyt { .. }) => {} // reported by the file check below
            Err(crate::area::AreaError::Io { path, source }) => {
                return Err(Error::io(&path, source));
            }
            Err(e) => return Err(Error::usage(e.to_string())),
        }
    }
    for path in files {
        if covered.iter().any(|c| fsio::same_file(c, &path)) {
            continue; // checked and counted with its area
        }
        check_file(&path, &mut report)?;
    }
    report.findings.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(report)
}

fn extension_is(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

fn check_file(path: &Path, report: &mut Report) -> Result<(), Error> {
    let data = fsio::read(path)?;
    report.files_checked += 1;
    for finding in check_data(path, &data)? {
        report.findings.push(FileFinding {
            path: path.to_path_buf(),
            finding,
        });
    }
    Ok(())
}

/// The findings of one file's bytes (`path` picks the format and names it): a file that does
/// not decode gives one `invalid-file` (or `unsupported-file`) finding; one that does gives its
/// validators' findings (and, for MDL ASCII, the reader's own warnings).
pub fn check_data(path: &Path, data: &[u8]) -> Result<Vec<Finding>, Error> {
    // MDL ASCII: the reader's own warnings (garbage lines, ...) come with the model.
    if Format::detect(path, data) == Some(Format::MdlAscii) {
        return Ok(match areakit_formats::mdl_ascii::read_with_findings(data) {
            Ok((model, mut findings)) => {
                findings.extend(areakit_formats::mdl_ascii::validate(&model));
                findings
            }
            Err(e) => vec![decode_finding(&e)],
        });
    }
    match Document::decode(path, data) {
        Ok(doc) => Ok(validate(&doc)),
        Err(Error::Invalid { source, .. }) => Ok(vec![decode_finding(&source)]),
        Err(e) => Err(e),
    }
}

/// The findings of a decoded document's validators.
pub fn validate(doc: &Document) -> Vec<Finding> {
    use areakit_formats::{lyt, mdl_ascii, trx, vis};
    match doc {
        Document::Bwm(m) => crate::walkmesh::check_bwm(m),
        Document::Lyt(l) => lyt::validate(l),
        Document::Vis(v) => vis::validate(v),
        Document::MdlAscii(m) => mdl_ascii::validate(m),
        Document::Trx(t) => {
            let mut f = trx::validate(t);
            f.extend(crate::bake::check_bake(t));
            f
        }
    }
}
