//! Checks of a KEY, alone and against its BIFs. Codes are documented in `docs/checks.md`.

use std::collections::HashMap;

use super::model::Key;
use super::raw;
use crate::bif::BifIndex;
use crate::finding::{Finding, Place};

fn key_place(key: &Key, i: usize) -> Place {
    Place {
        offset: key
            .layout
            .as_ref()
            .map(|l| u64::from(l.key_table_offset) + (i * raw::KEY_ENTRY_SIZE) as u64),
        ..Place::default()
    }
    .item(format!("keys[{i}] ({})", key.keys[i].file_name()))
}

fn bif_place(key: &Key, b: usize) -> Place {
    Place {
        offset: key
            .layout
            .as_ref()
            .map(|l| u64::from(l.file_table_offset) + (b * raw::FILE_ENTRY_SIZE) as u64),
        ..Place::default()
    }
    .item(format!("bifs[{b}] ({})", key.bifs[b].name()))
}

/// Checks a KEY and returns every finding:
///
/// - `key-bif-index` (error): a resource names a BIF the file table does not have (the engine
///   cannot load it);
/// - `key-duplicate-resource` (warning): two resources with the same name (ASCII
///   case-insensitive) and type;
/// - `key-unknown-type` (warning): a type id not in the [type table](crate::restype::TYPES);
/// - `key-resref-invalid` (warning): an empty name, a name with bytes that are not printable
///   ASCII, or non-zero bytes after the name's terminator;
/// - `key-bif-name` (warning): a BIF name that is empty, not NUL-terminated, or holds bytes
///   that are not printable ASCII;
/// - `key-bif-unused` (warning): a BIF no resource names;
/// - `capsule-unsafe-name` (warning): a resource name that is no safe file name, or a BIF path
///   with a part that is not ([`crate::names::file_name_problem`]).
pub fn validate(key: &Key) -> Vec<Finding> {
    let mut out = Vec::new();
    let nb = key.bifs.len() as u32;
    let mut used = vec![false; key.bifs.len()];
    let mut first: HashMap<_, usize> = HashMap::with_capacity(key.keys.len());
    for (i, k) in key.keys.iter().enumerate() {
        match used.get_mut(k.id.bif() as usize) {
            Some(u) => *u = true,
            None => out.push(Finding::error(
                "key-bif-index",
                key_place(key, i),
                format!(
                    "resource id {:#x} names BIF {}, but the file table has {nb}",
                    k.id.0,
                    k.id.bif()
                ),
            )),
        }
        if let Some(&f) = first.get(&(k.resref.lookup_key(), k.restype)) {
            out.push(Finding::warning(
                "key-duplicate-resource",
                key_place(key, i),
                format!(
                    "a second resource named {} (the first is entry {f})",
                    k.file_name()
                ),
            ));
        } else {
            first.insert((k.resref.lookup_key(), k.restype), i);
        }
        if !k.restype.is_known() {
            out.push(Finding::warning(
                "key-unknown-type",
                key_place(key, i),
                format!("type id {} is not a known resource type", k.restype.0),
            ));
        }
        let name = k.resref.name_bytes();
        if name.is_empty()
            || !name.iter().all(|b| b.is_ascii_graphic() || *b == b' ')
            || k.resref.has_bytes_after_name()
        {
            out.push(Finding::warning(
                "key-resref-invalid",
                key_place(key, i),
                format!(
                    "the name's bytes {:02x?} are not 1 to 16 printable ASCII characters padded with NULs",
                    k.resref.as_bytes()
                ),
            ));
        }
        if let Some(p) = crate::names::file_name_problem(&k.file_name()) {
            out.push(Finding::warning(
                "capsule-unsafe-name",
                key_place(key, i),
                format!(
                    "the name \"{}\" is no safe file name ({p}): extract writes it under another name",
                    k.file_name().escape_debug()
                ),
            ));
        }
    }
    for (b, e) in key.bifs.iter().enumerate() {
        // A BIF is named by a path in the game folder: each of its parts a plain name.
        let path = e.path();
        if let Some(p) = path.split('/').find_map(crate::names::file_name_problem) {
            out.push(Finding::warning(
                "capsule-unsafe-name",
                bif_place(key, b),
                format!(
                    "the BIF path \"{}\" has a part that is no plain file name ({p}); areakit never reads outside the game folder",
                    path.escape_debug()
                ),
            ));
        }
        let end = e.name.iter().position(|&c| c == 0);
        let text = &e.name[..end.unwrap_or(e.name.len())];
        let problem = if text.is_empty() {
            Some("the name is empty".to_string())
        } else if !text.iter().all(|c| c.is_ascii_graphic() || *c == b' ') {
            Some(format!(
                "the name {:?} holds bytes that are not printable ASCII",
                e.name()
            ))
        } else if end.is_none() {
            Some(format!("the name {:?} has no NUL terminator", e.name()))
        } else {
            None
        };
        if let Some(p) = problem {
            out.push(Finding::warning("key-bif-name", bif_place(key, b), p));
        }
        if !used[b] {
            out.push(Finding::warning(
                "key-bif-unused",
                bif_place(key, b),
                format!("no resource names BIF {b} ({})", e.name()),
            ));
        }
    }
    out
}

/// Checks the resources of BIF number `bif` of `key` against that BIF's tables:
///
/// - `key-resource-index` (error): a resource's index is beyond the BIF's variable table (the
///   engine cannot load it);
/// - `key-type-mismatch` (warning): the KEY and the BIF disagree on a resource's type (xoreos
///   trusts the BIF);
/// - `key-bif-size` (warning): the file table's size of the BIF is not its length;
/// - `key-bif-unreferenced` (warning): BIF resources no KEY entry names (one finding per BIF,
///   with the count and the first).
pub fn check_bif(key: &Key, bif: usize, index: &BifIndex) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(entry) = key.bifs.get(bif) else {
        return out;
    };
    if u64::from(entry.file_size) != index.file_len {
        out.push(Finding::warning(
            "key-bif-size",
            bif_place(key, bif),
            format!(
                "the KEY says {} bytes, the BIF has {}",
                entry.file_size, index.file_len
            ),
        ));
    }
    let mut named = vec![false; index.resources.len()];
    for (i, k) in key.entries_of_bif(bif as u32) {
        match index.resources.get(k.id.index() as usize) {
            None => out.push(Finding::error(
                "key-resource-index",
                key_place(key, i),
                format!(
                    "resource index {} is beyond the {} resources of {}",
                    k.id.index(),
                    index.resources.len(),
                    entry.name()
                ),
            )),
            Some(r) => {
                named[k.id.index() as usize] = true;
                if r.restype != k.restype {
                    out.push(Finding::warning(
                        "key-type-mismatch",
                        key_place(key, i),
                        format!(
                            "the KEY says {}, {} says {} (resource {})",
                            k.restype,
                            entry.name(),
                            r.restype,
                            k.id.index()
                        ),
                    ));
                }
            }
        }
    }
    let unnamed: Vec<usize> = (0..named.len()).filter(|&i| !named[i]).collect();
    if let Some(&first) = unnamed.first() {
        out.push(Finding::warning(
            "key-bif-unreferenced",
            bif_place(key, bif),
            format!(
                "{} of the {} resources of {} are named by no KEY entry (the first: resource {first})",
                unnamed.len(),
                named.len(),
                entry.name()
            ),
        ));
    }
    out
}
