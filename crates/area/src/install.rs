//! Resources where they live: capsules (ERF/MOD/SAV/HAK, RIM), a KEY and its BIFs, a KotOR
//! install folder, and a search path over any of them.
//!
//! Every place answers the engine's question ([`Resources::get`]) and lists what it holds
//! ([`Resources::list`]). A [`SearchPath`] asks its places in order, so the first that holds a
//! resource wins and the later copies are *shadowed*; [`Install::open`] builds the game's own
//! order (see `docs/resources.md`):
//!
//! 1. `override/` (a loose folder),
//! 2. the module's capsules, with `--module NAME`: `NAME.mod` if it exists (it replaces the
//!    RIMs, as the game does), else `NAME.rim` then `NAME_s.rim`; then `NAME_dlg.erf`,
//! 3. `chitin.key` and the BIFs it names.
//!
//! All names are found without regard to ASCII case. A BIF is opened by reading its header
//! and tables only; each resource is one positioned read, so a multi-gigabyte BIF is never read
//! whole. ERF and RIM capsules are read whole once (their tables are checked against the data)
//! and members are copied out of memory.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use areakit_formats::DecodeError;
use areakit_formats::any;
use areakit_formats::bif::BifIndex;
use areakit_formats::cursor::StreamError;
use areakit_formats::erf::{ErfIndex, ErfKind};
use areakit_formats::key::{self, Key};
use areakit_formats::restype::{ResRef, ResType};
use areakit_formats::rim::RimIndex;

use crate::resources::{FolderResources, Listing, Resource, Resources};

/// Why a capsule, KEY, BIF or install could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// Reading failed (missing file, a folder where a file was expected, ...).
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// The file does not decode (the error names the byte offset).
    #[error("{}: {source}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong and where.
        source: DecodeError,
    },
}

impl OpenError {
    fn io(path: &Path, source: io::Error) -> Self {
        OpenError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    fn invalid(path: &Path, source: DecodeError) -> Self {
        OpenError::Invalid {
            path: path.to_path_buf(),
            source,
        }
    }

    fn stream(path: &Path, e: StreamError) -> Self {
        match e {
            StreamError::Io(e) => Self::io(path, e),
            StreamError::Decode(e) => Self::invalid(path, e),
        }
    }
}

/// The kind of capsule a file is, by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapsuleKind {
    /// An ERF-family archive (`ERF `, `MOD `, `SAV `, `HAK `).
    Erf(ErfKind),
    /// A `RIM V1.0`.
    Rim,
}

impl CapsuleKind {
    /// The kind of a capsule by its magic, or `None` when the bytes are no capsule.
    pub fn detect(data: &[u8]) -> Option<CapsuleKind> {
        let magic: [u8; 4] = data.get(..4)?.try_into().ok()?;
        if any::is_rim_type(magic) {
            return Some(CapsuleKind::Rim);
        }
        ErfKind::from_magic(magic).map(CapsuleKind::Erf)
    }
}

/// Whether a file name's extension is that of a capsule (`mod`, `erf`, `rim`, `sav`, `hak`).
pub fn is_capsule_name(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        ["mod", "erf", "rim", "sav", "hak"]
            .iter()
            .any(|c| e.eq_ignore_ascii_case(c))
    })
}

/// One member of a capsule: name, type and where its data lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    /// Name.
    pub resref: ResRef,
    /// Type.
    pub restype: ResType,
    /// Data offset in the capsule.
    pub offset: u32,
    /// Data size.
    pub size: u32,
}

impl Member {
    fn new(resref: ResRef, restype: ResType, offset: u32, size: u32) -> Self {
        Member {
            resref,
            restype,
            offset,
            size,
        }
    }

    /// `name.ext`.
    pub fn file_name(&self) -> String {
        self.resref.file_name(self.restype)
    }
}

/// An ERF-family or RIM capsule held in memory, its tables checked.
#[derive(Debug, Clone)]
pub struct Capsule {
    path: PathBuf,
    kind: CapsuleKind,
    data: Vec<u8>,
    members: Vec<Member>,
    lookup: HashMap<([u8; ResRef::LEN], ResType), usize>,
}

impl Capsule {
    /// Reads the capsule at `path`.
    pub fn open(path: &Path) -> Result<Capsule, OpenError> {
        let data = crate::io::read_regular_file(path).map_err(|e| OpenError::io(path, e))?;
        Capsule::from_bytes(path, data)
    }

    /// A capsule from bytes read from `path` (named in messages and origins).
    pub fn from_bytes(path: &Path, data: Vec<u8>) -> Result<Capsule, OpenError> {
        let kind = CapsuleKind::detect(&data).ok_or_else(|| {
            let found = data.get(..4).map_or_else(
                || format!("{} bytes", data.len()),
                |m| format!("{:?}", String::from_utf8_lossy(m)),
            );
            OpenError::invalid(
                path,
                DecodeError::malformed_at(
                    0,
                    format!(
                        "expected a capsule (\"ERF \", \"MOD \", \"SAV \", \"HAK \" or \"RIM \"), found {found}"
                    ),
                ),
            )
        })?;
        let members: Vec<Member> = match kind {
            CapsuleKind::Erf(_) => ErfIndex::parse(&data)
                .map_err(|e| OpenError::invalid(path, e))?
                .entries
                .iter()
                .map(|e| Member::new(e.resref, e.restype, e.offset, e.size))
                .collect(),
            CapsuleKind::Rim => RimIndex::parse(&data)
                .map_err(|e| OpenError::invalid(path, e))?
                .entries
                .iter()
                .map(|e| Member::new(e.resref, e.restype, e.offset, e.size))
                .collect(),
        };
        let mut lookup = HashMap::with_capacity(members.len());
        for (i, m) in members.iter().enumerate() {
            lookup
                .entry((m.resref.lookup_key(), m.restype))
                .or_insert(i);
        }
        Ok(Capsule {
            path: path.to_path_buf(),
            kind,
            data,
            members,
            lookup,
        })
    }

    /// The capsule's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its kind.
    pub fn kind(&self) -> CapsuleKind {
        self.kind
    }

    /// The whole capsule's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.data
    }

    /// The members in table order.
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// The data of member `i` (checked against the file when opened).
    pub fn data(&self, i: usize) -> &[u8] {
        let Some(m) = self.members.get(i) else {
            return &[];
        };
        let start = m.offset as usize;
        self.data
            .get(start..start + m.size as usize)
            .unwrap_or_default()
    }

    /// The index of the first member `resref.ext` (any case), if any.
    pub fn find(&self, resref: &str, ext: &str) -> Option<usize> {
        let restype = ResType::from_extension(ext)?;
        let key = lookup_key(resref)?;
        self.lookup.get(&(key, restype)).copied()
    }

    /// The origin of member `i`: `capsule path/name.ext`.
    pub fn origin(&self, i: usize) -> String {
        let name = self
            .members
            .get(i)
            .map(Member::file_name)
            .unwrap_or_default();
        format!("{}/{name}", self.path.display())
    }
}

/// A resref's lookup key (lower case, NUL-padded), or `None` when it is longer than 16 bytes.
fn lookup_key(resref: &str) -> Option<[u8; ResRef::LEN]> {
    if resref.len() > ResRef::LEN {
        return None;
    }
    let mut k = [0u8; ResRef::LEN];
    for (o, b) in k.iter_mut().zip(resref.bytes()) {
        *o = b.to_ascii_lowercase();
    }
    Some(k)
}

impl Resources for Capsule {
    fn get(&self, resref: &str, ext: &str) -> io::Result<Option<Resource>> {
        Ok(self.find(resref, ext).map(|i| Resource {
            data: self.data(i).to_vec(),
            origin: self.origin(i),
        }))
    }

    fn list(&self) -> io::Result<Vec<Listing>> {
        Ok(self
            .members
            .iter()
            .enumerate()
            .map(|(i, m)| Listing::new(m.resref, m.restype, u64::from(m.size), self.origin(i)))
            .collect())
    }
}

/// A reader that counts the bytes it reads (the benchmarks report them).
struct Counting<'a, R> {
    inner: R,
    count: &'a AtomicU64,
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: Seek> Seek for Counting<'_, R> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// An ERF read by its tables alone, each member one positioned read: a game's texture pack
/// (`TexturePacks/swpc_tex_tpa.erf`, hundreds of megabytes) is not held in memory.
#[derive(Debug)]
pub struct StreamCapsule {
    path: PathBuf,
    index: ErfIndex,
    lookup: HashMap<([u8; ResRef::LEN], ResType), usize>,
}

impl StreamCapsule {
    /// Reads the header and tables of the ERF at `path`.
    pub fn open(path: &Path) -> Result<StreamCapsule, OpenError> {
        let mut file = File::open(path).map_err(|e| OpenError::io(path, e))?;
        let index = ErfIndex::read(&mut file).map_err(|e| OpenError::stream(path, e))?;
        let mut lookup = HashMap::with_capacity(index.entries.len());
        for (i, e) in index.entries.iter().enumerate() {
            lookup
                .entry((e.resref.lookup_key(), e.restype))
                .or_insert(i);
        }
        Ok(StreamCapsule {
            path: path.to_path_buf(),
            index,
            lookup,
        })
    }

    /// The capsule's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Resources for StreamCapsule {
    fn get(&self, resref: &str, ext: &str) -> io::Result<Option<Resource>> {
        let Some(restype) = ResType::from_extension(ext) else {
            return Ok(None);
        };
        let Some(&i) = lookup_key(resref).and_then(|k| self.lookup.get(&(k, restype))) else {
            return Ok(None);
        };
        let mut file = File::open(&self.path)?;
        let data = self.index.read_data(&mut file, i).map_err(|e| match e {
            StreamError::Io(e) => e,
            StreamError::Decode(e) => io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {e}", self.path.display()),
            ),
        })?;
        Ok(Some(Resource {
            data,
            origin: format!(
                "{}/{}",
                self.path.display(),
                self.index.entries[i].file_name()
            ),
        }))
    }

    fn list(&self) -> io::Result<Vec<Listing>> {
        Ok(self
            .index
            .entries
            .iter()
            .map(|e| {
                Listing::new(
                    e.resref,
                    e.restype,
                    u64::from(e.size),
                    format!("{}/{}", self.path.display(), e.file_name()),
                )
            })
            .collect())
    }
}

/// The texture packs the game reads, in `TexturePacks/` (any letter case): the high-quality
/// pack and the GUI pack, those that exist.
pub fn texture_packs(game_dir: &Path) -> Vec<PathBuf> {
    let Some(dir) = find_in_dir(game_dir, "texturepacks").filter(|d| d.is_dir()) else {
        return Vec::new();
    };
    ["swpc_tex_tpa.erf", "swpc_tex_gui.erf"]
        .iter()
        .filter_map(|n| find_in_dir(&dir, n).filter(|p| p.is_file()))
        .collect()
}

/// One BIF of a KEY, opened (its tables read) or missing.
#[derive(Debug)]
struct OpenBif {
    path: PathBuf,
    index: Option<BifIndex>,
}

/// A KEY and its BIFs: the KEY is read whole, each BIF's header and tables are read when the
/// KEY is opened, and each resource is one positioned read of its own bytes.
#[derive(Debug)]
pub struct KeyResources {
    key_path: PathBuf,
    key: Key,
    bifs: Vec<OpenBif>,
    lookup: key::KeyLookup,
    bytes_read: AtomicU64,
}

impl KeyResources {
    /// Opens the KEY at `key_path`; its BIFs are found relative to `game_dir` (names compared
    /// without regard to ASCII case). A BIF the KEY names that is not there is no error until
    /// one of its resources is asked for; a BIF whose tables do not decode is an error.
    pub fn open(key_path: &Path, game_dir: &Path) -> Result<KeyResources, OpenError> {
        let bytes =
            crate::io::read_regular_file(key_path).map_err(|e| OpenError::io(key_path, e))?;
        let key = key::read(&bytes).map_err(|e| OpenError::invalid(key_path, e))?;
        let bytes_read = AtomicU64::new(bytes.len() as u64);
        let mut bifs = Vec::with_capacity(key.bifs.len());
        for entry in &key.bifs {
            let rel = entry.path();
            match find_relative(game_dir, &rel) {
                Some(path) => {
                    let file = File::open(&path).map_err(|e| OpenError::io(&path, e))?;
                    let mut r = Counting {
                        inner: file,
                        count: &bytes_read,
                    };
                    let index = BifIndex::read(&mut r).map_err(|e| OpenError::stream(&path, e))?;
                    bifs.push(OpenBif {
                        path,
                        index: Some(index),
                    });
                }
                None => bifs.push(OpenBif {
                    path: game_dir.join(rel),
                    index: None,
                }),
            }
        }
        let lookup = key.lookup();
        Ok(KeyResources {
            key_path: key_path.to_path_buf(),
            key,
            bifs,
            lookup,
            bytes_read,
        })
    }

    /// The KEY's path.
    pub fn path(&self) -> &Path {
        &self.key_path
    }

    /// The KEY.
    pub fn key(&self) -> &Key {
        &self.key
    }

    /// Bytes read from the KEY and the BIFs so far (the KEY, every BIF's tables, and each
    /// resource read).
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read.load(Ordering::Relaxed)
    }

    /// The BIF and the table entry of key entry `k`, or an error naming what is missing.
    fn locate(&self, k: usize) -> io::Result<(&OpenBif, usize)> {
        let e = &self.key.keys[k];
        let bif = self.bifs.get(e.id.bif() as usize).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: {} names BIF {}, but the KEY lists {} BIFs",
                    self.key_path.display(),
                    e.file_name(),
                    e.id.bif(),
                    self.bifs.len()
                ),
            )
        })?;
        let Some(index) = &bif.index else {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "{}: not found (the KEY names it for {})",
                    bif.path.display(),
                    e.file_name()
                ),
            ));
        };
        let i = e.id.index() as usize;
        if i >= index.resources.len() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: {} is resource {i}, but the BIF has {} variable resources",
                    bif.path.display(),
                    e.file_name(),
                    index.resources.len()
                ),
            ));
        }
        Ok((bif, i))
    }

    fn origin(&self, bif: &OpenBif, k: usize) -> String {
        format!("{}/{}", bif.path.display(), self.key.keys[k].file_name())
    }
}

impl Resources for KeyResources {
    fn get(&self, resref: &str, ext: &str) -> io::Result<Option<Resource>> {
        let Some(restype) = ResType::from_extension(ext) else {
            return Ok(None);
        };
        let Some(k) = self.lookup.get(resref, restype) else {
            return Ok(None);
        };
        let (bif, i) = self.locate(k)?;
        let index = bif
            .index
            .as_ref()
            .ok_or_else(|| io::Error::other("BIF not opened"))?;
        let file = File::open(&bif.path)?;
        let mut r = Counting {
            inner: file,
            count: &self.bytes_read,
        };
        let data = index.read_resource(&mut r, i).map_err(|e| match e {
            StreamError::Io(e) => e,
            StreamError::Decode(e) => io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {e}", bif.path.display()),
            ),
        })?;
        Ok(Some(Resource {
            data,
            origin: self.origin(bif, k),
        }))
    }

    fn list(&self) -> io::Result<Vec<Listing>> {
        let mut out = Vec::with_capacity(self.key.keys.len());
        for (k, e) in self.key.keys.iter().enumerate() {
            let (bif, i) = self.locate(k)?;
            let size = bif
                .index
                .as_ref()
                .map_or(0, |index| u64::from(index.resources[i].size));
            out.push(Listing::new(e.resref, e.restype, size, self.origin(bif, k)));
        }
        Ok(out)
    }
}

/// Places asked in order: the first that holds a resource gives it.
#[derive(Default)]
pub struct SearchPath {
    places: Vec<(String, Box<dyn Resources>)>,
}

impl std::fmt::Debug for SearchPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.places.iter().map(|(n, _)| n))
            .finish()
    }
}

impl SearchPath {
    /// An empty search path.
    pub fn new() -> Self {
        SearchPath::default()
    }

    /// Appends a place, `name` describing it (e.g. its path).
    pub fn push(&mut self, name: impl Into<String>, place: Box<dyn Resources>) {
        self.places.push((name.into(), place));
    }

    /// The places' names, in search order.
    pub fn names(&self) -> Vec<&str> {
        self.places.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// Whether there is no place.
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }
}

impl Resources for SearchPath {
    fn get(&self, resref: &str, ext: &str) -> io::Result<Option<Resource>> {
        for (_, place) in &self.places {
            if let Some(r) = place.get(resref, ext)? {
                return Ok(Some(r));
            }
        }
        Ok(None)
    }

    /// Place by place: the first place holding any of the types gives its first one.
    fn get_any(&self, resref: &str, exts: &[&str]) -> io::Result<Option<(Resource, usize)>> {
        for (_, place) in &self.places {
            if let Some(r) = place.get_any(resref, exts)? {
                return Ok(Some(r));
            }
        }
        Ok(None)
    }

    /// Every resource once, in the order (name, type id): the copy the search finds, with the
    /// origins of the copies it shadows (later places, or later members of the same place).
    fn list(&self) -> io::Result<Vec<Listing>> {
        let mut out: Vec<Listing> = Vec::new();
        let mut seen: HashMap<([u8; ResRef::LEN], ResType), usize> = HashMap::new();
        for (_, place) in &self.places {
            for l in place.list()? {
                let key = (l.resref.lookup_key(), l.restype);
                match seen.get(&key) {
                    Some(&i) => {
                        out[i].shadows.push(l.origin);
                        out[i].shadows.extend(l.shadows);
                    }
                    None => {
                        seen.insert(key, out.len());
                        out.push(l);
                    }
                }
            }
        }
        out.sort_by(|a, b| {
            (a.resref.lookup_key(), a.restype).cmp(&(b.resref.lookup_key(), b.restype))
        });
        Ok(out)
    }
}

/// The entry of `dir` named `name` without regard to ASCII case (an exact match first).
pub fn find_in_dir(dir: &Path, name: &str) -> Option<PathBuf> {
    let exact = dir.join(name);
    if exact.exists() {
        return Some(exact);
    }
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
        .collect();
    names.sort();
    names.into_iter().next()
}

/// `rel` (components separated by `/` or `\`) under `base`, each component found without
/// regard to ASCII case.
pub fn find_relative(base: &Path, rel: &str) -> Option<PathBuf> {
    let mut path = base.to_path_buf();
    for part in rel
        .split(['/', '\\'])
        .filter(|p| !p.is_empty() && *p != ".")
    {
        if part == ".." {
            return None;
        }
        path = find_in_dir(&path, part)?;
    }
    Some(path)
}

/// A KotOR install: `override/`, a module's capsules in `modules/`, `chitin.key` and its BIFs.
pub struct Install {
    dir: PathBuf,
    module: Option<String>,
    search: SearchPath,
    key: Option<std::sync::Arc<KeyResources>>,
    skipped: Vec<OpenError>,
}

impl std::fmt::Debug for Install {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Install")
            .field("dir", &self.dir)
            .field("module", &self.module)
            .field("search", &self.search)
            .field("skipped", &self.skipped)
            .finish()
    }
}

/// The capsule files of module `name` in `modules_dir`, in search order: `NAME.mod` (which
/// replaces `NAME.rim` and `NAME_s.rim`) or else those two, then `NAME_dlg.erf`; only those that
/// exist.
pub fn module_capsules(modules_dir: &Path, name: &str) -> Vec<PathBuf> {
    let find = |file: String| find_in_dir(modules_dir, &file).filter(|p| p.is_file());
    let mut out = Vec::new();
    if let Some(m) = find(format!("{name}.mod")) {
        out.push(m);
    } else {
        out.extend(find(format!("{name}.rim")));
        out.extend(find(format!("{name}_s.rim")));
    }
    out.extend(find(format!("{name}_dlg.erf")));
    out
}

impl Install {
    /// Opens the install at `dir`, with the capsules of module `module` when given. The folder
    /// must hold `chitin.key`, `modules/` or `override/` (any letter case), or it is no game
    /// folder; a module none of whose capsules exists is an error. A texture pack that does
    /// not open is no error: it is left out and listed in [`Install::skipped`].
    pub fn open(dir: &Path, module: Option<&str>) -> Result<Install, OpenError> {
        let meta = std::fs::metadata(dir).map_err(|e| OpenError::io(dir, e))?;
        if !meta.is_dir() {
            return Err(OpenError::io(
                dir,
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a game folder must be a folder",
                ),
            ));
        }
        let key_path = find_in_dir(dir, "chitin.key").filter(|p| p.is_file());
        let modules = find_in_dir(dir, "modules").filter(|p| p.is_dir());
        let overrides = find_in_dir(dir, "override").filter(|p| p.is_dir());
        if key_path.is_none() && modules.is_none() && overrides.is_none() {
            return Err(OpenError::io(
                dir,
                io::Error::new(
                    io::ErrorKind::NotFound,
                    "not a game folder: it holds no chitin.key, modules/ or override/",
                ),
            ));
        }
        let mut search = SearchPath::new();
        if let Some(o) = &overrides {
            let folder = FolderResources::open(o).map_err(|e| OpenError::io(o, e))?;
            search.push(o.display().to_string(), Box::new(folder));
        }
        if let Some(name) = module {
            let capsules = modules
                .as_deref()
                .map(|m| module_capsules(m, name))
                .unwrap_or_default();
            if capsules.is_empty() {
                return Err(OpenError::io(
                    &dir.join("modules"),
                    io::Error::new(
                        io::ErrorKind::NotFound,
                        format!(
                            "module {name}: no {name}.mod, {name}.rim, {name}_s.rim or {name}_dlg.erf"
                        ),
                    ),
                ));
            }
            for c in capsules {
                let capsule = Capsule::open(&c)?;
                search.push(c.display().to_string(), Box::new(capsule));
            }
        }
        // The texture packs, after the module and before the BIFs (their tables only). A pack
        // that does not open is left out, with a note: it holds textures only, and every
        // command would stop on it.
        let mut skipped = Vec::new();
        for pack in texture_packs(dir) {
            match StreamCapsule::open(&pack) {
                Ok(capsule) => search.push(pack.display().to_string(), Box::new(capsule)),
                Err(e) => skipped.push(e),
            }
        }
        let key = match &key_path {
            Some(k) => {
                let key = std::sync::Arc::new(KeyResources::open(k, dir)?);
                search.push(k.display().to_string(), Box::new(SharedKey(key.clone())));
                Some(key)
            }
            None => None,
        };
        Ok(Install {
            dir: dir.to_path_buf(),
            module: module.map(str::to_string),
            search,
            key,
            skipped,
        })
    }

    /// The texture packs that did not open (a damaged or unreadable ERF), each with why: they
    /// are not searched. The caller reports them.
    pub fn skipped(&self) -> &[OpenError] {
        &self.skipped
    }

    /// The game folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The module asked for.
    pub fn module(&self) -> Option<&str> {
        self.module.as_deref()
    }

    /// The places searched, in order.
    pub fn search_path(&self) -> &SearchPath {
        &self.search
    }

    /// The KEY and its BIFs, when the install has `chitin.key`.
    pub fn key(&self) -> Option<&KeyResources> {
        self.key.as_deref()
    }

    /// The search path, taken out (to stack it with other places).
    pub fn into_search_path(self) -> SearchPath {
        self.search
    }
}

/// A KEY shared between the install and its search path.
struct SharedKey(std::sync::Arc<KeyResources>);

impl Resources for SharedKey {
    fn get(&self, resref: &str, ext: &str) -> io::Result<Option<Resource>> {
        self.0.get(resref, ext)
    }

    fn list(&self) -> io::Result<Vec<Listing>> {
        self.0.list()
    }
}

impl Resources for Install {
    fn get(&self, resref: &str, ext: &str) -> io::Result<Option<Resource>> {
        self.search.get(resref, ext)
    }

    fn get_any(&self, resref: &str, exts: &[&str]) -> io::Result<Option<(Resource, usize)>> {
        self.search.get_any(resref, exts)
    }

    fn list(&self) -> io::Result<Vec<Listing>> {
        self.search.list()
    }
}

/// A path naming a capsule member, `.../capsule.mod/name.ext`: the capsule file and the
/// member's name and extension. `None` when no proper prefix of `path` is a regular file or
/// the last component is not `name.ext`.
pub fn split_member_path(path: &Path) -> Option<(PathBuf, String, String)> {
    let capsule = path.parent()?;
    if capsule.as_os_str().is_empty() || !capsule.is_file() {
        return None;
    }
    let name = path.file_name()?.to_str()?;
    let (resref, ext) = name.rsplit_once('.')?;
    Some((capsule.to_path_buf(), resref.to_string(), ext.to_string()))
}

/// Reads the capsule member a path names (`m13aa.mod/m13aa_01a.wok`): `Ok(None)` when `path`
/// is no member path (see [`split_member_path`]); a member the capsule does not hold is an
/// [`OpenError::Io`] (not found) naming the path.
pub fn read_member_path(path: &Path) -> Result<Option<Resource>, OpenError> {
    let Some((capsule, resref, ext)) = split_member_path(path) else {
        return Ok(None);
    };
    let c = Capsule::open(&capsule)?;
    match c.find(&resref, &ext) {
        Some(i) => Ok(Some(Resource {
            data: c.data(i).to_vec(),
            origin: c.origin(i),
        })),
        None => Err(OpenError::io(
            path,
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("{} holds no {resref}.{ext}", capsule.display()),
            ),
        )),
    }
}

#[cfg(test)]
mod tests;
