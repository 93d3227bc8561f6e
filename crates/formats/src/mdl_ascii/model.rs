//! The owned MDL ASCII model: statements in file order, typed values, and the original text.
//!
//! Every container (the file, the geometry block, an animation, a node) holds its content as a
//! list of [`Stmt`]s in file order. Each statement read from a file remembers the byte range of
//! its original text ([`Raw`]), which the lossless writer re-emits when the statement's typed
//! content is unchanged. Equality ([`PartialEq`]) compares typed content only: original text,
//! blank lines, comments and garbage lines ([`Trivia`]) and layout details (a missing `endnode`,
//! a first `aabb` row on the header line) do not take part.

use std::borrow::Cow;
use std::fmt;

pub use crate::text_lines::Eol;

/// The byte range of a statement's original text in [`Model::source`] (terminators included).
/// Compares equal to every other `Raw`: it is layout, not content.
#[derive(Clone, Copy, Default)]
pub struct Raw(pub(crate) Option<(u32, u32)>);

impl Raw {
    /// The range, if the statement was read from a file.
    pub fn range(&self) -> Option<std::ops::Range<usize>> {
        self.0.map(|(a, b)| a as usize..b as usize)
    }
}

impl PartialEq for Raw {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for Raw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some((a, b)) => write!(f, "Raw({a}..{b})"),
            None => f.write_str("Raw(new)"),
        }
    }
}

/// An MDL ASCII file: models (`newmodel` ... `donemodel`), and the header-less walkmesh files
/// (PWK/DWK/WOK ASCII) that hold bare nodes.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// The top-level statements in file order: header properties (`newmodel`,
    /// `setsupermodel`, `classification`, ...), the [`Geometry`] block, [`Animation`]s,
    /// bare [`Node`]s (walkmesh files without a header), `donemodel`, trivia.
    pub stmts: Vec<Stmt>,
    /// The original bytes (empty for a model built in code). [`Raw`] ranges point into them.
    pub source: Vec<u8>,
    /// The line terminator for newly formatted lines: the file's first one (LF for a model built
    /// in code; [`Eol::None`] also means LF).
    pub eol: Eol,
}

impl PartialEq for Model {
    fn eq(&self, other: &Self) -> bool {
        stmts_eq(&self.stmts, &other.stmts)
    }
}

/// Compares two statement lists ignoring [`Trivia`].
pub(crate) fn stmts_eq(a: &[Stmt], b: &[Stmt]) -> bool {
    let mut x = a.iter().filter(|s| !matches!(s, Stmt::Trivia(_)));
    let mut y = b.iter().filter(|s| !matches!(s, Stmt::Trivia(_)));
    loop {
        match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(p), Some(q)) if p == q => {}
            _ => return false,
        }
    }
}

/// One statement of a container.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// A single-line property: `key values...`.
    Prop(Property),
    /// A list property: `key [count]`, rows, optional `endlist`.
    List(ListProp),
    /// A node block.
    Node(Node),
    /// The `beginmodelgeom` ... `endmodelgeom` block.
    Geometry(Geometry),
    /// A `newanim` ... `doneanim` block.
    Animation(Animation),
    /// A blank line, comment or unreadable line, kept for the lossless writer only.
    Trivia(Trivia),
}

/// What kind of text a [`Trivia`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TriviaKind {
    /// Only whitespace.
    Blank,
    /// A `#` comment.
    Comment,
    /// A line that fits nowhere (a number row outside a list, a stray terminator); the reader
    /// reports it as a finding.
    Garbage,
    /// The UTF-8 byte-order mark a file starts with (always the first statement; written back as
    /// the three bytes `EF BB BF` whatever the text says).
    ByteOrderMark,
    /// Everything after the end of the text: the lines after `donemodel` and everything from the
    /// first NUL byte (terminators included; always the last statement). Not read.
    Tail,
}

/// Text kept verbatim and ignored by equality: a line, or a byte-order mark or tail.
#[derive(Debug, Clone, PartialEq)]
pub struct Trivia {
    /// The kind of text.
    pub kind: TriviaKind,
    /// The text, one character per byte (ISO 8859-1): a line without its terminator, or the
    /// whole tail.
    pub text: String,
    /// Original text.
    pub raw: Raw,
}

/// A typed property value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// No value (`detonate`).
    None,
    /// `0` or `1` (also `true`/`false`).
    Flag(bool),
    /// An integer.
    Int(i64),
    /// A number.
    Float(f64),
    /// Three numbers: a position or vector.
    Vec3([f64; 3]),
    /// An RGB colour (`ambient`, `diffuse`, `wirecolor`, ...).
    Color([f64; 3]),
    /// `orientation`: axis x, y, z and angle (radians).
    AxisAngle([f64; 4]),
    /// `event <time> <name>`.
    Event(f64, String),
    /// One word (`parent`, `bitmap`, `classification`, ...).
    Name(String),
    /// Several numbers of a property this crate does not type.
    Numbers(Vec<f64>),
    /// Several words (at least one not a number).
    Words(Vec<String>),
}

impl Value {
    /// The value as one number, if it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Float(v) => Some(v),
            Value::Int(v) => Some(v as f64),
            Value::Flag(b) => Some(f64::from(u8::from(b))),
            _ => None,
        }
    }

    /// The value as a word, if it is one.
    pub fn as_name(&self) -> Option<&str> {
        match self {
            Value::Name(s) => Some(s),
            _ => None,
        }
    }

    /// The value as three numbers (vectors and colours).
    pub fn as_vec3(&self) -> Option<[f64; 3]> {
        match *self {
            Value::Vec3(v) | Value::Color(v) => Some(v),
            _ => None,
        }
    }
}

/// A single-line property.
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    /// The key as written (case kept); common keys borrow a static string.
    pub key: Cow<'static, str>,
    /// The typed value.
    pub value: Value,
    /// Original text.
    pub raw: Raw,
}

impl Property {
    /// A new property (not from a file).
    pub fn new(key: impl Into<Cow<'static, str>>, value: Value) -> Self {
        Property {
            key: key.into(),
            value,
            raw: Raw::default(),
        }
    }
}

/// Rows of a list property.
#[derive(Debug, Clone, PartialEq)]
pub enum Rows {
    /// Numeric rows stored flat: row `i` is `values[ends[i-1]..ends[i]]`.
    Numbers {
        /// Every value of every row.
        values: Vec<f64>,
        /// End offset (exclusive) of each row in `values`.
        ends: Vec<u32>,
    },
    /// Rows of words (`weights`, `texturenames`, `multimaterial`).
    Words(Vec<Vec<String>>),
}

impl Default for Rows {
    fn default() -> Self {
        Rows::Numbers {
            values: Vec::new(),
            ends: Vec::new(),
        }
    }
}

impl Rows {
    /// Number of rows.
    pub fn len(&self) -> usize {
        match self {
            Rows::Numbers { ends, .. } => ends.len(),
            Rows::Words(w) => w.len(),
        }
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Numeric row `i`.
    pub fn row(&self, i: usize) -> Option<&[f64]> {
        match self {
            Rows::Numbers { values, ends } => {
                let end = *ends.get(i)? as usize;
                let start = if i == 0 { 0 } else { ends[i - 1] as usize };
                values.get(start..end)
            }
            Rows::Words(_) => None,
        }
    }

    /// Iterates over numeric rows (nothing for word rows).
    pub fn iter(&self) -> impl Iterator<Item = &[f64]> + '_ {
        (0..self.len()).filter_map(move |i| self.row(i))
    }

    /// Appends a numeric row (no-op on word rows).
    pub fn push(&mut self, row: &[f64]) {
        if let Rows::Numbers { values, ends } = self {
            values.extend_from_slice(row);
            ends.push(values.len() as u32);
        }
    }
}

/// A list property: `verts`, `faces`, `tverts`, `colors`, `weights`, `constraints`, `aabb`,
/// `roomlinks`, animation keys (`positionkey`, `orientationkey`, ...), etc.
#[derive(Debug, Clone)]
pub struct ListProp {
    /// The key as written; common keys borrow a static string.
    pub key: Cow<'static, str>,
    /// The count written on the header line (`verts 16`), `None` when absent
    /// (`positionkey` ... `endlist`). It may disagree with the rows (see `validate`).
    pub count: Option<u64>,
    /// The rows.
    pub rows: Rows,
    /// Whether the list is closed by `endlist`.
    pub endlist: bool,
    /// Layout: the first row is on the header line (`aabb -5 -5 0 5 5 1 -1`).
    pub inline_first_row: bool,
    /// Original text.
    pub raw: Raw,
}

impl PartialEq for ListProp {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
            && self.count == o.count
            && self.rows == o.rows
            && self.endlist == o.endlist
    }
}

impl ListProp {
    /// A new numeric list with a count header and no `endlist` (how meshes are written).
    pub fn counted(key: impl Into<Cow<'static, str>>, rows: Rows) -> Self {
        ListProp {
            key: key.into(),
            count: Some(rows.len() as u64),
            rows,
            endlist: false,
            inline_first_row: false,
            raw: Raw::default(),
        }
    }

    /// Whether this is an animation key list (`...key`).
    pub fn is_keys(&self) -> bool {
        self.key.len() > 3 && self.key[self.key.len() - 3..].eq_ignore_ascii_case("key")
    }
}

/// The type of a node.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// `dummy`.
    Dummy,
    /// `trimesh`.
    Trimesh,
    /// `danglymesh`.
    Danglymesh,
    /// `skin`.
    Skin,
    /// `animmesh`.
    Animmesh,
    /// `emitter` (also the misspelling `emmiter`).
    Emitter,
    /// `light`.
    Light,
    /// `reference`.
    Reference,
    /// `aabb`: a walkmesh with an AABB tree.
    Aabb,
    /// `patch`.
    Patch,
    /// Any other word, as written.
    Other(String),
}

impl NodeKind {
    /// The kind named by a word (case-insensitive).
    pub fn parse(word: &str) -> Self {
        match word.to_ascii_lowercase().as_str() {
            "dummy" => NodeKind::Dummy,
            "trimesh" => NodeKind::Trimesh,
            "danglymesh" => NodeKind::Danglymesh,
            "skin" => NodeKind::Skin,
            "animmesh" => NodeKind::Animmesh,
            "emitter" | "emmiter" => NodeKind::Emitter,
            "light" => NodeKind::Light,
            "reference" => NodeKind::Reference,
            "aabb" => NodeKind::Aabb,
            "patch" => NodeKind::Patch,
            _ => NodeKind::Other(word.to_string()),
        }
    }

    /// The canonical lower-case name.
    pub fn name(&self) -> &str {
        match self {
            NodeKind::Dummy => "dummy",
            NodeKind::Trimesh => "trimesh",
            NodeKind::Danglymesh => "danglymesh",
            NodeKind::Skin => "skin",
            NodeKind::Animmesh => "animmesh",
            NodeKind::Emitter => "emitter",
            NodeKind::Light => "light",
            NodeKind::Reference => "reference",
            NodeKind::Aabb => "aabb",
            NodeKind::Patch => "patch",
            NodeKind::Other(s) => s,
        }
    }

    /// Whether nodes of this kind carry a triangle mesh (`verts`/`faces`).
    pub fn is_mesh(&self) -> bool {
        matches!(
            self,
            NodeKind::Trimesh
                | NodeKind::Danglymesh
                | NodeKind::Skin
                | NodeKind::Animmesh
                | NodeKind::Aabb
        )
    }
}

/// A `node <kind> <name>` ... `endnode` block.
#[derive(Debug, Clone)]
pub struct Node {
    /// The node type.
    pub kind: NodeKind,
    /// The node name (may be empty: `node aabb` in some walkmesh files).
    pub name: String,
    /// Properties, lists and trivia in file order.
    pub body: Vec<Stmt>,
    /// Original text of the `node` line.
    pub head: Raw,
    /// Original text of the `endnode` line; `None` for a node read without one.
    pub end: Raw,
}

impl PartialEq for Node {
    fn eq(&self, o: &Self) -> bool {
        self.kind == o.kind && self.name == o.name && stmts_eq(&self.body, &o.body)
    }
}

/// Finds a property by key (case-insensitive) in a statement list.
fn find_prop<'a>(body: &'a [Stmt], key: &str) -> Option<&'a Property> {
    body.iter().find_map(|s| match s {
        Stmt::Prop(p) if p.key.eq_ignore_ascii_case(key) => Some(p),
        _ => None,
    })
}

/// Finds a list by key (case-insensitive) in a statement list.
fn find_list<'a>(body: &'a [Stmt], key: &str) -> Option<&'a ListProp> {
    body.iter().find_map(|s| match s {
        Stmt::List(p) if p.key.eq_ignore_ascii_case(key) => Some(p),
        _ => None,
    })
}

impl Node {
    /// A new empty node (not from a file).
    pub fn new(kind: NodeKind, name: impl Into<String>) -> Self {
        Node {
            kind,
            name: name.into(),
            body: Vec::new(),
            head: Raw::default(),
            end: Raw::default(),
        }
    }

    /// The first property named `key` (case-insensitive).
    pub fn prop(&self, key: &str) -> Option<&Property> {
        find_prop(&self.body, key)
    }

    /// The first list named `key` (case-insensitive).
    pub fn list(&self, key: &str) -> Option<&ListProp> {
        find_list(&self.body, key)
    }

    /// Every list of the node.
    pub fn lists(&self) -> impl Iterator<Item = &ListProp> {
        self.body.iter().filter_map(|s| match s {
            Stmt::List(l) => Some(l),
            _ => None,
        })
    }

    /// Every single-line property of the node.
    pub fn props(&self) -> impl Iterator<Item = &Property> {
        self.body.iter().filter_map(|s| match s {
            Stmt::Prop(p) => Some(p),
            _ => None,
        })
    }

    /// The parent name; `None` when absent or `NULL`.
    pub fn parent(&self) -> Option<&str> {
        let p = self.prop("parent")?;
        let name = match &p.value {
            Value::Name(s) => s.as_str(),
            _ => return None,
        };
        (!name.eq_ignore_ascii_case("null")).then_some(name)
    }

    /// `position`, if present and three numbers.
    pub fn position(&self) -> Option<[f64; 3]> {
        self.prop("position")?.value.as_vec3()
    }

    /// `orientation` (axis-angle), if present and four numbers.
    pub fn orientation(&self) -> Option<[f64; 4]> {
        match self.prop("orientation")?.value {
            Value::AxisAngle(q) => Some(q),
            _ => None,
        }
    }

    /// Number of vertex rows (`verts`).
    pub fn vertex_count(&self) -> usize {
        self.list("verts").map_or(0, |l| l.rows.len())
    }

    /// Number of face rows (`faces`).
    pub fn face_count(&self) -> usize {
        self.list("faces").map_or(0, |l| l.rows.len())
    }
}

/// The `beginmodelgeom <name>` ... `endmodelgeom` block.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// The name on the `beginmodelgeom` line.
    pub name: String,
    /// Nodes, geometry-level properties (`bmin`, `bmax`, `radius`, `layoutposition` in KotOR
    /// files) and trivia in file order.
    pub body: Vec<Stmt>,
    /// Original `beginmodelgeom` line.
    pub head: Raw,
    /// Original `endmodelgeom` line; `None` when missing.
    pub end: Raw,
}

impl PartialEq for Geometry {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name && stmts_eq(&self.body, &o.body)
    }
}

impl Geometry {
    /// The nodes in file order.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        nodes_of(&self.body)
    }

    /// The first property named `key`.
    pub fn prop(&self, key: &str) -> Option<&Property> {
        find_prop(&self.body, key)
    }
}

fn nodes_of(body: &[Stmt]) -> impl Iterator<Item = &Node> {
    body.iter().filter_map(|s| match s {
        Stmt::Node(n) => Some(n),
        _ => None,
    })
}

/// A `newanim <name> <model>` ... `doneanim` block.
#[derive(Debug, Clone)]
pub struct Animation {
    /// The animation name.
    pub name: String,
    /// The model name on the `newanim` line.
    pub model: String,
    /// `length`, `transtime`, `animroot`, `event`s, nodes with keys, trivia in file order.
    pub body: Vec<Stmt>,
    /// Original `newanim` line.
    pub head: Raw,
    /// Original `doneanim` line; `None` when missing.
    pub end: Raw,
}

impl PartialEq for Animation {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name && self.model == o.model && stmts_eq(&self.body, &o.body)
    }
}

impl Animation {
    /// The animation's nodes.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        nodes_of(&self.body)
    }

    /// The first property named `key`.
    pub fn prop(&self, key: &str) -> Option<&Property> {
        find_prop(&self.body, key)
    }

    /// `length` in seconds.
    pub fn length(&self) -> Option<f64> {
        self.prop("length")?.value.as_f64()
    }

    /// `transtime` in seconds.
    pub fn transtime(&self) -> Option<f64> {
        self.prop("transtime")?.value.as_f64()
    }

    /// `animroot`.
    pub fn animroot(&self) -> Option<&str> {
        self.prop("animroot")?.value.as_name()
    }

    /// The events `(time, name)` in file order.
    pub fn events(&self) -> impl Iterator<Item = (f64, &str)> {
        self.body.iter().filter_map(|s| match s {
            Stmt::Prop(Property {
                value: Value::Event(t, n),
                ..
            }) => Some((*t, n.as_str())),
            _ => None,
        })
    }
}

impl Model {
    /// The first top-level property named `key` (case-insensitive).
    pub fn header(&self, key: &str) -> Option<&Property> {
        find_prop(&self.stmts, key)
    }

    /// `newmodel <name>`.
    pub fn name(&self) -> Option<&str> {
        self.header("newmodel")?.value.as_name()
    }

    /// The supermodel of `setsupermodel <model> <supermodel>`; `None` when absent or `NULL`.
    pub fn supermodel(&self) -> Option<&str> {
        let p = self.header("setsupermodel")?;
        let s = match &p.value {
            Value::Words(w) if w.len() >= 2 => w[1].as_str(),
            Value::Name(s) => s.as_str(),
            _ => return None,
        };
        (!s.eq_ignore_ascii_case("null")).then_some(s)
    }

    /// `classification`.
    pub fn classification(&self) -> Option<&str> {
        self.header("classification")?.value.as_name()
    }

    /// `setanimationscale`.
    pub fn animation_scale(&self) -> Option<f64> {
        self.header("setanimationscale")?.value.as_f64()
    }

    /// The geometry block, if any.
    pub fn geometry(&self) -> Option<&Geometry> {
        self.stmts.iter().find_map(|s| match s {
            Stmt::Geometry(g) => Some(g),
            _ => None,
        })
    }

    /// The geometry nodes: those of the geometry block, then bare top-level nodes (walkmesh
    /// files without a header).
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        self.stmts
            .iter()
            .flat_map(|s| -> Box<dyn Iterator<Item = &Node> + '_> {
                match s {
                    Stmt::Geometry(g) => Box::new(g.nodes()),
                    Stmt::Node(n) => Box::new(std::iter::once(n)),
                    _ => Box::new(std::iter::empty()),
                }
            })
    }

    /// The animations in file order.
    pub fn animations(&self) -> impl Iterator<Item = &Animation> {
        self.stmts.iter().filter_map(|s| match s {
            Stmt::Animation(a) => Some(a),
            _ => None,
        })
    }

    /// The 1-based line of a byte offset in [`Model::source`] (lines end at LF, CRLF or CR).
    pub fn line_of(&self, offset: usize) -> u32 {
        let starts = crate::text_lines::line_starts(&self.source);
        u32::try_from(starts.partition_point(|&s| s <= offset)).unwrap_or(u32::MAX)
    }

    /// A summary for `areakit info`.
    pub fn summary(&self) -> Summary {
        let mut s = Summary {
            name: self.name().map(str::to_string),
            supermodel: self.supermodel().map(str::to_string),
            classification: self.classification().map(str::to_string),
            ..Summary::default()
        };
        for n in self.nodes() {
            s.node_count += 1;
            let name = n.kind.name().to_string();
            match s.nodes_by_type.iter_mut().find(|(k, _)| *k == name) {
                Some((_, c)) => *c += 1,
                None => s.nodes_by_type.push((name, 1)),
            }
            s.vertex_count += n.vertex_count();
            s.face_count += n.face_count();
        }
        s.nodes_by_type.sort();
        s.animation_count = self.animations().count();
        s
    }
}

/// What `areakit info` prints about an MDL ASCII file (`"format": "mdl-ascii"`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// `newmodel` name.
    pub name: Option<String>,
    /// Supermodel (`None` for `NULL`).
    pub supermodel: Option<String>,
    /// `classification`.
    pub classification: Option<String>,
    /// Geometry nodes in total.
    pub node_count: usize,
    /// Geometry nodes per type name (`dummy`, `trimesh`, ...), sorted by name.
    pub nodes_by_type: Vec<(String, usize)>,
    /// Number of animations.
    pub animation_count: usize,
    /// Sum of `verts` rows over geometry nodes.
    pub vertex_count: usize,
    /// Sum of `faces` rows over geometry nodes.
    pub face_count: usize,
}
