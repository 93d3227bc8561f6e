//! The format crate's files form layers: inside each format's module (and among the shared
//! files at the top), no file imports another that imports it back, directly or through
//! others (ARCHITECTURE.md). This reads the sources and fails on the first import cycle,
//! naming it. A file is a node (`mdl/nwn/read`); `super::x` names its sibling `x` (a file or
//! a folder), `crate::a::b` the file `a/b` when there is one, else `a`. A folder's `mod.rs`
//! only declares and re-exports its files: it is no node, and a name that resolves to it
//! (`super::read` from a sibling of `read.rs`) is the file it re-exports. Comments (doc links)
//! and unit tests (`tests.rs` files, a trailing `mod tests`) are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every source file (without `.rs`, relative to `src`), except `lib.rs`, `mod.rs` files
/// and `tests.rs` files.
fn files(src: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(src).unwrap().with_extension("");
                let rel = rel.to_string_lossy().replace('\\', "/");
                let name = rel.rsplit('/').next().unwrap_or("");
                if !["lib", "mod", "tests"].contains(&name) {
                    out.insert(rel);
                }
            }
        }
    }
    out
}

/// The path segments after `prefix` at each of its occurrences.
fn paths_after<'a>(text: &'a str, prefix: &str) -> Vec<Vec<&'a str>> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices(prefix) {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &text[i + prefix.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        out.push(rest[..end].split("::").filter(|s| !s.is_empty()).collect());
    }
    out
}

/// The longest known file a path of segments under `base` names, if any.
fn resolve(all: &BTreeSet<String>, base: &str, segments: &[&str]) -> Option<String> {
    let mut best = None;
    let mut at = base.to_string();
    for s in segments {
        at = if at.is_empty() {
            s.to_string()
        } else {
            format!("{at}/{s}")
        };
        if all.contains(&at) {
            best = Some(at.clone());
        } else if !all.iter().any(|f| f.starts_with(&format!("{at}/"))) {
            break;
        }
    }
    best
}

fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let all = files(&src);
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &all {
        let text = std::fs::read_to_string(src.join(format!("{f}.rs"))).unwrap();
        // Unit tests inside a file (`mod tests { ... }` at the end) are not part of its layer.
        let text = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or(&text);
        // Doc links and comments name files without importing them.
        let text: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let text = text.as_str();
        let dir = f.rsplit_once('/').map_or("", |(d, _)| d);
        let deps = out.entry(f.clone()).or_default();
        for segs in paths_after(text, "super::") {
            if let Some(t) = resolve(&all, dir, &segs) {
                deps.insert(t);
            }
        }
        for segs in paths_after(text, "crate::") {
            if let Some(t) = resolve(&all, "", &segs) {
                deps.insert(t);
            }
        }
        deps.remove(f);
    }
    out
}

#[test]
fn the_files_import_no_cycle() {
    let graph = imports();
    assert!(graph.len() >= 60, "read {} files", graph.len());
    assert!(
        graph["mdl/nwn/read"].contains("mdl/space"),
        "{:?}",
        graph["mdl/nwn/read"]
    );
    if let Some(cycle) = areakit_testkit::layers::cycle(&graph) {
        panic!("import cycle: {}", cycle.join(" -> "));
    }
}
