//! `bake` as an operation (above [`crate::error`], which the pure bake of [`crate::bake`]
//! is below): an NWN2 terrain (TRN or TRX), optionally with its area's GIT, baked
//! into the TRX the game reads.
//!
//! With a GIT, the ground is first cut as the toolset cuts it ([`areakit_area::nwn2_cut`]:
//! walkmesh cutters, the map border, the TRX layout) and, with `--models`, the placed objects'
//! walkmeshes put in ([`place_objects`]); then, always, the tables are baked
//! ([`crate::bake::bake_walkmesh`]). The report names every placeable, door and environment
//! object whose walkmesh was not put in, with its position.

use std::path::{Path, PathBuf};

use areakit_area::nwn2_cut::CutReport;
use areakit_area::nwn2_git::{Nwn2Git, PlacedObject};
use areakit_formats::{gff, trx};

use crate::Error;
use crate::bake::{BakeError, bake_with_git, not_applied};
use crate::format::Format;
use crate::info::{TrxInfo, trx_info};
use crate::input::not_a;
use crate::session::{Session, refuse_overwrite, write_atomic};

mod models;

pub use models::{ObjectModels, place_objects};

/// What to bake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BakeRequest {
    /// The terrain (`.trn` or `.trx`), or an area folder holding one TRN (and its GIT).
    pub input: PathBuf,
    /// The area's GIT: its walkmesh cutters are cut out. For a folder, the GIT beside the TRN
    /// (same name) when this is `None`.
    pub git: Option<PathBuf>,
    /// The TRX to write (never the input).
    pub output: PathBuf,
    /// Folders of NWN2 models (MDB): the placed objects' walkmeshes found there are put in
    /// (with a GIT).
    pub models: Vec<PathBuf>,
}

/// What `bake` did.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BakeReport {
    /// The terrain read.
    pub terrain: PathBuf,
    /// The GIT read, if any.
    pub git: Option<PathBuf>,
    /// The baked file, as `info` describes it.
    #[serde(flatten)]
    pub info: TrxInfo,
    /// What the GIT's cutters and the border strip changed (with a GIT).
    pub cut: Option<CutReport>,
    /// The placed objects whose walkmeshes are not applied (with a GIT): placeables, doors
    /// and environment objects (trees carry no walkmesh) whose model is not in `--models`
    /// (every one without it).
    pub objects_not_applied: Vec<PlacedObject>,
    /// The placed objects whose model's walkmesh was put in, with the model file.
    pub objects_applied: Vec<(PlacedObject, PathBuf)>,
    /// The placed objects whose model was found without a walkmesh.
    pub objects_without_walkmesh: Vec<(PlacedObject, PathBuf)>,
}

/// Bakes `req.input` (with its GIT) and writes the TRX atomically.
pub fn bake_area(session: &Session, req: &BakeRequest) -> Result<(trx::Trx, BakeReport), Error> {
    let (terrain, git_path) = resolve(req)?;
    if git_path.is_none() && !req.models.is_empty() {
        return Err(Error::usage(format!(
            "{}: --models places the objects of a GIT: give --git (or bake the area's folder)",
            terrain.display()
        )));
    }
    refuse_overwrite(&terrain, &req.output, false)?;
    let data = session.read(&terrain)?;
    match Format::detect(&terrain, &data) {
        Some(Format::Trx) | None => {}
        Some(other) => return Err(not_a(&terrain, other, "an NWN2 terrain (TRN/TRX)")),
    }
    let t = trx::read(&data).map_err(|e| Error::invalid(&terrain, e))?;
    let git = git_path
        .as_deref()
        .map(|g| read_git(session, g))
        .transpose()?;
    let (placed, models) = match &git {
        Some(g) if !req.models.is_empty() => place_objects(session, g, &req.models)?,
        _ => (Vec::new(), ObjectModels::default()),
    };
    let (baked, cut) = bake_with_git(&t, git.as_ref(), &placed).map_err(|source| Error::Bake {
        path: terrain.clone(),
        source,
    })?;
    let objects_not_applied = if req.models.is_empty() {
        git.map(not_applied).unwrap_or_default()
    } else {
        models.not_found
    };
    let bytes = trx::write(&baked).map_err(|e| Error::encode(&req.output, e))?;
    write_atomic(&req.output, &bytes)?;
    let report = BakeReport {
        terrain,
        git: git_path,
        info: trx_info(&baked),
        cut,
        objects_not_applied,
        objects_applied: models.applied,
        objects_without_walkmesh: models.without_walkmesh,
    };
    Ok((baked, report))
}

/// The terrain and GIT a request names: a folder's one TRN and the GIT beside it.
fn resolve(req: &BakeRequest) -> Result<(PathBuf, Option<PathBuf>), Error> {
    if !req.input.is_dir() {
        return Ok((req.input.clone(), req.git.clone()));
    }
    let entries = std::fs::read_dir(&req.input).map_err(|e| Error::io(&req.input, e))?;
    let mut trns: Vec<PathBuf> = Vec::new();
    for e in entries {
        let p = e.map_err(|e| Error::io(&req.input, e))?.path();
        if has_extension(&p, "trn") {
            trns.push(p);
        }
    }
    trns.sort();
    let terrain = match trns.as_slice() {
        [one] => one.clone(),
        [] => {
            return Err(Error::usage(format!(
                "{}: no .trn file in the folder",
                req.input.display()
            )));
        }
        many => {
            let names: Vec<String> = many
                .iter()
                .filter_map(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .collect();
            return Err(Error::usage(format!(
                "{}: {} terrains ({}); name one",
                req.input.display(),
                many.len(),
                names.join(", ")
            )));
        }
    };
    let git = match &req.git {
        Some(g) => Some(g.clone()),
        None => beside(&terrain, "git")?,
    };
    Ok((terrain, git))
}

/// The file beside `path` with the same stem and extension `ext` (any case), if any.
pub fn beside(path: &Path, ext: &str) -> Result<Option<PathBuf>, Error> {
    let (Some(dir), Some(stem)) = (path.parent(), path.file_stem()) else {
        return Ok(None);
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut found: Vec<PathBuf> = Vec::new();
    for e in entries {
        let p = e.map_err(|e| Error::io(dir, e))?.path();
        if has_extension(&p, ext) && p.file_stem().is_some_and(|s| s.eq_ignore_ascii_case(stem)) {
            found.push(p);
        }
    }
    found.sort();
    Ok(found.into_iter().next())
}

fn has_extension(p: &Path, ext: &str) -> bool {
    p.is_file() && p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Reads an NWN2 GIT.
pub fn read_git(session: &Session, path: &Path) -> Result<Nwn2Git, Error> {
    let data = session.read(path)?;
    let g = gff::read(&data).map_err(|e| Error::invalid(path, e))?;
    Nwn2Git::from_gff(&g).map_err(|e| Error::Bake {
        path: path.to_path_buf(),
        source: BakeError::Git(e),
    })
}
