//! How a 2DA file was laid out, kept so that an unmodified table writes back byte for byte:
//! the binary layout's tables and the text layout's lines.

use super::syntax::{Encoding, LineEnd, RawLine};

/// How a binary file was laid out: what the writer needs to reproduce it while the cells are
/// unchanged.
#[derive(Debug, Clone)]
pub(crate) struct BinaryLayout {
    /// `2DA ` or `2DA\t`.
    pub magic: [u8; 4],
    /// Whether the last column label was followed by a tab before the NUL.
    pub columns_trailing_tab: bool,
    /// Number of columns when read.
    pub column_count: usize,
    /// The cell offset table, row-major.
    pub offsets: Vec<u16>,
    /// The data-size field as stored.
    pub data_size: u16,
    /// Every byte after the data-size field.
    pub data: Vec<u8>,
}

/// How a text file was laid out: every line in order, so an unmodified table writes back byte
/// for byte.
#[derive(Debug, Clone)]
pub(crate) struct TextLayout {
    /// Whether the file started with a UTF-8 byte order mark.
    pub bom: bool,
    /// How values were decoded (and how new lines are encoded).
    pub encoding: Encoding,
    /// The lines in file order.
    pub items: Vec<TextItem>,
    /// The terminator for new lines: the file's most common one.
    pub default_end: LineEnd,
    /// NUL bytes after the last line.
    pub nul_padding: usize,
}

/// One line of a text file as read.
#[derive(Debug, Clone)]
pub(crate) enum TextItem {
    /// Line 1 (`2DA V2.0` and whatever follows on the line), without the byte order mark.
    Header(RawLine),
    /// Line 2: blank, `DEFAULT: value` or ignored text, and the default it gave.
    Line2 {
        line: RawLine,
        parsed: Option<String>,
    },
    /// The column labels line and the labels parsed from it.
    Columns { line: RawLine, parsed: Vec<String> },
    /// A line kept as is (blank lines).
    Verbatim(RawLine),
    /// The place of the next row.
    Row { end: LineEnd },
}
