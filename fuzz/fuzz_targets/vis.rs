//! VIS reader: never panics; whatever reads writes back to the same bytes, and validation does
//! not panic.
#![no_main]

use areakit_formats::vis::{self, Vis};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = vis::read(data) {
        let _ = vis::validate(&model);
        let bytes = match vis::write(&model) {
            Ok(bytes) => bytes,
            // Known library issue (fuzz/README.md, "Known findings"): the reader splits tokens
            // on ASCII whitespace only, the writer rejects names holding any Unicode whitespace,
            // so a name with byte 0x85 or 0xA0 (U+0085, U+00A0 in Latin-1) reads but does not
            // write. Skipped until fixed; any other encode error fails.
            Err(_) if has_latin1_space(&model) => return,
            Err(e) => panic!("a decoded visibility file does not encode: {e:?}"),
        };
        assert!(bytes == data, "unmodified VIS round trip changed the bytes");
    }
});

fn has_latin1_space(v: &Vis) -> bool {
    let bad = |s: &str| s.contains(['\u{85}', '\u{a0}']);
    v.rooms
        .iter()
        .any(|r| bad(&r.name) || r.visible.iter().any(|n| bad(n)))
}
