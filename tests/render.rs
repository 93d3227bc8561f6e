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
