//! File-system helpers: atomic writes and the "never overwrite the input" rule.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::Error;

/// Reads a whole input: a regular file, a capsule member path (`m13aa.mod/m13aa_01a.wok`) or,
/// with `--game`, a bare `resref.ext` resolved through the game ([`crate::resolve::read_input`]).
/// A failure (a folder, a FIFO, a device, a missing file) is an I/O error naming the path; a
/// capsule that does not decode is invalid input.
pub fn read(path: &Path) -> Result<Vec<u8>, Error> {
    crate::resolve::read_input(path)
}

/// Writes `bytes` to `path` atomically: the bytes go to a temporary file in the same folder,
/// which is flushed and then renamed over `path`. A failure leaves `path` as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| Error::usage(format!("{}: not a file path", path.display())))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::io(path, e));
    }
    Ok(())
}

/// Whether two paths name the same file (after resolving links); a path that does not exist yet
/// is the same as another only if their absolute forms are equal.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => std::path::absolute(a).ok() == std::path::absolute(b).ok(),
    }
}

/// Refuses to write `out` when it is the input `input`, unless `allow` is set.
pub fn refuse_overwrite(input: &Path, out: &Path, allow: bool) -> Result<(), Error> {
    if !allow && same_file(input, out) {
        return Err(Error::usage(format!(
            "{}: refusing to overwrite the input file (write to another path)",
            out.display()
        )));
    }
    Ok(())
}
