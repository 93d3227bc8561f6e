//! The owned, editable 2DA model, shared by the binary and the text layout.
//!
//! A table read from a file remembers how the file was laid out (the binary offset table and
//! string data, or the text lines) next to the values. The writers reuse that layout while the
//! values it holds are unchanged, so an unmodified table writes back byte for byte.

use super::raw::EMPTY_CELL;
use crate::finding::Finding;

/// Which layout a table was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `2DA V2.b`: the binary layout of KotOR's game files.
    Binary,
    /// `2DA V2.0`: the text layout of NWN and of KotOR sources.
    Text,
}

impl Variant {
    /// `"binary"` or `"text"`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Binary => "binary",
            Variant::Text => "text",
        }
    }
}

/// Whether a cell value means "no data": empty, or the text layout's `****`.
pub fn is_empty_cell(value: &str) -> bool {
    value.is_empty() || value == EMPTY_CELL
}

/// One row: its label and its cells, in column order.
///
/// The engine finds rows by position; the label is for people (usually the row index). A row
/// read from a text file may have fewer or more cells than the table has columns
/// ([`validate`](super::validate) reports both); a missing cell reads as empty.
#[derive(Debug, Clone, Default)]
pub struct Row {
    /// The row label.
    pub label: String,
    /// The cell values, in column order, as the engine sees them: an empty cell is `""`
    /// (the text layout's unquoted `****` reads as `""`).
    pub cells: Vec<String>,
    pub(crate) source: Option<RowSource>,
}

/// How a row was written in the file it was read from.
#[derive(Debug, Clone)]
pub(crate) enum RowSource {
    /// Binary: the byte that ended the label (`\t`, or NUL in some game files).
    Binary { label_end: u8 },
    /// Text: the original line and the values parsed from it.
    Text(Box<TextRowSource>),
}

/// A text row's original line.
#[derive(Debug, Clone)]
pub(crate) struct TextRowSource {
    /// The line's bytes without its terminator.
    pub raw: Vec<u8>,
    /// 1-based line number.
    pub line: u32,
    /// The label as parsed.
    pub label: String,
    /// The cells as parsed.
    pub cells: Vec<String>,
}

impl Row {
    /// A new row (written in canonical form).
    pub fn new(label: impl Into<String>, cells: Vec<String>) -> Self {
        Row {
            label: label.into(),
            cells,
            source: None,
        }
    }

    /// The raw value of cell `column` (`None` past the row's last cell).
    pub fn cell(&self, column: usize) -> Option<&str> {
        self.cells.get(column).map(String::as_str)
    }

    /// The 1-based line this row was read from (text files only).
    pub fn line(&self) -> Option<u32> {
        match &self.source {
            Some(RowSource::Text(t)) => Some(t.line),
            _ => None,
        }
    }
}

impl PartialEq for Row {
    /// Compares the label and the cells, not the formatting.
    fn eq(&self, other: &Self) -> bool {
        self.label == other.label && self.cells == other.cells
    }
}

/// An error of an edit through [`TwoDa`]'s methods.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EditError {
    /// No row at this index.
    #[error("no row {0}")]
    NoRow(usize),
    /// No column of this name.
    #[error("no column `{0}`")]
    NoColumn(String),
    /// A column of this name (case-insensitive) already exists.
    #[error("a column `{0}` already exists")]
    DuplicateColumn(String),
}

/// A 2DA table: column labels and rows, from either layout.
///
/// Lookups by column label are ASCII case-insensitive (the first matching column wins), as the
/// game's are. Rows are found by index (what the engine uses) or by label.
///
/// ```
/// use areakit_formats::twoda::TwoDa;
/// let mut t = TwoDa::new(["label", "modelname"]);
/// t.add_row("0", ["Chair", "plc_chair1"]);
/// t.add_row("1", ["Nothing", ""]);
/// assert_eq!(t.get(0, "ModelName"), Some("plc_chair1"));
/// assert_eq!(t.get(1, "modelname"), None); // empty
/// t.set(1, "modelname", "plc_box").unwrap();
/// assert_eq!(t.get_by_label("1", "modelname"), Some("plc_box"));
/// ```
#[derive(Debug, Clone, Default)]
pub struct TwoDa {
    /// Column labels, in order.
    pub columns: Vec<String>,
    /// Rows, in order: a row's index is its id for the engine.
    pub rows: Vec<Row>,
    /// The text layout's `DEFAULT:` value (returned for cells that do not exist). The binary
    /// layout cannot hold one.
    pub default: Option<String>,
    pub(crate) layout: Option<Layout>,
    pub(crate) findings: Vec<Finding>,
}

/// How the file was laid out when read.
#[derive(Debug, Clone)]
pub(crate) enum Layout {
    Binary(super::layout::BinaryLayout),
    Text(super::layout::TextLayout),
}

impl PartialEq for TwoDa {
    /// Compares columns, rows and the default, not the layout.
    fn eq(&self, other: &Self) -> bool {
        self.columns == other.columns && self.rows == other.rows && self.default == other.default
    }
}

/// Table sizes, for `areakit info`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TwoDaSummary {
    /// The layout read from, if the table was read from a file.
    pub variant: Option<Variant>,
    /// Number of columns.
    pub columns: usize,
    /// Number of rows.
    pub rows: usize,
    /// Non-empty cells.
    pub filled_cells: usize,
}

impl TwoDa {
    /// An empty table with these columns (written in canonical form).
    pub fn new<I, S>(columns: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        TwoDa {
            columns: columns.into_iter().map(Into::into).collect(),
            ..TwoDa::default()
        }
    }

    /// The layout the table was read from (`None` for a table built in code or after
    /// [`TwoDa::clear_source`]).
    pub fn variant(&self) -> Option<Variant> {
        match self.layout {
            Some(Layout::Binary(_)) => Some(Variant::Binary),
            Some(Layout::Text(_)) => Some(Variant::Text),
            None => None,
        }
    }

    /// Table sizes.
    pub fn summary(&self) -> TwoDaSummary {
        TwoDaSummary {
            variant: self.variant(),
            columns: self.columns.len(),
            rows: self.rows.len(),
            filled_cells: self
                .rows
                .iter()
                .flat_map(|r| &r.cells)
                .filter(|c| !is_empty_cell(c))
                .count(),
        }
    }

    /// The index of the first column labelled `name` (ASCII case-insensitive).
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns
            .iter()
            .position(|c| c.eq_ignore_ascii_case(name))
    }

    /// The index of the first row labelled `label` (ASCII case-insensitive).
    pub fn row_index(&self, label: &str) -> Option<usize> {
        self.rows
            .iter()
            .position(|r| r.label.eq_ignore_ascii_case(label))
    }

    /// The row at `index`.
    pub fn row(&self, index: usize) -> Option<&Row> {
        self.rows.get(index)
    }

    /// The first row labelled `label` (ASCII case-insensitive).
    pub fn row_by_label(&self, label: &str) -> Option<&Row> {
        self.row_index(label).and_then(|i| self.rows.get(i))
    }

    /// The value at row `row`, column `column` (case-insensitive); `None` when the row, the
    /// column or the cell does not exist, or when the cell is empty (`""` or `****`).
    pub fn get(&self, row: usize, column: &str) -> Option<&str> {
        let c = self.column_index(column)?;
        self.get_at(row, c)
    }

    /// [`TwoDa::get`] with the row found by its label.
    pub fn get_by_label(&self, label: &str, column: &str) -> Option<&str> {
        let r = self.row_index(label)?;
        self.get(r, column)
    }

    /// [`TwoDa::get`] with the column given by index.
    pub fn get_at(&self, row: usize, column: usize) -> Option<&str> {
        self.rows
            .get(row)?
            .cell(column)
            .filter(|v| !is_empty_cell(v))
    }

    /// Sets the value at row `row`, column `column` (case-insensitive). A row shorter than the
    /// table is first filled with empty cells up to the column.
    pub fn set(
        &mut self,
        row: usize,
        column: &str,
        value: impl Into<String>,
    ) -> Result<(), EditError> {
        let c = self
            .column_index(column)
            .ok_or_else(|| EditError::NoColumn(column.to_string()))?;
        let r = self.rows.get_mut(row).ok_or(EditError::NoRow(row))?;
        if r.cells.len() <= c {
            r.cells.resize(c + 1, String::new());
        }
        r.cells[c] = value.into();
        Ok(())
    }

    /// Appends a row and returns its index. Missing cells are filled with empty ones; extra
    /// cells are kept (and reported by [`validate`](super::validate)).
    pub fn add_row<I, S>(&mut self, label: impl Into<String>, cells: I) -> usize
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut cells: Vec<String> = cells.into_iter().map(Into::into).collect();
        if cells.len() < self.columns.len() {
            cells.resize(self.columns.len(), String::new());
        }
        self.rows.push(Row::new(label, cells));
        self.rows.len() - 1
    }

    /// Appends a column and returns its index; every row shorter than the new column count
    /// gets empty cells up to it. Errors if a column of that name (case-insensitive) exists.
    pub fn add_column(&mut self, name: impl Into<String>) -> Result<usize, EditError> {
        let name = name.into();
        if self.column_index(&name).is_some() {
            return Err(EditError::DuplicateColumn(name));
        }
        self.columns.push(name);
        let n = self.columns.len();
        for r in &mut self.rows {
            if r.cells.len() < n {
                r.cells.resize(n, String::new());
            }
        }
        Ok(n - 1)
    }

    /// The irregularities found while reading (empty for a table built in code).
    pub fn read_findings(&self) -> &[Finding] {
        &self.findings
    }

    /// Forgets the original layout: the next write is canonical.
    pub fn clear_source(&mut self) {
        self.layout = None;
        self.findings.clear();
        for r in &mut self.rows {
            r.source = None;
        }
    }
}
