//! OBJ or glTF to a BWM walkmesh: materials from names, vertices welded, every derived table
//! rebuilt (as `areakit rebuild` does), and the result checked.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use areakit_formats::Finding;
use areakit_formats::bwm::{self, Bwm, Face, Material, WalkmeshType};
use serde::{Serialize, Serializer};
use serde_json::Value;

use super::{Soup, invalid};
use areakit_area::walkmesh;

use crate::Error;
use crate::report::Report;
use crate::session::{Session, refuse_overwrite, write_atomic};

/// A `--materials` file: names (case-insensitive) to surface materials.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MaterialMap(pub HashMap<String, Material>);

impl MaterialMap {
    /// Reads a mapping file: one JSON object, each key a material name as the 3-D tool spells
    /// it, each value a game material name (`"stone"`) or id (`4`).
    pub fn read(session: &Session, path: &Path) -> Result<Self, Error> {
        let bytes = session.read(path)?;
        Self::parse(path, &bytes)
    }

    /// [`MaterialMap::read`] on bytes in memory.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Self, Error> {
        let v: Value = serde_json::from_slice(bytes)
            .map_err(|e| super::json_error(path, "materials mapping", &e))?;
        let Value::Object(map) = v else {
            return Err(invalid(
                path,
                areakit_formats::Location::Input,
                "expected a JSON object of name → material",
            ));
        };
        let mut out = HashMap::new();
        for (k, v) in map {
            let m = match &v {
                Value::String(s) => Material::from_name(s),
                Value::Number(n) => n
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .map(Material::from_id),
                _ => None,
            }
            .ok_or_else(|| {
                invalid(
                    path,
                    areakit_formats::Location::Input,
                    format!(
                        "`{k}`: {v} is not a surface material (a name such as \"stone\" or an id)"
                    ),
                )
            })?;
            out.insert(k.to_lowercase(), m);
        }
        Ok(MaterialMap(out))
    }

    /// The material of a name: the mapping first, then the game's names (and ids), then the
    /// name without a `.001`-style suffix (as Blender adds to copies).
    pub fn resolve(&self, name: &str) -> Option<Material> {
        let lookup = |n: &str| {
            self.0
                .get(&n.to_lowercase())
                .copied()
                .or_else(|| Material::from_name(n.trim()))
        };
        lookup(name).or_else(|| {
            let (stem, suffix) = name.rsplit_once('.')?;
            (!suffix.is_empty() && suffix.bytes().all(|b| b.is_ascii_digit()))
                .then(|| lookup(stem))
                .flatten()
        })
    }
}

/// How to import.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// A `--materials` mapping.
    pub materials: MaterialMap,
    /// Import only this room (an OBJ `o` object, a glTF room node or mesh node).
    pub room_index: Option<usize>,
}

/// What [`import_file`] made.
#[derive(Debug, Clone)]
pub struct ImportReport {
    /// The walkmesh written.
    pub bwm: Bwm,
    /// Vertices merged by welding.
    pub welded: usize,
    /// The findings of `check` on the result.
    pub findings: Vec<Finding>,
    /// The file written.
    pub output: PathBuf,
}

impl ImportReport {
    /// The findings as a check report (`files_checked` 1, each under the output file).
    pub fn check_report(&self) -> Report {
        Report::of_file(&self.output, &self.findings)
    }
}

impl Serialize for ImportReport {
    /// `import --json`: the keys of the check report of the output (`files_checked`, `errors`,
    /// `warnings`, `findings`, `io_errors`), then `output`, `vertices`, `faces`,
    /// `walkable_faces` and `welded`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct ImportJson {
            #[serde(flatten)]
            check: Report,
            output: String,
            vertices: usize,
            faces: usize,
            walkable_faces: usize,
            welded: usize,
        }
        ImportJson {
            check: self.check_report(),
            output: self.output.display().to_string(),
            vertices: self.bwm.vertices.len(),
            faces: self.bwm.faces.len(),
            walkable_faces: self.bwm.walkable_face_count(),
            welded: self.welded,
        }
        .serialize(s)
    }
}

/// Imports `input` (`.obj`, `.glb`, `.gltf`) and writes `output` (`.wok`, `.pwk`, `.dwk`).
pub fn import_file(
    session: &Session,
    input: &Path,
    output: &Path,
    options: &ImportOptions,
) -> Result<ImportReport, Error> {
    let ext = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .unwrap_or_default()
    };
    let walkmesh_type = match ext(output).as_str() {
        "wok" => WalkmeshType::Area,
        "pwk" | "dwk" => WalkmeshType::PlaceableOrDoor,
        _ => {
            return Err(Error::usage(format!(
                "{}: the output must end in .wok, .pwk or .dwk",
                output.display()
            )));
        }
    };
    refuse_overwrite(input, output, false)?;
    let soup = read_soup(session, input, options.room_index)?;
    let (bwm, welded) = soup_to_bwm(input, &soup, walkmesh_type, &options.materials)?;
    let findings = walkmesh::check_bwm(&bwm);
    let bytes = bwm::write(&bwm).map_err(|e| Error::encode(output, e))?;
    write_atomic(output, &bytes)?;
    Ok(ImportReport {
        bwm,
        welded,
        findings,
        output: output.to_path_buf(),
    })
}

/// The triangles of an OBJ (`.obj`) or glTF (`.glb`, `.gltf`) file, or of one room of it.
pub fn read_soup(session: &Session, input: &Path, room: Option<usize>) -> Result<Soup, Error> {
    let ext = input
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        "obj" => super::obj::read(session, input, room),
        "glb" | "gltf" => super::gltf::read(session, input, room),
        _ => Err(Error::usage(format!(
            "{}: the input must end in .obj, .glb or .gltf",
            input.display()
        ))),
    }
}

/// Merges exactly equal positions (`-0.0` as `0.0`), renumbering the faces; returns how many
/// vertices went.
fn weld_exact(vertices: &mut Vec<[f32; 3]>, faces: &mut [Face]) -> usize {
    let mut first: HashMap<[u32; 3], u32> = HashMap::new();
    let mut remap = Vec::with_capacity(vertices.len());
    let mut kept = Vec::new();
    for p in vertices.iter() {
        let key = p.map(|c| if c == 0.0 { 0 } else { c.to_bits() });
        let idx = *first.entry(key).or_insert_with(|| {
            kept.push(*p);
            kept.len() as u32 - 1
        });
        remap.push(idx);
    }
    let welded = vertices.len() - kept.len();
    for f in faces.iter_mut() {
        f.vertices = f
            .vertices
            .map(|v| remap.get(v as usize).copied().unwrap_or(v));
    }
    *vertices = kept;
    welded
}

/// The transitions `[face, side, room]` areakit's own exports keep in each room's extras, for
/// the faces in their new `order` (face numbers as in the source walkmesh).
fn soup_transitions(
    soup: &Soup,
    order: &[usize],
    room_of: &dyn Fn(usize) -> Option<usize>,
) -> Vec<[i32; 3]> {
    let mut transitions = vec![[-1i32; 3]; order.len()];
    let position: HashMap<(Option<usize>, u32), usize> = order
        .iter()
        .enumerate()
        .filter_map(|(new, &old)| soup.triangles[old].key.map(|k| ((room_of(old), k), new)))
        .collect();
    for (ri, (_, extras)) in soup.rooms.iter().enumerate() {
        let list = extras.get("transitions").and_then(Value::as_array);
        for t in list.into_iter().flatten() {
            let get = |k: usize| t.get(k).and_then(Value::as_i64);
            if let (Some(f), Some(side), Some(room)) = (get(0), get(1), get(2))
                && let (Ok(f), Ok(side), Ok(room)) =
                    (u32::try_from(f), usize::try_from(side), i32::try_from(room))
                && side < 3
                && let Some(&new) = position.get(&(Some(ri), f))
            {
                transitions[new][side] = room;
            }
        }
    }
    transitions
}

/// A soup to a rebuilt walkmesh; also returns how many vertices welding merged.
pub fn soup_to_bwm(
    input: &Path,
    soup: &Soup,
    walkmesh_type: WalkmeshType,
    materials: &MaterialMap,
) -> Result<(Bwm, usize), Error> {
    if soup.triangles.is_empty() {
        return Err(invalid(
            input,
            areakit_formats::Location::Input,
            "no triangles to import",
        ));
    }
    if let Some(i) = soup
        .positions
        .iter()
        .position(|p| !p.iter().all(|c| c.is_finite()))
    {
        return Err(invalid(
            input,
            areakit_formats::Location::Input,
            format!(
                "vertex {i} is not finite after its node's transform: {:?}",
                soup.positions[i]
            ),
        ));
    }
    // Materials first: an unknown name is the likeliest mistake.
    let mut faces = Vec::with_capacity(soup.triangles.len());
    for t in &soup.triangles {
        let m = materials.resolve(&t.material).ok_or_else(|| {
            let msg = format!(
                "unknown material `{}` (expected a surface material such as stone, grass, non-walk, an id, or a name mapped in the materials file)",
                t.material
            );
            match parse_line_col(&t.origin) {
                Some(location) => invalid(input, location, msg),
                None => invalid(
                    input,
                    areakit_formats::Location::Input,
                    format!("{}: {msg}", t.origin),
                ),
            }
        })?;
        faces.push(Face {
            vertices: t.vertices,
            material: m,
        });
    }
    // The room each triangle belongs to (areakit exports), for keys and transitions.
    let room_of = |i: usize| soup.rooms.iter().rposition(|(base, _)| *base <= i);
    // Face order: areakit's own files carry each face's number; sort by (room, number) when
    // the numbers are unique.
    let mut order: Vec<usize> = (0..faces.len()).collect();
    let keyed = soup.triangles.iter().all(|t| t.key.is_some());
    if keyed {
        let mut keys: Vec<(Option<usize>, u32)> = soup
            .triangles
            .iter()
            .enumerate()
            .map(|(i, t)| (room_of(i), t.key.unwrap_or(0)))
            .collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() == keys.len() {
            order.sort_by_key(|&i| keys[i]);
        } else {
            keys.clear();
        }
    }
    let faces: Vec<Face> = order.iter().map(|&i| faces[i]).collect();
    // Transitions `[face, side, room]`, face numbered as in the source walkmesh.
    let transitions = if keyed {
        soup_transitions(soup, &order, &room_of)
    } else {
        vec![[-1i32; 3]; faces.len()]
    };
    // Vertices: areakit's own files keep their table; anything else is welded (exactly equal
    // positions) and numbered by first use, as the game's compiler numbers them.
    let mut vertices = soup.positions.clone();
    let mut faces = faces;
    let welded = if soup.areakit {
        0
    } else {
        weld_exact(&mut vertices, &mut faces)
    };
    let header = soup.rooms.first().map(|(_, e)| e);
    let vec3 = |key: &str, k: usize| -> [f32; 3] {
        header
            .and_then(|h| h.get(key))
            .and_then(|v| if k == usize::MAX { Some(v) } else { v.get(k) })
            .and_then(|v| serde_json::from_value::<[f32; 3]>(v.clone()).ok())
            .unwrap_or([0.0; 3])
    };
    let n = faces.len();
    let template = Bwm {
        walkmesh_type,
        relative_use: [vec3("relative_use", 0), vec3("relative_use", 1)],
        absolute_use: [vec3("absolute_use", 0), vec3("absolute_use", 1)],
        position: vec3("position", usize::MAX),
        vertices,
        faces,
        normals: vec![[0.0; 3]; n],
        distances: vec![0.0; n],
        ..Bwm::default()
    };
    let mut rebuilt = walkmesh::rebuild_with_transitions(&template, &transitions)
        .map_err(|e| Error::geometry(input, e))?;
    if !soup.areakit {
        crate::ascii_walkmesh::number_vertices_by_first_use(&mut rebuilt);
        // Vertices no face uses were numbered last: drop them.
        let used = rebuilt
            .faces
            .iter()
            .flat_map(|f| f.vertices)
            .max()
            .map_or(0, |m| m as usize + 1);
        rebuilt.vertices.truncate(used);
    }
    Ok((rebuilt, welded))
}

fn parse_line_col(origin: &str) -> Option<areakit_formats::Location> {
    let (l, c) = origin.strip_prefix("line ")?.split_once(':')?;
    Some(areakit_formats::Location::LineCol {
        line: l.parse().ok()?,
        column: c.parse().ok()?,
    })
}
