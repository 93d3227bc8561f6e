//! The builder on hand-made rooms: squares of walkable floor with door hooks.

use areakit_formats::bwm::{self, Bwm, Face, Material, WalkmeshType};
use areakit_formats::{gff, lyt, mdl};

use super::layout::{DEFAULT_HOOK_TOLERANCE, Layout, LayoutKind, LayoutRoom};
use super::*;

/// A `w` × `h` walkable floor centred on the origin, two triangles per metre square.
fn floor(w: f32, h: f32) -> Bwm {
    let (nx, ny) = (w as usize, h as usize);
    let mut vertices = Vec::new();
    for j in 0..=ny {
        for i in 0..=nx {
            vertices.push([i as f32 - w / 2.0, j as f32 - h / 2.0, 0.0]);
        }
    }
    let at = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    let mut faces = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            for v in [
                [at(i, j), at(i + 1, j), at(i + 1, j + 1)],
                [at(i, j), at(i + 1, j + 1), at(i, j + 1)],
            ] {
                faces.push(Face {
                    vertices: v,
                    material: Material::from_id(10),
                });
            }
        }
    }
    let b = Bwm {
        walkmesh_type: WalkmeshType::Area,
        vertices,
        faces,
        ..Bwm::default()
    };
    crate::walkmesh::rebuild(&b).unwrap()
}

fn door() -> DoorTemplate {
    let mut utd = Gff::new(*b"UTD ");
    utd.root.push(
        gff::Label::new("Tag").unwrap(),
        gff::Value::String(gff::Text::from_bytes("kitdoor")),
    );
    utd.root.push(
        gff::Label::new("TemplateResRef").unwrap(),
        gff::Value::ResRef(gff::Text::from_bytes("door0_k1")),
    );
    DoorTemplate {
        label: "test/door".into(),
        utd,
        width: 3.0,
        height: 2.5,
    }
}

/// A 10 × 10 room with hooks on its north (0, 5) and south (0, −5) sides.
fn square() -> Component {
    Component {
        label: "test/square".into(),
        walkmesh: floor(10.0, 10.0),
        model: None,
        hooks: vec![
            ComponentHook {
                position: [0.0, 5.0, 0.0],
                rotation: 0.0,
                door: 0,
                edge: None,
            },
            ComponentHook {
                position: [0.0, -5.0, 0.0],
                rotation: 180.0,
                door: 0,
                edge: None,
            },
        ],
        image: None,
        doors: vec![Some(door())],
        kit: Some("test".into()),
    }
}

fn layout(rooms: Vec<Position>) -> Layout {
    Layout {
        module: "tst01".into(),
        name: "Test".into(),
        game: None,
        lighting: [0.5; 3],
        skybox: None,
        kits: None,
        rooms: rooms
            .into_iter()
            .map(|position| LayoutRoom {
                source: RoomSource::Kit {
                    kit: "test".into(),
                    component: "square".into(),
                },
                position,
            })
            .collect(),
        connections: Vec::new(),
        entry: None,
        hook_tolerance: DEFAULT_HOOK_TOLERANCE,
        kind: LayoutKind::Areakit,
    }
}

fn input(rooms: Vec<Position>) -> BuildInput {
    let n = rooms.len();
    BuildInput {
        layout: layout(rooms),
        components: vec![square()],
        room_components: vec![0; n],
        supplies: Supplies::default(),
        game: TargetGame::K1,
        threads: 1,
    }
}

fn at(x: f32, y: f32, rotation: f32) -> Position {
    Position::At(Placement {
        position: [x, y, 0.0],
        rotation,
        flip_x: false,
        flip_y: false,
    })
}

fn attach(room: usize, to_hook: usize, hook: usize) -> Position {
    Position::Attach {
        room,
        to_hook,
        hook,
        flip_x: false,
        flip_y: false,
    }
}

fn file<'a>(b: &'a Built, name: &str) -> &'a [u8] {
    &b.files
        .iter()
        .find(|f| f.file_name() == name)
        .unwrap_or_else(|| {
            panic!(
                "{name} in {:?}",
                b.files.iter().map(|f| f.file_name()).collect::<Vec<_>>()
            )
        })
        .data
}

#[test]
fn attached_rooms_meet_link_both_ways_and_get_a_door() {
    // Room 1's south hook meets room 0's north hook: it goes to (0, 10).
    let built = build(&input(vec![
        at(0.0, 0.0, 0.0),
        attach(0, 0, 1),
        attach(1, 0, 1),
    ]))
    .unwrap();
    let r = &built.report;
    assert_eq!(r.rooms.len(), 3);
    assert_eq!(r.rooms[1].position, [0.0, 10.0, 0.0]);
    assert_eq!(r.rooms[2].position, [0.0, 20.0, 0.0]);
    assert_eq!(r.connections.len(), 2);
    assert_eq!(r.rooms[0].hooks, vec![Some(1), None]);
    assert_eq!(r.rooms[1].hooks, vec![Some(2), Some(0)]);
    assert!(r.rooms.iter().all(|x| x.reached));
    assert_eq!(r.linked_pairs, 2);

    // Transitions on both sides of each connection, by LYT index.
    let wok = |i: usize| bwm::read(file(&built, &format!("tst01_{i:02}.wok"))).unwrap();
    let targets = |w: &Bwm| {
        let mut t: Vec<i32> = w
            .edges
            .iter()
            .map(|e| e.transition)
            .filter(|&t| t >= 0)
            .collect();
        t.sort();
        t.dedup();
        t
    };
    assert_eq!(targets(&wok(0)), vec![1]);
    assert_eq!(targets(&wok(1)), vec![0, 2]);
    assert_eq!(targets(&wok(2)), vec![1]);

    // The LYT names the rooms and the door hooks; the GIT has the doors at the hooks.
    let lyt = lyt::read(file(&built, "tst01.lyt")).unwrap();
    assert_eq!(
        lyt.rooms
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>(),
        ["tst01_00", "tst01_01", "tst01_02"]
    );
    assert_eq!(lyt.doorhooks.len(), 2);
    assert_eq!(lyt.doorhooks[0].position, [0.0, 5.0, 0.0]);
    let git = gff::views::Git::from_gff(&gff::read(file(&built, "tst01.git")).unwrap());
    assert_eq!(git.doors.len(), 2);
    let utd = gff::read(file(&built, "tst01_dor00.utd")).unwrap();
    assert_eq!(
        utd.root
            .get("TemplateResRef")
            .and_then(|v| v.as_text())
            .map(|t| t.to_str().into_owned()),
        Some("tst01_dor00".to_string())
    );
    // The VIS has every linked pair; the entry point stands in room 0.
    let vis = areakit_formats::vis::read(file(&built, "tst01.vis")).unwrap();
    assert!(vis.is_visible("tst01_00", "tst01_01") && vis.is_visible("tst01_01", "tst01_00"));
    assert!(vis.is_visible("tst01_01", "tst01_02") && vis.is_visible("tst01_02", "tst01_01"));
    assert!(
        r.entry[0].abs() < 5.0 && r.entry[1].abs() < 5.0,
        "{:?}",
        r.entry
    );
    assert!(r.minimap_coverage >= 0.98, "{}", r.minimap_coverage);
    // The open hooks at both ends are warnings naming their rooms.
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("room 0") && w.contains("hook 1"))
    );
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("room 2") && w.contains("hook 0"))
    );
}

#[test]
fn turned_rooms_meet_and_hooks_face_after_flips() {
    // Room 1 is turned 90°: its south hook (0, −5) facing 180 → (5, 0) facing 270 (+x)
    // after the turn. Attaching it to room 0's north hook turns it back to face −y.
    let mut i = input(vec![at(0.0, 0.0, 90.0), attach(0, 0, 1)]);
    i.layout.rooms[1].position = Position::Attach {
        room: 0,
        to_hook: 0,
        hook: 1,
        flip_x: true,
        flip_y: false,
    };
    let built = build(&i).unwrap();
    let r = &built.report;
    // Room 0's north hook (0, 5) turned 90° stands at (−5, 0) facing 90 (−x).
    assert_eq!(r.connections.len(), 1);
    let p = r.rooms[1].position;
    assert!((p[0] + 10.0).abs() < 1e-4 && p[1].abs() < 1e-4, "{p:?}");
    assert!(r.rooms[1].flip_x);
    assert_eq!(r.linked_pairs, 1);
}

#[test]
fn overlapping_rooms_are_refused_naming_both() {
    let e = build(&input(vec![at(0.0, 0.0, 0.0), at(3.0, 0.0, 0.0)]))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("rooms 0") && e.contains("1") && e.contains("overlap"),
        "{e}"
    );
    // Stacked floors (3 m apart) are not an overlap.
    let mut i = input(vec![at(0.0, 0.0, 0.0), at(0.0, 0.0, 0.0)]);
    i.layout.rooms[1].position = Position::At(Placement {
        position: [0.0, 0.0, 3.0],
        rotation: 0.0,
        flip_x: false,
        flip_y: false,
    });
    let built = build(&i).unwrap();
    assert!(
        built
            .report
            .warnings
            .iter()
            .any(|w| w.contains("room 1") && w.contains("not connected"))
    );
}

#[test]
fn a_room_left_unconnected_is_a_warning_not_an_island() {
    let built = build(&input(vec![at(0.0, 0.0, 0.0), at(30.0, 0.0, 0.0)])).unwrap();
    assert!(!built.report.rooms[1].reached);
    assert!(
        built
            .report
            .warnings
            .iter()
            .any(|w| w.contains("room 1") && w.contains("not connected to the entry room")),
        "{:?}",
        built.report.warnings
    );
}

#[test]
fn bad_input_names_what_is_wrong() {
    let e = build(&input(vec![at(0.0, 0.0, 0.0), attach(0, 7, 0)])).unwrap_err();
    assert!(e.to_string().contains("to_hook 7"), "{e}");
    let mut i = input(vec![at(0.0, 0.0, 0.0)]);
    i.layout.module = "muchtoolongname".into();
    assert!(build(&i).unwrap_err().to_string().contains("at most 9"));
    let mut i = input(vec![at(0.0, 0.0, 0.0)]);
    i.layout.entry = Some([50.0, 50.0, 0.0]);
    assert!(
        build(&i)
            .unwrap_err()
            .to_string()
            .contains("not on walkable ground")
    );
    // An explicit connection between hooks far apart.
    let mut i = input(vec![at(0.0, 0.0, 0.0), at(0.0, 20.0, 0.0)]);
    i.layout.connections.push(Connection {
        rooms: [0, 1],
        hooks: [0, 1],
    });
    assert!(build(&i).unwrap_err().to_string().contains("apart"));
}

#[test]
fn hooks_that_meet_without_facing_are_not_connected() {
    // Room 1's south hook lands on room 0's north hook; facing +y (not −y), it does not face
    // it: no connection, a warning — the walkmeshes still meet, so relink links them.
    let mut i = input(vec![at(0.0, 0.0, 0.0), at(0.0, 10.0, 0.0)]);
    let mut wrong = square();
    wrong.hooks[1].rotation = 0.0;
    i.components.push(wrong);
    i.room_components[1] = 1;
    let built = build(&i).unwrap();
    assert!(built.report.connections.is_empty());
    assert!(
        built
            .report
            .warnings
            .iter()
            .any(|w| w.contains("room 0 hook 0 and room 1 hook 1") && w.contains("do not face")),
        "{:?}",
        built.report.warnings
    );
    // Facing, the same placement connects.
    let built = build(&input(vec![at(0.0, 0.0, 0.0), at(0.0, 10.0, 0.0)])).unwrap();
    assert_eq!(built.report.connections.len(), 1);
}

#[test]
fn doors_of_different_heights_get_the_smaller_doors_top_padding() {
    // Room 1's door is 3 m high, room 0's 2.5 m: room 0's kit pads door 0 with its smallest
    // top padding above 300 cm (350, not 250 or 400), turned to the door, at the door.
    let mut i = input(vec![at(0.0, 0.0, 0.0), attach(0, 0, 1)]);
    let mut tall = square();
    tall.doors[0].as_mut().unwrap().height = 3.0;
    i.components.push(tall);
    i.room_components[1] = 1;
    for size_cm in [250, 400, 350] {
        i.supplies.padding.push(Padding {
            kit: "test".into(),
            kind: PaddingKind::Top,
            door: 0,
            size_cm,
            model: Model::new(Game::K1, &format!("top0_{size_cm}")),
        });
    }
    let built = build(&i).unwrap();
    let lyt = lyt::read(file(&built, "tst01.lyt")).unwrap();
    assert_eq!(lyt.rooms.len(), 3);
    assert_eq!(lyt.rooms[2].name, "tst01_pad00");
    assert_eq!(lyt.rooms[2].position, [0.0, 5.0, 0.0]);
    let pad = mdl::read(
        file(&built, "tst01_pad00.mdl"),
        file(&built, "tst01_pad00.mdx"),
    )
    .unwrap();
    assert_eq!(pad.geometry.name.as_string(), "tst01_pad00");
    let vis = areakit_formats::vis::read(file(&built, "tst01.vis")).unwrap();
    assert!(vis.is_visible("tst01_00", "tst01_pad00") && vis.is_visible("tst01_01", "tst01_pad00"));
    // The same doors: no padding. Without a model that fits: a warning naming the rooms.
    let built = build(&input(vec![at(0.0, 0.0, 0.0), attach(0, 0, 1)])).unwrap();
    assert!(!built.files.iter().any(|f| f.resref.contains("pad")));
    i.supplies.padding.retain(|p| p.size_cm < 300);
    let built = build(&i).unwrap();
    assert!(
        built
            .report
            .warnings
            .iter()
            .any(|w| w.contains("rooms 0 and 1") && w.contains("height")),
        "{:?}",
        built.report.warnings
    );
}

#[test]
fn padding_names_give_kind_door_and_size() {
    assert_eq!(padding_name("top0_350"), Some((PaddingKind::Top, 0, 350)));
    assert_eq!(padding_name("Side1_420"), Some((PaddingKind::Side, 1, 420)));
    assert_eq!(padding_name("door0_k1"), None);
    assert_eq!(padding_name("top_x"), None);
}
