//! The application crate's modules form layers: no module imports another that imports it
//! back, directly or through others (ARCHITECTURE.md draws the layers). This reads the
//! sources and fails on the first import cycle, naming it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level module of each source file (`interop/scene.rs` → `interop`), with the
/// top-level modules it names through `crate::`.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(&src).unwrap();
            let top = rel
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string();
            if top == "lib" {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let deps = out.entry(top.clone()).or_default();
            for (i, _) in text.match_indices("crate::") {
                let name: String = text[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                // `crate::Error`, `crate::Session`: the re-exports of `error` and `session`.
                let name = match name.as_str() {
                    "Error" => "error".to_string(),
                    "Session" | "Sources" => "session".to_string(),
                    _ => name,
                };
                if !name.is_empty() && name != top {
                    deps.insert(name);
                }
            }
            if text.contains("use crate::{") {
                panic!(
                    "{}: name each module in its own `use crate::...` line",
                    rel.display()
                );
            }
        }
    }
    out
}

#[test]
fn the_modules_import_no_cycle() {
    let graph = imports();
    assert!(graph.len() >= 15, "read {} modules", graph.len());
    if let Some(cycle) = areakit_testkit::layers::cycle(&graph) {
        panic!("import cycle: {}", cycle.join(" -> "));
    }
}
