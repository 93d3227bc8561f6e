//! Carving against brute force on random meshes: clearance of every sampled point, conformity,
//! where the new boundary lies, monotonicity in the radius and in the blockers, corridors, and
//! a timing run on a large mesh (`--ignored`).

use std::collections::HashMap;

use areakit_geometry::nav::Surface;
use areakit_geometry::nav::clearance::{
    Blocker, Clearance, ClearanceOptions, MIN_BLOCKER_GROWTH, carve, narrow_passages,
};
use areakit_geometry::{Vec2, Vec3};
use proptest::prelude::*;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A jittered grid of `nx` x `ny` cells of `cell` metres with cells dropped at rate `holes`,
/// heights from a gentle tilt.
fn random_mesh(rng: &mut Rng, nx: usize, ny: usize, cell: f32, holes: f64) -> Surface {
    let mut s = Surface::default();
    let tilt = (rng.unit() - 0.5) * 0.2;
    for j in 0..=ny {
        for i in 0..=nx {
            let jx = (rng.unit() - 0.5) * 0.5 * f64::from(cell);
            let jy = (rng.unit() - 0.5) * 0.5 * f64::from(cell);
            let x = i as f64 * f64::from(cell) + jx;
            let y = j as f64 * f64::from(cell) + jy;
            s.vertices
                .push(Vec3::new(x as f32, y as f32, (tilt * x) as f32));
        }
    }
    let id = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    for j in 0..ny {
        for i in 0..nx {
            if rng.unit() < holes {
                continue;
            }
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            if rng.next() % 2 == 0 {
                s.triangles.extend([[a, b, c], [a, c, d]]);
            } else {
                s.triangles.extend([[a, b, d], [b, c, d]]);
            }
            s.regions.extend([(i / 4) as u32, (i / 4) as u32]);
        }
    }
    s
}

/// A box blocker (top, bottom, four sides) or, with `wall`, a vertical quad.
fn random_blocker(rng: &mut Rng, extent: f64, wall: bool) -> Blocker {
    let x0 = rng.unit() * extent;
    let y0 = rng.unit() * extent;
    let (w, h) = (0.2 + rng.unit() * 1.5, 0.2 + rng.unit() * 1.5);
    let c = |x: f64, y: f64, z: f64| Vec3::new(x as f32, y as f32, z as f32);
    if wall {
        let (a, b) = (c(x0, y0, -0.5), c(x0 + w, y0 + h, -0.5));
        let (a2, b2) = (c(x0, y0, 2.0), c(x0 + w, y0 + h, 2.0));
        return Blocker::new(vec![[a, b, b2], [a, b2, a2]]);
    }
    let (x1, y1) = (x0 + w, y0 + h);
    let (z0, z1) = (-0.5, 1.5);
    let mut t = vec![
        [c(x0, y0, z1), c(x1, y0, z1), c(x1, y1, z1)],
        [c(x0, y0, z1), c(x1, y1, z1), c(x0, y1, z1)],
        [c(x0, y0, z0), c(x1, y1, z0), c(x1, y0, z0)],
        [c(x0, y0, z0), c(x0, y1, z0), c(x1, y1, z0)],
    ];
    for ((ax, ay), (bx, by)) in [
        ((x0, y0), (x1, y0)),
        ((x1, y0), (x1, y1)),
        ((x1, y1), (x0, y1)),
        ((x0, y1), (x0, y0)),
    ] {
        t.push([c(ax, ay, z0), c(bx, by, z0), c(bx, by, z1)]);
        t.push([c(ax, ay, z0), c(bx, by, z1), c(ax, ay, z1)]);
    }
    Blocker::new(t)
}

fn plan(v: Vec3) -> [f64; 2] {
    [f64::from(v.x), f64::from(v.y)]
}

fn sub(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

fn cross(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn seg_dist(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let ab = sub(b, a);
    let ap = sub(p, a);
    let l2 = ab[0] * ab[0] + ab[1] * ab[1];
    let t = if l2 > 0.0 {
        ((ap[0] * ab[0] + ap[1] * ab[1]) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let d = [ap[0] - ab[0] * t, ap[1] - ab[1] * t];
    (d[0] * d[0] + d[1] * d[1]).sqrt()
}

/// Plan distance from `p` to a projected triangle (0 inside).
fn tri_dist(p: [f64; 2], t: &[Vec3; 3]) -> f64 {
    let q = t.map(plan);
    let o = [
        cross(sub(q[1], q[0]), sub(p, q[0])),
        cross(sub(q[2], q[1]), sub(p, q[1])),
        cross(sub(q[0], q[2]), sub(p, q[2])),
    ];
    let area = cross(sub(q[1], q[0]), sub(q[2], q[0]));
    if area != 0.0 && (o.iter().all(|&x| x >= 0.0) || o.iter().all(|&x| x <= 0.0)) {
        return 0.0;
    }
    (0..3)
        .map(|k| seg_dist(p, q[k], q[(k + 1) % 3]))
        .fold(f64::INFINITY, f64::min)
}

fn side_counts(s: &Surface) -> HashMap<(u32, u32), u32> {
    let mut count = HashMap::new();
    for t in &s.triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *count.entry((a.min(b), a.max(b))).or_insert(0) += 1;
        }
    }
    count
}

/// Boundary sides of a surface in plan.
fn boundary(s: &Surface) -> Vec<([f64; 2], [f64; 2])> {
    side_counts(s)
        .into_iter()
        .filter(|&(_, c)| c == 1)
        .map(|((a, b), _)| (plan(s.vertices[a as usize]), plan(s.vertices[b as usize])))
        .collect()
}

fn area(s: &Surface) -> f64 {
    s.triangles
        .iter()
        .map(|t| {
            let p = t.map(|i| plan(s.vertices[i as usize]));
            cross(sub(p[1], p[0]), sub(p[2], p[0])) * 0.5
        })
        .sum()
}

/// Sample points of every triangle: corners, side midpoints, centroid and a few inside.
fn samples(s: &Surface) -> Vec<[f64; 2]> {
    let mut out = Vec::new();
    for t in &s.triangles {
        let p = t.map(|i| plan(s.vertices[i as usize]));
        for w in [
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
            [0.5, 0.5, 0.0],
            [0.0, 0.5, 0.5],
            [0.5, 0.0, 0.5],
            [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0],
            [0.8, 0.1, 0.1],
            [0.1, 0.8, 0.1],
            [0.1, 0.1, 0.8],
        ] {
            out.push([
                p[0][0] * w[0] + p[1][0] * w[1] + p[2][0] * w[2],
                p[0][1] * w[0] + p[1][1] * w[1] + p[2][1] * w[2],
            ]);
        }
    }
    out
}

/// Conformity: sides used at most twice, no vertex strictly inside a side, every triangle
/// with the orientation of its original triangle. Returns the interior side count.
fn check_conforming(orig: &Surface, s: &Surface, origin: &[u32]) -> usize {
    let count = side_counts(s);
    let mut apex: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    for t in &s.triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            apex.entry((a.min(b), a.max(b)))
                .or_default()
                .push(t[(k + 2) % 3]);
        }
    }
    for (t, &o) in s.triangles.iter().zip(origin) {
        let p = t.map(|i| plan(s.vertices[i as usize]));
        let q = orig.triangles[o as usize].map(|i| plan(orig.vertices[i as usize]));
        let a = cross(sub(p[1], p[0]), sub(p[2], p[0]));
        let b = cross(sub(q[1], q[0]), sub(q[2], q[0]));
        assert!(a * b > 0.0, "triangle {t:?} flipped or flat");
    }
    // Vertices by x for the T-junction scan.
    let mut used: Vec<u32> = s.triangles.iter().flatten().copied().collect();
    used.sort_unstable();
    used.dedup();
    used.sort_by(|&a, &b| {
        s.vertices[a as usize]
            .x
            .total_cmp(&s.vertices[b as usize].x)
    });
    let xs: Vec<f32> = used.iter().map(|&v| s.vertices[v as usize].x).collect();
    for (&(a, b), &c) in &count {
        assert!(c <= 2, "side {a}-{b} used {c} times");
        if c == 2 {
            continue;
        }
        let (va, vb) = (s.vertices[a as usize], s.vertices[b as usize]);
        let (pa, pb) = (plan(va), plan(vb));
        let len = seg_dist(pa, pb, pb).max(seg_dist(pb, pa, pa));
        let from = xs.partition_point(|&x| x < va.x.min(vb.x));
        for &v in &used[from..] {
            let w = s.vertices[v as usize];
            if w.x > va.x.max(vb.x) {
                break;
            }
            if v == a || v == b || (w.z - va.z).abs() > 0.5 {
                continue;
            }
            let pw = plan(w);
            let d = seg_dist(pw, pa, pb);
            let ends = seg_dist(pw, pa, pa).min(seg_dist(pw, pb, pb));
            // A vertex on a boundary side is a T-junction (a crack) unless it is the apex of
            // the (sliver) triangle on that side. (Interior sides are checked by the
            // orientation and use counts: two consistently turned triangles per side.)
            assert!(
                !(d < 1e-6 * len && ends > 1e-6 * len) || apex[&(a, b)].contains(&v),
                "T-junction: vertex {v} {pw:?} on side {a}-{b}"
            );
        }
    }
    count.values().filter(|&&c| c == 2).count()
}

fn options() -> ClearanceOptions {
    ClearanceOptions::default()
}

#[test]
fn random_meshes_carved_points_keep_their_clearance() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut meshes = 0;
    let mut points = 0usize;
    let mut boundary_sides = 0usize;
    let mut interior_sides = 0usize;
    for case in 0..24 {
        let (nx, ny) = (
            6 + (rng.next() % 10) as usize,
            6 + (rng.next() % 10) as usize,
        );
        let s = random_mesh(&mut rng, nx, ny, 0.8, 0.15);
        if s.triangles.is_empty() {
            continue;
        }
        let extent = nx.max(ny) as f64 * 0.8;
        let blockers: Vec<Blocker> = (0..rng.next() % 4)
            .map(|i| random_blocker(&mut rng, extent, i % 2 == 1))
            .collect();
        let r = [0.0, 0.05, 0.2, 0.35, 0.5, 0.9][case % 6] as f32;
        let c = carve(&s, &blockers, r, options()).unwrap();
        assert_eq!(c.stats.limited, 0);
        assert_eq!(c.stats.inverted, 0, "case {case}");
        interior_sides += check_conforming(&s, &c.surface, &c.origin);
        // Regions kept; new vertices on their original triangle's plane.
        for (t, &o) in c.surface.triangles.iter().zip(&c.origin) {
            assert!(c.surface.regions.len() == c.origin.len());
            let ot = s.triangles[o as usize].map(|i| s.vertices[i as usize]);
            let n = (ot[1] - ot[0]).cross(ot[2] - ot[0]);
            for &i in t {
                let v = c.surface.vertices[i as usize];
                let off = n.dot(v - ot[0]) / n.length();
                assert!(
                    off.abs() < 1e-4,
                    "case {case}: {v:?} off its plane by {off}"
                );
            }
        }
        assert!(
            c.surface
                .regions
                .iter()
                .zip(&c.origin)
                .all(|(&r, &o)| r == s.regions[o as usize])
        );
        let walls = boundary(&s);
        let rb = f64::from(r).max(MIN_BLOCKER_GROWTH);
        let clearance = |p: [f64; 2]| {
            let w = walls
                .iter()
                .map(|&(a, b)| seg_dist(p, a, b))
                .fold(f64::INFINITY, f64::min);
            let b = blockers
                .iter()
                .flat_map(|b| b.triangles.iter())
                .map(|t| tri_dist(p, t))
                .fold(f64::INFINITY, f64::min);
            (w, b)
        };
        for p in samples(&c.surface) {
            let (w, b) = clearance(p);
            if r > 0.0 {
                assert!(
                    w >= f64::from(r) - 1e-5,
                    "case {case}: {p:?} {w} from a wall, r {r}"
                );
            }
            assert!(
                b >= rb - 1e-5,
                "case {case}: {p:?} {b} from a blocker, r {r}"
            );
            points += 1;
        }
        // Each new boundary side lies at distance r .. r (1 + 2 %) from the nearest obstacle
        // (its midpoint); with r = 0 the walls are the old ones.
        if r > 0.0 {
            for (a, b) in boundary(&c.surface) {
                let m = [(a[0] + b[0]) * 0.5, (a[1] + b[1]) * 0.5];
                let (w, bl) = clearance(m);
                let d = w.min(bl / rb * f64::from(r));
                assert!(
                    d >= f64::from(r) - 1e-5 && d <= f64::from(r) * 1.0196 + 1e-4,
                    "case {case}: boundary side at {d} (r {r}) {a:?}-{b:?}"
                );
                boundary_sides += 1;
            }
        }
        meshes += 1;
    }
    println!(
        "{meshes} meshes, {points} sampled points, {boundary_sides} new boundary sides, \
         {interior_sides} interior sides"
    );
    assert_eq!(meshes, 24);
    assert!(points > 20_000, "{points} points");
    assert!(boundary_sides > 1_000, "{boundary_sides} boundary sides");
    assert!(interior_sides > 5_000, "{interior_sides} interior sides");
}

#[test]
fn corridors_open_below_half_their_width_and_close_above() {
    let mut covered = 0;
    for &w in &[0.4f32, 0.6, 1.0, 1.7] {
        // A straight corridor 6 m long and w wide, cut in irregular triangles.
        let mut rng = Rng(u64::from(w.to_bits()) | 1);
        let n = 12;
        let mut s = Surface::default();
        for i in 0..=n {
            let x = 6.0 * i as f32 / n as f32
                + if i > 0 && i < n {
                    (rng.unit() as f32 - 0.5) * 0.2
                } else {
                    0.0
                };
            s.vertices.push(Vec3::new(x, 0.0, 0.0));
            s.vertices.push(Vec3::new(x + 0.05, w, 0.0));
        }
        for i in 0..n as u32 {
            let (a, b, c, d) = (2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1);
            s.triangles.extend([[a, b, c], [a, c, d]]);
            s.regions.extend([0, 0]);
        }
        let half = f64::from(w) * 0.5;
        let open = carve(&s, &[], (half * 0.98) as f32, options()).unwrap();
        assert!(!open.surface.triangles.is_empty(), "width {w}");
        assert!(area(&open.surface) > 0.0);
        let closed = carve(&s, &[], (half * 1.001) as f32, options()).unwrap();
        assert!(
            closed.surface.triangles.is_empty(),
            "width {w}: {}",
            area(&closed.surface)
        );
        covered += 1;
    }
    assert_eq!(covered, 4);
}

#[test]
fn clearance_at_agrees_with_the_carve() {
    // Points of the carve at r have clearance >= r; points with clearance above r (1 + 2 %)
    // are in the carve.
    let mut rng = Rng(77);
    let mut checked = (0, 0);
    for _ in 0..6 {
        let s = random_mesh(&mut rng, 10, 10, 0.7, 0.12);
        let blockers = vec![random_blocker(&mut rng, 7.0, false)];
        let cl = Clearance::new(&s, &blockers, options()).unwrap();
        let r = 0.3f32;
        let c = cl.carve(r).unwrap();
        for p in samples(&c.surface).into_iter().step_by(7) {
            let z = 0.0; // the tilt is small: the one floor
            let d = cl
                .clearance_at(Vec3::new(p[0] as f32, p[1] as f32, z))
                .unwrap();
            assert!(d >= r - 1e-4, "{p:?}: {d}");
            checked.0 += 1;
        }
        for _ in 0..300 {
            let p = [rng.unit() * 7.0, rng.unit() * 7.0];
            let Some(d) = cl.clearance_at(Vec3::new(p[0] as f32, p[1] as f32, 0.0)) else {
                continue;
            };
            if f64::from(d) > f64::from(r) * 1.0197 + 1e-4 {
                let inside = c.surface.triangles.iter().any(|t| {
                    let q = t.map(|i| plan(c.surface.vertices[i as usize]));
                    let o = [
                        cross(sub(q[1], q[0]), sub(p, q[0])),
                        cross(sub(q[2], q[1]), sub(p, q[1])),
                        cross(sub(q[0], q[2]), sub(p, q[2])),
                    ];
                    o.iter().all(|&x| x >= -1e-9)
                });
                assert!(inside, "{p:?} has clearance {d} but was carved away");
                checked.1 += 1;
            }
        }
    }
    println!(
        "{} carved points, {} points of large clearance checked",
        checked.0, checked.1
    );
    assert!(checked.0 > 500 && checked.1 > 300, "{checked:?}");
}

#[test]
fn dumbbell_reports_one_passage() {
    // Two 4 x 4 rooms and a 0.6 m corridor, as irregular triangles (jitter inside the rooms).
    let mut rng = Rng(5);
    let cell = 0.2f32;
    let (nx, ny) = (50usize, 20usize);
    let keep = |i: usize, j: usize| !(20..30).contains(&i) || (9..12).contains(&j);
    let mut s = Surface::default();
    for j in 0..=ny {
        for i in 0..=nx {
            let interior = (2..19).contains(&i) && (2..19).contains(&j);
            let jit = if interior { 0.3 * cell } else { 0.0 };
            s.vertices.push(Vec3::new(
                i as f32 * cell + (rng.unit() as f32 - 0.5) * jit,
                j as f32 * cell + (rng.unit() as f32 - 0.5) * jit,
                0.0,
            ));
        }
    }
    let id = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    for j in 0..ny {
        for i in 0..nx {
            if keep(i, j) {
                let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
                s.triangles.extend([[a, b, c], [a, c, d]]);
                s.regions.extend([if i < 25 { 1 } else { 2 }; 2]);
            }
        }
    }
    let p = narrow_passages(&s, &[], 0.5, options()).unwrap();
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].position.x > 4.0 && p[0].position.x < 6.0 && (p[0].position.y - 2.0).abs() < 0.3,
        "{p:?}"
    );
    assert!((p[0].width - 0.6).abs() < 0.01, "{:?}", p[0]);
    assert!(narrow_passages(&s, &[], 0.2, options()).unwrap().is_empty());
    // A table in the left room leaves a 0.5 m gap to the south wall and 1 m to the north:
    // at r 0.27 the south gap closes but the room goes around the table: no split, no
    // passage (and the 0.6 m corridor stays open).
    let table = Blocker::new(vec![
        [
            Vec3::new(1.5, 0.5, 0.0),
            Vec3::new(2.5, 0.5, 0.0),
            Vec3::new(2.5, 3.0, 0.8),
        ],
        [
            Vec3::new(1.5, 0.5, 0.0),
            Vec3::new(2.5, 3.0, 0.8),
            Vec3::new(1.5, 3.0, 0.8),
        ],
    ]);
    let q = narrow_passages(&s, std::slice::from_ref(&table), 0.27, options()).unwrap();
    assert!(q.is_empty(), "{q:?}");
    // At r 0.55 the north gap closes too, cutting off the room's west end behind the table
    // (1.5 m wide): one passage there besides the corridor.
    let q = narrow_passages(&s, &[table], 0.55, options()).unwrap();
    assert_eq!(q.len(), 2, "{q:?}");
    assert_eq!(q.iter().filter(|p| p.position.x < 2.5).count(), 1, "{q:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// A larger radius never adds ground.
    #[test]
    fn carved_area_does_not_grow_with_the_radius(seed in 1u64.., r1 in 0.0f32..0.8, dr in 0.0f32..0.5) {
        let mut rng = Rng(seed | 1);
        let s = random_mesh(&mut rng, 7, 7, 0.6, 0.2);
        let blockers = vec![random_blocker(&mut rng, 4.2, seed % 2 == 0)];
        let a1 = area(&carve(&s, &blockers, r1, options()).unwrap().surface);
        let a2 = area(&carve(&s, &blockers, r1 + dr, options()).unwrap().surface);
        prop_assert!(a2 <= a1 + 1e-6 * (1.0 + a1), "r {} -> {}: {} -> {}", r1, r1 + dr, a1, a2);
    }

    /// Adding a blocker never adds ground.
    #[test]
    fn a_blocker_never_adds_ground(seed in 1u64.., r in 0.0f32..0.7) {
        let mut rng = Rng(seed | 1);
        let s = random_mesh(&mut rng, 7, 7, 0.6, 0.2);
        let mut blockers = vec![random_blocker(&mut rng, 4.2, false)];
        let a1 = area(&carve(&s, &blockers, r, options()).unwrap().surface);
        blockers.push(random_blocker(&mut rng, 4.2, seed % 3 == 0));
        let a2 = area(&carve(&s, &blockers, r, options()).unwrap().surface);
        prop_assert!(a2 <= a1 + 1e-6 * (1.0 + a1), "{} -> {}", a1, a2);
    }
}

#[test]
fn big_triangles_with_many_blockers() {
    // A 60 x 60 m floor in two triangles with 150 boxes and walls on it.
    let s = Surface {
        links: Vec::new(),
        vertices: vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(60.0, 0.0, 0.0),
            Vec3::new(60.0, 60.0, 0.0),
            Vec3::new(0.0, 60.0, 0.0),
        ],
        triangles: vec![[0, 1, 2], [0, 2, 3]],
        regions: vec![0, 0],
    };
    let mut rng = Rng(99);
    let blockers: Vec<Blocker> = (0..150)
        .map(|i| random_blocker(&mut rng, 58.0, i % 4 == 0))
        .collect();
    let t0 = std::time::Instant::now();
    let c = carve(&s, &blockers, 0.35, options()).unwrap();
    println!("carved in {:?}", t0.elapsed());
    assert_eq!((c.stats.limited, c.stats.inverted), (0, 0));
    assert!(c.stats.pieces > 1000, "{:?}", c.stats);
    check_conforming(&s, &c.surface, &c.origin);
    let rb = 0.35f64;
    let mut checked = 0;
    for p in samples(&c.surface).into_iter().step_by(17) {
        let d = blockers
            .iter()
            .flat_map(|b| b.triangles.iter())
            .map(|t| tri_dist(p, t))
            .fold(f64::INFINITY, f64::min);
        assert!(d >= rb - 1e-5, "{p:?} {d}");
        checked += 1;
    }
    println!(
        "{} pieces, {checked} points checked against 150 blockers",
        c.stats.pieces
    );
    assert!(checked > 3_000, "{checked}");
}

/// Rooms of 8 m (16 cells of 0.5 m) in a grid, walls one cell thick with 1.5 m doors, a few
/// pillars (single missing cells), jittered.
fn rooms_mesh(rng: &mut Rng, cells: usize) -> Surface {
    let mut s = random_mesh(rng, cells, cells, 0.5, 0.0);
    let nx = cells;
    // Rebuild the triangle list with the walls and pillars left out.
    let keep = |i: usize, j: usize, rng: &mut Rng| {
        let wall_x = i % 16 == 15;
        let wall_y = j % 16 == 15;
        let door_x = (j % 16) >= 6 && (j % 16) < 9;
        let door_y = (i % 16) >= 6 && (i % 16) < 9;
        if (wall_x && !door_x) || (wall_y && !door_y) {
            return false;
        }
        rng.unit() >= 0.003
    };
    s.triangles.clear();
    s.regions.clear();
    let id = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    for j in 0..cells {
        for i in 0..cells {
            if !keep(i, j, rng) {
                continue;
            }
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            s.triangles.extend([[a, b, c], [a, c, d]]);
            let room = ((j / 16) * 100 + i / 16) as u32;
            s.regions.extend([room, room]);
        }
    }
    s
}

/// Process CPU time (user + system, all threads), seconds, from `/proc/self/stat` (0 where
/// that does not exist).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let Some(rest) = stat.rsplit(')').next() else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of the file (utime, stime) are 12 and 13 after the ")".
    let ticks: f64 = f.get(11..13).map_or(0.0, |v| {
        v.iter().filter_map(|x| x.parse::<f64>().ok()).sum()
    });
    ticks / 100.0
}

/// Timing on ~100 k triangle meshes with a few hundred blockers (run with `--release --
/// --ignored --nocapture`): rooms with doors, and a worst case riddled with 0.5 m holes.
#[test]
#[ignore]
fn timing_large_mesh() {
    let mut rng = Rng(2024);
    let extent = 224.0 * 0.5;
    let meshes = [
        ("rooms", rooms_mesh(&mut rng, 224)),
        ("holes", random_mesh(&mut rng, 224, 224, 0.5, 0.08)),
    ];
    for (name, s) in &meshes {
        let blockers: Vec<Blocker> = (0..300)
            .map(|i| random_blocker(&mut rng, extent, i % 5 == 0))
            .collect();
        println!(
            "{name}: {} triangles, {} blockers",
            s.triangles.len(),
            blockers.len()
        );
        let t0 = std::time::Instant::now();
        let cl = Clearance::new(s, &blockers, options()).unwrap();
        println!("  prepare {:?}", t0.elapsed());
        for r in [0.5f32, 0.35] {
            // Best of three (the machine is shared): wall time and CPU time over all threads.
            let mut best = (f64::INFINITY, f64::INFINITY);
            let mut last = None;
            for _ in 0..3 {
                let (t1, cpu1) = (std::time::Instant::now(), cpu_seconds());
                let c = cl.carve(r).unwrap();
                let wall = t1.elapsed().as_secs_f64();
                best = (best.0.min(wall), best.1.min(cpu_seconds() - cpu1));
                assert_eq!((c.stats.inverted, c.stats.limited), (0, 0));
                last = Some(c);
            }
            if let Some(c) = last {
                println!(
                    "  carve r {r}: best of 3 {:.3} s wall, {:.2} s CPU -> {} triangles, {} vertices; {:?}",
                    best.0,
                    best.1,
                    c.surface.triangles.len(),
                    c.surface.vertices.len(),
                    c.stats
                );
            }
        }
        let t2 = std::time::Instant::now();
        let mut n = 0;
        for i in 0..1000 {
            let p = Vec2::new((i % 100) as f32 * 1.1 + 0.3, (i / 100) as f32 * 11.0 + 0.3);
            if cl.clearance_at(Vec3::new(p.x, p.y, 0.0)).is_some() {
                n += 1;
            }
        }
        println!("  1000 clearance_at: {:?} ({n} on ground)", t2.elapsed());
        let t3 = std::time::Instant::now();
        let p = cl.narrow_passages(0.35).unwrap();
        println!(
            "  narrow_passages r 0.35: {:?}, {} passages",
            t3.elapsed(),
            p.len()
        );
        for q in p.iter().take(3) {
            println!("    {q:?}");
        }
    }
}
