//! `--corner-graph auto` (issue 45): the estimate skips the graph on the large open plain and
//! builds it where it pays, and auto, yes and no give the same optimal answers. The ignored
//! `auto_cost_table` measures what each choice costs (CPU seconds, precompute included) on
//! the open plain and every corpus TRX:
//! `cargo test --release -p areakit-app --test nav_auto -- --ignored --nocapture`.

use std::path::Path;

use areakit_app::Session;
use areakit_app::geometry::nav::{Endpoint, NavMesh};
use areakit_app::navigate::{
    self, CornerGraphChoice, PathContext, PathRequest, Precompute, PrecomputeReport,
};
use areakit_app::navigation::{NavSource, PathMode, PathOutcome, SourceKind};
use areakit_testkit::nav_meshes::{self, Rng};

/// The navigation data of a file (a TRX) as `areakit path` builds it.
fn file_context(path: &Path) -> PathContext {
    let data = std::fs::read(path).unwrap();
    let source = navigate::file_source(path, &data).unwrap();
    context(source, path)
}

/// The navigation data of the generated open plain.
fn plain_context() -> PathContext {
    let g = nav_meshes::open_plain();
    let surface = areakit_app::geometry::nav::Surface {
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
    context(source, Path::new("open plain"))
}

fn context(source: NavSource, name: &Path) -> PathContext {
    let req = PathRequest::new(name);
    PathContext::from_parts(&Session::files_only(), source, Vec::new(), &req).unwrap()
}

/// `n` pairs of random points on triangles with plan area that reach each other (fewer if
/// the ground has too few such pairs), drawn by `seed`.
fn random_pairs(mesh: &NavMesh, seed: u64, n: usize) -> Vec<(Endpoint, Endpoint)> {
    let tris: Vec<u32> = (0..mesh.triangle_count() as u32)
        .filter(|&t| !mesh.is_flat(t))
        .collect();
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(n);
    if tris.is_empty() {
        return out;
    }
    let point = |rng: &mut Rng| {
        let t = tris[rng.below(tris.len() as u64) as usize];
        let [a, b, c] = mesh.triangle_points(t);
        let (mut u, mut v) = (rng.unit() as f32, rng.unit() as f32);
        if u + v > 1.0 {
            (u, v) = (1.0 - u, 1.0 - v);
        }
        a + (b - a) * u + (c - a) * v
    };
    for _ in 0..50 * n {
        if out.len() == n {
            break;
        }
        let (a, b) = (point(&mut rng), point(&mut rng));
        let (Some(la), Some(lb)) = (
            mesh.locate(a.x, a.y, Some(a.z)),
            mesh.locate(b.x, b.y, Some(b.z)),
        ) else {
            continue;
        };
        if mesh.reachable(la.triangle, lb.triangle) {
            out.push((Endpoint::from(a), Endpoint::from(b)));
        }
    }
    out
}

/// The precompute of `choice` for `pairs` from scratch (any graph dropped first).
fn precompute(
    ctx: &mut PathContext,
    choice: CornerGraphChoice,
    pairs: &[(Endpoint, Endpoint)],
) -> PrecomputeReport {
    ctx.nav.build_corner_graph(false);
    let p = Precompute::new(0, choice).expect("no landmarks");
    ctx.precompute(p, pairs)
}

/// An answer without its search effort (which differs over the graph and the polygons).
fn answer(o: &PathOutcome) -> serde_json::Value {
    let mut v = serde_json::to_value(o).unwrap();
    v.as_object_mut().unwrap().remove("faces_visited");
    v
}

/// The estimate picks `no` on the open plain for 3 000 pairs and `yes` on the corpus TRX that
/// favours the graph most clearly, for 1 000; on a sample of each batch auto answers as yes
/// and no do (yes only on the TRX: on the plain its build alone takes half a minute in a
/// debug build).
#[test]
fn auto_builds_the_corner_graph_only_where_it_pays() {
    let cases = [
        (plain_context(), 3_000, false),
        (file_context(&trx_favouring_the_graph()), 1_000, true),
    ];
    let pool = navigate::thread_pool(Some(1)).unwrap();
    for (mut ctx, n, pays) in cases {
        let pairs = random_pairs(ctx.nav.mesh(), 45, n);
        assert_eq!(pairs.len(), n);
        let r = precompute(&mut ctx, CornerGraphChoice::Auto, &pairs);
        let e = r.estimate.expect("an optimal batch this long is estimated");
        assert_eq!(e.pays, pays, "{e:?}");
        assert_eq!(r.corner_graph, pays);
        assert!(e.sampled_pairs >= 8 && e.sampled_corners >= 8 && e.sampled_expansions > 0);
        assert!(e.sampled_pairs <= 64 && e.sampled_corners <= 64, "{e:?}");
        // The same counts on a second estimate (no clock in it).
        let again = precompute(&mut ctx, CornerGraphChoice::Auto, &pairs);
        assert_eq!(again.estimate, Some(e));
        let sample: Vec<_> = pairs.iter().step_by(40).copied().collect();
        let mut answers = Vec::new();
        let choices = if pays {
            &[
                CornerGraphChoice::Auto,
                CornerGraphChoice::Yes,
                CornerGraphChoice::No,
            ][..]
        } else {
            &[CornerGraphChoice::Auto, CornerGraphChoice::No][..]
        };
        for &choice in choices {
            // Precomputed for the whole batch, answered on the sample.
            let r = precompute(&mut ctx, choice, &pairs);
            assert_eq!(
                r.corner_graph,
                choice == CornerGraphChoice::Yes || (pays && choice == CornerGraphChoice::Auto)
            );
            let out = pool.install(|| ctx.find_many(&sample));
            assert!(out.iter().all(PathOutcome::found));
            answers.push(out.iter().map(answer).collect::<Vec<_>>());
        }
        for w in answers.windows(2) {
            assert_eq!(w[0], w[1], "{choices:?}");
        }
    }
}

/// A short batch is never estimated, and a fast one never gets the graph under auto.
#[test]
fn short_and_fast_batches_are_not_estimated() {
    let mut ctx = plain_context();
    let pairs = random_pairs(ctx.nav.mesh(), 7, navigate::AUTO_MIN_PAIRS - 1);
    let r = precompute(&mut ctx, CornerGraphChoice::Auto, &pairs);
    assert!(r.estimate.is_none() && !r.corner_graph);
    let mut ctx = file_context(&trx_favouring_the_graph());
    let pairs = random_pairs(ctx.nav.mesh(), 7, 1_000);
    ctx.nav.build_corner_graph(false);
    let p = Precompute::default();
    let r = ctx.precompute_for(p, PathMode::Fast, &pairs);
    assert!(r.estimate.is_none() && !r.corner_graph);
    assert!(
        ctx.precompute_for(p, PathMode::Optimal, &pairs)
            .corner_graph
    );
}

/// The corpus TRX on which the graph pays most clearly (measured with `auto_cost_table`).
fn trx_favouring_the_graph() -> std::path::PathBuf {
    let files = areakit_testkit::corpus_files(&["trx"]);
    files
        .into_iter()
        .find(|f| f.to_string_lossy().ends_with(FAVOURING))
        .expect("the corpus TRX")
}

const FAVOURING: &str = "ud_minotaurs_to_chasm.trx";

/// CPU seconds of this process so far (user and system, every thread; Linux).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // After the command name in parentheses: state is field 3, utime 14, stime 15.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap();
    ticks as f64 / 100.0
}

/// CPU seconds of `choice` on `pairs` (precompute and one-thread batch), the median of
/// `rounds`, each repeated until it has run 0.3 s or more; and the precompute report.
fn measure(
    ctx: &mut PathContext,
    pool: &rayon::ThreadPool,
    choice: CornerGraphChoice,
    pairs: &[(Endpoint, Endpoint)],
) -> (f64, PrecomputeReport) {
    let mut report = PrecomputeReport::default();
    let mut once = |ctx: &mut PathContext| {
        report = precompute(ctx, choice, pairs);
        let out = pool.install(|| ctx.find_many(pairs));
        assert_eq!(out.len(), pairs.len());
    };
    let t = cpu_seconds();
    once(ctx);
    let first = cpu_seconds() - t;
    let reps = (0.3 / first.max(0.005)).ceil().clamp(1.0, 50.0) as usize;
    let t = cpu_seconds();
    for _ in 0..reps {
        once(ctx);
    }
    ((cpu_seconds() - t) / reps as f64, report)
}

#[test]
#[ignore = "a measurement: run in release with --nocapture"]
fn auto_cost_table() {
    let pool = navigate::thread_pool(Some(1)).unwrap();
    let rounds = 3;
    let mut rows: Vec<(String, PathContext, usize)> =
        vec![("open plain".into(), plain_context(), 3_000)];
    for f in areakit_testkit::corpus_files(&["trx"]) {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        rows.push((name, file_context(&f), 1_000));
    }
    println!(
        "| file | triangles | pairs | auto s | yes s | no s | auto chose | auto / best | corners | sweep nodes/corner | expansions/query |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let (mut files, mut missed) = (0, Vec::new());
    for (name, mut ctx, n) in rows {
        let pairs = random_pairs(ctx.nav.mesh(), 45, n);
        if pairs.len() < n {
            println!(
                "| {name} | {} | {} | (too few reachable pairs) |",
                ctx.nav.mesh().triangle_count(),
                pairs.len()
            );
            continue;
        }
        let mut t = [Vec::new(), Vec::new(), Vec::new()];
        let mut est = None;
        for round in 0..rounds {
            for k in 0..3 {
                let side = (round + k) % 3;
                let choice = [
                    CornerGraphChoice::Auto,
                    CornerGraphChoice::Yes,
                    CornerGraphChoice::No,
                ][side];
                let (s, r) = measure(&mut ctx, &pool, choice, &pairs);
                t[side].push(s);
                if side == 0 {
                    est = Some(r);
                }
            }
        }
        let med = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let [a, y, no] = t.map(|mut v| med(&mut v));
        let r = est.unwrap();
        let e = r.estimate.unwrap_or_default();
        let ratio = a / y.min(no);
        files += 1;
        if ratio > 1.25 {
            missed.push(name.clone());
        }
        println!(
            "| {name} | {} | {n} | {a:.3} | {y:.3} | {no:.3} | {} | {ratio:.2} | {} | {:.1} | {:.1} |",
            ctx.nav.mesh().triangle_count(),
            if r.corner_graph { "yes" } else { "no" },
            e.corners,
            e.sampled_sweep_nodes as f64 / e.sampled_corners.max(1) as f64,
            e.sampled_expansions as f64 / e.sampled_pairs.max(1) as f64,
        );
    }
    println!("{files} meshes; over 1.25x the cheaper: {missed:?}");
}

/// The phases apart, for the constants of `navigate::auto`: per mesh the estimate's counts
/// and the CPU seconds of the graph build, the batch over it and the batch on the polygons.
#[test]
#[ignore = "a measurement: run in release with --nocapture"]
fn auto_calibration() {
    let pool = navigate::thread_pool(Some(1)).unwrap();
    let mut rows: Vec<(String, PathContext, usize)> =
        vec![("open plain".into(), plain_context(), 3_000)];
    for f in areakit_testkit::corpus_files(&["trx"]) {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        rows.push((name, file_context(&f), 1_000));
    }
    println!(
        "file\ttris\tpairs\tcorners\tnodes_per_corner\texp_per_query\test_build\test_without\tbuild_s\tyes_batch_s\tno_batch_s\testimate_s"
    );
    for (name, mut ctx, n) in rows {
        let pairs = random_pairs(ctx.nav.mesh(), 45, n);
        if pairs.len() < n {
            continue;
        }
        let r = precompute(&mut ctx, CornerGraphChoice::Auto, &pairs);
        let e = r.estimate.unwrap_or_default();
        let phase = |ctx: &mut PathContext, f: &mut dyn FnMut(&mut PathContext)| {
            let mut v = Vec::new();
            for _ in 0..3 {
                let t0 = cpu_seconds();
                let mut reps = 0;
                while reps == 0 || (cpu_seconds() - t0 < 0.3 && reps < 50) {
                    f(ctx);
                    reps += 1;
                }
                v.push((cpu_seconds() - t0) / f64::from(reps));
            }
            v.sort_by(f64::total_cmp);
            v[1]
        };
        let est = phase(&mut ctx, &mut |c| {
            precompute(c, CornerGraphChoice::Auto, &pairs);
        });
        let build = phase(&mut ctx, &mut |c| {
            precompute(c, CornerGraphChoice::Yes, &pairs);
        });
        let yes = phase(&mut ctx, &mut |c| {
            let _ = pool.install(|| c.find_many(&pairs));
        });
        precompute(&mut ctx, CornerGraphChoice::No, &pairs);
        let no = phase(&mut ctx, &mut |c| {
            let _ = pool.install(|| c.find_many(&pairs));
        });
        println!(
            "{name}\t{}\t{n}\t{}\t{:.1}\t{:.1}\t{:.0}\t{:.0}\t{build:.4}\t{yes:.4}\t{no:.4}\t{est:.4}",
            ctx.nav.mesh().triangle_count(),
            e.corners,
            e.sampled_sweep_nodes as f64 / e.sampled_corners.max(1) as f64,
            e.sampled_expansions as f64 / e.sampled_pairs.max(1) as f64,
            e.build,
            e.without_graph,
        );
    }
}
