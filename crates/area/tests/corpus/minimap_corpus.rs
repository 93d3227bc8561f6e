//! The minimap math against the corpus (`docs/minimap.md`): the kits' per-room minimap images
//! against their walkmeshes (where the image sits), the ARE map blocks of the corpus against
//! the ground of their areas' walkmeshes, and the orientation every block's points give.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use areakit_area::install::Capsule;
use areakit_area::minimap::{
    self, KIT_PIXELS_PER_UNIT, MinimapOptions, MinimapRoom, PlacedImage, RoomImage, is_background,
    map_findings, walkable_samples, world_to_map,
};
use areakit_formats::bwm::{self, Bwm};
use areakit_formats::gff::{self, views::Are, views::AreMap};
use areakit_testkit::{corpus_dir, corpus_files};

/// Every kit component that has a minimap image: (kit/component, image, walkmesh).
fn kit_components() -> Vec<(String, RoomImage, Bwm)> {
    let mut out = Vec::new();
    for png in corpus_files(&["png"]) {
        let wok = png.with_extension("wok");
        if !wok.is_file() {
            continue;
        }
        let image = minimap::decode_room_png(&std::fs::read(&png).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", png.display()));
        let bwm = bwm::read(&std::fs::read(&wok).unwrap()).unwrap();
        let kit = png.parent().and_then(|p| p.file_name()).unwrap();
        let name = format!(
            "{}/{}",
            kit.to_string_lossy(),
            png.file_stem().unwrap().to_string_lossy()
        );
        out.push((name, image, bwm));
    }
    out
}

/// Whether the image has content within one pixel of `(ix, iy)`.
fn content_near(img: &RoomImage, ix: f32, iy: f32) -> bool {
    let (w, h) = (img.width as i64, img.height as i64);
    let (cx, cy) = (ix.floor() as i64, iy.floor() as i64);
    (-1..=1).any(|dy| {
        (-1..=1).any(|dx| {
            let (x, y) = (cx + dx, cy + dy);
            x >= 0 && y >= 0 && x < w && y < h && {
                let o = ((y * w + x) * 4) as usize;
                !is_background(&img.rgba[o..o + 4])
            }
        })
    })
}

/// The share of a component's walkable ground (a 0.1-unit grid) that lands within a pixel
/// of the image's content, the image placed by `at` (room space → image pixel).
fn share_on_image(img: &RoomImage, bwm: &Bwm, at: impl Fn([f32; 2]) -> [f32; 2]) -> f32 {
    let pts = walkable_samples(&[bwm], 0.1, 200_000);
    let hits = pts
        .iter()
        .filter(|&&p| {
            let [ix, iy] = at(p);
            content_near(img, ix, iy)
        })
        .count();
    hits as f32 / pts.len() as f32
}

/// The kits' room images: centre = the component's origin, 10 pixels per unit, +y up
/// (row 0 is the image's north edge). 23 of the 25 components put at least 98% of their
/// walkable ground on the image's content (within a pixel); the other placements tried do
/// not.
#[test]
fn kit_room_images_sit_at_the_component_origin() {
    let comps = kit_components();
    assert_eq!(
        comps.len(),
        25,
        "blackvulkar (14) and hiddenbek (11) components"
    );
    let ppu = KIT_PIXELS_PER_UNIT;
    let mut fit = Vec::new();
    let mut misfit = BTreeMap::new();
    let mut y_down = 0;
    let mut corner = 0;
    for (name, img, bwm) in &comps {
        let (w, h) = (img.width as f32, img.height as f32);
        let s = share_on_image(img, bwm, |p| [w / 2.0 + p[0] * ppu, h / 2.0 - p[1] * ppu]);
        if s >= 0.98 {
            fit.push(name.clone());
        } else {
            misfit.insert(name.clone(), s);
        }
        // The same scale with +y down, or the walkmesh's bounds at the image's corner.
        if share_on_image(img, bwm, |p| [w / 2.0 + p[0] * ppu, h / 2.0 + p[1] * ppu]) >= 0.98 {
            y_down += 1;
        }
        let (lo, hi) = bwm.bounds().unwrap();
        if share_on_image(img, bwm, |p| [(p[0] - lo[0]) * ppu, (hi[1] - p[1]) * ppu]) >= 0.98 {
            corner += 1;
        }
    }
    eprintln!(
        "kit images off their walkmesh: {misfit:?}; +y down fits {y_down}, corner fits {corner}"
    );
    assert_eq!(fit.len(), 23, "fit: {fit:?}; not: {misfit:?}");
    // blackvulkar's office_1.wok is a copy of junction_1.wok (same bounds, other room); its
    // elevator_1 image leaves out a strip of the car's floor.
    assert_eq!(
        misfit.keys().map(String::as_str).collect::<Vec<_>>(),
        ["blackvulkar/elevator_1", "blackvulkar/office_1"]
    );
    assert!(misfit["blackvulkar/office_1"] < 0.5);
    assert!(misfit["blackvulkar/elevator_1"] > 0.9);
    assert!(y_down <= 1, "+y down fits {y_down}");
    assert_eq!(corner, 0, "bounds at the corner fit {corner}");
    let (lo, hi) = comps[0].2.bounds().unwrap();
    assert!(
        lo[0] < 0.0 && hi[0] > 0.0,
        "kit walkmeshes are in room space"
    );
}

/// Each kit component drawn alone from its image (no walkmesh under it), flipped and turned
/// as a layout may place it (4 placements each): the minimap puts as much of the walkable
/// ground, placed the same way, on content under the computed block as the image itself holds
/// at its own pixels (within half a point), and at least 98% for all but four components:
/// blackvulkar's office_1 and elevator_1, whose images do not match their walkmeshes, its
/// room_3, whose image leaves out a strip of its floor, and hiddenbek's elevator_1, a 6 x 5
/// unit car whose image leaves out the ground's edge pixels.
#[test]
fn kit_room_images_compose_where_their_walkmeshes_go() {
    let mut checked = 0;
    let mut below = std::collections::BTreeSet::new();
    for (name, img, bwm) in kit_components() {
        let (w, h) = (img.width as f32, img.height as f32);
        let own = {
            let pts = walkable_samples(&[&bwm], 0.1, 200_000);
            let ppu = KIT_PIXELS_PER_UNIT;
            let on = pts
                .iter()
                .filter(|p| {
                    let (ix, iy) = (w / 2.0 + p[0] * ppu, h / 2.0 - p[1] * ppu);
                    ix >= 0.0 && iy >= 0.0 && ix < w && iy < h && {
                        let o = ((iy as usize) * img.width as usize + ix as usize) * 4;
                        !is_background(&img.rgba[o..o + 4])
                    }
                })
                .count();
            on as f32 / pts.len() as f32
        };
        for (rot, fx, fy) in [
            (0.0f32, false, false),
            (90.0, true, false),
            (180.0, false, true),
            (270.0, true, true),
        ] {
            let pos = [100.0f32, 40.0, 0.0];
            let mut placed = bwm.clone();
            let (s, c) = (rot.to_radians().sin(), rot.to_radians().cos());
            for v in &mut placed.vertices {
                let f = [if fx { -v[0] } else { v[0] }, if fy { -v[1] } else { v[1] }];
                *v = [
                    pos[0] + f[0] * c - f[1] * s,
                    pos[1] + f[0] * s + f[1] * c,
                    v[2],
                ];
            }
            let rooms = [MinimapRoom {
                walkmesh: None,
                image: Some(PlacedImage {
                    image: &img,
                    position: pos,
                    rotation_deg: rot,
                    flip_x: fx,
                    flip_y: fy,
                }),
            }];
            let m = minimap::render_minimap(&rooms, &MinimapOptions::default()).unwrap();
            let pts = walkable_samples(&[&placed], 0.1, 200_000);
            let cov = minimap::coverage(&m.map, m.width, m.height, &m.rgba, &pts);
            assert!(
                cov >= own - 0.005,
                "{name} rotated {rot} flips {fx} {fy}: {cov}, the image itself {own}"
            );
            if cov < 0.98 {
                eprintln!("{name} rotated {rot}: {cov:.4} (the image itself: {own:.4})");
                below.insert(name.clone());
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 25 * 4);
    assert_eq!(
        below.iter().map(String::as_str).collect::<Vec<_>>(),
        [
            "blackvulkar/elevator_1",
            "blackvulkar/office_1",
            "blackvulkar/room_3",
            "hiddenbek/elevator_1",
        ]
    );
}

/// Every ARE of the corpus: loose files and capsule members, with where it came from.
fn corpus_ares() -> Vec<(String, AreMap)> {
    let mut out = Vec::new();
    for path in corpus_files(&["gff"]) {
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("are"))
        {
            let g = gff::read(&std::fs::read(&path).unwrap()).unwrap();
            if let Some(m) = Are::from_gff(&g).map {
                out.push((path.file_name().unwrap().to_string_lossy().into_owned(), m));
            }
        }
    }
    for path in corpus_files(&["erf", "rim"]) {
        let Ok(c) = Capsule::open(&path) else {
            continue; // the deliberately corrupted RIM
        };
        for (i, m) in c.members().iter().enumerate() {
            let name = m.file_name();
            if !name.to_ascii_lowercase().ends_with(".are") {
                continue;
            }
            let g = gff::read(c.data(i)).unwrap();
            if let Some(map) = Are::from_gff(&g).map {
                let cap = path.file_name().unwrap().to_string_lossy();
                out.push((format!("{cap}/{name}"), map));
            }
        }
    }
    out
}

/// The resref of a member name or file (`tar_m10aa.mod/m10aa.are` → `m10aa`).
fn resref(name: &str) -> String {
    let file = name.rsplit('/').next().unwrap_or(name);
    file.split('.').next().unwrap_or(file).to_ascii_lowercase()
}

/// Whether a LYT beside `wok` of another area lists it as a room (it is that area's room).
fn room_of_another_area(wok: &Path, area: &str) -> bool {
    let Some(dir) = wok.parent() else {
        return false;
    };
    let room = wok
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .to_ascii_lowercase();
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| {
            let p = e.path();
            p.extension().is_some_and(|x| x.eq_ignore_ascii_case("lyt"))
                && resref(&p.file_name().unwrap().to_string_lossy()) != area
                && std::fs::read_to_string(&p)
                    .unwrap_or_default()
                    .to_ascii_lowercase()
                    .split_whitespace()
                    .any(|w| w == room)
        })
}

/// The corpus room walkmeshes of area `area` (`<area>_*.wok`, in area space).
fn area_woks(area: &str) -> Vec<PathBuf> {
    corpus_files(&["wok"])
        .into_iter()
        .filter(|p| {
            let stem = p
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .to_ascii_lowercase();
            stem.starts_with(&format!("{area}_")) && !room_of_another_area(p, area)
        })
        .collect()
}

/// The map blocks of the corpus AREs whose area has room walkmeshes in the corpus put all of
/// that ground inside the map (u, v in 0..1), as `world_to_map` reads them: m10aa (5 rooms,
/// the Black Vulkar base), m10ac (1), m12aa (the Ebon Hawk, 1; two copies of the ARE), m13aa
/// (1, NorthAxis 3). The copies of m12aa.are whose block is all zeros are degenerate.
#[test]
fn corpus_map_blocks_put_their_ground_on_the_map() {
    let ares = corpus_ares();
    assert_eq!(ares.len(), 79, "77 capsule members and 2 loose ARE files");
    let mut fitted = BTreeMap::new();
    let mut degenerate = Vec::new();
    for (name, map) in &ares {
        let area = resref(name);
        let woks = area_woks(&area);
        if woks.is_empty() {
            continue;
        }
        let meshes: Vec<Bwm> = woks
            .iter()
            .map(|p| bwm::read(&std::fs::read(p).unwrap()).unwrap())
            .collect();
        let refs: Vec<&Bwm> = meshes.iter().collect();
        let pts = walkable_samples(&refs, 0.25, 200_000);
        let findings = map_findings(map, None, &pts);
        if world_to_map(map, [0.0, 0.0]).is_none() {
            assert_eq!(findings.len(), 1, "{name}: {findings:?}");
            assert_eq!(findings[0].code, "minimap-map-degenerate");
            degenerate.push(name.clone());
            continue;
        }
        assert!(findings.is_empty(), "{name}: {findings:?}");
        let inside = pts
            .iter()
            .filter(|&&p| {
                let [u, v] = world_to_map(map, p).unwrap();
                (0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&v)
            })
            .count();
        assert_eq!(inside, pts.len(), "{name}");
        fitted.insert(name.clone(), (woks.len(), pts.len()));
    }
    eprintln!("map blocks against their ground: {fitted:?}; degenerate: {degenerate:?}");
    assert_eq!(
        fitted.keys().map(|n| resref(n)).collect::<Vec<_>>(),
        ["m13aa", "m12aa", "m12aa", "m10aa", "m10ac"],
        "{fitted:?}"
    );
    assert_eq!(fitted.values().map(|v| v.0).sum::<usize>(), 9);
    assert_eq!(degenerate.len(), 2, "{degenerate:?}");
    // m12aa_42a.wok (beside K1R's m12ac.lyt, which lists it) is not m12aa's.
    assert!(
        area_woks("m12aa")
            .iter()
            .all(|p| !p.ends_with("m12aa_42a.wok"))
    );
    assert!(corpus_dir().is_dir());
}

/// The orientation each block's point pairs give agrees with its NorthAxis in every corpus
/// ARE but PyKotor's hand-made test.are (NorthAxis 1, drawn +Y up): 0 = +Y up, 1 = -Y up,
/// 2 = +X up, 3 = -X up.
#[test]
fn corpus_north_axes_name_the_map_orientation() {
    let mut readable = 0;
    let mut by_axis = BTreeMap::new();
    let mut mismatched = Vec::new();
    for (name, map) in corpus_ares() {
        if world_to_map(&map, [0.0, 0.0]).is_none() {
            continue;
        }
        readable += 1;
        *by_axis.entry(map.north_axis.unwrap()).or_insert(0) += 1;
        let f = map_findings(&map, None, &[]);
        if f.iter().any(|f| f.code == "minimap-north-axis-mismatch") {
            mismatched.push(name);
        }
    }
    eprintln!("readable blocks by NorthAxis: {by_axis:?}");
    assert_eq!(readable, 70);
    assert_eq!(by_axis.len(), 4, "every NorthAxis occurs: {by_axis:?}");
    assert_eq!(mismatched, ["test.are"]);
}
