//! Unit tests on hand-made tables: both layouts, every text oddity, hostile binary input,
//! edits, conversions and the typed lookups.

use super::*;
use crate::bwm::Material;
use crate::{ErrorKind, Location};

// ---------------------------------------------------------------------------------------------
// Binary fixtures

/// Builds a binary 2DA from parts, so each fixture states its layout.
struct Bin<'a> {
    magic: &'a [u8],
    columns: &'a [u8],
    rows: u32,
    labels: &'a [u8],
    offsets: &'a [u16],
    data_size: Option<u16>,
    data: &'a [u8],
}

impl Bin<'_> {
    fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(self.magic);
        out.extend_from_slice(b"V2.b\n");
        out.extend_from_slice(self.columns);
        out.extend_from_slice(&self.rows.to_le_bytes());
        out.extend_from_slice(self.labels);
        for o in self.offsets {
            out.extend_from_slice(&o.to_le_bytes());
        }
        let size = self.data_size.unwrap_or(self.data.len() as u16);
        out.extend_from_slice(&size.to_le_bytes());
        out.extend_from_slice(self.data);
        out
    }
}

/// A canonical table: 2 columns, 3 rows, strings in order of first use.
fn canonical_bin() -> Bin<'static> {
    Bin {
        magic: b"2DA ",
        columns: b"label\tmodelname\t\0",
        rows: 3,
        labels: b"0\t1\t2\t",
        // "Chair" "plc_chair" | "Box" "" | "Chair" "plc_box"
        offsets: &[0, 6, 16, 20, 0, 21],
        data_size: None,
        data: b"Chair\0plc_chair\0Box\0\0plc_box\0",
    }
}

fn codes(t: &TwoDa) -> Vec<&'static str> {
    t.read_findings().iter().map(|f| f.code).collect()
}

#[test]
fn binary_reads_cells_and_round_trips() {
    let data = canonical_bin().bytes();
    let t = read(&data).unwrap();
    assert_eq!(t.variant(), Some(Variant::Binary));
    assert_eq!(t.columns, ["label", "modelname"]);
    assert_eq!(t.rows.len(), 3);
    assert_eq!(t.rows[1].cells, ["Box", ""]);
    assert_eq!(t.get(0, "MODELNAME"), Some("plc_chair"));
    assert_eq!(t.get(1, "modelname"), None, "empty cell");
    assert_eq!(t.get(3, "modelname"), None, "no row");
    assert_eq!(t.get(0, "nope"), None, "no column");
    assert_eq!(t.get_by_label("2", "modelname"), Some("plc_box"));
    assert!(t.read_findings().is_empty(), "{:?}", t.read_findings());
    assert!(validate(&t).is_empty());
    assert_eq!(write(&t).unwrap(), data);
    let s = t.summary();
    assert_eq!((s.columns, s.rows, s.filled_cells), (2, 3, 5));
    // Written canonically, the table is the same bytes: this is the canonical layout.
    let mut c = t.clone();
    c.clear_source();
    assert_eq!(write_binary(&c).unwrap(), data);
}

#[test]
fn binary_keeps_odd_layouts_while_cells_are_unchanged() {
    // Strings in reverse order, an unused string, a cell pointing into the middle of a string
    // (suffix sharing), a data size of 0, NUL-terminated row labels, a tab magic, and a column
    // list whose last label has no tab.
    let bin = Bin {
        magic: b"2DA\t",
        columns: b"a\tb\0",
        rows: 2,
        labels: b"0\x001\t",
        offsets: &[10, 4, 6, 13],
        data_size: Some(0),
        data: b"xyz\0chair\0box\0",
    };
    let data = bin.bytes();
    let t = read(&data).unwrap();
    assert_eq!(t.rows[0].cells, ["box", "chair"]);
    assert_eq!(
        t.rows[1].cells,
        ["air", ""],
        "offset 13 is the NUL ending `box`"
    );
    assert_eq!(
        codes(&t),
        [
            "twoda-magic-tab",
            "twoda-columns-unterminated",
            "twoda-data-size-mismatch",
            "twoda-unused-data"
        ]
    );
    let unused = &t.read_findings()[3];
    assert!(unused.message.starts_with("4 bytes"), "{}", unused.message);
    assert_eq!(write(&t).unwrap(), data);

    // Relabelling a row keeps the cells' layout and the other row's NUL terminator.
    let mut relabelled = t.clone();
    relabelled.rows[1].label = "one".into();
    let bytes = write(&relabelled).unwrap();
    assert!(bytes.windows(4).any(|w| w == b"one\t"));
    assert!(bytes.ends_with(bin.data));
    assert_eq!(read(&bytes).unwrap(), relabelled);

    // Editing a cell lays the strings out canonically, keeping the magic and label terminators.
    let mut edited = t.clone();
    edited.set(1, "b", "lamp").unwrap();
    let bytes = write(&edited).unwrap();
    let expected = Bin {
        magic: b"2DA\t",
        columns: b"a\tb\0",
        rows: 2,
        labels: b"0\x001\t",
        offsets: &[0, 4, 10, 14],
        data_size: None,
        data: b"box\0chair\0air\0lamp\0",
    };
    assert_eq!(bytes, expected.bytes());
    assert_eq!(read(&bytes).unwrap(), edited);
}

#[test]
fn binary_reports_bad_cell_offsets_and_still_round_trips() {
    let bin = Bin {
        magic: b"2DA ",
        columns: b"a\t\0",
        rows: 3,
        labels: b"0\t1\t2\t",
        offsets: &[0, 200, 4],
        data_size: None,
        data: b"abc\0open",
    };
    let data = bin.bytes();
    let t = read(&data).unwrap();
    assert_eq!(t.rows[1].cells, [""]);
    assert_eq!(t.rows[2].cells, ["open"]);
    let found: Vec<_> = validate(&t)
        .iter()
        .map(|f| (f.code, f.severity, f.place.offset))
        .collect();
    let offsets_at = 9 + 3 + 4 + 6;
    assert_eq!(
        found,
        [
            (
                "twoda-cell-offset-range",
                crate::Severity::Error,
                Some(offsets_at as u64 + 2)
            ),
            (
                "twoda-cell-unterminated",
                crate::Severity::Error,
                Some(offsets_at as u64 + 4)
            ),
        ]
    );
    assert_eq!(write(&t).unwrap(), data);
}

#[test]
fn every_truncation_of_a_binary_table_is_a_located_error() {
    let data = canonical_bin().bytes();
    for len in 0..data.len() {
        let e = read(&data[..len]).expect_err(&format!("truncated to {len} bytes"));
        match e.location() {
            Location::Offset(o) => assert!(o <= len as u64, "{len}: offset {o}: {e}"),
            other => panic!("{len}: {other:?}"),
        }
        assert!(read_binary(&data[..len]).is_err(), "{len}");
    }
}

#[test]
fn hostile_counts_are_rejected_before_allocating() {
    // Row count 4 billion in a 30-byte file.
    let mut bin = canonical_bin();
    bin.rows = u32::MAX;
    let e = read(&bin.bytes()).unwrap_err();
    assert_eq!(e.location(), Location::Offset(26));
    assert!(e.message().contains("row labels"), "{e}");
    // Rows that fit, but not their offset table.
    let bin = Bin {
        magic: b"2DA ",
        columns: b"a\tb\tc\t\0",
        rows: 4,
        labels: b"\t\t\t\t",
        offsets: &[0, 0],
        data_size: None,
        data: b"",
    };
    let e = read(&bin.bytes()).unwrap_err();
    assert!(e.message().contains("cell offsets"), "{e}");
    // A data size larger than the data.
    let mut bin = canonical_bin();
    bin.data_size = Some(1000);
    let data = bin.bytes();
    let e = read(&data).unwrap_err();
    let size_at = data.len() - bin.data.len() - 2;
    assert_eq!(e.location(), Location::Offset(size_at as u64));
    assert!(e.message().contains("data size"), "{e}");
    // No NUL after the column labels; a row label without terminator.
    assert!(read(b"2DA V2.b\nabc\tdef").is_err());
    let e = read(b"2DA V2.b\na\t\0\x02\0\0\0x\tyz").unwrap_err();
    assert!(e.message().contains("row label 1 of 2"), "{e}");
}

#[test]
fn cells_sharing_a_long_string_are_limited() {
    // 200 cells all naming one 60 000-byte string would decode to 12 MB from a 60 kB file.
    let long = vec![b'a'; 60_000];
    let labels = vec![b'\t'; 200];
    let offsets = vec![0u16; 200];
    let bin = Bin {
        magic: b"2DA ",
        columns: b"a\t\0",
        rows: 200,
        labels: &labels,
        offsets: &offsets,
        data_size: None,
        data: &long,
    };
    let e = read(&bin.bytes()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded);
    assert_eq!(e.location(), Location::Offset(9 + 3 + 4 + 200));
    // Ten such cells are within the limit, and read.
    let bin = Bin {
        rows: 10,
        labels: &labels[..10],
        offsets: &offsets[..10],
        ..bin
    };
    let t = read(&bin.bytes()).unwrap();
    assert_eq!(t.rows[9].cells[0].len(), 60_000);
}

#[test]
fn binary_header_errors_name_what_was_expected() {
    let e = read(b"2DA V2.bxyz").unwrap_err();
    assert_eq!(
        (e.kind(), e.location()),
        (ErrorKind::Malformed, Location::Offset(8))
    );
    let e = read(b"2DA V9.9\n\0").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    let e = read(b"GFF V3.2\n").unwrap_err();
    assert_eq!(
        (e.kind(), e.location()),
        (ErrorKind::Malformed, Location::Offset(0))
    );
    let e = read_binary(b"2DA V2.0\n\n").unwrap_err();
    assert_eq!(e.location(), Location::Offset(4));
    let e = read(b"\xEF\xBB\xBF2DA V2.b\n").unwrap_err();
    assert!(e.message().contains("byte order mark"), "{e}");
}

#[test]
fn binary_writer_rejects_what_the_layout_cannot_hold() {
    let mut t = TwoDa::new(["a"]);
    t.add_row("0", ["x"]);
    t.default = Some("0".into());
    assert!(write_binary(&t).is_err());
    t.default = None;
    t.rows[0].label = "a\tb".into();
    assert!(write_binary(&t).is_err());
    t.rows[0].label = "0".into();
    t.rows[0].cells.push("extra".into());
    assert!(write_binary(&t).is_err());
    t.rows[0].cells = vec!["nul\0".into()];
    assert!(write_binary(&t).is_err());
    t.rows[0].cells = vec!["中".into()];
    assert!(write_binary(&t).is_err());
    // A short row is written with empty cells.
    let mut t = TwoDa::new(["a", "b"]);
    t.rows.push(Row::new("0", vec!["x".into()]));
    let back = read(&write_binary(&t).unwrap()).unwrap();
    assert_eq!(back.rows[0].cells, ["x", ""]);
}

#[test]
fn binary_writer_never_writes_what_the_reader_refuses() {
    // Found by the `twoda` fuzzer: a binary table that read (within 16 x its size + 1 MiB of
    // cell text) was laid out canonically, each distinct string once, into a smaller file whose
    // cells then decoded to more than the reader accepts from that size. The writer refuses it.
    let long = "a".repeat(60_000);
    let mut t = TwoDa::new(["a"]);
    for i in 0..100 {
        t.add_row(i.to_string(), [long.as_str()]);
    }
    let e = write_binary(&t).unwrap_err();
    assert!(e.0.contains("may decode to"), "{e}");
    // Ten such rows stay within the bound: written, and read back equal.
    t.rows.truncate(10);
    let back = read(&write_binary(&t).unwrap()).unwrap();
    assert_eq!(back.rows.len(), 10);
    assert_eq!(back.rows[9].cells[0], long);
    // Text holds every copy in full, so the same hundred rows write and read as text.
    for i in 10..100 {
        t.add_row(i.to_string(), [long.as_str()]);
    }
    let text = write_text(&t).unwrap();
    assert_eq!(read(&text).unwrap().rows.len(), 100);
}

#[test]
fn binary_offsets_must_fit_u16() {
    // 8000 distinct 9-byte strings need 72 000 bytes of string data.
    let mut t = TwoDa::new(["v"]);
    for i in 0..8000 {
        t.add_row(i.to_string(), [format!("v{i:07}")]);
    }
    match write_binary(&t) {
        Err(e) => assert!(e.0.contains("65535"), "{e}"),
        Ok(b) => panic!("{} bytes written", b.len()),
    }
    // The same table with few distinct strings fits: deduplication.
    for (i, r) in t.rows.iter_mut().enumerate() {
        r.cells[0] = format!("v{}", i % 10);
    }
    let bytes = write_binary(&t).unwrap();
    assert_eq!(read(&bytes).unwrap(), t);
}

#[test]
fn binary_decodes_windows_1252() {
    let bin = Bin {
        magic: b"2DA ",
        columns: b"name\t\0",
        rows: 1,
        labels: b"0\t",
        offsets: &[0],
        data_size: None,
        data: b"Caf\xe9 \x93x\x94\0",
    };
    let data = bin.bytes();
    let t = read(&data).unwrap();
    assert_eq!(t.rows[0].cells[0], "Café “x”");
    assert_eq!(write(&t).unwrap(), data);
    let mut c = t.clone();
    c.clear_source();
    assert_eq!(write(&c).unwrap(), data);
}

// ---------------------------------------------------------------------------------------------
// Text

const NWN: &str = "2DA V2.0\r\n\r\n           Label           Walk   Name\r\n0          NotDefined      0      ****\r\n1          Dirt            1      \"Dirt road\"\r\n2          ****            ****   ****\r\n";

fn text_round_trip(text: &[u8]) -> TwoDa {
    let t = read(text).unwrap();
    assert_eq!(t.variant(), Some(Variant::Text));
    assert_eq!(write(&t).unwrap(), text);
    t
}

fn text_codes(text: &[u8]) -> Vec<(&'static str, Option<u32>, Option<u32>)> {
    read(text)
        .unwrap()
        .read_findings()
        .iter()
        .map(|f| (f.code, f.place.line, f.place.column))
        .collect()
}

#[test]
fn text_reads_values_empty_cells_and_quotes() {
    let t = text_round_trip(NWN.as_bytes());
    assert!(t.read_findings().is_empty(), "{:?}", t.read_findings());
    assert_eq!(t.columns, ["Label", "Walk", "Name"]);
    assert_eq!(t.rows.len(), 3);
    assert_eq!(t.rows[0].cells, ["NotDefined", "0", ""]);
    assert_eq!(t.get(1, "name"), Some("Dirt road"));
    assert_eq!(t.get(0, "name"), None);
    assert_eq!(t.get(2, "label"), None);
    assert_eq!(t.rows[2].line(), Some(6));
    assert_eq!(t.default, None);
    assert!(validate(&t).is_empty());
}

#[test]
fn text_default_line() {
    let text = b"2DA V2.0\nDEFAULT: 7\n a b\n0 1 ****\n";
    let t = text_round_trip(text);
    assert_eq!(t.default.as_deref(), Some("7"));
    // Case-insensitive keyword, quoted value.
    let t = text_round_trip(b"2DA V2.0\ndefault: \"n a\"\n a\n");
    assert_eq!(t.default.as_deref(), Some("n a"));
    assert_eq!(
        text_codes(b"2DA V2.0\nDEFAULT:\n a\n"),
        [("twoda-text-default-empty", Some(2), Some(1))]
    );
    assert_eq!(
        text_codes(b"2DA V2.0\nDEFAULT: 1 2\n a\n"),
        [("twoda-text-extra-tokens", Some(2), Some(12))]
    );
}

#[test]
fn text_any_whitespace_separates() {
    let text = b"2DA V2.0\n\n\tA  \t B\n0\t x   y \n1 \"p q\"\t\"\"\n";
    let t = text_round_trip(text);
    assert_eq!(t.columns, ["A", "B"]);
    assert_eq!(t.rows[0].cells, ["x", "y"]);
    assert_eq!(t.rows[1].cells, ["p q", ""]);
    assert_eq!(
        text_codes(text),
        [
            ("twoda-text-tab", Some(3), Some(1)),
            ("twoda-text-tab", Some(4), Some(2)),
            ("twoda-text-tab", Some(5), Some(8)),
        ]
    );
}

#[test]
fn text_line_ends_of_every_kind() {
    let t = text_round_trip(b"2DA V2.0\r\rA B\r0 1 2\r");
    assert_eq!(t.rows[0].cells, ["1", "2"]);
    assert_eq!(
        text_codes(b"2DA V2.0\r\rA B\r0 1 2\r"),
        [("twoda-text-cr-line-end", Some(1), Some(1))]
    );
    let mixed = b"2DA V2.0\r\n\nA\r\n0 1";
    text_round_trip(mixed);
    assert_eq!(
        text_codes(mixed),
        [
            ("twoda-text-mixed-line-endings", Some(2), Some(1)),
            ("twoda-text-no-final-newline", Some(4), Some(1)),
        ]
    );
}

#[test]
fn text_bom_utf8_and_windows_1252() {
    // A BOM and valid UTF-8: values are UTF-8.
    let text = "\u{feff}2DA V2.0\n\nname\n0 Café\n".as_bytes();
    let t = text_round_trip(text);
    assert_eq!(t.rows[0].cells[0], "Café");
    assert_eq!(codes(&t), ["twoda-text-bom"]);
    // An edited row of a UTF-8 file stays UTF-8.
    let mut e = t.clone();
    e.set(0, "name", "Ünïcode").unwrap();
    let bytes = write(&e).unwrap();
    assert!(bytes.ends_with("0 Ünïcode\n".as_bytes()), "{bytes:?}");
    // No BOM: Windows-1252.
    let t = text_round_trip(b"2DA V2.0\n\nname\n0 Caf\xe9\x92s\n");
    assert_eq!(t.rows[0].cells[0], "Café’s");
    // A BOM but not UTF-8: Windows-1252, with the BOM kept.
    let t = text_round_trip(b"\xEF\xBB\xBF2DA V2.0\n\nname\n0 Caf\xe9\n");
    assert_eq!(t.rows[0].cells[0], "Café");
    assert!(t.read_findings()[0].message.contains("not valid UTF-8"));
}

#[test]
fn text_trailing_blank_lines_and_nul_padding() {
    let text = b"2DA V2.0\n\nA\n0 x\n\n  \n\0\0\0";
    let t = text_round_trip(text);
    assert_eq!(t.rows.len(), 1);
    assert_eq!(
        text_codes(text),
        [
            ("twoda-text-blank-line", Some(5), Some(1)),
            ("twoda-text-nul-padding", Some(6), Some(1)),
        ]
    );
    // Blank lines between rows are skipped (not rows) and kept.
    let t = text_round_trip(b"2DA V2.0\n\n\nA\n0 x\n\n1 y\n");
    assert_eq!(t.rows.len(), 2);
    assert_eq!(t.rows[1].line(), Some(7));
    // An added row goes after the last row, before the trailing blank lines and padding.
    let mut t = read(text).unwrap();
    t.add_row("1", ["y"]);
    assert_eq!(write(&t).unwrap(), b"2DA V2.0\n\nA\n0 x\n1 y\n\n  \n\0\0\0");
}

#[test]
fn text_irregular_lines_are_findings() {
    // Line 2 is the column labels line: the game skips line 2, so `0 x` becomes the labels.
    let text = b"2DA V2.0\nA B\n0 x y\n";
    let t = text_round_trip(text);
    assert_eq!(t.columns, ["0", "x", "y"]);
    assert!(t.rows.is_empty());
    let f = &t.read_findings()[0];
    assert_eq!(
        (f.code, f.severity, f.place.line),
        ("twoda-text-line2", crate::Severity::Error, Some(2))
    );
    // Unclosed quote, text after the version, no column labels at all.
    assert_eq!(
        text_codes(b"2DA V2.0 junk\n\nA\n0 \"open\n"),
        [
            ("twoda-text-header-extra", Some(1), Some(10)),
            ("twoda-text-unclosed-quote", Some(4), Some(3)),
        ]
    );
    let t = text_round_trip(b"2DA V2.0\n\n");
    assert!(t.columns.is_empty());
    assert_eq!(codes(&t), ["twoda-text-no-columns"]);
    // NWN files pad line 1 with spaces: no finding.
    assert!(text_codes(b"2DA V2.0        \n\nA\n").is_empty());
    assert_eq!(
        text_codes(b"2DA\tV2.0\n\nA\n"),
        [("twoda-magic-tab", Some(1), Some(4))]
    );
}

#[test]
fn text_ragged_rows_are_kept_and_validated() {
    let text = b"2DA V2.0\n\nA B C\n0 1\n1 1 2 3 4\n1 a b c\n";
    let t = text_round_trip(text);
    assert_eq!(t.rows[0].cells, ["1"]);
    assert_eq!(t.rows[1].cells.len(), 4);
    assert_eq!(t.get(0, "C"), None);
    let found: Vec<_> = validate(&t)
        .iter()
        .map(|f| (f.code, f.place.line))
        .collect();
    assert_eq!(
        found,
        [
            ("twoda-duplicate-row-label", Some(6)),
            ("twoda-row-too-few-cells", Some(4)),
            ("twoda-row-too-many-cells", Some(5)),
            ("twoda-row-label-not-index", Some(6)),
        ]
    );
    // Canonical text keeps ragged rows ragged.
    let mut c = t.clone();
    c.clear_source();
    assert_eq!(read(&write_text(&c).unwrap()).unwrap(), t);
    assert!(write_binary(&c).is_err(), "a row with extra cells");
}

#[test]
fn text_errors_are_located() {
    let e = read(b"").unwrap_err();
    assert_eq!(e.location(), Location::Offset(0));
    let e = read_text(b"").unwrap_err();
    assert_eq!(e.location(), Location::LineCol { line: 1, column: 1 });
    let e = read_text(b"2DB V2.0\n").unwrap_err();
    assert_eq!(
        (e.kind(), e.location()),
        (
            ErrorKind::Malformed,
            Location::LineCol { line: 1, column: 1 }
        )
    );
    let e = read_text(b"2DA V3.0\n").unwrap_err();
    assert_eq!(
        (e.kind(), e.location()),
        (
            ErrorKind::Unsupported,
            Location::LineCol { line: 1, column: 5 }
        )
    );
    let e = read_text(b"\xEF\xBB\xBF2DA V2.b\n").unwrap_err();
    assert_eq!(e.location(), Location::LineCol { line: 1, column: 8 });
}

#[test]
fn text_edits_touch_only_the_edited_lines() {
    let mut t = read(NWN.as_bytes()).unwrap();
    t.set(1, "walk", "0").unwrap();
    let out = String::from_utf8(write(&t).unwrap()).unwrap();
    let before: Vec<&str> = NWN.split("\r\n").collect();
    let after: Vec<&str> = out.split("\r\n").collect();
    assert_eq!(before.len(), after.len());
    let changed: Vec<usize> = (0..before.len())
        .filter(|&i| before[i] != after[i])
        .collect();
    assert_eq!(changed, [4]);
    assert_eq!(after[4], "1 Dirt       0    \"Dirt road\"");
    assert_eq!(read(out.as_bytes()).unwrap(), t);

    // Removing a row drops its line; changing the default rewrites line 2.
    let mut t = read(NWN.as_bytes()).unwrap();
    t.rows.remove(1);
    t.default = Some("x".into());
    let out = String::from_utf8(write(&t).unwrap()).unwrap();
    assert_eq!(
        out,
        "2DA V2.0\r\nDEFAULT: x\r\n           Label           Walk   Name\r\n0          NotDefined      0      ****\r\n2          ****            ****   ****\r\n"
    );

    // Adding a column rewrites the labels line and every row.
    let mut t = read(NWN.as_bytes()).unwrap();
    t.add_column("Extra").unwrap();
    assert_eq!(
        t.add_column("extra"),
        Err(EditError::DuplicateColumn("extra".into()))
    );
    let out = read(&write(&t).unwrap()).unwrap();
    assert_eq!(out, t);
    assert_eq!(out.rows[0].cells.len(), 4);
}

#[test]
fn text_canonical_form() {
    let mut t = TwoDa::new(["label", "model name"]);
    t.add_row("0", ["Chair", "plc_chair"]);
    t.add_row("1", ["", "****"]);
    t.add_row("", ["a b"]);
    let out = String::from_utf8(write_text(&t).unwrap()).unwrap();
    assert_eq!(
        out,
        "2DA V2.0\n\n   label \"model name\"\n0  Chair plc_chair\n1  ****  \"****\"\n\"\" \"a b\" ****\n"
    );
    let back = read(out.as_bytes()).unwrap();
    assert_eq!(back, t);
    assert!(
        back.read_findings().is_empty(),
        "{:?}",
        back.read_findings()
    );
    // Values a text 2DA cannot hold.
    let mut bad = t.clone();
    bad.rows[0].cells[0] = "say \"hi\"".into();
    assert!(write_text(&bad).is_err());
    bad.rows[0].cells[0] = "two\nlines".into();
    assert!(write_text(&bad).is_err());
    let mut no_columns = TwoDa::default();
    no_columns.add_row("0", Vec::<String>::new());
    assert!(write_text(&no_columns).is_err());
}

#[test]
fn text_and_binary_convert_both_ways() {
    let t = read(NWN.as_bytes()).unwrap();
    let bin = write_binary(&t).unwrap();
    let b = read(&bin).unwrap();
    assert_eq!(b, t);
    assert_eq!(b.rows[0].cells[2], "", "**** is an empty string in binary");
    let text = write_text(&b).unwrap();
    assert_eq!(read(&text).unwrap(), t);
    // A default cannot go to binary.
    let t = read(b"2DA V2.0\nDEFAULT: 0\nA\n").unwrap();
    assert!(write_binary(&t).is_err());
}

#[test]
fn edit_api() {
    let mut t = TwoDa::new(["a", "b"]);
    let i = t.add_row("0", ["x"]);
    assert_eq!(t.rows[i].cells, ["x", ""]);
    assert_eq!(t.set(5, "a", "y"), Err(EditError::NoRow(5)));
    assert_eq!(t.set(0, "c", "y"), Err(EditError::NoColumn("c".into())));
    t.rows[0].cells.truncate(0);
    t.set(0, "B", "y").unwrap();
    assert_eq!(t.rows[0].cells, ["", "y"]);
    assert_eq!(t.row_index("0"), Some(0));
    assert_eq!(t.row_by_label("zero"), None);
    assert_eq!(t.column_index("A"), Some(0));
    assert_eq!(t.get_at(0, 1), Some("y"));
    assert!(is_empty_cell("****") && is_empty_cell("") && !is_empty_cell("0"));
}

#[test]
fn empty_and_duplicate_columns_are_validated() {
    let mut t = TwoDa::new(["a", "", "A"]);
    t.add_row("0", ["1", "2", "3"]);
    let found: Vec<_> = validate(&t).iter().map(|f| (f.code, f.severity)).collect();
    assert_eq!(
        found,
        [
            ("twoda-empty-column-label", crate::Severity::Error),
            ("twoda-duplicate-column", crate::Severity::Warning)
        ]
    );
    // Both layouts still hold them.
    assert_eq!(read(&write_binary(&t).unwrap()).unwrap(), t);
    assert_eq!(read(&write_text(&t).unwrap()).unwrap(), t);
}

#[test]
fn findings_per_code_are_capped() {
    let mut t = TwoDa::new(["a"]);
    for _ in 0..150 {
        t.rows.push(Row::new("x", vec![]));
    }
    let f = validate(&t);
    let dup = f
        .iter()
        .filter(|f| f.code == "twoda-duplicate-row-label")
        .count();
    assert_eq!(dup, 101);
    assert!(f.iter().any(|f| f.message.starts_with("49 more")));
}

// ---------------------------------------------------------------------------------------------
// Typed lookups

#[test]
fn placeable_and_door_models() {
    let p = read(b"2DA V2.0\n\n   label strref modelname lowgore\n0 Chair 1 plc_chair1 ****\n1 Nothing 2 **** ****\n").unwrap();
    assert_eq!(placeable_model(&p, 0), Some("plc_chair1"));
    assert_eq!(placeable_model(&p, 1), None, "empty");
    assert_eq!(placeable_model(&p, 9), None, "no row");
    let no_column = read(b"2DA V2.0\n\nlabel\n0 Chair\n").unwrap();
    assert_eq!(placeable_model(&no_column, 0), None);
    let mut d = TwoDa::new(["label", "strref", "ModelName", "blocksight"]);
    d.add_row("0", ["Metal", "1", "dor_lhr01", "1"]);
    assert_eq!(door_model(&d, 0), Some("dor_lhr01"));
    assert_eq!(door_model(&d, 1), None);
}

/// The stock KotOR table as a text 2DA (what `KOTOR_SURFACEMAT` holds).
fn stock_table() -> TwoDa {
    let mut t = TwoDa::new([
        "label",
        "walk",
        "walkcheck",
        "lineofsight",
        "grass",
        "sound",
    ]);
    for (i, m) in KOTOR_SURFACEMAT.iter().enumerate() {
        let b = |v: bool| if v { "1" } else { "0" };
        t.add_row(
            i.to_string(),
            [
                m.label,
                b(m.walk),
                b(m.walkcheck),
                b(m.line_of_sight),
                b(m.grass),
                m.sound,
            ],
        );
    }
    t
}

#[test]
fn surface_materials_from_a_table() {
    let from_table = SurfaceMaterials::from_table(&stock_table());
    assert_eq!(from_table.missing_columns(), ["name"]);
    assert_eq!(from_table, SurfaceMaterials::kotor());
    let walkable: Vec<u32> = from_table.walkable_ids().collect();
    assert_eq!(walkable, [1, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 18, 30]);
    assert_eq!(from_table.label(7), Some("Nonwalk"));
    assert_eq!(from_table.get(3).and_then(|m| m.grass), Some(true));
    assert!(!from_table.is_walkable(31), "no such row");
    assert_eq!(from_table.len(), 31);

    // NWN's columns (no grass; Name instead), a non-numeric and an empty walk cell.
    let nwn = read(b"2DA V2.0\n\n   Label Walk WalkCheck LineOfSight Sound Name\n0 NotDefined 0 0 0 **** ****\n1 Dirt 1 1 1 DT Dirt\n2 Odd yes 1 1 **** ****\n3 Blank **** 1 1 **** ****\n").unwrap();
    let m = SurfaceMaterials::from_table(&nwn);
    assert_eq!(m.missing_columns(), ["grass"]);
    assert!(m.is_walkable(1) && !m.is_walkable(2) && !m.is_walkable(3));
    assert_eq!(m.get(1).and_then(|x| x.name.as_deref()), Some("Dirt"));
    assert_eq!(m.get(1).and_then(|x| x.grass), None);
    // A table without a walk column: nothing is walkable.
    let none = SurfaceMaterials::from_table(&TwoDa::new(["label"]));
    assert!(none.is_empty());
    assert!(none.missing_columns().contains(&"walk"));
}

#[test]
fn stock_table_against_bwm_materials() {
    // `bwm::Material` (PyKotor's walkable set) and the stock KotOR surfacemat.2da agree on
    // every id but 16 and 20-22: the table has BottomlessPit not walkable, and rows 20-29 are
    // `CRAP` placeholders (Sand, BareBones, StoneBridge are NWN's rows 20-22). No corpus
    // walkmesh uses these ids.
    let stock = SurfaceMaterials::kotor();
    let differ: Vec<u32> = (0..=40)
        .filter(|&id| stock.is_walkable(id) != Material::from_id(id).is_walkable())
        .collect();
    assert_eq!(differ, [16, 20, 21, 22]);
    // The names agree for the rows both define (ignoring case and hyphens).
    for id in (0..=19).chain([30]) {
        let ours = Material::from_id(id).name().replace('-', "");
        assert_eq!(
            stock.label(id).map(str::to_ascii_lowercase).as_deref(),
            Some(ours.as_str()),
            "{id}"
        );
    }
}
