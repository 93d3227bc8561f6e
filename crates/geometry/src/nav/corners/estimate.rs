//! What building the corner graph would cost, measured on a sample: corners drawn in a seeded
//! order and swept as [`CornerGraph::build`](super::CornerGraph::build) sweeps them (one sweep
//! per wedge), their search nodes counted. Read-only: nothing is kept but the counts, which a
//! caller extrapolates to every corner (`areakit-app`'s `--corner-graph auto`) and stops
//! drawing when it has seen enough.

use crate::nav::mesh::NavMesh;
use crate::nav::poly::Polygons;
use crate::nav::search::polyanya;
use crate::nav::search::pool::Pool;

/// The corners the corner graph build sweeps from, drawn one at a time in an order fixed by a
/// seed, each swept the build's way ([`CornerSample::sweep_next`]).
pub struct CornerSample<'a> {
    mesh: &'a NavMesh,
    polygons: &'a Polygons,
    /// Per vertex, the polygons with it as a corner (`polys[first[v]..first[v + 1]]`).
    first: Vec<u32>,
    polys: Vec<u32>,
    /// The corners swept by the build; `order[..drawn]` drawn so far.
    order: Vec<u32>,
    drawn: usize,
    rng: SplitMix,
    pool: Pool,
    covered: Vec<bool>,
}

impl<'a> CornerSample<'a> {
    /// The corners of `mesh` the build sweeps from (corners that are a polygon's corner), to be
    /// drawn in the order `seed` gives (the same on any machine).
    pub fn new(mesh: &'a NavMesh, polygons: &'a Polygons, seed: u64) -> Self {
        let nv = mesh.vertices.len();
        let mut first = vec![0u32; nv + 1];
        for p in 0..polygons.count() as u32 {
            for &v in polygons.corners(p) {
                first[v as usize + 1] += 1;
            }
        }
        for v in 0..nv {
            first[v + 1] += first[v];
        }
        let mut fill = first.clone();
        let mut polys = vec![0u32; first[nv] as usize];
        for p in 0..polygons.count() as u32 {
            for &v in polygons.corners(p) {
                polys[fill[v as usize] as usize] = p;
                fill[v as usize] += 1;
            }
        }
        let order = (0..nv as u32)
            .filter(|&v| first[v as usize + 1] > first[v as usize] && mesh.is_corner(v))
            .collect();
        CornerSample {
            mesh,
            polygons,
            first,
            polys,
            order,
            drawn: 0,
            rng: SplitMix(seed),
            pool: Pool::default(),
            covered: Vec::new(),
        }
    }

    /// The corners the build sweeps from.
    pub fn corners(&self) -> usize {
        self.order.len()
    }

    /// Draws the next corner (none once all are drawn) and sweeps from it as the build does:
    /// the search nodes its sweeps made (every node is expanded once).
    pub fn sweep_next(&mut self) -> Option<u64> {
        let i = self.drawn;
        if i >= self.order.len() {
            return None;
        }
        // One step of a Fisher–Yates shuffle.
        let j = i + (self.rng.next() % (self.order.len() - i) as u64) as usize;
        self.order.swap(i, j);
        self.drawn += 1;
        let v = self.order[i];
        let polys =
            &self.polys[self.first[v as usize] as usize..self.first[v as usize + 1] as usize];
        self.covered.clear();
        self.covered.resize(polys.len(), false);
        let mut nodes = 0;
        for k in 0..polys.len() {
            if self.covered[k] {
                continue;
            }
            polyanya::sweep_from(&mut self.pool, self.mesh, self.polygons, v, polys[k]);
            nodes += self.pool.nodes.len() as u64;
            self.covered[k] = true;
            for n in &self.pool.nodes {
                if let Some(c) = polys.iter().position(|&q| q == n.cell) {
                    self.covered[c] = true;
                }
            }
        }
        Some(nodes)
    }
}

/// `count` distinct indices below `n` drawn by `seed` (all of them when `count >= n`), in the
/// order drawn, so that every prefix is a sample too: the same for the same arguments on any
/// machine.
pub fn sample_indices(n: usize, count: usize, seed: u64) -> Vec<usize> {
    let count = count.min(n);
    let mut rng = SplitMix(seed);
    let mut idx: Vec<usize> = (0..n).collect();
    for i in 0..count {
        let j = i + (rng.next() % (n - i) as u64) as usize;
        idx.swap(i, j);
    }
    idx.truncate(count);
    idx
}

/// splitmix64.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_distinct_in_drawn_order_and_the_same_for_a_seed() {
        let a = sample_indices(1000, 64, 7);
        assert_eq!(a.len(), 64);
        assert_eq!(a, sample_indices(1000, 64, 7));
        assert_ne!(a, sample_indices(1000, 64, 8));
        // A prefix of a longer draw.
        assert_eq!(a[..10], sample_indices(1000, 10, 7)[..]);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert!(sorted.len() == 64 && sorted[63] < 1000);
        // Not in index order.
        assert_ne!(sorted, a);
        let mut all = sample_indices(5, 64, 7);
        all.sort_unstable();
        assert_eq!(all, vec![0, 1, 2, 3, 4]);
    }
}
