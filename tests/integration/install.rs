//! A small fake KotOR install, written entirely by areakit's writers (KEY + BIFs, module
//! capsules, override), holding the same resref in several places: the resolution order
//! (override → module capsules → KEY/BIF, `.mod` replacing the RIMs), `ls`'s shadowing report,
//! member paths and `--game` inputs, through the library and the binary.

use std::path::{Path, PathBuf};
use std::process::Command;

use areakit_app::install::Install;
use areakit_app::resources::Resources;
use areakit_formats::erf::{self, Erf, ErfKind};
use areakit_formats::restype::{ResRef, ResType};
use areakit_formats::rim::{self, Rim};
use areakit_formats::{bif, key};

fn areakit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_areakit"))
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("areakit-fake-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A GFF-looking payload naming where it lives (the tests only compare bytes).
fn tagged(place: &str) -> Vec<u8> {
    format!("UTD V3.2 from {place}").into_bytes()
}

fn member(name: &str, t: ResType, data: Vec<u8>) -> (ResRef, ResType, Vec<u8>) {
    (ResRef::new(name).unwrap(), t, data)
}

/// The install: `door01.utd` in the KEY, both module RIMs, the module's `_dlg.erf` and
/// override; `shared.utd` in the KEY and `m01aa_s.rim`; `only_key.2da` in the KEY only; the
/// names in mixed case on disk.
fn fake_install(dir: &Path, with_mod: bool) {
    let (k, bifs) = key::build_install(vec![
        (
            "data\\Templates.bif".to_string(),
            vec![
                member("door01", ResType::UTD, tagged("key")),
                member("shared", ResType::UTD, tagged("key")),
            ],
        ),
        (
            "data\\2da.bif".to_string(),
            vec![member("only_key", ResType::TWO_DA, b"2DA V2.b".to_vec())],
        ),
    ])
    .unwrap();
    std::fs::write(dir.join("chitin.key"), key::write(&k).unwrap()).unwrap();
    std::fs::create_dir_all(dir.join("Data")).unwrap();
    std::fs::write(
        dir.join("Data/TEMPLATES.BIF"),
        bif::write(&bifs[0]).unwrap(),
    )
    .unwrap();
    std::fs::write(dir.join("Data/2da.bif"), bif::write(&bifs[1]).unwrap()).unwrap();

    let modules = dir.join("Modules");
    std::fs::create_dir_all(&modules).unwrap();
    let rim_a = Rim::from_resources([
        member("door01", ResType::UTD, tagged("rim")),
        member("m01aa", ResType::ARE, b"ARE V3.2".to_vec()),
    ])
    .unwrap();
    std::fs::write(modules.join("M01AA.rim"), rim::write(&rim_a).unwrap()).unwrap();
    let rim_s = Rim::from_resources([
        member("door01", ResType::UTD, tagged("srim")),
        member("shared", ResType::UTD, tagged("srim")),
    ])
    .unwrap();
    std::fs::write(modules.join("m01aa_s.rim"), rim::write(&rim_s).unwrap()).unwrap();
    let dlg = Erf::from_resources(
        ErfKind::Erf,
        [member("door01", ResType::UTD, tagged("dlg"))],
    )
    .unwrap();
    std::fs::write(modules.join("m01aa_dlg.erf"), erf::write(&dlg).unwrap()).unwrap();
    if with_mod {
        let m = Erf::from_resources(
            ErfKind::Mod,
            [member("door01", ResType::UTD, tagged("mod"))],
        )
        .unwrap();
        std::fs::write(modules.join("m01aa.mod"), erf::write(&m).unwrap()).unwrap();
    }
    std::fs::create_dir_all(dir.join("Override")).unwrap();
    std::fs::write(dir.join("Override/DOOR01.utd"), tagged("override")).unwrap();
}

fn got(r: &dyn Resources, name: &str, ext: &str) -> String {
    let res = r
        .get(name, ext)
        .unwrap()
        .unwrap_or_else(|| panic!("{name}.{ext} not found"));
    String::from_utf8_lossy(&res.data).into_owned()
}

#[test]
fn resolution_order_and_shadowing_in_the_library() {
    let dir = temp("lib");
    fake_install(&dir, false);

    let i = Install::open(&dir, Some("m01aa")).unwrap();
    assert_eq!(got(&i, "DOOR01", "UTD"), "UTD V3.2 from override");
    assert_eq!(
        got(&i, "shared", "utd"),
        "UTD V3.2 from srim",
        "module before KEY"
    );
    assert_eq!(got(&i, "only_key", "2da"), "2DA V2.b");
    assert!(i.get("nothing", "utd").unwrap().is_none());
    // Without the module, override then KEY.
    let plain = Install::open(&dir, None).unwrap();
    assert_eq!(got(&plain, "shared", "utd"), "UTD V3.2 from key");

    let listing = i.list().unwrap();
    let names: Vec<String> = listing
        .iter()
        .map(|l| l.file_name().to_lowercase())
        .collect();
    assert_eq!(
        names,
        ["door01.utd", "m01aa.are", "only_key.2da", "shared.utd"]
    );
    let door = &listing[0];
    assert!(
        door.origin.ends_with("Override/DOOR01.utd"),
        "{}",
        door.origin
    );
    let shadowed: Vec<&str> = door
        .shadows
        .iter()
        .map(|s| s.rsplit('/').nth(1).unwrap())
        .collect();
    assert_eq!(
        shadowed,
        ["M01AA.rim", "m01aa_s.rim", "m01aa_dlg.erf", "TEMPLATES.BIF"],
        "{:?}",
        door.shadows
    );
    assert_eq!(door.size, tagged("override").len() as u64);
    assert!(listing[2].shadows.is_empty());
    assert_eq!(listing[3].shadows.len(), 1);

    // A .mod replaces the RIMs, not the _dlg.erf; override still wins.
    std::fs::remove_file(dir.join("Override/DOOR01.utd")).unwrap();
    fake_install(&dir, true);
    std::fs::remove_file(dir.join("Override/DOOR01.utd")).unwrap();
    let m = Install::open(&dir, Some("M01AA")).unwrap();
    assert_eq!(got(&m, "door01", "utd"), "UTD V3.2 from mod");
    assert_eq!(
        got(&m, "shared", "utd"),
        "UTD V3.2 from key",
        "the _s.rim is replaced"
    );
    let door = &m.list().unwrap()[0];
    let shadowed: Vec<&str> = door
        .shadows
        .iter()
        .map(|s| s.rsplit('/').nth(1).unwrap())
        .collect();
    assert_eq!(shadowed, ["m01aa_dlg.erf", "TEMPLATES.BIF"]);

    // The KEY read its tables only: the KEY, two BIF headers and tables, and what was asked.
    let key_bytes = std::fs::metadata(dir.join("chitin.key")).unwrap().len();
    let k = m.key().unwrap();
    let before = k.bytes_read();
    assert!(before < key_bytes + 200, "{before} bytes read to open");
    m.get("only_key", "2da").unwrap().unwrap();
    assert_eq!(
        k.bytes_read() - before,
        8,
        "one resource is one read of its size"
    );

    assert!(Install::open(&dir, Some("m09zz")).is_err());
    assert!(
        Install::open(&dir.join("Data"), None).is_err(),
        "no game folder"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = areakit().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn ls_extract_and_inputs_through_the_binary() {
    let dir = temp("cli");
    fake_install(&dir, false);
    let game = dir.to_str().unwrap();

    let (code, out, err) = run(&["ls", "--game", game, "--module", "m01aa", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["count"], 4);
    let door = &v["resources"][0];
    assert_eq!(door["name"].as_str().unwrap().to_lowercase(), "door01.utd");
    assert_eq!(door["type"], "utd");
    assert_eq!(door["type_id"], 2042);
    assert!(door["origin"].as_str().unwrap().contains("Override"));
    assert_eq!(door["shadows"].as_array().unwrap().len(), 4);

    // The environment variable stands for --game; --type filters.
    let out = areakit()
        .args(["ls", "--type", "2da"])
        .env("AREAKIT_GAME", game)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("only_key.2da"), "{text}");
    assert!(text.trim_end().ends_with("1 resources"), "{text}");

    // Capsules named are searched first.
    let rim = dir.join("Modules/M01AA.rim");
    let (code, out, _) = run(&["ls", rim.to_str().unwrap(), "--game", game, "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["resources"][0]["origin"]
            .as_str()
            .unwrap()
            .ends_with("M01AA.rim/door01.utd")
    );

    // extract through the game writes what the search finds.
    let outdir = dir.join("out");
    let (code, _, err) = run(&[
        "extract",
        "--game",
        game,
        "--module",
        "m01aa",
        "door01.utd",
        "SHARED.utd",
        "-o",
        outdir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(outdir.join("door01.utd")).unwrap(),
        tagged("override")
    );
    assert_eq!(
        std::fs::read(outdir.join("SHARED.utd")).unwrap(),
        tagged("srim")
    );
    let (code, _, err) = run(&[
        "extract",
        "--game",
        game,
        "nothing.utd",
        "-o",
        outdir.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "a resource found nowhere is an I/O error");
    assert!(err.contains("nothing.utd"), "{err}");

    // A capsule member path and a bare resource through --game are inputs like files.
    let member = dir.join("Modules/m01aa_s.rim/shared.utd");
    let (code, _, err) = run(&["info", member.to_str().unwrap()]);
    assert_eq!(code, 1, "the payload is no real GFF: {err}");
    assert!(err.contains("shared.utd"), "{err}");
    let (code, _, err) = run(&["info", "--game", game, "only_key.2da"]);
    assert_eq!(code, 1, "a truncated 2DA is invalid input: {err}");
    let (code, _, err) = run(&["info", "--game", game, "missing.2da"]);
    assert_eq!(code, 2, "{err}");

    // Usage errors.
    assert_eq!(run(&["ls"]).0, 2);
    assert_eq!(run(&["ls", "--module", "m01aa"]).0, 2);
    assert_eq!(run(&["ls", "--game", game, "--module", "nope"]).0, 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A damaged texture pack is left out of the search, with a note, and every command goes on:
/// the other pack, the module and the KEY are still searched.
#[test]
fn a_damaged_texture_pack_is_skipped_with_a_note() {
    let dir = temp("packs");
    fake_install(&dir, false);
    let packs = dir.join("TexturePacks");
    std::fs::create_dir_all(&packs).unwrap();
    let gui = Erf::from_resources(
        ErfKind::Erf,
        [member("lbl_ok", ResType::TPC, tagged("gui pack"))],
    )
    .unwrap();
    std::fs::write(packs.join("swpc_tex_gui.erf"), erf::write(&gui).unwrap()).unwrap();
    let tpa = Erf::from_resources(
        ErfKind::Erf,
        [member("lts_wall", ResType::TPC, tagged("tpa pack"))],
    )
    .unwrap();
    let mut damaged = erf::write(&tpa).unwrap();
    damaged.truncate(30); // inside the header
    let bad = packs.join("swpc_tex_tpa.erf");
    std::fs::write(&bad, &damaged).unwrap();

    let i = Install::open(&dir, Some("m01aa")).unwrap();
    assert_eq!(i.skipped().len(), 1);
    let note = i.skipped()[0].to_string();
    assert!(note.contains("swpc_tex_tpa.erf"), "{note}");
    assert_eq!(got(&i, "lbl_ok", "tpc"), "UTD V3.2 from gui pack");
    assert_eq!(got(&i, "shared", "utd"), "UTD V3.2 from srim");
    assert_eq!(got(&i, "only_key", "2da"), "2DA V2.b");
    assert!(i.get("lts_wall", "tpc").unwrap().is_none());

    // The binary goes on, and says on stderr what it left out.
    let game = dir.to_str().unwrap();
    let (code, out, err) = run(&["ls", "--game", game, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["count"], 4, "{out}");
    assert!(
        err.contains("swpc_tex_tpa.erf") && err.contains("skipped"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
