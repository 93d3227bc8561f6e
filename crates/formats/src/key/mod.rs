//! KEY (`KEY V1  `): the index of a game's BIFs (`chitin.key` of KotOR and NWN).
//!
//! - [`raw`]: on-disk constants;
//! - [`Key`], [`BifEntry`], [`KeyEntry`], [`ResId`], [`Layout`]: the owned model
//!   ([`model`]); [`ResId`] splits a resource id into BIF index and resource index;
//! - [`Key::find`], [`Key::lookup`]: resource lookup by name and type;
//! - [`read`] / [`write`]: bytes to model and back, byte-exact for unmodified files;
//!   [`write_canonical`] lays a KEY out anew;
//! - [`build_install`]: a KEY and its BIFs from lists of resources (tests, tools);
//! - [`validate`], [`check_bif`]: findings, alone and against a BIF.
//!
//! No public `chitin.key` exists: the format is tested with files this crate writes. The byte
//! layout is in `docs/formats/key.md`.
//!
//! ```
//! use areakit_formats::{bif, key};
//! use areakit_formats::restype::{ResRef, ResType};
//! let (k, bifs) = key::build_install(vec![(
//!     "data\\templates.bif".to_string(),
//!     vec![(ResRef::new("door01").unwrap(), ResType::UTD, b"UTD V3.2".to_vec())],
//! )]).unwrap();
//! let bytes = key::write(&k).unwrap();
//! let k = key::read(&bytes).unwrap();
//! let e = k.find("DOOR01", ResType::UTD).unwrap();
//! assert_eq!(k.bifs[e.id.bif() as usize].path(), "data/templates.bif");
//! let b = bif::write(&bifs[0]).unwrap();
//! let index = bif::BifIndex::parse(&b).unwrap();
//! assert_eq!(index.data(&b, e.id.index() as usize).unwrap(), b"UTD V3.2");
//! ```

pub mod model;
pub mod raw;
mod read;
#[cfg(test)]
mod tests;
mod validate;
mod write;

pub use model::{BifEntry, Header, Key, KeyEntry, KeyLookup, Layout, ResId};
pub use read::read;
pub use validate::{check_bif, validate};
pub use write::{write, write_canonical};

use crate::bif::{self, Bif};
use crate::error::EncodeError;
use crate::restype::Member;

/// A KEY and its BIFs from `(BIF name, resources)` lists: BIF `b` holds its resources in the
/// order given, resource `i` with the id `b << 20 | i`; the KEY lists every resource (in BIF
/// order) and each BIF's canonical size, with drives = 1 (the game's folder).
pub fn build_install(bifs: Vec<(String, Vec<Member>)>) -> Result<(Key, Vec<Bif>), EncodeError> {
    let mut key = Key::new();
    let mut out = Vec::with_capacity(bifs.len());
    for (b, (name, resources)) in bifs.into_iter().enumerate() {
        let bi = u32::try_from(b)
            .ok()
            .filter(|&b| b <= ResId::MAX_BIF)
            .ok_or_else(|| EncodeError(format!("BIF {b}: a KEY names at most 4096 BIFs")))?;
        let mut names = Vec::with_capacity(resources.len());
        let bif = Bif::from_resources(
            bi,
            resources.into_iter().map(|(r, t, d)| {
                names.push((r, t));
                (t, d)
            }),
        )?;
        for (i, (resref, restype)) in names.into_iter().enumerate() {
            key.keys.push(KeyEntry {
                resref,
                restype,
                id: bif.resources[i].id,
            });
        }
        let size = u32::try_from(bif::canonical_len(&bif))
            .map_err(|_| EncodeError(format!("BIF {name}: over 4 GiB")))?;
        key.bifs.push(BifEntry::new(&name, size, 1));
        out.push(bif);
    }
    Ok((key, out))
}
