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

/// Reads a PNG of any colour type and depth to RGBA 8.
pub fn read(data: &[u8]) -> Result<Png, DecodeError> {
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
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(DecodeError::limit_at(
            16,
            format!("{width}x{height} pixels: more than the limit of {MAX_PIXELS}"),
        ));
    }
    let size = reader.output_buffer_size().ok_or_else(|| {
        DecodeError::limit_at(16, format!("{width}x{height} pixels do not fit in memory"))
    })?;
    let mut buf = vec![0u8; size];
    let out = reader.next_frame(&mut buf).map_err(decode_error)?;
    buf.truncate(out.buffer_size());
    let n = width as usize * height as usize;
    let rgba: Vec<u8> = match out.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::GrayscaleAlpha => buf
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => {
            return Err(DecodeError::new(
                ErrorKind::Unsupported,
                Location::Input,
                "PNG: an indexed image left unexpanded",
            ));
        }
    };
    if rgba.len() != n * 4 {
        return Err(DecodeError::malformed_at(
            0,
            format!("PNG: {} bytes of pixels for {width}x{height}", rgba.len()),
        ));
    }
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
