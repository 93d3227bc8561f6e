//! VIS generation (`areakit vis generate`) on a generated 50-room area (a 10 × 5 grid of
//! 10 m box rooms with doorways between some neighbours and pillars in some rooms): the whole
//! generation, and each phase alone — sampling (floor and surface points, occluder triangles
//! with their free edges), the BVH build (with the eye points raised under the ceilings), and
//! the ray tests. The target is under 5 s for the whole; `docs/vis.md` records the split.

use areakit_area::visgen::synthetic::{GridSpec, SyntheticArea, grid_area};
use areakit_area::visgen::{self, VisOptions};
use divan::Bencher;
use divan::counter::ItemsCount;

fn main() {
    divan::main();
}

/// The benchmark's area: 50 rooms, seed fixed.
fn area() -> SyntheticArea {
    grid_area(&GridSpec {
        cols: 10,
        rows: 5,
        seed: 50,
        ..GridSpec::default()
    })
}

#[divan::bench(sample_count = 5)]
fn generate_50_rooms(bencher: Bencher) {
    let a = area();
    let rooms = a.vis_rooms();
    let opts = VisOptions::default();
    let r = visgen::generate_vis(&rooms, &a.links, &opts);
    eprintln!(
        "50 rooms: {} pairs ({} linked, {} without a sampled line), {} eyes, {} targets, {} occluders, {} rays",
        r.pairs,
        r.linked_pairs,
        r.pairs_without_sampled_line,
        r.eye_points,
        r.target_points,
        r.occluder_triangles,
        r.rays
    );
    bencher
        .counter(ItemsCount::new(rooms.len()))
        .bench(|| visgen::generate_vis(&rooms, &a.links, &opts));
}

#[divan::bench(sample_count = 5)]
fn phase_sampling(bencher: Bencher) {
    let a = area();
    let rooms = a.vis_rooms();
    let opts = VisOptions::default();
    bencher.bench(|| visgen::prepare(&rooms, &opts));
}

#[divan::bench(sample_count = 5)]
fn phase_bvh_build(bencher: Bencher) {
    let a = area();
    let rooms = a.vis_rooms();
    let opts = VisOptions::default();
    let prepared = visgen::prepare(&rooms, &opts);
    bencher
        .with_inputs(|| prepared.clone())
        .bench_values(|p| p.build());
}

#[divan::bench(sample_count = 5)]
fn phase_ray_tests(bencher: Bencher) {
    let a = area();
    let rooms = a.vis_rooms();
    let opts = VisOptions::default();
    let scene = visgen::prepare(&rooms, &opts).build();
    bencher.bench(|| scene.sight_lines());
}
