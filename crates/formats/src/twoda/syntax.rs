//! The text layout's lexical level: lines with their terminators, tokens, the byte encoding.
//!
//! Everything works on bytes: separators, quotes and line ends are ASCII, which Windows-1252
//! and UTF-8 encode alike, so a line splits the same whatever its encoding and columns count
//! bytes of the file.

use super::cp1252;
use crate::error::EncodeError;

/// A line terminator as found in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum LineEnd {
    /// `\n`.
    Lf,
    /// `\r\n`.
    CrLf,
    /// A lone `\r` (old Mac OS files).
    Cr,
    /// The last line of an input that does not end with a terminator.
    None,
}

impl LineEnd {
    /// The terminator's bytes.
    pub const fn bytes(self) -> &'static [u8] {
        match self {
            LineEnd::Lf => b"\n",
            LineEnd::CrLf => b"\r\n",
            LineEnd::Cr => b"\r",
            LineEnd::None => b"",
        }
    }

    /// How a message names it.
    pub const fn name(self) -> &'static str {
        match self {
            LineEnd::Lf => "LF",
            LineEnd::CrLf => "CRLF",
            LineEnd::Cr => "CR",
            LineEnd::None => "none",
        }
    }
}

/// One line of the input without its terminator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawLine {
    /// The line's bytes.
    pub bytes: Vec<u8>,
    /// Its terminator.
    pub end: LineEnd,
}

/// Splits bytes into lines at `\n`, `\r\n` and lone `\r`. An input ending with a terminator
/// has no empty last line.
pub(crate) fn split_lines(data: &[u8]) -> Vec<(&[u8], LineEnd)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < data.len() {
        match data[i] {
            b'\n' => {
                out.push((&data[start..i], LineEnd::Lf));
                i += 1;
                start = i;
            }
            b'\r' if data.get(i + 1) == Some(&b'\n') => {
                out.push((&data[start..i], LineEnd::CrLf));
                i += 2;
                start = i;
            }
            b'\r' => {
                out.push((&data[start..i], LineEnd::Cr));
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < data.len() {
        out.push((&data[start..], LineEnd::None));
    }
    out
}

/// Whether `b` separates tokens: space or tab.
pub(crate) const fn is_separator(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// A token of a line: its value with the quotes removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    /// The value's bytes (quote characters removed).
    pub value: Vec<u8>,
    /// 1-based byte column of the token's first byte in its line.
    pub column: u32,
    /// Whether the token contained a quote character.
    pub quoted: bool,
    /// Whether every quote was closed.
    pub closed: bool,
}

/// Splits a line into tokens at spaces and tabs. A `"` starts or ends a quoted part, inside
/// which spaces and tabs are part of the value; the quote characters are not. An unclosed quote
/// runs to the end of the line.
pub(crate) fn tokens(line: &[u8]) -> Vec<Token> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < line.len() {
        if is_separator(line[i]) {
            i += 1;
            continue;
        }
        let column = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let mut value = Vec::new();
        let mut quoted = false;
        let mut in_quote = false;
        while i < line.len() && (in_quote || !is_separator(line[i])) {
            if line[i] == b'"' {
                quoted = true;
                in_quote = !in_quote;
            } else {
                value.push(line[i]);
            }
            i += 1;
        }
        out.push(Token {
            value,
            column,
            quoted,
            closed: !in_quote,
        });
    }
    out
}

/// The byte encoding of a text table's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// Windows-1252 (the games' code page; every byte decodes).
    Cp1252,
    /// UTF-8 (a file that starts with a byte order mark and is valid UTF-8).
    Utf8,
}

impl Encoding {
    /// Decodes a value.
    pub fn decode(self, bytes: &[u8]) -> String {
        match self {
            Encoding::Utf8 => match std::str::from_utf8(bytes) {
                Ok(s) => s.to_string(),
                // Not reached for a file checked to be UTF-8 (tokens split at ASCII bytes).
                Err(_) => cp1252::decode(bytes),
            },
            Encoding::Cp1252 => cp1252::decode(bytes),
        }
    }

    /// Appends the encoding of `text`.
    pub fn encode_into(
        self,
        text: &str,
        out: &mut Vec<u8>,
        what: &dyn Fn() -> String,
    ) -> Result<(), EncodeError> {
        match self {
            Encoding::Utf8 => {
                out.extend_from_slice(text.as_bytes());
                Ok(())
            }
            Encoding::Cp1252 => cp1252::encode_into(text, out, what),
        }
    }
}

/// Collects output lines, terminating a previous unterminated line when another follows it.
pub(crate) struct LineOut {
    pub buf: Vec<u8>,
    pending: bool,
    default_end: LineEnd,
}

impl LineOut {
    pub fn new(default_end: LineEnd) -> Self {
        LineOut {
            buf: Vec::new(),
            pending: false,
            default_end,
        }
    }

    /// The terminator for new lines.
    pub fn default_end(&self) -> LineEnd {
        self.default_end
    }

    /// Appends a line and its terminator.
    pub fn line(&mut self, bytes: &[u8], end: LineEnd) {
        if self.pending {
            self.buf.extend_from_slice(self.default_end.bytes());
        }
        self.buf.extend_from_slice(bytes);
        self.buf.extend_from_slice(end.bytes());
        self.pending = end == LineEnd::None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_every_terminator() {
        let l = split_lines(b"a\r\nb\nc\rd");
        assert_eq!(
            l,
            vec![
                (&b"a"[..], LineEnd::CrLf),
                (&b"b"[..], LineEnd::Lf),
                (&b"c"[..], LineEnd::Cr),
                (&b"d"[..], LineEnd::None)
            ]
        );
        assert_eq!(split_lines(b"a\r\r\n").len(), 2);
        assert!(split_lines(b"").is_empty());
    }

    #[test]
    fn tokens_unquote() {
        let t = tokens(b" 0\t\"Polar Bear\"  ab\"c d\"e \"\" \"open");
        let v: Vec<&[u8]> = t.iter().map(|t| &t.value[..]).collect();
        assert_eq!(v, vec![&b"0"[..], b"Polar Bear", b"abc de", b"", b"open"]);
        assert_eq!(t[1].column, 4);
        assert!(t[1].quoted && t[1].closed);
        assert!(!t[0].quoted);
        assert!(!t[4].closed);
    }
}
