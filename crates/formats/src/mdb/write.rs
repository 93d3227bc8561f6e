//! Encoding an [`Mdb`] to bytes.

use super::mesh::{encode_mesh, encode_point, encode_spheres};
use super::model::{Layout, Mdb, Packet};
use super::raw::{self, count};
use super::walk::encode_walk;
use crate::cursor::PutLe;
use crate::error::EncodeError;

/// Encodes a packet's payload (the bytes after its tag and size).
pub fn encode_packet(p: &Packet) -> Result<Vec<u8>, EncodeError> {
    match p {
        Packet::Rigid(m) => encode_mesh(m, None),
        Packet::Collision2(m) | Packet::Collision3(m) => encode_mesh(m, None),
        Packet::Skin(s) => encode_mesh(&s.mesh, Some(&s.skeleton)),
        Packet::Spheres(s) => encode_spheres(s),
        Packet::Hook(pt) | Packet::Hair(pt) | Packet::Helm(pt) => Ok(encode_point(pt)),
        Packet::Walk(w) => encode_walk(w),
        Packet::Other { data, .. } => Ok(data.clone()),
    }
}

/// Encodes an MDB model: header, packet table, then the packets back to back in table
/// order (the layout of every corpus file).
///
/// A model read from a file writes back byte for byte. A file read with a non-canonical
/// [`Layout`] keeps it (packets at their original offsets, the bytes between them kept)
/// while every packet still has its original size; otherwise the canonical layout is used.
pub fn write(mdb: &Mdb) -> Result<Vec<u8>, EncodeError> {
    let payloads = mdb
        .packets
        .iter()
        .map(encode_packet)
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(layout) = &mdb.layout {
        let fits = layout.offsets.len() == payloads.len()
            && layout.sizes.len() == payloads.len()
            && payloads
                .iter()
                .zip(&layout.sizes)
                .all(|(p, &s)| p.len() == s as usize);
        if fits {
            return write_in_layout(mdb, &payloads, layout);
        }
    }
    let n = payloads.len();
    let table_end = raw::HEADER_SIZE + n * raw::PACKET_ENTRY_SIZE;
    let total = table_end
        + payloads
            .iter()
            .map(|p| p.len() + raw::PACKET_HEADER_SIZE)
            .sum::<usize>();
    count(total, "bytes (the file's length)")?;
    let mut out = Vec::with_capacity(total);
    put_header(&mut out, mdb, n)?;
    let mut offset = table_end;
    for (p, payload) in mdb.packets.iter().zip(&payloads) {
        out.extend_from_slice(&p.tag());
        out.put_u32(count(offset, "bytes (a packet offset)")?);
        offset += raw::PACKET_HEADER_SIZE + payload.len();
    }
    for (p, payload) in mdb.packets.iter().zip(&payloads) {
        out.extend_from_slice(&p.tag());
        out.put_u32(count(payload.len(), "bytes (a packet size)")?);
        out.extend_from_slice(payload);
    }
    Ok(out)
}

fn put_header(out: &mut Vec<u8>, mdb: &Mdb, n: usize) -> Result<(), EncodeError> {
    out.extend_from_slice(&raw::MAGIC);
    out.extend_from_slice(&mdb.version_major.to_le_bytes());
    out.extend_from_slice(&mdb.version_minor.to_le_bytes());
    out.put_u32(count(n, "packets")?);
    Ok(())
}

/// Writes the packets at their original offsets, with the original bytes between them.
fn write_in_layout(
    mdb: &Mdb,
    payloads: &[Vec<u8>],
    layout: &Layout,
) -> Result<Vec<u8>, EncodeError> {
    let n = payloads.len();
    let table_end = raw::HEADER_SIZE + n * raw::PACKET_ENTRY_SIZE;
    let mut len = (layout.file_len as usize).max(table_end);
    for (&o, p) in layout.offsets.iter().zip(payloads) {
        len = len.max(o as usize + raw::PACKET_HEADER_SIZE + p.len());
    }
    for (o, bytes) in &layout.filler {
        len = len.max(*o as usize + bytes.len());
    }
    count(len, "bytes (the file's length)")?;
    let mut head = Vec::with_capacity(table_end);
    put_header(&mut head, mdb, n)?;
    for (p, &o) in mdb.packets.iter().zip(&layout.offsets) {
        head.extend_from_slice(&p.tag());
        head.put_u32(o);
    }
    let mut out = vec![0u8; len];
    out[..table_end].copy_from_slice(&head);
    for (o, bytes) in &layout.filler {
        let o = *o as usize;
        out[o..o + bytes.len()].copy_from_slice(bytes);
    }
    for ((p, payload), &o) in mdb.packets.iter().zip(payloads).zip(&layout.offsets) {
        let o = o as usize;
        out[o..o + 4].copy_from_slice(&p.tag());
        out[o + 4..o + 8]
            .copy_from_slice(&count(payload.len(), "bytes (a packet size)")?.to_le_bytes());
        out[o + 8..o + 8 + payload.len()].copy_from_slice(payload);
    }
    Ok(out)
}
