//! Writing a TPC, and making one from RGBA pixels.

use super::read::{animated_levels, header_trailer_start, layout_of};
use super::{Encoding, HEADER_SIZE, Header, Layout, Mip, Tpc};
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
    /// Errors: RGBA bytes that are not `width * height * 4` long ([`Image::check`]), a side
    /// outside 1..=32767, an encoding that cannot hold the layout.
    pub fn from_image(img: &Image, txi: &[u8], opts: &EncodeOptions) -> Result<Tpc, EncodeError> {
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
        let (layout, faces): (Layout, Vec<Image>) = if cube {
            let faces = (0..6).filter_map(|i| img.crop(0, i * w, w, w)).collect();
            (Layout::Cube, faces)
        } else if let Some((nx, ny, _)) = animated {
            let (fw, fh) = (w / nx, h / ny);
            let frames = (0..nx * ny)
                .filter_map(|i| img.crop((i % nx) * fw, (i / nx) * fh, fw, fh))
                .collect();
            (Layout::Animated { numx: nx, numy: ny }, frames)
        } else {
            (Layout::Single, vec![img.clone()])
        };
        let (fw, fh) = (faces[0].width, faces[0].height);
        let levels = match layout {
            Layout::Animated { .. } => animated_levels(fw, fh),
            _ if opts.mipmaps => image::full_chain(fw, fh) as usize,
            _ => 1,
        };
        let mut layers = Vec::with_capacity(faces.len());
        for face in &faces {
            let mut mips = Vec::with_capacity(levels);
            let mut level = face.clone();
            for i in 0..levels {
                if i > 0 {
                    level = level.half();
                }
                mips.push(Mip {
                    width: level.width,
                    height: level.height,
                    data: encode_level(encoding, &level)?,
                });
            }
            layers.push(mips);
        }
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
        let mut tpc = Tpc {
            header: Header {
                data_size,
                alpha_test: opts.alpha_test,
                width: w as u16,
                height: h as u16,
                encoding: encoding.header_byte(),
                mip_count: levels.min(255) as u8,
                reserved: [0; 114],
            },
            encoding,
            layout,
            layers,
            trailer: txi.to_vec(),
        };
        if matches!(layout, Layout::Animated { .. }) {
            fit_animated_mip_count(&mut tpc)?;
        }
        Ok(tpc)
    }
}

/// An animated texture's header count is not its chain's (the engine computes that), but the
/// engine finds the TXI where the header's levels of the whole image end: the count is chosen
/// so that this is where the frames end.
fn fit_animated_mip_count(tpc: &mut Tpc) -> Result<(), EncodeError> {
    let end = HEADER_SIZE as u64
        + tpc
            .layers
            .iter()
            .flatten()
            .map(|m| m.data.len() as u64)
            .sum::<u64>();
    let (w, h) = (u32::from(tpc.header.width), u32::from(tpc.header.height));
    for m in 1..=255u8 {
        tpc.header.mip_count = m;
        if header_trailer_start(&tpc.header, tpc.encoding, 1, w, h) == end {
            let bytes = write(tpc)?;
            if layout_of(&tpc.header, tpc.encoding, &bytes).0 == tpc.layout {
                return Ok(());
            }
        }
    }
    Err(EncodeError(
        "no header mip count puts the TXI where an animated texture's frames end".into(),
    ))
}

/// One level's bytes in `encoding`.
fn encode_level(encoding: Encoding, img: &Image) -> Result<Vec<u8>, EncodeError> {
    if let Some(block) = encoding.block() {
        return dxt::encode(block, img);
    }
    let px = img.rgba.chunks_exact(4);
    Ok(match encoding {
        Encoding::Grey => px.map(|p| image::luma(p[0], p[1], p[2])).collect(),
        Encoding::Rgb => px.flat_map(|p| [p[0], p[1], p[2]]).collect(),
        Encoding::Rgba => img.rgba.clone(),
        Encoding::SwizzledBgra | Encoding::Dxt1 | Encoding::Dxt5 => {
            unreachable!("refused or compressed above")
        }
    })
}
