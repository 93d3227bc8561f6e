//! Encoding a [`Rim`] to bytes.

use super::model::{Layout, Rim};
use super::raw;
use crate::cursor::{PutLe, PutMore, assemble};
use crate::erf::{DataRange, u32_of};
use crate::error::EncodeError;

fn header(rim: &Rim, keys_offset: u32) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(raw::HEADER_SIZE);
    out.extend_from_slice(&raw::MAGIC);
    out.extend_from_slice(&raw::VERSION);
    out.put_u32(rim.header.unknown);
    out.put_u32(u32_of(rim.resources.len(), "entry count")?);
    out.put_u32(keys_offset);
    out.extend_from_slice(&rim.header.reserved);
    Ok(out)
}

fn keys(rim: &Rim, ranges: impl Iterator<Item = DataRange>) -> Vec<u8> {
    let mut out = Vec::with_capacity(rim.resources.len() * raw::ENTRY_SIZE);
    for (r, d) in rim.resources.iter().zip(ranges) {
        out.extend_from_slice(r.resref.as_bytes());
        out.put_u16(r.restype.0);
        out.put_u16(r.type_high);
        out.put_u32(r.id);
        out.put_u32(d.offset);
        out.put_u32(d.size);
    }
    out
}

/// Encodes a RIM. A RIM read from a file keeps its layout (key-table offset, data ranges,
/// padding) while it still holds — the same number of members, each of its original size, no
/// two pieces disagreeing on a byte — so an unmodified RIM writes back byte for byte;
/// otherwise it is laid out as [`write_canonical`] does.
pub fn write(rim: &Rim) -> Result<Vec<u8>, EncodeError> {
    if let Some(l) = &rim.layout {
        if let Some(bytes) = write_with_layout(rim, l)? {
            return Ok(bytes);
        }
    }
    write_canonical(rim)
}

fn write_with_layout(rim: &Rim, l: &Layout) -> Result<Option<Vec<u8>>, EncodeError> {
    if l.ranges.len() != rim.resources.len()
        || l.ranges
            .iter()
            .zip(&rim.resources)
            .any(|(d, r)| d.size as usize != r.data.len())
    {
        return Ok(None);
    }
    let head = header(rim, l.keys_offset)?;
    let table = keys(rim, l.ranges.iter().copied());
    let mut pieces: Vec<(u64, &[u8])> = Vec::with_capacity(2 + rim.resources.len() + l.gaps.len());
    pieces.push((0, &head));
    pieces.push((l.keys_offset.into(), &table));
    for (d, r) in l.ranges.iter().zip(&rim.resources) {
        pieces.push((d.offset.into(), &r.data));
    }
    for g in &l.gaps {
        pieces.push((g.offset, &g.bytes));
    }
    Ok(assemble(l.len, &pieces))
}

/// Encodes a RIM in the canonical layout: the header, the key table at 120, then every
/// member's data back to back in table order with no padding (the layout of PyKotor's
/// `test.rim`; the game's RIMs pad their members, see `docs/formats/rim.md`).
pub fn write_canonical(rim: &Rim) -> Result<Vec<u8>, EncodeError> {
    let n = rim.resources.len();
    let data_offset = raw::HEADER_SIZE + n * raw::ENTRY_SIZE;
    let mut ranges = Vec::with_capacity(n);
    let mut offset = data_offset;
    for r in &rim.resources {
        ranges.push(DataRange {
            offset: u32_of(offset, "offset")?,
            size: u32_of(r.data.len(), "size")?,
        });
        offset = offset
            .checked_add(r.data.len())
            .filter(|&o| u32::try_from(o).is_ok())
            .ok_or_else(|| EncodeError("the RIM would exceed 4 GiB (32-bit offsets)".into()))?;
    }
    let mut out = Vec::with_capacity(offset);
    out.extend_from_slice(&header(rim, raw::HEADER_SIZE as u32)?);
    out.extend_from_slice(&keys(rim, ranges.into_iter()));
    for r in &rim.resources {
        out.extend_from_slice(&r.data);
    }
    Ok(out)
}
