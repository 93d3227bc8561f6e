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

/// Numbers that are an `f32` of the file (a report's `f32` field becomes an `f64` in a JSON
/// value: `1.1399999856948853`) written as the shortest text that reads back to that `f32`
/// (`1.14`); numbers that are no `f32` are left as they are.
pub fn tidy_floats(v: &mut Value) {
    match v {
        Value::Number(n) => {
            if let Some(x) = n.as_f64().filter(|_| n.is_f64())
                && x.is_finite()
                && f64::from(x as f32) == x
                && let Ok(short) = (x as f32).to_string().parse::<f64>()
                && let Some(m) = serde_json::Number::from_f64(short)
            {
                *n = m;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(tidy_floats),
        Value::Object(map) => map.values_mut().for_each(tidy_floats),
        _ => {}
    }
}

/// `info` (and `query`, `bake`) as text: one `key: value` line per field of the JSON object,
/// nested maps indented, numbers as [`tidy_floats`] writes them.
pub fn info_text(v: &Value) -> String {
    let mut v = v.clone();
    tidy_floats(&mut v);
    let mut out = String::new();
    if let Value::Object(map) = &v {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_numbers_print_as_their_shortest_text_and_read_back() {
        let mut v = serde_json::json!({
            "scale": 1.14f32, "alpha": 0.988_235_3_f32, "x": [86.882_32_f32, -0.0f32, 3.0f32],
            "f64": 0.1f64, "int": 7, "big": 16_777_217u32,
        });
        tidy_floats(&mut v);
        assert_eq!(v["scale"].to_string(), "1.14");
        assert_eq!(v["alpha"].to_string(), "0.9882353");
        assert_eq!(v["x"][0].to_string(), "86.88232");
        assert_eq!(v["f64"].to_string(), "0.1", "an f64 that is no f32 stays");
        assert_eq!(v["int"], 7);
        assert_eq!(v["big"], 16_777_217u32, "integers are untouched");
        // Every f32 reads back to itself from its text.
        let mut seed: u32 = 0x1234_5678;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let f = f32::from_bits(seed);
            if !f.is_finite() {
                continue;
            }
            let mut n = serde_json::json!(f);
            tidy_floats(&mut n);
            let back: f64 = n.to_string().parse().unwrap();
            assert_eq!((back as f32).to_bits(), f.to_bits(), "{f:e} printed {n}");
        }
    }
}
