//! Shared pieces of the navigation tests: random triangulated domains, an independent
//! shortest-path oracle (visibility graph over reflex boundary vertices + Dijkstra), and a check
//! that a path lies on walkable ground.
#![allow(dead_code)]

use areakit_geometry::Vec3;
use areakit_geometry::nav::{NavMesh, Path, Surface};

pub use areakit_testkit::nav_meshes::Rng;

/// A jittered `nx` × `ny` grid of unit cells, each cut in two triangles along a random
/// diagonal, with `holes` rectangular blocks of cells removed. Blocks keep one cell from the
/// border and from each other, so the domain is a polygon with disjoint holes (no pinch
/// points). Heights from `z(x, y)`. Triangles are counter-clockwise or, when `mixed`, of
/// random winding.
pub fn grid_domain(
    rng: &mut Rng,
    nx: usize,
    ny: usize,
    holes: usize,
    jitter: f64,
    mixed: bool,
    z: impl Fn(f64, f64) -> f64,
) -> Surface {
    let mut vertices = Vec::new();
    for j in 0..=ny {
        for i in 0..=nx {
            let x = i as f64 + (rng.unit() - 0.5) * 2.0 * jitter;
            let y = j as f64 + (rng.unit() - 0.5) * 2.0 * jitter;
            vertices.push(Vec3::new(x as f32, y as f32, z(x, y) as f32));
        }
    }
    let mut removed = vec![false; nx * ny];
    let mut blocked = vec![false; nx * ny];
    let mut placed = 0;
    let mut tries = 0;
    while placed < holes && tries < 1000 && nx > 2 && ny > 2 {
        tries += 1;
        let w = 1 + rng.below(3) as usize;
        let h = 1 + rng.below(3) as usize;
        if w + 2 > nx || h + 2 > ny {
            continue;
        }
        let x0 = 1 + rng.below((nx - w - 1) as u64) as usize;
        let y0 = 1 + rng.below((ny - h - 1) as u64) as usize;
        if (y0..y0 + h).any(|y| (x0..x0 + w).any(|x| blocked[y * nx + x])) {
            continue;
        }
        for y in y0 - 1..=y0 + h {
            for x in x0 - 1..=x0 + w {
                if x < nx && y < ny {
                    blocked[y * nx + x] = true;
                }
            }
        }
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                removed[y * nx + x] = true;
            }
        }
        placed += 1;
    }
    let mut triangles = Vec::new();
    let vid = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    for j in 0..ny {
        for i in 0..nx {
            if removed[j * nx + i] {
                continue;
            }
            let (a, b, c, d) = (vid(i, j), vid(i + 1, j), vid(i + 1, j + 1), vid(i, j + 1));
            let pair = if rng.below(2) == 0 {
                [[a, b, c], [a, c, d]]
            } else {
                [[a, b, d], [b, c, d]]
            };
            for t in pair {
                if mixed && rng.below(2) == 0 {
                    triangles.push([t[0], t[2], t[1]]);
                } else {
                    triangles.push(t);
                }
            }
        }
    }
    let regions = vec![0; triangles.len()];
    Surface {
        links: Vec::new(),
        vertices,
        triangles,
        regions,
    }
}

/// A perfect maze of `w` × `h` rooms (depth-first, seeded), with `extra` additional walls
/// opened to make loops: `testkit`'s generated maze as a [`Surface`].
pub fn maze(rng: &mut Rng, w: usize, h: usize, extra: usize, jitter: f64) -> Surface {
    let g = areakit_testkit::nav_meshes::maze(rng, w, h, extra, jitter);
    Surface {
        links: Vec::new(),
        vertices: g.vertices.iter().map(|&v| Vec3::from_array(v)).collect(),
        regions: vec![0; g.triangles.len()],
        triangles: g.triangles,
    }
}

/// A uniformly random point on a random triangle (by index) of the surface.
pub fn random_point(rng: &mut Rng, s: &Surface) -> (u32, Vec3) {
    let t = rng.below(s.triangles.len() as u64) as u32;
    let [a, b, c] = s.triangles[t as usize].map(|i| s.vertices[i as usize].as_dvec3());
    let (mut u, mut v) = (rng.unit(), rng.unit());
    if u + v > 1.0 {
        u = 1.0 - u;
        v = 1.0 - v;
    }
    (t, (a + (b - a) * u + (c - a) * v).as_vec3())
}

fn cross(o: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

fn p2(v: Vec3) -> [f64; 2] {
    [f64::from(v.x), f64::from(v.y)]
}

fn d2(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// The shortest-path oracle of a planar domain given as triangles (no overlaps in plan; every
/// triangle of `s` is in the domain). Independent of the crate's code.
pub struct Oracle {
    tris: Vec<[[f64; 2]; 3]>,
    boundary: Vec<([f64; 2], [f64; 2])>,
    /// Reflex boundary vertices.
    nodes: Vec<[f64; 2]>,
    /// Visibility-graph distances between the nodes (INFINITY when not visible).
    vis: Vec<f64>,
}

impl Oracle {
    pub fn new(s: &Surface) -> Oracle {
        let tris: Vec<[[f64; 2]; 3]> = s
            .triangles
            .iter()
            .map(|t| t.map(|i| p2(s.vertices[i as usize])))
            .collect();
        // Boundary edges: used by one triangle.
        let mut count = std::collections::HashMap::new();
        for t in &s.triangles {
            for k in 0..3 {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                *count.entry((a.min(b), a.max(b))).or_insert(0) += 1;
            }
        }
        let mut boundary = Vec::new();
        let mut on_boundary = std::collections::HashSet::new();
        for (&(a, b), &c) in &count {
            if c == 1 {
                boundary.push((p2(s.vertices[a as usize]), p2(s.vertices[b as usize])));
                on_boundary.insert(a);
                on_boundary.insert(b);
            }
        }
        boundary.sort_by(|x, y| x.partial_cmp(y).unwrap());
        // Reflex: the triangles' angles at the vertex add up to more than 180°.
        let mut angle = std::collections::HashMap::new();
        for t in &s.triangles {
            for k in 0..3 {
                let o = p2(s.vertices[t[k] as usize]);
                let a = p2(s.vertices[t[(k + 1) % 3] as usize]);
                let b = p2(s.vertices[t[(k + 2) % 3] as usize]);
                let u = [a[0] - o[0], a[1] - o[1]];
                let w = [b[0] - o[0], b[1] - o[1]];
                let ang = (u[0] * w[1] - u[1] * w[0])
                    .abs()
                    .atan2(u[0] * w[0] + u[1] * w[1]);
                *angle.entry(t[k]).or_insert(0.0) += ang;
            }
        }
        let mut nodes: Vec<[f64; 2]> = on_boundary
            .iter()
            .filter(|v| angle[*v] > std::f64::consts::PI + 1e-9)
            .map(|&v| p2(s.vertices[v as usize]))
            .collect();
        nodes.sort_by(|x, y| x.partial_cmp(y).unwrap());
        let mut o = Oracle {
            tris,
            boundary,
            nodes,
            vis: Vec::new(),
        };
        let n = o.nodes.len();
        let mut vis = vec![f64::INFINITY; n * n];
        for i in 0..n {
            vis[i * n + i] = 0.0;
            for j in i + 1..n {
                if o.visible(o.nodes[i], o.nodes[j]) {
                    let d = d2(o.nodes[i], o.nodes[j]);
                    vis[i * n + j] = d;
                    vis[j * n + i] = d;
                }
            }
        }
        o.vis = vis;
        o
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The reflex boundary vertices.
    pub fn nodes(&self) -> &[[f64; 2]] {
        &self.nodes
    }

    fn inside(&self, m: [f64; 2]) -> bool {
        self.tris.iter().any(|t| {
            let area = cross(t[0], t[1], t[2]);
            let scale = area.abs().max(1e-300);
            let w = [
                cross(t[1], t[2], m) / area,
                cross(t[2], t[0], m) / area,
                cross(t[0], t[1], m) / area,
            ];
            let _ = scale;
            w.iter().all(|&x| x >= -1e-9)
        })
    }

    /// Whether the segment `p`–`q` lies in the (closed) domain.
    pub fn visible(&self, p: [f64; 2], q: [f64; 2]) -> bool {
        let mut ts = vec![0.0, 1.0];
        let d = [q[0] - p[0], q[1] - p[1]];
        for &(u, v) in &self.boundary {
            let e = [v[0] - u[0], v[1] - u[1]];
            let den = d[0] * e[1] - d[1] * e[0];
            let w = [u[0] - p[0], u[1] - p[1]];
            if den.abs() > 1e-15 {
                let t = (w[0] * e[1] - w[1] * e[0]) / den;
                let s = (w[0] * d[1] - w[1] * d[0]) / den;
                if (0.0..=1.0).contains(&t) && (-1e-12..=1.0 + 1e-12).contains(&s) {
                    ts.push(t);
                }
            } else {
                let dd = d[0] * d[0] + d[1] * d[1];
                if dd > 0.0 {
                    for x in [u, v] {
                        let t = ((x[0] - p[0]) * d[0] + (x[1] - p[1]) * d[1]) / dd;
                        ts.push(t.clamp(0.0, 1.0));
                    }
                }
            }
        }
        ts.sort_by(f64::total_cmp);
        ts.windows(2).all(|w| {
            if w[1] - w[0] < 1e-12 {
                return true;
            }
            let t = 0.5 * (w[0] + w[1]);
            self.inside([p[0] + d[0] * t, p[1] + d[1] * t])
        })
    }

    /// The shortest path length from `s` to `t` (Dijkstra over s, t and the reflex vertices).
    pub fn distance(&self, s: [f64; 2], t: [f64; 2]) -> f64 {
        if self.visible(s, t) {
            return d2(s, t);
        }
        let n = self.nodes.len();
        let from_s: Vec<f64> = self
            .nodes
            .iter()
            .map(|&v| {
                if self.visible(s, v) {
                    d2(s, v)
                } else {
                    f64::INFINITY
                }
            })
            .collect();
        let to_t: Vec<f64> = self
            .nodes
            .iter()
            .map(|&v| {
                if self.visible(v, t) {
                    d2(v, t)
                } else {
                    f64::INFINITY
                }
            })
            .collect();
        let mut dist = from_s.clone();
        let mut done = vec![false; n];
        let mut best = f64::INFINITY;
        loop {
            let mut u = usize::MAX;
            for i in 0..n {
                if !done[i] && dist[i].is_finite() && (u == usize::MAX || dist[i] < dist[u]) {
                    u = i;
                }
            }
            if u == usize::MAX || dist[u] >= best {
                break;
            }
            done[u] = true;
            best = best.min(dist[u] + to_t[u]);
            for v in 0..n {
                let w = self.vis[u * n + v];
                if !done[v] && dist[u] + w < dist[v] {
                    dist[v] = dist[u] + w;
                }
            }
        }
        best
    }
}

/// The height of the plane of `t` at `(x, y)` and how far outside the triangle the point lies
/// in plan (0 inside).
fn plan_offset(t: [Vec3; 3], p: [f64; 2]) -> (f64, f64) {
    let [a, b, c] = t.map(|v| v.as_dvec3());
    let pa = [a.x, a.y];
    let pb = [b.x, b.y];
    let pc = [c.x, c.y];
    let area = cross(pa, pb, pc);
    let wa = cross(pb, pc, p) / area;
    let wb = cross(pc, pa, p) / area;
    let wc = 1.0 - wa - wb;
    let z = wa * a.z + wb * b.z + wc * c.z;
    // Distance outside: to the nearest edge when a weight is negative.
    let mut out: f64 = 0.0;
    for (u, v, w) in [(pb, pc, wa), (pc, pa, wb), (pa, pb, wc)] {
        if w < 0.0 {
            let e = [v[0] - u[0], v[1] - u[1]];
            let l = (e[0] * e[0] + e[1] * e[1]).sqrt();
            let dist = (cross(u, v, p) / l).abs();
            out = out.max(dist);
        }
    }
    (z, out)
}

/// Checks a path lies on walkable ground: its corridor is a chain of neighbours from the
/// start's triangle to the goal's, and every point sampled along its surface polyline (every
/// `step` units, and each polyline point) lies in plan on a corridor triangle, at that
/// triangle's height.
pub fn check_on_ground(mesh: &NavMesh, path: &Path, step: f64) -> Result<usize, String> {
    let cor = &path.triangles;
    for w in cor.windows(2) {
        if !mesh.neighbours(w[0]).contains(&Some(w[1])) {
            return Err(format!("corridor {} -> {} not neighbours", w[0], w[1]));
        }
    }
    let pts = path.surface_points();
    if pts.first() != path.points.first() || pts.last() != path.points.last() {
        return Err("surface polyline ends differ from the path's".into());
    }
    let mut samples = 0;
    // Each sample must lie on a corridor triangle; corridor position only moves forward.
    let mut at = 0usize;
    for w in pts.windows(2) {
        let (a, b) = (w[0].as_dvec3(), w[1].as_dvec3());
        let len = (b - a).truncate().length();
        let n = ((len / step).ceil() as usize).max(1);
        for i in 0..=n {
            let p = a + (b - a) * (i as f64 / n as f64);
            samples += 1;
            let tol = 1e-4 * (1.0 + p.truncate().length());
            let ok = |t: u32| {
                let tp = mesh.triangle_points(t);
                let (z, off) = plan_offset(tp, [p.x, p.y]);
                // Height tolerance: 1e-3, plus what the plan tolerance is worth on a steep face.
                let [a, b, c] = tp.map(|v| v.as_dvec3());
                let n = (b - a).cross(c - a);
                let slope = n.truncate().length() / n.z.abs().max(1e-12);
                off <= tol && (z - p.z).abs() <= 1e-3 * (1.0 + p.z.abs()) + slope.min(1e6) * tol
            };
            match (at..cor.len()).find(|&k| ok(cor[k])) {
                Some(k) => at = k,
                None => {
                    let tris: Vec<_> = cor.iter().map(|&t| (t, mesh.triangle_points(t))).collect();
                    return Err(format!(
                        "sample {p:?} not on the corridor from position {at} (triangle {})\npoints {:?}\nsurface {:?}\ncorridor {:?}",
                        cor[at], path.points, pts, tris
                    ));
                }
            }
        }
    }
    Ok(samples)
}

/// A polyanya mesh of a planar surface (triangles put counter-clockwise).
pub fn polyanya_mesh(s: &Surface) -> polyanya::Mesh {
    use glam_polyanya::Vec2;
    let vertices: Vec<Vec2> = s.vertices.iter().map(|v| Vec2::new(v.x, v.y)).collect();
    let triangles: Vec<[usize; 3]> = s
        .triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| p2(s.vertices[i as usize]));
            if cross(a, b, c) < 0.0 {
                [t[0] as usize, t[2] as usize, t[1] as usize]
            } else {
                t.map(|i| i as usize)
            }
        })
        .collect();
    // Only the vertices used by triangles.
    let mut used = vec![u32::MAX; vertices.len()];
    let mut vs = Vec::new();
    let tris: Vec<[usize; 3]> = triangles
        .iter()
        .map(|t| {
            t.map(|i| {
                if used[i] == u32::MAX {
                    used[i] = vs.len() as u32;
                    vs.push(vertices[i]);
                }
                used[i] as usize
            })
        })
        .collect();
    let mut m = polyanya::Mesh::try_from(polyanya::Trimesh {
        vertices: vs,
        triangles: tris,
    })
    .expect("polyanya mesh");
    m.bake();
    m
}

/// polyanya's shortest path length between two plan points.
pub fn polyanya_length(m: &polyanya::Mesh, a: Vec3, b: Vec3) -> Option<f32> {
    use glam_polyanya::Vec2;
    m.path(Vec2::new(a.x, a.y), Vec2::new(b.x, b.y))
        .map(|p| p.length)
}

pub mod differential;
