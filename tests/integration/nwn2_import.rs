//! `import` into an NWN2 terrain: the OBJ export of a corpus TRX's walkmesh, imported into
//! that terrain, gives back the same walkable ground (sampled at 0.5 m by the bake test's
//! sampler), the same triangles, and a baked TRX that checks without error.

use areakit_formats::trx;

use super::nwn2_bake_git::{Ground, areakit};
use crate::common;

#[test]
fn the_obj_export_of_a_trx_imports_back_to_the_same_ground() {
    let files = common::corpus_files(&["trx"]);
    assert_eq!(files.len(), 61);
    let dir = std::env::temp_dir().join(format!("areakit-test-trx-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut covered = 0;
    for f in files.iter().step_by(6) {
        let (obj, back) = (dir.join("ground.obj"), dir.join("back.trx"));
        let e = areakit(&[
            "export".as_ref(),
            f.as_os_str(),
            "-o".as_ref(),
            obj.as_os_str(),
        ]);
        assert!(
            e.status.success(),
            "{}: {}",
            f.display(),
            String::from_utf8_lossy(&e.stderr)
        );
        let i = areakit(&[
            "import".as_ref(),
            obj.as_os_str(),
            "-o".as_ref(),
            back.as_os_str(),
            "--terrain".as_ref(),
            f.as_os_str(),
            "--json".as_ref(),
        ]);
        assert!(
            i.status.success(),
            "{}: {}",
            f.display(),
            String::from_utf8_lossy(&i.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&i.stdout).unwrap();
        assert_eq!(report["errors"], 0, "{}: {report}", f.display());
        let (a, b) = (
            trx::read(&std::fs::read(f).unwrap()).unwrap(),
            trx::read(&std::fs::read(&back).unwrap()).unwrap(),
        );
        let (wa, wb) = (a.walkmesh().unwrap(), b.walkmesh().unwrap());
        assert_eq!(wa.triangles.len(), wb.triangles.len(), "{}", f.display());
        assert_eq!(wa.walkable_count(), wb.walkable_count(), "{}", f.display());
        let (ga, gb) = (Ground::of(f), Ground::of(&back));
        let [ex, ey] = ga.extent;
        let mut points = 0;
        for i in 0..(ex / 0.5) as usize {
            for j in 0..(ey / 0.5) as usize {
                let p = [0.25 + 0.5 * i as f64, 0.25 + 0.5 * j as f64];
                assert_eq!(ga.walkable(p), gb.walkable(p), "{} at {p:?}", f.display());
                points += 1;
            }
        }
        assert!(points > 0);
        covered += 1;
    }
    assert_eq!(covered, 11);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_terrain_output_needs_its_terrain_and_names_its_materials() {
    let dir = std::env::temp_dir().join(format!(
        "areakit-test-trx-import-usage-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let obj = dir.join("m.obj");
    std::fs::write(&obj, "v 0 0 0\nv 1 0 0\nv 0 0 -1\nusemtl plasma\nf 1 2 3\n").unwrap();
    let out = dir.join("m.trx");
    let r = areakit(&[
        "import".as_ref(),
        obj.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(
        r.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let terrain = &common::corpus_files(&["trx"])[0];
    let r = areakit(&[
        "import".as_ref(),
        obj.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--terrain".as_ref(),
        terrain.as_os_str(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("unknown material `plasma`"),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).ok();
}
