//! Walkmesh geometry benchmarks: full rebuild and AABB build on a generated mesh of about a
//! million faces; face-at / height-at and ray casts on the largest corpus WOK with a usable
//! stored tree (see [`corpus`]), tree against brute force on the same points.

use areakit_geometry::derive;
use areakit_geometry::query::{FaceFilter, Locator, brute};
use areakit_geometry::{Mesh, aabb};
use divan::Bencher;
use divan::counter::ItemsCount;

fn main() {
    divan::main();
}

/// A wavy grid of `n * n` quads (`2 n²` faces), 1 in 7 cells not walkable.
fn grid(n: usize) -> Mesh {
    let mut m = Mesh::default();
    for j in 0..=n {
        for i in 0..=n {
            let z = ((i as f32) * 0.37).sin() + ((j as f32) * 0.23).cos();
            m.vertices.push([i as f32 * 0.5, j as f32 * 0.5, z]);
        }
    }
    let v = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    for j in 0..n {
        for i in 0..n {
            let w = (i * 31 + j * 17) % 7 != 0;
            m.faces.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            m.faces.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
            m.walkable.push(w);
            m.walkable.push(w);
        }
    }
    m
}

const N: usize = 708; // 1 002 528 faces

#[divan::bench(sample_count = 5)]
fn rebuild_1m_faces(bencher: Bencher) {
    let m = grid(N);
    let t = vec![[-1; 3]; m.faces.len()];
    bencher
        .counter(ItemsCount::new(m.faces.len()))
        .bench(|| derive::rebuild(&m, &t, aabb::Style::Compiler).unwrap());
}

#[divan::bench(sample_count = 5)]
fn aabb_1m_faces(bencher: Bencher) {
    let m = grid(N);
    bencher
        .counter(ItemsCount::new(m.faces.len()))
        .bench(|| aabb::build(&m));
}

#[divan::bench(sample_count = 5)]
fn aabb_pykotor_1m_faces(bencher: Bencher) {
    let m = grid(N);
    bencher
        .counter(ItemsCount::new(m.faces.len()))
        .bench(|| aabb::build_mean_split(&m));
}

/// The largest corpus WOK (by face count) among those whose stored tree is usable, as a mesh
/// with that stored tree, and random query points in its bounds: `hangar_01.wok` of PyKotor's
/// Holocron toolset kits, 670 faces. (The only larger one, `kotor/openkotor_pykotor/out.wok`
/// with 1 242 faces, has a damaged tree that the locator would replace by a rebuilt one.)
fn corpus() -> (Mesh, Vec<areakit_geometry::AabbNode>, Vec<[f32; 3]>) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/corpus/kotor/openkotor_pykotor/Tools/HolocronToolset/src/toolset/kits/old/enclavesurface/hangar_01.wok"
    );
    let b = areakit_formats::bwm::read(&std::fs::read(path).expect("corpus file")).expect("bwm");
    let m = areakit::walkmesh::to_mesh(&b);
    let nodes = areakit::walkmesh::nodes_of(&b);
    let (lo, hi) = b.bounds().expect("vertices");
    let mut s = 0x1234_5678_9abc_def0u64;
    let mut rnd = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 40) as f32 / (1u64 << 24) as f32
    };
    let pts = (0..10_000)
        .map(|_| {
            [
                lo[0] + (hi[0] - lo[0]) * rnd(),
                lo[1] + (hi[1] - lo[1]) * rnd(),
                lo[2] + (hi[2] - lo[2]) * rnd(),
            ]
        })
        .collect();
    (m, nodes, pts)
}

#[divan::bench]
fn face_at_tree(bencher: Bencher) {
    let (m, nodes, pts) = corpus();
    let loc = Locator::new(&m, &nodes);
    assert!(loc.uses_stored_tree());
    bencher.counter(ItemsCount::new(pts.len())).bench(|| {
        pts.iter()
            .filter(|p| loc.face_at(p[0], p[1], None, FaceFilter::All).is_some())
            .count()
    });
}

#[divan::bench]
fn height_at_tree(bencher: Bencher) {
    let (m, nodes, pts) = corpus();
    let loc = Locator::new(&m, &nodes);
    bencher.counter(ItemsCount::new(pts.len())).bench(|| {
        pts.iter()
            .filter(|p| loc.height_at(p[0], p[1], Some(p[2])).is_some())
            .count()
    });
}

#[divan::bench]
fn face_at_brute(bencher: Bencher) {
    let (m, _, pts) = corpus();
    bencher.counter(ItemsCount::new(pts.len())).bench(|| {
        pts.iter()
            .filter(|p| brute::face_at(&m, p[0], p[1], None, FaceFilter::All).is_some())
            .count()
    });
}

#[divan::bench]
fn ray_down_tree(bencher: Bencher) {
    let (m, nodes, pts) = corpus();
    let loc = Locator::new(&m, &nodes);
    bencher.counter(ItemsCount::new(pts.len())).bench(|| {
        pts.iter()
            .filter(|p| {
                loc.ray([p[0], p[1], 50.0], [0.0, 0.0, -1.0], FaceFilter::All)
                    .is_some()
            })
            .count()
    });
}

#[divan::bench]
fn ray_random_tree(bencher: Bencher) {
    let (m, nodes, pts) = corpus();
    let loc = Locator::new(&m, &nodes);
    bencher.counter(ItemsCount::new(pts.len())).bench(|| {
        pts.windows(2)
            .filter(|w| {
                let d = [w[1][0] - w[0][0], w[1][1] - w[0][1], w[1][2] - w[0][2]];
                loc.ray(w[0], d, FaceFilter::All).is_some()
            })
            .count()
    });
}

#[divan::bench]
fn ray_down_brute(bencher: Bencher) {
    let (m, _, pts) = corpus();
    bencher.counter(ItemsCount::new(pts.len())).bench(|| {
        pts.iter()
            .filter(|p| {
                brute::ray(&m, [p[0], p[1], 50.0], [0.0, 0.0, -1.0], FaceFilter::All).is_some()
            })
            .count()
    });
}
