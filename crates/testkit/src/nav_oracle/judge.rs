//! Answers of a path engine judged against the oracle: the properties every answer must have,
//! as plain data, so the geometry, area and application tests share one referee.

use super::{End, Oracle};

/// One answer of the engine for a pair.
#[derive(Debug, Clone)]
pub struct Answer {
    /// How it was asked (mode, data, layer), for the report.
    pub how: String,
    /// What it promises: the shortest path, at most `factor` times it, or a path only.
    pub promise: Promise,
    /// Whether it found a path.
    pub found: bool,
    /// Its plan length.
    pub length: f64,
    /// Its points (`z` on the ground).
    pub points: Vec<[f32; 3]>,
}

/// What an answer promises about its length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Promise {
    /// The shortest (relative 1e-6).
    Shortest,
    /// At most this many times the shortest (relative 1e-6 besides).
    Within(f64),
    /// A path on the ground, never shorter than the shortest.
    Path,
}

/// A property an answer broke.
#[derive(Debug, Clone)]
pub struct Disagreement {
    /// Which property: `found`, `ground`, `length`, `oracle`, `fast`, `bound`.
    pub kind: &'static str,
    /// The answer's `how`.
    pub how: String,
    /// What was seen.
    pub detail: String,
}

/// Relative slack of the length comparisons.
pub const RELATIVE: f64 = 1e-6;

impl Oracle {
    /// Judges the answers for one pair: each is found exactly when the ends are connected,
    /// lies on the ground ([`Oracle::check_path`]) and reports the plan length of its points;
    /// a shortest answer is no longer than any other answer nor than the oracle's shortest
    /// path; a bounded one within its factor of the oracle's; none is shorter than the
    /// oracle's.
    pub fn judge(&self, s: End, t: End, answers: &[Answer]) -> Vec<Disagreement> {
        self.judge_within(s, t, answers, 0.0)
    }

    /// [`Oracle::judge`] with lengths compared up to `slack` besides (units): for answers
    /// whose lengths were rounded (`areakit path --json` writes them to 1e-5).
    pub fn judge_within(
        &self,
        s: End,
        t: End,
        answers: &[Answer],
        slack: f64,
    ) -> Vec<Disagreement> {
        let mut out = Vec::new();
        let mut bad = |kind, a: &Answer, detail: String| {
            out.push(Disagreement {
                kind,
                how: a.how.clone(),
                detail,
            })
        };
        let connected = self.ends_connected(s, t);
        // The answers that found a path on the ground: only those are measured.
        let mut found: Vec<&Answer> = Vec::new();
        for a in answers {
            if a.found != connected {
                bad(
                    "found",
                    a,
                    format!("found {} but connected {connected}", a.found),
                );
            } else if a.found {
                match self.check_path(s, t, &a.points) {
                    Ok(()) => found.push(a),
                    Err(f) => bad("ground", a, format!("{f}: {:?} ({} m)", a.points, a.length)),
                }
                // Each point may be rounded by `slack`: so may each piece's length.
                let plan = plan_length(&a.points);
                if (a.length - plan).abs() > plan * RELATIVE + slack * a.points.len() as f64 {
                    bad(
                        "length",
                        a,
                        format!("{} m reported, its points {plan} m apart", a.length),
                    );
                }
            }
        }
        let Some(longest) = found
            .iter()
            .filter(|a| a.promise != Promise::Path)
            .map(|a| a.length)
            .reduce(f64::max)
        else {
            return out;
        };
        let shortest_answer = found.iter().map(|a| a.length).fold(f64::INFINITY, f64::min);
        // The oracle only has to look below the longest promising answer.
        let below = (longest - slack) / (1.0 + RELATIVE);
        let oracle = self.shortest(s, t, below).map(|r| (r.length, r.points));
        for a in &found {
            let limit = |f: f64, x: f64| f * x * (1.0 + RELATIVE) + slack;
            match a.promise {
                Promise::Shortest => {
                    if a.length > limit(1.0, shortest_answer) {
                        bad(
                            "fast",
                            a,
                            format!("{} m, another answer {shortest_answer} m", a.length),
                        );
                    }
                    if let Some((d, pts)) = &oracle
                        && a.length > limit(1.0, *d)
                    {
                        bad(
                            "oracle",
                            a,
                            format!(
                                "{} m, the oracle {d} m by {pts:?}; it went {:?}",
                                a.length, a.points
                            ),
                        );
                    }
                }
                Promise::Within(f) => {
                    if let Some((d, pts)) = &oracle
                        && a.length > limit(f, *d)
                    {
                        bad(
                            "bound",
                            a,
                            format!("{} m, over {f} × the oracle's {d} m ({pts:?})", a.length),
                        );
                    }
                }
                Promise::Path => {}
            }
            // No answer is shorter than the shortest path (none found below `below`: the
            // shortest is longer).
            let short = a.length * (1.0 + RELATIVE) + slack;
            match &oracle {
                Some((d, pts)) if short < *d => bad(
                    "oracle",
                    a,
                    format!("{} m, shorter than the oracle's {d} m ({pts:?})", a.length),
                ),
                None if short < below => bad(
                    "oracle",
                    a,
                    format!("{} m, shorter than any path the oracle finds", a.length),
                ),
                _ => {}
            }
        }
        out
    }
}

/// The plan length of a polyline.
fn plan_length(points: &[[f32; 3]]) -> f64 {
    points
        .windows(2)
        .map(|w| {
            let d = [
                f64::from(w[1][0]) - f64::from(w[0][0]),
                f64::from(w[1][1]) - f64::from(w[0][1]),
            ];
            d[0].hypot(d[1])
        })
        .sum()
}
