//! The owned, editable GFF tree: a root [`Struct`] of labelled [`Field`]s whose [`Value`]s may
//! be structs and lists of structs again.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use super::raw::{self, types};
use crate::error::EncodeError;

/// A field label: up to 16 bytes without NUL (ASCII in every corpus file).
///
/// Labels are compared byte for byte (case-sensitively). On disk a label is 16 bytes padded
/// with NULs; the reader takes the bytes before the first NUL.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Label {
    len: u8,
    bytes: [u8; raw::LABEL_SIZE],
}

impl Label {
    /// A label from text: `None` when it is longer than 16 bytes or holds a NUL.
    pub fn new(text: &str) -> Option<Label> {
        Label::from_bytes(text.as_bytes())
    }

    /// A label from bytes: `None` when longer than 16 bytes or holding a NUL.
    pub fn from_bytes(b: &[u8]) -> Option<Label> {
        if b.len() > raw::LABEL_SIZE || b.contains(&0) {
            return None;
        }
        let mut bytes = [0u8; raw::LABEL_SIZE];
        bytes[..b.len()].copy_from_slice(b);
        Some(Label {
            len: b.len() as u8,
            bytes,
        })
    }

    /// A label from a literal, for constants: `const TAG: Label = Label::lit("Tag");`.
    ///
    /// Meant for `const` items, where a literal longer than 16 bytes or holding a NUL is a
    /// compile-time error; called at run time with such a literal it panics.
    pub const fn lit(text: &'static str) -> Label {
        let b = text.as_bytes();
        assert!(
            b.len() <= raw::LABEL_SIZE,
            "a GFF label has at most 16 bytes"
        );
        let mut bytes = [0u8; raw::LABEL_SIZE];
        let mut i = 0;
        while i < b.len() {
            assert!(b[i] != 0, "a GFF label cannot hold a NUL");
            bytes[i] = b[i];
            i += 1;
        }
        Label {
            len: b.len() as u8,
            bytes,
        }
    }

    /// The label's 16 on-disk bytes: the label and the first NUL-terminated reading of `raw`.
    pub(crate) fn from_raw(raw: &[u8; raw::LABEL_SIZE]) -> Label {
        let len = raw.iter().position(|&b| b == 0).unwrap_or(raw::LABEL_SIZE);
        let mut bytes = [0u8; raw::LABEL_SIZE];
        bytes[..len].copy_from_slice(&raw[..len]);
        Label {
            len: len as u8,
            bytes,
        }
    }

    /// The label's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// The 16 bytes written for this label (NUL-padded).
    pub fn padded(&self) -> &[u8; raw::LABEL_SIZE] {
        &self.bytes
    }

    /// The label as text, when it is UTF-8.
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(self.as_bytes()).ok()
    }

    /// Number of bytes.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the label is empty (only a hostile or damaged file has one).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the label equals `text`.
    pub fn is(&self, text: &str) -> bool {
        self.as_bytes() == text.as_bytes()
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(self.as_bytes()))
    }
}

impl fmt::Debug for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(self.as_bytes()))
    }
}

/// The bytes of a string value (`CExoString`, `CResRef`, a loc-string substring), kept exactly
/// as stored. KotOR and NWN store Windows-1252 text; [`Text::to_str`] decodes UTF-8 when the
/// bytes are valid UTF-8 (ASCII always is) and Windows-1252 otherwise.
#[derive(Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Text(Vec<u8>);

/// The characters of Windows-1252 bytes 0x80..=0x9f (the rest are Latin-1).
const CP1252_HIGH: [char; 32] = [
    '\u{20ac}', '\u{81}', '\u{201a}', '\u{192}', '\u{201e}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{2c6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8d}', '\u{17d}', '\u{8f}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{2dc}', '\u{2122}', '\u{161}', '\u{203a}', '\u{153}', '\u{9d}', '\u{17e}', '\u{178}',
];

impl Text {
    /// Text holding these bytes.
    pub fn from_bytes(bytes: impl Into<Vec<u8>>) -> Text {
        Text(bytes.into())
    }

    /// The stored bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The stored bytes, owned.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    /// Number of bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The text: UTF-8 when the bytes are valid UTF-8, else decoded as Windows-1252.
    pub fn to_str(&self) -> Cow<'_, str> {
        match std::str::from_utf8(&self.0) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => Cow::Owned(
                self.0
                    .iter()
                    .map(|&b| match b {
                        0x80..=0x9f => CP1252_HIGH[usize::from(b - 0x80)],
                        _ => char::from(b),
                    })
                    .collect(),
            ),
        }
    }

    /// Whether the bytes equal `s` ignoring ASCII case (how the engine compares resrefs).
    pub fn eq_ignore_ascii_case(&self, s: &str) -> bool {
        self.0.eq_ignore_ascii_case(s.as_bytes())
    }

    /// `s` as the games store text: each character as its Windows-1252 byte (ASCII as is);
    /// a character Windows-1252 has no byte for becomes `?`. [`Text::to_str`] gives `s` back
    /// when nothing was replaced (and the bytes are not by chance valid UTF-8 of other text).
    pub fn windows_1252_lossy(s: &str) -> Text {
        Text(
            s.chars()
                .map(|c| match u32::from(c) {
                    0..=0x7f | 0xa0..=0xff => u32::from(c) as u8,
                    _ => CP1252_HIGH
                        .iter()
                        .position(|&h| h == c)
                        .map_or(b'?', |i| 0x80 + i as u8),
                })
                .collect(),
        )
    }
}

impl From<&str> for Text {
    /// The UTF-8 bytes of `s` (the same bytes as Windows-1252 for ASCII text).
    fn from(s: &str) -> Text {
        Text(s.as_bytes().to_vec())
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(s.into_bytes())
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_str())
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_str())
    }
}

/// One string of a [`LocString`]: its id (`language * 2 + gender`) and text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LocSubString {
    /// `language * 2 + gender` (gender 0 masculine/neutral, 1 feminine). Language ids: 0
    /// English, 1 French, 2 German, 3 Italian, 4 Spanish, 5 Polish, 128..131 Korean, Chinese
    /// (traditional, simplified), Japanese.
    pub id: u32,
    /// The text.
    pub text: Text,
}

impl LocSubString {
    /// The language id (`id / 2`).
    pub fn language(&self) -> u32 {
        self.id >> 1
    }

    /// Whether this is the feminine form (`id` odd).
    pub fn is_feminine(&self) -> bool {
        self.id & 1 == 1
    }
}

/// A `CExoLocString`: a string reference into the talk table and/or embedded strings.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LocString {
    /// Talk-table string reference; `0xffffffff` for none.
    pub strref: u32,
    /// The embedded strings, in file order.
    pub strings: Vec<LocSubString>,
}

impl Default for LocString {
    fn default() -> Self {
        LocString {
            strref: raw::NO_STRREF,
            strings: Vec::new(),
        }
    }
}

impl LocString {
    /// A loc string with only a string reference.
    pub fn from_strref(strref: u32) -> LocString {
        LocString {
            strref,
            strings: Vec::new(),
        }
    }

    /// The string reference, `None` when it is `0xffffffff`.
    pub fn strref(&self) -> Option<u32> {
        (self.strref != raw::NO_STRREF).then_some(self.strref)
    }

    /// The embedded string for a language and gender.
    pub fn get(&self, language: u32, feminine: bool) -> Option<&Text> {
        let id = language.checked_mul(2)?.checked_add(u32::from(feminine))?;
        self.strings.iter().find(|s| s.id == id).map(|s| &s.text)
    }

    /// The first embedded string, if any (what a tool shows when it has no talk table).
    pub fn first(&self) -> Option<&Text> {
        self.strings.first().map(|s| &s.text)
    }

    /// Sets (or adds) the embedded string for a language and gender.
    pub fn set(&mut self, language: u32, feminine: bool, text: Text) {
        let id = language.wrapping_mul(2).wrapping_add(u32::from(feminine));
        match self.strings.iter_mut().find(|s| s.id == id) {
            Some(s) => s.text = text,
            None => self.strings.push(LocSubString { id, text }),
        }
    }

    /// Encoded size of the substrings part (strref, count, substrings), without the leading
    /// size word.
    pub(crate) fn body_len(&self) -> u64 {
        8 + self
            .strings
            .iter()
            .map(|s| 8 + s.text.len() as u64)
            .sum::<u64>()
    }
}

/// A field value. Floats compare by bit pattern (so NaN payloads and -0.0 are kept and a tree
/// equals its re-read self).
#[derive(Debug, Clone)]
pub enum Value {
    /// `BYTE` (type 0).
    Byte(u8),
    /// `CHAR` (type 1).
    Char(i8),
    /// `WORD` (type 2).
    Word(u16),
    /// `SHORT` (type 3).
    Short(i16),
    /// `DWORD` (type 4).
    Dword(u32),
    /// `INT` (type 5).
    Int(i32),
    /// `DWORD64` (type 6).
    Dword64(u64),
    /// `INT64` (type 7).
    Int64(i64),
    /// `FLOAT` (type 8).
    Float(f32),
    /// `DOUBLE` (type 9).
    Double(f64),
    /// `CExoString` (type 10).
    String(Text),
    /// `CResRef` (type 11): at most 16 bytes in KotOR and NWN (32 in NWN2), 255 on disk.
    ResRef(Text),
    /// `CExoLocString` (type 12).
    LocString(LocString),
    /// `VOID` (type 13): raw bytes.
    Void(Vec<u8>),
    /// `Struct` (type 14): a nested struct.
    Struct(Box<Struct>),
    /// `List` (type 15): a list of structs.
    List(Vec<Struct>),
    /// `Orientation` (type 16): a quaternion, four `f32` as stored.
    Orientation([f32; 4]),
    /// `Vector` (type 17): three `f32`.
    Vector([f32; 3]),
    /// `StrRef` (type 18, Jade Empire and later): a talk-table reference.
    StrRef(u32),
    /// A type id this crate does not know, with its 4-byte data word as stored (the writer
    /// writes the word back unchanged; what it points to, if anything, is not known).
    Unknown {
        /// The field type id (19 and above).
        type_id: u32,
        /// The field record's data-or-offset word.
        data: u32,
    },
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Byte(a), Byte(b)) => a == b,
            (Char(a), Char(b)) => a == b,
            (Word(a), Word(b)) => a == b,
            (Short(a), Short(b)) => a == b,
            (Dword(a), Dword(b)) => a == b,
            (Int(a), Int(b)) => a == b,
            (Dword64(a), Dword64(b)) => a == b,
            (Int64(a), Int64(b)) => a == b,
            (Float(a), Float(b)) => a.to_bits() == b.to_bits(),
            (Double(a), Double(b)) => a.to_bits() == b.to_bits(),
            (String(a), String(b)) | (ResRef(a), ResRef(b)) => a == b,
            (LocString(a), LocString(b)) => a == b,
            (Void(a), Void(b)) => a == b,
            (Struct(a), Struct(b)) => a == b,
            (List(a), List(b)) => a == b,
            (Orientation(a), Orientation(b)) => {
                a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
            }
            (Vector(a), Vector(b)) => a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits()),
            (StrRef(a), StrRef(b)) => a == b,
            (
                Unknown {
                    type_id: t1,
                    data: d1,
                },
                Unknown {
                    type_id: t2,
                    data: d2,
                },
            ) => t1 == t2 && d1 == d2,
            _ => false,
        }
    }
}

impl Value {
    /// The field type id this value is stored with.
    pub fn type_id(&self) -> u32 {
        match self {
            Value::Byte(_) => types::BYTE,
            Value::Char(_) => types::CHAR,
            Value::Word(_) => types::WORD,
            Value::Short(_) => types::SHORT,
            Value::Dword(_) => types::DWORD,
            Value::Int(_) => types::INT,
            Value::Dword64(_) => types::DWORD64,
            Value::Int64(_) => types::INT64,
            Value::Float(_) => types::FLOAT,
            Value::Double(_) => types::DOUBLE,
            Value::String(_) => types::EXO_STRING,
            Value::ResRef(_) => types::RES_REF,
            Value::LocString(_) => types::LOC_STRING,
            Value::Void(_) => types::VOID,
            Value::Struct(_) => types::STRUCT,
            Value::List(_) => types::LIST,
            Value::Orientation(_) => types::ORIENTATION,
            Value::Vector(_) => types::VECTOR,
            Value::StrRef(_) => types::STR_REF,
            Value::Unknown { type_id, .. } => *type_id,
        }
    }

    /// The type's name (`"BYTE"`, `"CExoString"`, ...).
    pub fn type_name(&self) -> &'static str {
        raw::type_name(self.type_id())
    }

    /// Any integer type (`BYTE` to `INT64`) widened to `i64`; `None` for other types and for
    /// a `DWORD64` above `i64::MAX`.
    pub fn as_int(&self) -> Option<i64> {
        Some(match *self {
            Value::Byte(v) => i64::from(v),
            Value::Char(v) => i64::from(v),
            Value::Word(v) => i64::from(v),
            Value::Short(v) => i64::from(v),
            Value::Dword(v) => i64::from(v),
            Value::Int(v) => i64::from(v),
            Value::Dword64(v) => i64::try_from(v).ok()?,
            Value::Int64(v) => v,
            _ => return None,
        })
    }

    /// `FLOAT` or `DOUBLE` as `f64`; integers too (as their value). `None` otherwise.
    pub fn as_number(&self) -> Option<f64> {
        match *self {
            Value::Float(v) => Some(f64::from(v)),
            Value::Double(v) => Some(v),
            _ => self.as_int().map(|i| i as f64),
        }
    }

    /// The text of a `CExoString` or `CResRef`.
    pub fn as_text(&self) -> Option<&Text> {
        match self {
            Value::String(t) | Value::ResRef(t) => Some(t),
            _ => None,
        }
    }

    /// The struct of a `Struct` value.
    pub fn as_struct(&self) -> Option<&Struct> {
        match self {
            Value::Struct(s) => Some(s),
            _ => None,
        }
    }

    /// The elements of a `List` value.
    pub fn as_list(&self) -> Option<&[Struct]> {
        match self {
            Value::List(l) => Some(l),
            _ => None,
        }
    }
}

/// A labelled value.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The label.
    pub label: Label,
    /// The value.
    pub value: Value,
}

/// A struct: its type id and its fields in order (labels may repeat in a damaged file; the
/// getters take the first).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Struct {
    /// The struct type id (`0xffffffff` for the root in every corpus file; list elements
    /// carry a per-list id or their index).
    pub id: u32,
    /// The fields in order.
    pub fields: Vec<Field>,
}

macro_rules! getter {
    ($(#[$doc:meta] $name:ident, $variant:ident, $t:ty;)*) => {
        $(
            #[$doc]
            pub fn $name(&self, label: &str) -> Option<$t> {
                match self.get(label)? {
                    Value::$variant(v) => Some(*v),
                    _ => None,
                }
            }
        )*
    };
}

impl Struct {
    /// An empty struct with this id.
    pub fn new(id: u32) -> Struct {
        Struct {
            id,
            fields: Vec::new(),
        }
    }

    /// The first field labelled `label`.
    pub fn field(&self, label: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.label.is(label))
    }

    /// The value of the first field labelled `label`.
    pub fn get(&self, label: &str) -> Option<&Value> {
        self.field(label).map(|f| &f.value)
    }

    /// The value of the first field labelled `label`, mutably.
    pub fn get_mut(&mut self, label: &str) -> Option<&mut Value> {
        self.fields
            .iter_mut()
            .find(|f| f.label.is(label))
            .map(|f| &mut f.value)
    }

    /// Whether a field labelled `label` exists.
    pub fn contains(&self, label: &str) -> bool {
        self.field(label).is_some()
    }

    /// Replaces the value of the first field labelled `label` and returns the old value, or
    /// appends a new field when there is none.
    pub fn set(&mut self, label: Label, value: Value) -> Option<Value> {
        match self.fields.iter_mut().find(|f| f.label == label) {
            Some(f) => Some(std::mem::replace(&mut f.value, value)),
            None => {
                self.fields.push(Field { label, value });
                None
            }
        }
    }

    /// Appends a field (even when the label exists already).
    pub fn push(&mut self, label: Label, value: Value) {
        self.fields.push(Field { label, value });
    }

    /// Builder form of [`Struct::push`].
    #[must_use]
    pub fn with(mut self, label: Label, value: Value) -> Struct {
        self.push(label, value);
        self
    }

    /// Removes the first field labelled `label` and returns its value.
    pub fn remove(&mut self, label: &str) -> Option<Value> {
        let i = self.fields.iter().position(|f| f.label.is(label))?;
        Some(self.fields.remove(i).value)
    }

    getter! {
        /// A `BYTE` field.
        get_u8, Byte, u8;
        /// A `CHAR` field.
        get_i8, Char, i8;
        /// A `WORD` field.
        get_u16, Word, u16;
        /// A `SHORT` field.
        get_i16, Short, i16;
        /// A `DWORD` field.
        get_u32, Dword, u32;
        /// An `INT` field.
        get_i32, Int, i32;
        /// A `DWORD64` field.
        get_u64, Dword64, u64;
        /// An `INT64` field.
        get_i64, Int64, i64;
        /// A `FLOAT` field.
        get_f32, Float, f32;
        /// A `DOUBLE` field.
        get_f64, Double, f64;
        /// An `Orientation` field.
        get_orientation, Orientation, [f32; 4];
        /// A `Vector` field.
        get_vector, Vector, [f32; 3];
        /// A `StrRef` field.
        get_strref, StrRef, u32;
    }

    /// Any integer field widened to `i64` (see [`Value::as_int`]).
    pub fn get_int(&self, label: &str) -> Option<i64> {
        self.get(label)?.as_int()
    }

    /// Any numeric field as `f64` (see [`Value::as_number`]).
    pub fn get_number(&self, label: &str) -> Option<f64> {
        self.get(label)?.as_number()
    }

    /// A `CExoString` field.
    pub fn get_string(&self, label: &str) -> Option<&Text> {
        match self.get(label)? {
            Value::String(t) => Some(t),
            _ => None,
        }
    }

    /// A `CResRef` field.
    pub fn get_resref(&self, label: &str) -> Option<&Text> {
        match self.get(label)? {
            Value::ResRef(t) => Some(t),
            _ => None,
        }
    }

    /// A `CExoLocString` field.
    pub fn get_locstring(&self, label: &str) -> Option<&LocString> {
        match self.get(label)? {
            Value::LocString(l) => Some(l),
            _ => None,
        }
    }

    /// A `VOID` field.
    pub fn get_void(&self, label: &str) -> Option<&[u8]> {
        match self.get(label)? {
            Value::Void(v) => Some(v),
            _ => None,
        }
    }

    /// A `Struct` field.
    pub fn get_struct(&self, label: &str) -> Option<&Struct> {
        self.get(label)?.as_struct()
    }

    /// A `Struct` field, mutably.
    pub fn get_struct_mut(&mut self, label: &str) -> Option<&mut Struct> {
        match self.get_mut(label)? {
            Value::Struct(s) => Some(s),
            _ => None,
        }
    }

    /// A `List` field's elements.
    pub fn get_list(&self, label: &str) -> Option<&[Struct]> {
        self.get(label)?.as_list()
    }

    /// A `List` field's elements, mutably (to add, remove or edit elements).
    pub fn get_list_mut(&mut self, label: &str) -> Option<&mut Vec<Struct>> {
        match self.get_mut(label)? {
            Value::List(l) => Some(l),
            _ => None,
        }
    }
}

/// A decoded GFF file: the header's file type and version, and the root struct.
///
/// A `Gff` read from bytes also keeps those bytes (shared, not copied on clone) as its
/// *original layout*: [`write()`](super::write) lays the tree into them while the tree still fits
/// them (see `docs/formats/gff.md`, "Writing"), which gives back the input byte for byte when
/// nothing was changed. Equality compares the file type, version and tree only.
#[derive(Clone)]
pub struct Gff {
    /// Four characters naming the resource type, e.g. `*b"GIT "`, `*b"UTP "`.
    pub file_type: [u8; 4],
    /// `*b"V3.2"` (`*b"V3.3"` in The Witcher; same layout).
    pub version: [u8; 4],
    /// The root struct.
    pub root: Struct,
    pub(crate) original: Option<Arc<[u8]>>,
}

impl PartialEq for Gff {
    fn eq(&self, other: &Gff) -> bool {
        self.file_type == other.file_type
            && self.version == other.version
            && self.root == other.root
    }
}

impl fmt::Debug for Gff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gff")
            .field("file_type", &String::from_utf8_lossy(&self.file_type))
            .field("version", &String::from_utf8_lossy(&self.version))
            .field("root", &self.root)
            .field("original_layout", &self.original.as_ref().map(|o| o.len()))
            .finish()
    }
}

impl Gff {
    /// An empty V3.2 file of this type whose root has id `0xffffffff` and no fields.
    pub fn new(file_type: [u8; 4]) -> Gff {
        Gff {
            file_type,
            version: raw::VERSION_V32,
            root: Struct::new(raw::ROOT_STRUCT_ID),
            original: None,
        }
    }

    /// Whether the file's type is the resource extension `ext` (`"git"` for `GIT `: the
    /// type is the extension in capitals, padded with spaces; letter case ignored).
    pub fn is_type(&self, ext: &str) -> bool {
        let t = self.file_type.trim_ascii_end();
        t.eq_ignore_ascii_case(ext.as_bytes())
    }

    /// The root struct.
    pub fn root(&self) -> &Struct {
        &self.root
    }

    /// The root struct, mutably.
    pub fn root_mut(&mut self) -> &mut Struct {
        &mut self.root
    }

    /// The file type as text, e.g. `"GIT "` (non-ASCII bytes replaced).
    pub fn file_type_str(&self) -> String {
        String::from_utf8_lossy(&self.file_type).into_owned()
    }

    /// Whether the bytes this tree was read from are kept as its original layout.
    pub fn has_original_layout(&self) -> bool {
        self.original.is_some()
    }

    /// The bytes this tree was read from, if kept.
    pub fn original_bytes(&self) -> Option<&[u8]> {
        self.original.as_deref()
    }

    /// Drops the original layout: the next [`write()`](super::write) lays the file out
    /// canonically.
    pub fn forget_layout(&mut self) {
        self.original = None;
    }

    /// The counts `areakit info` shows (see [`Summary`]).
    pub fn summary(&self) -> Summary {
        let mut s = Summary {
            file_type: self.file_type_str(),
            version: String::from_utf8_lossy(&self.version).into_owned(),
            structs: 0,
            fields: 0,
            labels: 0,
            lists: 0,
            list_elements: 0,
            depth: 0,
        };
        let mut labels = std::collections::HashSet::new();
        let mut stack = vec![(&self.root, 0usize)];
        while let Some((st, depth)) = stack.pop() {
            s.structs += 1;
            s.depth = s.depth.max(depth);
            for f in &st.fields {
                s.fields += 1;
                labels.insert(f.label);
                match &f.value {
                    Value::Struct(c) => stack.push((c, depth + 1)),
                    Value::List(l) => {
                        s.lists += 1;
                        s.list_elements += l.len();
                        stack.extend(l.iter().map(|c| (c, depth + 1)));
                    }
                    _ => {}
                }
            }
        }
        s.labels = labels.len();
        s
    }
}

/// What `areakit info` reports about a GFF, counted over the tree (in every corpus file these
/// equal the header's counts: no file has unreferenced structs, fields or labels, nor a label
/// stored twice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The four-character file type, e.g. `"GIT "`.
    pub file_type: String,
    /// The version, e.g. `"V3.2"`.
    pub version: String,
    /// Structs, the root included.
    pub structs: usize,
    /// Fields.
    pub fields: usize,
    /// Distinct labels.
    pub labels: usize,
    /// `List` fields.
    pub lists: usize,
    /// Structs in lists.
    pub list_elements: usize,
    /// Deepest struct nesting (the root is 0).
    pub depth: usize,
}

/// `Err` when `n` does not fit a `u32` (`what` names it).
pub(crate) fn u32_of(n: usize, what: &str) -> Result<u32, EncodeError> {
    u32::try_from(n).map_err(|_| EncodeError(format!("{what}: {n} does not fit in 32 bits")))
}
