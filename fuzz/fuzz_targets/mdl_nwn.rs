//! NWN compiled-model reader: never panics; whatever reads writes back to the same bytes, its
//! canonical layout reads back to a model whose canonical bytes are the same again, and the
//! checks, the decompiler (to NWN MDL ASCII text) and the compiler of that text do not panic.
#![no_main]

use areakit_formats::mdl::nwn;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = areakit_formats::mdl::is_nwn_layout(data);
    if let Ok(model) = nwn::read(data) {
        let back = nwn::write(&model).expect("a decoded model encodes");
        assert!(back == data, "unmodified model writes back byte for byte");
        let mut fresh = model.clone();
        fresh.clear_source_layout();
        // The canonical layout refuses only legacy arrays whose elements are not known.
        if let Ok(c) = nwn::write(&fresh) {
            let mut again = nwn::read(&c).expect("canonical bytes decode");
            again.clear_source_layout();
            let c2 = nwn::write(&again).expect("encodes");
            // Compared as bytes, so NaN payloads count as equal values.
            assert!(c2 == c, "canonical layout reads back equal");
        }
        let _ = nwn::validate(&model);
        let text = areakit_formats::mdl_ascii::write(&nwn::to_ascii(&model));
        if let Ok(a) = areakit_formats::mdl_ascii::read(&text)
            && let Ok(compiled) = nwn::from_ascii(&a)
        {
            let _ = nwn::write(&compiled.model);
        }
    }
});
