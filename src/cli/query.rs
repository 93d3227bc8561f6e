//! `areakit query`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::session::Session;

use super::{Output, numbers, print_json, text};

/// `areakit query`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["at", "ray"])))]
pub struct QueryArgs {
    /// A BWM walkmesh, a binary model (KotOR or NWN: its aabb walkmesh), or an area: a LYT file or a folder holding one.
    pub file: PathBuf,
    /// The point X,Y to look at (the face under it and its height).
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub at: Option<String>,
    /// A height hint: where walkable faces overlap, pick the one nearest this height.
    #[arg(long, value_name = "Z", allow_hyphen_values = true, requires = "at")]
    pub z: Option<f32>,
    /// A ray: origin and direction, X,Y,Z:DX,DY,DZ.
    #[arg(long, value_name = "X,Y,Z:DX,DY,DZ", allow_hyphen_values = true)]
    pub ray: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: QueryArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    use areakit_app::ops::QueryRequest;
    let req = match (&a.at, &a.ray) {
        (Some(at), _) => {
            let [x, y] = numbers::<2>("at", at)?;
            QueryRequest::at(x, y, a.z)?
        }
        (None, Some(ray)) => {
            let (o, d) = ray
                .split_once(':')
                .ok_or_else(|| Error::usage(format!("--ray {ray}: expected X,Y,Z:DX,DY,DZ")))?;
            QueryRequest::ray(numbers::<3>("ray", o)?, numbers::<3>("ray", d)?)?
        }
        (None, None) => return Err(Error::usage("give --at X,Y or --ray X,Y,Z:DX,DY,DZ")),
    };
    let report = areakit_app::ops::query(session, &a.file, &req)?;
    if a.json {
        print_json(out, &report)?;
    } else {
        out.line(text::info_text(&serde_json::to_value(&report)?).trim_end())?;
    }
    Ok(0)
}
