//! Python exceptions and the mapping of the library's errors to them.

use std::path::Path;

use areakit_app::formats::{DecodeError, ErrorKind, Location};
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyValueError,
};
use pyo3::prelude::*;

pyo3::create_exception!(
    areakit,
    FormatError,
    PyValueError,
    "An input does not follow its format.\n\n\
     Attributes: ``path`` (the file, or None for bytes), ``offset`` (byte offset, binary \
     formats) or ``line``/``column`` (1-based, text formats) — None when they do not apply —, \
     ``message`` (what was found and what was expected), ``context`` (enclosing packets or \
     records, outermost first) and ``kind`` (``\"malformed\"``, ``\"unsupported\"`` or \
     ``\"limit-exceeded\"``).\n\n\
     >>> try:\n\
     ...     areakit.Bwm.read(b\"BWM V1.0\")\n\
     ... except areakit.FormatError as e:\n\
     ...     print(e.offset, e.message)"
);

pyo3::create_exception!(
    areakit,
    EncodeError,
    PyValueError,
    "A model cannot be written: it is inconsistent in a way its format cannot express \
     (a count that does not fit, a face naming a missing vertex, ...). ``message`` says why."
);

/// A [`FormatError`] for `e`, found in `path` (None: bytes given in memory).
pub fn format_error(path: Option<&Path>, e: &DecodeError) -> PyErr {
    let shown = match path {
        Some(p) => format!("{}: {e}", p.display()),
        None => format!("<bytes>: {e}"),
    };
    let err = FormatError::new_err(shown);
    Python::with_gil(|py| {
        let v = err.value(py);
        let (offset, line, column) = match e.location() {
            Location::Offset(o) => (Some(o), None, None),
            Location::LineCol { line, column } => (None, Some(line), Some(column)),
            _ => (None, None, None),
        };
        let kind = match e.kind() {
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::LimitExceeded => "limit-exceeded",
            _ => "malformed",
        };
        // Setting attributes on a fresh exception instance cannot fail in practice; a
        // failure would leave the attribute unset, never crash.
        let _ = v.setattr("path", path.map(|p| p.display().to_string()));
        let _ = v.setattr("offset", offset);
        let _ = v.setattr("line", line);
        let _ = v.setattr("column", column);
        let _ = v.setattr("message", e.message());
        let _ = v.setattr("context", e.context().to_vec());
        let _ = v.setattr("kind", kind);
    });
    err
}

/// An [`EncodeError`] with its message (and the file being written, when there is one).
pub fn encode_error(path: Option<&Path>, message: &str) -> PyErr {
    let shown = match path {
        Some(p) => format!("{}: {message}", p.display()),
        None => message.to_string(),
    };
    let err = EncodeError::new_err(shown);
    Python::with_gil(|py| {
        let _ = err.value(py).setattr("message", message);
    });
    err
}

/// The `OSError` subclass Python itself raises for `e` on `path`, with `filename` set.
pub fn io_error(path: &Path, e: &std::io::Error) -> PyErr {
    let args = (
        e.raw_os_error().unwrap_or(0),
        e.to_string(),
        path.display().to_string(),
    );
    match e.kind() {
        std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(args),
        std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(args),
        std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(args),
        _ => PyOSError::new_err(args),
    }
}

/// Maps an error of the `areakit` library: a file that does not decode → [`FormatError`], a
/// model that cannot be written → [`EncodeError`], I/O → `OSError`; content the geometry,
/// navigation or bake layer refuses, a picture that cannot be drawn and a request that makes
/// no sense → `ValueError` (with the library's message, which names the file).
pub fn lib_error(e: areakit_app::Error) -> PyErr {
    use areakit_app::Error;
    match e {
        Error::Invalid { path, source } => format_error(Some(&path), &source),
        Error::Encode { path, source } => encode_error(Some(&path), &source.0),
        Error::Io { path, source } => io_error(&path, &source),
        e @ (Error::Geometry { .. }
        | Error::Navigation { .. }
        | Error::Bake { .. }
        | Error::Build { .. }
        | Error::Render { .. }) => PyValueError::new_err(e.to_string()),
        Error::Usage(m) => PyValueError::new_err(m),
        e @ Error::Report(_) => pyo3::exceptions::PyRuntimeError::new_err(e.to_string()),
    }
}

/// The value a keyword names ([`areakit_app::choice`]): an unknown name → `ValueError` naming
/// the names it could have been.
pub fn choice<T: areakit_app::choice::Choice>(name: &str) -> PyResult<T> {
    areakit_app::choice::parse(name).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A mesh the geometry layer refuses (bad vertex indices, table lengths) → `ValueError`.
pub fn mesh_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("invalid walkmesh: {e}"))
}
