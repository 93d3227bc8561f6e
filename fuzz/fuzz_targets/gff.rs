//! GFF reader: never panics; whatever reads writes back to the same bytes (through its original
//! layout), validation does not panic, the canonical layout re-reads to an equal tree, an edit
//! of the first value re-reads as edited (in place or re-laid out), and a PTH view rebuilds.
#![no_main]

use areakit_formats::gff::{self, Value, views};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(g) = gff::read(data) else { return };
    let bytes = gff::write(&g).expect("a decoded GFF encodes");
    assert!(bytes == data, "unmodified GFF round trip changed the bytes");
    let _ = gff::validate(&g);
    let _ = g.summary();

    let canonical = gff::write_canonical(&g).expect("a decoded GFF encodes canonically");
    let again = gff::read(&canonical).expect("the canonical layout reads");
    assert!(again == g, "the canonical layout reads to a different tree");
    assert!(
        gff::write_canonical(&again).unwrap() == canonical,
        "the canonical layout is not a fixed point"
    );

    // Edit the first field: the written file must read back to the edited tree.
    let mut edited = g.clone();
    if let Some(f) = edited.root.fields.first_mut() {
        f.value = match &f.value {
            Value::Byte(v) => Value::Byte(v.wrapping_add(1)),
            Value::Dword(v) => Value::Dword(v ^ 1),
            Value::Float(v) => Value::Float(-*v),
            Value::String(s) => {
                let mut b = s.as_bytes().to_vec();
                if let Some(c) = b.first_mut() {
                    *c ^= 0x20;
                }
                Value::String(gff::Text::from_bytes(b))
            }
            Value::List(l) => Value::List(l.iter().rev().cloned().collect()),
            _ => Value::Int(7),
        };
        let out = gff::write(&edited).expect("an edited GFF encodes");
        let back = gff::read(&out).expect("an edited GFF reads");
        assert!(back == edited, "the edited tree does not read back");
    }

    if let Ok(p) = views::Pth::from_gff(&g) {
        if let Ok(b) = p.to_bytes() {
            let back = gff::read(&b).expect("a built PTH reads");
            assert!(
                views::Pth::from_gff(&back).ok() == Some(p),
                "PTH rebuild differs"
            );
        }
    }
    let _ = (
        views::Are::from_gff(&g),
        views::Git::from_gff(&g),
        views::Ifo::from_gff(&g),
        views::Utp::from_gff(&g),
        views::Utd::from_gff(&g),
    );
});
