//! The 3-D view in real headless Chromium with SwiftShader WebGL: a module built from the
//! blackvulkar kit, its textures reachable (the corpus's `LTS_lotrim11` and, for the other
//! names its rooms use, generated pictures), opened from a file. Checked: three.js is the
//! pinned one; the screenshot shows textured rooms (switching textures off changes most of the
//! picture); the walkmesh overlay and the VIS inspector change what is drawn; the walk
//! camera's height query answers as `areakit query` does, and walking keeps to the walkmesh;
//! a pick names the surface; the 2-D map opens in its tab; no console error. Screenshots are
//! kept in `target/tmp/viewer3d-shots/` (the closing notes describe them).
//!
//! When no chromium is installed the test says it skipped (`.ci/run` installs it).

use crate::common::devtools::{Browser, chromium};
use crate::common::textured_kit::{long_path, textured_kit_module, write_page};

use std::path::Path;

use serde_json::{Value, json};

const SWIFTSHADER: [&str; 2] = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"];

/// The viewport's pixels of a screenshot (the canvas's box), as RGB.
fn viewport(b: &mut Browser, file: &Path) -> Vec<[u8; 3]> {
    let shot = b.call("Page.captureScreenshot", json!({"format": "png"}));
    use base64::Engine as _;
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().unwrap())
        .unwrap();
    std::fs::write(file, &png).unwrap();
    let pm = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    let r = b.eval("(() => { const r = document.getElementById('canvas3d').getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()");
    let r: Vec<u32> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as u32)
        .collect();
    let mut out = Vec::new();
    for y in r[1]..r[3].min(pm.height()) {
        for x in r[0]..r[2].min(pm.width()) {
            let p = pm.pixel(x, y).unwrap();
            out.push([p.red(), p.green(), p.blue()]);
        }
    }
    out
}

/// The share of pixels that differ (by more than a little) between two pictures.
fn changed(a: &[[u8; 3]], b: &[[u8; 3]]) -> f64 {
    let n = a
        .iter()
        .zip(b)
        .filter(|(p, q)| (0..3).map(|k| p[k].abs_diff(q[k]) as u32).sum::<u32>() > 24)
        .count();
    n as f64 / a.len().max(1) as f64
}

fn drawn(b: &mut Browser) -> (u64, u64) {
    let d = b.eval("areakitView3d.drawn()");
    (
        d["triangles"].as_u64().unwrap(),
        d["meshes"].as_u64().unwrap(),
    )
}

#[test]
fn the_3d_view_of_a_built_kit_module() {
    let Some(exe) = chromium() else {
        eprintln!("SKIPPED: no chromium (install Debian's chromium; .ci/run does)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("areakit-view3d-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("viewer3d-shots");
    std::fs::create_dir_all(&shots).unwrap();
    let (module, textures) = textured_kit_module(&dir, "blackvulkar.json");
    narrow_first_vis_row(&module);
    let page = dir.join("vulk.html");
    let path = long_path(&module);
    write_page(&module, &textures, &page, &[&path]);
    let mut b = Browser::launch_with(&exe, "view3d", &SWIFTSHADER);
    let wall = b.open(&page);
    let interactive = b
        .eval("areakitView3d.stats.interactiveMs")
        .as_f64()
        .unwrap();
    let ready = b.eval("areakitView3d.stats.readyMs").as_f64().unwrap();
    let setup = b.eval("areakitView3d.stats.setupMs").as_f64().unwrap();
    eprintln!(
        "timings: {}",
        b.eval("JSON.stringify([areakitView3d.stats, areakitView3d.programs()])")
    );
    eprintln!(
        "7-room kit module ({} KB): navigation to ready {wall:.0} ms; script set up at {setup:.0} ms, interactive at {interactive:.0} ms, every texture at {ready:.0} ms",
        std::fs::metadata(&page).unwrap().len() / 1024
    );
    assert_eq!(
        b.eval("areakitView3d.revision"),
        json!("170"),
        "the pinned three.js"
    );
    let counts = b.eval("[JSON.parse(document.getElementById('areakit-3d').textContent).meshes.length, areakitView3d.stats.meshes, areakitView3d.stats.textures]");
    assert_eq!(
        counts[0], counts[1],
        "every mesh chunk became a mesh: {counts}"
    );
    assert!(
        counts[2].as_u64().unwrap() > 20,
        "textures loaded: {counts}"
    );

    // Textured rooms: the picture with textures against the same view without them.
    b.eval("areakitView3d.fit(); true");
    let textured = viewport(&mut b, &shots.join("1-textured.png"));
    let colours: std::collections::HashSet<[u8; 3]> = textured.iter().copied().collect();
    b.eval("areakitView3d.setLayer('textures', false); areakitView3d.setLayer('lightmaps', false); true");
    let flat = viewport(&mut b, &shots.join("2-flat.png"));
    let by_textures = changed(&textured, &flat);
    // Drawn: not the background (0x202428).
    let inked = textured
        .iter()
        .filter(|p| {
            p[0].abs_diff(0x20) as u32 + p[1].abs_diff(0x24) as u32 + p[2].abs_diff(0x28) as u32
                > 12
        })
        .count() as f64
        / textured.len() as f64;
    eprintln!(
        "textured screenshot: {} colours, {:.0}% of the viewport drawn, {:.0}% of it changed by the textures",
        colours.len(),
        inked * 100.0,
        by_textures * 100.0
    );
    assert!(colours.len() > 500, "{} colours", colours.len());
    assert!(inked > 0.15 && by_textures > 0.5 * inked, "not textured");
    b.eval(
        "areakitView3d.setLayer('textures', true); areakitView3d.setLayer('lightmaps', true); true",
    );

    assert_eq!(
        b.eval("JSON.parse(document.getElementById('areakit-3d').textContent).paths.length"),
        json!(1),
        "the path {path} is drawn"
    );
    // The walkmesh overlay: more is drawn, and the picture changes.
    let (tri_off, _) = drawn(&mut b);
    let r = b.eval("(() => { const r = document.getElementById('layer-walkmesh').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()");
    b.click(r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
    assert_eq!(b.eval("areakitView3d.layers.walkmesh"), json!(true));
    let (tri_on, _) = drawn(&mut b);
    let faces = b.eval("(() => { const d = JSON.parse(document.getElementById('areakit-3d').textContent); return d.walkmesh.face_count; })()");
    assert!(
        tri_on >= tri_off + faces.as_u64().unwrap(),
        "{tri_off} -> {tri_on}"
    );
    let overlay = viewport(&mut b, &shots.join("3-walkmesh.png"));
    let by_overlay = changed(&textured, &overlay);
    eprintln!(
        "walkmesh overlay: {tri_off} -> {tri_on} triangles, {:.0}% of the viewport changed",
        by_overlay * 100.0
    );
    assert!(by_overlay > 0.05);
    b.click(r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
    assert_eq!(b.eval("areakitView3d.layers.walkmesh"), json!(false));

    // The VIS inspector: a room's row hides the rooms it does not list.
    let rows = b.eval("JSON.parse(document.getElementById('areakit-3d').textContent).vis.rows");
    let rows: Vec<Vec<u64>> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect()
        })
        .collect();
    let (room, row) = rows
        .iter()
        .enumerate()
        .min_by_key(|(_, r)| r.len())
        .unwrap();
    assert!(
        row.len() + 1 < rows.len(),
        "some room sees fewer than all: {rows:?}"
    );
    let (all_tri, all_meshes) = drawn(&mut b);
    b.eval(&format!("areakitView3d.setVisRoom({room}); true"));
    let (vis_tri, vis_meshes) = drawn(&mut b);
    let seen = b.eval("document.getElementById('vis-info').dataset.visible");
    let expected = row.len() + usize::from(!row.contains(&(room as u64)));
    assert_eq!(seen, json!(expected.to_string()));
    assert!(
        vis_tri < all_tri && vis_meshes < all_meshes,
        "{all_tri}/{all_meshes} -> {vis_tri}/{vis_meshes}"
    );
    let vis = viewport(&mut b, &shots.join("4-vis.png"));
    eprintln!(
        "VIS of room {room} ({} rooms drawn of {}): {all_tri} -> {vis_tri} triangles, {:.0}% of the viewport changed",
        expected,
        rows.len(),
        changed(&textured, &vis) * 100.0
    );
    b.eval("areakitView3d.setVisRoom(null); true");
    assert_eq!(drawn(&mut b).0, all_tri);

    // The walk camera's height query is `query`'s (`ops::query_at` answers an area through
    // `walkmesh::Area::at`): the same room, face and height at points over the area, with and
    // without a height hint.
    let lyt = module.join("vulk01.lyt");
    let area = areakit_app::area::Area::open(&lyt).unwrap();
    let ground = areakit_app::walkmesh::Area::new(&areakit_app::ops::area_rooms(&area)).unwrap();
    let q = areakit_app::ops::query_at(&areakit_app::Session::files_only(), &lyt, 1.3, 0.7, None)
        .unwrap();
    assert_eq!(
        q.z,
        ground.at(1.3, 0.7, None).answer.z,
        "the same query as the command's"
    );
    let data = b.eval("JSON.parse(document.getElementById('areakit-3d').textContent).bounds");
    let (lo, hi) = (&data["min"], &data["max"]);
    let (x0, y0) = (lo[0].as_f64().unwrap(), lo[1].as_f64().unwrap());
    let (x1, y1) = (hi[0].as_f64().unwrap(), hi[1].as_f64().unwrap());
    let mut points = Vec::new();
    for i in 0..40 {
        for j in 0..40 {
            let x = (x0 + (x1 - x0) * (i as f64 + 0.37) / 40.0) as f32;
            let y = (y0 + (y1 - y0) * (j as f64 + 0.61) / 40.0) as f32;
            for hint in [None, Some(0.5f32), Some(-3.0)] {
                points.push((x, y, hint));
            }
        }
    }
    let list: Vec<Value> = points.iter().map(|(x, y, h)| json!([x, y, h])).collect();
    let js = b.eval(&format!(
        "{}.map(([x, y, h]) => areakitView3d.heightAt(x, y, h, false))",
        Value::Array(list)
    ));
    let mut on_ground = 0;
    for ((x, y, hint), js) in points.iter().zip(js.as_array().unwrap()) {
        let a = ground.at(*x, *y, *hint);
        match a.answer.face {
            None => assert_eq!(js, &Value::Null, "({x}, {y})"),
            Some(face) => {
                on_ground += 1;
                assert_eq!(js["face"], json!(face), "({x}, {y}) {hint:?}: {js}");
                assert_eq!(js["room"], json!(a.room), "({x}, {y})");
                assert_eq!(
                    js["z"].as_f64().unwrap() as f32,
                    a.answer.z.unwrap(),
                    "({x}, {y})"
                );
                assert_eq!(js["walkable"], json!(a.answer.walkable));
            }
        }
    }
    eprintln!(
        "height query: {} points compared with `query`, {on_ground} on the walkmesh: all equal",
        points.len()
    );
    assert!(on_ground > 500);

    // Walking: the walker stays on walkable ground (its height the query's at each step).
    b.eval("areakitView3d.setMode('walk'); true");
    assert_eq!(b.eval("areakitView3d.mode"), json!("walk"));
    let walked = b.eval(
        "(() => { const w = areakitView3d.walker; let moved = 0, off = 0;
          for (let i = 0; i < 400; i++) {
            const a = i * 0.37; const before = [w.x, w.y];
            if (areakitView3d.tryMove(Math.cos(a) * 0.3, Math.sin(a) * 0.3)) moved++;
            const h = areakitView3d.heightAt(w.x, w.y, w.z, true);
            if (!h || !h.walkable || Math.abs(h.z - w.z) > 1e-6) off++;
          }
          return [moved, off]; })()",
    );
    assert_eq!(
        walked[1],
        json!(0),
        "the walker left the walkmesh: {walked}"
    );
    assert!(walked[0].as_u64().unwrap() > 50, "{walked}");
    // Keys move it too.
    let before = b.eval("[areakitView3d.walker.x, areakitView3d.walker.y]");
    b.eval("document.getElementById('view').focus(); true");
    b.call(
        "Input.dispatchKeyEvent",
        json!({"type": "keyDown", "key": "w", "code": "KeyW", "windowsVirtualKeyCode": 87}),
    );
    std::thread::sleep(std::time::Duration::from_millis(400));
    b.frames();
    b.call(
        "Input.dispatchKeyEvent",
        json!({"type": "keyUp", "key": "w", "code": "KeyW", "windowsVirtualKeyCode": 87}),
    );
    let after = b.eval("[areakitView3d.walker.x, areakitView3d.walker.y]");
    eprintln!("walk: {walked} (steps taken, off the walkmesh); W moved {before} -> {after}");
    viewport(&mut b, &shots.join("5-walk.png"));
    b.eval("areakitView3d.setMode('orbit'); areakitView3d.fit(); true");

    // A click picks the surface under it.
    let c = b.eval("(() => { const r = document.getElementById('canvas3d').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()");
    b.click(c[0].as_f64().unwrap(), c[1].as_f64().unwrap());
    let info = b.eval("document.getElementById('pick-info').textContent");
    assert!(info.as_str().unwrap().contains("point"), "{info}");

    // The 2-D map in its tab.
    let t = b.eval("(() => { const r = document.getElementById('tab-2d').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()");
    b.click(t[0].as_f64().unwrap(), t[1].as_f64().unwrap());
    b.wait_for("!!(document.getElementById('map2d').contentWindow.document.body && document.getElementById('map2d').contentWindow.document.body.dataset.ready === 'true')", 60);
    let faces2d = b.eval("document.getElementById('map2d').contentWindow.areakitView.faceCount || JSON.parse(document.getElementById('map2d').contentWindow.document.getElementById('areakit-data').textContent).face_count");
    assert_eq!(faces2d, faces, "the map draws the same walkmesh");
    assert_eq!(
        b.eval("document.getElementById('side').hidden"),
        json!(true),
        "the map's own panel replaces the 3-D one"
    );
    viewport_2d(&mut b, &shots.join("6-map2d.png"));
    assert!(b.errors.is_empty(), "console errors: {:#?}", b.errors);
    drop(b);
    let _ = std::fs::remove_dir_all(&dir);
}

fn viewport_2d(b: &mut Browser, file: &Path) {
    let shot = b.call("Page.captureScreenshot", json!({"format": "png"}));
    use base64::Engine as _;
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().unwrap())
        .unwrap();
    std::fs::write(file, png).unwrap();
}

/// The built module's conservative VIS lets every room of this layout see every other (lines
/// can pass through its openings); a modder narrows a row by hand to stop what the engine need
/// not draw. Here the first room keeps only the first room it lists, so that the inspector has a
/// row to show that hides rooms.
fn narrow_first_vis_row(module: &Path) {
    let vis_path = std::fs::read_dir(module)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("vis")))
        .expect("the built module's VIS");
    let mut vis = areakit_app::formats::vis::read(&std::fs::read(&vis_path).unwrap()).unwrap();
    let first = &mut vis.rooms[0];
    first.visible.truncate(1);
    std::fs::write(&vis_path, areakit_app::formats::vis::write(&vis).unwrap()).unwrap();
}
