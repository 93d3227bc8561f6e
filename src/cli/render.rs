//! `areakit render`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::session::Session;

use super::overlay::OverlayArgs;
use super::{Output, term};

/// `areakit render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// A BWM walkmesh, an area (LYT file or folder), an NWN2 TRX/TRN, or a binary model (KotOR or NWN: its aabb walkmesh).
    pub input: PathBuf,
    /// The picture to write: `.svg` or `.png`.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Mark every finding of `check` at its position.
    #[arg(long)]
    pub findings: bool,
    /// Size in pixels of the longer side.
    #[arg(long, default_value_t = 1024)]
    pub size: u32,
    #[command(flatten)]
    pub overlays: OverlayArgs,
    /// Do not draw the room models (an area's rooms' MDL top-down outlines, under the walkmesh).
    #[arg(long)]
    pub no_models: bool,
}

pub fn run(a: RenderArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let mut overlays = a.overlays.overlays()?;
    overlays.no_models = a.no_models;
    let notes = areakit_app::picture::render_file(
        session, &a.input, &a.output, a.findings, a.size, &overlays,
    )?;
    for n in notes {
        eprintln!("areakit render: {}", term::field(&n));
    }
    out.line(&format!("{} -> {}", a.input.display(), a.output.display()))?;
    Ok(0)
}
