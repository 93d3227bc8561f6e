//! The command implementations: argument handling and printing only; the work is in the library.

pub mod args;
pub mod bake;
pub mod build;
pub mod check;
pub mod convert;
pub mod demo;
pub mod export;
pub mod extract;
pub mod import;
pub mod info;
pub mod ls;
pub mod minimap;
pub mod overlay;
pub mod pack;
pub mod path;
pub mod pth;
pub mod query;
pub mod rebuild;
pub mod relink;
pub mod render;
pub mod term;
pub mod text;
pub mod transform;
pub mod view;
pub mod vis;

use std::io::{self, Write};

use areakit_app::Error;
use areakit_app::session::{Session, Sources};
use args::{Cli, Command};

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
        Command::Ls(a) => ls::run(a, &session, out),
        Command::Extract(a) => extract::run(a, &session, out),
        Command::Pack(a) => pack::run(a, out),
        Command::Info(a) => info::run(a, &session, out),
        Command::Bake(a) => bake::run(a, &session, out),
        Command::Demo(a) => demo::run(a, out),
        Command::Rebuild(a) => rebuild::run(a, &session, out),
        Command::Query(a) => query::run(a, &session, out),
        Command::Transform(a) => transform::run(a, &session, out),
        Command::Render(a) => render::run(a, &session, out),
        Command::View(a) => view::run(a, &session, out),
        Command::Check(a) => check::run(a, &session, out),
        Command::Convert(a) => convert::run(a, &session, out),
        Command::Path(a) => path::run(a, &session, out),
        Command::Pth(c) => pth::run(c, &session, out),
        Command::Export(a) => export::run(a, &session, out),
        Command::Import(a) => import::run(a, &session, out),
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
