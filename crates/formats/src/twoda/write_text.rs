//! Encoding the text `2DA V2.0` layout.

use super::layout::{TextItem, TextLayout};
use super::model::{Layout, Row, RowSource, TwoDa};
use super::raw::{BOM, EMPTY_CELL};
use super::syntax::{Encoding, LineEnd, LineOut};
use crate::error::EncodeError;

/// The header line of a table written canonically.
const HEADER: &str = "2DA V2.0";

/// Encodes a table as text `2DA V2.0`.
///
/// A table read from a text file is written back line for line: line 1, line 2 (while the
/// default is unchanged), the column labels line (while the labels are unchanged), blank lines,
/// each row whose label and cells are unchanged with its original text and terminator, the
/// byte order mark and the NUL padding. Edited rows are written canonically in their place,
/// added rows after the last row, removed rows' lines are dropped.
///
/// Written canonically (a table built in code or read from a binary file): `2DA V2.0`, line 2
/// blank or `DEFAULT: value`, the column labels, then one line per row, values separated by
/// spaces and padded so the columns line up, LF line ends, Windows-1252. An empty cell is
/// written `****`; a cell whose value is the four characters `****` is written `"****"`; values
/// with spaces or tabs, and empty labels, are quoted.
///
/// Errors: a value containing a quote or a line break (the format cannot quote them), rows but
/// no columns (the first row would read as the column labels), a character the file's encoding
/// lacks.
pub fn write_text(t: &TwoDa) -> Result<Vec<u8>, EncodeError> {
    if t.columns.is_empty() && !t.rows.is_empty() {
        return Err(EncodeError(
            "a text 2DA with rows needs at least one column label (the first row would be read as the labels)".into(),
        ));
    }
    let layout = match &t.layout {
        Some(Layout::Text(l)) if layout_fits(l, t) => Some(l),
        _ => None,
    };
    let mut w = Writer {
        t,
        encoding: layout.map_or(Encoding::Cp1252, |l| l.encoding),
        widths: None,
    };
    match layout {
        Some(l) => w.with_layout(l),
        None => w.canonical(),
    }
}

/// Whether the layout has the lines the table needs (line 2 for a default, the labels line for
/// columns and rows).
fn layout_fits(l: &TextLayout, t: &TwoDa) -> bool {
    let has_line2 = l.items.iter().any(|i| matches!(i, TextItem::Line2 { .. }));
    let has_columns = l
        .items
        .iter()
        .any(|i| matches!(i, TextItem::Columns { .. }));
    (has_line2 || (t.default.is_none() && t.columns.is_empty() && t.rows.is_empty()))
        && (has_columns || (t.columns.is_empty() && t.rows.is_empty()))
}

/// What a value is, for how it is written.
#[derive(Clone, Copy)]
enum Kind {
    Cell,
    Label,
}

/// The token text of a value.
fn token(value: &str, kind: Kind, what: &dyn Fn() -> String) -> Result<String, EncodeError> {
    if value.contains(['"', '\n', '\r']) {
        return Err(EncodeError(format!(
            "{} {value:?}: a text 2DA value cannot contain a quote or a line break",
            what()
        )));
    }
    Ok(match kind {
        Kind::Cell if value.is_empty() => EMPTY_CELL.to_string(),
        Kind::Cell if value == EMPTY_CELL => format!("\"{EMPTY_CELL}\""),
        _ if value.is_empty() || value.contains([' ', '\t']) => format!("\"{value}\""),
        _ => value.to_string(),
    })
}

struct Writer<'a> {
    t: &'a TwoDa,
    encoding: Encoding,
    /// Column widths for canonical lines: the row label column, then each column.
    widths: Option<Vec<usize>>,
}

impl Writer<'_> {
    fn encode(&self, text: &str, what: &str) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::with_capacity(text.len());
        self.encoding
            .encode_into(text, &mut out, &|| what.to_string())?;
        Ok(out)
    }

    /// Computes the widths the canonical lines pad to (once, when first needed).
    fn ensure_widths(&mut self) -> Result<(), EncodeError> {
        if self.widths.is_some() {
            return Ok(());
        }
        let t = self.t;
        let width = |s: &str| s.chars().count();
        let mut w = vec![0usize; t.columns.len() + 1];
        for (j, c) in t.columns.iter().enumerate() {
            w[j + 1] = width(&token(c, Kind::Label, &|| format!("column {j} label"))?);
        }
        for (i, r) in t.rows.iter().enumerate() {
            w[0] = w[0].max(width(&token(&r.label, Kind::Label, &|| {
                format!("row {i} label")
            })?));
            for (j, c) in r.cells.iter().enumerate() {
                let n = width(&token(c, Kind::Cell, &|| format!("row {i} column {j}"))?);
                match w.get_mut(j + 1) {
                    Some(x) => *x = (*x).max(n),
                    None => w.push(n),
                }
            }
        }
        self.widths = Some(w);
        Ok(())
    }

    /// The widths (after [`Writer::ensure_widths`]).
    fn width_list(&self) -> &[usize] {
        self.widths.as_deref().unwrap_or(&[])
    }

    fn default_line(&self) -> Result<Vec<u8>, EncodeError> {
        match &self.t.default {
            None => Ok(Vec::new()),
            Some(d) => {
                let tok = token(d, Kind::Label, &|| "the default".to_string())?;
                self.encode(&format!("DEFAULT: {tok}"), "the default")
            }
        }
    }

    fn columns_line(&mut self) -> Result<Vec<u8>, EncodeError> {
        self.ensure_widths()?;
        let w = self.width_list();
        let mut parts = vec![" ".repeat(w.first().copied().unwrap_or(0))];
        for (j, c) in self.t.columns.iter().enumerate() {
            parts.push(token(c, Kind::Label, &|| format!("column {j} label"))?);
        }
        let text = join_padded(&parts, w);
        self.encode(&text, "the column labels")
    }

    fn row_line(&mut self, i: usize, r: &Row) -> Result<Vec<u8>, EncodeError> {
        if let Some(RowSource::Text(s)) = &r.source
            && s.label == r.label
            && s.cells == r.cells
        {
            return Ok(s.raw.clone());
        }
        self.ensure_widths()?;
        let w = self.width_list();
        let mut parts = vec![token(&r.label, Kind::Label, &|| format!("row {i} label"))?];
        for (j, c) in r.cells.iter().enumerate() {
            parts.push(token(c, Kind::Cell, &|| format!("row {i} column {j}"))?);
        }
        let text = join_padded(&parts, w);
        self.encode(&text, &format!("row {i}"))
    }

    fn canonical(&mut self) -> Result<Vec<u8>, EncodeError> {
        let end = LineEnd::Lf;
        let mut out = LineOut::new(end);
        out.line(HEADER.as_bytes(), end);
        out.line(&self.default_line()?, end);
        out.line(&self.columns_line()?, end);
        for (i, r) in self.t.rows.iter().enumerate() {
            out.line(&self.row_line(i, r)?, end);
        }
        Ok(out.buf)
    }

    fn with_layout(&mut self, l: &TextLayout) -> Result<Vec<u8>, EncodeError> {
        let t = self.t;
        let mut out = LineOut::new(l.default_end);
        if l.bom {
            out.buf.extend_from_slice(&BOM);
        }
        let last_row_item = l
            .items
            .iter()
            .rposition(|i| matches!(i, TextItem::Row { .. }));
        let columns_item = l
            .items
            .iter()
            .position(|i| matches!(i, TextItem::Columns { .. }));
        // New rows follow the last row line, or the labels line when there is none.
        let append_after = last_row_item.or(columns_item);
        let mut next = 0usize;
        for (k, item) in l.items.iter().enumerate() {
            match item {
                TextItem::Header(line) | TextItem::Verbatim(line) => {
                    out.line(&line.bytes, line.end)
                }
                TextItem::Line2 { line, parsed } => {
                    if *parsed == t.default {
                        out.line(&line.bytes, line.end);
                    } else {
                        out.line(&self.default_line()?, line.end);
                    }
                }
                TextItem::Columns { line, parsed } => {
                    if *parsed == t.columns {
                        out.line(&line.bytes, line.end);
                    } else {
                        out.line(&self.columns_line()?, line.end);
                    }
                }
                TextItem::Row { end } => {
                    if let Some(r) = t.rows.get(next) {
                        out.line(&self.row_line(next, r)?, *end);
                    }
                    next += 1;
                }
            }
            if append_after == Some(k) {
                while let Some(r) = t.rows.get(next) {
                    let end = out.default_end();
                    out.line(&self.row_line(next, r)?, end);
                    next += 1;
                }
            }
        }
        out.buf.resize(out.buf.len() + l.nul_padding, 0);
        Ok(out.buf)
    }
}

/// Joins tokens with one space, padding each but the last to its column's width.
fn join_padded(parts: &[String], widths: &[usize]) -> String {
    let mut s = String::new();
    for (j, p) in parts.iter().enumerate() {
        if j > 0 {
            s.push(' ');
        }
        s.push_str(p);
        if j + 1 < parts.len() {
            let w = widths.get(j).copied().unwrap_or(0);
            let n = p.chars().count();
            s.extend(std::iter::repeat_n(' ', w.saturating_sub(n)));
        }
    }
    s
}
