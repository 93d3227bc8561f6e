//! [`NavMesh`]: a [`Surface`] prepared for searching — triangles in counter-clockwise plan
//! order, neighbours across edges, fans, islands, corner flags and a point-location grid.
//!
//! It is built once ([`NavMesh::build`]) and never changed afterwards. What speeds searches up
//! is built from it into types of its own — the convex polygons
//! ([`super::poly::Polygons`]), landmark distances ([`super::landmarks::Landmarks`]), the
//! corner graph ([`super::corners::CornerGraph`]) — and handed to a query with it
//! ([`super::query::NavData`]).
//!
//! # Neighbours
//!
//! Two triangles are neighbours when they use the same two vertex indices on an edge and lie
//! on opposite sides of it in plan (after each triangle is put in counter-clockwise plan order,
//! their edges run in opposite directions). Nothing else joins triangles: not 2-D overlap, not
//! coincident positions under different indices (that is [`stitch`](super::stitch())'s job).
//!
//! - An edge used by **more than two** triangles (non-manifold): of the triangles using it in
//!   each direction, the lowest-numbered one of each direction pair up; the others see a wall
//!   there. The rule is symmetric and does not depend on the order of the input beyond the
//!   triangle numbers.
//! - Two triangles using an edge in the **same** direction lie on the same side of it in plan
//!   (a fold): they are not joined.
//! - **Given links** ([`Surface::links`], a file's own table: a TRX's `linked_triangles`):
//!   then those decide instead. Two triangles are joined when each names the other, they
//!   share an edge by its two vertex indices, and they lie on opposite sides of it; a link
//!   that breaks one of these (a fold, a link to a vertical triangle, a one-way link) joins
//!   nothing, and an edge the file does not link is a wall even where the indices match.
//! - A triangle with **no plan area** (its corners collinear seen from above, e.g. a vertical
//!   face) is left out: it has no neighbours, no point lies in it, and it forms an island of
//!   its own with zero area.
//!
//! # Slivers
//!
//! A triangle whose corner opposite its longest plan edge lies within the coordinates' `f32`
//! resolution (`f32::EPSILON` × the corners' largest coordinate, at least 1) of that edge's
//! line, in plan and in 3-D, is a *sliver*: the sign of its plan area is rounding noise, so
//! the side test above may call the file's links round it folds (a fan of slivers filling a
//! T-junction then cuts the ground along its line). With given links, before the triangles
//! are oriented, a sliver the file links across its longest edge to a triangle with real area
//! (of the same region) is flipped with it: the two become the triangles from that
//! triangle's far corner to the sliver's apex, kept only when both have real area on the far
//! corner's side. The one holding the edge's lower vertex index takes the sliver's slot; the
//! links follow their edges. Repeated until none can be flipped, a fan of slivers becomes a
//! fan of real triangles from the far corner, each edge along the line joined to the
//! triangle the file links there. Slivers that cannot be flipped stay as they are. A flipped
//! slot keeps its number but not the surface triangle's corners ([`NavMesh::triangle`]).
//!
//! # Fans
//!
//! The triangles that touch a vertex and are joined through the edges leaving it form a
//! *fan*. Where the ground meets itself only at a vertex (a pinch, common where kit rooms
//! touch at a corner) the vertex has several fans, and a walk cannot pass from one to another:
//! it only moves across edges. So each fan after the first gets a vertex of its own, a copy at
//! the same position ([`NavMesh::surface_vertex`] names the original), and every table kept
//! per vertex (corner flags, the searches' best lengths at a turn, landmark distances, the
//! corner graph) is kept per fan: a path that turns at a pinch leaves on the side it came.
//!
//! # Corners
//!
//! A vertex is a *corner* when it ends a boundary edge (an edge without a neighbour) and the
//! plan angles of the triangles around it add up to at least 180° (less one micro-radian):
//! only there can a shortest path turn. Marking a vertex a corner when it need not be only
//! costs search time; the margin keeps a nearly straight wall's vertices in.
//!
//! # Point location
//!
//! A uniform grid over the plan bounds lists each triangle in every cell its box overlaps
//! (a cell per 32 triangles of the bounds' area; the cell size doubles while the lists
//! would hold more than eight entries per triangle). [`NavMesh::locate`]: a triangle contains
//! `(x, y)` when the point is inside or on its edges seen from above; with a height hint the
//! triangle whose height there is nearest to the hint wins, without one the highest;
//! triangles within [`SAME_FLOOR`] of that height are one floor, and of them the one on the
//! island of the largest plan area wins, then the lowest triangle index.

mod build;
mod locate;
mod slivers;

pub use locate::SAME_FLOOR;

use super::surface::{MAX_TRIANGLES, Surface, SurfaceError};
use glam::Vec3;

/// "None" in the per-triangle tables (no neighbour, no triangle).
pub const NO_TRIANGLE: u32 = u32::MAX;

/// A connected set of triangles (joined through shared edges).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Island {
    /// Number of triangles.
    pub triangles: u32,
    /// Area seen from above (square units).
    pub plan_area: f64,
    /// Area of the triangles themselves in 3-D.
    pub area_3d: f64,
    /// The lowest triangle index in the island.
    pub first_triangle: u32,
}

/// A point on the walkable surface.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Location {
    /// The triangle it lies in.
    pub triangle: u32,
    /// The point: the plan position, `z` on the triangle.
    pub point: Vec3,
    /// How far the asked-for point was moved to reach the surface (0 when it lay over it).
    pub snapped: f32,
}

/// Why a point could not be put on the surface.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum LocateError {
    /// The surface has no triangle with plan area.
    #[error("the surface has no walkable triangle")]
    EmptySurface,
    /// No walkable point lies within the snap distance.
    #[error("{}", too_far(*snap, *nearest))]
    TooFar {
        /// The snap distance that was allowed.
        snap: f32,
        /// The distance to the nearest walkable point, if one was found within a wider
        /// search (up to 8 × the snap distance, at least 8 units).
        nearest: Option<f32>,
    },
    /// A coordinate is NaN or infinite.
    #[error("the point is not finite")]
    NotFinite,
}

/// The message of [`LocateError::TooFar`].
fn too_far(snap: f32, nearest: Option<f32>) -> String {
    match nearest {
        Some(d) => format!(
            "not on the walkable surface: the nearest walkable point is {d} away (snap distance {snap})"
        ),
        None => format!(
            "not on the walkable surface and no walkable point near it (snap distance {snap})"
        ),
    }
}

/// A walkable surface prepared for path searches. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct NavMesh {
    /// The vertex positions: the surface's, then a copy of a vertex for each of its fans after
    /// the first ([`NavMesh::surface_vertex`]).
    pub(crate) vertices: Vec<Vec3>,
    /// How many of `vertices` are the surface's.
    surface_vertices: usize,
    /// Per vertex after the surface's: the surface vertex it copies.
    split: Vec<u32>,
    /// Triangles in counter-clockwise plan order (a clockwise input triangle has its last two
    /// corners swapped), over the mesh's vertices (a fan's own copy of its vertex).
    pub(crate) tris: Vec<[u32; 3]>,
    /// Per edge `k` (from corner `k` to `k + 1`): `neighbour * 4 + its edge`, or
    /// [`NO_TRIANGLE`].
    pub(crate) links: Vec<[u32; 3]>,
    pub(crate) regions: Regions,
    /// Per triangle without plan area.
    pub(crate) flat: Vec<bool>,
    /// Per triangle: its island.
    island: Vec<u32>,
    islands: Vec<Island>,
    /// One bit per vertex: a corner (see the module docs).
    corners: Vec<u64>,
    grid: locate::Grid,
    /// Which build this is ([`NavMesh::id`]).
    id: u64,
}

/// Per triangle: its region, in the narrowest integer type that holds them all (most surfaces
/// have fewer than 256 rooms).
#[derive(Debug, Clone)]
pub(crate) enum Regions {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
}

impl Regions {
    fn new(r: &[u32]) -> Regions {
        let max = r.iter().copied().max().unwrap_or(0);
        if let Ok(small) = r.iter().map(|&x| u8::try_from(x)).collect() {
            Regions::U8(small)
        } else if max <= u32::from(u16::MAX) {
            Regions::U16(r.iter().map(|&x| x as u16).collect())
        } else {
            Regions::U32(r.to_vec())
        }
    }

    /// Triangle `t`'s region.
    #[inline]
    pub(crate) fn get(&self, t: u32) -> u32 {
        match self {
            Regions::U8(v) => u32::from(v[t as usize]),
            Regions::U16(v) => u32::from(v[t as usize]),
            Regions::U32(v) => v[t as usize],
        }
    }

    fn memory_bytes(&self) -> usize {
        match self {
            Regions::U8(v) => v.capacity(),
            Regions::U16(v) => v.capacity() * 2,
            Regions::U32(v) => v.capacity() * 4,
        }
    }
}

#[inline]
pub(crate) fn cross2(o: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

/// A vertex's plan position (`x`, `y`) in double precision.
#[inline]
/// A new [`NavMesh::id`].
fn next_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

pub(crate) fn plan(v: Vec3) -> [f64; 2] {
    [f64::from(v.x), f64::from(v.y)]
}

impl NavMesh {
    /// Prepares a surface: validates it, orients the triangles, links neighbours, gives each
    /// fan of a pinched vertex a vertex of its own, finds islands and corners, and builds the
    /// location grid.
    pub fn build(surface: &Surface) -> Result<NavMesh, SurfaceError> {
        let mut mesh = Self::linked(surface)?;
        mesh.finish();
        Ok(mesh)
    }

    /// [`NavMesh::build`], and `also` run on the mesh on a second thread while this one
    /// finds the islands, corners and grid (`also` reads only the triangles, their links and
    /// flatness: the polygons, [`crate::nav::query::NavSet::build`]).
    pub fn build_and<T: Send>(
        surface: &Surface,
        also: impl Fn(&NavMesh) -> T + Sync,
    ) -> Result<(NavMesh, T), SurfaceError> {
        let mut mesh = Self::linked(surface)?;
        let (island, islands, corners, grid, other) = std::thread::scope(|scope| {
            let m = &mesh;
            let also = &also;
            let worker = std::thread::Builder::new().spawn_scoped(scope, move || also(m));
            let (island, islands) = build::find_islands(&m.vertices, &m.tris, &m.links, &m.flat);
            let corners = build::find_corners(&m.vertices, &m.tris, &m.links, &m.flat);
            let grid = locate::build_grid(&m.vertices, &m.tris, &m.flat);
            // No thread (or it failed): the same work here.
            let other = worker
                .ok()
                .and_then(|w| w.join().ok())
                .unwrap_or_else(|| also(m));
            (island, islands, corners, grid, other)
        });
        (mesh.island, mesh.islands, mesh.corners, mesh.grid) = (island, islands, corners, grid);
        Ok((mesh, other))
    }

    /// The triangles oriented and linked, the fans split: everything but the islands,
    /// corners and grid ([`NavMesh::finish`]).
    fn linked(surface: &Surface) -> Result<NavMesh, SurfaceError> {
        surface.validate()?;
        let n = surface.triangles.len();
        if n > MAX_TRIANGLES {
            return Err(SurfaceError::TooLarge { triangles: n });
        }
        let mut vertices = surface.vertices.clone();
        let mut flat = vec![false; n];
        let mut given = surface.links.clone();
        let mut tris = surface.triangles.clone();
        if !given.is_empty() {
            slivers::flip(&vertices, &mut tris, &mut given, &surface.regions);
        }
        let mut tris: Vec<[u32; 3]> = tris
            .iter()
            .zip(flat.iter_mut())
            .map(|(t, flat)| {
                let [a, b, c] = t.map(|i| plan(vertices[i as usize]));
                let area = cross2(a, b, c);
                *flat = area == 0.0 || t[0] == t[1] || t[1] == t[2] || t[0] == t[2];
                if area < 0.0 { [t[0], t[2], t[1]] } else { *t }
            })
            .collect();
        let links = if surface.links.is_empty() {
            build::link(&tris, &flat, vertices.len())
        } else {
            build::link_given(&tris, &flat, &given)
        };
        let split = build::split_fans(&mut tris, &links, &flat, vertices.len());
        for &v in &split {
            vertices.push(vertices[v as usize]);
        }
        Ok(NavMesh {
            surface_vertices: vertices.len() - split.len(),
            split,
            vertices,
            tris,
            links,
            regions: Regions::new(&surface.regions),
            flat,
            island: Vec::new(),
            islands: Vec::new(),
            corners: Vec::new(),
            grid: locate::Grid::default(),
            id: next_id(),
        })
    }

    /// Finds the islands and corners and builds the grid.
    fn finish(&mut self) {
        let (island, islands) =
            build::find_islands(&self.vertices, &self.tris, &self.links, &self.flat);
        self.island = island;
        self.islands = islands;
        self.corners = build::find_corners(&self.vertices, &self.tris, &self.links, &self.flat);
        self.grid = locate::build_grid(&self.vertices, &self.tris, &self.flat);
    }

    /// The mesh's identity: another for every build in this process (a clone keeps it). The
    /// acceleration data records the id of the mesh it was built from, and a query given data
    /// of another mesh answers [`crate::nav::PathError::Mismatch`].
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Number of triangles (the same numbering as the surface's).
    pub fn triangle_count(&self) -> usize {
        self.tris.len()
    }

    /// The vertex positions: the surface's, then a copy of a vertex for each of its fans
    /// after the first (see [fans](self#fans)).
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The surface vertex that mesh vertex `v` is (or copies, for a fan after the first).
    pub fn surface_vertex(&self, v: u32) -> u32 {
        match (v as usize).checked_sub(self.surface_vertices) {
            Some(i) => self.split[i],
            None => v,
        }
    }

    /// Triangle `t`'s corners in counter-clockwise plan order (mesh vertices: a corner in a
    /// vertex's second or later fan is that fan's copy).
    pub fn triangle(&self, t: u32) -> [u32; 3] {
        self.tris[t as usize]
    }

    /// The corner positions of triangle `t` (counter-clockwise in plan).
    pub fn triangle_points(&self, t: u32) -> [Vec3; 3] {
        self.tris[t as usize].map(|i| self.vertices[i as usize])
    }

    /// The neighbour across each edge of triangle `t` (edge `k` runs from corner `k` to
    /// `k + 1` of [`NavMesh::triangle`]).
    pub fn neighbours(&self, t: u32) -> [Option<u32>; 3] {
        self.links[t as usize].map(|l| (l != NO_TRIANGLE).then_some(l >> 2))
    }

    /// The region (room) of triangle `t`.
    pub fn region(&self, t: u32) -> u32 {
        self.regions.get(t)
    }

    /// The island of triangle `t` (an index into [`NavMesh::islands`]).
    pub fn island_of(&self, t: u32) -> u32 {
        self.island[t as usize]
    }

    /// The islands, numbered in order of their lowest triangle.
    pub fn islands(&self) -> &[Island] {
        &self.islands
    }

    /// Whether a walk can lead from triangle `from` to triangle `to` (same island).
    pub fn reachable(&self, from: u32, to: u32) -> bool {
        let n = self.tris.len();
        (from as usize) < n && (to as usize) < n && self.island_of(from) == self.island_of(to)
    }

    /// Whether vertex `v` is a corner (a shortest path may turn there).
    #[inline]
    pub fn is_corner(&self, v: u32) -> bool {
        self.corners
            .get(v as usize / 64)
            .is_some_and(|w| w >> (v % 64) & 1 != 0)
    }

    /// Whether triangle `t` has no plan area (left out of the search).
    pub fn is_flat(&self, t: u32) -> bool {
        self.flat[t as usize]
    }

    /// Bytes held by this navmesh (its arrays' capacities).
    pub fn memory_bytes(&self) -> usize {
        self.memory_breakdown().iter().map(|e| e.1).sum::<usize>() + std::mem::size_of::<Self>()
    }

    /// [`NavMesh::memory_bytes`] array by array: (name, bytes).
    #[doc(hidden)]
    pub fn memory_breakdown(&self) -> Vec<(&'static str, usize)> {
        use std::mem::size_of;
        vec![
            (
                "vertices",
                self.vertices.capacity() * size_of::<Vec3>() + self.split.capacity() * 4,
            ),
            ("tris", self.tris.capacity() * 12),
            ("links", self.links.capacity() * 12),
            ("regions", self.regions.memory_bytes()),
            ("flat", self.flat.capacity()),
            (
                "islands",
                self.island.capacity() * 4 + self.islands.capacity() * size_of::<Island>(),
            ),
            ("corners", self.corners.capacity() * 8),
            ("grid", self.grid.memory_bytes()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two triangles of a unit square, the second wound clockwise, a third on the diagonal on
    /// the second's side (non-manifold edge) and a vertical one.
    fn surface() -> Surface {
        Surface {
            links: Vec::new(),
            vertices: vec![
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(1.0, 1.0, 0.0),
                Vec3::new(0.0, 1.0, 0.0),
                Vec3::new(-1.0, 2.0, 0.0),
                Vec3::new(-1.0, 2.0, 5.0),
            ],
            triangles: vec![[0, 1, 2], [0, 3, 2], [0, 2, 4], [0, 4, 5]],
            regions: vec![0, 0, 1, 1],
        }
    }

    #[test]
    fn links_islands_and_flat_triangles() {
        let m = NavMesh::build(&surface()).unwrap();
        // Triangle 1 was clockwise: put counter-clockwise.
        assert_eq!(m.triangle(1), [0, 2, 3]);
        // The diagonal 0-2: triangle 0 uses it backward (2 -> 0), triangles 1 and 2 forward
        // (0 -> 2): the lowest forward one (1) pairs with 0; 2 sees a wall there.
        assert_eq!(m.neighbours(0), [None, None, Some(1)]);
        assert_eq!(m.neighbours(1), [Some(0), None, None]);
        assert_eq!(m.neighbours(2), [None, None, None]);
        // The vertical triangle has no plan area.
        assert!(m.is_flat(3));
        assert_eq!(m.islands().len(), 3);
        assert!(m.reachable(0, 1));
        assert!(!m.reachable(0, 2));
        assert!((m.islands()[0].plan_area - 1.0).abs() < 1e-12);
        // No vertex has triangles adding up to 180° around it: no corner.
        assert!((0..6).all(|v| !m.is_corner(v)));
    }

    #[test]
    fn locate_and_snap() {
        let m = NavMesh::build(&surface()).unwrap();
        let l = m.locate(0.75, 0.25, None).unwrap();
        assert_eq!(l.triangle, 0);
        assert_eq!(l.snapped, 0.0);
        assert!(m.locate(0.5, -0.5, None).is_none());
        let s = m.locate_or_snap(0.5, -0.5, Some(0.0), 1.0).unwrap();
        assert_eq!(s.point, Vec3::new(0.5, 0.0, 0.0));
        assert_eq!(s.snapped, 0.5);
        // 3-D: 0.5 in plan and 1.0 in height is farther than 1.
        let e = m.locate_or_snap(0.5, -0.5, Some(1.0), 1.0).unwrap_err();
        assert!(
            matches!(e, LocateError::TooFar { nearest: Some(d), .. } if (d - 1.25f32.sqrt()).abs() < 1e-6)
        );
        assert_eq!(
            m.locate_or_snap(f32::NAN, 0.0, None, 1.0),
            Err(LocateError::NotFinite)
        );
    }

    /// A patch laid over a floor, 10 µm higher (coplanar within [`locate::SAME_FLOOR`]): a
    /// point on both stands on the floor (the larger island), with or without a hint. Before,
    /// the patch won as the highest (corpus: `shadowdale_house_moomaiden.trx`, where patches
    /// of two triangles lie over the floor, 1.6e-8 m above it).
    #[test]
    fn a_patch_over_a_floor_is_the_floor() {
        let z = 0.486_379_1;
        let patch = z + 1e-5;
        let m = NavMesh::build(&Surface {
            links: Vec::new(),
            vertices: vec![
                Vec3::new(0.0, 0.0, z),
                Vec3::new(10.0, 0.0, z),
                Vec3::new(10.0, 10.0, z),
                Vec3::new(0.0, 10.0, z),
                Vec3::new(4.0, 4.0, patch),
                Vec3::new(6.0, 4.0, patch),
                Vec3::new(5.0, 6.0, patch),
            ],
            triangles: vec![[4, 5, 6], [0, 1, 2], [0, 2, 3]],
            regions: vec![0; 3],
        })
        .unwrap();
        assert_eq!(m.islands().len(), 2);
        for hint in [None, Some(z), Some(patch), Some(z + 0.5)] {
            let l = m.locate(5.0, 4.5, hint).unwrap();
            assert_eq!(l.triangle, 1, "{hint:?}");
            assert_eq!(l.point.z, z);
        }
        // Heights apart by more than a millimetre are two floors.
        let m2 = NavMesh::build(&Surface {
            links: Vec::new(),
            vertices: m.vertices[..7]
                .iter()
                .enumerate()
                .map(|(i, v)| if i >= 4 { *v + Vec3::Z * 0.01 } else { *v })
                .collect(),
            triangles: vec![[4, 5, 6], [0, 1, 2], [0, 2, 3]],
            regions: vec![0; 3],
        })
        .unwrap();
        assert_eq!(m2.locate(5.0, 4.5, None).unwrap().triangle, 0);
        assert_eq!(m2.locate(5.0, 4.5, Some(z)).unwrap().triangle, 1);
    }
}
