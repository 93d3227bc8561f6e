//! The owned binary model: headers, the node tree (an arena in pre-order), the animations and
//! the MDX vertex data, every field of the file kept as data.
//!
//! Pointers and counts are not fields: the writer derives them from the arena and the arrays.
//! A model read from bytes also remembers where each block stood ([`Model::has_source_layout`]),
//! so writing it back unmodified gives the same bytes; equality ignores that layout.

pub use super::common::{
    Aabb, AabbNode, Event, Face, GeometryHeader, Light, Name, flags, kind_name,
};

/// Which game's binary layout a model uses, told apart by the function-pointer words of its
/// geometry header (and, failing that, of its first mesh header).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Game {
    /// KotOR 1 (mesh header of 332 bytes).
    #[default]
    K1,
    /// KotOR 2: The Sith Lords (mesh header of 340 bytes: 8 more bytes after the render flags).
    K2,
}

impl Game {
    /// `"k1"` or `"k2"`.
    pub fn name(self) -> &'static str {
        match self {
            Game::K1 => "k1",
            Game::K2 => "k2",
        }
    }
}

/// The model header after the geometry header.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelHeader {
    /// Classification: 0 other, 1 effect, 2 tile, 4 character, 8 door, 0x10 lightsaber,
    /// 0x20 placeable, 0x40 flyer.
    pub classification: u8,
    /// Sub-classification byte.
    pub subclassification: u8,
    /// An unknown byte.
    pub unknown: u8,
    /// Whether fog affects the model (byte).
    pub affected_by_fog: u8,
    /// The child model count word.
    pub child_model_count: u32,
    /// The supermodel reference word (runtime).
    pub supermodel_ref: u32,
    /// Bounding box minimum.
    pub bounds_min: [f32; 3],
    /// Bounding box maximum.
    pub bounds_max: [f32; 3],
    /// Bounding radius.
    pub radius: f32,
    /// Animation scale.
    pub animation_scale: f32,
    /// The supermodel's name (`NULL` or empty for none).
    pub supermodel: Name<32>,
    /// The geometry node the animation-root pointer names, as an index into [`Model::nodes`]
    /// (usually the root; in some files a node below it). `None` when the pointer names no
    /// node of the tree; the writer then keeps the word it was read with.
    pub animation_root: Option<usize>,
    /// The word after the animation-root pointer.
    pub padding: u32,
    /// The MDX offset word (zero in files).
    pub mdx_offset: u32,
}

/// A binary model: MDL and MDX together.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// The game whose layout the model uses.
    pub game: Game,
    /// The first word of the file (zero in every real file).
    pub file_word: u32,
    /// The geometry header.
    pub geometry: GeometryHeader,
    /// The model header.
    pub header: ModelHeader,
    /// The name table: node `name_index` values index it.
    pub names: Vec<Vec<u8>>,
    /// The geometry node tree in pre-order; `nodes[0]` is the root.
    pub nodes: Vec<Node>,
    /// The animations.
    pub animations: Vec<Animation>,
    /// Bytes after the end the header's size word declares (empty in files from the game's
    /// tools; a model a popular mod ships has some). Written back after the MDL data.
    pub trailing: Vec<u8>,
    /// Where each block of the source file stood, for the byte-exact writer.
    pub(crate) layout: Option<Box<super::layout::Layout>>,
}

impl PartialEq for Model {
    fn eq(&self, o: &Self) -> bool {
        self.game == o.game
            && self.file_word == o.file_word
            && self.geometry == o.geometry
            && self.header == o.header
            && self.names == o.names
            && self.nodes == o.nodes
            && self.animations == o.animations
            && self.trailing == o.trailing
    }
}

impl Model {
    /// Whether the model remembers the layout of the file it was read from (the writer then
    /// reproduces that layout while every block keeps its size).
    pub fn has_source_layout(&self) -> bool {
        self.layout.is_some()
    }

    /// Forgets the source layout: the next write uses the canonical layout.
    pub fn clear_source_layout(&mut self) {
        self.layout = None;
    }

    /// The name of a node (from the name table), one character per byte.
    pub fn node_name(&self, node: &Node) -> String {
        name_of(&self.names, node.name_index)
    }

    /// The slash-separated path of geometry node `index` from the root (`root/room01/mesh04`).
    pub fn node_path(&self, index: usize) -> String {
        super::tree::node_path(&self.nodes, index, |n| name_of(&self.names, n.name_index))
    }

    /// The parent of every geometry node (`None` for the root).
    pub fn parents(&self) -> Vec<Option<usize>> {
        super::tree::parents(&self.nodes)
    }

    /// The index of the geometry node named `name` (ASCII case-insensitive).
    pub fn find_node(&self, name: &str) -> Option<usize> {
        self.nodes.iter().position(|n| {
            self.names
                .get(usize::from(n.name_index))
                .is_some_and(|s| s.eq_ignore_ascii_case(name.as_bytes()))
        })
    }
}

pub(crate) fn name_of(names: &[Vec<u8>], index: u16) -> String {
    match names.get(usize::from(index)) {
        Some(s) => s.iter().map(|&b| char::from(b)).collect(),
        None => crate::mdl::ascii::text::unnamed(index),
    }
}

/// An animation: its own header, events and node tree of controllers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Animation {
    /// The animation's geometry header (name, function pointers).
    pub geometry: GeometryHeader,
    /// Length in seconds.
    pub length: f32,
    /// Transition time in seconds.
    pub transition: f32,
    /// The name of the model node the animation is rooted at.
    pub root: Name<32>,
    /// The events.
    pub events: Vec<Event>,
    /// The word after the events array.
    pub padding: u32,
    /// The animation's node tree in pre-order; `nodes[0]` is its root.
    pub nodes: Vec<Node>,
}

/// A node: the header, the controllers and the part its type flags add.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Node {
    /// The type flags ([`flags`]): 1 dummy, 3 light, 5 emitter, 17 reference, 33 trimesh,
    /// 97 skin, 161 animmesh, 289 danglymesh, 545 aabb, 2081 lightsaber.
    pub flags: u16,
    /// The node number word (its index in the model's depth-first order).
    pub node_number: u16,
    /// The index of the node's name in [`Model::names`].
    pub name_index: u16,
    /// The padding word after the name index.
    pub padding: u16,
    /// The root pointer word (runtime; kept as data).
    pub root_word: u32,
    /// Position relative to the parent.
    pub position: [f32; 3],
    /// Orientation quaternion as stored: w, x, y, z.
    pub orientation: [f32; 4],
    /// Child nodes (indices into the same arena).
    pub children: Vec<u32>,
    /// The controllers.
    pub controllers: Vec<Controller>,
    /// The controller data: key times and values, indexed by the controllers.
    pub controller_data: Vec<f32>,
    /// Light data (flag [`flags::LIGHT`]).
    pub light: Option<Light>,
    /// Emitter data (flag [`flags::EMITTER`]).
    pub emitter: Option<Emitter>,
    /// Reference data (flag [`flags::REFERENCE`]).
    pub reference: Option<Reference>,
    /// Mesh data (flag [`flags::MESH`]).
    pub mesh: Option<Mesh>,
    /// Skin data (flag [`flags::SKIN`]).
    pub skin: Option<Skin>,
    /// Dangly-mesh data (flag [`flags::DANGLY`]).
    pub dangly: Option<Dangly>,
    /// Walkmesh AABB tree (flag [`flags::AABB`]).
    pub aabb: Option<Aabb>,
    /// Lightsaber data (flag [`flags::SABER`]).
    pub saber: Option<Saber>,
}

impl Node {
    /// The node's type name as the ASCII dialect writes it.
    pub fn kind_name(&self) -> &'static str {
        kind_name(self.flags)
    }

    /// The keys of controller `c`: for each row, its time and its values (bezier rows give
    /// three times the columns).
    pub fn keys<'a>(&'a self, c: &Controller) -> impl Iterator<Item = (f32, &'a [f32])> + 'a {
        super::common::key_rows(
            &self.controller_data,
            c.rows,
            c.time_index,
            c.data_index,
            c.width(),
        )
    }
}

/// A controller header (16 bytes).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Controller {
    /// The controller type (8 position, 20 orientation, 36 scale, ...; per node type).
    pub kind: u32,
    /// The word after the type (0xFFFF in most files).
    pub unknown: u16,
    /// Number of keys.
    pub rows: u16,
    /// Index of the first key time in the node's controller data.
    pub time_index: u16,
    /// Index of the first value.
    pub data_index: u16,
    /// Columns per key; bit 0x10 marks bezier keys (three values per column).
    pub columns: u8,
    /// The three bytes after the column count.
    pub padding: [u8; 3],
}

impl Controller {
    /// Bit of [`Controller::columns`] that marks bezier keys.
    pub const BEZIER: u8 = 0x10;

    /// Whether the keys are bezier (each column a value and two tangents).
    pub fn is_bezier(&self) -> bool {
        self.columns & Self::BEZIER != 0
    }

    /// Values per key. Orientation keys (type 20) with 2 columns are one compressed quaternion
    /// word stored as a float's bits; every other count is taken as written.
    pub fn width(&self) -> usize {
        let base = usize::from(self.columns & 0x0F);
        if self.kind == 20 && base == 2 && !self.is_bezier() {
            1
        } else if self.is_bezier() {
            base * 3
        } else {
            base
        }
    }
}

/// Emitter data (224 bytes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Emitter {
    /// Dead space.
    pub dead_space: f32,
    /// Blast radius.
    pub blast_radius: f32,
    /// Blast length.
    pub blast_length: f32,
    /// Number of branches.
    pub branch_count: u32,
    /// Control-point smoothing.
    pub control_point_smoothing: f32,
    /// Grid X.
    pub x_grid: u32,
    /// Grid Y.
    pub y_grid: u32,
    /// Spawn type.
    pub spawn_type: u32,
    /// Update mode (`Fountain`, `Single`, `Explosion`, `Lightning`).
    pub update: Name<32>,
    /// Render mode (`Normal`, `Linked`, `Billboard_to_Local_Z`, ...).
    pub render: Name<32>,
    /// Blend mode (`Normal`, `Punch-Through`, `Lighten`).
    pub blend: Name<32>,
    /// Texture.
    pub texture: Name<32>,
    /// Chunk model name.
    pub chunk: Name<16>,
    /// Two-sided texture flag.
    pub two_sided_texture: u32,
    /// Loop flag.
    pub looping: u32,
    /// Render order.
    pub render_order: u16,
    /// Frame blending byte.
    pub frame_blending: u8,
    /// Depth texture name.
    pub depth_texture: Name<32>,
    /// The padding byte after the depth texture.
    pub padding: u8,
    /// The emitter flag bits (P2P, P2P_Bezier, AffectedByWind, Tinted, Bounce, Random,
    /// Inherit, InheritVel, InheritLocal, Splat, InheritPart, DepthTexture, Flag13).
    pub flags: u32,
}

/// Reference data.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reference {
    /// The referenced model.
    pub model: Name<32>,
    /// Whether it is re-attachable.
    pub reattachable: u32,
}

/// Which MDX vertex attributes the data flags name.
pub mod mdx_flags {
    /// Positions.
    pub const POSITION: u32 = 0x001;
    /// First UV set.
    pub const UV1: u32 = 0x002;
    /// Second UV set.
    pub const UV2: u32 = 0x004;
    /// Third UV set.
    pub const UV3: u32 = 0x008;
    /// Fourth UV set.
    pub const UV4: u32 = 0x010;
    /// Normals.
    pub const NORMAL: u32 = 0x020;
    /// Vertex colours.
    pub const COLOR: u32 = 0x040;
    /// First tangent space (tangent, bitangent, normal).
    pub const TANGENT1: u32 = 0x080;
    /// Second tangent space.
    pub const TANGENT2: u32 = 0x100;
    /// Third tangent space.
    pub const TANGENT3: u32 = 0x200;
    /// Fourth tangent space.
    pub const TANGENT4: u32 = 0x400;
}

/// The MDX vertex data of a mesh: one column per attribute its offsets name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VertexData {
    /// Positions.
    pub positions: Vec<[f32; 3]>,
    /// Normals.
    pub normals: Vec<[f32; 3]>,
    /// Vertex colours.
    pub colors: Vec<[f32; 3]>,
    /// Up to four UV sets.
    pub uvs: [Vec<[f32; 2]>; 4],
    /// Up to four tangent spaces: tangent, bitangent and normal, 9 floats.
    pub tangents: [Vec<[f32; 9]>; 4],
    /// Skin bone weights (4 per vertex).
    pub bone_weights: Vec<[f32; 4]>,
    /// Skin bone indices (4 per vertex, stored as floats).
    pub bone_indices: Vec<[f32; 4]>,
}

/// Mesh data: the trimesh header, faces, index arrays and vertex data.
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
    /// Transparency hint.
    pub transparency_hint: u32,
    /// Primary texture.
    pub texture0: Name<32>,
    /// Secondary texture (the lightmap).
    pub texture1: Name<32>,
    /// Third texture.
    pub texture2: Name<12>,
    /// Fourth texture.
    pub texture3: Name<12>,
    /// The index lists (usually one with three indices per face), read through the index
    /// count and index offset arrays.
    pub index_lists: Vec<Vec<u16>>,
    /// The inverted counter array.
    pub inverted_counters: Vec<u32>,
    /// Three unknown words (-1, -1, 0 in most files).
    pub unknown: [i32; 3],
    /// Eight lightsaber-related bytes.
    pub saber_unknown: [u8; 8],
    /// Animate UV flag.
    pub animate_uv: u32,
    /// UV direction.
    pub uv_direction: [f32; 2],
    /// UV jitter.
    pub uv_jitter: f32,
    /// UV jitter speed.
    pub uv_jitter_speed: f32,
    /// Bytes per MDX vertex row.
    pub mdx_stride: u32,
    /// MDX data flags ([`mdx_flags`]).
    pub mdx_flags: u32,
    /// Offsets of the attributes within a row (-1 absent): position, normal, colour, UV 1-4,
    /// tangent space 1-4.
    pub mdx_offsets: [i32; 11],
    /// Number of texture names used.
    pub texture_count: u16,
    /// Lightmapped flag.
    pub lightmapped: u8,
    /// Rotate-texture flag.
    pub rotate_texture: u8,
    /// Background-geometry flag.
    pub background: u8,
    /// Shadow flag.
    pub shadow: u8,
    /// Beaming flag.
    pub beaming: u8,
    /// Render flag.
    pub render: u8,
    /// The eight K2 bytes (dirt enabled, padding, dirt texture, dirt coordinate space, hide in
    /// holograms, padding); unused for K1.
    pub k2: [u8; 8],
    /// The padding word after the flags.
    pub padding: u16,
    /// Total surface area.
    pub total_area: f32,
    /// The word after the area.
    pub padding2: u32,
    /// The vertex positions copied into the MDL.
    pub positions: Vec<[f32; 3]>,
    /// The MDX vertex rows.
    pub vertices: VertexData,
}

impl Mesh {
    /// Number of vertices (the MDL position copy).
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }
}

/// Skin data.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Skin {
    /// The unknown array's words.
    pub unknown: Vec<u32>,
    /// MDX offset of the bone weights in a row (-1 absent).
    pub weights_offset: i32,
    /// MDX offset of the bone indices in a row (-1 absent).
    pub indices_offset: i32,
    /// The bone map: for each model node number, its bone index (-1 for none), as floats.
    pub bone_map: Vec<f32>,
    /// Inverse bind rotations per bone (w, x, y, z).
    pub qbones: Vec<[f32; 4]>,
    /// Inverse bind translations per bone.
    pub tbones: Vec<[f32; 3]>,
    /// The second unknown array's words.
    pub unknown2: Vec<u32>,
    /// The node numbers of the first 16 bones.
    pub bone_nodes: [u16; 16],
    /// The padding word after them.
    pub padding: u32,
}

/// Dangly-mesh data.
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
    /// The dangly vertex positions (one per mesh vertex).
    pub vertices: Vec<[f32; 3]>,
}

/// Lightsaber data.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Saber {
    /// Blade vertex positions.
    pub positions: Vec<[f32; 3]>,
    /// Blade UVs.
    pub uvs: Vec<[f32; 2]>,
    /// Blade normals.
    pub normals: Vec<[f32; 3]>,
    /// The two words after the offsets.
    pub unknown: [u32; 2],
}

impl Model {
    /// How many MDL and MDX bytes of the source no block covered (padding, the rows after each
    /// mesh); zero for a model built in code.
    pub fn gap_sizes(&self) -> (usize, usize) {
        self.layout.as_deref().map_or((0, 0), |l| {
            let sum = |g: &[(u32, u32, u32)]| g.iter().map(|&(_, s, e)| (e - s) as usize).sum();
            (sum(&l.mdl_gaps), sum(&l.mdx_gaps))
        })
    }
}

impl Game {
    /// The model geometry header's function pointers on PC.
    pub fn model_function_pointers(self) -> [u32; 2] {
        use super::raw::*;
        match self {
            Game::K1 => [MODEL_FN_K1_PC, MODEL_FN2_K1_PC],
            Game::K2 => [MODEL_FN_K2_PC, MODEL_FN2_K2_PC],
        }
    }

    /// An animation geometry header's function pointers on PC.
    pub fn animation_function_pointers(self) -> [u32; 2] {
        use super::raw::*;
        match self {
            Game::K1 => ANIM_FNS_K1_PC,
            Game::K2 => ANIM_FNS_K2_PC,
        }
    }

    /// A mesh header's function pointers on PC for a node with type `flags`.
    pub fn mesh_function_pointers(self, node_flags: u16) -> [u32; 2] {
        use super::raw::*;
        let table = match self {
            Game::K1 => K1_MESH_FNS,
            Game::K2 => K2_MESH_FNS,
        };
        let k = if node_flags & flags::SKIN != 0 {
            2
        } else if node_flags & flags::DANGLY != 0 {
            4
        } else {
            0
        };
        [table[k], table[k + 1]]
    }
}

impl Model {
    /// A model for `game` named `name` with a root dummy node of the same name (function
    /// pointers, geometry type 2 and animation scale 1 set).
    pub fn new(game: Game, name: &str) -> Model {
        Model {
            game,
            geometry: GeometryHeader {
                function_pointers: game.model_function_pointers(),
                name: Name::new(name),
                node_count: 1,
                model_type: 2,
                ..GeometryHeader::default()
            },
            header: ModelHeader {
                animation_scale: 1.0,
                supermodel: Name::new("NULL"),
                animation_root: Some(0),
                ..ModelHeader::default()
            },
            names: vec![name.as_bytes().to_vec()],
            nodes: vec![Node {
                flags: flags::HEADER,
                ..Node::default()
            }],
            ..Model::default()
        }
    }
}
