//! Format detection and loading a file of any supported format.

use std::path::Path;

use areakit_formats::bwm;

use crate::{Error, fsio};

/// A file format areakit reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// KotOR binary walkmesh (`BWM V1.0`): WOK, PWK, DWK.
    Bwm,
}

impl Format {
    /// Every format, for help texts.
    pub const ALL: &'static [Format] = &[Format::Bwm];

    /// The name used by `--to` and in JSON `"format"`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Bwm => "bwm",
        }
    }

    /// The format named by `--to NAME` (a few aliases accepted).
    pub fn from_name(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "bwm" | "wok" | "pwk" | "dwk" => Some(Format::Bwm),
            _ => None,
        }
    }

    /// Detects a format from the first bytes, falling back to the extension.
    pub fn detect(path: &Path, data: &[u8]) -> Option<Self> {
        if data.starts_with(b"BWM ") {
            return Some(Format::Bwm);
        }
        Self::from_extension(path)
    }

    /// The format an output path's extension names unambiguously, if any.
    ///
    /// `.wok`, `.pwk` and `.dwk` are binary here only when the input is binary: NWN keeps them
    /// as text, so on their own they do not name a format (see `convert`).
    pub fn from_extension(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "bwm" => Some(Format::Bwm),
            _ => None,
        }
    }
}

/// A decoded file.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Document {
    /// A BWM walkmesh.
    Bwm(Box<bwm::Bwm>),
}

impl Document {
    /// The document's format.
    pub fn format(&self) -> Format {
        match self {
            Document::Bwm(_) => Format::Bwm,
        }
    }

    /// Decodes `data` (read from `path`, used for detection and messages).
    pub fn decode(path: &Path, data: &[u8]) -> Result<Self, Error> {
        match Format::detect(path, data) {
            Some(Format::Bwm) => bwm::read(data)
                .map(|m| Document::Bwm(Box::new(m)))
                .map_err(|e| Error::invalid(path, e)),
            None => Err(Error::invalid(
                path,
                areakit_formats::DecodeError::new(
                    areakit_formats::ErrorKind::Unsupported,
                    areakit_formats::Location::Offset(0),
                    "unknown format: expected a BWM walkmesh (\"BWM V1.0\")",
                ),
            )),
        }
    }

    /// Reads and decodes a file.
    pub fn open(path: &Path) -> Result<Self, Error> {
        let data = fsio::read(path)?;
        Self::decode(path, &data)
    }

    /// Encodes the document in `format` (its own format or a conversion target).
    pub fn encode(&self, format: Format, path: &Path) -> Result<Vec<u8>, Error> {
        match (self, format) {
            (Document::Bwm(m), Format::Bwm) => bwm::write(m).map_err(|source| Error::Encode {
                path: path.to_path_buf(),
                source,
            }),
        }
    }
}
