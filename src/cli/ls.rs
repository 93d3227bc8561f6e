//! `areakit ls`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::session::Session;

use super::{Output, print_json, text};

/// `areakit ls`.
#[derive(Debug, clap::Args)]
pub struct LsArgs {
    /// Capsules (ERF/MOD/SAV/HAK, RIM) or KEY files.
    pub capsules: Vec<PathBuf>,
    /// Only resources of this type (an extension such as wok, or a decimal type id).
    #[arg(long = "type", value_name = "EXT")]
    pub restype: Option<String>,
    /// Print one JSON object `{"count": N, "resources": [{"name", "resref", "type", "type_id", "size", "origin", "shadows"}]}`.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: LsArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let listing = areakit_app::capsules::list(session, &a.capsules, a.restype.as_deref())?;
    if a.json {
        print_json(out, &areakit_app::capsules::LsReport::new(&listing))?;
    } else {
        out.line(text::ls_text(&listing).trim_end())?;
    }
    Ok(0)
}
