//! `areakit rebuild`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::session::Session;

use super::Output;

/// `areakit rebuild`.
#[derive(Debug, clap::Args)]
pub struct RebuildArgs {
    /// The BWM file (WOK, PWK, DWK).
    pub input: PathBuf,
    /// The file to write (never the input).
    #[arg(short, long)]
    pub output: PathBuf,
}

pub fn run(a: RebuildArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
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
