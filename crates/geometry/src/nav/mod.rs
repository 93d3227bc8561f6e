//! Navigation over walkable surfaces: stitching rooms, the navigation mesh, path searches.
//!
//! A [`Surface`] is the walkable ground of an area as plain arrays: triangles over shared
//! vertices, each tagged with the region (room) it came from — one KotOR room WOK, the rooms
//! of an area, an NWN2 TRX walkmesh, or any of these carved for an agent's radius. Nothing here
//! knows a file format: the `areakit` crate fills a `Surface`.
//!
//! # The model
//!
//! - **Connectivity** comes only from shared edges: two triangles are neighbours when they use
//!   the same two vertex indices on opposite sides in plan ([`mesh`] has the exact rule,
//!   including edges shared by three or more triangles). Floors that overlap in plan (a bridge
//!   over a corridor, a balcony over a hall) are never joined by overlapping, so no path jumps
//!   between them.
//! - **Rooms** are separate triangle sets; [`stitch()`] joins them where their boundary edges
//!   coincide in 3-D (within a tolerance; floors at different heights never join), splitting
//!   triangles at T-junctions, and reports each seam.
//! - **Metric**: lengths are plan (x, y) Euclidean, as the engines plan; the path's `z`
//!   follows the faces, and [`Path::length_3d`] measures along the surface.
//! - **Points**: a start or goal is located like [`crate::query::Locator::face_at`] (with a
//!   height hint the face nearest in height, without one the highest); off the surface it snaps
//!   to the nearest walkable point within a snap distance (3-D with a hint, plan without), else
//!   the search says how far the nearest walkable point is ([`LocateError`]).
//!
//! # The searches
//!
//! The layout follows Detour's: a [`NavMesh`] is built once from a [`Surface`] and never
//! changes; the data that speeds searches up — the convex [`Polygons`], [`Landmarks`], the
//! [`CornerGraph`] — is built from it into types of its own; a query object, [`Searcher`],
//! answers a [`Request`] (which search, which mode) on the [`NavData`] it is handed:
//!
//! ```text
//!   surface ──► mesh ──► poly ──► search ──► landmarks, corners ──► query
//! ```
//!
//! Each module imports only those to its left (`stitch` and `clearance` only `surface`);
//! `crates/geometry/tests/layers.rs` checks it. [`search`] holds the engine's parts (node
//! pool, the cells, Polyanya written once over triangles and polygons, A*, the funnel, the
//! straight walk, the result types); [`query`] explains the searches:
//!
//! - [`Mode::Optimal`] (default): the exact shortest path (Polyanya: root/interval search
//!   nodes, exact heuristic, root-level pruning), or the same over the corner graph;
//! - [`Mode::Fast`]: A* over polygons (or triangles) and the funnel algorithm, or over the
//!   corner graph the optimal search with weighted bounds; never shorter than optimal, and
//!   over the graph at most [`FAST_BOUND`] times it.
//!
//! Both return a [`Path`]: turning points (z on the surface), plan and 3-D lengths, the
//! corridor of triangles, the regions passed and the search effort, and the densified surface
//! polyline ([`Path::surface_points`]). Unreachable goals give a reason ([`PathError`]:
//! off the surface, different islands). A `Searcher` reuses its buffers, so repeated queries
//! allocate nothing.

pub mod clearance;
pub mod corners;
pub mod landmarks;
pub mod mesh;
pub mod poly;
pub mod query;
pub mod search;
pub mod stitch;
pub mod surface;
mod union_find;

pub use corners::CornerGraph;
pub use landmarks::Landmarks;
pub use mesh::{Island, LocateError, Location, NavMesh, SAME_FLOOR};
pub use poly::Polygons;
pub use query::{DEFAULT_SNAP, FAST_BOUND, Mode, NavData, NavSet, Request, Search, Searcher};
pub use search::result::{Endpoint, Path, PathError};
pub use stitch::{Seam, SeamSegment, Stitched, stitch};
pub use surface::{MAX_TRIANGLES, Surface, SurfaceError};
