//! `areakit vis ...`: arguments and printing.

use std::path::PathBuf;

use areakit_app::{Error, Session};

use super::Output;

/// `areakit vis`.
#[derive(Debug, clap::Subcommand)]
pub enum VisCommand {
    /// Compute an area's room visibility from its geometry: sight lines from eye height above the walkable floor, through the openings, against the room models.
    #[command(
        after_help = "Rooms whose walkmeshes are linked always see each other; the result is symmetric. Without room models it falls back to the walkmesh room graph (docs/vis.md).\n\nExample:\n  areakit vis generate modules/m13aa -o m13aa.vis --json"
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
    /// Without room models: rooms at most this many walkmesh links apart see each other.
    #[arg(long, default_value_t = areakit_app::visibility::VisOptions::default().fallback_depth)]
    pub depth: usize,
    /// Distance between sample points (eye points on the floors, target points on the drawn
    /// surfaces), in metres: smaller is slower and misses less.
    #[arg(long, default_value_t = areakit_app::visibility::VisOptions::default().eye_spacing)]
    pub spacing: f32,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `areakit vis ...`.
pub fn run(c: VisCommand, session: &Session, out: &mut Output) -> Result<u8, Error> {
    match c {
        VisCommand::Generate(a) => {
            let opts = areakit_app::visibility::VisOptions {
                eye_height: a.eye_height,
                fallback_depth: a.depth,
                eye_spacing: a.spacing,
                target_spacing: a.spacing,
                ..Default::default()
            };
            let r = areakit_app::visibility::generate(session, &a.input, &a.output, &opts)?;
            if a.json {
                super::print_json(out, &serde_json::to_value(&r).unwrap_or_default())?;
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
    if g.rays > 0 {
        lines.push(format!(
            "eye height {} m; {} eye points, {} target points, {} occluder triangles, {} segments tested",
            g.eye_height, g.eye_points, g.target_points, g.occluder_triangles, g.rays
        ));
    }
    lines.push(format!(
        "pairs without a sampled sight line: {}",
        g.pairs_without_sampled_line
    ));
    lines.extend(g.warnings.iter().map(|w| format!("warning: {w}")));
    lines
}
