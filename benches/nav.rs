//! Navigation benchmarks: path queries on the largest corpus walkmesh (by walkable triangles,
//! WOK or NWN2 TRX), on a generated maze of about 120 000 triangles and on one of about a
//! million; random reachable pairs with a fixed seed: 10 000 on the corpus mesh, 2 000 on the
//! 120 000-triangle maze, 100 on the million-triangle one (see [`cases`]); each against the `polyanya` crate
//! (optimal) and, with the `detour-bench` feature, Recast/Detour's `findPath` +
//! `findStraightPath` (fast) on the same triangles, in the same run. Also the `NavMesh` build of
//! the million-triangle maze and its memory.
//!
//! With `NAV_BENCH_REPORT` set, setup prints the agreement of the lengths (ours against
//! polyanya's), the fast/optimal ratios, the mean search effort and the bytes per triangle.

use areakit_geometry::Vec3;
use areakit_geometry::nav::{Location, Mode, NavMesh, Path, Searcher, Surface};
use divan::Bencher;
use divan::counter::ItemsCount;
use std::sync::OnceLock;

fn main() {
    divan::main();
}

const PAIRS: usize = 10_000;
const PAIRS_120K: usize = 2_000;
const PAIRS_1M: usize = 100;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A maze of `w` × `h` rooms of `r` × `r` unit cells, walls one cell thick, a door of
/// `max(1, r / 2)` cells between rooms joined by a depth-first spanning tree plus 15 % more
/// doors (loops); jittered corners, gently waving heights.
fn maze(w: usize, h: usize, r: usize, seed: u64) -> Surface {
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
        vertices,
        triangles,
        regions,
    }
}

/// The largest corpus walkmesh by walkable triangles: every WOK (walkable materials) and
/// every NWN2 TRX (walkable flag) of the corpus is read and the largest kept.
fn largest_corpus_surface() -> (String, Surface) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
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

struct Case {
    name: String,
    surface: Surface,
    mesh: NavMesh,
    pairs: Vec<(Vec3, Vec3)>,
    located: Vec<(Location, Location)>,
}

fn random_pairs(mesh: &NavMesh, s: &Surface, seed: u64, count: usize) -> Vec<(Vec3, Vec3)> {
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

fn case(name: &str, surface: Surface, seed: u64, count: usize) -> Case {
    let mesh = NavMesh::build(&surface).expect("valid surface");
    let pairs = random_pairs(&mesh, &surface, seed, count);
    let located = pairs
        .iter()
        .map(|(a, b)| {
            (
                mesh.locate(a.x, a.y, Some(a.z)).unwrap(),
                mesh.locate(b.x, b.y, Some(b.z)).unwrap(),
            )
        })
        .collect();
    Case {
        name: name.to_string(),
        surface,
        mesh,
        pairs,
        located,
    }
}

fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let (file, s) = largest_corpus_surface();
        let corpus = case("corpus", s, 1, PAIRS);
        eprintln!(
            "corpus: {file}: {} walkable triangles, {} islands",
            corpus.mesh.triangle_count(),
            corpus.mesh.islands().len()
        );
        let m120 = case("maze_120k", maze(74, 74, 3, 2), 2, PAIRS_120K);
        // Random pairs on the mazes are far apart (a query on the million-triangle maze costs
        // ~55 ms here and over a second with the polyanya crate): 2 000 and 100 pairs keep
        // the run within minutes on two cores.
        let m1m = case("maze_1m", maze(213, 213, 3, 3), 3, PAIRS_1M);
        vec![corpus, m120, m1m]
    })
}

fn find(name: &str) -> &'static Case {
    static REPORTED: OnceLock<()> = OnceLock::new();
    REPORTED.get_or_init(|| {
        if std::env::var_os("NAV_BENCH_REPORT").is_some() {
            for c in cases() {
                report(c);
            }
        }
    });
    cases().iter().find(|c| c.name == name).expect("case")
}

fn polyanya_of(c: &Case) -> &'static polyanya::Mesh {
    static MESHES: OnceLock<Vec<(String, polyanya::Mesh)>> = OnceLock::new();
    let all = MESHES.get_or_init(|| {
        cases()
            .iter()
            .map(|c| (c.name.clone(), polyanya_mesh(&c.surface)))
            .collect()
    });
    &all.iter().find(|m| m.0 == c.name).expect("mesh").1
}

/// A polyanya mesh of the surface's plan (triangles put counter-clockwise; flat ones left out).
/// Built through `polyanya::Mesh::new` with each vertex's triangles in counter-clockwise order
/// and `u32::MAX` at each gap (the crate's `Trimesh` input scans every triangle for every
/// vertex, which does not finish on a million triangles).
fn polyanya_mesh(s: &Surface) -> polyanya::Mesh {
    use glam_polyanya::Vec2;
    let mut used = vec![u32::MAX; s.vertices.len()];
    let mut coords = Vec::new();
    let mut tris: Vec<[u32; 3]> = Vec::new();
    for t in &s.triangles {
        let [a, b, c] = t.map(|i| s.vertices[i as usize].as_dvec3());
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
        if area == 0.0 {
            continue;
        }
        let t = if area < 0.0 { [t[0], t[2], t[1]] } else { *t };
        tris.push(t.map(|i| {
            if used[i as usize] == u32::MAX {
                used[i as usize] = coords.len() as u32;
                let v = s.vertices[i as usize];
                coords.push(Vec2::new(v.x, v.y));
            }
            used[i as usize]
        }));
    }
    let nv = coords.len();
    let mut start = vec![0usize; nv + 1];
    for t in &tris {
        for &v in t {
            start[v as usize + 1] += 1;
        }
    }
    for i in 0..nv {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut inc = vec![0u32; start[nv]];
    for (ti, t) in tris.iter().enumerate() {
        for &v in t {
            inc[fill[v as usize]] = ti as u32;
            fill[v as usize] += 1;
        }
    }
    let corner = |t: u32, v: u32, step: usize| {
        let tri = tris[t as usize];
        let k = tri.iter().position(|&x| x == v).unwrap_or(0);
        tri[(k + step) % 3]
    };
    let vertices: Vec<polyanya::Vertex> = (0..nv)
        .map(|v| {
            let mut ps = inc[start[v]..start[v + 1]].to_vec();
            let o = coords[v];
            let angle = |t: u32| {
                let d = coords[corner(t, v as u32, 2) as usize] - o;
                d.y.atan2(d.x)
            };
            ps.sort_by(|a, b| angle(*a).total_cmp(&angle(*b)));
            let mut out = Vec::with_capacity(ps.len() + 2);
            for i in 0..ps.len() {
                out.push(ps[i]);
                let next = ps[(i + 1) % ps.len()];
                if corner(ps[i], v as u32, 2) != corner(next, v as u32, 1) {
                    out.push(u32::MAX);
                }
            }
            polyanya::Vertex::new(o, out)
        })
        .collect();
    let polygons = tris
        .iter()
        .map(|t| polyanya::Polygon::new(t.to_vec(), false))
        .collect();
    let mut m = polyanya::Mesh::new(vertices, polygons).expect("polyanya mesh");
    m.bake();
    m
}

fn report(c: &Case) {
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let poly = polyanya_of(c);
    let (mut worst, mut differ, mut poly_none, mut expanded) = (0.0f64, 0usize, 0usize, 0usize);
    let mut ratios = Vec::with_capacity(c.located.len());
    for ((a, b), (la, lb)) in c.pairs.iter().zip(&c.located).take(1000) {
        searcher
            .path_between(&c.mesh, *la, *lb, Mode::Optimal, &mut path)
            .expect("optimal path");
        expanded += path.expanded;
        let ours = path.length_plan;
        match poly.path(
            glam_polyanya::Vec2::new(a.x, a.y),
            glam_polyanya::Vec2::new(b.x, b.y),
        ) {
            Some(p) => {
                let rel = f64::from((p.length - ours).abs()) / f64::from(ours.max(1e-6));
                if rel > 1e-4 {
                    differ += 1;
                } else {
                    worst = worst.max(rel);
                }
            }
            None => poly_none += 1,
        }
        searcher
            .path_between(&c.mesh, *la, *lb, Mode::Fast, &mut path)
            .expect("fast path");
        if ours > 0.0 {
            ratios.push(path.length_plan / ours);
        }
    }
    ratios.sort_by(f32::total_cmp);
    eprintln!(
        "{}: {} triangles, {} bytes/triangle; {} pairs: polyanya agrees within {worst:.2e} on {} (differs on {differ}, finds none on {poly_none}); fast/optimal median {:.4} worst {:.3}; mean expanded {:.0}",
        c.name,
        c.mesh.triangle_count(),
        c.mesh.memory_bytes() / c.mesh.triangle_count().max(1),
        ratios.len(),
        ratios.len() - differ - poly_none,
        ratios[ratios.len() / 2],
        ratios[ratios.len() - 1],
        expanded as f64 / ratios.len().max(1) as f64,
    );
}

const CASES: [&str; 3] = ["corpus", "maze_120k", "maze_1m"];

/// Our optimal search (Polyanya), 10 000 queries from plan points with height hints
/// (location included).
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn optimal(bencher: Bencher, name: &str) {
    let c = find(name);
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let opts = areakit_geometry::nav::SearchOptions::default();
    bencher
        .counter(ItemsCount::new(c.pairs.len()))
        .bench_local(|| {
            let mut total = 0.0f32;
            for (a, b) in &c.pairs {
                searcher
                    .find_path_into(&c.mesh, *a, *b, &opts, &mut path)
                    .expect("path");
                total += path.length_plan;
            }
            total
        });
}

/// The `polyanya` crate on the same triangles and pairs.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn polyanya_crate(bencher: Bencher, name: &str) {
    let c = find(name);
    let m = polyanya_of(c);
    bencher
        .counter(ItemsCount::new(c.pairs.len()))
        .bench_local(|| {
            let mut total = 0.0f32;
            for (a, b) in &c.pairs {
                if let Some(p) = m.path(
                    glam_polyanya::Vec2::new(a.x, a.y),
                    glam_polyanya::Vec2::new(b.x, b.y),
                ) {
                    total += p.length;
                }
            }
            total
        });
}

/// Our fast search (A* over triangles + funnel).
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn fast(bencher: Bencher, name: &str) {
    let c = find(name);
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let opts = areakit_geometry::nav::SearchOptions {
        mode: Mode::Fast,
        ..Default::default()
    };
    bencher
        .counter(ItemsCount::new(c.pairs.len()))
        .bench_local(|| {
            let mut total = 0.0f32;
            for (a, b) in &c.pairs {
                searcher
                    .find_path_into(&c.mesh, *a, *b, &opts, &mut path)
                    .expect("path");
                total += path.length_plan;
            }
            total
        });
}

/// `NavMesh::build` of the million-triangle maze.
#[divan::bench(sample_count = 5)]
fn build_1m(bencher: Bencher) {
    let c = find("maze_1m");
    let m = NavMesh::build(&c.surface).expect("valid");
    eprintln!(
        "maze_1m navmesh: {} triangles, {} vertices, {} bytes = {:.1} bytes/triangle",
        m.triangle_count(),
        m.vertices().len(),
        m.memory_bytes(),
        m.memory_bytes() as f64 / m.triangle_count() as f64
    );
    bencher
        .counter(ItemsCount::new(c.surface.triangles.len()))
        .bench_local(|| NavMesh::build(&c.surface).expect("valid"));
}
