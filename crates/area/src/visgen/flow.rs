//! Cells and portals: which rooms a line can reach from a room, through the openings.
//!
//! Each room with a shell is a cell; everything outside every shell is one more cell, the
//! *outside*. Two rooms' openings that meet (facing each other, within [`MATCH_GAP`], their
//! caps overlapping) make one doorway portal between the two rooms; every other opening (and
//! the part of a doorway opening its partner does not cover) is a portal to the outside.
//! Rooms without a shell (no model, or nothing opaque) stand in the outside.
//!
//! From a room, the *flow* follows portal sequences a line can pass in order (Teller and
//! Séquin's cells and portals): the first portal is the source; each next portal is cut to the
//! part in front of the source's and the last portal's planes and to the anti-penumbra of the
//! source and the last portal (the side of every plane that separates the two, through an
//! edge of one and a corner of the other, where the last portal lies), and the source is cut
//! the same way towards the new portal. A sequence ends when a portal is cut away. A room the
//! flow enters is seen; where it reaches the outside, so are the rooms standing there and those
//! whose drawn faces look out of their shells.

use glam::{Vec2, Vec3};

use super::shell::{Opening, Shell, basis, hull2};

/// How far apart two openings' planes may be and still be one doorway (metres).
pub const MATCH_GAP: f32 = 0.3;

/// Portal sequences one room's flow may visit; past it the room is taken to see every room
/// its cell reaches through portals, whatever the geometry (and a warning says so).
pub const FLOW_BUDGET: usize = 200_000;

/// Portals in one sequence at most; a longer one makes the flow over budget.
const MAX_CHAIN: usize = 64;

/// Points this close to a plane count as on both sides of it (metres).
const EPS: f32 = 1e-4;

/// A one-way portal: a convex polygon a line crosses from cell `from` into cell `to`, along
/// `normal`.
#[derive(Debug, Clone)]
pub struct Portal {
    /// The polygon.
    pub poly: Vec<Vec3>,
    /// Its plane's normal, pointing into `to`.
    pub normal: Vec3,
    /// Its plane: `normal · x = d`.
    pub d: f32,
    /// The cell behind it.
    pub from: usize,
    /// The cell in front of it.
    pub to: usize,
}

/// The cells and portals of an area.
#[derive(Debug, Clone, Default)]
pub struct Cells {
    /// Rooms (cells `0..rooms`; cell `rooms` is the outside).
    pub rooms: usize,
    /// Portals, in twin pairs (`2k` and `2k + 1` are one opening crossed either way).
    pub portals: Vec<Portal>,
    /// Per cell, the portals leading out of it.
    pub out: Vec<Vec<usize>>,
    /// Per room: it has no shell, so it stands in the outside.
    pub outside: Vec<bool>,
    /// Per room: some drawn face of it looks out of its shell (seen from the outside).
    pub seen_from_outside: Vec<bool>,
    /// Doorway portals (two-way pairs).
    pub doorways: usize,
}

impl Cells {
    /// The outside cell.
    pub fn outside_cell(&self) -> usize {
        self.rooms
    }

    fn push_pair(&mut self, poly: Vec<Vec3>, normal: Vec3, a: usize, b: usize) {
        if poly.len() < 3 {
            return;
        }
        let d = normal.dot(poly[0]);
        let back: Vec<Vec3> = poly.iter().rev().copied().collect();
        self.portals.push(Portal {
            poly,
            normal,
            d,
            from: a,
            to: b,
        });
        self.portals.push(Portal {
            poly: back,
            normal: -normal,
            d: -d,
            from: b,
            to: a,
        });
    }
}

/// The area of a convex 2-D polygon.
fn area2(p: &[Vec2]) -> f32 {
    0.5 * (0..p.len())
        .map(|i| p[i].perp_dot(p[(i + 1) % p.len()]))
        .sum::<f32>()
        .abs()
}

/// The intersection of two convex counter-clockwise 2-D polygons (`a` clipped by `b`'s edges).
fn intersect2(a: &[Vec2], b: &[Vec2]) -> Vec<Vec2> {
    let mut out = a.to_vec();
    for i in 0..b.len() {
        if out.len() < 3 {
            break;
        }
        let (p, q) = (b[i], b[(i + 1) % b.len()]);
        let side = |x: Vec2| (q - p).perp_dot(x - p);
        let inp = std::mem::take(&mut out);
        for j in 0..inp.len() {
            let (s, e) = (inp[j], inp[(j + 1) % inp.len()]);
            let (ds, de) = (side(s), side(e));
            if ds >= 0.0 {
                out.push(s);
            }
            if (ds >= 0.0) != (de >= 0.0) {
                out.push(s + (e - s) * (ds / (ds - de)));
            }
        }
    }
    out
}

/// A convex 2-D polygon with at most eight corners that holds `h` (its bounding octagon when
/// it has more).
fn at_most_eight(h: Vec<Vec2>) -> Vec<Vec2> {
    if h.len() <= 8 {
        return h;
    }
    let dirs: Vec<Vec2> = (0..8)
        .map(|k| {
            let a = k as f32 * std::f32::consts::FRAC_PI_4;
            Vec2::new(a.cos(), a.sin())
        })
        .collect();
    let lim: Vec<f32> = dirs
        .iter()
        .map(|d| h.iter().map(|p| d.dot(*p)).fold(f32::MIN, f32::max))
        .collect();
    (0..8)
        .map(|k| {
            let j = (k + 1) % 8;
            // d_k · x = l_k and d_j · x = l_j.
            let (a, b) = (dirs[k], dirs[j]);
            let det = a.perp_dot(b);
            Vec2::new(
                (lim[k] * b.y - lim[j] * a.y) / det,
                (a.x * lim[j] - b.x * lim[k]) / det,
            )
        })
        .collect()
}

/// A polygon in 3-D from 2-D points of the plane through `c` with basis `u`, `v`.
fn lift(p: &[Vec2], c: Vec3, u: Vec3, v: Vec3) -> Vec<Vec3> {
    p.iter().map(|q| c + u * q.x + v * q.y).collect()
}

/// Builds the cells and portals from the rooms' shells (`None`: no shell).
pub fn cells(shells: &[Option<Shell>]) -> Cells {
    let rooms = shells.len();
    let mut c = Cells {
        rooms,
        outside: shells.iter().map(Option::is_none).collect(),
        seen_from_outside: shells
            .iter()
            .map(|s| s.as_ref().is_some_and(|s| s.seen_from_outside))
            .collect(),
        ..Cells::default()
    };
    let all: Vec<(usize, &Opening)> = shells
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.as_ref().map(|s| (i, s)))
        .flat_map(|(i, s)| s.openings.iter().map(move |o| (i, o)))
        .collect();
    let bounds: Vec<(Vec3, Vec3)> = all
        .iter()
        .map(|(_, o)| {
            o.cap.iter().fold(
                (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
                |(l, h), p| (l.min(*p), h.max(*p)),
            )
        })
        .collect();
    let mut covered = vec![0.0f32; all.len()];
    let outside = c.outside_cell();
    for x in 0..all.len() {
        for y in x + 1..all.len() {
            let ((ra, a), (rb, b)) = (all[x], all[y]);
            if ra == rb {
                continue;
            }
            let (lx, hx) = bounds[x];
            let (ly, hy) = bounds[y];
            let g = Vec3::splat(MATCH_GAP);
            if (lx - g).cmpgt(hy).any() || (ly - g).cmpgt(hx).any() {
                continue;
            }
            let facing = a.normal.dot(b.normal);
            if !(facing <= -0.9 || ((a.both_ways || b.both_ways) && facing.abs() >= 0.9)) {
                continue;
            }
            // b's cap in a's plane.
            let n = a.normal;
            let ca = a.cap.iter().copied().sum::<Vec3>() / a.cap.len() as f32;
            if b.cap.iter().any(|p| (*p - ca).dot(n).abs() > MATCH_GAP) {
                continue;
            }
            let (u, v) = basis(n);
            let flat = |cap: &[Vec3]| -> Vec<Vec2> {
                let pts: Vec<Vec2> = cap
                    .iter()
                    .map(|p| Vec2::new((*p - ca).dot(u), (*p - ca).dot(v)))
                    .collect();
                hull2(&pts)
            };
            let (fa, fb) = (flat(&a.cap), flat(&b.cap));
            if fa.len() < 3 || fb.len() < 3 {
                continue;
            }
            let common = area2(&intersect2(&fa, &fb));
            if common < 0.01 * area2(&fa).min(area2(&fb)).max(1e-6) {
                continue;
            }
            covered[x] += common;
            covered[y] += common;
            // One portal, in the plane midway between the two caps, holding both.
            let cb = b.cap.iter().copied().sum::<Vec3>() / b.cap.len() as f32;
            let mid = ca + n * ((cb - ca).dot(n) * 0.5);
            let mut pts = fa;
            pts.extend(fb);
            let h = at_most_eight(hull2(&pts));
            let poly = lift(&h, mid, u, v);
            // a's outward normal points into b.
            c.push_pair(poly.clone(), n, ra, rb);
            c.doorways += 1;
            if a.both_ways || b.both_ways {
                // Facing out both ways: crossed the other way round too.
                c.push_pair(poly, -n, ra, rb);
            }
        }
    }
    for (k, &(r, o)) in all.iter().enumerate() {
        let left = o.area - covered[k];
        if covered[k] > 0.0 && left <= (0.05 * o.area).max(0.01) {
            continue;
        }
        let (u, v) = basis(o.normal);
        let ca = o.cap.iter().copied().sum::<Vec3>() / o.cap.len() as f32;
        let flat: Vec<Vec2> = o
            .cap
            .iter()
            .map(|p| Vec2::new((*p - ca).dot(u), (*p - ca).dot(v)))
            .collect();
        let poly = lift(&at_most_eight(hull2(&flat)), ca, u, v);
        c.push_pair(poly.clone(), o.normal, r, outside);
        if o.both_ways {
            c.push_pair(poly, -o.normal, r, outside);
        }
    }
    c.out = vec![Vec::new(); rooms + 1];
    for (i, p) in c.portals.iter().enumerate() {
        c.out[p.from].push(i);
    }
    c
}

/// The part of `poly` on the front of the plane `n · x = d` (points within [`EPS`] behind it
/// kept: the cut errs on the side of more).
fn clip(poly: &[Vec3], n: Vec3, d: f32) -> Vec<Vec3> {
    let mut out = Vec::with_capacity(poly.len() + 2);
    for i in 0..poly.len() {
        let (s, e) = (poly[i], poly[(i + 1) % poly.len()]);
        let (ds, de) = (n.dot(s) - d + EPS, n.dot(e) - d + EPS);
        if ds >= 0.0 {
            out.push(s);
        }
        if (ds >= 0.0) != (de >= 0.0) {
            out.push(s + (e - s) * (ds / (ds - de)));
        }
    }
    out
}

/// `target` cut to the side where `pass` lies of every plane that separates `first` from
/// `pass` (through an edge of one and a corner of the other, each wholly on its own side).
/// A line through `first`, then `pass`, then `target` crosses such a plane once, between the
/// two, so its point in `target` lies on `pass`'s side.
fn separators(first: &[Vec3], pass: &[Vec3], mut target: Vec<Vec3>) -> Vec<Vec3> {
    for (edges, corners) in [(first, pass), (pass, first)] {
        for i in 0..edges.len() {
            let (a, b) = (edges[i], edges[(i + 1) % edges.len()]);
            for &q in corners {
                let n = (b - a).cross(q - a);
                let len = n.length();
                if len < 1e-9 {
                    continue;
                }
                let n = n / len;
                let d = n.dot(a);
                let span = |p: &[Vec3]| {
                    p.iter().fold((f32::MAX, f32::MIN), |(l, h), x| {
                        let s = n.dot(*x) - d;
                        (l.min(s), h.max(s))
                    })
                };
                let (fl, fh) = span(first);
                let (pl, ph) = span(pass);
                // `first` behind and `pass` in front (or the other way round), each touching.
                let keep = if fh <= EPS && pl >= -EPS && (fl < -EPS || ph > EPS) {
                    1.0
                } else if fl >= -EPS && ph <= EPS && (fh > EPS || pl < -EPS) {
                    -1.0
                } else {
                    continue;
                };
                target = clip(&target, n * keep, d * keep);
                if target.len() < 3 {
                    return target;
                }
            }
        }
    }
    target
}

/// Whether some point of `poly` lies strictly in front of the plane.
fn ahead(poly: &[Vec3], n: Vec3, d: f32) -> bool {
    poly.iter().any(|p| n.dot(*p) - d > EPS)
}

/// One room's flow: the cells it reaches, and the sequences visited.
#[derive(Debug, Clone)]
pub struct Flow {
    /// Per cell (the outside last): reached.
    pub reached: Vec<bool>,
    /// Portal sequences visited.
    pub steps: usize,
    /// Whether [`FLOW_BUDGET`] ran out (then `reached` is every cell the portals connect).
    pub over_budget: bool,
}

struct Walk<'a> {
    cells: &'a Cells,
    reached: Vec<bool>,
    chain: Vec<usize>,
    steps: usize,
}

impl Walk<'_> {
    fn visit(
        &mut self,
        src: &[Vec3],
        sp: (Vec3, f32),
        pass: &[Vec3],
        pp: (Vec3, f32),
        cell: usize,
    ) {
        self.reached[cell] = true;
        // Past the outside, a line may go anywhere the outside's own flow goes (that flow, from
        // every opening onto the outside at once, is followed once for all rooms).
        if cell == self.cells.outside_cell() {
            return;
        }
        // A chain this long is not followed further: the room then counts as over budget
        // (every cell the portals connect), so nothing is dropped.
        if self.chain.len() >= MAX_CHAIN {
            self.steps = FLOW_BUDGET + 1;
            return;
        }
        for &pi in &self.cells.out[cell] {
            if self.steps > FLOW_BUDGET {
                return;
            }
            let last = *self.chain.last().unwrap_or(&usize::MAX);
            if pi == last ^ 1 || self.chain.contains(&pi) {
                continue;
            }
            let p = &self.cells.portals[pi];
            self.steps += 1;
            // In front of the source and the last portal, and the source behind this one.
            let t = clip(&clip(&p.poly, sp.0, sp.1), pp.0, pp.1);
            if t.len() < 3 || !ahead(&t, sp.0, sp.1) || !ahead(&t, pp.0, pp.1) {
                continue;
            }
            let s = clip(src, -p.normal, -p.d);
            if s.len() < 3 || !ahead(&s, -p.normal, -p.d) {
                continue;
            }
            let (s, t) = if self.chain.len() > 1 {
                let t = separators(&s, pass, t);
                if t.len() < 3 {
                    continue;
                }
                let s = separators(&t, pass, s);
                if s.len() < 3 {
                    continue;
                }
                (s, t)
            } else {
                (s, t)
            };
            self.chain.push(pi);
            self.visit(&s, sp, &t, (p.normal, p.d), p.to);
            self.chain.pop();
        }
    }
}

/// The flow from the cells `starts` (a room's own cell, the outside for a room standing
/// there, and any cell its eyes reach past a portal's plane). A sequence that reaches the
/// outside stops there: what lies beyond is the outside's own flow ([`outside_flow`], whose
/// sequences start at every opening onto the outside), which the caller joins to every flow
/// that reached the outside; a start in the outside only marks it reached.
pub fn flow(cells: &Cells, starts: &[usize]) -> Flow {
    flow_from(cells, starts, false)
}

/// The outside's own flow: from every portal out of the outside.
pub fn outside_flow(cells: &Cells) -> Flow {
    flow_from(cells, &[cells.outside_cell()], true)
}

fn flow_from(cells: &Cells, starts: &[usize], from_outside: bool) -> Flow {
    let mut w = Walk {
        cells,
        reached: vec![false; cells.rooms + 1],
        chain: Vec::new(),
        steps: 0,
    };
    for &start in starts {
        w.reached[start] = true;
        if start == cells.outside_cell() && !from_outside {
            continue;
        }
        for &si in &cells.out[start] {
            let s = &cells.portals[si];
            w.chain.push(si);
            let plane = (s.normal, s.d);
            w.visit(&s.poly, plane, &s.poly, plane, s.to);
            w.chain.pop();
        }
    }
    let over_budget = w.steps > FLOW_BUDGET;
    if over_budget {
        // Every cell the portals connect, whatever the geometry.
        let mut stack: Vec<usize> = starts.to_vec();
        while let Some(c) = stack.pop() {
            w.reached[c] = true;
            for &pi in &cells.out[c] {
                let to = cells.portals[pi].to;
                if !w.reached[to] {
                    w.reached[to] = true;
                    stack.push(to);
                }
            }
        }
    }
    Flow {
        reached: w.reached,
        steps: w.steps,
        over_budget,
    }
}
