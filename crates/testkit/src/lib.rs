//! Test support shared by areakit's crates: the real-file corpus in `../shared/corpus` beside
//! the checkout (never copied into the repository), and the import-cycle search of the layers
//! tests. A dev-dependency only.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The corpus folder beside the checkout (`AREAKIT_CORPUS` overrides it).
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("AREAKIT_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    }
}

/// Every corpus file whose `format` column in `SOURCES.tsv` is one of `formats`, sorted.
/// Panics (failing the test) when `SOURCES.tsv` is missing: a corpus test must not pass on an
/// empty folder.
pub fn corpus_files(formats: &[&str]) -> Vec<PathBuf> {
    let dir = corpus_dir();
    let sources = std::fs::read_to_string(dir.join("SOURCES.tsv"))
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.join("SOURCES.tsv").display()));
    let mut lines = sources.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let fi = header
        .iter()
        .position(|c| *c == "file")
        .expect("file column");
    let fo = header
        .iter()
        .position(|c| *c == "format")
        .expect("format column");
    let mut out = Vec::new();
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.get(fo).is_some_and(|f| formats.contains(f))
            && let Some(file) = cols.get(fi)
        {
            out.push(dir.join(file));
        }
    }
    out.sort();
    out
}

/// The first import cycle of a graph (each file or module → what it imports), as the names
/// along it with the first repeated at the end; `None` when the graph has none.
pub fn import_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth-first search with colours; a grey name met again closes a cycle.
    fn visit<'a>(
        m: &'a str,
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<&'a str, u8>,
        path: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        match state.get(m) {
            Some(2) => return None,
            Some(1) => {
                let start = path.iter().position(|x| *x == m).unwrap_or(0);
                let mut cycle: Vec<String> = path[start..].iter().map(|s| s.to_string()).collect();
                cycle.push(m.to_string());
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(m, 1);
        path.push(m);
        for d in graph.get(m).into_iter().flatten() {
            if graph.contains_key(d.as_str())
                && let Some(c) = visit(d, graph, state, path)
            {
                return Some(c);
            }
        }
        path.pop();
        state.insert(m, 2);
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
    fn a_cycle_is_named_and_a_tree_has_none() {
        let graph = |edges: &[(&str, &str)]| {
            let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            for &(a, b) in edges {
                g.entry(a.into()).or_default().insert(b.into());
                g.entry(b.into()).or_default();
            }
            g
        };
        assert_eq!(
            import_cycle(&graph(&[("a", "b"), ("b", "c"), ("a", "c")])),
            None
        );
        assert_eq!(
            import_cycle(&graph(&[("a", "b"), ("b", "c"), ("c", "b")])),
            Some(vec!["b".into(), "c".into(), "b".into()])
        );
    }
}
