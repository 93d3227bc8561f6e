//! Issue "every real file": the bytes published text files carry — a NUL after the last line
//! (a C-string terminator), NUL padding, a UTF-8 byte-order mark, CR-only or mixed line ends,
//! Windows-1252 bytes in names and comments — are warnings, never errors, and every such file
//! converts back to the same bytes. Small hand-made fixtures (no corpus copies): the ASCII
//! walkmesh dialects through the library, then every text format through the `areakit` binary.

use std::path::{Path, PathBuf};
use std::process::Command;

use areakit_app::ascii_walkmesh::{self, AsciiWalkmesh, Dialect};
use areakit_formats::mdl_ascii;

/// A quad of two faces in each ASCII walkmesh dialect: `(dialect, text)` with LF line ends.
fn walkmeshes() -> Vec<(Dialect, String)> {
    let verts = "  verts 4\n    0 0 0\n    1 0 0\n    1 1 0\n    0 1 0\n";
    let head = "  parent NULL\n  position 0 0 0\n  orientation 0 0 0 0\n";
    vec![
        (
            Dialect::KotorMax,
            format!(
                "# KOTORMax wokmesh\nnode trimesh wm\n{head}{verts}  faces 2\n    0 1 2 1 0 0 0 4\n    0 2 3 1 0 0 0 4\nendnode\n"
            ),
        ),
        (
            Dialect::KAurora,
            format!(
                "node aabb wm\n{head}{verts}  faces 2\n    0 1 2 -1 -1 5 -1 4\n    0 2 3 2 -1 -1 -1 4\n  aabb 0 0 0 1 1 0 -1\n    0 0 0 1 1 0 0\n    0 0 0 1 1 0 1\nendnode\n"
            ),
        ),
        (
            Dialect::NwnPlaceable,
            format!(
                "node trimesh wm\n{head}{verts}  faces 2\n    0 1 2 1 0 0 0 4\n    0 2 3 1 0 0 0 4\nendnode\n"
            ),
        ),
        (
            Dialect::MdlAabb,
            format!(
                "newmodel r\nbeginmodelgeom r\nnode dummy r\n  parent NULL\nendnode\nnode aabb wm\n  parent r\n{verts}  faces 2\n    0 1 2 1 0 0 0 4\n    0 2 3 1 0 0 0 4\n  aabb 0 0 0 1 1 0 -1\nendnode\nendmodelgeom r\ndonemodel r\n"
            ),
        ),
    ]
}

/// The variants of a clean text: NUL after the last line, NUL padding with text after it, a
/// byte-order mark, CR-only line ends, CRLF with one LF and one CR line, and a Windows-1252
/// comment. Each keeps the walkmesh node name `wm`.
fn variants(text: &str) -> Vec<(&'static str, Vec<u8>)> {
    let mut mixed = text.replacen('\n', "\r\n", 3).into_bytes();
    if let Some(p) = mixed.iter().rposition(|&b| b == b'\n') {
        mixed[p] = b'\r';
    }
    vec![
        ("nul", [text.as_bytes(), b"\0"].concat()),
        (
            "nul-padding",
            [text.as_bytes(), b"\0\0\0\0junk\n\0"].concat(),
        ),
        ("bom", [b"\xEF\xBB\xBF", text.as_bytes()].concat()),
        ("cr", text.replace('\n', "\r").into_bytes()),
        ("mixed", mixed),
        ("cp1252", [b"# \x80 caf\xe9\n", text.as_bytes()].concat()),
    ]
}

fn same_geometry(a: &AsciiWalkmesh, b: &AsciiWalkmesh) -> bool {
    a.dialect == b.dialect
        && a.vertices == b.vertices
        && a.faces == b.faces
        && a.adjacency == b.adjacency
        && a.room_links == b.room_links
}

#[test]
fn ascii_walkmesh_dialects_read_every_variant() {
    let mut covered = 0;
    for (dialect, text) in walkmeshes() {
        let base = ascii_walkmesh::read_walkmesh(text.as_bytes()).unwrap();
        assert_eq!(base.dialect, dialect);
        assert_eq!(base.faces.len(), 2);
        for (what, data) in variants(&text) {
            let (model, findings) = mdl_ascii::read_with_findings(&data)
                .unwrap_or_else(|e| panic!("{dialect:?} {what}: {e}"));
            assert_eq!(mdl_ascii::write(&model), data, "{dialect:?} {what}");
            assert!(
                findings
                    .iter()
                    .all(|f| f.severity == areakit_formats::Severity::Warning),
                "{dialect:?} {what}: {findings:#?}"
            );
            assert!(!findings.is_empty(), "{dialect:?} {what}: no warning");
            let w = ascii_walkmesh::walkmesh_from_model(&model).unwrap();
            assert!(same_geometry(&w, &base), "{dialect:?} {what}: {w:#?}");
            assert_eq!(w.name, "wm");
            let out = PathBuf::from("x.wok");
            let compiled = areakit_app::ascii_walkmesh::compile_walkmesh(&model, &out).unwrap();
            assert_eq!(compiled.faces.len(), 2, "{dialect:?} {what}");
            covered += 1;
        }
    }
    assert_eq!(covered, 24);
}

#[test]
fn cp1252_walkmesh_node_name_is_kept() {
    let (_, text) = &walkmeshes()[0];
    let data = text.replace(" wm\n", " w\u{e9}\n");
    let data: Vec<u8> = data.chars().map(|c| c as u32 as u8).collect();
    let w = ascii_walkmesh::read_walkmesh(&data).unwrap();
    assert_eq!(w.name, "w\u{e9}");
    let m = mdl_ascii::read(&data).unwrap();
    assert_eq!(mdl_ascii::write(&m), data);
}

// --- The binary ---------------------------------------------------------------------------

fn areakit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_areakit"))
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let p = std::env::temp_dir().join(format!("areakit-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `areakit check FILE --json`: exit 0, and the codes of the findings (all warnings).
fn check(path: &Path) -> Vec<String> {
    let out = areakit()
        .arg("check")
        .arg(path)
        .arg("--json")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(out.status.code(), Some(0), "{}: {v:#}", path.display());
    assert_eq!(v["errors"], 0, "{v:#}");
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            assert_eq!(f["severity"], "warning", "{f}");
            f["code"].as_str().unwrap().to_string()
        })
        .collect()
}

/// `areakit convert FILE OUT` writes the same bytes.
fn convert_is_identity(path: &Path, out: &Path) {
    let st = areakit()
        .arg("convert")
        .arg(path)
        .arg(out)
        .output()
        .unwrap();
    assert_eq!(
        st.status.code(),
        Some(0),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&st.stderr)
    );
    assert!(
        std::fs::read(path).unwrap() == std::fs::read(out).unwrap(),
        "{}: convert changed the bytes",
        path.display()
    );
    std::fs::remove_file(out).unwrap();
}

#[test]
fn cli_checks_with_warnings_and_converts_byte_exact() {
    let dir = TempDir::new("text-oddities");
    let lyt = "#MAXLAYOUT ASCII\r\nbeginlayout\r\n   roomcount 2\r\n      room_a 0.0 0.0 0.0\r\n      caf\u{e9} 10.0 0.0 0.0\r\n   doorhookcount 0\r\ndonelayout\r\n";
    let vis = "room_a 1\r\n  CAF\u{e9}\r\ncaf\u{e9} 1\r\n  room_a\r\n";
    let mdl = "# \u{80}\nnewmodel m\nbeginmodelgeom m\nnode dummy m\n  parent NULL\nendnode\nendmodelgeom m\ndonemodel m\n";
    let latin1 = |s: &str| -> Vec<u8> { s.chars().map(|c| c as u32 as u8).collect() };
    let mut cases: Vec<(String, Vec<u8>, &[&str])> = Vec::new();
    for (ext, text) in [("lyt", lyt), ("vis", vis), ("mdl", mdl)] {
        let bytes = latin1(text);
        let cr = latin1(&text.replace("\r\n", "\r").replace('\n', "\r"));
        cases.push((
            format!("nul.{ext}"),
            [&bytes[..], b"\0"].concat(),
            &["nul-tail"],
        ));
        cases.push((
            format!("bom.{ext}"),
            [b"\xEF\xBB\xBF", &bytes[..]].concat(),
            &["bom"],
        ));
        cases.push((format!("cr.{ext}"), cr, &["cr-line-endings"]));
        cases.push((format!("cp1252.{ext}"), bytes, &["non-ascii"]));
    }
    // ASCII walkmeshes under `.wok` (NWN keeps them as text): a NUL after the last line.
    for (i, (_, text)) in walkmeshes().into_iter().enumerate() {
        cases.push((
            format!("w{i}.wok"),
            [text.as_bytes(), b"\0"].concat(),
            &["nul-tail"],
        ));
    }
    let mut covered = 0;
    for (name, data, expect) in &cases {
        // Each file alone in a folder: a LYT brings its area (no WOKs: one warning for that).
        let sub = dir.0.join(name.replace('.', "_"));
        std::fs::create_dir_all(&sub).unwrap();
        let path = sub.join(name);
        std::fs::write(&path, data).unwrap();
        let codes = check(&path);
        for e in *expect {
            assert!(
                codes.iter().any(|c| c.ends_with(e)),
                "{name}: no `*-{e}` in {codes:?}"
            );
        }
        let ext = name.split_once('.').unwrap().1;
        convert_is_identity(&path, &sub.join(format!("out.{ext}")));
        covered += 1;
    }
    assert_eq!(covered, 16);
}

/// A LYT and its VIS with a Windows-1252 room name spelled in another letter case, NUL tails and
/// CR-only line ends: the area check matches the names and finds nothing but warnings.
#[test]
fn cli_area_with_cp1252_names_and_nul_tails() {
    let dir = TempDir::new("text-oddities-area");
    std::fs::write(
        dir.0.join("area.lyt"),
        b"beginlayout\r   roomcount 2\r      room_a 0.0 0.0 0.0\r      caf\xe9 10.0 0.0 0.0\rdonelayout\r\0",
    )
    .unwrap();
    std::fs::write(
        dir.0.join("area.vis"),
        b"ROOM_A 1\r  CAF\xe9\rcaf\xe9 1\r  room_a\r\0\0",
    )
    .unwrap();
    let codes = check(&dir.0);
    for c in [
        "lyt-nul-tail",
        "lyt-cr-line-endings",
        "lyt-non-ascii",
        "vis-nul-tail",
        "vis-non-ascii",
    ] {
        assert!(codes.iter().any(|x| x == c), "{c} not in {codes:?}");
    }
    assert!(
        !codes
            .iter()
            .any(|c| c == "area-vis-unknown-room" || c == "area-room-not-in-vis"),
        "{codes:?}"
    );
}
