//! Writes the large generated pictures the texture memory measurements convert
//! (`benches/texture_memory.sh`, `docs/formats/tpc.md` "Memory"), under `DIR`:
//!
//! - `big.png`: 8192x8192 opaque RGB, 64-pixel tiles with gradients inside them (a few hundred
//!   KB: PNG's filters turn the gradients into runs);
//! - `big_alpha.png`: the same with an alpha channel (every tile's alpha its own level);
//! - `big_rle.tga`: 8192x4096 24-bit run-length encoded, runs of 128 pixels (about 1 MB).
//!
//! `cargo run --release --example big_textures -- DIR`

use areakit_formats::image::Image;
use areakit_formats::{png, tga};

const SIDE: u32 = 8192;

/// The 8192x8192 pattern: R a gradient along x, G the tile's, B a gradient along y; alpha per
/// tile when `alpha`.
fn pattern(alpha: bool) -> Image {
    let mut rgba = Vec::with_capacity((SIDE * SIDE * 4) as usize);
    for y in 0..SIDE {
        for x in 0..SIDE {
            let tile = (x / 64) * 31 + (y / 64) * 17;
            let a = if alpha { (tile * 7 % 256) as u8 } else { 255 };
            rgba.extend_from_slice(&[(x % 256) as u8, (tile % 256) as u8, (y % 256) as u8, a]);
        }
    }
    Image::new(SIDE, SIDE, rgba).expect("the size is right")
}

/// 8192x4096, each row 64 runs of 128 pixels of one colour.
fn runs() -> Image {
    let (w, h) = (SIDE, SIDE / 2);
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let run = x / 128;
            rgba.extend_from_slice(&[
                (run * 4) as u8,
                (y / 16) as u8,
                ((run + y) % 256) as u8,
                255,
            ]);
        }
    }
    Image::new(w, h, rgba).expect("the size is right")
}

fn main() -> std::process::ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(std::path::PathBuf::from) else {
        eprintln!("usage: big_textures DIR");
        return std::process::ExitCode::from(2);
    };
    let write = |name: &str, bytes: Vec<u8>| {
        let path = dir.join(name);
        std::fs::write(&path, &bytes).expect("writes");
        println!("{}: {} bytes", path.display(), bytes.len());
    };
    std::fs::create_dir_all(&dir).expect("makes the folder");
    write("big.png", png::write(&pattern(false)).expect("encodes"));
    write(
        "big_alpha.png",
        png::write(&pattern(true)).expect("encodes"),
    );
    let opts = tga::WriteOptions {
        bits_per_pixel: 24,
        rle: true,
        top_row_first: false,
    };
    write("big_rle.tga", tga::write(&runs(), opts).expect("encodes"));
    std::process::ExitCode::SUCCESS
}
