//! OBJ or glTF into an NWN2 terrain: the mesh replaces the walkmesh of a TRN/TRX (whose
//! header, grid, tiles and other packets stay), each face's flags come from its material
//! name, and the result is laid out as a TRX and baked.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use areakit_area::nwn2_cut::walkmesh_of_triangles;
use areakit_formats::trx::{self, MATERIALS, raw};
use areakit_formats::{Finding, Location};
use serde::Serialize;

use super::{MaterialMap, Soup, invalid};
use crate::Error;
use crate::bake::{BakeError, bake_walkmesh};
use crate::format::Format;
use crate::info::{TrxInfo, trx_info};
use crate::report::Report;
use crate::session::{Session, refuse_overwrite, write_atomic};

/// What [`import_trx_file`] made.
#[derive(Debug, Clone)]
pub struct TrxImportReport {
    /// The terrain written.
    pub trx: trx::Trx,
    /// Vertices merged (the same position given twice).
    pub welded: usize,
    /// The findings of `check` on the result.
    pub findings: Vec<Finding>,
    /// The file written.
    pub output: PathBuf,
}

impl TrxImportReport {
    /// The findings as a check report (each under the output file).
    pub fn check_report(&self) -> Report {
        Report::of_file(&self.output, &self.findings)
    }
}

/// `import --json` for a terrain: the check report's keys, then `output`, `welded` and what
/// `info` says of the terrain written.
#[derive(Serialize)]
struct TrxImportJson {
    #[serde(flatten)]
    check: Report,
    output: String,
    welded: usize,
    #[serde(flatten)]
    info: TrxInfo,
}

impl Serialize for TrxImportReport {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        TrxImportJson {
            check: self.check_report(),
            output: self.output.display().to_string(),
            welded: self.welded,
            info: trx_info(&self.trx),
        }
        .serialize(s)
    }
}

/// The TRX flags a material name gives: `walkable`, `non-walkable` (also `nonwalk`,
/// `non-walk`), a surface material (`stone`, `grass`, ... : walkable ground of it), or several
/// joined by `+` (`non-walkable+stone`); then the names of `materials` (a walkable game
/// material is walkable ground, with its bit when the TRX has one of that name). A Blender
/// `.001` suffix is ignored.
pub fn trx_flags(name: &str, materials: &MaterialMap) -> Option<u16> {
    let parse = |n: &str| -> Option<u16> {
        let mut flags = 0u16;
        let mut walk = None;
        for token in n.split('+').map(|t| t.trim().to_ascii_lowercase()) {
            match token.as_str() {
                "walkable" | "walk" => walk = Some(true),
                "non-walkable" | "nonwalk" | "non-walk" | "non_walkable" | "unwalkable" => {
                    walk = Some(false)
                }
                t => {
                    let (bit, _) = MATERIALS.iter().find(|(_, m)| *m == t)?;
                    flags |= bit;
                    walk.get_or_insert(true);
                }
            }
        }
        Some(
            flags
                | if walk == Some(true) {
                    raw::FLAG_WALKABLE
                } else {
                    0
                },
        )
    };
    let mapped = |n: &str| {
        let m = materials.resolve(n)?;
        let bit = MATERIALS
            .iter()
            .find(|(_, name)| *name == m.name())
            .map_or(0, |(b, _)| *b);
        Some(
            bit | if m.is_walkable() {
                raw::FLAG_WALKABLE
            } else {
                0
            },
        )
    };
    let by_name = |n: &str| parse(n).or_else(|| mapped(n));
    by_name(name).or_else(|| {
        let (stem, suffix) = name.rsplit_once('.')?;
        (!suffix.is_empty() && suffix.bytes().all(|b| b.is_ascii_digit()))
            .then(|| by_name(stem))
            .flatten()
    })
}

/// Imports `input` (`.obj`, `.glb`, `.gltf`) as the walkmesh of the terrain `terrain` and
/// writes the baked result to `output` (`.trx`).
pub fn import_trx_file(
    session: &Session,
    input: &Path,
    output: &Path,
    terrain: &Path,
    options: &super::ImportOptions,
) -> Result<TrxImportReport, Error> {
    refuse_overwrite(input, output, false)?;
    refuse_overwrite(terrain, output, false)?;
    let soup = super::import::read_soup(session, input, options.room_index)?;
    let data = session.read(terrain)?;
    if let Some(f) = Format::detect(terrain, &data).filter(|&f| f != Format::Trx) {
        return Err(crate::input::not_a(terrain, f, "an NWN2 terrain (TRN/TRX)"));
    }
    let mut t = trx::read(&data).map_err(|e| Error::invalid(terrain, e))?;
    let (vertices, triangles, welded) = soup_to_trx(input, &soup, &options.materials)?;
    let bake_error = |source| Error::Bake {
        path: terrain.to_path_buf(),
        source,
    };
    let base = t
        .walkmesh()
        .ok_or_else(|| bake_error(BakeError::NoWalkmesh))?;
    let mut w = walkmesh_of_triangles(base, vertices, &triangles);
    bake_walkmesh(&mut w).map_err(bake_error)?;
    if let Some(a) = t.aswm_mut() {
        a.walkmesh = w;
    }
    let findings = trx::validate(&t);
    let bytes = trx::write(&t).map_err(|e| Error::encode(output, e))?;
    write_atomic(output, &bytes)?;
    Ok(TrxImportReport {
        trx: t,
        welded,
        findings,
        output: output.to_path_buf(),
    })
}

/// Welded vertices, triangles with their TRX flags, and how many vertices welding merged.
type Imported = (Vec<[f32; 3]>, Vec<([u32; 3], u16)>, usize);

/// The soup's welded vertices and its triangles with their flags; also how many vertices
/// welding merged.
fn soup_to_trx(input: &Path, soup: &Soup, materials: &MaterialMap) -> Result<Imported, Error> {
    if soup.triangles.is_empty() {
        return Err(invalid(input, Location::Input, "no triangles to import"));
    }
    let mut index: HashMap<[u32; 3], u32> = HashMap::new();
    let mut vertices: Vec<[f32; 3]> = Vec::new();
    let mut map = Vec::with_capacity(soup.positions.len());
    for (i, p) in soup.positions.iter().enumerate() {
        if !p.iter().all(|c| c.is_finite()) {
            return Err(invalid(
                input,
                Location::Input,
                format!("vertex {i} is not finite: {p:?}"),
            ));
        }
        // -0.0 and 0.0 are one position.
        let key = p.map(|c| (c + 0.0).to_bits());
        let at = *index.entry(key).or_insert_with(|| {
            vertices.push(*p);
            (vertices.len() - 1) as u32
        });
        map.push(at);
    }
    let welded = soup.positions.len() - vertices.len();
    let mut triangles = Vec::with_capacity(soup.triangles.len());
    for t in &soup.triangles {
        let flags = trx_flags(&t.material, materials).ok_or_else(|| {
            invalid(
                input,
                Location::Input,
                format!(
                    "{}: unknown material `{}` (expected walkable, non-walkable, a surface material such as stone or grass, names joined by +, or a name mapped in the materials file)",
                    t.origin, t.material
                ),
            )
        })?;
        let v = t.vertices.map(|i| map.get(i as usize).copied());
        let [Some(a), Some(b), Some(c)] = v else {
            return Err(invalid(
                input,
                Location::Input,
                format!("{}: a face names a vertex past the list", t.origin),
            ));
        };
        if a != b && b != c && a != c {
            triangles.push(([a, b, c], flags));
        }
    }
    Ok((vertices, triangles, welded))
}
