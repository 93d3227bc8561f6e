//! `areakit relink`: the demo area relinked through the binary, then damaged and relinked
//! again (text and `--json`), the files it writes (atomically, the input untouched), `check` on
//! the result, and the refusals.

use crate::support::{areakit, run};
use std::path::{Path, PathBuf};

use areakit_app::formats::bwm;
use serde_json::Value;

const ROOMS: [&str; 3] = ["demo_a", "demo_b", "demo_c"];

/// A fresh folder with the demo area's LYT, VIS and room WOKs only.
fn demo(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("areakit-relink-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let gen_dir = root.join("gen");
    let out = areakit()
        .args(["demo", "--out"])
        .arg(&gen_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let area = root.join("area");
    std::fs::create_dir_all(&area).unwrap();
    for f in ["demo.lyt", "demo.vis"]
        .into_iter()
        .map(String::from)
        .chain(ROOMS.iter().map(|r| format!("{r}.wok")))
    {
        std::fs::copy(gen_dir.join(&f), area.join(&f)).unwrap();
    }
    area
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// The names of the files of `dir`, for messages.
fn names(v: &[(String, Vec<u8>)]) -> Vec<&str> {
    v.iter().map(|(n, _)| n.as_str()).collect()
}

/// Asserts two folders' files are the same, naming them (not their bytes) when not.
fn assert_same(a: &[(String, Vec<u8>)], b: &[(String, Vec<u8>)], what: &str) {
    assert_eq!(names(a), names(b), "{what}");
    for ((n, x), (_, y)) in a.iter().zip(b) {
        assert!(x == y, "{what}: {n} differs");
    }
}

fn link_findings(dir: &Path) -> Vec<String> {
    let (code, stdout, stderr) = run(&["check".as_ref(), "--json".as_ref(), dir.as_os_str()]);
    assert!(code == 0 || code == 1, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let mut out = Vec::new();
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(c)) = m.get("code")
                    && (c == "area-link-one-way" || c == "area-transition-missing-room")
                {
                    out.push(v.to_string());
                }
                m.values().for_each(|x| walk(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    walk(&v, &mut out);
    out
}

/// The demo area links its doorways only, though its rooms' floors meet along whole sides:
/// relink links every edge where they meet (a second relink changes nothing and writes the
/// files byte for byte). That result damaged (one room's links cleared, another's pointed
/// past the layout) comes back from relink, printed as text and as JSON, with the input left
/// as it was and no room-link finding from `check`.
#[test]
fn relink_restores_damaged_links_text_and_json() {
    let area = demo("restore");
    let root = area.parent().unwrap().to_path_buf();
    let first = root.join("first");
    let (code, stdout, stderr) = run(&[
        "relink".as_ref(),
        area.as_os_str(),
        "-o".as_ref(),
        first.as_os_str(),
        "--json".as_ref(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    // Measured: 8 doorway links in the demo, 40 after (the rest of each shared side).
    assert_eq!(
        (v["set"].as_u64(), v["links"].as_u64()),
        (Some(32), Some(40))
    );
    let good = files(&first);
    assert!(link_findings(&first).is_empty());

    // Relinked again: nothing changes, every file written byte for byte.
    let same = root.join("same");
    let (code, stdout, stderr) = run(&[
        "relink".as_ref(),
        first.as_os_str(),
        "-o".as_ref(),
        same.as_os_str(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("0 changes (0 set, 0 cleared, 0 changed); 40 links in 3 of 3 rooms"),
        "{stdout}"
    );
    assert_same(&files(&same), &good, "relinked twice");

    // Damage demo_a (every link cleared) and demo_b (every link into room 9 of 3).
    let mut damaged_links = [0usize; 2];
    for (k, (room, to)) in [("demo_a", -1), ("demo_b", 9)].into_iter().enumerate() {
        let p = same.join(format!("{room}.wok"));
        let mut w = bwm::read(&std::fs::read(&p).unwrap()).unwrap();
        for e in w.edges.iter_mut().filter(|e| e.transition >= 0) {
            e.transition = to;
            damaged_links[k] += 1;
        }
        std::fs::write(&p, bwm::write(&w).unwrap()).unwrap();
    }
    let [set, moved] = damaged_links;
    let links = set + moved;
    assert!(set > 0 && moved > 0);
    assert!(!link_findings(&same).is_empty());
    let damaged = files(&same);

    let text_out = root.join("text");
    let (code, stdout, stderr) = run(&[
        "relink".as_ref(),
        same.as_os_str(),
        "-o".as_ref(),
        text_out.as_os_str(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let (summary, changes) = lines.split_last().unwrap();
    assert_eq!(changes.len(), links, "{stdout}");
    for l in changes {
        let ok = (l.starts_with("room demo_a face ") && l.ends_with(": none -> 1"))
            || (l.starts_with("room demo_b face ") && l.ends_with(": 9 -> 0"))
            || (l.starts_with("room demo_b face ") && l.ends_with(": 9 -> 2"));
        assert!(ok, "{l}");
    }
    assert_eq!(
        *summary,
        format!(
            "{links} changes ({set} set, 0 cleared, {moved} changed); 40 links in 3 of 3 rooms; 5 files written to {}",
            text_out.display()
        )
    );
    assert_same(&files(&same), &damaged, "the input is untouched");
    assert_same(&files(&text_out), &good, "the links come back");
    assert!(link_findings(&text_out).is_empty());

    let json_out = root.join("json");
    let (code, stdout, stderr) = run(&[
        "relink".as_ref(),
        same.as_os_str(),
        "-o".as_ref(),
        json_out.as_os_str(),
        "--json".as_ref(),
        "--tolerance".as_ref(),
        "0.05".as_ref(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert!((v["tolerance"].as_f64().unwrap() - 0.05).abs() < 1e-6);
    assert_eq!(
        (v["rooms"].as_u64(), v["rooms_with_wok"].as_u64()),
        (Some(3), Some(3))
    );
    let ch = v["changes"].as_array().unwrap();
    assert_eq!(ch.len(), links);
    // The JSON changes are the text lines.
    for (c, l) in ch.iter().zip(changes) {
        let link = |x: &Value| x.as_u64().map_or("none".to_string(), |t| t.to_string());
        assert_eq!(
            format!(
                "room {} face {} edge {}: {} -> {}",
                c["room_name"].as_str().unwrap(),
                c["face"],
                c["side"],
                link(&c["from"]),
                link(&c["to"])
            ),
            *l
        );
    }
    let count = |k: &str| v[k].as_u64().unwrap() as usize;
    assert_eq!(
        (count("set"), count("cleared"), count("changed")),
        (set, 0, moved)
    );
    assert_eq!(v["written"].as_array().unwrap().len(), 5);
    assert_eq!(v["rewritten"].as_array().unwrap().len(), 2);
    assert_same(&files(&json_out), &good, "the links come back (JSON run)");
    let _ = std::fs::remove_dir_all(&root);
}

/// Each output file replaces the old one by a rename: a file already in the output folder that
/// is a hard link to another file is replaced, and that other file keeps its bytes (a write in
/// place would have gone through the link). No temporary file is left behind.
#[test]
fn relink_writes_by_rename_and_never_its_input() {
    let demo_dir = demo("atomic");
    let root = demo_dir.parent().unwrap().to_path_buf();
    // An area relink leaves as it is.
    let area = root.join("linked");
    let (code, _, stderr) = run(&[
        "relink".as_ref(),
        demo_dir.as_os_str(),
        "-o".as_ref(),
        area.as_os_str(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let before = files(&area);
    let out = root.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let keep = root.join("keep.bin");
    std::fs::write(&keep, b"not a walkmesh").unwrap();
    std::fs::hard_link(&keep, out.join("demo_a.wok")).unwrap();
    let (code, _, stderr) = run(&[
        "relink".as_ref(),
        area.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read(&keep).unwrap(), b"not a walkmesh");
    assert_same(
        &files(&out),
        &before,
        "written over the old files, no temporary file left",
    );

    // The input's own folder, given as the folder or through its LYT: refused, untouched.
    for input in [area.clone(), area.join("demo.lyt")] {
        let (code, stdout, stderr) = run(&[
            "relink".as_ref(),
            input.as_os_str(),
            "-o".as_ref(),
            area.as_os_str(),
        ]);
        assert_eq!(code, 2, "{stdout}{stderr}");
        assert!(stderr.contains("never overwrites its input"), "{stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    }
    // An output that is a file, and an input that is no area.
    let (code, _, stderr) = run(&[
        "relink".as_ref(),
        area.as_os_str(),
        "-o".as_ref(),
        keep.as_os_str(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("not a folder"), "{stderr}");
    let (code, _, stderr) = run(&[
        "relink".as_ref(),
        area.join("demo_a.wok").as_os_str(),
        "-o".as_ref(),
        root.join("x").as_os_str(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("not an area"), "{stderr}");
    assert!(!root.join("x").exists());
    assert_same(&files(&area), &before, "the input is untouched");
    let _ = std::fs::remove_dir_all(&root);
}
