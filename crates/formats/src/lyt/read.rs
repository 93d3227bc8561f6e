//! Decoding LYT text into a [`Lyt`].

use super::model::{DoorHook, FileDependency, Layout, Lyt, Placement, Section, Skeleton, Source};
use crate::error::DecodeError;
use crate::finding::{Finding, Place};
use crate::text_lines::{
    self, Eol, RawLine, TextCodes, Token, dominant_eol, has_trailing_whitespace, indent_len,
    line_no, parse_f32, split_lines, tokens,
};

/// The codes of the warnings about the bytes of a LYT file.
const TEXT_CODES: TextCodes = TextCodes {
    bom: "lyt-bom",
    nul_tail: "lyt-nul-tail",
    cr: "lyt-cr-line-endings",
    mixed: "lyt-mixed-line-endings",
    non_ascii: "lyt-non-ascii",
};

/// Decodes a LYT file.
///
/// Reads every line of real files: CRLF, LF or CR line ends (mixed too), tabs, any indentation,
/// keywords in any case, counts that disagree with the lines that follow (the lines decide),
/// text after `donelayout`, a UTF-8 byte-order mark, a NUL byte and whatever follows it (kept,
/// not read), bytes above 0x7F (one character each). Each irregularity becomes a warning in
/// [`Lyt::read_findings`], and the file writes back byte for byte. Errors (with line:column) are
/// kept for lines that cannot be understood: a record with missing or non-numeric fields, a
/// count that is not a number.
///
/// ```
/// use areakit_formats::lyt;
/// let text = b"beginlayout\n   roomcount 1\n      room_a 1.0 2.0 0.0\ndonelayout\n";
/// let l = lyt::read(text).unwrap();
/// assert_eq!(l.rooms[0].name, "room_a");
/// assert_eq!(lyt::write(&l).unwrap(), text);
/// ```
pub fn read(data: &[u8]) -> Result<Lyt, DecodeError> {
    crate::census::decoded("lyt");
    let framed = text_lines::frame(data);
    text_lines::check_text(&framed, "LYT")?;
    let lines = split_lines(framed.text);
    let mut r = Reader {
        lyt: Lyt::default(),
        skeleton: Vec::with_capacity(lines.len()),
        findings: Vec::new(),
        state: State::BeforeBegin,
        section: None,
        open_count: None,
        warned_no_begin: false,
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
    r.close_count();
    let last = line_no(lines.len().saturating_sub(1));
    match r.state {
        State::AfterDone => {}
        State::BeforeBegin => {
            return Err(DecodeError::malformed_text(
                last,
                1,
                "no `beginlayout`, section or `donelayout`: not a LYT",
            ));
        }
        State::InLayout => r.warn(
            "lyt-missing-donelayout",
            last,
            1,
            "the file ends without `donelayout`",
        ),
    }
    if lines.last().is_some_and(|l| l.eol == Eol::None) {
        r.warn(
            "lyt-no-final-newline",
            last,
            1,
            "the last line has no line terminator",
        );
    }
    r.findings.extend(text_findings);
    let mut lyt = r.lyt;
    lyt.layout = Some(Layout {
        lines: r.skeleton,
        default_eol: dominant_eol(&lines),
        frame: framed.frame(),
        findings: r.findings,
    });
    Ok(lyt)
}

/// A count line's count, if any, and its byte span in the line.
type DeclaredCount = (Option<u64>, Option<(usize, usize)>);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    BeforeBegin,
    InLayout,
    AfterDone,
}

struct Reader {
    lyt: Lyt,
    skeleton: Vec<Skeleton>,
    findings: Vec<Finding>,
    state: State,
    section: Option<Section>,
    /// Skeleton index of the open count line, its declared count and its line number.
    open_count: Option<(usize, Option<u64>, u32)>,
    warned_no_begin: bool,
}

fn keyword_section(k: &str) -> Option<Section> {
    match k {
        "roomcount" => Some(Section::Rooms),
        "trackcount" => Some(Section::Tracks),
        "obstaclecount" => Some(Section::Obstacles),
        "doorhookcount" => Some(Section::DoorHooks),
        _ => None,
    }
}

impl Reader {
    fn warn(&mut self, code: &'static str, line: u32, column: u32, msg: impl Into<String>) {
        self.findings
            .push(Finding::warning(code, Place::line_col(line, column), msg));
    }

    fn verbatim(&mut self, line: &RawLine) {
        self.skeleton.push(Skeleton::Verbatim(line.clone()));
    }

    /// Ends the open count block: compares the declared count with the records read.
    fn close_count(&mut self) {
        let Some((idx, declared, line)) = self.open_count.take() else {
            return;
        };
        let records = self.skeleton[idx + 1..]
            .iter()
            .filter(
                |s| matches!(s, Skeleton::Slot { section, .. } if Some(*section) == self.section),
            )
            .count();
        if let Some(Skeleton::Count {
            records_at_read, ..
        }) = self.skeleton.get_mut(idx)
        {
            *records_at_read = records;
        }
        if let Some(d) = declared
            && d != records as u64
        {
            let kw = self.section.map_or("", |s| s.keyword());
            self.warn(
                "lyt-count-mismatch",
                line,
                1,
                format!("`{kw} {d}` but {records} record line(s) follow"),
            );
        }
    }

    fn line(&mut self, n: u32, line: &RawLine) -> Result<(), DecodeError> {
        let toks = tokens(&line.text);
        if toks.is_empty() {
            let msg = if line.text.is_empty() {
                "blank line"
            } else {
                "line holds only whitespace"
            };
            self.warn("lyt-blank-line", n, 1, msg);
            self.verbatim(line);
            return Ok(());
        }
        self.warn_spacing(n, line);
        let first = toks[0];
        if first.text.starts_with('#') {
            self.verbatim(line);
            return Ok(());
        }
        if self.state == State::AfterDone {
            self.warn(
                "lyt-content-after-donelayout",
                n,
                first.column,
                format!("`{}` after `donelayout` (ignored, kept)", first.text),
            );
            self.verbatim(line);
            return Ok(());
        }
        let keyword = first.text.to_ascii_lowercase();
        self.warn_keyword_form(n, &keyword, &toks);
        match keyword.as_str() {
            "beginlayout" => self.begin(n, line, first.column),
            "donelayout" => self.done(n, line, first.column),
            "filedependancy" | "filedependency" => {
                self.file_dependency(n, line, &keyword, &toks)?;
            }
            k if keyword_section(k).is_some() => {
                let Some(section) = keyword_section(k) else {
                    return Ok(());
                };
                self.count_line(section, n, line, &toks)?;
            }
            _ => match self.section {
                Some(section) => self.record(section, n, line, &toks)?,
                // A stray line in a layout is kept (the engine's reader passes over it); a
                // text with no LYT keyword at all is refused at its end (`BeforeBegin`).
                None => {
                    self.warn(
                        "lyt-unknown-line",
                        n,
                        first.column,
                        format!(
                            "`{}` is outside any section (expected a keyword such as `roomcount`); kept as is",
                            first.text
                        ),
                    );
                    self.verbatim(line);
                }
            },
        }
        Ok(())
    }

    /// Whitespace after the last token, tabs in the indentation.
    fn warn_spacing(&mut self, n: u32, line: &RawLine) {
        if has_trailing_whitespace(&line.text) {
            let col = line.text.trim_end().chars().count() + 1;
            self.warn(
                "lyt-trailing-whitespace",
                n,
                u32::try_from(col).unwrap_or(u32::MAX),
                "whitespace after the last token",
            );
        }
        let indent = &line.text[..indent_len(&line.text)];
        if indent.contains('\t') {
            self.warn("lyt-tab-indent", n, 1, "indentation contains a tab");
        }
    }

    /// A keyword (`keyword` is the first token lower-cased) not in lower case, and tokens after
    /// `beginlayout`, `donelayout` or a section's count.
    fn warn_keyword_form(&mut self, n: u32, keyword: &str, toks: &[Token<'_>]) {
        let first = toks[0];
        let is_keyword = matches!(
            keyword,
            "beginlayout" | "donelayout" | "filedependancy" | "filedependency"
        ) || keyword_section(keyword).is_some();
        if is_keyword && first.text != keyword {
            self.warn(
                "lyt-keyword-case",
                n,
                first.column,
                format!("keyword `{}` is not lower case", first.text),
            );
        }
        let stray = match keyword {
            "beginlayout" | "donelayout" => toks.get(1),
            k if keyword_section(k).is_some() => toks.get(2),
            _ => None,
        };
        if let Some(t) = stray {
            self.warn(
                "lyt-extra-tokens",
                n,
                t.column,
                format!("unexpected `{}` after `{}` (kept)", t.text, first.text),
            );
        }
    }

    /// A `beginlayout` line (`column` is the keyword's).
    fn begin(&mut self, n: u32, line: &RawLine, column: u32) {
        self.close_count();
        self.section = None;
        if self.state == State::InLayout {
            self.warn(
                "lyt-duplicate-beginlayout",
                n,
                column,
                "second `beginlayout`",
            );
        }
        self.state = State::InLayout;
        self.skeleton.push(Skeleton::Begin(line.clone()));
    }

    /// A `donelayout` line (`column` is the keyword's).
    fn done(&mut self, n: u32, line: &RawLine, column: u32) {
        self.close_count();
        self.section = None;
        if self.state == State::BeforeBegin {
            self.warn_no_begin(n, column);
        }
        self.state = State::AfterDone;
        self.skeleton.push(Skeleton::End(line.clone()));
    }

    /// A `filedependancy` line (`keyword` is its first token lower-cased).
    fn file_dependency(
        &mut self,
        n: u32,
        line: &RawLine,
        keyword: &str,
        toks: &[Token<'_>],
    ) -> Result<(), DecodeError> {
        let first = toks[0];
        if keyword == "filedependency" {
            self.warn(
                "lyt-keyword-spelling",
                n,
                first.column,
                "the tools spell this keyword `filedependancy`",
            );
        }
        let name = toks.get(1).ok_or_else(|| {
            DecodeError::malformed_text(
                n,
                end_column(&line.text),
                format!("expected a file name after `{}`", first.text),
            )
        })?;
        if let Some(t) = toks.get(2) {
            self.warn(
                "lyt-extra-tokens",
                n,
                t.column,
                format!("unexpected `{}` after the file name", t.text),
            );
        }
        let parsed = FileDependency::new(name.text);
        self.lyt
            .file_dependencies
            .push(Source::attach(parsed, &line.text, n, |d, s| {
                d.source = Some(s)
            }));
        self.skeleton.push(Skeleton::Slot {
            section: Section::FileDependency,
            eol: line.eol,
        });
        Ok(())
    }

    /// A section's count line (`roomcount 3`): opens the section.
    fn count_line(
        &mut self,
        section: Section,
        n: u32,
        line: &RawLine,
        toks: &[Token<'_>],
    ) -> Result<(), DecodeError> {
        let first = toks[0];
        self.close_count();
        if self.state == State::BeforeBegin {
            self.warn_no_begin(n, first.column);
            self.state = State::InLayout;
        }
        let (declared, span) = self.count_value(n, line, toks)?;
        if self
            .skeleton
            .iter()
            .any(|s| matches!(s, Skeleton::Count { section: s2, .. } if *s2 == section))
        {
            self.warn(
                "lyt-duplicate-section",
                n,
                first.column,
                format!(
                    "a second `{}` section (its records are appended)",
                    first.text
                ),
            );
        }
        self.section = Some(section);
        self.open_count = Some((self.skeleton.len(), declared, n));
        self.skeleton.push(Skeleton::Count {
            section,
            line: line.clone(),
            count_span: span,
            records_at_read: 0,
        });
        Ok(())
    }

    /// The count of a count line and its byte span in the line; none (with a warning) when the
    /// line has no count.
    fn count_value(
        &mut self,
        n: u32,
        line: &RawLine,
        toks: &[Token<'_>],
    ) -> Result<DeclaredCount, DecodeError> {
        let first = toks[0];
        match toks.get(1) {
            None => {
                self.warn(
                    "lyt-missing-count",
                    n,
                    end_column(&line.text),
                    format!("`{}` without a count", first.text),
                );
                Ok((None, None))
            }
            Some(t) => {
                let v = t.text.parse::<u64>().map_err(|_| {
                    DecodeError::malformed_text(
                        n,
                        t.column,
                        format!(
                            "expected a non-negative integer count after `{}`, found `{}`",
                            first.text, t.text
                        ),
                    )
                })?;
                let start = byte_offset(&line.text, t);
                Ok((Some(v), Some((start, start + t.text.len()))))
            }
        }
    }

    fn warn_no_begin(&mut self, n: u32, column: u32) {
        if !self.warned_no_begin {
            self.warned_no_begin = true;
            self.warn(
                "lyt-missing-beginlayout",
                n,
                column,
                "section before any `beginlayout`",
            );
        }
    }

    fn record(
        &mut self,
        section: Section,
        n: u32,
        line: &RawLine,
        toks: &[Token<'_>],
    ) -> Result<(), DecodeError> {
        let what = match section {
            Section::Rooms => "room",
            Section::Tracks => "track",
            Section::Obstacles => "obstacle",
            _ => "door hook",
        };
        let field = |i: usize, name: &str| -> Result<f32, DecodeError> {
            let t = toks.get(i).ok_or_else(|| {
                DecodeError::malformed_text(
                    n,
                    end_column(&line.text),
                    format!("{what} line ends early: expected {name}"),
                )
            })?;
            parse_f32(t.text).ok_or_else(|| {
                DecodeError::malformed_text(
                    n,
                    t.column,
                    format!(
                        "expected a finite number for the {what}'s {name}, found `{}`",
                        t.text
                    ),
                )
            })
        };
        if section == Section::DoorHooks {
            let door = toks.get(1).ok_or_else(|| {
                DecodeError::malformed_text(
                    n,
                    end_column(&line.text),
                    "door hook line ends early: expected the door name",
                )
            })?;
            let unknown = match toks.get(2) {
                None => {
                    return Err(DecodeError::malformed_text(
                        n,
                        end_column(&line.text),
                        "door hook line ends early: expected the integer after the door name",
                    ));
                }
                Some(t) => t.text.parse::<i32>().map_err(|_| {
                    DecodeError::malformed_text(
                        n,
                        t.column,
                        format!(
                            "expected an integer after the door name, found `{}`",
                            t.text
                        ),
                    )
                })?,
            };
            let position = [field(3, "x")?, field(4, "y")?, field(5, "z")?];
            let orientation = [
                field(6, "quaternion w")?,
                field(7, "quaternion x")?,
                field(8, "quaternion y")?,
                field(9, "quaternion z")?,
            ];
            let mut extra = Vec::new();
            for i in 10..toks.len() {
                extra.push(field(i, "extra value")?);
            }
            let parsed = DoorHook {
                room: toks[0].text.to_string(),
                door: door.text.to_string(),
                unknown,
                position,
                orientation,
                extra,
                source: None,
            };
            self.lyt
                .doorhooks
                .push(Source::attach(parsed, &line.text, n, |h, s| {
                    h.source = Some(s)
                }));
        } else {
            let position = [field(1, "x")?, field(2, "y")?, field(3, "z")?];
            let extra: Vec<String> = toks[4.min(toks.len())..]
                .iter()
                .map(|t| t.text.to_string())
                .collect();
            if let Some(t) = toks.get(4) {
                self.warn(
                    "lyt-extra-tokens",
                    n,
                    t.column,
                    format!("unexpected `{}` after the {what}'s x y z (kept)", t.text),
                );
            }
            let parsed = Placement {
                name: toks[0].text.to_string(),
                position,
                extra,
                source: None,
            };
            let rec = Source::attach(parsed, &line.text, n, |r, s| r.source = Some(s));
            match section {
                Section::Rooms => self.lyt.rooms.push(rec),
                Section::Tracks => self.lyt.tracks.push(rec),
                _ => self.lyt.obstacles.push(rec),
            }
        }
        self.skeleton.push(Skeleton::Slot {
            section,
            eol: line.eol,
        });
        Ok(())
    }
}

/// The byte offset of a token inside its line (columns count one char per input byte).
fn byte_offset(line: &str, t: &Token<'_>) -> usize {
    line.char_indices()
        .nth(t.column as usize - 1)
        .map_or(line.len(), |(i, _)| i)
}

/// The column just after the last char of the line.
fn end_column(line: &str) -> u32 {
    u32::try_from(line.trim_end().chars().count() + 1).unwrap_or(u32::MAX)
}

/// Whether a warning about the bytes goes before the findings of line `n`: it is on an earlier
/// line, or at the start of line `n` (the byte-order mark, a line end differing from the first).
fn before(f: &Finding, n: u32) -> bool {
    f.place.line < Some(n) || (f.place.line == Some(n) && f.place.column <= Some(1))
}
