//! A real Recast navmesh from areakit's walkable triangles: the tiled pipeline of RecastDemo's
//! `Sample_TileMesh::buildTileMesh`, then Detour's `dtCreateNavMeshData` per tile.
//!
//! Per tile: `rcCreateHeightfield` (the tile plus a border of [`BORDER`] cells) →
//! `rcRasterizeTriangles` (every triangle whose plan box meets the bordered tile, all marked
//! `RC_WALKABLE_AREA`: they are walkable ground by their material, so no slope test) →
//! `rcFilterLowHangingWalkableObstacles` + `rcFilterWalkableLowHeightSpans` (no ledge filter:
//! it marks every span on the edge of the ground as a ledge and would drop a cell all along
//! the boundary) → `rcBuildCompactHeightfield` → no erosion (radius 0) → `rcBuildDistanceField`
//! and `rcBuildRegions` (watershed) → `rcBuildContours` (wall edges tessellated) →
//! `rcBuildPolyMesh` (`nvp` ≤ 6) → `rcBuildPolyMeshDetail` → `dtCreateNavMeshData` → the
//! tile is added to one `dtNavMesh`. Vertex indices are 16-bit per tile, as Detour wants.
//!
//! Axes: ours are z-up; Recast/Detour are y-up (a point (x, y, z) of ours is (x, z, y)).

use crate::{DetourMesh, to_detour};
use areakit_geometry::Vec3;
use areakit_geometry::nav::Surface;
use recastnavigation_sys as dt;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Non-navigable border around each tile's heightfield, in cells: `walkableRadius + 3` as in
/// `Sample_TileMesh` (radius 0 here).
pub const BORDER: i32 = 3;

/// The Recast parameters, in world units unless said otherwise.
#[derive(Clone, Copy, Debug)]
pub struct RecastConfig {
    /// Cell size in plan (m).
    pub cs: f32,
    /// Cell height (m).
    pub ch: f32,
    /// Tile side in cells.
    pub tile_cells: i32,
    /// Agent height (m): the clearance a span needs above it (at least 3 cells).
    pub walkable_height: f32,
    /// The step between neighbouring spans that still joins them (m).
    pub walkable_climb: f32,
    /// Contour simplification: the most a simplified border may stray from the cells' outline,
    /// in cells.
    pub max_error: f32,
    /// Longest border edge (m); 0: no limit.
    pub max_edge_len: f32,
    /// Regions smaller than this (cells) are dropped when isolated.
    pub min_region_cells: i32,
    /// Regions smaller than this (cells) are merged into a neighbour when they can be.
    pub merge_region_cells: i32,
    /// Vertices per polygon (≤ 6, Detour's `DT_VERTS_PER_POLYGON`).
    pub nvp: i32,
    /// Detail mesh sampling distance (m); 0: no sampling inside polygons.
    pub detail_sample_dist: f32,
    /// The most the detail mesh may stray from the heightfield (m).
    pub detail_max_error: f32,
}

impl Default for RecastConfig {
    /// The bench's setting: cells of 0.1 × 0.05 m, 512-cell (51.2 m) tiles, RecastDemo's
    /// defaults for simplification (1.3 cells), edge length (12 m), region merging (20² cells),
    /// detail sampling (6 cells, 1 cell height); every island kept (no minimum region), no
    /// erosion, minimal agent height (3 cells), a climb of 1 m, `nvp = 6`.
    fn default() -> Self {
        RecastConfig {
            cs: 0.1,
            ch: 0.05,
            tile_cells: 512,
            walkable_height: 0.15,
            walkable_climb: 1.0,
            max_error: 1.3,
            max_edge_len: 12.0,
            min_region_cells: 0,
            merge_region_cells: 400,
            nvp: 6,
            detail_sample_dist: 0.6,
            detail_max_error: 0.05,
        }
    }
}

impl RecastConfig {
    /// The default with `RECAST_CS`, `RECAST_CH`, `RECAST_TILE` (cells), `RECAST_CLIMB`,
    /// `RECAST_MAX_ERROR` (cells), `RECAST_MERGE` (cells), `RECAST_MIN_REGION` (cells) and
    /// `RECAST_DETAIL_DIST` read from the environment when set.
    pub fn from_env() -> Self {
        fn var<T: std::str::FromStr>(name: &str, default: T) -> T {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(default)
        }
        let d = RecastConfig::default();
        let cs = var("RECAST_CS", d.cs);
        let ch = var("RECAST_CH", d.ch);
        RecastConfig {
            cs,
            ch,
            tile_cells: var("RECAST_TILE", d.tile_cells),
            walkable_height: 3.0 * ch,
            walkable_climb: var("RECAST_CLIMB", d.walkable_climb),
            max_error: var("RECAST_MAX_ERROR", d.max_error),
            merge_region_cells: var("RECAST_MERGE", d.merge_region_cells),
            min_region_cells: var("RECAST_MIN_REGION", d.min_region_cells),
            detail_sample_dist: var("RECAST_DETAIL_DIST", 6.0 * cs),
            detail_max_error: ch,
            ..d
        }
    }

    /// One line for reports.
    pub fn describe(&self) -> String {
        format!(
            "cs {} m, ch {} m, tile {} cells ({} m) + border {BORDER}, agent height {} m, climb {} m, no slope limit, radius 0, maxSimplificationError {} cells, maxEdgeLen {} m, minRegionArea {} cells, mergeRegionArea {} cells, nvp {}, detail sample {} m / max error {} m",
            self.cs,
            self.ch,
            self.tile_cells,
            self.tile_cells as f32 * self.cs,
            self.walkable_height,
            self.walkable_climb,
            self.max_error,
            self.max_edge_len,
            self.min_region_cells,
            self.merge_region_cells,
            self.nvp,
            self.detail_sample_dist,
            self.detail_max_error,
        )
    }
}

/// What a Recast build gave.
#[derive(Clone, Debug, Default)]
pub struct RecastStats {
    /// Wall time of the whole build (all tiles, Detour tiles included), one thread.
    pub build: Duration,
    /// Tiles in the grid over the mesh's plan box, tiles that got polygons.
    pub grid_tiles: usize,
    /// Tiles that got polygons.
    pub tiles: usize,
    /// Polygons in all.
    pub polygons: usize,
    /// Polygon vertices in all (per tile, so border vertices count once per tile).
    pub vertices: usize,
    /// Detail triangles in all.
    pub detail_triangles: usize,
    /// Tiles Recast or Detour refused (none expected).
    pub failed_tiles: usize,
}

/// The bounds (Detour axes) of the surface's non-skipped triangles.
fn bounds(s: &Surface, keep: &[u32]) -> ([f32; 3], [f32; 3]) {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for &t in keep {
        for &v in &s.triangles[t as usize] {
            let p = to_detour(s.vertices[v as usize]);
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
    }
    (lo, hi)
}

struct Owned<T> {
    ptr: *mut T,
    free: unsafe extern "C" fn(*mut T),
}

impl<T> Drop for Owned<T> {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from the matching rcAlloc*, freed once.
        unsafe { (self.free)(self.ptr) };
    }
}

fn owned<T>(ptr: *mut T, free: unsafe extern "C" fn(*mut T)) -> Owned<T> {
    assert!(!ptr.is_null(), "Recast allocation failed");
    Owned { ptr, free }
}

impl DetourMesh {
    /// Builds a tiled Recast navmesh from the triangles of `s` that `skip` leaves in (see the
    /// [module docs](self) for the pipeline). Panics when Detour cannot hold the tile grid.
    pub fn recast(
        s: &Surface,
        cfg: &RecastConfig,
        skip: impl Fn(u32) -> bool,
    ) -> (DetourMesh, RecastStats) {
        let start = Instant::now();
        let keep: Vec<u32> = (0..s.triangles.len() as u32)
            .filter(|&t| !skip(t))
            .collect();
        let verts: Vec<f32> = s.vertices.iter().flat_map(|&v| to_detour(v)).collect();
        let (mut bmin, mut bmax) = bounds(s, &keep);
        // A little room above and below (the heightfield's spans end on whole cells).
        bmin[1] -= 2.0 * cfg.ch;
        bmax[1] += 2.0 * cfg.ch;
        assert!(
            (bmax[1] - bmin[1]) / cfg.ch < dt::RC_SPAN_MAX_HEIGHT as f32,
            "height range {} m does not fit Recast's 13-bit spans at ch = {}",
            bmax[1] - bmin[1],
            cfg.ch
        );
        let tile_size = cfg.tile_cells as f32 * cfg.cs;
        let tw = (((bmax[0] - bmin[0]) / tile_size).ceil() as i32).max(1);
        let th = (((bmax[2] - bmin[2]) / tile_size).ceil() as i32).max(1);

        // Triangles by tile: every tile whose bordered box meets the triangle's plan box.
        let pad = BORDER as f32 * cfg.cs;
        let mut by_tile: HashMap<(i32, i32), Vec<i32>> = HashMap::new();
        for &t in &keep {
            let tri = s.triangles[t as usize];
            let (mut x0, mut x1, mut z0, mut z1) = (
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::INFINITY,
                f32::NEG_INFINITY,
            );
            for &v in &tri {
                let p = s.vertices[v as usize];
                x0 = x0.min(p.x);
                x1 = x1.max(p.x);
                z0 = z0.min(p.y);
                z1 = z1.max(p.y);
            }
            let tx0 = (((x0 - pad - bmin[0]) / tile_size).floor() as i32).max(0);
            let tx1 = (((x1 + pad - bmin[0]) / tile_size).floor() as i32).min(tw - 1);
            let ty0 = (((z0 - pad - bmin[2]) / tile_size).floor() as i32).max(0);
            let ty1 = (((z1 + pad - bmin[2]) / tile_size).floor() as i32).min(th - 1);
            for ty in ty0..=ty1 {
                for tx in tx0..=tx1 {
                    by_tile
                        .entry((tx, ty))
                        .or_default()
                        .extend(tri.map(|i| i as i32));
                }
            }
        }

        // Polygon references: tile bits and polygon bits share 22 bits (RecastDemo's split).
        let tile_bits = ((tw * th) as u32).next_power_of_two().ilog2().min(14);
        let poly_bits = 22 - tile_bits;
        let params = dt::dtNavMeshParams {
            orig: bmin,
            tileWidth: tile_size,
            tileHeight: tile_size,
            maxTiles: 1 << tile_bits,
            maxPolys: 1 << poly_bits,
        };
        // SAFETY: plain Detour allocation and initialisation; checked.
        let mesh = unsafe { dt::dtAllocNavMesh() };
        assert!(!mesh.is_null());
        let status = unsafe { (*mesh).init(&params) };
        assert!(
            status & dt::DT_SUCCESS != 0,
            "dtNavMesh::init failed ({status:#x})"
        );
        let mut out = DetourMesh {
            mesh,
            triangle_of: HashMap::new(),
            tiles: 0,
            max_tile_vertices: 0,
            max_tile_polygons: 0,
            polygons: 0,
        };
        let mut stats = RecastStats {
            grid_tiles: (tw * th) as usize,
            ..Default::default()
        };
        // SAFETY: CreateContext/DeleteContext pair (a context without logs or timers).
        let ctx = unsafe { dt::CreateContext(false) };
        assert!(!ctx.is_null());
        let mut keys: Vec<_> = by_tile.keys().copied().collect();
        keys.sort_unstable();
        for key in keys {
            let tris = &by_tile[&key];
            match build_tile(ctx, &verts, tris, cfg, bmin, bmax, key) {
                Some(Some((data, size, npolys, nverts, ntris))) => {
                    // SAFETY: `data` comes from dtCreateNavMeshData; the mesh frees it.
                    let status = unsafe {
                        (*mesh).addTile(
                            data,
                            size,
                            dt::dtTileFlags_DT_TILE_FREE_DATA as i32,
                            0,
                            std::ptr::null_mut(),
                        )
                    };
                    if status & dt::DT_SUCCESS == 0 {
                        // SAFETY: not taken by the mesh.
                        unsafe { dt::dtFree(data.cast()) };
                        stats.failed_tiles += 1;
                        continue;
                    }
                    stats.tiles += 1;
                    stats.polygons += npolys;
                    stats.vertices += nverts;
                    stats.detail_triangles += ntris;
                    out.tiles += 1;
                    out.polygons += npolys;
                    out.max_tile_polygons = out.max_tile_polygons.max(npolys);
                    out.max_tile_vertices = out.max_tile_vertices.max(nverts);
                }
                Some(None) => {} // nothing walkable in the tile
                None => stats.failed_tiles += 1,
            }
        }
        // SAFETY: from CreateContext above.
        unsafe { dt::DeleteContext(ctx) };
        stats.build = start.elapsed();
        (out, stats)
    }
}

/// One tile: `Some(None)` when it holds no polygon, `None` when a step failed.
#[allow(clippy::type_complexity)]
fn build_tile(
    ctx: *mut dt::rcContext,
    verts: &[f32],
    tris: &[i32],
    cfg: &RecastConfig,
    bmin: [f32; 3],
    bmax: [f32; 3],
    (tx, ty): (i32, i32),
) -> Option<Option<(*mut u8, i32, usize, usize, usize)>> {
    let tile_size = cfg.tile_cells as f32 * cfg.cs;
    let pad = BORDER as f32 * cfg.cs;
    let tmin = [
        bmin[0] + tx as f32 * tile_size - pad,
        bmin[1],
        bmin[2] + ty as f32 * tile_size - pad,
    ];
    let tmax = [
        bmin[0] + (tx + 1) as f32 * tile_size + pad,
        bmax[1],
        bmin[2] + (ty + 1) as f32 * tile_size + pad,
    ];
    let side = cfg.tile_cells + 2 * BORDER;
    let walkable_height = ((cfg.walkable_height / cfg.ch).ceil() as i32).max(3);
    let walkable_climb = (cfg.walkable_climb / cfg.ch).floor() as i32;
    let ntris = (tris.len() / 3) as i32;
    let areas = vec![dt::RC_WALKABLE_AREA; ntris as usize];
    // SAFETY: every Recast call below gets live, initialised structures (allocated here,
    // freed by `Owned`), arrays of the lengths announced, and the context made by the caller.
    unsafe {
        let solid = owned(dt::rcAllocHeightfield(), dt::rcFreeHeightField);
        if !dt::rcCreateHeightfield(
            ctx,
            solid.ptr,
            side,
            side,
            tmin.as_ptr(),
            tmax.as_ptr(),
            cfg.cs,
            cfg.ch,
        ) {
            return None;
        }
        if !dt::rcRasterizeTriangles(
            ctx,
            verts.as_ptr(),
            (verts.len() / 3) as i32,
            tris.as_ptr(),
            areas.as_ptr(),
            ntris,
            solid.ptr,
            walkable_climb,
        ) {
            return None;
        }
        dt::rcFilterLowHangingWalkableObstacles(ctx, walkable_climb, solid.ptr);
        dt::rcFilterWalkableLowHeightSpans(ctx, walkable_height, solid.ptr);
        let chf = owned(
            dt::rcAllocCompactHeightfield(),
            dt::rcFreeCompactHeightfield,
        );
        if !dt::rcBuildCompactHeightfield(ctx, walkable_height, walkable_climb, solid.ptr, chf.ptr)
        {
            return None;
        }
        drop(solid);
        if (*chf.ptr).spanCount == 0 {
            return Some(None);
        }
        if !dt::rcBuildDistanceField(ctx, chf.ptr) {
            return None;
        }
        if !dt::rcBuildRegions(
            ctx,
            chf.ptr,
            BORDER,
            cfg.min_region_cells,
            cfg.merge_region_cells,
        ) {
            return None;
        }
        let cset = owned(dt::rcAllocContourSet(), dt::rcFreeContourSet);
        if !dt::rcBuildContours(
            ctx,
            chf.ptr,
            cfg.max_error,
            (cfg.max_edge_len / cfg.cs) as i32,
            cset.ptr,
            dt::rcBuildContoursFlags_RC_CONTOUR_TESS_WALL_EDGES as i32,
        ) {
            return None;
        }
        if (*cset.ptr).nconts == 0 {
            return Some(None);
        }
        let pmesh = owned(dt::rcAllocPolyMesh(), dt::rcFreePolyMesh);
        if !dt::rcBuildPolyMesh(ctx, cset.ptr, cfg.nvp, pmesh.ptr) {
            return None;
        }
        let dmesh = owned(dt::rcAllocPolyMeshDetail(), dt::rcFreePolyMeshDetail);
        if !dt::rcBuildPolyMeshDetail(
            ctx,
            pmesh.ptr,
            chf.ptr,
            cfg.detail_sample_dist,
            cfg.detail_max_error,
            dmesh.ptr,
        ) {
            return None;
        }
        drop(chf);
        drop(cset);
        let pm = &mut *pmesh.ptr;
        let dm = &*dmesh.ptr;
        if pm.npolys == 0 {
            return Some(None);
        }
        if pm.nverts >= 0xffff {
            return None;
        }
        // Area ids as RecastDemo maps them: walkable → area 0 ("ground"), flag 1.
        for i in 0..pm.npolys as usize {
            if *pm.areas.add(i) == dt::RC_WALKABLE_AREA {
                *pm.areas.add(i) = 0;
            }
            *pm.flags.add(i) = 1;
        }
        let mut create = dt::dtNavMeshCreateParams {
            verts: pm.verts,
            vertCount: pm.nverts,
            polys: pm.polys,
            polyFlags: pm.flags,
            polyAreas: pm.areas,
            polyCount: pm.npolys,
            nvp: pm.nvp,
            detailMeshes: dm.meshes,
            detailVerts: dm.verts,
            detailVertsCount: dm.nverts,
            detailTris: dm.tris,
            detailTriCount: dm.ntris,
            offMeshConVerts: std::ptr::null(),
            offMeshConRad: std::ptr::null(),
            offMeshConFlags: std::ptr::null(),
            offMeshConAreas: std::ptr::null(),
            offMeshConDir: std::ptr::null(),
            offMeshConUserID: std::ptr::null(),
            offMeshConCount: 0,
            userId: 0,
            tileX: tx,
            tileY: ty,
            tileLayer: 0,
            bmin: pm.bmin,
            bmax: pm.bmax,
            walkableHeight: cfg.walkable_height,
            walkableRadius: 0.0,
            walkableClimb: cfg.walkable_climb,
            cs: cfg.cs,
            ch: cfg.ch,
            buildBvTree: true,
        };
        let mut data: *mut u8 = std::ptr::null_mut();
        let mut size = 0i32;
        if !dt::dtCreateNavMeshData(&mut create, &mut data, &mut size) {
            return None;
        }
        Some(Some((
            data,
            size,
            pm.npolys as usize,
            pm.nverts as usize,
            dm.ntris as usize,
        )))
    }
}

/// The ground of a Detour mesh as triangles (Detour axes): every ground polygon's detail
/// triangles, tile by tile.
pub fn detour_triangles(m: &DetourMesh) -> Vec<[[f32; 3]; 3]> {
    let mut out = Vec::new();
    // SAFETY: read-only walk over the tiles the mesh holds; indices as Detour stores them.
    unsafe {
        let nav = &*m.mesh;
        for i in 0..nav.getMaxTiles() {
            let tile = nav.getTile(i);
            if tile.is_null() || (*tile).header.is_null() {
                continue;
            }
            let t = &*tile;
            for p in 0..(*t.header).polyCount as usize {
                let poly = &*t.polys.add(p);
                if poly.areaAndtype >> 6 != dt::dtPolyTypes_DT_POLYTYPE_GROUND as u8 {
                    continue;
                }
                let pd = &*t.detailMeshes.add(p);
                let vertex = |k: u8| -> [f32; 3] {
                    let at = if k < poly.vertCount {
                        t.verts.add(3 * poly.verts[k as usize] as usize)
                    } else {
                        t.detailVerts
                            .add(3 * (pd.vertBase as usize + (k - poly.vertCount) as usize))
                    };
                    [*at, *at.add(1), *at.add(2)]
                };
                for j in 0..pd.triCount as usize {
                    let tri = t.detailTris.add(4 * (pd.triBase as usize + j));
                    out.push([vertex(*tri), vertex(*tri.add(1)), vertex(*tri.add(2))]);
                }
            }
        }
    }
    out
}

/// Plan area (x, z in Detour axes) of a triangle.
pub fn plan_area_detour(t: &[[f32; 3]; 3]) -> f64 {
    let [a, b, c] = t.map(|p| [f64::from(p[0]), f64::from(p[2])]);
    0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])).abs()
}

/// `n` points spread over triangles in proportion to their plan area (`area[i]` of `tri(i)`),
/// from a xorshift stream seeded with `seed`; each point in our axes.
pub fn sample_by_area(
    areas: &[f64],
    tri: impl Fn(usize) -> [Vec3; 3],
    n: usize,
    seed: u64,
) -> Vec<Vec3> {
    let mut cum = Vec::with_capacity(areas.len());
    let mut total = 0.0;
    for &a in areas {
        total += a;
        cum.push(total);
    }
    let mut state = seed.max(1);
    let mut unit = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..n)
        .map(|_| {
            let r = unit() * total;
            let i = cum.partition_point(|&c| c <= r).min(areas.len() - 1);
            let [a, b, c] = tri(i).map(|v| v.as_dvec3());
            let (mut u, mut v) = (unit(), unit());
            if u + v > 1.0 {
                u = 1.0 - u;
                v = 1.0 - v;
            }
            (a + (b - a) * u + (c - a) * v).as_vec3()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Query;

    /// A 10 × 10 m square of unit cells around a 4 × 4 m hole (cells 3..7), gently sloped,
    /// through Recast in 3.2 m tiles: Detour joins the two sides of the hole around it, about
    /// as long as the shortest way (via the hole's corners), and the navmesh covers the
    /// square's area less the hole's.
    #[test]
    fn recast_navmesh_goes_around_the_hole() {
        let mut vertices = Vec::new();
        for j in 0..=10 {
            for i in 0..=10 {
                vertices.push(Vec3::new(i as f32, j as f32, 0.02 * i as f32));
            }
        }
        let vid = |i: u32, j: u32| j * 11 + i;
        let mut triangles = Vec::new();
        for j in 0..10 {
            for i in 0..10 {
                if (3..7).contains(&i) && (3..7).contains(&j) {
                    continue;
                }
                let (a, b, c, d) = (vid(i, j), vid(i + 1, j), vid(i + 1, j + 1), vid(i, j + 1));
                triangles.extend([[a, b, c], [a, c, d]]);
            }
        }
        let s = Surface {
            regions: vec![0; triangles.len()],
            vertices,
            triangles,
            links: Vec::new(),
        };
        let cfg = RecastConfig {
            tile_cells: 32,
            ..RecastConfig::default()
        };
        let (mesh, stats) = DetourMesh::recast(&s, &cfg, |_| false);
        assert_eq!(stats.failed_tiles, 0);
        assert!(stats.tiles > 4, "{stats:?}");
        assert!(
            stats.polygons < 200,
            "merged polygons, not cells: {stats:?}"
        );
        let area: f64 = detour_triangles(&mesh).iter().map(plan_area_detour).sum();
        assert!((area - 84.0).abs() < 0.03 * 84.0, "navmesh area {area}");

        let mut q = Query::with_half_extents(&mesh, 0.5, 1.0);
        let (pa, pb) = (Vec3::new(1.0, 5.0, 0.02), Vec3::new(9.0, 5.0, 0.18));
        assert!(q.height_gap(pa, 0.25).is_some());
        assert!(
            q.height_gap(Vec3::new(5.0, 5.0, 0.1), 0.25).is_none(),
            "the hole"
        );
        let a = q.locate(pa).expect("start");
        let b = q.locate(pb).expect("goal");
        let o = q.path(&a, &b);
        assert!(o.complete);
        let shortest = 4.0 + 2.0 * 8f32.sqrt();
        assert!(
            (o.length_plan - shortest).abs() < 0.03 * shortest,
            "{} vs {shortest}",
            o.length_plan
        );
        assert!(o.points >= 4, "turns at both corners: {} points", o.points);
    }
}
