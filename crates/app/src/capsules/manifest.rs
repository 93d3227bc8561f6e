//! `areakit-capsule.json`, the manifest `extract` writes beside a capsule's members and `pack`
//! follows: every header field, member order, id and layout (data ranges, the bytes between
//! them) of an ERF-family or RIM capsule, so that packing an unmodified extraction gives the
//! capsule's own bytes back. One schema, derived both ways; byte strings are lower-case hex.
//!
//! ```json
//! {"areakit_capsule": 1, "format": "erf", "kind": "MOD ",
//!  "header": {"build_year": .., "build_day": .., "description_strref": .., "reserved": "00.."},
//!  "strings": [{"language": 0, "text": "hex"}],
//!  "members": [{"file": "m01aa.are", "resref": "hex", "type": 2012, "id": 0, "unused": 0}],
//!  "layout": {"strings_offset": .., "strings_size": .., "keys_offset": ..,
//!             "resources_offset": .., "ranges": [[offset, size]], "gaps": [[offset, "hex"]],
//!             "len": ..} | null}
//! ```
//!
//! A RIM's has `"format": "rim"`, `"header": {"unknown", "reserved"}`, members with
//! `type_high` instead of `unused`, and a layout of `keys_offset`, `ranges`, `gaps`, `len`.

use areakit_formats::cursor::Gap;
use areakit_formats::erf::{self, DataRange, Erf, ErfKind};
use areakit_formats::restype::{ResRef, ResType};
use areakit_formats::rim::{self, Rim};
use serde::{Deserialize, Serialize};

/// The manifest's version (`areakit_capsule`).
pub const VERSION: u32 = 1;

/// A manifest file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`VERSION`].
    pub areakit_capsule: u32,
    /// The capsule's family and fields.
    #[serde(flatten)]
    pub body: Body,
}

/// The fields of one capsule family, told by `format`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "format", rename_all = "lowercase")]
pub enum Body {
    /// ERF, MOD, SAV, HAK.
    Erf(ErfManifest),
    /// RIM.
    Rim(RimManifest),
}

/// An ERF-family capsule's manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErfManifest {
    /// The type: `"ERF "`, `"MOD "`, `"SAV "`, `"HAK "`.
    pub kind: String,
    /// The header fields.
    pub header: ErfHeader,
    /// The localized descriptions.
    #[serde(default)]
    pub strings: Vec<ErfString>,
    /// The members, in key order.
    pub members: Vec<ErfMember>,
    /// Where everything lay (absent for a new layout).
    pub layout: Option<ErfLayout>,
}

/// An ERF header's fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErfHeader {
    /// Build year.
    pub build_year: u32,
    /// Build day.
    pub build_day: u32,
    /// The description's string reference.
    pub description_strref: u32,
    /// The reserved bytes.
    #[serde(with = "hex")]
    pub reserved: Vec<u8>,
}

/// A localized description.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErfString {
    /// The language id.
    pub language: u32,
    /// The text's bytes.
    #[serde(with = "hex")]
    pub text: Vec<u8>,
}

/// An ERF member.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErfMember {
    /// The file in the folder holding its data.
    pub file: String,
    /// The resource name's 16 bytes.
    #[serde(with = "hex")]
    pub resref: Vec<u8>,
    /// The resource type id.
    #[serde(rename = "type")]
    pub restype: u16,
    /// The resource id.
    pub id: u32,
    /// The key's unused field.
    pub unused: u16,
}

/// Where an ERF's parts lay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErfLayout {
    /// Offset of the localized strings.
    pub strings_offset: u32,
    /// Their size as the header states it.
    pub strings_size: u32,
    /// Offset of the key list.
    pub keys_offset: u32,
    /// Offset of the resource list.
    pub resources_offset: u32,
    /// Each member's data `[offset, size]`.
    pub ranges: Vec<(u32, u32)>,
    /// Bytes outside the tables and data: `[offset, "hex"]`.
    pub gaps: Vec<GapJson>,
    /// File length.
    pub len: u64,
}

/// A RIM's manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RimManifest {
    /// The header fields.
    pub header: RimHeader,
    /// The members, in key order.
    pub members: Vec<RimMember>,
    /// Where everything lay (absent for a new layout).
    pub layout: Option<RimLayout>,
}

/// A RIM header's fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RimHeader {
    /// The field after the version.
    pub unknown: u32,
    /// The reserved bytes.
    #[serde(with = "hex")]
    pub reserved: Vec<u8>,
}

/// A RIM member.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RimMember {
    /// The file in the folder holding its data.
    pub file: String,
    /// The resource name's 16 bytes.
    #[serde(with = "hex")]
    pub resref: Vec<u8>,
    /// The resource type id.
    #[serde(rename = "type")]
    pub restype: u16,
    /// The resource id.
    pub id: u32,
    /// The type's high half.
    pub type_high: u16,
}

/// Where a RIM's parts lay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RimLayout {
    /// Offset of the key table.
    pub keys_offset: u32,
    /// Each member's data `[offset, size]`.
    pub ranges: Vec<(u32, u32)>,
    /// Bytes outside the table and data: `[offset, "hex"]`.
    pub gaps: Vec<GapJson>,
    /// File length.
    pub len: u64,
}

/// A gap: `[offset, "hex bytes"]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GapJson(pub u64, #[serde(with = "hex")] pub Vec<u8>);

impl Manifest {
    /// The manifest of an ERF whose members were written to `files` (in key order).
    pub fn of_erf(e: &Erf, files: &[String]) -> Manifest {
        let members = (e.resources.iter().zip(files))
            .map(|(r, f)| ErfMember {
                file: f.clone(),
                resref: r.resref.as_bytes().to_vec(),
                restype: r.restype.id(),
                id: r.id,
                unused: r.unused,
            })
            .collect();
        let layout = e.layout.as_ref().map(|l| ErfLayout {
            strings_offset: l.strings_offset,
            strings_size: l.strings_size,
            keys_offset: l.keys_offset,
            resources_offset: l.resources_offset,
            ranges: ranges(&l.ranges),
            gaps: gaps(&l.gaps),
            len: l.len,
        });
        let h = &e.header;
        Manifest::new(Body::Erf(ErfManifest {
            kind: String::from_utf8_lossy(&h.kind.magic()).into_owned(),
            header: ErfHeader {
                build_year: h.build_year,
                build_day: h.build_day,
                description_strref: h.description_strref,
                reserved: h.reserved.to_vec(),
            },
            strings: (e.strings.iter())
                .map(|s| ErfString {
                    language: s.language,
                    text: s.text.clone(),
                })
                .collect(),
            members,
            layout,
        }))
    }

    /// The manifest of a RIM whose members were written to `files` (in key order).
    pub fn of_rim(r: &Rim, files: &[String]) -> Manifest {
        let members = (r.resources.iter().zip(files))
            .map(|(m, f)| RimMember {
                file: f.clone(),
                resref: m.resref.as_bytes().to_vec(),
                restype: m.restype.id(),
                id: m.id,
                type_high: m.type_high,
            })
            .collect();
        let layout = r.layout.as_ref().map(|l| RimLayout {
            keys_offset: l.keys_offset,
            ranges: ranges(&l.ranges),
            gaps: gaps(&l.gaps),
            len: l.len,
        });
        Manifest::new(Body::Rim(RimManifest {
            header: RimHeader {
                unknown: r.header.unknown,
                reserved: r.header.reserved.to_vec(),
            },
            members,
            layout,
        }))
    }

    fn new(body: Body) -> Manifest {
        Manifest {
            areakit_capsule: VERSION,
            body,
        }
    }
}

/// A member a manifest names: its file and the key fields to restore.
pub struct Named<'a> {
    /// The file in the folder.
    pub file: &'a str,
    /// The resource name.
    pub resref: ResRef,
    /// The resource type.
    pub restype: ResType,
}

/// A manifest field that does not fit the capsule (a resref of the wrong length, an unknown
/// ERF type, reserved bytes of the wrong size).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManifestError {
    /// `kind` names no ERF-family type.
    #[error("kind {0:?}: not an ERF-family type (ERF, MOD, SAV, HAK)")]
    Kind(String),
    /// A byte string of the wrong length.
    #[error("{what}: expected {expected} bytes, found {found}")]
    Length {
        /// The field.
        what: String,
        /// Its length in the format.
        expected: usize,
        /// The manifest's.
        found: usize,
    },
}

fn sized<const N: usize>(what: impl Into<String>, b: &[u8]) -> Result<[u8; N], ManifestError> {
    b.try_into().map_err(|_| ManifestError::Length {
        what: what.into(),
        expected: N,
        found: b.len(),
    })
}

impl ErfManifest {
    /// The ERF's header and strings (no members yet), and its members' key fields in order.
    pub fn start(&self) -> Result<(Erf, Vec<Named<'_>>), ManifestError> {
        let magic: [u8; 4] = sized("kind", self.kind.as_bytes())
            .map_err(|_| ManifestError::Kind(self.kind.clone()))?;
        let kind =
            ErfKind::from_magic(magic).ok_or_else(|| ManifestError::Kind(self.kind.clone()))?;
        let mut e = Erf::new(kind);
        e.header.build_year = self.header.build_year;
        e.header.build_day = self.header.build_day;
        e.header.description_strref = self.header.description_strref;
        e.header.reserved = sized("header.reserved", &self.header.reserved)?;
        e.strings = (self.strings.iter())
            .map(|s| erf::LocalizedString {
                language: s.language,
                text: s.text.clone(),
            })
            .collect();
        let named = (self.members.iter().enumerate())
            .map(|(i, m)| named(i, &m.file, &m.resref, m.restype))
            .collect::<Result<_, _>>()?;
        Ok((e, named))
    }

    /// The layout, when the manifest keeps one.
    pub fn layout(&self) -> Option<erf::Layout> {
        self.layout.as_ref().map(|l| erf::Layout {
            strings_offset: l.strings_offset,
            strings_size: l.strings_size,
            keys_offset: l.keys_offset,
            resources_offset: l.resources_offset,
            ranges: data_ranges(&l.ranges),
            gaps: gaps_of(&l.gaps),
            len: l.len,
        })
    }
}

impl RimManifest {
    /// The RIM's header (no members yet), and its members' key fields in order.
    pub fn start(&self) -> Result<(Rim, Vec<Named<'_>>), ManifestError> {
        let mut r = Rim::new();
        r.header.unknown = self.header.unknown;
        r.header.reserved = sized("header.reserved", &self.header.reserved)?;
        let named = (self.members.iter().enumerate())
            .map(|(i, m)| named(i, &m.file, &m.resref, m.restype))
            .collect::<Result<_, _>>()?;
        Ok((r, named))
    }

    /// The layout, when the manifest keeps one.
    pub fn layout(&self) -> Option<rim::Layout> {
        self.layout.as_ref().map(|l| rim::Layout {
            keys_offset: l.keys_offset,
            ranges: data_ranges(&l.ranges),
            gaps: gaps_of(&l.gaps),
            len: l.len,
        })
    }
}

fn named<'a>(
    i: usize,
    file: &'a str,
    resref: &[u8],
    restype: u16,
) -> Result<Named<'a>, ManifestError> {
    Ok(Named {
        file,
        resref: ResRef(sized(format!("members[{i}].resref"), resref)?),
        restype: ResType(restype),
    })
}

fn ranges(r: &[DataRange]) -> Vec<(u32, u32)> {
    r.iter().map(|r| (r.offset, r.size)).collect()
}

fn data_ranges(r: &[(u32, u32)]) -> Vec<DataRange> {
    r.iter()
        .map(|&(offset, size)| DataRange { offset, size })
        .collect()
}

fn gaps(g: &[Gap]) -> Vec<GapJson> {
    g.iter()
        .map(|g| GapJson(g.offset, g.bytes.clone()))
        .collect()
}

fn gaps_of(g: &[GapJson]) -> Vec<Gap> {
    g.iter()
        .map(|g| Gap {
            offset: g.0,
            bytes: g.1.clone(),
        })
        .collect()
}

/// Byte strings as lower-case hex.
mod hex {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!(
            "{}",
            bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
        ))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let s = String::deserialize(d)?;
        let bad = || D::Error::custom(format!("{s:?}: expected hex bytes"));
        if s.len() % 2 != 0 {
            return Err(bad());
        }
        (0..s.len())
            .step_by(2)
            .map(|i| {
                s.get(i..i + 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(bad)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_reads_back_as_written_and_keeps_its_key_order() {
        let mut e = Erf::new(ErfKind::Mod);
        e.header.build_year = 103;
        e.header.reserved[3] = 0xab;
        e.push(ResRef::new("m01aa").unwrap(), ResType(2012), vec![1, 2, 3]);
        let m = Manifest::of_erf(&e, &["m01aa.are".to_string()]);
        let text = serde_json::to_string(&m).unwrap();
        assert!(
            text.starts_with(
                r#"{"areakit_capsule":1,"format":"erf","kind":"MOD ","header":{"build_year":103"#
            ),
            "{text}"
        );
        let back: Manifest = serde_json::from_str(&text).unwrap();
        assert_eq!(back, m);
        let Body::Erf(b) = &back.body else { panic!() };
        let (e2, named) = b.start().unwrap();
        assert_eq!(e2.header, e.header);
        assert_eq!(
            (named[0].file, named[0].resref),
            ("m01aa.are", e.resources[0].resref)
        );
    }

    #[test]
    fn a_bad_manifest_is_refused_where_it_is_bad() {
        let e = serde_json::from_str::<Manifest>(
            "{\"areakit_capsule\": 1, \"format\": \"rim\",\n \"header\": {\"unknown\": 0, \"reserved\": \"0g\"}, \"members\": [], \"layout\": null}",
        )
        .unwrap_err();
        assert!(e.to_string().contains("expected hex bytes"), "{e}");
        assert_eq!(e.line(), 2);
        let m = RimManifest {
            header: RimHeader {
                unknown: 0,
                reserved: vec![0; 3],
            },
            members: Vec::new(),
            layout: None,
        };
        assert_eq!(
            m.start().err().unwrap().to_string(),
            "header.reserved: expected 100 bytes, found 3"
        );
    }
}
