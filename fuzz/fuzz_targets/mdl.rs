//! Binary MDL + MDX reader: never panics; whatever reads writes back to the same bytes, and its
//! canonical layout reads back to a model whose canonical bytes are the same again.
//!
//! Input: a little-endian `u32` MDL length, the MDL bytes, then the MDX bytes.
#![no_main]

use areakit_formats::mdl;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((head, rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let n = (u32::from_le_bytes(*head) as usize).min(rest.len());
    let (a, x) = rest.split_at(n);
    if let Ok(model) = mdl::read(a, x) {
        let (b, y) = mdl::write(&model).expect("a decoded model encodes");
        assert!(
            b == a && y == x,
            "unmodified model writes back byte for byte"
        );
        let mut fresh = model.clone();
        fresh.clear_source_layout();
        let (b2, y2) = mdl::write(&fresh).expect("a decoded model encodes canonically");
        let mut again = mdl::read(&b2, &y2).expect("canonical bytes decode");
        again.clear_source_layout();
        let (b3, y3) = mdl::write(&again).expect("encodes");
        // Compared as bytes, so NaN payloads count as equal values.
        assert!(b3 == b2 && y3 == y2, "canonical layout reads back equal");
    }
});
