//! Decoding `BIFFV1  `: the table-only [`BifIndex`] (from a byte slice, or from a file
//! through `Read + Seek` reading the header and tables only) and the owned [`Bif`].

use std::io::{Read, Seek, SeekFrom};

use super::model::{Bif, BifResource, FixedResource, Layout};
use super::raw;
use crate::cursor::{CopyBudget, StreamError, check_disjoint, gaps, read_exact_at};
use crate::erf::{DataRange, show};
use crate::error::{DecodeError, ErrorKind, Location};
use crate::key::ResId;
use crate::restype::ResType;

/// A variable-table entry as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VarEntry {
    /// The stored id.
    pub id: ResId,
    /// Data offset.
    pub offset: u32,
    /// Data size.
    pub size: u32,
    /// Type (low half of the stored `u32`).
    pub restype: ResType,
    /// High half of the stored type.
    pub type_high: u16,
}

/// A fixed-table entry as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedEntry {
    /// The stored id.
    pub id: ResId,
    /// Data offset.
    pub offset: u32,
    /// Number of parts.
    pub part_count: u32,
    /// Bytes per part.
    pub part_size: u32,
    /// Type (low half of the stored `u32`).
    pub restype: ResType,
    /// High half of the stored type.
    pub type_high: u16,
}

impl FixedEntry {
    /// The data size: `part_count * part_size`.
    pub fn size(&self) -> u64 {
        u64::from(self.part_count) * u64::from(self.part_size)
    }
}

/// A BIF's header and tables without its data: what resolving a KEY entry needs. Every
/// entry's data range is checked to lie inside the file.
///
/// ```
/// use areakit_formats::bif::{self, Bif, BifIndex};
/// use areakit_formats::restype::ResType;
/// let b = Bif::from_resources(0, [(ResType::TWO_DA, b"2DA V2.b".to_vec())]).unwrap();
/// let mut file = std::io::Cursor::new(bif::write(&b).unwrap());
/// let index = BifIndex::read(&mut file).unwrap();
/// assert_eq!(index.read_resource(&mut file, 0).unwrap(), b"2DA V2.b");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BifIndex {
    /// Offset of the variable table.
    pub var_table_offset: u32,
    /// The variable resources (the KEY's resource index is the position here).
    pub resources: Vec<VarEntry>,
    /// The fixed resources.
    pub fixed: Vec<FixedEntry>,
    /// The file's length.
    pub file_len: u64,
}

/// Checks the 20-byte header; returns the counts and the variable-table offset.
fn header(head: &[u8]) -> Result<(u32, u32, u32), DecodeError> {
    let field = |at: usize, what: &str| -> Result<[u8; 4], DecodeError> {
        head.get(at..at + 4)
            .map(|b| [b[0], b[1], b[2], b[3]])
            .ok_or_else(|| {
                DecodeError::malformed_at(
                    at as u64,
                    format!(
                        "expected {what} (4 bytes), but the input has {} bytes",
                        head.len()
                    ),
                )
            })
    };
    let magic = field(0, "file type")?;
    if &magic == b"BZF " {
        return Err(DecodeError::new(
            ErrorKind::Unsupported,
            Location::Offset(0),
            "a BZF (LZMA-compressed BIF of KotOR's mobile ports): only BIFF is read",
        ));
    }
    if magic != raw::MAGIC {
        return Err(DecodeError::malformed_at(
            0,
            format!("expected \"BIFF\", found {}", show(&magic)),
        ));
    }
    let version = field(4, "version")?;
    if version != raw::VERSION {
        return Err(DecodeError::new(
            ErrorKind::Unsupported,
            Location::Offset(4),
            format!(
                "BIF version {}: only \"V1  \" is read (V1.1 is The Witcher's)",
                show(&version)
            ),
        ));
    }
    let var = u32::from_le_bytes(field(8, "variable resource count")?);
    let fixed = u32::from_le_bytes(field(12, "fixed resource count")?);
    let off = u32::from_le_bytes(field(16, "offset to variable resource table")?);
    Ok((var, fixed, off))
}

/// The tables' length, checked against the file before anything is allocated.
fn tables_len(var: u32, fixed: u32, off: u32, file_len: u64) -> Result<u64, DecodeError> {
    let len = u64::from(var) * raw::VAR_ENTRY_SIZE as u64
        + u64::from(fixed) * raw::FIXED_ENTRY_SIZE as u64;
    if len == 0 {
        return Ok(0);
    }
    let off = u64::from(off);
    if off + len > file_len {
        return Err(DecodeError::malformed_at(
            16,
            format!(
                "{var} variable and {fixed} fixed resource entries need {len} bytes at offset {off:#x}, but the file has {file_len} bytes"
            ),
        ));
    }
    check_disjoint(&[
        ("header", 0, raw::HEADER_SIZE as u64),
        ("resource tables", off, off + len),
    ])?;
    Ok(len)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Parses the tables (`tables` holds exactly [`tables_len`] bytes read at `off`).
fn entries(
    tables: &[u8],
    var: u32,
    off: u32,
    file_len: u64,
) -> Result<(Vec<VarEntry>, Vec<FixedEntry>), DecodeError> {
    let var_len = var as usize * raw::VAR_ENTRY_SIZE;
    let (vt, ft) = tables.split_at(var_len);
    let mut resources = Vec::with_capacity(var as usize);
    for (i, r) in vt.chunks_exact(raw::VAR_ENTRY_SIZE).enumerate() {
        let ty = u32_at(r, 12);
        let e = VarEntry {
            id: ResId(u32_at(r, 0)),
            offset: u32_at(r, 4),
            size: u32_at(r, 8),
            restype: ResType(ty as u16),
            type_high: (ty >> 16) as u16,
        };
        if e.size > 0 && u64::from(e.offset) + u64::from(e.size) > file_len {
            let at = u64::from(off) + (i * raw::VAR_ENTRY_SIZE) as u64 + 4;
            return Err(DecodeError::malformed_at(
                at,
                format!(
                    "data: {} bytes at offset {:#x} run past the end of the file ({file_len} bytes)",
                    e.size, e.offset
                ),
            )
            .within(format!("resource {i} (type {})", e.restype)));
        }
        resources.push(e);
    }
    let mut fixed = Vec::with_capacity(ft.len() / raw::FIXED_ENTRY_SIZE);
    for (i, r) in ft.chunks_exact(raw::FIXED_ENTRY_SIZE).enumerate() {
        let ty = u32_at(r, 16);
        let e = FixedEntry {
            id: ResId(u32_at(r, 0)),
            offset: u32_at(r, 4),
            part_count: u32_at(r, 8),
            part_size: u32_at(r, 12),
            restype: ResType(ty as u16),
            type_high: (ty >> 16) as u16,
        };
        if e.size() > 0 && u64::from(e.offset) + e.size() > file_len {
            let at = u64::from(off) + (var_len + i * raw::FIXED_ENTRY_SIZE) as u64 + 4;
            return Err(DecodeError::malformed_at(
                at,
                format!(
                    "data: {} parts of {} bytes at offset {:#x} run past the end of the file ({file_len} bytes)",
                    e.part_count, e.part_size, e.offset
                ),
            )
            .within(format!("fixed resource {i} (type {})", e.restype)));
        }
        fixed.push(e);
    }
    Ok((resources, fixed))
}

impl BifIndex {
    /// Reads the header and tables of a BIF in memory.
    pub fn parse(data: &[u8]) -> Result<BifIndex, DecodeError> {
        crate::census::decoded("bif");
        let (var, fixed, off) = header(data)?;
        let file_len = data.len() as u64;
        let len = tables_len(var, fixed, off, file_len)?;
        let tables = if len == 0 {
            &[][..]
        } else {
            &data[off as usize..(u64::from(off) + len) as usize]
        };
        let (resources, fixed) = entries(tables, var, off, file_len)?;
        Ok(BifIndex {
            var_table_offset: off,
            resources,
            fixed,
            file_len,
        })
    }

    /// Reads the header and tables of a BIF through `r` (e.g. a multi-gigabyte file): one
    /// seek to the end for the length, one read of the 20-byte header and one of the tables.
    /// Nothing else is read, and the tables are checked against the length before their
    /// buffer is allocated.
    pub fn read<R: Read + Seek>(r: &mut R) -> Result<BifIndex, StreamError> {
        let file_len = r.seek(SeekFrom::End(0))?;
        let head = read_exact_at(r, 0, file_len.min(raw::HEADER_SIZE as u64) as usize)?;
        let (var, fixed, off) = header(&head)?;
        let len = tables_len(var, fixed, off, file_len)?;
        let tables = if len == 0 {
            Vec::new()
        } else {
            read_exact_at(r, off.into(), len as usize)?
        };
        let (resources, fixed) = entries(&tables, var, off, file_len)?;
        Ok(BifIndex {
            var_table_offset: off,
            resources,
            fixed,
            file_len,
        })
    }

    /// Reads variable resource `index` through `r` (the file this index was read from): one
    /// positioned read of its size. An index out of range is a decode error.
    pub fn read_resource<R: Read + Seek>(
        &self,
        r: &mut R,
        index: usize,
    ) -> Result<Vec<u8>, StreamError> {
        let e = self.resources.get(index).ok_or_else(|| {
            DecodeError::new(
                ErrorKind::Malformed,
                Location::Input,
                format!(
                    "resource index {index}: the BIF has {} variable resources",
                    self.resources.len()
                ),
            )
        })?;
        if e.size == 0 {
            return Ok(Vec::new());
        }
        Ok(read_exact_at(r, e.offset.into(), e.size as usize)?)
    }

    /// The data of variable resource `index` in `file` (the bytes this index was parsed
    /// from).
    pub fn data<'a>(&self, file: &'a [u8], index: usize) -> Option<&'a [u8]> {
        let e = self.resources.get(index)?;
        if e.size == 0 {
            return Some(&[]);
        }
        file.get(e.offset as usize..e.offset as usize + e.size as usize)
    }
}

/// Decodes a whole BIF in memory with every resource's data (for a large BIF on disk, use
/// [`BifIndex::read`] and [`BifIndex::read_resource`]).
///
/// The tables are checked against the input before anything is allocated; a resource whose
/// data lies outside the input is an error naming it. Data ranges may overlap (copied as
/// named, up to [`raw::COPY_FACTOR`] times the input's size in all). Bytes no table names are
/// kept in the [`Layout`] so that [`write`](super::write) gives back the same bytes.
pub fn read(data: &[u8]) -> Result<Bif, DecodeError> {
    let index = BifIndex::parse(data)?;
    let off = u64::from(index.var_table_offset);
    let mut budget = CopyBudget::new(data.len(), raw::COPY_FACTOR);
    let mut covered = vec![(0, raw::HEADER_SIZE as u64)];
    let tables = (index.resources.len() * raw::VAR_ENTRY_SIZE
        + index.fixed.len() * raw::FIXED_ENTRY_SIZE) as u64;
    covered.push((off, off + tables));
    let mut resources = Vec::with_capacity(index.resources.len());
    let mut ranges = Vec::with_capacity(index.resources.len());
    for (i, e) in index.resources.iter().enumerate() {
        let at = off + (i * raw::VAR_ENTRY_SIZE) as u64 + 8;
        budget
            .take(e.size.into(), at, "data")
            .map_err(|err| err.within(format!("resource {i} (type {})", e.restype)))?;
        covered.push((e.offset.into(), u64::from(e.offset) + u64::from(e.size)));
        ranges.push(DataRange {
            offset: e.offset,
            size: e.size,
        });
        resources.push(BifResource {
            id: e.id,
            restype: e.restype,
            type_high: e.type_high,
            data: index.data(data, i).unwrap_or_default().to_vec(),
        });
    }
    let mut fixed = Vec::with_capacity(index.fixed.len());
    let mut fixed_offsets = Vec::with_capacity(index.fixed.len());
    let var_len = (index.resources.len() * raw::VAR_ENTRY_SIZE) as u64;
    for (i, e) in index.fixed.iter().enumerate() {
        let at = off + var_len + (i * raw::FIXED_ENTRY_SIZE) as u64 + 8;
        let size = e.size();
        budget
            .take(size, at, "data")
            .map_err(|err| err.within(format!("fixed resource {i} (type {})", e.restype)))?;
        let start = u64::from(e.offset);
        covered.push((start, start + size));
        let bytes = if size == 0 {
            Vec::new()
        } else {
            data[start as usize..(start + size) as usize].to_vec()
        };
        fixed_offsets.push(e.offset);
        fixed.push(FixedResource {
            id: e.id,
            part_count: e.part_count,
            part_size: e.part_size,
            restype: e.restype,
            type_high: e.type_high,
            data: bytes,
        });
    }
    Ok(Bif {
        resources,
        fixed,
        layout: Some(Layout {
            var_table_offset: index.var_table_offset,
            ranges,
            fixed_offsets,
            gaps: gaps(data, &mut covered),
            len: data.len() as u64,
        }),
    })
}
