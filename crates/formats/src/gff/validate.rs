//! Findings about a decoded GFF. Codes are documented in `docs/checks.md` ("GFF checks").
//!
//! Two groups: checks of the tree (labels, resrefs, loc strings, type ids), and checks of the
//! file's layout as read (unreferenced records, unused bytes, gaps and overlaps between the
//! tables, stray high bytes), made only while the tree still fits the bytes it was read from
//! (an edited tree will be written canonically, so its old layout no longer matters).

use std::collections::HashSet;

use super::model::{Gff, Struct, Value};
use super::raw::{self, types};
use super::read::{FieldRecord, Tables};
use crate::finding::{Finding, Place};

/// At most this many findings per code; one more finding counts the rest.
pub const MAX_PER_CODE: usize = 100;

struct Out {
    findings: Vec<Finding>,
    counts: std::collections::HashMap<&'static str, usize>,
}

impl Out {
    fn push(&mut self, f: Finding) {
        let n = self.counts.entry(f.code).or_insert(0);
        *n += 1;
        if *n <= MAX_PER_CODE {
            self.findings.push(f);
        }
    }

    fn finish(mut self) -> Vec<Finding> {
        let mut extra: Vec<(&'static str, usize)> = self
            .counts
            .iter()
            .filter(|&(_, &n)| n > MAX_PER_CODE)
            .map(|(&c, &n)| (c, n))
            .collect();
        extra.sort_unstable();
        for (code, n) in extra {
            let severity = self
                .findings
                .iter()
                .find(|f| f.code == code)
                .map(|f| f.severity);
            let msg = format!("{} more findings of this code", n - MAX_PER_CODE);
            self.findings.push(match severity {
                Some(crate::Severity::Error) => Finding::error(code, Place::default(), msg),
                _ => Finding::warning(code, Place::default(), msg),
            });
        }
        self.findings
    }
}

fn item(path: &str) -> Place {
    Place::default().item(path.to_string())
}

/// Checks a decoded (or built) GFF and returns every finding.
///
/// Errors: a resref longer than 32 bytes (no engine's resref holds it). Warnings: everything
/// else listed in `docs/checks.md`.
pub fn validate(gff: &Gff) -> Vec<Finding> {
    let mut out = Out {
        findings: Vec::new(),
        counts: Default::default(),
    };
    if !gff
        .file_type
        .iter()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b' ')
    {
        out.push(Finding::warning(
            "gff-file-type",
            Place::offset(0),
            format!(
                "file type {:?} is not four upper-case letters, digits or spaces",
                gff.file_type_str()
            ),
        ));
    }
    if gff.root.id != raw::ROOT_STRUCT_ID {
        out.push(Finding::warning(
            "gff-root-struct-id",
            item("root"),
            format!(
                "the root struct has id {:#x}; every game file uses 0xffffffff",
                gff.root.id
            ),
        ));
    }
    let resref_max = if is_nwn2(gff) { 32 } else { 16 };
    check_struct(&gff.root, "root", 0, resref_max, &mut out);
    if let Some(orig) = &gff.original {
        if super::write::fits_original_layout(gff) {
            if let Ok(t) = Tables::parse(orig) {
                check_layout(&t, &mut out);
            }
        }
    }
    out.finish()
}

/// Root fields only NWN2's files hold: the GIT's lists of placed effects, trees, lights,
/// static cameras and environment objects, and the ARE's terrain, directional light and sky
/// rings (all 8 NWN2 GITs and AREs of the corpus have them; no KotOR or NWN file does).
const NWN2_ROOT_LABELS: &[&str] = &[
    "PlacedFXList",
    "TreeList",
    "LightList",
    "StaticCameraList",
    "EnvironmentList",
    "HasTerrain",
    "HasDirLight",
    "SkyRingN",
];

/// Whether a GFF is NWN2's, told by its root fields ([`NWN2_ROOT_LABELS`]): NWN2 resrefs
/// hold 32 bytes, KotOR's and NWN's 16.
pub fn is_nwn2(gff: &Gff) -> bool {
    gff.root.fields.iter().any(|f| {
        NWN2_ROOT_LABELS
            .iter()
            .any(|l| f.label.as_bytes() == l.as_bytes())
    })
}

fn check_struct(st: &Struct, path: &str, depth: usize, resref_max: usize, out: &mut Out) {
    if depth > raw::MAX_DEPTH {
        out.push(Finding::error(
            "gff-too-deep",
            item(path),
            format!(
                "structs nest deeper than {} levels: the file cannot be written",
                raw::MAX_DEPTH
            ),
        ));
        return;
    }
    let mut seen = HashSet::new();
    for f in &st.fields {
        let here = format!("{path}.{}", f.label);
        if !seen.insert(f.label) {
            out.push(Finding::warning(
                "gff-duplicate-label",
                item(&here),
                format!(
                    "label {:?} appears more than once in this struct: the game reads one of them",
                    f.label.to_string()
                ),
            ));
        }
        if f.label.is_empty() {
            out.push(Finding::warning(
                "gff-empty-label",
                item(&here),
                "a field has an empty label",
            ));
        } else if !f
            .label
            .as_bytes()
            .iter()
            .all(|c| c.is_ascii_graphic() || *c == b' ')
        {
            out.push(Finding::warning(
                "gff-label-not-ascii",
                item(&here),
                format!(
                    "label {:?} holds bytes other than printable ASCII",
                    f.label.to_string()
                ),
            ));
        }
        match &f.value {
            Value::ResRef(r) if r.len() > 32 => out.push(Finding::error(
                "gff-resref-too-long",
                item(&here),
                format!(
                    "resref {:?} has {} bytes; no engine's resref holds more than 32",
                    r.to_str(),
                    r.len()
                ),
            )),
            Value::ResRef(r) if r.len() > resref_max => out.push(Finding::warning(
                "gff-resref-too-long",
                item(&here),
                format!(
                    "resref {:?} has {} bytes; KotOR and NWN hold 16 (only NWN2 holds 32)",
                    r.to_str(),
                    r.len()
                ),
            )),
            Value::String(s) if s.as_bytes().contains(&0) => out.push(Finding::warning(
                "gff-string-nul",
                item(&here),
                "the string holds a NUL byte: the game's C strings end there",
            )),
            Value::LocString(l) => {
                let mut ids = HashSet::new();
                for s in &l.strings {
                    if !ids.insert(s.id) {
                        out.push(Finding::warning(
                            "gff-locstring-duplicate",
                            item(&here),
                            format!(
                                "two substrings for language {} {}",
                                s.language(),
                                if s.is_feminine() {
                                    "feminine"
                                } else {
                                    "masculine"
                                }
                            ),
                        ));
                    }
                    if !matches!(s.language(), 0..=5 | 128..=131) {
                        out.push(Finding::warning(
                            "gff-locstring-language",
                            item(&here),
                            format!(
                                "substring id {} names unknown language {}",
                                s.id,
                                s.language()
                            ),
                        ));
                    }
                }
            }
            Value::StrRef(_) => out.push(Finding::warning(
                "gff-unknown-type",
                item(&here),
                "field type 18 (StrRef) exists only in Jade Empire and later engines",
            )),
            Value::Unknown { type_id, .. } => out.push(Finding::warning(
                "gff-unknown-type",
                item(&here),
                format!("field type {type_id} is not a GFF V3.2 type: no engine reads it"),
            )),
            Value::Struct(c) => check_struct(c, &here, depth + 1, resref_max, out),
            Value::List(l) => {
                for (i, c) in l.iter().enumerate() {
                    check_struct(c, &format!("{here}[{i}]"), depth + 1, resref_max, out);
                }
            }
            _ => {}
        }
    }
}

/// Sorted, merged byte ranges.
fn merge(mut r: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    r.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(r.len());
    for (s, e) in r {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// Bytes of `0..size` outside the ranges, and the first such offset.
fn uncovered(ranges: &[(u64, u64)], size: u64) -> (u64, Option<u64>) {
    let mut pos = 0;
    let mut total = 0;
    let mut first = None;
    for &(s, e) in ranges {
        if s > pos {
            total += s - pos;
            first.get_or_insert(pos);
        }
        pos = pos.max(e);
    }
    if size > pos {
        total += size - pos;
        first.get_or_insert(pos);
    }
    (total, first)
}

fn check_layout(t: &Tables<'_>, out: &mut Out) {
    check_tables(t, out);
    let walk = Walk::run(t, out);
    walk.check_unreached(&t.header, out);
    check_duplicate_labels(t, out);
    check_unused_field_data(&t.header, walk.data_ranges, out);
}

/// The tables: overlaps and bytes outside every table.
fn check_tables(t: &Tables<'_>, out: &mut Out) {
    let h = &t.header;
    let len = t.data.len() as u64;
    let mut sections: Vec<(u64, u64, &str)> = h
        .sections()
        .iter()
        .filter(|s| s.3 > 0)
        .map(|&(name, _, off, n)| (off, off + n, name))
        .collect();
    sections.sort_unstable();
    for w in sections.windows(2) {
        if w[1].0 < w[0].1 {
            out.push(Finding::warning(
                "gff-tables-overlap",
                Place::offset(w[1].0),
                format!("the {} and the {} share bytes", w[0].2, w[1].2),
            ));
        }
    }
    let mut ranges: Vec<(u64, u64)> = sections.iter().map(|&(s, e, _)| (s, e)).collect();
    ranges.push((0, raw::HEADER_SIZE as u64));
    let (gap, first) = uncovered(&merge(ranges), len);
    if gap > 0 {
        out.push(Finding::warning(
            "gff-table-gap",
            Place::offset(first.unwrap_or(0)),
            format!("{gap} bytes of the file belong to no table (gaps or trailing bytes)"),
        ));
    }
}

/// What a walk of the struct graph from the root reached, and the field data its fields read.
struct Walk {
    structs_seen: Vec<bool>,
    fields_seen: Vec<bool>,
    labels_used: Vec<bool>,
    data_ranges: Vec<(u64, u64)>,
}

impl Walk {
    /// Walks the struct graph (the reader accepted it: a tree without sharing), checking each
    /// field's stored value on the way.
    fn run(t: &Tables<'_>, out: &mut Out) -> Walk {
        let h = &t.header;
        let mut walk = Walk {
            structs_seen: vec![false; h.struct_count as usize],
            fields_seen: vec![false; h.field_count as usize],
            labels_used: vec![false; h.label_count as usize],
            data_ranges: Vec::new(),
        };
        let mut stack = vec![0u32];
        while let Some(s) = stack.pop() {
            let Some(rec) = t.struct_record(s) else {
                continue;
            };
            if std::mem::replace(&mut walk.structs_seen[s as usize], true) {
                continue;
            }
            for k in 0..rec.count {
                let Some((f, fr)) = t
                    .field_of(&rec, k)
                    .and_then(|f| Some((f, t.field_record(f)?)))
                else {
                    continue;
                };
                walk.fields_seen[f as usize] = true;
                if let Some(u) = walk.labels_used.get_mut(fr.label as usize) {
                    *u = true;
                }
                check_inline_high_bytes(&fr, out);
                walk.field(t, &fr, &mut stack, out);
            }
        }
        walk
    }

    /// One field's value: the structs it leads to go on `stack`, the field data it reads
    /// into `data_ranges`, with the size words of StrRefs and loc strings checked.
    fn field(&mut self, t: &Tables<'_>, fr: &FieldRecord, stack: &mut Vec<u32>, out: &mut Out) {
        let d = u64::from(fr.data);
        match fr.type_id {
            types::STRUCT => stack.push(fr.data),
            types::LIST => {
                if let Some(at) = t.list_at(fr.data, 4) {
                    let n = t.word(at).unwrap_or(0) as usize;
                    for i in (0..n).rev() {
                        if let Some(e) = t.word(at + 4 + 4 * i) {
                            stack.push(e);
                        }
                    }
                }
            }
            types::DWORD64 | types::INT64 | types::DOUBLE => self.data_ranges.push((d, d + 8)),
            types::ORIENTATION => self.data_ranges.push((d, d + 16)),
            types::VECTOR => self.data_ranges.push((d, d + 12)),
            types::STR_REF => {
                self.data_ranges.push((d, d + 8));
                check_strref_size(t, fr, out);
            }
            types::EXO_STRING | types::RES_REF | types::VOID | types::LOC_STRING => {
                if let Some(n) = t.value_len(fr.type_id, fr.data) {
                    self.data_ranges.push((d, d + n));
                    if fr.type_id == types::LOC_STRING {
                        check_locstring_size(t, fr, n, out);
                    }
                }
            }
            _ => {}
        }
    }

    /// Struct records, field records and labels the walk did not reach.
    fn check_unreached(&self, h: &raw::Header, out: &mut Out) {
        let unreached = |seen: &[bool]| seen.iter().filter(|&&b| !b).count();
        let first_unreached = |seen: &[bool]| seen.iter().position(|&b| !b).unwrap_or(0);
        for (code, what, seen, base, size) in [
            (
                "gff-unreferenced-struct",
                "struct records",
                &self.structs_seen,
                h.struct_offset,
                raw::STRUCT_SIZE,
            ),
            (
                "gff-unreferenced-field",
                "field records",
                &self.fields_seen,
                h.field_offset,
                raw::FIELD_SIZE,
            ),
            (
                "gff-unreferenced-label",
                "labels",
                &self.labels_used,
                h.label_offset,
                raw::LABEL_SIZE,
            ),
        ] {
            let n = unreached(seen);
            if n > 0 {
                out.push(Finding::warning(
                    code,
                    Place::offset(u64::from(base) + (first_unreached(seen) * size) as u64),
                    format!("{n} {what} are not reached from the root struct"),
                ));
            }
        }
    }
}

/// A BYTE, CHAR, WORD or SHORT stored inline with non-zero unused high bytes.
fn check_inline_high_bytes(fr: &FieldRecord, out: &mut Out) {
    let high = match fr.type_id {
        types::BYTE | types::CHAR => fr.data >> 8,
        types::WORD | types::SHORT => fr.data >> 16,
        _ => 0,
    };
    if high != 0 {
        out.push(Finding::warning(
            "gff-inline-high-bytes",
            Place::offset(fr.at as u64 + 8),
            format!(
                "a {} field stores {:#010x}: its unused high bytes are not zero",
                raw::type_name(fr.type_id),
                fr.data
            ),
        ));
    }
}

/// A StrRef's size word, which should be 4.
fn check_strref_size(t: &Tables<'_>, fr: &FieldRecord, out: &mut Out) {
    if let Some(at) = t.field_data_at(fr.data, 8) {
        if t.word(at) != Some(4) {
            out.push(Finding::warning(
                "gff-strref-size",
                Place::offset(at as u64),
                format!("StrRef size word is {:?}, not 4", t.word(at)),
            ));
        }
    }
}

/// A loc string's declared size against the `n` bytes its value takes (size word included).
fn check_locstring_size(t: &Tables<'_>, fr: &FieldRecord, n: u64, out: &mut Out) {
    let at = t.header.field_data_offset as usize + fr.data as usize;
    let declared = t.word(at).map(u64::from);
    if declared != Some(n - 4) {
        out.push(Finding::warning(
            "gff-locstring-size",
            Place::offset(at as u64),
            format!(
                "CExoLocString declares {} bytes but its substrings take {}",
                declared.unwrap_or(0),
                n - 4
            ),
        ));
    }
}

/// Labels stored more than once.
fn check_duplicate_labels(t: &Tables<'_>, out: &mut Out) {
    let mut labels = HashSet::new();
    for l in 0..t.header.label_count {
        if let Some(label) = t.label(l) {
            if !labels.insert(label) {
                out.push(Finding::warning(
                    "gff-duplicate-stored-label",
                    Place::offset(t.label_at(l).unwrap_or(0) as u64),
                    format!("label {:?} is stored more than once", label.to_string()),
                ));
            }
        }
    }
}

/// Field data bytes that no field reads.
fn check_unused_field_data(h: &raw::Header, data_ranges: Vec<(u64, u64)>, out: &mut Out) {
    let (unused, first) = uncovered(&merge(data_ranges), u64::from(h.field_data_size));
    if unused > 0 {
        out.push(Finding::warning(
            "gff-unused-field-data",
            Place::offset(u64::from(h.field_data_offset) + first.unwrap_or(0)),
            format!("{unused} bytes of the field data are read by no field"),
        ));
    }
}
