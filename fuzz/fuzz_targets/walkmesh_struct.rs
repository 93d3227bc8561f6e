//! Structure-aware walkmesh fuzzing: random meshes built from structured input (a vertex
//! lattice, faces over it, materials, transitions) rather than bytes the BWM reader must first
//! accept, so every run reaches the geometry. Checks the walkmesh properties of the `walkmesh`
//! target (rebuild → write → read → check → rebuild again; tree queries equal brute force), and
//! that face-at through the tree equals brute force at sampled points.
#![no_main]

#[path = "shared/walkmesh_props.rs"]
mod props;

use areakit_app::formats::bwm::{self, Face, Material};
use areakit_app::geometry::query::{FaceFilter, brute};
use areakit_app::walkmesh;
use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    /// Lattice coordinates in quarter units (exact in f32): x, y, z.
    vertices: Vec<(i8, i8, i8)>,
    /// Three vertex indices (taken modulo the vertex count), a material id, a transition.
    faces: Vec<(u8, u8, u8, u8, i8)>,
    /// Points to ask face-at, in quarter units.
    points: Vec<(i8, i8, i8)>,
    /// A scale for the whole mesh (powers of two keep coordinates exact).
    scale_exp: u8,
}

fuzz_target!(|input: Input| {
    if input.vertices.is_empty()
        || input.faces.is_empty()
        || input.vertices.len() > 256
        || input.faces.len() > 512
    {
        return;
    }
    let scale = f32::powi(2.0, i32::from(input.scale_exp % 12) - 2);
    let q = |c: i8| f32::from(c) * 0.25 * scale;
    let n = input.vertices.len();
    let mesh = bwm::Bwm {
        vertices: input
            .vertices
            .iter()
            .map(|&(x, y, z)| [q(x), q(y), q(z)])
            .collect(),
        faces: input
            .faces
            .iter()
            .map(|&(a, b, c, m, _)| Face {
                vertices: [
                    a as u32 % n as u32,
                    b as u32 % n as u32,
                    c as u32 % n as u32,
                ],
                material: Material::from_id(u32::from(m % 24)),
            })
            .collect(),
        ..bwm::Bwm::default()
    };
    let transitions: Vec<[i32; 3]> = input
        .faces
        .iter()
        .map(|&(.., t)| {
            if t >= 0 && t % 4 == 0 {
                [i32::from(t) / 4, -1, -1]
            } else {
                [-1; 3]
            }
        })
        .collect();
    let Ok(rebuilt) = walkmesh::rebuild_with_transitions(&mesh, &transitions) else {
        return;
    };
    props::walkmesh_properties(&rebuilt);
    if let Ok(qm) = walkmesh::QueryMesh::new(&rebuilt) {
        let loc = qm.locator();
        for &(x, y, z) in input.points.iter().take(32) {
            let (x, y, z) = (q(x), q(y), q(z));
            for hint in [None, Some(z)] {
                for filter in [FaceFilter::All, FaceFilter::Walkable] {
                    assert_eq!(
                        loc.face_at(x, y, hint, filter),
                        brute::face_at(&qm.mesh, x, y, hint, filter),
                        "face at {x} {y} hint {hint:?}"
                    );
                }
            }
        }
    }
});
