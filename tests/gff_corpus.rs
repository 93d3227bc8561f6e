//! Every corpus GFF reads, writes back byte for byte, re-lays out canonically to an equal tree,
//! and gives the typed views what the files hold. GFFs inside capsules are checked by
//! `capsule_members_round_trip` when `AREAKIT_GFF_MEMBERS` names a folder of extracted members.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use areakit_formats::Severity;
use areakit_formats::gff::{self, views};

fn loose() -> Vec<(PathBuf, Vec<u8>)> {
    let files = common::corpus_files(&["gff"]);
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
    let (mut rooms, mut placeables, mut doors, mut areas) = (0, 0, 0, 0);
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
        check_one(&entry.path().display().to_string(), &data, &mut t);
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
    assert!(t.files > 0, "no GFF under {}", Path::new(&dir).display());
    assert!(
        t.failures.is_empty(),
        "{} failures: {:#?}",
        t.failures.len(),
        &t.failures[..t.failures.len().min(20)]
    );
}
