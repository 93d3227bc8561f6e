//! Baking the ground of an NWN2 area from its terrain and its GIT: the walkmesh cutters cut
//! out, the map border stripped, and the result laid out as the toolset lays out a TRX.
//!
//! What the real files show (`docs/formats/nwn2-trx.md`, "Baking from a GIT"), and so what
//! [`cut_walkmesh`] does:
//! - every triangle, walkable or not, is clipped against every cutter; the parts inside are
//!   removed from the triangle list, the new vertices lie on the cut triangle's plane;
//! - a cut triangle is replaced in place by its pieces, so the TRN order stays within a tile;
//! - every triangle is wound clockwise in plan and flagged `0x04`, its third vertex the one
//!   with the greatest y (ties: greatest x); flags, normal and plane distance are the
//!   parent's;
//! - vertices are welded (no two share a position), edges and neighbour links rebuilt from
//!   shared vertex pairs; tile path tables, islands and island paths are left for the bake
//!   proper (`areakit_app::bake`).

use std::collections::HashMap;

use areakit_formats::trx::{Edge, Triangle, Walkmesh, raw};
use areakit_geometry::cut::{self, CutError, CutOptions, FillRule};
use areakit_geometry::nwn2_bake as nb;

use crate::nwn2_git::Nwn2Git;

/// What the cut did.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct CutReport {
    /// Triangles before and after.
    pub triangles_before: usize,
    /// Triangles after.
    pub triangles_after: usize,
    /// Walkable plan area before (m²).
    pub walkable_area_before: f64,
    /// Walkable plan area after (m²).
    pub walkable_area_after: f64,
    /// Triangles cut into pieces (some kept).
    pub triangles_cut: usize,
    /// Triangles removed whole.
    pub triangles_removed: usize,
    /// Pieces too thin to survive rounding to `f32`, dropped.
    pub slivers_dropped: usize,
    /// The tiles cut with points welded at 0.1 m as the toolset welds ([`cut::NWN2_WELD`]),
    /// because cut exactly they would hold more walkable triangles than a path table indexes
    /// (127). Elsewhere the cut is exact.
    pub welded_tiles: Vec<usize>,
    /// The weld distance used in those tiles (m; 0 when none): 0.1, or 0.2 or 0.4 where 0.1
    /// was not enough.
    pub weld: f64,
    /// Border size in tiles and the plan area the border strip removed.
    pub border: Option<BorderReport>,
    /// The placed walkmeshes put in.
    pub objects: Vec<PlacedReport>,
    /// Every cutter of the GIT that cut (or could have): what it removed.
    pub cutters: Vec<CutterReport>,
}

/// The map border strip.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BorderReport {
    /// Border size in tiles.
    pub tiles: u32,
    /// Plan area removed (m²).
    pub area_removed: f64,
}

/// One cutter.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CutterReport {
    /// Index in the GIT's `TriggerList`.
    pub index: usize,
    /// Its tag.
    pub tag: String,
    /// Its position.
    pub position: [f32; 3],
    /// Corners.
    pub corners: usize,
    /// Plan area it removed (m², walkable or not; ground under two cutters counts for the
    /// first).
    pub area_removed: f64,
    /// Why it cut nothing, when it could not: `"fewer than 3 corners"`.
    pub ignored: Option<&'static str>,
    /// Its orientation, when not zero: no real file shows how the toolset applies one, so the
    /// corners are used as they stand.
    pub orientation_not_applied: Option<[f32; 3]>,
}

/// Cuts `w` by the cutters of `git` (and strips its border), laying the result out as a TRX
/// (see the module docs). Tables that depend on the triangle list (tiles' path tables,
/// islands) are cleared for the bake.
pub fn cut_walkmesh(w: &Walkmesh, git: &Nwn2Git) -> Result<(Walkmesh, CutReport), CutError> {
    cut_walkmesh_placing(w, git, &[])
}

/// A placed object's walkmesh in area space: its triangles (corners) with their TRX flags.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PlacedWalk {
    /// Index of the object in [`Nwn2Git::objects`].
    pub object: usize,
    /// The triangles and their flags (walkable bit and surface materials).
    pub triangles: Vec<([[f32; 3]; 3], u16)>,
}

/// What a placed walkmesh did.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PlacedReport {
    /// Index of the object in the GIT's objects.
    pub object: usize,
    /// Triangles added.
    pub triangles: usize,
    /// Plan area of the ground under it that was removed (m²).
    pub area_removed: f64,
}

/// [`cut_walkmesh`], then `placed` walkmeshes put in: the ground under each (the plan
/// footprint of its triangles, walkable or not) is cut away like a cutter's, and its
/// triangles are added with their own flags. Their vertices are welded to the ground's only
/// where they coincide exactly, so an object's walkmesh links to the ground there alone.
pub fn cut_walkmesh_placing(
    w: &Walkmesh,
    git: &Nwn2Git,
    placed: &[PlacedWalk],
) -> Result<(Walkmesh, CutReport), CutError> {
    let mut cutters: Vec<cut::Cutter> = Vec::new();
    let mut reports = Vec::new();
    for c in &git.cutters {
        reports.push(CutterReport {
            index: c.index,
            tag: c.tag.clone(),
            position: c.position,
            corners: c.corners.len(),
            area_removed: 0.0,
            ignored: (!c.cuts()).then_some("fewer than 3 corners"),
            orientation_not_applied: (c.orientation != [0.0; 3]).then_some(c.orientation),
        });
        cutters.push(cut::Cutter {
            ring: c.corners.iter().map(|p| p.map(f64::from)).collect(),
        });
    }
    let first_border = cutters.len();
    cutters.extend(border_cutters(w));
    let first_object = cutters.len();
    let mut object_of: Vec<usize> = Vec::new();
    for (k, p) in placed.iter().enumerate() {
        for (t, _) in &p.triangles {
            let ring: Vec<[f64; 2]> = t
                .iter()
                .map(|v| [f64::from(v[0]), f64::from(v[1])])
                .collect();
            cutters.push(cut::Cutter { ring });
            object_of.push(k);
        }
    }
    let tris: Vec<[u32; 3]> = w.triangles.iter().map(|t| t.vertices).collect();
    let tile = tiles_of(w);
    let exact = CutOptions {
        fill: FillRule::NonZero,
        weld: 0.0,
    };
    let mut m = cut::cut(&w.vertices, &tris, |_| true, &cutters, &exact)?;
    // Tiles that cut exactly hold more walkable triangles than a path table indexes are cut
    // again welded, at the toolset's distance, then at twice and four times it.
    let mut crowded = crowded_tiles(w, &m, &tile);
    let mut welded_tiles = Vec::new();
    let mut weld = 0.0;
    for factor in [1.0, 2.0, 4.0] {
        if crowded.is_empty() {
            break;
        }
        welded_tiles.extend(crowded.iter().copied());
        welded_tiles.sort_unstable();
        welded_tiles.dedup();
        let welds: Vec<bool> = (0..w.tiles.len().max(1))
            .map(|t| welded_tiles.binary_search(&t).is_ok())
            .collect();
        weld = cut::NWN2_WELD * factor;
        let options = CutOptions { weld, ..exact };
        let in_welded = |t: usize| welds.get(tile[t]).copied().unwrap_or(false);
        m = cut::cut_welding(&w.vertices, &tris, |_| true, in_welded, &cutters, &options)?;
        crowded = crowded_tiles(w, &m, &tile);
    }
    for (r, a) in reports.iter_mut().zip(&m.removed_area) {
        r.area_removed = *a;
    }
    let border = (first_border < first_object).then(|| BorderReport {
        tiles: w.border_size,
        area_removed: m.removed_area[first_border..first_object].iter().sum(),
    });
    let mut objects: Vec<PlacedReport> = placed
        .iter()
        .map(|p| PlacedReport {
            object: p.object,
            triangles: p.triangles.len(),
            area_removed: 0.0,
        })
        .collect();
    for (a, &k) in m.removed_area[first_object..].iter().zip(&object_of) {
        objects[k].area_removed += a;
    }
    let mut out = lay_out(w, &m, &tile);
    if !placed.is_empty() {
        out = with_placed(&out, placed);
    }
    let report = CutReport {
        triangles_before: w.triangles.len(),
        triangles_after: out.triangles.len(),
        walkable_area_before: walkable_area(w),
        walkable_area_after: walkable_area(&out),
        triangles_cut: m.cut,
        triangles_removed: m.removed,
        slivers_dropped: m.slivers,
        welded_tiles,
        weld,
        objects,
        border,
        cutters: reports,
    };
    Ok((out, report))
}

/// The tiles whose walkable triangles after the cut `m` outnumber what a path table holds.
fn crowded_tiles(w: &Walkmesh, m: &cut::CutMesh, tile: &[usize]) -> Vec<usize> {
    let mut count = vec![0usize; w.tiles.len()];
    for &p in &m.parent {
        let p = p as usize;
        if w.triangles[p].is_walkable() {
            if let Some(c) = count.get_mut(tile[p]) {
                *c += 1;
            }
        }
    }
    (0..count.len())
        .filter(|&t| count[t] > nb::MAX_TILE_NODES)
        .collect()
}

/// Four rectangles covering everything outside the inner rectangle of a walkmesh whose
/// border is `border_size` tiles wide (none for a border of 0, as in every real file).
fn border_cutters(w: &Walkmesh) -> Vec<cut::Cutter> {
    let b = f64::from(w.border_size) * f64::from(w.tile_width);
    if b <= 0.0 {
        return Vec::new();
    }
    let (gw, gh) = (
        f64::from(w.grid_width) * f64::from(w.tile_width),
        f64::from(w.grid_height) * f64::from(w.tile_width),
    );
    let mut lo = [0.0f64, 0.0];
    let mut hi = [gw, gh];
    for v in &w.vertices {
        for a in 0..2 {
            lo[a] = lo[a].min(f64::from(v[a]));
            hi[a] = hi[a].max(f64::from(v[a]));
        }
    }
    let (lo, hi) = ([lo[0] - 1.0, lo[1] - 1.0], [hi[0] + 1.0, hi[1] + 1.0]);
    let (x0, y0, x1, y1) = (b, b, gw - b, gh - b);
    let rect = |a: [f64; 2], c: [f64; 2]| cut::Cutter {
        ring: vec![a, [c[0], a[1]], c, [a[0], c[1]]],
    };
    vec![
        rect(lo, [hi[0], y0]),
        rect([lo[0], y1], hi),
        rect([lo[0], y0], [x0, y1]),
        rect([x1, y0], [hi[0], y1]),
    ]
}

fn plan_area(v: &[[f32; 3]], t: [u32; 3]) -> f64 {
    let p = |i: u32| [f64::from(v[i as usize][0]), f64::from(v[i as usize][1])];
    let (a, b, c) = (p(t[0]), p(t[1]), p(t[2]));
    ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2.0
}

/// Walkable plan area (m²).
pub fn walkable_area(w: &Walkmesh) -> f64 {
    w.triangles
        .iter()
        .filter(|t| t.is_walkable())
        .map(|t| plan_area(&w.vertices, t.vertices).abs())
        .sum()
}

/// The cut mesh as a walkmesh: triangles grouped by tile (stable), wound and flagged as a TRX,
/// vertices compacted, edges and links rebuilt.
fn lay_out(w: &Walkmesh, m: &cut::CutMesh, parent_tile: &[usize]) -> Walkmesh {
    let mut order: Vec<usize> = (0..m.triangles.len()).collect();
    let tile_of = |i: usize| parent_tile[m.parent[i] as usize];
    order.sort_by_key(|&i| tile_of(i));
    let mut vertex_map: Vec<u32> = vec![raw::NONE_U32; m.vertices.len()];
    let mut used: Vec<u32> = m.triangles.iter().flatten().copied().collect();
    used.sort_unstable();
    used.dedup();
    let vertices: Vec<[f32; 3]> = used.iter().map(|&v| m.vertices[v as usize]).collect();
    for (new, &old) in used.iter().enumerate() {
        vertex_map[old as usize] = new as u32;
    }
    let mut triangles: Vec<Triangle> = order
        .iter()
        .map(|&i| {
            let parent = &w.triangles[m.parent[i] as usize];
            let v = clockwise(&vertices, m.triangles[i].map(|k| vertex_map[k as usize]));
            Triangle {
                vertices: v,
                linked_edges: [raw::NONE_U32; 3],
                linked_triangles: [raw::NONE_U32; 3],
                center: center(&vertices, v),
                normal: parent.normal,
                dot_product: parent.dot_product,
                island: raw::NONE_U16,
                flags: parent.flags | raw::FLAG_CLOCKWISE,
            }
        })
        .collect();
    let edges = link(&mut triangles);
    let mut out = w.clone();
    out.vertices = vertices;
    out.edges = edges;
    let tile_counts = order.iter().fold(vec![0u32; w.tiles.len()], |mut c, &i| {
        if let Some(n) = c.get_mut(tile_of(i)) {
            *n += 1;
        }
        c
    });
    out.triangles = triangles;
    set_tiles(&mut out, &tile_counts);
    out
}

/// Sets each tile's triangle range from the number of triangles it owns (the triangles are
/// grouped by tile) and clears the tables the bake recomputes.
fn set_tiles(out: &mut Walkmesh, counts: &[u32]) {
    let mut offset = 0;
    for (tile, &n) in out.tiles.iter_mut().zip(counts) {
        tile.triangles_offset = offset;
        tile.triangle_count = n;
        tile.path_table = Default::default();
        offset += n;
    }
    out.islands.clear();
    out.island_paths.clear();
}

/// A walkmesh on the grid of `base` (its header, tile width, grid, tile names and border
/// kept) holding `triangles` (vertex indices into `vertices`, with their flags), laid out as
/// a TRX: each triangle owned by the tile of its centre (stable), wound clockwise with
/// `0x04`, its normal the upward one of its plane (a wall's as its corners turn) and its plane
/// distance `-n·v0`, links rebuilt. Path tables and islands are left for the bake.
///
/// A triangle that crosses a tile line is owned by its centre's tile (the toolset splits
/// geometry at tile lines; this does not).
pub fn walkmesh_of_triangles(
    base: &Walkmesh,
    vertices: Vec<[f32; 3]>,
    triangles: &[([u32; 3], u16)],
) -> Walkmesh {
    let mut tris: Vec<(usize, Triangle)> = triangles
        .iter()
        .map(|&(t, flags)| {
            let v = clockwise(&vertices, t);
            let c = center(&vertices, v);
            let (normal, dot_product) = plane(&vertices, t);
            let tri = Triangle {
                vertices: v,
                linked_edges: [raw::NONE_U32; 3],
                linked_triangles: [raw::NONE_U32; 3],
                center: c,
                normal,
                dot_product,
                island: raw::NONE_U16,
                flags: flags | raw::FLAG_CLOCKWISE,
            };
            (
                nb::tile_of(c, base.tile_width, base.grid_width, base.grid_height),
                tri,
            )
        })
        .collect();
    tris.sort_by_key(|x| x.0);
    let mut out = base.clone();
    let mut counts = vec![0u32; out.tiles.len()];
    for (t, _) in &tris {
        if let Some(c) = counts.get_mut(*t) {
            *c += 1;
        }
    }
    out.triangles = tris.into_iter().map(|x| x.1).collect();
    out.edges = link(&mut out.triangles);
    out.vertices = vertices;
    set_tiles(&mut out, &counts);
    out
}

/// `ground` with the placed walkmeshes' triangles added (vertices welded where they
/// coincide exactly), laid out again ([`walkmesh_of_triangles`]).
fn with_placed(ground: &Walkmesh, placed: &[PlacedWalk]) -> Walkmesh {
    let mut vertices = ground.vertices.clone();
    let mut at: HashMap<[u32; 3], u32> = HashMap::new();
    for (i, v) in vertices.iter().enumerate() {
        at.entry(v.map(|c| (c + 0.0).to_bits())).or_insert(i as u32);
    }
    let mut tris: Vec<([u32; 3], u16)> = ground
        .triangles
        .iter()
        .map(|t| (t.vertices, t.flags & !raw::FLAG_CLOCKWISE))
        .collect();
    for p in placed {
        for (t, flags) in &p.triangles {
            let ids = t.map(|v| {
                *at.entry(v.map(|c| (c + 0.0).to_bits())).or_insert_with(|| {
                    vertices.push(v);
                    (vertices.len() - 1) as u32
                })
            });
            if ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2] {
                tris.push((ids, *flags));
            }
        }
    }
    walkmesh_of_triangles(ground, vertices, &tris)
}

/// The unit normal of a triangle's plane, upward for ground (counter-clockwise in plan), and
/// its plane distance `-n·v0` (as the toolset stores them).
fn plane(v: &[[f32; 3]], t: [u32; 3]) -> ([f32; 3], f32) {
    let t = if plan_area(v, t) < 0.0 {
        [t[0], t[2], t[1]]
    } else {
        t
    };
    let [a, b, c] = t.map(|i| v[i as usize].map(f64::from));
    let (u, w) = (
        [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
        [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
    );
    let n = [
        u[1] * w[2] - u[2] * w[1],
        u[2] * w[0] - u[0] * w[2],
        u[0] * w[1] - u[1] * w[0],
    ];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len == 0.0 || !len.is_finite() {
        return ([0.0, 0.0, 1.0], -(a[2] as f32));
    }
    let n = n.map(|x| x / len);
    let d = -(n[0] * a[0] + n[1] * a[1] + n[2] * a[2]);
    (n.map(|x| x as f32), d as f32)
}

/// The tile of each input triangle: the tile whose range holds it, else by its centre.
fn tiles_of(w: &Walkmesh) -> Vec<usize> {
    let mut tile = vec![usize::MAX; w.triangles.len()];
    for (ti, t) in w.tiles.iter().enumerate() {
        let r = t.triangle_range();
        if r.end <= w.triangles.len() as u64 {
            for slot in &mut tile[r.start as usize..r.end as usize] {
                *slot = ti;
            }
        }
    }
    for (slot, t) in tile.iter_mut().zip(&w.triangles) {
        if *slot == usize::MAX {
            *slot = nb::tile_of(t.center, w.tile_width, w.grid_width, w.grid_height);
        }
    }
    tile
}

/// `t` wound clockwise in plan (a flat one as it is), rotated so that its third vertex has
/// the greatest y (ties: the greatest x), as in the toolset's TRX files.
fn clockwise(v: &[[f32; 3]], t: [u32; 3]) -> [u32; 3] {
    let t = if plan_area(v, t) > 0.0 {
        [t[0], t[2], t[1]]
    } else {
        t
    };
    let key = |i: u32| (v[i as usize][1], v[i as usize][0]);
    let top = (0..3)
        .max_by(|&a, &b| {
            key(t[a])
                .partial_cmp(&key(t[b]))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .unwrap_or(2);
    [t[(top + 1) % 3], t[(top + 2) % 3], t[top]]
}

fn center(v: &[[f32; 3]], t: [u32; 3]) -> [f32; 2] {
    let [a, b, c] = t.map(|i| v[i as usize]);
    [(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0]
}

/// Rebuilds the edge list and every triangle's `linked_edges` / `linked_triangles` from shared
/// vertex pairs: slot `k` is the side from vertex `k` to vertex `k + 1`; edges in order of
/// first use. A side a third triangle shares gets an edge of its own, linked to nothing.
fn link(triangles: &mut [Triangle]) -> Vec<Edge> {
    let mut edges: Vec<Edge> = Vec::new();
    let mut by_pair: HashMap<(u32, u32), u32> = HashMap::new();
    for ti in 0..triangles.len() {
        for k in 0..3 {
            let (a, b) = (
                triangles[ti].vertices[k],
                triangles[ti].vertices[(k + 1) % 3],
            );
            let key = (a.min(b), a.max(b));
            let e = match by_pair.get(&key) {
                Some(&e) if edges[e as usize].triangles[1] == raw::NONE_U32 => {
                    let other = edges[e as usize].triangles[0];
                    edges[e as usize].triangles[1] = ti as u32;
                    if let Some(slot) =
                        (0..3).find(|&s| triangles[other as usize].linked_edges[s] == e)
                    {
                        triangles[other as usize].linked_triangles[slot] = ti as u32;
                    }
                    triangles[ti].linked_triangles[k] = other;
                    e
                }
                _ => {
                    edges.push(Edge {
                        vertices: [key.0, key.1],
                        triangles: [ti as u32, raw::NONE_U32],
                    });
                    let e = (edges.len() - 1) as u32;
                    by_pair.entry(key).or_insert(e);
                    e
                }
            };
            triangles[ti].linked_edges[k] = e;
        }
    }
    edges
}
