//! A room's shell and its openings: where a line can leave the room.
//!
//! The shell is the room model's opaque drawn faces. Its boundary — the edges that an odd
//! number of its faces use, once corners 1 mm apart are one corner and an edge that other
//! faces' corners split (a T-junction) is split — is made of closed loops, and every hole in
//! the shell is bounded by such loops (the boundary of a surface, counted mod 2, is a set of
//! cycles). A loop is an *opening* when a line can pass through it out of the room: its cap
//! (the convex hull of the loop, flattened onto the loop's plane) is probed by short lines
//! along and across its normal, from just behind it, on both sides; one that leaves the
//! room's box without meeting the shell or an opening already found makes it an opening,
//! facing that way. Loops whose every probe meets the shell are pockets: the rim of a panel
//! lying on a wall, a shelf, a pipe — the wall behind closes them (`docs/vis.md`).

use std::collections::HashMap;

use glam::{Vec2, Vec3};

use super::bvh::{Bvh, Tri};

/// Corners closer than this are one corner, and a corner this close to an edge splits it
/// (metres).
pub const WELD: f32 = 0.001;

/// How far from the origin (metres, on any axis) a shell's face may lie: areas span a few
/// kilometres at most, and cells of [`WELD`] up to here fit an `i32`.
pub const MAX_COORD: f32 = 1.0e6;

/// Loops whose cap is smaller than this (m²) are no opening: a crack left where an edge's
/// split corner is a little off the line.
pub const MIN_OPENING_AREA: f32 = 1e-4;

/// How far behind a cap a probe starts (metres): a face lying in the cap's plane is met.
const PROBE_BACK: f32 = 0.01;

/// The narrowest opening (metres): a probe is a bundle of five parallel lines, one and four
/// around it this far apart, and only a bundle that passes whole finds an opening. A crack
/// narrower than this between two pieces of one room's geometry (a door frame a little off
/// its wall) is closed (`docs/vis.md`).
pub const MIN_OPENING: f32 = 0.05;

/// An opening of a room's shell.
#[derive(Debug, Clone)]
pub struct Opening {
    /// The loop's corners (area space).
    pub points: Vec<Vec3>,
    /// The cap: a convex polygon in the loop's plane.
    pub cap: Vec<Vec3>,
    /// The cap's plane normal, pointing out of the room (the side a probe left by).
    pub normal: Vec3,
    /// Whether probes left on both sides (the opening faces out both ways).
    pub both_ways: bool,
    /// The cap's area (m²).
    pub area: f32,
}

/// What the shell analysis of one room found.
#[derive(Debug, Clone, Default)]
pub struct Shell {
    /// The openings.
    pub openings: Vec<Opening>,
    /// Boundary loops found (openings and pockets).
    pub loops: usize,
    /// Probe lines cast.
    pub probes: u64,
    /// Whether some drawn face faces out of the shell (it is seen from outside the room).
    pub seen_from_outside: bool,
}

/// Welds corners within [`WELD`]: the index of each triangle's corners, and the corners.
fn weld(tris: &[[Vec3; 3]]) -> (Vec<[u32; 3]>, Vec<Vec3>) {
    let cell = |p: Vec3| (p / WELD).floor().as_ivec3().to_array();
    let mut grid: HashMap<[i32; 3], Vec<u32>> = HashMap::with_capacity(tris.len() * 2);
    let mut pos: Vec<Vec3> = Vec::with_capacity(tris.len());
    let mut id = |p: Vec3, pos: &mut Vec<Vec3>| -> u32 {
        let c = cell(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    if let Some(list) = grid.get(&[c[0] + dx, c[1] + dy, c[2] + dz]) {
                        for &i in list {
                            if pos[i as usize].distance_squared(p) <= WELD * WELD {
                                return i;
                            }
                        }
                    }
                }
            }
        }
        let n = pos.len() as u32;
        pos.push(p);
        grid.entry(c).or_default().push(n);
        n
    };
    let ids = tris
        .iter()
        .map(|t| [id(t[0], &mut pos), id(t[1], &mut pos), id(t[2], &mut pos)])
        .collect();
    (ids, pos)
}

fn edge(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
}

/// The shell's boundary edges: used by an odd number of its faces, after splitting each such
/// edge at the corners lying on it (T-junctions), repeatedly.
fn boundary_edges(ids: &[[u32; 3]], pos: &[Vec3]) -> Vec<(u32, u32)> {
    let mut count: HashMap<(u32, u32), u32> = HashMap::with_capacity(ids.len() * 2);
    let mut faces = std::collections::HashSet::with_capacity(ids.len());
    for c in ids {
        if c[0] == c[1] || c[1] == c[2] || c[0] == c[2] {
            continue;
        }
        let mut key = *c;
        key.sort_unstable();
        // A face repeated (either winding) is one face.
        if !faces.insert(key) {
            continue;
        }
        for k in 0..3 {
            *count.entry(edge(c[k], c[(k + 1) % 3])).or_default() += 1;
        }
    }
    let odd = |count: &HashMap<(u32, u32), u32>| -> Vec<(u32, u32)> {
        let mut v: Vec<(u32, u32)> = count
            .iter()
            .filter(|(_, n)| *n % 2 == 1)
            .map(|(e, _)| *e)
            .collect();
        v.sort_unstable();
        v
    };
    for _ in 0..8 {
        let list = odd(&count);
        // Corners of boundary edges, on a coarse grid, as split candidates.
        const CELL: f32 = 0.5;
        let mut grid: HashMap<[i32; 3], Vec<u32>> = HashMap::new();
        let mut corners: Vec<u32> = list.iter().flat_map(|&(a, b)| [a, b]).collect();
        corners.sort_unstable();
        corners.dedup();
        for &v in &corners {
            let c = (pos[v as usize] / CELL).floor().as_ivec3().to_array();
            grid.entry(c).or_default().push(v);
        }
        let mut changed = false;
        for (a, b) in list {
            let (pa, pb) = (pos[a as usize], pos[b as usize]);
            let d = pb - pa;
            let l2 = d.length_squared();
            if l2 <= WELD * WELD {
                continue;
            }
            let lo = ((pa.min(pb) - Vec3::splat(WELD)) / CELL).floor().as_ivec3();
            let hi = ((pa.max(pb) + Vec3::splat(WELD)) / CELL).floor().as_ivec3();
            let cells = (hi - lo + 1).as_i64vec3();
            if cells.x * cells.y * cells.z > 4096 {
                continue;
            }
            let mut on: Vec<(f32, u32)> = Vec::new();
            for x in lo.x..=hi.x {
                for y in lo.y..=hi.y {
                    for z in lo.z..=hi.z {
                        let Some(list) = grid.get(&[x, y, z]) else {
                            continue;
                        };
                        for &v in list {
                            if v == a || v == b {
                                continue;
                            }
                            let p = pos[v as usize];
                            let t = (p - pa).dot(d) / l2;
                            if t <= 0.0 || t >= 1.0 {
                                continue;
                            }
                            if (pa + d * t).distance_squared(p) <= WELD * WELD {
                                on.push((t, v));
                            }
                        }
                    }
                }
            }
            if on.is_empty() {
                continue;
            }
            on.sort_by(|x, y| x.0.total_cmp(&y.0));
            on.dedup_by_key(|x| x.1);
            // The edge is replaced by its pieces (mod 2: one more use of it, one of each piece).
            *count.entry((a, b)).or_default() += 1;
            let mut prev = a;
            for v in on.iter().map(|x| x.1).chain(std::iter::once(b)) {
                if v != prev {
                    *count.entry(edge(prev, v)).or_default() += 1;
                }
                prev = v;
            }
            changed = true;
        }
        if !changed {
            break;
        }
    }
    odd(&count)
}

/// The boundary edges as closed loops (every corner has an even number of them).
fn loops(edges: &[(u32, u32)]) -> Vec<Vec<u32>> {
    let mut adj: HashMap<u32, Vec<(u32, usize)>> = HashMap::with_capacity(edges.len());
    for (k, &(a, b)) in edges.iter().enumerate() {
        adj.entry(a).or_default().push((b, k));
        adj.entry(b).or_default().push((a, k));
    }
    let mut used = vec![false; edges.len()];
    let mut out = Vec::new();
    for k in 0..edges.len() {
        if used[k] {
            continue;
        }
        used[k] = true;
        let (start, mut at) = edges[k];
        let mut lp = vec![start];
        while at != start {
            lp.push(at);
            let next = adj
                .get(&at)
                .and_then(|l| l.iter().find(|(_, e)| !used[*e]).copied());
            let Some((to, e)) = next else { break };
            used[e] = true;
            at = to;
        }
        out.push(lp);
    }
    out
}

/// An orthonormal basis of the plane with normal `n`.
pub fn basis(n: Vec3) -> (Vec3, Vec3) {
    let u = if n.x.abs() < 0.9 {
        Vec3::X.cross(n)
    } else {
        Vec3::Y.cross(n)
    }
    .normalize();
    (u, n.cross(u))
}

/// The convex hull of 2-D points, counter-clockwise (Andrew's monotone chain).
pub fn hull2(points: &[Vec2]) -> Vec<Vec2> {
    let mut p: Vec<Vec2> = points.iter().copied().filter(|v| v.is_finite()).collect();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut h: Vec<Vec2> = Vec::with_capacity(p.len() * 2);
    // The lower chain left to right, then the upper one right to left (never popping into the
    // lower chain).
    for &q in &p {
        while h.len() >= 2 && cross(h[h.len() - 2], h[h.len() - 1], q) <= 0.0 {
            h.pop();
        }
        h.push(q);
    }
    let lower = h.len() + 1;
    for &q in p.iter().rev().skip(1) {
        while h.len() >= lower && cross(h[h.len() - 2], h[h.len() - 1], q) <= 0.0 {
            h.pop();
        }
        h.push(q);
    }
    h.pop();
    h
}

/// A loop's plane (Newell's normal through the centroid) and its cap there: the convex hull
/// of its corners flattened onto the plane, its area, and how far the corners lie off it.
fn cap_of(points: &[Vec3]) -> Option<(Vec3, Vec3, Vec<Vec3>, f32, f32)> {
    let c = points.iter().copied().sum::<Vec3>() / points.len() as f32;
    let mut n = Vec3::ZERO;
    for i in 0..points.len() {
        let (a, b) = (points[i] - c, points[(i + 1) % points.len()] - c);
        n += a.cross(b);
    }
    let n = if n.length_squared() > 1e-12 {
        n.normalize()
    } else {
        // A loop with no area: the plane through its spread (a sliver is no opening anyway).
        return None;
    };
    let (u, v) = basis(n);
    let flat: Vec<Vec2> = points
        .iter()
        .map(|p| Vec2::new((*p - c).dot(u), (*p - c).dot(v)))
        .collect();
    let h = hull2(&flat);
    if h.len() < 3 {
        return None;
    }
    let area = 0.5
        * (0..h.len())
            .map(|i| h[i].perp_dot(h[(i + 1) % h.len()]))
            .sum::<f32>()
            .abs();
    let off = points
        .iter()
        .map(|p| (*p - c).dot(n).abs())
        .fold(0.0f32, f32::max);
    let cap = h.iter().map(|q| c + u * q.x + v * q.y).collect();
    Some((c, n, cap, area, off))
}

/// Whether the ray `o + s·d`, s in (lo, hi), passes through the convex polygon `poly`.
pub fn ray_polygon(o: Vec3, d: Vec3, lo: f32, hi: f32, poly: &[Vec3]) -> bool {
    if poly.len() < 3 {
        return false;
    }
    let n = (poly[1] - poly[0]).cross(poly[2] - poly[0]);
    let den = n.dot(d);
    if den.abs() < 1e-12 {
        return false;
    }
    let s = n.dot(poly[0] - o) / den;
    if !(s > lo && s < hi) {
        return false;
    }
    let p = o + d * s;
    let mut sign = 0.0f32;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        let side = (b - a).cross(p - a).dot(n);
        if side.abs() < 1e-9 {
            continue;
        }
        if sign == 0.0 {
            sign = side.signum();
        } else if side.signum() != sign {
            return false;
        }
    }
    true
}

/// Points of a cap for probing: its corners pulled a tenth towards the centre, the centre, and
/// a grid over it (at most about 32 points of each).
fn probe_points(cap: &[Vec3], normal: Vec3, area: f32) -> Vec<Vec3> {
    let c = cap.iter().copied().sum::<Vec3>() / cap.len() as f32;
    let mut out = vec![c];
    let step = (cap.len() / 24).max(1);
    out.extend(cap.iter().step_by(step).map(|&p| p + (c - p) * 0.1));
    let (u, v) = basis(normal);
    let flat: Vec<Vec2> = cap
        .iter()
        .map(|p| Vec2::new((*p - c).dot(u), (*p - c).dot(v)))
        .collect();
    let (lo, hi) = flat.iter().fold(
        (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
        |(l, h), p| (l.min(*p), h.max(*p)),
    );
    let spacing = (area / 32.0).sqrt().max(0.02);
    let inside = |q: Vec2| {
        (0..flat.len()).all(|i| (flat[(i + 1) % flat.len()] - flat[i]).perp_dot(q - flat[i]) >= 0.0)
    };
    let mut y = lo.y + spacing * 0.5;
    while y < hi.y {
        let mut x = lo.x + spacing * 0.5;
        while x < hi.x {
            let q = Vec2::new(x, y);
            if inside(q) {
                out.push(c + u * q.x + v * q.y);
            }
            x += spacing;
        }
        y += spacing;
    }
    out
}

/// A loop that may be an opening: its corners, its cap's normal, the cap, the cap's area and
/// how far the corners lie off its plane.
type Candidate = (Vec<Vec3>, Vec3, Vec<Vec3>, f32, f32);

/// Finds a room's openings. `tris`: its opaque drawn faces (area space); `drawn`: every drawn
/// face (for whether one faces out of the shell).
pub fn shell(tris: &[[Vec3; 3]], drawn: &[[Vec3; 3]]) -> Shell {
    // A face beyond [`MAX_COORD`] is no wall of a room (the welding grid's cells would not fit
    // an `i32`): it is left out, which can only open the room more.
    let near = |t: &[Vec3; 3]| t.iter().all(|p| p.abs().max_element() <= MAX_COORD);
    let kept: Vec<[Vec3; 3]>;
    let tris = if tris.iter().all(near) {
        tris
    } else {
        kept = tris.iter().filter(|t| near(t)).copied().collect();
        &kept
    };
    let mut out = Shell::default();
    if tris.is_empty() {
        out.seen_from_outside = !drawn.is_empty();
        return out;
    }
    let (ids, pos) = weld(tris);
    let edges = boundary_edges(&ids, &pos);
    let found = loops(&edges);
    out.loops = found.len();
    let bvh = Bvh::build(tris.iter().map(|t| Tri::new(*t)).collect());
    let (lo, hi) = tris.iter().flatten().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(l, h), p| (l.min(*p), h.max(*p)),
    );
    let reach = (hi - lo).length() + 2.0;
    // Candidates: flat loops first, the largest first (a doorway is found before a shelf
    // near it, so a probe leaving through the doorway is known for what it is).
    let mut caps: Vec<Candidate> = found
        .iter()
        .filter_map(|l| {
            let pts: Vec<Vec3> = l.iter().map(|&i| pos[i as usize]).collect();
            let (_, n, cap, area, off) = cap_of(&pts)?;
            (area >= MIN_OPENING_AREA).then_some((pts, n, cap, area, off))
        })
        .collect();
    let flat = |c: &Candidate| c.4 <= 0.02 + 0.02 * c.3.sqrt();
    caps.sort_by(|a, b| flat(b).cmp(&flat(a)).then(b.3.total_cmp(&a.3)));
    let mut accepted: Vec<Vec<Vec3>> = Vec::new();
    let escapes = |o: Vec3, d: Vec3, accepted: &[Vec<Vec3>], probes: &mut u64| -> bool {
        let (u, v) = basis(d);
        let r = MIN_OPENING * 0.5;
        [Vec3::ZERO, u * r, -u * r, v * r, -v * r]
            .iter()
            .all(|&off| {
                *probes += 1;
                let o = o + off;
                !bvh.blocked(o, o + d * reach)
                    && !accepted
                        .iter()
                        .any(|cap| ray_polygon(o, d, PROBE_BACK * 1.5, reach, cap))
            })
    };
    // Which ways a probe bundle leaves through a cap, past the caps `through`: along its
    // normal, against it.
    let sides_of = |cap: &[Vec3], n: Vec3, area: f32, through: &[Vec<Vec3>], probes: &mut u64| {
        let (u, v) = basis(n);
        let mut sides = [false; 2];
        for p in probe_points(cap, n, area) {
            for (k, side) in [1.0f32, -1.0].into_iter().enumerate() {
                if sides[k] {
                    continue;
                }
                let axis = n * side;
                let o = p - axis * PROBE_BACK;
                let dirs = [
                    axis,
                    (axis + u).normalize(),
                    (axis - u).normalize(),
                    (axis + v).normalize(),
                    (axis - v).normalize(),
                ];
                if dirs.iter().any(|&d| escapes(o, d, through, probes)) {
                    sides[k] = true;
                }
            }
            if sides[0] && sides[1] {
                break;
            }
        }
        sides
    };
    for (points, n, cap, area, _) in caps {
        let sides = sides_of(&cap, n, area, &accepted, &mut out.probes);
        if sides[0] || sides[1] {
            accepted.push(cap.clone());
            out.openings.push(Opening {
                points,
                cap,
                normal: if sides[0] { n } else { -n },
                both_ways: sides[0] && sides[1],
                area,
            });
        }
    }
    // Again, each opening with every other one known: one that leaves only through another
    // (a doorway seen from the far end of a corridor through its other doorway) faces out
    // one way, or is none.
    let found = std::mem::take(&mut out.openings);
    let caps_all: Vec<Vec<Vec3>> = found.iter().map(|o| o.cap.clone()).collect();
    for (k, o) in found.into_iter().enumerate() {
        let others: Vec<Vec<Vec3>> = caps_all
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != k)
            .map(|(_, c)| c.clone())
            .collect();
        let n = o.normal;
        let sides = sides_of(&o.cap, n, o.area, &others, &mut out.probes);
        if sides[0] || sides[1] {
            out.openings.push(Opening {
                normal: if sides[0] { n } else { -n },
                both_ways: sides[0] && sides[1],
                ..o
            });
        }
    }
    let accepted: Vec<Vec<Vec3>> = out.openings.iter().map(|o| o.cap.clone()).collect();
    // A drawn face whose front looks out of the shell (not through an opening) is seen from
    // outside the room.
    let mut probes = out.probes;
    out.seen_from_outside = drawn.iter().any(|t| {
        let nrm = (t[1] - t[0]).cross(t[2] - t[0]);
        if nrm.length_squared() < 1e-12 {
            return false;
        }
        let nrm = nrm.normalize();
        let (u, v) = basis(nrm);
        let c = (t[0] + t[1] + t[2]) / 3.0 + nrm * PROBE_BACK;
        [
            nrm,
            (nrm + u).normalize(),
            (nrm - u).normalize(),
            (nrm + v).normalize(),
            (nrm - v).normalize(),
        ]
        .iter()
        .any(|&d| escapes(c, d, &accepted, &mut probes))
    });
    out.probes = probes;
    out
}
