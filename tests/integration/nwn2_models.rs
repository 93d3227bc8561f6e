//! NWN2 models (MDB) through the command line: `info` names them (not as terrains), `convert`
//! keeps every corpus MDB byte for byte, `check` finds nothing wrong in them and an error in
//! a WALK packet whose triangle names a vertex it has not (written by the MDB writer).

use areakit_formats::mdb;

use super::nwn2_bake_git::areakit;
use crate::common;

#[test]
fn corpus_models_are_told_kept_and_clean() {
    let files = common::corpus_files(&["mdb"]);
    assert_eq!(files.len(), 32);
    let dir = std::env::temp_dir().join(format!("areakit-test-mdb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in &files {
        let info = areakit(&["info".as_ref(), f.as_os_str(), "--json".as_ref()]);
        assert!(info.status.success(), "{}", f.display());
        let v: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
        assert_eq!(v["format"], "mdb", "{}", f.display());
        let model = mdb::read(&std::fs::read(f).unwrap()).unwrap();
        assert_eq!(v["packets"].as_array().unwrap().len(), model.packets.len());
        let out = dir.join("copy.mdb");
        let conv = areakit(&["convert".as_ref(), f.as_os_str(), out.as_os_str()]);
        assert!(
            conv.status.success(),
            "{}: {}",
            f.display(),
            String::from_utf8_lossy(&conv.stderr)
        );
        assert_eq!(
            std::fs::read(&out).unwrap(),
            std::fs::read(f).unwrap(),
            "{}",
            f.display()
        );
    }
    let check = areakit(&[
        "check".as_ref(),
        files[0].parent().unwrap().as_os_str(),
        "--json".as_ref(),
    ]);
    let r: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    let on_models = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["path"]
                .as_str()
                .unwrap()
                .to_ascii_lowercase()
                .ends_with(".mdb")
        })
        .count();
    assert_eq!(on_models, 0, "{:?}", r["findings"]);

    // A WALK triangle past the vertex list.
    let bad = mdb::Mdb {
        packets: vec![mdb::Packet::Walk(mdb::Walk {
            vertices: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            triangles: vec![mdb::WalkTriangle {
                vertices: [0, 1, 7],
                flags: 1,
            }],
            ..mdb::Walk::default()
        })],
        ..mdb::Mdb::default()
    };
    let path = dir.join("bad_walk.mdb");
    std::fs::write(&path, mdb::write(&bad).unwrap()).unwrap();
    let check = areakit(&["check".as_ref(), path.as_os_str(), "--json".as_ref()]);
    assert_eq!(check.status.code(), Some(1));
    let r: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    let codes: Vec<&str> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["mdb-walk-index"]);
    std::fs::remove_dir_all(&dir).ok();
}
