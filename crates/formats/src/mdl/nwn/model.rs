//! The owned NWN compiled model: headers, the node tree (an arena in pre-order), the
//! animations, and the vertex data of the raw-data block, every field of the file kept as data.
//!
//! Pointers and counts are not fields: the writer derives them. A model read from bytes also
//! remembers where each block stood, so writing it back unmodified gives the same bytes;
//! equality ignores that layout.

pub use crate::mdl::common::{Aabb, AabbNode, Event, Face, GeometryHeader, Light, Name, flags};

/// The model header after the geometry header (120 bytes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelHeader {
    /// Two bytes before the classification (zero in files).
    pub unknown: [u8; 2],
    /// Classification: 0 other, 1 effect, 2 tile, 4 character, 8 door (the ASCII
    /// `classification`).
    pub classification: u8,
    /// Whether fog affects the model (the ASCII `ignorefog` is its negation).
    pub fog: u8,
    /// The child model count word.
    pub child_model_count: u32,
    /// The supermodel pointer word (runtime; stale values are kept).
    pub supermodel_ref: u32,
    /// Bounding box minimum.
    pub bounds_min: [f32; 3],
    /// Bounding box maximum.
    pub bounds_max: [f32; 3],
    /// Bounding radius.
    pub radius: f32,
    /// Animation scale.
    pub animation_scale: f32,
    /// The supermodel's name (`NULL` for none).
    pub supermodel: Name<64>,
}

/// An NWN compiled model.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// The first word of the file (zero).
    pub file_word: u32,
    /// The geometry header (its name is 64 bytes).
    pub geometry: GeometryHeader<64>,
    /// The model header.
    pub header: ModelHeader,
    /// The geometry node tree in pre-order; `nodes[0]` is the root.
    pub nodes: Vec<Node>,
    /// The animations.
    pub animations: Vec<Animation>,
    /// Bytes after the model and raw data the header declares (empty in the corpus). Written
    /// back after them.
    pub trailing: Vec<u8>,
    /// Where each block of the source file stood, for the byte-exact writer.
    pub(crate) layout: Option<Box<crate::mdl::layout::Layout>>,
}

impl PartialEq for Model {
    fn eq(&self, o: &Self) -> bool {
        self.file_word == o.file_word
            && self.geometry == o.geometry
            && self.header == o.header
            && self.nodes == o.nodes
            && self.animations == o.animations
            && self.trailing == o.trailing
    }
}

/// An animation: its header, events and node tree.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Animation {
    /// The animation's geometry header (name, function pointers).
    pub geometry: GeometryHeader<64>,
    /// Length in seconds.
    pub length: f32,
    /// Transition time in seconds.
    pub transition: f32,
    /// The name of the model node the animation is rooted at.
    pub root: Name<64>,
    /// The events.
    pub events: Vec<Event>,
    /// The animation's node tree in pre-order; `nodes[0]` is its root. Its nodes carry their
    /// type parts as the geometry's do (meshes without vertices, emitters, lights).
    pub nodes: Vec<Node>,
}

/// A controller record (12 bytes).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Controller {
    /// The controller type (8 position, 20 orientation, 36 scale, ...; per node type).
    pub kind: u32,
    /// Number of keys.
    pub rows: u16,
    /// Index of the first key time in the node's controller data.
    pub time_index: u16,
    /// Index of the first value.
    pub data_index: u16,
    /// Columns per key; bit 0x10 marks bezier keys (three values per column).
    pub columns: u8,
    /// The padding byte (not always zero).
    pub padding: u8,
}

impl Controller {
    /// Bit of [`Controller::columns`] that marks bezier keys.
    pub const BEZIER: u8 = 0x10;

    /// Whether the keys are bezier (each column a value and two tangents).
    pub fn is_bezier(&self) -> bool {
        self.columns & Self::BEZIER != 0
    }

    /// Values per key.
    pub fn width(&self) -> usize {
        let base = usize::from(self.columns & 0x0F);
        if self.is_bezier() { base * 3 } else { base }
    }
}

/// A node: the header, the controllers and the parts its type flags add. The larger parts are
/// boxed, so that a node (most are dummies or meshes) stays small to move and to hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Node {
    /// The content flags ([`flags`]): 1 dummy, 3 light, 5 emitter, 17 reference, 33 trimesh,
    /// 97 skin, 161 animmesh, 289 danglymesh, 545 aabb.
    pub flags: u32,
    /// The six function-pointer words (they differ per compiler and node type).
    pub function_pointers: [u32; 6],
    /// The inherit-colour word.
    pub inherit_color: u32,
    /// The node (part) number; -1 in an animation node whose geometry node is elsewhere.
    pub node_number: i32,
    /// The node name.
    pub name: Name<32>,
    /// The geometry and parent pointer words (runtime; zero in files).
    pub runtime: [u32; 2],
    /// Child nodes (indices into the same arena).
    pub children: Vec<u32>,
    /// The controllers.
    pub controllers: Vec<Controller>,
    /// The controller data: key times and values, indexed by the controllers.
    pub controller_data: Vec<f32>,
    /// Light data (flag [`flags::LIGHT`]).
    pub light: Option<Box<Light>>,
    /// Emitter data (flag [`flags::EMITTER`]).
    pub emitter: Option<Box<Emitter>>,
    /// Reference data (flag [`flags::REFERENCE`]).
    pub reference: Option<Box<Reference>>,
    /// Mesh data (flag [`flags::MESH`]).
    pub mesh: Option<Box<Mesh>>,
    /// Skin data (flag [`flags::SKIN`]).
    pub skin: Option<Box<Skin>>,
    /// Animated-mesh data (flag [`flags::ANIM`]).
    pub anim: Option<Box<AnimMesh>>,
    /// Dangly-mesh data (flag [`flags::DANGLY`]).
    pub dangly: Option<Dangly>,
    /// Walkmesh AABB tree (flag [`flags::AABB`]).
    pub aabb: Option<Aabb>,
}

impl Node {
    /// The node's name, one character per byte.
    pub fn name(&self) -> String {
        self.name.as_string()
    }

    /// The node's type name as the ASCII dialect writes it.
    pub fn kind_name(&self) -> &'static str {
        crate::mdl::common::kind_name(self.flags as u16)
    }

    /// The keys of controller `c`: for each row, its time and its values.
    pub fn keys<'a>(&'a self, c: &Controller) -> impl Iterator<Item = (f32, &'a [f32])> + 'a {
        crate::mdl::common::key_rows(
            &self.controller_data,
            c.rows,
            c.time_index,
            c.data_index,
            c.width(),
        )
    }

    /// The first key of the controller of type `kind` (a rest value such as the position).
    pub fn first_key(&self, kind: u32) -> Option<&[f32]> {
        let c = self.controllers.iter().find(|c| c.kind == kind)?;
        self.keys(c).next().map(|(_, v)| v)
    }
}

/// Emitter data (216 bytes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Emitter {
    /// Dead space.
    pub dead_space: f32,
    /// Blast radius.
    pub blast_radius: f32,
    /// Blast length.
    pub blast_length: f32,
    /// Grid X.
    pub x_grid: u32,
    /// Grid Y.
    pub y_grid: u32,
    /// Spawn type.
    pub spawn_type: u32,
    /// Update mode (`Fountain`, `Single`, `Explosion`, `Lightning`).
    pub update: Name<32>,
    /// Render mode.
    pub render: Name<32>,
    /// Blend mode.
    pub blend: Name<32>,
    /// Texture.
    pub texture: Name<64>,
    /// Chunk model name.
    pub chunk: Name<16>,
    /// Two-sided texture flag.
    pub two_sided_texture: u32,
    /// Loop flag.
    pub looping: u32,
    /// Render order.
    pub render_order: u16,
    /// The two bytes after the render order.
    pub padding: u16,
    /// The emitter flag bits (P2P, P2P_Sel, AffectedByWind, Tinted, Bounce, Random, Inherit,
    /// InheritVel, InheritLocal, Splat, InheritPart).
    pub flags: u32,
}

/// Reference data (68 bytes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reference {
    /// The referenced model.
    pub model: Name<64>,
    /// Whether it is re-attachable.
    pub reattachable: u32,
}

/// Mesh data: the 512-byte mesh header, faces, index lists and the vertex data of the raw-data
/// block. An attribute the file does not have (raw offset -1) is `None`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mesh {
    /// The mesh header's two function-pointer words.
    pub function_pointers: [u32; 2],
    /// The faces.
    pub faces: Vec<Face>,
    /// Bounding box minimum.
    pub bounds_min: [f32; 3],
    /// Bounding box maximum.
    pub bounds_max: [f32; 3],
    /// Bounding radius.
    pub radius: f32,
    /// Average point.
    pub average: [f32; 3],
    /// Diffuse colour.
    pub diffuse: [f32; 3],
    /// Ambient colour.
    pub ambient: [f32; 3],
    /// Specular colour.
    pub specular: [f32; 3],
    /// Shininess.
    pub shininess: f32,
    /// Shadow flag.
    pub shadow: u32,
    /// Beaming flag.
    pub beaming: u32,
    /// Render flag.
    pub render: u32,
    /// Transparency hint.
    pub transparency_hint: u32,
    /// The render-hint word (NWN:EE: 2 for `NormalAndSpecMapped`).
    pub render_hint: u32,
    /// Textures 0-3 (`bitmap`, `texture1`, `texture2`, and NWN:EE's material name).
    pub textures: [Name<64>; 4],
    /// Tile fade.
    pub tile_fade: u32,
    /// The two legacy arrays (vertex indices, left-over faces: offset, count, allocated count
    /// each), zero in files.
    pub legacy_arrays: [u32; 6],
    /// The index lists (one of three indices per face in files), in the raw data.
    pub index_lists: Vec<Vec<u16>>,
    /// The word after the index arrays (-1 in files).
    pub unknown1: i32,
    /// The word after that (zero in files).
    pub unknown2: u32,
    /// The primitive type byte (3 triangle list; most files leave 0).
    pub triangle_mode: u8,
    /// The three bytes after it (not always zero).
    pub triangle_mode_padding: [u8; 3],
    /// The word before the vertex offset (zero in files).
    pub unknown3: u32,
    /// Number of texture coordinate sets used.
    pub texture_count: u16,
    /// Vertex positions.
    pub positions: Option<Vec<[f32; 3]>>,
    /// Up to four UV sets.
    pub uvs: [Option<Vec<[f32; 2]>>; 4],
    /// Vertex normals.
    pub normals: Option<Vec<[f32; 3]>>,
    /// Vertex colours, RGBA bytes.
    pub colors: Option<Vec<[u8; 4]>>,
    /// The six texture-animation streams of the old compiler, per vertex: three tangent-basis
    /// rows (12 bytes each), NWN:EE's tangents (12), a half-angle row (12), NWN:EE's
    /// handedness (one float, 4 bytes).
    pub extra: [Option<Vec<u8>>; 6],
    /// Lightmapped flag.
    pub lightmapped: u8,
    /// Rotate-texture flag.
    pub rotate_texture: u8,
    /// The two bytes after the flags (not always zero).
    pub padding: u16,
    /// The vertex normal sum word.
    pub normal_sum: f32,
    /// The last word of the header.
    pub unknown4: u32,
}

/// Bytes per vertex of the six extra streams ([`Mesh::extra`]).
pub const EXTRA_SIZES: [usize; 6] = [12, 12, 12, 12, 12, 4];

impl Mesh {
    /// Number of vertices (the positions).
    pub fn vertex_count(&self) -> usize {
        self.positions.as_ref().map_or(0, Vec::len)
    }

    /// The positions (empty when absent).
    pub fn positions(&self) -> &[[f32; 3]] {
        self.positions.as_deref().unwrap_or_default()
    }

    /// The texture name `k` (0-3) as a string; empty or `NULL` means none.
    pub fn texture(&self, k: usize) -> String {
        self.textures
            .get(k)
            .map(Name::as_string)
            .unwrap_or_default()
    }
}

/// Skin data (100 bytes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Skin {
    /// The words of the first array (`weights`, empty in files).
    pub unknown: Vec<u32>,
    /// Per vertex: four bone weights (raw data).
    pub weights: Option<Vec<[f32; 4]>>,
    /// Per vertex: four bone indices into [`Skin::bone_nodes`] order (raw data; -1 none).
    pub bone_indices: Option<Vec<[i16; 4]>>,
    /// For each model node number, its bone index (-1 for none).
    pub bone_map: Vec<i16>,
    /// Inverse bind rotations per bone (w, x, y, z).
    pub qbones: Vec<[f32; 4]>,
    /// Inverse bind translations per bone.
    pub tbones: Vec<[f32; 3]>,
    /// The bone constant pairs.
    pub constants: Vec<[u16; 2]>,
    /// The node numbers of the first 17 bones (bytes after the used ones are not always zero).
    pub bone_nodes: [i16; 17],
    /// The two bytes after them.
    pub spare: u16,
}

/// Animated-mesh data (56 bytes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AnimMesh {
    /// Sample period.
    pub sample_period: f32,
    /// The three legacy arrays (vertices, texture coordinates, normals), as words.
    pub legacy_arrays: [u32; 9],
    /// Vertex sets (`vertex_sets` x vertex count positions), in the model data.
    pub vertices: Option<Vec<[f32; 3]>>,
    /// Texture coordinate sets, in the model data.
    pub tverts: Option<Vec<[f32; 2]>>,
    /// The number of vertex sets.
    pub vertex_sets: u32,
    /// The number of texture coordinate sets.
    pub tvert_sets: u32,
}

/// Dangly-mesh data (24 bytes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dangly {
    /// Per-vertex constraints.
    pub constraints: Vec<f32>,
    /// Displacement.
    pub displacement: f32,
    /// Tightness.
    pub tightness: f32,
    /// Period.
    pub period: f32,
}

impl Model {
    /// Whether the model remembers the layout of the file it was read from.
    pub fn has_source_layout(&self) -> bool {
        self.layout.is_some()
    }

    /// Forgets the source layout: the next write uses the canonical layout.
    pub fn clear_source_layout(&mut self) {
        self.layout = None;
    }

    /// The model's name.
    pub fn name(&self) -> String {
        self.geometry.name.as_string()
    }

    /// The parent of every geometry node (`None` for the root).
    pub fn parents(&self) -> Vec<Option<usize>> {
        crate::mdl::tree::parents(&self.nodes)
    }

    /// The slash-separated path of geometry node `index` from the root.
    pub fn node_path(&self, index: usize) -> String {
        crate::mdl::tree::node_path(&self.nodes, index, Node::name)
    }

    /// The index of the geometry node named `name` (ASCII case-insensitive).
    pub fn find_node(&self, name: &str) -> Option<usize> {
        self.nodes
            .iter()
            .position(|n| n.name().eq_ignore_ascii_case(name))
    }

    /// How many model-data and raw-data bytes of the source no block covered; zero for a model
    /// built in code.
    pub fn gap_sizes(&self) -> (usize, usize) {
        self.layout.as_deref().map_or((0, 0), |l| {
            let sum = |g: &[(u32, u32, u32)]| g.iter().map(|&(_, s, e)| (e - s) as usize).sum();
            (sum(&l.mdl_gaps), sum(&l.mdx_gaps))
        })
    }
}
