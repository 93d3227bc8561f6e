//! The text layer shared by every text format (LYT, VIS, MDL ASCII and the ASCII walkmeshes
//! it carries): framing, line splitting, decoding, tokens.
//!
//! A text reader starts with [`frame`], which sets aside what is not text: a UTF-8 byte-order
//! mark at the start, and everything from the first NUL byte to the end of the file (the C-string
//! terminator some exporters write after the last line, and any padding after it). The reader
//! keeps both in its model so the writer puts them back byte for byte, and reports them with the
//! other irregularities of the bytes ([`text_findings`]: CR-only and mixed line ends, bytes
//! above 0x7F) as warnings: none of them stops a file from being read.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r` ([`line_at`]), each line keeping its terminator.
//! Text is decoded byte-for-char (ISO 8859-1), so every input decodes and encodes back to the
//! same bytes: Windows-1252 bytes in names and comments survive a round trip, and names compare
//! case-insensitively on their ASCII letters only.

use crate::error::{DecodeError, EncodeError};
use crate::finding::{Finding, Place};

/// The terminator of a line as found in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Eol {
    /// `\n`.
    #[default]
    Lf,
    /// `\r\n`.
    CrLf,
    /// A lone `\r` (classic Mac OS).
    Cr,
    /// The last line of an input that does not end with a terminator.
    None,
}

impl Eol {
    /// The terminator's text.
    pub const fn as_str(self) -> &'static str {
        match self {
            Eol::Lf => "\n",
            Eol::CrLf => "\r\n",
            Eol::Cr => "\r",
            Eol::None => "",
        }
    }

    /// The terminator's name in messages (`LF`, `CRLF`, `CR`, `none`).
    pub const fn name(self) -> &'static str {
        match self {
            Eol::Lf => "LF",
            Eol::CrLf => "CRLF",
            Eol::Cr => "CR",
            Eol::None => "none",
        }
    }
}

/// One input line without its terminator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawLine {
    pub text: String,
    pub eol: Eol,
}

/// The UTF-8 byte-order mark.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A text file split into what a reader reads and what it only keeps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Framed<'a> {
    /// Whether the file starts with a UTF-8 byte-order mark.
    pub bom: bool,
    /// The text: after the byte-order mark, up to the first NUL byte (or the end).
    pub text: &'a [u8],
    /// From the first NUL byte to the end of the file (empty when there is no NUL).
    pub tail: &'a [u8],
}

impl Framed<'_> {
    /// Offset of the text in the file (3 after a byte-order mark, else 0).
    pub fn text_start(&self) -> usize {
        if self.bom { BOM.len() } else { 0 }
    }

    /// Offset of the tail in the file (the first NUL byte), or the file length.
    pub fn text_end(&self) -> usize {
        self.text_start() + self.text.len()
    }

    /// The owned part a writer puts around the text.
    pub fn frame(&self) -> Frame {
        Frame {
            bom: self.bom,
            tail: self.tail.to_vec(),
        }
    }
}

/// What a model read from a file keeps around its text: the byte-order mark and the NUL tail.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Frame {
    /// Whether the file started with a UTF-8 byte-order mark.
    pub bom: bool,
    /// The bytes from the first NUL byte to the end of the file.
    pub tail: Vec<u8>,
}

impl Frame {
    /// `text` with the byte-order mark before it and the tail after it.
    pub fn wrap(&self, text: Vec<u8>) -> Vec<u8> {
        if !self.bom && self.tail.is_empty() {
            return text;
        }
        let mut out = Vec::with_capacity(BOM.len() + text.len() + self.tail.len());
        if self.bom {
            out.extend_from_slice(BOM);
        }
        out.extend_from_slice(&text);
        out.extend_from_slice(&self.tail);
        out
    }
}

/// The 1-based line and column of byte `offset` of `text` (lines end at LF, CRLF or a lone CR;
/// a column counts bytes).
pub(crate) fn line_col(text: &[u8], offset: usize) -> (u32, u32) {
    let mut line = 1u32;
    let mut start = 0;
    while start < text.len() {
        let l = line_at(text, start);
        if offset < l.next || l.next <= start {
            break;
        }
        start = l.next;
        line = line.saturating_add(1);
    }
    let column = u32::try_from(offset.saturating_sub(start) + 1).unwrap_or(u32::MAX);
    (line, column)
}

/// Refuses bytes that are no text: a control character in the text (other than tab, line
/// ends, vertical tab and form feed), or a file whose text is blank while bytes other than NUL
/// follow its first NUL (garbage, not a NUL-padded text). `what` names the format. What real
/// files carry stays: a byte-order mark, a NUL tail after the text, bytes 0x80–0xFF.
pub(crate) fn check_text(f: &Framed<'_>, what: &str) -> Result<(), DecodeError> {
    let control =
        |b: u8| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) || b == 0x7f;
    if let Some(at) = f.text.iter().position(|&b| control(b)) {
        let (line, column) = line_col(f.text, at);
        return Err(DecodeError::malformed_text(
            line,
            column,
            format!(
                "byte 0x{:02X} is a control character, not {what} text",
                f.text[at]
            ),
        ));
    }
    if f.text.iter().all(|b| b.is_ascii_whitespace()) && f.tail.iter().any(|&b| b != 0) {
        let (line, column) = line_col(f.text, f.text.len());
        return Err(DecodeError::malformed_text(
            line,
            column,
            format!("no {what} text: the file starts with a NUL byte and other bytes follow"),
        ));
    }
    Ok(())
}

/// Splits a text file: the byte-order mark, the text, the tail from the first NUL byte.
pub(crate) fn frame(data: &[u8]) -> Framed<'_> {
    let bom = data.starts_with(BOM);
    let body = if bom { &data[BOM.len()..] } else { data };
    let (text, tail) = body.split_at(find_nul(body).unwrap_or(body.len()));
    Framed { bom, text, tail }
}

/// The offset of the first NUL byte, a word at a time.
pub(crate) fn find_nul(input: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let mut chunks = input.chunks_exact(8);
    let mut i = 0;
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        let x = u64::from_le_bytes(w);
        if x.wrapping_sub(LO) & !x & HI != 0 {
            return c.iter().position(|&b| b == 0).map(|p| i + p);
        }
        i += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == 0)
        .map(|p| i + p)
}

/// A line of a text: its byte range without the terminator, and where the next line starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line {
    /// Offset of the first byte of the line.
    pub start: usize,
    /// Offset one past the last content byte (before the terminator).
    pub end: usize,
    /// Offset of the first byte of the next line (after the terminator).
    pub next: usize,
    /// The terminator.
    pub eol: Eol,
}

/// The line starting at `start`: it ends at the first `\n`, `\r\n` or lone `\r`, or at the end
/// of `text` ([`Eol::None`]). A `start` at or past the end gives an empty last line.
#[inline]
pub(crate) fn line_at(text: &[u8], start: usize) -> Line {
    let rest = text.get(start..).unwrap_or_default();
    match find_eol(rest) {
        Some(i) => {
            let end = start + i;
            let (next, eol) = if rest[i] == b'\n' {
                (end + 1, Eol::Lf)
            } else if rest.get(i + 1) == Some(&b'\n') {
                (end + 2, Eol::CrLf)
            } else {
                (end + 1, Eol::Cr)
            };
            Line {
                start,
                end,
                next,
                eol,
            }
        }
        None => {
            let end = start.max(text.len());
            Line {
                start,
                end,
                next: end,
                eol: Eol::None,
            }
        }
    }
}

/// Every line of `text`, in order (none for an empty text).
pub(crate) fn lines(text: &[u8]) -> impl Iterator<Item = Line> + '_ {
    let mut pos = 0;
    std::iter::from_fn(move || {
        (pos < text.len()).then(|| {
            let l = line_at(text, pos);
            pos = l.next;
            l
        })
    })
}

/// The offset of each line's first byte (`[0]` for an empty text).
pub(crate) fn line_starts(text: &[u8]) -> Vec<usize> {
    let mut out = vec![0];
    out.extend(lines(text).map(|l| l.next).filter(|&n| n < text.len()));
    out
}

/// Position of the first `\n` or `\r`, a word at a time.
#[inline]
fn find_eol(hay: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    const NL: u64 = LO * b'\n' as u64;
    const CR: u64 = LO * b'\r' as u64;
    let mut i = 0;
    let mut chunks = hay.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        let w = u64::from_le_bytes(w);
        let (a, b) = (w ^ NL, w ^ CR);
        // The lowest flagged byte of each zero-byte mask is exact (false positives only occur
        // above a true zero byte of the same mask), so the lowest flag of the union is too.
        let found = ((a.wrapping_sub(LO) & !a) | (b.wrapping_sub(LO) & !b)) & HI;
        if found != 0 {
            return Some(i + (found.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map(|p| i + p)
}

/// Decodes bytes one char per byte (ISO 8859-1): lossless for any input.
pub(crate) fn decode(data: &[u8]) -> String {
    match std::str::from_utf8(data) {
        Ok(s) if data.is_ascii() => s.to_owned(),
        _ => data.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Encodes text decoded by [`decode`] (or edited with chars up to U+00FF) back to bytes.
pub(crate) fn encode(text: &str, what: &str) -> Result<Vec<u8>, EncodeError> {
    text.chars()
        .map(|c| {
            u8::try_from(u32::from(c)).map_err(|_| {
                EncodeError(format!(
                    "{what}: character {c:?} cannot be written (only single-byte characters)"
                ))
            })
        })
        .collect()
}

/// Splits text into decoded lines ([`line_at`]). An input ending with a terminator has no empty
/// last line.
pub(crate) fn split_lines(text: &[u8]) -> Vec<RawLine> {
    lines(text)
        .map(|l| RawLine {
            text: decode(&text[l.start..l.end]),
            eol: l.eol,
        })
        .collect()
}

/// The terminator used by most lines (LF when there is none; on a tie LF, then CRLF).
pub(crate) fn dominant_eol(lines: &[RawLine]) -> Eol {
    let count = |e: Eol| lines.iter().filter(|l| l.eol == e).count();
    let (lf, crlf, cr) = (count(Eol::Lf), count(Eol::CrLf), count(Eol::Cr));
    if cr > lf && cr > crlf {
        Eol::Cr
    } else if crlf > lf {
        Eol::CrLf
    } else {
        Eol::Lf
    }
}

/// The finding codes one text format uses for what [`text_findings`] reports.
pub(crate) struct TextCodes {
    /// A UTF-8 byte-order mark at the start.
    pub bom: &'static str,
    /// A NUL byte and what follows it.
    pub nul_tail: &'static str,
    /// Lines ending with a lone CR.
    pub cr: &'static str,
    /// Line ends of more than one kind.
    pub mixed: &'static str,
    /// Bytes above 0x7F.
    pub non_ascii: &'static str,
}

/// The warnings about a framed text's bytes, in line order: a byte-order mark (line 1), the
/// first line whose terminator differs from the first line's, the first line ending with a
/// lone CR, the first byte above 0x7F, and the NUL tail (at the NUL's line and column). Each
/// is reported once per file, with a count where there are several.
pub(crate) fn text_findings(f: &Framed<'_>, codes: &TextCodes) -> Vec<Finding> {
    let mut out: Vec<(u32, u32, Finding)> = Vec::new();
    let mut push = |line: u32, column: u32, code: &'static str, msg: String| {
        out.push((
            line,
            column,
            Finding::warning(code, Place::line_col(line, column), msg),
        ));
    };
    if f.bom {
        push(
            1,
            1,
            codes.bom,
            "UTF-8 byte-order mark before the first line: not part of the text, kept".into(),
        );
    }
    let mut first_eol: Option<Eol> = None;
    let mut mixed = false;
    let (mut cr_lines, mut cr_first) = (0usize, 0u32);
    let (mut high, mut high_first) = (0usize, None::<(u32, u32, u8)>);
    let mut n = 0u32;
    let mut last: Option<Line> = None;
    for (i, l) in lines(f.text).enumerate() {
        n = line_no(i);
        last = Some(l);
        if l.eol != Eol::None {
            match first_eol {
                None => first_eol = Some(l.eol),
                Some(e) if e != l.eol && !mixed => {
                    mixed = true;
                    push(
                        n,
                        1,
                        codes.mixed,
                        format!(
                            "line ends differ from the first line's ({} here, {} on line 1); each line keeps its own",
                            l.eol.name(),
                            e.name()
                        ),
                    );
                }
                _ => {}
            }
        }
        if l.eol == Eol::Cr {
            cr_lines += 1;
            if cr_lines == 1 {
                cr_first = n;
            }
        }
        let content = &f.text[l.start..l.end];
        if !content.is_ascii() {
            let k = content.iter().filter(|&&b| b >= 0x80).count();
            if high == 0
                && let Some(p) = content.iter().position(|&b| b >= 0x80)
            {
                high_first = Some((n, column(p), content[p]));
            }
            high += k;
        }
    }
    if cr_lines > 0 {
        push(
            cr_first,
            1,
            codes.cr,
            format!(
                "{cr_lines} line(s) end with a lone CR (classic Mac OS line ends), the first here: read as line ends, kept"
            ),
        );
    }
    if let Some((line, col, b)) = high_first {
        push(
            line,
            col,
            codes.non_ascii,
            format!(
                "{high} byte(s) above 0x7F, the first here (0x{b:02X}): read as one character each (Windows-1252 text), written back unchanged"
            ),
        );
    }
    if !f.tail.is_empty() {
        let (line, col) = match last {
            None => (1, 1),
            Some(l) if l.eol != Eol::None => (n.saturating_add(1), 1),
            Some(l) => (n, column(l.end - l.start)),
        };
        let text_after = f.tail.iter().any(|&b| b != 0 && !b.is_ascii_whitespace());
        push(
            line,
            col,
            codes.nul_tail,
            format!(
                "a NUL byte ends the text here (a C-string terminator); the {} byte(s) from it to the end of the file are kept, not read{}",
                f.tail.len(),
                if text_after {
                    " (they include text after the NUL)"
                } else {
                    ""
                }
            ),
        );
    }
    out.sort_by_key(|(l, c, _)| (*l, *c));
    out.into_iter().map(|(_, _, f)| f).collect()
}

/// A 1-based column from a 0-based byte index.
fn column(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

/// A whitespace-separated token with its 1-based byte column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    pub text: &'a str,
    pub column: u32,
}

/// Whether `c` separates tokens: ASCII space, tab, vertical tab, form feed, carriage return
/// (and line feed, which ends the line). Latin-1 spaces (U+0085, U+00A0) are part of tokens.
pub(crate) fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\x0b' | '\x0c' | '\r' | '\n')
}

/// Whether `name` can be written as one token: not empty, no separator.
pub(crate) fn is_token(name: &str) -> bool {
    !name.is_empty() && !name.chars().any(is_separator)
}

/// Splits a line at ASCII whitespace (space, tab, vertical tab, form feed, carriage return).
pub(crate) fn tokens(line: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    // (byte offset, 1-based column) of the current token's start; columns count chars (= bytes
    // of the original input, one char per byte), kept as a running count: linear time.
    let mut start: Option<(usize, usize)> = None;
    for (column, (i, c)) in (1..).zip(line.char_indices()) {
        match (is_separator(c), start) {
            (true, Some((s, col))) => {
                out.push(token(line, s, i, col));
                start = None;
            }
            (false, None) => start = Some((i, column)),
            _ => {}
        }
    }
    if let Some((s, col)) = start {
        out.push(token(line, s, line.len(), col));
    }
    out
}

fn token(line: &str, start: usize, end: usize, column: usize) -> Token<'_> {
    Token {
        text: &line[start..end],
        column: u32::try_from(column).unwrap_or(u32::MAX),
    }
}

/// The 1-based column of the first char after the leading whitespace (1 when none).
pub(crate) fn indent_len(line: &str) -> usize {
    line.chars()
        .take_while(|c| matches!(c, ' ' | '\t' | '\x0b' | '\x0c' | '\r'))
        .count()
}

/// Whether the line has whitespace after its last token.
pub(crate) fn has_trailing_whitespace(line: &str) -> bool {
    !line.trim().is_empty() && line.ends_with([' ', '\t', '\x0b', '\x0c', '\r'])
}

/// A 1-based line number from a 0-based index.
pub(crate) fn line_no(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

/// Parses a finite decimal float as the tools write them (`1.0`, `-0.5`, `3.84015e-007`).
pub(crate) fn parse_f32(text: &str) -> Option<f32> {
    let ok = text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    if !ok {
        return None;
    }
    text.parse::<f32>().ok().filter(|v| v.is_finite())
}

/// Formats a float the way the tools do: shortest round-trip text, with `.0` on integers.
pub(crate) fn format_f32(v: f32) -> String {
    let s = format!("{v}");
    if s.contains(['.', 'e', 'E', 'i', 'N']) {
        s
    } else {
        format!("{s}.0")
    }
}

/// Collects output lines, adding a terminator to a previous unterminated line when another
/// line follows it.
pub(crate) struct LineWriter {
    out: String,
    pending: bool,
    default_eol: Eol,
}

impl LineWriter {
    pub fn new(default_eol: Eol) -> Self {
        LineWriter {
            out: String::new(),
            pending: false,
            default_eol,
        }
    }

    /// The terminator for new lines.
    pub fn default_eol(&self) -> Eol {
        self.default_eol
    }

    /// Appends a line and its terminator.
    pub fn line(&mut self, text: &str, eol: Eol) {
        if self.pending {
            self.out.push_str(self.default_eol.as_str());
        }
        self.out.push_str(text);
        self.out.push_str(eol.as_str());
        self.pending = eol == Eol::None;
    }

    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_terminators() {
        let lines = split_lines(b"a\r\nb\nc");
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].eol, Eol::CrLf);
        assert_eq!(lines[1].eol, Eol::Lf);
        assert_eq!(lines[2].eol, Eol::None);
        assert_eq!(split_lines(b"a\n").len(), 1);
        assert!(split_lines(b"").is_empty());
    }

    #[test]
    fn lone_cr_ends_a_line() {
        let lines = split_lines(b"a\rb\r\n\rc\r");
        let got: Vec<_> = lines.iter().map(|l| (l.text.as_str(), l.eol)).collect();
        assert_eq!(
            got,
            [
                ("a", Eol::Cr),
                ("b", Eol::CrLf),
                ("", Eol::Cr),
                ("c", Eol::Cr)
            ]
        );
        assert_eq!(line_starts(b"a\rb\r\n\rc\r"), [0, 2, 5, 6]);
        // Word-at-a-time search: terminators in every position of a word, and in the tail.
        for at in 0..20 {
            for t in [b'\n', b'\r'] {
                let mut text = vec![b'x'; 20];
                text[at] = t;
                let l = line_at(&text, 0);
                assert_eq!((l.end, l.next), (at, at + 1), "{at} {t}");
            }
        }
        assert_eq!(line_at(b"ab", 5).eol, Eol::None);
    }

    #[test]
    fn frame_sets_aside_bom_and_nul_tail() {
        let f = frame(b"\xEF\xBB\xBFab\n\0\0x");
        assert!(f.bom);
        assert_eq!((f.text, f.tail), (&b"ab\n"[..], &b"\0\0x"[..]));
        assert_eq!((f.text_start(), f.text_end()), (3, 6));
        assert_eq!(
            f.frame().wrap(f.text.to_vec()),
            b"\xEF\xBB\xBFab\n\0\0x".to_vec()
        );
        let f = frame(b"ab");
        assert!(!f.bom && f.tail.is_empty() && f.text == b"ab");
        // A BOM is only a BOM at the start; a NUL anywhere ends the text.
        let f = frame(b"\0\xEF\xBB\xBF");
        assert!(!f.bom && f.text.is_empty() && f.tail.len() == 4);
        for at in 0..20 {
            let mut v = vec![b'a'; 20];
            v[at] = 0;
            assert_eq!(find_nul(&v), Some(at));
        }
    }

    const CODES: TextCodes = TextCodes {
        bom: "t-bom",
        nul_tail: "t-nul",
        cr: "t-cr",
        mixed: "t-mixed",
        non_ascii: "t-high",
    };

    fn text_codes(data: &[u8]) -> Vec<(&'static str, Option<u32>, Option<u32>)> {
        text_findings(&frame(data), &CODES)
            .iter()
            .map(|f| {
                assert_eq!(f.severity, crate::Severity::Warning);
                (f.code, f.place.line, f.place.column)
            })
            .collect()
    }

    #[test]
    fn text_findings_in_line_order() {
        assert!(text_codes(b"a\r\nb\r\n").is_empty());
        assert_eq!(
            text_codes(b"\xEF\xBB\xBFa\nb \x80\x81\rc\r\nd\n\0"),
            [
                ("t-bom", Some(1), Some(1)),
                ("t-mixed", Some(2), Some(1)),
                ("t-cr", Some(2), Some(1)),
                ("t-high", Some(2), Some(3)),
                ("t-nul", Some(5), Some(1)),
            ]
        );
        assert_eq!(text_codes(b"abc\0"), [("t-nul", Some(1), Some(4))]);
        assert_eq!(text_codes(b"\0"), [("t-nul", Some(1), Some(1))]);
        assert_eq!(text_codes(b"a\rb\r"), [("t-cr", Some(1), Some(1))]);
    }

    #[test]
    fn tokens_have_columns() {
        let t = tokens("\t  ab  c ");
        assert_eq!(t.len(), 2);
        assert_eq!((t[0].text, t[0].column), ("ab", 4));
        assert_eq!((t[1].text, t[1].column), ("c", 8));
    }

    #[test]
    fn floats() {
        assert_eq!(parse_f32("3.84015e-007"), Some(3.84015e-7));
        assert_eq!(parse_f32("inf"), None);
        assert_eq!(parse_f32("1e39"), None);
        assert_eq!(parse_f32("0x1"), None);
        assert_eq!(format_f32(0.0), "0.0");
        assert_eq!(format_f32(190.45), "190.45");
        assert_eq!(format_f32(-3.0), "-3.0");
    }

    #[test]
    fn latin1_round_trip() {
        let bytes: Vec<u8> = (0..=255).collect();
        assert_eq!(encode(&decode(&bytes), "x").unwrap(), bytes);
        assert!(encode("\u{100}", "x").is_err());
    }

    #[test]
    fn writer_terminates_unterminated_line() {
        let mut w = LineWriter::new(Eol::CrLf);
        w.line("a", Eol::None);
        w.line("b", Eol::Lf);
        assert_eq!(w.finish(), "a\r\nb\n");
    }
}

#[cfg(test)]
mod strict_tests {
    /// Bytes from a fixed-seed generator (xorshift64*), so the test is the same every run.
    fn random_files(seed: u64, count: usize) -> Vec<Vec<u8>> {
        let mut s = seed;
        let mut next = move || {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            s.wrapping_mul(0x2545_F491_4F6C_DD1D)
        };
        (0..count)
            .map(|_| {
                let len = 1 + (next() % 2048) as usize;
                (0..len).map(|_| (next() >> 56) as u8).collect()
            })
            .collect()
    }

    const WORDS: &[&[u8]] = &[
        b"hello",
        b"hello world\n",
        b"The quick brown fox jumps over the lazy dog.\n",
        b"{\"rooms\": [1, 2, 3]}\n",
    ];

    /// Words, or random bytes, are not MDL ASCII, LYT or VIS: each reader gives an error at a
    /// line and column.
    #[test]
    fn words_and_random_bytes_are_errors_with_a_place() {
        let located = |r: Result<(), crate::DecodeError>, what: &str, i: usize| match r {
            Ok(()) => panic!("{what} {i} read without an error"),
            Err(e) => assert!(
                matches!(e.location(), crate::Location::LineCol { .. }),
                "{what} {i}: {e}"
            ),
        };
        let files = random_files(0x5EED_1234_ABCD_0001, 200);
        for (i, b) in WORDS.iter().map(|w| w.to_vec()).chain(files).enumerate() {
            located(crate::mdl_ascii::read(&b).map(|_| ()), "mdl", i);
            located(crate::lyt::read(&b).map(|_| ()), "lyt", i);
            located(crate::vis::read(&b).map(|_| ()), "vis", i);
        }
    }

    /// What real files carry stays readable: a byte-order mark, a NUL tail, CR-only line ends,
    /// bytes 0x80–0xFF in a comment.
    #[test]
    fn real_file_oddities_still_read() {
        let mdl: &[&[u8]] = &[
            b"\xEF\xBB\xBFnewmodel a\ndonemodel a\n",
            b"newmodel a\ndonemodel a\n\0\0garbage",
            b"# caf\xe9 \x93model\x94\rnewmodel a\rdonemodel a\r",
            b"node trimesh wok\n  parent NULL\nendnode\n",
        ];
        for t in mdl {
            crate::mdl_ascii::read(t).unwrap_or_else(|e| panic!("{e}"));
        }
        let lyt: &[&[u8]] = &[
            b"\xEF\xBB\xBF#MAXLAYOUT ASCII \x93x\x94\rbeginlayout\rroomcount 0\rdonelayout\r\0\0",
        ];
        for t in lyt {
            crate::lyt::read(t).unwrap_or_else(|e| panic!("{e}"));
        }
        crate::vis::read(b"\xEF\xBB\xBFa 1\r  b\rb 0\r\0pad").unwrap();
        crate::vis::read(b"").unwrap();
    }
}
