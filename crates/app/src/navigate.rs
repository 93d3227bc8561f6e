//! `areakit path`: opening the ground (a walkmesh, an area, an NWN2 terrain) and the placed
//! objects for the navigation layer ([`areakit_area::navigation`]), and reading query points.

use std::path::Path;

use areakit_area::navigation::{
    AreaNav, NavOptions, NavSource, PathMode, PathOutcome, SearchChoice,
};
use areakit_area::objects::{self, PlacedObject, PlacedWalkmesh};
use areakit_formats::{DecodeError, ErrorKind, Location, bwm, trx};
use areakit_geometry::nav::landmarks::MAX_LANDMARKS;
use areakit_geometry::nav::{Endpoint, Searcher};

use crate::Error;
use crate::format::Format;
use crate::input::{self, Opened};
use crate::request::Distance;
use crate::session::{Session, write_atomic};

pub mod auto;
pub use auto::{AUTO_MIN_PAIRS, CornerGraphEstimate};

/// A walkable ground and the objects placed on it.
pub type Ground = (NavSource, Vec<(PlacedObject, PlacedWalkmesh)>);

/// The ground of an opened input: an area's rooms (walkable by its module's
/// `surfacemat.2da` when it has one) with its placed objects, or a walkmesh or terrain file's
/// walkable faces.
pub fn ground_of(opened: &Opened) -> Result<Ground, Error> {
    match opened {
        Opened::Area { module, .. } => Ok((module.nav_source(), module.placed())),
        Opened::File { path, data } => Ok((file_source(path, data)?, Vec::new())),
    }
}

/// The walkable ground of one file's bytes: a BWM walkmesh, an NWN2 TRX/TRN, or a binary model
/// (KotOR's with the MDX beside it, or NWN's) through its aabb walkmesh.
pub fn file_source(path: &Path, data: &[u8]) -> Result<NavSource, Error> {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("walkmesh")
        .to_string();
    match Format::detect(path, data) {
        Some(Format::Trx) => {
            let t = trx::read(data).map_err(|e| Error::invalid(path, e))?;
            let w = t.walkmesh().ok_or_else(|| no_walkmesh(path))?;
            return Ok(NavSource::from_trx(w, &name));
        }
        Some(Format::Bwm) => {
            let m = bwm::read(data).map_err(|e| Error::invalid(path, e))?;
            return Ok(NavSource::from_bwm(&m, &name));
        }
        Some(Format::Mdl) => {
            if let Some(ground) = crate::document::Document::decode(path, data)?.model_walkmesh() {
                let m = ground.map_err(|e| Error::geometry(path, e))?;
                if m.faces.is_empty() {
                    // It decodes, but holds nothing to walk: invalid input, as a terrain
                    // without a walkmesh is.
                    return Err(Error::invalid(
                        path,
                        DecodeError::new(
                            ErrorKind::Malformed,
                            Location::Input,
                            "the model has no aabb (walkmesh) node to walk on",
                        ),
                    ));
                }
                return Ok(NavSource::from_bwm(&m, &name));
            }
        }
        _ => {}
    }
    Err(Error::usage(format!(
        "{}: expected a BWM walkmesh (WOK/PWK/DWK), an area (LYT file, folder, capsule), an NWN2 TRX/TRN or a binary model with an aabb walkmesh",
        path.display()
    )))
}

/// The error for an NWN2 terrain without a walkmesh: it decodes, but holds nothing to walk.
pub fn no_walkmesh(path: &Path) -> Error {
    Error::invalid(
        path,
        DecodeError::new(
            ErrorKind::Malformed,
            Location::Input,
            "no ASWM walkmesh packet",
        ),
    )
}

/// The walkable ground of any input ([`input::open`]), without its objects.
pub fn open_source(session: &Session, input: &Path) -> Result<NavSource, Error> {
    Ok(ground_of(&input::open(session, Some(input))?)?.0)
}

/// Reads an `--objects` file and places each object's walkmesh (looked up next to the file,
/// ignoring letter case). A walkmesh that cannot be found or read is an error naming the
/// object: a blocker silently left out would let paths cross it.
pub fn load_objects(
    session: &Session,
    file: &Path,
) -> Result<Vec<(PlacedObject, PlacedWalkmesh)>, Error> {
    let bytes = session.read(file)?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        Error::invalid(
            file,
            DecodeError::malformed_at(e.valid_up_to() as u64, "not UTF-8 text"),
        )
    })?;
    let list = objects::parse_objects_json(text).map_err(|e| {
        let location = if e.line > 0 {
            Location::LineCol {
                line: e.line as u32,
                column: e.column as u32,
            }
        } else {
            Location::Input
        };
        Error::invalid(
            file,
            DecodeError::new(ErrorKind::Malformed, location, e.message),
        )
    })?;
    let dir = file.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, o) in list.into_iter().enumerate() {
        let name = o.walkmesh_name();
        let path = objects::find_walkmesh_file(dir, &o).ok_or_else(|| {
            Error::usage(format!(
                "{}: object {i} ({}): walkmesh {name} not found in {}",
                file.display(),
                o.tag.as_deref().unwrap_or(&o.model),
                dir.display()
            ))
        })?;
        let data = session.read(&path)?;
        let m = bwm::read(&data).map_err(|e| Error::invalid(&path, e))?;
        let placed = objects::place(&o, &m);
        out.push((o, placed));
    }
    Ok(out)
}

/// Text that is no point `X,Y` or `X,Y,Z`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PointError {
    /// Not two or three fields.
    #[error("{0:?}: expected X,Y or X,Y,Z")]
    Fields(String),
    /// A field that is no finite number.
    #[error("{text:?}: {field:?} is not a finite number")]
    Number {
        /// The point as given.
        text: String,
        /// The field.
        field: String,
    },
}

/// Parses a point `X,Y` or `X,Y,Z` (Z: which floor, where floors overlap).
pub fn parse_point(s: &str) -> Result<Endpoint, PointError> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if !(2..=3).contains(&parts.len()) {
        return Err(PointError::Fields(s.to_string()));
    }
    let mut v = [0.0f32; 3];
    for (o, p) in v.iter_mut().zip(&parts) {
        *o = p
            .parse::<f32>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| PointError::Number {
                text: s.to_string(),
                field: p.to_string(),
            })?;
    }
    Ok(Endpoint {
        x: v[0],
        y: v[1],
        z: (parts.len() == 3).then_some(v[2]),
    })
}

/// Reads a `--pairs` file: one `X,Y[,Z] X,Y[,Z]` pair per line; blank lines and lines
/// starting with `#` are skipped. Errors name the line and column.
pub fn parse_pairs(session: &Session, file: &Path) -> Result<Vec<(Endpoint, Endpoint)>, Error> {
    let bytes = session.read(file)?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        Error::invalid(
            file,
            DecodeError::malformed_at(e.valid_up_to() as u64, "not UTF-8 text"),
        )
    })?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let bad = |col: usize, msg: String| {
            Error::invalid(
                file,
                DecodeError::malformed_text(n as u32 + 1, col as u32 + 1, msg),
            )
        };
        let col0 = line.len() - line.trim_start().len();
        let fields: Vec<&str> = t.split_whitespace().collect();
        if fields.len() != 2 {
            return Err(bad(
                col0,
                format!(
                    "expected two points `X,Y X,Y`, found {} field(s)",
                    fields.len()
                ),
            ));
        }
        let a = parse_point(fields[0]).map_err(|m| bad(col0, m.to_string()))?;
        let col1 = line.rfind(fields[1]).unwrap_or(col0);
        let b = parse_point(fields[1]).map_err(|m| bad(col1, m.to_string()))?;
        out.push((a, b));
    }
    Ok(out)
}

/// A path request: the ground, the objects placed on it and the options of the search. Its
/// distances are [`Distance`]s, so a request holds no value the search refuses.
#[derive(Debug, Clone)]
pub struct PathRequest<'a> {
    /// The ground: a walkmesh, an area or a terrain.
    pub input: &'a Path,
    /// The `--objects` file.
    pub objects: Option<&'a Path>,
    /// Agent radius.
    pub radius: Distance,
    /// Snap distance: how far a start or goal off the ground may be moved onto it.
    pub snap: Distance,
    /// The search.
    pub mode: PathMode,
}

impl<'a> PathRequest<'a> {
    /// A request on `input` with the defaults: no objects, radius 0, snap 1 m, optimal.
    pub fn new(input: &'a Path) -> PathRequest<'a> {
        PathRequest {
            input,
            objects: None,
            radius: Distance::ZERO,
            snap: Distance::DEFAULT_SNAP,
            mode: PathMode::default(),
        }
    }
}

/// Whether a [`PathContext`] builds the corner graph ([`Precompute`]). Named `auto`, `yes`,
/// `no` (the `choice` module).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
    strum::EnumMessage,
)]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum CornerGraphChoice {
    /// Where it pays for the batch: optimal batches of at least [`AUTO_MIN_PAIRS`] pairs
    /// whose estimated cost with the graph, its build included, is below the cost without
    /// ([`auto`]: counted search effort on samples, the same on every machine; the optimal
    /// paths are the same either way). Never in the fast mode: a fast path over the graph is
    /// another path than over the polygons, and a single query must get the answer a batch
    /// gets (`yes` gives the graph's fast paths to both).
    #[default]
    #[strum(
        message = "For optimal --pairs files of 128 pairs or more where the build is estimated to pay"
    )]
    Auto,
    /// Always.
    #[strum(message = "Always")]
    Yes,
    /// Never.
    #[strum(message = "Never")]
    No,
}

/// The optional precomputation of a [`PathContext`], built once and used by every query
/// (docs/navigation.md): optimal lengths are the same with or without it, only faster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Precompute {
    /// Landmarks to measure (0 to [`MAX_LANDMARKS`]; 0: none).
    landmarks: usize,
    /// The corner graph.
    pub corner_graph: CornerGraphChoice,
}

impl Precompute {
    /// The precomputation of `landmarks` landmarks (a usage error past [`MAX_LANDMARKS`]) and
    /// the corner graph as `corner_graph` says.
    pub fn new(landmarks: usize, corner_graph: CornerGraphChoice) -> Result<Precompute, Error> {
        if landmarks > MAX_LANDMARKS {
            return Err(Error::usage(format!(
                "landmarks {landmarks}: expected 0 to {MAX_LANDMARKS}"
            )));
        }
        Ok(Precompute {
            landmarks,
            corner_graph,
        })
    }

    /// The landmarks to measure.
    pub fn landmarks(&self) -> usize {
        self.landmarks
    }
}

/// What [`PathContext::precompute`] built, and in how long.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct PrecomputeReport {
    /// Landmarks measured.
    pub landmarks: usize,
    /// Seconds spent measuring them.
    pub landmark_seconds: f64,
    /// Whether the corner graph was built.
    pub corner_graph: bool,
    /// Its directed edges.
    pub corner_graph_edges: usize,
    /// Seconds spent building it.
    pub corner_graph_seconds: f64,
    /// What [`CornerGraphChoice::Auto`] estimated (for an optimal batch of at least
    /// [`AUTO_MIN_PAIRS`] pairs; else nothing was sampled).
    pub estimate: Option<CornerGraphEstimate>,
    /// Seconds spent estimating.
    pub estimate_seconds: f64,
}

/// The ground and objects of a request, built once for many queries.
pub struct PathContext {
    /// The navigation data.
    pub nav: AreaNav,
    /// The placed objects.
    pub objects: Vec<(PlacedObject, PlacedWalkmesh)>,
    searcher: Searcher,
    snap: Distance,
    mode: PathMode,
    /// How the queries search, as [`PathContext::precompute`] chose (the polygons without
    /// landmarks until then).
    how: SearchChoice,
}

impl PathContext {
    /// Opens the ground of `req.input` ([`input::open`]: a walkmesh, a terrain, or an area —
    /// with the placed objects of its module as blockers, before those of `req.objects`) and
    /// builds the navigation data.
    pub fn open(session: &Session, req: &PathRequest<'_>) -> Result<PathContext, Error> {
        let (source, objects) = ground_of(&input::open(session, Some(req.input))?)?;
        PathContext::from_parts(session, source, objects, req)
    }

    /// Builds the navigation data of a ground already opened and objects already placed, with
    /// the objects of `req.objects` added (`req.input` names the ground in messages).
    pub fn from_parts(
        session: &Session,
        source: NavSource,
        mut objects: Vec<(PlacedObject, PlacedWalkmesh)>,
        req: &PathRequest<'_>,
    ) -> Result<PathContext, Error> {
        if let Some(f) = req.objects {
            objects.extend(load_objects(session, f)?);
        }
        if req.mode == PathMode::Baked {
            if source.baked.is_none() {
                return Err(Error::usage(format!(
                    "{}: the baked mode needs an NWN2 TRX with baked path tables",
                    req.input.display()
                )));
            }
            if req.radius > Distance::ZERO || !objects.is_empty() {
                return Err(Error::usage(
                    "the baked mode follows the file's path tables, which know no radius or placed objects",
                ));
            }
        }
        let placed: Vec<PlacedWalkmesh> = objects.iter().map(|(_, w)| w.clone()).collect();
        let nav = AreaNav::build(
            &source,
            &placed,
            &NavOptions {
                radius: req.radius.get(),
                ..NavOptions::default()
            },
        )
        .map_err(|e| Error::navigation(req.input, e))?;
        Ok(PathContext {
            nav,
            objects,
            searcher: Searcher::new(),
            snap: req.snap,
            mode: req.mode,
            how: SearchChoice::default(),
        })
    }

    /// Builds the optional precomputation for the queries `batch` in the request's mode
    /// ([`Precompute`]) and searches with it from now on (only with it: what is already there
    /// is kept, and used only if `p` asks for it; the report counts only what was built now).
    /// A single query is a batch of one.
    pub fn precompute(
        &mut self,
        p: Precompute,
        batch: &[(Endpoint, Endpoint)],
    ) -> PrecomputeReport {
        self.precompute_for(p, self.mode, batch)
    }

    /// [`PathContext::precompute`] for queries in `mode` (another mode than the request's).
    pub fn precompute_for(
        &mut self,
        p: Precompute,
        mode: PathMode,
        batch: &[(Endpoint, Endpoint)],
    ) -> PrecomputeReport {
        let mut r = PrecomputeReport::default();
        let have = self.nav.landmarks().map_or(0, |l| l.count());
        if p.landmarks > 0 && p.landmarks.min(MAX_LANDMARKS) != have {
            let t = std::time::Instant::now();
            self.nav.measure_landmarks(p.landmarks);
            r.landmark_seconds = t.elapsed().as_secs_f64();
            r.landmarks = self.nav.landmarks().map_or(0, |l| l.count());
        }
        let landmarks = p.landmarks > 0 && self.nav.landmarks().is_some();
        let have = self.nav.corner_graph().is_some_and(|g| g.has_sights());
        let graph = match p.corner_graph {
            CornerGraphChoice::Yes => true,
            CornerGraphChoice::No => false,
            CornerGraphChoice::Auto if mode != PathMode::Optimal => false,
            CornerGraphChoice::Auto if batch.len() < AUTO_MIN_PAIRS => false,
            CornerGraphChoice::Auto => {
                let t = std::time::Instant::now();
                let e = auto::estimate(&self.nav, batch, (landmarks, self.snap.get()), have);
                r.estimate_seconds = t.elapsed().as_secs_f64();
                r.estimate = Some(e);
                e.pays
            }
        };
        // (Both modes use the graph's sight lists: one built without them is built again.)
        if graph && mode != PathMode::Baked && !have {
            let t = std::time::Instant::now();
            self.nav.build_corner_graph(true);
            r.corner_graph_seconds = t.elapsed().as_secs_f64();
            r.corner_graph_edges = self.nav.corner_graph().map_or(0, |g| g.edge_count());
            r.corner_graph = self.nav.corner_graph().is_some();
        }
        self.how = SearchChoice {
            corner_graph: graph && mode != PathMode::Baked,
            landmarks,
        };
        r
    }

    /// Whether queries in `mode` can be answered here: the baked mode needs a baked NWN2
    /// terrain, neither carved for a radius nor blocked by objects (a usage error).
    pub fn ensure_mode(&self, mode: PathMode) -> Result<(), Error> {
        if mode == PathMode::Baked && !self.nav.can_bake() {
            return Err(Error::usage(
                "mode \"baked\" needs an NWN2 TRX with baked path tables, without radius or placed objects",
            ));
        }
        Ok(())
    }

    /// One query.
    pub fn find(&mut self, from: Endpoint, to: Endpoint) -> PathOutcome {
        self.nav.find_by(
            &mut self.searcher,
            (from, to),
            self.mode,
            self.how,
            self.snap.get(),
        )
    }

    /// One query in another mode or with another snap distance than the request's (the
    /// navigation data does not depend on them).
    pub fn find_with(
        &mut self,
        from: Endpoint,
        to: Endpoint,
        mode: PathMode,
        snap: Distance,
    ) -> PathOutcome {
        self.nav
            .find_by(&mut self.searcher, (from, to), mode, self.how, snap.get())
    }

    /// Many queries at once, on the current rayon pool (the global one, or the pool of
    /// [`thread_pool`] inside its `install`): one answer per pair, in the order of `pairs`,
    /// each the answer [`PathContext::find`] gives for that pair alone.
    pub fn find_many(&self, pairs: &[(Endpoint, Endpoint)]) -> Vec<PathOutcome> {
        self.find_many_with(pairs, self.mode, self.snap)
    }

    /// [`PathContext::find_many`] in another mode or with another snap distance than the
    /// request's. Each worker thread searches with a [`Searcher`] of its own; the answers do
    /// not depend on the number of threads.
    pub fn find_many_with(
        &self,
        pairs: &[(Endpoint, Endpoint)],
        mode: PathMode,
        snap: Distance,
    ) -> Vec<PathOutcome> {
        use rayon::prelude::*;
        let (nav, how, snap) = (&self.nav, self.how, snap.get());
        pairs
            .par_iter()
            .map_init(Searcher::new, |searcher, &ends| {
                nav.find_by(searcher, ends, mode, how, snap)
            })
            .collect()
    }
}

/// A rayon pool of `threads` worker threads for [`PathContext::find_many`] (`None`: one per
/// core, or `RAYON_NUM_THREADS` when set). Run the batch inside it:
/// `pool.install(|| ctx.find_many(&pairs))`.
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, Error> {
    if threads == Some(0) {
        return Err(Error::usage("threads 0: expected at least 1"));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| {
            let n = threads.map_or_else(|| "one per core".to_string(), |n| n.to_string());
            Error::usage(format!("cannot start worker threads ({n}): {e}"))
        })
}

/// The message for a path that was not found (`render --path`, `export --path`).
pub fn path_note(from: Endpoint, to: Endpoint, outcome: &PathOutcome) -> String {
    format!(
        "path {},{} -> {},{}: {}",
        from.x,
        from.y,
        to.x,
        to.y,
        outcome.reason.as_deref().unwrap_or("not found")
    )
}

/// Reads a PTH file (a GFF holding a path graph).
pub fn read_pth(session: &Session, file: &Path) -> Result<areakit_formats::gff::views::Pth, Error> {
    let data = session.read(file)?;
    decode_pth(&data).map_err(|e| Error::invalid(file, e))
}

/// Decodes a PTH resource (a GFF holding a path graph).
pub fn decode_pth(data: &[u8]) -> Result<areakit_formats::gff::views::Pth, DecodeError> {
    let gff = areakit_formats::gff::read(data)?;
    areakit_formats::gff::views::Pth::from_gff(&gff)
        .map_err(|e| DecodeError::new(ErrorKind::Malformed, Location::Input, e.to_string()))
}

/// The findings of a path graph's bytes against `ground` (navigation data built without
/// radius or objects; `file` names the graph): those of [`areakit_area::pth::check_pth`], or
/// the decoding error as a finding.
pub fn pth_findings(ground: &AreaNav, data: &[u8], file: &str) -> Vec<areakit_formats::Finding> {
    match decode_pth(data) {
        Ok(pth) => areakit_area::pth::check_pth(&pth, ground, file),
        Err(e) => {
            let mut f = crate::report::decode_finding(&e);
            f.place.file = Some(file.to_string());
            vec![f]
        }
    }
}

/// The findings of a PTH against the ground of an area, walkmesh or terrain.
pub fn check_pth_file(
    session: &Session,
    input: &Path,
    pth_file: &Path,
) -> Result<Vec<areakit_formats::Finding>, Error> {
    let pth = read_pth(session, pth_file)?;
    let source = open_source(session, input)?;
    let nav = AreaNav::build(&source, &[], &NavOptions::default())
        .map_err(|e| Error::navigation(input, e))?;
    Ok(areakit_area::pth::check_pth(
        &pth,
        &nav,
        &pth_file.display().to_string(),
    ))
}

/// `pth check`: [`check_pth_file`] as a report, every finding under the PTH file.
pub fn check_pth_report(
    session: &Session,
    input: &Path,
    pth_file: &Path,
) -> Result<crate::report::Report, Error> {
    Ok(check_pth_file(session, input, pth_file)?
        .into_iter()
        .map(|mut finding| {
            finding.place.file = None;
            crate::report::FileFinding {
                path: pth_file.to_path_buf(),
                finding,
            }
        })
        .collect())
}

/// The options of `pth generate` ([`areakit_area::pth::PthOptions`], validated).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PthRequest {
    /// The radius the points and connections keep from walls.
    pub radius: Distance,
    /// Corners closer than this to a kept point are merged into it.
    pub spacing: Distance,
    /// Longest connection.
    pub max_link: Distance,
}

impl Default for PthRequest {
    fn default() -> Self {
        let o = areakit_area::pth::PthOptions::default();
        let d = |v: f32| Distance::new(v).unwrap_or_default();
        PthRequest {
            radius: d(o.radius),
            spacing: d(o.spacing),
            max_link: d(o.max_link),
        }
    }
}

/// What `pth generate` wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PthReport {
    /// Path points.
    pub points: usize,
    /// Connections between them, as the PTH stores them.
    pub connections: usize,
}

/// Generates a PTH for the ground of `input` and writes it atomically to `output`.
pub fn generate_pth_file(
    session: &Session,
    input: &Path,
    output: &Path,
    req: &PthRequest,
) -> Result<PthReport, Error> {
    let source = open_source(session, input)?;
    let options = areakit_area::pth::PthOptions {
        radius: req.radius.get(),
        spacing: req.spacing.get(),
        max_link: req.max_link.get(),
        ..Default::default()
    };
    let pth = areakit_area::pth::generate_pth(&source, &options)
        .map_err(|e| Error::navigation(input, e))?;
    let bytes = pth.to_bytes().map_err(|e| Error::encode(output, e))?;
    write_atomic(output, &bytes)?;
    Ok(PthReport {
        points: pth.points.len(),
        connections: pth.connections.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_parse_with_and_without_height() {
        let p = parse_point("1.5,-2").unwrap();
        assert_eq!((p.x, p.y, p.z), (1.5, -2.0, None));
        let p = parse_point(" 1 , 2 , 3 ").unwrap();
        assert_eq!(p.z, Some(3.0));
        assert!(parse_point("1").is_err());
        assert!(parse_point("1,2,3,4").is_err());
        assert!(parse_point("1,NaN").is_err());
        assert!(parse_point("1,x").is_err());
    }

    /// A walkmesh-like ground: a `n` × `n` grid of unit squares with every third column of
    /// squares left out on all but one row (walls to walk around).
    fn comb(n: u32) -> NavSource {
        use areakit_area::navigation::SourceKind;
        use areakit_geometry::Vec3;
        use areakit_geometry::nav::Surface;
        let mut s = Surface::default();
        for y in 0..=n {
            for x in 0..=n {
                s.vertices.push(Vec3::new(x as f32, y as f32, 0.0));
            }
        }
        let v = |x: u32, y: u32| y * (n + 1) + x;
        for y in 0..n {
            for x in 0..n {
                if x % 3 == 1 && y != n / 2 {
                    continue;
                }
                s.triangles.push([v(x, y), v(x + 1, y), v(x + 1, y + 1)]);
                s.triangles.push([v(x, y), v(x + 1, y + 1), v(x, y + 1)]);
            }
        }
        s.regions = vec![0; s.triangles.len()];
        NavSource {
            faces: (0..s.triangles.len() as u32).collect(),
            surface: s,
            regions: vec!["comb".to_string()],
            kind: SourceKind::Walkmesh,
            baked: None,
        }
    }

    #[test]
    fn a_batch_answers_as_one_query_at_a_time_on_any_number_of_threads() {
        fn sync<T: Sync>() {}
        sync::<AreaNav>();
        let req = PathRequest {
            radius: Distance::new(0.2).unwrap(),
            ..PathRequest::new(Path::new("comb"))
        };
        let session = Session::files_only();
        let mut ctx = PathContext::from_parts(&session, comb(24), Vec::new(), &req).unwrap();
        // Points all over the grid and beyond it (some off the ground, some in the walls).
        let mut seed = 0x2545_f491_u64;
        let mut coord = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 2700) as f32 / 100.0 - 1.0
        };
        let pairs: Vec<(Endpoint, Endpoint)> = (0..300)
            .map(|_| {
                let mut p = || Endpoint {
                    x: coord(),
                    y: coord(),
                    z: None,
                };
                (p(), p())
            })
            .collect();
        for mode in [PathMode::Optimal, PathMode::Fast] {
            let one_by_one: Vec<String> = pairs
                .iter()
                .map(|&(a, b)| {
                    serde_json::to_string(&ctx.find_with(a, b, mode, Distance::DEFAULT_SNAP))
                        .unwrap()
                })
                .collect();
            let found = one_by_one.iter().filter(|j| j.contains("\"found\":true"));
            assert!(found.count() > 150, "most pairs are joined");
            assert!(one_by_one.iter().any(|j| j.contains("\"found\":false")));
            for threads in [1, 2, 3] {
                let pool = thread_pool(Some(threads)).unwrap();
                let batch: Vec<String> = pool
                    .install(|| ctx.find_many_with(&pairs, mode, Distance::DEFAULT_SNAP))
                    .iter()
                    .map(|o| serde_json::to_string(o).unwrap())
                    .collect();
                assert_eq!(batch, one_by_one, "{threads} thread(s), {mode:?}");
            }
        }
        let batch = ctx.find_many(&pairs[..5]);
        assert_eq!(batch.len(), 5);
        assert!(batch.iter().all(|o| o.mode == PathMode::Optimal));
        assert!(ctx.find_many(&[]).is_empty());
        assert!(thread_pool(Some(0)).is_err());
    }
}
