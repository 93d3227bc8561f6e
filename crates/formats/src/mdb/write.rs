//! Encoding an [`Mdb`] to bytes.

use super::mesh::{encode_mesh, encode_point, encode_spheres};
use super::model::{Mdb, Packet};
use super::walk::encode_walk;
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
/// order (the layout of every corpus file), in the container TRN/TRX files share
/// (`trx::write_container`).
///
/// A model read from a file writes back byte for byte. A file read with a non-canonical
/// [`Layout`](super::Layout) keeps it (packets at their original offsets, the bytes between them kept)
/// while every packet still has its original size; otherwise the canonical layout is used.
pub fn write(mdb: &Mdb) -> Result<Vec<u8>, EncodeError> {
    let payloads = mdb
        .packets
        .iter()
        .map(encode_packet)
        .collect::<Result<Vec<_>, _>>()?;
    let tags: Vec<[u8; 4]> = mdb.packets.iter().map(Packet::tag).collect();
    crate::trx::write_container(
        [mdb.version_major, mdb.version_minor],
        &tags,
        &payloads,
        mdb.layout.as_ref(),
    )
}
