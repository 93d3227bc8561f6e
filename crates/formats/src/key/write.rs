//! Encoding a [`Key`] to bytes.

use super::model::{Key, Layout, name_size};
use super::raw;
use crate::cursor::{PutLe, PutMore, assemble};
use crate::erf::u32_of;
use crate::error::EncodeError;

fn header(
    key: &Key,
    file_table_offset: u32,
    key_table_offset: u32,
) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(raw::HEADER_SIZE);
    out.extend_from_slice(&raw::MAGIC);
    out.extend_from_slice(&raw::VERSION);
    out.put_u32(u32_of(key.bifs.len(), "BIF count")?);
    out.put_u32(u32_of(key.keys.len(), "key count")?);
    out.put_u32(file_table_offset);
    out.put_u32(key_table_offset);
    out.put_u32(key.header.build_year);
    out.put_u32(key.header.build_day);
    out.extend_from_slice(&key.header.reserved);
    Ok(out)
}

fn file_table(key: &Key, name_offsets: &[u32]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(key.bifs.len() * raw::FILE_ENTRY_SIZE);
    for (b, &off) in key.bifs.iter().zip(name_offsets) {
        out.put_u32(b.file_size);
        out.put_u32(off);
        out.put_u16(name_size(b)?);
        out.put_u16(b.drives);
    }
    Ok(out)
}

fn key_table(key: &Key) -> Vec<u8> {
    let mut out = Vec::with_capacity(key.keys.len() * raw::KEY_ENTRY_SIZE);
    for k in &key.keys {
        out.extend_from_slice(k.resref.as_bytes());
        out.put_u16(k.restype.0);
        out.put_u32(k.id.0);
    }
    out
}

/// Encodes a KEY. A KEY read from a file keeps its layout (table offsets, name offsets,
/// unreferenced bytes) while it still holds — the same number of BIFs and no two pieces
/// disagreeing on a byte — so an unmodified KEY writes back byte for byte; otherwise it is
/// laid out as [`write_canonical`] does.
pub fn write(key: &Key) -> Result<Vec<u8>, EncodeError> {
    if let Some(l) = &key.layout {
        if let Some(bytes) = write_with_layout(key, l)? {
            return Ok(bytes);
        }
    }
    write_canonical(key)
}

fn write_with_layout(key: &Key, l: &Layout) -> Result<Option<Vec<u8>>, EncodeError> {
    if l.name_offsets.len() != key.bifs.len() {
        return Ok(None);
    }
    let head = header(key, l.file_table_offset, l.key_table_offset)?;
    let files = file_table(key, &l.name_offsets)?;
    let keys = key_table(key);
    let mut pieces: Vec<(u64, &[u8])> = Vec::with_capacity(3 + key.bifs.len() + l.gaps.len());
    pieces.push((0, &head));
    pieces.push((l.file_table_offset.into(), &files));
    pieces.push((l.key_table_offset.into(), &keys));
    for (b, &off) in key.bifs.iter().zip(&l.name_offsets) {
        pieces.push((off.into(), &b.name));
    }
    for g in &l.gaps {
        pieces.push((g.offset, &g.bytes));
    }
    Ok(assemble(l.len, &pieces))
}

/// Encodes a KEY in the canonical layout: the header, the file table at 64, the BIF names
/// back to back (as stored: [`BifEntry::new`](super::BifEntry::new) adds the NUL), then the
/// key table.
pub fn write_canonical(key: &Key) -> Result<Vec<u8>, EncodeError> {
    let files_len = key.bifs.len() * raw::FILE_ENTRY_SIZE;
    let names_offset = raw::HEADER_SIZE + files_len;
    let mut name_offsets = Vec::with_capacity(key.bifs.len());
    let mut offset = names_offset;
    for b in &key.bifs {
        name_offsets.push(u32_of(offset, "name offset")?);
        offset += b.name.len();
    }
    let key_table_offset = offset;
    let total = key_table_offset + key.keys.len() * raw::KEY_ENTRY_SIZE;
    u32_of(total, "KEY size")?;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&header(
        key,
        raw::HEADER_SIZE as u32,
        u32_of(key_table_offset, "offset")?,
    )?);
    out.extend_from_slice(&file_table(key, &name_offsets)?);
    for b in &key.bifs {
        out.extend_from_slice(&b.name);
    }
    out.extend_from_slice(&key_table(key));
    Ok(out)
}
