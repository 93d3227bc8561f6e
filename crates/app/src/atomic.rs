//! The one write path: a file, or a set of files that belong together (an MDL and its MDX, a
//! picture and its TXI, the members of an extracted capsule), written whole or not at all.
//!
//! [`write_set`] writes every member to a temporary name beside its output (`.NAME.areakit-PID-N.tmp`)
//! and syncs it; nothing under a final name changes until every member is on disk. Then the
//! set appears in one order: the **first** file (the one a reader opens: the MDL, the picture,
//! the capsule manifest) is moved aside first and put in place last, so whenever the first
//! file exists under its final name, its partners beside it are of the same write:
//!
//! 1. the first file's old copy is renamed to a backup name (`.NAME.areakit-PID-N.old`); each
//!    partner's old copy is hard-linked to a backup name;
//! 2. each partner is renamed over its final name (a partner the new set does not have, such
//!    as a stale MDX, is renamed to its backup name);
//! 3. the first file is renamed to its final name; the backups are removed.
//!
//! A failure at any step puts the backups back: the old set, or nothing where there was none.
//! A crash (power loss, `kill -9`) leaves, under the final names, either the old set, or the new
//! set, or the partners without the first file (mid-swap); never the first file beside a
//! partner of another write. What else it leaves has temporary names only; the next write of
//! the same output removes those of processes no longer running (on Linux, where a process id
//! can be looked up).
//!
//! Before anything is written, the set is refused when two members name the same file, when a
//! member is an existing folder or not a regular file, or when a member is larger than the
//! process's file size limit (`ulimit -f`). A link is followed: the file it names is replaced
//! and the link stays.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::Error;

/// A step of [`write_set`] a test can fail or stop at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Writing member `n`'s temporary file.
    Temp(usize),
    /// Moving member `n`'s old copy to its backup.
    Backup(usize),
    /// Renaming member `n` to its final name (or a stale partner aside).
    Place(usize),
}

/// What a fault hook says of a step: go on, fail it (an I/O error, rolled back), or stop the
/// process there (a crash: nothing more is done, nothing rolled back).
#[derive(Debug)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) enum Fault {
    Fail(io::Error),
    Crash,
}

/// One file of a set: where it goes and what it holds (`None`: a stale partner to remove, such
/// as the MDX of a model that no longer has one).
#[derive(Debug, Clone, Copy)]
pub struct Member<'a> {
    /// The output path.
    pub path: &'a Path,
    /// Its bytes, or `None` to take an old file of that name away with the set.
    pub bytes: Option<&'a [u8]>,
}

impl<'a> Member<'a> {
    /// A file to write.
    pub fn file(path: &'a Path, bytes: &'a [u8]) -> Self {
        Member {
            path,
            bytes: Some(bytes),
        }
    }

    /// An old file to take away with the set, if there is one.
    pub fn remove(path: &'a Path) -> Self {
        Member { path, bytes: None }
    }
}

/// Writes `bytes` to `path` atomically: [`write_set`] of one file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    write_set(&[Member::file(path, bytes)])
}

/// Writes a set of files whole or not at all (see the module documentation); `members[0]` is
/// the file a reader opens first.
pub fn write_set(members: &[Member<'_>]) -> Result<(), Error> {
    write_set_with(members, &mut |_| Ok(()))
}

/// A member as it will be written: its final path after following a link, and its names.
struct Slot<'a> {
    asked: &'a Path,
    target: PathBuf,
    bytes: Option<&'a [u8]>,
    tmp: PathBuf,
    old: PathBuf,
    /// Whether an old copy was moved to `old`.
    backed_up: bool,
    /// Whether the new copy (or the removal) is in place.
    placed: bool,
}

static SEQUENCE: AtomicU64 = AtomicU64::new(0);

pub(crate) fn write_set_with(
    members: &[Member<'_>],
    fault: &mut dyn FnMut(Step) -> Result<(), Fault>,
) -> Result<(), Error> {
    let mut slots = plan(members)?;
    clean_stale(&slots);
    // 1. Every member under a temporary name, synced; on a failure, none is left.
    for (i, s) in slots.iter().enumerate() {
        let Some(bytes) = s.bytes else { continue };
        let r = match fault(Step::Temp(i)) {
            Ok(()) => write_temp(&s.tmp, bytes),
            Err(Fault::Fail(e)) => Err(e),
            Err(Fault::Crash) => return Err(crashed()),
        };
        if let Err(e) = r {
            for t in &slots {
                let _ = std::fs::remove_file(&t.tmp);
            }
            return Err(Error::io(s.asked, with_nothing_written(e)));
        }
    }
    if let [only] = slots.as_slice()
        && only.bytes.is_some()
    {
        // One file: one rename, nothing to order.
        return match fault(Step::Place(0)) {
            Ok(()) => std::fs::rename(&only.tmp, &only.target).map_err(|e| {
                let _ = std::fs::remove_file(&only.tmp);
                Error::io(only.asked, with_nothing_written(e))
            }),
            Err(Fault::Fail(e)) => {
                let _ = std::fs::remove_file(&only.tmp);
                Err(Error::io(only.asked, with_nothing_written(e)))
            }
            Err(Fault::Crash) => Err(crashed()),
        };
    }
    match commit(&mut slots, fault) {
        Ok(()) => {
            for s in &slots {
                let _ = std::fs::remove_file(&s.old);
            }
            sync_folders(&slots);
            Ok(())
        }
        Err(None) => Err(crashed()),
        Err(Some((i, e))) => {
            roll_back(&mut slots);
            Err(Error::io(slots[i].asked, with_nothing_written(e)))
        }
    }
}

/// Steps 1-3 of the module documentation; the failing member and its error, or `None` for a
/// crash.
fn commit(
    slots: &mut [Slot<'_>],
    fault: &mut dyn FnMut(Step) -> Result<(), Fault>,
) -> Result<(), Option<(usize, io::Error)>> {
    // One step: the hook first (a failure or a crash), then the act.
    let mut run = |s: Step, i: usize, act: &dyn Fn() -> io::Result<()>| match fault(s) {
        Ok(()) => act().map_err(|e| Some((i, e))),
        Err(Fault::Fail(e)) => Err(Some((i, e))),
        Err(Fault::Crash) => Err(None),
    };
    // The first file's old copy goes aside (so it is never seen beside new partners), and so
    // does a stale partner; the other partners' old copies are linked to their backups (they
    // stay in place until replaced).
    for (i, s) in slots.iter_mut().enumerate() {
        if !s.target.exists() {
            continue;
        }
        let moved = i == 0 || s.bytes.is_none();
        run(Step::Backup(i), i, &|| {
            if moved {
                std::fs::rename(&s.target, &s.old)
            } else {
                std::fs::hard_link(&s.target, &s.old)
                    .or_else(|_| std::fs::copy(&s.target, &s.old).map(|_| ()))
            }
        })?;
        s.backed_up = true;
        s.placed = s.bytes.is_none();
    }
    // The partners, then the first file.
    for i in (1..slots.len()).chain(std::iter::once(0)) {
        let s = &mut slots[i];
        if s.bytes.is_none() {
            continue;
        }
        run(Step::Place(i), i, &|| std::fs::rename(&s.tmp, &s.target))?;
        s.placed = true;
    }
    Ok(())
}

const CRASH: &str = "a simulated crash stopped the write";

fn crashed() -> Error {
    Error::io(Path::new("<write>"), io::Error::other(CRASH))
}

/// Puts every backup back and removes what was placed without one: the old set again, or
/// nothing where there was none.
fn roll_back(slots: &mut [Slot<'_>]) {
    // The partners first, the first file last: the same order as a write.
    for i in (1..slots.len()).chain(std::iter::once(0)) {
        let s = &mut slots[i];
        if s.backed_up {
            let _ = std::fs::rename(&s.old, &s.target);
            // A backup that is a hard link to the file still in place: `rename` of one link
            // over another of the same file does nothing and leaves both.
            let _ = std::fs::remove_file(&s.old);
        } else if s.placed {
            let _ = std::fs::remove_file(&s.target);
        }
        let _ = std::fs::remove_file(&s.tmp);
    }
}

/// Checks a set before anything is written and names its temporary files.
fn plan<'a>(members: &[Member<'a>]) -> Result<Vec<Slot<'a>>, Error> {
    let mut slots: Vec<Slot<'a>> = Vec::with_capacity(members.len());
    for m in members {
        let target = resolve_link(m.path);
        let name = target
            .file_name()
            .ok_or_else(|| Error::usage(format!("{}: not a file path", m.path.display())))?
            .to_string_lossy()
            .into_owned();
        if let Ok(meta) = std::fs::metadata(&target)
            && !meta.is_file()
        {
            let why = if meta.is_dir() {
                "a folder, not a file: nothing was written"
            } else {
                "not a regular file (a FIFO, socket or device): nothing was written"
            };
            return Err(Error::io(
                m.path,
                io::Error::new(io::ErrorKind::InvalidInput, why),
            ));
        }
        if let Some(other) = slots.iter().find(|s| same_target(&s.target, &target)) {
            return Err(Error::usage(format!(
                "{}: the same file as {}, which this write also makes: nothing was written",
                m.path.display(),
                other.asked.display()
            )));
        }
        if let (Some(limit), Some(bytes)) = (file_size_limit(), m.bytes)
            && bytes.len() as u64 > limit
        {
            return Err(Error::io(
                m.path,
                io::Error::new(
                    io::ErrorKind::FileTooLarge,
                    format!(
                        "{} bytes to write, more than the file size limit of {limit} bytes (ulimit -f); nothing was written",
                        bytes.len()
                    ),
                ),
            ));
        }
        let n = SEQUENCE.fetch_add(1, Ordering::Relaxed);
        let dir = folder_of(&target);
        let stem = format!(".{name}.areakit-{}-{n}", std::process::id());
        slots.push(Slot {
            asked: m.path,
            tmp: dir.join(format!("{stem}.tmp")),
            old: dir.join(format!("{stem}.old")),
            target,
            bytes: m.bytes,
            backed_up: false,
            placed: false,
        });
    }
    Ok(slots)
}

/// The file a path names: a link's target (the link stays), else the path itself.
fn resolve_link(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Whether two outputs are one file: the same absolute path (names compared without regard
/// to ASCII case, as Windows and macOS folders compare them), or the same existing file.
fn same_target(a: &Path, b: &Path) -> bool {
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (x, y) = (abs(a), abs(b));
    if x.to_string_lossy()
        .eq_ignore_ascii_case(&y.to_string_lossy())
    {
        return true;
    }
    matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(p), Ok(q)) if p == q)
}

fn write_temp(tmp: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(tmp)?;
    f.write_all(bytes)?;
    f.sync_all()
}

fn with_nothing_written(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{e}; nothing was written"))
}

/// Syncs the folders of a set, so that its renames are on disk too (best effort: not every
/// system opens a folder).
fn sync_folders(slots: &[Slot<'_>]) {
    let mut done: Vec<PathBuf> = Vec::new();
    for s in slots {
        let dir = folder_of(&s.target);
        if !done.contains(&dir) {
            if let Ok(f) = std::fs::File::open(&dir) {
                let _ = f.sync_all();
            }
            done.push(dir);
        }
    }
}

/// Removes the temporary files earlier writes of these outputs left when their process died
/// (`.NAME.areakit-PID-N.tmp` / `.old` of a process id that is no longer running), reading each
/// folder once. Only where a process id can be looked up (Linux `/proc`); elsewhere they stay.
fn clean_stale(slots: &[Slot<'_>]) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let mut folders: std::collections::HashMap<PathBuf, std::collections::HashSet<String>> =
        std::collections::HashMap::new();
    for s in slots {
        if let Some(name) = s.target.file_name() {
            folders
                .entry(folder_of(&s.target))
                .or_default()
                .insert(name.to_string_lossy().into_owned());
        }
    }
    let me = std::process::id().to_string();
    for (dir, names) in folders {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let file = e.file_name().to_string_lossy().into_owned();
            let Some((name, rest)) = file
                .strip_prefix('.')
                .and_then(|f| f.rsplit_once(".areakit-"))
            else {
                continue;
            };
            let Some((pid, tail)) = rest.split_once('-') else {
                continue;
            };
            let ours = tail.ends_with(".tmp") || tail.ends_with(".old");
            if ours
                && names.contains(name)
                && pid.parse::<u32>().is_ok()
                && pid != me
                && !Path::new("/proc").join(pid).exists()
            {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

/// The soft limit on the size of a file this process may write (`RLIMIT_FSIZE`), when there
/// is one. Writing past it would stop the process with `SIGXFSZ` half-way through a file.
#[cfg(unix)]
fn file_size_limit() -> Option<u64> {
    let (soft, _) = rlimit::Resource::FSIZE.get().ok()?;
    (soft != rlimit::INFINITY).then_some(soft)
}

/// No file size limit to check where there are no resource limits.
#[cfg(not(unix))]
fn file_size_limit() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests;
