//! VIS generation (`areakit vis generate`) on a generated 50-room area (a 10 × 5 grid of
//! 10 m box rooms with doorways between some neighbours and pillars in some rooms): the
//! conservative VIS whole (the target is 0.5 s), on one core and on all, its phases — the
//! rooms' shells and openings, the flows — and, as the same-run baseline, the sampled sight
//! lines it replaced (eye and target points every 1.5 m). `docs/vis.md` records the figures.

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

fn generate(bencher: Bencher, threads: usize) {
    let a = area();
    let rooms = a.vis_rooms();
    let opts = VisOptions {
        threads,
        ..VisOptions::default()
    };
    let r = visgen::generate_vis(&rooms, &a.links, &opts);
    eprintln!(
        "50 rooms: {} pairs ({} linked), {} openings, {} doorways, {} probe lines, {} portal sequences",
        r.pairs, r.linked_pairs, r.openings, r.doorways, r.probes, r.portal_steps
    );
    bencher
        .counter(ItemsCount::new(rooms.len()))
        .bench(|| visgen::generate_vis(&rooms, &a.links, &opts));
}

/// The conservative VIS of 50 rooms, every core.
#[divan::bench(sample_count = 10)]
fn generate_50_rooms(bencher: Bencher) {
    generate(bencher, 0);
}

/// The same, one core.
#[divan::bench(sample_count = 10)]
fn generate_50_rooms_one_core(bencher: Bencher) {
    generate(bencher, 1);
}

type Tri = [glam::Vec3; 3];

/// Each room's opaque drawn faces and all its drawn faces, in area space.
fn room_faces(a: &SyntheticArea) -> Vec<(Vec<Tri>, Vec<Tri>)> {
    a.vis_rooms()
        .iter()
        .map(|r| {
            let f = visgen::occluder_faces(r.model.expect("model"), r.position);
            let all: Vec<Tri> = f.iter().map(|x| x.0.map(glam::Vec3::from)).collect();
            let opaque = f
                .iter()
                .filter(|x| x.1)
                .map(|x| x.0.map(glam::Vec3::from))
                .collect();
            (opaque, all)
        })
        .collect()
}

/// Phase: each room's shell, its boundary loops and their probes (one core).
#[divan::bench(sample_count = 10)]
fn phase_shells(bencher: Bencher) {
    let faces = room_faces(&area());
    bencher.bench(|| {
        faces
            .iter()
            .map(|(o, d)| visgen::shell::shell(o, d).openings.len())
            .sum::<usize>()
    });
}

/// Phase: the cells, portals and every room's flow (one core).
#[divan::bench(sample_count = 10)]
fn phase_flows(bencher: Bencher) {
    let shells: Vec<Option<visgen::shell::Shell>> = room_faces(&area())
        .iter()
        .map(|(o, d)| Some(visgen::shell::shell(o, d)))
        .collect();
    let rooms = shells.len();
    bencher.bench(|| {
        let cells = visgen::flow::cells(&shells);
        (0..rooms)
            .map(|i| visgen::flow::flow(&cells, &[i]).steps)
            .sum::<usize>()
    });
}

/// Baseline, same run: the sampled sight lines at 1.5 m that the conservative VIS replaced.
#[divan::bench(sample_count = 5)]
fn baseline_sampled_sight_lines(bencher: Bencher) {
    let a = area();
    let rooms = a.vis_rooms();
    let opts = VisOptions::default();
    bencher.bench(|| visgen::sight_lines(&rooms, &opts).1.seen.len());
}
