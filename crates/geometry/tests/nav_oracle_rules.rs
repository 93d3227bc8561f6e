//! The oracle's location and adjacency are its own: fed an engine that follows a deliberately
//! wrong rule (ground joined where positions coincide, a point put on the lower floor), the
//! oracle disagrees; fed the engine as it is, it agrees. And where a file's own links differ
//! from the model's rule, an oracle on those links says so.

mod nav_support;

use areakit_geometry::Vec3;
use areakit_geometry::nav::Location;
use areakit_testkit::nav_oracle::{End, Links, NO_LINK, Oracle};
use nav_support::differential::{Built, Plain, answers, build};

/// Two unit squares side by side (x 0–1 and 1–2), each two triangles, with vertices of their
/// own along x = 1: the file links each square's triangles to each other and nothing across.
/// Vertices, triangles and the file's links.
type Ground = (Vec<[f32; 3]>, Vec<[u32; 3]>, Vec<[u32; 3]>);

fn cracked() -> Ground {
    let v = vec![
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [2.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ];
    let t = vec![[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]];
    let links = vec![
        [1, NO_LINK, NO_LINK],
        [0, NO_LINK, NO_LINK],
        [3, NO_LINK, NO_LINK],
        [2, NO_LINK, NO_LINK],
    ];
    (v, t, links)
}

/// The cracked squares' triangles with the vertices along x = 1 shared (4 → 1, 7 → 2).
fn welded(t: &[[u32; 3]]) -> Vec<[u32; 3]> {
    t.iter()
        .map(|tri| tri.map(|i| [0, 1, 2, 3, 1, 5, 6, 2][i as usize]))
        .collect()
}

fn built(v: &[[f32; 3]], t: &[[u32; 3]]) -> Built {
    build(&Plain {
        vertices: v,
        triangles: t,
    })
}

fn at(b: &Built, triangle: u32, p: [f32; 2]) -> Location {
    let z = b.set.mesh.height_in(triangle, p[0], p[1]).unwrap();
    Location {
        triangle,
        point: Vec3::new(p[0], p[1], z),
        snapped: 0.0,
    }
}

fn end(triangle: u32, point: [f32; 2]) -> End {
    End { point, triangle }
}

#[test]
fn an_engine_joining_coincident_positions_is_caught() {
    let (v, t, links) = cracked();
    let o = Oracle::with_links(&v, &t, Links::File(&links));
    assert_eq!(o.link_findings().joined, 2);
    let (s, g) = ([0.5, 0.5], [1.5, 0.5]);
    // The wrong rule: vertices at one position are one vertex (4 → 1, 7 → 2).
    let welded = welded(&t);
    let wrong = built(&v, &welded);
    let mut searcher = areakit_geometry::nav::Searcher::new();
    let (ans, _) = answers(&wrong, at(&wrong, 0, s), at(&wrong, 2, g), &mut searcher);
    assert!(
        ans.iter().all(|a| a.found),
        "the welded ground joins the squares"
    );
    let bad = o.judge(end(0, s), end(2, g), &ans);
    assert_eq!(
        bad.len(),
        ans.len(),
        "every answer judged found on unjoined ground: {bad:?}"
    );
    assert!(bad.iter().all(|d| d.kind == "found"), "{bad:?}");
    // The engine as it is joins nothing by position: it agrees.
    let right = built(&v, &t);
    let (ans, _) = answers(&right, at(&right, 0, s), at(&right, 2, g), &mut searcher);
    assert!(ans.iter().all(|a| !a.found));
    assert!(o.judge(end(0, s), end(2, g), &ans).is_empty());
}

#[test]
fn a_file_that_leaves_a_shared_edge_unlinked_is_a_finding() {
    // The squares share the vertices along x = 1, but the file links nothing across.
    let (v, t, links) = cracked();
    let shared = welded(&t);
    let o = Oracle::with_links(&v, &shared, Links::File(&links));
    assert_eq!(
        o.link_findings().unlinked_shared,
        1,
        "{:?}",
        o.link_findings()
    );
    let rule = Oracle::new(&v, &shared);
    let (s, g) = (end(0, [0.5, 0.5]), end(2, [1.5, 0.5]));
    assert!(rule.sees(s, g), "the rule joins the squares");
    assert!(
        !o.sees(s, g) && !o.ends_connected(s, g),
        "the file does not"
    );
}

/// A floor at height 0 (x 0–4) and a balcony at 3 over x 0–2, not joined to it.
fn floor_and_balcony() -> (Vec<[f32; 3]>, Vec<[u32; 3]>) {
    let v = vec![
        [0.0, 0.0, 0.0],
        [4.0, 0.0, 0.0],
        [4.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 3.0],
        [2.0, 0.0, 3.0],
        [2.0, 1.0, 3.0],
        [0.0, 1.0, 3.0],
    ];
    (v, vec![[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]])
}

#[test]
fn an_engine_putting_a_point_on_the_lower_floor_is_caught() {
    let (v, t) = floor_and_balcony();
    let o = Oracle::new(&v, &t);
    let b = built(&v, &t);
    let (s, g) = ([1.0, 0.4], [3.5, 0.5]);
    // Without a height hint, the oracle's own rule puts the start on the balcony.
    let top = o.locate(s[0], s[1], None).unwrap();
    assert!(top >= 2, "{top}");
    assert_eq!(b.set.mesh.locate(s[0], s[1], None).unwrap().triangle, top);
    // The wrong rule: the lowest floor. Its answers walk the floor to the goal.
    let low = [0u32, 1]
        .into_iter()
        .find(|&t| o.holds(t, s))
        .expect("a floor triangle under the start");
    assert!(!o.stands(top, s).contains(&low));
    let gt = [0u32, 1].into_iter().find(|&t| o.holds(t, g)).unwrap();
    let mut searcher = areakit_geometry::nav::Searcher::new();
    let (ans, _) = answers(&b, at(&b, low, s), at(&b, gt, g), &mut searcher);
    assert!(ans.iter().all(|a| a.found));
    let bad = o.judge(end(top, s), end(gt, g), &ans);
    assert_eq!(bad.len(), ans.len(), "{bad:?}");
    // The engine's own location: no path (the balcony is an island), as the oracle says.
    let (ans, _) = answers(&b, at(&b, top, s), at(&b, gt, g), &mut searcher);
    assert!(ans.iter().all(|a| !a.found));
    assert!(o.judge(end(top, s), end(gt, g), &ans).is_empty());
}

#[test]
fn ground_laid_twice_is_stood_on_whole() {
    // The floor again, and a patch over part of it 0.5 mm up (one floor, an island of its
    // own): a point on the patch stands on both.
    let (mut v, t) = floor_and_balcony();
    for p in &mut v[4..] {
        p[2] = 0.0005;
    }
    let o = Oracle::new(&v, &t);
    let b = built(&v, &t);
    let s = [1.0, 0.4];
    let l = b.set.mesh.locate(s[0], s[1], None).unwrap();
    let mut on = Vec::new();
    b.set.mesh.standing(&l, &mut on);
    on.sort_unstable();
    let top = o.locate(s[0], s[1], None).unwrap();
    assert_eq!(
        on,
        o.stands(top, s),
        "engine and oracle stand the point on the same triangles"
    );
    assert_eq!(on.len(), 2);
    let g = [3.5, 0.5];
    let gt = [0u32, 1].into_iter().find(|&t| o.holds(t, g)).unwrap();
    let mut searcher = areakit_geometry::nav::Searcher::new();
    let (ans, _) = answers(&b, l, at(&b, gt, g), &mut searcher);
    assert!(
        ans.iter().all(|a| a.found),
        "from the patch onto the floor it lies on"
    );
    assert!(o.judge(end(top, s), end(gt, g), &ans).is_empty());
}

#[test]
fn an_engine_given_the_files_links_walks_by_them() {
    // The squares share the vertices along x = 1; the file links nothing across (a crack).
    let (v, t, links) = cracked();
    let shared = welded(&t);
    let o = Oracle::with_links(&v, &shared, Links::File(&links));
    let plain = Plain {
        vertices: &v,
        triangles: &shared,
    };
    let (s, g) = ([0.5, 0.5], [1.5, 0.5]);
    let mut searcher = areakit_geometry::nav::Searcher::new();
    let on_links = nav_support::differential::build_linked(&plain, &links);
    let (ans, _) = answers(
        &on_links,
        at(&on_links, 0, s),
        at(&on_links, 2, g),
        &mut searcher,
    );
    assert!(ans.iter().all(|a| !a.found), "the crack holds");
    assert!(o.judge(end(0, s), end(2, g), &ans).is_empty());
    // Linked across as well (both ways): one ground again, straight across.
    let mut joined = links.clone();
    joined[0][1] = 3;
    joined[3][1] = 0;
    let across = nav_support::differential::build_linked(&plain, &joined);
    let (ans, _) = answers(&across, at(&across, 0, s), at(&across, 2, g), &mut searcher);
    assert!(
        ans.iter().all(|a| a.found && (a.length - 1.0).abs() < 1e-6),
        "{ans:?}"
    );
    let o = Oracle::with_links(&v, &shared, Links::File(&joined));
    assert!(o.judge(end(0, s), end(2, g), &ans).is_empty());
    // Named one way only: no link.
    joined[3][1] = NO_LINK;
    let one_way = nav_support::differential::build_linked(&plain, &joined);
    let (ans, _) = answers(
        &one_way,
        at(&one_way, 0, s),
        at(&one_way, 2, g),
        &mut searcher,
    );
    assert!(ans.iter().all(|a| !a.found));
}
