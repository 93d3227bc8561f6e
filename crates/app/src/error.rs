//! The one error type of areakit's operations. Each variant keeps its cause as the error's
//! `source`, and the exit code follows from the variant alone: **1** when an input is invalid
//! (it does not decode, or its content cannot be processed: geometry, navigation, baking, a
//! model that cannot be written; a resource read through a KEY, BIF or capsule whose bytes do
//! not decode, which the readers return as an I/O error of kind `InvalidData`), **2** for
//! usage and I/O errors.

use std::path::{Path, PathBuf};

use areakit_area::navigation::NavError;
use areakit_formats::{DecodeError, EncodeError};
use areakit_geometry::MeshError;

use crate::bake::BakeError;
use crate::render::RenderError;

/// What went wrong in an operation.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An input file is invalid: it does not decode (exit code 1).
    #[error("{}: {source}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong and where.
        source: DecodeError,
    },
    /// A model cannot be written in the requested format (exit code 1).
    #[error("{}: {source}", path.display())]
    Encode {
        /// The file being written.
        path: PathBuf,
        /// Why.
        source: EncodeError,
    },
    /// An input decodes, but its geometry cannot be processed (indices out of range, a table
    /// of the wrong length, ...) (exit code 1).
    #[error("{}: {source}", path.display())]
    Geometry {
        /// The input.
        path: PathBuf,
        /// What the geometry layer refused.
        source: MeshError,
    },
    /// The navigation data of an input cannot be built (exit code 1).
    #[error("{}: {source}", path.display())]
    Navigation {
        /// The input (a walkmesh, an area, a terrain).
        path: PathBuf,
        /// What the navigation layer refused.
        source: NavError,
    },
    /// An NWN2 terrain cannot be baked (exit code 1).
    #[error("{}: cannot bake: {source}", path.display())]
    Bake {
        /// The terrain.
        path: PathBuf,
        /// Why.
        source: BakeError,
    },
    /// A picture cannot be drawn (exit code 2: the request, e.g. its size, is at fault).
    #[error("{}: {source}", path.display())]
    Render {
        /// The picture being written.
        path: PathBuf,
        /// Why.
        source: RenderError,
    },
    /// A module could not be built from a layout (the layout, a kit, the rooms as placed).
    #[error("{}: {source}", path.display())]
    Build {
        /// The layout.
        path: PathBuf,
        /// Why.
        source: areakit_area::build::BuildError,
    },
    /// Reading or writing a file failed (exit code 2).
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The request does not make sense (exit code 2).
    #[error("{0}")]
    Usage(String),
    /// A report could not be written as JSON (exit code 2, as an output that cannot be
    /// written).
    #[error("cannot write the report as JSON: {0}")]
    Report(#[from] serde_json::Error),
}

impl Error {
    /// An invalid-input error for `path`.
    pub fn invalid(path: &Path, source: DecodeError) -> Self {
        Error::Invalid {
            path: path.to_path_buf(),
            source,
        }
    }

    /// An I/O error for `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// An encoding error for the output `path`.
    pub fn encode(path: &Path, source: EncodeError) -> Self {
        Error::Encode {
            path: path.to_path_buf(),
            source,
        }
    }

    /// A geometry error about the input `path`.
    pub fn geometry(path: &Path, source: MeshError) -> Self {
        Error::Geometry {
            path: path.to_path_buf(),
            source,
        }
    }

    /// A navigation error about the input `path`.
    pub fn navigation(path: &Path, source: NavError) -> Self {
        Error::Navigation {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The error of a report that cannot be serialised.
    pub fn report(e: serde_json::Error) -> Self {
        Error::Report(e)
    }

    /// A usage error.
    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    /// The process exit code for this error: 1 for invalid input, 2 for usage and I/O.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Invalid { .. }
            | Error::Encode { .. }
            | Error::Geometry { .. }
            | Error::Navigation { .. }
            | Error::Bake { .. } => 1,
            Error::Build {
                source: areakit_area::build::BuildError::Io { .. },
                ..
            } => 2,
            Error::Build { .. } => 1,
            // A resource read through a KEY, a BIF or a streamed capsule comes as an I/O
            // error; one whose bytes do not decode (a KEY entry naming a resource the BIF does
            // not have, a BIF table entry past its data) is invalid input, not an I/O failure.
            Error::Io { source, .. } if is_invalid_data(source) => 1,
            Error::Render { .. } | Error::Io { .. } | Error::Usage(_) | Error::Report(_) => 2,
        }
    }

    /// The same error about another file: an operation that fails on what it read from `to`
    /// (a conversion of the input) names `to` rather than the output it was writing.
    pub fn about(self, from: &Path, to: &Path) -> Self {
        match self {
            Error::Invalid { path, source } if path == from => Error::invalid(to, source),
            Error::Geometry { path, source } if path == from => Error::geometry(to, source),
            e => e,
        }
    }
}

/// Whether an I/O error is the archive readers' "the bytes do not decode"
/// ([`std::io::ErrorKind::InvalidData`], with the decoder's message and offset).
fn is_invalid_data(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::InvalidData
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undecodable_archive_data_is_invalid_input_and_other_io_errors_are_not() {
        let invalid = Error::io(
            Path::new("chitin.key"),
            std::io::Error::new(std::io::ErrorKind::InvalidData, "offset 0x14: bad entry"),
        );
        assert_eq!(invalid.exit_code(), 1);
        let missing = Error::io(
            Path::new("chitin.key"),
            std::io::Error::from(std::io::ErrorKind::NotFound),
        );
        assert_eq!(missing.exit_code(), 2);
        assert_eq!(Error::usage("x").exit_code(), 2);
    }
}
