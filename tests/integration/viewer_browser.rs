//! `areakit view` pages in real headless Chromium (Debian's `chromium`), driven over the
//! DevTools protocol: the demo area, a corpus WOK and a generated 100 000-face mesh load and
//! say they are ready, a click on a known face shows its index and material, a layer
//! toggles, the wheel zooms, a screenshot is not blank, and no console error appears. Draw
//! times are printed (docs/viewer.md quotes them).
//!
//! When no chromium is installed the test says it skipped (`.ci/run` installs it).

use crate::common;

use crate::common::devtools::{Browser, chromium};

use std::path::Path;
use std::time::Duration;

use serde_json::json;

/// What the page should show for a click at (x, y): the face's index and material.
struct Expect {
    x: f32,
    y: f32,
    face: usize,
    material: String,
    room: Option<String>,
}

/// The whole round on one page; returns (ready ms, mean full-redraw ms, max ms).
fn exercise(b: &mut Browser, page: &Path, expect: &Expect, shot: &Path) -> (f64, f64, f64) {
    let wall = b.open(page);
    let setup = b.eval("areakitView.stats.setupMs").as_f64().unwrap_or(0.0);
    let ready = b.eval("areakitView.stats.readyMs").as_f64().unwrap_or(0.0);
    eprintln!(
        "  {}: navigation to ready {wall:.0} ms; script setup {setup:.0} ms, first frame drawn at {ready:.0} ms",
        page.display()
    );
    // Go near the face so it is many pixels wide, then click its point.
    b.eval(&format!(
        "(() => {{ const v = areakitView.view; v.cx = {}; v.cy = {}; v.scale = Math.max(v.scale, 40); areakitView.redrawNow(); return true; }})()",
        expect.x, expect.y
    ));
    let p = b.eval(&format!(
        "areakitView.worldToScreen({}, {})",
        expect.x, expect.y
    ));
    let (px, py) = (p[0].as_f64().unwrap(), p[1].as_f64().unwrap());
    b.click(px, py);
    let info = b.eval("Object.assign({text: document.getElementById('face-info').textContent}, document.getElementById('face-info').dataset)");
    assert_eq!(
        info["face"],
        json!(expect.face.to_string()),
        "{}",
        info["text"]
    );
    assert_eq!(info["material"], json!(expect.material), "{}", info["text"]);
    let text = info["text"].as_str().unwrap();
    assert!(
        text.contains(&format!("face      {}", expect.face)),
        "{text}"
    );
    assert!(text.contains(&expect.material), "{text}");
    if let Some(room) = &expect.room {
        assert_eq!(info["room"], json!(room), "{text}");
    }
    // Fit, then toggle the materials layer with a real click on its checkbox.
    b.eval("areakitView.fit(); true");
    b.frames();
    let draws = b.eval("areakitView.stats.draws").as_f64().unwrap();
    let r = b.eval("(() => { const r = document.getElementById('layer-materials').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()");
    b.click(r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
    assert_eq!(b.eval("areakitView.layers.materials"), json!(false));
    assert!(b.eval("areakitView.stats.draws").as_f64().unwrap() > draws);
    b.click(r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
    assert_eq!(b.eval("areakitView.layers.materials"), json!(true));
    // Zoom in with the wheel over the map's centre.
    let before = b.eval("areakitView.view.scale").as_f64().unwrap();
    let c = b.eval("(() => { const r = document.getElementById('canvas').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()");
    b.mouse(
        "mouseWheel",
        c[0].as_f64().unwrap(),
        c[1].as_f64().unwrap(),
        json!({"deltaX": 0, "deltaY": -400}),
    );
    b.frames();
    let after = b.eval("areakitView.view.scale").as_f64().unwrap();
    assert!(after > before * 1.2, "zoom {before} -> {after}");
    let quick = b.eval("[areakitView.stats.quickFrames || 0, areakitView.stats.quickMs || 0]");
    eprintln!(
        "  wheel zoom: {} moved-picture frame(s), last {:.1} ms",
        quick[0],
        quick[1].as_f64().unwrap_or(0.0)
    );
    // The full redraw follows when the motion stops.
    b.wait_for("areakitView.stats.draws > 0", 10);
    std::thread::sleep(Duration::from_millis(300));
    b.frames();
    // Back to the whole map: full redraws, timed in the page.
    b.eval("areakitView.fit(); true");
    b.frames();
    let times = b.eval("(() => { const t = []; for (let i = 0; i < 5; i++) t.push(areakitView.redrawNow()); return t; })()");
    let times: Vec<f64> = times
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_f64().unwrap())
        .collect();
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let max = times.iter().copied().fold(0.0, f64::max);
    // A screenshot that is not blank: many colours, a fair share of non-white pixels.
    let shot_b64 = b.call("Page.captureScreenshot", json!({"format": "png"}));
    use base64::Engine as _;
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot_b64["data"].as_str().unwrap())
        .unwrap();
    std::fs::write(shot, &png).unwrap();
    let pm = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    let mut colours = std::collections::HashSet::new();
    let mut ink = 0usize;
    for p in pm.pixels() {
        colours.insert((p.red(), p.green(), p.blue()));
        if (p.red() as u32 + p.green() as u32 + p.blue() as u32) < 700 {
            ink += 1;
        }
    }
    let share = ink as f64 / pm.pixels().len() as f64;
    assert!(
        colours.len() > 16 && share > 0.03,
        "blank screenshot: {} colours, {share:.3} ink",
        colours.len()
    );
    assert!(b.errors.is_empty(), "console errors: {:#?}", b.errors);
    (ready, mean, max)
}

/// The page, written by the library (`areakit view` is the same call; `tests/integration/cli_view.rs`
/// runs the binary).
fn write_page(input: &Path, page: &Path) {
    areakit_app::view::view_file(
        &areakit_app::Session::files_only(),
        input,
        page,
        &areakit_app::picture::Overlays::default(),
    )
    .unwrap();
}

/// A walkable face whose centroid lies in no other face, the largest such (plan area).
fn lone_face(m: &areakit_formats::bwm::Bwm) -> (usize, [f32; 2]) {
    let tri = |f: &areakit_formats::bwm::Face| f.vertices.map(|v| m.vertices[v as usize]);
    let inside = |t: [[f32; 3]; 3], x: f32, y: f32| {
        let d = |a: [f32; 3], b: [f32; 3]| (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
        let (d1, d2, d3) = (d(t[0], t[1]), d(t[1], t[2]), d(t[2], t[0]));
        !((d1 < 0.0 || d2 < 0.0 || d3 < 0.0) && (d1 > 0.0 || d2 > 0.0 || d3 > 0.0))
    };
    let mut best: Option<(f32, usize, [f32; 2])> = None;
    for (i, f) in m.faces.iter().enumerate() {
        if !f.material.is_walkable() {
            continue;
        }
        let t = tri(f);
        let c = [
            (t[0][0] + t[1][0] + t[2][0]) / 3.0,
            (t[0][1] + t[1][1] + t[2][1]) / 3.0,
        ];
        let area = ((t[1][0] - t[0][0]) * (t[2][1] - t[0][1])
            - (t[2][0] - t[0][0]) * (t[1][1] - t[0][1]))
            .abs();
        if best.as_ref().is_some_and(|b| b.0 >= area) {
            continue;
        }
        let alone = m
            .faces
            .iter()
            .enumerate()
            .all(|(j, g)| j == i || !inside(tri(g), c[0], c[1]));
        if alone {
            best = Some((area, i, c));
        }
    }
    let (_, i, c) = best.expect("a lone walkable face");
    (i, c)
}

#[test]
fn viewer_pages_in_headless_chromium() {
    let Some(exe) = chromium() else {
        eprintln!("SKIPPED: no chromium (install Debian's chromium; .ci/run does)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("areakit-view-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("viewer-shots");
    std::fs::create_dir_all(&shots).unwrap();
    let mut b = Browser::launch(&exe, "view");
    let mut covered = 0;

    // 1. The demo area: the click's answer comes from `query` (the library's own lookup).
    let demo = dir.join("demo");
    assert!(areakit_app::demo::run(&demo).unwrap().ok());
    let lyt = demo.join("demo.lyt");
    let rooms = areakit_app::demo::rooms();
    let first = &rooms[0];
    let (mut cx, mut cy) = (0.0, 0.0);
    for v in &first.mesh.vertices {
        cx += v[0] / first.mesh.vertices.len() as f32;
        cy += v[1] / first.mesh.vertices.len() as f32;
    }
    let q = areakit_app::ops::query_at(
        &areakit_app::Session::files_only(),
        &lyt,
        cx + 0.13,
        cy + 0.07,
        None,
    )
    .unwrap();
    let expect = Expect {
        x: cx + 0.13,
        y: cy + 0.07,
        face: q.face.unwrap() as usize,
        material: q.material.clone().unwrap(),
        room: q.room.clone().flatten(),
    };
    let page = dir.join("demo.html");
    write_page(&lyt, &page);
    let (ready, mean, max) = exercise(&mut b, &page, &expect, &shots.join("demo.png"));
    eprintln!("demo area: ready in {ready:.0} ms, full redraw {mean:.1} ms (max {max:.1})");
    covered += 1;

    // 2. The largest corpus WOK: a face no other face overlaps at its centroid.
    let woks = common::corpus_files(&["wok"]);
    assert_eq!(woks.len(), 108);
    let largest = woks
        .iter()
        .max_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .unwrap();
    let m = areakit_formats::bwm::read(&std::fs::read(largest).unwrap()).unwrap();
    let (face, c) = lone_face(&m);
    let expect = Expect {
        x: c[0],
        y: c[1],
        face,
        material: m.faces[face].material.name().into_owned(),
        room: None,
    };
    let page = dir.join("wok.html");
    write_page(largest, &page);
    let (ready, mean, max) = exercise(&mut b, &page, &expect, &shots.join("wok.png"));
    eprintln!(
        "{} ({} faces): ready in {ready:.0} ms, full redraw {mean:.1} ms (max {max:.1})",
        largest.display(),
        m.faces.len()
    );
    covered += 1;

    // 3. A generated 100 000-face mesh (a 224 x 224 grid of quads, two materials).
    let n = 224usize;
    let mut vertices = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            vertices.push([i as f32 * 0.5, j as f32 * 0.5, ((i + j) % 7) as f32 * 0.01]);
        }
    }
    let mut faces = Vec::new();
    for j in 0..n {
        for i in 0..n {
            let a = (j * (n + 1) + i) as u32;
            let (b1, c1, d1) = (a + 1, a + 1 + (n as u32 + 1), a + (n as u32 + 1));
            let material = if (i / 16 + j / 16) % 2 == 0 {
                areakit_formats::bwm::Material::Stone
            } else {
                areakit_formats::bwm::Material::Grass
            };
            faces.push(areakit_formats::bwm::Face {
                vertices: [a, b1, c1],
                material,
            });
            faces.push(areakit_formats::bwm::Face {
                vertices: [a, c1, d1],
                material,
            });
        }
    }
    let big = areakit_formats::bwm::Bwm {
        walkmesh_type: areakit_formats::bwm::WalkmeshType::Area,
        vertices,
        faces,
        ..Default::default()
    };
    let big = areakit_app::walkmesh::rebuild(&big).unwrap();
    let big_path = dir.join("grid100k.wok");
    std::fs::write(&big_path, areakit_formats::bwm::write(&big).unwrap()).unwrap();
    let (face, c) = {
        // The face whose centroid is at the grid's middle cell (faces are reordered by
        // rebuild, so look it up).
        let target = [56.1f32, 56.05f32];
        let i = big
            .faces
            .iter()
            .position(|f| {
                let t = f.vertices.map(|v| big.vertices[v as usize]);
                let d = |a: [f32; 3], b: [f32; 3]| {
                    (b[0] - a[0]) * (target[1] - a[1]) - (b[1] - a[1]) * (target[0] - a[0])
                };
                let (d1, d2, d3) = (d(t[0], t[1]), d(t[1], t[2]), d(t[2], t[0]));
                !((d1 < 0.0 || d2 < 0.0 || d3 < 0.0) && (d1 > 0.0 || d2 > 0.0 || d3 > 0.0))
            })
            .unwrap();
        (i, target)
    };
    assert!(big.faces.len() >= 100_000);
    let expect = Expect {
        x: c[0],
        y: c[1],
        face,
        material: big.faces[face].material.name().into_owned(),
        room: None,
    };
    let page = dir.join("grid.html");
    write_page(&big_path, &page);
    let (ready, mean, max) = exercise(&mut b, &page, &expect, &shots.join("grid100k.png"));
    eprintln!(
        "generated mesh ({} faces, page {} KB): ready in {ready:.0} ms, full redraw {mean:.1} ms (max {max:.1})",
        big.faces.len(),
        std::fs::metadata(&page).unwrap().len() / 1024
    );
    assert!(
        mean < 2000.0,
        "a full redraw of 100k faces took {mean:.0} ms"
    );
    covered += 1;

    assert_eq!(covered, 3);
    drop(b);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The room models layer of an area (the Holocron kit rooms of `export_import`): on by
/// default, a real click on its checkbox switches it off (less ink: the outlines beyond the
/// walkmesh go) and on again, and no console error appears.
#[test]
fn viewer_room_models_layer_toggles() {
    let Some(exe) = chromium() else {
        eprintln!("SKIPPED: no chromium (install Debian's chromium; .ci/run does)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("areakit-view-models-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let area = dir.join("area");
    crate::export_import::kit_models_area(&area);
    let page = dir.join("kit.html");
    write_page(&area, &page);
    let mut b = Browser::launch(&exe, "models");
    b.open(&page);
    assert_eq!(b.eval("areakitView.modelCount"), json!(2));
    assert_eq!(b.eval("areakitView.layers.models"), json!(true));
    b.eval("areakitView.fit(); true");
    b.frames();
    // Pixels that are not white, after a full redraw.
    let ink = "(() => { areakitView.redrawNow(); const c = document.getElementById('canvas'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] < 750) n++; return n; })()";
    let with = b.eval(ink).as_u64().unwrap();
    let r = b.eval("(() => { const r = document.getElementById('layer-models').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()");
    let (x, y) = (r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
    b.click(x, y);
    assert_eq!(b.eval("areakitView.layers.models"), json!(false));
    let without = b.eval(ink).as_u64().unwrap();
    assert!(
        with > without + 1000,
        "ink with the models {with}, without {without}"
    );
    b.click(x, y);
    assert_eq!(b.eval("areakitView.layers.models"), json!(true));
    assert_eq!(b.eval(ink).as_u64().unwrap(), with);
    eprintln!("kit area page: {with} inked pixels with the models layer, {without} without");
    assert!(b.errors.is_empty(), "console errors: {:#?}", b.errors);
    drop(b);
    let _ = std::fs::remove_dir_all(&dir);
}
