//! Properties of the optimal search (proptest): path(a, b) and path(b, a) have equal lengths;
//! path(a, a) has length 0; a domain cut in two regions (the second with its own vertices and
//! T-junctions along the cut) and stitched gives the lengths of the uncut domain.

mod nav_support;

use areakit_geometry::Vec3;
use areakit_geometry::nav::{Mode, NavSet, Path, Request, Searcher, Surface, stitch};
use nav_support::*;
use proptest::prelude::*;

fn optimal() -> Request {
    Request {
        mode: Mode::Optimal,
        ..Request::default()
    }
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-5 * a.abs().max(b.abs()).max(1.0)
}

/// A jittered grid of `nx` × `ny` cells (seam column `cut` kept straight: its vertices have
/// x = `cut` exactly), `holes` single cells removed away from the cut. Returns the uncut
/// surface and the cut one: cells left of `cut` in region 0 with the grid's vertices, cells
/// right of it in region 1 with their own vertices, the cells along the cut split with a
/// vertex in the middle of their left edge (a T-junction against region 0).
fn cut_domain(seed: u64, nx: usize, ny: usize, cut: usize, holes: usize) -> (Surface, Surface) {
    let mut rng = Rng(seed | 1);
    let mut pos = Vec::new();
    for j in 0..=ny {
        for i in 0..=nx {
            let jx = if i == cut || i == 0 || i == nx {
                0.0
            } else {
                (rng.unit() - 0.5) * 0.4
            };
            let jy = if j == 0 || j == ny {
                0.0
            } else {
                (rng.unit() - 0.5) * 0.4
            };
            pos.push(Vec3::new(
                (i as f64 + jx) as f32,
                (j as f64 + jy) as f32,
                0.0,
            ));
        }
    }
    let mut removed = vec![false; nx * ny];
    for _ in 0..holes {
        let i = rng.below(nx as u64) as usize;
        let j = 1 + rng.below((ny - 2) as u64) as usize;
        if i + 1 < cut || i > cut + 1 {
            removed[j * nx + i] = true;
        }
    }
    let idx = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    let mut whole = Surface {
        vertices: pos.clone(),
        ..Surface::default()
    };
    let mut split = Surface {
        vertices: pos.clone(),
        ..Surface::default()
    };
    // Region 1's own copies of the vertices at i >= cut.
    let mut copy = vec![u32::MAX; pos.len()];
    for j in 0..=ny {
        for i in cut..=nx {
            copy[idx(i, j) as usize] = split.vertices.len() as u32;
            split.vertices.push(pos[idx(i, j) as usize]);
        }
    }
    for j in 0..ny {
        for i in 0..nx {
            if removed[j * nx + i] {
                continue;
            }
            let (a, b, c, d) = (idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1));
            let diag = (i * 7 + j * 3) % 2 == 0;
            let pair = if diag {
                [[a, b, c], [a, c, d]]
            } else {
                [[a, b, d], [b, c, d]]
            };
            whole.triangles.extend(pair);
            whole.regions.extend([0, 0]);
            if i < cut {
                split.triangles.extend(pair);
                split.regions.extend([0, 0]);
            } else if i == cut {
                let [a, b, c, d] = [a, b, c, d].map(|v| copy[v as usize]);
                let m = split.vertices.len() as u32;
                let (pa, pd) = (split.vertices[a as usize], split.vertices[d as usize]);
                split
                    .vertices
                    .push(Vec3::new(pa.x, (pa.y + pd.y) * 0.5, 0.0));
                split.triangles.extend([[a, b, m], [m, b, c], [m, c, d]]);
                split.regions.extend([1, 1, 1]);
            } else {
                split
                    .triangles
                    .extend(pair.map(|t| t.map(|v| copy[v as usize])));
                split.regions.extend([1, 1]);
            }
        }
    }
    (whole, split)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn symmetric_and_zero(seed in any::<u64>(), nx in 4usize..9, ny in 4usize..9, holes in 0usize..5) {
        let mut rng = Rng(seed | 1);
        let s = grid_domain(&mut rng, nx, ny, holes, 0.25, seed % 2 == 0, |x, y| 0.3 * (x * 0.7).sin() + 0.1 * y);
        let mesh_set = NavSet::build(&s).unwrap();
        let mut q = Searcher::new();
        let mut p = Path::default();
        for _ in 0..6 {
            let (_, a) = random_point(&mut rng, &s);
            let (_, b) = random_point(&mut rng, &s);
            q.find_path_into(&mesh_set.data(), a, b, &optimal(), &mut p).unwrap();
            let ab = p.length_plan;
            q.find_path_into(&mesh_set.data(), b, a, &optimal(), &mut p).unwrap();
            prop_assert!(close(ab, p.length_plan), "{} vs {}", ab, p.length_plan);
            q.find_path_into(&mesh_set.data(), a, a, &optimal(), &mut p).unwrap();
            prop_assert_eq!(p.length_plan, 0.0);
            prop_assert_eq!(p.points.len(), 2);
        }
    }

    #[test]
    fn stitched_halves_match_the_whole(seed in any::<u64>(), nx in 4usize..10, ny in 4usize..9, holes in 0usize..6) {
        let cut = nx / 2;
        let (whole, split) = cut_domain(seed, nx, ny, cut, holes);
        let st = stitch(&split, 1e-4).unwrap();
        prop_assert_eq!(st.seams.len(), 1);
        prop_assert_eq!(st.seams[0].regions, [0, 1]);
        prop_assert!((st.seams[0].length - ny as f32).abs() < 1e-4, "seam length {}", st.seams[0].length);
        // One triangle of region 0 per row has its edge on the cut split at the middle vertex.
        prop_assert_eq!(st.split_triangles, ny);
        let a_mesh_set = NavSet::build(&whole).unwrap();
        let a_mesh = &a_mesh_set.mesh;
        // Holes may cut the whole in two (then there is nothing to compare across the cut).
        prop_assume!(a_mesh.islands().len() == 1);
        let b_mesh_set = NavSet::build(&st.surface).unwrap();
        let b_mesh = &b_mesh_set.mesh;
        prop_assert_eq!(b_mesh.islands().len(), 1);
        let mut rng = Rng(seed.rotate_left(17) | 1);
        let mut q = Searcher::new();
        let mut p = Path::default();
        for _ in 0..6 {
            let (_, a) = random_point(&mut rng, &whole);
            let (_, b) = random_point(&mut rng, &whole);
            q.find_path_into(&a_mesh_set.data(), a, b, &optimal(), &mut p).unwrap();
            let want = p.length_plan;
            q.find_path_into(&b_mesh_set.data(), a, b, &optimal(), &mut p).unwrap();
            prop_assert!(close(want, p.length_plan), "whole {} stitched {}", want, p.length_plan);
            check_on_ground(b_mesh, &p, 0.05).map_err(TestCaseError::fail)?;
        }
    }
}

/// `path_along` over the corridor a fast search chose gives the fast search's points (the same
/// funnel), and rejects a corridor that does not step between neighbours.
#[test]
fn path_along_a_fast_corridor_equals_fast() {
    let (whole, _) = cut_domain(7, 12, 9, 6, 10);
    let mesh_set = NavSet::build(&whole).unwrap();
    let mesh = &mesh_set.mesh;
    let mut s = Searcher::new();
    let fast = Request {
        mode: Mode::Fast,
        ..Request::default()
    };
    let mut compared = 0;
    for (a, b) in [
        ((0.3, 0.4), (11.6, 8.5)),
        ((0.5, 8.5), (11.5, 0.5)),
        ((6.1, 0.2), (5.9, 8.8)),
    ] {
        let (from, to) = (
            areakit_geometry::nav::Endpoint::plan(a.0, a.1),
            areakit_geometry::nav::Endpoint::plan(b.0, b.1),
        );
        let Ok(p) = s.find_path(&mesh_set.data(), from, to, &fast) else {
            continue;
        };
        let start = mesh.locate(a.0, a.1, None).unwrap();
        let goal = mesh.locate(b.0, b.1, None).unwrap();
        let mut q = Path::default();
        s.path_along(mesh, start, goal, &p.triangles, &mut q)
            .unwrap();
        assert_eq!(q.points, p.points);
        assert!(close(q.length_plan, p.length_plan));
        assert_eq!(q.expanded, p.triangles.len());
        if p.triangles.len() > 2 {
            let mut broken = p.triangles.clone();
            broken.remove(1);
            assert!(s.path_along(mesh, start, goal, &broken, &mut q).is_err());
        }
        compared += 1;
    }
    assert!(compared >= 2, "only {compared} pairs compared");
}
