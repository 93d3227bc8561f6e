//! `areakit.Trx`: an NWN2 terrain file (TRN/TRX) and its ASWM walkmesh.

use std::path::PathBuf;

use areakit_app::document::Document;
use areakit_app::format::Format;
use areakit_app::formats::trx;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::capsules::PyGff;
use crate::input;

/// An NWN2 GIT from a ``Gff``, a path or bytes.
fn read_git(g: &Bound<'_, PyAny>) -> PyResult<areakit_app::nwn2_git::Nwn2Git> {
    use areakit_app::nwn2_git::{GitError, Nwn2Git};
    let bad = |e: GitError| PyValueError::new_err(format!("git: {e}"));
    if let Ok(gff) = g.downcast::<PyGff>() {
        return Nwn2Git::from_gff(&gff.borrow().inner).map_err(bad);
    }
    let (data, path) = input::source_bytes(g)?;
    let gff = areakit_app::formats::gff::read(&data)
        .map_err(|e| crate::errors::format_error(path.as_deref(), &e))?;
    Nwn2Git::from_gff(&gff).map_err(bad)
}
use crate::text::{document_checks, document_class};

/// An NWN2 terrain file (``.trn``/``.trx``): its packets and the ASWM walkmesh. Unmodified,
/// it writes back byte for byte (the compressed walkmesh packet is kept while unchanged).
///
/// >>> t = areakit.Trx.read("module.trx")
/// >>> baked = t.bake()                      # path tables, islands, island paths
/// >>> baked.write("module_baked.trx")
#[pyclass(module = "areakit", name = "Trx")]
pub struct PyTrx {
    pub inner: trx::Trx,
    path: Option<PathBuf>,
}

document_class!(PyTrx, trx::Trx, Format::Trx, Document::Trx, trx::write);
document_checks!(PyTrx, Document::Trx, "trx");

impl PyTrx {
    fn walkmesh(&self) -> PyResult<&trx::Walkmesh> {
        self.inner
            .walkmesh()
            .ok_or_else(|| PyValueError::new_err("the file has no ASWM walkmesh packet"))
    }
}

#[pymethods]
impl PyTrx {
    /// ``"trx"`` when the walkmesh is baked (path tables or islands present), else ``"trn"``.
    #[getter]
    fn format(&self) -> &'static str {
        trx::summary(&self.inner).format
    }

    /// The packet tags in file order (``["TRWH", "TRRN", ..., "ASWM"]``).
    #[getter]
    fn packets(&self) -> Vec<String> {
        trx::summary(&self.inner)
            .packets
            .into_iter()
            .map(|p| p.tag)
            .collect()
    }

    /// Whether the file has an ASWM walkmesh packet.
    #[getter]
    fn has_walkmesh(&self) -> bool {
        self.inner.walkmesh().is_some()
    }

    /// Walkmesh vertices: ``float32`` ``(n, 3)`` (a copy). Raises ``ValueError`` without a
    /// walkmesh.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        input::rows(py, &self.walkmesh()?.vertices)
    }

    /// Walkmesh triangles: ``uint32`` ``(m, 3)`` vertex indices.
    #[getter]
    fn triangles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rows: Vec<[u32; 3]> = self
            .walkmesh()?
            .triangles
            .iter()
            .map(|t| t.vertices)
            .collect();
        input::rows(py, &rows)
    }

    /// Triangle flags: ``uint16`` ``(m,)`` (bit 0x01: walkable).
    #[getter]
    fn triangle_flags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let w = self.walkmesh()?;
        let flags: Vec<u16> = w.triangles.iter().map(|t| t.flags).collect();
        input::to_array(py, flags, &[w.triangles.len()])
    }

    /// Island of each triangle: ``uint16`` ``(m,)`` (0xFFFF: none).
    #[getter]
    fn triangle_islands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let w = self.walkmesh()?;
        let v: Vec<u16> = w.triangles.iter().map(|t| t.island).collect();
        input::to_array(py, v, &[w.triangles.len()])
    }

    /// ``(grid_width, grid_height)`` in tiles.
    #[getter]
    fn grid(&self) -> PyResult<(u32, u32)> {
        let w = self.walkmesh()?;
        Ok((w.grid_width, w.grid_height))
    }

    /// Number of islands.
    #[getter]
    fn island_count(&self) -> PyResult<usize> {
        Ok(self.walkmesh()?.islands.len())
    }

    /// A new terrain with the walkmesh baked as the NWN2 toolset does (``areakit bake``):
    /// with ``git`` (the area's GIT: a path, bytes or a ``Gff``), its walkmesh cutters cut out
    /// of the ground first and the result laid out as a TRX; with ``models`` (folders of MDB
    /// models) too, the placed objects' walkmeshes found there put in; then tile path tables,
    /// islands and the island path table. Runs without the GIL.
    ///
    /// >>> baked = areakit.Trx.read("area01.trn").bake(git="area01.git", models=["models"])
    #[pyo3(signature = (git = None, models = None))]
    fn bake(
        &self,
        py: Python<'_>,
        git: Option<&Bound<'_, PyAny>>,
        models: Option<Vec<PathBuf>>,
    ) -> PyResult<Self> {
        let git = git.map(read_git).transpose()?;
        let placed = match (&git, models) {
            (Some(g), Some(dirs)) if !dirs.is_empty() => {
                let session = areakit_app::Session::files_only();
                areakit_app::bake_area::place_objects(&session, g, &dirs)
                    .map_err(crate::errors::lib_error)?
                    .0
            }
            (None, Some(dirs)) if !dirs.is_empty() => {
                return Err(PyValueError::new_err(
                    "models= needs git= (the objects are the GIT's)",
                ));
            }
            _ => Vec::new(),
        };
        let inner = &self.inner;
        let (baked, _) = py
            .allow_threads(|| areakit_app::bake::bake_with_git(inner, git.as_ref(), &placed))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyTrx {
            inner: baked,
            path: None,
        })
    }

    fn __repr__(&self) -> String {
        let s = trx::summary(&self.inner);
        match s.walkmesh {
            Some(w) => format!(
                "<Trx {}: {} packets, walkmesh of {} vertices, {} triangles ({} walkable), {} islands>",
                s.format,
                s.packets.len(),
                w.vertices,
                w.triangles,
                w.walkable_triangles,
                w.islands
            ),
            None => format!(
                "<Trx {}: {} packets, no walkmesh>",
                s.format,
                s.packets.len()
            ),
        }
    }
}

/// Registers the class.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTrx>()
}
