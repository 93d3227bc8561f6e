//! The corpus capsules: every ERF/MOD and RIM reads and writes back byte for byte, PyKotor's
//! deliberately corrupted ones give located errors, the members per type are what the corpus
//! README states, and re-packing the extracted members reads back to the same members.
//! KEY/BIF: a fake install written by this crate round-trips and resolves resources.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use areakit_formats::erf::{self, Erf, ErfIndex};
use areakit_formats::restype::ResType;
use areakit_formats::rim::{self, Rim, RimIndex};
use areakit_formats::{ErrorKind, Location, bif, key};

fn is_corrupted(p: &Path) -> bool {
    p.file_stem().is_some_and(|s| s == "test_corrupted")
}

fn short(p: &Path) -> String {
    let s = p.to_string_lossy();
    s.rsplit("corpus/").next().unwrap_or(&s).to_string()
}

/// Every corpus file of `format`, all of them files (SOURCES.tsv lists files, never folders).
fn files(format: &str) -> Vec<PathBuf> {
    let files = areakit_testkit::corpus_files(&[format]);
    for f in &files {
        assert!(f.is_file(), "{} is not a file", f.display());
    }
    files
}

#[derive(Default)]
struct Tally {
    read: usize,
    corrupted: usize,
    members: usize,
    by_type: BTreeMap<u16, usize>,
    findings: BTreeMap<&'static str, usize>,
}

#[test]
fn erf_corpus_round_trips_byte_for_byte() {
    let files = files("erf");
    assert_eq!(files.len(), 79);
    let mut t = Tally::default();
    let mut canonical_same = 0;
    let mut kinds = BTreeMap::new();
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let name = short(f);
        if is_corrupted(f) {
            let e = erf::read(&data).expect_err(&name);
            assert!(matches!(e.location(), Location::Offset(_)), "{name}: {e}");
            assert_ne!(e.kind(), ErrorKind::Unsupported, "{name}: {e}");
            assert!(ErfIndex::parse(&data).is_err());
            t.corrupted += 1;
            continue;
        }
        let a = erf::read(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(erf::write(&a).unwrap(), data, "{name}: round trip");
        if erf::write_canonical(&a).unwrap() == data {
            canonical_same += 1;
        }
        // The index agrees with the owned model.
        let index = ErfIndex::parse(&data).unwrap();
        assert_eq!(index.entries.len(), a.resources.len());
        for (i, r) in a.resources.iter().enumerate() {
            assert_eq!(index.data(&data, i).unwrap(), &r.data[..]);
            assert_eq!(index.entries[i].resref, r.resref);
        }
        *kinds.entry(a.header.kind.extension()).or_insert(0) += 1;
        for finding in erf::validate(&a) {
            *t.findings.entry(finding.code).or_insert(0) += 1;
        }
        t.read += 1;
        t.members += a.resources.len();
        for r in &a.resources {
            *t.by_type.entry(r.restype.0).or_insert(0) += 1;
        }
    }
    assert_eq!((t.read, t.corrupted), (78, 1));
    assert_eq!(kinds, BTreeMap::from([("erf", 2), ("mod", 76)]));
    assert_eq!(t.members, 12_819);
    // Only PyKotor's 001EBO_dlg.erf is laid out otherwise (localized strings at offset 0).
    assert_eq!(canonical_same, 77);
    assert_eq!(t.findings, BTreeMap::new(), "validation findings");
}

#[test]
fn rim_corpus_round_trips_byte_for_byte() {
    let files = files("rim");
    assert_eq!(files.len(), 3);
    let mut t = Tally::default();
    let mut padded = 0;
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let name = short(f);
        if is_corrupted(f) {
            let e = rim::read(&data).expect_err(&name);
            assert!(matches!(e.location(), Location::Offset(_)), "{name}: {e}");
            assert!(RimIndex::parse(&data).is_err());
            t.corrupted += 1;
            continue;
        }
        let r = rim::read(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rim::write(&r).unwrap(), data, "{name}: round trip");
        if !r.layout.as_ref().unwrap().gaps.is_empty() {
            padded += 1;
        }
        for finding in rim::validate(&r) {
            *t.findings.entry(finding.code).or_insert(0) += 1;
        }
        t.read += 1;
        t.members += r.resources.len();
        for m in &r.resources {
            *t.by_type.entry(m.restype.0).or_insert(0) += 1;
        }
    }
    assert_eq!((t.read, t.corrupted, t.members), (2, 1, 6));
    assert_eq!(padded, 1, "capsule.rim carries padding");
    assert_eq!(t.findings, BTreeMap::new(), "validation findings");
}

/// The member count per type id over every readable corpus capsule (ERF family and RIM).
#[test]
fn corpus_members_per_type() {
    let mut by_type: BTreeMap<u16, usize> = BTreeMap::new();
    let mut erf_only: BTreeMap<u16, usize> = BTreeMap::new();
    let mut gff_tags_match = 0;
    for f in files("erf").iter().filter(|f| !is_corrupted(f)) {
        for r in erf::read(&std::fs::read(f).unwrap()).unwrap().resources {
            *by_type.entry(r.restype.0).or_insert(0) += 1;
            *erf_only.entry(r.restype.0).or_insert(0) += 1;
            gff_tags_match += gff_tag_matches(r.restype, &r.data) as usize;
        }
    }
    for f in files("rim").iter().filter(|f| !is_corrupted(f)) {
        for r in rim::read(&std::fs::read(f).unwrap()).unwrap().resources {
            *by_type.entry(r.restype.0).or_insert(0) += 1;
            gff_tags_match += gff_tag_matches(r.restype, &r.data) as usize;
        }
    }
    let total: usize = by_type.values().sum();
    assert_eq!(total, 12_825);
    let expect = BTreeMap::from([
        (2010, 6_839), // ncs
        (2058, 1_164), // utw
        (2027, 997),   // utc
        (2044, 914),   // utp
        (2032, 753),   // utt
        (2029, 700),   // dlg
        (2035, 395),   // uts
        (2042, 379),   // utd
        (2025, 281),   // uti
        (3003, 82),    // pth
        (2012, 77),    // are
        (2023, 77),    // git
        (2014, 76),    // ifo
        (2040, 48),    // ute
        (2051, 23),    // utm
        (2038, 12),    // fac
        (10, 6),       // txt (PyKotor test.erf, test.rim)
        (2056, 2),     // jrl
    ]);
    assert_eq!(by_type, expect);
    // The README's "IFO, 75" counts the ERF family only; capsule.rim holds one more.
    assert_eq!(erf_only[&2014], 75);
    // Every GFF member starts with its type's extension in capitals and V3.2: the type table
    // agrees with the data for all 5,980 of them (every member but the NCS scripts and the
    // six text files of PyKotor's test capsules).
    assert_eq!(gff_tags_match, 5_980);
    assert_eq!(gff_tags_match, total - by_type[&2010] - by_type[&10]);
    for id in by_type.keys() {
        assert!(ResType(*id).is_known(), "{id}");
    }
}

fn gff_tag_matches(t: ResType, data: &[u8]) -> bool {
    let Some(ext) = t.extension() else {
        return false;
    };
    let tag = format!("{:<4}V3.2", ext.to_ascii_uppercase());
    data.starts_with(tag.as_bytes())
}

/// Re-packing the extracted members of every readable capsule with the builders reads back
/// to the same members (sorted by name and type).
#[test]
fn corpus_repack_reads_back_the_same_members() {
    let mut repacked = 0;
    let mut members = 0;
    for f in files("erf").iter().filter(|f| !is_corrupted(f)) {
        let a = erf::read(&std::fs::read(f).unwrap()).unwrap();
        let files: Vec<(String, Vec<u8>)> = a
            .resources
            .iter()
            .map(|r| (r.file_name(), r.data.clone()))
            .collect();
        let b = Erf::from_files(a.header.kind, files).unwrap();
        let back = erf::read(&erf::write(&b).unwrap()).unwrap();
        assert_eq!(sorted(&a), sorted(&back), "{}", short(f));
        members += back.resources.len();
        repacked += 1;
    }
    for f in files("rim").iter().filter(|f| !is_corrupted(f)) {
        let a = rim::read(&std::fs::read(f).unwrap()).unwrap();
        let b =
            Rim::from_files(a.resources.iter().map(|r| (r.file_name(), r.data.clone()))).unwrap();
        let back = rim::read(&rim::write(&b).unwrap()).unwrap();
        let key = |r: &rim::Resource| (r.resref.lookup_key(), r.restype, r.data.clone());
        let mut x: Vec<_> = a.resources.iter().map(key).collect();
        let mut y: Vec<_> = back.resources.iter().map(key).collect();
        x.sort();
        y.sort();
        assert_eq!(x, y);
        members += back.resources.len();
        repacked += 1;
    }
    assert_eq!((repacked, members), (80, 12_825));
}

fn sorted(a: &Erf) -> Vec<([u8; 16], ResType, Vec<u8>)> {
    let mut v: Vec<_> = a
        .resources
        .iter()
        .map(|r| (r.resref.lookup_key(), r.restype, r.data.clone()))
        .collect();
    v.sort();
    v
}

/// The corpus has folders named like archives (TSLPatcher's `tslpatchdata/*.mod` folders):
/// a folder is not an archive, and every archive-named file is one of the listed capsules.
#[test]
fn corpus_folders_named_like_archives_are_not_archives() {
    let listed: Vec<PathBuf> = files("erf").into_iter().chain(files("rim")).collect();
    let mut folders = 0;
    let mut archives = 0;
    for e in walkdir::WalkDir::new(areakit_testkit::corpus_dir()) {
        let e = e.unwrap();
        let ext = e
            .path()
            .extension()
            .map(|x| x.to_string_lossy().to_ascii_lowercase());
        if !matches!(ext.as_deref(), Some("mod" | "erf" | "rim" | "sav" | "hak")) {
            continue;
        }
        if e.file_type().is_dir() {
            folders += 1;
            continue;
        }
        archives += 1;
        assert!(
            listed.iter().any(|l| l.ends_with(
                e.path()
                    .strip_prefix(areakit_testkit::corpus_dir())
                    .unwrap()
            )),
            "{} is not listed",
            e.path().display()
        );
    }
    assert_eq!((folders, archives), (3, 82));
}

const TOTAL_DISTINCT: usize = 8_951;

/// A fake install (KEY + BIFs written by this crate) round-trips, and every resource resolves
/// through the KEY to its bytes, from memory and through `Read + Seek`.
#[test]
fn fake_install_round_trips_and_resolves() {
    use areakit_formats::restype::ResRef;
    // Members of the corpus capsules, spread over three BIFs by type.
    type Members = Vec<(ResRef, ResType, Vec<u8>)>;
    let mut groups: BTreeMap<&str, Members> = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    for f in files("erf").iter().filter(|f| !is_corrupted(f)) {
        for r in erf::read(&std::fs::read(f).unwrap()).unwrap().resources {
            let bif = match r.restype {
                ResType::NCS => "data\\scripts.bif",
                ResType::DLG => "data\\dialogs.bif",
                _ => "data\\templates.bif",
            };
            if seen.insert((r.resref.lookup_key(), r.restype)) {
                groups
                    .entry(bif)
                    .or_default()
                    .push((r.resref, r.restype, r.data));
            }
        }
    }
    let input: Vec<(String, Vec<_>)> = groups
        .into_iter()
        .map(|(n, v)| (n.to_string(), v))
        .collect();
    let total: usize = input.iter().map(|(_, v)| v.len()).sum();
    let (k, bifs) = key::build_install(input.clone()).unwrap();
    assert_eq!((k.bifs.len(), k.keys.len()), (3, total));
    // Distinct (name, type) pairs of the corpus MODs (the same script ships in many modules).
    assert_eq!(total, TOTAL_DISTINCT);

    let key_bytes = key::write(&k).unwrap();
    let k2 = key::read(&key_bytes).unwrap();
    assert_eq!(key::write(&k2).unwrap(), key_bytes);
    assert_eq!(k2.bifs, k.bifs);
    assert_eq!(k2.keys, k.keys);
    assert!(key::validate(&k2).is_empty());

    let bif_bytes: Vec<Vec<u8>> = bifs.iter().map(|b| bif::write(b).unwrap()).collect();
    let mut indices = Vec::new();
    for (b, bytes) in bif_bytes.iter().enumerate() {
        let read = bif::read(bytes).unwrap();
        assert_eq!(bif::write(&read).unwrap(), *bytes);
        assert_eq!(read.resources, bifs[b].resources);
        let index = bif::BifIndex::read(&mut std::io::Cursor::new(bytes)).unwrap();
        assert_eq!(index, bif::BifIndex::parse(bytes).unwrap());
        assert!(bif::validate(&read).is_empty());
        assert!(key::check_bif(&k2, b, &index).is_empty());
        indices.push(index);
    }
    let lookup = k2.lookup();
    let mut resolved = 0;
    for (name, members) in &input {
        for (resref, restype, data) in members {
            let i = lookup
                .get(&resref.name().to_ascii_uppercase(), *restype)
                .unwrap();
            let e = k2.keys[i];
            assert_eq!(k2.bifs[e.id.bif() as usize].name(), *name);
            let b = e.id.bif() as usize;
            let mut file = std::io::Cursor::new(&bif_bytes[b]);
            let got = indices[b]
                .read_resource(&mut file, e.id.index() as usize)
                .unwrap();
            assert_eq!(&got, data);
            resolved += 1;
        }
    }
    assert_eq!(resolved, total);
}
