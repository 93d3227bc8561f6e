//! Generated walkable ground for the navigation tests, as plain arrays (vertex positions,
//! triangles): mazes, rings, holes, spirals, ground on several levels, coincident vertices,
//! zero-area slivers, T-junctions and pinches. Seeded, so every run builds the same meshes.

/// A generated walkable surface.
#[derive(Debug, Clone)]
pub struct Ground {
    /// What it is (with its parameters).
    pub name: String,
    /// Vertex positions: `x`, `y` in plan, `z` up.
    pub vertices: Vec<[f32; 3]>,
    /// Triangles over the vertices (any winding).
    pub triangles: Vec<[u32; 3]>,
}

/// xorshift64.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// The next value.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform below `n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A grid of `nx` × `ny` unit cells being built: each kept cell is cut into two triangles
/// along a random diagonal; a cell may use a copy of a grid point instead of the point (same
/// position, another vertex), which parts it from the cells that use the point.
struct Grid {
    nx: usize,
    vertices: Vec<[f32; 3]>,
    /// Per grid point and copy number: its vertex.
    copies: std::collections::HashMap<(usize, usize, u8), u32>,
    triangles: Vec<[u32; 3]>,
}

impl Grid {
    fn new(rng: &mut Rng, nx: usize, ny: usize, jitter: f64, z: impl Fn(f64, f64) -> f64) -> Grid {
        let mut vertices = Vec::new();
        for j in 0..=ny {
            for i in 0..=nx {
                let x = i as f64 + (rng.unit() - 0.5) * 2.0 * jitter;
                let y = j as f64 + (rng.unit() - 0.5) * 2.0 * jitter;
                vertices.push([x as f32, y as f32, z(x, y) as f32]);
            }
        }
        Grid {
            nx,
            vertices,
            copies: std::collections::HashMap::new(),
            triangles: Vec::new(),
        }
    }

    /// Grid point `(i, j)`, copy `c` (0: the point itself).
    fn point(&mut self, i: usize, j: usize, c: u8) -> u32 {
        let base = (j * (self.nx + 1) + i) as u32;
        if c == 0 {
            return base;
        }
        let n = self.vertices.len() as u32;
        let v = *self.copies.entry((i, j, c)).or_insert(n);
        if v == n {
            let p = self.vertices[base as usize];
            self.vertices.push(p);
        }
        v
    }

    /// Adds cell `(i, j)`, its corners' copies chosen by `copy(point i, point j)`.
    fn cell(&mut self, rng: &mut Rng, i: usize, j: usize, copy: impl Fn(usize, usize) -> u8) {
        let mut p = |a: usize, b: usize| {
            let c = copy(a, b);
            self.point(a, b, c)
        };
        let (a, b, c, d) = (p(i, j), p(i + 1, j), p(i + 1, j + 1), p(i, j + 1));
        if rng.below(2) == 0 {
            self.triangles.extend([[a, b, c], [a, c, d]]);
        } else {
            self.triangles.extend([[a, b, d], [b, c, d]]);
        }
    }

    fn done(self, name: String) -> Ground {
        Ground {
            name,
            vertices: self.vertices,
            triangles: self.triangles,
        }
    }
}

/// A perfect maze of `w` × `h` rooms (depth first), with `extra` more walls opened to make
/// loops; each room, passage and wall is a jittered unit cell.
pub fn maze(rng: &mut Rng, w: usize, h: usize, extra: usize, jitter: f64) -> Ground {
    let (fx, fy) = (2 * w - 1, 2 * h - 1);
    let mut open = vec![false; fx * fy];
    for j in 0..h {
        for i in 0..w {
            open[(2 * j) * fx + 2 * i] = true;
        }
    }
    let mut seen = vec![false; w * h];
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some(&(i, j)) = stack.last() {
        let mut nbs = Vec::new();
        for (di, dj) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
            let (a, b) = (i as i64 + di, j as i64 + dj);
            if a >= 0
                && b >= 0
                && (a as usize) < w
                && (b as usize) < h
                && !seen[b as usize * w + a as usize]
            {
                nbs.push((a as usize, b as usize));
            }
        }
        if nbs.is_empty() {
            stack.pop();
            continue;
        }
        let (ni, nj) = nbs[rng.below(nbs.len() as u64) as usize];
        seen[nj * w + ni] = true;
        open[(i + ni) + (j + nj) * fx] = true;
        stack.push((ni, nj));
    }
    for _ in 0..extra {
        let (i, j) = (rng.below(fx as u64) as usize, rng.below(fy as u64) as usize);
        if (i + j) % 2 == 1 {
            open[j * fx + i] = true;
        }
    }
    let mut g = Grid::new(rng, fx, fy, jitter, |_, _| 0.0);
    for j in 0..fy {
        for i in 0..fx {
            if open[j * fx + i] {
                g.cell(rng, i, j, |_, _| 0);
            }
        }
    }
    g.done(format!("maze {w}x{h} +{extra}"))
}

/// A jittered grid with rectangular holes; with `touching`, holes may meet at a corner
/// (pinch points where the ground between them narrows to a vertex) or along the border.
pub fn holes(rng: &mut Rng, nx: usize, ny: usize, count: usize, touching: bool) -> Ground {
    let mut removed = vec![false; nx * ny];
    for _ in 0..count {
        let (w, h) = (1 + rng.below(3) as usize, 1 + rng.below(3) as usize);
        if w + 2 >= nx || h + 2 >= ny {
            continue;
        }
        let margin = usize::from(!touching);
        let x0 = margin + rng.below((nx - w - 2 * margin) as u64) as usize;
        let y0 = margin + rng.below((ny - h - 2 * margin) as u64) as usize;
        // Apart from the other holes by a cell unless `touching`.
        let free = (y0 - margin..y0 + h + margin)
            .all(|y| (x0 - margin..x0 + w + margin).all(|x| !removed[y * nx + x]));
        if !free && !touching {
            continue;
        }
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                removed[y * nx + x] = true;
            }
        }
    }
    let mut g = Grid::new(rng, nx, ny, 0.2, |_, _| 0.0);
    for j in 0..ny {
        for i in 0..nx {
            if !removed[j * nx + i] {
                g.cell(rng, i, j, |_, _| 0);
            }
        }
    }
    g.done(format!(
        "holes {nx}x{ny} {count}{}",
        if touching { " touching" } else { "" }
    ))
}

/// Square rooms on a checkerboard inside a band: diagonal rooms meet only at a corner (a
/// pinch, as kit rooms often do), and every room touches the band along an edge.
pub fn pinches(rng: &mut Rng, blocks: usize, size: usize) -> Ground {
    let n = blocks * size + 2;
    let mut g = Grid::new(rng, n, n, 0.0, |_, _| 0.0);
    for j in 0..n {
        for i in 0..n {
            let band = i == 0 || j == 0 || i == n - 1 || j == n - 1;
            let room = ((i - usize::from(i > 0)) / size + (j - usize::from(j > 0)) / size) % 2 == 0;
            if band || room {
                g.cell(rng, i, j, |_, _| 0);
            }
        }
    }
    g.done(format!("pinches {blocks}x{blocks} of {size}"))
}

/// An annulus: a regular `outer`-gon round a regular `inner`-gon hole (radii 10 and 4),
/// zipped into triangles.
pub fn ring(outer: usize, inner: usize) -> Ground {
    let mut vertices = Vec::new();
    let at = |r: f64, k: usize, n: usize| {
        let a = std::f64::consts::TAU * k as f64 / n as f64 + 0.1;
        [(r * a.cos()) as f32, (r * a.sin()) as f32, 0.0]
    };
    for k in 0..outer {
        vertices.push(at(10.0, k, outer));
    }
    for k in 0..inner {
        vertices.push(at(4.0, k, inner));
    }
    let mut triangles = Vec::new();
    let (mut i, mut j) = (0usize, 0usize);
    while i < outer || j < inner {
        let o = |k: usize| (k % outer) as u32;
        let n = |k: usize| (outer + k % inner) as u32;
        // Advance the side whose next step is shorter in angle.
        let ai = (i + 1) as f64 / outer as f64;
        let aj = (j + 1) as f64 / inner as f64;
        if j >= inner || (i < outer && ai <= aj) {
            triangles.push([o(i), o(i + 1), n(j)]);
            i += 1;
        } else {
            triangles.push([o(i), n(j + 1), n(j)]);
            j += 1;
        }
    }
    Ground {
        name: format!("ring {outer}/{inner}"),
        vertices,
        triangles,
    }
}

/// A square spiral corridor (2-D), one cell wide, `turns` times round.
pub fn spiral_corridor(rng: &mut Rng, turns: usize) -> Ground {
    let n = 4 * turns + 3;
    let mut keep = vec![false; n * n];
    // Right, up, left, down, ...: n − 1 cells, twice more n − 1, then twice n − 3, twice
    // n − 5, ...: a wall one cell wide stays between the arms.
    let (mut x, mut y) = (0i64, 0i64);
    keep[0] = true;
    let dirs = [(1i64, 0i64), (0, 1), (-1, 0), (0, -1)];
    let mut len = n as i64 - 1;
    let mut k = 0usize;
    while len > 0 {
        let (dx, dy) = dirs[k % 4];
        for _ in 0..len {
            x += dx;
            y += dy;
            keep[y as usize * n + x as usize] = true;
        }
        k += 1;
        if k >= 3 && k % 2 == 1 {
            len -= 2;
        }
    }
    let mut g = Grid::new(rng, n, n, 0.15, |_, _| 0.0);
    for j in 0..n {
        for i in 0..n {
            if keep[j * n + i] {
                g.cell(rng, i, j, |_, _| 0);
            }
        }
    }
    g.done(format!("spiral corridor {turns}"))
}

/// A ramp winding `turns` times round a square pillar (3-D: its turns lie above each other,
/// overlapping in plan), `steps` quads a turn, rising 3 units a turn.
pub fn spiral_ramp(turns: usize, steps: usize) -> Ground {
    let mut vertices = Vec::new();
    let n = turns * steps;
    for k in 0..=n {
        let a = std::f64::consts::TAU * k as f64 / steps as f64;
        let z = 3.0 * k as f64 / steps as f64;
        // Inner edge on the pillar's square (radius 2 along the axes), outer on a circle.
        let (c, s) = (a.cos(), a.sin());
        let m = c.abs().max(s.abs());
        vertices.push([(2.0 * c / m) as f32, (2.0 * s / m) as f32, z as f32]);
        vertices.push([(6.0 * c) as f32, (6.0 * s) as f32, z as f32]);
    }
    let mut triangles = Vec::new();
    for k in 0..n as u32 {
        let (a, b, c, d) = (2 * k, 2 * k + 1, 2 * k + 3, 2 * k + 2);
        triangles.push([a, b, c]);
        triangles.push([a, c, d]);
    }
    Ground {
        name: format!("spiral ramp {turns}x{steps}"),
        vertices,
        triangles,
    }
}

/// Ground on two levels: a floor (z = 0), and a balcony (z = 3) above half of it, reached by
/// a ramp that leaves the floor's edge, turns on a landing beyond it and comes back as the
/// balcony; balcony and ramp lie side by side in plan, at other heights, never joined.
pub fn levels(rng: &mut Rng) -> Ground {
    let mut vertices: Vec<[f32; 3]> = Vec::new();
    let mut triangles = Vec::new();
    let mut quad_strip = |xs: &[f64], ys: &[f64], z: &dyn Fn(f64, f64) -> f64, rng: &mut Rng| {
        let base = vertices.len() as u32;
        for &y in ys {
            for &x in xs {
                vertices.push([x as f32, y as f32, z(x, y) as f32]);
            }
        }
        let w = xs.len() as u32;
        for j in 0..ys.len() as u32 - 1 {
            for i in 0..w - 1 {
                let (a, b, c, d) = (
                    base + j * w + i,
                    base + j * w + i + 1,
                    base + (j + 1) * w + i + 1,
                    base + (j + 1) * w + i,
                );
                if rng.below(2) == 0 {
                    triangles.extend([[a, b, c], [a, c, d]]);
                } else {
                    triangles.extend([[a, b, d], [b, c, d]]);
                }
            }
        }
        base
    };
    let range = |a: f64, b: f64, n: usize| {
        (0..=n)
            .map(|k| a + (b - a) * k as f64 / n as f64)
            .collect::<Vec<f64>>()
    };
    // The floor: x, y in [0, 10].
    quad_strip(
        &range(0.0, 10.0, 10),
        &range(0.0, 10.0, 10),
        &|_, _| 0.0,
        rng,
    );
    // The ramp: x from 10 to 13, y in [6, 7.5], rising to 3; joined to the floor along x = 10.
    let ramp = quad_strip(
        &range(10.0, 13.0, 3),
        &[6.0, 7.0, 7.5],
        &|x, _| x - 10.0,
        rng,
    );
    // The landing: x in [13, 14], y in [6, 9] at z = 3.
    let landing = quad_strip(&[13.0, 14.0], &[6.0, 7.0, 7.5, 9.0], &|_, _| 3.0, rng);
    // The balcony: x from 2 to 13, y in [7.5, 9] at z = 3.
    let balcony = quad_strip(&range(2.0, 13.0, 11), &[7.5, 9.0], &|_, _| 3.0, rng);
    // Join by merging coincident vertices at the seams: the floor's x = 10 column with the
    // ramp's x = 10 column (y 6, 7, 7.5 are floor points only for 6 and 7: the floor's y step
    // is 1, so 7.5 makes a T-junction, left as it is); the ramp's top with the landing; the
    // landing's y 7.5..9 side with the balcony's end.
    let mut remap: Vec<u32> = (0..vertices.len() as u32).collect();
    let merge = |from: std::ops::Range<u32>, into: std::ops::Range<u32>, remap: &mut Vec<u32>| {
        for v in from {
            if let Some(w) = into
                .clone()
                .find(|&w| vertices[w as usize] == vertices[v as usize])
            {
                remap[v as usize] = remap[w as usize];
            }
        }
    };
    merge(ramp..landing, 0..ramp, &mut remap);
    merge(landing..balcony, ramp..landing, &mut remap);
    merge(balcony..vertices.len() as u32, landing..balcony, &mut remap);
    for t in &mut triangles {
        *t = t.map(|v| remap[v as usize]);
    }
    Ground {
        name: "levels: floor, ramp, balcony".into(),
        vertices,
        triangles,
    }
}

/// A grid where some grid points are doubled (a second vertex at the same position): the
/// cells right of such a point use the copy, so the ground parts along the edges from it
/// (cracks with tips, and coincident vertices); about one cell in twenty is left out.
pub fn coincident(rng: &mut Rng, n: usize, share: f64) -> Ground {
    let mut doubled = vec![false; (n + 1) * (n + 1)];
    for j in 1..n {
        for i in 1..n {
            doubled[j * (n + 1) + i] = rng.unit() < share;
        }
    }
    let mut g = Grid::new(rng, n, n, 0.2, |_, _| 0.0);
    for j in 0..n {
        for i in 0..n {
            if rng.unit() < 0.05 {
                continue;
            }
            let d = doubled.clone();
            g.cell(rng, i, j, |a, b| u8::from(d[b * (n + 1) + a] && a == i));
        }
    }
    g.done(format!("coincident {n} {share}"))
}

/// A grid with zero-area triangles (three collinear corners; a corner repeated) on its edges
/// and thin slivers (a corner a millionth off the edge's line) splitting some edges.
pub fn slivers(rng: &mut Rng, n: usize) -> Ground {
    let mut g = Grid::new(rng, n, n, 0.0, |x, y| 0.1 * x + 0.05 * y);
    for j in 0..n {
        for i in 0..n {
            g.cell(rng, i, j, |_, _| 0);
        }
    }
    let mut out = g.done(format!("slivers {n}"));
    let count = out.triangles.len();
    for t in 0..count {
        if rng.below(4) != 0 {
            continue;
        }
        let tri = out.triangles[t];
        let (a, b) = (tri[0], tri[1]);
        let (pa, pb) = (out.vertices[a as usize], out.vertices[b as usize]);
        let mid = [
            (pa[0] + pb[0]) / 2.0,
            (pa[1] + pb[1]) / 2.0,
            (pa[2] + pb[2]) / 2.0,
        ];
        let m = out.vertices.len() as u32;
        match rng.below(3) {
            // A flat triangle on the edge, and one with a repeated corner.
            0 => {
                out.vertices.push(mid);
                out.triangles.push([a, m, b]);
                out.triangles.push([a, a, tri[2]]);
            }
            // A sliver: the triangle split at a point a millionth of the way from the edge's
            // midpoint to its third corner.
            _ => {
                let pc = out.vertices[tri[2] as usize];
                let off = [
                    mid[0] + 1e-6 * (pc[0] - mid[0]),
                    mid[1] + 1e-6 * (pc[1] - mid[1]),
                    mid[2],
                ];
                out.vertices.push(off);
                out.triangles[t] = [a, m, tri[2]];
                out.triangles.push([m, b, tri[2]]);
                out.triangles.push([a, b, m]);
            }
        }
    }
    out
}

/// Two blocks of cells meeting along a line where the upper block's first `split` cells are
/// halved (a vertex of the upper block in the middle of each lower edge: T-junctions, never
/// joined) and the rest share their edges; the halves' shared corners are pinch points.
pub fn t_junctions(rng: &mut Rng, n: usize, split: usize) -> Ground {
    let mut g = Grid::new(rng, n, n, 0.0, |_, _| 0.0);
    let half = n / 2;
    for j in 0..half {
        for i in 0..n {
            g.cell(rng, i, j, |_, _| 0);
        }
    }
    let mut out_tris = std::mem::take(&mut g.triangles);
    let mut vertices = std::mem::take(&mut g.vertices);
    let w = n + 1;
    let vid = |i: usize, j: usize| (j * w + i) as u32;
    for j in half..n {
        for i in 0..n {
            let (a, b, c, d) = (vid(i, j), vid(i + 1, j), vid(i + 1, j + 1), vid(i, j + 1));
            if j == half && i < split {
                // Halved: a midpoint on the lower edge.
                let m = vertices.len() as u32;
                let (pa, pb) = (vertices[a as usize], vertices[b as usize]);
                vertices.push([(pa[0] + pb[0]) / 2.0, pa[1], pa[2]]);
                out_tris.extend([[a, m, d], [m, c, d], [m, b, c]]);
            } else if rng.below(2) == 0 {
                out_tris.extend([[a, b, c], [a, c, d]]);
            } else {
                out_tris.extend([[a, b, d], [b, c, d]]);
            }
        }
    }
    Ground {
        name: format!("t-junctions {n} split {split}"),
        vertices,
        triangles: out_tris,
    }
}

/// Every family, a few of each (seeded by `seed`).
pub fn families(seed: u64) -> Vec<Ground> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::new();
    for k in 0..3 {
        out.push(maze(&mut rng, 5 + 2 * k, 4 + k, k * 3, 0.25));
    }
    for k in 0..3 {
        out.push(holes(&mut rng, 8 + k, 7 + 2 * k, 3 + 2 * k, k > 0));
    }
    out.push(pinches(&mut rng, 3, 2));
    out.push(pinches(&mut rng, 4, 1));
    out.push(ring(24, 12));
    out.push(ring(9, 5));
    out.push(spiral_corridor(&mut rng, 2));
    out.push(spiral_ramp(3, 12));
    out.push(levels(&mut rng));
    for k in 0..3 {
        out.push(coincident(&mut rng, 6 + 2 * k, 0.1 + 0.1 * k as f64));
    }
    out.push(slivers(&mut rng, 6));
    out.push(t_junctions(&mut rng, 8, 3));
    out.push(t_junctions(&mut rng, 6, 6));
    out
}

/// Points on ground triangle `t` (with plan area) of the given vertices and triangles: its centre, a random
/// point inside it, or one of its corners, by `kind` 0, 1, 2. The first two are rounded to
/// `f32`, which may put them just off a thin triangle: callers check.
pub fn point_on(
    (vertices, triangles): (&[[f32; 3]], &[[u32; 3]]),
    t: u32,
    kind: u8,
    rng: &mut Rng,
) -> [f32; 3] {
    let [a, b, c] = triangles[t as usize].map(|v| vertices[v as usize].map(f64::from));
    let (u, v) = match kind {
        0 => (1.0 / 3.0, 1.0 / 3.0),
        1 => {
            let (mut u, mut v) = (rng.unit(), rng.unit());
            if u + v > 1.0 {
                u = 1.0 - u;
                v = 1.0 - v;
            }
            (u, v)
        }
        _ => return vertices[triangles[t as usize][rng.below(3) as usize] as usize],
    };
    let p = |k: usize| (a[k] + (b[k] - a[k]) * u + (c[k] - a[k]) * v) as f32;
    [p(0), p(1), p(2)]
}

/// The large open map of issue 45: a plain of 140 × 130 jittered unit cells (about 34 000
/// walkable triangles) with some 250 small rectangular obstacles (holes of 1–3 × 1–3 cells,
/// apart from each other and the border), the same for every run. Far pairs see far across
/// it, so the corner graph's sweeps are large and its build costs more than a batch of a few
/// thousand queries saves.
pub fn open_plain() -> Ground {
    let mut g = holes(&mut Rng(45), 140, 130, 320, false);
    g.name = format!("open plain ({})", g.name);
    g
}
