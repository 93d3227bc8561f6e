//! Every corpus capsule (79 ERF/MOD, 3 RIM) through the binary: `ls`, `extract` and `pack`
//! give back the capsule's own bytes; PyKotor's corrupted ones are located errors (exit 1).
//! `info` of capsules and of GFF members, and `check` over capsules (same output for any
//! number of jobs).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn areakit(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_areakit"))
        .args(args)
        .output()
        .unwrap()
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("areakit-capsules-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn capsules() -> Vec<PathBuf> {
    common::corpus_files(&["erf", "rim"])
}

fn is_corrupted(p: &Path) -> bool {
    p.file_stem().is_some_and(|s| s == "test_corrupted")
}

#[test]
fn every_capsule_lists_extracts_and_repacks_byte_exact() {
    let files = capsules();
    let erfs = files
        .iter()
        .filter(|f| f.extension().is_none_or(|e| e != "rim"))
        .count();
    assert_eq!((erfs, files.len() - erfs), (79, 3), "corpus capsules");
    let tmp = temp("roundtrip");
    let (mut exact, mut corrupted, mut members) = (0, 0, 0);
    for f in &files {
        let ls = areakit(&[os("ls"), f.as_os_str(), os("--json")]);
        let out = tmp.join("x");
        let _ = std::fs::remove_dir_all(&out);
        let ex = areakit(&[os("extract"), f.as_os_str(), os("-o"), out.as_os_str()]);
        if is_corrupted(f) {
            for (what, o) in [("ls", &ls), ("extract", &ex)] {
                assert_eq!(o.status.code(), Some(1), "{what} {}", f.display());
                let err = String::from_utf8_lossy(&o.stderr);
                assert!(err.contains("offset 0x"), "{what}: located error: {err}");
                assert_eq!(err.lines().count(), 1, "{err}");
            }
            corrupted += 1;
            continue;
        }
        assert_eq!(
            ls.status.code(),
            Some(0),
            "ls {}: {}",
            f.display(),
            String::from_utf8_lossy(&ls.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&ls.stdout).unwrap();
        assert!(v["count"].as_u64().unwrap() > 0);
        assert_eq!(
            ex.status.code(),
            Some(0),
            "extract {}: {}",
            f.display(),
            String::from_utf8_lossy(&ex.stderr)
        );
        let n = std::fs::read_dir(&out).unwrap().count() - 1; // the manifest
        assert!(n as u64 >= v["count"].as_u64().unwrap(), "{}", f.display());
        members += n;
        let packed = tmp.join(format!(
            "packed.{}",
            f.extension().unwrap().to_string_lossy()
        ));
        let pk = areakit(&[os("pack"), out.as_os_str(), os("-o"), packed.as_os_str()]);
        assert_eq!(
            pk.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&pk.stderr)
        );
        assert!(
            std::fs::read(&packed).unwrap() == std::fs::read(f).unwrap(),
            "{} re-packs to other bytes",
            f.display()
        );
        exact += 1;
    }
    assert_eq!((exact, corrupted), (80, 2));
    assert_eq!(members, 12_825, "the corpus README's member count");

    // Without the manifest, pack lays the members out anew: a valid capsule of the same members.
    let f = files.iter().find(|f| !is_corrupted(f)).unwrap();
    let out = tmp.join("plain");
    areakit(&[os("extract"), f.as_os_str(), os("-o"), out.as_os_str()]);
    std::fs::remove_file(out.join("areakit-capsule.json")).unwrap();
    let packed = tmp.join("plain.mod");
    let pk = areakit(&[os("pack"), out.as_os_str(), os("-o"), packed.as_os_str()]);
    assert_eq!(pk.status.code(), Some(0));
    let a = areakit(&[os("ls"), f.as_os_str(), os("--json")]);
    let b = areakit(&[os("ls"), packed.as_os_str(), os("--json")]);
    let names = |o: &Output| -> Vec<(String, u64)> {
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["name"].as_str().unwrap().to_lowercase(),
                    r["size"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(names(&a), names(&b));
    // A bad output extension is a usage error.
    let pk = areakit(&[
        os("pack"),
        out.as_os_str(),
        os("-o"),
        tmp.join("x.zip").as_os_str(),
    ]);
    assert_eq!(pk.status.code(), Some(2));
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn info_of_capsules_and_gff_members() {
    let files = capsules();
    let m = files
        .iter()
        .find(|f| f.extension().is_some_and(|e| e == "mod"))
        .unwrap();
    let o = areakit(&[os("info"), m.as_os_str(), os("--json")]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["format"], "erf");
    assert_eq!(v["kind"], "MOD");
    let n = v["resources"].as_u64().unwrap();
    assert!(n > 0);
    let r = files
        .iter()
        .find(|f| f.file_name().is_some_and(|n| n == "capsule.rim"))
        .unwrap();
    let o = areakit(&[os("info"), r.as_os_str(), os("--json")]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["format"], "rim");

    // The GIT of the module, as a member path.
    let ls = areakit(&[
        os("ls"),
        m.as_os_str(),
        os("--type"),
        os("git"),
        os("--json"),
    ]);
    let l: serde_json::Value = serde_json::from_slice(&ls.stdout).unwrap();
    let git = l["resources"][0]["name"].as_str().unwrap().to_string();
    let member = m.join(&git);
    let o = areakit(&[os("info"), member.as_os_str(), os("--json")]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["format"], "gff");
    assert_eq!(v["type"], "GIT");
    for k in ["structs", "fields", "lists"] {
        assert!(v[k].as_u64().is_some(), "{k}: {v}");
    }
    assert!(v["structs"].as_u64().unwrap() >= 1);
    // A member the capsule lacks is named.
    let o = areakit(&[os("info"), m.join("nothing.git").as_os_str()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing.git"));
    // convert copies a member out byte for byte.
    let tmp = temp("convert");
    let copy = tmp.join(&git);
    let o = areakit(&[os("convert"), member.as_os_str(), copy.as_os_str()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let ex = tmp.join("x");
    areakit(&[
        os("extract"),
        m.as_os_str(),
        os(&git),
        os("-o"),
        ex.as_os_str(),
    ]);
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        std::fs::read(ex.join(&git)).unwrap()
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn check_over_capsules_names_members_and_ignores_jobs() {
    let files = capsules();
    let mut args: Vec<&std::ffi::OsStr> = vec![os("check"), os("--json")];
    args.extend(files.iter().map(|f| f.as_os_str()));
    let run = |jobs: &str| {
        let mut a = args.clone();
        a.extend([os("--jobs"), os(jobs)]);
        areakit(&a)
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(one.stdout, two.stdout, "output independent of --jobs");
    assert_eq!(
        one.status.code(),
        Some(1),
        "the corrupted capsules are errors"
    );
    let v: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    let checked = v["files_checked"].as_u64().unwrap();
    assert!(checked > 82 + 5_000, "members are checked too: {checked}");
    let findings = v["findings"].as_array().unwrap();
    let invalid: Vec<&str> = findings
        .iter()
        .filter(|f| f["code"] == "invalid-file")
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(invalid.len(), 2, "{invalid:?}");
    assert!(invalid.iter().all(|p| p.contains("test_corrupted")));
    // Member findings are named capsule/member.
    assert!(
        findings
            .iter()
            .filter(|f| f["path"].as_str().unwrap().contains(".mod/"))
            .all(|f| f["path"]
                .as_str()
                .unwrap()
                .split(".mod/")
                .nth(1)
                .is_some_and(|m| m.contains('.'))),
    );
}
