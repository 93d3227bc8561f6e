//! Unit tests over small hand-made archives.

use super::*;
use crate::ErrorKind;
use crate::restype::{ResRef, ResType};

fn rr(s: &str) -> ResRef {
    ResRef::new(s).unwrap()
}

/// Three members, canonical layout: the last byte of the file is data.
fn small() -> Erf {
    Erf::from_resources(
        ErfKind::Mod,
        [
            (rr("m01aa"), ResType::GIT, b"GIT V3.2 git".to_vec()),
            (rr("m01aa"), ResType::ARE, b"ARE V3.2 are".to_vec()),
            (rr("door01"), ResType::UTD, b"UTD V3.2 door".to_vec()),
        ],
    )
    .unwrap()
}

fn put(buf: &mut [u8], at: usize, v: u32) {
    buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn write_read_equal() {
    let a = small();
    assert_eq!(
        a.resources
            .iter()
            .map(|r| r.file_name())
            .collect::<Vec<_>>(),
        ["door01.utd", "m01aa.are", "m01aa.git"]
    );
    assert_eq!(
        a.resources.iter().map(|r| r.id).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    let bytes = write(&a).unwrap();
    assert_eq!(bytes.len(), 160 + 3 * 24 + 3 * 8 + 13 + 12 + 12);
    assert_eq!(&bytes[..8], b"MOD V1.0");
    let b = read(&bytes).unwrap();
    assert_eq!(b.header, a.header);
    assert_eq!(b.resources, a.resources);
    assert_eq!(write(&b).unwrap(), bytes);
    assert_eq!(write_canonical(&b).unwrap(), bytes);
    assert!(validate(&b).is_empty());
    assert_eq!(b.get("M01AA", ResType::ARE).unwrap().data, b"ARE V3.2 are");
    let index = ErfIndex::parse(&bytes).unwrap();
    assert_eq!(index.find("door01", ResType::UTD), Some(0));
    assert_eq!(index.data(&bytes, 2).unwrap(), b"GIT V3.2 git");
}

#[test]
fn empty_archives_of_each_kind() {
    for kind in ErfKind::ALL {
        let bytes = write(&Erf::new(kind)).unwrap();
        assert_eq!(bytes.len(), raw::HEADER_SIZE);
        assert_eq!(&bytes[..4], &kind.magic());
        let a = read(&bytes).unwrap();
        assert!(a.is_empty());
        assert_eq!(a.header.kind, kind);
        assert_eq!(write(&a).unwrap(), bytes);
    }
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = write(&small()).unwrap();
    for n in 0..bytes.len() {
        let e = read(&bytes[..n]).expect_err(&format!("{n} bytes"));
        assert!(
            matches!(e.location(), crate::Location::Offset(_)),
            "{n}: {e}"
        );
        assert!(ErfIndex::parse(&bytes[..n]).is_err());
    }
}

#[test]
fn data_past_the_end_names_the_entry() {
    let mut bytes = write(&small()).unwrap();
    // entry 1 (m01aa.are): size far beyond the input
    let res = 160 + 3 * 24;
    put(&mut bytes, res + 8 + 4, 1000);
    let e = read(&bytes).unwrap_err();
    assert_eq!(e.context(), ["entry 1 (m01aa.are)"]);
    assert_eq!(e.location(), crate::Location::Offset((res + 8) as u64));
    assert!(
        e.to_string().starts_with(
            "entry 1 (m01aa.are): offset 0xf0: data: 1000 bytes at offset 0x10d run past the end"
        ),
        "{e}"
    );
    // an offset past the end with a non-zero size
    let mut bytes = write(&small()).unwrap();
    put(&mut bytes, res + 16, u32::MAX);
    assert_eq!(read(&bytes).unwrap_err().context(), ["entry 2 (m01aa.git)"]);
}

#[test]
fn hostile_counts() {
    let good = write(&small()).unwrap();
    for count in [u32::MAX, u32::MAX - 1, 4, 1 << 28] {
        let mut b = good.clone();
        put(&mut b, 0x10, count);
        let e = read(&b).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::Malformed | ErrorKind::LimitExceeded),
            "{count}: {e}"
        );
    }
    // count 0: the tables are not read, the data becomes gap bytes, and it writes back
    let mut b = good.clone();
    put(&mut b, 0x10, 0);
    let a = read(&b).unwrap();
    assert!(a.is_empty());
    assert_eq!(write(&a).unwrap(), b);
    // language count at max and max - 1
    for lc in [u32::MAX, u32::MAX - 1] {
        let mut b = good.clone();
        put(&mut b, 0x08, lc);
        assert!(read(&b).is_err());
    }
    // a string size beyond the input
    let mut b = good.clone();
    put(&mut b, 0x08, 1);
    put(&mut b, 0x14, 160);
    put(&mut b, 160 + 4, u32::MAX);
    let e = read(&b).unwrap_err();
    assert_eq!(e.context(), ["localized string 0"]);
    // table offsets past the end, located at the header field
    for (field, value) in [(0x18, u32::MAX), (0x1C, good.len() as u32 + 1)] {
        let mut b = good.clone();
        put(&mut b, field, value);
        let e = read(&b).unwrap_err();
        assert_eq!(e.location(), crate::Location::Offset(field as u64), "{e}");
    }
}

#[test]
fn overlapping_tables_are_an_error() {
    let good = write(&small()).unwrap();
    // resource list starting inside the key list
    let mut b = good.clone();
    put(&mut b, 0x1C, 160 + 24);
    let e = read(&b).unwrap_err();
    assert!(e.message().contains("overlaps the key list"), "{e}");
    // key list over the header
    let mut b = good.clone();
    put(&mut b, 0x18, 100);
    assert!(read(&b).unwrap_err().message().contains("header"));
}

#[test]
fn unsupported_versions_and_bad_magic() {
    let mut b = write(&small()).unwrap();
    b[4..8].copy_from_slice(b"V1.1");
    assert_eq!(read(&b).unwrap_err().kind(), ErrorKind::Unsupported);
    let utf16 = b"E\0R\0F\0 \0V\x002\0.\x000\0";
    assert_eq!(read(utf16).unwrap_err().kind(), ErrorKind::Unsupported);
    let mut b = write(&small()).unwrap();
    b[..4].copy_from_slice(b"RIM ");
    let e = read(&b).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Malformed);
    assert_eq!(e.location(), crate::Location::Offset(0));
}

/// A file laid out the way no canonical writer would: strings, odd table order, data in
/// reverse order with padding between, trailing bytes, non-zero reserved and unused fields,
/// resource ids not equal to the index, a 16-character name and bytes after a terminator.
fn odd() -> Vec<u8> {
    let mut b = vec![0u8; 600];
    b[..8].copy_from_slice(b"HAK V1.0");
    put(&mut b, 0x08, 2); // languages
    put(&mut b, 0x0C, 30); // strings size as stated (real: 8+5 + 8+3 = 24)
    put(&mut b, 0x10, 2); // entries
    put(&mut b, 0x14, 400); // strings at 400
    put(&mut b, 0x18, 200); // keys at 200
    put(&mut b, 0x1C, 168); // resource list at 168
    put(&mut b, 0x20, 103);
    put(&mut b, 0x24, 42);
    put(&mut b, 0x28, 7);
    b[0x2C] = 0xAB; // reserved
    b[0x9F] = 0xCD;
    // resource list
    put(&mut b, 168, 300); // entry 0 data at 300, 10 bytes
    put(&mut b, 172, 10);
    put(&mut b, 176, 260); // entry 1 data at 260, 16 bytes
    put(&mut b, 180, 16);
    // key list
    b[200..216].copy_from_slice(b"sixteen_chars_16");
    put(&mut b, 216, 5); // id 5
    b[220..222].copy_from_slice(&2044u16.to_le_bytes());
    b[222..224].copy_from_slice(&0xBEEFu16.to_le_bytes()); // unused
    b[224..226].copy_from_slice(b"ab");
    b[229] = b'!'; // after the terminator
    put(&mut b, 240, 1);
    b[244..246].copy_from_slice(&2999u16.to_le_bytes()); // unknown type
    // data
    b[260..276].copy_from_slice(b"0123456789abcdef");
    b[276..280].copy_from_slice(b"PAD!");
    b[300..310].copy_from_slice(b"UTC V3.2xx"); // a UTC under type UTP
    // strings
    put(&mut b, 400, 0);
    put(&mut b, 404, 5);
    b[408..413].copy_from_slice(b"hello");
    put(&mut b, 413, 1);
    put(&mut b, 417, 3);
    b[421..424].copy_from_slice(b"sal");
    b[590..600].copy_from_slice(b"trailing!!");
    b
}

#[test]
fn odd_layouts_round_trip_byte_for_byte() {
    let bytes = odd();
    let a = read(&bytes).unwrap();
    assert_eq!(a.header.kind, ErfKind::Hak);
    assert_eq!((a.header.build_year, a.header.build_day), (103, 42));
    assert_eq!(a.header.description_strref, 7);
    assert_eq!((a.header.reserved[0], a.header.reserved[115]), (0xAB, 0xCD));
    assert_eq!(a.strings.len(), 2);
    assert_eq!(a.strings[1].text, b"sal");
    assert_eq!(a.resources[0].resref.name(), "sixteen_chars_16");
    assert_eq!((a.resources[0].id, a.resources[0].unused), (5, 0xBEEF));
    assert_eq!(a.resources[1].data, b"0123456789abcdef");
    assert!(a.resources[1].resref.has_bytes_after_name());
    let l = a.layout.as_ref().unwrap();
    assert!(l.gaps.iter().any(|g| g.bytes.starts_with(b"PAD!")));
    assert_eq!(write(&a).unwrap(), bytes);

    let codes: Vec<&str> = validate(&a).iter().map(|f| f.code).collect();
    assert_eq!(
        codes,
        [
            "erf-strings-size",
            "erf-resource-id",
            "erf-content-type",
            "erf-unknown-type",
            "erf-resref-invalid",
        ]
    );

    // Canonical layout reads back to the same model but for the layout.
    let c = read(&write_canonical(&a).unwrap()).unwrap();
    assert_eq!(
        (c.header, c.strings, c.resources),
        (a.header.clone(), a.strings.clone(), a.resources.clone())
    );
}

#[test]
fn edits_in_place_keep_the_layout_and_resizes_relay_it() {
    let bytes = odd();
    let mut a = read(&bytes).unwrap();
    a.resources[1].data = b"FEDCBA9876543210".to_vec();
    let edited = write(&a).unwrap();
    assert_eq!(edited.len(), bytes.len());
    let differ: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i] != edited[i])
        .collect();
    assert!(
        differ.iter().all(|&i| (260..276).contains(&i)),
        "{differ:?}"
    );

    a.resources[1].data.push(b'!');
    let relaid = write(&a).unwrap();
    assert_eq!(relaid, write_canonical(&a).unwrap());
    assert_eq!(read(&relaid).unwrap().resources, a.resources);

    let mut a = read(&bytes).unwrap();
    a.push(rr("new"), ResType::TXT, b"x".to_vec());
    let back = read(&write(&a).unwrap()).unwrap();
    assert_eq!(back.resources, a.resources);
    assert_eq!(back.resources[2].id, 2);
}

#[test]
fn overlapping_data_reads_and_edits_fall_back_to_canonical() {
    let mut bytes = write(&small()).unwrap();
    let res = 160 + 3 * 24;
    // entry 2 names entry 1's bytes
    let (o1, s1) = (
        u32::from_le_bytes(bytes[res + 8..res + 12].try_into().unwrap()),
        u32::from_le_bytes(bytes[res + 12..res + 16].try_into().unwrap()),
    );
    put(&mut bytes, res + 16, o1);
    put(&mut bytes, res + 20, s1);
    let a = read(&bytes).unwrap();
    assert_eq!(a.resources[1].data, a.resources[2].data);
    assert_eq!(write(&a).unwrap(), bytes);
    let codes: Vec<&str> = validate(&a).iter().map(|f| f.code).collect();
    assert_eq!(codes, ["erf-content-type", "erf-data-overlap"]);
    let mut b = a.clone();
    b.resources[2].data = b"GIT V3.2 new".to_vec();
    let out = write(&b).unwrap();
    assert_eq!(out, write_canonical(&b).unwrap());
    assert_eq!(read(&out).unwrap().resources, b.resources);
}

#[test]
fn ranges_naming_the_same_bytes_many_times_hit_the_copy_limit() {
    // 200 entries, each naming all 6000 data bytes: 1.2 MB named in a 12 KB file.
    let n = 200usize;
    let data_at = 160 + n * 32;
    let mut b = vec![0u8; data_at + 6000];
    b[..8].copy_from_slice(b"ERF V1.0");
    put(&mut b, 0x10, n as u32);
    put(&mut b, 0x14, 160);
    put(&mut b, 0x18, 160);
    put(&mut b, 0x1C, (160 + n * 24) as u32);
    for i in 0..n {
        let k = 160 + i * 24;
        b[k] = b'a' + (i % 26) as u8;
        b[k + 1] = b'a' + (i / 26) as u8;
        put(&mut b, k + 16, i as u32);
        let r = 160 + n * 24 + i * 8;
        put(&mut b, r, data_at as u32);
        put(&mut b, r + 4, 6000);
    }
    let e = read(&b).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded);
    // the index does not copy: it reads
    assert_eq!(ErfIndex::parse(&b).unwrap().entries.len(), n);
}

#[test]
fn builders() {
    let a = Erf::from_files(
        ErfKind::Erf,
        [
            ("B.utc", b"UTC V3.2".to_vec()),
            ("a.2999", b"?".to_vec()),
            ("a.utc", b"UTC V3.2".to_vec()),
        ],
    )
    .unwrap();
    assert_eq!(
        a.resources
            .iter()
            .map(|r| r.file_name())
            .collect::<Vec<_>>(),
        ["a.utc", "a.2999", "B.utc"]
    );
    assert!(Erf::from_files(ErfKind::Erf, [("x.utc", vec![]), ("X.UTC", vec![])]).is_err());
    assert!(Erf::from_files(ErfKind::Erf, [("noext", vec![])]).is_err());
    let mut d = small();
    d.resources[2].resref = d.resources[1].resref;
    d.resources[2].restype = d.resources[1].restype;
    let codes: Vec<&str> = validate(&d).iter().map(|f| f.code).collect();
    assert_eq!(codes, ["erf-duplicate-resource", "erf-content-type"]);
}

#[test]
fn the_stream_index_is_the_slice_index() {
    let bytes = write(&small()).unwrap();
    let parsed = ErfIndex::parse(&bytes).unwrap();
    let mut file = std::io::Cursor::new(&bytes);
    let streamed = ErfIndex::read(&mut file).unwrap();
    assert_eq!(streamed, parsed);
    for i in 0..parsed.entries.len() {
        assert_eq!(
            streamed.read_data(&mut file, i).unwrap(),
            parsed.data(&bytes, i).unwrap()
        );
    }
    assert!(streamed.read_data(&mut file, 99).is_err());
    // Data cut off: the stream index says which entry runs past the end.
    let last = parsed
        .entries
        .iter()
        .map(|e| e.offset + e.size)
        .max()
        .unwrap() as usize;
    let cut = &bytes[..last - 1];
    let e = ErfIndex::read(&mut std::io::Cursor::new(cut)).unwrap_err();
    assert!(e.to_string().contains("entry"), "{e}");
    assert!(ErfIndex::read(&mut std::io::Cursor::new(&bytes[..10])).is_err());
}
