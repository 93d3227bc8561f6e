//! ASWM walkmesh decoder (the decompressed bytes inside a TRN/TRX ASWM packet): never panics;
//! whatever decodes encodes back to the same bytes, and validation does not panic.
//!
//! The `trx` target reaches the walkmesh only through a zlib stream whose Adler-32 checksum
//! mutations almost always break; this target feeds the decoder directly.
#![no_main]

use areakit_formats::trx;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(walkmesh) = trx::decode_walkmesh(data) {
        let bytes = trx::encode_walkmesh(&walkmesh).expect("a decoded walkmesh encodes");
        assert!(
            bytes == data,
            "decoded walkmesh re-encodes to different bytes"
        );
        let mut findings = Vec::new();
        trx::validate_walkmesh(&walkmesh, "aswm", &mut findings);
    }
});
