//! `areakit vis ...`: arguments and printing.

use std::path::PathBuf;

use areakit_app::{Error, Session};

use super::Output;

/// `areakit vis`.
#[derive(Debug, clap::Subcommand)]
pub enum VisCommand {
    /// Compute an area's room visibility from its geometry: every pair of rooms a line can join through the openings of the rooms' models (a conservative VIS: no pair that could be seen is left out).
    #[command(
        after_help = "Rooms are cells and the openings of their models' shells are portals; a pair is listed when a line can pass from one room to the other through a sequence of portals (docs/vis.md). No sample spacing enters the result: --spacing only adds a sampled check that confirms the pairs (reported; it never removes one). Rooms whose walkmeshes are linked always see each other; the result is symmetric. Without room models every room sees every other (--depth N: the walkmesh room graph instead).\n\nExample:\n  areakit vis generate modules/m13aa -o m13aa.vis --json"
    )]
    Generate(VisGenerateArgs),
}

/// `areakit vis generate`.
#[derive(Debug, clap::Args)]
pub struct VisGenerateArgs {
    /// An area: a LYT file, a folder, a module folder, a capsule or a game module.
    pub input: PathBuf,
    /// The VIS file to write.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Height of the eye above the walkable floor, in metres.
    #[arg(long, default_value_t = areakit_app::visibility::VisOptions::default().eye_height)]
    pub eye_height: f32,
    /// Without room models: rooms at most this many walkmesh links apart see each other
    /// (else every room sees every other: nothing bounds what a room sees).
    #[arg(long)]
    pub depth: Option<usize>,
    /// Also look for sampled sight lines, this far apart (eye points on the floors, target
    /// points on the drawn surfaces), in metres, and report the pairs none confirms. The VIS
    /// does not depend on it.
    #[arg(long)]
    pub spacing: Option<f32>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `areakit vis ...`.
pub fn run(c: VisCommand, session: &Session, out: &mut Output) -> Result<u8, Error> {
    match c {
        VisCommand::Generate(a) => {
            let defaults = areakit_app::visibility::VisOptions::default();
            let spacing = a.spacing.unwrap_or(defaults.eye_spacing);
            let opts = areakit_app::visibility::VisOptions {
                eye_height: a.eye_height,
                fallback_depth: a.depth,
                confirm: a.spacing.is_some(),
                eye_spacing: spacing,
                target_spacing: spacing,
                ..defaults
            };
            let r = areakit_app::visibility::generate(session, &a.input, &a.output, &opts)?;
            if a.json {
                super::print_json(out, &r)?;
            } else {
                for line in report_text(&r) {
                    out.line(&line)?;
                }
            }
            Ok(0)
        }
    }
}

/// The text report: what was written, how, and the counts; then each warning.
fn report_text(r: &areakit_app::visibility::VisReport) -> Vec<String> {
    let g = &r.result;
    let mut lines = vec![
        format!(
            "{}: {} rooms, {} pairs see each other ({} linked) -> {}",
            r.area,
            g.rooms,
            g.pairs,
            g.linked_pairs,
            r.output.display()
        ),
        format!("method: {}", g.method),
    ];
    if g.openings > 0 || g.shell_loops > 0 {
        lines.push(format!(
            "{} openings in the rooms' shells ({} boundary loops, {} probe lines), {} doorways, {} portal sequences followed",
            g.openings, g.shell_loops, g.probes, g.doorways, g.portal_steps
        ));
    }
    if g.rays > 0 {
        lines.push(format!(
            "sampled check: eye height {} m; {} eye points, {} target points, {} occluder triangles, {} segments tested",
            g.eye_height, g.eye_points, g.target_points, g.occluder_triangles, g.rays
        ));
    }
    if let Some(n) = g.pairs_without_sampled_line {
        lines.push(format!("pairs without a sampled sight line: {n}"));
    }
    lines.extend(g.warnings.iter().map(|w| format!("warning: {w}")));
    lines
}
