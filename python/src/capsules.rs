//! The game-data formats: `Gff`, `TwoDa`, and the capsules `Erf`, `Rim`, `Key`, `Bif`:
//! read, write (byte-exact round trip), what they hold, members as bytes.

use std::path::PathBuf;

use areakit_app::document::Document;
use areakit_app::format::Format;
use areakit_app::formats::restype::{ResRef, ResType};
use areakit_app::formats::{bif, erf, gff, key, rim, twoda};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::text::document_class;

/// `resref.ext` (the extension, or the type number for an unknown type).
fn member_name(resref: &ResRef, restype: ResType) -> String {
    format!("{}.{restype}", resref.name())
}

/// A GFF V3.2 file (ARE, GIT, IFO, UTP, UTD, PTH, DLG, ...). Unmodified, it writes back byte
/// for byte.
///
/// >>> g = areakit.Gff.read("m13aa.git")
/// >>> g.file_type, g.summary()["structs"]
/// >>> g.to_dict()["Door List"][0]["Tag"]
#[pyclass(module = "areakit", name = "Gff")]
pub struct PyGff {
    pub inner: gff::Gff,
    path: Option<PathBuf>,
}

document_class!(PyGff, gff::Gff, Format::Gff, Document::Gff, gff::write);

#[pymethods]
impl PyGff {
    /// The four-character resource type (``"GIT "``, ``"UTP "``, ...).
    #[getter]
    fn file_type(&self) -> String {
        String::from_utf8_lossy(&self.inner.file_type).into_owned()
    }

    /// The version (``"V3.2"``).
    #[getter]
    fn version(&self) -> String {
        String::from_utf8_lossy(&self.inner.version).into_owned()
    }

    /// Counts: ``{"file_type", "version", "structs", "fields", "labels", "lists",
    /// "list_elements", "depth"}``.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.inner.summary();
        let d = PyDict::new(py);
        d.set_item("file_type", s.file_type)?;
        d.set_item("version", s.version)?;
        d.set_item("structs", s.structs)?;
        d.set_item("fields", s.fields)?;
        d.set_item("labels", s.labels)?;
        d.set_item("lists", s.lists)?;
        d.set_item("list_elements", s.list_elements)?;
        d.set_item("depth", s.depth)?;
        Ok(d)
    }

    /// The root struct as Python values: ``{label: value}`` in field order (a label repeated
    /// in a damaged file: the first). Integers (BYTE to INT64, and STRREF) are ``int``, FLOAT and
    /// DOUBLE ``float``, CExoString and ResRef ``str`` (bytes that are not UTF-8 read as
    /// Windows-1252), VOID ``bytes``, a CExoLocString ``{"strref": int or None, "strings":
    /// {id: str}}`` (``id = language * 2 + gender``), a vector or orientation a tuple of floats,
    /// a struct a dict, a list a list of dicts, a field of a type id this library does not know
    /// ``{"type_id": int, "data": int}`` (its data word as stored). With ``struct_ids=True`` each struct dict also
    /// holds its type id under ``"__struct_id__"``. A snapshot: changing it does not change
    /// the file.
    ///
    /// >>> git = areakit.Gff.read("m13aa.git")
    /// >>> [p["TemplateResRef"] for p in git.to_dict()["Placeable List"]]
    #[pyo3(signature = (struct_ids = false))]
    fn to_dict<'py>(&self, py: Python<'py>, struct_ids: bool) -> PyResult<Bound<'py, PyDict>> {
        gff_struct(py, &self.inner.root, struct_ids)
    }

    /// The value of root field ``label`` as :meth:`to_dict` gives it; ``KeyError`` when the
    /// root has no such field.
    ///
    /// >>> areakit.Gff.read("m13aa.are")["Tag"]
    fn __getitem__<'py>(&self, py: Python<'py>, label: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.inner.root.get(label) {
            Some(v) => gff_value(py, v, false),
            None => Err(pyo3::exceptions::PyKeyError::new_err(label.to_string())),
        }
    }

    /// Whether the root has a field ``label``.
    fn __contains__(&self, label: &str) -> bool {
        self.inner.root.contains(label)
    }

    fn __repr__(&self) -> String {
        let s = self.inner.summary();
        format!(
            "<Gff {:?} {}: {} structs, {} fields>",
            s.file_type, s.version, s.structs, s.fields
        )
    }
}

/// A GFF struct as a dict (see `Gff.to_dict`). The reader bounds the nesting depth
/// (`gff::raw::MAX_DEPTH`), so the recursion is bounded too.
fn gff_struct<'py>(
    py: Python<'py>,
    s: &gff::Struct,
    struct_ids: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    if struct_ids {
        d.set_item("__struct_id__", s.id)?;
    }
    for f in &s.fields {
        let label = String::from_utf8_lossy(f.label.as_bytes()).into_owned();
        if !d.contains(&label)? {
            d.set_item(label, gff_value(py, &f.value, struct_ids)?)?;
        }
    }
    Ok(d)
}

/// A GFF value as a Python value (see `Gff.to_dict`).
fn gff_value<'py>(
    py: Python<'py>,
    v: &gff::Value,
    struct_ids: bool,
) -> PyResult<Bound<'py, PyAny>> {
    use gff::Value as V;
    Ok(match v {
        V::Byte(x) => x.into_pyobject(py)?.into_any(),
        V::Char(x) => x.into_pyobject(py)?.into_any(),
        V::Word(x) => x.into_pyobject(py)?.into_any(),
        V::Short(x) => x.into_pyobject(py)?.into_any(),
        V::Dword(x) | V::StrRef(x) => x.into_pyobject(py)?.into_any(),
        V::Int(x) => x.into_pyobject(py)?.into_any(),
        V::Dword64(x) => x.into_pyobject(py)?.into_any(),
        V::Int64(x) => x.into_pyobject(py)?.into_any(),
        V::Float(x) => x.into_pyobject(py)?.into_any(),
        V::Double(x) => x.into_pyobject(py)?.into_any(),
        V::String(t) | V::ResRef(t) => t.to_str().into_pyobject(py)?.into_any(),
        V::LocString(l) => {
            let d = PyDict::new(py);
            d.set_item("strref", l.strref())?;
            let strings = PyDict::new(py);
            for sub in &l.strings {
                strings.set_item(sub.id, sub.text.to_str())?;
            }
            d.set_item("strings", strings)?;
            d.into_any()
        }
        V::Void(b) => PyBytes::new(py, b).into_any(),
        V::Struct(s) => gff_struct(py, s, struct_ids)?.into_any(),
        V::List(items) => {
            let l = pyo3::types::PyList::empty(py);
            for s in items {
                l.append(gff_struct(py, s, struct_ids)?)?;
            }
            l.into_any()
        }
        V::Orientation(q) => pyo3::types::PyTuple::new(py, q)?.into_any(),
        V::Vector(p) => pyo3::types::PyTuple::new(py, p)?.into_any(),
        V::Unknown { type_id, data } => {
            let d = PyDict::new(py);
            d.set_item("type_id", type_id)?;
            d.set_item("data", data)?;
            d.into_any()
        }
    })
}

/// A 2DA table, binary (``V2.b``) or text (``V2.0``). Unmodified, it writes back byte for
/// byte in its own variant.
///
/// >>> t = areakit.TwoDa.read("placeables.2da")
/// >>> t.get(0, "ModelName")
#[pyclass(module = "areakit", name = "TwoDa")]
pub struct PyTwoDa {
    pub inner: twoda::TwoDa,
    path: Option<PathBuf>,
}

document_class!(
    PyTwoDa,
    twoda::TwoDa,
    Format::TwoDa,
    Document::TwoDa,
    twoda::write
);

#[pymethods]
impl PyTwoDa {
    /// ``"binary"`` (V2.b), ``"text"`` (V2.0), or None for a table built in code.
    #[getter]
    fn variant(&self) -> Option<&'static str> {
        self.inner.variant().map(|v| match v {
            twoda::Variant::Binary => "binary",
            _ => "text",
        })
    }

    /// Column labels.
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.inner.columns.clone()
    }

    /// Row labels (a row's index is its id for the engine).
    #[getter]
    fn row_labels(&self) -> Vec<String> {
        self.inner.rows.iter().map(|r| r.label.clone()).collect()
    }

    /// The rows' cells: ``[[cell, ...], ...]`` (``"****"`` and empty cells as stored).
    #[getter]
    fn rows(&self) -> Vec<Vec<String>> {
        self.inner.rows.iter().map(|r| r.cells.clone()).collect()
    }

    /// The cell of ``row`` (index) and ``column`` (label, case-insensitive), or None.
    fn get(&self, row: usize, column: &str) -> Option<String> {
        self.inner.get(row, column).map(str::to_string)
    }

    fn __len__(&self) -> usize {
        self.inner.rows.len()
    }

    fn __repr__(&self) -> String {
        let s = self.inner.summary();
        format!("<TwoDa: {} columns, {} rows>", s.columns, s.rows)
    }
}

/// The members of an ERF or RIM capsule: `resources`, `resource(name)`, `len()`, `repr`.
macro_rules! capsule_members {
    ($ty:ident, $name:literal) => {
        #[pymethods]
        impl $ty {
            /// The members: ``[("resref.ext", size in bytes), ...]`` in file order.
            #[getter]
            fn resources(&self) -> Vec<(String, usize)> {
                self.inner
                    .resources
                    .iter()
                    .map(|r| (member_name(&r.resref, r.restype), r.data.len()))
                    .collect()
            }

            /// The bytes of member ``name`` (``"m13aa.git"``, letter case ignored), or None.
            fn resource<'py>(&self, py: Python<'py>, name: &str) -> Option<Bound<'py, PyBytes>> {
                let members = self
                    .inner
                    .resources
                    .iter()
                    .map(|r| (&r.resref, r.restype, r.data.as_slice()));
                find_member(members, name).map(|d| PyBytes::new(py, d))
            }

            fn __len__(&self) -> usize {
                self.inner.resources.len()
            }

            fn __repr__(&self) -> String {
                format!(
                    concat!("<", $name, ": {} resources>"),
                    self.inner.resources.len()
                )
            }
        }
    };
}

/// An ERF capsule (``.erf``, ``.mod``, ``.sav``, ``.hak``). Unmodified, it writes back byte
/// for byte.
///
/// >>> mod = areakit.Erf.read("m13aa.mod")
/// >>> [name for name, size in mod.resources][:3]
/// >>> git = areakit.Gff.read(mod.resource("m13aa.git"))
#[pyclass(module = "areakit", name = "Erf")]
pub struct PyErf {
    pub inner: erf::Erf,
    path: Option<PathBuf>,
}

document_class!(PyErf, erf::Erf, Format::Erf, Document::Erf, erf::write);

/// The member `name` (`resref.ext`, letter case ignored) among `(resref, type, data)`.
fn find_member<'a>(
    members: impl Iterator<Item = (&'a ResRef, ResType, &'a [u8])>,
    name: &str,
) -> Option<&'a [u8]> {
    let want = name.to_ascii_lowercase();
    members
        .into_iter()
        .find(|(r, t, _)| member_name(r, *t).to_ascii_lowercase() == want)
        .map(|(_, _, d)| d)
}

capsule_members!(PyErf, "Erf");

/// A RIM capsule (``.rim``). Unmodified, it writes back byte for byte.
#[pyclass(module = "areakit", name = "Rim")]
pub struct PyRim {
    pub inner: rim::Rim,
    path: Option<PathBuf>,
}

document_class!(PyRim, rim::Rim, Format::Rim, Document::Rim, rim::write);

capsule_members!(PyRim, "Rim");

/// A KEY index (``chitin.key``): the BIF archives and where each resource is.
#[pyclass(module = "areakit", name = "Key")]
pub struct PyKey {
    pub inner: key::Key,
    path: Option<PathBuf>,
}

document_class!(PyKey, key::Key, Format::Key, Document::Key, key::write);

#[pymethods]
impl PyKey {
    /// The BIF file names, in index order.
    #[getter]
    fn bifs(&self) -> Vec<String> {
        self.inner
            .bifs
            .iter()
            .map(|b| {
                let end = b.name.iter().position(|&c| c == 0).unwrap_or(b.name.len());
                String::from_utf8_lossy(&b.name[..end]).into_owned()
            })
            .collect()
    }

    /// The resources: ``[("resref.ext", bif index, index in the bif), ...]``.
    #[getter]
    fn keys(&self) -> Vec<(String, u32, u32)> {
        self.inner
            .keys
            .iter()
            .map(|k| (member_name(&k.resref, k.restype), k.id.bif(), k.id.index()))
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Key: {} bifs, {} resources>",
            self.inner.bifs.len(),
            self.inner.keys.len()
        )
    }
}

/// A BIF archive (``.bif``): variable resources by id.
#[pyclass(module = "areakit", name = "Bif")]
pub struct PyBif {
    pub inner: bif::Bif,
    path: Option<PathBuf>,
}

document_class!(PyBif, bif::Bif, Format::Bif, Document::Bif, bif::write);

#[pymethods]
impl PyBif {
    /// The variable resources: ``[(index, "ext", size in bytes), ...]``.
    #[getter]
    fn resources(&self) -> Vec<(u32, String, usize)> {
        self.inner
            .resources
            .iter()
            .map(|r| (r.id.index(), r.restype.to_string(), r.data.len()))
            .collect()
    }

    /// The bytes of the variable resource with index ``index``, or None.
    fn resource<'py>(&self, py: Python<'py>, index: u32) -> Option<Bound<'py, PyBytes>> {
        self.inner
            .resources
            .iter()
            .find(|r| r.id.index() == index)
            .map(|r| PyBytes::new(py, &r.data))
    }

    fn __len__(&self) -> usize {
        self.inner.resources.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Bif: {} resources, {} fixed>",
            self.inner.resources.len(),
            self.inner.fixed.len()
        )
    }
}

/// Registers the classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGff>()?;
    m.add_class::<PyTwoDa>()?;
    m.add_class::<PyErf>()?;
    m.add_class::<PyRim>()?;
    m.add_class::<PyKey>()?;
    m.add_class::<PyBif>()
}
