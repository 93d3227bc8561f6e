//! Peak memory of `convert` on large pictures (issue 43): each conversion runs alone in a
//! fresh process (this test binary again, running [`conversion_child`]), through
//! `ops::convert_file` as the CLI calls it (read, decode, encode, write, the check of the TPC
//! written), and reports its peak resident set (`VmHWM` of `/proc/self/status`, less the
//! resident set it started with). Linux only: elsewhere the test says so and passes.
//!
//! Each conversion's peak must stay within the cap of `docs/formats/tpc.md` ("Memory"): a
//! multiple of the decoded picture (`width * height * 4` bytes), plus twice the input file
//! (read, and kept by the decoded document) and [`SLACK`]. The pictures are
//! generated here (never stored): 2048x2048 (16 MiB of RGBA), big enough that the picture,
//! not the allocator's or the binary's own pages, is what is measured, small enough for DXT
//! encoding in a debug build.
//!
//! Limits of the measure: the resident set counts pages touched, so a buffer allocated and
//! never written is not counted; a fresh process per conversion keeps memory freed by one
//! conversion (and kept by the allocator) out of the next one's measure.

use std::path::Path;

use areakit_app::document::EncodeOptions;
use areakit_app::formats::image::Image;
use areakit_app::formats::{png, tga, tpc};
use areakit_app::ops::convert_file;
use areakit_app::session::Session;

/// What a run costs beside the pictures' buffers (the allocator's arenas, code paged in): 6 MiB.
const SLACK: u64 = 6 << 20;

/// The peak resident set (`VmHWM`) and the resident set now (`VmRSS`), in bytes.
fn resident() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kb * 1024)
    };
    Some((field("VmHWM:")?, field("VmRSS:")?))
}

/// A picture with gradients and tiles (so DXT blocks are not flat), opaque or not.
fn picture(w: u32, h: u32, alpha: bool) -> Image {
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let tile = (x / 64) * 31 + (y / 64) * 17;
            let a = if alpha { (tile * 7 % 256) as u8 } else { 255 };
            rgba.extend_from_slice(&[(x % 256) as u8, (tile % 256) as u8, (y % 256) as u8, a]);
        }
    }
    Image::new(w, h, rgba).unwrap()
}

/// The environment variable that makes [`conversion_child`] convert: `INPUT|OUTPUT|ENCODING`.
const CHILD: &str = "AREAKIT_TEXTURE_MEMORY_CASE";

/// Converts `input` to `output` (`encoding`, else the default) in a child process and returns
/// its peak above the resident set it started with, in bytes; `None` where it cannot tell.
fn peak_of(input: &Path, output: &Path, encoding: Option<tpc::Encoding>) -> Option<u64> {
    let case = format!(
        "{}|{}|{}",
        input.display(),
        output.display(),
        encoding.map_or("", |e| e.name())
    );
    let run = std::process::Command::new(std::env::current_exe().ok()?)
        .args(["conversion_child", "--exact", "--ignored", "--nocapture"])
        .env(CHILD, case)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{input:?} -> {output:?}: {text}");
    let field = |name: &str| -> Option<u64> {
        let line = text.lines().find_map(|l| l.strip_prefix(name))?;
        line.trim().parse().ok()
    };
    Some(field("peak ")?.saturating_sub(field("start ")?))
}

/// One conversion, when run by [`large_conversions_stay_within_the_cap`] with [`CHILD`] set:
/// prints the resident set before it (`start N`) and the peak after it (`peak N`), in bytes.
#[test]
#[ignore = "run by large_conversions_stay_within_the_cap, in a process of its own"]
fn conversion_child() {
    let case = std::env::var(CHILD).expect("the case to convert");
    let parts: Vec<&str> = case.split('|').collect();
    let [input, output, encoding] = parts[..] else {
        panic!("{case}: expected INPUT|OUTPUT|ENCODING");
    };
    let mut options = EncodeOptions::default();
    options.texture.encoding = tpc::Encoding::from_name(encoding);
    let (_, start) = resident().expect("a resident set");
    let session = Session::files_only();
    convert_file(
        &session,
        Path::new(input),
        Path::new(output),
        None,
        &options,
    )
    .unwrap_or_else(|e| panic!("{input} -> {output}: {e}"));
    let (peak, _) = resident().expect("a resident set");
    println!("start {start}");
    println!("peak {peak}");
}

#[test]
fn large_conversions_stay_within_the_cap() {
    if resident().is_none() {
        eprintln!("no /proc/self/status on this system: nothing measured");
        return;
    }
    let dir = std::env::temp_dir().join(format!("areakit-texture-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (w, h) = (2048u32, 2048u32);
    let decoded = u64::from(w) * u64::from(h) * 4;
    std::fs::write(
        dir.join("big.png"),
        png::write(&picture(w, h, false)).unwrap(),
    )
    .unwrap();
    std::fs::write(
        dir.join("alpha.png"),
        png::write(&picture(w, h, true)).unwrap(),
    )
    .unwrap();
    let runs = tga::WriteOptions {
        bits_per_pixel: 24,
        rle: true,
        top_row_first: false,
    };
    std::fs::write(
        dir.join("runs.tga"),
        tga::write(&picture(w, h, false), runs).unwrap(),
    )
    .unwrap();
    // (input, output, encoding, cap in pictures): docs/formats/tpc.md "Memory".
    let cases: [(&str, &str, Option<tpc::Encoding>, f64); 8] = [
        ("big.png", "big.tpc", None, 2.0),
        ("alpha.png", "alpha.tpc", None, 2.0),
        ("big.png", "rgb.tpc", Some(tpc::Encoding::Rgb), 3.5),
        ("alpha.png", "rgba.tpc", Some(tpc::Encoding::Rgba), 4.0),
        ("big.png", "grey.tpc", Some(tpc::Encoding::Grey), 2.0),
        ("runs.tga", "runs.tpc", None, 2.0),
        ("big.tpc", "back.png", None, 2.5),
        ("runs.tga", "runs.png", None, 2.5),
    ];
    let mut measured = Vec::new();
    for (input, output, encoding, cap) in cases {
        let peak = peak_of(&dir.join(input), &dir.join(output), encoding)
            .unwrap_or_else(|| panic!("{input} -> {output}: the child reported no peak"));
        let times = peak as f64 / decoded as f64;
        eprintln!(
            "{input} -> {output}: peak {} KiB, {times:.2} pictures (cap {cap})",
            peak >> 10
        );
        let file = std::fs::metadata(dir.join(input)).unwrap().len();
        let ok = peak <= (cap * decoded as f64) as u64 + 2 * file + SLACK;
        measured.push((input, output, times, ok));
    }
    // What was written is the picture: the TPC's levels, the PNG's pixels.
    let t = tpc::read(&std::fs::read(dir.join("big.tpc")).unwrap()).unwrap();
    assert_eq!((t.width(), t.height(), t.mip_count()), (w, h, 12));
    assert_eq!(t.encoding, tpc::Encoding::Dxt1);
    let rgba = tpc::read(&std::fs::read(dir.join("rgba.tpc")).unwrap()).unwrap();
    assert_eq!(rgba.rgba(0, 0).unwrap(), picture(w, h, true));
    let back = png::read(&std::fs::read(dir.join("runs.png")).unwrap()).unwrap();
    assert_eq!(back.image, picture(w, h, false));
    let _ = std::fs::remove_dir_all(&dir);
    for (input, output, times, ok) in &measured {
        assert!(
            ok,
            "{input} -> {output}: {times:.2} pictures, over its cap: {measured:?}"
        );
    }
}
