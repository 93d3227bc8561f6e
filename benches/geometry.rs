//! Walkmesh geometry benchmarks: full rebuild and AABB build (fresh, and with a reused
//! [`aabb::TreeBuilder`]) on a generated mesh of about a million faces; face-at / height-at and ray casts on the largest corpus WOK with a usable
//! stored tree (see [`corpus`]), tree against brute force on the same points.

use areakit_geometry::aabb;
use areakit_geometry::derive;
use areakit_geometry::query::{FaceFilter, Locator, brute};
use divan::Bencher;
use divan::counter::ItemsCount;

#[path = "fixtures/geometry.rs"]
mod fixtures;
use fixtures::{corpus, grid};

fn main() {
    divan::main();
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

/// The same rebuild through one [`aabb::TreeBuilder`] kept between rebuilds.
#[divan::bench(sample_count = 5)]
fn rebuild_1m_faces_reused(bencher: Bencher) {
    let m = grid(N);
    let t = vec![[-1; 3]; m.faces.len()];
    let mut builder = aabb::TreeBuilder::new();
    derive::rebuild_with(&m, &t, aabb::Style::Compiler, &mut builder).unwrap();
    bencher
        .counter(ItemsCount::new(m.faces.len()))
        .bench_local(|| derive::rebuild_with(&m, &t, aabb::Style::Compiler, &mut builder).unwrap());
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

/// The same builds through one [`aabb::TreeBuilder`] and one output vector kept between
/// builds (as a program rebuilding walkmeshes would): no fresh memory, so no page faults.
#[divan::bench(args = ["compiler", "pykotor"], sample_count = 15)]
fn aabb_1m_faces_reused(bencher: Bencher, style: &str) {
    let m = grid(N);
    let style = if style == "compiler" {
        aabb::Style::Compiler
    } else {
        aabb::Style::PyKotor
    };
    let mut builder = aabb::TreeBuilder::new();
    let mut out = Vec::new();
    builder.build_into(&m, style, &mut out);
    bencher
        .counter(ItemsCount::new(m.faces.len()))
        .bench_local(|| {
            builder.build_into(&m, style, &mut out);
            out.len()
        });
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
