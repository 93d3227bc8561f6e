//! Telling files apart, once: which of the formats areakit reads a file is, from its magic,
//! its extension or its first keywords ([`Format::detect`]), or from its first bytes alone
//! ([`Format::from_magic`]). This is the one module that compares magic bytes outside each
//! codec's own reader: the application, the command line and Python ask it.

use std::path::Path;

use crate::erf;

/// A file format areakit reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// KotOR binary walkmesh (`BWM V1.0`): WOK, PWK, DWK.
    Bwm,
    /// KotOR room layout (ASCII).
    Lyt,
    /// KotOR room visibility (ASCII).
    Vis,
    /// NWN/KotOR MDL ASCII model, also ASCII walkmeshes (WOK/PWK/DWK as text).
    MdlAscii,
    /// KotOR binary model: the MDL with its MDX vertex file beside it.
    Mdl,
    /// NWN2 terrain (`NWN2` container): TRX (baked) or TRN.
    Trx,
    /// NWN2 model (`NWN2` container of model packets: RIGD, SKIN, COL2/COL3, WALK, ...).
    Mdb,
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
    /// KotOR texture (TPC): DXT1/DXT5 or uncompressed, mipmaps, cube maps, a TXI trailer.
    Tpc,
    /// Truevision TGA image (loose textures, lightmaps, the minimap).
    Tga,
    /// TXI texture description (text).
    Txi,
    /// PNG image (conversions to and from the game's textures).
    Png,
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
        Format::Mdl,
        Format::Trx,
        Format::Mdb,
        Format::Gff,
        Format::TwoDa,
        Format::Erf,
        Format::Rim,
        Format::Key,
        Format::Bif,
        Format::Tpc,
        Format::Tga,
        Format::Txi,
        Format::Png,
    ];

    /// The name used by `--to` and in JSON `"format"` (`trx` covers TRN too).
    pub const fn name(self) -> &'static str {
        match self {
            Format::Bwm => "bwm",
            Format::Lyt => "lyt",
            Format::Vis => "vis",
            Format::MdlAscii => "mdl-ascii",
            Format::Mdl => "mdl",
            Format::Trx => "trx",
            Format::Mdb => "mdb",
            Format::Gff => "gff",
            Format::TwoDa => "2da",
            Format::Erf => "erf",
            Format::Rim => "rim",
            Format::Key => "key",
            Format::Bif => "bif",
            Format::Tpc => "tpc",
            Format::Tga => "tga",
            Format::Txi => "txi",
            Format::Png => "png",
        }
    }

    /// What a file of the format is, for messages ("a BWM walkmesh").
    pub const fn description(self) -> &'static str {
        match self {
            Format::Bwm => "a BWM walkmesh",
            Format::Lyt => "a LYT room layout",
            Format::Vis => "a VIS room visibility file",
            Format::MdlAscii => "an MDL ASCII model",
            Format::Mdl => "a binary (compiled) MDL",
            Format::Trx => "an NWN2 terrain (TRX/TRN)",
            Format::Mdb => "an NWN2 model (MDB)",
            Format::Gff => "a GFF",
            Format::TwoDa => "a 2DA table",
            Format::Erf => "an ERF-family capsule",
            Format::Rim => "a RIM capsule",
            Format::Key => "a KEY index",
            Format::Bif => "a BIF archive",
            Format::Tpc => "a TPC texture",
            Format::Tga => "a TGA image",
            Format::Txi => "a TXI texture description",
            Format::Png => "a PNG image",
        }
    }

    /// The format named by `--to NAME` (a few aliases accepted).
    pub fn from_name(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "bwm" => Some(Format::Bwm),
            "lyt" => Some(Format::Lyt),
            "vis" => Some(Format::Vis),
            "mdl-ascii" | "ascii" | "wok-ascii" | "pwk-ascii" | "dwk-ascii" => {
                Some(Format::MdlAscii)
            }
            "mdl" | "mdl-bin" | "mdl-binary" => Some(Format::Mdl),
            "trx" | "trn" => Some(Format::Trx),
            "mdb" => Some(Format::Mdb),
            other => resource_format(other),
        }
    }

    /// The format of bytes by their magic alone (binary formats only).
    pub fn from_magic(data: &[u8]) -> Option<Self> {
        let head = data.get(..8)?;
        Some(match head {
            h if h == crate::png::SIGNATURE => Format::Png,
            [b'B', b'W', b'M', b' ', ..] => Format::Bwm,
            [b'N', b'W', b'N', b'2', ..] if crate::mdb::is_mdb(data) => Format::Mdb,
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
    /// RIM capsules, `2DA `, a GFF's type and `V3.2`, PNG), then a binary model (its header's
    /// sizes fit the file, or a `.mdl`/`.ascii` that begins with binary bytes:
    /// [`binary_head`]), then the extension (TPC, TGA and TXI have no magic), then keywords in
    /// the first 4 KiB of text.
    ///
    /// This is the one detection: the CLI's commands and the Python classes open files
    /// through it (the application's `Document::decode`, `Document::decode_as`).
    pub fn detect(path: &Path, data: &[u8]) -> Option<Self> {
        if data.starts_with(b"BWM ") {
            return Some(Format::Bwm);
        }
        if data.starts_with(b"NWN2") {
            // One container for terrains and models: the packet tags tell them apart.
            return Some(if crate::mdb::is_mdb(data) {
                Format::Mdb
            } else {
                Format::Trx
            });
        }
        if let Some(f) = Self::from_magic(data) {
            return Some(f);
        }
        if is_binary_mdl(data) {
            return Some(Format::Mdl);
        }
        if matches!(extension(path).as_deref(), Some("mdl" | "ascii")) && binary_head(data) {
            // A `.mdl` whose first bytes hold a NUL is a compiled model, however broken: its
            // decoder says what is wrong (a cut file, a size word that disagrees), not the
            // text reader. The same under `.ascii` (`m.mdl.ascii`): the content decides.
            return Some(Format::Mdl);
        }
        if extension(path).as_deref() == Some("mdl") {
            // A `.mdl` that is not binary is an ASCII model (NWN and KotOR source files).
            return Some(Format::MdlAscii);
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
        } else if matches!(ext.as_deref(), Some("wok" | "pwk" | "dwk")) {
            // Neither a BWM's magic nor walkmesh text: a damaged BWM, whose decoder says what
            // is wrong (its magic), rather than "unknown format".
            Some(Format::Bwm)
        } else {
            None
        }
    }

    /// The format an output path's extension names unambiguously, if any.
    ///
    /// `.wok`, `.pwk` and `.dwk` alone are ambiguous (NWN keeps them as text), so they name no
    /// format here: a conversion to them keeps the input's format unless `--to` says otherwise.
    /// `.mdl` names the binary model (with its `.mdx`); `.ascii` (`m.mdl.ascii`) the text one.
    pub fn from_extension(path: &Path) -> Option<Self> {
        match extension(path)?.as_str() {
            "bwm" => Some(Format::Bwm),
            "lyt" => Some(Format::Lyt),
            "vis" => Some(Format::Vis),
            "mdl" => Some(Format::Mdl),
            "ascii" => Some(Format::MdlAscii),
            "trx" | "trn" => Some(Format::Trx),
            "mdb" => Some(Format::Mdb),
            other => resource_format(other),
        }
    }
}

/// Whether a capsule's first four bytes are a RIM's type (`RIM `, whatever the version after
/// it; the ERF family's are [`erf::ErfKind::from_magic`]).
pub fn is_rim_type(magic: [u8; 4]) -> bool {
    &magic == b"RIM "
}

/// Whether `data` is a binary MDL: a zero word, then the size of the data after the 12-byte
/// file header, and room for the model header; or an NWN compiled model (its model data and
/// raw data after the header, by structure: `mdl::is_nwn_layout`).
pub fn is_binary_mdl(data: &[u8]) -> bool {
    if crate::mdl::is_nwn_layout(data) {
        return true;
    }
    let word = |o: usize| {
        data.get(o..o + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    data.len() >= 12 + crate::mdl::raw::MODEL_HEADER
        && word(0) == Some(0)
        && word(4).is_some_and(|n| n as usize == data.len() - 12)
}

/// Whether the bytes begin as a compiled model rather than text: a NUL among the first four
/// bytes (a compiled MDL's first word is 0, so a cut of 1 to 3 bytes is NULs too; MDL ASCII
/// text has none there: its reader ends the text at the first NUL).
pub fn binary_head(data: &[u8]) -> bool {
    data[..data.len().min(4)].contains(&0)
}

/// The GFF, 2DA, archive and texture formats by name or extension (lower case).
fn resource_format(ext: &str) -> Option<Format> {
    match ext {
        "tpc" => Some(Format::Tpc),
        "tga" => Some(Format::Tga),
        "txi" => Some(Format::Txi),
        "png" => Some(Format::Png),
        "gff" => Some(Format::Gff),
        "2da" => Some(Format::TwoDa),
        "erf" | "mod" | "sav" | "hak" => Some(Format::Erf),
        "rim" => Some(Format::Rim),
        "key" => Some(Format::Key),
        "bif" => Some(Format::Bif),
        _ => None,
    }
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
