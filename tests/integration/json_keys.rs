//! The shape of every command's `--json` output against a committed golden file,
//! `tests/golden/json_keys.txt`: a change in how a report is built (issue 44: typed report
//! structs instead of hand-built JSON) cannot change what users read unless the golden file
//! changes with it, in the same commit, where a reviewer sees it.
//!
//! Each case runs the `areakit` binary as a user does: on the demo area (the `demo --json`
//! case writes it), on a module built from the corpus's Holocron kit (the `build` cases write
//! it), and on the first corpus file (in sorted order) of each `format` of `SOURCES.tsv` that
//! the command reads. Its JSON (one value, or JSON lines for `path --pairs`: every line's) is
//! walked into key paths: `.name` for an object's key, `[]` for an array's elements (the union
//! of their paths, recorded once), `{*}` for the values of an object whose keys are data
//! ([`DATA_MAPS`]); each path with the JSON types seen there (`null`, `bool`, `number`,
//! `string`, `array`, `object`). A path's types are the union over every case of its command,
//! so a value that is a number in one case and null in another reads `null|number` in both.
//!
//! The golden file has three sections: `[commands]`, each command (from the binary's `--help`)
//! with or without `--json`, and the ones printing JSON lines; `[cases]`, each case's command
//! line (`{corpus}`, `{repo}`, `{tmp}` for those folders) and exit code; `[keys]`,
//! `CASE: PATH TYPES`, sorted. On a difference the test prints the lines missing from the
//! output and the extra ones.
//!
//! `AREAKIT_BLESS=1 cargo test --test integration json_keys` rewrites the golden file instead
//! of comparing (then review its diff: every changed line is a change users see;
//! ARCHITECTURE.md, "CLI").

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

use crate::common;
use crate::support::run;

/// The golden file, from the checkout's root.
const GOLDEN: &str = "tests/golden/json_keys.txt";

/// The cases run (the test fails when the list changes without this).
const CASES: usize = 99;

/// Objects whose keys are data, by command and key path: their values are recorded under
/// `PATH{*}`, whatever their keys.
const DATA_MAPS: &[(&str, &str)] = &[
    // `BwmInfo::materials` (crates/app/src/info.rs): a `BTreeMap` material name → faces.
    ("info", ".materials"),
    // `FolderInfo`, `ErfInfo`, `RimInfo`, `KeyInfo`, `BifInfo::types` (crates/app/src/info.rs):
    // `BTreeMap`s extension → files or members.
    ("info", ".types"),
    // `MdlInfo::nodes_by_type` (crates/app/src/info.rs): (node type, count) pairs written as
    // an object by `pairs_as_map`.
    ("info", ".nodes_by_type"),
    // `NodeCounts::by_type` of `ModelInfo::nodes` (crates/app/src/info.rs): a `BTreeMap` node
    // type → count.
    ("info", ".nodes.by_type"),
    // `VisResult::vis` (crates/area/src/visgen/mod.rs, `serialize_vis`): room name → the rooms
    // it sees.
    ("vis generate", ".vis"),
];

/// The corpus formats `info` reads (the first file of each is a case).
const INFO_FORMATS: [&str; 24] = [
    "2da",
    "bwm",
    "erf",
    "gff",
    "kit-gff",
    "lyt",
    "mdb",
    "mdl-ascii",
    "mdl-bin",
    "nwn-mdl-bin",
    "nwn2-are",
    "nwn2-git",
    "png",
    "pwk",
    "pwk-ascii",
    "rim",
    "tga",
    "tpc",
    "trn",
    "trx",
    "txi",
    "vis",
    "wok",
    "wok-ascii",
];

/// The corpus formats `check` reads besides [`INFO_FORMATS`]: a Holocron kit, and an MDX on
/// its own (an `invalid-file` finding).
const CHECK_ONLY_FORMATS: [&str; 2] = ["kit-json", "mdx"];

/// How a case's command prints its JSON.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    /// One JSON value.
    Value,
    /// One JSON value per line, under this flag.
    Lines(&'static str),
}

/// One run of the binary.
struct Case {
    /// The command's words (`pth check`).
    command: &'static str,
    /// What it runs on (`demo`, a corpus format, ...).
    label: String,
    /// The arguments after `areakit`, with `{corpus}`, `{repo}` and `{tmp}` for the folders.
    args: Vec<String>,
    shape: Shape,
}

impl Case {
    fn name(&self) -> String {
        format!("{} {}", self.command, self.label)
    }
}

/// A case of `command` on `label`. `args` (after the command's words) are split at spaces,
/// then in each `{first:FORMAT}` is the first corpus file of that format, `{folder:FORMAT}`
/// its folder and `{walkable:FORMAT}` a point on it ([`walkable_point`]), so that a corpus
/// path may hold spaces.
fn case(command: &'static str, label: &str, args: &str) -> Case {
    let mut all: Vec<String> = command.split(' ').map(String::from).collect();
    all.extend(args.split_whitespace().map(corpus_names));
    let shape = LINE_FLAGS
        .iter()
        .find(|(c, flag)| *c == command && all.iter().any(|a| a == flag))
        .map_or(Shape::Value, |(_, flag)| Shape::Lines(flag));
    Case {
        command,
        label: label.to_string(),
        args: all,
        shape,
    }
}

/// An argument with its `{first:FORMAT}`, `{folder:FORMAT}` and `{walkable:wok}` written
/// out.
fn corpus_names(arg: &str) -> String {
    let mut arg = arg.to_string();
    for tag in ["{first:", "{folder:", "{walkable:"] {
        while let Some(at) = arg.find(tag) {
            let end = at + arg[at..].find('}').expect("a closing brace");
            let file = first(&arg[at + tag.len()..end]);
            let name = match tag {
                "{first:" => file,
                "{folder:" => file.rsplit_once('/').unwrap().0.to_string(),
                _ => walkable_point(&file),
            };
            arg.replace_range(at..=end, &name);
        }
    }
    arg
}

/// `X,Y`: the centroid of the first walkable face of a corpus WOK (`{corpus}/...`).
fn walkable_point(wok: &str) -> String {
    let path = common::corpus_dir().join(wok.trim_start_matches("{corpus}/"));
    let m = areakit_app::formats::bwm::read(&std::fs::read(&path).unwrap()).unwrap();
    let face = m
        .faces
        .iter()
        .find(|f| f.material.is_walkable())
        .expect("a walkable face");
    let [x, y] = [0, 1].map(|axis| {
        face.vertices
            .iter()
            .map(|&v| m.vertices[v as usize][axis])
            .sum::<f32>()
            / 3.0
    });
    format!("{x},{y}")
}

/// The folders the cases' arguments name.
struct Places {
    corpus: PathBuf,
    repo: PathBuf,
    tmp: PathBuf,
}

impl Places {
    fn expand(&self, arg: &str) -> OsString {
        arg.replace("{corpus}", &self.corpus.display().to_string())
            .replace("{repo}", &self.repo.display().to_string())
            .replace("{tmp}", &self.tmp.display().to_string())
            .into()
    }

    /// Runs `areakit ARGS` (split at spaces, expanded) for a case's input; it must succeed.
    fn prepare(&self, args: &str) {
        let expanded: Vec<OsString> = args
            .split_whitespace()
            .map(|a| self.expand(&corpus_names(a)))
            .collect();
        let refs: Vec<&OsStr> = expanded.iter().map(OsString::as_os_str).collect();
        let (code, _, stderr) = run(&refs);
        assert_eq!(code, 0, "areakit {args}: {stderr}");
    }
}

/// The first corpus file of `format` (sorted), as `{corpus}/...`.
fn first(format: &str) -> String {
    let files = common::corpus_files(&[format]);
    let file = files
        .first()
        .unwrap_or_else(|| panic!("no corpus file of format {format}"));
    let rel = file.strip_prefix(common::corpus_dir()).unwrap();
    format!("{{corpus}}/{}", rel.display())
}

/// The first stage, one case a line (`COMMAND | LABEL | ARGS`, as [`case`] takes them): the
/// demo area and the module (of the corpus's Holocron kits) that later cases read.
const SETUP: &str = "
demo | demo | --out {tmp}/demo --json
build | module | {repo}/examples/layouts/blackvulkar.json --kits {folder:kit-json} -o {tmp}/module --json
build | module.mod | {repo}/examples/layouts/blackvulkar.json --kits {folder:kit-json} -o {tmp}/module.mod --json
";

/// The cases besides [`SETUP`] and [`info_check_cases`]. Far ends moved onto the ground by
/// `--snap` give a path question on any mesh; a TPC with a TXI trailer gives `info`'s `txi`
/// its string (the first TPC has none).
const CASE_TABLE: &str = "
info | tpc with a TXI | {corpus}/kotor/KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/LKA_leaf02.tpc --json
bake | trn | {first:trn} -o {tmp}/bake.trx --json
bake | trn --git | {first:trn} --git {first:nwn2-git} -o {tmp}/bake-git.trx --json
export | demo | {tmp}/demo -o {tmp}/export-demo.glb --json
export | demo .obj | {tmp}/demo -o {tmp}/export-demo.obj --json
export | module | {tmp}/module -o {tmp}/export-module.glb --textures {folder:tpc} --json
export | wok | {first:wok} -o {tmp}/export-wok.glb --json
export | trx | {first:trx} -o {tmp}/export-trx.glb --json
export | mdl-ascii | {first:mdl-ascii} -o {tmp}/export-mdl-ascii.glb --json
export | mdl-bin | {first:mdl-bin} -o {tmp}/export-mdl-bin.glb --json
export | nwn-mdl-bin | {first:nwn-mdl-bin} -o {tmp}/export-nwn-mdl-bin.glb --json
import | obj | {tmp}/in-demo_a.obj -o {tmp}/import.wok --json
import | glb | {tmp}/in-demo.glb --room-index 0 -o {tmp}/import-glb.wok --json
import | trx | {tmp}/in-trx.obj -o {tmp}/import.trx --terrain {first:trx} --json
ls | erf | {first:erf} --json
ls | rim | {first:rim} --json
ls | module.mod twice | {tmp}/module.mod {tmp}/module.mod --json
minimap | demo | {tmp}/demo -o {tmp}/minimap-demo.tga --json
minimap | module --are | {tmp}/module -o {tmp}/minimap-module.tga --are {tmp}/module/vulk01.are --are-out {tmp}/minimap.are --json
path | demo | {tmp}/demo --from 1.5,1.5 --to 18.5,16.5 --json
path | demo off the ground | {tmp}/demo --from 1.5,1.5 --to 100,100 --json
path | demo --pairs | {tmp}/demo --pairs {tmp}/pairs.txt
path | module | {tmp}/module --from -10000,-10000 --to 10000,10000 --snap 100000 --json
path | wok | {first:wok} --from -10000,-10000 --to 10000,10000 --snap 100000 --json
path | trx | {first:trx} --from -10000,-10000 --to 10000,10000 --snap 100000 --json
path | trx baked | {first:trx} --mode baked --from -10000,-10000 --to 10000,10000 --snap 100000 --json
pth check | demo | {tmp}/demo/demo.lyt {tmp}/demo.pth --json
pth check | module | {tmp}/module/vulk01.lyt {tmp}/module/vulk01.pth --json
query | demo --at | {tmp}/demo/demo.lyt --at 1.5,1.5 --json
query | demo --ray | {tmp}/demo/demo.lyt --ray 1.5,1.5,10:0,0,-1 --json
query | wok | {first:wok} --at {walkable:wok} --json
query | mdl-bin | {first:mdl-bin} --at 0,0 --json
relink | demo | {tmp}/demo -o {tmp}/relink-demo --json
relink | module | {tmp}/module -o {tmp}/relink-module --json
vis generate | demo | {tmp}/demo -o {tmp}/demo.vis --json
vis generate | module | {tmp}/module -o {tmp}/module.vis --json
vis generate | module --spacing | {tmp}/module -o {tmp}/module-sampled.vis --spacing 2 --json
";

/// The flags under which a command prints JSON lines.
const LINE_FLAGS: &[(&str, &str)] = &[("path", "--pairs")];

/// The cases of a table of [`SETUP`]'s form.
fn table(text: &'static str) -> Vec<Case> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&'static str> = l.split(" | ").collect();
            let [command, label, args] = cols[..] else {
                panic!("not COMMAND | LABEL | ARGS: {l}")
            };
            case(command, label, args)
        })
        .collect()
}

/// The inputs of later cases that no case writes: a path graph, meshes to import, pairs.
fn prepare(places: &Places) {
    places.prepare("pth generate {tmp}/demo/demo.lyt -o {tmp}/demo.pth");
    places.prepare("export {tmp}/demo/demo_a.wok -o {tmp}/in-demo_a.obj");
    places.prepare("export {tmp}/demo -o {tmp}/in-demo.glb");
    places.prepare("export {first:trx} -o {tmp}/in-trx.obj");
    let pairs = "1.5,1.5 18.5,16.5\n1.5,1.5 100,100\n";
    std::fs::write(places.tmp.join("pairs.txt"), pairs).unwrap();
}

/// `info` and `check` of the demo area, the module and one corpus file per format.
fn info_check_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (label, input) in [
        ("demo", "{tmp}/demo"),
        ("demo.lyt", "{tmp}/demo/demo.lyt"),
        ("demo_a.wok", "{tmp}/demo/demo_a.wok"),
        ("demo.vis", "{tmp}/demo/demo.vis"),
        ("module", "{tmp}/module"),
        ("module.mod", "{tmp}/module.mod"),
    ] {
        cases.push(case("info", label, &format!("{input} --json")));
    }
    for format in INFO_FORMATS {
        cases.push(case("info", format, &format!("{{first:{format}}} --json")));
    }
    for (label, input) in [
        ("demo", "{tmp}/demo"),
        ("module", "{tmp}/module"),
        ("module.mod", "{tmp}/module.mod"),
    ] {
        cases.push(case("check", label, &format!("{input} --json")));
    }
    for format in INFO_FORMATS.iter().chain(&CHECK_ONLY_FORMATS) {
        cases.push(case("check", format, &format!("{{first:{format}}} --json")));
    }
    cases
}

/// What a case printed: its exit code and its JSON values.
struct Ran {
    code: i32,
    values: Vec<Value>,
}

/// Runs a case; its exit code must be 0 or 1 (a check that finds an error, a path not
/// found) and its output JSON.
fn run_case(c: &Case, places: &Places) -> Ran {
    let args: Vec<OsString> = c.args.iter().map(|a| places.expand(a)).collect();
    let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
    let (code, stdout, stderr) = run(&refs);
    assert!(
        code == 0 || code == 1,
        "{}: exit {code}: {stderr}",
        c.name()
    );
    let parse = |s: &str| {
        serde_json::from_str::<Value>(s)
            .unwrap_or_else(|e| panic!("{}: not JSON ({e}): {s}\n{stderr}", c.name()))
    };
    let values = match c.shape {
        Shape::Value => vec![parse(&stdout)],
        Shape::Lines(_) => {
            let lines: Vec<Value> = stdout.lines().map(parse).collect();
            assert!(lines.len() >= 2, "{}: {} JSON lines", c.name(), lines.len());
            lines
        }
    };
    Ran { code, values }
}

/// Runs `cases` on every core; the results in the cases' order.
fn run_all(cases: &[Case], places: &Places) -> Vec<Ran> {
    let next = AtomicUsize::new(0);
    let done: Vec<Mutex<Option<Ran>>> = cases.iter().map(|_| Mutex::new(None)).collect();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(c) = cases.get(i) else { break };
                    *done[i].lock().unwrap() = Some(run_case(c, places));
                }
            });
        }
    });
    done.into_iter()
        .map(|m| m.into_inner().unwrap().expect("every case ran"))
        .collect()
}

/// Key path → the JSON types seen there.
type Keys = BTreeMap<String, BTreeSet<&'static str>>;

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Records `v` at `path` (`""` for the root, written `.`) and everything under it; the
/// objects at `maps` are data maps (`PATH{*}`).
fn walk(v: &Value, path: &str, maps: &[&str], keys: &mut Keys) {
    let at = if path.is_empty() { "." } else { path };
    keys.entry(at.to_string()).or_default().insert(type_name(v));
    match v {
        Value::Object(m) if maps.contains(&path) => {
            for x in m.values() {
                walk(x, &format!("{path}{{*}}"), maps, keys);
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                walk(x, &format!("{path}.{k}"), maps, keys);
            }
        }
        Value::Array(a) => {
            for x in a {
                walk(x, &format!("{path}[]"), maps, keys);
            }
        }
        _ => {}
    }
}

/// The key paths of a case's values.
fn case_keys(c: &Case, ran: &Ran) -> Keys {
    let maps: Vec<&str> = DATA_MAPS
        .iter()
        .filter(|(command, _)| *command == c.command)
        .map(|(_, path)| *path)
        .collect();
    let mut keys = Keys::new();
    for v in &ran.values {
        walk(v, "", &maps, &mut keys);
    }
    keys
}

/// `CASE: PATH TYPES`, each path's types the union over its command's cases, sorted.
fn key_lines(cases: &[Case], keys: &[Keys]) -> Vec<String> {
    let mut by_command: BTreeMap<&str, Keys> = BTreeMap::new();
    for (c, k) in cases.iter().zip(keys) {
        let union = by_command.entry(c.command).or_default();
        for (path, types) in k {
            union.entry(path.clone()).or_default().extend(types);
        }
    }
    let mut lines = Vec::new();
    for (c, k) in cases.iter().zip(keys) {
        for path in k.keys() {
            let types: Vec<&str> = by_command[c.command][path].iter().copied().collect();
            lines.push(format!("{}: {path} {}", c.name(), types.join("|")));
        }
    }
    lines.sort();
    lines
}

/// `CASE: exit N: areakit ARGS`, sorted.
fn case_lines(cases: &[Case], ran: &[Ran]) -> Vec<String> {
    let quote = |a: &String| {
        if a.contains(' ') {
            format!("'{a}'")
        } else {
            a.clone()
        }
    };
    let mut lines: Vec<String> = cases
        .iter()
        .zip(ran)
        .map(|(c, r)| {
            let args: Vec<String> = c.args.iter().map(quote).collect();
            format!("{}: exit {}: areakit {}", c.name(), r.code, args.join(" "))
        })
        .collect();
    lines.sort();
    lines
}

/// `areakit WORDS --help`.
fn help(words: &[String]) -> String {
    let mut args: Vec<&OsStr> = words.iter().map(OsStr::new).collect();
    args.push(OsStr::new("--help"));
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "areakit {} --help: {stderr}", words.join(" "));
    stdout
}

/// Every command's words (`pth check`), from the `Commands:` lists of the help pages.
fn commands(prefix: &[String]) -> Vec<Vec<String>> {
    let page = help(prefix);
    let names: Vec<String> = page
        .lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // A name is indented two spaces; a wrapped description, more.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(String::from)
        .collect();
    if names.is_empty() {
        return vec![prefix.to_vec()];
    }
    names
        .iter()
        .flat_map(|n| commands(&[prefix, std::slice::from_ref(n)].concat()))
        .collect()
}

/// `json: COMMAND`, `no json: COMMAND` (from its help page), `json lines: COMMAND FLAG` (the
/// cases that print JSON lines), sorted; every command with `--json` has a case, and every
/// case's command has `--json`.
fn command_lines(cases: &[Case]) -> Vec<String> {
    let mut lines = Vec::new();
    for words in commands(&[]) {
        // An option's line (not a wrapped description or an example) names `--json`.
        let json = help(&words).lines().any(|l| {
            l.len() - l.trim_start().len() <= 6 && l.split_whitespace().next() == Some("--json")
        });
        let command = words.join(" ");
        assert_eq!(
            json,
            cases.iter().any(|c| c.command == command),
            "{command}: --json {json}, but a case of it in this test: {}",
            !json
        );
        lines.push(format!(
            "{}: {command}",
            if json { "json" } else { "no json" }
        ));
    }
    for c in cases {
        if let Shape::Lines(flag) = c.shape {
            lines.push(format!("json lines: {} {flag}", c.command));
        }
    }
    lines.sort();
    lines.dedup();
    lines
}

/// The golden file's text.
fn golden_text(commands: &[String], cases: &[String], keys: &[String]) -> String {
    let mut text = String::from(
        "# The shape of every areakit command's --json output: tests/integration/json_keys.rs.\n\
         # Rewritten by: AREAKIT_BLESS=1 cargo test --test integration json_keys\n",
    );
    for (section, lines) in [("commands", commands), ("cases", cases), ("keys", keys)] {
        text.push_str(&format!("[{section}]\n"));
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
    }
    text
}

/// Panics with the lines of `want` missing from `got` and the extra ones.
fn compare(want: &str, got: &str, golden: &Path) {
    if want == got {
        return;
    }
    let (w, g): (BTreeSet<&str>, BTreeSet<&str>) = (want.lines().collect(), got.lines().collect());
    let mut report = String::new();
    for l in w.difference(&g) {
        report.push_str(&format!("- {l}\n"));
    }
    for l in g.difference(&w) {
        report.push_str(&format!("+ {l}\n"));
    }
    if report.is_empty() {
        report.push_str("(the same lines in another order)\n");
    }
    panic!(
        "the --json output differs from {}\n(- missing from the output, + not in the golden file)\n{report}\
         If the change is intended: AREAKIT_BLESS=1 cargo test --test integration json_keys",
        golden.display()
    );
}

#[test]
fn every_commands_json_keys_match_the_golden_file() {
    let started = std::time::Instant::now();
    let places = Places {
        corpus: common::corpus_dir(),
        repo: PathBuf::from(env!("CARGO_MANIFEST_DIR")),
        tmp: std::env::temp_dir().join(format!("areakit-json-keys-{}", std::process::id())),
    };
    let _ = std::fs::remove_dir_all(&places.tmp);
    std::fs::create_dir_all(&places.tmp).unwrap();

    let setup = table(SETUP);
    let mut ran = run_all(&setup, &places);
    prepare(&places);
    let rest: Vec<Case> = info_check_cases()
        .into_iter()
        .chain(table(CASE_TABLE))
        .collect();
    ran.extend(run_all(&rest, &places));
    let cases: Vec<Case> = setup.into_iter().chain(rest).collect();
    std::fs::remove_dir_all(&places.tmp).unwrap();

    assert_eq!(cases.len(), CASES, "cases run");
    let names: BTreeSet<String> = cases.iter().map(Case::name).collect();
    assert_eq!(names.len(), cases.len(), "case names are unique");
    let keys: Vec<Keys> = cases
        .iter()
        .zip(&ran)
        .map(|(c, r)| case_keys(c, r))
        .collect();
    let key_lines = key_lines(&cases, &keys);
    let text = golden_text(
        &command_lines(&cases),
        &case_lines(&cases, &ran),
        &key_lines,
    );
    eprintln!(
        "json_keys: {} cases, {} key lines, {:.1} s",
        cases.len(),
        key_lines.len(),
        started.elapsed().as_secs_f64()
    );
    let golden = places.repo.join(GOLDEN);
    if std::env::var_os("AREAKIT_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        std::fs::write(&golden, &text).unwrap();
        eprintln!("json_keys: wrote {}", golden.display());
        return;
    }
    let want = std::fs::read_to_string(&golden).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (AREAKIT_BLESS=1 cargo test --test integration json_keys writes it)",
            golden.display()
        )
    });
    compare(&want, &text, &golden);
}
