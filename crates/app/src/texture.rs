//! Pictures in the game's texture formats and out of them: [`encode_picture`] writes an RGBA
//! picture as TPC, TGA or PNG (what `convert` does between the three).

use areakit_formats::image::Image;
use areakit_formats::{EncodeError, png, tga, tpc};

use crate::format::Format;

/// `img` encoded as `to` (TPC, TGA or PNG). A TPC carries `txi` as its trailer and is encoded
/// as `options` say (by default DXT1 when opaque, else DXT5, with a full mip chain); a TGA is
/// 24-bit when opaque, else 32-bit, bottom row first (the layout of the game's own TGAs).
pub fn encode_picture(
    img: &Image,
    to: Format,
    txi: &[u8],
    options: &tpc::EncodeOptions,
) -> Result<Vec<u8>, EncodeError> {
    match to {
        Format::Tpc => tpc::write(&tpc::Tpc::from_image(img, txi, options)?),
        Format::Tga => tga::write(
            img,
            tga::WriteOptions {
                bits_per_pixel: if img.is_opaque() { 24 } else { 32 },
                ..tga::WriteOptions::default()
            },
        ),
        Format::Png => png::write(img),
        other => Err(EncodeError(format!(
            "a picture is written as tpc, tga or png, not {}",
            other.name()
        ))),
    }
}
