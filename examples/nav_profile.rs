//! Profiling driver for path searches (run under `perf`): the largest corpus walkmesh and the
//! pairs of `benches/nav.rs`, searched from points located beforehand.
//! `cargo run --release --example nav_profile -- [fast|optimal] [rounds]`

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
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let (file, surface) = shared::largest_corpus_surface(&dir);
    let set = NavSet::build(&surface).expect("a valid surface");
    let mesh = &set.mesh;
    let pairs = shared::random_pairs(mesh, &surface, 1, shared::PAIRS);
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
                .path_between(
                    &set.data(),
                    *a,
                    *b,
                    &Request::new(mode, Search::Polygons),
                    &mut path,
                )
                .expect("a path");
            length += f64::from(path.length_plan);
            expanded += path.expanded;
        }
        best = best.min(t0.elapsed().as_secs_f64());
    }
    println!(
        "{file}: {} triangles, {} pairs, {mode:?}: best {:.1} ms ({:.0} queries/s), total length {length:.1}, expanded {expanded}",
        mesh.triangle_count(),
        located.len(),
        best * 1e3,
        located.len() as f64 / best,
    );
}
