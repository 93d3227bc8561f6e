//! MDB reader: never panics; whatever reads writes back to the same bytes; the WALK surface
//! of any decoded model is built or refused without panicking, and the canonical layout reads
//! back to the same packets.
#![no_main]

use areakit_formats::mdb;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = mdb::read(data) {
        let bytes = mdb::write(&model).expect("a decoded file encodes");
        assert!(bytes == data, "unmodified MDB round trip changed the bytes");
        for w in model.walks() {
            if let Ok(s) = w.surface() {
                assert_eq!(s.triangles.len(), w.triangles.len());
                let _ = s.walkable_triangles().count();
            }
        }
        let canonical = mdb::Mdb {
            layout: None,
            ..model.clone()
        };
        let canon = mdb::write(&canonical).expect("the canonical layout encodes");
        let back = mdb::read(&canon).expect("the canonical layout reads");
        // Bytes compared, so NaN coordinates count as equal.
        assert!(
            mdb::write(&back).unwrap() == canon,
            "canonical layout is not a fixed point"
        );
    }
});
