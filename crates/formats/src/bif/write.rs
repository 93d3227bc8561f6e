//! Encoding a [`Bif`] to bytes.

use super::model::{Bif, Layout};
use super::raw;
use crate::cursor::{PutLe, assemble};
use crate::erf::{DataRange, u32_of};
use crate::error::EncodeError;

fn stored_type(restype: crate::restype::ResType, high: u16) -> u32 {
    (u32::from(high) << 16) | u32::from(restype.0)
}

fn check_fixed(bif: &Bif) -> Result<(), EncodeError> {
    for (i, f) in bif.fixed.iter().enumerate() {
        if f.data.len() as u64 != u64::from(f.part_count) * u64::from(f.part_size) {
            return Err(EncodeError(format!(
                "fixed resource {i}: {} bytes of data for {} parts of {} bytes",
                f.data.len(),
                f.part_count,
                f.part_size
            )));
        }
    }
    Ok(())
}

/// The header followed by the variable and fixed tables.
fn tables(
    bif: &Bif,
    var_table_offset: u32,
    ranges: &[DataRange],
    fixed_offsets: &[u32],
) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(
        raw::HEADER_SIZE
            + bif.resources.len() * raw::VAR_ENTRY_SIZE
            + bif.fixed.len() * raw::FIXED_ENTRY_SIZE,
    );
    out.extend_from_slice(&raw::MAGIC);
    out.extend_from_slice(&raw::VERSION);
    out.put_u32(u32_of(bif.resources.len(), "variable resource count")?);
    out.put_u32(u32_of(bif.fixed.len(), "fixed resource count")?);
    out.put_u32(var_table_offset);
    let mut t = Vec::with_capacity(out.capacity() - raw::HEADER_SIZE);
    for (r, d) in bif.resources.iter().zip(ranges) {
        t.put_u32(r.id.0);
        t.put_u32(d.offset);
        t.put_u32(d.size);
        t.put_u32(stored_type(r.restype, r.type_high));
    }
    for (f, &off) in bif.fixed.iter().zip(fixed_offsets) {
        t.put_u32(f.id.0);
        t.put_u32(off);
        t.put_u32(f.part_count);
        t.put_u32(f.part_size);
        t.put_u32(stored_type(f.restype, f.type_high));
    }
    out.extend_from_slice(&t);
    Ok(out)
}

/// Encodes a BIF. A BIF read from a file keeps its layout (table offset, data ranges,
/// padding) while it still holds — the same resources, each of its original size, no two
/// pieces disagreeing on a byte — so an unmodified BIF writes back byte for byte; otherwise
/// it is laid out as [`write_canonical`] does.
pub fn write(bif: &Bif) -> Result<Vec<u8>, EncodeError> {
    check_fixed(bif)?;
    if let Some(l) = &bif.layout {
        if let Some(bytes) = write_with_layout(bif, l)? {
            return Ok(bytes);
        }
    }
    write_canonical(bif)
}

fn write_with_layout(bif: &Bif, l: &Layout) -> Result<Option<Vec<u8>>, EncodeError> {
    if l.ranges.len() != bif.resources.len()
        || l.fixed_offsets.len() != bif.fixed.len()
        || l.ranges
            .iter()
            .zip(&bif.resources)
            .any(|(d, r)| d.size as usize != r.data.len())
    {
        return Ok(None);
    }
    let all = tables(bif, l.var_table_offset, &l.ranges, &l.fixed_offsets)?;
    let (head, table) = all.split_at(raw::HEADER_SIZE);
    let mut pieces: Vec<(u64, &[u8])> =
        Vec::with_capacity(2 + bif.resources.len() + bif.fixed.len() + l.gaps.len());
    pieces.push((0, head));
    pieces.push((l.var_table_offset.into(), table));
    for (d, r) in l.ranges.iter().zip(&bif.resources) {
        pieces.push((d.offset.into(), &r.data));
    }
    for (&off, f) in l.fixed_offsets.iter().zip(&bif.fixed) {
        pieces.push((off.into(), &f.data));
    }
    for g in &l.gaps {
        pieces.push((g.offset, &g.bytes));
    }
    Ok(assemble(l.len, &pieces))
}

/// The size [`write_canonical`] gives.
pub fn canonical_len(bif: &Bif) -> u64 {
    (raw::HEADER_SIZE
        + bif.resources.len() * raw::VAR_ENTRY_SIZE
        + bif.fixed.len() * raw::FIXED_ENTRY_SIZE) as u64
        + bif
            .resources
            .iter()
            .map(|r| r.data.len() as u64)
            .sum::<u64>()
        + bif.fixed.iter().map(|f| f.data.len() as u64).sum::<u64>()
}

/// Encodes a BIF in the canonical layout: the header, the variable table at 20, the fixed
/// table, then the data of every variable and then every fixed resource back to back in
/// table order, with no padding.
pub fn write_canonical(bif: &Bif) -> Result<Vec<u8>, EncodeError> {
    check_fixed(bif)?;
    let total = canonical_len(bif);
    if u32::try_from(total).is_err() {
        return Err(EncodeError(format!(
            "{total} bytes do not fit 32-bit offsets"
        )));
    }
    let mut offset = raw::HEADER_SIZE
        + bif.resources.len() * raw::VAR_ENTRY_SIZE
        + bif.fixed.len() * raw::FIXED_ENTRY_SIZE;
    let mut ranges = Vec::with_capacity(bif.resources.len());
    for r in &bif.resources {
        ranges.push(DataRange {
            offset: offset as u32,
            size: r.data.len() as u32,
        });
        offset += r.data.len();
    }
    let mut fixed_offsets = Vec::with_capacity(bif.fixed.len());
    for f in &bif.fixed {
        fixed_offsets.push(offset as u32);
        offset += f.data.len();
    }
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(&tables(
        bif,
        raw::HEADER_SIZE as u32,
        &ranges,
        &fixed_offsets,
    )?);
    for r in &bif.resources {
        out.extend_from_slice(&r.data);
    }
    for f in &bif.fixed {
        out.extend_from_slice(&f.data);
    }
    Ok(out)
}
