//! Decoding the text `2DA V2.0` layout.

use super::layout::{TextItem, TextLayout};
use super::model::{Layout, Row, RowSource, TextRowSource, TwoDa};
use super::raw::{BOM, EMPTY_CELL, MAGIC_TAB, VERSION_BINARY, VERSION_TEXT, show};
use super::syntax::{Encoding, LineEnd, RawLine, Token, split_lines, tokens};
use crate::error::{DecodeError, ErrorKind, Location};
use crate::finding::{Finding, Place};

/// Decodes a text `2DA V2.0` table.
///
/// Reads what the format's readers accept: values separated by any run of spaces and tabs,
/// quoted values (`"Polar Bear"`), `****` for an empty cell, an optional `DEFAULT:` line 2,
/// blank lines anywhere (skipped), LF, CRLF or lone CR line ends, a UTF-8 byte order mark (the
/// values are then read as UTF-8 when the file is valid UTF-8), Windows-1252 bytes, NUL bytes
/// padding the end. Each irregularity becomes a finding in [`TwoDa::read_findings`]. The only
/// errors are an input that does not start with `2DA V2.0` (`Malformed`) or names another
/// version (`Unsupported`), at line 1.
pub fn read_text(data: &[u8]) -> Result<TwoDa, DecodeError> {
    let bom = data.starts_with(&BOM);
    let body = if bom { &data[BOM.len()..] } else { data };
    let pad = body.iter().rev().take_while(|&&b| b == 0).count();
    let content = &body[..body.len() - pad];
    let utf8 = bom && std::str::from_utf8(content).is_ok();
    let encoding = if utf8 {
        Encoding::Utf8
    } else {
        Encoding::Cp1252
    };
    let lines = split_lines(content);
    let bom_cols: u32 = if bom { 3 } else { 0 };
    let Some(&(first, first_end)) = lines.first() else {
        return Err(DecodeError::malformed_text(
            1,
            1 + bom_cols,
            "empty input: expected `2DA V2.0`",
        ));
    };
    check_header(first, bom_cols)?;

    let mut r = Reader {
        encoding,
        findings: Vec::new(),
        items: Vec::with_capacity(lines.len()),
        columns: None,
        rows: Vec::new(),
        default: None,
        blank_run: None,
    };
    if bom {
        let how = if utf8 {
            "read as UTF-8"
        } else {
            "not valid UTF-8: read as Windows-1252"
        };
        r.warn(
            "twoda-text-bom",
            1,
            1,
            format!(
                "the file starts with a UTF-8 byte order mark ({how}); the game's files have none"
            ),
        );
    }
    if first.starts_with(&MAGIC_TAB) {
        r.warn(
            "twoda-magic-tab",
            1,
            4 + bom_cols,
            "the magic is `2DA` and a tab (the format has a space)",
        );
    }
    if let Some(i) = first[8..]
        .iter()
        .position(|&b| !super::syntax::is_separator(b))
    {
        r.warn(
            "twoda-text-header-extra",
            1,
            col(8 + i) + bom_cols,
            format!(
                "text after `2DA V2.0` on line 1: {} (ignored, kept)",
                show(&first[8 + i..])
            ),
        );
    }
    r.items.push(TextItem::Header(RawLine {
        bytes: first.to_vec(),
        end: first_end,
    }));
    line_end_findings(&mut r, &lines);
    if let Some(&(l2, end)) = lines.get(1) {
        r.line2(l2, end);
    }
    for (i, &(bytes, end)) in lines.iter().enumerate().skip(2) {
        r.line(line_no(i), bytes, end);
    }
    r.close_blank_run(true);
    if r.columns.is_none() {
        r.warn(
            "twoda-text-no-columns",
            line_no(lines.len().saturating_sub(1)),
            1,
            "no column labels line: the table has no columns",
        );
    }
    if pad > 0 {
        r.warn(
            "twoda-text-nul-padding",
            line_no(lines.len().saturating_sub(1)),
            1,
            format!("{pad} NUL byte(s) after the last line (kept)"),
        );
    }
    let default_end = dominant_end(&lines);
    Ok(TwoDa {
        columns: r.columns.unwrap_or_default(),
        rows: r.rows,
        default: r.default,
        layout: Some(Layout::Text(TextLayout {
            bom,
            encoding,
            items: r.items,
            default_end,
            nul_padding: pad,
        })),
        findings: r.findings,
    })
}

/// Checks line 1: `2DA V2.0` (or `2DA`, tab, `V2.0`).
fn check_header(first: &[u8], bom_cols: u32) -> Result<(), DecodeError> {
    let magic_ok =
        first.len() >= 8 && (first.starts_with(b"2DA ") || first.starts_with(&MAGIC_TAB));
    if !magic_ok {
        return Err(DecodeError::malformed_text(
            1,
            1 + bom_cols,
            format!(
                "expected `2DA V2.0`, found {}",
                show(&first[..first.len().min(16)])
            ),
        ));
    }
    let version = &first[4..8];
    if version != VERSION_TEXT {
        let (kind, what) = if version == VERSION_BINARY {
            (
                ErrorKind::Malformed,
                "expected the text version `V2.0`, found `V2.b` (a binary 2DA)".to_string(),
            )
        } else {
            (
                ErrorKind::Unsupported,
                format!(
                    "2DA version {} is not supported (expected `V2.0`)",
                    show(version)
                ),
            )
        };
        return Err(DecodeError::new(
            kind,
            Location::LineCol {
                line: 1,
                column: 5 + bom_cols,
            },
            what,
        ));
    }
    Ok(())
}

/// Line-terminator findings: lone CR, mixed terminators, no final terminator.
fn line_end_findings(r: &mut Reader, lines: &[(&[u8], LineEnd)]) {
    let first_end = lines.first().map(|l| l.1).filter(|&e| e != LineEnd::None);
    let mut cr = false;
    let mut mixed = false;
    for (i, &(_, end)) in lines.iter().enumerate() {
        if end == LineEnd::Cr && !cr {
            cr = true;
            r.warn(
                "twoda-text-cr-line-end",
                line_no(i),
                1,
                "a line ends with a lone CR (readers that split lines at LF see one long line)",
            );
        }
        if !mixed && end != LineEnd::None && first_end.is_some_and(|f| f != end) {
            mixed = true;
            r.warn(
                "twoda-text-mixed-line-endings",
                line_no(i),
                1,
                format!(
                    "this line ends with {}, line 1 with {}",
                    end.name(),
                    first_end.map_or("none", LineEnd::name)
                ),
            );
        }
    }
    if lines.last().is_some_and(|l| l.1 == LineEnd::None) {
        r.warn(
            "twoda-text-no-final-newline",
            line_no(lines.len() - 1),
            1,
            "the last line has no line terminator",
        );
    }
}

/// The most common terminator (LF when there is none or on a tie with LF).
fn dominant_end(lines: &[(&[u8], LineEnd)]) -> LineEnd {
    let count = |e: LineEnd| lines.iter().filter(|l| l.1 == e).count();
    let (lf, crlf, cr) = (count(LineEnd::Lf), count(LineEnd::CrLf), count(LineEnd::Cr));
    if crlf > lf && crlf >= cr {
        LineEnd::CrLf
    } else if cr > lf && cr > crlf {
        LineEnd::Cr
    } else {
        LineEnd::Lf
    }
}

struct Reader {
    encoding: Encoding,
    findings: Vec<Finding>,
    items: Vec<TextItem>,
    columns: Option<Vec<String>>,
    rows: Vec<Row>,
    default: Option<String>,
    /// First and last line of the current run of blank lines.
    blank_run: Option<(u32, u32)>,
}

impl Reader {
    fn warn(&mut self, code: &'static str, line: u32, column: u32, msg: impl Into<String>) {
        self.findings
            .push(Finding::warning(code, Place::line_col(line, column), msg));
    }

    fn decode(&self, t: &Token) -> String {
        self.encoding.decode(&t.value)
    }

    /// Findings every non-blank line gets: unclosed quotes, tab separators.
    fn token_findings(&mut self, n: u32, bytes: &[u8], toks: &[Token]) {
        if let Some(t) = toks.iter().find(|t| !t.closed) {
            self.warn(
                "twoda-text-unclosed-quote",
                n,
                t.column,
                "a quote is not closed: the value runs to the end of the line",
            );
        }
        if let Some(i) = unquoted_tab(bytes) {
            self.warn(
                "twoda-text-tab",
                n,
                col(i),
                "a tab separates values (the format asks for spaces; readers accept both)",
            );
        }
    }

    fn line2(&mut self, bytes: &[u8], end: LineEnd) {
        let toks = tokens(bytes);
        self.token_findings(2, bytes, &toks);
        let parsed = match toks.first() {
            None => None,
            Some(t) if !t.quoted && t.value.eq_ignore_ascii_case(b"DEFAULT:") => {
                match toks.get(1) {
                    Some(v) => {
                        if let Some(x) = toks.get(2) {
                            self.warn(
                                "twoda-text-extra-tokens",
                                2,
                                x.column,
                                "text after the default value (ignored, kept)",
                            );
                        }
                        Some(self.decode(v))
                    }
                    None => {
                        self.warn(
                            "twoda-text-default-empty",
                            2,
                            t.column,
                            "`DEFAULT:` without a value: the default is empty",
                        );
                        Some(String::new())
                    }
                }
            }
            Some(t) => {
                self.findings.push(Finding::error(
                    "twoda-text-line2",
                    Place::line_col(2, t.column),
                    "line 2 is neither blank nor `DEFAULT: value`: the game skips it, so the column labels are taken from the next non-blank line",
                ));
                None
            }
        };
        self.default = parsed.clone();
        self.items.push(TextItem::Line2 {
            line: RawLine {
                bytes: bytes.to_vec(),
                end,
            },
            parsed,
        });
    }

    fn close_blank_run(&mut self, at_end: bool) {
        if let Some((a, b)) = self.blank_run.take() {
            let lines = if a == b {
                format!("line {a} is blank")
            } else {
                format!("lines {a}-{b} are blank")
            };
            let msg = if at_end {
                format!("{lines} at the end of the file (kept)")
            } else {
                format!("{lines} (skipped, kept)")
            };
            self.warn("twoda-text-blank-line", a, 1, msg);
        }
    }

    fn line(&mut self, n: u32, bytes: &[u8], end: LineEnd) {
        let raw = || RawLine {
            bytes: bytes.to_vec(),
            end,
        };
        let toks = tokens(bytes);
        if toks.is_empty() {
            self.blank_run = Some(match self.blank_run {
                Some((a, _)) => (a, n),
                None => (n, n),
            });
            self.items.push(TextItem::Verbatim(raw()));
            return;
        }
        self.close_blank_run(false);
        self.token_findings(n, bytes, &toks);
        if self.columns.is_none() {
            let parsed: Vec<String> = toks.iter().map(|t| self.decode(t)).collect();
            self.columns = Some(parsed.clone());
            self.items.push(TextItem::Columns {
                line: raw(),
                parsed,
            });
            return;
        }
        let label = self.decode(&toks[0]);
        let cells: Vec<String> = toks[1..]
            .iter()
            .map(|t| {
                if !t.quoted && t.value == EMPTY_CELL.as_bytes() {
                    String::new()
                } else {
                    self.decode(t)
                }
            })
            .collect();
        self.rows.push(Row {
            label: label.clone(),
            cells: cells.clone(),
            source: Some(RowSource::Text(Box::new(TextRowSource {
                raw: bytes.to_vec(),
                line: n,
                label,
                cells,
            }))),
        });
        self.items.push(TextItem::Row { end });
    }
}

/// The byte index of the first tab outside quotes.
fn unquoted_tab(bytes: &[u8]) -> Option<usize> {
    let mut in_quote = false;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'"' => in_quote = !in_quote,
            b'\t' if !in_quote => return Some(i),
            _ => {}
        }
    }
    None
}

/// A 1-based line number from a 0-based index.
fn line_no(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

/// A 1-based column from a 0-based byte index.
fn col(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}
