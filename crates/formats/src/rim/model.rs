//! The owned RIM model.

use crate::cursor::Gap;
use crate::erf::DataRange;
use crate::error::EncodeError;
use crate::restype::{ResRef, ResType, parse_file_name, sort_members};

use super::raw;

/// The header fields that are not counts or offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The `u32` at offset 0x08 (0 in every corpus RIM; xoreos calls it reserved).
    pub unknown: u32,
    /// The 100 reserved bytes at offset 0x14, kept as read (zero in every corpus RIM).
    pub reserved: [u8; raw::RESERVED_SIZE],
}

impl Default for Header {
    fn default() -> Self {
        Header {
            unknown: 0,
            reserved: [0; raw::RESERVED_SIZE],
        }
    }
}

/// One member of the archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// Name.
    pub resref: ResRef,
    /// Type: the low half of the stored `u32`.
    pub restype: ResType,
    /// The high half of the stored type (0 in every corpus RIM).
    pub type_high: u16,
    /// Resource id: the entry's index in every corpus RIM.
    pub id: u32,
    /// The data.
    pub data: Vec<u8>,
}

impl Resource {
    /// `name.ext`.
    pub fn file_name(&self) -> String {
        self.resref.file_name(self.restype)
    }
}

/// The on-disk layout of a RIM that was read (see [`crate::erf::Layout`]: the same rules).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Offset of the key table (offset 0x10).
    pub keys_offset: u32,
    /// Each entry's data range, in entry order.
    pub ranges: Vec<DataRange>,
    /// Bytes outside the header, the key table and the data (real RIMs pad their members).
    pub gaps: Vec<Gap>,
    /// File length.
    pub len: u64,
}

/// A RIM archive.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Rim {
    /// Header fields.
    pub header: Header,
    /// Members in key-table order.
    pub resources: Vec<Resource>,
    /// The layout of the file read; `None` for a new archive (written canonically).
    pub layout: Option<Layout>,
}

impl Rim {
    /// An empty archive.
    pub fn new() -> Self {
        Rim::default()
    }

    /// A new archive holding `resources`, sorted by name (ASCII case-insensitive) then type
    /// id, with resource ids 0, 1, 2, ... Two members with the same name and type are an
    /// error.
    pub fn from_resources(
        resources: impl IntoIterator<Item = (ResRef, ResType, Vec<u8>)>,
    ) -> Result<Self, EncodeError> {
        let mut members: Vec<_> = resources.into_iter().collect();
        sort_members(&mut members)?;
        let mut rim = Rim::new();
        for (resref, restype, data) in members {
            rim.push(resref, restype, data);
        }
        Ok(rim)
    }

    /// [`Rim::from_resources`] from `(file name, data)` pairs: the stem is the resref, the
    /// extension the type ([`parse_file_name`]).
    pub fn from_files<S: AsRef<str>>(
        files: impl IntoIterator<Item = (S, Vec<u8>)>,
    ) -> Result<Self, EncodeError> {
        let members = files
            .into_iter()
            .map(|(name, data)| parse_file_name(name.as_ref()).map(|(r, t)| (r, t, data)))
            .collect::<Result<Vec<_>, _>>()?;
        Self::from_resources(members)
    }

    /// Appends a member with resource id = its index.
    pub fn push(&mut self, resref: ResRef, restype: ResType, data: Vec<u8>) {
        let id = u32::try_from(self.resources.len()).unwrap_or(u32::MAX);
        self.resources.push(Resource {
            resref,
            restype,
            type_high: 0,
            id,
            data,
        });
    }

    /// The first member named `name` (ASCII case-insensitive) of type `restype`.
    pub fn get(&self, name: &str, restype: ResType) -> Option<&Resource> {
        self.resources
            .iter()
            .find(|r| r.restype == restype && r.resref.eq_ignore_case(name))
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.resources.len()
    }

    /// Whether there is no member.
    pub fn is_empty(&self) -> bool {
        self.resources.is_empty()
    }
}
