//! A module folder for tests and the Python agreement test: the demo area with a module
//! around it, assembled from corpus parts (a UTP, a UTD and a PWK of the K1 Community Patch,
//! an IFO of PyKotor's tests) and hand-made 2DAs, GIT and DWK. Its GIT places placeables (one
//! on the straight walk from (1.5, 1.5) to (18.5, 16.5)) and doors.

use std::path::{Path, PathBuf};

use areakit_app::formats::bwm;
use areakit_app::formats::gff::{self, Gff, Label, Struct, Text, Value};
use areakit_app::formats::twoda::{self, TwoDa};

fn corpus_file(formats: &[&str], name: &str) -> PathBuf {
    super::corpus_files(formats)
        .into_iter()
        .find(|p| p.file_name().is_some_and(|n| n == name))
        .unwrap_or_else(|| panic!("{name} is not in the corpus"))
}

fn label(s: &str) -> Label {
    Label::new(s).unwrap()
}

fn resref(s: &str) -> Value {
    Value::ResRef(Text::from_bytes(s.as_bytes().to_vec()))
}

fn read_gff(p: &Path) -> Gff {
    gff::read(&std::fs::read(p).unwrap()).unwrap()
}

fn set(g: &mut Gff, l: &str, v: Value) {
    g.root_mut().set(label(l), v);
}

fn instance(id: u32, template: &str, p: [f32; 3], bearing: f32, tag: &str) -> Struct {
    Struct::new(id)
        .with(label("TemplateResRef"), resref(template))
        .with(
            label("Tag"),
            Value::String(Text::from_bytes(tag.as_bytes().to_vec())),
        )
        .with(label("X"), Value::Float(p[0]))
        .with(label("Y"), Value::Float(p[1]))
        .with(label("Z"), Value::Float(p[2]))
        .with(label("Bearing"), Value::Float(bearing))
}

fn door_dwk() -> Vec<u8> {
    bwm::write(&super::box_walkmesh(1.0, 0.1, 2.5)).unwrap()
}

fn table(rows: usize, set_rows: &[(usize, &str)]) -> Vec<u8> {
    let mut t = TwoDa::new(["label", "modelname"]);
    for i in 0..rows {
        let model = set_rows
            .iter()
            .find(|(r, _)| *r == i)
            .map_or("", |(_, m)| *m);
        t.add_row(i.to_string(), [format!("row{i}"), model.to_string()]);
    }
    twoda::write_binary(&t).unwrap()
}

/// The demo area's files (no module resources).
const AREA_FILES: [&str; 5] = [
    "demo.lyt",
    "demo.vis",
    "demo_a.wok",
    "demo_b.wok",
    "demo_c.wok",
];

pub fn copy_area(from: &Path, to: &Path) {
    for name in AREA_FILES {
        std::fs::copy(from.join(name), to.join(name)).unwrap();
    }
}

/// The module folder: the demo area (`demo`), the corpus templates and PWK, the tables, the
/// GIT, the IFO. Returns the folder and the number of corpus files used.
pub fn build_module(dir: &Path, entry: [f32; 3]) -> usize {
    let demo = dir.join("demo-src");
    areakit_app::demo::run(&demo).unwrap();
    let module = dir.join("mod");
    std::fs::create_dir_all(&module).unwrap();
    copy_area(&demo, &module);
    // Corpus parts.
    let utp_path = corpus_file(&["gff"], "cp_m26ae_fccage.utp");
    let utd_path = corpus_file(&["gff"], "cp_man27aa_dr07.utd");
    let ifo_path = corpus_file(&["gff"], "test.ifo");
    let pwk_path = corpus_file(&["pwk"], "plc_fccage2.pwk");
    std::fs::copy(&pwk_path, module.join("plc_fccage2.pwk")).unwrap();

    let mut utp = read_gff(&utp_path);
    let appearance = utp.root().get_int("Appearance").expect("a UTP Appearance") as usize;
    set(&mut utp, "Useable", Value::Byte(1));
    std::fs::write(module.join("cage.utp"), gff::write(&utp).unwrap()).unwrap();
    // The same cage with an appearance no table row has, and one whose model has no PWK.
    set(&mut utp, "Appearance", Value::Dword(9999));
    std::fs::write(module.join("oddcage.utp"), gff::write(&utp).unwrap()).unwrap();
    set(&mut utp, "Appearance", Value::Dword(appearance as u32 + 1));
    std::fs::write(module.join("ghost.utp"), gff::write(&utp).unwrap()).unwrap();
    std::fs::write(
        module.join("placeables.2da"),
        table(
            appearance + 2,
            &[(appearance, "plc_fccage2"), (appearance + 1, "plc_nowalk")],
        ),
    )
    .unwrap();

    let utd = read_gff(&utd_path);
    let generic = utd
        .root()
        .get_int("GenericType")
        .expect("a UTD GenericType") as usize;
    std::fs::copy(&utd_path, module.join("door1.utd")).unwrap();
    std::fs::write(
        module.join("genericdoors.2da"),
        table(generic + 1, &[(generic, "door_test")]),
    )
    .unwrap();
    std::fs::write(module.join("door_test0.dwk"), door_dwk()).unwrap();

    let mut git = Gff::new(*b"GIT ");
    git.root.push(
        label("Placeable List"),
        Value::List(vec![
            // On the straight walk from (1.5, 1.5) to (18.5, 16.5).
            instance(9, "cage", [12.0, 9.8, 0.0], 0.0, "cage_in_the_way"),
            // Turned to face the north wall of room a: its use hooks stand beyond it.
            instance(
                9,
                "cage",
                [5.0, 9.5, 0.0],
                std::f32::consts::PI,
                "cage_at_the_wall",
            ),
            instance(9, "nosuch", [2.0, 8.0, 0.0], 0.0, "no_template"),
            instance(9, "oddcage", [2.0, 7.0, 0.0], 0.0, "odd_appearance"),
            instance(9, "ghost", [2.0, 6.0, 0.0], 0.0, "no_walkmesh"),
        ]),
    );
    git.root.push(
        label("Door List"),
        Value::List(vec![
            // On the doorway between rooms a and b (x = 10, y 4..6), leaf across it.
            instance(
                8,
                "door1",
                [10.0, 5.0, 0.0],
                std::f32::consts::FRAC_PI_2,
                "door_ab",
            ),
            // In the middle of room a: no room link near it.
            instance(8, "door1", [3.0, 7.0, 0.0], 0.0, "door_nowhere"),
        ]),
    );
    std::fs::write(module.join("demo.git"), gff::write(&git).unwrap()).unwrap();

    let mut ifo = read_gff(&ifo_path);
    set(&mut ifo, "Mod_Entry_Area", resref("demo"));
    set(&mut ifo, "Mod_Entry_X", Value::Float(entry[0]));
    set(&mut ifo, "Mod_Entry_Y", Value::Float(entry[1]));
    set(&mut ifo, "Mod_Entry_Z", Value::Float(entry[2]));
    std::fs::write(module.join("module.ifo"), gff::write(&ifo).unwrap()).unwrap();
    4
}
