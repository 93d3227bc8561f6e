//! Profiling driver for the walkmesh geometry layer (run under `perf` or callgrind):
//! `cargo run --release --example geometry_profile -- <what> [grid n] [repeats]` with `what` one of
//! `median`, `mean`, `rebuild`, `derive-parts`.

use areakit_geometry::{Mesh, aabb, derive};
use std::time::Instant;

/// A wavy grid of `n * n` quads (`2 n²` faces), 1 in 7 cells not walkable (as the benchmark).
fn grid(n: usize) -> Mesh {
    let mut m = Mesh::default();
    for j in 0..=n {
        for i in 0..=n {
            let z = ((i as f32) * 0.37).sin() + ((j as f32) * 0.23).cos();
            m.vertices.push([i as f32 * 0.5, j as f32 * 0.5, z]);
        }
    }
    let v = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    for j in 0..n {
        for i in 0..n {
            let w = (i * 31 + j * 17) % 7 != 0;
            m.faces.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            m.faces.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
            m.walkable.push(w);
            m.walkable.push(w);
        }
    }
    m
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("median", |s| s.as_str());
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(708);
    let reps: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let m = grid(n);
    let t = vec![[-1; 3]; m.faces.len()];
    let mut best = f64::INFINITY;
    for _ in 0..reps {
        let t0 = Instant::now();
        let k = match what {
            "median" => aabb::build(&m).len(),
            "mean" => aabb::build_mean_split(&m).len(),
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
        let s = t0.elapsed().as_secs_f64();
        best = best.min(s);
        std::hint::black_box(k);
    }
    let faces = m.faces.len();
    println!(
        "{what}: {faces} faces, best of {reps}: {:.1} ms ({:.2} M faces/s)",
        best * 1e3,
        faces as f64 / best / 1e6
    );
}
