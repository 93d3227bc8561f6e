//! Cutting holes in a triangle mesh: every triangle clipped against a set of polygons (the
//! NWN2 toolset's walkmesh cutters), the parts inside removed, the rest triangulated.
//!
//! - **Exact predicates.** Every side test (a point against a line, a point in a polygon) is
//!   Shewchuk's adaptive-precision `orient2d` (`robust` crate) on the `f64` coordinates, so cuts
//!   through vertices, along edges, and touching or crossing cutters are decided exactly on the
//!   coordinates given. Constructed points (where a cutter edge crosses a triangle edge) are
//!   rounded; the predicates are exact on them.
//! - **Conforming.** A point where a cutter edge crosses a triangle edge is computed from the
//!   edge's two vertices in index order, so both triangles on that edge compute the same point
//!   bit for bit, and its height is interpolated along the edge. Each triangle's boundary is
//!   kept as the chain of its edge points, so the pieces of two neighbours meet vertex to vertex.
//! - **Per triangle.** A triangle that no cutter edge enters is kept or removed whole; one that
//!   is entered is triangulated by a constrained Delaunay triangulation (`spade`) of its
//!   corners, its edge points, the cutter vertices inside it and the cutter edges as constraints
//!   (crossing cutters split each other there), and each piece is kept when its centroid lies
//!   outside every cutter.
//!
//! - **`f32` points.** Cutter corners and every point the cut makes are rounded to `f32` (the
//!   walkmesh's precision) before they are triangulated; a point within a few `f32` steps of
//!   another is that point, and [`CutOptions::weld`] widens that distance ([`cut_welding`]
//!   only in chosen triangles and on their edges).
//!
//! The module knows no file format: `areakit_area::nwn2_cut` maps an NWN2 walkmesh onto it.

mod piece;
mod predicates;

use std::collections::HashMap;

pub use predicates::{FillRule, inside};

/// The most points one cutter may have (a bound on the work per triangle).
pub const MAX_CUTTER_POINTS: usize = 1 << 14;

/// A polygon that cuts: its ring in plan (x, y), closed implicitly (the last point joins the
/// first), either orientation.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cutter {
    /// The ring's points.
    pub ring: Vec<[f64; 2]>,
}

impl Cutter {
    /// The ring's bounding box: `[min_x, min_y, max_x, max_y]`.
    pub fn bbox(&self) -> [f64; 4] {
        bbox_of(self.ring.iter().copied())
    }
}

/// How [`cut`] cuts.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CutOptions {
    /// Which points a self-intersecting ring covers.
    pub fill: FillRule,
    /// Points the cut makes closer than this (metres, in plan) to a point already there are
    /// that point: a crossing near a triangle corner is the corner, two crossings of one
    /// edge closer than this are one. 0 keeps every point (down to `f32` steps). The NWN2
    /// toolset welds at 0.1 m ([`NWN2_WELD`]).
    pub weld: f64,
}

/// The NWN2 toolset's weld distance: in the 8 real areas of the corpus, no vertex a cut made
/// lies within 0.1 m of another vertex (9 318 of 9 350 new vertices on cutter edges; the rest
/// are near merged object walkmeshes).
pub const NWN2_WELD: f64 = 0.1;

/// What [`cut`] cannot work on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CutError {
    /// A triangle names a vertex past the end of the vertex list.
    #[error("triangle {triangle} names vertex {vertex}, past the vertex list")]
    VertexIndex {
        /// The triangle.
        triangle: usize,
        /// The index it names.
        vertex: u32,
    },
    /// A cutter has more than [`MAX_CUTTER_POINTS`] points.
    #[error("cutter {cutter} has {points} points; at most {MAX_CUTTER_POINTS} are cut")]
    TooManyPoints {
        /// The cutter.
        cutter: usize,
        /// Its point count.
        points: usize,
    },
    /// A coordinate is not finite.
    #[error("{}", match cutter { Some(c) => format!("cutter {c} has a coordinate that is not finite"), None => "a mesh vertex is not finite".to_string() })]
    NotFinite {
        /// The cutter, or `None` for a mesh vertex.
        cutter: Option<usize>,
    },
}

/// The mesh after the cut.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CutMesh {
    /// The input's vertices (same indices), then the new ones. Vertices no triangle uses any
    /// more are kept: compacting is the caller's choice.
    pub vertices: Vec<[f32; 3]>,
    /// The triangles, each wound as its parent.
    pub triangles: Vec<[u32; 3]>,
    /// The input triangle each output triangle comes from.
    pub parent: Vec<u32>,
    /// Plan area removed, per cutter (a part inside several cutters counts for the first).
    pub removed_area: Vec<f64>,
    /// Input triangles cut into pieces (some kept, some removed).
    pub cut: usize,
    /// Input triangles removed whole.
    pub removed: usize,
    /// Pieces dropped because rounding their corners to `f32` made them flat or turned them
    /// over (their area is below the rounding of the coordinates).
    pub slivers: usize,
}

/// Cuts `triangles` (indices into `vertices`) by `cutters` as `options` say. Triangles for which
/// `cuttable` is false are kept as they are. Output triangles keep their parent's winding;
/// a triangle no cutter touches keeps its vertex indices.
///
/// Cutter points are rounded to `f32` first (the walkmesh's precision), and so is every point
/// the cut makes: a crossing that rounds onto a triangle corner is that corner.
pub fn cut(
    vertices: &[[f32; 3]],
    triangles: &[[u32; 3]],
    cuttable: impl Fn(usize) -> bool,
    cutters: &[Cutter],
    options: &CutOptions,
) -> Result<CutMesh, CutError> {
    cut_welding(vertices, triangles, cuttable, |_| true, cutters, options)
}

/// [`cut`], welding at [`CutOptions::weld`] only in the triangles for which `welds` is true
/// and on their edges (both triangles on such an edge weld there); elsewhere every point is
/// kept.
pub fn cut_welding(
    vertices: &[[f32; 3]],
    triangles: &[[u32; 3]],
    cuttable: impl Fn(usize) -> bool,
    welds: impl Fn(usize) -> bool,
    cutters: &[Cutter],
    options: &CutOptions,
) -> Result<CutMesh, CutError> {
    validate(vertices, triangles, cutters)?;
    let cutters: Vec<Cutter> = cutters
        .iter()
        .map(|c| Cutter {
            ring: c.ring.iter().map(|p| p.map(piece::round32)).collect(),
        })
        .collect();
    let cutters = cutters.as_slice();
    let boxes: Vec<[f64; 4]> = cutters.iter().map(Cutter::bbox).collect();
    let weld_of = edge_welds(triangles, &welds, options.weld);
    let mut out = CutMesh {
        vertices: vertices.to_vec(),
        removed_area: vec![0.0; cutters.len()],
        ..CutMesh::default()
    };
    let mut welded: HashMap<piece::PointKey, u32> = HashMap::new();
    let mut near: Vec<usize> = Vec::new();
    for (ti, tri) in triangles.iter().enumerate() {
        let corners = tri.map(|v| vertices[v as usize]);
        near.clear();
        if cuttable(ti) {
            let tb = bbox_of(corners.iter().map(|c| [f64::from(c[0]), f64::from(c[1])]));
            near.extend((0..cutters.len()).filter(|&c| overlaps(&boxes[c], &tb)));
        }
        if near.is_empty() {
            out.triangles.push(*tri);
            out.parent.push(ti as u32);
            continue;
        }
        let pieces = piece::cut_triangle(*tri, corners, cutters, &near, options, weld_of(ti));
        pieces.emit(ti as u32, &mut out, &mut welded);
    }
    Ok(out)
}

/// The weld distances of each triangle: `weld` inside a welding triangle, and on any edge of
/// one.
fn edge_welds<'a>(
    triangles: &'a [[u32; 3]],
    welds: &impl Fn(usize) -> bool,
    weld: f64,
) -> impl Fn(usize) -> piece::Weld + 'a {
    let mut all: HashMap<(u32, u32), bool> = HashMap::new();
    let on: Vec<bool> = (0..triangles.len())
        .map(|t| weld > 0.0 && welds(t))
        .collect();
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            *all.entry((a.min(b), a.max(b))).or_insert(false) |= on[t];
        }
    }
    move |t: usize| {
        let tri = triangles[t];
        let edges = [0, 1, 2].map(|k| {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            if all.get(&(a.min(b), a.max(b))).copied().unwrap_or(false) {
                weld
            } else {
                0.0
            }
        });
        piece::Weld {
            inside: if on[t] { weld } else { 0.0 },
            edges,
        }
    }
}

fn validate(
    vertices: &[[f32; 3]],
    triangles: &[[u32; 3]],
    cutters: &[Cutter],
) -> Result<(), CutError> {
    for (t, tri) in triangles.iter().enumerate() {
        for &v in tri {
            if v as usize >= vertices.len() {
                return Err(CutError::VertexIndex {
                    triangle: t,
                    vertex: v,
                });
            }
        }
    }
    if vertices.iter().flatten().any(|c| !c.is_finite()) {
        return Err(CutError::NotFinite { cutter: None });
    }
    for (c, cutter) in cutters.iter().enumerate() {
        if cutter.ring.len() > MAX_CUTTER_POINTS {
            return Err(CutError::TooManyPoints {
                cutter: c,
                points: cutter.ring.len(),
            });
        }
        if cutter.ring.iter().flatten().any(|v| !v.is_finite()) {
            return Err(CutError::NotFinite { cutter: Some(c) });
        }
    }
    Ok(())
}

fn bbox_of(points: impl Iterator<Item = [f64; 2]>) -> [f64; 4] {
    let mut b = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    for p in points {
        b = [
            b[0].min(p[0]),
            b[1].min(p[1]),
            b[2].max(p[0]),
            b[3].max(p[1]),
        ];
    }
    b
}

fn overlaps(a: &[f64; 4], b: &[f64; 4]) -> bool {
    a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}
