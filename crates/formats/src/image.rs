//! A decoded picture: RGBA, 8 bits a channel, rows top row first. Every texture format decodes
//! to it ([`crate::tpc`], [`crate::tga`]) and encodes from it; it also makes the smaller levels of
//! a mip chain ([`Image::half`]).

use crate::error::EncodeError;

/// An RGBA picture, 4 bytes per pixel, rows top row first.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes: R, G, B, A per pixel, top row first. Pictures without alpha
    /// read as opaque (A = 255).
    pub rgba: Vec<u8>,
}

impl Image {
    /// A picture of `width` x `height` pixels from its RGBA bytes; the length must be
    /// `width * height * 4`.
    pub fn new(width: u32, height: u32, rgba: Vec<u8>) -> Result<Image, EncodeError> {
        let img = Image {
            width,
            height,
            rgba,
        };
        img.check()?;
        Ok(img)
    }

    /// An error unless the RGBA bytes are `width * height * 4` long.
    pub fn check(&self) -> Result<(), EncodeError> {
        let want = (self.width as u64) * (self.height as u64) * 4;
        if self.rgba.len() as u64 != want {
            return Err(EncodeError(format!(
                "{} bytes of RGBA for {}x{} pixels: expected {want}",
                self.rgba.len(),
                self.width,
                self.height
            )));
        }
        Ok(())
    }

    /// Whether every pixel is opaque (alpha 255).
    pub fn is_opaque(&self) -> bool {
        self.rgba.chunks_exact(4).all(|p| p[3] == 255)
    }

    /// Whether every pixel is grey (R = G = B) and opaque.
    pub fn is_grey(&self) -> bool {
        self.rgba
            .chunks_exact(4)
            .all(|p| p[0] == p[1] && p[1] == p[2] && p[3] == 255)
    }

    /// The next level of a mip chain: half the size each way (at least 1), each pixel the mean
    /// of the 2x2 (or 2x1, 1x2) pixels it covers, rounded to nearest.
    pub fn half(&self) -> Image {
        let (w, h) = (self.width as usize, self.height as usize);
        let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
        let mut out = Vec::with_capacity(nw * nh * 4);
        for y in 0..nh {
            let ys = [(2 * y).min(h - 1), (2 * y + 1).min(h - 1)];
            let ys = if h == 1 { &ys[..1] } else { &ys[..] };
            for x in 0..nw {
                let xs = [(2 * x).min(w - 1), (2 * x + 1).min(w - 1)];
                let xs = if w == 1 { &xs[..1] } else { &xs[..] };
                let n = (xs.len() * ys.len()) as u32;
                for c in 0..4 {
                    let mut sum = 0u32;
                    for &yy in ys {
                        for &xx in xs {
                            sum += u32::from(self.rgba[(yy * w + xx) * 4 + c]);
                        }
                    }
                    out.push(((sum + n / 2) / n) as u8);
                }
            }
        }
        Image {
            width: nw as u32,
            height: nh as u32,
            rgba: out,
        }
    }

    /// The rectangle of `width` x `height` pixels whose top-left pixel is (`x`, `y`); `None`
    /// when it does not lie inside the picture.
    pub fn crop(&self, x: u32, y: u32, width: u32, height: u32) -> Option<Image> {
        if x.checked_add(width)? > self.width || y.checked_add(height)? > self.height {
            return None;
        }
        let (w, x, cw) = (self.width as usize, x as usize, width as usize);
        let mut rgba = Vec::with_capacity(cw * height as usize * 4);
        for row in y as usize..(y + height) as usize {
            let start = (row * w + x) * 4;
            rgba.extend_from_slice(&self.rgba[start..start + cw * 4]);
        }
        Some(Image {
            width,
            height,
            rgba,
        })
    }

    /// Pictures of one width stacked top to bottom (cube faces, animation frames); `None`
    /// when the widths differ or there is none.
    pub fn stack(parts: &[Image]) -> Option<Image> {
        let width = parts.first()?.width;
        if parts.iter().any(|p| p.width != width) {
            return None;
        }
        Some(Image {
            width,
            height: parts.iter().map(|p| p.height).sum(),
            rgba: parts.iter().flat_map(|p| p.rgba.iter().copied()).collect(),
        })
    }
}

/// Whether `n` is a power of two (1, 2, 4, ...).
pub fn is_power_of_two(n: u32) -> bool {
    n != 0 && n & (n - 1) == 0
}

/// The grey level of a colour: Rec. 601 luma (0.299 R + 0.587 G + 0.114 B), rounded; what a
/// grey TPC or an 8-bit TGA stores of a colour picture.
pub fn luma(r: u8, g: u8, b: u8) -> u8 {
    let l = 299 * u32::from(r) + 587 * u32::from(g) + 114 * u32::from(b);
    ((l + 500) / 1000) as u8
}

/// The number of levels of a full mip chain: halving until both sides are 1.
pub fn full_chain(width: u32, height: u32) -> u32 {
    32 - width.max(height).max(1).leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_averages_and_rounds() {
        let img = Image::new(
            2,
            2,
            vec![0, 0, 0, 255, 1, 2, 3, 255, 2, 4, 6, 255, 3, 6, 9, 253],
        )
        .unwrap();
        let h = img.half();
        assert_eq!((h.width, h.height), (1, 1));
        // (0+1+2+3)/4 = 1.5 -> 2; (0+2+4+6)/4 = 3; (0+3+6+9)/4 = 4.5 -> 5; alpha 254.5 -> 255.
        assert_eq!(h.rgba, vec![2, 3, 5, 255]);
        let tall = Image::new(1, 4, (0..16).collect()).unwrap().half();
        assert_eq!((tall.width, tall.height), (1, 2));
        assert_eq!(tall.rgba, vec![2, 3, 4, 5, 10, 11, 12, 13]);
    }

    #[test]
    fn chain_length_and_powers() {
        assert_eq!(full_chain(512, 512), 10);
        assert_eq!(full_chain(1024, 256), 11);
        assert_eq!(full_chain(1, 1), 1);
        assert_eq!(full_chain(64, 64), 7);
        assert!(is_power_of_two(256) && !is_power_of_two(0) && !is_power_of_two(96));
    }

    #[test]
    fn luma_weights_and_rounds() {
        assert_eq!(luma(255, 255, 255), 255);
        assert_eq!(luma(0, 0, 0), 0);
        assert_eq!(luma(7, 7, 7), 7, "grey stays grey");
        // 0.299 * 255 = 76.2, 0.587 * 255 = 149.7, 0.114 * 255 = 29.1.
        assert_eq!(
            (luma(255, 0, 0), luma(0, 255, 0), luma(0, 0, 255)),
            (76, 150, 29)
        );
    }

    #[test]
    fn crop_and_stack_are_inverse() {
        let img = Image::new(2, 6, (0..48).collect()).unwrap();
        let parts: Vec<Image> = (0..3).map(|i| img.crop(0, i * 2, 2, 2).unwrap()).collect();
        assert_eq!(Image::stack(&parts).unwrap(), img);
        assert!(img.crop(1, 0, 2, 1).is_none());
        assert!(Image::new(2, 2, vec![0; 3]).is_err());
    }
}
