//! Decoding RIM bytes: the table-only [`RimIndex`] and the owned [`Rim`].

use super::model::{Header, Layout, Resource, Rim};
use super::raw;
use crate::cursor::{CopyBudget, Cursor, check_disjoint, gaps, slice_at};
use crate::erf::{DataRange, relocate, show};
use crate::error::{DecodeError, ErrorKind, Location};
use crate::restype::{ResRef, ResType};

/// One key entry as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Name.
    pub resref: ResRef,
    /// Type (low half of the stored `u32`).
    pub restype: ResType,
    /// High half of the stored type.
    pub type_high: u16,
    /// Resource id.
    pub id: u32,
    /// Data offset.
    pub offset: u32,
    /// Data size.
    pub size: u32,
}

impl Entry {
    /// `name.ext`.
    pub fn file_name(&self) -> String {
        self.resref.file_name(self.restype)
    }
}

/// A RIM's header and key table without its data. Every entry's data range is checked to lie
/// inside the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RimIndex {
    /// Header fields.
    pub header: Header,
    /// Offset of the key table.
    pub keys_offset: u32,
    /// Entries in table order.
    pub entries: Vec<Entry>,
}

impl RimIndex {
    /// Reads the header and the key table of `data` (no resource data is copied).
    pub fn parse(data: &[u8]) -> Result<RimIndex, DecodeError> {
        crate::census::decoded("rim");
        let mut c = Cursor::new(data);
        let magic: [u8; 4] = c.array("file type")?;
        if magic != raw::MAGIC {
            return Err(DecodeError::malformed_at(
                0,
                format!("expected \"RIM \", found {}", show(&magic)),
            ));
        }
        let version: [u8; 4] = c.array("version")?;
        if version != raw::VERSION {
            return Err(DecodeError::new(
                ErrorKind::Unsupported,
                Location::Offset(4),
                format!("RIM version {}: only V1.0 is read", show(&version)),
            ));
        }
        let unknown = c.u32("unknown word")?;
        let count = c.u32("entry count")?;
        let keys_offset = c.u32("offset to key table")?;
        let reserved = c.array::<{ raw::RESERVED_SIZE }>("reserved bytes")?;
        let mut keys = Cursor::new(data);
        if count > 0 {
            keys = Cursor::at(data, keys_offset as usize, "key table")
                .map_err(|e| relocate(e, 0x10))?;
            keys.check_table(u64::from(count), raw::ENTRY_SIZE as u64, "key table")?;
            let ko = u64::from(keys_offset);
            check_disjoint(&[
                ("header", 0, raw::HEADER_SIZE as u64),
                (
                    "key table",
                    ko,
                    ko + u64::from(count) * raw::ENTRY_SIZE as u64,
                ),
            ])?;
        }
        let mut entries = Vec::with_capacity(count as usize);
        for i in 0..count {
            let resref = ResRef(keys.array("resref")?);
            let restype = ResType(keys.u16("resource type")?);
            let type_high = keys.u16("resource type (high half)")?;
            let id = keys.u32("resource id")?;
            let at = keys.pos() as u64;
            let offset = keys.u32("resource offset")?;
            let size = keys.u32("resource size")?;
            if size > 0 {
                slice_at(data, offset.into(), size.into(), at, "data")
                    .map_err(|e| e.within(format!("entry {i} ({})", resref.file_name(restype))))?;
            }
            entries.push(Entry {
                resref,
                restype,
                type_high,
                id,
                offset,
                size,
            });
        }
        Ok(RimIndex {
            header: Header { unknown, reserved },
            keys_offset,
            entries,
        })
    }

    /// The data of entry `i` in `file` (the bytes this index was parsed from).
    pub fn data<'a>(&self, file: &'a [u8], i: usize) -> Option<&'a [u8]> {
        let e = self.entries.get(i)?;
        if e.size == 0 {
            return Some(&[]);
        }
        file.get(e.offset as usize..e.offset as usize + e.size as usize)
    }

    /// The index of the first entry named `name` (ASCII case-insensitive) of type `restype`.
    pub fn find(&self, name: &str, restype: ResType) -> Option<usize> {
        self.entries
            .iter()
            .position(|e| e.restype == restype && e.resref.eq_ignore_case(name))
    }
}

/// Decodes a `RIM V1.0` with every member's data.
///
/// The key table is checked against the input before anything is allocated; an entry whose
/// data lies outside the input is an error naming the entry. Data ranges may overlap (copied
/// as named, up to [`raw::COPY_FACTOR`] times the input's size in all). The padding real RIMs
/// carry between and after their members is kept in the [`Layout`], so that
/// [`write`](super::write) gives back the same bytes.
pub fn read(data: &[u8]) -> Result<Rim, DecodeError> {
    let index = RimIndex::parse(data)?;
    let n = index.entries.len() as u64;
    let mut budget = CopyBudget::new(data.len(), raw::COPY_FACTOR);
    let mut covered = Vec::with_capacity(index.entries.len() + 2);
    covered.push((0, raw::HEADER_SIZE as u64));
    if n > 0 {
        let ko = u64::from(index.keys_offset);
        covered.push((ko, ko + n * raw::ENTRY_SIZE as u64));
    }
    let mut resources = Vec::with_capacity(index.entries.len());
    let mut ranges = Vec::with_capacity(index.entries.len());
    for (i, e) in index.entries.iter().enumerate() {
        let at = u64::from(index.keys_offset) + (i * raw::ENTRY_SIZE) as u64 + 24;
        budget
            .take(e.size.into(), at, "data")
            .map_err(|err| err.within(format!("entry {i} ({})", e.file_name())))?;
        covered.push((e.offset.into(), u64::from(e.offset) + u64::from(e.size)));
        ranges.push(DataRange {
            offset: e.offset,
            size: e.size,
        });
        resources.push(Resource {
            resref: e.resref,
            restype: e.restype,
            type_high: e.type_high,
            id: e.id,
            data: index.data(data, i).unwrap_or_default().to_vec(),
        });
    }
    Ok(Rim {
        header: index.header,
        resources,
        layout: Some(Layout {
            keys_offset: index.keys_offset,
            ranges,
            gaps: gaps(data, &mut covered),
            len: data.len() as u64,
        }),
    })
}
