//! On-disk constants of NWN2 MDB models.
//!
//! The container (header, packet table, packet headers) is the one NWN2's terrain files use
//! (`crate::trx::raw`); byte layouts are documented in `docs/formats/mdb.md`.

pub use crate::trx::raw::{HEADER_SIZE, MAGIC, PACKET_ENTRY_SIZE, PACKET_HEADER_SIZE};

/// Major version of every corpus MDB (and of what the toolset's exporters write).
pub const VERSION_MAJOR: u16 = 1;
/// Minor version of every corpus MDB.
pub const VERSION_MINOR: u16 = 12;

/// Rigid (static) mesh.
pub const TAG_RIGD: [u8; 4] = *b"RIGD";
/// Skinned mesh (vertices weighted to a skeleton's bones).
pub const TAG_SKIN: [u8; 4] = *b"SKIN";
/// Coarse collision mesh.
pub const TAG_COL2: [u8; 4] = *b"COL2";
/// Fine collision mesh.
pub const TAG_COL3: [u8; 4] = *b"COL3";
/// Collision spheres (bone, radius).
pub const TAG_COLS: [u8; 4] = *b"COLS";
/// Hook point (an attachment point with an orientation).
pub const TAG_HOOK: [u8; 4] = *b"HOOK";
/// Hair shortening behaviour point.
pub const TAG_HAIR: [u8; 4] = *b"HAIR";
/// Helm hair-hiding behaviour point.
pub const TAG_HELM: [u8; 4] = *b"HELM";
/// Walkmesh of a placeable or door.
pub const TAG_WALK: [u8; 4] = *b"WALK";

/// Bytes of a fixed name field (packet name, skeleton name, texture names).
pub const NAME_SIZE: usize = 32;
/// Bytes of a material: four texture names, diffuse and specular colours, specular power
/// and value, flags.
pub const MATERIAL_SIZE: usize = 4 * NAME_SIZE + 6 * 4 + 2 * 4 + 4;
/// Bytes of a mesh payload header: name, material, vertex count, face count (RIGD, COL2,
/// COL3; SKIN has a skeleton name after the name).
pub const MESH_HEADER_SIZE: usize = NAME_SIZE + MATERIAL_SIZE + 8;
/// Bytes of a SKIN payload header.
pub const SKIN_HEADER_SIZE: usize = MESH_HEADER_SIZE + NAME_SIZE;
/// Bytes per RIGD vertex: position, normal, tangent, binormal, texture coordinates (`f32` x 3
/// each).
pub const RIGID_VERTEX_SIZE: usize = 60;
/// Bytes per COL2/COL3 vertex: position, normal, texture coordinates.
pub const COLLISION_VERTEX_SIZE: usize = 36;
/// Bytes per SKIN vertex: position, normal, 4 bone weights, 4 bone indices (bytes), tangent,
/// binormal, texture coordinates, bone count (`f32`).
pub const SKIN_VERTEX_SIZE: usize = 84;
/// Bytes per mesh face: three `u16` vertex indices.
pub const FACE_SIZE: usize = 6;

/// Bytes of a HOOK, HAIR or HELM payload: name, a `u32` word, position, 3 x 3 orientation.
pub const POINT_SIZE: usize = NAME_SIZE + 4 + 12 + 36;
/// Bytes of a COLS sphere: `u32` bone index, `f32` radius.
pub const SPHERE_SIZE: usize = 8;

/// Bytes of a WALK payload header: name, `u32` flags, vertex count, triangle count.
pub const WALK_HEADER_SIZE: usize = NAME_SIZE + 12;
/// Bytes per WALK vertex: three `f32`.
pub const WALK_VERTEX_SIZE: usize = 12;
/// Bytes per WALK triangle: three `u16` vertex indices, `u32` flags.
pub const WALK_TRIANGLE_SIZE: usize = 10;

/// WALK triangle flag: walkable (the surface-material bits are those of the TRX walkmesh,
/// [`crate::trx::raw::FLAG_MATERIALS`]).
pub const FLAG_WALKABLE: u32 = 0x0001;
/// WALK triangle flags: the surface-material bits (dirt 0x08 .. puddles 0x2000).
pub const FLAG_MATERIALS: u32 = crate::trx::raw::FLAG_MATERIALS as u32;

/// The z that marks a WALK "link" vertex: NWN2DataLib (`WalkMesh::LinkVertexZ`) names it,
/// nwn2mdk's importer writes it for vertices below z = -19.9 and clamps it on export.
pub const LINK_VERTEX_Z: f32 = -1_000_000.0;

/// A count, size or offset as the `u32` the format stores.
pub(crate) fn count(n: usize, what: &str) -> Result<u32, crate::EncodeError> {
    u32::try_from(n).map_err(|_| crate::EncodeError(format!("{n} {what} do not fit in a u32")))
}
