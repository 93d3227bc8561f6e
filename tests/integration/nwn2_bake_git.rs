//! `bake TRN --git GIT` on the 8 corpus areas whose toolset-baked TRX is beside them, judged
//! by a sampler of this test's own: a 0.5 m grid, a point walkable when a walkable triangle
//! holds it in plan, the cutters read from the GIT by this test (position + point, non-zero
//! winding). The bake must agree with the toolset's TRX at least as well as "TRN walkable and
//! outside every cutter" does, and everywhere on `enter world`.

use std::path::{Path, PathBuf};
use std::process::Command;

use areakit_formats::{gff, trx};

use crate::common;

const AREAS: [&str; 8] = [
    "db_guildhall_tentacus",
    "db_templemaiden_int",
    "enter world",
    "fh_freehavenv2",
    "fh_settlement",
    "harper's hill cave",
    "md_fancy fox fashions_rlg",
    "shadowdale_mages_guild",
];

fn folder() -> PathBuf {
    common::corpus_dir().join("nwn2/Kaedrin_nwn2cc/NWN2 WIP/Source/DB_Beta_23")
}

/// The file `stem.ext` of the folder, any case of the extension.
fn find(stem: &str, ext: &str) -> PathBuf {
    std::fs::read_dir(folder())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_stem().is_some_and(|s| s == stem)
                && p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext))
        })
        .unwrap_or_else(|| panic!("{stem}.{ext} is not in the corpus"))
}

/// Walkable triangles in plan, bucketed by 1 m cells.
pub(crate) struct Ground {
    tris: Vec<[[f64; 2]; 3]>,
    cells: std::collections::HashMap<(i32, i32), Vec<u32>>,
    pub(crate) extent: [f64; 2],
}

impl Ground {
    pub(crate) fn of(path: &Path) -> Ground {
        let t = trx::read(&std::fs::read(path).unwrap()).unwrap();
        let w = t.walkmesh().unwrap();
        let mut g = Ground {
            tris: Vec::new(),
            cells: Default::default(),
            extent: [
                f64::from(w.grid_width) * f64::from(w.tile_width),
                f64::from(w.grid_height) * f64::from(w.tile_width),
            ],
        };
        for tri in w.triangles.iter().filter(|t| t.flags & 1 != 0) {
            let p = tri.vertices.map(|v| {
                let v = w.vertices[v as usize];
                [f64::from(v[0]), f64::from(v[1])]
            });
            let id = g.tris.len() as u32;
            g.tris.push(p);
            let lo = |a: usize| p.iter().map(|q| q[a]).fold(f64::INFINITY, f64::min).floor() as i32;
            let hi = |a: usize| {
                p.iter()
                    .map(|q| q[a])
                    .fold(f64::NEG_INFINITY, f64::max)
                    .floor() as i32
            };
            for x in lo(0)..=hi(0) {
                for y in lo(1)..=hi(1) {
                    g.cells.entry((x, y)).or_default().push(id);
                }
            }
        }
        g
    }

    /// Whether `p` lies within `tol` (metres) of a walkable triangle.
    fn near(&self, p: [f64; 2], tol: f64) -> bool {
        let Some(ids) = self.cells.get(&(p[0].floor() as i32, p[1].floor() as i32)) else {
            return false;
        };
        ids.iter().any(|&i| {
            let t = self.tris[i as usize];
            let inside = {
                let s = |u: [f64; 2], v: [f64; 2]| {
                    (v[0] - u[0]) * (p[1] - u[1]) - (p[0] - u[0]) * (v[1] - u[1])
                };
                let (x, y, z) = (s(t[0], t[1]), s(t[1], t[2]), s(t[2], t[0]));
                (x >= 0.0 && y >= 0.0 && z >= 0.0) || (x <= 0.0 && y <= 0.0 && z <= 0.0)
            };
            inside || (0..3).any(|k| seg_dist(p, t[k], t[(k + 1) % 3]) <= tol)
        })
    }

    pub(crate) fn walkable(&self, p: [f64; 2]) -> bool {
        let Some(ids) = self.cells.get(&(p[0].floor() as i32, p[1].floor() as i32)) else {
            return false;
        };
        ids.iter().any(|&i| {
            let [a, b, c] = self.tris[i as usize];
            let s = |u: [f64; 2], v: [f64; 2]| {
                (v[0] - u[0]) * (p[1] - u[1]) - (p[0] - u[0]) * (v[1] - u[1])
            };
            let (x, y, z) = (s(a, b), s(b, c), s(c, a));
            (x >= 0.0 && y >= 0.0 && z >= 0.0) || (x <= 0.0 && y <= 0.0 && z <= 0.0)
        })
    }
}

/// The cutters of a GIT, read here: `TriggerList` entries of type 3, corners position + point
/// summed in `f32`, those of 3 corners or more.
fn cutters(git: &Path) -> Vec<Vec<[f64; 2]>> {
    let g = gff::read(&std::fs::read(git).unwrap()).unwrap();
    let list = |s: &gff::Struct, l: &str| {
        s.get(l)
            .and_then(|v| v.as_list())
            .map(<[gff::Struct]>::to_vec)
            .unwrap_or_default()
    };
    let num = |s: &gff::Struct, l: &str| s.get_number(l).unwrap() as f32;
    list(&g.root, "TriggerList")
        .iter()
        .filter(|t| t.get_int("Type") == Some(3))
        .map(|t| {
            let (x, y) = (num(t, "XPosition"), num(t, "YPosition"));
            list(t, "Geometry")
                .iter()
                .map(|p| {
                    [
                        f64::from(x + num(p, "PointX")),
                        f64::from(y + num(p, "PointY")),
                    ]
                })
                .collect::<Vec<_>>()
        })
        .filter(|r: &Vec<[f64; 2]>| r.len() >= 3)
        .collect()
}

fn seg_dist(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let d = [b[0] - a[0], b[1] - a[1]];
    let l = d[0] * d[0] + d[1] * d[1];
    let t = if l == 0.0 {
        0.0
    } else {
        (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / l).clamp(0.0, 1.0)
    };
    (p[0] - a[0] - t * d[0]).hypot(p[1] - a[1] - t * d[1])
}

fn in_ring(r: &[[f64; 2]], p: [f64; 2]) -> bool {
    let mut w = 0;
    for i in 0..r.len() {
        let (a, b) = (r[i], r[(i + 1) % r.len()]);
        let side = (b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1]);
        if a[1] <= p[1] && b[1] > p[1] && side > 0.0 {
            w += 1;
        } else if a[1] > p[1] && b[1] <= p[1] && side < 0.0 {
            w -= 1;
        }
    }
    w != 0
}

struct Row {
    points: usize,
    predicted: usize,
    baked: usize,
    short: usize,
    short_near_objects: usize,
}

fn measure(area: &str, dir: &Path) -> Row {
    let (trn, git, shipped) = (find(area, "trn"), find(area, "git"), find(area, "trx"));
    let ours = dir.join(format!("{area}.trx"));
    let out = Command::new(env!("CARGO_BIN_EXE_areakit"))
        .args([
            "bake".as_ref(),
            trn.as_os_str(),
            "--git".as_ref(),
            git.as_os_str(),
            "-o".as_ref(),
            ours.as_os_str(),
            "--json".as_ref(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{area}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let objects: Vec<[f64; 2]> = report["objects_not_applied"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            [
                o["position"][0].as_f64().unwrap(),
                o["position"][1].as_f64().unwrap(),
            ]
        })
        .collect();
    let (trn_g, baked_g, shipped_g) = (Ground::of(&trn), Ground::of(&ours), Ground::of(&shipped));
    let rings = cutters(&git);
    let mut row = Row {
        points: 0,
        predicted: 0,
        baked: 0,
        short: 0,
        short_near_objects: 0,
    };
    let [ex, ey] = shipped_g.extent;
    let (nx, ny) = ((ex / 0.5) as usize, (ey / 0.5) as usize);
    for i in 0..nx {
        for j in 0..ny {
            let p = [0.25 + 0.5 * i as f64, 0.25 + 0.5 * j as f64];
            let truth = shipped_g.walkable(p);
            let predicted = trn_g.walkable(p) && !rings.iter().any(|r| in_ring(r, p));
            let baked = baked_g.walkable(p);
            row.points += 1;
            row.predicted += usize::from(predicted == truth);
            row.baked += usize::from(baked == truth);
            if baked != truth {
                row.short += 1;
                let near = objects
                    .iter()
                    .any(|o| (o[0] - p[0]).hypot(o[1] - p[1]) <= 3.0);
                row.short_near_objects += usize::from(near);
            }
        }
    }
    row
}

#[test]
fn baked_ground_agrees_with_the_toolset_at_least_as_well_as_the_prediction() {
    let dir = std::env::temp_dir().join(format!("areakit-test-nwn2-bake-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut covered = 0;
    eprintln!(
        "area | points | prediction agrees | bake agrees | bake differs | of which within 3 m of an object not applied"
    );
    for area in AREAS {
        let r = measure(area, &dir);
        let pct = |n: usize| 100.0 * n as f64 / r.points as f64;
        eprintln!(
            "{area} | {} | {} ({:.2} %) | {} ({:.2} %) | {} | {}",
            r.points,
            r.predicted,
            pct(r.predicted),
            r.baked,
            pct(r.baked),
            r.short,
            r.short_near_objects
        );
        assert!(
            r.baked >= r.predicted,
            "{area}: the bake agrees on {} points, the prediction on {}",
            r.baked,
            r.predicted
        );
        if area == "enter world" {
            assert_eq!(r.baked, r.points, "enter world: every point");
        }
        covered += 1;
    }
    assert_eq!(covered, 8);
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs the `areakit` binary.
pub(crate) fn areakit(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_areakit"))
        .args(args)
        .output()
        .unwrap()
}

/// Each baked area passes `check` with no error, bakes to itself again, and its baked paths
/// (`path --mode baked`, the tables' own corridors) stay on its walkable ground.
#[test]
fn baked_areas_check_clean_rebake_to_themselves_and_walk_on_their_ground() {
    let dir = std::env::temp_dir().join(format!("areakit-test-nwn2-baked-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut walked = 0;
    for area in AREAS {
        let ours = dir.join(format!("{area}.trx"));
        let (trn, git) = (find(area, "trn"), find(area, "git"));
        let out = areakit(&[
            "bake".as_ref(),
            trn.as_os_str(),
            "--git".as_ref(),
            git.as_os_str(),
            "-o".as_ref(),
            ours.as_os_str(),
        ]);
        assert!(
            out.status.success(),
            "{area}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let check = areakit(&["check".as_ref(), ours.as_os_str(), "--json".as_ref()]);
        let report: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
        let errors: Vec<&serde_json::Value> = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["severity"] == "error")
            .collect();
        assert!(errors.is_empty(), "{area}: {errors:?}");
        assert_eq!(check.status.code(), Some(0), "{area}");
        let baked = trx::read(&std::fs::read(&ours).unwrap()).unwrap();
        assert_eq!(
            areakit_app::bake::bake(&baked).unwrap(),
            baked,
            "{area}: baking the bake changes it"
        );
        // 40 pairs of walkable triangle centres, spread through the triangle list.
        let w = baked.walkmesh().unwrap();
        let centres: Vec<[f32; 2]> = w
            .triangles
            .iter()
            .filter(|t| t.is_walkable())
            .map(|t| t.center)
            .collect();
        let step = (centres.len() / 80).max(1);
        let pairs: String = (0..40)
            .map(|i| {
                let (a, b) = (
                    centres[(i * step) % centres.len()],
                    centres[(centres.len() - 1 - i * step) % centres.len()],
                );
                format!("{},{} {},{}\n", a[0], a[1], b[0], b[1])
            })
            .collect();
        let pairs_file = dir.join(format!("{area}.pairs"));
        std::fs::write(&pairs_file, pairs).unwrap();
        let out = areakit(&[
            "path".as_ref(),
            ours.as_os_str(),
            "--pairs".as_ref(),
            pairs_file.as_os_str(),
            "--mode".as_ref(),
            "baked".as_ref(),
        ]);
        assert!(
            out.status.success(),
            "{area}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ground = Ground::of(&ours);
        for line in String::from_utf8(out.stdout).unwrap().lines() {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            if r["found"] != true {
                continue;
            }
            let pts: Vec<[f64; 2]> = r["points"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| [p[0].as_f64().unwrap(), p[1].as_f64().unwrap()])
                .collect();
            for s in pts.windows(2) {
                let n = ((s[1][0] - s[0][0]).hypot(s[1][1] - s[0][1]) / 0.05)
                    .ceil()
                    .max(1.0) as usize;
                for k in 0..=n {
                    let t = k as f64 / n as f64;
                    let p = [
                        s[0][0] + (s[1][0] - s[0][0]) * t,
                        s[0][1] + (s[1][1] - s[0][1]) * t,
                    ];
                    assert!(
                        ground.near(p, 1e-3),
                        "{area}: the baked path {line} leaves the walkable ground at {p:?}"
                    );
                }
            }
            walked += 1;
        }
    }
    eprintln!("{walked} baked paths walked");
    assert!(walked >= 8 * 20, "{walked} paths found");
    std::fs::remove_dir_all(&dir).ok();
}

/// `check` of the corpus folder reports the one turned terrain as stale and no cutter as
/// moved; a GIT whose cutter was moved (written by the GFF writer, checked with its TRN and
/// TRX named together) gets that cutter named.
#[test]
fn check_tells_a_stale_trx_and_a_moved_cutter() {
    let check = |paths: &[&std::ffi::OsStr]| -> Vec<serde_json::Value> {
        let mut args: Vec<&std::ffi::OsStr> = vec!["check".as_ref(), "--json".as_ref()];
        args.extend_from_slice(paths);
        let out = areakit(&args);
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"].as_str().unwrap().starts_with("nwn2-"))
            .cloned()
            .collect()
    };
    let found = check(&[folder().as_os_str()]);
    let stale: Vec<&serde_json::Value> = found
        .iter()
        .filter(|f| f["code"] == "nwn2-trx-stale")
        .collect();
    assert_eq!(stale.len(), 1, "{found:?}");
    assert!(
        stale[0]["path"]
            .as_str()
            .unwrap()
            .ends_with("harper's hill cave.trx"),
        "{stale:?}"
    );
    assert_eq!(stale[0]["severity"], "warning");
    assert_eq!(found.len(), 1, "{found:?}");

    let dir = std::env::temp_dir().join(format!("areakit-test-nwn2-moved-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let area = "enter world";
    std::fs::copy(find(area, "trn"), dir.join("area.trn")).unwrap();
    std::fs::copy(find(area, "trx"), dir.join("area.trx")).unwrap();
    let mut g = gff::read(&std::fs::read(find(area, "git")).unwrap()).unwrap();
    let Some(gff::Value::List(triggers)) = g.root.get_mut("TriggerList") else {
        panic!("no TriggerList")
    };
    let cutter = triggers
        .iter_mut()
        .filter(|t| t.get_int("Type") == Some(3))
        .nth(4)
        .unwrap();
    let Some(gff::Value::Float(x)) = cutter.get_mut("XPosition") else {
        panic!("no XPosition")
    };
    *x -= 4.0;
    std::fs::write(dir.join("area.git"), gff::write(&g).unwrap()).unwrap();
    let named: Vec<PathBuf> = ["area.trn", "area.trx", "area.git"]
        .iter()
        .map(|n| dir.join(n))
        .collect();
    let found = check(&named.iter().map(|p| p.as_os_str()).collect::<Vec<_>>());
    let moved: Vec<&serde_json::Value> = found
        .iter()
        .filter(|f| f["code"] == "nwn2-cutter-not-baked")
        .collect();
    assert_eq!(moved.len(), 1, "{found:?}");
    assert!(
        moved[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("walkmesh cutter 4 "),
        "{moved:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `render` of a terrain draws the walkmesh cutters of the GIT beside it, one dashed outline
/// per cutter with a polygon; without a GIT beside it, none.
#[test]
fn render_draws_the_cutters_of_the_git_beside_a_terrain() {
    let dir = std::env::temp_dir().join(format!("areakit-test-nwn2-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("ew.svg");
    let trx = find("enter world", "trx");
    let r = areakit(&[
        "render".as_ref(),
        trx.as_os_str(),
        "-o".as_ref(),
        svg.as_os_str(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    let cutters = cutters(&find("enter world", "git"));
    assert_eq!(cutters.len(), 6);
    assert_eq!(text.matches(r#"<g class="cutter">"#).count(), cutters.len());
    assert!(text.contains("walkmesh cutter (GIT)"));
    // Alone in a folder, the same terrain has no cutters to draw.
    let alone = dir.join("alone.trx");
    std::fs::copy(&trx, &alone).unwrap();
    let r = areakit(&[
        "render".as_ref(),
        alone.as_os_str(),
        "-o".as_ref(),
        svg.as_os_str(),
    ]);
    assert!(r.status.success());
    assert_eq!(
        std::fs::read_to_string(&svg)
            .unwrap()
            .matches(r#"class="cutter""#)
            .count(),
        0
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `bake --models DIR`: a model written by the MDB writer, named as a placeable's template,
/// with a non-walkable WALK rectangle, takes the ground away under the placeable (turned by
/// its bearing); another with a walkable square adds walkable ground; the report lists both
/// as applied and no longer as not applied.
#[test]
fn placed_walkmeshes_replace_the_ground_under_their_objects() {
    use areakit_formats::mdb;
    let area = "enter world";
    let (trn, git_path) = (find(area, "trn"), find(area, "git"));
    let dir = std::env::temp_dir().join(format!("areakit-test-nwn2-models-{}", std::process::id()));
    let models = dir.join("models");
    std::fs::create_dir_all(&models).unwrap();
    let plain = dir.join("plain.trx");
    assert!(
        areakit(&[
            "bake".as_ref(),
            trn.as_os_str(),
            "--git".as_ref(),
            git_path.as_os_str(),
            "-o".as_ref(),
            plain.as_os_str()
        ])
        .status
        .success()
    );
    let before = Ground::of(&plain);
    // Two placeables standing on walkable ground, with templates.
    let g = gff::read(&std::fs::read(&git_path).unwrap()).unwrap();
    let list = g
        .root
        .get("Placeable List")
        .and_then(|v| v.as_list())
        .unwrap()
        .to_vec();
    let on_ground: Vec<(String, [f64; 3], f64)> = list
        .iter()
        .filter_map(|p| {
            let t = p.get_resref("TemplateResRef")?.to_str().into_owned();
            let pos = [p.get_number("X")?, p.get_number("Y")?, p.get_number("Z")?];
            (!t.is_empty() && before.walkable([pos[0], pos[1]]))
                .then(|| (t, pos, p.get_number("Bearing").unwrap_or(0.0)))
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    let picked: Vec<&(String, [f64; 3], f64)> = on_ground
        .iter()
        .filter(|o| seen.insert(o.0.clone()))
        .take(2)
        .collect();
    assert_eq!(picked.len(), 2, "{on_ground:?}");
    let quad = |hx: f32, hy: f32, flags: u32| mdb::Mdb {
        packets: vec![mdb::Packet::Walk(mdb::Walk {
            vertices: vec![
                [-hx, -hy, 0.0],
                [hx, -hy, 0.0],
                [hx, hy, 0.0],
                [-hx, hy, 0.0],
            ],
            triangles: vec![
                mdb::WalkTriangle {
                    vertices: [0, 1, 2],
                    flags,
                },
                mdb::WalkTriangle {
                    vertices: [0, 2, 3],
                    flags,
                },
            ],
            ..mdb::Walk::default()
        })],
        ..mdb::Mdb::default()
    };
    std::fs::write(
        models.join(format!("{}.MDB", picked[0].0)),
        mdb::write(&quad(0.8, 0.3, 0)).unwrap(),
    )
    .unwrap();
    std::fs::write(
        models.join(format!("{}.mdb", picked[1].0)),
        mdb::write(&quad(0.4, 0.4, 0x21)).unwrap(),
    )
    .unwrap();
    let ours = dir.join("placed.trx");
    let out = areakit(&[
        "bake".as_ref(),
        trn.as_os_str(),
        "--git".as_ref(),
        git_path.as_os_str(),
        "--models".as_ref(),
        models.as_os_str(),
        "-o".as_ref(),
        ours.as_os_str(),
        "--json".as_ref(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let applied: Vec<&str> = report["objects_applied"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a[0]["template"].as_str().unwrap())
        .collect();
    let copies = |t: &str| on_ground.iter().filter(|o| o.0 == t).count();
    assert_eq!(
        applied.len(),
        copies(&picked[0].0) + copies(&picked[1].0),
        "{applied:?}"
    );
    assert!(
        report["objects_not_applied"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o["template"] != picked[0].0.as_str())
    );
    let after = Ground::of(&ours);
    // Points of each footprint in the object's frame, turned and moved as the test reads the
    // GIT.
    let inside = |o: &(String, [f64; 3], f64), h: [f64; 2]| -> Vec<[f64; 2]> {
        let (s, c) = o.2.sin_cos();
        let mut pts = Vec::new();
        for i in 1..8 {
            for j in 1..8 {
                let (x, y) = (h[0] * (i as f64 / 4.0 - 1.0), h[1] * (j as f64 / 4.0 - 1.0));
                pts.push([o.1[0] + c * x - s * y, o.1[1] + s * x + c * y]);
            }
        }
        pts
    };
    let blocked = inside(picked[0], [0.8, 0.3]);
    assert!(
        blocked.iter().all(|&p| !after.walkable(p)),
        "ground left under the non-walkable model"
    );
    assert!(blocked.iter().filter(|&&p| before.walkable(p)).count() > 20);
    assert!(
        inside(picked[1], [0.4, 0.4])
            .iter()
            .all(|&p| after.walkable(p)),
        "the walkable model is not walkable"
    );
    let check = areakit(&["check".as_ref(), ours.as_os_str()]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    std::fs::remove_dir_all(&dir).ok();
}
