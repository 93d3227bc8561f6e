//! The lossless writer and the canonical writer.

use std::io::Write as _;

use super::model::*;
use super::read::{Ctx, parse_fragment};
use crate::text_lines::{BOM, decode};

/// Writes a model back to text. A statement whose typed content still equals what its original
/// text says is re-emitted byte for byte (so an unmodified file comes back identical: line ends,
/// tabs, comments, a byte-order mark, bytes above 0x7F, the tail after `donemodel` or a NUL
/// byte); changed or new statements are formatted like [`write_canonical_bytes`] does, with the
/// file's line terminator. Text is written one byte per character up to U+00FF (as it was read);
/// a character above U+00FF (only possible in a model edited in code) is written as UTF-8.
pub fn write(model: &Model) -> Vec<u8> {
    let mut w = Writer {
        src: &model.source,
        out: Vec::with_capacity(model.source.len() + 64),
        eol: match model.eol {
            Eol::None => b"\n",
            e => e.as_str().as_bytes(),
        },
        canonical: false,
    };
    w.stmts(&model.stmts, 0);
    w.out
}

/// Writes normalised text: no comments, blank lines, byte-order mark or tail, one statement per
/// line, two-space indentation, `\n` terminators, numbers in their shortest exact decimal form.
/// Reading it back gives a model equal (`==`) to `model`. Characters are written as
/// [`write`] does, so Windows-1252 names keep their bytes.
pub fn write_canonical_bytes(model: &Model) -> Vec<u8> {
    let mut w = Writer {
        src: &model.source,
        out: Vec::with_capacity(model.source.len()),
        eol: b"\n",
        canonical: true,
    };
    w.stmts(&model.stmts, 0);
    w.out
}

/// [`write_canonical_bytes`] as a string. Bytes above 0x7F (names or values with Windows-1252
/// characters) are not UTF-8 and become U+FFFD here: use [`write_canonical_bytes`] to keep
/// them.
pub fn write_canonical(model: &Model) -> String {
    String::from_utf8_lossy(&write_canonical_bytes(model)).into_owned()
}

struct Writer<'m> {
    src: &'m [u8],
    out: Vec<u8>,
    eol: &'static [u8],
    canonical: bool,
}

impl Writer<'_> {
    fn raw_text(&self, raw: &Raw) -> Option<&[u8]> {
        if self.canonical {
            return None;
        }
        let r = raw.range()?;
        self.src.get(r)
    }

    fn emit_raw(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
    }

    /// Appends text, one byte per character up to U+00FF (as the reader decoded it), UTF-8
    /// above.
    fn text(&mut self, s: &str) {
        if s.is_ascii() {
            self.out.extend_from_slice(s.as_bytes());
            return;
        }
        for c in s.chars() {
            match u8::try_from(u32::from(c)) {
                Ok(b) => self.out.push(b),
                Err(_) => {
                    let mut buf = [0u8; 4];
                    self.out
                        .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
    }

    /// Starts a formatted line (after a raw chunk that lacked a final terminator, adds one).
    fn begin_line(&mut self, depth: usize) {
        if let Some(&last) = self.out.last()
            && !matches!(last, b'\n' | b'\r')
            && self.out != BOM
        {
            let eol = self.eol;
            self.out.extend_from_slice(eol);
        }
        for _ in 0..depth {
            self.out.extend_from_slice(b"  ");
        }
    }

    fn end_line(&mut self) {
        let eol = self.eol;
        self.out.extend_from_slice(eol);
    }

    fn stmts(&mut self, stmts: &[Stmt], depth: usize) {
        for s in stmts {
            match s {
                Stmt::Trivia(t) => {
                    // Canonical text drops blank lines, comments, the byte-order mark and the
                    // tail but keeps garbage lines: dropping one could let the next line join a
                    // list on re-reading.
                    if self.canonical && t.kind != TriviaKind::Garbage {
                        continue;
                    }
                    match t.kind {
                        TriviaKind::ByteOrderMark => self.emit_raw(BOM),
                        TriviaKind::Tail => match self.raw_text(&t.raw) {
                            Some(raw) if decode(raw) == t.text => {
                                let raw = raw.to_vec();
                                self.emit_raw(&raw);
                            }
                            _ => self.text(&t.text),
                        },
                        _ => {
                            if let Some(raw) = self.raw_text(&t.raw)
                                && decode(strip_eol(raw)) == t.text
                            {
                                let raw = raw.to_vec();
                                self.emit_raw(&raw);
                                continue;
                            }
                            self.begin_line(0);
                            self.text(&t.text);
                            self.end_line();
                        }
                    }
                }
                Stmt::Prop(p) => {
                    if let Some(raw) = self.raw_text(&p.raw)
                        && first_stmt(raw, Ctx::Top)
                            .is_some_and(|s| matches!(&s, Stmt::Prop(x) if x == p))
                    {
                        let raw = raw.to_vec();
                        self.emit_raw(&raw);
                        continue;
                    }
                    self.begin_line(depth);
                    self.prop(p);
                    self.end_line();
                }
                Stmt::List(l) => {
                    if let Some(raw) = self.raw_text(&l.raw)
                        && first_stmt(raw, Ctx::Top)
                            .is_some_and(|s| matches!(&s, Stmt::List(x) if x == l))
                    {
                        let raw = raw.to_vec();
                        self.emit_raw(&raw);
                        continue;
                    }
                    self.list(l, depth);
                }
                Stmt::Node(n) => self.node(n, depth),
                Stmt::Geometry(g) => {
                    let same = self.raw_text(&g.head).is_some_and(|raw| {
                        matches!(first_stmt(raw, Ctx::Top), Some(Stmt::Geometry(x)) if x.name == g.name)
                    });
                    if same {
                        let raw = self.raw_text(&g.head).unwrap_or_default().to_vec();
                        self.emit_raw(&raw);
                    } else {
                        self.begin_line(0);
                        self.words(&["beginmodelgeom", &g.name]);
                        self.end_line();
                    }
                    self.stmts(&g.body, 0);
                    self.closing(&g.head, &g.end, &["endmodelgeom", &g.name]);
                }
                Stmt::Animation(a) => {
                    let same = self.raw_text(&a.head).is_some_and(|raw| {
                        matches!(first_stmt(raw, Ctx::Top),
                            Some(Stmt::Animation(x)) if x.name == a.name && x.model == a.model)
                    });
                    if same {
                        let raw = self.raw_text(&a.head).unwrap_or_default().to_vec();
                        self.emit_raw(&raw);
                    } else {
                        self.begin_line(0);
                        self.words(&["newanim", &a.name, &a.model]);
                        self.end_line();
                    }
                    self.stmts(&a.body, 0);
                    self.closing(&a.head, &a.end, &["doneanim", &a.name, &a.model]);
                }
            }
        }
    }

    /// Emits a block's closing line: the original one, nothing if the original block had none,
    /// or a formatted one for a new block (and always in canonical output).
    fn closing(&mut self, head: &Raw, end: &Raw, words: &[&str]) {
        if let Some(raw) = self.raw_text(end) {
            let raw = raw.to_vec();
            self.emit_raw(&raw);
        } else if self.canonical || head.range().is_none() {
            self.begin_line(0);
            self.words(words);
            self.end_line();
        }
    }

    fn words(&mut self, words: &[&str]) {
        let mut first = true;
        for w in words {
            if w.is_empty() {
                continue;
            }
            if !first {
                self.out.push(b' ');
            }
            first = false;
            self.text(w);
        }
    }

    fn node(&mut self, n: &Node, depth: usize) {
        let same = self.raw_text(&n.head).is_some_and(|raw| {
            matches!(first_stmt(raw, Ctx::Geom),
                Some(Stmt::Node(x)) if x.kind == n.kind && x.name == n.name)
        });
        if same {
            let raw = self.raw_text(&n.head).unwrap_or_default().to_vec();
            self.emit_raw(&raw);
        } else {
            self.begin_line(depth);
            self.words(&["node", n.kind.name(), &n.name]);
            self.end_line();
        }
        self.stmts(&n.body, depth + 1);
        if let Some(raw) = self.raw_text(&n.end) {
            let raw = raw.to_vec();
            self.emit_raw(&raw);
        } else if self.canonical || n.head.range().is_none() {
            self.begin_line(depth);
            self.out.extend_from_slice(b"endnode");
            self.end_line();
        }
    }

    fn prop(&mut self, p: &Property) {
        self.text(&p.key);
        match &p.value {
            Value::None => {}
            Value::Flag(b) => self.out.extend_from_slice(if *b { b" 1" } else { b" 0" }),
            Value::Int(i) => {
                let _ = write!(self.out, " {i}");
            }
            Value::Float(v) => self.nums(&[*v]),
            Value::Vec3(v) | Value::Color(v) => self.nums(v),
            Value::AxisAngle(v) => self.nums(v),
            Value::Event(t, name) => {
                self.nums(&[*t]);
                self.out.push(b' ');
                self.text(name);
            }
            Value::Name(s) => {
                self.out.push(b' ');
                self.text(s);
            }
            Value::Numbers(v) => self.nums(v),
            Value::Words(w) => {
                for s in w {
                    self.out.push(b' ');
                    self.text(s);
                }
            }
        }
    }

    fn nums(&mut self, v: &[f64]) {
        for x in v {
            self.out.push(b' ');
            fmt_f64_float(&mut self.out, *x);
        }
    }

    fn row_nums(&mut self, v: &[f64]) {
        for x in v {
            self.out.push(b' ');
            fmt_f64(&mut self.out, *x);
        }
    }

    fn list(&mut self, l: &ListProp, depth: usize) {
        self.begin_line(depth);
        self.text(&l.key);
        if let Some(c) = l.count {
            let _ = write!(self.out, " {c}");
        }
        let mut skip_first = false;
        if l.inline_first_row
            && l.count.is_none()
            && let Some(r) = l.rows.row(0)
        {
            self.row_nums(r);
            skip_first = true;
        }
        self.end_line();
        match &l.rows {
            Rows::Numbers { .. } => {
                for (i, r) in l.rows.iter().enumerate() {
                    if i == 0 && skip_first {
                        continue;
                    }
                    self.begin_line(depth + 1);
                    let mut first = true;
                    for x in r {
                        if !first {
                            self.out.push(b' ');
                        }
                        first = false;
                        fmt_f64(&mut self.out, *x);
                    }
                    self.end_line();
                }
            }
            Rows::Words(rows) => {
                for r in rows {
                    self.begin_line(depth + 1);
                    let words: Vec<&str> = r.iter().map(String::as_str).collect();
                    self.words(&words);
                    self.end_line();
                }
            }
        }
        if l.endlist {
            self.begin_line(depth);
            self.out.extend_from_slice(b"endlist");
            self.end_line();
        }
    }
}

fn first_stmt(raw: &[u8], ctx: Ctx) -> Option<Stmt> {
    parse_fragment(raw, ctx)
        .into_iter()
        .find(|s| !matches!(s, Stmt::Trivia(_)))
}

/// A line without its terminator (LF, CRLF or CR).
fn strip_eol(raw: &[u8]) -> &[u8] {
    &raw[..crate::text_lines::line_at(raw, 0).end]
}

/// Shortest decimal text that reads back to the same `f64`; integral values without a
/// fraction (`3`, `-0`), as list rows (face indices) want them.
pub(crate) fn fmt_f64(out: &mut Vec<u8>, v: f64) {
    if v.is_infinite() {
        // A literal beyond the f64 range read as infinity; write one that reads back so.
        out.extend_from_slice(if v > 0.0 { b"1e999" } else { b"-1e999" });
        return;
    }
    let _ = write!(out, "{v}");
}

/// Like [`fmt_f64`] but integral values get a `.0` (`1.0`), as property values are written.
pub(crate) fn fmt_f64_float(out: &mut Vec<u8>, v: f64) {
    if v.is_infinite() {
        return fmt_f64(out, v);
    }
    let start = out.len();
    let _ = write!(out, "{v}");
    if v.is_finite() && !out[start..].contains(&b'.') {
        out.extend_from_slice(b".0");
    }
}
