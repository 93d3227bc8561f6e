//! One triangle against the cutters near it.

use std::collections::HashMap;

use spade::handles::FixedVertexHandle;
use spade::{ConstrainedDelaunayTriangulation, HasPosition, Point2, Triangulation};

use super::CutOptions;
use super::predicates::{FillRule, inside, orient, strictly_between};
use super::{CutMesh, Cutter};

/// The weld key of a point on a triangle edge: the edge's vertices in index order and the
/// point's exact coordinates (both triangles on the edge compute it bit for bit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct PointKey {
    lo: u32,
    hi: u32,
    x: u64,
    y: u64,
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Kind {
    /// Corner `k` of the triangle.
    Corner(usize),
    /// On edge `k` (corner `k` to corner `k + 1`), strictly between its corners.
    OnEdge(usize, PointKey),
    /// Strictly inside.
    Interior,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Local {
    pos: [f64; 2],
    z: f64,
    kind: Kind,
}

impl Local {
    /// The triangle edges the point lies on, as a bit set.
    fn edges(&self) -> u8 {
        match self.kind {
            Kind::Corner(k) => (1 << k) | (1 << ((k + 2) % 3)),
            Kind::OnEdge(k, _) => 1 << k,
            Kind::Interior => 0,
        }
    }
}

/// A point of the triangulation: its position and its index among the triangle's points
/// (`NEW` for points spade made where two cutter edges cross).
#[derive(Debug, Clone, Copy)]
struct V {
    pos: Point2<f64>,
    local: u32,
}

const NEW: u32 = u32::MAX;

/// How many `f32` steps (relative to the coordinates' magnitude) apart two points must be to
/// stay two points.
const SNAP_STEPS: f64 = 4.0;

impl HasPosition for V {
    type Scalar = f64;
    fn position(&self) -> Point2<f64> {
        self.pos
    }
}

/// The weld distances of one triangle: inside it, and on each edge (the same in both
/// triangles of the edge, so that they make the same points there).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Weld {
    /// Inside the triangle.
    pub inside: f64,
    /// On edge `k` (corner `k` to corner `k + 1`).
    pub edges: [f64; 3],
}

/// What became of one triangle.
pub(super) enum Pieces {
    /// Kept whole, as it was.
    Kept([u32; 3]),
    /// Removed whole, inside this cutter, with its plan area.
    Removed(usize, f64),
    /// Cut: its points, the kept pieces (indices into `points`, wound as the parent), and the
    /// area removed per cutter.
    Cut {
        tri: [u32; 3],
        points: Vec<Local>,
        kept: Vec<[usize; 3]>,
        removed: Vec<(usize, f64)>,
    },
}

/// The triangle `tri` with corners `corners`, against `cutters[near]`.
pub(super) fn cut_triangle(
    tri: [u32; 3],
    corners: [[f32; 3]; 3],
    cutters: &[Cutter],
    near: &[usize],
    options: &CutOptions,
    weld: Weld,
) -> Pieces {
    let fill = options.fill;
    let mut t = Tri::new(tri, corners, weld);
    if t.sign == 0.0 {
        return t.whole(cutters, near, fill);
    }
    let mut edges: Vec<CutterEdge> = Vec::new();
    for &c in near {
        let ring = &cutters[c].ring;
        if ring.len() < 3 {
            continue;
        }
        for i in 0..ring.len() {
            if let Some(e) = t.cutter_edge(ring[i], ring[(i + 1) % ring.len()]) {
                edges.push(e);
            }
        }
    }
    let constraints = t.constraints(edges);
    if t.points.len() == 3 {
        return t.whole(cutters, near, fill);
    }
    match t.triangulate(&constraints) {
        Some(faces) => t.classify(faces, cutters, near, fill),
        None => t.whole(cutters, near, fill),
    }
}

struct Tri {
    tri: [u32; 3],
    c: [[f64; 2]; 3],
    z: [f64; 3],
    /// The sign of the triangle's plan orientation (0 when flat in plan).
    sign: f64,
    /// The weld distances.
    weld: Weld,
    points: Vec<Local>,
    at: HashMap<(u64, u64), usize>,
    /// Per edge: the points on it with their parameter from corner `k`.
    on_edge: [Vec<(f64, usize)>; 3],
}

/// A cutter edge and its points in or on the triangle, with their parameters along it.
struct CutterEdge {
    p: [f64; 2],
    q: [f64; 2],
    along: Vec<(f64, usize)>,
}

enum Place {
    Outside,
    Inside,
    Edge(usize),
    Corner(usize),
}

impl Tri {
    fn new(tri: [u32; 3], corners: [[f32; 3]; 3], weld: Weld) -> Tri {
        let c = corners.map(|v| [f64::from(v[0]), f64::from(v[1])]);
        let z = corners.map(|v| f64::from(v[2]));
        let o = orient(c[0], c[1], c[2]);
        let sign = if o > 0.0 {
            1.0
        } else if o < 0.0 {
            -1.0
        } else {
            0.0
        };
        let mut t = Tri {
            tri,
            c,
            z,
            sign,
            weld,
            points: Vec::new(),
            at: HashMap::new(),
            on_edge: Default::default(),
        };
        for k in 0..3 {
            t.push(c[k], z[k], Kind::Corner(k));
        }
        t
    }

    fn push(&mut self, pos: [f64; 2], z: f64, kind: Kind) -> usize {
        let key = (pos[0].to_bits(), pos[1].to_bits());
        if let Some(&i) = self.at.get(&key) {
            return i;
        }
        if let Some(i) = self.snap(pos, kind) {
            return i;
        }
        let i = self.points.len();
        self.points.push(Local { pos, z, kind });
        self.at.insert(key, i);
        if let Kind::OnEdge(k, _) = kind {
            let a = self.c[k];
            let b = self.c[(k + 1) % 3];
            self.on_edge[k].push((param(a, b, pos), i));
        }
        i
    }

    /// A point already there within the weld distance (or a few `f32` steps) of `pos`: on
    /// the same edge for an edge
    /// point (so that both triangles on the edge, which see its points in the same order,
    /// snap alike), anywhere for an interior one. Two points that close would only make
    /// constraints that cross next to them, and pieces that rounding flattens.
    fn snap(&self, pos: [f64; 2], kind: Kind) -> Option<usize> {
        let tol = (SNAP_STEPS * f64::from(f32::EPSILON) * pos[0].abs().max(pos[1].abs()).max(1.0))
            .max(match kind {
                Kind::OnEdge(k, _) => self.weld.edges[k],
                _ => self.weld.inside,
            });
        let dist = |i: usize| {
            let q = self.points[i].pos;
            (q[0] - pos[0]).hypot(q[1] - pos[1])
        };
        let nearest = |c: &mut dyn Iterator<Item = usize>| {
            c.map(|i| (dist(i), i))
                .filter(|x| x.0 <= tol)
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|x| x.1)
        };
        match kind {
            Kind::OnEdge(k, _) => nearest(
                &mut [k, (k + 1) % 3]
                    .into_iter()
                    .chain(self.on_edge[k].iter().map(|x| x.1)),
            ),
            Kind::Interior => nearest(&mut (0..self.points.len())),
            Kind::Corner(_) => None,
        }
    }

    /// Edge `k`'s corners in vertex-index order: (corner of the lower index, the other).
    fn canonical(&self, k: usize) -> (usize, usize) {
        let (i, j) = (k, (k + 1) % 3);
        if self.tri[i] <= self.tri[j] {
            (i, j)
        } else {
            (j, i)
        }
    }

    fn place(&self, p: [f64; 2]) -> Place {
        let mut zeros = [false; 3];
        for (k, zero) in zeros.iter_mut().enumerate() {
            let o = orient(self.c[k], self.c[(k + 1) % 3], p) * self.sign;
            if o < 0.0 {
                return Place::Outside;
            }
            *zero = o == 0.0;
        }
        match zeros {
            [false, false, false] => Place::Inside,
            [true, false, false] => Place::Edge(0),
            [false, true, false] => Place::Edge(1),
            [false, false, true] => Place::Edge(2),
            [true, true, _] => Place::Corner(1),
            [_, true, true] => Place::Corner(2),
            [true, _, true] => Place::Corner(0),
        }
    }

    /// A point on edge `k` at `pos` (computed from the edge's canonical corners).
    fn edge_point(&mut self, k: usize, pos: [f64; 2]) -> usize {
        let pos = pos.map(round32);
        let (i, j) = self.canonical(k);
        if pos == self.c[i] {
            return i;
        }
        if pos == self.c[j] {
            return j;
        }
        let s = param(self.c[i], self.c[j], pos);
        let z = self.z[i] + (self.z[j] - self.z[i]) * s;
        let key = PointKey {
            lo: self.tri[i],
            hi: self.tri[j],
            x: pos[0].to_bits(),
            y: pos[1].to_bits(),
        };
        self.push(pos, z, Kind::OnEdge(k, key))
    }

    fn interior_point(&mut self, pos: [f64; 2]) -> usize {
        let z = self.plane_z(pos);
        self.push(pos, z, Kind::Interior)
    }

    fn plane_z(&self, p: [f64; 2]) -> f64 {
        let [a, b, c] = self.c;
        let d = orient(a, b, c);
        let (wa, wb) = (orient(b, c, p) / d, orient(c, a, p) / d);
        let wc = 1.0 - wa - wb;
        wa * self.z[0] + wb * self.z[1] + wc * self.z[2]
    }

    /// The points of the cutter edge `p → q` in or on the triangle (its ends, its crossings
    /// with the triangle's edges, the corners it passes); `None` when it misses the triangle.
    fn cutter_edge(&mut self, p: [f64; 2], q: [f64; 2]) -> Option<CutterEdge> {
        if p == q {
            return None;
        }
        let mut along: Vec<(f64, usize)> = Vec::new();
        for end in [p, q] {
            let i = match self.place(end) {
                Place::Outside => continue,
                Place::Inside => self.interior_point(end),
                Place::Edge(k) => self.edge_point(k, end),
                Place::Corner(k) => k,
            };
            along.push((param(p, q, end), i));
        }
        for k in 0..3 {
            let (i, j) = self.canonical(k);
            let (a, b) = (self.c[i], self.c[j]);
            let (d1, d2) = (orient(a, b, p), orient(a, b, q));
            if d1 == 0.0 && d2 == 0.0 {
                for corner in [i, j] {
                    if strictly_between(p, q, self.c[corner]) {
                        along.push((param(p, q, self.c[corner]), corner));
                    }
                }
                continue;
            }
            if d1 == 0.0 || d2 == 0.0 || (d1 > 0.0) == (d2 > 0.0) {
                continue;
            }
            let (d3, d4) = (orient(p, q, a), orient(p, q, b));
            if d3 == 0.0 {
                along.push((param(p, q, a), i));
            } else if d4 == 0.0 {
                along.push((param(p, q, b), j));
            } else if (d3 > 0.0) != (d4 > 0.0) {
                let s = d3 / (d3 - d4);
                let pos = [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s];
                let at = self.edge_point(k, pos);
                along.push((param(p, q, pos), at));
            }
        }
        (!along.is_empty()).then_some(CutterEdge { p, q, along })
    }

    /// The constraints of the cutter edges: between consecutive points along each (every
    /// point of the triangle on the edge, to within a few `f32` steps, included: a cutter
    /// vertex on another cutter's edge splits it, where a constraint passing a hair beside it
    /// would leave a piece that rounding flattens), except where they run along a triangle
    /// edge.
    fn constraints(&self, edges: Vec<CutterEdge>) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for CutterEdge { p, q, mut along } in edges {
            for (i, pt) in self.points.iter().enumerate().skip(3) {
                let s = param(p, q, pt.pos);
                if s > 0.0 && s < 1.0 && near_line(p, q, pt.pos) {
                    along.push((s, i));
                }
            }
            along.sort_by(|x, y| x.0.total_cmp(&y.0));
            along.dedup_by_key(|x| x.1);
            for w in along.windows(2) {
                let (u, v) = (w[0].1, w[1].1);
                if u != v && self.points[u].edges() & self.points[v].edges() == 0 {
                    out.push((u.min(v), u.max(v)));
                }
            }
        }
        // A ring that runs back along itself, or two cutters sharing an edge, give the same
        // constraint twice; spade would split its crossings twice, a hair apart.
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The constrained triangulation; `None` when spade refuses a point.
    fn triangulate(&mut self, constraints: &[(usize, usize)]) -> Option<Vec<[usize; 3]>> {
        let mut cdt: ConstrainedDelaunayTriangulation<V> = ConstrainedDelaunayTriangulation::new();
        let mut handles: Vec<FixedVertexHandle> = Vec::with_capacity(self.points.len());
        for (i, p) in self.points.iter().enumerate() {
            let v = V {
                pos: Point2::new(p.pos[0], p.pos[1]),
                local: i as u32,
            };
            handles.push(cdt.insert(v).ok()?);
        }
        // Split points stay `f64` here (rounding them could put them on the wrong side of the
        // constraint they split, and spade would then split at a neighbouring vertex instead);
        // they are rounded when written out, where a piece rounding turns over is dropped.
        let make = |pos: Point2<f64>| V { pos, local: NEW };
        for k in 0..3 {
            let mut chain = self.on_edge[k].clone();
            chain.sort_by(|x, y| x.0.total_cmp(&y.0));
            let ids: Vec<usize> = std::iter::once(k)
                .chain(chain.iter().map(|x| x.1))
                .chain(std::iter::once((k + 1) % 3))
                .collect();
            for w in ids.windows(2) {
                cdt.add_constraint_and_split(handles[w[0]], handles[w[1]], make);
            }
        }
        for &(u, v) in constraints {
            cdt.add_constraint_and_split(handles[u], handles[v], make);
        }
        let mut made: HashMap<usize, usize> = HashMap::new();
        let mut faces = Vec::with_capacity(cdt.num_inner_faces());
        for f in cdt.inner_faces() {
            let mut ids = [0usize; 3];
            for (slot, v) in ids.iter_mut().zip(f.vertices()) {
                let local = v.data().local;
                *slot = if local != NEW {
                    local as usize
                } else {
                    let key = v.fix().index();
                    if let Some(&i) = made.get(&key) {
                        i
                    } else {
                        // Rounded here; a split point that rounds onto a point already
                        // there is that point. It is never welded: the triangulation is
                        // made, and merging two of its vertices would fold it.
                        let pos = [round32(v.position().x), round32(v.position().y)];
                        let weld = std::mem::replace(&mut self.weld.inside, 0.0);
                        let i = self.interior_point(pos);
                        self.weld.inside = weld;
                        made.insert(key, i);
                        i
                    }
                };
            }
            faces.push(ids);
        }
        Some(faces)
    }

    /// Keeps the faces outside every cutter, wound as the parent.
    fn classify(
        self,
        faces: Vec<[usize; 3]>,
        cutters: &[Cutter],
        near: &[usize],
        fill: FillRule,
    ) -> Pieces {
        let mut kept = Vec::new();
        let mut removed = Vec::new();
        for f in faces {
            let [a, b, c] = f.map(|i| self.points[i]);
            if a.edges() & b.edges() & c.edges() != 0 {
                continue;
            }
            let o = orient(a.pos, b.pos, c.pos);
            if o == 0.0 {
                continue;
            }
            let centroid = [
                (a.pos[0] + b.pos[0] + c.pos[0]) / 3.0,
                (a.pos[1] + b.pos[1] + c.pos[1]) / 3.0,
            ];
            match near
                .iter()
                .find(|&&k| inside(&cutters[k].ring, centroid, fill))
            {
                Some(&k) => removed.push((k, o.abs() / 2.0)),
                None => kept.push(if (o > 0.0) == (self.sign > 0.0) {
                    f
                } else {
                    [f[0], f[2], f[1]]
                }),
            }
        }
        if removed.is_empty() && self.on_edge.iter().all(Vec::is_empty) {
            return Pieces::Kept(self.tri);
        }
        Pieces::Cut {
            tri: self.tri,
            points: self.points,
            kept,
            removed,
        }
    }

    /// The whole triangle, kept or removed by its centroid.
    fn whole(self, cutters: &[Cutter], near: &[usize], fill: FillRule) -> Pieces {
        let centroid = [
            (self.c[0][0] + self.c[1][0] + self.c[2][0]) / 3.0,
            (self.c[0][1] + self.c[1][1] + self.c[2][1]) / 3.0,
        ];
        match near
            .iter()
            .find(|&&k| inside(&cutters[k].ring, centroid, fill))
        {
            Some(&k) => Pieces::Removed(k, orient(self.c[0], self.c[1], self.c[2]).abs() / 2.0),
            None => Pieces::Kept(self.tri),
        }
    }
}

/// `v` rounded to the nearest `f32`: every point of the triangulation is one, so the pieces
/// written out are the pieces triangulated.
pub(super) fn round32(v: f64) -> f64 {
    f64::from(v as f32)
}

/// Whether `p` lies on the line `a b` to within [`SNAP_STEPS`] `f32` steps.
fn near_line(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> bool {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
    if len == 0.0 {
        return false;
    }
    let dist = orient(a, b, p).abs() / len;
    dist <= SNAP_STEPS * f64::from(f32::EPSILON) * p[0].abs().max(p[1].abs()).max(1.0)
}

/// The parameter of `p` along `a → b` (0 at `a`, 1 at `b`).
fn param(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> f64 {
    let d = [b[0] - a[0], b[1] - a[1]];
    let l = d[0] * d[0] + d[1] * d[1];
    if l == 0.0 {
        0.0
    } else {
        ((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / l
    }
}

impl Pieces {
    /// Adds this triangle's outcome to `out`; edge points are welded through `welded`.
    pub(super) fn emit(self, parent: u32, out: &mut CutMesh, welded: &mut HashMap<PointKey, u32>) {
        match self {
            Pieces::Kept(tri) => {
                out.triangles.push(tri);
                out.parent.push(parent);
            }
            Pieces::Removed(k, area) => {
                out.removed += 1;
                out.removed_area[k] += area;
            }
            Pieces::Cut {
                tri,
                points,
                kept,
                removed,
            } => {
                out.cut += 1;
                for (k, area) in removed {
                    out.removed_area[k] += area;
                }
                let mut global = vec![u32::MAX; points.len()];
                let sign = orient32(&out.vertices, tri);
                for f in kept {
                    let ids = f.map(|i| global_index(&points[i], i, tri, &mut global, out, welded));
                    if orient32(&out.vertices, ids) * sign > 0.0 {
                        out.triangles.push(ids);
                        out.parent.push(parent);
                    } else {
                        out.slivers += 1;
                    }
                }
            }
        }
    }
}

fn global_index(
    p: &Local,
    i: usize,
    tri: [u32; 3],
    global: &mut [u32],
    out: &mut CutMesh,
    welded: &mut HashMap<PointKey, u32>,
) -> u32 {
    if global[i] != u32::MAX {
        return global[i];
    }
    let v = [p.pos[0] as f32, p.pos[1] as f32, p.z as f32];
    let g = match p.kind {
        Kind::Corner(k) => tri[k],
        Kind::OnEdge(_, key) => *welded.entry(key).or_insert_with(|| {
            out.vertices.push(v);
            (out.vertices.len() - 1) as u32
        }),
        Kind::Interior => {
            out.vertices.push(v);
            (out.vertices.len() - 1) as u32
        }
    };
    global[i] = g;
    g
}

/// The plan orientation of a triangle of `vertices`, exact on its `f32` coordinates.
fn orient32(vertices: &[[f32; 3]], t: [u32; 3]) -> f64 {
    let p = |i: u32| {
        let v = vertices[i as usize];
        [f64::from(v[0]), f64::from(v[1])]
    };
    orient(p(t[0]), p(t[1]), p(t[2]))
}
