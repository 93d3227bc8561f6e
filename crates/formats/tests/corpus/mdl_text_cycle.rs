//! Every corpus compiled model, KotOR and NWN, through its text and back twice: decompiled,
//! read, compiled and decompiled again gives the same text (skin weights included), and the
//! second compile writes the same bytes as the first. The text reads without a finding and
//! validates without one.

use areakit_formats::mdl::{self, nwn};
use areakit_formats::mdl_ascii;
use areakit_testkit::corpus_files;

/// The first line where two texts differ, for the failure message.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let (la, lb): (Vec<&[u8]>, Vec<&[u8]>) = (
        a.split(|&c| c == b'\n').collect(),
        b.split(|&c| c == b'\n').collect(),
    );
    for (i, (x, y)) in la.iter().zip(&lb).enumerate() {
        if x != y {
            return format!(
                "line {}: `{}` then `{}`",
                i + 1,
                String::from_utf8_lossy(x),
                String::from_utf8_lossy(y)
            );
        }
    }
    format!("{} lines then {}", la.len(), lb.len())
}

/// The failures, at most 12 of them in full, with a count per kind.
fn report(failures: &[String], of: usize) -> String {
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    for f in failures {
        let kind = f
            .split(": ")
            .nth(1)
            .unwrap_or("")
            .chars()
            .take(60)
            .collect();
        *kinds.entry(kind).or_default() += 1;
    }
    let shown: Vec<&str> = failures.iter().take(12).map(String::as_str).collect();
    format!(
        "{} of {of}: {kinds:#?}\n{}",
        failures.len(),
        shown.join("\n")
    )
}

/// Reads decompiled text, insisting that the reader finds nothing irregular in it and that
/// no list lost rows (`mdl-count-mismatch`: a count the rows that follow disagree with).
/// Other `validate` findings describe the model itself (two nodes of one name, a key past
/// the animation's end), as the binary has it.
fn read_clean(text: &[u8]) -> Result<mdl_ascii::Model, String> {
    let (t, findings) = mdl_ascii::read_with_findings(text).map_err(|e| format!("read: {e}"))?;
    if let Some(f) = findings.first() {
        return Err(format!("read finding {} {}", f.code, f.message));
    }
    if let Some(f) = mdl_ascii::validate(&t)
        .iter()
        .find(|f| f.code == "mdl-count-mismatch")
    {
        return Err(format!("validate finding {} {}", f.code, f.message));
    }
    Ok(t)
}

/// The `weights` rows of a text that name a bone by number (`@N`), not by a node name.
fn numbered_bones(text: &[u8]) -> usize {
    text.split(|&c| c == b'\n')
        .filter(|l| {
            l.split(|&c| c == b' ')
                .any(|w| w.starts_with(b"@") && w.len() > 1)
        })
        .count()
}

fn nwn_cycle(b: &[u8]) -> Result<usize, String> {
    let compile = |text: &[u8]| -> Result<Vec<u8>, String> {
        let t = read_clean(text)?;
        let c = nwn::from_ascii(&t).map_err(|e| format!("compile: {e}"))?;
        nwn::write(&c.model).map_err(|e| format!("write: {e}"))
    };
    let decompile = |bytes: &[u8]| -> Result<Vec<u8>, String> {
        let m = nwn::read(bytes).map_err(|e| format!("read: {e}"))?;
        Ok(mdl_ascii::write_canonical_bytes(&nwn::to_ascii(&m)))
    };
    let t1 = decompile(b)?;
    let b1 = compile(&t1)?;
    let t2 = decompile(&b1)?;
    if t1 != t2 {
        return Err(format!("the text changes: {}", first_difference(&t1, &t2)));
    }
    let b2 = compile(&t2)?;
    if b1 != b2 {
        return Err(format!(
            "the second compile differs ({} vs {} bytes)",
            b2.len(),
            b1.len()
        ));
    }
    Ok(numbered_bones(&t1))
}

fn kotor_cycle(a: &[u8], x: &[u8]) -> Result<(usize, usize), String> {
    let game = mdl::read(a, x).map_err(|e| format!("read: {e}"))?.game;
    let compile = |text: &[u8]| -> Result<(Vec<u8>, Vec<u8>), String> {
        let t = read_clean(text)?;
        let m = mdl::from_ascii(&t, game).map_err(|e| format!("compile: {e}"))?;
        mdl::write(&m).map_err(|e| format!("write: {e}"))
    };
    let decompile = |a: &[u8], x: &[u8]| -> Result<Vec<u8>, String> {
        let m = mdl::read(a, x).map_err(|e| format!("read: {e}"))?;
        Ok(mdl_ascii::write_canonical_bytes(&mdl::to_ascii(&m)))
    };
    let t1 = decompile(a, x)?;
    let b1 = compile(&t1)?;
    let t2 = decompile(&b1.0, &b1.1)?;
    if t1 != t2 {
        return Err(format!("the text changes: {}", first_difference(&t1, &t2)));
    }
    let b2 = compile(&t2)?;
    if b1 != b2 {
        return Err(format!(
            "the second compile differs ({}+{} vs {}+{} bytes)",
            b2.0.len(),
            b2.1.len(),
            b1.0.len(),
            b1.1.len()
        ));
    }
    let text = String::from_utf8_lossy(&t1);
    Ok((numbered_bones(&t1), text.matches(" @-1 0\n").count()))
}

#[test]
fn every_nwn_model_text_is_a_fixed_point_of_compile_and_decompile() {
    let files = corpus_files(&["nwn-mdl-bin"]);
    assert_eq!(files.len(), 108);
    let mut failures = Vec::new();
    let (mut passed, mut numbered) = (0, 0);
    for p in &files {
        match nwn_cycle(&std::fs::read(p).unwrap()) {
            Ok(n) => {
                passed += 1;
                numbered += n;
            }
            Err(e) => failures.push(format!("{}: {e}", p.file_name().unwrap().to_string_lossy())),
        }
    }
    assert!(failures.is_empty(), "{}", report(&failures, 108));
    assert_eq!(passed, 108);
    // Every bone of every corpus NWN skin is a node of its model.
    assert_eq!(numbered, 0, "weights rows naming a bone by number");
}

#[test]
fn every_kotor_model_text_is_a_fixed_point_of_compile_and_decompile() {
    let files = corpus_files(&["mdl-bin"]);
    assert_eq!(files.len(), 136);
    let mut failures = Vec::new();
    let (mut passed, mut numbered, mut boneless) = (0, 0, 0);
    for p in &files {
        let a = std::fs::read(p).unwrap();
        let x = std::fs::read(p.with_extension("mdx")).unwrap();
        match kotor_cycle(&a, &x) {
            Ok((n, b)) => {
                passed += 1;
                numbered += n;
                boneless += b;
            }
            Err(e) => failures.push(format!("{}: {e}", p.file_name().unwrap().to_string_lossy())),
        }
    }
    assert!(failures.is_empty(), "{}", report(&failures, 136));
    assert_eq!(passed, 136);
    // Only PyKotor's `c_dewback.mdl` has bone indices no bone-map entry gives (its MDX bone
    // columns hold values that are no small integers) and vertices without weights: written
    // `@N` and `@-1 0`, every row comes back (no `mdl-count-mismatch` above).
    assert_eq!(
        (numbered, boneless),
        (1477, 765),
        "weights rows naming a bone by number, rows without bones"
    );
}

/// A skin bone whose node number no node has (here made so in a corpus creature) is written
/// `@N` and compiles back to the same number in the same slot; `#N`, as it was written, starts
/// a comment and the rows naming it were lost.
#[test]
fn a_bone_number_without_a_node_comes_back() {
    let mut done = 0;
    for p in corpus_files(&["nwn-mdl-bin"]) {
        let mut m = nwn::read(&std::fs::read(&p).unwrap()).unwrap();
        let Some(k) = m.nodes.iter().position(|n| {
            n.skin
                .as_ref()
                .is_some_and(|s| s.weights.as_ref().is_some_and(|w| !w.is_empty()))
        }) else {
            continue;
        };
        let skin = m.nodes[k].skin.as_mut().unwrap();
        let slot = skin.bone_indices.as_ref().unwrap()[0][0];
        assert!(slot >= 0, "{}", p.display());
        skin.bone_nodes[slot as usize] = 30_000;
        let vertices = skin.weights.as_ref().unwrap().len();
        let text = mdl_ascii::write_canonical_bytes(&nwn::to_ascii(&m));
        assert!(numbered_bones(&text) > 0, "{}", p.display());
        let t = read_clean(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let c = nwn::from_ascii(&t).unwrap().model;
        let s = c.nodes[k].skin.as_ref().unwrap();
        assert_eq!(s.weights.as_ref().unwrap().len(), vertices);
        let first = s.bone_indices.as_ref().unwrap()[0][0];
        assert_eq!(s.bone_nodes[first as usize], 30_000, "{}", p.display());
        done += 1;
        break;
    }
    assert_eq!(done, 1);
}
