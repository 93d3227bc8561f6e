//! TPC, the KotOR engine's texture format: a 128-byte header, the mip chain of each layer
//! (one image, six cube faces, or the frames of an animated texture), then an optional TXI
//! text trailer. Layout and the rules behind it: `docs/formats/tpc.md`.
//!
//! - [`read`]: every header variant (DXT1, DXT5, RGB, RGBA, grey, the Xbox's swizzled BGRA),
//!   cube maps (height six times the width, compressed), animated textures (the trailer's
//!   `proceduretype cycle` with `numx`/`numy`/`fps`), the trailer kept as bytes.
//! - [`write`]: the header, the levels and the trailer as they were: byte for byte when
//!   unmodified.
//! - [`Tpc::rgba`]: any level of any layer decoded to RGBA ([`crate::dxt`] for the blocks).
//! - [`Tpc::from_image`]: a new texture from RGBA pixels, encoded as DXT1, DXT5, RGB, RGBA or
//!   grey with a full mip chain ([`EncodeOptions`]); [`encode`]: the same straight to bytes,
//!   each level encoded into the one output buffer (what `convert` uses: bounded memory,
//!   `docs/formats/tpc.md` "Memory").
//! - [`validate`]: `tpc-*` findings and the trailer's `txi-unparsed` ones.

mod read;
mod validate;
mod write;

pub use read::{read, read_header};
pub use validate::validate;
pub use write::{EncodeOptions, encode, write};

use crate::dxt::{self, Block};
use crate::error::DecodeError;
use crate::image::Image;
use crate::txi::{self, Txi};

/// The header's size in bytes.
pub const HEADER_SIZE: usize = 128;

/// The header's encoding byte (offset 12).
pub mod encoding_byte {
    /// 8-bit grey.
    pub const GREY: u8 = 1;
    /// RGB, or DXT1 when the data size is not 0.
    pub const RGB: u8 = 2;
    /// RGBA, or DXT5 when the data size is not 0.
    pub const RGBA: u8 = 4;
    /// BGRA in the Xbox's swizzled layout (uncompressed only).
    pub const SWIZZLED_BGRA: u8 = 12;
}

/// How the pixels are stored: the header's encoding byte read with its data size (0 means
/// uncompressed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// 8-bit grey, one byte a pixel.
    Grey,
    /// R, G, B bytes.
    Rgb,
    /// R, G, B, A bytes.
    Rgba,
    /// B, G, R, A bytes in the Xbox's swizzled (Morton) order when the width is a power of two.
    SwizzledBgra,
    /// DXT1 blocks.
    Dxt1,
    /// DXT5 blocks.
    Dxt5,
}

impl Encoding {
    /// The encoding of a header's data size and encoding byte; `None` for a byte the engine
    /// does not know.
    pub fn from_header(data_size: u32, byte: u8) -> Option<Encoding> {
        use encoding_byte::*;
        Some(match (data_size != 0, byte) {
            (true, RGB) => Encoding::Dxt1,
            (true, RGBA) => Encoding::Dxt5,
            (false, GREY) => Encoding::Grey,
            (false, RGB) => Encoding::Rgb,
            (false, RGBA) => Encoding::Rgba,
            (false, SWIZZLED_BGRA) => Encoding::SwizzledBgra,
            _ => return None,
        })
    }

    /// The header's encoding byte.
    pub const fn header_byte(self) -> u8 {
        use encoding_byte::*;
        match self {
            Encoding::Grey => GREY,
            Encoding::Rgb | Encoding::Dxt1 => RGB,
            Encoding::Rgba | Encoding::Dxt5 => RGBA,
            Encoding::SwizzledBgra => SWIZZLED_BGRA,
        }
    }

    /// The name in `info --json` and `--encoding`.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Grey => "grey",
            Encoding::Rgb => "rgb",
            Encoding::Rgba => "rgba",
            Encoding::SwizzledBgra => "bgra-swizzled",
            Encoding::Dxt1 => "dxt1",
            Encoding::Dxt5 => "dxt5",
        }
    }

    /// The other names an encoding is known by (`gray`, the BCn names of the DXT blocks).
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            Encoding::Grey => &["gray"],
            Encoding::Dxt1 => &["bc1"],
            Encoding::Dxt5 => &["bc3"],
            Encoding::Rgb | Encoding::Rgba | Encoding::SwizzledBgra => &[],
        }
    }

    /// The encoding a texture can be written in named `name` ([`Encoding::name`] or one of
    /// its [`Encoding::aliases`], in any ASCII case); the swizzled BGRA is read only.
    pub fn from_name(name: &str) -> Option<Encoding> {
        [
            Encoding::Grey,
            Encoding::Rgb,
            Encoding::Rgba,
            Encoding::Dxt1,
            Encoding::Dxt5,
        ]
        .into_iter()
        .find(|e| {
            e.name().eq_ignore_ascii_case(name)
                || e.aliases().iter().any(|a| a.eq_ignore_ascii_case(name))
        })
    }

    /// The block codec of a compressed encoding.
    pub const fn block(self) -> Option<Block> {
        match self {
            Encoding::Dxt1 => Some(Block::Dxt1),
            Encoding::Dxt5 => Some(Block::Dxt5),
            _ => None,
        }
    }

    /// Whether the header's data size is not 0.
    pub const fn is_compressed(self) -> bool {
        self.block().is_some()
    }

    /// Bytes per pixel of an uncompressed encoding.
    const fn pixel_bytes(self) -> usize {
        match self {
            Encoding::Grey => 1,
            Encoding::Rgb => 3,
            Encoding::Rgba | Encoding::SwizzledBgra => 4,
            Encoding::Dxt1 | Encoding::Dxt5 => 0,
        }
    }

    /// Bytes of one `width` x `height` level.
    pub fn size(self, width: u32, height: u32) -> usize {
        match self.block() {
            Some(b) => b.size(width, height),
            None => width.max(1) as usize * height.max(1) as usize * self.pixel_bytes(),
        }
    }
}

/// How the layers of a texture are arranged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One image.
    Single,
    /// Six cube faces, each `width` x `width`, stacked in the header's height.
    Cube,
    /// `numx` x `numy` frames of an animated texture (the trailer's `proceduretype cycle`),
    /// each with its own mip chain.
    Animated {
        /// Frames across.
        numx: u32,
        /// Frames down.
        numy: u32,
    },
}

/// The 128-byte header, every field as stored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Header {
    /// Bytes of the first level (of every frame together, for an animated texture); 0 for an
    /// uncompressed texture (0x00).
    pub data_size: u32,
    /// The alpha-test threshold (0x04); the game's files hold 1.0 or just under.
    pub alpha_test: f32,
    /// Width of the whole image (0x08).
    pub width: u16,
    /// Height of the whole image: six faces for a cube map (0x0a).
    pub height: u16,
    /// The encoding byte (0x0c): [`encoding_byte`].
    pub encoding: u8,
    /// Levels per layer as the header says (0x0d).
    pub mip_count: u8,
    /// Reserved (0x0e..0x80), zero in every corpus file; kept as read.
    pub reserved: [u8; 114],
}

/// One level of a layer: its size and the bytes stored for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mip {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The stored bytes: at least [`Encoding::size`] (a first level whose header data size
    /// is larger keeps the extra bytes).
    pub data: Vec<u8>,
}

/// A TPC texture.
#[derive(Debug, Clone, PartialEq)]
pub struct Tpc {
    /// The header as read (or as [`Tpc::from_image`] made it).
    pub header: Header,
    /// How the pixels are stored.
    pub encoding: Encoding,
    /// How the layers are arranged.
    pub layout: Layout,
    /// The layers (1, 6 cube faces, or the frames), each its levels, largest first. Every
    /// layer has the same number of levels.
    pub layers: Vec<Vec<Mip>>,
    /// The bytes after the last level: the TXI text (empty when there is none).
    pub trailer: Vec<u8>,
}

impl Tpc {
    /// Width of a layer's first level.
    pub fn width(&self) -> u32 {
        self.layers
            .first()
            .and_then(|l| l.first())
            .map_or(0, |m| m.width)
    }

    /// Height of a layer's first level.
    pub fn height(&self) -> u32 {
        self.layers
            .first()
            .and_then(|l| l.first())
            .map_or(0, |m| m.height)
    }

    /// Levels per layer as read.
    pub fn mip_count(&self) -> usize {
        self.layers.first().map_or(0, Vec::len)
    }

    /// The trailer parsed as TXI.
    pub fn txi(&self) -> Txi {
        txi::read(&self.trailer)
    }

    /// Whether the trailer holds any text (before its first NUL).
    pub fn has_txi(&self) -> bool {
        !self.txi().is_blank()
    }

    /// Level `mip` of layer `layer` decoded to RGBA.
    pub fn rgba(&self, layer: usize, mip: usize) -> Result<Image, DecodeError> {
        let m = self
            .layers
            .get(layer)
            .and_then(|l| l.get(mip))
            .ok_or_else(|| no_level(self, layer, mip))?;
        check_pixels(u64::from(m.width), u64::from(m.height))?;
        decode_level(self.encoding, m)
    }

    /// Level `mip` of every layer, stacked top to bottom (a cube map's six faces, an animated
    /// texture's frames in order): the picture a TGA of the texture holds. One layer is its
    /// level decoded; several are decoded one at a time into the one picture.
    pub fn rgba_all(&self, mip: usize) -> Result<Image, DecodeError> {
        if self.layers.len() == 1 {
            return self.rgba(0, mip);
        }
        let sizes: Vec<(u32, u32)> = (0..self.layers.len())
            .map(|l| {
                self.layers[l]
                    .get(mip)
                    .map(|m| (m.width, m.height))
                    .ok_or_else(|| no_level(self, l, mip))
            })
            .collect::<Result<_, _>>()?;
        let numx = match self.layout {
            Layout::Animated { numx, .. } if numx > 1 => numx as usize,
            _ => 1,
        };
        let (fw, fh) = sizes[0];
        let same = sizes.iter().all(|&s| s == (fw, fh));
        let differ = || DecodeError::malformed_at(0, "the layers differ in size");
        if numx > 1 && !same || sizes.iter().any(|s| s.0 != fw) {
            return Err(differ());
        }
        let rows = sizes.len().div_ceil(numx);
        let w = u64::from(fw) * numx as u64;
        let h = if numx > 1 {
            u64::from(fh) * rows as u64
        } else {
            sizes.iter().map(|s| u64::from(s.1)).sum()
        };
        check_pixels(w, h)?;
        let (w, fw) = (w as usize, fw as usize);
        let mut rgba = vec![0u8; w * h as usize * 4];
        let mut top = 0usize;
        for l in 0..self.layers.len() {
            let f = self.rgba(l, mip)?;
            let (cx, cy) = (l % numx, l / numx);
            let y0 = if numx > 1 { cy * fh as usize } else { top };
            for (y, row) in f.rgba.chunks_exact(fw * 4).enumerate() {
                let dst = ((y0 + y) * w + cx * fw) * 4;
                rgba[dst..dst + fw * 4].copy_from_slice(row);
            }
            top += f.height as usize;
        }
        Ok(Image {
            width: w as u32,
            height: h as u32,
            rgba,
        })
    }
}

/// The most pixels a TPC level, or its layers together, is decoded to (64 Mi, as PNG and
/// TGA: 256 MiB of RGBA).
pub const MAX_PIXELS: u64 = 1 << 26;

/// An error (at the header's width) when a `w` x `h` picture is over [`MAX_PIXELS`].
fn check_pixels(w: u64, h: u64) -> Result<(), DecodeError> {
    if w * h > MAX_PIXELS {
        return Err(DecodeError::limit_at(
            8,
            format!("a {w}x{h} picture: more than the limit of {MAX_PIXELS} pixels decoded"),
        ));
    }
    Ok(())
}

/// The error for a missing level.
fn no_level(tpc: &Tpc, layer: usize, mip: usize) -> DecodeError {
    DecodeError::malformed_at(
        0,
        format!(
            "no level {mip} of layer {layer}: the texture has {} layers of {} levels",
            tpc.layers.len(),
            tpc.mip_count()
        ),
    )
}

/// Decodes one level.
fn decode_level(encoding: Encoding, m: &Mip) -> Result<Image, DecodeError> {
    let (w, h) = (m.width, m.height);
    if let Some(block) = encoding.block() {
        return dxt::decode(block, &m.data, w, h);
    }
    let n = w as usize * h as usize;
    let need = encoding.size(w, h);
    if m.data.len() < need {
        return Err(DecodeError::malformed_at(
            m.data.len() as u64,
            format!(
                "{w}x{h} pixels of {} need {need} bytes, but only {} are stored",
                encoding.name(),
                m.data.len()
            ),
        ));
    }
    let mut rgba = Vec::with_capacity(n * 4);
    match encoding {
        Encoding::Grey => m.data[..n]
            .iter()
            .for_each(|&g| rgba.extend_from_slice(&[g, g, g, 255])),
        Encoding::Rgb => m.data[..n * 3]
            .chunks_exact(3)
            .for_each(|p| rgba.extend_from_slice(&[p[0], p[1], p[2], 255])),
        Encoding::Rgba => rgba.extend_from_slice(&m.data[..n * 4]),
        Encoding::SwizzledBgra => {
            let swizzled = crate::image::is_power_of_two(w);
            for y in 0..h {
                for x in 0..w {
                    let i = if swizzled {
                        deswizzle_offset(x, y, w, h)
                    } else {
                        y as usize * w as usize + x as usize
                    };
                    let p = &m.data[i * 4..i * 4 + 4];
                    rgba.extend_from_slice(&[p[2], p[1], p[0], p[3]]);
                }
            }
        }
        Encoding::Dxt1 | Encoding::Dxt5 => unreachable!("handled above"),
    }
    Ok(Image {
        width: w,
        height: h,
        rgba,
    })
}

/// A side's length at level `i` of a chain: halved `i` times, at least 1.
pub fn level_side(side: u32, i: usize) -> u32 {
    u32::try_from(i)
        .ok()
        .and_then(|i| side.checked_shr(i))
        .unwrap_or(0)
        .max(1)
}

/// The stored index of pixel (`x`, `y`) in the Xbox's swizzled layout: the bits of x and y
/// interleaved, x first, for as many bits as each side has (xoreos's `deSwizzleOffset`).
pub fn deswizzle_offset(x: u32, y: u32, width: u32, height: u32) -> usize {
    let (mut wb, mut hb) = (width.max(1).ilog2(), height.max(1).ilog2());
    let (mut x, mut y) = (x, y);
    let mut offset = 0usize;
    let mut shift = 0;
    while wb > 0 || hb > 0 {
        if wb > 0 {
            offset |= ((x & 1) as usize) << shift;
            x >>= 1;
            shift += 1;
            wb -= 1;
        }
        if hb > 0 {
            offset |= ((y & 1) as usize) << shift;
            y >>= 1;
            shift += 1;
            hb -= 1;
        }
    }
    offset
}

#[cfg(test)]
mod tests;
