//! `areakit view` as a command: writes one self-contained page (no external resources) with
//! the data inline; refuses a non-HTML output and a missing input with the documented codes.

use std::process::Command;

fn areakit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_areakit"))
}

#[test]
fn view_writes_a_self_contained_page() {
    let d = std::env::temp_dir().join(format!("areakit-cli-view-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    assert!(areakit_app::demo::run(&d).unwrap().ok());
    let page = d.join("demo.html");
    let out = areakit()
        .arg("view")
        .arg(d.join("demo.lyt"))
        .arg("-o")
        .arg(&page)
        .args(["--path", "1.5,1.5:18.5,16.5"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("590 faces, 3 rooms"), "{stdout}");
    let html = std::fs::read_to_string(&page).unwrap();
    // Nothing fetched: no src/href attributes, no URLs but the SVG namespace-free data.
    assert!(!html.contains(" src=") && !html.contains(" href="));
    assert!(!html.contains("http://") && !html.contains("https://"));
    assert!(html.contains("document.body.dataset.ready = \"true\""));
    let start = html
        .find(r#"<script id="areakit-data" type="application/json">"#)
        .unwrap();
    let json = &html[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(v["face_count"], 590);
    assert_eq!(
        v["room_names"],
        serde_json::json!(["demo_a", "demo_b", "demo_c"])
    );
    assert_eq!(v["paths"].as_array().unwrap().len(), 1);
    assert!(
        v["transition_labels"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["text"] == "\u{2192} demo_b")
    );
    // Usage errors: not .html (2), missing input (2).
    let bad = areakit()
        .arg("view")
        .arg(d.join("demo.lyt"))
        .arg("-o")
        .arg(d.join("x.png"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let missing = areakit()
        .arg("view")
        .arg(d.join("nope.wok"))
        .arg("-o")
        .arg(d.join("x.html"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let help = areakit().args(["view", "--help"]).output().unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("Examples:"));
    std::fs::remove_dir_all(&d).unwrap();
}

/// An area whose rooms have models (the Holocron kit rooms of `export_import`), as a 2-D map
/// (`--2d`; it opens in 3-D otherwise): the page carries each room model's top-down outline and the viewer has a layer toggle for them
/// (`layer-models`, on by default); the model that does not decode is a warning.
#[test]
fn view_carries_room_model_outlines_and_their_toggle() {
    let d = std::env::temp_dir().join(format!("areakit-cli-view-models-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let area = d.join("area");
    crate::export_import::kit_models_area(&area);
    let page = d.join("kit.html");
    let out = areakit()
        .arg("view")
        .arg(&area)
        .arg("-o")
        .arg(&page)
        .arg("--2d")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("room room_3: its model"), "{stderr}");
    let html = std::fs::read_to_string(&page).unwrap();
    let start = html
        .find(r#"<script id="areakit-data" type="application/json">"#)
        .unwrap();
    let json = &html[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    let models = v["models"].as_array().unwrap();
    assert_eq!(models.len(), 2);
    assert_eq!(models[0]["room"], "room_1");
    assert_eq!(models[1]["room"], "room_2");
    for m in models {
        let loops = m["loops"].as_array().unwrap();
        assert!(!loops.is_empty());
        assert!(loops.iter().all(|l| l.as_array().unwrap().len() >= 6));
    }
    // room_2's outline lies around its LYT position (30, 0).
    let xs: Vec<f64> = models[1]["loops"][0]
        .as_array()
        .unwrap()
        .iter()
        .step_by(2)
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!(xs.iter().all(|x| (15.0..55.0).contains(x)), "{xs:?}");
    // The toggle: a layer like the others, named in the layer list.
    assert!(html.contains("models: models.length > 0"));
    assert!(html.contains(r#"models: "Room models (outline)""#));
    std::fs::remove_dir_all(&d).unwrap();
}
