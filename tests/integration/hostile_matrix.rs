//! The hostile-input matrix: every format, every kind of damage.
//!
//! For each format, real files (the smallest corpus file and the largest one up to 256 KB) and
//! files areakit writes itself are damaged in every way the matrix knows: emptied, cut at every
//! length (small files) or at a thousand sampled lengths (large ones), bit-flipped in the header
//! and at sampled places, every 32-bit word of the header set to 0, 1, max, max − 1, NaN and
//! infinity; text files also get NUL bytes, bare CRs, a BOM, CP-1252 bytes, non-numbers where
//! numbers go, and lines lost or repeated. Every damaged file is
//!
//! - decoded, checked, described (`info`) and re-encoded **in process** (no panic; a decode
//!   error names where: a byte offset or a line:column), and
//! - for a sample of each file's damage, run through the **binary** (`info`, `check`): exit 0,
//!   1 or 2, never 101 or a signal; an error is one stderr line naming the file (and where, for
//!   invalid input); peak memory below 64 MiB + 8 × the input size.
//!
//! Then the structures no mutation reaches: an AABB tree whose children form a cycle, MDL nodes
//! nested 100 000 deep, zlib bombs in an NWN2 walkmesh, a folder, a FIFO or an unreadable file
//! given as a file, a path that is not UTF-8; and faults while writing (a missing or read-only
//! output folder, an output path that is a folder).

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use areakit_app::document::Document;

// ---------------------------------------------------------------------------------------------
// Damage
// ---------------------------------------------------------------------------------------------

/// A small deterministic generator (the matrix must be the same on every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One damaged input: what was done, and the bytes.
struct Damaged {
    what: String,
    bytes: Vec<u8>,
}

/// Truncation lengths: every length of a file up to 4 KiB, else the first 256 and a thousand
/// sampled.
fn cut_lengths(len: usize, rng: &mut Lcg) -> Vec<usize> {
    if len <= 4096 {
        return (0..len).collect();
    }
    let mut v: Vec<usize> = (0..256).collect();
    v.extend((0..1000).map(|_| rng.below(len)));
    v.sort_unstable();
    v.dedup();
    v
}

const WORD_VALUES: [u32; 7] = [
    0,
    1,
    u32::MAX,
    u32::MAX - 1,
    i32::MAX as u32,
    0x7FC0_0000, // NaN
    0x7F80_0000, // +infinity
];

fn binary_damage(src: &[u8], rng: &mut Lcg) -> Vec<Damaged> {
    let mut out = vec![Damaged {
        what: "empty".into(),
        bytes: Vec::new(),
    }];
    for n in cut_lengths(src.len(), rng) {
        out.push(Damaged {
            what: format!("cut to {n} bytes"),
            bytes: src[..n].to_vec(),
        });
    }
    // Every bit of the first 64 bytes, then 256 sampled bits anywhere.
    let header_bits = src.len().min(64) * 8;
    let sampled = (0..256).map(|_| rng.below(src.len() * 8));
    for bit in (0..header_bits).chain(sampled) {
        let mut b = src.to_vec();
        if let Some(byte) = b.get_mut(bit / 8) {
            *byte ^= 1 << (bit % 8);
        }
        out.push(Damaged {
            what: format!("bit {bit} flipped"),
            bytes: b,
        });
    }
    // Every aligned word of the first 256 bytes (the headers and tables of contents), and 64
    // sampled words further on (counts, offsets, indices and floats in the tables).
    let header_words = (0..src.len().min(256) / 4).map(|i| i * 4);
    let sampled = (0..64).map(|_| rng.below(src.len() / 4) * 4);
    for at in header_words.chain(sampled) {
        if at + 4 > src.len() {
            continue;
        }
        for v in WORD_VALUES {
            let mut b = src.to_vec();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            out.push(Damaged {
                what: format!("word at {at:#x} set to {v:#x}"),
                bytes: b,
            });
        }
    }
    out
}

fn text_damage(src: &[u8], rng: &mut Lcg) -> Vec<Damaged> {
    let mut out = binary_damage(src, rng);
    let mut push = |what: String, bytes: Vec<u8>| out.push(Damaged { what, bytes });
    push("NUL tail".into(), [src, b"\0"].concat());
    push("NUL padding".into(), [src, &[0u8; 100][..]].concat());
    push("UTF-8 BOM".into(), [b"\xEF\xBB\xBF", src].concat());
    let mut cr_only = Vec::with_capacity(src.len());
    for (k, &b) in src.iter().enumerate() {
        match b {
            b'\n' if k > 0 && src[k - 1] == b'\r' => {}
            b'\n' => cr_only.push(b'\r'),
            _ => cr_only.push(b),
        }
    }
    push("CR-only line ends".into(), cr_only);
    for (i, needle) in [&b"0"[..], b"1", b".", b"-"].iter().enumerate() {
        for replacement in [
            &b"nan"[..],
            b"inf",
            b"-inf",
            b"1e999",
            b"\xff\xfe",
            b"\0",
            b"\x85",
        ] {
            let mut b = Vec::with_capacity(src.len() + 8);
            let mut done = 0;
            let mut k = 0;
            while k < src.len() {
                if done < 64 && src[k..].starts_with(needle) && rng.below(7) == i {
                    b.extend_from_slice(replacement);
                    k += needle.len();
                    done += 1;
                } else {
                    b.push(src[k]);
                    k += 1;
                }
            }
            push(
                format!(
                    "{:?} replaced by {:?}",
                    String::from_utf8_lossy(needle),
                    String::from_utf8_lossy(replacement)
                ),
                b,
            );
        }
    }
    // Lines lost and lines repeated.
    let lines: Vec<&[u8]> = src.split_inclusive(|&b| b == b'\n').collect();
    for _ in 0..64 {
        if lines.is_empty() {
            break;
        }
        let at = rng.below(lines.len());
        let mut lost = lines.clone();
        lost.remove(at);
        push(format!("line {} lost", at + 1), lost.concat());
        let mut twice = lines.clone();
        twice.insert(at, lines[at]);
        push(format!("line {} repeated", at + 1), twice.concat());
    }
    out
}

// ---------------------------------------------------------------------------------------------
// In process
// ---------------------------------------------------------------------------------------------

/// Whether an error message says where: a byte offset, a line:column, or the whole input.
fn says_where(message: &str) -> bool {
    if message.contains("offset 0x") || message.contains(": input: ") {
        return true;
    }
    // `12:3:` somewhere.
    message.split(':').collect::<Vec<_>>().windows(2).any(|w| {
        let a = w[0].rsplit(' ').next().unwrap_or("");
        !a.is_empty()
            && a.bytes().all(|b| b.is_ascii_digit())
            && !w[1].is_empty()
            && w[1].bytes().all(|b| b.is_ascii_digit())
    })
}

/// Decodes, checks, describes and re-encodes one damaged input; panics (failing the test) with
/// the damage named if anything panics or an error does not say where.
fn in_process(name: &str, d: &Damaged) {
    let path = Path::new(name);
    let result = std::panic::catch_unwind(|| {
        let _ = areakit_app::check::check_data(path, &d.bytes);
        match Document::decode(path, &d.bytes) {
            Ok(doc) => {
                let _ = serde_json::to_value(areakit_app::info::info(path, &doc));
                let _ = doc.encode(doc.format(), path);
                // Textures: every level of every layer decoded.
                if let Document::Tpc(t) = &doc {
                    for l in 0..t.layers.len() {
                        for i in 0..t.mip_count() {
                            let _ = t.rgba(l, i);
                        }
                    }
                }
                if let Document::Bwm(m) = &doc {
                    if let Ok(q) = areakit_app::walkmesh::QueryMesh::new(m) {
                        let _ = q.at(0.5, 0.5, None);
                        let _ = q.ray([0.0, 0.0, 100.0], [0.1, 0.2, -1.0]);
                    }
                    // Rebuilding a large damaged mesh in a debug build costs seconds: the
                    // fuzzers cover rebuild on every input; here, small meshes.
                    if m.faces.len() <= 2000 {
                        let _ = areakit_app::walkmesh::rebuild(m);
                    }
                }
                None
            }
            Err(e) => Some(e.to_string()),
        }
    });
    match result {
        Err(_) => panic!("{name}: {}: panicked", d.what),
        Ok(Some(message)) => assert!(
            says_where(&message),
            "{name}: {}: the error does not say where: {message}",
            d.what
        ),
        Ok(None) => {}
    }
}

// ---------------------------------------------------------------------------------------------
// The binary
// ---------------------------------------------------------------------------------------------

struct Run {
    code: Option<i32>,
    stderr: String,
    peak_kb: Option<u64>,
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `areakit args...` with a time limit (a hang fails the test), stdout to a file (large
/// outputs must not block on a pipe), the peak memory reported.
fn run(args: &[&std::ffi::OsStr], dir: &Path) -> Run {
    let peak = dir.join(".peak");
    let _ = std::fs::remove_file(&peak);
    let stdout = std::fs::File::create(dir.join(".stdout")).unwrap();
    let stderr_path = dir.join(".stderr");
    let stderr = std::fs::File::create(&stderr_path).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_areakit"))
        .args(args)
        .env("AREAKIT_PEAK_RSS_FILE", &peak)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("areakit {args:?}: still running after 60 s");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    Run {
        code: status.code(),
        stderr: std::fs::read_to_string(&stderr_path).unwrap_or_default(),
        peak_kb: std::fs::read_to_string(&peak)
            .ok()
            .and_then(|s| s.trim().parse().ok()),
    }
}

/// 64 MiB plus 8 times the input.
fn memory_bound_kb(input_len: usize) -> u64 {
    64 * 1024 + (8 * input_len as u64).div_ceil(1024)
}

/// Runs `info` and `check` on `file` and asserts the contract.
fn through_binary(file: &Path, what: &str, dir: &Path) {
    let len = std::fs::metadata(file)
        .map(|m| m.len() as usize)
        .unwrap_or(0);
    for cmd in ["info", "check"] {
        let r = run(&[cmd.as_ref(), file.as_os_str()], dir);
        let ctx = format!("areakit {cmd} {} ({what})", file.display());
        let code = r
            .code
            .unwrap_or_else(|| panic!("{ctx}: killed by a signal"));
        let allowed: &[i32] = if cmd == "check" { &[0, 1] } else { &[0, 1, 2] };
        assert!(allowed.contains(&code), "{ctx}: exit {code}: {}", r.stderr);
        if code != 0 && cmd == "info" {
            assert_eq!(r.stderr.lines().count(), 1, "{ctx}: {}", r.stderr);
            assert!(r.stderr.starts_with("areakit: "), "{ctx}: {}", r.stderr);
            assert!(
                r.stderr.contains(&*file.to_string_lossy()),
                "{ctx}: the error does not name the file: {}",
                r.stderr
            );
            if code == 1 {
                assert!(says_where(&r.stderr), "{ctx}: no place: {}", r.stderr);
            }
        }
        let kb = r
            .peak_kb
            .unwrap_or_else(|| panic!("{ctx}: no peak memory reported"));
        assert!(
            kb <= memory_bound_kb(len),
            "{ctx}: peak memory {kb} kB above {} kB",
            memory_bound_kb(len)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The matrix over the corpus formats
// ---------------------------------------------------------------------------------------------

/// The smallest corpus file of these formats and the largest one up to 256 KB.
fn samples(formats: &[&str]) -> Vec<PathBuf> {
    let mut files: Vec<(u64, PathBuf)> = common::corpus_files(formats)
        .into_iter()
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.len(), p)))
        .filter(|(_, p)| p.is_file())
        .collect();
    files.sort();
    let mut out = Vec::new();
    if let Some((_, p)) = files.first() {
        out.push(p.clone());
    }
    if let Some((_, p)) = files.iter().rev().find(|(n, _)| *n <= 256 * 1024)
        && out.first() != Some(p)
    {
        out.push(p.clone());
    }
    out
}

/// Runs the matrix over `sources`: (a file name to decode under, its bytes). Returns how many
/// damaged inputs went through in process and through the binary.
fn matrix(label: &str, sources: &[(String, Vec<u8>)], text: bool) -> (usize, usize) {
    let dir = scratch(label);
    let mut rng = Lcg(0x5eed ^ label.len() as u64);
    let (mut inside, mut outside) = (0, 0);
    for (name, src) in sources {
        let damaged = if text {
            text_damage(src, &mut rng)
        } else {
            binary_damage(src, &mut rng)
        };
        for d in &damaged {
            in_process(name, d);
            inside += 1;
        }
        // The binary on a sample: the empty file, then every 40th damage.
        for (i, d) in damaged.iter().enumerate().filter(|(i, _)| i % 40 == 0) {
            let file = dir.join(format!("{i}-{name}"));
            std::fs::write(&file, &d.bytes).unwrap();
            through_binary(&file, &d.what, &dir);
            std::fs::remove_file(&file).unwrap();
            outside += 1;
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    (inside, outside)
}

fn corpus_sources(formats: &[&str]) -> Vec<(String, Vec<u8>)> {
    samples(formats)
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

macro_rules! corpus_matrix {
    ($test:ident, [$($format:literal),+], text: $text:expr, samples: $n:expr) => {
        #[test]
        fn $test() {
            let sources = corpus_sources(&[$($format),+]);
            assert_eq!(sources.len(), $n, "samples of {:?}", [$($format),+]);
            let (inside, outside) = matrix(stringify!($test), &sources, $text);
            assert!(inside > 1000 && outside > 20, "{inside} in process, {outside} binary");
            eprintln!("{}: {inside} damaged inputs in process, {outside} through the binary", stringify!($test));
        }
    };
}

corpus_matrix!(wok_matrix, ["wok"], text: false, samples: 2);
corpus_matrix!(pwk_matrix, ["pwk"], text: false, samples: 2);
corpus_matrix!(trx_matrix, ["trx", "trn"], text: false, samples: 2);
corpus_matrix!(lyt_matrix, ["lyt"], text: true, samples: 2);
corpus_matrix!(vis_matrix, ["vis"], text: true, samples: 2);
corpus_matrix!(mdl_ascii_matrix, ["mdl-ascii"], text: true, samples: 2);
corpus_matrix!(ascii_walkmesh_matrix, ["wok-ascii", "pwk-ascii"], text: true, samples: 2);
corpus_matrix!(tpc_matrix, ["tpc"], text: false, samples: 2);
corpus_matrix!(tga_matrix, ["tga"], text: false, samples: 2);

/// A door walkmesh: no real DWK is public, so one areakit writes.
#[test]
fn dwk_matrix() {
    let mut m = areakit_app::formats::bwm::Bwm {
        walkmesh_type: areakit_app::formats::bwm::WalkmeshType::PlaceableOrDoor,
        vertices: vec![
            [-1.0, -0.1, 0.0],
            [1.0, -0.1, 0.0],
            [1.0, 0.1, 0.0],
            [-1.0, 0.1, 0.0],
        ],
        ..Default::default()
    };
    for v in [[0, 1, 2], [0, 2, 3]] {
        m.faces.push(areakit_app::formats::bwm::Face {
            vertices: v,
            material: areakit_app::formats::bwm::Material::NonWalk,
        });
    }
    let m = areakit_app::walkmesh::rebuild(&m).unwrap();
    let bytes = areakit_app::formats::bwm::write(&m).unwrap();
    let (inside, outside) = matrix("dwk", &[("door0.dwk".into(), bytes)], false);
    assert!(inside > 1000 && outside > 20, "{inside} {outside}");
}

/// The demo area's rooms, as areakit writes them (walkable faces, transitions, a tree).
#[test]
fn demo_wok_matrix() {
    let dir = scratch("demo");
    let report = areakit_app::demo::run(&dir).unwrap();
    assert!(report.ok());
    let mut sources = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension()
            .is_some_and(|x| x == "wok" || x == "lyt" || x == "vis")
        {
            sources.push((
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            ));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    sources.sort();
    let woks: Vec<_> = sources
        .iter()
        .filter(|s| s.0.ends_with(".wok"))
        .take(1)
        .cloned()
        .collect();
    assert_eq!(woks.len(), 1);
    let (inside, _) = matrix("demo-wok", &woks, false);
    assert!(inside > 1000);
}

// ---------------------------------------------------------------------------------------------
// Structures mutations do not reach
// ---------------------------------------------------------------------------------------------

/// The first demo room with every derived table built (a tree, adjacency, transitions).
fn demo_wok() -> areakit_app::formats::bwm::Bwm {
    let room = areakit_app::demo::rooms().remove(0);
    areakit_app::walkmesh::rebuild_with_transitions(&room.mesh, &room.transitions).unwrap()
}

/// AABB children that point back up the tree: queries and checks must not loop.
#[test]
fn aabb_cycles_end() {
    let dir = scratch("aabb-cycle");
    let base = demo_wok();
    assert!(base.aabb_nodes.len() > 3);
    let mut cases = Vec::new();
    for (node, left, right) in [(0usize, 0u32, 1u32), (1, 0, 0), (2, 2, 2)] {
        let mut m = base.clone();
        if m.aabb_nodes[node].left == u32::MAX {
            continue;
        }
        m.aabb_nodes[node].left = left;
        m.aabb_nodes[node].right = right;
        cases.push((format!("node {node} -> {left}, {right}"), m));
    }
    // Every internal node points at the root.
    let mut m = base.clone();
    for n in &mut m.aabb_nodes {
        if n.left != u32::MAX {
            n.left = 0;
            n.right = 0;
        }
    }
    cases.push(("every child is the root".into(), m));
    assert_eq!(cases.len(), 4);
    for (what, m) in &cases {
        let bytes = areakit_app::formats::bwm::write(m).unwrap();
        in_process(
            "cycle.wok",
            &Damaged {
                what: what.clone(),
                bytes: bytes.clone(),
            },
        );
        let file = dir.join("cycle.wok");
        std::fs::write(&file, &bytes).unwrap();
        through_binary(&file, what, &dir);
        let r = run(
            &[
                "query".as_ref(),
                file.as_os_str(),
                "--at".as_ref(),
                "1,1".as_ref(),
            ],
            &dir,
        );
        assert!(
            matches!(r.code, Some(0..=2)),
            "query {what}: {:?} {}",
            r.code,
            r.stderr
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// MDL ASCII nodes nested 100 000 deep (each the parent of the next): no stack overflow.
#[test]
fn deeply_nested_mdl_nodes() {
    let mut s = String::from(
        "newmodel deep\nbeginmodelgeom deep\nnode dummy deep\n  parent NULL\nendnode\n",
    );
    let mut prev = "deep".to_string();
    for i in 0..100_000 {
        let name = format!("n{i}");
        s.push_str(&format!("node dummy {name}\n  parent {prev}\nendnode\n"));
        prev = name;
    }
    s.push_str("endmodelgeom deep\ndonemodel deep\n");
    let d = Damaged {
        what: "100 000 nested nodes".into(),
        bytes: s.into_bytes(),
    };
    in_process("deep.mdl", &d);
    let dir = scratch("deep-mdl");
    let file = dir.join("deep.mdl");
    std::fs::write(&file, &d.bytes).unwrap();
    through_binary(&file, &d.what, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The smallest corpus TRX with its walkmesh's zlib stream replaced.
fn trx_with_stream(declared: u32, stream: &[u8]) -> Vec<u8> {
    let src = std::fs::read(&samples(&["trx"])[0]).unwrap();
    let count = u32::from_le_bytes(src[8..12].try_into().unwrap()) as usize;
    let (at, _) = (0..count)
        .map(|i| {
            let e = 12 + 8 * i;
            (
                u32::from_le_bytes(src[e + 4..e + 8].try_into().unwrap()) as usize,
                &src[e..e + 4],
            )
        })
        .find(|(_, tag)| *tag == b"ASWM")
        .expect("an ASWM packet");
    let old_size = u32::from_le_bytes(src[at + 4..at + 8].try_into().unwrap()) as usize;
    let mut payload = b"COMP".to_vec();
    payload.extend_from_slice(&(stream.len() as u32).to_le_bytes());
    payload.extend_from_slice(&declared.to_le_bytes());
    payload.extend_from_slice(stream);
    let mut out = src[..at + 4].to_vec();
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&payload);
    let rest = &src[at + 8 + old_size..];
    // Packets after this one move: fix their offsets.
    let shift = payload.len() as i64 - old_size as i64;
    for i in 0..count {
        let e = 12 + 8 * i;
        let off = u32::from_le_bytes(out[e + 4..e + 8].try_into().unwrap()) as usize;
        if off > at {
            let moved = (off as i64 + shift) as u32;
            out[e + 4..e + 8].copy_from_slice(&moved.to_le_bytes());
        }
    }
    out.extend_from_slice(rest);
    out
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// zlib bombs: a stream inflating to 200 MB, declared as such or declared small.
#[test]
fn aswm_zip_bombs_are_refused() {
    let zeros = vec![0u8; 200 << 20];
    let bomb = zlib(&zeros);
    drop(zeros);
    assert!(bomb.len() < 1 << 20, "{}", bomb.len());
    let dir = scratch("bomb");
    for (what, declared) in [
        ("declared 200 MB", 200u32 << 20),
        ("declared 1000 bytes", 1000),
    ] {
        let bytes = trx_with_stream(declared, &bomb);
        let d = Damaged {
            what: what.into(),
            bytes,
        };
        in_process("bomb.trx", &d);
        let e = areakit_app::formats::trx::read(&d.bytes).expect_err(what);
        assert!(e.to_string().contains("offset 0x"), "{e}");
        let file = dir.join("bomb.trx");
        std::fs::write(&file, &d.bytes).unwrap();
        through_binary(&file, what, &dir);
        let r = run(&["info".as_ref(), file.as_os_str()], &dir);
        assert_eq!(r.code, Some(1), "{what}: {}", r.stderr);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A TXI asking for more animation frames than a u32 counts (numx × numy = 4.9e9): read,
/// checked and converted as one still image (a `tpc-animation-frames` warning), no overflow.
#[test]
fn tpc_frame_counts_past_u32() {
    use areakit_app::formats::{image::Image, tpc};
    let txi = b"proceduretype cycle\nnumx 70000\nnumy 70000\nfps 8\n";
    let img = Image {
        width: 16,
        height: 16,
        rgba: vec![200; 16 * 16 * 4],
    };
    let opts = tpc::EncodeOptions::default();
    let still = tpc::Tpc::from_image(&img, b"", &opts).unwrap();
    let mut bytes = tpc::write(&still).unwrap();
    bytes.extend_from_slice(txi);
    let made = tpc::Tpc::from_image(&img, txi, &opts).unwrap();
    assert_eq!(tpc::write(&made).unwrap(), bytes, "the TXI makes no frames");
    let d = Damaged {
        what: "numx 70000 numy 70000".into(),
        bytes,
    };
    in_process("frames.tpc", &d);
    let findings = areakit_app::check::check_data(Path::new("frames.tpc"), &d.bytes).unwrap();
    let codes: Vec<&str> = findings.iter().map(|f| f.code).collect();
    assert_eq!(codes, ["tpc-animation-frames"]);
    let dir = scratch("frames");
    let file = dir.join("frames.tpc");
    std::fs::write(&file, &d.bytes).unwrap();
    through_binary(&file, &d.what, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Things that are not files
// ---------------------------------------------------------------------------------------------

fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|l| l.split_whitespace().nth(1).map(|euid| euid == "0"))
        .unwrap_or(false)
}

/// A folder, a FIFO and an unreadable file given as a file: exit 2, one line, never a hang
/// (`check` takes folders: it walks them).
#[test]
fn not_a_file_is_an_io_error() {
    let dir = scratch("not-files");
    let folder = dir.join("room.wok");
    std::fs::create_dir(&folder).unwrap();
    let fifo = dir.join("pipe.wok");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut cases = vec![(folder.clone(), "a folder")];
    if made {
        cases.push((fifo.clone(), "a FIFO"));
    }
    // Readable by stat, unreadable by read: /proc/self/mem at offset 0 (any user), and a file
    // without read permission (when not root, who may read anything).
    cases.push((PathBuf::from("/proc/self/mem"), "an unreadable file"));
    let locked = dir.join("locked.wok");
    std::fs::write(&locked, b"BWM V1.0").unwrap();
    if !running_as_root() {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        cases.push((locked.clone(), "a file without read permission"));
    }
    for (path, what) in &cases {
        for cmd in ["info", "check", "render"] {
            if cmd != "render" && *what == "a folder" {
                continue; // check walks folders, info lists them
            }
            let mut args: Vec<&std::ffi::OsStr> = vec![cmd.as_ref(), path.as_os_str()];
            let out = dir.join("out.svg");
            if cmd == "render" {
                args.extend(["-o".as_ref(), out.as_os_str()]);
            }
            let r = run(&args, &dir);
            assert_eq!(r.code, Some(2), "{cmd} on {what}: {}", r.stderr);
            assert_eq!(r.stderr.lines().count(), 1, "{cmd} on {what}: {}", r.stderr);
            assert!(r.stderr.contains(&*path.to_string_lossy()), "{}", r.stderr);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file name that is not UTF-8 opens, and errors name it (lossily).
#[test]
fn non_utf8_paths_work() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("non-utf8");
    let name = std::ffi::OsStr::from_bytes(b"r\xFFoom.wok");
    let good = dir.join(name);
    let wok = areakit_app::formats::bwm::write(&demo_wok()).unwrap();
    std::fs::write(&good, &wok).unwrap();
    let r = run(&["info".as_ref(), good.as_os_str()], &dir);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let r = run(&["check".as_ref(), dir.as_os_str()], &dir);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    std::fs::write(&good, &wok[..100]).unwrap();
    let r = run(&["info".as_ref(), good.as_os_str()], &dir);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("r\u{FFFD}oom.wok"), "{}", r.stderr);
    assert!(r.stderr.contains("offset 0x"), "{}", r.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Faults while writing
// ---------------------------------------------------------------------------------------------

/// Every command that writes a file, pointed at an output it cannot write: exit 2, one line,
/// the input untouched, no temporary file left behind.
#[test]
fn write_faults_leave_nothing_behind() {
    let dir = scratch("write-faults");
    let input = dir.join("room.wok");
    let wok = areakit_app::formats::bwm::write(&demo_wok()).unwrap();
    std::fs::write(&input, &wok).unwrap();
    let trx_src = samples(&["trx"])[0].clone();
    let trx = dir.join("area.trx");
    std::fs::copy(&trx_src, &trx).unwrap();
    let as_folder = dir.join("taken.wok");
    std::fs::create_dir(&as_folder).unwrap();
    let mut outputs: Vec<(PathBuf, &str)> = vec![
        (dir.join("missing/out.wok"), "a missing folder"),
        (as_folder.clone(), "a folder"),
        (
            PathBuf::from("/proc/areakit-out.wok"),
            "a folder nobody may write",
        ),
    ];
    let readonly = dir.join("readonly");
    std::fs::create_dir(&readonly).unwrap();
    if !running_as_root() {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&readonly, std::fs::Permissions::from_mode(0o555)).unwrap();
        outputs.push((readonly.join("out.wok"), "a read-only folder"));
    }
    let before = listing(&dir);
    let mut runs = 0;
    for (out, what) in &outputs {
        let o = out.as_os_str();
        let i = input.as_os_str();
        let with_ext = |ext: &str| out.with_extension(ext).into_os_string();
        let svg = if out.is_dir() {
            o.to_os_string()
        } else {
            with_ext("svg")
        };
        let trx_out = if out.is_dir() {
            o.to_os_string()
        } else {
            with_ext("trx")
        };
        let commands: Vec<Vec<&std::ffi::OsStr>> = vec![
            vec!["convert".as_ref(), i, o],
            vec!["rebuild".as_ref(), i, "-o".as_ref(), o],
            vec![
                "transform".as_ref(),
                i,
                "-o".as_ref(),
                o,
                "--rotate".as_ref(),
                "90".as_ref(),
            ],
            vec!["render".as_ref(), i, "-o".as_ref(), &svg],
            vec!["bake".as_ref(), trx.as_os_str(), "-o".as_ref(), &trx_out],
        ];
        for args in &commands {
            let r = run(args, &dir);
            assert_eq!(r.code, Some(2), "{args:?} to {what}: {}", r.stderr);
            assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
            runs += 1;
        }
    }
    assert_eq!(
        std::fs::read(&input).unwrap(),
        wok,
        "the input is untouched"
    );
    assert_eq!(listing(&dir), before, "nothing left behind");
    assert!(runs >= 15);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every path under `dir` (the run's own .stdout/.stderr/.peak excepted).
fn listing(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walk(dir)
        .into_iter()
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(".std") || n == ".peak")
        })
        .collect();
    v.sort();
    v
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        }
        out.push(p);
    }
    out
}

/// A file inside a folder that cannot be read: `check` reports it on stderr, goes on with the
/// others, and exits 2 at the end. (Root reads anything: there the case cannot be made.)
#[test]
fn check_goes_on_past_an_unreadable_file() {
    if running_as_root() {
        eprintln!("skipped: running as root, every file is readable");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("unreadable-in-folder");
    let wok = areakit_app::formats::bwm::write(&demo_wok()).unwrap();
    std::fs::write(dir.join("a.wok"), &wok).unwrap();
    std::fs::write(dir.join("b.wok"), &wok).unwrap();
    std::fs::set_permissions(dir.join("a.wok"), std::fs::Permissions::from_mode(0o000)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_areakit"))
        .args(["check".as_ref(), dir.as_os_str(), "--json".as_ref()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files_checked"], 1);
    assert_eq!(v["io_errors"].as_array().unwrap().len(), 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("a.wok"), "{err}");
    std::fs::set_permissions(dir.join("a.wok"), std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Capsules, GFF and 2DA: the format readers directly
// ---------------------------------------------------------------------------------------------

/// Reads, validates and re-encodes one damaged input with a format's own functions; a panic
/// fails the test naming the damage, and every error must say where.
fn reader_matrix(
    label: &str,
    sources: &[(String, Vec<u8>)],
    decode: fn(&[u8]) -> Result<(), String>,
    text: bool,
) -> usize {
    let mut rng = Lcg(0x0dd ^ label.len() as u64);
    let mut n = 0;
    for (name, src) in sources {
        let damaged = if text {
            text_damage(src, &mut rng)
        } else {
            binary_damage(src, &mut rng)
        };
        for d in &damaged {
            match std::panic::catch_unwind(|| decode(&d.bytes)) {
                Err(_) => panic!("{label} {name}: {}: panicked", d.what),
                Ok(Err(message)) => assert!(
                    says_where(&message),
                    "{label} {name}: {}: the error does not say where: {message}",
                    d.what
                ),
                Ok(Ok(())) => {}
            }
            n += 1;
        }
    }
    n
}

fn gff_decode(b: &[u8]) -> Result<(), String> {
    use areakit_app::formats::gff;
    let g = gff::read(b).map_err(|e| e.to_string())?;
    let _ = gff::validate(&g);
    let _ = g.summary();
    let _ = gff::write(&g);
    let _ = gff::write_canonical(&g);
    Ok(())
}

fn erf_decode(b: &[u8]) -> Result<(), String> {
    use areakit_app::formats::erf;
    let e = erf::read(b).map_err(|e| e.to_string())?;
    let _ = erf::validate(&e);
    let _ = erf::write(&e);
    let _ = erf::write_canonical(&e);
    Ok(())
}

fn rim_decode(b: &[u8]) -> Result<(), String> {
    use areakit_app::formats::rim;
    let r = rim::read(b).map_err(|e| e.to_string())?;
    let _ = rim::validate(&r);
    let _ = rim::write(&r);
    let _ = rim::write_canonical(&r);
    Ok(())
}

fn key_decode(b: &[u8]) -> Result<(), String> {
    use areakit_app::formats::key;
    let k = key::read(b).map_err(|e| e.to_string())?;
    let _ = key::validate(&k);
    let _ = key::write(&k);
    Ok(())
}

fn bif_decode(b: &[u8]) -> Result<(), String> {
    use areakit_app::formats::bif;
    let x = bif::read(b).map_err(|e| e.to_string())?;
    let _ = bif::validate(&x);
    let _ = bif::write(&x);
    let _ = bif::write_canonical(&x);
    Ok(())
}

fn twoda_decode(b: &[u8]) -> Result<(), String> {
    use areakit_app::formats::twoda;
    let t = twoda::read(b).map_err(|e| e.to_string())?;
    let _ = twoda::validate(&t);
    let _ = twoda::write(&t);
    let _ = twoda::write_binary(&t);
    let _ = twoda::write_text(&t);
    Ok(())
}

/// The smallest and the largest (≤ 256 KB) corpus file of a format; for GFF and 2DA also the
/// smallest and largest members of the corpus capsules of that kind (so every binary variant is
/// damaged).
fn capsule_member_samples(ext: &str) -> Vec<(String, Vec<u8>)> {
    use areakit_app::formats::erf;
    let mut members: Vec<(String, Vec<u8>)> = Vec::new();
    for f in common::corpus_files(&["erf"]) {
        let Ok(e) = erf::read(&std::fs::read(&f).unwrap()) else {
            continue;
        };
        for r in &e.resources {
            if r.restype
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case(ext))
            {
                members.push((format!("{}.{ext}", r.resref), r.data.clone()));
            }
        }
    }
    members.retain(|(_, d)| d.len() <= 64 * 1024);
    members.sort_by_key(|(_, d)| d.len());
    let mut out = Vec::new();
    if let Some(first) = members.first() {
        out.push(first.clone());
    }
    if members.len() > 1 {
        out.push(members[members.len() - 1].clone());
    }
    out
}

#[test]
fn gff_matrix() {
    let mut sources = corpus_sources(&["gff"]);
    sources.extend(capsule_member_samples("git"));
    sources.extend(capsule_member_samples("utp"));
    assert_eq!(sources.len(), 6, "GFF samples");
    let n = reader_matrix("gff", &sources, gff_decode, false);
    assert!(n > 3000, "{n}");
    eprintln!("gff: {n} damaged inputs");
}

#[test]
fn capsule_matrix() {
    let erf = corpus_sources(&["erf"]);
    let rim = corpus_sources(&["rim"]);
    assert_eq!((erf.len(), rim.len()), (2, 2));
    let n = reader_matrix("erf", &erf, erf_decode, false)
        + reader_matrix("rim", &rim, rim_decode, false);
    // No public KEY/BIF: build one from capsule members with areakit's own writer.
    use areakit_app::formats::{bif, erf as erf_fmt, key};
    let e = erf_fmt::read(&erf[0].1).unwrap();
    let members = e
        .resources
        .iter()
        .take(8)
        .map(|r| (r.resref, r.restype, r.data.clone()))
        .collect();
    let (k, bifs) = key::build_install(vec![("data\\test.bif".into(), members)]).unwrap();
    let key_bytes = key::write(&k).unwrap();
    let bif_bytes = bif::write(&bifs[0]).unwrap();
    let n = n
        + reader_matrix("key", &[("test.key".into(), key_bytes)], key_decode, false)
        + reader_matrix("bif", &[("test.bif".into(), bif_bytes)], bif_decode, false);
    assert!(n > 4000, "{n}");
    eprintln!("capsules: {n} damaged inputs");
}

#[test]
fn twoda_matrix() {
    // Every corpus 2DA is binary (V2.b): the smallest and the largest up to 16 KB (a debug
    // build reads the 160 KB ones too slowly to damage them thousands of times; the fuzz
    // target covers size), then the same tables written as text (V2.0) by areakit.
    let mut files: Vec<(u64, PathBuf)> = common::corpus_files(&["2da"])
        .into_iter()
        .map(|p| (std::fs::metadata(&p).unwrap().len(), p))
        .filter(|(n, _)| *n <= 16 * 1024)
        .collect();
    files.sort();
    let picks = [files.first().unwrap(), files.last().unwrap()];
    let binary: Vec<(String, Vec<u8>)> = picks
        .iter()
        .map(|(_, p)| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(p).unwrap(),
            )
        })
        .collect();
    let n = reader_matrix("2da", &binary, twoda_decode, false);
    let text: Vec<(String, Vec<u8>)> = binary
        .iter()
        .filter_map(|(name, b)| {
            let t = areakit_app::formats::twoda::read(b).ok()?;
            Some((
                name.clone(),
                areakit_app::formats::twoda::write_text(&t).ok()?,
            ))
        })
        .collect();
    assert_eq!(text.len(), 2);
    let n = n + reader_matrix("2da-text", &text, twoda_decode, true);
    assert!(n > 2000, "{n}");
    eprintln!("2da: {n} damaged inputs");
}

/// A GFF whose list holds the struct that holds the list (a cycle), and one nested 10 000
/// lists deep: an error or a model, never a stack overflow or a hang.
#[test]
fn gff_cycles_and_deep_nesting_end() {
    fn gff(structs: &[[u32; 3]], fields: &[[u32; 3]], list_indices: &[u32]) -> Vec<u8> {
        let label = *b"L\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
        let mut body = Vec::new();
        let so = 56u32;
        for s in structs {
            for w in s {
                body.extend_from_slice(&w.to_le_bytes());
            }
        }
        let fo = so + body.len() as u32;
        for f in fields {
            for w in f {
                body.extend_from_slice(&w.to_le_bytes());
            }
        }
        let lo = so + body.len() as u32;
        body.extend_from_slice(&label);
        let fdo = so + body.len() as u32;
        let fio = fdo;
        let lio = fio;
        for w in list_indices {
            body.extend_from_slice(&w.to_le_bytes());
        }
        let mut h = Vec::new();
        h.extend_from_slice(b"GFF V3.2");
        for w in [
            so,
            structs.len() as u32,
            fo,
            fields.len() as u32,
            lo,
            1,
            fdo,
            0,
            fio,
            0,
            lio,
            (list_indices.len() * 4) as u32,
        ] {
            h.extend_from_slice(&w.to_le_bytes());
        }
        h.extend_from_slice(&body);
        h
    }
    // Root (struct 0) with one List field whose list holds struct 0 again.
    let cyclic = gff(&[[u32::MAX, 0, 1]], &[[15, 0, 0]], &[1, 0]);
    let r =
        std::panic::catch_unwind(|| areakit_app::formats::gff::read(&cyclic).map(|g| g.summary()));
    assert!(r.is_ok(), "a cyclic GFF panicked");
    if let Ok(Err(e)) = r {
        assert!(says_where(&e.to_string()), "{e}");
    }
    // A chain: struct i has a list holding struct i + 1, 10 000 deep.
    let n = 10_000u32;
    let structs: Vec<[u32; 3]> = (0..n)
        .map(|i| {
            [
                if i == 0 { u32::MAX } else { 1 },
                i.min(n - 2),
                u32::from(i + 1 < n),
            ]
        })
        .collect();
    let fields: Vec<[u32; 3]> = (0..n - 1).map(|i| [15, 0, i * 8]).collect();
    let lists: Vec<u32> = (0..n - 1).flat_map(|i| [1, i + 1]).collect();
    let deep = gff(&structs, &fields, &lists);
    let r = std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(move || {
            areakit_app::formats::gff::read(&deep).map(|g| {
                let _ = areakit_app::formats::gff::validate(&g);
                let _ = areakit_app::formats::gff::write(&g);
                g.summary()
            })
        })
        .unwrap()
        .join();
    assert!(r.is_ok(), "a 10 000-deep GFF overflowed a 1 MiB stack");
}
