//! On-disk constants of NWN2 terrain files (TRN/TRX) and their ASWM walkmesh packet.
//!
//! Byte layouts are documented in `docs/formats/nwn2-trx.md`.

/// `"NWN2"` at offset 0.
pub const MAGIC: [u8; 4] = *b"NWN2";
/// Size of the file header: magic, `u16` major version, `u16` minor version, `u32` packet count.
pub const HEADER_SIZE: usize = 12;
/// Size of one packet-table entry: `[u8; 4]` tag, `u32` file offset of the packet.
pub const PACKET_ENTRY_SIZE: usize = 8;
/// Size of a packet's own header: `[u8; 4]` tag (repeats the table's), `u32` payload size.
pub const PACKET_HEADER_SIZE: usize = 8;

/// Terrain width/height packet.
pub const TAG_TRWH: [u8; 4] = *b"TRWH";
/// Terrain mega-tile packet (outdoor terrain; absent from every corpus file).
pub const TAG_TRRN: [u8; 4] = *b"TRRN";
/// Water packet.
pub const TAG_WATR: [u8; 4] = *b"WATR";
/// Walkmesh packet (zlib-compressed).
pub const TAG_ASWM: [u8; 4] = *b"ASWM";

/// Size of the TRWH payload: `u32` width, `u32` height, `u32` id.
pub const TRWH_SIZE: usize = 12;

/// The ASWM payload's compression tag.
pub const COMP: [u8; 4] = *b"COMP";
/// Size of the ASWM payload header: `"COMP"`, `u32` compressed size, `u32` decompressed size.
pub const ASWM_PAYLOAD_HEADER_SIZE: usize = 12;
/// The only walkmesh version this crate decodes (every corpus file has it).
pub const ASWM_VERSION: u32 = 0x6c;
/// Hard cap on a decompressed walkmesh, whatever the header declares (256 MiB).
pub const MAX_DECOMPRESSED: usize = 256 << 20;

/// What all ASWM packets of one file may inflate to together: 16 MiB plus four times the
/// file's size, and never above [`MAX_DECOMPRESSED`]. Real walkmeshes inflate to at most
/// 4.23 times their whole file (the 70 corpus files; 2.2 to 4.3 times their zlib stream),
/// while a crafted stream of zeros inflates a thousandfold: the budget keeps a small file
/// from claiming hundreds of megabytes.
pub fn decompressed_budget(file_len: usize) -> usize {
    (16usize << 20)
        .saturating_add(file_len.saturating_mul(4))
        .min(MAX_DECOMPRESSED)
}

/// Size of the walkmesh header: version, name\[32\], owns-data byte, vertex, edge and triangle
/// counts, and a `u32` (always 0).
pub const WALKMESH_HEADER_SIZE: usize = 53;
/// Bytes per vertex: three `f32`.
pub const VERTEX_SIZE: usize = 12;
/// Bytes per edge: two `u32` vertices, two `u32` triangles.
pub const EDGE_SIZE: usize = 16;
/// Bytes per triangle.
pub const TRIANGLE_SIZE: usize = 64;
/// Size of the tiles-section header: flags, tile width, grid height, grid width.
pub const TILES_HEADER_SIZE: usize = 16;
/// Size of a tile header.
pub const TILE_HEADER_SIZE: usize = 57;
/// Size of a tile's path-table header: flags, `u32` local-to-node count, `u8` node count,
/// `u32` RLE table size.
pub const PATH_TABLE_HEADER_SIZE: usize = 13;
/// The smallest possible tile: header, path-table header, trailing flags.
pub const MIN_TILE_SIZE: usize = TILE_HEADER_SIZE + PATH_TABLE_HEADER_SIZE + 4;
/// Size of an island header: index, tile, centre (3 `f32`), triangle count.
pub const ISLAND_HEADER_SIZE: usize = 24;
/// The smallest possible island: header and three empty length-prefixed arrays.
pub const MIN_ISLAND_SIZE: usize = ISLAND_HEADER_SIZE + 12;
/// Bytes per island path node: `u16` next, `u16` padding, `f32` weight.
pub const ISLAND_PATH_NODE_SIZE: usize = 8;

/// `u32` meaning "no edge / no triangle".
pub const NONE_U32: u32 = u32::MAX;
/// `u16` meaning "no island".
pub const NONE_U16: u16 = u16::MAX;
/// Path-table byte meaning "no node" / "unreachable" / "already there".
pub const NO_NODE: u8 = 0xff;
/// Path-table node bit: clear line of sight between the two triangles.
pub const NODE_LOS: u8 = 0x80;
/// Path-table node mask: index into the node-to-local table.
pub const NODE_INDEX_MASK: u8 = 0x7f;

/// Path-table compression flags that this crate cannot decode (RLE = 1, zlib = 2).
pub const PATH_TABLE_COMPRESSED: u32 = 0x03;

/// Triangle flag: walkable.
pub const FLAG_WALKABLE: u16 = 0x0001;
/// Triangle flag: vertices wound clockwise (set by the toolset's bake).
pub const FLAG_CLOCKWISE: u16 = 0x0004;
/// Triangle flags: the surface-material bits (dirt 0x08 .. puddles 0x2000).
pub const FLAG_MATERIALS: u16 = 0x3ff8;

/// Tiles-section flags of baked files.
pub const TILES_FLAGS_BAKED: u32 = 31;
/// Tiles-section flags of unbaked files.
pub const TILES_FLAGS_UNBAKED: u32 = 15;

/// A printable form of a four-byte tag.
pub(crate) fn show_tag(tag: &[u8; 4]) -> String {
    if tag.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        format!("\"{}\"", String::from_utf8_lossy(tag))
    } else {
        format!("0x{:02x}{:02x}{:02x}{:02x}", tag[0], tag[1], tag[2], tag[3])
    }
}
