//! Reading a TPC: the header, the layout (cube map, animated frames), the levels of every
//! layer, and the trailer.

use super::{Encoding, HEADER_SIZE, Header, Layout, Mip, Tpc, level_side};
use crate::cursor::Cursor;
use crate::error::{DecodeError, ErrorKind, Location};
use crate::txi;

/// Reads the 128-byte header (the fields as stored, nothing checked).
pub fn read_header(data: &[u8]) -> Result<Header, DecodeError> {
    let mut c = Cursor::new(data);
    Ok(Header {
        data_size: c.u32("the data size")?,
        alpha_test: c.f32("the alpha test value")?,
        width: c.u16("the width")?,
        height: c.u16("the height")?,
        encoding: c.u8("the encoding")?,
        mip_count: c.u8("the mip count")?,
        reserved: c.array("the reserved header bytes")?,
    })
}

/// Where the engine takes the trailer to start: after the levels the header describes (the
/// first level's size from the data size when compressed), for each layer.
pub(super) fn header_trailer_start(
    h: &Header,
    encoding: Encoding,
    layers: usize,
    w: u32,
    hh: u32,
) -> u64 {
    let levels = u32::from(h.mip_count.max(1));
    let per_layer: u64 = (0..levels)
        .map(|i| {
            level_size(
                encoding,
                h,
                level_side(w, i as usize),
                level_side(hh, i as usize),
                i == 0,
            ) as u64
        })
        .sum();
    HEADER_SIZE as u64 + per_layer * layers as u64
}

/// Bytes stored for a level: the first level of a compressed texture takes the header's data
/// size when that is larger than its pixels need (the engine reads that many).
fn level_size(encoding: Encoding, h: &Header, w: u32, hh: u32, first: bool) -> usize {
    let size = encoding.size(w.max(1), hh.max(1));
    if first && encoding.is_compressed() {
        size.max(h.data_size as usize)
    } else {
        size
    }
}

/// Levels of an animated texture's frame: halving until a side reaches 0 (the references'
/// rule; the header's count is not used).
pub(super) fn animated_levels(w: u32, h: u32) -> usize {
    let (mut w, mut h, mut n) = (w, h, 0);
    while w > 0 && h > 0 {
        w /= 2;
        h /= 2;
        n += 1;
    }
    n
}

/// The layout of a texture whose header is `h`: cube map when compressed and the height is six
/// times the width; animated when the trailer (found where the header puts it) asks for
/// `proceduretype cycle` with frames that divide the image. Also the layer count, the size
/// of a layer's first level and the levels wanted per layer.
pub(super) fn layout_of(
    h: &Header,
    encoding: Encoding,
    data: &[u8],
) -> (Layout, usize, u32, u32, usize) {
    let (w, hh) = (u32::from(h.width), u32::from(h.height));
    if encoding.is_compressed() && hh == 6 * w {
        return (Layout::Cube, 6, w, w, usize::from(h.mip_count.max(1)));
    }
    let start = header_trailer_start(h, encoding, 1, w, hh);
    if let Some(rest) = usize::try_from(start).ok().and_then(|s| data.get(s..))
        && let Some((nx, ny, _)) = txi::read(rest).animation()
        && w % nx == 0
        && hh % ny == 0
        && nx * ny > 1
    {
        let (fw, fh) = (w / nx, hh / ny);
        let layout = Layout::Animated { numx: nx, numy: ny };
        return (layout, (nx * ny) as usize, fw, fh, animated_levels(fw, fh));
    }
    (Layout::Single, 1, w, hh, usize::from(h.mip_count.max(1)))
}

/// Reads a TPC (see the module documentation).
///
/// Errors: a header shorter than 128 bytes, a zero width or height, an encoding the engine does
/// not know (unsupported), or fewer bytes than the first level of every layer needs. A chain
/// shorter than the header says is read as far as the bytes go (`validate` reports it).
pub fn read(data: &[u8]) -> Result<Tpc, DecodeError> {
    crate::census::decoded("tpc");
    let header = read_header(data)?;
    let encoding = Encoding::from_header(header.data_size, header.encoding).ok_or_else(|| {
        DecodeError::new(
            ErrorKind::Unsupported,
            Location::Offset(12),
            format!(
                "encoding {} with data size {}: expected 1 (grey), 2 (RGB; DXT1 when compressed), \
                 4 (RGBA; DXT5 when compressed) or 12 (swizzled BGRA, uncompressed)",
                header.encoding, header.data_size
            ),
        )
    })?;
    if header.width == 0 || header.height == 0 {
        return Err(DecodeError::malformed_at(
            8,
            format!(
                "a texture of {}x{} pixels: expected at least 1x1",
                header.width, header.height
            ),
        ));
    }
    let (layout, layers, w, h, wanted) = layout_of(&header, encoding, data);
    let available = (data.len() - HEADER_SIZE) as u64;
    let sizes: Vec<usize> = (0..wanted)
        .map(|i| {
            let first = i == 0 && !matches!(layout, Layout::Animated { .. });
            level_size(encoding, &header, level_side(w, i), level_side(h, i), first)
        })
        .collect();
    // The most levels whose bytes every layer has.
    let mut levels = 0;
    let mut per_layer = 0u64;
    for &s in &sizes {
        if (per_layer + s as u64) * layers as u64 > available {
            break;
        }
        per_layer += s as u64;
        levels += 1;
    }
    if levels == 0 {
        return Err(DecodeError::malformed_at(
            HEADER_SIZE as u64,
            format!(
                "expected {} bytes for the first level of {layers} layer(s) ({w}x{h} {}), but only {available} bytes follow the header",
                sizes[0] as u64 * layers as u64,
                encoding.name()
            ),
        ));
    }
    let mut c = Cursor::at(data, HEADER_SIZE, "the pixels")?;
    let mut all = Vec::with_capacity(layers);
    for layer in 0..layers {
        let mut mips = Vec::with_capacity(levels);
        for (i, &size) in sizes.iter().take(levels).enumerate() {
            let bytes = c
                .bytes(size, "a level's pixels")
                .map_err(|e| e.within(format!("layer {layer} level {i}")))?;
            mips.push(Mip {
                width: level_side(w, i),
                height: level_side(h, i),
                data: bytes.to_vec(),
            });
        }
        all.push(mips);
    }
    let trailer = data[c.pos()..].to_vec();
    Ok(Tpc {
        header,
        encoding,
        layout,
        layers: all,
        trailer,
    })
}
