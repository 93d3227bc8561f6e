//! NWN compiled models through the command line: `info` counts, `check` (no error on any corpus
//! model), decompiling to NWN MDL ASCII and compiling back (`--to mdl-bin`), and the defaults
//! (`.mdl` from NWN text stays text).

use crate::common;
use crate::support::run;

use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-nwn-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn model(name: &str) -> PathBuf {
    common::corpus_files(&["nwn-mdl-bin"])
        .into_iter()
        .find(|p| p.to_string_lossy().contains(name))
        .unwrap_or_else(|| panic!("{name} in the corpus"))
}

fn info(path: &std::path::Path) -> serde_json::Value {
    let (code, out, err) = run(&["info".as_ref(), path.as_os_str(), "--json".as_ref()]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn check_gives_no_finding_on_any_corpus_nwn_model() {
    let files = common::corpus_files(&["nwn-mdl-bin"]);
    assert_eq!(files.len(), 108);
    let mut args: Vec<&std::ffi::OsStr> = vec!["check".as_ref(), "--json".as_ref()];
    args.extend(files.iter().map(|p| p.as_os_str()));
    let (code, out, err) = run(&args);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(code, 0, "{err} {:#}", v["findings"]);
    assert_eq!(v["files_checked"], 108);
    assert_eq!(v["findings"].as_array().map(Vec::len), Some(0));
}

#[test]
fn info_counts_a_creature_and_a_tile() {
    let v = info(&model("c_bodak"));
    assert_eq!(
        (v["format"].as_str(), v["game"].as_str()),
        (Some("mdl"), Some("nwn"))
    );
    assert_eq!(v["supermodel"], "a_ba");
    assert_eq!(v["nodes"]["total"], 22);
    assert!(v["vertices"].as_u64().unwrap() > 0 && v["faces"].as_u64().unwrap() > 0);
    let t = info(&model("ttd01_a04_03"));
    assert_eq!(t["nodes"]["by_type"]["aabb"], 1);
    assert_eq!(t["classification"], 2);
}

#[test]
fn decompiled_and_compiled_back_keeps_the_counts_and_checks_clean() {
    let dir = tmp("ascii");
    for name in ["it_torch_000", "c_bodak", "ttd01_a04_03", "vff_dragelec"] {
        let src = model(name);
        let text = dir.join(format!("{name}.mdl.ascii"));
        let (code, _, err) = run(&["convert".as_ref(), src.as_os_str(), text.as_os_str()]);
        assert_eq!(code, 0, "{name}: {err}");
        let body = std::fs::read_to_string(&text).unwrap();
        assert!(
            body.contains("newmodel") && body.contains("beginmodelgeom"),
            "{name}"
        );
        // NWN text to `.mdl` stays text by default ...
        let same = dir.join(format!("{name}-text.mdl"));
        let (code, out, err) = run(&["convert".as_ref(), text.as_os_str(), same.as_os_str()]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(out.contains("mdl-ascii"), "{out}");
        assert!(std::fs::read(&same).unwrap().starts_with(b"#"));
        // ... and compiles with `--to mdl-bin`.
        let bin = dir.join(format!("{name}.mdl"));
        let (code, _, err) = run(&[
            "convert".as_ref(),
            text.as_os_str(),
            bin.as_os_str(),
            "--to".as_ref(),
            "mdl-bin".as_ref(),
        ]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(!bin.with_extension("mdx").exists(), "no MDX for NWN");
        let (a, b) = (info(&src), info(&bin));
        for key in [
            "nodes",
            "meshes",
            "vertices",
            "faces",
            "animations",
            "supermodel",
        ] {
            assert_eq!(a[key], b[key], "{name}: {key}");
        }
        let (code, out, err) = run(&["check".as_ref(), bin.as_os_str(), "--json".as_ref()]);
        assert_eq!(code, 0, "{name}: {err} {out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn query(tile: &std::path::Path, at: [f32; 2]) -> serde_json::Value {
    let at = format!("{},{}", at[0], at[1]);
    let (code, out, err) = run(&[
        "query".as_ref(),
        tile.as_os_str(),
        "--at".as_ref(),
        at.as_ref(),
        "--json".as_ref(),
    ]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// The corpus tile's AABB walkmesh (53 faces: dirt, obscuring, non-walk) answers `query` and
/// `path`, and `render` and `view` draw it.
#[test]
fn a_tiles_walkmesh_answers_query_and_path_and_render_draws_it() {
    let tile = model("ttd01_a04_03");
    let dirt = query(&tile, [4.0, 4.0]);
    assert_eq!(
        (dirt["material"].as_str(), dirt["walkable"].as_bool()),
        (Some("dirt"), Some(true))
    );
    assert!(dirt["z"].as_f64().unwrap().abs() < 0.01);
    let rock = query(&tile, [0.0, 0.0]);
    assert_eq!(rock["walkable"], false);
    // A path around the obscuring rock: longer than the straight line, every leg on walkable
    // ground (its midpoint asked back).
    let (code, out, err) = run(&[
        "path".as_ref(),
        tile.as_os_str(),
        "--from".as_ref(),
        "-4,-4".as_ref(),
        "--to".as_ref(),
        "4,4".as_ref(),
        "--json".as_ref(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["found"], true);
    let straight = 8.0f64 * 2f64.sqrt();
    assert!(v["length"].as_f64().unwrap() > straight + 0.05, "{v}");
    let points: Vec<[f32; 2]> = v["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| [p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32])
        .collect();
    assert!(points.len() >= 3);
    for w in points.windows(2) {
        let mid = [(w[0][0] + w[1][0]) / 2.0, (w[0][1] + w[1][1]) / 2.0];
        assert_eq!(query(&tile, mid)["walkable"], true, "{mid:?}");
    }
    let dir = tmp("render");
    let svg = dir.join("tile.svg");
    let (code, _, err) = run(&[
        "render".as_ref(),
        tile.as_os_str(),
        "-o".as_ref(),
        svg.as_os_str(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains("53 faces") && text.contains("dirt"),
        "{}",
        &text[..300.min(text.len())]
    );
    let page = dir.join("tile.html");
    let (code, _, err) = run(&[
        "view".as_ref(),
        tile.as_os_str(),
        "-o".as_ref(),
        page.as_os_str(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::metadata(&page).unwrap().len() > 1000);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A tile turned by 90° and moved, and a tile mirrored: its walkmesh answers at the moved
/// points as the original does at the first ones, the model checks clean, and an animation's
/// keys move with it (the creature's root children).
#[test]
fn a_transformed_tile_keeps_its_walkmesh_in_step() {
    let tile = model("ttd01_a04_03");
    let dir = tmp("transform");
    let turned = dir.join("turned.mdl");
    let (code, _, err) = run(&[
        "transform".as_ref(),
        tile.as_os_str(),
        "-o".as_ref(),
        turned.as_os_str(),
        "--rotate".as_ref(),
        "90".as_ref(),
        "--translate".as_ref(),
        "10,20,0".as_ref(),
    ]);
    assert_eq!(code, 0, "{err}");
    let mirrored = dir.join("mirrored.mdl");
    let (code, _, err) = run(&[
        "transform".as_ref(),
        tile.as_os_str(),
        "-o".as_ref(),
        mirrored.as_os_str(),
        "--mirror".as_ref(),
        "x".as_ref(),
    ]);
    assert_eq!(code, 0, "{err}");
    for (x, y) in [
        (4.0, 4.0),
        (0.0, 0.0),
        (-4.0, 3.0),
        (3.5, -4.2),
        (-1.0, -2.5),
    ] {
        let a = query(&tile, [x, y]);
        // (x, y) turned by 90° about z is (-y, x); then moved.
        let b = query(&turned, [-y + 10.0, x + 20.0]);
        let c = query(&mirrored, [-x, y]);
        for other in [&b, &c] {
            assert_eq!(a["material"], other["material"], "{x},{y}: {a} {other}");
            let (za, zb) = (a["z"].as_f64(), other["z"].as_f64());
            assert!(
                za.zip(zb).is_none_or(|(p, q)| (p - q).abs() < 1e-3),
                "{x},{y}"
            );
        }
    }
    for out in [&turned, &mirrored] {
        let (code, o, err) = run(&["check".as_ref(), out.as_os_str(), "--json".as_ref()]);
        assert_eq!(code, 0, "{err} {o}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
