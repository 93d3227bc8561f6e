//! `info` and `check` open a file the same way: over corpus mutants of every format areakit
//! reads (a fixed seed; at least 1 000 per format: truncations, byte flips, size words edited,
//! bytes inserted and deleted), `info` fails exactly when `check` reports the file as not
//! decoding (`invalid-file`, an error; `unsupported-file`, a warning, only when the decoder
//! itself calls the bytes a valid variant it does not read), and with the same message. The
//! library is called for every mutant; the binary runs a sample of them (exit codes).
//!
//! And: every truncation of three corpus KotOR binary models and of their MDX is an error of
//! `check` with the decoder's reason (never the text reader's "not MDL ASCII").

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use areakit_app::Session;
use areakit_app::formats::Severity;
use rayon::prelude::*;

/// A small deterministic generator (the same mutants on every run).
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

/// One mutant: which file it came from, what was done, its bytes, and whether the damage is
/// to the MDX of a binary model (then the MDL is the original).
struct Mutant {
    source: PathBuf,
    what: String,
    bytes: Vec<u8>,
    mdx: bool,
}

/// `n` mutants of `data` (a fifth each: truncations, byte flips, 32-bit words of the first
/// 256 bytes set to 0 / the length / ±1 / a random value, bytes inserted, bytes deleted).
fn mutants(data: &[u8], n: usize, rng: &mut Lcg) -> Vec<(String, Vec<u8>)> {
    let len = data.len();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let mut b = data.to_vec();
        let what = match i % 5 {
            0 => {
                let cut = if i / 5 < len.min(64) {
                    i / 5
                } else {
                    rng.below(len)
                };
                b.truncate(cut);
                format!("cut at {cut}")
            }
            1 => {
                let k = 1 + rng.below(4);
                for _ in 0..k {
                    let at = rng.below(len);
                    b[at] ^= 1 << rng.below(8);
                }
                format!("{k} bits flipped")
            }
            2 => {
                let at = rng.below(len.min(256).saturating_sub(3)) & !3;
                let v = match rng.below(5) {
                    0 => 0,
                    1 => len as u32,
                    2 => (len as u32).wrapping_add(1),
                    3 => (len as u32).wrapping_sub(1),
                    _ => rng.next() as u32,
                };
                if at + 4 <= b.len() {
                    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
                }
                format!("word at {at:#x} set to {v}")
            }
            3 => {
                let at = rng.below(len + 1);
                let k = 1 + rng.below(8);
                let ins: Vec<u8> = (0..k).map(|_| rng.next() as u8).collect();
                b.splice(at..at, ins);
                format!("{k} bytes inserted at {at}")
            }
            _ => {
                let at = rng.below(len);
                let k = (1 + rng.below(8)).min(len - at);
                b.drain(at..at + k);
                format!("{k} bytes deleted at {at}")
            }
        };
        out.push((what, b));
    }
    out
}

/// The corpus formats, grouped as areakit's formats, with the files mutated: the three
/// smallest (not PyKotor's deliberately corrupted ones).
const FORMATS: &[(&str, &[&str])] = &[
    ("bwm", &["wok", "pwk", "bwm"]),
    ("lyt", &["lyt"]),
    ("vis", &["vis"]),
    ("mdl-ascii", &["mdl-ascii", "wok-ascii", "pwk-ascii"]),
    ("mdl", &["mdl-bin"]),
    ("mdx", &["mdl-bin"]),
    ("nwn-mdl", &["nwn-mdl-bin"]),
    ("trx", &["trx", "trn"]),
    ("gff", &["gff", "nwn2-are"]),
    ("2da", &["2da"]),
    ("erf", &["erf"]),
    ("rim", &["rim"]),
    ("tpc", &["tpc"]),
    ("tga", &["tga"]),
    ("txi", &["txi"]),
    ("png", &["png"]),
];

const PER_FORMAT: usize = 1000;

fn smallest(formats: &[&str], n: usize) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = common::corpus_files(formats)
        .into_iter()
        .filter(|p| !p.to_string_lossy().contains("corrupted"))
        .collect();
    files.sort_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(u64::MAX));
    files.truncate(n);
    files
}

fn all_mutants(name: &str, formats: &[&str], rng: &mut Lcg) -> Vec<Mutant> {
    let files = if name == "mdx" {
        models_with_mdx()
    } else {
        smallest(formats, 3)
    };
    assert!(!files.is_empty(), "no corpus files of {formats:?}");
    let per_file = PER_FORMAT.div_ceil(files.len());
    let mut out = Vec::new();
    for f in &files {
        let mdx = name == "mdx";
        let target = if mdx {
            f.with_extension("mdx")
        } else {
            f.clone()
        };
        let data = std::fs::read(&target).unwrap();
        for (what, bytes) in mutants(&data, per_file, rng) {
            out.push(Mutant {
                source: f.clone(),
                what,
                bytes,
                mdx,
            });
        }
    }
    out
}

/// Writes mutant `i` into its own folder: the mutated file under its corpus name (a binary
/// model with its MDX beside it, one of the two mutated) and returns the path to open.
fn write_mutant(dir: &Path, i: usize, m: &Mutant) -> PathBuf {
    let d = dir.join(i.to_string());
    std::fs::create_dir_all(&d).unwrap();
    let path = d.join(m.source.file_name().unwrap());
    let is_model = m.source.extension().is_some_and(|e| e == "mdl")
        && m.source.with_extension("mdx").is_file();
    if m.mdx {
        std::fs::copy(&m.source, &path).unwrap();
        std::fs::write(path.with_extension("mdx"), &m.bytes).unwrap();
    } else {
        std::fs::write(&path, &m.bytes).unwrap();
        if is_model {
            std::fs::copy(m.source.with_extension("mdx"), path.with_extension("mdx")).unwrap();
        }
    }
    path
}

/// What the library says about one mutant.
#[derive(Debug)]
struct Verdict {
    /// `info`'s error (its message), or None when it describes the file.
    info: Option<String>,
    /// Whether `info`'s error is the decoder calling the bytes an unsupported variant.
    unsupported: bool,
    /// `check`'s decode finding of the file: (severity, message), if any.
    decode: Option<(Severity, String)>,
}

fn verdict(session: &Session, path: &Path) -> Verdict {
    let (info, unsupported) = match areakit_app::info::info_path(session, path) {
        Ok(_) => (None, false),
        Err(e) => {
            let unsupported = matches!(&e, areakit_app::Error::Invalid { source, .. }
                if source.kind() == areakit_app::formats::ErrorKind::Unsupported);
            (Some(e.to_string()), unsupported)
        }
    };
    let report = areakit_app::check::check_paths(session, &[path.to_path_buf()])
        .unwrap_or_else(|e| panic!("check {}: {e}", path.display()));
    let decode = report
        .findings
        .iter()
        .find(|f| f.path == path && matches!(f.finding.code, "invalid-file" | "unsupported-file"))
        .map(|f| (f.finding.severity, f.finding.message.clone()));
    Verdict {
        info,
        unsupported,
        decode,
    }
}

/// `f(i)` for every `i < n`, on two plain threads (not rayon's pool: `check` installs its own
/// pool, and a rayon worker waiting on it would run other mutants nested on its stack).
fn on_threads<T: Send>(n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<(usize, T)> {
    let threads = 2;
    let mut out: Vec<(usize, T)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let f = &f;
                std::thread::Builder::new()
                    .stack_size(8 << 20)
                    .spawn_scoped(s, move || {
                        (t..n)
                            .step_by(threads)
                            .map(|i| (i, f(i)))
                            .collect::<Vec<_>>()
                    })
                    .unwrap()
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out
}

/// Why `v` breaks the promise, if it does.
fn disagreement(v: &Verdict) -> Option<String> {
    match (&v.info, &v.decode) {
        (None, None) => None,
        (Some(e), None) => Some(format!("info fails ({e}) but check finds it decodes")),
        (None, Some((_, m))) => Some(format!("info describes it but check says: {m}")),
        (Some(e), Some((sev, m))) => {
            let want = if v.unsupported {
                Severity::Warning
            } else {
                Severity::Error
            };
            if *sev != want {
                Some(format!("info fails ({e}); check rates it {sev:?}: {m}"))
            } else if !e.contains(m.as_str()) {
                Some(format!("info says {e:?}, check says {m:?}"))
            } else {
                None
            }
        }
    }
}

#[test]
fn info_fails_exactly_when_check_reports_the_file_undecodable() {
    let session = Session::files_only();
    let dir = std::env::temp_dir().join(format!("areakit-agreement-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut rng = Lcg(43);
    let mut total = 0;
    let mut bad = Vec::new();
    let mut summary = Vec::new();
    for (k, (name, formats)) in FORMATS.iter().enumerate() {
        let list = all_mutants(name, formats, &mut rng);
        assert!(list.len() >= PER_FORMAT, "{name}: {} mutants", list.len());
        let fdir = dir.join(name);
        let results = on_threads(list.len(), |i| {
            let path = write_mutant(&fdir, i, &list[i]);
            verdict(&session, &path)
        });
        let failed = results.iter().filter(|(_, v)| v.info.is_some()).count();
        let unsupported = results.iter().filter(|(_, v)| v.unsupported).count();
        let mut disagreed = 0;
        for (i, v) in &results {
            // A file cut short is broken, whatever variant it began as: never "unsupported".
            // And a damaged compiled model is judged by the model decoder, not the text reader.
            let cut = list[*i].what.starts_with("cut at");
            let info = v.info.as_deref().unwrap_or("");
            let compiled = name.contains("mdl") && !name.contains("ascii");
            let why = disagreement(v)
                .or_else(|| {
                    (cut && v.unsupported)
                        .then(|| format!("a cut file is rated unsupported: {info}"))
                })
                .or_else(|| {
                    (compiled && info.contains("not MDL ASCII"))
                        .then(|| format!("a compiled model judged as text: {info}"))
                });
            if let Some(why) = why {
                disagreed += 1;
                let m = &list[*i];
                bad.push(format!(
                    "{name}: {} ({}): {why}",
                    m.source.display(),
                    m.what
                ));
            }
        }
        summary.push(format!(
            "{name}: {} mutants, info failed on {failed} ({unsupported} unsupported), {disagreed} disagreements",
            list.len()
        ));
        total += list.len();
        // The binary on a sample: `info` exits 1 exactly when the library's info failed, and
        // `check --json` reports the same decode finding.
        for (i, v) in results.iter().filter(|(i, _)| i % 97 == k % 97) {
            let path = fdir
                .join(i.to_string())
                .join(list[*i].source.file_name().unwrap());
            let info = Command::new(env!("CARGO_BIN_EXE_areakit"))
                .arg("info")
                .arg(&path)
                .output()
                .unwrap();
            let want = if v.info.is_some() { 1 } else { 0 };
            assert_eq!(
                info.status.code(),
                Some(want),
                "{name} {}: areakit info: {}",
                list[*i].what,
                String::from_utf8_lossy(&info.stderr)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("{total} mutants\n{}", summary.join("\n"));
    assert!(total >= PER_FORMAT * FORMATS.len());
    assert!(
        bad.is_empty(),
        "{} of {total} mutants disagree:\n{}\n{}",
        bad.len(),
        summary.join("\n"),
        bad.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// The three smallest corpus KotOR models that have vertex data in their MDX.
fn models_with_mdx() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = common::corpus_files(&["mdl-bin"])
        .into_iter()
        .filter(|p| std::fs::metadata(p.with_extension("mdx")).is_ok_and(|m| m.len() > 0))
        .collect();
    files.sort_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(u64::MAX));
    files.truncate(3);
    files
}

#[test]
fn every_truncation_of_a_binary_model_or_its_mdx_is_an_error_with_the_decoders_reason() {
    let models = models_with_mdx();
    assert_eq!(models.len(), 3);
    let dir = std::env::temp_dir().join(format!("areakit-mdl-cuts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut cases = 0;
    let mut warnings = 0;
    for (k, model) in models.iter().enumerate() {
        let mdl = std::fs::read(model).unwrap();
        let mdx = std::fs::read(model.with_extension("mdx")).unwrap();
        for (part, full) in [("mdl", &mdl), ("mdx", &mdx)] {
            let d = dir.join(format!("{k}-{part}"));
            std::fs::create_dir_all(&d).unwrap();
            let path = d.join(model.file_name().unwrap());
            // A cut MDX that still holds every row the meshes name decodes: what is lost is the
            // end-of-mesh marker row after them, which no reader reads; `check` says so
            // (`mdl-mdx-size`, a warning). Every other cut is an error.
            let found: Vec<(usize, Option<String>)> = (0..full.len())
                .into_par_iter()
                .map(|cut| {
                    let (a, x) = match part {
                        "mdl" => (&mdl[..cut], &mdx[..]),
                        _ => (&mdl[..], &mdx[..cut]),
                    };
                    let f = areakit_app::check::check_model_data(&path, a, Some(x)).unwrap();
                    if let Some(e) = f
                        .iter()
                        .find(|f| f.severity == Severity::Error && f.code == "invalid-file")
                    {
                        return (cut, Some(e.message.clone()));
                    }
                    assert!(
                        part == "mdx" && f.iter().any(|f| f.code == "mdl-mdx-size"),
                        "{} {part} cut at {cut}: neither an error nor mdl-mdx-size in {f:?}",
                        model.display()
                    );
                    (cut, None)
                })
                .collect();
            let warned: Vec<usize> = found
                .iter()
                .filter(|(_, e)| e.is_none())
                .map(|(c, _)| *c)
                .collect();
            // Only cuts in the last row's worth of bytes (a marker row is at most 100 bytes).
            assert!(
                warned.iter().all(|&c| c + 100 >= full.len()),
                "{part}: cuts far from the end decode: {warned:?}"
            );
            warnings += warned.len();
            let errors: Vec<(usize, String)> = found
                .into_iter()
                .filter_map(|(c, e)| e.map(|e| (c, e)))
                .collect();
            for (cut, m) in &errors {
                assert!(
                    !m.contains("MDL ASCII"),
                    "{} {part} cut at {cut}: {m}",
                    model.display()
                );
            }
            cases += errors.len();
            // The same through the binary for a sample of cuts: `check` exits 1 and names the
            // decoder's reason.
            for cut in [4, 12, full.len() / 2, full.len() - 200] {
                let (a, x) = match part {
                    "mdl" => (&mdl[..cut], &mdx[..]),
                    _ => (&mdl[..], &mdx[..cut]),
                };
                std::fs::write(&path, a).unwrap();
                std::fs::write(path.with_extension("mdx"), x).unwrap();
                let out = Command::new(env!("CARGO_BIN_EXE_areakit"))
                    .arg("check")
                    .arg(&path)
                    .output()
                    .unwrap();
                let text = String::from_utf8_lossy(&out.stdout);
                assert_eq!(out.status.code(), Some(1), "{part} cut at {cut}: {text}");
                let want = &errors.iter().find(|(c, _)| *c == cut).unwrap().1;
                assert!(
                    text.contains("error[invalid-file]") && text.contains(want.as_str()),
                    "{part} cut at {cut}: {text}"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "{cases} truncations of 3 models and their MDX: invalid-file errors; {warnings} more MDX \
         cuts (only the marker row lost) are mdl-mdx-size warnings"
    );
}

#[test]
fn a_model_with_an_empty_mdx_and_bytes_past_its_declared_size_reads_in_cli_and_library() {
    // A real camera model whose header gives an MDX size of 0, with bytes added after its
    // declared MDL data (as models a popular mod ships): the header's size word no longer
    // equals the file's length, so only the content tells it is compiled.
    let model = common::corpus_files(&["mdl-bin"])
        .into_iter()
        .find(|p| p.ends_with("m28ab_c01_cam.mdl"))
        .expect("m28ab_c01_cam.mdl in the corpus");
    let mut data = std::fs::read(&model).unwrap();
    assert_eq!(
        &data[8..12],
        &[0, 0, 0, 0],
        "the header gives an MDX size of 0"
    );
    data.extend_from_slice(&[0xAB; 20]);
    let dir = std::env::temp_dir().join(format!("areakit-mdl-tail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("m28ab_c01_cam.mdl");
    std::fs::write(&path, &data).unwrap();
    std::fs::write(path.with_extension("mdx"), b"").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_areakit"))
        .args(["info", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "mdl", "{v}");
    let doc = areakit_app::document::Document::decode(&path, &data).unwrap();
    let areakit_app::document::Document::Mdl(m) = doc else {
        panic!("not a KotOR model")
    };
    assert_eq!(m.trailing.len(), 20);
    assert_eq!(
        v["nodes"]["total"].as_u64(),
        Some(m.nodes.len() as u64),
        "{v}"
    );
    assert_eq!(m.nodes.len(), 2, "the camera model has 2 nodes");
    let _ = std::fs::remove_dir_all(&dir);
}
