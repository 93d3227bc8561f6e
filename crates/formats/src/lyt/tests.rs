//! Unit tests: every irregularity the reader warns about, every error, edits.
#![allow(clippy::approx_constant)] // the values are the files' text, not approximations

use super::*;
use crate::{ErrorKind, Location};

const BASIC: &str = "#MAXLAYOUT ASCII\r\nfiledependancy m01.max\r\nbeginlayout\r\n   roomcount 2\r\n      room_a 1.0 2.0 0.0\r\n      room_b 10.5 2.0 -1.0\r\n   trackcount 0\r\n   obstaclecount 0\r\n   doorhookcount 1\r\n      room_a door_01 0 5.0 2.0 0.0 0.707107 0.0 0.0 -0.707107\r\ndonelayout\r\n";

fn codes(text: &str) -> Vec<(&'static str, Option<u32>, Option<u32>)> {
    let l = read(text.as_bytes()).unwrap();
    l.read_findings()
        .iter()
        .map(|f| (f.code, f.place.line, f.place.column))
        .collect()
}

fn err(text: &str) -> (u32, u32, String) {
    let e = read(text.as_bytes()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Malformed);
    match e.location() {
        Location::LineCol { line, column } => (line, column, e.message().to_string()),
        other => panic!("unexpected location {other:?}"),
    }
}

fn round_trip(text: &str) -> Lyt {
    let l = read(text.as_bytes()).unwrap();
    assert_eq!(write(&l).unwrap(), text.as_bytes());
    l
}

#[test]
fn reads_every_section() {
    let l = round_trip(BASIC);
    assert!(l.read_findings().is_empty(), "{:?}", l.read_findings());
    assert_eq!(l.file_dependencies[0].name, "m01.max");
    assert_eq!(l.rooms.len(), 2);
    assert_eq!(l.rooms[1].position, [10.5, 2.0, -1.0]);
    assert_eq!(l.doorhooks[0].room, "room_a");
    assert_eq!(l.doorhooks[0].door, "door_01");
    assert_eq!(l.doorhooks[0].orientation, [0.707107, 0.0, 0.0, -0.707107]);
    assert_eq!(l.room_index("ROOM_B"), Some(1));
    assert_eq!(
        l.summary(),
        LytSummary {
            rooms: 2,
            tracks: 0,
            obstacles: 0,
            doorhooks: 1
        }
    );
    assert!(validate(&l).is_empty());
}

#[test]
fn tracks_obstacles_and_extra_floats() {
    let text = "beginlayout\n roomcount 1\n  r 0 0 0\n trackcount 1\n  t1 1 2 3\n obstaclecount 1\n  o1 4 5 6\n doorhookcount 1\n  r d 0 1 2 3 1 0 0 0 9.5 8 7 6 5\ndonelayout\n";
    let l = round_trip(text);
    assert_eq!(l.tracks[0].name, "t1");
    assert_eq!(l.obstacles[0].position, [4.0, 5.0, 6.0]);
    assert_eq!(l.doorhooks[0].extra, vec![9.5, 8.0, 7.0, 6.0, 5.0]);
}

#[test]
fn warns_count_mismatch_and_reads_all_lines() {
    let text = "beginlayout\n   roomcount 5\n      a 0 0 0\n      b 0 0 0\n   doorhookcount 0\ndonelayout\n";
    let l = round_trip(text);
    assert_eq!(l.rooms.len(), 2);
    assert_eq!(codes(text), vec![("lyt-count-mismatch", Some(2), Some(1))]);
    // Too small a count: the extra lines are still read.
    let text = "beginlayout\nroomcount 1\na 0 0 0\nb 0 0 0\ndonelayout\n";
    assert_eq!(read(text.as_bytes()).unwrap().rooms.len(), 2);
    assert_eq!(codes(text), vec![("lyt-count-mismatch", Some(2), Some(1))]);
}

#[test]
fn warns_whitespace_irregularities() {
    let text = "beginlayout\n\t  roomcount 1  \n\n   \n      a 0 0 0\ndonelayout";
    round_trip(text);
    assert_eq!(
        codes(text),
        vec![
            ("lyt-trailing-whitespace", Some(2), Some(15)),
            ("lyt-tab-indent", Some(2), Some(1)),
            ("lyt-blank-line", Some(3), Some(1)),
            ("lyt-blank-line", Some(4), Some(1)),
            ("lyt-no-final-newline", Some(6), Some(1)),
        ]
    );
}

#[test]
fn warns_mixed_line_endings() {
    let text = "beginlayout\r\nroomcount 0\ndonelayout\r\n";
    round_trip(text);
    assert_eq!(
        codes(text),
        vec![("lyt-mixed-line-endings", Some(2), Some(1))]
    );
}

#[test]
fn warns_keyword_case_and_spelling() {
    let text = "FileDependency x.max\nBeginLayout\nROOMCOUNT 1\n a 0 0 0\nDoneLayout\n";
    let l = round_trip(text);
    assert_eq!(l.rooms.len(), 1);
    assert_eq!(l.file_dependencies[0].name, "x.max");
    assert_eq!(
        codes(text),
        vec![
            ("lyt-keyword-case", Some(1), Some(1)),
            ("lyt-keyword-spelling", Some(1), Some(1)),
            ("lyt-keyword-case", Some(2), Some(1)),
            ("lyt-keyword-case", Some(3), Some(1)),
            ("lyt-keyword-case", Some(5), Some(1)),
        ]
    );
}

#[test]
fn warns_structure_irregularities() {
    // No beginlayout, a stray line outside any section, extra tokens, a missing count,
    // a repeated section, content after donelayout.
    let text =
        "junk here\nroomcount\n a 0 0 0 extra\nroomcount 1 2\n b 0 0 0\ndonelayout now\ntrailing";
    let l = round_trip(text);
    assert_eq!(l.rooms.len(), 2);
    assert_eq!(l.rooms[0].extra, vec!["extra".to_string()]);
    assert_eq!(
        codes(text),
        vec![
            ("lyt-unknown-line", Some(1), Some(1)),
            ("lyt-missing-beginlayout", Some(2), Some(1)),
            ("lyt-missing-count", Some(2), Some(10)),
            ("lyt-extra-tokens", Some(3), Some(10)),
            ("lyt-extra-tokens", Some(4), Some(13)),
            ("lyt-duplicate-section", Some(4), Some(1)),
            ("lyt-extra-tokens", Some(6), Some(12)),
            ("lyt-content-after-donelayout", Some(7), Some(1)),
            ("lyt-no-final-newline", Some(7), Some(1)),
        ]
    );
    // Stray lines alone, with no LYT keyword at all, are no LYT: an error at the end.
    let (line, _, msg) = err("junk here\nmore junk\n");
    assert_eq!(line, 2);
    assert!(msg.contains("not a LYT"), "{msg}");
}

#[test]
fn warns_missing_donelayout_and_duplicate_begin() {
    let text = "beginlayout\nbeginlayout\nroomcount 0\n";
    round_trip(text);
    assert_eq!(
        codes(text),
        vec![
            ("lyt-duplicate-beginlayout", Some(2), Some(1)),
            ("lyt-missing-donelayout", Some(3), Some(1)),
        ]
    );
}

#[test]
fn errors_name_line_column_and_expectation() {
    let (l, c, m) = err("beginlayout\nroomcount x\n");
    assert_eq!((l, c), (2, 11));
    assert!(m.contains("integer count"), "{m}");

    let (l, c, m) = err("beginlayout\nroomcount 1\n  room 1.0 abc 0\n");
    assert_eq!((l, c), (3, 12));
    assert!(m.contains("room's y"), "{m}");

    let (l, c, m) = err("beginlayout\nroomcount 1\n  room 1.0 2.0\n");
    assert_eq!((l, c), (3, 15));
    assert!(m.contains("expected z"), "{m}");

    let (l, c, m) = err("beginlayout\ndoorhookcount 1\n  r d 0 1 2 3 1 0 0\n");
    assert_eq!((l, c), (3, 20));
    assert!(m.contains("quaternion z"), "{m}");

    let (l, c, m) = err("beginlayout\ndoorhookcount 1\n  r d x 1 2 3 1 0 0 0\n");
    assert_eq!((l, c), (3, 7));
    assert!(m.contains("integer after the door name"), "{m}");

    let (l, c, m) = err("beginlayout\ndoorhookcount 1\n  r\n");
    assert_eq!((l, c), (3, 4));
    assert!(m.contains("door name"), "{m}");

    let (l, c, _) = err("beginlayout\ndoorhookcount 1\n  r d 0 1 2 3 1 0 0 0 nan\n");
    assert_eq!((l, c), (3, 23));

    let (l, c, m) = err("filedependancy\n");
    assert_eq!((l, c), (1, 15));
    assert!(m.contains("file name"), "{m}");

    let (l, c, _) = err("beginlayout\nroomcount 1\n  room inf 0 0\n");
    assert_eq!((l, c), (3, 8));
}

#[test]
fn non_ascii_bytes_round_trip() {
    let mut data = b"# caf\xe9\nbeginlayout\nroomcount 0\ndonelayout\n".to_vec();
    let l = read(&data).unwrap();
    assert_eq!(write(&l).unwrap(), data);
    data.push(0xff);
    let l = read(&data).unwrap();
    assert_eq!(write(&l).unwrap(), data);
}

#[test]
fn edit_touches_only_edited_lines() {
    let text = "beginlayout\r\n  roomcount   2\r\n\tA  1.0 2.0 3.0\r\n\r\n\tB  4.0 5.0 6.0\r\n  doorhookcount 0\r\ndonelayout";
    let mut l = read(text.as_bytes()).unwrap();
    l.rooms[1].position[0] = 7.25;
    assert_eq!(
        String::from_utf8(write(&l).unwrap()).unwrap(),
        "beginlayout\r\n  roomcount   2\r\n\tA  1.0 2.0 3.0\r\n\r\n      B 7.25 5.0 6.0\r\n  doorhookcount 0\r\ndonelayout"
    );

    // Removing the first room keeps the second's text; the count follows.
    let mut l = read(text.as_bytes()).unwrap();
    l.rooms.remove(0);
    assert_eq!(
        String::from_utf8(write(&l).unwrap()).unwrap(),
        "beginlayout\r\n  roomcount   1\r\n\tB  4.0 5.0 6.0\r\n\r\n  doorhookcount 0\r\ndonelayout"
    );

    // Adding records: after the last record of the section; new sections before donelayout;
    // the unterminated last line gets a terminator when it is no longer last.
    let mut l = read(text.as_bytes()).unwrap();
    l.rooms.push(Placement::new("C", [0.0, 0.5, 1.0]));
    l.doorhooks.push(DoorHook::new("C", "D1", [1.0, 2.0, 3.0]));
    l.tracks.push(Placement::new("T", [0.0, 0.0, 0.0]));
    l.file_dependencies.push(FileDependency::new("x.max"));
    assert_eq!(
        String::from_utf8(write(&l).unwrap()).unwrap(),
        "filedependancy x.max\r\nbeginlayout\r\n  roomcount   3\r\n\tA  1.0 2.0 3.0\r\n\r\n\tB  4.0 5.0 6.0\r\n      C 0.0 0.5 1.0\r\n  doorhookcount 1\r\n      C D1 0 1.0 2.0 3.0 1.0 0.0 0.0 0.0\r\n   trackcount 1\r\n      T 0.0 0.0 0.0\r\ndonelayout"
    );
    // And the result reads back to the same model.
    let back = read(&write(&l).unwrap()).unwrap();
    assert_eq!(back, l);
}

#[test]
fn wrong_count_kept_until_the_section_changes() {
    let text = "beginlayout\nroomcount 5\na 0 0 0\ndonelayout\n";
    let mut l = read(text.as_bytes()).unwrap();
    l.rooms[0].name = "b".into();
    assert_eq!(
        write(&l).unwrap(),
        b"beginlayout\nroomcount 5\n      b 0.0 0.0 0.0\ndonelayout\n"
    );
    l.rooms.push(Placement::new("c", [0.0; 3]));
    assert_eq!(
        write(&l).unwrap(),
        b"beginlayout\nroomcount 2\n      b 0.0 0.0 0.0\n      c 0.0 0.0 0.0\ndonelayout\n"
    );
}

#[test]
fn canonical_write_of_a_built_model() {
    let mut l = Lyt::default();
    l.file_dependencies.push(FileDependency::new("a.max"));
    l.rooms.push(Placement::new("a_01", [1.5, 0.0, -2.0]));
    let mut hook = DoorHook::new("a_01", "door_1", [0.0, 1.0, 0.0]);
    hook.orientation = [0.707107, 0.0, 0.0, -0.707107];
    l.doorhooks.push(hook);
    let out = String::from_utf8(write(&l).unwrap()).unwrap();
    assert_eq!(
        out,
        "#MAXLAYOUT ASCII\nfiledependancy a.max\nbeginlayout\n   roomcount 1\n      a_01 1.5 0.0 -2.0\n   trackcount 0\n   obstaclecount 0\n   doorhookcount 1\n      a_01 door_1 0 0.0 1.0 0.0 0.707107 0.0 0.0 -0.707107\ndonelayout\n"
    );
    let back = read(out.as_bytes()).unwrap();
    assert_eq!(back, l);
    assert!(back.read_findings().is_empty());
    // clear_source forces a canonical write.
    let mut weird = read(b"beginlayout\nroomcount 1\n\ta   1 2 3\ndonelayout").unwrap();
    weird.clear_source();
    assert_eq!(
        write(&weird).unwrap(),
        b"#MAXLAYOUT ASCII\nbeginlayout\n   roomcount 1\n      a 1.0 2.0 3.0\n   trackcount 0\n   obstaclecount 0\n   doorhookcount 0\ndonelayout\n"
    );
}

#[test]
fn write_rejects_unwritable_names() {
    let mut l = Lyt::default();
    l.rooms.push(Placement::new("a b", [0.0; 3]));
    assert!(write(&l).is_err());
    l.rooms[0].name = String::new();
    assert!(write(&l).is_err());
    l.rooms[0].name = "caf\u{0101}".into();
    assert!(write(&l).is_err());
    l.rooms[0].name = "ok".into();
    l.rooms[0].position[0] = f32::NAN;
    assert!(write(&l).is_err());
}

#[test]
fn validate_checks_data() {
    let mut l = Lyt::default();
    assert_eq!(
        validate(&l).iter().map(|f| f.code).collect::<Vec<_>>(),
        ["lyt-no-rooms"]
    );
    l.rooms.push(Placement::new("Room_A", [0.0; 3]));
    l.rooms.push(Placement::new("room_a", [0.0; 3]));
    l.rooms.push(Placement::new(PLACEHOLDER_ROOM, [0.0; 3]));
    l.rooms.push(Placement::new(PLACEHOLDER_ROOM, [0.0; 3]));
    l.rooms
        .push(Placement::new("a_name_longer_than_16", [0.0; 3]));
    l.tracks.push(Placement::new("tr\u{e9}", [0.0; 3]));
    let mut hook = DoorHook::new("nowhere", "d", [0.0; 3]);
    hook.orientation = [0.5, 0.0, 0.0, 0.0];
    l.doorhooks.push(hook);
    let f = validate(&l);
    let got: Vec<(&str, Option<String>)> =
        f.iter().map(|f| (f.code, f.place.item.clone())).collect();
    assert_eq!(
        got,
        vec![
            ("lyt-duplicate-room", Some("rooms[1]".into())),
            ("lyt-name-too-long", Some("rooms[4]".into())),
            ("lyt-name-invalid", Some("tracks[0]".into())),
            ("lyt-doorhook-unknown-room", Some("doorhooks[0]".into())),
            ("lyt-doorhook-quaternion", Some("doorhooks[0]".into())),
        ]
    );
    // Only the over-long name is an error (the severity review made the others warnings).
    let errors: Vec<_> = f
        .iter()
        .filter(|f| f.severity == crate::Severity::Error)
        .map(|f| f.code)
        .collect();
    assert_eq!(errors, ["lyt-name-too-long"]);
}

#[test]
fn validate_reports_read_findings_with_lines() {
    let l = read(b"beginlayout\nroomcount 2\n a 0 0 0\n A 1 1 1\ndonelayout\n").unwrap();
    let f = validate(&l);
    let got: Vec<(&str, Option<u32>)> = f.iter().map(|f| (f.code, f.place.line)).collect();
    assert_eq!(
        got,
        vec![("lyt-duplicate-room", Some(4))],
        "duplicate rooms name the second line"
    );
}

#[test]
fn empty_input() {
    // No LYT keyword at all: not a LYT.
    let (line, column, msg) = err("");
    assert_eq!((line, column), (1, 1));
    assert!(msg.contains("not a LYT"), "{msg}");
}

// --- The bytes of real files: NUL tails, byte-order marks, CR and mixed line ends, CP-1252. ---
// Each file reads, writes back byte for byte, and gets warnings only.

/// A finding's code, line and column.
type Code = (&'static str, Option<u32>, Option<u32>);

/// Reads `data`, checks the byte-exact round trip and that no finding is an error; returns the
/// model and the codes with line and column.
fn odd(data: &[u8]) -> (Lyt, Vec<Code>) {
    let l = read(data).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(write(&l).unwrap(), data);
    let f = validate(&l);
    assert!(
        f.iter().all(|f| f.severity == crate::Severity::Warning),
        "{f:#?}"
    );
    let codes = l
        .read_findings()
        .iter()
        .map(|f| (f.code, f.place.line, f.place.column))
        .collect();
    (l, codes)
}

#[test]
fn nul_tail_is_kept_not_read() {
    // One NUL right after `donelayout` (a C-string terminator): no line terminator before it.
    let data = b"beginlayout\nroomcount 1\n  a 0 0 0\ndonelayout\0";
    let (l, codes) = odd(data);
    assert_eq!(l.rooms.len(), 1);
    assert_eq!(
        codes,
        [
            ("lyt-no-final-newline", Some(4), Some(1)),
            ("lyt-nul-tail", Some(4), Some(11)),
        ]
    );
    // NUL padding after the last line, and text after a NUL: kept, not read.
    let mut data = BASIC.as_bytes().to_vec();
    data.extend_from_slice(b"\0\0\0\0junk 1 2 3\r\n\0");
    let (l, codes) = odd(&data);
    assert_eq!(l.rooms.len(), 2);
    assert_eq!(codes, [("lyt-nul-tail", Some(12), Some(1))]);
    // Editing a record keeps the tail.
    let mut l = l;
    l.rooms[0].position[2] = 1.5;
    let out = write(&l).unwrap();
    assert!(out.ends_with(b"donelayout\r\n\0\0\0\0junk 1 2 3\r\n\0"));
    assert_eq!(read(&out).unwrap().rooms[0].position[2], 1.5);
}

#[test]
fn byte_order_mark_is_not_part_of_the_first_line() {
    let data = b"\xEF\xBB\xBFbeginlayout\nroomcount 1\n  a 0 0 0\ndonelayout\n";
    let (l, codes) = odd(data);
    assert_eq!(l.rooms[0].name, "a");
    assert_eq!(codes, [("lyt-bom", Some(1), Some(1))]);
    // Edits keep the mark.
    let mut l = l;
    l.rooms.push(Placement::new("b", [0.0; 3]));
    assert!(
        write(&l)
            .unwrap()
            .starts_with(b"\xEF\xBB\xBFbeginlayout\nroomcount 2\n")
    );
}

#[test]
fn cr_only_line_ends_are_line_ends() {
    let data = BASIC.replace("\r\n", "\r");
    let (l, codes) = odd(data.as_bytes());
    assert_eq!(l.rooms.len(), 2);
    assert_eq!(l.doorhooks[0].door, "door_01");
    assert_eq!(codes, [("lyt-cr-line-endings", Some(1), Some(1))]);
    // New lines take the file's line end.
    let mut l = l;
    l.rooms.push(Placement::new("c", [0.0; 3]));
    let out = write(&l).unwrap();
    assert!(!out.contains(&b'\n'));
    assert_eq!(read(&out).unwrap().rooms.len(), 3);
}

#[test]
fn mixed_line_ends_with_cr() {
    let data = b"beginlayout\r\nroomcount 1\n  a 0 0 0\rdonelayout\r\n";
    let (l, codes) = odd(data);
    assert_eq!(l.rooms.len(), 1);
    assert_eq!(
        codes,
        [
            ("lyt-mixed-line-endings", Some(2), Some(1)),
            ("lyt-cr-line-endings", Some(3), Some(1)),
        ]
    );
}

#[test]
fn cp1252_names_compare_on_ascii_letters_and_write_back() {
    // `caf\xe9` (é), a `\x80` (€) in a comment.
    let data = b"# \x80 layout\nbeginlayout\nroomcount 2\n  caf\xe9 0 0 0\n  Caf\xc9 1 0 0\ndoorhookcount 1\n  CAF\xe9 d 0 0 0 0 1 0 0 0\ndonelayout\n";
    let (l, codes) = odd(data);
    assert_eq!(codes, [("lyt-non-ascii", Some(1), Some(3))]);
    assert_eq!(l.rooms[0].name, "caf\u{e9}");
    // ASCII letters fold, the byte 0xE9 does not become 0xC9: two rooms, no duplicate.
    assert_eq!(l.room_index("CAF\u{e9}"), Some(0));
    assert_eq!(l.room_index("caf\u{c9}"), Some(1));
    let f = validate(&l);
    assert!(!f.iter().any(|f| f.code == "lyt-duplicate-room"), "{f:#?}");
    assert!(
        !f.iter().any(|f| f.code == "lyt-doorhook-unknown-room"),
        "{f:#?}"
    );
    // An edited name with such a byte is written as that byte.
    let mut l = l;
    l.rooms[1].name = "d\u{e8}".into();
    let out = write(&l).unwrap();
    assert!(out.windows(3).any(|w| w == b"d\xe8 "), "{out:?}");
}

proptest::proptest! {
    /// Any finite `f32` a LYT is written with reads back to the same bits (the writer's shortest
    /// text through the reader's own parser).
    #[test]
    fn every_finite_float_reads_back_to_its_bits(x in proptest::num::f32::ANY) {
        proptest::prop_assume!(x.is_finite());
        let mut l = Lyt::default();
        l.rooms.push(Placement::new("a_01", [x, -x, 0.0]));
        let back = read(&write(&l).unwrap()).unwrap();
        let p = back.rooms[0].position;
        proptest::prop_assert_eq!(p[0].to_bits(), x.to_bits());
        proptest::prop_assert_eq!(p[1].to_bits(), (-x).to_bits());
    }
}
