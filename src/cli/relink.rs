//! `areakit relink`: arguments and printing.

use std::path::PathBuf;

use areakit_app::{Error, Session};

use super::Output;

/// `areakit relink`.
#[derive(Debug, clap::Args)]
pub struct RelinkArgs {
    /// An area: a LYT file, a folder, a module folder, a capsule or a game module.
    pub input: PathBuf,
    /// The folder to write the area's WOKs (and the rest of the area) to.
    #[arg(short, long)]
    pub output: PathBuf,
    /// How far apart (metres, in 3-D) two boundary edges may be and still coincide.
    #[arg(long, value_name = "M", default_value_t = 0.1)]
    pub tolerance: f32,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `areakit relink`.
pub fn run(_a: RelinkArgs, _session: &Session, _out: &mut Output) -> Result<u8, Error> {
    Err(Error::usage("relink: under construction"))
}
