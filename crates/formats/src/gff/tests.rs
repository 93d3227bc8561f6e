//! Unit tests over small hand-made GFFs.

use super::raw::{self, Header};
use super::views::{Are, Git, Ifo, Pth, Utd, Utp};
use super::*;
use crate::{ErrorKind, Location, Severity};

const fn l(s: &'static str) -> Label {
    Label::lit(s)
}

/// A tree with every field type, nested structs and lists, and awkward floats.
fn every_type() -> Gff {
    let mut g = Gff::new(*b"UTX ");
    let loc = LocString {
        strref: 42,
        strings: vec![
            LocSubString {
                id: 0,
                text: "male_eng".into(),
            },
            LocSubString {
                id: 5,
                text: "fem_german".into(),
            },
        ],
    };
    let child = Struct::new(0).with(l("child_uint8"), Value::Byte(4));
    let elems = vec![
        Struct::new(1),
        Struct::new(2).with(l("a"), Value::Int(-1)).with(
            l("b"),
            Value::List(vec![Struct::new(7).with(l("c"), Value::Word(9))]),
        ),
    ];
    g.root = Struct::new(raw::ROOT_STRUCT_ID)
        .with(l("uint8"), Value::Byte(255))
        .with(l("int8"), Value::Char(-127))
        .with(l("uint16"), Value::Word(65535))
        .with(l("int16"), Value::Short(-32768))
        .with(l("uint32"), Value::Dword(u32::MAX))
        .with(l("int32"), Value::Int(i32::MIN))
        .with(l("uint64"), Value::Dword64(1 << 32))
        .with(l("int64"), Value::Int64(-5))
        .with(l("single"), Value::Float(f32::from_bits(0x7fc0_1234)))
        .with(l("negzero"), Value::Float(-0.0))
        .with(
            l("double"),
            Value::Double(f64::from_bits(0xfff8_0000_dead_beef)),
        )
        .with(l("string"), Value::String("abcdefghij123456789".into()))
        .with(l("resref"), Value::ResRef("resref01".into()))
        .with(l("locstring"), Value::LocString(loc))
        .with(l("binary"), Value::Void(b"binarydata".to_vec()))
        .with(l("orientation"), Value::Orientation([1.0, 2.0, 3.0, 4.0]))
        .with(l("position"), Value::Vector([11.0, 22.0, -0.0]))
        .with(l("child_struct"), Value::Struct(Box::new(child)))
        .with(l("list"), Value::List(elems))
        .with(l("strref"), Value::StrRef(1234))
        .with(
            l("future"),
            Value::Unknown {
                type_id: 40,
                data: 0xdead_beef,
            },
        )
        .with(l("sixteen_chars_ab"), Value::Byte(1));
    g
}

fn header(b: &[u8]) -> Header {
    Header::parse(b[..raw::HEADER_SIZE].try_into().unwrap())
}

fn set_word(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn word(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn every_type_round_trips() {
    let g = every_type();
    let bytes = write(&g).unwrap();
    let back = read(&bytes).unwrap();
    assert_eq!(back, g);
    // Bit patterns survive: NaN payload and -0.0.
    assert_eq!(back.root.get_f32("single").unwrap().to_bits(), 0x7fc0_1234);
    assert_eq!(
        back.root.get_f32("negzero").unwrap().to_bits(),
        (-0.0f32).to_bits()
    );
    assert_eq!(
        back.root.get_f64("double").unwrap().to_bits(),
        0xfff8_0000_dead_beef
    );
    // Unmodified: written back byte for byte, through the original layout.
    assert!(fits_original_layout(&back));
    assert_eq!(write(&back).unwrap(), bytes);
    // The canonical layout of a canonical file is itself.
    assert_eq!(write_canonical(&back).unwrap(), bytes);
    let h = header(&bytes);
    assert_eq!(h.struct_count, 5);
    assert_eq!(h.field_count, 26);
    let s = back.summary();
    assert_eq!((s.structs, s.fields, s.labels, s.lists), (5, 26, 26, 2));
    assert_eq!((s.list_elements, s.depth), (3, 2));
    assert_eq!(s.file_type, "UTX ");
    assert_eq!(s.version, "V3.2");
}

#[test]
fn typed_getters_and_setters() {
    let mut g = every_type();
    let r = g.root_mut();
    assert_eq!(r.get_u8("uint8"), Some(255));
    assert_eq!(r.get_i8("int8"), Some(-127));
    assert_eq!(r.get_u16("uint16"), Some(65535));
    assert_eq!(r.get_i16("int16"), Some(-32768));
    assert_eq!(r.get_u32("uint32"), Some(u32::MAX));
    assert_eq!(r.get_i32("int32"), Some(i32::MIN));
    assert_eq!(r.get_u64("uint64"), Some(1 << 32));
    assert_eq!(r.get_i64("int64"), Some(-5));
    assert_eq!(r.get_int("uint16"), Some(65535));
    assert_eq!(r.get_number("int32"), Some(f64::from(i32::MIN)));
    assert_eq!(r.get_u8("int8"), None, "a CHAR is not a BYTE");
    assert_eq!(
        r.get_string("string").unwrap().to_str(),
        "abcdefghij123456789"
    );
    assert!(
        r.get_resref("resref")
            .unwrap()
            .eq_ignore_ascii_case("RESREF01")
    );
    let loc = r.get_locstring("locstring").unwrap();
    assert_eq!(loc.strref(), Some(42));
    assert_eq!(loc.get(0, false).unwrap().to_str(), "male_eng");
    assert_eq!(loc.get(2, true).unwrap().to_str(), "fem_german");
    assert_eq!(r.get_void("binary"), Some(&b"binarydata"[..]));
    assert_eq!(r.get_orientation("orientation"), Some([1.0, 2.0, 3.0, 4.0]));
    assert_eq!(r.get_vector("position").map(|v| v[1]), Some(22.0));
    assert_eq!(r.get_strref("strref"), Some(1234));
    assert_eq!(
        r.get_struct("child_struct").unwrap().get_u8("child_uint8"),
        Some(4)
    );
    assert_eq!(r.get_list("list").unwrap()[1].id, 2);
    assert_eq!(r.get("missing"), None);
    // Setters: replace, append, remove, list elements.
    assert_eq!(r.set(l("uint8"), Value::Byte(1)), Some(Value::Byte(255)));
    assert_eq!(r.set(l("new"), Value::Int(3)), None);
    assert_eq!(r.fields.last().unwrap().label, l("new"));
    assert_eq!(r.remove("new"), Some(Value::Int(3)));
    r.get_list_mut("list").unwrap().push(Struct::new(3));
    r.get_struct_mut("child_struct").unwrap().id = 9;
    let bytes = write(&g).unwrap();
    let back = read(&bytes).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.root.get_list("list").unwrap().len(), 3);
}

#[test]
fn labels() {
    assert!(Label::new("sixteen_chars_ab").is_some());
    assert!(Label::new("seventeen_chars_a").is_none());
    assert!(Label::new("a\0b").is_none());
    assert_eq!(l("Tag").to_string(), "Tag");
    assert_eq!(l("Tag").padded()[3..], [0; 13]);
    assert!(l("Tag").is("Tag") && !l("Tag").is("tag"));
}

#[test]
fn text_decodes_windows_1252() {
    assert_eq!(
        Text::from_bytes(b"caf\xe9 \x93q\x94".to_vec()).to_str(),
        "café “q”"
    );
    assert_eq!(Text::from("plain").to_str(), "plain");
}

#[test]
fn text_encodes_windows_1252() {
    let t = Text::windows_1252_lossy("café “q” €");
    assert_eq!(t.as_bytes(), b"caf\xe9 \x93q\x94 \x80");
    assert_eq!(t.to_str(), "café “q” €");
    // A character Windows-1252 has no byte for is replaced.
    assert_eq!(Text::windows_1252_lossy("a\u{4e2d}b").as_bytes(), b"a?b");
    assert_eq!(Text::windows_1252_lossy("plain").as_bytes(), b"plain");
}

#[test]
fn same_shape_edits_stay_in_place_other_edits_relayout() {
    let g = every_type();
    let bytes = write(&g).unwrap();
    // A non-canonical original: move the field data 8 bytes further (a gap of 8 bytes).
    let h = header(&bytes);
    let fd = h.field_data_offset as usize;
    let mut odd = bytes[..fd].to_vec();
    odd.extend_from_slice(b"GAPGAP!!");
    odd.extend_from_slice(&bytes[fd..]);
    for at in [32, 40, 48] {
        let v = word(&odd, at);
        set_word(&mut odd, at, v + 8);
    }
    let mut back = read(&odd).unwrap();
    assert_eq!(back, g);
    assert_eq!(write(&back).unwrap(), odd, "unmodified: byte-exact");
    let codes: Vec<_> = validate(&back).into_iter().map(|f| f.code).collect();
    assert_eq!(
        codes,
        ["gff-unknown-type", "gff-unknown-type", "gff-table-gap"],
        "StrRef and type 40, and the gap"
    );

    // Same shape: values of the same size change in place, the gap stays.
    back.root.set(l("uint32"), Value::Dword(7));
    back.root
        .set(l("string"), Value::String("ABCDEFGHIJ123456789".into()));
    let edited = write(&back).unwrap();
    assert_eq!(edited.len(), odd.len());
    assert_eq!(&edited[fd..fd + 8], b"GAPGAP!!");
    assert_eq!(read(&edited).unwrap(), back);
    let changed = odd.iter().zip(&edited).filter(|(a, b)| a != b).count();
    assert!(changed <= 4 + 19, "{changed} bytes changed");

    // A string of another length does not fit: canonical layout (no gap).
    back.root.set(l("string"), Value::String("short".into()));
    let relaid = write(&back).unwrap();
    assert!(!fits_original_layout(&back));
    assert_eq!(relaid, write_canonical(&back).unwrap());
    assert_eq!(read(&relaid).unwrap(), back);

    // Adding a field changes the shape too.
    let mut back = read(&odd).unwrap();
    back.root.push(l("extra"), Value::Byte(0));
    assert_eq!(write(&back).unwrap(), write_canonical(&back).unwrap());
    // Forgetting the layout forces the canonical one.
    let mut back = read(&odd).unwrap();
    back.forget_layout();
    assert_eq!(write(&back).unwrap(), bytes);
}

#[test]
fn shared_label_edit_falls_back_to_canonical() {
    // Two structs use the label "a" (stored once). Renaming one of them cannot stay in place.
    let mut g = Gff::new(*b"TST ");
    g.root.push(l("a"), Value::Byte(1));
    g.root.push(
        l("s"),
        Value::Struct(Box::new(Struct::new(0).with(l("a"), Value::Byte(2)))),
    );
    let bytes = write(&g).unwrap();
    assert_eq!(header(&bytes).label_count, 2);
    let mut back = read(&bytes).unwrap();
    back.root.get_struct_mut("s").unwrap().fields[0].label = l("b");
    assert!(!fits_original_layout(&back));
    let out = write(&back).unwrap();
    assert_eq!(read(&out).unwrap(), back);
    assert_eq!(header(&out).label_count, 3);
}

#[test]
fn stray_bytes_are_kept() {
    // High bytes of inline values, garbage after a label's NUL, a loc string whose size word
    // is too large, a StrRef size word other than 4, an empty struct's data word.
    let mut g = Gff::new(*b"TST ");
    g.root.push(l("b"), Value::Byte(1));
    g.root.push(l("c"), Value::Char(-1));
    g.root
        .push(l("loc"), Value::LocString(LocString::from_strref(7)));
    g.root.push(l("s"), Value::StrRef(3));
    g.root.push(l("e"), Value::Struct(Box::new(Struct::new(5))));
    let mut b = write(&g).unwrap();
    let h = header(&b);
    let f0 = h.field_offset as usize;
    set_word(&mut b, f0 + 8, 0xabcd_ef01); // BYTE 0x01 with high bytes
    set_word(&mut b, f0 + 12 + 8, 0xffff_ffff); // CHAR -1 sign-extended (PyKotor's way)
    b[h.label_offset as usize + 2] = b'x'; // "b\0x..."
    let fd = h.field_data_offset as usize;
    set_word(&mut b, fd, 99); // loc string size word
    set_word(&mut b, fd + 12, 8); // StrRef size word
    let e = h.struct_offset as usize + raw::STRUCT_SIZE;
    set_word(&mut b, e + 4, 0); // empty struct's data word
    let back = read(&b).unwrap();
    assert_eq!(back, g, "the stray bytes carry no value");
    assert_eq!(write(&back).unwrap(), b);
    let mut codes: Vec<_> = validate(&back).into_iter().map(|f| f.code).collect();
    codes.sort_unstable();
    assert_eq!(
        codes,
        [
            "gff-inline-high-bytes",
            "gff-inline-high-bytes",
            "gff-locstring-size",
            "gff-strref-size",
            "gff-unknown-type"
        ]
    );
    // The canonical layout writes them clean.
    assert_eq!(write_canonical(&back).unwrap(), write(&g).unwrap());
}

#[test]
fn unreferenced_records_are_kept_and_reported() {
    let mut g = Gff::new(*b"TST ");
    g.root.push(l("x"), Value::Float(1.5));
    let mut b = write(&g).unwrap();
    // Append an unreferenced struct record: rebuild with struct count 2 and the struct array
    // grown in place (every later offset moves by 12).
    let h = header(&b);
    let end = h.struct_offset as usize + raw::STRUCT_SIZE;
    let mut s = b[..end].to_vec();
    s.extend_from_slice(&[1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    s.extend_from_slice(&b[end..]);
    b = s;
    set_word(&mut b, 12, 2);
    for at in [16, 24, 32, 40, 48] {
        let v = word(&b, at);
        set_word(&mut b, at, v + 12);
    }
    let back = read(&b).unwrap();
    assert_eq!(back, g);
    assert_eq!(write(&back).unwrap(), b);
    let codes: Vec<_> = validate(&back).into_iter().map(|f| f.code).collect();
    assert_eq!(codes, ["gff-unreferenced-struct"]);
}

fn err(b: &[u8]) -> crate::DecodeError {
    match read(b) {
        Ok(_) => panic!("the input must not read"),
        Err(e) => e,
    }
}

#[test]
fn hostile_headers_are_located_errors() {
    let good = write(&every_type()).unwrap();
    let e = err(&good[..40]);
    assert_eq!(e.location(), Location::Offset(40));
    // Version.
    let mut b = good.clone();
    b[4..8].copy_from_slice(b"V4.0");
    assert_eq!(err(&b).kind(), ErrorKind::Unsupported);
    b[4..8].copy_from_slice(b"xxxx");
    assert_eq!(err(&b).kind(), ErrorKind::Malformed);
    // Huge counts: refused from the header, before anything is allocated.
    for (at, name) in [
        (12, "struct array"),
        (20, "field array"),
        (28, "label array"),
        (36, "field data"),
        (44, "field indices"),
        (52, "list indices"),
    ] {
        let mut b = good.clone();
        set_word(&mut b, at, u32::MAX);
        let e = err(&b);
        assert_eq!(e.location(), Location::Offset(at as u64 - 4), "{e}");
        assert!(e.message().contains(name), "{e}");
    }
    let mut b = good.clone();
    set_word(&mut b, 12, 0);
    assert!(err(&b).message().contains("no root struct"));
}

#[test]
fn corrupted_root_struct_like_pykotor_test_file() {
    // PyKotor's test_corrupted.gff is a valid file whose root struct record starts with
    // "asdadasd": its data word points far outside the field indices.
    let mut b = write(&every_type()).unwrap();
    b[56..64].copy_from_slice(b"asdadasd");
    let e = err(&b);
    assert_eq!(e.location(), Location::Offset(60));
    assert!(e.to_string().contains("struct 0"), "{e}");
    assert!(e.message().contains("field indices"), "{e}");
}

/// A file whose struct 1 is a field of struct 0; `patch` edits the bytes.
fn nested() -> Vec<u8> {
    let mut g = Gff::new(*b"TST ");
    let inner = Struct::new(0)
        .with(l("v"), Value::Byte(1))
        .with(l("w"), Value::Byte(2));
    g.root
        .push(l("list"), Value::List(vec![inner.clone(), inner]));
    g.root.push(
        l("s"),
        Value::Struct(Box::new(Struct::new(3).with(l("x"), Value::Byte(0)))),
    );
    write(&g).unwrap()
}

#[test]
fn cycles_and_sharing_are_errors() {
    let good = nested();
    let h = header(&good);
    let back = read(&good).unwrap();
    assert_eq!(write(&back).unwrap(), good);
    // Canonical numbering: root 0; fields 0 "list", elements' fields 1,2 and 3,4, 5 "s", 6.
    let list_entry = |i: usize| h.list_indices_offset as usize + 4 + 4 * i;
    let s_field = h.field_offset as usize + 5 * raw::FIELD_SIZE + 8;
    assert_eq!(word(&good, s_field), 3, "struct field s -> struct 3");

    // The struct field points back at the root: a cycle.
    let mut b = good.clone();
    set_word(&mut b, s_field, 0);
    let e = err(&b);
    assert_eq!(e.location(), Location::Offset(s_field as u64));
    assert!(e.message().contains("contains itself"), "{e}");
    assert!(e.to_string().contains("struct 0 field 1"), "{e}");

    // Both list entries name struct 1: shared.
    let mut b = good.clone();
    set_word(&mut b, list_entry(1), 1);
    let e = err(&b);
    assert_eq!(e.location(), Location::Offset(list_entry(1) as u64));
    assert!(e.message().contains("second time"), "{e}");
    assert!(e.to_string().contains("list element 1"), "{e}");

    // Struct 2's field indices name the fields of struct 1: a field used twice.
    let mut b = good.clone();
    let s2 = h.struct_offset as usize + 2 * raw::STRUCT_SIZE + 4;
    let s1_data = word(&good, h.struct_offset as usize + raw::STRUCT_SIZE + 4);
    set_word(&mut b, s2, s1_data);
    let e = err(&b);
    assert!(e.message().contains("field 1 is used a second time"), "{e}");

    // Out-of-range indices.
    let mut b = good.clone();
    set_word(&mut b, list_entry(0), 99);
    assert!(
        err(&b)
            .message()
            .contains("struct index 99 is out of range")
    );
    let mut b = good.clone();
    set_word(&mut b, h.field_offset as usize + 4, 99);
    assert!(err(&b).message().contains("label index 99"));
    let mut b = good.clone();
    set_word(&mut b, h.list_indices_offset as usize, u32::MAX);
    let e = err(&b);
    assert_eq!(
        e.location(),
        Location::Offset(u64::from(h.list_indices_offset))
    );
}

#[test]
fn nesting_deeper_than_the_limit_is_refused() {
    // A chain of MAX_DEPTH + 2 structs, each the only field of its parent.
    let mut st = Struct::new(0).with(l("leaf"), Value::Byte(0));
    for _ in 0..raw::MAX_DEPTH {
        st = Struct::new(0).with(l("s"), Value::Struct(Box::new(st)));
    }
    let mut g = Gff::new(*b"TST ");
    g.root = st.clone();
    let ok = write(&g).unwrap();
    assert_eq!(read(&ok).unwrap(), g, "exactly MAX_DEPTH levels read");
    g.root = Struct::new(0).with(l("s"), Value::Struct(Box::new(st)));
    assert!(
        write(&g).is_err(),
        "the writer refuses what the reader would"
    );
    assert!(validate(&g).iter().any(|f| f.code == "gff-too-deep"));
    // The same chain made by hand: the reader refuses it with a limit error.
    let mut b = ok.clone();
    // Re-point the deepest struct field (field MAX_DEPTH - 1) at a fresh copy: simplest is to
    // make a self-similar chain by hand instead.
    let n = raw::MAX_DEPTH + 2;
    b.clear();
    let mut h = Header {
        file_type: *b"TST ",
        version: raw::VERSION_V32,
        struct_offset: 56,
        struct_count: n as u32,
        field_offset: 56 + 12 * n as u32,
        field_count: n as u32 - 1,
        label_offset: 0,
        label_count: 1,
        field_data_offset: 0,
        field_data_size: 0,
        field_indices_offset: 0,
        field_indices_size: 0,
        list_indices_offset: 0,
        list_indices_size: 0,
    };
    h.label_offset = h.field_offset + 12 * h.field_count;
    let end = h.label_offset + 16;
    h.field_data_offset = end;
    h.field_indices_offset = end;
    h.list_indices_offset = end;
    b.extend_from_slice(&h.to_bytes());
    for s in 0..n as u32 {
        let count = u32::from(s + 1 < n as u32);
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&s.to_le_bytes());
        b.extend_from_slice(&count.to_le_bytes());
    }
    for f in 0..n as u32 - 1 {
        b.extend_from_slice(&raw::types::STRUCT.to_le_bytes());
        b.extend_from_slice(&0u32.to_le_bytes());
        b.extend_from_slice(&(f + 1).to_le_bytes());
    }
    b.extend_from_slice(l("s").padded());
    let e = err(&b);
    assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{e}");
}

#[test]
fn shared_field_data_is_bounded() {
    // 2000 CExoString fields all naming one 1000-byte string: refused (2 MB from 9 KB).
    let n = 2000u32;
    let mut g = Gff::new(*b"TST ");
    g.root
        .push(l("s"), Value::String(Text::from_bytes(vec![b'x'; 1000])));
    for _ in 1..n {
        g.root.push(l("s"), Value::String(Text::default()));
    }
    let mut b = write(&g).unwrap();
    let h = header(&b);
    assert!(h.field_data_size < 10_000);
    for f in 0..n as usize {
        set_word(&mut b, h.field_offset as usize + 12 * f + 8, 0);
    }
    let e = err(&b);
    assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{e}");
    // Two fields sharing one small string within the field data size read fine and write
    // back.
    let mut g = Gff::new(*b"TST ");
    g.root.push(l("a"), Value::String("same".into()));
    g.root.push(l("b"), Value::String("same".into()));
    let mut b = write(&g).unwrap();
    let h = header(&b);
    set_word(&mut b, h.field_offset as usize + 12 + 8, 0);
    let back = read(&b).unwrap();
    assert_eq!(back, g);
    assert_eq!(write(&back).unwrap(), b);
    assert!(
        validate(&back)
            .iter()
            .any(|f| f.code == "gff-unused-field-data")
    );
    // Editing one of the two can no longer stay in place (they share bytes).
    let mut edited = back.clone();
    edited.root.set(l("a"), Value::String("diff".into()));
    assert!(!fits_original_layout(&edited));
    assert_eq!(read(&write(&edited).unwrap()).unwrap(), edited);
}

#[test]
fn a_value_over_the_files_own_tables_relays_out() {
    // Found by the `gff` fuzz target (stop 22) on a mutated corpus file whose tables overlap.
    // Here by hand: the header points the field indices into the characters of a string, so
    // the string's bytes are also the root's field index run. Editing the string in place
    // would rewrite that run (here: swap the root's two fields), so the edit must re-lay out.
    let mut g = Gff::new(*b"TST ");
    g.root.push(
        l("s"),
        Value::String(Text::from_bytes(vec![0, 0, 0, 0, 1, 0, 0, 0])),
    );
    g.root.push(l("b"), Value::Byte(9));
    let mut b = write(&g).unwrap();
    let h = header(&b);
    assert_eq!(h.field_indices_size, 8);
    // Field data: the string's length word, then its 8 characters: the run [0, 1].
    set_word(&mut b, 40, h.field_data_offset + 4);
    let back = read(&b).unwrap();
    assert_eq!(back, g);
    assert_eq!(
        write(&back).unwrap(),
        b,
        "the unmodified tree stays in place"
    );

    let mut edited = back.clone();
    edited.root.set(
        l("s"),
        Value::String(Text::from_bytes(vec![1, 0, 0, 0, 0, 0, 0, 0])),
    );
    assert!(!fits_original_layout(&edited));
    assert_eq!(read(&write(&edited).unwrap()).unwrap(), edited);
    // An edit of the other field stays in place: it touches no table.
    let mut other = back.clone();
    other.root.set(l("b"), Value::Byte(10));
    assert!(fits_original_layout(&other));
    assert_eq!(read(&write(&other).unwrap()).unwrap(), other);
}

#[test]
fn field_data_overruns_are_located() {
    let mut g = Gff::new(*b"TST ");
    g.root.push(l("s"), Value::String("abc".into()));
    g.root
        .push(l("loc"), Value::LocString(LocString::default()));
    let good = write(&g).unwrap();
    let h = header(&good);
    let fd = h.field_data_offset as usize;
    let mut b = good.clone();
    set_word(&mut b, fd, 1000); // string length
    let e = err(&b);
    assert_eq!(e.location(), Location::Offset(fd as u64));
    assert!(e.to_string().contains("\"s\" (CExoString)"), "{e}");
    let mut b = good.clone();
    set_word(&mut b, fd + 7 + 8, u32::MAX); // loc string substring count
    let e = err(&b);
    assert_eq!(e.location(), Location::Offset(fd as u64 + 15));
    assert!(e.message().contains("substrings"), "{e}");
    let mut b = good.clone();
    set_word(&mut b, h.field_offset as usize + 8, 5000); // string offset
    let e = err(&b);
    assert_eq!(e.location(), Location::Offset(h.field_offset as u64 + 8));
}

#[test]
fn validate_reports_tree_problems() {
    let mut g = Gff::new(*b"bad!");
    g.root.id = 0;
    g.root.push(l("dup"), Value::Byte(0));
    g.root.push(l("dup"), Value::Byte(1));
    g.root.push(Label::new("").unwrap(), Value::Byte(0));
    g.root
        .push(Label::from_bytes(b"\x01x").unwrap(), Value::Byte(0));
    g.root
        .push(l("r"), Value::ResRef(Text::from("a".repeat(20))));
    g.root
        .push(l("R"), Value::ResRef(Text::from("a".repeat(33))));
    g.root
        .push(l("s"), Value::String(Text::from_bytes(b"a\0b".to_vec())));
    let mut loc = LocString::default();
    loc.set(9, false, "x".into());
    loc.strings.push(LocSubString {
        id: 18,
        text: "y".into(),
    });
    g.root.push(l("loc"), Value::LocString(loc));
    let f = validate(&g);
    let mut codes: Vec<_> = f.iter().map(|f| (f.code, f.severity)).collect();
    codes.sort_unstable();
    use Severity::*;
    assert_eq!(
        codes,
        [
            ("gff-duplicate-label", Warning),
            ("gff-empty-label", Warning),
            ("gff-file-type", Warning),
            ("gff-label-not-ascii", Warning),
            ("gff-locstring-duplicate", Warning),
            ("gff-locstring-language", Warning),
            ("gff-locstring-language", Warning),
            ("gff-resref-too-long", Warning),
            ("gff-resref-too-long", Error),
            ("gff-root-struct-id", Warning),
            ("gff-string-nul", Warning),
        ]
    );
    assert_eq!(
        f.iter()
            .find(|f| f.code == "gff-string-nul")
            .unwrap()
            .place
            .item
            .as_deref(),
        Some("root.s")
    );
}

#[test]
fn encode_errors() {
    let mut g = Gff::new(*b"TST ");
    g.root
        .push(l("r"), Value::ResRef(Text::from("a".repeat(256))));
    assert!(write(&g).is_err());
    let mut g = Gff::new(*b"TST ");
    g.version = *b"V4.0";
    assert!(write(&g).is_err());
}

// ---------------------------------------------------------------------------------------------
// Views

#[test]
fn are_view() {
    let mut g = Gff::new(*b"ARE ");
    let room = |n: &str| {
        Struct::new(0)
            .with(l("RoomName"), Value::String(n.into()))
            .with(l("EnvAudio"), Value::Int(3))
            .with(l("AmbientScale"), Value::Float(0.5))
    };
    g.root = Struct::new(raw::ROOT_STRUCT_ID)
        .with(l("Tag"), Value::String("m01aa".into()))
        .with(l("Name"), Value::LocString(LocString::from_strref(12)))
        .with(l("Version"), Value::Dword(1))
        .with(
            l("Map"),
            Value::Struct(Box::new(
                Struct::new(14)
                    .with(l("MapPt1X"), Value::Float(0.25))
                    .with(l("MapPt1Y"), Value::Float(0.75))
                    .with(l("NorthAxis"), Value::Int(3)),
            )),
        )
        .with(
            l("Rooms"),
            Value::List(vec![room("m01aa_01a"), room("m01aa_02a")]),
        );
    let are = Are::from_gff(&g);
    assert_eq!(are.tag.unwrap().to_str(), "m01aa");
    assert_eq!(are.name.unwrap().strref(), Some(12));
    assert_eq!(are.version, Some(1));
    let map = are.map.unwrap();
    assert_eq!(map.map_pt1, Some([0.25, 0.75]));
    assert_eq!(map.map_pt2, None, "missing fields are None");
    assert_eq!(map.north_axis, Some(3));
    assert_eq!(are.rooms.len(), 2);
    assert_eq!(
        are.rooms[1].room_name.as_ref().unwrap().to_str(),
        "m01aa_02a"
    );
    assert_eq!(are.rooms[0].ambient_scale, Some(0.5));
    assert_eq!(are.rooms[0].force_rating, None);
    assert_eq!(Are::from_gff(&Gff::new(*b"ARE ")), Are::default());
}

#[test]
fn git_view() {
    let mut g = Gff::new(*b"GIT ");
    let plc = Struct::new(9)
        .with(l("TemplateResRef"), Value::ResRef("plc_chest".into()))
        .with(l("X"), Value::Float(1.0))
        .with(l("Y"), Value::Float(2.0))
        .with(l("Z"), Value::Float(3.0))
        .with(l("Bearing"), Value::Float(1.5));
    let door = Struct::new(8)
        .with(l("TemplateResRef"), Value::ResRef("door_a".into()))
        .with(l("Tag"), Value::String("Door1".into()))
        .with(l("LinkedTo"), Value::String("wp_to".into()))
        .with(l("LinkedToFlags"), Value::Byte(2))
        .with(l("LinkedToModule"), Value::ResRef("m02aa".into()))
        .with(
            l("TransitionDestin"),
            Value::LocString(LocString::default()),
        )
        .with(l("X"), Value::Float(4.0))
        .with(l("Y"), Value::Float(5.0))
        .with(l("Z"), Value::Float(6.0))
        .with(l("Bearing"), Value::Float(0.0))
        .with(l("OpenState"), Value::Byte(1));
    let wp = Struct::new(5)
        .with(l("Tag"), Value::String("wp_to".into()))
        .with(l("XPosition"), Value::Float(7.0))
        .with(l("YPosition"), Value::Float(8.0))
        .with(l("ZPosition"), Value::Float(9.0))
        .with(l("XOrientation"), Value::Float(0.0))
        .with(l("YOrientation"), Value::Float(1.0));
    g.root
        .push(l("Placeable List"), Value::List(vec![plc, Struct::new(9)]));
    g.root.push(l("Door List"), Value::List(vec![door]));
    g.root.push(l("WaypointList"), Value::List(vec![wp]));
    let git = Git::from_gff(&g);
    assert_eq!(git.placeables.len(), 2);
    assert_eq!(git.placeables[0].position, Some([1.0, 2.0, 3.0]));
    assert_eq!(git.placeables[0].bearing, Some(1.5));
    assert_eq!(git.placeables[1].template, None);
    let d = &git.doors[0];
    assert_eq!(d.tag.as_ref().unwrap().to_str(), "Door1");
    assert_eq!(d.linked_to.as_ref().unwrap().to_str(), "wp_to");
    assert_eq!(d.linked_to_flags, Some(2));
    assert_eq!(d.linked_to_module.as_ref().unwrap().to_str(), "m02aa");
    assert_eq!(d.open_state, Some(1));
    assert_eq!(d.position, Some([4.0, 5.0, 6.0]));
    assert_eq!(git.waypoints[0].position, Some([7.0, 8.0, 9.0]));
    assert_eq!(git.waypoints[0].orientation, Some([0.0, 1.0]));
    assert!(git.creatures.is_empty());
}

#[test]
fn ifo_utp_utd_views() {
    let mut g = Gff::new(*b"IFO ");
    g.root = Struct::new(raw::ROOT_STRUCT_ID)
        .with(l("Mod_Entry_Area"), Value::ResRef("m01aa".into()))
        .with(l("Mod_Entry_X"), Value::Float(1.0))
        .with(l("Mod_Entry_Y"), Value::Float(2.0))
        .with(l("Mod_Entry_Z"), Value::Float(3.0))
        .with(l("Mod_Entry_Dir_X"), Value::Float(0.0))
        .with(l("Mod_Entry_Dir_Y"), Value::Float(1.0))
        .with(
            l("Mod_Area_list"),
            Value::List(vec![
                Struct::new(6).with(l("Area_Name"), Value::ResRef("m01aa".into())),
            ]),
        );
    let ifo = Ifo::from_gff(&g);
    assert_eq!(ifo.entry_area.unwrap().to_str(), "m01aa");
    assert_eq!(ifo.entry_position, Some([1.0, 2.0, 3.0]));
    assert_eq!(ifo.entry_direction, Some([0.0, 1.0]));
    assert_eq!(ifo.areas.len(), 1);
    g.root.remove("Mod_Entry_Z");
    assert_eq!(Ifo::from_gff(&g).entry_position, None);

    let mut g = Gff::new(*b"UTP ");
    g.root = Struct::new(raw::ROOT_STRUCT_ID)
        .with(l("Tag"), Value::String("chest".into()))
        .with(l("Appearance"), Value::Dword(17))
        .with(l("Static"), Value::Byte(0))
        .with(l("Useable"), Value::Byte(1))
        .with(l("HP"), Value::Short(10))
        .with(
            l("ItemList"),
            Value::List(vec![Struct::new(0), Struct::new(1)]),
        );
    let utp = Utp::from_gff(&g);
    assert_eq!(utp.appearance, Some(17));
    assert_eq!((utp.is_static, utp.useable), (Some(false), Some(true)));
    assert_eq!(utp.hp, Some(10));
    assert_eq!(utp.items, Some(2));
    assert_eq!(utp.plot, None);

    let mut g = Gff::new(*b"UTD ");
    g.root = Struct::new(raw::ROOT_STRUCT_ID)
        .with(l("Tag"), Value::String("door".into()))
        .with(l("Appearance"), Value::Dword(0))
        .with(l("GenericType"), Value::Byte(26))
        .with(l("OpenState"), Value::Byte(2))
        .with(l("LoadScreenID"), Value::Word(4));
    let utd = Utd::from_gff(&g);
    assert_eq!((utd.appearance, utd.generic_type), (Some(0), Some(26)));
    assert_eq!(utd.open_state, Some(2));
    assert_eq!(utd.load_screen, Some(4));
    assert_eq!(utd.locked, None);
}

#[test]
fn pth_builds_in_the_game_layout() {
    // Three points: 0 <-> 1 <-> 2, point 2 also to 0.
    let pth = Pth::from_adjacency(
        &[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]],
        &[vec![1], vec![0, 2], vec![1, 0]],
    );
    assert!(pth.ranges_in_order());
    assert_eq!(pth.neighbours(1), [0, 2]);
    let b = pth.to_bytes().unwrap();
    let h = header(&b);
    assert_eq!(&b[..8], b"PTH V3.2");
    assert_eq!((h.struct_count, h.field_count, h.label_count), (9, 19, 7));
    // Struct order: root, point 0, its connection, point 1, its two connections, ...
    let ids: Vec<u32> = (0..9).map(|s| word(&b, 56 + 12 * s)).collect();
    assert_eq!(ids, [u32::MAX, 2, 3, 2, 3, 3, 2, 3, 3]);
    // Labels in order of first use: the connections' field comes before the points' fields.
    let label = |i: usize| {
        let at = h.label_offset as usize + 16 * i;
        Label::from_raw(b[at..at + 16].try_into().unwrap()).to_string()
    };
    let labels: Vec<String> = (0..7).map(label).collect();
    assert_eq!(
        labels,
        [
            "Path_Points",
            "Path_Conections",
            "Destination",
            "Conections",
            "First_Conection",
            "X",
            "Y"
        ]
    );
    assert_eq!(h.field_data_size, 0);
    assert_eq!(h.list_indices_size, 4 + 12 + 4 + 20);
    // Read back: the same graph, and the tree writes these bytes again.
    let g = read(&b).unwrap();
    assert_eq!(Pth::from_gff(&g).unwrap(), pth);
    assert_eq!(write(&g).unwrap(), b);
    let built = pth.to_gff().unwrap();
    assert_eq!(write(&built).unwrap(), b);
    // The canonical layout differs (the game's is not depth-first).
    assert_ne!(write_canonical(&g).unwrap(), b);

    // Ranges out of order: still a valid file, in the canonical layout.
    let mut odd = pth.clone();
    odd.points.swap(0, 2);
    assert!(!odd.ranges_in_order());
    let b = odd.to_bytes().unwrap();
    assert_eq!(Pth::from_gff(&read(&b).unwrap()).unwrap(), odd);

    // An empty graph: the root and two empty lists.
    let b = Pth::default().to_bytes().unwrap();
    let h = header(&b);
    assert_eq!(
        (h.struct_count, h.field_count, h.list_indices_size),
        (1, 2, 8)
    );
}

#[test]
fn pth_view_names_what_is_missing() {
    let mut g = Pth::from_adjacency(&[[0.0, 0.0]], &[vec![0]]).to_tree();
    assert!(Pth::from_gff(&g).is_ok());
    g.root.get_list_mut("Path_Points").unwrap()[0].set(l("X"), Value::Double(1.0));
    assert_eq!(Pth::from_gff(&g).unwrap_err().item, "Path_Points[0].X");
    g.root.remove("Path_Conections");
    assert_eq!(
        Pth::from_gff(&Gff::new(*b"PTH ")).unwrap_err().item,
        "Path_Points"
    );
}
