//! Rendering maps: every corpus walkmesh renders to SVG and PNG; writes two samples to
//! `target/render-samples/` for a look.

use crate::common;

use areakit_app::render::{
    MapRoom, RenderOptions, render_bwm_png, render_bwm_svg, render_png, render_svg,
};
use areakit_app::walkmesh::check_bwm;
use areakit_formats::bwm;

/// Faces drawn in an SVG: one `Z` per triangle in the `faces` paths.
fn face_count(svg: &str) -> usize {
    svg.lines()
        .filter(|l| l.starts_with(r#"<path class="faces""#))
        .map(|l| l.matches('Z').count())
        .sum()
}

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
        assert_eq!(face_count(&svg), m.faces.len());
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
    let room = areakit_app::demo::rooms().remove(0);
    let m = areakit_app::walkmesh::rebuild_with_transitions(&room.mesh, &room.transitions).unwrap();
    let (lo, hi) = m.bounds().unwrap();
    let mid = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0, 0.0];
    let opts = RenderOptions {
        size: 400,
        objects: vec![areakit_app::render::MapObject {
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
    assert_eq!(face_count(&svg), m.faces.len());
    assert_eq!(svg.matches("<polygon").count(), 1);
    // The PNG: the path's middle is blue, the object's centre dark red.
    let png = render_png(&rooms, &opts).unwrap();
    let pm = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    let svg_without = render_svg(
        &rooms,
        &RenderOptions {
            size: 400,
            ..RenderOptions::default()
        },
    );
    assert!(!svg_without.contains("polyline"));
    // Pixel coordinates as the renderer maps them.
    let t = areakit_app::render::map_transform(&rooms, &opts);
    let px = |x: f32, y: f32| {
        let (u, v) = t.px([x, y]);
        let p = pm.pixel(u as u32, v as u32).unwrap();
        [p.red(), p.green(), p.blue()]
    };
    let blue = px((lo[0] + hi[0]) / 2.0, lo[1] + 0.5);
    assert!(blue[2] > 180 && blue[0] < 60, "{blue:?}");
    let red = px(mid[0], mid[1] - 0.3);
    assert!(red[0] > red[1] + 40 && red[0] > red[2] + 40, "{red:?}");
}

/// The demo area's PNG carries the SVG's words: room names and the legend are drawn (dark
/// text pixels where the SVG puts them), the same pixels resvg draws from the written SVG,
/// and absent from a rendering of that SVG with its text removed.
#[test]
fn demo_png_shows_room_names_and_legend() {
    let d = std::env::temp_dir().join(format!("areakit-render-words-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    areakit_app::demo::run(&d).unwrap();
    let svg = std::fs::read_to_string(d.join("demo.svg")).unwrap();
    let png =
        resvg::tiny_skia::Pixmap::decode_png(&std::fs::read(d.join("demo.png")).unwrap()).unwrap();
    let drawn =
        resvg::tiny_skia::Pixmap::decode_png(&areakit_app::render::svg_to_png(&svg).unwrap())
            .unwrap();
    // The SVG without any text element.
    let mut bare = String::new();
    let mut rest = svg.as_str();
    while let Some(i) = rest.find("<text") {
        bare.push_str(&rest[..i]);
        let j = rest[i..].find("</text>").unwrap() + i + "</text>".len();
        rest = &rest[j..];
    }
    bare.push_str(rest);
    assert!(!bare.contains("<text") && bare.len() < svg.len());
    let bare =
        resvg::tiny_skia::Pixmap::decode_png(&areakit_app::render::svg_to_png(&bare).unwrap())
            .unwrap();
    assert_eq!((png.width(), png.height()), (bare.width(), bare.height()));
    let dark = |pm: &resvg::tiny_skia::Pixmap, x0: f32, y0: f32, x1: f32, y1: f32| {
        let mut n = 0;
        for y in y0.max(0.0) as u32..(y1 as u32).min(pm.height()) {
            for x in x0.max(0.0) as u32..(x1 as u32).min(pm.width()) {
                let p = pm.pixel(x, y).unwrap();
                if (p.red() as u32 + p.green() as u32 + p.blue() as u32) < 200 {
                    n += 1;
                }
            }
        }
        n
    };
    let same = |x0: f32, y0: f32, x1: f32, y1: f32| {
        for y in y0.max(0.0) as u32..(y1 as u32).min(png.height()) {
            for x in x0.max(0.0) as u32..(x1 as u32).min(png.width()) {
                assert_eq!(png.pixel(x, y), drawn.pixel(x, y), "pixel {x},{y}");
            }
        }
    };
    // Room names where the SVG puts them.
    let mut regions = Vec::new();
    for line in svg
        .lines()
        .filter(|l| l.starts_with(r#"<text class="room""#))
    {
        let attr = |name: &str| -> f32 {
            let i = line.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            line[i..i + line[i..].find('"').unwrap()].parse().unwrap()
        };
        let name = &line[line.find('>').unwrap() + 1..line.find("</text>").unwrap()];
        regions.push((name.to_string(), attr("x"), attr("y")));
    }
    let names: Vec<&str> = regions.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(names, ["demo_a", "demo_b", "demo_c"]);
    for (name, x, y) in &regions {
        let (x0, y0, x1, y1) = (x - 40.0, y - 14.0, x + 40.0, y + 4.0);
        let with = dark(&png, x0, y0, x1, y1);
        let without = dark(&bare, x0, y0, x1, y1);
        assert!(
            with >= without + 30,
            "{name}: {with} dark pixels vs {without} without text"
        );
        same(x0, y0, x1, y1);
    }
    // The legend: its material names beside the map.
    let x0 = png.width() as f32 - areakit_app::render::PANEL_WIDTH;
    let (y0, y1) = (30.0, 230.0);
    let with = dark(&png, x0, y0, png.width() as f32, y1);
    let without = dark(&bare, x0, y0, png.width() as f32, y1);
    assert!(
        with >= without + 300,
        "legend: {with} dark pixels vs {without} without text"
    );
    same(x0, y0, png.width() as f32, y1);
    // The title above the map.
    assert!(dark(&png, 0.0, 0.0, 200.0, 28.0) > dark(&bare, 0.0, 0.0, 200.0, 28.0) + 50);
    std::fs::remove_dir_all(&d).unwrap();
}

/// `--findings` numbers each finding on the map and lists it beside the map.
#[test]
fn findings_are_numbered_and_listed() {
    let files = common::corpus_files(&["wok"]);
    let path = files.iter().find(|p| p.ends_with("out.wok")).unwrap();
    let m = bwm::read(&std::fs::read(path).unwrap()).unwrap();
    let findings = check_bwm(&m);
    assert!(findings.len() > 3);
    let svg = render_bwm_svg(&m, &findings);
    let placed = findings
        .iter()
        .filter(|f| f.place.position.is_some())
        .count();
    assert_eq!(svg.matches(r#"<g class="finding">"#).count(), placed);
    assert!(svg.contains(&format!("Findings ({})", findings.len())));
    let listed = svg.matches(r#"class="finding-item""#).count();
    assert_eq!(listed, findings.len().min(60));
    // Numbers on the map and in the list agree: the first finding is "1." in the list.
    assert!(svg.contains(&format!(">1. {}", findings[0].code)));
}

/// An area whose rooms have models (the Holocron kit rooms of `export_import`): their top-down
/// outlines are a layer under the walkmesh (`<g id="models">`, one path per room with a
/// model, before the faces), `--no-models` leaves it out, and the model that does not decode
/// is a warning.
#[test]
fn room_models_are_a_layer_under_the_walkmesh() {
    let dir = std::env::temp_dir().join(format!("areakit-render-models-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let area = dir.join("area");
    let (_, wok_faces) = crate::export_import::kit_models_area(&area);
    let render = |out: &str, extra: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_areakit"))
            .arg("render")
            .arg(&area)
            .arg("-o")
            .arg(dir.join(out))
            .args(extra)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(0), "{err}");
        err
    };
    let err = render("with.svg", &[]);
    assert!(
        err.contains("room room_3: its model") && err.contains("does not decode"),
        "{err}"
    );
    let svg = std::fs::read_to_string(dir.join("with.svg")).unwrap();
    let models = svg.find(r#"<g id="models""#).expect("the models layer");
    assert!(
        models < svg.find(r#"<path class="faces""#).unwrap(),
        "under the walkmesh"
    );
    assert_eq!(svg.matches(r#"<path class="model" "#).count(), 2);
    assert!(svg.contains(r#"data-room="room_1""#) && svg.contains(r#"data-room="room_2""#));
    assert!(svg.contains("room model (top-down outline)"));
    assert_eq!(face_count(&svg) as u64, wok_faces);
    render("without.svg", &["--no-models"]);
    let bare = std::fs::read_to_string(dir.join("without.svg")).unwrap();
    assert!(!bare.contains(r#"id="models""#) && !bare.contains(r#"class="model""#));
    assert_eq!(face_count(&bare) as u64, wok_faces);
    render("with.png", &[]);
    let png = std::fs::read(dir.join("with.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    eprintln!(
        "kit area map: SVG {} bytes with models, {} without; PNG {} bytes",
        svg.len(),
        bare.len(),
        png.len()
    );
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_areakit"))
        .args(["render", "--help"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("--no-models"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A model outline is the union of its triangles: a square ring of eight triangles gives an
/// outer loop (counter-clockwise) and a hole (clockwise) within a grid cell of the exact
/// areas; two apart squares give two loops.
#[test]
fn model_outline_merges_triangles_into_loops() {
    let area = |l: &[[f32; 2]]| {
        (0..l.len())
            .map(|i| {
                let (p, q) = (l[i], l[(i + 1) % l.len()]);
                p[0] * q[1] - q[0] * p[1]
            })
            .sum::<f32>()
            / 2.0
    };
    let quad = |a: [f32; 2], b: [f32; 2], c: [f32; 2], d: [f32; 2]| [[a, b, c], [a, c, d]];
    // Outer 0..10, hole 3..7: four quads around the hole.
    let mut tris = Vec::new();
    tris.extend(quad([0.0, 0.0], [10.0, 0.0], [10.0, 3.0], [0.0, 3.0]));
    tris.extend(quad([0.0, 7.0], [10.0, 7.0], [10.0, 10.0], [0.0, 10.0]));
    tris.extend(quad([0.0, 3.0], [3.0, 3.0], [3.0, 7.0], [0.0, 7.0]));
    tris.extend(quad([7.0, 3.0], [10.0, 3.0], [10.0, 7.0], [7.0, 7.0]));
    let loops = areakit_app::picture::model_outline(&tris);
    assert_eq!(loops.len(), 2, "{loops:?}");
    let mut areas: Vec<f32> = loops.iter().map(|l| area(l)).collect();
    areas.sort_by(f32::total_cmp);
    assert!((areas[0] + 16.0).abs() < 1.5, "the hole: {areas:?}");
    assert!((areas[1] - 100.0).abs() < 3.0, "the outer loop: {areas:?}");
    assert!(loops.iter().all(|l| l.len() <= 8), "simplified: {loops:?}");
    let mut apart = quad([0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]).to_vec();
    apart.extend(quad([5.0, 0.0], [7.0, 0.0], [7.0, 2.0], [5.0, 2.0]));
    assert_eq!(areakit_app::picture::model_outline(&apart).len(), 2);
    assert!(areakit_app::picture::model_outline(&[]).is_empty());
}
