//! Binary models through the command line: a kit room's model and WOK transformed together keep
//! agreeing (`check` of the area they form finds no `model-walkmesh-mismatch`), and a room
//! whose WOK no longer matches its model is reported.

use crate::common;
use crate::support::run;

use std::path::{Path, PathBuf};

fn kit_room(name: &str) -> PathBuf {
    common::corpus_dir()
        .join("kotor/openkotor_pykotor/Tools/HolocronToolset/src/toolset/kits/blackvulkar")
        .join(name)
}

fn mismatches(report: &str) -> usize {
    let v: serde_json::Value = serde_json::from_str(report).expect("JSON report");
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "model-walkmesh-mismatch")
        .count()
}

/// A folder holding a one-room area: `area.lyt` placing room `r` at `at`, the room's model and
/// its WOK as given.
fn area(dir: &Path, model: &Path, wok: &Path, at: [f32; 3]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::copy(model, dir.join("r.mdl")).unwrap();
    std::fs::copy(model.with_extension("mdx"), dir.join("r.mdx")).unwrap();
    std::fs::copy(wok, dir.join("r.wok")).unwrap();
    let lyt = format!(
        "beginlayout\nroomcount 1\n  r {} {} {}\ntrackcount 0\nobstaclecount 0\ndoorhookcount 0\ndonelayout\n",
        at[0], at[1], at[2]
    );
    std::fs::write(dir.join("area.lyt"), lyt).unwrap();
    dir.join("area.lyt")
}

#[test]
fn a_kit_room_rotated_with_its_wok_still_agrees() {
    let tmp = std::env::temp_dir().join(format!("areakit-models-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let model = kit_room("room_1.mdl");
    let wok = kit_room("room_1.wok");
    // As shipped, at the origin: the model and the WOK agree.
    let lyt = area(&tmp.join("a"), &model, &wok, [0.0; 3]);
    let (code, out, err) = run(&["check".as_ref(), lyt.as_os_str(), "--json".as_ref()]);
    assert!(code == 0 || code == 1, "{err}");
    assert_eq!(mismatches(&out), 0, "{out}");

    // Both turned by 90° and moved: still in agreement. A game area's WOK lies in area space, so
    // the LYT places the model where the WOK was moved to.
    let turned = tmp.join("turned.mdl");
    let turned_wok = tmp.join("turned.wok");
    for (input, output) in [(&model, &turned), (&wok, &turned_wok)] {
        let (code, _, err) = run(&[
            "transform".as_ref(),
            input.as_os_str(),
            "-o".as_ref(),
            output.as_os_str(),
            "--rotate".as_ref(),
            "90".as_ref(),
        ]);
        assert_eq!(code, 0, "{err}");
    }
    assert!(
        turned.with_extension("mdx").is_file(),
        "transform writes the MDX beside the MDL"
    );
    let moved_wok = tmp.join("moved.wok");
    let (code, _, err) = run(&[
        "transform".as_ref(),
        turned_wok.as_os_str(),
        "-o".as_ref(),
        moved_wok.as_os_str(),
        "--translate".as_ref(),
        "20,-5,0".as_ref(),
    ]);
    assert_eq!(code, 0, "{err}");
    let lyt = area(&tmp.join("b"), &turned, &moved_wok, [20.0, -5.0, 0.0]);
    let (_, out, _) = run(&["check".as_ref(), lyt.as_os_str(), "--json".as_ref()]);
    assert_eq!(mismatches(&out), 0, "{out}");

    // The turned model over the WOK as shipped: reported, with the room and a position.
    let lyt = area(&tmp.join("c"), &turned, &wok, [0.0; 3]);
    let (_, out, _) = run(&["check".as_ref(), lyt.as_os_str(), "--json".as_ref()]);
    assert!(mismatches(&out) > 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let found = |wok_face: bool| {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| {
                f["code"] == "model-walkmesh-mismatch"
                    && f.get("face").is_some()
                    && f.get("item").is_none() == wok_face
            })
            .cloned()
            .unwrap()
    };
    // A model face without a WOK face: filed under the model, with its node.
    let f = found(false);
    assert!(f["path"].as_str().unwrap().ends_with("r.mdl"), "{f}");
    assert_eq!(f["item"], "r/walkmesh", "{f}");
    // A WOK face without a model face: filed under the WOK, with the room, face and position.
    let f = found(true);
    assert!(f["path"].as_str().unwrap().ends_with("r.wok"), "{f}");
    assert_eq!(f["room"], "r", "{f}");
    assert!(
        f["face"].is_u64() && f["position"].as_array().is_some_and(|p| p.len() == 3),
        "{f}"
    );

    // The same area packed into a capsule: its models are found there too.
    let capsule = tmp.join("c.mod");
    let (code, _, err) = run(&[
        "pack".as_ref(),
        tmp.join("c").as_os_str(),
        "-o".as_ref(),
        capsule.as_os_str(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = run(&["check".as_ref(), capsule.as_os_str(), "--json".as_ref()]);
    assert!(mismatches(&out) > 0, "{out}");
    // The model member itself is checked too, read with its MDX member: it decodes.
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["files_checked"], 4, "{out}");
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["code"] != "invalid-file"),
        "{out}"
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn a_model_refuses_transition_renumbering_and_writes_nothing() {
    let tmp = std::env::temp_dir().join(format!("areakit-models-remap-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let out = tmp.join("out.mdl");
    let (code, _, err) = run(&[
        "transform".as_ref(),
        kit_room("room_1.mdl").as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--remap".as_ref(),
        "1=2".as_ref(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("room_1.mdl") && err.contains("renumbering"),
        "{err}"
    );
    assert!(!out.exists() && !out.with_extension("mdx").exists());
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// `path` on every corpus binary model: one with an aabb (walkmesh) node that has faces is
/// walked; one without is refused as invalid input (exit 1, one line naming the file), not as
/// a usage error. The test decides which is which from the model's own nodes.
#[test]
fn path_on_a_model_without_a_walkmesh_is_invalid_input() {
    let (mut walked, mut refused) = (0, 0);
    for mdl in common::corpus_files(&["mdl-bin"]) {
        let (Ok(a), Ok(b)) = (
            std::fs::read(&mdl),
            std::fs::read(mdl.with_extension("mdx")),
        ) else {
            continue;
        };
        let Ok(model) = areakit_formats::mdl::read(&a, &b) else {
            continue;
        };
        let ground = model
            .nodes
            .iter()
            .any(|n| n.aabb.is_some() && n.mesh.as_ref().is_some_and(|m| !m.faces.is_empty()));
        let (code, _, err) = run(&[
            "path".as_ref(),
            mdl.as_os_str(),
            "--from".as_ref(),
            "0,0".as_ref(),
            "--to".as_ref(),
            "0,0".as_ref(),
        ]);
        if ground {
            assert!(
                code != 2 && !err.contains("no aabb"),
                "{}: {code} {err}",
                mdl.display()
            );
            walked += 1;
        } else {
            assert_eq!(code, 1, "{}: {err}", mdl.display());
            assert!(
                err.contains("no aabb") && err.contains(&*mdl.to_string_lossy()),
                "{err}"
            );
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            refused += 1;
        }
    }
    assert_eq!((walked, refused), (79, 57), "corpus models covered");
}
