//! The ASWM packet: `COMP` header, zlib stream, and the walkmesh inside.

use std::sync::Arc;

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

use super::model::{
    Aswm, Edge, Island, IslandPathNode, OriginalAswm, PathTable, Tile, Triangle, Walkmesh,
};
use super::raw::{self, show_tag};
use crate::cursor::{Cursor, PutLe};
use crate::error::{DecodeError, EncodeError, ErrorKind, Location};

/// The largest expansion a zlib stream can have (deflate's limit is about 1032:1).
const MAX_RATIO: u64 = 1032;

/// Context string for errors inside the decompressed walkmesh.
pub const DECOMPRESSED: &str = "packet ASWM (decompressed)";

/// Decodes an ASWM payload (`COMP` header + zlib stream).
pub(crate) fn read_aswm(payload: &[u8]) -> Result<Aswm, DecodeError> {
    let mut c = Cursor::new(payload);
    let compression: [u8; 4] = c.array("compression tag \"COMP\"")?;
    if compression != raw::COMP {
        return Err(DecodeError::new(
            ErrorKind::Unsupported,
            Location::Offset(0),
            format!(
                "expected compression tag \"COMP\", found {}",
                show_tag(&compression)
            ),
        ));
    }
    let cs_at = c.pos();
    let compressed_size = c.u32("compressed size")?;
    let us_at = c.pos();
    let declared = c.u32("decompressed size")?;
    if compressed_size as usize != c.remaining() {
        return Err(DecodeError::malformed_at(
            cs_at as u64,
            format!(
                "compressed size {compressed_size} does not match the {} bytes after the ASWM header",
                c.remaining()
            ),
        ));
    }
    let stream = c.bytes(compressed_size as usize, "zlib stream")?;
    let decompressed = inflate(stream, declared, us_at as u64)?;
    let walkmesh = decode_walkmesh(&decompressed).map_err(|e| e.within(DECOMPRESSED))?;
    Ok(Aswm {
        compression,
        walkmesh,
        original: Some(Arc::new(OriginalAswm {
            decompressed,
            payload: payload.to_vec(),
        })),
    })
}

/// Inflates a zlib `stream` that must produce exactly `declared` bytes. `size_at` is the
/// offset of the declared size (for errors); the stream starts at payload offset 12.
pub fn inflate(stream: &[u8], declared: u32, size_at: u64) -> Result<Vec<u8>, DecodeError> {
    let declared = declared as usize;
    let ratio_cap = (stream.len() as u64)
        .saturating_mul(MAX_RATIO)
        .saturating_add(64);
    if declared > raw::MAX_DECOMPRESSED || declared as u64 > ratio_cap {
        return Err(DecodeError::limit_at(
            size_at,
            format!(
                "declared decompressed size {declared} is impossible for {} compressed bytes or above the {} byte limit",
                stream.len(),
                raw::MAX_DECOMPRESSED
            ),
        ));
    }
    let base = raw::ASWM_PAYLOAD_HEADER_SIZE as u64;
    let mut d = Decompress::new(true);
    let mut out = Vec::with_capacity(declared + 1);
    loop {
        let in_before = d.total_in();
        let out_before = d.total_out();
        let input = &stream[in_before as usize..];
        let status = d
            .decompress_vec(input, &mut out, FlushDecompress::Finish)
            .map_err(|e| {
                DecodeError::malformed_at(base + d.total_in(), format!("corrupt zlib stream: {e}"))
            })?;
        if out.len() > declared {
            return Err(DecodeError::malformed_at(
                size_at,
                format!("the zlib stream inflates to more than the declared {declared} bytes"),
            ));
        }
        match status {
            Status::StreamEnd => break,
            Status::Ok | Status::BufError => {
                if d.total_in() == in_before && d.total_out() == out_before {
                    return Err(DecodeError::malformed_at(
                        base + d.total_in(),
                        format!(
                            "the zlib stream ends early ({} of {declared} bytes inflated)",
                            out.len()
                        ),
                    ));
                }
            }
        }
    }
    if out.len() != declared {
        return Err(DecodeError::malformed_at(
            size_at,
            format!(
                "declared decompressed size {declared}, but the zlib stream inflates to {} bytes",
                out.len()
            ),
        ));
    }
    if d.total_in() as usize != stream.len() {
        return Err(DecodeError::malformed_at(
            base + d.total_in(),
            format!(
                "{} bytes after the end of the zlib stream",
                stream.len() - d.total_in() as usize
            ),
        ));
    }
    Ok(out)
}

fn vec3(c: &mut Cursor<'_>, what: &str) -> Result<[f32; 3], DecodeError> {
    c.vec3(what)
}

fn edge(c: &mut Cursor<'_>) -> Result<Edge, DecodeError> {
    Ok(Edge {
        vertices: [c.u32("edge vertex")?, c.u32("edge vertex")?],
        triangles: [c.u32("edge triangle")?, c.u32("edge triangle")?],
    })
}

fn u32x3(c: &mut Cursor<'_>, what: &str) -> Result<[u32; 3], DecodeError> {
    Ok([c.u32(what)?, c.u32(what)?, c.u32(what)?])
}

/// Decodes the decompressed walkmesh bytes. Offsets in errors are relative to `data`.
pub fn decode_walkmesh(data: &[u8]) -> Result<Walkmesh, DecodeError> {
    let mut c = Cursor::new(data);
    let version = c.u32("walkmesh version")?;
    if version != raw::ASWM_VERSION {
        return Err(DecodeError::new(
            ErrorKind::Unsupported,
            Location::Offset(0),
            format!("walkmesh version {version:#x} (only 0x6c is supported)"),
        ));
    }
    let name = c.array("walkmesh name")?;
    let owns_data = c.u8("owns-data byte")?;
    let nv = c.u32("vertex count")?;
    let ne = c.u32("edge count")?;
    let nt = c.u32("triangle count")?;
    let header_unknown = c.u32("header word")?;

    c.check_table(u64::from(nv), raw::VERTEX_SIZE as u64, "vertex table")?;
    let mut vertices = Vec::with_capacity(nv as usize);
    for _ in 0..nv {
        vertices.push(vec3(&mut c, "vertex")?);
    }
    c.check_table(u64::from(ne), raw::EDGE_SIZE as u64, "edge table")?;
    let mut edges = Vec::with_capacity(ne as usize);
    for _ in 0..ne {
        edges.push(edge(&mut c)?);
    }
    c.check_table(u64::from(nt), raw::TRIANGLE_SIZE as u64, "triangle table")?;
    let mut triangles = Vec::with_capacity(nt as usize);
    for _ in 0..nt {
        triangles.push(Triangle {
            vertices: u32x3(&mut c, "triangle vertex")?,
            linked_edges: u32x3(&mut c, "triangle linked edge")?,
            linked_triangles: u32x3(&mut c, "triangle linked triangle")?,
            center: [c.f32("triangle centre")?, c.f32("triangle centre")?],
            normal: vec3(&mut c, "triangle normal")?,
            dot_product: c.f32("triangle dot product")?,
            island: c.u16("triangle island")?,
            flags: c.u16("triangle flags")?,
        });
    }

    let tiles_flags = c.u32("tiles flags")?;
    let tile_width = c.f32("tile width")?;
    let grid_height = c.u32("tile grid height")?;
    let grid_width = c.u32("tile grid width")?;
    let ntiles = u64::from(grid_height) * u64::from(grid_width);
    c.check_table(ntiles, raw::MIN_TILE_SIZE as u64, "tile table")?;
    let mut tiles = Vec::with_capacity(ntiles as usize);
    for i in 0..ntiles {
        tiles.push(decode_tile(&mut c).map_err(|e| e.within(format!("tile {i}")))?);
    }
    let border_size = c.u32("border size")?;

    let nis = c.u32("island count")?;
    c.check_table(u64::from(nis), raw::MIN_ISLAND_SIZE as u64, "island table")?;
    let mut islands = Vec::with_capacity(nis as usize);
    for i in 0..nis {
        islands.push(decode_island(&mut c).map_err(|e| e.within(format!("island {i}")))?);
    }
    let npaths = u64::from(nis) * u64::from(nis);
    c.check_table(
        npaths,
        raw::ISLAND_PATH_NODE_SIZE as u64,
        "island path table",
    )?;
    let mut island_paths = Vec::with_capacity(npaths as usize);
    for _ in 0..npaths {
        island_paths.push(IslandPathNode {
            next: c.u16("island path next")?,
            padding: c.u16("island path padding")?,
            weight: c.f32("island path weight")?,
        });
    }
    if c.remaining() != 0 {
        return Err(DecodeError::malformed_at(
            c.pos() as u64,
            format!(
                "{} unexpected bytes after the island path table",
                c.remaining()
            ),
        ));
    }
    Ok(Walkmesh {
        version,
        name,
        owns_data,
        header_unknown,
        vertices,
        edges,
        triangles,
        tiles_flags,
        tile_width,
        grid_height,
        grid_width,
        tiles,
        border_size,
        islands,
        island_paths,
    })
}

fn decode_tile(c: &mut Cursor<'_>) -> Result<Tile, DecodeError> {
    let name = c.array("tile name")?;
    let owns_data = c.u8("tile owns-data byte")?;
    let vertex_count = c.u32("tile vertex count")?;
    let edge_count = c.u32("tile edge count")?;
    let triangle_count = c.u32("tile triangle count")?;
    let size = [c.f32("tile size")?, c.f32("tile size")?];
    let triangles_offset = c.u32("tile triangle offset")?;
    let mut vertices = Vec::new();
    let mut edges = Vec::new();
    if owns_data != 0 {
        c.check_table(
            u64::from(vertex_count),
            raw::VERTEX_SIZE as u64,
            "tile vertices",
        )?;
        vertices.reserve_exact(vertex_count as usize);
        for _ in 0..vertex_count {
            vertices.push(vec3(c, "tile vertex")?);
        }
        c.check_table(u64::from(edge_count), raw::EDGE_SIZE as u64, "tile edges")?;
        edges.reserve_exact(edge_count as usize);
        for _ in 0..edge_count {
            edges.push(edge(c)?);
        }
    }
    let flags_at = c.pos();
    let flags = c.u32("path table flags")?;
    if flags & raw::PATH_TABLE_COMPRESSED != 0 {
        return Err(DecodeError::new(
            ErrorKind::Unsupported,
            Location::Offset(flags_at as u64),
            format!("compressed path table (flags {flags:#x}) is not supported"),
        ));
    }
    let ltn = c.u32("path table local-to-node count")?;
    let ntl = c.u8("path table node count")?;
    let rle_table_size = c.u32("path table RLE size")?;
    let local_to_node = c.bytes(ltn as usize, "path table local-to-node")?.to_vec();
    c.check_table(u64::from(ntl), 4, "path table node-to-local")?;
    let mut node_to_local = Vec::with_capacity(usize::from(ntl));
    for _ in 0..ntl {
        node_to_local.push(c.u32("path table node-to-local")?);
    }
    let n = usize::from(ntl);
    let nodes = c.bytes(n * n, "path table nodes")?.to_vec();
    let trailing_flags = c.u32("path table trailing flags")?;
    Ok(Tile {
        name,
        owns_data,
        vertex_count,
        edge_count,
        triangle_count,
        size,
        triangles_offset,
        vertices,
        edges,
        path_table: PathTable {
            flags,
            local_to_node,
            node_to_local,
            nodes,
            rle_table_size,
            trailing_flags,
        },
    })
}

fn decode_island(c: &mut Cursor<'_>) -> Result<Island, DecodeError> {
    let index = c.u32("island index")?;
    let tile = c.u32("island tile word")?;
    let center = vec3(c, "island centre")?;
    let triangle_count = c.u32("island triangle count")?;
    let n = c.u32("island link count")?;
    c.check_table(u64::from(n), 4, "island links")?;
    let mut links = Vec::with_capacity(n as usize);
    for _ in 0..n {
        links.push(c.u32("island link")?);
    }
    let n = c.u32("island distance count")?;
    c.check_table(u64::from(n), 4, "island distances")?;
    let mut distances = Vec::with_capacity(n as usize);
    for _ in 0..n {
        distances.push(c.f32("island distance")?);
    }
    let n = c.u32("island exit count")?;
    c.check_table(u64::from(n), 4, "island exits")?;
    let mut exits = Vec::with_capacity(n as usize);
    for _ in 0..n {
        exits.push(c.u32("island exit")?);
    }
    Ok(Island {
        index,
        tile,
        center,
        triangle_count,
        links,
        distances,
        exits,
    })
}

fn count(n: usize, what: &str) -> Result<u32, EncodeError> {
    u32::try_from(n).map_err(|_| EncodeError(format!("{what}: {n} do not fit in a u32 count")))
}

fn put_edge(out: &mut Vec<u8>, e: &Edge) {
    for v in e.vertices.iter().chain(&e.triangles) {
        out.put_u32(*v);
    }
}

fn put_u16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// The size [`encode_walkmesh`] will produce (for pre-allocation).
fn encoded_len(w: &Walkmesh) -> usize {
    let mut n = raw::WALKMESH_HEADER_SIZE
        + w.vertices.len() * raw::VERTEX_SIZE
        + w.edges.len() * raw::EDGE_SIZE
        + w.triangles.len() * raw::TRIANGLE_SIZE
        + raw::TILES_HEADER_SIZE
        + 8;
    for t in &w.tiles {
        let p = &t.path_table;
        n += raw::MIN_TILE_SIZE
            + t.vertices.len() * raw::VERTEX_SIZE
            + t.edges.len() * raw::EDGE_SIZE
            + p.local_to_node.len()
            + p.node_to_local.len() * 4
            + p.nodes.len();
    }
    for i in &w.islands {
        n += raw::MIN_ISLAND_SIZE + 4 * (i.links.len() + i.distances.len() + i.exits.len());
    }
    n + w.island_paths.len() * raw::ISLAND_PATH_NODE_SIZE
}

/// Encodes a walkmesh to its decompressed bytes.
///
/// Errors when the model cannot be expressed: a tile count that differs from
/// `grid_height * grid_width`, a path table whose node count does not fit in a byte or whose
/// `nodes` is not node-count squared, tile vertices/edges that disagree with the owns-data
/// byte or counts, or an island path table that is not island-count squared.
pub fn encode_walkmesh(w: &Walkmesh) -> Result<Vec<u8>, EncodeError> {
    let ntiles = u64::from(w.grid_height) * u64::from(w.grid_width);
    if w.tiles.len() as u64 != ntiles {
        return Err(EncodeError(format!(
            "{} tiles for a {} x {} grid",
            w.tiles.len(),
            w.grid_width,
            w.grid_height
        )));
    }
    let nis = w.islands.len();
    if w.island_paths.len() as u128 != (nis as u128) * (nis as u128) {
        return Err(EncodeError(format!(
            "{} island path nodes for {nis} islands (needs islands squared)",
            w.island_paths.len()
        )));
    }
    let mut out = Vec::with_capacity(encoded_len(w));
    out.put_u32(w.version);
    out.extend_from_slice(&w.name);
    out.push(w.owns_data);
    out.put_u32(count(w.vertices.len(), "vertices")?);
    out.put_u32(count(w.edges.len(), "edges")?);
    out.put_u32(count(w.triangles.len(), "triangles")?);
    out.put_u32(w.header_unknown);
    for v in &w.vertices {
        out.put_vec3(*v);
    }
    for e in &w.edges {
        put_edge(&mut out, e);
    }
    for t in &w.triangles {
        for v in t
            .vertices
            .iter()
            .chain(&t.linked_edges)
            .chain(&t.linked_triangles)
        {
            out.put_u32(*v);
        }
        out.put_f32(t.center[0]);
        out.put_f32(t.center[1]);
        out.put_vec3(t.normal);
        out.put_f32(t.dot_product);
        put_u16(&mut out, t.island);
        put_u16(&mut out, t.flags);
    }
    out.put_u32(w.tiles_flags);
    out.put_f32(w.tile_width);
    out.put_u32(w.grid_height);
    out.put_u32(w.grid_width);
    for (i, t) in w.tiles.iter().enumerate() {
        encode_tile(&mut out, t).map_err(|e| EncodeError(format!("tile {i}: {}", e.0)))?;
    }
    out.put_u32(w.border_size);
    out.put_u32(count(nis, "islands")?);
    for i in &w.islands {
        out.put_u32(i.index);
        out.put_u32(i.tile);
        out.put_vec3(i.center);
        out.put_u32(i.triangle_count);
        out.put_u32(count(i.links.len(), "island links")?);
        for v in &i.links {
            out.put_u32(*v);
        }
        out.put_u32(count(i.distances.len(), "island distances")?);
        for v in &i.distances {
            out.put_f32(*v);
        }
        out.put_u32(count(i.exits.len(), "island exits")?);
        for v in &i.exits {
            out.put_u32(*v);
        }
    }
    for p in &w.island_paths {
        put_u16(&mut out, p.next);
        put_u16(&mut out, p.padding);
        out.put_f32(p.weight);
    }
    Ok(out)
}

fn encode_tile(out: &mut Vec<u8>, t: &Tile) -> Result<(), EncodeError> {
    if t.owns_data == 0 && (!t.vertices.is_empty() || !t.edges.is_empty()) {
        return Err(EncodeError(
            "vertices or edges given but the owns-data byte is 0 (they would be lost)".into(),
        ));
    }
    if t.owns_data != 0
        && (t.vertices.len() as u64 != u64::from(t.vertex_count)
            || t.edges.len() as u64 != u64::from(t.edge_count))
    {
        return Err(EncodeError(format!(
            "owns data with {} vertices and {} edges, but the header counts {} and {}",
            t.vertices.len(),
            t.edges.len(),
            t.vertex_count,
            t.edge_count
        )));
    }
    let p = &t.path_table;
    let n = u8::try_from(p.node_to_local.len()).map_err(|_| {
        EncodeError(format!(
            "{} path-table nodes (at most 255 fit)",
            p.node_to_local.len()
        ))
    })?;
    if p.nodes.len() != usize::from(n) * usize::from(n) {
        return Err(EncodeError(format!(
            "{} path-table node bytes for {n} nodes (needs nodes squared)",
            p.nodes.len()
        )));
    }
    out.extend_from_slice(&t.name);
    out.push(t.owns_data);
    out.put_u32(t.vertex_count);
    out.put_u32(t.edge_count);
    out.put_u32(t.triangle_count);
    out.put_f32(t.size[0]);
    out.put_f32(t.size[1]);
    out.put_u32(t.triangles_offset);
    if t.owns_data != 0 {
        for v in &t.vertices {
            out.put_vec3(*v);
        }
        for e in &t.edges {
            put_edge(out, e);
        }
    }
    out.put_u32(p.flags);
    out.put_u32(count(
        p.local_to_node.len(),
        "path-table local-to-node entries",
    )?);
    out.push(n);
    out.put_u32(p.rle_table_size);
    out.extend_from_slice(&p.local_to_node);
    for v in &p.node_to_local {
        out.put_u32(*v);
    }
    out.extend_from_slice(&p.nodes);
    out.put_u32(p.trailing_flags);
    Ok(())
}

/// Compresses `data` as one zlib stream (default level).
pub fn deflate(data: &[u8]) -> Result<Vec<u8>, EncodeError> {
    let mut c = Compress::new(Compression::default(), true);
    let mut out = Vec::with_capacity(data.len() / 4 + 64);
    loop {
        if out.len() == out.capacity() {
            out.reserve(out.capacity().max(1024));
        }
        let consumed = c.total_in() as usize;
        let status = c
            .compress_vec(&data[consumed..], &mut out, FlushCompress::Finish)
            .map_err(|e| EncodeError(format!("zlib compression failed: {e}")))?;
        if status == Status::StreamEnd {
            return Ok(out);
        }
    }
}

/// Encodes an ASWM packet payload. The original payload is reused when the walkmesh still
/// encodes to the original decompressed bytes.
pub(crate) fn encode_aswm(a: &Aswm) -> Result<Vec<u8>, EncodeError> {
    if a.compression != raw::COMP {
        return Err(EncodeError(format!(
            "ASWM compression tag {} (only \"COMP\" is written)",
            show_tag(&a.compression)
        )));
    }
    let bytes = encode_walkmesh(&a.walkmesh)?;
    if let Some(o) = &a.original {
        if o.decompressed == bytes && a.compression == raw::COMP {
            return Ok(o.payload.clone());
        }
    }
    let z = deflate(&bytes)?;
    let mut out = Vec::with_capacity(z.len() + raw::ASWM_PAYLOAD_HEADER_SIZE);
    out.extend_from_slice(&a.compression);
    out.put_u32(count(z.len(), "compressed bytes")?);
    out.put_u32(count(bytes.len(), "decompressed bytes")?);
    out.extend_from_slice(&z);
    Ok(out)
}
