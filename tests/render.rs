//! Rendering maps: every corpus walkmesh renders to SVG and PNG; writes two samples to
//! `target/render-samples/` for a look.

mod common;

use areakit::render::{
    MapRoom, RenderOptions, render_bwm_png, render_bwm_svg, render_png, render_svg,
};
use areakit::walkmesh::check_bwm;
use areakit_formats::bwm;

#[test]
fn corpus_renders() {
    let files = common::corpus_files(&["wok", "bwm", "pwk"]);
    assert_eq!(files.len(), 112);
    let out_dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("render-samples");
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut covered = 0;
    for path in &files {
        let m = bwm::read(&std::fs::read(path).unwrap()).unwrap();
        let findings = check_bwm(&m);
        let svg = render_bwm_svg(&m, &findings);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polygon").count(), m.faces.len());
        let png = render_bwm_png(&m, &findings).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name == "m13aa_04a.wok" || name == "out.wok" {
            std::fs::write(out_dir.join(format!("{name}.png")), &png).unwrap();
            std::fs::write(out_dir.join(format!("{name}.svg")), &svg).unwrap();
        }
        covered += 1;
    }
    assert_eq!(covered, 112);
}

#[test]
fn area_map_names_rooms() {
    let files = common::corpus_files(&["wok"]);
    let pick = |n: &str| files.iter().find(|p| p.ends_with(n)).unwrap().clone();
    let a = bwm::read(&std::fs::read(pick("enclavesurface/hall_2.wok")).unwrap()).unwrap();
    let b = bwm::read(&std::fs::read(pick("enclavesurface/hall_3.wok")).unwrap()).unwrap();
    let rooms = [
        MapRoom {
            name: Some("hall_2"),
            offset: [0.0; 3],
            bwm: &a,
        },
        MapRoom {
            name: Some("hall<3>"),
            offset: [30.0, 0.0, 0.0],
            bwm: &b,
        },
    ];
    let svg = render_svg(&rooms, &RenderOptions::default());
    assert!(svg.contains(">hall_2</text>") && svg.contains(">hall&lt;3&gt;</text>"));
    let png = render_png(&rooms, &RenderOptions::default()).unwrap();
    let out_dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("render-samples");
    std::fs::create_dir_all(&out_dir).unwrap();
    std::fs::write(out_dir.join("area.png"), &png).unwrap();
}

/// Objects and paths are drawn over the ground, in the SVG and the PNG alike.
#[test]
fn objects_and_paths_are_drawn() {
    let room = areakit::demo::rooms().remove(0);
    let m = areakit::walkmesh::rebuild_with_transitions(&room.mesh, &room.transitions).unwrap();
    let (lo, hi) = m.bounds().unwrap();
    let mid = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0, 0.0];
    let opts = RenderOptions {
        size: 400,
        objects: vec![areakit::render::MapObject {
            label: "crate & box".into(),
            triangles: vec![[
                [mid[0] - 1.0, mid[1] - 1.0, 0.0],
                [mid[0] + 1.0, mid[1] - 1.0, 0.0],
                [mid[0], mid[1] + 1.0, 0.0],
            ]],
        }],
        paths: vec![vec![
            [lo[0] + 0.5, lo[1] + 0.5, 0.0],
            [hi[0] - 0.5, lo[1] + 0.5, 0.0],
        ]],
        ..RenderOptions::default()
    };
    let rooms = [MapRoom {
        name: None,
        offset: [0.0; 3],
        bwm: &m,
    }];
    let svg = render_svg(&rooms, &opts);
    assert_eq!(svg.matches(r#"<polyline class="path""#).count(), 1);
    assert_eq!(
        svg.matches(r#"<g class="object"><title>crate &amp; box</title>"#)
            .count(),
        1
    );
    assert_eq!(svg.matches("<polygon").count(), m.faces.len() + 1);
    // The PNG: the path's middle is blue, the object's centre dark red.
    let png = render_png(&rooms, &opts).unwrap();
    let pm = tiny_skia::Pixmap::decode_png(&png).unwrap();
    let svg_without = render_svg(
        &rooms,
        &RenderOptions {
            size: 400,
            ..RenderOptions::default()
        },
    );
    assert!(!svg_without.contains("polyline"));
    // Pixel coordinates as the renderer maps them: margin 16, y up.
    let scale = (400.0 - 32.0) / (hi[0] - lo[0]).max(hi[1] - lo[1]);
    let px = |x: f32, y: f32| {
        let h = (hi[1] - lo[1]) * scale + 32.0;
        let p = pm
            .pixel(
                (16.0 + (x - lo[0]) * scale) as u32,
                (h - 16.0 - (y - lo[1]) * scale) as u32,
            )
            .unwrap();
        [p.red(), p.green(), p.blue()]
    };
    let blue = px((lo[0] + hi[0]) / 2.0, lo[1] + 0.5);
    assert!(blue[2] > 180 && blue[0] < 60, "{blue:?}");
    let red = px(mid[0], mid[1] - 0.3);
    assert!(red[0] > red[1] + 40 && red[0] > red[2] + 40, "{red:?}");
}
