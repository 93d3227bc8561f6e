//! The oracle's own reading of a sliver (written from `docs/navigation.md`, "Slivers", not from
//! the engine's code): a triangle of distinct corners whose corner opposite its longest plan
//! edge lies within the coordinates' `f32` resolution (`f32::EPSILON` × the corners' largest
//! coordinate, at least 1) of that edge's line, in plan and in 3-D. When the file links it
//! across that edge to a triangle that is not thin (same measure), and both triangles from that
//! triangle's far corner to the sliver's apex are not thin and lie on the far corner's side
//! (exact orientation), the pair is replaced by those two: the one holding the edge's lower
//! vertex index in the sliver's slot, the other in its partner's, and every link follows its
//! edge. Not where either names a triangle that is not across one of its edges, one that
//! does not name it back, or one across two of the pair's outer edges. Repeated until nothing
//! changes.

use super::exact::orient;
use std::cmp::Ordering;

/// No triangle: a link to nothing (re-exported by the ground as its `NONE`).
pub const NONE: u32 = u32::MAX;

type P3 = [f64; 3];

fn sub(a: P3, b: P3) -> P3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// (longest plan edge as corner positions (i, i+1), plan distance of the third corner from its
/// line, 3-D distance).
fn thinness(p: [P3; 3]) -> (usize, f64, f64) {
    let plan_len = |i: usize| {
        let d = sub(p[(i + 1) % 3], p[i]);
        (d[0] * d[0] + d[1] * d[1]).sqrt()
    };
    let mut i = 0;
    for j in 1..3 {
        if plan_len(j) > plan_len(i) {
            i = j;
        }
    }
    let e = sub(p[(i + 1) % 3], p[i]);
    let w = sub(p[(i + 2) % 3], p[i]);
    let l = plan_len(i);
    let plan = if l == 0.0 {
        0.0
    } else {
        (e[0] * w[1] - e[1] * w[0]).abs() / l
    };
    let c = [
        e[1] * w[2] - e[2] * w[1],
        e[2] * w[0] - e[0] * w[2],
        e[0] * w[1] - e[1] * w[0],
    ];
    let l3 = (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]).sqrt();
    let space = if l3 == 0.0 {
        0.0
    } else {
        (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt() / l3
    };
    (i, plan, space)
}

struct Mesh<'a> {
    v: &'a [[f32; 3]],
}

impl Mesh<'_> {
    fn p(&self, i: u32) -> P3 {
        let q = self.v[i as usize];
        [f64::from(q[0]), f64::from(q[1]), f64::from(q[2])]
    }

    fn res(&self, t: [u32; 3]) -> f64 {
        let mut m = 1.0f32;
        for i in t {
            for c in self.v[i as usize] {
                m = m.max(c.abs());
            }
        }
        f64::from(f32::EPSILON) * f64::from(m)
    }

    fn distinct(t: [u32; 3]) -> bool {
        t[0] != t[1] && t[1] != t[2] && t[2] != t[0]
    }

    /// The sliver's longest edge and apex (vertex indices), if it is one.
    fn sliver(&self, t: [u32; 3]) -> Option<(u32, u32, u32)> {
        if !Self::distinct(t) {
            return None;
        }
        let (i, plan, space) = thinness(t.map(|x| self.p(x)));
        let r = self.res(t);
        (plan <= r && space <= r).then_some((t[i], t[(i + 1) % 3], t[(i + 2) % 3]))
    }

    fn thick(&self, t: [u32; 3]) -> bool {
        Self::distinct(t) && thinness(t.map(|x| self.p(x))).1 > self.res(t)
    }

    fn side(&self, a: u32, b: u32, c: u32) -> Ordering {
        let q = |i: u32| {
            [
                f64::from(self.v[i as usize][0]),
                f64::from(self.v[i as usize][1]),
            ]
        };
        orient(q(a), q(b), q(c))
    }
}

/// The triangle `links[t]` names that holds both `a` and `b` (not `t`).
fn partner(tris: &[[u32; 3]], links: &[[u32; 3]], t: usize, a: u32, b: u32) -> u32 {
    for &n in &links[t] {
        if n != NONE && (n as usize) < tris.len() && n as usize != t {
            let u = tris[n as usize];
            if u.contains(&a) && u.contains(&b) {
                return n;
            }
        }
    }
    NONE
}

/// Flips the slivers of `tris` (as given, any winding) away, rewriting `links` (the file's,
/// per triangle): the triangles and links the oracle reads instead, and the number of flips.
pub fn flip(
    vertices: &[[f32; 3]],
    triangles: &[[u32; 3]],
    file: &[[u32; 3]],
) -> (Vec<[u32; 3]>, Vec<[u32; 3]>, usize) {
    let m = Mesh { v: vertices };
    let mut tris = triangles.to_vec();
    let mut links = file.to_vec();
    links.resize(tris.len(), [NONE; 3]);
    let mut flips = 0;
    loop {
        let mut changed = false;
        for s in 0..tris.len() {
            let Some((a, b, q)) = m.sliver(tris[s]) else {
                continue;
            };
            let u = partner(&tris, &links, s, a, b);
            if u == NONE || !links[u as usize].contains(&(s as u32)) {
                continue;
            }
            let ui = u as usize;
            let Some(&x) = tris[ui].iter().find(|&&w| w != a && w != b) else {
                continue;
            };
            let far = m.side(a, b, x);
            let (ta, tb) = ([a, q, x], [q, b, x]);
            let ok = m.thick(tris[ui])
                && m.thick(ta)
                && m.thick(tb)
                && far != Ordering::Equal
                && m.side(a, q, x) == far
                && m.side(q, b, x) == far;
            if !ok {
                continue;
            }
            let outer = [
                (partner(&tris, &links, s, a, q), s),
                (partner(&tris, &links, ui, x, a), ui),
                (partner(&tris, &links, s, q, b), s),
                (partner(&tris, &links, ui, b, x), ui),
            ];
            // Every link of the two must be one of these, named both ways.
            let clean = |t: usize, mine: [u32; 3]| {
                links[t].iter().all(|&n| n == NONE || mine.contains(&n))
                    && mine.iter().all(|&n| {
                        n == NONE
                            || (links[t].contains(&n) && links[n as usize].contains(&(t as u32)))
                    })
            };
            let twice = outer
                .iter()
                .enumerate()
                .any(|(i, o)| o.0 != NONE && outer[i + 1..].iter().any(|p| p.0 == o.0));
            if twice
                || !clean(s, [outer[0].0, outer[2].0, u])
                || !clean(ui, [outer[1].0, outer[3].0, s as u32])
            {
                continue;
            }
            let (sa, sb) = if a < b { (s, ui) } else { (ui, s) };
            tris[sa] = ta;
            tris[sb] = tb;
            links[sa] = [outer[0].0, outer[1].0, sb as u32];
            links[sb] = [outer[2].0, outer[3].0, sa as u32];
            for (k, &(n, was)) in outer.iter().enumerate() {
                if n == NONE {
                    continue;
                }
                let now = if k < 2 { sa } else { sb };
                for e in links[n as usize].iter_mut() {
                    if *e == was as u32 {
                        *e = now as u32;
                    }
                }
            }
            changed = true;
            flips += 1;
        }
        if !changed {
            return (tris, links, flips);
        }
    }
}
