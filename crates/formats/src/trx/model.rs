//! The owned model of an NWN2 terrain file (TRN or TRX).

use std::sync::Arc;

use super::raw;

/// A decoded TRN/TRX file: the container version and its packets in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Trx {
    /// Container major version (2 in every corpus file).
    pub version_major: u16,
    /// Container minor version (3 in every corpus file).
    pub version_minor: u16,
    /// The packets in table order.
    pub packets: Vec<Packet>,
    /// Where the packets of a file that was not laid out canonically sat (gaps, trailing
    /// bytes, packets out of table order), so that it writes back byte for byte. `None` for
    /// the canonical layout (header, table, packets back to back in table order, nothing
    /// after): every corpus file, and every file [`write`](super::write) makes from a model
    /// without a layout.
    pub layout: Option<Layout>,
}

/// The original placement of a non-canonical file's packets and the bytes between them.
///
/// The writer uses it while every packet still encodes to its original size; otherwise it
/// falls back to the canonical layout.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Layout {
    /// File offset of each packet, in table order.
    pub offsets: Vec<u32>,
    /// Payload size of each packet, in table order.
    pub sizes: Vec<u32>,
    /// Bytes that belong to no packet (nor the header and table), with their file offsets.
    pub filler: Vec<(u32, Vec<u8>)>,
    /// Length of the whole file.
    pub file_len: u32,
}

impl Default for Trx {
    fn default() -> Self {
        Trx {
            version_major: 2,
            version_minor: 3,
            packets: Vec::new(),
            layout: None,
        }
    }
}

impl Trx {
    /// The first ASWM packet, if any.
    pub fn aswm(&self) -> Option<&Aswm> {
        self.packets.iter().find_map(|p| match p {
            Packet::Aswm(a) => Some(&**a),
            _ => None,
        })
    }

    /// The first ASWM packet, mutably.
    pub fn aswm_mut(&mut self) -> Option<&mut Aswm> {
        self.packets.iter_mut().find_map(|p| match p {
            Packet::Aswm(a) => Some(&mut **a),
            _ => None,
        })
    }

    /// The walkmesh of the first ASWM packet, if any.
    pub fn walkmesh(&self) -> Option<&Walkmesh> {
        self.aswm().map(|a| &a.walkmesh)
    }

    /// The walkmesh of the first ASWM packet, mutably.
    pub fn walkmesh_mut(&mut self) -> Option<&mut Walkmesh> {
        self.aswm_mut().map(|a| &mut a.walkmesh)
    }

    /// Whether the file is baked (a TRX): its walkmesh carries path tables or islands.
    pub fn is_baked(&self) -> bool {
        self.walkmesh().is_some_and(Walkmesh::is_baked)
    }
}

/// One packet of the container.
#[derive(Debug, Clone, PartialEq)]
pub enum Packet {
    /// `TRWH`: terrain dimensions.
    Trwh(Trwh),
    /// `WATR`: a water surface.
    Watr(Box<Watr>),
    /// `ASWM`: the compressed walkmesh.
    Aswm(Box<Aswm>),
    /// Any other tag (including `TRRN`, which no corpus file contains): kept as bytes.
    Opaque {
        /// The four-byte tag.
        tag: [u8; 4],
        /// The payload.
        data: Vec<u8>,
    },
}

impl Packet {
    /// The packet's tag.
    pub fn tag(&self) -> [u8; 4] {
        match self {
            Packet::Trwh(_) => raw::TAG_TRWH,
            Packet::Watr(_) => raw::TAG_WATR,
            Packet::Aswm(_) => raw::TAG_ASWM,
            Packet::Opaque { tag, .. } => *tag,
        }
    }
}

/// `TRWH`: the terrain's size in tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Trwh {
    /// Tiles along X (equals the walkmesh's grid width in every corpus file).
    pub width: u32,
    /// Tiles along Y (equals the walkmesh's grid height in every corpus file).
    pub height: u32,
    /// An identifier of unknown use.
    pub id: u32,
}

/// A texture layer of a water surface.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct WaterTexture {
    /// Texture name (NUL-padded, may hold garbage after the terminator).
    pub name: [u8; 32],
    /// Scrolling direction.
    pub direction: [f32; 2],
    /// Scrolling rate.
    pub rate: f32,
    /// Scrolling angle (radians).
    pub angle: f32,
}

/// A water vertex.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct WaterVertex {
    /// Position.
    pub position: [f32; 3],
    /// First texture coordinates.
    pub uv0: [f32; 2],
    /// Second texture coordinates.
    pub uv1: [f32; 2],
}

/// `WATR`: a water surface over one mega-tile.
#[derive(Debug, Clone, PartialEq)]
pub struct Watr {
    /// Name (NUL-padded; the toolset leaves garbage after the terminator).
    pub name: [u8; 32],
    /// 96 bytes of unknown meaning, kept as they are.
    pub unknown: [u8; 96],
    /// RGB colour.
    pub color: [f32; 3],
    /// Ripple parameters.
    pub ripple: [f32; 2],
    /// Smoothness.
    pub smoothness: f32,
    /// Reflection bias.
    pub reflect_bias: f32,
    /// Reflection power.
    pub reflect_power: f32,
    /// Specular power.
    pub specular_power: f32,
    /// Specular coefficient.
    pub specular_coefficient: f32,
    /// The three texture layers.
    pub textures: [WaterTexture; 3],
    /// Texture offset.
    pub uv_offset: [f32; 2],
    /// Vertices.
    pub vertices: Vec<WaterVertex>,
    /// Triangles (`u16` vertex indices).
    pub triangles: Vec<[u16; 3]>,
    /// One flag word per triangle.
    pub triangle_flags: Vec<u32>,
    /// The embedded DDS image.
    pub dds: Vec<u8>,
    /// Position of the mega-tile in the terrain grid.
    pub megatile: [u32; 2],
}

/// `ASWM`: the walkmesh, stored zlib-compressed.
///
/// Equality compares the compression tag and the decoded walkmesh only. A packet read from a
/// file remembers its original bytes; [`write`](super::write) emits them unchanged while the
/// walkmesh still encodes to the original decompressed bytes, and re-compresses otherwise.
#[derive(Debug, Clone)]
pub struct Aswm {
    /// The payload's compression tag (`"COMP"`).
    pub compression: [u8; 4],
    /// The decoded walkmesh.
    pub walkmesh: Walkmesh,
    pub(crate) original: Option<Arc<OriginalAswm>>,
}

/// The bytes an ASWM packet was read from.
#[derive(Debug)]
pub(crate) struct OriginalAswm {
    /// The decompressed walkmesh bytes.
    pub decompressed: Vec<u8>,
    /// The whole packet payload (`COMP` header and compressed stream).
    pub payload: Vec<u8>,
}

impl PartialEq for Aswm {
    fn eq(&self, other: &Self) -> bool {
        self.compression == other.compression && self.walkmesh == other.walkmesh
    }
}

impl Aswm {
    /// A new packet for `walkmesh` (compressed when written).
    pub fn new(walkmesh: Walkmesh) -> Self {
        Aswm {
            compression: raw::COMP,
            walkmesh,
            original: None,
        }
    }

    /// Whether the packet still remembers the bytes it was read from.
    pub fn has_original_bytes(&self) -> bool {
        self.original.is_some()
    }

    /// The compressed payload this packet was read from (the `COMP` header included).
    pub fn original_payload(&self) -> Option<&[u8]> {
        self.original.as_ref().map(|o| o.payload.as_slice())
    }

    /// The decompressed walkmesh bytes this packet was read from.
    pub fn original_decompressed(&self) -> Option<&[u8]> {
        self.original.as_ref().map(|o| o.decompressed.as_slice())
    }

    /// Forgets the original bytes, so that the next write re-compresses.
    pub fn forget_original(&mut self) {
        self.original = None;
    }
}

/// A walkmesh edge: the segment between two vertices and the (up to) two triangles on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Edge {
    /// The two vertex indices.
    pub vertices: [u32; 2],
    /// The triangles on either side ([`raw::NONE_U32`] when none).
    pub triangles: [u32; 2],
}

/// A walkmesh triangle with its baked data.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Triangle {
    /// Vertex indices.
    pub vertices: [u32; 3],
    /// The edge on each side (index into [`Walkmesh::edges`]).
    pub linked_edges: [u32; 3],
    /// The triangle across each linked edge ([`raw::NONE_U32`] when none), in the same order.
    pub linked_triangles: [u32; 3],
    /// X/Y of the centre (mean of the three vertices).
    pub center: [f32; 2],
    /// Unit normal.
    pub normal: [f32; 3],
    /// Plane distance.
    pub dot_product: f32,
    /// Island index ([`raw::NONE_U16`] when none).
    pub island: u16,
    /// Flags: see [`raw::FLAG_WALKABLE`], [`raw::FLAG_CLOCKWISE`], [`raw::FLAG_MATERIALS`].
    pub flags: u16,
}

impl Triangle {
    /// Whether the walkable flag is set.
    pub fn is_walkable(&self) -> bool {
        self.flags & raw::FLAG_WALKABLE != 0
    }

    /// Whether the clockwise flag is set.
    pub fn is_clockwise(&self) -> bool {
        self.flags & raw::FLAG_CLOCKWISE != 0
    }

    /// The names of the material bits set in the flags.
    pub fn materials(&self) -> Vec<&'static str> {
        MATERIALS
            .iter()
            .filter(|(bit, _)| self.flags & bit != 0)
            .map(|&(_, n)| n)
            .collect()
    }
}

/// The surface-material flag bits and their names.
pub const MATERIALS: [(u16, &str); 11] = [
    (0x0008, "dirt"),
    (0x0010, "grass"),
    (0x0020, "stone"),
    (0x0040, "wood"),
    (0x0080, "carpet"),
    (0x0100, "metal"),
    (0x0200, "swamp"),
    (0x0400, "mud"),
    (0x0800, "leaves"),
    (0x1000, "water"),
    (0x2000, "puddles"),
];

/// A tile's path table: next hop from every walkable triangle of the tile to every other.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PathTable {
    /// Compression flags (0 in every corpus file; RLE = 1 and zlib = 2 are not decoded).
    pub flags: u32,
    /// Per local triangle: its node index, or 0xff for non-walkable triangles.
    pub local_to_node: Vec<u8>,
    /// Per node: the local triangle index.
    pub node_to_local: Vec<u32>,
    /// `nodes[from * n + to]`: bit 7 = line of sight, bits 0..7 = node of the next triangle;
    /// 0xff = unreachable or `from == to`.
    pub nodes: Vec<u8>,
    /// RLE table size (0 in every corpus file).
    pub rle_table_size: u32,
    /// The `u32` after the nodes: a copy of the tiles-section flags in every corpus file
    /// (31 baked, 15 unbaked).
    pub trailing_flags: u32,
}

impl PathTable {
    /// The next node from node `from` toward node `to` (raw byte, line-of-sight bit included).
    pub fn node(&self, from: u8, to: u8) -> Option<u8> {
        let n = self.node_to_local.len();
        let (f, t) = (usize::from(from), usize::from(to));
        if f >= n || t >= n {
            return None;
        }
        self.nodes.get(f * n + t).copied()
    }
}

/// A square tile of the walkmesh grid and the triangles it owns.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tile {
    /// Name bytes (garbage in most files).
    pub name: [u8; 32],
    /// Owns-data byte: when non-zero, the tile stores its own vertices and edges (never, in
    /// the corpus).
    pub owns_data: u8,
    /// Number of distinct vertices of the tile's triangles (as the toolset counted them).
    pub vertex_count: u32,
    /// Number of distinct edges of the tile's triangles (as the toolset counted them).
    pub edge_count: u32,
    /// Number of triangles the tile owns.
    pub triangle_count: u32,
    /// Two floats: 0 in baked files, 0 or the tile width in unbaked ones.
    pub size: [f32; 2],
    /// Index of the tile's first triangle.
    pub triangles_offset: u32,
    /// The tile's own vertices (only when `owns_data` is set).
    pub vertices: Vec<[f32; 3]>,
    /// The tile's own edges (only when `owns_data` is set).
    pub edges: Vec<Edge>,
    /// The path table.
    pub path_table: PathTable,
}

impl Tile {
    /// The global triangle range the tile owns.
    pub fn triangle_range(&self) -> std::ops::Range<u64> {
        let start = u64::from(self.triangles_offset);
        start..start + u64::from(self.triangle_count)
    }
}

/// A set of walkable triangles of one tile that connect without leaving it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Island {
    /// Index of the island (equals its position in every corpus file).
    pub index: u32,
    /// A word that is the same for all islands of a file and differs between files.
    pub tile: u32,
    /// Centre (mean of the triangles' centres; z = 0).
    pub center: [f32; 3],
    /// Number of triangles in the island.
    pub triangle_count: u32,
    /// Adjacent islands.
    pub links: Vec<u32>,
    /// Distance to each adjacent island.
    pub distances: Vec<f32>,
    /// A triangle of this island on the way to each adjacent island.
    pub exits: Vec<u32>,
}

/// An entry of the island path table.
///
/// Equality compares the weight bit for bit: the toolset leaves uninitialised memory (NaNs
/// included) in the weight of entries it never reached, and a model must equal itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct IslandPathNode {
    /// Next island toward the target ([`raw::NONE_U16`] when none).
    pub next: u16,
    /// Two bytes the toolset leaves uninitialised.
    pub padding: u16,
    /// Weight (path length) toward the target.
    pub weight: f32,
}

impl PartialEq for IslandPathNode {
    fn eq(&self, other: &Self) -> bool {
        self.next == other.next
            && self.padding == other.padding
            && self.weight.to_bits() == other.weight.to_bits()
    }
}

/// The decompressed ASWM walkmesh.
#[derive(Debug, Clone, PartialEq)]
pub struct Walkmesh {
    /// Format version (0x6c).
    pub version: u32,
    /// Name bytes (garbage in most files).
    pub name: [u8; 32],
    /// Owns-data byte (1 in every corpus file).
    pub owns_data: u8,
    /// The header's last `u32` (0 in every corpus file).
    pub header_unknown: u32,
    /// Vertices.
    pub vertices: Vec<[f32; 3]>,
    /// Edges.
    pub edges: Vec<Edge>,
    /// Triangles.
    pub triangles: Vec<Triangle>,
    /// Tiles-section flags (31 baked, 15 unbaked).
    pub tiles_flags: u32,
    /// Tile edge length in metres (9.0 in every corpus file).
    pub tile_width: f32,
    /// Tiles along Y.
    pub grid_height: u32,
    /// Tiles along X.
    pub grid_width: u32,
    /// The tiles, row by row (`y * grid_width + x`).
    pub tiles: Vec<Tile>,
    /// Border size in tiles (after the tiles).
    pub border_size: u32,
    /// Islands.
    pub islands: Vec<Island>,
    /// `island_paths[from * islands.len() + to]`.
    pub island_paths: Vec<IslandPathNode>,
}

impl Default for Walkmesh {
    fn default() -> Self {
        Walkmesh {
            version: raw::ASWM_VERSION,
            name: [0; 32],
            owns_data: 1,
            header_unknown: 0,
            vertices: Vec::new(),
            edges: Vec::new(),
            triangles: Vec::new(),
            tiles_flags: raw::TILES_FLAGS_BAKED,
            tile_width: 9.0,
            grid_height: 0,
            grid_width: 0,
            tiles: Vec::new(),
            border_size: 0,
            islands: Vec::new(),
            island_paths: Vec::new(),
        }
    }
}

impl Walkmesh {
    /// Number of walkable triangles.
    pub fn walkable_count(&self) -> usize {
        self.triangles.iter().filter(|t| t.is_walkable()).count()
    }

    /// Whether the walkmesh carries baked data (path tables or islands).
    pub fn is_baked(&self) -> bool {
        !self.islands.is_empty()
            || self
                .tiles
                .iter()
                .any(|t| !t.path_table.local_to_node.is_empty())
    }

    /// The island path node from island `from` to island `to`.
    pub fn island_path(&self, from: usize, to: usize) -> Option<&IslandPathNode> {
        let n = self.islands.len();
        if from >= n || to >= n {
            return None;
        }
        self.island_paths.get(from * n + to)
    }
}
