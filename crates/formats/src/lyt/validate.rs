//! File-level checks of a layout. Codes are documented in `docs/checks.md`.

use std::collections::HashMap;

use super::model::{Lyt, PLACEHOLDER_ROOM, Placement};
use crate::finding::{Finding, Place};

/// The longest resref the engine resolves.
pub const MAX_RESREF: usize = 16;

/// Checks a layout: the warnings found while reading it (syntax irregularities, count
/// mismatches) followed by the checks of its data:
///
/// - `lyt-duplicate-room` (warning): two rooms with the same name (case-insensitive); the
///   placeholder `****` is exempt;
/// - `lyt-name-too-long` (error): a room, track or obstacle model name over 16 characters;
/// - `lyt-name-invalid` (warning): an empty name, or one with whitespace, control or non-ASCII
///   characters (Windows-1252 names read and write back unchanged; no resource is likely to
///   match them);
/// - `lyt-doorhook-unknown-room` (warning): a door hook naming a room that is not in the layout;
/// - `lyt-doorhook-quaternion` (warning): a door hook orientation that is not a unit quaternion;
/// - `lyt-no-rooms` (warning): the layout has no room.
pub fn validate(lyt: &Lyt) -> Vec<Finding> {
    let mut out: Vec<Finding> = lyt.read_findings().to_vec();
    let place = |line: Option<u32>, room: &str| {
        let mut p = Place {
            line,
            column: line.map(|_| 1),
            ..Place::default()
        };
        if !room.is_empty() {
            p.room = Some(room.to_string());
        }
        p
    };
    if lyt.rooms.is_empty() {
        out.push(Finding::warning(
            "lyt-no-rooms",
            Place::default(),
            "the layout has no room",
        ));
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (i, r) in lyt.rooms.iter().enumerate() {
        if r.is_placeholder() {
            continue;
        }
        let key = r.name.to_ascii_lowercase();
        if let Some(&first) = seen.get(&key) {
            out.push(Finding::warning(
                "lyt-duplicate-room",
                place(r.line(), &r.name).item(format!("rooms[{i}]")),
                format!(
                    "room {i} `{}` repeats room {first} `{}`: transitions and VIS can only name one of them",
                    r.name, lyt.rooms[first].name
                ),
            ));
        } else {
            seen.insert(key, i);
        }
    }
    let lists: [(&str, &[Placement]); 3] = [
        ("rooms", &lyt.rooms),
        ("tracks", &lyt.tracks),
        ("obstacles", &lyt.obstacles),
    ];
    for (what, list) in lists {
        for (i, r) in list.iter().enumerate() {
            check_name(
                &mut out,
                &r.name,
                place(r.line(), &r.name).item(format!("{what}[{i}]")),
            );
        }
    }
    for (i, d) in lyt.doorhooks.iter().enumerate() {
        let p = place(d.line(), &d.room).item(format!("doorhooks[{i}]"));
        if d.room.is_empty()
            || d.door.is_empty()
            || !d
                .room
                .chars()
                .chain(d.door.chars())
                .all(|c| c.is_ascii_graphic())
        {
            out.push(Finding::warning(
                "lyt-name-invalid",
                p.clone(),
                format!("door hook room `{}` / door `{}`: names must be non-empty printable ASCII without whitespace", d.room, d.door),
            ));
        }
        if d.room != PLACEHOLDER_ROOM && lyt.room_index(&d.room).is_none() {
            out.push(Finding::warning(
                "lyt-doorhook-unknown-room",
                p.clone(),
                format!(
                    "door hook `{}` belongs to room `{}`, which is not in the layout",
                    d.door, d.room
                ),
            ));
        }
        let norm = d.orientation.iter().map(|v| v * v).sum::<f32>().sqrt();
        if (norm - 1.0).abs() > 0.01 {
            out.push(Finding::warning(
                "lyt-doorhook-quaternion",
                p,
                format!(
                    "door hook `{}` orientation {:?} has length {norm:.4}, not 1",
                    d.door, d.orientation
                ),
            ));
        }
    }
    out
}

fn check_name(out: &mut Vec<Finding>, name: &str, place: Place) {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_graphic()) {
        out.push(Finding::warning(
            "lyt-name-invalid",
            place,
            format!("name `{name}` must be non-empty printable ASCII without whitespace"),
        ));
    } else if name.len() > MAX_RESREF && name != PLACEHOLDER_ROOM {
        out.push(Finding::error(
            "lyt-name-too-long",
            place,
            format!(
                "name `{name}` has {} characters; resrefs have at most {MAX_RESREF}",
                name.len()
            ),
        ));
    }
}
