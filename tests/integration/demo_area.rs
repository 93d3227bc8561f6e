//! `areakit demo` writes a complete area that `check` finds clean; mutated copies of it give
//! the expected findings at the right places (issue: KotOR areas).

use std::path::{Path, PathBuf};
use std::process::Command;

use areakit_formats::bwm;
use serde_json::Value;

fn areakit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_areakit"))
}

fn fresh_demo(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-demo-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let out = areakit().args(["demo", "--out"]).arg(&d).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // The pictures are not area files; drop them so `check` sees only the area.
    for ext in ["svg", "png"] {
        std::fs::remove_file(d.join(format!("demo.{ext}"))).unwrap();
    }
    d
}

fn check(dir: &Path) -> (i32, Value) {
    let out = areakit()
        .arg("check")
        .arg(dir)
        .arg("--json")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).expect("check --json prints JSON");
    (out.status.code().unwrap(), v)
}

fn findings<'a>(v: &'a Value, code: &str) -> Vec<&'a Value> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == code)
        .collect()
}

#[test]
fn demo_area_checks_clean() {
    let d = fresh_demo("clean");
    for f in [
        "demo.lyt",
        "demo.vis",
        "demo_a.wok",
        "demo_b.wok",
        "demo_c.wok",
    ] {
        assert!(d.join(f).is_file(), "{f}");
    }
    let (code, v) = check(&d);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["files_checked"], 5);
    assert_eq!(v["findings"].as_array().unwrap().len(), 0, "{v:#}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn deleted_wok_is_a_warning_on_its_lyt_line() {
    let d = fresh_demo("nowok");
    std::fs::remove_file(d.join("demo_b.wok")).unwrap();
    let (code, v) = check(&d);
    assert_eq!(code, 0, "a warning since the severity review: {v:#}");
    let f = findings(&v, "area-room-missing-wok");
    assert_eq!(f.len(), 1, "{v:#}");
    assert_eq!(f[0]["severity"], "warning");
    assert_eq!(f[0]["room"], "demo_b");
    assert_eq!(
        f[0]["line"], 5,
        "demo_b is the second room line of demo.lyt"
    );
    assert!(f[0]["path"].as_str().unwrap().ends_with("demo.lyt"));
    // Links into the missing room are not judged without its WOK; without it, demo_c can no
    // longer be reached from demo_a (the navigation check says so).
    assert_eq!(v["findings"].as_array().unwrap().len(), 2, "{v:#}");
    let island = findings(&v, "nav-unreachable-island");
    assert_eq!(island.len(), 1, "{v:#}");
    assert_eq!(island[0]["room"], "demo_c");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn renamed_vis_room_is_a_warning_on_its_vis_line() {
    let d = fresh_demo("visname");
    let vis = std::fs::read_to_string(d.join("demo.vis")).unwrap();
    let renamed = vis.replacen("demo_c 2", "demo_x 2", 1);
    assert_ne!(vis, renamed);
    std::fs::write(d.join("demo.vis"), renamed).unwrap();
    let (code, v) = check(&d);
    assert_eq!(code, 0, "an unknown VIS room is a warning");
    let f = findings(&v, "area-vis-unknown-room");
    assert_eq!(f.len(), 1, "{v:#}");
    assert_eq!(f[0]["severity"], "warning");
    assert_eq!(f[0]["room"], "demo_x");
    assert_eq!(f[0]["line"], 8);
    assert!(f[0]["path"].as_str().unwrap().ends_with("demo.vis"));
    // demo_c itself is now missing from the VIS.
    let missing = findings(&v, "area-room-not-in-vis");
    assert_eq!(missing.len(), 1);
    assert_eq!(missing[0]["room"], "demo_c");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn one_way_room_link_is_reported_at_the_edge() {
    let d = fresh_demo("oneway");
    // Drop the transitions of demo_c: demo_b still leads into demo_c, nothing leads back.
    let path = d.join("demo_c.wok");
    let mut m = bwm::read(&std::fs::read(&path).unwrap()).unwrap();
    let cleared = m.edges.iter().filter(|e| e.transition >= 0).count();
    assert_eq!(cleared, 2);
    m.edges.iter_mut().for_each(|e| e.transition = -1);
    std::fs::write(&path, bwm::write(&m).unwrap()).unwrap();
    let (_, v) = check(&d);
    let f = findings(&v, "area-link-one-way");
    assert_eq!(f.len(), 2, "both doorway edges of demo_b: {v:#}");
    let b = bwm::read(&std::fs::read(d.join("demo_b.wok")).unwrap()).unwrap();
    for finding in f {
        assert_eq!(finding["room"], "demo_b");
        assert!(finding["path"].as_str().unwrap().ends_with("demo_b.wok"));
        let face = finding["face"].as_u64().unwrap() as u32;
        let side = finding["edge"].as_u64().unwrap() as u32;
        let edge = b
            .edges
            .iter()
            .find(|e| e.edge == face * 3 + side)
            .expect("the finding names a boundary edge");
        assert_eq!(edge.transition, 2, "the edge leads to demo_c");
        let p = finding["position"].as_array().unwrap();
        assert!(
            (p[1].as_f64().unwrap() - 10.0).abs() < 1e-4,
            "on the b/c doorway at y = 10"
        );
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn duplicated_lyt_room_is_a_warning() {
    let d = fresh_demo("dup");
    let lyt = std::fs::read_to_string(d.join("demo.lyt")).unwrap();
    let dup = lyt.replacen("roomcount 3", "roomcount 4", 1).replacen(
        "      demo_c 10.0 10.0 0.0\n",
        "      demo_c 10.0 10.0 0.0\n      demo_a 0.0 0.0 0.0\n",
        1,
    );
    std::fs::write(d.join("demo.lyt"), dup).unwrap();
    let (code, v) = check(&d);
    assert_eq!(code, 0, "a warning since the severity review: {v:#}");
    let f = findings(&v, "lyt-duplicate-room");
    assert_eq!(f.len(), 1, "{v:#}");
    assert_eq!(f[0]["severity"], "warning");
    assert_eq!(f[0]["line"], 7);
    assert_eq!(f[0]["room"], "demo_a");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn demo_renders_svg_and_png() {
    let d = std::env::temp_dir().join(format!("areakit-demo-render-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    assert_eq!(
        areakit()
            .args(["demo", "--out"])
            .arg(&d)
            .output()
            .unwrap()
            .status
            .code(),
        Some(0)
    );
    let svg = std::fs::read_to_string(d.join("demo.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{}",
        &svg[..40]
    );
    assert!(
        svg.contains("demo_a") && svg.contains("demo_c"),
        "room names drawn"
    );
    assert!(svg.trim_end().ends_with("</svg>"));
    let png = std::fs::read(d.join("demo.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    std::fs::remove_dir_all(&d).unwrap();
}
