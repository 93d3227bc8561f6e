//! Profiling driver for the walkmesh geometry layer (run under `perf` or callgrind):
//! `cargo run --release --example geometry_profile -- <what> [grid n] [repeats]` with `what` one of
//! `median`, `mean`, `median-reuse`, `mean-reuse` (one [`aabb::TreeBuilder`] for all repeats),
//! `rebuild`, `derive-parts` (on a generated grid), or `face-at`,
//! `height-at`, `ray-down`, `ray-random` (10 000 queries on the largest corpus WOK, `grid n` then
//! meaning the number of rounds).

use areakit_geometry::query::{FaceFilter, Locator};
use areakit_geometry::{aabb, derive};
use std::time::Instant;

#[path = "../benches/fixtures/geometry.rs"]
mod fixtures;
use fixtures::{corpus, grid};

fn queries(what: &str, rounds: usize) {
    let (m, nodes, pts) = corpus();
    let loc = Locator::new(&m, &nodes);
    assert!(loc.uses_stored_tree());
    let mut best = f64::INFINITY;
    let mut hits = 0;
    for _ in 0..rounds {
        let t0 = Instant::now();
        hits = match what {
            "face-at" => pts
                .iter()
                .filter(|p| loc.face_at(p[0], p[1], None, FaceFilter::All).is_some())
                .count(),
            "height-at" => pts
                .iter()
                .filter(|p| loc.height_at(p[0], p[1], Some(p[2])).is_some())
                .count(),
            "ray-down" => pts
                .iter()
                .filter(|p| {
                    loc.ray([p[0], p[1], 50.0], [0.0, 0.0, -1.0], FaceFilter::All)
                        .is_some()
                })
                .count(),
            _ => pts
                .windows(2)
                .filter(|w| {
                    let d = [w[1][0] - w[0][0], w[1][1] - w[0][1], w[1][2] - w[0][2]];
                    loc.ray(w[0], d, FaceFilter::All).is_some()
                })
                .count(),
        };
        best = best.min(t0.elapsed().as_secs_f64());
    }
    println!(
        "{what}: {} faces, {hits} hits, best of {rounds}: {:.2} ms ({:.2} M queries/s)",
        m.faces.len(),
        best * 1e3,
        pts.len() as f64 / best / 1e6
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("median", |s| s.as_str());
    if matches!(what, "face-at" | "height-at" | "ray-down" | "ray-random") {
        let rounds = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
        return queries(what, rounds);
    }
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(708);
    let reps: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let m = grid(n);
    let t = vec![[-1; 3]; m.faces.len()];
    let mut times = Vec::new();
    let mut builder = aabb::TreeBuilder::new();
    let mut nodes = Vec::new();
    for _ in 0..reps {
        let t0 = Instant::now();
        let k = match what {
            "median" => aabb::build(&m).len(),
            "mean" => aabb::build_mean_split(&m).len(),
            "median-reuse" => {
                builder.build_into(&m, aabb::Style::Compiler, &mut nodes);
                nodes.len()
            }
            "mean-reuse" => {
                builder.build_into(&m, aabb::Style::PyKotor, &mut nodes);
                nodes.len()
            }
            "rebuild" => derive::rebuild(&m, &t, aabb::Style::Compiler)
                .map(|r| r.derived.aabb.len())
                .unwrap_or(0),
            _ => {
                let t1 = Instant::now();
                let order = derive::walkable_first_order(&m.walkable);
                let (mm, tt) = derive::reorder(&m, &t, &order);
                let a = t1.elapsed();
                let t1 = Instant::now();
                let planes: Vec<_> = (0..mm.faces.len())
                    .map(|i| derive::face_plane(mm.tri(i)))
                    .collect();
                let b = t1.elapsed();
                let w = mm.walkable_count();
                let t1 = Instant::now();
                let adj = derive::adjacency(&mm, w);
                let c = t1.elapsed();
                let t1 = Instant::now();
                let (e, _) = derive::perimeters(&mm, &adj, &tt);
                let d = t1.elapsed();
                let t1 = Instant::now();
                let tree = aabb::build(&mm);
                let f = t1.elapsed();
                eprintln!("reorder {a:?} planes {b:?} adjacency {c:?} perimeters {d:?} aabb {f:?}");
                planes.len() + e.len() + tree.len()
            }
        };
        times.push(t0.elapsed().as_secs_f64());
        std::hint::black_box(k);
    }
    times.sort_by(f64::total_cmp);
    let (best, median) = (times[0], times[times.len() / 2]);
    let faces = m.faces.len();
    println!(
        "{what}: {faces} faces, {reps} runs: best {:.1} ms ({:.2} M faces/s), median {:.1} ms ({:.2} M faces/s)",
        best * 1e3,
        faces as f64 / best / 1e6,
        median * 1e3,
        faces as f64 / median / 1e6
    );
}
