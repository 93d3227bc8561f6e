//! `areakit transform`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::choice::value_parser;
use areakit_app::geometry::transform::Axis;
use areakit_app::session::Session;

use super::{Output, numbers};

/// `areakit transform`.
#[derive(Debug, clap::Args)]
pub struct TransformArgs {
    /// The BWM walkmesh or binary model (MDL, with its .mdx beside it).
    pub input: PathBuf,
    /// The file to write (never the input).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Move by X,Y,Z (applied after rotate and mirror).
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true)]
    pub translate: Option<String>,
    /// Rotate about the z axis by DEG degrees, counter-clockwise seen from above (90-degree steps are exact).
    #[arg(long, value_name = "DEG", allow_hyphen_values = true)]
    pub rotate: Option<f64>,
    /// Mirror in x (x -> -x) or y (y -> -y); face winding is fixed.
    #[arg(long, value_name = "x|y", ignore_case = true, value_parser = value_parser::<Axis>())]
    pub mirror: Option<Axis>,
    /// Remap transitions: FROM=TO pairs, TO may be `none`.
    #[arg(long, value_name = "A=B,...")]
    pub remap: Option<String>,
}

pub fn run(a: TransformArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    if a.rotate.is_some_and(|d| !d.is_finite()) {
        return Err(Error::usage("--rotate: expected a finite angle in degrees"));
    }
    let translate = match &a.translate {
        Some(t) => Some(numbers::<3>("translate", t)?),
        None => None,
    };
    let remap = match &a.remap {
        Some(r) => areakit_app::walkmesh::parse_remap(r)
            .map_err(|e| Error::usage(format!("--remap: {e}")))?,
        None => Vec::new(),
    };
    let steps = areakit_app::ops::TransformSteps {
        mirror: a.mirror,
        rotate: a.rotate,
        translate,
        remap,
    };
    let faces = areakit_app::ops::transform_file(session, &a.input, &a.output, &steps)?.faces();
    out.line(&format!(
        "{} -> {} ({faces} faces)",
        a.input.display(),
        a.output.display(),
    ))?;
    Ok(0)
}
