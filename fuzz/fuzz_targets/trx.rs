//! TRN/TRX reader: never panics; whatever reads writes back to the same bytes (an unmodified
//! file round-trips byte for byte, the ASWM packet keeping its original compressed bytes), and
//! validation of any decoded file does not panic.
#![no_main]

use areakit_formats::trx;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = trx::read(data) {
        let bytes = trx::write(&model).expect("a decoded file encodes");
        assert!(bytes == data, "unmodified TRX round trip changed the bytes");
        let _ = trx::validate(&model);
    }
});
