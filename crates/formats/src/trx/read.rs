//! Decoding TRN/TRX bytes into a [`Trx`].

use super::aswm;
use super::model::{Layout, Packet, Trwh, Trx, WaterTexture, WaterVertex, Watr};
use super::raw::{self, show_tag};
use crate::cursor::Cursor;
use crate::error::{DecodeError, ErrorKind, Location};

/// One entry of the packet table as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PacketEntry {
    /// Tag in the table.
    pub tag: [u8; 4],
    /// File offset of the packet (its own tag and size come first).
    pub offset: u32,
    /// Payload size, read from the packet's own header.
    pub size: u32,
}

/// Reads the container header and packet table only (no payload is decoded).
pub fn read_packet_table(data: &[u8]) -> Result<(u16, u16, Vec<PacketEntry>), DecodeError> {
    let mut c = Cursor::new(data);
    let magic: [u8; 4] = c.array("magic \"NWN2\"")?;
    if magic != raw::MAGIC {
        return Err(DecodeError::malformed_at(
            0,
            format!("expected magic \"NWN2\", found {}", show_tag(&magic)),
        ));
    }
    let major = c.u16("major version")?;
    let minor = c.u16("minor version")?;
    let count = c.u32("packet count")?;
    c.check_table(
        u64::from(count),
        (raw::PACKET_ENTRY_SIZE + raw::PACKET_HEADER_SIZE) as u64,
        "packet table",
    )?;
    let mut entries = Vec::with_capacity(count as usize);
    for i in 0..count {
        let tag: [u8; 4] = c.array("packet tag")?;
        let at = c.pos();
        let offset = c.u32("packet offset")?;
        let table_end = raw::HEADER_SIZE as u64 + u64::from(count) * raw::PACKET_ENTRY_SIZE as u64;
        if u64::from(offset) < table_end {
            return Err(DecodeError::malformed_at(
                at as u64,
                format!(
                    "packet {i}: offset {offset} lies inside the header and packet table (which end at {table_end})"
                ),
            ));
        }
        let mut p = Cursor::at(data, offset as usize, &format!("packet {i}"))
            .map_err(|e| relocate(e, at as u64))?;
        let ptag: [u8; 4] = p.array("packet tag")?;
        if ptag != tag {
            return Err(DecodeError::malformed_at(
                u64::from(offset),
                format!(
                    "packet {i}: the table names {} but the packet starts with {}",
                    show_tag(&tag),
                    show_tag(&ptag)
                ),
            ));
        }
        let size_at = p.pos();
        let size = p.u32("packet size")?;
        if size as usize > p.remaining() {
            return Err(DecodeError::malformed_at(
                size_at as u64,
                format!(
                    "packet {i} {}: payload of {size} bytes, but only {} remain",
                    show_tag(&tag),
                    p.remaining()
                ),
            ));
        }
        entries.push(PacketEntry { tag, offset, size });
    }
    // Packets may not share bytes: a table that names one packet many times would make the
    // reader decode (and inflate) the same bytes again and again.
    let mut ranges: Vec<(u64, u64, usize)> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let start = u64::from(e.offset);
            (
                start,
                start + raw::PACKET_HEADER_SIZE as u64 + u64::from(e.size),
                i,
            )
        })
        .collect();
    ranges.sort_unstable();
    for w in ranges.windows(2) {
        let ((_, end_a, a), (start_b, _, b)) = (w[0], w[1]);
        if start_b < end_a {
            return Err(DecodeError::malformed_at(
                start_b,
                format!("packets {a} and {b} overlap: each packet must have bytes of its own"),
            ));
        }
    }
    Ok((major, minor, entries))
}

fn relocate(e: DecodeError, offset: u64) -> DecodeError {
    DecodeError::new(e.kind(), Location::Offset(offset), e.message().to_string())
}

/// Decodes a TRN or TRX file.
///
/// Every packet is decoded (TRWH, WATR, ASWM; others are kept as bytes); the ASWM walkmesh is
/// inflated with a bound on its declared size. Counts are checked against the bytes left
/// before anything is allocated. Index ranges (vertex, edge, triangle, island indices) are
/// not checked here: that is [`validate`](super::validate)'s job.
///
/// ```
/// use areakit_formats::trx;
/// let bytes = trx::write(&trx::Trx::default()).unwrap();
/// assert_eq!(trx::read(&bytes).unwrap(), trx::Trx::default());
/// ```
pub fn read(data: &[u8]) -> Result<Trx, DecodeError> {
    crate::census::decoded("trx");
    let (version_major, version_minor, entries) = read_packet_table(data)?;
    // Bound the memory of all walkmeshes together, not only each one: the declared sizes of
    // the ASWM packets (payload offset 8) may add up to at most the file's budget.
    let budget = raw::decompressed_budget(data.len());
    let mut declared_total = 0u64;
    for (i, e) in entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.tag == raw::TAG_ASWM)
    {
        let at = e.offset as usize + raw::PACKET_HEADER_SIZE + 8;
        if let Some(b) = data.get(at..at + 4).filter(|_| e.size >= 12) {
            declared_total += u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            if declared_total > budget as u64 {
                return Err(DecodeError::limit_at(
                    at as u64,
                    format!(
                        "packet {i}: the ASWM packets declare {declared_total} decompressed bytes in all, above the {budget} byte limit for a {} byte file (16 MiB + 4 x the file size)",
                        data.len()
                    ),
                ));
            }
        }
    }
    let mut packets = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let start = e.offset as usize + raw::PACKET_HEADER_SIZE;
        let payload = &data[start..start + e.size as usize];
        let ctx = format!(
            "packet {i} {} (payload at file offset {start:#x}; offsets are payload-relative)",
            show_tag(&e.tag)
        );
        let packet = match e.tag {
            raw::TAG_TRWH => read_trwh(payload).map(Packet::Trwh),
            raw::TAG_WATR => read_watr(payload).map(|w| Packet::Watr(Box::new(w))),
            raw::TAG_ASWM => aswm::read_aswm(payload).map(|a| Packet::Aswm(Box::new(a))),
            tag => Ok(Packet::Opaque {
                tag,
                data: payload.to_vec(),
            }),
        }
        .map_err(|err| err.within(ctx))?;
        packets.push(packet);
    }
    Ok(Trx {
        version_major,
        version_minor,
        packets,
        layout: layout_of(data, &entries),
    })
}

/// The layout of a file in the `NWN2` packet container (TRN, TRX, MDB) whose packets do not
/// sit back to back in table order right after the table, or which has bytes after the last
/// packet; `None` for the canonical layout.
pub(crate) fn layout_of(data: &[u8], entries: &[PacketEntry]) -> Option<Layout> {
    let table_end = raw::HEADER_SIZE + entries.len() * raw::PACKET_ENTRY_SIZE;
    let mut next = table_end;
    let canonical = entries.iter().all(|e| {
        let here = e.offset as usize == next;
        next = e.offset as usize + raw::PACKET_HEADER_SIZE + e.size as usize;
        here
    }) && next == data.len();
    if canonical {
        return None;
    }
    let mut spans: Vec<(usize, usize)> = entries
        .iter()
        .map(|e| {
            let start = e.offset as usize;
            (start, start + raw::PACKET_HEADER_SIZE + e.size as usize)
        })
        .collect();
    spans.sort_unstable();
    let mut filler = Vec::new();
    let mut at = table_end;
    for (start, end) in spans.into_iter().chain([(data.len(), data.len())]) {
        if start > at {
            // Offsets fit in u32: they were read as u32 and the file is addressed by them.
            filler.push((at as u32, data[at..start].to_vec()));
        }
        at = at.max(end);
    }
    Some(Layout {
        offsets: entries.iter().map(|e| e.offset).collect(),
        sizes: entries.iter().map(|e| e.size).collect(),
        filler,
        file_len: data.len() as u32,
    })
}

fn expect_end(c: &Cursor<'_>, what: &str) -> Result<(), DecodeError> {
    if c.remaining() != 0 {
        return Err(DecodeError::malformed_at(
            c.pos() as u64,
            format!("{} unexpected bytes after the {what}", c.remaining()),
        ));
    }
    Ok(())
}

fn read_trwh(p: &[u8]) -> Result<Trwh, DecodeError> {
    let mut c = Cursor::new(p);
    let t = Trwh {
        width: c.u32("TRWH width")?,
        height: c.u32("TRWH height")?,
        id: c.u32("TRWH id")?,
    };
    expect_end(&c, "TRWH payload")?;
    Ok(t)
}

fn vec2(c: &mut Cursor<'_>, what: &str) -> Result<[f32; 2], DecodeError> {
    Ok([c.f32(what)?, c.f32(what)?])
}

fn read_watr(p: &[u8]) -> Result<Watr, DecodeError> {
    let mut c = Cursor::new(p);
    let name = c.array("water name")?;
    let unknown = c.array("water unknown block")?;
    let color = c.vec3("water colour")?;
    let ripple = vec2(&mut c, "water ripple")?;
    let smoothness = c.f32("water smoothness")?;
    let reflect_bias = c.f32("water reflection bias")?;
    let reflect_power = c.f32("water reflection power")?;
    let specular_power = c.f32("water specular power")?;
    let specular_coefficient = c.f32("water specular coefficient")?;
    let mut textures = [WaterTexture::default(); 3];
    for t in &mut textures {
        t.name = c.array("water texture name")?;
        t.direction = vec2(&mut c, "water texture direction")?;
        t.rate = c.f32("water texture rate")?;
        t.angle = c.f32("water texture angle")?;
    }
    let uv_offset = vec2(&mut c, "water uv offset")?;
    let nv = c.u32("water vertex count")?;
    let nt = c.u32("water triangle count")?;
    c.check_table(u64::from(nv), 28, "water vertices")?;
    let mut vertices = Vec::with_capacity(nv as usize);
    for _ in 0..nv {
        vertices.push(WaterVertex {
            position: c.vec3("water vertex position")?,
            uv0: vec2(&mut c, "water vertex uv0")?,
            uv1: vec2(&mut c, "water vertex uv1")?,
        });
    }
    c.check_table(u64::from(nt), 10, "water triangles and flags")?;
    let mut triangles = Vec::with_capacity(nt as usize);
    for _ in 0..nt {
        triangles.push([
            c.u16("water triangle vertex")?,
            c.u16("water triangle vertex")?,
            c.u16("water triangle vertex")?,
        ]);
    }
    let mut triangle_flags = Vec::with_capacity(nt as usize);
    for _ in 0..nt {
        triangle_flags.push(c.u32("water triangle flags")?);
    }
    let dds_len = c.u32("water DDS size")?;
    let dds = c.bytes(dds_len as usize, "water DDS image")?.to_vec();
    let megatile = [c.u32("water mega-tile x")?, c.u32("water mega-tile y")?];
    expect_end(&c, "WATR payload")?;
    Ok(Watr {
        name,
        unknown,
        color,
        ripple,
        smoothness,
        reflect_bias,
        reflect_power,
        specular_power,
        specular_coefficient,
        textures,
        uv_offset,
        vertices,
        triangles,
        triangle_flags,
        dds,
        megatile,
    })
}

#[allow(dead_code)]
pub(crate) fn unsupported(offset: u64, msg: impl Into<String>) -> DecodeError {
    DecodeError::new(ErrorKind::Unsupported, Location::Offset(offset), msg)
}
