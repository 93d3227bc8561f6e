//! Little-endian field access for the compiled-model codecs (KotOR and NWN): reads at offsets
//! the caller has checked, checked reads for shallow guesses, and appends for the writers.

/// A little-endian `u16` at `o` (the caller has checked the bounds).
#[inline]
pub fn le_u16(s: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([s[o], s[o + 1]])
}

/// A little-endian `u32` at `o`.
#[inline]
pub fn le_u32(s: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([s[o], s[o + 1], s[o + 2], s[o + 3]])
}

/// A little-endian `i32` at `o`.
#[inline]
pub fn le_i32(s: &[u8], o: usize) -> i32 {
    le_u32(s, o) as i32
}

/// A little-endian `f32` at `o` (bit-exact).
#[inline]
pub fn le_f32(s: &[u8], o: usize) -> f32 {
    f32::from_bits(le_u32(s, o))
}

/// Three little-endian `f32` at `o`.
#[inline]
pub fn vec3(s: &[u8], o: usize) -> [f32; 3] {
    [le_f32(s, o), le_f32(s, o + 4), le_f32(s, o + 8)]
}

/// A checked `u16` read (for the shallow walks that guess a layout).
pub fn get_u16(s: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes([*s.get(o)?, *s.get(o + 1)?]))
}

/// A checked `u32` read.
pub fn get_u32(s: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes([
        *s.get(o)?,
        *s.get(o + 1)?,
        *s.get(o + 2)?,
        *s.get(o + 3)?,
    ]))
}

/// The `N` bytes at `o`.
pub(crate) fn bytes_n<const N: usize>(s: &[u8], o: usize) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&s[o..o + N]);
    out
}

/// Consecutive records of `N` little-endian `f32` each.
pub(crate) fn f32_rows<const N: usize>(s: &[u8]) -> Vec<[f32; N]> {
    s.chunks_exact(4 * N)
        .map(|c| {
            let mut v = [0f32; N];
            for (slot, b) in v.iter_mut().zip(c.chunks_exact(4)) {
                *slot = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
            v
        })
        .collect()
}

/// Consecutive little-endian `f32`.
pub(crate) fn floats(s: &[u8]) -> Vec<f32> {
    s.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Consecutive little-endian `u32`.
pub(crate) fn words(s: &[u8]) -> Vec<u32> {
    s.chunks_exact(4).map(|c| le_u32(c, 0)).collect()
}

/// Consecutive little-endian `u16`.
pub(crate) fn halves(s: &[u8]) -> Vec<u16> {
    s.chunks_exact(2).map(|c| le_u16(c, 0)).collect()
}

pub(crate) fn push_u32(b: &mut Vec<u8>, v: u32) {
    b.extend_from_slice(&v.to_le_bytes());
}

pub(crate) fn push_u32s(b: &mut Vec<u8>, v: &[u32]) {
    for &x in v {
        push_u32(b, x);
    }
}

pub(crate) fn push_u16s(b: &mut Vec<u8>, v: &[u16]) {
    for &x in v {
        b.extend_from_slice(&x.to_le_bytes());
    }
}

pub(crate) fn push_f32s(b: &mut Vec<u8>, v: &[f32]) {
    for &x in v {
        b.extend_from_slice(&x.to_le_bytes());
    }
}

/// Records of `N` floats as bytes.
pub(crate) fn f32_rows_bytes<const N: usize>(v: &[[f32; N]]) -> Vec<u8> {
    let mut b = Vec::with_capacity(v.len() * 4 * N);
    for x in v {
        push_f32s(&mut b, x);
    }
    b
}

pub(crate) fn f32_bytes(v: &[f32]) -> Vec<u8> {
    let mut b = Vec::with_capacity(v.len() * 4);
    push_f32s(&mut b, v);
    b
}

pub(crate) fn u32_bytes(v: &[u32]) -> Vec<u8> {
    let mut b = Vec::with_capacity(v.len() * 4);
    push_u32s(&mut b, v);
    b
}

pub(crate) fn u16_bytes(v: &[u16]) -> Vec<u8> {
    let mut b = Vec::with_capacity(v.len() * 2);
    push_u16s(&mut b, v);
    b
}
