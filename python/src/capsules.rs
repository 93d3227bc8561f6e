//! The game-data formats: `Gff`, `TwoDa`, and the capsules `Erf`, `Rim`, `Key`, `Bif`:
//! read, write (byte-exact round trip), what they hold, members as bytes.

use std::path::PathBuf;

use areakit::formats::restype::{ResRef, ResType};
use areakit::formats::{bif, erf, gff, key, rim, twoda};
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
#[pyclass(module = "areakit", name = "Gff")]
pub struct PyGff {
    pub inner: gff::Gff,
    path: Option<PathBuf>,
}

document_class!(PyGff, gff::Gff, gff::read, gff::write);

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

    fn __repr__(&self) -> String {
        let s = self.inner.summary();
        format!(
            "<Gff {:?} {}: {} structs, {} fields>",
            s.file_type, s.version, s.structs, s.fields
        )
    }
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

document_class!(PyTwoDa, twoda::TwoDa, twoda::read, twoda::write);

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

document_class!(PyErf, erf::Erf, erf::read, erf::write);

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

document_class!(PyRim, rim::Rim, rim::read, rim::write);

capsule_members!(PyRim, "Rim");

/// A KEY index (``chitin.key``): the BIF archives and where each resource is.
#[pyclass(module = "areakit", name = "Key")]
pub struct PyKey {
    pub inner: key::Key,
    path: Option<PathBuf>,
}

document_class!(PyKey, key::Key, key::read, key::write);

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

document_class!(PyBif, bif::Bif, bif::read, bif::write);

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
