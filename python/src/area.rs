//! `areakit.Area` (a layout, its visibility and room walkmeshes), `PathResult`,
//! `areakit.path` and `areakit.paths` (the engine of `areakit path` and `path --pairs`).

use std::path::PathBuf;
use std::sync::Mutex;

use areakit_app::geometry::nav::Endpoint;
use areakit_app::module::Module;
use areakit_app::navigate::{PathContext, PathRequest, Precompute};
use areakit_app::navigation::{PathMode, PathOutcome};
use areakit_app::request::Distance;
use areakit_app::{Session, Sources};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::bwm::PyBwm;
use crate::check::PyFinding;
use crate::text::{PyLyt, PyVis};
use crate::{errors, input};

fn parse_mode(mode: &str) -> PyResult<PathMode> {
    errors::choice(mode)
}

fn distance(v: f32, what: &str) -> PyResult<Distance> {
    Distance::named(what, v).map_err(errors::lib_error)
}

/// A point `(x, y)` or `(x, y, z)` (z: which floor where floors overlap).
fn endpoint(p: Vec<f32>, what: &str) -> PyResult<Endpoint> {
    if !(2..=3).contains(&p.len()) || p.iter().any(|c| !c.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "{what}: expected (x, y) or (x, y, z) of finite numbers"
        )));
    }
    Ok(Endpoint {
        x: p[0],
        y: p[1],
        z: p.get(2).copied(),
    })
}

/// The pairs of a batch: a sequence of ``(start, goal)``, each ``(x, y)`` or ``(x, y, z)``
/// (tuples, lists or NumPy rows); an error names the pair.
fn endpoint_pairs(pairs: &Bound<'_, PyAny>) -> PyResult<Vec<(Endpoint, Endpoint)>> {
    if pairs.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyValueError::new_err(
            "pairs: expected a sequence of (start, goal) pairs, not a string",
        ));
    }
    let mut out = Vec::new();
    for (i, item) in pairs.try_iter()?.enumerate() {
        let item = item?;
        let ends: Vec<Vec<f32>> = item.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "pairs[{i}]: expected (start, goal), each (x, y) or (x, y, z)"
            ))
        })?;
        let [start, goal] = <[Vec<f32>; 2]>::try_from(ends).map_err(|e| {
            PyValueError::new_err(format!(
                "pairs[{i}]: expected (start, goal), found {} item(s)",
                e.len()
            ))
        })?;
        out.push((
            endpoint(start, &format!("pairs[{i}] start"))?,
            endpoint(goal, &format!("pairs[{i}] goal"))?,
        ));
    }
    Ok(out)
}

/// The optional precomputation of a batch (`landmarks`, `corner_graph` as on the command line).
fn precompute(landmarks: usize, corner_graph: &str) -> PyResult<Precompute> {
    let corner_graph = errors::choice(corner_graph)?;
    Precompute::new(landmarks, corner_graph).map_err(errors::lib_error)
}

/// The answer of a path query: ``found``, ``length`` (plan metres), ``length_3d``,
/// ``points`` (``float32`` ``(k, 3)`` turning points), ``rooms`` passed, ``faces_visited``,
/// ``mode``, ``reason`` (why none was found), ``notes``; ``to_dict()`` is exactly the object
/// ``areakit path --json`` prints.
#[pyclass(module = "areakit", name = "PathResult", frozen)]
pub struct PyPathResult {
    outcome: PathOutcome,
}

#[pymethods]
impl PyPathResult {
    /// Whether a path was found.
    #[getter]
    fn found(&self) -> bool {
        self.outcome.found()
    }

    /// Plan length in metres (0 when none).
    #[getter]
    fn length(&self) -> f32 {
        self.outcome.length()
    }

    /// Length along the ground in metres, or None.
    #[getter]
    fn length_3d(&self) -> Option<f32> {
        self.outcome.path.as_ref().map(|p| p.length_3d)
    }

    /// Turning points: ``float32`` ``(k, 3)`` (empty when none).
    #[getter]
    fn points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pts: Vec<[f32; 3]> = self.outcome.path.as_ref().map_or_else(Vec::new, |p| {
            p.points.iter().map(|q| q.to_array()).collect()
        });
        input::rows(py, &pts)
    }

    /// Rooms passed, in order.
    #[getter]
    fn rooms(&self) -> Vec<String> {
        self.outcome.rooms.clone()
    }

    /// Search effort.
    #[getter]
    fn faces_visited(&self) -> usize {
        self.outcome.faces_visited
    }

    /// The mode that answered.
    #[getter]
    fn mode(&self) -> &'static str {
        self.outcome.mode.name()
    }

    /// Why no path was found, or None.
    #[getter]
    fn reason(&self) -> Option<String> {
        self.outcome.reason.clone()
    }

    /// Remarks on a found path.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.outcome.notes.clone()
    }

    /// The object ``areakit path --json`` prints.
    fn to_dict(&self, py: Python<'_>) -> PyResult<PyObject> {
        input::report_to_py(py, &self.outcome)
    }

    fn __bool__(&self) -> bool {
        self.outcome.found()
    }

    fn __repr__(&self) -> String {
        match &self.outcome.path {
            Some(p) => format!(
                "<PathResult found: {:.3} m, {} points, rooms {:?}, mode {}>",
                p.length_plan,
                p.points.len(),
                self.outcome.rooms,
                self.outcome.mode.name()
            ),
            None => format!(
                "<PathResult not found: {}>",
                self.outcome.reason.as_deref().unwrap_or("?")
            ),
        }
    }
}

/// The path context of an area (its ground, its module's placed objects as blockers), built
/// for one radius and kept for the next query.
struct NavCache {
    radius: Distance,
    ctx: PathContext,
}

/// A KotOR area: a layout (LYT), its visibility (VIS) and one walkmesh per room, with its
/// module (the IFO, ARE and GIT placeables and doors) where the input holds one, opened as
/// ``areakit check``/``path``/``render`` open it.
///
/// >>> area = areakit.Area.open("modules/m13aa")      # a folder or a .lyt file
/// >>> area = areakit.Area.open("m13aa.mod")          # a capsule, or "x.mod/m13aa.lyt"
/// >>> area = areakit.Area.open(None, game="~/kotor", module="danm13")
/// >>> [r["name"] for r in area.rooms]
/// >>> area.path((1.5, 1.5), (18.5, 16.5)).length
#[pyclass(module = "areakit", name = "Area")]
pub struct PyArea {
    module: Module,
    session: Session,
    source: PathBuf,
    nav: Mutex<Option<NavCache>>,
}

#[pymethods]
impl PyArea {
    /// Opens an area: a ``.lyt`` file or a folder holding one (with the module resources
    /// beside it), a capsule (``.mod``, ``.rim``, ``.erf``) or a LYT inside one
    /// (``"x.mod/m13aa.lyt"``); with ``game`` (a game folder) and ``module``, a LYT resource
    /// of the game or, with ``path`` None, the module's entry area. A LYT that does not
    /// decode raises ``FormatError``; missing or invalid room walkmeshes are reported by
    /// ``check()`` (and in ``rooms``), not raised.
    #[staticmethod]
    #[pyo3(signature = (path, game = None, module = None))]
    fn open(
        py: Python<'_>,
        path: Option<PathBuf>,
        game: Option<PathBuf>,
        module: Option<String>,
    ) -> PyResult<Self> {
        let (session, module) = py
            .allow_threads(|| {
                let session = Session::open(Sources {
                    game,
                    module,
                    capsules: Vec::new(),
                })?;
                let module = areakit_app::input::open_module(&session, path.as_deref())?
                    .ok_or_else(|| {
                        areakit_app::Error::usage(format!(
                            "{}: not an area (expected a LYT, a folder, a capsule or a LYT inside one)",
                            path.as_deref().unwrap_or(std::path::Path::new("")).display()
                        ))
                    })?;
                Ok::<_, areakit_app::Error>((session, module))
            })
            .map_err(errors::lib_error)?;
        crate::input::warn_notes(py, session.notes())?;
        let source = path.unwrap_or_else(|| module.area.lyt_path.clone());
        Ok(PyArea {
            module,
            session,
            source,
            nav: Mutex::new(None),
        })
    }

    /// The placeables and doors of the module's GIT that have a walkmesh (blockers of
    /// ``path``): ``[{"kind", "model", "tag", "position"}, ...]``.
    #[getter]
    fn objects<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, pyo3::types::PyDict>>> {
        self.module
            .placed()
            .into_iter()
            .map(|(o, _)| {
                let d = pyo3::types::PyDict::new(py);
                d.set_item("kind", o.kind.name())?;
                d.set_item("model", &o.model)?;
                d.set_item("tag", &o.tag)?;
                d.set_item("position", (o.position[0], o.position[1], o.position[2]))?;
                Ok(d)
            })
            .collect()
    }

    /// The area's resref (the LYT file name without extension).
    #[getter]
    fn resref(&self) -> String {
        self.module.area.resref.clone()
    }

    /// The LYT file.
    #[getter]
    fn lyt_path(&self) -> String {
        self.module.area.lyt_path.display().to_string()
    }

    /// The layout.
    #[getter]
    fn lyt(&self) -> PyLyt {
        PyLyt::wrap(
            self.module.area.lyt.clone(),
            Some(self.module.area.lyt_path.clone()),
        )
    }

    /// The visibility, or None (no VIS file, or one that does not decode).
    #[getter]
    fn vis(&self) -> Option<PyVis> {
        self.module
            .area
            .vis
            .clone()
            .map(|v| PyVis::wrap(v, self.module.area.vis_path.clone()))
    }

    /// What ``areakit info --json`` gives of the area under ``"area"``: its rooms with their
    /// positions, walkmeshes, links and VIS entries, the LYT's door hooks, the GIT's doors and
    /// placeables, the VIS pairs, the walkable bounds, the entry point and what could not be
    /// read (a dict).
    fn info(&self, py: Python<'_>) -> PyResult<PyObject> {
        crate::input::report_to_py(py, &areakit_app::info::area_info(&self.module))
    }

    /// The rooms in LYT order (the index is the transition number): ``[{"name",
    /// "position", "wok_path", "walkmesh" (a Bwm, or None), "error"}, ...]``.
    #[getter]
    fn rooms<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, pyo3::types::PyDict>>> {
        self.module
            .area
            .rooms
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let d = pyo3::types::PyDict::new(py);
                d.set_item("name", &r.name)?;
                let pos = self
                    .module
                    .area
                    .lyt
                    .rooms
                    .get(i)
                    .map(|p| (p.position[0], p.position[1], p.position[2]));
                d.set_item("position", pos)?;
                d.set_item(
                    "wok_path",
                    r.wok_path.as_ref().map(|p| p.display().to_string()),
                )?;
                let wok = r
                    .wok
                    .clone()
                    .map(|w| PyBwm::new(w, r.wok_path.clone(), None));
                d.set_item("walkmesh", wok)?;
                d.set_item("error", r.wok_error.clone())?;
                Ok(d)
            })
            .collect()
    }

    /// Room links: boundary edges of a room's walkmesh leading into another room,
    /// ``[{"from", "to", "edge_index", "face", "side", "segment"}, ...]`` (room indices;
    /// ``segment``: the edge's end points, or None).
    #[getter]
    fn links<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, pyo3::types::PyDict>>> {
        self.module
            .area
            .links()
            .into_iter()
            .map(|l| {
                let d = pyo3::types::PyDict::new(py);
                d.set_item("from", l.from)?;
                d.set_item("to", l.to)?;
                d.set_item("edge_index", l.edge_index)?;
                d.set_item("face", l.face)?;
                d.set_item("side", l.side)?;
                d.set_item("segment", l.segment.map(|s| (s[0].to_vec(), s[1].to_vec())))?;
                Ok(d)
            })
            .collect()
    }

    /// The shortest walk from ``start`` to ``goal`` (``(x, y)`` or ``(x, y, z)``), as
    /// ``areakit path AREA``: rooms joined along their shared edges; ``mode`` one of
    /// ``areakit.CHOICES["mode"]`` (the command line's ``--mode``); ``radius``
    /// keeps a creature's distance from walls; ``snap`` is how far an end off the ground may
    /// move onto it. The navigation mesh is built on the first query (per radius) and kept.
    /// Runs without the GIL.
    ///
    /// >>> r = area.path((1.5, 1.5), (18.5, 16.5), radius=0.35)
    /// >>> r.found, r.length, r.rooms
    #[pyo3(signature = (start, goal, mode = "optimal", radius = 0.0, snap = 1.0))]
    fn path(
        &self,
        py: Python<'_>,
        start: Vec<f32>,
        goal: Vec<f32>,
        mode: &str,
        radius: f32,
        snap: f32,
    ) -> PyResult<PyPathResult> {
        let from = endpoint(start, "start")?;
        let to = endpoint(goal, "goal")?;
        let mode = parse_mode(mode)?;
        let radius = distance(radius, "radius")?;
        let snap = distance(snap, "snap")?;
        let outcome = py.allow_threads(|| {
            self.with_context(radius, snap, mode, |ctx| {
                ctx.ensure_mode(mode)?;
                // One query: searched as a single `areakit path` is (not by what an
                // earlier `paths` built).
                ctx.precompute_for(Precompute::default(), mode, &[(from, to)]);
                Ok(ctx.find_with(from, to, mode, snap))
            })
        });
        let outcome = outcome.map_err(errors::lib_error)?;
        Ok(PyPathResult { outcome })
    }

    /// Many walks at once, as ``areakit path AREA --pairs FILE``: ``pairs`` is a sequence of
    /// ``(start, goal)``, each ``(x, y)`` or ``(x, y, z)``; returns one ``PathResult`` per
    /// pair, in order, each what ``path`` answers for that pair alone. The pairs are answered
    /// on all cores, without the GIL; the options are those of ``path``.
    ///
    /// ``landmarks`` and ``corner_graph`` (``"auto"``, ``"yes"``, ``"no"``) are the
    /// precomputation of ``areakit path --landmarks N --corner-graph WHEN``, built once and
    /// kept with the navigation data.
    ///
    /// >>> rs = area.paths([((1.5, 1.5), (18.5, 16.5)), ((2, 2), (9, 4))], radius=0.35)
    /// >>> [r.length for r in rs]
    #[pyo3(signature = (pairs, mode = "optimal", radius = 0.0, snap = 1.0, landmarks = 0, corner_graph = "auto"))]
    #[allow(clippy::too_many_arguments)]
    fn paths(
        &self,
        py: Python<'_>,
        pairs: &Bound<'_, PyAny>,
        mode: &str,
        radius: f32,
        snap: f32,
        landmarks: usize,
        corner_graph: &str,
    ) -> PyResult<Vec<PyPathResult>> {
        let pairs = endpoint_pairs(pairs)?;
        let pre = precompute(landmarks, corner_graph)?;
        let mode = parse_mode(mode)?;
        let radius = distance(radius, "radius")?;
        let snap = distance(snap, "snap")?;
        let outcomes = py.allow_threads(|| {
            self.with_context(radius, snap, mode, |ctx| {
                ctx.ensure_mode(mode)?;
                ctx.precompute_for(pre, mode, &pairs);
                Ok(ctx.find_many_with(&pairs, mode, snap))
            })
        });
        let outcomes = outcomes.map_err(errors::lib_error)?;
        Ok(outcomes
            .into_iter()
            .map(|outcome| PyPathResult { outcome })
            .collect())
    }

    /// Sets every room link (WOK transition) from geometry, as ``areakit relink AREA -o
    /// OUTPUT``: walkable boundary edges of two rooms that coincide (within ``tolerance``
    /// metres, in 3-D) link to each other; stale and one-way links are cleared. Writes the
    /// area's WOKs (unchanged ones byte for byte), LYT and VIS to the folder ``output`` and
    /// returns the report (``changes``: room, face, side, from, to). Runs without the GIL.
    ///
    /// >>> area.relink("fixed/")["changes"]
    #[pyo3(signature = (output, tolerance = 0.1))]
    fn relink(&self, py: Python<'_>, output: PathBuf, tolerance: f32) -> PyResult<PyObject> {
        let report = py
            .allow_threads(|| {
                areakit_app::relink::relink(
                    &self.session,
                    &self.source,
                    &output,
                    &areakit_app::relink::RelinkOptions { tolerance },
                )
            })
            .map_err(errors::lib_error)?;
        report_to_py(py, &report)
    }

    /// Generates the area's visibility from its geometry, as ``areakit vis generate``: rooms
    /// are cells and the openings of their models' shells portals; a pair is listed when a
    /// line can pass from one room to the other through a sequence of portals
    /// (``docs/vis.md``), so no sample spacing enters the result. Linked rooms always see each
    /// other. Without room models every room sees every other, or with ``fallback_depth`` the
    /// rooms at most that many links apart (``--depth``, with a warning). ``spacing``
    /// (metres, ``--spacing``) adds a sampled check that confirms pairs (reported as
    /// ``pairs_without_sampled_line``; it never removes one). Returns the report
    /// (``method``, ``pairs``, ``warnings``, ...) with ``vis`` a ``Vis``; ``output`` also
    /// writes it. Runs without the GIL.
    ///
    /// >>> area.generate_vis()["vis"].visible_from("m13aa_01a")
    #[pyo3(signature = (output = None, eye_height = 1.7, fallback_depth = None, spacing = None))]
    fn generate_vis(
        &self,
        py: Python<'_>,
        output: Option<PathBuf>,
        eye_height: f32,
        fallback_depth: Option<usize>,
        spacing: Option<f32>,
    ) -> PyResult<PyObject> {
        let defaults = areakit_app::visibility::VisOptions::default();
        let step = spacing.unwrap_or(defaults.eye_spacing);
        let opts = areakit_app::visibility::VisOptions {
            eye_height,
            fallback_depth,
            confirm: spacing.is_some(),
            eye_spacing: step,
            target_spacing: step,
            ..defaults
        };
        let (vis, report) = py
            .allow_threads(|| match &output {
                Some(out) => {
                    areakit_app::visibility::generate(&self.session, &self.source, out, &opts)
                        .map(|r| (r.result.vis.clone(), serde_json::to_value(&r)))
                }
                None => areakit_app::visibility::compute(&self.session, &self.source, &opts)
                    .map(|(_, _, r)| (r.vis.clone(), serde_json::to_value(&r))),
            })
            .map_err(errors::lib_error)?;
        let report = report.map_err(|e| PyValueError::new_err(e.to_string()))?;
        let d = input::json_to_py(py, &report)?;
        d.bind(py)
            .set_item("vis", PyVis::wrap(vis, output.clone()).into_pyobject(py)?)?;
        Ok(d)
    }

    /// Draws the area's map as ``areakit render AREA -o OUTPUT``: ``output`` ends in ``.svg``
    /// or ``.png``, ``size`` pixels on the longer side; the walkmeshes, room models, GIT doors
    /// and placeables (a door without its DWK as a slab across its doorway), and with
    /// ``findings`` the findings of ``check``. Returns the notes (paths not found). Runs
    /// without the GIL.
    ///
    /// >>> area.render("map.png", size=800)
    #[pyo3(signature = (output, size = 1024, findings = false))]
    fn render(
        &self,
        py: Python<'_>,
        output: PathBuf,
        size: u32,
        findings: bool,
    ) -> PyResult<Vec<String>> {
        py.allow_threads(|| {
            areakit_app::picture::render_file(
                &self.session,
                &self.source,
                &output,
                findings,
                size,
                &areakit_app::picture::Overlays::default(),
            )
        })
        .map_err(errors::lib_error)
    }

    /// Draws the area's minimap as ``areakit minimap AREA -o OUTPUT``: a TGA of the walkable
    /// ground, and the ARE map block that places it (``report["map"]``); with ``are_out``,
    /// the ARE (``are``, else the module's own) written with that block. ``tsl`` computes the
    /// block for KotOR 2's map screen. Returns the report (``coverage``: the share of walkable
    /// samples the block puts on drawn pixels). Runs without the GIL.
    ///
    /// >>> area.minimap("lbl_mapmymod.tga", are_out="mymod.are")["coverage"]
    #[pyo3(signature = (output, are = None, are_out = None, width = 512, height = 256, tsl = false))]
    #[allow(clippy::too_many_arguments)]
    fn minimap(
        &self,
        py: Python<'_>,
        output: PathBuf,
        are: Option<PathBuf>,
        are_out: Option<PathBuf>,
        width: u32,
        height: u32,
        tsl: bool,
    ) -> PyResult<PyObject> {
        use areakit_app::minimap::{Game, MinimapOptions};
        let opts = MinimapOptions {
            width,
            height,
            game: if tsl { Game::K2 } else { Game::K1 },
            ..MinimapOptions::default()
        };
        let report = py
            .allow_threads(|| {
                areakit_app::minimap::minimap(
                    &self.session,
                    &self.source,
                    &output,
                    are.as_deref(),
                    are_out.as_deref(),
                    &opts,
                )
            })
            .map_err(errors::lib_error)?;
        report_to_py(py, &report)
    }

    /// Everything ``areakit check`` finds in the area (LYT, VIS, room walkmeshes, links,
    /// navigation): a list of ``Finding``.
    fn check(&self, py: Python<'_>) -> PyResult<Vec<PyFinding>> {
        let lyt = self.module.area.lyt_path.clone();
        Ok(crate::check::findings_of(crate::check::run_check(
            py,
            &self.session,
            &[lyt],
            None,
        )?))
    }

    fn __repr__(&self) -> String {
        let with_wok = self
            .module
            .area
            .rooms
            .iter()
            .filter(|r| r.wok.is_some())
            .count();
        format!(
            "<Area {}: {} rooms ({} with a walkmesh), {}>",
            self.module.area.resref,
            self.module.area.rooms.len(),
            with_wok,
            if self.module.area.vis.is_some() {
                "VIS"
            } else {
                "no VIS"
            }
        )
    }
}

impl PyArea {
    /// Runs `f` on the area's path context for `radius`, built on first use (the same
    /// context `areakit path` builds for this area: its ground and its module's placed
    /// objects) and kept for the next query.
    fn with_context<T>(
        &self,
        radius: Distance,
        snap: Distance,
        mode: PathMode,
        f: impl FnOnce(&mut PathContext) -> Result<T, areakit_app::Error>,
    ) -> Result<T, areakit_app::Error> {
        let mut guard = self.nav.lock().unwrap_or_else(|e| e.into_inner());
        if guard.as_ref().is_none_or(|c| c.radius != radius) {
            let req = PathRequest {
                input: &self.source,
                objects: None,
                radius,
                snap,
                mode,
            };
            let ctx = PathContext::from_parts(
                &self.session,
                self.module.nav_source(),
                self.module.placed(),
                &req,
            )?;
            *guard = Some(NavCache { radius, ctx });
        }
        let Some(c) = guard.as_mut() else {
            return Err(areakit_app::Error::usage("no navigation data"));
        };
        f(&mut c.ctx)
    }
}

/// The shortest walk over a walkmesh, an area or an NWN2 terrain file, exactly as
/// ``areakit path SOURCE --from X,Y --to X,Y`` (same options): ``source`` is a ``.wok``,
/// a ``.lyt`` or area folder, or a ``.trx``/``.trn``; ``objects`` a JSON file of placed
/// objects (``docs/navigation.md``); ``mode`` ``"baked"`` follows a TRX's own path tables.
/// Runs without the GIL.
///
/// >>> areakit.path("modules/m13aa", (1.5, 1.5), (18.5, 16.5), radius=0.35).points
#[pyfunction]
#[pyo3(signature = (source, start, goal, mode = "optimal", radius = 0.0, snap = 1.0, objects = None))]
#[allow(clippy::too_many_arguments)]
fn path(
    py: Python<'_>,
    source: PathBuf,
    start: Vec<f32>,
    goal: Vec<f32>,
    mode: &str,
    radius: f32,
    snap: f32,
    objects: Option<PathBuf>,
) -> PyResult<PyPathResult> {
    let from = endpoint(start, "start")?;
    let to = endpoint(goal, "goal")?;
    let mode = parse_mode(mode)?;
    let (radius, snap) = (distance(radius, "radius")?, distance(snap, "snap")?);
    let outcome = py
        .allow_threads(|| {
            let req = PathRequest {
                input: &source,
                objects: objects.as_deref(),
                radius,
                snap,
                mode,
            };
            PathContext::open(&Session::files_only(), &req).map(|mut c| c.find(from, to))
        })
        .map_err(errors::lib_error)?;
    Ok(PyPathResult { outcome })
}

/// Many walks over one walkmesh, area or NWN2 terrain file, exactly as ``areakit path SOURCE
/// --pairs FILE`` (same options as ``path``): ``pairs`` is a sequence of ``(start, goal)``,
/// each ``(x, y)`` or ``(x, y, z)``. The navigation data is built once; the pairs are answered
/// on all cores, without the GIL. Returns one ``PathResult`` per pair, in order.
///
/// ``landmarks`` and ``corner_graph`` are ``--landmarks N --corner-graph WHEN``.
///
/// >>> rs = areakit.paths("m13aa_01a.wok", [((10, 2), (14, 9)), ((3, 3), (12, 4))], mode="fast")
#[pyfunction]
#[pyo3(signature = (source, pairs, mode = "optimal", radius = 0.0, snap = 1.0, objects = None, landmarks = 0, corner_graph = "auto"))]
#[allow(clippy::too_many_arguments)]
fn paths(
    py: Python<'_>,
    source: PathBuf,
    pairs: &Bound<'_, PyAny>,
    mode: &str,
    radius: f32,
    snap: f32,
    objects: Option<PathBuf>,
    landmarks: usize,
    corner_graph: &str,
) -> PyResult<Vec<PyPathResult>> {
    let pairs = endpoint_pairs(pairs)?;
    let pre = precompute(landmarks, corner_graph)?;
    let mode = parse_mode(mode)?;
    let (radius, snap) = (distance(radius, "radius")?, distance(snap, "snap")?);
    let outcomes = py
        .allow_threads(|| {
            let req = PathRequest {
                input: &source,
                objects: objects.as_deref(),
                radius,
                snap,
                mode,
            };
            PathContext::open(&Session::files_only(), &req).map(|mut c| {
                c.precompute(pre, &pairs);
                c.find_many(&pairs)
            })
        })
        .map_err(errors::lib_error)?;
    Ok(outcomes
        .into_iter()
        .map(|outcome| PyPathResult { outcome })
        .collect())
}

/// A report's JSON serialisation (the CLI's ``--json``) as Python objects.
fn report_to_py(py: Python<'_>, report: &impl serde::Serialize) -> PyResult<PyObject> {
    let v = serde_json::to_value(report).map_err(|e| PyValueError::new_err(e.to_string()))?;
    input::json_to_py(py, &v)
}

/// Builds a module from a layout, as ``areakit build LAYOUT -o OUTPUT``: ``layout`` is a
/// Holocron Toolset ``.indoor`` file or areakit's layout JSON (``docs/build.md``), ``kits``
/// the folder of Holocron kits, ``output`` a folder or a ``.mod``; ``game`` (a game folder)
/// lets rooms name game resources. The module is checked before it is put in place; nothing
/// half-built is left. Returns the report (rooms, connections, entry, VIS pairs, minimap
/// coverage, warnings, check counts). Runs without the GIL.
///
/// >>> areakit.build("my.indoor", "mymod.mod", kits="kits")["check"]["errors"]
/// 0
#[pyfunction]
#[pyo3(signature = (layout, output, kits = None, game = None, force = false))]
fn build(
    py: Python<'_>,
    layout: PathBuf,
    output: PathBuf,
    kits: Option<PathBuf>,
    game: Option<PathBuf>,
    force: bool,
) -> PyResult<PyObject> {
    let report = py
        .allow_threads(|| {
            let session = Session::open(Sources {
                game,
                module: None,
                capsules: Vec::new(),
            })?;
            let notes = session.notes().to_vec();
            areakit_app::build::build(
                &session,
                &layout,
                &output,
                &areakit_app::build::BuildOptions { kits, force },
            )
            .map(|r| (notes, r))
        })
        .map_err(errors::lib_error)?;
    let (notes, report) = report;
    crate::input::warn_notes(py, &notes)?;
    report_to_py(py, &report)
}

/// Registers the classes and `path`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyArea>()?;
    m.add_class::<PyPathResult>()?;
    m.add_function(wrap_pyfunction!(path, m)?)?;
    m.add_function(wrap_pyfunction!(paths, m)?)?;
    m.add_function(wrap_pyfunction!(build, m)?)
}
