//! The MDL ASCII reader: one pass over the lines, no allocation per number row.

use super::lex::{Line, Tokens, is_blank, line_at, looks_numeric, lower, parse_f64, parse_i64};
use super::model::*;
use crate::error::{DecodeError, ErrorKind, Location};
use crate::finding::{Finding, Place};
use crate::text_lines::{self, Eol, TextCodes};

/// Reads an MDL ASCII file (also PWK/DWK/WOK ASCII walkmeshes), discarding the findings.
///
/// The reader is permissive like the game's: unknown properties are kept, irregular lines are
/// kept as [`Trivia`] and reported by [`read_with_findings`]. It fails only on input that is not
/// text (a binary MDL, which starts with four NUL bytes) or larger than 4 GiB.
pub fn read(input: &[u8]) -> Result<Model, DecodeError> {
    read_with_findings(input).map(|(m, _)| m)
}

/// The codes of the warnings about the bytes of an MDL ASCII file.
const TEXT_CODES: TextCodes = TextCodes {
    bom: "mdl-bom",
    nul_tail: "mdl-nul-tail",
    cr: "mdl-cr-line-endings",
    mixed: "mdl-mixed-line-endings",
    non_ascii: "mdl-non-ascii",
};

/// Reads an MDL ASCII file and returns the irregularities met on the way as [`Finding`]s with
/// line and column (codes in `docs/checks.md`).
///
/// The text ends at `donemodel` or at the first NUL byte (a C-string terminator some exporters
/// write): what follows is kept verbatim as a [`TriviaKind::Tail`] and reported
/// (`mdl-content-after-donemodel`, `mdl-nul-tail`). A UTF-8 byte-order mark is kept as a
/// [`TriviaKind::ByteOrderMark`]; lines may end with LF, CRLF or a lone CR; bytes above 0x7F
/// read as one character each (ISO 8859-1), so Windows-1252 names come back unchanged. All of
/// these are warnings.
pub fn read_with_findings(input: &[u8]) -> Result<(Model, Vec<Finding>), DecodeError> {
    crate::census::decoded("mdl-ascii");
    if u32::try_from(input.len()).is_err() {
        return Err(DecodeError::new(
            ErrorKind::LimitExceeded,
            Location::Input,
            "MDL ASCII input larger than 4 GiB",
        ));
    }
    if input.len() >= 4 && input[..4] == [0, 0, 0, 0] {
        return Err(DecodeError::new(
            ErrorKind::Unsupported,
            Location::Offset(0),
            "this is a binary (compiled) MDL, not MDL ASCII",
        ));
    }
    let framed = text_lines::frame(input);
    text_lines::check_text(&framed, "MDL ASCII")?;
    let (start, end) = (framed.text_start(), framed.text_end());
    let mut p = Parser::new(&input[..end], true);
    p.pos = start;
    let (mut stmts, _) = p.body(Ctx::Top);
    if let Some(e) = p.error.take() {
        return Err(e);
    }
    first_statement(&stmts, &input[..end])?;
    if framed.bom {
        stmts.insert(
            0,
            Stmt::Trivia(Trivia {
                kind: TriviaKind::ByteOrderMark,
                text: "\u{feff}".to_string(),
                raw: Raw(Some((0, start as u32))),
            }),
        );
    }
    if p.pos < end {
        // The top level stopped at `donemodel`: the rest of the text is not read.
        let rest = &input[p.pos..end];
        let count = text_lines::lines(rest).count();
        let msg = if text_lines::lines(rest).all(|l| is_blank(&rest[l.start..l.end])) {
            format!("{count} blank line(s) after `donemodel`: kept, not read")
        } else {
            format!("{count} line(s) after `donemodel`, where the model ends: kept, not read")
        };
        p.warn("mdl-content-after-donemodel", 0, || msg);
    }
    if p.pos < input.len() {
        stmts.push(Stmt::Trivia(Trivia {
            kind: TriviaKind::Tail,
            text: text(&input[p.pos..]),
            raw: Raw(Some((p.pos as u32, input.len() as u32))),
        }));
    }
    let eol = match line_at(&input[..end], start).eol {
        Eol::None => Eol::Lf,
        e => e,
    };
    // The warnings about the bytes first, then the parser's, in line order.
    let mut findings = text_lines::text_findings(&framed, &TEXT_CODES);
    findings.append(&mut p.findings);
    findings.sort_by_key(|f| f.place.line);
    Ok((
        Model {
            stmts,
            source: input.to_vec(),
            eol,
        },
        findings,
    ))
}

/// Refuses text that does not start as a model: its first statement must be `newmodel`,
/// `filedependancy` (how 338 of the 380 corpus files start), `beginmodelgeom` or `node` (a
/// walkmesh without a header), and there must be one.
fn first_statement(stmts: &[Stmt], text: &[u8]) -> Result<(), DecodeError> {
    let place = |raw: &Raw| {
        let at = raw.range().map_or(0, |r| r.start);
        let skip = text[at..]
            .iter()
            .take_while(|&&b| super::lex::is_space(b))
            .count();
        text_lines::line_col(text, at + skip)
    };
    match stmts.iter().find(|s| !matches!(s, Stmt::Trivia(_))) {
        None => Err(DecodeError::malformed_text(
            text_lines::line_col(text, text.len()).0,
            1,
            "no MDL ASCII statement: expected `newmodel` or `node`",
        )),
        Some(Stmt::Node(_) | Stmt::Geometry(_)) => Ok(()),
        Some(Stmt::Prop(p))
            if ["newmodel", "filedependancy", "filedependency"]
                .iter()
                .any(|k| p.key.eq_ignore_ascii_case(k)) =>
        {
            Ok(())
        }
        Some(s) => {
            let (key, raw) = match s {
                Stmt::Prop(p) => (p.key.as_ref(), &p.raw),
                Stmt::List(l) => (l.key.as_ref(), &l.raw),
                Stmt::Animation(a) => ("newanim", &a.head),
                _ => ("", &Raw(None)),
            };
            let (line, column) = place(raw);
            Err(DecodeError::malformed_text(
                line,
                column,
                format!(
                    "expected `newmodel`, `filedependancy`, `beginmodelgeom` or `node` to start \
                     MDL ASCII, found `{key}`"
                ),
            ))
        }
    }
}

/// Whether a token can be a keyword: a letter or `_`, then letters, digits and `_` (every
/// key of the 380 corpus files has that shape). Bytes above 0x7F count as letters (the
/// Windows-1252 and ISO 8859-1 letters the reader keeps as one character each); ASCII
/// punctuation does not.
fn keyword_shaped(tok: &[u8]) -> bool {
    let letter = |b: u8| b.is_ascii_alphabetic() || b == b'_' || b >= 0x80;
    tok.first().is_some_and(|&b| letter(b)) && tok.iter().all(|&b| letter(b) || b.is_ascii_digit())
}

/// Parses a fragment as a node body (used by the writer to compare original text with the
/// current content).
pub(crate) fn parse_fragment(text: &[u8], ctx: Ctx) -> Vec<Stmt> {
    let mut p = Parser::new(text, false);
    p.body(ctx).0
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ctx {
    Top,
    Geom,
    Anim,
    Node,
}

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    report: bool,
    findings: Vec<Finding>,
    /// The first statement that is no MDL ASCII (a key that is no keyword).
    error: Option<DecodeError>,
}

/// What a property key's value should be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Flag,
    Int,
    Float,
    Vec3,
    Color,
    Quat,
    Name,
    Event,
    /// `render`: a flag on meshes, a word (`Normal`, `Linked`, ...) on emitters.
    FlagOrName,
    Any,
}

fn kind_of(kw: &[u8]) -> Kind {
    match kw {
        b"shadow"
        | b"beaming"
        | b"rotatetexture"
        | b"inheritcolor"
        | b"ambientonly"
        | b"affectdynamic"
        | b"fadinglight"
        | b"generateflare"
        | b"isdynamic"
        | b"reattachable"
        | b"lightmapped"
        | b"tangentspace"
        | b"m_bisbackgroundgeometry"
        | b"hologram_donotdraw"
        | b"animateuv"
        | b"dirt_enabled"
        | b"lensflares"
        | b"flare"
        | b"twosidedtex"
        | b"affectedbywind"
        | b"m_istinted"
        | b"showdispl"
        | b"ignorefog"
        | b"headlink"
        | b"compress_quaternions" => Kind::Flag,
        b"tilefade" | b"transparencyhint" | b"lightpriority" | b"ndynamictype" | b"renderorder"
        | b"xgrid" | b"ygrid" | b"dirt_texture"
        | b"dirt_worldspace" | b"displtype" => Kind::Int,
        b"scale"
        | b"alpha"
        | b"radius"
        | b"multiplier"
        | b"flareradius"
        | b"verticaldisplacement"
        | b"shadowradius"
        | b"length"
        | b"transtime"
        | b"setanimationscale"
        | b"period"
        | b"tightness"
        | b"displacement"
        | b"shininess"
        | b"birthrate"
        | b"lifeexp"
        | b"mass"
        | b"velocity"
        | b"randvel"
        | b"spread"
        | b"sizestart"
        | b"sizeend"
        | b"sizestart_y"
        | b"sizeend_y"
        | b"xsize"
        | b"ysize"
        | b"alphastart"
        | b"alphaend"
        | b"fps"
        | b"bounce_co"
        | b"drag"
        | b"grav"
        | b"blurlength"
        | b"lightningdelay"
        | b"lightningradius"
        | b"lightningscale"
        | b"combinetime"
        | b"deadspace"
        | b"blastradius"
        | b"blastlength"
        | b"uvdirectionx"
        | b"uvdirectiony"
        | b"uvjitter"
        | b"uvjitterspeed"
        | b"sampleperiod"
        | b"threshold"
        // Float controllers in both compiled formats; real text writes them as integers.
        | b"framestart"
        | b"frameend" => Kind::Float,
        b"position" | b"center" | b"bmin" | b"bmax" | b"layoutposition" => Kind::Vec3,
        b"ambient" | b"diffuse" | b"specular" | b"selfillumcolor" | b"setfillumcolor"
        | b"wirecolor" | b"color" | b"colorstart" | b"colorend" | b"colormid" => Kind::Color,
        b"orientation" => Kind::Quat,
        b"parent" | b"bitmap" | b"bitmap2" | b"texture" | b"texture0" | b"texture1"
        | b"texture2" | b"newmodel" | b"classification" | b"animroot" | b"refmodel"
        | b"materialname" | b"renderhint" | b"update" | b"blend" | b"spawntype_sel" => Kind::Name,
        b"event" => Kind::Event,
        b"render" => Kind::FlagOrName,
        _ => Kind::Any,
    }
}

fn is_list_key(kw: &[u8]) -> Option<bool /* words */> {
    match kw {
        b"verts" | b"faces" | b"tverts" | b"tverts0" | b"tverts1" | b"tverts2" | b"tverts3"
        | b"texindices0" | b"texindices1" | b"texindices2" | b"texindices3" | b"colors"
        | b"normals" | b"tangents" | b"constraints" | b"aabb" | b"flarecolorshifts"
        | b"flarepositions" | b"flaresizes" | b"roomlinks" | b"animverts" | b"animtverts" => {
            Some(false)
        }
        b"weights" | b"texturenames" | b"multimaterial" => Some(true),
        _ if kw.len() > 3 && kw.ends_with(b"key") => Some(false),
        _ => None,
    }
}

fn is_structural(kw: &[u8]) -> bool {
    matches!(
        kw,
        b"node"
            | b"endnode"
            | b"endlist"
            | b"beginmodelgeom"
            | b"endmodelgeom"
            | b"newanim"
            | b"doneanim"
            | b"donemodel"
    )
}

/// The key as written: a static string when it is a common key written in its usual case.
fn key_text(tok: &[u8], kw: &[u8]) -> std::borrow::Cow<'static, str> {
    macro_rules! keys {
        ($($k:literal),* $(,)?) => {
            match kw {
                $(k if k == $k.as_bytes() => Some($k),)*
                _ => None,
            }
        };
    }
    let known: Option<&'static str> = match kw.len() {
        4..=6 => keys!(
            "parent", "render", "bitmap", "verts", "faces", "scale", "alpha", "shadow", "length",
            "event", "tverts", "radius", "color", "center", "weights", "colors", "aabb"
        ),
        7..=9 => keys!(
            "position",
            "diffuse",
            "ambient",
            "specular",
            "shininess",
            "wirecolor",
            "transtime",
            "animroot",
            "tilefade",
            "beaming",
            "normals",
            "lightmapped",
            "gizmokey",
            "centerkey",
            "alphakey",
            "scalekey",
            "colorkey",
            "radiuskey"
        ),
        _ => keys!(
            "orientation",
            "orientationkey",
            "positionkey",
            "selfillumcolor",
            "transparencyhint",
            "rotatetexture",
            "inheritcolor",
            "birthratekey",
            "alphastartkey",
            "alphaendkey"
        ),
    };
    match known {
        Some(k) if k.as_bytes() == tok => std::borrow::Cow::Borrowed(k),
        _ => std::borrow::Cow::Owned(text(tok)),
    }
}

/// Bytes as text, one character per byte (ISO 8859-1): lossless, so names with Windows-1252
/// bytes keep them and compare exactly.
fn text(b: &[u8]) -> String {
    text_lines::decode(b)
}

impl<'a> Parser<'a> {
    fn new(src: &'a [u8], report: bool) -> Self {
        Parser {
            src,
            pos: 0,
            line: 1,
            report,
            findings: Vec::new(),
            error: None,
        }
    }

    fn warn(&mut self, code: &'static str, col: usize, msg: impl FnOnce() -> String) {
        if self.report {
            self.findings.push(Finding::warning(
                code,
                Place::line_col(self.line, col as u32 + 1),
                msg(),
            ));
        }
    }

    fn advance(&mut self, l: &Line) {
        self.pos = l.next;
        self.line += 1;
    }

    fn raw(&self, start: usize) -> Raw {
        Raw(Some((start as u32, self.pos as u32)))
    }

    /// Parses statements until the context's terminator (consumed, its raw returned) or a
    /// line that closes an enclosing context (not consumed).
    fn body(&mut self, ctx: Ctx) -> (Vec<Stmt>, Raw) {
        let mut out = Vec::new();
        while self.pos < self.src.len() {
            let l = line_at(self.src, self.pos);
            let content = &self.src[l.start..l.end];
            let mut toks = Tokens::new(content);
            let Some((col, first)) = toks.next() else {
                let kind = if is_blank(content) {
                    TriviaKind::Blank
                } else {
                    TriviaKind::Comment
                };
                self.advance(&l);
                out.push(Stmt::Trivia(Trivia {
                    kind,
                    text: text(content),
                    raw: self.raw(l.start),
                }));
                continue;
            };
            let mut buf = [0u8; 32];
            let kw_lower = lower(first, &mut buf);
            let kw: &[u8] = &kw_lower;
            let ends = |k: &[u8]| -> bool {
                match ctx {
                    Ctx::Node => matches!(
                        k,
                        b"node"
                            | b"endmodelgeom"
                            | b"beginmodelgeom"
                            | b"newanim"
                            | b"doneanim"
                            | b"donemodel"
                    ),
                    Ctx::Geom => matches!(
                        k,
                        b"newanim" | b"beginmodelgeom" | b"doneanim" | b"donemodel"
                    ),
                    Ctx::Anim => matches!(
                        k,
                        b"newanim" | b"beginmodelgeom" | b"endmodelgeom" | b"donemodel"
                    ),
                    Ctx::Top => false,
                }
            };
            let terminator: &[u8] = match ctx {
                Ctx::Node => b"endnode",
                Ctx::Geom => b"endmodelgeom",
                Ctx::Anim => b"doneanim",
                Ctx::Top => b"",
            };
            if ctx == Ctx::Top && kw == b"donemodel" {
                // The model ends here: what follows is the file's tail.
                out.push(self.prop(&l, first, kw, toks));
                return (out, Raw(None));
            }
            if ctx != Ctx::Top && kw == terminator {
                self.advance(&l);
                return (out, self.raw(l.start));
            }
            if ends(kw) {
                let what = String::from_utf8_lossy(terminator).into_owned();
                self.warn("mdl-missing-end", col, || {
                    format!("`{what}` missing before this line")
                });
                return (out, Raw(None));
            }
            match (ctx, kw) {
                (Ctx::Top | Ctx::Geom | Ctx::Anim, b"node") => {
                    let n = self.node(&l, toks);
                    out.push(Stmt::Node(n));
                }
                (Ctx::Top, b"beginmodelgeom") => {
                    let name = toks.next().map(|t| text(t.1)).unwrap_or_default();
                    self.advance(&l);
                    let head = self.raw(l.start);
                    let (body, end) = self.body(Ctx::Geom);
                    out.push(Stmt::Geometry(Geometry {
                        name,
                        body,
                        head,
                        end,
                    }));
                }
                (Ctx::Top, b"newanim") => {
                    let name = toks.next().map(|t| text(t.1)).unwrap_or_default();
                    let model = toks.next().map(|t| text(t.1)).unwrap_or_default();
                    self.advance(&l);
                    let head = self.raw(l.start);
                    let (body, end) = self.body(Ctx::Anim);
                    out.push(Stmt::Animation(Animation {
                        name,
                        model,
                        body,
                        head,
                        end,
                    }));
                }
                _ if (is_structural(kw) && kw != b"donemodel") || looks_numeric(first) => {
                    let what = if looks_numeric(first) {
                        "a number row outside any list"
                    } else {
                        "a block terminator that closes nothing"
                    };
                    self.warn("mdl-garbage-line", col, || {
                        format!("unexpected line: {what}")
                    });
                    self.advance(&l);
                    out.push(Stmt::Trivia(Trivia {
                        kind: TriviaKind::Garbage,
                        text: text(content),
                        raw: self.raw(l.start),
                    }));
                }
                _ => {
                    if self.error.is_none() && !keyword_shaped(first) {
                        self.error = Some(DecodeError::malformed_text(
                            self.line,
                            col as u32 + 1,
                            format!(
                                "expected a keyword (letters, digits, `_`), found `{}`",
                                text(first)
                            ),
                        ));
                    }
                    let s = self.prop_or_list(&l, first, kw, toks);
                    out.push(s);
                }
            }
        }
        if ctx != Ctx::Top {
            let what = match ctx {
                Ctx::Node => "endnode",
                Ctx::Geom => "endmodelgeom",
                _ => "doneanim",
            };
            self.warn("mdl-missing-end", 0, || {
                format!("end of file before `{what}`")
            });
        }
        (out, Raw(None))
    }

    fn node(&mut self, l: &Line, mut toks: Tokens<'_>) -> Node {
        let kind_tok = toks.next();
        let kind = match kind_tok {
            Some((_, k)) => NodeKind::parse(&text(k)),
            None => {
                self.warn("mdl-unexpected-value", 0, || {
                    "`node` without a type".to_string()
                });
                NodeKind::Other(String::new())
            }
        };
        if let Some((c, k)) = kind_tok
            && k.eq_ignore_ascii_case(b"emmiter")
        {
            self.warn("mdl-misspelled-keyword", c, || {
                "`emmiter` read as `emitter`".to_string()
            });
        }
        let name = toks.next().map(|t| text(t.1)).unwrap_or_default();
        if let Some((c, _)) = toks.next() {
            self.warn("mdl-unexpected-value", c, || {
                "extra words after the node name are ignored".to_string()
            });
        }
        self.advance(l);
        let head = self.raw(l.start);
        let (body, end) = self.body(Ctx::Node);
        Node {
            kind,
            name,
            body,
            head,
            end,
        }
    }

    fn prop_or_list(&mut self, l: &Line, first: &[u8], kw: &[u8], toks: Tokens<'_>) -> Stmt {
        if let Some(words) = is_list_key(kw) {
            // A list when the rest of the header is empty, a count, or (numbers) a first row.
            let mut t = toks.clone();
            let a = t.next();
            let b = t.next();
            let shape = match (a, b) {
                // Word rows cannot be told from properties: those lists need a count.
                (None, _) if !words => Some(None),
                (Some((_, c)), None) if super::lex::parse_u64(c).is_some() => {
                    Some(super::lex::parse_u64(c))
                }
                (Some(_), Some(_)) if !words => {
                    let all_num = toks.clone().all(|(_, x)| parse_f64(x).is_some());
                    all_num.then_some(None)
                }
                _ => None,
            };
            if let Some(count) = shape {
                return self.list(l, first, count, words, toks);
            }
        }
        self.prop(l, first, kw, toks)
    }

    fn prop(&mut self, l: &Line, first: &[u8], kw: &[u8], toks: Tokens<'_>) -> Stmt {
        let kind = kind_of(kw);
        if kw == b"setfillumcolor" {
            self.warn("mdl-misspelled-keyword", 0, || {
                "`setfillumcolor` is a misspelling of `selfillumcolor`".to_string()
            });
        }
        let mut vals: [&[u8]; 8] = [&[]; 8];
        let mut n = 0;
        let mut more = false;
        let mut first_col = 0;
        for (c, t) in toks.clone() {
            if n == 0 {
                first_col = c;
            }
            if n < 8 {
                vals[n] = t;
                n += 1;
            } else {
                more = true;
                break;
            }
        }
        let v = &vals[..n];
        let typed = if more {
            None
        } else {
            match kind {
                Kind::Flag if n == 1 => match v[0] {
                    b"0" | b"false" => Some(Value::Flag(false)),
                    b"1" | b"true" => Some(Value::Flag(true)),
                    _ => None,
                },
                Kind::FlagOrName if n == 1 => Some(match v[0] {
                    b"0" => Value::Flag(false),
                    b"1" => Value::Flag(true),
                    w => Value::Name(text(w)),
                }),
                Kind::Int if n == 1 => parse_i64(v[0]).map(Value::Int),
                Kind::Float if n == 1 => parse_f64(v[0]).map(Value::Float),
                Kind::Vec3 | Kind::Color if n == 3 => {
                    match (parse_f64(v[0]), parse_f64(v[1]), parse_f64(v[2])) {
                        (Some(x), Some(y), Some(z)) => Some(if kind == Kind::Vec3 {
                            Value::Vec3([x, y, z])
                        } else {
                            Value::Color([x, y, z])
                        }),
                        _ => None,
                    }
                }
                Kind::Quat if n == 4 => {
                    let q = [
                        parse_f64(v[0]),
                        parse_f64(v[1]),
                        parse_f64(v[2]),
                        parse_f64(v[3]),
                    ];
                    match q {
                        [Some(a), Some(b), Some(c), Some(d)] => {
                            Some(Value::AxisAngle([a, b, c, d]))
                        }
                        _ => None,
                    }
                }
                Kind::Name if n == 1 => Some(Value::Name(text(v[0]))),
                Kind::Event if n == 2 => parse_f64(v[0]).map(|t| Value::Event(t, text(v[1]))),
                _ => None,
            }
        };
        let value = match typed {
            Some(v) => v,
            None => {
                if kind != Kind::Any {
                    let key = text(first);
                    self.warn("mdl-unexpected-value", first_col, || {
                        format!("`{key}`: value not of the expected type, kept as written")
                    });
                }
                generic_value(toks)
            }
        };
        self.advance(l);
        Stmt::Prop(Property {
            key: key_text(first, kw),
            value,
            raw: self.raw(l.start),
        })
    }

    fn list(
        &mut self,
        l: &Line,
        first: &[u8],
        count: Option<u64>,
        words: bool,
        toks: Tokens<'_>,
    ) -> Stmt {
        let start = l.start;
        let mut rows = if words {
            Rows::Words(Vec::new())
        } else {
            // Reserve by the count, bounded by what the rest of the input can hold (a row
            // takes at least two bytes).
            let cap = count.map_or(0, |c| {
                c.min(((self.src.len() - l.next) / 2) as u64) as usize
            });
            Rows::Numbers {
                values: Vec::with_capacity(cap * 3),
                ends: Vec::with_capacity(cap),
            }
        };
        let mut inline_first_row = false;
        if !words && count.is_none() {
            let mut t = toks.clone();
            if t.next().is_some() {
                inline_first_row = true;
                self.number_row(toks, &mut rows);
            }
        }
        self.advance(l);
        let mut endlist = false;
        let mut rewind: Option<(usize, u32)> = None;
        while self.pos < self.src.len() {
            if words
                && let Some(c) = count
                && rows.len() as u64 >= c
            {
                break;
            }
            let r = line_at(self.src, self.pos);
            let content = &self.src[r.start..r.end];
            let mut t = Tokens::new(content);
            let Some((_, f)) = t.next() else {
                if rewind.is_none() {
                    rewind = Some((self.pos, self.line));
                }
                self.advance(&r);
                continue;
            };
            if !words && looks_numeric(f) && self.number_row(Tokens::new(content), &mut rows) {
                rewind = None;
                self.advance(&r);
                continue;
            }
            let mut buf = [0u8; 32];
            let k_lower = lower(f, &mut buf);
            let k: &[u8] = &k_lower;
            if k == b"endlist" {
                endlist = true;
                self.advance(&r);
                rewind = None;
                break;
            }
            if words {
                if is_structural(k) {
                    break;
                }
                if let Rows::Words(w) = &mut rows {
                    w.push(Tokens::new(content).map(|(_, x)| text(x)).collect());
                }
            } else {
                break;
            }
            rewind = None;
            self.advance(&r);
        }
        if let Some((p, line)) = rewind {
            self.pos = p;
            self.line = line;
        }
        let mut kb = [0u8; 32];
        let key = key_text(first, &lower(first, &mut kb));
        Stmt::List(ListProp {
            key,
            count,
            rows,
            endlist,
            inline_first_row,
            raw: self.raw(start),
        })
    }

    /// Parses a number row into `rows`; `false` (nothing pushed) when its first token is not
    /// a number, so the line is not a row.
    #[inline]
    fn number_row(&mut self, toks: Tokens<'_>, rows: &mut Rows) -> bool {
        let Rows::Numbers { values, ends } = rows else {
            return false;
        };
        let mut first = true;
        for (c, t) in toks {
            match parse_f64(t) {
                Some(v) => values.push(v),
                None if first => return false,
                None => {
                    let tok = text(t);
                    self.warn("mdl-bad-number", c, || {
                        format!("`{tok}` in a number row is not a number; ignored")
                    });
                }
            }
            first = false;
        }
        ends.push(values.len() as u32);
        true
    }
}

/// The value of a property this reader does not type (or whose text does not fit its type).
fn generic_value(toks: Tokens<'_>) -> Value {
    let mut t = toks.clone();
    let Some((_, a)) = t.next() else {
        return Value::None;
    };
    if t.next().is_none() {
        return match parse_f64(a) {
            Some(v) => Value::Float(v),
            None => Value::Name(text(a)),
        };
    }
    let nums: Option<Vec<f64>> = toks.clone().map(|(_, x)| parse_f64(x)).collect();
    match nums {
        Some(v) => Value::Numbers(v),
        None => Value::Words(toks.map(|(_, x)| text(x)).collect()),
    }
}
