//! RIM reader: never panics; whatever reads writes back to the same bytes, the index agrees
//! with the model, validation does not panic, and the canonical layout reads back to the same
//! archive.
#![no_main]

use areakit_formats::rim;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let index = rim::RimIndex::parse(data);
    if let Ok(model) = rim::read(data) {
        let index = index.expect("the index parses when the archive reads");
        assert_eq!(index.entries.len(), model.resources.len());
        for (i, r) in model.resources.iter().enumerate() {
            assert!(index.data(data, i) == Some(&r.data[..]));
        }
        let _ = rim::validate(&model);
        let bytes = rim::write(&model).expect("a decoded RIM encodes");
        assert!(bytes == data, "unmodified RIM round trip changed the bytes");
        let canonical = rim::write_canonical(&model).expect("canonical encodes");
        let back = rim::read(&canonical).expect("the canonical layout reads");
        assert_eq!(back.header, model.header);
        assert_eq!(back.resources, model.resources);
    }
});
