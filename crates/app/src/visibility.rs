//! `areakit vis generate` and the VIS checks of an area with room models.
//!
//! The area is opened as every area input is ([`crate::input::open`]), its rooms' models are
//! found where the area was ([`crate::rooms::room_models`]), and the geometry goes to
//! [`areakit_area::visgen`]: sight lines from eye height above the walkable floor, against the
//! models' drawn faces (`docs/vis.md`).

use std::path::{Path, PathBuf};

use areakit_area::module::Module;
use areakit_area::visgen::{self, VisResult, VisRoom};
use areakit_formats::Finding;
use areakit_formats::mdl::Model;
use serde::Serialize;

pub use areakit_area::visgen::VisOptions;

use crate::Error;
use crate::input::{self, Opened};
use crate::rooms::RoomModel;
use crate::session::{Session, refuse_overwrite, write_atomic};

/// What `areakit vis generate` did (its serialisation is the `--json` output).
#[derive(Debug, Clone, Serialize)]
pub struct VisReport {
    /// The input as given.
    pub input: PathBuf,
    /// The VIS written.
    pub output: PathBuf,
    /// The area's name (its LYT's or folder's).
    pub area: String,
    /// The generation: the VIS, the method, the counts, the warnings.
    #[serde(flatten)]
    pub result: VisResult,
}

/// The pairs of LYT room indices whose walkmeshes are linked (a WOK edge's transition).
pub fn room_links(module: &Module) -> Vec<(usize, usize)> {
    let n = module.area.rooms.len();
    module
        .area
        .links()
        .into_iter()
        .filter_map(|l| {
            let to = usize::try_from(l.to).ok().filter(|&t| t < n)?;
            Some((l.from, to))
        })
        .collect()
}

/// The rooms of `module` as the generator takes them: each LYT room with its WOK and the
/// decoded model of `models` (by room index; a model that does not decode is left out).
pub fn vis_rooms<'a>(module: &'a Module, models: &'a [RoomModel]) -> Vec<VisRoom<'a>> {
    module
        .area
        .rooms
        .iter()
        .enumerate()
        .map(|(i, room)| {
            let model: Option<&Model> = models
                .iter()
                .find(|m| m.room == i)
                .and_then(|m| m.model.as_ref().ok());
            VisRoom {
                name: room.name.clone(),
                walkmesh: room.wok.as_ref(),
                model,
                position: module
                    .area
                    .lyt
                    .rooms
                    .get(i)
                    .map_or([0.0; 3], |r| r.position),
            }
        })
        .collect()
}

/// Generates the VIS of the area `input` and writes it to `output` (atomically; the input and
/// its layout are never overwritten). A model that does not decode is named in a warning and
/// its room is taken without a model.
pub fn generate(
    session: &Session,
    input: &Path,
    output: &Path,
    opts: &VisOptions,
) -> Result<VisReport, Error> {
    refuse_overwrite(input, output, false)?;
    let (area, lyt_path, result) = compute(session, input, opts)?;
    refuse_overwrite(&lyt_path, output, false)?;
    let bytes = areakit_formats::vis::write(&result.vis).map_err(|e| Error::encode(output, e))?;
    write_atomic(output, &bytes)?;
    Ok(VisReport {
        input: input.to_path_buf(),
        output: output.to_path_buf(),
        area,
        result,
    })
}

/// The VIS of the area `input`, generated and not written: the area's title, its LYT's path
/// and the result (what `areakit vis generate` writes; Python's `Area.generate_vis`).
pub fn compute(
    session: &Session,
    input: &Path,
    opts: &VisOptions,
) -> Result<(String, PathBuf, VisResult), Error> {
    if !(opts.eye_height.is_finite() && opts.eye_height > 0.0) {
        return Err(Error::usage(format!(
            "--eye-height {}: expected a height above the floor in metres (> 0)",
            opts.eye_height
        )));
    }
    for (what, v) in [
        ("eye spacing", opts.eye_spacing),
        ("target spacing", opts.target_spacing),
    ] {
        if !(v.is_finite() && v >= 0.05) {
            return Err(Error::usage(format!(
                "{what} {v}: expected a distance of at least 0.05 m"
            )));
        }
    }
    let Opened::Area {
        module,
        title,
        resources,
    } = input::open(session, Some(input))?
    else {
        return Err(Error::usage(format!(
            "{}: not an area (expected a LYT, a folder with one, a module folder, a capsule or a game module)",
            input.display()
        )));
    };
    let models = crate::rooms::room_models(&module, resources.as_ref());
    let rooms = vis_rooms(&module, &models);
    if rooms.len() > visgen::MAX_ROOMS {
        return Err(Error::usage(format!(
            "{}: {} rooms, more than the {} a VIS is made for",
            input.display(),
            rooms.len(),
            visgen::MAX_ROOMS
        )));
    }
    let mut result = visgen::generate_vis(&rooms, &room_links(&module), opts);
    for m in &models {
        if let Err(e) = &m.model {
            result.warnings.insert(
                0,
                format!(
                    "{}: the model does not decode ({e}); room `{}` is taken without it",
                    m.origin, m.name
                ),
            );
        }
    }
    Ok((title, module.area.lyt_path.clone(), result))
}

/// The VIS findings of an area whose room models are `models` (as [`crate::rooms::room_models`]
/// loaded them): `vis-missing-pair` and `vis-excess-pair` against the area's VIS, filed under
/// the VIS. Nothing when the area has no VIS or no room model decodes. `known`: the pairs of
/// rooms (LYT indices) a line may join, when the caller has them (a module just built:
/// [`visgen::conservative_pairs`] is not run again).
pub fn vis_findings(
    module: &Module,
    models: &[RoomModel],
    known: Option<&[(usize, usize)]>,
) -> Vec<Finding> {
    let area = &module.area;
    let Some(vis) = &area.vis else {
        return Vec::new();
    };
    if !models.iter().any(|m| m.model.is_ok()) {
        return Vec::new();
    }
    let rooms = vis_rooms(module, models);
    let file = area
        .vis_path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| area.lyt_path.display().to_string());
    let spacing = visgen::check_spacing(&rooms);
    let opts = VisOptions {
        eye_spacing: spacing,
        target_spacing: spacing,
        ..VisOptions::default()
    };
    visgen::vis_findings(&rooms, &room_links(module), vis, &opts, known)
        .into_iter()
        .map(|mut f| {
            f.place = f.place.file(file.clone());
            f
        })
        .collect()
}
