//! Decoding ERF-family bytes: the table-only [`ErfIndex`] and the owned [`Erf`].

use super::model::{DataRange, Erf, ErfKind, Header, Layout, LocalizedString, Resource};
use super::raw;
use crate::cursor::{CopyBudget, Cursor, check_disjoint, gaps, slice_at};
use crate::error::{DecodeError, ErrorKind, Location};
use crate::restype::{ResRef, ResType};

/// One key-list entry with its resource-list range, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Name.
    pub resref: ResRef,
    /// Type.
    pub restype: ResType,
    /// Resource id.
    pub id: u32,
    /// The unused `u16` after the type.
    pub unused: u16,
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

/// An archive's header and tables without its data: what listing a capsule needs. Every
/// entry's data range is checked to lie inside the input, so [`ErfIndex::data`] on the same
/// bytes always succeeds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErfIndex {
    /// Header fields.
    pub header: Header,
    /// Offset of the localized strings.
    pub strings_offset: u32,
    /// The localized strings' size as stated by the header.
    pub strings_size: u32,
    /// Offset of the key list.
    pub keys_offset: u32,
    /// Offset of the resource list.
    pub resources_offset: u32,
    /// Localized descriptions.
    pub strings: Vec<LocalizedString>,
    /// Bytes the localized strings took (may differ from `strings_size`).
    pub strings_read: u32,
    /// Entries in key-list order.
    pub entries: Vec<Entry>,
}

impl ErfIndex {
    /// Reads the header and tables of `data` (no resource data is copied).
    pub fn parse(data: &[u8]) -> Result<ErfIndex, DecodeError> {
        crate::census::decoded("erf");
        ErfIndex::parse_tables(data, data.len() as u64)
    }

    /// Reads the header and tables through `r` (a capsule too large to hold: a game's texture
    /// pack): the header, then the bytes up to the end of the last table, each entry's data
    /// range checked against the stream's length. Read members with [`ErfIndex::read_data`].
    pub fn read<R: std::io::Read + std::io::Seek>(
        r: &mut R,
    ) -> Result<ErfIndex, crate::cursor::StreamError> {
        use crate::cursor::read_exact_at;
        let file_len = r.seek(std::io::SeekFrom::End(0))?;
        let head = read_exact_at(r, 0, file_len.min(raw::HEADER_SIZE as u64) as usize)?;
        let word = |o: usize| {
            head.get(o..o + 4).map_or(0, |b| {
                u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            })
        };
        let n = word(0x10);
        let end = [
            raw::HEADER_SIZE as u64,
            word(0x14) + word(0x0c),
            word(0x18) + n * raw::KEY_SIZE as u64,
            word(0x1c) + n * raw::RESOURCE_SIZE as u64,
        ]
        .into_iter()
        .max()
        .unwrap_or(0)
        .min(file_len);
        // The localized strings may run past their stated size: read on (doubling) until the
        // tables decode or the whole file is read.
        let mut end = end;
        loop {
            let prefix = read_exact_at(r, 0, end as usize)?;
            match ErfIndex::parse_tables(&prefix, file_len) {
                Err(_) if end < file_len => end = (end * 2 + 4096).min(file_len),
                result => return Ok(result?),
            }
        }
    }

    /// The data of entry `i` read through `r` (the stream this index was read from).
    pub fn read_data<R: std::io::Read + std::io::Seek>(
        &self,
        r: &mut R,
        i: usize,
    ) -> Result<Vec<u8>, crate::cursor::StreamError> {
        let e = self.entries.get(i).ok_or_else(|| {
            DecodeError::new(
                ErrorKind::Malformed,
                Location::Input,
                format!("entry {i}: the capsule has {} entries", self.entries.len()),
            )
        })?;
        if e.size == 0 {
            return Ok(Vec::new());
        }
        Ok(crate::cursor::read_exact_at(
            r,
            e.offset.into(),
            e.size as usize,
        )?)
    }

    /// [`ErfIndex::parse`] of `data`, the first bytes (at least the header and tables) of a
    /// file of `file_len` bytes: entries' data is checked against `file_len`.
    fn parse_tables(data: &[u8], file_len: u64) -> Result<ErfIndex, DecodeError> {
        let mut c = Cursor::new(data);
        let magic: [u8; 4] = c.array("file type")?;
        let version: [u8; 4] = c.array("version")?;
        let kind = check_magic(magic, version)?;
        let language_count = c.u32("language count")?;
        let strings_size = c.u32("localized string size")?;
        let entry_count = c.u32("entry count")?;
        let strings_offset = c.u32("offset to localized strings")?;
        let keys_offset = c.u32("offset to key list")?;
        let resources_offset = c.u32("offset to resource list")?;
        let build_year = c.u32("build year")?;
        let build_day = c.u32("build day")?;
        let description_strref = c.u32("description string reference")?;
        let reserved = c.array::<{ raw::RESERVED_SIZE }>("reserved bytes")?;
        let header = Header {
            kind,
            build_year,
            build_day,
            description_strref,
            reserved,
        };

        // Localized strings: a u32 language and a u32 size, then the text, back to back.
        let mut strings = Vec::new();
        let mut strings_read = 0u32;
        if language_count > 0 {
            let mut s = Cursor::at(data, strings_offset as usize, "localized strings")
                .map_err(|e| relocate(e, 0x14))?;
            s.check_table(
                u64::from(language_count),
                raw::STRING_HEADER_SIZE as u64,
                "localized strings",
            )?;
            strings.reserve(language_count as usize);
            for i in 0..language_count {
                let string = (|| {
                    let language = s.u32("language id")?;
                    let size = s.u32("string size")?;
                    let text = s.bytes(size as usize, "string text")?.to_vec();
                    Ok(LocalizedString { language, text })
                })()
                .map_err(|e: DecodeError| e.within(format!("localized string {i}")))?;
                strings.push(string);
            }
            strings_read = (s.pos() - strings_offset as usize) as u32;
        }

        let n = u64::from(entry_count);
        let mut keys = Cursor::new(data);
        let mut res = Cursor::new(data);
        if entry_count > 0 {
            keys = Cursor::at(data, keys_offset as usize, "key list")
                .map_err(|e| relocate(e, 0x18))?;
            keys.check_table(n, raw::KEY_SIZE as u64, "key list")?;
            res = Cursor::at(data, resources_offset as usize, "resource list")
                .map_err(|e| relocate(e, 0x1C))?;
            res.check_table(n, raw::RESOURCE_SIZE as u64, "resource list")?;
        }
        let (so, ko, ro) = (
            u64::from(strings_offset),
            u64::from(keys_offset),
            u64::from(resources_offset),
        );
        let tables_n = if entry_count > 0 { n } else { 0 };
        check_disjoint(&[
            ("header", 0, raw::HEADER_SIZE as u64),
            ("localized strings", so, so + u64::from(strings_read)),
            ("key list", ko, ko + tables_n * raw::KEY_SIZE as u64),
            (
                "resource list",
                ro,
                ro + tables_n * raw::RESOURCE_SIZE as u64,
            ),
        ])?;
        let mut entries = Vec::with_capacity(entry_count as usize);
        for i in 0..entry_count {
            let resref = ResRef(keys.array("resref")?);
            let id = keys.u32("resource id")?;
            let restype = ResType(keys.u16("resource type")?);
            let unused = keys.u16("unused")?;
            let at = res.pos() as u64;
            let offset = res.u32("resource offset")?;
            let size = res.u32("resource size")?;
            if size > 0 {
                if file_len == data.len() as u64 {
                    slice_at(data, offset.into(), size.into(), at, "data").map_err(|e| {
                        e.within(format!("entry {i} ({})", resref.file_name(restype)))
                    })?;
                } else if u64::from(offset) + u64::from(size) > file_len {
                    return Err(DecodeError::malformed_at(
                        at,
                        format!(
                            "data at {offset:#x}, {size} bytes, runs past the end of the file ({file_len} bytes)"
                        ),
                    )
                    .within(format!("entry {i} ({})", resref.file_name(restype))));
                }
            }
            entries.push(Entry {
                resref,
                restype,
                id,
                unused,
                offset,
                size,
            });
        }
        Ok(ErfIndex {
            header,
            strings_offset,
            strings_size,
            keys_offset,
            resources_offset,
            strings,
            strings_read,
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

fn check_magic(magic: [u8; 4], version: [u8; 4]) -> Result<ErfKind, DecodeError> {
    let Some(kind) = ErfKind::from_magic(magic) else {
        let utf16 = [b"ERF ", b"MOD ", b"SAV ", b"HAK "]
            .iter()
            .any(|m| magic == [m[0], 0, m[1], 0]);
        if utf16 {
            return Err(DecodeError::new(
                ErrorKind::Unsupported,
                Location::Offset(0),
                "a UTF-16 ERF header (Dragon Age ERF V2.0 and later): only V1.0 is read",
            ));
        }
        return Err(DecodeError::malformed_at(
            0,
            format!(
                "expected \"ERF \", \"MOD \", \"SAV \" or \"HAK \", found {}",
                show(&magic)
            ),
        ));
    };
    if version != raw::VERSION {
        return Err(DecodeError::new(
            ErrorKind::Unsupported,
            Location::Offset(4),
            format!(
                "{} version {}: only V1.0 is read (V1.1 is NWN2's and NWN premium modules')",
                show(&magic),
                show(&version)
            ),
        ));
    }
    Ok(kind)
}

/// A four-byte tag as text, or as hex when it is not printable.
pub(crate) fn show(tag: &[u8; 4]) -> String {
    if tag.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        format!("\"{}\"", String::from_utf8_lossy(tag))
    } else {
        format!("0x{:02x}{:02x}{:02x}{:02x}", tag[0], tag[1], tag[2], tag[3])
    }
}

/// The same error located at the header field that holds the bad offset.
pub(crate) fn relocate(e: DecodeError, field: u64) -> DecodeError {
    DecodeError::new(e.kind(), Location::Offset(field), e.message().to_string())
}

/// Decodes an ERF, MOD, SAV or HAK (`V1.0`) with every member's data.
///
/// The tables are checked against the input before anything is allocated; an entry whose data
/// lies outside the input is an error naming the entry (`entry 12 (m13aa.git): ...`). Data
/// ranges may overlap one another or the tables (they are copied as named, up to
/// [`raw::COPY_FACTOR`] times the input's size in all). Bytes no table names are kept in the
/// [`Layout`] so that [`write`](super::write) gives back the same bytes.
pub fn read(data: &[u8]) -> Result<Erf, DecodeError> {
    let index = ErfIndex::parse(data)?;
    let mut budget = CopyBudget::new(data.len(), raw::COPY_FACTOR);
    let mut resources = Vec::with_capacity(index.entries.len());
    let mut covered: Vec<(u64, u64)> = Vec::with_capacity(index.entries.len() + 4);
    let n = index.entries.len() as u64;
    covered.push((0, raw::HEADER_SIZE as u64));
    covered.push((
        index.strings_offset.into(),
        u64::from(index.strings_offset) + u64::from(index.strings_read),
    ));
    if n > 0 {
        covered.push((
            index.keys_offset.into(),
            u64::from(index.keys_offset) + n * raw::KEY_SIZE as u64,
        ));
        covered.push((
            index.resources_offset.into(),
            u64::from(index.resources_offset) + n * raw::RESOURCE_SIZE as u64,
        ));
    }
    let mut ranges = Vec::with_capacity(index.entries.len());
    for (i, e) in index.entries.iter().enumerate() {
        let at = u64::from(index.resources_offset) + i as u64 * raw::RESOURCE_SIZE as u64;
        budget
            .take(e.size.into(), at, "data")
            .map_err(|err| err.within(format!("entry {i} ({})", e.file_name())))?;
        let bytes = index.data(data, i).unwrap_or_default();
        covered.push((e.offset.into(), u64::from(e.offset) + u64::from(e.size)));
        ranges.push(DataRange {
            offset: e.offset,
            size: e.size,
        });
        resources.push(Resource {
            resref: e.resref,
            restype: e.restype,
            id: e.id,
            unused: e.unused,
            data: bytes.to_vec(),
        });
    }
    let layout = Layout {
        strings_offset: index.strings_offset,
        strings_size: index.strings_size,
        keys_offset: index.keys_offset,
        resources_offset: index.resources_offset,
        ranges,
        gaps: gaps(data, &mut covered),
        len: data.len() as u64,
    };
    Ok(Erf {
        header: index.header,
        strings: index.strings,
        resources,
        layout: Some(layout),
    })
}
