use areakit_formats::bwm::{Bwm, Face, Material};
use areakit_formats::gff::views::{Are, AreMap};
use areakit_formats::gff::{Gff, Label, Struct, Value};

use super::*;

/// A walkmesh of the given walkable triangles (area space).
fn mesh(tris: &[[[f32; 2]; 3]]) -> Bwm {
    let mut b = Bwm::default();
    for t in tris {
        let base = b.vertices.len() as u32;
        b.vertices.extend(t.iter().map(|v| [v[0], v[1], 0.0]));
        b.faces.push(Face {
            vertices: [base, base + 1, base + 2],
            material: Material::Stone,
        });
    }
    b
}

fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> [[[f32; 2]; 3]; 2] {
    [
        [[x0, y0], [x1, y0], [x1, y1]],
        [[x0, y0], [x1, y1], [x0, y1]],
    ]
}

/// An L of two rectangles, in a room's own space.
fn ell() -> Vec<[[f32; 2]; 3]> {
    let mut v = rect(-6.0, -4.0, 6.0, -1.0).to_vec();
    v.extend(rect(-6.0, -1.0, -2.0, 8.0));
    v
}

/// m10aa.are's block (tar_m10aa.mod of the corpus).
fn m10aa() -> AreMap {
    AreMap {
        map_pt1: Some([0.2318, 0.137]),
        map_pt2: Some([0.7636, 0.5704]),
        world_pt1: Some([102.6, 136.3]),
        world_pt2: Some([196.9, 88.0]),
        north_axis: Some(0),
        map_zoom: Some(1),
        map_res_x: Some(32),
    }
}

fn close(a: [f32; 2], b: [f32; 2]) -> bool {
    (a[0] - b[0]).abs() < 1e-4 && (a[1] - b[1]).abs() < 1e-4
}

#[test]
fn the_world_points_land_on_the_map_points() {
    let m = m10aa();
    assert!(close(
        world_to_map(&m, [102.6, 136.3]).unwrap(),
        [0.2318, 0.137]
    ));
    assert!(close(
        world_to_map(&m, [196.9, 88.0]).unwrap(),
        [0.7636, 0.5704]
    ));
    // NorthAxis 0: +x is right, +y is up (v falls).
    let a = world_to_map(&m, [150.0, 100.0]).unwrap();
    let b = world_to_map(&m, [160.0, 110.0]).unwrap();
    assert!(b[0] > a[0] && b[1] < a[1]);
    // KotOR 1 spans 440 of 512 pixels; KotOR 2 all of them.
    let k1 = world_to_image(&m, 512, 256, [196.9, 88.0]).unwrap();
    assert!(close(k1, [0.7636 * 440.0, 0.5704 * 256.0]));
    let k2 = world_to_image_in(Game::K2, &m, 512, 256, [196.9, 88.0]).unwrap();
    assert!(close(k2, [0.7636 * 512.0, 0.5704 * 256.0]));
}

#[test]
fn axes_2_and_3_swap_x_and_y() {
    // m13aa.are (NorthAxis 3): y → u, x → v.
    let m = AreMap {
        map_pt1: Some([0.3659, 0.363]),
        map_pt2: Some([0.5545, 0.963]),
        world_pt1: Some([101.3, 36.2]),
        world_pt2: Some([237.2, 109.9]),
        north_axis: Some(3),
        map_zoom: Some(1),
        map_res_x: Some(50),
    };
    assert!(close(
        world_to_map(&m, [101.3, 36.2]).unwrap(),
        [0.3659, 0.363]
    ));
    let a = world_to_map(&m, [150.0, 50.0]).unwrap();
    let more_y = world_to_map(&m, [150.0, 60.0]).unwrap();
    let more_x = world_to_map(&m, [160.0, 50.0]).unwrap();
    assert_eq!(a[1], more_y[1], "v does not depend on y");
    assert_eq!(a[0], more_x[0], "u does not depend on x");
    assert!(more_y[0] > a[0] && more_x[1] > a[1], "-X up, +Y right");
}

#[test]
fn an_unreadable_block_maps_nothing() {
    let mut m = m10aa();
    m.world_pt2 = Some([102.6, 50.0]);
    assert_eq!(world_to_map(&m, [0.0, 0.0]), None);
    let mut m = m10aa();
    m.north_axis = Some(4);
    assert_eq!(world_to_map(&m, [0.0, 0.0]), None);
    let mut m = m10aa();
    m.map_pt1 = None;
    assert_eq!(world_to_map(&m, [0.0, 0.0]), None);
}

#[test]
fn walkmesh_minimap_puts_the_ground_on_the_ground() {
    let tris = ell();
    let b = mesh(&tris);
    let rooms = [MinimapRoom {
        walkmesh: Some(&b),
        image: None,
    }];
    for game in [Game::K1, Game::K2] {
        for axis in [None, Some(0), Some(1), Some(2), Some(3)] {
            let opts = MinimapOptions {
                game,
                north_axis: axis,
                ..MinimapOptions::default()
            };
            let m = render_minimap(&rooms, &opts).unwrap();
            assert_eq!((m.width, m.height, m.rgba.len()), (512, 256, 512 * 256 * 4));
            assert_eq!((m.rooms_from_walkmesh, m.rooms_from_images), (1, 0));
            let pts = walkable_samples(&[&b], 0.25, 100_000);
            assert!(pts.len() > 1000, "{}", pts.len());
            let c = coverage_in(game, &m.map, m.width, m.height, &m.rgba, &pts);
            assert_eq!(c, 1.0, "{game:?} {axis:?}");
            // The outside of the L (its inner corner) is background.
            let off = [4.0, 6.0];
            let [x, y] = world_to_image_in(game, &m.map, 512, 256, off).unwrap();
            let o = ((y as usize) * 512 + x as usize) * 4;
            assert!(is_background(&m.rgba[o..o + 4]), "{game:?} {axis:?}");
            if let Some(a) = axis {
                assert_eq!(m.map.north_axis, Some(a));
            }
            // Nothing is drawn where KotOR 1 does not show the texture.
            if game == Game::K1 {
                for y in 0..256 {
                    for x in 440..512 {
                        assert_eq!(m.rgba[(y * 512 + x) * 4 + 3], 0);
                    }
                }
            }
            assert!(map_findings(&m.map, Some((512, 256)), &pts).is_empty());
        }
    }
}

#[test]
fn a_tall_area_is_turned_when_it_shows_larger() {
    let b = mesh(&rect(0.0, 0.0, 10.0, 80.0));
    let rooms = [MinimapRoom {
        walkmesh: Some(&b),
        image: None,
    }];
    let auto = render_minimap(&rooms, &MinimapOptions::default()).unwrap();
    assert_eq!(auto.map.north_axis, Some(3));
    let upright = render_minimap(
        &rooms,
        &MinimapOptions {
            north_axis: Some(0),
            ..MinimapOptions::default()
        },
    )
    .unwrap();
    assert!(auto.pixels_per_unit > upright.pixels_per_unit * 1.2);
    // A wide one is not.
    let b = mesh(&rect(0.0, 0.0, 80.0, 10.0));
    let wide = [MinimapRoom {
        walkmesh: Some(&b),
        image: None,
    }];
    assert_eq!(
        render_minimap(&wide, &MinimapOptions::default())
            .unwrap()
            .map
            .north_axis,
        Some(0)
    );
}

#[test]
fn small_areas_are_not_magnified_past_the_kit_scale() {
    let b = mesh(&rect(0.0, 0.0, 4.0, 3.0));
    let rooms = [MinimapRoom {
        walkmesh: Some(&b),
        image: None,
    }];
    let m = render_minimap(&rooms, &MinimapOptions::default()).unwrap();
    assert_eq!(m.pixels_per_unit, KIT_PIXELS_PER_UNIT);
    let pts = walkable_samples(&[&b], 0.1, 10_000);
    assert_eq!(coverage(&m.map, 512, 256, &m.rgba, &pts), 1.0);
    let map_res = m.map.map_res_x.unwrap();
    assert!((1..=64).contains(&map_res));
}

/// The room image of `tris` (room space) as a kit draws it: centre = origin, 10 px/unit, +y up.
fn kit_image(tris: &[[[f32; 2]; 3]], w: u32, h: u32) -> RoomImage {
    let mut rgba = vec![0u8; (w * h * 4) as usize];
    for y in 0..h {
        for x in 0..w {
            let p = [
                (x as f32 + 0.5 - w as f32 / 2.0) / 10.0,
                (h as f32 / 2.0 - (y as f32 + 0.5)) / 10.0,
            ];
            if tris.iter().any(|t| in_triangle(t, p)) {
                let o = ((y * w + x) * 4) as usize;
                rgba[o..o + 4].copy_from_slice(&[200, 40, 40, 255]);
            }
        }
    }
    RoomImage {
        width: w,
        height: h,
        rgba,
    }
}

#[test]
fn room_images_are_placed_as_their_walkmeshes() {
    let own = ell();
    let img = kit_image(&own, 160, 200);
    for (rot, fx, fy) in [
        (0.0, false, false),
        (90.0, false, false),
        (180.0, true, false),
        (270.0, false, true),
        (33.0, true, true),
    ] {
        let pos = [50.0f32, -20.0, 3.0];
        let (s, c) = (f32::to_radians(rot).sin(), f32::to_radians(rot).cos());
        let placed: Vec<[[f32; 2]; 3]> = own
            .iter()
            .map(|t| {
                t.map(|v| {
                    let f = [if fx { -v[0] } else { v[0] }, if fy { -v[1] } else { v[1] }];
                    [pos[0] + f[0] * c - f[1] * s, pos[1] + f[0] * s + f[1] * c]
                })
            })
            .collect();
        let b = mesh(&placed);
        let pts = walkable_samples(&[&b], 0.2, 100_000);
        // The image alone (no walkmesh under it) covers the walkmesh's ground.
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
        let m = render_minimap(&rooms, &MinimapOptions::default()).unwrap();
        assert_eq!((m.rooms_from_images, m.rooms_from_walkmesh), (1, 0));
        let cov = coverage(&m.map, 512, 256, &m.rgba, &pts);
        assert!(cov >= 0.98, "rotation {rot} flips {fx} {fy}: {cov}");
        // The image's colour is what is drawn.
        let [x, y] = world_to_image(&m.map, 512, 256, pts[0]).unwrap();
        let o = ((y as usize) * 512 + x as usize) * 4;
        assert!(m.rgba[o] > m.rgba[o + 1], "{:?}", &m.rgba[o..o + 4]);
        // A wrong placement does not cover it.
        let wrong = [MinimapRoom {
            walkmesh: None,
            image: Some(PlacedImage {
                image: &img,
                position: pos,
                rotation_deg: rot + 90.0,
                flip_x: fx,
                flip_y: fy,
            }),
        }];
        let m = render_minimap(&wrong, &MinimapOptions::default()).unwrap();
        assert!(coverage(&m.map, 512, 256, &m.rgba, &pts) < 0.9);
    }
}

#[test]
fn options_and_empty_input_are_refused() {
    let b = mesh(&rect(0.0, 0.0, 4.0, 3.0));
    let rooms = [MinimapRoom {
        walkmesh: Some(&b),
        image: None,
    }];
    let small = MinimapOptions {
        width: 8,
        ..MinimapOptions::default()
    };
    assert_eq!(
        render_minimap(&rooms, &small),
        Err(MinimapError::Size(8, 256))
    );
    let axis = MinimapOptions {
        north_axis: Some(7),
        ..MinimapOptions::default()
    };
    assert!(matches!(
        render_minimap(&rooms, &axis),
        Err(MinimapError::Option(_))
    ));
    let none = [MinimapRoom::default()];
    assert_eq!(
        render_minimap(&none, &MinimapOptions::default()),
        Err(MinimapError::NoGround)
    );
    // Non-walkable faces are not ground.
    let mut wall = b.clone();
    wall.faces
        .iter_mut()
        .for_each(|f| f.material = Material::NonWalk);
    let walls = [MinimapRoom {
        walkmesh: Some(&wall),
        image: None,
    }];
    assert_eq!(
        render_minimap(&walls, &MinimapOptions::default()),
        Err(MinimapError::NoGround)
    );
}

fn are_with_map(id: u32, int_as_dword: bool) -> Gff {
    let mut gff = Gff::new(*b"ARE ");
    let l = |s: &str| Label::new(s).unwrap();
    let mut m = Struct::new(id);
    m.push(
        l("MapResX"),
        if int_as_dword {
            Value::Dword(3)
        } else {
            Value::Int(3)
        },
    );
    m.push(l("NorthAxis"), Value::Int(1));
    m.push(l("WorldPt1X"), Value::Float(0.0));
    m.push(l("MapZoom"), Value::Int(1));
    gff.root_mut().push(l("Tag"), Value::String("x".into()));
    gff.root_mut().push(l("Map"), Value::Struct(Box::new(m)));
    gff
}

#[test]
fn apply_map_writes_every_field_and_keeps_types() {
    let want = m10aa();
    // Absent: created with the game's types and order.
    let mut gff = Gff::new(*b"ARE ");
    apply_map(&mut gff, &want).unwrap();
    let s = gff.root().get_struct("Map").unwrap();
    assert_eq!(s.id, MAP_STRUCT_ID);
    let labels: Vec<_> = s
        .fields
        .iter()
        .map(|f| f.label.as_str().unwrap().to_string())
        .collect();
    assert_eq!(labels[0], "MapResX");
    assert_eq!(labels[10], "MapZoom");
    assert!(matches!(s.get("NorthAxis"), Some(Value::Int(0))));
    assert!(matches!(s.get("MapPt1X"), Some(Value::Float(_))));
    assert_eq!(Are::from_gff(&gff).map, Some(want));
    // Present: struct id, existing types and other fields kept, missing ones added.
    let mut gff = are_with_map(0, true);
    apply_map(&mut gff, &want).unwrap();
    let s = gff.root().get_struct("Map").unwrap();
    assert_eq!(s.id, 0);
    assert!(matches!(s.get("MapResX"), Some(Value::Dword(32))));
    assert_eq!(
        gff.root()
            .get_string("Tag")
            .map(|t| t.to_str().into_owned()),
        Some("x".into())
    );
    assert_eq!(Are::from_gff(&gff).map, Some(want));
    // Written and read back.
    let bytes = areakit_formats::gff::write(&gff).unwrap();
    let back = areakit_formats::gff::read(&bytes).unwrap();
    assert_eq!(Are::from_gff(&back).map, Some(want));
    // An incomplete block or a Map that is not a struct is refused.
    let mut part = want;
    part.map_zoom = None;
    assert!(apply_map(&mut gff, &part).is_err());
    let mut bad = Gff::new(*b"ARE ");
    bad.root_mut()
        .push(Label::new("Map").unwrap(), Value::Int(0));
    let e = apply_map(&mut bad, &want).unwrap_err();
    assert!(e.to_string().contains("not a struct"), "{e}");
}

#[test]
fn findings_of_a_block() {
    let codes = |f: Vec<areakit_formats::finding::Finding>| -> Vec<&'static str> {
        f.iter().map(|f| f.code).collect()
    };
    // m10aa's ground (x 134..200, y 80..145) is inside its map.
    let inside = [[150.0, 100.0], [190.0, 140.0]];
    assert!(map_findings(&m10aa(), None, &inside).is_empty());
    let outside = [[150.0, 100.0], [400.0, 100.0]];
    let f = map_findings(&m10aa(), Some((512, 256)), &outside);
    assert_eq!(codes(f.clone()), ["minimap-ground-outside"]);
    assert!(f[0].message.contains("50.0%"), "{}", f[0].message);
    let mut m = m10aa();
    m.world_pt2 = Some([102.6, 10.0]);
    assert_eq!(
        codes(map_findings(&m, None, &inside)),
        ["minimap-map-degenerate"]
    );
    let mut m = m10aa();
    m.north_axis = Some(5);
    assert_eq!(
        codes(map_findings(&m, None, &inside)),
        ["minimap-north-axis-invalid"]
    );
    let mut m = m10aa();
    m.map_pt2 = None;
    assert_eq!(
        codes(map_findings(&m, None, &inside)),
        ["minimap-map-incomplete"]
    );
    // PyKotor's test.are: NorthAxis 1, but drawn +Y up.
    let test_are = AreMap {
        map_pt1: Some([0.378, 0.768]),
        map_pt2: Some([0.622, 0.273]),
        world_pt1: Some([-14.18, -15.06]),
        world_pt2: Some([13.28, 12.86]),
        north_axis: Some(1),
        map_zoom: Some(1),
        map_res_x: Some(18),
    };
    let f = map_findings(&test_are, None, &[[0.0, 0.0]]);
    assert_eq!(codes(f.clone()), ["minimap-north-axis-mismatch"]);
    assert_eq!(f[0].severity, areakit_formats::finding::Severity::Info);
}

#[test]
fn room_pngs_decode_to_rgba() {
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, 3, 2);
        enc.set_color(png::ColorType::GrayscaleAlpha);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().unwrap();
        w.write_image_data(&[0, 0, 10, 255, 20, 128, 30, 0, 40, 255, 50, 255])
            .unwrap();
    }
    let img = decode_room_png(&bytes).unwrap();
    assert_eq!((img.width, img.height), (3, 2));
    assert_eq!(&img.rgba[4..8], &[10, 10, 10, 255]);
    assert_eq!(&img.rgba[20..24], &[50, 50, 50, 255]);
    assert!(decode_room_png(&bytes[..bytes.len() / 2]).is_err());
    assert!(decode_room_png(b"not a png").is_err());
}

#[test]
fn samples_cover_the_ground_evenly_and_are_bounded() {
    let b = mesh(&rect(0.0, 0.0, 10.0, 10.0));
    let pts = walkable_samples(&[&b], 0.5, 1_000_000);
    // 21 x 21 grid points (edges included, shared diagonal once) + 2 centroids.
    assert_eq!(pts.len(), 21 * 21 + 2);
    let few = walkable_samples(&[&b], 0.01, 500);
    assert!(few.len() <= 500 + 2 + 50, "{}", few.len());
    assert!(few.len() >= 300, "{}", few.len());
}
