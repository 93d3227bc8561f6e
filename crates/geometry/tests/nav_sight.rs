//! The line-of-sight test (`Searcher::sees`) against the independent oracle's own walk
//! (`areakit_testkit::nav_oracle::Oracle::sees`) on generated ground: mazes, holes, pinches,
//! rings, spirals, levels, coincident vertices, slivers and T-junctions; ends at triangle
//! centres, inside triangles and on their corners.

mod nav_support;

use areakit_geometry::nav::Searcher;
use areakit_testkit::nav_meshes::{self, Rng};
use areakit_testkit::nav_oracle::Oracle;
use nav_support::differential::{Plain, build, located, pairs};

#[test]
fn sight_agrees_with_the_oracle_on_generated_ground() {
    let mut rng = Rng(0x0005_16e7_5ee5);
    let mut searcher = Searcher::new();
    let (mut pairs_seen, mut visible, mut differ) = (0, 0, Vec::new());
    for g in nav_meshes::families(38) {
        let plain = Plain {
            vertices: &g.vertices,
            triangles: &g.triangles,
        };
        let o = Oracle::new(&g.vertices, &g.triangles);
        let mesh = &build(&plain).set.mesh;
        for (s, t) in pairs(&plain, &o, &mut rng, 200) {
            let (a, b) = (located(mesh, s), located(mesh, t));
            let engine = searcher.sees(mesh, a, b);
            let oracle = o.sees(s, t);
            pairs_seen += 1;
            visible += usize::from(oracle);
            if engine != oracle {
                differ.push(format!(
                    "{}: {s:?} -> {t:?}: engine {engine}, oracle {oracle}",
                    g.name
                ));
            }
        }
    }
    eprintln!("sight: {pairs_seen} pairs, {visible} in sight by the oracle");
    assert!(pairs_seen >= 3000, "{pairs_seen} pairs");
    assert!(
        visible * 20 >= pairs_seen,
        "only {visible} pairs in sight: the test is too easy"
    );
    assert!(
        differ.is_empty(),
        "{} of {pairs_seen} differ:\n{}",
        differ.len(),
        differ[..differ.len().min(10)].join("\n")
    );
}
