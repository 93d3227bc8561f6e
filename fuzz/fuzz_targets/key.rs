//! KEY reader: never panics; whatever reads writes back to the same bytes, validation and
//! lookups do not panic, and the canonical layout reads back to the same KEY.
#![no_main]

use areakit_formats::key;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = key::read(data) {
        let _ = key::validate(&model);
        let lookup = model.lookup();
        for k in model.keys.iter().take(64) {
            if k.resref.name_bytes().iter().all(u8::is_ascii) {
                let i = lookup.get(&k.resref.name(), k.restype).expect("listed");
                assert!(model.keys[i].resref.lookup_key() == k.resref.lookup_key());
                assert!(model.keys[i].restype == k.restype);
            }
        }
        let bytes = key::write(&model).expect("a decoded KEY encodes");
        assert!(bytes == data, "unmodified KEY round trip changed the bytes");
        let canonical = key::write_canonical(&model).expect("canonical encodes");
        let back = key::read(&canonical).expect("the canonical layout reads");
        assert_eq!(back.header, model.header);
        assert_eq!(back.bifs, model.bifs);
        assert_eq!(back.keys, model.keys);
    }
});
