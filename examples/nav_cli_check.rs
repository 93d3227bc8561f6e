//! Judges `areakit path --pairs` answers by the independent oracle (`areakit_testkit::nav_oracle`):
//! `cargo run --release --example nav_cli_check -- GROUND.trx|.wok PAIRS OPTIMAL.jsonl FAST.jsonl [graph]`
//! (`graph`: the fast answers came over the corner graph, `--corner-graph yes`, and are held to
//! its bound)
//! prints the pairs, the repeats (a point twice, a step of no length), the optimal answers
//! longer than fast or than the oracle, and the pairs found where the ground is not connected
//! or missed where it is. Each answer's ends are located on the oracle's ground by the rule of
//! `docs/navigation.md` ("Point location"), written again in the oracle: an end the command
//! did not move as asked (`X,Y[,Z]`, the height the hint), a moved one where the answer says it
//! stands (its height the hint). The JSON's rounded turning points are put back on the
//! vertices they name.

#[path = "../crates/area/tests/corpus/file_links.rs"]
mod file_links;

use areakit_testkit::nav_oracle::{Answer, End, Links, Oracle, Promise};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage =
        "usage: nav_cli_check GROUND PAIRS OPTIMAL.jsonl FAST.jsonl [graph] [versus=OTHER.jsonl]";
    let [_, ground, pairs_file, optimal, fast, rest @ ..] = &args[..] else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let mut graph = false;
    let mut versus: Option<&str> = None;
    for a in rest {
        match a.as_str() {
            "graph" => graph = true,
            v if v.starts_with("versus=") => versus = Some(&v[7..]),
            _ => {
                eprintln!("{usage}");
                std::process::exit(2);
            }
        }
    }
    // A fast answer over the corner graph (`--corner-graph yes`) is within `FAST_BOUND` of
    // the shortest; on the polygons (`auto`, `no`) it promises a path only.
    let fast_promise = if graph {
        Promise::Within(areakit_geometry::nav::FAST_BOUND)
    } else {
        Promise::Path
    };
    // The pairs as asked (exact): an end not moved is that point, not the JSON's rounding.
    let asked: Vec<[([f32; 2], Option<f32>); 2]> = std::fs::read_to_string(pairs_file)
        .expect("the pairs file")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let p: Vec<([f32; 2], Option<f32>)> = l
                .split_whitespace()
                .map(|f| {
                    let c: Vec<f32> = f.split(',').map(|x| x.parse().expect("a number")).collect();
                    ([c[0], c[1]], c.get(2).copied())
                })
                .collect();
            [p[0], p[1]]
        })
        .collect();
    let data = std::fs::read(ground).expect("the ground file");
    let (src, links) = if data.starts_with(b"NWN2") {
        let t = areakit_formats::trx::read(&data).expect("a TRX");
        let w = t.walkmesh().expect("a walkmesh");
        let src = areakit_area::navigation::NavSource::from_trx(w, "t");
        let links = file_links::trx_links(w, &src.faces);
        (src, links)
    } else {
        let b = areakit_formats::bwm::read(&data).expect("a BWM");
        let src = areakit_area::navigation::NavSource::from_bwm(&b, "w");
        let links = file_links::bwm_links(&b, &src.faces);
        (src, links)
    };
    let vertices: Vec<[f32; 3]> = src.surface.vertices.iter().map(|v| v.to_array()).collect();
    // Judged on the file's own links; a disagreement the oracle on the model's rule does not
    // share is the file's (a link finding), not the engine's.
    let o = Oracle::with_links(&vertices, &src.surface.triangles, Links::File(&links));
    let rule = Oracle::new(&vertices, &src.surface.triangles);
    let read = |p: &str| -> Vec<serde_json::Value> {
        std::fs::read_to_string(p)
            .expect("a JSONL file")
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect()
    };
    let (opt, fst) = (read(optimal), read(fast));
    let other = versus.map(read);
    // The JSON rounds coordinates: a turn is put back on the vertex it names (the nearest
    // within a millimetre).
    let key = |x: f32, y: f32| ((x * 1000.0).round() as i64, (y * 1000.0).round() as i64);
    let mut near: std::collections::HashMap<(i64, i64), Vec<[f32; 3]>> = Default::default();
    for v in &vertices {
        near.entry(key(v[0], v[1])).or_default().push(*v);
    }
    let exact = |p: [f32; 3]| -> [f32; 3] {
        let (kx, ky) = key(p[0], p[1]);
        let mut best: Option<(f32, [f32; 3])> = None;
        for dx in -1..=1 {
            for dy in -1..=1 {
                for v in near.get(&(kx + dx, ky + dy)).into_iter().flatten() {
                    let d = (v[0] - p[0]).hypot(v[1] - p[1]);
                    if d < 1e-3 && best.is_none_or(|b| d < b.0) {
                        best = Some((d, [v[0], v[1], p[2]]));
                    }
                }
            }
        }
        best.map_or(p, |b| b.1)
    };
    let point = |v: &serde_json::Value| -> Option<[f32; 3]> {
        let a = v.as_array()?;
        Some([0, 1, 2].map(|k| a[k].as_f64().unwrap_or(0.0) as f32))
    };
    let answer = |v: &serde_json::Value, how: &str, promise| Answer {
        how: how.to_string(),
        promise,
        found: v["found"].as_bool().unwrap_or(false),
        length: v["length"].as_f64().unwrap_or(0.0),
        points: {
            let mut p: Vec<[f32; 3]> = v["points"]
                .as_array()
                .map(|a| a.iter().filter_map(point).collect())
                .unwrap_or_default();
            let n = p.len();
            for q in p.iter_mut().take(n.saturating_sub(1)).skip(1) {
                *q = exact(*q);
            }
            p
        },
    };
    let mut kinds = std::collections::BTreeMap::new();
    let mut link_findings = std::collections::BTreeMap::new();
    let (mut pairs, mut unlocated) = (0usize, 0usize);
    for (i, (a, b)) in opt.iter().zip(&fst).enumerate() {
        pairs += 1;
        let ends = (point(&a["start"]), point(&a["goal"]));
        let (Some(mut s), Some(mut t)) = ends else {
            unlocated += 1;
            continue;
        };
        let moved = |k: usize| a["snapped"].get(k).and_then(|x| x.as_f64()).unwrap_or(0.0) > 0.0;
        // An end not moved is located as asked (with the asked height hint); a moved one where
        // the answer says it stands (its height the hint).
        let hint = |k: usize, p: [f32; 3]| if moved(k) { Some(p[2]) } else { asked[i][k].1 };
        let (hs, ht) = (hint(0, s), hint(1, t));
        if !moved(0) {
            (s[0], s[1]) = (asked[i][0].0[0], asked[i][0].0[1]);
        }
        if !moved(1) {
            (t[0], t[1]) = (asked[i][1].0[0], asked[i][1].0[1]);
        }
        let locate = |p: [f32; 3], z: Option<f32>| {
            o.locate(p[0], p[1], z).map(|tr| End {
                point: [p[0], p[1]],
                triangle: tr,
            })
        };
        let (Some(es), Some(et)) = (locate(s, hs), locate(t, ht)) else {
            unlocated += 1;
            eprintln!("pair {i}: an end not located: {s:?} {t:?}");
            continue;
        };
        let mut ans = [
            answer(a, "optimal", Promise::Shortest),
            answer(b, "fast", fast_promise),
        ];
        // The ends as located (the JSON's are rounded).
        for x in &mut ans {
            let n = x.points.len();
            if n >= 2 {
                x.points[0] = [s[0], s[1], x.points[0][2]];
                x.points[n - 1] = [t[0], t[1], x.points[n - 1][2]];
            }
        }
        // Another answer (the code before a change): a valid polyline shorter than ours.
        if let Some(w) = other.as_ref().and_then(|o| o.get(i)) {
            let mut x = answer(w, "other", Promise::Path);
            let n = x.points.len();
            let ours_missing = !ans[0].found;
            if x.found && n >= 2 && (ours_missing || x.length < ans[0].length - 2e-5) {
                x.points[0] = [s[0], s[1], x.points[0][2]];
                x.points[n - 1] = [t[0], t[1], x.points[n - 1][2]];
                if o.check_path(es, et, &x.points).is_ok() {
                    let k = if ours_missing {
                        "other-found"
                    } else {
                        "other-shorter"
                    };
                    *kinds.entry((k, "optimal".into())).or_insert(0usize) += 1;
                    eprintln!(
                        "pair {i}: a valid answer {} m shorter: {:?}",
                        ans[0].length - x.length,
                        x.points
                    );
                }
            }
        }
        for x in &ans {
            if let Some(k) = passes_an_end(&x.points) {
                *kinds.entry((k, x.how.clone())).or_insert(0usize) += 1;
                eprintln!("pair {i}: {k} [{}]: {:?}", x.how, x.points);
            }
        }
        // The JSON rounds lengths to 1e-5 m.
        let on_links = o.judge_within(es, et, &ans, 2e-5);
        let by_rule = if on_links.is_empty() {
            Vec::new()
        } else {
            rule.judge_within(es, et, &ans, 2e-5)
        };
        for d in on_links {
            if !by_rule.iter().any(|r| r.how == d.how) {
                *link_findings
                    .entry((d.kind, d.how.clone()))
                    .or_insert(0usize) += 1;
                continue;
            }
            *kinds.entry((d.kind, d.how.clone())).or_insert(0usize) += 1;
            if kinds.values().sum::<usize>() <= 5 {
                eprintln!("pair {i}: {} [{}] {}", d.kind, d.how, d.detail);
            }
        }
    }
    println!(
        "{ground}\t{pairs} pairs\t{unlocated} not located\t{kinds:?}\tlink findings {link_findings:?}"
    );
}

/// Whether a path passes through its goal before its last piece (and comes back), or through
/// its start after its first: a piece that holds the end within 0.1 mm (the JSON's rounding).
fn passes_an_end(p: &[[f32; 3]]) -> Option<&'static str> {
    let n = p.len();
    if n < 3 {
        return None;
    }
    let near = |a: [f32; 3], b: [f32; 3], x: [f32; 3]| {
        let (a, b, x) = (
            [f64::from(a[0]), f64::from(a[1])],
            [f64::from(b[0]), f64::from(b[1])],
            [f64::from(x[0]), f64::from(x[1])],
        );
        let d = [b[0] - a[0], b[1] - a[1]];
        let dd = d[0] * d[0] + d[1] * d[1];
        let u = if dd > 0.0 {
            (((x[0] - a[0]) * d[0] + (x[1] - a[1]) * d[1]) / dd).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (a[0] + d[0] * u - x[0]).hypot(a[1] + d[1] * u - x[1]) < 1e-4
    };
    if (0..n - 2).any(|i| near(p[i], p[i + 1], p[n - 1])) {
        return Some("passes-goal");
    }
    if (1..n - 1).any(|i| near(p[i], p[i + 1], p[0])) {
        return Some("passes-start");
    }
    None
}
