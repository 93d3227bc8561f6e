//! The single-input operations behind `rebuild`, `transform`, `query` (walkmeshes and areas),
//! `convert` (any format) and `bake` (NWN2 terrains): the input opened ([`crate::input`] or
//! [`crate::document`]), the geometry layer run, the result written atomically.

use std::path::Path;

use areakit_area::area::Area;
use areakit_area::walkmesh;
use areakit_formats::bwm::{self, Bwm, Material};
use areakit_geometry::transform::{Axis, Transform};

use crate::Error;
use crate::atomic::{Member, write_set};
use crate::document::{Document, EncodeOptions};
use crate::format::Format;
use crate::input::{self, Opened, decode_bwm, load_bwm, not_a};
use crate::session::{Session, refuse_overwrite, write_atomic};

/// What `query` takes.
const QUERY_INPUT: &str = "a BWM walkmesh (WOK/PWK/DWK), a binary model or an area";

/// The walkmesh a query of a file answers from: a BWM, or a binary model's aabb walkmesh.
fn query_mesh(session: &Session, path: &Path, data: &[u8]) -> Result<Bwm, Error> {
    if Format::detect(path, data) == Some(Format::Mdl) {
        return Document::decode_read(session, path, data)?
            .model_walkmesh()
            .ok_or_else(|| not_a(path, Format::Mdl, QUERY_INPUT))?
            .map_err(|e| Error::geometry(path, e));
    }
    decode_bwm(path, data, QUERY_INPUT)
}

/// The rooms of an area that have a walkmesh: `(name, offset, walkmesh)`. Room walkmeshes are
/// in area (world) space, as the game's tools write them, so the offset is zero.
pub fn area_rooms(area: &Area) -> Vec<(String, [f32; 3], Bwm)> {
    area.rooms
        .iter()
        .filter_map(|r| r.wok.clone().map(|w| (r.name.clone(), [0.0; 3], w)))
        .collect()
}

/// The answer of `query --at`: the face under the point (the one nearest `z` where faces
/// overlap), its height there, material and walkability; for an area, the room (`room` is
/// absent for a single walkmesh, null off every room).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PointReport {
    /// The face, if any.
    pub face: Option<u32>,
    /// Its height at the point.
    pub z: Option<f32>,
    /// Its material's name.
    pub material: Option<String>,
    /// Whether it is walkable (false without a face).
    pub walkable: bool,
    /// The room (areas only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub room: Option<Option<String>>,
}

/// The answer of `query --ray`: the first face hit; for an area, the room first (absent for a
/// single walkmesh).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RayReport {
    /// The room of the face hit (areas only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub room: Option<Option<String>>,
    /// The face hit, if any.
    pub face: Option<u32>,
    /// How far along the ray.
    pub distance: Option<f32>,
    /// Where.
    pub point: Option<[f32; 3]>,
    /// Its material's name.
    pub material: Option<String>,
    /// Whether it is walkable.
    pub walkable: bool,
}

/// What `query` asks of a walkmesh or area: the face under a point, or the first face a ray
/// hits. Built only by [`QueryRequest::at`] and [`QueryRequest::ray`], which refuse what the
/// query cannot answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QueryRequest {
    /// The face under `(x, y)`, nearest the height `z` where faces overlap.
    At {
        /// Plan position.
        x: f32,
        /// Plan position.
        y: f32,
        /// A height hint.
        z: Option<f32>,
    },
    /// The first face along a ray.
    Ray {
        /// Where it starts.
        origin: [f32; 3],
        /// Its direction (not zero).
        dir: [f32; 3],
    },
}

impl QueryRequest {
    /// A point query; a usage error for a height that is no finite number.
    pub fn at(x: f32, y: f32, z: Option<f32>) -> Result<QueryRequest, Error> {
        if !(x.is_finite() && y.is_finite()) {
            return Err(Error::usage("at: expected a finite point"));
        }
        if z.is_some_and(|z| !z.is_finite()) {
            return Err(Error::usage("z: expected a finite height"));
        }
        Ok(QueryRequest::At { x, y, z })
    }

    /// A ray query; a usage error for a zero direction or a number that is not finite.
    pub fn ray(origin: [f32; 3], dir: [f32; 3]) -> Result<QueryRequest, Error> {
        if !origin.iter().chain(&dir).all(|v| v.is_finite()) {
            return Err(Error::usage("ray: expected finite numbers"));
        }
        if dir == [0.0; 3] {
            return Err(Error::usage("ray: the direction must not be zero"));
        }
        Ok(QueryRequest::Ray { origin, dir })
    }
}

/// The answer of `query --json`: a [`PointReport`] or a [`RayReport`], as asked.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum QueryReport {
    /// `--at`.
    At(PointReport),
    /// `--ray`.
    Ray(RayReport),
}

/// `query`: [`query_at`] or [`query_ray`], as `req` asks.
pub fn query(session: &Session, path: &Path, req: &QueryRequest) -> Result<QueryReport, Error> {
    Ok(match *req {
        QueryRequest::At { x, y, z } => QueryReport::At(query_at(session, path, x, y, z)?),
        QueryRequest::Ray { origin, dir } => {
            QueryReport::Ray(query_ray(session, path, origin, dir)?)
        }
    })
}

/// A point query on a walkmesh or any area input ([`input::open`]).
pub fn query_at(
    session: &Session,
    path: &Path,
    x: f32,
    y: f32,
    z: Option<f32>,
) -> Result<PointReport, Error> {
    let report = |a: &walkmesh::PointAnswer, room: Option<Option<String>>| PointReport {
        face: a.face,
        z: a.z,
        material: a.material.map(|m| m.name().into_owned()),
        walkable: a.walkable,
        room,
    };
    let mesh = match input::open(session, Some(path))? {
        Opened::Area { module, .. } => {
            let q = walkmesh::Area::new(&area_rooms(&module.area))
                .map_err(|e| Error::geometry(path, e))?;
            let a = q.at(x, y, z);
            return Ok(report(&a.answer, Some(a.room)));
        }
        Opened::File { path, data } => query_mesh(session, &path, &data)?,
    };
    let a = walkmesh::query_at(&mesh, x, y, z).map_err(|e| Error::geometry(path, e))?;
    Ok(report(&a, None))
}

/// A ray query on a walkmesh or any area input ([`input::open`]): the nearest face hit.
pub fn query_ray(
    session: &Session,
    path: &Path,
    origin: [f32; 3],
    dir: [f32; 3],
) -> Result<RayReport, Error> {
    let mesh = match input::open(session, Some(path))? {
        Opened::Area { module, .. } => {
            let rooms = area_rooms(&module.area);
            let q = walkmesh::Area::new(&rooms).map_err(|e| Error::geometry(path, e))?;
            return Ok(match q.ray(origin, dir) {
                Some((room, hit)) => {
                    let material = rooms
                        .iter()
                        .find(|r| r.0 == room)
                        .and_then(|r| r.2.faces.get(hit.face as usize))
                        .map(|f| f.material);
                    RayReport {
                        room: Some(Some(room)),
                        face: Some(hit.face),
                        distance: Some(hit.distance),
                        point: Some(hit.point),
                        material: material.map(|m| m.name().into_owned()),
                        walkable: material.is_some_and(Material::is_walkable),
                    }
                }
                None => RayReport {
                    room: Some(None),
                    face: None,
                    distance: None,
                    point: None,
                    material: None,
                    walkable: false,
                },
            });
        }
        Opened::File { path, data } => query_mesh(session, &path, &data)?,
    };
    let a = walkmesh::query_ray(&mesh, origin, dir).map_err(|e| Error::geometry(path, e))?;
    Ok(RayReport {
        room: None,
        face: a.hit.map(|h| h.face),
        distance: a.hit.map(|h| h.distance),
        point: a.hit.map(|h| h.point),
        material: a.material.map(|m| m.name().into_owned()),
        walkable: a.walkable,
    })
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

/// What [`transform_file`] transformed and wrote.
#[derive(Debug, Clone)]
pub enum Transformed {
    /// A BWM walkmesh.
    Walkmesh(Box<Bwm>),
    /// A binary model (written as the output and its `.mdx`).
    Model(Box<areakit_formats::mdl::Model>),
    /// An NWN compiled model (one file).
    NwnModel(Box<areakit_formats::mdl::nwn::Model>),
}

impl Transformed {
    /// The faces of the walkmesh, or of every mesh of the model.
    pub fn faces(&self) -> usize {
        match self {
            Transformed::Walkmesh(b) => b.faces.len(),
            Transformed::Model(m) => m
                .nodes
                .iter()
                .filter_map(|n| n.mesh.as_ref())
                .map(|x| x.faces.len())
                .sum(),
            Transformed::NwnModel(m) => m
                .nodes
                .iter()
                .filter_map(|n| n.mesh.as_ref())
                .map(|x| x.faces.len())
                .sum(),
        }
    }
}

impl TransformSteps {
    /// The geometric steps in the order they apply: the mirror, then the rotation, then the
    /// translation; non-finite numbers are refused.
    pub fn transforms(&self) -> Result<Vec<Transform>, Error> {
        let mut list = Vec::new();
        if let Some(axis) = self.mirror {
            list.push(Transform::Mirror(axis));
        }
        if let Some(deg) = self.rotate {
            if !deg.is_finite() {
                return Err(Error::usage("rotation: expected a finite angle in degrees"));
            }
            list.push(Transform::RotateZ(deg));
        }
        if let Some(t) = self.translate {
            if !t.iter().all(|v| v.is_finite()) {
                return Err(Error::usage("translation: expected finite numbers"));
            }
            list.push(Transform::Translate(t));
        }
        Ok(list)
    }
}

/// Transforms a binary model in place ([`areakit_area::models::transform`]): what
/// [`transform_file`] does to a model, for callers holding one (Python's `Mdl.transform`).
/// Transition renumbering applies to walkmeshes only.
pub fn transform_model(
    model: &mut areakit_formats::mdl::Model,
    steps: &TransformSteps,
) -> Result<(), Error> {
    if !steps.remap.is_empty() {
        return Err(Error::usage(
            "transition renumbering applies to walkmeshes, not to a model",
        ));
    }
    areakit_area::models::transform(model, &steps.transforms()?);
    Ok(())
}

/// Transforms an NWN compiled model in place ([`areakit_area::nwn_models::transform`]).
/// Transition renumbering applies to walkmeshes only.
pub fn transform_nwn_model(
    model: &mut areakit_formats::mdl::nwn::Model,
    steps: &TransformSteps,
) -> Result<(), Error> {
    if !steps.remap.is_empty() {
        return Err(Error::usage(
            "transition renumbering applies to walkmeshes, not to a model",
        ));
    }
    areakit_area::nwn_models::transform(model, &steps.transforms()?);
    Ok(())
}

/// Transforms a walkmesh or a binary model ([`TransformSteps`]) and writes it atomically;
/// returns it. A model moves with its walkmesh: the same steps applied to a room's model and
/// its WOK keep the two in agreement ([`areakit_area::models::transform`]); transition
/// renumbering applies to walkmeshes only.
pub fn transform_file(
    session: &Session,
    input: &Path,
    output: &Path,
    steps: &TransformSteps,
) -> Result<Transformed, Error> {
    refuse_overwrite(input, output, false)?;
    let list = steps.transforms()?;
    let data = session.read(input)?;
    if Format::detect(input, &data) == Some(Format::Mdl) {
        let mut model = match Document::decode_read(session, input, &data)? {
            Document::Mdl(m) => m,
            Document::NwnMdl(mut m) => {
                transform_nwn_model(&mut m, steps).map_err(|e| match e {
                    Error::Usage(msg) => Error::usage(format!("{}: {msg}", input.display())),
                    e => e,
                })?;
                let bytes =
                    areakit_formats::mdl::nwn::write(&m).map_err(|e| Error::encode(output, e))?;
                write_atomic(output, &bytes)?;
                return Ok(Transformed::NwnModel(m));
            }
            _ => {
                return Err(Error::usage(format!(
                    "{}: not a binary model",
                    input.display()
                )));
            }
        };
        transform_model(&mut model, steps).map_err(|e| match e {
            Error::Usage(m) => Error::usage(format!("{}: {m}", input.display())),
            e => e,
        })?;
        let doc = Document::Mdl(model);
        let files = doc.encode_files(Format::Mdl, output, &EncodeOptions::default())?;
        for (path, _) in files.iter().skip(1) {
            refuse_overwrite(&crate::document::mdx_path(input), path, false)?;
        }
        let set: Vec<Member<'_>> = files.iter().map(|(p, b)| Member::file(p, b)).collect();
        write_set(&set)?;
        let Document::Mdl(model) = doc else {
            return Err(Error::usage("internal: not a model"));
        };
        return Ok(Transformed::Model(model));
    }
    let mesh = decode_bwm(
        input,
        &data,
        "a BWM walkmesh (WOK/PWK/DWK) or a binary model (MDL)",
    )?;
    let result =
        walkmesh::transform(&mesh, &list, &steps.remap).map_err(|e| Error::geometry(input, e))?;
    let bytes = bwm::write(&result).map_err(|e| Error::encode(output, e))?;
    write_atomic(output, &bytes)?;
    Ok(Transformed::Walkmesh(Box::new(result)))
}

/// What `convert` wrote.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ConvertReport {
    /// The input's format.
    pub from: &'static str,
    /// The output's format.
    pub to: &'static str,
    /// Bytes written.
    pub bytes: usize,
    /// What `check` would say of the written texture (a TPC of a picture whose sides are no
    /// powers of two, ...): the file is written all the same.
    pub notes: Vec<String>,
}

/// Re-encodes `input` (any format areakit reads) as `to` (a format name, `--to`), else as the
/// format `output`'s extension names, else in its own format, and writes it atomically. A
/// conversion that fails on the content (an ASCII walkmesh that does not compile) is an error
/// about the input.
pub fn convert_file(
    session: &Session,
    input: &Path,
    output: &Path,
    to: Option<&str>,
    options: &EncodeOptions,
) -> Result<ConvertReport, Error> {
    refuse_overwrite(input, output, false)?;
    let doc = Document::open(session, input)?;
    // The dialect of a text model: told by its content, else a bare `.mdl` is NWN's (NWN keeps
    // its source models as `.mdl`, KotOR's tools write `.mdl.ascii`).
    let mut options = options.clone();
    if let Document::MdlAscii(t) = &doc
        && options.nwn.is_none()
    {
        options.nwn = Some(
            areakit_formats::mdl::nwn::is_nwn_ascii(t)
                .unwrap_or(Format::from_extension(input) == Some(Format::Mdl)),
        );
    }
    let target = match to {
        Some(name) => Format::from_name(name).ok_or_else(|| {
            let names: Vec<_> = Format::ALL.iter().map(|f| f.name()).collect();
            Error::usage(format!(
                "{name}: no such format to convert to (known: {})",
                names.join(", ")
            ))
        })?,
        // `.mdl` names the binary model, but NWN's text model converted to `.mdl` stays text
        // (NWN keeps its source models as `.mdl`); `--to mdl-bin` asks for the binary model.
        None => match Format::from_extension(output) {
            // KotOR's `m.mdl.ascii -> out.mdl` compiles; NWN's text to `.mdl` does not.
            Some(Format::Mdl) if doc.format() == Format::MdlAscii && options.nwn == Some(true) => {
                Format::MdlAscii
            }
            Some(f) => f,
            None => doc.format(),
        },
    };
    // A picture made into a TPC carries the TXI beside it (`NAME.txi`), as the game's tools do.
    let mut options = options.clone();
    if target == Format::Tpc
        && options.txi.is_none()
        && matches!(doc.format(), Format::Tga | Format::Png)
    {
        options.txi = session.read(&input.with_extension("txi")).ok();
    }
    let files = doc
        .encode_files(target, output, &options)
        .map_err(|e| e.about(output, input))?;
    // A binary model's MDX and a picture's TXI are outputs too: never the input or its own
    // partner; the set is written whole or not at all, a stale TXI beside a picture that has
    // none taken away with it.
    for (path, _) in files.iter().skip(1) {
        refuse_overwrite(input, path, false)?;
        refuse_overwrite(&crate::document::mdx_path(input), path, false)?;
    }
    let stale_txi = output.with_extension("txi");
    let mut set: Vec<Member<'_>> = files.iter().map(|(p, b)| Member::file(p, b)).collect();
    if matches!(target, Format::Tga | Format::Png)
        && doc.format() == Format::Tpc
        && files.len() == 1
        && stale_txi.is_file()
        && !crate::session::same_file(&stale_txi, output)
        && !crate::session::same_file(&stale_txi, input)
    {
        set.push(Member::remove(&stale_txi));
    }
    write_set(&set)?;
    // The document is no longer needed: free it before the written TPC is read for its
    // notes (a large picture would be held twice).
    let from = doc.format().name();
    drop(set);
    drop(doc);
    let notes = match (target, files.first()) {
        (Format::Tpc, Some((_, bytes))) => areakit_formats::tpc::read(bytes)
            .map(|t| areakit_formats::tpc::validate(&t))
            .unwrap_or_default()
            .into_iter()
            .map(|f| format!("{}[{}]: {}", f.severity.name(), f.code, f.message))
            .collect(),
        _ => Vec::new(),
    };
    Ok(ConvertReport {
        from,
        to: target.name(),
        bytes: files.iter().map(|(_, b)| b.len()).sum(),
        notes,
    })
}
