//! Encoding an [`Erf`] to bytes.

use super::model::{Erf, Layout};
use super::raw;
use crate::cursor::{PutLe, PutMore, assemble};
use crate::error::EncodeError;

pub(crate) fn u32_of(n: usize, what: &str) -> Result<u32, EncodeError> {
    u32::try_from(n).map_err(|_| EncodeError(format!("{what}: {n} does not fit in 32 bits")))
}

/// The 160-byte header.
fn header(
    erf: &Erf,
    strings_size: u32,
    strings_offset: u32,
    keys_offset: u32,
    resources_offset: u32,
) -> Result<Vec<u8>, EncodeError> {
    let h = &erf.header;
    let mut out = Vec::with_capacity(raw::HEADER_SIZE);
    out.extend_from_slice(&h.kind.magic());
    out.extend_from_slice(&raw::VERSION);
    out.put_u32(u32_of(erf.strings.len(), "language count")?);
    out.put_u32(strings_size);
    out.put_u32(u32_of(erf.resources.len(), "entry count")?);
    out.put_u32(strings_offset);
    out.put_u32(keys_offset);
    out.put_u32(resources_offset);
    out.put_u32(h.build_year);
    out.put_u32(h.build_day);
    out.put_u32(h.description_strref);
    out.extend_from_slice(&h.reserved);
    Ok(out)
}

fn strings(erf: &Erf) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    for s in &erf.strings {
        out.put_u32(s.language);
        out.put_u32(u32_of(s.text.len(), "localized string size")?);
        out.extend_from_slice(&s.text);
    }
    Ok(out)
}

fn keys(erf: &Erf) -> Vec<u8> {
    let mut out = Vec::with_capacity(erf.resources.len() * raw::KEY_SIZE);
    for r in &erf.resources {
        out.extend_from_slice(r.resref.as_bytes());
        out.put_u32(r.id);
        out.put_u16(r.restype.0);
        out.put_u16(r.unused);
    }
    out
}

/// Encodes an archive. An archive read from a file keeps its layout ([`Layout`]: table
/// offsets, data ranges, padding, unreferenced bytes) while the layout still holds — the same
/// number of members, each of its original size, and no two pieces disagreeing on a shared
/// byte — so an unmodified archive writes back byte for byte, and one whose members changed
/// in place keeps every other byte. Otherwise the archive is laid out as
/// [`write_canonical`] does.
pub fn write(erf: &Erf) -> Result<Vec<u8>, EncodeError> {
    if let Some(layout) = &erf.layout {
        if let Some(bytes) = write_with_layout(erf, layout)? {
            return Ok(bytes);
        }
    }
    write_canonical(erf)
}

fn write_with_layout(erf: &Erf, l: &Layout) -> Result<Option<Vec<u8>>, EncodeError> {
    if l.ranges.len() != erf.resources.len()
        || l.ranges
            .iter()
            .zip(&erf.resources)
            .any(|(r, res)| r.size as usize != res.data.len())
    {
        return Ok(None);
    }
    let head = header(
        erf,
        l.strings_size,
        l.strings_offset,
        l.keys_offset,
        l.resources_offset,
    )?;
    let strings = strings(erf)?;
    let keys = keys(erf);
    let mut table = Vec::with_capacity(l.ranges.len() * raw::RESOURCE_SIZE);
    for r in &l.ranges {
        table.put_u32(r.offset);
        table.put_u32(r.size);
    }
    let mut pieces: Vec<(u64, &[u8])> = Vec::with_capacity(4 + erf.resources.len() + l.gaps.len());
    pieces.push((0, &head));
    pieces.push((l.strings_offset.into(), &strings));
    if !erf.resources.is_empty() {
        pieces.push((l.keys_offset.into(), &keys));
        pieces.push((l.resources_offset.into(), &table));
    }
    for (r, res) in l.ranges.iter().zip(&erf.resources) {
        pieces.push((r.offset.into(), &res.data));
    }
    for g in &l.gaps {
        pieces.push((g.offset, &g.bytes));
    }
    Ok(assemble(l.len, &pieces))
}

/// Encodes an archive in the canonical layout, whatever layout it was read with: the header,
/// the localized strings at 160, the key list, the resource list, then the data of every
/// member back to back in key-list order, with no padding. This is the layout of every corpus
/// MOD written by the game's tools (76 of 78 readable corpus ERFs come out identical).
pub fn write_canonical(erf: &Erf) -> Result<Vec<u8>, EncodeError> {
    let strings = strings(erf)?;
    let n = erf.resources.len();
    let strings_offset = raw::HEADER_SIZE;
    let keys_offset = strings_offset + strings.len();
    let resources_offset = keys_offset + n * raw::KEY_SIZE;
    let data_offset = resources_offset + n * raw::RESOURCE_SIZE;
    let total = erf
        .resources
        .iter()
        .try_fold(data_offset, |acc, r| acc.checked_add(r.data.len()))
        .filter(|&t| u32::try_from(t).is_ok())
        .ok_or_else(|| EncodeError("the archive would exceed 4 GiB (32-bit offsets)".into()))?;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&header(
        erf,
        u32_of(strings.len(), "localized string size")?,
        u32_of(strings_offset, "offset")?,
        u32_of(keys_offset, "offset")?,
        u32_of(resources_offset, "offset")?,
    )?);
    out.extend_from_slice(&strings);
    out.extend_from_slice(&keys(erf));
    let mut offset = data_offset;
    for r in &erf.resources {
        out.put_u32(u32_of(offset, "offset")?);
        out.put_u32(u32_of(r.data.len(), "size")?);
        offset += r.data.len();
    }
    for r in &erf.resources {
        out.extend_from_slice(&r.data);
    }
    debug_assert_eq!(out.len(), total);
    Ok(out)
}
