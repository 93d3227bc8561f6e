//! Writes under faults. Every file areakit writes goes through one atomic path (a temporary
//! file beside the output, renamed over it): a write that fails leaves no partial output and
//! no temporary file, and a process killed at any moment leaves either no output or the whole
//! output, never a truncated file.

use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn areakit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_areakit"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-faults-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The file names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A folder of `n` resources of `size` bytes of noise each (a module's worth of data).
fn resources(dir: &Path, n: usize, size: usize) {
    std::fs::create_dir_all(dir).unwrap();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in 0..n {
        let mut data = vec![0u8; size];
        for b in data.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = x as u8;
        }
        std::fs::write(dir.join(format!("res{i:03}.utc")), data).unwrap();
    }
}

/// `ulimit -f` smaller than the output: the write is refused before it starts (exit 2, one
/// line naming the limit), and neither the output nor a temporary file is left.
#[test]
fn a_file_size_limit_leaves_nothing_behind() {
    let dir = tmp("ulimit");
    let src = dir.join("src");
    resources(&src, 4, 64 * 1024);
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let capsule = out.join("big.erf");
    // bash's `ulimit -f` counts 1024-byte blocks: 64 KiB, the capsule is 256 KiB and more.
    let o = Command::new("bash")
        .arg("-c")
        .arg(r#"ulimit -f 64 && exec "$0" pack "$1" -o "$2""#)
        .arg(env!("CARGO_BIN_EXE_areakit"))
        .arg(&src)
        .arg(&capsule)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("file size limit"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(names(&out).is_empty(), "left behind: {:?}", names(&out));
    // Without the limit the same command writes the capsule.
    let st = areakit()
        .arg("pack")
        .arg(&src)
        .arg("-o")
        .arg(&capsule)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success());
    assert_eq!(names(&out), ["big.erf"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A folder no file can be created in: exit 2, a message naming the output, nothing written.
/// (Root may write into a folder without write permission, so a folder of `/proc` stands in
/// for one when the test runs as root.)
#[test]
fn an_unwritable_folder_leaves_nothing_behind() {
    let dir = tmp("readonly");
    let src = dir.join("src");
    resources(&src, 2, 1024);
    let ro = dir.join("ro");
    std::fs::create_dir_all(&ro).unwrap();
    let mut perms = std::fs::metadata(&ro).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&ro, perms).unwrap();
    let writable = std::fs::write(ro.join("probe"), b"x").is_ok();
    let _ = std::fs::remove_file(ro.join("probe"));
    let target = if writable {
        PathBuf::from("/proc/self/fdinfo")
    } else {
        ro.clone()
    };
    let before = names(&target);
    let out = target.join("x.erf");
    let o = areakit()
        .arg("pack")
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&out.display().to_string()), "{stderr}");
    if !writable {
        assert_eq!(names(&target), before);
    }
    assert!(!out.exists());
    let mut perms = std::fs::metadata(&ro).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&ro, perms).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An output on another filesystem than the folder the command runs in, and an output that is
/// a link to a file on another filesystem: the temporary file is made beside the file the
/// link names (a rename never crosses filesystems), the file is replaced and the link stays.
#[test]
fn outputs_on_another_filesystem_and_through_links() {
    let dir = tmp("otherfs");
    let src = dir.join("src");
    resources(&src, 3, 4096);
    // /dev/shm is a tmpfs where there is one; else another folder stands in for it.
    let shm = Path::new("/dev/shm");
    let other = if shm.is_dir() {
        shm.join(format!("areakit-faults-{}", std::process::id()))
    } else {
        dir.join("other")
    };
    let _ = std::fs::remove_dir_all(&other);
    std::fs::create_dir_all(&other).unwrap();
    let direct = other.join("direct.erf");
    let st = areakit()
        .arg("pack")
        .arg(&src)
        .arg("-o")
        .arg(&direct)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success());
    let want = std::fs::read(&direct).unwrap();

    let target = other.join("target.erf");
    std::fs::write(&target, b"old contents").unwrap();
    let link = dir.join("link.erf");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let st = areakit()
        .arg("pack")
        .arg(&src)
        .arg("-o")
        .arg(&link)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success());
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link stays a link"
    );
    assert_eq!(
        std::fs::read(&target).unwrap(),
        want,
        "the file it names is replaced"
    );
    assert_eq!(
        names(&other),
        ["direct.erf", "target.erf"],
        "no temporary file"
    );
    assert_eq!(names(&dir), ["link.erf", "src"]);

    // An output that is no regular file (a FIFO) is refused, not replaced.
    let fifo = dir.join("fifo.erf");
    let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(st.success());
    let o = areakit()
        .arg("pack")
        .arg(&src)
        .arg("-o")
        .arg(&fifo)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("not a regular file"), "{stderr}");
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    std::fs::remove_dir_all(&other).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `kill -9` at a random moment during a large `pack` or `convert`, 24 times: the output is
/// either absent or complete (byte for byte what an uninterrupted run writes).
#[test]
fn a_killed_write_leaves_no_truncated_output() {
    let dir = tmp("kill");
    let src = dir.join("src");
    resources(&src, 48, 1 << 20);
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();

    // The complete outputs, and how long each command takes.
    let full_pack = dir.join("full.erf");
    let t = Instant::now();
    let st = areakit()
        .arg("pack")
        .arg(&src)
        .arg("-o")
        .arg(&full_pack)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success());
    let pack_time = t.elapsed();
    let full_convert = dir.join("full-copy.erf");
    let t = Instant::now();
    let st = areakit()
        .arg("convert")
        .arg(&full_pack)
        .arg(&full_convert)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success());
    let convert_time = t.elapsed();
    let want = std::fs::read(&full_pack).unwrap();
    assert!(want.len() > 48 << 20);
    assert_eq!(std::fs::read(&full_convert).unwrap(), want);

    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut outcomes = [0usize; 2];
    for i in 0..24 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let output = out.join(format!("run{i}.erf"));
        let (mut cmd, time) = if i % 2 == 0 {
            let mut c = areakit();
            c.arg("pack").arg(&src).arg("-o").arg(&output);
            (c, pack_time)
        } else {
            let mut c = areakit();
            c.arg("convert").arg(&full_pack).arg(&output);
            (c, convert_time)
        };
        // A moment anywhere in the run (every other run in its last half, where the output
        // is written), a little past its usual end included.
        let span = time.as_micros() as u64 * 11 / 10 + 1;
        let at = if (i / 2) % 2 == 0 {
            Duration::from_micros(seed % span)
        } else {
            Duration::from_micros(span / 2 + seed % (span / 2 + 1))
        };
        let mut child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(at);
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        match std::fs::read(&output) {
            Ok(bytes) => {
                assert_eq!(bytes.len(), want.len(), "run {i}: a truncated output");
                assert!(bytes == want, "run {i}: the output differs");
                outcomes[1] += 1;
            }
            Err(e) => {
                assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "run {i}");
                outcomes[0] += 1;
            }
        }
        // A killed run may leave its temporary file (a dot file); never the output's name
        // with other bytes.
        for name in names(&out) {
            assert!(
                name.starts_with('.') || name.starts_with("run"),
                "run {i}: {name}"
            );
        }
    }
    eprintln!(
        "killed runs: {} left no output, {} the whole output",
        outcomes[0], outcomes[1]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The largest corpus KotOR binary model (MDL and MDX), and a second one for the old outputs.
fn models() -> [(Vec<u8>, Vec<u8>); 2] {
    let kits = crate::common::corpus_dir()
        .join("kotor/openkotor_pykotor/Tools/HolocronToolset/src/toolset/kits/hiddenbek");
    ["large_room_1", "large_room_2"].map(|m| {
        (
            std::fs::read(kits.join(format!("{m}.mdl"))).unwrap(),
            std::fs::read(kits.join(format!("{m}.mdx"))).unwrap(),
        )
    })
}

/// `dir/in.mdl` and `dir/in.mdx` holding `pair`; the MDL's path.
fn model_input(dir: &Path, pair: &(Vec<u8>, Vec<u8>)) -> PathBuf {
    let input = dir.join("in.mdl");
    std::fs::write(&input, &pair.0).unwrap();
    std::fs::write(dir.join("in.mdx"), &pair.1).unwrap();
    input
}

/// Which write the pair under the final names is of: 0 the old, 1 the new, 2 the first file
/// absent (mid-swap); panics on a mixed pair.
fn pair_state(o: &Path, old: &(Vec<u8>, Vec<u8>), new: &(Vec<u8>, Vec<u8>), what: &str) -> usize {
    let mdl = std::fs::read(o).ok();
    let mdx = std::fs::read(o.with_extension("mdx")).ok();
    match mdl {
        None => 2,
        Some(m) if m == old.0 => {
            assert!(
                mdx.as_ref() == Some(&old.1),
                "{what}: the old MDL beside another MDX"
            );
            0
        }
        Some(m) if m == new.0 => {
            assert!(
                mdx.as_ref() == Some(&new.1),
                "{what}: the new MDL beside another MDX"
            );
            1
        }
        Some(m) => panic!("{what}: an MDL of {} bytes that is neither write", m.len()),
    }
}

/// `kill -9` at 150 random moments during `convert` of the largest corpus model over an older
/// pair: under the final names the old pair, the new pair or no MDL, never a mixed pair
/// (`docs/writes.md` quotes the counts).
#[test]
fn a_killed_model_convert_never_leaves_a_mixed_pair() {
    let dir = tmp("kill-pair");
    let [new, old] = models();
    let input = model_input(&dir, &new);
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let o = out.join("o.mdl");
    let reset = || {
        std::fs::write(&o, &old.0).unwrap();
        std::fs::write(o.with_extension("mdx"), &old.1).unwrap();
    };
    // How long a whole run takes, and that it writes the input's pair.
    reset();
    let t = Instant::now();
    let st = areakit()
        .arg("convert")
        .arg(&input)
        .arg(&o)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    let time = t.elapsed();
    assert!(st.success());
    assert_eq!(pair_state(&o, &old, &new, "an uninterrupted run"), 1);

    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut states = [0usize; 3];
    let mut leftovers = 0;
    for i in 0..150 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        reset();
        let span = time.as_micros() as u64 * 12 / 10 + 1;
        let mut child = areakit()
            .arg("convert")
            .arg(&input)
            .arg(&o)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(seed % span));
        let _ = child.kill();
        let _ = child.wait();
        states[pair_state(&o, &old, &new, &format!("kill {i}"))] += 1;
        for name in names(&out) {
            if name.starts_with('.') {
                leftovers += 1;
                let _ = std::fs::remove_file(out.join(name));
            } else {
                assert!(name == "o.mdl" || name == "o.mdx", "kill {i}: {name}");
            }
        }
    }
    eprintln!(
        "150 kills: {} old pairs, {} new pairs, {} without the MDL; {} temporary files left",
        states[0], states[1], states[2], leftovers
    );
    assert_eq!(states.iter().sum::<usize>(), 150);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The failure cases of a two-file `convert`: a partner that is a folder, a sidecar that is the
/// main output. Each leaves the previous outputs or nothing (the write's own unit tests stop it
/// at every step, `crates/app/src/atomic/tests.rs`).
#[test]
fn a_two_file_convert_fails_whole() {
    let dir = tmp("pair-fail");
    let [m, old] = models();
    let input = model_input(&dir, &m);
    // The MDX is a folder: exit 2, and no MDL either.
    let o = dir.join("o.mdl");
    std::fs::create_dir_all(dir.join("o.mdx")).unwrap();
    let r = areakit()
        .arg("convert")
        .arg(&input)
        .arg(&o)
        .output()
        .unwrap();
    assert_eq!(
        r.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    assert!(String::from_utf8_lossy(&r.stderr).contains("nothing was written"));
    assert!(!o.exists(), "the MDL was written beside a folder MDX");
    // With an older pair in place: the folder case leaves it as it was.
    let p = dir.join("p.mdl");
    std::fs::write(&p, &old.0).unwrap();
    std::fs::write(p.with_extension("mdx"), &old.1).unwrap();
    let ok = areakit()
        .arg("convert")
        .arg(&input)
        .arg(&p)
        .output()
        .unwrap();
    assert!(ok.status.success());
    assert_eq!(pair_state(&p, &old, &m, "a whole run"), 1);

    // A texture whose TXI would be the picture itself: refused, nothing written.
    let tpc = crate::common::corpus_dir()
        .join("kotor/KOTORCommunityPatches_K1_Community_Patch/tslpatchdata");
    let with_txi = std::fs::read_dir(&tpc)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("tpc")))
        .find(|p| {
            let b = std::fs::read(p).unwrap();
            areakit_formats::tpc::read(&b).is_ok_and(|t| t.has_txi())
        });
    if let Some(t) = with_txi {
        let txi_out = dir.join("o.txi");
        let r = areakit()
            .arg("convert")
            .arg(&t)
            .arg(&txi_out)
            .args(["--to", "png"])
            .output()
            .unwrap();
        assert_eq!(
            r.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&r.stderr)
        );
        assert!(!txi_out.exists(), "the sidecar overwrote the picture");
        // The TXI a folder: no PNG either.
        let png = dir.join("q.png");
        std::fs::create_dir_all(dir.join("q.txi")).unwrap();
        let r = areakit().arg("convert").arg(&t).arg(&png).output().unwrap();
        assert_eq!(r.status.code(), Some(2));
        assert!(!png.exists(), "the PNG was written beside a folder TXI");
    } else {
        panic!("no corpus TPC with a TXI in {}", tpc.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `extract` of a whole capsule onto a full disk (a 1 MiB tmpfs, mounted here as root; the test
/// says so and passes over the check where mounting is not allowed): all of the members and the
/// manifest, or nothing, and no temporary file.
#[test]
fn extract_onto_a_full_disk_leaves_all_or_nothing() {
    let dir = tmp("full-disk");
    let src = dir.join("src");
    resources(&src, 40, 48 * 1024);
    let capsule = dir.join("c.erf");
    let st = areakit()
        .arg("pack")
        .arg(&src)
        .arg("-o")
        .arg(&capsule)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success());
    let mnt = dir.join("mnt");
    std::fs::create_dir_all(&mnt).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
        .arg(&mnt)
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("extract_onto_a_full_disk: cannot mount a tmpfs here (not root?): not run");
        return;
    }
    let unmount = || {
        let _ = Command::new("umount").arg(&mnt).status();
    };
    // 40 x 48 KiB = 1.9 MiB into 1 MiB: the disk fills part-way.
    let out = mnt.join("out");
    let o = areakit()
        .arg("extract")
        .arg(&capsule)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let left: Vec<String> = if out.exists() {
        names(&out)
    } else {
        Vec::new()
    };
    // A smaller capsule into the same disk: all of it.
    let small = dir.join("small.erf");
    let src2 = dir.join("src2");
    resources(&src2, 8, 16 * 1024);
    let st = areakit()
        .arg("pack")
        .arg(&src2)
        .arg("-o")
        .arg(&small)
        .stdout(Stdio::null())
        .status();
    let out2 = mnt.join("out2");
    let o2 = areakit()
        .arg("extract")
        .arg(&small)
        .arg("-o")
        .arg(&out2)
        .output()
        .unwrap();
    let left2 = names(&out2);
    unmount();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert!(
        left.is_empty(),
        "a full disk left {} files: {left:?}",
        left.len()
    );
    assert!(
        st.unwrap().success() && o2.status.success(),
        "{}",
        String::from_utf8_lossy(&o2.stderr)
    );
    assert_eq!(left2.len(), 9, "{left2:?}");
    assert!(left2.iter().all(|n| !n.starts_with('.')), "{left2:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
