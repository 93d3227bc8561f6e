//! The records `areakit build` writes (ARE, GIT, IFO, kit door templates renamed) against the
//! game's own files in the corpus, and a module made of them and a kit room, assembled and
//! checked as `check` does.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io;

use areakit_area::build::records::{
    AreaSpec, DoorSpec, ModuleSpec, TargetGame, make_are, make_git, make_ifo, rename_utd,
};
use areakit_area::install::Capsule;
use areakit_area::module::{self, Module};
use areakit_area::resources::{Resource, Resources, resource_key};
use areakit_formats::gff::views::{AreMap, Utd};
use areakit_formats::gff::{self, Gff, Struct, Value, raw};
use areakit_formats::{Severity, bwm, lyt};

/// Fields of the corpus records that PyKotor's `dismantle_are`/`dismantle_git`/`dismantle_ifo`
/// do not write, so a built record need not carry them either: the one swoop-race area's
/// `MiniGame` struct, per-room `PartSounds`, and the `KTInfo*` fields KotOR Tool adds to the
/// files it saves.
const NOT_WRITTEN: [&str; 5] = [
    "MiniGame",
    "Rooms[].PartSounds",
    "KTInfoVersion",
    "KTInfoDate",
    "KTGameVerIndex",
];

/// The lists a built record fills (a room per LYT room, a door per connection, its one area);
/// the element fields of every other list (creatures, waypoints, ...) are the builder's to
/// leave out, as it writes those lists empty.
const FILLED_LISTS: [&str; 3] = ["Rooms[]", "Door List[]", "Mod_Area_list[]"];

/// Every field path of a struct (`Map.MapZoom`, `Door List[].Tag`, list elements merged) with
/// its GFF type id.
fn paths(s: &Struct, prefix: &str, out: &mut BTreeMap<String, u32>) {
    for f in &s.fields {
        let path = format!("{prefix}{}", f.label);
        out.insert(path.clone(), f.value.type_id());
        match &f.value {
            Value::Struct(c) => paths(c, &format!("{path}."), out),
            Value::List(l) => {
                for e in l {
                    paths(e, &format!("{path}[]."), out);
                }
            }
            _ => {}
        }
    }
}

/// Whether a path of a game file is one a built record must carry.
fn compared(path: &str) -> bool {
    if NOT_WRITTEN.iter().any(|n| {
        path == *n || path.starts_with(&format!("{n}.")) || path.starts_with(&format!("{n}[]"))
    }) {
        return false;
    }
    match path.rfind("[].") {
        None => true,
        Some(i) => FILLED_LISTS.contains(&&path[..i + 2]),
    }
}

/// Which game a corpus record is from: KotOR 2's AREs carry the `Dirty*` fields, its GIT
/// doors and placeables `TweakColor`. (An IFO is the same in both; a GIT without doors or
/// placeables reads as KotOR 1, whose fields it then has.)
fn game_of(kind: &str, fields: &BTreeMap<String, u32>) -> TargetGame {
    let k2 = match kind {
        "are" => fields.contains_key("DirtyARGBOne"),
        "git" => {
            fields.contains_key("Door List[].TweakColor")
                || fields.contains_key("Placeable List[].TweakColor")
        }
        _ => false,
    };
    if k2 { TargetGame::K2 } else { TargetGame::K1 }
}

fn built(kind: &str, game: TargetGame) -> Gff {
    match kind {
        "are" => make_are(&AreaSpec {
            resref: "akrecords".into(),
            name: "Records".into(),
            lighting: [0.5, 0.5, 0.5],
            map: Some(AreMap::default()),
            rooms: vec!["akrecords_room0".into()],
            game,
        }),
        "git" => make_git(
            &[DoorSpec {
                template: "akrecords_dor00".into(),
                tag: "akrecords_dor00".into(),
                position: [1.0, 2.0, 0.0],
                bearing: 0.5,
                linked: true,
            }],
            game,
        ),
        _ => make_ifo(&ModuleSpec {
            resref: "akrecords".into(),
            name: "Records".into(),
            entry: [1.0, 2.0, 0.0],
            entry_direction: [0.0, 1.0],
            game,
        }),
    }
}

/// Every ARE, GIT and IFO of the corpus: loose files and capsule members, with a name.
fn corpus_records() -> Vec<(String, String, Vec<u8>)> {
    let mut out = Vec::new();
    let kind_of = |name: &str| {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        ["are", "git", "ifo"].contains(&ext.as_str()).then_some(ext)
    };
    for path in areakit_testkit::corpus_files(&["gff"]) {
        let name = path.to_string_lossy().into_owned();
        if let Some(kind) = kind_of(&name) {
            out.push((kind, name, std::fs::read(&path).unwrap()));
        }
    }
    for path in areakit_testkit::corpus_files(&["erf", "rim"]) {
        let Ok(capsule) = Capsule::open(&path) else {
            continue; // PyKotor's deliberately corrupted capsules
        };
        for (i, m) in capsule.members().iter().enumerate() {
            let file = m.file_name();
            if let Some(kind) = kind_of(&file) {
                let name = format!("{}/{file}", path.display());
                out.push((kind, name, capsule.data(i).to_vec()));
            }
        }
    }
    out
}

#[test]
fn built_records_carry_every_field_of_the_games_own_with_its_type() {
    // (kind, game) → files compared; and every path the game's files of that kind have.
    let mut compared_files: BTreeMap<(String, bool), usize> = BTreeMap::new();
    let mut seen: BTreeMap<(String, bool), BTreeMap<String, u32>> = BTreeMap::new();
    // (kind, game, path) → what ours has or lacks, in how many files, the first of them.
    let mut missing: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for (kind, name, data) in corpus_records() {
        let real = gff::read(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut fields = BTreeMap::new();
        paths(real.root(), "", &mut fields);
        let game = game_of(&kind, &fields);
        let mut ours = BTreeMap::new();
        let ours_gff = built(&kind, game);
        assert_eq!(ours_gff.file_type, real.file_type, "{name}");
        paths(ours_gff.root(), "", &mut ours);
        for (path, &ty) in fields.iter().filter(|(p, _)| compared(p)) {
            let problem = match ours.get(path) {
                Some(&t) if t == ty => None,
                Some(&t) => Some(format!(
                    "{kind} {game:?} {path}: ours {}, the game's {}",
                    raw::type_name(t),
                    raw::type_name(ty)
                )),
                None => Some(format!("{kind} {game:?} {path}: ours lacks it")),
            };
            if let Some(p) = problem {
                let e = missing.entry(p).or_insert((0, corpus_name(&name)));
                e.0 += 1;
            }
            seen.entry((kind.clone(), game == TargetGame::K2))
                .or_default()
                .insert(path.clone(), ty);
        }
        *compared_files
            .entry((kind, game == TargetGame::K2))
            .or_default() += 1;
    }
    assert!(
        missing.is_empty(),
        "fields the game's files have and ours lack:\n{}",
        missing
            .iter()
            .map(|(p, (n, first))| format!("{p} ({n} files, first {first})"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    // And the other way: every field ours carry is one the game's files of that game carry
    // (KotOR 1: the 75 K1CP module capsules; KotOR 2: PyKotor's test files).
    for ((kind, k2), real) in &seen {
        let game = if *k2 { TargetGame::K2 } else { TargetGame::K1 };
        let mut ours = BTreeMap::new();
        paths(built(kind, game).root(), "", &mut ours);
        let invented: Vec<_> = ours.keys().filter(|p| !real.contains_key(*p)).collect();
        assert!(
            invented.is_empty(),
            "{kind} {game:?}: fields no game file has: {invented:?}"
        );
    }
    // Fields compared (root, nested struct and filled-list element fields together).
    let sizes: Vec<_> = seen
        .iter()
        .map(|((k, k2), f)| (k.as_str(), *k2, f.len()))
        .collect();
    assert_eq!(
        sizes,
        [
            ("are", false, 60 + 11 + 3),
            ("are", true, 74 + 11 + 5),
            ("git", false, 12 + 9 + 10),
            ("git", true, 12 + 9 + 12),
            ("ifo", false, 43 + 1),
        ]
    );
    let count = |k: &str, g| {
        compared_files
            .get(&(k.to_string(), g == TargetGame::K2))
            .copied()
            .unwrap_or(0)
    };
    // K1: 75 K1CP capsules, capsule.rim (m13aa); K2: capsule.mod (001ebo), tat001.are,
    // test.are; GITs: the loose test GITs classed by their doors' fields.
    assert_eq!(
        [
            count("are", TargetGame::K1),
            count("are", TargetGame::K2),
            count("git", TargetGame::K1),
            count("git", TargetGame::K2),
            count("ifo", TargetGame::K1),
        ],
        [76, 3, 77, 4, 77],
        "AREs K1/K2, GITs K1/K2, IFOs compared: {compared_files:?}"
    );
}

fn kit_dir() -> std::path::PathBuf {
    areakit_testkit::corpus_dir()
        .join("kotor/openkotor_pykotor/Tools/HolocronToolset/src/toolset/kits")
}

#[test]
fn kit_door_templates_rename_and_keep_every_other_field() {
    let files = areakit_testkit::corpus_files(&["kit-gff"]);
    let utds: Vec<_> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "utd"))
        .collect();
    assert_eq!(
        utds.len(),
        4,
        "door0_k1/k2.utd of blackvulkar and hiddenbek"
    );
    for path in utds {
        let data = std::fs::read(path).unwrap();
        let kit = gff::read(&data).unwrap();
        let renamed = rename_utd(&kit, "akbuild_dor07");
        let bytes = gff::write(&renamed).unwrap();
        let back = gff::read(&bytes).unwrap();
        assert_eq!(back, renamed, "{}", path.display());
        assert!(gff::validate(&back).is_empty(), "{}", path.display());
        let (before, after) = (Utd::from_gff(&kit), Utd::from_gff(&back));
        assert_eq!(
            after.tag.map(|t| t.to_string()).as_deref(),
            Some("akbuild_dor07")
        );
        assert_eq!(
            after.template.map(|t| t.to_string()).as_deref(),
            Some("akbuild_dor07")
        );
        assert_ne!(before.template, Some("akbuild_dor07".into()));
        assert_eq!(after.generic_type, before.generic_type);
        assert!(
            after.generic_type.is_some(),
            "the kit door names its genericdoors.2da row"
        );
        let (a, b) = (kit.root(), back.root());
        assert_eq!(a.fields.len(), b.fields.len());
        let mut kept = 0;
        for (x, y) in a.fields.iter().zip(&b.fields) {
            assert_eq!(
                x.label,
                y.label,
                "{}: the fields keep their order",
                path.display()
            );
            if !x.label.is("Tag") && !x.label.is("TemplateResRef") {
                assert_eq!(x, y, "{}: {} kept", path.display(), x.label);
                kept += 1;
            }
        }
        assert_eq!(kept, a.fields.len() - 2);
        // Unchanged but for two strings: the writer kept the kit file's layout where it could.
        assert_eq!(back.file_type, *b"UTD ");
    }
}

/// Resources held in memory, found as the game finds them (name and type, any case).
struct Memory(HashMap<String, Vec<u8>>);

impl Memory {
    fn put(&mut self, resref: &str, ext: &str, data: Vec<u8>) {
        self.0.insert(resource_key(resref, ext), data);
    }
}

impl Resources for Memory {
    fn get(&self, resref: &str, ext: &str) -> io::Result<Option<Resource>> {
        let key = resource_key(resref, ext);
        Ok(self.0.get(&key).map(|d| Resource {
            data: d.clone(),
            origin: format!("memory/{key}"),
        }))
    }
}

/// The hooks of a kit component: (x, y, z, rotation in degrees).
fn hooks(kit: &str, component: &str) -> Vec<[f32; 4]> {
    let text = std::fs::read_to_string(kit_dir().join(format!("{kit}.json"))).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let c = json["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == component)
        .unwrap();
    c["doorhooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let f = |k: &str| h[k].as_f64().unwrap() as f32;
            [f("x"), f("y"), f("z"), f("rotation")]
        })
        .collect()
}

/// One kit room at the origin with a door at each hook, the entry point on its first walkable
/// face: the records alone make a module that assembles with its doors resolved to the
/// renamed templates and raises no error.
fn kit_module(entry_offset: [f32; 3]) -> (Memory, Vec<DoorSpec>, [f32; 3]) {
    let (kit, component, module) = ("blackvulkar", "hallway_1", "akrecords");
    let room = format!("{module}_room0");
    let mut res = Memory(HashMap::new());
    let mut layout = lyt::Lyt::default();
    layout
        .rooms
        .push(lyt::Placement::new(room.clone(), [0.0; 3]));
    res.put(module, "lyt", lyt::write(&layout).unwrap());
    let wok = std::fs::read(kit_dir().join(kit).join(format!("{component}.wok"))).unwrap();
    let walk = bwm::read(&wok).unwrap();
    assert!(walk.walkable_face_count() > 0);
    // The centroid of the first face (walkable faces come first), moved by the offset.
    let corners = walk.faces[0].vertices.map(|v| walk.vertices[v as usize]);
    let entry: [f32; 3] =
        std::array::from_fn(|k| corners.iter().map(|c| c[k]).sum::<f32>() / 3.0 + entry_offset[k]);
    res.put(&room, "wok", wok);
    let utd = gff::read(&std::fs::read(kit_dir().join(kit).join("door0_k1.utd")).unwrap()).unwrap();
    let mut doors = Vec::new();
    for (i, h) in hooks(kit, component).iter().enumerate() {
        let resref = format!("{module}_dor{i:02}");
        res.put(
            &resref,
            "utd",
            gff::write(&rename_utd(&utd, &resref)).unwrap(),
        );
        doors.push(DoorSpec {
            template: resref.clone(),
            tag: resref,
            position: [h[0], h[1], h[2]],
            bearing: h[3].to_radians(),
            linked: false,
        });
    }
    assert_eq!(doors.len(), 2, "hallway_1 has two hooks");
    let are = make_are(&AreaSpec {
        resref: module.into(),
        name: "Records".into(),
        lighting: [0.6, 0.6, 0.6],
        map: None,
        rooms: vec![room.clone()],
        game: TargetGame::K1,
    });
    res.put(module, "are", gff::write(&are).unwrap());
    res.put(
        module,
        "git",
        gff::write(&make_git(&doors, TargetGame::K1)).unwrap(),
    );
    let ifo = make_ifo(&ModuleSpec {
        resref: module.into(),
        name: "Records".into(),
        entry,
        entry_direction: [0.0, 1.0],
        game: TargetGame::K1,
    });
    res.put("module", "ifo", gff::write(&ifo).unwrap());
    (res, doors, entry)
}

#[test]
fn a_module_of_built_records_assembles_and_checks_without_errors() {
    let (res, doors, entry) = kit_module([0.0; 3]);
    let m = Module::assemble(&res, None).expect("the IFO names the area");
    assert_eq!(m.area.resref, "akrecords");
    assert_eq!(m.ifo.as_ref().unwrap().value.entry_position, Some(entry));
    assert_eq!(m.are.as_ref().unwrap().value.rooms.len(), 1);
    assert_eq!(m.objects.len(), doors.len());
    for (o, d) in m.objects.iter().zip(&doors) {
        assert_eq!(o.template.as_deref(), Some(d.template.as_str()));
        assert_eq!(o.object.tag.as_deref(), Some(d.tag.as_str()));
        assert_eq!(o.object.position, d.position);
        assert!(!o.leads_out, "a built door is no module transition");
    }
    let findings = module::check(&m);
    let errors: Vec<_> = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // What is left are warnings about what the records do not hold: genericdoors.2da (the
    // game's) and, in this one-room area, doors on no room link.
    let codes: BTreeSet<_> = findings.iter().map(|f| f.code.to_string()).collect();
    let allowed = ["object-appearance-unknown", "object-door-far-from-link"];
    assert!(
        codes.iter().all(|c| allowed.contains(&c.as_str())),
        "{findings:#?}"
    );

    // The same module with its entry point off the room: the check sees it.
    let (res, _, _) = kit_module([500.0, 500.0, 0.0]);
    let m = Module::assemble(&res, None).unwrap();
    let codes: Vec<_> = module::check(&m)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.code.to_string())
        .collect();
    assert_eq!(codes, ["module-entry-off-ground"]);
}

/// A corpus path without the corpus folder.
fn corpus_name(path: &str) -> String {
    let dir = areakit_testkit::corpus_dir();
    let dir = dir.to_string_lossy();
    path.strip_prefix(dir.as_ref())
        .map_or(path, |p| p.trim_start_matches('/'))
        .to_string()
}
