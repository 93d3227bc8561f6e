//! A bounds-checked little-endian reader over a byte slice.
//!
//! Every read names what it is reading so that the error says what was expected at which offset.
//! Counts read from a header are multiplied with `checked_mul` and compared with the input length
//! before anything is allocated, so a hostile header cannot make a reader allocate more than the
//! input could hold.

use crate::error::DecodeError;

/// A cursor over `data` that knows its offset.
#[derive(Debug, Clone, Copy)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0 }
    }

    /// A cursor at `offset` of `data` (`what` names the table for the error).
    pub fn at(data: &'a [u8], offset: usize, what: &str) -> Result<Self, DecodeError> {
        if offset > data.len() {
            return Err(DecodeError::malformed_at(
                offset as u64,
                format!(
                    "{what} starts past the end of the input ({} bytes)",
                    data.len()
                ),
            ));
        }
        Ok(Self { data, pos: offset })
    }

    /// The current offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Takes `n` bytes.
    pub fn bytes(&mut self, n: usize, what: &str) -> Result<&'a [u8], DecodeError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        match end {
            Some(end) => {
                let s = &self.data[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => Err(DecodeError::malformed_at(
                self.pos as u64,
                format!(
                    "expected {what} ({n} bytes), but only {} bytes remain",
                    self.remaining()
                ),
            )),
        }
    }

    /// Takes a fixed-size array.
    pub fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], DecodeError> {
        let b = self.bytes(N, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    /// Reads a little-endian `u8`.
    pub fn u8(&mut self, what: &str) -> Result<u8, DecodeError> {
        Ok(self.array::<1>(what)?[0])
    }

    /// Reads a little-endian `u16`.
    pub fn u16(&mut self, what: &str) -> Result<u16, DecodeError> {
        Ok(u16::from_le_bytes(self.array(what)?))
    }

    /// Reads a little-endian `u32`.
    pub fn u32(&mut self, what: &str) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    /// Reads a little-endian `i32`.
    pub fn i32(&mut self, what: &str) -> Result<i32, DecodeError> {
        Ok(i32::from_le_bytes(self.array(what)?))
    }

    /// Reads a little-endian `f32` (bit-exact: NaN payloads and -0.0 survive).
    pub fn f32(&mut self, what: &str) -> Result<f32, DecodeError> {
        Ok(f32::from_le_bytes(self.array(what)?))
    }

    /// Reads three little-endian `f32`.
    pub fn vec3(&mut self, what: &str) -> Result<[f32; 3], DecodeError> {
        Ok([self.f32(what)?, self.f32(what)?, self.f32(what)?])
    }

    /// Checks that `count` records of `size` bytes fit in the input from the current offset,
    /// and returns the byte length. Use before allocating for `count` records.
    pub fn check_table(&self, count: u64, size: u64, what: &str) -> Result<usize, DecodeError> {
        let len = count.checked_mul(size).ok_or_else(|| {
            DecodeError::limit_at(
                self.pos as u64,
                format!("{what}: count {count} x {size} bytes overflows"),
            )
        })?;
        if len > self.remaining() as u64 {
            return Err(DecodeError::malformed_at(
                self.pos as u64,
                format!(
                    "{what}: {count} records of {size} bytes need {len} bytes, but only {} remain",
                    self.remaining()
                ),
            ));
        }
        Ok(len as usize)
    }
}

/// Little-endian append helpers for writers.
pub(crate) trait PutLe {
    fn put_u32(&mut self, v: u32);
    fn put_i32(&mut self, v: i32);
    fn put_f32(&mut self, v: f32);
    fn put_vec3(&mut self, v: [f32; 3]);
}

impl PutLe for Vec<u8> {
    fn put_u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_i32(&mut self, v: i32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_f32(&mut self, v: f32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_vec3(&mut self, v: [f32; 3]) {
        for c in v {
            self.put_f32(c);
        }
    }
}

/// `len` bytes of `data` from `offset`, or an error at `at` (the offset of the record that
/// names the range) saying `what` does not fit.
pub fn slice_at<'a>(
    data: &'a [u8],
    offset: u64,
    len: u64,
    at: u64,
    what: &str,
) -> Result<&'a [u8], DecodeError> {
    match offset.checked_add(len) {
        Some(end) if end <= data.len() as u64 => Ok(&data[offset as usize..end as usize]),
        _ => Err(DecodeError::malformed_at(
            at,
            format!(
                "{what}: {len} bytes at offset {offset:#x} run past the end of the input ({} bytes)",
                data.len()
            ),
        )),
    }
}

/// Bounds the bytes an archive reader copies out of its input. Tables may name the same bytes
/// many times (overlapping data ranges, shared names); a reader that copies each named range
/// takes its length from the budget first, so a hostile table cannot make it allocate more
/// than a fixed multiple of the input's size.
#[derive(Debug, Clone, Copy)]
pub struct CopyBudget {
    left: u64,
    limit: u64,
}

impl CopyBudget {
    /// A budget of `factor` times `input_len` bytes.
    pub fn new(input_len: usize, factor: u64) -> Self {
        let limit = (input_len as u64).saturating_mul(factor);
        CopyBudget { left: limit, limit }
    }

    /// Takes `n` bytes, or fails with [`ErrorKind::LimitExceeded`](crate::ErrorKind) at `at`.
    pub fn take(&mut self, n: u64, at: u64, what: &str) -> Result<(), DecodeError> {
        if n > self.left {
            return Err(DecodeError::limit_at(
                at,
                format!(
                    "{what}: the tables name more than {} bytes in all (a limit of a multiple of the input size: ranges name the same bytes many times)",
                    self.limit
                ),
            ));
        }
        self.left -= n;
        Ok(())
    }
}

/// A run of bytes that no table of an archive names (alignment padding, slack after a
/// resource, trailing bytes), kept so that an unmodified archive writes back byte for byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    /// Offset of the first byte in the file.
    pub offset: u64,
    /// The bytes as read.
    pub bytes: Vec<u8>,
}

/// The bytes of `data` outside every `covered` range (`(start, end)`, half-open, any order,
/// may overlap; ranges are clipped to the input), in file order.
pub fn gaps(data: &[u8], covered: &mut [(u64, u64)]) -> Vec<Gap> {
    covered.sort_unstable();
    let len = data.len() as u64;
    let mut out = Vec::new();
    let mut pos = 0u64;
    for &(start, end) in covered.iter() {
        let (start, end) = (start.min(len), end.min(len));
        if start > pos {
            out.push(Gap {
                offset: pos,
                bytes: data[pos as usize..start as usize].to_vec(),
            });
        }
        pos = pos.max(end);
    }
    if pos < len {
        out.push(Gap {
            offset: pos,
            bytes: data[pos as usize..].to_vec(),
        });
    }
    out
}

/// Lays `pieces` (offset, bytes) into a buffer of `len` bytes (zero where no piece lands;
/// empty pieces are ignored wherever they point). `None` when a piece does not fit or two
/// pieces disagree on a byte they share: the layout they came from no longer holds.
pub(crate) fn assemble(len: u64, pieces: &[(u64, &[u8])]) -> Option<Vec<u8>> {
    let len = usize::try_from(len).ok()?;
    let pieces: Vec<(u64, &[u8])> = pieces.iter().copied().filter(|p| !p.1.is_empty()).collect();
    for &(off, b) in &pieces {
        if off.checked_add(b.len() as u64)? > len as u64 {
            return None;
        }
    }
    let mut out = vec![0u8; len];
    for &(off, b) in &pieces {
        out[off as usize..off as usize + b.len()].copy_from_slice(b);
    }
    pieces
        .iter()
        .all(|&(off, b)| &out[off as usize..off as usize + b.len()] == b)
        .then_some(out)
}

/// An error reading an archive through [`std::io::Read`] + [`std::io::Seek`]: the I/O failed,
/// or the bytes do not decode.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// Reading or seeking failed.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// The bytes read do not decode.
    #[error(transparent)]
    Decode(#[from] DecodeError),
}

/// Reads exactly `len` bytes at `offset` of `r`. The caller bounds `len` (by the stream's
/// length) before calling: this allocates `len` bytes.
pub fn read_exact_at<R: std::io::Read + std::io::Seek>(
    r: &mut R,
    offset: u64,
    len: usize,
) -> Result<Vec<u8>, std::io::Error> {
    r.seek(std::io::SeekFrom::Start(offset))?;
    let mut buf = vec![0u8; len];
    r.read_exact(&mut buf)?;
    Ok(buf)
}

/// A `u16` append for the archive writers.
pub(crate) trait PutMore {
    fn put_u16(&mut self, v: u16);
}

impl PutMore for Vec<u8> {
    fn put_u16(&mut self, v: u16) {
        self.extend_from_slice(&v.to_le_bytes());
    }
}

/// Checks that the `tables` (name, start, end; empty ones ignored) share no byte: a table
/// whose records double as another's is an error located at the later table's start.
pub(crate) fn check_disjoint(tables: &[(&str, u64, u64)]) -> Result<(), DecodeError> {
    let mut t: Vec<_> = tables.iter().filter(|t| t.2 > t.1).collect();
    t.sort_by_key(|t| (t.1, t.2));
    for w in t.windows(2) {
        let (a, b) = (w[0], w[1]);
        if b.1 < a.2 {
            return Err(DecodeError::malformed_at(
                b.1,
                format!(
                    "the {} ({:#x}..{:#x}) overlaps the {} ({:#x}..{:#x})",
                    b.0, b.1, b.2, a.0, a.1, a.2
                ),
            ));
        }
    }
    Ok(())
}
