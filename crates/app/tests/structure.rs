//! The structure of the sources, counted (issue 44: one request, one report). Beside the layers
//! test: where that one guards the order of the application crate's modules, this one counts
//! the seams between the faces (the command line in `src/`, Python in `python/src/`) and the
//! library crates, and fails when a count grows past its ceiling.
//!
//! Each [`Count`] has a ceiling (what the tree holds now: it may only fall; lower it when it
//! does) and the target the issue sets. `cargo test -p areakit-app --test structure --
//! --nocapture` prints every count with the places it found.

use std::path::{Path, PathBuf};

/// One measured property of the tree.
struct Count {
    name: &'static str,
    /// The most the tree may hold.
    ceiling: usize,
    /// Where it should be.
    target: usize,
    places: Vec<String>,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `.rs` files under `dir` (relative to the root), sorted.
fn sources(dir: &str) -> Vec<(String, String)> {
    let base = root();
    let mut out = Vec::new();
    let mut stack = vec![base.join(dir)];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "target") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p
                    .strip_prefix(&base)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.push((rel, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Library sources: `src/` of each crate under `crates/`, without unit-test files.
fn library() -> Vec<(String, String)> {
    sources("crates")
        .into_iter()
        .filter(|(p, _)| p.contains("/src/") && !p.ends_with("/tests.rs"))
        .collect()
}

/// The text before a file's `#[cfg(test)]` module (unit tests are not library code).
fn without_tests(text: &str) -> &str {
    text.find("#[cfg(test)]\nmod tests")
        .map_or(text, |i| &text[..i])
}

/// Lines of `text` (1-based numbers) that `pred` accepts.
fn lines_where(file: &str, text: &str, pred: impl Fn(&str) -> bool) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//") && pred(l))
        .map(|(i, l)| format!("{file}:{}: {}", i + 1, l.trim()))
        .collect()
}

/// The variants of each `enum` in `text`: `(name, [variant, ...])`.
fn enums(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("enum ") {
        if i > 0 && text.as_bytes()[i - 1].is_ascii_alphanumeric() {
            continue;
        }
        let rest = &text[i + 5..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let Some(open) = rest.find('{') else { continue };
        if rest[..open].contains(';') || name.is_empty() {
            continue;
        }
        let body = &rest[open + 1..];
        let mut depth = 0usize;
        let mut variants = Vec::new();
        let mut at_start = true;
        for line in body.lines() {
            let t = line.trim();
            if depth == 0 && at_start && !t.starts_with("//") && !t.starts_with('#') {
                let v: String = t
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if v.chars().next().is_some_and(char::is_uppercase) {
                    variants.push(v);
                }
            }
            for c in t.chars() {
                match c {
                    '{' | '(' => depth += 1,
                    '}' | ')' if depth == 0 => break,
                    '}' | ')' => depth -= 1,
                    _ => {}
                }
            }
            at_start = depth == 0;
            if t.starts_with('}') && depth == 0 {
                break;
            }
        }
        out.push((name, variants));
    }
    out
}

/// Enums of the faces whose variants are all variants of one library enum (of two or more).
fn restated_enums() -> Vec<String> {
    let lib: Vec<(String, Vec<String>)> = library()
        .iter()
        .flat_map(|(_, t)| enums(t))
        .filter(|(_, v)| v.len() >= 2)
        .collect();
    let mut out = Vec::new();
    for (file, text) in sources("src").into_iter().chain(sources("python/src")) {
        for (name, variants) in enums(&text) {
            if variants.len() < 2 {
                continue;
            }
            if let Some((of, _)) = lib
                .iter()
                .find(|(_, lv)| variants.iter().all(|v| lv.contains(v)))
            {
                out.push(format!("{file}: enum {name} restates {of}"));
            }
        }
    }
    out
}

/// Match arms on string literals in the faces (`"fast" =>`, `Some("x") =>`): tables of
/// option names.
fn name_tables() -> Vec<String> {
    let arm = |l: &str| {
        let t = l.trim_start();
        let t = t.strip_prefix("Some(").unwrap_or(t);
        t.starts_with('"') && l.contains("=>") && {
            let close = t[1..].find('"').map_or(0, |i| i + 2);
            let after = t[close..].trim_start();
            after.starts_with("=>") || after.starts_with('|') || after.starts_with(")")
        }
    };
    sources("src")
        .into_iter()
        .chain(sources("python/src"))
        .flat_map(|(f, t)| lines_where(&f, &t, arm))
        .collect()
}

/// `json!` in library code outside the glTF writer and the viewers' page data.
fn json_macros() -> Vec<String> {
    const ALLOWED: [&str; 7] = [
        "crates/app/src/interop/gltf.rs",
        "crates/app/src/interop/scene.rs",
        "crates/app/src/interop/model_parts.rs",
        "crates/app/src/interop/nwn_scene.rs",
        "crates/app/src/interop/textures.rs",
        "crates/app/src/view.rs",
        "crates/app/src/view3d.rs",
    ];
    library()
        .into_iter()
        .chain(sources("src"))
        .chain(sources("python/src"))
        .filter(|(f, _)| !ALLOWED.contains(&f.as_str()))
        .flat_map(|(f, t)| lines_where(&f, without_tests(&t), |l| l.contains("json!")))
        .collect()
}

/// `unwrap_or_default()` ending a serialisation (a failure would print `null` or nothing).
fn swallowed_serialisations() -> Vec<String> {
    let mut out = Vec::new();
    for (f, t) in library()
        .into_iter()
        .chain(sources("src"))
        .chain(sources("python/src"))
    {
        let t = without_tests(&t);
        for (i, _) in t.match_indices(".unwrap_or_default()") {
            let start = t[..i].rfind([';', '{']).map_or(0, |s| s + 1);
            let stmt = &t[start..i];
            if stmt.contains("serde_json::to_") || stmt.contains("to_json()") {
                let line = t[..i].lines().count();
                out.push(format!("{f}:{line}: {}", stmt.trim()));
            }
        }
    }
    out
}

/// `Result<_, String>` in the library crates.
fn string_errors() -> Vec<String> {
    library()
        .into_iter()
        .flat_map(|(f, t)| {
            lines_where(&f, without_tests(&t), |l| {
                l.find("Result<").is_some_and(|i| {
                    let rest = &l[i..];
                    let end = rest.find(['{', ';', '=']).unwrap_or(rest.len());
                    rest[..end].replace(' ', "").contains(",String>")
                })
            })
        })
        .collect()
}

/// Error types whose `Display` is written by hand (the library's errors derive
/// `thiserror::Error`).
fn hand_displayed_errors() -> Vec<String> {
    library()
        .into_iter()
        .flat_map(|(f, t)| {
            lines_where(&f, without_tests(&t), |l| {
                let l = l.trim_start();
                (l.starts_with("impl fmt::Display for ")
                    || l.starts_with("impl std::fmt::Display for "))
                    && l.split(" for ").nth(1).is_some_and(|ty| {
                        let ty = ty.trim_end_matches(" {");
                        ty.ends_with("Error") || ty == "UnsafeName"
                    })
            })
        })
        .collect()
}

/// Magic bytes compared outside the codecs (`crates/formats`, where `any` is the one detection
/// module and each reader checks its own signature; the glTF reader, its container's).
fn magic_comparisons() -> Vec<String> {
    const DETECTOR: &str = "crates/app/src/interop/gltf.rs";
    let compares = |l: &str| {
        let Some(i) = l.find("b\"") else { return false };
        let lit: String = l[i + 2..].chars().take_while(|c| *c != '"').collect();
        let magic = (3..=8).contains(&lit.len())
            && lit
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || " .V".contains(c))
            || lit == "glTF";
        magic
            && (l.contains("starts_with(")
                || l.contains("== b\"")
                || l.contains("!= b\"")
                || l.contains("== *b\"")
                || l.contains("\" =>"))
    };
    library()
        .into_iter()
        .chain(sources("src"))
        .chain(sources("python/src"))
        .filter(|(f, _)| !f.starts_with("crates/formats/") && f != DETECTOR)
        .flat_map(|(f, t)| lines_where(&f, without_tests(&t), compares))
        .collect()
}

/// Removes string and char literals and comments, keeping line breaks (for brace counting).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'r' && matches!(b.get(i + 1), Some(b'"' | b'#')) && {
            let prev = i.checked_sub(1).map(|p| b[p]);
            !prev.is_some_and(|p| p.is_ascii_alphanumeric() || p == b'_')
        } {
            let hashes = b[i + 1..].iter().take_while(|&&h| h == b'#').count();
            if b.get(i + 1 + hashes) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            let close: String = std::iter::once('"')
                .chain("#".repeat(hashes).chars())
                .collect();
            let body = i + 2 + hashes;
            let end = text[body..]
                .find(&close)
                .map_or(b.len(), |e| body + e + close.len());
            out.extend(text[i..end].chars().filter(|&c| c == '\n'));
            i = end;
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                if b.get(i) == Some(&b'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
        } else if c == b'\'' && (b.get(i + 2) == Some(&b'\'') || b.get(i + 1) == Some(&b'\\')) {
            // A char literal ('x', '\n', '\''); a lifetime has no closing quote there.
            i += 2;
            while i < b.len() && b[i] != b'\'' {
                i += 1;
            }
            i += 1;
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

/// Library functions (outside unit tests) longer than `limit` lines, with their lengths.
fn long_functions(limit: usize) -> Vec<String> {
    library()
        .iter()
        .flat_map(|(f, t)| long_in(f, without_tests(t), limit))
        .collect()
}

/// The functions of one file longer than `limit` lines.
fn long_in(f: &str, text: &str, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    {
        let code = code_only(text);
        let lines: Vec<&str> = code.lines().collect();
        for (n, l) in lines.iter().enumerate() {
            let t = l.trim_start();
            let t = match t.strip_prefix("pub(") {
                Some(r) => r.split_once(") ").map_or(t, |(_, r)| r),
                None => t.strip_prefix("pub ").unwrap_or(t),
            };
            let t = t.strip_prefix("const ").unwrap_or(t);
            if !t.starts_with("fn ") {
                continue;
            }
            let mut depth = 0i64;
            let mut opened = false;
            for (m, body) in lines[n..].iter().enumerate() {
                for c in body.chars() {
                    match c {
                        '{' => {
                            depth += 1;
                            opened = true;
                        }
                        '}' => depth -= 1,
                        ';' if !opened && depth == 0 => break,
                        _ => {}
                    }
                }
                if !opened && body.trim_end().ends_with(';') {
                    break;
                }
                if opened && depth == 0 {
                    if m + 1 > limit {
                        let name: String = t[3..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        out.push(format!("{f}:{}: fn {name}: {} lines", n + 1, m + 1));
                    }
                    break;
                }
            }
        }
    }
    out
}

/// Each count: what, its ceiling, its target, and the scan.
type Row = (&'static str, usize, usize, fn() -> Vec<String>);

const ROWS: [Row; 8] = [
    (
        "enums of the faces restating a library enum",
        0,
        0,
        restated_enums,
    ),
    ("tables of option names in the faces", 0, 0, name_tables),
    (
        "json! outside the glTF writer and the viewers",
        0,
        0,
        json_macros,
    ),
    (
        "unwrap_or_default() on a serialisation",
        0,
        0,
        swallowed_serialisations,
    ),
    (
        "Result<_, String> in the library crates",
        0,
        0,
        string_errors,
    ),
    (
        "error types with a hand-written Display",
        0,
        0,
        hand_displayed_errors,
    ),
    (
        "magic bytes compared outside the detector",
        0,
        0,
        magic_comparisons,
    ),
    ("library functions over 150 lines", 4, 5, || {
        long_functions(150)
    }),
];

fn counts() -> Vec<Count> {
    ROWS.iter()
        .map(|&(name, ceiling, target, scan)| Count {
            name,
            ceiling,
            target,
            places: scan(),
        })
        .collect()
}

#[test]
fn the_seams_do_not_grow() {
    let mut over = Vec::new();
    for c in counts() {
        println!(
            "{}: {} (ceiling {}, target {})",
            c.name,
            c.places.len(),
            c.ceiling,
            c.target
        );
        for p in &c.places {
            println!("    {p}");
        }
        if c.places.len() > c.ceiling {
            over.push(format!("{}: {} > {}", c.name, c.places.len(), c.ceiling));
        }
    }
    assert!(over.is_empty(), "counts over their ceilings: {over:#?}");
}

/// The scanners find what they look for (each would count 0 on a tree that broke them).
#[test]
fn the_scanners_see_their_patterns() {
    let e = enums(
        "pub enum ModeArg {\n    /// x\n    Optimal,\n    Fast { a: u8 },\n    Baked(u8),\n}\n",
    );
    assert_eq!(
        e,
        vec![(
            "ModeArg".to_string(),
            vec!["Optimal".into(), "Fast".into(), "Baked".into()]
        )]
    );
    let code =
        code_only("fn a() {\n    let s = \"}\";\n    let c = '{';\n    let r = r#\"}\"#;\n}\n");
    assert_eq!(code.matches('{').count(), code.matches('}').count());
    assert_eq!(code.lines().count(), 5);
    let long = format!(
        "pub fn big() {{\n    let s = \"{{\";\n{}}}\nfn small() {{}}\n",
        "    x();\n".repeat(200)
    );
    assert_eq!(
        long_in("f.rs", &long, 150),
        vec!["f.rs:1: fn big: 203 lines"]
    );
    assert!(long_in("f.rs", &long, 203).is_empty());
}
