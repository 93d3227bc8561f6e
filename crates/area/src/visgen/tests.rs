use glam::Vec3;

use super::bvh::{Bvh, Tri};
use super::synthetic::{GridSpec, grid_area};
use super::*;

/// A deterministic stream of floats in [0, 1).
struct Lcg(u64);
impl Lcg {
    fn f(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn v(&mut self, scale: f32) -> Vec3 {
        Vec3::new(self.f(), self.f(), self.f()) * scale
    }
}

/// Segment against triangle, no tree (Möller–Trumbore written again, with the ends excluded).
fn crosses(a: Vec3, b: Vec3, t: [Vec3; 3]) -> Option<f32> {
    let d = b - a;
    let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
    let n = e1.cross(e2);
    let den = -d.dot(n);
    if den.abs() < 1e-12 {
        return None;
    }
    let s = a - t[0];
    let tt = s.dot(n) / den;
    let q = s.cross(d);
    let u = e2.dot(q) / den;
    let v = -e1.dot(q) / den;
    (u >= 0.0 && v >= 0.0 && u + v <= 1.0 && tt > 0.0 && tt < 1.0).then_some(tt)
}

#[test]
fn the_tree_answers_as_brute_force() {
    let mut r = Lcg(7);
    let tris: Vec<[Vec3; 3]> = (0..300)
        .map(|_| {
            let c = r.v(20.0);
            [c + r.v(2.0), c + r.v(2.0), c + r.v(2.0)]
        })
        .collect();
    let bvh = Bvh::build(tris.iter().map(|&t| Tri::new(t)).collect());
    assert_eq!(bvh.len(), 300);
    let (mut blocked, mut free) = (0, 0);
    for _ in 0..3000 {
        let (a, b) = (r.v(24.0) - Vec3::splat(2.0), r.v(24.0) - Vec3::splat(2.0));
        let brute = tris
            .iter()
            .filter_map(|&t| crosses(a, b, t))
            .reduce(f32::min);
        assert_eq!(bvh.blocked(a, b), brute.is_some(), "{a} {b}");
        let first = bvh.first_hit(a, b - a, 1.0);
        match (first, brute) {
            (Some(x), Some(y)) => assert!((x - y).abs() < 1e-4, "{x} vs {y}"),
            (None, None) => {}
            other => panic!("{other:?}"),
        }
        if brute.is_some() {
            blocked += 1
        } else {
            free += 1
        }
    }
    assert!(
        blocked > 300 && free > 300,
        "{blocked} blocked, {free} free"
    );
    // Axis-parallel segments (zero direction components) too.
    for _ in 0..500 {
        let a = r.v(20.0);
        let b = a + Vec3::Z * 5.0;
        let brute = tris.iter().any(|&t| crosses(a, b, t).is_some());
        assert_eq!(bvh.blocked(a, b), brute);
    }
}

#[test]
fn a_margin_opens_free_edges_only() {
    // Two triangles making the unit square in z = 0; the x = 1 side is free.
    let sq = [
        [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0)],
        [Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0), Vec3::Y],
    ];
    let tris = with_margins(&sq.map(|t| t), 0.05);
    let bvh = Bvh::build(tris);
    let down = |x: f32, y: f32| bvh.blocked(Vec3::new(x, y, 1.0), Vec3::new(x, y, -1.0));
    assert!(down(0.5, 0.5));
    assert!(!down(0.98, 0.3), "within the margin of the free side x = 1");
    assert!(down(0.9, 0.3), "outside the margin");
    // On the shared diagonal: no margin there.
    assert!(down(0.5, 0.5001) && down(0.3, 0.2999));
    // A repeated face (another room's coincident wall, wound the other way) keeps the edge
    // free.
    let twice: Vec<[Vec3; 3]> = sq
        .iter()
        .copied()
        .chain(sq.iter().map(|t| [t[0], t[2], t[1]]))
        .collect();
    let bvh = Bvh::build(with_margins(&twice, 0.05));
    assert!(!bvh.blocked(Vec3::new(0.98, 0.3, 1.0), Vec3::new(0.98, 0.3, -1.0)));
}

#[test]
fn points_spread_over_triangles_by_area() {
    let big = [Vec3::ZERO, Vec3::X * 10.0, Vec3::Y * 10.0]; // 50 m²
    let small = [Vec3::Z, Vec3::Z + Vec3::X, Vec3::Z + Vec3::Y]; // 0.5 m²
    let pts = sample_triangles(&[big, small], 1.0, 10_000);
    let on_big = pts.iter().filter(|p| p.1 == 0).count();
    assert!((49..=51).contains(&on_big), "{on_big}");
    assert!(pts.len() <= 52);
    for (p, i) in &pts {
        let t = if *i == 0 { big } else { small };
        // Inside its triangle (barycentric check in its plane).
        let (e1, e2, w) = (t[1] - t[0], t[2] - t[0], *p - t[0]);
        let n = e1.cross(e2);
        assert!(w.dot(n).abs() < 1e-4);
        let u = w.cross(e2).dot(n) / n.length_squared();
        let v = e1.cross(w).dot(n) / n.length_squared();
        assert!(u >= -1e-5 && v >= -1e-5 && u + v <= 1.0 + 1e-5, "{p}");
    }
    // The cap holds, and a tiny surface still gets a point.
    assert_eq!(sample_triangles(&[big], 0.01, 100).len(), 100);
    assert_eq!(sample_triangles(&[small], 100.0, 100).len(), 1);
}

/// Coarser than the defaults: unit tests run unoptimised.
fn opts() -> VisOptions {
    VisOptions {
        threads: 2,
        eye_spacing: 1.5,
        target_spacing: 1.5,
        ..VisOptions::default()
    }
}

/// A 3 × 1 row of rooms: 0-1 joined by a doorway, 1-2 by a wall only.
fn row() -> synthetic::SyntheticArea {
    let mut a = grid_area(&GridSpec {
        cols: 3,
        rows: 1,
        door_chance: 1.0,
        pillar_chance: 0.0,
        ..GridSpec::default()
    });
    assert_eq!(a.links, vec![(0, 1), (1, 2)]);
    // Close the 1-2 doorway: rebuild room 2 and 1's east wall without it.
    let b = grid_area(&GridSpec {
        cols: 3,
        rows: 1,
        door_chance: 0.0,
        pillar_chance: 0.0,
        ..GridSpec::default()
    });
    let keep_west = a.rooms[1].clone();
    a.rooms[2] = b.rooms[2].clone();
    // Room 1: a doorway west (to 0), none east: take room 1 of a 2-room row with a door.
    let two = grid_area(&GridSpec {
        cols: 2,
        rows: 1,
        door_chance: 1.0,
        pillar_chance: 0.0,
        ..GridSpec::default()
    });
    let mut r1 = two.rooms[1].clone();
    r1.position = keep_west.position;
    r1.walkmesh = keep_west.walkmesh;
    r1.triangles = Vec::new();
    a.rooms[1] = r1;
    // The doorway of a two-room row sits elsewhere than the three-room row's: use the two-room
    // row's room 0 as well, so the two gaps match.
    a.rooms[0] = two.rooms[0].clone();
    a.links = vec![(0, 1)];
    a
}

#[test]
fn rooms_see_through_doorways_not_through_walls() {
    let area = row();
    let rooms = area.vis_rooms();
    let r = generate_vis(&rooms, &area.links, &opts());
    assert_eq!(r.method, "portals");
    let v = &r.vis;
    assert!(v.is_visible("r0_0", "r1_0") && v.is_visible("r1_0", "r0_0"));
    assert!(!v.is_visible("r1_0", "r2_0") && !v.is_visible("r2_0", "r1_0"));
    assert!(!v.is_visible("r0_0", "r2_0"));
    assert_eq!(r.pairs, 1);
    assert_eq!(r.linked_pairs, 1);
    assert_eq!((r.openings, r.doorways), (2, 1));
    assert_eq!(r.pairs_without_sampled_line, None, "nothing sampled");
    assert_eq!(r.rays, 0);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    // Sampled sight lines, asked for, confirm the pair (and change nothing).
    let sampled = generate_vis(
        &rooms,
        &area.links,
        &VisOptions {
            confirm: true,
            ..opts()
        },
    );
    assert_eq!(sampled.vis, r.vis);
    assert_eq!(sampled.pairs_without_sampled_line, Some(0));
    assert_eq!(sampled.pairs_from_sampling, 0);
    assert!(sampled.rays > 0 && sampled.eye_points > 0 && sampled.occluder_triangles > 0);
    // A link always makes the pair, even through a wall; it has no sight line.
    let r = generate_vis(
        &rooms,
        &[(0, 1), (1, 2)],
        &VisOptions {
            confirm: true,
            ..opts()
        },
    );
    assert!(r.vis.is_visible("r2_0", "r1_0") && r.vis.is_visible("r1_0", "r2_0"));
    assert_eq!(r.pairs_without_sampled_line, Some(1));
    // The result does not depend on the number of threads.
    let one = generate_vis(
        &rooms,
        &area.links,
        &VisOptions {
            threads: 1,
            ..opts()
        },
    );
    assert_eq!(one.vis, generate_vis(&rooms, &area.links, &opts()).vis);
}

#[test]
fn the_vis_is_symmetric_and_lists_every_room() {
    let area = grid_area(&GridSpec {
        cols: 3,
        rows: 3,
        seed: 5,
        ..GridSpec::default()
    });
    let rooms = area.vis_rooms();
    let r = generate_vis(&rooms, &area.links, &opts());
    assert_eq!(r.vis.rooms.len(), 9);
    for a in &rooms {
        for b in &rooms {
            assert_eq!(
                r.vis.is_visible(&a.name, &b.name),
                r.vis.is_visible(&b.name, &a.name)
            );
        }
        assert!(!r.vis.is_visible(&a.name, &a.name));
    }
    for &(a, b) in &area.links {
        assert!(r.vis.is_visible(&rooms[a].name, &rooms[b].name));
    }
    // Something is hidden in a 3 × 3 grid with walls.
    assert!(r.pairs < 36, "{} pairs", r.pairs);
    assert!(r.pairs > area.links.len());
}

/// Rooms `0..n` in a column (each 10 m, north of the last), joined by doorways 1 m wide at the
/// given places along their shared walls.
fn column(doors: &[f32]) -> Vec<synthetic::SyntheticRoom> {
    let n = doors.len() + 1;
    (0..n)
        .map(|i| {
            let hole = |at: f32| Some((at, 1.0, 2.5, 0.0));
            let south = (i > 0).then(|| hole(doors[i - 1])).flatten();
            let north = (i + 1 < n).then(|| hole(doors[i])).flatten();
            synthetic::box_room(
                &format!("c{i}"),
                [0.0, 10.0 * i as f32, 0.0],
                10.0,
                3.0,
                [south, None, north, None],
                None,
            )
        })
        .collect()
}

fn vis_rooms_of(rooms: &[synthetic::SyntheticRoom]) -> Vec<VisRoom<'_>> {
    rooms
        .iter()
        .map(|r| VisRoom {
            name: r.name.clone(),
            walkmesh: Some(&r.walkmesh),
            model: Some(&r.model),
            position: r.position,
        })
        .collect()
}

#[test]
fn doorways_in_line_are_seen_through_and_a_zigzag_is_not() {
    // Doorways all at 5 m along their walls: a line runs up the whole column.
    let straight = column(&[5.0, 5.0, 5.0]);
    let r = generate_vis(&vis_rooms_of(&straight), &[], &opts());
    assert_eq!(r.pairs, 6, "every pair of four rooms in line");
    assert_eq!(r.doorways, 3);
    // 1.5, 8.5, 1.5: a line through the first and second doorways runs east; it cannot
    // come back west to the third. Rooms 0 and 3 do not see each other; the rest do.
    let zigzag = column(&[1.5, 8.5, 1.5]);
    let rooms = vis_rooms_of(&zigzag);
    let r = generate_vis(&rooms, &[], &opts());
    assert!(!r.vis.is_visible("c0", "c3"), "{:?}", r.vis);
    assert!(r.vis.is_visible("c0", "c2") && r.vis.is_visible("c1", "c3"));
    assert_eq!(r.pairs, 5);
    // A slit of a doorway, 5 cm wide, still joins its rooms (no sampling to miss it).
    let mut slit = column(&[5.0]);
    slit[1] = synthetic::box_room(
        "c1",
        [0.0, 10.0, 0.0],
        10.0,
        3.0,
        [Some((5.0, 0.05, 2.5, 0.0)), None, None, None],
        None,
    );
    slit[0] = synthetic::box_room(
        "c0",
        [0.0, 0.0, 0.0],
        10.0,
        3.0,
        [None, None, Some((5.0, 0.05, 2.5, 0.0)), None],
        None,
    );
    let r = generate_vis(&vis_rooms_of(&slit), &[], &opts());
    assert_eq!((r.pairs, r.doorways), (1, 1));
}

#[test]
fn a_shell_is_closed_but_for_its_openings() {
    let tri = |r: &synthetic::SyntheticRoom| -> Vec<[Vec3; 3]> {
        r.triangles.iter().map(|t| t.map(Vec3::from)).collect()
    };
    // A closed box: no opening, nothing faces out.
    let closed = synthetic::box_room("b", [0.0; 3], 4.0, 3.0, [None; 4], Some([1.0, 1.0]));
    let s = shell::shell(&tri(&closed), &tri(&closed));
    assert!(s.openings.is_empty(), "{:?}", s.openings);
    assert!(!s.seen_from_outside);
    // A window 8 cm wide in the east wall: one opening, facing east.
    let window = synthetic::box_room(
        "w",
        [0.0; 3],
        4.0,
        3.0,
        [None, Some((2.0, 0.08, 1.0, 1.0)), None, None],
        None,
    );
    let s = shell::shell(&tri(&window), &tri(&window));
    assert_eq!(s.openings.len(), 1);
    assert!(s.openings[0].normal.x > 0.99, "{:?}", s.openings[0].normal);
    assert!((s.openings[0].area - 0.08).abs() < 1e-3);
    // A crack 2 cm wide is narrower than the narrowest opening: closed.
    let crack = synthetic::box_room(
        "k",
        [0.0; 3],
        4.0,
        3.0,
        [None, Some((2.0, 0.02, 1.0, 1.0)), None, None],
        None,
    );
    assert!(shell::shell(&tri(&crack), &tri(&crack)).openings.is_empty());
    // A panel lying on a wall (its own boundary loop) is a pocket, not an opening.
    let mut panel = tri(&closed);
    let (a, b, c, d) = (
        Vec3::new(4.0, 1.0, 1.0),
        Vec3::new(4.0, 2.0, 1.0),
        Vec3::new(4.0, 2.0, 2.0),
        Vec3::new(4.0, 1.0, 2.0),
    );
    panel.push([a, c, b]);
    panel.push([a, d, c]);
    let s = shell::shell(&panel, &panel);
    assert!(s.loops >= 1 && s.openings.is_empty(), "{s:?}");
}

#[test]
fn without_models_the_room_graph_gives_the_pairs_within_the_depth() {
    let area = grid_area(&GridSpec {
        cols: 4,
        rows: 1,
        door_chance: 1.0,
        ..GridSpec::default()
    });
    let rooms: Vec<VisRoom<'_>> = area
        .vis_rooms()
        .into_iter()
        .map(|r| VisRoom { model: None, ..r })
        .collect();
    let links = [(0, 1), (2, 1), (2, 3)];
    // By default nothing bounds what a room sees: every pair.
    let r = generate_vis(&rooms, &links, &opts());
    assert_eq!((r.pairs, r.method.as_str()), (6, "every pair"));
    assert!(r.warnings[0].contains("no room models"), "{:?}", r.warnings);
    // Linked rooms always see each other, so depth 0 gives the links.
    for (depth, pairs) in [(0, 3), (1, 3), (2, 5), (3, 6)] {
        let r = generate_vis(
            &rooms,
            &links,
            &VisOptions {
                fallback_depth: Some(depth),
                ..opts()
            },
        );
        assert_eq!(r.pairs, pairs, "depth {depth}");
        assert!(r.method.starts_with("walkmesh room graph"));
        assert_eq!(r.warnings.len(), 1);
        assert!(
            r.warnings[0].contains("no room models"),
            "{}",
            r.warnings[0]
        );
        assert_eq!(r.rays, 0);
    }
    // And the checks say nothing without models.
    assert!(vis_findings(&rooms, &links, &Vis::default(), &opts(), None).is_empty());
}

#[test]
fn a_room_without_a_model_is_seen_by_its_floor_and_named_in_a_warning() {
    let area = row();
    let mut rooms = area.vis_rooms();
    rooms[0].model = None;
    let r = generate_vis(&rooms, &area.links, &opts());
    assert_eq!(r.method, "portals");
    assert!(r.vis.is_visible("r0_0", "r1_0"));
    assert!(
        r.warnings.iter().any(|w| w.contains("r0_0")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn the_eye_stays_under_a_low_ceiling() {
    // One room 1 m high: eyes end just under the ceiling, not above it.
    let area = grid_area(&GridSpec {
        cols: 1,
        rows: 1,
        height: 1.0,
        pillar_chance: 0.0,
        ..GridSpec::default()
    });
    let scene = prepare(&area.vis_rooms(), &opts()).build();
    assert!(!scene.rooms[0].eyes.is_empty());
    assert!(
        scene.rooms[0]
            .eyes
            .iter()
            .all(|e| e.z > 0.5 && e.z < 1.0 - 0.01),
        "{:?}",
        &scene.rooms[0].eyes[..3]
    );
}

#[test]
fn findings_name_missing_and_excess_pairs() {
    let area = row();
    let rooms = area.vis_rooms();
    let mut vis = Vis::default();
    // 0 lists 2 (no sight line, no link): excess; 1 lacks 0: missing in one direction.
    vis.set_visible("r0_0", "r1_0", true);
    vis.set_visible("r0_0", "r2_0", true);
    vis.add_room("r1_0");
    vis.add_room("r2_0");
    let f = vis_findings(&rooms, &area.links, &vis, &opts(), None);
    let codes: Vec<&str> = f.iter().map(|f| f.code).collect();
    assert_eq!(codes, ["vis-missing-pair", "vis-excess-pair"], "{f:#?}");
    assert_eq!(f[0].severity, areakit_formats::Severity::Warning);
    assert!(
        f[0].message.contains("does not list `r0_0` under `r1_0`"),
        "{}",
        f[0].message
    );
    assert!(f[0].place.position.is_some());
    assert_eq!(f[1].severity, areakit_formats::Severity::Info);
    assert!(
        f[1].message.contains("`r2_0` under `r0_0`"),
        "{}",
        f[1].message
    );
    // The generated VIS has no finding.
    let r = generate_vis(&rooms, &area.links, &opts());
    assert!(vis_findings(&rooms, &area.links, &r.vis, &opts(), None).is_empty());
}

#[test]
fn a_trimesh_model_writes_reads_back_and_gives_its_faces() {
    let tris = [
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        [[0.0, 0.0, 2.0], [0.0, 1.0, 2.0], [1.0, 0.0, 2.0]],
    ];
    let m = trimesh_model("box", &tris);
    let (a, x) = mdl::write(&m).unwrap();
    let back = mdl::read(&a, &x).unwrap();
    let faces = occluder_faces(&back, [10.0, 0.0, 1.0]);
    assert_eq!(faces.len(), 2);
    assert!(faces.iter().all(|f| f.1), "opaque");
    assert_eq!(faces[0].0[1], [11.0, 0.0, 1.0]);
    assert_eq!(faces[1].0[2], [11.0, 0.0, 3.0]);
    // Transparent meshes are drawn but do not hide.
    let mut glass = back.clone();
    for n in &mut glass.nodes {
        if let Some(mesh) = &mut n.mesh {
            mesh.transparency_hint = 1;
        }
    }
    assert!(occluder_faces(&glass, [0.0; 3]).iter().all(|f| !f.1));
}

#[test]
fn cube_maps_change_the_time_not_the_result() {
    let area = grid_area(&GridSpec {
        cols: 3,
        rows: 2,
        seed: 9,
        ..GridSpec::default()
    });
    let rooms = area.vis_rooms();
    let sampled = VisOptions {
        confirm: true,
        ..opts()
    };
    let plain = generate_vis(&rooms, &area.links, &VisOptions { cube: 0, ..sampled });
    let cubed = generate_vis(
        &rooms,
        &area.links,
        &VisOptions {
            cube: 8,
            ..sampled.clone()
        },
    );
    assert_eq!(plain.vis, cubed.vis);
    assert!(cubed.rays < plain.rays, "{} vs {}", cubed.rays, plain.rays);
}

#[test]
fn pixels_hold_their_directions() {
    let res = 8;
    let mut r = Lcg(3);
    for _ in 0..2000 {
        let d = r.v(2.0) - Vec3::ONE;
        let p = pixel(d, res);
        let (f, j, i) = (p / (res * res), (p / res) % res, p % res);
        // The pixel's four corner directions span a cone holding d: d is a non-negative
        // combination of them, so its face coordinates lie within the pixel's.
        let lo = |k: usize| -1.0 + 2.0 * k as f32 / res as f32;
        let c = face_dir(f, lo(i), lo(j));
        let c2 = face_dir(f, lo(i + 1), lo(j + 1));
        let axis = f / 2;
        let m = d[axis] / c[axis];
        assert!(m > 0.0);
        let q = d / m;
        for k in 0..3 {
            if k != axis {
                let (a, b) = (c[k].min(c2[k]), c[k].max(c2[k]));
                assert!(q[k] >= a - 1e-4 && q[k] <= b + 1e-4, "{d} in pixel {p}");
            }
        }
    }
}

#[test]
fn coplanar_faces_join_into_convex_patches_only() {
    // A U of quads round a doorway (three panels in one plane) and a floor quad at an angle.
    let mut tris = Vec::new();
    let mut quad = |a: [f32; 3], b: [f32; 3], c: [f32; 3], d: [f32; 3]| {
        let [a, b, c, d] = [a, b, c, d].map(Vec3::from);
        tris.push([a, b, c]);
        tris.push([a, c, d]);
    };
    // Left panel, lintel, right panel (x from 0 to 3, door from 1 to 2 up to 2 m; 3 m high).
    quad(
        [1.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 3.0],
        [1.0, 0.0, 3.0],
    );
    quad(
        [2.0, 0.0, 2.0],
        [1.0, 0.0, 2.0],
        [1.0, 0.0, 3.0],
        [2.0, 0.0, 3.0],
    );
    quad(
        [3.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [2.0, 0.0, 3.0],
        [3.0, 0.0, 3.0],
    );
    quad(
        [0.0, 0.0, 0.0],
        [3.0, 0.0, 0.0],
        [3.0, 3.0, 0.0],
        [0.0, 3.0, 0.0],
    );
    let t = with_margins(&tris, 0.0);
    let bvh = Bvh::build(t);
    // The group of the face hit straight on.
    let g = |o: [f32; 3], d: [f32; 3]| {
        let h = bvh
            .first_hit_triangle(Vec3::from(o), Vec3::from(d), 100.0)
            .unwrap();
        bvh.group(h.1)
    };
    let y = [0.0, -1.0, 0.0];
    let left = [g([0.2, 1.0, 0.2], y), g([0.8, 1.0, 2.8], y)];
    let lintel = g([1.5, 1.0, 2.5], y);
    let right = [g([2.2, 1.0, 2.9], y), g([2.9, 1.0, 0.1], y)];
    let floor = [
        g([0.1, 2.9, 1.0], [0.0, 0.0, -1.0]),
        g([2.9, 0.1, 1.0], [0.0, 0.0, -1.0]),
    ];
    assert_eq!(left[0], left[1], "a quad is one patch");
    assert_eq!(right[0], right[1]);
    assert_eq!(floor[0], floor[1]);
    // The panels may join the lintel (each union is convex) but never both: the U is not convex.
    assert!(!(left[0] == lintel && right[0] == lintel));
    assert_ne!(left[0], right[0]);
    assert_ne!(floor[0], left[0]);
}

#[test]
fn more_rooms_than_the_limit_make_no_vis_and_say_so() {
    let names: Vec<String> = (0..=MAX_ROOMS).map(|i| format!("r{i}")).collect();
    let rooms: Vec<VisRoom> = names
        .iter()
        .map(|name| VisRoom {
            name: name.clone(),
            walkmesh: None,
            model: None,
            position: [0.0; 3],
        })
        .collect();
    let r = generate_vis(&rooms, &[(0, 1)], &opts());
    assert_eq!(r.pairs, 0);
    assert_eq!(r.vis.rooms.len(), 0);
    assert!(
        r.warnings[0].contains("no VIS was made"),
        "{:?}",
        r.warnings
    );
    // One room fewer: every pair, as without models.
    let r = generate_vis(&rooms[..MAX_ROOMS], &[], &opts());
    assert_eq!(r.pairs, MAX_ROOMS * (MAX_ROOMS - 1) / 2);
}
