//! Decoding `KEY V1  ` bytes.

use super::model::{BifEntry, Header, Key, KeyEntry, Layout, ResId};
use super::raw;
use crate::cursor::{CopyBudget, Cursor, check_disjoint, gaps, slice_at};
use crate::erf::{relocate, show};
use crate::error::{DecodeError, ErrorKind, Location};
use crate::restype::{ResRef, ResType};

/// Decodes a KEY.
///
/// Both tables are checked against the input before anything is allocated, and must not
/// overlap the header or each other; every BIF name must lie inside the input (names are
/// copied up to [`raw::COPY_FACTOR`] times the input's size in all). Bytes no table names are
/// kept in the [`Layout`] so that [`write`](super::write) gives back the same bytes. Resource
/// ids are not checked against the file table here: that is [`validate`](super::validate)'s
/// job.
pub fn read(data: &[u8]) -> Result<Key, DecodeError> {
    crate::census::decoded("key");
    let mut c = Cursor::new(data);
    let magic: [u8; 4] = c.array("file type")?;
    if magic != raw::MAGIC {
        return Err(DecodeError::malformed_at(
            0,
            format!("expected \"KEY \", found {}", show(&magic)),
        ));
    }
    let version: [u8; 4] = c.array("version")?;
    if version != raw::VERSION {
        return Err(DecodeError::new(
            ErrorKind::Unsupported,
            Location::Offset(4),
            format!(
                "KEY version {}: only \"V1  \" is read (V1.1 is The Witcher's)",
                show(&version)
            ),
        ));
    }
    let bif_count = c.u32("BIF count")?;
    let key_count = c.u32("key count")?;
    let file_table_offset = c.u32("offset to file table")?;
    let key_table_offset = c.u32("offset to key table")?;
    let build_year = c.u32("build year")?;
    let build_day = c.u32("build day")?;
    let reserved = c.array::<{ raw::RESERVED_SIZE }>("reserved bytes")?;

    let (fo, ko) = (u64::from(file_table_offset), u64::from(key_table_offset));
    let mut files = Cursor::new(data);
    if bif_count > 0 {
        files = Cursor::at(data, file_table_offset as usize, "file table")
            .map_err(|e| relocate(e, 0x10))?;
        files.check_table(
            u64::from(bif_count),
            raw::FILE_ENTRY_SIZE as u64,
            "file table",
        )?;
    }
    let mut keys = Cursor::new(data);
    if key_count > 0 {
        keys = Cursor::at(data, key_table_offset as usize, "key table")
            .map_err(|e| relocate(e, 0x14))?;
        keys.check_table(
            u64::from(key_count),
            raw::KEY_ENTRY_SIZE as u64,
            "key table",
        )?;
    }
    let file_end = fo + u64::from(bif_count) * raw::FILE_ENTRY_SIZE as u64;
    let key_end = ko + u64::from(key_count) * raw::KEY_ENTRY_SIZE as u64;
    check_disjoint(&[
        ("header", 0, raw::HEADER_SIZE as u64),
        ("file table", fo, file_end),
        ("key table", ko, key_end),
    ])?;

    let mut budget = CopyBudget::new(data.len(), raw::COPY_FACTOR);
    let mut covered = vec![(0, raw::HEADER_SIZE as u64), (fo, file_end), (ko, key_end)];
    let mut bifs = Vec::with_capacity(bif_count as usize);
    let mut name_offsets = Vec::with_capacity(bif_count as usize);
    for i in 0..bif_count {
        let at = files.pos() as u64;
        let file_size = files.u32("BIF size")?;
        let name_offset = files.u32("name offset")?;
        let name_size = files.u16("name size")?;
        let drives = files.u16("drives")?;
        let name: &[u8] = if name_size == 0 {
            &[]
        } else {
            budget
                .take(name_size.into(), at + 4, "BIF name")
                .and_then(|()| {
                    slice_at(
                        data,
                        name_offset.into(),
                        name_size.into(),
                        at + 4,
                        "BIF name",
                    )
                })
                .map_err(|e| e.within(format!("BIF {i}")))?
        };
        covered.push((
            name_offset.into(),
            u64::from(name_offset) + u64::from(name_size),
        ));
        name_offsets.push(name_offset);
        bifs.push(BifEntry {
            file_size,
            name: name.to_vec(),
            drives,
        });
    }
    let mut entries = Vec::with_capacity(key_count as usize);
    for _ in 0..key_count {
        let resref = ResRef(keys.array("resref")?);
        let restype = ResType(keys.u16("resource type")?);
        let id = ResId(keys.u32("resource id")?);
        entries.push(KeyEntry {
            resref,
            restype,
            id,
        });
    }
    Ok(Key {
        header: Header {
            build_year,
            build_day,
            reserved,
        },
        bifs,
        keys: entries,
        layout: Some(Layout {
            file_table_offset,
            key_table_offset,
            name_offsets,
            gaps: gaps(data, &mut covered),
            len: data.len() as u64,
        }),
    })
}
