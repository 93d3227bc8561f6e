//! The `areakit` binary on the corpus BWMs: `info --json` keys and counts, byte-identical
//! `convert`, and exit codes/stderr for broken input.

use crate::common;

use std::path::Path;
use std::process::Command;

use areakit_formats::bwm;

fn areakit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_areakit"))
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-test-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn info_json_matches_header_counts_for_every_corpus_bwm() {
    let files = common::corpus_files(&["wok", "bwm", "pwk"]);
    assert_eq!(files.len(), 112);
    for path in &files {
        let out = areakit()
            .arg("info")
            .arg(path)
            .arg("--json")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", path.display());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
        let dir = bwm::read_directory(&std::fs::read(path).unwrap()).unwrap();
        assert_eq!(v["format"], "bwm");
        let ext = path.extension().unwrap().to_str().unwrap();
        let kind = if ext == "pwk" { "pwk" } else { "wok" };
        assert_eq!(v["kind"], kind, "{}", path.display());
        for (key, count) in [
            ("vertices", dir.counts[0]),
            ("faces", dir.counts[1]),
            ("walkable_faces", dir.counts[6]),
            ("aabb_nodes", dir.counts[5]),
            ("edges", dir.counts[7]),
            ("perimeters", dir.counts[8]),
        ] {
            assert_eq!(v[key], count, "{} {key}", path.display());
        }
        let mats: u64 = v["materials"]
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum();
        assert_eq!(mats, u64::from(dir.counts[1]));
        let (min, max) = (&v["bounds"]["min"], &v["bounds"]["max"]);
        for k in 0..3 {
            assert!(min[k].as_f64().unwrap() <= max[k].as_f64().unwrap());
        }
    }
}

#[test]
fn convert_is_byte_identical_for_every_corpus_bwm() {
    let files = common::corpus_files(&["wok", "bwm", "pwk"]);
    assert_eq!(files.len(), 112);
    let dir = tmpdir("convert");
    for (i, path) in files.iter().enumerate() {
        let ext = if path.extension().unwrap() == "pwk" {
            "pwk"
        } else {
            "wok"
        };
        let out_path = dir.join(format!("out{i}.{ext}"));
        let st = areakit()
            .arg("convert")
            .arg(path)
            .arg(&out_path)
            .output()
            .unwrap()
            .status;
        assert_eq!(st.code(), Some(0), "{}", path.display());
        assert!(
            std::fs::read(path).unwrap() == std::fs::read(&out_path).unwrap(),
            "{}",
            path.display()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Truncated and corrupted files: exit 1, one stderr line naming the file and an offset.
#[test]
fn broken_bwm_exits_1_with_path_and_offset() {
    let files = common::corpus_files(&["wok"]);
    let src = std::fs::read(&files[0]).unwrap();
    let dir = tmpdir("broken");
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    for len in [0usize, 3, 7, 100, 135, 136, src.len() / 2, src.len() - 1] {
        cases.push((format!("cut{len}.wok"), src[..len].to_vec()));
    }
    let mut bad_index = src.clone();
    let face_off = u32::from_le_bytes(src[0x54..0x58].try_into().unwrap()) as usize;
    bad_index[face_off..face_off + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    cases.push(("badindex.wok".into(), bad_index));
    let mut nan = src.clone();
    let vo = u32::from_le_bytes(src[0x4C..0x50].try_into().unwrap()) as usize;
    nan[vo..vo + 4].copy_from_slice(&f32::NAN.to_bits().to_le_bytes());
    cases.push(("nan.wok".into(), nan));
    for (name, bytes) in &cases {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        for cmd in [vec!["info"], vec!["convert"]] {
            let mut c = areakit();
            c.args(&cmd).arg(&p);
            if cmd[0] == "convert" {
                c.arg(dir.join("x.wok"));
            }
            let out = c.output().unwrap();
            assert_eq!(out.status.code(), Some(1), "{name} {cmd:?}");
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.lines().count(), 1, "{name}: {err}");
            assert!(err.contains(&p.display().to_string()), "{err}");
            assert!(err.contains("offset 0x"), "{err}");
        }
    }
    assert!(
        !dir.join("x.wok").exists(),
        "no output written for invalid input"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usage_and_io_errors_exit_2() {
    let out = areakit()
        .args(["info", "/nonexistent/file.wok"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = areakit().arg("frobnicate").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let files = common::corpus_files(&["wok"]);
    let out = areakit()
        .arg("convert")
        .arg(&files[0])
        .arg(&files[0])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "refuses to overwrite its input");
    let dir = tmpdir("to");
    let out = areakit()
        .arg("convert")
        .arg(&files[0])
        .arg(dir.join("a.wok"))
        .args(["--to", "nonsense"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(Path::new(env!("CARGO_BIN_EXE_areakit")).exists());
}
