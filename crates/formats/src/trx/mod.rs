//! NWN2 terrain files: TRN (unbaked, written by the toolset while editing) and TRX (baked,
//! shipped with a module), and the zlib-packed ASWM walkmesh inside them.
//!
//! - [`raw`]: on-disk constants and sizes;
//! - [`Trx`], [`Packet`], [`Walkmesh`] and friends: the owned model ([`model`]);
//! - [`read`] / [`write`]: bytes to model and back, byte-exact for unmodified files (the
//!   ASWM packet keeps its original compressed bytes while its content is unchanged);
//! - [`validate`]: consistency findings (index ranges, links, tiles, path tables, islands);
//! - [`summary`]: the counts `areakit info` prints.
//!
//! Byte layout, the corrections to the community spec and the bake rules are in
//! `docs/formats/nwn2-trx.md`.

pub mod aswm;
pub mod model;
pub mod raw;
mod read;
pub mod validate;
mod write;

pub use aswm::{decode_walkmesh, encode_walkmesh};
pub use model::{
    Aswm, Edge, Island, IslandPathNode, Layout, MATERIALS, Packet, PathTable, Tile, Triangle, Trwh,
    Trx, Walkmesh, WaterTexture, WaterVertex, Watr,
};
pub(crate) use read::layout_of;
pub use read::{PacketEntry, read, read_packet_table};
pub use validate::{validate, validate_walkmesh};
pub(crate) use write::write_container;
pub use write::{encode_packet, write};

/// One packet in a [`Summary`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PacketSummary {
    /// The tag as text (non-ASCII bytes replaced).
    pub tag: String,
    /// Payload size in bytes (as it would be written).
    pub size: u64,
}

/// Walkmesh counts in a [`Summary`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkmeshSummary {
    /// Vertices.
    pub vertices: usize,
    /// Edges.
    pub edges: usize,
    /// Triangles.
    pub triangles: usize,
    /// Triangles with the walkable flag.
    pub walkable_triangles: usize,
    /// Tiles (grid width x height).
    pub tiles: usize,
    /// Islands.
    pub islands: usize,
}

/// What `areakit info` reports about a terrain file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// `"trx"` when the walkmesh is baked (path tables or islands present), else `"trn"`.
    pub format: &'static str,
    /// Container version `(major, minor)`.
    pub version: (u16, u16),
    /// Every packet in table order.
    pub packets: Vec<PacketSummary>,
    /// The first ASWM packet's walkmesh counts.
    pub walkmesh: Option<WalkmeshSummary>,
}

/// Summarises a decoded file. Packet sizes are those [`write`] would produce (an unmodified
/// ASWM packet reports its original size; a modified one is compressed to measure it).
pub fn summary(trx: &Trx) -> Summary {
    let packets = trx
        .packets
        .iter()
        .map(|p| PacketSummary {
            tag: String::from_utf8_lossy(&p.tag()).into_owned(),
            size: encode_packet(p).map_or(0, |b| b.len() as u64),
        })
        .collect();
    let walkmesh = trx.walkmesh().map(|w| WalkmeshSummary {
        vertices: w.vertices.len(),
        edges: w.edges.len(),
        triangles: w.triangles.len(),
        walkable_triangles: w.walkable_count(),
        tiles: w.tiles.len(),
        islands: w.islands.len(),
    });
    Summary {
        format: if trx.is_baked() { "trx" } else { "trn" },
        version: (trx.version_major, trx.version_minor),
        packets,
        walkmesh,
    }
}

#[cfg(test)]
mod tests;
