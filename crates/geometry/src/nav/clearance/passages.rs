//! Narrow passages: where eroding by the radius splits an island of the surface, joined again
//! by the widest way through the eroded ground.

use std::collections::HashMap;

use glam::{DVec2, Vec3};

use super::geom::{self, Aabb};
use super::prepare::{Grid, Marks};
use super::query::Candidates;
use super::{Clearance, ClearanceError, NarrowPassage};
use crate::derive::adjacency;
use crate::mesh::Mesh;

/// Carved parts smaller than this fraction of `r²` are ignored (specks left near arcs).
const MIN_PART: f64 = 0.01;
/// Samples along a shared side when looking for its largest clearance, then golden-section
/// steps around the best sample (each shrinks the interval by 0.618: 2/16 * 0.618^20 of the side,
/// about 1e-5 of it).
const SAMPLES: usize = 17;
const REFINE: usize = 20;

/// Union-find with path halving.
struct Sets(Vec<u32>);

impl Sets {
    fn new(n: usize) -> Sets {
        Sets((0..n as u32).collect())
    }
    fn find(&mut self, mut x: u32) -> u32 {
        while self.0[x as usize] != x {
            let p = self.0[self.0[x as usize] as usize];
            self.0[x as usize] = p;
            x = p;
        }
        x
    }
    /// Joins the sets of `a` and `b`; the new root.
    fn union(&mut self, a: u32, b: u32) -> u32 {
        let (a, b) = (self.find(a), self.find(b));
        let (lo, hi) = (a.min(b), a.max(b));
        self.0[hi as usize] = lo;
        lo
    }
}

/// A way between two nodes (parts or eroded triangles) with the largest clearance on it.
struct Join {
    width: f64,
    at: DVec2,
    tri: usize,
    a: u32,
    b: u32,
    /// For a join of two grid samples: the step between them (the passage is refined across
    /// it at the end).
    across: Option<DVec2>,
}

pub(super) fn narrow_passages(
    cl: &Clearance<'_>,
    radius: f32,
) -> Result<Vec<NarrowPassage>, ClearanceError> {
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(ClearanceError::Radius(radius));
    }
    if radius == 0.0 {
        return Ok(Vec::new());
    }
    let r = f64::from(radius);
    let carved = cl.carve(radius)?;
    let topo = &cl.topo;
    let n = topo.n;

    // Islands of the original ground.
    let mut islands = Sets::new(n);
    for t in 0..n {
        if topo.active[t] {
            topo.for_neighbours(t, |u| {
                islands.union(t as u32, u as u32);
            });
        }
    }
    // Parts of the carved ground (connected through shared sides).
    let cs = &carved.surface;
    let m = cs.triangles.len();
    let mesh = Mesh {
        vertices: cs.vertices.iter().map(|v| v.to_array()).collect(),
        faces: cs.triangles.clone(),
        walkable: vec![true; m],
    };
    let adj = adjacency(&mesh, m);
    let mut parts = Sets::new(m);
    for (f, a) in adj.iter().enumerate() {
        for &o in a {
            if o >= 0 {
                parts.union(f as u32, (o / 3) as u32);
            }
        }
    }
    let mut part_of = vec![u32::MAX; m];
    let mut part_area: Vec<f64> = Vec::new();
    let mut part_root: HashMap<u32, u32> = HashMap::new();
    for (f, part) in part_of.iter_mut().enumerate() {
        let root = parts.find(f as u32);
        let id = *part_root.entry(root).or_insert_with(|| {
            part_area.push(0.0);
            (part_area.len() - 1) as u32
        });
        *part = id;
        let p = cs.triangles[f].map(|i| cs.vertices[i as usize].as_dvec3().truncate());
        part_area[id as usize] += geom::orient(p[0], p[1], p[2]).abs() * 0.5;
    }
    let np = part_area.len();
    let significant: Vec<bool> = part_area.iter().map(|&a| a >= MIN_PART * r * r).collect();
    // Islands with two or more significant parts.
    let mut count: HashMap<u32, u32> = HashMap::new();
    let mut island_of_part = vec![u32::MAX; np];
    for (f, &p) in part_of.iter().enumerate() {
        let p = p as usize;
        if island_of_part[p] == u32::MAX {
            island_of_part[p] = islands.find(carved.origin[f]);
            if significant[p] {
                *count.entry(island_of_part[p]).or_default() += 1;
            }
        }
    }
    let split: Vec<u32> = {
        let mut v: Vec<u32> = count
            .iter()
            .filter(|&(_, &c)| c >= 2)
            .map(|(&i, _)| i)
            .collect();
        v.sort_unstable();
        v
    };
    if split.is_empty() {
        return Ok(Vec::new());
    }
    let in_split =
        |islands: &mut Sets, t: usize| split.binary_search(&islands.find(t as u32)).is_ok();

    // Which significant parts each original triangle hosts.
    let mut hosts: Vec<(u32, u32)> = (0..m)
        .filter(|&f| significant[part_of[f] as usize])
        .map(|f| (carved.origin[f], part_of[f]))
        .collect();
    hosts.sort_unstable();
    hosts.dedup();
    let mut host_start: HashMap<u32, (usize, usize)> = HashMap::new();
    {
        let mut i = 0;
        while i < hosts.len() {
            let mut j = i;
            while j < hosts.len() && hosts[j].0 == hosts[i].0 {
                j += 1;
            }
            host_start.insert(hosts[i].0, (i, j));
            i = j;
        }
    }
    // Node of a triangle: its part when it hosts exactly one, else its own node.
    let node = |t: usize| -> u32 {
        match host_start.get(&(t as u32)) {
            Some(&(i, j)) if j - i == 1 => hosts[i].1,
            _ => np as u32 + t as u32,
        }
    };

    let cap = r * (1.0 + f64::from(cl.options.arc_tolerance)) + 1e-6;
    let mut marks = Marks::new(n);
    let mut fmarks = Marks::new(cl.fp.polys.len());
    let mut cache: HashMap<usize, Candidates> = HashMap::new();
    let mut joins: Vec<Join> = Vec::new();
    let clearance = |cl: &Clearance<'_>, c: &Candidates, t: usize, p: DVec2| {
        cl.clearance_with(c, p, topo.height(t, p))
    };

    // The carved triangles of each original triangle that hosts several parts.
    let mut by_origin: HashMap<u32, Vec<usize>> = HashMap::new();
    for f in 0..m {
        if significant[part_of[f] as usize] {
            if let Some(&(i, j)) = host_start.get(&carved.origin[f]) {
                if j - i >= 2 {
                    by_origin.entry(carved.origin[f]).or_default().push(f);
                }
            }
        }
    }
    // Triangles hosting several parts are sampled on a grid (spacing r / 3, at most 48 steps
    // a side): a sample in a part's carved ground stands for the part, the others are nodes of
    // their own, and neighbouring samples are joined at the smaller clearance of the two.
    let mut shared: Vec<u32> = by_origin.keys().copied().collect();
    shared.sort_unstable();
    let mut next_node = (np + n) as u32;
    let mut samples: HashMap<u32, (usize, usize)> = HashMap::new();
    let mut sample_at: Vec<DVec2> = Vec::new();
    let mut sample_node: Vec<u32> = Vec::new();
    let mut sample_step: HashMap<u32, f64> = HashMap::new();
    let in_part = |t: usize, p: DVec2| -> Option<u32> {
        let fs = by_origin.get(&(t as u32))?;
        let e = topo.eps[t];
        fs.iter()
            .find(|&&f| {
                let q = cs.triangles[f].map(|v| cs.vertices[v as usize].as_dvec3().truncate());
                geom::in_triangle(p, &q)
                    || (0..3).any(|k| geom::seg_dist2(p, q[k], q[(k + 1) % 3]) <= e * e)
            })
            .map(|&f| part_of[f])
    };
    for &x in &shared {
        let t = x as usize;
        if !in_split(&mut islands, t) {
            continue;
        }
        let c = cache
            .entry(t)
            .or_insert_with(|| cl.candidates(t, cap, &mut marks, &mut fmarks));
        let bb = topo.bbox[t];
        let ext = bb.max - bb.min;
        let h = (r / 3.0).max(ext.max_element() / 48.0);
        let (gx, gy) = (
            ((ext.x / h).floor() as usize + 1).min(49),
            ((ext.y / h).floor() as usize + 1).min(49),
        );
        let first = sample_at.len();
        let mut index = vec![usize::MAX; gx * gy];
        let mut clear = Vec::new();
        for jy in 0..gy {
            for ix in 0..gx {
                let p = bb.min + DVec2::new(ix as f64 * h, jy as f64 * h);
                if !geom::in_triangle(p, &topo.plan[t]) {
                    continue;
                }
                index[jy * gx + ix] = sample_at.len();
                let node = in_part(t, p).unwrap_or_else(|| {
                    next_node += 1;
                    next_node - 1
                });
                sample_at.push(p);
                sample_node.push(node);
                clear.push(clearance(cl, c, t, p));
            }
        }
        for jy in 0..gy {
            for ix in 0..gx {
                let a = index[jy * gx + ix];
                if a == usize::MAX {
                    continue;
                }
                for (nx, ny) in [(ix + 1, jy), (ix, jy + 1)] {
                    if nx >= gx || ny >= gy {
                        continue;
                    }
                    let b = index[ny * gx + nx];
                    if b == usize::MAX || sample_node[a] == sample_node[b] {
                        continue;
                    }
                    let (ca, cb) = (clear[a - first], clear[b - first]);
                    joins.push(Join {
                        width: ca.min(cb),
                        at: if ca <= cb { sample_at[a] } else { sample_at[b] },
                        tri: t,
                        a: sample_node[a],
                        b: sample_node[b],
                        across: Some(sample_at[b] - sample_at[a]),
                    });
                }
            }
        }
        samples.insert(x, (first, sample_at.len()));
        sample_step.insert(x, h);
    }
    // The node a side of triangle t stands for at plan point p: in a triangle hosting several
    // parts, the part whose carved ground holds p, else the nearest sample's node.
    let resolve = |t: usize, p: DVec2| -> u32 {
        if !by_origin.contains_key(&(t as u32)) {
            return node(t);
        }
        if let Some(part) = in_part(t, p) {
            return part;
        }
        match samples.get(&(t as u32)) {
            Some(&(a, b)) if b > a => {
                let k = (a..b)
                    .min_by(|&x, &y| {
                        (sample_at[x] - p)
                            .length_squared()
                            .total_cmp(&(sample_at[y] - p).length_squared())
                    })
                    .unwrap_or(a);
                sample_node[k]
            }
            _ => node(t),
        }
    };
    // Shared sides between different nodes.
    for g in 0..topo.edge_ends.len() as u32 {
        let sides = topo.sides(g);
        if sides.len() < 2 {
            continue;
        }
        for w in sides.windows(2) {
            let (t1, k1) = ((w[0] / 3) as usize, (w[0] % 3) as usize);
            let t2 = (w[1] / 3) as usize;
            if !in_split(&mut islands, t1) {
                continue;
            }
            let multi = |t: usize| by_origin.contains_key(&(t as u32));
            if node(t1) == node(t2) && !multi(t1) && !multi(t2) {
                continue;
            }
            let c = cache
                .entry(t1)
                .or_insert_with(|| cl.candidates(t1, cap, &mut marks, &mut fmarks));
            let (a, b) = (topo.plan[t1][k1], topo.plan[t1][(k1 + 1) % 3]);
            let f = |s: f64| clearance(cl, c, t1, a + (b - a) * s);
            let mut best = (f64::NEG_INFINITY, 0.0);
            let mut at = 0;
            for i in 0..SAMPLES {
                let s = i as f64 / (SAMPLES - 1) as f64;
                let v = f(s);
                if v > best.0 {
                    best = (v, s);
                    at = i;
                }
            }
            // Golden-section refinement around the best sample.
            let step = 1.0 / (SAMPLES - 1) as f64;
            let (mut lo, mut hi) = (
                (at as f64 * step - step).max(0.0),
                (at as f64 * step + step).min(1.0),
            );
            let phi = 0.5 * (5f64.sqrt() - 1.0);
            let (mut x1, mut x2) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
            let (mut f1, mut f2) = (f(x1), f(x2));
            for _ in 0..REFINE {
                for (x, v) in [(x1, f1), (x2, f2)] {
                    if v > best.0 {
                        best = (v, x);
                    }
                }
                if f1 < f2 {
                    lo = x1;
                    (x1, f1) = (x2, f2);
                    x2 = lo + phi * (hi - lo);
                    f2 = f(x2);
                } else {
                    hi = x2;
                    (x2, f2) = (x1, f1);
                    x1 = hi - phi * (hi - lo);
                    f1 = f(x1);
                }
            }
            let at = a + (b - a) * best.1;
            let (n1, n2) = (resolve(t1, at), resolve(t2, at));
            if n1 == n2 {
                continue;
            }
            joins.push(Join {
                width: best.0,
                at,
                tri: t1,
                a: n1,
                b: n2,
                across: None,
            });
        }
    }

    // Widest joins first (a maximum spanning forest); a join of two sets that both hold
    // parts is a passage. Joins of equal width (a corridor of even width) are taken nearest
    // to the parts first, so the join that finally links two parts lies midway.
    let far = 8.0 * r;
    let part_boxes: Vec<Aabb> = (0..m)
        .map(|f| {
            if significant[part_of[f] as usize] {
                Aabb::of(&cs.triangles[f].map(|v| cs.vertices[v as usize].as_dvec3().truncate()))
            } else {
                Aabb::EMPTY
            }
        })
        .collect();
    let part_grid = Grid::new(&part_boxes);
    let mut pmarks = Marks::new(m);
    let mut near = Vec::new();
    // Quantized widths; the distance to the parts only where a width is shared.
    let quant = |w: f64| (w / (1e-6 * r)).round() as i64;
    let mut widths: Vec<i64> = joins.iter().map(|j| quant(j.width)).collect();
    widths.sort_unstable();
    let shared = |q: i64| {
        let i = widths.partition_point(|&x| x < q);
        widths.get(i + 1) == Some(&q)
    };
    let mut keyed: Vec<(i64, f64, Join)> = joins
        .into_iter()
        .map(|j| {
            let q = quant(j.width);
            if !shared(q) {
                return (q, 0.0, j);
            }
            part_grid.query(
                &Aabb {
                    min: j.at,
                    max: j.at,
                }
                .grown(far),
                &mut pmarks,
                &mut near,
            );
            let d = near
                .iter()
                .map(|&f| {
                    let p = cs.triangles[f as usize]
                        .map(|v| cs.vertices[v as usize].as_dvec3().truncate());
                    (0..3)
                        .map(|k| geom::seg_dist2(j.at, p[k], p[(k + 1) % 3]))
                        .fold(f64::INFINITY, f64::min)
                        .sqrt()
                })
                .fold(far, f64::min);
            (q, d, j)
        })
        .collect();
    keyed.sort_by(|x, y| {
        y.0.cmp(&x.0)
            .then(x.1.total_cmp(&y.1))
            .then(x.2.tri.cmp(&y.2.tri))
            .then(x.2.at.x.total_cmp(&y.2.at.x))
            .then(x.2.at.y.total_cmp(&y.2.at.y))
    });
    let joins: Vec<Join> = keyed.into_iter().map(|k| k.2).collect();
    let total = next_node as usize;
    let mut nodes = Sets::new(total);
    let mut has_part: Vec<bool> = (0..total).map(|i| i < np && significant[i]).collect();
    let mut out = Vec::new();
    for j in &joins {
        let (ra, rb) = (nodes.find(j.a), nodes.find(j.b));
        if ra == rb {
            continue;
        }
        let both = has_part[ra as usize] && has_part[rb as usize];
        let root = nodes.union(ra, rb);
        has_part[root as usize] = has_part[ra as usize] || has_part[rb as usize];
        if both {
            // A join of grid samples: the widest point across the passage near the sample,
            // across being the way the clearance grows (away from the nearest obstacle).
            let (at, width) = match j.across {
                Some(d) if d.length() > 0.0 => {
                    let c = cache
                        .entry(j.tri)
                        .or_insert_with(|| cl.candidates(j.tri, cap, &mut marks, &mut fmarks));
                    let h = d.length();
                    let f = |p: DVec2| clearance(cl, c, j.tri, p);
                    let dd = h / 8.0;
                    let grad = DVec2::new(
                        f(j.at + DVec2::X * dd) - f(j.at - DVec2::X * dd),
                        f(j.at + DVec2::Y * dd) - f(j.at - DVec2::Y * dd),
                    );
                    let dir = if grad.length() > 0.0 {
                        grad / grad.length()
                    } else {
                        DVec2::new(-d.y, d.x) / h
                    };
                    let step = 3.0 * h / 24.0;
                    let mut best = (j.width, 0.0);
                    for i in 0..=24 {
                        let s = -1.5 * h + step * i as f64;
                        let v = f(j.at + dir * s);
                        if v > best.0 {
                            best = (v, s);
                        }
                    }
                    // Golden-section refinement within a step either side.
                    let phi = 0.5 * (5f64.sqrt() - 1.0);
                    let (mut lo, mut hi) = (best.1 - step, best.1 + step);
                    for _ in 0..REFINE {
                        let (x1, x2) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
                        let (f1, f2) = (f(j.at + dir * x1), f(j.at + dir * x2));
                        for (x, v) in [(x1, f1), (x2, f2)] {
                            if v > best.0 {
                                best = (v, x);
                            }
                        }
                        if f1 < f2 {
                            lo = x1;
                        } else {
                            hi = x2;
                        }
                    }
                    (j.at + dir * best.1, best.0)
                }
                _ => (j.at, j.width),
            };
            let z = topo.height(j.tri, at);
            out.push(NarrowPassage {
                position: Vec3::new(at.x as f32, at.y as f32, z as f32),
                width: (2.0 * width) as f32,
                region: cl.surface.regions[j.tri],
            });
        }
    }
    Ok(out)
}
