//! The owned ERF model: header fields, localized descriptions, resources with their data, and
//! the on-disk layout of an archive that was read (so that it writes back byte for byte).

use crate::cursor::Gap;
use crate::error::EncodeError;
use crate::restype::{ResRef, ResType, parse_file_name, sort_members};

use super::raw;

/// Which member of the ERF family (the four bytes at offset 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErfKind {
    /// `"ERF "`: a generic capsule (NWN `.erf`, KotOR texture packs, PyKotor test files).
    Erf,
    /// `"MOD "`: a module (KotOR `modules/*.mod`, NWN modules).
    Mod,
    /// `"SAV "`: a saved game (NWN; KotOR saves use `"MOD "`).
    Sav,
    /// `"HAK "`: an NWN hak pak.
    Hak,
}

impl ErfKind {
    /// Every kind.
    pub const ALL: [ErfKind; 4] = [ErfKind::Erf, ErfKind::Mod, ErfKind::Sav, ErfKind::Hak];

    /// The four bytes at offset 0.
    pub const fn magic(self) -> [u8; 4] {
        match self {
            ErfKind::Erf => *b"ERF ",
            ErfKind::Mod => *b"MOD ",
            ErfKind::Sav => *b"SAV ",
            ErfKind::Hak => *b"HAK ",
        }
    }

    /// The kind of a magic, if it is one of the four.
    pub fn from_magic(magic: [u8; 4]) -> Option<ErfKind> {
        Self::ALL.into_iter().find(|k| k.magic() == magic)
    }

    /// The usual file extension (`erf`, `mod`, `sav`, `hak`).
    pub const fn extension(self) -> &'static str {
        match self {
            ErfKind::Erf => "erf",
            ErfKind::Mod => "mod",
            ErfKind::Sav => "sav",
            ErfKind::Hak => "hak",
        }
    }
}

/// The header fields that are not counts or offsets (those follow from the tables, or are
/// kept in the [`Layout`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The file type at offset 0.
    pub kind: ErfKind,
    /// Build year since 1900 (offset 0x20). 0 in a new archive.
    pub build_year: u32,
    /// Build day of the year, 0-based (offset 0x24). 0 in a new archive.
    pub build_day: u32,
    /// Talk-table string reference of the description (offset 0x28): `0xFFFFFFFF` in 75 of the
    /// 78 readable corpus ERFs, 0 in the other 3.
    pub description_strref: u32,
    /// The 116 reserved bytes at offset 0x2C, kept as read (all zero in every corpus file).
    pub reserved: [u8; raw::RESERVED_SIZE],
}

impl Header {
    /// The header of a new archive: build date 0, no description string, reserved zero.
    pub fn new(kind: ErfKind) -> Self {
        Header {
            kind,
            build_year: 0,
            build_day: 0,
            description_strref: raw::NO_STRREF,
            reserved: [0; raw::RESERVED_SIZE],
        }
    }
}

/// A localized description (NWN modules; no corpus file has one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalizedString {
    /// Language id (0 English, 1 French, 2 German, 3 Italian, 4 Spanish, 5 Polish, ...).
    pub language: u32,
    /// The text as stored (no terminator is added or removed).
    pub text: Vec<u8>,
}

/// One member of the archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// Name.
    pub resref: ResRef,
    /// Type.
    pub restype: ResType,
    /// The key entry's resource id: the entry's index in every corpus file.
    pub id: u32,
    /// The key entry's unused `u16` (0 in every corpus file).
    pub unused: u16,
    /// The data.
    pub data: Vec<u8>,
}

impl Resource {
    /// `name.ext`.
    pub fn file_name(&self) -> String {
        self.resref.file_name(self.restype)
    }
}

/// Where an entry's data lay in the file read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataRange {
    /// File offset.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
}

/// The on-disk layout of an archive that was read: the table offsets, every entry's data
/// range, and every byte no table names. [`write`](super::write) reuses it while it still
/// holds (same number of resources, same sizes, no two pieces disagreeing on a byte), so an
/// unmodified archive writes back byte for byte; otherwise it lays the archive out anew.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Offset of the localized strings (offset 0x14).
    pub strings_offset: u32,
    /// The localized strings' size as the header states it (offset 0x0C).
    pub strings_size: u32,
    /// Offset of the key list (offset 0x18).
    pub keys_offset: u32,
    /// Offset of the resource list (offset 0x1C).
    pub resources_offset: u32,
    /// Each entry's data range, in entry order.
    pub ranges: Vec<DataRange>,
    /// Bytes outside the header, the tables and the data.
    pub gaps: Vec<Gap>,
    /// File length.
    pub len: u64,
}

/// An ERF-family archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Erf {
    /// Header fields.
    pub header: Header,
    /// Localized descriptions, in file order.
    pub strings: Vec<LocalizedString>,
    /// Members in key-list order.
    pub resources: Vec<Resource>,
    /// The layout of the file read; `None` for a new archive (written canonically).
    pub layout: Option<Layout>,
}

impl Erf {
    /// An empty archive of `kind`.
    pub fn new(kind: ErfKind) -> Self {
        Erf {
            header: Header::new(kind),
            strings: Vec::new(),
            resources: Vec::new(),
            layout: None,
        }
    }

    /// A new archive holding `resources`, sorted by name (ASCII case-insensitive) then type
    /// id, with resource ids 0, 1, 2, ... Two members with the same name and type are an
    /// error.
    ///
    /// ```
    /// use areakit_formats::erf::{self, Erf, ErfKind};
    /// use areakit_formats::restype::{ResRef, ResType};
    /// let a = Erf::from_resources(ErfKind::Mod, [
    ///     (ResRef::new("m01aa").unwrap(), ResType::GIT, b"GIT V3.2".to_vec()),
    ///     (ResRef::new("m01aa").unwrap(), ResType::ARE, b"ARE V3.2".to_vec()),
    /// ]).unwrap();
    /// assert_eq!(a.resources[0].restype, ResType::ARE);
    /// let bytes = erf::write(&a).unwrap();
    /// assert_eq!(erf::read(&bytes).unwrap().resources, a.resources);
    /// ```
    pub fn from_resources(
        kind: ErfKind,
        resources: impl IntoIterator<Item = (ResRef, ResType, Vec<u8>)>,
    ) -> Result<Self, EncodeError> {
        let mut members: Vec<_> = resources.into_iter().collect();
        sort_members(&mut members)?;
        let mut erf = Erf::new(kind);
        for (resref, restype, data) in members {
            erf.push(resref, restype, data);
        }
        Ok(erf)
    }

    /// [`Erf::from_resources`] from `(file name, data)` pairs, e.g. a folder's files: the
    /// stem is the resref, the extension the type ([`parse_file_name`]).
    pub fn from_files<S: AsRef<str>>(
        kind: ErfKind,
        files: impl IntoIterator<Item = (S, Vec<u8>)>,
    ) -> Result<Self, EncodeError> {
        let members = files
            .into_iter()
            .map(|(name, data)| parse_file_name(name.as_ref()).map(|(r, t)| (r, t, data)))
            .collect::<Result<Vec<_>, _>>()?;
        Self::from_resources(kind, members)
    }

    /// Appends a member with resource id = its index.
    pub fn push(&mut self, resref: ResRef, restype: ResType, data: Vec<u8>) {
        let id = u32::try_from(self.resources.len()).unwrap_or(u32::MAX);
        self.resources.push(Resource {
            resref,
            restype,
            id,
            unused: 0,
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
