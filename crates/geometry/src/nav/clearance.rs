//! Agent radius and placed-object blockers: the walkable ground an agent of radius `r` can
//! stand on, as a new [`Surface`] that the searches use unchanged.
//!
//! # The model
//!
//! Everything is measured **in plan** (x, y); heights only decide which floor things are on.
//!
//! - **Ground.** The *active* triangles of the [`Surface`]: three distinct vertex indices and a
//!   plan height above the triangle's tolerance (4 f32 ulps of its largest coordinate plus 1e-9
//!   of its size). Vertical and collinear triangles have no plan area: they are not ground, and
//!   their sides do not join their neighbours.
//! - **Boundary.** A side of an active triangle that no other active triangle shares (same two
//!   vertex indices, either direction — the rule of [`crate::derive::adjacency`]). A side shared
//!   by three or more triangles is interior. The stitched surface of an area has a boundary only
//!   where its ground really ends (walls, ledges).
//! - **Same floor.** A boundary side of triangle `U` counts for triangle `T` when `U` is `T`, or
//!   when `U` is reached from `T` through neighbouring triangles that all lie within plan
//!   distance `r` of `T` (breadth first). So a bridge over a floor does not erode it: the
//!   bridge's triangles are close in plan but joined to the floor only far away. Within that
//!   neighbourhood a second, provably safe filter drops the parts of `U`'s side whose height
//!   differs from `T`'s plane (extended) at the same plan point by more than `2 * S * r` (+1 mm),
//!   `S` the steepest plan gradient in the neighbourhood: no walk of plan length below `r` over
//!   those triangles can climb that far, so a balcony reached by stairs alongside a floor does
//!   not erode the floor under it.
//! - **Blockers.** A [`Blocker`] is a placed object's non-walkable triangles in area space. Its
//!   footprint is the union of their plan projections; a vertical face projects to a segment,
//!   and a segment or point footprint still blocks (swept by the radius, at least
//!   [`MIN_BLOCKER_GROWTH`]). Vertically a blocker spanning `[lo, hi]` (its lowest and highest
//!   vertex) blocks ground at height `z` only when
//!   `lo - agent_height <= z <= hi + ground_tolerance` ([`ClearanceOptions`]): the object
//!   overlaps the agent's column `[z, z + agent_height]`, with some slack below for objects
//!   whose base sits slightly under sloping ground. Ground on another floor is not touched.
//!   An object that arches over walkable ground must be passed as several blockers.
//! - **Clearance** of a ground point `p` on triangle `T` ([`clearance_at`]): the plan distance
//!   to the nearest boundary side or blocker footprint that counts for `T` by the rules above,
//!   taking the radius-dependent rules at the radius equal to the answer (the largest `r` for
//!   which nothing counting at `r` lies closer than `r`). A point of the carved surface has
//!   clearance at least `r`.
//!
//! # Carving
//!
//! [`carve`] removes from every triangle each obstacle that counts for it, grown by the
//! radius: a boundary side becomes a capsule (segment swept by a disk), a blocker footprint
//! polygon is swept by a disk. Arcs are polygons *circumscribing* the circle, in steps of at
//! most `2 pi / n` with `n` chosen from [`ClearanceOptions::arc_tolerance`] (16 for the default
//! 2 %), so the obstacles contain the true swept regions: carving is conservative. Straight
//! sides (of capsules and of grown footprints) lie exactly at distance `r`, so a corridor of
//! width `w` stays open for `r < w / 2`. Ground is over-eroded only near arcs, by at most
//! `r * (1 / cos(pi / n) - 1)` ([`CarveStats::max_over_erosion`], 1.96 % of `r` for `n = 16`).
//! A gap narrower than `2 r` is closed.
//!
//! Each triangle is split against its convex obstacles one by one (convex difference: the part
//! outside each edge line of the obstacle becomes a piece; the edges crossing the piece are cut
//! first, which keeps free ground from being cut along lines that do not touch it), giving
//! convex pieces. Piece corners within the triangle's tolerance of a corner or a side are
//! snapped onto it, the others welded, and corners left collinear dropped from their piece.
//! The cut points of all triangles around an original edge are then merged into one list, so
//! the pieces on both sides use the same vertices; every piece side gets the vertices lying on
//! it (the merged cut points on an original edge; the corners of the triangle's other pieces on
//! a cut, each corner on one side only) and each piece is ear-clipped at the positions the
//! vertices are written with (f32), best-shaped ear first, so that no triangle turns over when
//! rounded. The result is **conforming**: neighbouring pieces share vertex indices along every
//! cut and every original edge (no T-junctions). New vertices lie on their original triangle's
//! plane (on the original edge, for cut points on an edge). Regions are kept, and
//! [`Carved::origin`] maps each new triangle to its original triangle. Nothing with area is
//! culled: only pieces flat after snapping go (their corners live on in the neighbouring sides,
//! so no gap opens). A last pass repairs any triangle rounding still turned over (removed, the
//! triangle across its long side split at its middle corner: [`CarveStats::repaired`]) and
//! counts what it could not ([`CarveStats::inverted`], 0 in every test and measurement).
//!
//! Radius 0 with no blockers returns the surface unchanged (a fast path). The work is bounded:
//! a triangle cut into more than 65 536 pieces is dropped whole (safe: less ground), counted in
//! [`CarveStats::limited`].
//!
//! # Narrow passages
//!
//! [`narrow_passages`] carves with the radius and looks, per connected island of the original
//! surface, at the carved parts (of at least `0.01 r²` area). Two or more parts mean that
//! eroding by the radius split the island: the parts are joined again through the eroded
//! ground by the widest way (a maximum spanning forest whose nodes are the parts and the eroded
//! triangles, joined across shared sides at the largest clearance on each side; a triangle
//! holding pieces of several parts is sampled on a grid of spacing `r / 3` so the way through
//! it is followed too), and each join that links two sets holding parts is reported at the
//! narrowest point of that widest way, with width twice the clearance there (refined across
//! the way for grid joins; at most `2 r (1 + arc_tolerance)`, where the polygonal arcs closed a
//! gap just wider than `2 r`). An island whose ground is all narrower than `2 r` is gone
//! entirely and is not reported (nothing was split); a room's corners are eroded without
//! splitting anything and are not reported either.

mod carve;
mod conform;
mod geom;
mod passages;
mod prepare;
mod query;
#[cfg(test)]
mod tests;

use glam::{DVec2, Vec3};

pub use carve::MIN_BLOCKER_GROWTH;

use crate::nav::surface::{Surface, SurfaceError};
use carve::{Chunk, Ctx, Scratch};
use conform::Tris;
use prepare::{Footprints, Grid, Topo};

/// The personal-space radius of a human creature in KotOR, in metres: `PERSPACE` of
/// `appearance.2da` ("personal space used to determine if the creature will fit through an
/// opening", BioWare's Aurora creature documentation). 0.35 is the default KotOR.js applies to
/// an appearance row (`SWCreatureAppearance`: `hitradius` 0.25, `perspace` 0.35,
/// `creperspace` 0.4, the combat space); the game's own human rows were not available to check.
pub const HUMAN_RADIUS: f32 = 0.35;

/// A placed object's non-walkable faces in area space.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Blocker {
    /// The triangles (x, y in plan, z up). Their plan projections, vertical ones included (as
    /// segments), make the footprint; their lowest and highest vertex the vertical span.
    pub triangles: Vec<[Vec3; 3]>,
}

impl Blocker {
    /// A blocker from its triangles.
    pub fn new(triangles: Vec<[Vec3; 3]>) -> Blocker {
        Blocker { triangles }
    }
}

/// Tolerances and the agent's size other than its radius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClearanceOptions {
    /// Largest over-erosion of the polygonal arcs, as a fraction of the radius: the disk is a
    /// regular polygon with the fewest even number of sides (8 to 256) whose corners lie within
    /// `arc_tolerance * r` of the circle. Default 0.02 (16 sides, 1.96 %).
    pub arc_tolerance: f32,
    /// The agent's height (metres): a blocker reaching down to within this height above the
    /// ground blocks it. Default 1.8.
    pub agent_height: f32,
    /// How far (metres) the ground may lie above a blocker's highest point and still be
    /// blocked by it (a flat footprint below sloping ground). Default 0.5.
    pub ground_tolerance: f32,
}

impl Default for ClearanceOptions {
    fn default() -> Self {
        ClearanceOptions {
            arc_tolerance: 0.02,
            agent_height: 1.8,
            ground_tolerance: 0.5,
        }
    }
}

/// Why clearance cannot be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClearanceError {
    /// The surface's arrays do not agree.
    #[error("surface: {0}")]
    Surface(SurfaceError),
    /// The radius is negative, NaN or infinite.
    #[error("radius {0}: not a finite value >= 0")]
    Radius(f32),
    /// A blocker triangle with a NaN or infinite coordinate.
    #[error("blocker {blocker} triangle {triangle}: not a finite position")]
    Blocker {
        /// The blocker.
        blocker: usize,
        /// Its triangle.
        triangle: usize,
    },
    /// An option is out of range (named).
    #[error("option {0}: out of range")]
    Option(&'static str),
    /// More triangles than the 32-bit side codes can name.
    #[error("{triangles} triangles, {vertices} vertices: too many for 32-bit indices")]
    TooLarge {
        /// Triangle count.
        triangles: usize,
        /// Vertex count.
        vertices: usize,
    },
}

/// What a carve did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CarveStats {
    /// Sides of the polygon standing for the disk.
    pub arc_sides: usize,
    /// Largest over-erosion near arcs, metres: `r * (1 / cos(pi / n) - 1)`.
    pub max_over_erosion: f32,
    /// Grown obstacles (boundary capsules and blocker footprint polygons).
    pub obstacles: usize,
    /// Obstacles applied to triangles, summed over triangles.
    pub obstacle_uses: usize,
    /// Triangles no obstacle touched (kept, possibly with neighbours' cut points inserted).
    pub untouched: usize,
    /// Triangles cut by at least one obstacle (some may be gone entirely).
    pub cut: usize,
    /// Triangles that are not ground (repeated vertex index, no plan area).
    pub inactive: usize,
    /// Triangles dropped at the piece limit.
    pub limited: usize,
    /// Convex pieces left after cutting.
    pub pieces: usize,
    /// Triangles of the result.
    pub output_triangles: usize,
    /// Slivers that rounding to f32 turned over or flattened, repaired (removed, the triangle
    /// across their long side split at their middle corner).
    pub repaired: usize,
    /// Result triangles whose plan orientation still differs from their original triangle's
    /// (expected 0).
    pub inverted: usize,
}

/// A carved surface.
#[derive(Debug, Clone, PartialEq)]
pub struct Carved {
    /// The ground with clearance, conforming, regions kept.
    pub surface: Surface,
    /// Per result triangle: its original triangle.
    pub origin: Vec<u32>,
    /// What was done.
    pub stats: CarveStats,
}

/// A place where the ground is narrower than twice the radius and eroding by the radius splits
/// the island it belongs to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NarrowPassage {
    /// The narrowest point of the widest way between the two parts (on the ground).
    pub position: Vec3,
    /// Twice the clearance there, metres.
    pub width: f32,
    /// The region (room) of the triangle holding `position`.
    pub region: u32,
}

/// A surface and its blockers prepared for clearance queries, carving and narrow-passage
/// checks (the topology, planes and grids are made once).
pub struct Clearance<'a> {
    surface: &'a Surface,
    topo: Topo,
    fp: Footprints,
    options: ClearanceOptions,
    /// Grid of active triangles (point location).
    tri_grid: Grid,
    /// Grid of blocker footprint polygons (raw, not grown).
    fp_grid: Grid,
    /// Visit marks of the point queries (triangles, footprints), kept between queries.
    marks: std::sync::Mutex<Option<(prepare::Marks, prepare::Marks)>>,
}

impl<'a> Clearance<'a> {
    /// Prepares `surface` with `blockers`.
    pub fn new(
        surface: &'a Surface,
        blockers: &[Blocker],
        options: ClearanceOptions,
    ) -> Result<Clearance<'a>, ClearanceError> {
        let ok = |v: f32, lo: f32, hi: f32| v.is_finite() && v >= lo && v <= hi;
        if !ok(options.arc_tolerance, 1e-5, 1.0) {
            return Err(ClearanceError::Option("arc_tolerance"));
        }
        if !ok(options.agent_height, 0.0, f32::MAX) {
            return Err(ClearanceError::Option("agent_height"));
        }
        if !ok(options.ground_tolerance, 0.0, f32::MAX) {
            return Err(ClearanceError::Option("ground_tolerance"));
        }
        let topo = Topo::new(surface)?;
        let fp = Footprints::new(blockers)?;
        let boxes: Vec<geom::Aabb> = (0..topo.n)
            .map(|t| {
                if topo.active[t] {
                    topo.bbox[t]
                } else {
                    geom::Aabb::EMPTY
                }
            })
            .collect();
        let tri_grid = Grid::new(&boxes);
        let fboxes: Vec<geom::Aabb> = (0..fp.polys.len())
            .map(|i| geom::Aabb::of(fp.poly(i)))
            .collect();
        let fp_grid = Grid::new(&fboxes);
        Ok(Clearance {
            surface,
            topo,
            fp,
            options,
            tri_grid,
            fp_grid,
            marks: std::sync::Mutex::new(None),
        })
    }

    /// The surface.
    pub fn surface(&self) -> &Surface {
        self.surface
    }

    /// The ground with clearance `radius` (see the module docs).
    pub fn carve(&self, radius: f32) -> Result<Carved, ClearanceError> {
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(ClearanceError::Radius(radius));
        }
        let topo = &self.topo;
        let n = topo.n;
        if radius == 0.0 && self.fp.polys.is_empty() {
            return Ok(Carved {
                surface: self.surface.clone(),
                origin: (0..n as u32).collect(),
                stats: CarveStats {
                    untouched: topo.active.iter().filter(|&&a| a).count(),
                    inactive: topo.active.iter().filter(|&&a| !a).count(),
                    output_triangles: n,
                    ..CarveStats::default()
                },
            });
        }
        let r = f64::from(radius);
        let ctx = Ctx::new(topo, &self.fp, r, &self.options);
        let sides = ctx.disk.unit.len();
        let mut stats = CarveStats {
            arc_sides: sides,
            max_over_erosion: (r * (ctx.disk.vertex_radius() - 1.0)) as f32,
            obstacles: ctx.obst.bbox.len(),
            ..CarveStats::default()
        };
        // Pass 1 (and 3), in parallel over ranges of triangles for large surfaces.
        let threads = if n >= 8192 {
            std::thread::available_parallelism()
                .map_or(1, |p| p.get())
                .min(8)
        } else {
            1
        };
        let per = n.div_ceil(threads.max(1)).max(1);
        let run = |i: usize| {
            let (lo, hi) = ((i * per).min(n), ((i + 1) * per).min(n));
            let mut sc = Scratch::new(n, ctx.obst.bbox.len());
            let mut chunk = Chunk::default();
            for t in lo..hi {
                ctx.carve_triangle(t, &mut sc, &mut chunk);
            }
            chunk
        };
        let chunks: Vec<Chunk> = on_threads(threads.max(1), &run);
        for ch in &chunks {
            stats.obstacle_uses += ch.obstacles_used;
            stats.pieces += ch.pieces;
            for &(_, _, _, fate) in &ch.recs {
                match fate {
                    carve::Fate::Inactive => stats.inactive += 1,
                    carve::Fate::Untouched => stats.untouched += 1,
                    carve::Fate::Cut => stats.cut += 1,
                    carve::Fate::Limited => stats.limited += 1,
                }
            }
        }
        // Pass 2: merged cut points per original edge.
        let (edges, vrefs, interior) = conform::merge_edges(topo, self.surface, &chunks);
        // Pass 3: triangles without T-junctions.
        let p3 = conform::Pass3 {
            topo,
            surface: self.surface,
            edges: &edges,
            vrefs: &vrefs,
            interior: &interior,
        };
        let pass3 = |ci: usize| {
            let mut t = Tris::default();
            conform::triangulate(&p3, &chunks[ci], ci, &mut t);
            t
        };
        let parts: Vec<Tris> = on_threads(chunks.len(), &pass3);
        let mut tris = Tris::default();
        for t in parts {
            tris.tris.extend_from_slice(&t.tris);
            tris.origin.extend_from_slice(&t.origin);
        }
        Ok(conform::assemble(
            topo,
            self.surface,
            &edges,
            &interior,
            tris,
            stats,
        ))
    }

    /// The clearance of the ground point under (or nearest in height to) `point`: the plan
    /// distance to the nearest boundary or blocker that counts for it (module docs). `None`
    /// when no ground triangle contains `(x, y)`; infinity when nothing bounds the ground.
    pub fn clearance_at(&self, point: Vec3) -> Option<f32> {
        let p = DVec2::new(f64::from(point.x), f64::from(point.y));
        let t = self.locate(p, f64::from(point.z))?;
        Some(self.clearance_on(t, p) as f32)
    }

    /// Places narrower than `2 * radius` whose erosion splits an island (module docs).
    pub fn narrow_passages(&self, radius: f32) -> Result<Vec<NarrowPassage>, ClearanceError> {
        passages::narrow_passages(self, radius)
    }
}

/// `f(0) .. f(jobs - 1)` in order, each on a thread of its own when there are several (a job
/// whose thread cannot be started runs here).
fn on_threads<T: Send>(jobs: usize, f: &(impl Fn(usize) -> T + Sync)) -> Vec<T> {
    if jobs <= 1 {
        return (0..jobs).map(f).collect();
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs)
            .map(|i| {
                std::thread::Builder::new()
                    .spawn_scoped(s, move || f(i))
                    .map_err(|_| i)
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
                Err(i) => f(i),
            })
            .collect()
    })
}

/// [`Clearance::carve`] in one call.
pub fn carve(
    surface: &Surface,
    blockers: &[Blocker],
    radius: f32,
    options: ClearanceOptions,
) -> Result<Carved, ClearanceError> {
    Clearance::new(surface, blockers, options)?.carve(radius)
}

/// [`Clearance::clearance_at`] in one call (prepares the surface each time: for many points
/// make a [`Clearance`] once).
pub fn clearance_at(
    surface: &Surface,
    blockers: &[Blocker],
    point: Vec3,
    options: ClearanceOptions,
) -> Result<Option<f32>, ClearanceError> {
    Ok(Clearance::new(surface, blockers, options)?.clearance_at(point))
}

/// [`Clearance::narrow_passages`] in one call.
pub fn narrow_passages(
    surface: &Surface,
    blockers: &[Blocker],
    radius: f32,
    options: ClearanceOptions,
) -> Result<Vec<NarrowPassage>, ClearanceError> {
    Clearance::new(surface, blockers, options)?.narrow_passages(radius)
}
