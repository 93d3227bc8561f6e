//! `areakit pth generate` and `pth check`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::navigate::{self, PthRequest};
use areakit_app::request::Distance;
use areakit_app::session::{Session, refuse_overwrite};

use super::{Output, print_json, text};

/// `areakit pth ...`.
#[derive(Debug, clap::Subcommand)]
pub enum PthCommand {
    /// Build a path graph from the walkable ground: points at the corners where shortest paths turn, connections where the straight walk is clear.
    #[command(
        after_help = "Example:\n  areakit pth generate areakit-demo/demo.lyt -o demo.pth --radius 0.35"
    )]
    Generate(PthGenerateArgs),
    /// Check a path graph against the walkable ground: points on walkable faces, connections walkable in a straight line.
    #[command(
        after_help = "Exit code 1 when an error is found.\n\nExample:\n  areakit pth check areakit-demo/demo.lyt demo.pth --json"
    )]
    Check(PthCheckArgs),
}

/// `areakit pth generate`.
#[derive(Debug, clap::Args)]
pub struct PthGenerateArgs {
    /// A BWM walkmesh, an area (LYT file or folder), or an NWN2 TRX/TRN.
    pub input: PathBuf,
    /// The PTH file to write.
    #[arg(short, long)]
    pub output: PathBuf,
    /// The radius points and connections keep from walls.
    #[arg(long, value_name = "R", default_value_t = PthRequest::default().radius)]
    pub radius: Distance,
    /// Corners closer than this are merged into one point.
    #[arg(long, value_name = "D", default_value_t = PthRequest::default().spacing)]
    pub spacing: Distance,
    /// Longest connection.
    #[arg(long, value_name = "D", default_value_t = PthRequest::default().max_link)]
    pub max_link: Distance,
}

/// `areakit pth check`.
#[derive(Debug, clap::Args)]
pub struct PthCheckArgs {
    /// A BWM walkmesh, an area (LYT file or folder), or an NWN2 TRX/TRN.
    pub input: PathBuf,
    /// The PTH file.
    pub pth: PathBuf,
    /// Print one JSON object `{"findings": [...]}`.
    #[arg(long)]
    pub json: bool,
}

pub fn run(c: PthCommand, session: &Session, out: &mut Output) -> Result<u8, Error> {
    match c {
        PthCommand::Generate(a) => {
            refuse_overwrite(&a.input, &a.output, false)?;
            let req = navigate::PthRequest {
                radius: a.radius,
                spacing: a.spacing,
                max_link: a.max_link,
            };
            let navigate::PthReport {
                points,
                connections,
            } = navigate::generate_pth_file(session, &a.input, &a.output, &req)?;
            out.line(&format!(
                "{} -> {} ({points} points, {connections} connections)",
                a.input.display(),
                a.output.display()
            ))?;
            Ok(0)
        }
        PthCommand::Check(a) => {
            let report = navigate::check_pth_report(session, &a.input, &a.pth)?;
            if a.json {
                print_json(out, &report)?;
            } else {
                out.line(text::check_text(&report).trim_end())?;
            }
            Ok(u8::from(report.has_errors()))
        }
    }
}
