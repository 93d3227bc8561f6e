//! Severity at the seams (issue 43): the exit code of KEY/BIF data that does not decode, BWM
//! findings that name the byte offset of their record and say what is wrong in words, NWN2's
//! 32-byte resrefs, and a module capsule whose area `check` could not assemble.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use areakit_app::formats::bwm;
use areakit_app::formats::gff::{self, Field, Label, Value};
use areakit_app::formats::key;
use areakit_app::formats::restype::{ResRef, ResType};
use areakit_app::formats::{Finding, bif};

fn areakit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_areakit"))
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("areakit-seams-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn u32_at(b: &[u8], o: usize) -> u64 {
    u64::from(u32::from_le_bytes(b[o..o + 4].try_into().unwrap()))
}

/// A game folder whose KEY names two resources in `data/templates.bif`, but whose BIF on disk
/// holds one: the second resource's KEY entry names a resource the BIF does not have.
fn install_with_short_bif(dir: &Path) {
    let m = |n: &str| {
        (
            ResRef::new(n).unwrap(),
            ResType::UTD,
            gff::write(&gff::Gff::new(*b"UTD ")).unwrap(),
        )
    };
    let (k, _) = key::build_install(vec![(
        "data\\templates.bif".into(),
        vec![m("door01"), m("door02")],
    )])
    .unwrap();
    let (_, short) =
        key::build_install(vec![("data\\templates.bif".into(), vec![m("door01")])]).unwrap();
    std::fs::write(dir.join("chitin.key"), key::write(&k).unwrap()).unwrap();
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(
        dir.join("data/templates.bif"),
        bif::write(&short[0]).unwrap(),
    )
    .unwrap();
}

#[test]
fn key_and_bif_data_that_does_not_decode_exits_1_not_2() {
    let dir = temp("keybif");
    install_with_short_bif(&dir);
    let out = areakit()
        .arg("--game")
        .arg(&dir)
        .args(["info", "door02.utd"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("door02.utd is resource 1, but the BIF has 1 variable resources"),
        "{err}"
    );
    // The resource that is there still reads.
    let ok = areakit()
        .arg("--game")
        .arg(&dir)
        .args(["info", "door01.utd"])
        .output()
        .unwrap();
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    // A missing file stays an I/O error (exit 2).
    let missing = areakit()
        .arg("info")
        .arg(dir.join("nothing.key"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    // A KEY file cut short is invalid input (exit 1) naming an offset.
    let key_bytes = std::fs::read(dir.join("chitin.key")).unwrap();
    let cut = dir.join("cut.key");
    std::fs::write(&cut, &key_bytes[..key_bytes.len() - 3]).unwrap();
    let out = areakit().arg("info").arg(&cut).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("offset 0x"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The smallest corpus area walkmesh, with its bytes.
fn small_wok() -> (PathBuf, Vec<u8>) {
    let mut woks = common::corpus_files(&["wok"]);
    woks.sort_by_key(|p| std::fs::metadata(p).unwrap().len());
    let p = woks
        .into_iter()
        .find(|p| {
            let b = bwm::read(&std::fs::read(p).unwrap()).unwrap();
            b.aabb_nodes.len() >= 3 && !b.adjacency.is_empty()
        })
        .expect("a corpus WOK with an AABB tree and adjacency");
    let data = std::fs::read(&p).unwrap();
    (p, data)
}

fn check_bytes(name: &str, data: &[u8]) -> Vec<Finding> {
    areakit_app::check::check_data(Path::new(name), data).unwrap()
}

fn only<'a>(findings: &'a [Finding], code: &str) -> &'a Finding {
    findings
        .iter()
        .find(|f| f.code == code)
        .unwrap_or_else(|| panic!("no {code} in {findings:#?}"))
}

#[test]
fn a_broken_aabb_tree_is_told_in_words_at_the_node_offset() {
    let (_, data) = small_wok();
    let mut m = bwm::read(&data).unwrap();
    // Node 0's right child becomes its left one: a shared subtree.
    m.aabb_nodes[0].right = m.aabb_nodes[0].left;
    let bytes = bwm::write(&m).unwrap();
    assert_eq!(bytes.len(), data.len(), "the same layout");
    let f = check_bytes("tree.wok", &bytes);
    let t = only(&f, "bwm-aabb-tree");
    assert!(
        !t.message.contains("BadChild") && !t.message.contains('{'),
        "{}",
        t.message
    );
    assert!(t.message.contains("AABB node"), "{}", t.message);
    let node: usize = t.place.item.as_deref().unwrap()["aabb[".len()..]
        .trim_end_matches(']')
        .parse()
        .unwrap();
    let aabb_offset = u32_at(&bytes, 0x68);
    assert_eq!(t.place.offset, Some(aabb_offset + 44 * node as u64));
}

#[test]
fn adjacency_and_aabb_box_findings_name_the_byte_offset_of_their_record() {
    let (_, data) = small_wok();
    let mut m = bwm::read(&data).unwrap();
    m.adjacency[0][1] = 99_999;
    let bytes = bwm::write(&m).unwrap();
    let f = check_bytes("adj.wok", &bytes);
    let a = only(&f, "bwm-adjacency-index");
    assert_eq!(a.severity, areakit_app::formats::Severity::Error);
    // Adjacency record 0, entry 1: the table's offset (0x74) + 4.
    assert_eq!(a.place.offset, Some(u32_at(&bytes, 0x74) + 4));
    assert_eq!(
        &bytes[a.place.offset.unwrap() as usize..][..4],
        &99_999u32.to_le_bytes()
    );

    let mut m = bwm::read(&data).unwrap();
    let leaf = m.aabb_nodes.iter().position(|n| n.face >= 0).unwrap();
    m.aabb_nodes[leaf].min = [1e6; 3];
    m.aabb_nodes[leaf].max = [1e6 + 1.0; 3];
    let bytes = bwm::write(&m).unwrap();
    let f = check_bytes("box.wok", &bytes);
    let b = only(&f, "bwm-aabb-box");
    let node: u64 = b.place.item.as_deref().unwrap()["aabb[".len()..]
        .trim_end_matches(']')
        .parse()
        .unwrap();
    let at = u32_at(&bytes, 0x68) + 44 * node;
    assert_eq!(b.place.offset, Some(at));
    // The record there is the node whose box was moved (or an ancestor's, if that one is
    // reported first): its box is what the finding is about.
    let min_x = f32::from_le_bytes(bytes[at as usize..at as usize + 4].try_into().unwrap());
    assert!(
        node as usize == leaf || min_x < 1e6,
        "node {node}, leaf {leaf}"
    );
}

#[test]
fn nwn2_gits_and_ares_hold_32_byte_resrefs_without_a_warning() {
    let files = common::corpus_files(&["nwn2-git", "nwn2-are"]);
    assert_eq!(files.len(), 16);
    let mut long = 0;
    for p in &files {
        let data = std::fs::read(p).unwrap();
        let g = gff::read(&data).unwrap();
        assert!(gff::is_nwn2(&g), "{} is not told as NWN2", p.display());
        long += count_long_resrefs(&g.root);
        let f = areakit_app::check::check_data(p, &data).unwrap();
        assert!(
            f.iter().all(|f| f.code != "gff-resref-too-long"),
            "{}: {:?}",
            p.display(),
            f.iter().find(|f| f.code == "gff-resref-too-long")
        );
    }
    assert!(long > 0, "the NWN2 files hold resrefs of 17-32 bytes");
    // KotOR's GFFs are not NWN2's, and a long resref there is still a warning.
    let kotor = common::corpus_files(&["gff"]);
    assert_eq!(kotor.len(), 35);
    for p in &kotor {
        if let Ok(g) = gff::read(&std::fs::read(p).unwrap()) {
            assert!(!gff::is_nwn2(&g), "{}", p.display());
        }
    }
    let git = kotor
        .iter()
        .find(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("git")))
        .unwrap();
    let mut g = gff::read(&std::fs::read(git).unwrap()).unwrap();
    g.root.fields.push(Field {
        label: Label::new("LongRef").unwrap(),
        value: Value::ResRef("a_resref_of_twenty_b".into()),
    });
    let codes =
        |g: &gff::Gff| -> Vec<&'static str> { gff::validate(g).iter().map(|f| f.code).collect() };
    assert!(codes(&g).contains(&"gff-resref-too-long"));
    g.root.fields.push(Field {
        label: Label::new("TreeList").unwrap(),
        value: Value::List(Vec::new()),
    });
    assert!(!codes(&g).contains(&"gff-resref-too-long"));
}

fn count_long_resrefs(s: &gff::Struct) -> usize {
    s.fields
        .iter()
        .map(|f| match &f.value {
            Value::ResRef(r) if r.len() > 16 => 1,
            Value::Struct(c) => count_long_resrefs(c),
            Value::List(l) => l.iter().map(count_long_resrefs).sum(),
            _ => 0,
        })
        .sum()
}

#[test]
fn a_module_capsule_without_its_layout_says_its_area_was_not_checked_and_how_to_check_it() {
    let capsule = common::corpus_files(&["erf"])
        .into_iter()
        .find(|p| p.ends_with("STUNT_50a.mod"))
        .expect("STUNT_50a.mod in the corpus");
    let out = areakit()
        .args(["check", "--json"])
        .arg(&capsule)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes: Vec<&serde_json::Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "area-not-checked")
        .collect();
    assert_eq!(notes.len(), 1, "{v}");
    let n = notes[0];
    assert_eq!(n["severity"], "info");
    let msg = n["message"].as_str().unwrap();
    assert!(msg.contains("--game"), "{msg}");
    // The entry area module.ifo names (read here from the capsule's own member).
    let erf = areakit_app::formats::erf::read(&std::fs::read(&capsule).unwrap()).unwrap();
    let ifo = erf
        .resources
        .iter()
        .find(|r| r.restype == ResType::IFO)
        .expect("module.ifo");
    let entry = gff::views::Ifo::from_gff(&gff::read(&ifo.data).unwrap())
        .entry_area
        .unwrap()
        .to_string();
    assert!(
        msg.contains(&format!("entry area {entry} ")) && msg.contains(&format!("{entry}.lyt")),
        "{msg}"
    );
    assert!(n["path"].as_str().unwrap().ends_with("STUNT_50a.mod"));
    // The text output shows it too.
    let text = areakit().arg("check").arg(&capsule).output().unwrap();
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("area-not-checked"),
        "{}",
        String::from_utf8_lossy(&text.stdout)
    );
}
