//! Encoding a [`Bwm`] to `BWM V1.0` bytes.
//!
//! The writer plans the whole layout first (every table's offset), then writes header and
//! tables in one pass into a buffer of the exact size.

use super::model::{Bwm, WalkmeshType};
use super::raw::{self, HEADER_SIZE, Table};
use crate::cursor::PutLe;
use crate::error::EncodeError;

/// Table offsets and total length of a fresh write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plan {
    pub offsets: [u32; 9],
    pub len: usize,
}

/// The layout the game's tools use: tables back to back in file order after the header. In
/// placeable/door walkmeshes an empty area-only table has offset 0; in area walkmeshes every
/// table gets the running offset even when empty.
pub(crate) fn plan_offsets(counts: &[u32; 9], ty: WalkmeshType) -> Plan {
    let mut pos = HEADER_SIZE as u64;
    let mut offsets = [0u32; 9];
    for t in Table::ALL {
        let i = t as usize;
        if counts[i] == 0 && t.area_only() && ty != WalkmeshType::Area {
            continue;
        }
        offsets[i] = u32::try_from(pos).unwrap_or(u32::MAX);
        pos += u64::from(counts[i]) * t.record_size() as u64;
    }
    Plan {
        offsets,
        len: usize::try_from(pos).unwrap_or(usize::MAX),
    }
}

/// The offset of every table (in [`Table::ALL`] order) in the file `bwm` writes to: the
/// source layout while its counts hold (an unmodified walkmesh read from a file: that file's
/// own offsets), else the layout of a fresh write.
pub(crate) fn table_offsets(bwm: &Bwm) -> [u32; 9] {
    let n = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
    let nf = n(bwm.faces.len());
    let counts = [
        n(bwm.vertices.len()),
        nf,
        nf,
        nf,
        nf,
        n(bwm.aabb_nodes.len()),
        n(bwm.adjacency.len()),
        n(bwm.edges.len()),
        n(bwm.perimeters.len()),
    ];
    match &bwm.source_layout {
        Some(l) if l.counts == counts => l.offsets,
        _ => plan_offsets(&counts, bwm.walkmesh_type).offsets,
    }
}

impl Bwm {
    /// The byte offset of record `index` of `table` (plus `within` bytes into it) in the file
    /// the walkmesh writes to: for an unmodified walkmesh read from a file, where that file
    /// holds it (what a finding about the record names).
    pub fn record_offset(&self, table: Table, index: usize, within: usize) -> u64 {
        let base = table_offsets(self)[table as usize];
        u64::from(base) + (index * table.record_size() + within) as u64
    }
}

fn count(n: usize, what: &str) -> Result<u32, EncodeError> {
    u32::try_from(n)
        .map_err(|_| EncodeError(format!("{what}: {n} records do not fit in a u32 count")))
}

/// Encodes a walkmesh.
///
/// An unmodified model read from a file writes back byte for byte (including files with
/// unusual layouts, through [`Bwm::source_layout`]).
pub fn write(bwm: &Bwm) -> Result<Vec<u8>, EncodeError> {
    let nf = bwm.faces.len();
    if bwm.normals.len() != nf || bwm.distances.len() != nf {
        return Err(EncodeError(format!(
            "{nf} faces but {} normals and {} planar distances (one each per face)",
            bwm.normals.len(),
            bwm.distances.len()
        )));
    }
    if bwm.adjacency.len() > nf {
        return Err(EncodeError(format!(
            "{} adjacency records for {nf} faces (one per walkable face)",
            bwm.adjacency.len()
        )));
    }
    let nf32 = count(nf, "faces")?;
    let counts = [
        count(bwm.vertices.len(), "vertices")?,
        nf32,
        nf32,
        nf32,
        nf32,
        count(bwm.aabb_nodes.len(), "AABB nodes")?,
        count(bwm.adjacency.len(), "adjacency")?,
        count(bwm.edges.len(), "edges")?,
        count(bwm.perimeters.len(), "perimeters")?,
    ];
    let (offsets, len, filler) = match &bwm.source_layout {
        Some(l) if l.counts == counts => (l.offsets, l.len, l.filler.as_slice()),
        _ => {
            let p = plan_offsets(&counts, bwm.walkmesh_type);
            if p.len > u32::MAX as usize {
                return Err(EncodeError(format!(
                    "the walkmesh needs {} bytes, more than a BWM can address",
                    p.len
                )));
            }
            (p.offsets, p.len, &[][..])
        }
    };

    let mut out = vec![0u8; len];
    for (at, bytes) in filler {
        out[*at as usize..*at as usize + bytes.len()].copy_from_slice(bytes);
    }
    let mut header = Vec::with_capacity(HEADER_SIZE);
    header.extend_from_slice(&raw::MAGIC);
    header.extend_from_slice(&raw::VERSION);
    header.put_u32(bwm.walkmesh_type.raw());
    for v in bwm
        .relative_use
        .iter()
        .chain(&bwm.absolute_use)
        .chain([&bwm.position])
    {
        header.put_vec3(*v);
    }
    let [vc, fc, _, _, _, ac, adc, ec, pc] = counts;
    let [vo, fo, mo, no, dof, ao, ado, eo, po] = offsets;
    for w in [
        vc,
        vo,
        fc,
        fo,
        mo,
        no,
        dof,
        ac,
        ao,
        bwm.aabb_root,
        adc,
        ado,
        ec,
        eo,
        pc,
        po,
    ] {
        header.put_u32(w);
    }
    debug_assert_eq!(header.len(), HEADER_SIZE);
    out[..HEADER_SIZE].copy_from_slice(&header);

    let mut put = |t: Table, bytes: Vec<u8>| {
        let at = offsets[t as usize] as usize;
        if !bytes.is_empty() {
            out[at..at + bytes.len()].copy_from_slice(&bytes);
        }
    };
    let mut b = Vec::with_capacity(bwm.vertices.len() * 12);
    bwm.vertices.iter().for_each(|v| b.put_vec3(*v));
    put(Table::Vertices, b);
    let mut b = Vec::with_capacity(nf * 12);
    bwm.faces
        .iter()
        .flat_map(|f| f.vertices)
        .for_each(|i| b.put_u32(i));
    put(Table::Faces, b);
    let mut b = Vec::with_capacity(nf * 4);
    bwm.faces.iter().for_each(|f| b.put_u32(f.material.id()));
    put(Table::Materials, b);
    let mut b = Vec::with_capacity(nf * 12);
    bwm.normals.iter().for_each(|v| b.put_vec3(*v));
    put(Table::Normals, b);
    let mut b = Vec::with_capacity(nf * 4);
    bwm.distances.iter().for_each(|d| b.put_f32(*d));
    put(Table::Distances, b);
    let mut b = Vec::with_capacity(bwm.aabb_nodes.len() * raw::AABB_NODE_SIZE);
    for n in &bwm.aabb_nodes {
        b.put_vec3(n.min);
        b.put_vec3(n.max);
        b.put_i32(n.face);
        for w in [n.unknown, n.plane, n.left, n.right] {
            b.put_u32(w);
        }
    }
    put(Table::Aabb, b);
    let mut b = Vec::with_capacity(bwm.adjacency.len() * 12);
    bwm.adjacency.iter().flatten().for_each(|a| b.put_i32(*a));
    put(Table::Adjacency, b);
    let mut b = Vec::with_capacity(bwm.edges.len() * 8);
    for e in &bwm.edges {
        b.put_u32(e.edge);
        b.put_i32(e.transition);
    }
    put(Table::Edges, b);
    let mut b = Vec::with_capacity(bwm.perimeters.len() * 4);
    bwm.perimeters.iter().for_each(|p| b.put_u32(*p));
    put(Table::Perimeters, b);
    Ok(out)
}
