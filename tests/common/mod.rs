//! Shared test support: the real-file corpus (`areakit-testkit`), a box walkmesh, the module
//! fixture.
#![allow(dead_code, unused_imports)]

pub mod devtools;
pub mod module_fixture;
pub mod textured_kit;

pub use areakit_testkit::{corpus_dir, corpus_files};

/// A closed box walkmesh (placeable or door, every face non-walkable): `2 hx` by `2 hy` in
/// plan about the origin, `h` high, with everything derived rebuilt.
#[allow(dead_code)]
pub fn box_walkmesh(hx: f32, hy: f32, h: f32) -> areakit_app::formats::bwm::Bwm {
    use areakit_app::formats::bwm;
    let mut m = bwm::Bwm {
        walkmesh_type: bwm::WalkmeshType::PlaceableOrDoor,
        ..bwm::Bwm::default()
    };
    for z in [0.0, h] {
        for (x, y) in [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)] {
            m.vertices.push([x, y, z]);
        }
    }
    for [a, b, c, d] in [
        [4, 5, 6, 7],
        [0, 1, 5, 4],
        [1, 2, 6, 5],
        [2, 3, 7, 6],
        [3, 0, 4, 7],
    ] {
        for v in [[a, b, c], [a, c, d]] {
            m.faces.push(bwm::Face {
                vertices: v,
                material: bwm::Material::NonWalk,
            });
        }
    }
    areakit_app::walkmesh::rebuild(&m).unwrap()
}
