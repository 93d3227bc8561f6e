//! `areakit minimap`: arguments and printing.

use std::path::PathBuf;

use areakit_app::{Error, Session};

use super::Output;

/// `areakit minimap`.
#[derive(Debug, clap::Args)]
pub struct MinimapArgs {
    /// An area: a LYT file, a folder, a module folder, a capsule or a game module.
    pub input: PathBuf,
    /// The minimap image to write (TGA, as the game reads it: lbl_map<module>.tga).
    #[arg(short, long)]
    pub output: PathBuf,
    /// The area's ARE, whose map block is computed to match the image.
    #[arg(long, value_name = "IN.are")]
    pub are: Option<PathBuf>,
    /// Where to write the ARE with the new map block (needs --are, or an area whose ARE is found).
    #[arg(long, value_name = "OUT.are")]
    pub are_out: Option<PathBuf>,
    /// The image size in pixels.
    #[arg(long, value_name = "WxH", default_value = "512x256")]
    pub size: String,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `areakit minimap`.
pub fn run(_a: MinimapArgs, _session: &Session, _out: &mut Output) -> Result<u8, Error> {
    Err(Error::usage("minimap: under construction"))
}
