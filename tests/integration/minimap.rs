//! `areakit minimap`: the image and the ARE map block it writes, read back as the game reads
//! them (the TGA decoded, the ARE's `Map` struct), the refusals, and `check`'s view of a
//! module's minimap through `areakit_app::minimap::minimap_findings`.

use crate::support::{areakit, run};
use std::path::{Path, PathBuf};

use areakit_app::formats::bwm::{self, Bwm};
use areakit_app::formats::gff::{self, Gff, Label, Value, views::Are};
use areakit_app::formats::tga;
use areakit_area::minimap::{self, Game, MinimapOptions, walkable_samples};
use serde_json::Value as Json;

/// A fresh demo area (demo.lyt and three room walkmeshes) with an ARE of its own.
fn demo(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-minimap-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let out = areakit().args(["demo", "--out"]).arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    for ext in ["svg", "png"] {
        std::fs::remove_file(d.join(format!("demo.{ext}"))).unwrap();
    }
    let mut are = Gff::new(*b"ARE ");
    are.root_mut()
        .push(Label::new("Tag").unwrap(), Value::String("demo".into()));
    std::fs::write(d.join("demo.are"), gff::write(&are).unwrap()).unwrap();
    d
}

fn woks(dir: &Path) -> Vec<Bwm> {
    ["demo_a", "demo_b", "demo_c"]
        .iter()
        .map(|r| bwm::read(&std::fs::read(dir.join(format!("{r}.wok"))).unwrap()).unwrap())
        .collect()
}

/// The minimap and map block of the demo area, read back from the files: the TGA decodes to
/// 512x256, the ARE written carries the block the report gives (the input ARE is untouched),
/// and every walkable sample lands on drawn ground under that block.
#[test]
fn minimap_writes_the_image_and_the_map_block() {
    let d = demo("write");
    let tga_path = d.join("lbl_mapdemo.tga");
    let are_in = d.join("demo.are");
    let are_out = d.join("out.are");
    let before = std::fs::read(&are_in).unwrap();
    let (code, stdout, stderr) = run(&[
        "minimap".as_ref(),
        d.as_os_str(),
        "-o".as_ref(),
        tga_path.as_os_str(),
        "--are".as_ref(),
        are_in.as_os_str(),
        "--are-out".as_ref(),
        are_out.as_os_str(),
        "--json".as_ref(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let report: Json = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["rooms"], 3);
    assert_eq!(report["rooms_from_walkmesh"], 3);
    assert_eq!(report["game"], "k1");
    assert!(report["coverage"].as_f64().unwrap() >= 0.98, "{report}");
    assert_eq!(
        std::fs::read(&are_in).unwrap(),
        before,
        "the input ARE is kept"
    );

    let img = tga::read(&std::fs::read(&tga_path).unwrap()).unwrap();
    assert_eq!((img.width, img.height), (512, 256));
    let g = gff::read(&std::fs::read(&are_out).unwrap()).unwrap();
    assert_eq!(g.root().get_string("Tag").unwrap().to_str(), "demo");
    let map = Are::from_gff(&g).map.expect("a Map struct");
    assert_eq!(
        map.north_axis,
        Some(report["map"]["NorthAxis"].as_i64().unwrap() as i32)
    );
    let pt1 = &report["map"]["MapPt1"];
    assert_eq!(
        map.map_pt1,
        Some([
            pt1[0].as_f64().unwrap() as f32,
            pt1[1].as_f64().unwrap() as f32
        ])
    );
    let meshes = woks(&d);
    let refs: Vec<&Bwm> = meshes.iter().collect();
    let pts = walkable_samples(&refs, 0.25, 100_000);
    assert!(pts.len() > 1000);
    let cov = minimap::coverage(&map, img.width, img.height, &img.rgba, &pts);
    assert!(cov >= 0.98, "{cov}");
    // A block moved by a room's width puts the ground elsewhere.
    let mut moved = map;
    moved.world_pt1 = moved.world_pt1.map(|p| [p[0] + 10.0, p[1]]);
    moved.world_pt2 = moved.world_pt2.map(|p| [p[0] + 10.0, p[1]]);
    assert!(minimap::coverage(&moved, img.width, img.height, &img.rgba, &pts) < 0.9);

    // Text output; the same ARE in and out when asked by name.
    let (code, stdout, stderr) = run(&[
        "minimap".as_ref(),
        d.join("demo.lyt").as_os_str(),
        "-o".as_ref(),
        tga_path.as_os_str(),
        "--are".as_ref(),
        are_out.as_os_str(),
        "--are-out".as_ref(),
        are_out.as_os_str(),
        "--size".as_ref(),
        "256x128".as_ref(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("map block: NorthAxis"), "{stdout}");
    assert!(stdout.contains("had: NorthAxis"), "{stdout}");
    let img = tga::read(&std::fs::read(&tga_path).unwrap()).unwrap();
    assert_eq!((img.width, img.height), (256, 128));
    let _ = std::fs::remove_dir_all(&d);
}

/// Refusals: an ARE to write with none to read, the image over the input, a bad size, an ARE
/// that does not decode (nothing written).
#[test]
fn minimap_refuses_what_it_cannot_do() {
    let d = demo("refuse");
    let tga_path = d.join("lbl_mapdemo.tga");
    let lyt = d.join("demo.lyt");
    std::fs::remove_file(d.join("demo.are")).unwrap();
    let (code, _, stderr) = run(&[
        "minimap".as_ref(),
        d.as_os_str(),
        "-o".as_ref(),
        tga_path.as_os_str(),
        "--are-out".as_ref(),
        d.join("x.are").as_os_str(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--are"), "{stderr}");
    assert!(!tga_path.exists(), "nothing written");
    let (code, _, stderr) = run(&[
        "minimap".as_ref(),
        lyt.as_os_str(),
        "-o".as_ref(),
        lyt.as_os_str(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("overwrite"), "{stderr}");
    let (code, _, stderr) = run(&[
        "minimap".as_ref(),
        d.as_os_str(),
        "-o".as_ref(),
        tga_path.as_os_str(),
        "--size".as_ref(),
        "512by256".as_ref(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("WIDTHxHEIGHT"), "{stderr}");
    let (code, _, stderr) = run(&[
        "minimap".as_ref(),
        d.as_os_str(),
        "-o".as_ref(),
        tga_path.as_os_str(),
        "--size".as_ref(),
        "8x8".as_ref(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    std::fs::write(d.join("bad.are"), b"GFF? not really").unwrap();
    let (code, _, stderr) = run(&[
        "minimap".as_ref(),
        d.as_os_str(),
        "-o".as_ref(),
        tga_path.as_os_str(),
        "--are".as_ref(),
        d.join("bad.are").as_os_str(),
        "--are-out".as_ref(),
        d.join("x.are").as_os_str(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("bad.are"), "{stderr}");
    assert!(
        !tga_path.exists() && !d.join("x.are").exists(),
        "nothing written"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// As a library call, for KotOR 2 on one walkmesh: the map spans the whole width.
#[test]
fn minimap_for_kotor_2_spans_the_whole_width() {
    let d = demo("k2");
    let wok = d.join("demo_a.wok");
    let out = d.join("lbl_mapdemo.tga");
    let session = areakit_app::Session::files_only();
    let opts = MinimapOptions {
        game: Game::K2,
        max_pixels_per_unit: 100.0,
        ..MinimapOptions::default()
    };
    let r = areakit_app::minimap::minimap(&session, &wok, &out, None, None, &opts).unwrap();
    assert_eq!(r.rooms, 1);
    assert!(r.are.is_none() && r.previous_map.is_none());
    let img = tga::read(&std::fs::read(&out).unwrap()).unwrap();
    // The square room fills the height; drawn at the centre of 512 (not of 440).
    let drawn: Vec<usize> = (0..512)
        .filter(|&x| img.rgba[(128 * 512 + x) * 4 + 3] != 0)
        .collect();
    let mid = (drawn[0] + drawn[drawn.len() - 1]) as f32 / 2.0;
    assert!((mid - 255.5).abs() <= 1.0, "{mid}");
    assert!(r.coverage >= 0.98);
    let _ = std::fs::remove_dir_all(&d);
}

/// `check`'s view: a module folder with a minimap and an ARE whose block puts the ground off
/// the map warns `minimap-ground-outside` under the ARE; the block `minimap` computed does not.
#[test]
fn check_warns_when_the_map_block_misses_the_ground() {
    let d = demo("check");
    let tga_path = d.join("lbl_mapdemo.tga");
    let are = d.join("demo.are");
    let (code, _, stderr) = run(&[
        "minimap".as_ref(),
        d.as_os_str(),
        "-o".as_ref(),
        tga_path.as_os_str(),
        "--are-out".as_ref(),
        are.as_os_str(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let findings = |dir: &Path| {
        let module = areakit_app::input::folder_module(dir).unwrap();
        let res = areakit_app::resources::FolderResources::open(dir).unwrap();
        areakit_app::minimap::minimap_findings(&module, &res)
    };
    assert!(findings(&d).is_empty(), "{:?}", findings(&d));
    // Shift the world points: the ground leaves the map.
    let mut g = gff::read(&std::fs::read(&are).unwrap()).unwrap();
    let m = g.root_mut().get_struct_mut("Map").unwrap();
    for l in ["WorldPt1X", "WorldPt2X"] {
        if let Some(Value::Float(x)) = m.get_mut(l) {
            *x += 200.0;
        }
    }
    std::fs::write(&are, gff::write(&g).unwrap()).unwrap();
    let f = findings(&d);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].code, "minimap-ground-outside");
    assert!(f[0].place.file.as_deref().unwrap().ends_with("demo.are"));
    // Without the minimap there is nothing to say.
    std::fs::remove_file(&tga_path).unwrap();
    assert!(findings(&d).is_empty());
    let _ = std::fs::remove_dir_all(&d);
}
