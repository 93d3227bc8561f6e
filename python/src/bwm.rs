//! `areakit.Bwm`: a KotOR binary walkmesh (WOK/PWK/DWK).

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use areakit_app::document::Document;
use areakit_app::format::Format;
use areakit_app::formats::bwm::{self, Bwm, BwmKind, Face, Material, WalkmeshType};
use areakit_app::geometry::query::{FaceFilter, Locator};
use areakit_app::geometry::transform::{Axis, Transform};
use areakit_app::walkmesh::{self, QueryMesh};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::check::PyFinding;
use crate::errors;
use crate::input::{self, Coords};

type Loc<'a> = Locator<'a>;

self_cell::self_cell!(
    /// A walkmesh prepared for queries: the mesh and its locator (the stored AABB tree when
    /// usable), built on the first query and dropped when the geometry changes.
    pub struct Prepared {
        owner: QueryMesh,
        #[covariant]
        dependent: Loc,
    }
);

impl Prepared {
    fn locator(&self) -> &Locator<'_> {
        self.borrow_dependent()
    }

    fn materials(&self) -> &[Material] {
        &self.borrow_owner().materials
    }
}

/// A KotOR binary walkmesh: an area room (WOK), a placeable (PWK) or a door (DWK).
///
/// Read one with ``Bwm.read(path_or_bytes)``; an unmodified walkmesh writes back byte for
/// byte (``to_bytes()``, ``write(path)``). Geometry is exposed as NumPy arrays
/// (``vertices``, ``faces``, ``materials``, ``walkable`` and the derived tables); each
/// property returns a new array (one copy of the model's table; edits go back through the
/// setters). Queries (``face_at``, ``height_at``, ``raycast``, ``nearest_walkable``) take
/// numbers or arrays; array queries run without the GIL.
///
/// >>> import areakit, numpy as np
/// >>> wok = areakit.Bwm.read("m13aa_04a.wok")
/// >>> wok
/// <Bwm wok: 265 vertices, 522 faces (209 walkable), 83 edges, from "m13aa_04a.wok">
/// >>> wok.vertices.shape, wok.faces.dtype
/// ((265, 3), dtype('uint32'))
/// >>> wok.face_at(10.0, 4.5)                       # a face index, or None
/// >>> wok.face_at(np.array([10.0, 1e9]), np.array([4.5, 0.0]))   # int64 array, -1: none
/// >>> wok.to_bytes() == open("m13aa_04a.wok", "rb").read()
/// True
#[pyclass(module = "areakit", name = "Bwm")]
pub struct PyBwm {
    pub inner: Bwm,
    /// The file it was read from (for `info` and messages).
    path: Option<PathBuf>,
    /// PWK or DWK for a type-0 walkmesh (from the extension, or set).
    kind_hint: Option<BwmKind>,
    prepared: OnceLock<Arc<Prepared>>,
}

impl PyBwm {
    /// Wraps a model.
    pub fn new(inner: Bwm, path: Option<PathBuf>, kind_hint: Option<BwmKind>) -> Self {
        PyBwm {
            inner,
            path,
            kind_hint,
            prepared: OnceLock::new(),
        }
    }

    fn derived(&self, inner: Bwm) -> Self {
        PyBwm::new(inner, None, self.kind_hint)
    }

    fn kind(&self) -> BwmKind {
        self.inner.kind(self.kind_hint.map(BwmKind::name))
    }

    fn prepared(&self) -> PyResult<Arc<Prepared>> {
        if let Some(p) = self.prepared.get() {
            return Ok(p.clone());
        }
        let qm = QueryMesh::new(&self.inner).map_err(errors::mesh_error)?;
        let p = Arc::new(Prepared::new(qm, |q| q.locator()));
        let _ = self.prepared.set(p.clone());
        Ok(p)
    }

    fn changed(&mut self) {
        self.prepared = OnceLock::new();
    }

    fn shown_path(&self) -> PathBuf {
        self.path
            .clone()
            .unwrap_or_else(|| PathBuf::from("<bytes>"))
    }
}

fn parse_kind(kind: Option<&str>) -> PyResult<Option<BwmKind>> {
    match kind {
        None => Ok(None),
        Some(k) => BwmKind::from_extension(k).map(Some).ok_or_else(|| {
            PyValueError::new_err(format!("kind {k:?}: expected \"wok\", \"pwk\" or \"dwk\""))
        }),
    }
}

/// A point as a Python tuple.
type Xyz = (f32, f32, f32);

fn vec3(v: [f32; 3]) -> Xyz {
    (v[0], v[1], v[2])
}

/// The arguments of a point query: x, y and an optional z, each a number or an array.
struct PointArgs {
    x: Coords,
    y: Coords,
    z: Option<Coords>,
    /// The shape of the result (None: all scalars).
    shape: Option<Vec<usize>>,
    n: usize,
}

impl PointArgs {
    fn new(
        x: &Bound<'_, PyAny>,
        y: &Bound<'_, PyAny>,
        z: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let x = Coords::extract(x)?;
        let y = Coords::extract(y)?;
        let z = z
            .filter(|z| !z.is_none())
            .map(Coords::extract)
            .transpose()?;
        let mut shape: Option<Vec<usize>> = None;
        for c in [Some(&x), Some(&y), z.as_ref()].into_iter().flatten() {
            if let Coords::Array(_, s) = c {
                match &shape {
                    None => shape = Some(s.clone()),
                    Some(prev) if prev != s => {
                        return Err(PyValueError::new_err(format!(
                            "coordinate arrays differ in shape: {prev:?} and {s:?}"
                        )));
                    }
                    Some(_) => {}
                }
            }
        }
        let n = shape.as_ref().map_or(1, |s| s.iter().product());
        Ok(PointArgs { x, y, z, shape, n })
    }

    fn at(&self, i: usize) -> (f32, f32, Option<f32>) {
        (
            self.x.get(i),
            self.y.get(i),
            self.z.as_ref().map(|z| z.get(i)),
        )
    }
}

#[pymethods]
impl PyBwm {
    /// ``Bwm()``: an empty area walkmesh (type 1, no vertices). Build meshes with
    /// ``Bwm.from_arrays``.
    #[new]
    fn py_new() -> Self {
        PyBwm::new(Bwm::default(), None, None)
    }

    /// Reads a walkmesh from a path (``str`` or ``os.PathLike``) or from ``bytes``.
    ///
    /// ``kind`` (``"wok"``, ``"pwk"``, ``"dwk"``) tells a door from a placeable; by default
    /// it comes from the file extension. Raises ``FormatError`` (with ``.offset``) on bytes
    /// that are not a valid BWM, ``OSError`` when the file cannot be read.
    ///
    /// >>> m = areakit.Bwm.read("m13aa_01a.wok")
    /// >>> m = areakit.Bwm.read(data, kind="dwk")
    #[staticmethod]
    #[pyo3(signature = (source, kind = None))]
    fn read(source: &Bound<'_, PyAny>, kind: Option<&str>) -> PyResult<Self> {
        let kind = parse_kind(kind)?;
        let (inner, path) = input::decode(source, Format::Bwm, |d| match d {
            Document::Bwm(m) => Some(*m),
            _ => None,
        })?;
        let kind = kind.or_else(|| {
            input::extension(path.as_deref()).and_then(|e| BwmKind::from_extension(&e))
        });
        Ok(PyBwm::new(inner, path, kind))
    }

    /// Builds a walkmesh from arrays and computes every derived table (normals, planes,
    /// walkable-first order, adjacency, edges, perimeters, AABB tree), as ``rebuild()``.
    ///
    /// ``vertices``: ``(n, 3)`` floats; ``faces``: ``(m, 3)`` vertex indices;
    /// ``materials``: ``(m,)`` surface material ids (default 4, stone: walkable);
    /// ``kind``: ``"wok"`` (area, world space) or ``"pwk"``/``"dwk"`` (object space).
    ///
    /// >>> m = areakit.Bwm.from_arrays([[0,0,0],[1,0,0],[0,1,0]], [[0,1,2]])
    #[staticmethod]
    #[pyo3(signature = (vertices, faces, materials = None, kind = "wok"))]
    fn from_arrays(
        vertices: &Bound<'_, PyAny>,
        faces: &Bound<'_, PyAny>,
        materials: Option<&Bound<'_, PyAny>>,
        kind: &str,
    ) -> PyResult<Self> {
        let kind = parse_kind(Some(kind))?.unwrap_or(BwmKind::Wok);
        let verts = input::points(vertices, "vertices")?;
        let tris = face_rows(faces, verts.len())?;
        let mats = match materials {
            Some(m) if !m.is_none() => material_ids(m, tris.len())?,
            _ => vec![Material::Stone; tris.len()],
        };
        let mut m = Bwm {
            walkmesh_type: if kind == BwmKind::Wok {
                WalkmeshType::Area
            } else {
                WalkmeshType::PlaceableOrDoor
            },
            vertices: verts,
            ..Bwm::default()
        };
        m.faces = tris
            .into_iter()
            .zip(mats)
            .map(|(vertices, material)| Face { vertices, material })
            .collect();
        let built = walkmesh::rebuild(&m).map_err(errors::mesh_error)?;
        Ok(PyBwm::new(built, None, Some(kind)))
    }

    /// The encoded walkmesh (byte for byte the file read, while unmodified).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let b = bwm::write(&self.inner).map_err(|e| errors::encode_error(None, &e.0))?;
        Ok(PyBytes::new(py, &b))
    }

    /// Writes the walkmesh to ``path`` atomically (a temporary file beside it, then a
    /// rename: a failure leaves ``path`` as it was).
    fn write(&self, path: PathBuf) -> PyResult<()> {
        let b = bwm::write(&self.inner).map_err(|e| errors::encode_error(Some(&path), &e.0))?;
        input::write_file(&path, &b)
    }

    /// The walkmesh decompiled to an ASCII walkmesh node (``areakit convert X.wok X.ascii``).
    #[pyo3(signature = (name = None))]
    fn to_ascii(&self, name: Option<String>) -> String {
        let name = name.unwrap_or_else(|| {
            self.path
                .as_deref()
                .map_or_else(|| "walkmesh".to_string(), areakit_app::format::resref_of)
        });
        areakit_app::ascii_walkmesh::bwm_to_ascii(&self.inner, &name, "NULL")
    }

    /// ``"wok"``, ``"pwk"`` or ``"dwk"``. The type word tells an area walkmesh from the rest;
    /// PWK and DWK share type 0 and are told apart by the extension read from (or set here).
    #[getter(kind)]
    fn get_kind(&self) -> &'static str {
        self.kind().name()
    }

    #[setter(kind)]
    fn set_kind(&mut self, kind: &str) -> PyResult<()> {
        let k = parse_kind(Some(kind))?.unwrap_or(BwmKind::Wok);
        self.inner.walkmesh_type = match k {
            BwmKind::Wok => WalkmeshType::Area,
            _ => WalkmeshType::PlaceableOrDoor,
        };
        self.kind_hint = Some(k);
        Ok(())
    }

    /// The type word at offset 0x08 (1: area, 0: placeable or door).
    #[getter]
    fn walkmesh_type(&self) -> u32 {
        self.inner.walkmesh_type.raw()
    }

    /// The file read from, or None.
    #[getter]
    fn path(&self) -> Option<String> {
        self.path.as_ref().map(|p| p.display().to_string())
    }

    /// Vertex positions: ``float32`` array of shape ``(n, 3)`` (a copy; assign to edit).
    #[getter]
    fn get_vertices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        input::rows(py, &self.inner.vertices)
    }

    #[setter]
    fn set_vertices(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.vertices = input::points(value, "vertices")?;
        self.changed();
        Ok(())
    }

    /// Triangles: ``uint32`` array of shape ``(m, 3)``, vertex indices in winding order
    /// (assign an array with the same number of faces to edit; derived tables go stale until
    /// ``rebuild()``).
    #[getter]
    fn get_faces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rows: Vec<[u32; 3]> = self.inner.faces.iter().map(|f| f.vertices).collect();
        input::rows(py, &rows)
    }

    #[setter]
    fn set_faces(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let rows = face_rows(value, self.inner.vertices.len())?;
        if rows.len() != self.inner.faces.len() {
            return Err(PyValueError::new_err(format!(
                "faces: {} rows for a walkmesh of {} faces (build a new mesh with Bwm.from_arrays)",
                rows.len(),
                self.inner.faces.len()
            )));
        }
        for (f, r) in self.inner.faces.iter_mut().zip(rows) {
            f.vertices = r;
        }
        self.changed();
        Ok(())
    }

    /// Surface material id per face: ``uint32`` array of shape ``(m,)``.
    #[getter]
    fn get_materials<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let ids: Vec<u32> = self.inner.faces.iter().map(|f| f.material.id()).collect();
        input::to_array(py, ids, &[self.inner.faces.len()])
    }

    #[setter]
    fn set_materials(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let mats = material_ids(value, self.inner.faces.len())?;
        for (f, m) in self.inner.faces.iter_mut().zip(mats) {
            f.material = m;
        }
        self.changed();
        Ok(())
    }

    /// Whether each face is walkable (from its material, stock ``surfacemat.2da``):
    /// ``bool`` array of shape ``(m,)``.
    #[getter]
    fn walkable<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let w: Vec<bool> = self
            .inner
            .faces
            .iter()
            .map(|f| f.material.is_walkable())
            .collect();
        input::to_array(py, w, &[self.inner.faces.len()])
    }

    /// Faces the file counts as walkable (the length of its adjacency table).
    #[getter]
    fn walkable_face_count(&self) -> usize {
        self.inner.walkable_face_count()
    }

    /// The material name of a material id (``"stone"``, ``"other-99"``, ...).
    #[staticmethod]
    fn material_name(id: u32) -> String {
        Material::from_id(id).name().into_owned()
    }

    /// Per-face normals as stored: ``float32`` ``(m, 3)``.
    #[getter]
    fn normals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        input::rows(py, &self.inner.normals)
    }

    /// Per-face planar distances as stored: ``float32`` ``(m,)``.
    #[getter]
    fn distances<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        input::to_array(
            py,
            self.inner.distances.clone(),
            &[self.inner.distances.len()],
        )
    }

    /// Adjacency of the walkable faces: ``int32`` ``(w, 3)``, ``face * 3 + edge`` of the
    /// neighbour across each edge, -1 for none.
    #[getter]
    fn adjacency<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        input::rows(py, &self.inner.adjacency)
    }

    /// Boundary edges: ``int64`` ``(e, 2)``: ``face * 3 + edge`` and the transition (room
    /// index across the edge, -1 for none).
    #[getter]
    fn edges<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rows: Vec<[i64; 2]> = self
            .inner
            .edges
            .iter()
            .map(|e| [i64::from(e.edge), i64::from(e.transition)])
            .collect();
        input::rows(py, &rows)
    }

    /// Perimeter loop ends (1-based indices into ``edges``): ``uint32`` ``(p,)``.
    #[getter]
    fn perimeters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        input::to_array(
            py,
            self.inner.perimeters.clone(),
            &[self.inner.perimeters.len()],
        )
    }

    /// AABB tree boxes: ``float32`` ``(k, 2, 3)`` (min and max per node).
    #[getter]
    fn aabb_bounds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let flat: Vec<f32> = self
            .inner
            .aabb_nodes
            .iter()
            .flat_map(|n| n.min.into_iter().chain(n.max))
            .collect();
        input::to_array(py, flat, &[self.inner.aabb_nodes.len(), 2, 3])
    }

    /// AABB tree links: ``int64`` ``(k, 5)``: face (-1 for an inner node), the unknown
    /// word, the split plane, left and right child (0xFFFFFFFF for none).
    #[getter]
    fn aabb_links<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rows: Vec<[i64; 5]> = self
            .inner
            .aabb_nodes
            .iter()
            .map(|n| {
                [
                    i64::from(n.face),
                    i64::from(n.unknown),
                    i64::from(n.plane),
                    i64::from(n.left),
                    i64::from(n.right),
                ]
            })
            .collect();
        input::rows(py, &rows)
    }

    /// The hook points: ``{"relative_use": ((x,y,z), (x,y,z)), "absolute_use": (...),
    /// "position": (x, y, z)}`` (where a creature stands to use a door or placeable, and the
    /// stored position). Edit them through the properties of the same names.
    #[getter]
    fn hooks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("relative_use", self.relative_use())?;
        d.set_item("absolute_use", self.absolute_use())?;
        d.set_item("position", vec3(self.inner.position))?;
        Ok(d)
    }

    /// The two relative use hooks, ``((x, y, z), (x, y, z))``.
    #[getter]
    fn relative_use(&self) -> (Xyz, Xyz) {
        let r = self.inner.relative_use;
        (vec3(r[0]), vec3(r[1]))
    }

    #[setter]
    fn set_relative_use(&mut self, v: [[f32; 3]; 2]) {
        self.inner.relative_use = v;
    }

    /// The two absolute use hooks, ``((x, y, z), (x, y, z))``.
    #[getter]
    fn absolute_use(&self) -> (Xyz, Xyz) {
        let r = self.inner.absolute_use;
        (vec3(r[0]), vec3(r[1]))
    }

    #[setter]
    fn set_absolute_use(&mut self, v: [[f32; 3]; 2]) {
        self.inner.absolute_use = v;
    }

    /// The stored position ``(x, y, z)``.
    #[getter]
    fn position(&self) -> Xyz {
        vec3(self.inner.position)
    }

    #[setter]
    fn set_position(&mut self, v: [f32; 3]) {
        self.inner.position = v;
    }

    /// ``((min_x, min_y, min_z), (max_x, max_y, max_z))`` of the vertices, or None.
    #[getter]
    fn bounds(&self) -> Option<(Xyz, Xyz)> {
        self.inner.bounds().map(|(a, b)| (vec3(a), vec3(b)))
    }

    /// A new walkmesh with every derived table rebuilt from the vertices, faces and
    /// materials (``areakit rebuild``): normals, planes, walkable-first order, adjacency,
    /// edges (transitions kept), perimeters, AABB tree.
    ///
    /// >>> fixed = wok.rebuild()
    fn rebuild(&self, py: Python<'_>) -> PyResult<Self> {
        let inner = &self.inner;
        let built = py
            .allow_threads(|| walkmesh::rebuild(inner))
            .map_err(errors::mesh_error)?;
        Ok(self.derived(built))
    }

    /// A new walkmesh moved as ``areakit transform`` does: ``mirror`` (``"x"`` or ``"y"``)
    /// first, then ``rotate`` (degrees about z, counter-clockwise; 90° steps exact), then
    /// ``translate`` ``(x, y, z)``; ``remap`` changes edge transitions (``{from: to}``, None
    /// to clear, or the CLI's ``"1=2,3=none"``). Derived tables are rebuilt.
    ///
    /// >>> moved = wok.transform(translate=(10, 0, 0), rotate=90)
    #[pyo3(signature = (translate = None, rotate = None, mirror = None, remap = None))]
    fn transform(
        &self,
        py: Python<'_>,
        translate: Option<[f32; 3]>,
        rotate: Option<f64>,
        mirror: Option<&str>,
        remap: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut steps = Vec::new();
        if let Some(m) = mirror {
            steps.push(Transform::Mirror(crate::errors::choice(m)?));
        }
        if let Some(deg) = rotate {
            if !deg.is_finite() {
                return Err(PyValueError::new_err(
                    "rotate: expected a finite angle in degrees",
                ));
            }
            steps.push(Transform::RotateZ(deg));
        }
        if let Some(t) = translate {
            if t.iter().any(|c| !c.is_finite()) {
                return Err(PyValueError::new_err("translate: expected finite numbers"));
            }
            steps.push(Transform::Translate(t));
        }
        let remap = match remap {
            None => Vec::new(),
            Some(r) if r.is_none() => Vec::new(),
            Some(r) => {
                if let Ok(s) = r.extract::<String>() {
                    walkmesh::parse_remap(&s)
                        .map_err(|e| PyValueError::new_err(format!("remap: {e}")))?
                } else {
                    let map: std::collections::BTreeMap<i32, Option<i32>> = r.extract()?;
                    map.into_iter()
                        .map(|(a, b)| (a, b.filter(|v| *v >= 0)))
                        .collect()
                }
            }
        };
        let inner = &self.inner;
        let out = py
            .allow_threads(|| walkmesh::transform(inner, &steps, &remap))
            .map_err(errors::mesh_error)?;
        Ok(self.derived(out))
    }

    /// The face under ``(x, y)`` seen from above (walkable faces first; with ``z``, the one
    /// nearest that height, else the highest), as ``areakit query --at``.
    ///
    /// With numbers: the face index, or None. With arrays (any shape, all the same): an
    /// ``int64`` array of that shape, -1 where there is no face; computed without the GIL.
    ///
    /// >>> wok.face_at(10.0, 4.5)
    /// 17
    /// >>> wok.face_at(np.array([10.0, 99.0]), np.array([4.5, 99.0]))
    /// array([17, -1])
    #[pyo3(signature = (x, y, z = None))]
    fn face_at<'py>(
        &self,
        py: Python<'py>,
        x: &Bound<'py, PyAny>,
        y: &Bound<'py, PyAny>,
        z: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = self.prepared()?;
        let args = PointArgs::new(x, y, z)?;
        let one = |i: usize| {
            let (x, y, z) = args.at(i);
            p.locator()
                .face_at(x, y, z, FaceFilter::All)
                .map(|h| h.face)
        };
        match &args.shape {
            None => Ok(one(0).into_pyobject(py)?.into_any()),
            Some(shape) => {
                let out: Vec<i64> =
                    py.allow_threads(|| batch(args.n, |i| one(i).map_or(-1, i64::from)));
                input::to_array(py, out, shape)
            }
        }
    }

    /// The walkable height at ``(x, y)``: with ``z``, of the walkable face nearest that
    /// height (bridges over floors), else the highest.
    ///
    /// With numbers: a float, or None off the walkable ground. With arrays: a ``float32``
    /// array, NaN off the ground; computed without the GIL.
    #[pyo3(signature = (x, y, z = None))]
    fn height_at<'py>(
        &self,
        py: Python<'py>,
        x: &Bound<'py, PyAny>,
        y: &Bound<'py, PyAny>,
        z: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = self.prepared()?;
        let args = PointArgs::new(x, y, z)?;
        let one = |i: usize| {
            let (x, y, z) = args.at(i);
            p.locator().height_at(x, y, z).map(|h| h.z)
        };
        match &args.shape {
            None => Ok(one(0).into_pyobject(py)?.into_any()),
            Some(shape) => {
                let out: Vec<f32> =
                    py.allow_threads(|| batch(args.n, |i| one(i).unwrap_or(f32::NAN)));
                input::to_array(py, out, shape)
            }
        }
    }

    /// What ``areakit query --at X,Y [--z Z] --json`` prints: ``{"face", "z", "material",
    /// "walkable"}`` (None values off the mesh).
    #[pyo3(signature = (x, y, z = None))]
    fn query(&self, py: Python<'_>, x: f32, y: f32, z: Option<f32>) -> PyResult<PyObject> {
        let p = self.prepared()?;
        let hit = p.locator().face_at(x, y, z, FaceFilter::All);
        let answer = walkmesh::PointAnswer {
            face: hit.map(|h| h.face),
            z: hit.map(|h| h.z),
            material: hit.and_then(|h| p.materials().get(h.face as usize).copied()),
            walkable: hit.is_some_and(|h| h.walkable),
        };
        input::report_to_py(py, &answer)
    }

    /// The first face hit by a ray (any face, both sides), as ``areakit query --ray``.
    ///
    /// With one origin and direction (3 numbers each): ``{"face", "distance", "point",
    /// "material", "walkable"}`` or None. With ``(n, 3)`` arrays (one of them may be a
    /// single row): a tuple ``(faces int64 (n,), distances float32 (n,), points float32
    /// (n, 3))``, -1 / NaN for misses; computed without the GIL.
    fn raycast<'py>(
        &self,
        py: Python<'py>,
        origin: &Bound<'py, PyAny>,
        direction: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = self.prepared()?;
        let single = |o: &Bound<'py, PyAny>| input::array_f32(o).map(|(_, s)| s == [3]);
        let (so, sd) = (single(origin)?, single(direction)?);
        let origins = input::points(origin, "origin")?;
        let dirs = input::points(direction, "direction")?;
        if so && sd {
            let hit = p.locator().ray(origins[0], dirs[0], FaceFilter::All);
            let Some(h) = hit else {
                return Ok(py.None().into_bound(py));
            };
            let answer = walkmesh::RayAnswer {
                hit: Some(h),
                material: p.materials().get(h.face as usize).copied(),
                walkable: p
                    .materials()
                    .get(h.face as usize)
                    .is_some_and(|m| m.is_walkable()),
            };
            return Ok(input::report_to_py(py, &answer)?.into_bound(py));
        }
        let n = origins.len().max(dirs.len());
        if (origins.len() != n && !so) || (dirs.len() != n && !sd) {
            return Err(PyValueError::new_err(format!(
                "origin has {} rows, direction {}: expected the same number (or one)",
                origins.len(),
                dirs.len()
            )));
        }
        let hits = py.allow_threads(|| {
            batch(n, |i| {
                let o = origins[if so { 0 } else { i }];
                let d = dirs[if sd { 0 } else { i }];
                p.locator().ray(o, d, FaceFilter::All)
            })
        });
        let faces = hits
            .iter()
            .map(|h| h.map_or(-1, |h| i64::from(h.face)))
            .collect();
        let dists = hits
            .iter()
            .map(|h| h.map_or(f32::NAN, |h| h.distance))
            .collect();
        let pts: Vec<[f32; 3]> = hits
            .iter()
            .map(|h| h.map_or([f32::NAN; 3], |h| h.point))
            .collect();
        let t = (
            input::to_array(py, faces, &[n])?,
            input::to_array(py, dists, &[n])?,
            input::rows(py, &pts)?,
        );
        Ok(t.into_pyobject(py)?.into_any())
    }

    /// The nearest point of the walkable surface to ``point``.
    ///
    /// With one point ``(x, y, z)``: ``{"face", "point", "distance"}`` or None (no walkable
    /// face). With an ``(n, 3)`` array: a tuple ``(faces int64 (n,), points float32 (n, 3),
    /// distances float32 (n,))``, -1 / NaN where there is none; computed without the GIL.
    fn nearest_walkable<'py>(
        &self,
        py: Python<'py>,
        point: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = self.prepared()?;
        let single = input::array_f32(point)?.1 == [3];
        let pts = input::points(point, "point")?;
        if single {
            let Some(h) = p.locator().nearest_walkable(pts[0]) else {
                return Ok(py.None().into_bound(py));
            };
            let d = PyDict::new(py);
            d.set_item("face", h.face)?;
            d.set_item("point", vec3(h.point))?;
            d.set_item("distance", h.distance)?;
            return Ok(d.into_any());
        }
        let n = pts.len();
        let hits = py.allow_threads(|| batch(n, |i| p.locator().nearest_walkable(pts[i])));
        let faces = hits
            .iter()
            .map(|h| h.map_or(-1, |h| i64::from(h.face)))
            .collect();
        let points: Vec<[f32; 3]> = hits
            .iter()
            .map(|h| h.map_or([f32::NAN; 3], |h| h.point))
            .collect();
        let dists = hits
            .iter()
            .map(|h| h.map_or(f32::NAN, |h| h.distance))
            .collect();
        let t = (
            input::to_array(py, faces, &[n])?,
            input::rows(py, &points)?,
            input::to_array(py, dists, &[n])?,
        );
        Ok(t.into_pyobject(py)?.into_any())
    }

    /// Everything ``areakit check`` finds in this walkmesh (file-level and geometric
    /// findings): a list of ``Finding``.
    fn check(&self, py: Python<'_>) -> Vec<PyFinding> {
        let inner = &self.inner;
        let found = py.allow_threads(|| walkmesh::check_bwm(inner));
        let path = self.path.as_ref().map(|p| p.display().to_string());
        found
            .into_iter()
            .map(|f| PyFinding::new(path.clone(), f))
            .collect()
    }

    /// What ``areakit info --json`` prints for this walkmesh (a dict).
    fn info(&self, py: Python<'_>) -> PyResult<PyObject> {
        let mut path = self.shown_path();
        if self.path.is_none() {
            path.set_extension(self.kind().name());
        }
        input::report_to_py(py, &areakit_app::info::bwm_report(&path, &self.inner))
    }

    /// A copy.
    fn copy(&self) -> Self {
        PyBwm::new(self.inner.clone(), self.path.clone(), self.kind_hint)
    }

    fn __copy__(&self) -> Self {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.copy()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyBwm>()
            .is_ok_and(|o| o.borrow().inner == self.inner)
    }

    fn __repr__(&self) -> String {
        let walkable = self
            .inner
            .faces
            .iter()
            .filter(|f| f.material.is_walkable())
            .count();
        format!(
            "<Bwm {}: {} vertices, {} faces ({} walkable), {} edges{}>",
            self.kind().name(),
            self.inner.vertices.len(),
            self.inner.faces.len(),
            walkable,
            self.inner.edges.len(),
            self.path.as_ref().map_or(String::new(), |p| format!(
                ", from {:?}",
                p.display().to_string()
            ))
        )
    }
}

/// `f(0..n)` in order: on rayon's threads for large batches (the caller has released the
/// GIL), in this thread for small ones.
fn batch<T: Send>(n: usize, f: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
    use rayon::prelude::*;
    if n < 4096 {
        return (0..n).map(f).collect();
    }
    (0..n).into_par_iter().with_min_len(2048).map(f).collect()
}

/// `(m, 3)` vertex indices, each below `vertex_count`.
fn face_rows(obj: &Bound<'_, PyAny>, vertex_count: usize) -> PyResult<Vec<[u32; 3]>> {
    let flat = input::array_i64(obj, Some(3), "faces")?;
    let mut out = Vec::with_capacity(flat.len() / 3);
    for (i, c) in flat.chunks_exact(3).enumerate() {
        let mut r = [0u32; 3];
        for k in 0..3 {
            r[k] = u32::try_from(c[k])
                .ok()
                .filter(|v| (*v as usize) < vertex_count)
                .ok_or_else(|| {
                    PyIndexError::new_err(format!(
                        "faces[{i}][{k}] = {}: expected a vertex index in 0..{vertex_count}",
                        c[k]
                    ))
                })?;
        }
        out.push(r);
    }
    Ok(out)
}

/// `(m,)` material ids.
fn material_ids(obj: &Bound<'_, PyAny>, faces: usize) -> PyResult<Vec<Material>> {
    let ids = input::array_i64(obj, None, "materials")?;
    if ids.len() != faces {
        return Err(PyValueError::new_err(format!(
            "materials: {} values for {faces} faces",
            ids.len()
        )));
    }
    ids.iter()
        .enumerate()
        .map(|(i, &v)| {
            u32::try_from(v).map(Material::from_id).map_err(|_| {
                PyValueError::new_err(format!("materials[{i}] = {v}: expected an id in 0..2**32"))
            })
        })
        .collect()
}

/// Registers the class.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBwm>()
}
