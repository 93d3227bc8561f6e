//! The owned, editable BWM model.

use super::material::Material;
use super::raw::NONE_U32;

/// The walkmesh type word at offset 0x08.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum WalkmeshType {
    /// `0`: a placeable (PWK) or door (DWK) walkmesh, vertices in object space.
    PlaceableOrDoor,
    /// `1`: an area room walkmesh (WOK), vertices in world space.
    #[default]
    Area,
    /// Any other value, kept as read.
    Other(u32),
}

impl WalkmeshType {
    /// The type of an on-disk word.
    pub const fn from_raw(v: u32) -> Self {
        match v {
            0 => WalkmeshType::PlaceableOrDoor,
            1 => WalkmeshType::Area,
            v => WalkmeshType::Other(v),
        }
    }

    /// The on-disk word.
    pub const fn raw(self) -> u32 {
        match self {
            WalkmeshType::PlaceableOrDoor => 0,
            WalkmeshType::Area => 1,
            WalkmeshType::Other(v) => v,
        }
    }
}

/// Which of the three BWM resource kinds a file is. The type word tells area from the rest;
/// PWK and DWK share type 0 and are told apart only by the resource type (the file extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BwmKind {
    /// Area room walkmesh (`.wok`).
    Wok,
    /// Placeable walkmesh (`.pwk`).
    Pwk,
    /// Door walkmesh (`.dwk`).
    Dwk,
}

impl BwmKind {
    /// The lower-case name (`wok`, `pwk`, `dwk`), also the usual extension.
    pub const fn name(self) -> &'static str {
        match self {
            BwmKind::Wok => "wok",
            BwmKind::Pwk => "pwk",
            BwmKind::Dwk => "dwk",
        }
    }

    /// The kind named by a file extension, if any.
    pub fn from_extension(ext: &str) -> Option<Self> {
        match ext.to_ascii_lowercase().as_str() {
            "wok" => Some(BwmKind::Wok),
            "pwk" => Some(BwmKind::Pwk),
            "dwk" => Some(BwmKind::Dwk),
            _ => None,
        }
    }
}

/// A triangle: three vertex indices and a surface material.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Face {
    /// Indices into [`Bwm::vertices`], in winding order. Edge `k` runs from vertex `k` to
    /// vertex `(k + 1) % 3`.
    pub vertices: [u32; 3],
    /// The surface material.
    pub material: Material,
}

/// A node of the stored AABB tree (44 bytes on disk).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AabbNode {
    /// Minimum corner of the box.
    pub min: [f32; 3],
    /// Maximum corner of the box.
    pub max: [f32; 3],
    /// Face index for a leaf, `-1` for an internal node.
    pub face: i32,
    /// The word after the face index; `4` in every real file.
    pub unknown: u32,
    /// The most significant plane: `0` on leaves; on internal nodes a bit for the split axis,
    /// `1`/`2`/`4` = +X/+Y/+Z, `8`/`16`/`32` = -X/-Y/-Z (see `docs/formats/bwm.md`).
    pub plane: u32,
    /// 0-based index of the left child, `u32::MAX` for none.
    pub left: u32,
    /// 0-based index of the right child, `u32::MAX` for none.
    pub right: u32,
}

impl AabbNode {
    /// The face of a leaf.
    pub fn leaf_face(&self) -> Option<u32> {
        u32::try_from(self.face).ok()
    }

    /// The left child, if any.
    pub fn left_child(&self) -> Option<u32> {
        (self.left != NONE_U32).then_some(self.left)
    }

    /// The right child, if any.
    pub fn right_child(&self) -> Option<u32> {
        (self.right != NONE_U32).then_some(self.right)
    }
}

/// A boundary edge of the walkable surface with its transition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Edge {
    /// `face * 3 + side`: the face and which of its three edges.
    pub edge: u32,
    /// The room (index in the area's LYT) across the edge, `-1` for none.
    pub transition: i32,
}

impl Edge {
    /// The face the edge belongs to.
    pub const fn face(&self) -> u32 {
        self.edge / 3
    }

    /// Which edge of the face (0, 1 or 2).
    pub const fn side(&self) -> u32 {
        self.edge % 3
    }

    /// The transition, if the edge has one.
    pub fn transition(&self) -> Option<u32> {
        u32::try_from(self.transition).ok()
    }
}

/// Layout facts of a file whose tables are not where a fresh write would put them (gaps,
/// trailing bytes, unusual offsets). Kept so that an unmodified model writes back byte for byte;
/// ignored once the table sizes change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceLayout {
    /// Records per table when read, in [`super::raw::Table::ALL`] order.
    pub counts: [u32; 9],
    /// Offsets per table when read.
    pub offsets: [u32; 9],
    /// Total file length.
    pub len: usize,
    /// Bytes not covered by the header or any table: `(offset, bytes)`.
    pub filler: Vec<(u32, Vec<u8>)>,
}

/// A BWM walkmesh: every field of a `BWM V1.0` file.
///
/// The per-face tables ([`Bwm::normals`], [`Bwm::distances`]) must have one entry per face.
/// Derived data (normals, distances, AABB tree, adjacency, edges, perimeters) is stored as read
/// and only rebuilt when asked (see `areakit-geometry`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bwm {
    /// The type word.
    pub walkmesh_type: WalkmeshType,
    /// Relative use hooks 1 and 2 (0x0C, 0x18).
    pub relative_use: [[f32; 3]; 2],
    /// Absolute use hooks 1 and 2 (0x24, 0x30).
    pub absolute_use: [[f32; 3]; 2],
    /// World position (0x3C).
    pub position: [f32; 3],
    /// Vertex positions.
    pub vertices: Vec<[f32; 3]>,
    /// Faces: vertex indices and material.
    pub faces: Vec<Face>,
    /// One normal per face.
    pub normals: Vec<[f32; 3]>,
    /// One planar distance per face: `d` of `n . p + d = 0`.
    pub distances: Vec<f32>,
    /// AABB tree nodes; the tools write them in pre-order with the root first.
    pub aabb_nodes: Vec<AabbNode>,
    /// The header word at 0x6C (the root node; 0 in every real file).
    pub aabb_root: u32,
    /// Per walkable face (the first `adjacency.len()` faces): for each edge the adjacent
    /// `face * 3 + side`, or `-1`.
    pub adjacency: Vec<[i32; 3]>,
    /// Boundary edges of the walkable surface, grouped in perimeter loops.
    pub edges: Vec<Edge>,
    /// 1-based end index in [`Bwm::edges`] of each perimeter loop.
    pub perimeters: Vec<u32>,
    /// How the source file was laid out, when a fresh write would lay it out differently.
    pub source_layout: Option<SourceLayout>,
}

/// The axis-aligned bounds of `points`, or `None` when there are none.
fn bounds_of<'a>(mut points: impl Iterator<Item = &'a [f32; 3]>) -> Option<([f32; 3], [f32; 3])> {
    let first = *points.next()?;
    Some(points.fold((first, first), |(mut lo, mut hi), v| {
        for k in 0..3 {
            lo[k] = lo[k].min(v[k]);
            hi[k] = hi[k].max(v[k]);
        }
        (lo, hi)
    }))
}

impl Bwm {
    /// The resource kind, using a file extension (if known) to tell PWK from DWK.
    pub fn kind(&self, extension: Option<&str>) -> BwmKind {
        let by_ext = extension.and_then(BwmKind::from_extension);
        match (self.walkmesh_type, by_ext) {
            (WalkmeshType::Area, _) => BwmKind::Wok,
            (_, Some(BwmKind::Dwk)) => BwmKind::Dwk,
            (_, Some(BwmKind::Wok)) | (_, Some(BwmKind::Pwk)) | (_, None) => BwmKind::Pwk,
        }
    }

    /// Faces counted as walkable by the file: the length of the adjacency table
    /// (the game's tools put the walkable faces first).
    pub fn walkable_face_count(&self) -> usize {
        self.adjacency.len()
    }

    /// Number of perimeter loops.
    pub fn perimeter_loops(&self) -> usize {
        self.perimeters.len()
    }

    /// The axis-aligned bounds of all vertices, or `None` without vertices.
    pub fn bounds(&self) -> Option<([f32; 3], [f32; 3])> {
        bounds_of(self.vertices.iter())
    }

    /// The axis-aligned bounds of the vertices the faces name (what an AABB tree encloses;
    /// indices past the vertex table are skipped), or `None` without faces.
    pub fn face_bounds(&self) -> Option<([f32; 3], [f32; 3])> {
        bounds_of(
            self.faces
                .iter()
                .flat_map(|f| f.vertices)
                .filter_map(|i| self.vertices.get(i as usize)),
        )
    }

    /// The vertex positions of face `i`.
    pub fn face_positions(&self, i: usize) -> Option<[[f32; 3]; 3]> {
        let f = self.faces.get(i)?;
        let get = |k: usize| self.vertices.get(f.vertices[k] as usize).copied();
        Some([get(0)?, get(1)?, get(2)?])
    }
}
