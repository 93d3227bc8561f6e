//! On-disk constants of both 2DA layouts. Byte offsets are documented in `docs/formats/2da.md`.

/// `"2DA "` at offset 0 (binary and text).
pub const MAGIC: [u8; 4] = *b"2DA ";
/// The tab-separated magic some readers accept (`"2DA\t"`).
pub const MAGIC_TAB: [u8; 4] = *b"2DA\t";
/// `"V2.b"` at offset 4: the binary (KotOR) layout.
pub const VERSION_BINARY: [u8; 4] = *b"V2.b";
/// `"V2.0"` at offset 4: the text (NWN, KotOR sources) layout.
pub const VERSION_TEXT: [u8; 4] = *b"V2.0";
/// The byte after the binary version: a line feed at offset 8.
pub const BINARY_HEADER_END: u8 = b'\n';
/// Size of the binary header (magic, version, line feed): the column labels start here.
pub const BINARY_HEADER_SIZE: usize = 9;
/// Separator after each column label and each row label.
pub const LABEL_END: u8 = b'\t';
/// End of the column label list; also ends each cell string, and ends row labels in some files.
pub const NUL: u8 = 0;
/// Bytes per cell offset (`u16`).
pub const OFFSET_SIZE: u64 = 2;
/// The UTF-8 byte order mark some editors put before a text 2DA.
pub const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
/// The text layout's marker of an empty cell.
pub const EMPTY_CELL: &str = "****";
/// The largest string-data size a binary 2DA can state (its `u16` data-size field).
pub const MAX_DATA_SIZE: usize = u16::MAX as usize;

/// Bytes as printable text for messages.
pub(crate) fn show(bytes: &[u8]) -> String {
    format!("`{}`", bytes.escape_ascii())
}
