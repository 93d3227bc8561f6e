//! Checks of an MDL ASCII model (codes documented in `docs/checks.md`).

use std::collections::{HashMap, HashSet};

use super::model::*;
use crate::finding::{Finding, Place};

/// Checks a model and returns every finding:
///
/// - `mdl-count-mismatch`: a list's header count differs from its rows;
/// - `mdl-short-row`: a `verts`/`tverts`/`faces` row with too few values;
/// - `mdl-face-index-out-of-range`: a face names a vertex or texture vertex that does not exist;
/// - `mdl-unknown-parent`: a node's parent is not a node of the model;
/// - `mdl-duplicate-node`: two geometry nodes share a name;
/// - `mdl-weight-unknown-node`: a skin weight names a node that does not exist;
/// - `mdl-anim-unknown-node`: an animation animates a node the geometry lacks;
/// - `mdl-key-beyond-length`: a key or event time is past the animation length.
pub fn validate(model: &Model) -> Vec<Finding> {
    let lines = LineIndex::new(&model.source);
    let mut out = Vec::new();
    let mut names: HashMap<String, usize> = HashMap::new();
    let geometry_nodes: Vec<&Node> = model.nodes().collect();
    for n in &geometry_nodes {
        let key = n.name.to_ascii_lowercase();
        let seen = names.entry(key).or_insert(0);
        *seen += 1;
        if *seen == 2 {
            // The game loads such models; lookups by name find one of the nodes.
            out.push(Finding::warning(
                "mdl-duplicate-node",
                lines.place(&n.head).item(format!("node {}", n.name)),
                format!("more than one geometry node is named `{}`", n.name),
            ));
        }
    }
    // Header-less walkmesh files (PWK/DWK/WOK ASCII) name the model's root as parent, which lives
    // in the companion MDL: parents are only checked inside a geometry block.
    let has_geometry = model.geometry().is_some();
    for n in &geometry_nodes {
        if let Some(parent) = n.parent()
            && has_geometry
            && !names.contains_key(&parent.to_ascii_lowercase())
        {
            let place = n
                .prop("parent")
                .map_or(Place::default(), |p| lines.place(&p.raw));
            out.push(Finding::error(
                "mdl-unknown-parent",
                place.item(format!("node {}", n.name)),
                format!("parent `{parent}` is not a node of this model"),
            ));
        }
        check_node_lists(n, &lines, &mut out);
        if let Some(w) = n.list("weights")
            && let Rows::Words(rows) = &w.rows
        {
            for (i, row) in rows.iter().enumerate() {
                for bone in row.iter().step_by(2) {
                    if !names.contains_key(&bone.to_ascii_lowercase()) {
                        out.push(Finding::warning(
                            "mdl-weight-unknown-node",
                            lines
                                .place(&w.raw)
                                .item(format!("node {} weights[{i}]", n.name)),
                            format!("weight names `{bone}`, which is not a node of this model"),
                        ));
                    }
                }
            }
        }
    }
    for a in model.animations() {
        let length = a.length();
        for (t, name) in a.events() {
            if let Some(len) = length
                && t > len + 1e-4
            {
                out.push(Finding::warning(
                    "mdl-key-beyond-length",
                    lines
                        .place(&a.head)
                        .item(format!("anim {} event {name}", a.name)),
                    format!("event `{name}` at {t} is past the animation length {len}"),
                ));
            }
        }
        for n in a.nodes() {
            if !names.is_empty() && !names.contains_key(&n.name.to_ascii_lowercase()) {
                out.push(Finding::warning(
                    "mdl-anim-unknown-node",
                    lines
                        .place(&n.head)
                        .item(format!("anim {} node {}", a.name, n.name)),
                    format!(
                        "animation `{}` animates `{}`, which is not a geometry node",
                        a.name, n.name
                    ),
                ));
            }
            for l in n.lists() {
                check_count(
                    l,
                    &format!("anim {} node {}", a.name, n.name),
                    &lines,
                    &mut out,
                );
                if let (Some(len), true) = (length, l.is_keys()) {
                    let mut reported = false;
                    for (i, row) in l.rows.iter().enumerate() {
                        if let Some(&t) = row.first()
                            && t > len + 1e-4
                            && !reported
                        {
                            reported = true;
                            out.push(Finding::warning(
                                "mdl-key-beyond-length",
                                lines.place(&l.raw).item(format!(
                                    "anim {} node {} {}[{i}]",
                                    a.name, n.name, l.key
                                )),
                                format!(
                                    "key time {t} is past the animation length {len} (first of this list)"
                                ),
                            ));
                        }
                    }
                }
            }
        }
    }
    out
}

fn check_count(l: &ListProp, item: &str, lines: &LineIndex, out: &mut Vec<Finding>) {
    // `detonatekey <time>`: one key whose time is on the header line (rollnw reads it so), not
    // a count.
    if l.key.eq_ignore_ascii_case("detonatekey") && l.rows.is_empty() && !l.endlist {
        return;
    }
    if let Some(c) = l.count
        && c != l.rows.len() as u64
    {
        let msg = format!("`{}` says {c} rows but {} follow", l.key, l.rows.len());
        let place = lines.place(&l.raw).item(format!("{item} {}", l.key));
        out.push(if l.endlist {
            Finding::warning("mdl-count-mismatch", place, msg)
        } else {
            Finding::error("mdl-count-mismatch", place, msg)
        });
    }
}

fn check_node_lists(n: &Node, lines: &LineIndex, out: &mut Vec<Finding>) {
    let item = format!("node {}", n.name);
    for l in n.lists() {
        check_count(l, &item, lines, out);
    }
    let nv = n.list("verts").map(|l| l.rows.len());
    let nt = n.list("tverts").map(|l| l.rows.len());
    for (key, min) in [("verts", 3usize), ("tverts", 2), ("faces", 3)] {
        if let Some(l) = n.list(key) {
            for (i, r) in l.rows.iter().enumerate() {
                if r.len() < min {
                    out.push(Finding::error(
                        "mdl-short-row",
                        lines.place(&l.raw).item(format!("{item} {key}[{i}]")),
                        format!("row has {} values, at least {min} expected", r.len()),
                    ));
                }
            }
        }
    }
    let Some(faces) = n.list("faces") else {
        return;
    };
    let mut bad = HashSet::new();
    for (i, r) in faces.rows.iter().enumerate() {
        for (k, &v) in r.iter().take(3).enumerate() {
            let ok = nv.is_some_and(|nv| v >= 0.0 && v.fract() == 0.0 && (v as usize) < nv);
            if !ok && bad.insert((i, k)) {
                out.push(Finding::error(
                    "mdl-face-index-out-of-range",
                    lines
                        .place(&faces.raw)
                        .face(i as u32)
                        .item(format!("{item} faces[{i}]")),
                    format!(
                        "vertex index {v} is not below the vertex count {}",
                        nv.unwrap_or(0)
                    ),
                ));
            }
        }
        if let Some(nt) = nt {
            for &v in r.iter().skip(4).take(3) {
                if !(v >= 0.0 && v.fract() == 0.0 && (v as usize) < nt) {
                    out.push(Finding::error(
                        "mdl-face-index-out-of-range",
                        lines
                            .place(&faces.raw)
                            .face(i as u32)
                            .item(format!("{item} faces[{i}]")),
                        format!("texture vertex index {v} is not below the tverts count {nt}"),
                    ));
                    break;
                }
            }
        }
    }
}

/// Byte offset to line lookup over the model's source.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(src: &[u8]) -> Self {
        LineIndex {
            starts: crate::text_lines::line_starts(src),
        }
    }

    fn place(&self, raw: &Raw) -> Place {
        match raw.range() {
            Some(r) => {
                let line = self.starts.partition_point(|&s| s <= r.start);
                Place::line_col(line as u32, 1)
            }
            None => Place::default(),
        }
    }
}
