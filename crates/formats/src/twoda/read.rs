//! Decoding: layout detection and the binary `2DA V2.b` reader.

use super::cp1252;
use super::layout::BinaryLayout;
use super::model::{Layout, Row, RowSource, TwoDa};
use super::raw::{
    BINARY_HEADER_END, BINARY_HEADER_SIZE, BOM, LABEL_END, MAGIC, MAGIC_TAB, NUL, OFFSET_SIZE,
    VERSION_BINARY, VERSION_TEXT, show,
};
use crate::cursor::Cursor;
use crate::error::{DecodeError, ErrorKind, Location};
use crate::finding::{Finding, Place, Severity};

/// At most this many findings of one code per file; the rest are counted in one more finding.
pub(crate) const FINDINGS_PER_CODE: usize = 100;

/// Decodes a 2DA file of either layout: `2DA V2.b` (binary) or `2DA V2.0` (text, optionally
/// after a UTF-8 byte order mark).
///
/// Errors: the input is not a 2DA (`Malformed`), another 2DA version (`Unsupported`), or a
/// binary table whose counts or sizes do not fit the input (`Malformed`, at the byte offset of
/// the field). Everything else is read and reported in [`TwoDa::read_findings`].
///
/// ```
/// use areakit_formats::twoda;
/// let text = b"2DA V2.0\n\n   label   walk\n0  Dirt    1\n1  Lava    0\n";
/// let t = twoda::read(text).unwrap();
/// assert_eq!(t.get(0, "WALK"), Some("1"));
/// assert_eq!(twoda::write(&t).unwrap(), text);
/// let binary = twoda::write_binary(&t).unwrap();
/// assert_eq!(twoda::read(&binary).unwrap(), t);
/// ```
pub fn read(data: &[u8]) -> Result<TwoDa, DecodeError> {
    crate::census::decoded("2da");
    let body = data.strip_prefix(&BOM[..]).unwrap_or(data);
    let version = body.get(4..8);
    if version == Some(&VERSION_BINARY[..]) && body.len() == data.len() {
        read_binary(data)
    } else if version == Some(&VERSION_TEXT[..]) {
        super::read_text::read_text(data)
    } else if body.starts_with(b"2DA") && body.len() >= 8 {
        let shown = String::from_utf8_lossy(&body[4..8]).into_owned();
        let what = if version == Some(&VERSION_BINARY[..]) {
            "a binary 2DA (V2.b) cannot start with a byte order mark".to_string()
        } else {
            format!("2DA version `{shown}` is not supported (expected `V2.b` or `V2.0`)")
        };
        let kind = if version == Some(&VERSION_BINARY[..]) {
            ErrorKind::Malformed
        } else {
            ErrorKind::Unsupported
        };
        let offset = (data.len() - body.len() + 4) as u64;
        Err(DecodeError::new(kind, Location::Offset(offset), what))
    } else {
        Err(DecodeError::malformed_at(
            0,
            "not a 2DA file: expected `2DA V2.b` (binary) or `2DA V2.0` (text)",
        ))
    }
}

/// The bytes of the cell string at `offset` of `data`: up to its NUL, or to the end of the
/// data when there is none; empty when the offset is past the data.
pub(crate) fn cell_bytes(data: &[u8], offset: u16) -> &[u8] {
    let start = usize::from(offset);
    match data.get(start..) {
        Some(rest) => {
            let end = rest.iter().position(|&b| b == NUL).unwrap_or(rest.len());
            &rest[..end]
        }
        None => &[],
    }
}

/// Decodes a binary `2DA V2.b` table (see `docs/formats/2da.md` for the layout).
///
/// Counts and sizes are checked against the input before anything is allocated: the row count
/// against the bytes left (each label needs at least its terminator), the offset table against
/// the bytes left, the data size against the string data present. Cell offsets past the string
/// data and a last string without its NUL are read (as `""` and as the bytes up to the end) and
/// reported as findings. Cells may share strings, so the decoded text can exceed the input: it
/// is limited to 16 times the input size plus 1 MiB (`LimitExceeded` beyond; real tables decode
/// to about twice their size).
pub fn read_binary(data: &[u8]) -> Result<TwoDa, DecodeError> {
    let mut findings = Vec::new();
    let magic = read_binary_header(data, &mut findings)?;
    let (columns, trailing_tab, end) = read_column_labels(data, &mut findings)?;
    let ncol = columns.len();
    let (labels, pos) = read_row_labels(data, end)?;
    let row_count = labels.len() as u32;
    let table = CellTable::read(data, pos, row_count, ncol, &mut findings)?;
    let strings = table.strings;

    // Where the string starting at each possible offset ends (one backward pass), so that each
    // cell is found in constant time; and the decoded size checked before any cell is built:
    // many cells sharing one long string would otherwise multiply the input.
    let ends = string_ends(strings);
    let total = cell_text_total(&table.offsets, &ends);
    let limit = max_cell_text(data.len());
    if total > limit {
        return Err(DecodeError::limit_at(
            pos as u64,
            format!(
                "the cells would decode to {total} bytes of text, over the limit of {limit} (16 x the input + 1 MiB): cells share very long strings"
            ),
        ));
    }
    let cells = table.rows(labels, ncol, &ends);
    report_cells(&mut findings, &cells, pos, ncol, strings.len());
    if let Some((first, unused)) = unused_data(strings, &table.offsets) {
        findings.push(Finding::warning(
            "twoda-unused-data",
            Place::offset((table.data_start + first) as u64),
            format!("{unused} bytes of cell strings are not used by any cell"),
        ));
    }

    Ok(TwoDa {
        columns,
        rows: cells.rows,
        default: None,
        layout: Some(Layout::Binary(BinaryLayout {
            magic,
            columns_trailing_tab: trailing_tab,
            column_count: ncol,
            offsets: table.offsets,
            data_size: table.data_size,
            data: strings.to_vec(),
        })),
        findings,
    })
}

/// The magic, version and line feed of a binary table; the magic read.
fn read_binary_header(data: &[u8], findings: &mut Vec<Finding>) -> Result<[u8; 4], DecodeError> {
    let mut c = Cursor::new(data);
    let magic: [u8; 4] = c.array("the `2DA ` magic")?;
    if magic != MAGIC && magic != MAGIC_TAB {
        return Err(DecodeError::malformed_at(
            0,
            format!("expected the magic `2DA `, found {}", show(&magic)),
        ));
    }
    if magic == MAGIC_TAB {
        findings.push(Finding::warning(
            "twoda-magic-tab",
            Place::offset(3),
            "the magic is `2DA` and a tab (the game's files use a space)",
        ));
    }
    let version: [u8; 4] = c.array("the version")?;
    if version != VERSION_BINARY {
        let kind = if version == VERSION_TEXT {
            ErrorKind::Malformed
        } else {
            ErrorKind::Unsupported
        };
        return Err(DecodeError::new(
            kind,
            Location::Offset(4),
            format!(
                "expected the binary version `V2.b`, found {}",
                show(&version)
            ),
        ));
    }
    let nl = c.u8("the line feed after `V2.b`")?;
    if nl != BINARY_HEADER_END {
        return Err(DecodeError::malformed_at(
            8,
            format!("expected a line feed (0x0a) after `2DA V2.b`, found 0x{nl:02x}"),
        ));
    }
    Ok(magic)
}

/// The column labels after the header: tab-terminated, the list ended by a NUL. Returns the
/// labels, whether the last one had its tab, and the offset of the NUL.
fn read_column_labels(
    data: &[u8],
    findings: &mut Vec<Finding>,
) -> Result<(Vec<String>, bool, usize), DecodeError> {
    let start = BINARY_HEADER_SIZE;
    let end = data[start..]
        .iter()
        .position(|&b| b == NUL)
        .map(|i| start + i)
        .ok_or_else(|| {
            DecodeError::malformed_at(
                start as u64,
                "column labels: expected tab-separated labels ended by a NUL byte, but no NUL follows",
            )
        })?;
    let block = &data[start..end];
    let mut columns: Vec<String> = block
        .split(|&b| b == LABEL_END)
        .map(cp1252::decode)
        .collect();
    let trailing_tab = block.last() == Some(&LABEL_END);
    if block.is_empty() || trailing_tab {
        columns.pop();
    } else {
        findings.push(Finding::warning(
            "twoda-columns-unterminated",
            Place::offset(end as u64),
            "the last column label is not followed by a tab before the NUL",
        ));
    }
    Ok((columns, trailing_tab, end))
}

/// The row count after the column labels' NUL at `end`, and the row labels with their
/// terminators; also the offset just past the last label (where the cell offsets start).
fn read_row_labels(data: &[u8], end: usize) -> Result<(Vec<(String, u8)>, usize), DecodeError> {
    let mut c = Cursor::at(data, end + 1, "the row count")?;
    let count_at = c.pos();
    let row_count = c.u32("the row count")?;
    if u64::from(row_count) > c.remaining() as u64 {
        return Err(DecodeError::malformed_at(
            count_at as u64,
            format!(
                "row count {row_count}: the row labels need at least {row_count} bytes (a terminator each), but only {} bytes remain",
                c.remaining()
            ),
        ));
    }
    let mut pos = c.pos();
    let mut labels: Vec<(String, u8)> = Vec::with_capacity(row_count as usize);
    for i in 0..row_count {
        let rest = &data[pos..];
        let n = rest
            .iter()
            .position(|&b| b == LABEL_END || b == NUL)
            .ok_or_else(|| {
                DecodeError::malformed_at(
                    pos as u64,
                    format!(
                        "row label {i} of {row_count}: expected a label ended by a tab or NUL, but none follows"
                    ),
                )
            })?;
        labels.push((cp1252::decode(&rest[..n]), rest[n]));
        pos += n + 1;
    }
    Ok((labels, pos))
}

/// The cell offsets, the data size and the cell strings of a binary table.
struct CellTable<'a> {
    offsets: Vec<u16>,
    data_size: u16,
    /// File offset of the cell strings.
    data_start: usize,
    strings: &'a [u8],
}

/// The rows built from a [`CellTable`], and the cells whose offsets are past the strings or
/// whose strings run to the end without a NUL (row, column, offset).
struct Cells {
    rows: Vec<Row>,
    out_of_range: Vec<(usize, usize, u16)>,
    unterminated: Vec<(usize, usize, u16)>,
}

impl<'a> CellTable<'a> {
    /// Reads the offsets of `row_count` x `ncol` cells at `pos`, the data size and the
    /// strings after them, checked against the input.
    fn read(
        data: &'a [u8],
        pos: usize,
        row_count: u32,
        ncol: usize,
        findings: &mut Vec<Finding>,
    ) -> Result<Self, DecodeError> {
        let mut c = Cursor::at(data, pos, "the cell offsets")?;
        let cells = u64::from(row_count)
            .checked_mul(ncol as u64)
            .ok_or_else(|| {
                DecodeError::limit_at(pos as u64, "row count x column count overflows")
            })?;
        let len = c
            .check_table(cells, OFFSET_SIZE, "cell offsets (u16 per cell)")
            .map_err(|e| e.within(format!("{row_count} rows x {ncol} columns")))?;
        let offsets: Vec<u16> = c
            .bytes(len, "cell offsets")?
            .chunks_exact(2)
            .map(|p| u16::from_le_bytes([p[0], p[1]]))
            .collect();
        let size_at = c.pos();
        let data_size = c.u16("the string data size")?;
        let strings = &data[c.pos()..];
        let data_start = c.pos();
        if usize::from(data_size) > strings.len() {
            return Err(DecodeError::malformed_at(
                size_at as u64,
                format!(
                    "the data size says {data_size} bytes of cell strings, but only {} bytes follow",
                    strings.len()
                ),
            ));
        }
        if usize::from(data_size) != strings.len() {
            findings.push(Finding::warning(
                "twoda-data-size-mismatch",
                Place::offset(size_at as u64),
                format!(
                    "the data size field says {data_size}, but {} bytes of cell strings follow",
                    strings.len()
                ),
            ));
        }
        Ok(CellTable {
            offsets,
            data_size,
            data_start,
            strings,
        })
    }

    /// The rows of the table, each label with its cells (`ends`: the [`string_ends`] of the
    /// strings).
    fn rows(&self, labels: Vec<(String, u8)>, ncol: usize, ends: &[u32]) -> Cells {
        let strings = self.strings;
        let mut rows = Vec::with_capacity(labels.len());
        let mut out_of_range = Vec::new();
        let mut unterminated = Vec::new();
        let mut cell_offsets = self.offsets.chunks_exact(ncol.max(1));
        for (i, (label, label_end)) in labels.into_iter().enumerate() {
            let row_offsets: &[u16] = if ncol == 0 {
                &[]
            } else {
                cell_offsets.next().unwrap_or(&[])
            };
            let mut values = Vec::with_capacity(ncol);
            for (j, &o) in row_offsets.iter().enumerate() {
                let start = usize::from(o);
                let bytes = strings.get(start..start + cell_len(ends, o)).unwrap_or(&[]);
                if start >= strings.len() {
                    out_of_range.push((i, j, o));
                } else if usize::from(o) + bytes.len() == strings.len() {
                    unterminated.push((i, j, o));
                }
                values.push(cp1252::decode(bytes));
            }
            rows.push(Row {
                label,
                cells: values,
                source: Some(RowSource::Binary { label_end }),
            });
        }
        Cells {
            rows,
            out_of_range,
            unterminated,
        }
    }
}

/// The findings about cells past the strings and strings without their NUL (`pos`: the offset
/// of the cell offsets; `strings_len`: the bytes of cell strings).
fn report_cells(
    findings: &mut Vec<Finding>,
    cells: &Cells,
    pos: usize,
    ncol: usize,
    strings_len: usize,
) {
    let cell_place = |i: usize, j: usize, o: u16| {
        let at = pos as u64 + 2 * (i as u64 * ncol as u64 + j as u64);
        Place::offset(at).item(format!("rows[{i}].cells[{j}] (offset {o})"))
    };
    report(
        findings,
        &cells.out_of_range,
        |&(i, j, o)| {
            Finding::error(
                "twoda-cell-offset-range",
                cell_place(i, j, o),
                format!(
                    "cell offset {o} is past the {strings_len} bytes of cell strings (read as empty)"
                ),
            )
        },
        "twoda-cell-offset-range",
        Severity::Error,
    );
    report(
        findings,
        &cells.unterminated,
        |&(i, j, o)| {
            Finding::error(
                "twoda-cell-unterminated",
                cell_place(i, j, o),
                format!("the cell string at data offset {o} has no NUL before the end of the file"),
            )
        },
        "twoda-cell-unterminated",
        Severity::Error,
    );
}

/// The largest total of decoded cell text a binary file of `input_len` bytes may produce.
pub(crate) fn max_cell_text(input_len: usize) -> u64 {
    16 * input_len as u64 + (1 << 20)
}

/// The total decoded cell text (bytes) of a binary layout, given its [`string_ends`]: each
/// offset's string, `""` past the data; what [`read_binary`] checks against [`max_cell_text`].
pub(crate) fn cell_text_total(offsets: &[u16], ends: &[u32]) -> u64 {
    offsets.iter().map(|&o| cell_len(ends, o) as u64).sum()
}

/// The length of the string at offset `o`, given [`string_ends`] (0 past the data).
fn cell_len(ends: &[u32], o: u16) -> usize {
    let o = usize::from(o);
    ends.get(o).map_or(0, |&e| e as usize - o)
}

/// For each offset a cell can name (`0..=u16::MAX` within the data), the index of the NUL that
/// ends its string, or the data length when none does.
pub(crate) fn string_ends(strings: &[u8]) -> Vec<u32> {
    let n = strings.len().min(usize::from(u16::MAX) + 1);
    let mut ends = vec![0u32; n];
    // The first NUL at or after position n (or the end), found once.
    let mut next = strings[n..]
        .iter()
        .position(|&b| b == NUL)
        .map_or(strings.len(), |i| n + i);
    for i in (0..n).rev() {
        if strings[i] == NUL {
            next = i;
        }
        ends[i] = u32::try_from(next).unwrap_or(u32::MAX);
    }
    ends
}

/// Pushes one finding per item up to [`FINDINGS_PER_CODE`], then one counting the rest.
pub(crate) fn report<T>(
    out: &mut Vec<Finding>,
    items: &[T],
    make: impl Fn(&T) -> Finding,
    code: &'static str,
    severity: Severity,
) {
    for item in items.iter().take(FINDINGS_PER_CODE) {
        out.push(make(item));
    }
    if items.len() > FINDINGS_PER_CODE {
        let rest = items.len() - FINDINGS_PER_CODE;
        let msg = format!("{rest} more `{code}` findings not listed");
        out.push(match severity {
            Severity::Error => Finding::error(code, Place::default(), msg),
            Severity::Warning => Finding::warning(code, Place::default(), msg),
            Severity::Info => Finding::info(code, Place::default(), msg),
        });
    }
}

/// The first unused byte of the cell strings and the number of unused bytes, if any: bytes no
/// cell's string (from its offset through its NUL) covers.
fn unused_data(strings: &[u8], offsets: &[u16]) -> Option<(usize, usize)> {
    if strings.is_empty() {
        return None;
    }
    let mut starts: Vec<usize> = offsets
        .iter()
        .map(|&o| usize::from(o))
        .filter(|&o| o < strings.len())
        .collect();
    starts.sort_unstable();
    starts.dedup();
    let mut covered_to = 0usize; // everything below is covered or counted
    let mut unused = 0usize;
    let mut first = None;
    for s in starts {
        if s > covered_to {
            unused += s - covered_to;
            first.get_or_insert(covered_to);
        }
        let end = s + cell_bytes(strings, s as u16).len() + 1;
        covered_to = covered_to.max(end.min(strings.len()));
    }
    if covered_to < strings.len() {
        unused += strings.len() - covered_to;
        first.get_or_insert(covered_to);
    }
    first.map(|f| (f, unused))
}
