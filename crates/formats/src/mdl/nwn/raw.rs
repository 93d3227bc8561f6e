//! On-disk sizes and words of the NWN compiled model (`docs/formats/mdl-nwn-binary.md`).

use crate::mdl::common::flags;

/// The file header: a zero word, the model data size and the raw data size.
pub const FILE_HEADER: usize = 12;
/// The geometry header (112) and the model header (120).
pub const MODEL_HEADER: usize = 232;
/// The geometry header (112) and the animation header (84).
pub const ANIMATION_HEADER: usize = 196;
/// The node header every node starts with.
pub const NODE_HEADER: usize = 112;
/// The light header.
pub const LIGHT_HEADER: usize = 92;
/// The emitter header.
pub const EMITTER_HEADER: usize = 216;
/// The reference header.
pub const REFERENCE_HEADER: usize = 68;
/// The mesh header.
pub const MESH_HEADER: usize = 512;
/// The skin header (17 bone slots; every corpus model).
pub const SKIN_HEADER: usize = 100;
/// The animated-mesh header.
pub const ANIM_HEADER: usize = 56;
/// The dangly-mesh header.
pub const DANGLY_HEADER: usize = 24;
/// The aabb header: the pointer to the tree's root.
pub const AABB_HEADER: usize = 4;
/// One controller record.
pub const CONTROLLER: usize = 12;
/// The content flag bits the reader knows (1 header ... 0x200 aabb, and 0x400, which adds no
/// header).
pub const KNOWN_FLAGS: u32 = 0x7FF;

/// The model geometry header's function pointers of the two compilers the corpus shows
/// (BioWare's 1.69-era compiler; NWN:EE's).
pub const MODEL_FNS: [[u32; 2]; 2] = [[4_631_308, 4_631_324], [4_242_368, 4_242_384]];

/// The size of a node's header and parts for content flags `f`.
pub fn header_size(f: u32) -> usize {
    let f = f as u16;
    let mut n = NODE_HEADER;
    for (bit, size) in [
        (flags::LIGHT, LIGHT_HEADER),
        (flags::EMITTER, EMITTER_HEADER),
        (flags::REFERENCE, REFERENCE_HEADER),
        (flags::MESH, MESH_HEADER),
        (flags::SKIN, SKIN_HEADER),
        (flags::ANIM, ANIM_HEADER),
        (flags::DANGLY, DANGLY_HEADER),
        (flags::AABB, AABB_HEADER),
    ] {
        if f & bit != 0 {
            n += size;
        }
    }
    n
}
