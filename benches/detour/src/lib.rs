//! Recast/Detour (through the raw `recastnavigation-sys` FFI) over areakit's own triangles, for
//! the navigation benchmark `benches/detour.rs`.
//!
//! Each walkable triangle becomes one Detour polygon (`nvp = 3`), its neighbours the triangles
//! that share its sides; the poly mesh is filled by hand (no Recast voxelisation), the detail
//! mesh is the triangle itself, and the tile's float vertices are the exact triangle corners
//! (the 16-bit quantised vertices that `dtCreateNavMeshData` reads are overwritten before the
//! tile is added). Detour indexes a tile's vertices with 16 bits, so a big mesh is first cut on
//! an axis-aligned grid ([`cut_to_tiles`]) so that no triangle crosses a tile border; the same
//! cut triangles then go to areakit's side of the comparison.
//!
//! [`recast`] builds the other baseline: a real Recast navmesh (voxelised, merged polygons)
//! from the same triangles, searched by the same [`Query`].
//!
//! Axes: areakit is z-up (x, y in plan); Detour is y-up. A point (x, y, z) of ours is
//! (x, z, y) in Detour.

pub mod recast;

use areakit_geometry::Vec3;
use areakit_geometry::nav::Surface;
use recastnavigation_sys as dt;
use std::collections::HashMap;

/// `dtNavMeshQuery`'s node pool: its node indices are 16-bit (`dtNodeIndex`), so 65 535 is the
/// most a single `findPath` can visit.
pub const MAX_NODES: i32 = 65_535;
/// The polygon corridor buffer of `findPath`.
const MAX_PATH: usize = 1 << 17;

/// Splits the triangles along the lines `x = origin[0] + k * tile` and `y = origin[1] + k *
/// tile` (every `k` inside the mesh's extent) so that every triangle lies in one grid cell.
/// A triangle crossing a line becomes the two convex pieces on either side (fanned into
/// triangles, winding kept); a crossing point is computed once per side and line, so the
/// triangles on both sides share it. Regions are kept.
pub fn cut_to_tiles(s: &Surface, origin: [f32; 2], tile: f32) -> Surface {
    let mut vertices = s.vertices.clone();
    let mut triangles = s.triangles.clone();
    let mut regions = s.regions.clone();
    for (axis, &o) in origin.iter().enumerate() {
        let (lo, hi) = s
            .vertices
            .iter()
            .map(|v| if axis == 0 { v.x } else { v.y })
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), x| {
                (a.min(x), b.max(x))
            });
        let first = ((lo - o) / tile).floor() as i64;
        let last = ((hi - o) / tile).ceil() as i64;
        for k in first..=last {
            let at = o + k as f32 * tile;
            if at <= lo || at >= hi {
                continue;
            }
            (triangles, regions) = cut_line(&mut vertices, &triangles, &regions, axis, at);
        }
    }
    Surface {
        vertices,
        triangles,
        links: Vec::new(),
        regions,
    }
}

fn coord(v: Vec3, axis: usize) -> f32 {
    if axis == 0 { v.x } else { v.y }
}

fn cut_line(
    vertices: &mut Vec<Vec3>,
    triangles: &[[u32; 3]],
    regions: &[u32],
    axis: usize,
    at: f32,
) -> (Vec<[u32; 3]>, Vec<u32>) {
    let mut crossings: HashMap<(u32, u32), u32> = HashMap::new();
    let mut out = Vec::with_capacity(triangles.len() + 64);
    let mut out_regions = Vec::with_capacity(triangles.len() + 64);
    for (t, &r) in triangles.iter().zip(regions) {
        let side = t.map(|i| coord(vertices[i as usize], axis).total_cmp(&at) as i8);
        if side.iter().all(|&d| d <= 0) || side.iter().all(|&d| d >= 0) {
            out.push(*t);
            out_regions.push(r);
            continue;
        }
        let (mut below, mut above) = (Vec::with_capacity(4), Vec::with_capacity(4));
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            let (da, db) = (side[k], side[(k + 1) % 3]);
            if da <= 0 {
                below.push(a);
            }
            if da >= 0 {
                above.push(a);
            }
            if da * db < 0 {
                let key = (a.min(b), a.max(b));
                let p = *crossings.entry(key).or_insert_with(|| {
                    let (va, vb) = (
                        vertices[key.0 as usize].as_dvec3(),
                        vertices[key.1 as usize].as_dvec3(),
                    );
                    let (ca, cb) = if axis == 0 {
                        (va.x, vb.x)
                    } else {
                        (va.y, vb.y)
                    };
                    let u = (f64::from(at) - ca) / (cb - ca);
                    let mut p = (va + (vb - va) * u).as_vec3();
                    if axis == 0 {
                        p.x = at;
                    } else {
                        p.y = at;
                    }
                    vertices.push(p);
                    (vertices.len() - 1) as u32
                });
                below.push(p);
                above.push(p);
            }
        }
        for poly in [below, above] {
            for j in 2..poly.len() {
                out.push([poly[0], poly[j - 1], poly[j]]);
                out_regions.push(r);
            }
        }
    }
    (out, out_regions)
}

/// Our point in Detour's axes.
pub fn to_detour(p: Vec3) -> [f32; 3] {
    [p.x, p.z, p.y]
}

/// A Detour navigation mesh built from a surface, with the map from its polygons back to the
/// surface's triangles. Read-only once built (queries go through [`Query`]).
pub struct DetourMesh {
    mesh: *mut dt::dtNavMesh,
    /// Polygon reference → surface triangle.
    triangle_of: HashMap<dt::dtPolyRef, u32>,
    /// Tiles added, the largest tile's vertex and polygon counts.
    pub tiles: usize,
    /// Vertices of the largest tile (by vertices).
    pub max_tile_vertices: usize,
    /// Polygons of the largest tile (by polygons).
    pub max_tile_polygons: usize,
    /// Polygons in all (the surface's triangles less the flat ones).
    pub polygons: usize,
}

// SAFETY: the navigation mesh is only read after `build` (queries take `*const dtNavMesh`);
// Detour's mesh has no interior mutability on its query paths.
unsafe impl Send for DetourMesh {}
unsafe impl Sync for DetourMesh {}

impl Drop for DetourMesh {
    fn drop(&mut self) {
        // SAFETY: allocated by dtAllocNavMesh in `build`, freed once.
        unsafe { dt::dtFreeNavMesh(self.mesh) };
    }
}

fn plan_area(s: &Surface, t: [u32; 3]) -> f64 {
    let [a, b, c] = t.map(|i| s.vertices[i as usize].as_dvec3());
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

impl DetourMesh {
    /// Builds the mesh of `s` on the tile grid (`origin`, `tile`), which must be one that
    /// [`cut_to_tiles`] cut `s` on (every triangle inside one grid cell). `skip(t)` leaves a
    /// triangle out (areakit's flat triangles). Panics when Detour refuses a tile.
    pub fn build(s: &Surface, origin: [f32; 2], tile: f32, skip: impl Fn(u32) -> bool) -> Self {
        // Tiles by triangle centroid.
        let mut tile_of = vec![(i32::MIN, i32::MIN); s.triangles.len()];
        let mut by_tile: HashMap<(i32, i32), Vec<u32>> = HashMap::new();
        for (t, tri) in s.triangles.iter().enumerate() {
            if skip(t as u32) || plan_area(s, *tri) == 0.0 {
                continue;
            }
            let c = tri
                .iter()
                .map(|&i| s.vertices[i as usize])
                .fold(Vec3::ZERO, |a, b| a + b)
                / 3.0;
            let key = (
                ((c.x - origin[0]) / tile).floor() as i32,
                ((c.y - origin[1]) / tile).floor() as i32,
            );
            tile_of[t] = key;
            by_tile.entry(key).or_default().push(t as u32);
        }
        // Sides: each (low, high) vertex pair and the triangles on it.
        let mut sides: HashMap<(u32, u32), [u32; 2]> = HashMap::new();
        let mut shared = HashMap::<(u32, u32), u32>::new();
        for (t, tri) in s.triangles.iter().enumerate() {
            if tile_of[t].0 == i32::MIN {
                continue;
            }
            for k in 0..3 {
                let (a, b) = (tri[k], tri[(k + 1) % 3]);
                let key = (a.min(b), a.max(b));
                let n = shared.entry(key).or_insert(0);
                if *n < 2 {
                    sides.entry(key).or_insert([u32::MAX; 2])[*n as usize] = t as u32;
                }
                *n += 1;
            }
        }
        let neighbour = |t: u32, a: u32, b: u32| -> Option<u32> {
            let key = (a.min(b), a.max(b));
            if shared[&key] != 2 {
                return None; // a boundary, or a side of three or more triangles
            }
            let pair = sides[&key];
            Some(if pair[0] == t { pair[1] } else { pair[0] })
        };

        let (tx_max, ty_max) = by_tile
            .keys()
            .fold((0, 0), |(a, b), &(x, y)| (a.max(x), b.max(y)));
        assert!(
            by_tile.keys().all(|&(x, y)| x >= 0 && y >= 0),
            "the tile origin must lie below and left of the mesh"
        );
        let max_polys = by_tile.values().map(Vec::len).max().unwrap_or(1);
        let max_tiles = (tx_max + 1) * (ty_max + 1);
        let params = dt::dtNavMeshParams {
            orig: [origin[0], 0.0, origin[1]],
            tileWidth: tile,
            tileHeight: tile,
            maxTiles: max_tiles,
            maxPolys: max_polys as i32,
        };
        // SAFETY: plain Detour allocation and initialisation; checked below.
        let mesh = unsafe { dt::dtAllocNavMesh() };
        assert!(!mesh.is_null());
        let status = unsafe { (*mesh).init(&params) };
        assert!(
            status & dt::DT_SUCCESS != 0,
            "dtNavMesh::init failed ({status:#x}): {max_tiles} tiles × {max_polys} polygons do not fit 32-bit polygon references"
        );

        let mut out = DetourMesh {
            mesh,
            triangle_of: HashMap::new(),
            tiles: 0,
            max_tile_vertices: 0,
            max_tile_polygons: 0,
            polygons: 0,
        };
        let mut keys: Vec<_> = by_tile.keys().copied().collect();
        keys.sort_unstable();
        for key in keys {
            let tris = &by_tile[&key];
            let (x0, z0) = (
                origin[0] + key.0 as f32 * tile,
                origin[1] + key.1 as f32 * tile,
            );
            // Local vertices.
            let mut local: HashMap<u32, u16> = HashMap::new();
            let mut verts: Vec<u32> = Vec::new();
            let mut polys: Vec<u16> = Vec::with_capacity(tris.len() * 6);
            let index_of_tri: HashMap<u32, u16> = tris
                .iter()
                .enumerate()
                .map(|(i, &t)| (t, i as u16))
                .collect();
            assert!(tris.len() < 0xffff, "tile ({key:?}) has too many polygons");
            let mut ordered = Vec::with_capacity(tris.len());
            for &t in tris {
                let mut tri = s.triangles[t as usize];
                if plan_area(s, tri) > 0.0 {
                    // Detour wants them clockwise in plan (x, y) (its portals' left vertex is
                    // the side's first one): counter-clockwise seen from above in its y-up axes.
                    tri = [tri[0], tri[2], tri[1]];
                }
                ordered.push(tri);
                for v in tri {
                    local.entry(v).or_insert_with(|| {
                        verts.push(v);
                        (verts.len() - 1) as u16
                    });
                }
            }
            assert!(
                verts.len() < 0xffff,
                "tile {key:?} has {} vertices: more than Detour's 16-bit indices",
                verts.len()
            );
            let (mut ymin, mut ymax) = (f32::INFINITY, f32::NEG_INFINITY);
            for &v in &verts {
                let z = s.vertices[v as usize].z;
                ymin = ymin.min(z);
                ymax = ymax.max(z);
            }
            let bmin = [x0, ymin, z0];
            let bmax = [x0 + tile, ymax, z0 + tile];
            let cs = tile.max(ymax - ymin) / 60_000.0;
            let qverts: Vec<u16> = verts
                .iter()
                .flat_map(|&v| {
                    let p = to_detour(s.vertices[v as usize]);
                    (0..3).map(move |k| ((p[k] - bmin[k]) / cs).round().clamp(0.0, 65_534.0) as u16)
                })
                .collect();
            for (&t, tri) in tris.iter().zip(&ordered) {
                polys.extend(tri.map(|v| local[&v]));
                for k in 0..3 {
                    let (a, b) = (tri[k], tri[(k + 1) % 3]);
                    let nei = match neighbour(t, a, b) {
                        None => 0xffff,
                        Some(u) if tile_of[u as usize] == key => index_of_tri[&u],
                        Some(u) => {
                            // On the tile border: a portal, by the side it lies on.
                            let (pa, pb) = (s.vertices[a as usize], s.vertices[b as usize]);
                            let (ux, uy) = tile_of[u as usize];
                            let dir = if ux < key.0 && pa.x == x0 && pb.x == x0 {
                                0 // x-
                            } else if uy > key.1 && pa.y == z0 + tile && pb.y == z0 + tile {
                                1 // z+
                            } else if ux > key.0 && pa.x == x0 + tile && pb.x == x0 + tile {
                                2 // x+
                            } else if uy < key.1 && pa.y == z0 && pb.y == z0 {
                                3 // z-
                            } else {
                                panic!(
                                    "triangles {t} and {u} share a side across tiles off their border"
                                )
                            };
                            0x8000 | dir
                        }
                    };
                    polys.push(nei);
                }
            }
            let n = tris.len();
            let detail_meshes: Vec<u32> = (0..n as u32).flat_map(|i| [3 * i, 3, i, 1]).collect();
            let detail_verts: Vec<f32> = ordered
                .iter()
                .flat_map(|tri| tri.iter().flat_map(|&v| to_detour(s.vertices[v as usize])))
                .collect();
            let detail_tris: Vec<u8> = (0..n).flat_map(|_| [0, 1, 2, 0b01_0101]).collect();
            let flags = vec![1u16; n];
            let areas = vec![0u8; n];
            let mut create = dt::dtNavMeshCreateParams {
                verts: qverts.as_ptr(),
                vertCount: verts.len() as i32,
                polys: polys.as_ptr(),
                polyFlags: flags.as_ptr(),
                polyAreas: areas.as_ptr(),
                polyCount: n as i32,
                nvp: 3,
                detailMeshes: detail_meshes.as_ptr(),
                detailVerts: detail_verts.as_ptr(),
                detailVertsCount: (detail_verts.len() / 3) as i32,
                detailTris: detail_tris.as_ptr(),
                detailTriCount: n as i32,
                offMeshConVerts: std::ptr::null(),
                offMeshConRad: std::ptr::null(),
                offMeshConFlags: std::ptr::null(),
                offMeshConAreas: std::ptr::null(),
                offMeshConDir: std::ptr::null(),
                offMeshConUserID: std::ptr::null(),
                offMeshConCount: 0,
                userId: 0,
                tileX: key.0,
                tileY: key.1,
                tileLayer: 0,
                bmin,
                bmax,
                walkableHeight: 2.0,
                walkableRadius: 0.0,
                walkableClimb: 0.01,
                cs,
                ch: cs,
                buildBvTree: true,
            };
            let mut data: *mut u8 = std::ptr::null_mut();
            let mut size = 0i32;
            // SAFETY: every array above has the length the params announce and outlives the call.
            let ok = unsafe { dt::dtCreateNavMeshData(&mut create, &mut data, &mut size) };
            assert!(ok, "dtCreateNavMeshData refused tile {key:?}");
            // The exact corners instead of the 16-bit quantised ones: the float vertices follow
            // the (4-byte aligned) header in the tile data.
            let header = std::mem::size_of::<dt::dtMeshHeader>().next_multiple_of(4);
            // SAFETY: the tile data holds the header, then `vertCount` float triples.
            unsafe {
                let fv = data.add(header).cast::<f32>();
                for (i, &v) in verts.iter().enumerate() {
                    let p = to_detour(s.vertices[v as usize]);
                    for (k, c) in p.into_iter().enumerate() {
                        fv.add(i * 3 + k).write_unaligned(c);
                    }
                }
            }
            let mut tile_ref: dt::dtTileRef = 0;
            // SAFETY: `data` comes from dtCreateNavMeshData; the mesh frees it (DT_TILE_FREE_DATA).
            let status = unsafe {
                (*mesh).addTile(
                    data,
                    size,
                    dt::dtTileFlags_DT_TILE_FREE_DATA as i32,
                    0,
                    &mut tile_ref,
                )
            };
            assert!(status & dt::DT_SUCCESS != 0, "addTile {key:?}: {status:#x}");
            // SAFETY: the tile was just added.
            let base = unsafe {
                let t = (*mesh).getTileAt(key.0, key.1, 0);
                assert!(!t.is_null());
                debug_assert_eq!((*t).verts.cast::<u8>(), data.add(header));
                (*mesh).getPolyRefBase(t)
            };
            for (i, &t) in tris.iter().enumerate() {
                out.triangle_of.insert(base | i as dt::dtPolyRef, t);
            }
            out.tiles += 1;
            out.polygons += n;
            out.max_tile_vertices = out.max_tile_vertices.max(verts.len());
            out.max_tile_polygons = out.max_tile_polygons.max(n);
        }
        out
    }

    /// The surface triangle of a polygon reference.
    pub fn triangle_of(&self, r: dt::dtPolyRef) -> Option<u32> {
        self.triangle_of.get(&r).copied()
    }
}

/// A located point: its polygon and the point on it (Detour axes).
#[derive(Clone, Copy, Debug)]
pub struct Located {
    /// The polygon.
    pub poly: dt::dtPolyRef,
    /// The nearest point on it.
    pub point: [f32; 3],
}

/// What one Detour query gave.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outcome {
    /// `findPath` reached the goal polygon (no partial result).
    pub complete: bool,
    /// `findPath` ran out of nodes.
    pub out_of_nodes: bool,
    /// Plan length of the straight path.
    pub length_plan: f32,
    /// Points on the straight path.
    pub points: usize,
}

/// A `dtNavMeshQuery` with its buffers.
pub struct Query<'a> {
    mesh: &'a DetourMesh,
    query: *mut dt::dtNavMeshQuery,
    filter: dt::dtQueryFilter,
    half: [f32; 3],
    corridor: Vec<dt::dtPolyRef>,
    straight: Vec<f32>,
    flags: Vec<u8>,
    refs: Vec<dt::dtPolyRef>,
}

impl Drop for Query<'_> {
    fn drop(&mut self) {
        // SAFETY: allocated by dtAllocNavMeshQuery in `new`, freed once.
        unsafe { dt::dtFreeNavMeshQuery(self.query) };
    }
}

impl<'a> Query<'a> {
    /// A query over `mesh` with the largest node pool Detour allows ([`MAX_NODES`]), locating
    /// within half extents of 0.05 m in plan and 1 m in height.
    pub fn new(mesh: &'a DetourMesh) -> Self {
        Self::with_half_extents(mesh, 0.05, 1.0)
    }

    /// [`Query::new`] locating within `plan` (half extent in x and y) and `height` (half
    /// extent in z) of a point.
    pub fn with_half_extents(mesh: &'a DetourMesh, plan: f32, height: f32) -> Self {
        // SAFETY: allocation and init against a live mesh, checked.
        let query = unsafe { dt::dtAllocNavMeshQuery() };
        assert!(!query.is_null());
        let status = unsafe { (*query).init(mesh.mesh, MAX_NODES) };
        assert!(
            status & dt::DT_SUCCESS != 0,
            "dtNavMeshQuery::init: {status:#x}"
        );
        Query {
            mesh,
            query,
            filter: dt::dtQueryFilter {
                m_areaCost: [1.0; 64],
                m_includeFlags: 0xffff,
                m_excludeFlags: 0,
            },
            half: [plan, height, plan],
            corridor: vec![0; MAX_PATH],
            straight: vec![0.0; 3 * (MAX_PATH + 2)],
            flags: vec![0; MAX_PATH + 2],
            refs: vec![0; MAX_PATH + 2],
        }
    }

    /// `findNearestPoly` around our point `p` (within the query's half extents).
    pub fn locate(&self, p: Vec3) -> Option<Located> {
        let c = to_detour(p);
        let half = self.half;
        let mut poly: dt::dtPolyRef = 0;
        let mut point = [0.0f32; 3];
        // SAFETY: pointers to live locals; the query is initialised.
        let status = unsafe {
            (*self.query).findNearestPoly(
                c.as_ptr(),
                half.as_ptr(),
                &self.filter,
                &mut poly,
                point.as_mut_ptr(),
            )
        };
        (status & dt::DT_SUCCESS != 0 && poly != 0).then_some(Located { poly, point })
    }

    /// The least height difference between our point `p` and the Detour ground right above or
    /// below it (polygons containing `p` in plan, within `reach` in height); `None` when no
    /// polygon lies over or under `p` within `reach`.
    pub fn height_gap(&mut self, p: Vec3, reach: f32) -> Option<f32> {
        let c = to_detour(p);
        let half = [1e-3f32, reach, 1e-3];
        let mut n = 0i32;
        // SAFETY: buffers sized as announced; the query is initialised.
        let status = unsafe {
            (*self.query).queryPolygons(
                c.as_ptr(),
                half.as_ptr(),
                &self.filter,
                self.refs.as_mut_ptr(),
                &mut n,
                self.refs.len() as i32,
            )
        };
        if status & dt::DT_SUCCESS == 0 {
            return None;
        }
        let mut best: Option<f32> = None;
        for &r in &self.refs[..n as usize] {
            let mut h = 0.0f32;
            // SAFETY: as above; fails when `c` lies outside the polygon in plan.
            let status = unsafe { (*self.query).getPolyHeight(r, c.as_ptr(), &mut h) };
            if status & dt::DT_SUCCESS != 0 {
                let gap = (h - p.z).abs();
                if gap <= reach && best.is_none_or(|b| gap < b) {
                    best = Some(gap);
                }
            }
        }
        best
    }

    /// The surface triangle Detour located a point in.
    pub fn triangle_of(&self, l: &Located) -> Option<u32> {
        self.mesh.triangle_of(l.poly)
    }

    /// `findPath` + `findStraightPath` between two located points.
    pub fn path(&mut self, a: &Located, b: &Located) -> Outcome {
        let mut n = 0i32;
        // SAFETY: buffers sized as announced; the query is initialised.
        let status = unsafe {
            (*self.query).findPath(
                a.poly,
                b.poly,
                a.point.as_ptr(),
                b.point.as_ptr(),
                &self.filter,
                self.corridor.as_mut_ptr(),
                &mut n,
                self.corridor.len() as i32,
            )
        };
        if status & dt::DT_SUCCESS == 0 || n == 0 {
            return Outcome::default();
        }
        let complete =
            status & dt::DT_PARTIAL_RESULT == 0 && self.corridor[n as usize - 1] == b.poly;
        let out_of_nodes = status & dt::DT_OUT_OF_NODES != 0;
        let mut m = 0i32;
        // SAFETY: as above; `corridor[..n]` was written by findPath.
        let status = unsafe {
            (*self.query).findStraightPath(
                a.point.as_ptr(),
                b.point.as_ptr(),
                self.corridor.as_ptr(),
                n,
                self.straight.as_mut_ptr(),
                self.flags.as_mut_ptr(),
                self.refs.as_mut_ptr(),
                &mut m,
                self.flags.len() as i32,
                0,
            )
        };
        if status & dt::DT_SUCCESS == 0 {
            return Outcome::default();
        }
        let pts = &self.straight[..3 * m as usize];
        let length_plan = pts
            .chunks_exact(3)
            .zip(pts.chunks_exact(3).skip(1))
            .map(|(p, q)| (q[0] - p[0]).hypot(q[2] - p[2]))
            .sum();
        Outcome {
            complete,
            out_of_nodes,
            length_plan,
            points: m as usize,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An L of unit squares (a row along x and a column along y, joined at the origin cell),
    /// cut into 2 m tiles: the shortest path between the arms' ends turns at (1, 1).
    #[test]
    fn detour_turns_the_corner_like_ours() {
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        let mut vid = std::collections::HashMap::new();
        let mut v = |x: i32, y: i32, vertices: &mut Vec<Vec3>| {
            *vid.entry((x, y)).or_insert_with(|| {
                vertices.push(Vec3::new(x as f32, y as f32, 0.1 * x as f32));
                (vertices.len() - 1) as u32
            })
        };
        let cells: Vec<(i32, i32)> = (0..6)
            .map(|i| (i, 0))
            .chain((1..6).map(|j| (0, j)))
            .collect();
        for (i, j) in cells {
            let (a, b, c, d) = (
                v(i, j, &mut vertices),
                v(i + 1, j, &mut vertices),
                v(i + 1, j + 1, &mut vertices),
                v(i, j + 1, &mut vertices),
            );
            triangles.extend([[a, b, c], [a, c, d]]);
        }
        let s = Surface {
            regions: vec![0; triangles.len()],
            vertices,
            triangles,
            links: Vec::new(),
        };
        let origin = [-0.5, -0.5];
        let cut = cut_to_tiles(&s, origin, 2.0);
        assert!(cut.triangles.len() > s.triangles.len());
        let mesh = DetourMesh::build(&cut, origin, 2.0, |_| false);
        assert!(mesh.tiles > 1);
        let mut q = Query::new(&mesh);
        let a = q.locate(Vec3::new(5.5, 0.5, 0.55)).expect("start");
        let b = q.locate(Vec3::new(0.5, 5.5, 0.05)).expect("goal");
        let o = q.path(&a, &b);
        assert!(o.complete);
        let want = 2.0 * 4.5f32.hypot(0.5);
        assert!(
            (o.length_plan - want).abs() < 1e-4,
            "{} != {want}",
            o.length_plan
        );
        assert_eq!(o.points, 3);
    }
}
