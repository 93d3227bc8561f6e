//! Rebuilding the derived tables of a walkmesh from its vertices, faces and walkability.
//!
//! The rules reproduce the files written by the tools (see `docs/formats/bwm.md`):
//! - walkable faces first, each group in its original order ([`walkable_first_order`]);
//! - normal `normalize((v2 - v1) x (v3 - v1))`, distance `-(n . v1)` ([`face_plane`]);
//! - adjacency between walkable faces through shared vertex indices ([`adjacency`]);
//! - boundary edges chained into perimeter loops ([`perimeters`]);
//! - the AABB tree of [`crate::aabb::build_with`].

use crate::aabb;
use crate::mesh::{BoundaryEdge, Derived, Mesh, MeshError, NONE};

/// The order that puts walkable faces first: `order[new] = old`, each group keeping its
/// original order.
pub fn walkable_first_order(walkable: &[bool]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..walkable.len() as u32)
        .filter(|&i| walkable[i as usize])
        .collect();
    order.extend((0..walkable.len() as u32).filter(|&i| !walkable[i as usize]));
    order
}

/// A mesh with its faces (and per-face-edge transitions) permuted: face `new` of the result is
/// face `order[new]` of the input. `order` must be a permutation of the face indices.
pub fn reorder(mesh: &Mesh, transitions: &[[i32; 3]], order: &[u32]) -> (Mesh, Vec<[i32; 3]>) {
    let faces = order.iter().map(|&o| mesh.faces[o as usize]).collect();
    let walkable = order.iter().map(|&o| mesh.walkable[o as usize]).collect();
    let trans = order
        .iter()
        .map(|&o| transitions.get(o as usize).copied().unwrap_or([NONE; 3]))
        .collect();
    (
        Mesh {
            vertices: mesh.vertices.clone(),
            faces,
            walkable,
        },
        trans,
    )
}

/// Unit normal and plane distance of a triangle, as the tools compute them: the cross product
/// `(v2 - v1) x (v3 - v1)` in double precision, normalised, rounded to `f32`; the distance
/// `-((n.x * v1.x + n.y * v1.y) + n.z * v1.z)` in single precision from the rounded normal.
/// A degenerate triangle gets a zero normal and distance `-0.0` (as stored by the tools).
pub fn face_plane(t: [[f32; 3]; 3]) -> ([f32; 3], f32) {
    let p = t.map(|v| v.map(f64::from));
    let u = [p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]];
    let v = [p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]];
    let n = [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len == 0.0 || !len.is_finite() {
        return ([0.0; 3], -0.0);
    }
    let n = [n[0] / len, n[1] / len, n[2] / len].map(|c| c as f32);
    let a = t[0];
    let d = -((n[0] * a[0] + n[1] * a[1]) + n[2] * a[2]);
    (n, d)
}

/// Per-vertex lists of the face edges that start at each vertex (compressed rows).
pub(crate) struct EdgeStarts {
    start: Vec<u32>,
    codes: Vec<u32>,
}

impl EdgeStarts {
    /// Edges `f * 3 + k` of faces `0..faces`, grouped by their start vertex, ascending codes.
    pub(crate) fn new(mesh: &Mesh, faces: usize) -> Self {
        let nv = mesh.vertices.len();
        let mut start = vec![0u32; nv + 1];
        for f in &mesh.faces[..faces] {
            for &v in f {
                start[v as usize + 1] += 1;
            }
        }
        for i in 0..nv {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut codes = vec![0u32; faces * 3];
        for (fi, f) in mesh.faces[..faces].iter().enumerate() {
            for (k, &v) in f.iter().enumerate() {
                let slot = &mut fill[v as usize];
                codes[*slot as usize] = (fi * 3 + k) as u32;
                *slot += 1;
            }
        }
        EdgeStarts { start, codes }
    }

    /// The edges that start at vertex `v`.
    #[inline]
    pub(crate) fn at(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.codes[self.start[v] as usize..self.start[v + 1] as usize]
    }
}

/// Start and end vertex of edge `code`.
#[inline]
pub fn edge_vertices(mesh: &Mesh, code: u32) -> (u32, u32) {
    let f = mesh.faces[(code / 3) as usize];
    let k = (code % 3) as usize;
    (f[k], f[(k + 1) % 3])
}

/// Adjacency of the first `walkable` faces among themselves: for each edge the walkable face
/// edge with the same two vertex indices (either direction) — the highest such code when
/// several share it (a non-manifold edge; the tools keep the last) — else [`NONE`].
pub fn adjacency(mesh: &Mesh, walkable: usize) -> Vec<[i32; 3]> {
    // The edges of the walkable faces listed under the lower of their two vertices, each with
    // the other vertex: the edges sharing an edge's two vertices (either direction) are in
    // one list.
    let faces = &mesh.faces[..walkable];
    let nv = mesh.vertices.len();
    let mut start = vec![0u32; nv + 1];
    for f in faces {
        for k in 0..3 {
            start[f[k].min(f[(k + 1) % 3]) as usize + 1] += 1;
        }
    }
    for i in 0..nv {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    // Per entry: the other vertex (high half) and the edge code (low half).
    let mut entries = vec![0u64; walkable * 3];
    for (fi, f) in faces.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (f[k], f[(k + 1) % 3]);
            let slot = &mut fill[a.min(b) as usize];
            entries[*slot as usize] = (u64::from(a.max(b)) << 32) | (fi * 3 + k) as u64;
            *slot += 1;
        }
    }
    let mut out = vec![[NONE; 3]; walkable];
    for (fi, (f, o)) in faces.iter().zip(out.iter_mut()).enumerate() {
        for k in 0..3 {
            let (a, b) = (f[k], f[(k + 1) % 3]);
            let (lo, hi) = (a.min(b), a.max(b));
            let me = (fi * 3 + k) as u32;
            let list = &entries[start[lo as usize] as usize..start[lo as usize + 1] as usize];
            // The highest other code (codes are below 2^31: -1 stands for none).
            let mut best = NONE;
            for &e in list {
                let c = e as u32;
                if (e >> 32) as u32 == hi && c != me {
                    best = best.max(c as i32);
                }
            }
            o[k] = best;
        }
    }
    out
}

/// Chains the boundary edges (walkable face edges without a neighbour) into perimeter loops.
///
/// Loops start at the lowest unused boundary edge. The next edge after `e` is found by turning
/// around `e`'s end vertex through the walkable neighbours (the edge of the same face that
/// starts there, crossing to the adjacent face while that edge is interior), so loops that
/// touch at a vertex stay apart. A loop closes when it comes back to its first edge. Where the
/// turn fails (non-manifold or inconsistently wound faces), the lowest unused boundary edge
/// starting at the vertex continues the loop.
/// Returns the edges (with the transitions of `transitions`) and the 1-based loop ends.
pub fn perimeters(
    mesh: &Mesh,
    adjacency: &[[i32; 3]],
    transitions: &[[i32; 3]],
) -> (Vec<BoundaryEdge>, Vec<u32>) {
    let walkable = adjacency.len();
    let is_boundary = |c: usize| adjacency[c / 3][c % 3] == NONE;
    let neighbour = |c: usize| -> Option<usize> {
        let a = adjacency[c / 3][c % 3];
        (a >= 0 && (a as usize) < walkable * 3).then_some(a as usize)
    };
    let trans = |c: usize| -> i32 { transitions.get(c / 3).map_or(NONE, |t| t[c % 3]) };
    let next_in_face = |c: usize| c - c % 3 + (c % 3 + 1) % 3;
    let mut used = vec![false; walkable * 3];
    let mut edges = Vec::new();
    let mut ends = Vec::new();
    // Fallback for broken fans (inconsistent winding, non-manifold): boundary edges by start
    // vertex, lowest unused first.
    let mut fallback: Option<EdgeStarts> = None;
    for first in 0..walkable * 3 {
        if !is_boundary(first) || used[first] {
            continue;
        }
        let mut c = first;
        while !used[c] {
            used[c] = true;
            edges.push(BoundaryEdge {
                edge: c as u32,
                transition: trans(c),
            });
            // Turn around the end vertex.
            let mut e = next_in_face(c);
            let mut steps = 0;
            let mut ok = true;
            while !is_boundary(e) {
                match neighbour(e) {
                    Some(a) if steps <= walkable * 3 => e = next_in_face(a),
                    _ => {
                        ok = false;
                        break;
                    }
                }
                steps += 1;
            }
            let end = edge_vertices(mesh, c as u32).1;
            if ok && edge_vertices(mesh, e as u32).0 == end && (!used[e] || e == first) {
                c = e;
                continue;
            }
            let starts = fallback.get_or_insert_with(|| EdgeStarts::new(mesh, walkable));
            match starts
                .at(end)
                .iter()
                .map(|&x| x as usize)
                .find(|&x| is_boundary(x) && !used[x])
            {
                Some(x) => c = x,
                None => break,
            }
        }
        ends.push(edges.len() as u32);
    }
    (edges, ends)
}

/// Rebuilds every derived table of a mesh whose walkable faces come first.
/// `transitions` has one entry per face (missing entries count as none).
pub fn derive(
    mesh: &Mesh,
    transitions: &[[i32; 3]],
    style: aabb::Style,
) -> Result<Derived, MeshError> {
    mesh.validate()?;
    Ok(derive_valid(
        mesh,
        transitions,
        style,
        &mut aabb::TreeBuilder::new(),
    ))
}

/// Meshes of at least this many faces get their AABB tree built on a thread of its own while
/// the other tables are derived.
const PARALLEL_TREE: usize = 1 << 16;

/// [`derive()`] of a mesh that passed [`Mesh::validate`], the tree built by `builder`.
fn derive_valid(
    mesh: &Mesh,
    transitions: &[[i32; 3]],
    style: aabb::Style,
    builder: &mut aabb::TreeBuilder,
) -> Derived {
    let rest = || {
        let walkable = mesh.walkable.iter().take_while(|w| **w).count();
        let mut normals = Vec::with_capacity(mesh.faces.len());
        let mut distances = Vec::with_capacity(mesh.faces.len());
        for i in 0..mesh.faces.len() {
            let (n, d) = face_plane(mesh.tri(i));
            normals.push(n);
            distances.push(d);
        }
        let adjacency = adjacency(mesh, walkable);
        let (edges, perimeters) = perimeters(mesh, &adjacency, transitions);
        (normals, distances, adjacency, edges, perimeters)
    };
    let ((normals, distances, adjacency, edges, perimeters), aabb) =
        if mesh.faces.len() >= PARALLEL_TREE {
            std::thread::scope(|s| {
                let tree = s.spawn(|| builder.build(mesh, style));
                let r = rest();
                let tree = tree.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                (r, tree)
            })
        } else {
            (rest(), builder.build(mesh, style))
        };
    Derived {
        normals,
        distances,
        adjacency,
        edges,
        perimeters,
        aabb,
    }
}

/// A rebuilt walkmesh: the mesh in walkable-first order with its transitions and derived data.
#[derive(Debug, Clone, PartialEq)]
pub struct Rebuilt {
    /// The mesh, walkable faces first.
    pub mesh: Mesh,
    /// Per-face-edge transitions in the new face order.
    pub transitions: Vec<[i32; 3]>,
    /// `order[new] = old` face index.
    pub order: Vec<u32>,
    /// The derived tables.
    pub derived: Derived,
}

/// Puts walkable faces first (carrying the transitions along) and rebuilds every derived table,
/// the AABB tree in the given style.
pub fn rebuild(
    mesh: &Mesh,
    transitions: &[[i32; 3]],
    style: aabb::Style,
) -> Result<Rebuilt, MeshError> {
    rebuild_with(mesh, transitions, style, &mut aabb::TreeBuilder::new())
}

/// [`rebuild`] with the AABB tree built by `builder`, whose working memory is kept for the
/// next call (for a program that rebuilds walkmeshes often, e.g. an editor after each change).
pub fn rebuild_with(
    mesh: &Mesh,
    transitions: &[[i32; 3]],
    style: aabb::Style,
    builder: &mut aabb::TreeBuilder,
) -> Result<Rebuilt, MeshError> {
    mesh.validate()?;
    let order = walkable_first_order(&mesh.walkable);
    let (mesh, transitions) = reorder(mesh, transitions, &order);
    // Reordering faces keeps the mesh valid.
    let derived = derive_valid(&mesh, &transitions, style, builder);
    Ok(Rebuilt {
        mesh,
        transitions,
        order,
        derived,
    })
}
