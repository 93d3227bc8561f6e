//! Geometric defects of a walkmesh, found from vertices, faces and walkability alone.
//!
//! Each function returns plain records (faces, edges, positions); turning them into reported
//! findings with severities is the caller's business.

use std::collections::HashMap;

use crate::derive::{EdgeStarts, edge_vertices, face_plane};
use crate::mesh::Mesh;
use crate::query::{FaceFilter, Locator, face_height_at};

/// Tolerances of the deep checks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerances {
    /// Faces with less area (m²) are degenerate.
    pub min_area: f32,
    /// Distance under which a vertex lies on an edge (T-junction) or two boundary edges
    /// coincide (crack), in metres.
    pub snap: f32,
    /// Height difference under which overlapping walkable faces are at "the same" height.
    pub overlap_height: f32,
    /// Walkable islands with less area (m²) are too small to stand on.
    pub min_island_area: f32,
}

impl Default for Tolerances {
    fn default() -> Self {
        Tolerances {
            min_area: 1e-6,
            snap: 1e-3,
            overlap_height: 0.05,
            min_island_area: 0.5,
        }
    }
}

/// Area of face `f`.
pub fn face_area(mesh: &Mesh, f: usize) -> f32 {
    let t = mesh.tri(f).map(|v| v.map(f64::from));
    let u = [0, 1, 2].map(|k| t[1][k] - t[0][k]);
    let v = [0, 1, 2].map(|k| t[2][k] - t[0][k]);
    let c = [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ];
    ((c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt() * 0.5) as f32
}

/// Centroid of face `f`.
pub fn centroid(mesh: &Mesh, f: usize) -> [f32; 3] {
    let t = mesh.tri(f);
    [0, 1, 2].map(|k| (t[0][k] + t[1][k] + t[2][k]) / 3.0)
}

/// Midpoint of edge `code` (`face * 3 + k`).
pub fn edge_midpoint(mesh: &Mesh, code: u32) -> [f32; 3] {
    let (a, b) = edge_vertices(mesh, code);
    let (a, b) = (mesh.vertices[a as usize], mesh.vertices[b as usize]);
    [0, 1, 2].map(|k| (a[k] + b[k]) * 0.5)
}

/// Faces with (nearly) zero area, or with a repeated vertex index.
pub fn degenerate_faces(mesh: &Mesh, tol: &Tolerances) -> Vec<u32> {
    (0..mesh.faces.len())
        .filter(|&f| {
            let v = mesh.faces[f];
            v[0] == v[1] || v[1] == v[2] || v[0] == v[2] || face_area(mesh, f) < tol.min_area
        })
        .map(|f| f as u32)
        .collect()
}

/// Pairs `(first, duplicate)` of faces with the same three corner positions (any order).
pub fn duplicate_faces(mesh: &Mesh) -> Vec<(u32, u32)> {
    let mut seen: HashMap<[[u32; 3]; 3], u32> = HashMap::new();
    let mut out = Vec::new();
    for f in 0..mesh.faces.len() {
        let mut key = mesh.tri(f).map(|v| v.map(f32::to_bits));
        key.sort_unstable();
        match seen.get(&key) {
            Some(&g) => out.push((g, f as u32)),
            None => {
                seen.insert(key, f as u32);
            }
        }
    }
    out
}

/// Edges (by vertex-index pair) shared by three or more walkable faces: the face edges
/// `face * 3 + k` of each.
pub fn non_manifold_edges(mesh: &Mesh) -> Vec<Vec<u32>> {
    let mut by_pair: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    for (fi, f) in mesh.faces.iter().enumerate() {
        if !mesh.walkable[fi] {
            continue;
        }
        for k in 0..3 {
            let (a, b) = (f[k], f[(k + 1) % 3]);
            by_pair
                .entry((a.min(b), a.max(b)))
                .or_default()
                .push((fi * 3 + k) as u32);
        }
    }
    let mut out: Vec<Vec<u32>> = by_pair.into_values().filter(|v| v.len() >= 3).collect();
    out.sort();
    out
}

/// Walkable faces whose normal points down (z < 0).
pub fn downward_walkable(mesh: &Mesh) -> Vec<u32> {
    (0..mesh.faces.len())
        .filter(|&f| mesh.walkable[f] && face_plane(mesh.tri(f)).0[2] < 0.0)
        .map(|f| f as u32)
        .collect()
}

/// Boundary edges of the walkable surface (walkable face edges without a walkable neighbour
/// sharing both vertex indices), walkable faces in any position.
pub fn boundary_edges(mesh: &Mesh) -> Vec<u32> {
    let mut count: HashMap<(u32, u32), u32> = HashMap::new();
    for (fi, f) in mesh.faces.iter().enumerate() {
        if mesh.walkable[fi] {
            for k in 0..3 {
                let (a, b) = (f[k], f[(k + 1) % 3]);
                *count.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
    }
    let mut out = Vec::new();
    for (fi, f) in mesh.faces.iter().enumerate() {
        if mesh.walkable[fi] {
            for k in 0..3 {
                let (a, b) = (f[k], f[(k + 1) % 3]);
                if count[&(a.min(b), a.max(b))] == 1 {
                    out.push((fi * 3 + k) as u32);
                }
            }
        }
    }
    out
}

/// Distance from `p` to segment `a-b` and the segment parameter of the closest point.
fn point_segment(p: [f32; 3], a: [f32; 3], b: [f32; 3]) -> (f64, f64) {
    let p = p.map(f64::from);
    let a = a.map(f64::from);
    let b = b.map(f64::from);
    let ab = [0, 1, 2].map(|k| b[k] - a[k]);
    let ap = [0, 1, 2].map(|k| p[k] - a[k]);
    let l2 = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2];
    let t = if l2 > 0.0 {
        ((ap[0] * ab[0] + ap[1] * ab[1] + ap[2] * ab[2]) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let d = [0, 1, 2].map(|k| ap[k] - ab[k] * t);
    ((d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt(), t)
}

/// Vertices sorted by x, for range scans.
struct ByX {
    order: Vec<u32>,
    xs: Vec<f32>,
}

impl ByX {
    fn new(mesh: &Mesh, used: &[bool]) -> Self {
        let mut order: Vec<u32> = (0..mesh.vertices.len() as u32)
            .filter(|&v| used[v as usize])
            .collect();
        order.sort_by(|&a, &b| {
            mesh.vertices[a as usize][0].total_cmp(&mesh.vertices[b as usize][0])
        });
        let xs = order
            .iter()
            .map(|&v| mesh.vertices[v as usize][0])
            .collect();
        ByX { order, xs }
    }

    fn in_range(&self, lo: f32, hi: f32) -> &[u32] {
        let a = self.xs.partition_point(|&x| x < lo);
        let b = self.xs.partition_point(|&x| x <= hi);
        &self.order[a..b.max(a)]
    }
}

fn walkable_vertices(mesh: &Mesh) -> Vec<bool> {
    let mut used = vec![false; mesh.vertices.len()];
    for (fi, f) in mesh.faces.iter().enumerate() {
        if mesh.walkable[fi] {
            for &v in f {
                used[v as usize] = true;
            }
        }
    }
    used
}

/// T-junctions: `(edge, vertex)` where a vertex of the walkable surface lies on the inside of
/// a boundary edge (within `snap`) without being one of its ends — the faces on the two sides
/// At most this many pairs are collected by [`t_junctions`], [`cracks`] and [`overlaps`], so a
/// hostile mesh (thousands of stacked faces) cannot make a check use memory or time
/// quadratic in its size.
pub const MAX_PAIRS: usize = 10_000;

/// do not share the edge, so the surface is not connected there.
pub fn t_junctions(mesh: &Mesh, tol: &Tolerances) -> Vec<(u32, u32)> {
    let used = walkable_vertices(mesh);
    let by_x = ByX::new(mesh, &used);
    let snap = f64::from(tol.snap);
    let mut out = Vec::new();
    for code in boundary_edges(mesh) {
        let (a, b) = edge_vertices(mesh, code);
        let (pa, pb) = (mesh.vertices[a as usize], mesh.vertices[b as usize]);
        let lo = pa[0].min(pb[0]) - tol.snap;
        let hi = pa[0].max(pb[0]) + tol.snap;
        for &v in by_x.in_range(lo, hi) {
            if v == a || v == b {
                continue;
            }
            let p = mesh.vertices[v as usize];
            if p == pa || p == pb {
                continue;
            }
            let (d, t) = point_segment(p, pa, pb);
            if d <= snap && t > 0.0 && t < 1.0 {
                let len = point_segment(pa, pb, pb).0;
                // Strictly inside: not within snap of either end.
                if t * len > snap && (1.0 - t) * len > snap {
                    out.push((code, v));
                    if out.len() >= MAX_PAIRS {
                        return out;
                    }
                }
            }
        }
    }
    out
}

/// Cracks: pairs of boundary edges `(e1, e2)` whose end points coincide within `snap`
/// (reversed or not) but are different vertices, so the two sides are not joined.
pub fn cracks(mesh: &Mesh, tol: &Tolerances) -> Vec<(u32, u32)> {
    let boundary = boundary_edges(mesh);
    let snap = tol.snap;
    let close = |p: [f32; 3], q: [f32; 3]| (0..3).all(|k| (p[k] - q[k]).abs() <= snap);
    // Sort boundary edges by the min x of their ends for a sweep.
    let mut items: Vec<(f32, u32)> = boundary
        .iter()
        .map(|&c| {
            let (a, b) = edge_vertices(mesh, c);
            (
                mesh.vertices[a as usize][0].min(mesh.vertices[b as usize][0]),
                c,
            )
        })
        .collect();
    items.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut out = Vec::new();
    for i in 0..items.len() {
        let (x, c1) = items[i];
        let (a1, b1) = edge_vertices(mesh, c1);
        let (p1, q1) = (mesh.vertices[a1 as usize], mesh.vertices[b1 as usize]);
        for &(x2, c2) in &items[i + 1..] {
            if x2 > x + snap {
                break;
            }
            let (a2, b2) = edge_vertices(mesh, c2);
            let (p2, q2) = (mesh.vertices[a2 as usize], mesh.vertices[b2 as usize]);
            // Boundary edges never share both vertex indices, so a match is two sides of a
            // seam that were not welded.
            let same = (close(p1, q2) && close(q1, p2)) || (close(p1, p2) && close(q1, q2));
            if same && p1 != q1 {
                out.push((c1.min(c2), c1.max(c2)));
                if out.len() >= MAX_PAIRS {
                    break;
                }
            }
        }
        if out.len() >= MAX_PAIRS {
            break;
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Overlapping walkable faces at nearly the same height: `(a, b, point)` where the centroid
/// of walkable face `a` lies strictly inside walkable face `b` seen from above and the two
/// heights there differ by less than `overlap_height`.
pub fn overlaps(mesh: &Mesh, locator: &Locator<'_>, tol: &Tolerances) -> Vec<(u32, u32, [f32; 3])> {
    // Repeated copies of one triangle are duplicate faces (reported as such); only the first
    // copy takes part here, so a stack of copies costs linear, not quadratic, time.
    let mut first_copy = vec![true; mesh.faces.len()];
    let mut seen = std::collections::HashSet::with_capacity(mesh.faces.len());
    for (f, first) in mesh.faces.iter().zip(first_copy.iter_mut()) {
        let mut k = *f;
        k.sort_unstable();
        *first = seen.insert(k);
    }
    let mut out = Vec::new();
    for a in 0..mesh.faces.len() {
        if !mesh.walkable[a] {
            continue;
        }
        let c = centroid(mesh, a);
        let Some(za) = face_height_at(mesh, a, c[0], c[1]) else {
            continue;
        };
        if !first_copy[a] {
            continue;
        }
        for (b, zb) in locator.faces_at(c[0], c[1], FaceFilter::Walkable) {
            if b as usize == a || !first_copy[b as usize] || (zb - za).abs() >= tol.overlap_height {
                continue;
            }
            if out.len() >= MAX_PAIRS {
                return out;
            }
            // Skip faces sharing a vertex position with `a` whose overlap is only a sliver
            // touching the centroid; require the centroid to be clearly inside `b`.
            if strictly_inside(mesh, b as usize, c, tol.snap) {
                out.push((a as u32, b, [c[0], c[1], za]));
            }
        }
    }
    out
}

/// Whether `(x, y)` of `p` lies inside face `f` seen from above, at least `margin` from its
/// edges.
fn strictly_inside(mesh: &Mesh, f: usize, p: [f32; 3], margin: f32) -> bool {
    let t = mesh.tri(f);
    let m = f64::from(margin);
    let mut sign = 0.0;
    for k in 0..3 {
        let a = t[k].map(f64::from);
        let b = t[(k + 1) % 3].map(f64::from);
        let (ex, ey) = (b[0] - a[0], b[1] - a[1]);
        let len = (ex * ex + ey * ey).sqrt();
        if len == 0.0 {
            return false;
        }
        let cross = (ex * (f64::from(p[1]) - a[1]) - ey * (f64::from(p[0]) - a[0])) / len;
        if sign == 0.0 {
            sign = cross.signum();
        }
        if cross * sign <= m {
            return false;
        }
    }
    true
}

/// Connected pieces of the walkable surface (through shared vertex-index edges), each as its
/// faces, with their total area.
pub fn walkable_islands(mesh: &Mesh) -> Vec<(Vec<u32>, f32)> {
    let n = mesh.faces.len();
    let starts = EdgeStarts::new(mesh, n);
    let mut comp = vec![u32::MAX; n];
    let mut out = Vec::new();
    for s in 0..n {
        if !mesh.walkable[s] || comp[s] != u32::MAX {
            continue;
        }
        let id = out.len() as u32;
        let mut faces = vec![s as u32];
        comp[s] = id;
        let mut i = 0;
        while i < faces.len() {
            let f = faces[i] as usize;
            i += 1;
            let fv = mesh.faces[f];
            for k in 0..3 {
                let (a, b) = (fv[k], fv[(k + 1) % 3]);
                for &c in starts.at(b).iter().chain(starts.at(a)) {
                    let g = (c / 3) as usize;
                    let (ca, cb) = edge_vertices(mesh, c);
                    if mesh.walkable[g]
                        && comp[g] == u32::MAX
                        && ((ca, cb) == (b, a) || (ca, cb) == (a, b))
                    {
                        comp[g] = id;
                        faces.push(g as u32);
                    }
                }
            }
        }
        let area = faces.iter().map(|&f| face_area(mesh, f as usize)).sum();
        out.push((faces, area));
    }
    out
}

/// Stored adjacency entries that disagree with the geometry: `(face, edge, stored, expected)`
/// for the first `adjacency.len()` faces.
pub fn adjacency_mismatches(mesh: &Mesh, adjacency: &[[i32; 3]]) -> Vec<(u32, u32, i32, i32)> {
    let w = adjacency.len().min(mesh.faces.len());
    let probe = Mesh {
        vertices: mesh.vertices.clone(),
        faces: mesh.faces[..w].to_vec(),
        walkable: vec![true; w],
    };
    let expected = crate::derive::adjacency(&probe, w);
    let mut out = Vec::new();
    for f in 0..w {
        for k in 0..3 {
            let (s, e) = (adjacency[f][k], expected[f][k]);
            if s == e {
                continue;
            }
            // Any walkable edge with the same two vertices is acceptable (non-manifold edges).
            let ok = s >= 0 && (s as usize) < w * 3 && {
                let (a, b) = edge_vertices(mesh, (f * 3 + k) as u32);
                let (c, d) = edge_vertices(mesh, s as u32);
                (s as usize) != f * 3 + k && ((a, b) == (d, c) || (a, b) == (c, d))
            };
            if !ok {
                out.push((f as u32, k as u32, s, e));
            }
        }
    }
    out
}
