//! NWN compiled models against what compiling their ASCII derives: every corpus model
//! decompiled and compiled again gets the face planes, adjacency, mesh extents and model box
//! the game's compiler wrote (the files' own bytes are the referee); and a model moved with
//! `transform` moves every node and animation key as one rigid body.

use areakit_area::nwn_models;
use areakit_formats::mdl::nwn;
use areakit_geometry::transform::{Axis, Transform};

fn models() -> Vec<(std::path::PathBuf, nwn::Model)> {
    areakit_testkit::corpus_files(&["nwn-mdl-bin"])
        .into_iter()
        .map(|p| {
            let m = nwn::read(&std::fs::read(&p).unwrap()).unwrap();
            (p, m)
        })
        .collect()
}

fn near(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

fn near3(a: [f32; 3], b: [f32; 3], tol: f32) -> bool {
    (0..3).all(|k| near(a[k], b[k], tol))
}

#[test]
fn compiling_the_decompiled_text_derives_what_the_games_compiler_wrote() {
    let models = models();
    assert_eq!(models.len(), 108);
    let (mut faces, mut meshes, mut adjacency_same) = (0, 0, 0);
    let (mut extents_same, mut failures) = (0, Vec::new());
    for (p, m) in &models {
        let text = areakit_formats::mdl_ascii::write(&nwn::to_ascii(m));
        let mut c = nwn::from_ascii(&areakit_formats::mdl_ascii::read(&text).unwrap()).unwrap();
        nwn_models::derive_compiled(&mut c);
        let b = &c.model;
        if !near3(m.header.bounds_min, b.header.bounds_min, 1e-4)
            || !near3(m.header.bounds_max, b.header.bounds_max, 1e-4)
            // The radius as NWN:EE's compiler writes it (the old compiler writes 40 always).
            || (m.geometry.function_pointers[0] == 4_242_368 && m.header.radius != b.header.radius)
        {
            failures.push(format!(
                "{}: model box {:?} {:?} vs {:?} {:?}",
                p.display(),
                m.header.bounds_min,
                m.header.bounds_max,
                b.header.bounds_min,
                b.header.bounds_max
            ));
        }
        for (i, (a, b)) in m.nodes.iter().zip(&b.nodes).enumerate() {
            let (Some(x), Some(y)) = (&a.mesh, &b.mesh) else {
                continue;
            };
            let at = format!("{}: {}", p.display(), m.node_path(i));
            if x.faces.is_empty() {
                continue;
            }
            meshes += 1;
            for (f, g) in x.faces.iter().zip(&y.faces) {
                faces += 1;
                if !near3(f.normal, g.normal, 1e-4) || !near(f.distance, g.distance, 1e-4) {
                    failures.push(format!(
                        "{at}: plane {:?} {} vs {:?} {}",
                        f.normal, f.distance, g.normal, g.distance
                    ));
                    break;
                }
                adjacency_same += usize::from(f.adjacent == g.adjacent);
            }
            // The box (with the node's origin) always; the average point (of the distinct
            // positions) and the radius from it on all but meshes whose text had other vertices.
            if !near3(x.bounds_min, y.bounds_min, 1e-5) || !near3(x.bounds_max, y.bounds_max, 1e-5)
            {
                failures.push(format!(
                    "{at}: box {:?} {:?} vs {:?} {:?}",
                    x.bounds_min, x.bounds_max, y.bounds_min, y.bounds_max
                ));
            }
            extents_same +=
                usize::from(near3(x.average, y.average, 1e-3) && near(x.radius, y.radius, 1e-3));
        }
    }
    eprintln!(
        "{meshes} meshes: average and radius equal on {extents_same}; {faces} faces: planes equal \
         on all, adjacency equal on {adjacency_same}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(faces > 4_000 && meshes == 125);
    assert!(extents_same >= 123, "{extents_same} of {meshes}");
    assert!(
        adjacency_same * 100 >= faces * 97,
        "{adjacency_same} of {faces}"
    );
}

/// Every vertex of every mesh, placed in model space.
fn placed(m: &nwn::Model) -> Vec<[f32; 3]> {
    let world = nwn_models::world_transforms(m);
    let mut out = Vec::new();
    for (i, n) in m.nodes.iter().enumerate() {
        let Some(mesh) = &n.mesh else { continue };
        for v in mesh.positions() {
            let w = areakit_formats::mdl::quat::rotate(world[i].0, v.map(f64::from));
            out.push([0, 1, 2].map(|k| (w[k] + world[i].1[k]) as f32));
        }
    }
    out
}

#[test]
fn a_transformed_model_moves_as_one_body() {
    let models = models();
    let mut moved = 0;
    for (p, m) in models
        .iter()
        .filter(|(_, m)| m.nodes.iter().any(|n| n.mesh.is_some()))
    {
        let before = placed(m);
        for steps in [
            vec![
                Transform::RotateZ(90.0),
                Transform::Translate([3.0, -2.0, 1.0]),
            ],
            vec![Transform::Mirror(Axis::Y)],
        ] {
            let mut t = m.clone();
            nwn_models::transform(&mut t, &steps);
            let after = placed(&t);
            for (a, b) in before.iter().zip(&after) {
                let want = steps.iter().fold(*a, |p, s| s.point(p));
                assert!(
                    near3(want, *b, 1e-4),
                    "{}: {a:?} -> {b:?}, want {want:?}",
                    p.display()
                );
            }
            // It writes and reads back.
            let back = nwn::read(&nwn::write(&t).unwrap()).unwrap();
            assert_eq!(back.nodes.len(), t.nodes.len());
            moved += 1;
        }
    }
    assert!(moved >= 14, "{moved}");
}
