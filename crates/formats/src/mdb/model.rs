//! The owned MDB model: every field of every decoded packet, unknown packets as bytes.

use super::raw;

/// An NWN2 model file (MDB).
#[derive(Debug, Clone, PartialEq)]
pub struct Mdb {
    /// Major version (1 in every corpus file).
    pub version_major: u16,
    /// Minor version (12 in every corpus file).
    pub version_minor: u16,
    /// The packets in table order.
    pub packets: Vec<Packet>,
    /// The source placement of a file whose packets do not sit back to back in table order
    /// (or with bytes after the last); `None` for the canonical layout (every corpus file).
    pub layout: Option<Layout>,
}

pub use crate::trx::Layout;

impl Default for Mdb {
    fn default() -> Self {
        Mdb {
            version_major: raw::VERSION_MAJOR,
            version_minor: raw::VERSION_MINOR,
            packets: Vec::new(),
            layout: None,
        }
    }
}

impl Mdb {
    /// The WALK packets, in table order.
    pub fn walks(&self) -> impl Iterator<Item = &Walk> {
        self.packets.iter().filter_map(|p| match p {
            Packet::Walk(w) => Some(w),
            _ => None,
        })
    }

    /// The first WALK packet, if any ([`Mdb::walks`] gives every one).
    pub fn walk(&self) -> Option<&Walk> {
        self.walks().next()
    }
}

/// One packet.
#[derive(Debug, Clone, PartialEq)]
pub enum Packet {
    /// `RIGD`: a rigid mesh.
    Rigid(Mesh<RigidVertex>),
    /// `SKIN`: a skinned mesh.
    Skin(Skin),
    /// `COL2`: the coarse collision mesh.
    Collision2(Mesh<CollisionVertex>),
    /// `COL3`: the fine collision mesh.
    Collision3(Mesh<CollisionVertex>),
    /// `COLS`: collision spheres.
    Spheres(Vec<Sphere>),
    /// `HOOK`: a hook point.
    Hook(Point),
    /// `HAIR`: the hair shortening behaviour point.
    Hair(Point),
    /// `HELM`: the helm hair-hiding behaviour point.
    Helm(Point),
    /// `WALK`: the walkmesh.
    Walk(Walk),
    /// Any other packet (`TRRN`, unknown tags), its payload kept as bytes.
    Other {
        /// The tag.
        tag: [u8; 4],
        /// The payload (after the tag and size).
        data: Vec<u8>,
    },
}

impl Packet {
    /// The packet's four-byte tag.
    pub fn tag(&self) -> [u8; 4] {
        match self {
            Packet::Rigid(_) => raw::TAG_RIGD,
            Packet::Skin(_) => raw::TAG_SKIN,
            Packet::Collision2(_) => raw::TAG_COL2,
            Packet::Collision3(_) => raw::TAG_COL3,
            Packet::Spheres(_) => raw::TAG_COLS,
            Packet::Hook(_) => raw::TAG_HOOK,
            Packet::Hair(_) => raw::TAG_HAIR,
            Packet::Helm(_) => raw::TAG_HELM,
            Packet::Walk(_) => raw::TAG_WALK,
            Packet::Other { tag, .. } => *tag,
        }
    }

    /// The packet's name field (every decoded packet but COLS has one).
    pub fn name(&self) -> Option<&[u8; 32]> {
        match self {
            Packet::Rigid(m) => Some(&m.name),
            Packet::Collision2(m) | Packet::Collision3(m) => Some(&m.name),
            Packet::Skin(s) => Some(&s.mesh.name),
            Packet::Hook(p) | Packet::Hair(p) | Packet::Helm(p) => Some(&p.name),
            Packet::Walk(w) => Some(&w.name),
            Packet::Spheres(_) | Packet::Other { .. } => None,
        }
    }
}

/// The text of a fixed name field: the bytes before the first NUL (lossy UTF-8).
pub fn name_text(name: &[u8; 32]) -> String {
    let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    String::from_utf8_lossy(&name[..end]).into_owned()
}

/// A mesh's material.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Material {
    /// Diffuse map name (no extension; the whole 32-byte field, bytes after a NUL kept).
    pub diffuse_map: [u8; 32],
    /// Normal map name.
    pub normal_map: [u8; 32],
    /// Tint map name.
    pub tint_map: [u8; 32],
    /// Glow map name.
    pub glow_map: [u8; 32],
    /// Diffuse colour (RGB).
    pub diffuse_color: [f32; 3],
    /// Specular colour (RGB).
    pub specular_color: [f32; 3],
    /// Specular power.
    pub specular_power: f32,
    /// Specular value.
    pub specular_value: f32,
    /// Flags: 0x01 alpha test, 0x02 alpha blend, 0x04 additive, 0x08 environment map,
    /// 0x10 cutscene mesh, 0x20 glow, 0x40 casts no shadow, 0x80 projected textures
    /// (nwn2mdk's names; the corpus has 0 and 8).
    pub flags: u32,
}

/// A triangle mesh (RIGD, COL2, COL3, and SKIN's body) with its vertex record type.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh<V> {
    /// Packet name (the whole 32-byte field).
    pub name: [u8; 32],
    /// Material.
    pub material: Material,
    /// Vertices.
    pub vertices: Vec<V>,
    /// Faces: three vertex indices each.
    pub faces: Vec<[u16; 3]>,
}

/// A SKIN packet: a mesh whose vertices are weighted to a skeleton's bones.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Skin {
    /// Skeleton name (the whole 32-byte field); on disk right after the packet name.
    pub skeleton: [u8; 32],
    /// The mesh.
    pub mesh: Mesh<SkinVertex>,
}

/// A RIGD vertex.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RigidVertex {
    /// Position.
    pub position: [f32; 3],
    /// Normal.
    pub normal: [f32; 3],
    /// Tangent.
    pub tangent: [f32; 3],
    /// Binormal.
    pub binormal: [f32; 3],
    /// Texture coordinates (u, v, w).
    pub uvw: [f32; 3],
}

/// A COL2/COL3 vertex.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CollisionVertex {
    /// Position.
    pub position: [f32; 3],
    /// Normal.
    pub normal: [f32; 3],
    /// Texture coordinates (u, v, w).
    pub uvw: [f32; 3],
}

/// A SKIN vertex.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SkinVertex {
    /// Position.
    pub position: [f32; 3],
    /// Normal.
    pub normal: [f32; 3],
    /// Four bone weights.
    pub bone_weights: [f32; 4],
    /// Four bone indices.
    pub bone_indices: [u8; 4],
    /// Tangent.
    pub tangent: [f32; 3],
    /// Binormal.
    pub binormal: [f32; 3],
    /// Texture coordinates (u, v, w).
    pub uvw: [f32; 3],
    /// Number of bones used (stored as an `f32`).
    pub bone_count: f32,
}

/// A COLS collision sphere.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sphere {
    /// Bone index.
    pub bone: u32,
    /// Radius.
    pub radius: f32,
}

/// A HOOK, HAIR or HELM packet: a named point with an orientation.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Point {
    /// Packet name (the whole 32-byte field).
    pub name: [u8; 32],
    /// The word after the name. HOOK: point type (low `u16`) and point size (high `u16`);
    /// HAIR: shortening behaviour (0 low, 1 short, 2 ponytail); HELM: hair-hiding behaviour
    /// (0 none hidden, 1 hair hidden, 2 partial hair, 3 head hidden).
    pub word: u32,
    /// Position.
    pub position: [f32; 3],
    /// 3 x 3 orientation matrix, as stored (row by row in file order).
    pub orientation: [[f32; 3]; 3],
}

/// A WALK packet: a placeable's or door's walkmesh in model space.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Walk {
    /// Packet name (the whole 32-byte field).
    pub name: [u8; 32],
    /// The header's flags word (NWN2DataLib: `Flags`; nwn2mdk: `ui_flags`, "always 0").
    pub flags: u32,
    /// Vertices (model space). A z of [`raw::LINK_VERTEX_Z`] marks a link vertex.
    pub vertices: Vec<[f32; 3]>,
    /// Triangles.
    pub triangles: Vec<WalkTriangle>,
}

/// A WALK triangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WalkTriangle {
    /// Vertex indices.
    pub vertices: [u16; 3],
    /// Flags: [`raw::FLAG_WALKABLE`] and the surface-material bits [`raw::FLAG_MATERIALS`]
    /// (the TRX walkmesh's bits); other bits kept as stored.
    pub flags: u32,
}

impl WalkTriangle {
    /// Whether the walkable flag is set.
    pub fn is_walkable(&self) -> bool {
        self.flags & raw::FLAG_WALKABLE != 0
    }

    /// The names of the surface-material bits set (`dirt`, `grass`, ...).
    pub fn materials(&self) -> Vec<&'static str> {
        crate::trx::MATERIALS
            .iter()
            .filter(|(bit, _)| self.flags & u32::from(*bit) != 0)
            .map(|&(_, n)| n)
            .collect()
    }
}
