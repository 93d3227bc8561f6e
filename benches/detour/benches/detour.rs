//! areakit's `fast` mode against Recast/Detour's `findPath` + `findStraightPath`, in the same
//! run, on the same triangles and the same random reachable pairs: the largest corpus walkmesh
//! and the generated mazes of `benches/nav.rs` (its generator, included from
//! `benches/nav_support/shared.rs`). The mazes are cut on a 64 m tile grid first (Detour's
//! tiles index their vertices with 16 bits); both sides then search the cut triangles.
//!
//! Four benches per mesh, each one pass over the pairs:
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
//! both sides timed query by query in turn (see [`interleaved`]). Run by hand:
//! `CARGO_TARGET_DIR=... cargo bench --manifest-path benches/detour/Cargo.toml`.

use areakit_detour_bench::{DetourMesh, Located, Query, cut_to_tiles};
use areakit_geometry::Vec3;
use areakit_geometry::nav::{Location, Mode, NavMesh, Path, SearchOptions, Searcher, Surface};
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
    mesh: NavMesh,
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
    let mesh = NavMesh::build(&surface).expect("valid surface");
    for t in 0..surface.triangles.len() as u32 {
        let (mut a, mut b) = (mesh.triangle(t), surface.triangles[t as usize]);
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(
            a, b,
            "the navigation mesh keeps the surface's triangle order"
        );
    }
    let detour = DetourMesh::build(&surface, origin, tile, |t| mesh.is_flat(t));
    let pairs = random_pairs(&mesh, &surface, seed, count);
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

        mesh,
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
            .path_between(&c.mesh, *la, *lb, Mode::Fast, &mut path)
            .expect("fast path");
        let ours = path.length_plan;
        if ours > 1e-3 {
            ratio_fast.push(o.length_plan / ours);
            if ratio_opt.len() < 1000 {
                searcher
                    .path_between(&c.mesh, *la, *lb, Mode::Optimal, &mut path)
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
    let opts = SearchOptions {
        mode: Mode::Fast,
        ..Default::default()
    };
    let mut sink = 0.0f32;
    let from_points = interleave(c.pairs.len(), |side, i| {
        let (a, b) = c.pairs[i];
        if side == 0 {
            searcher
                .find_path_into(&c.mesh, a, b, &opts, &mut path)
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
                .path_between(&c.mesh, la, lb, Mode::Fast, &mut path)
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
    let opts = SearchOptions {
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
                    .path_between(&c.mesh, *a, *b, Mode::Fast, &mut path)
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
