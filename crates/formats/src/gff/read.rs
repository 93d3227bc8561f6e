//! Decoding GFF bytes into a [`Gff`] tree.
//!
//! The reader checks the header's six tables against the input before it allocates anything,
//! then walks the struct graph from struct 0. Each struct and each field record may be reached
//! once: a second path to one (a cycle, or a struct or field shared by two parents) is an
//! error, so the tree is never larger than the file and the walk is linear. Nesting deeper
//! than [`MAX_DEPTH`](raw::MAX_DEPTH) is an error too. Field data may be shared between fields
//! as long as the strings, loc strings and VOID bytes read in all do not exceed the field data
//! size (real files never share it).

use std::sync::Arc;

use super::model::{Field, Gff, Label, LocString, LocSubString, Struct, Text, Value};
use super::raw::{self, Header, types};
use crate::error::{DecodeError, ErrorKind};

/// The six tables of a GFF file whose ranges have been checked against the input.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tables<'a> {
    pub data: &'a [u8],
    pub header: Header,
}

fn word(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// One struct record.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StructRecord {
    /// File offset of the record.
    pub at: usize,
    pub id: u32,
    pub data: u32,
    pub count: u32,
}

/// One field record.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FieldRecord {
    /// File offset of the record.
    pub at: usize,
    pub type_id: u32,
    pub label: u32,
    pub data: u32,
}

impl<'a> Tables<'a> {
    /// Checks the header and that every table lies inside the input.
    pub fn parse(data: &'a [u8]) -> Result<Tables<'a>, DecodeError> {
        crate::census::decoded("gff");
        let Some(head) = data.first_chunk::<{ raw::HEADER_SIZE }>() else {
            return Err(DecodeError::malformed_at(
                data.len() as u64,
                format!(
                    "expected a {}-byte GFF header, but the input has {} bytes",
                    raw::HEADER_SIZE,
                    data.len()
                ),
            ));
        };
        let header = Header::parse(head);
        if header.version != raw::VERSION_V32 && header.version != raw::VERSION_V33 {
            let shown = show4(&header.version);
            let kind = if header.version.starts_with(b"V") {
                ErrorKind::Unsupported
            } else {
                ErrorKind::Malformed
            };
            return Err(DecodeError::new(
                kind,
                crate::Location::Offset(4),
                format!("expected GFF version \"V3.2\", found {shown}"),
            ));
        }
        for (name, at, offset, len) in header.sections() {
            if offset + len > data.len() as u64 {
                return Err(DecodeError::malformed_at(
                    at as u64,
                    format!(
                        "the {name} ({len} bytes at offset {offset:#x}) runs past the end of the input ({:#x} bytes)",
                        data.len()
                    ),
                ));
            }
        }
        if header.struct_count == 0 {
            return Err(DecodeError::malformed_at(
                12,
                "the struct array is empty: there is no root struct",
            ));
        }
        Ok(Tables { data, header })
    }

    /// Struct record `s` (`None` when out of range).
    pub fn struct_record(&self, s: u32) -> Option<StructRecord> {
        if s >= self.header.struct_count {
            return None;
        }
        let at = self.header.struct_offset as usize + s as usize * raw::STRUCT_SIZE;
        Some(StructRecord {
            at,
            id: word(self.data, at)?,
            data: word(self.data, at + 4)?,
            count: word(self.data, at + 8)?,
        })
    }

    /// Field record `f` (`None` when out of range).
    pub fn field_record(&self, f: u32) -> Option<FieldRecord> {
        if f >= self.header.field_count {
            return None;
        }
        let at = self.header.field_offset as usize + f as usize * raw::FIELD_SIZE;
        Some(FieldRecord {
            at,
            type_id: word(self.data, at)?,
            label: word(self.data, at + 4)?,
            data: word(self.data, at + 8)?,
        })
    }

    /// File offset of label `l` (`None` when out of range).
    pub fn label_at(&self, l: u32) -> Option<usize> {
        (l < self.header.label_count)
            .then(|| self.header.label_offset as usize + l as usize * raw::LABEL_SIZE)
    }

    /// Label `l`.
    pub fn label(&self, l: u32) -> Option<Label> {
        let at = self.label_at(l)?;
        let b = self.data.get(at..at + raw::LABEL_SIZE)?;
        Some(Label::from_raw(b.try_into().ok()?))
    }

    /// File offset of the `k`-th field index of a struct record with more than one field
    /// (`None` when it lies outside the field indices array).
    pub fn field_index_at(&self, rec: &StructRecord, k: u32) -> Option<usize> {
        let rel = u64::from(rec.data) + 4 * u64::from(k);
        (rel + 4 <= u64::from(self.header.field_indices_size))
            .then(|| self.header.field_indices_offset as usize + rel as usize)
    }

    /// The field index of the `k`-th field of a struct record.
    pub fn field_of(&self, rec: &StructRecord, k: u32) -> Option<u32> {
        if k >= rec.count {
            return None;
        }
        if rec.count == 1 {
            return Some(rec.data);
        }
        word(self.data, self.field_index_at(rec, k)?)
    }

    /// File offset of `len` bytes at `rel` in the field data (`None` when outside it).
    pub fn field_data_at(&self, rel: u32, len: u64) -> Option<usize> {
        (u64::from(rel) + len <= u64::from(self.header.field_data_size))
            .then(|| self.header.field_data_offset as usize + rel as usize)
    }

    /// File offset of `len` bytes at `rel` in the list indices (`None` when outside it).
    pub fn list_at(&self, rel: u32, len: u64) -> Option<usize> {
        (u64::from(rel) + len <= u64::from(self.header.list_indices_size))
            .then(|| self.header.list_indices_offset as usize + rel as usize)
    }

    /// Reads a `u32` at a file offset.
    pub fn word(&self, at: usize) -> Option<u32> {
        word(self.data, at)
    }

    /// The meaningful length of a variable-size value of `type_id` at field data offset `rel`
    /// (the bytes the reader interprets): `None` for fixed-size or inline types, or when it
    /// does not lie inside the field data.
    pub fn value_len(&self, type_id: u32, rel: u32) -> Option<u64> {
        match type_id {
            types::EXO_STRING | types::VOID => {
                let n = self.word(self.field_data_at(rel, 4)?)?;
                Some(4 + u64::from(n))
            }
            types::RES_REF => {
                let at = self.field_data_at(rel, 1)?;
                Some(1 + u64::from(*self.data.get(at)?))
            }
            types::LOC_STRING => {
                let at = self.field_data_at(rel, 12)?;
                let count = self.word(at + 8)?;
                let mut len = 12u64;
                for _ in 0..count {
                    self.field_data_at(rel, len + 8)?;
                    let n = self.word(at + len as usize + 4)?;
                    len += 8 + u64::from(n);
                }
                self.field_data_at(rel, len)?;
                Some(len)
            }
            _ => None,
        }
    }
}

fn show4(b: &[u8; 4]) -> String {
    if b.iter().all(|c| c.is_ascii_graphic() || *c == b' ') {
        format!("\"{}\"", String::from_utf8_lossy(b))
    } else {
        format!("{b:02x?}")
    }
}

struct Reader<'a> {
    t: Tables<'a>,
    struct_seen: Vec<bool>,
    field_seen: Vec<bool>,
    /// Struct indices from the root to the struct being read.
    path: Vec<u32>,
    /// Field data bytes that may still be read into strings, loc strings and VOIDs.
    budget: u64,
}

fn malformed(at: usize, msg: impl Into<String>) -> DecodeError {
    DecodeError::malformed_at(at as u64, msg)
}

impl<'a> Reader<'a> {
    /// Reads struct `s`, referenced from the word at file offset `ref_at`.
    fn read_struct(&mut self, s: u32, depth: usize, ref_at: usize) -> Result<Struct, DecodeError> {
        let h = self.t.header;
        let Some(rec) = self.t.struct_record(s) else {
            return Err(malformed(
                ref_at,
                format!(
                    "struct index {s} is out of range (the struct array has {} structs)",
                    h.struct_count
                ),
            ));
        };
        if self.struct_seen[s as usize] {
            let msg = if self.path.contains(&s) {
                format!("struct {s} contains itself (a cycle through its ancestors)")
            } else {
                format!(
                    "struct {s} is reached a second time (shared by two parents): each struct must have one parent"
                )
            };
            return Err(malformed(ref_at, msg));
        }
        if depth > raw::MAX_DEPTH {
            return Err(DecodeError::limit_at(
                ref_at as u64,
                format!("struct {s} nests deeper than {} levels", raw::MAX_DEPTH),
            ));
        }
        self.struct_seen[s as usize] = true;
        self.path.push(s);
        let result = self.read_fields(s, &rec, depth);
        self.path.pop();
        Ok(Struct {
            id: rec.id,
            fields: result?,
        })
    }

    fn read_fields(
        &mut self,
        s: u32,
        rec: &StructRecord,
        depth: usize,
    ) -> Result<Vec<Field>, DecodeError> {
        let h = self.t.header;
        if rec.count > 1 {
            let need = u64::from(rec.data) + 4 * u64::from(rec.count);
            if need > u64::from(h.field_indices_size) {
                return Err(malformed(
                    rec.at + 4,
                    format!(
                        "struct {s}: {} field indices at offset {:#x} of the field indices run past its end ({} bytes)",
                        rec.count, rec.data, h.field_indices_size
                    ),
                ));
            }
        } else if rec.count == 1 && rec.data >= h.field_count {
            return Err(malformed(
                rec.at + 4,
                format!(
                    "struct {s}: field index {} is out of range (the field array has {} fields)",
                    rec.data, h.field_count
                ),
            ));
        }
        // Bounded: one field index per 4 bytes of the field indices (checked above).
        let mut fields = Vec::with_capacity(rec.count as usize);
        for k in 0..rec.count {
            let (f, f_at) = if rec.count == 1 {
                (rec.data, rec.at + 4)
            } else {
                // In range: checked above.
                let at = self.t.field_index_at(rec, k).unwrap_or(rec.at + 4);
                (self.t.word(at).unwrap_or(u32::MAX), at)
            };
            let field = self
                .read_field(f, f_at, depth)
                .map_err(|e| e.within(format!("struct {s} field {k}")))?;
            fields.push(field);
        }
        Ok(fields)
    }

    fn read_field(&mut self, f: u32, f_at: usize, depth: usize) -> Result<Field, DecodeError> {
        let h = self.t.header;
        let Some(fr) = self.t.field_record(f) else {
            return Err(malformed(
                f_at,
                format!(
                    "field index {f} is out of range (the field array has {} fields)",
                    h.field_count
                ),
            ));
        };
        if self.field_seen[f as usize] {
            return Err(malformed(
                f_at,
                format!("field {f} is used a second time: each field must belong to one struct"),
            ));
        }
        self.field_seen[f as usize] = true;
        let Some(label) = self.t.label(fr.label) else {
            return Err(malformed(
                fr.at + 4,
                format!(
                    "field {f}: label index {} is out of range (the label array has {} labels)",
                    fr.label, h.label_count
                ),
            ));
        };
        let value = self.read_value(&fr, depth).map_err(|e| {
            e.within(format!(
                "field record {f} {:?} ({})",
                label.to_string(),
                raw::type_name(fr.type_id)
            ))
        })?;
        Ok(Field { label, value })
    }

    /// The file offset of `len` field data bytes at `rel`, or an error at the data word.
    fn data_at(
        &self,
        fr: &FieldRecord,
        rel: u32,
        len: u64,
        what: &str,
    ) -> Result<usize, DecodeError> {
        self.t.field_data_at(rel, len).ok_or_else(|| {
            malformed(
                fr.at + 8,
                format!(
                    "{what} ({len} bytes at field data offset {rel:#x}) runs past the end of the field data ({} bytes)",
                    self.t.header.field_data_size
                ),
            )
        })
    }

    fn spend(&mut self, n: u64, at: usize) -> Result<(), DecodeError> {
        if n > self.budget {
            return Err(DecodeError::limit_at(
                at as u64,
                format!(
                    "the fields read more string and VOID bytes than the field data holds ({} bytes): field data shared too often",
                    self.t.header.field_data_size
                ),
            ));
        }
        self.budget -= n;
        Ok(())
    }

    /// `len`-prefixed bytes (`u32` or `u8` prefix) at field data offset `rel`.
    fn prefixed(
        &mut self,
        fr: &FieldRecord,
        prefix: u64,
        what: &str,
    ) -> Result<Vec<u8>, DecodeError> {
        let at = self.data_at(fr, fr.data, prefix, what)?;
        let n = if prefix == 1 {
            u64::from(self.t.data[at])
        } else {
            u64::from(self.t.word(at).unwrap_or(0))
        };
        let body = self.t.field_data_at(fr.data, prefix + n).ok_or_else(|| {
            malformed(
                at,
                format!(
                    "{what} of {n} bytes runs past the end of the field data ({} bytes)",
                    self.t.header.field_data_size
                ),
            )
        })?;
        self.spend(prefix + n, at)?;
        let start = body + prefix as usize;
        Ok(self.t.data[start..start + n as usize].to_vec())
    }

    fn fixed<const N: usize>(&self, fr: &FieldRecord, what: &str) -> Result<[u8; N], DecodeError> {
        let at = self.data_at(fr, fr.data, N as u64, what)?;
        let mut b = [0u8; N];
        b.copy_from_slice(&self.t.data[at..at + N]);
        Ok(b)
    }

    fn read_value(&mut self, fr: &FieldRecord, depth: usize) -> Result<Value, DecodeError> {
        let d = fr.data;
        fn f32s<const N: usize, const B: usize>(b: &[u8; B]) -> [f32; N] {
            std::array::from_fn(|i| {
                f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
            })
        }
        Ok(match fr.type_id {
            types::BYTE => Value::Byte(d as u8),
            types::CHAR => Value::Char(d as u8 as i8),
            types::WORD => Value::Word(d as u16),
            types::SHORT => Value::Short(d as u16 as i16),
            types::DWORD => Value::Dword(d),
            types::INT => Value::Int(d as i32),
            types::FLOAT => Value::Float(f32::from_bits(d)),
            types::DWORD64 => Value::Dword64(u64::from_le_bytes(self.fixed(fr, "DWORD64")?)),
            types::INT64 => Value::Int64(i64::from_le_bytes(self.fixed(fr, "INT64")?)),
            types::DOUBLE => Value::Double(f64::from_le_bytes(self.fixed(fr, "DOUBLE")?)),
            types::EXO_STRING => {
                Value::String(Text::from_bytes(self.prefixed(fr, 4, "CExoString")?))
            }
            types::RES_REF => Value::ResRef(Text::from_bytes(self.prefixed(fr, 1, "CResRef")?)),
            types::VOID => Value::Void(self.prefixed(fr, 4, "VOID data")?),
            types::LOC_STRING => Value::LocString(self.read_locstring(fr)?),
            types::ORIENTATION => Value::Orientation(f32s(&self.fixed::<16>(fr, "Orientation")?)),
            types::VECTOR => Value::Vector(f32s(&self.fixed::<12>(fr, "Vector")?)),
            types::STR_REF => {
                let b = self.fixed::<8>(fr, "StrRef")?;
                Value::StrRef(u32::from_le_bytes([b[4], b[5], b[6], b[7]]))
            }
            types::STRUCT => Value::Struct(Box::new(self.read_struct(d, depth + 1, fr.at + 8)?)),
            types::LIST => Value::List(self.read_list(fr, depth)?),
            type_id => Value::Unknown { type_id, data: d },
        })
    }

    fn read_locstring(&mut self, fr: &FieldRecord) -> Result<LocString, DecodeError> {
        let at = self.data_at(fr, fr.data, 12, "CExoLocString header")?;
        let strref = self.t.word(at + 4).unwrap_or(0);
        let count = self.t.word(at + 8).unwrap_or(0);
        // Each substring takes at least 8 bytes: bound the count before allocating.
        let left = u64::from(self.t.header.field_data_size) - u64::from(fr.data) - 12;
        if u64::from(count) * 8 > left {
            return Err(malformed(
                at + 8,
                format!(
                    "CExoLocString: {count} substrings need at least {} bytes, but only {left} bytes of field data follow",
                    u64::from(count) * 8
                ),
            ));
        }
        self.spend(12, at)?;
        let mut strings = Vec::with_capacity(count as usize);
        let mut rel = 12u64;
        for i in 0..count {
            if self.t.field_data_at(fr.data, rel + 8).is_none() {
                return Err(malformed(
                    at + rel as usize,
                    format!("CExoLocString substring {i} runs past the end of the field data"),
                ));
            }
            let sub = at + rel as usize;
            let id = self.t.word(sub).unwrap_or(0);
            let n = u64::from(self.t.word(sub + 4).unwrap_or(0));
            if self.t.field_data_at(fr.data, rel + 8 + n).is_none() {
                return Err(malformed(
                    sub + 4,
                    format!(
                        "CExoLocString substring {i}: {n} bytes run past the end of the field data ({} bytes)",
                        self.t.header.field_data_size
                    ),
                ));
            }
            self.spend(8 + n, sub)?;
            let start = sub + 8;
            strings.push(LocSubString {
                id,
                text: Text::from_bytes(&self.t.data[start..start + n as usize]),
            });
            rel += 8 + n;
        }
        Ok(LocString { strref, strings })
    }

    fn read_list(&mut self, fr: &FieldRecord, depth: usize) -> Result<Vec<Struct>, DecodeError> {
        let h = self.t.header;
        let Some(at) = self.t.list_at(fr.data, 4) else {
            return Err(malformed(
                fr.at + 8,
                format!(
                    "list at offset {:#x} of the list indices runs past its end ({} bytes)",
                    fr.data, h.list_indices_size
                ),
            ));
        };
        let count = self.t.word(at).unwrap_or(0);
        if self.t.list_at(fr.data, 4 + 4 * u64::from(count)).is_none() {
            return Err(malformed(
                at,
                format!(
                    "list of {count} structs at offset {:#x} runs past the end of the list indices ({} bytes)",
                    fr.data, h.list_indices_size
                ),
            ));
        }
        // Bounded by the list indices size (checked above).
        let mut out = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            let e_at = at + 4 + 4 * i;
            let s = self.t.word(e_at).unwrap_or(u32::MAX);
            let st = self
                .read_struct(s, depth + 1, e_at)
                .map_err(|e| e.within(format!("list element {i}")))?;
            out.push(st);
        }
        Ok(out)
    }
}

/// Decodes a GFF V3.2 file (any resource type: ARE, GIT, IFO, UTP, DLG, ...).
///
/// The result keeps `data` as its original layout, so that [`write()`](super::write) gives the
/// same bytes back while the tree is unchanged. Errors name the byte offset and the path to
/// the problem, e.g. `struct 0 field 7: field record 7 "ItemList" (List): list element 3:
/// ...`.
///
/// ```
/// use areakit_formats::gff;
/// let mut g = gff::Gff::new(*b"UTP ");
/// g.root.push(gff::Label::lit("Tag"), gff::Value::String("chest".into()));
/// let bytes = gff::write(&g).unwrap();
/// let back = gff::read(&bytes).unwrap();
/// assert_eq!(back.root().get_string("Tag").unwrap().to_str(), "chest");
/// ```
pub fn read(data: &[u8]) -> Result<Gff, DecodeError> {
    let t = Tables::parse(data)?;
    let h = t.header;
    // Bounded by the input: the table ranges were checked above.
    let mut r = Reader {
        t,
        struct_seen: vec![false; h.struct_count as usize],
        field_seen: vec![false; h.field_count as usize],
        path: Vec::new(),
        budget: u64::from(h.field_data_size),
    };
    let root = r.read_struct(0, 0, 8)?;
    Ok(Gff {
        file_type: h.file_type,
        version: h.version,
        root,
        original: Some(Arc::from(data)),
    })
}
