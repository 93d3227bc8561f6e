//! Navigation over files and areas (`areakit_area::navigation`, `areakit path`): paths stay on
//! walkable ground, never cross a placed object, keep the radius; the kit area, the demo area,
//! a corpus WOK and a corpus TRX answer through the command line; NWN2 baked routes are never
//! shorter than the optimal ones (their ratio is printed for the closing note).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use areakit_app::geometry::Vec3;
use areakit_app::geometry::nav::clearance::{Blocker, Clearance, ClearanceOptions};
use areakit_app::geometry::nav::{Endpoint, NavMesh, Searcher, Surface, stitch};
use areakit_app::navigation::{
    AreaNav, DEFAULT_STITCH_TOLERANCE, NavOptions, NavSource, PathMode, PathOutcome, SourceKind,
};
use areakit_app::objects::PlacedWalkmesh;
use areakit_formats::{bwm, trx};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::Value;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `n` pairs of triangle centroids on one island each (reachable pairs).
fn reachable_pairs(mesh: &NavMesh, rng: &mut Rng, n: usize) -> Vec<(Endpoint, Endpoint)> {
    let nt = mesh.triangle_count();
    let mut out = Vec::new();
    let centre = |t: u32| {
        let [a, b, c] = mesh.triangle_points(t);
        (a + b + c) / 3.0
    };
    for _ in 0..n * 20 {
        if out.len() == n || nt == 0 {
            break;
        }
        let (a, b) = (rng.below(nt) as u32, rng.below(nt) as u32);
        if !mesh.reachable(a, b) || !mesh.is_flat(a) && !mesh.is_flat(b) && a == b {
            continue;
        }
        let (pa, pb) = (centre(a), centre(b));
        // Points exactly on a triangle of another floor would pick that floor: give heights.
        out.push((Endpoint::from(pa), Endpoint::from(pb)));
    }
    out
}

/// Every point of the path, sampled every `step` metres in plan, stands on `ground` (within a
/// millimetre, at the height the path has there).
fn on_ground(ground: &NavMesh, o: &PathOutcome, step: f32) -> Result<usize, String> {
    on_ground_within(ground, o, step, 1e-3)
}

/// [`on_ground`] with the distance off the walkable surface a sample may stand.
fn on_ground_within(
    ground: &NavMesh,
    o: &PathOutcome,
    step: f32,
    snap: f32,
) -> Result<usize, String> {
    let p = o.path.as_ref().ok_or("no path")?;
    let pts = p.surface_points();
    let mut n = 0;
    for w in pts.windows(2) {
        let d = (w[1] - w[0]).truncate().length();
        let k = (d / step).ceil().max(1.0) as usize;
        for i in 0..=k {
            let q = w[0].lerp(w[1], i as f32 / k as f32);
            match ground.locate_or_snap(q.x, q.y, Some(q.z), snap) {
                Ok(_) => n += 1,
                Err(e) => return Err(format!("{q:?} is off the ground: {e}")),
            }
        }
    }
    Ok(n)
}

fn nav_of(source: &NavSource, objects: &[PlacedWalkmesh], radius: f32) -> AreaNav {
    AreaNav::build(
        source,
        objects,
        &NavOptions {
            radius,
            ..NavOptions::default()
        },
    )
    .unwrap()
}

/// The uncarved, stitched ground of a source (what the path must stand on).
fn ground_of(source: &NavSource) -> (Surface, NavMesh) {
    let s = if source.kind == SourceKind::Area {
        stitch(&source.surface, DEFAULT_STITCH_TOLERANCE)
            .unwrap()
            .surface
    } else {
        source.surface.clone()
    };
    let m = NavMesh::build(&s).unwrap();
    (s, m)
}

#[test]
fn every_corpus_wok_path_stays_on_walkable_ground() {
    let files = common::corpus_files(&["wok"]);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut covered, mut pairs, mut samples) = (0, 0, 0);
    let mut ratios = Vec::new();
    let mut s = Searcher::new();
    for f in &files {
        let Ok(m) = bwm::read(&std::fs::read(f).unwrap()) else {
            continue;
        };
        let source = NavSource::from_bwm(&m, "room");
        if source.surface.triangles.is_empty() {
            continue;
        }
        let Ok(nav) = AreaNav::build(&source, &[], &NavOptions::default()) else {
            continue;
        };
        covered += 1;
        for (a, b) in reachable_pairs(nav.mesh(), &mut rng, 8) {
            let mut len = [0.0f32; 2];
            for (k, mode) in [PathMode::Optimal, PathMode::Fast].into_iter().enumerate() {
                let o = nav.find(&mut s, a, b, mode, 1.0);
                assert!(o.found(), "{}: {a:?} -> {b:?}: {:?}", f.display(), o.reason);
                samples += on_ground(nav.mesh(), &o, 0.05)
                    .unwrap_or_else(|e| panic!("{}: {mode:?}: {e}", f.display()));
                pairs += 1;
                len[k] = o.length();
            }
            assert!(
                len[1] >= len[0] * (1.0 - 1e-5) - 1e-5,
                "fast shorter than optimal"
            );
            if len[0] > 1e-3 {
                ratios.push(f64::from(len[1] / len[0]));
            }
        }
    }
    ratios.sort_by(f64::total_cmp);
    eprintln!(
        "{covered} WOKs, {pairs} paths, {samples} samples on the ground; fast/optimal median {:.4}, worst {:.4} over {} pairs",
        ratios[ratios.len() / 2],
        ratios[ratios.len() - 1],
        ratios.len()
    );
    assert!(covered >= 100, "only {covered} WOKs with walkable faces");
    assert!(pairs >= 1500, "only {pairs} paths");
}

/// A straight chain of kit rooms: each next component is moved so that one of its doorhooks
/// facing back (rotation 180) meets a hook of the last one facing forward (rotation 0). Returns
/// the area folder (LYT + moved WOKs) and the number of rooms.
pub(crate) fn kit_chain(kit_json: &Path, out: &Path) -> usize {
    let kit: Value = serde_json::from_slice(&std::fs::read(kit_json).unwrap()).unwrap();
    let dir = kit_json.with_extension("");
    let comps = kit["components"].as_array().unwrap();
    let hook = |c: &Value, rot: f64| -> Option<[f64; 3]> {
        c["doorhooks"].as_array()?.iter().find_map(|h| {
            (h["rotation"].as_f64()? == rot).then(|| {
                [
                    h["x"].as_f64().unwrap(),
                    h["y"].as_f64().unwrap(),
                    h["z"].as_f64().unwrap(),
                ]
            })
        })
    };
    std::fs::create_dir_all(out).unwrap();
    let mut names = Vec::new();
    // Start with a component that has a forward hook; then chain components having both.
    let first = comps
        .iter()
        .find(|c| hook(c, 0.0).is_some() && hook(c, 180.0).is_none())
        .or_else(|| comps.iter().find(|c| hook(c, 0.0).is_some()))
        .unwrap();
    let mut at = hook(first, 0.0).unwrap();
    let mut place = |c: &Value, shift: [f64; 3]| {
        let id = c["id"].as_str().unwrap();
        let m = bwm::read(&std::fs::read(dir.join(format!("{id}.wok"))).unwrap()).unwrap();
        let moved = areakit_app::walkmesh::transform(
            &m,
            &[areakit_app::geometry::transform::Transform::Translate([
                shift[0] as f32,
                shift[1] as f32,
                shift[2] as f32,
            ])],
            &[],
        )
        .unwrap();
        std::fs::write(out.join(format!("{id}.wok")), bwm::write(&moved).unwrap()).unwrap();
        names.push(id.to_string());
    };
    place(first, [0.0; 3]);
    let mut placed = 1;
    for c in comps {
        if std::ptr::eq(c, first) {
            continue;
        }
        let (Some(back), Some(fwd)) = (hook(c, 180.0), hook(c, 0.0)) else {
            continue;
        };
        let shift = [at[0] - back[0], at[1] - back[1], at[2] - back[2]];
        place(c, shift);
        at = [fwd[0] + shift[0], fwd[1] + shift[1], fwd[2] + shift[2]];
        placed += 1;
        if placed == 3 {
            break;
        }
    }
    let mut lyt = String::from("beginlayout\n   roomcount ");
    lyt.push_str(&format!("{}\n", names.len()));
    for n in &names {
        lyt.push_str(&format!("      {n} 0.0 0.0 0.0\n"));
    }
    lyt.push_str("   trackcount 0\n   obstaclecount 0\n   doorhookcount 0\ndonelayout\n");
    std::fs::write(out.join("kit.lyt"), lyt).unwrap();
    names.len()
}

/// The smallest corpus WOK (in bytes) with more than `faces` walkable faces.
fn smallest_corpus_wok(faces: usize) -> PathBuf {
    common::corpus_files(&["wok"])
        .into_iter()
        .filter(|f| {
            bwm::read(&std::fs::read(f).unwrap()).is_ok_and(|m| m.walkable_face_count() > faces)
        })
        .min_by_key(|f| std::fs::metadata(f).unwrap().len())
        .expect("a corpus WOK")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-nav-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn path_json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_areakit"))
        .arg("path")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    // A single query exits 0 when it finds a path, 1 when it finds none (its JSON says so).
    let expected = if v["found"] == false { 1 } else { 0 };
    assert_eq!(
        out.status.code(),
        Some(expected),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    v
}

fn assert_path_json(v: &Value) {
    assert_eq!(v["found"], true, "{v}");
    assert!(v["reason"].is_null());
    assert!(v["length"].as_f64().unwrap() > 0.0);
    let pts = v["points"].as_array().unwrap();
    assert!(pts.len() >= 2);
    assert!(pts.iter().all(|p| p.as_array().unwrap().len() == 3));
    assert!(!v["rooms"].as_array().unwrap().is_empty());
    assert!(v["faces_visited"].as_u64().unwrap() > 0);
}

#[test]
fn kit_area_path_crosses_every_room() {
    let kits = common::corpus_files(&["kit-json"]);
    let kit = kits
        .iter()
        .find(|k| k.file_stem().is_some_and(|s| s == "hiddenbek"))
        .or(kits.first())
        .expect("a kit in the corpus");
    let dir = tmp("kit");
    let n = kit_chain(kit, &dir);
    assert_eq!(n, 3, "three kit rooms chained");
    let area = areakit_app::area::Area::open(&dir).unwrap();
    let source = NavSource::from_area(&area);
    let nav = nav_of(&source, &[], 0.0);
    // The two farthest-apart walkable points of the first and the last room.
    let (first, last) = (0u32, (n - 1) as u32);
    let tri_of = |r: u32| {
        (0..nav.mesh().triangle_count() as u32)
            .filter(|&t| nav.mesh().region(t) == r)
            .max_by(|&a, &b| {
                let pa = nav.mesh().triangle_points(a)[0];
                let pb = nav.mesh().triangle_points(b)[0];
                pa.y.total_cmp(&pb.y)
            })
            .unwrap()
    };
    let centre = |t: u32| {
        let [a, b, c] = nav.mesh().triangle_points(t);
        (a + b + c) / 3.0
    };
    let (a, b) = (centre(tri_of(first)), centre(tri_of(last)));
    let mut s = Searcher::new();
    let o = nav.find(&mut s, a.into(), b.into(), PathMode::Optimal, 1.0);
    assert!(o.found(), "{:?}", o.reason);
    assert_eq!(o.rooms.len(), 3, "rooms passed: {:?}", o.rooms);
    assert!(on_ground(nav.mesh(), &o, 0.05).unwrap() > 0);
    // The same through the command line.
    let v = path_json(&[
        dir.to_str().unwrap(),
        "--from",
        &format!("{},{},{}", a.x, a.y, a.z),
        "--to",
        &format!("{},{},{}", b.x, b.y, b.z),
    ]);
    assert_path_json(&v);
    assert_eq!(v["rooms"].as_array().unwrap().len(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_single_query_without_a_path_exits_1_and_a_snapped_end_is_told() {
    let dir = tmp("exit");
    areakit_app::demo::run(&dir).unwrap();
    let lyt = dir.join("demo.lyt");
    let path = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_areakit"))
            .arg("path")
            .arg(&lyt)
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    // A goal far off the ground: no path, exit 1 (as grep for no match), the answer says why.
    let (code, text) = path(&["--from", "1.5,1.5", "--to", "500,500"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.starts_with("not found: goal"), "{text}");
    let (code, json) = path(&["--from", "1.5,1.5", "--to", "500,500", "--json"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        serde_json::from_str::<Value>(&json).unwrap()["found"],
        false
    );
    // A start just off the ground is moved onto it, and the text says so.
    let (code, text) = path(&["--from", "1.5,-0.4", "--to", "18.5,16.5", "--snap", "1"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("snapped: start moved"), "{text}");
    assert!(!text.contains("snapped: goal"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn demo_area_path_through_three_rooms_and_around_objects() {
    let dir = tmp("demo");
    let report = areakit_app::demo::run(&dir).unwrap();
    assert!(
        report.path_through_all_rooms(),
        "{:#}",
        serde_json::to_value(&report).unwrap()
    );
    let svg = std::fs::read_to_string(dir.join("demo.svg")).unwrap();
    assert_eq!(
        svg.matches("class=\"path\"").count(),
        1,
        "the demo map draws its path"
    );
    let [[x0, y0], [x1, y1]] = areakit_app::demo::PATH_ENDS;
    let (from, to) = (format!("{x0},{y0}"), format!("{x1},{y1}"));
    let lyt = dir.join("demo.lyt");
    let plain = path_json(&[lyt.to_str().unwrap(), "--from", &from, "--to", &to]);
    assert_path_json(&plain);
    assert_eq!(
        plain["rooms"],
        serde_json::json!(["demo_a", "demo_b", "demo_c"])
    );

    // A crate in the way: a 2 m box walkmesh (hand-made) placed on the straight line.
    let crate_pwk = box_walkmesh(1.0);
    let crate_pwk = areakit_app::walkmesh::rebuild(&crate_pwk).unwrap();
    std::fs::write(dir.join("crate.pwk"), bwm::write(&crate_pwk).unwrap()).unwrap();
    std::fs::write(
        dir.join("objects.json"),
        r#"{"objects": [{"kind": "placeable", "model": "crate", "position": [12, 9.5, 0], "yaw": 30, "tag": "crate_1"}]}"#,
    )
    .unwrap();
    let objects = dir.join("objects.json");
    let blocked = path_json(&[
        lyt.to_str().unwrap(),
        "--from",
        &from,
        "--to",
        &to,
        "--objects",
        objects.to_str().unwrap(),
    ]);
    assert_path_json(&blocked);
    assert!(
        blocked["length"].as_f64().unwrap() > plain["length"].as_f64().unwrap() + 1e-3,
        "the crate stands on the straight path: {} vs {}",
        blocked["length"],
        plain["length"]
    );

    // Library: no sample of the path lies inside the crate; with a radius, every sample keeps it.
    let area = areakit_app::area::Area::open(&lyt).unwrap();
    let source = NavSource::from_area(&area);
    let placed =
        areakit_app::navigate::load_objects(&areakit_app::Session::files_only(), &objects).unwrap();
    let walls: Vec<PlacedWalkmesh> = placed.iter().map(|(_, w)| w.clone()).collect();
    let (ground, ground_mesh) = ground_of(&source);
    let blockers: Vec<Blocker> = walls
        .iter()
        .map(|w| Blocker::new(w.triangles.iter().map(|t| t.map(Vec3::from)).collect()))
        .collect();
    let clearance = Clearance::new(&ground, &blockers, ClearanceOptions::default()).unwrap();
    let mut s = Searcher::new();
    for radius in [0.0f32, 0.35, 0.6] {
        let nav = nav_of(&source, &walls, radius);
        let o = nav.find(
            &mut s,
            Endpoint::plan(x0, y0),
            Endpoint::plan(x1, y1),
            PathMode::Optimal,
            1.0,
        );
        assert!(o.found(), "radius {radius}: {:?}", o.reason);
        assert!(on_ground(&ground_mesh, &o, 0.05).unwrap() > 100);
        let p = o.path.as_ref().unwrap();
        for w in p.surface_points().windows(2) {
            for i in 0..=20 {
                let q = w[0].lerp(w[1], i as f32 / 20.0);
                for t in &walls[0].triangles {
                    assert!(
                        !strictly_inside(t, q),
                        "radius {radius}: {q:?} inside the crate"
                    );
                }
                if radius > 0.0 {
                    let c = clearance.clearance_at(q).unwrap_or(0.0);
                    // The disk is a 16-gon: clearance within 2% of the radius, and the start
                    // and goal may stand closer (moved onto the carved ground).
                    let end = (q - p.points[0]).length() < 1e-3
                        || (q - *p.points.last().unwrap()).length() < 1e-3;
                    assert!(
                        end || c >= radius * 0.98 - 1e-3,
                        "radius {radius}: {q:?} has clearance {c}"
                    );
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn strictly_inside(t: &[[f32; 3]; 3], q: Vec3) -> bool {
    let c = |a: [f32; 3], b: [f32; 3]| (b[0] - a[0]) * (q.y - a[1]) - (b[1] - a[1]) * (q.x - a[0]);
    let (d0, d1, d2) = (c(t[0], t[1]), c(t[1], t[2]), c(t[2], t[0]));
    let e = 1e-4;
    (d0 > e && d1 > e && d2 > e) || (d0 < -e && d1 < -e && d2 < -e)
}

/// A closed box walkmesh of half-size `h`: a top, four sides (non-walkable), 0.. 1 m high.
fn box_walkmesh(h: f32) -> bwm::Bwm {
    let mut m = bwm::Bwm {
        walkmesh_type: bwm::WalkmeshType::PlaceableOrDoor,
        ..bwm::Bwm::default()
    };
    for z in [0.0, 1.0] {
        for (x, y) in [(-h, -h), (h, -h), (h, h), (-h, h)] {
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
    for [a, b, c, d] in quads {
        for v in [[a, b, c], [a, c, d]] {
            m.faces.push(bwm::Face {
                vertices: v,
                material: bwm::Material::NonWalk,
            });
        }
    }
    m
}

#[test]
fn corpus_wok_and_trx_answer_on_the_command_line() {
    let wok = smallest_corpus_wok(50);
    let m = bwm::read(&std::fs::read(&wok).unwrap()).unwrap();
    let nav = nav_of(&NavSource::from_bwm(&m, "room"), &[], 0.0);
    let mut rng = Rng(7);
    let (a, b) = reachable_pairs(nav.mesh(), &mut rng, 1)[0];
    let pt = |e: Endpoint| format!("{},{},{}", e.x, e.y, e.z.unwrap());
    for mode in ["optimal", "fast"] {
        let v = path_json(&[
            wok.to_str().unwrap(),
            "--from",
            &pt(a),
            "--to",
            &pt(b),
            "--mode",
            mode,
        ]);
        assert_path_json(&v);
        assert_eq!(v["mode"], mode);
    }
    let trx_file = common::corpus_files(&["trx"])
        .into_iter()
        .min_by_key(|f| std::fs::metadata(f).unwrap().len())
        .unwrap();
    let t = trx::read(&std::fs::read(&trx_file).unwrap()).unwrap();
    let nav = nav_of(&NavSource::from_trx(t.walkmesh().unwrap(), "t"), &[], 0.0);
    let (a, b) = reachable_pairs(nav.mesh(), &mut rng, 1)[0];
    let mut lengths = Vec::new();
    for mode in ["optimal", "fast", "baked"] {
        let v = path_json(&[
            trx_file.to_str().unwrap(),
            "--from",
            &pt(a),
            "--to",
            &pt(b),
            "--mode",
            mode,
        ]);
        assert_path_json(&v);
        lengths.push(v["length"].as_f64().unwrap());
    }
    assert!(lengths[1] >= lengths[0] * (1.0 - 1e-5));
    assert!(lengths[2] >= lengths[0] * (1.0 - 1e-5));

    // --pairs: JSON Lines, one per pair, found or not.
    let dir = tmp("pairs");
    let pairs = dir.join("pairs.txt");
    std::fs::write(
        &pairs,
        format!("# start goal\n{} {}\n\n{} 1e6,1e6\n", pt(a), pt(b), pt(b)),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_areakit"))
        .args(["path", trx_file.to_str().unwrap(), "--pairs"])
        .arg(&pairs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["found"], true);
    assert_eq!(lines[1]["found"], false);
    assert!(lines[1]["reason"].as_str().unwrap().starts_with("goal"));
    // A malformed pairs line: exit 1 naming line and column.
    std::fs::write(&pairs, "1,2 3,4\n1,2 x,4\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_areakit"))
        .args(["path", trx_file.to_str().unwrap(), "--pairs"])
        .arg(&pairs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2:5"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Baked routes (the engine's tables, then the funnel) against optimal over every corpus TRX:
/// never shorter; the ratios are printed (`cargo test --test nav_area -- --nocapture`).
#[test]
fn baked_routes_are_never_shorter_than_optimal() {
    let files = common::corpus_files(&["trx"]);
    let mut rng = Rng(0x51ed_270b);
    let mut ratios = Vec::new();
    let mut fast_ratios = Vec::new();
    let mut failed = 0usize;
    let mut files_used = 0;
    let mut s = Searcher::new();
    for f in &files {
        let t = trx::read(&std::fs::read(f).unwrap()).unwrap();
        let Some(w) = t.walkmesh().filter(|w| w.is_baked()) else {
            continue;
        };
        let nav = nav_of(&NavSource::from_trx(w, "t"), &[], 0.0);
        files_used += 1;
        for (a, b) in reachable_pairs(nav.mesh(), &mut rng, 10) {
            let opt = nav.find(&mut s, a, b, PathMode::Optimal, 1.0);
            let baked = nav.find(&mut s, a, b, PathMode::Baked, 1.0);
            let fast = nav.find(&mut s, a, b, PathMode::Fast, 1.0);
            assert!(opt.found(), "{}: {:?}", f.display(), opt.reason);
            assert!(fast.length() >= opt.length() * (1.0 - 1e-5) - 1e-4);
            if opt.length() > 1e-3 {
                fast_ratios.push(f64::from(fast.length() / opt.length()));
            }
            if !baked.found() {
                failed += 1;
                continue;
            }
            // The game's tables route along the terrain's seams, which open by a millimetre or
            // two between tiles (a sample 1.24 mm off on the corpus): 5 mm.
            on_ground_within(nav.mesh(), &baked, 0.1, 5e-3).unwrap();
            let (lo, lb) = (opt.length(), baked.length());
            assert!(
                lb >= lo * (1.0 - 1e-5) - 1e-4,
                "{}: baked {lb} shorter than optimal {lo}",
                f.display()
            );
            if lo > 1e-3 {
                ratios.push(f64::from(lb / lo));
            }
        }
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    let worst = ratios.last().copied().unwrap_or(1.0);
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    eprintln!(
        "baked/optimal over {files_used} TRX, {} pairs: median {median:.4}, mean {mean:.4}, worst {worst:.4}; {failed} pairs the baked tables do not route",
        ratios.len()
    );
    fast_ratios.sort_by(f64::total_cmp);
    eprintln!(
        "fast/optimal on the same TRX pairs: median {:.4}, worst {:.4}",
        fast_ratios[fast_ratios.len() / 2],
        fast_ratios[fast_ratios.len() - 1]
    );
    assert!(files_used >= 50, "only {files_used} baked TRX");
    // 41 before slivers were flipped and file routes joined across them (issue 45), 67 with
    // the flips alone: a route through a flipped pair stepped between triangles the mesh no
    // longer joined.
    assert!(failed <= 16, "{failed} pairs the baked tables do not route");
    assert!(ratios.len() >= 400, "only {} pairs", ratios.len());
}

/// The search answers from the area API: path(a, a) = 0, path(a, b) = path(b, a), and a
/// blocker never makes a path shorter.
fn demo_source() -> &'static NavSource {
    static SOURCE: std::sync::OnceLock<NavSource> = std::sync::OnceLock::new();
    SOURCE.get_or_init(|| {
        let dir = tmp("demo-prop");
        areakit_app::demo::run(&dir).unwrap();
        let area = areakit_app::area::Area::open(&dir.join("demo.lyt")).unwrap();
        NavSource::from_area(&area)
    })
}

/// Paths from `(ax, ay)` to `(bx, by)` on the demo area, free and with a box of height `h` at
/// `(cx, cy)` turned by `yaw` degrees: symmetric, zero to itself, never shorter with the box.
fn blocker_case(
    (ax, ay, bx, by): (f32, f32, f32, f32),
    (cx, cy, h, yaw): (f32, f32, f32, f32),
) -> Result<(), TestCaseError> {
    let source = demo_source();
    let mut s = Searcher::new();
    let free = nav_of(source, &[], 0.0);
    let (a, b) = (Endpoint::plan(ax, ay), Endpoint::plan(bx, by));
    let o = free.find(&mut s, a, b, PathMode::Optimal, 1.0);
    prop_assume!(o.found());
    let back = free.find(&mut s, b, a, PathMode::Optimal, 1.0);
    prop_assert!((back.length() - o.length()).abs() <= 1e-4 * o.length().max(1.0));
    let same = free.find(&mut s, a, a, PathMode::Optimal, 1.0);
    prop_assert_eq!(same.length(), 0.0);
    let obj = areakit_app::objects::PlacedObject {
        kind: areakit_app::objects::ObjectKind::Placeable,
        model: "box".into(),
        position: [cx, cy, 0.0],
        orientation: areakit_app::objects::Orientation::Yaw(yaw.to_radians()),
        door_state: areakit_app::objects::DoorState::Closed,
        tag: None,
        source: "test".into(),
    };
    let placed = areakit_app::objects::place(&obj, &box_walkmesh(h));
    let blocked = nav_of(source, &[placed], 0.0);
    let ob = blocked.find(&mut s, a, b, PathMode::Optimal, 1.0);
    if ob.found() && ob.notes.is_empty() {
        prop_assert!(
            ob.length() >= o.length() * (1.0 - 1e-5) - 1e-4,
            "blocked {} < free {}",
            ob.length(),
            o.length()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn a_blocker_never_shortens_a_path(
        ax in 0.5f32..9.5, ay in 0.5f32..9.5, bx in 10.5f32..19.5, by in 10.5f32..17.5,
        cx in 2.0f32..18.0, cy in 2.0f32..16.0, h in 0.2f32..1.5, yaw in 0.0f32..90.0,
    ) {
        blocker_case((ax, ay, bx, by), (cx, cy, h, yaw))?;
    }
}

/// A case the property found: the polygon layer's path could not be walked through the
/// triangles, and the triangle layer's search that answers then started on the polygon
/// search's leftover queue (a panic).
#[test]
fn a_blocker_case_answered_by_the_triangle_layer() {
    blocker_case(
        (0.5, 0.5, 18.365025, 11.218985),
        (17.772928, 11.358643, 1.1459258, 68.21076),
    )
    .unwrap();
}

#[test]
fn pth_generate_then_check_and_hand_made_findings() {
    use areakit_formats::gff::views::{PathPoint, Pth};
    let dir = tmp("pth");
    areakit_app::demo::run(&dir).unwrap();
    let lyt = dir.join("demo.lyt");
    let bin = env!("CARGO_BIN_EXE_areakit");
    let pth_file = dir.join("gen.pth");
    let st = Command::new(bin)
        .args(["pth", "generate"])
        .arg(&lyt)
        .arg("-o")
        .arg(&pth_file)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(0));
    let pth =
        areakit_app::navigate::read_pth(&areakit_app::Session::files_only(), &pth_file).unwrap();
    assert!(pth.points.len() >= 8, "{} points", pth.points.len());
    // One island: the graph is connected.
    let mut seen = vec![false; pth.points.len()];
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(v) = stack.pop() {
        for &w in pth.neighbours(v) {
            if !std::mem::replace(&mut seen[w as usize], true) {
                stack.push(w as usize);
            }
        }
    }
    assert!(seen.iter().all(|&s| s), "the generated graph is connected");
    let nav = nav_of(
        &NavSource::from_area(&areakit_app::area::Area::open(&lyt).unwrap()),
        &[],
        0.0,
    );
    let found = areakit_app::pth::check_pth(&pth, &nav, "gen.pth");
    assert!(found.is_empty(), "{found:?}");

    // Hand-made: a point off the ground, a connection through the pillar of room a.
    let bad = Pth::from_adjacency(
        &[[1.5, 1.5], [50.0, 50.0], [18.5, 16.5], [1.5, 8.5]],
        &[vec![2, 3], vec![], vec![0], vec![0]],
    );
    let f = areakit_app::pth::check_pth(&bad, &nav, "bad.pth");
    let codes: Vec<&str> = f.iter().map(|f| f.code).collect();
    assert_eq!(
        codes,
        ["pth-point-off-ground", "pth-connection-off-ground"],
        "{f:?}"
    );
    assert_eq!(f[0].place.item.as_deref(), Some("Path_Points[1]"));
    // A connection range past the list is an error: exit 1 through the CLI.
    let broken = Pth {
        points: vec![PathPoint {
            x: 1.5,
            y: 1.5,
            first_connection: 4,
            connection_count: 2,
        }],
        connections: vec![0],
    };
    let broken_file = dir.join("broken.pth");
    std::fs::write(&broken_file, broken.to_bytes().unwrap()).unwrap();
    let out = Command::new(bin)
        .args(["pth", "check"])
        .arg(&lyt)
        .arg(&broken_file)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["findings"][0]["code"], "pth-connection-index");
    // `check` on the folder picks up `demo.pth` beside `demo.lyt`.
    std::fs::copy(&broken_file, dir.join("demo.pth")).unwrap();
    let report = areakit_app::check::check_paths(
        &areakit_app::Session::files_only(),
        std::slice::from_ref(&dir),
    )
    .unwrap();
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.finding.code == "pth-connection-index"),
        "{}",
        serde_json::to_value(&report).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `path --pairs` on one worker thread and on two prints the same bytes: one line per pair, in
/// the file's order (each line's start is its pair's start), found or not.
#[test]
fn pairs_print_the_same_lines_on_one_thread_and_on_two() {
    let wok = smallest_corpus_wok(200);
    let m = bwm::read(&std::fs::read(&wok).unwrap()).unwrap();
    let nav = nav_of(&NavSource::from_bwm(&m, "room"), &[], 0.0);
    let mut rng = Rng(25);
    let pairs = reachable_pairs(nav.mesh(), &mut rng, 300);
    assert_eq!(pairs.len(), 300);
    let pt = |e: Endpoint| format!("{},{},{}", e.x, e.y, e.z.unwrap());
    let mut text = String::from("# start goal\n");
    for (i, &(a, b)) in pairs.iter().enumerate() {
        // Every tenth goal far off the ground: a line that says why, in its place.
        let goal = if i % 10 == 9 {
            "1e6,1e6".to_string()
        } else {
            pt(b)
        };
        text.push_str(&format!("{} {goal}\n", pt(a)));
    }
    let dir = tmp("pairs-threads");
    let file = dir.join("pairs.txt");
    std::fs::write(&file, text).unwrap();
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_areakit"))
            .args(["path", wok.to_str().unwrap(), "--pairs"])
            .arg(&file)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    // Landmarks change the effort, never the answer: the same lengths and points.
    let parse = |b: Vec<u8>| -> Vec<Value> {
        String::from_utf8(b)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let plain = parse(run(&["--mode", "optimal"]));
    let bounded = parse(run(&["--mode", "optimal", "--landmarks", "4"]));
    assert_eq!(plain.len(), bounded.len());
    let mut compared = 0;
    for (i, (p, b)) in plain.iter().zip(&bounded).enumerate() {
        assert_eq!(p["found"], b["found"], "line {i}");
        assert_eq!(p["points"], b["points"], "line {i}: {p} {b}");
        assert_eq!(p["length"], b["length"], "line {i}");
        compared += usize::from(p["found"] == true);
    }
    assert_eq!(compared, 270);
    // The corner graph (built by default for a batch this long) changes the effort, never the
    // optimal length; fast mode over it stays within `FAST_BOUND` (2 %) of it.
    let graph = parse(run(&["--mode", "optimal", "--corner-graph", "yes"]));
    let without = parse(run(&["--mode", "optimal", "--corner-graph", "no"]));
    let fast = parse(run(&["--mode", "fast", "--corner-graph", "yes"]));
    let mut compared = 0;
    for (i, ((g, w), f)) in graph.iter().zip(&without).zip(&fast).enumerate() {
        assert_eq!(g["found"], w["found"], "line {i}");
        assert_eq!(f["found"], w["found"], "line {i}");
        if w["found"] != true {
            continue;
        }
        let (lg, lw, lf) = (
            g["length"].as_f64().unwrap(),
            w["length"].as_f64().unwrap(),
            f["length"].as_f64().unwrap(),
        );
        assert!((lg - lw).abs() <= 1e-5 * lw.max(1.0), "line {i}: {lg} {lw}");
        assert!(
            lf >= lw * (1.0 - 1e-5) && lf <= lw * areakit_geometry::nav::FAST_BOUND + 1e-5,
            "line {i}: fast {lf} optimal {lw}"
        );
        compared += 1;
    }
    assert_eq!(compared, 270);
    for mode in ["optimal", "fast"] {
        let one = run(&["--threads", "1", "--mode", mode]);
        let two = run(&["--threads", "2", "--mode", mode]);
        assert!(one == two, "{mode}: --threads 1 and 2 differ");
        assert!(
            run(&["--mode", mode]) == one,
            "{mode}: default threads differ"
        );
        let lines: Vec<Value> = String::from_utf8(two)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), pairs.len());
        for (i, (v, (a, _))) in lines.iter().zip(&pairs).enumerate() {
            assert_eq!(v["mode"], mode);
            assert_eq!(v["found"], i % 10 != 9, "line {i}: {v}");
            if i % 10 == 9 {
                assert!(v["reason"].as_str().unwrap().starts_with("goal"), "{v}");
                continue;
            }
            // (Not `assert_path_json`: a pair within one polygon of the polygon layer
            // expands no node.)
            assert!(
                v["reason"].is_null() && v["length"].as_f64().unwrap() > 0.0,
                "{v}"
            );
            assert!(v["points"].as_array().unwrap().len() >= 2, "{v}");
            let s = &v["start"];
            let near = |k: usize, c: f32| (s[k].as_f64().unwrap() - f64::from(c)).abs() < 1e-3;
            assert!(
                near(0, a.x) && near(1, a.y),
                "line {i}: start {s} for {a:?}"
            );
        }
    }
    // --threads: at least one, and only with --pairs.
    let (code, _, err) = crate::support::run(&[
        "path".as_ref(),
        wok.as_os_str(),
        "--pairs".as_ref(),
        file.as_os_str(),
        "--threads".as_ref(),
        "0".as_ref(),
    ]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = crate::support::run(&[
        "path".as_ref(),
        wok.as_os_str(),
        "--from".as_ref(),
        "1,1".as_ref(),
        "--to".as_ref(),
        "2,2".as_ref(),
        "--threads".as_ref(),
        "2".as_ref(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--pairs"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `areakit path --from --to --json` asked pair by pair and `areakit path --pairs` give the
/// same answer for every pair under the same settings (both modes, with and without the corner
/// graph): found or not, the same points, lengths, snaps and reasons. On a corpus TRX whose
/// floor carries patches of coplanar ground (where the location rule decides the triangle) and
/// a corpus WOK; random triangle centres (connected or not, with and without a height), a
/// point snapped onto the ground and one far off it.
#[test]
fn path_and_pairs_give_the_same_answers() {
    let trx_file = common::corpus_files(&["trx"])
        .into_iter()
        .find(|f| f.ends_with("shadowdale_house_moomaiden.trx"))
        .expect("shadowdale_house_moomaiden.trx");
    let t = trx::read(&std::fs::read(&trx_file).unwrap()).unwrap();
    let trx_nav = nav_of(&NavSource::from_trx(t.walkmesh().unwrap(), "t"), &[], 0.0);
    let wok = smallest_corpus_wok(200);
    let m = bwm::read(&std::fs::read(&wok).unwrap()).unwrap();
    let wok_nav = nav_of(&NavSource::from_bwm(&m, "room"), &[], 0.0);
    let dir = tmp("path-pairs");
    let mut rng = Rng(37);
    let mut compared = [0usize; 2];
    for (file, nav) in [(&trx_file, &trx_nav), (&wok, &wok_nav)] {
        let mesh = nav.mesh();
        let centre = |t: usize| {
            let [a, b, c] = mesh.triangle_points(t as u32);
            (a + b + c) / 3.0
        };
        let mut pairs: Vec<(String, String)> = Vec::new();
        // The goal of the shadowdale case in `nav_regressions.rs`: on a patch over the floor.
        if file == &trx_file {
            pairs.push(("31.393017,68.64437".into(), "5.4148426,11.127405".into()));
        }
        for i in 0..10 {
            let (a, b) = (
                centre(rng.below(mesh.triangle_count())),
                centre(rng.below(mesh.triangle_count())),
            );
            let pt = |p: Vec3| match i % 2 {
                0 => format!("{},{}", p.x, p.y),
                _ => format!("{},{},{}", p.x, p.y, p.z),
            };
            pairs.push((pt(a), pt(b)));
        }
        // Off the ground: 0.4 m beside a boundary vertex (snapped or not), and far away.
        let v = mesh.triangle_points(0)[0];
        pairs.push((format!("{},{}", v.x + 0.4, v.y), format!("{},{}", v.x, v.y)));
        pairs.push((format!("{},{}", v.x, v.y), "1e6,1e6".into()));
        let list = dir.join("pairs.txt");
        let text: String = pairs.iter().map(|(a, b)| format!("{a} {b}\n")).collect();
        std::fs::write(&list, text).unwrap();
        for settings in [
            ["--mode", "optimal", "--corner-graph", "no"],
            ["--mode", "optimal", "--corner-graph", "yes"],
            ["--mode", "fast", "--corner-graph", "no"],
            ["--mode", "fast", "--corner-graph", "yes"],
        ] {
            let out = Command::new(env!("CARGO_BIN_EXE_areakit"))
                .args(["path", file.to_str().unwrap(), "--pairs"])
                .arg(&list)
                .args(settings)
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "{settings:?}");
            let lines: Vec<Value> = String::from_utf8(out.stdout)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert_eq!(lines.len(), pairs.len(), "{settings:?}");
            for ((a, b), line) in pairs.iter().zip(&lines) {
                let mut args = vec![file.to_str().unwrap(), "--from", a, "--to", b];
                args.extend(settings);
                let single = path_json(&args);
                assert_eq!(&single, line, "{} {a} {b} {settings:?}", file.display());
                compared[usize::from(single["found"] == true)] += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    // Both kinds of answer were compared, most of them found.
    assert!(compared[1] >= 40 && compared[0] >= 8, "{compared:?}");
}

/// Under `--corner-graph auto` (the default) a batch big enough for the corner graph answers
/// each pair as a single `areakit path` does, in both modes: the optimal batch searches the
/// graph (its `faces_visited`, the effort, differs; the path is the same), the fast one does
/// not (a fast path over the graph is another path).
#[test]
fn a_big_batch_answers_as_single_queries_under_auto() {
    let wok = smallest_corpus_wok(200);
    let m = bwm::read(&std::fs::read(&wok).unwrap()).unwrap();
    let nav = nav_of(&NavSource::from_bwm(&m, "room"), &[], 0.0);
    let mesh = nav.mesh();
    let centre = |t: usize| {
        let [a, b, c] = mesh.triangle_points(t as u32);
        (a + b + c) / 3.0
    };
    let mut rng = Rng(38);
    let distinct: Vec<String> = (0..12)
        .map(|_| {
            let (a, b) = (
                centre(rng.below(mesh.triangle_count())),
                centre(rng.below(mesh.triangle_count())),
            );
            format!("{},{} {},{}", a.x, a.y, b.x, b.y)
        })
        .collect();
    // At least the batch size at which `auto` builds the graph.
    let lines: Vec<&String> = distinct.iter().cycle().take(132).collect();
    let dir = tmp("auto-batch");
    let list = dir.join("pairs.txt");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&list, text).unwrap();
    let mut compared = [0usize; 2];
    for mode in ["optimal", "fast"] {
        let out = Command::new(env!("CARGO_BIN_EXE_areakit"))
            .args(["path", wok.to_str().unwrap(), "--pairs"])
            .arg(&list)
            .args(["--mode", mode, "--json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{mode}");
        let batch: Vec<Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(batch.len(), lines.len(), "{mode}");
        for (k, pair) in distinct.iter().enumerate() {
            let (a, b) = pair.split_once(' ').unwrap();
            let mut single = path_json(&[
                wok.to_str().unwrap(),
                "--from",
                a,
                "--to",
                b,
                "--mode",
                mode,
            ]);
            for line in batch.iter().skip(k).step_by(distinct.len()) {
                let mut line = line.clone();
                if mode == "optimal" {
                    for v in [&mut single, &mut line] {
                        v.as_object_mut().unwrap().remove("faces_visited");
                    }
                }
                assert_eq!(single, line, "{mode} {pair}");
            }
            compared[usize::from(single["found"] == true)] += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(compared[1] >= 16, "{compared:?}");
}

/// A goal in sight is reached straight in both modes: from the wall corner `4,3` of the demo
/// area, the fast mode's corridor went round an obstacle (20.751 m through `10,10` and
/// `13,15`) beside the straight 19.812 m line (issue 45).
#[test]
fn demo_area_fast_path_goes_straight_to_a_goal_in_sight() {
    let dir = tmp("demo-straight");
    areakit_app::demo::run(&dir).unwrap();
    let lyt = dir.join("demo.lyt");
    let ask = |mode: &str| {
        path_json(&[
            lyt.to_str().unwrap(),
            "--from",
            "4,3",
            "--to",
            "18.5,16.5",
            "--mode",
            mode,
        ])
    };
    let (optimal, fast) = (ask("optimal"), ask("fast"));
    assert_path_json(&fast);
    assert_eq!(optimal["points"].as_array().unwrap().len(), 2, "{optimal}");
    assert_eq!(fast["points"], optimal["points"], "{fast}");
    let straight = (14.5f64).hypot(13.5);
    assert!(
        (fast["length"].as_f64().unwrap() - straight).abs() < 1e-4,
        "{fast}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
