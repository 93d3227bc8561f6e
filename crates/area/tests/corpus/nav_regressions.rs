//! Faults found on corpus terrain, each a fixed case judged by the independent oracle in both
//! modes, on the polygons, the triangles and the corner graph (with and without landmarks).

use crate::nav_support::differential::{Built, Plain, answers, build};
use areakit_area::navigation::NavSource;
use areakit_geometry::nav::Searcher;
use areakit_testkit::nav_oracle::{End, Oracle};

fn terrain(name: &str) -> NavSource {
    let f = areakit_testkit::corpus_files(&["trx"])
        .into_iter()
        .find(|f| f.file_name().is_some_and(|n| n == name))
        .unwrap_or_else(|| panic!("no corpus TRX {name}"));
    let t = areakit_formats::trx::read(&std::fs::read(&f).unwrap()).unwrap();
    NavSource::from_trx(t.walkmesh().expect("a walkmesh"), name)
}

/// Locates both points as `areakit path` does (no height hint, snapped within 1 m) and as the
/// oracle does, asks every search and judges the answers; returns the optimal length on the
/// polygons.
fn case(name: &str, a: [f32; 2], b: [f32; 2]) -> f64 {
    let src = terrain(name);
    let vertices: Vec<[f32; 3]> = src.surface.vertices.iter().map(|v| v.to_array()).collect();
    let plain = Plain {
        vertices: &vertices,
        triangles: &src.surface.triangles,
    };
    let built: Built = build(&plain);
    let mesh = &built.set.mesh;
    let (s, t) = (
        mesh.locate_or_snap(a[0], a[1], None, 1.0).unwrap(),
        mesh.locate_or_snap(b[0], b[1], None, 1.0).unwrap(),
    );
    let o = Oracle::new(&vertices, &src.surface.triangles);
    let end = |l: areakit_geometry::nav::Location| End {
        point: [l.point.x, l.point.y],
        triangle: l.triangle,
    };
    // The oracle locates the ends by the documented rule too: an end not moved as asked, a
    // moved one where it was moved to (its height the hint). Both name the same triangle.
    for (l, asked) in [(s, a), (t, b)] {
        let at = if l.snapped > 0.0 {
            o.locate(l.point.x, l.point.y, Some(l.point.z))
        } else {
            o.locate(asked[0], asked[1], None)
        };
        assert_eq!(at, Some(l.triangle), "{name}: {asked:?} located at {l:?}");
    }
    let mut searcher = Searcher::new();
    let (ans, fallbacks) = answers(&built, s, t, &mut searcher);
    let bad = o.judge(end(s), end(t), &ans);
    assert!(bad.is_empty(), "{name}: {bad:#?}");
    assert_eq!(fallbacks, 0, "{name}: fallbacks");
    ans[0].length
}

/// The example: a path round the tip of a crack. The polygon path's walk took the
/// crack's wrong side and failed; the triangles' answer then followed the walk's leftovers:
/// start, corner, start, corner, goal, 48.648 m for 44.888 m.
#[test]
fn ud_lake_to_szith_02_round_a_crack_tip() {
    let d = case(
        "ud_lake_to_szith_02.trx",
        [126.875_72, 78.260_19],
        [150.486_45, 44.953_56],
    );
    assert!((d - 44.8875).abs() < 1e-3, "{d}");
}

/// A ray from the start's turn through a row of grid corners: its interval on the far polygon
/// was cut at a rounded point that fell exactly on the corner the path turns at, but not
/// marked a corner, so the polygon search could not turn there (14.707 m for 13.761 m).
#[test]
fn ud_stone_giants_a_ray_along_grid_corners() {
    let d = case(
        "ud_stone_giants.trx",
        [156.299_99, 184.800_02],
        [166.200_01, 176.700_01],
    );
    assert!((d - 13.7608).abs() < 1e-3, "{d}");
}

/// A goal 2 µm off the ground, snapped onto a point that rounding to `f32` left just outside
/// its triangle: the walks then could not end there (and a fast path cut a corner).
#[test]
fn midwood_caverns_level_2_a_snapped_goal_on_its_triangle() {
    case(
        "midwood caverns level 2.trx",
        [47.600_002, 51.4],
        [57.745_018, 68.923_34],
    );
}

/// A goal on a patch of two triangles laid over the floor, 1.6e-8 m above it: the engine took
/// the patch (its own island), the oracle the floor, so the pair was "not connected" for one
/// and connected for the other. Heights within a millimetre are one floor now, and the larger
/// island's triangle wins (`docs/navigation.md`, "Point location").
#[test]
fn shadowdale_house_moomaiden_a_goal_on_a_patch_over_the_floor() {
    case(
        "shadowdale_house_moomaiden.trx",
        [31.393_017, 68.644_37],
        [5.414_842_6, 11.127_405],
    );
}

/// A goal at the centre of a sliver, which rounding to `f32` left 5 µm off every triangle: it
/// was snapped onto the sliver (an island of its own), whose corner it then stood on, 4.7 cm
/// away, on the floor's triangle. Snapping now measures to where the point ends up and locates
/// it there.
#[test]
fn azatar_tunnels_2_a_goal_snapped_off_a_sliver() {
    case(
        "azatar tunnels 2.trx",
        [125.635_704, 21.397_812],
        [151.586_41, 77.936_74],
    );
}

/// The start on a triangle's corner: the fast path's pull to corners swapped a turn beside it
/// for the start's own vertex, so the path went start, corner, start again, on (found by the
/// ignored 1 000-pair run).
#[test]
fn a_winding_path_a_fast_path_back_through_its_start() {
    case(
        "a winding path.trx",
        [42.017_44, 19.617_441],
        [64.633_33, 29.125_732],
    );
}
