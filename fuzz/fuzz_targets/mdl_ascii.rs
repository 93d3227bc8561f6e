//! MDL ASCII reader: never panics; whatever reads writes back losslessly to the same bytes,
//! its canonical text reads back to an equal model, and validation does not panic.
#![no_main]

use areakit_formats::mdl_ascii;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok((model, _findings)) = mdl_ascii::read_with_findings(data) {
        let bytes = mdl_ascii::write(&model);
        assert!(bytes == data, "lossless MDL ASCII write changed the bytes");
        let canonical = mdl_ascii::write_canonical(&model);
        let again = mdl_ascii::read(canonical.as_bytes()).expect("canonical text reads");
        assert_eq!(again, model, "canonical text reads to a different model:\n{canonical}");
        let _ = mdl_ascii::validate(&model);
    }
});
