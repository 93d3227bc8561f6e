//! `areakit vis generate` and the VIS checks through the command line, on a synthetic area of
//! box rooms written to disk (LYT, WOKs, room models) and on the library call: the VIS written
//! reads back symmetric, a VIS lacking a seen pair is `vis-missing-pair` in `check`, the input
//! is never overwritten, and without models the room-graph fallback says so.

use crate::support::run;
use std::path::{Path, PathBuf};

use areakit_app::Session;
use areakit_area::visgen::synthetic::{GridSpec, SyntheticArea, grid_area};
use areakit_formats::{bwm, lyt, mdl, vis};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-vis-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes `a` as area `grid` in `dir` (models too when `models`), returns the LYT's path.
fn write_area(dir: &Path, a: &SyntheticArea, models: bool) -> PathBuf {
    let mut layout = lyt::Lyt::default();
    for r in &a.rooms {
        layout
            .rooms
            .push(lyt::Placement::new(r.name.clone(), r.position));
        let wok = areakit_area::walkmesh::rebuild(&r.walkmesh).unwrap();
        std::fs::write(
            dir.join(format!("{}.wok", r.name)),
            bwm::write(&wok).unwrap(),
        )
        .unwrap();
        if models {
            let (m, x) = mdl::write(&r.model).unwrap();
            std::fs::write(dir.join(format!("{}.mdl", r.name)), m).unwrap();
            std::fs::write(dir.join(format!("{}.mdx", r.name)), x).unwrap();
        }
    }
    let path = dir.join("grid.lyt");
    std::fs::write(&path, lyt::write(&layout).unwrap()).unwrap();
    path
}

fn area() -> SyntheticArea {
    grid_area(&GridSpec {
        cols: 3,
        rows: 2,
        seed: 11,
        ..GridSpec::default()
    })
}

#[test]
fn vis_generate_writes_a_symmetric_vis_and_check_finds_a_missing_pair() {
    let dir = tmp("gen");
    let a = area();
    let lyt_path = write_area(&dir, &a, true);
    let out = dir.join("grid.vis");
    let (code, stdout, stderr) = run(&[
        "vis".as_ref(),
        "generate".as_ref(),
        dir.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--json".as_ref(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["method"], "portals");
    assert_eq!(report["rooms"], 6);
    assert_eq!(report["rooms_with_models"], 6);
    assert_eq!(report["rays"], 0, "nothing sampled");
    assert!(report["pairs_without_sampled_line"].is_null());
    assert!(report["openings"].as_u64().unwrap() > 0);
    let pairs = report["pairs"].as_u64().unwrap() as usize;
    let v = vis::read(&std::fs::read(&out).unwrap()).unwrap();
    // The same VIS at any spacing a user passes: --spacing only adds a sampled check.
    for spacing in ["0.5", "1", "3"] {
        let again = dir.join(format!("again-{spacing}.vis"));
        let (code, stdout, stderr) = run(&[
            "vis".as_ref(),
            "generate".as_ref(),
            dir.as_os_str(),
            "-o".as_ref(),
            again.as_os_str(),
            "--spacing".as_ref(),
            spacing.as_ref(),
            "--json".as_ref(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        let r: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(r["method"], "portals and sampled sight lines");
        assert!(r["rays"].as_u64().unwrap() > 0);
        assert!(r["pairs_without_sampled_line"].is_u64());
        assert_eq!(r["pairs_from_sampling"], 0);
        assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&out).unwrap());
        std::fs::remove_file(&again).unwrap();
    }
    assert_eq!(v.rooms.len(), 6);
    let names: Vec<&str> = a.rooms.iter().map(|r| r.name.as_str()).collect();
    let mut listed = 0;
    for x in &names {
        for y in &names {
            assert_eq!(v.is_visible(x, y), v.is_visible(y, x), "{x} {y}");
            listed += usize::from(v.is_visible(x, y));
        }
    }
    assert_eq!(listed, 2 * pairs);
    assert_eq!(
        report["vis"][names[0]].as_array().unwrap().len(),
        v.visible_from(names[0]).len()
    );
    // Rooms joined by a doorway see each other.
    for &(p, q) in &a.links {
        assert!(
            v.is_visible(names[p], names[q]),
            "{} {}",
            names[p],
            names[q]
        );
    }

    // The generated VIS checks clean; one pair taken out is a warning.
    let findings = |dir: &Path| -> Vec<serde_json::Value> {
        let (_, stdout, _) = run(&["check".as_ref(), dir.as_os_str(), "--json".as_ref()]);
        let r: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"].as_str().unwrap_or("").starts_with("vis-"))
            .cloned()
            .collect()
    };
    assert_eq!(findings(&dir), Vec::<serde_json::Value>::new());
    let (p, q) = a.links[0];
    let mut edited = v.clone();
    edited.set_visible(names[p], names[q], false);
    std::fs::write(&out, vis::write(&edited).unwrap()).unwrap();
    let f = findings(&dir);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0]["code"], "vis-missing-pair");
    assert_eq!(f[0]["severity"], "warning");
    assert!(
        f[0]["path"].as_str().unwrap().ends_with("grid.vis"),
        "{f:#?}"
    );

    // A pair no line can join through the openings, listed: info.
    let far = (0..names.len())
        .flat_map(|x| (0..names.len()).map(move |y| (x, y)))
        .find(|&(x, y)| x != y && !v.is_visible(names[x], names[y]))
        .expect("a hidden pair");
    let mut extra = v.clone();
    extra.set_visible(names[far.0], names[far.1], true);
    std::fs::write(&out, vis::write(&extra).unwrap()).unwrap();
    let f = findings(&dir);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0]["code"], "vis-excess-pair");
    assert_eq!(f[0]["severity"], "info");

    // The layout is never overwritten.
    let before = std::fs::read(&lyt_path).unwrap();
    let (code, _, stderr) = run(&[
        "vis".as_ref(),
        "generate".as_ref(),
        lyt_path.as_os_str(),
        "-o".as_ref(),
        lyt_path.as_os_str(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("refusing to overwrite"), "{stderr}");
    assert_eq!(std::fs::read(&lyt_path).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_models_vis_generate_falls_back_to_the_room_graph_and_warns() {
    let dir = tmp("graph");
    let a = area();
    write_area(&dir, &a, false);
    let out = dir.join("out.vis");
    let (code, stdout, stderr) = run(&[
        "vis".as_ref(),
        "generate".as_ref(),
        dir.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--depth".as_ref(),
        "1".as_ref(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("method: walkmesh room graph (depth 1)"),
        "{stdout}"
    );
    assert!(stdout.contains("warning: no room models"), "{stdout}");
    // The synthetic WOKs carry no transitions: no pair at all.
    let v = vis::read(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v.rooms.len(), 6);
    assert_eq!(v.link_count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_library_call_reports_as_the_command_does() {
    let dir = tmp("lib");
    let a = area();
    write_area(&dir, &a, true);
    let out = dir.join("lib.vis");
    let opts = areakit_app::visibility::VisOptions {
        eye_height: 1.2,
        ..Default::default()
    };
    let r = areakit_app::visibility::generate(&Session::files_only(), &dir, &out, &opts).unwrap();
    assert_eq!(r.result.eye_height, 1.2);
    assert_eq!(r.output, out);
    assert_eq!(
        vis::read(&std::fs::read(&out).unwrap()).unwrap(),
        r.result.vis
    );
    // A bad eye height is a usage error, and nothing is written.
    let bad = areakit_app::visibility::VisOptions {
        eye_height: -1.0,
        ..Default::default()
    };
    let other = dir.join("none.vis");
    let e =
        areakit_app::visibility::generate(&Session::files_only(), &dir, &other, &bad).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(!other.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
