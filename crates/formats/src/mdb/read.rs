//! Decoding MDB bytes into an [`Mdb`].

use super::mesh::{read_mesh, read_point, read_skin, read_spheres};
use super::model::{Mdb, Packet};
use super::raw;
use super::walk::read_walk;
use crate::cursor::Cursor;
use crate::error::DecodeError;
use crate::trx::{PacketEntry, read_packet_table};

/// Decodes an MDB model.
///
/// The container is NWN2's packet container (magic `NWN2`, version, packet table; packets
/// checked to lie inside the file, to repeat the table's tag and not to overlap). Every
/// packet of a known tag is decoded whole, its counts accounting for exactly its payload
/// (checked before anything is allocated); `TRRN` and unknown tags are kept as bytes.
/// Error offsets are file offsets, inside a context naming the packet. Index ranges (a face
/// naming a vertex past the end) are not checked here: [`Walk::surface`](super::Walk::surface)
/// checks the WALK's.
///
/// ```
/// use areakit_formats::mdb;
/// let bytes = mdb::write(&mdb::Mdb::default()).unwrap();
/// assert_eq!(mdb::read(&bytes).unwrap(), mdb::Mdb::default());
/// ```
pub fn read(data: &[u8]) -> Result<Mdb, DecodeError> {
    crate::census::decoded("mdb");
    let (version_major, version_minor, entries) = read_packet_table(data)?;
    let mut packets = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let packet = read_packet(data, e).map_err(|err| {
            err.within(format!(
                "packet {i} {} at offset {:#x}",
                crate::trx::raw::show_tag(&e.tag),
                e.offset
            ))
        })?;
        packets.push(packet);
    }
    Ok(Mdb {
        version_major,
        version_minor,
        packets,
        layout: crate::trx::layout_of(data, &entries),
    })
}

/// Decodes one packet's payload; the cursor cannot read past the payload's end.
fn read_packet(data: &[u8], e: &PacketEntry) -> Result<Packet, DecodeError> {
    let start = e.offset as usize + raw::PACKET_HEADER_SIZE;
    let end = start + e.size as usize;
    let mut c = Cursor::at(&data[..end], start, "packet payload")?;
    let packet = match e.tag {
        raw::TAG_RIGD => Packet::Rigid(read_mesh(&mut c, "RIGD")?),
        raw::TAG_SKIN => Packet::Skin(read_skin(&mut c)?),
        raw::TAG_COL2 => Packet::Collision2(read_mesh(&mut c, "COL2")?),
        raw::TAG_COL3 => Packet::Collision3(read_mesh(&mut c, "COL3")?),
        raw::TAG_COLS => Packet::Spheres(read_spheres(&mut c)?),
        raw::TAG_HOOK => Packet::Hook(read_point(&mut c, "HOOK")?),
        raw::TAG_HAIR => Packet::Hair(read_point(&mut c, "HAIR")?),
        raw::TAG_HELM => Packet::Helm(read_point(&mut c, "HELM")?),
        raw::TAG_WALK => Packet::Walk(read_walk(&mut c)?),
        tag => Packet::Other {
            tag,
            data: c.bytes(c.remaining(), "packet payload")?.to_vec(),
        },
    };
    if c.remaining() != 0 {
        return Err(DecodeError::malformed_at(
            c.pos() as u64,
            format!(
                "{} unexpected bytes after the {} payload",
                c.remaining(),
                crate::trx::raw::show_tag(&e.tag)
            ),
        ));
    }
    Ok(packet)
}

/// Whether bytes in the `NWN2` container are a model rather than a terrain file: the packet
/// table names at least one model packet (RIGD, SKIN, COL2, COL3, COLS, HOOK, HAIR, HELM,
/// WALK) and no terrain one (TRWH, WATR, ASWM). Only the header and table are looked at; an
/// empty or cut table is no model. (TRX files are `NWN2` 2.3, MDBs 1.12, but the version is
/// not what tells them apart here: the packets are.)
pub fn is_mdb(data: &[u8]) -> bool {
    const MODEL: [[u8; 4]; 9] = [
        raw::TAG_RIGD,
        raw::TAG_SKIN,
        raw::TAG_COL2,
        raw::TAG_COL3,
        raw::TAG_COLS,
        raw::TAG_HOOK,
        raw::TAG_HAIR,
        raw::TAG_HELM,
        raw::TAG_WALK,
    ];
    const TERRAIN: [[u8; 4]; 3] = [
        crate::trx::raw::TAG_TRWH,
        crate::trx::raw::TAG_WATR,
        crate::trx::raw::TAG_ASWM,
    ];
    if !data.starts_with(&raw::MAGIC) || data.len() < raw::HEADER_SIZE {
        return false;
    }
    let n = u32::from_le_bytes([data[8], data[9], data[10], data[11]]) as usize;
    let table = &data[raw::HEADER_SIZE..];
    let tags: Vec<[u8; 4]> = table
        .chunks_exact(raw::PACKET_ENTRY_SIZE)
        .take(n)
        .map(|e| [e[0], e[1], e[2], e[3]])
        .collect();
    tags.len() == n
        && tags.iter().any(|t| MODEL.contains(t))
        && !tags.iter().any(|t| TERRAIN.contains(t))
}
