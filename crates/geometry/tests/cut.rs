//! `cut`: holes cut in a mesh by polygons, judged by a referee of the test's own: sampled
//! points (inside the input and outside every cutter, by a plain crossing count), areas, the
//! input plane's heights, and conformity (no T-junction, every open edge on the input's
//! boundary or a cutter's).

use areakit_geometry::cut::{CutMesh, CutOptions, Cutter, FillRule, cut};
use proptest::prelude::*;

/// A `n × n` grid of unit squares, two triangles each, on the plane `z = 0.1x + 0.2y + 1`.
fn grid(n: usize, cell: f32) -> (Vec<[f32; 3]>, Vec<[u32; 3]>) {
    let mut v = Vec::new();
    for y in 0..=n {
        for x in 0..=n {
            let (px, py) = (x as f32 * cell, y as f32 * cell);
            v.push([px, py, plane(f64::from(px), f64::from(py)) as f32]);
        }
    }
    let id = |x: usize, y: usize| (y * (n + 1) + x) as u32;
    let mut t = Vec::new();
    for y in 0..n {
        for x in 0..n {
            t.push([id(x, y), id(x + 1, y), id(x + 1, y + 1)]);
            t.push([id(x, y), id(x + 1, y + 1), id(x, y + 1)]);
        }
    }
    (v, t)
}

fn plane(x: f64, y: f64) -> f64 {
    0.1 * x + 0.2 * y + 1.0
}

fn ring(points: &[[f64; 2]]) -> Cutter {
    Cutter {
        ring: points.to_vec(),
    }
}

/// Crossing count (even-odd), in plain floating point.
fn crossings(ring: &[[f64; 2]], p: [f64; 2]) -> usize {
    let n = ring.len();
    (0..n)
        .filter(|&i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            (a[1] > p[1]) != (b[1] > p[1])
                && p[0] < a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
        })
        .count()
}

/// Winding number, in plain floating point.
fn winding(ring: &[[f64; 2]], p: [f64; 2]) -> i32 {
    let n = ring.len();
    let mut w = 0;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        let side = (b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1]);
        if a[1] <= p[1] && b[1] > p[1] && side > 0.0 {
            w += 1;
        } else if a[1] > p[1] && b[1] <= p[1] && side < 0.0 {
            w -= 1;
        }
    }
    w
}

fn in_cutter(c: &Cutter, p: [f64; 2], fill: FillRule) -> bool {
    c.ring.len() >= 3
        && match fill {
            FillRule::EvenOdd => crossings(&c.ring, p) % 2 == 1,
            FillRule::NonZero => winding(&c.ring, p) != 0,
        }
}

fn seg_dist(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let d = [b[0] - a[0], b[1] - a[1]];
    let l = d[0] * d[0] + d[1] * d[1];
    let t = if l == 0.0 {
        0.0
    } else {
        (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / l).clamp(0.0, 1.0)
    };
    ((p[0] - a[0] - t * d[0]).powi(2) + (p[1] - a[1] - t * d[1]).powi(2)).sqrt()
}

fn xy(v: [f32; 3]) -> [f64; 2] {
    [f64::from(v[0]), f64::from(v[1])]
}

fn area(v: &[[f32; 3]], t: [u32; 3]) -> f64 {
    let [a, b, c] = t.map(|i| xy(v[i as usize]));
    ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2.0
}

/// How many output triangles hold `p`: (strictly inside, inside or on their boundary).
fn cover(m: &CutMesh, p: [f64; 2]) -> (usize, usize) {
    let mut strict = 0;
    let mut closed = 0;
    for t in &m.triangles {
        let [a, b, c] = t.map(|i| xy(m.vertices[i as usize]));
        let s = |u: [f64; 2], v: [f64; 2]| {
            (v[0] - u[0]) * (p[1] - u[1]) - (p[0] - u[0]) * (v[1] - u[1])
        };
        let (x, y, z) = (s(a, b), s(b, c), s(c, a));
        if (x > 0.0 && y > 0.0 && z > 0.0) || (x < 0.0 && y < 0.0 && z < 0.0) {
            strict += 1;
        }
        if (x >= 0.0 && y >= 0.0 && z >= 0.0) || (x <= 0.0 && y <= 0.0 && z <= 0.0) {
            closed += 1;
        }
    }
    (strict, closed)
}

/// Every judgement of one cut of the `n × n` grid.
fn judge(n: usize, cutters: &[Cutter], fill: FillRule) -> CutMesh {
    judge_welded(n, cutters, fill, 0.0)
}

/// [`judge`] with points welded at `weld`: samples and open edges are judged `weld` away from
/// the cutters' edges.
fn judge_welded(n: usize, cutters: &[Cutter], fill: FillRule, weld: f64) -> CutMesh {
    let (v, t) = grid(n, 1.0);
    let m = cut(&v, &t, |_| true, cutters, &CutOptions { fill, weld }).expect("cut");
    let side = n as f64;
    // Samples: points inside the input, away from every edge of the grid and of the cutters.
    let near_edge = |p: [f64; 2]| {
        cutters.iter().any(|c| {
            (0..c.ring.len())
                .any(|i| seg_dist(p, c.ring[i], c.ring[(i + 1) % c.ring.len()]) < 1e-6 + 2.0 * weld)
        }) || {
            let (fx, fy) = (p[0].fract(), p[1].fract());
            fx < 1e-6 || fy < 1e-6 || (fx - fy).abs() < 1e-6
        }
    };
    let steps = 97;
    let mut checked = 0;
    for i in 0..steps {
        for j in 0..steps {
            let p = [
                (i as f64 + 0.37) * side / steps as f64,
                (j as f64 + 0.61) * side / steps as f64,
            ];
            if near_edge(p) {
                continue;
            }
            let ground = !cutters.iter().any(|c| in_cutter(c, p, fill));
            let (strict, closed) = cover(&m, p);
            if ground {
                assert!(
                    strict <= 1 && closed >= 1,
                    "sample {p:?} on ground: {strict} / {closed}"
                );
            } else {
                assert_eq!(closed, 0, "sample {p:?} in a cutter");
            }
            checked += 1;
        }
    }
    let floor = if weld > 0.0 {
        steps * steps / 10
    } else {
        steps * steps / 2
    };
    assert!(checked > floor, "{checked} samples");
    // Areas: kept + removed = the grid.
    let kept: f64 = m.triangles.iter().map(|&t| area(&m.vertices, t)).sum();
    let removed: f64 = m.removed_area.iter().sum();
    assert!(
        (kept + removed - side * side).abs() < 1e-6,
        "kept {kept} + removed {removed}"
    );
    // Winding kept (every grid triangle is counter-clockwise), heights on the plane.
    for &t in &m.triangles {
        assert!(area(&m.vertices, t) > 0.0, "{t:?} turned over or flat");
    }
    for tv in m.triangles.iter().flatten() {
        let p = m.vertices[*tv as usize];
        let want = plane(f64::from(p[0]), f64::from(p[1]));
        assert!(
            (f64::from(p[2]) - want).abs() < 1e-5,
            "height of {p:?}, plane {want}"
        );
    }
    conforming(&m, cutters, side, weld);
    m
}

/// No vertex strictly inside another triangle's edge; an edge used once lies on the grid's
/// outline or on a cutter edge.
fn conforming(m: &CutMesh, cutters: &[Cutter], side: f64, weld: f64) {
    let mut count = std::collections::HashMap::new();
    for t in &m.triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *count.entry((a.min(b), a.max(b))).or_insert(0) += 1;
        }
    }
    let used: std::collections::BTreeSet<u32> = m.triangles.iter().flatten().copied().collect();
    for (&(a, b), &c) in &count {
        assert!(c <= 2, "edge {a}-{b} in {c} triangles");
        let (pa, pb) = (xy(m.vertices[a as usize]), xy(m.vertices[b as usize]));
        for &w in &used {
            if w == a || w == b {
                continue;
            }
            let pw = xy(m.vertices[w as usize]);
            let d = seg_dist(pw, pa, pb);
            let ends = seg_dist(pw, pa, pa).min(seg_dist(pw, pb, pb));
            assert!(
                !(d < 1e-12 && ends > 1e-7),
                "T-junction: vertex {w} {pw:?} on edge {a}-{b}"
            );
        }
        if c == 1 {
            let mid = [(pa[0] + pb[0]) / 2.0, (pa[1] + pb[1]) / 2.0];
            let outline = mid[0].abs() < 1e-9
                || mid[1].abs() < 1e-9
                || (mid[0] - side).abs() < 1e-9
                || (mid[1] - side).abs() < 1e-9;
            let on_cutter = cutters.iter().any(|c| {
                (0..c.ring.len())
                    .any(|i| seg_dist(mid, c.ring[i], c.ring[(i + 1) % c.ring.len()]) < 1e-5 + weld)
            });
            assert!(
                outline || on_cutter,
                "open edge {a}-{b} at {mid:?} on neither the outline nor a cutter"
            );
        }
    }
}

#[test]
fn a_square_hole_through_several_triangles() {
    let c = ring(&[[1.3, 1.2], [3.7, 1.4], [3.5, 3.6], [1.1, 3.3]]);
    let m = judge(5, std::slice::from_ref(&c), FillRule::NonZero);
    assert!(
        m.cut > 0 && m.removed > 0,
        "cut {} removed {}",
        m.cut,
        m.removed
    );
    let exact = 0.5
        * ((1.3f64 * 1.4 - 3.7 * 1.2)
            + (3.7 * 3.6 - 3.5 * 1.4)
            + (3.5 * 3.3 - 1.1 * 3.6)
            + (1.1 * 1.2 - 1.3 * 3.3));
    assert!(
        (m.removed_area[0] - exact.abs()).abs() < 1e-5,
        "{} vs {exact}",
        m.removed_area[0]
    );
}

#[test]
fn cuts_through_vertices_and_along_edges() {
    // Corners on grid vertices, edges along grid edges and diagonals.
    let cs = [
        ring(&[[1.0, 1.0], [3.0, 1.0], [3.0, 3.0], [1.0, 3.0]]),
        ring(&[[0.0, 0.0], [1.0, 1.0], [0.0, 1.0]]),
        ring(&[[4.0, 0.0], [5.0, 0.0], [5.0, 1.0], [4.0, 1.0], [3.0, 0.0]]),
    ];
    let m = judge(5, &cs, FillRule::NonZero);
    assert!(
        (m.removed_area[0] - 4.0).abs() < 1e-12,
        "{:?}",
        m.removed_area
    );
    assert!((m.removed_area[1] - 0.5).abs() < 1e-12);
    assert!((m.removed_area[2] - 1.5).abs() < 1e-12);
    // Cutting along existing edges makes no new vertex.
    let (v, _) = grid(5, 1.0);
    assert_eq!(m.vertices.len(), v.len(), "{:?}", &m.vertices[v.len()..]);
}

#[test]
fn touching_crossing_and_collinear_cutters() {
    let cs = [
        ring(&[[0.5, 0.5], [2.5, 0.5], [2.5, 2.5], [0.5, 2.5]]),
        // crosses the first
        ring(&[[1.5, 1.5], [3.5, 1.2], [3.2, 3.5]]),
        // touches the first at one corner, from outside
        ring(&[[2.5, 2.5], [3.9, 3.8], [2.7, 4.4]]),
        // shares part of an edge with the first, from outside
        ring(&[[0.5, 2.5], [1.5, 2.5], [1.0, 3.7]]),
    ];
    judge(5, &cs, FillRule::NonZero);
}

#[test]
fn a_hole_inside_one_triangle_and_a_cutter_over_everything() {
    let tiny = ring(&[[0.6, 0.2], [0.8, 0.25], [0.7, 0.35]]);
    let m = judge(2, std::slice::from_ref(&tiny), FillRule::NonZero);
    assert_eq!(m.cut, 1);
    let all = ring(&[[-1.0, -1.0], [9.0, -1.0], [9.0, 9.0], [-1.0, 9.0]]);
    let m = judge(2, &[all], FillRule::NonZero);
    assert!(m.triangles.is_empty());
    assert_eq!(m.removed, 8);
}

#[test]
fn self_overlapping_rings_follow_the_fill_rule() {
    // A pentagram: its centre is wound twice.
    let star: Vec<[f64; 2]> = (0..5)
        .map(|i| {
            let a = std::f64::consts::TAU * (i * 2) as f64 / 5.0 + 0.3;
            [2.5 + 2.0 * a.cos(), 2.5 + 2.0 * a.sin()]
        })
        .collect();
    let c = ring(&star);
    let nz = judge(5, std::slice::from_ref(&c), FillRule::NonZero);
    let eo = judge(5, std::slice::from_ref(&c), FillRule::EvenOdd);
    assert!(
        nz.removed_area[0] > eo.removed_area[0] + 1.0,
        "{} vs {}",
        nz.removed_area[0],
        eo.removed_area[0]
    );
    // A figure eight: both loops are inside under either rule.
    let eight = ring(&[[1.2, 1.2], [3.8, 3.8], [3.8, 1.2], [1.2, 3.8]]);
    let a = judge(5, std::slice::from_ref(&eight), FillRule::NonZero);
    let b = judge(5, std::slice::from_ref(&eight), FillRule::EvenOdd);
    assert!((a.removed_area[0] - b.removed_area[0]).abs() < 1e-9);
}

#[test]
fn degenerate_cutters_cut_nothing_and_bad_input_is_an_error() {
    let (v, t) = grid(2, 1.0);
    let cs = [
        ring(&[[0.5, 0.5], [1.5, 1.5]]),
        ring(&[]),
        ring(&[[0.3, 0.3], [0.3, 0.3], [0.3, 0.3]]),
    ];
    let m = cut(&v, &t, |_| true, &cs, &CutOptions::default()).unwrap();
    assert_eq!(m.triangles, t);
    assert!(cut(&v, &[[0, 1, 99]], |_| true, &[], &CutOptions::default()).is_err());
    let nan = ring(&[[0.0, 0.0], [f64::NAN, 1.0], [1.0, 1.0]]);
    assert!(cut(&v, &t, |_| true, &[nan], &CutOptions::default()).is_err());
}

#[test]
fn triangles_not_cuttable_stay() {
    let (v, t) = grid(2, 1.0);
    let c = ring(&[[0.2, 0.2], [1.8, 0.2], [1.8, 1.8], [0.2, 1.8]]);
    let m = cut(
        &v,
        &t,
        |i| i % 2 == 0,
        std::slice::from_ref(&c),
        &CutOptions::default(),
    )
    .unwrap();
    for i in (1..t.len()).step_by(2) {
        assert!(m.triangles.contains(&t[i]));
    }
    assert!(m.cut + m.removed > 0);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// Random polygons (often self-intersecting, overlapping each other, with corners on grid
    /// vertices and edges) on a 4 × 4 grid.
    #[test]
    fn random_cutters(rings in prop::collection::vec(prop::collection::vec((0u32..17, 0u32..17), 3..7), 1..4), even_odd: bool) {
        let cutters: Vec<Cutter> = rings
            .iter()
            .map(|r| ring(&r.iter().map(|&(x, y)| [f64::from(x) * 0.25, f64::from(y) * 0.25]).collect::<Vec<_>>()))
            .collect();
        let fill = if even_odd { FillRule::EvenOdd } else { FillRule::NonZero };
        judge(4, &cutters, fill);
    }

    /// The same with coordinates no binary fraction holds (crossings near corners and edges
    /// that only rounding decides).
    #[test]
    fn random_cutters_off_the_binary_grid(rings in prop::collection::vec(prop::collection::vec((0u32..14, 0u32..14), 3..7), 1..4), even_odd: bool) {
        let cutters: Vec<Cutter> = rings
            .iter()
            .map(|r| ring(&r.iter().map(|&(x, y)| [f64::from(x) * 0.3 + 0.01, f64::from(y) * 0.3]).collect::<Vec<_>>()))
            .collect();
        let fill = if even_odd { FillRule::EvenOdd } else { FillRule::NonZero };
        judge(4, &cutters, fill);
    }

    /// Welded at 0.1 m as the NWN2 toolset welds: still conforming, still the cutters' ground
    /// away from their edges.
    #[test]
    fn random_cutters_welded(rings in prop::collection::vec(prop::collection::vec((0u32..14, 0u32..14), 3..7), 1..4), even_odd: bool) {
        let cutters: Vec<Cutter> = rings
            .iter()
            .map(|r| ring(&r.iter().map(|&(x, y)| [f64::from(x) * 0.3 + 0.01, f64::from(y) * 0.3]).collect::<Vec<_>>()))
            .collect();
        let fill = if even_odd { FillRule::EvenOdd } else { FillRule::NonZero };
        judge_welded(4, &cutters, fill, areakit_geometry::cut::NWN2_WELD);
    }
}
