//! A module built from Holocron kit rooms, with its textures reachable: the corpus's
//! `LTS_lotrim11`, and for every other texture its rooms name a generated picture (the corpus
//! leaves the kits' textures out). For the 3-D view's browser test and benchmark.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use crate::common::corpus_dir;

pub fn kits() -> PathBuf {
    corpus_dir().join("kotor/openkotor_pykotor/Tools/HolocronToolset/src/toolset/kits")
}

pub fn k1cp() -> PathBuf {
    corpus_dir().join("kotor/KOTORCommunityPatches_K1_Community_Patch/tslpatchdata")
}

/// A 64x64 TGA for a texture name: a checker of the name's own colour for a diffuse texture, a
/// bright soft gradient for a lightmap.
pub fn picture_for(name: &str) -> areakit_app::formats::tga::Tga {
    let h = name.bytes().fold(2166136261u32, |a, b| {
        (a ^ u32::from(b)).wrapping_mul(16777619)
    });
    let base = [
        (h & 0xff) as u8,
        ((h >> 8) & 0xff) as u8,
        ((h >> 16) & 0xff) as u8,
    ];
    let lightmap = name.to_ascii_lowercase().contains("_lm");
    let mut rgba = Vec::with_capacity(64 * 64 * 4);
    for y in 0..64u32 {
        for x in 0..64u32 {
            let px = if lightmap {
                let v = (150 + (x + y) / 2) as u8;
                [v, v, v, 255]
            } else if (x / 8 + y / 8) % 2 == 0 {
                [base[0], base[1], base[2], 255]
            } else {
                [base[0] / 3, base[1] / 3, base[2] / 3, 255]
            };
            rgba.extend_from_slice(&px);
        }
    }
    areakit_app::formats::tga::Tga {
        width: 64,
        height: 64,
        rgba,
    }
}

/// Builds `layout` into `dir/module` and writes a TGA into `dir/textures` for every texture
/// its rooms name that the corpus does not hold. Returns (module, textures folder).
pub fn textured_kit_module(dir: &Path, layout: &str) -> (PathBuf, PathBuf) {
    let module = dir.join("module");
    let layout = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/layouts")
        .join(layout);
    areakit_app::build::build(
        &areakit_app::Session::files_only(),
        &layout,
        &module,
        &areakit_app::build::BuildOptions {
            kits: Some(kits()),
            force: false,
        },
    )
    .unwrap();
    let textures = dir.join("textures");
    std::fs::create_dir_all(&textures).unwrap();
    let report = areakit_app::interop::export_file(
        &areakit_app::Session::files_only(),
        &module,
        &dir.join("probe.glb"),
        &areakit_app::interop::ExportOptions {
            texture_dirs: vec![k1cp()],
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        report
            .textures
            .embedded
            .iter()
            .any(|t| t.name == "LTS_lotrim11")
    );
    for m in &report.textures.missing {
        let tga = areakit_app::formats::tga::write(
            &picture_for(&m.name),
            areakit_app::formats::tga::WriteOptions::default(),
        )
        .unwrap();
        std::fs::write(textures.join(format!("{}.tga", m.name)), tga).unwrap();
    }
    (module, textures)
}

/// Writes the 3-D page of `module` with `textures` and the corpus textures reachable.
pub fn write_page(module: &Path, textures: &Path, page: &Path, paths: &[&str]) {
    let overlays = areakit_app::picture::Overlays {
        paths: paths
            .iter()
            .map(|p| {
                let (a, b) = p.split_once(':').unwrap();
                (
                    areakit_app::navigate::parse_point(a).unwrap(),
                    areakit_app::navigate::parse_point(b).unwrap(),
                )
            })
            .collect(),
        ..Default::default()
    };
    let options = areakit_app::view3d::ViewOptions {
        texture_dirs: vec![textures.to_path_buf(), k1cp()],
        ..Default::default()
    };
    let (report, _) = areakit_app::view3d::view(
        &areakit_app::Session::files_only(),
        module,
        page,
        &overlays,
        &options,
    )
    .unwrap();
    assert_eq!(report.mode, "3d");
    assert!(
        report.textures.missing.is_empty(),
        "{:?}",
        report.textures.missing
    );
}

/// A path across the module as `--path` takes it (`X,Y:X,Y`): between the two walkable points
/// furthest apart (of a grid over the rooms) that the navigation library joins.
pub fn long_path(module: &Path) -> String {
    use areakit_app::navigate::{PathContext, PathRequest, parse_point};
    let session = areakit_app::Session::files_only();
    let lyt = std::fs::read_dir(module)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "lyt"))
        .unwrap();
    let area = areakit_app::area::Area::open(&lyt).unwrap();
    let ground = areakit_app::walkmesh::Area::new(&areakit_app::ops::area_rooms(&area)).unwrap();
    let mut points = Vec::new();
    for i in -30..30 {
        for j in -30..30 {
            let (x, y) = (i as f32 * 1.3 + 0.21, j as f32 * 1.3 + 0.37);
            if ground.at(x, y, None).answer.walkable {
                points.push((x, y));
            }
        }
    }
    let req = PathRequest::new(&lyt);
    let mut ctx = PathContext::open(&session, &req).unwrap();
    let mut pairs: Vec<((f32, f32), (f32, f32))> = Vec::new();
    for a in &points {
        for b in &points {
            pairs.push((*a, *b));
        }
    }
    let d2 = |p: &((f32, f32), (f32, f32))| (p.0.0 - p.1.0).powi(2) + (p.0.1 - p.1.1).powi(2);
    pairs.sort_by(|p, q| d2(q).total_cmp(&d2(p)));
    for (a, b) in pairs.into_iter().take(200) {
        let text = format!("{},{}:{},{}", a.0, a.1, b.0, b.1);
        let (s, g) = text.split_once(':').unwrap();
        if ctx
            .find(parse_point(s).unwrap(), parse_point(g).unwrap())
            .path
            .is_some()
        {
            return text;
        }
    }
    panic!("no path across {}", module.display());
}
