//! Encoding: the layout a table was read from, and the binary `2DA V2.b` writer.

use std::collections::HashMap;

use super::cp1252;
use super::layout::BinaryLayout;
use super::model::{Layout, RowSource, TwoDa, Variant};
use super::raw::{BINARY_HEADER_END, LABEL_END, MAGIC, MAX_DATA_SIZE, NUL, VERSION_BINARY};
use super::read::{cell_bytes, cell_text_total, max_cell_text, string_ends};
use crate::error::EncodeError;

/// Encodes a table in the layout it was read from (binary for a table built in code).
///
/// An unmodified table read from a file gives back the file's bytes. See [`write_binary`] and
/// [`write_text`](super::write_text) for what each layout keeps and what it rejects.
pub fn write(t: &TwoDa) -> Result<Vec<u8>, EncodeError> {
    match t.variant() {
        Some(Variant::Text) => super::write_text::write_text(t),
        _ => write_binary(t),
    }
}

/// Encodes a table as binary `2DA V2.b`.
///
/// A table read from a binary file keeps its magic, whether its column list ends with a tab,
/// each row label's terminator (tab or NUL), and — while every cell equals the value read —
/// its cell offset table, data-size field and string data exactly as they were (deduplication,
/// string order, unused bytes). Otherwise the cells are laid out canonically: each distinct
/// string once, in order of first use reading the cells row by row, offsets pointing at them,
/// the data size the exact length. A row with fewer cells than columns is written with empty
/// cells (what the engine reads for missing cells).
///
/// Errors: a `DEFAULT:` value (the binary layout has none), a row with more cells than there
/// are columns, a tab or NUL in a column label or row label, a NUL in a cell, a character
/// Windows-1252 lacks, or string data over 65 535 bytes (offsets and the data size are `u16`),
/// and cells whose text adds up to more than the reader accepts from a file of the written
/// size (16 times its size plus 1 MiB: many cells sharing long strings), so that every file
/// written reads back.
pub fn write_binary(t: &TwoDa) -> Result<Vec<u8>, EncodeError> {
    if let Some(d) = &t.default {
        return Err(EncodeError(format!(
            "the binary 2DA layout cannot hold the default value {d:?} (clear `default` first)"
        )));
    }
    let ncol = t.columns.len();
    for (i, r) in t.rows.iter().enumerate() {
        if r.cells.len() > ncol {
            return Err(EncodeError(format!(
                "row {i} has {} cells but the table has {ncol} columns: a binary 2DA cannot hold the extra cells",
                r.cells.len()
            )));
        }
    }
    let layout = match &t.layout {
        Some(Layout::Binary(l)) => Some(l),
        _ => None,
    };
    let kept = layout.filter(|l| cells_unchanged(l, t));
    let canonical;
    let (offsets, data_size, data): (&[u16], u16, &[u8]) = match kept {
        Some(l) => (&l.offsets, l.data_size, &l.data),
        None => {
            canonical = canonical_cells(t)?;
            let size =
                u16::try_from(canonical.1.len()).map_err(|_| too_large(canonical.1.len()))?;
            (&canonical.0, size, &canonical.1)
        }
    };

    let mut out = Vec::with_capacity(64 + offsets.len() * 2 + data.len());
    out.extend_from_slice(&layout.map_or(MAGIC, |l| l.magic));
    out.extend_from_slice(&VERSION_BINARY);
    out.push(BINARY_HEADER_END);
    for (i, c) in t.columns.iter().enumerate() {
        if i > 0 {
            out.push(LABEL_END);
        }
        put_label(&mut out, c, &|| format!("column {i} label"))?;
    }
    let trailing = match layout {
        Some(l) => l.columns_trailing_tab,
        None => true,
    };
    if ncol > 0 && (trailing || t.columns[ncol - 1].is_empty()) {
        out.push(LABEL_END);
    }
    out.push(NUL);
    let count = u32::try_from(t.rows.len())
        .map_err(|_| EncodeError(format!("{} rows do not fit a u32 count", t.rows.len())))?;
    out.extend_from_slice(&count.to_le_bytes());
    for (i, r) in t.rows.iter().enumerate() {
        put_label(&mut out, &r.label, &|| format!("row {i} label"))?;
        out.push(match r.source {
            Some(RowSource::Binary { label_end }) => label_end,
            _ => LABEL_END,
        });
    }
    for o in offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    out.extend_from_slice(&data_size.to_le_bytes());
    out.extend_from_slice(data);
    // Every cell is at most the whole string data long: most tables need no closer look.
    let limit = max_cell_text(out.len());
    let bound = offsets.len() as u64 * data.len() as u64;
    let total = if bound > limit {
        cell_text_total(offsets, &string_ends(data))
    } else {
        bound
    };
    if total > limit {
        return Err(EncodeError(format!(
            "the cells hold {total} bytes of text, more than a binary 2DA of {} bytes may decode to ({limit}: 16 x its size + 1 MiB, the reader's bound on cells sharing long strings)",
            out.len()
        )));
    }
    Ok(out)
}

fn too_large(len: usize) -> EncodeError {
    EncodeError(format!(
        "the cell strings need {len} bytes, but a binary 2DA holds at most {MAX_DATA_SIZE} (u16 offsets and data size)"
    ))
}

/// Appends a column or row label: no tab or NUL (they end labels).
fn put_label(out: &mut Vec<u8>, label: &str, what: &dyn Fn() -> String) -> Result<(), EncodeError> {
    if label.contains(['\t', '\0']) {
        return Err(EncodeError(format!(
            "{} {label:?} contains a tab or NUL, which end labels in a binary 2DA",
            what()
        )));
    }
    cp1252::encode_into(label, out, what)
}

/// Whether every cell equals what the layout's offsets and string data hold.
fn cells_unchanged(l: &BinaryLayout, t: &TwoDa) -> bool {
    let ncol = t.columns.len();
    if l.column_count != ncol || t.rows.len().checked_mul(ncol) != Some(l.offsets.len()) {
        return false;
    }
    if ncol == 0 {
        return true;
    }
    t.rows
        .iter()
        .zip(l.offsets.chunks_exact(ncol))
        .all(|(r, offs)| {
            r.cells.len() == ncol
                && r.cells.iter().zip(offs).all(|(cell, &o)| {
                    let bytes = cell_bytes(&l.data, o);
                    if cell.is_ascii() {
                        bytes == cell.as_bytes()
                    } else {
                        cp1252::decode(bytes) == *cell
                    }
                })
        })
}

/// The canonical offset table and string data: each distinct string once, in order of first
/// use, row by row.
fn canonical_cells(t: &TwoDa) -> Result<(Vec<u16>, Vec<u8>), EncodeError> {
    let ncol = t.columns.len();
    let mut offsets = Vec::with_capacity(t.rows.len() * ncol);
    let mut data = Vec::new();
    let mut seen: HashMap<&str, u16> = HashMap::new();
    for (i, r) in t.rows.iter().enumerate() {
        for j in 0..ncol {
            let cell = r.cells.get(j).map_or("", String::as_str);
            let o = match seen.get(cell) {
                Some(&o) => o,
                None => {
                    let o = u16::try_from(data.len()).map_err(|_| too_large(data.len()))?;
                    if cell.contains('\0') {
                        return Err(EncodeError(format!(
                            "row {i} column {j}: a cell cannot contain a NUL (it ends cell strings)"
                        )));
                    }
                    cp1252::encode_into(cell, &mut data, &|| format!("row {i} column {j}"))?;
                    data.push(NUL);
                    seen.insert(cell, o);
                    o
                }
            };
            offsets.push(o);
        }
    }
    if data.len() > MAX_DATA_SIZE {
        return Err(too_large(data.len()));
    }
    Ok((offsets, data))
}
