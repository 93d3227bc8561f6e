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
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `areakit vis ...`.
pub fn run(_c: VisCommand, _session: &Session, _out: &mut Output) -> Result<u8, Error> {
    Err(Error::usage("vis: under construction"))
}
