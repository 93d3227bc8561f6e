//! Truevision TGA images, the format the KotOR engine reads its loose textures from (the area
//! minimap `lbl_map<module>.tga` among them).
//!
//! - [`read`] / [`read_file`]: every image type (1/9 colour-mapped with 8- or 16-bit indices
//!   into a map of 15-, 16-, 24- or 32-bit entries; 2/10 true colour at 15, 16, 24 or 32 bits;
//!   3/11 grey at 8 bits, or 16 with alpha), plain or run-length encoded, either origin (bit 5
//!   of the descriptor: top or bottom row first; bit 4: right-to-left columns). [`read_file`]
//!   keeps every byte ([`TgaFile`]), so [`write_file`] gives an unmodified file back byte for
//!   byte, trailing data (a TGA 2.0 footer, an appended TXI) included.
//! - [`read_header`]: the 18-byte header alone (width, height, type, depth).
//! - [`write`]: 8 (grey), 16, 24 or 32 bits per pixel, plain or run-length encoded, bottom row
//!   first (the TGA default, what Photoshop and the game's own textures use) or top row first.
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

/// A decoded image: RGBA, 4 bytes per pixel, rows top row first ([`crate::image::Image`]).
pub type Tga = crate::image::Image;

/// How [`write`] lays the image out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOptions {
    /// 8 (grey), 16 (A1R5G5B5), 24 (BGR, alpha dropped) or 32 (BGRA, 8 alpha bits).
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

/// Reads the 18-byte header and checks that areakit reads its image type and depth.
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
    let kind = match h.image_type {
        1 | 9 => "colour-mapped",
        2 | 10 => "true-colour",
        3 | 11 => "grey",
        // Valid TGA types areakit does not read: a warning, never an error.
        0 => {
            return Err(unsupported(
                2,
                "image type 0: the file holds no image data".into(),
            ));
        }
        t @ (32 | 33) => {
            return Err(unsupported(
                2,
                format!("image type {t} (Huffman, delta and quadtree compressed) is not read"),
            ));
        }
        t => {
            return Err(DecodeError::malformed_at(
                2,
                format!("image type {t}: not a TGA image type (expected 1, 2, 3, 9, 10 or 11)"),
            ));
        }
    };
    let (ok_depth, expected) = match h.image_type {
        1 | 9 => (matches!(h.bits_per_pixel, 8 | 16), "8 or 16"),
        2 | 10 => (
            matches!(h.bits_per_pixel, 15 | 16 | 24 | 32),
            "15, 16, 24 or 32",
        ),
        _ => (matches!(h.bits_per_pixel, 8 | 16), "8 or 16"),
    };
    if !ok_depth {
        return Err(unsupported(
            16,
            format!(
                "{} bits per pixel in a {kind} image: expected {expected}",
                h.bits_per_pixel
            ),
        ));
    }
    if h.color_map_type > 1 {
        // 2-127 are Truevision's reserved types, 128-255 the developer's own.
        return Err(unsupported(
            1,
            format!(
                "colour map type {}: only 0 (none) and 1 (a colour map) are read",
                h.color_map_type
            ),
        ));
    }
    if h.is_color_mapped() {
        if h.color_map_type != 1 {
            return Err(DecodeError::malformed_at(
                1,
                "a colour-mapped image without a colour map (type 0)",
            ));
        }
        if !matches!(h.color_map_entry_bits, 15 | 16 | 24 | 32) {
            return Err(unsupported(
                7,
                format!(
                    "colour map entries of {} bits: expected 15, 16, 24 or 32",
                    h.color_map_entry_bits
                ),
            ));
        }
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

impl Header {
    /// Whether pixels are indices into a colour map (image types 1 and 9).
    pub fn is_color_mapped(&self) -> bool {
        matches!(self.image_type, 1 | 9)
    }

    /// Whether pixels are grey (image types 3 and 11).
    pub fn is_grey(&self) -> bool {
        matches!(self.image_type, 3 | 11)
    }

    /// Alpha bits per pixel (descriptor bits 0-3).
    pub fn alpha_bits(&self) -> u8 {
        self.descriptor & 0x0f
    }
}

/// A TGA file as stored: the header, the image id, the colour map and the pixel bytes (run-
/// length encoded or not) exactly as read, whatever follows them (a TGA 2.0 extension area and
/// footer, or a TXI some tools append), and the decoded [`Tga`]. [`write_file`] gives the
/// same bytes back while the image is unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TgaFile {
    /// The header.
    pub header: Header,
    /// The image id.
    pub id: Vec<u8>,
    /// The colour map's bytes.
    pub color_map: Vec<u8>,
    /// The pixel bytes as stored.
    pub pixels: Vec<u8>,
    /// The bytes after the pixels.
    pub trailer: Vec<u8>,
    /// The decoded image.
    pub image: Tga,
}

/// The TGA 2.0 footer's signature (the last 18 bytes of a file that has one).
pub const FOOTER_SIGNATURE: &[u8; 18] = b"TRUEVISION-XFILE.\0";

impl TgaFile {
    /// Whether the file ends with a TGA 2.0 footer.
    pub fn has_footer(&self) -> bool {
        self.trailer.len() >= 26 && self.trailer.ends_with(FOOTER_SIGNATURE)
    }

    /// The bytes after the pixels as TXI text, when they are text (some tools append the TXI
    /// of a texture to its TGA) and no TGA 2.0 footer.
    pub fn trailing_text(&self) -> Option<&[u8]> {
        let t = &self.trailer;
        (!self.has_footer()
            && !t.is_empty()
            && t.iter().any(|b| b.is_ascii_alphanumeric())
            && t.iter().all(|&b| {
                b == 0 || b == b'\t' || b == b'\r' || b == b'\n' || (0x20..0x7f).contains(&b)
            }))
        .then_some(t.as_slice())
    }
}

/// The findings of a TGA file: the `txi-unparsed` warnings of a TXI appended to it (item
/// `txi`). Nothing else about a TGA that decodes is known to trouble the engine.
pub fn validate(f: &TgaFile) -> Vec<crate::Finding> {
    let Some(text) = f.trailing_text() else {
        return Vec::new();
    };
    crate::txi::read(text)
        .findings
        .into_iter()
        .map(|mut x| {
            x.place = x.place.item("txi");
            x
        })
        .collect()
}

/// Reads a TGA image (see the module documentation for what is read).
pub fn read(data: &[u8]) -> Result<Tga, DecodeError> {
    read_file(data).map(|f| f.image)
}

/// Reads a TGA file with every part kept ([`TgaFile`]).
pub fn read_file(data: &[u8]) -> Result<TgaFile, DecodeError> {
    crate::census::decoded("tga");
    let h = read_header(data)?;
    let mut c = Cursor::at(data, HEADER_SIZE, "image id")?;
    let id = c.bytes(usize::from(h.id_length), "the image id")?.to_vec();
    let color_map = if h.color_map_type == 1 {
        let entry = usize::from(h.color_map_entry_bits).div_ceil(8);
        c.bytes(usize::from(h.color_map_length) * entry, "the colour map")?
            .to_vec()
    } else {
        Vec::new()
    };
    let bpp = usize::from(h.bits_per_pixel).div_ceil(8);
    let (w, hgt) = (u64::from(h.width), u64::from(h.height));
    let pixels = w * hgt;
    if pixels > MAX_PIXELS {
        return Err(DecodeError::limit_at(
            12,
            format!("{w}x{hgt} pixels: more than the limit of {MAX_PIXELS}"),
        ));
    }
    let start = c.pos();
    let remaining = c.remaining() as u64;
    let mut out = Unpacker::new(&h, &color_map);
    if h.is_rle() {
        // Each packet is a header byte and at least one pixel, and gives at most 128 pixels.
        let most = remaining / (1 + bpp as u64) * 128;
        if pixels > most {
            return Err(DecodeError::malformed_at(
                start as u64,
                format!(
                    "{w}x{hgt} pixels cannot be encoded in the {remaining} bytes that remain (at most {most} pixels)"
                ),
            ));
        }
        decode_rle(&mut c, pixels as usize, bpp, &mut out)?;
    } else {
        let need = pixels * bpp as u64;
        if need > remaining {
            return Err(DecodeError::malformed_at(
                start as u64,
                format!(
                    "expected {need} bytes of pixels ({w}x{hgt} at {} bits), but only {remaining} bytes remain",
                    h.bits_per_pixel
                ),
            ));
        }
        let raw = c.bytes(need as usize, "the pixels")?;
        for (i, px) in raw.chunks_exact(bpp).enumerate() {
            out.put(i, 1, px, start + i * bpp)?;
        }
    }
    let stored = data[start..c.pos()].to_vec();
    let trailer = data[c.pos()..].to_vec();
    let image = out.finish();
    Ok(TgaFile {
        header: h,
        id,
        color_map,
        pixels: stored,
        trailer,
        image,
    })
}

/// One pixel's RGBA from its stored bytes (B, G, R, A order; 16 bits as A1R5G5B5).
fn colour(px: &[u8], alpha_bits: u8) -> [u8; 4] {
    match *px {
        [b, g, r, a] => [r, g, b, a],
        [b, g, r] => [r, g, b, 255],
        [lo, hi] => {
            let v = u16::from_le_bytes([lo, hi]);
            let five = |s: u16| {
                let c = ((v >> s) & 0x1f) as u8;
                (c << 3) | (c >> 2)
            };
            let a = if alpha_bits == 0 || v & 0x8000 != 0 {
                255
            } else {
                0
            };
            [five(10), five(5), five(0), a]
        }
        _ => [0, 0, 0, 255],
    }
}

/// Pixels in file order made into the RGBA image, top row first: each stored pixel is
/// converted once (a run's once for all its pixels) and written where the descriptor's row and
/// column order put it. The one allocation is the RGBA image.
struct Unpacker<'a> {
    h: &'a Header,
    color_map: &'a [u8],
    width: usize,
    height: usize,
    rgba: Vec<u8>,
}

impl<'a> Unpacker<'a> {
    /// `read_file` has checked the pixel count against [`MAX_PIXELS`] and the input.
    fn new(h: &'a Header, color_map: &'a [u8]) -> Self {
        let (width, height) = (usize::from(h.width), usize::from(h.height));
        Unpacker {
            h,
            color_map,
            width,
            height,
            rgba: vec![0u8; width * height * 4],
        }
    }

    /// Pixels `i .. i + count` (file order) are the stored pixel `px`, read at byte `at`.
    fn put(&mut self, i: usize, count: usize, px: &[u8], at: usize) -> Result<(), DecodeError> {
        let value = self.value(i, px, at)?;
        let (w, h) = (self.width, self.height);
        let top_first = self.h.descriptor & DESCRIPTOR_TOP != 0;
        let right_first = self.h.descriptor & DESCRIPTOR_RIGHT != 0;
        for k in i..i + count {
            let (row, col) = (k / w, k % w);
            let y = if top_first { row } else { h - 1 - row };
            let x = if right_first { w - 1 - col } else { col };
            let o = (y * w + x) * 4;
            self.rgba[o..o + 4].copy_from_slice(&value);
        }
        Ok(())
    }

    /// The RGBA of stored pixel `px` (pixel `i`, at byte `at`).
    fn value(&self, i: usize, px: &[u8], at: usize) -> Result<[u8; 4], DecodeError> {
        let h = self.h;
        if h.is_color_mapped() {
            let entry = usize::from(h.color_map_entry_bits).div_ceil(8);
            let index = match *px {
                [a] => usize::from(a),
                [a, b] => usize::from(u16::from_le_bytes([a, b])),
                _ => 0,
            };
            let slot = index.checked_sub(usize::from(h.color_map_first));
            return match slot.and_then(|s| self.color_map.get(s * entry..(s + 1) * entry)) {
                Some(e) => Ok(colour(e, h.alpha_bits())),
                None => Err(DecodeError::malformed_at(
                    at as u64,
                    format!(
                        "pixel {i} is colour {index}, outside the colour map (entries {} to {})",
                        h.color_map_first,
                        usize::from(h.color_map_first) + usize::from(h.color_map_length)
                    ),
                )),
            };
        }
        Ok(if h.is_grey() {
            match *px {
                [g] => [g, g, g, 255],
                [g, a] => [g, g, g, a],
                _ => [0, 0, 0, 255],
            }
        } else {
            colour(px, h.alpha_bits())
        })
    }

    fn finish(self) -> Tga {
        Tga {
            width: self.width as u32,
            height: self.height as u32,
            rgba: self.rgba,
        }
    }
}

/// Decodes `pixels` run-length encoded pixels of `bpp` bytes each (file order) into `out`.
fn decode_rle(
    c: &mut Cursor<'_>,
    pixels: usize,
    bpp: usize,
    out: &mut Unpacker<'_>,
) -> Result<(), DecodeError> {
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
            out.put(done, count, px, at + 1)?;
        } else {
            let raw = c.bytes(count * bpp, "the pixels of a raw packet")?;
            for (k, px) in raw.chunks_exact(bpp).enumerate() {
                out.put(done + k, 1, px, at + 1 + k * bpp)?;
            }
        }
        done += count;
    }
    Ok(())
}

/// Writes a [`TgaFile`]: its stored bytes while [`TgaFile::image`] is what they decode to;
/// otherwise the image encoded as the header says (depth, run-length encoding, row order;
/// a colour-mapped image becomes 32-bit true colour), with its image id and, unless it is a
/// TGA 2.0 footer whose offsets would no longer hold, its trailer.
pub fn write_file(f: &TgaFile) -> Result<Vec<u8>, EncodeError> {
    let stored = assemble(f);
    if read_file(&stored).is_ok_and(|back| back.image == f.image) {
        return Ok(stored);
    }
    let bits = match f.header.bits_per_pixel {
        _ if f.header.is_color_mapped() => 32,
        8 if f.header.is_grey() => 8,
        15 | 16 if !f.header.is_grey() => 16,
        24 => 24,
        _ => 32,
    };
    let opts = WriteOptions {
        bits_per_pixel: bits,
        rle: f.header.is_rle(),
        top_row_first: f.header.descriptor & DESCRIPTOR_TOP != 0,
    };
    let mut out = write(&f.image, opts)?;
    if !f.id.is_empty() && f.id.len() <= 255 {
        out[0] = f.id.len() as u8;
        out.splice(HEADER_SIZE..HEADER_SIZE, f.id.iter().copied());
    }
    if !f.has_footer() {
        out.extend_from_slice(&f.trailer);
    }
    Ok(out)
}

/// The stored parts of a file, in order.
fn assemble(f: &TgaFile) -> Vec<u8> {
    let h = &f.header;
    let mut out = Vec::with_capacity(
        HEADER_SIZE + f.id.len() + f.color_map.len() + f.pixels.len() + f.trailer.len(),
    );
    out.extend_from_slice(&[h.id_length, h.color_map_type, h.image_type]);
    out.extend_from_slice(&h.color_map_first.to_le_bytes());
    out.extend_from_slice(&h.color_map_length.to_le_bytes());
    out.push(h.color_map_entry_bits);
    for v in [h.x_origin, h.y_origin, h.width, h.height] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&[h.bits_per_pixel, h.descriptor]);
    out.extend_from_slice(&f.id);
    out.extend_from_slice(&f.color_map);
    out.extend_from_slice(&f.pixels);
    out.extend_from_slice(&f.trailer);
    out
}

/// Writes `img` as a TGA file laid out as `opts` says: 8 bits (grey, type 3/11; each pixel's
/// luma), 16 (A1R5G5B5: alpha at 128 and above is opaque), 24 (BGR) or 32 (BGRA).
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
    let (bpp, image_type, alpha_bits) = match opts.bits_per_pixel {
        8 => (1, 3, 0),
        16 => (2, 2, 1),
        24 => (3, 2, 0),
        32 => (4, 2, 8),
        b => {
            return Err(EncodeError(format!(
                "{b} bits per pixel: TGA is written with 8 (grey), 16, 24 or 32"
            )));
        }
    };
    let mut descriptor = alpha_bits;
    if opts.top_row_first {
        descriptor |= DESCRIPTOR_TOP;
    }
    let mut out = Vec::with_capacity(HEADER_SIZE + w * h * bpp);
    out.extend_from_slice(&[0, 0, if opts.rle { image_type + 8 } else { image_type }]);
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
            match bpp {
                1 => [crate::image::luma(p[0], p[1], p[2]), 0, 0, 0],
                2 => {
                    let c = |v: u8| u16::from(v >> 3);
                    let a = if p[3] >= 128 { 0x8000 } else { 0 };
                    let v = a | (c(p[0]) << 10) | (c(p[1]) << 5) | c(p[2]);
                    let [lo, hi] = v.to_le_bytes();
                    [lo, hi, 0, 0]
                }
                _ => [p[2], p[1], p[0], p[3]],
            }
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
    fn valid_variants_not_read_are_unsupported_not_malformed() {
        let bytes = write(&sample(4, 4), WriteOptions::default()).unwrap();
        // Image type 0 (no image data) and 32/33 (Huffman, delta and quadtree) are TGA types;
        // colour map types 2-255 are reserved or the developer's own.
        for (at, v) in [(2, 0), (2, 32), (2, 33), (1, 2), (1, 128), (1, 255)] {
            let mut b = bytes.clone();
            b[at] = v;
            let e = read(&b).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Unsupported, "byte {at} = {v}: {e}");
            assert_eq!(e.location(), Location::Offset(at as u64), "{e}");
        }
        // An image type no TGA has is malformed.
        for v in [4, 8, 12, 31, 34, 255] {
            let mut b = bytes.clone();
            b[2] = v;
            let e = read(&b).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Malformed, "image type {v}: {e}");
        }
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
        assert_eq!(
            read(&cmap).unwrap_err().kind(),
            ErrorKind::Unsupported,
            "32-bit indices"
        );
        let mut depth = bytes.clone();
        depth[16] = 12;
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
            bits_per_pixel: 12,
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

    #[test]
    fn sixteen_bits_grey_and_colour_maps() {
        let img = sample(20, 3);
        for bits in [8u8, 16] {
            for rle in [false, true] {
                let opts = WriteOptions {
                    bits_per_pixel: bits,
                    rle,
                    top_row_first: false,
                };
                let back = read(&write(&img, opts).unwrap()).unwrap();
                for (a, b) in img.rgba.chunks_exact(4).zip(back.rgba.chunks_exact(4)) {
                    if bits == 16 {
                        // Five bits a channel, one of alpha.
                        for c in 0..3 {
                            assert!(a[c].abs_diff(b[c]) <= 7, "{a:?} {b:?}");
                        }
                        assert_eq!(b[3], if a[3] >= 128 { 255 } else { 0 });
                    } else {
                        assert!(b[0] == b[1] && b[1] == b[2] && b[3] == 255);
                    }
                }
            }
        }
        // A colour-mapped image: 2x1, map of two 24-bit entries starting at entry 5.
        let mut cm = vec![
            0,
            1,
            1,
            5,
            0,
            2,
            0,
            24,
            0,
            0,
            0,
            0,
            2,
            0,
            1,
            0,
            8,
            DESCRIPTOR_TOP,
        ];
        cm.extend_from_slice(&[10, 20, 30, 40, 50, 60]); // BGR entries 5 and 6
        cm.extend_from_slice(&[6, 5]);
        let f = read_file(&cm).unwrap();
        assert_eq!(f.image.rgba, vec![60, 50, 40, 255, 30, 20, 10, 255]);
        assert_eq!(write_file(&f).unwrap(), cm);
        let mut bad = cm.clone();
        bad[24] = 9;
        assert!(
            read(&bad)
                .unwrap_err()
                .message()
                .contains("outside the colour map")
        );
        // 15-bit true colour is opaque whatever its top bit says; grey with alpha.
        let px15 = [
            0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 15, 0, 0xff, 0x7f,
        ];
        assert_eq!(read(&px15).unwrap().rgba, vec![255, 255, 255, 255]);
        let ga = [0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 16, 8, 9, 77];
        assert_eq!(read(&ga).unwrap().rgba, vec![9, 9, 9, 77]);
    }

    #[test]
    fn files_write_back_byte_for_byte_until_changed() {
        let img = sample(9, 4);
        let mut bytes = write(
            &img,
            WriteOptions {
                rle: true,
                ..WriteOptions::default()
            },
        )
        .unwrap();
        bytes.extend_from_slice(b"mipmap 0 \r\n");
        let mut f = read_file(&bytes).unwrap();
        assert_eq!(f.trailing_text(), Some(&b"mipmap 0 \r\n"[..]));
        assert_eq!(write_file(&f).unwrap(), bytes);
        f.image.rgba[0] ^= 0xff;
        let changed = write_file(&f).unwrap();
        let back = read_file(&changed).unwrap();
        assert_eq!(back.image, f.image);
        assert!(back.header.is_rle());
        assert_eq!(back.trailer, b"mipmap 0 \r\n");
    }
}
