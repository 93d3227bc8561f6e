//! `check` of the Holocron kits: the three corpus kits give no error and their known defects
//! as warnings; every clean hook of the two kits with room models, mutated (turned 180°,
//! moved 1 m off its opening, listed twice), gives that finding as an error.

use std::collections::BTreeSet;

use areakit_area::build::kit::{Kit, read_kit_json};
use areakit_area::build::kit_check::{check_kit, hook_findings};
use areakit_formats::bwm;
use areakit_formats::{Finding, Severity};

fn kit(name: &str) -> Kit {
    let json = areakit_testkit::corpus_files(&["kit-json"])
        .into_iter()
        .find(|p| p.file_stem().is_some_and(|s| s == name))
        .unwrap_or_else(|| panic!("no {name}.json in the corpus"));
    read_kit_json(&json).unwrap()
}

fn line(f: &Finding) -> String {
    format!(
        "{} {} {}",
        f.code,
        f.place.room.as_deref().unwrap_or("-"),
        f.place.item.as_deref().unwrap_or("-")
    )
}

/// The corpus kits: no errors; hiddenbek's `large_room_2` hook 1 (0.15 m inside its doorway
/// edge) and hook 2 (transition 21, which no edge carries), blackvulkar's `office_1` (its
/// WOK, and its model, are `junction_1`'s: its image is the office's), and
/// endarspire's missing models (the corpus holds its WOKs only), its hook listed twice and
/// its 6.6 m door in 3.4 m doorways are warnings.
#[test]
fn corpus_kits_check_without_errors_and_warn_of_their_known_defects() {
    let mut hooks = 0;
    for name in ["hiddenbek", "blackvulkar", "endarspire"] {
        let k = kit(name);
        hooks += k.components.iter().map(|c| c.hooks.len()).sum::<usize>();
        let findings = check_kit(&k);
        for f in &findings {
            eprintln!("{name}: {f:?}");
        }
        let errors: Vec<String> = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .map(line)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        let kinds: BTreeSet<String> = findings
            .iter()
            .map(|f| format!("{} {}", f.code, f.place.room.as_deref().unwrap_or("-")))
            .collect();
        let has = |s: &str| kinds.contains(s);
        match name {
            "hiddenbek" => {
                let lines: BTreeSet<String> = findings.iter().map(line).collect();
                assert!(
                    lines.contains("kit-hook-off-doorway large_room_2 components[3].doorhooks[1]")
                        || lines
                            .iter()
                            .any(|l| l.starts_with("kit-hook-off-doorway large_room_2 ")
                                && l.ends_with("doorhooks[1]")),
                    "{lines:#?}"
                );
                assert!(
                    lines
                        .iter()
                        .any(|l| l.starts_with("kit-hook-edge-unmarked large_room_2 ")
                            && l.ends_with("doorhooks[2]")),
                    "{lines:#?}"
                );
                let off: Vec<&String> = lines
                    .iter()
                    .filter(|l| l.starts_with("kit-hook-off"))
                    .collect();
                assert_eq!(off.len(), 1, "{off:#?}");
            }
            "blackvulkar" => {
                // Its model is junction_1's too, so model and WOK agree; the image is
                // the office's.
                assert_eq!(
                    kinds.iter().collect::<Vec<_>>(),
                    ["kit-image-off-ground office_1"],
                    "{kinds:#?}"
                );
            }
            _ => {
                // Its models are not in the corpus; its bridge_1 lists hook 1 twice; its
                // door is 6.6 m wide, its doorways 3.4 m.
                assert!(has("kit-file-missing bridge_1"), "{kinds:#?}");
                assert!(has("kit-hook-duplicate bridge_1"), "{kinds:#?}");
                assert!(has("kit-door-too-wide room_1"), "{kinds:#?}");
            }
        }
    }
    assert_eq!(hooks, 24 + 42 + 26);
}

/// Every hook of hiddenbek and blackvulkar with no finding of its own, turned 180°, moved 1 m
/// back off its opening, and listed twice: each gives its finding.
#[test]
fn mutated_hooks_give_their_findings() {
    let mut mutated = 0;
    for name in ["hiddenbek", "blackvulkar"] {
        let k = kit(name);
        for (ci, c) in k.components.iter().enumerate() {
            let wok = bwm::read(&std::fs::read(k.file(&format!("{}.wok", c.id)).unwrap()).unwrap())
                .unwrap();
            let clean: Vec<usize> = (0..c.hooks.len())
                .filter(|&h| {
                    !hook_findings(&k, ci, Some(&wok)).iter().any(|f| {
                        f.place.item.as_deref()
                            == Some(format!("components[{ci}].doorhooks[{h}]").as_str())
                    })
                })
                .collect();
            for h in clean {
                // The findings at hook h (and at the hook pushed last), with their severity.
                let codes = |edit: &dyn Fn(&mut Kit)| -> Vec<(&'static str, Severity)> {
                    let mut m = k.clone();
                    edit(&mut m);
                    let last = m.components[ci].hooks.len() - 1;
                    let items = [h, last].map(|i| format!("components[{ci}].doorhooks[{i}]"));
                    hook_findings(&m, ci, Some(&wok))
                        .into_iter()
                        .filter(|f| f.place.item.as_ref().is_some_and(|i| items.contains(i)))
                        .map(|f| (f.code, f.severity))
                        .collect()
                };
                let label = format!("{name}/{}#{h}", c.id);
                let turned = codes(&|m| m.components[ci].hooks[h].rotation += 180.0);
                assert_eq!(
                    turned,
                    [("kit-hook-faces-inward", Severity::Error)],
                    "{label}"
                );
                let moved = codes(&|m| {
                    let hk = &mut m.components[ci].hooks[h];
                    let (s, co) = hk.rotation.to_radians().sin_cos();
                    hk.x += s;
                    hk.y -= co;
                });
                assert_eq!(
                    moved,
                    [("kit-hook-off-opening", Severity::Error)],
                    "{label}"
                );
                let twice = codes(&|m| {
                    let hk = m.components[ci].hooks[h];
                    m.components[ci].hooks.push(hk);
                });
                assert_eq!(
                    twice,
                    [("kit-hook-duplicate", Severity::Warning)],
                    "{label}"
                );
                mutated += 1;
            }
        }
    }
    // 66 hooks, less hiddenbek's large_room_2 hooks 1 and 2.
    assert_eq!(mutated, 64);
}

/// The build refuses a room whose kit component has a broken hook (here hiddenbek's
/// `hallway_1` hook 0 turned 180°), naming the kit, the component and the hook.
#[test]
fn the_build_refuses_a_broken_hook() {
    use areakit_area::build::{BuildError, layout, load};
    let k = kit("hiddenbek");
    let dir = std::env::temp_dir().join(format!("areakit-kit-hook-{}", std::process::id()));
    let folder = dir.join("hiddenbek");
    std::fs::create_dir_all(&folder).unwrap();
    for name in [
        "hallway_1.wok",
        "hallway_1.mdl",
        "hallway_1.mdx",
        "hallway_1.png",
        "door0_k1.utd",
        "door0_k2.utd",
    ] {
        std::fs::copy(k.file(name).unwrap(), folder.join(name)).unwrap();
    }
    let json = areakit_testkit::corpus_files(&["kit-json"])
        .into_iter()
        .find(|p| p.file_stem().is_some_and(|s| s == "hiddenbek"))
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap();
    let comps = v["components"].as_array_mut().unwrap();
    let hallway = comps.iter_mut().find(|c| c["id"] == "hallway_1").unwrap();
    let r = hallway["doorhooks"][0]["rotation"].as_f64().unwrap();
    hallway["doorhooks"][0]["rotation"] = serde_json::json!(r + 180.0);
    std::fs::write(dir.join("hiddenbek.json"), v.to_string()).unwrap();
    let read = |p: &str| -> Result<Vec<u8>, BuildError> {
        std::fs::read(p).map_err(|e| BuildError::io(std::path::Path::new(p), e))
    };
    let l = layout::parse(
        r#"{"module":"t","rooms":[{"kit":"hiddenbek","component":"hallway_1","position":[0,0,0]}]}"#,
    )
    .unwrap();
    let e = match load::load(l, Some(&dir), std::path::Path::new("."), &read) {
        Ok(_) => panic!("a broken hook was not refused"),
        Err(e) => e.to_string(),
    };
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        e.contains("hiddenbek")
            && e.contains("hallway_1")
            && e.contains("hook 0")
            && e.contains("kit-hook-faces-inward"),
        "{e}"
    );
}
