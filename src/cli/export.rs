//! `areakit export`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::session::Session;

use super::overlay::parse_paths;
use super::{Output, print_json, term};

/// `areakit export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// A BWM walkmesh, an area (LYT file or folder), an NWN2 TRX/TRN, or an MDL ASCII model.
    pub input: PathBuf,
    /// The file to write: `.glb`, `.gltf` or `.obj` (an `.mtl` is written beside an OBJ).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Leave out the faces that are not walkable, and an area's room models (the walkable ground alone).
    #[arg(long)]
    pub walkable_only: bool,
    /// Export the shortest path between two points, X,Y:X,Y (or X,Y,Z:X,Y,Z); repeatable.
    #[arg(long, value_name = "X,Y:X,Y", allow_hyphen_values = true)]
    pub path: Vec<String>,
    /// Export placed objects (placeables and doors) from a JSON file (schema: docs/navigation.md); paths go around them.
    #[arg(long, value_name = "FILE")]
    pub objects: Option<PathBuf>,
    /// Leave out the room models of an area (the `models` layer: each room's MDL at its LYT position); the walkmeshes stay.
    #[arg(long)]
    pub no_models: bool,
    /// A folder of textures (TPC, TGA, TXI) searched after the input's own folder and its `textures/` and `lightmaps/` folders, before the game (--game); repeatable.
    #[arg(long, value_name = "DIR")]
    pub textures: Vec<PathBuf>,
    /// Leave the textures out: materials stay flat, named after their textures.
    #[arg(long)]
    pub no_textures: bool,
    /// Print the report as one JSON object (files written, counts, notes, textures embedded and missing).
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: ExportArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let options = areakit_app::interop::ExportOptions {
        walkable_only: a.walkable_only,
        paths: parse_paths(&a.path)?,
        objects: a.objects.clone(),
        no_models: a.no_models,
        no_textures: a.no_textures,
        texture_dirs: a.textures.clone(),
    };
    let s = areakit_app::interop::export_file(session, &a.input, &a.output, &options)?;
    if a.json {
        print_json(out, &s)?;
        return Ok(0);
    }
    for n in &s.notes {
        eprintln!("areakit export: {}", term::field(n));
    }
    let written: Vec<String> = s.written.iter().map(|p| p.display().to_string()).collect();
    let textures = if s.textures.embedded.is_empty() && s.textures.missing.is_empty() {
        String::new()
    } else {
        format!(
            ", {} textures embedded, {} missing",
            s.textures.embedded.len(),
            s.textures.missing.len()
        )
    };
    out.line(&format!(
        "{} -> {}: {} nodes, {} vertices, {} faces{textures}",
        a.input.display(),
        written.join(" + "),
        s.nodes,
        s.vertices,
        s.faces
    ))?;
    Ok(0)
}
