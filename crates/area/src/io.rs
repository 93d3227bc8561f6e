//! Reading files the way every areakit reader does.

use std::io;
use std::path::Path;

/// Reads a whole regular file. A folder, a FIFO (which would block until someone writes to
/// it), a socket or a device is an [`io::ErrorKind::InvalidInput`] error saying so.
pub fn read_regular_file(path: &Path) -> io::Result<Vec<u8>> {
    check_regular_file(path)?;
    std::fs::read(path)
}

/// Fails unless `path` is a regular file (following links).
pub fn check_regular_file(path: &Path) -> io::Result<()> {
    let meta = std::fs::metadata(path)?;
    if meta.is_file() {
        return Ok(());
    }
    let what = if meta.is_dir() {
        "a folder, not a file"
    } else {
        "not a regular file (a FIFO, socket or device)"
    };
    Err(io::Error::new(io::ErrorKind::InvalidInput, what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_and_missing_files_are_errors() {
        let dir = std::env::temp_dir();
        let e = read_regular_file(&dir).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("folder"), "{e}");
        let e = read_regular_file(&dir.join("areakit-no-such-file")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
    }
}
