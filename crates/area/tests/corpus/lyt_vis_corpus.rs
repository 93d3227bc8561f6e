//! Every corpus LYT and VIS file reads without error and writes back byte for byte.

use areakit_formats::{lyt, vis};

#[test]
fn corpus_lyt_round_trips_byte_exact() {
    let files = areakit_testkit::corpus_files(&["lyt"]);
    assert_eq!(files.len(), 13, "expected the 13 corpus LYT files");
    let mut covered = 0;
    let mut totals = [0usize; 4];
    let mut warnings = Vec::new();
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let l = lyt::read(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let back = lyt::write(&l).unwrap();
        assert!(
            back == data,
            "{}: write is not byte-identical",
            path.display()
        );
        totals[0] += l.rooms.len();
        totals[1] += l.tracks.len();
        totals[2] += l.obstacles.len();
        totals[3] += l.doorhooks.len();
        let name = corpus_name(path);
        for f in l.read_findings() {
            warnings.push(format!("{name} {} {}", f.code, f.place));
        }
        covered += 1;
    }
    assert_eq!(covered, 13);
    assert_eq!(
        totals,
        [97, 38, 29, 69],
        "rooms, tracks, obstacles, door hooks"
    );
    assert_eq!(warnings, LYT_WARNINGS);
}

/// The reader's warnings on the corpus (file, code, line:column), in file order.
const LYT_WARNINGS: [&str; 9] = [
    "KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/m40ad.lyt lyt-tab-indent 17:1",
    "KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/stunt_levbridge.lyt lyt-tab-indent 8:1",
    "KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/stunt_levbridge.lyt lyt-no-final-newline 24:1",
    "KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/stunt_unkramp.lyt lyt-tab-indent 11:1",
    "dabignerd_KotOR-Mods/K1R 1.2 (K1CP INCOMPATIBLE)/tslpatchdata/ebo_m40aa.mod/m12ac.lyt lyt-content-after-donelayout 28:1",
    "dabignerd_KotOR-Mods/K1R 1.2 (K1CP INCOMPATIBLE)/tslpatchdata/ebo_m40aa.mod/m12ac.lyt lyt-no-final-newline 28:1",
    "openkotor_pykotor/tests/test_files/test.lyt lyt-no-final-newline 16:1",
    "openkotor_pykotor/tests/test_files/test_corrupted.lyt lyt-count-mismatch 4:1",
    "openkotor_pykotor/tests/test_files/test_corrupted.lyt lyt-no-final-newline 16:1",
];

/// A corpus path without the corpus folder and the family folder.
fn corpus_name(path: &std::path::Path) -> String {
    let rel = path
        .strip_prefix(areakit_testkit::corpus_dir())
        .unwrap_or(path);
    let parts: Vec<_> = rel.iter().skip(1).map(|p| p.to_string_lossy()).collect();
    parts.join("/")
}

#[test]
fn corpus_vis_round_trips_byte_exact() {
    let files = areakit_testkit::corpus_files(&["vis"]);
    assert_eq!(files.len(), 11, "expected the 11 corpus VIS files");
    let mut covered = 0;
    let mut totals = [0usize; 2];
    let mut warnings = Vec::new();
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let v = vis::read(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let back = vis::write(&v).unwrap();
        assert!(
            back == data,
            "{}: write is not byte-identical",
            path.display()
        );
        // Every non-blank line is a parent or a child: nothing is dropped.
        let non_blank = String::from_utf8_lossy(&data)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .count();
        assert_eq!(
            v.rooms.len() + v.link_count(),
            non_blank,
            "{}",
            path.display()
        );
        totals[0] += v.rooms.len();
        totals[1] += v.link_count();
        let name = corpus_name(path);
        for f in v.read_findings() {
            warnings.push(format!("{name} {} {}", f.code, f.place));
        }
        covered += 1;
    }
    assert_eq!(covered, 11);
    assert_eq!(totals, [86, 429], "parent entries, child entries");
    assert_eq!(warnings, VIS_WARNINGS);
}

/// The reader's warnings on the corpus (file, code, line:column), in file order.
const VIS_WARNINGS: [&str; 10] = [
    "KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/stunt_endbridge.vis vis-no-final-newline 16:1",
    "KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/stunt_starforge.vis vis-extra-tokens 41:17",
    "KOTORCommunityPatches_K1_Community_Patch/tslpatchdata/stunt_unkramp.vis vis-no-final-newline 64:1",
    "openkotor_pykotor/Libraries/PyKotor/tests/test_files/test_corrupted.vis vis-count-mismatch 1:9",
    "openkotor_pykotor/Libraries/PyKotor/tests/test_files/test_corrupted.vis vis-child-not-indented 8:1",
    "openkotor_pykotor/tests/test_files/test.vis vis-child-not-indented 8:1",
    "openkotor_pykotor/tests/test_files/test.vis vis-no-final-newline 12:1",
    "openkotor_pykotor/tests/test_files/test_corrupted.vis vis-count-mismatch 1:9",
    "openkotor_pykotor/tests/test_files/test_corrupted.vis vis-child-not-indented 8:1",
    "openkotor_pykotor/tests/test_files/test_corrupted.vis vis-no-final-newline 12:1",
];

/// The corpus holds five real room walkmeshes of module m10aa and its VIS, but not its LYT.
/// The VIS lists its 17 rooms in an order under which every transition between the five
/// walkmeshes is matched by a link back along the same edge, so that order is taken as the LYT
/// order. The area check must then find every one of those links matched, and report exactly
/// the 12 rooms whose walkmesh is absent.
#[test]
fn corpus_m10aa_room_links_match_both_ways() {
    let dir = m10aa_dir("links");
    let area = areakit_area::area::Area::open(&dir).unwrap();
    let findings = areakit_area::area::check(&area);
    let _ = std::fs::remove_dir_all(&dir);

    assert_eq!(area.rooms.iter().filter(|r| r.wok.is_some()).count(), 5);
    let links = area.links();
    assert_eq!(links.len(), 16, "transitions in the five walkmeshes");
    let present: Vec<_> = links
        .iter()
        .filter(|l| area.link_target(l).is_some_and(|t| t.wok.is_some()))
        .collect();
    assert_eq!(present.len(), 8, "links between the five rooms");
    for l in &present {
        let back = area.reverse_link(l, 0.001);
        assert!(back.is_some(), "{l:?} has no link back");
    }
    let mut codes: Vec<_> = findings.iter().map(|f| f.code).collect();
    codes.dedup();
    assert_eq!(codes, ["area-room-missing-wok"], "{findings:#?}");
    assert_eq!(findings.len(), 12);
}

/// Editing one record of a real file changes exactly that line; the result reads back to the
/// edited model.
#[test]
fn corpus_edits_touch_one_line() {
    let files = areakit_testkit::corpus_files(&["lyt"]);
    assert_eq!(files.len(), 13);
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let mut l = lyt::read(&data).unwrap();
        l.rooms[0].position[2] += 1.5;
        let out = lyt::write(&l).unwrap();
        let changed = changed_lines(&data, &out);
        assert_eq!(
            changed,
            vec![line_of(&data, l.rooms[0].line().unwrap())],
            "{}",
            path.display()
        );
        assert_eq!(lyt::read(&out).unwrap(), l, "{}", path.display());
    }
    let files = areakit_testkit::corpus_files(&["vis"]);
    assert_eq!(files.len(), 11);
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let mut v = vis::read(&data).unwrap();
        let name = v.rooms[0].name.clone();
        let renamed = v.rename_room(&name, "renamed_room");
        assert!(renamed >= 1);
        let out = vis::write(&v).unwrap();
        let changed = changed_lines(&data, &out).len();
        assert_eq!(changed, renamed, "{}", path.display());
        assert_eq!(vis::read(&out).unwrap(), v, "{}", path.display());
        assert!(!v.is_visible(
            &name,
            &v.rooms[0].visible.first().cloned().unwrap_or_default()
        ));
    }
}

fn split(data: &[u8]) -> Vec<&[u8]> {
    data.split(|&b| b == b'\n').collect()
}

fn line_of(data: &[u8], line: u32) -> String {
    String::from_utf8_lossy(split(data)[line as usize - 1]).into_owned()
}

/// The original lines that differ (same line count assumed).
fn changed_lines(a: &[u8], b: &[u8]) -> Vec<String> {
    let (la, lb) = (split(a), split(b));
    assert_eq!(la.len(), lb.len());
    la.iter()
        .zip(&lb)
        .filter(|(x, y)| x != y)
        .map(|(x, _)| String::from_utf8_lossy(x).into_owned())
        .collect()
}

/// Any prefix of a real file reads or fails cleanly (no panic), and what reads writes back.
#[test]
fn corpus_prefixes_never_panic() {
    let files = areakit_testkit::corpus_files(&["lyt", "vis"]);
    assert_eq!(files.len(), 24);
    let mut tried = 0;
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let is_lyt = path.extension().is_some_and(|e| e == "lyt");
        for len in 0..=data.len() {
            let cut = &data[..len];
            if is_lyt {
                if let Ok(l) = lyt::read(cut) {
                    assert_eq!(lyt::write(&l).unwrap(), cut);
                    let _ = lyt::validate(&l);
                }
            } else if let Ok(v) = vis::read(cut) {
                assert_eq!(vis::write(&v).unwrap(), cut);
                let _ = vis::validate(&v);
            }
            tried += 1;
        }
    }
    assert_eq!(tried, 18518 + 24, "every prefix of every file");
}

/// A folder holding m10aa's LYT (made from its VIS order), its VIS and its five corpus WOKs.
pub fn m10aa_dir(tag: &str) -> std::path::PathBuf {
    let vis_files: Vec<_> = areakit_testkit::corpus_files(&["vis"])
        .into_iter()
        .filter(|p| p.ends_with("m10aa.vis"))
        .collect();
    assert_eq!(vis_files.len(), 1);
    let woks: Vec<_> = areakit_testkit::corpus_files(&["wok"])
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("m10aa_"))
        })
        .collect();
    assert_eq!(woks.len(), 5, "{woks:?}");
    let v = vis::read(&std::fs::read(&vis_files[0]).unwrap()).unwrap();
    let mut layout = lyt::Lyt::default();
    for r in &v.rooms {
        layout
            .rooms
            .push(lyt::Placement::new(r.name.clone(), [0.0; 3]));
    }
    let dir = std::env::temp_dir().join(format!("areakit-m10aa-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("m10aa.lyt"), lyt::write(&layout).unwrap()).unwrap();
    std::fs::copy(&vis_files[0], dir.join("m10aa.vis")).unwrap();
    for w in &woks {
        std::fs::copy(w, dir.join(w.file_name().unwrap())).unwrap();
    }
    dir
}
