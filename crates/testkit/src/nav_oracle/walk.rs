//! The oracle's straight walk: whether the segment from one place to a point stays on the
//! ground, followed through the triangles with exact orientation tests only.
//!
//! The walk is at a triangle (the segment runs through it) or at a vertex (the segment
//! passes exactly through it, inside one fan). From a triangle it leaves across the edge whose
//! start lies right of the segment and end left of it (a wall there ends the walk), or through
//! the vertex on the segment farthest along it. At a vertex it goes on in every triangle of the
//! same fan whose corner there holds the rest of the segment: never into another fan, so a
//! segment does not cross a pinch. Where several triangles qualify (a fan that overlaps itself
//! in plan), each is followed.

use super::exact::orient;
use super::ground::{Ground, NONE, P2};
use std::cmp::Ordering;
use std::collections::HashSet;

/// Where a walk stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum At {
    /// Inside triangle `t` (or on its edge), the segment running through it.
    Tri(u32),
    /// Exactly at vertex `v`, coming from triangle `t` of one of its fans.
    Vertex(u32, u32),
}

/// Whether `a` comes before `b` along direction `d` (both on one line with that direction).
fn before(a: P2, b: P2, d: P2) -> bool {
    if d[0] != 0.0 {
        (b[0] - a[0]) * d[0].signum() > 0.0
    } else {
        (b[1] - a[1]) * d[1].signum() > 0.0
    }
}

impl Ground {
    /// The walk's first states at `p` on triangle `t`: its place, each triangle as a vertex
    /// state where `p` is one of its corners.
    pub fn starts(&self, t: u32, p: P2) -> Vec<At> {
        self.starts_on(&self.place(t, p), p)
    }

    /// The walk's first states at `p` on each of the triangles `on` (that hold it).
    pub fn starts_on(&self, on: &[u32], p: P2) -> Vec<At> {
        on.iter()
            .copied()
            .map(|u| {
                let tri = self.tris[u as usize];
                match tri.iter().find(|&&v| self.pos[v as usize] == p) {
                    Some(&v) => At::Vertex(v, u),
                    None => At::Tri(u),
                }
            })
            .collect()
    }

    /// Walks from `p` (the walk's states `from` there) straight to `q`: the triangles that hold
    /// `q` where the walk arrives (empty when every way leaves the ground). `p` ≠ `q`.
    pub fn walk(&self, from: &[At], p: P2, q: P2) -> Vec<u32> {
        let d = [q[0] - p[0], q[1] - p[1]];
        let mut arrived = Vec::new();
        let mut seen: HashSet<(At, Option<(u64, u64)>)> = HashSet::new();
        // (state, the walk's position when it is a known point: the start or a vertex)
        let mut stack: Vec<(At, Option<P2>)> = from.iter().map(|&a| (a, Some(p))).collect();
        while let Some((at, cur)) = stack.pop() {
            if !seen.insert((at, cur.map(|c| (c[0].to_bits(), c[1].to_bits())))) {
                continue;
            }
            match at {
                At::Vertex(v, t) => {
                    let w = self.pos[v as usize];
                    if w == q {
                        arrived.push(t);
                        continue;
                    }
                    let Some(f) = self.fan(v, t) else { continue };
                    for &u in &self.fans[f as usize].tris {
                        let tri = self.tris[u as usize];
                        let k = tri.iter().position(|&x| x == v).unwrap_or(0);
                        let (a, b) = (
                            self.pos[tri[(k + 1) % 3] as usize],
                            self.pos[tri[(k + 2) % 3] as usize],
                        );
                        if orient(w, a, q) != Ordering::Less && orient(w, b, q) != Ordering::Greater
                        {
                            stack.push((At::Tri(u), Some(w)));
                        }
                    }
                }
                At::Tri(t) => {
                    if self.holds(t, q) {
                        arrived.push(t);
                        continue;
                    }
                    let tri = self.tris[t as usize];
                    let c = self.corners(t);
                    let o = c.map(|x| orient(p, q, x));
                    if let Some(k) = (0..3)
                        .find(|&k| o[k] == Ordering::Less && o[(k + 1) % 3] == Ordering::Greater)
                    {
                        let n = self.nb[t as usize][k];
                        if n != NONE {
                            stack.push((At::Tri(n), None));
                        }
                        continue;
                    }
                    // Through a corner on the segment's line: the farthest one ahead.
                    let mut best: Option<usize> = None;
                    for k in 0..3 {
                        if o[k] != Ordering::Equal || cur.is_some_and(|x| !before(x, c[k], d)) {
                            continue;
                        }
                        if best.is_none_or(|b| before(c[b], c[k], d)) {
                            best = Some(k);
                        }
                    }
                    if let Some(k) = best {
                        stack.push((At::Vertex(tri[k], t), Some(c[k])));
                    }
                }
            }
        }
        arrived.sort_unstable();
        arrived.dedup();
        arrived
    }
}
