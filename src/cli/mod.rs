//! The command implementations: argument handling and printing only; the work is in the library.

pub mod args;
pub mod bake;
pub mod build;
pub mod minimap;
pub mod relink;
pub mod term;
pub mod text;
pub mod vis;

use std::io::{self, Write};

use areakit_app::session::{Session, Sources, refuse_overwrite};
use areakit_app::{Error, info, navigate};
use args::{
    CheckArgs, Cli, Command, ConvertArgs, DemoArgs, ExportArgs, ExtractArgs, ImportArgs, InfoArgs,
    LsArgs, PackArgs, PathArgs, PthCommand, QueryArgs, RebuildArgs, RenderArgs, TransformArgs,
    ViewArgs,
};

/// Buffered standard output that treats a closed pipe as success.
pub struct Output {
    inner: io::BufWriter<io::Stdout>,
    closed: bool,
}

impl Output {
    /// Standard output.
    pub fn stdout() -> Self {
        Output {
            inner: io::BufWriter::new(io::stdout()),
            closed: false,
        }
    }

    /// Writes human text: a control character that came from a file is escaped
    /// ([`term::text`]; each field from a file escapes its line breaks with [`term::field`]).
    pub fn line(&mut self, s: &str) -> Result<(), Error> {
        let safe = term::text(s);
        self.raw(&safe)
    }

    /// Writes JSON as it is: exact, the control characters JSON must escape escaped by it.
    pub fn json(&mut self, s: &str) -> Result<(), Error> {
        self.raw(s)
    }

    /// Writes a line (ignored once the reader has gone away).
    fn raw(&mut self, s: &str) -> Result<(), Error> {
        if self.closed {
            return Ok(());
        }
        match writeln!(self.inner, "{s}") {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            Err(e) => Err(Error::io(std::path::Path::new("<stdout>"), e)),
        }
    }

    /// Flushes.
    pub fn flush(&mut self) -> io::Result<()> {
        match self.inner.flush() {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            other => other,
        }
    }
}

/// Runs a command; returns the exit code on success paths (e.g. `check` with errors → 1).
pub fn run(cli: Cli, out: &mut Output) -> Result<u8, Error> {
    let game = cli
        .game
        .clone()
        .or_else(|| std::env::var_os("AREAKIT_GAME").map(std::path::PathBuf::from))
        .filter(|g| !g.as_os_str().is_empty());
    let sources = Sources {
        game,
        module: cli.module.clone(),
        capsules: Vec::new(),
    };
    if sources.module.is_some() && sources.game.is_none() {
        return Err(Error::usage(
            "--module NAME needs --game DIR (or AREAKIT_GAME)",
        ));
    }
    // The game named by --game (and --module) is opened once, for the whole run; `pack` and
    // `demo` read no game resource.
    let session = match cli.command {
        Command::Pack(_) | Command::Demo(_) => Session::files_only(),
        _ => Session::open(sources)?,
    };
    for n in session.notes() {
        eprintln!("areakit: {}", term::field(n));
    }
    match cli.command {
        Command::Ls(a) => run_ls(a, &session, out),
        Command::Extract(a) => run_extract(a, &session, out),
        Command::Pack(a) => run_pack(a, out),
        Command::Info(a) => run_info(a, &session, out),
        Command::Bake(a) => bake::run(a, &session, out),
        Command::Demo(a) => run_demo(a, out),
        Command::Rebuild(a) => run_rebuild(a, &session, out),
        Command::Query(a) => run_query(a, &session, out),
        Command::Transform(a) => run_transform(a, &session, out),
        Command::Render(a) => run_render(a, &session, out),
        Command::View(a) => run_view(a, &session, out),
        Command::Check(a) => run_check(a, &session, out),
        Command::Convert(a) => run_convert(a, &session, out),
        Command::Path(a) => run_path(a, &session, out),
        Command::Pth(c) => run_pth(c, &session, out),
        Command::Export(a) => run_export(a, &session, out),
        Command::Import(a) => run_import(a, &session, out),
        Command::Build(a) => build::run(a, &session, out),
        Command::Relink(a) => relink::run(a, &session, out),
        Command::Vis(c) => vis::run(c, &session, out),
        Command::Minimap(a) => minimap::run(a, &session, out),
    }
}

/// Prints a report's JSON, its `f32` numbers as their shortest text ([`text::tidy_floats`]).
fn print_json<T: serde::Serialize + ?Sized>(out: &mut Output, report: &T) -> Result<(), Error> {
    let mut v = serde_json::to_value(report)?;
    text::tidy_floats(&mut v);
    out.json(&serde_json::to_string_pretty(&v)?)
}

fn run_ls(a: LsArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let listing = areakit_app::capsules::list(session, &a.capsules, a.restype.as_deref())?;
    if a.json {
        print_json(out, &areakit_app::capsules::LsReport::new(&listing))?;
    } else {
        out.line(text::ls_text(&listing).trim_end())?;
    }
    Ok(0)
}

fn run_extract(a: ExtractArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    // Leading items that are files are capsules; the rest name resources.
    let mut capsules = Vec::new();
    let mut names = Vec::new();
    for item in a.items {
        let p = std::path::PathBuf::from(&item);
        if names.is_empty()
            && p.is_file()
            && (areakit_app::session::is_capsule_file(&p)
                || areakit_app::install::is_capsule_name(&p))
        {
            capsules.push(p);
        } else {
            names.push(item);
        }
    }
    let done = areakit_app::capsules::extract(session, &capsules, &names, &a.output)?;
    for r in &done.renamed {
        out.line(&format!(
            "renamed: \"{}\" written as {} ({})",
            term::field(&r.name),
            r.file,
            r.reason
        ))?;
    }
    for r in &done.skipped {
        out.line(&format!(
            "skipped: \"{}\" ({})",
            term::field(&r.name),
            r.reason
        ))?;
    }
    out.line(&format!(
        "{} files written to {}{}",
        done.files.len(),
        a.output.display(),
        if done.manifest {
            format!(" (with {})", areakit_app::capsules::MANIFEST)
        } else {
            String::new()
        }
    ))?;
    Ok(0)
}

fn run_pack(a: PackArgs, out: &mut Output) -> Result<u8, Error> {
    let p = areakit_app::capsules::pack(&a.dir, &a.output)?;
    out.line(&format!(
        "{} -> {}: {} members, {} bytes{}",
        a.dir.display(),
        a.output.display(),
        p.members,
        p.bytes,
        if p.from_manifest {
            format!(" (layout of {})", areakit_app::capsules::MANIFEST)
        } else {
            String::new()
        }
    ))?;
    Ok(0)
}

fn run_info(a: InfoArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let v = serde_json::to_value(info::info_path(session, &a.file)?)?;
    if a.json {
        print_json(out, &v)?;
    } else {
        out.line(text::info_text(&v).trim_end())?;
    }
    Ok(0)
}

fn run_convert(a: ConvertArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let options = areakit_app::document::EncodeOptions {
        canonical: a.canonical,
        name: a.name.clone(),
        texture: areakit_app::formats::tpc::EncodeOptions {
            encoding: a.encoding,
            mipmaps: !a.no_mipmaps,
            ..Default::default()
        },
        txi: None,
        ..Default::default()
    };
    let r =
        areakit_app::ops::convert_file(session, &a.input, &a.output, a.to.as_deref(), &options)?;
    out.line(&format!(
        "{} ({}) -> {} ({}, {} bytes)",
        a.input.display(),
        r.from,
        a.output.display(),
        r.to,
        r.bytes
    ))?;
    for n in &r.notes {
        eprintln!(
            "areakit convert: {}: {}",
            term::field(&a.output.display().to_string()),
            term::field(n)
        );
    }
    Ok(0)
}

fn run_check(a: CheckArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    if a.paths.is_empty() {
        let Some((res, area)) = areakit_app::input::named_module(session, None)? else {
            return Err(Error::usage(
                "check needs PATH... (or --game DIR --module NAME: that module)",
            ));
        };
        let report = areakit_app::check::check_module(&res, area.as_deref())?;
        if a.json {
            print_json(out, &report)?;
        } else {
            out.line(text::check_text(&report).trim_end())?;
        }
        return Ok(u8::from(report.has_errors()));
    }
    let bar = progress_bar("checking");
    let tick = |done: usize, total: usize| {
        if let Some(b) = &bar {
            b.set_length(total as u64);
            b.set_position(done as u64);
        }
    };
    let run = areakit_app::check::CheckRun {
        jobs: a.jobs.map(usize::from),
        progress: Some(&tick),
    };
    let report = areakit_app::check::check_paths_with(session, &a.paths, &run);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let report = report?;
    if a.json {
        print_json(out, &report)?;
    } else {
        out.line(text::check_text(&report).trim_end())?;
    }
    // Files that could not be read: one stderr line each, and exit 2 at the end.
    for (path, e) in &report.io_errors {
        eprintln!(
            "areakit: {}: {}",
            term::field(&path.display().to_string()),
            term::field(&e.to_string())
        );
    }
    if !report.io_errors.is_empty() {
        return Ok(2);
    }
    Ok(u8::from(report.has_errors()))
}

/// A progress bar on stderr when it is a terminal (never in pipes, files or tests).
fn progress_bar(what: &'static str) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} {wide_bar} {pos}/{len} files ({per_sec})")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(what);
    Some(bar)
}

/// Parses `N` comma-separated numbers for `flag`.
fn numbers<const N: usize>(flag: &str, s: &str) -> Result<[f32; N], Error> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let bad = || {
        Error::usage(format!(
            "--{flag} {s}: expected {N} comma-separated numbers"
        ))
    };
    if parts.len() != N {
        return Err(bad());
    }
    let mut out = [0.0f32; N];
    for (o, p) in out.iter_mut().zip(&parts) {
        *o = p
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(bad)?;
    }
    Ok(out)
}

fn run_rebuild(a: RebuildArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let m = areakit_app::ops::rebuild_file(session, &a.input, &a.output)?;
    out.line(&format!(
        "{} -> {}: {} faces ({} walkable), {} AABB nodes, {} edges in {} perimeter loops",
        a.input.display(),
        a.output.display(),
        m.faces.len(),
        m.walkable_face_count(),
        m.aabb_nodes.len(),
        m.edges.len(),
        m.perimeters.len()
    ))?;
    Ok(0)
}

fn run_query(a: QueryArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let v = match (&a.at, &a.ray) {
        (Some(at), _) => {
            let [x, y] = numbers::<2>("at", at)?;
            if a.z.is_some_and(|z| !z.is_finite()) {
                return Err(Error::usage("--z: expected a finite height"));
            }
            serde_json::to_value(areakit_app::ops::query_at(session, &a.file, x, y, a.z)?)
        }
        (None, Some(ray)) => {
            let (o, d) = ray
                .split_once(':')
                .ok_or_else(|| Error::usage(format!("--ray {ray}: expected X,Y,Z:DX,DY,DZ")))?;
            let dir = numbers::<3>("ray", d)?;
            if dir == [0.0; 3] {
                return Err(Error::usage("--ray: the direction must not be zero"));
            }
            serde_json::to_value(areakit_app::ops::query_ray(
                session,
                &a.file,
                numbers::<3>("ray", o)?,
                dir,
            )?)
        }
        (None, None) => return Err(Error::usage("give --at X,Y or --ray X,Y,Z:DX,DY,DZ")),
    }?;
    if a.json {
        print_json(out, &v)?;
    } else {
        out.line(text::info_text(&v).trim_end())?;
    }
    Ok(0)
}

fn run_transform(a: TransformArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    if a.rotate.is_some_and(|d| !d.is_finite()) {
        return Err(Error::usage("--rotate: expected a finite angle in degrees"));
    }
    let translate = match &a.translate {
        Some(t) => Some(numbers::<3>("translate", t)?),
        None => None,
    };
    let remap = match &a.remap {
        Some(r) => areakit_app::walkmesh::parse_remap(r)
            .map_err(|e| Error::usage(format!("--remap: {e}")))?,
        None => Vec::new(),
    };
    let steps = areakit_app::ops::TransformSteps {
        mirror: a.mirror,
        rotate: a.rotate,
        translate,
        remap,
    };
    let faces = areakit_app::ops::transform_file(session, &a.input, &a.output, &steps)?.faces();
    out.line(&format!(
        "{} -> {} ({faces} faces)",
        a.input.display(),
        a.output.display(),
    ))?;
    Ok(0)
}

/// The overlays of `render` and `view`: `--objects`, `--radius` and each `--path X,Y:X,Y`.
fn overlays(
    objects: &Option<std::path::PathBuf>,
    radius: areakit_app::request::Distance,
    paths: &[String],
) -> Result<areakit_app::picture::Overlays, Error> {
    let mut overlays = areakit_app::picture::Overlays {
        objects: objects.clone(),
        radius,
        ..Default::default()
    };
    overlays.paths = parse_paths(paths)?;
    Ok(overlays)
}

fn run_render(a: RenderArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let mut overlays = overlays(&a.objects, a.radius, &a.path)?;
    overlays.no_models = a.no_models;
    let notes = areakit_app::picture::render_file(
        session, &a.input, &a.output, a.findings, a.size, &overlays,
    )?;
    for n in notes {
        eprintln!("areakit render: {}", term::field(&n));
    }
    out.line(&format!("{} -> {}", a.input.display(), a.output.display()))?;
    Ok(0)
}

fn run_view(a: ViewArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let overlays = overlays(&a.objects, a.radius, &a.path)?;
    let options = areakit_app::view3d::ViewOptions {
        two_d: a.two_d,
        texture_dirs: a.textures.clone(),
        no_textures: a.no_textures,
        texture_size: a.texture_size,
    };
    let (summary, notes) =
        areakit_app::view3d::view(session, &a.input, &a.output, &overlays, &options)?;
    for n in notes {
        eprintln!("areakit view: {}", term::field(&n));
    }
    let three_d = if summary.mode == "3d" {
        format!(
            "3-D: {} meshes, {} triangles, {} objects, {} textures; ",
            summary.meshes,
            summary.triangles,
            summary.objects,
            summary.textures.embedded.len()
        )
    } else {
        String::new()
    };
    out.line(&format!(
        "{} -> {} ({three_d}{} faces, {} rooms, {} findings, {} bytes)",
        a.input.display(),
        a.output.display(),
        summary.faces,
        summary.rooms,
        summary.findings,
        summary.bytes
    ))?;
    if a.open {
        areakit_app::view::open_in_browser(&a.output)?;
    }
    Ok(0)
}

/// The pairs of `path --pairs` answered together before their lines are printed.
const PAIRS_BLOCK: usize = 8192;

fn run_path(a: PathArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let req = navigate::PathRequest {
        input: &a.input,
        objects: a.objects.as_deref(),
        radius: a.radius,
        snap: a.snap,
        mode: a.mode,
    };
    // Options and points first: a typo should not wait for the navigation data.
    let pre = navigate::Precompute::new(usize::from(a.landmarks), a.corner_graph)?;
    let single = match (&a.from, &a.to) {
        (Some(f), Some(t)) => {
            let pt = |flag: &str, v: &str| {
                navigate::parse_point(v).map_err(|m| Error::usage(format!("--{flag} {m}")))
            };
            Some((pt("from", f)?, pt("to", t)?))
        }
        _ => None,
    };
    let pairs = match &a.pairs {
        Some(f) => navigate::parse_pairs(session, f)?,
        None => Vec::new(),
    };
    // (clap's `requires` gives way to the conflict of --pairs with --from.)
    let pool = match (&a.pairs, a.threads) {
        (Some(_), threads) => Some(navigate::thread_pool(threads.map(usize::from))?),
        (None, Some(n)) => {
            return Err(Error::usage(format!(
                "--threads {n}: only with --pairs (a single query runs on one thread)"
            )));
        }
        (None, None) => None,
    };
    let mut ctx = navigate::PathContext::open(session, &req)?;
    let batch = single
        .as_ref()
        .map_or(pairs.as_slice(), std::slice::from_ref);
    ctx.precompute(pre, batch);
    if let Some((s, g)) = single {
        let r = ctx.find(s, g);
        if a.json {
            print_json(out, &r)?;
        } else {
            out.line(text::path_text(&r).trim_end())?;
        }
        // As grep does for no match: a single query that finds no path exits 1.
        if !r.found() {
            return Ok(1);
        }
    } else if let Some(pool) = pool {
        // On all the pool's threads, a block of pairs at a time: each block's answers are
        // printed in order, and a long file's answers are never all held at once.
        for block in pairs.chunks(PAIRS_BLOCK) {
            let lines: Vec<String> = pool.install(|| {
                ctx.find_many(block)
                    .iter()
                    .map(serde_json::to_string)
                    .collect::<Result<_, _>>()
            })?;
            for l in &lines {
                out.json(l)?;
            }
        }
    }
    Ok(0)
}

fn run_demo(a: DemoArgs, out: &mut Output) -> Result<u8, Error> {
    let report = areakit_app::demo::run(&a.out)?;
    if a.json {
        print_json(out, &report)?;
    } else {
        out.line(text::demo_text(&report).trim_end())?;
        if !report.check.findings.is_empty() {
            out.line(text::check_text(&report.check).trim_end())?;
        }
    }
    Ok(if report.ok() { 0 } else { 1 })
}

fn run_pth(c: PthCommand, session: &Session, out: &mut Output) -> Result<u8, Error> {
    match c {
        PthCommand::Generate(a) => {
            refuse_overwrite(&a.input, &a.output, false)?;
            let req = navigate::PthRequest {
                radius: a.radius,
                spacing: a.spacing,
                max_link: a.max_link,
            };
            let navigate::PthReport {
                points,
                connections,
            } = navigate::generate_pth_file(session, &a.input, &a.output, &req)?;
            out.line(&format!(
                "{} -> {} ({points} points, {connections} connections)",
                a.input.display(),
                a.output.display()
            ))?;
            Ok(0)
        }
        PthCommand::Check(a) => {
            let report = navigate::check_pth_report(session, &a.input, &a.pth)?;
            if a.json {
                print_json(out, &report)?;
            } else {
                out.line(text::check_text(&report).trim_end())?;
            }
            Ok(u8::from(report.has_errors()))
        }
    }
}

/// Parses `--path X,Y:X,Y` values.
fn parse_paths(
    values: &[String],
) -> Result<
    Vec<(
        areakit_app::geometry::nav::Endpoint,
        areakit_app::geometry::nav::Endpoint,
    )>,
    Error,
> {
    let mut out = Vec::new();
    for p in values {
        let (s, g) = p
            .split_once(':')
            .ok_or_else(|| Error::usage(format!("--path {p}: expected X,Y:X,Y")))?;
        let pt = |x: &str| {
            navigate::parse_point(x).map_err(|m| Error::usage(format!("--path {p}: {m}")))
        };
        out.push((pt(s)?, pt(g)?));
    }
    Ok(out)
}

fn run_export(a: ExportArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let options = areakit_app::interop::ExportOptions {
        walkable_only: a.walkable_only,
        paths: parse_paths(&a.path)?,
        objects: a.objects.clone(),
        no_models: a.no_models,
        no_textures: a.no_textures,
        texture_dirs: a.textures.clone(),
    };
    let s = areakit_app::interop::export_file(session, &a.input, &a.output, &options)?;
    if a.json {
        print_json(out, &s)?;
        return Ok(0);
    }
    for n in &s.notes {
        eprintln!("areakit export: {}", term::field(n));
    }
    let written: Vec<String> = s.written.iter().map(|p| p.display().to_string()).collect();
    let textures = if s.textures.embedded.is_empty() && s.textures.missing.is_empty() {
        String::new()
    } else {
        format!(
            ", {} textures embedded, {} missing",
            s.textures.embedded.len(),
            s.textures.missing.len()
        )
    };
    out.line(&format!(
        "{} -> {}: {} nodes, {} vertices, {} faces{textures}",
        a.input.display(),
        written.join(" + "),
        s.nodes,
        s.vertices,
        s.faces
    ))?;
    Ok(0)
}

fn run_import(a: ImportArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let materials = match &a.materials {
        Some(f) => areakit_app::interop::MaterialMap::read(session, f)?,
        None => Default::default(),
    };
    let options = areakit_app::interop::ImportOptions {
        materials,
        room_index: a.room_index,
    };
    let is_terrain = a
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("trx") || e.eq_ignore_ascii_case("trn"));
    if is_terrain {
        let Some(terrain) = &a.terrain else {
            return Err(Error::usage(format!(
                "{}: an NWN2 terrain output needs --terrain TRN (the terrain whose walkmesh the mesh replaces)",
                a.output.display()
            )));
        };
        let r =
            areakit_app::interop::import_trx_file(session, &a.input, &a.output, terrain, &options)?;
        let report = r.check_report();
        if a.json {
            print_json(out, &r)?;
        } else {
            let w = r.trx.walkmesh();
            out.line(&format!(
                "{} -> {}: {} vertices ({} welded), {} triangles ({} walkable) in {} tiles, {} islands",
                a.input.display(),
                a.output.display(),
                w.map_or(0, |w| w.vertices.len()),
                r.welded,
                w.map_or(0, |w| w.triangles.len()),
                w.map_or(0, |w| w.walkable_count()),
                w.map_or(0, |w| w.tiles.len()),
                w.map_or(0, |w| w.islands.len())
            ))?;
            if !report.findings.is_empty() {
                out.line(text::check_text(&report).trim_end())?;
            }
        }
        return Ok(u8::from(report.has_errors()));
    }
    if a.terrain.is_some() {
        return Err(Error::usage(
            "--terrain is for a .trx output (an NWN2 terrain)",
        ));
    }
    let r = areakit_app::interop::import_file(session, &a.input, &a.output, &options)?;
    let report = r.check_report();
    if a.json {
        print_json(out, &r)?;
    } else {
        out.line(&format!(
            "{} -> {}: {} vertices ({} welded), {} faces ({} walkable), {} edges in {} perimeter loops",
            a.input.display(),
            a.output.display(),
            r.bwm.vertices.len(),
            r.welded,
            r.bwm.faces.len(),
            r.bwm.walkable_face_count(),
            r.bwm.edges.len(),
            r.bwm.perimeters.len()
        ))?;
        if !report.findings.is_empty() {
            out.line(text::check_text(&report).trim_end())?;
        }
    }
    Ok(u8::from(report.has_errors()))
}
