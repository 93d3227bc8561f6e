//! `areakit build` without I/O: a 10-room layout of the corpus `hiddenbek` kit with its two
//! largest rooms (`large_room_1`, `large_room_2` and eight more rooms hooked onto them), built
//! whole on every core — the 3 s target of a modder's build — and on one; a 20-room chain of
//! hallways and rooms; and the phases on their own — placing the walkmeshes, relinking them,
//! turning the models, the VIS, the minimap, encoding (`docs/build.md` quotes the figures).
//!
//! `cargo bench --bench build` (needs `../shared/corpus`).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use areakit_area::build::{self, BuildInput, Built, layout, load};
use areakit_area::{minimap, relink, visgen};
use areakit_formats::bwm::{self, Bwm};
use areakit_formats::mdl::{self, Model};
use divan::Bencher;

fn main() {
    divan::main();
}

const ROOMS: usize = 20;

fn kits() -> PathBuf {
    areakit_testkit::corpus_dir()
        .join("kotor/openkotor_pykotor/Tools/HolocronToolset/src/toolset/kits")
}

/// The layout: elevator, then hallway and room alternately, each joined north to the last.
fn layout_json() -> String {
    let mut rooms =
        vec![r#"{"kit":"hiddenbek","component":"elevator_1","position":[0,0,0]}"#.to_string()];
    for i in 1..ROOMS {
        let (component, to_hook) = match (i % 2, i) {
            (1, 1) => ("hallway_1", 0),
            (1, _) => ("hallway_1", 1),
            _ => ("room_1", 1),
        };
        rooms.push(format!(
            r#"{{"kit":"hiddenbek","component":"{component}","attach":{{"room":{},"to_hook":{to_hook},"hook":0}}}}"#,
            i - 1
        ));
    }
    format!(r#"{{"module":"bench01","rooms":[{}]}}"#, rooms.join(","))
}

/// Ten hiddenbek rooms round its two largest (each hook placed by `attach`; no overlap).
const TEN_ROOMS: &str = r#"{"module":"bench10","rooms":[
 {"kit":"hiddenbek","component":"large_room_1","position":[0,0,0]},
 {"kit":"hiddenbek","component":"hallway_1","attach":{"room":0,"to_hook":0,"hook":0}},
 {"kit":"hiddenbek","component":"large_room_2","attach":{"room":0,"to_hook":2,"hook":2}},
 {"kit":"hiddenbek","component":"room_1","attach":{"room":0,"to_hook":1,"hook":0}},
 {"kit":"hiddenbek","component":"junction_1","attach":{"room":0,"to_hook":3,"hook":0}},
 {"kit":"hiddenbek","component":"office_1","attach":{"room":0,"to_hook":4,"hook":0}},
 {"kit":"hiddenbek","component":"room_2","attach":{"room":1,"to_hook":1,"hook":0}},
 {"kit":"hiddenbek","component":"room_4","attach":{"room":2,"to_hook":3,"hook":1}},
 {"kit":"hiddenbek","component":"office_2","attach":{"room":4,"to_hook":1,"hook":0}},
 {"kit":"hiddenbek","component":"room_3","attach":{"room":4,"to_hook":2,"hook":0}}]}"#;

fn load_layout(text: &str, threads: usize) -> BuildInput {
    let l = layout::parse(text).expect("layout");
    let read = |p: &str| -> Result<Vec<u8>, build::BuildError> {
        std::fs::read(p).map_err(|e| build::BuildError::io(Path::new(p), e))
    };
    let mut input = load::load(l, Some(&kits()), Path::new("."), &read).expect("kit loads");
    input.threads = threads;
    input
}

/// The 20-room chain, one thread.
fn input() -> &'static BuildInput {
    static INPUT: OnceLock<BuildInput> = OnceLock::new();
    INPUT.get_or_init(|| load_layout(&layout_json(), 1))
}

/// The ten rooms round the largest, on every core (`threads` 0) or one.
fn ten(threads: usize) -> BuildInput {
    load_layout(TEN_ROOMS, threads)
}

/// The ten-room build whole, I/O excluded, on every core: the target is 3 s on two cores.
#[divan::bench(sample_count = 10)]
fn whole_10_large_rooms_all_cores(b: Bencher) {
    let input = ten(0);
    let first = build::build(&input).expect("builds");
    assert_eq!(first.report.rooms.len(), 10);
    b.bench(|| build::build(divan::black_box(&input)).expect("builds"));
}

/// The same on one core.
#[divan::bench(sample_count = 10)]
fn whole_10_large_rooms_one_core(b: Bencher) {
    let input = ten(1);
    b.bench(|| build::build(divan::black_box(&input)).expect("builds"));
}

/// The module built once, and its rooms decoded back (the phases' inputs).
fn built() -> &'static (Built, Vec<Bwm>, Vec<Model>) {
    static BUILT: OnceLock<(Built, Vec<Bwm>, Vec<Model>)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let b = build::build(input()).expect("builds");
        assert_eq!(b.report.rooms.len(), ROOMS);
        assert!(b.report.warnings.iter().all(|w| !w.contains("overlap")));
        let file = |name: String| {
            b.files
                .iter()
                .find(|f| f.file_name() == name)
                .expect("room file")
                .data
                .clone()
        };
        let mut woks = Vec::new();
        let mut models = Vec::new();
        for r in &b.report.rooms {
            woks.push(bwm::read(&file(format!("{}.wok", r.name))).expect("wok"));
            models.push(
                mdl::read(
                    &file(format!("{}.mdl", r.name)),
                    &file(format!("{}.mdx", r.name)),
                )
                .expect("model"),
            );
        }
        (b, woks, models)
    })
}

/// The 20-room chain whole, I/O excluded, on one core.
#[divan::bench(sample_count = 10)]
fn whole_20_room_chain(b: Bencher) {
    let input = input();
    b.bench(|| build::build(divan::black_box(input)).expect("builds"));
}

/// Phase: each room's walkmesh flipped, turned, moved, every table rebuilt.
#[divan::bench(sample_count = 10)]
fn phase_place_walkmeshes(b: Bencher) {
    let input = input();
    let places = build::placements(input).expect("placements");
    b.bench(|| {
        let mut faces = 0;
        for (i, p) in places.iter().enumerate() {
            let c = &input.components[input.room_components[i]];
            let steps = [
                areakit_geometry::transform::Transform::RotateZ(p.rotation as f64),
                areakit_geometry::transform::Transform::Translate(p.position),
            ];
            faces += areakit_area::walkmesh::transform(&c.walkmesh, &steps, &[])
                .expect("transforms")
                .faces
                .len();
        }
        faces
    });
}

/// Phase: room links from geometry over the placed walkmeshes.
#[divan::bench(sample_count = 10)]
fn phase_relink(b: Bencher) {
    let woks = &built().1;
    b.with_inputs(|| woks.clone()).bench_local_refs(|w| {
        let mut refs: Vec<Option<&mut Bwm>> = w.iter_mut().map(Some).collect();
        relink::relink(&mut refs, &relink::RelinkOptions::default()).len()
    });
}

/// Phase: each room's model turned (its AABB trees kept: turns are exact).
#[divan::bench(sample_count = 10)]
fn phase_models(b: Bencher) {
    let input = input();
    let places = build::placements(input).expect("placements");
    b.bench(|| {
        let mut nodes = 0;
        for (i, p) in places.iter().enumerate() {
            if let Some(m) = &input.components[input.room_components[i]].model {
                let mut m = m.clone();
                areakit_area::models::transform(
                    &mut m,
                    &[areakit_geometry::transform::Transform::RotateZ(
                        p.rotation as f64,
                    )],
                );
                nodes += m.nodes.len();
            }
        }
        nodes
    });
}

/// Phase: the VIS from the rooms' openings (one thread).
#[divan::bench(sample_count = 10)]
fn phase_vis(b: Bencher) {
    let (built, woks, models) = built();
    let rooms: Vec<visgen::VisRoom> = built
        .report
        .rooms
        .iter()
        .enumerate()
        .map(|(i, r)| visgen::VisRoom {
            name: r.name.clone(),
            walkmesh: Some(&woks[i]),
            model: Some(&models[i]),
            position: r.position,
        })
        .collect();
    let links: Vec<(usize, usize)> = built
        .report
        .connections
        .iter()
        .map(|c| (c.rooms[0], c.rooms[1]))
        .collect();
    let opts = visgen::VisOptions {
        threads: 1,
        ..visgen::VisOptions::default()
    };
    b.bench(|| visgen::generate_vis(&rooms, &links, &opts).pairs);
}

/// Phase: the minimap from the kit images and its map block.
#[divan::bench(sample_count = 10)]
fn phase_minimap(b: Bencher) {
    let input = input();
    let (built, woks, _) = built();
    let places = build::placements(input).expect("placements");
    let rooms: Vec<minimap::MinimapRoom> = (0..ROOMS)
        .map(|i| minimap::MinimapRoom {
            walkmesh: Some(&woks[i]),
            image: input.components[input.room_components[i]]
                .image
                .as_ref()
                .map(|image| minimap::PlacedImage {
                    image,
                    position: places[i].position,
                    rotation_deg: places[i].rotation,
                    flip_x: false,
                    flip_y: false,
                }),
        })
        .collect();
    assert_eq!(built.report.minimap_images, ROOMS);
    b.bench(|| {
        minimap::render_minimap(&rooms, &minimap::MinimapOptions::default())
            .expect("draws")
            .width
    });
}

/// Phase: encoding the room files (WOK, MDL + MDX) of the module.
#[divan::bench(sample_count = 10)]
fn phase_encode_rooms(b: Bencher) {
    let (_, woks, models) = built();
    b.bench(|| {
        let mut bytes = 0;
        for (w, m) in woks.iter().zip(models) {
            bytes += bwm::write(w).expect("wok").len();
            let (a, x) = mdl::write(m).expect("model");
            bytes += a.len() + x.len();
        }
        bytes
    });
}
