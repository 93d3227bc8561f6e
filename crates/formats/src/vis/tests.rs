//! Unit tests: every irregularity the reader warns about, every error, queries, edits.

use super::*;
use crate::{ErrorKind, Location, Severity};

fn codes(text: &str) -> Vec<(&'static str, Option<u32>, Option<u32>)> {
    read(text.as_bytes())
        .unwrap()
        .read_findings()
        .iter()
        .map(|f| (f.code, f.place.line, f.place.column))
        .collect()
}

fn round_trip(text: &str) -> Vis {
    let v = read(text.as_bytes()).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&write(&v).unwrap()),
        text,
        "not byte-exact"
    );
    v
}

fn out(v: &Vis) -> String {
    String::from_utf8(write(v).unwrap()).unwrap()
}

#[test]
fn reads_parents_and_children() {
    let v = round_trip("a 2\r\n  b\r\n  C\r\nb 1\r\n  a\r\nc 0\r\n");
    assert!(v.read_findings().is_empty());
    assert_eq!(v.rooms.len(), 3);
    assert_eq!(v.rooms[0].visible, ["b", "C"]);
    assert!(v.is_visible("A", "c"));
    assert!(v.is_visible("b", "A"));
    assert!(!v.is_visible("c", "a"), "visibility is directed");
    assert!(!v.is_visible("a", "a"));
    assert_eq!(v.visible_from("a"), ["b", "C"]);
    assert_eq!(v.room_names(), ["a", "b", "C"]);
    assert_eq!(v.summary(), VisSummary { rooms: 3, links: 3 });
    let f = validate(&v);
    assert_eq!(f.len(), 1);
    assert_eq!((f[0].code, f[0].place.line), ("vis-name-case", Some(6)));
}

#[test]
fn wrong_count_lines_decide() {
    // Too large: the next `NAME N` line at column 1 starts a new parent.
    let text = "a 77\n  b\n  c\nb 1\n  a\n";
    let v = round_trip(text);
    assert_eq!(v.rooms.len(), 2);
    assert_eq!(v.rooms[0].visible, ["b", "c"]);
    assert_eq!(codes(text), vec![("vis-count-mismatch", Some(1), Some(3))]);
    // Too small: indented lines beyond the count still belong to the parent.
    let text = "a 1\n  b\n  c\n";
    let v = round_trip(text);
    assert_eq!(v.rooms[0].visible, ["b", "c"]);
    assert_eq!(codes(text), vec![("vis-count-mismatch", Some(1), Some(3))]);
}

#[test]
fn parent_without_count() {
    // A lone word at column 1 where no child is expected is no VIS entry (it was a warning).
    let e = read(b"a\n  b\nc 0\n").unwrap_err();
    assert_eq!(
        e.location(),
        crate::Location::LineCol { line: 1, column: 2 }
    );
    assert!(
        e.message().contains("number of rooms visible from `a`"),
        "{e}"
    );
}

#[test]
fn child_at_column_one_while_children_are_expected() {
    let text = "a 2\nb\n  c\nd 0\n";
    let v = round_trip(text);
    assert_eq!(v.rooms.len(), 2);
    assert_eq!(v.rooms[0].visible, ["b", "c"]);
    assert_eq!(
        codes(text),
        vec![("vis-child-not-indented", Some(2), Some(1))]
    );
}

#[test]
fn indented_child_with_a_stray_count() {
    // stunt_starforge.vis: the last of 5 expected children carries a `5`.
    let text = "a 2\n  b\n  c 5\n";
    let v = round_trip(text);
    assert_eq!(v.rooms.len(), 1);
    assert_eq!(v.rooms[0].visible, ["b", "c"]);
    assert_eq!(codes(text), vec![("vis-extra-tokens", Some(3), Some(5))]);
    // An indented `NAME N` line when no child is expected is a parent.
    let text = "a 1\n  b\n  c 0\n";
    let v = round_trip(text);
    assert_eq!(v.rooms.len(), 2);
    assert_eq!(codes(text), vec![("vis-parent-indented", Some(3), Some(1))]);
}

#[test]
fn whitespace_irregularities() {
    let text = "a 1 x\n\n \t \n\t b \nc 0\r\nd 0";
    let v = round_trip(text);
    assert_eq!(v.rooms.len(), 3);
    assert_eq!(
        codes(text),
        vec![
            ("vis-extra-tokens", Some(1), Some(5)),
            ("vis-blank-line", Some(2), Some(1)),
            ("vis-blank-line", Some(3), Some(1)),
            ("vis-trailing-whitespace", Some(4), Some(4)),
            ("vis-tab-indent", Some(4), Some(1)),
            ("vis-mixed-line-endings", Some(5), Some(1)),
            ("vis-no-final-newline", Some(6), Some(1)),
        ]
    );
}

#[test]
fn placeholder_and_mixed_case_names_are_kept() {
    let text = "**** 1\n  Room_A\nroom_a 1\n  ****\n";
    let v = round_trip(text);
    assert!(v.is_visible("****", "ROOM_A"));
    let f = validate(&v);
    let got: Vec<_> = f.iter().map(|f| (f.code, f.place.line)).collect();
    assert_eq!(got, vec![("vis-name-case", Some(3))]);
}

#[test]
fn errors_name_line_column_and_expectation() {
    let e = read(b"  a\nb 0\n").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Malformed);
    assert_eq!(e.location(), Location::LineCol { line: 1, column: 3 });
    assert!(e.message().contains("before the visible room `a`"), "{e}");

    let e = read(b"a 0\nb x\n").unwrap_err();
    assert_eq!(e.location(), Location::LineCol { line: 2, column: 3 });
    assert!(
        e.message().contains("number of rooms visible from `b`"),
        "{e}"
    );
}

#[test]
fn validate_checks_data() {
    let v = read(b"a 2\n  b\n  B\na 0\nthis_name_is_too_long 1\n  c\n").unwrap();
    let f = validate(&v);
    let got: Vec<_> = f
        .iter()
        .map(|f| (f.code, f.place.line, f.place.item.clone().unwrap()))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "vis-duplicate-child",
                Some(3),
                "rooms[0].visible[1]".to_string()
            ),
            ("vis-name-case", Some(3), "rooms[0].visible[1]".to_string()),
            ("vis-duplicate-room", Some(4), "rooms[1]".to_string()),
            ("vis-name-too-long", Some(5), "rooms[2]".to_string()),
        ]
    );
    assert!(f.iter().all(|f| f.severity == Severity::Warning));
    let mut v = Vis::default();
    v.add_room("caf\u{e9}");
    assert_eq!(validate(&v)[0].code, "vis-name-invalid");
    // A warning: the file reads and writes back; only the name resolves to nothing.
    assert_eq!(validate(&v)[0].severity, Severity::Warning);
}

#[test]
fn edits_keep_untouched_lines() {
    let text = "a 3\r\n   b\r\n\r\n   c\r\n   d\r\nb 77\r\n  a\r\nc 1\r\n\tA";
    // Remove a child: the parent count is rewritten, other lines stay.
    let mut v = read(text.as_bytes()).unwrap();
    assert!(v.set_visible("a", "c", false));
    assert_eq!(out(&v), "a 2\r\n   b\r\n   d\r\nb 77\r\n  a\r\nc 1\r\n\tA");
    // Add: new child after the others, the unterminated last line gets a terminator.
    let mut v = read(text.as_bytes()).unwrap();
    assert!(v.set_visible("c", "b", true));
    assert!(!v.set_visible("c", "B", true), "already visible");
    assert_eq!(
        out(&v),
        "a 3\r\n   b\r\n\r\n   c\r\n   d\r\nb 77\r\n  a\r\nc 2\r\n\tA\r\n  b\r\n"
    );
    // Rename everywhere (case-insensitive match).
    let mut v = read(text.as_bytes()).unwrap();
    assert_eq!(v.rename_room("A", "z"), 3);
    assert_eq!(
        out(&v),
        "z 3\r\n   b\r\n\r\n   c\r\n   d\r\nb 77\r\n  z\r\nc 1\r\n  z"
    );
    // Remove a room: its entry and every listing of it go.
    let mut v = read(text.as_bytes()).unwrap();
    assert!(v.remove_room("b"));
    assert!(!v.remove_room("nothing"));
    assert_eq!(out(&v), "a 2\r\n\r\n   c\r\n   d\r\nc 1\r\n\tA");
    // Add a room.
    let mut v = read(text.as_bytes()).unwrap();
    v.add_room("new").visible.push("a".into());
    assert_eq!(v.rooms.len(), 4);
    assert!(out(&v).ends_with("\tA\r\nnew 1\r\n  a\r\n"));
    let back = read(out(&v).as_bytes()).unwrap();
    assert_eq!(back, v);
}

#[test]
fn canonical_write_and_rejects() {
    let mut v = Vis::default();
    v.set_visible("a", "b", true);
    v.add_room("b");
    assert_eq!(out(&v), "a 1\n  b\nb 0\n");
    v.rooms[1].name = "has space".into();
    assert!(write(&v).is_err());
    let mut w = read(b"x 1\n\ty\n").unwrap();
    w.clear_source();
    assert_eq!(out(&w), "x 1\n  y\n");
}

#[test]
fn empty_input() {
    let v = round_trip("");
    assert!(v.rooms.is_empty());
    let v = round_trip("\n\n");
    assert!(v.rooms.is_empty());
}

// --- The bytes of real files: NUL tails, byte-order marks, CR and mixed line ends, CP-1252. ---
// Each file reads, writes back byte for byte, and gets warnings only.

/// A finding's code, line and column.
type Code = (&'static str, Option<u32>, Option<u32>);

/// Reads `data`, checks the byte-exact round trip and that no finding is an error; returns the
/// model and the codes with line and column.
fn odd(data: &[u8]) -> (Vis, Vec<Code>) {
    let v = read(data).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(write(&v).unwrap(), data);
    let f = validate(&v);
    assert!(f.iter().all(|f| f.severity == Severity::Warning), "{f:#?}");
    let codes = v
        .read_findings()
        .iter()
        .map(|f| (f.code, f.place.line, f.place.column))
        .collect();
    (v, codes)
}

#[test]
fn nul_tail_is_kept_not_read() {
    let (v, codes) = odd(b"a 1\n  b\nb 0\n\0");
    assert_eq!(v.room_names(), ["a", "b"]);
    assert_eq!(codes, [("vis-nul-tail", Some(4), Some(1))]);
    // NUL padding with text after it, right after the last name.
    let (v, codes) = odd(b"a 1\r\n  b\0\0\0c 0\r\n");
    assert_eq!(v.room_names(), ["a", "b"]);
    assert_eq!(
        codes,
        [
            ("vis-no-final-newline", Some(2), Some(1)),
            ("vis-nul-tail", Some(2), Some(4)),
        ]
    );
    // An edit keeps the tail after the last line.
    let mut v = v;
    v.set_visible("b", "a", true);
    assert_eq!(
        write(&v).unwrap(),
        b"a 1\r\n  b\r\nb 1\r\n  a\r\n\0\0\0c 0\r\n"
    );
}

#[test]
fn byte_order_mark_is_not_part_of_the_first_name() {
    let (v, codes) = odd(b"\xEF\xBB\xBFa 1\n  b\n");
    assert!(v.is_visible("a", "b"));
    assert_eq!(codes, [("vis-bom", Some(1), Some(1))]);
}

#[test]
fn cr_only_line_ends_are_line_ends() {
    let (v, codes) = odd(b"a 1\r  b\rb 1\r  a\r");
    assert!(v.is_visible("a", "b") && v.is_visible("b", "a"));
    assert_eq!(codes, [("vis-cr-line-endings", Some(1), Some(1))]);
    let mut v = v;
    v.add_room("c");
    assert_eq!(write(&v).unwrap(), b"a 1\r  b\rb 1\r  a\rc 0\r");
}

#[test]
fn mixed_line_ends_with_cr() {
    let (v, codes) = odd(b"a 2\n  b\r  c\r\nb 0\n");
    assert_eq!(v.rooms[0].visible, ["b", "c"]);
    assert_eq!(
        codes,
        [
            ("vis-mixed-line-endings", Some(2), Some(1)),
            ("vis-cr-line-endings", Some(2), Some(1)),
        ]
    );
}

#[test]
fn cp1252_names_compare_on_ascii_letters_and_write_back() {
    let (v, codes) = odd(b"caf\xe9 2\n  CAF\xe9\n  caf\xc9\n");
    assert_eq!(codes, [("vis-non-ascii", Some(1), Some(4))]);
    assert_eq!(v.rooms[0].name, "caf\u{e9}");
    assert!(v.is_visible("CAF\u{e9}", "caf\u{e9}"));
    // 0xE9 and 0xC9 are different rooms: no duplicate child.
    assert_eq!(v.visible_from("caf\u{e9}"), ["CAF\u{e9}", "caf\u{c9}"]);
    let mut v = v;
    v.rename_room("caf\u{c9}", "d\u{e8}");
    assert_eq!(write(&v).unwrap(), b"caf\xe9 2\n  CAF\xe9\n  d\xe8\n");
}
