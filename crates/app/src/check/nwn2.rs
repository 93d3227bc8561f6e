//! `check` of NWN2 areas: a TRX checked against the TRN (and GIT) beside it, or named with it.
//!
//! The files of one area are told by their stem (`area01.trn`, `area01.trx`, `area01.git`, any
//! case of the extensions) in one folder. Each TRX with a TRN gets the comparison of
//! [`areakit_area::nwn2_stale`]: a TRX that no longer matches its TRN and GIT
//! (`nwn2-trx-stale`), and cutters whose ground the TRX still walks (`nwn2-cutter-not-baked`).
//! Both are warnings: the TRX decodes and the game walks it; it is the builder's ground that
//! it no longer shows.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use areakit_area::nwn2_stale::{self, Staleness};
use areakit_formats::finding::Place;
use areakit_formats::{Finding, trx};

use crate::Error;
use crate::bake_area::read_git;
use crate::report::FileFinding;
use crate::session::Session;

/// One area's files.
#[derive(Debug, Default)]
struct AreaFiles {
    trn: Option<PathBuf>,
    trx: Option<PathBuf>,
    git: Option<PathBuf>,
}

/// The TRX / TRN / GIT groups among `files` (by folder and stem, case-insensitive), those with
/// both a TRN and a TRX.
fn groups(files: &[PathBuf]) -> Vec<(PathBuf, PathBuf, Option<PathBuf>)> {
    let mut by_stem: BTreeMap<(PathBuf, String), AreaFiles> = BTreeMap::new();
    for f in files {
        let (Some(stem), Some(ext)) = (f.file_stem(), f.extension()) else {
            continue;
        };
        let key = (
            f.parent().map(Path::to_path_buf).unwrap_or_default(),
            stem.to_string_lossy().to_lowercase(),
        );
        let slot = by_stem.entry(key).or_default();
        match ext.to_string_lossy().to_ascii_lowercase().as_str() {
            "trn" => slot.trn = Some(f.clone()),
            "trx" => slot.trx = Some(f.clone()),
            "git" => slot.git = Some(f.clone()),
            _ => {}
        }
    }
    by_stem
        .into_values()
        .filter_map(|a| Some((a.trn?, a.trx?, a.git)))
        .collect()
}

/// The findings of every NWN2 area among `files`, each on its TRX. A file that does not
/// decode is left to its own file check (which reports it).
pub fn area_findings(session: &Session, files: &[PathBuf]) -> Result<Vec<FileFinding>, Error> {
    let mut out = Vec::new();
    for (trn_path, trx_path, git_path) in groups(files) {
        let read = |p: &Path| -> Option<trx::Trx> {
            session.read(p).ok().and_then(|d| trx::read(&d).ok())
        };
        let (Some(trn), Some(t)) = (read(&trn_path), read(&trx_path)) else {
            continue;
        };
        let (Some(trn_w), Some(trx_w)) = (trn.walkmesh(), t.walkmesh()) else {
            continue;
        };
        let git = match &git_path {
            Some(g) => match read_git(session, g) {
                Ok(g) => Some(g),
                Err(Error::Io { .. }) | Err(Error::Invalid { .. }) | Err(Error::Bake { .. }) => {
                    None
                }
                Err(e) => return Err(e),
            },
            None => None,
        };
        let Ok(s) = nwn2_stale::compare(trn_w, trx_w, git.as_ref()) else {
            continue;
        };
        let what = if git.is_some() {
            "its TRN and GIT"
        } else {
            "its TRN"
        };
        out.extend(
            findings(&s, &trn_path, what)
                .into_iter()
                .map(|finding| FileFinding {
                    path: trx_path.clone(),
                    finding,
                }),
        );
    }
    Ok(out)
}

fn findings(s: &Staleness, trn: &Path, what: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    if s.is_stale() {
        let tiles: Vec<String> = s
            .tiles
            .iter()
            .map(|(t, n)| format!("tile {t} ({n})"))
            .collect();
        let mut place = Place::default();
        if let Some((t, _)) = s.tiles.first() {
            place = place.item(format!("tile {t}"));
        }
        let mut where_ = String::new();
        if let Some(b) = s.bbox {
            place = place.position([
                ((b[0] + b[2]) / 2.0) as f32,
                ((b[1] + b[3]) / 2.0) as f32,
                0.0,
            ]);
            where_ = format!(
                " within x {:.1}..{:.1}, y {:.1}..{:.1}",
                b[0], b[2], b[1], b[3]
            );
        }
        out.push(Finding::warning(
            "nwn2-trx-stale",
            place,
            format!(
                "the TRX no longer matches {what} ({}): {} of {} grid points (0.5 m, away from placed objects) walkable in either are walkable in one only ({:.1} %){where_}, most in {}; bake it again (`areakit bake`)",
                trn.display(),
                s.differ,
                s.walkable_in_either,
                100.0 * s.differ as f64 / s.walkable_in_either.max(1) as f64,
                tiles.join(", ")
            ),
        ));
    }
    for c in &s.cutters_not_baked {
        out.push(Finding::warning(
            "nwn2-cutter-not-baked",
            Place::default().position(c.position).item(format!("cutter {}", c.index)),
            format!(
                "walkmesh cutter {} ({}): {} of the {} TRN ground points inside it (0.1 m grid) are walkable in the TRX: moved or added after the TRX was baked",
                c.index, c.tag, c.walkable, c.covered
            ),
        ));
    }
    out
}
