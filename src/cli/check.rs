//! `areakit check`: arguments and printing; the work is in the library.

use std::io;
use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::session::Session;

use super::{Output, print_json, term, text};

/// `areakit check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Files and folders to check (none with `--game DIR --module NAME`: that module, assembled).
    pub paths: Vec<PathBuf>,
    /// Print one JSON object `{"files_checked": N, "findings": [...]}`.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: one per core). The output is the same for any number.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

pub fn run(a: CheckArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
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
