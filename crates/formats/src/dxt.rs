//! S3TC block compression (DXT1/BC1, DXT3/BC2, DXT5/BC3): 4x4 pixel blocks of 8 or 16 bytes.
//!
//! Decoding goes through `bcdec_rs` (a safe port of bcdec), measured 2.2-2.6 times faster than
//! `texpresso`'s decoder on the corpus TPCs (`benches/texture.rs`); encoding through `texpresso`
//! (a port of libsquish, cluster fit). DXT1 blocks whose first colour is not above the second
//! decode their fourth colour as transparent black (the 1-bit alpha of DXT1).

use crate::error::{DecodeError, EncodeError};
use crate::image::Image;

/// A block-compressed encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Block {
    /// DXT1 (BC1): colour, 1-bit alpha, 8 bytes a block.
    Dxt1,
    /// DXT3 (BC2): colour, 4-bit explicit alpha, 16 bytes a block.
    Dxt3,
    /// DXT5 (BC3): colour, interpolated alpha, 16 bytes a block.
    Dxt5,
}

impl Block {
    /// Bytes per 4x4 block.
    pub const fn block_bytes(self) -> usize {
        match self {
            Block::Dxt1 => 8,
            Block::Dxt3 | Block::Dxt5 => 16,
        }
    }

    /// Bytes of a `width` x `height` image (whole blocks; at least one).
    pub fn size(self, width: u32, height: u32) -> usize {
        let bw = (width as usize).div_ceil(4).max(1);
        let bh = (height as usize).div_ceil(4).max(1);
        bw * bh * self.block_bytes()
    }

    fn decode_block(self, block: &[u8], out: &mut [u8], pitch: usize) {
        match self {
            Block::Dxt1 => bcdec_rs::bc1(block, out, pitch),
            Block::Dxt3 => bcdec_rs::bc2(block, out, pitch),
            Block::Dxt5 => bcdec_rs::bc3(block, out, pitch),
        }
    }

    fn texpresso(self) -> texpresso::Format {
        match self {
            Block::Dxt1 => texpresso::Format::Bc1,
            Block::Dxt3 => texpresso::Format::Bc2,
            Block::Dxt5 => texpresso::Format::Bc3,
        }
    }
}

/// Decodes a `width` x `height` image of `kind` blocks (rows of blocks, top first) to RGBA.
/// `data` must hold at least [`Block::size`] bytes (more is ignored).
pub fn decode(kind: Block, data: &[u8], width: u32, height: u32) -> Result<Image, DecodeError> {
    let need = kind.size(width, height);
    if data.len() < need {
        return Err(DecodeError::malformed_at(
            data.len() as u64,
            format!(
                "{width}x{height} pixels of {kind:?} need {need} bytes, but only {} are given",
                data.len()
            ),
        ));
    }
    let (w, h) = (width as usize, height as usize);
    let (bw, bh) = (w.div_ceil(4).max(1), h.div_ceil(4).max(1));
    let bytes = kind.block_bytes();
    if w % 4 == 0 && h % 4 == 0 {
        // Whole blocks: straight into the picture.
        let mut rgba = vec![0u8; w * h * 4];
        let pitch = w * 4;
        for (by, band) in rgba.chunks_exact_mut(pitch * 4).enumerate() {
            let row = &data[by * bw * bytes..(by + 1) * bw * bytes];
            for (bx, block) in row.chunks_exact(bytes).enumerate() {
                kind.decode_block(block, &mut band[bx * 16..], pitch);
            }
        }
        return Ok(Image {
            width,
            height,
            rgba,
        });
    }
    // Partial blocks (levels below 4 pixels, odd sizes): decode whole blocks, then crop.
    let (pw, ph) = (bw * 4, bh * 4);
    let mut padded = vec![0u8; pw * ph * 4];
    let pitch = pw * 4;
    for by in 0..bh {
        for bx in 0..bw {
            let i = (by * bw + bx) * bytes;
            let at = by * 4 * pitch + bx * 16;
            kind.decode_block(&data[i..i + bytes], &mut padded[at..], pitch);
        }
    }
    let mut rgba = Vec::with_capacity(w * h * 4);
    for y in 0..h {
        rgba.extend_from_slice(&padded[y * pitch..y * pitch + w * 4]);
    }
    Ok(Image {
        width,
        height,
        rgba,
    })
}

/// Encodes an RGBA picture as `kind` blocks (cluster fit, perceptual colour weights). DXT1
/// keeps pixels with alpha below 128 as transparent (the 3-colour blocks).
pub fn encode(kind: Block, img: &Image) -> Result<Vec<u8>, EncodeError> {
    img.check()?;
    let mut out = vec![0u8; kind.size(img.width, img.height)];
    encode_into(kind, img, &mut out);
    Ok(out)
}

/// [`encode`] into `out`, which holds [`Block::size`] bytes of the picture (its place in a
/// texture being written). The picture's RGBA must be `width * height * 4` bytes
/// ([`Image::check`]).
///
/// # Panics
///
/// When `out` is shorter than [`Block::size`] or the RGBA shorter than the picture: callers
/// size both from the picture.
pub fn encode_into(kind: Block, img: &Image, out: &mut [u8]) {
    let (w, h) = (img.width as usize, img.height as usize);
    assert!(out.len() >= kind.size(img.width, img.height));
    if w > 0 && h > 0 {
        kind.texpresso()
            .compress(&img.rgba, w, h, texpresso::Params::default(), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture with gradients, hard edges and (optionally) transparent pixels.
    fn picture(w: u32, h: u32, alpha: bool) -> Image {
        let mut rgba = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let a = if alpha && (x / 3 + y / 5) % 3 == 0 {
                    0
                } else {
                    255
                };
                rgba.extend_from_slice(&[
                    (x * 255 / w.max(1)) as u8,
                    (y * 255 / h.max(1)) as u8,
                    if (x / 8 + y / 8) % 2 == 0 { 40 } else { 220 },
                    a,
                ]);
            }
        }
        Image::new(w, h, rgba).unwrap()
    }

    /// Our decoder against texpresso's, an independent decoder of the same blocks: within one
    /// level per channel (the two round the interpolated colours differently).
    #[test]
    fn decode_agrees_with_texpresso() {
        for kind in [Block::Dxt1, Block::Dxt3, Block::Dxt5] {
            for (w, h) in [(64, 32), (4, 4), (2, 2), (1, 1), (12, 20), (6, 10)] {
                let src = picture(w, h, kind != Block::Dxt1 || w > 8);
                let blocks = encode(kind, &src).unwrap();
                assert_eq!(blocks.len(), kind.size(w, h));
                let ours = decode(kind, &blocks, w, h).unwrap();
                let mut theirs = vec![0u8; (w * h * 4) as usize];
                kind.texpresso()
                    .decompress(&blocks, w as usize, h as usize, &mut theirs);
                let worst = ours
                    .rgba
                    .iter()
                    .zip(&theirs)
                    .map(|(a, b)| a.abs_diff(*b))
                    .max()
                    .unwrap();
                assert!(worst <= 1, "{kind:?} {w}x{h}: differs by {worst}");
            }
        }
    }

    #[test]
    fn dxt1_keeps_cut_out_alpha() {
        let src = picture(16, 16, true);
        let back = decode(Block::Dxt1, &encode(Block::Dxt1, &src).unwrap(), 16, 16).unwrap();
        for (a, b) in src.rgba.chunks_exact(4).zip(back.rgba.chunks_exact(4)) {
            assert_eq!(a[3] == 0, b[3] == 0);
            if a[3] == 0 {
                assert_eq!(b, [0, 0, 0, 0], "transparent black");
            }
        }
    }

    #[test]
    fn short_data_is_an_error() {
        let e = decode(Block::Dxt5, &[0; 15], 4, 4).unwrap_err();
        assert!(e.message().contains("need 16 bytes"), "{e}");
        assert_eq!(Block::Dxt1.size(1, 1), 8);
        assert_eq!(Block::Dxt5.size(512, 512), 262_144);
    }
}
