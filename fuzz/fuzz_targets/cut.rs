//! Cutter clipping (`areakit_geometry::cut`, through `areakit_app::geometry`): a small mesh and cutters from the bytes, exact
//! and welded. Never panics; the output names only vertices it has; every output triangle
//! keeps its parent's winding and no output edge is used by more than two triangles.
#![no_main]

use std::collections::HashMap;

use areakit_app::geometry::cut::{CutOptions, Cutter, FillRule, cut};
use libfuzzer_sys::fuzz_target;

/// A coordinate from two bytes: 1/64 m steps over 0..16 m (so corners, edges and crossings
/// coincide often), or anything (NaN, huge) from the top bit.
fn coord(b: &[u8]) -> f64 {
    let v = u16::from_le_bytes([b[0], b[1]]);
    if v & 0x8000 != 0 {
        f64::from(f32::from_bits(u32::from(v) << 16))
    } else {
        f64::from(v & 0x3ff) / 64.0
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let (head, rest) = data.split_at(2);
    let grid = usize::from(head[0] % 4) + 1;
    let weld = f64::from(head[1] % 4) * 0.05;
    // A grid of unit squares, 2 triangles each, z on a slope.
    let mut vertices = Vec::new();
    for y in 0..=grid {
        for x in 0..=grid {
            vertices.push([
                x as f32 * 4.0,
                y as f32 * 4.0,
                x as f32 * 0.1 + y as f32 * 0.2,
            ]);
        }
    }
    let id = |x: usize, y: usize| (y * (grid + 1) + x) as u32;
    let mut triangles = Vec::new();
    for y in 0..grid {
        for x in 0..grid {
            triangles.push([id(x, y), id(x + 1, y), id(x + 1, y + 1)]);
            triangles.push([id(x, y), id(x + 1, y + 1), id(x, y + 1)]);
        }
    }
    // Cutters: a count byte, then rings of (point count, points).
    let mut cutters = Vec::new();
    let mut at = 0;
    while at < rest.len() && cutters.len() < 8 {
        let n = usize::from(rest[at] % 12);
        at += 1;
        let mut ring = Vec::new();
        for _ in 0..n {
            if at + 4 > rest.len() {
                break;
            }
            ring.push([coord(&rest[at..at + 2]), coord(&rest[at + 2..at + 4])]);
            at += 4;
        }
        cutters.push(Cutter { ring });
    }
    let fill = if head[1] & 0x80 != 0 {
        FillRule::EvenOdd
    } else {
        FillRule::NonZero
    };
    let Ok(m) = cut(
        &vertices,
        &triangles,
        |_| true,
        &cutters,
        &CutOptions { fill, weld },
    ) else {
        return;
    };
    assert_eq!(m.triangles.len(), m.parent.len());
    let mut uses: HashMap<(u32, u32), u32> = HashMap::new();
    for (t, &p) in m.triangles.iter().zip(&m.parent) {
        assert!(t.iter().all(|&v| (v as usize) < m.vertices.len()));
        let plan = |v: u32| {
            let p = m.vertices[v as usize];
            [f64::from(p[0]), f64::from(p[1])]
        };
        let area = |t: [u32; 3]| {
            let [a, b, c] = t.map(plan);
            (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])
        };
        assert!(
            area(*t) * area(triangles[p as usize]) > 0.0,
            "a piece turned over"
        );
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *uses.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    assert!(uses.values().all(|&n| n <= 2), "an edge of three pieces");
});
