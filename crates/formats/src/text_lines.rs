//! Line-level helpers shared by the line-oriented ASCII formats (LYT, VIS).
//!
//! Text is decoded byte-for-char (ISO 8859-1), so every input decodes and encodes back to the
//! same bytes; the formats themselves only use ASCII.

use crate::error::EncodeError;

/// The terminator of a line as found in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Eol {
    /// `\n`.
    Lf,
    /// `\r\n`.
    CrLf,
    /// The last line of an input that does not end with a terminator.
    None,
}

impl Eol {
    /// The terminator's text.
    pub const fn as_str(self) -> &'static str {
        match self {
            Eol::Lf => "\n",
            Eol::CrLf => "\r\n",
            Eol::None => "",
        }
    }
}

/// One input line without its terminator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawLine {
    pub text: String,
    pub eol: Eol,
}

/// Decodes bytes one char per byte (ISO 8859-1): lossless for any input.
pub(crate) fn decode(data: &[u8]) -> String {
    data.iter().map(|&b| char::from(b)).collect()
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

/// Splits decoded text into lines. A lone `\r` is kept inside the line text.
/// An input ending with a terminator has no empty last line.
pub(crate) fn split_lines(text: &str) -> Vec<RawLine> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find('\n') {
            Some(i) => {
                let (line, eol) = match rest[..i].strip_suffix('\r') {
                    Some(l) => (l, Eol::CrLf),
                    None => (&rest[..i], Eol::Lf),
                };
                out.push(RawLine {
                    text: line.to_string(),
                    eol,
                });
                rest = &rest[i + 1..];
            }
            None => {
                out.push(RawLine {
                    text: rest.to_string(),
                    eol: Eol::None,
                });
                rest = "";
            }
        }
    }
    out
}

/// The terminator used by most lines (LF when there is none or on a tie).
pub(crate) fn dominant_eol(lines: &[RawLine]) -> Eol {
    let crlf = lines.iter().filter(|l| l.eol == Eol::CrLf).count();
    let lf = lines.iter().filter(|l| l.eol == Eol::Lf).count();
    if crlf > lf { Eol::CrLf } else { Eol::Lf }
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
        let lines = split_lines("a\r\nb\nc");
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].eol, Eol::CrLf);
        assert_eq!(lines[1].eol, Eol::Lf);
        assert_eq!(lines[2].eol, Eol::None);
        assert_eq!(split_lines("a\n").len(), 1);
        assert!(split_lines("").is_empty());
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
