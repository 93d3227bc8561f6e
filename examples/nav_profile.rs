//! Profiling driver for path searches (run under `perf`): the largest corpus walkmesh or one of
//! the benchmark mazes, and the pairs of `benches/nav.rs`, searched from points located
//! beforehand.
//! `cargo run --release --example nav_profile -- [fast|optimal] [rounds] [corpus|maze_120k|maze_1m] [pairs] [polygons|triangles]`

use areakit_geometry::nav::{Location, Mode, NavSet, Path, Request, Search, Searcher};
use std::time::Instant;

#[path = "../benches/nav_support/shared.rs"]
mod shared;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = match args.get(1).map(String::as_str) {
        Some("optimal") => Mode::Optimal,
        _ => Mode::Fast,
    };
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let which = args.get(3).map_or("corpus", String::as_str);
    let search = match args.get(5).map(String::as_str) {
        Some("triangles") => Search::Triangles,
        _ => Search::Polygons,
    };
    let (name, surface, seed, count) = match which {
        "maze_120k" => (
            "maze_120k".to_string(),
            shared::maze(74, 74, 3, 2),
            2,
            shared::PAIRS_120K,
        ),
        "maze_1m" => (
            "maze_1m".to_string(),
            shared::maze(213, 213, 3, 3),
            3,
            shared::PAIRS_1M,
        ),
        _ => {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
            let (file, s) = shared::largest_corpus_surface(&dir);
            (file, s, 1, shared::PAIRS)
        }
    };
    let count = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(count);
    let set = NavSet::build(&surface).expect("a valid surface");
    let mesh = &set.mesh;
    let pairs = shared::random_pairs(mesh, &surface, seed, count);
    let located: Vec<(Location, Location)> = pairs
        .iter()
        .map(|(a, b)| {
            (
                mesh.locate(a.x, a.y, Some(a.z)).expect("start"),
                mesh.locate(b.x, b.y, Some(b.z)).expect("goal"),
            )
        })
        .collect();
    let (mut searcher, mut path) = (Searcher::new(), Path::default());
    let mut best = f64::INFINITY;
    let (mut length, mut expanded) = (0.0f64, 0usize);
    for _ in 0..rounds {
        let t0 = Instant::now();
        (length, expanded) = (0.0, 0);
        for (a, b) in &located {
            searcher
                .path_between(&set.data(), *a, *b, &Request::new(mode, search), &mut path)
                .expect("a path");
            length += f64::from(path.length_plan);
            expanded += path.expanded;
        }
        best = best.min(t0.elapsed().as_secs_f64());
    }
    println!(
        "{name}: {} triangles, {} pairs, {mode:?} {search:?}: best {:.1} ms ({:.1} queries/s), total length {length:.3}, expanded {expanded}",
        mesh.triangle_count(),
        located.len(),
        best * 1e3,
        located.len() as f64 / best,
    );
}
