//! Findings of validation: what `areakit check` reports.
//!
//! Every validator in this workspace returns *all* its findings, each with a stable kebab-case
//! [`Finding::code`] (documented in `docs/checks.md`), an honest [`Severity`] and a
//! [`Place`] saying where. Severity: [`Severity::Error`] when the engine would misread the data
//! or crash on it, [`Severity::Warning`] when it is legal but suspicious.

use std::fmt;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Worth knowing, nothing wrong: the game loads it as intended (costs, not faults).
    Info,
    /// Legal but suspicious: the game loads it.
    Warning,
    /// The engine would misread the data or crash on it.
    Error,
}

impl Severity {
    /// `"error"`, `"warning"` or `"info"`.
    pub const fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a finding applies. Every field is optional; fill what applies.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Place {
    /// The file the finding is about, when a check spans several files (areas).
    pub file: Option<String>,
    /// Byte offset in the file (binary formats).
    pub offset: Option<u64>,
    /// 1-based line (text formats).
    pub line: Option<u32>,
    /// 1-based column (text formats).
    pub column: Option<u32>,
    /// Room name (areas).
    pub room: Option<String>,
    /// Face or triangle index (the file's own numbering).
    pub face: Option<u32>,
    /// Edge of the face (0..3), or an edge-table index where the code says so.
    pub edge: Option<u32>,
    /// A position in model space.
    pub position: Option<[f32; 3]>,
    /// A path into the model, e.g. `faces[12].adjacency[1]`.
    pub item: Option<String>,
}

impl Place {
    /// A place at a byte offset.
    pub fn offset(offset: u64) -> Self {
        Place {
            offset: Some(offset),
            ..Place::default()
        }
    }

    /// The same place, at a byte offset too.
    pub fn at(mut self, offset: u64) -> Self {
        self.offset = Some(offset);
        self
    }

    /// A place at a 1-based line and column.
    pub fn line_col(line: u32, column: u32) -> Self {
        Place {
            line: Some(line),
            column: Some(column),
            ..Place::default()
        }
    }

    /// Adds a model path.
    #[must_use]
    pub fn item(mut self, item: impl Into<String>) -> Self {
        self.item = Some(item.into());
        self
    }

    /// Adds a face index.
    #[must_use]
    pub fn face(mut self, face: u32) -> Self {
        self.face = Some(face);
        self
    }

    /// Adds an edge.
    #[must_use]
    pub fn edge(mut self, edge: u32) -> Self {
        self.edge = Some(edge);
        self
    }

    /// Adds a position.
    #[must_use]
    pub fn position(mut self, p: [f32; 3]) -> Self {
        self.position = Some(p);
        self
    }

    /// Adds the file the finding is about.
    #[must_use]
    pub fn file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// Adds a room.
    #[must_use]
    pub fn room(mut self, room: impl Into<String>) -> Self {
        self.room = Some(room.into());
        self
    }
}

impl fmt::Display for Place {
    /// `file:line:col` (the parts that apply), `offset 0x..`, then the model path, room, face, edge and position that apply.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        let line_col = match (self.line, self.column) {
            (Some(l), Some(c)) => Some(format!("{l}:{c}")),
            (Some(l), None) => Some(format!("{l}")),
            _ => None,
        };
        match (&self.file, line_col) {
            (Some(file), Some(lc)) => parts.push(format!("{file}:{lc}")),
            (Some(file), None) => parts.push(file.clone()),
            (None, Some(lc)) => parts.push(lc),
            (None, None) => {}
        }
        if let Some(o) = self.offset {
            parts.push(format!("offset {o:#x}"));
        }
        if let Some(r) = &self.room {
            parts.push(format!("room {r}"));
        }
        if let Some(i) = &self.item {
            parts.push(i.clone());
        }
        if let Some(face) = self.face {
            match self.edge {
                Some(e) => parts.push(format!("face {face} edge {e}")),
                None => parts.push(format!("face {face}")),
            }
        }
        if let Some([x, y, z]) = self.position {
            parts.push(format!("at ({x:.3}, {y:.3}, {z:.3})"));
        }
        f.write_str(&parts.join(" "))
    }
}

/// One problem found by a validator.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// How bad it is.
    pub severity: Severity,
    /// Stable kebab-case code, documented in `docs/checks.md`.
    pub code: &'static str,
    /// What is wrong, in words.
    pub message: String,
    /// Where.
    pub place: Place,
}

impl Finding {
    /// An error finding.
    pub fn error(code: &'static str, place: Place, message: impl Into<String>) -> Self {
        Finding {
            severity: Severity::Error,
            code,
            message: message.into(),
            place,
        }
    }

    /// An info finding.
    pub fn info(code: &'static str, place: Place, message: impl Into<String>) -> Self {
        Finding {
            severity: Severity::Info,
            code,
            message: message.into(),
            place,
        }
    }

    /// A warning finding.
    pub fn warning(code: &'static str, place: Place, message: impl Into<String>) -> Self {
        Finding {
            severity: Severity::Warning,
            code,
            message: message.into(),
            place,
        }
    }
}
