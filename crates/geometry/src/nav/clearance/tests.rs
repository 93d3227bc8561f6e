//! Unit tests on small hand-made surfaces.

use std::collections::HashMap;

use glam::{DVec2, Vec3};

use super::*;

/// A grid of square cells (`cell` metres) with the cells `keep(i, j)` as two triangles each,
/// counter-clockwise, diagonals alternating; heights from `z(x, y)`.
pub(super) fn mask_grid(
    nx: usize,
    ny: usize,
    cell: f32,
    origin: (f32, f32),
    z: impl Fn(f32, f32) -> f32,
    keep: impl Fn(usize, usize) -> bool,
) -> Surface {
    let mut s = Surface::default();
    for j in 0..=ny {
        for i in 0..=nx {
            let (x, y) = (origin.0 + i as f32 * cell, origin.1 + j as f32 * cell);
            s.vertices.push(Vec3::new(x, y, z(x, y)));
        }
    }
    let id = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    for j in 0..ny {
        for i in 0..nx {
            if !keep(i, j) {
                continue;
            }
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            if (i + j) % 2 == 0 {
                s.triangles.push([a, b, c]);
                s.triangles.push([a, c, d]);
            } else {
                s.triangles.push([a, b, d]);
                s.triangles.push([b, c, d]);
            }
            s.regions.push(0);
            s.regions.push(0);
        }
    }
    s
}

/// Appends `b` to `a` (vertices not shared).
pub(super) fn append(a: &mut Surface, b: &Surface) {
    let off = a.vertices.len() as u32;
    a.vertices.extend_from_slice(&b.vertices);
    a.triangles
        .extend(b.triangles.iter().map(|t| t.map(|i| i + off)));
    a.regions.extend_from_slice(&b.regions);
}

fn plan(v: Vec3) -> DVec2 {
    DVec2::new(f64::from(v.x), f64::from(v.y))
}

fn area(s: &Surface) -> f64 {
    s.triangles
        .iter()
        .map(|t| {
            let p = t.map(|i| plan(s.vertices[i as usize]));
            geom::orient(p[0], p[1], p[2]) * 0.5
        })
        .sum()
}

/// Boundary sides (used by one triangle) of a surface, in plan, with their heights.
fn boundary(s: &Surface) -> Vec<(Vec3, Vec3)> {
    let mut count: HashMap<(u32, u32), u32> = HashMap::new();
    for t in &s.triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *count.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    let mut out = Vec::new();
    for t in &s.triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            if count[&(a.min(b), a.max(b))] == 1 {
                out.push((s.vertices[a as usize], s.vertices[b as usize]));
            }
        }
    }
    out
}

fn dist_to(p: DVec2, segs: &[(Vec3, Vec3)]) -> f64 {
    segs.iter()
        .map(|(a, b)| geom::seg_dist2(p, plan(*a), plan(*b)).sqrt())
        .fold(f64::INFINITY, f64::min)
}

/// Sample points of every triangle: corners, side midpoints, centroid, and inner points.
fn samples(s: &Surface) -> Vec<DVec2> {
    let mut out = Vec::new();
    for t in &s.triangles {
        let p = t.map(|i| plan(s.vertices[i as usize]));
        for (a, b, c) in [
            (1.0, 0.0, 0.0),
            (0.0, 1.0, 0.0),
            (0.0, 0.0, 1.0),
            (0.5, 0.5, 0.0),
            (0.0, 0.5, 0.5),
            (0.5, 0.0, 0.5),
            (1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0),
            (0.7, 0.2, 0.1),
            (0.1, 0.7, 0.2),
            (0.2, 0.1, 0.7),
        ] {
            out.push(p[0] * a + p[1] * b + p[2] * c);
        }
    }
    out
}

/// Conformity: every side used by at most two triangles, no vertex inside another side,
/// every triangle counter-clockwise with area. Returns (interior sides, boundary sides).
pub(super) fn check_conforming(s: &Surface) -> (usize, usize) {
    let mut count: HashMap<(u32, u32), u32> = HashMap::new();
    for t in &s.triangles {
        let p = t.map(|i| plan(s.vertices[i as usize]));
        assert!(
            geom::orient(p[0], p[1], p[2]) > 0.0,
            "inverted or flat {t:?} {p:?}"
        );
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *count.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    let mut used = vec![false; s.vertices.len()];
    for t in &s.triangles {
        for &i in t {
            used[i as usize] = true;
        }
    }
    for (&(a, b), &c) in &count {
        assert!(c <= 2, "side {a}-{b} used {c} times");
        if c == 2 {
            // Interior: checked by the use count and the orientation of both triangles.
            continue;
        }
        let (pa, pb) = (plan(s.vertices[a as usize]), plan(s.vertices[b as usize]));
        for (v, &u) in used.iter().enumerate() {
            if !u || v as u32 == a || v as u32 == b {
                continue;
            }
            let pv = plan(s.vertices[v]);
            let (d2, t) = geom::seg_dist2_t(pv, pa, pb);
            let z_ok = (s.vertices[v].z - s.vertices[a as usize].z).abs() < 0.5;
            let l2 = (pb - pa).length_squared();
            assert!(
                !(d2 < 1e-12 * l2 && t > 1e-6 && t < 1.0 - 1e-6 && z_ok),
                "T-junction: vertex {v} {pv:?} on side {a}-{b} {pa:?} {pb:?} ({} away)",
                d2.sqrt()
            );
        }
    }
    let boundary = count.values().filter(|&&c| c == 1).count();
    (count.len() - boundary, boundary)
}

/// Connected parts (through shared sides).
pub(super) fn parts(s: &Surface) -> usize {
    let n = s.triangles.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    let mut by_side: HashMap<(u32, u32), usize> = HashMap::new();
    for (f, t) in s.triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            if let Some(&g) = by_side.get(&(a.min(b), a.max(b))) {
                let (x, y) = (find(&mut parent, f), find(&mut parent, g));
                parent[x] = y;
            } else {
                by_side.insert((a.min(b), a.max(b)), f);
            }
        }
    }
    (0..n).filter(|&f| find(&mut parent, f) == f).count()
}

fn room(w: usize, h: usize, cell: f32) -> Surface {
    mask_grid(w, h, cell, (0.0, 0.0), |_, _| 0.0, |_, _| true)
}

fn opts() -> ClearanceOptions {
    ClearanceOptions::default()
}

#[test]
fn radius_zero_without_blockers_is_the_identity() {
    let s = room(3, 2, 1.0);
    let c = carve(&s, &[], 0.0, opts()).unwrap();
    assert_eq!(c.surface, s);
    assert_eq!(c.origin, (0..s.triangles.len() as u32).collect::<Vec<_>>());
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let s = room(1, 1, 1.0);
    assert_eq!(
        carve(&s, &[], -1.0, opts()),
        Err(ClearanceError::Radius(-1.0))
    );
    assert!(matches!(
        carve(&s, &[], f32::NAN, opts()),
        Err(ClearanceError::Radius(_))
    ));
    let mut bad = s.clone();
    bad.vertices[0].x = f32::INFINITY;
    assert!(matches!(
        carve(&bad, &[], 0.5, opts()),
        Err(ClearanceError::Surface(_))
    ));
    let b = Blocker::new(vec![[Vec3::ZERO, Vec3::X, Vec3::new(f32::NAN, 0.0, 0.0)]]);
    assert_eq!(
        carve(&s, &[b], 0.5, opts()),
        Err(ClearanceError::Blocker {
            blocker: 0,
            triangle: 0
        })
    );
    let o = ClearanceOptions {
        arc_tolerance: 0.0,
        ..opts()
    };
    assert_eq!(
        carve(&s, &[], 0.5, o),
        Err(ClearanceError::Option("arc_tolerance"))
    );
}

#[test]
fn a_rectangle_shrinks_by_the_radius_exactly() {
    // 6 x 4 m in 0.5 m cells: the inner offset of a rectangle has no arcs.
    let s = room(12, 8, 0.5);
    for r in [0.1f32, 0.5, 1.0, 1.9] {
        let c = carve(&s, &[], r, opts()).unwrap();
        let want = (6.0 - 2.0 * f64::from(r)) * (4.0 - 2.0 * f64::from(r));
        assert!(
            (area(&c.surface) - want).abs() < 1e-4,
            "r {r}: {} vs {want}",
            area(&c.surface)
        );
        let (_, b) = check_conforming(&c.surface);
        assert!(b > 0);
        assert_eq!(parts(&c.surface), 1);
        let walls = boundary(&s);
        for p in samples(&c.surface) {
            assert!(dist_to(p, &walls) >= f64::from(r) - 1e-5);
        }
        // The carved boundary lies at distance r from the walls.
        for (a, b) in boundary(&c.surface) {
            let m = (plan(a) + plan(b)) * 0.5;
            assert!((dist_to(m, &walls) - f64::from(r)).abs() < 1e-4);
        }
        assert_eq!(c.stats.inverted, 0);
        assert_eq!(c.stats.limited, 0);
    }
    // Wider than half the room: nothing left.
    let c = carve(&s, &[], 2.01, opts()).unwrap();
    assert!(c.surface.triangles.is_empty());
}

#[test]
fn a_corridor_is_open_below_half_its_width_and_closed_above() {
    // 0.6 m wide, 5 m long.
    let s = mask_grid(25, 3, 0.2, (0.0, 0.0), |_, _| 0.0, |_, _| true);
    let c = carve(&s, &[], 0.29, opts()).unwrap();
    assert_eq!(parts(&c.surface), 1);
    assert!((area(&c.surface) - 0.02 * 4.42).abs() < 1e-4);
    let c = carve(&s, &[], 0.3001, opts()).unwrap();
    assert!(c.surface.triangles.is_empty());
}

#[test]
fn conforming_across_cuts_in_a_perturbed_mesh() {
    // An L-shaped room with a hole and jittered interior vertices.
    let mut s = mask_grid(
        10,
        10,
        0.7,
        (0.0, 0.0),
        |x, y| 0.1 * x - 0.05 * y,
        |i, j| !(i >= 6 && j >= 6 || i == 3 && j == 3),
    );
    let mut seed = 12345u64;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % 1000) as f32 / 1000.0 - 0.5
    };
    for v in &mut s.vertices {
        let (i, j) = ((v.x / 0.7).round() as i32, (v.y / 0.7).round() as i32);
        if i > 0
            && j > 0
            && i < 10
            && j < 10
            && !(i >= 6 && j >= 6)
            && !((3..=4).contains(&i) && (3..=4).contains(&j))
        {
            v.x += 0.2 * rnd();
            v.y += 0.2 * rnd();
            v.z = 0.1 * v.x - 0.05 * v.y;
        }
    }
    let walls = boundary(&s);
    for r in [0.05f32, 0.3, 0.45, 0.8] {
        let c = carve(&s, &[], r, opts()).unwrap();
        check_conforming(&c.surface);
        assert_eq!(c.stats.inverted, 0);
        for p in samples(&c.surface) {
            assert!(dist_to(p, &walls) >= f64::from(r) - 1e-5, "r {r} p {p:?}");
        }
        // New vertices lie on their triangle's plane.
        for (t, &o) in c.surface.triangles.iter().zip(&c.origin) {
            for &i in t {
                let v = c.surface.vertices[i as usize];
                assert!(
                    (v.z - (0.1 * v.x - 0.05 * v.y)).abs() < 1e-4,
                    "{v:?} on {o}"
                );
            }
        }
        let max = f64::from(r) * (1.0 + 0.02) + 1e-4;
        for (a, b) in boundary(&c.surface) {
            let d = dist_to((plan(a) + plan(b)) * 0.5, &walls);
            assert!(
                d >= f64::from(r) - 1e-5 && d <= max,
                "r {r}: boundary at {d}"
            );
        }
    }
}

#[test]
fn blockers_cut_their_footprint_grown_by_the_radius() {
    let s = room(20, 20, 0.5); // 10 x 10
    // A 1 x 1 box from z 0 to 1 at (4..5, 4..5): top, bottom and four sides.
    let bx = |x0: f32, y0: f32, z0: f32, z1: f32| {
        let c = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
        let (x1, y1) = (x0 + 1.0, y0 + 1.0);
        let mut t = vec![
            [c(x0, y0, z1), c(x1, y0, z1), c(x1, y1, z1)],
            [c(x0, y0, z1), c(x1, y1, z1), c(x0, y1, z1)],
            [c(x0, y0, z0), c(x1, y1, z0), c(x1, y0, z0)],
            [c(x0, y0, z0), c(x0, y1, z0), c(x1, y1, z0)],
        ];
        for (a, b) in [
            ((x0, y0), (x1, y0)),
            ((x1, y0), (x1, y1)),
            ((x1, y1), (x0, y1)),
            ((x0, y1), (x0, y0)),
        ] {
            t.push([c(a.0, a.1, z0), c(b.0, b.1, z0), c(b.0, b.1, z1)]);
            t.push([c(a.0, a.1, z0), c(b.0, b.1, z1), c(a.0, a.1, z1)]);
        }
        Blocker::new(t)
    };
    let r = 0.5f32;
    let plain = carve(&s, &[], r, opts()).unwrap();
    let blocked = carve(&s, &[bx(4.0, 4.0, 0.0, 1.0)], r, opts()).unwrap();
    check_conforming(&blocked.surface);
    // The box merges to one footprint: 81 - (1 + 4 * 0.5 + pi 0.25) and at most 2 % more.
    let hole = area(&plain.surface) - area(&blocked.surface);
    let exact = 1.0 + 4.0 * 0.5 + std::f64::consts::PI * 0.25;
    assert!(
        hole >= exact - 1e-4 && hole <= exact + 0.02 * 2.0 * (2.0 + std::f64::consts::PI * 0.5),
        "{hole}"
    );
    for p in samples(&blocked.surface) {
        let d = geom::poly_dist2(
            p,
            &[
                DVec2::new(4.0, 4.0),
                DVec2::new(5.0, 4.0),
                DVec2::new(5.0, 5.0),
                DVec2::new(4.0, 5.0),
            ],
        );
        assert!(d.sqrt() >= 0.5 - 1e-5);
    }
    // The same box on a floor above (z 3..4) leaves this floor alone.
    let above = carve(&s, &[bx(4.0, 4.0, 3.0, 4.0)], r, opts()).unwrap();
    assert!((area(&above.surface) - area(&plain.surface)).abs() < 1e-9);
    // Reaching down to within the agent's height: blocks.
    let low = carve(&s, &[bx(4.0, 4.0, 1.5, 2.5)], r, opts()).unwrap();
    assert!(area(&low.surface) < area(&plain.surface) - 3.0);
}

#[test]
fn a_vertical_wall_blocker_splits_the_room() {
    let s = room(20, 10, 0.5); // 10 x 5
    // A zero-thickness wall across the room at x = 5, made of two vertical triangles.
    let (a, b, c, d) = (
        Vec3::new(5.0, -1.0, 0.0),
        Vec3::new(5.0, 6.0, 0.0),
        Vec3::new(5.0, 6.0, 2.0),
        Vec3::new(5.0, -1.0, 2.0),
    );
    let wall = Blocker::new(vec![[a, b, c], [a, c, d]]);
    for r in [0.0f32, 0.3] {
        let cut = carve(&s, std::slice::from_ref(&wall), r, opts()).unwrap();
        check_conforming(&cut.surface);
        assert_eq!(parts(&cut.surface), 2, "r {r}");
        let w = f64::from(r).max(MIN_BLOCKER_GROWTH);
        for p in samples(&cut.surface) {
            assert!((p.x - 5.0).abs() >= w - 1e-6);
        }
    }
}

#[test]
fn a_bridge_over_a_floor_erodes_each_level_on_its_own() {
    // Floor 10 x 10 at z 0; a 2 m wide bridge at z 3 crossing above it (x -2..12, y 4..6),
    // joined to the floor by nothing.
    let mut s = room(20, 20, 0.5);
    let bridge = mask_grid(28, 4, 0.5, (-2.0, 4.0), |_, _| 3.0, |_, _| true);
    append(&mut s, &bridge);
    let c = carve(&s, &[], 0.5, opts()).unwrap();
    check_conforming(&c.surface);
    assert_eq!(parts(&c.surface), 2);
    // 9 x 9 of floor and 13 x 1 of bridge.
    assert!(
        (area(&c.surface) - (81.0 + 13.0)).abs() < 1e-3,
        "{}",
        area(&c.surface)
    );
}

/// Welds the vertices of `s` from index `from` on onto earlier vertices at the same position.
fn weld_onto_earlier(s: &mut Surface, from: usize) {
    let key = |v: Vec3| {
        (
            (v.x * 64.0).round() as i64,
            (v.y * 64.0).round() as i64,
            (v.z * 64.0).round() as i64,
        )
    };
    let mut pos: HashMap<(i64, i64, i64), u32> = HashMap::new();
    for (i, v) in s.vertices.iter().enumerate().take(from) {
        pos.entry(key(*v)).or_insert(i as u32);
    }
    let remap: Vec<u32> = (0..s.vertices.len())
        .map(|i| {
            if i < from {
                i as u32
            } else {
                *pos.get(&key(s.vertices[i])).unwrap_or(&(i as u32))
            }
        })
        .collect();
    for t in &mut s.triangles {
        *t = t.map(|i| remap[i as usize]);
    }
}

#[test]
fn a_ramped_balcony_over_a_floor_does_not_erode_the_floor_under_it() {
    // A floor 8 x 8 at z 0 in three big triangles; its north side is split at x 0.5.
    let mut s = Surface {
        links: Vec::new(),
        vertices: vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(8.0, 0.0, 0.0),
            Vec3::new(8.0, 8.0, 0.0),
            Vec3::new(0.5, 8.0, 0.0),
            Vec3::new(0.0, 8.0, 0.0),
        ],
        triangles: vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]],
        regions: vec![0, 0, 0],
    };
    // A ramp along the floor's north side (x 0..6, y 8..9), joined to the floor by its first
    // cell, rising 0.6 per metre to z 3.3 at x 6 (a drop to the floor along the rest).
    let ramp = mask_grid(
        12,
        2,
        0.5,
        (0.0, 8.0),
        |x, _| (x - 0.5).max(0.0) * 0.6,
        |_, _| true,
    );
    let n = s.vertices.len();
    append(&mut s, &ramp);
    weld_onto_earlier(&mut s, n);
    // A balcony at z 3.3 (x 6..7.5, y 5..9) joined to the ramp's top, over the floor.
    let balcony = mask_grid(3, 8, 0.5, (6.0, 5.0), |_, _| 3.3, |_, _| true);
    let n = s.vertices.len();
    append(&mut s, &balcony);
    weld_onto_earlier(&mut s, n);
    let cl = Clearance::new(&s, &[], opts()).unwrap();
    // One island: floor, ramp and balcony are joined.
    let c = cl.carve(0.3).unwrap();
    check_conforming(&c.surface);
    // Floor points under the balcony's ledges keep the clearance of the floor's own walls.
    // They lie in the floor triangle (0, 0), (8, 8), (0.5, 8), whose same-floor neighbourhood
    // reaches the ramp and through it the balcony above: only the height filter keeps the
    // ledges from counting.
    for (x, y) in [(6.0f32, 6.5f32), (6.1, 7.2), (7.4, 7.6), (7.5, 7.55)] {
        let got = cl.clearance_at(Vec3::new(x, y, 0.0)).unwrap();
        let want = (8.0 - y).min(x).min(8.0 - x).min(y);
        assert!((got - want).abs() < 1e-4, "({x}, {y}): {got} vs {want}");
        // And that ground survives the carve.
        let p = DVec2::new(f64::from(x), f64::from(y));
        let kept = c.surface.triangles.iter().any(|t| {
            let q = t.map(|i| c.surface.vertices[i as usize]);
            q[0].z.abs() < 1e-3 && geom::in_triangle(p, &q.map(plan))
        });
        assert!(kept, "({x}, {y}) carved away");
    }
    // On the balcony, its own ledges count.
    let on = cl.clearance_at(Vec3::new(6.75, 6.0, 3.3)).unwrap();
    assert!((on - 0.75).abs() < 1e-4, "{on}");
}

#[test]
fn clearance_at_measures_to_the_nearest_wall_or_blocker() {
    let s = room(8, 8, 0.5); // 4 x 4
    let cl = Clearance::new(&s, &[], opts()).unwrap();
    assert!((cl.clearance_at(Vec3::new(2.0, 2.0, 0.0)).unwrap() - 2.0).abs() < 1e-6);
    assert!((cl.clearance_at(Vec3::new(0.21, 1.7, 0.0)).unwrap() - 0.21).abs() < 1e-6);
    assert_eq!(cl.clearance_at(Vec3::new(5.0, 1.0, 0.0)), None);
    let post = Blocker::new(vec![[
        Vec3::new(3.0, 3.0, 0.0),
        Vec3::new(3.2, 3.0, 0.0),
        Vec3::new(3.0, 3.2, 0.0),
    ]]);
    let cl = Clearance::new(&s, &[post], opts()).unwrap();
    let d = cl.clearance_at(Vec3::new(2.5, 3.0, 0.0)).unwrap();
    assert!((d - 0.5).abs() < 1e-6, "{d}");
}

#[test]
fn narrow_passages_dumbbell_rectangle_and_l() {
    // Two 4 x 4 rooms joined by a 0.6 m wide, 2 m long corridor (0.2 m cells).
    let dumbbell = mask_grid(
        50,
        20,
        0.2,
        (0.0, 0.0),
        |_, _| 0.0,
        |i, j| !(20..30).contains(&i) || (9..12).contains(&j),
    );
    let p = narrow_passages(&dumbbell, &[], 0.5, opts()).unwrap();
    assert_eq!(p.len(), 1, "{p:?}");
    let q = p[0];
    assert!(q.position.x >= 3.9 && q.position.x <= 6.1, "{q:?}");
    assert!(q.position.y >= 1.8 && q.position.y <= 2.4, "{q:?}");
    assert!((q.width - 0.6).abs() < 0.01, "{q:?}");
    assert_eq!(q.region, 0);
    assert!(
        narrow_passages(&dumbbell, &[], 0.2, opts())
            .unwrap()
            .is_empty()
    );
    // Plain rooms: corners are not passages.
    let rect = room(20, 12, 0.25);
    assert!(narrow_passages(&rect, &[], 0.5, opts()).unwrap().is_empty());
    let l = mask_grid(12, 12, 0.5, (0.0, 0.0), |_, _| 0.0, |i, j| i < 4 || j < 4);
    assert!(narrow_passages(&l, &[], 0.5, opts()).unwrap().is_empty());
    // Three rooms in a row: two passages.
    let chain = mask_grid(
        70,
        20,
        0.2,
        (0.0, 0.0),
        |_, _| 0.0,
        |i, j| i < 20 || (30..40).contains(&i) || i >= 50 || (9..12).contains(&j),
    );
    assert_eq!(narrow_passages(&chain, &[], 0.5, opts()).unwrap().len(), 2);
}

#[test]
fn degenerate_triangles_are_not_ground_and_do_not_panic() {
    let mut s = room(4, 4, 1.0);
    let n = s.vertices.len() as u32;
    // Repeated index, collinear, and a vertical triangle.
    s.vertices.push(Vec3::new(2.0, 2.0, 5.0));
    s.triangles.push([0, 0, 1]);
    s.triangles.push([0, 1, 2]);
    s.triangles.push([12, 12, n]);
    s.triangles.push([12, 13, n]);
    s.regions.extend([0, 0, 0, 0]);
    let c = carve(&s, &[], 0.25, opts()).unwrap();
    assert_eq!(c.stats.inactive, 4);
    check_conforming(&c.surface);
    assert!(c.surface.vertices.iter().all(|v| v.is_finite()));
}

#[test]
fn huge_and_tiny_coordinates() {
    for (scale, shift) in [
        (1.0f32, 1.0e6f32),
        (1.0e-3, 0.0),
        (1.0e3, -3.0e4),
        (1.0, 1.0e30),
    ] {
        let mut s = mask_grid(
            6,
            6,
            1.0,
            (0.0, 0.0),
            |_, _| 0.0,
            |i, j| !(i == 2 && j == 2),
        );
        for v in &mut s.vertices {
            v.x = v.x * scale + shift;
            v.y = v.y * scale + shift;
        }
        let c = carve(&s, &[], 0.4 * scale, opts()).unwrap();
        assert!(c.surface.vertices.iter().all(|v| v.is_finite()));
        if shift.abs() < 1e7 {
            check_conforming(&c.surface);
            let a = area(&c.surface) / f64::from(scale) / f64::from(scale);
            assert!(a > 5.0 && a < 36.0, "scale {scale} shift {shift}: {a}");
        }
        let cl = Clearance::new(&s, &[], opts()).unwrap();
        let _ = cl.clearance_at(Vec3::new(shift + 0.5 * scale, shift + 0.5 * scale, 0.0));
        let _ = cl.narrow_passages(0.4 * scale).unwrap();
    }
}

#[test]
fn clockwise_triangles_stay_clockwise() {
    let mut s = room(8, 6, 0.5);
    for t in &mut s.triangles {
        t.swap(1, 2);
    }
    let c = carve(&s, &[], 0.4, opts()).unwrap();
    assert!((-area(&c.surface) - (4.0 - 0.8) * (3.0 - 0.8)).abs() < 1e-4);
    assert_eq!(c.stats.inverted, 0);
    for t in &c.surface.triangles {
        let p = t.map(|i| plan(c.surface.vertices[i as usize]));
        assert!(geom::orient(p[0], p[1], p[2]) < 0.0);
    }
    assert_eq!(c.surface.regions.len(), c.surface.triangles.len());
}

#[test]
fn non_manifold_and_overlapping_input_does_not_panic() {
    let mut s = room(4, 4, 1.0);
    // A third triangle on an interior side (a fin folded over the floor) and a duplicate.
    s.triangles.push([6, 12, 11]);
    s.triangles.push(s.triangles[0]);
    s.regions.extend([0, 0]);
    for r in [0.0f32, 0.3, 1.2] {
        let c = carve(&s, &[], r, opts()).unwrap();
        assert!(c.surface.vertices.iter().all(|v| v.is_finite()));
        assert_eq!(c.origin.len(), c.surface.triangles.len());
        let cl = Clearance::new(&s, &[], opts()).unwrap();
        assert!(cl.clearance_at(Vec3::new(1.5, 1.5, 0.0)).is_some());
        let _ = cl.narrow_passages(r).unwrap();
    }
}

#[test]
fn blockers_on_a_slope_block_only_the_ground_within_their_vertical_reach() {
    // A ramp 10 m long (x) and 4 m wide rising 0.5 per metre; a thin wall along its middle
    // from x 1 to 9, spanning z 0 to 1. Ground at height z is blocked when
    // z in [0 - 1.8, 1 + 0.5]: up to x = 3.
    let s = mask_grid(20, 8, 0.5, (0.0, 0.0), |x, _| 0.5 * x, |_, _| true);
    let wall = Blocker::new(vec![
        [
            Vec3::new(1.0, 2.0, 0.0),
            Vec3::new(9.0, 2.0, 0.0),
            Vec3::new(9.0, 2.0, 1.0),
        ],
        [
            Vec3::new(1.0, 2.0, 0.0),
            Vec3::new(9.0, 2.0, 1.0),
            Vec3::new(1.0, 2.0, 1.0),
        ],
    ]);
    let c = carve(&s, &[wall], 0.3, opts()).unwrap();
    check_conforming(&c.surface);
    let on_ground = |x: f64, y: f64| {
        c.surface.triangles.iter().any(|t| {
            let q = t.map(|i| plan(c.surface.vertices[i as usize]));
            geom::in_triangle(DVec2::new(x, y), &q)
        })
    };
    // Next to the wall where the ground is low: blocked; where it is high: free.
    assert!(!on_ground(2.0, 2.1));
    assert!(!on_ground(2.9, 1.9));
    assert!(on_ground(3.5, 2.05));
    assert!(on_ground(8.0, 2.0));
    assert_eq!(parts(&c.surface), 1);
}

#[test]
fn a_gap_between_slanted_blockers_closes_exactly_at_half_its_width() {
    // Two parallel vertical walls at 30 degrees, 0.8 m apart, across a 10 x 10 room: the gap
    // between them is a corridor whose sides are the walls' grown sides (exact, not arcs).
    let s = room(20, 20, 0.5);
    let dir = DVec2::new(30f64.to_radians().cos(), 30f64.to_radians().sin());
    let nrm = DVec2::new(-dir.y, dir.x);
    let wall = |off: f64| {
        let c = DVec2::new(5.0, 5.0) + nrm * off;
        let (a, b) = (c - dir * 8.0, c + dir * 8.0);
        let p = |q: DVec2, z: f32| Vec3::new(q.x as f32, q.y as f32, z);
        Blocker::new(vec![
            [p(a, 0.0), p(b, 0.0), p(b, 2.0)],
            [p(a, 0.0), p(b, 2.0), p(a, 2.0)],
        ])
    };
    let walls = [wall(-0.4), wall(0.4)];
    // Open: three parts (both sides and the gap between the walls).
    let open = carve(&s, &walls, 0.399, opts()).unwrap();
    check_conforming(&open.surface);
    assert_eq!(parts(&open.surface), 3);
    let closed = carve(&s, &walls, 0.4005, opts()).unwrap();
    assert_eq!(parts(&closed.surface), 2);
}

#[test]
fn a_passage_inside_one_big_triangle() {
    // A 10 x 10 room in two triangles; a wall blocker at x = 5 from y = 0.6 up past the room
    // leaves a 0.6 m gap along the south wall.
    let s = room(1, 1, 10.0);
    let wall = Blocker::new(vec![
        [
            Vec3::new(5.0, 0.6, 0.0),
            Vec3::new(5.0, 12.0, 0.0),
            Vec3::new(5.0, 12.0, 2.0),
        ],
        [
            Vec3::new(5.0, 0.6, 0.0),
            Vec3::new(5.0, 12.0, 2.0),
            Vec3::new(5.0, 0.6, 2.0),
        ],
    ]);
    let p = narrow_passages(&s, std::slice::from_ref(&wall), 0.5, opts()).unwrap();
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        (p[0].position.x - 5.0).abs() < 0.3 && p[0].position.y < 0.6,
        "{p:?}"
    );
    assert!((p[0].width - 0.6).abs() < 0.02, "{p:?}");
    assert!(
        narrow_passages(&s, &[wall], 0.25, opts())
            .unwrap()
            .is_empty()
    );
}
