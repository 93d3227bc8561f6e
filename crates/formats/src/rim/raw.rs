//! On-disk constants of `RIM V1.0`. Byte offsets are documented in `docs/formats/rim.md`.

/// `"RIM "` at offset 0.
pub const MAGIC: [u8; 4] = *b"RIM ";
/// The only version read: `"V1.0"` at offset 4.
pub const VERSION: [u8; 4] = *b"V1.0";
/// Size of the header.
pub const HEADER_SIZE: usize = 120;
/// Offset of the reserved block (after the unknown word, the count and the key offset).
pub const OFF_RESERVED: usize = 0x14;
/// Size of the reserved block.
pub const RESERVED_SIZE: usize = 100;
/// Bytes per key entry: resref\[16\], `u32` type, `u32` resource id, `u32` offset, `u32` size.
pub const ENTRY_SIZE: usize = 32;
/// The reader copies at most this many times the input's size of resource data in all.
pub const COPY_FACTOR: u64 = 4;
