//! On-disk constants of `BWM V1.0`. Byte offsets are documented in `docs/formats/bwm.md`.

/// `"BWM "` at offset 0.
pub const MAGIC: [u8; 4] = *b"BWM ";
/// `"V1.0"` at offset 4.
pub const VERSION: [u8; 4] = *b"V1.0";
/// Size of the header: the tables start at or after this offset.
pub const HEADER_SIZE: usize = 136;
/// Offset of the walkmesh type (`u32`: 1 area, 0 placeable or door).
pub const OFF_TYPE: usize = 0x08;
/// Offset of the first `u32` of the table directory (vertex count).
pub const OFF_DIRECTORY: usize = 0x48;
/// Offset of the header's `u32` after the AABB offset (always 0 in real files; the AABB root).
pub const OFF_AABB_ROOT: usize = 0x6C;

/// Bytes per vertex: `f32` x, y, z.
pub const VERTEX_SIZE: usize = 12;
/// Bytes per face: three `u32` vertex indices.
pub const FACE_SIZE: usize = 12;
/// Bytes per material: one `u32`.
pub const MATERIAL_SIZE: usize = 4;
/// Bytes per normal: `f32` x, y, z.
pub const NORMAL_SIZE: usize = 12;
/// Bytes per planar distance: one `f32`.
pub const DISTANCE_SIZE: usize = 4;
/// Bytes per AABB node: min (3 `f32`), max (3 `f32`), face `i32`, unknown `u32`,
/// plane `u32`, left `u32`, right `u32`.
pub const AABB_NODE_SIZE: usize = 44;
/// Bytes per adjacency record: three `i32`.
pub const ADJACENCY_SIZE: usize = 12;
/// Bytes per edge record: `u32` edge (face * 3 + side), `i32` transition.
pub const EDGE_SIZE: usize = 8;
/// Bytes per perimeter entry: one `u32`.
pub const PERIMETER_SIZE: usize = 4;

/// `u32` meaning "no child" / "no node".
pub const NONE_U32: u32 = u32::MAX;

/// The nine tables in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Table {
    Vertices,
    Faces,
    Materials,
    Normals,
    Distances,
    Aabb,
    Adjacency,
    Edges,
    Perimeters,
}

impl Table {
    /// All tables in the order the game's tools write them.
    pub const ALL: [Table; 9] = [
        Table::Vertices,
        Table::Faces,
        Table::Materials,
        Table::Normals,
        Table::Distances,
        Table::Aabb,
        Table::Adjacency,
        Table::Edges,
        Table::Perimeters,
    ];

    /// Bytes per record.
    pub const fn record_size(self) -> usize {
        match self {
            Table::Vertices => VERTEX_SIZE,
            Table::Faces => FACE_SIZE,
            Table::Materials => MATERIAL_SIZE,
            Table::Normals => NORMAL_SIZE,
            Table::Distances => DISTANCE_SIZE,
            Table::Aabb => AABB_NODE_SIZE,
            Table::Adjacency => ADJACENCY_SIZE,
            Table::Edges => EDGE_SIZE,
            Table::Perimeters => PERIMETER_SIZE,
        }
    }

    /// The name used in error messages.
    pub const fn name(self) -> &'static str {
        match self {
            Table::Vertices => "vertex table",
            Table::Faces => "face table",
            Table::Materials => "material table",
            Table::Normals => "normal table",
            Table::Distances => "planar distance table",
            Table::Aabb => "AABB table",
            Table::Adjacency => "adjacency table",
            Table::Edges => "edge table",
            Table::Perimeters => "perimeter table",
        }
    }

    /// Whether only area walkmeshes carry the table (PWK/DWK files store offset 0 when empty).
    pub const fn area_only(self) -> bool {
        matches!(
            self,
            Table::Aabb | Table::Adjacency | Table::Edges | Table::Perimeters
        )
    }
}

/// The table directory as it is stored at 0x48..0x88: a count (or the face count for the
/// per-face tables) and an offset for each table, plus the AABB root word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Directory {
    /// Records per table, in [`Table::ALL`] order.
    pub counts: [u32; 9],
    /// File offset per table, in [`Table::ALL`] order.
    pub offsets: [u32; 9],
    /// The `u32` at 0x6C.
    pub aabb_root: u32,
}
