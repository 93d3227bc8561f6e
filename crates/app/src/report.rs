//! Findings under the files they are about, and the report of a check: the shape every
//! command that finds things returns (`check`, `pth check`, `import`).

use std::path::PathBuf;

use areakit_formats::{DecodeError, Finding, Location, Place, Severity};
use serde::ser::{Serialize, SerializeMap, Serializer};

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
    /// Files found inside folders that could not be read, with the reason (the check went on).
    pub io_errors: Vec<(PathBuf, String)>,
}

impl Report {
    /// The report of one file's findings (`files_checked` 1, each under `path`): what
    /// `import` prints of the file it wrote.
    pub fn of_file(path: &std::path::Path, findings: &[Finding]) -> Report {
        findings
            .iter()
            .cloned()
            .map(|finding| FileFinding {
                path: path.to_path_buf(),
                finding,
            })
            .collect()
    }

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
}

impl Serialize for Report {
    /// `files_checked`, `errors`, `warnings`, `findings` and `io_errors` (each `path` and
    /// `error`).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct IoErrors<'a>(&'a [(PathBuf, String)]);
        impl Serialize for IoErrors<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.0.iter().map(|(p, e)| {
                    let mut m = serde_json::Map::new();
                    m.insert("path".into(), p.display().to_string().into());
                    m.insert("error".into(), e.as_str().into());
                    m
                }))
            }
        }
        let mut m = s.serialize_map(Some(5))?;
        m.serialize_entry("files_checked", &self.files_checked)?;
        m.serialize_entry("errors", &self.count(Severity::Error))?;
        m.serialize_entry("warnings", &self.count(Severity::Warning))?;
        m.serialize_entry("findings", &self.findings)?;
        m.serialize_entry("io_errors", &IoErrors(&self.io_errors))?;
        m.end()
    }
}

impl Serialize for FileFinding {
    /// `path`, `severity`, `code`, `message` and the location keys that apply: `offset`,
    /// `line`, `column`, `room`, `face`, `edge`, `position`, `item`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = &self.finding;
        let p = &f.place;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("path", &self.path.display().to_string())?;
        m.serialize_entry("severity", f.severity.name())?;
        m.serialize_entry("code", &f.code)?;
        m.serialize_entry("message", &f.message)?;
        if let Some(v) = p.offset {
            m.serialize_entry("offset", &v)?;
        }
        if let Some(v) = p.line {
            m.serialize_entry("line", &v)?;
        }
        if let Some(v) = p.column {
            m.serialize_entry("column", &v)?;
        }
        if let Some(v) = &p.room {
            m.serialize_entry("room", v)?;
        }
        if let Some(v) = p.face {
            m.serialize_entry("face", &v)?;
        }
        if let Some(v) = p.edge {
            m.serialize_entry("edge", &v)?;
        }
        if let Some(v) = p.position {
            m.serialize_entry("position", &v)?;
        }
        if let Some(v) = &p.item {
            m.serialize_entry("item", v)?;
        }
        m.end()
    }
}

impl FromIterator<FileFinding> for Report {
    /// A report of one file's findings (`files_checked` 1).
    fn from_iter<I: IntoIterator<Item = FileFinding>>(iter: I) -> Self {
        Report {
            files_checked: 1,
            findings: iter.into_iter().collect(),
            io_errors: Vec::new(),
        }
    }
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
