use super::*;
use proptest::prelude::*;

const SAMPLE: &str = concat!(
    "# Exported from NWmax\r\n",
    "newmodel box\r\n",
    "setsupermodel box NULL\r\n",
    "classification Tile\r\n",
    "setanimationscale 1.0\r\n",
    "beginmodelgeom box\r\n",
    "node dummy box\r\n",
    "  parent NULL\r\n",
    "endnode\r\n",
    "node trimesh mesh\r\n",
    "\tparent box\r\n",
    "  position 1.0 2.0 3.0\r\n",
    "  orientation 0 0 1 1.5708\r\n",
    "  bitmap stone   # a comment\r\n",
    "  verts 3\r\n",
    "    0 0 0\r\n",
    "    1 0 0\r\n",
    "\r\n",
    "    0 1 -1.19209e-007\r\n",
    "  faces 1\r\n",
    "    0 1 2  1  0 0 0  4\r\n",
    "endnode\r\n",
    "node aabb walk\r\n",
    "  parent box\r\n",
    "  verts 3\r\n",
    "    0 0 0\r\n",
    "    1 0 0\r\n",
    "    0 1 0\r\n",
    "  faces 1\r\n",
    "    0 1 2  1  0 0 0  4\r\n",
    "  aabb  0 0 0 1 1 0 0\r\n",
    "endnode\r\n",
    "endmodelgeom box\r\n",
    "newanim idle box\r\n",
    "  length 1.0\r\n",
    "  transtime 0.25\r\n",
    "  animroot box\r\n",
    "  event 0.5 snd_footstep\r\n",
    "  node dummy mesh\r\n",
    "    parent box\r\n",
    "    positionkey\r\n",
    "      0.0 1 2 3\r\n",
    "      1.0 1 2 4\r\n",
    "    endlist\r\n",
    "    orientationkey 2\r\n",
    "      0.0 0 0 1 0\r\n",
    "      0.5 0 0 1 1\r\n",
    "  endnode\r\n",
    "doneanim idle box\r\n",
    "donemodel box\r\n",
);

#[test]
fn sample_reads_typed() {
    let (m, findings) = read_with_findings(SAMPLE.as_bytes()).unwrap();
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(m.name(), Some("box"));
    assert_eq!(m.supermodel(), None);
    assert_eq!(m.classification(), Some("Tile"));
    assert_eq!(m.animation_scale(), Some(1.0));
    assert_eq!(m.eol, Eol::CrLf);
    let nodes: Vec<_> = m.nodes().collect();
    assert_eq!(nodes.len(), 3);
    assert_eq!(nodes[1].parent(), Some("box"));
    assert_eq!(nodes[1].position(), Some([1.0, 2.0, 3.0]));
    assert_eq!(nodes[1].vertex_count(), 3);
    assert_eq!(
        nodes[1].list("verts").unwrap().rows.row(2),
        Some(&[0.0, 1.0, -1.19209e-7][..])
    );
    let aabb = nodes[2].list("aabb").unwrap();
    assert!(aabb.inline_first_row);
    assert_eq!(aabb.rows.len(), 1);
    let a = m.animations().next().unwrap();
    assert_eq!(a.length(), Some(1.0));
    assert_eq!(a.animroot(), Some("box"));
    assert_eq!(a.events().collect::<Vec<_>>(), vec![(0.5, "snd_footstep")]);
    let an = a.nodes().next().unwrap();
    let pk = an.list("positionkey").unwrap();
    assert!(pk.endlist && pk.count.is_none() && pk.rows.len() == 2);
    let ok = an.list("orientationkey").unwrap();
    assert!(!ok.endlist && ok.count == Some(2));
    let s = m.summary();
    assert_eq!(s.node_count, 3);
    assert_eq!(s.vertex_count, 6);
    assert_eq!(s.face_count, 2);
    assert_eq!(s.animation_count, 1);
    assert_eq!(
        s.nodes_by_type,
        vec![
            ("aabb".into(), 1),
            ("dummy".into(), 1),
            ("trimesh".into(), 1)
        ]
    );
    assert!(validate(&m).is_empty(), "{:?}", validate(&m));
}

#[test]
fn lossless_and_canonical() {
    let m = read(SAMPLE.as_bytes()).unwrap();
    assert_eq!(write(&m), SAMPLE.as_bytes());
    let c = write_canonical(&m);
    assert!(!c.contains('#') && !c.contains('\r'));
    assert_eq!(read(c.as_bytes()).unwrap(), m);
}

fn node_mut<'a>(m: &'a mut Model, name: &str) -> &'a mut Node {
    for s in &mut m.stmts {
        if let Stmt::Geometry(g) = s {
            for s in &mut g.body {
                if let Stmt::Node(n) = s
                    && n.name == name
                {
                    return n;
                }
            }
        }
    }
    panic!("no node {name}")
}

#[test]
fn only_changed_statements_are_reformatted() {
    let mut m = read(SAMPLE.as_bytes()).unwrap();
    let n = node_mut(&mut m, "mesh");
    for s in &mut n.body {
        if let Stmt::Prop(p) = s
            && p.key == "position"
        {
            p.value = Value::Vec3([4.0, 5.5, -6.0]);
        }
    }
    n.body
        .push(Stmt::Prop(Property::new("shadow", Value::Flag(false))));
    let out = String::from_utf8(write(&m)).unwrap();
    let expected = SAMPLE
        .replace("  position 1.0 2.0 3.0\r\n", "  position 4.0 5.5 -6.0\r\n")
        .replacen("    0 0 0  1  0 0 0  4\r\nendnode", "XX", 0)
        .replacen(
            "    0 1 2  1  0 0 0  4\r\nendnode\r\nnode aabb",
            "    0 1 2  1  0 0 0  4\r\n  shadow 0\r\nendnode\r\nnode aabb",
            1,
        );
    assert_eq!(out, expected);
    // The comment on the untouched `bitmap` line survives.
    assert!(out.contains("  bitmap stone   # a comment\r\n"));
    assert_eq!(read(out.as_bytes()).unwrap(), m);
}

#[test]
fn changed_list_is_reformatted() {
    let mut m = read(SAMPLE.as_bytes()).unwrap();
    let n = node_mut(&mut m, "mesh");
    for s in &mut n.body {
        if let Stmt::List(l) = s
            && l.key == "verts"
        {
            l.rows.push(&[2.0, 2.0, 0.0]);
            l.count = Some(4);
        }
    }
    let out = String::from_utf8(write(&m)).unwrap();
    assert!(out.contains("  verts 4\r\n    0 0 0\r\n    1 0 0\r\n    0 1 -0.000000119209\r\n    2 2 0\r\n  faces 1\r\n"), "{out}");
    assert_eq!(read(out.as_bytes()).unwrap(), m);
}

#[test]
fn irregular_files_read_with_findings() {
    let text = concat!(
        "#MAXDOOR ASCII\n",
        "node emmiter fx\n",
        "  parent NULL\n",
        "  render Normal\n",
        "  center undefined\n",
        "  detonate\n",
        "    endlist\n",
        "node trimesh wg\n",
        "  parent x_pwk\n",
        "  verts 1\n",
        "    0 0 0\n",
        "  5 5 5\n",
        "  multimaterial 2\n",
        "    Walkmesh - Dirt\n",
        "    NULL\n",
        "endnode\n",
    );
    let (m, f) = read_with_findings(text.as_bytes()).unwrap();
    let codes: Vec<_> = f
        .iter()
        .map(|x| (x.code, x.place.line, x.place.column))
        .collect();
    assert_eq!(
        codes,
        vec![
            ("mdl-misspelled-keyword", Some(2), Some(6)),
            ("mdl-unexpected-value", Some(5), Some(10)),
            ("mdl-garbage-line", Some(7), Some(5)),
            ("mdl-missing-end", Some(8), Some(1)),
        ]
    );
    let nodes: Vec<_> = m.nodes().collect();
    assert_eq!(nodes.len(), 2);
    assert_eq!(nodes[0].kind, NodeKind::Emitter);
    assert_eq!(
        nodes[0].prop("render").unwrap().value,
        Value::Name("Normal".into())
    );
    assert_eq!(nodes[0].prop("detonate").unwrap().value, Value::None);
    // `5 5 5` right after the verts rows is one more vertex row: the count disagrees.
    assert_eq!(nodes[1].vertex_count(), 2);
    let mm = nodes[1].list("multimaterial").unwrap();
    assert_eq!(
        mm.rows,
        Rows::Words(vec![
            vec!["Walkmesh".into(), "-".into(), "Dirt".into()],
            vec!["NULL".into()]
        ])
    );
    assert_eq!(write(&m), text.as_bytes());
    let c = write_canonical(&m);
    assert_eq!(read(c.as_bytes()).unwrap(), m);
    // No geometry block: parents are not checked (the root lives in the companion MDL).
    let v: Vec<_> = validate(&m).iter().map(|f| f.code).collect();
    assert_eq!(v, vec!["mdl-count-mismatch"]);
}

#[test]
fn validate_reports_each_code() {
    let text = concat!(
        "newmodel m\n",
        "beginmodelgeom m\n",
        "node dummy m\n  parent NULL\nendnode\n",
        "node trimesh a\n  parent nowhere\n  verts 2\n    0 0 0\n    1 0 0\n  tverts 1\n    0 0 0\n  faces 1\n    0 1 5  1  0 0 3  1\nendnode\n",
        "node skin a\n  parent m\n  weights 1\n    ghost 1.0\nendnode\n",
        "node trimesh b\n  parent m\n  verts 1\n    0 0\nendnode\n",
        "endmodelgeom m\n",
        "newanim go m\n  length 1.0\n  event 2.0 hit\n  node dummy zz\n    parent m\n    positionkey 1\n      1.5 0 0 0\n  endnode\ndoneanim go m\n",
        "donemodel m\n",
    );
    let m = read(text.as_bytes()).unwrap();
    let f = validate(&m);
    let mut codes: Vec<_> = f.iter().map(|x| x.code).collect();
    codes.sort();
    assert_eq!(
        codes,
        vec![
            "mdl-anim-unknown-node",
            "mdl-duplicate-node",
            "mdl-face-index-out-of-range",
            "mdl-face-index-out-of-range",
            "mdl-key-beyond-length",
            "mdl-key-beyond-length",
            "mdl-short-row",
            "mdl-unknown-parent",
            "mdl-weight-unknown-node",
        ],
        "{f:#?}"
    );
    let dup = f.iter().find(|x| x.code == "mdl-duplicate-node").unwrap();
    assert_eq!(dup.place.line, Some(16));
}

#[test]
fn rejects_binary_only() {
    assert!(read(&[0, 0, 0, 0, 1, 2]).is_err());
    // A NUL byte ends the text (it was an error before the text layer kept tails).
    let m = read(b"newmodel a\n\0").unwrap();
    assert_eq!(write(&m), b"newmodel a\n\0");
    // No statement at all is no model.
    let e = read(b"").unwrap_err();
    assert_eq!(
        e.location(),
        crate::Location::LineCol { line: 1, column: 1 }
    );
}

#[test]
fn no_trailing_newline_then_new_statement() {
    let mut m = read(b"newmodel a").unwrap();
    m.stmts.push(Stmt::Prop(Property::new(
        "donemodel",
        Value::Name("a".into()),
    )));
    assert_eq!(write(&m), b"newmodel a\ndonemodel a\n");
}

fn line_strategy() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("node".to_string()),
        Just("endnode".to_string()),
        Just("trimesh".to_string()),
        Just("verts".to_string()),
        Just("faces".to_string()),
        Just("weights".to_string()),
        Just("aabb".to_string()),
        Just("positionkey".to_string()),
        Just("endlist".to_string()),
        Just("newanim".to_string()),
        Just("doneanim".to_string()),
        Just("beginmodelgeom".to_string()),
        Just("endmodelgeom".to_string()),
        Just("donemodel".to_string()),
        Just("position".to_string()),
        Just("render".to_string()),
        Just("event".to_string()),
        Just("#".to_string()),
        "[a-z]{1,6}",
        "-?[0-9]{1,3}(\\.[0-9]{0,4})?(e-?[0-9])?",
    ];
    (
        prop::collection::vec(word, 0..6),
        prop_oneof![Just(" "), Just("\t"), Just("  ")],
        prop_oneof![Just("\n"), Just("\r\n"), Just("\r")],
    )
        .prop_map(|(w, sep, eol)| format!("{}{eol}", w.join(sep)))
}

proptest! {
    #[test]
    fn arbitrary_text_round_trips(
        lines in prop::collection::vec(line_strategy(), 0..40),
        unterminated in proptest::bool::ANY,
    ) {
        // A model starts with `newmodel` (or `node`): anything else is no MDL ASCII.
        let mut text = format!("newmodel m\n{}", lines.concat());
        if unterminated {
            let end = text.trim_end_matches(['\r', '\n']).len();
            text.truncate(end);
        }
        let m = read(text.as_bytes()).unwrap();
        prop_assert_eq!(write(&m), text.as_bytes());
        let c = write_canonical(&m);
        let again = read(c.as_bytes()).unwrap();
        prop_assert!(again == m, "canonical:\n{}\nfrom:\n{}", c, text);
        let _ = validate(&m);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(
        prop_oneof![any::<u8>(), Just(b'\r'), Just(b'\n'), Just(0u8), Just(b' ')], 0..300)) {
        if let Ok(m) = read(&bytes) {
            prop_assert_eq!(write(&m), bytes);
            let _ = validate(&m);
            let _ = write_canonical(&m);
            let c = write_canonical_bytes(&m);
            prop_assert!(read(&c).unwrap() == m, "canonical {:?}", c);
        }
    }
}

// --- The bytes of real files: NUL tails, byte-order marks, CR and mixed line ends, CP-1252. ---
// Each file reads, writes back byte for byte, and gets warnings only.

/// A finding's code, line and column.
type Code = (&'static str, Option<u32>, Option<u32>);

/// Reads `data`, checks the byte-exact round trip, that no finding is an error and that the
/// canonical text reads back equal; returns the model and the reader's codes with lines.
fn odd(data: &[u8]) -> (Model, Vec<Code>) {
    let (m, f) = read_with_findings(data).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(write(&m), data);
    let v = validate(&m);
    assert!(
        f.iter()
            .chain(&v)
            .all(|f| f.severity == crate::Severity::Warning),
        "{f:#?} {v:#?}"
    );
    let c = write_canonical_bytes(&m);
    assert_eq!(read(&c).unwrap(), m);
    let codes = f
        .iter()
        .map(|f| (f.code, f.place.line, f.place.column))
        .collect();
    (m, codes)
}

#[test]
fn nul_after_donemodel_is_kept_not_read() {
    let mut data = SAMPLE.as_bytes().to_vec();
    data.push(0);
    let (m, codes) = odd(&data);
    assert_eq!(m.nodes().count(), 3);
    assert_eq!(codes, [("mdl-nul-tail", Some(51), Some(1))]);
    assert!(matches!(
        m.stmts.last(),
        Some(Stmt::Trivia(Trivia {
            kind: TriviaKind::Tail,
            ..
        }))
    ));
    // The terminator right after `donemodel`, then padding: the same.
    let data = b"newmodel a\ndonemodel a\0\0\0\0";
    let (m, codes) = odd(data);
    assert_eq!(m.name(), Some("a"));
    assert_eq!(codes, [("mdl-nul-tail", Some(2), Some(12))]);
    // Edits keep the tail.
    let mut m = m;
    m.stmts.insert(
        1,
        Stmt::Prop(Property::new("classification", Value::Name("tile".into()))),
    );
    assert_eq!(
        write(&m),
        b"newmodel a\nclassification tile\ndonemodel a\0\0\0\0"
    );
}

#[test]
fn text_after_donemodel_is_kept_not_read() {
    let data = b"newmodel a\r\nbeginmodelgeom a\r\nendmodelgeom a\r\ndonemodel a\r\n\r\nnode dummy stray\r\nendnode\r\n";
    let (m, codes) = odd(data);
    assert_eq!(m.nodes().count(), 0, "the model ends at donemodel");
    assert_eq!(codes, [("mdl-content-after-donemodel", Some(5), Some(1))]);
    // Blank lines only (as several published models end), and a NUL after them.
    let data = b"newmodel a\ndonemodel a\n\t\n \n\0";
    let (_, f) = read_with_findings(data).unwrap();
    assert!(f[0].message.contains("2 blank line(s)"), "{}", f[0].message);
    let (_, codes) = odd(data);
    assert_eq!(
        codes,
        [
            ("mdl-content-after-donemodel", Some(3), Some(1)),
            ("mdl-nul-tail", Some(5), Some(1)),
        ]
    );
}

#[test]
fn byte_order_mark_is_not_part_of_the_first_line() {
    let mut data = b"\xEF\xBB\xBF".to_vec();
    data.extend_from_slice(SAMPLE.as_bytes());
    let (m, codes) = odd(&data);
    assert_eq!(m.name(), Some("box"));
    assert_eq!(codes, [("mdl-bom", Some(1), Some(1))]);
    // The comment on the first line is still a comment; a new statement keeps the mark first.
    assert!(matches!(
        &m.stmts[1],
        Stmt::Trivia(Trivia {
            kind: TriviaKind::Comment,
            ..
        })
    ));
    let (mut m, _) = odd(b"\xEF\xBB\xBFnewmodel a");
    m.stmts[1] = Stmt::Prop(Property::new("newmodel", Value::Name("b".into())));
    assert_eq!(write(&m), b"\xEF\xBB\xBFnewmodel b\n");
}

#[test]
fn cr_only_line_ends_are_line_ends() {
    let data = SAMPLE.replace("\r\n", "\r");
    let (m, codes) = odd(data.as_bytes());
    assert_eq!(m.nodes().count(), 3);
    assert_eq!(m.eol, Eol::Cr);
    assert_eq!(codes, [("mdl-cr-line-endings", Some(1), Some(1))]);
    // Lines of validation findings count CR line ends.
    let bad = "newmodel a\rbeginmodelgeom a\rnode dummy a\r  parent nowhere\rendnode\rendmodelgeom a\rdonemodel a\r";
    let f = validate(&read(bad.as_bytes()).unwrap());
    assert_eq!(f[0].code, "mdl-unknown-parent");
    assert_eq!(f[0].place.line, Some(4));
    // A new statement takes the file's line end.
    let mut m = m;
    node_mut(&mut m, "box")
        .body
        .push(Stmt::Prop(Property::new("scale", Value::Float(2.0))));
    let out = write(&m);
    assert!(!out.contains(&b'\n'));
    assert!(out.windows(12).any(|w| w == b"\r  scale 2.0"), "{out:?}");
}

#[test]
fn mixed_line_ends_with_cr() {
    let data = b"newmodel a\r\nbeginmodelgeom a\nnode dummy a\r  parent NULL\r\nendnode\nendmodelgeom a\ndonemodel a\n";
    let (m, codes) = odd(data);
    assert_eq!(m.nodes().count(), 1);
    assert_eq!(
        codes,
        [
            ("mdl-mixed-line-endings", Some(2), Some(1)),
            ("mdl-cr-line-endings", Some(3), Some(1)),
        ]
    );
}

#[test]
fn cp1252_names_compare_on_ascii_letters_and_write_back() {
    // Node `caf\xe9`; a child names it `CAF\xe9` (ASCII letters fold: found), another names
    // `caf\xe8` (a different byte: not found). A `\x80` in a comment.
    let data = b"newmodel m\nbeginmodelgeom m\nnode dummy caf\xe9 # \x80\n  parent NULL\nendnode\nnode dummy a\n  parent CAF\xe9\nendnode\nnode dummy b\n  parent caf\xe8\nendnode\nendmodelgeom m\ndonemodel m\n";
    let (m, f) = read_with_findings(data).unwrap();
    assert_eq!(write(&m), data);
    assert_eq!(
        f.iter()
            .map(|f| (f.code, f.place.line, f.place.column))
            .collect::<Vec<_>>(),
        [("mdl-non-ascii", Some(3), Some(15))]
    );
    let names: Vec<_> = m.nodes().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["caf\u{e9}", "a", "b"]);
    let v = validate(&m);
    let got: Vec<_> = v.iter().map(|f| (f.code, f.place.line)).collect();
    assert_eq!(got, [("mdl-unknown-parent", Some(10))]);
    // A renamed node is written with the byte it was given.
    let mut m = m;
    if let Some(Stmt::Geometry(g)) = m.stmts.get_mut(1)
        && let Some(Stmt::Node(n)) = g.body.get_mut(2)
    {
        n.name = "\u{e8}t\u{e9}".into();
    }
    let out = write(&m);
    assert!(
        out.windows(16).any(|w| w == b"node dummy \xe8t\xe9\n "),
        "{out:?}"
    );
    assert_eq!(
        write_canonical_bytes(&m)
            .iter()
            .filter(|&&b| b == 0xe9)
            .count(),
        3
    );
}

/// Text that is no model is an error at a line and column: no statement, a first statement
/// that starts no model, a key that is no keyword, a control character. Windows-1252 bytes in
/// a comment, a name or a key still read.
#[test]
fn what_is_no_mdl_ascii_is_an_error_with_a_place() {
    let at = |text: &[u8]| match read(text).unwrap_err().location() {
        crate::Location::LineCol { line, column } => (line, column),
        other => panic!("{other:?}"),
    };
    assert_eq!(at(b"hello"), (1, 1));
    assert_eq!(at(b"# only a comment\n\n"), (3, 1));
    assert_eq!(at(b"\n  position 1 2 3\nnode dummy a\nendnode\n"), (2, 3));
    assert_eq!(at(b"newmodel a\nbeginmodelgeom a\n  a-b 1\n"), (3, 3));
    assert_eq!(at(b"newmodel a\n  bitmap x\x01y\n"), (2, 11));
    read(b"# caf\xe9\nnewmodel caf\xe9\nbeginmodelgeom caf\xe9\nnode dummy caf\xe9\n  caf\xe9key 1\nendnode\nendmodelgeom a\ndonemodel a\n").unwrap();
}
