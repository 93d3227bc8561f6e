//! Building a module from kit rooms (`areakit build`): a layout of rooms (Holocron kit
//! components, or any room model + walkmesh) placed by flip → rotate → move, joined where
//! their door hooks meet, becomes every file of a module (`docs/build.md`).

pub mod kit;
pub mod layout;
pub mod records;

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a module could not be built.
#[derive(Debug)]
pub enum BuildError {
    /// The layout (or a kit JSON) is malformed: line:column and what was expected.
    Layout(String),
    /// Something the layout names is not there (kit, component, file, hook).
    Missing(String),
    /// A file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file could not be decoded.
    Invalid {
        /// What it is (kit/component file, or the path).
        what: String,
        /// The located decode error.
        message: String,
    },
    /// The rooms cannot make a module as placed (overlap, name too long, ...); names the rooms.
    Placement(String),
    /// A file of the module could not be encoded.
    Encode(String),
}

impl BuildError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> BuildError {
        BuildError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Layout(m) => write!(f, "layout: {m}"),
            BuildError::Missing(m) => write!(f, "missing: {m}"),
            BuildError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            BuildError::Invalid { what, message } => write!(f, "{what}: {message}"),
            BuildError::Placement(m) => f.write_str(m),
            BuildError::Encode(m) => write!(f, "encoding the module: {m}"),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
