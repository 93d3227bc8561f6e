//! The walkable ground as the oracle reads it, written from the documented model
//! (`docs/navigation.md`, "The navigation mesh") and nothing of the engine's code:
//!
//! - a triangle with no plan area (its corners collinear seen from above, or a corner
//!   repeated) is not ground;
//! - two triangles are neighbours across an edge when they use its two vertex indices in
//!   opposite directions once both are put counter-clockwise in plan; of several using an edge,
//!   the lowest-numbered of each direction pair up, the others see a wall;
//! - nothing else joins ground: not overlap in plan, not coincident positions under other
//!   vertex indices, not a vertex of one triangle lying on another's edge;
//! - with a file's links, its slivers (thinner than the coordinates' resolution) are first
//!   flipped away with the triangle it links them to across their longest edge
//!   ([`super::slivers`]).
//!
//! Around a vertex, the triangles that touch it and are joined through edges leaving it form
//! a *fan*. A vertex where the ground meets itself only at a point (a pinch) has several fans;
//! a path may turn there inside one fan but never pass from one to another.

use super::exact::orient;
use std::cmp::Ordering;
use std::collections::HashMap;

/// "None" in the oracle's tables.
pub use super::slivers::NONE;

/// A plan point.
pub type P2 = [f64; 2];

/// One fan of triangles round a vertex.
#[derive(Debug, Clone)]
pub struct Fan {
    /// The vertex.
    pub vertex: u32,
    /// Its triangles.
    pub tris: Vec<u32>,
    /// The sum of their plan angles at the vertex (radians).
    pub angle: f64,
    /// Whether an edge leaving the vertex is a wall (the fan does not close round it).
    pub open: bool,
    /// For an open fan: the far ends of its two walls, the one it starts from and the one it
    /// ends at, counter-clockwise round the vertex.
    pub walls: [u32; 2],
}

/// The ground: triangles counter-clockwise in plan, their neighbours and fans.
#[derive(Debug, Clone)]
pub struct Ground {
    pub pos: Vec<P2>,
    pub z: Vec<f64>,
    /// Counter-clockwise in plan (flat ones as given).
    pub tris: Vec<[u32; 3]>,
    pub flat: Vec<bool>,
    /// Per triangle and edge (corner k to k + 1): the neighbour across it, or [`NONE`].
    pub nb: Vec<[u32; 3]>,
    /// Per triangle: its connected part (through neighbours).
    pub part: Vec<u32>,
    pub fans: Vec<Fan>,
    /// (vertex, triangle) → its fan.
    fan_of: HashMap<(u32, u32), u32>,
    /// Per vertex: the fans round it.
    pub vertex_fans: Vec<Vec<u32>>,
    /// Plan position → the vertices there.
    at_position: HashMap<(u64, u64), Vec<u32>>,
}

fn key(p: P2) -> (u64, u64) {
    // +0.0 and -0.0 are one position.
    ((p[0] + 0.0).to_bits(), (p[1] + 0.0).to_bits())
}

/// Where the oracle's neighbours come from.
#[derive(Debug, Clone, Copy)]
pub enum Links<'a> {
    /// The model's rule (the module docs): shared vertex indices in opposite directions.
    SharedEdges,
    /// The file's own table: per triangle, the triangles it names as its neighbours, in any
    /// order ([`NONE`] for none), numbered as the triangles given (a TRX's
    /// `linked_triangles`, a BWM's walkable adjacency).
    File(&'a [[u32; 3]]),
}

/// How the file's links differ from the model's rule (counts of triangle pairs), and what
/// the oracle made of them. A link is walked across only when both triangles name each other
/// and lie on opposite sides of an edge whose two vertex indices they share.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinkFindings {
    /// Links walked across (both ways).
    pub joined: usize,
    /// Pairs the file links over a shared edge on the same side of it (a fold): not walked.
    pub folds: usize,
    /// Links one triangle names and the other does not: not walked.
    pub one_way: usize,
    /// Links between triangles that share no edge by vertex index: not walked.
    pub no_shared_edge: usize,
    /// Links to a triangle with no plan area (a vertical face): not walked.
    pub to_flat: usize,
    /// Links to no triangle (out of range): not walked.
    pub dangling: usize,
    /// Edges the model's rule joins that the file does not link (a crack in the file).
    pub unlinked_shared: usize,
    /// Of the walked links, those the model's rule does not join (an edge used by three or
    /// more triangles, paired otherwise).
    pub joined_otherwise: usize,
    /// Slivers flipped away with the triangle the file links them to across their longest
    /// edge, before the links are read (`super::slivers`).
    pub slivers_flipped: usize,
}

impl Ground {
    /// The ground with its neighbours from `links`, and how those differ from the rule.
    pub fn with_links(
        vertices: &[[f32; 3]],
        triangles: &[[u32; 3]],
        links: Links,
    ) -> (Ground, LinkFindings) {
        let pos: Vec<P2> = vertices
            .iter()
            .map(|v| [f64::from(v[0]), f64::from(v[1])])
            .collect();
        let z = vertices.iter().map(|v| f64::from(v[2])).collect();
        // A file's slivers are flipped away first (`super::slivers`).
        let flipped = match links {
            Links::File(file) => Some(super::slivers::flip(vertices, triangles, file)),
            Links::SharedEdges => None,
        };
        let (triangles, links, flips) = match &flipped {
            Some((t, l, n)) => (t.as_slice(), Links::File(l), *n),
            None => (triangles, links, 0),
        };
        let mut flat = Vec::with_capacity(triangles.len());
        let tris: Vec<[u32; 3]> = triangles
            .iter()
            .map(|t| {
                let o = if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
                    Ordering::Equal
                } else {
                    orient(pos[t[0] as usize], pos[t[1] as usize], pos[t[2] as usize])
                };
                flat.push(o == Ordering::Equal);
                if o == Ordering::Less {
                    [t[0], t[2], t[1]]
                } else {
                    *t
                }
            })
            .collect();
        let rule = neighbours(&tris, &flat);
        let (nb, findings) = match links {
            Links::SharedEdges => (rule, LinkFindings::default()),
            Links::File(file) => file_neighbours(&tris, &flat, file, &rule),
        };
        let findings = LinkFindings {
            slivers_flipped: flips,
            ..findings
        };
        let part = parts(&nb);
        let mut g = Ground {
            pos,
            z,
            tris,
            flat,
            nb,
            part,
            fans: Vec::new(),
            fan_of: HashMap::new(),
            vertex_fans: vec![Vec::new(); vertices.len()],
            at_position: HashMap::new(),
        };
        g.find_fans();
        for (v, p) in g.pos.iter().enumerate() {
            g.at_position.entry(key(*p)).or_default().push(v as u32);
        }
        (g, findings)
    }

    fn find_fans(&mut self) {
        let mut incident: Vec<Vec<u32>> = vec![Vec::new(); self.pos.len()];
        for (t, tri) in self.tris.iter().enumerate() {
            if !self.flat[t] {
                for &v in tri {
                    incident[v as usize].push(t as u32);
                }
            }
        }
        for (v, list) in incident.iter().enumerate() {
            let v = v as u32;
            let mut seen: HashMap<u32, bool> = list.iter().map(|&t| (t, false)).collect();
            for &seed in list {
                if seen[&seed] {
                    continue;
                }
                let mut fan = Fan {
                    vertex: v,
                    tris: Vec::new(),
                    angle: 0.0,
                    open: false,
                    walls: [NONE; 2],
                };
                let mut stack = vec![seed];
                seen.insert(seed, true);
                while let Some(t) = stack.pop() {
                    fan.tris.push(t);
                    let tri = self.tris[t as usize];
                    let k = tri.iter().position(|&w| w == v).unwrap_or(0);
                    fan.angle += self.angle_at(t, k);
                    // The two edges leaving v: k → k + 1 and k + 2 → k.
                    for (side, e) in [(0, k), (1, (k + 2) % 3)] {
                        let n = self.nb[t as usize][e];
                        if n == NONE {
                            fan.open = true;
                            // Edge k runs from v to corner k + 1; edge k + 2 from k + 2 to v.
                            fan.walls[side] = tri[(k + 1 + side) % 3];
                        } else if !seen[&n] {
                            seen.insert(n, true);
                            stack.push(n);
                        }
                    }
                }
                fan.tris.sort_unstable();
                let id = self.fans.len() as u32;
                for &t in &fan.tris {
                    self.fan_of.insert((v, t), id);
                }
                self.vertex_fans[v as usize].push(id);
                self.fans.push(fan);
            }
        }
    }

    /// The plan angle of triangle `t` at its corner `k`.
    fn angle_at(&self, t: u32, k: usize) -> f64 {
        let tri = self.tris[t as usize];
        let o = self.pos[tri[k] as usize];
        let a = self.pos[tri[(k + 1) % 3] as usize];
        let b = self.pos[tri[(k + 2) % 3] as usize];
        let u = [a[0] - o[0], a[1] - o[1]];
        let w = [b[0] - o[0], b[1] - o[1]];
        (u[0] * w[1] - u[1] * w[0])
            .abs()
            .atan2(u[0] * w[0] + u[1] * w[1])
    }

    /// The fan of vertex `v` that triangle `t` belongs to.
    pub fn fan(&self, v: u32, t: u32) -> Option<u32> {
        self.fan_of.get(&(v, t)).copied()
    }

    /// The vertices at plan position `p`.
    pub fn vertices_at(&self, p: P2) -> &[u32] {
        self.at_position.get(&key(p)).map_or(&[], Vec::as_slice)
    }

    pub fn corners(&self, t: u32) -> [P2; 3] {
        self.tris[t as usize].map(|v| self.pos[v as usize])
    }

    /// Whether triangle `t` holds `p` in plan (its edges and corners included).
    pub fn holds(&self, t: u32, p: P2) -> bool {
        let [a, b, c] = self.corners(t);
        orient(a, b, p) != Ordering::Less
            && orient(b, c, p) != Ordering::Less
            && orient(c, a, p) != Ordering::Less
    }

    /// Whether `p` lies on the closed segment from `a` to `b`.
    pub fn on_segment(a: P2, b: P2, p: P2) -> bool {
        orient(a, b, p) == Ordering::Equal
            && p[0] >= a[0].min(b[0])
            && p[0] <= a[0].max(b[0])
            && p[1] >= a[1].min(b[1])
            && p[1] <= a[1].max(b[1])
    }

    /// The height of triangle `t`'s plane at `p`.
    pub fn height(&self, t: u32, p: P2) -> f64 {
        let tri = self.tris[t as usize];
        let [a, b, c] = self.corners(t);
        let area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        let w =
            |u: P2, v: P2| ((v[0] - u[0]) * (p[1] - u[1]) - (v[1] - u[1]) * (p[0] - u[0])) / area;
        let (wa, wb) = (w(b, c), w(c, a));
        let wc = 1.0 - wa - wb;
        wa * self.z[tri[0] as usize] + wb * self.z[tri[1] as usize] + wc * self.z[tri[2] as usize]
    }

    /// Every triangle a point `p` on triangle `t` stands on, by the oracle's own rule: each
    /// ground triangle that holds `p` (its edges and corners included) with its height there
    /// within 1 mm of `t`'s, except, where `p` is a corner `v` of `t` round which the ground
    /// has several fans (a pinch), the triangles of `v`'s other fans. Sorted.
    pub fn stands(&self, t: u32, p: P2) -> Vec<u32> {
        let h = self.height(t, p);
        let v = self.tris[t as usize]
            .into_iter()
            .find(|&v| self.pos[v as usize] == p);
        let other_fan = |u: u32| {
            v.is_some_and(|v| {
                self.tris[u as usize].contains(&v) && self.fan(v, u) != self.fan(v, t)
            })
        };
        let mut out: Vec<u32> = (0..self.tris.len() as u32)
            .filter(|&u| {
                u == t
                    || (!self.flat[u as usize]
                        && self.holds(u, p)
                        && (self.height(u, p) - h).abs() <= 1e-3
                        && !other_fan(u))
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// The place of `p` on triangle `t`: the triangles that hold `p` and are joined to `t`
    /// through edges that hold `p` (one triangle inside, two across an edge, a fan at a
    /// vertex). Sorted.
    pub fn place(&self, t: u32, p: P2) -> Vec<u32> {
        let mut out = vec![t];
        let mut i = 0;
        while i < out.len() {
            let u = out[i];
            i += 1;
            let c = self.corners(u);
            for k in 0..3 {
                let n = self.nb[u as usize][k];
                if n != NONE && !out.contains(&n) && Self::on_segment(c[k], c[(k + 1) % 3], p) {
                    out.push(n);
                }
            }
        }
        out.sort_unstable();
        out
    }
}

/// Neighbours by the model's rule.
fn neighbours(tris: &[[u32; 3]], flat: &[bool]) -> Vec<[u32; 3]> {
    // Per undirected edge: the lowest (triangle, edge) using it forward and backward.
    type Users = [Option<(u32, usize)>; 2];
    let mut edges: HashMap<(u32, u32), Users> = HashMap::new();
    for (t, tri) in tris.iter().enumerate() {
        if flat[t] {
            continue;
        }
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            let dir = usize::from(a > b);
            let e = edges.entry((a.min(b), a.max(b))).or_default();
            if e[dir].is_none() {
                e[dir] = Some((t as u32, k));
            }
        }
    }
    let mut nb = vec![[NONE; 3]; tris.len()];
    for e in edges.values() {
        if let [Some((t, k)), Some((u, j))] = *e {
            nb[t as usize][k] = u;
            nb[u as usize][j] = t;
        }
    }
    nb
}

/// Neighbours from a file's links (see [`LinkFindings`]), compared with the rule's `rule`.
fn file_neighbours(
    tris: &[[u32; 3]],
    flat: &[bool],
    file: &[[u32; 3]],
    rule: &[[u32; 3]],
) -> (Vec<[u32; 3]>, LinkFindings) {
    let mut f = LinkFindings::default();
    let mut nb = vec![[NONE; 3]; tris.len()];
    let names = |t: u32, u: u32| file.get(t as usize).is_some_and(|l| l.contains(&u));
    for (t, links) in file.iter().enumerate().take(tris.len()) {
        let t32 = t as u32;
        if flat[t] {
            continue;
        }
        for &u in links {
            if u == NONE || u <= t32 && names(u, t32) {
                // None, or a pair counted from its lower triangle.
                continue;
            }
            if u as usize >= tris.len() {
                f.dangling += 1;
                continue;
            }
            if flat[u as usize] {
                f.to_flat += 1;
                continue;
            }
            if !names(u, t32) {
                f.one_way += 1;
                continue;
            }
            let (a, b) = (tris[t], tris[u as usize]);
            let Some(k) = (0..3).find(|&k| b.contains(&a[k]) && b.contains(&a[(k + 1) % 3])) else {
                f.no_shared_edge += 1;
                continue;
            };
            // Counter-clockwise both: opposite sides when `b` runs the edge the other way.
            let (x, y) = (a[k], a[(k + 1) % 3]);
            let j = (0..3).find(|&j| b[j] == y && b[(j + 1) % 3] == x);
            let Some(j) = j else {
                f.folds += 1;
                continue;
            };
            nb[t][k] = u;
            nb[u as usize][j] = t32;
            f.joined += 1;
            if rule[t][k] != u {
                f.joined_otherwise += 1;
            }
        }
    }
    for (t, r) in rule.iter().enumerate() {
        for (k, &u) in r.iter().enumerate() {
            if u != NONE && (t as u32) < u && nb[t][k] != u {
                f.unlinked_shared += 1;
            }
        }
    }
    (nb, f)
}

/// Connected parts through neighbours.
fn parts(nb: &[[u32; 3]]) -> Vec<u32> {
    let mut part = vec![NONE; nb.len()];
    let mut next = 0;
    for seed in 0..nb.len() {
        if part[seed] != NONE {
            continue;
        }
        part[seed] = next;
        let mut stack = vec![seed as u32];
        while let Some(t) = stack.pop() {
            for &n in &nb[t as usize] {
                if n != NONE && part[n as usize] == NONE {
                    part[n as usize] = next;
                    stack.push(n);
                }
            }
        }
        next += 1;
    }
    part
}
