//! Checks of a decoded ERF-family archive. Codes are documented in `docs/checks.md`.

use std::collections::HashMap;

use super::model::Erf;
use super::raw;
use crate::finding::{Finding, Place};
use crate::restype::{ResRef, ResType};

/// One capsule member as the shared checks see it.
pub(crate) struct Member<'a> {
    pub resref: ResRef,
    pub restype: ResType,
    pub id: u32,
    pub data: &'a [u8],
    /// Data range in the file read (`None` for a new archive).
    pub range: Option<(u64, u64)>,
    /// Offset of the member's table entry in the file read.
    pub entry_offset: Option<u64>,
}

/// The codes of one capsule format.
pub(crate) struct Codes {
    pub duplicate: &'static str,
    pub unknown_type: &'static str,
    pub resref: &'static str,
    pub resource_id: &'static str,
    pub data_overlap: &'static str,
    pub data_overlaps_table: &'static str,
    pub content_type: &'static str,
}

fn place(m: &Member<'_>, i: usize) -> Place {
    Place {
        offset: m.entry_offset,
        ..Place::default()
    }
    .item(format!(
        "resources[{i}] ({})",
        m.resref.file_name(m.restype)
    ))
}

/// The checks shared by ERF and RIM (all warnings: the engine loads such archives).
pub(crate) fn check_members(
    members: &[Member<'_>],
    tables: &[(&str, u64, u64)],
    codes: &Codes,
    out: &mut Vec<Finding>,
) {
    let mut first: HashMap<([u8; 16], ResType), usize> = HashMap::with_capacity(members.len());
    for (i, m) in members.iter().enumerate() {
        let name = m.resref.file_name(m.restype);
        if let Some(&k) = first.get(&(m.resref.lookup_key(), m.restype)) {
            out.push(Finding::warning(
                codes.duplicate,
                place(m, i),
                format!(
                    "a second member named {name} (the first is entry {k}): only one of them can be loaded"
                ),
            ));
        } else {
            first.insert((m.resref.lookup_key(), m.restype), i);
        }
        if !m.restype.is_known() {
            out.push(Finding::warning(
                codes.unknown_type,
                place(m, i),
                format!("type id {} is not a known resource type", m.restype.0),
            ));
        }
        let bytes = m.resref.name_bytes();
        let problem = if bytes.is_empty() {
            Some("the name is empty".to_string())
        } else if !bytes.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
            Some(format!(
                "the name {:?} holds bytes that are not printable ASCII",
                m.resref.name()
            ))
        } else if m.resref.has_bytes_after_name() {
            Some(format!(
                "non-zero bytes after the name's terminator: {:02x?}",
                m.resref.as_bytes()
            ))
        } else {
            None
        };
        if let Some(p) = problem {
            out.push(Finding::warning(codes.resref, place(m, i), p));
        }
        if let Some(p) = crate::names::file_name_problem(&name) {
            out.push(Finding::warning(
                "capsule-unsafe-name",
                place(m, i),
                format!(
                    "the name \"{}\" is no safe file name ({p}): extract writes it under another name",
                    name.escape_debug()
                ),
            ));
        }
        if m.id as usize != i {
            out.push(Finding::warning(
                codes.resource_id,
                place(m, i),
                format!("resource id {} differs from the entry's index {i}", m.id),
            ));
        }
        if let Some(tag) = gff_tag_type(m.data) {
            if m.restype.is_known() && tag != m.restype {
                out.push(Finding::warning(
                    codes.content_type,
                    place(m, i),
                    format!(
                        "the data is a {} GFF (\"{}\") but the type says {}",
                        tag.extension().unwrap_or_default(),
                        String::from_utf8_lossy(&m.data[..4]),
                        m.restype
                    ),
                ));
            }
        }
    }

    // Data ranges against one another: a sweep by start, each range compared with the one
    // reaching furthest so far (one finding per overlapping range, not per pair).
    let mut ranges: Vec<(u64, u64, usize)> = members
        .iter()
        .enumerate()
        .filter_map(|(i, m)| m.range.filter(|r| r.1 > r.0).map(|r| (r.0, r.1, i)))
        .collect();
    ranges.sort_unstable();
    let mut furthest: Option<(u64, usize)> = None;
    for &(start, end, i) in &ranges {
        if let Some((fend, k)) = furthest {
            if start < fend {
                out.push(Finding::warning(
                    codes.data_overlap,
                    place(&members[i], i),
                    format!(
                        "the data ({start:#x}..{end:#x}) shares bytes with entry {k}'s ({})",
                        members[k].resref.file_name(members[k].restype)
                    ),
                ));
            }
        }
        if furthest.is_none_or(|(fend, _)| end > fend) {
            furthest = Some((end, i));
        }
    }
    for &(start, end, i) in &ranges {
        if let Some(t) = tables
            .iter()
            .find(|t| t.2 > t.1 && start < t.2 && t.1 < end)
        {
            out.push(Finding::warning(
                codes.data_overlaps_table,
                place(&members[i], i),
                format!(
                    "the data ({start:#x}..{end:#x}) overlaps the {} ({:#x}..{:#x})",
                    t.0, t.1, t.2
                ),
            ));
        }
    }
}

/// The type a GFF's first four bytes name (`"UTC V3.2"` → UTC), when they name a known type
/// other than the generic `GFF `.
fn gff_tag_type(data: &[u8]) -> Option<ResType> {
    let head = data.get(..8)?;
    if !matches!(&head[4..8], b"V3.2" | b"V3.3" | b"V4.0" | b"V4.1") {
        return None;
    }
    let tag = &head[..4];
    if !tag
        .iter()
        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b' ')
    {
        return None;
    }
    let ext = std::str::from_utf8(tag).ok()?.trim_end();
    if ext.eq_ignore_ascii_case("gff") || ext.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    ResType::from_extension(ext)
}

/// Checks an archive and returns every finding (all warnings: the engine loads such
/// archives; a file it would misread does not decode):
///
/// - `erf-duplicate-resource`: two members with the same name (ASCII case-insensitive) and
///   type;
/// - `erf-unknown-type`: a type id not in the [type table](crate::restype::TYPES);
/// - `erf-resref-invalid`: an empty name, a name with bytes that are not printable ASCII, or
///   non-zero bytes after the name's terminator;
/// - `erf-resource-id`: a resource id other than the entry's index;
/// - `erf-content-type`: a member whose data is a GFF of another known type;
/// - `erf-data-overlap`: a member's data shares bytes with another's;
/// - `erf-data-overlaps-table`: a member's data overlaps the header or a table;
/// - `erf-strings-size`: the header's localized string size is not the size of the strings.
pub fn validate(erf: &Erf) -> Vec<Finding> {
    let mut out = Vec::new();
    let layout = erf
        .layout
        .as_ref()
        .filter(|l| l.ranges.len() == erf.resources.len());
    let members: Vec<Member<'_>> = erf
        .resources
        .iter()
        .enumerate()
        .map(|(i, r)| Member {
            resref: r.resref,
            restype: r.restype,
            id: r.id,
            data: &r.data,
            range: layout.map(|l| {
                let d = l.ranges[i];
                (u64::from(d.offset), u64::from(d.offset) + u64::from(d.size))
            }),
            entry_offset: layout.map(|l| u64::from(l.keys_offset) + (i * raw::KEY_SIZE) as u64),
        })
        .collect();
    let mut tables = vec![("header", 0, raw::HEADER_SIZE as u64)];
    if let Some(l) = layout {
        let n = erf.resources.len() as u64;
        let strings: u64 = erf
            .strings
            .iter()
            .map(|s| (raw::STRING_HEADER_SIZE + s.text.len()) as u64)
            .sum();
        let (so, ko, ro) = (
            u64::from(l.strings_offset),
            u64::from(l.keys_offset),
            u64::from(l.resources_offset),
        );
        tables.push(("localized strings", so, so + strings));
        tables.push(("key list", ko, ko + n * raw::KEY_SIZE as u64));
        tables.push(("resource list", ro, ro + n * raw::RESOURCE_SIZE as u64));
        if strings != u64::from(l.strings_size) {
            out.push(Finding::warning(
                "erf-strings-size",
                Place::offset(0x0C),
                format!(
                    "the header says the localized strings take {} bytes, they take {strings}",
                    l.strings_size
                ),
            ));
        }
    }
    check_members(&members, &tables, &CODES, &mut out);
    out
}

const CODES: Codes = Codes {
    duplicate: "erf-duplicate-resource",
    unknown_type: "erf-unknown-type",
    resref: "erf-resref-invalid",
    resource_id: "erf-resource-id",
    data_overlap: "erf-data-overlap",
    data_overlaps_table: "erf-data-overlaps-table",
    content_type: "erf-content-type",
};
