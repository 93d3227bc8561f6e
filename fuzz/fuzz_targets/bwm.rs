//! BWM reader: never panics; whatever reads must write back to bytes that read to the same
//! model, and the zero-copy view must agree with the owned decode.
#![no_main]

use areakit_formats::bwm;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let view = bwm::BwmView::parse(data);
    let owned = bwm::read(data);
    assert_eq!(view.is_ok(), owned.is_ok());
    if let Ok(model) = owned {
        // Compare bit patterns: stored normals and distances may be NaN.
        let view = view.expect("view parses when read does");
        for (i, f) in model.faces.iter().enumerate() {
            assert_eq!(view.face(i), *f);
            assert_eq!(
                view.normal(i).map(f32::to_bits),
                model.normals[i].map(f32::to_bits)
            );
        }
        for (i, v) in model.vertices.iter().enumerate() {
            assert_eq!(view.vertex(i).map(f32::to_bits), v.map(f32::to_bits));
        }
        let bytes = bwm::write(&model).expect("a decoded model encodes");
        // Unusual layouts are preserved, so the bytes come back exactly.
        assert_eq!(bytes, data);
        let again = bwm::read(&bytes).expect("written bytes decode");
        assert_eq!(bwm::write(&again).expect("encodes"), bytes);
    }
});
