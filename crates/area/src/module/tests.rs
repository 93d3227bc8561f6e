//! Module assembly on hand-made resources held in memory.

use std::collections::HashMap;
use std::f32::consts::FRAC_PI_2;

use areakit_formats::bwm::{Bwm, Face, Material, WalkmeshType};
use areakit_formats::gff::{Gff, Label, Struct, Text, Value};
use areakit_formats::twoda::TwoDa;

use super::*;
use crate::resources::{Resource, resource_key};

/// Resources held in memory, by `name.ext`.
#[derive(Default)]
struct Mem(HashMap<String, Vec<u8>>);

impl Mem {
    fn put(&mut self, name: &str, ext: &str, data: Vec<u8>) {
        self.0.insert(resource_key(name, ext), data);
    }
}

impl Resources for Mem {
    fn get(&self, resref: &str, ext: &str) -> std::io::Result<Option<Resource>> {
        let key = resource_key(resref, ext);
        Ok(self.0.get(&key).map(|d| Resource {
            data: d.clone(),
            origin: format!("mem/{key}"),
        }))
    }
}

fn label(s: &str) -> Label {
    Label::new(s).unwrap()
}

fn resref(s: &str) -> Value {
    Value::ResRef(Text::from_bytes(s.as_bytes().to_vec()))
}

/// A square room `[x0, x0 + 4] × [0, 4]` of two stone triangles; `link` puts a transition on
/// the side at `x = x0 + 4` (`Some((face, side, room))`).
fn room(x0: f32, links: &[(usize, usize, i32)]) -> Vec<u8> {
    let m = Bwm {
        walkmesh_type: WalkmeshType::Area,
        vertices: vec![
            [x0, 0.0, 0.0],
            [x0 + 4.0, 0.0, 0.0],
            [x0 + 4.0, 4.0, 0.0],
            [x0, 4.0, 0.0],
        ],
        faces: vec![
            Face {
                vertices: [0, 1, 2],
                material: Material::Stone,
            },
            Face {
                vertices: [0, 2, 3],
                material: Material::Stone,
            },
        ],
        ..Bwm::default()
    };
    let mut t = vec![[-1i32; 3]; 2];
    for &(f, s, r) in links {
        t[f][s] = r;
    }
    let m = crate::walkmesh::rebuild_with_transitions(&m, &t).unwrap();
    areakit_formats::bwm::write(&m).unwrap()
}

/// A 1 × 0.5 m box walkmesh (local space, centred on the origin) with use hooks.
fn box_pwk(hooks: [[f32; 3]; 2]) -> Vec<u8> {
    let (hx, hy) = (0.5, 0.25);
    let mut m = Bwm {
        walkmesh_type: WalkmeshType::PlaceableOrDoor,
        ..Bwm::default()
    };
    for z in [0.0, 1.0] {
        for (x, y) in [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)] {
            m.vertices.push([x, y, z]);
        }
    }
    let quads = [
        [4, 5, 6, 7],
        [0, 1, 5, 4],
        [1, 2, 6, 5],
        [2, 3, 7, 6],
        [3, 0, 4, 7],
    ];
    for q in quads {
        for t in [[q[0], q[1], q[2]], [q[0], q[2], q[3]]] {
            m.faces.push(Face {
                vertices: t,
                material: Material::NonWalk,
            });
        }
    }
    m.normals = vec![[0.0; 3]; m.faces.len()];
    m.distances = vec![0.0; m.faces.len()];
    m.relative_use = hooks;
    areakit_formats::bwm::write(&m).unwrap()
}

fn gff_bytes(g: &Gff) -> Vec<u8> {
    areakit_formats::gff::write(g).unwrap()
}

fn utp(appearance: u32, useable: bool) -> Vec<u8> {
    let mut g = Gff::new(*b"UTP ");
    g.root.push(label("Appearance"), Value::Dword(appearance));
    g.root
        .push(label("Useable"), Value::Byte(u8::from(useable)));
    gff_bytes(&g)
}

fn utd(generic_type: u8) -> Vec<u8> {
    let mut g = Gff::new(*b"UTD ");
    g.root.push(label("GenericType"), Value::Byte(generic_type));
    g.root.push(
        label("Tag"),
        Value::String(Text::from_bytes(b"door_tag".to_vec())),
    );
    gff_bytes(&g)
}

fn instance(id: u32, template: &str, p: [f32; 3], bearing: f32) -> Struct {
    Struct::new(id)
        .with(label("TemplateResRef"), resref(template))
        .with(label("X"), Value::Float(p[0]))
        .with(label("Y"), Value::Float(p[1]))
        .with(label("Z"), Value::Float(p[2]))
        .with(label("Bearing"), Value::Float(bearing))
}

fn git(placeables: Vec<Struct>, doors: Vec<Struct>) -> Vec<u8> {
    let mut g = Gff::new(*b"GIT ");
    g.root
        .push(label("Placeable List"), Value::List(placeables));
    g.root.push(label("Door List"), Value::List(doors));
    gff_bytes(&g)
}

fn ifo(area: &str, entry: [f32; 3]) -> Vec<u8> {
    let mut g = Gff::new(*b"IFO ");
    g.root.push(label("Mod_Entry_Area"), resref(area));
    g.root.push(label("Mod_Entry_X"), Value::Float(entry[0]));
    g.root.push(label("Mod_Entry_Y"), Value::Float(entry[1]));
    g.root.push(label("Mod_Entry_Z"), Value::Float(entry[2]));
    gff_bytes(&g)
}

fn table(rows: &[(&str, &str)]) -> Vec<u8> {
    let mut t = TwoDa::new(["label", "modelname"]);
    for (i, (l, m)) in rows.iter().enumerate() {
        t.add_row(i.to_string(), [*l, *m]);
    }
    areakit_formats::twoda::write_binary(&t).unwrap()
}

/// Two rooms side by side (`[0, 8] × [0, 4]`), linked at `x = 4`.
fn base() -> Mem {
    let mut m = Mem::default();
    m.put(
        "t",
        "lyt",
        b"beginlayout\nroomcount 2\nt_a 0 0 0\nt_b 0 0 0\ndonelayout\n".to_vec(),
    );
    // Face 0 of room A is (0,0)-(4,0)-(4,4): side 1 runs along x = 4. Face 1 of room B is
    // (4,0)-(8,4)-(4,4): side 2 runs from (4,4) to (4,0).
    m.put("t_a", "wok", room(0.0, &[(0, 1, 1)]));
    m.put("t_b", "wok", room(4.0, &[(1, 2, 0)]));
    m.put(
        "placeables",
        "2da",
        table(&[("x", ""), ("box", "plc_box"), ("nowalkmesh", "plc_none")]),
    );
    m.put(
        "genericdoors",
        "2da",
        table(&[("a", "x"), ("b", "x"), ("door", "dr")]),
    );
    m.put("crate", "utp", utp(1, true));
    m.put("odd", "utp", utp(7, true));
    m.put("bare", "utp", utp(2, true));
    m.put("door1", "utd", utd(2));
    m.put("dr0", "dwk", box_pwk([[0.0; 3]; 2]));
    m.put("dr1", "dwk", box_pwk([[0.0, 0.6, 0.0], [0.0, -0.6, 0.0]]));
    m.put(
        "plc_box",
        "pwk",
        box_pwk([[0.8, 0.0, 0.0], [0.0, 0.0, 0.0]]),
    );
    m
}

fn codes(f: &[Finding]) -> Vec<&str> {
    let mut c: Vec<&str> = f.iter().map(|f| f.code).collect();
    c.sort_unstable();
    c
}

fn close(a: [f32; 3], b: [f32; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
}

#[test]
fn placement_turns_by_bearing_then_moves_and_places_the_hooks() {
    let mut m = base();
    m.put(
        "t",
        "git",
        git(
            vec![instance(9, "crate", [2.0, 2.0, 0.0], FRAC_PI_2)],
            vec![],
        ),
    );
    let module = Module::assemble(&m, Some("t")).unwrap();
    assert!(module.findings.is_empty(), "{:?}", module.findings);
    assert_eq!(module.objects.len(), 1);
    let o = &module.objects[0];
    assert_eq!(o.object.model, "plc_box");
    assert_eq!(o.object.source, "Placeable List[0]");
    assert_eq!(o.walkmesh_origin.as_deref(), Some("mem/plc_box.pwk"));
    let w = o.walkmesh.as_ref().unwrap();
    assert_eq!(w.triangles.len(), 10);
    // Local (0.5, -0.25, 0) turned a quarter left is (0.25, 0.5, 0); then moved by (2, 2, 0).
    assert!(
        w.triangles
            .iter()
            .flatten()
            .any(|&p| close(p, [2.25, 2.5, 0.0])),
        "{:?}",
        w.triangles
    );
    // The use hook (0.8, 0, 0) → (0, 0.8, 0) → (2, 2.8, 0); the one at the origin is unset.
    assert!(
        close(w.use_points[0], [2.0, 2.8, 0.0]),
        "{:?}",
        w.use_points
    );
    assert_eq!(w.use_set, [true, false]);
    // The same as a quaternion about +z.
    let q = PlacedObject {
        orientation: Orientation::Quaternion([
            0.0,
            0.0,
            (FRAC_PI_2 / 2.0).sin(),
            (FRAC_PI_2 / 2.0).cos(),
        ]),
        ..o.object.clone()
    };
    for p in [[0.5, -0.25, 0.0], [0.8, 0.0, 1.0], [-3.0, 2.0, 0.5]] {
        assert!(close(q.to_area(p), o.object.to_area(p)), "{p:?}");
    }
    // On the ground, outside the box: nothing to report.
    assert!(check(&module).is_empty(), "{:?}", check(&module));
}

#[test]
fn every_finding_on_purpose() {
    let mut m = base();
    m.put(
        "t",
        "git",
        git(
            vec![
                instance(9, "crate", [2.0, 2.0, 0.0], 0.0),
                instance(9, "missing", [1.0, 1.0, 0.0], 0.0),
                instance(9, "odd", [1.0, 1.0, 0.0], 0.0),
                instance(9, "bare", [1.0, 1.0, 0.0], 0.0),
                // The hook at +0.8 x: (7.6, 3, 0) is on the ground, (8.2 + ...) is not.
                instance(9, "crate", [7.6, 1.0, 0.0], 0.0),
                // Its hook (2.8, 2, 0) lands inside the first crate's footprint? No: the
                // first crate spans x 1.5..2.5; this one's hook lands at (2.3, 2.0).
                instance(9, "crate", [1.5, 2.0, 0.0], 0.0),
            ],
            vec![
                instance(8, "door1", [4.0, 2.0, 0.0], FRAC_PI_2),
                instance(8, "door1", [1.0, 3.0, 0.0], 0.0),
                instance(8, "door1", [4.2, 1.0, 0.0], 0.0).with(label("OpenState"), Value::Byte(1)),
            ],
        ),
    );
    m.put("module", "ifo", ifo("t", [50.0, 50.0, 0.0]));
    let module = Module::assemble(&m, None).unwrap();
    assert_eq!(module.area.resref, "t", "the IFO's entry area");
    assert_eq!(
        codes(&module.findings),
        [
            "object-appearance-unknown",
            "object-template-missing",
            "object-walkmesh-missing"
        ],
        "{:#?}",
        module.findings
    );
    let msg = |code: &str| {
        module
            .findings
            .iter()
            .find(|f| f.code == code)
            .unwrap()
            .message
            .clone()
    };
    assert!(msg("object-template-missing").contains("missing.utp"));
    assert!(msg("object-appearance-unknown").contains("row 7"));
    assert!(msg("object-walkmesh-missing").contains("plc_none.pwk"));
    // Doors: the state picks the walkmesh.
    let doors: Vec<&ModuleObject> = module
        .objects
        .iter()
        .filter(|o| o.object.kind == ObjectKind::Door)
        .collect();
    assert_eq!(doors.len(), 3);
    assert_eq!(doors[0].walkmesh_origin.as_deref(), Some("mem/dr0.dwk"));
    assert_eq!(doors[2].walkmesh_origin.as_deref(), Some("mem/dr1.dwk"));
    assert_eq!(doors[2].object.door_state, DoorState::Open1);
    assert_eq!(doors[0].object.tag.as_deref(), Some("door_tag"));

    let all = check(&module);
    let found = codes(&all);
    assert_eq!(
        found,
        [
            "module-entry-off-ground",
            "object-appearance-unknown",
            "object-door-far-from-link",
            "object-template-missing",
            "object-use-point-blocked",
            "object-use-point-blocked",
            "object-use-point-blocked",
            "object-walkmesh-missing",
        ],
        "{all:#?}"
    );
    let blocked: Vec<&Finding> = all
        .iter()
        .filter(|f| f.code == "object-use-point-blocked")
        .collect();
    // The crate at the east wall: its hook (8.4, 1) is off the ground.
    assert!(
        blocked
            .iter()
            .any(|f| f.place.item.as_deref() == Some("Placeable List[4]")
                && f.message.contains("no walkable face")),
        "{blocked:#?}"
    );
    // The crate beside the first: its hook (2.3, 2) is inside the first crate.
    assert!(
        blocked
            .iter()
            .any(|f| f.place.item.as_deref() == Some("Placeable List[5]")
                && f.message.contains("inside")
                && f.message.contains("Placeable List[0]")),
        "{blocked:#?}"
    );
    // The open door at (4.2, 1): its hook (4.2, 1.6) stands inside the closed door at (4, 2).
    assert!(
        blocked
            .iter()
            .any(|f| f.place.item.as_deref() == Some("Door List[2]")),
        "{blocked:#?}"
    );
    let far = all
        .iter()
        .find(|f| f.code == "object-door-far-from-link")
        .unwrap();
    assert_eq!(far.place.item.as_deref(), Some("Door List[1]"));
    let entry = all
        .iter()
        .find(|f| f.code == "module-entry-off-ground")
        .unwrap();
    assert_eq!(entry.severity, areakit_formats::Severity::Error);
    assert_eq!(entry.place.file.as_deref(), Some("mem/module.ifo"));

    // The entry point on the ground: no error.
    m.put("module", "ifo", ifo("t", [6.0, 2.0, 0.0]));
    let module = Module::assemble(&m, None).unwrap();
    assert!(
        !check(&module)
            .iter()
            .any(|f| f.code == "module-entry-off-ground")
    );
}

#[test]
fn missing_tables_and_unreadable_resources_are_findings() {
    let mut m = base();
    m.0.remove("placeables.2da");
    m.put(
        "t",
        "git",
        git(
            vec![
                instance(9, "crate", [2.0, 2.0, 0.0], 0.0),
                instance(9, "crate", [6.0, 2.0, 0.0], 0.0),
            ],
            vec![],
        ),
    );
    m.put("t", "are", b"not a gff".to_vec());
    let module = Module::assemble(&m, Some("t")).unwrap();
    assert_eq!(
        codes(&module.findings),
        ["module-resource-unreadable", "object-appearance-unknown"],
        "{:#?}",
        module.findings
    );
    let missing = module
        .findings
        .iter()
        .find(|f| f.code == "object-appearance-unknown")
        .unwrap();
    assert!(missing.message.contains("placeables.2da") && missing.message.contains("2 object"));
    // The game keeps its tables: without it, what is unknown is no fault of the module.
    assert_eq!(missing.severity, areakit_formats::Severity::Info);
    assert!(module.objects.iter().all(|o| o.walkmesh.is_none()));
}

#[test]
fn no_area_without_ifo_and_the_install_table_decides_walkability() {
    let m = base();
    assert!(matches!(
        Module::assemble(&m, None),
        Err(ModuleError::NoArea(_))
    ));
    assert!(matches!(
        Module::assemble(&m, Some("nope")),
        Err(ModuleError::Area(AreaError::NotFound(_)))
    ));
    let module = Module::assemble(&m, Some("t")).unwrap();
    assert_eq!(module.nav_source().surface.triangles.len(), 4);
    // A surfacemat.2da in which stone (row 4) is not walkable.
    let mut t = TwoDa::new(["label", "walk"]);
    for i in 0..8 {
        t.add_row(i.to_string(), ["m", if i == 4 { "0" } else { "1" }]);
    }
    let mut m = base();
    m.put(
        "surfacemat",
        "2da",
        areakit_formats::twoda::write_binary(&t).unwrap(),
    );
    let module = Module::assemble(&m, Some("t")).unwrap();
    assert!(module.surface_materials.is_some());
    assert_eq!(module.nav_source().surface.triangles.len(), 0);
}
