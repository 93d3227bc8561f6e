//! The oracle on grounds whose shortest paths are known by hand.

use super::*;

/// Unit cells `(i, j)` of a grid with `n` points a side, each cut along its rising diagonal.
fn cells(n: usize, keep: &[(usize, usize)]) -> (Vec<[f32; 3]>, Vec<[u32; 3]>) {
    let mut v = Vec::new();
    for j in 0..n {
        for i in 0..n {
            v.push([i as f32, j as f32, 0.0]);
        }
    }
    let id = |i: usize, j: usize| (j * n + i) as u32;
    let mut t = Vec::new();
    for &(i, j) in keep {
        t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
        t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
    }
    (v, t)
}

fn end(o: &Oracle, x: f32, y: f32) -> End {
    End {
        point: [x, y],
        triangle: o.locate(x, y, None).expect("on the ground"),
    }
}

/// 3 × 3 cells without the middle one, and two ends at opposite corners of the hole.
fn round_a_hole() -> (Oracle, End, End) {
    let keep: Vec<_> = (0..3)
        .flat_map(|j| (0..3).map(move |i| (i, j)))
        .filter(|&c| c != (1, 1))
        .collect();
    let (v, t) = cells(4, &keep);
    let o = Oracle::new(&v, &t);
    let (a, b) = (end(&o, 0.5, 0.5), end(&o, 2.5, 2.5));
    (o, a, b)
}

#[test]
fn goes_round_a_hole_corner() {
    let (o, a, b) = round_a_hole();
    assert!(!o.sees(a, b));
    let r = o.shortest(a, b, f64::INFINITY).expect("a path");
    assert!((r.length - 2.0 * 2.5f64.sqrt()).abs() < 1e-12, "{r:?}");
    let pts: Vec<[f32; 3]> = r
        .points
        .iter()
        .map(|p| [p[0] as f32, p[1] as f32, 0.0])
        .collect();
    assert_eq!(o.check_path(a, b, &pts), Ok(()));
    // Nothing shorter than the bound below the answer.
    assert!(o.shortest(a, b, r.length * (1.0 - 1e-9)).is_none());
    // The straight line crosses the hole.
    assert_eq!(
        o.check_path(a, b, &[[0.5, 0.5, 0.0], [2.5, 2.5, 0.0]]),
        Err(Fault::OffGround { i: 0 })
    );
}

#[test]
fn never_crosses_a_pinch() {
    // A band round a 4 × 4 grid, and cells (1, 1) and (2, 2) that touch only at (2, 2).
    let keep: Vec<_> = (0..4)
        .flat_map(|j| (0..4).map(move |i| (i, j)))
        .filter(|&(i, j)| {
            i == 0 || j == 0 || i == 3 || j == 3 || (i, j) == (1, 1) || (i, j) == (2, 2)
        })
        .collect();
    let (v, t) = cells(5, &keep);
    let o = Oracle::new(&v, &t);
    let (a, b) = (end(&o, 1.5, 1.5), end(&o, 2.5, 2.5));
    assert!(!o.sees(a, b), "the straight line passes through the pinch");
    let r = o
        .shortest(a, b, f64::INFINITY)
        .expect("a path round the band");
    assert!((r.length - (2.0 + 2f64.sqrt())).abs() < 1e-12, "{r:?}");
    // A path that turns at the pinch crosses it too.
    assert_eq!(
        o.check_path(a, b, &[[1.5, 1.5, 0.0], [2.0, 2.0, 0.0], [2.5, 2.5, 0.0]]),
        Err(Fault::OffGround { i: 1 })
    );
    // Up to the pinch and back is fine on either side.
    let c = end(&o, 1.5, 1.9);
    assert_eq!(
        o.check_path(a, c, &[[1.5, 1.5, 0.0], [2.0, 2.0, 0.0], [1.5, 1.9, 0.0]]),
        Ok(())
    );
    // The pinch itself, as a goal on the far cell's corner, is reached only from that side.
    let p = End {
        point: [2.0, 2.0],
        triangle: t
            .iter()
            .position(|x| x.contains(&12) && x.contains(&18))
            .unwrap() as u32,
    };
    assert!(o.sees(b, p) && !o.sees(a, p));
}

#[test]
fn keeps_levels_apart_and_walks_round_crack_tips() {
    let g = crate::nav_meshes::spiral_ramp(2, 8);
    let o = Oracle::new(&g.vertices, &g.triangles);
    // Two points above each other on consecutive turns: the way is a turn of the ramp.
    let lo = End {
        point: [4.0, 0.5],
        triangle: o.locate(4.0, 0.5, Some(0.0)).unwrap(),
    };
    let hi = End {
        point: [4.0, 0.5],
        triangle: o.locate(4.0, 0.5, Some(3.0)).unwrap(),
    };
    assert_ne!(lo.triangle, hi.triangle);
    assert!(!o.sees(lo, hi));
    let r = o.shortest(lo, hi, f64::INFINITY).unwrap();
    assert!(r.length > 2.0 * std::f64::consts::PI * 2.0, "{r:?}");
    // A slit: a 2 × 2 square whose cells left and right of x = 1 share no edge below y = 1.
    let v = vec![
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
        [2.0, 1.0, 0.0],
        [0.0, 2.0, 0.0],
        [1.0, 2.0, 0.0],
        [2.0, 2.0, 0.0],
        [1.0, 0.0, 0.0], // 9: a copy of 1
    ];
    let t = vec![
        [0, 1, 4],
        [0, 4, 3],
        [9, 2, 5],
        [9, 5, 4],
        [3, 4, 7],
        [3, 7, 6],
        [4, 5, 8],
        [4, 8, 7],
    ];
    let o = Oracle::new(&v, &t);
    let (a, b) = (end(&o, 0.5, 0.25), end(&o, 1.5, 0.25));
    let r = o.shortest(a, b, f64::INFINITY).unwrap();
    assert_eq!(r.points.len(), 3, "{r:?}");
    assert_eq!(r.points[1], [1.0, 1.0]);
    assert!((r.length - 2.0 * 0.5f64.hypot(0.75)).abs() < 1e-12);
    // Only the crack's tip turns: not its foot (two right angles, one a side), not the
    // middles of straight walls.
    assert_eq!(o.node_points(), vec![[1.0, 1.0]]);
}

#[test]
fn the_judge_flags_a_wrong_length_and_a_path_shorter_than_the_shortest() {
    // The answers carry the oracle's own route.
    let (o, a, b) = round_a_hole();
    let r = o.shortest(a, b, f64::INFINITY).expect("a path");
    let points: Vec<[f32; 3]> = r
        .points
        .iter()
        .map(|p| [p[0] as f32, p[1] as f32, 0.0])
        .collect();
    let answer = |how: &str, promise, length: f64| Answer {
        how: how.into(),
        promise,
        found: true,
        length,
        points: points.clone(),
    };
    let right = answer("right", Promise::Shortest, r.length);
    assert!(o.judge(a, b, std::slice::from_ref(&right)).is_empty());
    // The same points, a length that is not theirs.
    let kinds = |answers: &[Answer]| -> Vec<(&'static str, String)> {
        o.judge(a, b, answers)
            .into_iter()
            .map(|d| (d.kind, d.how))
            .collect()
    };
    assert!(
        kinds(&[
            right.clone(),
            answer("wrong", Promise::Path, r.length + 0.5)
        ])
        .contains(&("length", "wrong".into()))
    );
    // A fast answer claiming less than the shortest: caught even with no promise.
    let short = kinds(&[right, answer("short", Promise::Path, r.length - 0.01)]);
    assert!(short.contains(&("oracle", "short".into())), "{short:?}");
}
