//! Slivers thinner than the coordinates' resolution, flipped away before the triangles are
//! oriented (see the module docs, "Slivers").

use super::NO_TRIANGLE;
use glam::{DVec3, Vec3};

/// A triangle's longest edge `(a, b)` (corner indices into `t`), its apex `q`, and whether
/// it is a sliver: its apex within the resolution of the longest edge's line, in plan and in
/// 3-D, its corners distinct.
fn sliver(vertices: &[Vec3], t: [u32; 3]) -> Option<(usize, usize, usize)> {
    if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
        return None;
    }
    let (k, h2, h3) = longest(vertices, t);
    let eps = resolution(vertices, &t);
    (h2 <= eps && h3 <= eps).then_some((k, (k + 1) % 3, (k + 2) % 3))
}

/// The longest plan edge's first corner, and the apex's plan and 3-D distance from its line.
fn longest(vertices: &[Vec3], t: [u32; 3]) -> (usize, f64, f64) {
    let p = t.map(|i| vertices[i as usize].as_dvec3());
    let len = |k: usize| {
        let d = p[(k + 1) % 3] - p[k];
        d.x.hypot(d.y)
    };
    let k = (0..3).fold(0, |b, k| if len(k) > len(b) { k } else { b });
    let (a, b, q) = (p[k], p[(k + 1) % 3], p[(k + 2) % 3]);
    let l2 = len(k);
    let cross = (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x);
    let h2 = if l2 > 0.0 { cross.abs() / l2 } else { 0.0 };
    let d: DVec3 = b - a;
    let l3 = d.length();
    let h3 = if l3 > 0.0 {
        d.cross(q - a).length() / l3
    } else {
        0.0
    };
    (k, h2, h3)
}

/// The `f32` resolution at the corners: `f32::EPSILON` times their largest coordinate (at
/// least 1).
fn resolution(vertices: &[Vec3], corners: &[u32]) -> f64 {
    let m = corners
        .iter()
        .map(|&i| vertices[i as usize].abs().max_element())
        .fold(1.0f32, f32::max);
    f64::from(f32::EPSILON) * f64::from(m)
}

/// Whether `t` has real plan area (not a sliver, not collinear): its apex beyond the
/// resolution of its longest edge's line.
fn real(vertices: &[Vec3], t: [u32; 3]) -> bool {
    let (_, h2, _) = longest(vertices, t);
    t[0] != t[1] && t[1] != t[2] && t[0] != t[2] && h2 > resolution(vertices, &t)
}

/// The signed plan area (doubled) of `t`.
fn area2(vertices: &[Vec3], t: [u32; 3]) -> f64 {
    let p = t.map(|i| vertices[i as usize].as_dvec3());
    (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[1].y - p[0].y) * (p[2].x - p[0].x)
}

/// The triangle `given[t]` names across its edge `x`–`y` (it holds both), other than `not`.
fn across(tris: &[[u32; 3]], given: &[[u32; 3]], t: usize, x: u32, y: u32) -> u32 {
    given[t]
        .iter()
        .copied()
        .find(|&n| {
            (n as usize) < tris.len() && n as usize != t && {
                let u = tris[n as usize];
                u.contains(&x) && u.contains(&y)
            }
        })
        .unwrap_or(NO_TRIANGLE)
}

/// Whether `given[t]` names exactly `partners` (less the [`NO_TRIANGLE`]s), each naming `t`
/// back: then rewriting the links of a flip leaves none one way.
fn accounted(given: &[[u32; 3]], t: usize, partners: [u32; 3]) -> bool {
    let named = |l: &[u32; 3], n: u32| l.contains(&n);
    let real = |n: &&u32| **n != NO_TRIANGLE;
    given[t].iter().filter(real).all(|&n| partners.contains(&n))
        && partners
            .iter()
            .filter(real)
            .all(|&n| named(&given[t], n) && named(&given[n as usize], t as u32))
}

/// Flips away every sliver (a triangle whose apex lies within the coordinates' resolution
/// of its longest edge, in plan and in 3-D) that the file links across that edge to a
/// triangle `u` with real area, of the same region: the two become the triangles from `u`'s
/// third corner to the sliver's apex, each with real area on `u`'s side (else nothing is
/// flipped, nor where the two name a triangle that is not across one of their edges, one
/// that does not name them back, or one across two of their edges). The one holding the
/// edge's lower vertex index takes the sliver's slot. The links follow the edges (`given` is
/// rewritten). Repeated until no sliver can be flipped: a fan of slivers filling a
/// T-junction becomes a fan from the real triangle's far corner. Returns the number of flips.
pub(super) fn flip(
    vertices: &[Vec3],
    tris: &mut [[u32; 3]],
    given: &mut [[u32; 3]],
    regions: &[u32],
) -> usize {
    let n = tris.len();
    let mut flips = 0;
    let mut work: Vec<u32> = (0..n as u32).rev().collect();
    while let Some(s) = work.pop() {
        let s = s as usize;
        let st = tris[s];
        let Some((ka, kb, kq)) = sliver(vertices, st) else {
            continue;
        };
        let (a, b, q) = (st[ka], st[kb], st[kq]);
        let u = across(tris, given, s, a, b);
        if u == NO_TRIANGLE || !given[u as usize].contains(&(s as u32)) {
            continue;
        }
        let ui = u as usize;
        let ut = tris[ui];
        let Some(&x) = ut.iter().find(|&&v| v != a && v != b) else {
            continue;
        };
        if !ut.contains(&a) || !ut.contains(&b) || regions.get(s) != regions.get(ui) {
            continue;
        }
        let (ta, tb) = ([a, q, x], [q, b, x]);
        let side = area2(vertices, [a, b, x]);
        if !real(vertices, ut)
            || !real(vertices, ta)
            || !real(vertices, tb)
            || area2(vertices, ta).signum() != side.signum()
            || area2(vertices, tb).signum() != side.signum()
        {
            continue;
        }
        // The outer partners, found before the triangles change.
        let (pa, pb) = (across(tris, given, s, a, q), across(tris, given, s, q, b));
        let (ra, rb) = (across(tris, given, ui, x, a), across(tris, given, ui, b, x));
        let outer = [pa, pb, ra, rb];
        let repeated = (0..4).any(|i| outer[i] != NO_TRIANGLE && outer[..i].contains(&outer[i]));
        if repeated
            || !accounted(given, s, [pa, pb, u])
            || !accounted(given, ui, [ra, rb, s as u32])
        {
            continue;
        }
        let (slot_a, slot_b) = if a < b { (s, ui) } else { (ui, s) };
        tris[slot_a] = ta;
        tris[slot_b] = tb;
        given[slot_a] = [pa, ra, slot_b as u32];
        given[slot_b] = [pb, rb, slot_a as u32];
        for (p, old, new) in [
            (pa, s, slot_a),
            (pb, s, slot_b),
            (ra, ui, slot_a),
            (rb, ui, slot_b),
        ] {
            if p == NO_TRIANGLE {
                continue;
            }
            for e in &mut given[p as usize] {
                if *e == old as u32 {
                    *e = new as u32;
                }
            }
            work.push(p);
        }
        flips += 1;
    }
    flips
}
