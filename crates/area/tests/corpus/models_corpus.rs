//! Room models against their WOKs: the kit rooms of the corpus (a binary MDL + MDX and a WOK of
//! the same name) compared, then moved, rotated and mirrored together.

use areakit_area::models;
use areakit_formats::{bwm, mdl};
use areakit_geometry::transform::{Axis, Transform};

/// Every corpus binary model with a WOK of the same name beside it.
fn rooms() -> Vec<(String, mdl::Model, bwm::Bwm)> {
    areakit_testkit::corpus_files(&["mdl-bin"])
        .into_iter()
        .filter_map(|p| {
            let wok = std::fs::read(p.with_extension("wok")).ok()?;
            let m = mdl::read(
                &std::fs::read(&p).unwrap(),
                &std::fs::read(p.with_extension("mdx")).unwrap(),
            )
            .unwrap();
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            Some((name, m, bwm::read(&wok).unwrap()))
        })
        .collect()
}

/// Mismatches with the model placed where its walkmesh's lowest corner meets the WOK's (game
/// area WOKs are in area space, at the room's LYT position; kit rooms at the origin).
fn mismatches(m: &mdl::Model, w: &bwm::Bwm, name: &str) -> usize {
    let at = models::placement_offset(m, w).unwrap_or_default();
    models::walkmesh_mismatch(m, w, name, at).len()
}

#[test]
fn kit_rooms_agree_with_their_woks_and_keep_agreeing_when_moved_together() {
    let rooms = rooms();
    // 25 Holocron kit rooms, 5 rooms of PyKotor's generated kit, 1 K1 Community Patch room.
    assert_eq!(rooms.len(), 31, "rooms with a model and a WOK");
    let mut agreeing = 0;
    let steps: [&[Transform]; 4] = [
        &[Transform::RotateZ(90.0)],
        &[
            Transform::RotateZ(90.0),
            Transform::Translate([12.5, -3.0, 0.25]),
        ],
        &[Transform::RotateZ(37.0)],
        &[Transform::Mirror(Axis::X), Transform::RotateZ(180.0)],
    ];
    for (name, m, w) in &rooms {
        let before = mismatches(m, w, name);
        if before == 0 {
            agreeing += 1;
        }
        for s in steps {
            let mut m2 = m.clone();
            models::transform(&mut m2, s);
            let w2 = areakit_area::walkmesh::transform(w, s, &[]).unwrap();
            let after = mismatches(&m2, &w2, name);
            assert!(
                (before == 0) == (after == 0),
                "{name} {s:?}: {before} mismatches before, {after} after"
            );
            // Rotated without its WOK, a model no longer agrees.
            if before == 0 && s[0] == Transform::RotateZ(90.0) {
                let at = models::placement_offset(m, w).unwrap();
                assert!(
                    !models::walkmesh_mismatch(&m2, w, name, at).is_empty(),
                    "{name} {s:?}: the rotated model still matches the unrotated WOK"
                );
            }
            // And it writes and reads back.
            let (a, x) = mdl::write(&m2).unwrap();
            let back = mdl::read(&a, &x).unwrap();
            assert_eq!(mismatches(&back, &w2, name), after);
        }
    }
    assert_eq!(agreeing, rooms.len(), "rooms agreeing with their WOK");
}

#[test]
fn a_mirrored_model_keeps_its_winding_and_a_sound_aabb_tree() {
    let (name, m, _) = rooms().into_iter().next().unwrap();
    let mut m2 = m.clone();
    models::transform(&mut m2, &[Transform::Mirror(Axis::Y)]);
    assert!(
        mdl::validate(&m2)
            .iter()
            .all(|f| f.code != "mdl-aabb-face-missing" && f.code != "mdl-aabb-box"),
        "{name}"
    );
    // Face normals still agree with the winding.
    for n in m2.nodes.iter().filter_map(|n| n.mesh.as_ref()) {
        for f in &n.faces {
            let [a, b, c] = f.vertices.map(|v| n.positions[usize::from(v)]);
            let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            let cr = [
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ];
            let dot = cr[0] * f.normal[0] + cr[1] * f.normal[1] + cr[2] * f.normal[2];
            assert!(
                dot >= -1e-6,
                "{name}: a face normal points against its winding"
            );
        }
    }
    // Mirrored twice it is the model again (up to the rebuilt AABB tree).
    models::transform(&mut m2, &[Transform::Mirror(Axis::Y)]);
    for (p, q) in m.nodes.iter().zip(&m2.nodes) {
        assert_eq!(p.position, q.position);
        assert_eq!(
            p.mesh.as_ref().map(|x| &x.positions),
            q.mesh.as_ref().map(|x| &x.positions)
        );
    }
}

#[test]
fn a_kit_rooms_model_walkmesh_answers_as_its_wok() {
    let mut compared = 0;
    for (name, m, w) in rooms() {
        if models::placement_offset(&m, &w).is_none_or(|o| o.iter().any(|c| c.abs() > 1e-3)) {
            continue; // WOKs in area space: compared above through the placement offset
        }
        let ground = models::model_walkmesh(&m).unwrap();
        let lo = [0, 1].map(|k| {
            w.vertices
                .iter()
                .map(|v| v[k])
                .fold(f32::INFINITY, f32::min)
        });
        let hi = [0, 1].map(|k| {
            w.vertices
                .iter()
                .map(|v| v[k])
                .fold(f32::NEG_INFINITY, f32::max)
        });
        for i in 0..12 {
            for j in 0..12 {
                let x = lo[0] + (hi[0] - lo[0]) * (i as f32 + 0.37) / 12.0;
                let y = lo[1] + (hi[1] - lo[1]) * (j as f32 + 0.61) / 12.0;
                let a = areakit_area::walkmesh::query_at(&ground, x, y, None).unwrap();
                let b = areakit_area::walkmesh::query_at(&w, x, y, None).unwrap();
                assert_eq!(a.face.is_some(), b.face.is_some(), "{name} at {x},{y}");
                if let (Some(za), Some(zb)) = (a.z, b.z) {
                    assert!((za - zb).abs() < 1e-3, "{name} at {x},{y}: {za} vs {zb}");
                    assert_eq!(a.material, b.material, "{name} at {x},{y}");
                }
                compared += 1;
            }
        }
    }
    assert!(compared >= 25 * 144, "{compared} points compared");
}

#[test]
fn an_ascii_aabb_node_without_rows_gets_the_compilers_tree() {
    let text = b"newmodel box\nbeginmodelgeom box\nnode dummy box\n  parent NULL\nendnode\n\
node aabb walk\n  parent box\n  verts 4\n    0 0 0\n    1 0 0\n    1 1 0\n    0 1 0\n  faces 2\n\
    0 1 2 1 0 1 2 4\n    0 2 3 1 0 2 3 4\nendnode\nendmodelgeom box\ndonemodel box\n";
    let ascii = areakit_formats::mdl_ascii::read(text).unwrap();
    let mut m = mdl::from_ascii(&ascii, mdl::Game::K1).unwrap();
    assert!(m.nodes[1].aabb.as_ref().unwrap().tree.is_empty());
    assert!(mdl::write(&m).is_err(), "an empty tree is refused");
    models::derive_compiled(&mut m);
    assert_eq!(m.nodes[1].aabb.as_ref().unwrap().tree.len(), 3);
    // The derived face data: planes, adjacency across the diagonal, bounds and area.
    let mesh = m.nodes[1].mesh.as_ref().unwrap();
    assert!(mesh.faces.iter().all(|f| f.normal == [0.0, 0.0, 1.0]));
    assert_eq!(mesh.faces[0].adjacent, [0xFFFF, 0xFFFF, 1]);
    assert_eq!(mesh.faces[1].adjacent, [0, 0xFFFF, 0xFFFF]);
    assert_eq!(
        (mesh.bounds_min, mesh.bounds_max),
        ([0.0; 3], [1.0, 1.0, 0.0])
    );
    assert!((mesh.total_area - 1.0).abs() < 1e-6);
    assert_eq!(m.header.bounds_max, [1.0, 1.0, 0.0]);
    let (a, x) = mdl::write(&m).unwrap();
    let back = mdl::read(&a, &x).unwrap();
    assert!(
        mdl::validate(&back)
            .iter()
            .all(|f| !f.code.starts_with("mdl-aabb"))
    );
    assert_eq!(models::walkmesh_faces(&back).len(), 2);
}
