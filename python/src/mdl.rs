//! `areakit.Mdl`: a compiled model: KotOR's (the MDL and its MDX, K1 and K2) or NWN's (one
//! file, its vertex data in the raw-data block).

use std::borrow::Cow;
use std::path::PathBuf;

use areakit_app::document::{Document, mdx_path};
use areakit_app::format::Format;
use areakit_app::formats::mdl::{self, Model, Node, nwn};
use areakit_app::formats::mdl_ascii;
use areakit_app::geometry::transform::Axis;
use pyo3::exceptions::{PyIndexError, PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString};

use crate::errors;
use crate::input;
use crate::text::document_checks;

type Xyz = (f32, f32, f32);

fn xyz(p: [f32; 3]) -> Xyz {
    (p[0], p[1], p[2])
}

/// A compiled model: KotOR's MDL (headers, node tree, controllers, animations) with its MDX
/// (vertex rows), K1 or K2; or an NWN compiled model (one file: ``game`` is ``"nwn"``), told
/// apart by its structure. Unmodified, it writes back byte for byte.
///
/// Read one with ``Mdl.read(mdl, mdx=None)`` (paths or bytes; a path finds the ``.mdx``
/// beside it; an NWN model has none). The node tree is ``nodes`` (dicts, pre-order: ``nodes[0]`` is the root); mesh
/// nodes give NumPy arrays through ``mesh(i)`` / ``meshes()``. ``transform`` moves the model
/// in place as ``areakit transform`` does; ``to_bytes()`` gives ``(mdl, mdx)`` and
/// ``to_ascii()`` the MDL ASCII text.
///
/// >>> m = areakit.Mdl.read("m10aa_08b.mdl")        # reads m10aa_08b.mdx beside it
/// >>> m
/// <Mdl M10aa_08b (k1): 28 nodes, 23 meshes, 2247 vertices, 996 faces, 0 animations, from "m10aa_08b.mdl">
/// >>> m.meshes()[0]["positions"].shape
/// (151, 3)
/// >>> m.to_bytes() == (open("m10aa_08b.mdl", "rb").read(), open("m10aa_08b.mdx", "rb").read())
/// True
#[pyclass(module = "areakit", name = "Mdl")]
pub struct PyMdl {
    pub inner: Inner,
    /// The MDL file it was read from (for `info` and messages).
    path: Option<PathBuf>,
}

/// The model of either game.
#[derive(Debug, Clone, PartialEq)]
pub enum Inner {
    /// KotOR's.
    Kotor(Model),
    /// NWN's.
    Nwn(nwn::Model),
}

impl Inner {
    /// The document of the model (for `info` and `check`).
    fn document(b: Box<Inner>) -> Document {
        match *b {
            Inner::Kotor(m) => Document::Mdl(Box::new(m)),
            Inner::Nwn(m) => Document::NwnMdl(Box::new(m)),
        }
    }

    fn info(&self) -> areakit_app::info::ModelInfo {
        match self {
            Inner::Kotor(m) => areakit_app::info::model_info(m),
            Inner::Nwn(m) => areakit_app::info::nwn_model_info(m),
        }
    }
}

document_checks!(PyMdl, Inner::document, "mdl");

/// The bytes of `source` (`bytes`, `bytearray`, `memoryview`, or a path: `str` /
/// `os.PathLike`) and the path they came from. `bytes` are borrowed, not copied.
fn source_bytes<'a>(
    source: &'a Bound<'_, PyAny>,
    what: &str,
) -> PyResult<(Cow<'a, [u8]>, Option<PathBuf>)> {
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
            "{what}: expected a path (str or os.PathLike) or bytes, got {}",
            source
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string())
        ))
    })?;
    let data = input::read_file(&path)?;
    Ok((Cow::Owned(data), Some(path)))
}

/// The supermodel field as Python sees it: None for empty or `NULL`.
fn optional_name(s: String) -> Option<String> {
    if s.is_empty() || s.eq_ignore_ascii_case("null") {
        None
    } else {
        Some(s)
    }
}

impl PyMdl {
    /// The indices of the nodes with a mesh, in node order.
    fn mesh_nodes(&self) -> Vec<usize> {
        let has: Vec<bool> = match &self.inner {
            Inner::Kotor(m) => m.nodes.iter().map(|n| n.mesh.is_some()).collect(),
            Inner::Nwn(m) => m.nodes.iter().map(|n| n.mesh.is_some()).collect(),
        };
        (0..has.len()).filter(|&i| has[i]).collect()
    }

    /// The name of geometry node `i`.
    fn node_name(&self, i: usize) -> String {
        match &self.inner {
            Inner::Kotor(m) => m.node_name(&m.nodes[i]),
            Inner::Nwn(m) => m.nodes[i].name(),
        }
    }

    /// The files: KotOR's MDL and MDX; NWN's one file (and an empty MDX).
    fn encode(&self, path: Option<&std::path::Path>) -> PyResult<(Vec<u8>, Vec<u8>)> {
        let e = |e: areakit_app::formats::EncodeError| errors::encode_error(path, &e.0);
        match &self.inner {
            Inner::Kotor(m) => mdl::write(m).map_err(e),
            Inner::Nwn(m) => Ok((nwn::write(m).map_err(e)?, Vec::new())),
        }
    }

    /// The dict of mesh node `index` (which has a mesh).
    fn mesh_dict<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyDict>> {
        match &self.inner {
            Inner::Kotor(m) => kotor_mesh_dict(py, m, index),
            Inner::Nwn(m) => nwn_mesh_dict(py, m, index),
        }
    }
}

/// The faces and materials of a mesh as arrays.
fn face_arrays<'py>(d: &Bound<'py, PyDict>, faces: &[mdl::Face]) -> PyResult<()> {
    let py = d.py();
    let v: Vec<u32> = faces
        .iter()
        .flat_map(|f| f.vertices.map(u32::from))
        .collect();
    d.set_item("faces", input::to_array(py, v, &[faces.len(), 3])?)?;
    let material: Vec<u32> = faces.iter().map(|f| f.material).collect();
    d.set_item("material", input::to_array(py, material, &[faces.len()])?)
}

fn kotor_mesh_dict<'py>(py: Python<'py>, m: &Model, index: usize) -> PyResult<Bound<'py, PyDict>> {
    let node: &Node = &m.nodes[index];
    let d = PyDict::new(py);
    let Some(mesh) = node.mesh.as_ref() else {
        return Err(PyValueError::new_err(format!("node {index} has no mesh")));
    };
    d.set_item("node", index)?;
    d.set_item("name", m.node_name(node))?;
    d.set_item("type", node.kind_name())?;
    d.set_item("texture", mesh.texture0.as_string())?;
    d.set_item("lightmap", mesh.texture1.as_string())?;
    d.set_item("positions", input::rows(py, &mesh.positions)?)?;
    face_arrays(&d, &mesh.faces)?;
    let v = &mesh.vertices;
    d.set_item("normals", input::rows(py, &v.normals)?)?;
    d.set_item("uv", input::rows(py, &v.uvs[0])?)?;
    d.set_item("uv2", input::rows(py, &v.uvs[1])?)?;
    d.set_item("bone_weights", input::rows(py, &v.bone_weights)?)?;
    d.set_item("bone_indices", input::rows(py, &v.bone_indices)?)?;
    Ok(d)
}

fn nwn_mesh_dict<'py>(
    py: Python<'py>,
    m: &nwn::Model,
    index: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let node = &m.nodes[index];
    let d = PyDict::new(py);
    let Some(mesh) = node.mesh.as_ref() else {
        return Err(PyValueError::new_err(format!("node {index} has no mesh")));
    };
    d.set_item("node", index)?;
    d.set_item("name", node.name())?;
    d.set_item("type", node.kind_name())?;
    d.set_item("texture", mesh.texture(0))?;
    d.set_item("lightmap", mesh.texture(1))?;
    d.set_item("positions", input::rows(py, mesh.positions())?)?;
    face_arrays(&d, &mesh.faces)?;
    let empty3: &[[f32; 3]] = &[];
    let empty2: &[[f32; 2]] = &[];
    d.set_item(
        "normals",
        input::rows(py, mesh.normals.as_deref().unwrap_or(empty3))?,
    )?;
    d.set_item(
        "uv",
        input::rows(py, mesh.uvs[0].as_deref().unwrap_or(empty2))?,
    )?;
    d.set_item(
        "uv2",
        input::rows(py, mesh.uvs[1].as_deref().unwrap_or(empty2))?,
    )?;
    let skin = node.skin.as_ref();
    let weights = skin.and_then(|s| s.weights.clone()).unwrap_or_default();
    let slots: Vec<[f32; 4]> = skin
        .and_then(|s| s.bone_indices.as_ref())
        .map(|ix| ix.iter().map(|r| r.map(f32::from)).collect())
        .unwrap_or_default();
    d.set_item("bone_weights", input::rows(py, &weights)?)?;
    d.set_item("bone_indices", input::rows(py, &slots)?)?;
    Ok(d)
}

#[pymethods]
impl PyMdl {
    /// Reads a model: ``mdl`` and ``mdx`` are each ``bytes`` (``bytearray``,
    /// ``memoryview``) or a path (``str`` / ``os.PathLike``). When ``mdl`` is a path and
    /// ``mdx`` is None, the ``.mdx`` beside it (same path, extension ``.mdx``) is read if it
    /// exists; otherwise (and for ``mdl`` bytes without ``mdx``) the MDX is empty, which
    /// suits models without vertex rows only.
    ///
    /// Raises ``FormatError`` (with ``.offset``) on bytes that are not a valid model,
    /// ``OSError`` when a file cannot be read.
    ///
    /// >>> m = areakit.Mdl.read("m13aa_01a.mdl")
    /// >>> m = areakit.Mdl.read(mdl_bytes, mdx_bytes)
    #[staticmethod]
    #[pyo3(signature = (mdl, mdx = None))]
    fn read(
        py: Python<'_>,
        mdl: &Bound<'_, PyAny>,
        mdx: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let (data, path) = source_bytes(mdl, "mdl")?;
        let mdx_data: Option<Cow<'_, [u8]>> = match mdx.filter(|m| !m.is_none()) {
            Some(m) => Some(source_bytes(m, "mdx")?.0),
            None => None,
        };
        let mdx_data: Option<Cow<'_, [u8]>> = match mdx_data {
            Some(x) => Some(x),
            None => match &path {
                Some(p) if mdx_path(p).is_file() => {
                    Some(Cow::Owned(input::read_file(&mdx_path(p))?))
                }
                _ => None,
            },
        };
        // The one detection and decoder call of `areakit info` and `check`.
        let (d, x, at) = (&*data, mdx_data.as_deref(), path.as_deref());
        let doc = py
            .allow_threads(|| Document::decode_as(Format::Mdl, at, d, x))
            .map_err(|e| input::decode_error(at, e))?;
        let inner = match doc {
            Document::Mdl(m) => Inner::Kotor(*m),
            Document::NwnMdl(m) => Inner::Nwn(*m),
            other => {
                return Err(PyValueError::new_err(format!(
                    "expected a binary model, read {}",
                    other.format().description()
                )));
            }
        };
        Ok(PyMdl { inner, path })
    }

    /// The encoded files ``(mdl, mdx)``: byte for byte the files read, while unmodified
    /// (after ``transform``, the same layout with the moved values); an NWN model's ``mdx`` is
    /// empty. Raises ``EncodeError`` when the model cannot be written.
    fn to_bytes<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let (a, x) = self.encode(None)?;
        Ok((PyBytes::new(py, &a), PyBytes::new(py, &x)))
    }

    /// Writes the MDL to ``path`` and (KotOR) the MDX beside it (extension ``.mdx``), as one
    /// set: both or neither, the MDL never beside an MDX of another write (the command
    /// line's write, ``docs/writes.md``).
    fn write(&self, path: PathBuf) -> PyResult<()> {
        use areakit_app::atomic::{Member, write_set};
        let (a, x) = self.encode(Some(&path))?;
        let mdx = mdx_path(&path);
        let set = match self.inner {
            Inner::Kotor(_) => vec![Member::file(&path, &a), Member::file(&mdx, &x)],
            Inner::Nwn(_) => vec![Member::file(&path, &a)],
        };
        write_set(&set).map_err(errors::lib_error)
    }

    /// The model as MDL ASCII text in its game's dialect (KotOR's canonical layout, NWN's
    /// with its marking comment: what ``areakit convert m.mdl m.mdl.ascii`` writes). A ``str``
    /// with one character per byte of the file: ``to_ascii().encode("latin-1")`` gives the
    /// file's bytes.
    fn to_ascii(&self, py: Python<'_>) -> String {
        let inner = &self.inner;
        let bytes = py.allow_threads(|| match inner {
            Inner::Kotor(m) => mdl_ascii::write_canonical_bytes(&mdl::to_ascii(m)),
            Inner::Nwn(m) => mdl_ascii::write(&nwn::to_ascii(m)),
        });
        bytes.iter().map(|&b| char::from(b)).collect()
    }

    /// Moves the model in place as ``areakit transform m.mdl -o out.mdl`` does: ``mirror``
    /// (``"x"`` or ``"y"``) first, then ``rotate`` (degrees about z, counter-clockwise; 90°
    /// steps exact), then ``translate`` ``(x, y, z)``. The root's children (their rest
    /// positions and orientations, and their animation keys) are moved; mirroring also flips
    /// the geometry below them. Returns None.
    ///
    /// >>> m.transform(rotate=90, translate=(10, 0, 0))
    #[pyo3(signature = (translate = None, rotate = None, mirror = None))]
    fn transform(
        &mut self,
        translate: Option<[f32; 3]>,
        rotate: Option<f64>,
        mirror: Option<&str>,
    ) -> PyResult<()> {
        let mirror = mirror.map(crate::errors::choice).transpose()?;
        let steps = areakit_app::ops::TransformSteps {
            mirror,
            rotate,
            translate,
            remap: Vec::new(),
        };
        match &mut self.inner {
            Inner::Kotor(m) => areakit_app::ops::transform_model(m, &steps),
            Inner::Nwn(m) => areakit_app::ops::transform_nwn_model(m, &steps),
        }
        .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// ``"k1"``, ``"k2"`` or ``"nwn"``: the game whose compiled layout the model uses.
    #[getter]
    fn game(&self) -> &'static str {
        self.inner.info().game
    }

    /// The model's name (its geometry header).
    #[getter]
    fn name(&self) -> String {
        self.inner.info().name
    }

    /// The supermodel's name, or None (empty or ``NULL``).
    #[getter]
    fn supermodel(&self) -> Option<String> {
        optional_name(self.inner.info().supermodel)
    }

    /// The classification byte: 0 other, 1 effect, 2 tile, 4 character, 8 door,
    /// 0x10 lightsaber, 0x20 placeable, 0x40 flyer (KotOR).
    #[getter]
    fn classification(&self) -> u8 {
        self.inner.info().classification
    }

    /// The header's bounding box: ``((min x, y, z), (max x, y, z))``.
    #[getter]
    fn bounds(&self) -> (Xyz, Xyz) {
        let b = self.inner.info().bounds;
        (xyz(b.min), xyz(b.max))
    }

    /// The header's bounding radius.
    #[getter]
    fn radius(&self) -> f32 {
        self.inner.info().radius
    }

    /// The header's animation scale.
    #[getter]
    fn animation_scale(&self) -> f32 {
        self.inner.info().animation_scale
    }

    /// The counts ``areakit info --json`` reports: ``{"nodes", "meshes", "vertices",
    /// "faces", "animations"}`` (``nodes`` is its ``nodes.total``).
    #[getter]
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let i = self.inner.info();
        let d = PyDict::new(py);
        d.set_item("nodes", i.nodes.total)?;
        d.set_item("meshes", i.meshes)?;
        d.set_item("vertices", i.vertices)?;
        d.set_item("faces", i.faces)?;
        d.set_item("animations", i.animations)?;
        Ok(d)
    }

    /// The animations' names, in file order.
    #[getter]
    fn animations(&self) -> Vec<String> {
        match &self.inner {
            Inner::Kotor(m) => m
                .animations
                .iter()
                .map(|a| a.geometry.name.as_string())
                .collect(),
            Inner::Nwn(m) => m
                .animations
                .iter()
                .map(|a| a.geometry.name.as_string())
                .collect(),
        }
    }

    /// The geometry nodes in pre-order (``nodes[0]`` is the root), one dict each:
    /// ``name``, ``type`` (``dummy``, ``trimesh``, ``skin``, ``danglymesh``, ``aabb``,
    /// ``light``, ``emitter``, ...), ``flags``, ``parent`` (index, None for the root),
    /// ``children`` (indices), ``position`` ``(x, y, z)`` relative to the parent,
    /// ``orientation`` ``(w, x, y, z)`` (an NWN node's from its first position and
    /// orientation keys), ``has_mesh``.
    #[getter]
    fn nodes<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        type Row = (
            String,
            &'static str,
            u32,
            Vec<u32>,
            [f32; 3],
            [f32; 4],
            bool,
        );
        let (rows, parents): (Vec<Row>, Vec<Option<usize>>) = match &self.inner {
            Inner::Kotor(m) => (
                m.nodes
                    .iter()
                    .map(|n| {
                        let f = u32::from(n.flags);
                        let (p, o) = (n.position, n.orientation);
                        (
                            m.node_name(n),
                            n.kind_name(),
                            f,
                            n.children.clone(),
                            p,
                            o,
                            n.mesh.is_some(),
                        )
                    })
                    .collect(),
                m.parents(),
            ),
            Inner::Nwn(m) => (
                m.nodes
                    .iter()
                    .map(|n| {
                        let p = areakit_app::nwn_models::rest_position(n);
                        let o = areakit_app::nwn_models::rest_orientation(n).map(|c| c as f32);
                        (
                            n.name(),
                            n.kind_name(),
                            n.flags,
                            n.children.clone(),
                            p,
                            o,
                            n.mesh.is_some(),
                        )
                    })
                    .collect(),
                m.parents(),
            ),
        };
        rows.into_iter()
            .enumerate()
            .map(|(i, (name, kind, flags, children, p, o, mesh))| {
                let d = PyDict::new(py);
                d.set_item("name", name)?;
                d.set_item("type", kind)?;
                d.set_item("flags", flags)?;
                d.set_item("parent", parents.get(i).copied().flatten())?;
                d.set_item("children", children)?;
                d.set_item("position", xyz(p))?;
                d.set_item("orientation", (o[0], o[1], o[2], o[3]))?;
                d.set_item("has_mesh", mesh)?;
                Ok(d)
            })
            .collect()
    }

    /// Mesh ``i`` (in node order, as ``meshes()``; negative counts from the end, a ``str``
    /// names the node, letter case ignored) as a dict: ``node`` (its index in ``nodes``),
    /// ``name``, ``type``, ``texture`` and ``lightmap`` (names as stored, ``NULL`` for none),
    /// and NumPy arrays ``positions`` (N×3 float32), ``faces`` (M×3 uint32 vertex indices),
    /// ``material`` (M uint32: the face material / smoothing word), ``normals`` (N×3
    /// float32), ``uv`` and ``uv2`` (N×2 float32: the first and second UV sets),
    /// ``bone_weights`` and ``bone_indices`` (N×4 float32, skins). An attribute the MDX does
    /// not hold is an empty array (0×3, 0×2, 0×4).
    ///
    /// >>> m.mesh(0)["faces"].shape
    fn mesh<'py>(&self, py: Python<'py>, i: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let nodes = self.mesh_nodes();
        let node = if let Ok(name) = i.extract::<String>() {
            *nodes
                .iter()
                .find(|&&k| self.node_name(k).eq_ignore_ascii_case(&name))
                .ok_or_else(|| PyKeyError::new_err(format!("no mesh node named {name:?}")))?
        } else {
            let k: isize = i.extract()?;
            let n = nodes.len() as isize;
            let j = if k < 0 { k + n } else { k };
            if j < 0 || j >= n {
                return Err(PyIndexError::new_err(format!(
                    "mesh {k}: the model has {n} meshes"
                )));
            }
            nodes[j as usize]
        };
        self.mesh_dict(py, node)
    }

    /// Every mesh node's dict (see ``mesh``), in node order.
    fn meshes<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.mesh_nodes()
            .into_iter()
            .map(|k| self.mesh_dict(py, k))
            .collect()
    }

    /// The MDL file read from, or None.
    #[getter]
    fn path(&self) -> Option<String> {
        self.path.as_ref().map(|p| p.display().to_string())
    }

    /// A copy.
    fn copy(&self) -> Self {
        PyMdl {
            inner: self.inner.clone(),
            path: self.path.clone(),
        }
    }

    fn __copy__(&self) -> Self {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.copy()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyMdl>()
            .is_ok_and(|o| o.borrow().inner == self.inner)
    }

    fn __repr__(&self) -> String {
        let i = self.inner.info();
        let from = self
            .path
            .as_ref()
            .map(|p| format!(", from \"{}\"", p.display()))
            .unwrap_or_default();
        format!(
            "<Mdl {} ({}): {} nodes, {} meshes, {} vertices, {} faces, {} animations{from}>",
            i.name, i.game, i.nodes.total, i.meshes, i.vertices, i.faces, i.animations
        )
    }
}

/// Registers the class.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMdl>()?;
    Ok(())
}
