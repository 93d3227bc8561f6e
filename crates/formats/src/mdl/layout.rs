//! Where the blocks of a source file stood, so that an unmodified model writes back byte for
//! byte.
//!
//! The reader and the writer walk a model in the same order (header, names, animations, the
//! geometry tree; per node its header, arrays and children). Each array or header the walk
//! meets is a *block*; the reader records every block's offset and length, and every *derived
//! word* (an array's allocated count, a parent pointer) as it found it. The writer, walking the
//! same way, places each block where the source had it as long as every block keeps its length;
//! the first block whose length differs sends it back to the canonical layout. The bytes no block
//! covers (alignment padding, the MDX rows after each mesh) are kept as *gaps* and written back
//! under the blocks.

/// The recorded layout of one source file.
#[derive(Debug, Clone, Default)]
pub(crate) struct Layout {
    /// MDL data size (after the 12-byte file header).
    pub mdl_size: u32,
    /// MDX file size.
    pub mdx_size: u32,
    /// The MDX size word of the file header as read (it disagrees with the MDX in some files).
    pub mdx_size_word: u32,
    /// MDL blocks in walk order: offset (from the start of the MDL data) and length.
    pub blocks: Vec<(u32, u32)>,
    /// MDX blocks (one per mesh) in walk order: file offset and length.
    pub mdx_blocks: Vec<(u32, u32)>,
    /// Derived words as read, in walk order.
    pub words: Vec<u32>,
    /// MDL bytes no block covers: offset (from the start of the MDL data) and range in
    /// `gap_bytes`.
    pub mdl_gaps: Vec<(u32, u32, u32)>,
    /// MDX bytes no block covers.
    pub mdx_gaps: Vec<(u32, u32, u32)>,
    /// The gap bytes.
    pub gap_bytes: Vec<u8>,
    /// Whether two blocks of the source share bytes: the writer then checks its output.
    pub overlapping: bool,
}

/// Intervals a reader covered, turned into gaps.
#[derive(Debug, Default)]
pub(crate) struct Coverage {
    spans: Vec<(u32, u32)>,
}

impl Coverage {
    pub fn add(&mut self, start: u32, len: u32) {
        if len > 0 {
            self.spans.push((start, start + len));
        }
    }

    /// The uncovered ranges of `data` appended to `bytes` as (offset, start, end) records, and
    /// whether any two spans overlapped.
    pub fn gaps(mut self, data: &[u8], bytes: &mut Vec<u8>) -> (Vec<(u32, u32, u32)>, bool) {
        self.spans.sort_unstable();
        let mut gaps = Vec::new();
        let mut overlapping = false;
        let mut at = 0u32;
        let mut push = |from: u32, to: u32, bytes: &mut Vec<u8>| {
            if to > from {
                let start = bytes.len() as u32;
                bytes.extend_from_slice(&data[from as usize..to as usize]);
                gaps.push((from, start, bytes.len() as u32));
            }
        };
        for &(s, e) in &self.spans {
            if s < at {
                overlapping = true;
            } else {
                push(at, s, bytes);
            }
            at = at.max(e);
        }
        push(at, data.len() as u32, bytes);
        (gaps, overlapping)
    }
}
