//! `areakit import`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::session::Session;

use super::{Output, print_json, text};

/// `areakit import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The mesh: `.obj`, `.glb` or `.gltf`.
    pub input: PathBuf,
    /// The walkmesh to write: `.wok` (area room), `.pwk` (placeable) or `.dwk` (door); or
    /// `.trx`, an NWN2 terrain (with --terrain).
    #[arg(short, long)]
    pub output: PathBuf,
    /// For a `.trx` output: the NWN2 terrain (TRN or TRX) whose walkmesh the mesh replaces
    /// (its grid, tiles and other packets are kept); the result is baked.
    #[arg(long, value_name = "TRN")]
    pub terrain: Option<PathBuf>,
    /// A JSON object mapping material names to surface materials (names or ids).
    #[arg(long, value_name = "MAP.json")]
    pub materials: Option<PathBuf>,
    /// Import one room only: the N-th OBJ object (`o`, from 0) or glTF room node (areakit's area exports: the LYT index) or mesh node.
    #[arg(long, value_name = "N")]
    pub room_index: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: ImportArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    use areakit_app::interop::{ImportOutcome, ImportRequest};
    let materials = match &a.materials {
        Some(f) => areakit_app::interop::MaterialMap::read(session, f)?,
        None => Default::default(),
    };
    let req = ImportRequest {
        input: &a.input,
        output: &a.output,
        terrain: a.terrain.as_deref(),
        options: areakit_app::interop::ImportOptions {
            materials,
            room_index: a.room_index,
        },
    };
    let outcome = areakit_app::interop::import(session, &req)?;
    let report = outcome.check_report();
    if a.json {
        print_json(out, &outcome)?;
        return Ok(u8::from(report.has_errors()));
    }
    match &outcome {
        ImportOutcome::Terrain(r) => {
            let w = r.trx.walkmesh();
            out.line(&format!(
                "{} -> {}: {} vertices ({} welded), {} triangles ({} walkable) in {} tiles, {} islands",
                a.input.display(),
                a.output.display(),
                w.map_or(0, |w| w.vertices.len()),
                r.welded,
                w.map_or(0, |w| w.triangles.len()),
                w.map_or(0, |w| w.walkable_count()),
                w.map_or(0, |w| w.tiles.len()),
                w.map_or(0, |w| w.islands.len())
            ))?;
        }
        ImportOutcome::Walkmesh(r) => {
            out.line(&format!(
                "{} -> {}: {} vertices ({} welded), {} faces ({} walkable), {} edges in {} perimeter loops",
                a.input.display(),
                a.output.display(),
                r.bwm.vertices.len(),
                r.welded,
                r.bwm.faces.len(),
                r.bwm.walkable_face_count(),
                r.bwm.edges.len(),
                r.bwm.perimeters.len()
            ))?;
        }
    }
    if !report.findings.is_empty() {
        out.line(text::check_text(&report).trim_end())?;
    }
    Ok(u8::from(report.has_errors()))
}
