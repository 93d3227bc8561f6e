//! Carving: each triangle minus its convex obstacles (convex-difference splitting), then the
//! pieces made conforming across cuts and original edges and triangulated.
//!
//! Pass 1 (per triangle, independent): gather the obstacles that count for the triangle, split
//! the triangle into convex pieces outside all of them, snap piece corners to the triangle's
//! corners and edges, weld the rest, and drop collinear corners.
//! Pass 2 (per original edge): the cut points of all triangles around an edge are merged into
//! one list, so both sides use the same vertices.
//! Pass 3 (per triangle): each piece's ring gets the vertices lying on its sides (cut points of
//! the neighbours on an original edge, corners of the triangle's other pieces on a cut) and is
//! ear-clipped at the vertices' f32 output positions — no T-junctions, no turned-over slivers.
//! A final repair handles any triangle rounding still turned over.

use glam::{DVec2, Vec3};

use super::geom::{self, Aabb, Disk};
use super::prepare::{Footprints, Grid, Marks, Topo};
use super::{CarveStats, Carved, ClearanceOptions};
use crate::nav::Surface;

/// Blockers are grown by at least this much (metres) so that a zero-thickness blocker (a
/// vertical wall) still cuts the ground when the radius is 0.
pub const MIN_BLOCKER_GROWTH: f64 = 1e-3;
/// Height slack (metres) of the same-floor height filter on boundary edges.
pub(super) const Z_SLACK: f64 = 1e-3;
/// A triangle cut into more pieces than this is dropped whole (counted in
/// [`CarveStats::limited`]): the work per triangle is bounded, and dropping ground is safe.
const MAX_PIECES: usize = 1 << 16;

/// Obstacle kinds: a boundary side `t * 3 + k`, or a blocker index with this bit set.
const BLOCKER_BIT: u32 = 1 << 31;

/// The grown obstacles of one carve, in global plan coordinates.
pub(super) struct Obstacles {
    pts: Vec<DVec2>,
    range: Vec<(u32, u32)>,
    pub bbox: Vec<Aabb>,
    kind: Vec<u32>,
}

impl Obstacles {
    fn poly(&self, i: usize) -> &[DVec2] {
        let (s, e) = self.range[i];
        &self.pts[s as usize..e as usize]
    }
}

/// The parameters of one carve.
pub(super) struct Ctx<'a> {
    pub topo: &'a Topo,
    pub fp: &'a Footprints,
    pub disk: Disk,
    /// Radius for boundary edges.
    pub r: f64,
    pub agent_height: f64,
    pub ground_tolerance: f64,
    pub obst: Obstacles,
    pub grid: Grid,
}

impl<'a> Ctx<'a> {
    pub fn new(topo: &'a Topo, fp: &'a Footprints, r: f64, opts: &ClearanceOptions) -> Ctx<'a> {
        let disk = Disk::new(Disk::sides_for(f64::from(opts.arc_tolerance)));
        let rb = r.max(MIN_BLOCKER_GROWTH);
        let mut obst = Obstacles {
            pts: Vec::new(),
            range: Vec::new(),
            bbox: Vec::new(),
            kind: Vec::new(),
        };
        let push = |obst: &mut Obstacles, start: usize, kind: u32| {
            let end = obst.pts.len();
            obst.bbox.push(Aabb::of(&obst.pts[start..end]));
            obst.range.push((start as u32, end as u32));
            obst.kind.push(kind);
        };
        if r > 0.0 {
            for &c in &topo.boundary {
                let (u, k) = ((c / 3) as usize, (c % 3) as usize);
                let s = obst.pts.len();
                disk.capsule(topo.plan[u][k], topo.plan[u][(k + 1) % 3], r, &mut obst.pts);
                push(&mut obst, s, c);
            }
        }
        for i in 0..fp.polys.len() {
            let s = obst.pts.len();
            disk.offset(fp.poly(i), rb, &mut obst.pts);
            push(&mut obst, s, fp.polys[i].2 | BLOCKER_BIT);
        }
        let grid = Grid::new(&obst.bbox);
        Ctx {
            topo,
            fp,
            disk,
            r,
            agent_height: f64::from(opts.agent_height),
            ground_tolerance: f64::from(opts.ground_tolerance),
            obst,
            grid,
        }
    }
}

/// Where a piece corner lies on its original triangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Class {
    Interior,
    /// Corner `k` of the triangle.
    Corner(u8),
    /// On side `k` (from corner `k` to `k + 1`) at parameter `t` in (0, 1).
    Edge(u8, f64),
}

/// A corner of the pieces of one triangle, in coordinates relative to its corner 0.
#[derive(Debug, Clone, Copy)]
pub(super) struct LVert {
    pub pos: DVec2,
    pub class: Class,
}

/// What pass 1 made of one triangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fate {
    /// Not ground (degenerate input).
    Inactive,
    /// No obstacle touches it.
    Untouched,
    /// Cut into pieces (possibly none left).
    Cut,
    /// Dropped whole at the piece limit.
    Limited,
}

/// Pass-1 results of a range of triangles.
#[derive(Default)]
pub(super) struct Chunk {
    /// Per triangle: (triangle, first vertex, first polygon, fate).
    pub recs: Vec<(u32, u32, u32, Fate)>,
    pub verts: Vec<LVert>,
    /// Local vertex ids of the polygons, concatenated; `poly_end` per polygon.
    pub poly_idx: Vec<u32>,
    pub poly_end: Vec<u32>,
    pub obstacles_used: usize,
    pub pieces: usize,
}

impl Chunk {
    fn rec_range(&self, i: usize) -> (usize, usize, usize, usize) {
        let (_, v0, p0, _) = self.recs[i];
        let (v1, p1) = self
            .recs
            .get(i + 1)
            .map_or((self.verts.len() as u32, self.poly_end.len() as u32), |r| {
                (r.1, r.2)
            });
        (v0 as usize, v1 as usize, p0 as usize, p1 as usize)
    }
}

/// Working memory of pass 1, reused across triangles.
pub(super) struct Scratch {
    marks: Marks,
    hood_marks: Marks,
    obst_marks: Marks,
    near: Vec<u32>,
    hood: Vec<u32>,
    /// Local obstacles: points and ranges.
    opts: Vec<DVec2>,
    oranges: Vec<(u32, u32)>,
    pieces: Vec<DVec2>,
    pranges: Vec<(u32, u32)>,
    next: Vec<DVec2>,
    nranges: Vec<(u32, u32)>,
    rem: Vec<DVec2>,
    out: Vec<DVec2>,
    inn: Vec<DVec2>,
    clip: Vec<DVec2>,
    /// Per piece vertex: class and snapped position, then its local id.
    raw: Vec<LVert>,
    raw_id: Vec<u32>,
    order: Vec<u32>,
    order2: Vec<u32>,
    poly: Vec<u32>,
}

impl Scratch {
    pub fn new(triangles: usize, obstacles: usize) -> Scratch {
        Scratch {
            marks: Marks::new(triangles),
            hood_marks: Marks::new(triangles),
            obst_marks: Marks::new(obstacles),
            near: Vec::new(),
            hood: Vec::new(),
            opts: Vec::new(),
            oranges: Vec::new(),
            pieces: Vec::new(),
            pranges: Vec::new(),
            next: Vec::new(),
            nranges: Vec::new(),
            rem: Vec::new(),
            out: Vec::new(),
            inn: Vec::new(),
            clip: Vec::new(),
            raw: Vec::new(),
            raw_id: Vec::new(),
            order: Vec::new(),
            order2: Vec::new(),
            poly: Vec::new(),
        }
    }
}

/// The part `[s0, s1]` of a boundary edge (heights `za`, `zb` at its ends `a`, `b`) whose
/// height is within `tau` of triangle `t`'s plane (extended) at the same plan point.
pub(super) fn height_window(
    topo: &Topo,
    t: usize,
    a: DVec2,
    b: DVec2,
    za: f64,
    zb: f64,
    tau: f64,
) -> Option<(f64, f64)> {
    let f0 = za - topo.height(t, a);
    let f1 = zb - topo.height(t, b);
    // |f0 + s (f1 - f0)| <= tau on s in [0, 1].
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let df = f1 - f0;
    for bound in [tau, -tau] {
        // Keep f0 + s df <= tau (bound = tau) and f0 + s df >= -tau (bound = -tau).
        let upper = bound > 0.0;
        if df == 0.0 {
            if (upper && f0 > bound) || (!upper && f0 < bound) {
                return None;
            }
            continue;
        }
        let s = (bound - f0) / df;
        // For the upper bound the kept side is s <= (tau - f0)/df when df > 0.
        if (df > 0.0) == upper {
            hi = hi.min(s);
        } else {
            lo = lo.max(s);
        }
    }
    (lo <= hi && lo.is_finite() && hi.is_finite()).then_some((lo, hi))
}

impl Ctx<'_> {
    /// Gathers the obstacles of triangle `t` into `sc.opts` / `sc.oranges` (local coords).
    fn gather(&self, t: usize, sc: &mut Scratch) {
        let topo = self.topo;
        let eps = topo.eps[t];
        let o = topo.plan[t][0];
        let bb = topo.bbox[t].grown(eps);
        sc.opts.clear();
        sc.oranges.clear();
        self.grid.query(&bb, &mut sc.obst_marks, &mut sc.near);
        sc.near.sort_unstable();
        let (zmin, zmax) = topo.z_range(t);
        // Same-floor neighbourhood and its steepest gradient, made on first need.
        let mut slope: Option<f64> = None;
        for ni in 0..sc.near.len() {
            let i = sc.near[ni] as usize;
            if !self.obst.bbox[i].overlaps(&bb) {
                continue;
            }
            let kind = self.obst.kind[i];
            if kind & BLOCKER_BIT == 0 {
                let (u, k) = ((kind / 3) as usize, (kind % 3) as usize);
                if u == t {
                    let s = sc.opts.len();
                    sc.opts.extend(self.obst.poly(i).iter().map(|&p| p - o));
                    sc.oranges.push((s as u32, sc.opts.len() as u32));
                    continue;
                }
                let (a, b) = (topo.plan[u][k], topo.plan[u][(k + 1) % 3]);
                let (za, zb) = (topo.z[u][k], topo.z[u][(k + 1) % 3]);
                // A neighbour across a side is on this floor at any radius; when its side also
                // lies within the slack of t's plane the height filter keeps all of it: it
                // counts without a neighbourhood search.
                let adjacent = topo.edge_of[t].iter().any(|&g| {
                    g != u32::MAX && topo.sides(g).iter().any(|&sd| (sd / 3) as usize == u)
                });
                if adjacent
                    && matches!(height_window(topo, t, a, b, za, zb, Z_SLACK + eps),
                        Some((s0, s1)) if s0 <= 0.0 && s1 >= 1.0)
                {
                    let s = sc.opts.len();
                    sc.opts.extend(self.obst.poly(i).iter().map(|&p| p - o));
                    sc.oranges.push((s as u32, sc.opts.len() as u32));
                    continue;
                }
                let s_max = match slope {
                    Some(s) => s,
                    None => {
                        topo.neighbourhood(t, self.r + eps, &mut sc.marks, &mut sc.hood);
                        sc.hood_marks.next();
                        let mut s = 0.0f64;
                        for &h in &sc.hood {
                            sc.hood_marks.mark(h as usize);
                            s = s.max(topo.grad[h as usize].length());
                        }
                        slope = Some(s);
                        s
                    }
                };
                // Not on this floor: not joined to t within the radius.
                if !sc.hood_marks.is_marked(u) {
                    continue;
                }
                let tau = 2.0 * s_max * self.r + Z_SLACK + eps;
                let Some((s0, s1)) = height_window(topo, t, a, b, za, zb, tau) else {
                    continue;
                };
                let s = sc.opts.len();
                if s0 <= 0.0 && s1 >= 1.0 {
                    sc.opts.extend(self.obst.poly(i).iter().map(|&p| p - o));
                } else {
                    let (pa, pb) = (a + (b - a) * s0 - o, a + (b - a) * s1 - o);
                    self.disk.capsule(pa, pb, self.r, &mut sc.opts);
                }
                sc.oranges.push((s as u32, sc.opts.len() as u32));
            } else {
                let blocker = (kind & !BLOCKER_BIT) as usize;
                let (lo, hi) = self.fp.spans[blocker];
                // Ground at height z is blocked when z is in [lo - agent height, hi + tolerance].
                let (glo, ghi) = (lo - self.agent_height, hi + self.ground_tolerance);
                if zmax < glo || zmin > ghi {
                    continue;
                }
                let s = sc.opts.len();
                sc.clip.clear();
                sc.clip.extend(self.obst.poly(i).iter().map(|&p| p - o));
                let g = topo.grad[t];
                let gl = g.length();
                if gl > 0.0 && gl.is_finite() && (zmin < glo || zmax > ghi) {
                    let z0 = topo.z[t][0];
                    let n = g / gl;
                    // Keep height >= glo: -n . x <= (z0 - glo) / |g|.
                    geom::clip_keep_inside(&sc.clip, -n * ((z0 - glo) / gl), -n, 0.0, &mut sc.out);
                    // Keep height <= ghi: n . x <= (ghi - z0) / |g|.
                    geom::clip_keep_inside(&sc.out, n * ((ghi - z0) / gl), n, 0.0, &mut sc.clip);
                }
                if sc.clip.len() >= 3 {
                    sc.opts.extend_from_slice(&sc.clip);
                    sc.oranges.push((s as u32, sc.opts.len() as u32));
                }
            }
        }
    }

    /// Pass 1 for triangle `t`, appended to `chunk`.
    pub fn carve_triangle(&self, t: usize, sc: &mut Scratch, chunk: &mut Chunk) {
        let topo = self.topo;
        let v0 = chunk.verts.len() as u32;
        let p0 = chunk.poly_end.len() as u32;
        if !topo.active[t] {
            chunk.recs.push((t as u32, v0, p0, Fate::Inactive));
            return;
        }
        let eps = topo.eps[t];
        let o = topo.plan[t][0];
        let c = topo.plan[t].map(|p| p - o);
        self.gather(t, sc);
        if sc.oranges.is_empty() {
            for (k, &p) in c.iter().enumerate() {
                chunk.verts.push(LVert {
                    pos: p,
                    class: Class::Corner(k as u8),
                });
            }
            if topo.ccw[t] {
                chunk.poly_idx.extend_from_slice(&[0, 1, 2]);
            } else {
                chunk.poly_idx.extend_from_slice(&[0, 2, 1]);
            }
            chunk.poly_end.push(chunk.poly_idx.len() as u32);
            chunk.recs.push((t as u32, v0, p0, Fate::Untouched));
            return;
        }
        chunk.obstacles_used += sc.oranges.len();

        // Convex difference, obstacle by obstacle.
        sc.pieces.clear();
        sc.pranges.clear();
        if topo.ccw[t] {
            sc.pieces.extend_from_slice(&c);
        } else {
            sc.pieces.extend_from_slice(&[c[0], c[2], c[1]]);
        }
        sc.pranges.push((0, 3));
        let mut limited = false;
        for oi in 0..sc.oranges.len() {
            let (os, oe) = sc.oranges[oi];
            let obs = &sc.opts[os as usize..oe as usize];
            let obox = Aabb::of(obs).grown(eps);
            sc.next.clear();
            sc.nranges.clear();
            for pi in 0..sc.pranges.len() {
                let (ps, pe) = sc.pranges[pi];
                let piece = &sc.pieces[ps as usize..pe as usize];
                let keep = !Aabb::of(piece).overlaps(&obox);
                if keep {
                    let s = sc.next.len() as u32;
                    sc.next.extend_from_slice(piece);
                    sc.nranges.push((s, sc.next.len() as u32));
                    continue;
                }
                subtract(
                    piece,
                    obs,
                    eps,
                    &mut sc.rem,
                    &mut sc.out,
                    &mut sc.inn,
                    &mut sc.next,
                    &mut sc.nranges,
                    &mut sc.order2,
                );
            }
            std::mem::swap(&mut sc.pieces, &mut sc.next);
            std::mem::swap(&mut sc.pranges, &mut sc.nranges);
            if sc.pranges.len() > MAX_PIECES {
                limited = true;
                break;
            }
            if sc.pranges.is_empty() {
                break;
            }
        }
        if limited {
            chunk.recs.push((t as u32, v0, p0, Fate::Limited));
            return;
        }
        chunk.pieces += sc.pranges.len();
        weld(&c, eps, sc, chunk);
        chunk.recs.push((t as u32, v0, p0, Fate::Cut));
    }
}

/// Snaps, welds and stores the pieces in `sc` as the polygons of a triangle with local
/// corners `c`.
fn weld(c: &[DVec2; 3], eps: f64, sc: &mut Scratch, chunk: &mut Chunk) {
    // Classify and snap every piece corner.
    sc.raw.clear();
    for &p in &sc.pieces {
        sc.raw.push(classify(p, c, eps));
    }
    // Weld: corners by index, edge points by (side, parameter), interior by position.
    let base = chunk.verts.len();
    sc.raw_id.clear();
    sc.raw_id.resize(sc.raw.len(), u32::MAX);
    let mut corner_id = [u32::MAX; 3];
    sc.order.clear();
    for (i, v) in sc.raw.iter().enumerate() {
        if let Class::Corner(k) = v.class {
            let id = &mut corner_id[k as usize];
            if *id == u32::MAX {
                *id = (chunk.verts.len() - base) as u32;
                chunk.verts.push(LVert {
                    pos: c[k as usize],
                    class: v.class,
                });
            }
            sc.raw_id[i] = *id;
        } else {
            sc.order.push(i as u32);
        }
    }
    // Edge points and interior points, welded by plan position in x order (every new
    // vertex is more than eps from every earlier one).
    let raw = &sc.raw;
    sc.order
        .sort_by(|&a, &b| raw[a as usize].pos.x.total_cmp(&raw[b as usize].pos.x));
    let first = chunk.verts.len();
    for &i in &sc.order {
        let v = raw[i as usize];
        let mut found = u32::MAX;
        for j in (first..chunk.verts.len()).rev() {
            let w = &chunk.verts[j];
            if w.pos.x < v.pos.x - eps {
                break;
            }
            if (w.pos - v.pos).length_squared() <= eps * eps && same_kind(w.class, v.class) {
                found = (j - base) as u32;
                break;
            }
        }
        if found == u32::MAX {
            found = (chunk.verts.len() - base) as u32;
            chunk.verts.push(v);
        }
        sc.raw_id[i as usize] = found;
    }
    // Polygons: drop repeated and collinear corners; keep those with area.
    for pi in 0..sc.pranges.len() {
        let (ps, pe) = sc.pranges[pi];
        sc.poly.clear();
        for i in ps..pe {
            let id = sc.raw_id[i as usize];
            if sc.poly.last() != Some(&id) {
                sc.poly.push(id);
            }
        }
        while sc.poly.len() > 1 && sc.poly.first() == sc.poly.last() {
            sc.poly.pop();
        }
        let verts = &chunk.verts[base..];
        let pos = |id: u32| verts[id as usize].pos;
        let mut changed = true;
        while changed && sc.poly.len() >= 3 {
            changed = false;
            let m = sc.poly.len();
            for i in 0..m {
                let (a, b, d) = (
                    pos(sc.poly[(i + m - 1) % m]),
                    pos(sc.poly[i]),
                    pos(sc.poly[(i + 1) % m]),
                );
                let len = (d - a).length();
                let h = if len > 0.0 {
                    geom::orient(a, d, b).abs() / len
                } else {
                    (b - a).length()
                };
                if h <= eps {
                    sc.poly.remove(i);
                    changed = true;
                    break;
                }
            }
        }
        if sc.poly.len() < 3 {
            continue;
        }
        let area: f64 = {
            let p0 = pos(sc.poly[0]);
            (1..sc.poly.len() - 1)
                .map(|i| geom::orient(p0, pos(sc.poly[i]), pos(sc.poly[i + 1])))
                .sum()
        };
        if area <= 0.0 {
            continue;
        }
        chunk.poly_idx.extend_from_slice(&sc.poly);
        chunk.poly_end.push(chunk.poly_idx.len() as u32);
    }
}

/// Whether two welded vertices may be one: corners never weld here; an edge point only with an
/// edge point on the same side; interior with interior.
fn same_kind(a: Class, b: Class) -> bool {
    match (a, b) {
        (Class::Edge(x, _), Class::Edge(y, _)) => x == y,
        (Class::Interior, Class::Interior) => true,
        _ => false,
    }
}

/// Classifies a local point: a corner within `eps`, else a side within `eps` (snapped onto
/// it), else interior.
fn classify(p: DVec2, c: &[DVec2; 3], eps: f64) -> LVert {
    let e2 = eps * eps;
    let mut best: Option<(f64, usize)> = None;
    for (k, &q) in c.iter().enumerate() {
        let d = (p - q).length_squared();
        if d <= e2 && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, k));
        }
    }
    if let Some((_, k)) = best {
        return LVert {
            pos: c[k],
            class: Class::Corner(k as u8),
        };
    }
    let mut side: Option<(f64, usize, f64)> = None;
    for k in 0..3 {
        let (d, t) = geom::seg_dist2_t(p, c[k], c[(k + 1) % 3]);
        if d <= e2 && side.is_none_or(|(bd, _, _)| d < bd) {
            side = Some((d, k, t));
        }
    }
    match side {
        Some((_, k, t)) if t > 0.0 && t < 1.0 => LVert {
            pos: c[k] + (c[(k + 1) % 3] - c[k]) * t,
            class: Class::Edge(k as u8, t),
        },
        Some((_, k, t)) => {
            let k = if t <= 0.0 { k } else { (k + 1) % 3 };
            LVert {
                pos: c[k],
                class: Class::Corner(k as u8),
            }
        }
        None => LVert {
            pos: p,
            class: Class::Interior,
        },
    }
}

/// Convex `piece` minus convex `obs`: the pieces outside go to `next` / `nranges`.
#[allow(clippy::too_many_arguments)]
fn subtract(
    piece: &[DVec2],
    obs: &[DVec2],
    eps: f64,
    rem: &mut Vec<DVec2>,
    out: &mut Vec<DVec2>,
    inn: &mut Vec<DVec2>,
    next: &mut Vec<DVec2>,
    nranges: &mut Vec<(u32, u32)>,
    order: &mut Vec<u32>,
) {
    rem.clear();
    rem.extend_from_slice(piece);
    let m = obs.len();
    let push = |poly: &[DVec2], next: &mut Vec<DVec2>, nranges: &mut Vec<(u32, u32)>| {
        if poly.len() >= 3 && geom::area(poly) > 0.0 {
            let s = next.len() as u32;
            next.extend_from_slice(poly);
            nranges.push((s, next.len() as u32));
        }
    };
    // Edges whose segment crosses the piece first (in boundary order), then the others: the
    // cut lines of edges that stay away from the piece would cut free ground for nothing.
    const AWAY: u32 = 1 << 31;
    order.clear();
    let pbox = Aabb::of(piece).grown(eps);
    order.extend((0..m as u32).map(|e| {
        let e0 = e as usize;
        let (s0, s1) = (obs[e0], obs[(e0 + 1) % m]);
        let ebox = Aabb {
            min: s0.min(s1),
            max: s0.max(s1),
        };
        if ebox.overlaps(&pbox) && crosses(s0, s1, piece, eps) {
            e
        } else {
            e | AWAY
        }
    }));
    if order.iter().all(|&e| e & AWAY != 0) {
        // No edge passes through the piece: the piece lies inside the obstacle or their
        // interiors are apart; its centroid tells which.
        let c = piece.iter().fold(DVec2::ZERO, |a, &p| a + p) / piece.len() as f64;
        let inside = (0..m).all(|e| match geom::outward(obs[e], obs[(e + 1) % m]) {
            Some(n) => geom::line_dist(c, obs[e], n) <= 0.0,
            None => true,
        });
        if !inside {
            push(piece, next, nranges);
        }
        return;
    }
    order.sort_by_key(|&e| e & AWAY != 0);
    for &e in order.iter() {
        let e = (e & !AWAY) as usize;
        let a = obs[e];
        let Some(n) = geom::outward(a, obs[(e + 1) % m]) else {
            continue;
        };
        let (mut smin, mut smax) = (f64::INFINITY, f64::NEG_INFINITY);
        for &v in rem.iter() {
            let s = geom::line_dist(v, a, n);
            smin = smin.min(s);
            smax = smax.max(s);
        }
        if smin >= -eps {
            // Entirely outside this edge: no overlap left.
            push(rem, next, nranges);
            return;
        }
        if smax <= eps {
            continue;
        }
        geom::split(rem, a, n, eps, out, inn);
        push(out, next, nranges);
        std::mem::swap(rem, inn);
        if rem.len() < 3 {
            return;
        }
    }
    // What is left lies inside the obstacle.
}

/// Whether segment `s0-s1` passes through the interior of convex `poly` (deeper than `eps`).
fn crosses(s0: DVec2, s1: DVec2, poly: &[DVec2], eps: f64) -> bool {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let d = s1 - s0;
    let m = poly.len();
    for k in 0..m {
        let a = poly[k];
        let Some(n) = geom::outward(a, poly[(k + 1) % m]) else {
            continue;
        };
        // Inside this edge: n . (s0 + t d - a) <= -eps.
        let d0 = n.dot(s0 - a) + eps;
        let dd = n.dot(d);
        if dd == 0.0 {
            if d0 > 0.0 {
                return false;
            }
        } else if dd > 0.0 {
            t1 = t1.min(-d0 / dd);
        } else {
            t0 = t0.max(-d0 / dd);
        }
        if t0 >= t1 {
            return false;
        }
    }
    true
}

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
        // The points to insert strictly inside side a -> b of `poly`, in order.
        let inserts = |a: u32, b: u32, poly: &[u32], ins: &mut Vec<(f64, Ref, DVec2)>| {
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
                inserts(a, b, poly, &mut w.ins);
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
