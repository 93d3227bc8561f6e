//! What a search returns: [`Path`] (turning points, lengths, the corridor of triangles, the
//! regions passed, the polyline on the surface) or [`PathError`]; and the step that makes a
//! `Path` from a corridor and the turns along it.

use crate::nav::mesh::{LocateError, NO_TRIANGLE, NavMesh, cross2};
use glam::Vec3;

/// A turning point of a path: its vertex (or [`super::START`] for the start or goal), its
/// position, and the corridor edge before which the path reaches it.
pub(crate) type Turn = (u32, Vec3, usize);

/// A start or goal: a plan position and an optional height hint (which floor).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Endpoint {
    /// X.
    pub x: f32,
    /// Y.
    pub y: f32,
    /// The height hint: the walkable point nearest in height is taken; `None`: the highest.
    pub z: Option<f32>,
}

impl Endpoint {
    /// A plan position without a height hint.
    pub fn plan(x: f32, y: f32) -> Self {
        Endpoint { x, y, z: None }
    }
}

impl From<Vec3> for Endpoint {
    fn from(v: Vec3) -> Self {
        Endpoint {
            x: v.x,
            y: v.y,
            z: Some(v.z),
        }
    }
}

/// A path found on the surface.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Path {
    /// The turning points, start and goal included; `z` on the surface.
    pub points: Vec<Vec3>,
    /// Length in plan (the searched metric).
    pub length_plan: f32,
    /// Length along the surface: of [`Path::surface_points`].
    pub length_3d: f32,
    /// The corridor: the triangles the path passes through, in order.
    pub triangles: Vec<u32>,
    /// The regions (rooms) passed, in order, runs of one region given once.
    pub regions: Vec<u32>,
    /// The search effort: in optimal mode the search nodes expanded (each visits one cell), in
    /// fast mode the cells taken from the queue, over the corner graph the items taken from
    /// its queue; 0 when start and goal lie in one cell.
    pub expanded: usize,
    pub(crate) surface: Vec<Vec3>,
}

impl Path {
    /// The polyline on the surface: the turning points plus a point on each triangle edge the
    /// path crosses (consecutive duplicates removed).
    pub fn surface_points(&self) -> &[Vec3] {
        &self.surface
    }

    pub(crate) fn clear(&mut self) {
        self.points.clear();
        self.triangles.clear();
        self.regions.clear();
        self.surface.clear();
        self.length_plan = 0.0;
        self.length_3d = 0.0;
        self.expanded = 0;
    }
}

/// Why no path was found.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum PathError {
    /// The start is not on (or within the snap distance of) the walkable surface.
    #[error("start: {0}")]
    Start(LocateError),
    /// The goal is not on (or within the snap distance of) the walkable surface.
    #[error("goal: {0}")]
    Goal(LocateError),
    /// Start and goal lie on different islands: no walk joins them.
    #[error("start (island {start}) and goal (island {goal}) are not connected")]
    DifferentIslands {
        /// The start's island.
        start: u32,
        /// The goal's island.
        goal: u32,
    },
    /// The search stopped at its node limit, 32 nodes per triangle plus a million (a
    /// safeguard against numerical trouble; not expected on valid input).
    #[error("search stopped after {nodes} nodes")]
    SearchLimit {
        /// Nodes generated when it stopped.
        nodes: usize,
    },
    /// The search ended without reaching the goal although both lie on one island (not
    /// expected; a numerical failure).
    #[error("no path found")]
    NotFound,
    /// The request names a search whose data was not given with the mesh (the polygons, the
    /// landmarks or the corner graph).
    #[error("the search asked for needs {what}, which was not built")]
    Missing {
        /// What is missing.
        what: &'static str,
    },
    /// Acceleration data given with the mesh was built from another mesh (another
    /// [`crate::nav::NavMesh::id`]).
    #[error("{what} were built from another mesh than the one searched")]
    Mismatch {
        /// Which: the polygons, the landmarks or the corner graph.
        what: &'static str,
    },
    /// A corridor given to [`crate::nav::query::Searcher::path_along`] does not start at the
    /// start's triangle,
    /// end at the goal's, or step between neighbours.
    #[error(
        "the corridor breaks at position {index} (not the start's or goal's triangle, or not a neighbour of the one before)"
    )]
    Corridor {
        /// The position in the corridor where it breaks.
        index: usize,
    },
}

#[inline]
fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1])).sqrt()
}

/// Fills `out` from a corridor of triangles and the path's turns along it: points, lengths,
/// surface polyline, regions.
pub(crate) fn finish(mesh: &NavMesh, corridor: &[u32], turns: &mut Vec<Turn>, out: &mut Path) {
    // A turn at the start's or the goal's own place (an end on a corner) is no turn.
    let mut i = 1;
    while i < turns.len() && turns.len() > 2 {
        let (a, b) = (turns[i].1, turns[i - 1].1);
        if a.x == b.x && a.y == b.y {
            let at = if i + 1 == turns.len() { i - 1 } else { i };
            turns.remove(at);
        } else {
            i += 1;
        }
    }
    out.points.extend(turns.iter().map(|t| t.1));
    let mut plan_len = 0.0f64;
    for w in out.points.windows(2) {
        plan_len += dist(
            [f64::from(w[0].x), f64::from(w[0].y)],
            [f64::from(w[1].x), f64::from(w[1].y)],
        );
    }
    out.length_plan = plan_len as f32;
    out.triangles.extend_from_slice(corridor);
    for &t in corridor {
        let r = mesh.regions.get(t);
        if out.regions.last() != Some(&r) {
            out.regions.push(r);
        }
    }
    // The surface polyline: a point where the path crosses each corridor edge.
    let pts = &out.points;
    let surf = &mut out.surface;
    let p2 = |v: Vec3| [f64::from(v.x), f64::from(v.y)];
    surf.push(pts[0]);
    let mut j = 0usize;
    for (e, w) in corridor.windows(2).enumerate() {
        // Turning points reached before this edge.
        while j + 2 < pts.len() && turns[j + 1].2 <= e {
            j += 1;
            push_distinct(surf, pts[j]);
        }
        let (ta, tb) = (w[0] as usize, w[1]);
        let tri = mesh.tris[ta];
        let Some(k) =
            (0..3).find(|&k| mesh.links[ta][k] != NO_TRIANGLE && mesh.links[ta][k] >> 2 == tb)
        else {
            continue;
        };
        let (uu, vv) = (
            mesh.vertices[tri[k] as usize],
            mesh.vertices[tri[(k + 1) % 3] as usize],
        );
        let (u, v) = (p2(uu), p2(vv));
        let (p, q) = (p2(pts[j]), p2(pts[j + 1]));
        let du = cross2(p, q, u);
        let dv = cross2(p, q, v);
        let s = if du != dv {
            du / (du - dv)
        } else {
            // Along the edge (or a point): the edge point nearest to p.
            let d = [v[0] - u[0], v[1] - u[1]];
            let dd = d[0] * d[0] + d[1] * d[1];
            if dd > 0.0 {
                ((p[0] - u[0]) * d[0] + (p[1] - u[1]) * d[1]) / dd
            } else {
                0.0
            }
        };
        let x = uu + (vv - uu) * s.clamp(0.0, 1.0) as f32;
        push_distinct(surf, x);
    }
    for &p in &pts[j + 1..] {
        push_distinct(surf, p);
    }
    let mut len3 = 0.0f64;
    for w in surf.windows(2) {
        len3 += (w[1] - w[0]).as_dvec3().length();
    }
    out.length_3d = len3 as f32;
}

#[inline]
fn push_distinct(v: &mut Vec<Vec3>, p: Vec3) {
    if v.last() != Some(&p) {
        v.push(p);
    }
}
