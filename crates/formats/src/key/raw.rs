//! On-disk constants of `KEY V1  `. Byte offsets are documented in `docs/formats/key.md`.

/// `"KEY "` at offset 0.
pub const MAGIC: [u8; 4] = *b"KEY ";
/// The only version read: `"V1  "` at offset 4.
pub const VERSION: [u8; 4] = *b"V1  ";
/// Size of the header.
pub const HEADER_SIZE: usize = 64;
/// Offset of the reserved block.
pub const OFF_RESERVED: usize = 0x20;
/// Size of the reserved block.
pub const RESERVED_SIZE: usize = 32;
/// Bytes per file-table entry: `u32` BIF size, `u32` name offset, `u16` name size, `u16`
/// drives.
pub const FILE_ENTRY_SIZE: usize = 12;
/// Bytes per key-table entry: resref\[16\], `u16` type, `u32` resource id.
pub const KEY_ENTRY_SIZE: usize = 22;
/// The reader copies at most this many times the input's size of BIF names in all.
pub const COPY_FACTOR: u64 = 4;
