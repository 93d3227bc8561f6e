//! Every command × every kind of input, as `docs/inputs.md` tabulates them. The test reads the
//! table from the document and runs each cell: a `yes` cell must exit 0 and give the
//! command's output; a `no: TEXT` cell must be refused in one stderr line that contains TEXT,
//! with a non-zero exit code. So the document cannot claim a cell the code does not do.

use crate::common;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::module_fixture::build_module;
use serde_json::Value as Json;

/// The input kinds, in the table's column order.
const KINDS: [&str; 11] = [
    "file",
    "folder",
    "LYT",
    "module folder",
    "capsule",
    "member",
    "member LYT",
    "game resource",
    "game module",
    "TRX",
    "model",
];

/// The places of one run: an area folder, a module folder, the module packed into a game's
/// `modules/`, an NWN2 terrain, a binary model with its MDX, and a PTH for `pth check`.
struct Fixture {
    dir: PathBuf,
    area: PathBuf,
    module: PathBuf,
    game: PathBuf,
    capsule: PathBuf,
    trx: PathBuf,
    model: PathBuf,
    pth: PathBuf,
}

fn fixture() -> Fixture {
    let dir = std::env::temp_dir().join(format!("areakit-inputs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    build_module(&dir, [1.5, 1.5, 0.0]);
    let module = dir.join("mod");
    let area = dir.join("area");
    std::fs::create_dir_all(&area).unwrap();
    for name in [
        "demo.lyt",
        "demo.vis",
        "demo_a.wok",
        "demo_b.wok",
        "demo_c.wok",
    ] {
        std::fs::copy(module.join(name), area.join(name)).unwrap();
    }
    let game = dir.join("game");
    std::fs::create_dir_all(game.join("modules")).unwrap();
    let capsule = game.join("modules").join("demomod.mod");
    let st = areakit()
        .arg("pack")
        .arg(&module)
        .arg("-o")
        .arg(&capsule)
        .output()
        .unwrap();
    assert!(st.status.success());
    let trx = common::corpus_files(&["trx"])
        .into_iter()
        .min_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(u64::MAX))
        .expect("an NWN2 TRX in the corpus");
    // The smallest corpus binary model with MDX rows, copied beside its MDX.
    let model_src = common::corpus_files(&["mdl-bin"])
        .into_iter()
        .filter(|p| std::fs::metadata(p.with_extension("mdx")).is_ok_and(|m| m.len() > 0))
        .min_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(u64::MAX))
        .expect("a binary model in the corpus");
    let model = dir.join("model.mdl");
    std::fs::copy(&model_src, &model).unwrap();
    std::fs::copy(model_src.with_extension("mdx"), model.with_extension("mdx")).unwrap();
    let pth = dir.join("demo.pth");
    let st = areakit()
        .args(["pth", "generate"])
        .arg(area.join("demo.lyt"))
        .arg("-o")
        .arg(&pth)
        .output()
        .unwrap();
    assert!(st.status.success());
    Fixture {
        dir,
        area,
        module,
        game,
        capsule,
        trx,
        model,
        pth,
    }
}

fn areakit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_areakit"))
}

/// The command line of `command` on an input of `kind`: the global options, then the
/// command's own arguments around the input.
fn command_line(f: &Fixture, command: &str, kind: &str, out: &Path) -> Vec<OsString> {
    let game_opts = || -> Vec<OsString> {
        vec![
            "--game".into(),
            f.game.clone().into(),
            "--module".into(),
            "demomod".into(),
        ]
    };
    let mut args: Vec<OsString> = Vec::new();
    if kind.starts_with("game") {
        args.extend(game_opts());
    }
    // The input as the command names it (None: no input, `check` of the game's module).
    let input: Option<OsString> = match kind {
        "file" => Some(f.area.join("demo_a.wok").into()),
        "folder" => Some(f.area.clone().into()),
        "LYT" => Some(f.area.join("demo.lyt").into()),
        "module folder" => Some(f.module.clone().into()),
        "capsule" => Some(f.capsule.clone().into()),
        "member" => Some(f.capsule.join("demo_a.wok").into()),
        "member LYT" => Some(f.capsule.join("demo.lyt").into()),
        "game resource" => Some("demo_a.wok".into()),
        "game module" => match command {
            "check" | "ls" => None,
            _ => Some("demo.lyt".into()),
        },
        "TRX" => Some(f.trx.clone().into()),
        "model" => Some(f.model.clone().into()),
        other => panic!("unknown kind {other}"),
    };
    let input_args = |args: &mut Vec<OsString>| args.extend(input.clone());
    match command {
        "info" | "check" | "ls" => {
            args.push(command.into());
            input_args(&mut args);
            args.push("--json".into());
        }
        "convert" => {
            args.push(command.into());
            input_args(&mut args);
            args.push(out.into());
        }
        "query" => {
            args.push(command.into());
            input_args(&mut args);
            args.extend(["--at", "1.5,1.5", "--json"].map(OsString::from));
        }
        "path" => {
            args.push(command.into());
            input_args(&mut args);
            args.extend(["--from", "1.5,1.5", "--to", "18.5,16.5", "--json"].map(OsString::from));
        }
        "vis generate" => {
            args.extend(["vis", "generate"].map(OsString::from));
            input_args(&mut args);
            args.push("-o".into());
            args.push(out.into());
        }
        "relink" | "minimap" => {
            args.push(command.into());
            input_args(&mut args);
            args.push("-o".into());
            args.push(out.into());
        }
        "pth generate" => {
            args.extend(["pth", "generate"].map(OsString::from));
            input_args(&mut args);
            args.push("-o".into());
            args.push(out.into());
        }
        "pth check" => {
            args.extend(["pth", "check"].map(OsString::from));
            input_args(&mut args);
            args.push(f.pth.clone().into());
            args.push("--json".into());
        }
        "transform" => {
            args.push(command.into());
            input_args(&mut args);
            args.extend(["--rotate", "90", "-o"].map(OsString::from));
            args.push(out.into());
        }
        "pack" | "rebuild" | "render" | "view" | "export" | "bake" | "import" | "extract" => {
            args.push(command.into());
            input_args(&mut args);
            args.push("-o".into());
            args.push(out.into());
        }
        other => panic!("unknown command {other}"),
    }
    args
}

/// The output a command writes (its extension picks the format).
fn output_name(command: &str, kind: &str) -> String {
    let ext = match command {
        "convert" => match kind {
            "file" | "member" | "game resource" => "wok.ascii",
            "LYT" | "member LYT" | "game module" => "lyt",
            "capsule" => "erf",
            "TRX" => "trx",
            "model" => "mdl.ascii",
            _ => "out",
        },
        "transform" if kind == "model" => "mdl",
        "rebuild" | "transform" => "wok",
        "render" => "svg",
        "view" => "html",
        "export" => "glb",
        "bake" => "trx",
        "pack" => "mod",
        "import" => "wok",
        "pth generate" => "pth",
        "extract" | "relink" => "dir",
        "vis generate" => "vis",
        "minimap" => "tga",
        _ => "out",
    };
    format!(
        "{}-{}.{ext}",
        command.replace(' ', "-"),
        kind.replace(' ', "-")
    )
}

/// What a successful run of `command` must show.
fn check_success(command: &str, stdout: &str, out: &Path, cell: &str) {
    let json = || -> Json {
        serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{cell}: {e}: {stdout}"))
    };
    match command {
        "info" => assert!(json()["format"].is_string(), "{cell}: {stdout}"),
        "check" | "pth check" => {
            assert!(json()["files_checked"].as_u64().unwrap() >= 1, "{cell}")
        }
        "ls" => assert!(json()["count"].as_u64().unwrap() >= 1, "{cell}"),
        "query" => assert!(json().get("face").is_some(), "{cell}: {stdout}"),
        "path" => assert!(json()["found"].is_boolean(), "{cell}: {stdout}"),
        "extract" | "relink" => assert!(
            std::fs::read_dir(out).unwrap().count() >= 1,
            "{cell}: nothing written"
        ),
        _ => assert!(
            std::fs::metadata(out).is_ok_and(|m| m.len() > 0),
            "{cell}: no output {}",
            out.display()
        ),
    }
}

/// The table of `docs/inputs.md`: (command, cells in [`KINDS`] order).
fn table() -> Vec<(String, Vec<String>)> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/inputs.md"))
        .expect("docs/inputs.md");
    let mut rows = Vec::new();
    let mut header_seen = false;
    for line in doc.lines() {
        let line = line.trim();
        if !line.starts_with('|') {
            continue;
        }
        let cells: Vec<String> = line
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().trim_matches('`').to_string())
            .collect();
        if !header_seen {
            if cells.first().is_some_and(|c| c == "command") {
                let kinds: Vec<&str> = cells[1..].iter().map(String::as_str).collect();
                assert_eq!(kinds, KINDS, "the table's columns");
                header_seen = true;
            }
            continue;
        }
        if cells
            .iter()
            .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
        {
            continue;
        }
        if cells.len() != KINDS.len() + 1 {
            break;
        }
        rows.push((cells[0].clone(), cells[1..].to_vec()));
    }
    assert!(header_seen, "docs/inputs.md has no `| command | ...` table");
    rows
}

#[test]
fn every_command_takes_every_input_kind_the_table_says() {
    let rows = table();
    let commands: Vec<&str> = rows.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(
        commands,
        [
            "info",
            "check",
            "convert",
            "rebuild",
            "transform",
            "query",
            "render",
            "view",
            "export",
            "path",
            "pth generate",
            "pth check",
            "bake",
            "import",
            "ls",
            "extract",
            "pack",
            "relink",
            "vis generate",
            "minimap",
        ],
        "the table's rows"
    );
    let f = fixture();
    let outputs = f.dir.join("out");
    std::fs::create_dir_all(&outputs).unwrap();
    let mut ran = 0;
    for (command, cells) in &rows {
        for (kind, cell) in KINDS.iter().zip(cells) {
            let out = outputs.join(output_name(command, kind));
            let args = command_line(&f, command, kind, &out);
            let o = areakit().args(&args).output().unwrap();
            let stdout = String::from_utf8_lossy(&o.stdout);
            let stderr = String::from_utf8_lossy(&o.stderr);
            let name = format!("{command} × {kind} ({args:?})");
            if cell == "yes" {
                // A single `path` query that finds no path exits 1, as grep does for no match
                // (a lone room's WOK cannot reach the other room's goal): its answer is still
                // the JSON, saying found false.
                let no_path = *command == "path"
                    && o.status.code() == Some(1)
                    && serde_json::from_str::<serde_json::Value>(&stdout)
                        .is_ok_and(|v| v["found"] == serde_json::json!(false));
                assert!(
                    o.status.code() == Some(0) || no_path,
                    "{name}: expected success: {:?} {stderr}",
                    o.status.code()
                );
                check_success(command, &stdout, &out, &name);
            } else {
                let why = cell
                    .strip_prefix("no:")
                    .unwrap_or_else(|| {
                        panic!("{name}: a cell is `yes` or `no: TEXT`, not {cell:?}")
                    })
                    .trim();
                assert!(
                    matches!(o.status.code(), Some(1 | 2)),
                    "{name}: expected a refusal, got {:?}: {stdout}",
                    o.status.code()
                );
                let lines: Vec<&str> = stderr.lines().collect();
                assert_eq!(lines.len(), 1, "{name}: one line: {stderr}");
                assert!(
                    lines[0].starts_with("areakit: ") && lines[0].contains(why),
                    "{name}: expected {why:?} in {stderr}"
                );
            }
            ran += 1;
        }
    }
    assert_eq!(ran, 20 * KINDS.len());
    std::fs::remove_dir_all(&f.dir).unwrap();
}
