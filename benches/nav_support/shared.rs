//! The meshes and pairs of the navigation benchmarks, shared by `benches/nav.rs` and the
//! Recast/Detour baseline (`benches/detour/`, a crate outside the workspace), which include this
//! file with `#[path]`: both measure the same triangles and the same pairs.

#![allow(dead_code)]

use areakit_geometry::Vec3;
use areakit_geometry::nav::{NavMesh, Surface};

/// Random reachable pairs per mesh: the largest corpus walkmesh, the ~120 k and the ~1 M
/// triangle mazes (far pairs on the mazes expand many nodes, hence fewer).
pub const PAIRS: usize = 10_000;
pub const PAIRS_120K: usize = 2_000;
pub const PAIRS_1M: usize = 100;

/// The pairs to draw on a maze: `default`, or `NAV_BENCH_MAZE_PAIRS` when set (the issue's
/// 10 000 on every mesh: a run of an hour or more on two cores, the polyanya crate alone ~35 min
/// on the million-triangle maze).
pub fn maze_pairs(default: usize) -> usize {
    std::env::var("NAV_BENCH_MAZE_PAIRS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A maze of `w` × `h` rooms of `r` × `r` unit cells, walls one cell thick, a door of
/// `max(1, r / 2)` cells between rooms joined by a depth-first spanning tree plus 15 % more
/// doors (loops); jittered corners, gently waving heights.
pub fn maze(w: usize, h: usize, r: usize, seed: u64) -> Surface {
    let mut rng = Rng(seed);
    let step = r + 1;
    let (fx, fy) = (w * step - 1, h * step - 1);
    let mut open = vec![false; fx * fy];
    for j in 0..h {
        for i in 0..w {
            for y in 0..r {
                for x in 0..r {
                    open[(j * step + y) * fx + i * step + x] = true;
                }
            }
        }
    }
    let door = (r / 2).max(1);
    let open_door = |open: &mut Vec<bool>, rng: &mut Rng, i: usize, j: usize, east: bool| {
        let off = rng.below((r - door + 1) as u64) as usize;
        for d in 0..door {
            let (x, y) = if east {
                (i * step + r, j * step + off + d)
            } else {
                (i * step + off + d, j * step + r)
            };
            open[y * fx + x] = true;
        }
    };
    let mut seen = vec![false; w * h];
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some(&(i, j)) = stack.last() {
        let mut nbs = [(0usize, 0usize); 4];
        let mut n = 0;
        for (di, dj) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
            let (ni, nj) = (i as i64 + di, j as i64 + dj);
            if ni >= 0
                && nj >= 0
                && (ni as usize) < w
                && (nj as usize) < h
                && !seen[nj as usize * w + ni as usize]
            {
                nbs[n] = (ni as usize, nj as usize);
                n += 1;
            }
        }
        if n == 0 {
            stack.pop();
            continue;
        }
        let (ni, nj) = nbs[rng.below(n as u64) as usize];
        seen[nj * w + ni] = true;
        let east = nj == j;
        open_door(&mut open, &mut rng, i.min(ni), j.min(nj), east);
        stack.push((ni, nj));
    }
    for _ in 0..(w * h * 15 / 100) {
        let (i, j) = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
        if rng.below(2) == 0 && i + 1 < w {
            open_door(&mut open, &mut rng, i, j, true);
        } else if j + 1 < h {
            open_door(&mut open, &mut rng, i, j, false);
        }
    }
    let mut vertices = Vec::with_capacity((fx + 1) * (fy + 1));
    for j in 0..=fy {
        for i in 0..=fx {
            let x = i as f64 + (rng.unit() - 0.5) * 0.4;
            let y = j as f64 + (rng.unit() - 0.5) * 0.4;
            let z = 0.5 * (x / 7.0).sin() * (y / 5.0).cos();
            vertices.push(Vec3::new(x as f32, y as f32, z as f32));
        }
    }
    let vid = |i: usize, j: usize| (j * (fx + 1) + i) as u32;
    let mut triangles = Vec::new();
    for j in 0..fy {
        for i in 0..fx {
            if open[j * fx + i] {
                let (a, b, c, d) = (vid(i, j), vid(i + 1, j), vid(i + 1, j + 1), vid(i, j + 1));
                if rng.below(2) == 0 {
                    triangles.extend([[a, b, c], [a, c, d]]);
                } else {
                    triangles.extend([[a, b, d], [b, c, d]]);
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

/// The largest corpus walkmesh by walkable triangles: every WOK (walkable materials) and
/// every NWN2 TRX (walkable flag) of the corpus is read and the largest kept.
/// `dir` is the corpus folder (`../shared/corpus` beside the repository).
pub fn largest_corpus_surface(dir: &std::path::Path) -> (String, Surface) {
    let sources = std::fs::read_to_string(dir.join("SOURCES.tsv")).expect("corpus SOURCES.tsv");
    let mut best: Option<(String, Surface)> = None;
    for line in sources.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, format) = (cols[0], cols[6]);
        let surface = match format {
            "wok" => std::fs::read(dir.join(file))
                .ok()
                .and_then(|d| areakit_formats::bwm::read(&d).ok())
                .map(|b| {
                    let tris: Vec<[u32; 3]> = b
                        .faces
                        .iter()
                        .filter(|f| f.material.is_walkable())
                        .map(|f| f.vertices)
                        .collect();
                    Surface {
                        links: Vec::new(),
                        regions: vec![0; tris.len()],
                        triangles: tris,
                        vertices: b.vertices.iter().map(|v| Vec3::from_array(*v)).collect(),
                    }
                }),
            "trx" => std::fs::read(dir.join(file))
                .ok()
                .and_then(|d| areakit_formats::trx::read(&d).ok())
                .and_then(|t| {
                    let w = t.walkmesh()?;
                    let nv = w.vertices.len();
                    let tris: Vec<[u32; 3]> = w
                        .triangles
                        .iter()
                        .filter(|t| {
                            t.is_walkable() && t.vertices.iter().all(|&v| (v as usize) < nv)
                        })
                        .map(|t| t.vertices)
                        .collect();
                    Some(Surface {
                        links: Vec::new(),
                        regions: vec![0; tris.len()],
                        triangles: tris,
                        vertices: w.vertices.iter().map(|v| Vec3::from_array(*v)).collect(),
                    })
                }),
            _ => None,
        };
        if let Some(s) = surface
            && best
                .as_ref()
                .is_none_or(|b| s.triangles.len() > b.1.triangles.len())
        {
            best = Some((file.to_string(), s));
        }
    }
    best.expect("a corpus walkmesh")
}

pub fn random_pairs(mesh: &NavMesh, s: &Surface, seed: u64, count: usize) -> Vec<(Vec3, Vec3)> {
    let mut rng = Rng(seed);
    let n = s.triangles.len() as u64;
    let point = |rng: &mut Rng, t: u32| {
        let [a, b, c] = s.triangles[t as usize].map(|i| s.vertices[i as usize].as_dvec3());
        let (mut u, mut v) = (rng.unit(), rng.unit());
        if u + v > 1.0 {
            u = 1.0 - u;
            v = 1.0 - v;
        }
        (a + (b - a) * u + (c - a) * v).as_vec3()
    };
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let ta = rng.below(n) as u32;
        let tb = rng.below(n) as u32;
        if mesh.is_flat(ta) || mesh.is_flat(tb) || !mesh.reachable(ta, tb) {
            continue;
        }
        let (a, b) = (point(&mut rng, ta), point(&mut rng, tb));
        // Keep pairs whose points locate on their own triangles' island (a point on an
        // overlapping floor may locate elsewhere).
        let (Some(la), Some(lb)) = (
            mesh.locate(a.x, a.y, Some(a.z)),
            mesh.locate(b.x, b.y, Some(b.z)),
        ) else {
            continue;
        };
        if mesh.reachable(la.triangle, lb.triangle) {
            out.push((a, b));
        }
    }
    out
}

/// Times two sides query by query in turn over `n` queries (which side goes first alternates),
/// so that a machine's changing load weighs on both alike; returns each side's summed time.
/// `side(which, i)` runs query `i` on side `which` (0 or 1).
pub fn interleave(n: usize, mut side: impl FnMut(usize, usize)) -> [std::time::Duration; 2] {
    let mut t = [std::time::Duration::ZERO; 2];
    for i in 0..n {
        for turn in 0..2 {
            let which = (i + turn) % 2;
            let start = std::time::Instant::now();
            side(which, i);
            t[which] += start.elapsed();
        }
    }
    t
}
