//! `--corner-graph auto` against `yes` and `no` (issue 45): what a user of `areakit path
//! --pairs` pays, the precompute included: each sample drops the corner graph, runs
//! `PathContext::precompute` with the choice (auto's estimate, the build where chosen) and
//! answers the batch with `PathContext::find_many` on a rayon pool of one thread.
//!
//! Two meshes: the generated large open plain (`areakit_testkit::nav_meshes::open_plain`,
//! about 34 000 walkable triangles with some 250 holes; 3 000 random reachable pairs, seed
//! 45), where building the graph costs far more than it saves, and the largest corpus TRX
//! (1 000 pairs, seed 45), where it pays.
//!
//! divan times wall clock (the graph build runs on all cores). With `NAV_AUTO_INTERLEAVED`
//! set, setup also runs the three choices in turn, `NAV_AUTO_ROUNDS` rounds (default 3), and
//! prints per choice the median CPU seconds of the process (all threads, Linux
//! `/proc/self/stat`) and wall seconds, what auto chose, and auto's ratio to the cheaper of
//! yes and no in the same run.

use areakit_app::Session;
use areakit_app::geometry::nav::{Endpoint, NavMesh, Surface};
use areakit_app::navigate::{
    self, CornerGraphChoice, PathContext, PathRequest, Precompute, PrecomputeReport,
};
use areakit_app::navigation::{NavSource, SourceKind};
use areakit_testkit::nav_meshes::{self, Rng};
use divan::Bencher;
use divan::counter::ItemsCount;
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

fn main() {
    divan::main();
}

struct Batch {
    name: String,
    ctx: PathContext,
    pairs: Vec<(Endpoint, Endpoint)>,
}

const CHOICES: [&str; 3] = ["auto", "yes", "no"];

fn choice(name: &str) -> CornerGraphChoice {
    match name {
        "yes" => CornerGraphChoice::Yes,
        "no" => CornerGraphChoice::No,
        _ => CornerGraphChoice::Auto,
    }
}

fn context(source: NavSource, name: &str) -> PathContext {
    let req = PathRequest::new(Path::new(name));
    PathContext::from_parts(&Session::files_only(), source, Vec::new(), &req)
        .expect("navigation data")
}

fn plain() -> &'static Mutex<Batch> {
    static B: OnceLock<Mutex<Batch>> = OnceLock::new();
    B.get_or_init(|| {
        let g = nav_meshes::open_plain();
        let surface = Surface {
            links: Vec::new(),
            vertices: g.vertices.iter().map(|&v| v.into()).collect(),
            regions: vec![0; g.triangles.len()],
            triangles: g.triangles,
        };
        let source = NavSource {
            faces: (0..surface.triangles.len() as u32).collect(),
            surface,
            regions: vec![g.name.clone()],
            kind: SourceKind::Walkmesh,
            baked: None,
        };
        batch(g.name, context(source, "open plain"), 3_000)
    })
}

fn largest_trx() -> &'static Mutex<Batch> {
    static B: OnceLock<Mutex<Batch>> = OnceLock::new();
    B.get_or_init(|| {
        let mut best: Option<(usize, std::path::PathBuf, NavSource)> = None;
        for f in areakit_testkit::corpus_files(&["trx"]) {
            let Ok(data) = std::fs::read(&f) else {
                continue;
            };
            let Ok(s) = navigate::file_source(&f, &data) else {
                continue;
            };
            let n = s.surface.triangles.len();
            if best.as_ref().is_none_or(|b| n > b.0) {
                best = Some((n, f, s));
            }
        }
        let (_, f, source) = best.expect("a corpus TRX");
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let ctx = context(source, &name);
        batch(name, ctx, 1_000)
    })
}

fn batch(name: String, ctx: PathContext, n: usize) -> Mutex<Batch> {
    let pairs = random_pairs(ctx.nav.mesh(), 45, n);
    assert_eq!(pairs.len(), n, "{name}: reachable pairs");
    eprintln!(
        "{name}: {} walkable triangles, {} pairs",
        ctx.nav.mesh().triangle_count(),
        pairs.len()
    );
    let mut b = Batch { name, ctx, pairs };
    if std::env::var_os("NAV_AUTO_INTERLEAVED").is_some() {
        interleaved(&mut b);
    }
    Mutex::new(b)
}

/// `n` pairs of random points on triangles with plan area that reach each other.
fn random_pairs(mesh: &NavMesh, seed: u64, n: usize) -> Vec<(Endpoint, Endpoint)> {
    let tris: Vec<u32> = (0..mesh.triangle_count() as u32)
        .filter(|&t| !mesh.is_flat(t))
        .collect();
    let mut rng = Rng(seed);
    let point = |rng: &mut Rng| {
        let t = tris[rng.below(tris.len() as u64) as usize];
        let [a, b, c] = mesh.triangle_points(t);
        let (mut u, mut v) = (rng.unit() as f32, rng.unit() as f32);
        if u + v > 1.0 {
            (u, v) = (1.0 - u, 1.0 - v);
        }
        a + (b - a) * u + (c - a) * v
    };
    let mut out = Vec::with_capacity(n);
    for _ in 0..50 * n {
        if out.len() == n {
            break;
        }
        let (a, b) = (point(&mut rng), point(&mut rng));
        if let (Some(la), Some(lb)) = (
            mesh.locate(a.x, a.y, Some(a.z)),
            mesh.locate(b.x, b.y, Some(b.z)),
        ) && mesh.reachable(la.triangle, lb.triangle)
        {
            out.push((Endpoint::from(a), Endpoint::from(b)));
        }
    }
    out
}

fn pool() -> &'static rayon::ThreadPool {
    static P: OnceLock<rayon::ThreadPool> = OnceLock::new();
    P.get_or_init(|| navigate::thread_pool(Some(1)).expect("a rayon pool"))
}

/// What a user pays for the batch under `choice`: the precompute from scratch and the
/// answers on one thread. Returns the precompute's report and the summed plan length.
fn run(b: &mut Batch, choice: CornerGraphChoice) -> (PrecomputeReport, f64) {
    b.ctx.nav.build_corner_graph(false);
    let p = Precompute::new(0, choice).expect("no landmarks");
    let r = b.ctx.precompute(p, &b.pairs);
    let out = pool().install(|| b.ctx.find_many(&b.pairs));
    assert!(out.iter().all(|o| o.found()), "every pair is joined");
    (r, out.iter().map(|o| f64::from(o.length())).sum())
}

/// CPU seconds of this process so far (user and system, every thread), where Linux says.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// The three choices in turn (which goes first rotates); prints the medians and auto's
/// ratio to the cheaper of yes and no, and checks that all give the same lengths.
fn interleaved(b: &mut Batch) {
    let rounds: usize = std::env::var("NAV_AUTO_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let mut cpu: [Vec<f64>; 3] = Default::default();
    let mut wall: [Vec<f64>; 3] = Default::default();
    let mut lengths = [0.0f64; 3];
    let mut chose = false;
    for round in 0..rounds {
        for turn in 0..3 {
            let side = (round + turn) % 3;
            let (c0, w0) = (cpu_seconds(), Instant::now());
            let (r, total) = run(b, choice(CHOICES[side]));
            wall[side].push(w0.elapsed().as_secs_f64());
            if let (Some(c0), Some(c1)) = (c0, cpu_seconds()) {
                cpu[side].push(c1 - c0);
            }
            lengths[side] = total;
            if side == 0 {
                chose = r.corner_graph;
            }
        }
    }
    let rel = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
    assert!(
        rel(lengths[0], lengths[1]) && rel(lengths[1], lengths[2]),
        "{}: the same lengths under auto, yes and no: {lengths:?}",
        b.name
    );
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    let [ca, cy, cn] = cpu.map(|mut v| median(&mut v));
    let [wa, wy, wn] = wall.map(|mut v| median(&mut v));
    eprintln!(
        "interleaved {}: {rounds} rounds of {} pairs, 1 thread: CPU s auto {ca:.3}, yes {cy:.3}, no {cn:.3} (auto / cheaper {:.2}); wall s auto {wa:.3}, yes {wy:.3}, no {wn:.3} (auto / cheaper {:.2}); auto chose {}",
        b.name,
        b.pairs.len(),
        ca / cy.min(cn),
        wa / wy.min(wn),
        if chose { "yes" } else { "no" }
    );
}

#[divan::bench(args = CHOICES, sample_count = 3, sample_size = 1)]
fn open_plain(bencher: Bencher, which: &str) {
    let b = plain();
    let n = b.lock().expect("the batch").pairs.len();
    bencher
        .counter(ItemsCount::new(n))
        .bench_local(|| run(&mut b.lock().expect("the batch"), choice(which)).1);
}

#[divan::bench(args = CHOICES, sample_count = 5, sample_size = 1)]
fn largest_corpus_trx(bencher: Bencher, which: &str) {
    let b = largest_trx();
    let n = b.lock().expect("the batch").pairs.len();
    bencher
        .counter(ItemsCount::new(n))
        .bench_local(|| run(&mut b.lock().expect("the batch"), choice(which)).1);
}
