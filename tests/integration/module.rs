//! A module assembled from corpus parts (a UTP, a UTD and a PWK of the K1 Community Patch, an
//! IFO of PyKotor's tests) standing in the demo area, with hand-made 2DAs, GIT and DWK, in a
//! temporary folder: `check` reports the module findings (each new code triggered on
//! purpose), `render` draws the placed objects, `path` routes around a placed placeable.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use areakit_app::formats::bwm;
use common::module_fixture::{build_module, copy_area};
use serde_json::Value as Json;

fn areakit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_areakit"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-module-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn check_json(dir: &Path) -> (i32, Json) {
    let out = areakit()
        .args(["check", "--json"])
        .arg(dir)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), v)
}

fn codes_of(v: &Json) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn module_checks_renders_and_routes_around_its_objects() {
    let dir = tmp("full");
    let used = build_module(&dir, [1.5, 1.5, 0.0]);
    assert_eq!(used, 4, "corpus files used");
    let module = dir.join("mod");

    // The library: the module assembled from the folder.
    let res = areakit_app::area::Area::open(&module.join("demo.lyt")).unwrap();
    let m = areakit_app::input::around_folder(res).unwrap();
    assert_eq!(m.objects.len(), 7);
    let placed = m.placed();
    assert_eq!(placed.len(), 4, "two cages and two doors have walkmeshes");
    let cage = &placed[0].1;
    assert_eq!(cage.triangles.len(), {
        let pwk = bwm::read(&std::fs::read(module.join("plc_fccage2.pwk")).unwrap()).unwrap();
        pwk.faces.len()
    });

    // check: every new code, warnings only while the entry point is on the ground.
    let (code, v) = check_json(&module);
    let codes = codes_of(&v);
    for (want, n) in [
        ("object-template-missing", 1),
        ("object-appearance-unknown", 1),
        ("object-walkmesh-missing", 1),
        // Both use hooks of the cage facing the wall.
        ("object-use-point-blocked", 2),
        ("object-door-far-from-link", 1),
    ] {
        assert_eq!(
            codes.iter().filter(|c| *c == want).count(),
            n,
            "{want} {n} time(s) in {codes:?}"
        );
    }
    assert!(!codes.iter().any(|c| c == "module-entry-off-ground"));
    assert_eq!(code, i32::from(v["errors"].as_u64().unwrap() > 0), "{v:#}");
    let module_errors = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "error")
        .filter(|f| {
            let p = f["path"].as_str().unwrap();
            [".git", ".ifo", ".lyt", ".utp", ".utd"]
                .iter()
                .any(|e| p.ends_with(e))
        })
        .count();
    assert_eq!(module_errors, 0, "{v:#}");
    let finding = |code: &str| {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["code"] == code)
            .unwrap()
            .clone()
    };
    let blocked = finding("object-use-point-blocked");
    assert!(
        blocked["message"]
            .as_str()
            .unwrap()
            .contains("cage_at_the_wall"),
        "{blocked}"
    );
    assert!(blocked["path"].as_str().unwrap().ends_with("demo.git"));
    assert_eq!(finding("object-door-far-from-link")["item"], "Door List[1]");
    assert!(
        finding("object-walkmesh-missing")["message"]
            .as_str()
            .unwrap()
            .contains("plc_nowalk.pwk")
    );

    // render: the placed objects' footprints, labelled with their tags.
    let svg_path = dir.join("map.svg");
    let out = areakit()
        .arg("render")
        .arg(&module)
        .arg("-o")
        .arg(&svg_path)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    // Four footprints, and the three objects without a walkmesh drawn as stand-ins (a door as
    // a slab across its doorway, a placeable as a square), labelled so.
    assert_eq!(
        svg.matches("class=\"object\"").count(),
        7,
        "four footprints and three stand-ins"
    );
    assert_eq!(svg.matches("no walkmesh: drawn as its").count(), 3, "{svg}");
    for tag in [
        "cage_in_the_way",
        "cage_at_the_wall",
        "door_ab",
        "door_nowhere",
    ] {
        assert!(svg.contains(tag), "{tag} drawn");
    }

    // path: around the cage in the way, compared with the same ground without the GIT.
    let plain = dir.join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    copy_area(&module, &plain);
    let path = |d: &Path| -> Json {
        let out = areakit()
            .arg("path")
            .arg(d)
            .args(["--from", "1.5,1.5", "--to", "18.5,16.5", "--json"])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let with = path(&module);
    let without = path(&plain);
    assert_eq!(with["found"], true, "{with}");
    assert_eq!(without["found"], true, "{without}");
    let (lw, lo) = (
        with["length"].as_f64().unwrap(),
        without["length"].as_f64().unwrap(),
    );
    let straight = (17.0f64 * 17.0 + 15.0 * 15.0).sqrt();
    eprintln!(
        "path (1.5,1.5)->(18.5,16.5): straight {straight:.3} m, without the GIT {lo:.3} m, with its objects {lw:.3} m"
    );
    assert!(lw > straight + 1e-3, "{lw} vs the straight line {straight}");
    assert!(
        lw > lo + 1e-3,
        "the cage makes the walk longer: {lw} vs {lo}"
    );
    // No sample of the path lies inside the cage's footprint.
    let pts: Vec<[f32; 2]> = with["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| [p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32])
        .collect();
    let mut samples = 0;
    for w in pts.windows(2) {
        for i in 0..=50 {
            let t = i as f32 / 50.0;
            let q = [
                w[0][0] + (w[1][0] - w[0][0]) * t,
                w[0][1] + (w[1][1] - w[0][1]) * t,
            ];
            samples += 1;
            for tri in &cage.triangles {
                assert!(!strictly_inside(tri, q), "{q:?} inside the cage");
            }
        }
    }
    assert!(samples > 100);

    // The entry point moved off the ground: an error, exit 1.
    let dir2 = tmp("entry");
    build_module(&dir2, [50.0, 50.0, 0.0]);
    let (code, v) = check_json(&dir2.join("mod"));
    assert!(
        codes_of(&v).iter().any(|c| c == "module-entry-off-ground"),
        "{v:#}"
    );
    assert_eq!(code, 1);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir2);
}

/// A patch capsule: the module's IFO, GIT, LYT and VIS, but the WOK of room `demo_c` left out
/// (the game supplies it). The IFO's entry point stands in `demo_c`: that cannot be checked,
/// so it is the warning `module-entry-ground-missing` naming the room, not the error
/// `module-entry-off-ground`. With every WOK present, an entry point off the ground is still
/// the error.
#[test]
fn an_entry_over_a_room_without_its_walkmesh_is_not_an_error() {
    let dir = tmp("partial");
    build_module(&dir, [18.5, 16.5, 0.0]);
    let folder = dir.join("mod");
    // The whole module: the entry stands on room c's floor; nothing to say about it.
    let (_, whole) = check_json(&folder);
    let codes = codes_of(&whole);
    assert!(
        !codes.iter().any(|c| c.starts_with("module-entry")),
        "{whole:#}"
    );
    let parts = dir.join("parts");
    std::fs::create_dir_all(&parts).unwrap();
    for e in std::fs::read_dir(&folder).unwrap() {
        let p = e.unwrap().path();
        if p.file_name().unwrap() != "demo_c.wok" {
            std::fs::copy(&p, parts.join(p.file_name().unwrap())).unwrap();
        }
    }
    let capsule = dir.join("patch.mod");
    let st = areakit()
        .arg("pack")
        .arg(&parts)
        .arg("-o")
        .arg(&capsule)
        .status()
        .unwrap();
    assert!(st.success());
    for input in [&capsule, &parts] {
        let (code, v) = check_json(input);
        let findings = v["findings"].as_array().unwrap();
        assert!(
            !findings
                .iter()
                .any(|f| f["code"] == "module-entry-off-ground"),
            "{v:#}"
        );
        let missing = findings
            .iter()
            .find(|f| f["code"] == "module-entry-ground-missing")
            .unwrap_or_else(|| panic!("no module-entry-ground-missing: {v:#}"));
        assert_eq!(missing["severity"], "warning");
        assert_eq!(missing["room"], "demo_c", "{missing}");
        assert!(
            missing["message"].as_str().unwrap().contains("`demo_c`"),
            "{missing}"
        );
        assert_eq!(code, 0, "no error: {v:#}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn strictly_inside(t: &[[f32; 3]; 3], q: [f32; 2]) -> bool {
    let c =
        |a: [f32; 3], b: [f32; 3]| (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]);
    let (d0, d1, d2) = (c(t[0], t[1]), c(t[1], t[2]), c(t[2], t[0]));
    let e = 1e-4;
    (d0 > e && d1 > e && d2 > e) || (d0 < -e && d1 < -e && d2 < -e)
}

/// The same module packed into a capsule: `render CAPSULE`, `path CAPSULE/AREA.lyt` and
/// `check --game DIR --module NAME` (the capsule in the game's `modules/`) assemble it as the
/// folder is assembled.
#[test]
fn module_from_a_capsule_and_through_the_game() {
    let dir = tmp("capsule");
    build_module(&dir, [1.5, 1.5, 0.0]);
    let folder = dir.join("mod");
    let game = dir.join("game");
    std::fs::create_dir_all(game.join("modules")).unwrap();
    let capsule = game.join("modules").join("demomod.mod");
    let st = areakit()
        .arg("pack")
        .arg(&folder)
        .arg("-o")
        .arg(&capsule)
        .status()
        .unwrap();
    assert!(st.success());

    // check: the module's own findings are those of the folder.
    let module_codes = |v: &Json| {
        let mut c: Vec<String> = codes_of(v)
            .into_iter()
            .filter(|c| c.starts_with("object-") || c.starts_with("module-"))
            .collect();
        c.sort();
        c
    };
    let (folder_code, from_folder) = check_json(&folder);
    let out = areakit()
        .args(["check", "--json", "--module", "demomod", "--game"])
        .arg(&game)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let from_game: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!module_codes(&from_folder).is_empty());
    assert_eq!(module_codes(&from_game), module_codes(&from_folder));

    // check of the capsule file: its members one by one, and its area as a module, as for the
    // folder it was packed from (the same findings; the LYT's own are not reported twice).
    let (code, from_capsule) = check_json(&capsule);
    let sorted = |v: &Json| {
        let mut c = codes_of(v);
        c.sort();
        c
    };
    assert_eq!(code, folder_code, "{from_capsule}");
    assert_eq!(module_codes(&from_capsule), module_codes(&from_folder));
    assert_eq!(sorted(&from_capsule), sorted(&from_folder));
    let lyt_member = capsule.join("demo.lyt").display().to_string();
    assert!(
        from_capsule["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["path"] == lyt_member.as_str()),
        "area findings are named by the capsule member: {from_capsule}"
    );
    assert_eq!(
        from_capsule["files_checked"].as_u64().unwrap(),
        from_folder["files_checked"].as_u64().unwrap() + 1,
        "the members and the capsule itself"
    );

    // A capsule holding only the module's IFO and GIT, its layout and rooms in the game's
    // override (as a KotOR NAME.rim keeps them in layouts.bif): assembled through --game.
    let parts = dir.join("parts");
    let game2 = dir.join("game2");
    std::fs::create_dir_all(&parts).unwrap();
    std::fs::create_dir_all(game2.join("override")).unwrap();
    for e in std::fs::read_dir(&folder).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        let to = if name == "module.ifo" || name == "demo.git" {
            parts.join(&name)
        } else {
            game2.join("override").join(&name)
        };
        std::fs::copy(&p, to).unwrap();
    }
    let small = dir.join("small.mod");
    let st = areakit()
        .arg("pack")
        .arg(&parts)
        .arg("-o")
        .arg(&small)
        .status()
        .unwrap();
    assert!(st.success());
    let (_, alone) = check_json(&small);
    assert!(
        module_codes(&alone).is_empty(),
        "no layout without the game: {alone}"
    );
    let out = areakit()
        .args(["check", "--json", "--game"])
        .arg(&game2)
        .arg(&small)
        .output()
        .unwrap();
    let with_game: Json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(module_codes(&with_game), module_codes(&from_folder));

    // render: the capsule's objects are drawn.
    let svg = dir.join("capsule.svg");
    let st = areakit()
        .arg("render")
        .arg(&capsule)
        .arg("-o")
        .arg(&svg)
        .status()
        .unwrap();
    assert!(st.success());
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("cage_in_the_way"), "the cage is drawn");

    // path: around the cage, as through the folder.
    let length = |input: &Path| {
        let out = areakit()
            .arg("path")
            .arg(input)
            .args(["--from", "1.5,1.5", "--to", "18.5,16.5", "--json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Json = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["found"], true, "{v}");
        v["length"].as_f64().unwrap()
    };
    let through_folder = length(&folder.join("demo.lyt"));
    let through_capsule = length(&capsule.join("demo.lyt"));
    assert!((through_folder - through_capsule).abs() < 1e-4);
    assert!(through_capsule > 22.73, "the path goes around the cage");
    std::fs::remove_dir_all(&dir).unwrap();
}
