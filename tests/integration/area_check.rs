//! Area checks on a small area built in a temporary folder: three square rooms in an L
//! (`room_a` in the corner, `room_b` east of it, `room_c` north of it), linked both ways, all
//! seeing each other. Each test mutates one thing and asserts the expected finding at the
//! expected place.

use std::path::{Path, PathBuf};

use areakit_app::area::{self, Area, AreaError};
use areakit_formats::bwm::{Bwm, Edge, Face, Material};
use areakit_formats::{Finding, Severity};

/// A 2x2 square room at `(x, y)` made of two faces; `links[k]` is the transition of boundary
/// edge k: 0 south, 1 east, 2 north, 3 west.
fn square(x: f32, y: f32, links: [i32; 4]) -> Bwm {
    let mut m = Bwm {
        vertices: vec![
            [x, y, 0.0],
            [x + 2.0, y, 0.0],
            [x + 2.0, y + 2.0, 0.0],
            [x, y + 2.0, 0.0],
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
        normals: vec![[0.0, 0.0, 1.0]; 2],
        distances: vec![0.0; 2],
        adjacency: vec![[-1, -1, 3], [2, -1, -1]],
        perimeters: vec![4],
        ..Bwm::default()
    };
    // Face 0: side 0 south, side 1 east; face 1: side 1 north, side 2 west.
    m.edges = [(0, 0), (0, 1), (1, 1), (1, 2)]
        .iter()
        .zip(links)
        .map(|(&(face, side), t)| Edge {
            edge: face * 3 + side,
            transition: t,
        })
        .collect();
    m
}

const LYT: &str = "#MAXLAYOUT ASCII\r\nfiledependancy test.max\r\nbeginlayout\r\n   roomcount 3\r\n      room_a 0.0 0.0 0.0\r\n      room_b 2.0 0.0 0.0\r\n      room_c 0.0 2.0 0.0\r\n   trackcount 0\r\n   obstaclecount 0\r\n   doorhookcount 0\r\ndonelayout\r\n";
const VIS: &str =
    "room_a 2\r\n  room_b\r\n  room_c\r\nroom_b 1\r\n  room_a\r\nroom_c 1\r\n  room_a\r\n";

struct Fixture {
    dir: PathBuf,
}

impl Fixture {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("areakit-area-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let f = Fixture { dir };
        f.write("test.lyt", LYT.as_bytes());
        f.write("test.vis", VIS.as_bytes());
        f.wok("room_a.wok", &square(0.0, 0.0, [-1, 1, 2, -1]));
        f.wok("room_b.wok", &square(2.0, 0.0, [-1, -1, -1, 0]));
        f.wok("room_c.wok", &square(0.0, 2.0, [0, -1, -1, -1]));
        f
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn write(&self, name: &str, data: &[u8]) {
        std::fs::write(self.path(name), data).unwrap();
    }

    fn wok(&self, name: &str, m: &Bwm) {
        self.write(name, &areakit_formats::bwm::write(m).unwrap());
    }

    fn check(&self) -> Vec<Finding> {
        let area = Area::open(&self.dir).unwrap();
        area::check(&area)
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn file_of(f: &Finding) -> String {
    Path::new(f.place.file.as_deref().unwrap_or_default())
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

fn summary(findings: &[Finding]) -> Vec<(&'static str, String, Option<String>, Option<u32>)> {
    findings
        .iter()
        .map(|f| (f.code, file_of(f), f.place.room.clone(), f.place.line))
        .collect()
}

#[test]
fn intact_area_has_no_findings() {
    let fx = Fixture::new("intact");
    let area = Area::open(&fx.dir).unwrap();
    assert_eq!(area.resref, "test");
    assert_eq!(area.rooms.len(), 3);
    assert!(area.rooms.iter().all(|r| r.wok.is_some()));
    assert!(area.vis.is_some());
    let links = area.links();
    assert_eq!(links.len(), 4);
    assert_eq!(area.link_target(&links[0]).unwrap().name, "room_b");
    assert!(area.reverse_link(&links[0], 0.01).is_some());
    let f = area::check(&area);
    assert!(f.is_empty(), "{f:#?}");
    // Opening by the LYT path gives the same area.
    let by_file = Area::open(&fx.path("test.lyt")).unwrap();
    assert_eq!(by_file.rooms.len(), 3);
    assert!(area::check(&by_file).is_empty());
}

#[test]
fn files_are_found_ignoring_case() {
    let fx = Fixture::new("case");
    std::fs::rename(fx.path("room_a.wok"), fx.path("ROOM_A.WOK")).unwrap();
    std::fs::rename(fx.path("test.vis"), fx.path("Test.VIS")).unwrap();
    let area = Area::open(&fx.dir).unwrap();
    assert!(area.rooms[0].wok.is_some());
    assert!(area.vis.is_some());
    assert!(area::check(&area).is_empty());
}

#[test]
fn deleted_wok_is_a_warning_at_the_lyt_room_line() {
    let fx = Fixture::new("nowok");
    std::fs::remove_file(fx.path("room_b.wok")).unwrap();
    let f = fx.check();
    assert_eq!(
        summary(&f),
        vec![(
            "area-room-missing-wok",
            "test.lyt".into(),
            Some("room_b".into()),
            Some(6)
        )]
    );
    // A warning: the WOK may come from the game's archives, and an engine without it loads
    // the room without a walkmesh (xoreos: "Walkmesh file not found").
    assert_eq!(f[0].severity, Severity::Warning);
}

#[test]
fn unlisted_wok_is_a_warning() {
    let fx = Fixture::new("extra");
    fx.wok("room_d.wok", &square(9.0, 9.0, [-1; 4]));
    let f = fx.check();
    assert_eq!(
        summary(&f),
        vec![("area-wok-not-in-lyt", "room_d.wok".into(), None, None)]
    );
    assert_eq!(f[0].severity, Severity::Warning);
}

/// A folder of two areas: the other LYT's room WOK is not this area's stray, by the LYT path
/// or through `check` of the whole folder; a WOK of neither area still is.
#[test]
fn wok_of_another_lyt_in_the_folder_is_not_flagged() {
    let fx = Fixture::new("twoareas");
    let other = LYT.replace("roomcount 3", "roomcount 1").replace(
        "      room_a 0.0 0.0 0.0\r\n      room_b 2.0 0.0 0.0\r\n      room_c 0.0 2.0 0.0",
        "      Room_D 9.0 9.0 0.0",
    );
    assert!(other.contains("Room_D") && !other.contains("room_a"));
    fx.write("other.lyt", other.as_bytes());
    fx.wok("room_d.wok", &square(9.0, 9.0, [-1; 4]));
    let area = Area::open(&fx.path("test.lyt")).unwrap();
    assert!(area.unlisted_woks.is_empty(), "{:?}", area.unlisted_woks);
    assert!(area::check(&area).is_empty());
    let report = areakit_app::check::check_paths(
        &areakit_app::Session::files_only(),
        std::slice::from_ref(&fx.dir),
    )
    .unwrap();
    assert!(
        !report
            .findings
            .iter()
            .any(|f| f.finding.code == "area-wok-not-in-lyt"),
        "{:#?}",
        report.findings
    );
    fx.wok("room_e.wok", &square(20.0, 20.0, [-1; 4]));
    let f = area::check(&Area::open(&fx.path("test.lyt")).unwrap());
    assert_eq!(
        summary(&f),
        vec![("area-wok-not-in-lyt", "room_e.wok".into(), None, None)]
    );
}

#[test]
fn unreadable_wok_is_an_error() {
    let fx = Fixture::new("badwok");
    fx.write("room_c.wok", b"BWM V1.0 truncated");
    let f = fx.check();
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].code, "area-wok-unreadable");
    assert_eq!(file_of(&f[0]), "room_c.wok");
}

#[test]
fn renamed_vis_room() {
    let fx = Fixture::new("visrename");
    fx.write("test.vis", VIS.replace("room_c", "room_x").as_bytes());
    let f = fx.check();
    assert_eq!(
        summary(&f),
        vec![
            (
                "area-vis-unknown-room",
                "test.vis".into(),
                Some("room_x".into()),
                Some(3)
            ),
            (
                "area-vis-unknown-room",
                "test.vis".into(),
                Some("room_x".into()),
                Some(6)
            ),
            (
                "area-room-not-in-vis",
                "test.vis".into(),
                Some("room_c".into()),
                None
            ),
        ]
    );
    // A warning: the engine looks up only the LYT rooms in the VIS, so an unknown name is
    // never used (the K1 Community Patch ships such a VIS).
    assert_eq!(f[0].severity, Severity::Warning);
    assert_eq!(f[2].severity, Severity::Warning);
}

#[test]
fn vis_case_and_one_way_visibility_are_normal() {
    let fx = Fixture::new("visnormal");
    // Upper-case names, one-way visibility (room_b is not listed by room_c and vice versa,
    // room_c sees nothing), no room lists itself.
    fx.write(
        "test.vis",
        b"ROOM_A 1\n  Room_B\nroom_b 1\n  room_a\nroom_c 0\n",
    );
    let f = fx.check();
    // Only the VIS file's own note that one room is spelled two ways.
    let got: Vec<_> = f.iter().map(|f| (f.code, f.place.line)).collect();
    assert_eq!(
        got,
        vec![("vis-name-case", Some(3)), ("vis-name-case", Some(4))],
        "{f:#?}"
    );
}

#[test]
fn missing_and_broken_vis() {
    let fx = Fixture::new("novis");
    std::fs::remove_file(fx.path("test.vis")).unwrap();
    let f = fx.check();
    assert_eq!(
        summary(&f),
        vec![("area-vis-missing", "test.vis".into(), None, None)]
    );
    fx.write("test.vis", b"  child_first\n");
    let f = fx.check();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].code, "area-vis-unreadable");
    assert!(f[0].message.contains("1:3"), "{}", f[0].message);
}

#[test]
fn one_direction_of_a_link_broken() {
    let fx = Fixture::new("oneway");
    // room_b loses its transition back into room_a.
    fx.wok("room_b.wok", &square(2.0, 0.0, [-1; 4]));
    let f = fx.check();
    assert_eq!(
        summary(&f),
        vec![(
            "area-link-one-way",
            "room_a.wok".into(),
            Some("room_a".into()),
            None
        )]
    );
    let p = &f[0].place;
    assert_eq!((p.face, p.edge), (Some(0), Some(1)), "room_a's east edge");
    assert_eq!(p.position, Some([2.0, 1.0, 0.0]));
    assert_eq!(f[0].severity, Severity::Warning);
}

#[test]
fn link_back_at_another_place_does_not_match() {
    let fx = Fixture::new("elsewhere");
    // room_b links back into room_a, but from its south edge instead of its west edge.
    fx.wok("room_b.wok", &square(2.0, 0.0, [0, -1, -1, -1]));
    let f = fx.check();
    let got: Vec<_> = f
        .iter()
        .map(|f| (f.code, file_of(f), f.place.face, f.place.edge))
        .collect();
    assert_eq!(
        got,
        vec![
            ("area-link-one-way", "room_a.wok".into(), Some(0), Some(1)),
            ("area-link-one-way", "room_b.wok".into(), Some(0), Some(0)),
        ]
    );
}

#[test]
fn transition_to_a_missing_room() {
    let fx = Fixture::new("badtransition");
    fx.wok("room_c.wok", &square(0.0, 2.0, [7, -1, -1, -1]));
    let f = fx.check();
    let got: Vec<_> = f.iter().map(|f| (f.code, file_of(f))).collect();
    assert_eq!(
        got,
        vec![
            // room_a's north edge now has no link back.
            ("area-link-one-way", "room_a.wok".into()),
            ("area-transition-missing-room", "room_c.wok".into()),
        ]
    );
    assert_eq!(f[1].severity, Severity::Error);
    assert!(f[1].message.contains("room 7"), "{}", f[1].message);
}

#[test]
fn duplicate_room_and_count_mismatch_in_the_lyt() {
    let fx = Fixture::new("dup");
    let lyt = LYT.replace(
        "      room_c 0.0 2.0 0.0\r\n",
        "      room_c 0.0 2.0 0.0\r\n      Room_B 2.0 0.0 0.0\r\n",
    );
    fx.write("test.lyt", lyt.as_bytes());
    let f = fx.check();
    assert_eq!(
        summary(&f),
        vec![
            ("lyt-count-mismatch", "test.lyt".into(), None, Some(4)),
            (
                "lyt-duplicate-room",
                "test.lyt".into(),
                Some("Room_B".into()),
                Some(8)
            ),
            // The duplicate (room 3) uses room_b.wok, whose link into room_a has no link back
            // into room 3.
            (
                "area-link-one-way",
                "room_b.wok".into(),
                Some("Room_B".into()),
                None
            ),
        ]
    );
    // A warning: each LYT line is a room of its own (xoreos loads one per line).
    assert_eq!(f[1].severity, Severity::Warning);
}

#[test]
fn placeholder_rooms() {
    let fx = Fixture::new("placeholder");
    // A fourth room removed as `****`: no WOK or VIS entry needed; a transition into it is a
    // warning.
    let lyt = LYT.replace("roomcount 3", "roomcount 4").replace(
        "      room_c 0.0 2.0 0.0\r\n",
        "      room_c 0.0 2.0 0.0\r\n      **** 9.0 9.0 0.0\r\n",
    );
    fx.write("test.lyt", lyt.as_bytes());
    assert!(fx.check().is_empty());
    fx.wok("room_b.wok", &square(2.0, 0.0, [-1, 3, -1, 0]));
    let f = fx.check();
    assert_eq!(
        summary(&f),
        vec![(
            "area-transition-missing-room",
            "room_b.wok".into(),
            Some("room_b".into()),
            None
        )]
    );
    // A warning: the index is inside the room list (an index past it stays an error).
    assert_eq!(f[0].severity, Severity::Warning);
}

#[test]
fn open_errors() {
    let fx = Fixture::new("open");
    fx.write("other.lyt", LYT.as_bytes());
    match Area::open(&fx.dir) {
        Err(AreaError::ManyLayouts(p)) => assert_eq!(p.len(), 2),
        other => panic!("{other:?}"),
    }
    fx.write("other.lyt", b"beginlayout\nroomcount x\n");
    let e = Area::open(&fx.path("other.lyt")).unwrap_err();
    assert!(e.to_string().contains("other.lyt: 2:11"), "{e}");
    std::fs::remove_file(fx.path("other.lyt")).unwrap();
    std::fs::remove_file(fx.path("test.lyt")).unwrap();
    assert!(matches!(Area::open(&fx.dir), Err(AreaError::NoLayout(_))));
    assert!(matches!(
        Area::open(&fx.path("missing.lyt")),
        Err(AreaError::Io { .. })
    ));
}

#[test]
fn findings_display_their_file() {
    let fx = Fixture::new("display");
    std::fs::remove_file(fx.path("room_b.wok")).unwrap();
    let f = fx.check();
    let shown = f[0].place.to_string();
    assert!(
        shown.ends_with("test.lyt:6:1 room room_b rooms[1]"),
        "{shown}"
    );
}

#[test]
fn info_json() {
    let fx = Fixture::new("info");
    let area = Area::open(&fx.dir).unwrap();
    let lyt = areakit_app::document::Document::Lyt(Box::new(area.lyt.clone()));
    let vis = areakit_app::document::Document::Vis(Box::new(area.vis.clone().unwrap()));
    let body = |doc| serde_json::to_value(areakit_app::info::info(&fx.dir, doc).body).unwrap();
    assert_eq!(
        body(&lyt),
        serde_json::json!({"format": "lyt", "rooms": 3, "tracks": 0, "obstacles": 0, "doorhooks": 0})
    );
    assert_eq!(
        body(&vis),
        serde_json::json!({"format": "vis", "rooms": 3, "links": 4})
    );
}

/// A strip of `n` unit cells at `y0..y0 + 1`, the edge of each cell on side `north` (else
/// south) leading into room `to`, except cell `skip`.
fn strip(n: usize, y0: f32, north: bool, to: i32, skip: usize) -> Bwm {
    let mut m = Bwm::default();
    for j in 0..2 {
        for i in 0..=n {
            m.vertices.push([i as f32, y0 + j as f32, 0.0]);
        }
    }
    let v = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    let mut transitions = Vec::new();
    for i in 0..n {
        for vertices in [
            [v(i, 0), v(i + 1, 0), v(i + 1, 1)],
            [v(i, 0), v(i + 1, 1), v(i, 1)],
        ] {
            m.faces.push(Face {
                vertices,
                material: Material::Stone,
            });
        }
        let t = if i == skip { -1 } else { to };
        // South: edge 0 of the first face; north: edge 1 of the second.
        transitions.push(if north { [-1; 3] } else { [t, -1, -1] });
        transitions.push(if north { [-1, t, -1] } else { [-1; 3] });
    }
    areakit_app::walkmesh::rebuild_with_transitions(&m, &transitions).unwrap()
}

/// Two long rooms sharing a boundary of 300 linked edges each way, one missing on one side:
/// exactly that edge is one-way (the links back are found through an index by room pair and
/// position, not a scan of every link).
#[test]
fn many_links_find_their_way_back() {
    let fx = Fixture::new("strips");
    let lyt = LYT.replace("roomcount 3", "roomcount 2").replace(
        "      room_a 0.0 0.0 0.0\r\n      room_b 2.0 0.0 0.0\r\n      room_c 0.0 2.0 0.0",
        "      room_a 0.0 0.0 0.0\r\n      room_b 0.0 0.0 0.0",
    );
    assert!(!lyt.contains("room_c"));
    fx.write("test.lyt", lyt.as_bytes());
    std::fs::remove_file(fx.path("test.vis")).unwrap();
    std::fs::remove_file(fx.path("room_c.wok")).unwrap();
    fx.wok("room_a.wok", &strip(300, 0.0, true, 1, usize::MAX));
    fx.wok("room_b.wok", &strip(300, 1.0, false, 0, 137));
    let area = Area::open(&fx.dir).unwrap();
    assert_eq!(area.links().len(), 599);
    let one_way: Vec<_> = area::check(&area)
        .into_iter()
        .filter(|f| f.code == "area-link-one-way")
        .collect();
    assert_eq!(one_way.len(), 1, "{one_way:#?}");
    assert_eq!(one_way[0].place.room.as_deref(), Some("room_a"));
    let m = one_way[0].place.position.unwrap();
    assert!(
        (m[0] - 137.5).abs() < 1e-4 && (m[1] - 1.0).abs() < 1e-4,
        "{m:?}"
    );
}
