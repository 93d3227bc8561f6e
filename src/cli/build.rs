//! `areakit build`: arguments and printing.

use std::path::PathBuf;

use areakit_app::build::{BuildOptions, BuildOutput};
use areakit_app::{Error, Session};

use super::Output;

/// `areakit build`.
#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// The layout: a Holocron Toolset `.indoor` file, or areakit's layout JSON (docs/build.md).
    pub layout: PathBuf,
    /// The module to write: a folder (no extension), or a `.mod`, `.erf` or `.sav` capsule.
    #[arg(short, long)]
    pub output: PathBuf,
    /// The folder of Holocron kits (`<kit>.json` beside a `<kit>/` folder each).
    #[arg(long, value_name = "DIR")]
    pub kits: Option<PathBuf>,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `areakit build`.
pub fn run(a: BuildArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let opts = BuildOptions {
        kits: a.kits.clone(),
        force: a.force,
    };
    let bar = progress();
    let step = |s: areakit_app::build::BuildStep| {
        if let Some(bar) = &bar {
            let (at, of) = s.position();
            bar.set_length(of as u64);
            bar.set_position(at as u64);
            bar.set_message(s.describe());
        }
    };
    let r = areakit_app::build::build_reporting(session, &a.layout, &a.output, &opts, &step);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let r = r?;
    if a.json {
        super::print_json(out, &r)?;
    } else {
        text(&r, out)?;
    }
    Ok(0)
}

/// The build's progress bar on stderr when it is a terminal (never in pipes, files or tests),
/// drawn only once the build has taken a second.
fn progress() -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar =
        indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::hidden());
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "building: {msg} {wide_bar} {pos}/{len} ({elapsed})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let shown = bar.clone();
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(1));
        if !shown.is_finished() {
            shown.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            shown.enable_steady_tick(std::time::Duration::from_millis(200));
        }
    });
    Some(bar)
}

fn text(r: &BuildOutput, out: &mut Output) -> Result<(), Error> {
    let b = &r.build;
    out.line(&format!(
        "{} -> {}: module {} ({}), {} rooms, {} doors, {} files ({} bytes)",
        r.layout.display(),
        r.output.display(),
        b.module,
        match b.game {
            areakit_app::build::TargetGame::K1 => "K1",
            areakit_app::build::TargetGame::K2 => "K2",
        },
        b.rooms.len(),
        b.connections.iter().filter(|c| !c.door.is_empty()).count(),
        r.files.len(),
        r.bytes
    ))?;
    for room in &b.rooms {
        let hooks: Vec<String> = room
            .hooks
            .iter()
            .map(|h| h.map_or("-".to_string(), |o| o.to_string()))
            .collect();
        out.line(&format!(
            "  {} {} at {:.2},{:.2},{:.2} rot {:.0}{}{} hooks [{}] links {}{}",
            room.name,
            room.source,
            room.position[0],
            room.position[1],
            room.position[2],
            room.rotation,
            if room.flip_x { " flip-x" } else { "" },
            if room.flip_y { " flip-y" } else { "" },
            hooks.join(" "),
            room.links,
            if room.reached {
                ""
            } else {
                " (not reached from the entry)"
            }
        ))?;
    }
    out.line(&format!(
        "  entry {:.2},{:.2},{:.2}; VIS {} pairs ({} linked); minimap coverage {:.1}% ({} rooms from kit images)",
        b.entry[0],
        b.entry[1],
        b.entry[2],
        b.vis_pairs,
        b.linked_pairs,
        b.minimap_coverage * 100.0,
        b.minimap_images
    ))?;
    for w in &b.warnings {
        out.line(&format!("  warning: {w}"))?;
    }
    out.line(&format!(
        "  check: {} errors, {} warnings, {} infos",
        r.check.errors, r.check.warnings, r.check.infos
    ))?;
    Ok(())
}
