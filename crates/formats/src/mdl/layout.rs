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

/// Uncovered ranges as (offset in the space, start, end in the kept bytes) records.
pub(crate) type Gaps = Vec<(u32, u32, u32)>;

/// The bytes of a space a reader covered, one bit a byte, turned into gaps (a bit set is
/// linear in the bytes covered; no sort of the blocks is needed).
#[derive(Debug, Default)]
pub(crate) struct Coverage {
    bits: Vec<u64>,
    overlapping: bool,
}

impl Coverage {
    /// Coverage of a space of `len` bytes, none covered yet.
    pub fn new(len: usize) -> Self {
        Coverage {
            bits: vec![0; len.div_ceil(64)],
            overlapping: false,
        }
    }

    /// Marks `len` bytes from `start` (inside the space) covered; a byte covered before makes
    /// the coverage overlapping.
    pub fn add(&mut self, start: u32, len: u32) {
        if len == 0 {
            return;
        }
        let (first, last) = (start as usize, start as usize + len as usize - 1);
        let (fw, lw) = (first / 64, last / 64);
        let head = !0u64 << (first % 64);
        let tail = !0u64 >> (63 - last % 64);
        let Some(words) = self.bits.get_mut(fw..=lw) else {
            return;
        };
        let mut seen = 0;
        if let [only] = words {
            seen |= *only & head & tail;
            *only |= head & tail;
        } else if let [f, middle @ .., l] = words {
            seen |= (*f & head) | (*l & tail);
            *f |= head;
            *l |= tail;
            for w in middle {
                seen |= *w;
                *w = !0;
            }
        }
        self.overlapping |= seen != 0;
    }

    /// The uncovered ranges of `data` appended to `bytes` as (offset, start, end) records, and
    /// whether any two blocks covered the same byte.
    pub fn gaps(self, data: &[u8], bytes: &mut Vec<u8>) -> (Gaps, bool) {
        let mut gaps = Vec::new();
        let covered = |i: usize| {
            self.bits
                .get(i / 64)
                .is_some_and(|w| w >> (i % 64) & 1 == 1)
        };
        let mut i = 0;
        while i < data.len() {
            if self.bits.get(i / 64) == Some(&!0) && i % 64 == 0 {
                i += 64;
                continue;
            }
            if covered(i) {
                i += 1;
                continue;
            }
            let from = i;
            while i < data.len() && !covered(i) {
                i += 1;
            }
            let start = bytes.len() as u32;
            bytes.extend_from_slice(&data[from..i]);
            gaps.push((from as u32, start, bytes.len() as u32));
        }
        (gaps, self.overlapping)
    }
}

#[cfg(test)]
mod tests {
    use super::Coverage;
    use proptest::prelude::*;

    proptest! {
        /// The bit set against a byte-per-byte count: the same gaps (with their bytes) and the
        /// same overlap answer, for spans that cross word boundaries or fill whole words.
        #[test]
        fn gaps_and_overlap_match_a_byte_count(
            len in 0usize..300,
            spans in prop::collection::vec((0usize..300, 0usize..140), 0..8),
        ) {
            let data: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let mut cover = Coverage::new(len);
            let mut count = vec![0u32; len];
            for &(s, l) in &spans {
                let (s, l) = (s.min(len), l.min(len - s.min(len)));
                cover.add(s as u32, l as u32);
                count[s..s + l].iter_mut().for_each(|c| *c += 1);
            }
            let mut expected = Vec::new();
            let mut i = 0;
            while i < len {
                if count[i] > 0 {
                    i += 1;
                    continue;
                }
                let from = i;
                while i < len && count[i] == 0 {
                    i += 1;
                }
                expected.push((from, i));
            }
            let mut bytes = Vec::new();
            let (gaps, overlapping) = cover.gaps(&data, &mut bytes);
            let got: Vec<(usize, usize)> = gaps
                .iter()
                .map(|&(at, s, e)| (at as usize, at as usize + (e - s) as usize))
                .collect();
            prop_assert_eq!(got, expected);
            for &(at, s, e) in &gaps {
                prop_assert_eq!(&bytes[s as usize..e as usize], &data[at as usize..][..(e - s) as usize]);
            }
            prop_assert_eq!(overlapping, count.iter().any(|&c| c > 1));
        }
    }
}
