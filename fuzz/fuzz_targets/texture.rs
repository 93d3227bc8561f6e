//! TPC, TGA and TXI readers: never panic; whatever reads writes back to the same bytes; every
//! level of every TPC layer decodes without panicking; validation does not panic.
#![no_main]

use areakit_formats::{tga, tpc, txi};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = tpc::read(data) {
        assert!(tpc::write(&t).expect("a decoded TPC encodes") == data);
        let _ = tpc::validate(&t);
        for l in 0..t.layers.len().min(8) {
            for i in 0..t.mip_count() {
                let _ = t.rgba(l, i);
            }
        }
    }
    if let Ok(f) = tga::read_file(data) {
        assert!(tga::write_file(&f).expect("a decoded TGA encodes") == data);
        let _ = tga::validate(&f);
    }
    let x = txi::read(data);
    assert!(txi::write(&x) == data);
});
