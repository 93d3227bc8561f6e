//! ASCII walkmeshes from the corpus: every WOK/PWK ASCII file and every KotOR MDL `aabb` node
//! converts; the KOTORMax `m13aa_04a` walkmesh matches its compiled WOK; binary BWMs decompile
//! to ASCII and convert back to the same geometry.

use crate::common;

use std::collections::BTreeMap;

use areakit_app::ascii_walkmesh::{self, Dialect, ToBwmOptions};
use areakit_formats::bwm::{self, WalkmeshType};
use areakit_formats::mdl_ascii;

#[test]
fn corpus_ascii_walkmeshes_convert() {
    let files = common::corpus_files(&["wok-ascii", "pwk-ascii"]);
    assert_eq!(files.len(), 10);
    let mut dialects = BTreeMap::new();
    for f in &files {
        let w = ascii_walkmesh::read_walkmesh(&std::fs::read(f).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(!w.faces.is_empty(), "{}", f.display());
        *dialects.entry(w.dialect.name()).or_insert(0) += 1;
        let g = ascii_walkmesh::to_bwm(&w, &ToBwmOptions::default());
        assert_eq!(g.bwm.faces.len(), w.faces.len());
        if w.dialect == Dialect::KAurora {
            let adj = w.adjacency.as_ref().expect("KAurora faces carry adjacency");
            assert_eq!(adj.len(), w.faces.len());
        }
    }
    let expected: BTreeMap<&str, i32> =
        [("kaurora", 1), ("kotormax", 4), ("nwn-placeable", 5)].into();
    assert_eq!(dialects, expected);
}

#[test]
fn kotor_mdl_aabb_nodes_convert() {
    let files: Vec<_> = common::corpus_files(&["mdl-ascii"])
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("/kotor/"))
        .collect();
    assert_eq!(files.len(), 6);
    for f in &files {
        let m = mdl_ascii::read(&std::fs::read(f).unwrap()).unwrap();
        let w = ascii_walkmesh::walkmesh_from_model(&m).unwrap();
        assert_eq!(w.dialect, Dialect::MdlAabb, "{}", f.display());
        assert!(!w.faces.is_empty());
    }
}

/// `m13aa_04a-kotormax.mdl.ascii` (node `aabb walk9`) and the compiled `m13aa_04a.wok` from the
/// same repository: same triangles (as world positions), same materials, and the two
/// `roomlinks` rows land on the compiled edges with transitions 3 and 14.
#[test]
fn kotormax_mdl_matches_compiled_wok() {
    let dir = common::corpus_dir()
        .join("kotor/KOTORCommunityPatches_K1_Community_Patch/-=WORKING=-/Models");
    let m =
        mdl_ascii::read(&std::fs::read(dir.join("ASCII/m13aa_04a-kotormax.mdl.ascii")).unwrap())
            .unwrap();
    let w = ascii_walkmesh::walkmesh_from_model(&m).unwrap();
    assert_eq!(w.name, "walk9");
    assert_eq!(w.room_links.len(), 2);
    let g = ascii_walkmesh::to_bwm(&w, &ToBwmOptions::default());
    let compiled = bwm::read(&std::fs::read(dir.join("m13aa_04a.wok")).unwrap()).unwrap();
    assert_eq!(g.bwm.position, compiled.position);
    assert_eq!(g.bwm.faces.len(), compiled.faces.len());
    // Welding bit-identical positions gives the compiled vertex count.
    assert_eq!(g.bwm.vertices.len(), compiled.vertices.len());
    // Faces as position triples (rounded to 1 mm: the compiler adds in f32), with material,
    // and the transition of each side.
    let key = |b: &bwm::Bwm, i: usize, trans: &dyn Fn(u32) -> i32| {
        let f = b.faces[i];
        let p = f
            .vertices
            .map(|v| b.vertices[v as usize].map(|c| (c * 1000.0).round() as i64));
        let t = [0, 1, 2].map(|s| trans(i as u32 * 3 + s));
        (p, f.material.id(), t)
    };
    let ours_t = |e: u32| {
        g.transitions
            .iter()
            .find(|t| t.edge == e)
            .map_or(-1, |t| t.room)
    };
    let theirs_t = |e: u32| {
        compiled
            .edges
            .iter()
            .find(|x| x.edge == e)
            .map_or(-1, |x| x.transition)
    };
    let mut ours: Vec<_> = (0..g.bwm.faces.len())
        .map(|i| key(&g.bwm, i, &ours_t))
        .collect();
    let mut theirs: Vec<_> = (0..compiled.faces.len())
        .map(|i| key(&compiled, i, &theirs_t))
        .collect();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs);
    let mut rooms: Vec<i32> = g.transitions.iter().map(|t| t.room).collect();
    rooms.sort();
    assert_eq!(rooms, vec![3, 14]);
}

#[test]
fn binary_bwm_decompiles_and_converts_back() {
    let files = common::corpus_files(&["wok", "bwm", "pwk"]);
    assert_eq!(files.len(), 112);
    let mut with_links = 0;
    for f in &files {
        let b = bwm::read(&std::fs::read(f).unwrap()).unwrap();
        let text = ascii_walkmesh::bwm_to_ascii(&b, "walkmesh", "room");
        let w = ascii_walkmesh::read_walkmesh(text.as_bytes())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(w.dialect, Dialect::KotorMax);
        let g = ascii_walkmesh::to_bwm(
            &w,
            &ToBwmOptions {
                walkmesh_type: b.walkmesh_type,
                weld: false,
                offset: [0.0; 3],
            },
        );
        if b.walkmesh_type == WalkmeshType::Area {
            assert_eq!(g.bwm.position, b.position, "{}", f.display());
            assert_eq!(g.bwm.vertices, b.vertices, "{}", f.display());
        }
        assert_eq!(g.bwm.faces, b.faces, "{}", f.display());
        let expected: Vec<_> = b
            .edges
            .iter()
            .filter(|e| e.transition >= 0)
            .map(|e| (e.edge, e.transition))
            .collect();
        let mut expected = expected;
        expected.sort();
        let got: Vec<_> = g.transitions.iter().map(|t| (t.edge, t.room)).collect();
        assert_eq!(got, expected, "{}", f.display());
        with_links += usize::from(!got.is_empty());
    }
    assert!(with_links > 0);
    eprintln!("{with_links} of 112 binary walkmeshes carry room transitions");
}

#[test]
fn vertex_colour_room_links() {
    // A quad of two faces; vertices 1 and 2 painted room 3 (green 103/255), vertex 0 room 5.
    let g3 = 103.0 / 255.0;
    let text = format!(
        "node trimesh wm\n  parent NULL\n  position 0 0 0\n  orientation 1 0 0 0\n  verts 4\n    0 0 0\n    1 0 0\n    1 1 0\n    0 1 0\n  faces 2\n    0 1 2 1 0 0 0 4\n    0 2 3 1 0 0 0 4\n  colors 4\n    0 {} 0\n    0 {g3} 0\n    0 {g3} 0\n    1 1 1\nendnode\n",
        105.0 / 255.0
    );
    let w = ascii_walkmesh::read_walkmesh(text.as_bytes()).unwrap();
    assert_eq!(
        w.room_links,
        vec![ascii_walkmesh::RoomLink {
            face: 0,
            side: 1,
            room: 3
        }]
    );
    assert_eq!(ascii_walkmesh::color_room(&[0.0, 110.0, 0.0]), Some(10));
    assert_eq!(ascii_walkmesh::color_room(&[1.0, 1.0, 1.0]), None);
}

/// Issue "ASCII models and walkmeshes": every corpus ASCII walkmesh (and every KotOR MDL
/// `aabb` node) compiles to a BWM with no `error` finding; compile → decompile → compile is
/// stable (same bytes).
#[test]
fn corpus_ascii_walkmeshes_compile_clean_and_stable() {
    use areakit_app::formats::{Severity, bwm, mdl_ascii};
    let mut files = common::corpus_files(&["wok-ascii", "pwk-ascii"]);
    files.extend(
        common::corpus_files(&["mdl-ascii"])
            .into_iter()
            .filter(|f| f.to_string_lossy().contains("/kotor/")),
    );
    assert_eq!(files.len(), 16);
    for f in &files {
        let model = mdl_ascii::read(&std::fs::read(f).unwrap()).unwrap();
        let pwk = f.to_string_lossy().to_ascii_lowercase().contains(".pwk");
        let out = std::path::PathBuf::from(if pwk { "x.pwk" } else { "x.wok" });
        let compiled = areakit_app::ascii_walkmesh::compile_walkmesh(&model, &out)
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let errors: Vec<_> = areakit_app::walkmesh::check_bwm(&compiled)
            .into_iter()
            .filter(|x| x.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", f.display());
        let bytes = bwm::write(&compiled).unwrap();
        // Decompile, compile again: the same walkmesh, byte for byte.
        let text = ascii_walkmesh::bwm_to_ascii(&compiled, "x", "NULL");
        let again_model = mdl_ascii::read(text.as_bytes()).unwrap();
        let again = areakit_app::ascii_walkmesh::compile_walkmesh(&again_model, &out).unwrap();
        assert!(
            bwm::write(&again).unwrap() == bytes,
            "{}: compile -> decompile -> compile changed the bytes",
            f.display()
        );
    }
}

/// The one ASCII source whose compiled WOK is in the corpus: compiling it reproduces the
/// shipped header, vertex, face, material, adjacency, edge and perimeter tables exactly. Normals,
/// planar distances and the AABB tree differ (see docs/formats/wok-ascii.md).
#[test]
fn compiling_m13aa_04a_reproduces_the_shipped_tables() {
    use areakit_app::formats::{bwm, mdl_ascii};
    let dir = common::corpus_dir()
        .join("kotor/KOTORCommunityPatches_K1_Community_Patch/-=WORKING=-/Models");
    let model =
        mdl_ascii::read(&std::fs::read(dir.join("ASCII/m13aa_04a-kotormax.mdl.ascii")).unwrap())
            .unwrap();
    let ours = areakit_app::ascii_walkmesh::compile_walkmesh(
        &model,
        std::path::Path::new("m13aa_04a.wok"),
    )
    .unwrap();
    let shipped = bwm::read(&std::fs::read(dir.join("m13aa_04a.wok")).unwrap()).unwrap();
    assert_eq!(ours.walkmesh_type, shipped.walkmesh_type);
    assert_eq!(ours.position, shipped.position);
    assert_eq!(ours.vertices, shipped.vertices);
    assert_eq!(ours.faces, shipped.faces);
    assert_eq!(ours.adjacency, shipped.adjacency);
    assert_eq!(ours.edges, shipped.edges);
    assert_eq!(ours.perimeters, shipped.perimeters);
    assert_eq!(ours.aabb_nodes.len(), shipped.aabb_nodes.len());
    let worst = ours
        .normals
        .iter()
        .zip(&shipped.normals)
        .flat_map(|(a, b)| (0..3).map(move |k| (a[k] - b[k]).abs()))
        .fold(0.0f32, f32::max);
    assert!(
        worst < 1e-4,
        "normals within 1e-4 of the shipped ones, worst {worst}"
    );
}
