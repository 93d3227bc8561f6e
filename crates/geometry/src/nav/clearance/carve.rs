//! Carving, pass 1 (per triangle, independent): gather the obstacles that count for the
//! triangle, split the triangle into convex pieces outside all of them (convex difference),
//! snap piece corners to the triangle's corners and edges, weld the rest, and drop collinear
//! corners. Passes 2 and 3 (making the pieces conforming, triangulating) are in `conform`.

use glam::DVec2;

use super::ClearanceOptions;
use super::geom::{self, Aabb, Disk};
use super::prepare::{Footprints, Grid, Marks, Topo};

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
    pub(super) fn rec_range(&self, i: usize) -> (usize, usize, usize, usize) {
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
