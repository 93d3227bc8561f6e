//! The error type of areakit operations, with the exit code each class maps to.

use std::path::{Path, PathBuf};

use areakit_formats::{DecodeError, EncodeError};

/// What went wrong in an operation.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An input file is invalid (exit code 1).
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

    /// A usage error.
    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    /// The process exit code for this error: 1 for invalid input, 2 for usage and I/O.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Invalid { .. } | Error::Encode { .. } => 1,
            Error::Io { .. } | Error::Usage(_) => 2,
        }
    }
}
