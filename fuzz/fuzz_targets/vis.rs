//! VIS reader: never panics; whatever reads writes back to the same bytes, and validation does
//! not panic.
#![no_main]

use areakit_formats::vis;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = vis::read(data) {
        let _ = vis::validate(&model);
        let bytes = vis::write(&model).expect("a decoded file encodes");
        assert!(bytes == data, "unmodified VIS round trip changed the bytes");
    }
});
