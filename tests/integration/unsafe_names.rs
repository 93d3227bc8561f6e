//! Names from files that would become paths outside the output folder, or would reach the
//! terminal raw: every container areakit extracts (KEY/BIF, ERF/MOD/SAV, RIM) and the capsule
//! manifest `pack` reads, each given crafted names. Nothing is written outside `-o`, `check`
//! warns of each name (`capsule-unsafe-name`), `extract` says what it renamed, and no raw
//! control byte reaches human output while `--json` keeps the names exact.

use std::path::{Path, PathBuf};

use areakit_formats::erf::{self, Erf, ErfKind};
use areakit_formats::restype::{ResRef, ResType};
use areakit_formats::rim::{self, Rim};
use areakit_formats::{bif, key};

use crate::support::areakit;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("areakit-names-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A resref of exactly these bytes (NUL-padded to 16).
fn raw_ref(bytes: &[u8]) -> ResRef {
    let mut r = [0u8; 16];
    r[..bytes.len()].copy_from_slice(bytes);
    ResRef(r)
}

/// The outside place an absolute name would reach (unique to this run).
fn outside_name() -> String {
    format!("/tmp/ak{}", std::process::id() % 100_000)
}

/// The crafted names, each at most 16 bytes: a traversal, an absolute path, a drive letter,
/// separators, an ESC sequence, CR, LF, BEL, DEL, a C1 byte, NUL, a device name, dot names.
fn crafted() -> Vec<Vec<u8>> {
    vec![
        b"../../../x".to_vec(),
        outside_name().into_bytes(),
        b"C:\\evil".to_vec(),
        b"..\\..\\win".to_vec(),
        b"a/b".to_vec(),
        b"esc\x1b[2Jx".to_vec(),
        b"cr\rline".to_vec(),
        b"lf\nareakit: ok".to_vec(),
        b"bel\x07del\x7f".to_vec(),
        b"c1\x85\x9b".to_vec(),
        b"nul\0after".to_vec(),
        b"CON".to_vec(),
        b"..".to_vec(),
        b".hidden".to_vec(),
        b"safe_one".to_vec(),
    ]
}

/// How many of the crafted names are unsafe as file names (all but `safe_one`; `nul\0after`
/// is the name `nul` with bytes after its terminator, itself the device name `NUL`).
const UNSAFE: usize = 14;

fn members() -> Vec<(ResRef, ResType, Vec<u8>)> {
    crafted()
        .into_iter()
        .enumerate()
        .map(|(i, n)| {
            (
                raw_ref(&n),
                ResType::UTW,
                format!("UTW V3.2 {i}").into_bytes(),
            )
        })
        .collect()
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).into_iter().flatten() {
        if e.file_type().is_file() {
            out.push(e.path().to_path_buf());
        }
    }
    out
}

/// Runs `areakit args` in `cwd`: exit code, stdout, stderr (raw bytes).
fn run_in(cwd: &Path, args: &[&str]) -> (i32, Vec<u8>, Vec<u8>) {
    let o = areakit().current_dir(cwd).args(args).output().unwrap();
    (o.status.code().unwrap_or(-1), o.stdout, o.stderr)
}

/// No raw control byte (C0 but tab and line feed, DEL, or a C1 control encoded in UTF-8).
fn assert_terminal_safe(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let bad: Vec<char> = text
        .chars()
        .filter(|&c| c.is_control() && c != '\n' && c != '\t')
        .collect();
    assert!(
        bad.is_empty(),
        "{what}: raw control characters {bad:?} in\n{text}"
    );
}

/// Extracts `container` (inside `root/in`) to `root/out/x/y`, then asserts that every file
/// written is inside `root/out/x/y`, that the renamed names were reported, and that nothing
/// reached the outside place an absolute name names.
fn assert_extract_confined(root: &Path, args: &[&str], renames: usize, skips: usize) {
    let out = root.join("out/x/y");
    let before: Vec<PathBuf> = files_under(root);
    let mut full: Vec<&str> = args.to_vec();
    let out_s = out.to_string_lossy().into_owned();
    full.extend(["-o", &out_s]);
    let (code, stdout, stderr) = run_in(&root.join("in"), &full);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&stderr));
    for f in files_under(root) {
        if !before.contains(&f) {
            assert!(
                f.starts_with(&out),
                "{} written outside {}",
                f.display(),
                out.display()
            );
        }
    }
    let outside = PathBuf::from(format!("{}.utw", outside_name()));
    assert!(!outside.exists(), "{} was written", outside.display());
    let written = files_under(&out).len();
    assert!(
        written >= crafted().len() - skips,
        "{written} files written"
    );
    let text = String::from_utf8_lossy(&stdout);
    let count = |p: &str| text.lines().filter(|l| l.starts_with(p)).count();
    assert_eq!(count("renamed: "), renames, "renames reported:\n{text}");
    assert_eq!(count("skipped: "), skips, "skips reported:\n{text}");
    assert_terminal_safe("extract", &stdout);
    assert_terminal_safe("extract stderr", &stderr);
}

/// `check` warns of every unsafe name with `capsule-unsafe-name`, and its human output
/// carries no raw control byte.
fn assert_check_warns(cwd: &Path, file: &str, expected: usize) {
    let (_, stdout, _) = run_in(cwd, &["check", file, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&stdout).unwrap();
    let n = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "capsule-unsafe-name")
        .count();
    assert_eq!(n, expected, "{file}: {v:#}");
    let (_, human, _) = run_in(cwd, &["check", file]);
    assert_terminal_safe("check", &human);
    assert!(
        !String::from_utf8_lossy(&human)
            .lines()
            .any(|l| l.starts_with("areakit: ok")),
        "a name forged a line"
    );
}

/// `ls` prints the names escaped; `ls --json` keeps them exact.
fn assert_ls(cwd: &Path, file: &str) {
    let (code, human, _) = run_in(cwd, &["ls", file]);
    assert_eq!(code, 0);
    assert_terminal_safe("ls", &human);
    let (_, json, _) = run_in(cwd, &["ls", file, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let names: Vec<&str> = v["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["resref"].as_str())
        .collect();
    assert!(names.contains(&"esc\u{1b}[2Jx"), "{names:?}");
    assert!(names.contains(&"lf\nareakit: ok"), "{names:?}");
}

#[test]
fn a_key_names_nothing_outside_the_output_folder() {
    let root = temp("key");
    let game = root.join("in");
    std::fs::create_dir_all(game.join("data")).unwrap();
    let (k, bifs) = key::build_install(vec![("data\\t.bif".to_string(), members())]).unwrap();
    std::fs::write(game.join("chitin.key"), key::write(&k).unwrap()).unwrap();
    std::fs::write(game.join("data/t.bif"), bif::write(&bifs[0]).unwrap()).unwrap();
    // Through the KEY the resources are asked for by name: the one whose name's bytes are no
    // text (`c1\x85\x9b`) cannot be, and is reported skipped.
    assert_extract_confined(&root, &["extract", "chitin.key"], UNSAFE - 1, 1);
    let _ = std::fs::remove_dir_all(root.join("out"));
    assert_extract_confined(&root, &["--game", ".", "extract"], UNSAFE - 1, 1);
    assert_check_warns(&game, "chitin.key", UNSAFE);
    assert_ls(&game, "chitin.key");
}

#[test]
fn erf_mod_and_sav_members_name_nothing_outside_the_output_folder() {
    for (kind, ext) in [
        (ErfKind::Erf, "erf"),
        (ErfKind::Mod, "mod"),
        (ErfKind::Sav, "sav"),
    ] {
        let root = temp(ext);
        let dir = root.join("in");
        std::fs::create_dir_all(&dir).unwrap();
        let mut e = Erf::new(kind);
        for (r, t, d) in members() {
            e.push(r, t, d);
        }
        let name = format!("c.{ext}");
        std::fs::write(dir.join(&name), erf::write(&e).unwrap()).unwrap();
        assert_extract_confined(&root, &["extract", &name], UNSAFE, 0);
        assert_check_warns(&dir, &name, UNSAFE);
        assert_ls(&dir, &name);
        // Packed again from the extraction: the same bytes, names and all.
        let packed = root.join("again").join(&name);
        std::fs::create_dir_all(packed.parent().unwrap()).unwrap();
        let o = areakit()
            .args([
                "pack".as_ref(),
                root.join("out/x/y").as_os_str(),
                "-o".as_ref(),
            ])
            .arg(&packed)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(
            std::fs::read(&packed).unwrap(),
            std::fs::read(dir.join(&name)).unwrap()
        );
    }
}

#[test]
fn rim_members_name_nothing_outside_the_output_folder() {
    let root = temp("rim");
    let dir = root.join("in");
    std::fs::create_dir_all(&dir).unwrap();
    let mut r = Rim::new();
    for (n, t, d) in members() {
        r.push(n, t, d);
    }
    std::fs::write(dir.join("c.rim"), rim::write(&r).unwrap()).unwrap();
    assert_extract_confined(&root, &["extract", "c.rim"], UNSAFE, 0);
    assert_check_warns(&dir, "c.rim", UNSAFE);
    assert_ls(&dir, "c.rim");
}

#[test]
fn a_manifest_names_no_file_outside_its_folder() {
    let root = temp("manifest");
    let dir = root.join("in");
    std::fs::create_dir_all(&dir).unwrap();
    let secret = root.join("secret.utw");
    std::fs::write(&secret, b"not to be packed").unwrap();
    let mut e = Erf::new(ErfKind::Erf);
    e.push(raw_ref(b"a"), ResType::UTW, b"UTW V3.2 a".to_vec());
    std::fs::write(dir.join("c.erf"), erf::write(&e).unwrap()).unwrap();
    let x = root.join("x");
    let o = areakit()
        .arg("extract")
        .arg(dir.join("c.erf"))
        .arg("-o")
        .arg(&x)
        .output()
        .unwrap();
    assert!(o.status.success());
    let manifest = x.join("areakit-capsule.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    for evil in [
        "../secret.utw",
        "/etc/passwd",
        "C:\\\\x.utw",
        "sub/../../secret.utw",
    ] {
        std::fs::write(&manifest, text.replace("\"a.utw\"", &format!("\"{evil}\""))).unwrap();
        let out = root.join("packed.erf");
        let o = areakit()
            .arg("pack")
            .arg(&x)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{evil}: {err}");
        assert!(
            err.contains("not a file name in this folder"),
            "{evil}: {err}"
        );
        assert!(!out.exists(), "{evil}: a capsule was written");
    }
}

#[test]
fn a_link_in_the_output_folder_leads_nothing_out_of_it() {
    let root = temp("link");
    let dir = root.join("in");
    std::fs::create_dir_all(&dir).unwrap();
    let mut e = Erf::new(ErfKind::Erf);
    e.push(raw_ref(b"a"), ResType::UTW, b"UTW V3.2 a".to_vec());
    e.push(raw_ref(b"b"), ResType::UTW, b"UTW V3.2 b".to_vec());
    std::fs::write(dir.join("c.erf"), erf::write(&e).unwrap()).unwrap();
    let out = root.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let victim = root.join("victim.txt");
    std::fs::write(&victim, b"keep me").unwrap();
    std::os::unix::fs::symlink(&victim, out.join("b.utw")).unwrap();
    let o = areakit()
        .arg("extract")
        .arg(dir.join("c.erf"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("outside the output folder"), "{err}");
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep me");
    assert!(
        !out.join("a.utw").exists(),
        "all or nothing: a.utw was written"
    );
}

/// A model whose name holds ESC, BEL, DEL, a C1 control, CR and LF (a forged line): `info` and
/// `check` print it escaped, `info --json` keeps it exact.
#[test]
fn a_models_name_reaches_no_terminal_raw() {
    let root = temp("model");
    let kits = crate::common::corpus_dir()
        .join("kotor/openkotor_pykotor/Tools/HolocronToolset/src/toolset/kits/hiddenbek");
    let mut mdl = std::fs::read(kits.join("hallway_1.mdl")).unwrap();
    let mdx = std::fs::read(kits.join("hallway_1.mdx")).unwrap();
    // The geometry header's 32-byte name (after the 12-byte file header and two words).
    let at = mdl[..100]
        .windows(10)
        .position(|w| w == b"hallway_1\0")
        .unwrap();
    let evil = "h\u{1b}[2J\u{7}\u{7f}\u{85}\r\nareakit: ok";
    assert!(evil.len() < 32);
    mdl[at..at + 32].fill(0);
    mdl[at..at + evil.len()].copy_from_slice(evil.as_bytes());
    std::fs::write(root.join("m.mdl"), &mdl).unwrap();
    std::fs::write(root.join("m.mdx"), &mdx).unwrap();
    let (code, human, _) = run_in(&root, &["info", "m.mdl"]);
    assert_eq!(code, 0);
    assert_terminal_safe("info", &human);
    let text = String::from_utf8_lossy(&human);
    // Model names are read a byte a character (Latin-1): the UTF-8 of U+0085 is two.
    assert!(
        text.contains("name: h\\x1b[2J\\x07\\x7f\u{c2}\\u{85}\\r\\nareakit: ok"),
        "{text}"
    );
    assert!(
        !text.lines().any(|l| l.starts_with("areakit: ok")),
        "a forged line:\n{text}"
    );
    let (_, json, _) = run_in(&root, &["info", "m.mdl", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let latin1: String = evil.bytes().map(char::from).collect();
    assert_eq!(v["name"], latin1, "the JSON keeps the name exact");
    let (_, human, stderr) = run_in(&root, &["check", "m.mdl"]);
    assert_terminal_safe("check", &human);
    assert_terminal_safe("check stderr", &stderr);
}
