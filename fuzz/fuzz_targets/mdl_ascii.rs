//! MDL ASCII reader: never panics; whatever reads writes back losslessly to the same bytes,
//! its canonical text reads back to an equal model, and validation does not panic.
#![no_main]

use areakit_formats::mdl_ascii::{self, Stmt};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok((model, _findings)) = mdl_ascii::read_with_findings(data) {
        let bytes = mdl_ascii::write(&model);
        assert!(bytes == data, "lossless MDL ASCII write changed the bytes");
        let _ = mdl_ascii::validate(&model);

        // The bytes (the `String` form cannot hold bytes above 0x7F).
        let canonical = mdl_ascii::write_canonical_bytes(&model);
        let again = mdl_ascii::read(&canonical).expect("canonical text reads");
        if again != model {
            panic!(
                "canonical text reads to a different model: {}",
                first_difference(&model.stmts, &again.stmts, "")
            );
        }
    }
});

/// Where two statement lists first differ (trivia ignored, as model equality does), briefly.
fn first_difference(a: &[Stmt], b: &[Stmt], path: &str) -> String {
    let a: Vec<_> = a.iter().filter(|s| !matches!(s, Stmt::Trivia(_))).collect();
    let b: Vec<_> = b.iter().filter(|s| !matches!(s, Stmt::Trivia(_))).collect();
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        if x == y {
            continue;
        }
        return match (x, y) {
            (Stmt::Node(n), Stmt::Node(m)) if n.kind == m.kind && n.name == m.name => {
                first_difference(&n.body, &m.body, &format!("{path}/node {}", n.name))
            }
            (Stmt::Geometry(n), Stmt::Geometry(m)) if n.name == m.name => {
                first_difference(&n.body, &m.body, &format!("{path}/geometry"))
            }
            (Stmt::Animation(n), Stmt::Animation(m)) if n.name == m.name => {
                first_difference(&n.body, &m.body, &format!("{path}/anim {}", n.name))
            }
            _ => format!(
                "{path}[{i}]\n  read:      {}\n  canonical: {}",
                brief(x),
                brief(y)
            ),
        };
    }
    format!("{path}: {} vs {} statements", a.len(), b.len())
}

fn brief(s: &Stmt) -> String {
    let mut t = format!("{s:?}");
    if t.len() > 300 {
        let mut end = 300;
        while !t.is_char_boundary(end) {
            end -= 1;
        }
        t.truncate(end);
        t.push_str("...");
    }
    t
}
