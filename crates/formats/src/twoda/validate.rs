//! File-level checks of a 2DA table. Codes are documented in `docs/checks.md`.

use std::collections::HashMap;

use super::model::{Row, TwoDa};
use super::read::report;
use crate::finding::{Finding, Place, Severity};

/// Checks a table: the findings of reading it (layout irregularities; for a binary file cell
/// offsets past the string data or a last string without its NUL) followed by the checks of its
/// data:
///
/// - `twoda-empty-column-label` (error): a column label is empty (the game's reader stops at
///   an empty label, so every later column and every cell shifts);
/// - `twoda-duplicate-column` (warning): two columns with the same label (case-insensitive):
///   lookups by label only reach the first;
/// - `twoda-duplicate-row-label` (warning): two rows with the same label (case-insensitive):
///   the engine uses positions, but a lookup by label only reaches the first;
/// - `twoda-row-too-few-cells` / `twoda-row-too-many-cells` (warning): a row with fewer cells
///   than columns (the missing ones read as empty) or more (the extra ones are ignored);
/// - `twoda-row-label-not-index` (warning, once per table): row labels that are not the row's
///   index (the engine ignores them; people reading the file may not).
///
/// At most 100 findings of one code are listed; one more finding counts the rest.
pub fn validate(t: &TwoDa) -> Vec<Finding> {
    let mut out = t.read_findings().to_vec();
    let row_place = |i: usize, r: &Row| {
        let p = Place {
            line: r.line(),
            column: r.line().map(|_| 1),
            ..Place::default()
        };
        p.item(format!("rows[{i}]"))
    };

    let mut seen: HashMap<String, usize> = HashMap::new();
    for (j, c) in t.columns.iter().enumerate() {
        if c.is_empty() {
            out.push(Finding::error(
                "twoda-empty-column-label",
                Place::default().item(format!("columns[{j}]")),
                format!("column {j} has an empty label: the game's reader stops at it, so the later columns are lost"),
            ));
            continue;
        }
        let key = c.to_ascii_lowercase();
        if let Some(&first) = seen.get(&key) {
            out.push(Finding::warning(
                "twoda-duplicate-column",
                Place::default().item(format!("columns[{j}]")),
                format!(
                    "column {j} `{c}` repeats column {first} `{}`: lookups by label only reach the first",
                    t.columns[first]
                ),
            ));
        } else {
            seen.insert(key, j);
        }
    }

    let mut labels: HashMap<String, usize> = HashMap::new();
    let mut duplicates = Vec::new();
    let mut short = Vec::new();
    let mut long = Vec::new();
    let mut not_index = Vec::new();
    let ncol = t.columns.len();
    for (i, r) in t.rows.iter().enumerate() {
        let key = r.label.to_ascii_lowercase();
        match labels.get(&key) {
            Some(&first) => duplicates.push((i, first)),
            None => {
                labels.insert(key, i);
            }
        }
        if r.cells.len() < ncol {
            short.push(i);
        } else if r.cells.len() > ncol {
            long.push(i);
        }
        if r.label != i.to_string() {
            not_index.push(i);
        }
    }
    report(
        &mut out,
        &duplicates,
        |&(i, first)| {
            Finding::warning(
                "twoda-duplicate-row-label",
                row_place(i, &t.rows[i]),
                format!(
                    "row {i} has the label `{}` of row {first}: a lookup by label only reaches row {first}",
                    t.rows[i].label
                ),
            )
        },
        "twoda-duplicate-row-label",
        Severity::Warning,
    );
    report(
        &mut out,
        &short,
        |&i| {
            Finding::warning(
                "twoda-row-too-few-cells",
                row_place(i, &t.rows[i]),
                format!(
                    "row {i} has {} cells for {ncol} columns: the missing cells read as empty",
                    t.rows[i].cells.len()
                ),
            )
        },
        "twoda-row-too-few-cells",
        Severity::Warning,
    );
    report(
        &mut out,
        &long,
        |&i| {
            Finding::warning(
                "twoda-row-too-many-cells",
                row_place(i, &t.rows[i]),
                format!(
                    "row {i} has {} cells for {ncol} columns: the game ignores the extra cells",
                    t.rows[i].cells.len()
                ),
            )
        },
        "twoda-row-too-many-cells",
        Severity::Warning,
    );
    if let Some(&first) = not_index.first() {
        out.push(Finding::warning(
            "twoda-row-label-not-index",
            row_place(first, &t.rows[first]),
            format!(
                "{} of {} row labels are not the row's index (first: row {first} is labelled `{}`); the engine uses the position",
                not_index.len(),
                t.rows.len(),
                t.rows[first].label
            ),
        ));
    }
    out
}
