//! Writing a TPC, and making one from RGBA pixels.

use super::read::{animated_levels, header_trailer_start, layout_of};
use super::{Encoding, HEADER_SIZE, Header, Layout, Mip, Tpc, level_side};
use crate::dxt;
use crate::error::EncodeError;
use crate::image::{self, Image};
use crate::txi;

/// Writes a TPC: the header's fields, every layer's levels and the trailer, in that order (an
/// unmodified texture writes back byte for byte). A level with fewer bytes than its size needs
/// is an error.
pub fn write(tpc: &Tpc) -> Result<Vec<u8>, EncodeError> {
    let h = &tpc.header;
    let body: usize = tpc.layers.iter().flatten().map(|m| m.data.len()).sum();
    let mut out = Vec::with_capacity(HEADER_SIZE + body + tpc.trailer.len());
    out.extend_from_slice(&h.data_size.to_le_bytes());
    out.extend_from_slice(&h.alpha_test.to_le_bytes());
    out.extend_from_slice(&h.width.to_le_bytes());
    out.extend_from_slice(&h.height.to_le_bytes());
    out.push(h.encoding);
    out.push(h.mip_count);
    out.extend_from_slice(&h.reserved);
    for (l, layer) in tpc.layers.iter().enumerate() {
        for (i, m) in layer.iter().enumerate() {
            let need = tpc.encoding.size(m.width, m.height);
            if m.data.len() < need {
                return Err(EncodeError(format!(
                    "layer {l} level {i} ({}x{} {}): {} bytes, expected at least {need}",
                    m.width,
                    m.height,
                    tpc.encoding.name(),
                    m.data.len()
                )));
            }
            out.extend_from_slice(&m.data);
        }
    }
    out.extend_from_slice(&tpc.trailer);
    Ok(out)
}

/// How [`Tpc::from_image`] encodes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EncodeOptions {
    /// The encoding; `None`: DXT1 when every pixel is opaque, else DXT5 (what the game's own
    /// textures use).
    pub encoding: Option<Encoding>,
    /// A full mip chain (down to 1x1); `false`: the first level alone. Animated textures always
    /// get their full chain (the engine computes it).
    pub mipmaps: bool,
    /// The header's alpha-test value (the game's files hold 1.0).
    pub alpha_test: f32,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            encoding: None,
            mipmaps: true,
            alpha_test: 1.0,
        }
    }
}

impl Tpc {
    /// A texture of `img` with `txi` as its trailer. The TXI decides the layout, as the engine
    /// reads it back: `cube 1` with a height six times the width makes a cube map of the six
    /// stacked faces (compressed encodings only); `proceduretype cycle` with `numx`, `numy` and
    /// `fps` makes an animated texture of the frames, row by row.
    ///
    /// The levels are those [`encode`] writes (this is [`encode`] split into its levels).
    ///
    /// Errors: RGBA bytes that are not `width * height * 4` long ([`Image::check`]), a side
    /// outside 1..=32767, an encoding that cannot hold the layout.
    pub fn from_image(img: &Image, txi: &[u8], opts: &EncodeOptions) -> Result<Tpc, EncodeError> {
        let (plan, bytes) = encode_planned(img, txi, opts)?;
        let mut at = HEADER_SIZE;
        let layers = plan
            .faces
            .iter()
            .map(|_| {
                plan.level_sizes()
                    .map(|(width, height, size)| {
                        let data = bytes[at..at + size].to_vec();
                        at += size;
                        Mip {
                            width,
                            height,
                            data,
                        }
                    })
                    .collect()
            })
            .collect();
        Ok(Tpc {
            header: plan.header,
            encoding: plan.encoding,
            layout: plan.layout,
            layers,
            trailer: bytes[at..].to_vec(),
        })
    }
}

/// A TPC of `img` with `txi` as its trailer, as bytes: what `write(&Tpc::from_image(..))`
/// gives, made without the [`Tpc`] between. The output is allocated once at its final size and
/// every level is encoded straight into it; a face's levels are made each from the one before
/// (two levels held at a time), a cube face or animation frame cropped one at a time, and the
/// first level of a single image is `img` itself. Memory beyond `img` and the output: a
/// quarter of the largest face and its next level (about 0.33 of a face), plus that face when
/// it is cropped.
///
/// Errors as [`Tpc::from_image`].
pub fn encode(img: &Image, txi: &[u8], opts: &EncodeOptions) -> Result<Vec<u8>, EncodeError> {
    encode_planned(img, txi, opts).map(|(_, bytes)| bytes)
}

/// What a picture becomes: the header, the encoding, the layout, the faces (rectangles of the
/// picture: x, y, width, height; one for a single image) and the levels of each.
struct Plan {
    header: Header,
    encoding: Encoding,
    layout: Layout,
    faces: Vec<[u32; 4]>,
    levels: usize,
}

impl Plan {
    /// Width, height and bytes of each level of a face, largest first.
    fn level_sizes(&self) -> impl Iterator<Item = (u32, u32, usize)> + '_ {
        let [_, _, w, h] = self.faces[0];
        (0..self.levels).map(move |i| {
            let (lw, lh) = (level_side(w, i), level_side(h, i));
            (lw, lh, self.encoding.size(lw, lh))
        })
    }

    /// Bytes of the header and every level.
    fn body_end(&self) -> u64 {
        let face: u64 = self.level_sizes().map(|(_, _, s)| s as u64).sum();
        HEADER_SIZE as u64 + face * self.faces.len() as u64
    }
}

/// The plan of `img` (see [`Tpc::from_image`] for the rules and errors).
fn plan(img: &Image, txi: &[u8], opts: &EncodeOptions) -> Result<Plan, EncodeError> {
    img.check()?;
    if img.width == 0 || img.height == 0 || img.width > 0x7fff || img.height > 0x7fff {
        return Err(EncodeError(format!(
            "a TPC is 1 to 32767 pixels each way, not {}x{}",
            img.width, img.height
        )));
    }
    let encoding = match opts.encoding {
        Some(Encoding::SwizzledBgra) => {
            return Err(EncodeError(
                "the Xbox's swizzled BGRA is read, not written: choose rgba".into(),
            ));
        }
        Some(e) => e,
        None if img.is_opaque() => Encoding::Dxt1,
        None => Encoding::Dxt5,
    };
    let parsed = txi::read(txi);
    let (w, h) = (img.width, img.height);
    let cube = parsed.flag("cube") && h == 6 * w;
    if cube && !encoding.is_compressed() {
        return Err(EncodeError(format!(
            "a cube map is read back only when compressed: encode {} as dxt1 or dxt5",
            encoding.name()
        )));
    }
    let animated = parsed
        .animation()
        .filter(|&(nx, ny, _)| !cube && w % nx == 0 && h % ny == 0 && nx * ny > 1);
    let (layout, faces): (Layout, Vec<[u32; 4]>) = if cube {
        (Layout::Cube, (0..6).map(|i| [0, i * w, w, w]).collect())
    } else if let Some((nx, ny, _)) = animated {
        let (fw, fh) = (w / nx, h / ny);
        let frames = (0..nx * ny)
            .map(|i| [(i % nx) * fw, (i / nx) * fh, fw, fh])
            .collect();
        (Layout::Animated { numx: nx, numy: ny }, frames)
    } else {
        (Layout::Single, vec![[0, 0, w, h]])
    };
    let [_, _, fw, fh] = faces[0];
    let levels = match layout {
        Layout::Animated { .. } => animated_levels(fw, fh),
        _ if opts.mipmaps => image::full_chain(fw, fh) as usize,
        _ => 1,
    };
    let first = encoding.size(fw, fh) as u64;
    let data_size = match (encoding.is_compressed(), layout) {
        (false, _) => 0,
        (true, Layout::Animated { numx, numy }) => first * u64::from(numx) * u64::from(numy),
        (true, _) => first,
    };
    let data_size = u32::try_from(data_size).map_err(|_| {
        EncodeError(format!(
            "{data_size} bytes of first level: more than a TPC header holds"
        ))
    })?;
    let header = Header {
        data_size,
        alpha_test: opts.alpha_test,
        width: w as u16,
        height: h as u16,
        encoding: encoding.header_byte(),
        mip_count: levels.min(255) as u8,
        reserved: [0; 114],
    };
    Ok(Plan {
        header,
        encoding,
        layout,
        faces,
        levels,
    })
}

/// The plan of `img` and the TPC's bytes ([`encode`]).
fn encode_planned(
    img: &Image,
    txi: &[u8],
    opts: &EncodeOptions,
) -> Result<(Plan, Vec<u8>), EncodeError> {
    let mut plan = plan(img, txi, opts)?;
    let end = plan.body_end();
    let total = usize::try_from(end + txi.len() as u64)
        .map_err(|_| EncodeError(format!("a TPC of {end} bytes does not fit in memory")))?;
    let mut out = vec![0u8; total];
    write_header(&plan.header, &mut out[..HEADER_SIZE]);
    let mut at = HEADER_SIZE;
    for &[x, y, fw, fh] in &plan.faces {
        let cropped;
        let face = if (fw, fh) == (img.width, img.height) {
            img
        } else {
            cropped = img
                .crop(x, y, fw, fh)
                .ok_or_else(|| EncodeError(format!("no {fw}x{fh} face at ({x}, {y})")))?;
            &cropped
        };
        each_level(face, plan.levels, |level| {
            let size = plan.encoding.size(level.width, level.height);
            encode_level(plan.encoding, level, &mut out[at..at + size]);
            at += size;
        });
    }
    out[at..].copy_from_slice(txi);
    if matches!(plan.layout, Layout::Animated { .. }) {
        fit_animated_mip_count(&mut plan, &mut out)?;
    }
    Ok((plan, out))
}

/// The 128 bytes of `h`.
fn write_header(h: &Header, out: &mut [u8]) {
    out[0..4].copy_from_slice(&h.data_size.to_le_bytes());
    out[4..8].copy_from_slice(&h.alpha_test.to_le_bytes());
    out[8..10].copy_from_slice(&h.width.to_le_bytes());
    out[10..12].copy_from_slice(&h.height.to_le_bytes());
    out[12] = h.encoding;
    out[13] = h.mip_count;
    out[14..HEADER_SIZE].copy_from_slice(&h.reserved);
}

/// Hands `levels` levels of `face` to `f`, largest first: `face` itself, then each the
/// [`Image::half`] of the one before (which is freed once its half is made).
fn each_level(face: &Image, levels: usize, mut f: impl FnMut(&Image)) {
    if levels == 0 {
        return;
    }
    f(face);
    let mut level: Option<Image> = None;
    for _ in 1..levels {
        let next = level.as_ref().unwrap_or(face).half();
        f(&next);
        level = Some(next);
    }
}

/// An animated texture's header count is not its chain's (the engine computes that), but the
/// engine finds the TXI where the header's levels of the whole image end: the count is chosen
/// so that this is where the frames end.
fn fit_animated_mip_count(plan: &mut Plan, bytes: &mut [u8]) -> Result<(), EncodeError> {
    let end = plan.body_end();
    let (w, h) = (u32::from(plan.header.width), u32::from(plan.header.height));
    for m in 1..=255u8 {
        plan.header.mip_count = m;
        bytes[13] = m;
        if header_trailer_start(&plan.header, plan.encoding, 1, w, h) == end
            && layout_of(&plan.header, plan.encoding, bytes).0 == plan.layout
        {
            return Ok(());
        }
    }
    Err(EncodeError(
        "no header mip count puts the TXI where an animated texture's frames end".into(),
    ))
}

/// One level's bytes in `encoding`, written into `out` (exactly [`Encoding::size`] bytes).
fn encode_level(encoding: Encoding, img: &Image, out: &mut [u8]) {
    if let Some(block) = encoding.block() {
        return dxt::encode_into(block, img, out);
    }
    let px = img.rgba.chunks_exact(4);
    match encoding {
        Encoding::Grey => out
            .iter_mut()
            .zip(px)
            .for_each(|(o, p)| *o = image::luma(p[0], p[1], p[2])),
        Encoding::Rgb => out
            .chunks_exact_mut(3)
            .zip(px)
            .for_each(|(o, p)| o.copy_from_slice(&p[..3])),
        Encoding::Rgba => out.copy_from_slice(&img.rgba),
        Encoding::SwizzledBgra | Encoding::Dxt1 | Encoding::Dxt5 => {
            unreachable!("refused or compressed above")
        }
    }
}
