//! Every corpus GFF reads, writes back byte for byte, re-lays out canonically to an equal tree,
//! and gives the typed views what the files hold. GFFs inside capsules are checked by
//! `capsule_members_round_trip` when `AREAKIT_GFF_MEMBERS` names a folder of extracted members.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use areakit_formats::Severity;
use areakit_formats::gff::{self, views};

fn loose() -> Vec<(PathBuf, Vec<u8>)> {
    let files = areakit_testkit::corpus_files(&["gff"]);
    assert_eq!(files.len(), 35, "expected the 35 loose corpus GFF files");
    files
        .into_iter()
        .map(|p| {
            let d = std::fs::read(&p).unwrap();
            (p, d)
        })
        .collect()
}

fn name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

/// What one file showed.
#[derive(Default)]
struct Tally {
    files: usize,
    canonical_equal: usize,
    error_findings: usize,
    warnings: BTreeMap<&'static str, usize>,
    failures: Vec<String>,
}

/// Reads, writes, re-lays out and validates one file; failures are collected, not panicked.
fn check_one(label: &str, data: &[u8], t: &mut Tally) {
    t.files += 1;
    let g = match gff::read(data) {
        Ok(g) => g,
        Err(e) => {
            t.failures.push(format!("{label}: read: {e}"));
            return;
        }
    };
    match gff::write(&g) {
        Ok(back) if back == data => {}
        Ok(_) => t
            .failures
            .push(format!("{label}: write is not byte-identical")),
        Err(e) => t.failures.push(format!("{label}: write: {e}")),
    }
    // The summary counts the tree; in real files they equal the header's counts.
    let h = gff::raw::Header::parse(data[..56].try_into().unwrap());
    let s = g.summary();
    if (s.structs, s.fields, s.labels)
        != (
            h.struct_count as usize,
            h.field_count as usize,
            h.label_count as usize,
        )
    {
        t.failures.push(format!(
            "{label}: summary {s:?} disagrees with header {h:?}"
        ));
    }
    let canonical = gff::write_canonical(&g).unwrap();
    if canonical == data {
        t.canonical_equal += 1;
    }
    let again = gff::read(&canonical).unwrap();
    if again != g {
        t.failures
            .push(format!("{label}: canonical layout re-reads differently"));
    }
    if gff::write_canonical(&again).unwrap() != canonical {
        t.failures
            .push(format!("{label}: canonical layout is not a fixed point"));
    }
    for f in gff::validate(&g) {
        if f.severity == Severity::Error {
            t.error_findings += 1;
            t.failures
                .push(format!("{label}: {} {}", f.code, f.message));
        } else {
            *t.warnings.entry(f.code).or_default() += 1;
        }
    }
}

#[test]
fn loose_gffs_round_trip_byte_exact() {
    let mut t = Tally::default();
    for (path, data) in &loose() {
        check_one(&name(path), data, &mut t);
    }
    assert_eq!(t.files, 35);
    assert!(t.failures.is_empty(), "{:#?}", t.failures);
    // Every loose file is laid out in the game's order except none: the canonical writer
    // reproduces all 35.
    assert_eq!(t.canonical_equal, 35);
    assert!(t.warnings.is_empty(), "{:?}", t.warnings);
}

/// Which files by type, and what the typed views read from them.
#[test]
fn loose_gffs_typed_views() {
    let mut by_type: BTreeMap<String, usize> = BTreeMap::new();
    let (mut rooms, mut placeables, mut doors, mut areas, mut open_state) = (0, 0, 0, 0, 0);
    for (path, data) in &loose() {
        let g = gff::read(data).unwrap();
        let ty = g.file_type_str();
        *by_type.entry(ty.clone()).or_default() += 1;
        match ty.as_str() {
            "ARE " => {
                let are = views::Are::from_gff(&g);
                assert!(are.tag.is_some() && are.name.is_some(), "{}", name(path));
                assert!(are.map.is_some_and(|m| m.world_pt1.is_some()));
                assert!(are.rooms.iter().all(|r| r.room_name.is_some()));
                rooms += are.rooms.len();
            }
            "GIT " => {
                let git = views::Git::from_gff(&g);
                for p in &git.placeables {
                    assert!(p.template.is_some() && p.position.is_some() && p.bearing.is_some());
                }
                for d in &git.doors {
                    assert!(d.template.is_some() && d.tag.is_some() && d.position.is_some());
                    assert!(d.linked_to_flags.is_some() && d.transition_destination.is_some());
                }
                placeables += git.placeables.len();
                doors += git.doors.len();
            }
            "IFO " => {
                let ifo = views::Ifo::from_gff(&g);
                assert!(ifo.entry_area.is_some() && ifo.entry_position.is_some());
                assert!(ifo.entry_direction.is_some());
                areas += ifo.areas.len();
            }
            "UTP " => {
                let utp = views::Utp::from_gff(&g);
                assert!(utp.tag.is_some() && utp.appearance.is_some() && utp.useable.is_some());
            }
            "UTD " => {
                let utd = views::Utd::from_gff(&g);
                assert!(
                    utd.tag.is_some() && utd.generic_type.is_some() && utd.appearance.is_some()
                );
                open_state += usize::from(utd.open_state.is_some());
            }
            other => panic!("unexpected file type {other:?}"),
        }
    }
    let counts: Vec<(&str, usize)> = by_type.iter().map(|(k, &v)| (k.as_str(), v)).collect();
    assert_eq!(
        counts,
        [
            ("ARE ", 2),
            ("GIT ", 4),
            ("IFO ", 1),
            ("UTD ", 12),
            ("UTP ", 16)
        ]
    );
    assert_eq!(
        (rooms, placeables, doors, areas),
        (10, 131, 41, 1),
        "rooms, GIT placeables, GIT doors, IFO areas"
    );
    assert_eq!(
        open_state, 3,
        "UTDs with OpenState (PyKotor's KotOR 2 test files)"
    );
}

/// A damaged header, struct array, field record and list in a real file give located errors.
#[test]
fn loose_gffs_damaged_give_located_errors() {
    let mut checked = 0;
    for (path, data) in &loose() {
        let h = gff::raw::Header::parse(data[..56].try_into().unwrap());
        // The root struct's data word pointing far outside the field indices (as PyKotor's
        // test_corrupted.gff does).
        let mut d = data.clone();
        let at = h.struct_offset as usize + 4;
        d[at..at + 4].copy_from_slice(b"dasd");
        let e = gff::read(&d).unwrap_err();
        assert_eq!(
            e.location(),
            areakit_formats::Location::Offset(at as u64),
            "{}: {e}",
            name(path)
        );
        // Truncation anywhere is an error, never a panic.
        for cut in [0, 10, 56, data.len() / 2, data.len() - 1] {
            assert!(
                gff::read(&data[..cut]).is_err(),
                "{} cut at {cut}",
                name(path)
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 35);
}

/// Every GFF under `$AREAKIT_GFF_MEMBERS` (capsule members extracted by a script outside the
/// repository) round-trips. Skipped, with a message, when the variable is unset.
#[test]
fn capsule_members_round_trip() {
    let Some(dir) = std::env::var_os("AREAKIT_GFF_MEMBERS") else {
        eprintln!("AREAKIT_GFF_MEMBERS is not set: skipping the capsule-member round trip");
        return;
    };
    let mut t = Tally::default();
    let mut by_type: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut others = 0;
    let mut pth = [0usize; 3];
    let mut seen: BTreeMap<&'static str, usize> = BTreeMap::new();
    for entry in walkdir::WalkDir::new(&dir).sort_by_file_name() {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let data = std::fs::read(entry.path()).unwrap();
        if data.get(4..8) != Some(b"V3.2") {
            others += 1;
            continue;
        }
        let before = t.canonical_equal;
        let label = entry.path().display().to_string();
        check_one(&label, &data, &mut t);
        if data.starts_with(b"PTH ") {
            pth_round_trip(&label, &data, &mut pth, &mut t.failures);
        }
        if let Ok(g) = gff::read(&data) {
            views_tally(&g, &mut seen);
        }
        let e = by_type
            .entry(String::from_utf8_lossy(&data[..4]).into_owned())
            .or_default();
        e.0 += 1;
        e.1 += t.canonical_equal - before;
    }
    eprintln!(
        "{} GFF members ({} other files); canonical layout equals the original in {}",
        t.files, others, t.canonical_equal
    );
    eprintln!("by type (files, canonical = original): {by_type:?}");
    eprintln!("warnings: {:?}", t.warnings);
    eprintln!("PTH files, points, connections rebuilt byte-exact: {pth:?}");
    eprintln!("typed views: {seen:?}");
    assert!(t.files > 0, "no GFF under {}", Path::new(&dir).display());
    assert!(
        t.failures.is_empty(),
        "{} failures: {:#?}",
        t.failures.len(),
        &t.failures[..t.failures.len().min(20)]
    );
    assert!(pth[0] > 0, "no PTH member");
}

/// Read → view → build → write gives the file back; `tally` counts files, points, connections.
fn pth_round_trip(label: &str, data: &[u8], tally: &mut [usize; 3], failures: &mut Vec<String>) {
    let Ok(g) = gff::read(data) else { return };
    let p = match views::Pth::from_gff(&g) {
        Ok(p) => p,
        Err(e) => return failures.push(format!("{label}: PTH view: {e}")),
    };
    if p.to_bytes().ok().as_deref() != Some(data) {
        return failures.push(format!("{label}: Pth::to_bytes differs from the file"));
    }
    let built = p.to_gff().unwrap();
    if built != g || gff::write(&built).ok().as_deref() != Some(data) {
        return failures.push(format!("{label}: Pth::to_gff does not write the file"));
    }
    if (0..p.points.len()).any(|i| {
        p.neighbours(i)
            .iter()
            .any(|&d| d as usize >= p.points.len())
    }) {
        return failures.push(format!("{label}: a connection leads to no point"));
    }
    tally[0] += 1;
    tally[1] += p.points.len();
    tally[2] += p.connections.len();
}

/// Counts what the typed views find, to report what the corpus carries.
fn views_tally(g: &gff::Gff, seen: &mut BTreeMap<&'static str, usize>) {
    let mut add = |k: &'static str, n: usize| *seen.entry(k).or_default() += n;
    match &g.file_type {
        b"ARE " => {
            let a = views::Are::from_gff(g);
            add("ARE rooms", a.rooms.len());
            add("ARE with map", usize::from(a.map.is_some()));
        }
        b"GIT " => {
            let v = views::Git::from_gff(g);
            add("GIT placeables", v.placeables.len());
            add(
                "GIT placeables with position and bearing",
                v.placeables
                    .iter()
                    .filter(|p| p.position.is_some() && p.bearing.is_some())
                    .count(),
            );
            add("GIT doors", v.doors.len());
            add(
                "GIT doors with position and bearing",
                v.doors
                    .iter()
                    .filter(|d| d.position.is_some() && d.bearing.is_some())
                    .count(),
            );
            add(
                "GIT doors linked (LinkedToFlags != 0)",
                v.doors
                    .iter()
                    .filter(|d| d.linked_to_flags.is_some_and(|f| f != 0))
                    .count(),
            );
            add(
                "GIT doors with OpenState",
                v.doors.iter().filter(|d| d.open_state.is_some()).count(),
            );
            add("GIT creatures", v.creatures.len());
            add("GIT waypoints", v.waypoints.len());
        }
        b"IFO " => {
            let v = views::Ifo::from_gff(g);
            add(
                "IFO with entry point",
                usize::from(
                    v.entry_area.is_some()
                        && v.entry_position.is_some()
                        && v.entry_direction.is_some(),
                ),
            );
            add("IFO areas", v.areas.len());
        }
        b"UTP " => {
            let v = views::Utp::from_gff(g);
            add("UTP", 1);
            add("UTP static", usize::from(v.is_static == Some(true)));
            add("UTP useable", usize::from(v.useable == Some(true)));
        }
        b"UTD " => {
            let v = views::Utd::from_gff(g);
            add("UTD", 1);
            add("UTD with OpenState", usize::from(v.open_state.is_some()));
            add(
                "UTD with GenericType",
                usize::from(v.generic_type.is_some()),
            );
        }
        _ => {}
    }
}
