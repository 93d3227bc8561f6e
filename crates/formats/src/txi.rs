//! TXI texture descriptions: ASCII lines of `keyword arguments` that tell the engine how to
//! draw a texture (blending, lightmap, animation frames, cube map, environment map, ...). A TXI
//! is a file of its own (`name.txi` beside `name.tga`) or the trailer of a TPC.
//!
//! [`Txi`] keeps the text as it was (so it writes back byte for byte) and its parsed
//! [`Entry`]s; what does not parse (an unknown keyword, a number that is no number, a blending
//! mode the engine does not know, binary bytes) is a `txi-unparsed` finding with its line and
//! column. Keywords are matched without regard to case, as the engine does. The keyword list is
//! the union of xoreos's and PyKotor's (`docs/formats/tpc.md`).

use crate::finding::{Finding, Place};

/// What a keyword's arguments are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arg {
    /// One number (the engine scans integers and floats alike).
    Number,
    /// Free text (a texture name, a procedure type, a script).
    Text,
    /// `default`, `additive` or `punchthrough`.
    Blending,
    /// A count, then that many lines of three numbers.
    Rows,
}

/// Every keyword the engines read, lower case, with its arguments.
const KEYWORDS: &[(&str, Arg)] = &[
    ("alphamean", Arg::Number),
    ("arturoheight", Arg::Number),
    ("arturowidth", Arg::Number),
    ("baselineheight", Arg::Number),
    ("blending", Arg::Blending),
    ("bumpmapscaling", Arg::Number),
    ("bumpmaptexture", Arg::Text),
    ("bumpyshinytexture", Arg::Text),
    ("candownsample", Arg::Number),
    ("caretindent", Arg::Number),
    ("channelscale", Arg::Text),
    ("channeltranslate", Arg::Text),
    ("clamp", Arg::Number),
    ("codepage", Arg::Number),
    ("cols", Arg::Number),
    ("compresstexture", Arg::Number),
    ("controllerscript", Arg::Text),
    ("cube", Arg::Number),
    ("dbmapping", Arg::Number),
    ("decal", Arg::Number),
    ("defaultbpp", Arg::Number),
    ("defaultheight", Arg::Number),
    ("defaultwidth", Arg::Number),
    ("distort", Arg::Number),
    ("distortangle", Arg::Number),
    ("distortionamplitude", Arg::Number),
    ("downsamplefactor", Arg::Number),
    ("downsamplemax", Arg::Number),
    ("downsamplemin", Arg::Number),
    ("envmaptexture", Arg::Text),
    ("filerange", Arg::Number),
    ("filter", Arg::Number),
    ("fontheight", Arg::Number),
    ("fontwidth", Arg::Number),
    ("fps", Arg::Number),
    ("isbumpmap", Arg::Number),
    ("isdiffusebumpmap", Arg::Number),
    ("isdoublebyte", Arg::Number),
    ("islightmap", Arg::Number),
    ("isspecularbumpmap", Arg::Number),
    ("lowerrightcoords", Arg::Rows),
    ("maxsizehq", Arg::Number),
    ("maxsizelq", Arg::Number),
    ("minsizehq", Arg::Number),
    ("minsizelq", Arg::Number),
    ("mipmap", Arg::Number),
    ("numchars", Arg::Number),
    ("numcharspersheet", Arg::Number),
    ("numx", Arg::Number),
    ("numy", Arg::Number),
    ("ondemand", Arg::Number),
    ("priority", Arg::Number),
    ("proceduretype", Arg::Text),
    ("rows", Arg::Number),
    ("spacingb", Arg::Number),
    ("spacingr", Arg::Number),
    ("speed", Arg::Number),
    ("temporary", Arg::Number),
    ("texturewidth", Arg::Number),
    ("unique", Arg::Number),
    ("upperleftcoords", Arg::Rows),
    ("wateralpha", Arg::Number),
    ("waterheight", Arg::Number),
    ("waterwidth", Arg::Number),
    ("xbox_downsample", Arg::Number),
];

/// How a texture is blended, from `blending`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blending {
    /// Alpha blending (or none): the default.
    Default,
    /// Added to what is behind it (glows, flames, holograms).
    Additive,
    /// Alpha test: a pixel is drawn or not (foliage, grates).
    Punchthrough,
}

impl Blending {
    /// The keyword's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Blending::Default => "default",
            Blending::Additive => "additive",
            Blending::Punchthrough => "punchthrough",
        }
    }

    fn parse(s: &str) -> Option<Blending> {
        match s.to_ascii_lowercase().as_str() {
            "default" => Some(Blending::Default),
            "additive" => Some(Blending::Additive),
            "punchthrough" => Some(Blending::Punchthrough),
            _ => None,
        }
    }
}

/// One parsed line (and, for coordinate lists, the rows after it).
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The keyword, lower case.
    pub keyword: String,
    /// The arguments as written, trimmed.
    pub args: String,
    /// The 1-based line.
    pub line: u32,
    /// The rows of `upperleftcoords` / `lowerrightcoords`.
    pub rows: Vec<[f32; 3]>,
}

/// A TXI: its text as it was, the entries that parse, and what does not parse.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Txi {
    /// The bytes, unchanged (written back as they are).
    pub text: Vec<u8>,
    /// The entries in line order.
    pub entries: Vec<Entry>,
    /// `txi-unparsed` warnings: lines the engine skips or misreads.
    pub findings: Vec<Finding>,
}

/// Parses a TXI. Never fails: what does not parse becomes a finding.
pub fn read(data: &[u8]) -> Txi {
    crate::census::decoded("txi");
    let mut txi = Txi {
        text: data.to_vec(),
        ..Txi::default()
    };
    // A NUL ends the text, as it ends a C string (writers terminate or pad with NULs); other
    // control bytes mean this is no text at all (a TPC's pixel data taken for its trailer).
    let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let body = &data[..end];
    if let Some(at) = body
        .iter()
        .position(|&b| b < 0x20 && !matches!(b, b'\t' | b'\r' | b'\n') || b >= 0x7f)
    {
        let (line, column) = line_col(body, at);
        txi.findings.push(unparsed(
            line,
            column,
            format!(
                "byte {:#04x} at offset {at}: a TXI is ASCII text (the rest of this one is not read)",
                body[at]
            ),
        ));
        parse_lines(&body[..line_start(body, at)], &mut txi);
        return txi;
    }
    parse_lines(body, &mut txi);
    txi
}

fn unparsed(line: u32, column: u32, message: String) -> Finding {
    Finding::warning("txi-unparsed", Place::line_col(line, column), message)
}

fn line_start(data: &[u8], at: usize) -> usize {
    data[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1)
}

fn line_col(data: &[u8], at: usize) -> (u32, u32) {
    let line = data[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let column = at - line_start(data, at) + 1;
    (line as u32, column as u32)
}

fn parse_lines(body: &[u8], txi: &mut Txi) {
    let text = String::from_utf8_lossy(body);
    let mut pending_rows: usize = 0;
    for (i, raw) in text.split('\n').enumerate() {
        let line_no = i as u32 + 1;
        let line = raw.trim_end_matches('\r');
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        let column = (line.len() - line.trim_start().len()) as u32 + 1;
        if pending_rows > 0 {
            pending_rows -= 1;
            match three_numbers(trimmed) {
                Some(row) => {
                    if let Some(e) = txi.entries.last_mut() {
                        e.rows.push(row);
                    }
                }
                None => txi.findings.push(unparsed(
                    line_no,
                    column,
                    format!("`{trimmed}`: expected a row of three numbers"),
                )),
            }
            continue;
        }
        let (word, args) = match trimmed.split_once(char::is_whitespace) {
            Some((w, a)) => (w, a.trim()),
            None => (trimmed, ""),
        };
        let mut keyword = word.to_ascii_lowercase();
        let mut args = args.to_string();
        // `decal1` (no space) is how some shipped TXIs spell `decal 1` (PyKotor reads it so).
        if keyword == "decal1" && args.is_empty() {
            keyword = "decal".into();
            args = "1".into();
        }
        let Some(&(_, kind)) = KEYWORDS.iter().find(|(k, _)| *k == keyword) else {
            txi.findings.push(unparsed(
                line_no,
                column,
                format!("`{word}` is no TXI keyword: the engine skips the line"),
            ));
            continue;
        };
        let arg_column = column + word.len() as u32 + 1;
        let problem = match kind {
            Arg::Number if number(&args).is_none() => Some(format!(
                "`{word}` takes a number, not `{args}`: the engine reads 0"
            )),
            Arg::Text if args.is_empty() => Some(format!("`{word}` without its argument")),
            Arg::Blending if Blending::parse(&args).is_none() => Some(format!(
                "blending `{args}`: expected default, additive or punchthrough (the engine uses default)"
            )),
            Arg::Rows => match args.parse::<usize>() {
                Ok(n) => {
                    pending_rows = n;
                    None
                }
                Err(_) => Some(format!("`{word}` takes a row count, not `{args}`")),
            },
            _ => None,
        };
        if let Some(message) = problem {
            txi.findings.push(unparsed(line_no, arg_column, message));
            continue;
        }
        txi.entries.push(Entry {
            keyword,
            args,
            line: line_no,
            rows: Vec::new(),
        });
    }
    if pending_rows > 0 {
        let line = text.split('\n').count() as u32;
        txi.findings.push(unparsed(
            line,
            1,
            format!("the text ends {pending_rows} coordinate rows short of the count given"),
        ));
    }
}

/// The leading number of `s` (as the engine's `sscanf` reads it: a trailing word is ignored).
fn number(s: &str) -> Option<f64> {
    let first = s.split_whitespace().next()?;
    first.parse::<f64>().ok().filter(|v| v.is_finite())
}

fn three_numbers(s: &str) -> Option<[f32; 3]> {
    let mut it = s.split_whitespace().map(|t| t.parse::<f32>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

impl Txi {
    /// The last entry of `keyword` (lower case): the one the engine keeps.
    pub fn get(&self, keyword: &str) -> Option<&Entry> {
        self.entries.iter().rev().find(|e| e.keyword == keyword)
    }

    /// The number `keyword` gives, when it is there.
    pub fn number(&self, keyword: &str) -> Option<f64> {
        self.get(keyword).and_then(|e| number(&e.args))
    }

    /// Whether `keyword` is given a non-zero number (`islightmap 1`, `decal 1`, `cube 1`).
    pub fn flag(&self, keyword: &str) -> bool {
        self.number(keyword).is_some_and(|v| v != 0.0)
    }

    /// The text argument of `keyword` (`envmaptexture CM_baremetal`).
    pub fn text_of(&self, keyword: &str) -> Option<&str> {
        self.get(keyword).map(|e| e.args.as_str())
    }

    /// The blending mode (`Default` when not given).
    pub fn blending(&self) -> Blending {
        self.get("blending")
            .and_then(|e| Blending::parse(&e.args))
            .unwrap_or(Blending::Default)
    }

    /// The frames of an animated texture (`proceduretype cycle`, `numx`, `numy`, `fps` all
    /// given and non-zero): `(numx, numy, fps)`.
    pub fn animation(&self) -> Option<(u32, u32, f32)> {
        let cycle = self
            .text_of("proceduretype")
            .is_some_and(|p| p.eq_ignore_ascii_case("cycle"));
        let nx = self.number("numx").filter(|v| *v >= 1.0)? as u32;
        let ny = self.number("numy").filter(|v| *v >= 1.0)? as u32;
        let fps = self.number("fps").filter(|v| *v != 0.0)? as f32;
        cycle.then_some((nx, ny, fps))
    }

    /// The text up to its first NUL (what the engine reads).
    pub fn body(&self) -> &[u8] {
        let end = self
            .text
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(self.text.len());
        &self.text[..end]
    }

    /// Whether the text (up to its first NUL) is only whitespace.
    pub fn is_blank(&self) -> bool {
        self.body().iter().all(u8::is_ascii_whitespace)
    }
}

/// The text of a TXI as written: [`Txi::text`]. (TXIs are written byte for byte as read.)
pub fn write(txi: &Txi) -> Vec<u8> {
    txi.text.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corpus_shapes_parse() {
        let t = read(b"islightmap 1\r\ncompresstexture 0\r\nmipmap 0\r\ndownsamplemax 0");
        assert!(t.findings.is_empty(), "{:?}", t.findings);
        assert!(t.flag("islightmap"));
        assert_eq!(t.entries.len(), 4);
        let t = read(b"blending additive\r\ndecal 1\r\n\r\n\r\n");
        assert_eq!(t.blending(), Blending::Additive);
        assert!(t.flag("decal"));
        let t = read(b"envmaptexture CM_baremetal\r\n\r\nxbox_downsample 256\r\n\0");
        assert!(t.findings.is_empty(), "{:?}", t.findings);
        assert_eq!(t.text_of("envmaptexture"), Some("CM_baremetal"));
        assert_eq!(write(&t), t.text);
    }

    #[test]
    fn animation_and_coordinates() {
        let t = read(
            b"proceduretype cycle\nnumx 4\nnumy 2\nfps 12\nupperleftcoords 2\n0 0 0\n0.5 0.5 0\nMipMap 1\n",
        );
        assert!(t.findings.is_empty(), "{:?}", t.findings);
        assert_eq!(t.animation(), Some((4, 2, 12.0)));
        assert_eq!(t.get("upperleftcoords").unwrap().rows.len(), 2);
        assert!(t.flag("mipmap"), "keywords ignore case");
    }

    #[test]
    fn what_does_not_parse_is_located() {
        let t = read(b"blending weird\nfoo 1\n  numx x\nlowerrightcoords 2\n0 0 0\n");
        let got: Vec<(Place, &str)> = t
            .findings
            .iter()
            .map(|f| (f.place.clone(), f.code))
            .collect();
        assert_eq!(got.len(), 4, "{:?}", t.findings);
        assert_eq!(got[0].0, Place::line_col(1, 10));
        assert_eq!(got[1].0, Place::line_col(2, 1));
        assert_eq!(got[2].0, Place::line_col(3, 8));
        assert!(t.findings[3].message.contains("1 coordinate rows short"));
        let nul = read(b"mipmap 0 \r\n\0\0\x07\x01mipmap 0\r\n");
        assert!(nul.findings.is_empty(), "{:?}", nul.findings);
        assert_eq!(nul.entries.len(), 1, "the text ends at its first NUL");
        let bin = read(b"decal 1\n\x01\x02\x03");
        assert_eq!(bin.findings.len(), 1);
        assert_eq!(bin.findings[0].place, Place::line_col(2, 1));
        assert!(bin.flag("decal"));
    }
}
