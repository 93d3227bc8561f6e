//! Resource names and types: the 16-byte [`ResRef`] and the numeric [`ResType`] that every
//! Aurora-family archive (KEY, BIF, ERF/MOD/SAV/HAK, RIM) stores instead of a file name.
//!
//! [`ResType::extension`] and [`ResType::from_extension`] use one table ([`TYPES`]) for
//! KotOR 1/2 and Neverwinter Nights. The ids agree across BioWare's NWN documentation, the
//! NWN:EE tool chain (neverwinter.nim), xoreos (`src/aurora/types.h`) and PyKotor
//! (`ResourceType`) everywhere except:
//!
//! - 2067–2083: NWN:EE's types (`shd`, `mtr`, `ttf`, `png`, `jpg`, ...) are used; xoreos gives
//!   these ids to NWN2/Witcher/Jade Empire types (NCM, MFX, MAT, MDB, ...), and PyKotor
//!   calls 2076 `jpg` (NWN:EE: `tml`, and `jpg` is 2081);
//! - 2110 `png` (xoreos, PyKotor) is kept as a second id for `png`; [`ResType::from_extension`]
//!   gives NWN:EE's 2080;
//! - 9996 is `ids` (NWN:EE), `1da` in xoreos;
//! - the toolset-only ids of PyKotor (50001 and up, e.g. `tlk.xml`) and xoreos's ids for
//!   other games are not in the table.
//!
//! Unknown ids are kept as they are (never an error): [`ResType`] displays them as the decimal
//! id, and [`ResType::from_extension`] reads a decimal id back, so `name.2999` round-trips
//! through a folder. See `docs/formats/erf.md` ("Resource types").

use std::fmt;

use crate::error::EncodeError;

/// A resource type id as stored in archives (`u16`; RIM and BIF store it in a `u32` whose
/// upper half is 0 in real files).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ResType(pub u16);

/// One row of the type table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeInfo {
    /// The id stored in archives.
    pub id: u16,
    /// The file extension (lower case, no dot).
    pub extension: &'static str,
    /// What the resource holds.
    pub description: &'static str,
}

macro_rules! restypes {
    ($( $konst:ident = $id:literal, $ext:literal, $desc:literal; )*) => {
        impl ResType {
            $(
                #[doc = concat!("`", $ext, "` (", stringify!($id), "): ", $desc, ".")]
                pub const $konst: ResType = ResType($id);
            )*
        }

        /// Every known type, sorted by id (ids are unique; `png` has two ids, the first is
        /// the one [`ResType::from_extension`] gives).
        pub const TYPES: &[TypeInfo] = &[
            $( TypeInfo { id: $id, extension: $ext, description: $desc }, )*
        ];
    };
}

restypes! {
    RES = 0, "res", "generic GFF (save data)";
    BMP = 1, "bmp", "Windows bitmap";
    MVE = 2, "mve", "video (Infinity Engine)";
    TGA = 3, "tga", "Truevision TARGA image";
    WAV = 4, "wav", "wave audio";
    WFX = 5, "wfx", "NWN: unknown (neverwinter.nim)";
    PLT = 6, "plt", "packed layer texture";
    INI = 7, "ini", "Windows INI";
    BMU = 8, "bmu", "MP3 audio with an extra header";
    MPG = 9, "mpg", "MPEG video";
    TXT = 10, "txt", "plain text";
    WMA = 11, "wma", "Windows Media audio (xoreos)";
    WMV = 12, "wmv", "Windows Media video (xoreos)";
    XMV = 13, "xmv", "Xbox video (xoreos)";
    PLH = 2000, "plh", "unknown";
    TEX = 2001, "tex", "texture";
    MDL = 2002, "mdl", "model";
    THG = 2003, "thg", "unknown";
    FNT = 2005, "fnt", "font";
    LUA = 2007, "lua", "Lua source";
    SLT = 2008, "slt", "unknown";
    NSS = 2009, "nss", "NWScript source";
    NCS = 2010, "ncs", "NWScript bytecode";
    MOD = 2011, "mod", "module (ERF)";
    ARE = 2012, "are", "static area data (GFF)";
    SET = 2013, "set", "tileset";
    IFO = 2014, "ifo", "module information (GFF)";
    BIC = 2015, "bic", "character (GFF)";
    WOK = 2016, "wok", "area walkmesh";
    TWO_DA = 2017, "2da", "two-dimensional array";
    TLK = 2018, "tlk", "talk table";
    TXI = 2022, "txi", "texture information";
    GIT = 2023, "git", "dynamic area data (GFF)";
    BTI = 2024, "bti", "item template, BioWare (GFF)";
    UTI = 2025, "uti", "item template (GFF)";
    BTC = 2026, "btc", "creature template, BioWare (GFF)";
    UTC = 2027, "utc", "creature template (GFF)";
    DLG = 2029, "dlg", "dialogue (GFF)";
    ITP = 2030, "itp", "toolset palette (GFF)";
    BTT = 2031, "btt", "trigger template, BioWare (GFF)";
    UTT = 2032, "utt", "trigger template (GFF)";
    DDS = 2033, "dds", "DirectDraw surface texture";
    BTS = 2034, "bts", "sound template, BioWare (GFF)";
    UTS = 2035, "uts", "sound template (GFF)";
    LTR = 2036, "ltr", "letter-combination probabilities (name generator)";
    GFF = 2037, "gff", "generic GFF";
    FAC = 2038, "fac", "factions (GFF)";
    BTE = 2039, "bte", "encounter template, BioWare (GFF)";
    UTE = 2040, "ute", "encounter template (GFF)";
    BTD = 2041, "btd", "door template, BioWare (GFF)";
    UTD = 2042, "utd", "door template (GFF)";
    BTP = 2043, "btp", "placeable template, BioWare (GFF)";
    UTP = 2044, "utp", "placeable template (GFF)";
    DFT = 2045, "dft", "default values";
    GIC = 2046, "gic", "game instance comments (GFF)";
    GUI = 2047, "gui", "GUI layout (GFF)";
    CSS = 2048, "css", "conditional script source";
    CCS = 2049, "ccs", "conditional script bytecode";
    BTM = 2050, "btm", "store template, BioWare (GFF)";
    UTM = 2051, "utm", "store template (GFF)";
    DWK = 2052, "dwk", "door walkmesh";
    PWK = 2053, "pwk", "placeable walkmesh";
    BTG = 2054, "btg", "random item generator template, BioWare (GFF)";
    UTG = 2055, "utg", "random item generator template (GFF)";
    JRL = 2056, "jrl", "journal (GFF)";
    SAV = 2057, "sav", "saved game (ERF)";
    UTW = 2058, "utw", "waypoint template (GFF)";
    FOUR_PC = 2059, "4pc", "16-bit RGBA texture";
    SSF = 2060, "ssf", "sound set";
    HAK = 2061, "hak", "hak pak (ERF)";
    NWM = 2062, "nwm", "NWN campaign module (ERF)";
    BIK = 2063, "bik", "Bink video";
    NDB = 2064, "ndb", "script debugger data";
    PTM = 2065, "ptm", "plot manager (GFF)";
    PTT = 2066, "ptt", "plot wizard template (GFF)";
    BAK = 2067, "bak", "NWN:EE backup";
    DAT = 2068, "dat", "NWN:EE data";
    SHD = 2069, "shd", "NWN:EE shader";
    XBC = 2070, "xbc", "NWN:EE unknown";
    WBM = 2071, "wbm", "NWN:EE WebM video";
    MTR = 2072, "mtr", "NWN:EE material";
    KTX = 2073, "ktx", "NWN:EE KTX texture";
    TTF = 2074, "ttf", "NWN:EE TrueType font";
    SQL = 2075, "sql", "NWN:EE SQL";
    TML = 2076, "tml", "NWN:EE unknown (PyKotor and xoreos: jpg)";
    SQ3 = 2077, "sq3", "NWN:EE SQLite database";
    LOD = 2078, "lod", "NWN:EE level of detail";
    GIF = 2079, "gif", "NWN:EE GIF image";
    PNG = 2080, "png", "NWN:EE PNG image";
    JPG = 2081, "jpg", "NWN:EE JPEG image";
    CAF = 2082, "caf", "NWN:EE Core Audio";
    JUI = 2083, "jui", "NWN:EE UI";
    PNG_XOREOS = 2110, "png", "PNG image (xoreos, PyKotor)";
    LYT = 3000, "lyt", "room layout";
    VIS = 3001, "vis", "room visibility";
    RIM = 3002, "rim", "module resources (RIM)";
    PTH = 3003, "pth", "path-finding graph (GFF)";
    LIP = 3004, "lip", "lip-sync data";
    BWM = 3005, "bwm", "walkmesh (Jade Empire)";
    TXB = 3006, "txb", "texture (Jade Empire)";
    TPC = 3007, "tpc", "texture";
    MDX = 3008, "mdx", "model mesh data";
    IDS = 9996, "ids", "NWN:EE id list (xoreos: 1da)";
    ERF = 9997, "erf", "encapsulated resources (ERF)";
    BIF = 9998, "bif", "resource data (BIF)";
    KEY = 9999, "key", "resource index (KEY)";
}

impl ResType {
    /// The id as stored.
    pub const fn id(self) -> u16 {
        self.0
    }

    /// The row of [`TYPES`] for this id, if known.
    pub fn info(self) -> Option<&'static TypeInfo> {
        TYPES
            .binary_search_by_key(&self.0, |t| t.id)
            .ok()
            .map(|i| &TYPES[i])
    }

    /// The file extension (lower case, no dot), or `None` for an id the table does not know.
    pub fn extension(self) -> Option<&'static str> {
        self.info().map(|t| t.extension)
    }

    /// Whether the table knows this id.
    pub fn is_known(self) -> bool {
        self.info().is_some()
    }

    /// The type of a file extension, case-insensitive, with or without a leading dot. A
    /// decimal number is read as the id itself (what [`Display`](fmt::Display) writes for an
    /// unknown id). `None` for anything else.
    ///
    /// ```
    /// use areakit_formats::restype::ResType;
    /// assert_eq!(ResType::from_extension("WOK"), Some(ResType::WOK));
    /// assert_eq!(ResType::from_extension(".git"), Some(ResType(2023)));
    /// assert_eq!(ResType::from_extension("2999"), Some(ResType(2999)));
    /// assert_eq!(ResType(2999).to_string(), "2999");
    /// assert_eq!(ResType::from_extension("nope"), None);
    /// ```
    pub fn from_extension(ext: &str) -> Option<ResType> {
        let ext = ext.strip_prefix('.').unwrap_or(ext);
        if let Some(t) = TYPES.iter().find(|t| t.extension.eq_ignore_ascii_case(ext)) {
            return Some(ResType(t.id));
        }
        if !ext.is_empty() && ext.bytes().all(|b| b.is_ascii_digit()) {
            return ext.parse().ok().map(ResType);
        }
        None
    }
}

impl fmt::Display for ResType {
    /// The extension, or the decimal id when the table does not know it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.extension() {
            Some(e) => f.write_str(e),
            None => write!(f, "{}", self.0),
        }
    }
}

impl fmt::Debug for ResType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.extension() {
            Some(e) => write!(f, "ResType({} {e})", self.0),
            None => write!(f, "ResType({})", self.0),
        }
    }
}

/// A resource name as stored: 16 bytes, the name then NUL padding. A name of exactly 16
/// characters has no terminator (3,541 of the 12,825 corpus capsule members). The bytes are
/// kept as read, including anything after the first NUL.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ResRef(pub [u8; ResRef::LEN]);

impl ResRef {
    /// The stored size in bytes.
    pub const LEN: usize = 16;

    /// A resref from a name: 1 to 16 printable ASCII characters other than `/`, `\` and `.`.
    /// The case is kept (the engines compare names case-insensitively).
    pub fn new(name: &str) -> Result<ResRef, EncodeError> {
        if name.is_empty() || name.len() > Self::LEN {
            return Err(EncodeError(format!(
                "resref {name:?} must have 1 to {} characters",
                Self::LEN
            )));
        }
        if let Some(c) = name
            .chars()
            .find(|c| !c.is_ascii_graphic() && *c != ' ' || matches!(c, '/' | '\\' | '.'))
        {
            return Err(EncodeError(format!(
                "resref {name:?}: character {c:?} is not allowed (printable ASCII without `/`, `\\` and `.`)"
            )));
        }
        let mut raw = [0u8; Self::LEN];
        raw[..name.len()].copy_from_slice(name.as_bytes());
        Ok(ResRef(raw))
    }

    /// The stored bytes.
    pub fn as_bytes(&self) -> &[u8; Self::LEN] {
        &self.0
    }

    /// The name's bytes: up to the first NUL (all 16 when there is none).
    pub fn name_bytes(&self) -> &[u8] {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(Self::LEN);
        &self.0[..end]
    }

    /// The name as text (bytes that are not UTF-8 replaced).
    pub fn name(&self) -> String {
        String::from_utf8_lossy(self.name_bytes()).into_owned()
    }

    /// Whether there are non-zero bytes after the first NUL (kept, but not part of the name).
    pub fn has_bytes_after_name(&self) -> bool {
        let n = self.name_bytes().len();
        self.0[n..].iter().any(|&b| b != 0)
    }

    /// The name lower-cased and NUL-padded: the key under which the engines look it up.
    pub fn lookup_key(&self) -> [u8; Self::LEN] {
        let mut k = [0u8; Self::LEN];
        for (o, b) in k.iter_mut().zip(self.name_bytes()) {
            *o = b.to_ascii_lowercase();
        }
        k
    }

    /// Whether the name equals `name`, ignoring ASCII case.
    pub fn eq_ignore_case(&self, name: &str) -> bool {
        self.name_bytes().eq_ignore_ascii_case(name.as_bytes())
    }

    /// `name.ext` (the extension of `restype`, or its decimal id when unknown).
    pub fn file_name(&self, restype: ResType) -> String {
        format!("{}.{restype}", self.name())
    }
}

impl fmt::Display for ResRef {
    /// The name (bytes that are not UTF-8 replaced).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl fmt::Debug for ResRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // bytes after the name take part in equality but are not shown
        write!(f, "ResRef({:?})", self.name())
    }
}

/// Splits a file name `stem.ext` into a resref and a type: the stem becomes the resref (case
/// kept), the extension after the last dot the type ([`ResType::from_extension`]: a known
/// extension or a decimal id).
///
/// ```
/// use areakit_formats::restype::{parse_file_name, ResType};
/// let (r, t) = parse_file_name("m13aa.git").unwrap();
/// assert_eq!((r.name().as_str(), t), ("m13aa", ResType::GIT));
/// assert!(parse_file_name("notes").is_err());
/// ```
pub fn parse_file_name(file_name: &str) -> Result<(ResRef, ResType), EncodeError> {
    let (stem, ext) = file_name
        .rsplit_once('.')
        .ok_or_else(|| EncodeError(format!("{file_name:?} has no extension")))?;
    let restype = ResType::from_extension(ext).ok_or_else(|| {
        EncodeError(format!(
            "{file_name:?}: unknown extension {ext:?} (use a known one or the decimal type id)"
        ))
    })?;
    let resref = ResRef::new(stem).map_err(|e| EncodeError(format!("{file_name:?}: {}", e.0)))?;
    Ok((resref, restype))
}

/// Sorts archive members by name (ASCII case-insensitive), then type id, then the stored name
/// bytes (so the order is total); two members with the same name and type are an error.
pub(crate) fn sort_members<T>(members: &mut [(ResRef, ResType, T)]) -> Result<(), EncodeError> {
    members.sort_by_key(|a| (a.0.lookup_key(), a.1, a.0.0));
    for w in members.windows(2) {
        if w[0].0.lookup_key() == w[1].0.lookup_key() && w[0].1 == w[1].1 {
            return Err(EncodeError(format!(
                "two members named {}",
                w[1].0.file_name(w[1].1)
            )));
        }
    }
    Ok(())
}

/// An archive member: name, type, data.
pub type Member = (ResRef, ResType, Vec<u8>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_with_unique_ids() {
        for w in TYPES.windows(2) {
            assert!(w[0].id < w[1].id, "{:?} then {:?}", w[0], w[1]);
        }
        for t in TYPES {
            assert_eq!(t.extension, t.extension.to_ascii_lowercase());
            assert!(!t.extension.is_empty() && !t.extension.contains('.'));
        }
    }

    #[test]
    fn the_area_types() {
        for (id, ext) in [
            (2016, "wok"),
            (3000, "lyt"),
            (3001, "vis"),
            (2023, "git"),
            (2012, "are"),
            (2014, "ifo"),
            (2044, "utp"),
            (2042, "utd"),
            (3003, "pth"),
            (2017, "2da"),
            (2052, "dwk"),
            (2053, "pwk"),
            (2036, "ltr"),
            (2058, "utw"),
            (2010, "ncs"),
            (3008, "mdx"),
            (3007, "tpc"),
        ] {
            assert_eq!(ResType(id).extension(), Some(ext));
            assert_eq!(ResType::from_extension(ext), Some(ResType(id)));
            assert_eq!(
                ResType::from_extension(&ext.to_ascii_uppercase()),
                Some(ResType(id))
            );
        }
    }

    #[test]
    fn every_id_round_trips_through_its_display() {
        for id in 0..=u16::MAX {
            let t = ResType(id);
            let shown = t.to_string();
            let back = ResType::from_extension(&shown).unwrap();
            if id == 2110 {
                assert_eq!(back, ResType::PNG, "png reads as NWN:EE's id");
            } else {
                assert_eq!(back, t, "{shown}");
            }
        }
    }

    #[test]
    fn unknown_ids_are_kept() {
        assert_eq!(ResType(4).extension(), Some("wav"));
        assert_eq!(ResType(2004).extension(), None);
        assert!(!ResType(65535).is_known());
        assert_eq!(format!("{:?}", ResType(2004)), "ResType(2004)");
        assert_eq!(format!("{:?}", ResType::WOK), "ResType(2016 wok)");
        assert_eq!(ResType::from_extension(""), None);
        assert_eq!(ResType::from_extension("70000"), None);
    }

    #[test]
    fn resrefs() {
        let r = ResRef::new("M13aa_01a").unwrap();
        assert_eq!(r.name(), "M13aa_01a");
        assert!(r.eq_ignore_case("m13AA_01A"));
        assert_eq!(&r.lookup_key()[..9], b"m13aa_01a");
        assert_eq!(r.file_name(ResType::WOK), "M13aa_01a.wok");
        let full = ResRef::new("k_pebo_sthcreate").unwrap();
        assert_eq!(full.name_bytes().len(), 16);
        assert!(ResRef::new("").is_err());
        assert!(ResRef::new("seventeen_chars_x").is_err());
        assert!(ResRef::new("a.b").is_err());
        assert!(ResRef::new("tab\there").is_err());
        let mut raw = *ResRef::new("ab").unwrap().as_bytes();
        raw[5] = b'x';
        let g = ResRef(raw);
        assert_eq!(g.name(), "ab");
        assert!(g.has_bytes_after_name());
        assert_ne!(g, ResRef::new("ab").unwrap());
        assert_eq!(g.lookup_key(), ResRef::new("ab").unwrap().lookup_key());
    }

    #[test]
    fn file_names() {
        let (r, t) = parse_file_name("Door01.UTD").unwrap();
        assert_eq!((r.name().as_str(), t), ("Door01", ResType::UTD));
        let (r, t) = parse_file_name("odd.2999").unwrap();
        assert_eq!((r.name().as_str(), t), ("odd", ResType(2999)));
        assert!(parse_file_name("x.y.utd").is_err(), "a dot in the stem");
        assert!(parse_file_name("x.mdl.ascii").is_err(), "unknown extension");
    }
}
