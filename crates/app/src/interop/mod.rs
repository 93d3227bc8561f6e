//! Exchange with 3-D tools: export walkmeshes, areas, NWN2 terrain walkmeshes, MDL ASCII models
//! and binary MDL models (with skins and animations) to glTF 2.0 (`.glb`, `.gltf`) and
//! Wavefront OBJ (`.obj` + `.mtl`), and import OBJ or glTF back to a BWM walkmesh.
//!
//! Both directions go through a format-neutral [`Scene`]: a flat list of nodes (a parent always
//! comes before its children), each with a transform in the game's coordinates (z up, metres)
//! and optionally a mesh whose faces are grouped by material. [`scene`] builds scenes from the
//! game's files, [`gltf`] and [`obj`] write them (and read files back to a [`Soup`] of
//! triangles), and [`import`] turns a soup into a BWM. The layout, the `extras` keys and the
//! import rules are documented in `docs/interop.md`.

pub mod gltf;
pub mod import;
pub mod import_trx;
mod model_parts;
mod nwn_scene;
pub mod obj;
pub mod scene;
pub mod textures;

use std::path::Path;

use serde_json::Value;

use crate::Error;
use crate::session::Session;

pub use import::{ImportOptions, ImportReport, MaterialMap, import_file};
pub use import_trx::{TrxImportReport, import_trx_file};

/// What `import` does: a mesh into a walkmesh (`.wok`, `.pwk`, `.dwk`), or into the NWN2
/// terrain `terrain` as a `.trx`.
#[derive(Debug, Clone)]
pub struct ImportRequest<'a> {
    /// The mesh: `.obj`, `.glb`, `.gltf`.
    pub input: &'a Path,
    /// The walkmesh or terrain to write.
    pub output: &'a Path,
    /// For a `.trx` output: the terrain whose walkmesh the mesh replaces.
    pub terrain: Option<&'a Path>,
    /// Materials and the room to import.
    pub options: ImportOptions,
}

/// The report of `import --json`: a walkmesh's or a terrain's, as the output's extension
/// chose.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(untagged)]
pub enum ImportOutcome {
    /// A BWM walkmesh written.
    Walkmesh(Box<ImportReport>),
    /// An NWN2 terrain written.
    Terrain(Box<TrxImportReport>),
}

impl ImportOutcome {
    /// What `check` says of the file written.
    pub fn check_report(&self) -> crate::report::Report {
        match self {
            ImportOutcome::Walkmesh(r) => r.check_report(),
            ImportOutcome::Terrain(r) => r.check_report(),
        }
    }
}

/// `import`: [`import_trx_file`] for a `.trx`/`.trn` output (which needs `terrain`), else
/// [`import_file`] (which takes none).
pub fn import(session: &Session, req: &ImportRequest<'_>) -> Result<ImportOutcome, Error> {
    let is_terrain = (req.output.extension())
        .is_some_and(|e| e.eq_ignore_ascii_case("trx") || e.eq_ignore_ascii_case("trn"));
    match (is_terrain, req.terrain) {
        (true, Some(terrain)) => {
            import_trx_file(session, req.input, req.output, terrain, &req.options)
                .map(|r| ImportOutcome::Terrain(Box::new(r)))
        }
        (true, None) => Err(Error::usage(format!(
            "{}: an NWN2 terrain output needs --terrain TRN (the terrain whose walkmesh the mesh replaces)",
            req.output.display()
        ))),
        (false, Some(_)) => Err(Error::usage(
            "--terrain is for a .trx output (an NWN2 terrain)",
        )),
        (false, None) => import_file(session, req.input, req.output, &req.options)
            .map(|r| ImportOutcome::Walkmesh(Box::new(r))),
    }
}
pub use scene::{ExportOptions, ExportSummary, export_file};

/// A scene: nodes in parent-before-child order, skins and animations.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scene {
    /// The nodes; [`Node::parent`] always names an earlier node.
    pub nodes: Vec<Node>,
    /// Skins: [`Node::skin`] names one.
    pub skins: Vec<Skin>,
    /// Animations of the nodes' transforms.
    pub animations: Vec<Animation>,
    /// The pictures of the textures the groups name ([`Maps`]), by lower-case name; a name
    /// without one leaves its material flat.
    pub images: std::collections::BTreeMap<String, SceneImage>,
}

/// A texture's picture, ready to embed, and how the game blends it.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneImage {
    /// The name as the model spells it.
    pub name: String,
    /// The picture as PNG.
    pub png: Vec<u8>,
    /// How its alpha is used ([`AlphaMode`]).
    pub alpha: AlphaMode,
    /// Application data (glTF texture `extras`): where it was found, its format, its TXI.
    pub extras: Value,
}

/// How a diffuse texture's alpha is drawn (from its TXI and pixels; `docs/interop.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlphaMode {
    /// Alpha unused (opaque pixels, or alpha that masks an environment map).
    Opaque,
    /// Alpha test (`blending punchthrough`, or DXT1's 1-bit alpha): drawn or not.
    Mask,
    /// Alpha blending (alpha in the pixels and no other use for it).
    Blend,
    /// Added to what is behind (`blending additive`): glTF's blending, marked in `extras`.
    Additive,
}

impl Scene {
    /// Adds a node under `parent` and returns its index. A parent that is not an earlier node
    /// makes the node a root.
    pub fn add(&mut self, mut node: Node, parent: Option<usize>) -> usize {
        node.parent = parent.filter(|&p| p < self.nodes.len());
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// Vertices and faces (triangles) of every mesh.
    pub fn counts(&self) -> (usize, usize) {
        let mut v = 0;
        let mut f = 0;
        for m in self.nodes.iter().filter_map(|n| n.mesh.as_ref()) {
            v += m.positions.len();
            f += m
                .groups
                .iter()
                .map(|g| match &g.shape {
                    Shape::Triangles { triangles, .. } => triangles.len(),
                    Shape::LineStrip(_) => 0,
                })
                .sum::<usize>();
        }
        (v, f)
    }

    /// The world transform of each node (parents first, so one pass).
    pub fn world_matrices(&self) -> Vec<Mat4> {
        let mut out: Vec<Mat4> = Vec::with_capacity(self.nodes.len());
        for n in &self.nodes {
            let local = Mat4::from_trs(n.translation, n.rotation);
            let world = match n.parent.and_then(|p| out.get(p)) {
                Some(parent) => parent.mul(&local),
                None => local,
            };
            out.push(world);
        }
        out
    }
}

/// A node: a name, a transform (in the parent's space), extras and an optional mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The name.
    pub name: String,
    /// The parent node, if any.
    pub parent: Option<usize>,
    /// Translation.
    pub translation: [f64; 3],
    /// Rotation as a unit quaternion `[x, y, z, w]`.
    pub rotation: [f64; 4],
    /// Application data (glTF `extras`; an OBJ comment).
    pub extras: Value,
    /// The geometry.
    pub mesh: Option<Mesh>,
    /// The skin ([`Scene::skins`]) that deforms the mesh; its vertices then carry
    /// [`Mesh::joints`] and [`Mesh::weights`].
    pub skin: Option<usize>,
}

impl Node {
    /// A node at the origin without a mesh.
    pub fn new(name: impl Into<String>, extras: Value) -> Self {
        Node {
            name: name.into(),
            parent: None,
            translation: [0.0; 3],
            rotation: [0.0, 0.0, 0.0, 1.0],
            extras,
            mesh: None,
            skin: None,
        }
    }
}

/// Geometry: positions (and optionally normals, UVs and skin weights, one per position)
/// shared by every group, and the groups (one per material).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mesh {
    /// Vertex positions in the node's space.
    pub positions: Vec<[f32; 3]>,
    /// Unit vertex normals: empty, or one per position.
    pub normals: Vec<[f32; 3]>,
    /// Texture coordinates (the first UV set): empty, or one per position.
    pub uvs: Vec<[f32; 2]>,
    /// The second UV set (a room's lightmap): empty, or one per position.
    pub uvs2: Vec<[f32; 2]>,
    /// Skin joints (indices into the skin's [`Skin::joints`]): empty, or one per position.
    pub joints: Vec<[u16; 4]>,
    /// Skin weights (summing to 1) of [`Mesh::joints`]: empty, or one per position.
    pub weights: Vec<[f32; 4]>,
    /// Groups of faces or lines with one material each.
    pub groups: Vec<Group>,
}

/// Faces (or a line) sharing one material.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The material name (for walkmeshes the game's surface material name).
    pub material: String,
    /// RGBA, 0..1.
    pub colour: [f32; 4],
    /// Application data of the group.
    pub extras: Value,
    /// Application data of the material (glTF material `extras`; an MTL comment).
    pub material_extras: Value,
    /// The textures the material uses, by name.
    pub maps: Maps,
    /// The primitives.
    pub shape: Shape,
}

/// The textures of a material, by name: the diffuse texture on the first UV set, the lightmap
/// on the second.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Maps {
    /// The diffuse texture (`texture0`).
    pub diffuse: Option<String>,
    /// The lightmap (`texture1`), drawn with [`Mesh::uvs2`].
    pub lightmap: Option<String>,
}

/// A skin: the joints (scene nodes) and the inverse bind matrix of each.
#[derive(Debug, Clone, PartialEq)]
pub struct Skin {
    /// The name.
    pub name: String,
    /// The joint nodes (indices into [`Scene::nodes`]).
    pub joints: Vec<usize>,
    /// Per joint: the mesh's bind space to the joint's space (affine).
    pub inverse_bind: Vec<Mat4>,
}

/// An animation: keyframe channels of node transforms.
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    /// The name.
    pub name: String,
    /// Application data.
    pub extras: Value,
    /// The channels (at most one per node and property).
    pub channels: Vec<Channel>,
}

/// The keys of one animated node property, linearly interpolated.
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    /// The node (index into [`Scene::nodes`]).
    pub node: usize,
    /// What the keys set.
    pub property: Property,
    /// Key times in seconds: non-negative, strictly increasing.
    pub times: Vec<f32>,
    /// [`Property::width`] values per key, in the property's space (translation in the parent's
    /// space, rotation as a unit quaternion `[x, y, z, w]`, scale per axis).
    pub values: Vec<f32>,
}

/// An animated node property.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Property {
    /// The translation.
    Translation,
    /// The rotation.
    Rotation,
    /// The scale.
    Scale,
}

impl Property {
    /// Values per key.
    pub fn width(self) -> usize {
        match self {
            Property::Rotation => 4,
            Property::Translation | Property::Scale => 3,
        }
    }
}

/// What a group draws.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// Triangles (vertex indices), each with the index of the face it came from.
    Triangles {
        /// Vertex indices into [`Mesh::positions`].
        triangles: Vec<[u32; 3]>,
        /// The source face index of each triangle.
        faces: Vec<u32>,
    },
    /// A polyline through the listed vertices.
    LineStrip(Vec<u32>),
}

/// A column-major 4x4 matrix (f64).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mat4(pub [f64; 16]);

impl Mat4 {
    /// The identity.
    pub const IDENTITY: Mat4 = Mat4([
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]);

    /// The game's z-up frame seen from glTF's y-up frame: `(x, y, z)` → `(x, z, -y)`.
    pub const Z_UP_TO_Y_UP: Mat4 = Mat4([
        1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]);

    /// glTF's y-up frame back to the game's: `(x, y, z)` → `(x, -z, y)`.
    pub const Y_UP_TO_Z_UP: Mat4 = Mat4([
        1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]);

    /// Translation, rotation (unit quaternion `[x, y, z, w]`), unit scale.
    pub fn from_trs(t: [f64; 3], q: [f64; 4]) -> Mat4 {
        Mat4::from_trs_scale(t, q, [1.0; 3])
    }

    /// Translation, rotation and scale.
    pub fn from_trs_scale(t: [f64; 3], q: [f64; 4], s: [f64; 3]) -> Mat4 {
        let [x, y, z, w] = q;
        if q == [0.0, 0.0, 0.0, 1.0] {
            return Mat4([
                s[0], 0.0, 0.0, 0.0, 0.0, s[1], 0.0, 0.0, 0.0, 0.0, s[2], 0.0, t[0], t[1], t[2],
                1.0,
            ]);
        }
        let (xx, yy, zz) = (x * x, y * y, z * z);
        let (xy, xz, yz) = (x * y, x * z, y * z);
        let (wx, wy, wz) = (w * x, w * y, w * z);
        Mat4([
            (1.0 - 2.0 * (yy + zz)) * s[0],
            2.0 * (xy + wz) * s[0],
            2.0 * (xz - wy) * s[0],
            0.0,
            2.0 * (xy - wz) * s[1],
            (1.0 - 2.0 * (xx + zz)) * s[1],
            2.0 * (yz + wx) * s[1],
            0.0,
            2.0 * (xz + wy) * s[2],
            2.0 * (yz - wx) * s[2],
            (1.0 - 2.0 * (xx + yy)) * s[2],
            0.0,
            t[0],
            t[1],
            t[2],
            1.0,
        ])
    }

    /// `self * o`.
    pub fn mul(&self, o: &Mat4) -> Mat4 {
        let a = &self.0;
        let b = &o.0;
        let mut r = [0.0; 16];
        for c in 0..4 {
            for row in 0..4 {
                r[c * 4 + row] = (0..4).map(|k| a[k * 4 + row] * b[c * 4 + k]).sum();
            }
        }
        Mat4(r)
    }

    /// The inverse of a rigid transform (rotation and translation only).
    pub fn inverse_rigid(&self) -> Mat4 {
        let m = &self.0;
        let mut r = Mat4::IDENTITY.0;
        for c in 0..3 {
            for row in 0..3 {
                r[c * 4 + row] = m[row * 4 + c];
            }
        }
        for row in 0..3 {
            r[12 + row] = -(0..3).map(|k| r[k * 4 + row] * m[12 + k]).sum::<f64>();
        }
        Mat4(r)
    }

    /// Transforms a direction (no translation), in f64.
    pub fn vector(&self, v: [f32; 3]) -> [f64; 3] {
        let m = &self.0;
        let v = v.map(f64::from);
        [0, 1, 2].map(|r| (0..3).map(|k| m[k * 4 + r] * v[k]).sum())
    }

    /// Transforms a point. Exact for matrices of 0 and ±1 with zero translation.
    pub fn point(&self, p: [f32; 3]) -> [f32; 3] {
        let m = &self.0;
        let [x, y, z] = p.map(f64::from);
        let c = |r: usize| {
            let mut v = 0.0f64;
            for (k, q) in [x, y, z].into_iter().enumerate() {
                let e = m[k * 4 + r];
                if e == 1.0 {
                    v += q;
                } else if e == -1.0 {
                    v -= q;
                } else if e != 0.0 {
                    v += e * q;
                }
            }
            v + m[12 + r]
        };
        [c(0) as f32, c(1) as f32, c(2) as f32]
    }
}

/// A stored quaternion `[w, x, y, z]` as a unit `[x, y, z, w]` (identity when it has no
/// length or is not finite).
pub fn wxyz_to_unit_xyzw(q: [f32; 4]) -> [f64; 4] {
    unit_quat([q[1], q[2], q[3], q[0]].map(f64::from)).unwrap_or([0.0, 0.0, 0.0, 1.0])
}

/// `q` (`[x, y, z, w]`) scaled to unit length; `None` when it has no length or is not finite.
pub fn unit_quat(q: [f64; 4]) -> Option<[f64; 4]> {
    let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    (len.is_finite() && len > 1e-12).then(|| q.map(|c| c / len))
}

/// An axis-angle rotation (`[x, y, z, angle]`, radians; a zero axis is none) as a quaternion.
pub fn axis_angle_to_quat(a: [f64; 4]) -> [f64; 4] {
    let len = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    if !(len.is_finite() && len > 0.0 && a[3].is_finite()) || a[3] == 0.0 {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let (s, c) = (a[3] / 2.0).sin_cos();
    [a[0] / len * s, a[1] / len * s, a[2] / len * s, c]
}

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// Binary glTF.
    Glb,
    /// glTF JSON with the buffer embedded as a data URI.
    Gltf,
    /// Wavefront OBJ with a `.mtl` beside it.
    Obj,
}

impl ExportFormat {
    /// The format named by a file's extension.
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "glb" => Some(ExportFormat::Glb),
            "gltf" => Some(ExportFormat::Gltf),
            "obj" => Some(ExportFormat::Obj),
            _ => None,
        }
    }
}

/// A triangle soup read from an OBJ or glTF file, on its way to a walkmesh.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Soup {
    /// Positions in the game's coordinates.
    pub positions: Vec<[f32; 3]>,
    /// Triangles.
    pub triangles: Vec<SoupTriangle>,
    /// Whether the file is areakit's own export (its vertex table and face order are kept).
    pub areakit: bool,
    /// Room data found in the file (areakit's `extras`/comments): header fields and
    /// transitions, with the face offset of the room in [`Soup::triangles`].
    pub rooms: Vec<(usize, Value)>,
}

/// A triangle of a [`Soup`].
#[derive(Debug, Clone, PartialEq)]
pub struct SoupTriangle {
    /// Vertex indices into [`Soup::positions`].
    pub vertices: [u32; 3],
    /// The material name as the file spells it.
    pub material: String,
    /// Where the name was given (for errors): `line L:C` or `mesh M primitive P`.
    pub origin: String,
    /// The source face index (areakit exports), for the face order.
    pub key: Option<u32>,
}

/// RGB bytes to RGBA floats.
pub fn rgba(c: [u8; 3], alpha: f32) -> [f32; 4] {
    [
        f32::from(c[0]) / 255.0,
        f32::from(c[1]) / 255.0,
        f32::from(c[2]) / 255.0,
        alpha,
    ]
}

fn invalid(path: &Path, location: areakit_formats::Location, msg: impl Into<String>) -> Error {
    Error::invalid(
        path,
        areakit_formats::DecodeError::new(areakit_formats::ErrorKind::Malformed, location, msg),
    )
}

/// A JSON syntax error at its line and column.
fn json_error(path: &Path, what: &str, e: &serde_json::Error) -> Error {
    invalid(
        path,
        areakit_formats::Location::LineCol {
            line: u32::try_from(e.line()).unwrap_or(u32::MAX),
            column: u32::try_from(e.column()).unwrap_or(u32::MAX),
        },
        format!("{what}: {e}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_changes_are_exact_and_inverse() {
        let p = [0.1f32, -7.25, 3.3e-5];
        let up = Mat4::Z_UP_TO_Y_UP.point(p);
        assert_eq!(up, [0.1, 3.3e-5, 7.25]);
        assert_eq!(Mat4::Y_UP_TO_Z_UP.point(up), p);
        let both = Mat4::Y_UP_TO_Z_UP.mul(&Mat4::Z_UP_TO_Y_UP);
        assert_eq!(both, Mat4::IDENTITY);
        // A room node at its LYT position and its mesh node taking it back off: identity.
        let t = [103.7, -20.3, 1.1];
        let room = Mat4::from_trs(t, [0.0, 0.0, 0.0, 1.0]);
        let mesh = Mat4::from_trs(t.map(|c| -c), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(room.mul(&mesh).point(p), p);
    }

    #[test]
    fn quarter_turn_about_z() {
        let q = axis_angle_to_quat([0.0, 0.0, 2.0, std::f64::consts::FRAC_PI_2]);
        let r = Mat4::from_trs([1.0, 0.0, 0.0], q).point([1.0, 0.0, 0.0]);
        assert!(
            (r[0] - 1.0).abs() < 1e-6 && (r[1] - 1.0).abs() < 1e-6,
            "{r:?}"
        );
        assert_eq!(
            axis_angle_to_quat([0.0, 0.0, 0.0, 1.0]),
            [0.0, 0.0, 0.0, 1.0]
        );
    }

    #[test]
    fn base64_round_trips() {
        for n in 0..70u8 {
            let data: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37)).collect();
            let text = gltf::base64_encode(&data);
            assert_eq!(text.len() % 4, 0);
            assert_eq!(gltf::base64_decode(&text).as_deref(), Some(&data[..]));
        }
        assert_eq!(gltf::base64_encode(b"Man"), "TWFu");
        assert_eq!(gltf::base64_decode("TWE="), Some(b"Ma".to_vec()));
        assert_eq!(gltf::base64_decode("T!=="), None);
    }

    #[test]
    fn material_names_resolve_with_mapping_and_blender_suffixes() {
        let map = import::MaterialMap::parse(
            Path::new("m.json"),
            br#"{"Floor_Tiles": "stone", "Bridge": 22}"#,
        )
        .unwrap();
        use areakit_formats::bwm::Material;
        assert_eq!(map.resolve("floor_tiles"), Some(Material::Stone));
        assert_eq!(map.resolve("Floor_Tiles.003"), Some(Material::Stone));
        assert_eq!(map.resolve("BRIDGE"), Some(Material::StoneBridge));
        assert_eq!(map.resolve("Non-Walk"), Some(Material::NonWalk));
        assert_eq!(map.resolve("grass.001"), Some(Material::Grass));
        assert_eq!(map.resolve("Marble"), None);
        let e = import::MaterialMap::parse(Path::new("m.json"), b"{\n  \"a\": \"marble\"\n}")
            .unwrap_err();
        assert!(e.to_string().contains("`a`"), "{e}");
        let e = import::MaterialMap::parse(Path::new("m.json"), b"{\n  \"a\" \"stone\"\n}")
            .unwrap_err();
        assert!(e.to_string().contains("m.json: 2:"), "{e}");
    }
}
