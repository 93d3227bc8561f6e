//! Every search against the independent oracle (`areakit_testkit::nav_oracle`) on generated
//! ground: mazes, holes, pinches, rings, spirals, levels, coincident vertices, slivers and
//! T-junctions. Each pair is asked in both modes, on the polygons and the triangles, with and
//! without landmarks and the corner graph (with and without sight lists), and every answer is
//! judged: found exactly when the ends are connected, on the ground (no repeated point, no turn
//! but at a boundary corner, no piece off the ground or across a pinch), optimal no longer than
//! fast nor than the oracle, fast over the graph within `FAST_BOUND` of the oracle.

mod nav_support;

use areakit_geometry::nav::Searcher;
use areakit_testkit::nav_meshes::{self, Rng};
use areakit_testkit::nav_oracle::Oracle;
use nav_support::differential::{Plain, Tally, build, pairs};

#[test]
fn every_search_agrees_with_the_oracle_on_generated_ground() {
    let mut rng = Rng(0x5eed_0f0a_c1e5);
    let mut searcher = Searcher::new();
    let mut tally = Tally::default();
    let families = nav_meshes::families(37);
    let meshes = families.len();
    for g in families {
        let plain = Plain {
            vertices: &g.vertices,
            triangles: &g.triangles,
        };
        let o = Oracle::new(&g.vertices, &g.triangles);
        let built = build(&plain);
        for pair in pairs(&plain, &o, &mut rng, 40) {
            tally.pair(&g.name, &o, &built, pair, &mut searcher);
        }
    }
    tally.report("generated");
    assert!(meshes >= 19, "{meshes} generated meshes");
    assert_eq!(tally.pairs, meshes * 40, "pairs judged");
    assert_eq!(tally.disagreements(), 0);
}
