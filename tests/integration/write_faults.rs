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
