//! The polygon layer: the walkable triangles merged into convex polygons (in plan), the graph
//! the searches run on by default ([`super::query::Search::Polygons`]).
//!
//! # Merging
//!
//! Hertel–Mehlhorn: start from the triangles and remove shared edges, longest first, while
//! the two polygons on either side stay convex in plan. Two neighbouring polygons share one
//! chain of edges (collinear); removing it changes the angles at its two ends only, so the
//! union is convex when both ends keep a plan angle of at most 180°. The two polygons lie on
//! opposite sides of the chain's line and so cannot overlap in plan: the union is a simple
//! convex polygon, even on a surface with floors above each other. Only neighbour links are
//! removed ([`NavMesh`]'s rule: same vertex indices, opposite sides), so nothing is joined that
//! the triangles do not join, and heights stay with the triangles: a polygon is only a
//! coarser node of the same graph. A polygon holds at most [`MAX_POLYGON_VERTICES`] corners
//! and [`MAX_POLYGON_TRIANGLES`] triangles, which bounds the work of one search step.
//!
//! Triangles without plan area belong to no polygon (they are left out of the search, as in
//! [`NavMesh`]).
//!
//! # What the searches read
//!
//! Per polygon its corners counter-clockwise; per polygon edge (a *slot*, edge `i` running
//! from corner `i` to `i + 1`) the neighbour across it and that neighbour's edge index; per
//! triangle its polygon; and the bridge tree of the polygon graph ([`bridges`]).
//! A path found on the polygons comes back down to triangles by walking its straight pieces
//! through them ([`super::search`]).

mod bridges;

use super::mesh::{NO_TRIANGLE, NavMesh, cross2};
use bridges::bridge_tree;

/// The most corners a merged polygon has.
pub const MAX_POLYGON_VERTICES: usize = 24;

/// The most triangles merged into one polygon.
pub const MAX_POLYGON_TRIANGLES: usize = 32;

/// "No polygon" in the per-triangle and per-slot tables.
pub const NO_POLYGON: u32 = u32::MAX;

/// The convex polygons of a [`NavMesh`]. See the [module docs](self).
#[derive(Debug, Clone, Default)]
pub struct Polygons {
    /// `first[p]..first[p + 1]`: polygon `p`'s slots.
    pub(crate) first: Vec<u32>,
    /// Per slot: the corner it starts at (counter-clockwise in plan).
    pub(crate) verts: Vec<u32>,
    /// Per slot: the neighbour polygon across the edge, or [`NO_POLYGON`].
    pub(crate) adj: Vec<u32>,
    /// Per slot: the edge's index in the neighbour's slots.
    pub(crate) adj_edge: Vec<u8>,
    /// Per triangle: its polygon ([`NO_POLYGON`] for a triangle without plan area).
    pub(crate) tri_poly: Vec<u32>,
    /// Per polygon: its bridge-tree component; per component its parent and depth.
    pub(crate) comp: Vec<u32>,
    pub(crate) comp_parent: Vec<u32>,
    pub(crate) comp_depth: Vec<u32>,
    /// The [`NavMesh::id`] of the mesh they were built from.
    mesh: u64,
}

impl Polygons {
    /// The [`NavMesh::id`] of the mesh they were built from.
    pub fn mesh_id(&self) -> u64 {
        self.mesh
    }

    /// Number of polygons.
    pub fn count(&self) -> usize {
        self.first.len().saturating_sub(1)
    }

    /// Polygon `p`'s corners, counter-clockwise in plan.
    pub fn corners(&self, p: u32) -> &[u32] {
        &self.verts[self.slots(p)]
    }

    /// The polygon holding triangle `t` (`None` for a triangle without plan area).
    pub fn of_triangle(&self, t: u32) -> Option<u32> {
        self.tri_poly
            .get(t as usize)
            .copied()
            .filter(|&p| p != NO_POLYGON)
    }

    /// The neighbour across each edge of polygon `p` (edge `i` runs from corner `i` to
    /// `i + 1`).
    pub fn neighbours(&self, p: u32) -> impl Iterator<Item = Option<u32>> + '_ {
        self.adj[self.slots(p)]
            .iter()
            .map(|&a| (a != NO_POLYGON).then_some(a))
    }

    #[inline]
    pub(crate) fn slots(&self, p: u32) -> std::ops::Range<usize> {
        self.first[p as usize] as usize..self.first[p as usize + 1] as usize
    }

    /// Checks the layer against its mesh: every polygon convex and counter-clockwise in plan,
    /// every neighbour link mutual with the edge reversed, every triangle inside its polygon.
    /// The first problem found, or `Ok`.
    pub fn validate(&self, mesh: &NavMesh) -> Result<(), PolygonError> {
        let pos = |v: u32| {
            let p = mesh.vertices[v as usize];
            [f64::from(p.x), f64::from(p.y)]
        };
        for p in 0..self.count() as u32 {
            let r = self.slots(p);
            let n = r.len();
            if n < 3 {
                return Err(PolygonError::Corners {
                    polygon: p,
                    corners: n,
                });
            }
            for i in 0..n {
                let (a, b, c) = (
                    self.verts[r.start + i],
                    self.verts[r.start + (i + 1) % n],
                    self.verts[r.start + (i + 2) % n],
                );
                if cross2(pos(a), pos(b), pos(c)) < 0.0 {
                    return Err(PolygonError::NotConvex {
                        polygon: p,
                        corner: (i + 1) % n,
                    });
                }
                let s = r.start + i;
                let q = self.adj[s];
                if q != NO_POLYGON {
                    let rq = self.slots(q);
                    let j = rq.start + usize::from(self.adj_edge[s]);
                    let nq = rq.len();
                    if j >= rq.end
                        || self.adj[j] != p
                        || self.verts[j] != b
                        || self.verts[rq.start + (j - rq.start + 1) % nq] != a
                    {
                        return Err(PolygonError::OneWayLink {
                            polygon: p,
                            edge: i,
                            to: q,
                        });
                    }
                }
            }
        }
        for (t, &p) in self.tri_poly.iter().enumerate() {
            if p == NO_POLYGON {
                continue;
            }
            let c = self.corners(p);
            let inside = |v: u32| {
                (0..c.len()).all(|i| cross2(pos(c[i]), pos(c[(i + 1) % c.len()]), pos(v)) >= 0.0)
            };
            if !mesh.tris[t].iter().all(|&v| inside(v)) {
                return Err(PolygonError::Outside {
                    triangle: t,
                    polygon: p,
                });
            }
        }
        Ok(())
    }

    /// Bytes held (the arrays' capacities).
    pub fn memory_bytes(&self) -> usize {
        (self.first.capacity()
            + self.verts.capacity()
            + self.adj.capacity()
            + self.tri_poly.capacity()
            + self.comp.capacity()
            + self.comp_parent.capacity()
            + self.comp_depth.capacity())
            * 4
            + self.adj_edge.capacity()
    }

    /// Merges the triangles of `mesh` into convex polygons (see the [module docs](self)).
    pub fn build(mesh: &NavMesh) -> Polygons {
        let n = mesh.tris.len();
        let pos = |v: u32| {
            let p = mesh.vertices[v as usize];
            [f64::from(p.x), f64::from(p.y)]
        };
        // Half-edges: slot t * 3 + k is side k of triangle t, on the boundary of the polygon
        // holding t while `alive`; `next`/`prev` run around that polygon counter-clockwise.
        let mut next: Vec<u32> = Vec::with_capacity(3 * n);
        let mut prev: Vec<u32> = Vec::with_capacity(3 * n);
        for t in 0..n as u32 {
            next.extend([3 * t + 1, 3 * t + 2, 3 * t]);
            prev.extend([3 * t + 2, 3 * t, 3 * t + 1]);
        }
        let mut alive = vec![true; 3 * n];
        // Union-find over triangles; per root: corners and triangles of its polygon.
        let mut parent: Vec<u32> = (0..n as u32).collect();
        let mut size_v = vec![3u8; n];
        let mut size_t = vec![1u8; n];
        // Per root: a half-edge on its polygon's boundary.
        let mut rep: Vec<u32> = (0..n as u32).map(|t| 3 * t).collect();
        let flat: Vec<bool> = (0..n as u32).map(|t| mesh.is_flat(t)).collect();
        let head = |h: u32| mesh.tris[h as usize / 3][(h as usize % 3 + 1) % 3];
        let tail = |h: u32| mesh.tris[h as usize / 3][h as usize % 3];
        // The half-edge across `h` (its link), if any.
        let twin = |h: u32| {
            let l = mesh.links[h as usize / 3][h as usize % 3];
            (l != NO_TRIANGLE).then(|| (l >> 2) * 3 + (l & 3))
        };
        // Shared edges, longest first (each once: from the lower slot), by length class: the
        // exponent and top bits of the squared length, classes about 1 % of the length apart;
        // within a class in triangle order, which keeps the merge's memory accesses near each
        // other (a counting sort, in one pass each way).
        const CLASS_SHIFT: u32 = 52 - 5;
        let class = |h: u32| {
            let (a, b) = (pos(tail(h)), pos(head(h)));
            let len2 = (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2);
            (len2.to_bits() >> CLASS_SHIFT) as usize
        };
        let shared = |h: u32| !flat[h as usize / 3] && twin(h).is_some_and(|o| o > h);
        let mut count = vec![0u32; 1 << (64 - CLASS_SHIFT - 1)];
        for h in 0..3 * n as u32 {
            if shared(h) {
                count[class(h)] += 1;
            }
        }
        // Start of each class, longest class first.
        let mut at = 0u32;
        for c in count.iter_mut().rev() {
            let k = *c;
            *c = at;
            at += k;
        }
        let mut edges = vec![0u32; at as usize];
        for h in 0..3 * n as u32 {
            if shared(h) {
                let c = &mut count[class(h)];
                edges[*c as usize] = h;
                *c += 1;
            }
        }
        drop(count);
        for &h in &edges {
            if !alive[h as usize] {
                continue;
            }
            let Some(o) = twin(h) else { continue };
            let (tp, tq) = (h / 3, o / 3);
            let (p, q) = (find_root(&mut parent, tp), find_root(&mut parent, tq));
            if p == q {
                continue;
            }
            // The shared chain: h_first..h_last in P (o_last..o_first in Q, reversed).
            let (mut h_first, mut o_first) = (h, o);
            let (mut h_last, mut o_last) = (h, o);
            let mut chain = 1usize;
            let (np, nq) = (
                usize::from(size_v[p as usize]),
                usize::from(size_v[q as usize]),
            );
            while chain + 1 < np.min(nq) {
                let (hn, op) = (next[h_last as usize], prev[o_last as usize]);
                if twin(hn) == Some(op) {
                    h_last = hn;
                    o_last = op;
                    chain += 1;
                    continue;
                }
                let (hp, on) = (prev[h_first as usize], next[o_first as usize]);
                if twin(hp) == Some(on) {
                    h_first = hp;
                    o_first = on;
                    chain += 1;
                    continue;
                }
                break;
            }
            let merged_v = np + nq - 2 * chain;
            let merged_t = usize::from(size_t[p as usize]) + usize::from(size_t[q as usize]);
            if !(3..=MAX_POLYGON_VERTICES).contains(&merged_v) || merged_t > MAX_POLYGON_TRIANGLES {
                continue;
            }
            // Angles at the chain's ends: at tail(h_first), P arrives by prev[h_first] and
            // the union leaves by Q's next[o_first]; at head(h_last), Q arrives by
            // prev[o_last] and the union leaves by P's next[h_last].
            let (pf, qn) = (prev[h_first as usize], next[o_first as usize]);
            let (qp, pn) = (prev[o_last as usize], next[h_last as usize]);
            let convex = |a: u32, b: u32, c: u32| {
                let (a, b, c) = (pos(a), pos(b), pos(c));
                let turn = cross2(a, b, c);
                turn > 0.0
                    || turn == 0.0
                        && (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1]) > 0.0
            };
            if !convex(tail(pf), tail(h_first), head(qn))
                || !convex(tail(qp), head(h_last), head(pn))
            {
                continue;
            }
            // Splice the chain out of both cycles.
            let mut x = h_first;
            loop {
                alive[x as usize] = false;
                if x == h_last {
                    break;
                }
                x = next[x as usize];
            }
            let mut x = o_last;
            loop {
                alive[x as usize] = false;
                if x == o_first {
                    break;
                }
                x = next[x as usize];
            }
            next[pf as usize] = qn;
            prev[qn as usize] = pf;
            next[qp as usize] = pn;
            prev[pn as usize] = qp;
            let (big, small) = if size_t[p as usize] >= size_t[q as usize] {
                (p, q)
            } else {
                (q, p)
            };
            parent[small as usize] = big;
            size_v[big as usize] = merged_v as u8;
            size_t[big as usize] = merged_t as u8;
            rep[big as usize] = pf;
        }
        // Number the polygons in order of their lowest triangle; list each one's slots from
        // the half-edge of its lowest triangle that is still on its boundary.
        let mut tri_poly = vec![NO_POLYGON; n];
        let mut root_poly = vec![NO_POLYGON; n];
        let mut first = vec![0u32];
        let mut verts = Vec::new();
        let mut half = Vec::new();
        for t in 0..n as u32 {
            if flat[t as usize] {
                continue;
            }
            let r = find_root(&mut parent, t);
            if root_poly[r as usize] == NO_POLYGON {
                let id = (first.len() - 1) as u32;
                root_poly[r as usize] = id;
                let start = rep[r as usize];
                let mut h = start;
                loop {
                    verts.push(tail(h));
                    half.push(h);
                    h = next[h as usize];
                    if h == start {
                        break;
                    }
                }
                first.push(verts.len() as u32);
            }
            tri_poly[t as usize] = root_poly[r as usize];
        }
        // Grown by pushing: give back the slack (up to half of each).
        first.shrink_to_fit();
        verts.shrink_to_fit();
        drop(root_poly);
        drop(next);
        drop(prev);
        drop(alive);
        drop(rep);
        let np = first.len() - 1;
        // Slot of each boundary half-edge, to find the edge index across.
        let mut slot_of = vec![u32::MAX; 3 * n];
        for (s, &h) in half.iter().enumerate() {
            slot_of[h as usize] = s as u32;
        }
        let mut adj = vec![NO_POLYGON; half.len()];
        let mut adj_edge = vec![0u8; half.len()];
        for p in 0..np {
            for s in first[p] as usize..first[p + 1] as usize {
                let h = half[s];
                if let Some(o) = twin(h) {
                    let os = slot_of[o as usize];
                    let q = tri_poly[o as usize / 3];
                    adj[s] = q;
                    adj_edge[s] = (os - first[q as usize]) as u8;
                }
            }
        }
        drop(slot_of);
        drop(half);
        let (comp, comp_parent, comp_depth) = bridge_tree(
            np,
            |p| first[p as usize] as usize..first[p as usize + 1] as usize,
            |s| {
                let q = adj[s];
                (q != NO_POLYGON).then(|| (q, first[q as usize] as usize + adj_edge[s] as usize))
            },
        );
        Polygons {
            first,
            verts,
            adj,
            adj_edge,
            tri_poly,
            comp,
            comp_parent,
            comp_depth,
            mesh: mesh.id(),
        }
    }
}

fn find_root(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let p = parent[x as usize];
        parent[x as usize] = parent[p as usize];
        x = p;
    }
    x
}

/// What [`Polygons::validate`] found wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolygonError {
    /// A polygon of fewer than 3 corners.
    #[error("polygon {polygon}: {corners} corners")]
    Corners {
        /// The polygon.
        polygon: u32,
        /// Its corners.
        corners: usize,
    },
    /// A reflex (or clockwise) corner.
    #[error("polygon {polygon}: not convex at corner {corner}")]
    NotConvex {
        /// The polygon.
        polygon: u32,
        /// The corner.
        corner: usize,
    },
    /// A neighbour link the neighbour does not return along the reversed edge.
    #[error("polygon {polygon} edge {edge}: link to {to} not mutual")]
    OneWayLink {
        /// The polygon.
        polygon: u32,
        /// Its edge.
        edge: usize,
        /// The neighbour.
        to: u32,
    },
    /// A triangle with a corner outside its polygon.
    #[error("triangle {triangle}: a corner outside polygon {polygon}")]
    Outside {
        /// The triangle.
        triangle: usize,
        /// Its polygon.
        polygon: u32,
    },
}
