//! Times the phases of `areakit build` on a layout (release build):
//! `cargo run --release -p areakit-area --example build_phases -- LAYOUT KITS`.

use std::path::Path;
use std::time::Instant;

use areakit_area::build::{self, layout, load};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (lp, kits) = (Path::new(&args[1]), Path::new(&args[2]));
    let t = Instant::now();
    let l = layout::parse(&std::fs::read_to_string(lp).unwrap()).unwrap();
    let read = |p: &str| -> Result<Vec<u8>, build::BuildError> {
        std::fs::read(p).map_err(|e| build::BuildError::io(Path::new(p), e))
    };
    let input = load::load(l, Some(kits), lp.parent().unwrap(), &read).unwrap();
    println!("load {:?}", t.elapsed());
    let t = Instant::now();
    let b = build::build(&input).unwrap();
    println!("build {:?} ({} files)", t.elapsed(), b.files.len());
}
