//! Encoding a [`Lyt`] to text.

use super::model::{DoorHook, FileDependency, Layout, Lyt, Placement, Section, Skeleton};
use crate::error::EncodeError;
use crate::text_lines::{Eol, LineWriter, encode, format_f32};

/// Indentation the tools use before a count line.
const COUNT_INDENT: &str = "   ";
/// Indentation the tools use before a record line.
const RECORD_INDENT: &str = "      ";

/// Encodes a layout.
///
/// A model read from a file is written back line for line: each record whose values are
/// unchanged keeps its original text, its line terminator and its place among blank lines and
/// comments; edited records are written in canonical form; added records follow the last record
/// of their section; a count line is rewritten only when the number of records under it changed.
/// A model built in code is written as the tools write it (`#MAXLAYOUT ASCII` header, three
/// spaces before count lines, six before records, LF).
///
/// Errors: a name that is empty, contains whitespace or a character above U+00FF.
pub fn write(lyt: &Lyt) -> Result<Vec<u8>, EncodeError> {
    check_names(lyt)?;
    let texts = [
        lyt.file_dependencies
            .iter()
            .map(dep_text)
            .collect::<Vec<_>>(),
        lyt.rooms.iter().map(placement_text).collect(),
        lyt.tracks.iter().map(placement_text).collect(),
        lyt.obstacles.iter().map(placement_text).collect(),
        lyt.doorhooks.iter().map(hook_text).collect(),
    ];
    match &lyt.layout {
        Some(layout) if !layout.lines.is_empty() || texts.iter().all(Vec::is_empty) => {
            let text = write_with_layout(layout, &texts);
            Ok(layout.frame.wrap(encode(&text, "LYT")?))
        }
        // A file read with no line (empty text) keeps its byte-order mark and tail.
        layout => {
            let bytes = encode(&write_canonical(&texts), "LYT")?;
            Ok(match layout {
                Some(l) => l.frame.wrap(bytes),
                None => bytes,
            })
        }
    }
}

fn check_names(lyt: &Lyt) -> Result<(), EncodeError> {
    let check = |what: &str, i: usize, name: &str| {
        if !crate::text_lines::is_token(name) {
            Err(EncodeError(format!(
                "{what} {i}: name {name:?} is empty or contains whitespace"
            )))
        } else {
            Ok(())
        }
    };
    for (i, d) in lyt.file_dependencies.iter().enumerate() {
        check("file dependency", i, &d.name)?;
    }
    for (what, list) in [
        ("room", &lyt.rooms),
        ("track", &lyt.tracks),
        ("obstacle", &lyt.obstacles),
    ] {
        for (i, r) in list.iter().enumerate() {
            check(what, i, &r.name)?;
            for e in &r.extra {
                check(what, i, e)?;
            }
        }
    }
    for (i, d) in lyt.doorhooks.iter().enumerate() {
        check("door hook room", i, &d.room)?;
        check("door hook door", i, &d.door)?;
        if let Some(v) = d
            .position
            .iter()
            .chain(&d.orientation)
            .chain(&d.extra)
            .find(|v| !v.is_finite())
        {
            return Err(EncodeError(format!("door hook {i}: non-finite value {v}")));
        }
    }
    for (what, list) in [
        ("room", &lyt.rooms),
        ("track", &lyt.tracks),
        ("obstacle", &lyt.obstacles),
    ] {
        for (i, r) in list.iter().enumerate() {
            if let Some(v) = r.position.iter().find(|v| !v.is_finite()) {
                return Err(EncodeError(format!(
                    "{what} {i}: non-finite coordinate {v}"
                )));
            }
        }
    }
    Ok(())
}

fn dep_text(d: &FileDependency) -> String {
    match &d.source {
        Some(s) if s.parsed == d.values() => s.text.clone(),
        _ => format!("{} {}", Section::FileDependency.keyword(), d.name),
    }
}

fn placement_text(p: &Placement) -> String {
    match &p.source {
        Some(s) if s.parsed == p.values() => s.text.clone(),
        _ => {
            let mut t = format!(
                "{RECORD_INDENT}{} {} {} {}",
                p.name,
                format_f32(p.position[0]),
                format_f32(p.position[1]),
                format_f32(p.position[2])
            );
            for e in &p.extra {
                t.push(' ');
                t.push_str(e);
            }
            t
        }
    }
}

fn hook_text(d: &DoorHook) -> String {
    match &d.source {
        Some(s) if s.parsed == d.values() => s.text.clone(),
        _ => {
            let mut t = format!("{RECORD_INDENT}{} {} {}", d.room, d.door, d.unknown);
            for v in d.position.iter().chain(&d.orientation).chain(&d.extra) {
                t.push(' ');
                t.push_str(&format_f32(*v));
            }
            t
        }
    }
}

fn write_canonical(texts: &[Vec<String>; 5]) -> String {
    let eol = Eol::Lf;
    let mut w = LineWriter::new(eol);
    w.line("#MAXLAYOUT ASCII", eol);
    for t in &texts[Section::FileDependency.index()] {
        w.line(t, eol);
    }
    w.line("beginlayout", eol);
    for s in Section::COUNTED {
        write_new_section(&mut w, s, &texts[s.index()]);
    }
    w.line("donelayout", eol);
    w.finish()
}

fn write_new_section(w: &mut LineWriter, s: Section, records: &[String]) {
    let eol = w.default_eol();
    w.line(
        &format!("{COUNT_INDENT}{} {}", s.keyword(), records.len()),
        eol,
    );
    for t in records {
        w.line(t, eol);
    }
}

fn write_with_layout(layout: &Layout, texts: &[Vec<String>; 5]) -> String {
    let lines = &layout.lines;
    let n: [usize; 5] = std::array::from_fn(|i| texts[i].len());

    // Where each section's slots are and which count line each slot falls under.
    let mut ordinal = vec![0usize; lines.len()];
    let mut total_slots = [0usize; 5];
    let mut last_slot: [Option<usize>; 5] = [None; 5];
    let mut last_count: [Option<usize>; 5] = [None; 5];
    let mut current_block: [Option<usize>; 5] = [None; 5];
    let mut block_of_last_slot: [Option<usize>; 5] = [None; 5];
    let mut emitted = vec![0usize; lines.len()];
    for (idx, item) in lines.iter().enumerate() {
        match item {
            Skeleton::Count { section, .. } => {
                let s = section.index();
                last_count[s] = Some(idx);
                current_block[s] = Some(idx);
            }
            Skeleton::Slot { section, .. } => {
                let s = section.index();
                ordinal[idx] = total_slots[s];
                if total_slots[s] < n[s]
                    && let Some(b) = current_block[s]
                {
                    emitted[b] += 1;
                }
                total_slots[s] += 1;
                last_slot[s] = Some(idx);
                block_of_last_slot[s] = current_block[s];
            }
            _ => {}
        }
    }
    // Records beyond the slots follow the section's last slot, else its last count line, else
    // a new section is inserted.
    let mut anchor: [Option<usize>; 5] = [None; 5];
    let mut inserted: Vec<Section> = Vec::new();
    for s in [Section::FileDependency]
        .into_iter()
        .chain(Section::COUNTED)
    {
        let i = s.index();
        let overflow = n[i].saturating_sub(total_slots[i]);
        if overflow == 0 {
            continue;
        }
        anchor[i] = last_slot[i].or(last_count[i]);
        match anchor[i] {
            Some(_) => {
                let block = if last_slot[i].is_some() {
                    block_of_last_slot[i]
                } else {
                    last_count[i]
                };
                if let Some(b) = block {
                    emitted[b] += overflow;
                }
            }
            None => inserted.push(s),
        }
    }
    let first_begin = lines.iter().position(|l| matches!(l, Skeleton::Begin(_)));
    let first_end = lines.iter().position(|l| matches!(l, Skeleton::End(_)));
    let deps_at = first_begin.unwrap_or(0);
    let sections_at = first_end.unwrap_or(lines.len());

    let mut w = LineWriter::new(layout.default_eol);
    let eol = layout.default_eol;
    let insert = |w: &mut LineWriter, idx: usize| {
        for s in &inserted {
            if *s == Section::FileDependency {
                if idx == deps_at {
                    for t in &texts[s.index()] {
                        w.line(t, eol);
                    }
                }
            } else if idx == sections_at {
                write_new_section(w, *s, &texts[s.index()]);
            }
        }
    };
    for (idx, item) in lines.iter().enumerate() {
        insert(&mut w, idx);
        match item {
            Skeleton::Verbatim(l) | Skeleton::Begin(l) | Skeleton::End(l) => w.line(&l.text, l.eol),
            Skeleton::Count {
                line,
                count_span,
                records_at_read,
                ..
            } => {
                if emitted[idx] == *records_at_read {
                    w.line(&line.text, line.eol);
                } else {
                    let text = match count_span {
                        Some((a, b)) => {
                            format!("{}{}{}", &line.text[..*a], emitted[idx], &line.text[*b..])
                        }
                        None => format!("{} {}", line.text.trim_end(), emitted[idx]),
                    };
                    w.line(&text, line.eol);
                }
            }
            Skeleton::Slot { section, eol } => {
                if let Some(t) = texts[section.index()].get(ordinal[idx]) {
                    w.line(t, *eol);
                }
            }
        }
        for s in 0..5 {
            if anchor[s] == Some(idx) {
                for t in &texts[s][total_slots[s]..] {
                    w.line(t, eol);
                }
            }
        }
    }
    insert(&mut w, lines.len());
    w.finish()
}
