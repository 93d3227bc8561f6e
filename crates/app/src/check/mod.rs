//! `areakit check`: walk files and folders, decode every file of a known format, run its
//! validators, and collect the findings.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use areakit_area::install::Capsule;
use areakit_area::resources::Resources;
use areakit_formats::Finding;

use areakit_area::module::Module;
use areakit_area::navigation::{AreaNav, NavOptions};

use crate::Error;
use crate::document::Document;
use crate::format::Format;
use crate::report::{FileFinding, Report, decode_finding};
use crate::session::Session;

mod nwn2;

/// What a caller already computed about a module it checks (a module just built): handed
/// down so that the VIS flow and the navigation data are not made again.
#[derive(Clone, Copy, Default)]
pub struct Known<'a> {
    /// The pairs of LYT rooms (indices) a line may join.
    pub vis_pairs: Option<&'a [(usize, usize)]>,
    /// The navigation data of the module's ground, without blockers or radius.
    pub nav: Option<&'a AreaNav>,
}

/// Whether a path found while walking a folder is one `check` looks at.
/// BIFs are left out of folder walks (a game's are gigabytes; name one to check it), and so are
/// PNGs (no game format: kits keep their minimaps as PNG; name one to check it).
fn known_extension(path: &Path) -> bool {
    (Format::from_extension(path).is_some()
        && !extension_is(path, "bif")
        && !extension_is(path, "png"))
        || ["wok", "pwk", "dwk"].iter().any(|e| extension_is(path, e))
        || crate::format::GFF_EXTENSIONS
            .iter()
            .any(|e| extension_is(path, e))
}

/// How a check runs: on how many threads, and whom to tell about progress.
#[derive(Default)]
pub struct CheckRun<'a> {
    /// Worker threads (`None`: one per core). Output order does not depend on it.
    pub jobs: Option<usize>,
    /// Called with (units done, units in all) as areas and files finish, from worker threads.
    pub progress: Option<&'a (dyn Fn(usize, usize) + Sync)>,
}

/// Checks every path: files directly, folders recursively (files of known formats only).
/// A path given that does not exist is an I/O error (exit code 2); a file found inside a folder
/// that cannot be read is reported in [`Report::io_errors`] and the check goes on.
pub fn check_paths(session: &Session, paths: &[PathBuf]) -> Result<Report, Error> {
    check_paths_with(session, paths, &CheckRun::default())
}

/// [`check_paths`] on `run.jobs` threads, reporting progress. Areas (each LYT with its VIS and
/// WOKs) are checked first, then every other file; the report is the same whatever the
/// number of threads: findings in path order, each file's in the order its checks found them.
pub fn check_paths_with(
    session: &Session,
    paths: &[PathBuf],
    run: &CheckRun<'_>,
) -> Result<Report, Error> {
    use rayon::prelude::*;
    let files = collect_files(session, paths)?;
    // NWN2 areas: each TRX against the TRN (and GIT) beside it.
    let nwn2_findings = nwn2::area_findings(session, &files)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.jobs.unwrap_or(0))
        .build()
        .map_err(|e| Error::usage(format!("cannot start {:?} threads: {e}", run.jobs)))?;
    let lyts: Vec<&PathBuf> = files.iter().filter(|p| extension_is(p, "lyt")).collect();
    let total = files.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let tick = || {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if let Some(progress) = run.progress {
            progress(n.min(total), total);
        }
    };
    // Areas first: each LYT brings its VIS and WOKs; the LYT and VIS file checks are part of
    // the area check, so those two files are not validated again on their own.
    let areas: Vec<Result<Option<AreaUnit>, Error>> = pool.install(|| {
        lyts.par_iter()
            .map(|lyt_path| {
                let r = check_area(session, lyt_path);
                tick();
                r
            })
            .collect()
    });
    let mut report = Report::default();
    let mut covered: Vec<PathBuf> = Vec::new();
    for unit in areas {
        let Some(unit) = unit? else { continue };
        report.files_checked += unit.files_checked;
        covered.extend(unit.covered);
        report.findings.extend(unit.findings);
    }
    // Files on disk compare by their canonical paths; capsule members and game resources,
    // which are no files, by their names.
    let covered: std::collections::HashSet<PathBuf> = covered
        .into_iter()
        .map(|p| std::fs::canonicalize(&p).unwrap_or(p))
        .collect();
    let rest: Vec<&PathBuf> = files
        .iter()
        .filter(|p| {
            // A LYT that opened as an area is covered; one that did not is checked as a file.
            let key = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
            !covered.contains(&key)
        })
        .collect();
    // Capsules are opened first (in parallel); their members join the files to check.
    let (capsule_paths, plain): (Vec<&PathBuf>, Vec<&PathBuf>) = rest
        .into_iter()
        .partition(|p| areakit_area::install::is_capsule_name(p));
    let opened: Vec<CapsuleUnit> = pool.install(|| {
        capsule_paths
            .par_iter()
            .map(|path| {
                let unit = open_capsule_unit(session, path);
                tick();
                unit
            })
            .collect()
    });
    let mut tasks: Vec<Task> = plain.into_iter().map(|p| Task::File(p.clone())).collect();
    let game = session.game().cloned();
    let (members, capsule_areas) = take_capsules(&mut report, opened, game.is_some())?;
    // The areas inside capsules, each checked as a module (as a LYT in a folder is); their
    // LYT, VIS and PTH members are part of that check.
    let capsule_units: Vec<Result<Option<AreaUnit>, Error>> = pool.install(|| {
        capsule_areas
            .par_iter()
            .map(|(c, area)| {
                check_capsule_area(c, game.as_ref(), area.as_deref(), Known::default())
            })
            .collect()
    });
    let mut covered_members: std::collections::HashSet<PathBuf> = Default::default();
    for unit in capsule_units {
        match unit {
            Ok(Some(unit)) => {
                report.files_checked += unit.files_checked;
                covered_members.extend(unit.covered);
                report.findings.extend(unit.findings);
            }
            Ok(None) => {}
            Err(Error::Io { path, source }) => report.io_errors.push((path, source.to_string())),
            Err(e) => return Err(e),
        }
    }
    tasks.extend(
        members
            .into_iter()
            .filter(|(_, _, path)| !covered_members.contains(path))
            .map(|(c, i, path)| Task::Member(c, i, path)),
    );
    let total = total
        + tasks
            .iter()
            .filter(|t| matches!(t, Task::Member(..)))
            .count();
    let done_files =
        std::sync::atomic::AtomicUsize::new(done.load(std::sync::atomic::Ordering::Relaxed));
    let tick = || {
        let n = done_files.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if let Some(progress) = run.progress {
            progress(n.min(total), total);
        }
    };
    let results: Vec<(PathBuf, Result<Vec<Finding>, Error>)> = pool.install(|| {
        tasks
            .par_iter()
            .map(|task| {
                let (path, r) = run_task(session, task);
                // A LYT that is checked as a file was counted when its area did not open.
                if !matches!(task, Task::File(p) if extension_is(p, "lyt") && !is_kit_json(p)) {
                    tick();
                }
                (path, r)
            })
            .collect()
    });
    for (path, r) in results {
        match r {
            Ok(findings) => {
                report.files_checked += 1;
                report
                    .findings
                    .extend(findings.into_iter().map(|finding| FileFinding {
                        path: path.clone(),
                        finding,
                    }));
            }
            Err(Error::Io { path, source }) => report.io_errors.push((path, source.to_string())),
            Err(e) => return Err(e),
        }
    }
    report.findings.extend(nwn2_findings);
    report.findings.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(report)
}

/// The files of `paths`: each file, capsule member or game resource as given, and the files
/// areakit reads inside each folder (walked in name order).
fn collect_files(session: &Session, paths: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut files = Vec::new();
    for p in paths {
        if session.is_virtual_input(p) {
            // A capsule member path, or a resource of the game (`--game`).
            files.push(p.clone());
            continue;
        }
        let meta = std::fs::metadata(p).map_err(|e| Error::io(p, e))?;
        if meta.is_dir() {
            for entry in walkdir::WalkDir::new(p).sort_by_file_name() {
                let entry = entry.map_err(|e| {
                    let path = e.path().unwrap_or(p).to_path_buf();
                    Error::io(
                        &path,
                        e.into_io_error()
                            .unwrap_or_else(|| std::io::Error::other("file system loop")),
                    )
                })?;
                if entry.file_type().is_file()
                    && (known_extension(entry.path()) || is_kit_json(entry.path()))
                {
                    files.push(entry.into_path());
                }
            }
        } else {
            areakit_area::io::check_regular_file(p).map_err(|e| Error::io(p, e))?;
            files.push(p.clone());
        }
    }
    Ok(files)
}

/// A capsule member to check: its capsule, its index and its path (`x.mod/a.wok`).
type MemberTask = (Arc<Capsule>, usize, PathBuf);

/// An area inside a capsule: the capsule and the area's name (`None`: its only one).
type CapsuleArea = (Arc<Capsule>, Option<String>);

/// The capsules opened: their own findings (and I/O errors) into `report`; returns their
/// members to check and the areas inside them, each to be checked as a module.
fn take_capsules(
    report: &mut Report,
    opened: Vec<CapsuleUnit>,
    with_game: bool,
) -> Result<(Vec<MemberTask>, Vec<CapsuleArea>), Error> {
    let mut members: Vec<(Arc<Capsule>, usize, PathBuf)> = Vec::new();
    let mut capsule_areas: Vec<(Arc<Capsule>, Option<String>)> = Vec::new();
    for unit in opened {
        match unit.result {
            Ok((findings, capsule)) => {
                report.files_checked += 1;
                report
                    .findings
                    .extend(findings.into_iter().map(|finding| FileFinding {
                        path: unit.path.clone(),
                        finding,
                    }));
                if let Some(c) = capsule {
                    let c = Arc::new(c);
                    if let Some(note) = area_needs_game(&c, with_game) {
                        report.findings.push(FileFinding {
                            path: unit.path.clone(),
                            finding: note,
                        });
                    }
                    capsule_areas.extend(
                        capsule_area_names(&c, with_game)
                            .into_iter()
                            .map(|a| (c.clone(), a)),
                    );
                    for (i, m) in c.members().iter().enumerate() {
                        let member = unit.path.join(m.file_name());
                        if member_checkable(&member, c.data(i)) {
                            members.push((c.clone(), i, member));
                        }
                    }
                }
            }
            Err(Error::Io { path, source }) => report.io_errors.push((path, source.to_string())),
            Err(e) => return Err(e),
        }
    }
    Ok((members, capsule_areas))
}

/// One file or member's checks (a kit JSON, a binary model with its MDX, any other file).
fn run_task(session: &Session, task: &Task) -> (PathBuf, Result<Vec<Finding>, Error>) {
    match task {
        Task::File(path) if is_kit_json(path) => (path.clone(), check_kit(path)),
        Task::File(path) => {
            let r = session.read(path).and_then(|data| {
                if Format::detect(path, &data) == Some(Format::Mdl) {
                    let mdx = session.read(&crate::document::mdx_path(path)).ok();
                    return check_model_data(path, &data, mdx.as_deref());
                }
                check_data(path, &data)
            });
            (path.clone(), r)
        }
        Task::Member(c, i, path) => (path.clone(), check_member(c, *i, path)),
    }
}

/// The file checks of member `i` of capsule `c`, named `path`: a binary model with the member
/// of its name that is its MDX.
fn check_member(c: &Capsule, i: usize, path: &Path) -> Result<Vec<Finding>, Error> {
    let data = c.data(i);
    if Format::detect(path, data) == Some(Format::Mdl) {
        let mdx = c
            .find(&c.members()[i].resref.name(), "mdx")
            .map(|j| c.data(j));
        return check_model_data(path, data, mdx);
    }
    check_data(path, data)
}

/// `check` of a capsule held in memory, as `check` takes a capsule file: its own tables
/// (`container`: for a capsule that will be written as one), each area in it assembled as a
/// module (with the session's game behind it), then every other member it reads. Findings are
/// named by the capsule's path (`OUT.mod/x.wok`; a module built as a folder names its capsule
/// by the folder, so its findings read `OUT/x.wok`).
pub fn check_capsule(
    session: &Session,
    capsule: &Arc<Capsule>,
    container: bool,
    known: Known<'_>,
) -> Result<Report, Error> {
    use rayon::prelude::*;
    let mut report = Report::default();
    let path = capsule.path().to_path_buf();
    if container {
        report.files_checked += 1;
        report.findings.extend(
            check_data(&path, capsule.bytes())?
                .into_iter()
                .map(|finding| FileFinding {
                    path: path.clone(),
                    finding,
                }),
        );
    }
    let game = session.game().cloned();
    let mut covered: std::collections::HashSet<PathBuf> = Default::default();
    for area in capsule_area_names(capsule, game.is_some()) {
        if let Some(unit) = check_capsule_area(capsule, game.as_ref(), area.as_deref(), known)? {
            report.files_checked += unit.files_checked;
            covered.extend(unit.covered);
            report.findings.extend(unit.findings);
        }
    }
    let members: Vec<(usize, PathBuf)> = capsule
        .members()
        .iter()
        .enumerate()
        .map(|(i, m)| (i, path.join(m.file_name())))
        .filter(|(i, p)| !covered.contains(p) && member_checkable(p, capsule.data(*i)))
        .collect();
    let results: Vec<(PathBuf, Result<Vec<Finding>, Error>)> = members
        .par_iter()
        .map(|(i, p)| (p.clone(), check_member(capsule, *i, p)))
        .collect();
    for (p, r) in results {
        report.files_checked += 1;
        report
            .findings
            .extend(r?.into_iter().map(|finding| FileFinding {
                path: p.clone(),
                finding,
            }));
    }
    report.findings.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(report)
}

/// One unit of the file stage: a file (or member path) read and checked, or a member of an
/// opened capsule.
enum Task {
    File(PathBuf),
    Member(Arc<Capsule>, usize, PathBuf),
}

/// A capsule opened for checking: its own findings, and the capsule when its tables decode.
struct CapsuleUnit {
    path: PathBuf,
    result: Result<(Vec<Finding>, Option<areakit_area::install::Capsule>), Error>,
}

fn open_capsule_unit(session: &Session, path: &Path) -> CapsuleUnit {
    let result = session.read(path).and_then(|data| {
        let findings = check_data(path, &data)?;
        let capsule = areakit_area::install::Capsule::from_bytes(path, data).ok();
        Ok((findings, capsule))
    });
    CapsuleUnit {
        path: path.to_path_buf(),
        result,
    }
}

/// Whether a capsule member is one `check` reads: a format areakit decodes, except text models
/// (capsules hold compiled MDLs), nested KEY/BIF and PNG (no game format).
fn member_checkable(path: &Path, data: &[u8]) -> bool {
    matches!(
        Format::detect(path, data),
        Some(
            Format::Bwm
                | Format::Mdl
                | Format::Lyt
                | Format::Vis
                | Format::Trx
                | Format::Gff
                | Format::TwoDa
                | Format::Erf
                | Format::Rim
                | Format::Tpc
                | Format::Tga
                | Format::Txi
        )
    )
}

/// The areas of a capsule that `check` assembles as modules: each LYT among its members
/// (`Some(resref)`); in a capsule without one, and with a game set (`--game`), the entry area
/// of its `module.ifo` (`None`), whose layout the game may hold (a KotOR `NAME.rim` keeps its
/// LYT in `layouts.bif`).
fn capsule_area_names(c: &Capsule, with_game: bool) -> Vec<Option<String>> {
    let lyts: Vec<Option<String>> = c
        .members()
        .iter()
        .filter(|m| m.restype.extension() == Some("lyt"))
        .map(|m| Some(m.resref.name()))
        .collect();
    if lyts.is_empty() && with_game && c.find(areakit_area::module::MODULE_IFO, "ifo").is_some() {
        return vec![None];
    }
    lyts
}

/// The note for a module capsule whose area `check` cannot assemble: no LYT among its members
/// (KotOR keeps a module's layout in the game's `layouts.bif`) and no game given. It names the
/// entry area of the capsule's `module.ifo` and how to have it checked (`--game`). `None`
/// when the area is checked, or the capsule holds no `module.ifo`.
pub fn area_needs_game(c: &Capsule, with_game: bool) -> Option<Finding> {
    if !capsule_area_names(c, with_game).is_empty() || with_game {
        return None;
    }
    let i = c.find(areakit_area::module::MODULE_IFO, "ifo")?;
    let entry = areakit_formats::gff::read(c.data(i))
        .ok()
        .and_then(|g| areakit_formats::gff::views::Ifo::from_gff(&g).entry_area)
        .map(|t| t.to_str().trim().to_string())
        .filter(|t| !t.is_empty());
    let what = match &entry {
        Some(a) => format!("the entry area {a} of module.ifo has no layout ({a}.lyt) here"),
        None => "module.ifo names no entry area, and no layout (LYT) is here".to_string(),
    };
    Some(Finding::info(
        "area-not-checked",
        areakit_formats::Place::default()
            .item(format!("{}.lyt", entry.as_deref().unwrap_or("area"))),
        format!(
            "{what}: the area, navigation and module checks did not run; KotOR keeps a \
             module's layout in the game's layouts.bif: give --game DIR (or set AREAKIT_GAME) \
             to check the area"
        ),
    ))
}

/// Checks one area of a capsule as a module, its resources found in the capsule first, then in
/// the game (when set): the findings of [`module_findings`] and of its path graph.
/// `area` `None` is the entry area of the capsule's `module.ifo`, skipped when its layout is
/// found nowhere. `Ok(None)` when the layout does not decode (the member's own check reports
/// it).
fn check_capsule_area(
    c: &Arc<Capsule>,
    game: Option<&Arc<dyn Resources>>,
    area: Option<&str>,
    known: Known<'_>,
) -> Result<Option<AreaUnit>, Error> {
    let mut search = areakit_area::install::SearchPath::new();
    search.push(c.path().display().to_string(), Box::new(c.clone()));
    if let Some(g) = game {
        search.push("game", Box::new(g.clone()));
    }
    check_assembled(&search, area, known)
}

/// Checks the area `area` of `res` (`None`: the entry area of its `module.ifo`) as a module,
/// with its path graph from `res`. `Ok(None)` when there is nothing to assemble: a layout that
/// does not decode (reported by the LYT's own check), an entry area whose layout is found
/// nowhere, an IFO naming no area.
fn check_assembled(
    res: &dyn Resources,
    area: Option<&str>,
    known: Known<'_>,
) -> Result<Option<AreaUnit>, Error> {
    use areakit_area::area::AreaError;
    use areakit_area::module::ModuleError;
    let module = match Module::assemble(res, area) {
        Ok(m) => m,
        Err(ModuleError::Area(AreaError::Io { path, source })) => {
            return Err(Error::io(&path, source));
        }
        Err(_) => return Ok(None),
    };
    let pth = res
        .get(&module.area.resref, "pth")
        .map_err(|e| Error::io(&module.area.lyt_path, e))?
        .map(|r| (PathBuf::from(r.origin), r.data));
    Ok(Some(module_unit(&module, pth, res, known)))
}

/// Each room's model (`<room>.mdl` with its `.mdx`, from `res`) against the room's WOK:
/// `model-walkmesh-mismatch` where the model's walkmesh, placed at the room's LYT position,
/// and the WOK differ; and the model's own checks with their positions in area space
/// ([`areakit_area::models::placed_findings`]). Rooms without a model give nothing; a model
/// that does not decode gives an `invalid-file` finding under its own name. With the models
/// loaded once, the area's VIS is checked against their sight lines (`vis-missing-pair`,
/// `vis-excess-pair`: [`crate::visibility::vis_findings`]).
pub fn room_model_findings(module: &Module, res: &dyn Resources) -> Vec<Finding> {
    room_models_checked(module, res, None).0
}

/// [`room_model_findings`], and where the models it checked came from (their files are covered:
/// not checked again on their own, where their positions would be in model space).
fn room_models_checked(
    module: &Module,
    res: &dyn Resources,
    vis_pairs: Option<&[(usize, usize)]>,
) -> (Vec<Finding>, Vec<String>) {
    let mut out = Vec::new();
    let mut covered = Vec::new();
    let models = crate::rooms::room_models(module, res);
    for rm in &models {
        let room = &module.area.rooms[rm.room];
        let model = match &rm.model {
            Ok(m) => m,
            Err(e) => {
                let mut f = decode_finding(e);
                f.place = f.place.file(rm.origin.clone());
                out.push(f);
                covered.push(rm.origin.clone());
                continue;
            }
        };
        covered.push(rm.origin.clone());
        for mut f in areakit_area::models::placed_findings(model, rm.position) {
            f.place = f.place.file(rm.origin.clone()).room(rm.name.clone());
            out.push(f);
        }
        let Some(wok) = &room.wok else { continue };
        for mut f in areakit_area::models::walkmesh_mismatch(model, wok, &rm.name, rm.position) {
            // A WOK face is filed under the WOK, a model face (named by its node) under the model.
            let under = match (&room.wok_path, &f.place.item, f.place.face) {
                (Some(w), None, Some(_)) => w.display().to_string(),
                _ => rm.origin.clone(),
            };
            f.place = f.place.file(under).room(rm.name.clone());
            out.push(f);
        }
    }
    out.extend(crate::visibility::vis_findings(module, &models, vis_pairs));
    (out, covered)
}

/// The check of an assembled module: the findings of [`module_findings`] and of its
/// path graph `pth` (where it was found, its bytes), each under the file it is about (the LYT
/// when it names none). The LYT, VIS and PTH are covered: not checked again as files.
pub(crate) fn module_unit(
    module: &areakit_area::module::Module,
    pth: Option<(PathBuf, Vec<u8>)>,
    res: &dyn Resources,
    known: Known<'_>,
) -> AreaUnit {
    let area = &module.area;
    let mut unit = AreaUnit {
        files_checked: 1,
        covered: vec![area.lyt_path.clone()],
        findings: Vec::new(),
    };
    if let Some(v) = &area.vis_path {
        unit.covered.push(v.clone());
        unit.files_checked += 1;
    }
    let (mut findings, nav) = module_findings_with(module, known.nav);
    let (model_findings, models) = room_models_checked(module, res, known.vis_pairs);
    findings.extend(model_findings);
    unit.files_checked += models.len();
    unit.covered.extend(models.into_iter().map(PathBuf::from));
    findings.extend(crate::minimap::minimap_findings(module, res));
    if let Some((pth_path, data)) = pth {
        // The path graph is checked on the bare ground: the module's navigation data when it
        // places no blocking object, else the ground built again without them.
        let bare = match nav {
            Some(nav) if !module.objects.iter().any(|o| o.walkmesh.is_some()) => Some(nav),
            _ => AreaNav::build(&module.nav_source(), &[], &NavOptions::default()).ok(),
        };
        if let Some(ground) = bare {
            findings.extend(crate::navigate::pth_findings(
                &ground,
                &data,
                &pth_path.display().to_string(),
            ));
        }
        unit.covered.push(pth_path);
        unit.files_checked += 1;
    }
    for mut f in findings {
        let path = f
            .place
            .file
            .take()
            .map_or_else(|| area.lyt_path.clone(), PathBuf::from);
        unit.findings.push(FileFinding { path, finding: f });
    }
    unit
}

/// What checking one area gave.
pub(crate) struct AreaUnit {
    /// The area's files read (LYT, VIS, PTH).
    pub files_checked: usize,
    /// The files that check covers (not checked again on their own).
    pub covered: Vec<PathBuf>,
    /// The findings, each under its file.
    pub findings: Vec<FileFinding>,
}

/// Opens and checks the area of one LYT; `None` when the LYT does not decode (the file check
/// reports it).
fn check_area(session: &Session, lyt_path: &Path) -> Result<Option<AreaUnit>, Error> {
    if !lyt_path.is_file() {
        // A LYT member of a capsule (`x.mod/a.lyt`) or, with a game, a LYT resource: the
        // module is assembled from the capsule (then the game) or the game.
        return match crate::input::named_module(session, Some(lyt_path))? {
            Some((res, area)) => check_assembled(&res, area.as_deref(), Known::default()),
            None => Ok(None),
        };
    }
    match areakit_area::area::Area::open(lyt_path) {
        Ok(area) => {
            // The module around the area (its IFO, ARE, GIT and placed objects, its
            // surfacemat.2da), when the folder holds them.
            let module = crate::input::around_folder(area)?;
            // The area's path graph (`<resref>.pth` beside the LYT), against its ground.
            let pth = match beside(
                &module.area.lyt_path,
                &format!("{}.pth", module.area.resref),
            ) {
                Some(p) => {
                    let data = session.read(&p)?;
                    Some((p, data))
                }
                None => None,
            };
            let res = areakit_area::resources::FolderResources::open(&module.area.dir)
                .map_err(|e| Error::io(&module.area.dir, e))?;
            Ok(Some(module_unit(&module, pth, &res, Known::default())))
        }
        Err(areakit_area::area::AreaError::Lyt { .. }) => Ok(None),
        Err(areakit_area::area::AreaError::Io { path, source }) => Err(Error::io(&path, source)),
        Err(e) => Err(Error::usage(e.to_string())),
    }
}

/// The file named `name` (any letter case) in the folder of `file`.
fn beside(file: &Path, name: &str) -> Option<PathBuf> {
    let dir = file.parent()?;
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.is_file()
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
}

fn extension_is(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// The findings of one file's bytes (`path` picks the format and names it): a file that does
/// not decode gives one `invalid-file` (or `unsupported-file`) finding; one that does gives its
/// validators' findings (and, for MDL ASCII, the reader's own warnings).
pub fn check_data(path: &Path, data: &[u8]) -> Result<Vec<Finding>, Error> {
    // MDL ASCII: the reader's own warnings (garbage lines, ...) come with the model.
    if Format::detect(path, data) == Some(Format::MdlAscii) {
        return Ok(match areakit_formats::mdl_ascii::read_with_findings(data) {
            Ok((model, mut findings)) => {
                findings.extend(areakit_formats::mdl_ascii::validate(&model));
                findings
            }
            Err(e) => vec![decode_finding(&e)],
        });
    }
    match Document::decode(path, data) {
        Ok(doc) => Ok(validate(&doc)),
        Err(Error::Invalid { source, .. }) => Ok(vec![decode_finding(&source)]),
        Err(e) => Err(e),
    }
}

/// Whether a file on disk is a Holocron kit JSON: a `.json` (of at most 16 MiB) whose keys
/// make it one ([`kit_check::looks_like_kit`](areakit_area::build::kit_check::looks_like_kit)).
fn is_kit_json(path: &Path) -> bool {
    extension_is(path, "json")
        && std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= 16 << 20)
        && std::fs::read(path).is_ok_and(|d| areakit_area::build::kit_check::looks_like_kit(&d))
}

/// `check` of a Holocron kit JSON: its components' files, hooks, model, WOK and image
/// (`docs/checks.md`, "Kit checks"). A kit JSON that does not read is a `kit-file-invalid`
/// error.
pub fn check_kit(path: &Path) -> Result<Vec<Finding>, Error> {
    use areakit_area::build::BuildError;
    match areakit_area::build::kit_check::check_kit_file(path) {
        Ok(findings) => Ok(findings),
        Err(BuildError::Io { path, source }) => Err(Error::Io { path, source }),
        Err(e) => Ok(vec![Finding::error(
            "kit-file-invalid",
            areakit_formats::Place::default(),
            e.to_string(),
        )]),
    }
}

/// The findings of a binary model's bytes with its MDX (`None`: none found beside it).
pub fn check_model_data(
    path: &Path,
    data: &[u8],
    mdx: Option<&[u8]>,
) -> Result<Vec<Finding>, Error> {
    match Document::decode_model(path, data, mdx) {
        Ok(doc) => Ok(validate(&doc)),
        Err(Error::Invalid { source, .. }) => Ok(vec![decode_finding(&source)]),
        Err(e) => Err(e),
    }
}

/// The findings of a decoded document's validators.
pub fn validate(doc: &Document) -> Vec<Finding> {
    use areakit_formats::{bif, erf, gff, key, lyt, mdl_ascii, rim, tga, tpc, trx, twoda, vis};
    match doc {
        Document::Bwm(m) => areakit_area::walkmesh::check_bwm(m),
        Document::Lyt(l) => lyt::validate(l),
        Document::Vis(v) => vis::validate(v),
        Document::MdlAscii(m) => mdl_ascii::validate(m),
        Document::Mdl(m) => areakit_formats::mdl::validate(m),
        Document::NwnMdl(m) => areakit_formats::mdl::nwn::validate(m),
        Document::Gff(g) => gff::validate(g),
        Document::TwoDa(t) => twoda::validate(t),
        Document::Erf(e) => erf::validate(e),
        Document::Rim(r) => rim::validate(r),
        Document::Key(k) => key::validate(k),
        Document::Bif(b) => bif::validate(b),
        Document::Tpc(t) => tpc::validate(t),
        Document::Tga(t) => tga::validate(t),
        Document::Txi(t) => t.findings.clone(),
        Document::Png(_) => Vec::new(),
        Document::Mdb(m) => mdb_findings(m),
        Document::Trx(t) => {
            let mut f = trx::validate(t);
            f.extend(crate::bake::check_bake(t));
            // The navigation checks need a walkmesh whose indices are sound.
            if let Some(w) = t.walkmesh()
                && !f
                    .iter()
                    .any(|x| x.severity == areakit_formats::Severity::Error)
            {
                let source = areakit_area::navigation::NavSource::from_trx(w, "terrain");
                f.extend(areakit_area::navigation::nav_findings(&source, &[]));
            }
            f
        }
    }
}

/// An MDB's findings: a WALK triangle naming a vertex the packet does not have
/// (`mdb-walk-index`, an error: the engine would read past the vertex list).
fn mdb_findings(m: &areakit_formats::mdb::Mdb) -> Vec<Finding> {
    use areakit_formats::finding::Place;
    m.walks()
        .enumerate()
        .filter_map(|(i, w)| w.surface().err().map(|e| (i, e)))
        .map(|(i, e)| {
            Finding::error(
                "mdb-walk-index",
                Place::default()
                    .item(format!("WALK {i}"))
                    .face(e.triangle as u32),
                format!(
                    "walkmesh triangle {} names vertex {}; the packet has {} vertices",
                    e.triangle, e.vertex, e.vertex_count
                ),
            )
        })
        .collect()
}

/// Everything `check` says about a module's area: the area checks, the navigation checks (the
/// placed objects as blockers) and the module's own checks ([`areakit_area::module::check`]),
/// with the navigation data they share, built once (`None` when it cannot be built: then
/// neither the navigation nor the module's ground checks run).
pub fn module_findings(module: &Module) -> (Vec<Finding>, Option<AreaNav>) {
    module_findings_with(module, None)
}

/// [`module_findings`], with the navigation data of the module's bare ground when the caller
/// has it: used when the module places no blocking object and reads its walkability from
/// the default surface table (else the data is built here, as it must be).
fn module_findings_with(
    module: &Module,
    ground: Option<&AreaNav>,
) -> (Vec<Finding>, Option<AreaNav>) {
    let mut out = areakit_area::area::check(&module.area);
    let bare =
        !module.objects.iter().any(|o| o.walkmesh.is_some()) && module.surface_materials.is_none();
    let nav = match ground {
        Some(g) if bare => Ok(g.clone()),
        _ => module.nav(),
    };
    match nav {
        Ok(nav) => {
            out.extend(areakit_area::navigation::nav_findings_of(
                &nav,
                areakit_area::navigation::SourceKind::Area,
            ));
            out.extend(areakit_area::module::check_on(module, &nav));
            (out, Some(nav))
        }
        Err(_) => {
            out.extend(module.findings.iter().cloned());
            (out, None)
        }
    }
}

/// `check` of the module that `--game DIR --module NAME` names (or of any resources): the
/// findings of [`module_findings`] and of its path graph, each under the file (or capsule
/// member) it is about. `files_checked` counts the module's resources read (LYT, VIS, IFO,
/// ARE, GIT, PTH).
pub fn check_module(res: &dyn Resources, area: Option<&str>) -> Result<Report, Error> {
    let module = crate::input::assemble(res, area)?;
    let resref = &module.area.resref;
    let pth = res
        .get(resref, "pth")
        .map_err(|e| Error::io(Path::new(&format!("{resref}.pth")), e))?
        .map(|r| (PathBuf::from(r.origin), r.data));
    let unit = module_unit(&module, pth, res, Known::default());
    let mut report = Report {
        files_checked: unit.files_checked
            + usize::from(module.ifo.is_some())
            + usize::from(module.are.is_some())
            + usize::from(module.git.is_some()),
        findings: unit.findings,
        ..Report::default()
    };
    report.findings.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(report)
}
