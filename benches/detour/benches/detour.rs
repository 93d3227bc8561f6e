//! Two Recast/Detour baselines for areakit's navigation, in the same run, on the same random
//! reachable pairs: the largest corpus walkmesh and the generated mazes of `benches/nav.rs`
//! (its generator, included from `benches/nav_support/shared.rs`).
//!
//! **Detour on our triangles** (benches `ours_fast`, `detour`, `ours_fast_complete`,
//! `detour_complete`): a Detour mesh filled by hand, one polygon per triangle. The mazes are
//! cut on a 64 m tile grid first (Detour's tiles index their vertices with 16 bits); both sides
//! then search the cut triangles.
//! - `ours_fast`: `Searcher::find_path_into` from plan points with height hints, `Mode::Fast`
//!   (location included), as `benches/nav.rs`'s `fast`;
//! - `detour`: `findNearestPoly` twice + `findPath` + `findStraightPath` (location included);
//! - `ours_fast_complete`: `Searcher::path_between` from points located beforehand, on the
//!   pairs Detour completes;
//! - `detour_complete`: `findPath` + `findStraightPath` from polygons located beforehand, on
//!   the same pairs.
//!
//! Setup prints the pair counts, how many pairs Detour completes (its node pool holds at most
//! 65 535 polygons) and the length ratios (Detour / ours); with `DETOUR_INTERLEAVED` set, also
//! both sides timed query by query in turn (see [`interleaved`]).
//!
//! **Detour on its own Recast navmesh** (benches `recast_*`): Recast voxelises the same
//! walkable triangles (uncut: the very meshes and pairs of `benches/nav.rs`) and builds a tiled
//! navmesh of merged polygons (`areakit_detour_bench::recast`). Setup prints the build, the
//! ground the navmesh loses and adds against our triangles, the pairs Detour cannot join and
//! Detour's lengths against our optimal ones; with `RECAST_INTERLEAVED` set it times Detour and
//! ours (optimal and fast, on the polygon and the triangle layer) query by query in turn (see
//! [`recast_interleaved`]) and prints the table of `benches/detour/RESULTS.md`.
//! - `recast_detour`: `findNearestPoly` ×2 + `findPath` + `findStraightPath` from the points;
//! - `recast_ours_{optimal,fast}_{polygons,triangles}`: `Searcher::find_path_into` from the
//!   same points with height hints.
//!
//! Pairs: 10 000 on the corpus mesh (`RECAST_CORPUS_PAIRS`), 2 000 and 100 on the mazes
//! (`NAV_BENCH_MAZE_PAIRS`, as `benches/nav.rs`). Recast parameters: `RecastConfig::from_env`.
//! Run by hand: `CARGO_TARGET_DIR=... cargo bench --manifest-path benches/detour/Cargo.toml`.

use areakit_detour_bench::recast::{
    RecastConfig, RecastStats, detour_triangles, plan_area_detour, sample_by_area,
};
use areakit_detour_bench::{DetourMesh, Located, Outcome, Query, cut_to_tiles};
use areakit_geometry::Vec3;
use areakit_geometry::nav::{Location, Mode, NavSet, Path, Request, Search, Searcher, Surface};
use divan::Bencher;
use divan::counter::ItemsCount;
use std::sync::OnceLock;

#[path = "../../nav_support/shared.rs"]
mod shared;
use shared::{
    PAIRS, PAIRS_1M, PAIRS_120K, interleave, largest_corpus_surface, maze, maze_pairs, random_pairs,
};

fn main() {
    divan::main();
}

/// Tile size of the mazes (cells are 1 m; 64 m tiles hold at most 65² vertices).
const MAZE_TILE: f32 = 64.0;

struct Case {
    name: String,
    /// Ours: the mesh and its polygons.
    mesh: NavSet,
    detour: DetourMesh,
    pairs: Vec<(Vec3, Vec3)>,
    located: Vec<(Location, Location)>,
    detour_located: Vec<(Located, Located)>,
    /// The pairs Detour completes (its node pool holds at most 65 535 polygons).
    complete: Vec<usize>,
}

fn case(name: &str, raw: Surface, origin: [f32; 2], tile: f32, seed: u64, count: usize) -> Case {
    let raw_triangles = raw.triangles.len();
    let surface = cut_to_tiles(&raw, origin, tile);
    let set = NavSet::build(&surface).expect("valid surface");
    let mesh = &set.mesh;
    for t in 0..surface.triangles.len() as u32 {
        let (mut a, mut b) = (
            mesh.triangle(t).map(|v| mesh.surface_vertex(v)),
            surface.triangles[t as usize],
        );
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(
            a, b,
            "the navigation mesh keeps the surface's triangle order"
        );
    }
    let detour = DetourMesh::build(&surface, origin, tile, |t| mesh.is_flat(t));
    let pairs = random_pairs(mesh, &surface, seed, count);
    let located: Vec<(Location, Location)> = pairs
        .iter()
        .map(|(a, b)| {
            (
                mesh.locate(a.x, a.y, Some(a.z)).unwrap(),
                mesh.locate(b.x, b.y, Some(b.z)).unwrap(),
            )
        })
        .collect();
    let q = Query::new(&detour);
    let detour_located: Vec<(Located, Located)> = pairs
        .iter()
        .map(|(a, b)| {
            (
                q.locate(*a).expect("Detour locates the start"),
                q.locate(*b).expect("Detour locates the goal"),
            )
        })
        .collect();
    drop(q);
    eprintln!(
        "{name}: {raw_triangles} triangles, {} after the tile cut ({} flat, left out of Detour); Detour: {} polygons in {} tiles (largest {} vertices, {} polygons); {} pairs",
        surface.triangles.len(),
        (0..surface.triangles.len() as u32)
            .filter(|&t| mesh.is_flat(t))
            .count(),
        detour.polygons,
        detour.tiles,
        detour.max_tile_vertices,
        detour.max_tile_polygons,
        pairs.len()
    );
    Case {
        name: name.to_string(),
        mesh: set,
        detour,
        pairs,
        located,
        detour_located,
        complete: Vec::new(),
    }
}

fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
        let (file, s) = largest_corpus_surface(&dir);
        eprintln!("corpus: {file}");
        // One tile over the whole corpus mesh: no cut, the same triangles as benches/nav.rs.
        let (lo, hi) = s.vertices.iter().fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(a, b), v| (a.min(*v), b.max(*v)),
        );
        let origin = [lo.x.floor() - 1.0, lo.y.floor() - 1.0];
        let tile = ((hi.x - origin[0]).max(hi.y - origin[1]) + 1.0).ceil();
        let corpus = case("corpus", s, origin, tile, 1, PAIRS);
        // Maze vertices sit within 0.2 of whole coordinates: the cut lines (half-way) stay 0.3
        // away from them, so the cut makes no slivers.
        let o = [-0.5, -0.5];
        let m120 = case(
            "maze_120k",
            maze(74, 74, 3, 2),
            o,
            MAZE_TILE,
            2,
            maze_pairs(PAIRS_120K),
        );
        let m1m = case(
            "maze_1m",
            maze(213, 213, 3, 3),
            o,
            MAZE_TILE,
            3,
            maze_pairs(PAIRS_1M),
        );
        let mut all = vec![corpus, m120, m1m];
        for c in &mut all {
            c.complete = report(c);
            if std::env::var_os("DETOUR_INTERLEAVED").is_some() {
                interleaved(c);
            }
        }
        all
    })
}

fn find(name: &str) -> &'static Case {
    cases().iter().find(|c| c.name == name).expect("case")
}

/// Agreement: same located triangles, reachability, length ratios Detour / ours (fast) and
/// Detour / ours (optimal) on the first 1 000 pairs. Returns the pairs Detour completes.
fn report(c: &Case) -> Vec<usize> {
    let mut q = Query::new(&c.detour);
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let (mut complete, mut out_of_nodes, mut same_tri) = (0usize, 0usize, 0usize);
    let mut ratio_fast = Vec::new();
    let mut ratio_opt = Vec::new();
    let mut completed = Vec::new();
    for (i, ((la, lb), (da, db))) in c.located.iter().zip(&c.detour_located).enumerate() {
        same_tri += usize::from(q.triangle_of(da) == Some(la.triangle))
            + usize::from(q.triangle_of(db) == Some(lb.triangle));
        let o = q.path(da, db);
        out_of_nodes += usize::from(o.out_of_nodes);
        if !o.complete {
            continue;
        }
        complete += 1;
        completed.push(i);
        searcher
            .path_between(
                &c.mesh.data(),
                *la,
                *lb,
                &Request::new(Mode::Fast, Search::Polygons),
                &mut path,
            )
            .expect("fast path");
        let ours = path.length_plan;
        if ours > 1e-3 {
            ratio_fast.push(o.length_plan / ours);
            if ratio_opt.len() < 1000 {
                searcher
                    .path_between(
                        &c.mesh.data(),
                        *la,
                        *lb,
                        &Request::new(Mode::Optimal, Search::Polygons),
                        &mut path,
                    )
                    .expect("optimal path");
                ratio_opt.push(o.length_plan / path.length_plan);
            }
        }
    }
    let stats = |v: &mut Vec<f32>| {
        v.sort_by(f32::total_cmp);
        if v.is_empty() {
            return "-".to_string();
        }
        format!(
            "min {:.4} median {:.4} max {:.4} ({} pairs)",
            v[0],
            v[v.len() / 2],
            v[v.len() - 1],
            v.len()
        )
    };
    eprintln!(
        "{}: {} pairs; Detour completes {complete} ({out_of_nodes} out of its 65 535 nodes); same start/goal triangle {same_tri} of {}; Detour/ours(fast) {}; Detour/ours(optimal) {}",
        c.name,
        c.pairs.len(),
        2 * c.pairs.len(),
        stats(&mut ratio_fast),
        stats(&mut ratio_opt),
    );
    completed
}

/// With `DETOUR_INTERLEAVED` set: ours and Detour query by query in turn (which one goes
/// first alternates), so that the machine's changing load weighs on both alike; prints the
/// summed times as queries/s and their ratio, from points on all pairs and from located
/// points on the pairs Detour completes.
fn interleaved(c: &Case) {
    use std::time::Duration;
    let mut q = Query::new(&c.detour);
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let opts = Request {
        mode: Mode::Fast,
        ..Default::default()
    };
    let mut sink = 0.0f32;
    let from_points = interleave(c.pairs.len(), |side, i| {
        let (a, b) = c.pairs[i];
        if side == 0 {
            searcher
                .find_path_into(&c.mesh.data(), a, b, &opts, &mut path)
                .expect("path");
            sink += path.length_plan;
        } else if let (Some(la), Some(lb)) = (q.locate(a), q.locate(b)) {
            sink += q.path(&la, &lb).length_plan;
        }
    });
    let located = interleave(c.complete.len(), |side, k| {
        let i = c.complete[k];
        let ((la, lb), (da, db)) = (c.located[i], c.detour_located[i]);
        if side == 0 {
            searcher
                .path_between(
                    &c.mesh.data(),
                    la,
                    lb,
                    &Request::new(Mode::Fast, Search::Polygons),
                    &mut path,
                )
                .expect("path");
            sink += path.length_plan;
        } else {
            sink += q.path(&da, &db).length_plan;
        }
    });
    let t = [from_points[0], from_points[1], located[0], located[1]];
    std::hint::black_box(sink);
    let qps = |n: usize, d: Duration| n as f64 / d.as_secs_f64();
    let (n, m) = (c.pairs.len(), c.complete.len());
    eprintln!(
        "{} interleaved: from points ({n} pairs) ours {:.1}/s, Detour {:.1}/s, ratio {:.2}; completed pairs ({m}) ours {:.1}/s, Detour {:.1}/s, ratio {:.2}",
        c.name,
        qps(n, t[0]),
        qps(n, t[1]),
        t[1].as_secs_f64() / t[0].as_secs_f64(),
        qps(m, t[2]),
        qps(m, t[3]),
        t[3].as_secs_f64() / t[2].as_secs_f64(),
    );
}

const CASES: [&str; 3] = ["corpus", "maze_120k", "maze_1m"];

/// Ours, fast mode, from points (location included), as `benches/nav.rs`'s `fast`.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn ours_fast(bencher: Bencher, name: &str) {
    let c = find(name);
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let opts = Request {
        mode: Mode::Fast,
        ..Default::default()
    };
    bencher
        .counter(ItemsCount::new(c.pairs.len()))
        .bench_local(|| {
            let mut total = 0.0f32;
            for (a, b) in &c.pairs {
                searcher
                    .find_path_into(&c.mesh.data(), *a, *b, &opts, &mut path)
                    .expect("path");
                total += path.length_plan;
            }
            total
        });
}

/// Detour from points: `findNearestPoly` ×2 + `findPath` + `findStraightPath`.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn detour(bencher: Bencher, name: &str) {
    let c = find(name);
    let mut q = Query::new(&c.detour);
    bencher
        .counter(ItemsCount::new(c.pairs.len()))
        .bench_local(|| {
            let mut total = 0.0f32;
            for (a, b) in &c.pairs {
                let (Some(la), Some(lb)) = (q.locate(*a), q.locate(*b)) else {
                    continue;
                };
                total += q.path(&la, &lb).length_plan;
            }
            total
        });
}

/// Ours, fast mode, from located points, on the pairs Detour completes.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn ours_fast_complete(bencher: Bencher, name: &str) {
    let c = find(name);
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    bencher
        .counter(ItemsCount::new(c.complete.len()))
        .bench_local(|| {
            let mut total = 0.0f32;
            for (a, b) in c.complete.iter().map(|&i| &c.located[i]) {
                searcher
                    .path_between(
                        &c.mesh.data(),
                        *a,
                        *b,
                        &Request::new(Mode::Fast, Search::Polygons),
                        &mut path,
                    )
                    .expect("path");
                total += path.length_plan;
            }
            total
        });
}

/// Detour `findPath` + `findStraightPath` from located polygons, on the pairs it completes.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn detour_complete(bencher: Bencher, name: &str) {
    let c = find(name);
    let mut q = Query::new(&c.detour);
    bencher
        .counter(ItemsCount::new(c.complete.len()))
        .bench_local(|| {
            let mut total = 0.0f32;
            for (a, b) in c.complete.iter().map(|&i| &c.detour_located[i]) {
                total += q.path(a, b).length_plan;
            }
            total
        });
}

// ---------------------------------------------------------------------------------------------
// Detour on its own Recast navmesh.

/// Plan half extent of Detour's `findNearestPoly` on the Recast navmesh (m): the navmesh's
/// border strays from ours by up to a cell plus the simplification error, so a point of our
/// ground near a wall may lie just outside it (height half extent: 1 m).
const RECAST_LOCATE_PLAN: f32 = 0.5;

/// Height differences (m) under which a point counts as on the other side's ground.
const COVERAGE_TOLERANCES: [f32; 3] = [0.1, 0.25, 0.5];

struct RecastCase {
    name: String,
    triangles: usize,
    /// Ours: the mesh and its polygons.
    mesh: NavSet,
    /// The same with 8 landmarks measured (`NavSet::measure_landmarks`).
    mesh_lm: NavSet,
    /// The same with the corner graph (`NavSet::build_corner_graph`).
    mesh_cg: NavSet,
    /// The same with 8 landmarks and the corner graph.
    mesh_cg_lm: NavSet,
    detour: DetourMesh,
    stats: RecastStats,
    pairs: Vec<(Vec3, Vec3)>,
}

fn recast_case(name: &str, surface: Surface, seed: u64, count: usize) -> RecastCase {
    let t0 = std::time::Instant::now();
    let mesh = NavSet::build(&surface).expect("valid surface");
    let ours_build = t0.elapsed();
    let pairs = random_pairs(&mesh.mesh, &surface, seed, count);
    let cfg = RecastConfig::from_env();
    let (detour, stats) = DetourMesh::recast(&surface, &cfg, |t| mesh.mesh.is_flat(t));
    eprintln!(
        "{name} (Recast): {} triangles; ours built in {:.3} s; Recast built in {:.3} s: {} polygons, {} vertices, {} detail triangles in {} tiles of {} ({} failed; largest {} polygons, {} vertices); {} pairs",
        surface.triangles.len(),
        ours_build.as_secs_f64(),
        stats.build.as_secs_f64(),
        stats.polygons,
        stats.vertices,
        stats.detail_triangles,
        stats.tiles,
        stats.grid_tiles,
        stats.failed_tiles,
        detour.max_tile_polygons,
        detour.max_tile_vertices,
        pairs.len(),
    );
    assert_eq!(stats.failed_tiles, 0, "Recast refused tiles");
    let mut mesh_lm = mesh.clone();
    let t1 = std::time::Instant::now();
    mesh_lm.measure_landmarks(8);
    eprintln!(
        "{name}: 8 landmarks measured in {:.3} s",
        t1.elapsed().as_secs_f64()
    );
    let mut mesh_cg = mesh.clone();
    let t2 = std::time::Instant::now();
    mesh_cg.build_corner_graph(true);
    let edges = mesh_cg.graph.as_ref().map_or(0, |g| g.edge_count());
    eprintln!(
        "{name}: corner graph built in {:.3} s: {edges} edges, {:.1} bytes per triangle (navigation data in all: {:.1} bytes per triangle, with 8 landmarks {:.1})",
        t2.elapsed().as_secs_f64(),
        mesh_cg.graph.as_ref().map_or(0, |g| g.memory_bytes()) as f64
            / surface.triangles.len() as f64,
        mesh_cg.memory_bytes() as f64 / surface.triangles.len() as f64,
        (mesh_cg.memory_bytes() + mesh_lm.landmarks.as_ref().map_or(0, |l| l.memory_bytes()))
            as f64
            / surface.triangles.len() as f64,
    );
    let mut mesh_cg_lm = mesh_lm.clone();
    mesh_cg_lm.build_corner_graph(true);
    let c = RecastCase {
        name: name.to_string(),
        triangles: surface.triangles.len(),
        mesh,
        mesh_lm,
        mesh_cg,
        mesh_cg_lm,
        detour,
        stats,
        pairs,
    };
    coverage(&c, &surface);
    c
}

fn recast_cases() -> &'static [RecastCase] {
    static CASES: OnceLock<Vec<RecastCase>> = OnceLock::new();
    CASES.get_or_init(|| {
        eprintln!("Recast: {}", RecastConfig::from_env().describe());
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
        let (file, s) = largest_corpus_surface(&dir);
        eprintln!("corpus: {file}");
        let corpus_pairs = std::env::var("RECAST_CORPUS_PAIRS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(PAIRS);
        // `RECAST_ONLY=corpus,maze_120k` builds only those (the others' benches do nothing).
        let only = std::env::var("RECAST_ONLY").ok();
        let wanted = |name: &str| only.as_deref().is_none_or(|o| o.split(',').any(|w| w == name));
        let mut all = Vec::new();
        if wanted("corpus") {
            all.push(recast_case("corpus", s, 1, corpus_pairs));
        }
        if wanted("maze_120k") {
            all.push(recast_case("maze_120k", maze(74, 74, 3, 2), 2, maze_pairs(PAIRS_120K)));
        }
        if wanted("maze_1m") {
            all.push(recast_case("maze_1m", maze(213, 213, 3, 3), 3, maze_pairs(PAIRS_1M)));
        }
        let interleaved = std::env::var_os("RECAST_INTERLEAVED").is_some();
        let mut rows = Vec::new();
        for c in &all {
            rows.push(recast_interleaved(c, interleaved));
        }
        if interleaved {
            eprintln!(
                "\n| mesh | triangles | Recast polygons | pairs | Detour-on-Recast | ours optimal, polygons | ours fast, polygons | ours optimal, triangles | ours fast, triangles | ours optimal, polygons, 8 landmarks | ours optimal, corner graph | ours optimal, corner graph, 8 landmarks | ours fast, corner graph, 8 landmarks |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|"
            );
            for r in rows {
                eprintln!("{r}");
            }
            eprintln!("(queries/s; in brackets: ours / Detour-on-Recast)\n");
        }
        all
    })
}

fn find_recast(name: &str) -> Option<&'static RecastCase> {
    recast_cases().iter().find(|c| c.name == name)
}

/// The ground the Recast navmesh loses and adds: random points spread by plan area over our
/// triangles, each looked up on the navmesh (a polygon over or under it within a height
/// tolerance), and random points over the navmesh's detail triangles looked up on ours.
fn coverage(c: &RecastCase, s: &Surface) {
    let n: usize = std::env::var("RECAST_COVERAGE_SAMPLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000);
    let ours: Vec<u32> = (0..s.triangles.len() as u32)
        .filter(|&t| !c.mesh.mesh.is_flat(t))
        .collect();
    let ours_area: Vec<f64> = ours
        .iter()
        .map(|&t| {
            let [a, b, cc] = c.mesh.mesh.triangle_points(t).map(|v| v.as_dvec3());
            0.5 * ((b.x - a.x) * (cc.y - a.y) - (b.y - a.y) * (cc.x - a.x)).abs()
        })
        .collect();
    let theirs = detour_triangles(&c.detour);
    let theirs_area: Vec<f64> = theirs.iter().map(plan_area_detour).collect();
    let (a_ours, a_theirs): (f64, f64) = (ours_area.iter().sum(), theirs_area.iter().sum());

    let mut q = Query::new(&c.detour);
    let reach = 1.0;
    let on_ours = sample_by_area(&ours_area, |i| c.mesh.mesh.triangle_points(ours[i]), n, 11);
    let gaps_ours: Vec<f32> = on_ours
        .iter()
        .map(|&p| q.height_gap(p, reach).unwrap_or(f32::INFINITY))
        .collect();
    let on_theirs = sample_by_area(
        &theirs_area,
        |i| theirs[i].map(|p| Vec3::new(p[0], p[2], p[1])),
        n,
        12,
    );
    let gaps_theirs: Vec<f32> = on_theirs
        .iter()
        .map(|&p| {
            c.mesh
                .mesh
                .locate(p.x, p.y, Some(p.z))
                .map_or(f32::INFINITY, |l| (l.point.z - p.z).abs())
        })
        .collect();
    let part = |gaps: &[f32], tol: f32| {
        gaps.iter().filter(|&&g| g > tol).count() as f64 / gaps.len().max(1) as f64
    };
    let mut line = format!(
        "{} coverage ({n} samples a side): our ground {a_ours:.1} m², navmesh {a_theirs:.1} m² ({:+.2} %);",
        c.name,
        100.0 * (a_theirs / a_ours - 1.0)
    );
    for tol in COVERAGE_TOLERANCES {
        let (lost, added) = (part(&gaps_ours, tol), part(&gaps_theirs, tol));
        line += &format!(
            " within {tol} m: loses {:.2} m² ({:.3} %), adds {:.2} m² ({:.3} % of ours);",
            lost * a_ours,
            100.0 * lost,
            added * a_theirs,
            100.0 * added * a_theirs / a_ours
        );
    }
    let plan_lost = part(&gaps_ours, reach);
    line += &format!(
        " in plan (no navmesh polygon within {reach} m in height): loses {:.3} %",
        100.0 * plan_lost
    );
    eprintln!("{line}");
}

/// Times `K` sides query by query in turn over `n` queries (the order rotates by one each
/// query), so that a machine's changing load weighs on all alike; returns each side's summed
/// time. `side(which, i)` runs query `i` on side `which`.
fn interleave_k<const K: usize>(
    n: usize,
    mut side: impl FnMut(usize, usize),
) -> [std::time::Duration; K] {
    let mut t = [std::time::Duration::ZERO; K];
    for i in 0..n {
        for turn in 0..K {
            let which = (i + turn) % K;
            let start = std::time::Instant::now();
            side(which, i);
            t[which] += start.elapsed();
        }
    }
    t
}

/// The eight searches of ours the Recast table times, in its column order (the fifth on the
/// mesh with 8 landmarks, the sixth with the corner graph, the last two with both).
const OURS: [(Mode, Search, bool, &str); 8] = [
    (Mode::Optimal, Search::Polygons, false, "optimal, polygons"),
    (Mode::Fast, Search::Polygons, false, "fast, polygons"),
    (
        Mode::Optimal,
        Search::Triangles,
        false,
        "optimal, triangles",
    ),
    (Mode::Fast, Search::Triangles, false, "fast, triangles"),
    (
        Mode::Optimal,
        Search::Polygons,
        true,
        "optimal, polygons, 8 landmarks",
    ),
    (
        Mode::Optimal,
        Search::CornerGraph,
        false,
        "optimal, corner graph",
    ),
    (
        Mode::Optimal,
        Search::CornerGraph,
        true,
        "optimal, corner graph, 8 landmarks",
    ),
    (
        Mode::Fast,
        Search::CornerGraph,
        true,
        "fast, corner graph, 8 landmarks",
    ),
];

/// The side of [`recast_interleaved`] that is Detour.
const DETOUR: usize = OURS.len();

/// Detour-on-Recast on every pair (locate both points, `findPath`, `findStraightPath`), and
/// ours; with `timed`, all five query by query in turn (see [`interleave_k`]), otherwise only
/// Detour and our optimal search on triangles (the reference length), untimed. Prints the
/// pairs Detour cannot join and its length against our optimal one; returns the table row.
fn recast_interleaved(c: &RecastCase, timed: bool) -> String {
    let n = c.pairs.len();
    let mut q = Query::with_half_extents(&c.detour, RECAST_LOCATE_PLAN, 1.0);
    let mut searchers: Vec<Searcher> = (0..OURS.len()).map(|_| Searcher::new()).collect();
    let mut path = Path::default();
    // Per pair: Detour's outcome (None: a point not located), ours per side (NaN: no path).
    let mut detour: Vec<Option<Outcome>> = vec![None; n];
    let mut ours = vec![[f32::NAN; OURS.len()]; n];
    // `RECAST_COLUMNS=6,7` times only those of ours (fewer sides in turn, less cache traffic
    // between them). The reference, optimal on triangles (2), always runs: in turn with the
    // others when it is listed, else in an untimed pass first.
    let listed: Vec<bool> = match std::env::var("RECAST_COLUMNS") {
        Ok(v) => (0..OURS.len())
            .map(|k| v.split(',').any(|w| w.trim() == k.to_string()))
            .collect(),
        Err(_) => vec![true; OURS.len()],
    };
    let columns: Vec<bool> = (0..OURS.len()).map(|k| k == 2 || listed[k]).collect();
    let mut run = |side: usize, i: usize| {
        let (a, b) = c.pairs[i];
        if side != DETOUR && !columns[side] {
            return;
        }
        if side == DETOUR {
            detour[i] = match (q.locate(a), q.locate(b)) {
                (Some(la), Some(lb)) => Some(q.path(&la, &lb)),
                _ => None,
            };
        } else {
            let (mode, search, landmarks, _) = OURS[side];
            let opts = Request {
                mode,
                search,
                landmarks,
                ..Default::default()
            };
            let mesh = match side {
                4 => &c.mesh_lm,
                5 => &c.mesh_cg,
                6 | 7 => &c.mesh_cg_lm,
                _ => &c.mesh,
            };
            if searchers[side]
                .find_path_into(&mesh.data(), a, b, &opts, &mut path)
                .is_ok()
            {
                ours[i][side] = path.length_plan;
            }
        }
    };
    let t = if timed {
        if !listed[2] {
            for i in 0..n {
                run(2, i);
            }
        }
        interleave_k::<9>(n, |side, i| {
            if side != 2 || listed[2] {
                run(side, i)
            }
        })
    } else {
        for i in 0..n {
            run(DETOUR, i);
            run(2, i);
        }
        [std::time::Duration::ZERO; 9]
    };

    let not_located = detour.iter().filter(|o| o.is_none()).count();
    let partial = detour
        .iter()
        .filter(|o| o.is_some_and(|o| !o.complete))
        .count();
    let out_of_nodes = detour
        .iter()
        .filter(|o| o.is_some_and(|o| o.out_of_nodes))
        .count();
    let ours_failed = ours.iter().filter(|l| l[2].is_nan()).count();
    let mut ratios: Vec<f64> = detour
        .iter()
        .zip(&ours)
        .filter_map(|(d, l)| {
            let d = (*d)?;
            (d.complete && l[2] > 1e-3).then(|| f64::from(d.length_plan) / f64::from(l[2]))
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    let m = ratios.len();
    let ratio_text = if m == 0 {
        "-".to_string()
    } else {
        format!(
            "median {:.4}, mean {:.4}, worst {:.4}, least {:.4}, above 1.05: {}",
            ratios[m / 2],
            ratios.iter().sum::<f64>() / m as f64,
            ratios[m - 1],
            ratios[0],
            ratios.iter().filter(|&&r| r > 1.05).count()
        )
    };
    eprintln!(
        "{} (Recast): {n} pairs; Detour cannot join {} ({not_located} with a point not located within {RECAST_LOCATE_PLAN} m, {partial} partial paths of which {out_of_nodes} out of its 65 535 nodes); ours finds no path on {ours_failed}; Detour / ours optimal (plan length) on the {m} pairs both complete: {ratio_text}",
        c.name,
        not_located + partial,
    );
    if !timed {
        return String::new();
    }
    // Our two layers' optimal lengths must agree.
    let (mut worst, mut differ) = (0.0f64, 0usize);
    for l in &ours {
        for k in [0, 4, 5, 6].into_iter().filter(|&k| columns[k]) {
            let rel = f64::from((l[k] - l[2]).abs()) / f64::from(l[2].max(1e-6));
            if rel > 1e-6 || l[k].is_nan() != l[2].is_nan() {
                differ += 1;
            }
            if rel.is_finite() {
                worst = worst.max(rel);
            }
        }
    }
    // The fast searches' lengths against the optimal one.
    for k in [1, 7].into_iter().filter(|&k| columns[k]) {
        let mut r: Vec<f64> = ours
            .iter()
            .filter(|l| l[2] > 1e-3 && l[k].is_finite())
            .map(|l| f64::from(l[k]) / f64::from(l[2]))
            .collect();
        r.sort_by(f64::total_cmp);
        if let (Some(m), Some(w)) = (r.get(r.len() / 2), r.last()) {
            eprintln!(
                "{} (Recast): ours {} / optimal: median {m:.4}, worst {w:.4} ({} pairs)",
                c.name,
                OURS[k].2,
                r.len()
            );
        }
    }
    let qps = |d: std::time::Duration| n as f64 / d.as_secs_f64();
    let detour_qps = qps(t[DETOUR]);
    eprintln!(
        "{} (Recast) interleaved: Detour-on-Recast {:.1}/s; {}; optimal polygons (with and without landmarks and the corner graph) vs triangles: worst relative length difference {worst:.2e}, {differ} pairs beyond 1e-6",
        c.name,
        detour_qps,
        OURS.iter()
            .enumerate()
            .filter(|(k, _)| listed[*k])
            .map(|(k, (_, _, _, label))| format!(
                "ours {label} {:.1}/s ({:.2}×)",
                qps(t[k]),
                qps(t[k]) / detour_qps
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let fmt = |x: f64| {
        if x >= 100.0 {
            format!("{x:.0}")
        } else {
            format!("{x:.1}")
        }
    };
    format!(
        "| {} | {} | {} | {n} | {} | {} |",
        c.name,
        c.triangles,
        c.stats.polygons,
        fmt(detour_qps),
        (0..OURS.len())
            .map(|k| if listed[k] {
                format!("{} ({:.2}×)", fmt(qps(t[k])), qps(t[k]) / detour_qps)
            } else {
                "-".to_string()
            })
            .collect::<Vec<_>>()
            .join(" | ")
    )
}

/// Detour on its Recast navmesh, from points: `findNearestPoly` ×2 + `findPath` +
/// `findStraightPath`, one pass over the pairs.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn recast_detour(bencher: Bencher, name: &str) {
    let Some(c) = find_recast(name) else { return };
    let mut q = Query::with_half_extents(&c.detour, RECAST_LOCATE_PLAN, 1.0);
    bencher
        .counter(ItemsCount::new(c.pairs.len()))
        .bench_local(|| {
            let mut total = 0.0f32;
            for (a, b) in &c.pairs {
                let (Some(la), Some(lb)) = (q.locate(*a), q.locate(*b)) else {
                    continue;
                };
                total += q.path(&la, &lb).length_plan;
            }
            total
        });
}

fn recast_ours(bencher: Bencher, name: &str, mode: Mode, search: Search) {
    let Some(c) = find_recast(name) else { return };
    let mut searcher = Searcher::new();
    let mut path = Path::default();
    let opts = Request {
        mode,
        search,
        ..Default::default()
    };
    bencher
        .counter(ItemsCount::new(c.pairs.len()))
        .bench_local(|| {
            let mut total = 0.0f32;
            for (a, b) in &c.pairs {
                searcher
                    .find_path_into(&c.mesh.data(), *a, *b, &opts, &mut path)
                    .expect("path");
                total += path.length_plan;
            }
            total
        });
}

/// Ours, optimal, polygon layer, from the same points with height hints.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn recast_ours_optimal_polygons(bencher: Bencher, name: &str) {
    recast_ours(bencher, name, Mode::Optimal, Search::Polygons);
}

/// Ours, fast, polygon layer.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn recast_ours_fast_polygons(bencher: Bencher, name: &str) {
    recast_ours(bencher, name, Mode::Fast, Search::Polygons);
}

/// Ours, optimal, triangle layer (the search before the polygon layer).
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn recast_ours_optimal_triangles(bencher: Bencher, name: &str) {
    recast_ours(bencher, name, Mode::Optimal, Search::Triangles);
}

/// Ours, fast, triangle layer.
#[divan::bench(args = CASES, sample_count = 1, sample_size = 1)]
fn recast_ours_fast_triangles(bencher: Bencher, name: &str) {
    recast_ours(bencher, name, Mode::Fast, Search::Triangles);
}
