//! Pictures in the game's texture formats and out of them: [`encode_picture`] writes an RGBA
//! picture as TPC, TGA or PNG (what `convert` does between the three); a texture document's
//! picture without a copy is `Document::picture_borrowed`.

use areakit_formats::image::Image;
use areakit_formats::{EncodeError, png, tga, tpc};

use crate::format::Format;

/// `img` encoded as `to` (TPC, TGA or PNG). A TPC carries `txi` as its trailer and is encoded
/// as `options` say (by default DXT1 when opaque, else DXT5, with a full mip chain), its
/// levels straight into the output ([`tpc::encode`]); a TGA is 24-bit when opaque, else
/// 32-bit, bottom row first (the layout of the game's own TGAs).
pub fn encode_picture(
    img: &Image,
    to: Format,
    txi: &[u8],
    options: &tpc::EncodeOptions,
) -> Result<Vec<u8>, EncodeError> {
    match to {
        Format::Tpc => tpc::encode(img, txi, options),
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

/// A texture found by name: its first level's picture (the first face of a cube map, the
/// first frame's grid of an animated one as stored), its TXI, and where it came from.
#[derive(Debug, Clone)]
pub struct FoundTexture {
    /// The name as asked for.
    pub name: String,
    /// Where it was found (a file path or `capsule.mod/name.tpc`).
    pub origin: String,
    /// `tpc` or `tga`.
    pub format: &'static str,
    /// The TPC's encoding (`None` for a TGA).
    pub encoding: Option<&'static str>,
    /// The picture.
    pub image: Image,
    /// The TXI: a TPC's trailer, else `NAME.txi` from the same search, else text after a
    /// TGA's pixels.
    pub txi: areakit_formats::txi::Txi,
    /// A cube map (its first face is the picture).
    pub cube: bool,
}

/// Textures looked up the way the game finds them: the places in order (the model's or the
/// area's folder, kit texture folders, the game: override, the module's capsules, KEY/BIF), the
/// first place holding the name as TPC or TGA giving it, a TPC before a TGA within one place.
pub struct TextureLookup {
    places: areakit_area::install::SearchPath,
}

impl std::fmt::Debug for TextureLookup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextureLookup")
            .field("places", &self.places)
            .finish()
    }
}

/// Why a texture named by a model is not in an export or a view.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MissingTexture {
    /// The name.
    pub name: String,
    /// `not found`, or why it does not decode.
    pub reason: String,
}

impl TextureLookup {
    /// A lookup over `places`, searched in order.
    pub fn new(places: areakit_area::install::SearchPath) -> Self {
        TextureLookup { places }
    }

    /// The places' names, in search order.
    pub fn places(&self) -> Vec<&str> {
        self.places.names()
    }

    /// The texture `name`, or why there is none.
    pub fn find(&self, name: &str) -> Result<FoundTexture, MissingTexture> {
        use areakit_area::resources::Resources;
        use areakit_formats::{tga, tpc, txi};
        let missing = |reason: String| MissingTexture {
            name: name.to_string(),
            reason,
        };
        let found = self
            .places
            .get_any(name, &["tpc", "tga"])
            .map_err(|e| missing(format!("cannot be read: {e}")))?
            .ok_or_else(|| missing("not found".into()))?;
        let (res, which) = found;
        let side_txi = || {
            self.places
                .get(name, "txi")
                .ok()
                .flatten()
                .map(|r| txi::read(&r.data))
        };
        let bad = |e: areakit_formats::DecodeError| {
            missing(format!("{} does not decode: {e}", res.origin))
        };
        if which == 0 {
            let t = tpc::read(&res.data).map_err(bad)?;
            let image = t.rgba(0, 0).map_err(bad)?;
            let own = t.txi();
            Ok(FoundTexture {
                name: name.to_string(),
                origin: res.origin,
                format: "tpc",
                encoding: Some(t.encoding.name()),
                image,
                txi: if own.is_blank() {
                    side_txi().unwrap_or(own)
                } else {
                    own
                },
                cube: t.layout == tpc::Layout::Cube,
            })
        } else {
            let f = tga::read_file(&res.data).map_err(bad)?;
            let txi = side_txi()
                .or_else(|| f.trailing_text().map(txi::read))
                .unwrap_or_default();
            Ok(FoundTexture {
                name: name.to_string(),
                origin: res.origin,
                format: "tga",
                encoding: None,
                image: f.image,
                txi,
                cube: false,
            })
        }
    }

    /// The bytes of `resref.ext` from the first place holding it.
    pub fn get(&self, resref: &str, ext: &str) -> Option<Vec<u8>> {
        use areakit_area::resources::Resources;
        self.places.get(resref, ext).ok().flatten().map(|r| r.data)
    }

    /// A binary model `name.mdl` with its `.mdx` from the places (a placed object's model),
    /// when it decodes.
    pub fn model(&self, name: &str) -> Option<areakit_formats::mdl::Model> {
        let mdl = self.get(name, "mdl")?;
        let mdx = self.get(name, "mdx").unwrap_or_default();
        areakit_formats::mdl::read(&mdl, &mdx).ok()
    }

    /// [`TextureLookup::find`] for each name, decoded in parallel, in the order given.
    pub fn find_all(&self, names: &[String]) -> Vec<Result<FoundTexture, MissingTexture>> {
        use rayon::prelude::*;
        names.par_iter().map(|n| self.find(n)).collect()
    }
}
