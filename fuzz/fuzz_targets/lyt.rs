//! LYT reader: never panics; whatever reads writes back to the same bytes, and validation does
//! not panic.
#![no_main]

use areakit_formats::lyt;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = lyt::read(data) {
        let _ = lyt::validate(&model);
        let bytes = lyt::write(&model).expect("a decoded file encodes");
        assert!(bytes == data, "unmodified LYT round trip changed the bytes");
    }
});
