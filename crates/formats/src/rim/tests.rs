//! Unit tests over small hand-made RIMs.

use super::*;
use crate::restype::{ResRef, ResType};
use crate::{ErrorKind, Location};

fn rr(s: &str) -> ResRef {
    ResRef::new(s).unwrap()
}

fn small() -> Rim {
    Rim::from_resources([
        (rr("m01aa"), ResType::ARE, b"ARE V3.2 are".to_vec()),
        (rr("module"), ResType::IFO, b"IFO V3.2 ifo".to_vec()),
        (rr("m01aa"), ResType::GIT, b"GIT V3.2 git!".to_vec()),
    ])
    .unwrap()
}

fn put(buf: &mut [u8], at: usize, v: u32) {
    buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn write_read_equal() {
    let r = small();
    let bytes = write(&r).unwrap();
    assert_eq!(bytes.len(), 120 + 3 * 32 + 12 + 13 + 12);
    assert_eq!(&bytes[..8], b"RIM V1.0");
    let back = read(&bytes).unwrap();
    assert_eq!((&back.header, &back.resources), (&r.header, &r.resources));
    assert_eq!(write(&back).unwrap(), bytes);
    assert!(validate(&back).is_empty());
    assert_eq!(back.get("MODULE", ResType::IFO).unwrap().id, 2);
    let index = RimIndex::parse(&bytes).unwrap();
    assert_eq!(index.entries[1].file_name(), "m01aa.git");
    assert_eq!(index.data(&bytes, 1).unwrap(), b"GIT V3.2 git!");
    let empty = write(&Rim::new()).unwrap();
    assert_eq!(empty.len(), 120);
    assert_eq!(write(&read(&empty).unwrap()).unwrap(), empty);
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = write(&small()).unwrap();
    for n in 0..bytes.len() {
        let e = read(&bytes[..n]).expect_err(&format!("{n} bytes"));
        assert!(matches!(e.location(), Location::Offset(_)), "{n}: {e}");
    }
}

#[test]
fn hostile_counts_and_offsets() {
    let good = write(&small()).unwrap();
    for count in [u32::MAX, u32::MAX - 1, 4] {
        let mut b = good.clone();
        put(&mut b, 0x0C, count);
        assert!(read(&b).is_err(), "{count}");
    }
    let mut b = good.clone();
    put(&mut b, 0x0C, 0);
    assert_eq!(write(&read(&b).unwrap()).unwrap(), b);
    let mut b = good.clone();
    put(&mut b, 0x10, u32::MAX);
    assert_eq!(read(&b).unwrap_err().location(), Location::Offset(0x10));
    let mut b = good.clone();
    put(&mut b, 0x10, 0); // key table over the header
    let e = read(&b).unwrap_err();
    assert!(
        e.message().contains("header") && e.message().contains("overlaps the key table"),
        "{e}"
    );
    let mut b = good.clone();
    put(&mut b, 120 + 32 + 28, 10_000); // entry 1's size
    let e = read(&b).unwrap_err();
    assert_eq!(e.context(), ["entry 1 (m01aa.git)"]);
    assert_eq!(e.location(), Location::Offset(120 + 32 + 24));
    let mut b = good.clone();
    b[4..8].copy_from_slice(b"V2.0");
    assert_eq!(read(&b).unwrap_err().kind(), ErrorKind::Unsupported);
    b[..4].copy_from_slice(b"ERF ");
    assert_eq!(read(&b).unwrap_err().kind(), ErrorKind::Malformed);
}

/// Padding after each member and at the end, as the game's RIMs carry it, a non-zero
/// unknown word and reserved bytes, a type with a high half.
#[test]
fn padding_and_odd_fields_round_trip() {
    let mut b = vec![0u8; 120 + 2 * 32 + 8 + 16 + 16 + 5 + 10];
    b[..8].copy_from_slice(b"RIM V1.0");
    put(&mut b, 0x08, 0x1234);
    put(&mut b, 0x0C, 2);
    put(&mut b, 0x10, 120);
    b[0x14] = 9;
    let k = 120;
    b[k..k + 5].copy_from_slice(b"m01aa");
    put(&mut b, k + 16, 2012 | (1 << 16));
    put(&mut b, k + 20, 0);
    put(&mut b, k + 24, 192);
    put(&mut b, k + 28, 16);
    b[k + 32..k + 37].copy_from_slice(b"m01aa");
    put(&mut b, k + 48, 2023);
    put(&mut b, k + 52, 1);
    put(&mut b, k + 56, 224);
    put(&mut b, k + 60, 5);
    b[192..208].copy_from_slice(b"ARE V3.2 0123456");
    b[208..224].fill(0xEE); // padding
    b[224..229].copy_from_slice(b"GIT V");
    let r = read(&b).unwrap();
    assert_eq!(r.header.unknown, 0x1234);
    assert_eq!(r.header.reserved[0], 9);
    assert_eq!(r.resources[0].type_high, 1);
    assert_eq!(r.layout.as_ref().unwrap().gaps.len(), 3);
    assert_eq!(write(&r).unwrap(), b);
    let codes: Vec<&str> = validate(&r).iter().map(|f| f.code).collect();
    assert_eq!(codes, ["rim-type-high"]);
    // canonical: no padding, same members
    let c = write_canonical(&r).unwrap();
    assert_eq!(c.len(), 120 + 64 + 16 + 5);
    assert_eq!(read(&c).unwrap().resources, r.resources);
}

#[test]
fn overlaps_and_duplicates_are_warnings() {
    let mut b = write(&small()).unwrap();
    // entry 2 takes entry 0's range and name/type
    b.copy_within(120..120 + 16, 120 + 64);
    b.copy_within(120 + 16..120 + 20, 120 + 64 + 16);
    b.copy_within(120 + 24..120 + 32, 120 + 64 + 24);
    let r = read(&b).unwrap();
    assert_eq!(write(&r).unwrap(), b);
    let codes: Vec<&str> = validate(&r).iter().map(|f| f.code).collect();
    assert_eq!(codes, ["rim-duplicate-resource", "rim-data-overlap"]);
    assert!(Rim::from_files([("a.are", vec![]), ("A.are", vec![])]).is_err());
}
