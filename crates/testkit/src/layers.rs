//! Import cycles between a crate's modules, read from its sources: for a module and its
//! children (the *units*: the crate's top-level modules, or `nav`'s), which unit names which
//! through a path (`crate::…`, `super::…`, `self::…`, groups `{…}` expanded), and the first
//! cycle among them. Comments are left out (a doc link is no import), and test modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Per source file under `src`: its module path (`nav/mesh/mod.rs` → `nav::mesh`) and text.
fn modules(src: &Path) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(src).expect("under src");
            let mut path: Vec<String> = rel
                .components()
                .map(|c| {
                    c.as_os_str()
                        .to_string_lossy()
                        .trim_end_matches(".rs")
                        .to_string()
                })
                .collect();
            if matches!(
                path.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                path.pop();
            }
            let text = std::fs::read_to_string(&p).expect("a source file");
            out.push((path, text));
        }
    }
    out
}

/// The text without comments (`//` to the end of a line) and without the items marked
/// `#[cfg(test)]` (tests are no layer, and an inline module's `super` is not the file's): only
/// each such item, to its `;` or the end of its `{…}` block, so that what follows a
/// `#[cfg(test)] mod tests;` is still read.
fn code(text: &str) -> String {
    const TEST: &str = "#[cfg(test)]";
    let text = text
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(i) = rest.find(TEST) {
        out.push_str(&rest[..i]);
        rest = &rest[i + TEST.len()..];
        rest = &rest[item_len(rest)..];
    }
    out.push_str(rest);
    out
}

/// The length of the item `s` starts with: to its `;`, or to the end of its `{…}` block.
fn item_len(s: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            ';' if depth == 0 => return i + 1,
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    s.len()
}

fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first segments of the paths a group `{a::b, c, self}` names (`rest` starts after `{`).
fn group_heads(rest: &str) -> Vec<String> {
    let mut depth = 0;
    let mut items = Vec::new();
    let mut start = 0;
    for (i, c) in rest.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&rest[start..i]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&rest[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items
        .into_iter()
        .map(|s| ident(s.trim()).to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The absolute module paths a file at `module` names.
fn references(module: &[String], text: &str) -> Vec<Vec<String>> {
    let text = code(text);
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in text.match_indices(start) {
            // Not the tail of a longer path or name (`super::super::`, `my_crate::`).
            if i > 0
                && (bytes[i - 1].is_ascii_alphanumeric()
                    || bytes[i - 1] == b'_'
                    || bytes[i - 1] == b':')
            {
                continue;
            }
            let mut base: Vec<String> = match start {
                "crate::" => Vec::new(),
                "self::" => module.to_vec(),
                _ => module[..module.len().saturating_sub(1)].to_vec(),
            };
            let mut rest = &text[i + start.len()..];
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            if let Some(r) = rest.strip_prefix('{') {
                for head in group_heads(r) {
                    let mut p = base.clone();
                    if head != "self" {
                        p.push(head);
                    }
                    out.push(p);
                }
                continue;
            }
            let mut p = base;
            loop {
                let id = ident(rest);
                if id.is_empty() {
                    break;
                }
                p.push(id.to_string());
                rest = &rest[id.len()..];
                match rest.strip_prefix("::") {
                    Some(r) if !r.starts_with('{') => rest = r,
                    Some(r) => {
                        for head in group_heads(&r[1..]) {
                            let mut q = p.clone();
                            if head != "self" {
                                q.push(head);
                            }
                            out.push(q);
                        }
                        p.clear();
                        break;
                    }
                    None => break,
                }
            }
            if !p.is_empty() {
                out.push(p);
            }
        }
    }
    out
}

/// The import graph among the units of `scope` (a module path: `&[]` for the crate's
/// top-level modules, `&["nav"]` for `nav`'s children; the scope's own file is the unit `""`).
pub fn import_graph(src: &Path, scope: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let unit_of = |path: &[String]| -> Option<String> {
        if path.len() < scope.len() || path.iter().zip(scope).any(|(a, b)| a != b) {
            return None;
        }
        Some(path.get(scope.len()).cloned().unwrap_or_default())
    };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let files = modules(src);
    // Only the units that are modules (a path naming an item of the scope's own file is
    // that file's).
    let units: BTreeSet<String> = files.iter().filter_map(|(m, _)| unit_of(m)).collect();
    for (module, text) in &files {
        let Some(from) = unit_of(module) else {
            continue;
        };
        let deps = graph.entry(from.clone()).or_default();
        for r in references(module, text) {
            if let Some(to) = unit_of(&r) {
                let to = if units.contains(&to) {
                    to
                } else {
                    String::new()
                };
                if to != from {
                    deps.insert(to);
                }
            }
        }
    }
    graph
}

/// The first import cycle of the graph, as the units in order, or `None`.
pub fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(m) {
            Some(2) => return None,
            Some(_) => {
                let start = path.iter().position(|x| x == m).unwrap_or(0);
                let mut c = path[start..].to_vec();
                c.push(m.to_string());
                return Some(c);
            }
            None => {}
        }
        state.insert(m.to_string(), 1);
        path.push(m.to_string());
        for d in graph.get(m).into_iter().flatten() {
            if graph.contains_key(d.as_str())
                && let Some(c) = visit(d, graph, state, path)
            {
                return Some(c);
            }
        }
        path.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    graph
        .keys()
        .find_map(|m| visit(m, graph, &mut state, &mut Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_through_super_and_groups() {
        let m: Vec<String> = ["nav", "query", "graph"].map(String::from).to_vec();
        let refs = references(
            &m,
            "use super::Searcher;\nuse crate::nav::{mesh::X, poly};\nuse super::super::search::pool::{FINAL, key};\n// use crate::nope;\nlet x = self::y::z;",
        );
        let s: Vec<String> = refs.iter().map(|r| r.join("::")).collect();
        assert!(s.contains(&"nav::query::Searcher".to_string()), "{s:?}");
        assert!(
            s.contains(&"nav::mesh".to_string()) && s.contains(&"nav::poly".to_string()),
            "{s:?}"
        );
        assert!(s.contains(&"nav::search::pool::FINAL".to_string()), "{s:?}");
        assert!(s.contains(&"nav::query::graph::y::z".to_string()), "{s:?}");
        assert!(!s.iter().any(|x| x.contains("nope")), "{s:?}");
    }

    #[test]
    fn only_the_item_after_cfg_test_is_skipped() {
        let m: Vec<String> = ["visgen"].map(String::from).to_vec();
        // A test module declared before the imports, an inline one with its own `super`
        // after them, and an import behind a test-only function.
        let text = "#[cfg(test)]\nmod tests;\n\nuse crate::mesh::Mesh;\n#[cfg(test)]\nmod inline {\n    use super::super::walls;\n    fn f() { if true { } }\n}\nuse crate::rays::{cast, Ray};\n#[cfg(test)]\nfn helper() { crate::fixtures::x(); }\nuse super::vis;";
        let refs = references(&m, text);
        let s: Vec<String> = refs.iter().map(|r| r.join("::")).collect();
        for seen in ["mesh::Mesh", "rays::cast", "rays::Ray", "vis"] {
            assert!(s.contains(&seen.to_string()), "{seen}: {s:?}");
        }
        assert!(
            !s.iter()
                .any(|x| x.contains("walls") || x.contains("fixtures")),
            "{s:?}"
        );
    }

    #[test]
    fn finds_a_cycle() {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        g.entry("a".into()).or_default().insert("b".into());
        g.entry("b".into()).or_default().insert("c".into());
        g.entry("c".into()).or_default();
        assert_eq!(cycle(&g), None);
        g.entry("c".into()).or_default().insert("a".into());
        assert_eq!(
            cycle(&g),
            Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
        );
    }
}
