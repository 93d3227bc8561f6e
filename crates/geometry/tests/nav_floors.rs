//! Overlapping floors: a bridge over a corridor, a balcony over the ground reached by a ramp.
//! Paths never jump between floors that only overlap in plan, and stitching never joins edges
//! that coincide in plan at different heights.

mod nav_support;

use areakit_geometry::Vec3;
use areakit_geometry::nav::{Mode, NavSet, PathError, Request, Searcher, Surface, stitch};
use nav_support::check_on_ground;

/// Appends a rectangle `[x0, x1] × [y0, y1]` of unit cells (two triangles each) with its own
/// vertices, heights from `z`, as region `region`.
fn rect(s: &mut Surface, x: [i32; 2], y: [i32; 2], region: u32, z: impl Fn(f32, f32) -> f32) {
    rect_cells(s, x, y, 1, region, z)
}

/// [`rect`] with square cells of side `cell`.
fn rect_cells(
    s: &mut Surface,
    x: [i32; 2],
    y: [i32; 2],
    cell: i32,
    region: u32,
    z: impl Fn(f32, f32) -> f32,
) {
    let base = s.vertices.len() as u32;
    let nx = ((x[1] - x[0]) / cell) as u32;
    let ny = ((y[1] - y[0]) / cell) as u32;
    for j in 0..=ny {
        for i in 0..=nx {
            let (px, py) = (
                (x[0] + i as i32 * cell) as f32,
                (y[0] + j as i32 * cell) as f32,
            );
            s.vertices.push(Vec3::new(px, py, z(px, py)));
        }
    }
    let v = |i: u32, j: u32| base + j * (nx + 1) + i;
    for j in 0..ny {
        for i in 0..nx {
            s.triangles.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            s.triangles.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
            s.regions.extend([region, region]);
        }
    }
}

fn opts(mode: Mode) -> Request {
    Request {
        mode,
        snap: 0.5,
        ..Request::default()
    }
}

#[test]
fn bridge_over_a_corridor() {
    let mut s = Surface::default();
    rect(&mut s, [0, 10], [4, 6], 0, |_, _| 0.0);
    rect(&mut s, [4, 6], [0, 10], 1, |_, _| 3.0);
    let st = stitch(&s, 1e-3).unwrap();
    assert!(st.seams.is_empty(), "{:?}", st.seams);
    let mesh_set = NavSet::build(&st.surface).unwrap();
    let mesh = &mesh_set.mesh;
    assert_eq!(mesh.islands().len(), 2);
    let mut q = Searcher::new();
    // Under the bridge: the z hint picks the floor.
    let low = mesh.locate(5.0, 5.0, Some(0.2)).unwrap();
    let high = mesh.locate(5.0, 5.0, Some(2.5)).unwrap();
    let top = mesh.locate(5.0, 5.0, None).unwrap();
    assert_eq!(mesh.region(low.triangle), 0);
    assert_eq!(mesh.region(high.triangle), 1);
    assert_eq!(top.triangle, high.triangle);
    // From the corridor to the bridge: not connected.
    for mode in [Mode::Optimal, Mode::Fast] {
        let e = q
            .find_path(
                &mesh_set.data(),
                Vec3::new(1.0, 5.0, 0.0),
                Vec3::new(5.0, 1.0, 3.0),
                &opts(mode),
            )
            .unwrap_err();
        assert!(matches!(e, PathError::DifferentIslands { .. }), "{e:?}");
        // Along the corridor, under the bridge: straight, at z = 0 throughout.
        let p = q
            .find_path(
                &mesh_set.data(),
                Vec3::new(1.0, 5.0, 0.0),
                Vec3::new(9.0, 5.0, 0.0),
                &opts(mode),
            )
            .unwrap();
        assert!((p.length_plan - 8.0).abs() < 1e-5);
        assert_eq!(p.regions, vec![0]);
        assert!(p.surface_points().iter().all(|v| v.z == 0.0));
        check_on_ground(mesh, &p, 0.05).unwrap();
        // Along the bridge, over the corridor: at z = 3 throughout.
        let p = q
            .find_path(
                &mesh_set.data(),
                Vec3::new(5.0, 1.0, 3.0),
                Vec3::new(5.0, 9.0, 3.0),
                &opts(mode),
            )
            .unwrap();
        assert!(
            (p.length_plan - 8.0).abs() < 1e-5,
            "{mode:?} {} {:?} {:?}",
            p.length_plan,
            p.points,
            p.triangles
        );
        assert_eq!(p.regions, vec![1]);
        assert!(p.surface_points().iter().all(|v| v.z == 3.0));
        check_on_ground(mesh, &p, 0.05).unwrap();
    }
}

#[test]
fn ramp_up_to_a_balcony() {
    // Ground G (region 0) under a balcony B (region 4, z = 4) whose ramp R (region 3)
    // descends east to the ground extension E (region 2), which E2 (region 1) joins to G.
    // R's south edge lies over E2's north edge in plan (x in [20, 25], y = 3) but descends from
    // z = 2 to 0 there: it must not be stitched.
    let mut s = Surface::default();
    rect(&mut s, [0, 20], [0, 10], 0, |_, _| 0.0);
    rect(&mut s, [20, 25], [0, 3], 1, |_, _| 0.0);
    rect_cells(&mut s, [25, 27], [0, 10], 2, 2, |_, _| 0.0);
    rect(&mut s, [15, 25], [3, 7], 3, |x, _| 4.0 - 0.4 * (x - 15.0));
    rect(&mut s, [5, 15], [3, 7], 4, |_, _| 4.0);
    let st = stitch(&s, 1e-3).unwrap();
    let pairs: Vec<[u32; 2]> = st.seams.iter().map(|s| s.regions).collect();
    assert_eq!(pairs, vec![[0, 1], [1, 2], [2, 3], [3, 4]]);
    // E2 (3 long, against 10 of G's edge) and R (4 long, against E's 10): partial seams;
    // E's cells are 2 wide, so E2's and R's edges end inside E's: T-junctions split E.
    let len = |r: [u32; 2]| st.seams.iter().find(|s| s.regions == r).unwrap().length;
    assert!((len([0, 1]) - 3.0).abs() < 1e-5);
    assert!((len([1, 2]) - 3.0).abs() < 1e-5);
    assert!((len([2, 3]) - 4.0).abs() < 1e-5);
    assert!((len([3, 4]) - 4.0).abs() < 1e-5);
    assert!(st.split_triangles > 0);
    let mesh_set = NavSet::build(&st.surface).unwrap();
    let mesh = &mesh_set.mesh;
    assert_eq!(
        mesh.islands().len(),
        1,
        "{:?} {:?}",
        mesh.islands(),
        st.seams
    );
    let mut q = Searcher::new();
    let under = Vec3::new(10.0, 5.0, 0.0);
    let on = Vec3::new(10.0, 5.0, 4.0);
    for mode in [Mode::Optimal, Mode::Fast] {
        let p = q
            .find_path(&mesh_set.data(), under, on, &opts(mode))
            .unwrap();
        assert_eq!(p.regions, vec![0, 1, 2, 3, 4], "{mode:?}");
        // It must go round through E (x >= 25) and back: at least 2 × 15 in plan.
        assert!(p.length_plan >= 30.0, "{}", p.length_plan);
        assert!(p.length_3d > p.length_plan);
        check_on_ground(mesh, &p, 0.05).unwrap();
        // Every surface point is at the height of the floor it is on: z = 0 under the balcony
        // until the ramp, z = 4 on the balcony.
        let first = p.surface_points()[0];
        let last = *p.surface_points().last().unwrap();
        assert_eq!((first.z, last.z), (0.0, 4.0));
    }
    // The exact length: G (10,5) to E2's corner (20,3), to E (25,3) round R's corner at
    // (25,3) is a vertex of R too ... the optimal path turns at the corners (20,3) and (25,3)
    // then climbs straight to (10,5) on the balcony.
    let p = q
        .find_path(&mesh_set.data(), under, on, &opts(Mode::Optimal))
        .unwrap();
    let d = |a: (f32, f32), b: (f32, f32)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let want =
        d((10.0, 5.0), (20.0, 3.0)) + d((20.0, 3.0), (25.0, 3.0)) + d((25.0, 3.0), (10.0, 5.0));
    assert!(
        (p.length_plan - want).abs() < 1e-4,
        "{} vs {want}: {:?}",
        p.length_plan,
        p.points
    );
}
