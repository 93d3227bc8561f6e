//! On-disk constants of the ERF family (`ERF `, `MOD `, `SAV `, `HAK `, version `V1.0`).
//! Byte offsets are documented in `docs/formats/erf.md`.

/// The only version read: `"V1.0"` at offset 4.
pub const VERSION: [u8; 4] = *b"V1.0";
/// Size of the header.
pub const HEADER_SIZE: usize = 160;
/// Size of the reserved block at the end of the header (offset 0x2C).
pub const RESERVED_SIZE: usize = 116;
/// Offset of the reserved block.
pub const OFF_RESERVED: usize = 0x2C;
/// Bytes per key-list entry: resref\[16\], `u32` resource id, `u16` type, `u16` unused.
pub const KEY_SIZE: usize = 24;
/// Bytes per resource-list entry: `u32` offset, `u32` size.
pub const RESOURCE_SIZE: usize = 8;
/// Bytes before a localized string's text: `u32` language id, `u32` text size.
pub const STRING_HEADER_SIZE: usize = 8;
/// What a new archive stores as its description string reference (no string; every corpus
/// MOD has it).
pub const NO_STRREF: u32 = u32::MAX;
/// The reader copies at most this many times the input's size of resource data in all
/// (ranges may name the same bytes many times; real files name each byte once).
pub const COPY_FACTOR: u64 = 4;
