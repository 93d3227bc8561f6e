//! `areakit bake`: arguments and printing.

use std::path::PathBuf;

use areakit_app::bake_area::{BakeReport, BakeRequest};
use areakit_app::{Error, Session};

use super::Output;
use super::term::field as safe;

/// `areakit bake`.
#[derive(Debug, clap::Args)]
pub struct BakeArgs {
    /// The TRN or TRX file, or an area folder holding one TRN (its GIT beside it is used).
    pub input: PathBuf,
    /// The baked TRX to write (never the input).
    #[arg(short, long)]
    pub output: PathBuf,
    /// The area's GIT: its walkmesh cutters are cut out of the ground and the result laid out
    /// as the toolset lays out a TRX (a folder input finds it beside the TRN).
    #[arg(long, value_name = "GIT")]
    pub git: Option<PathBuf>,
    /// A folder of NWN2 models (MDB; repeatable): the placed objects' walkmeshes (WALK) found
    /// there by template or tag are put in, the ground under them cut away.
    #[arg(long, value_name = "DIR")]
    pub models: Vec<PathBuf>,
    /// Print what was baked as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `areakit bake`.
pub fn run(a: BakeArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let req = BakeRequest {
        input: a.input,
        git: a.git,
        output: a.output.clone(),
        models: a.models,
    };
    let (_, report) = areakit_app::bake_area::bake_area(session, &req)?;
    if a.json {
        super::print_json(out, &report)?;
    } else {
        for line in text(&report, &a.output) {
            out.line(&line)?;
        }
    }
    Ok(0)
}

/// The text form: the cut (with a GIT), the objects not applied, then the summary line.
fn text(r: &BakeReport, output: &std::path::Path) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(c) = &r.cut {
        for k in &c.cutters {
            if let Some(why) = k.ignored {
                lines.push(format!(
                    "warning: cutter {} ({}) at {:.3},{:.3}: ignored, {why}",
                    k.index,
                    safe(&k.tag),
                    k.position[0],
                    k.position[1]
                ));
            }
            if let Some(o) = k.orientation_not_applied {
                lines.push(format!(
                    "warning: cutter {} ({}) has orientation {},{},{}: not applied (corners used as they stand)",
                    k.index,
                    safe(&k.tag),
                    o[0],
                    o[1],
                    o[2]
                ));
            }
        }
        let applied = c.cutters.iter().filter(|k| k.ignored.is_none()).count();
        lines.push(format!(
            "cut: {applied} cutters, {} triangles cut and {} removed ({} -> {} triangles), walkable area {:.1} -> {:.1} m2",
            c.triangles_cut, c.triangles_removed, c.triangles_before, c.triangles_after, c.walkable_area_before, c.walkable_area_after
        ));
        if let Some(b) = &c.border {
            lines.push(format!(
                "border: {} tiles, {:.1} m2 removed",
                b.tiles, b.area_removed
            ));
        }
    }
    if !r.objects_applied.is_empty() {
        lines.push(format!(
            "objects: {} placed walkmeshes put in",
            r.objects_applied.len()
        ));
    }
    if !r.objects_not_applied.is_empty() {
        lines.push(format!(
            "warning: {} placed objects' walkmeshes not applied (their models are not in --models); --json lists them with their positions",
            r.objects_not_applied.len()
        ));
    }
    let w = r.info.walkmesh.as_ref();
    lines.push(format!(
        "{} -> {}: {} triangles ({} walkable) in {} tiles, {} islands",
        safe(&r.terrain.display().to_string()),
        safe(&output.display().to_string()),
        w.map_or(0, |w| w.triangles),
        w.map_or(0, |w| w.walkable_triangles),
        w.map_or(0, |w| w.tiles),
        w.map_or(0, |w| w.islands)
    ));
    lines
}
