//! [`NavMesh`]: a [`Surface`] prepared for searching — triangles in counter-clockwise plan
//! order, neighbours across edges, islands, corner flags and a point-location grid.
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
//! - A triangle with **no plan area** (its corners collinear seen from above, e.g. a vertical
//!   face) is left out: it has no neighbours, no point lies in it, and it forms an island of
//!   its own with zero area.
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
//! # Dead ends
//!
//! A *bridge* is an edge whose removal splits its island. The polygons ([`super::poly`])
//! joined without crossing a bridge form components, and the bridges join the components into
//! a tree (one per island); a triangle belongs to its polygon's component. A shortest path
//! from the start to the goal stays in the components on the tree path between theirs:
//! entering another one would mean leaving it by the same bridge, and the part in between
//! could be replaced by a straight piece of that edge. The searches on either layer skip the
//! other components: whole dead-end corridors and rooms behind a single edge are never
//! searched.
//!
//! # Point location
//!
//! A uniform grid over the plan bounds lists each triangle in every cell its box overlaps
//! (a cell per 32 triangles of the bounds' area; the cell size doubles while the lists
//! would hold more than eight entries per triangle). [`NavMesh::locate`] applies the rule of
//! [`crate::query::Locator::face_at`] over the walkable triangles: a triangle contains
//! `(x, y)` when the point is inside or on its edges seen from above; with a height hint the
//! triangle whose height there is nearest to the hint wins, without one the highest; ties go to
//! the lowest triangle index.

use super::poly::{NO_POLYGON, Polygons};
use super::{Surface, SurfaceError};
use crate::query::tri_height_at;
use glam::Vec3;

/// "None" in the per-triangle tables (no neighbour, no triangle).
pub const NO_TRIANGLE: u32 = u32::MAX;

/// The most triangles a [`NavMesh`] holds (a neighbour link packs the triangle and its edge in
/// 32 bits).
pub const MAX_TRIANGLES: usize = (1 << 30) - 1;

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
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LocateError {
    /// The surface has no triangle with plan area.
    EmptySurface,
    /// No walkable point lies within the snap distance.
    TooFar {
        /// The snap distance that was allowed.
        snap: f32,
        /// The distance to the nearest walkable point, if one was found within a wider
        /// search (up to 8 × the snap distance, at least 8 units).
        nearest: Option<f32>,
    },
    /// A coordinate is NaN or infinite.
    NotFinite,
}

impl std::fmt::Display for LocateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LocateError::EmptySurface => write!(f, "the surface has no walkable triangle"),
            LocateError::TooFar {
                snap,
                nearest: Some(d),
            } => write!(
                f,
                "not on the walkable surface: the nearest walkable point is {d} away (snap distance {snap})"
            ),
            LocateError::TooFar {
                snap,
                nearest: None,
            } => write!(
                f,
                "not on the walkable surface and no walkable point near it (snap distance {snap})"
            ),
            LocateError::NotFinite => write!(f, "the point is not finite"),
        }
    }
}

impl std::error::Error for LocateError {}

/// The uniform point-location grid.
#[derive(Debug, Clone, Default)]
struct Grid {
    min: [f64; 2],
    inv_cell: f64,
    nx: u32,
    ny: u32,
    /// `start[c]..start[c + 1]` indexes `items` for cell `c = y * nx + x`.
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Grid {
    #[inline]
    fn cell_of(&self, x: f64, y: f64) -> (i64, i64) {
        (
            ((x - self.min[0]) * self.inv_cell).floor() as i64,
            ((y - self.min[1]) * self.inv_cell).floor() as i64,
        )
    }

    #[inline]
    fn cell_items(&self, cx: i64, cy: i64) -> &[u32] {
        if cx < 0 || cy < 0 || cx >= i64::from(self.nx) || cy >= i64::from(self.ny) {
            return &[];
        }
        let c = cy as usize * self.nx as usize + cx as usize;
        &self.items[self.start[c] as usize..self.start[c + 1] as usize]
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
    /// Per bridge-tree component of the polygon layer: its island.
    comp_island: Vec<u32>,
    /// The islands of the triangles without plan area (each its own), by triangle.
    flat_island: Vec<(u32, u32)>,
    islands: Vec<Island>,
    /// One bit per vertex: a corner (see the module docs).
    corners: Vec<u64>,
    grid: Grid,
    /// The triangles merged into convex polygons (the default search graph).
    pub(crate) poly: Polygons,
    /// Distances from landmarks, if measured ([`NavMesh::measure_landmarks`]).
    pub(crate) lm: Option<super::landmarks::Landmarks>,
    /// The corner graph, if built ([`NavMesh::build_corner_graph`]).
    pub(crate) cg: Option<super::corners::CornerGraph>,
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
pub(crate) fn plan(v: Vec3) -> [f64; 2] {
    [f64::from(v.x), f64::from(v.y)]
}

impl NavMesh {
    /// Prepares a surface: validates it, orients the triangles, links neighbours, finds islands
    /// and corners, and builds the location grid.
    pub fn build(surface: &Surface) -> Result<NavMesh, SurfaceError> {
        surface.validate()?;
        let n = surface.triangles.len();
        if n > MAX_TRIANGLES {
            return Err(SurfaceError::TooLarge { triangles: n });
        }
        let vertices = surface.vertices.clone();
        let mut flat = vec![false; n];
        let tris: Vec<[u32; 3]> = surface
            .triangles
            .iter()
            .zip(flat.iter_mut())
            .map(|(t, flat)| {
                let [a, b, c] = t.map(|i| plan(vertices[i as usize]));
                let area = cross2(a, b, c);
                *flat = area == 0.0 || t[0] == t[1] || t[1] == t[2] || t[0] == t[2];
                if area < 0.0 { [t[0], t[2], t[1]] } else { *t }
            })
            .collect();
        let links = link(&tris, &flat, vertices.len());
        let mut tris = tris;
        let mut vertices = vertices;
        let split = split_fans(&mut tris, &links, &flat, vertices.len());
        for &v in &split {
            vertices.push(vertices[v as usize]);
        }
        let mut mesh = NavMesh {
            surface_vertices: vertices.len() - split.len(),
            split,
            vertices,
            tris,
            links,
            regions: Regions::new(&surface.regions),
            comp_island: Vec::new(),
            flat_island: Vec::new(),
            islands: Vec::new(),
            corners: Vec::new(),
            grid: Grid::default(),
            poly: Polygons::default(),
            lm: None,
            cg: None,
        };
        // The polygons on a second thread (the most work), the islands, corners and grid
        // meanwhile on this one: neither reads the other's.
        let (poly, (island, islands), corners, grid) = std::thread::scope(|scope| {
            let m = &mesh;
            let worker = std::thread::Builder::new().spawn_scoped(scope, || Polygons::build(m));
            let islands = find_islands(&m.vertices, &m.tris, &m.links, &flat);
            let corners = find_corners(&m.vertices, &m.tris, &m.links, &flat);
            let grid = build_grid(&m.vertices, &m.tris, &flat);
            // No thread (or it failed): the same work here.
            let poly = worker
                .ok()
                .and_then(|w| w.join().ok())
                .unwrap_or_else(|| Polygons::build(m));
            (poly, islands, corners, grid)
        });
        mesh.islands = islands;
        mesh.corners = corners;
        mesh.grid = grid;
        mesh.poly = poly;
        // A component lies in one island: keep the island per component only.
        let pl = &mesh.poly;
        let mut comp_island = vec![0u32; pl.comp_parent.len()];
        let mut flat_island = Vec::new();
        for (t, &i) in island.iter().enumerate() {
            match pl.tri_poly[t] {
                NO_POLYGON => flat_island.push((t as u32, i)),
                p => comp_island[pl.comp[p as usize] as usize] = i,
            }
        }
        mesh.comp_island = comp_island;
        mesh.flat_island = flat_island;
        Ok(mesh)
    }

    /// Measures the distances from `count` landmarks ([`super::landmarks`]) for the optimal
    /// search's bound (0 removes them). Costs `count + 1` searches over the whole mesh.
    pub fn measure_landmarks(&mut self, count: usize) {
        self.lm = (count > 0).then(|| super::landmarks::Landmarks::build(self, count));
        if self.lm.as_ref().is_some_and(|l| l.count() == 0) {
            self.lm = None;
        }
    }

    /// Builds the corner graph ([`super::corners`]) with the polygons' sight lists: both
    /// searches on the polygon layer then search the graph between the corners that see the
    /// start and those that see the goal, without sweeping.
    pub fn build_corner_graph(&mut self) {
        self.build_corner_graph_with(true);
    }

    /// [`NavMesh::build_corner_graph`], with the polygons' sight lists only if `sights`
    /// ([`super::corners::CornerGraph::sights`]); without them (a smaller graph) each query
    /// sweeps from its start and its goal instead.
    pub fn build_corner_graph_with(&mut self, sights: bool) {
        self.cg = super::corners::CornerGraph::build_with(self, sights);
    }

    /// Drops the corner graph.
    pub fn drop_corner_graph(&mut self) {
        self.cg = None;
    }

    /// The corner graph, if built.
    pub fn corner_graph(&self) -> Option<&super::corners::CornerGraph> {
        self.cg.as_ref()
    }

    /// The landmarks, if measured.
    pub fn landmarks(&self) -> Option<&super::landmarks::Landmarks> {
        self.lm.as_ref()
    }

    /// The convex polygons the triangles were merged into ([`super::poly`]).
    pub fn polygons(&self) -> &Polygons {
        &self.poly
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
        match self.poly.tri_poly[t as usize] {
            NO_POLYGON => {
                let i = self.flat_island.partition_point(|f| f.0 < t);
                self.flat_island[i].1
            }
            p => self.comp_island[self.poly.comp[p as usize] as usize],
        }
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
        let [a, b, c] = self.tris[t as usize].map(|i| plan(self.vertices[i as usize]));
        cross2(a, b, c) == 0.0
    }

    /// Bytes held by this navmesh (its arrays' capacities).
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        self.vertices.capacity() * size_of::<Vec3>()
            + self.split.capacity() * 4
            + self.tris.capacity() * 12
            + self.links.capacity() * 12
            + self.regions.memory_bytes()
            + self.comp_island.capacity() * 4
            + self.flat_island.capacity() * 8
            + self.islands.capacity() * size_of::<Island>()
            + self.corners.capacity() * 8
            + self.grid.start.capacity() * 4
            + self.grid.items.capacity() * 4
            + self.poly.memory_bytes()
            + self.lm.as_ref().map_or(0, |l| l.memory_bytes())
            + self.cg.as_ref().map_or(0, |g| g.memory_bytes())
            + size_of::<Self>()
    }

    /// [`NavMesh::memory_bytes`] array by array: (name, bytes).
    #[doc(hidden)]
    pub fn memory_breakdown(&self) -> Vec<(&'static str, usize)> {
        use std::mem::size_of;
        let pl = &self.poly;
        vec![
            ("vertices", self.vertices.capacity() * size_of::<Vec3>()),
            ("tris", self.tris.capacity() * 12),
            ("links", self.links.capacity() * 12),
            ("regions", self.regions.memory_bytes()),
            (
                "islands",
                self.comp_island.capacity() * 4
                    + self.flat_island.capacity() * 8
                    + self.islands.capacity() * size_of::<Island>(),
            ),
            ("corners", self.corners.capacity() * 8),
            (
                "grid",
                (self.grid.start.capacity() + self.grid.items.capacity()) * 4,
            ),
            ("poly first", pl.first.capacity() * 4),
            ("poly verts", pl.verts.capacity() * 4),
            ("poly adj", pl.adj.capacity() * 4 + pl.adj_edge.capacity()),
            ("tri_poly", pl.tri_poly.capacity() * 4),
            (
                "poly comp",
                (pl.comp.capacity() + pl.comp_parent.capacity() + pl.comp_depth.capacity()) * 4,
            ),
        ]
    }

    /// The height of triangle `t` at `(x, y)` if it contains the point seen from above.
    #[inline]
    pub fn height_in(&self, t: u32, x: f32, y: f32) -> Option<f32> {
        let p = self.triangle_points(t).map(|v| v.to_array());
        tri_height_at(&p, x, y)
    }

    /// The walkable point at `(x, y)`: the triangle containing it seen from above — with a
    /// height hint `z` the one whose height there is nearest to it, without one the highest
    /// (ties: lowest index). `None` when no triangle lies under or over the point.
    pub fn locate(&self, x: f32, y: f32, z: Option<f32>) -> Option<Location> {
        if !(x.is_finite() && y.is_finite() && z.is_none_or(f32::is_finite)) {
            return None;
        }
        if self.grid.items.is_empty() {
            return None;
        }
        let (cx, cy) = self.grid.cell_of(f64::from(x), f64::from(y));
        let mut best: Option<(f32, u32, f32)> = None;
        for &t in self.grid.cell_items(cx, cy) {
            if let Some(h) = self.height_in(t, x, y) {
                let score = match z {
                    Some(hint) => (h - hint).abs(),
                    None => -h,
                };
                if best.is_none_or(|(s, bt, _)| score < s || (score == s && t < bt)) {
                    best = Some((score, t, h));
                }
            }
        }
        best.map(|(_, t, h)| Location {
            triangle: t,
            point: Vec3::new(x, y, h),
            snapped: 0.0,
        })
    }

    /// [`NavMesh::locate`], or else the nearest walkable point within `snap`: with a height
    /// hint by 3-D distance to `(x, y, z)`, without one by plan distance (the highest point
    /// at the nearest plan distance). Ties go to the lowest triangle index.
    pub fn locate_or_snap(
        &self,
        x: f32,
        y: f32,
        z: Option<f32>,
        snap: f32,
    ) -> Result<Location, LocateError> {
        if !(x.is_finite() && y.is_finite() && z.is_none_or(f32::is_finite)) {
            return Err(LocateError::NotFinite);
        }
        if self.grid.items.is_empty() {
            return Err(LocateError::EmptySurface);
        }
        if let Some(l) = self.locate(x, y, z) {
            return Ok(l);
        }
        let snap = if snap.is_finite() { snap.max(0.0) } else { 0.0 };
        if let Some(l) = self.nearest(x, y, z, f64::from(snap)) {
            return Ok(l);
        }
        let wider = (f64::from(snap) * 8.0).max(8.0);
        Err(LocateError::TooFar {
            snap,
            nearest: self.nearest(x, y, z, wider).map(|l| l.snapped),
        })
    }

    /// The nearest walkable point within `radius` (see [`NavMesh::locate_or_snap`]).
    fn nearest(&self, x: f32, y: f32, z: Option<f32>, radius: f64) -> Option<Location> {
        let g = &self.grid;
        let p = [f64::from(x), f64::from(y), z.map_or(0.0, f64::from)];
        let (x0, y0) = g.cell_of(p[0] - radius, p[1] - radius);
        let (x1, y1) = g.cell_of(p[0] + radius, p[1] + radius);
        let x0 = x0.max(0);
        let y0 = y0.max(0);
        let x1 = x1.min(i64::from(g.nx) - 1);
        let y1 = y1.min(i64::from(g.ny) - 1);
        // (distance², -z for ties without a hint, triangle, point)
        let mut best: Option<(f64, f64, u32, [f64; 3])> = None;
        let r2 = radius * radius;
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                for &t in g.cell_items(cx, cy) {
                    let tri = self.triangle_points(t).map(|v| v.to_array().map(f64::from));
                    let (q, d2) = match z {
                        Some(_) => closest_on_triangle(&tri, p),
                        None => closest_in_plan(&tri, [p[0], p[1]]),
                    };
                    if d2 > r2 {
                        continue;
                    }
                    let key = (d2, -q[2], t);
                    if best.is_none_or(|(bd, bz, bt, _)| {
                        key.0 < bd || (key.0 == bd && (key.1 < bz || (key.1 == bz && t < bt)))
                    }) {
                        best = Some((d2, -q[2], t, q));
                    }
                }
            }
        }
        best.map(|(d2, _, t, q)| Location {
            triangle: t,
            point: Vec3::new(q[0] as f32, q[1] as f32, q[2] as f32),
            snapped: d2.sqrt() as f32,
        })
    }
}

/// Neighbour links (see the module docs for the rule).
fn link(tris: &[[u32; 3]], flat: &[bool], nv: usize) -> Vec<[u32; 3]> {
    // Edges listed under their lower vertex: (other vertex, code = tri * 4 + edge, forward).
    let mut start = vec![0u32; nv + 1];
    for (t, f) in tris.iter().zip(flat) {
        if *f {
            continue;
        }
        for k in 0..3 {
            start[t[k].min(t[(k + 1) % 3]) as usize + 1] += 1;
        }
    }
    for i in 0..nv {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    // other vertex (high 32 bits) | code (low 32 bits; bit 31 set for a backward edge)
    let mut entries = vec![0u64; start[nv] as usize];
    for (ti, (t, f)) in tris.iter().zip(flat).enumerate() {
        if *f {
            continue;
        }
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            let slot = &mut fill[a.min(b) as usize];
            let back = if a > b { 1u64 << 31 } else { 0 };
            entries[*slot as usize] =
                (u64::from(a.max(b)) << 32) | back | (ti as u64 * 4 + k as u64);
            *slot += 1;
        }
    }
    let mut links = vec![[NO_TRIANGLE; 3]; tris.len()];
    for v in 0..nv {
        let list = &mut entries[start[v] as usize..start[v + 1] as usize];
        if list.len() < 2 {
            continue;
        }
        // Sorted: by the other vertex, then backward flag, then code (lowest triangle first).
        list.sort_unstable();
        let mut i = 0;
        while i < list.len() {
            let hi = list[i] >> 32;
            let mut j = i;
            while j < list.len() && list[j] >> 32 == hi {
                j += 1;
            }
            // The group i..j shares the edge; forward entries come first.
            let group = &list[i..j];
            let fwd = group.iter().find(|&&e| e & (1 << 31) == 0);
            let bwd = group.iter().find(|&&e| e & (1 << 31) != 0);
            if let (Some(&f), Some(&b)) = (fwd, bwd) {
                let cf = (f & 0x7fff_ffff) as u32;
                let cb = (b & 0x7fff_ffff) as u32;
                links[(cf >> 2) as usize][(cf & 3) as usize] = cb;
                links[(cb >> 2) as usize][(cb & 3) as usize] = cf;
            }
            i = j;
        }
    }
    links
}

/// Gives every fan of a vertex after its first a vertex of its own (appended after the
/// surface's, numbered in triangle order): the triangles that touch a vertex and are joined
/// through the edges leaving it form a fan; where the ground meets itself only at the vertex,
/// it has several. Rewrites those triangles' corners and returns, per new vertex, the vertex it
/// copies.
fn split_fans(tris: &mut [[u32; 3]], links: &[[u32; 3]], flat: &[bool], nv: usize) -> Vec<u32> {
    // Union-find over the corners (triangle * 3 + corner): a link joins the corners at each
    // end of its edge.
    let n = tris.len() * 3;
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let p = parent[parent[x as usize] as usize];
            parent[x as usize] = p;
            x = p;
        }
        x
    }
    for (t, l) in links.iter().enumerate() {
        for e in 0..3 {
            let link = l[e];
            if link == NO_TRIANGLE || (link >> 2) < t as u32 {
                continue;
            }
            let (u, j) = ((link >> 2) as usize, (link & 3) as usize);
            // Our corner e is its corner j + 1; our corner e + 1 its corner j.
            for (a, b) in [
                (3 * t + e, 3 * u + (j + 1) % 3),
                (3 * t + (e + 1) % 3, 3 * u + j),
            ] {
                let (ra, rb) = (find(&mut parent, a as u32), find(&mut parent, b as u32));
                if ra != rb {
                    parent[ra.max(rb) as usize] = ra.min(rb);
                }
            }
        }
    }
    // Per vertex, the fan (root) that keeps it; per other root, its new vertex.
    let mut keeper = vec![u32::MAX; nv];
    let mut copy_of_root: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    let mut split = Vec::new();
    for t in 0..tris.len() {
        if flat[t] {
            continue;
        }
        for k in 0..3 {
            let v = tris[t][k];
            let r = find(&mut parent, (3 * t + k) as u32);
            let kv = &mut keeper[v as usize];
            if *kv == u32::MAX {
                *kv = r;
            } else if *kv != r {
                let id = *copy_of_root.entry(r).or_insert_with(|| {
                    split.push(v);
                    (nv + split.len() - 1) as u32
                });
                tris[t][k] = id;
            }
        }
    }
    split
}

fn find_islands(
    vertices: &[Vec3],
    tris: &[[u32; 3]],
    links: &[[u32; 3]],
    flat: &[bool],
) -> (Vec<u32>, Vec<Island>) {
    let n = tris.len();
    let mut island = vec![NO_TRIANGLE; n];
    let mut islands = Vec::new();
    let mut stack = Vec::new();
    for seed in 0..n {
        if island[seed] != NO_TRIANGLE {
            continue;
        }
        let id = islands.len() as u32;
        let mut info = Island {
            triangles: 0,
            plan_area: 0.0,
            area_3d: 0.0,
            first_triangle: seed as u32,
        };
        island[seed] = id;
        stack.push(seed as u32);
        while let Some(t) = stack.pop() {
            let tu = t as usize;
            info.triangles += 1;
            if !flat[tu] {
                let [a, b, c] = tris[tu].map(|i| vertices[i as usize].as_dvec3());
                info.plan_area += 0.5 * cross2([a.x, a.y], [b.x, b.y], [c.x, c.y]).abs();
                info.area_3d += 0.5 * (b - a).cross(c - a).length();
            }
            for &l in &links[tu] {
                if l != NO_TRIANGLE {
                    let m = (l >> 2) as usize;
                    if island[m] == NO_TRIANGLE {
                        island[m] = id;
                        stack.push(m as u32);
                    }
                }
            }
        }
        islands.push(info);
    }
    (island, islands)
}

/// Per node its component, per component its parent in the bridge tree and its depth.
pub(crate) type BridgeTree = (Vec<u32>, Vec<u32>, Vec<u32>);

/// The 2-edge-connected components of a graph given by its edge slots and the tree its bridges
/// make of them (one per connected part, rooted at the component of its lowest node).
///
/// `slots(v)` is node `v`'s range of edge slots; `across(slot)` the node on the other side and
/// the slot that leads back, or `None` for a wall. Parallel edges (two slots joining the same
/// two nodes) are never bridges.
pub(crate) fn bridge_tree(
    n: usize,
    slots: impl Fn(u32) -> std::ops::Range<usize>,
    across: impl Fn(usize) -> Option<(u32, usize)>,
) -> BridgeTree {
    const UNSEEN: u32 = u32::MAX;
    let total = if n == 0 { 0 } else { slots(n as u32 - 1).end };
    let mut tin = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    // The node's own slot of the tree edge it was entered by.
    let mut entry = vec![usize::MAX; n];
    let mut bridge = vec![false; total];
    let mut timer = 0u32;
    // (node, next slot to look at)
    let mut stack: Vec<(u32, usize)> = Vec::new();
    for root in 0..n as u32 {
        if tin[root as usize] != UNSEEN {
            continue;
        }
        tin[root as usize] = timer;
        low[root as usize] = timer;
        timer += 1;
        stack.push((root, slots(root).start));
        while let Some(&mut (t, ref mut k)) = stack.last_mut() {
            let tu = t as usize;
            if *k < slots(t).end {
                let slot = *k;
                *k += 1;
                if slot == entry[tu] {
                    continue;
                }
                let Some((nb, back)) = across(slot) else {
                    continue;
                };
                let nb = nb as usize;
                if tin[nb] == UNSEEN {
                    tin[nb] = timer;
                    low[nb] = timer;
                    timer += 1;
                    entry[nb] = back;
                    stack.push((nb as u32, slots(nb as u32).start));
                } else {
                    low[tu] = low[tu].min(tin[nb]);
                }
            } else {
                stack.pop();
                let e = entry[tu];
                // The parent is across our entry slot.
                if e != usize::MAX
                    && let Some((p, pe)) = across(e)
                {
                    let p = p as usize;
                    low[p] = low[p].min(low[tu]);
                    if low[tu] > tin[p] {
                        bridge[e] = true;
                        bridge[pe] = true;
                    }
                }
            }
        }
    }
    drop(tin);
    drop(low);
    drop(entry);
    // Components: flood fill without crossing bridges.
    let mut comp = vec![NO_TRIANGLE; n];
    let mut ncomp = 0u32;
    let mut queue: Vec<u32> = Vec::new();
    for seed in 0..n {
        if comp[seed] != NO_TRIANGLE {
            continue;
        }
        comp[seed] = ncomp;
        queue.push(seed as u32);
        while let Some(t) = queue.pop() {
            for slot in slots(t) {
                if bridge[slot] {
                    continue;
                }
                if let Some((nb, _)) = across(slot)
                    && comp[nb as usize] == NO_TRIANGLE
                {
                    comp[nb as usize] = ncomp;
                    queue.push(nb);
                }
            }
        }
        ncomp += 1;
    }
    // The bridge tree: components are numbered in order of their lowest node, so a
    // component's parent (reached first from the root) is found by a search over the
    // bridges from each root component.
    let nc = ncomp as usize;
    let mut start = vec![0u32; nc + 1];
    for t in 0..n as u32 {
        for slot in slots(t) {
            if bridge[slot] {
                start[comp[t as usize] as usize + 1] += 1;
            }
        }
    }
    for i in 0..nc {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut adj = vec![0u32; start[nc] as usize];
    for t in 0..n as u32 {
        for slot in slots(t) {
            if bridge[slot]
                && let Some((nb, _)) = across(slot)
            {
                let c = comp[t as usize] as usize;
                adj[fill[c] as usize] = comp[nb as usize];
                fill[c] += 1;
            }
        }
    }
    let mut parent = vec![NO_TRIANGLE; nc];
    let mut depth = vec![u32::MAX; nc];
    for root in 0..nc {
        if depth[root] != u32::MAX {
            continue;
        }
        depth[root] = 0;
        queue.push(root as u32);
        while let Some(c) = queue.pop() {
            let cu = c as usize;
            for &d in &adj[start[cu] as usize..start[cu + 1] as usize] {
                if depth[d as usize] == u32::MAX {
                    depth[d as usize] = depth[cu] + 1;
                    parent[d as usize] = c;
                    queue.push(d);
                }
            }
        }
    }
    (comp, parent, depth)
}

fn find_corners(
    vertices: &[Vec3],
    tris: &[[u32; 3]],
    links: &[[u32; 3]],
    flat: &[bool],
) -> Vec<u64> {
    let nv = vertices.len();
    let mut boundary = vec![false; nv];
    for ((t, l), f) in tris.iter().zip(links).zip(flat) {
        if *f {
            continue;
        }
        for k in 0..3 {
            if l[k] == NO_TRIANGLE {
                boundary[t[k] as usize] = true;
                boundary[t[(k + 1) % 3] as usize] = true;
            }
        }
    }
    // The plan angles round the boundary vertices only.
    let mut angle = vec![0.0f64; nv];
    for (t, f) in tris.iter().zip(flat) {
        if *f || !t.iter().any(|&v| boundary[v as usize]) {
            continue;
        }
        let p = t.map(|i| plan(vertices[i as usize]));
        for k in 0..3 {
            if !boundary[t[k] as usize] {
                continue;
            }
            let o = p[k];
            let a = p[(k + 1) % 3];
            let b = p[(k + 2) % 3];
            let u = [a[0] - o[0], a[1] - o[1]];
            let w = [b[0] - o[0], b[1] - o[1]];
            let ang = (u[0] * w[1] - u[1] * w[0]).atan2(u[0] * w[0] + u[1] * w[1]);
            angle[t[k] as usize] += ang;
        }
    }
    let mut bits = vec![0u64; nv.div_ceil(64)];
    for v in 0..nv {
        if boundary[v] && angle[v] >= std::f64::consts::PI - 1e-6 {
            bits[v / 64] |= 1 << (v % 64);
        }
    }
    bits
}

fn build_grid(vertices: &[Vec3], tris: &[[u32; 3]], flat: &[bool]) -> Grid {
    let mut min = [f64::INFINITY; 2];
    let mut max = [f64::NEG_INFINITY; 2];
    let mut count = 0usize;
    for (t, f) in tris.iter().zip(flat) {
        if *f {
            continue;
        }
        count += 1;
        for &i in t {
            let p = plan(vertices[i as usize]);
            for k in 0..2 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
    }
    if count == 0 {
        return Grid::default();
    }
    let w = (max[0] - min[0]).max(1e-6);
    let h = (max[1] - min[1]).max(1e-6);
    let mut cell = (32.0 * w * h / count as f64).sqrt().max(w.max(h) / 65536.0);
    let boxes = |cell: f64| {
        let inv = 1.0 / cell;
        let nx = ((w * inv).floor() as u64 + 1).min(1 << 20) as u32;
        let ny = ((h * inv).floor() as u64 + 1).min(1 << 20) as u32;
        (inv, nx, ny)
    };
    loop {
        let (inv, nx, ny) = boxes(cell);
        let cells = nx as usize * ny as usize;
        let span = |t: &[u32; 3]| {
            let p = t.map(|i| plan(vertices[i as usize]));
            let lo = |k: usize| p[0][k].min(p[1][k]).min(p[2][k]);
            let hi = |k: usize| p[0][k].max(p[1][k]).max(p[2][k]);
            let c = |v: f64, k: usize, n: u32| {
                (((v - min[k]) * inv).floor().max(0.0) as u64).min(u64::from(n) - 1) as u32
            };
            (
                c(lo(0), 0, nx),
                c(lo(1), 1, ny),
                c(hi(0), 0, nx),
                c(hi(1), 1, ny),
            )
        };
        let mut total = 0usize;
        for (t, f) in tris.iter().zip(flat) {
            if !*f {
                let (x0, y0, x1, y1) = span(t);
                total += (x1 - x0 + 1) as usize * (y1 - y0 + 1) as usize;
            }
        }
        if (total > 8 * count + 1024 || cells > 4 * count + 1024) && cell < w.max(h) {
            cell *= 2.0;
            continue;
        }
        let mut start = vec![0u32; cells + 1];
        for (t, f) in tris.iter().zip(flat) {
            if !*f {
                let (x0, y0, x1, y1) = span(t);
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        start[y as usize * nx as usize + x as usize + 1] += 1;
                    }
                }
            }
        }
        for i in 0..cells {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; total];
        for (ti, (t, f)) in tris.iter().zip(flat).enumerate() {
            if !*f {
                let (x0, y0, x1, y1) = span(t);
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        let s = &mut fill[y as usize * nx as usize + x as usize];
                        items[*s as usize] = ti as u32;
                        *s += 1;
                    }
                }
            }
        }
        return Grid {
            min,
            inv_cell: inv,
            nx,
            ny,
            start,
            items,
        };
    }
}

#[inline]
fn sub3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
#[inline]
fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
#[inline]
fn lerp3(a: [f64; 3], b: [f64; 3], t: f64) -> [f64; 3] {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// Closest point of a segment to `p` in 3-D, and its squared distance.
fn closest_on_segment(a: [f64; 3], b: [f64; 3], p: [f64; 3]) -> ([f64; 3], f64) {
    let ab = sub3(b, a);
    let l2 = dot3(ab, ab);
    let t = if l2 > 0.0 {
        (dot3(sub3(p, a), ab) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let q = lerp3(a, b, t);
    let d = sub3(p, q);
    (q, dot3(d, d))
}

/// Closest point of triangle `t` (non-degenerate in plan) to `p` in 3-D, and its squared
/// distance: the foot of the perpendicular when it falls inside, else the nearest edge point.
pub(crate) fn closest_on_triangle(t: &[[f64; 3]; 3], p: [f64; 3]) -> ([f64; 3], f64) {
    let [a, b, c] = *t;
    let ab = sub3(b, a);
    let ac = sub3(c, a);
    let n = [
        ab[1] * ac[2] - ab[2] * ac[1],
        ab[2] * ac[0] - ab[0] * ac[2],
        ab[0] * ac[1] - ab[1] * ac[0],
    ];
    let nn = dot3(n, n);
    if nn > 0.0 {
        let s = dot3(sub3(p, a), n) / nn;
        let q = [p[0] - n[0] * s, p[1] - n[1] * s, p[2] - n[2] * s];
        // Inside when q is on the inner side of every edge (same side as the normal).
        let inside = (0..3).all(|k| {
            let u = t[k];
            let v = t[(k + 1) % 3];
            let e = sub3(v, u);
            let w = sub3(q, u);
            let c = [
                e[1] * w[2] - e[2] * w[1],
                e[2] * w[0] - e[0] * w[2],
                e[0] * w[1] - e[1] * w[0],
            ];
            dot3(c, n) >= 0.0
        });
        if inside {
            let d = sub3(p, q);
            return (q, dot3(d, d));
        }
    }
    let mut best = closest_on_segment(a, b, p);
    for (u, v) in [(b, c), (c, a)] {
        let r = closest_on_segment(u, v, p);
        if r.1 < best.1 {
            best = r;
        }
    }
    best
}

/// Closest point of triangle `t` to `p` in plan (its height on the triangle), and the squared
/// plan distance.
fn closest_in_plan(t: &[[f64; 3]; 3], p: [f64; 2]) -> ([f64; 3], f64) {
    let flat = t.map(|v| [v[0], v[1], 0.0]);
    let (q, d2) = closest_on_triangle(&flat, [p[0], p[1], 0.0]);
    // Height at q by barycentric weights in plan.
    let [a, b, c] = t.map(|v| [v[0], v[1]]);
    let area = cross2(a, b, c);
    let z = if area != 0.0 {
        let qq = [q[0], q[1]];
        let wa = cross2(qq, b, c) / area;
        let wb = cross2(qq, c, a) / area;
        let wc = 1.0 - wa - wb;
        wa * t[0][2] + wb * t[1][2] + wc * t[2][2]
    } else {
        t[0][2]
    };
    ([q[0], q[1], z], d2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two triangles of a unit square, the second wound clockwise, a third on the diagonal on
    /// the second's side (non-manifold edge) and a vertical one.
    fn surface() -> Surface {
        Surface {
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
}
