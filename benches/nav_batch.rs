//! Batch path queries on all cores: `PathContext::find_many` — the library call behind
//! `areakit path --pairs` and Python's `paths` — on a rayon pool of 1 thread and of 2, over the
//! same pairs as `benches/nav.rs` on the largest corpus walkmesh (10 000 random reachable pairs,
//! seed 1; `benches/nav_support/shared.rs`), in the optimal and the fast mode. The ground is
//! handed to `PathContext::from_parts` as `areakit path` hands it (no radius, no objects), and
//! the answers are whole `PathOutcome`s (rooms, notes, ends), as the command line prints them.
//!
//! The speed-up is the 1-thread median over the 2-thread one. With `NAV_BATCH_INTERLEAVED`
//! set, setup also times whole batches on the two pools in turn (which goes first alternates),
//! `NAV_BATCH_ROUNDS` rounds (default 5), and prints each side's median and their ratio: the
//! steadier figure on a machine whose load changes.

use areakit_app::Session;
use areakit_app::geometry::nav::{Endpoint, NavMesh};
use areakit_app::navigate::{PathContext, PathRequest, thread_pool};
use areakit_app::navigation::{NavSource, PathMode, SourceKind};
use areakit_app::request::Distance;
use divan::Bencher;
use divan::counter::ItemsCount;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

#[path = "nav_support/shared.rs"]
mod shared;
use shared::{PAIRS, largest_corpus_surface, random_pairs};

fn main() {
    divan::main();
}

struct Batch {
    ctx: PathContext,
    pairs: Vec<(Endpoint, Endpoint)>,
}

fn batch() -> &'static Batch {
    static BATCH: OnceLock<Batch> = OnceLock::new();
    BATCH.get_or_init(|| {
        let (file, surface) = largest_corpus_surface(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        );
        let mesh = NavMesh::build(&surface).expect("valid surface");
        let pairs: Vec<(Endpoint, Endpoint)> = random_pairs(&mesh, &surface, 1, PAIRS)
            .into_iter()
            .map(|(a, b)| (Endpoint::from(a), Endpoint::from(b)))
            .collect();
        let source = NavSource {
            faces: (0..surface.triangles.len() as u32).collect(),
            surface,
            regions: vec![file.clone()],
            kind: SourceKind::Walkmesh,
            baked: None,
        };
        let req = PathRequest::new(std::path::Path::new(&file));
        let ctx = PathContext::from_parts(&Session::files_only(), source, Vec::new(), &req)
            .expect("navigation data");
        eprintln!(
            "corpus: {file}: {} walkable triangles, {} pairs",
            ctx.nav.mesh().triangle_count(),
            pairs.len()
        );
        let b = Batch { ctx, pairs };
        if std::env::var_os("NAV_BATCH_INTERLEAVED").is_some() {
            interleaved(&b);
        }
        b
    })
}

fn pool(threads: usize) -> &'static rayon::ThreadPool {
    static POOLS: OnceLock<[rayon::ThreadPool; 2]> = OnceLock::new();
    let pools = POOLS.get_or_init(|| [1, 2].map(|n| thread_pool(Some(n)).expect("a rayon pool")));
    &pools[threads - 1]
}

/// The total plan length of a batch's answers (every pair is joined).
fn run(b: &Batch, threads: usize, mode: PathMode) -> f64 {
    let out =
        pool(threads).install(|| b.ctx.find_many_with(&b.pairs, mode, Distance::DEFAULT_SNAP));
    assert!(out.iter().all(|o| o.found()), "every pair is joined");
    out.iter().map(|o| f64::from(o.length())).sum()
}

/// Whole batches on 1 and 2 threads in turn; prints the medians and the ratio, and checks that
/// both give the same lengths.
fn interleaved(b: &Batch) {
    let rounds: usize = std::env::var("NAV_BATCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    for mode in [PathMode::Optimal, PathMode::Fast] {
        let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
        let mut totals = [0.0f64; 2];
        for round in 0..rounds {
            for turn in 0..2 {
                let side = (round + turn) % 2;
                let start = Instant::now();
                totals[side] = run(b, side + 1, mode);
                times[side].push(start.elapsed());
            }
        }
        assert_eq!(totals[0], totals[1], "the same answers on 1 and 2 threads");
        let median = |t: &mut Vec<Duration>| {
            t.sort();
            t[t.len() / 2]
        };
        let (one, two) = (median(&mut times[0]), median(&mut times[1]));
        eprintln!(
            "interleaved {}: {rounds} rounds of {} pairs: 1 thread {one:.3?} ({:.0}/s), 2 threads {two:.3?} ({:.0}/s), speed-up {:.2}x",
            mode.name(),
            b.pairs.len(),
            b.pairs.len() as f64 / one.as_secs_f64(),
            b.pairs.len() as f64 / two.as_secs_f64(),
            one.as_secs_f64() / two.as_secs_f64()
        );
    }
}

#[divan::bench(args = [1, 2], sample_count = 3, sample_size = 1)]
fn optimal(bencher: Bencher, threads: usize) {
    let b = batch();
    bencher
        .counter(ItemsCount::new(b.pairs.len()))
        .bench_local(|| run(b, threads, PathMode::Optimal));
}

#[divan::bench(args = [1, 2], sample_count = 5, sample_size = 1)]
fn fast(bencher: Bencher, threads: usize) {
    let b = batch();
    bencher
        .counter(ItemsCount::new(b.pairs.len()))
        .bench_local(|| run(b, threads, PathMode::Fast));
}
