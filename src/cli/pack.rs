//! `areakit pack`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;

use super::Output;

/// `areakit pack`.
#[derive(Debug, clap::Args)]
pub struct PackArgs {
    /// The folder of RESREF.EXT files.
    pub dir: PathBuf,
    /// The capsule to write: NAME.mod, .erf, .sav, .hak or .rim.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
}

pub fn run(a: PackArgs, out: &mut Output) -> Result<u8, Error> {
    let p = areakit_app::capsules::pack(&a.dir, &a.output)?;
    out.line(&format!(
        "{} -> {}: {} members, {} bytes{}",
        a.dir.display(),
        a.output.display(),
        p.members,
        p.bytes,
        if p.from_manifest {
            format!(" (layout of {})", areakit_app::capsules::MANIFEST)
        } else {
            String::new()
        }
    ))?;
    Ok(0)
}
