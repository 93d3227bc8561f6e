//! The `areakit` binary on every corpus file of the other formats: `info --json` names the
//! format, `convert F out.<same ext>` writes the same bytes (a KotOR binary model's MDX too;
//! an NWN compiled model is one file), `render` draws an NWN2 walkmesh.

use crate::common;

use std::process::Command;

fn areakit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_areakit"))
}

/// `(SOURCES.tsv formats, expected file count, expected info "format" values)`.
const CASES: [(&[&str], usize, &[&str]); 6] = [
    (&["trx", "trn"], 70, &["trx", "trn"]),
    (&["lyt"], 13, &["lyt"]),
    (&["vis"], 11, &["vis"]),
    (
        &["mdl-ascii", "wok-ascii", "pwk-ascii"],
        380,
        &["mdl-ascii"],
    ),
    // Binary models: `convert m.mdl out.mdl` also writes `out.mdx` beside it (compared below).
    (&["mdl-bin"], 136, &["mdl"]),
    // NWN compiled models: one file, no MDX.
    (&["nwn-mdl-bin"], 108, &["mdl"]),
];

#[test]
fn info_and_byte_identical_convert_for_every_corpus_file() {
    let dir = std::env::temp_dir().join(format!("areakit-cli-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut covered = 0;
    for (formats, count, names) in CASES {
        let files = common::corpus_files(formats);
        assert_eq!(files.len(), count, "{formats:?}");
        for (i, path) in files.iter().enumerate() {
            let out = areakit()
                .arg("info")
                .arg(path)
                .arg("--json")
                .output()
                .unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
            assert!(
                names.contains(&v["format"].as_str().unwrap()),
                "{}: {}",
                path.display(),
                v["format"]
            );
            // The output keeps the input's extension (for TRX vs TRN too).
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let ext = name.split_once('.').map_or("", |(_, e)| e);
            let target = dir.join(format!("out{i}.{ext}"));
            let st = areakit()
                .arg("convert")
                .arg(path)
                .arg(&target)
                .output()
                .unwrap();
            assert_eq!(
                st.status.code(),
                Some(0),
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&st.stderr)
            );
            assert!(
                std::fs::read(path).unwrap() == std::fs::read(&target).unwrap(),
                "{}",
                path.display()
            );
            std::fs::remove_file(&target).unwrap();
            if ext == "mdl" && v["format"] == "mdl" && v["game"] != "nwn" {
                let mdx = target.with_extension("mdx");
                assert!(
                    std::fs::read(path.with_extension("mdx")).unwrap()
                        == std::fs::read(&mdx).unwrap(),
                    "{}: the MDX",
                    path.display()
                );
                std::fs::remove_file(&mdx).unwrap();
            }
            covered += 1;
        }
    }
    assert_eq!(covered, 718);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn trx_info_counts_and_render() {
    let files = common::corpus_files(&["trx"]);
    let dir = std::env::temp_dir().join(format!("areakit-cli-trx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = &files[0];
    let out = areakit()
        .arg("info")
        .arg(path)
        .arg("--json")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "vertices",
        "edges",
        "triangles",
        "walkable_triangles",
        "tiles",
        "islands",
    ] {
        assert!(v[key].as_u64().is_some(), "{key}: {v:#}");
    }
    assert!(
        v["packets"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["tag"] == "ASWM")
    );
    for ext in ["svg", "png"] {
        let pic = dir.join(format!("t.{ext}"));
        let st = areakit()
            .arg("render")
            .arg(path)
            .arg("-o")
            .arg(&pic)
            .arg("--findings")
            .output()
            .unwrap();
        assert_eq!(
            st.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&st.stderr)
        );
        let bytes = std::fs::read(&pic).unwrap();
        if ext == "png" {
            assert_eq!(&bytes[..4], b"\x89PNG");
        } else {
            assert!(
                String::from_utf8(bytes)
                    .unwrap()
                    .trim_end()
                    .ends_with("</svg>")
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `check` on one thread and on several gives the same bytes (areas and files run in parallel).
#[test]
fn check_output_does_not_depend_on_jobs() {
    let dir = common::corpus_dir().join("kotor/openkotor_pykotor");
    let run = |jobs: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_areakit"))
            .arg("check")
            .arg(&dir)
            .args(["--json", "--jobs", jobs])
            .output()
            .unwrap()
    };
    let one = run("1");
    let four = run("4");
    assert_eq!(one.status.code(), four.status.code());
    assert_eq!(one.stdout, four.stdout);
    let v: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    assert!(
        v["files_checked"].as_u64().unwrap() > 20,
        "{}",
        v["files_checked"]
    );
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_areakit"))
        .arg("check")
        .arg(&dir)
        .args(["--jobs", "0"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
