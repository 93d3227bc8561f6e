//! Properties shared by the walkmesh fuzz targets (included with `#[path]`).

use areakit_app::formats::{Severity, bwm};
use areakit_app::geometry::query::{FaceFilter, brute};
use areakit_app::geometry::transform::Transform;
use areakit_app::walkmesh;

/// Rays through the tree (stored when usable, else built) equal brute force: fixed rays, and
/// rays from each of the first vertices towards the next one (along edges: the hard cases).
/// Asserted where coordinates are below 1e6: there the double-precision slab tests err by far
/// less than the margin a hit must keep inside its boxes; at ~1e34 a face 1e-12 wide is below
/// the resolution of a ray parameter (found by this target), and only "no panic" holds.
pub fn rays_agree(q: &walkmesh::QueryMesh) {
    let loc = q.locator();
    let v = &q.mesh.vertices;
    let sane = v.iter().flatten().all(|c| c.abs() < 1.0e6);
    let mut rays = vec![
        ([0.0, 0.0, 100.0], [0.0, 0.0, -1.0]),
        ([0.0, 0.0, 0.0], [1.0, 0.5, -0.25]),
    ];
    for w in v.windows(2).take(8) {
        rays.push((
            w[0],
            [w[1][0] - w[0][0], w[1][1] - w[0][1], w[1][2] - w[0][2]],
        ));
    }
    for (o, d) in rays {
        for filter in [FaceFilter::All, FaceFilter::Walkable] {
            let (tree, brute) = (loc.ray(o, d, filter), brute::ray(&q.mesh, o, d, filter));
            if sane {
                assert_eq!(tree, brute, "ray {o:?} {d:?}");
            }
        }
    }
}

/// Everything the targets assert of a walkmesh the reader (or the generator) produced: checks,
/// the SVG map, queries and transforms never panic; rays through the tree equal brute force;
/// a rebuilt walkmesh encodes, decodes, rebuilds to the same bytes, and has no error finding
/// but open perimeters of non-manifold input.
pub fn walkmesh_properties(mesh: &bwm::Bwm) {
    let _ = walkmesh::check_bwm(mesh);
    let _ = areakit_app::render::render_bwm_svg(mesh, &[]);
    if let Ok(q) = walkmesh::QueryMesh::new(mesh) {
        for (x, y) in [(0.0, 0.0), (1.5, -2.25), (100.0, 100.0)] {
            let _ = q.at(x, y, None);
            let _ = q.at(x, y, Some(0.5));
        }
        rays_agree(&q);
    }
    let Ok(rebuilt) = walkmesh::rebuild(mesh) else {
        return;
    };
    if let Ok(q) = walkmesh::QueryMesh::new(&rebuilt) {
        rays_agree(&q);
    }
    let bytes = bwm::write(&rebuilt).expect("a rebuilt walkmesh encodes");
    let back = bwm::read(&bytes).expect("a rebuilt walkmesh decodes");
    assert_eq!(back, rebuilt, "write then read gives the rebuilt walkmesh");
    let again = walkmesh::rebuild(&back).expect("a rebuilt walkmesh rebuilds");
    // Idempotent where the compiler-style box padding (0.01) is representable: beyond ~1e6 it
    // rounds away, the padded root box equals the vertex bounds, and the style heuristic
    // (`aabb_style_of`) cannot tell the two tree styles apart. Real areas stay below 1e4.
    let sane = back.vertices.iter().flatten().all(|c| c.abs() < 1.0e6);
    if sane {
        assert_eq!(
            bwm::write(&again).expect("encodes"),
            bytes,
            "rebuild is idempotent"
        );
    }
    let _ = walkmesh::transform(
        mesh,
        &[
            Transform::RotateZ(90.0),
            Transform::Translate([1.0, 2.0, 3.0]),
        ],
        &[(0, None)],
    );
    let errors: Vec<_> = walkmesh::check_bwm(&rebuilt)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    // Non-manifold input can leave boundary loops open; anything else must be clean.
    assert!(
        errors.iter().all(|f| f.code == "bwm-perimeter"),
        "{errors:?}"
    );
}
