//! `areakit.Tpc` (KotOR textures), and `areakit.export` (walkmeshes, areas, models to glTF or
//! OBJ, with their textures).

use std::path::PathBuf;

use areakit_app::document::Document;
use areakit_app::format::Format;
use areakit_app::formats::image::Image;
use areakit_app::formats::tpc::{self, Encoding, Tpc};
use areakit_app::session::{Session, Sources};
use numpy::{PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;

use crate::errors;
use crate::input;
use crate::text::{document_checks, document_class};

/// A KotOR texture (``.tpc``): DXT1/DXT5 or uncompressed RGB/RGBA/grey, a mip chain per layer
/// (one image, six cube faces, or the frames of an animated texture), and its TXI text.
/// Unmodified, it writes back byte for byte.
///
/// >>> t = areakit.Tpc.read("LTS_lotrim11.tpc")
/// >>> t
/// <Tpc 512x512 dxt1, 10 levels, 1 layer, from "LTS_lotrim11.tpc">
/// >>> t.rgba().shape, t.rgba(mip=9).shape
/// ((512, 512, 4), (1, 1, 4))
/// >>> t2 = areakit.Tpc.from_rgba(t.rgba(), encoding="dxt5", txi="blending punchthrough\r\n")
#[pyclass(module = "areakit", name = "Tpc")]
pub struct PyTpc {
    pub inner: Tpc,
    path: Option<PathBuf>,
}

document_class!(PyTpc, Tpc, Format::Tpc, Document::Tpc, tpc::write);
document_checks!(PyTpc, Document::Tpc, "tpc");

#[pymethods]
impl PyTpc {
    /// Level ``mip`` of layer ``layer`` (a cube face, an animation frame) decoded to RGBA:
    /// a ``uint8`` array of shape ``(height, width, 4)``, top row first. DXT is decoded without
    /// the GIL.
    #[pyo3(signature = (mip = 0, layer = 0))]
    fn rgba<'py>(&self, py: Python<'py>, mip: usize, layer: usize) -> PyResult<Bound<'py, PyAny>> {
        if layer >= self.inner.layers.len() || mip >= self.inner.mip_count() {
            return Err(PyIndexError::new_err(format!(
                "level {mip} of layer {layer}: the texture has {} layers of {} levels",
                self.inner.layers.len(),
                self.inner.mip_count()
            )));
        }
        let img = py
            .allow_threads(|| self.inner.rgba(layer, mip))
            .map_err(|e| errors::format_error(self.path.as_deref(), &e))?;
        let (w, h) = (img.width as usize, img.height as usize);
        input::to_array(py, img.rgba, &[h, w, 4])
    }

    /// A texture made from an RGBA picture (a ``uint8`` array of shape ``(height, width, 4)``,
    /// or ``(height, width, 3)`` for opaque RGB), as ``areakit convert x.png x.tpc`` makes one:
    /// ``encoding`` ``"dxt1"``, ``"dxt5"``, ``"rgb"``, ``"rgba"`` or ``"grey"`` (default: DXT1
    /// when every pixel is opaque, else DXT5), a full mip chain unless ``mipmaps`` is false,
    /// ``txi`` as its trailer (``cube 1`` with six stacked faces makes a cube map,
    /// ``proceduretype cycle`` an animated texture).
    #[staticmethod]
    #[pyo3(signature = (pixels, encoding = None, mipmaps = true, txi = ""))]
    fn from_rgba(
        py: Python<'_>,
        pixels: &Bound<'_, PyAny>,
        encoding: Option<&str>,
        mipmaps: bool,
        txi: &str,
    ) -> PyResult<Self> {
        let array = pixels.downcast::<numpy::PyArrayDyn<u8>>().map_err(|_| {
            PyValueError::new_err("pixels: expected a uint8 NumPy array (height, width, 4 or 3)")
        })?;
        let shape = array.shape().to_vec();
        let channels = match shape.as_slice() {
            [_, _, c @ (3 | 4)] => *c,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "pixels of shape {shape:?}: expected (height, width, 4) or (height, width, 3)"
                )));
            }
        };
        // Logical order, whatever the strides (a slice such as `px[:, :, :3]` is no copy).
        let data: Vec<u8> = array.readonly().as_array().iter().copied().collect();
        let rgba = if channels == 4 {
            data
        } else {
            data.chunks_exact(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect()
        };
        let img = Image::new(shape[1] as u32, shape[0] as u32, rgba)
            .map_err(|e| PyValueError::new_err(e.0))?;
        let encoding = encoding.map(crate::errors::choice).transpose()?;
        let options = tpc::EncodeOptions {
            encoding,
            mipmaps,
            ..Default::default()
        };
        let txi = txi.as_bytes().to_vec();
        let inner = py
            .allow_threads(|| Tpc::from_image(&img, &txi, &options))
            .map_err(|e| errors::encode_error(None, &e.0))?;
        Ok(PyTpc { inner, path: None })
    }

    /// Width of a layer's first level.
    #[getter]
    fn width(&self) -> u32 {
        self.inner.width()
    }

    /// Height of a layer's first level.
    #[getter]
    fn height(&self) -> u32 {
        self.inner.height()
    }

    /// ``"dxt1"``, ``"dxt5"``, ``"rgb"``, ``"rgba"``, ``"grey"`` or ``"bgra-swizzled"``.
    #[getter]
    fn encoding(&self) -> &'static str {
        self.inner.encoding.name()
    }

    /// Levels per layer.
    #[getter]
    fn mip_count(&self) -> usize {
        self.inner.mip_count()
    }

    /// Layers: 1, 6 for a cube map, the frames of an animated texture.
    #[getter]
    fn layers(&self) -> usize {
        self.inner.layers.len()
    }

    /// ``"single"``, ``"cube"`` or ``"animated"``.
    #[getter]
    fn layout(&self) -> &'static str {
        match self.inner.layout {
            tpc::Layout::Single => "single",
            tpc::Layout::Cube => "cube",
            tpc::Layout::Animated { .. } => "animated",
        }
    }

    /// The TXI text (up to its first NUL; ``""`` when there is none). Assign a string to
    /// replace the trailer.
    #[getter]
    fn get_txi(&self) -> String {
        String::from_utf8_lossy(self.inner.txi().body()).into_owned()
    }

    #[setter]
    fn set_txi(&mut self, value: &str) {
        self.inner.trailer = value.as_bytes().to_vec();
    }

    fn __repr__(&self) -> String {
        let t = &self.inner;
        let from = self
            .path
            .as_ref()
            .map(|p| format!(", from \"{}\"", p.display()))
            .unwrap_or_default();
        format!(
            "<Tpc {}x{} {}, {} levels, {} layer{}{from}>",
            t.width(),
            t.height(),
            t.encoding.name(),
            t.mip_count(),
            t.layers.len(),
            if t.layers.len() == 1 { "" } else { "s" }
        )
    }
}

/// Exports a walkmesh, an area (LYT, folder, capsule), an NWN2 TRX/TRN or a model (MDL ASCII,
/// binary MDL) to glTF (``.glb``, ``.gltf``) or OBJ, as ``areakit export`` does, with the
/// textures its models name (found in the input's folder and its ``textures/`` and
/// ``lightmaps/`` folders, then each of ``textures``, then ``game``; embedded as PNG; a texture
/// found nowhere leaves its material flat and is listed in the report). Returns the report: a
/// dict with ``written``, ``vertices``, ``faces``, ``nodes``, ``notes`` and ``textures``
/// (``places``, ``embedded``, ``missing``).
///
/// >>> r = areakit.export("kits/blackvulkar/room_1.mdl", "room_1.glb", textures=["tex/"])
/// >>> [t["name"] for t in r["textures"]["embedded"]]
/// ['LTS_lotrim11']
#[pyfunction]
#[pyo3(signature = (source, output, textures = None, no_textures = false, no_models = false, walkable_only = false, game = None, module = None))]
#[allow(clippy::too_many_arguments)]
fn export(
    py: Python<'_>,
    source: PathBuf,
    output: PathBuf,
    textures: Option<Vec<PathBuf>>,
    no_textures: bool,
    no_models: bool,
    walkable_only: bool,
    game: Option<PathBuf>,
    module: Option<String>,
) -> PyResult<PyObject> {
    let report = py
        .allow_threads(|| {
            let session = Session::open(Sources {
                game,
                module,
                capsules: Vec::new(),
            })?;
            let options = areakit_app::interop::ExportOptions {
                walkable_only,
                no_models,
                no_textures,
                texture_dirs: textures.unwrap_or_default(),
                ..Default::default()
            };
            let notes = session.notes().to_vec();
            areakit_app::interop::export_file(&session, &source, &output, &options)
                .map(|r| (notes, r))
        })
        .map_err(errors::lib_error)?;
    let (notes, report) = report;
    input::warn_notes(py, &notes)?;
    input::report_to_py(py, &report)
}

/// Registers `Tpc` and `export`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTpc>()?;
    m.add_function(wrap_pyfunction!(export, m)?)
}
