use super::*;
use areakit_formats::erf::{self, Erf};
use areakit_formats::rim::{self, Rim};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("areakit-install-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn capsule_finds_members_in_any_case_and_lists_them() {
    let dir = temp("capsule");
    let a = Erf::from_files(
        ErfKind::Mod,
        [
            ("M01aa.are", b"ARE V3.2".to_vec()),
            ("m01aa.git", b"GIT".to_vec()),
        ],
    )
    .unwrap();
    let path = dir.join("m01aa.mod");
    std::fs::write(&path, erf::write(&a).unwrap()).unwrap();
    let c = Capsule::open(&path).unwrap();
    assert_eq!(c.kind(), CapsuleKind::Erf(ErfKind::Mod));
    let got = c.get("m01AA", "ARE").unwrap().unwrap();
    assert_eq!(got.data, b"ARE V3.2");
    assert!(
        got.origin.ends_with("m01aa.mod/M01aa.are"),
        "{}",
        got.origin
    );
    assert!(c.get("m01aa", "wok").unwrap().is_none());
    assert!(c.get("m01aa", "nope").unwrap().is_none());
    let names: Vec<String> = c.list().unwrap().iter().map(Listing::file_name).collect();
    assert_eq!(names, ["M01aa.are", "m01aa.git"]);
    // A member path reads through the capsule; a member it lacks is a located error.
    let m = read_member_path(&path.join("m01aa.git")).unwrap().unwrap();
    assert_eq!(m.data, b"GIT");
    assert!(read_member_path(&path.join("x.wok")).is_err());
    assert!(read_member_path(&dir.join("m01aa.git")).unwrap().is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_capsule_is_a_located_error() {
    let dir = temp("damaged");
    let r = Rim::from_files([("a.utp", b"UTP V3.2".to_vec())]).unwrap();
    let mut bytes = rim::write(&r).unwrap();
    bytes.truncate(bytes.len() - 4);
    let path = dir.join("x.rim");
    std::fs::write(&path, &bytes).unwrap();
    match Capsule::open(&path) {
        Err(OpenError::Invalid { path: p, source }) => {
            assert_eq!(p, path);
            assert!(matches!(
                source.location(),
                areakit_formats::Location::Offset(_)
            ));
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
    std::fs::write(&path, b"NOPE").unwrap();
    assert!(matches!(
        Capsule::open(&path),
        Err(OpenError::Invalid { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn module_capsules_follow_the_game_order() {
    let dir = temp("order");
    for n in ["M01AA.rim", "m01aa_s.RIM", "m01aa_dlg.erf", "m02aa.rim"] {
        std::fs::write(dir.join(n), b"").unwrap();
    }
    let names = |v: Vec<PathBuf>| -> Vec<String> {
        v.iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    };
    assert_eq!(
        names(module_capsules(&dir, "m01aa")),
        ["M01AA.rim", "m01aa_s.RIM", "m01aa_dlg.erf"]
    );
    std::fs::write(dir.join("m01aa.MOD"), b"").unwrap();
    assert_eq!(
        names(module_capsules(&dir, "m01aa")),
        ["m01aa.MOD", "m01aa_dlg.erf"]
    );
    assert!(module_capsules(&dir, "m03aa").is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn search_path_lists_each_resource_once_with_what_it_shadows() {
    let dir = temp("search");
    let a = Rim::from_files([("door.utd", b"first".to_vec())]).unwrap();
    let b = Rim::from_files([("DOOR.utd", b"second".to_vec()), ("b.git", b"g".to_vec())]).unwrap();
    std::fs::write(dir.join("a.rim"), rim::write(&a).unwrap()).unwrap();
    std::fs::write(dir.join("b.rim"), rim::write(&b).unwrap()).unwrap();
    let mut s = SearchPath::new();
    for n in ["a.rim", "b.rim"] {
        s.push(n, Box::new(Capsule::open(&dir.join(n)).unwrap()));
    }
    assert_eq!(s.get("door", "utd").unwrap().unwrap().data, b"first");
    let l = s.list().unwrap();
    assert_eq!(l.len(), 2);
    assert_eq!(l[1].file_name(), "door.utd");
    assert_eq!(l[1].size, 5);
    assert_eq!(l[1].shadows.len(), 1);
    assert!(l[1].shadows[0].ends_with("b.rim/DOOR.utd"));
    assert!(l[0].shadows.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn relative_paths_are_found_in_any_case() {
    let dir = temp("relative");
    std::fs::create_dir_all(dir.join("Data")).unwrap();
    std::fs::write(dir.join("Data/Templates.BIF"), b"").unwrap();
    let p = find_relative(&dir, "data\\templates.bif").unwrap();
    assert!(p.ends_with("Data/Templates.BIF"));
    assert!(find_relative(&dir, "../x").is_none());
    assert!(find_relative(&dir, "data/none.bif").is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}
