//! The models of an NWN2 area's placed objects, for the bake: found by name in the folders of
//! `--models`, their `WALK` packets moved to each object's position, bearing and scale.
//!
//! A model is looked for as `TEMPLATE.mdb`, then `TAG.mdb` (any case; the object's appearance
//! tables are not read). No placed object of the corpus GITs has its model in the corpus, so
//! the placement follows the format description (`docs/formats/mdb.md`): model space scaled by
//! `ModelScale`, turned by the bearing about +z, moved to the position; a link vertex (z =
//! −1 000 000) is put at the object's height.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use areakit_area::nwn2_cut::PlacedWalk;
use areakit_area::nwn2_git::{Nwn2Git, ObjectKind, PlacedObject};
use areakit_formats::mdb;

use crate::Error;
use crate::session::Session;

/// What became of the placed objects.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct ObjectModels {
    /// Objects whose model has a walkmesh, put in: (object, model file).
    pub applied: Vec<(PlacedObject, PathBuf)>,
    /// Objects whose model was found without a `WALK` packet (nothing to put in).
    pub without_walkmesh: Vec<(PlacedObject, PathBuf)>,
    /// Objects whose model was not found.
    pub not_found: Vec<PlacedObject>,
}

/// The `.mdb` files of `dirs` (not recursive) by lower-case stem; the first folder wins.
fn index(dirs: &[PathBuf]) -> Result<HashMap<String, PathBuf>, Error> {
    let mut by_stem = HashMap::new();
    for d in dirs {
        let entries = std::fs::read_dir(d).map_err(|e| Error::io(d, e))?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("mdb")))
            .collect();
        files.sort();
        for f in files {
            if let Some(stem) = f.file_stem() {
                by_stem
                    .entry(stem.to_string_lossy().to_lowercase())
                    .or_insert(f);
            }
        }
    }
    Ok(by_stem)
}

/// The walkmeshes of `git`'s placeables, doors and environment objects whose models are in
/// `dirs`, in area space, and what became of every object. A model that does not decode is
/// an error naming it.
pub fn place_objects(
    session: &Session,
    git: &Nwn2Git,
    dirs: &[PathBuf],
) -> Result<(Vec<PlacedWalk>, ObjectModels), Error> {
    let models = index(dirs)?;
    let mut walks = Vec::new();
    let mut report = ObjectModels::default();
    for (i, o) in git.objects.iter().enumerate() {
        if o.kind == ObjectKind::Tree {
            continue;
        }
        let found = [&o.template, &o.tag]
            .into_iter()
            .filter(|n| !n.is_empty())
            .find_map(|n| models.get(&n.to_lowercase()));
        let Some(path) = found else {
            report.not_found.push(o.clone());
            continue;
        };
        let model = read_model(session, path)?;
        let triangles = placed_triangles(&model, o, path)?;
        if triangles.is_empty() {
            report.without_walkmesh.push((o.clone(), path.clone()));
        } else {
            walks.push(PlacedWalk {
                object: i,
                triangles,
            });
            report.applied.push((o.clone(), path.clone()));
        }
    }
    Ok((walks, report))
}

fn read_model(session: &Session, path: &Path) -> Result<mdb::Mdb, Error> {
    let data = session.read(path)?;
    mdb::read(&data).map_err(|e| Error::invalid(path, e))
}

/// A placed triangle's corners (area space) and its TRX flags.
type PlacedTriangle = ([[f32; 3]; 3], u16);

/// Every WALK triangle of `model` at `o`, with its walkable and material bits.
fn placed_triangles(
    model: &mdb::Mdb,
    o: &PlacedObject,
    path: &Path,
) -> Result<Vec<PlacedTriangle>, Error> {
    let (sin, cos) = o.bearing.sin_cos();
    let [sx, sy, sz] = o.scale;
    let place = |v: [f32; 3]| -> [f32; 3] {
        let (x, y) = (v[0] * sx, v[1] * sy);
        let z = if v[2] == mdb::raw::LINK_VERTEX_Z {
            o.position[2]
        } else {
            o.position[2] + v[2] * sz
        };
        [
            o.position[0] + cos * x - sin * y,
            o.position[1] + sin * x + cos * y,
            z,
        ]
    };
    let keep = areakit_formats::trx::raw::FLAG_WALKABLE | areakit_formats::trx::raw::FLAG_MATERIALS;
    let mut out = Vec::new();
    for w in model.walks() {
        let s = w.surface().map_err(|e| {
            Error::usage(format!(
                "{}: WALK triangle {} names vertex {} of {}",
                path.display(),
                e.triangle,
                e.vertex,
                e.vertex_count
            ))
        })?;
        for (t, f) in s.triangles.iter().zip(&w.triangles) {
            let corners = t.map(|i| place(s.vertices[i as usize]));
            if corners.iter().flatten().all(|c| c.is_finite()) {
                out.push((corners, (f.flags as u16) & keep));
            }
        }
    }
    Ok(out)
}
