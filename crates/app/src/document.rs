//! Decoding and encoding a file of any supported format ([`Document`]).

use std::path::Path;

use areakit_formats::{
    DecodeError, ErrorKind, Location, bif, bwm, erf, gff, key, lyt, mdl, mdl_ascii, png, rim, tga,
    tpc, trx, twoda, txi, vis,
};

use crate::Error;
use crate::format::{Format, resref_of};
use crate::session::Session;

/// Options of [`Document::encode_with`].
#[derive(Debug, Clone, Default)]
pub struct EncodeOptions {
    /// Write normalised text instead of preserving the input's lines (MDL ASCII).
    pub canonical: bool,
    /// Node name for a walkmesh decompiled to ASCII.
    pub name: Option<String>,
    /// How a picture becomes a TPC (encoding, mipmaps).
    pub texture: tpc::EncodeOptions,
    /// The TXI a picture converted to TPC carries (`convert` reads `NAME.txi` beside the
    /// input); a TPC's own trailer is kept.
    pub txi: Option<Vec<u8>>,
    /// The dialect of MDL ASCII compiled to a binary model: `Some(true)` NWN, `Some(false)`
    /// KotOR; `None`: told from the text ([`mdl::nwn::is_nwn_ascii`]), KotOR when it cannot
    /// tell.
    pub nwn: Option<bool>,
}

/// A decoded file.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Document {
    /// A BWM walkmesh.
    Bwm(Box<bwm::Bwm>),
    /// A room layout.
    Lyt(Box<lyt::Lyt>),
    /// Room visibility.
    Vis(Box<vis::Vis>),
    /// An MDL ASCII model or ASCII walkmesh.
    MdlAscii(Box<mdl_ascii::Model>),
    /// A binary model (MDL and MDX).
    Mdl(Box<mdl::Model>),
    /// An NWN compiled model (one file: its vertex data in the raw-data block).
    NwnMdl(Box<mdl::nwn::Model>),
    /// An NWN2 terrain file.
    Trx(Box<trx::Trx>),
    /// An NWN2 model.
    Mdb(Box<areakit_formats::mdb::Mdb>),
    /// A GFF file.
    Gff(Box<gff::Gff>),
    /// A 2DA table.
    TwoDa(Box<twoda::TwoDa>),
    /// An ERF-family capsule.
    Erf(Box<erf::Erf>),
    /// A RIM capsule.
    Rim(Box<rim::Rim>),
    /// A KEY index.
    Key(Box<key::Key>),
    /// A BIF read whole.
    Bif(Box<bif::Bif>),
    /// A TPC texture.
    Tpc(Box<tpc::Tpc>),
    /// A TGA image, every byte kept.
    Tga(Box<tga::TgaFile>),
    /// A TXI texture description.
    Txi(Box<txi::Txi>),
    /// A PNG image.
    Png(Box<png::Png>),
}

impl Document {
    /// The document's format.
    pub fn format(&self) -> Format {
        match self {
            Document::Bwm(_) => Format::Bwm,
            Document::Lyt(_) => Format::Lyt,
            Document::Vis(_) => Format::Vis,
            Document::MdlAscii(_) => Format::MdlAscii,
            Document::Mdl(_) | Document::NwnMdl(_) => Format::Mdl,
            Document::Trx(_) => Format::Trx,
            Document::Mdb(_) => Format::Mdb,
            Document::Gff(_) => Format::Gff,
            Document::TwoDa(_) => Format::TwoDa,
            Document::Erf(_) => Format::Erf,
            Document::Rim(_) => Format::Rim,
            Document::Key(_) => Format::Key,
            Document::Bif(_) => Format::Bif,
            Document::Tpc(_) => Format::Tpc,
            Document::Tga(_) => Format::Tga,
            Document::Txi(_) => Format::Txi,
            Document::Png(_) => Format::Png,
        }
    }

    /// Decodes `data` (read from `path`, used for detection and messages). A binary MDL's MDX
    /// is read from beside `path` on disk ([`Document::open`] reads it through the session).
    pub fn decode(path: &Path, data: &[u8]) -> Result<Self, Error> {
        let format = Format::detect(path, data);
        Self::decode_detected(path, data, format, || std::fs::read(mdx_path(path)).ok())
    }

    /// Decodes a binary MDL with its MDX (`None`: no MDX beside it, read as empty); an NWN
    /// compiled model (told by its structure, [`mdl::is_nwn_layout`]) has no MDX.
    pub fn decode_model(path: &Path, data: &[u8], mdx: Option<&[u8]>) -> Result<Self, Error> {
        if mdl::is_nwn_layout(data) {
            return mdl::nwn::read(data)
                .map(|m| Document::NwnMdl(Box::new(m)))
                .map_err(|e| Error::invalid(path, e));
        }
        match mdl::read(data, mdx.unwrap_or_default()) {
            Ok(m) => Ok(Document::Mdl(Box::new(m))),
            Err(e) if mdx.is_none() => Err(Error::invalid(
                path,
                e.within(format!("no {} beside the model", mdx_path(path).display())),
            )),
            Err(e) => Err(Error::invalid(path, e)),
        }
    }

    /// Decodes `data` as `expected` for a caller that knows which format it wants (the Python
    /// classes): the same detection ([`Format::detect`]) and decoder as [`Document::decode`],
    /// so that both fail or succeed together. `path` names the file (`None` for bytes: the
    /// name `<bytes>.EXT` of `expected`'s extension is used); `mdx` is a binary model's MDX
    /// (`None`: none). When detection knows no format (a file whose name says nothing and
    /// whose bytes hold no keyword), the bytes are decoded as `expected`; when it finds
    /// another format, the error says what the content is.
    pub fn decode_as(
        expected: Format,
        path: Option<&Path>,
        data: &[u8],
        mdx: Option<&[u8]>,
    ) -> Result<Self, Error> {
        let named = path
            .is_none()
            .then(|| std::path::PathBuf::from(format!("<bytes>.{}", bytes_extension(expected))));
        let path = path.or(named.as_deref()).unwrap_or(Path::new(""));
        let format = Format::detect(path, data).unwrap_or(expected);
        if format != expected {
            // What the command line says of the file: its decoder's error (with what the
            // content is as context), or, when it decodes as that other format, that it is one.
            let found = format.description();
            let want = expected.description();
            return Err(
                match Self::decode_detected(path, data, Some(format), || None) {
                    Err(Error::Invalid { path, source }) => Error::Invalid {
                        source: source.within(format!("the content is {found}, not {want}")),
                        path,
                    },
                    _ => Error::invalid(
                        path,
                        DecodeError::new(
                            ErrorKind::Malformed,
                            Location::Offset(0),
                            format!("the content is {found}, not {want}"),
                        ),
                    ),
                },
            );
        }
        // Bytes without an MDX are a model whose MDX is empty (no file beside them to miss).
        let mdx = mdx.or(named.is_some().then_some(&[][..]));
        Self::decode_detected(path, data, Some(format), || mdx.map(<[u8]>::to_vec))
    }

    /// Decodes `data` as `format` (what detection found; `None`: an unknown format), reading a
    /// KotOR binary model's MDX through `mdx` (`None`: no MDX). A decode error of a file whose
    /// extension names another format says what the content was taken for.
    fn decode_detected(
        path: &Path,
        data: &[u8],
        format: Option<Format>,
        mdx: impl FnOnce() -> Option<Vec<u8>>,
    ) -> Result<Self, Error> {
        let result = match format {
            Some(Format::Mdl) if !mdl::is_nwn_layout(data) => {
                let mdx = mdx();
                Self::decode_model(path, data, mdx.as_deref())
            }
            _ => Self::decode_one(path, data, format),
        };
        // `.mdl` names both models (text and compiled): no disagreement between those two.
        let named = Format::from_extension(path)
            .filter(|&n| !(n == Format::Mdl && format == Some(Format::MdlAscii)));
        match (result, format, named) {
            (Err(Error::Invalid { path, source }), Some(f), Some(n)) if f != n => {
                let ext = path
                    .extension()
                    .map(|e| e.to_string_lossy().into_owned())
                    .unwrap_or_default();
                Err(Error::Invalid {
                    source: source.within(format!(
                        "read as {} by its content, though .{ext} names {}",
                        f.description(),
                        n.description()
                    )),
                    path,
                })
            }
            (r, ..) => r,
        }
    }

    fn decode_one(path: &Path, data: &[u8], format: Option<Format>) -> Result<Self, Error> {
        let invalid = |e| Error::invalid(path, e);
        Ok(match format {
            Some(Format::Bwm) => Document::Bwm(Box::new(bwm::read(data).map_err(invalid)?)),
            Some(Format::Lyt) => Document::Lyt(Box::new(lyt::read(data).map_err(invalid)?)),
            Some(Format::Vis) => Document::Vis(Box::new(vis::read(data).map_err(invalid)?)),
            Some(Format::MdlAscii) => {
                Document::MdlAscii(Box::new(mdl_ascii::read(data).map_err(invalid)?))
            }
            Some(Format::Mdl) => return Self::decode_model(path, data, Some(&[])),
            Some(Format::Trx) => Document::Trx(Box::new(trx::read(data).map_err(invalid)?)),
            Some(Format::Mdb) => {
                Document::Mdb(Box::new(areakit_formats::mdb::read(data).map_err(invalid)?))
            }
            Some(Format::Gff) => Document::Gff(Box::new(gff::read(data).map_err(invalid)?)),
            Some(Format::TwoDa) => Document::TwoDa(Box::new(twoda::read(data).map_err(invalid)?)),
            Some(Format::Erf) => Document::Erf(Box::new(erf::read(data).map_err(invalid)?)),
            Some(Format::Rim) => Document::Rim(Box::new(rim::read(data).map_err(invalid)?)),
            Some(Format::Key) => Document::Key(Box::new(key::read(data).map_err(invalid)?)),
            Some(Format::Bif) => Document::Bif(Box::new(bif::read(data).map_err(invalid)?)),
            Some(Format::Tpc) => Document::Tpc(Box::new(tpc::read(data).map_err(invalid)?)),
            Some(Format::Tga) => Document::Tga(Box::new(tga::read_file(data).map_err(invalid)?)),
            Some(Format::Txi) => Document::Txi(Box::new(txi::read(data))),
            Some(Format::Png) => Document::Png(Box::new(png::read(data).map_err(invalid)?)),
            None => {
                return Err(invalid(DecodeError::new(
                    ErrorKind::Malformed,
                    Location::Offset(0),
                    "unknown format: expected a BWM walkmesh (\"BWM V1.0\"), an NWN2 terrain (\"NWN2\"), \
                     a LYT, a VIS, a binary MDL or an MDL ASCII file, a GFF, a 2DA, a capsule (ERF/MOD/RIM), a KEY, a BIF, \
                     a texture (TPC, TGA, PNG) or a TXI",
                )));
            }
        })
    }

    /// The picture of a texture document, as [`Document::picture`], but a TGA's or PNG's own
    /// pixels borrowed rather than copied (a TPC's first level is decoded: owned).
    pub fn picture_borrowed(
        &self,
    ) -> Result<std::borrow::Cow<'_, areakit_formats::image::Image>, DecodeError> {
        use std::borrow::Cow;
        match self {
            Document::Tga(t) => Ok(Cow::Borrowed(&t.image)),
            Document::Png(p) => Ok(Cow::Borrowed(&p.image)),
            other => other.picture().map(Cow::Owned),
        }
    }

    /// The picture of a texture document: a TPC's first level (every layer: cube faces and
    /// frames stacked), a TGA's or PNG's pixels. An error for other documents.
    pub fn picture(&self) -> Result<areakit_formats::image::Image, DecodeError> {
        match self {
            Document::Tpc(t) => t.rgba_all(0),
            Document::Tga(t) => Ok(t.image.clone()),
            Document::Png(p) => Ok(p.image.clone()),
            other => Err(DecodeError::new(
                ErrorKind::Unsupported,
                Location::Input,
                format!("{} is no picture", other.format().name()),
            )),
        }
    }

    /// Reads (through `session`) and decodes a file.
    pub fn open(session: &Session, path: &Path) -> Result<Self, Error> {
        let data = session.read(path)?;
        Self::decode_read(session, path, &data)
    }

    /// Decodes `data`, already read from `path` through `session`; a binary model's MDX is read
    /// from beside it through the session too.
    pub fn decode_read(session: &Session, path: &Path, data: &[u8]) -> Result<Self, Error> {
        let format = Format::detect(path, data);
        Self::decode_detected(path, data, format, || session.read(&mdx_path(path)).ok())
    }

    /// The files the document encodes to in `format` at `path`: one, or for a binary model the
    /// MDL at `path` and the MDX beside it.
    pub fn encode_files(
        &self,
        format: Format,
        path: &Path,
        options: &EncodeOptions,
    ) -> Result<Vec<(std::path::PathBuf, Vec<u8>)>, Error> {
        let enc = |source| Error::Encode {
            path: path.to_path_buf(),
            source,
        };
        match (self, format) {
            (Document::Mdl(m), Format::Mdl) => {
                let (a, x) = mdl::write(m).map_err(enc)?;
                return Ok(vec![(path.to_path_buf(), a), (mdx_path(path), x)]);
            }
            (Document::NwnMdl(m), Format::Mdl) => {
                return Ok(vec![(path.to_path_buf(), mdl::nwn::write(m).map_err(enc)?)]);
            }
            // A text model compiled in NWN's dialect: one file, derived data as the game's
            // compiler derives it.
            (Document::MdlAscii(t), Format::Mdl)
                if options.nwn.or_else(|| mdl::nwn::is_nwn_ascii(t)) == Some(true) =>
            {
                let mut c = mdl::nwn::from_ascii(t).map_err(|e| Error::invalid(path, e))?;
                areakit_area::nwn_models::derive_compiled(&mut c);
                return Ok(vec![(
                    path.to_path_buf(),
                    mdl::nwn::write(&c.model).map_err(enc)?,
                )]);
            }
            // A text model compiled: the KotOR dialect, K2 when a mesh has K2-only properties.
            (Document::MdlAscii(t), Format::Mdl) => {
                let mut m =
                    mdl::from_ascii(t, mdl::ascii_game(t)).map_err(|e| Error::invalid(path, e))?;
                areakit_area::models::derive_compiled(&mut m);
                let (a, x) = mdl::write(&m).map_err(enc)?;
                return Ok(vec![(path.to_path_buf(), a), (mdx_path(path), x)]);
            }
            (Document::NwnMdl(m), Format::MdlAscii) => {
                return Ok(vec![(
                    path.to_path_buf(),
                    mdl_ascii::write(&mdl::nwn::to_ascii(m)),
                )]);
            }
            (Document::Mdl(m), Format::MdlAscii) => {
                let text = mdl::to_ascii(m);
                return Ok(vec![(
                    path.to_path_buf(),
                    mdl_ascii::write_canonical_bytes(&text),
                )]);
            }
            // A TPC's TXI goes beside the picture it becomes (`x.tga` + `x.txi`), so that
            // converting back keeps it.
            (Document::Tpc(t), Format::Tga | Format::Png) if t.has_txi() => {
                let picture = self.encode_with(format, path, options)?;
                return Ok(vec![
                    (path.to_path_buf(), picture),
                    (path.with_extension("txi"), t.trailer.clone()),
                ]);
            }
            _ => {}
        }
        Ok(vec![(
            path.to_path_buf(),
            self.encode_with(format, path, options)?,
        )])
    }

    /// Encodes the document in `format` (its own format or a conversion target).
    pub fn encode(&self, format: Format, path: &Path) -> Result<Vec<u8>, Error> {
        self.encode_with(format, path, &EncodeOptions::default())
    }

    /// [`Document::encode`] with options.
    ///
    /// Conversions: BWM → MDL ASCII decompiles the walkmesh to an ASCII WOK node (named
    /// `options.name` or the output's resref); MDL ASCII → BWM compiles an ASCII walkmesh with
    /// all derived data rebuilt ([`crate::ascii_walkmesh::compile_walkmesh`]).
    pub fn encode_with(
        &self,
        format: Format,
        path: &Path,
        options: &EncodeOptions,
    ) -> Result<Vec<u8>, Error> {
        let enc = |source| Error::Encode {
            path: path.to_path_buf(),
            source,
        };
        if options.canonical && !matches!(self, Document::MdlAscii(_)) {
            return Err(Error::usage(
                "canonical output applies to MDL ASCII input only",
            ));
        }
        match (self, format) {
            (Document::Bwm(m), Format::Bwm) => bwm::write(m).map_err(enc),
            (Document::Lyt(m), Format::Lyt) => lyt::write(m).map_err(enc),
            (Document::Vis(m), Format::Vis) => vis::write(m).map_err(enc),
            (Document::MdlAscii(m), Format::MdlAscii) if options.canonical => {
                Ok(mdl_ascii::write_canonical(m).into_bytes())
            }
            (Document::MdlAscii(m), Format::MdlAscii) => Ok(mdl_ascii::write(m)),
            (Document::NwnMdl(m), Format::Mdl) => mdl::nwn::write(m).map_err(enc),
            (Document::Mdl(_), Format::Mdl) => Err(Error::usage(format!(
                "{}: a binary model is written as two files (MDL and MDX): encode_files",
                path.display()
            ))),
            (Document::Trx(m), Format::Trx) => trx::write(m).map_err(enc),
            (Document::Mdb(m), Format::Mdb) => areakit_formats::mdb::write(m).map_err(enc),
            (Document::Gff(m), Format::Gff) => gff::write(m).map_err(enc),
            (Document::TwoDa(m), Format::TwoDa) => twoda::write(m).map_err(enc),
            (Document::Erf(m), Format::Erf) => erf::write(m).map_err(enc),
            (Document::Rim(m), Format::Rim) => rim::write(m).map_err(enc),
            (Document::Key(m), Format::Key) => key::write(m).map_err(enc),
            (Document::Bif(m), Format::Bif) => bif::write(m).map_err(enc),
            (Document::Tpc(t), Format::Tpc)
                if options.texture.encoding.is_none_or(|e| e == t.encoding) =>
            {
                tpc::write(t).map_err(enc)
            }
            (Document::Tga(t), Format::Tga) => tga::write_file(t).map_err(enc),
            (Document::Txi(t), Format::Txi) => Ok(txi::write(t)),
            (Document::Png(p), Format::Png) => Ok(p.data.clone()),
            (Document::Tpc(t), Format::Txi) => Ok(t.trailer.clone()),
            (Document::Tga(t), Format::Txi) if t.trailing_text().is_some() => Ok(t.trailer.clone()),
            (Document::Tpc(_) | Document::Tga(_) | Document::Png(_), to)
                if matches!(to, Format::Tpc | Format::Tga | Format::Png) =>
            {
                let picture = self
                    .picture_borrowed()
                    .map_err(|e| Error::invalid(path, e))?;
                let txi = match (&options.txi, self) {
                    (Some(t), _) => t.clone(),
                    (None, Document::Tpc(t)) => t.trailer.clone(),
                    (None, Document::Tga(t)) => t.trailing_text().unwrap_or_default().to_vec(),
                    _ => Vec::new(),
                };
                crate::texture::encode_picture(&picture, to, &txi, &options.texture).map_err(enc)
            }
            (Document::MdlAscii(m), Format::Bwm) => {
                let compiled = crate::ascii_walkmesh::compile_walkmesh(m, path)?;
                bwm::write(&compiled).map_err(enc)
            }
            (Document::Bwm(m), Format::MdlAscii) => {
                let name = options.name.clone().unwrap_or_else(|| resref_of(path));
                Ok(crate::ascii_walkmesh::bwm_to_ascii(m, &name, "NULL").into_bytes())
            }
            (doc, to) => Err(Error::usage(format!(
                "{}: cannot convert {} to {}",
                path.display(),
                doc.format().name(),
                to.name()
            ))),
        }
    }
}

impl Document {
    /// A binary model's walkmesh (its aabb nodes' faces in model space, every derived table
    /// rebuilt: what `query`, `path` and `render` use for a model alone), KotOR's or NWN's;
    /// `None` for other documents.
    pub fn model_walkmesh(&self) -> Option<Result<bwm::Bwm, areakit_geometry::MeshError>> {
        match self {
            Document::Mdl(m) => Some(areakit_area::models::model_walkmesh(m)),
            Document::NwnMdl(m) => Some(areakit_area::nwn_models::model_walkmesh(m)),
            _ => None,
        }
    }
}

/// The extension of the name `<bytes>.EXT` that bytes of `format` are detected under.
fn bytes_extension(format: Format) -> &'static str {
    match format {
        Format::Bwm => "bwm",
        Format::MdlAscii => "ascii",
        other => other.name(),
    }
}

/// The MDX beside a binary MDL: the same path with the extension `.mdx`.
pub fn mdx_path(path: &Path) -> std::path::PathBuf {
    path.with_extension("mdx")
}
