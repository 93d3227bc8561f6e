//! BIF reader: never panics; whatever reads writes back to the same bytes, the stream index
//! (Read + Seek) equals the in-memory one and reads each resource's bytes, validation does
//! not panic, and the canonical layout reads back to the same BIF.
#![no_main]

use areakit_formats::bif;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let parsed = bif::BifIndex::parse(data);
    let streamed = bif::BifIndex::read(&mut std::io::Cursor::new(data));
    match (&parsed, &streamed) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(_), Err(_)) => {}
        _ => panic!("the stream and slice indexes disagree: {parsed:?} / {streamed:?}"),
    }
    if let Ok(index) = &parsed {
        let _ = bif::validate_index(index);
    }
    if let Ok(model) = bif::read(data) {
        let index = parsed.expect("the index parses when the BIF reads");
        let mut file = std::io::Cursor::new(data);
        for (i, r) in model.resources.iter().enumerate().take(64) {
            assert!(index.read_resource(&mut file, i).expect("in range") == r.data);
        }
        let _ = bif::validate(&model);
        let bytes = bif::write(&model).expect("a decoded BIF encodes");
        assert!(bytes == data, "unmodified BIF round trip changed the bytes");
        let canonical = bif::write_canonical(&model).expect("canonical encodes");
        let back = bif::read(&canonical).expect("the canonical layout reads");
        assert_eq!(back.resources, model.resources);
        assert_eq!(back.fixed, model.fixed);
    }
});
