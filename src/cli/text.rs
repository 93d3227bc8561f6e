//! The human text of each report: rendered here, by the binary, from the same typed report
//! whose serialisation is the `--json` output.

use std::fmt::Write as _;

use areakit_app::demo::{self, DemoReport};
use areakit_app::formats::Severity;
use areakit_app::navigation::PathOutcome;
use areakit_app::report::Report;
use areakit_app::resources::Listing;
use serde_json::Value;

use super::term::field;

/// `check` as text: one line per finding (`path:location: severity[code]: message`) and a
/// summary line.
pub fn check_text(report: &Report) -> String {
    let mut s = String::new();
    for f in &report.findings {
        let place = field(&f.finding.place.to_string()).into_owned();
        let sep = if place.is_empty() {
            String::new()
        } else {
            format!(":{place}")
        };
        s.push_str(&format!(
            "{}{sep}: {}[{}]: {}\n",
            field(&f.path.display().to_string()),
            f.finding.severity,
            f.finding.code,
            field(&f.finding.message)
        ));
    }
    let infos = report.count(Severity::Info);
    s.push_str(&format!(
        "{} files checked: {} errors, {} warnings{}\n",
        report.files_checked,
        report.count(Severity::Error),
        report.count(Severity::Warning),
        if infos > 0 {
            format!(", {infos} infos")
        } else {
            String::new()
        }
    ));
    s
}

/// `demo` as text.
pub fn demo_text(report: &DemoReport) -> String {
    let mut s = format!(
        "areakit demo: a {}-room area written to {}\n",
        report.rooms.len(),
        report.out.display()
    );
    for r in &report.rooms {
        s.push_str(&format!(
            "  {:<8} {:>4} faces ({} walkable), {} edges in {} loops, {} transitions, round trip {}\n",
            r.name,
            r.faces,
            r.walkable_faces,
            r.edges,
            r.perimeters,
            r.transitions,
            if r.round_trip { "ok" } else { "FAILED" }
        ));
    }
    s.push_str(&format!(
        "  {}.lyt and {}.vis round trip {}\n",
        demo::AREA,
        demo::AREA,
        if report.layout_round_trip {
            "ok"
        } else {
            "FAILED"
        }
    ));
    for (x, y, room) in &report.queries {
        s.push_str(&format!(
            "  query at ({x}, {y}): room {}\n",
            room.as_deref().unwrap_or("none (FAILED)")
        ));
    }
    match &report.path {
        Some(p) if p.found() => s.push_str(&format!(
            "  path from ({}, {}) to ({}, {}): {:.2} m through {} ({} turning points, drawn on the map)\n",
            demo::PATH_ENDS[0][0],
            demo::PATH_ENDS[0][1],
            demo::PATH_ENDS[1][0],
            demo::PATH_ENDS[1][1],
            p.length(),
            p.rooms.join(" -> "),
            p.path.as_ref().map_or(0, |q| q.points.len())
        )),
        Some(p) => s.push_str(&format!(
            "  path: FAILED ({})\n",
            p.reason.as_deref().unwrap_or("not found")
        )),
        None => s.push_str("  path: not computed (FAILED)\n"),
    }
    s.push_str(&format!(
        "  check: {} files, {} errors, {} warnings\n",
        report.check.files_checked,
        report.check.count(Severity::Error),
        report.check.count(Severity::Warning)
    ));
    for f in &report.files {
        s.push_str(&format!("  wrote {}\n", f.display()));
    }
    s.push_str(if report.ok() {
        "all checks passed\n"
    } else {
        "some checks FAILED\n"
    });
    s
}

/// `info` (and `query`, `bake`) as text: one `key: value` line per field of the JSON object,
/// nested maps indented.
pub fn info_text(v: &Value) -> String {
    let mut out = String::new();
    if let Value::Object(map) = v {
        for (k, val) in map {
            write_field(&mut out, k, val, 0);
        }
    }
    out
}

fn write_field(out: &mut String, key: &str, v: &Value, depth: usize) {
    let pad = "  ".repeat(depth);
    match v {
        Value::Object(map) if !map.is_empty() && !is_vector_pair(v) => {
            let _ = writeln!(out, "{pad}{}:", field(key));
            for (k, val) in map {
                write_field(out, k, val, depth + 1);
            }
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, x)| format!("{} {}", field(k), compact(x)))
                .collect();
            let _ = writeln!(out, "{pad}{}: {}", field(key), parts.join(", "));
        }
        Value::Array(items) if items.iter().all(|i| i.is_object()) && !items.is_empty() => {
            let _ = writeln!(out, "{pad}{}:", field(key));
            for (i, item) in items.iter().enumerate() {
                write_field(out, &format!("[{i}]"), item, depth + 1);
            }
        }
        other => {
            let _ = writeln!(out, "{pad}{}: {}", field(key), compact(other));
        }
    }
}

fn is_vector_pair(v: &Value) -> bool {
    matches!(v, Value::Object(m) if m.contains_key("min") && m.contains_key("max"))
}

fn compact(v: &Value) -> String {
    match v {
        Value::String(s) => field(s).into_owned(),
        Value::Number(n) => n.to_string(),
        Value::Array(a) => format!("[{}]", a.iter().map(compact).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}

/// The text report of one path.
pub fn path_text(o: &PathOutcome) -> String {
    let mut s = String::new();
    match &o.path {
        Some(p) => {
            s.push_str(&format!(
                "found: {:.3} m ({:.3} m along the ground), {} point(s), mode {}\n",
                p.length_plan,
                p.length_3d,
                p.points.len(),
                o.mode.name()
            ));
            if !o.rooms.is_empty() {
                s.push_str(&format!("rooms: {}\n", field(&o.rooms.join(" -> "))));
            }
            for q in &p.points {
                s.push_str(&format!("  {:.3}, {:.3}, {:.3}\n", q.x, q.y, q.z));
            }
            s.push_str(&format!("faces visited: {}\n", o.faces_visited));
        }
        None => {
            s.push_str(&format!(
                "not found: {}\n",
                field(o.reason.as_deref().unwrap_or("no path"))
            ));
        }
    }
    // Ends put on the ground: say so, unless a note already tells why they moved.
    if let Some(ends) = &o.ends {
        for (what, l) in [("start", &ends[0]), ("goal", &ends[1])] {
            if l.snapped > 0.0 && !o.notes.iter().any(|n| n.starts_with(what)) {
                s.push_str(&format!(
                    "snapped: {what} moved {:.3} m to the nearest walkable point {:.3}, {:.3}, {:.3}\n",
                    l.snapped, l.point.x, l.point.y, l.point.z
                ));
            }
        }
    }
    for n in &o.notes {
        s.push_str(&format!("note: {}\n", field(n)));
    }
    s
}

/// `ls` as text: `name.ext  size  origin`, then `  shadows origin` per hidden copy; names
/// and origins from the files escaped ([`field`]).
pub fn ls_text(listing: &[Listing]) -> String {
    let names: Vec<String> = listing
        .iter()
        .map(|l| field(&l.file_name()).into_owned())
        .collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let mut s = String::new();
    for (l, name) in listing.iter().zip(&names) {
        s.push_str(&format!(
            "{name:<width$}  {:>10}  {}\n",
            l.size,
            field(&l.origin)
        ));
        for o in &l.shadows {
            s.push_str(&format!(
                "{:<width$}  {:>10}  shadows {}\n",
                "",
                "",
                field(o)
            ));
        }
    }
    s.push_str(&format!("{} resources\n", listing.len()));
    s
}
