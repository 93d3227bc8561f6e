//! Carving, passes 2 and 3: the pieces of pass 1 made conforming and triangulated.
//!
//! Pass 2 (per original edge): the cut points of all triangles around an edge are merged into
//! one list, so both sides use the same vertices.
//! Pass 3 (per triangle): each piece's ring gets the vertices lying on its sides (cut points of
//! the neighbours on an original edge, corners of the triangle's other pieces on a cut) and is
//! ear-clipped at the vertices' f32 output positions — no T-junctions, no turned-over slivers.
//! A final repair handles any triangle rounding still turned over.

use glam::{DVec2, Vec3};

use super::carve::{Chunk, Class, Fate, LVert};
use super::geom;
use super::prepare::Topo;
use super::{CarveStats, Carved};
use crate::nav::surface::Surface;

/// A vertex of the output before numbering: an original vertex, a merged edge point, or an
/// interior point.
pub(super) type Ref = u64;
const REF_EDGE: u64 = 1 << 62;
const REF_INTERIOR: u64 = 2 << 62;
const REF_KIND: u64 = 3 << 62;

/// Pass 2 results: per original edge the merged cut points (canonical parameter from the
/// lower to the higher vertex index, ascending), and each chunk vertex's ref and cluster.
pub(super) struct EdgePoints {
    start: Vec<u32>,
    /// (parameter, edge id)
    points: Vec<(f64, u32)>,
}

/// Per chunk vertex: its ref and (for edge points) its index in its edge's list.
pub(super) struct VertRefs {
    pub refs: Vec<Vec<Ref>>,
    pub slot: Vec<Vec<u32>>,
}

/// Pass 2: merges the edge points of all chunks per original edge.
pub(super) fn merge_edges(
    topo: &Topo,
    surface: &Surface,
    chunks: &[Chunk],
) -> (EdgePoints, VertRefs, Vec<(u32, DVec2)>) {
    let ne = topo.edge_ends.len();
    // (edge, canonical t, chunk, vertex index)
    let mut all: Vec<(u32, f64, u32, u32)> = Vec::new();
    let mut refs: Vec<Vec<Ref>> = Vec::with_capacity(chunks.len());
    let mut slot: Vec<Vec<u32>> = Vec::with_capacity(chunks.len());
    let mut interior: Vec<(u32, DVec2)> = Vec::new();
    for (ci, ch) in chunks.iter().enumerate() {
        let mut r = vec![0u64; ch.verts.len()];
        let s = vec![u32::MAX; ch.verts.len()];
        for i in 0..ch.recs.len() {
            let (v0, v1, _, _) = ch.rec_range(i);
            let t = ch.recs[i].0 as usize;
            let tri = surface.triangles[t];
            for (vi, v) in ch.verts.iter().enumerate().take(v1).skip(v0) {
                match v.class {
                    Class::Corner(k) => r[vi] = u64::from(tri[k as usize]),
                    Class::Interior => {
                        r[vi] = REF_INTERIOR | interior.len() as u64;
                        interior.push((t as u32, v.pos));
                    }
                    Class::Edge(k, tp) => {
                        let g = topo.edge_of[t][k as usize];
                        let canon = if tri[k as usize] == topo.edge_ends[g as usize][0] {
                            tp
                        } else {
                            1.0 - tp
                        };
                        all.push((g, canon, ci as u32, vi as u32));
                    }
                }
            }
        }
        refs.push(r);
        slot.push(s);
    }
    all.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut start = vec![0u32; ne + 1];
    let mut points: Vec<(f64, u32)> = Vec::new();
    let mut i = 0;
    let mut per_edge_counts = vec![0u32; ne];
    while i < all.len() {
        let g = all[i].0;
        let [a, b] = topo.edge_ends[g as usize];
        let pa = surface.vertices[a as usize].as_dvec3().truncate();
        let pb = surface.vertices[b as usize].as_dvec3().truncate();
        let len = (pb - pa).length();
        let tol = if len > 0.0 {
            topo.edge_eps[g as usize] / len
        } else {
            1.0
        };
        // Clusters: a point joins the current cluster when within the tolerance of its first
        // point (no chaining: points of one triangle, kept more than the tolerance apart, never
        // share a cluster).
        let mut j = i;
        let mut first_t = f64::NEG_INFINITY;
        let mut current: Option<u32> = None;
        while j < all.len() && all[j].0 == g {
            let (_, tc, ci, vi) = all[j];
            let (ci, vi) = (ci as usize, vi as usize);
            if tc <= tol {
                refs[ci][vi] = u64::from(a);
            } else if tc >= 1.0 - tol {
                refs[ci][vi] = u64::from(b);
            } else {
                if current.is_none() || tc - first_t > tol {
                    current = Some(points.len() as u32);
                    points.push((tc, g));
                    per_edge_counts[g as usize] += 1;
                    first_t = tc;
                }
                let id = current.unwrap_or(0);
                refs[ci][vi] = REF_EDGE | u64::from(id);
                slot[ci][vi] = id;
            }
            j += 1;
        }
        i = j;
    }
    // Points were pushed edge by edge in ascending edge order: prefix sums give the ranges.
    for g in 0..ne {
        start[g + 1] = start[g] + per_edge_counts[g];
    }
    (
        EdgePoints { start, points },
        VertRefs { refs, slot },
        interior,
    )
}

/// Pass 3 output: triangles as refs with their original triangle.
#[derive(Default)]
pub(super) struct Tris {
    pub tris: Vec<[Ref; 3]>,
    pub origin: Vec<u32>,
}

/// Which original side both local vertices lie on, if any.
fn common_side(a: Class, b: Class) -> Option<usize> {
    let sides = |c: Class| -> [Option<usize>; 2] {
        match c {
            Class::Interior => [None, None],
            Class::Corner(k) => [Some(k as usize), Some((k as usize + 2) % 3)],
            Class::Edge(k, _) => [Some(k as usize), None],
        }
    };
    let (sa, sb) = (sides(a), sides(b));
    sa.into_iter().flatten().find(|s| sb.contains(&Some(*s)))
}

/// Working memory of pass 3.
#[derive(Default)]
struct Ring {
    /// Local vertex ids sorted by x, and their x.
    xsorted: Vec<u32>,
    xs: Vec<f64>,
    /// Points inserted into one side: (parameter, ref, local position).
    ins: Vec<(f64, Ref, DVec2)>,
    /// The polygon with every inserted point: positions and refs.
    pts: Vec<DVec2>,
    refs: Vec<Ref>,
    /// Ear clipping: the remaining ring (indices into `pts`).
    left: Vec<usize>,
}

/// Triangulates a counter-clockwise, nearly convex ring (a convex piece with points on its
/// sides, at its output positions) by ear clipping, the best-shaped ear first: an ear is a
/// corner standing more than `flat` above its neighbours' line (so no point lying on a side)
/// with no other ring point within `near` of its triangle (points on a side are collinear only
/// up to rounding), else, when none is left, with none in or on it. A remainder without ears has
/// no area and is dropped.
fn ear_clip(
    pts: &[DVec2],
    left: &mut Vec<usize>,
    flat: f64,
    near: f64,
    mut emit: impl FnMut(usize, usize, usize),
) {
    left.clear();
    left.extend(0..pts.len());
    while left.len() >= 3 {
        let ear = best_ear(pts, left, flat, near).or_else(|| best_ear(pts, left, flat, 0.0));
        let Some(i) = ear else {
            break;
        };
        let m = left.len();
        let (p, v, q) = (left[(i + m - 1) % m], left[i], left[(i + 1) % m]);
        emit(p, v, q);
        left.remove(i);
    }
}

/// The best-shaped ear of the ring `left` (see [`ear_clip`]): standing more than `flat`, no
/// other ring point within `near` of its triangle.
fn best_ear(pts: &[DVec2], left: &[usize], flat: f64, near: f64) -> Option<usize> {
    let m = left.len();
    let mut best: Option<(f64, usize)> = None;
    for i in 0..m {
        let (p, v, q) = (left[(i + m - 1) % m], left[i], left[(i + 1) % m]);
        let (pp, pv, pq) = (pts[p], pts[v], pts[q]);
        let o = geom::orient(pp, pv, pq);
        let base = (pq - pp).length();
        if o.is_nan() || o <= flat * base {
            continue;
        }
        let blocked = left.iter().any(|&w| {
            if w == p || w == v || w == q {
                return false;
            }
            let pw = pts[w];
            if pw == pp || pw == pv || pw == pq {
                return true;
            }
            geom::orient(pp, pv, pw) >= -near * (pv - pp).length()
                && geom::orient(pv, pq, pw) >= -near * (pq - pv).length()
                && geom::orient(pq, pp, pw) >= -near * base
        });
        if blocked {
            continue;
        }
        let s2 = (pv - pp).length_squared() + (pq - pv).length_squared() + base * base;
        let quality = o / s2;
        if best.is_none_or(|(b, _)| quality > b) {
            best = Some((quality, i));
        }
        if m > 48 {
            break;
        }
    }
    best.map(|(_, i)| i)
}

/// What pass 3 reads.
pub(super) struct Pass3<'a> {
    pub topo: &'a Topo,
    pub surface: &'a Surface,
    pub edges: &'a EdgePoints,
    pub vrefs: &'a VertRefs,
    pub interior: &'a [(u32, DVec2)],
}

/// One triangle's pieces in pass 3, for [`Sides::inserts`].
#[derive(Clone, Copy)]
struct Sides<'a> {
    topo: &'a Topo,
    edges: &'a EdgePoints,
    /// The chunk's vertex refs and merged-edge slots (from `v0` for this triangle).
    refs: &'a [Ref],
    slots: &'a [u32],
    v0: usize,
    /// The triangle's local vertices, and their ids and x sorted by x.
    verts: &'a [LVert],
    t: usize,
    tri: [u32; 3],
    /// The triangle's corners relative to its first.
    c: [DVec2; 3],
    eps: f64,
    xsorted: &'a [u32],
    xs: &'a [f64],
}

impl Sides<'_> {
    /// The points to insert strictly inside side a -> b of `poly`, in order: on an original
    /// edge, the merged cut points of every triangle around it; else the corners of other
    /// pieces that lie on the side.
    fn inserts(&self, a: u32, b: u32, poly: &[u32], ins: &mut Vec<(f64, Ref, DVec2)>) {
        let Sides {
            topo,
            edges,
            refs,
            slots,
            v0,
            verts,
            t,
            tri,
            c,
            eps,
            xsorted,
            xs,
        } = *self;
        ins.clear();
        let (va, vb) = (verts[a as usize], verts[b as usize]);
        if let Some(k) = common_side(va.class, vb.class) {
            // On an original edge: the merged cut points of every triangle around it.
            let g = topo.edge_of[t][k] as usize;
            let list = &edges.points[edges.start[g] as usize..edges.start[g + 1] as usize];
            let lo_v = topo.edge_ends[g][0];
            let forward = tri[k] == lo_v;
            // Position in the edge's list: -1 at the lower vertex, len at the higher.
            let key = |v: LVert, i: u32| -> i64 {
                let at_end = |r: Ref| {
                    if r == u64::from(lo_v) {
                        -1
                    } else {
                        list.len() as i64
                    }
                };
                match v.class {
                    Class::Corner(c) => at_end(u64::from(tri[c as usize])),
                    _ => match slots[v0 + i as usize] {
                        // Snapped to a corner by the merge.
                        u32::MAX => at_end(refs[v0 + i as usize]),
                        s => i64::from(s - edges.start[g]),
                    },
                }
            };
            let (ka, kb) = (key(va, a), key(vb, b));
            let base = edges.start[g];
            let at = |j: i64| {
                let tc = list[j as usize].0;
                let tl = if forward { tc } else { 1.0 - tc };
                c[k] + (c[(k + 1) % 3] - c[k]) * tl
            };
            if ka < kb {
                for j in ka + 1..kb {
                    ins.push((j as f64, REF_EDGE | u64::from(base + j as u32), at(j)));
                }
            } else {
                for j in (kb + 1..ka).rev() {
                    ins.push((-(j as f64), REF_EDGE | u64::from(base + j as u32), at(j)));
                }
            }
        } else {
            let (pa, pb) = (va.pos, vb.pos);
            if (pb - pa).length_squared() <= 0.0 {
                return;
            }
            // Corners dropped as collinear lie within eps of the side that replaced them;
            // T-junction corners of other pieces lie on it up to rounding. A polygon's own
            // corners never go into its own sides, and a corner close to the polygon's
            // corner a or b (within the tolerance of two sides) goes to the nearer side
            // (ties to the side met first around the polygon).
            let tol = eps * (1.0 + 1e-9);
            let m = poly.len();
            let ia = poly.iter().position(|&x| x == a).unwrap_or(0);
            let ib = (ia + 1) % m;
            let prev = verts[poly[(ia + m - 1) % m] as usize].pos;
            let next = verts[poly[(ib + 1) % m] as usize].pos;
            let lo = pa.x.min(pb.x) - tol;
            let hi = pa.x.max(pb.x) + tol;
            let from = xs.partition_point(|&x| x < lo);
            for &wv in &xsorted[from..] {
                let pw = verts[wv as usize].pos;
                if pw.x > hi {
                    break;
                }
                if wv == a || wv == b || poly.contains(&wv) {
                    continue;
                }
                let (d2, s) = geom::seg_dist2_t(pw, pa, pb);
                if d2 <= tol * tol && s > 0.0 && s < 1.0 {
                    let before = geom::seg_dist2(pw, prev, pa);
                    let after = geom::seg_dist2(pw, pb, next);
                    if before < d2
                        || (before == d2 && ia != 0)
                        || after < d2
                        || (after == d2 && ib == 0)
                    {
                        continue;
                    }
                    // Placed exactly on the side for the triangulation.
                    ins.push((s, refs[v0 + wv as usize], pa + (pb - pa) * s));
                }
            }
        }
        ins.sort_by(|x, y| x.0.total_cmp(&y.0));
        let (ra, rb) = (refs[v0 + a as usize], refs[v0 + b as usize]);
        ins.dedup_by(|x, y| x.1 == y.1);
        ins.retain(|x| x.1 != ra && x.1 != rb);
    }
}

/// Pass 3 for chunk `ci`.
pub(super) fn triangulate(p3: &Pass3<'_>, chunk: &Chunk, ci: usize, out: &mut Tris) {
    let Pass3 {
        topo,
        surface,
        edges,
        vrefs,
        interior,
    } = *p3;
    let refs = &vrefs.refs[ci];
    let slots = &vrefs.slot[ci];
    let mut w = Ring::default();
    for ri in 0..chunk.recs.len() {
        let (t, _, _, fate) = chunk.recs[ri];
        if matches!(fate, Fate::Inactive | Fate::Limited) {
            continue;
        }
        let t = t as usize;
        let (v0, v1, p0, p1) = chunk.rec_range(ri);
        let verts = &chunk.verts[v0..v1];
        let eps = topo.eps[t];
        let tri = surface.triangles[t];
        let o = topo.plan[t][0];
        let c = topo.plan[t].map(|p| p - o);
        w.xsorted.clear();
        w.xsorted.extend(0..verts.len() as u32);
        w.xsorted
            .sort_by(|&a, &b| verts[a as usize].pos.x.total_cmp(&verts[b as usize].pos.x));
        w.xs.clear();
        w.xs.extend(w.xsorted.iter().map(|&i| verts[i as usize].pos.x));
        let (xsorted, xs) = (&w.xsorted, &w.xs);
        let sides = Sides {
            topo,
            edges,
            refs,
            slots,
            v0,
            verts,
            t,
            tri,
            c,
            eps,
            xsorted,
            xs,
        };
        for pi in p0..p1 {
            let ps = if pi == 0 {
                0
            } else {
                chunk.poly_end[pi - 1] as usize
            };
            let poly = &chunk.poly_idx[ps..chunk.poly_end[pi] as usize];
            let m = poly.len();
            w.pts.clear();
            w.refs.clear();
            for i in 0..m {
                let (a, b) = (poly[i], poly[(i + 1) % m]);
                let r = refs[v0 + a as usize];
                if w.refs.last() != Some(&r) {
                    w.pts.push(verts[a as usize].pos);
                    w.refs.push(r);
                }
                sides.inserts(a, b, poly, &mut w.ins);
                for &(_, r, p) in &w.ins {
                    if w.refs.last() != Some(&r) {
                        w.pts.push(p);
                        w.refs.push(r);
                    }
                }
            }
            while w.refs.len() > 1 && w.refs.first() == w.refs.last() {
                w.refs.pop();
                w.pts.pop();
            }
            if w.refs.len() < 3 {
                continue;
            }
            // Triangulate on the positions as written (f32), so that every triangle keeps its
            // orientation after rounding.
            for (p, &r) in w.pts.iter_mut().zip(&w.refs) {
                let q = position(topo, surface, edges, interior, r);
                *p = DVec2::new(f64::from(q.x), f64::from(q.y)) - o;
            }
            let ring_refs = &w.refs;
            ear_clip(&w.pts, &mut w.left, eps * 1e-6, eps * 0.5, |p, v, q| {
                let r = [ring_refs[p], ring_refs[v], ring_refs[q]];
                if r[0] == r[1] || r[1] == r[2] || r[0] == r[2] {
                    return;
                }
                out.tris
                    .push(if topo.ccw[t] { r } else { [r[0], r[2], r[1]] });
                out.origin.push(t as u32);
            });
        }
    }
}

/// The output position of a ref (f32, as written to the result).
fn position(
    topo: &Topo,
    surface: &Surface,
    edges: &EdgePoints,
    interior: &[(u32, DVec2)],
    r: Ref,
) -> Vec3 {
    let idx = (r & !REF_KIND) as usize;
    match r & REF_KIND {
        REF_EDGE => {
            let (tc, g) = edges.points[idx];
            let [a, b] = topo.edge_ends[g as usize];
            let (pa, pb) = (
                surface.vertices[a as usize].as_dvec3(),
                surface.vertices[b as usize].as_dvec3(),
            );
            (pa + (pb - pa) * tc).as_vec3()
        }
        REF_INTERIOR => {
            let (t, p) = interior[idx];
            let q = p + topo.plan[t as usize][0];
            let z = topo.height(t as usize, q);
            Vec3::new(q.x as f32, q.y as f32, z as f32)
        }
        _ => surface.vertices[idx],
    }
}

/// Numbers the refs in order of first use and builds the carved surface.
pub(super) fn assemble(
    topo: &Topo,
    surface: &Surface,
    edges: &EdgePoints,
    interior: &[(u32, DVec2)],
    tris: Tris,
    mut stats: CarveStats,
) -> Carved {
    let nv = surface.vertices.len();
    let mut orig = vec![u32::MAX; nv];
    let mut edge = vec![u32::MAX; edges.points.len()];
    let mut inner = vec![u32::MAX; interior.len()];
    let mut vertices: Vec<Vec3> = Vec::new();
    let mut triangles = Vec::with_capacity(tris.tris.len());
    for t in &tris.tris {
        let mut out = [0u32; 3];
        for (k, &r) in t.iter().enumerate() {
            let idx = (r & !REF_KIND) as usize;
            let slot = match r & REF_KIND {
                REF_EDGE => &mut edge[idx],
                REF_INTERIOR => &mut inner[idx],
                _ => &mut orig[idx],
            };
            if *slot == u32::MAX {
                *slot = vertices.len() as u32;
                vertices.push(position(topo, surface, edges, interior, r));
            }
            out[k] = *slot;
        }
        triangles.push(out);
    }
    let mut origin = tris.origin;
    (stats.repaired, stats.inverted) = fix_inverted(&vertices, &mut triangles, &mut origin, |o| {
        topo.ccw[o as usize]
    });
    let regions = origin
        .iter()
        .map(|&o| surface.regions[o as usize])
        .collect();
    stats.output_triangles = triangles.len();
    Carved {
        surface: Surface {
            links: Vec::new(),
            vertices,
            triangles,
            regions,
        },
        origin,
        stats,
    }
}

/// Repairs result triangles that rounding to f32 turned over or flattened (a sliver whose
/// middle vertex `b` crossed its long side `a-c`): the sliver is removed and the triangle
/// across `a-c` is split at `b` (or, on the boundary, the sliver is just removed). The result
/// stays conforming. Returns how many were repaired and how many bad triangles remain
/// (expected 0).
fn fix_inverted(
    vertices: &[Vec3],
    triangles: &mut Vec<[u32; 3]>,
    origin: &mut Vec<u32>,
    ccw: impl Fn(u32) -> bool,
) -> (usize, usize) {
    let pos = |i: u32| vertices[i as usize].as_dvec3().truncate();
    let good = |t: &[u32; 3], o: u32| {
        let a = geom::orient(pos(t[0]), pos(t[1]), pos(t[2]));
        if ccw(o) { a > 0.0 } else { a < 0.0 }
    };
    let mut bad: Vec<usize> = (0..triangles.len())
        .filter(|&i| !good(&triangles[i], origin[i]))
        .collect();
    if bad.is_empty() {
        return (0, 0);
    }
    // Triangles around each vertex (compressed rows), plus the triangles changed since.
    let nv = vertices.len();
    let mut start = vec![0u32; nv + 1];
    for t in triangles.iter() {
        for &v in t {
            start[v as usize + 1] += 1;
        }
    }
    for v in 0..nv {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut around = vec![0u32; start[nv] as usize];
    for (i, t) in triangles.iter().enumerate() {
        for &v in t {
            around[fill[v as usize] as usize] = i as u32;
            fill[v as usize] += 1;
        }
    }
    let mut extra: Vec<(u32, u32)> = Vec::new();
    let mut removed = vec![false; triangles.len()];
    let mut repaired = 0;
    for _round in 0..4 {
        let mut progress = false;
        for &i in &bad {
            if removed[i] || good(&triangles[i], origin[i]) {
                continue;
            }
            let t = triangles[i];
            // The longest side a-c, b opposite.
            let k = (0..3)
                .max_by(|&x, &y| {
                    let lx = (pos(t[(x + 1) % 3]) - pos(t[x])).length_squared();
                    let ly = (pos(t[(y + 1) % 3]) - pos(t[y])).length_squared();
                    lx.total_cmp(&ly)
                })
                .unwrap_or(0);
            let (a, c, b) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
            // The live triangles other than i holding both a and c.
            let mut across: Vec<u32> = around
                [start[a as usize] as usize..start[a as usize + 1] as usize]
                .iter()
                .copied()
                .chain(extra.iter().filter(|e| e.0 == a).map(|e| e.1))
                .filter(|&j| {
                    let j = j as usize;
                    j != i && !removed[j] && triangles[j].contains(&a) && triangles[j].contains(&c)
                })
                .collect();
            across.sort_unstable();
            across.dedup();
            match across.as_slice() {
                [] => {
                    removed[i] = true;
                    progress = true;
                    repaired += 1;
                }
                [j] => {
                    let j = *j as usize;
                    let u = triangles[j];
                    // u = [x, y, d] rotated so that x-y is the shared side.
                    let r = (0..3)
                        .find(|&r| {
                            let (p, q) = (u[r], u[(r + 1) % 3]);
                            (p == a && q == c) || (p == c && q == a)
                        })
                        .unwrap_or(0);
                    let (x, y, d) = (u[r], u[(r + 1) % 3], u[(r + 2) % 3]);
                    let (n1, n2) = ([x, b, d], [b, y, d]);
                    if good(&n1, origin[j]) && good(&n2, origin[j]) {
                        removed[i] = true;
                        triangles[j] = n1;
                        let id2 = triangles.len() as u32;
                        triangles.push(n2);
                        origin.push(origin[j]);
                        removed.push(false);
                        for v in n1 {
                            extra.push((v, j as u32));
                        }
                        for v in n2 {
                            extra.push((v, id2));
                        }
                        progress = true;
                        repaired += 1;
                    }
                }
                _ => {}
            }
        }
        bad.retain(|&i| !removed[i] && !good(&triangles[i], origin[i]));
        if bad.is_empty() || !progress {
            break;
        }
    }
    let mut w = 0;
    for i in 0..triangles.len() {
        if !removed[i] {
            triangles[w] = triangles[i];
            origin[w] = origin[i];
            w += 1;
        }
    }
    triangles.truncate(w);
    origin.truncate(w);
    (repaired, bad.len())
}
