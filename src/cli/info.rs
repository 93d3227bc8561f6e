//! `areakit info`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::session::Session;

use super::{Output, print_json, text};

/// `areakit info`.
#[derive(Debug, clap::Args)]
pub struct InfoArgs {
    /// The file (or area folder) to describe.
    pub file: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: InfoArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let v = serde_json::to_value(areakit_app::info::info_path(session, &a.file)?)?;
    if a.json {
        print_json(out, &v)?;
    } else {
        out.line(text::info_text(&v).trim_end())?;
    }
    Ok(0)
}
