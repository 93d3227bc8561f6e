//! The single-input operations behind `rebuild`, `transform`, `query` (walkmeshes and areas)
//! and `bake` (NWN2 terrains): the input opened ([`crate::input`]), the geometry layer run,
//! the result written atomically.

use std::path::Path;

use areakit_area::area::Area;
use areakit_area::walkmesh;
use areakit_formats::bwm::{self, Bwm, Material};
use areakit_formats::trx::{self, Trx};
use areakit_geometry::transform::{Axis, Transform};
use serde_json::{Value, json};

use crate::Error;
use crate::format::Format;
use crate::input::{self, Opened, load_bwm};
use crate::session::{Session, refuse_overwrite, write_atomic};

/// Decodes a BWM input's bytes; a file of another format areakit knows is refused as a usage
/// error that says what it is (as [`load_bwm`] does).
fn decode_bwm(path: &Path, data: &[u8]) -> Result<Bwm, Error> {
    match Format::detect(path, data) {
        Some(Format::Bwm) | None => bwm::read(data).map_err(|e| Error::invalid(path, e)),
        Some(other) => Err(not_a(
            path,
            other,
            "a BWM walkmesh (WOK/PWK/DWK) or an area",
        )),
    }
}

/// The refusal of an input of format `found` where a command takes `wanted`.
fn not_a(path: &Path, found: Format, wanted: &str) -> Error {
    Error::usage(format!(
        "{}: a {} file, not {wanted}",
        path.display(),
        found.name()
    ))
}

/// The rooms of an area that have a walkmesh: `(name, offset, walkmesh)`. Room walkmeshes are
/// in area (world) space, as the game's tools write them, so the offset is zero.
pub fn area_rooms(area: &Area) -> Vec<(String, [f32; 3], Bwm)> {
    area.rooms
        .iter()
        .filter_map(|r| r.wok.clone().map(|w| (r.name.clone(), [0.0; 3], w)))
        .collect()
}

/// A point query: the face under `(x, y)` (nearest `z` where faces overlap), as JSON
/// `{"face", "z", "material", "walkable"}` plus `"room"` for areas.
pub fn query_at(
    session: &Session,
    path: &Path,
    x: f32,
    y: f32,
    z: Option<f32>,
) -> Result<Value, Error> {
    let mesh = match input::open(session, Some(path))? {
        Opened::Area { module, .. } => {
            let area = &module.area;
            let q = walkmesh::Area::new(&area_rooms(area)).map_err(|e| Error::geometry(path, e))?;
            let a = q.at(x, y, z);
            let mut v = a.answer.to_json();
            v["room"] = json!(a.room);
            return Ok(v);
        }
        Opened::File { path, data } => decode_bwm(&path, &data)?,
    };
    Ok(walkmesh::query_at(&mesh, x, y, z)
        .map_err(|e| Error::geometry(path, e))?
        .to_json())
}

/// A ray query: the nearest face hit, as JSON `{"face", "distance", "point", "material",
/// "walkable"}` plus `"room"` for areas.
pub fn query_ray(
    session: &Session,
    path: &Path,
    origin: [f32; 3],
    dir: [f32; 3],
) -> Result<Value, Error> {
    let mesh = match input::open(session, Some(path))? {
        Opened::Area { module, .. } => {
            let rooms = area_rooms(&module.area);
            let q = walkmesh::Area::new(&rooms).map_err(|e| Error::geometry(path, e))?;
            return Ok(match q.ray(origin, dir) {
                Some((room, hit)) => {
                    let bwm = &rooms.iter().find(|r| r.0 == room).map(|r| &r.2);
                    let material = bwm
                        .and_then(|b| b.faces.get(hit.face as usize))
                        .map(|f| f.material);
                    json!({
                        "room": room, "face": hit.face, "distance": hit.distance, "point": hit.point,
                        "material": material.map(|m| m.name()), "walkable": material.is_some_and(Material::is_walkable),
                    })
                }
                None => {
                    json!({"room": null, "face": null, "distance": null, "point": null, "material": null, "walkable": false})
                }
            });
        }
        Opened::File { path, data } => decode_bwm(&path, &data)?,
    };
    Ok(walkmesh::query_ray(&mesh, origin, dir)
        .map_err(|e| Error::geometry(path, e))?
        .to_json())
}

/// Rebuilds a walkmesh's derived data and writes it atomically.
pub fn rebuild_file(session: &Session, input: &Path, output: &Path) -> Result<Bwm, Error> {
    refuse_overwrite(input, output, false)?;
    let mesh = load_bwm(session, input)?;
    let rebuilt = walkmesh::rebuild(&mesh).map_err(|e| Error::geometry(input, e))?;
    let bytes = bwm::write(&rebuilt).map_err(|e| Error::encode(output, e))?;
    write_atomic(output, &bytes)?;
    Ok(rebuilt)
}

/// What `transform` does to a walkmesh, in this order: mirror, rotate about z, translate,
/// then renumber the transitions.
#[derive(Debug, Clone, Default)]
pub struct TransformSteps {
    /// Mirror across this axis first.
    pub mirror: Option<Axis>,
    /// Rotate about z by this many degrees (counter-clockwise).
    pub rotate: Option<f64>,
    /// Then translate.
    pub translate: Option<[f32; 3]>,
    /// Transition renumbering (`from`, then `to` or `None` to clear).
    pub remap: Vec<(i32, Option<i32>)>,
}

/// Transforms a walkmesh ([`TransformSteps`]) and writes it atomically; returns it.
pub fn transform_file(
    session: &Session,
    input: &Path,
    output: &Path,
    steps: &TransformSteps,
) -> Result<Bwm, Error> {
    refuse_overwrite(input, output, false)?;
    let mut list = Vec::new();
    if let Some(axis) = steps.mirror {
        list.push(Transform::Mirror(axis));
    }
    if let Some(deg) = steps.rotate {
        if !deg.is_finite() {
            return Err(Error::usage("--rotate: expected a finite angle in degrees"));
        }
        list.push(Transform::RotateZ(deg));
    }
    if let Some(t) = steps.translate {
        if !t.iter().all(|v| v.is_finite()) {
            return Err(Error::usage("--translate: expected finite numbers"));
        }
        list.push(Transform::Translate(t));
    }
    let mesh = load_bwm(session, input)?;
    let result =
        walkmesh::transform(&mesh, &list, &steps.remap).map_err(|e| Error::geometry(input, e))?;
    let bytes = bwm::write(&result).map_err(|e| Error::encode(output, e))?;
    write_atomic(output, &bytes)?;
    Ok(result)
}

/// Bakes an NWN2 terrain (`.trn` or `.trx`): its tile path tables, islands and island path
/// table, written atomically to `output`; returns the baked terrain.
pub fn bake_file(session: &Session, input: &Path, output: &Path) -> Result<Trx, Error> {
    refuse_overwrite(input, output, false)?;
    let data = session.read(input)?;
    match Format::detect(input, &data) {
        Some(Format::Trx) | None => {}
        Some(other) => return Err(not_a(input, other, "an NWN2 terrain (TRN/TRX)")),
    }
    let trx = trx::read(&data).map_err(|e| Error::invalid(input, e))?;
    let baked = crate::bake::bake(&trx).map_err(|source| Error::Bake {
        path: input.to_path_buf(),
        source,
    })?;
    let bytes = trx::write(&baked).map_err(|e| Error::encode(output, e))?;
    write_atomic(output, &bytes)?;
    Ok(baked)
}
