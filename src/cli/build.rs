//! `areakit build`: arguments and printing.

use std::path::PathBuf;

use areakit_app::{Error, Session};

use super::Output;

/// `areakit build`.
#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// The layout: a Holocron Toolset `.indoor` file, or areakit's layout JSON (docs/build.md).
    pub layout: PathBuf,
    /// The module to write: a folder, or a `.mod` capsule.
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
pub fn run(_a: BuildArgs, _session: &Session, _out: &mut Output) -> Result<u8, Error> {
    Err(Error::usage("build: under construction"))
}
