//! ERF-family reader: never panics; whatever reads writes back to the same bytes, the index
//! agrees with the model (and the stream index with the slice index), validation does not panic, and the canonical layout reads back to
//! the same archive.
#![no_main]

use areakit_formats::erf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let index = erf::ErfIndex::parse(data);
    let streamed = erf::ErfIndex::read(&mut std::io::Cursor::new(data));
    match (&index, &streamed) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(_), Err(_)) => {}
        _ => panic!("the stream and slice indexes disagree: {index:?} / {streamed:?}"),
    }
    if let Ok(model) = erf::read(data) {
        let index = index.expect("the index parses when the archive reads");
        assert_eq!(index.entries.len(), model.resources.len());
        for (i, r) in model.resources.iter().enumerate() {
            assert!(index.data(data, i) == Some(&r.data[..]));
        }
        let _ = erf::validate(&model);
        let bytes = erf::write(&model).expect("a decoded archive encodes");
        assert!(bytes == data, "unmodified ERF round trip changed the bytes");
        let canonical = erf::write_canonical(&model).expect("canonical encodes");
        let back = erf::read(&canonical).expect("the canonical layout reads");
        assert_eq!(back.header, model.header);
        assert_eq!(back.strings, model.strings);
        assert_eq!(back.resources, model.resources);
    }
});
