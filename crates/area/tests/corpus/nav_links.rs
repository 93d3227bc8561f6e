//! The oracle's adjacency from the files' own links against the model's rule (shared vertex
//! indices in opposite directions), on every corpus TRX and WOK: what the files link that the
//! rule does not join and the other way round (`docs/navigation.md`, "Adjacency").

use crate::nav_differential::corpus_ground;
use areakit_testkit::nav_oracle::{LinkFindings, Links, Oracle};

/// Per file: its name, how its links differ from the rule, and its pinches (on its links).
fn findings(format: &str) -> Vec<(String, LinkFindings, usize)> {
    corpus_ground(format)
        .into_iter()
        .map(|(name, src, links)| {
            let vertices: Vec<[f32; 3]> =
                src.surface.vertices.iter().map(|v| v.to_array()).collect();
            let o = Oracle::with_links(&vertices, &src.surface.triangles, Links::File(&links));
            (name, o.link_findings().clone(), o.pinches())
        })
        .collect()
}

/// Every corpus TRX names its links both ways and over an edge both triangles share by vertex
/// index; the file and the rule differ on folds (both triangles on one side of the shared
/// edge), links to vertical triangles, and a few edges per file: cracks the file leaves
/// unlinked where the rule joins, and edges of three or more triangles paired otherwise. Every
/// corpus WOK but one (`out.wok`, a KotOR walkmesh of an area exported whole) agrees with the
/// rule but for a fold. The counts are `docs/navigation.md`'s ("Adjacency").
#[test]
fn file_links_against_the_rule() {
    let trx = findings("trx");
    assert_eq!(trx.len(), 61, "corpus TRX files with walkable ground");
    let mut sum = LinkFindings::default();
    let pinched: Vec<&str> = trx
        .iter()
        .filter(|x| x.2 > 0)
        .map(|x| x.0.as_str())
        .collect();
    let pinches: usize = trx.iter().map(|x| x.2).sum();
    eprintln!("trx: {} files with {pinches} pinches", pinched.len());
    assert!(pinches > 0, "the docs cite TRX pinches");
    for (name, f, _) in &trx {
        assert_eq!(
            (f.one_way, f.no_shared_edge, f.dangling),
            (0, 0, 0),
            "{name}: {f:?}"
        );
        let differ = f.unlinked_shared + f.joined_otherwise;
        assert!(differ * 100 <= f.joined, "{name}: {f:?}");
        add(&mut sum, f);
    }
    eprintln!("trx: {} files: {sum:?}", trx.len());
    let flipped: Vec<(&str, usize)> = trx
        .iter()
        .filter(|x| x.1.slivers_flipped > 0)
        .map(|x| (x.0.as_str(), x.1.slivers_flipped))
        .collect();
    eprintln!(
        "trx: slivers flipped in {} files: {flipped:?}",
        flipped.len()
    );
    assert!(
        sum.folds > 0 && sum.unlinked_shared > 0,
        "the findings the docs cite: {sum:?}"
    );
    let wok = findings("wok");
    assert_eq!(wok.len(), 108, "corpus WOK files with walkable ground");
    let mut sum = LinkFindings::default();
    let pinched = wok.iter().filter(|x| x.2 > 0).count();
    let pinches: usize = wok.iter().map(|x| x.2).sum();
    eprintln!("wok: {pinched} files with {pinches} pinches");
    for (name, f, _) in &wok {
        if name != "out.wok" {
            assert_eq!(
                (
                    f.one_way,
                    f.no_shared_edge,
                    f.unlinked_shared,
                    f.joined_otherwise
                ),
                (0, 0, 0, 0),
                "{name}: {f:?}"
            );
        }
        add(&mut sum, f);
    }
    eprintln!("wok: {} files: {sum:?}", wok.len());
}

fn add(sum: &mut LinkFindings, f: &LinkFindings) {
    sum.joined += f.joined;
    sum.folds += f.folds;
    sum.one_way += f.one_way;
    sum.no_shared_edge += f.no_shared_edge;
    sum.to_flat += f.to_flat;
    sum.dangling += f.dangling;
    sum.unlinked_shared += f.unlinked_shared;
    sum.joined_otherwise += f.joined_otherwise;
    sum.slivers_flipped += f.slivers_flipped;
}
