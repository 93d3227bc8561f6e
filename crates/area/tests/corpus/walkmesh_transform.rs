//! Transforms: exact inverses, rebuilt data that checks clean, queries that agree with brute
//! force; and on the corpus, `rotate 90` then `rotate -90` equals `rebuild` byte for byte.

use areakit_area::walkmesh::{self, QueryMesh, check_bwm, transform};
use areakit_formats::Severity;
use areakit_formats::bwm::{self, Bwm, Face, Material};
use areakit_geometry::query::{FaceFilter, brute};
use areakit_geometry::transform::{Axis, Transform};
use proptest::prelude::*;

#[test]
fn corpus_rotate_90_and_back_equals_rebuild() {
    let files = areakit_testkit::corpus_files(&["wok", "bwm", "pwk"]);
    assert_eq!(files.len(), 112);
    let mut covered = 0;
    for path in &files {
        let m = bwm::read(&std::fs::read(path).unwrap()).unwrap();
        let there = transform(&m, &[Transform::RotateZ(90.0)], &[]).unwrap();
        let back = transform(&there, &[Transform::RotateZ(-90.0)], &[]).unwrap();
        let want = bwm::write(&walkmesh::rebuild(&m).unwrap()).unwrap();
        assert!(bwm::write(&back).unwrap() == want, "{}", path.display());
        // Mirror twice too.
        let mm = transform(
            &m,
            &[Transform::Mirror(Axis::X), Transform::Mirror(Axis::X)],
            &[],
        )
        .unwrap();
        assert!(bwm::write(&mm).unwrap() == want, "{}", path.display());
        covered += 1;
    }
    assert_eq!(covered, 112);
}

/// A grid walkmesh: `nx * ny` quads, random heights, a few non-walkable cells, transitions on
/// some border edges.
fn grid(nx: usize, ny: usize, heights: &[f32], blocked: &[bool], scale: f32) -> Bwm {
    let mut b = Bwm::default();
    for j in 0..=ny {
        for i in 0..=nx {
            let h = heights[(j * (nx + 1) + i) % heights.len()];
            b.vertices.push([i as f32 * scale, j as f32 * scale, h]);
        }
    }
    let v = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    for j in 0..ny {
        for i in 0..nx {
            let mat = if blocked[(j * nx + i) % blocked.len()] {
                Material::NonWalk
            } else {
                Material::Stone
            };
            b.faces.push(Face {
                vertices: [v(i, j), v(i + 1, j), v(i + 1, j + 1)],
                material: mat,
            });
            b.faces.push(Face {
                vertices: [v(i, j), v(i + 1, j + 1), v(i, j + 1)],
                material: mat,
            });
        }
    }
    b.normals = vec![[0.0; 3]; b.faces.len()];
    b.distances = vec![0.0; b.faces.len()];
    let mut r = walkmesh::rebuild(&b).unwrap();
    // Transitions on the first boundary edges.
    for (k, e) in r.edges.iter_mut().enumerate() {
        if k % 5 == 0 {
            e.transition = (k % 2) as i32;
        }
    }
    r
}

fn transform_strategy() -> impl Strategy<Value = Transform> {
    prop_oneof![
        (-3i32..4).prop_map(|q| Transform::RotateZ(f64::from(q) * 90.0)),
        Just(Transform::Mirror(Axis::X)),
        Just(Transform::Mirror(Axis::Y)),
        // Translations by multiples of 1/4 stay exact for these coordinates.
        (-40i32..40, -40i32..40, -8i32..8).prop_map(|(x, y, z)| Transform::Translate([
            x as f32 * 0.25,
            y as f32 * 0.25,
            z as f32 * 0.25
        ])),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn transform_then_inverse_is_identity(
        nx in 1usize..6, ny in 1usize..6,
        heights in prop::collection::vec(-4i32..4, 1..20),
        blocked in prop::collection::vec(prop::bool::weighted(0.2), 1..10),
        steps in prop::collection::vec(transform_strategy(), 1..5),
        px in 0.0f32..1.0, py in 0.0f32..1.0,
    ) {
        let heights: Vec<f32> = heights.iter().map(|h| *h as f32 * 0.125).collect();
        let m = grid(nx, ny, &heights, &blocked, 1.5);
        let there = transform(&m, &steps, &[]).unwrap();
        let inverse: Vec<Transform> = steps.iter().rev().map(|t| t.inverse()).collect();
        let back = transform(&there, &inverse, &[]).unwrap();
        // Same mesh (compared by value: a zero may come back as -0.0).
        prop_assert_eq!(&back, &walkmesh::rebuild(&m).unwrap());

        // Rebuilt data checks without errors or structural warnings.
        for f in check_bwm(&there) {
            prop_assert!(f.severity != Severity::Error, "{:?}", f);
            prop_assert!(!f.code.starts_with("bwm-aabb") && !f.code.starts_with("bwm-edge") && !f.code.starts_with("bwm-perimeter") && !f.code.starts_with("bwm-adjacency"), "{:?}", f);
        }
        // Transitions survive (mirrors move them to the renamed edges).
        let count = |b: &Bwm| b.edges.iter().filter(|e| e.transition >= 0).count();
        prop_assert_eq!(count(&there), count(&m));

        // Queries agree with brute force on the transformed mesh.
        let q = QueryMesh::new(&there).unwrap();
        let loc = q.locator();
        let (lo, hi) = there.bounds().unwrap();
        let x = lo[0] + (hi[0] - lo[0]) * px;
        let y = lo[1] + (hi[1] - lo[1]) * py;
        prop_assert_eq!(loc.face_at(x, y, None, FaceFilter::All), brute::face_at(&q.mesh, x, y, None, FaceFilter::All));
        prop_assert_eq!(loc.ray([x, y, 50.0], [0.0, 0.0, -1.0], FaceFilter::All), brute::ray(&q.mesh, [x, y, 50.0], [0.0, 0.0, -1.0], FaceFilter::All));
        prop_assert_eq!(loc.nearest_walkable([x, y, 3.0]), brute::nearest_walkable(&q.mesh, [x, y, 3.0]));
    }
}

#[test]
fn remap_transitions() {
    let m = grid(3, 2, &[0.0], &[false], 1.0);
    let before: Vec<i32> = m.edges.iter().map(|e| e.transition).collect();
    assert!(before.contains(&0) && before.contains(&1));
    let r = transform(&m, &[], &walkmesh::parse_remap("0=7,1=none").unwrap()).unwrap();
    let after: Vec<i32> = r.edges.iter().map(|e| e.transition).collect();
    let expect: Vec<i32> = before
        .iter()
        .map(|&t| match t {
            0 => 7,
            1 => -1,
            t => t,
        })
        .collect();
    assert_eq!(after, expect);
    assert!(walkmesh::parse_remap("x=1").is_err());
    assert!(walkmesh::parse_remap("1=-3").is_err());
}

#[test]
fn rotate_90_is_exact_and_mirror_keeps_normals_up() {
    let m = grid(2, 2, &[0.5, 0.25], &[false], 1.0);
    let r = transform(&m, &[Transform::RotateZ(90.0)], &[]).unwrap();
    for (a, b) in m.vertices.iter().zip(&r.vertices) {
        assert_eq!([-a[1], a[0], a[2]], *b);
    }
    let mx = transform(&m, &[Transform::Mirror(Axis::X)], &[]).unwrap();
    assert!(mx.normals.iter().all(|n| n[2] > 0.0));
}
