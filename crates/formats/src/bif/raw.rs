//! On-disk constants of `BIFFV1  `. Byte offsets are documented in `docs/formats/bif.md`.

/// `"BIFF"` at offset 0.
pub const MAGIC: [u8; 4] = *b"BIFF";
/// The only version read: `"V1  "` at offset 4.
pub const VERSION: [u8; 4] = *b"V1  ";
/// Size of the header: magic, version, variable count, fixed count, variable-table offset.
pub const HEADER_SIZE: usize = 20;
/// Bytes per variable-resource entry: `u32` id, offset, size, type.
pub const VAR_ENTRY_SIZE: usize = 16;
/// Bytes per fixed-resource entry: `u32` id, offset, part count, part size, type.
pub const FIXED_ENTRY_SIZE: usize = 20;
/// The whole-buffer reader copies at most this many times the input's size of resource data
/// in all.
pub const COPY_FACTOR: u64 = 4;
