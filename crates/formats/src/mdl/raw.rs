//! On-disk sizes, function-pointer words and little-endian field access.

/// The file header: a zero word, the MDL data size and the MDX size.
pub const FILE_HEADER: usize = 12;
/// Geometry header (80) and model header (116).
pub const MODEL_HEADER: usize = 196;
/// Geometry header (80) and animation header (56).
pub const ANIMATION_HEADER: usize = 136;
/// The node header every node starts with.
pub const NODE_HEADER: usize = 80;
/// The light header.
pub const LIGHT_HEADER: usize = 92;
/// The emitter header.
pub const EMITTER_HEADER: usize = 224;
/// The reference header.
pub const REFERENCE_HEADER: usize = 36;
/// The K1 mesh header.
pub const MESH_HEADER_K1: usize = 332;
/// The K2 mesh header (8 more bytes after the render flags).
pub const MESH_HEADER_K2: usize = 340;
/// The skin header.
pub const SKIN_HEADER: usize = 100;
/// The dangly-mesh header.
pub const DANGLY_HEADER: usize = 28;
/// The aabb header: the pointer to the tree's root.
pub const AABB_HEADER: usize = 4;
/// The lightsaber header.
pub const SABER_HEADER: usize = 20;
/// One AABB tree node.
pub const AABB_NODE: usize = 40;

/// The model geometry header's first function pointer, per game and platform.
pub const MODEL_FN_K1_PC: u32 = 4_273_776;
/// K2 PC.
pub const MODEL_FN_K2_PC: u32 = 4_285_200;
/// K1 Xbox.
pub const MODEL_FN_K1_XBOX: u32 = 4_254_992;
/// K2 Xbox.
pub const MODEL_FN_K2_XBOX: u32 = 4_285_872;
/// Second model function pointer, K1 PC.
pub const MODEL_FN2_K1_PC: u32 = 4_216_096;
/// Second model function pointer, K2 PC.
pub const MODEL_FN2_K2_PC: u32 = 4_216_320;
/// Animation geometry header pointers, K1 PC.
pub const ANIM_FNS_K1_PC: [u32; 2] = [4_273_392, 4_451_552];
/// Animation geometry header pointers, K2 PC.
pub const ANIM_FNS_K2_PC: [u32; 2] = [4_284_816, 4_522_928];
/// Mesh header pointers (trimesh, skin, dangly; first and second word), K1 PC.
pub const K1_MESH_FNS: [u32; 6] = [
    4_216_656, 4_216_672, 4_216_592, 4_216_608, 4_216_640, 4_216_624,
];
/// Mesh header pointers (trimesh, skin, dangly; first and second word), K2 PC.
pub const K2_MESH_FNS: [u32; 6] = [
    4_216_880, 4_216_896, 4_216_816, 4_216_832, 4_216_864, 4_216_848,
];

/// The size of a node's header and type parts for type flags `f`.
pub fn header_size(f: u16, mesh_size: usize) -> usize {
    use super::common::flags::*;
    let mut n = NODE_HEADER;
    if f & LIGHT != 0 {
        n += LIGHT_HEADER;
    }
    if f & EMITTER != 0 {
        n += EMITTER_HEADER;
    }
    if f & REFERENCE != 0 {
        n += REFERENCE_HEADER;
    }
    if f & MESH != 0 {
        n += mesh_size;
    }
    if f & SKIN != 0 && f & MESH != 0 {
        n += SKIN_HEADER;
    }
    if f & DANGLY != 0 {
        n += DANGLY_HEADER;
    }
    if f & AABB != 0 {
        n += AABB_HEADER;
    }
    if f & SABER != 0 {
        n += SABER_HEADER;
    }
    n
}

pub use super::le::{get_u16, get_u32, le_f32, le_i32, le_u16, le_u32, vec3};
