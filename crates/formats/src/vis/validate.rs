//! File-level checks of room visibility. Codes are documented in `docs/checks.md`.

use std::collections::HashMap;

use super::model::Vis;
use crate::finding::{Finding, Place};

/// The longest resref the engine resolves.
const MAX_RESREF: usize = 16;

/// Checks room visibility: the warnings found while reading (count mismatches, missing counts,
/// layout irregularities) followed by the checks of its data:
///
/// - `vis-duplicate-room` (warning): a second parent entry for the same room;
/// - `vis-duplicate-child` (warning): a room listed twice under one entry;
/// - `vis-name-case` (warning): one room spelled with different letter case;
/// - `vis-name-too-long` (warning): a name over 16 characters (no LYT room can match it);
/// - `vis-name-invalid` (warning): a name with control or non-ASCII characters (Windows-1252
///   names read and write back unchanged; no LYT room is likely to match them).
///
/// One-way visibility and rooms that do not list themselves are normal and not reported.
pub fn validate(vis: &Vis) -> Vec<Finding> {
    let mut out: Vec<Finding> = vis.read_findings().to_vec();
    let place = |line: Option<u32>, room: &str, item: String| {
        Place {
            line,
            column: line.map(|_| 1),
            room: Some(room.to_string()),
            ..Place::default()
        }
        .item(item)
    };
    let mut parents: HashMap<String, usize> = HashMap::new();
    let mut spellings: HashMap<String, String> = HashMap::new();
    for (i, r) in vis.rooms.iter().enumerate() {
        let key = r.name.to_ascii_lowercase();
        if let Some(&first) = parents.get(&key) {
            out.push(Finding::warning(
                "vis-duplicate-room",
                place(r.line(), &r.name, format!("rooms[{i}]")),
                format!(
                    "a second entry for `{}` (first is entry {first}); the entries are merged",
                    r.name
                ),
            ));
        } else {
            parents.insert(key, i);
        }
        let lines = r.child_lines();
        let mut seen: HashMap<String, usize> = HashMap::new();
        let names = std::iter::once((None, r.line(), &r.name)).chain(
            r.visible
                .iter()
                .enumerate()
                .map(|(k, v)| (Some(k), lines[k], v)),
        );
        for (k, line, name) in names {
            let item = match k {
                None => format!("rooms[{i}]"),
                Some(k) => format!("rooms[{i}].visible[{k}]"),
            };
            let lower = name.to_ascii_lowercase();
            if let Some(k) = k {
                if let Some(&first) = seen.get(&lower) {
                    out.push(Finding::warning(
                        "vis-duplicate-child",
                        place(line, &r.name, item.clone()),
                        format!(
                            "`{name}` is listed twice under `{}` (first as child {first})",
                            r.name
                        ),
                    ));
                } else {
                    seen.insert(lower.clone(), k);
                }
            }
            match spellings.get(&lower) {
                Some(s) if s != name => out.push(Finding::warning(
                    "vis-name-case",
                    place(line, &r.name, item.clone()),
                    format!("`{name}` is spelled `{s}` elsewhere in the file"),
                )),
                Some(_) => {}
                None => {
                    spellings.insert(lower, name.clone());
                }
            }
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_graphic()) {
                out.push(Finding::warning(
                    "vis-name-invalid",
                    place(line, &r.name, item),
                    format!("room name {name:?} must be printable ASCII without whitespace"),
                ));
            } else if name.len() > MAX_RESREF {
                out.push(Finding::warning(
                    "vis-name-too-long",
                    place(line, &r.name, item),
                    format!(
                        "room name `{name}` has {} characters; resrefs have at most {MAX_RESREF}",
                        name.len()
                    ),
                ));
            }
        }
    }
    out
}
