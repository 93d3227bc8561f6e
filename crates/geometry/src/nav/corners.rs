//! The corner graph: for every corner, the corners the optimal search may turn at next from
//! it, and their distances, precomputed once (optional, like [`super::landmarks`]).
//!
//! An optimal path turns only at corners ([`NavMesh::is_corner`]). The optimal search
//! ([`super::search`], Polyanya) reaches each turn from the one before by a *sweep*: the
//! intervals the previous turn sees, until a ray grazes a corner with ground beyond it, where
//! the path may turn. The graph holds exactly those turns, `v → w` when the sweep from `v`
//! turns at `w` (directed: along a wall with collinear corners the sweep from one end turns at
//! the far end and the sweep from there at the nearest corner, so keeping only pairs seen from
//! both ends, the classic tangent visibility graph, loses paths). A vertex whose walkable
//! wedges meet only at a point gets one sweep per wedge. A query then sweeps only from its
//! start and its goal and searches the graph between them ([`super::search`]'s corner search).
//!
//! Distances are stored as `f32` (the route's length is measured again on its points).

use super::mesh::NavMesh;
use super::poly::NO_POLYGON;
use super::search::Searcher;

/// The turns of the optimal search between corners. See the [module docs](self).
#[derive(Debug, Clone, Default)]
pub struct CornerGraph {
    /// `first[v]..first[v + 1]`: the edges of vertex `v` in `to` and `len`.
    first: Vec<u32>,
    to: Vec<u32>,
    len: Vec<f32>,
}

impl CornerGraph {
    /// Sweeps from every corner of `mesh` and keeps the turns (`None` only if a
    /// worker thread failed).
    pub fn build(mesh: &NavMesh) -> Option<CornerGraph> {
        let nv = mesh.vertices.len();
        let pl = &mesh.poly;
        // Per vertex, the polygons with it as a corner.
        let mut around_first = vec![0u32; nv + 1];
        for p in 0..pl.count() as u32 {
            for &v in pl.corners(p) {
                around_first[v as usize + 1] += 1;
            }
        }
        for v in 0..nv {
            around_first[v + 1] += around_first[v];
        }
        let mut fill = around_first.clone();
        let mut around = vec![NO_POLYGON; around_first[nv] as usize];
        for p in 0..pl.count() as u32 {
            for &v in pl.corners(p) {
                around[fill[v as usize] as usize] = p;
                fill[v as usize] += 1;
            }
        }
        drop(fill);
        let around = Around {
            first: around_first,
            polys: around,
        };
        // Directed: per corner, its sorted distinct targets with distances. The vertices are
        // swept in blocks on all cores (thread `i` takes every `threads`-th block, so that
        // crowded and empty stretches spread evenly), each thread with its own searcher.
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(16);
        let block = (nv / (threads * 16)).max(1024);
        let nblocks = nv.div_ceil(block);
        let mut parts: Vec<(usize, Block)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|i| {
                    let around = &around;
                    scope.spawn(move || {
                        (i..nblocks)
                            .step_by(threads)
                            .map(|b| {
                                let r = b * block..((b + 1) * block).min(nv);
                                (b, sweep_block(mesh, around, r))
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            let mut all = Vec::with_capacity(nblocks);
            for h in handles {
                all.extend(h.join().ok()?);
            }
            Some(all)
        })?;
        parts.sort_unstable_by_key(|p| p.0);
        let mut first = Vec::with_capacity(nv + 1);
        let total = parts.iter().map(|p| p.1.1.len()).sum();
        let mut to = Vec::with_capacity(total);
        let mut len = Vec::with_capacity(total);
        for (_, (pf, pt, pd)) in parts {
            let base = to.len() as u32;
            first.extend(pf.iter().map(|&f| f + base));
            to.extend(pt);
            len.extend(pd);
        }
        first.push(to.len() as u32);
        to.shrink_to_fit();
        len.shrink_to_fit();
        Some(CornerGraph { first, to, len })
    }

    /// Number of directed edges.
    pub fn edge_count(&self) -> usize {
        self.to.len()
    }

    /// The edges of vertex `v`: target corners and distances.
    pub fn edges(&self, v: u32) -> (&[u32], &[f32]) {
        let r = self.range(v);
        (&self.to[r.clone()], &self.len[r])
    }

    #[inline]
    fn range(&self, v: u32) -> std::ops::Range<usize> {
        match (self.first.get(v as usize), self.first.get(v as usize + 1)) {
            (Some(&a), Some(&b)) => a as usize..b as usize,
            _ => 0..0,
        }
    }

    /// Number of edges of vertex `v`.
    #[inline]
    pub fn degree(&self, v: u32) -> usize {
        self.range(v).len()
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.first.capacity() * 4 + self.to.capacity() * 4 + self.len.capacity() * 4
    }
}

/// One block's sweeps: per vertex its first edge (from the block's start), targets, distances.
type Block = (Vec<u32>, Vec<u32>, Vec<f32>);

/// The sweeps from the corners among vertices `range`: per vertex its first edge (counted from
/// the block's start), then the targets and distances.
fn sweep_block(mesh: &NavMesh, around: &Around, range: std::ops::Range<usize>) -> Block {
    let mut searcher = Searcher::new();
    let mut first = Vec::with_capacity(range.len());
    let mut to: Vec<u32> = Vec::new();
    let mut len: Vec<f32> = Vec::new();
    let mut row: Vec<(u32, f32)> = Vec::new();
    let mut covered: Vec<bool> = Vec::new();
    for v in range {
        first.push(to.len() as u32);
        let polys = &around.polys[around.first[v] as usize..around.first[v + 1] as usize];
        if polys.is_empty() || !mesh.is_corner(v as u32) {
            continue;
        }
        row.clear();
        // One sweep per wedge round the vertex (a sweep turns round the vertex through the
        // polygons that share its edges; a pinched vertex has several wedges).
        covered.clear();
        covered.resize(polys.len(), false);
        for i in 0..polys.len() {
            if covered[i] {
                continue;
            }
            row.extend(
                searcher
                    .sweep_from(mesh, v as u32, polys[i])
                    .iter()
                    .map(|&(w, d, _)| (w, d as f32)),
            );
            covered[i] = true;
            searcher.swept_polygons(|p| {
                if let Some(j) = polys.iter().position(|&q| q == p) {
                    covered[j] = true;
                }
            });
        }
        row.sort_unstable_by_key(|e| e.0);
        row.dedup_by_key(|e| e.0);
        for &(w, d) in &row {
            to.push(w);
            len.push(d);
        }
    }
    (first, to, len)
}

/// Per vertex, the polygons with it as a corner (`polys[first[v]..first[v + 1]]`).
struct Around {
    first: Vec<u32>,
    polys: Vec<u32>,
}
