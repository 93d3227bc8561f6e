//! Where an area's resources come from.
//!
//! The engine asks for a resource by name and type (`m13aa_01a` + `wok`) and takes the first
//! place that has it. [`Resources`] is that question; a loose folder answers it here
//! ([`FolderResources`]), and capsules and game installs answer it the same way, so module
//! assembly and navigation never ask where the bytes were.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use areakit_formats::restype::{ResRef, ResType, parse_file_name};

/// One resource's bytes and where they were found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// The bytes.
    pub data: Vec<u8>,
    /// Where they came from, for messages: a file path, or `capsule.mod/name.ext`.
    pub origin: String,
}

/// A place that answers "the bytes of `resref.ext`", as the engine's resource manager does.
pub trait Resources: Send + Sync {
    /// The resource `resref.ext` (both compared without regard to ASCII case; `ext` without the
    /// dot, e.g. `"wok"`), or `None` when this place does not hold it.
    fn get(&self, resref: &str, ext: &str) -> io::Result<Option<Resource>>;

    /// Every resource this place holds, in its own order, each with its size and origin (a
    /// place that stacks others, such as [`crate::install::SearchPath`], lists each resource
    /// once with the copies it shadows). The default lists nothing.
    fn list(&self) -> io::Result<Vec<Listing>> {
        Ok(Vec::new())
    }

    /// The first of several types of `resref` (a texture: `["tpc", "tga"]`), as the engine
    /// asks for an image: the place searched first wins, and within one place the type listed
    /// first. The resource and the index of its type in `exts`.
    fn get_any(&self, resref: &str, exts: &[&str]) -> io::Result<Option<(Resource, usize)>> {
        for (i, ext) in exts.iter().enumerate() {
            if let Some(r) = self.get(resref, ext)? {
                return Ok(Some((r, i)));
            }
        }
        Ok(None)
    }
}

/// A shared place answers as the place itself (a capsule held by several readers, the game).
impl<T: Resources + ?Sized> Resources for std::sync::Arc<T> {
    fn get(&self, resref: &str, ext: &str) -> io::Result<Option<Resource>> {
        (**self).get(resref, ext)
    }

    fn list(&self) -> io::Result<Vec<Listing>> {
        (**self).list()
    }

    fn get_any(&self, resref: &str, exts: &[&str]) -> io::Result<Option<(Resource, usize)>> {
        (**self).get_any(resref, exts)
    }
}

/// One resource of a listing ([`Resources::list`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// Name.
    pub resref: ResRef,
    /// Type.
    pub restype: ResType,
    /// Size in bytes.
    pub size: u64,
    /// Where it is: a file path, `capsule.mod/name.ext` or `data/x.bif/name.ext`.
    pub origin: String,
    /// The origins of the copies of the same name and type this one hides, in search order.
    pub shadows: Vec<String>,
}

impl Listing {
    /// A listing entry that shadows nothing.
    pub fn new(resref: ResRef, restype: ResType, size: u64, origin: String) -> Self {
        Listing {
            resref,
            restype,
            size,
            origin,
            shadows: Vec::new(),
        }
    }

    /// `name.ext`.
    pub fn file_name(&self) -> String {
        self.resref.file_name(self.restype)
    }
}

/// The key under which `resref.ext` is found: lower case, with a dot.
pub fn resource_key(resref: &str, ext: &str) -> String {
    let mut key = String::with_capacity(resref.len() + ext.len() + 1);
    key.push_str(resref);
    key.push('.');
    key.push_str(ext);
    key.make_ascii_lowercase();
    key
}

/// The regular files of one folder (not its subfolders), found without regard to ASCII case.
#[derive(Debug, Clone)]
pub struct FolderResources {
    dir: PathBuf,
    files: HashMap<String, PathBuf>,
}

impl FolderResources {
    /// Lists `dir` once. When two names differ only in case, the first in sorted order wins.
    pub fn open(dir: &Path) -> io::Result<FolderResources> {
        let mut names: Vec<PathBuf> = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            if entry.file_type()?.is_file() {
                names.push(entry.path());
            }
        }
        names.sort();
        let mut files = HashMap::with_capacity(names.len());
        for path in names {
            if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
                files.entry(name.to_ascii_lowercase()).or_insert(path);
            }
        }
        Ok(FolderResources {
            dir: dir.to_path_buf(),
            files,
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of `resref.ext` in the folder, if it is there.
    pub fn path_of(&self, resref: &str, ext: &str) -> Option<&Path> {
        self.files
            .get(&resource_key(resref, ext))
            .map(PathBuf::as_path)
    }
}

impl Resources for FolderResources {
    fn get(&self, resref: &str, ext: &str) -> io::Result<Option<Resource>> {
        let Some(path) = self.path_of(resref, ext) else {
            return Ok(None);
        };
        let data = crate::io::read_regular_file(path)?;
        Ok(Some(Resource {
            data,
            origin: path.display().to_string(),
        }))
    }

    /// The folder's files whose names are `resref.ext` with a known extension (or a decimal
    /// type id), sorted by name.
    fn list(&self) -> io::Result<Vec<Listing>> {
        let mut out = Vec::with_capacity(self.files.len());
        for path in self.files.values() {
            let Some((resref, restype)) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| parse_file_name(n).ok())
            else {
                continue;
            };
            let size = std::fs::metadata(path)?.len();
            out.push(Listing::new(
                resref,
                restype,
                size,
                path.display().to_string(),
            ));
        }
        out.sort_by(|a, b| a.origin.cmp(&b.origin));
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_finds_names_in_any_case_and_only_files() {
        let dir = std::env::temp_dir().join(format!("areakit-res-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub.wok")).unwrap();
        std::fs::write(dir.join("M13AA_01a.WOK"), b"abc").unwrap();
        let res = FolderResources::open(&dir).unwrap();
        let got = res.get("m13aa_01A", "wok").unwrap().unwrap();
        assert_eq!(got.data, b"abc");
        assert!(got.origin.ends_with("M13AA_01a.WOK"));
        assert!(res.get("m13aa_01a", "lyt").unwrap().is_none());
        assert!(
            res.get("sub", "wok").unwrap().is_none(),
            "a folder is no resource"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
