//! The 3-D view of a 10-room kit module (`examples/layouts/blackvulkar10.json`, its textures
//! reachable as in the browser test) in headless Chromium with SwiftShader WebGL: the time from
//! navigation to interactive (every room's geometry drawn, the controls live), to the first
//! frame of geometry's start, and to every texture shown; against the 2-D map of the same
//! module in the same run (the baseline: the page areakit had). Median of 7 loads after one
//! warm-up load of each page, in one browser.
//!
//! `cargo bench --bench view3d` (needs `../shared/corpus` and Debian's chromium; says it
//! skipped without them). Not a divan bench: one load is seconds of a browser's work.

#[path = "../tests/common/mod.rs"]
mod common;

use common::devtools::{Browser, chromium};
use common::textured_kit::{long_path, textured_kit_module, write_page};

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let Some(exe) = chromium() else {
        eprintln!("SKIPPED: no chromium (install Debian's chromium)");
        return;
    };
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("view3d-bench");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (module, textures) = textured_kit_module(&dir, "blackvulkar10.json");
    let path = long_path(&module);
    let page3d = dir.join("vulk10.html");
    write_page(&module, &textures, &page3d, &[&path]);
    let page2d = dir.join("vulk10-2d.html");
    areakit_app::view::view_file(
        &areakit_app::Session::files_only(),
        &module,
        &page2d,
        &areakit_app::picture::Overlays::default(),
    )
    .unwrap();
    let size = |p: &std::path::Path| std::fs::metadata(p).unwrap().len() / 1024;
    let mut b = Browser::launch_with(
        &exe,
        "view3d-bench",
        &["--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
    );
    let (mut interactive, mut ready, mut wall3, mut wall2, mut ready2) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for run in 0..8 {
        let w3 = b.open(&page3d);
        let i = b
            .eval("areakitView3d.stats.interactiveMs")
            .as_f64()
            .unwrap();
        let r = b.eval("areakitView3d.stats.readyMs").as_f64().unwrap();
        if std::env::var_os("AREAKIT_VIEW3D_STATS").is_some() {
            eprintln!("{}", b.eval("JSON.stringify(areakitView3d.stats)"));
        }
        let w2 = b.open(&page2d);
        // The 2-D page times from its script's start, not from navigation.
        let r2 = b.eval("areakitView.stats.readyMs").as_f64().unwrap();
        if run == 0 {
            eprintln!("warm-up: 3-D interactive {i:.0} ms, ready {r:.0} ms; 2-D ready {r2:.0} ms");
            continue;
        }
        interactive.push(i);
        ready.push(r);
        wall3.push(w3);
        wall2.push(w2);
        ready2.push(r2);
    }
    assert!(b.errors.is_empty(), "console errors: {:#?}", b.errors);
    let (mi, mr, m2) = (
        median(&mut interactive),
        median(&mut ready),
        median(&mut ready2),
    );
    println!(
        "3-D view of the 10-room kit module ({} KB page): interactive {mi:.0} ms (min {:.0}, max {:.0}), every texture {mr:.0} ms (from navigation)",
        size(&page3d),
        interactive[0],
        interactive[interactive.len() - 1],
    );
    let (w3, w2) = (median(&mut wall3), median(&mut wall2));
    println!(
        "2-D map of the same module ({} KB page), same run: navigation to ready {w2:.0} ms (its script's own ready mark {m2:.0} ms); navigation to ready, 3-D / 2-D = {:.2}",
        size(&page2d),
        w3 / w2
    );
    println!(
        "target: interactive <= 2000 ms: {}",
        if mi <= 2000.0 { "met" } else { "NOT met" }
    );
}
