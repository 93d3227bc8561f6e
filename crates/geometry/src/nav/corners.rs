//! The corner graph: for every corner, the corners a taut path from it may turn at next, and
//! their distances, precomputed once (optional, like [`super::landmarks`]).
//!
//! An optimal path turns only at corners ([`NavMesh::is_corner`]), and each straight piece
//! between two turns is tangent to the walls at both ends. The graph holds exactly those
//! pieces: `v → w` is kept when a sweep from `v` may turn at `w` and a sweep from `w` may turn
//! at `v` (the *tangent visibility graph*). A query then needs sweeps only from its start and
//! its goal, and a search over the graph between them.

use super::mesh::NavMesh;
use super::poly::NO_POLYGON;
use super::search::Searcher;

/// Tangent visibility between corners. See the [module docs](self).
#[derive(Debug, Clone, Default)]
pub struct CornerGraph {
    /// `first[v]..first[v + 1]`: the edges of vertex `v` in `to` and `len`.
    first: Vec<u32>,
    to: Vec<u32>,
    len: Vec<f32>,
    /// Per vertex: a polygon with it as a corner ([`NO_POLYGON`] for none).
    pub(crate) poly_at: Vec<u32>,
}

impl CornerGraph {
    /// Sweeps from every corner of `mesh` and keeps the tangent pairs.
    pub fn build(mesh: &NavMesh) -> CornerGraph {
        let nv = mesh.vertices.len();
        let pl = &mesh.poly;
        let mut poly_at = vec![NO_POLYGON; nv];
        for p in 0..pl.count() as u32 {
            for &v in pl.corners(p) {
                if poly_at[v as usize] == NO_POLYGON {
                    poly_at[v as usize] = p;
                }
            }
        }
        let mut searcher = Searcher::new();
        // Directed: per corner, its sorted distinct targets with distances.
        let mut first = vec![0u32; nv + 1];
        let mut to: Vec<u32> = Vec::new();
        let mut len: Vec<f32> = Vec::new();
        let mut row: Vec<(u32, f32)> = Vec::new();
        for v in 0..nv as u32 {
            first[v as usize] = to.len() as u32;
            let p = poly_at[v as usize];
            if p == NO_POLYGON || !mesh.is_corner(v) {
                continue;
            }
            row.clear();
            row.extend(
                searcher
                    .sweep_from(mesh, v, p)
                    .iter()
                    .map(|&(w, d, _)| (w, d as f32)),
            );
            row.sort_unstable_by_key(|e| e.0);
            row.dedup_by_key(|e| e.0);
            for &(w, d) in &row {
                to.push(w);
                len.push(d);
            }
        }
        first[nv] = to.len() as u32;
        if std::env::var_os("CG_DEBUG").is_some() {
            eprintln!("directed {}", to.len());
        }
        // Keep the pairs seen from both ends.
        let has = |v: u32, w: u32| {
            let r = first[v as usize] as usize..first[v as usize + 1] as usize;
            to[r].binary_search(&w).is_ok()
        };
        let mut kfirst = vec![0u32; nv + 1];
        let mut kto = Vec::new();
        let mut klen = Vec::new();
        for v in 0..nv as u32 {
            kfirst[v as usize] = kto.len() as u32;
            for i in first[v as usize] as usize..first[v as usize + 1] as usize {
                if has(to[i], v) {
                    kto.push(to[i]);
                    klen.push(len[i]);
                }
            }
        }
        kfirst[nv] = kto.len() as u32;
        kto.shrink_to_fit();
        klen.shrink_to_fit();
        CornerGraph {
            first: kfirst,
            to: kto,
            len: klen,
            poly_at,
        }
    }

    /// Number of directed edges.
    pub fn edge_count(&self) -> usize {
        self.to.len()
    }

    /// The edges of vertex `v`: target corners and distances.
    pub fn edges(&self, v: u32) -> (&[u32], &[f32]) {
        let r = self.first[v as usize] as usize..self.first[v as usize + 1] as usize;
        (&self.to[r.clone()], &self.len[r])
    }

    /// Number of edges of vertex `v`.
    #[inline]
    pub fn degree(&self, v: u32) -> usize {
        (self.first[v as usize + 1] - self.first[v as usize]) as usize
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.first.capacity() * 4
            + self.to.capacity() * 4
            + self.len.capacity() * 4
            + self.poly_at.capacity() * 4
    }
}
