//! `areakit.check(paths)` and `Finding`: the engine of `areakit check`.

use std::path::PathBuf;

use areakit_app::Session;
use areakit_app::formats::{Finding, Severity};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors;

/// One finding of a check: ``severity`` (``"error"``/``"warning"``), a stable ``code``
/// (the CLI's codes, listed in ``docs/checks.md``), a ``message``, the ``path`` it is about,
/// and where: ``offset`` (binary), ``line``/``column`` (text), ``room``, ``face``, ``edge``,
/// ``position``, ``item`` — None where they do not apply.
///
/// >>> for f in areakit.check(["modules/m13aa"]):
/// ...     print(f.severity, f.code, f.path, f.face, f.message)
#[pyclass(module = "areakit", name = "Finding", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyFinding {
    path: Option<String>,
    finding: Finding,
}

impl PyFinding {
    /// A finding about `path`.
    pub fn new(path: Option<String>, finding: Finding) -> Self {
        PyFinding { path, finding }
    }
}

#[pymethods]
impl PyFinding {
    /// The file (or area: its LYT) the finding is about, as ``areakit check`` prints it, or
    /// None for a model in memory.
    #[getter]
    fn path(&self) -> Option<String> {
        self.path.clone()
    }

    /// For a finding of an area check: the file of the area it is in (``m13aa.vis``), or None.
    #[getter]
    fn file(&self) -> Option<String> {
        self.finding.place.file.clone()
    }

    /// ``"error"`` or ``"warning"``.
    #[getter]
    fn severity(&self) -> &'static str {
        self.finding.severity.name()
    }

    /// The stable code (``"invalid-file"``, ``"bwm-adjacency-mismatch"``, ...).
    #[getter]
    fn code(&self) -> String {
        self.finding.code.to_string()
    }

    /// What is wrong.
    #[getter]
    fn message(&self) -> String {
        self.finding.message.clone()
    }

    /// Byte offset in the file, or None.
    #[getter]
    fn offset(&self) -> Option<u64> {
        self.finding.place.offset
    }

    /// 1-based line, or None.
    #[getter]
    fn line(&self) -> Option<u32> {
        self.finding.place.line
    }

    /// 1-based column, or None.
    #[getter]
    fn column(&self) -> Option<u32> {
        self.finding.place.column
    }

    /// Room name, or None.
    #[getter]
    fn room(&self) -> Option<String> {
        self.finding.place.room.clone()
    }

    /// Face index, or None.
    #[getter]
    fn face(&self) -> Option<u32> {
        self.finding.place.face
    }

    /// Edge, or None.
    #[getter]
    fn edge(&self) -> Option<u32> {
        self.finding.place.edge
    }

    /// A position ``(x, y, z)``, or None.
    #[getter]
    fn position(&self) -> Option<(f32, f32, f32)> {
        self.finding.place.position.map(|p| (p[0], p[1], p[2]))
    }

    /// A path into the model (``faces[12].adjacency[1]``), or None.
    #[getter]
    fn item(&self) -> Option<String> {
        self.finding.place.item.clone()
    }

    /// Whether the severity is ``"error"``.
    #[getter]
    fn is_error(&self) -> bool {
        self.finding.severity == Severity::Error
    }

    /// The finding as the dict ``areakit check --json`` prints (keys that apply only).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("path", self.path())?;
        d.set_item("severity", self.severity())?;
        d.set_item("code", self.code())?;
        d.set_item("message", self.message())?;
        let p = &self.finding.place;
        if let Some(v) = &p.file {
            d.set_item("file", v)?;
        }
        if let Some(v) = p.offset {
            d.set_item("offset", v)?;
        }
        if let Some(v) = p.line {
            d.set_item("line", v)?;
        }
        if let Some(v) = p.column {
            d.set_item("column", v)?;
        }
        if let Some(v) = &p.room {
            d.set_item("room", v)?;
        }
        if let Some(v) = p.face {
            d.set_item("face", v)?;
        }
        if let Some(v) = p.edge {
            d.set_item("edge", v)?;
        }
        if let Some(v) = p.position {
            d.set_item("position", v.to_vec())?;
        }
        if let Some(v) = &p.item {
            d.set_item("item", v)?;
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let place = self.finding.place.to_string();
        format!(
            "<Finding {}[{}] {}{}: {}>",
            self.finding.severity,
            self.finding.code,
            self.path().unwrap_or_else(|| "<memory>".into()),
            if place.is_empty() {
                String::new()
            } else {
                format!(":{place}")
            },
            self.finding.message
        )
    }

    fn __str__(&self) -> String {
        let place = self.finding.place.to_string();
        format!(
            "{}{}: {}[{}]: {}",
            self.path().unwrap_or_else(|| "<memory>".into()),
            if place.is_empty() {
                String::new()
            } else {
                format!(":{place}")
            },
            self.finding.severity,
            self.finding.code,
            self.finding.message
        )
    }
}

/// Checks files and folders as ``areakit check`` does (the same engine: areas — each LYT
/// with its VIS and room WOKs — then every other file of a known format, recursively) and
/// returns every finding, in path order. A file that does not decode is an
/// ``invalid-file`` finding; a path that does not exist raises ``OSError``. Runs without
/// the GIL, on ``jobs`` threads (default: one per core).
///
/// >>> findings = areakit.check(["modules/m13aa"])
/// >>> [f.code for f in findings if f.is_error]
/// []
#[pyfunction]
#[pyo3(signature = (paths, jobs = None))]
fn check(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    jobs: Option<usize>,
) -> PyResult<Vec<PyFinding>> {
    let paths = path_list(paths)?;
    Ok(findings_of(run_check(
        py,
        &Session::files_only(),
        &paths,
        jobs,
    )?))
}

/// Runs the CLI's check on `paths` without the GIL.
pub fn run_check(
    py: Python<'_>,
    session: &Session,
    paths: &[PathBuf],
    jobs: Option<usize>,
) -> PyResult<areakit_app::report::Report> {
    let run = areakit_app::check::CheckRun {
        jobs,
        progress: None,
    };
    py.allow_threads(|| areakit_app::check::check_paths_with(session, paths, &run))
        .map_err(errors::lib_error)
}

/// The findings of a report, each with the path the CLI prints.
pub fn findings_of(report: areakit_app::report::Report) -> Vec<PyFinding> {
    report
        .findings
        .into_iter()
        .map(|f| PyFinding::new(Some(f.path.display().to_string()), f.finding))
        .collect()
}

/// ``areakit.check`` with the whole report, exactly the object ``areakit check --json``
/// prints: ``{"files_checked", "errors", "warnings", "findings": [...], "io_errors": [...]}``.
#[pyfunction]
#[pyo3(signature = (paths, jobs = None))]
fn check_report(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    jobs: Option<usize>,
) -> PyResult<PyObject> {
    let paths = path_list(paths)?;
    let report = run_check(py, &Session::files_only(), &paths, jobs)?;
    crate::input::report_to_py(py, &report)
}

/// One path (`str`/`os.PathLike`) or a sequence of them.
fn path_list(paths: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if let Ok(p) = paths.extract::<PathBuf>() {
        return Ok(vec![p]);
    }
    paths.extract()
}

/// Registers `Finding`, `check` and `check_report`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFinding>()?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(check_report, m)?)
}
