//! `areakit extract`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::session::Session;

use super::{Output, term};

/// `areakit extract`.
#[derive(Debug, clap::Args)]
pub struct ExtractArgs {
    /// Capsules (existing ERF/MOD/SAV/HAK, RIM or KEY files), then the resources to write (RESREF.EXT).
    #[arg(value_name = "CAPSULE|RESREF.EXT")]
    pub items: Vec<String>,
    /// The folder to write into (made if needed).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
}

pub fn run(a: ExtractArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    // Leading items that are files are capsules; the rest name resources.
    let mut capsules = Vec::new();
    let mut names = Vec::new();
    for item in a.items {
        let p = std::path::PathBuf::from(&item);
        if names.is_empty()
            && p.is_file()
            && (areakit_app::session::is_capsule_file(&p)
                || areakit_app::install::is_capsule_name(&p))
        {
            capsules.push(p);
        } else {
            names.push(item);
        }
    }
    let done = areakit_app::capsules::extract(session, &capsules, &names, &a.output)?;
    for r in &done.renamed {
        out.line(&format!(
            "renamed: \"{}\" written as {} ({})",
            term::field(&r.name),
            r.file,
            r.reason
        ))?;
    }
    for r in &done.skipped {
        out.line(&format!(
            "skipped: \"{}\" ({})",
            term::field(&r.name),
            r.reason
        ))?;
    }
    out.line(&format!(
        "{} files written to {}{}",
        done.files.len(),
        a.output.display(),
        if done.manifest {
            format!(" (with {})", areakit_app::capsules::MANIFEST)
        } else {
            String::new()
        }
    ))?;
    Ok(0)
}
