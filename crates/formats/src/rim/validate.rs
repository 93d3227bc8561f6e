//! Checks of a decoded RIM. Codes are documented in `docs/checks.md`.

use super::model::Rim;
use super::raw;
use crate::erf::{Codes, Member, check_members};
use crate::finding::{Finding, Place};

/// Checks a RIM and returns every finding (all warnings: the engine loads such archives):
///
/// - `rim-duplicate-resource`: two members with the same name (ASCII case-insensitive) and
///   type;
/// - `rim-unknown-type`: a type id not in the [type table](crate::restype::TYPES);
/// - `rim-type-high`: non-zero bytes in the high half of a stored type;
/// - `rim-resref-invalid`: an empty name, a name with bytes that are not printable ASCII, or
///   non-zero bytes after the name's terminator;
/// - `rim-resource-id`: a resource id other than the entry's index;
/// - `rim-content-type`: a member whose data is a GFF of another known type;
/// - `rim-data-overlap`: a member's data shares bytes with another's;
/// - `rim-data-overlaps-table`: a member's data overlaps the header or the key table.
pub fn validate(rim: &Rim) -> Vec<Finding> {
    let mut out = Vec::new();
    let layout = rim
        .layout
        .as_ref()
        .filter(|l| l.ranges.len() == rim.resources.len());
    let members: Vec<Member<'_>> = rim
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
            entry_offset: layout.map(|l| u64::from(l.keys_offset) + (i * raw::ENTRY_SIZE) as u64),
        })
        .collect();
    for (i, r) in rim.resources.iter().enumerate() {
        if r.type_high != 0 {
            out.push(Finding::warning(
                "rim-type-high",
                Place {
                    offset: members[i].entry_offset.map(|o| o + 18),
                    ..Place::default()
                }
                .item(format!("resources[{i}] ({})", r.file_name())),
                format!(
                    "the stored type is {:#x}: its high half ({:#x}) is not 0",
                    (u32::from(r.type_high) << 16) | u32::from(r.restype.0),
                    r.type_high
                ),
            ));
        }
    }
    let mut tables = vec![("header", 0, raw::HEADER_SIZE as u64)];
    if let Some(l) = layout {
        let ko = u64::from(l.keys_offset);
        tables.push((
            "key table",
            ko,
            ko + (rim.resources.len() * raw::ENTRY_SIZE) as u64,
        ));
    }
    check_members(&members, &tables, &CODES, &mut out);
    out
}

const CODES: Codes = Codes {
    duplicate: "rim-duplicate-resource",
    unknown_type: "rim-unknown-type",
    resref: "rim-resref-invalid",
    resource_id: "rim-resource-id",
    data_overlap: "rim-data-overlap",
    data_overlaps_table: "rim-data-overlaps-table",
    content_type: "rim-content-type",
};
