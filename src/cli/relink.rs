//! `areakit relink`: arguments and printing.

use std::path::PathBuf;

use areakit_app::relink::RelinkReport;
use areakit_app::{Error, Session};
use areakit_area::relink::RelinkOptions;

use super::Output;

/// `areakit relink`.
#[derive(Debug, clap::Args)]
pub struct RelinkArgs {
    /// An area: a LYT file, a folder, a module folder, a capsule or a game module.
    pub input: PathBuf,
    /// The folder to write the area's WOKs (and the rest of the area) to.
    #[arg(short, long)]
    pub output: PathBuf,
    /// How far apart (metres, in 3-D) two boundary edges may be and still coincide.
    #[arg(long, value_name = "M", default_value_t = 0.1)]
    pub tolerance: f32,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `areakit relink`.
pub fn run(a: RelinkArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let opts = RelinkOptions {
        tolerance: a.tolerance,
    };
    let report = areakit_app::relink::relink(session, &a.input, &a.output, &opts)?;
    if a.json {
        super::print_json(out, &report)?;
    } else {
        for line in text(&report) {
            out.line(&line)?;
        }
    }
    Ok(0)
}

/// A room's link as text: its index, or `none`.
fn link(t: Option<u32>) -> String {
    t.map_or_else(|| "none".to_string(), |t| t.to_string())
}

/// The text form of the report: one line per change, the edges shared by several rooms, then
/// a summary.
fn text(r: &RelinkReport) -> Vec<String> {
    let mut lines: Vec<String> = r
        .changes
        .iter()
        .map(|c| {
            format!(
                "room {} face {} edge {}: {} -> {}",
                c.room_name,
                c.face,
                c.side,
                link(c.from),
                link(c.to)
            )
        })
        .collect();
    for s in &r.shared {
        let rooms: Vec<String> = s
            .rooms
            .iter()
            .map(|(room, len)| format!("{room} ({len:.2} m)"))
            .collect();
        lines.push(format!(
            "room {} face {} edge {}: meets rooms {}; leads into the first",
            s.room_name,
            s.face,
            s.side,
            rooms.join(", ")
        ));
    }
    let mut summary = format!(
        "{} change{} ({} set, {} cleared, {} changed); {} links in {} of {} rooms",
        r.changes.len(),
        if r.changes.len() == 1 { "" } else { "s" },
        r.set,
        r.cleared,
        r.changed,
        r.links,
        r.rooms_with_wok,
        r.rooms
    );
    if r.unverified > 0 {
        summary.push_str(&format!(
            ", {} into rooms without a walkmesh kept unchecked",
            r.unverified
        ));
    }
    summary.push_str(&format!(
        "; {} files written to {}",
        r.written.len(),
        r.output.display()
    ));
    lines.push(summary);
    lines
}
