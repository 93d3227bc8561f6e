//! Unit tests over small hand-made BIFs.

use std::io::Cursor as IoCursor;

use super::*;
use crate::key::ResId;
use crate::restype::ResType;
use crate::{ErrorKind, Location};

fn small() -> Bif {
    Bif::from_resources(
        3,
        [
            (ResType::TWO_DA, b"2DA V2.b first".to_vec()),
            (ResType::WOK, b"BWM V1.0".to_vec()),
            (ResType::TXT, Vec::new()),
            (ResType::NCS, b"NCS V1.0 B".to_vec()),
        ],
    )
    .unwrap()
}

fn put(buf: &mut [u8], at: usize, v: u32) {
    buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn write_read_equal() {
    let b = small();
    assert_eq!(b.resources[1].id, ResId::new(3, 1).unwrap());
    let bytes = write(&b).unwrap();
    assert_eq!(bytes.len() as u64, canonical_len(&b));
    assert_eq!(bytes.len(), 20 + 4 * 16 + 14 + 8 + 10);
    let back = read(&bytes).unwrap();
    assert_eq!((&back.resources, &back.fixed), (&b.resources, &b.fixed));
    assert_eq!(write(&back).unwrap(), bytes);
    assert!(validate(&back).is_empty());
    let index = BifIndex::parse(&bytes).unwrap();
    assert!(validate_index(&index).is_empty());
    assert_eq!(index.data(&bytes, 3).unwrap(), b"NCS V1.0 B");
    assert_eq!(index.data(&bytes, 2).unwrap(), b"");
    assert_eq!(index.data(&bytes, 4), None);
    let empty = write(&Bif::new()).unwrap();
    assert_eq!(empty.len(), 20);
    assert_eq!(write(&read(&empty).unwrap()).unwrap(), empty);
}

/// Counts the bytes read through it.
struct Counting<R> {
    inner: R,
    read: u64,
}

impl<R: std::io::Read> std::io::Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

impl<R: std::io::Seek> std::io::Seek for Counting<R> {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}

#[test]
fn the_stream_index_reads_the_tables_only() {
    let b = small();
    let mut bytes = write(&b).unwrap();
    bytes.extend(std::iter::repeat_n(0xAA, 100_000)); // unreferenced tail
    let mut r = Counting {
        inner: IoCursor::new(&bytes),
        read: 0,
    };
    let index = BifIndex::read(&mut r).unwrap();
    assert_eq!(r.read, 20 + 4 * 16);
    assert_eq!(index, BifIndex::parse(&bytes).unwrap());
    assert_eq!(index.file_len, bytes.len() as u64);
    r.read = 0;
    assert_eq!(index.read_resource(&mut r, 0).unwrap(), b"2DA V2.b first");
    assert_eq!(r.read, 14);
    assert_eq!(index.read_resource(&mut r, 2).unwrap(), b"");
    assert!(matches!(
        index.read_resource(&mut r, 9),
        Err(crate::cursor::StreamError::Decode(_))
    ));
    // a truncated file through the stream reader is a decode error too
    let short = &bytes[..30];
    assert!(matches!(
        BifIndex::read(&mut IoCursor::new(short)),
        Err(crate::cursor::StreamError::Decode(_))
    ));
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = write(&small()).unwrap();
    for n in 0..bytes.len() {
        let e = read(&bytes[..n]).expect_err(&format!("{n} bytes"));
        assert!(matches!(e.location(), Location::Offset(_)), "{n}: {e}");
        assert!(BifIndex::read(&mut IoCursor::new(&bytes[..n])).is_err());
    }
}

#[test]
fn hostile_input() {
    let good = write(&small()).unwrap();
    for (field, count) in [
        (8, u32::MAX),
        (8, u32::MAX - 1),
        (8, 5),
        (12, u32::MAX),
        (12, u32::MAX - 1),
        (12, 1),
    ] {
        let mut b = good.clone();
        put(&mut b, field, count);
        let e = read(&b).unwrap_err();
        if count > 5 {
            // the tables do not fit: located at the table offset field
            assert_eq!(e.location(), Location::Offset(16), "{field} = {count}: {e}");
        } else {
            // they fit, and data bytes read as an entry name a range past the end
            assert!(matches!(e.location(), Location::Offset(_)), "{e}");
        }
        assert!(BifIndex::read(&mut IoCursor::new(&b)).is_err());
    }
    let mut b = good.clone();
    put(&mut b, 16, 4); // tables over the header
    assert!(read(&b).unwrap_err().message().contains("overlaps"));
    let mut b = good.clone();
    put(&mut b, 20 + 16 + 8, 1 << 20); // resource 1's size
    let e = read(&b).unwrap_err();
    assert_eq!(e.context(), ["resource 1 (type wok)"]);
    assert_eq!(e.location(), Location::Offset(20 + 16 + 4));
    let mut b = good.clone();
    b[..4].copy_from_slice(b"BZF ");
    assert_eq!(read(&b).unwrap_err().kind(), ErrorKind::Unsupported);
    b[..4].copy_from_slice(b"BIFF");
    b[4..8].copy_from_slice(b"V1.1");
    assert_eq!(read(&b).unwrap_err().kind(), ErrorKind::Unsupported);
    // variable count 0 with the table offset anywhere: nothing to read
    let mut b = good.clone();
    put(&mut b, 8, 0);
    put(&mut b, 16, u32::MAX);
    let z = read(&b).unwrap();
    assert!(z.resources.is_empty());
    assert_eq!(write(&z).unwrap(), b);
}

/// Fixed resources, data in another order with padding, ids that do not match the index,
/// overlapping data: all kept and reported, and written back byte for byte.
#[test]
fn fixed_resources_and_odd_layouts_round_trip() {
    let mut b = vec![0u8; 20 + 2 * 16 + 20 + 8 + 12 + 4 + 6 + 3];
    b[..8].copy_from_slice(b"BIFFV1  ");
    put(&mut b, 8, 2);
    put(&mut b, 12, 1);
    put(&mut b, 16, 20);
    // var 0: id 5 (not its index), data at 76.., 12 bytes
    put(&mut b, 20, 5);
    put(&mut b, 24, 76 + 4);
    put(&mut b, 28, 12);
    put(&mut b, 32, 2016);
    // var 1: shares var 0's last 4 bytes
    put(&mut b, 36, 1);
    put(&mut b, 40, 76 + 4 + 8);
    put(&mut b, 44, 4);
    put(&mut b, 48, 2017 | (2 << 16));
    // fixed 0: 2 parts of 3 bytes
    put(&mut b, 52, 0x0000_4000);
    put(&mut b, 56, 76 + 4 + 12 + 4);
    put(&mut b, 60, 2);
    put(&mut b, 64, 3);
    put(&mut b, 68, 3);
    b[72..80].copy_from_slice(b"GAPGAP!!");
    b[80..92].copy_from_slice(b"walkmesh1234");
    b[92..96].copy_from_slice(b"pad.");
    b[96..102].copy_from_slice(b"tileTL");
    b[102..105].copy_from_slice(b"end");
    let f = read(&b).unwrap();
    assert_eq!(f.fixed.len(), 1);
    assert_eq!(f.fixed[0].data, b"tileTL");
    assert_eq!(f.resources[1].data, b"1234");
    assert_eq!(f.resources[1].type_high, 2);
    assert_eq!(write(&f).unwrap(), b);
    let codes: Vec<&str> = validate(&f).iter().map(|x| x.code).collect();
    assert_eq!(
        codes,
        [
            "bif-resource-id",
            "bif-type-high",
            "bif-fixed-resources",
            "bif-data-overlap"
        ]
    );
    let index = BifIndex::parse(&b).unwrap();
    assert_eq!(validate_index(&index).len(), 4);
    // canonical: tables, then variable then fixed data
    let c = write_canonical(&f).unwrap();
    let back = read(&c).unwrap();
    assert_eq!((&back.resources, &back.fixed), (&f.resources, &f.fixed));
    // fixed data of the wrong size does not encode
    let mut bad = f.clone();
    bad.fixed[0].data.pop();
    assert!(write(&bad).is_err());
}

#[test]
fn copy_limit() {
    // 1000 entries each naming the whole 4000-byte data block.
    let n = 1000usize;
    let data_at = 20 + n * 16;
    let mut b = vec![0u8; data_at + 4000];
    b[..8].copy_from_slice(b"BIFFV1  ");
    put(&mut b, 8, n as u32);
    put(&mut b, 16, 20);
    for i in 0..n {
        put(&mut b, 20 + i * 16, i as u32);
        put(&mut b, 20 + i * 16 + 4, data_at as u32);
        put(&mut b, 20 + i * 16 + 8, 4000);
        put(&mut b, 20 + i * 16 + 12, 10);
    }
    assert_eq!(read(&b).unwrap_err().kind(), ErrorKind::LimitExceeded);
    assert_eq!(BifIndex::parse(&b).unwrap().resources.len(), n);
}
