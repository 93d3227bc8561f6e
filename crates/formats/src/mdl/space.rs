//! The pointer spaces of a compiled model (KotOR's MDL data and MDX; NWN's model data and raw
//! data) as both codecs read and write them.
//!
//! Reading, a [`Space`] hands out the bytes a pointer names, checked against the space's end,
//! and records each *block* met (offset, length, in walk order) and the bytes it covered.
//! Writing, a [`Sink`] places each block where the source had it while every block keeps its
//! length (so an unmodified model gives its bytes back), or afresh at the end in the canonical
//! layout; [`Words`] does the same for derived words (allocated counts, runtime pointers).

use super::layout::{Coverage, Gaps, Layout};
use super::le::le_u32;
use crate::error::{DecodeError, EncodeError};

/// An (offset, count, allocated count) array header.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Array {
    pub offset: u32,
    pub count: u32,
    pub alloc: u32,
}

/// The array header at `o` of `s` (the caller has checked the bounds).
pub(crate) fn array_at(s: &[u8], o: usize) -> Array {
    Array {
        offset: le_u32(s, o),
        count: le_u32(s, o + 4),
        alloc: le_u32(s, o + 8),
    }
}

/// One pointer space being read.
pub(crate) struct Space<'a> {
    /// The bytes pointers index.
    pub data: &'a [u8],
    /// The file offset of `data[0]` (error locations name file offsets).
    origin: u64,
    /// What the space is called in messages (`the MDL data`, `the raw data`).
    name: &'static str,
    /// Blocks met, in walk order.
    pub blocks: Vec<(u32, u32)>,
    /// The bytes the blocks covered.
    pub cover: Coverage,
    /// The bytes all blocks handed out so far (overlapping blocks count each time).
    handed: u64,
}

/// How many times its own size the blocks of a space may hand out in all, plus [`SLACK`]:
/// a model's blocks tile its file (the corpus: no byte twice), but a hostile one can point
/// every node's arrays at one large region and have each copied.
const BUDGET_FACTOR: u64 = 16;
const SLACK: u64 = 1 << 20;

impl<'a> Space<'a> {
    pub fn new(data: &'a [u8], origin: u64, name: &'static str) -> Self {
        Space {
            data,
            origin,
            name,
            blocks: Vec::new(),
            cover: Coverage::new(data.len()),
            handed: 0,
        }
    }

    /// An error at pointer `ptr` of this space.
    pub fn err(&self, ptr: u64, msg: impl Into<String>) -> DecodeError {
        DecodeError::malformed_at(self.origin + ptr, msg)
    }

    /// The `len` bytes at `ptr` (not recorded).
    pub fn slice(&self, ptr: u32, len: u64, what: &str) -> Result<&'a [u8], DecodeError> {
        let start = u64::from(ptr);
        match start.checked_add(len) {
            Some(end) if end <= self.data.len() as u64 => {
                Ok(&self.data[start as usize..end as usize])
            }
            _ => Err(self.err(
                start,
                format!(
                    "{what} ({len} bytes) runs past the end of {} ({} bytes)",
                    self.name,
                    self.data.len()
                ),
            )),
        }
    }

    /// The `len` bytes at `ptr`, recorded as a block.
    pub fn block(&mut self, ptr: u32, len: u64, what: &str) -> Result<&'a [u8], DecodeError> {
        let s = self.slice(ptr, len, what)?;
        self.handed += len;
        let budget = BUDGET_FACTOR * self.data.len() as u64 + SLACK;
        if self.handed > budget {
            return Err(DecodeError::limit_at(
                self.origin + u64::from(ptr),
                format!(
                    "{what}: the blocks of {} read so far come to {} bytes, more than {budget} \
                     ({BUDGET_FACTOR} times its {} bytes and 1 MiB): blocks overlap to make the \
                     model far larger than its file",
                    self.name,
                    self.handed,
                    self.data.len()
                ),
            ));
        }
        self.blocks.push((ptr, len as u32));
        self.cover.add(ptr, len as u32);
        Ok(s)
    }

    /// The `count` records of `size` bytes an array header names, recorded as a block, with its
    /// allocated count pushed to `words`.
    pub fn array(
        &mut self,
        words: &mut Vec<u32>,
        a: Array,
        size: u64,
        what: &str,
    ) -> Result<&'a [u8], DecodeError> {
        words.push(a.alloc);
        self.block(a.offset, u64::from(a.count) * size, what)
    }

    /// A NUL-terminated string at `ptr`, recorded as a block (terminator included).
    pub fn string(&mut self, ptr: u32, what: &str) -> Result<Vec<u8>, DecodeError> {
        self.slice(ptr, 0, what)?;
        let rest = &self.data[ptr as usize..];
        let Some(len) = rest.iter().position(|&b| b == 0) else {
            return Err(self.err(u64::from(ptr), format!("{what} has no terminating NUL")));
        };
        self.block(ptr, len as u64 + 1, what)?;
        Ok(rest[..len].to_vec())
    }

    /// The uncovered ranges of the space appended to `bytes`, and whether blocks overlapped.
    pub fn gaps(self, bytes: &mut Vec<u8>) -> (Vec<(u32, u32)>, Gaps, bool) {
        let (gaps, overlapping) = self.cover.gaps(self.data, bytes);
        (self.blocks, gaps, overlapping)
    }
}

/// Why a write stopped.
pub(crate) enum Fail {
    /// The model no longer fits the source layout (the writer falls back to the canonical one).
    Layout,
    /// The model cannot be written.
    Encode(EncodeError),
}

impl From<EncodeError> for Fail {
    fn from(e: EncodeError) -> Self {
        Fail::Encode(e)
    }
}

/// The write both codecs share. `run(Some(layout))` writes in the source layout, `run(None)`
/// in the canonical one. The source layout is kept while every block fits it and, where blocks
/// shared bytes in the source (they may now disagree), while `reads_back` says the output reads
/// back as the model.
pub(crate) fn write_keeping_layout<T>(
    layout: Option<&Layout>,
    run: impl Fn(Option<&Layout>) -> Result<T, Fail>,
    reads_back: impl FnOnce(&T) -> bool,
) -> Result<T, EncodeError> {
    if let Some(l) = layout {
        match run(Some(l)) {
            Ok(out) if !l.overlapping || reads_back(&out) => return Ok(out),
            Ok(_) | Err(Fail::Layout) => {}
            Err(Fail::Encode(e)) => return Err(e),
        }
    }
    match run(None) {
        Ok(out) => Ok(out),
        Err(Fail::Encode(e)) => Err(e),
        Err(Fail::Layout) => Err(EncodeError(
            "internal error: the canonical layout was refused".into(),
        )),
    }
}

/// An encoding failure.
pub(crate) fn bad(msg: impl Into<String>) -> Fail {
    Fail::Encode(EncodeError(msg.into()))
}

/// `n` as a 32-bit count.
pub(crate) fn count32(n: usize, what: &str) -> Result<u32, Fail> {
    u32::try_from(n).map_err(|_| bad(format!("{n} {what}: more than a 32-bit count holds")))
}

/// One pointer space being written.
pub(crate) struct Sink<'m> {
    /// The bytes written so far (in the source layout: the whole space, gaps filled in).
    pub buf: Vec<u8>,
    /// The source's blocks, when writing in its layout.
    source: Option<&'m [(u32, u32)]>,
    next: usize,
    /// What the space is called in messages.
    name: &'static str,
    /// Whether the canonical layout aligns blocks to 4 bytes (KotOR) or packs them, with empty
    /// blocks at offset 0 (NWN, as BioWare's compiler writes them).
    aligned: bool,
}

impl<'m> Sink<'m> {
    /// A sink in the canonical layout, blocks 4-byte aligned where asked.
    pub fn canonical(name: &'static str) -> Self {
        Sink {
            buf: Vec::new(),
            source: None,
            next: 0,
            name,
            aligned: true,
        }
    }

    /// A sink in the canonical layout, blocks packed without alignment.
    pub fn packed(name: &'static str) -> Self {
        Sink {
            aligned: false,
            ..Sink::canonical(name)
        }
    }

    /// A sink in a source layout: `size` bytes, the gaps (offset, range in `gap_bytes`) filled.
    pub fn source(
        name: &'static str,
        size: u32,
        blocks: &'m [(u32, u32)],
        gaps: &[(u32, u32, u32)],
        gap_bytes: &[u8],
    ) -> Self {
        let mut buf = vec![0; size as usize];
        for &(at, s, e) in gaps {
            buf[at as usize..(at + e - s) as usize]
                .copy_from_slice(&gap_bytes[s as usize..e as usize]);
        }
        Sink {
            buf,
            source: Some(blocks),
            next: 0,
            name,
            aligned: true,
        }
    }

    /// Whether the sink follows a source layout.
    pub fn follows_source(&self) -> bool {
        self.source.is_some()
    }

    /// Where the next block of `len` bytes goes: where the source had it, or at the end
    /// (4-byte aligned when `align` and the sink aligns).
    pub fn place(&mut self, len: usize, align: bool) -> Result<u32, Fail> {
        match self.source {
            Some(blocks) => {
                let &(off, n) = blocks.get(self.next).ok_or(Fail::Layout)?;
                self.next += 1;
                if n as usize != len {
                    return Err(Fail::Layout);
                }
                Ok(off)
            }
            None if len == 0 && !self.aligned => Ok(0),
            None => {
                if align && self.aligned {
                    let pad = (4 - self.buf.len() % 4) % 4;
                    self.buf.resize(self.buf.len() + pad, 0);
                }
                let off = count32(self.buf.len(), self.name)?;
                self.buf.resize(self.buf.len() + len, 0);
                Ok(off)
            }
        }
    }

    /// Writes `bytes` at `off` (a placed block).
    pub fn put(&mut self, off: u32, bytes: &[u8]) {
        let o = off as usize;
        self.buf[o..o + bytes.len()].copy_from_slice(bytes);
    }

    /// Whether every source block was placed (always true in the canonical layout).
    pub fn all_placed(&self) -> bool {
        self.source.is_none_or(|b| self.next == b.len())
    }
}

/// Derived words, as the source had them or canonical.
pub(crate) struct Words<'m> {
    source: Option<&'m [u32]>,
    next: usize,
}

impl<'m> Words<'m> {
    pub fn new(source: Option<&'m [u32]>) -> Self {
        Words { source, next: 0 }
    }

    /// The next derived word: as the source had it, or `canonical`.
    pub fn word(&mut self, canonical: u32) -> Result<u32, Fail> {
        match self.source {
            Some(w) => {
                let v = *w.get(self.next).ok_or(Fail::Layout)?;
                self.next += 1;
                Ok(v)
            }
            None => Ok(canonical),
        }
    }

    /// Whether every source word was used.
    pub fn all_used(&self) -> bool {
        self.source.is_none_or(|w| self.next == w.len())
    }
}

/// A pointer space being written together with the derived words: arrays and strings.
pub(crate) struct Out<'m> {
    pub sink: Sink<'m>,
    pub words: Words<'m>,
}

impl Out<'_> {
    /// Places an array of `count` records of `size` bytes (with its allocated-count word);
    /// returns its header (offset, count, allocated count).
    pub fn array(&mut self, count: usize, size: usize, what: &str) -> Result<[u32; 3], Fail> {
        let n = count32(count, what)?;
        let alloc = self.words.word(n)?;
        let off = self.sink.place(count * size, true)?;
        Ok([off, n, alloc])
    }

    /// An array holding `bytes` (`count` records).
    pub fn array_of(&mut self, count: usize, bytes: &[u8], what: &str) -> Result<[u32; 3], Fail> {
        let size = bytes.len().checked_div(count).unwrap_or(0);
        let a = self.array(count, size, what)?;
        self.sink.put(a[0], bytes);
        Ok(a)
    }

    /// A NUL-terminated string; returns its offset.
    pub fn string(&mut self, s: &[u8], what: &str) -> Result<u32, Fail> {
        if s.contains(&0) {
            return Err(bad(format!(
                "{what} {:?} contains a NUL byte",
                String::from_utf8_lossy(s)
            )));
        }
        let off = self.sink.place(s.len() + 1, false)?;
        self.sink.put(off, s);
        Ok(off)
    }
}

#[cfg(test)]
mod budget_tests {
    use super::*;

    #[test]
    fn overlapping_blocks_are_refused_past_the_budget() {
        let data = vec![0u8; 1 << 20];
        let mut space = Space::new(&data, 100, "the MDL data");
        // The same whole region over and over: 17 times 1 MiB passes 16 MiB + 1 MiB.
        for _ in 0..17 {
            space.block(0, data.len() as u64, "a vertex array").unwrap();
        }
        let e = space
            .block(0, data.len() as u64, "a vertex array")
            .unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::LimitExceeded);
        assert_eq!(e.location(), crate::Location::Offset(100));
    }
}
