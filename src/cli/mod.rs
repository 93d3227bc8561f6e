//! The command implementations: argument handling and printing only; the work is in the library.

pub mod args;

use std::io::{self, Write};

use areakit::document::{Document, Format};
use areakit::{Error, fsio, info, navigate};

use areakit::resolve::Sources;
use args::{
    BakeArgs, CheckArgs, Cli, Command, ConvertArgs, DemoArgs, ExportArgs, ExtractArgs, ImportArgs,
    InfoArgs, LsArgs, PackArgs, PathArgs, PathModeArg, PthCommand, QueryArgs, RebuildArgs,
    RenderArgs, TransformArgs, ViewArgs,
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

    /// Writes a line (ignored once the reader has gone away).
    pub fn line(&mut self, s: &str) -> Result<(), Error> {
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
    let lists_resources = matches!(
        cli.command,
        Command::Ls(_) | Command::Extract(_) | Command::Pack(_)
    );
    if sources.game.is_some() && !lists_resources {
        // Bare RESREF.EXT inputs resolve through the game from here on.
        let search = areakit::resolve::open_search_path(&sources)?;
        areakit::resolve::set_game(Some(std::sync::Arc::new(search)));
    }
    match cli.command {
        Command::Ls(a) => run_ls(a, sources, out),
        Command::Extract(a) => run_extract(a, sources, out),
        Command::Pack(a) => run_pack(a, out),
        Command::Info(a) => run_info(a, out),
        Command::Bake(a) => run_bake(a, out),
        Command::Demo(a) => run_demo(a, out),
        Command::Rebuild(a) => run_rebuild(a, out),
        Command::Query(a) => run_query(a, out),
        Command::Transform(a) => run_transform(a, out),
        Command::Render(a) => run_render(a, &sources, out),
        Command::View(a) => run_view(a, out),
        Command::Check(a) => run_check(a, &sources, out),
        Command::Convert(a) => run_convert(a, out),
        Command::Path(a) => run_path(a, &sources, out),
        Command::Pth(c) => run_pth(c, out),
        Command::Export(a) => run_export(a, out),
        Command::Import(a) => run_import(a, out),
    }
}

fn print_json(out: &mut Output, v: &serde_json::Value) -> Result<(), Error> {
    out.line(&serde_json::to_string_pretty(v).unwrap_or_default())
}

fn run_ls(a: LsArgs, mut sources: Sources, out: &mut Output) -> Result<u8, Error> {
    sources.capsules = a.capsules;
    let listing = areakit::capsules::list(&sources, a.restype.as_deref())?;
    if a.json {
        print_json(out, &areakit::capsules::list_json(&listing))?;
    } else {
        out.line(areakit::capsules::list_text(&listing).trim_end())?;
    }
    Ok(0)
}

fn run_extract(a: ExtractArgs, mut sources: Sources, out: &mut Output) -> Result<u8, Error> {
    // Leading items that are files are capsules; the rest name resources.
    let mut names = Vec::new();
    for item in a.items {
        let p = std::path::PathBuf::from(&item);
        if names.is_empty()
            && p.is_file()
            && (areakit::resolve::is_capsule_file(&p) || areakit::install::is_capsule_name(&p))
        {
            sources.capsules.push(p);
        } else {
            names.push(item);
        }
    }
    let done = areakit::capsules::extract(&sources, &names, &a.output)?;
    out.line(&format!(
        "{} files written to {}{}",
        done.files.len(),
        a.output.display(),
        if done.manifest {
            format!(" (with {})", areakit::capsules::MANIFEST)
        } else {
            String::new()
        }
    ))?;
    Ok(0)
}

fn run_pack(a: PackArgs, out: &mut Output) -> Result<u8, Error> {
    let p = areakit::capsules::pack(&a.dir, &a.output)?;
    out.line(&format!(
        "{} -> {}: {} members, {} bytes{}",
        a.dir.display(),
        a.output.display(),
        p.members,
        p.bytes,
        if p.from_manifest {
            format!(" (layout of {})", areakit::capsules::MANIFEST)
        } else {
            String::new()
        }
    ))?;
    Ok(0)
}

fn run_info(a: InfoArgs, out: &mut Output) -> Result<u8, Error> {
    let v = info::info_path(&a.file)?;
    if a.json {
        print_json(out, &v)?;
    } else {
        out.line(info::human(&v).trim_end())?;
    }
    Ok(0)
}

fn run_convert(a: ConvertArgs, out: &mut Output) -> Result<u8, Error> {
    fsio::refuse_overwrite(&a.input, &a.output, false)?;
    let doc = Document::open(&a.input)?;
    let target = match &a.to {
        Some(name) => Format::from_name(name).ok_or_else(|| {
            let names: Vec<_> = Format::ALL.iter().map(|f| f.name()).collect();
            Error::usage(format!(
                "--to {name}: unknown format (known: {})",
                names.join(", ")
            ))
        })?,
        None => Format::from_extension(&a.output).unwrap_or(doc.format()),
    };
    let options = areakit::document::EncodeOptions {
        canonical: a.canonical,
        name: a.name.clone(),
    };
    // A conversion that fails on the content (an ASCII walkmesh that does not compile) is
    // about the input file.
    let bytes = doc
        .encode_with(target, &a.output, &options)
        .map_err(|e| match e {
            Error::Invalid { path, source } if path == a.output => Error::Invalid {
                path: a.input.clone(),
                source,
            },
            e => e,
        })?;
    fsio::write_atomic(&a.output, &bytes)?;
    out.line(&format!(
        "{} ({}) -> {} ({}, {} bytes)",
        a.input.display(),
        doc.format().name(),
        a.output.display(),
        target.name(),
        bytes.len()
    ))?;
    Ok(0)
}

fn run_check(a: CheckArgs, sources: &Sources, out: &mut Output) -> Result<u8, Error> {
    if a.paths.is_empty() {
        let Some((res, area)) = areakit::modules::named_input(None, sources)? else {
            return Err(Error::usage(
                "check needs PATH... (or --game DIR --module NAME: that module)",
            ));
        };
        let report = areakit::modules::check(&*res, area.as_deref())?;
        if a.json {
            print_json(out, &report.to_json())?;
        } else {
            out.line(report.to_text().trim_end())?;
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
    let run = areakit::check::CheckRun {
        jobs: a.jobs.map(usize::from),
        progress: Some(&tick),
    };
    let report = areakit::check::check_paths_with(&a.paths, &run);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let report = report?;
    if a.json {
        print_json(out, &report.to_json())?;
    } else {
        out.line(report.to_text().trim_end())?;
    }
    // Files that could not be read: one stderr line each, and exit 2 at the end.
    for (path, e) in &report.io_errors {
        eprintln!("areakit: {}: {e}", path.display());
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

fn run_bake(a: BakeArgs, out: &mut Output) -> Result<u8, Error> {
    fsio::refuse_overwrite(&a.input, &a.output, false)?;
    let data = fsio::read(&a.input)?;
    let trx = areakit::formats::trx::read(&data).map_err(|e| Error::invalid(&a.input, e))?;
    let baked = areakit::bake::bake(&trx).map_err(|e| {
        Error::invalid(
            &a.input,
            areakit::formats::DecodeError::new(
                areakit::formats::ErrorKind::LimitExceeded,
                areakit::formats::Location::Input,
                format!("cannot bake: {e}"),
            ),
        )
    })?;
    let bytes = areakit::formats::trx::write(&baked).map_err(|source| Error::Encode {
        path: a.output.clone(),
        source,
    })?;
    fsio::write_atomic(&a.output, &bytes)?;
    let v = info::trx_json(&baked);
    if a.json {
        print_json(out, &v)?;
    } else {
        out.line(&format!(
            "{} -> {}: {} triangles ({} walkable) in {} tiles, {} islands",
            a.input.display(),
            a.output.display(),
            v["triangles"],
            v["walkable_triangles"],
            v["tiles"],
            v["islands"]
        ))?;
    }
    Ok(0)
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

fn run_rebuild(a: RebuildArgs, out: &mut Output) -> Result<u8, Error> {
    fsio::refuse_overwrite(&a.input, &a.output, false)?;
    let m = areakit::ops::rebuild_file(&a.input, &a.output)?;
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

fn run_query(a: QueryArgs, out: &mut Output) -> Result<u8, Error> {
    let v = match (&a.at, &a.ray) {
        (Some(at), _) => {
            let [x, y] = numbers::<2>("at", at)?;
            if a.z.is_some_and(|z| !z.is_finite()) {
                return Err(Error::usage("--z: expected a finite height"));
            }
            areakit::ops::query_at(&a.file, x, y, a.z)?
        }
        (None, Some(ray)) => {
            let (o, d) = ray
                .split_once(':')
                .ok_or_else(|| Error::usage(format!("--ray {ray}: expected X,Y,Z:DX,DY,DZ")))?;
            let dir = numbers::<3>("ray", d)?;
            if dir == [0.0; 3] {
                return Err(Error::usage("--ray: the direction must not be zero"));
            }
            areakit::ops::query_ray(&a.file, numbers::<3>("ray", o)?, dir)?
        }
        (None, None) => return Err(Error::usage("give --at X,Y or --ray X,Y,Z:DX,DY,DZ")),
    };
    if a.json {
        print_json(out, &v)?;
    } else {
        out.line(info::human(&v).trim_end())?;
    }
    Ok(0)
}

fn run_transform(a: TransformArgs, out: &mut Output) -> Result<u8, Error> {
    use areakit::geometry::transform::{Axis, Transform};
    fsio::refuse_overwrite(&a.input, &a.output, false)?;
    let mut steps = Vec::new();
    if let Some(m) = &a.mirror {
        steps.push(Transform::Mirror(match m.to_ascii_lowercase().as_str() {
            "x" => Axis::X,
            "y" => Axis::Y,
            _ => return Err(Error::usage(format!("--mirror {m}: expected x or y"))),
        }));
    }
    if let Some(deg) = a.rotate {
        if !deg.is_finite() {
            return Err(Error::usage("--rotate: expected a finite angle in degrees"));
        }
        steps.push(Transform::RotateZ(deg));
    }
    if let Some(t) = &a.translate {
        steps.push(Transform::Translate(numbers::<3>("translate", t)?));
    }
    let remap = match &a.remap {
        Some(r) => {
            areakit::walkmesh::parse_remap(r).map_err(|e| Error::usage(format!("--remap: {e}")))?
        }
        None => Vec::new(),
    };
    let mesh = areakit::ops::load_bwm(&a.input)?;
    let result = areakit::walkmesh::transform(&mesh, &steps, &remap).map_err(|e| {
        Error::invalid(
            &a.input,
            areakit::formats::DecodeError::new(
                areakit::formats::ErrorKind::Malformed,
                areakit::formats::Location::Input,
                e.to_string(),
            ),
        )
    })?;
    let bytes = areakit::formats::bwm::write(&result).map_err(|source| Error::Encode {
        path: a.output.clone(),
        source,
    })?;
    fsio::write_atomic(&a.output, &bytes)?;
    out.line(&format!(
        "{} -> {} ({} faces)",
        a.input.display(),
        a.output.display(),
        result.faces.len()
    ))?;
    Ok(0)
}

/// The overlays of `render` and `view`: `--objects`, `--radius` and each `--path X,Y:X,Y`.
fn overlays(
    objects: &Option<std::path::PathBuf>,
    radius: f32,
    paths: &[String],
) -> Result<areakit::ops::Overlays, Error> {
    let mut overlays = areakit::ops::Overlays {
        objects: objects.clone(),
        radius,
        ..Default::default()
    };
    overlays.paths = parse_paths(paths)?;
    Ok(overlays)
}

fn run_render(a: RenderArgs, sources: &Sources, out: &mut Output) -> Result<u8, Error> {
    fsio::refuse_overwrite(&a.input, &a.output, false)?;
    let overlays = overlays(&a.objects, a.radius, &a.path)?;
    let notes = match areakit::modules::named_input(Some(&a.input), sources)? {
        Some((res, area)) => areakit::modules::render(
            &*res,
            area.as_deref(),
            &a.output,
            a.findings,
            a.size,
            &overlays,
        )?,
        None => areakit::ops::render_file_with(&a.input, &a.output, a.findings, a.size, &overlays)?,
    };
    for n in notes {
        eprintln!("areakit render: {n}");
    }
    out.line(&format!("{} -> {}", a.input.display(), a.output.display()))?;
    Ok(0)
}

fn run_view(a: ViewArgs, out: &mut Output) -> Result<u8, Error> {
    let ext_ok = a
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    if !ext_ok {
        return Err(Error::usage(format!(
            "{}: the page must end in .html",
            a.output.display()
        )));
    }
    let overlays = overlays(&a.objects, a.radius, &a.path)?;
    let (summary, notes) = areakit::view::view_file(&a.input, &a.output, &overlays)?;
    for n in notes {
        eprintln!("areakit view: {n}");
    }
    out.line(&format!(
        "{} -> {} ({} faces, {} rooms, {} findings, {} bytes)",
        a.input.display(),
        a.output.display(),
        summary.faces,
        summary.rooms,
        summary.findings,
        summary.bytes
    ))?;
    if a.open {
        areakit::view::open_in_browser(&a.output)?;
    }
    Ok(0)
}

fn run_path(a: PathArgs, sources: &Sources, out: &mut Output) -> Result<u8, Error> {
    use areakit::navigation::PathMode;
    let mode = match a.mode {
        PathModeArg::Optimal => PathMode::Optimal,
        PathModeArg::Fast => PathMode::Fast,
        PathModeArg::Baked => PathMode::Baked,
    };
    let req = navigate::PathRequest {
        input: &a.input,
        objects: a.objects.as_deref(),
        radius: a.radius,
        snap: a.snap,
        mode,
    };
    // Points first: a typo should not wait for the navigation data.
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
        Some(f) => navigate::parse_pairs(f)?,
        None => Vec::new(),
    };
    let mut ctx = match areakit::modules::named_input(Some(&a.input), sources)? {
        Some((res, area)) => areakit::modules::path_context(&*res, area.as_deref(), &req)?,
        None => navigate::PathContext::open(&req)?,
    };
    if let Some((s, g)) = single {
        let r = ctx.find(s, g);
        if a.json {
            print_json(out, &r.to_json())?;
        } else {
            out.line(navigate::path_text(&r).trim_end())?;
        }
    } else {
        for (s, g) in pairs {
            let r = ctx.find(s, g);
            out.line(&serde_json::to_string(&r.to_json()).unwrap_or_default())?;
        }
    }
    Ok(0)
}

fn run_demo(a: DemoArgs, out: &mut Output) -> Result<u8, Error> {
    let report = areakit::demo::run(&a.out)?;
    if a.json {
        print_json(out, &report.to_json())?;
    } else {
        out.line(report.to_text().trim_end())?;
        if !report.check.findings.is_empty() {
            out.line(report.check.to_text().trim_end())?;
        }
    }
    Ok(if report.ok() { 0 } else { 1 })
}

fn run_pth(c: PthCommand, out: &mut Output) -> Result<u8, Error> {
    match c {
        PthCommand::Generate(a) => {
            fsio::refuse_overwrite(&a.input, &a.output, false)?;
            for (flag, v) in [
                ("radius", a.radius),
                ("spacing", a.spacing),
                ("max-link", a.max_link),
            ] {
                if !(v.is_finite() && v >= 0.0) {
                    return Err(Error::usage(format!(
                        "--{flag} {v}: expected a distance >= 0"
                    )));
                }
            }
            let options = areakit::pth::PthOptions {
                radius: a.radius,
                spacing: a.spacing,
                max_link: a.max_link,
                ..Default::default()
            };
            let (points, connections) = navigate::generate_pth_file(&a.input, &a.output, &options)?;
            out.line(&format!(
                "{} -> {} ({points} points, {connections} connections)",
                a.input.display(),
                a.output.display()
            ))?;
            Ok(0)
        }
        PthCommand::Check(a) => {
            let findings = navigate::check_pth_file(&a.input, &a.pth)?;
            let report = areakit::check::Report {
                files_checked: 1,
                findings: findings
                    .into_iter()
                    .map(|mut finding| {
                        finding.place.file = None;
                        areakit::check::FileFinding {
                            path: a.pth.clone(),
                            finding,
                        }
                    })
                    .collect(),
                io_errors: Vec::new(),
            };
            if a.json {
                print_json(out, &report.to_json())?;
            } else {
                out.line(report.to_text().trim_end())?;
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
        areakit::geometry::nav::Endpoint,
        areakit::geometry::nav::Endpoint,
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

fn run_export(a: ExportArgs, out: &mut Output) -> Result<u8, Error> {
    let options = areakit::interop::ExportOptions {
        walkable_only: a.walkable_only,
        paths: parse_paths(&a.path)?,
        objects: a.objects.clone(),
    };
    let s = areakit::interop::export_file(&a.input, &a.output, &options)?;
    for n in &s.notes {
        eprintln!("areakit export: {n}");
    }
    let written: Vec<String> = s.written.iter().map(|p| p.display().to_string()).collect();
    out.line(&format!(
        "{} -> {}: {} nodes, {} vertices, {} faces",
        a.input.display(),
        written.join(" + "),
        s.nodes,
        s.vertices,
        s.faces
    ))?;
    Ok(0)
}

fn run_import(a: ImportArgs, out: &mut Output) -> Result<u8, Error> {
    let materials = match &a.materials {
        Some(f) => areakit::interop::MaterialMap::read(f)?,
        None => Default::default(),
    };
    let options = areakit::interop::ImportOptions {
        materials,
        room_index: a.room_index,
    };
    let r = areakit::interop::import_file(&a.input, &a.output, &options)?;
    let report = areakit::check::Report {
        files_checked: 1,
        findings: r
            .findings
            .iter()
            .cloned()
            .map(|finding| areakit::check::FileFinding {
                path: a.output.clone(),
                finding,
            })
            .collect(),
        io_errors: Vec::new(),
    };
    if a.json {
        let mut v = report.to_json();
        v["output"] = serde_json::json!(a.output.display().to_string());
        v["vertices"] = serde_json::json!(r.bwm.vertices.len());
        v["faces"] = serde_json::json!(r.bwm.faces.len());
        v["walkable_faces"] = serde_json::json!(r.bwm.walkable_face_count());
        v["welded"] = serde_json::json!(r.welded);
        print_json(out, &v)?;
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
            out.line(report.to_text().trim_end())?;
        }
    }
    Ok(u8::from(report.has_errors()))
}
