//! Writes the test module folder (`tests/common/module_fixture.rs`: the demo area, a GIT with
//! placeables and doors, templates, tables and walkmeshes, parts taken from the corpus beside
//! the checkout) under `DIR`; its module is `DIR/mod`. The Python package's agreement test
//! runs `areakit path` and `areakit.Area.path` on it.
//!
//! `cargo run --example module_fixture -- DIR [ENTRY_X,ENTRY_Y,ENTRY_Z]`

#[path = "../tests/common/mod.rs"]
mod common;

fn main() -> std::process::ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(dir) = args.next().map(std::path::PathBuf::from) else {
        eprintln!("usage: module_fixture DIR [X,Y,Z]");
        return std::process::ExitCode::from(2);
    };
    let entry = match args.next() {
        Some(e) => {
            let v: Vec<f32> = e
                .to_string_lossy()
                .split(',')
                .filter_map(|c| c.trim().parse().ok())
                .collect();
            match v[..] {
                [x, y, z] => [x, y, z],
                _ => {
                    eprintln!("module_fixture: the entry point is X,Y,Z");
                    return std::process::ExitCode::from(2);
                }
            }
        }
        None => [1.5, 1.5, 0.0],
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("module_fixture: {}: {e}", dir.display());
        return std::process::ExitCode::from(2);
    }
    common::module_fixture::build_module(&dir, entry);
    println!("{}", dir.join("mod").display());
    std::process::ExitCode::SUCCESS
}
