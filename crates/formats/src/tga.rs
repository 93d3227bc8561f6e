//! Truevision TGA images, the format the KotOR engine reads its loose textures from (the area
//! minimap `lbl_map<module>.tga` among them).
//!
//! - [`read`]: image types 2 (true colour) and 10 (run-length encoded true colour) at 24 or 32
//!   bits per pixel, 3 and 11 (grey, plain and run-length encoded) at 8 bits; either origin
//!   (bit 5 of the descriptor: top or bottom row first; bit 4: right-to-left columns); the
//!   image id and a colour map that a true-colour image carries are skipped. Colour-mapped
//!   images (types 1, 9) and 15/16-bit pixels are refused as unsupported.
//! - [`read_header`]: the 18-byte header alone (width, height, type, depth).
//! - [`write`]: 24 or 32 bits per pixel, plain or run-length encoded, bottom row first (the
//!   TGA default, what Photoshop and the game's own textures use) or top row first.
//!
//! A decoded [`Tga`] always holds RGBA rows top row first, whatever the file's order.
//! Allocation is bounded by the input: a plain image must be as long as its header says
//! before its pixels are allocated, a run-length encoded one can make at most 128 pixels per
//! packet of the bytes that remain, and no image may exceed [`MAX_PIXELS`].

use crate::cursor::Cursor;
use crate::error::{DecodeError, EncodeError, ErrorKind, Location};

/// The header's size in bytes.
pub const HEADER_SIZE: usize = 18;

/// The most pixels an image may have (64 Mi: 256 MiB as RGBA).
pub const MAX_PIXELS: u64 = 1 << 26;

/// Descriptor bit 5: the first row in the file is the top row.
pub const DESCRIPTOR_TOP: u8 = 0x20;

/// Descriptor bit 4: columns run right to left.
pub const DESCRIPTOR_RIGHT: u8 = 0x10;

/// The 18-byte header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Length of the image id that follows the header (0x00).
    pub id_length: u8,
    /// 1 when a colour map is present (0x01).
    pub color_map_type: u8,
    /// Image type (0x02): 1/9 colour-mapped, 2/10 true colour, 3/11 grey (9-11 run-length
    /// encoded).
    pub image_type: u8,
    /// First colour map entry (0x03).
    pub color_map_first: u16,
    /// Colour map entries (0x05).
    pub color_map_length: u16,
    /// Bits per colour map entry (0x07).
    pub color_map_entry_bits: u8,
    /// X origin (0x08).
    pub x_origin: u16,
    /// Y origin (0x0a).
    pub y_origin: u16,
    /// Width in pixels (0x0c).
    pub width: u16,
    /// Height in pixels (0x0e).
    pub height: u16,
    /// Bits per pixel (0x10).
    pub bits_per_pixel: u8,
    /// Descriptor (0x11): bits 0-3 alpha bits, bit 4 right-to-left, bit 5 top row first.
    pub descriptor: u8,
}

impl Header {
    /// Whether the pixel data is run-length encoded (image types 9, 10, 11).
    pub fn is_rle(&self) -> bool {
        self.image_type >= 9
    }
}

/// A decoded image: RGBA, 4 bytes per pixel, rows top row first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tga {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes: R, G, B, A per pixel, top row first. Images without alpha
    /// read as opaque (A = 255).
    pub rgba: Vec<u8>,
}

/// How [`write`] lays the image out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOptions {
    /// 24 (BGR, alpha dropped) or 32 (BGRA, 8 alpha bits).
    pub bits_per_pixel: u8,
    /// Run-length encode the pixels (image type 10 instead of 2).
    pub rle: bool,
    /// Top row first (descriptor bit 5); the default is bottom row first.
    pub top_row_first: bool,
}

impl Default for WriteOptions {
    /// 32 bits, plain, bottom row first: the layout of the game's own TGA textures.
    fn default() -> Self {
        WriteOptions {
            bits_per_pixel: 32,
            rle: false,
            top_row_first: false,
        }
    }
}

fn unsupported(offset: u64, message: String) -> DecodeError {
    DecodeError::new(ErrorKind::Unsupported, Location::Offset(offset), message)
}

/// Reads the 18-byte header.
pub fn read_header(data: &[u8]) -> Result<Header, DecodeError> {
    let mut c = Cursor::new(data);
    let h = Header {
        id_length: c.u8("image id length")?,
        color_map_type: c.u8("colour map type")?,
        image_type: c.u8("image type")?,
        color_map_first: c.u16("first colour map entry")?,
        color_map_length: c.u16("colour map length")?,
        color_map_entry_bits: c.u8("colour map entry size")?,
        x_origin: c.u16("x origin")?,
        y_origin: c.u16("y origin")?,
        width: c.u16("width")?,
        height: c.u16("height")?,
        bits_per_pixel: c.u8("bits per pixel")?,
        descriptor: c.u8("image descriptor")?,
    };
    match h.image_type {
        2 | 3 | 10 | 11 => {}
        1 | 9 => {
            return Err(unsupported(
                2,
                format!(
                    "image type {}: colour-mapped images are not read (expected 2, 3, 10 or 11)",
                    h.image_type
                ),
            ));
        }
        0 => {
            return Err(DecodeError::malformed_at(
                2,
                "image type 0: the file holds no image",
            ));
        }
        t => {
            return Err(DecodeError::malformed_at(
                2,
                format!("image type {t}: not a TGA image type (expected 2, 3, 10 or 11)"),
            ));
        }
    }
    let grey = matches!(h.image_type, 3 | 11);
    let ok_depth = if grey {
        h.bits_per_pixel == 8
    } else {
        matches!(h.bits_per_pixel, 24 | 32)
    };
    if !ok_depth {
        let expected = if grey { "8" } else { "24 or 32" };
        return Err(unsupported(
            16,
            format!(
                "{} bits per pixel in a {} image: expected {expected}",
                h.bits_per_pixel,
                if grey { "grey" } else { "true-colour" }
            ),
        ));
    }
    if h.color_map_type > 1 {
        return Err(DecodeError::malformed_at(
            1,
            format!("colour map type {}: expected 0 or 1", h.color_map_type),
        ));
    }
    if h.width == 0 || h.height == 0 {
        return Err(DecodeError::malformed_at(
            12,
            format!(
                "image of {}x{} pixels: expected at least 1x1",
                h.width, h.height
            ),
        ));
    }
    Ok(h)
}

/// Reads a TGA image (see the module documentation for what is read).
pub fn read(data: &[u8]) -> Result<Tga, DecodeError> {
    let h = read_header(data)?;
    let mut c = Cursor::at(data, HEADER_SIZE, "image id")?;
    c.bytes(usize::from(h.id_length), "the image id")?;
    if h.color_map_type == 1 {
        let entry = usize::from(h.color_map_entry_bits).div_ceil(8);
        c.bytes(usize::from(h.color_map_length) * entry, "the colour map")?;
    }
    let bpp = usize::from(h.bits_per_pixel / 8);
    let (w, hgt) = (u64::from(h.width), u64::from(h.height));
    let pixels = w * hgt;
    if pixels > MAX_PIXELS {
        return Err(DecodeError::limit_at(
            12,
            format!("{w}x{hgt} pixels: more than the limit of {MAX_PIXELS}"),
        ));
    }
    let start = c.pos() as u64;
    let remaining = c.remaining() as u64;
    let raw: Vec<u8> = if h.is_rle() {
        // Each packet is a header byte and at least one pixel, and gives at most 128 pixels.
        let most = remaining / (1 + bpp as u64) * 128;
        if pixels > most {
            return Err(DecodeError::malformed_at(
                start,
                format!(
                    "{w}x{hgt} pixels cannot be encoded in the {remaining} bytes that remain (at most {most} pixels)"
                ),
            ));
        }
        decode_rle(&mut c, pixels as usize, bpp)?
    } else {
        let need = pixels * bpp as u64;
        if need > remaining {
            return Err(DecodeError::malformed_at(
                start,
                format!(
                    "expected {need} bytes of pixels ({w}x{hgt} at {} bits), but only {remaining} bytes remain",
                    h.bits_per_pixel
                ),
            ));
        }
        c.bytes(need as usize, "the pixels")?.to_vec()
    };
    let (w, hgt) = (usize::from(h.width), usize::from(h.height));
    let top_first = h.descriptor & DESCRIPTOR_TOP != 0;
    let right_first = h.descriptor & DESCRIPTOR_RIGHT != 0;
    let mut rgba = vec![0u8; w * hgt * 4];
    for (i, px) in raw.chunks_exact(bpp).enumerate() {
        let (row, col) = (i / w, i % w);
        let y = if top_first { row } else { hgt - 1 - row };
        let x = if right_first { w - 1 - col } else { col };
        let o = (y * w + x) * 4;
        let out = &mut rgba[o..o + 4];
        match px {
            [g] => out.copy_from_slice(&[*g, *g, *g, 255]),
            [b, g, r] => out.copy_from_slice(&[*r, *g, *b, 255]),
            [b, g, r, a] => out.copy_from_slice(&[*r, *g, *b, *a]),
            _ => {}
        }
    }
    Ok(Tga {
        width: w as u32,
        height: hgt as u32,
        rgba,
    })
}

/// Decodes `pixels` run-length encoded pixels of `bpp` bytes each (file order).
fn decode_rle(c: &mut Cursor<'_>, pixels: usize, bpp: usize) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::with_capacity(pixels * bpp);
    let mut done = 0usize;
    while done < pixels {
        let at = c.pos();
        let head = c
            .u8("a run-length packet header")
            .map_err(|e| e.within(format!("pixel {done} of {pixels}")))?;
        let count = usize::from(head & 0x7f) + 1;
        if done + count > pixels {
            return Err(DecodeError::malformed_at(
                at as u64,
                format!(
                    "a packet of {count} pixels runs past the image's {pixels} pixels (pixel {done})"
                ),
            ));
        }
        if head & 0x80 != 0 {
            let px = c.bytes(bpp, "the repeated pixel of a run")?;
            for _ in 0..count {
                out.extend_from_slice(px);
            }
        } else {
            out.extend_from_slice(c.bytes(count * bpp, "the pixels of a raw packet")?);
        }
        done += count;
    }
    Ok(out)
}

/// Writes `img` as a TGA file laid out as `opts` says.
pub fn write(img: &Tga, opts: WriteOptions) -> Result<Vec<u8>, EncodeError> {
    let (w, h) = (img.width as usize, img.height as usize);
    if img.width == 0 || img.height == 0 || img.width > 0xffff || img.height > 0xffff {
        return Err(EncodeError(format!(
            "a TGA image is 1 to 65535 pixels each way, not {}x{}",
            img.width, img.height
        )));
    }
    if img.rgba.len() != w * h * 4 {
        return Err(EncodeError(format!(
            "{} bytes of RGBA for {}x{} pixels: expected {}",
            img.rgba.len(),
            img.width,
            img.height,
            w * h * 4
        )));
    }
    let bpp = match opts.bits_per_pixel {
        24 => 3,
        32 => 4,
        b => {
            return Err(EncodeError(format!(
                "{b} bits per pixel: TGA is written with 24 or 32"
            )));
        }
    };
    let mut descriptor = if bpp == 4 { 8 } else { 0 };
    if opts.top_row_first {
        descriptor |= DESCRIPTOR_TOP;
    }
    let mut out = Vec::with_capacity(HEADER_SIZE + w * h * bpp);
    out.extend_from_slice(&[0, 0, if opts.rle { 10 } else { 2 }]);
    out.extend_from_slice(&[0; 5]); // no colour map
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&(w as u16).to_le_bytes());
    out.extend_from_slice(&(h as u16).to_le_bytes());
    out.push(opts.bits_per_pixel);
    out.push(descriptor);
    for row in 0..h {
        let y = if opts.top_row_first { row } else { h - 1 - row };
        let line = &img.rgba[y * w * 4..(y + 1) * w * 4];
        let file_px = |x: usize| -> [u8; 4] {
            let p = &line[x * 4..x * 4 + 4];
            [p[2], p[1], p[0], p[3]]
        };
        if opts.rle {
            // Packets never cross a row (what most readers expect).
            let mut x = 0;
            while x < w {
                let mut run = 1;
                while x + run < w && run < 128 && file_px(x + run) == file_px(x) {
                    run += 1;
                }
                if run > 1 {
                    out.push(0x80 | (run as u8 - 1));
                    out.extend_from_slice(&file_px(x)[..bpp]);
                    x += run;
                } else {
                    let mut n = 1;
                    while x + n < w
                        && n < 128
                        && (x + n + 1 >= w || file_px(x + n) != file_px(x + n + 1))
                    {
                        n += 1;
                    }
                    out.push(n as u8 - 1);
                    for k in x..x + n {
                        out.extend_from_slice(&file_px(k)[..bpp]);
                    }
                    x += n;
                }
            }
        } else {
            for x in 0..w {
                out.extend_from_slice(&file_px(x)[..bpp]);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(w: u32, h: u32) -> Tga {
        let mut rgba = Vec::new();
        for y in 0..h {
            for x in 0..w {
                // Runs along a row, and differences between rows.
                let v = if x < w / 2 {
                    10
                } else {
                    (x * 7 + y * 13) as u8
                };
                rgba.extend_from_slice(&[v, y as u8, 200, if x == 0 { 0 } else { 255 }]);
            }
        }
        Tga {
            width: w,
            height: h,
            rgba,
        }
    }

    #[test]
    fn every_layout_reads_back() {
        let img = sample(300, 5);
        for bits in [24u8, 32] {
            for rle in [false, true] {
                for top in [false, true] {
                    let opts = WriteOptions {
                        bits_per_pixel: bits,
                        rle,
                        top_row_first: top,
                    };
                    let bytes = write(&img, opts).unwrap();
                    let back = read(&bytes).unwrap();
                    let mut want = img.clone();
                    if bits == 24 {
                        want.rgba.chunks_exact_mut(4).for_each(|p| p[3] = 255);
                    }
                    assert_eq!(back, want, "{opts:?}");
                }
            }
        }
    }

    #[test]
    fn bottom_row_first_by_default() {
        let img = sample(2, 2);
        let bytes = write(&img, WriteOptions::default()).unwrap();
        assert_eq!(bytes[2], 2);
        assert_eq!(bytes[16], 32);
        assert_eq!(bytes[17], 8, "8 alpha bits, bottom-left origin");
        // The first pixel in the file is the bottom-left one: row 1, column 0 (BGRA).
        let bl = &img.rgba[2 * 4..2 * 4 + 4];
        assert_eq!(&bytes[18..22], &[bl[2], bl[1], bl[0], bl[3]]);
    }

    #[test]
    fn rle_compresses_runs() {
        let img = Tga {
            width: 512,
            height: 256,
            rgba: vec![0; 512 * 256 * 4],
        };
        let opts = WriteOptions {
            rle: true,
            ..WriteOptions::default()
        };
        let bytes = write(&img, opts).unwrap();
        assert_eq!(bytes.len(), HEADER_SIZE + 256 * 4 * 5);
        assert_eq!(read(&bytes).unwrap(), img);
    }

    #[test]
    fn grey_and_right_to_left() {
        let mut bytes = vec![
            0,
            0,
            3,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            2,
            0,
            1,
            0,
            8,
            DESCRIPTOR_RIGHT,
        ];
        bytes.extend_from_slice(&[1, 2]);
        let img = read(&bytes).unwrap();
        assert_eq!(img.rgba, vec![2, 2, 2, 255, 1, 1, 1, 255]);
    }

    #[test]
    fn errors_say_where() {
        let img = sample(4, 4);
        let bytes = write(&img, WriteOptions::default()).unwrap();
        let e = read(&bytes[..40]).unwrap_err();
        assert_eq!(e.location(), Location::Offset(18));
        assert!(e.message().contains("64 bytes of pixels"), "{e}");
        let mut cmap = bytes.clone();
        cmap[2] = 1;
        assert_eq!(read(&cmap).unwrap_err().kind(), ErrorKind::Unsupported);
        let mut depth = bytes.clone();
        depth[16] = 16;
        assert_eq!(read(&depth).unwrap_err().kind(), ErrorKind::Unsupported);
        assert!(read(&bytes[..10]).is_err());
        // A huge RLE image in a few bytes is refused before anything is allocated.
        let mut huge = vec![
            0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 32, 8,
        ];
        huge.extend_from_slice(&[0xff, 1, 2, 3, 4]);
        let e = read(&huge).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{e}");
        let mut small = vec![0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 4, 32, 8];
        small.extend_from_slice(&[0xff, 1, 2, 3, 4]);
        let e = read(&small).unwrap_err();
        assert!(e.message().contains("cannot be encoded"), "{e}");
        // A run past the image's end.
        let mut over = vec![0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 32, 8];
        over.extend_from_slice(&[0x81, 1, 2, 3, 4]);
        let e = read(&over).unwrap_err();
        assert!(e.message().contains("runs past"), "{e}");
    }

    #[test]
    fn writer_refuses_what_tga_cannot_hold() {
        let img = sample(2, 2);
        let bad = WriteOptions {
            bits_per_pixel: 16,
            ..WriteOptions::default()
        };
        assert!(write(&img, bad).is_err());
        let short = Tga {
            width: 2,
            height: 2,
            rgba: vec![0; 3],
        };
        assert!(write(&short, WriteOptions::default()).is_err());
    }
}
