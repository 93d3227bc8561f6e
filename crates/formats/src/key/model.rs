//! The owned KEY model.

use std::collections::HashMap;
use std::fmt;

use crate::cursor::Gap;
use crate::error::EncodeError;
use crate::restype::{ResRef, ResType};

use super::raw;

/// A resource id: which BIF of the KEY (the top 12 bits) and which entry of that BIF's
/// variable resource table (the low 20 bits). BIFs store the same id in their tables.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ResId(pub u32);

impl ResId {
    /// Bits of the resource index.
    pub const INDEX_BITS: u32 = 20;
    /// The largest BIF index (12 bits).
    pub const MAX_BIF: u32 = (1 << (32 - Self::INDEX_BITS)) - 1;
    /// The largest resource index (20 bits).
    pub const MAX_INDEX: u32 = (1 << Self::INDEX_BITS) - 1;

    /// `bif << 20 | index`, or `None` when either does not fit its bits.
    ///
    /// ```
    /// use areakit_formats::key::ResId;
    /// let id = ResId::new(3, 17).unwrap();
    /// assert_eq!((id.0, id.bif(), id.index()), (0x0030_0011, 3, 17));
    /// assert_eq!(ResId::new(4096, 0), None);
    /// ```
    pub const fn new(bif: u32, index: u32) -> Option<ResId> {
        if bif > Self::MAX_BIF || index > Self::MAX_INDEX {
            None
        } else {
            Some(ResId((bif << Self::INDEX_BITS) | index))
        }
    }

    /// The BIF's index in the KEY's file table (top 12 bits).
    pub const fn bif(self) -> u32 {
        self.0 >> Self::INDEX_BITS
    }

    /// The entry's index in the BIF's variable resource table (low 20 bits).
    pub const fn index(self) -> u32 {
        self.0 & Self::MAX_INDEX
    }
}

impl fmt::Debug for ResId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ResId(bif {}, index {})", self.bif(), self.index())
    }
}

/// The header fields that are not counts or offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Build year since 1900 (offset 0x18).
    pub build_year: u32,
    /// Build day of the year (offset 0x1C).
    pub build_day: u32,
    /// The 32 reserved bytes at offset 0x20, kept as read.
    pub reserved: [u8; raw::RESERVED_SIZE],
}

impl Default for Header {
    fn default() -> Self {
        Header {
            build_year: 0,
            build_day: 0,
            reserved: [0; raw::RESERVED_SIZE],
        }
    }
}

/// One BIF of the file table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BifEntry {
    /// The BIF's size in bytes as the KEY states it.
    pub file_size: u32,
    /// The name's bytes as stored (`name size` bytes: the path relative to the game folder,
    /// e.g. `data\2da.bif`, normally with its NUL terminator).
    pub name: Vec<u8>,
    /// Where the BIF may be found (bit flags; 1 = the game's folder on the hard disk).
    pub drives: u16,
}

impl BifEntry {
    /// An entry for `name` (stored with a NUL terminator).
    pub fn new(name: &str, file_size: u32, drives: u16) -> Self {
        let mut bytes = name.as_bytes().to_vec();
        bytes.push(0);
        BifEntry {
            file_size,
            name: bytes,
            drives,
        }
    }

    /// The name as text: up to the first NUL, bytes that are not UTF-8 replaced.
    pub fn name(&self) -> String {
        let end = self
            .name
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(self.name.len());
        String::from_utf8_lossy(&self.name[..end]).into_owned()
    }

    /// The name with `/` for `\` (a path relative to the game folder).
    pub fn path(&self) -> String {
        self.name().replace('\\', "/")
    }
}

/// One resource of the key table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyEntry {
    /// Name.
    pub resref: ResRef,
    /// Type.
    pub restype: ResType,
    /// Where it is: BIF index and resource index.
    pub id: ResId,
}

impl KeyEntry {
    /// `name.ext`.
    pub fn file_name(&self) -> String {
        self.resref.file_name(self.restype)
    }
}

/// The on-disk layout of a KEY that was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Offset of the file table (offset 0x10).
    pub file_table_offset: u32,
    /// Offset of the key table (offset 0x14).
    pub key_table_offset: u32,
    /// Offset of each BIF's name.
    pub name_offsets: Vec<u32>,
    /// Bytes outside the header, the tables and the names.
    pub gaps: Vec<Gap>,
    /// File length.
    pub len: u64,
}

/// A KEY: the index of a game's BIFs (`chitin.key`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Key {
    /// Header fields.
    pub header: Header,
    /// The file table: one entry per BIF.
    pub bifs: Vec<BifEntry>,
    /// The key table: one entry per resource.
    pub keys: Vec<KeyEntry>,
    /// The layout of the file read; `None` for a new KEY (written canonically).
    pub layout: Option<Layout>,
}

impl Key {
    /// An empty KEY.
    pub fn new() -> Self {
        Key::default()
    }

    /// The first entry named `name` (ASCII case-insensitive) of type `restype` (a linear
    /// search; [`Key::lookup`] builds a map for many).
    pub fn find(&self, name: &str, restype: ResType) -> Option<&KeyEntry> {
        self.keys
            .iter()
            .find(|k| k.restype == restype && k.resref.eq_ignore_case(name))
    }

    /// A map from (name, type) to the first key entry of that name and type.
    pub fn lookup(&self) -> KeyLookup {
        let mut map = HashMap::with_capacity(self.keys.len());
        for (i, k) in self.keys.iter().enumerate() {
            map.entry((k.resref.lookup_key(), k.restype)).or_insert(i);
        }
        KeyLookup { map }
    }

    /// The key entries of BIF `bif`, with their indices in the key table.
    pub fn entries_of_bif(&self, bif: u32) -> impl Iterator<Item = (usize, &KeyEntry)> {
        self.keys
            .iter()
            .enumerate()
            .filter(move |(_, k)| k.id.bif() == bif)
    }
}

/// Resource lookup by name and type (see [`Key::lookup`]).
#[derive(Debug, Clone)]
pub struct KeyLookup {
    map: HashMap<([u8; ResRef::LEN], ResType), usize>,
}

impl KeyLookup {
    /// The index in the key table of the first entry named `name` (ASCII case-insensitive)
    /// of type `restype`.
    pub fn get(&self, name: &str, restype: ResType) -> Option<usize> {
        if name.len() > ResRef::LEN {
            return None;
        }
        let mut k = [0u8; ResRef::LEN];
        for (o, b) in k.iter_mut().zip(name.bytes()) {
            *o = b.to_ascii_lowercase();
        }
        self.map.get(&(k, restype)).copied()
    }

    /// Number of distinct (name, type) pairs.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// Checks that a name fits the file table's `u16` size.
pub(crate) fn name_size(b: &BifEntry) -> Result<u16, EncodeError> {
    u16::try_from(b.name.len()).map_err(|_| {
        EncodeError(format!(
            "BIF name of {} bytes: the KEY stores at most 65535",
            b.name.len()
        ))
    })
}
