//! Unit tests over small hand-made KEYs (and their BIFs).

use super::*;
use crate::bif::{self, BifIndex};
use crate::restype::{ResRef, ResType};
use crate::{ErrorKind, Location};

fn rr(s: &str) -> ResRef {
    ResRef::new(s).unwrap()
}

fn install() -> (Key, Vec<Bif>) {
    build_install(vec![
        (
            "data\\2da.bif".to_string(),
            vec![
                (rr("appearance"), ResType::TWO_DA, b"2DA V2.b app".to_vec()),
                (rr("placeables"), ResType::TWO_DA, b"2DA V2.b plc".to_vec()),
            ],
        ),
        (
            "data\\models.bif".to_string(),
            vec![
                (rr("m01aa_01a"), ResType::WOK, b"BWM V1.0 wok".to_vec()),
                (rr("m01aa_01a"), ResType::MDL, b"mdl".to_vec()),
                (rr("m01aa_01a"), ResType::MDX, vec![]),
            ],
        ),
    ])
    .unwrap()
}

fn put(buf: &mut [u8], at: usize, v: u32) {
    buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn resource_ids() {
    let id = ResId::new(ResId::MAX_BIF, ResId::MAX_INDEX).unwrap();
    assert_eq!(id.0, u32::MAX);
    assert_eq!((id.bif(), id.index()), (4095, 0xF_FFFF));
    assert_eq!(ResId::new(0, 1 << 20), None);
    assert_eq!(ResId(0x0120_0005).bif(), 0x12);
    assert_eq!(ResId(0x0120_0005).index(), 5);
    assert_eq!(format!("{:?}", ResId(0x0010_0002)), "ResId(bif 1, index 2)");
}

#[test]
fn write_read_equal_and_lookup() {
    let (k, bifs) = install();
    assert_eq!(k.bifs[1].name, b"data\\models.bif\0");
    assert_eq!(k.bifs[1].path(), "data/models.bif");
    assert_eq!(
        k.bifs[0].file_size as usize,
        bif::write(&bifs[0]).unwrap().len()
    );
    let bytes = write(&k).unwrap();
    assert_eq!(
        bytes.len(),
        64 + 2 * 12 + "data\\2da.bif\0data\\models.bif\0".len() + 5 * 22
    );
    let back = read(&bytes).unwrap();
    assert_eq!(
        (&back.header, &back.bifs, &back.keys),
        (&k.header, &k.bifs, &k.keys)
    );
    assert_eq!(write(&back).unwrap(), bytes);
    assert_eq!(write_canonical(&back).unwrap(), bytes);
    assert!(validate(&back).is_empty());
    let e = back.find("M01AA_01A", ResType::MDX).unwrap();
    assert_eq!((e.id.bif(), e.id.index()), (1, 2));
    let l = back.lookup();
    assert_eq!(l.len(), 5);
    assert_eq!(l.get("Placeables", ResType::TWO_DA), Some(1));
    assert_eq!(l.get("placeables", ResType::UTP), None);
    assert_eq!(l.get("a_name_longer_than_16", ResType::UTP), None);
    assert_eq!(back.entries_of_bif(1).count(), 3);
    for (b, bif) in bifs.iter().enumerate() {
        let bytes = bif::write(bif).unwrap();
        assert!(check_bif(&back, b, &BifIndex::parse(&bytes).unwrap()).is_empty());
    }
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = write(&install().0).unwrap();
    for n in 0..bytes.len() {
        let e = read(&bytes[..n]).expect_err(&format!("{n} bytes"));
        assert!(matches!(e.location(), Location::Offset(_)), "{n}: {e}");
    }
}

#[test]
fn hostile_input() {
    let good = write(&install().0).unwrap();
    for (field, count) in [
        (0x08, u32::MAX),
        (0x08, u32::MAX - 1),
        (0x0C, u32::MAX),
        (0x0C, u32::MAX - 1),
        (0x0C, 6),
    ] {
        let mut b = good.clone();
        put(&mut b, field, count);
        assert!(read(&b).is_err(), "{field:#x} = {count}");
    }
    // both counts 0: a KEY of nothing, written back as read
    let mut b = good.clone();
    put(&mut b, 0x08, 0);
    put(&mut b, 0x0C, 0);
    assert_eq!(write(&read(&b).unwrap()).unwrap(), b);
    // a name past the end, located at its offset field
    let mut b = good.clone();
    put(&mut b, 64 + 12 + 4, good.len() as u32);
    let e = read(&b).unwrap_err();
    assert_eq!(e.context(), ["BIF 1"]);
    assert_eq!(e.location(), Location::Offset(64 + 12 + 4));
    // key table over the file table
    let mut b = good.clone();
    put(&mut b, 0x14, 70);
    assert!(read(&b).unwrap_err().message().contains("overlaps"));
    let mut b = good.clone();
    b[4..8].copy_from_slice(b"V1.1");
    assert_eq!(read(&b).unwrap_err().kind(), ErrorKind::Unsupported);
}

#[test]
fn names_many_times_hit_the_copy_limit() {
    // 5000 BIF entries naming the same 60 000-byte name.
    let n = 5000usize;
    let names_at = 64 + n * 12;
    let mut b = vec![b'x'; names_at + 60_000];
    b[..64].fill(0);
    b[..8].copy_from_slice(b"KEY V1  ");
    put(&mut b, 0x08, n as u32);
    put(&mut b, 0x10, 64);
    let end = b.len() as u32;
    put(&mut b, 0x14, end);
    for i in 0..n {
        let e = 64 + i * 12;
        put(&mut b, e, 0);
        put(&mut b, e + 4, names_at as u32);
        b[e + 8..e + 10].copy_from_slice(&60_000u16.to_le_bytes());
        b[e + 10..e + 12].fill(0);
    }
    assert_eq!(read(&b).unwrap_err().kind(), ErrorKind::LimitExceeded);
}

#[test]
fn findings_alone_and_against_a_bif() {
    let (mut k, bifs) = install();
    k.keys[0].id = ResId::new(7, 0).unwrap(); // no BIF 7
    k.keys[1].resref = k.keys[2].resref;
    k.keys[1].restype = k.keys[2].restype;
    k.keys[3].id = ResId::new(1, 9).unwrap(); // beyond models.bif's 3
    k.keys[4].restype = ResType(2999);
    k.bifs.push(BifEntry::new("data\\unused.bif", 0, 1));
    k.bifs.push(BifEntry {
        file_size: 0,
        name: b"no terminator".to_vec(),
        drives: 1,
    });
    let codes: Vec<&str> = validate(&k).iter().map(|f| f.code).collect();
    assert_eq!(
        codes,
        [
            "key-bif-index",
            "key-duplicate-resource",
            "key-unknown-type",
            "key-bif-unused",
            "key-bif-name",
            "key-bif-unused",
        ]
    );
    let mut bytes = bif::write(&bifs[1]).unwrap();
    bytes.push(0); // one byte longer than the KEY says
    let index = BifIndex::parse(&bytes).unwrap();
    let codes: Vec<&str> = check_bif(&k, 1, &index).iter().map(|f| f.code).collect();
    assert_eq!(
        codes,
        [
            "key-bif-size",
            "key-resource-index",
            "key-type-mismatch",
            "key-bif-unreferenced",
        ]
    );
    assert!(check_bif(&k, 99, &index).is_empty());
}
