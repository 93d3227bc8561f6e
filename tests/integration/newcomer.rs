//! What a newcomer meets first: the README's example outputs are what the binary prints, and
//! numbers print without float noise.

use std::path::Path;

use crate::support::areakit;

/// The README's `$ areakit ...` lines that show their output, each with that output.
fn readme_examples() -> Vec<(Vec<String>, String)> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let mut out = Vec::new();
    let mut current: Option<(Vec<String>, String)> = None;
    for line in readme.lines() {
        let finished = line.starts_with("$ ") || line.starts_with("```");
        if finished
            && let Some(c) = current.take()
            && !c.1.is_empty()
        {
            out.push(c);
        }
        if let Some(cmd) = line.strip_prefix("$ areakit ") {
            let cmd = cmd.split(" #").next().unwrap_or_default();
            current = Some((
                cmd.split_whitespace().map(str::to_string).collect(),
                String::new(),
            ));
        } else if let Some(c) = current.as_mut()
            && !finished
        {
            c.1.push_str(line);
            c.1.push('\n');
        }
    }
    out
}

#[test]
fn the_readmes_example_outputs_are_what_the_binary_prints() {
    let dir = std::env::temp_dir().join(format!("areakit-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let demo = areakit().arg("demo").current_dir(&dir).output().unwrap();
    assert!(demo.status.success());
    let examples = readme_examples();
    assert!(
        examples.len() >= 2,
        "{} examples with output",
        examples.len()
    );
    for (args, want) in &examples {
        let o = areakit().args(args).current_dir(&dir).output().unwrap();
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            &String::from_utf8_lossy(&o.stdout),
            want,
            "areakit {}",
            args.join(" ")
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A corpus file of each kind: every number `info --json` prints that is an `f32` is printed
/// as the shortest text that reads back to it (no `1.1399999856948853`), and the human text
/// shows the same digits.
#[test]
fn info_prints_f32_numbers_without_noise() {
    let corpus = crate::common::corpus_dir();
    let files = [
        "kotor/KOTORCommunityPatches_K1_Community_Patch/-=WORKING=-/Models/m13aa_04a.wok",
        "kotor/KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/LMG_blaster02.tpc",
        "nwn2/Kaedrin_nwn2cc/NWN2 WIP/Source/DB_Beta_23/Defenders Barracks.trx",
        "kotor/KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/m40ad.lyt",
        "kotor/KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/m01aa_03a.mdl",
        "nwn/BackupTheBerlios_nwnprc/nwnprc/others/plc_dustmotes.mdl",
        "kotor/KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/i_weapfoc01.tga",
    ];
    let mut numbers = 0;
    for f in files {
        let path = corpus.join(f);
        let o = areakit()
            .arg("info")
            .arg(&path)
            .arg("--json")
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{f}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let mut stack = vec![&v];
        while let Some(x) = stack.pop() {
            match x {
                serde_json::Value::Number(n) if n.is_f64() => {
                    let x = n.as_f64().unwrap();
                    numbers += 1;
                    if f64::from(x as f32) == x {
                        let short: f64 = (x as f32).to_string().parse().unwrap();
                        assert_eq!(short, x, "{f}: {x} is printed with float noise");
                    }
                }
                serde_json::Value::Array(a) => stack.extend(a),
                serde_json::Value::Object(m) => stack.extend(m.values()),
                _ => {}
            }
        }
        let human = areakit().arg("info").arg(&path).output().unwrap();
        let text = String::from_utf8_lossy(&human.stdout);
        assert!(
            !text
                .split(|c: char| !c.is_ascii_digit())
                .any(|run| run.len() >= 12),
            "{f}: a run of 12 digits in\n{text}"
        );
    }
    assert!(numbers >= 20, "{numbers} numbers judged");
}

/// `render` of an area whose rooms are not among the inputs says which rooms it could not draw
/// and how to supply them; a module capsule whose layout only the game holds says to name the
/// game.
#[test]
fn render_says_what_it_left_out_and_how_to_supply_it() {
    let corpus = crate::common::corpus_dir();
    let dir = std::env::temp_dir().join(format!("areakit-leftout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let lyt = dir.join("m40ad.lyt");
    std::fs::copy(
        corpus.join("kotor/KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/m40ad.lyt"),
        &lyt,
    )
    .unwrap();
    let o = areakit()
        .arg("render")
        .arg(&lyt)
        .arg("-o")
        .arg(dir.join("m.svg"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("13 of 13 rooms have no walkmesh"), "{err}");
    assert!(
        err.contains("M40ad_08c") && err.contains("--game DIR"),
        "{err}"
    );
    let capsule =
        corpus.join("kotor/KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/STUNT_50a.mod");
    let o = areakit()
        .arg("render")
        .arg(&capsule)
        .arg("-o")
        .arg(dir.join("c.svg"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("stunt_endbridge.lyt") && err.contains("--game DIR"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `export --walkable-only` of a kit-built module writes the walkable ground alone: no
/// `models` layer, every face walkable, far fewer faces than the whole export.
#[test]
fn export_walkable_only_leaves_the_room_models_out() {
    let dir = std::env::temp_dir().join(format!("areakit-walkonly-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let layout = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/layouts/hiddenbek.json");
    let module = dir.join("bek");
    let o = areakit()
        .arg("build")
        .arg(&layout)
        .arg("--kits")
        .arg(crate::common::textured_kit::kits())
        .arg("-o")
        .arg(&module)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let export = |extra: &[&str], name: &str| -> serde_json::Value {
        let out = dir.join(name);
        let o = areakit()
            .arg("export")
            .arg(&module)
            .arg("-o")
            .arg(&out)
            .args(["--no-textures"])
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap()
    };
    let faces = |g: &serde_json::Value| -> u64 {
        g["meshes"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|m| m["primitives"].as_array().unwrap())
            .map(|p| {
                g["accessors"][p["indices"].as_u64().unwrap() as usize]["count"]
                    .as_u64()
                    .unwrap()
                    / 3
            })
            .sum()
    };
    let whole = export(&[], "whole.gltf");
    let walk = export(&["--walkable-only"], "walk.gltf");
    let layer = |g: &serde_json::Value| {
        g["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["name"] == "models")
    };
    assert!(layer(&whole), "the whole export has the models layer");
    assert!(!layer(&walk), "--walkable-only wrote the room models");
    let materials: Vec<&str> = walk["materials"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["name"].as_str())
        .collect();
    assert!(!materials.contains(&"non-walk"), "{materials:?}");
    assert!(
        faces(&walk) * 4 < faces(&whole),
        "{} of {} faces",
        faces(&walk),
        faces(&whole)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `path` in either mode lists no point twice in a row (nor two points less than half a
/// millimetre apart, which print the same), except a path whose start is its goal (`[p, p]`):
/// 400 pairs of walkable-triangle centres, as the TRX stores them, on two corpus terrains.
#[test]
fn a_path_lists_no_point_twice_in_a_row() {
    let dir = crate::common::corpus_dir().join("nwn2/Kaedrin_nwn2cc/NWN2 WIP/Source/DB_Beta_23");
    let tmp = std::env::temp_dir().join(format!("areakit-repeats-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut judged = 0;
    for name in ["a winding path.trx", "ud_bugbears_01.trx"] {
        let path = dir.join(name);
        let t = areakit_formats::trx::read(&std::fs::read(&path).unwrap()).unwrap();
        let w = t.walkmesh().unwrap();
        let centres: Vec<[f32; 2]> = w
            .triangles
            .iter()
            .filter(|t| t.is_walkable())
            .map(|t| t.center)
            .collect();
        let mut seed: u64 = 5;
        let mut pick = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            centres[(seed % centres.len() as u64) as usize]
        };
        let pairs: String = (0..200)
            .map(|_| {
                let (a, b) = (pick(), pick());
                format!("{},{} {},{}\n", a[0], a[1], b[0], b[1])
            })
            .collect();
        let file = tmp.join("pairs.txt");
        std::fs::write(&file, pairs).unwrap();
        for mode in ["optimal", "fast"] {
            let o = areakit()
                .arg("path")
                .arg(&path)
                .arg("--pairs")
                .arg(&file)
                .args(["--mode", mode, "--json"])
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            for line in String::from_utf8_lossy(&o.stdout).lines() {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                let Some(points) = v["points"].as_array() else {
                    continue;
                };
                let p: Vec<(f64, f64)> = points
                    .iter()
                    .map(|q| (q[0].as_f64().unwrap(), q[1].as_f64().unwrap()))
                    .collect();
                if p.is_empty() {
                    continue;
                }
                judged += 1;
                if p.len() == 2 {
                    continue;
                }
                for (a, b) in p.iter().zip(&p[1..]) {
                    let d = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
                    assert!(d >= 0.0005, "{name} {mode}: {a:?} then {b:?} in {line}");
                }
            }
        }
    }
    assert!(judged >= 700, "{judged} paths judged");
    std::fs::remove_dir_all(&tmp).unwrap();
}
