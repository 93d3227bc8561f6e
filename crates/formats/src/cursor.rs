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
