//! Baking an NWN2 walkmesh: recomputing what the toolset stores in a TRX from the geometry.
//!
//! The graph algorithms live in [`areakit_geometry::nwn2_bake`]; this module maps the
//! [`Walkmesh`] model onto plain arrays and back. The rules (and how closely they reproduce
//! the corpus) are in `docs/formats/nwn2-trx.md`, "Bake rules".

use std::ops::Range;

use areakit_area::nwn2_cut::{self, CutReport, PlacedWalk};
use areakit_area::nwn2_git::{Nwn2Git, ObjectKind, PlacedObject};
use areakit_formats::trx::{self, Island, IslandPathNode, PathTable, Trx, Walkmesh, raw};
use areakit_geometry::nwn2_bake as nb;

/// Why a walkmesh cannot be baked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BakeError {
    /// A tile has more walkable triangles than a path table can index (127).
    #[error(
        "tile {tile} has {walkable} walkable triangles; a path table holds at most {}",
        nb::MAX_TILE_NODES
    )]
    TooManyWalkable {
        /// Tile index.
        tile: usize,
        /// Walkable triangles in it.
        walkable: usize,
    },
    /// More islands than [`MAX_ISLANDS`]: the island path table grows with the square of the
    /// island count (and a triangle's island field is 16 bits).
    #[error(
        "{0} islands: the island path table would need {0}x{0} entries; at most {MAX_ISLANDS} islands are baked"
    )]
    TooManyIslands(usize),
    /// The tile grid does not match the tile list.
    #[error("{0}")]
    BadGrid(String),
    /// The terrain has no walkmesh (ASWM packet) to cut.
    #[error("the terrain has no walkmesh (ASWM packet)")]
    NoWalkmesh,
    /// The walkmesh cannot be cut (a vertex index out of range, a coordinate not finite, a
    /// cutter too large).
    #[error("cutting the walkmesh: {0}")]
    Cut(areakit_geometry::cut::CutError),
    /// The GIT lacks what the bake reads from it.
    #[error("reading the GIT: {0}")]
    Git(areakit_area::nwn2_git::GitError),
}

/// The most islands a walkmesh may have to be baked. The island path table holds one entry
/// per pair of islands, so this bounds its memory (16.8 M entries) against hostile inputs;
/// the largest corpus file has 325 islands.
pub const MAX_ISLANDS: usize = 4096;

/// Bakes `t`: with a GIT, its ground cut first and the `placed` walkmeshes put in
/// ([`nwn2_cut::cut_walkmesh_placing`]); then the tables ([`super::bake`]). Returns the baked terrain and, with a GIT, what the cut did.
pub fn bake_with_git(
    t: &trx::Trx,
    git: Option<&Nwn2Git>,
    placed: &[PlacedWalk],
) -> Result<(trx::Trx, Option<CutReport>), BakeError> {
    let Some(git) = git else {
        return Ok((bake(t)?, None));
    };
    let w = t.walkmesh().ok_or(BakeError::NoWalkmesh)?;
    let (cut_mesh, report) =
        nwn2_cut::cut_walkmesh_placing(w, git, placed).map_err(BakeError::Cut)?;
    let mut t = t.clone();
    if let Some(a) = t.aswm_mut() {
        a.walkmesh = cut_mesh;
    }
    Ok((bake(&t)?, Some(report)))
}

/// The placed objects of `git` whose walkmeshes the bake does not apply: placeables, doors
/// and environment objects (trees carry none).
pub fn not_applied(git: Nwn2Git) -> Vec<PlacedObject> {
    git.objects
        .into_iter()
        .filter(|o| o.kind != ObjectKind::Tree)
        .collect()
}

/// Bakes every ASWM walkmesh of `trx` (see [`bake_walkmesh`]); other packets are copied.
pub fn bake(trx: &Trx) -> Result<Trx, BakeError> {
    let mut out = trx.clone();
    for p in &mut out.packets {
        if let areakit_formats::trx::Packet::Aswm(a) = p {
            bake_walkmesh(&mut a.walkmesh)?;
        }
    }
    Ok(out)
}

/// The tile owning each triangle: its current tile when the current tile ranges are
/// well-formed and the centre lies in that tile's closed square (a centre on a border is
/// ambiguous, and the toolset's choice is kept), else [`nb::tile_of`].
fn owners(w: &Walkmesh) -> Vec<usize> {
    let n = w.triangles.len();
    let mut current = vec![usize::MAX; n];
    for (ti, t) in w.tiles.iter().enumerate() {
        let r = t.triangle_range();
        if r.end <= n as u64 {
            for c in &mut current[r.start as usize..r.end as usize] {
                *c = if *c == usize::MAX { ti } else { usize::MAX - 1 };
            }
        }
    }
    w.triangles
        .iter()
        .zip(&current)
        .map(|(t, &cur)| {
            if cur < w.tiles.len() && nb::in_tile_square(t.center, cur, w.tile_width, w.grid_width)
            {
                cur
            } else {
                nb::tile_of(t.center, w.tile_width, w.grid_width, w.grid_height)
            }
        })
        .collect()
}

/// Reorders triangles so that each tile's triangles are consecutive (stable), remapping
/// every triangle index. Returns the tile ranges.
fn group_by_tile(w: &mut Walkmesh, owner: &[usize]) -> Vec<Range<usize>> {
    let n = w.triangles.len();
    let ntiles = w.tiles.len();
    if owner.windows(2).any(|p| p[0] > p[1]) {
        let mut perm: Vec<usize> = (0..n).collect();
        perm.sort_by_key(|&i| owner[i]);
        let mut new_index = vec![0u32; n];
        for (new, &old) in perm.iter().enumerate() {
            new_index[old] = new as u32;
        }
        let map = |t: u32| -> u32 { new_index.get(t as usize).copied().unwrap_or(t) };
        let old = std::mem::take(&mut w.triangles);
        w.triangles = perm.iter().map(|&i| old[i]).collect();
        for t in &mut w.triangles {
            for l in &mut t.linked_triangles {
                *l = map(*l);
            }
        }
        for e in &mut w.edges {
            for t in &mut e.triangles {
                *t = map(*t);
            }
        }
        for i in &mut w.islands {
            for e in &mut i.exits {
                *e = map(*e);
            }
        }
        let sorted: Vec<usize> = perm.iter().map(|&i| owner[i]).collect();
        return ranges(&sorted, ntiles);
    }
    ranges(owner, ntiles)
}

fn ranges(sorted_owner: &[usize], ntiles: usize) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(ntiles);
    let mut pos = 0;
    for tile in 0..ntiles {
        let start = pos;
        while pos < sorted_owner.len() && sorted_owner[pos] == tile {
            pos += 1;
        }
        out.push(start..pos);
    }
    out
}

/// Recomputes, from the geometry (centres, neighbour links, walkable flags), everything the
/// toolset bakes: triangle ownership by tile (triangles are regrouped only when needed),
/// tile headers (triangle range, distinct vertex and edge counts), path tables (next hop
/// between every pair of walkable triangles of a tile; line-of-sight bits left clear, which
/// tells the engine to test line of sight at run time), islands, island links with distances
/// and exits, and the island path table. Walkable and material flags are inputs and stay.
pub fn bake_walkmesh(w: &mut Walkmesh) -> Result<(), BakeError> {
    let ntiles = u64::from(w.grid_width) * u64::from(w.grid_height);
    if w.tiles.len() as u64 != ntiles {
        return Err(BakeError::BadGrid(format!(
            "{} tiles for a {} x {} grid",
            w.tiles.len(),
            w.grid_width,
            w.grid_height
        )));
    }
    if w.tiles.is_empty() && !w.triangles.is_empty() {
        return Err(BakeError::BadGrid("triangles but no tiles".into()));
    }
    let owner = owners(w);
    let tile_ranges = group_by_tile(w, &owner);
    let centers: Vec<[f32; 2]> = w.triangles.iter().map(|t| t.center).collect();
    let links: Vec<[u32; 3]> = w.triangles.iter().map(|t| t.linked_triangles).collect();
    let walkable: Vec<bool> = w.triangles.iter().map(|t| t.is_walkable()).collect();

    let flags = raw::TILES_FLAGS_BAKED;
    for (ti, (tile, r)) in w.tiles.iter_mut().zip(&tile_ranges).enumerate() {
        let p = nb::tile_paths(&centers, &links, &walkable, r.clone()).map_err(|e| {
            BakeError::TooManyWalkable {
                tile: ti,
                walkable: e.walkable,
            }
        })?;
        let mut verts: Vec<u32> = Vec::new();
        let mut edges: Vec<u32> = Vec::new();
        for t in &w.triangles[r.clone()] {
            verts.extend_from_slice(&t.vertices);
            edges.extend(t.linked_edges.iter().filter(|&&e| e != raw::NONE_U32));
        }
        verts.sort_unstable();
        verts.dedup();
        edges.sort_unstable();
        edges.dedup();
        tile.triangles_offset = r.start as u32;
        tile.triangle_count = r.len() as u32;
        tile.vertex_count = verts.len() as u32;
        tile.edge_count = edges.len() as u32;
        tile.size = [0.0, 0.0];
        tile.path_table = PathTable {
            flags: 0,
            local_to_node: p.local_to_node,
            node_to_local: p.node_to_local,
            nodes: p.nodes,
            rle_table_size: 0,
            trailing_flags: flags,
        };
    }
    w.tiles_flags = flags;

    let (island_of, count) = nb::islands(&links, &walkable, &tile_ranges);
    if count > MAX_ISLANDS {
        return Err(BakeError::TooManyIslands(count));
    }
    for (t, i) in w.triangles.iter_mut().zip(&island_of) {
        t.island = i.map_or(raw::NONE_U16, |i| i as u16);
    }
    let info = nb::island_info(&centers, &links, &island_of, count);
    let tile_word = w.islands.first().map_or(0, |i| i.tile);
    w.islands = info
        .iter()
        .enumerate()
        .map(|(i, inf)| Island {
            index: i as u32,
            tile: tile_word,
            center: [inf.center[0], inf.center[1], 0.0],
            triangle_count: inf.triangle_count,
            links: inf.links.clone(),
            distances: inf.distances.clone(),
            exits: inf.exits.clone(),
        })
        .collect();
    w.island_paths = nb::island_paths(&info)
        .into_iter()
        .map(|e| match e {
            Some((next, weight)) => IslandPathNode {
                next: next as u16,
                padding: 0,
                weight,
            },
            None => IslandPathNode {
                next: raw::NONE_U16,
                padding: 0,
                weight: 0.0,
            },
        })
        .collect();
    Ok(())
}

/// How closely a bake reproduces a shipped walkmesh (same triangle order assumed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BakeAgreement {
    /// Path-table entries in the shipped file.
    pub path_entries: u64,
    /// Entries whose next hop (bits 0..7, or "none") is the same.
    pub path_next_same: u64,
    /// Entries identical byte for byte (line-of-sight bit included).
    pub path_bytes_same: u64,
    /// Triangles.
    pub triangles: u64,
    /// Triangles whose island is the same.
    pub island_same: u64,
    /// Triangles owned by the same tile.
    pub owner_same: u64,
    /// Island path entries in the shipped file.
    pub island_path_entries: u64,
    /// Entries with the same next island.
    pub island_path_next_same: u64,
    /// Entries with the same next island and (when reachable) the same weight, bit for bit.
    pub island_path_same: u64,
    /// Islands in the shipped file.
    pub islands: u64,
    /// Islands with the same centre, triangle count, links, distances and exits.
    pub islands_same: u64,
    /// Tiles.
    pub tiles: u64,
    /// Tiles with the same vertex and edge counts.
    pub tile_counts_same: u64,
}

impl std::ops::AddAssign for BakeAgreement {
    fn add_assign(&mut self, o: Self) {
        self.path_entries += o.path_entries;
        self.path_next_same += o.path_next_same;
        self.path_bytes_same += o.path_bytes_same;
        self.triangles += o.triangles;
        self.island_same += o.island_same;
        self.owner_same += o.owner_same;
        self.island_path_entries += o.island_path_entries;
        self.island_path_next_same += o.island_path_next_same;
        self.island_path_same += o.island_path_same;
        self.islands += o.islands;
        self.islands_same += o.islands_same;
        self.tiles += o.tiles;
        self.tile_counts_same += o.tile_counts_same;
    }
}

fn tile_of_each(w: &Walkmesh) -> Vec<usize> {
    let mut out = vec![usize::MAX; w.triangles.len()];
    for (ti, t) in w.tiles.iter().enumerate() {
        let r = t.triangle_range();
        for i in r.start..r.end.min(out.len() as u64) {
            out[i as usize] = ti;
        }
    }
    out
}

/// Compares a baked walkmesh with the shipped one.
pub fn agreement(shipped: &Walkmesh, baked: &Walkmesh) -> BakeAgreement {
    let mut a = BakeAgreement::default();
    for (i, t) in shipped.tiles.iter().enumerate() {
        let p = &t.path_table;
        a.tiles += 1;
        let b = baked.tiles.get(i);
        if b.is_some_and(|b| b.vertex_count == t.vertex_count && b.edge_count == t.edge_count) {
            a.tile_counts_same += 1;
        }
        let n = p.node_to_local.len();
        a.path_entries += (n * n) as u64;
        let Some(q) = b.map(|b| &b.path_table) else {
            continue;
        };
        if q.node_to_local != p.node_to_local || q.local_to_node != p.local_to_node {
            continue;
        }
        for (x, y) in p.nodes.iter().zip(&q.nodes) {
            let hop = |v: u8| {
                if v == raw::NO_NODE {
                    v
                } else {
                    v & raw::NODE_INDEX_MASK
                }
            };
            if hop(*x) == hop(*y) {
                a.path_next_same += 1;
            }
            if x == y {
                a.path_bytes_same += 1;
            }
        }
    }
    let (so, bo) = (tile_of_each(shipped), tile_of_each(baked));
    a.triangles = shipped.triangles.len() as u64;
    for (i, t) in shipped.triangles.iter().enumerate() {
        if baked.triangles.get(i).is_some_and(|b| b.island == t.island) {
            a.island_same += 1;
        }
        if bo.get(i) == so.get(i) {
            a.owner_same += 1;
        }
    }
    a.islands = shipped.islands.len() as u64;
    for (i, s) in shipped.islands.iter().enumerate() {
        if baked.islands.get(i).is_some_and(|b| {
            b.center[..2] == s.center[..2]
                && b.triangle_count == s.triangle_count
                && b.links == s.links
                && b.distances == s.distances
                && b.exits == s.exits
        }) {
            a.islands_same += 1;
        }
    }
    a.island_path_entries = shipped.island_paths.len() as u64;
    if baked.islands.len() == shipped.islands.len() {
        for (s, b) in shipped.island_paths.iter().zip(&baked.island_paths) {
            if s.next == b.next {
                a.island_path_next_same += 1;
                if s.next == raw::NONE_U16 || s.weight.to_bits() == b.weight.to_bits() {
                    a.island_path_same += 1;
                }
            }
        }
    }
    a
}

/// `trx-stale-bake` findings: a baked walkmesh whose path tables, islands or island path
/// table differ from what [`bake_walkmesh`] computes from its geometry (next hops compared
/// without the line-of-sight bit). A walkmesh this baker cannot bake gives `trx-unbakeable`
/// (a warning).
pub fn check_bake(trx: &Trx) -> Vec<areakit_formats::Finding> {
    use areakit_formats::{Finding, Place};
    let mut out = Vec::new();
    for (pi, p) in trx.packets.iter().enumerate() {
        let areakit_formats::trx::Packet::Aswm(a) = p else {
            continue;
        };
        let w = &a.walkmesh;
        if !w.is_baked() {
            continue;
        }
        let place = Place::default().item(format!("packets[{pi}]"));
        let mut baked = w.clone();
        if let Err(e) = bake_walkmesh(&mut baked) {
            // A limit of the bake, not a proof that the stored tables are broken (those are
            // the `trx-path-table-*` and `trx-island-*` errors of `trx::validate`).
            out.push(Finding::warning("trx-unbakeable", place, e.to_string()));
            continue;
        }
        let g = agreement(w, &baked);
        let mut parts = Vec::new();
        if g.path_next_same != g.path_entries {
            parts.push(format!(
                "{} of {} path-table next hops",
                g.path_entries - g.path_next_same,
                g.path_entries
            ));
        }
        if g.island_same != g.triangles {
            parts.push(format!(
                "{} of {} triangle islands",
                g.triangles - g.island_same,
                g.triangles
            ));
        }
        if g.islands_same != g.islands || w.islands.len() != baked.islands.len() {
            parts.push(format!(
                "islands ({} stored, {} computed, {} identical)",
                w.islands.len(),
                baked.islands.len(),
                g.islands_same
            ));
        }
        if g.island_path_same != g.island_path_entries {
            parts.push(format!(
                "{} of {} island path entries",
                g.island_path_entries - g.island_path_same,
                g.island_path_entries
            ));
        }
        if !parts.is_empty() {
            out.push(Finding::warning(
                "trx-stale-bake",
                place,
                format!(
                    "baked data differs from the geometry: {}; re-bake",
                    parts.join(", ")
                ),
            ));
        }
    }
    out
}
