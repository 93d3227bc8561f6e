//! `areakit export` and `areakit import` (issue 14): every corpus WOK, a kit area, the demo area
//! (with a path and a placed object), NWN2 TRX files and MDL ASCII models export to glb, gltf and
//! OBJ with the counts `info` gives; the Khronos validator (when `node` and
//! `tests/gltf/node_modules` are present) finds no error; importing the exported OBJ and glb
//! gives back the same vertices, faces, materials and transitions; a hand-made OBJ imports to a
//! walkmesh without error findings, and bad input is an error naming where.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use areakit_app::document::Document;
use areakit_formats::bwm::{self, Bwm};
use serde_json::Value;

/// The binary under test: `AREAKIT_BIN` when set (a copy, for machines where several checkouts
/// share one target folder and may overwrite each other's build), else cargo's.
fn binary() -> PathBuf {
    std::env::var_os("AREAKIT_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_areakit")),
        PathBuf::from,
    )
}

fn areakit(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(binary()).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = areakit(args);
    assert_eq!(code, 0, "areakit {args:?}: {err}{out}");
    out
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-interop-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The JSON chunk of a GLB.
pub(crate) fn glb_json(path: &Path) -> Value {
    let data = std::fs::read(path).unwrap();
    assert_eq!(&data[..4], b"glTF");
    let len = u32::from_le_bytes(data[12..16].try_into().unwrap()) as usize;
    assert_eq!(&data[16..20], b"JSON");
    serde_json::from_slice(&data[20..20 + len]).unwrap()
}

fn gltf_json(path: &Path) -> Value {
    if path.extension().is_some_and(|e| e == "glb") {
        glb_json(path)
    } else {
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    }
}

/// (vertices, triangles) of a glTF: each mesh's POSITION count once, index counts / 3 of its
/// triangle primitives.
fn gltf_counts(v: &Value) -> (u64, u64) {
    let Some(acc) = v["accessors"].as_array() else {
        return (0, 0);
    };
    let mut verts = 0;
    let mut tris = 0;
    for m in v["meshes"].as_array().into_iter().flatten() {
        let mut seen = std::collections::HashSet::new();
        for p in m["primitives"].as_array().unwrap() {
            let pos = p["attributes"]["POSITION"].as_u64().unwrap();
            if seen.insert(pos) {
                verts += acc[pos as usize]["count"].as_u64().unwrap();
            }
            if p["mode"].as_u64().unwrap_or(4) == 4 {
                tris += acc[p["indices"].as_u64().unwrap() as usize]["count"]
                    .as_u64()
                    .unwrap()
                    / 3;
            }
        }
    }
    (verts, tris)
}

/// (vertices, faces) of an OBJ: `v` and `f` lines.
fn obj_counts(path: &Path) -> (u64, u64) {
    let text = std::fs::read_to_string(path).unwrap();
    let v = text.lines().filter(|l| l.starts_with("v ")).count() as u64;
    let f = text.lines().filter(|l| l.starts_with("f ")).count() as u64;
    (v, f)
}

/// Runs the Khronos validator over `files` in one node process; `None` (and a note on stderr)
/// when node or the package is missing.
pub(crate) fn validate(files: &[PathBuf]) -> Option<Vec<Value>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gltf");
    if !dir.join("node_modules/gltf-validator").is_dir() {
        eprintln!(
            "skipped the Khronos glTF validator: {} is missing (run `npm ci` in tests/gltf; .ci/run does when node exists)",
            dir.join("node_modules/gltf-validator").display()
        );
        return None;
    }
    let mut reports = Vec::new();
    for chunk in files.chunks(200) {
        let out = match Command::new("node")
            .arg(dir.join("validate.mjs"))
            .args(chunk)
            .output()
        {
            Ok(o) => o,
            Err(e) => {
                eprintln!("skipped the Khronos glTF validator: cannot run node: {e}");
                return None;
            }
        };
        assert!(
            out.status.success(),
            "validator: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            reports.push(serde_json::from_str::<Value>(line).unwrap());
        }
    }
    assert_eq!(reports.len(), files.len(), "one report per file");
    for r in &reports {
        assert_eq!(r["errors"], 0, "the validator found errors: {r}");
    }
    Some(reports)
}

fn info(path: &Path) -> Value {
    serde_json::to_value(areakit_app::info::info(
        path,
        &Document::open(&areakit_app::Session::files_only(), path).unwrap(),
    ))
    .unwrap()
}

/// Transitions as (face, side, room).
fn transitions(b: &Bwm) -> Vec<(u32, u32, i32)> {
    let mut t: Vec<_> = b
        .edges
        .iter()
        .filter(|e| e.transition >= 0)
        .map(|e| (e.face(), e.side(), e.transition))
        .collect();
    t.sort_unstable();
    t
}

fn assert_same_walkmesh(what: &str, a: &Bwm, b: &Bwm) {
    assert_eq!(a.vertices, b.vertices, "{what}: vertices");
    assert_eq!(
        a.faces, b.faces,
        "{what}: faces (vertex indices and materials, in order)"
    );
    assert_eq!(transitions(a), transitions(b), "{what}: transitions");
}

#[test]
fn every_corpus_wok_exports_validates_and_imports_back() {
    let files = common::corpus_files(&["wok", "bwm"]);
    assert!(files.len() >= 100, "only {} WOK files", files.len());
    let dir = tmp("woks");
    let mut gltfs = Vec::new();
    let mut round_trips = 0;
    for (i, f) in files.iter().enumerate() {
        let original = bwm::read(&std::fs::read(f).unwrap()).unwrap();
        let inf = info(f);
        let (nv, nf) = (
            inf["vertices"].as_u64().unwrap(),
            inf["faces"].as_u64().unwrap(),
        );
        for ext in ["glb", "gltf", "obj"] {
            let out = dir.join(format!("w{i}.{ext}"));
            let printed = ok(&["export", s(f), "-o", s(&out)]);
            assert!(
                printed.contains(&format!("{nv} vertices, {nf} faces")),
                "{printed}"
            );
            let counts = if ext == "obj" {
                obj_counts(&out)
            } else {
                gltf_counts(&gltf_json(&out))
            };
            assert_eq!(counts, (nv, nf), "{}: {ext} counts vs info", f.display());
            if ext != "obj" {
                gltfs.push(out.clone());
            }
            if ext != "gltf" {
                let back = dir.join(format!("w{i}_{ext}.wok"));
                ok(&["import", s(&out), "-o", s(&back)]);
                let imported = bwm::read(&std::fs::read(&back).unwrap()).unwrap();
                assert_same_walkmesh(&format!("{} via {ext}", f.display()), &original, &imported);
                assert_eq!(imported.position, original.position);
                round_trips += 1;
            }
        }
    }
    assert_eq!(round_trips, files.len() * 2);
    if let Some(r) = validate(&gltfs) {
        assert_eq!(r.len(), files.len() * 2);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn walkable_only_leaves_out_the_rest_and_imports_back() {
    let f = common::corpus_files(&["wok"])
        .into_iter()
        .find(|f| {
            let b = bwm::read(&std::fs::read(f).unwrap()).unwrap();
            b.walkable_face_count() > 0 && b.walkable_face_count() < b.faces.len()
        })
        .expect("a WOK with walkable and non-walkable faces");
    let original = bwm::read(&std::fs::read(&f).unwrap()).unwrap();
    let walkable = original
        .faces
        .iter()
        .filter(|x| x.material.is_walkable())
        .count() as u64;
    let dir = tmp("walkable");
    for ext in ["glb", "obj"] {
        let out = dir.join(format!("w.{ext}"));
        ok(&["export", s(&f), "-o", s(&out), "--walkable-only"]);
        let counts = if ext == "obj" {
            obj_counts(&out)
        } else {
            gltf_counts(&glb_json(&out))
        };
        assert_eq!(counts.1, walkable, "{ext}");
        let back = dir.join(format!("w_{ext}.wok"));
        ok(&["import", s(&out), "-o", s(&back)]);
        let b = bwm::read(&std::fs::read(&back).unwrap()).unwrap();
        assert_eq!(b.faces.len() as u64, walkable);
        // The walkable faces come first in the original: the same faces, in the same order.
        assert_eq!(b.faces[..], original.faces[..walkable as usize], "{ext}");
        assert_eq!(transitions(&b), transitions(&original), "{ext}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 2 m box (a crate's walkmesh), every face non-walkable.
fn crate_pwk() -> Bwm {
    common::box_walkmesh(1.0, 1.0, 1.0)
}

/// Each room of an exported area imports back (`--room-index`) to its own WOK exactly: the
/// room nodes sit at their LYT positions without moving the (area-space) vertices twice.
fn assert_rooms_come_back(area_dir: &Path, exported: &Path, rooms: &[(&str, usize)], out: &Path) {
    for &(name, index) in rooms {
        let wok = std::fs::read_dir(area_dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                p.file_stem()
                    .is_some_and(|s| s.to_string_lossy().eq_ignore_ascii_case(name))
                    && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wok"))
            })
            .unwrap();
        let original = bwm::read(&std::fs::read(&wok).unwrap()).unwrap();
        let back = out.join(format!("{name}_back.wok"));
        ok(&[
            "import",
            s(exported),
            "-o",
            s(&back),
            "--room-index",
            &index.to_string(),
        ]);
        let b = bwm::read(&std::fs::read(&back).unwrap()).unwrap();
        assert_same_walkmesh(
            &format!("{} room {name}", exported.display()),
            &original,
            &b,
        );
    }
}

#[test]
fn demo_area_exports_rooms_objects_and_path() {
    let dir = tmp("demo");
    let area = dir.join("area");
    areakit_app::demo::run(&area).unwrap();
    std::fs::write(area.join("crate.pwk"), bwm::write(&crate_pwk()).unwrap()).unwrap();
    std::fs::write(
        area.join("objects.json"),
        r#"{"objects": [{"kind": "placeable", "model": "crate", "position": [12, 9.5, 0], "yaw": 30, "tag": "crate_1"}]}"#,
    )
    .unwrap();
    let [[x0, y0], [x1, y1]] = areakit_app::demo::PATH_ENDS;
    let path = format!("{x0},{y0}:{x1},{y1}");
    let lyt = area.join("demo.lyt");
    let rooms: usize = ["demo_a", "demo_b", "demo_c"]
        .iter()
        .map(|r| {
            info(&area.join(format!("{r}.wok")))["faces"]
                .as_u64()
                .unwrap() as usize
        })
        .sum();
    let mut gltfs = Vec::new();
    for ext in ["glb", "gltf", "obj"] {
        let out = dir.join(format!("demo.{ext}"));
        ok(&[
            "export",
            s(&lyt),
            "-o",
            s(&out),
            "--path",
            &path,
            "--objects",
            s(&area.join("objects.json")),
        ]);
        if ext == "obj" {
            let text = std::fs::read_to_string(&out).unwrap();
            assert_eq!(
                obj_counts(&out).1 as usize,
                rooms + 10,
                "room faces + the crate's 10"
            );
            assert!(
                text.lines().any(|l| l.starts_with("l ")),
                "the path as a line"
            );
            assert!(dir.join("demo.mtl").is_file());
            continue;
        }
        gltfs.push(out.clone());
        let v = gltf_json(&out);
        assert_eq!(gltf_counts(&v).1 as usize, rooms + 10);
        let nodes = v["nodes"].as_array().unwrap();
        let kind = |k: &str| nodes.iter().filter(|n| n["extras"]["kind"] == k).count();
        assert_eq!(kind("room"), 3);
        assert_eq!(kind("walkmesh"), 3);
        assert_eq!(kind("object"), 1);
        assert_eq!(kind("path"), 1);
        let room_b = nodes
            .iter()
            .find(|n| n["extras"]["room"] == "demo_b")
            .unwrap();
        assert_eq!(room_b["extras"]["room_index"], 1);
        let lines = v["meshes"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["primitives"].as_array().unwrap())
            .filter(|p| p["mode"] == 3)
            .count();
        assert_eq!(lines, 1, "the path is one line strip");
        let names: Vec<&str> = v["materials"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap())
            .collect();
        assert!(
            names.contains(&"placed-object") && names.contains(&"path"),
            "{names:?}"
        );
    }
    validate(&gltfs);
    let rooms = [("demo_a", 0), ("demo_b", 1), ("demo_c", 2)];
    assert_rooms_come_back(&area, &dir.join("demo.glb"), &rooms, &dir);
    assert_rooms_come_back(&area, &dir.join("demo.obj"), &rooms, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kit_area_rooms_sit_at_their_lyt_positions() {
    let kits = common::corpus_files(&["kit-json"]);
    let kit = kits.first().expect("a kit in the corpus");
    let kit_dir = kit.with_extension("");
    let mut woks: Vec<PathBuf> = std::fs::read_dir(&kit_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wok")))
        .collect();
    woks.sort();
    woks.truncate(4);
    assert!(woks.len() >= 2, "{}: kit rooms", kit_dir.display());
    let dir = tmp("kit");
    let area = dir.join("area");
    std::fs::create_dir_all(&area).unwrap();
    // LYT positions far from the origin: the rooms' WOKs are in area space already, so an
    // exporter that added the positions to the vertices would move every room.
    let mut lyt = format!("beginlayout\n   roomcount {}\n", woks.len());
    let mut names = Vec::new();
    let mut faces = 0;
    for (i, w) in woks.iter().enumerate() {
        let name = w.file_stem().unwrap().to_string_lossy().to_lowercase();
        std::fs::copy(w, area.join(format!("{name}.wok"))).unwrap();
        lyt.push_str(&format!(
            "      {name} {}.5 -{}.25 1.0\n",
            100 + i * 40,
            20 + i
        ));
        faces += info(w)["faces"].as_u64().unwrap();
        names.push(name);
    }
    lyt.push_str("   trackcount 0\n   obstaclecount 0\n   doorhookcount 0\ndonelayout\n");
    std::fs::write(area.join("kit.lyt"), lyt).unwrap();
    let glb = dir.join("kit.glb");
    let obj = dir.join("kit.obj");
    ok(&["export", s(&area), "-o", s(&glb)]);
    ok(&["export", s(&area.join("kit.lyt")), "-o", s(&obj)]);
    let v = glb_json(&glb);
    assert_eq!(gltf_counts(&v).1, faces);
    assert_eq!(obj_counts(&obj).1, faces);
    let room0 = v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["extras"]["kind"] == "room" && n["extras"]["room_index"] == 0)
        .unwrap();
    assert_eq!(
        room0["translation"],
        serde_json::json!([100.5, -20.25, 1.0])
    );
    validate(std::slice::from_ref(&glb));
    let rooms: Vec<(&str, usize)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    assert_rooms_come_back(&area, &glb, &rooms, &dir);
    assert_rooms_come_back(&area, &obj, &rooms, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Holocron kit "blackvulkar" in the corpus: rooms with their models (MDL + MDX) and WOKs.
pub(crate) fn kit_rooms_dir() -> PathBuf {
    common::corpus_dir()
        .join("kotor/openkotor_pykotor/Tools/HolocronToolset/src/toolset/kits/blackvulkar")
}

/// Writes an area folder at `area` from two kit rooms with their models: `room_1` at the
/// origin and `room_2` at (30, 0, 0) (its WOK moved there, game WOKs being in area space), and
/// a `room_3` at (60, 0, 0) whose model does not decode and that has no WOK. Returns the faces
/// `areakit info --json` gives for the two models, and those of the two WOKs.
pub(crate) fn kit_models_area(area: &Path) -> (u64, u64) {
    let kit = kit_rooms_dir();
    std::fs::create_dir_all(area).unwrap();
    for f in [
        "room_1.mdl",
        "room_1.mdx",
        "room_1.wok",
        "room_2.mdl",
        "room_2.mdx",
    ] {
        std::fs::copy(kit.join(f), area.join(f)).unwrap();
    }
    ok(&[
        "transform",
        s(&kit.join("room_2.wok")),
        "-o",
        s(&area.join("room_2.wok")),
        "--translate",
        "30,0,0",
    ]);
    std::fs::write(area.join("room_3.mdl"), [0u8; 64]).unwrap();
    std::fs::write(
        area.join("kit.lyt"),
        "beginlayout\nroomcount 3\n  room_1 0 0 0\n  room_2 30 0 0\n  room_3 60 0 0\ntrackcount 0\nobstaclecount 0\ndoorhookcount 0\ndonelayout\n",
    )
    .unwrap();
    let faces = |f: &str| {
        let v: Value = serde_json::from_str(&ok(&["info", "--json", s(&area.join(f))])).unwrap();
        v["faces"].as_u64().unwrap()
    };
    (
        faces("room_1.mdl") + faces("room_2.mdl"),
        faces("room_1.wok") + faces("room_2.wok"),
    )
}

/// An area whose rooms have models: the models layer (a top-level node of its own beside the
/// walkmesh layer) holds every face of both models at the rooms' LYT positions, with the
/// textures as materials; the model that does not decode is a warning; `--no-models` leaves
/// the layer out; import still reads the walkmeshes only; the validator finds no error.
#[test]
fn kit_area_room_models_form_a_models_layer() {
    let dir = tmp("kit-models");
    let area = dir.join("area");
    let (model_faces, wok_faces) = kit_models_area(&area);
    assert!(model_faces > 1000, "{model_faces} model faces");
    let glb = dir.join("kit.glb");
    let gltf = dir.join("kit.gltf");
    let obj = dir.join("kit.obj");
    let bare = dir.join("kit-no-models.glb");
    for out in [&glb, &gltf, &obj] {
        let (code, stdout, stderr) = areakit(&["export", s(&area), "-o", s(out)]);
        assert_eq!(code, 0, "{stderr}{stdout}");
        assert!(
            stderr.contains("room room_3: its model") && stderr.contains("does not decode"),
            "the broken model is a warning: {stderr}"
        );
    }
    ok(&["export", s(&area), "-o", s(&bare), "--no-models"]);
    let without = glb_json(&bare);
    assert_eq!(gltf_counts(&without).1, wok_faces);
    assert!(
        without["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["extras"]["layer"] != "models")
    );
    for file in [&glb, &gltf] {
        let v = gltf_json(file);
        assert_eq!(
            gltf_counts(&v).1,
            wok_faces + model_faces,
            "{}: the models' faces on top of the walkmeshes'",
            file.display()
        );
        let nodes = v["nodes"].as_array().unwrap();
        // The top-level nodes under the root: one per layer.
        let top: Vec<&Value> = nodes[0]["children"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &nodes[c.as_u64().unwrap() as usize])
            .collect();
        let layer = |name: &str| {
            top.iter()
                .find(|n| n["extras"]["layer"] == name)
                .unwrap_or_else(|| panic!("no {name} layer"))
        };
        assert_eq!(layer("walkmesh")["extras"]["kind"], "area");
        let models = layer("models");
        assert_eq!(models["extras"]["kind"], "layer");
        assert_eq!(models["extras"]["rooms"], 2);
        // Below it one node per room with a model, at its LYT position.
        let rooms: Vec<&Value> = models["children"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &nodes[c.as_u64().unwrap() as usize])
            .collect();
        assert_eq!(rooms.len(), 2);
        assert_eq!(rooms[0]["extras"]["room"], "room_1");
        assert_eq!(rooms[0]["translation"], Value::Null, "room_1 at the origin");
        assert_eq!(rooms[1]["extras"]["room"], "room_2");
        assert_eq!(rooms[1]["extras"]["kind"], "room-model");
        assert_eq!(rooms[1]["translation"], serde_json::json!([30.0, 0.0, 0.0]));
        // The triangles below the layer are exactly the models' faces.
        let mut stack: Vec<u64> = models["children"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        let acc = v["accessors"].as_array().unwrap();
        let mut tris = 0;
        while let Some(i) = stack.pop() {
            let n = &nodes[i as usize];
            assert_eq!(n["extras"]["layer"], "models", "{n}");
            if let Some(m) = n["mesh"].as_u64() {
                for p in v["meshes"][m as usize]["primitives"].as_array().unwrap() {
                    tris += acc[p["indices"].as_u64().unwrap() as usize]["count"]
                        .as_u64()
                        .unwrap()
                        / 3;
                }
            }
            stack.extend(
                n["children"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|c| c.as_u64().unwrap()),
            );
        }
        assert_eq!(tris, model_faces);
        // Textures as materials (their names in the material extras).
        assert!(
            v["materials"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["extras"]["texture"].is_string()),
            "{}",
            v["materials"]
        );
    }
    assert_eq!(obj_counts(&obj).1, wok_faces + model_faces);
    validate(&[glb.clone(), gltf.clone(), bare.clone()]);
    // Import reads the walkmeshes and leaves the models out, from the glb and the OBJ.
    for file in [&glb, &obj] {
        let back = dir.join("back.wok");
        let _ = std::fs::remove_file(&back);
        let (code, out, err) = areakit(&["import", s(file), "-o", s(&back)]);
        assert!(code <= 1, "{err}{out}");
        let b = bwm::read(&std::fs::read(&back).unwrap()).unwrap();
        assert_eq!(b.faces.len() as u64, wok_faces, "{}", file.display());
    }
    assert_rooms_come_back(&area, &glb, &[("room_1", 0), ("room_2", 1)], &dir);
    assert_rooms_come_back(&area, &obj, &[("room_1", 0), ("room_2", 1)], &dir);
    eprintln!(
        "kit area with models: glb {} bytes, without models {} bytes",
        std::fs::metadata(&glb).unwrap().len(),
        std::fs::metadata(&bare).unwrap().len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn trx_walkmeshes_export_with_info_counts() {
    let files: Vec<PathBuf> = common::corpus_files(&["trx"]);
    assert!(files.len() >= 50, "only {} TRX files", files.len());
    let dir = tmp("trx");
    let mut gltfs = Vec::new();
    let mut exported = 0;
    for (i, f) in files.iter().enumerate() {
        let inf = info(f);
        let Some(tris) = inf["triangles"].as_u64() else {
            continue; // no walkmesh packet
        };
        let out = dir.join(format!("t{i}.glb"));
        ok(&["export", s(f), "-o", s(&out)]);
        assert_eq!(
            gltf_counts(&glb_json(&out)),
            (inf["vertices"].as_u64().unwrap(), tris),
            "{}",
            f.display()
        );
        if i % 4 == 0 {
            let obj = dir.join(format!("t{i}.obj"));
            ok(&["export", s(f), "-o", s(&obj)]);
            assert_eq!(obj_counts(&obj).1, tris);
        }
        gltfs.push(out);
        exported += 1;
    }
    assert!(exported >= 50, "only {exported} TRX walkmeshes exported");
    validate(&gltfs);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mdl_models_export_with_hierarchy_and_info_counts() {
    let files = common::corpus_files(&["mdl-ascii"]);
    assert!(files.len() >= 300, "only {} MDL ASCII files", files.len());
    let dir = tmp("mdl");
    let mut gltfs = Vec::new();
    let mut with_children = 0;
    for (i, f) in files.iter().enumerate() {
        let inf = info(f);
        let out = dir.join(format!("m{i}.glb"));
        ok(&["export", s(f), "-o", s(&out)]);
        let v = glb_json(&out);
        assert_eq!(
            gltf_counts(&v),
            (
                inf["vertices"].as_u64().unwrap(),
                inf["faces"].as_u64().unwrap()
            ),
            "{}",
            f.display()
        );
        // One node per geometry node, plus the axis node and the model's root.
        assert_eq!(
            v["nodes"].as_array().unwrap().len() as u64,
            inf["nodes"].as_u64().unwrap() + 2,
            "{}",
            f.display()
        );
        if v["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["extras"]["kind"] == "model-node" && n["children"].is_array())
        {
            with_children += 1;
        }
        if i % 10 == 0 {
            let obj = dir.join(format!("m{i}.obj"));
            ok(&["export", s(f), "-o", s(&obj)]);
            assert_eq!(obj_counts(&obj).1, inf["faces"].as_u64().unwrap());
        }
        gltfs.push(out);
    }
    assert!(
        with_children >= 100,
        "only {with_children} models with a node hierarchy"
    );
    validate(&gltfs);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A small room as one draws it in Blender: quads sharing vertices, y up, a material per
/// surface, a wall strip around a raised step, a Blender `.001` copy of a material.
const HAND_ROOM: &str = "# Blender 4.2 OBJ File: ''
mtllib room.mtl
o Floor
v 0 0 0
v 2 0 0
v 4 0 0
v 0 0 -2
v 2 0 -2
v 4 0 -2
v 0 0 -4
v 2 0 -4
v 4 0 -4
vn 0 1 0
vt 0 0
s 0
usemtl Stone
f 1/1/1 2/1/1 5/1/1 4/1/1
f 2/1/1 3/1/1 6/1/1 5/1/1
usemtl Grass.001
f 4/1/1 5/1/1 8/1/1 7/1/1
f 5/1/1 6/1/1 9/1/1 8/1/1
o Walls
v 0 1 0
v 4 1 0
v 4 1 -4
v 0 1 -4
usemtl Wall
f -4 -3 3 1
f -3 -2 9 3
f -2 -1 7 9
f -1 -4 1 7
";

#[test]
fn hand_made_obj_imports_without_errors() {
    let dir = tmp("hand");
    let obj = dir.join("room.obj");
    std::fs::write(&obj, HAND_ROOM).unwrap();
    // `Wall` is no game name: an error naming its line and column.
    let (code, _, err) = areakit(&["import", s(&obj), "-o", s(&dir.join("room.wok"))]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("room.obj: 27:8") && err.contains("`Wall`"),
        "{err}"
    );
    assert!(!dir.join("room.wok").exists());
    let map = dir.join("materials.json");
    std::fs::write(&map, r#"{"wall": "non-walk"}"#).unwrap();
    let out = ok(&[
        "import",
        s(&obj),
        "-o",
        s(&dir.join("room.wok")),
        "--materials",
        s(&map),
        "--json",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["vertices"], 13, "{v}");
    assert_eq!(v["faces"], 16);
    assert_eq!(v["walkable_faces"], 8);
    assert_eq!(v["welded"], 0);
    let errors: Vec<&Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "error")
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let b = bwm::read(&std::fs::read(dir.join("room.wok")).unwrap()).unwrap();
    let (lo, hi) = b.bounds().unwrap();
    assert_eq!(
        (lo, hi),
        ([0.0, 0.0, 0.0], [4.0, 4.0, 1.0]),
        "y up turned to z up"
    );
    assert_eq!(
        areakit_app::walkmesh::check_bwm(&b)
            .iter()
            .filter(|f| f.severity == areakit_formats::Severity::Error)
            .count(),
        0
    );
    // The floor is walkable: a point query finds stone and grass.
    let q = ok(&["query", s(&dir.join("room.wok")), "--at", "1,1", "--json"]);
    assert!(q.contains("\"stone\""), "{q}");
    let q = ok(&["query", s(&dir.join("room.wok")), "--at", "3,3", "--json"]);
    assert!(q.contains("\"grass\""), "{q}");
    // Only the walls: --room-index picks the second object.
    ok(&[
        "import",
        s(&obj),
        "-o",
        s(&dir.join("walls.pwk")),
        "--materials",
        s(&map),
        "--room-index",
        "1",
    ]);
    let w = bwm::read(&std::fs::read(dir.join("walls.pwk")).unwrap()).unwrap();
    assert_eq!(w.faces.len(), 8);
    let (code, _, err) = areakit(&[
        "import",
        s(&obj),
        "-o",
        s(&dir.join("x.wok")),
        "--room-index",
        "2",
    ]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn obj_errors_name_line_and_column() {
    let dir = tmp("objerr");
    for (text, place) in [
        ("v 0 0 0\nv 1 0 x\n", "2:7"),
        ("v 0 0 0\nv 1 0 0\nv 0 0 1\nusemtl stone\nf 1 2 4\n", "5:7"),
        ("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n", "4:1"),
        ("v 0 0 0\nv 1 0 0\nv 0 0 1\nusemtl stone\nf 1 2\n", "5:6"),
        (
            "v 0 0 0\nv 1 0 0\nv 0 0 1\nusemtl lava-ish\nf 1 2 3\n",
            "4:8",
        ),
    ] {
        let obj = dir.join("bad.obj");
        std::fs::write(&obj, text).unwrap();
        let (code, _, err) = areakit(&["import", s(&obj), "-o", s(&dir.join("bad.wok"))]);
        assert_eq!(code, 1, "{text:?}: {err}");
        assert!(
            err.contains(&format!("bad.obj: {place}:")),
            "{text:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A glTF as other tools write it: one POSITION accessor per primitive (vertices split at the
/// material seam), y up; import welds the seam.
#[test]
fn foreign_gltf_is_welded_and_unknown_materials_name_the_primitive() {
    let dir = tmp("foreign");
    // Two quads side by side in x, each its own primitive with 4 vertices (y up: the floor is
    // at y = 0).
    let quad = |x0: f32| -> Vec<u8> {
        [
            [x0, 0.0, 0.0],
            [x0 + 1.0, 0.0, 0.0],
            [x0 + 1.0, 0.0, -1.0],
            [x0, 0.0, -1.0],
        ]
        .iter()
        .flatten()
        .flat_map(|c: &f32| c.to_le_bytes())
        .collect()
    };
    let idx: Vec<u8> = [0u16, 1, 2, 0, 2, 3]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let mut bin = quad(0.0);
    bin.extend(quad(1.0));
    bin.extend(&idx);
    let b64 = {
        const T: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut s = String::new();
        for c in bin.chunks(3) {
            let n = (u32::from(c[0]) << 16)
                | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
                | u32::from(*c.get(2).unwrap_or(&0));
            for k in 0..4 {
                s.push(if k <= c.len() {
                    T[((n >> (18 - 6 * k)) & 63) as usize] as char
                } else {
                    '='
                });
            }
        }
        s
    };
    let gltf = |second: &str| {
        serde_json::json!({
            "asset": {"version": "2.0", "generator": "Khronos glTF Blender I/O"},
            "scene": 0,
            "scenes": [{"nodes": [0]}],
            "nodes": [{"name": "Room", "mesh": 0, "translation": [10.0, 0.0, 0.0]}],
            "materials": [{"name": "Stone"}, {"name": second}],
            "meshes": [{"name": "Room", "primitives": [
                {"attributes": {"POSITION": 0}, "indices": 2, "material": 0},
                {"attributes": {"POSITION": 1}, "indices": 2, "material": 1}
            ]}],
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, -1], "max": [1, 0, 0]},
                {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3", "min": [1, 0, -1], "max": [2, 0, 0]},
                {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"}
            ],
            "bufferViews": [
                {"buffer": 0, "byteOffset": 0, "byteLength": 48},
                {"buffer": 0, "byteOffset": 48, "byteLength": 48},
                {"buffer": 0, "byteOffset": 96, "byteLength": 12}
            ],
            "buffers": [{"byteLength": bin.len(), "uri": format!("data:application/octet-stream;base64,{b64}")}]
        })
    };
    let file = dir.join("room.gltf");
    std::fs::write(&file, gltf("Metal").to_string()).unwrap();
    validate(std::slice::from_ref(&file));
    let out = ok(&["import", s(&file), "-o", s(&dir.join("room.wok")), "--json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["welded"], 2, "{v}");
    assert_eq!(v["vertices"], 6);
    assert_eq!(v["faces"], 4);
    assert_eq!(v["walkable_faces"], 4);
    let b = bwm::read(&std::fs::read(dir.join("room.wok")).unwrap()).unwrap();
    assert_eq!(
        b.bounds().unwrap(),
        ([10.0, 0.0, 0.0], [12.0, 1.0, 0.0]),
        "node translation applied, z up"
    );
    // The two quads are joined: one perimeter loop.
    assert_eq!(b.perimeters.len(), 1);
    std::fs::write(&file, gltf("Marble").to_string()).unwrap();
    let (code, _, err) = areakit(&["import", s(&file), "-o", s(&dir.join("x.wok"))]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("mesh 0 (Room) primitive 1") && err.contains("`Marble`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn export_refuses_other_extensions_and_its_input() {
    let dir = tmp("usage");
    areakit_app::demo::run(&dir.join("a")).unwrap();
    let wok = dir.join("a/demo_a.wok");
    let (code, _, err) = areakit(&["export", s(&wok), "-o", s(&dir.join("x.fbx"))]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = areakit(&["import", s(&wok), "-o", s(&dir.join("x.wok"))]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = areakit(&[
        "export",
        s(&dir.join("a/demo.vis")),
        "-o",
        s(&dir.join("x.glb")),
    ]);
    assert_eq!(code, 2, "{err}");
    for cmd in ["export", "import"] {
        let help = ok(&[cmd, "--help"]);
        assert!(help.contains("Example"), "{help}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Damaged glb, glTF and OBJ files are errors (or import), never a panic or a hang: cuts, bit
/// flips, a node cycle, accessors past their buffer.
#[test]
fn damaged_files_are_errors_not_panics() {
    let dir = tmp("hostile");
    areakit_app::demo::run(&dir.join("a")).unwrap();
    let glb = dir.join("a.glb");
    let obj = dir.join("a.obj");
    let opts = areakit_app::interop::ExportOptions::default();
    areakit_app::interop::export_file(
        &areakit_app::Session::files_only(),
        &dir.join("a/demo_b.wok"),
        &glb,
        &opts,
    )
    .unwrap();
    areakit_app::interop::export_file(
        &areakit_app::Session::files_only(),
        &dir.join("a/demo_b.wok"),
        &obj,
        &opts,
    )
    .unwrap();
    let import = |bytes: &[u8], ext: &str| {
        let f = dir.join(format!("h.{ext}"));
        std::fs::write(&f, bytes).unwrap();
        areakit_app::interop::import_file(
            &areakit_app::Session::files_only(),
            &f,
            &dir.join("h.wok"),
            &Default::default(),
        )
    };
    let mut errors = 0;
    for (file, ext) in [(&glb, "glb"), (&obj, "obj")] {
        let data = std::fs::read(file).unwrap();
        for cut in (0..data.len()).step_by(97) {
            errors += usize::from(import(&data[..cut], ext).is_err());
        }
        for at in (0..data.len()).step_by(61) {
            let mut d = data.clone();
            d[at] ^= 0xA5;
            let _ = import(&d, ext);
        }
    }
    assert!(errors > 20, "cut files are errors ({errors})");
    let cyclic = serde_json::json!({
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [0]}],
        "nodes": [{"children": [1]}, {"children": [0], "mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 1000000, "type": "VEC3"}],
        "bufferViews": [{"buffer": 0, "byteLength": 12}],
        "buffers": [{"byteLength": 12, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAA"}]
    });
    let e = import(cyclic.to_string().as_bytes(), "gltf").unwrap_err();
    assert!(e.to_string().contains("needs"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The BIN chunk of a GLB.
fn glb_bin(path: &Path) -> Vec<u8> {
    let data = std::fs::read(path).unwrap();
    let json_len = u32::from_le_bytes(data[12..16].try_into().unwrap()) as usize;
    let at = 20 + json_len;
    let len = u32::from_le_bytes(data[at..at + 4].try_into().unwrap()) as usize;
    assert_eq!(&data[at + 4..at + 8], b"BIN\0");
    data[at + 8..at + 8 + len].to_vec()
}

/// The f32 components of a tightly packed float accessor.
fn accessor_floats(v: &Value, bin: &[u8], index: u64) -> Vec<f32> {
    let a = &v["accessors"][index as usize];
    assert_eq!(a["componentType"], 5126, "accessor {index} is not f32");
    let view = &v["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    assert!(view["byteStride"].is_null());
    let start = view["byteOffset"].as_u64().unwrap_or(0) + a["byteOffset"].as_u64().unwrap_or(0);
    let len = view["byteLength"].as_u64().unwrap();
    bin[start as usize..(start + len) as usize]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

type M4 = [f64; 16];

fn m4_mul(a: &M4, b: &M4) -> M4 {
    let mut r = [0.0; 16];
    for c in 0..4 {
        for row in 0..4 {
            r[c * 4 + row] = (0..4).map(|k| a[k * 4 + row] * b[c * 4 + k]).sum();
        }
    }
    r
}

/// A glTF node's local matrix (column-major).
fn node_local(n: &Value) -> M4 {
    let f = |v: &Value, d: &[f64]| -> Vec<f64> {
        v.as_array().map_or(d.to_vec(), |a| {
            a.iter().map(|x| x.as_f64().unwrap()).collect()
        })
    };
    if n["matrix"].is_array() {
        return f(&n["matrix"], &[]).try_into().unwrap();
    }
    let t = f(&n["translation"], &[0.0; 3]);
    let q = f(&n["rotation"], &[0.0, 0.0, 0.0, 1.0]);
    let (x, y, z, w) = (q[0], q[1], q[2], q[3]);
    [
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y + w * z),
        2.0 * (x * z - w * y),
        0.0,
        2.0 * (x * y - w * z),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z + w * x),
        0.0,
        2.0 * (x * z + w * y),
        2.0 * (y * z - w * x),
        1.0 - 2.0 * (x * x + y * y),
        0.0,
        t[0],
        t[1],
        t[2],
        1.0,
    ]
}

/// The world matrix of every node of a glTF (the scene's node 0 is the only root).
fn world_matrices(v: &Value) -> Vec<M4> {
    let nodes = v["nodes"].as_array().unwrap();
    let mut world = vec![None; nodes.len()];
    let mut stack = vec![(
        0usize,
        [
            1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        ],
    )];
    while let Some((i, parent)) = stack.pop() {
        let w = m4_mul(&parent, &node_local(&nodes[i]));
        world[i] = Some(w);
        for c in nodes[i]["children"].as_array().into_iter().flatten() {
            stack.push((c.as_u64().unwrap() as usize, w));
        }
    }
    world
        .into_iter()
        .map(|w| w.expect("every node in the scene"))
        .collect()
}

/// Every corpus binary model (MDL + MDX) exports through the CLI to a glb with `info --json`'s
/// face count as triangles and one material per texture; every skin's joints times their
/// inverse bind matrices (from qbones/tbones) give back the skinned mesh node's rest transform;
/// animation times rise; the OBJ of every tenth model has the faces too; the Khronos validator
/// finds no error in any of them.
#[test]
fn binary_models_export_with_skins_and_animations() {
    let files = common::corpus_files(&["mdl-bin"]);
    assert_eq!(files.len(), 136, "binary models in the corpus");
    let (skins, animations, walkmeshes) = export_models(&files, "mdl-bin");
    assert!(
        skins >= 100 && animations >= 200 && walkmeshes >= 20,
        "too few skins, animations or walkmeshes"
    );
}

/// The NWN compiled models export as the KotOR ones do: every face, skins whose bind poses
/// put each joint's rest pose where the mesh stands, every animation with transform keys.
#[test]
fn nwn_compiled_models_export_with_skins_and_animations() {
    let files = common::corpus_files(&["nwn-mdl-bin"]);
    assert_eq!(files.len(), 108, "NWN compiled models in the corpus");
    let (skins, animations, walkmeshes) = export_models(&files, "nwn-mdl-bin");
    assert!(
        skins == 2 && animations >= 150 && walkmeshes == 1,
        "{skins} skins, {animations} animations, {walkmeshes} walkmeshes"
    );
}

/// Exports every model of `files` to GLB (every tenth to OBJ too) and checks the faces
/// against `info`, the skins' bind poses against the rest pose, the animation keys; runs the
/// glTF validator when it is installed. Returns (skins, animations, walkmesh nodes).
fn export_models(files: &[PathBuf], name: &str) -> (usize, usize, usize) {
    let dir = tmp(name);
    let mut glbs = Vec::new();
    let (mut skins, mut joints_checked, mut animations, mut channels, mut walkmeshes) =
        (0, 0, 0, 0, 0);
    for (i, f) in files.iter().enumerate() {
        let inf: Value = serde_json::from_str(&ok(&["info", "--json", s(f)])).unwrap();
        let faces = inf["faces"].as_u64().unwrap();
        let out = dir.join(format!("b{i}.glb"));
        ok(&["export", s(f), "-o", s(&out)]);
        let v = glb_json(&out);
        let what = f.display();
        assert_eq!(gltf_counts(&v).1, faces, "{what}: triangles");
        let mut names = std::collections::HashSet::new();
        for m in v["materials"].as_array().into_iter().flatten() {
            let name = m["name"].as_str().unwrap();
            assert!(
                names.insert(name.to_ascii_lowercase()),
                "{what}: material {name} twice"
            );
            let t = &m["extras"]["texture"];
            assert!(t.is_null() || t == name, "{what}: {m}");
        }
        let nodes = v["nodes"].as_array().unwrap();
        walkmeshes += nodes
            .iter()
            .filter(|n| n["extras"]["walkmesh"] == true)
            .count();
        if v["skins"].is_array() || v["animations"].is_array() {
            let bin = glb_bin(&out);
            let world = world_matrices(&v);
            for (ni, n) in nodes.iter().enumerate() {
                let Some(si) = n["skin"].as_u64() else {
                    continue;
                };
                let skin = &v["skins"][si as usize];
                let ibm = accessor_floats(&v, &bin, skin["inverseBindMatrices"].as_u64().unwrap());
                let joints = skin["joints"].as_array().unwrap();
                assert_eq!(
                    ibm.len(),
                    joints.len() * 16,
                    "{what}: inverse bind matrices"
                );
                for (j, joint) in joints.iter().enumerate() {
                    let m: M4 = std::array::from_fn(|k| f64::from(ibm[j * 16 + k]));
                    let got = m4_mul(&world[joint.as_u64().unwrap() as usize], &m);
                    let d = (0..16)
                        .map(|k| (got[k] - world[ni][k]).abs())
                        .fold(0.0, f64::max);
                    assert!(
                        d < 1e-2,
                        "{what}: skin {si} joint {j}: rest pose off by {d}"
                    );
                    joints_checked += 1;
                }
                skins += 1;
            }
            for a in v["animations"].as_array().into_iter().flatten() {
                animations += 1;
                for smp in a["samplers"].as_array().unwrap() {
                    let t = accessor_floats(&v, &bin, smp["input"].as_u64().unwrap());
                    assert!(
                        t[0] >= 0.0 && t.windows(2).all(|w| w[0] < w[1]),
                        "{what}: {t:?}"
                    );
                    assert_eq!(smp["interpolation"], "LINEAR");
                    channels += 1;
                }
            }
        }
        if i % 10 == 0 {
            let obj = dir.join(format!("b{i}.obj"));
            ok(&["export", s(f), "-o", s(&obj)]);
            assert_eq!(obj_counts(&obj).1, faces, "{what}: OBJ faces");
        }
        glbs.push(out);
    }
    eprintln!(
        "{} models: {skins} skins ({joints_checked} joints), {animations} animations ({channels} channels), {walkmeshes} walkmesh nodes",
        glbs.len()
    );
    if let Some(reports) = validate(&glbs) {
        let mut kinds = std::collections::BTreeMap::new();
        for r in &reports {
            for m in r["messages"].as_array().into_iter().flatten() {
                *kinds
                    .entry(m["code"].as_str().unwrap_or("?").to_string())
                    .or_insert(0) += 1;
            }
        }
        eprintln!("validator warnings: {kinds:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    (skins, animations, walkmeshes)
}
