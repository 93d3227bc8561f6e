//! Format detection and loading a file of any supported format.

use std::path::Path;

use areakit_formats::{
    DecodeError, ErrorKind, Location, bif, bwm, erf, gff, key, lyt, mdl_ascii, rim, trx, twoda, vis,
};

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
    /// GFF V3.2 (ARE, GIT, IFO, UTP, UTD, DLG, ...).
    Gff,
    /// 2DA table, binary `V2.b` or text `V2.0`.
    TwoDa,
    /// ERF-family capsule (`ERF `, `MOD `, `SAV `, `HAK `).
    Erf,
    /// RIM capsule.
    Rim,
    /// KEY index (`chitin.key`).
    Key,
    /// BIF resource data.
    Bif,
}

/// Extensions of GFF resources (KotOR and NWN).
pub const GFF_EXTENSIONS: &[&str] = &[
    "gff", "res", "are", "git", "ifo", "utp", "utd", "utc", "uti", "utm", "uts", "utt", "utw",
    "ute", "utg", "dlg", "jrl", "fac", "pth", "gui", "bic", "itp", "ptm", "ptt", "gic", "btc",
    "btd", "bte", "bti", "btp", "btm", "btt", "cam", "ult", "upe", "ulb",
];

impl Format {
    /// Every format, for help texts.
    pub const ALL: &'static [Format] = &[
        Format::Bwm,
        Format::Lyt,
        Format::Vis,
        Format::MdlAscii,
        Format::Trx,
        Format::Gff,
        Format::TwoDa,
        Format::Erf,
        Format::Rim,
        Format::Key,
        Format::Bif,
    ];

    /// The name used by `--to` and in JSON `"format"` (`trx` covers TRN too).
    pub const fn name(self) -> &'static str {
        match self {
            Format::Bwm => "bwm",
            Format::Lyt => "lyt",
            Format::Vis => "vis",
            Format::MdlAscii => "mdl-ascii",
            Format::Trx => "trx",
            Format::Gff => "gff",
            Format::TwoDa => "2da",
            Format::Erf => "erf",
            Format::Rim => "rim",
            Format::Key => "key",
            Format::Bif => "bif",
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
            other => resource_format(other),
        }
    }

    /// The format of bytes by their magic alone (binary formats only).
    pub fn from_magic(data: &[u8]) -> Option<Self> {
        let head = data.get(..8)?;
        Some(match head {
            [b'B', b'W', b'M', b' ', ..] => Format::Bwm,
            [b'N', b'W', b'N', b'2', ..] => Format::Trx,
            b"KEY V1  " => Format::Key,
            b"BIFFV1  " => Format::Bif,
            b"RIM V1.0" => Format::Rim,
            [b'2', b'D', b'A', b' ', ..] => Format::TwoDa,
            [a, b, c, d, b'V', b'1', b'.', b'0']
                if erf::ErfKind::from_magic([*a, *b, *c, *d]).is_some() =>
            {
                Format::Erf
            }
            [a, b, c, d, b'V', b'3', b'.', b'2']
                if [a, b, c, d]
                    .iter()
                    .all(|x| x.is_ascii_graphic() || **x == b' ') =>
            {
                Format::Gff
            }
            _ => return None,
        })
    }

    /// Detects a format: magic numbers first (`BWM `, `NWN2`, `KEY V1  `, `BIFFV1  `, ERF and
    /// RIM capsules, `2DA `, a GFF's type and `V3.2`), then the extension, then keywords in the
    /// first 4 KiB of text.
    pub fn detect(path: &Path, data: &[u8]) -> Option<Self> {
        if data.starts_with(b"BWM ") {
            return Some(Format::Bwm);
        }
        if data.starts_with(b"NWN2") {
            return Some(Format::Trx);
        }
        if let Some(f) = Self::from_magic(data) {
            return Some(f);
        }
        if let Some(f) = Self::from_extension(path) {
            return Some(f);
        }
        if extension(path).is_some_and(|e| GFF_EXTENSIONS.contains(&e.as_str())) {
            return Some(Format::Gff);
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
            other => resource_format(other),
        }
    }
}

/// The GFF, 2DA and archive formats by name or extension (lower case).
fn resource_format(ext: &str) -> Option<Format> {
    match ext {
        "gff" => Some(Format::Gff),
        "2da" => Some(Format::TwoDa),
        "erf" | "mod" | "sav" | "hak" => Some(Format::Erf),
        "rim" => Some(Format::Rim),
        "key" => Some(Format::Key),
        "bif" => Some(Format::Bif),
        _ => None,
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
            Document::Gff(_) => Format::Gff,
            Document::TwoDa(_) => Format::TwoDa,
            Document::Erf(_) => Format::Erf,
            Document::Rim(_) => Format::Rim,
            Document::Key(_) => Format::Key,
            Document::Bif(_) => Format::Bif,
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
            Some(Format::Gff) => Document::Gff(Box::new(gff::read(data).map_err(invalid)?)),
            Some(Format::TwoDa) => Document::TwoDa(Box::new(twoda::read(data).map_err(invalid)?)),
            Some(Format::Erf) => Document::Erf(Box::new(erf::read(data).map_err(invalid)?)),
            Some(Format::Rim) => Document::Rim(Box::new(rim::read(data).map_err(invalid)?)),
            Some(Format::Key) => Document::Key(Box::new(key::read(data).map_err(invalid)?)),
            Some(Format::Bif) => Document::Bif(Box::new(bif::read(data).map_err(invalid)?)),
            None => {
                return Err(invalid(DecodeError::new(
                    ErrorKind::Malformed,
                    Location::Offset(0),
                    "unknown format: expected a BWM walkmesh (\"BWM V1.0\"), an NWN2 terrain (\"NWN2\"), \
                     a LYT, a VIS, an MDL ASCII file, a GFF, a 2DA, a capsule (ERF/MOD/RIM), a KEY or a BIF",
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
            (Document::Gff(m), Format::Gff) => gff::write(m).map_err(enc),
            (Document::TwoDa(m), Format::TwoDa) => twoda::write(m).map_err(enc),
            (Document::Erf(m), Format::Erf) => erf::write(m).map_err(enc),
            (Document::Rim(m), Format::Rim) => rim::write(m).map_err(enc),
            (Document::Key(m), Format::Key) => key::write(m).map_err(enc),
            (Document::Bif(m), Format::Bif) => bif::write(m).map_err(enc),
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
