//! Checks of a BIF. Codes are documented in `docs/checks.md`.

use super::model::Bif;
use super::raw;
use super::read::BifIndex;
use crate::finding::{Finding, Place};
use crate::restype::ResType;

struct Entry {
    id: u32,
    restype: ResType,
    type_high: u16,
    range: Option<(u64, u64)>,
}

/// Checks a BIF and returns every finding (all warnings):
///
/// - `bif-resource-id`: a stored id whose low 20 bits are not the entry's index (the KEY
///   finds resources by index);
/// - `bif-unknown-type`: a type id not in the [type table](crate::restype::TYPES);
/// - `bif-type-high`: non-zero bytes in the high half of a stored type;
/// - `bif-fixed-resources`: fixed resources (the Aurora engines never read them);
/// - `bif-data-overlap`: a resource's data shares bytes with another's;
/// - `bif-data-overlaps-table`: a resource's data overlaps the header or the tables.
pub fn validate(bif: &Bif) -> Vec<Finding> {
    let layout = bif
        .layout
        .as_ref()
        .filter(|l| l.ranges.len() == bif.resources.len());
    let entries: Vec<Entry> = bif
        .resources
        .iter()
        .enumerate()
        .map(|(i, r)| Entry {
            id: r.id.0,
            restype: r.restype,
            type_high: r.type_high,
            range: layout.map(|l| {
                let d = l.ranges[i];
                (u64::from(d.offset), u64::from(d.offset) + u64::from(d.size))
            }),
        })
        .collect();
    check(
        &entries,
        bif.fixed.len(),
        layout.map(|l| u64::from(l.var_table_offset)),
    )
}

/// [`validate`] on a table-only [`BifIndex`].
pub fn validate_index(index: &BifIndex) -> Vec<Finding> {
    let entries: Vec<Entry> = index
        .resources
        .iter()
        .map(|e| Entry {
            id: e.id.0,
            restype: e.restype,
            type_high: e.type_high,
            range: Some((u64::from(e.offset), u64::from(e.offset) + u64::from(e.size))),
        })
        .collect();
    check(
        &entries,
        index.fixed.len(),
        Some(u64::from(index.var_table_offset)),
    )
}

fn check(entries: &[Entry], fixed: usize, table_offset: Option<u64>) -> Vec<Finding> {
    let mut out = Vec::new();
    let place = |i: usize| {
        Place {
            offset: table_offset.map(|o| o + (i * raw::VAR_ENTRY_SIZE) as u64),
            ..Place::default()
        }
        .item(format!("resources[{i}]"))
    };
    for (i, e) in entries.iter().enumerate() {
        if e.id & 0xF_FFFF != i as u32 {
            out.push(Finding::warning(
                "bif-resource-id",
                place(i),
                format!(
                    "stored id {:#x} names resource index {}, but the entry is number {i}",
                    e.id,
                    e.id & 0xF_FFFF
                ),
            ));
        }
        if !e.restype.is_known() {
            out.push(Finding::warning(
                "bif-unknown-type",
                place(i),
                format!("type id {} is not a known resource type", e.restype.0),
            ));
        }
        if e.type_high != 0 {
            out.push(Finding::warning(
                "bif-type-high",
                place(i),
                format!(
                    "the high half of the stored type is {:#x}, not 0",
                    e.type_high
                ),
            ));
        }
    }
    if fixed > 0 {
        out.push(Finding::warning(
            "bif-fixed-resources",
            Place::offset(12),
            format!("{fixed} fixed resources: the Aurora engines never read them"),
        ));
    }
    let mut ranges: Vec<(u64, u64, usize)> = entries
        .iter()
        .enumerate()
        .filter_map(|(i, e)| e.range.filter(|r| r.1 > r.0).map(|r| (r.0, r.1, i)))
        .collect();
    ranges.sort_unstable();
    let mut furthest: Option<(u64, usize)> = None;
    for &(start, end, i) in &ranges {
        if let Some((fend, k)) = furthest {
            if start < fend {
                out.push(Finding::warning(
                    "bif-data-overlap",
                    place(i),
                    format!("the data ({start:#x}..{end:#x}) shares bytes with resource {k}'s"),
                ));
            }
        }
        if furthest.is_none_or(|(fend, _)| end > fend) {
            furthest = Some((end, i));
        }
    }
    if let Some(off) = table_offset {
        let tables = [
            ("header", 0, raw::HEADER_SIZE as u64),
            (
                "resource tables",
                off,
                off + (entries.len() * raw::VAR_ENTRY_SIZE + fixed * raw::FIXED_ENTRY_SIZE) as u64,
            ),
        ];
        for &(start, end, i) in &ranges {
            if let Some(t) = tables
                .iter()
                .find(|t| t.2 > t.1 && start < t.2 && t.1 < end)
            {
                out.push(Finding::warning(
                    "bif-data-overlaps-table",
                    place(i),
                    format!(
                        "the data ({start:#x}..{end:#x}) overlaps the {} ({:#x}..{:#x})",
                        t.0, t.1, t.2
                    ),
                ));
            }
        }
    }
    out
}
