//! Format detection and loading a file of any supported format.

use std::path::Path;

use areakit_formats::{DecodeError, ErrorKind, Location, bwm, lyt, mdl_ascii, trx, vis};

use crate::{Error, fsio};

/// A file format areakit reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// KotOR binary walkmesh (`BWM V1.0`): WOK, PWK, DWK.
    Bwm,
    /// KotOR room layout (ASCII).
    Lyt,
    /// KotOR room visibility (ASCII).
    Vis,
    /// NWN/KotOR MDL ASCII model, also ASCII walkmeshes (WOK/PWK/DWK as text).
    MdlAscii,
    /// NWN2 terrain (`NWN2` container): TRX (baked) or TRN.
    Trx,
}

impl Format {
    /// Every format, for help texts.
    pub const ALL: &'static [Format] = &[
        Format::Bwm,
        Format::Lyt,
        Format::Vis,
        Format::MdlAscii,
        Format::Trx,
    ];

    /// The name used by `--to` and in JSON `"format"` (`trx` covers TRN too).
    pub const fn name(self) -> &'static str {
        match self {
            Format::Bwm => "bwm",
            Format::Lyt => "lyt",
            Format::Vis => "vis",
            Format::MdlAscii => "mdl-ascii",
            Format::Trx => "trx",
        }
    }

    /// The format named by `--to NAME` (a few aliases accepted).
    pub fn from_name(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "bwm" => Some(Format::Bwm),
            "lyt" => Some(Format::Lyt),
            "vis" => Some(Format::Vis),
            "mdl-ascii" | "mdl" | "ascii" | "wok-ascii" | "pwk-ascii" | "dwk-ascii" => {
                Some(Format::MdlAscii)
            }
            "trx" | "trn" => Some(Format::Trx),
            _ => None,
        }
    }

    /// Detects a format: magic numbers first (`BWM `, `NWN2`), then the extension, then
    /// keywords in the first 4 KiB of text.
    pub fn detect(path: &Path, data: &[u8]) -> Option<Self> {
        if data.starts_with(b"BWM ") {
            return Some(Format::Bwm);
        }
        if data.starts_with(b"NWN2") {
            return Some(Format::Trx);
        }
        if let Some(f) = Self::from_extension(path) {
            return Some(f);
        }
        let head = &data[..data.len().min(4096)];
        let has = |kw: &[u8]| head.windows(kw.len()).any(|w| w.eq_ignore_ascii_case(kw));
        let ext = extension(path);
        if has(b"beginlayout") {
            Some(Format::Lyt)
        } else if has(b"newmodel") || has(b"beginmodelgeom") {
            Some(Format::MdlAscii)
        } else if matches!(ext.as_deref(), Some("wok" | "pwk" | "dwk")) && has(b"node ") {
            // NWN keeps walkmeshes as text under the binary extensions.
            Some(Format::MdlAscii)
        } else {
            None
        }
    }

    /// The format an output path's extension names unambiguously, if any.
    ///
    /// `.wok`, `.pwk` and `.dwk` alone are ambiguous (NWN keeps them as text), so they name no
    /// format here: a conversion to them keeps the input's format unless `--to` says otherwise.
    pub fn from_extension(path: &Path) -> Option<Self> {
        match extension(path)?.as_str() {
            "bwm" => Some(Format::Bwm),
            "lyt" => Some(Format::Lyt),
            "vis" => Some(Format::Vis),
            "mdl" | "ascii" => Some(Format::MdlAscii),
            "trx" | "trn" => Some(Format::Trx),
            _ => None,
        }
    }
}

/// Options of [`Document::encode_with`].
#[derive(Debug, Clone, Default)]
pub struct EncodeOptions {
    /// Write normalised text instead of preserving the input's lines (MDL ASCII).
    pub canonical: bool,
    /// Node name for a walkmesh decompiled to ASCII.
    pub name: Option<String>,
}

/// The resource name of a path: the file name up to its first dot (`m13aa_01a.wok.ascii` →
/// `m13aa_01a`).
pub fn resref_of(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.split('.').next().unwrap_or_default().to_string()
}

fn extension(path: &Path) -> Option<String> {
    Some(path.extension()?.to_str()?.to_ascii_lowercase())
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
    /// An NWN2 terrain file.
    Trx(Box<trx::Trx>),
}

impl Document {
    /// The document's format.
    pub fn format(&self) -> Format {
        match self {
            Document::Bwm(_) => Format::Bwm,
            Document::Lyt(_) => Format::Lyt,
            Document::Vis(_) => Format::Vis,
            Document::MdlAscii(_) => Format::MdlAscii,
            Document::Trx(_) => Format::Trx,
        }
    }

    /// Decodes `data` (read from `path`, used for detection and messages).
    pub fn decode(path: &Path, data: &[u8]) -> Result<Self, Error> {
        let invalid = |e| Error::invalid(path, e);
        Ok(match Format::detect(path, data) {
            Some(Format::Bwm) => Document::Bwm(Box::new(bwm::read(data).map_err(invalid)?)),
            Some(Format::Lyt) => Document::Lyt(Box::new(lyt::read(data).map_err(invalid)?)),
            Some(Format::Vis) => Document::Vis(Box::new(vis::read(data).map_err(invalid)?)),
            Some(Format::MdlAscii) => {
                Document::MdlAscii(Box::new(mdl_ascii::read(data).map_err(invalid)?))
            }
            Some(Format::Trx) => Document::Trx(Box::new(trx::read(data).map_err(invalid)?)),
            None => {
                return Err(invalid(DecodeError::new(
                    ErrorKind::Malformed,
                    Location::Offset(0),
                    "unknown format: expected a BWM walkmesh (\"BWM V1.0\"), an NWN2 terrain (\"NWN2\"), \
                     a LYT, a VIS or an MDL ASCII file",
                )));
            }
        })
    }

    /// Reads and decodes a file.
    pub fn open(path: &Path) -> Result<Self, Error> {
        let data = fsio::read(path)?;
        Self::decode(path, &data)
    }

    /// Encodes the document in `format` (its own format or a conversion target).
    pub fn encode(&self, format: Format, path: &Path) -> Result<Vec<u8>, Error> {
        self.encode_with(format, path, &EncodeOptions::default())
    }

    /// [`Document::encode`] with options.
    ///
    /// Conversions: BWM → MDL ASCII decompiles the walkmesh to an ASCII WOK node (named
    /// `options.name` or the output's resref); MDL ASCII → BWM compiles an ASCII walkmesh with
    /// all derived data rebuilt ([`crate::ops::compile_walkmesh`]).
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
            return Err(Error::usage("--canonical applies to MDL ASCII input only"));
        }
        match (self, format) {
            (Document::Bwm(m), Format::Bwm) => bwm::write(m).map_err(enc),
            (Document::Lyt(m), Format::Lyt) => lyt::write(m).map_err(enc),
            (Document::Vis(m), Format::Vis) => vis::write(m).map_err(enc),
            (Document::MdlAscii(m), Format::MdlAscii) if options.canonical => {
                Ok(mdl_ascii::write_canonical(m).into_bytes())
            }
            (Document::MdlAscii(m), Format::MdlAscii) => Ok(mdl_ascii::write(m)),
            (Document::Trx(m), Format::Trx) => trx::write(m).map_err(enc),
            (Document::MdlAscii(m), Format::Bwm) => {
                let compiled = crate::ops::compile_walkmesh(m, path)?;
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
