//! The binary under test, for the command-line tests.

/// The `areakit` binary under test.
pub fn areakit() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_areakit"))
}

/// Runs `areakit` with `args`: exit code (-1 when killed), stdout, stderr.
pub fn run(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let out = areakit().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
