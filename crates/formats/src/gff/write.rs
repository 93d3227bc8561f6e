//! Encoding a [`Gff`] tree to bytes: into its original layout while the tree fits it, else in
//! the canonical layout.
//!
//! **Original layout.** A tree read from bytes keeps them. The writer walks those bytes' struct
//! graph in step with the tree and writes every value where it was: struct ids into their
//! records, labels into their label slots, inline values into their field records, field data
//! at its offsets, list lengths and struct indices where they were. Bytes no value owns (gaps,
//! stale field-index runs, unused high bytes of inline values, padding after label NULs, a
//! loc string's size word) stay as they were. This succeeds when the tree has the same shape as
//! the file: the same number of fields in every struct, the same types, the same list lengths,
//! and variable-size values (strings, resrefs, loc strings, VOID) of the same encoded length;
//! and when no two values that share bytes in the file (a label used by several fields, field
//! data named twice) now disagree, and no value would change a byte the reader navigates by (the
//! header's table words, struct and field records' type, label, offset and count words, field
//! index runs, list lengths and indices: a damaged or hand-packed file can overlap its tables,
//! and a value written over them would change the file's shape). An unmodified tree always fits
//! and gives back the input byte for byte. Otherwise the whole file is laid out canonically.
//!
//! **Canonical layout** (the order of the game's own writer, which all 35 loose corpus GFFs
//! and 5,290 of the 5,980 GFF members of the corpus capsules follow exactly): structs numbered
//! in depth-first pre-order; fields numbered in the order a recursive writer emits them (a
//! struct's fields in order, the fields of a `Struct` or `List` field's structs right after
//! that field, before the next field of the parent); labels stored once each, in order of
//! first use by field number; field data, field index runs (in struct order, only for structs
//! with two or more fields) and list index runs (in field order) packed without gaps; the six
//! tables in the order structs, fields, labels, field data, field indices, list indices,
//! directly after the header. A struct without fields
//! stores `0xffffffff` as its data word; inline values store zero high bytes.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::model::{Field, Gff, Label, LocString, Struct, Value, u32_of};
use super::raw::{self, Header};
use super::read::Tables;
use crate::error::EncodeError;

/// Encodes a GFF: into its original layout when the tree still fits it (byte-exact for an
/// unmodified tree), else in the canonical layout (see the module documentation).
pub fn write(gff: &Gff) -> Result<Vec<u8>, EncodeError> {
    check_version(gff)?;
    if let Some(orig) = &gff.original {
        if let Some(out) = write_in_place(gff, orig) {
            return Ok(out);
        }
    }
    write_canonical(gff)
}

/// Whether [`write()`] would keep the original layout (the tree still fits the bytes it was read
/// from). Costs as much as a write.
pub fn fits_original_layout(gff: &Gff) -> bool {
    gff.original
        .as_ref()
        .is_some_and(|o| write_in_place(gff, o).is_some())
}

/// Encodes a GFF in the canonical layout, whatever layout it was read with.
pub fn write_canonical(gff: &Gff) -> Result<Vec<u8>, EncodeError> {
    check_version(gff)?;
    let flat = Flat::new(&gff.root)?;
    let numbering = flat.canonical();
    lay_out(gff, &flat, &numbering)
}

fn check_version(gff: &Gff) -> Result<(), EncodeError> {
    if gff.version != raw::VERSION_V32 && gff.version != raw::VERSION_V33 {
        return Err(EncodeError(format!(
            "GFF version {:?} cannot be written (only V3.2 and V3.3)",
            String::from_utf8_lossy(&gff.version)
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Original layout

struct InPlace<'a> {
    t: Tables<'a>,
    out: Vec<u8>,
    /// Bytes written by this pass: writing different bytes there again is a conflict.
    written: Vec<bool>,
}

impl InPlace<'_> {
    fn put(&mut self, at: usize, bytes: &[u8]) -> Option<()> {
        let end = at.checked_add(bytes.len())?;
        let out = self.out.get_mut(at..end)?;
        let written = &mut self.written[at..end];
        for ((o, w), &b) in out.iter_mut().zip(written.iter_mut()).zip(bytes) {
            if *w && *o != b {
                return None;
            }
            *o = b;
            *w = true;
        }
        Some(())
    }

    /// Claims `len` bytes the reader navigates by, with their original values: a value written
    /// there before or after is a conflict (it would change the file's shape).
    fn keep(&mut self, at: usize, len: usize) -> Option<()> {
        let orig = self.t.data;
        self.put(at, orig.get(at..at.checked_add(len)?)?)
    }

    fn put_struct(&mut self, s: u32, st: &Struct) -> Option<()> {
        let rec = self.t.struct_record(s)?;
        if rec.count as usize != st.fields.len() {
            return None;
        }
        self.put(rec.at, &st.id.to_le_bytes())?;
        self.keep(rec.at + 4, 8)?;
        for (k, field) in st.fields.iter().enumerate() {
            if rec.count > 1 {
                self.keep(self.t.field_index_at(&rec, k as u32)?, 4)?;
            }
            let f = self.t.field_of(&rec, k as u32)?;
            self.put_field(f, field)?;
        }
        Some(())
    }

    fn put_label(&mut self, l: u32, label: &Label) -> Option<()> {
        let at = self.t.label_at(l)?;
        self.put(at, label.as_bytes())?;
        if label.len() < raw::LABEL_SIZE {
            self.put(at + label.len(), &[0])?;
        }
        Some(())
    }

    fn put_field(&mut self, f: u32, field: &Field) -> Option<()> {
        let fr = self.t.field_record(f)?;
        if fr.type_id != field.value.type_id() {
            return None;
        }
        self.keep(fr.at, 8)?;
        self.put_label(fr.label, &field.label)?;
        let inline = fr.at + 8;
        if inline_word(&field.value).is_none() {
            // An offset (field data, struct index or list indices) the reader follows.
            self.keep(inline, 4)?;
        }
        let d = fr.data;
        match &field.value {
            Value::Byte(v) => self.put(inline, &[*v]),
            Value::Char(v) => self.put(inline, &[*v as u8]),
            Value::Word(v) => self.put(inline, &v.to_le_bytes()),
            Value::Short(v) => self.put(inline, &v.to_le_bytes()),
            Value::Dword(v) => self.put(inline, &v.to_le_bytes()),
            Value::Int(v) => self.put(inline, &v.to_le_bytes()),
            Value::Float(v) => self.put(inline, &v.to_bits().to_le_bytes()),
            Value::Unknown { data, .. } => self.put(inline, &data.to_le_bytes()),
            Value::Dword64(v) => self.put(self.t.field_data_at(d, 8)?, &v.to_le_bytes()),
            Value::Int64(v) => self.put(self.t.field_data_at(d, 8)?, &v.to_le_bytes()),
            Value::Double(v) => self.put(self.t.field_data_at(d, 8)?, &v.to_bits().to_le_bytes()),
            Value::Orientation(q) => {
                let at = self.t.field_data_at(d, 16)?;
                self.put(at, &f32s_bytes(q))
            }
            Value::Vector(v) => {
                let at = self.t.field_data_at(d, 12)?;
                self.put(at, &f32s_bytes(v))
            }
            Value::StrRef(v) => self.put(self.t.field_data_at(d, 8)? + 4, &v.to_le_bytes()),
            Value::String(_) | Value::ResRef(_) | Value::Void(_) | Value::LocString(_) => {
                let old = self.t.value_len(fr.type_id, d)?;
                let mut bytes = Vec::new();
                encode_data(&field.value, &mut bytes).ok()?;
                if bytes.len() as u64 != old {
                    return None;
                }
                let at = self.t.field_data_at(d, old)?;
                if let Value::LocString(_) = field.value {
                    // The size word stays as stored (it may disagree with the substrings).
                    self.put(at + 4, &bytes[4..])
                } else {
                    self.put(at, &bytes)
                }
            }
            Value::Struct(c) => self.put_struct(d, c),
            Value::List(l) => {
                let at = self.t.list_at(d, 4)?;
                if self.t.word(at)? as usize != l.len() {
                    return None;
                }
                self.keep(at, 4 + 4 * l.len())?;
                for (i, c) in l.iter().enumerate() {
                    let s = self.t.word(at + 4 + 4 * i)?;
                    self.put_struct(s, c)?;
                }
                Some(())
            }
        }
    }
}

fn f32s_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_bits().to_le_bytes()).collect()
}

/// Lays the tree into the bytes it was read from; `None` when it no longer fits them.
fn write_in_place(gff: &Gff, orig: &[u8]) -> Option<Vec<u8>> {
    let t = Tables::parse(orig).ok()?;
    let mut w = InPlace {
        t,
        out: orig.to_vec(),
        written: vec![false; orig.len()],
    };
    w.put(0, &gff.file_type)?;
    w.put(4, &gff.version)?;
    w.keep(8, raw::HEADER_SIZE - 8)?;
    w.put_struct(0, &gff.root)?;
    Some(w.out)
}

// ---------------------------------------------------------------------------------------------
// Canonical (and other numbered) layouts

/// The tree flattened: structs by depth-first pre-order number, fields by *walk number*
/// (numbered struct by struct in pre-order, in order within each struct).
pub(crate) struct Flat<'a> {
    /// `(struct, walk number of its first field)` by pre-order number.
    pub structs: Vec<(&'a Struct, u32)>,
    /// `(field, child)` by walk number; `child` is the pre-order number of a `Struct` value's
    /// struct, or the start in `list_elems` of a `List` value's elements.
    pub fields: Vec<(&'a Field, u32)>,
    /// Pre-order numbers of list elements, each list's elements together.
    pub list_elems: Vec<u32>,
}

/// Which struct and which field goes at each index of the struct and field arrays.
pub(crate) struct Numbering {
    /// Pre-order number of the struct at each struct index.
    pub structs: Vec<u32>,
    /// Walk number of the field at each field index.
    pub fields: Vec<u32>,
}

impl<'a> Flat<'a> {
    pub fn new(root: &'a Struct) -> Result<Flat<'a>, EncodeError> {
        let mut flat = Flat {
            structs: Vec::new(),
            fields: Vec::new(),
            list_elems: Vec::new(),
        };
        flat.visit(root, 0)?;
        u32_of(flat.structs.len(), "struct count")?;
        u32_of(flat.fields.len(), "field count")?;
        Ok(flat)
    }

    fn visit(&mut self, st: &'a Struct, depth: usize) -> Result<u32, EncodeError> {
        if depth > raw::MAX_DEPTH {
            return Err(EncodeError(format!(
                "structs nest deeper than {} levels",
                raw::MAX_DEPTH
            )));
        }
        let id = self.structs.len() as u32;
        let first = self.fields.len();
        self.structs.push((st, first as u32));
        self.fields.extend(st.fields.iter().map(|f| (f, 0)));
        for (k, f) in st.fields.iter().enumerate() {
            match &f.value {
                Value::Struct(c) => {
                    let child = self.visit(c, depth + 1)?;
                    self.fields[first + k].1 = child;
                }
                Value::List(l) => {
                    let start = self.list_elems.len();
                    self.fields[first + k].1 = u32_of(start, "list index count")?;
                    self.list_elems.resize(start + l.len(), 0);
                    for (i, c) in l.iter().enumerate() {
                        self.list_elems[start + i] = self.visit(c, depth + 1)?;
                    }
                }
                _ => {}
            }
        }
        Ok(id)
    }

    /// The game's order: structs in pre-order, fields as a recursive writer emits them.
    pub fn canonical(&self) -> Numbering {
        let mut fields = Vec::with_capacity(self.fields.len());
        // Explicit stack of (struct, next field) so that deep trees cost no call stack.
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        while let Some(top) = stack.last_mut() {
            let (p, k) = *top;
            let (st, first) = self.structs[p as usize];
            if k == st.fields.len() {
                stack.pop();
                continue;
            }
            top.1 += 1;
            let w = first + k as u32;
            fields.push(w);
            let (field, child) = self.fields[w as usize];
            match &field.value {
                Value::Struct(_) => stack.push((child, 0)),
                Value::List(l) => {
                    // Push the elements in reverse so the first is visited first.
                    for i in (0..l.len()).rev() {
                        stack.push((self.list_elems[child as usize + i], 0));
                    }
                }
                _ => {}
            }
        }
        Numbering {
            structs: (0..self.structs.len() as u32).collect(),
            fields,
        }
    }

    /// The elements' pre-order numbers of the list value whose field has walk number `w`.
    pub fn list_of(&self, w: u32) -> &[u32] {
        let (field, start) = self.fields[w as usize];
        let n = field.value.as_list().map_or(0, <[Struct]>::len);
        &self.list_elems[start as usize..start as usize + n]
    }
}

/// Encoded size in the field data (0 for values stored inline).
fn data_len(v: &Value) -> u64 {
    match v {
        Value::Dword64(_) | Value::Int64(_) | Value::Double(_) | Value::StrRef(_) => 8,
        Value::String(t) => 4 + t.len() as u64,
        Value::ResRef(t) => 1 + t.len() as u64,
        Value::Void(b) => 4 + b.len() as u64,
        Value::LocString(l) => 4 + l.body_len(),
        Value::Orientation(_) => 16,
        Value::Vector(_) => 12,
        _ => 0,
    }
}

fn encode_locstring(l: &LocString, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let body = u32::try_from(l.body_len())
        .map_err(|_| EncodeError("CExoLocString longer than 4 GiB".into()))?;
    out.extend_from_slice(&body.to_le_bytes());
    out.extend_from_slice(&l.strref.to_le_bytes());
    out.extend_from_slice(&u32_of(l.strings.len(), "CExoLocString substring count")?.to_le_bytes());
    for s in &l.strings {
        out.extend_from_slice(&s.id.to_le_bytes());
        out.extend_from_slice(
            &u32_of(s.text.len(), "CExoLocString substring length")?.to_le_bytes(),
        );
        out.extend_from_slice(s.text.as_bytes());
    }
    Ok(())
}

/// Appends a value's field data (nothing for inline values).
fn encode_data(v: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    match v {
        Value::Dword64(x) => out.extend_from_slice(&x.to_le_bytes()),
        Value::Int64(x) => out.extend_from_slice(&x.to_le_bytes()),
        Value::Double(x) => out.extend_from_slice(&x.to_bits().to_le_bytes()),
        Value::StrRef(x) => {
            out.extend_from_slice(&4u32.to_le_bytes());
            out.extend_from_slice(&x.to_le_bytes());
        }
        Value::String(t) => {
            out.extend_from_slice(&u32_of(t.len(), "CExoString length")?.to_le_bytes());
            out.extend_from_slice(t.as_bytes());
        }
        Value::ResRef(t) => {
            let n = u8::try_from(t.len()).map_err(|_| {
                EncodeError(format!(
                    "CResRef {:?} has {} bytes; at most 255 fit",
                    t.to_str(),
                    t.len()
                ))
            })?;
            out.push(n);
            out.extend_from_slice(t.as_bytes());
        }
        Value::Void(b) => {
            out.extend_from_slice(&u32_of(b.len(), "VOID length")?.to_le_bytes());
            out.extend_from_slice(b);
        }
        Value::LocString(l) => encode_locstring(l, out)?,
        Value::Orientation(q) => out.extend_from_slice(&f32s_bytes(q)),
        Value::Vector(v) => out.extend_from_slice(&f32s_bytes(v)),
        _ => {}
    }
    Ok(())
}

/// The inline data word of a value stored in its field record (`None` for the others).
fn inline_word(v: &Value) -> Option<u32> {
    Some(match *v {
        Value::Byte(x) => u32::from(x),
        Value::Char(x) => u32::from(x as u8),
        Value::Word(x) => u32::from(x),
        Value::Short(x) => u32::from(x as u16),
        Value::Dword(x) => x,
        Value::Int(x) => x as u32,
        Value::Float(x) => x.to_bits(),
        Value::Unknown { data, .. } => data,
        _ => return None,
    })
}

fn inverse(order: &[u32], n: usize, what: &str) -> Result<Vec<u32>, EncodeError> {
    let mut inv = vec![u32::MAX; n];
    if order.len() != n {
        return Err(EncodeError(format!(
            "{what} numbering has {} entries for {n} items",
            order.len()
        )));
    }
    for (k, &x) in order.iter().enumerate() {
        match inv.get_mut(x as usize) {
            Some(slot) if *slot == u32::MAX => *slot = k as u32,
            _ => {
                return Err(EncodeError(format!(
                    "{what} numbering is not a permutation (entry {k} = {x})"
                )));
            }
        }
    }
    Ok(inv)
}

/// FNV-1a: labels are short, trusted keys of a map the writer builds itself.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type LabelHash = BuildHasherDefault<Fnv>;

/// Writes the tables for a numbering, packed in the canonical table order.
pub(crate) fn lay_out(gff: &Gff, flat: &Flat<'_>, n: &Numbering) -> Result<Vec<u8>, EncodeError> {
    let struct_index = inverse(&n.structs, flat.structs.len(), "struct")?;
    let field_index = inverse(&n.fields, flat.fields.len(), "field")?;

    // Sizes, and the label table (first use by field index).
    let mut labels: Vec<Label> = Vec::new();
    let mut label_of: HashMap<Label, u32, LabelHash> = HashMap::default();
    let mut field_label = Vec::with_capacity(n.fields.len());
    let mut data_size = 0u64;
    let mut list_size = 0u64;
    for &w in &n.fields {
        let (field, _) = flat.fields[w as usize];
        let l = *label_of.entry(field.label).or_insert_with(|| {
            labels.push(field.label);
            labels.len() as u32 - 1
        });
        field_label.push(l);
        data_size += data_len(&field.value);
        if let Value::List(l) = &field.value {
            list_size += 4 + 4 * l.len() as u64;
        }
    }
    let index_size: u64 = flat
        .structs
        .iter()
        .map(|(st, _)| st.fields.len() as u64)
        .filter(|&c| c > 1)
        .map(|c| 4 * c)
        .sum();

    let struct_offset = raw::HEADER_SIZE as u64;
    let field_offset = struct_offset + raw::STRUCT_SIZE as u64 * flat.structs.len() as u64;
    let label_offset = field_offset + raw::FIELD_SIZE as u64 * flat.fields.len() as u64;
    let data_offset = label_offset + raw::LABEL_SIZE as u64 * labels.len() as u64;
    let index_offset = data_offset + data_size;
    let list_offset = index_offset + index_size;
    let total = list_offset + list_size;
    if total > u64::from(u32::MAX) {
        return Err(EncodeError(format!(
            "{total} bytes do not fit the 32-bit offsets of a GFF"
        )));
    }
    let header = Header {
        file_type: gff.file_type,
        version: gff.version,
        struct_offset: struct_offset as u32,
        struct_count: flat.structs.len() as u32,
        field_offset: field_offset as u32,
        field_count: flat.fields.len() as u32,
        label_offset: label_offset as u32,
        label_count: labels.len() as u32,
        field_data_offset: data_offset as u32,
        field_data_size: data_size as u32,
        field_indices_offset: index_offset as u32,
        field_indices_size: index_size as u32,
        list_indices_offset: list_offset as u32,
        list_indices_size: list_size as u32,
    };

    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(&header.to_bytes());
    // Struct array, and the field index runs in struct order.
    let mut indices = Vec::with_capacity(index_size as usize);
    for &p in &n.structs {
        let (st, first) = flat.structs[p as usize];
        let data = match st.fields.len() {
            0 => raw::EMPTY_STRUCT_DATA,
            1 => field_index[first as usize],
            c => {
                let at = indices.len() as u32;
                for k in 0..c as u32 {
                    indices.extend_from_slice(&field_index[(first + k) as usize].to_le_bytes());
                }
                at
            }
        };
        out.extend_from_slice(&st.id.to_le_bytes());
        out.extend_from_slice(&data.to_le_bytes());
        out.extend_from_slice(&(st.fields.len() as u32).to_le_bytes());
    }
    // Field array, field data and list indices in field order.
    let mut data = Vec::with_capacity(data_size as usize);
    let mut lists = Vec::with_capacity(list_size as usize);
    for (k, &w) in n.fields.iter().enumerate() {
        let (field, child) = flat.fields[w as usize];
        let word = match &field.value {
            v @ (Value::Byte(_)
            | Value::Char(_)
            | Value::Word(_)
            | Value::Short(_)
            | Value::Dword(_)
            | Value::Int(_)
            | Value::Float(_)
            | Value::Unknown { .. }) => inline_word(v).unwrap_or(0),
            Value::Struct(_) => struct_index[child as usize],
            Value::List(_) => {
                let at = lists.len() as u32;
                let elems = flat.list_of(w);
                lists.extend_from_slice(&(elems.len() as u32).to_le_bytes());
                for &e in elems {
                    lists.extend_from_slice(&struct_index[e as usize].to_le_bytes());
                }
                at
            }
            v => {
                let at = data.len() as u32;
                encode_data(v, &mut data)?;
                at
            }
        };
        out.extend_from_slice(&field.value.type_id().to_le_bytes());
        out.extend_from_slice(&field_label[k].to_le_bytes());
        out.extend_from_slice(&word.to_le_bytes());
    }
    for l in &labels {
        out.extend_from_slice(l.padded());
    }
    out.extend_from_slice(&data);
    out.extend_from_slice(&indices);
    out.extend_from_slice(&lists);
    debug_assert_eq!(out.len() as u64, total);
    Ok(out)
}
