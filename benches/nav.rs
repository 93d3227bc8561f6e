//! Navigation benchmarks: path queries on the largest corpus walkmesh (by walkable triangles,
//! WOK or NWN2 TRX), on a generated maze of about 120 000 triangles and on one of about a
//! million; random reachable pairs with a fixed seed: 10 000 on the corpus mesh, 2 000 on the
//! 120 000-triangle maze, 100 on the million-triangle one (see [`cases`]); each against the
//! `polyanya` crate (optimal) on the same triangles, in the same run; the default searches run
//! on the polygon layer, `optimal_triangles`/`fast_triangles` on the triangles (the search as
//! it was before it), `optimal_landmarks` with 8 landmarks, `optimal_corner_graph` over the
//! corner graph, and `optimal_corner_graph_landmarks`/`fast_corner_graph_landmarks` with both.
//! Also the `NavMesh` build of the million-triangle maze and its memory, and the corner graph's
//! build there (`build_corner_graph_1m`).
//!
//! The Recast/Detour baseline of the fast mode (`findPath` + `findStraightPath`) calls C++
//! through FFI and lives in its own crate outside the workspace, `benches/detour/`, run by hand
//! (see `docs/navigation.md`, Benchmarks). Both include the meshes and pairs from
//! `benches/nav_support/shared.rs`.
//!
//! With `NAV_BENCH_REPORT` set, setup prints the agreement of the lengths (ours against
//! polyanya's), the fast/optimal ratios, the mean search effort and the bytes per triangle.
//! With `NAV_BENCH_INTERLEAVED` set, setup also times our optimal search and the polyanya
//! crate query by query in turn on every pair (see [`interleaved`]): the steadier ratio on a
//! shared machine, with the lengths compared on every pair.

use areakit_geometry::Vec3;
use areakit_geometry::nav::{
    CornerGraph, Location, Mode, NavSet, Path, Request, Search, Searcher, Surface,
};
use divan::Bencher;
use divan::counter::ItemsCount;
use std::sync::OnceLock;

#[path = "nav_support/shared.rs"]
mod shared;
use shared::{
    PAIRS, PAIRS_1M, PAIRS_120K, interleave, largest_corpus_surface, maze, maze_pairs, random_pairs,
};

fn main() {
    divan::main();
}

struct Case {
    name: String,
    surface: Surface,
    /// The mesh and its polygons.
    set: NavSet,
    pairs: Vec<(Vec3, Vec3)>,
    located: Vec<(Location, Location)>,
}

fn case(name: &str, surface: Surface, seed: u64, count: usize) -> Case {
    let set = NavSet::build(&surface).expect("valid surface");
    let mesh = &set.mesh;
    let pairs = random_pairs(mesh, &surface, seed, count);
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
        set,
        pairs,
        located,
    }
}

fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let (file, s) = largest_corpus_surface(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        );
        let corpus = case("corpus", s, 1, PAIRS);
        eprintln!(
            "corpus: {file}: {} walkable triangles, {} islands",
            corpus.set.mesh.triangle_count(),
            corpus.set.mesh.islands().len()
        );
        let m120 = case("maze_120k", maze(74, 74, 3, 2), 2, maze_pairs(PAIRS_120K));
        // Random pairs on the mazes are far apart (a query on the million-triangle maze costs
        // ~55 ms here and over a second with the polyanya crate): 2 000 and 100 pairs keep
        // the run within minutes on two cores.
        let m1m = case("maze_1m", maze(213, 213, 3, 3), 3, maze_pairs(PAIRS_1M));
        vec![corpus, m120, m1m]
    })
}

fn find(name: &str) -> &'static Case {
    static REPORTED: OnceLock<()> = OnceLock::new();
    REPORTED.get_or_init(|| {
        for c in cases() {
            if std::env::var_os("NAV_BENCH_REPORT").is_some() {
                report(c);
            }
            if std::env::var_os("NAV_BENCH_INTERLEAVED").is_some() {
                interleaved(c);
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
            .path_between(&c.set.data(), *la, *lb, &Request::default(), &mut path)
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
            .path_between(
                &c.set.data(),
                *la,
                *lb,
                &Request::new(Mode::Fast, Search::Polygons),
                &mut path,
            )
            .expect("fast path");
        if ours > 0.0 {
            ratios.push(path.length_plan / ours);
        }
    }
    ratios.sort_by(f32::total_cmp);
    eprintln!(
        "{}: {} triangles, {} bytes/triangle; {} pairs: polyanya agrees within {worst:.2e} on {} (differs on {differ}, finds none on {poly_none}); fast/optimal median {:.4} worst {:.3}; mean expanded {:.0}",
        c.name,
        c.set.mesh.triangle_count(),
        c.set.memory_bytes() / c.set.mesh.triangle_count().max(1),
        ratios.len(),
        ratios.len() - differ - poly_none,
        ratios[ratios.len() / 2],
        ratios[ratios.len() - 1],
        expanded as f64 / ratios.len().max(1) as f64,
    );
}

/// Our optimal search and the polyanya crate, query by query in turn on every pair (both from
/// plan points, location included); prints both rates, their ratio and how the lengths agree.
fn interleaved(c: &Case) {
    let poly = polyanya_of(c);
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let opts = Request::default();
    let mut lengths = vec![[f32::NAN; 2]; c.pairs.len()];
    let t = interleave(c.pairs.len(), |side, i| {
        let (a, b) = c.pairs[i];
        lengths[i][side] = if side == 0 {
            searcher
                .find_path_into(&c.set.data(), a, b, &opts, &mut path)
                .expect("path");
            path.length_plan
        } else {
            poly.path(
                glam_polyanya::Vec2::new(a.x, a.y),
                glam_polyanya::Vec2::new(b.x, b.y),
            )
            .map_or(f32::NAN, |p| p.length)
        };
    });
    let (mut worst, mut differ, mut none) = (0.0f64, 0usize, 0usize);
    for [ours, theirs] in &lengths {
        if theirs.is_nan() {
            none += 1;
            continue;
        }
        let rel = f64::from((theirs - ours).abs()) / f64::from(ours.max(1e-6));
        if rel > 1e-4 {
            differ += 1;
        } else {
            worst = worst.max(rel);
        }
    }
    let n = c.pairs.len();
    let qps = |d: std::time::Duration| n as f64 / d.as_secs_f64();
    eprintln!(
        "{} interleaved: {n} pairs, optimal (ours) {:.2}/s, polyanya crate {:.2}/s, ratio {:.2}; lengths agree within {worst:.2e} on {} (differ on {differ}, polyanya finds none on {none})",
        c.name,
        qps(t[0]),
        qps(t[1]),
        t[1].as_secs_f64() / t[0].as_secs_f64(),
        n - differ - none,
    );
}

const CASES: [&str; 3] = ["corpus", "maze_120k", "maze_1m"];

/// Our optimal search (Polyanya on the polygon layer, the default), from plan points with
/// height hints (location included).
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn optimal(bencher: Bencher, name: &str) {
    layer_bench(bencher, name, Mode::Optimal, Search::Polygons, Pre::None);
}

/// The optimal search on the triangles themselves (`Search::Triangles`: the search as it was
/// before the polygon layer), same pairs.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn optimal_triangles(bencher: Bencher, name: &str) {
    layer_bench(bencher, name, Mode::Optimal, Search::Triangles, Pre::None);
}

/// The fast search on the triangles themselves, same pairs.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn fast_triangles(bencher: Bencher, name: &str) {
    layer_bench(bencher, name, Mode::Fast, Search::Triangles, Pre::None);
}

/// The optimal search on the polygons bounded by 8 landmarks (measured once in setup, the
/// time printed), same pairs.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn optimal_landmarks(bencher: Bencher, name: &str) {
    layer_bench(
        bencher,
        name,
        Mode::Optimal,
        Search::Polygons,
        Pre::Landmarks,
    );
}

/// The optimal search over the corner graph (built once in setup, the time printed), same
/// pairs.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn optimal_corner_graph(bencher: Bencher, name: &str) {
    layer_bench(bencher, name, Mode::Optimal, Search::Polygons, Pre::Graph);
}

/// The optimal search over the corner graph bounded by 8 landmarks, same pairs.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn optimal_corner_graph_landmarks(bencher: Bencher, name: &str) {
    layer_bench(bencher, name, Mode::Optimal, Search::Polygons, Pre::Both);
}

/// The fast search over the corner graph bounded by 8 landmarks (within 2 % of the shortest),
/// same pairs.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn fast_corner_graph_landmarks(bencher: Bencher, name: &str) {
    layer_bench(bencher, name, Mode::Fast, Search::Polygons, Pre::Both);
}

/// The optional precomputation a bench's mesh carries.
#[derive(Clone, Copy, PartialEq)]
enum Pre {
    None,
    Landmarks,
    Graph,
    Both,
}

/// The case's mesh with `pre` (built once per kind, the time and memory printed).
fn prepared(c: &'static Case, pre: Pre) -> &'static NavSet {
    type Meshes = Vec<(String, [NavSet; 3])>;
    static MESHES: OnceLock<Meshes> = OnceLock::new();
    let all = MESHES.get_or_init(|| {
        cases()
            .iter()
            .map(|c| {
                let per_tri =
                    |m: &NavSet| m.memory_bytes() as f64 / m.mesh.triangle_count() as f64;
                let mut lm = c.set.clone();
                let t = std::time::Instant::now();
                lm.measure_landmarks(8);
                eprintln!(
                    "{}: 8 landmarks measured in {:.1} ms ({:.1} bytes per triangle with them)",
                    c.name,
                    t.elapsed().as_secs_f64() * 1e3,
                    per_tri(&lm)
                );
                let mut graph = c.set.clone();
                let t = std::time::Instant::now();
                graph.build_corner_graph(true);
                eprintln!(
                    "{}: corner graph built in {:.1} ms, {} edges ({:.1} bytes per triangle with it)",
                    c.name,
                    t.elapsed().as_secs_f64() * 1e3,
                    graph.graph.as_ref().map_or(0, |g| g.edge_count()),
                    per_tri(&graph)
                );
                let mut both = lm.clone();
                both.build_corner_graph(true);
                eprintln!(
                    "{}: {:.1} bytes per triangle with landmarks and the corner graph",
                    c.name,
                    per_tri(&both)
                );
                (c.name.clone(), [lm, graph, both])
            })
            .collect()
    });
    let m = &all.iter().find(|(n, _)| *n == c.name).expect("case").1;
    match pre {
        Pre::None => &c.set,
        Pre::Landmarks => &m[0],
        Pre::Graph => &m[1],
        Pre::Both => &m[2],
    }
}

fn layer_bench(bencher: Bencher, name: &str, mode: Mode, search: Search, pre: Pre) {
    let c = find(name);
    let set = if pre == Pre::None {
        &c.set
    } else {
        prepared(c, pre)
    };
    let data = set.data();
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let opts = Request {
        mode,
        search: if matches!(pre, Pre::Graph | Pre::Both) {
            Search::CornerGraph
        } else {
            search
        },
        landmarks: matches!(pre, Pre::Landmarks | Pre::Both),
        ..Request::default()
    };
    bencher
        .counter(ItemsCount::new(c.pairs.len()))
        .bench_local(|| {
            let mut total = 0.0f32;
            for (a, b) in &c.pairs {
                searcher
                    .find_path_into(&data, *a, *b, &opts, &mut path)
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

/// Our fast search (A* over the polygon layer + funnel, the default).
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn fast(bencher: Bencher, name: &str) {
    layer_bench(bencher, name, Mode::Fast, Search::Polygons, Pre::None);
}

/// `CornerGraph::build` on the million-triangle maze (on all cores).
#[divan::bench(sample_count = 3)]
fn build_corner_graph_1m(bencher: Bencher) {
    let c = find("maze_1m");
    bencher.bench_local(|| {
        CornerGraph::build(&c.set.mesh, &c.set.polygons).map_or(0, |g| g.edge_count())
    });
}

/// The same without the polygons' sight lists (`CornerGraph::build_with(.., false)`: queries
/// then sweep from their start and goal).
#[divan::bench(sample_count = 3)]
fn build_corner_graph_1m_without_sights(bencher: Bencher) {
    let c = find("maze_1m");
    bencher.bench_local(|| {
        CornerGraph::build_with(&c.set.mesh, &c.set.polygons, false).map_or(0, |g| g.edge_count())
    });
}

/// `NavSet::build` of the million-triangle maze: the mesh and its polygons (as `NavMesh::build`
/// made both before the polygons became data of their own).
#[divan::bench(sample_count = 5)]
fn build_1m(bencher: Bencher) {
    let c = find("maze_1m");
    let set = NavSet::build(&c.surface).expect("valid");
    let (m, p) = (&set.mesh, &set.polygons);
    let bytes = m.memory_bytes() + p.memory_bytes();
    eprintln!(
        "maze_1m navmesh and polygons: {} triangles, {} vertices, {bytes} bytes = {:.1} bytes/triangle ({:.1} the mesh)",
        m.triangle_count(),
        m.vertices().len(),
        bytes as f64 / m.triangle_count() as f64,
        m.memory_bytes() as f64 / m.triangle_count() as f64
    );
    bencher
        .counter(ItemsCount::new(c.surface.triangles.len()))
        .bench_local(|| NavSet::build(&c.surface).expect("valid"));
}
