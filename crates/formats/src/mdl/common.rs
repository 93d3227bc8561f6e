//! The records KotOR and NWN compiled models lay out the same way: fixed-size names, the
//! geometry header (its name 32 bytes in KotOR, 64 in NWN), animation events, node type flags,
//! lights, faces and AABB trees.

use std::fmt;

/// A fixed-size, NUL-padded name field, kept byte for byte (some tools leave garbage after the
/// terminator).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name<const N: usize>(pub [u8; N]);

impl<const N: usize> Default for Name<N> {
    fn default() -> Self {
        Name([0; N])
    }
}

impl<const N: usize> Name<N> {
    /// The name up to its first NUL, one character per byte (ISO 8859-1).
    pub fn as_string(&self) -> String {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(N);
        self.0[..end].iter().map(|&b| char::from(b)).collect()
    }

    /// A field holding `s` (cut to `N - 1` bytes so it stays terminated), zero-padded.
    /// Characters beyond ISO 8859-1 become `?`.
    pub fn new(s: &str) -> Self {
        let mut out = [0u8; N];
        for (slot, c) in out.iter_mut().take(N.saturating_sub(1)).zip(s.chars()) {
            *slot = u8::try_from(u32::from(c)).unwrap_or(b'?');
        }
        Name(out)
    }

    /// Whether the field is empty (starts with NUL).
    pub fn is_empty(&self) -> bool {
        self.0.first().is_none_or(|&b| b == 0)
    }
}

impl<const N: usize> fmt::Debug for Name<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_string())
    }
}

/// The geometry header that opens the model and every animation: the name is 32 bytes in
/// KotOR, 64 in NWN.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GeometryHeader<const N: usize = 32> {
    /// The two function-pointer words (they tell the game and platform apart).
    pub function_pointers: [u32; 2],
    /// The model or animation name.
    pub name: Name<N>,
    /// The node count word as stored (the geometry tree's nodes, or the supermodel's for
    /// animations; kept as data).
    pub node_count: u32,
    /// The two runtime arrays (pointer, count, allocated count each), zero in files.
    pub runtime: [u32; 6],
    /// The reference count word (runtime).
    pub ref_count: u32,
    /// The geometry type byte: 2 for a model, 5 for an animation.
    pub model_type: u8,
    /// The three padding bytes after the type.
    pub padding: [u8; 3],
}

/// An animation event.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Event {
    /// Time in seconds.
    pub time: f32,
    /// The event name.
    pub name: Name<32>,
}

/// Node type flag bits.
pub mod flags {
    /// Every node has a header.
    pub const HEADER: u16 = 0x001;
    /// Light.
    pub const LIGHT: u16 = 0x002;
    /// Emitter.
    pub const EMITTER: u16 = 0x004;
    /// Camera.
    pub const CAMERA: u16 = 0x008;
    /// Reference.
    pub const REFERENCE: u16 = 0x010;
    /// Triangle mesh.
    pub const MESH: u16 = 0x020;
    /// Skinned mesh.
    pub const SKIN: u16 = 0x040;
    /// Animated mesh.
    pub const ANIM: u16 = 0x080;
    /// Dangly mesh.
    pub const DANGLY: u16 = 0x100;
    /// Walkmesh with an AABB tree.
    pub const AABB: u16 = 0x200;
    /// Lightsaber blade.
    pub const SABER: u16 = 0x800;
}

/// The type name of a node with `flags`.
pub fn kind_name(f: u16) -> &'static str {
    use flags::*;
    if f & SABER != 0 {
        "lightsaber"
    } else if f & AABB != 0 {
        "aabb"
    } else if f & DANGLY != 0 {
        "danglymesh"
    } else if f & ANIM != 0 {
        "animmesh"
    } else if f & SKIN != 0 {
        "skin"
    } else if f & MESH != 0 {
        "trimesh"
    } else if f & REFERENCE != 0 {
        "reference"
    } else if f & CAMERA != 0 {
        "camera"
    } else if f & EMITTER != 0 {
        "emitter"
    } else if f & LIGHT != 0 {
        "light"
    } else {
        "dummy"
    }
}

/// Light data.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Light {
    /// Flare radius.
    pub flare_radius: f32,
    /// The unknown array (its words, kept).
    pub unknown: Vec<u32>,
    /// Flare sizes.
    pub flare_sizes: Vec<f32>,
    /// Flare positions.
    pub flare_positions: Vec<f32>,
    /// Flare colour shifts.
    pub flare_color_shifts: Vec<[f32; 3]>,
    /// Flare texture names.
    pub flare_textures: Vec<Vec<u8>>,
    /// Light priority.
    pub priority: u32,
    /// Ambient-only flag.
    pub ambient_only: u32,
    /// Dynamic type.
    pub dynamic_type: u32,
    /// Affects dynamic objects.
    pub affect_dynamic: u32,
    /// Casts shadows.
    pub shadow: u32,
    /// Has a lens flare.
    pub flare: u32,
    /// Fading light.
    pub fading: u32,
}

/// A mesh face (32 bytes).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Face {
    /// Plane normal.
    pub normal: [f32; 3],
    /// Plane distance.
    pub distance: f32,
    /// Surface material (walkmesh faces) or smoothing group word.
    pub material: u32,
    /// Adjacent faces per edge (0xFFFF for none).
    pub adjacent: [u16; 3],
    /// Vertex indices.
    pub vertices: [u16; 3],
}

/// An AABB tree node (40 bytes).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AabbNode {
    /// Box minimum.
    pub min: [f32; 3],
    /// Box maximum.
    pub max: [f32; 3],
    /// Left child (index into the tree).
    pub left: Option<u32>,
    /// Right child.
    pub right: Option<u32>,
    /// The face of a leaf (-1 for inner nodes).
    pub face: i32,
    /// The most significant plane word (1 +x, 2 +y, 4 +z, negatives for -x/-y/-z; 0 leaves).
    pub plane: u32,
}

/// The walkmesh AABB tree of an aabb node, in pre-order; `tree[0]` is the root.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Aabb {
    /// The tree nodes.
    pub tree: Vec<AabbNode>,
}

/// The keys of a controller whose `rows` times start at `time_index` of `data` and whose values
/// (`width` per key) start at `data_index`: for each row, its time and its values. Rows past the
/// data are left out.
pub(crate) fn key_rows(
    data: &[f32],
    rows: u16,
    time_index: u16,
    data_index: u16,
    width: usize,
) -> impl Iterator<Item = (f32, &[f32])> + '_ {
    let t0 = usize::from(time_index);
    let v0 = usize::from(data_index);
    (0..usize::from(rows)).filter_map(move |r| {
        let t = *data.get(t0 + r)?;
        let v = data.get(v0 + r * width..v0 + (r + 1) * width)?;
        Some((t, v))
    })
}
