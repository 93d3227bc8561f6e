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
        assert!(view.unwrap().to_bwm() == model);
        let bytes = bwm::write(&model).expect("a decoded model encodes");
        // Unusual layouts are preserved, so the bytes come back exactly.
        assert_eq!(bytes, data);
        let again = bwm::read(&bytes).expect("written bytes decode");
        assert_eq!(bwm::write(&again).expect("encodes"), bytes);
    }
});
