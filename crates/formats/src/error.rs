//! The error type shared by every format reader.
//!
//! A [`DecodeError`] says *where* (a byte offset for binary formats, a line and column for text
//! formats, optionally inside a named packet), *what* was expected, and which class of problem it
//! is ([`ErrorKind`]), so a front-end can print `file: offset 0x1a4 (face 17): ...` and choose an
//! exit code without parsing messages.

use std::fmt;

/// The class of a decoding problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The bytes or text do not follow the format.
    Malformed,
    /// The input is valid as far as we can tell but uses a variant this crate does not handle.
    Unsupported,
    /// A count, size or nesting depth exceeds what the input (or a configured limit) allows.
    LimitExceeded,
}

/// Where in the input a problem was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Location {
    /// A byte offset from the start of the (decoded) input.
    Offset(u64),
    /// A 1-based line and column of a text input.
    LineCol {
        /// 1-based line number.
        line: u32,
        /// 1-based column number (in bytes).
        column: u32,
    },
    /// The whole input (for example: it is empty).
    Input,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Location::Offset(o) => write!(f, "offset {o:#x}"),
            Location::LineCol { line, column } => write!(f, "{line}:{column}"),
            Location::Input => f.write_str("input"),
        }
    }
}

/// An error found while decoding a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {}", contexts(&self.context), self.location, self.message)]
pub struct DecodeError {
    kind: ErrorKind,
    location: Location,
    /// Where inside a container the location applies, outermost first (e.g. `packet ASWM`).
    context: Vec<String>,
    /// What was found and what was expected.
    message: String,
}

impl DecodeError {
    /// A new error of `kind` at `location`.
    pub fn new(kind: ErrorKind, location: Location, message: impl Into<String>) -> Self {
        Self {
            kind,
            location,
            context: Vec::new(),
            message: message.into(),
        }
    }

    /// A [`ErrorKind::Malformed`] error at a byte offset.
    pub fn malformed_at(offset: u64, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Malformed, Location::Offset(offset), message)
    }

    /// A [`ErrorKind::LimitExceeded`] error at a byte offset.
    pub fn limit_at(offset: u64, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::LimitExceeded, Location::Offset(offset), message)
    }

    /// A [`ErrorKind::Malformed`] error at a 1-based line and column.
    pub fn malformed_text(line: u32, column: u32, message: impl Into<String>) -> Self {
        Self::new(
            ErrorKind::Malformed,
            Location::LineCol { line, column },
            message,
        )
    }

    /// Adds an enclosing context (a packet, a table, a record), innermost last.
    #[must_use]
    pub fn within(mut self, context: impl Into<String>) -> Self {
        self.context.insert(0, context.into());
        self
    }

    /// The class of problem.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Where the problem is.
    pub fn location(&self) -> Location {
        self.location
    }

    /// The enclosing contexts, outermost first.
    pub fn context(&self) -> &[String] {
        &self.context
    }

    /// What was found and what was expected.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// The enclosing contexts of an error as a prefix: `packet ASWM: ` for each.
fn contexts(context: &[String]) -> String {
    context.iter().map(|c| format!("{c}: ")).collect()
}

/// An error while encoding a model to bytes: the model is inconsistent in a way the format cannot
/// express (for example a count that does not fit in 32 bits).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EncodeError(pub String);
