//! `areakit view`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::session::Session;

use super::overlay::OverlayArgs;
use super::{Output, term};

/// `areakit view`.
#[derive(Debug, clap::Args)]
pub struct ViewArgs {
    /// A BWM walkmesh, an area (LYT file or folder), an NWN2 TRX/TRN, or a binary model (KotOR or NWN: its aabb walkmesh).
    pub input: PathBuf,
    /// The HTML page to write.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Open the page in the system's browser once written.
    #[arg(long)]
    pub open: bool,
    #[command(flatten)]
    pub overlays: OverlayArgs,
    /// The 2-D map even when the input has room models (or is a model).
    #[arg(long = "2d")]
    pub two_d: bool,
    /// A folder of textures (and object models) searched after the input's own places, before the game (--game); repeatable.
    #[arg(long, value_name = "DIR")]
    pub textures: Vec<PathBuf>,
    /// Leave the textures out (flat materials named after them).
    #[arg(long)]
    pub no_textures: bool,
    /// Halve each texture until no side exceeds this many pixels (smaller pages).
    #[arg(long, value_name = "PIXELS", default_value_t = 512)]
    pub texture_size: u32,
}

pub fn run(a: ViewArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let overlays = a.overlays.overlays()?;
    let options = areakit_app::view3d::ViewOptions {
        two_d: a.two_d,
        texture_dirs: a.textures.clone(),
        no_textures: a.no_textures,
        texture_size: a.texture_size,
    };
    let (summary, notes) =
        areakit_app::view3d::view(session, &a.input, &a.output, &overlays, &options)?;
    for n in notes {
        eprintln!("areakit view: {}", term::field(&n));
    }
    let three_d = if summary.mode == "3d" {
        format!(
            "3-D: {} meshes, {} triangles, {} objects, {} textures; ",
            summary.meshes,
            summary.triangles,
            summary.objects,
            summary.textures.embedded.len()
        )
    } else {
        String::new()
    };
    out.line(&format!(
        "{} -> {} ({three_d}{} faces, {} rooms, {} findings, {} bytes)",
        a.input.display(),
        a.output.display(),
        summary.faces,
        summary.rooms,
        summary.findings,
        summary.bytes
    ))?;
    if a.open {
        areakit_app::view::open_in_browser(&a.output)?;
    }
    Ok(0)
}
