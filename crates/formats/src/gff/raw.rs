//! On-disk constants of GFF V3.2 (BioWare's Generic File Format).
//!
//! Byte layouts are documented in `docs/formats/gff.md`.

/// Size of the header: file type, version and six (offset, count-or-size) pairs.
pub const HEADER_SIZE: usize = 56;
/// Bytes per struct record: `u32` struct id, `u32` data-or-offset, `u32` field count.
pub const STRUCT_SIZE: usize = 12;
/// Bytes per field record: `u32` type, `u32` label index, `u32` data-or-offset.
pub const FIELD_SIZE: usize = 12;
/// Bytes per label: NUL-padded (not necessarily NUL-terminated when 16 bytes long).
pub const LABEL_SIZE: usize = 16;

/// The version every KotOR and NWN GFF carries.
pub const VERSION_V32: [u8; 4] = *b"V3.2";
/// The Witcher's version tag; the layout is the same as V3.2.
pub const VERSION_V33: [u8; 4] = *b"V3.3";

/// The struct id of the root struct in every corpus file.
pub const ROOT_STRUCT_ID: u32 = 0xffff_ffff;
/// The data-or-offset word the canonical writer gives a struct without fields.
pub const EMPTY_STRUCT_DATA: u32 = 0xffff_ffff;
/// "No string reference" in a CExoLocString.
pub const NO_STRREF: u32 = 0xffff_ffff;

/// Deepest nesting of structs the reader accepts (the root is depth 0). The deepest corpus file
/// (a KotOR ARE with a mini-game) nests 4 deep; the limit keeps every recursive walk of a
/// decoded tree (reading, writing, comparing, dropping) far from the stack's end.
pub const MAX_DEPTH: usize = 100;

/// Field type ids.
pub mod types {
    /// `BYTE`: `u8`, inline.
    pub const BYTE: u32 = 0;
    /// `CHAR`: `i8`, inline.
    pub const CHAR: u32 = 1;
    /// `WORD`: `u16`, inline.
    pub const WORD: u32 = 2;
    /// `SHORT`: `i16`, inline.
    pub const SHORT: u32 = 3;
    /// `DWORD`: `u32`, inline.
    pub const DWORD: u32 = 4;
    /// `INT`: `i32`, inline.
    pub const INT: u32 = 5;
    /// `DWORD64`: `u64` in the field data.
    pub const DWORD64: u32 = 6;
    /// `INT64`: `i64` in the field data.
    pub const INT64: u32 = 7;
    /// `FLOAT`: `f32`, inline.
    pub const FLOAT: u32 = 8;
    /// `DOUBLE`: `f64` in the field data.
    pub const DOUBLE: u32 = 9;
    /// `CExoString`: `u32` length + bytes in the field data.
    pub const EXO_STRING: u32 = 10;
    /// `CResRef`: `u8` length + bytes in the field data.
    pub const RES_REF: u32 = 11;
    /// `CExoLocString`: `u32` size, `u32` strref, `u32` count, substrings, in the field data.
    pub const LOC_STRING: u32 = 12;
    /// `VOID`: `u32` length + bytes in the field data.
    pub const VOID: u32 = 13;
    /// `Struct`: the data word is a struct index.
    pub const STRUCT: u32 = 14;
    /// `List`: the data word is a byte offset into the list indices.
    pub const LIST: u32 = 15;
    /// `Orientation`: four `f32` (a quaternion) in the field data.
    pub const ORIENTATION: u32 = 16;
    /// `Vector`: three `f32` in the field data.
    pub const VECTOR: u32 = 17;
    /// `StrRef` (Jade Empire and later): `u32` size (4) + `u32` string reference in the field
    /// data.
    pub const STR_REF: u32 = 18;
}

/// The name of a field type id as the BioWare documentation spells it.
pub fn type_name(type_id: u32) -> &'static str {
    match type_id {
        types::BYTE => "BYTE",
        types::CHAR => "CHAR",
        types::WORD => "WORD",
        types::SHORT => "SHORT",
        types::DWORD => "DWORD",
        types::INT => "INT",
        types::DWORD64 => "DWORD64",
        types::INT64 => "INT64",
        types::FLOAT => "FLOAT",
        types::DOUBLE => "DOUBLE",
        types::EXO_STRING => "CExoString",
        types::RES_REF => "CResRef",
        types::LOC_STRING => "CExoLocString",
        types::VOID => "VOID",
        types::STRUCT => "Struct",
        types::LIST => "List",
        types::ORIENTATION => "Orientation",
        types::VECTOR => "Vector",
        types::STR_REF => "StrRef",
        _ => "unknown type",
    }
}

/// The header's six tables, in header order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Four characters naming the resource type, e.g. `"GIT "`.
    pub file_type: [u8; 4],
    /// `"V3.2"`.
    pub version: [u8; 4],
    /// Byte offset of the struct array.
    pub struct_offset: u32,
    /// Number of struct records.
    pub struct_count: u32,
    /// Byte offset of the field array.
    pub field_offset: u32,
    /// Number of field records.
    pub field_count: u32,
    /// Byte offset of the label array.
    pub label_offset: u32,
    /// Number of labels.
    pub label_count: u32,
    /// Byte offset of the field data block.
    pub field_data_offset: u32,
    /// Size of the field data block in bytes.
    pub field_data_size: u32,
    /// Byte offset of the field indices array.
    pub field_indices_offset: u32,
    /// Size of the field indices array in bytes.
    pub field_indices_size: u32,
    /// Byte offset of the list indices array.
    pub list_indices_offset: u32,
    /// Size of the list indices array in bytes.
    pub list_indices_size: u32,
}

impl Header {
    /// Parses the 56 header bytes (no range checks: see the reader).
    pub fn parse(b: &[u8; HEADER_SIZE]) -> Header {
        let w = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        Header {
            file_type: [b[0], b[1], b[2], b[3]],
            version: [b[4], b[5], b[6], b[7]],
            struct_offset: w(8),
            struct_count: w(12),
            field_offset: w(16),
            field_count: w(20),
            label_offset: w(24),
            label_count: w(28),
            field_data_offset: w(32),
            field_data_size: w(36),
            field_indices_offset: w(40),
            field_indices_size: w(44),
            list_indices_offset: w(48),
            list_indices_size: w(52),
        }
    }

    /// The 56 header bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_SIZE] {
        let mut b = [0u8; HEADER_SIZE];
        b[0..4].copy_from_slice(&self.file_type);
        b[4..8].copy_from_slice(&self.version);
        let words = [
            self.struct_offset,
            self.struct_count,
            self.field_offset,
            self.field_count,
            self.label_offset,
            self.label_count,
            self.field_data_offset,
            self.field_data_size,
            self.field_indices_offset,
            self.field_indices_size,
            self.list_indices_offset,
            self.list_indices_size,
        ];
        for (i, w) in words.iter().enumerate() {
            b[8 + 4 * i..12 + 4 * i].copy_from_slice(&w.to_le_bytes());
        }
        b
    }

    /// The six tables as `(name, header offset of the offset word, offset, byte length)`; the
    /// byte lengths are computed in `u64` so they cannot overflow.
    pub fn sections(&self) -> [(&'static str, usize, u64, u64); 6] {
        [
            (
                "struct array",
                8,
                u64::from(self.struct_offset),
                u64::from(self.struct_count) * STRUCT_SIZE as u64,
            ),
            (
                "field array",
                16,
                u64::from(self.field_offset),
                u64::from(self.field_count) * FIELD_SIZE as u64,
            ),
            (
                "label array",
                24,
                u64::from(self.label_offset),
                u64::from(self.label_count) * LABEL_SIZE as u64,
            ),
            (
                "field data",
                32,
                u64::from(self.field_data_offset),
                u64::from(self.field_data_size),
            ),
            (
                "field indices",
                40,
                u64::from(self.field_indices_offset),
                u64::from(self.field_indices_size),
            ),
            (
                "list indices",
                48,
                u64::from(self.list_indices_offset),
                u64::from(self.list_indices_size),
            ),
        ]
    }
}
