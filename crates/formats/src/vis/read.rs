//! Decoding VIS text into a [`Vis`].

use super::model::{ChildSource, ParentSource, Vis, VisLayout, VisRoom};
use crate::error::DecodeError;
use crate::finding::{Finding, Place};
use crate::text_lines::{
    self, Eol, RawLine, TextCodes, Token, dominant_eol, has_trailing_whitespace, indent_len,
    line_no, split_lines, tokens,
};

/// The codes of the warnings about the bytes of a VIS file.
const TEXT_CODES: TextCodes = TextCodes {
    bom: "vis-bom",
    nul_tail: "vis-nul-tail",
    cr: "vis-cr-line-endings",
    mixed: "vis-mixed-line-endings",
    non_ascii: "vis-non-ascii",
};

/// Decodes a VIS file.
///
/// A line `NAME COUNT` starts a parent entry; the lines after it name the rooms visible from
/// it. Real files are read whole: counts that disagree with the lines that follow (the lines
/// decide), parents without a count, children at column 1, blank and whitespace-only lines,
/// CRLF, LF or CR line ends (mixed too), a UTF-8 byte-order mark, a NUL byte and whatever follows
/// it (the end of the text: kept, not read), bytes above 0x7F (one character each). Each
/// irregularity becomes a warning in [`Vis::read_findings`]; no name is dropped, and the file
/// writes back byte for byte.
///
/// How a line is classified (see `docs/formats/vis.md`):
/// - `NAME N` (second token an integer) is a parent, except when it is indented while the
///   current parent still expects children: then it is a child with a stray token;
/// - a single token is a child when indented or while the current parent expects children;
///   otherwise (at column 1, no child expected) it is a parent without a count.
///
/// Errors (with line:column): a child before any parent; an unindented `NAME X` line whose
/// second token is not a count.
///
/// ```
/// use areakit_formats::vis;
/// let v = vis::read(b"room_a 1\n  room_b\nroom_b 0\n").unwrap();
/// assert!(v.is_visible("ROOM_A", "room_b"));
/// assert!(!v.is_visible("room_b", "room_a"));
/// ```
pub fn read(data: &[u8]) -> Result<Vis, DecodeError> {
    crate::census::decoded("vis");
    let framed = text_lines::frame(data);
    text_lines::check_text(&framed, "VIS")?;
    let lines = split_lines(framed.text);
    let mut r = Reader {
        vis: Vis::default(),
        findings: Vec::new(),
        declared: None,
        pending: Vec::new(),
    };
    // The warnings about the bytes (byte-order mark, line ends, bytes above 0x7F, NUL tail)
    // go in line order among the others.
    let mut text_findings = text_lines::text_findings(&framed, &TEXT_CODES)
        .into_iter()
        .peekable();
    for (i, line) in lines.iter().enumerate() {
        let n = line_no(i);
        while let Some(f) = text_findings.next_if(|f| before(f, n)) {
            r.findings.push(f);
        }
        r.line(n, line)?;
    }
    r.close();
    let mut findings = r.findings;
    if lines.last().is_some_and(|l| l.eol == Eol::None) {
        warn(
            &mut findings,
            "vis-no-final-newline",
            line_no(lines.len() - 1),
            1,
            "the last line has no line terminator".into(),
        );
    }
    findings.extend(text_findings);
    let mut vis = r.vis;
    vis.layout = Some(VisLayout {
        trailing: r.pending,
        default_eol: dominant_eol(&lines),
        frame: framed.frame(),
        findings,
    });
    Ok(vis)
}

/// The state of a read: the rooms so far, the findings, the current parent's declared count
/// and the lines (blank) waiting for the next entry.
struct Reader {
    vis: Vis,
    findings: Vec<Finding>,
    /// Declared count and its column for the current parent.
    declared: Option<(u64, u32)>,
    pending: Vec<RawLine>,
}

impl Reader {
    /// Ends the current parent: compares its declared count with the children read.
    fn close(&mut self) {
        if let (Some(room), Some((d, col))) = (self.vis.rooms.last(), self.declared) {
            let found = room.visible.len() as u64;
            if d != found {
                warn(
                    &mut self.findings,
                    "vis-count-mismatch",
                    room.line().unwrap_or(0),
                    col,
                    format!(
                        "`{}` declares {d} visible room(s) but {found} line(s) follow",
                        room.name
                    ),
                );
            }
        }
    }

    /// Reads line `n`.
    fn line(&mut self, n: u32, line: &RawLine) -> Result<(), DecodeError> {
        let toks = tokens(&line.text);
        if toks.is_empty() {
            let msg = if line.text.is_empty() {
                "blank line"
            } else {
                "line holds only whitespace"
            };
            warn(&mut self.findings, "vis-blank-line", n, 1, msg.into());
            self.pending.push(line.clone());
            return Ok(());
        }
        let indented = self.warn_spacing(n, line);
        let count = toks.get(1).and_then(|t| t.text.parse::<u64>().ok());
        if self.is_parent(n, &toks, indented, count)? {
            self.parent(n, line, &toks, indented, count)
        } else {
            self.child(n, line, &toks, indented)
        }
    }

    /// Whitespace after the last token, tabs in the indentation; whether the line is indented.
    fn warn_spacing(&mut self, n: u32, line: &RawLine) -> bool {
        if has_trailing_whitespace(&line.text) {
            let col = line.text.trim_end().chars().count() + 1;
            warn(
                &mut self.findings,
                "vis-trailing-whitespace",
                n,
                u32::try_from(col).unwrap_or(u32::MAX),
                "whitespace after the last token".into(),
            );
        }
        let indent = indent_len(&line.text);
        if line.text.chars().take(indent).any(|c| c == '\t') {
            warn(
                &mut self.findings,
                "vis-tab-indent",
                n,
                1,
                "indentation contains a tab".into(),
            );
        }
        indent > 0
    }

    /// Whether a line of tokens `toks` starts a parent entry (`count`: its second token as a
    /// count); see [`read`].
    fn is_parent(
        &self,
        n: u32,
        toks: &[Token<'_>],
        indented: bool,
        count: Option<u64>,
    ) -> Result<bool, DecodeError> {
        let expecting = match (self.vis.rooms.last(), self.declared) {
            (Some(r), Some((d, _))) => (r.visible.len() as u64) < d,
            _ => false,
        };
        Ok(match (toks.len(), count) {
            (1, _) => !indented && !expecting,
            (_, Some(_)) => !(indented && expecting),
            (_, None) => {
                if !indented && !expecting {
                    return Err(DecodeError::malformed_text(
                        n,
                        toks[1].column,
                        format!(
                            "expected the number of rooms visible from `{}`, found `{}`",
                            toks[0].text, toks[1].text
                        ),
                    ));
                }
                false
            }
        })
    }

    /// A parent entry `NAME COUNT`.
    fn parent(
        &mut self,
        n: u32,
        line: &RawLine,
        toks: &[Token<'_>],
        indented: bool,
        count: Option<u64>,
    ) -> Result<(), DecodeError> {
        self.close();
        if toks.len() == 1 {
            // No corpus file has one; a lone word is no VIS entry (`hello`).
            return Err(DecodeError::malformed_text(
                n,
                end_column(&line.text),
                format!(
                    "expected the number of rooms visible from `{}` after it",
                    toks[0].text
                ),
            ));
        }
        self.declared = count.map(|c| (c, toks[1].column));
        if let Some(t) = toks.get(2) {
            warn(
                &mut self.findings,
                "vis-extra-tokens",
                n,
                t.column,
                format!("unexpected `{}` after the count (kept)", t.text),
            );
        }
        if indented {
            warn(
                &mut self.findings,
                "vis-parent-indented",
                n,
                1,
                format!("room entry `{}` is indented", toks[0].text),
            );
        }
        let mut room = VisRoom::new(toks[0].text);
        room.source = Some(Box::new(ParentSource {
            name: toks[0].text.to_string(),
            text: line.text.clone(),
            eol: line.eol,
            line: n,
            children_at_read: 0,
            leading: std::mem::take(&mut self.pending),
            children: Vec::new(),
        }));
        self.vis.rooms.push(room);
        Ok(())
    }

    /// A visible room of the current parent.
    fn child(
        &mut self,
        n: u32,
        line: &RawLine,
        toks: &[Token<'_>],
        indented: bool,
    ) -> Result<(), DecodeError> {
        let Some(room) = self.vis.rooms.last_mut() else {
            return Err(DecodeError::malformed_text(
                n,
                toks[0].column,
                format!(
                    "expected a room entry `NAME COUNT` before the visible room `{}`",
                    toks[0].text
                ),
            ));
        };
        if !indented {
            warn(
                &mut self.findings,
                "vis-child-not-indented",
                n,
                1,
                format!("visible room `{}` starts at column 1", toks[0].text),
            );
        }
        if let Some(t) = toks.get(1) {
            warn(
                &mut self.findings,
                "vis-extra-tokens",
                n,
                t.column,
                format!(
                    "unexpected `{}` after the visible room `{}` (kept)",
                    t.text, toks[0].text
                ),
            );
        }
        room.visible.push(toks[0].text.to_string());
        if let Some(src) = room.source.as_mut() {
            src.children_at_read += 1;
            src.children.push(ChildSource {
                name: toks[0].text.to_string(),
                text: line.text.clone(),
                eol: line.eol,
                line: n,
                leading: std::mem::take(&mut self.pending),
            });
        }
        Ok(())
    }
}

/// The column just after the last char of the line.
fn end_column(line: &str) -> u32 {
    u32::try_from(line.trim_end().chars().count() + 1).unwrap_or(u32::MAX)
}

fn warn(findings: &mut Vec<Finding>, code: &'static str, line: u32, column: u32, msg: String) {
    findings.push(Finding::warning(code, Place::line_col(line, column), msg));
}

/// Whether a warning about the bytes goes before the findings of line `n`: it is on an earlier
/// line, or at the start of line `n` (the byte-order mark, a line end differing from the first).
fn before(f: &Finding, n: u32) -> bool {
    f.place.line < Some(n) || (f.place.line == Some(n) && f.place.column <= Some(1))
}
