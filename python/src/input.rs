//! What every class shares: reading `path_or_bytes`, atomic writes, NumPy arguments and
//! results, and JSON values (the CLI's `info` objects) as Python objects.

use std::path::{Path, PathBuf};

use areakit_app::document::Document;
use areakit_app::format::Format;
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString};
use serde_json::Value;

use crate::errors;

/// Decodes `source` (`bytes`, `bytearray`, `memoryview`, or a path: `str` / `os.PathLike`)
/// as `format`, through the library's one detection and decoder call
/// ([`Document::decode_as`], what `areakit info` and `check` use), and takes the model out of
/// the document with `take`. Bytes objects are decoded in place (no copy); a decode error
/// becomes a `FormatError` naming the path and where (a file whose content is another format
/// says which). Returns the model and the path it came from.
pub fn decode<T>(
    source: &Bound<'_, PyAny>,
    format: Format,
    take: impl FnOnce(Document) -> Option<T>,
) -> PyResult<(T, Option<PathBuf>)> {
    let (data, path) = source_bytes(source)?;
    let doc = Document::decode_as(format, path.as_deref(), &data, None)
        .map_err(|e| decode_error(path.as_deref(), e))?;
    let found = doc.format();
    let v = take(doc).ok_or_else(|| {
        PyValueError::new_err(format!(
            "expected {}, read {}",
            format.description(),
            found.description()
        ))
    })?;
    Ok((v, path))
}

/// The bytes of `source` (`bytes` borrowed, other buffers copied once, a path read) and the
/// path they came from.
pub fn source_bytes<'a>(
    source: &'a Bound<'_, PyAny>,
) -> PyResult<(std::borrow::Cow<'a, [u8]>, Option<PathBuf>)> {
    use std::borrow::Cow;
    if let Ok(b) = source.downcast::<PyBytes>() {
        return Ok((Cow::Borrowed(b.as_bytes()), None));
    }
    if let Ok(b) = source.downcast::<PyByteArray>() {
        return Ok((Cow::Owned(b.to_vec()), None));
    }
    if source.hasattr("tobytes")? && !source.is_instance_of::<PyString>() {
        // memoryview (and NumPy byte arrays): one copy.
        let data: Vec<u8> = source.call_method0("tobytes")?.extract()?;
        return Ok((Cow::Owned(data), None));
    }
    let path: PathBuf = source.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "expected a path (str or os.PathLike) or bytes, got {}",
            source
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string())
        ))
    })?;
    let data = read_file(&path)?;
    Ok((Cow::Owned(data), Some(path)))
}

/// A library error of decoding as a Python exception: a decode error is a `FormatError`
/// naming `path` (None for bytes), anything else maps as [`errors::lib_error`].
pub fn decode_error(path: Option<&Path>, e: areakit_app::Error) -> PyErr {
    match e {
        areakit_app::Error::Invalid { source, .. } => errors::format_error(path, &source),
        e => errors::lib_error(e),
    }
}

/// Reads a whole regular file (a folder, FIFO or device is an `OSError`, never a hang).
pub fn read_file(path: &Path) -> PyResult<Vec<u8>> {
    areakit_app::Session::files_only()
        .read(path)
        .map_err(errors::lib_error)
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, then a rename.
pub fn write_file(path: &Path, bytes: &[u8]) -> PyResult<()> {
    areakit_app::session::write_atomic(path, bytes).map_err(errors::lib_error)
}

/// The lower-case extension of a path.
pub fn extension(path: Option<&Path>) -> Option<String> {
    Some(path?.extension()?.to_str()?.to_ascii_lowercase())
}

/// A report of the library as the Python object of its JSON (what `--json` prints).
pub fn report_to_py<T: serde::Serialize + ?Sized>(
    py: Python<'_>,
    report: &T,
) -> PyResult<PyObject> {
    let v = serde_json::to_value(report)
        .map_err(|e| crate::errors::lib_error(areakit_app::Error::report(e)))?;
    json_to_py(py, &v)
}

/// A JSON value as a Python object (`dict`, `list`, `str`, `int`, `float`, `bool`, `None`).
pub fn json_to_py(py: Python<'_>, v: &Value) -> PyResult<PyObject> {
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any().unbind()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any().unbind()
            } else {
                n.as_f64()
                    .unwrap_or(f64::NAN)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any().unbind(),
        Value::Array(a) => {
            let l = PyList::empty(py);
            for x in a {
                l.append(json_to_py(py, x)?)?;
            }
            l.into_any().unbind()
        }
        Value::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

/// A coordinate argument: one number, or an array of any shape (converted to `float32`).
pub enum Coords {
    /// A Python or NumPy scalar.
    Scalar(f32),
    /// An array's values in C order and its shape.
    Array(Vec<f32>, Vec<usize>),
}

impl Coords {
    /// Reads a number or an array-like (lists, tuples, NumPy arrays of any numeric dtype).
    pub fn extract(obj: &Bound<'_, PyAny>) -> PyResult<Coords> {
        if let Ok(f) = obj.downcast::<PyFloat>() {
            return Ok(Coords::Scalar(f.value() as f32));
        }
        if obj.is_instance_of::<PyInt>() {
            return Ok(Coords::Scalar(obj.extract::<f64>()? as f32));
        }
        let (values, shape) = array_f32(obj)?;
        if shape.is_empty() {
            return Ok(Coords::Scalar(values.first().copied().unwrap_or(f32::NAN)));
        }
        Ok(Coords::Array(values, shape))
    }

    /// Value `i` (a scalar broadcasts).
    pub fn get(&self, i: usize) -> f32 {
        match self {
            Coords::Scalar(v) => *v,
            Coords::Array(v, _) => v[i],
        }
    }
}

/// Any array-like as C-ordered `float32` values and its shape (one conversion pass).
pub fn array_f32(obj: &Bound<'_, PyAny>) -> PyResult<(Vec<f32>, Vec<usize>)> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", np.getattr("float32")?)?;
    kwargs.set_item("order", "C")?;
    // `asarray` keeps a 0-d array 0-d (a NumPy scalar stays a scalar).
    let arr = np.call_method("asarray", (obj,), Some(&kwargs))?;
    let arr = arr.downcast::<PyArrayDyn<f32>>()?;
    let shape = arr.shape().to_vec();
    let ro = arr.readonly();
    let values = ro
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?
        .to_vec();
    Ok((values, shape))
}

/// An `(n, 3)` array-like of points (a single point `(3,)` gives one row).
pub fn points(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<[f32; 3]>> {
    let (values, shape) = array_f32(obj)?;
    let ok = matches!(shape.as_slice(), [3] | [_, 3]);
    if !ok {
        return Err(PyValueError::new_err(format!(
            "{what}: expected an array of shape (n, 3), got shape {shape:?}"
        )));
    }
    Ok(values.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect())
}

/// An array-like of integers of shape `(n, k)` (or `(n,)` when `k` is None), as `i64`.
pub fn array_i64(obj: &Bound<'_, PyAny>, k: Option<usize>, what: &str) -> PyResult<Vec<i64>> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let arr = np.call_method1("asarray", (obj,))?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    if !matches!(kind.as_str(), "i" | "u" | "b") && arr.getattr("size")?.extract::<usize>()? > 0 {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected integers, got an array of dtype kind {kind:?}"
        )));
    }
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", np.getattr("int64")?)?;
    kwargs.set_item("order", "C")?;
    let arr = np.call_method("asarray", (arr,), Some(&kwargs))?;
    let arr = arr.downcast::<PyArrayDyn<i64>>()?;
    let shape = arr.shape().to_vec();
    let ok = match (k, shape.as_slice()) {
        (None, [_]) => true,
        (Some(k), [_, c]) => *c == k,
        (Some(_), [0]) => true,
        _ => false,
    };
    if !ok {
        let want = k.map_or("(n,)".to_string(), |k| format!("(n, {k})"));
        return Err(PyValueError::new_err(format!(
            "{what}: expected an array of shape {want}, got shape {shape:?}"
        )));
    }
    let ro = arr.readonly();
    Ok(ro
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?
        .to_vec())
}

/// A flat vector as a NumPy array of `shape` (the vector is moved, not copied).
pub fn to_array<'py, T: numpy::Element>(
    py: Python<'py>,
    values: Vec<T>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let a = PyArray1::from_vec(py, values);
    Ok(a.reshape(shape.to_vec())?.into_any())
}

/// Rows of `K` values as an `(n, K)` array (one copy, flattening the rows).
pub fn rows<'py, T: numpy::Element + Copy, const K: usize>(
    py: Python<'py>,
    rows: &[[T; K]],
) -> PyResult<Bound<'py, PyAny>> {
    let flat: Vec<T> = rows.iter().flatten().copied().collect();
    to_array(py, flat, &[rows.len(), K])
}

/// What opening the game left out (a texture pack that does not open: `Session::notes`), each
/// as a Python `UserWarning`, as the CLI says it on stderr.
pub fn warn_notes(py: Python<'_>, notes: &[String]) -> PyResult<()> {
    let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
    for n in notes {
        let text = std::ffi::CString::new(n.replace('\0', " "))?;
        PyErr::warn(py, &category, &text, 1)?;
    }
    Ok(())
}
