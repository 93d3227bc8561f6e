//! The 8 corpus NWN2 areas with TRN, GIT and toolset-baked TRX: the GIT's cutters and objects
//! as read, and the staleness comparison (only `harper's hill cave`, whose TRN is turned 180°,
//! is stale).

use std::path::PathBuf;

use areakit_area::nwn2_git::{Nwn2Git, ObjectKind};
use areakit_area::nwn2_stale;
use areakit_formats::{gff, trx};

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

fn find(stem: &str, ext: &str) -> PathBuf {
    let dir = areakit_testkit::corpus_dir().join("nwn2/Kaedrin_nwn2cc/NWN2 WIP/Source/DB_Beta_23");
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_stem().is_some_and(|s| s == stem)
                && p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext))
        })
        .unwrap()
}

fn git(area: &str) -> Nwn2Git {
    Nwn2Git::from_gff(&gff::read(&std::fs::read(find(area, "git")).unwrap()).unwrap()).unwrap()
}

fn walkmesh(area: &str, ext: &str) -> trx::Walkmesh {
    trx::read(&std::fs::read(find(area, ext)).unwrap())
        .unwrap()
        .walkmesh()
        .unwrap()
        .clone()
}

#[test]
fn the_gits_cutters_and_objects() {
    let mut cutters = 0;
    let mut short = 0;
    let mut objects = [0usize; 4];
    for area in AREAS {
        let g = git(area);
        for c in &g.cutters {
            // Every cutter's first point is (0, 0): its first corner is its position.
            if let Some(first) = c.corners.first() {
                assert_eq!(
                    *first,
                    [c.position[0], c.position[1]],
                    "{area} cutter {}",
                    c.index
                );
            }
            assert_eq!(c.orientation, [0.0; 3], "{area} cutter {}", c.index);
            short += usize::from(!c.cuts());
        }
        cutters += g.cutters.len();
        for o in &g.objects {
            let k = ObjectKind::ALL.iter().position(|&k| k == o.kind).unwrap();
            objects[k] += 1;
            assert!(
                o.position.iter().all(|v| v.is_finite()) && o.scale.iter().all(|&s| s > 0.0),
                "{area} {o:?}"
            );
        }
    }
    // The investigation's counts (docs/formats/nwn2-trx.md, "Baking from a GIT").
    assert_eq!(cutters, 482);
    assert_eq!(short, 5);
    assert!(objects.iter().all(|&n| n > 0), "{objects:?}");
}

#[test]
fn only_the_turned_terrain_is_stale() {
    let mut stale = Vec::new();
    for area in AREAS {
        let g = git(area);
        let s =
            nwn2_stale::compare(&walkmesh(area, "trn"), &walkmesh(area, "trx"), Some(&g)).unwrap();
        eprintln!(
            "{area}: {} of {} points differ ({:.2} %), tiles {:?}, cutters not baked {}",
            s.differ,
            s.walkable_in_either,
            100.0 * s.differ as f64 / s.walkable_in_either.max(1) as f64,
            s.tiles,
            s.cutters_not_baked.len()
        );
        if s.is_stale() {
            stale.push(area);
        } else {
            assert!(
                s.cutters_not_baked.is_empty(),
                "{area}: {:?}",
                s.cutters_not_baked
            );
        }
    }
    assert_eq!(stale, ["harper's hill cave"]);
    // Turned back (x, y -> 90 - x, 90 - y), the same terrain matches its TRX.
    let mut turned = walkmesh("harper's hill cave", "trn");
    for v in &mut turned.vertices {
        *v = [90.0 - v[0], 90.0 - v[1], v[2]];
    }
    let g = git("harper's hill cave");
    let s = nwn2_stale::compare(&turned, &walkmesh("harper's hill cave", "trx"), Some(&g)).unwrap();
    eprintln!(
        "harper's hill cave turned back: {} of {} differ",
        s.differ, s.walkable_in_either
    );
    assert!(!s.is_stale(), "{s:?}");
}

/// A cutter moved after the bake: its new place is still walkable in the TRX, and `compare`
/// names it.
#[test]
fn a_moved_cutter_is_named() {
    let area = "enter world";
    let mut g = git(area);
    let (trn, shipped) = (walkmesh(area, "trn"), walkmesh(area, "trx"));
    let before = nwn2_stale::compare(&trn, &shipped, Some(&g)).unwrap();
    assert!(before.cutters_not_baked.is_empty());
    // The largest cutter, moved 4 m along -x.
    let area_of = |c: &areakit_area::nwn2_git::Cutter| {
        let r = &c.corners;
        (0..r.len())
            .map(|i| r[i][0] * r[(i + 1) % r.len()][1] - r[(i + 1) % r.len()][0] * r[i][1])
            .sum::<f32>()
            .abs()
    };
    let big = (0..g.cutters.len())
        .max_by(|&a, &b| area_of(&g.cutters[a]).total_cmp(&area_of(&g.cutters[b])))
        .unwrap();
    for p in &mut g.cutters[big].corners {
        p[0] -= 4.0;
    }
    let after = nwn2_stale::compare(&trn, &shipped, Some(&g)).unwrap();
    eprintln!(
        "moved cutter {}: {:?}; {} of {} points differ",
        g.cutters[big].index, after.cutters_not_baked, after.differ, after.walkable_in_either
    );
    assert!(
        after
            .cutters_not_baked
            .iter()
            .any(|c| c.index == g.cutters[big].index),
        "{:?}",
        after.cutters_not_baked
    );
    assert!(after.differ > before.differ);
}

/// A border of one tile on `enter world`'s terrain (none of the real files has one): nothing is
/// left outside the inner rectangle, the ground inside is untouched (sampled at 0.25 m), and
/// the report gives the area stripped.
#[test]
fn a_border_strips_the_ground_outside_the_inner_rectangle() {
    let mut w = walkmesh("enter world", "trn");
    w.border_size = 1;
    let (lo, hi) = (w.tile_width, w.tile_width * (w.grid_width - 1) as f32);
    let (out, report) = areakit_area::nwn2_cut::cut_walkmesh(&w, &Nwn2Git::default()).unwrap();
    let b = report.border.as_ref().unwrap();
    assert!(b.area_removed > 100.0, "{b:?}");
    let walkable = |m: &trx::Walkmesh, p: [f32; 2]| {
        m.triangles.iter().filter(|t| t.is_walkable()).any(|t| {
            let [a, b, c] = t.vertices.map(|i| m.vertices[i as usize]);
            let s = |u: [f32; 3], v: [f32; 3]| {
                (v[0] - u[0]) * (p[1] - u[1]) - (p[0] - u[0]) * (v[1] - u[1])
            };
            let (x, y, z) = (s(a, b), s(b, c), s(c, a));
            (x >= 0.0 && y >= 0.0 && z >= 0.0) || (x <= 0.0 && y <= 0.0 && z <= 0.0)
        })
    };
    let side = w.tile_width * w.grid_width as f32;
    let mut inside = 0;
    for i in 0..(side / 0.25) as usize {
        for j in 0..(side / 0.25) as usize {
            let p = [0.13 + 0.25 * i as f32, 0.13 + 0.25 * j as f32];
            let within = p.iter().all(|&c| c > lo + 1e-3 && c < hi - 1e-3);
            let outside = p.iter().any(|&c| c < lo - 1e-3 || c > hi + 1e-3);
            if within {
                assert_eq!(walkable(&out, p), walkable(&w, p), "{p:?}");
                inside += 1;
            } else if outside {
                assert!(
                    !walkable(&out, p),
                    "{p:?} outside the border is still walkable"
                );
            }
        }
    }
    assert!(inside > 1000);
    for t in &out.triangles {
        let c = t.center;
        assert!(
            c.iter().all(|&v| v >= lo - 1e-3 && v <= hi + 1e-3),
            "a triangle centred at {c:?} outside"
        );
    }
}
