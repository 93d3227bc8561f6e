//! The shape every document class shares (`document_class!`), and `Lyt`, `Vis`, `MdlAscii`.

use std::path::PathBuf;

use areakit_app::document::Document;
use areakit_app::format::Format;
use areakit_app::formats::{lyt, mdl_ascii, vis};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Generates the methods every document class has: `read(path_or_bytes)`, `to_bytes()`,
/// `write(path)` (atomic), `path`, `copy()`, `__eq__` (the models compare equal). The class
/// is a struct `{ inner: Model, path: Option<PathBuf> }`.
macro_rules! document_class {
    ($ty:ident, $model:ty, $format:expr, $variant:path, $write:expr) => {
        impl $ty {
            /// Wraps a model.
            #[allow(dead_code)]
            pub fn wrap(inner: $model, path: Option<std::path::PathBuf>) -> Self {
                $ty { inner, path }
            }

            fn encode(&self, path: Option<&std::path::Path>) -> pyo3::PyResult<Vec<u8>> {
                let write: fn(&$model) -> Result<Vec<u8>, areakit_app::formats::EncodeError> =
                    $write;
                write(&self.inner).map_err(|e| $crate::errors::encode_error(path, &e.0))
            }
        }

        #[pyo3::pymethods]
        impl $ty {
            /// Reads from a path (``str`` or ``os.PathLike``) or from ``bytes``. Raises
            /// ``FormatError`` (with ``.offset`` or ``.line``/``.column``) on invalid input,
            /// ``OSError`` when the file cannot be read.
            #[staticmethod]
            fn read(source: &pyo3::Bound<'_, pyo3::PyAny>) -> pyo3::PyResult<Self> {
                let (inner, path) = $crate::input::decode(source, $format, |d| match d {
                    $variant(m) => Some(*m),
                    _ => None,
                })?;
                Ok($ty { inner, path })
            }

            /// The encoded file: byte for byte the file read, while unmodified.
            fn to_bytes<'py>(
                &self,
                py: pyo3::Python<'py>,
            ) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::types::PyBytes>> {
                Ok(pyo3::types::PyBytes::new(py, &self.encode(None)?))
            }

            /// Writes to ``path`` atomically (a temporary file beside it, then a rename).
            fn write(&self, path: std::path::PathBuf) -> pyo3::PyResult<()> {
                let bytes = self.encode(Some(&path))?;
                $crate::input::write_file(&path, &bytes)
            }

            /// The file read from, or None.
            #[getter]
            fn path(&self) -> Option<String> {
                self.path.as_ref().map(|p| p.display().to_string())
            }

            /// A copy.
            fn copy(&self) -> Self {
                $ty {
                    inner: self.inner.clone(),
                    path: self.path.clone(),
                }
            }

            fn __copy__(&self) -> Self {
                self.copy()
            }

            fn __deepcopy__(&self, _memo: &pyo3::Bound<'_, pyo3::PyAny>) -> Self {
                self.copy()
            }

            fn __eq__(&self, other: &pyo3::Bound<'_, pyo3::PyAny>) -> bool {
                use pyo3::types::PyAnyMethods;
                other
                    .downcast::<$ty>()
                    .is_ok_and(|o| o.borrow().inner == self.inner)
            }
        }
    };
}

pub(crate) use document_class;

/// `info` and `check` through the library's `Document` (the CLI's own code paths).
macro_rules! document_checks {
    ($ty:ident, $variant:path, $ext:literal) => {
        #[pyo3::pymethods]
        impl $ty {
            /// What ``areakit info --json`` prints for this file (a dict).
            fn info(&self, py: pyo3::Python<'_>) -> pyo3::PyResult<pyo3::PyObject> {
                let doc = $variant(Box::new(self.inner.clone()));
                let path = self
                    .path
                    .clone()
                    .unwrap_or_else(|| std::path::PathBuf::from(concat!("<bytes>.", $ext)));
                $crate::input::report_to_py(py, &areakit_app::info::info(&path, &doc))
            }

            /// What ``areakit check`` finds in this file on its own: a list of ``Finding``.
            fn check(&self, py: pyo3::Python<'_>) -> Vec<$crate::check::PyFinding> {
                let doc = $variant(Box::new(self.inner.clone()));
                let found = py.allow_threads(|| areakit_app::check::validate(&doc));
                let path = self.path.as_ref().map(|p| p.display().to_string());
                found
                    .into_iter()
                    .map(|f| $crate::check::PyFinding::new(path.clone(), f))
                    .collect()
            }
        }
    };
}

pub(crate) use document_checks;

type Xyz = (f32, f32, f32);

fn xyz(p: [f32; 3]) -> Xyz {
    (p[0], p[1], p[2])
}

/// A KotOR room layout (``.lyt``): rooms and where they stand, tracks, obstacles, door
/// hooks. Unmodified, it writes back byte for byte.
///
/// >>> lyt = areakit.Lyt.read("m13aa.lyt")
/// >>> lyt.rooms[0]
/// ('m13aa_01a', (0.0, 0.0, 0.0))
#[pyclass(module = "areakit", name = "Lyt")]
pub struct PyLyt {
    pub inner: lyt::Lyt,
    path: Option<PathBuf>,
}

document_class!(PyLyt, lyt::Lyt, Format::Lyt, Document::Lyt, lyt::write);
document_checks!(PyLyt, Document::Lyt, "lyt");

fn placements(p: &[lyt::Placement]) -> Vec<(String, Xyz)> {
    p.iter()
        .map(|r| (r.name.clone(), xyz(r.position)))
        .collect()
}

fn set_placements(list: &mut Vec<lyt::Placement>, value: Vec<(String, [f32; 3])>) {
    // Entries whose name and position are unchanged keep their original line.
    let old = std::mem::take(list);
    *list = value
        .into_iter()
        .enumerate()
        .map(|(i, (name, position))| match old.get(i) {
            Some(o) if o.name == name && o.position == position => o.clone(),
            _ => lyt::Placement::new(name, position),
        })
        .collect();
}

#[pymethods]
impl PyLyt {
    /// An empty layout.
    #[new]
    fn py_new() -> Self {
        PyLyt {
            inner: lyt::Lyt::default(),
            path: None,
        }
    }

    /// Rooms in file order (the index is the room's transition number):
    /// ``[(name, (x, y, z)), ...]``. Assign a list of the same shape to edit.
    #[getter]
    fn get_rooms(&self) -> Vec<(String, Xyz)> {
        placements(&self.inner.rooms)
    }

    #[setter]
    fn set_rooms(&mut self, value: Vec<(String, [f32; 3])>) {
        set_placements(&mut self.inner.rooms, value);
    }

    /// Tracks: ``[(name, (x, y, z)), ...]``.
    #[getter]
    fn get_tracks(&self) -> Vec<(String, Xyz)> {
        placements(&self.inner.tracks)
    }

    #[setter]
    fn set_tracks(&mut self, value: Vec<(String, [f32; 3])>) {
        set_placements(&mut self.inner.tracks, value);
    }

    /// Obstacles: ``[(name, (x, y, z)), ...]``.
    #[getter]
    fn get_obstacles(&self) -> Vec<(String, Xyz)> {
        placements(&self.inner.obstacles)
    }

    #[setter]
    fn set_obstacles(&mut self, value: Vec<(String, [f32; 3])>) {
        set_placements(&mut self.inner.obstacles, value);
    }

    /// Door hooks: ``[{"room", "door", "position", "orientation"}, ...]``.
    #[getter]
    fn doorhooks<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.inner
            .doorhooks
            .iter()
            .map(|h| {
                let d = PyDict::new(py);
                d.set_item("room", &h.room)?;
                d.set_item("door", &h.door)?;
                d.set_item("position", xyz(h.position))?;
                d.set_item("orientation", h.orientation.to_vec())?;
                Ok(d)
            })
            .collect()
    }

    /// The index of a room by name (letter case ignored), or None.
    fn room_index(&self, name: &str) -> Option<usize> {
        self.inner.room_index(name)
    }

    fn __repr__(&self) -> String {
        let s = self.inner.summary();
        format!(
            "<Lyt: {} rooms, {} tracks, {} obstacles, {} door hooks>",
            s.rooms, s.tracks, s.obstacles, s.doorhooks
        )
    }
}

/// KotOR room visibility (``.vis``): which rooms each room can see. Unmodified, it writes
/// back byte for byte.
///
/// >>> vis = areakit.Vis.read("m13aa.vis")
/// >>> vis.is_visible("m13aa_01a", "m13aa_02a")
/// True
#[pyclass(module = "areakit", name = "Vis")]
pub struct PyVis {
    pub inner: vis::Vis,
    path: Option<PathBuf>,
}

document_class!(PyVis, vis::Vis, Format::Vis, Document::Vis, vis::write);
document_checks!(PyVis, Document::Vis, "vis");

#[pymethods]
impl PyVis {
    /// An empty visibility file.
    #[new]
    fn py_new() -> Self {
        PyVis {
            inner: vis::Vis::default(),
            path: None,
        }
    }

    /// ``{room: [visible rooms...]}`` in file order.
    #[getter]
    fn rooms<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for r in &self.inner.rooms {
            d.set_item(&r.name, r.visible.clone())?;
        }
        Ok(d)
    }

    /// Whether ``room`` lists ``other`` as visible (letter case ignored).
    fn is_visible(&self, room: &str, other: &str) -> bool {
        self.inner.is_visible(room, other)
    }

    /// The rooms ``room`` sees.
    fn visible_from(&self, room: &str) -> Vec<String> {
        self.inner
            .visible_from(room)
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    /// Number of (room, visible room) pairs.
    #[getter]
    fn link_count(&self) -> usize {
        self.inner.link_count()
    }

    fn __repr__(&self) -> String {
        let s = self.inner.summary();
        format!("<Vis: {} rooms, {} links>", s.rooms, s.links)
    }
}

/// An NWN/KotOR MDL ASCII model or ASCII walkmesh. ``to_bytes()`` re-emits the file byte
/// for byte; ``canonical()`` is the normalised text (``areakit convert --canonical``).
///
/// >>> mdl = areakit.MdlAscii.read("m13aa_01a.mdl.ascii")
/// >>> mdl.info()["nodes"]
#[pyclass(module = "areakit", name = "MdlAscii")]
pub struct PyMdlAscii {
    pub inner: mdl_ascii::Model,
    path: Option<PathBuf>,
}

fn mdl_write(m: &mdl_ascii::Model) -> Result<Vec<u8>, areakit_app::formats::EncodeError> {
    Ok(mdl_ascii::write(m))
}

document_class!(
    PyMdlAscii,
    mdl_ascii::Model,
    Format::MdlAscii,
    Document::MdlAscii,
    mdl_write
);
document_checks!(PyMdlAscii, Document::MdlAscii, "mdl");

#[pymethods]
impl PyMdlAscii {
    /// The normalised text (``areakit convert IN.mdl OUT.mdl --canonical``).
    fn canonical(&self) -> String {
        mdl_ascii::write_canonical(&self.inner)
    }

    /// The model's name (``newmodel``), or None.
    #[getter]
    fn name(&self) -> Option<String> {
        self.inner.summary().name
    }

    /// The supermodel, or None (``NULL``).
    #[getter]
    fn supermodel(&self) -> Option<String> {
        self.inner.summary().supermodel
    }

    /// Geometry node counts by type (``{"trimesh": 12, "aabb": 1, ...}``).
    #[getter]
    fn nodes_by_type(&self) -> std::collections::BTreeMap<String, usize> {
        self.inner.summary().nodes_by_type.into_iter().collect()
    }

    /// Compiles the ASCII walkmesh (a WOK/PWK/DWK in text, or an MDL's ``aabb`` node) into
    /// a binary ``Bwm`` with every derived table built (``areakit convert X.wok.ascii X.wok``).
    fn to_bwm(&self) -> PyResult<crate::bwm::PyBwm> {
        let path = self
            .path
            .clone()
            .unwrap_or_else(|| PathBuf::from("<bytes>.wok"));
        let m = areakit_app::ascii_walkmesh::compile_walkmesh(&self.inner, &path)
            .map_err(crate::errors::lib_error)?;
        Ok(crate::bwm::PyBwm::new(m, None, None))
    }

    fn __repr__(&self) -> String {
        let s = self.inner.summary();
        format!(
            "<MdlAscii {}: {} nodes, {} animations, {} vertices, {} faces>",
            s.name.as_deref().unwrap_or("(no name)"),
            s.node_count,
            s.animation_count,
            s.vertex_count,
            s.face_count
        )
    }
}

/// Registers the classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyLyt>()?;
    m.add_class::<PyVis>()?;
    m.add_class::<PyMdlAscii>()?;
    Ok(())
}
