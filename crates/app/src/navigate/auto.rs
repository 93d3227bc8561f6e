//! `--corner-graph auto`: whether building the corner graph pays for a batch, judged by
//! counted search effort, not by a clock, so that the choice is the same on every machine
//! (docs/navigation.md, "When auto builds the corner graph").
//!
//! Two samples, both drawn with fixed seeds, both in one unit (a search node):
//!
//! - some of the batch's own pairs answered on the polygons ([`QUERY_SHARE`] of them, between
//!   [`MIN_QUERY_SAMPLE`] and [`MAX_QUERY_SAMPLE`]), their nodes expanded counted: the batch
//!   without the graph costs `pairs × mean expansions`;
//! - corners swept as the graph build sweeps them (`CornerSample`), their nodes counted,
//!   until [`SWEEP_SHARE`] of the corners (at least [`MIN_SWEEP_SAMPLE`], at most
//!   [`MAX_SWEEP_SAMPLE`]) are swept, or the sweeps have cost [`SWEEP_BUDGET`] of the batch
//!   without the graph, or (after [`MIN_SWEEP_SAMPLE`]) the build is estimated at more than
//!   [`CLEAR`] times what the graph could save: the build costs
//!   `corners × mean sweep nodes × BUILD_WEIGHT`.
//!
//! A query over the graph costs [`WITH_GRAPH`] of the same query on the polygons (their fixed
//! costs, locating and walking, are alike and cancel), so the graph pays when
//! `build + pairs × mean expansions × WITH_GRAPH < pairs × mean expansions`. The samples cost
//! about [`SWEEP_SHARE`] of the build at most, and [`QUERY_SHARE`] + [`SWEEP_BUDGET`] of the
//! batch without the graph (plus one sweep).

use areakit_area::navigation::{AreaNav, PathMode, SearchChoice};
use areakit_geometry::nav::corners::{CornerSample, sample_indices};
use areakit_geometry::nav::{Endpoint, Searcher};

/// A batch of fewer pairs is answered without the graph, unestimated: the samples would cost
/// a large part of it, and no corpus mesh repays the build over so few queries.
pub const AUTO_MIN_PAIRS: usize = 128;

/// The share of the batch's pairs answered for the estimate.
pub const QUERY_SHARE: f64 = 0.05;
/// The fewest pairs answered for the estimate.
pub const MIN_QUERY_SAMPLE: usize = 8;
/// The most pairs answered for the estimate.
pub const MAX_QUERY_SAMPLE: usize = 64;

/// The share of the corners swept for the estimate.
pub const SWEEP_SHARE: f64 = 0.03;
/// The most the estimate's sweeps may cost, as a share of the batch without the graph.
pub const SWEEP_BUDGET: f64 = 0.03;
/// The sweeps stop early once the build is estimated at more than this many times what the
/// graph could save (the answer is clear).
pub const CLEAR: f64 = 4.0;
/// The fewest corners swept (all of them on a mesh with fewer).
pub const MIN_SWEEP_SAMPLE: usize = 8;
/// The most corners swept.
pub const MAX_SWEEP_SAMPLE: usize = 64;

/// The CPU cost of one node of the graph build's sweeps (their sight lists and edges
/// included) in nodes expanded by a query on the polygons: 3.1e-7 s against 2.7e-7 s on the
/// corpus TRX (`crates/app/tests/nav_auto.rs`, `auto_calibration`).
pub const BUILD_WEIGHT: f64 = 1.15;

/// The cost of a query over the graph, less the fixed costs it shares with the same query on
/// the polygons, as a share of that query's expansions (corpus TRX: 0.05 to 0.55 of the
/// whole query where the graph pays).
pub const WITH_GRAPH: f64 = 0.35;

/// The seeds of the two samples.
const SWEEP_SEED: u64 = 0x45c0_7e45;
const QUERY_SEED: u64 = 0x459a_1e45;

/// What `auto` measured and concluded ([`super::PrecomputeReport::estimate`]).
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct CornerGraphEstimate {
    /// Pairs in the batch.
    pub pairs: usize,
    /// Of them, the pairs answered on the polygons for the estimate.
    pub sampled_pairs: usize,
    /// Nodes those queries expanded.
    pub sampled_expansions: u64,
    /// The corners the graph build sweeps from.
    pub corners: usize,
    /// Of them, the corners swept for the estimate (0: the graph was already built).
    pub sampled_corners: usize,
    /// Nodes those sweeps made.
    pub sampled_sweep_nodes: u64,
    /// The estimated cost of the batch on the polygons (in nodes expanded).
    pub without_graph: f64,
    /// The estimated cost of building the graph.
    pub build: f64,
    /// The estimated cost of the batch over the graph, its build included.
    pub with_graph: f64,
    /// Whether the graph pays: `with_graph < without_graph`.
    pub pays: bool,
}

/// Estimates whether building the corner graph pays for optimal queries `batch` on `nav`
/// (searched with the landmarks if `landmarks`, at snap distance `snap`); `built`: the graph
/// is already there (no build to pay for). A batch under [`AUTO_MIN_PAIRS`] is not sampled
/// and does not pay.
pub fn estimate(
    nav: &AreaNav,
    batch: &[(Endpoint, Endpoint)],
    (landmarks, snap): (bool, f32),
    built: bool,
) -> CornerGraphEstimate {
    let mut e = CornerGraphEstimate {
        pairs: batch.len(),
        ..CornerGraphEstimate::default()
    };
    if batch.len() < AUTO_MIN_PAIRS {
        return e;
    }
    let mut searcher = Searcher::new();
    let how = SearchChoice {
        corner_graph: false,
        landmarks,
    };
    let most = share(batch.len(), QUERY_SHARE, MIN_QUERY_SAMPLE, MAX_QUERY_SAMPLE);
    let order = sample_indices(batch.len(), most, QUERY_SEED);
    let mut queries = Stats::default();
    let mut ask = |i: usize, q: &mut Stats| {
        let out = nav.find_by(&mut searcher, batch[i], PathMode::Optimal, how, snap);
        q.add(out.faces_visited as f64);
    };
    let (first, rest) = order.split_at(MIN_QUERY_SAMPLE.min(order.len()));
    for &i in first {
        ask(i, &mut queries);
    }
    let n = batch.len() as f64;
    let sweeps = if built {
        Stats::default()
    } else {
        sample_build(nav, &mut e, queries.mean() * n * (1.0 - WITH_GRAPH))
    };
    let build = |s: &Stats, corners: usize| s.mean() * corners as f64 * BUILD_WEIGHT;
    // More pairs while the samples leave the answer open.
    for &i in rest {
        let saved = queries.mean() * n * (1.0 - WITH_GRAPH);
        let b = build(&sweeps, e.corners);
        let r = queries
            .relative_error(batch.len())
            .hypot(sweeps.relative_error(e.corners));
        if saved * (1.0 - SURE * r) > b || saved * (1.0 + SURE * r) < b {
            break;
        }
        ask(i, &mut queries);
    }
    e.sampled_pairs = queries.count;
    e.sampled_expansions = queries.sum as u64;
    e.without_graph = queries.mean() * n;
    e.build = build(&sweeps, e.corners);
    e.with_graph = e.build + e.without_graph * WITH_GRAPH;
    e.pays = e.with_graph < e.without_graph;
    e
}

/// Sweeps a sample of `nav`'s corners into `e` (module docs; `saved`: what the graph would
/// save on the batch, as first estimated) and returns the sweeps' node counts.
fn sample_build(nav: &AreaNav, e: &mut CornerGraphEstimate, saved: f64) -> Stats {
    let mut s = CornerSample::new(&nav.set.mesh, &nav.set.polygons, SWEEP_SEED);
    e.corners = s.corners();
    let count = share(e.corners, SWEEP_SHARE, MIN_SWEEP_SAMPLE, MAX_SWEEP_SAMPLE);
    let budget = SWEEP_BUDGET * saved / (1.0 - WITH_GRAPH) / BUILD_WEIGHT;
    let mut sweeps = Stats::default();
    while sweeps.count < count && sweeps.sum < budget {
        let Some(nodes) = s.sweep_next() else { break };
        sweeps.add(nodes as f64);
        let build = sweeps.mean() * e.corners as f64 * BUILD_WEIGHT;
        if sweeps.count >= MIN_SWEEP_SAMPLE && build > CLEAR * saved {
            break;
        }
    }
    e.sampled_corners = sweeps.count;
    e.sampled_sweep_nodes = sweeps.sum as u64;
    sweeps
}

/// How many standard errors apart the two estimates must be for the sampling to stop.
const SURE: f64 = 2.0;

/// A sample's count, sum and sum of squares.
#[derive(Debug, Clone, Copy, Default)]
struct Stats {
    count: usize,
    sum: f64,
    squares: f64,
}

impl Stats {
    fn add(&mut self, x: f64) {
        self.count += 1;
        self.sum += x;
        self.squares += x * x;
    }

    fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum / self.count as f64
        }
    }

    /// The standard error of the mean over the mean, for a sample drawn without replacement
    /// from `of` items (0 when all were drawn or the mean is 0; 1 for a single item).
    fn relative_error(&self, of: usize) -> f64 {
        let (k, m) = (self.count as f64, self.mean());
        if self.count >= of || m <= 0.0 {
            return 0.0;
        }
        if self.count < 2 {
            return 1.0;
        }
        let var = ((self.squares - k * m * m) / (k - 1.0)).max(0.0);
        (var / k * (1.0 - k / of as f64)).sqrt() / m
    }
}

/// `share` of `n`, rounded up, within `lo..=hi` and at most `n`.
fn share(n: usize, share: f64, lo: usize, hi: usize) -> usize {
    ((n as f64 * share).ceil() as usize).clamp(lo, hi).min(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_sizes_follow_the_shares_within_their_bounds() {
        assert_eq!(share(128, QUERY_SHARE, 8, 64), 8);
        assert_eq!(share(1_000, QUERY_SHARE, 8, 64), 50);
        assert_eq!(share(100_000, QUERY_SHARE, 8, 64), 64);
        assert_eq!(share(3, SWEEP_SHARE, 8, 64), 3);
        assert_eq!(share(1_000, SWEEP_SHARE, 8, 64), 30);
    }

    #[test]
    fn the_relative_error_shrinks_with_the_sample_and_vanishes_when_whole() {
        let mut s = Stats::default();
        s.add(10.0);
        assert_eq!(s.relative_error(100), 1.0);
        for x in [20.0, 30.0, 40.0] {
            s.add(x);
        }
        // Mean 25, sample deviation 12.91: 12.91 / 2 / 25 with the finite-population factor.
        let want = (500.0f64 / 3.0 / 4.0 * (1.0 - 4.0 / 100.0)).sqrt() / 25.0;
        assert!((s.relative_error(100) - want).abs() < 1e-12);
        assert_eq!(s.relative_error(4), 0.0);
        assert_eq!(Stats::default().relative_error(10), 0.0);
    }
}
