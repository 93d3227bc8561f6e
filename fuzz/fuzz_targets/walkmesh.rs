//! Walkmesh geometry on any BWM the reader accepts: checks, rebuild, queries, transforms and the
//! SVG map never panic; rays through the tree answer exactly as brute force; a rebuilt
//! walkmesh has no structural error and rebuilds to itself.
#![no_main]

#[path = "shared/walkmesh_props.rs"]
mod props;

use areakit_app::formats::bwm;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(mesh) = bwm::read(data) else { return };
    props::walkmesh_properties(&mesh);
});
