//! `areakit demo`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;

use super::{Output, print_json, text};

/// `areakit demo`.
#[derive(Debug, clap::Args)]
pub struct DemoArgs {
    /// Folder to write the sample area into.
    #[arg(long, default_value = "areakit-demo")]
    pub out: PathBuf,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: DemoArgs, out: &mut Output) -> Result<u8, Error> {
    let report = areakit_app::demo::run(&a.out)?;
    if a.json {
        print_json(out, &report)?;
    } else {
        out.line(text::demo_text(&report).trim_end())?;
        if !report.check.findings.is_empty() {
            out.line(text::check_text(&report.check).trim_end())?;
        }
    }
    Ok(if report.ok() { 0 } else { 1 })
}
