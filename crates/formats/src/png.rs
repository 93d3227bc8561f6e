//! PNG, the interchange format of image editors: read to an [`Image`] and written from one
//! (through the `png` crate). areakit reads PNG to convert it to the game's TPC and TGA and
//! writes it for glTF exports and conversions; an unmodified PNG keeps its bytes ([`Png`]).

use crate::error::{DecodeError, EncodeError, ErrorKind, Location};
use crate::image::Image;

/// The first eight bytes of every PNG.
pub const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// The most pixels a PNG may have (64 Mi, as for TGA).
pub const MAX_PIXELS: u64 = 1 << 26;

/// A PNG as read: its bytes, what its header says and its pixels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Png {
    /// The file's bytes (written back as they are).
    pub data: Vec<u8>,
    /// The colour type as stored: `grey`, `rgb`, `indexed`, `grey-alpha` or `rgba`.
    pub colour_type: &'static str,
    /// Bits per channel (per index for `indexed`).
    pub bit_depth: u8,
    /// Whether the file is interlaced (Adam7).
    pub interlaced: bool,
    /// The pixels as RGBA 8 (16-bit channels keep their high byte).
    pub image: Image,
}

fn colour_name(c: png::ColorType) -> &'static str {
    match c {
        png::ColorType::Grayscale => "grey",
        png::ColorType::Rgb => "rgb",
        png::ColorType::Indexed => "indexed",
        png::ColorType::GrayscaleAlpha => "grey-alpha",
        png::ColorType::Rgba => "rgba",
    }
}

fn decode_error(e: png::DecodingError) -> DecodeError {
    let kind = match e {
        png::DecodingError::LimitsExceeded => ErrorKind::LimitExceeded,
        png::DecodingError::Parameter(_) => ErrorKind::Unsupported,
        _ => ErrorKind::Malformed,
    };
    DecodeError::new(kind, Location::Input, format!("PNG: {e}"))
}

/// The most bytes deflate can inflate one compressed byte to (a 258-byte match in two bits).
const DEFLATE_MAX_RATIO: u64 = 1032;

/// Reads a PNG of any colour type and depth to RGBA 8.
///
/// Memory: one buffer of the RGBA pixels (`width * height * 4` bytes), allocated once the
/// header's size is known to be within [`MAX_PIXELS`] and within what the file's bytes can
/// inflate to; the decoder writes its rows into it and they are widened to RGBA in place.
pub fn read(data: &[u8]) -> Result<Png, DecodeError> {
    crate::census::decoded("png");
    if !data.starts_with(&SIGNATURE) {
        return Err(DecodeError::malformed_at(0, "not a PNG: no PNG signature"));
    }
    let limits = png::Limits {
        bytes: (MAX_PIXELS * 8) as usize,
    };
    let mut decoder = png::Decoder::new_with_limits(std::io::Cursor::new(data), limits);
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(decode_error)?;
    let info = reader.info();
    let (width, height) = (info.width, info.height);
    let colour_type = colour_name(info.color_type);
    let bit_depth = info.bit_depth as u8;
    let interlaced = info.interlaced;
    let bits = info.color_type.samples() as u64 * u64::from(bit_depth);
    let scanlines = (1 + (u64::from(width) * bits).div_ceil(8)).saturating_mul(u64::from(height));
    check_size(width, height, scanlines, data.len())?;
    let n = width as usize * height as usize;
    let size = reader.output_buffer_size().ok_or_else(|| {
        DecodeError::limit_at(16, format!("{width}x{height} pixels do not fit in memory"))
    })?;
    if size > n * 4 {
        return Err(DecodeError::new(
            ErrorKind::Unsupported,
            Location::Input,
            format!("PNG: {size} bytes of decoded pixels for {width}x{height}: more than RGBA 8"),
        ));
    }
    let mut rgba = vec![0u8; n * 4];
    let out = reader.next_frame(&mut rgba[..size]).map_err(decode_error)?;
    if (out.width, out.height) != (width, height) {
        return Err(DecodeError::malformed_at(
            0,
            format!(
                "PNG: a first frame of {}x{} in an image of {width}x{height}",
                out.width, out.height
            ),
        ));
    }
    widen_to_rgba(&mut rgba, out.color_type)?;
    Ok(Png {
        data: data.to_vec(),
        colour_type,
        bit_depth,
        interlaced,
        image: Image {
            width,
            height,
            rgba,
        },
    })
}

/// An error unless a `width` x `height` PNG is within [`MAX_PIXELS`] and its `scanlines`
/// bytes (filter bytes included, before interlacing) can come out of a file of `file_len`
/// bytes ([`DEFLATE_MAX_RATIO`]): checked before the pixels are allocated. Offset 16 is the
/// header's width.
fn check_size(width: u32, height: u32, scanlines: u64, file_len: usize) -> Result<(), DecodeError> {
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(DecodeError::limit_at(
            16,
            format!("{width}x{height} pixels: more than the limit of {MAX_PIXELS}"),
        ));
    }
    let most = (file_len as u64).saturating_mul(DEFLATE_MAX_RATIO);
    if scanlines > most {
        return Err(DecodeError::malformed_at(
            16,
            format!(
                "{width}x{height} pixels are {scanlines} bytes of scanlines, but a PNG of \
                 {file_len} bytes inflates to at most {most}"
            ),
        ));
    }
    Ok(())
}

/// Widens pixels decoded as `colour` (8 bits a channel, packed at the start of `rgba`) to
/// RGBA 8 in place: from the last pixel back, so that no pixel is overwritten before it is
/// read (pixel `i` is read at `i * k` and written at `i * 4`, with `k <= 4`).
fn widen_to_rgba(rgba: &mut [u8], colour: png::ColorType) -> Result<(), DecodeError> {
    let n = rgba.len() / 4;
    match colour {
        png::ColorType::Rgba => {}
        png::ColorType::Rgb => {
            for i in (0..n).rev() {
                let [r, g, b] = [rgba[i * 3], rgba[i * 3 + 1], rgba[i * 3 + 2]];
                rgba[i * 4..i * 4 + 4].copy_from_slice(&[r, g, b, 255]);
            }
        }
        png::ColorType::GrayscaleAlpha => {
            for i in (0..n).rev() {
                let [g, a] = [rgba[i * 2], rgba[i * 2 + 1]];
                rgba[i * 4..i * 4 + 4].copy_from_slice(&[g, g, g, a]);
            }
        }
        png::ColorType::Grayscale => {
            for i in (0..n).rev() {
                let g = rgba[i];
                rgba[i * 4..i * 4 + 4].copy_from_slice(&[g, g, g, 255]);
            }
        }
        png::ColorType::Indexed => {
            return Err(DecodeError::new(
                ErrorKind::Unsupported,
                Location::Input,
                "PNG: an indexed image left unexpanded",
            ));
        }
    }
    Ok(())
}

/// Writes an RGBA picture as a PNG (RGB when every pixel is opaque, else RGBA; 8 bits).
pub fn write(img: &Image) -> Result<Vec<u8>, EncodeError> {
    img.check()?;
    let err = |e: png::EncodingError| EncodeError(format!("PNG: {e}"));
    let opaque = img.is_opaque();
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, img.width, img.height);
        enc.set_color(if opaque {
            png::ColorType::Rgb
        } else {
            png::ColorType::Rgba
        });
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let mut writer = enc.write_header().map_err(err)?;
        if opaque {
            let rgb: Vec<u8> = img
                .rgba
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect();
            writer.write_image_data(&rgb).map_err(err)?;
        } else {
            writer.write_image_data(&img.rgba).map_err(err)?;
        }
        writer.finish().map_err(err)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_with_and_without_alpha() {
        for alpha in [255u8, 7] {
            let rgba: Vec<u8> = (0..6u8).flat_map(|i| [i * 40, 255 - i, i, alpha]).collect();
            let img = Image::new(3, 2, rgba).unwrap();
            let bytes = write(&img).unwrap();
            let png = read(&bytes).unwrap();
            assert_eq!(png.image, img);
            assert_eq!(png.colour_type, if alpha == 255 { "rgb" } else { "rgba" });
            assert_eq!(png.data, bytes);
        }
        assert!(read(b"\x89PNG\r\n\x1a\nxx").is_err());
        assert_eq!(read(b"GIF89a").unwrap_err().location(), Location::Offset(0));
    }
}
