//! The NWN2 toolset's walkmesh bake, as graph algorithms over plain arrays.
//!
//! Everything here is format-free: triangles are given by their 2-D centres, their three
//! neighbour slots (`u32::MAX` = none) and a walkable flag; tiles by triangle index ranges.
//! The rules were fitted to the 61 baked TRX files of the corpus (see
//! `docs/formats/nwn2-trx.md`, "Bake rules"); arithmetic is `f32` throughout because the
//! toolset's results depend on `f32` rounding (it decides ties).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::ops::Range;

/// "No triangle" in a neighbour slot.
pub const NONE: u32 = u32::MAX;
/// "No node" / "no island" in the byte and `u16` tables.
pub const NO_NODE: u8 = 0xff;
/// The most walkable triangles a tile can hold: node indices are 7 bits and 0x7f is unused.
pub const MAX_TILE_NODES: usize = 127;

/// The distance between two points as the toolset computes it (`f32` all the way).
pub fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    let dx = b[0] - a[0];
    let dy = b[1] - a[1];
    (dx * dx + dy * dy).sqrt()
}

/// The tile (row-major, `y * grid_width + x`) that owns a point: each tile is the half-open
/// square `(x*w, (x+1)*w] x (y*w, (y+1)*w]`, clamped to the grid. A centre on a tile border
/// therefore belongs to the lower tile.
pub fn tile_of(p: [f32; 2], width: f32, grid_width: u32, grid_height: u32) -> usize {
    let axis = |v: f32, n: u32| -> usize {
        let i = (v / width).ceil() - 1.0;
        let max = n.saturating_sub(1) as f32;
        let i = if i.is_nan() { 0.0 } else { i.clamp(0.0, max) };
        i as usize
    };
    axis(p[1], grid_height) * grid_width as usize + axis(p[0], grid_width)
}

/// Tolerance, as a share of the tile width, of [`in_tile_square`]: the toolset clips
/// geometry to tiles and leaves slivers whose centre lies up to 0.05 m (of 9 m) outside the
/// tile that owns them.
pub const TILE_SQUARE_TOLERANCE: f32 = 0.01;

/// Whether `p` lies in the square of tile `tile`, borders included, widened by
/// [`TILE_SQUARE_TOLERANCE`].
pub fn in_tile_square(p: [f32; 2], tile: usize, width: f32, grid_width: u32) -> bool {
    let gw = grid_width.max(1) as usize;
    let (x, y) = ((tile % gw) as f32, (tile / gw) as f32);
    let e = width * TILE_SQUARE_TOLERANCE;
    p[0] >= x * width - e
        && p[0] <= (x + 1.0) * width + e
        && p[1] >= y * width - e
        && p[1] <= (y + 1.0) * width + e
}

/// A min-heap entry ordered by `f32` cost, then by index (lower first).
#[derive(Clone, Copy, PartialEq)]
struct Entry(f32, usize);

impl Eq for Entry {}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .0
            .total_cmp(&self.0)
            .then_with(|| other.1.cmp(&self.1))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Dijkstra from `src` over `adj` (neighbour, weight) lists: returns the cost and the first
/// hop toward every node (`usize::MAX` when unreachable or `src` itself). A cheaper path
/// replaces a known one only when strictly cheaper; neighbours are relaxed in list order.
pub fn first_hops(adj: &[Vec<(usize, f32)>], src: usize) -> (Vec<f32>, Vec<usize>) {
    let n = adj.len();
    let mut cost = vec![f32::INFINITY; n];
    let mut first = vec![usize::MAX; n];
    let mut heap = BinaryHeap::new();
    if src >= n {
        return (cost, first);
    }
    cost[src] = 0.0;
    heap.push(Entry(0.0, src));
    while let Some(Entry(c, u)) = heap.pop() {
        if c > cost[u] {
            continue;
        }
        for &(v, w) in &adj[u] {
            let nc = c + w;
            if nc < cost[v] {
                cost[v] = nc;
                first[v] = if u == src { v } else { first[u] };
                heap.push(Entry(nc, v));
            }
        }
    }
    (cost, first)
}

/// A baked tile path table (without line-of-sight bits).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TilePaths {
    /// Per local triangle: its node, or [`NO_NODE`] when not walkable.
    pub local_to_node: Vec<u8>,
    /// Per node: the local triangle index (walkable triangles in ascending order).
    pub node_to_local: Vec<u32>,
    /// `nodes[from * n + to]`: the node of the next triangle, [`NO_NODE`] when unreachable
    /// inside the tile or when `from == to`.
    pub nodes: Vec<u8>,
}

/// The tile has more walkable triangles than a path table can index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyNodes {
    /// Walkable triangles in the tile.
    pub walkable: usize,
}

/// Computes the path table of the tile owning triangles `range`: for every ordered pair of
/// walkable triangles, the first hop of the shortest path (sum of centre-to-centre
/// distances) that stays on walkable triangles of the tile.
pub fn tile_paths(
    centers: &[[f32; 2]],
    links: &[[u32; 3]],
    walkable: &[bool],
    range: Range<usize>,
) -> Result<TilePaths, TooManyNodes> {
    let start = range.start;
    let end = range
        .end
        .min(centers.len())
        .min(links.len())
        .min(walkable.len());
    let count = end.saturating_sub(start);
    let mut local_to_node = vec![NO_NODE; range.len()];
    let mut node_to_local = Vec::new();
    for l in 0..count {
        if walkable[start + l] {
            if node_to_local.len() >= MAX_TILE_NODES {
                return Err(TooManyNodes {
                    walkable: (0..count).filter(|&i| walkable[start + i]).count(),
                });
            }
            local_to_node[l] = node_to_local.len() as u8;
            node_to_local.push(l as u32);
        }
    }
    let n = node_to_local.len();
    let adj: Vec<Vec<(usize, f32)>> = node_to_local
        .iter()
        .map(|&l| {
            let g = start + l as usize;
            links[g]
                .iter()
                .filter_map(|&t| {
                    let t = t as usize;
                    if t < start || t >= end || !walkable[t] {
                        return None;
                    }
                    let node = local_to_node[t - start];
                    Some((usize::from(node), distance(centers[g], centers[t])))
                })
                .collect()
        })
        .collect();
    let mut nodes = vec![NO_NODE; n * n];
    for s in 0..n {
        let (_, first) = first_hops(&adj, s);
        for (t, &f) in first.iter().enumerate() {
            if f != usize::MAX && t != s {
                nodes[s * n + t] = f as u8;
            }
        }
    }
    Ok(TilePaths {
        local_to_node,
        node_to_local,
        nodes,
    })
}

/// Islands: the walkable triangles of each tile split into sets connected inside the tile.
/// Returns the island of every triangle (`None` for non-walkable ones) and the number of
/// islands. Islands are numbered in tile order, then by their lowest triangle.
pub fn islands(
    links: &[[u32; 3]],
    walkable: &[bool],
    tiles: &[Range<usize>],
) -> (Vec<Option<u32>>, usize) {
    let n = links.len().min(walkable.len());
    let mut island = vec![None; n];
    let mut next = 0u32;
    let mut stack = Vec::new();
    for r in tiles {
        let (start, end) = (r.start.min(n), r.end.min(n));
        for t in start..end {
            if !walkable[t] || island[t].is_some() {
                continue;
            }
            island[t] = Some(next);
            stack.push(t);
            while let Some(u) = stack.pop() {
                for &v in &links[u] {
                    let v = v as usize;
                    if v >= start && v < end && walkable[v] && island[v].is_none() {
                        island[v] = Some(next);
                        stack.push(v);
                    }
                }
            }
            next += 1;
        }
    }
    (island, next as usize)
}

/// An island's derived data.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IslandInfo {
    /// Centre: the `f32` sum of the triangles' centres (ascending triangle order) times
    /// `f32` `1 / count`.
    pub center: [f32; 2],
    /// Number of triangles.
    pub triangle_count: u32,
    /// Adjacent islands, in order of discovery (triangles ascending, neighbour slots in order).
    pub links: Vec<u32>,
    /// Centre-to-centre distance to each adjacent island.
    pub distances: Vec<f32>,
    /// The first triangle of this island found next to each adjacent island.
    pub exits: Vec<u32>,
}

/// Centres, links, distances and exits of `count` islands given each triangle's island.
pub fn island_info(
    centers: &[[f32; 2]],
    links: &[[u32; 3]],
    island: &[Option<u32>],
    count: usize,
) -> Vec<IslandInfo> {
    let mut info = vec![IslandInfo::default(); count];
    let mut sums = vec![[0f32; 2]; count];
    let n = island.len().min(centers.len()).min(links.len());
    for t in 0..n {
        if let Some(i) = island[t] {
            let i = i as usize;
            if i < count {
                sums[i][0] += centers[t][0];
                sums[i][1] += centers[t][1];
                info[i].triangle_count += 1;
            }
        }
    }
    for (inf, s) in info.iter_mut().zip(&sums) {
        if inf.triangle_count > 0 {
            let r = 1.0 / inf.triangle_count as f32;
            inf.center = [s[0] * r, s[1] * r];
        }
    }
    for t in 0..n {
        let Some(i) = island[t] else { continue };
        let i = i as usize;
        if i >= count {
            continue;
        }
        for &v in &links[t] {
            let Some(Some(j)) = island.get(v as usize) else {
                continue;
            };
            let j = *j;
            if j as usize == i || j as usize >= count || info[i].links.contains(&j) {
                continue;
            }
            let d = distance(info[i].center, info[j as usize].center);
            info[i].links.push(j);
            info[i].distances.push(d);
            info[i].exits.push(t as u32);
        }
    }
    info
}

/// The island path table: `next[from * n + to]` is the first island on the shortest path
/// (sum of link distances), `None` when unreachable or `from == to`; `weight` is the
/// distance to that next island.
pub fn island_paths(info: &[IslandInfo]) -> Vec<Option<(u32, f32)>> {
    let n = info.len();
    let adj: Vec<Vec<(usize, f32)>> = info
        .iter()
        .map(|i| {
            i.links
                .iter()
                .zip(&i.distances)
                .filter(|(l, _)| (**l as usize) < n)
                .map(|(&l, &d)| (l as usize, d))
                .collect()
        })
        .collect();
    let mut out = vec![None; n * n];
    for s in 0..n {
        let (_, first) = first_hops(&adj, s);
        for (t, &f) in first.iter().enumerate() {
            if f != usize::MAX && t != s {
                let w = adj[s]
                    .iter()
                    .find(|(l, _)| *l == f)
                    .map_or(0.0, |&(_, d)| d);
                out[s * n + t] = Some((f as u32, w));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strip of four walkable triangles 0-1-2-3 in one tile, and a fifth, unwalkable one.
    fn strip() -> (Vec<[f32; 2]>, Vec<[u32; 3]>, Vec<bool>) {
        let centers = vec![[0.5, 0.5], [1.5, 0.5], [2.5, 0.5], [3.5, 0.5], [4.5, 0.5]];
        let links = vec![
            [1, NONE, NONE],
            [0, 2, NONE],
            [1, 3, NONE],
            [2, 4, NONE],
            [3, NONE, NONE],
        ];
        let walkable = vec![true, true, true, true, false];
        (centers, links, walkable)
    }

    #[test]
    fn path_table_steps_along_the_strip() {
        let (c, l, w) = strip();
        let p = tile_paths(&c, &l, &w, 0..5).unwrap();
        assert_eq!(p.local_to_node, vec![0, 1, 2, 3, NO_NODE]);
        assert_eq!(p.node_to_local, vec![0, 1, 2, 3]);
        assert_eq!(p.nodes[3], 1, "0 -> 3 goes through 1");
        assert_eq!(p.nodes[3 * 4], 2, "3 -> 0 goes through 2");
        assert_eq!(p.nodes[0], NO_NODE, "diagonal");
    }

    #[test]
    fn islands_split_by_tiles_and_link() {
        let (c, l, w) = strip();
        let tiles = [0..2, 2..5];
        let (isl, n) = islands(&l, &w, &tiles);
        assert_eq!(n, 2);
        assert_eq!(isl, vec![Some(0), Some(0), Some(1), Some(1), None]);
        let info = island_info(&c, &l, &isl, n);
        assert_eq!(info[0].center, [1.0, 0.5]);
        assert_eq!(info[0].links, vec![1]);
        assert_eq!(info[0].exits, vec![1]);
        assert_eq!(info[1].exits, vec![2]);
        assert_eq!(info[0].distances, vec![2.0]);
        let paths = island_paths(&info);
        assert_eq!(paths, vec![None, Some((1, 2.0)), Some((0, 2.0)), None]);
    }

    #[test]
    fn tile_of_uses_upper_inclusive_squares() {
        assert_eq!(tile_of([9.0, 0.5], 9.0, 4, 4), 0);
        assert_eq!(tile_of([9.01, 0.5], 9.0, 4, 4), 1);
        assert_eq!(tile_of([0.0, 9.5], 9.0, 4, 4), 4);
        assert_eq!(tile_of([-3.0, 100.0], 9.0, 4, 4), 12);
        assert_eq!(tile_of([f32::NAN, 1.0], 9.0, 4, 4), 0);
    }

    #[test]
    fn too_many_walkable_triangles_is_an_error() {
        let n = 128;
        let c = vec![[0.0, 0.0]; n];
        let l = vec![[NONE; 3]; n];
        let w = vec![true; n];
        assert_eq!(
            tile_paths(&c, &l, &w, 0..n),
            Err(TooManyNodes { walkable: 128 })
        );
    }
}
