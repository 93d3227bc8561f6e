//! `areakit ls`, `extract` and `pack`: listing resources where they live, writing them out,
//! and building a capsule from a folder.
//!
//! Extracting a whole capsule also writes [`MANIFEST`] beside the members: the capsule's header,
//! member order, names and layout (padding and unreferenced bytes included). `pack` reads it
//! back, so an unmodified extraction re-packs to the same bytes; without a manifest (or once a
//! member's size changed) the capsule is laid out anew (members sorted by name).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use areakit_area::install::{Capsule, CapsuleKind};
use areakit_area::resources::{Listing, Resources};
use areakit_formats::erf::{self, Erf, ErfKind};
use areakit_formats::restype::{ResRef, ResType, parse_file_name};
use areakit_formats::rim::{self, Rim};
use areakit_formats::{DecodeError, EncodeError, names};

pub mod manifest;
use manifest::{Body, Manifest};

use crate::Error;
use crate::atomic::{Member, write_set};
use crate::session::{Session, file_format, open_error, read_file, same_file, write_atomic};

/// The manifest `extract` writes beside a whole capsule's members, and `pack` reads.
pub const MANIFEST: &str = "areakit-capsule.json";

/// The resources of `capsules` (in the order given) and then the session's game, each once
/// (the copy the search finds, with what it shadows), sorted by name then type; only type
/// `ext` when given.
pub fn list(
    session: &Session,
    capsules: &[PathBuf],
    ext: Option<&str>,
) -> Result<Vec<Listing>, Error> {
    let restype = match ext {
        Some(e) => Some(
            ResType::from_extension(e)
                .ok_or_else(|| Error::usage(format!("resource type {e}: unknown")))?,
        ),
        None => None,
    };
    let search = session.resources(capsules)?;
    let all = search
        .list()
        .map_err(|e| Error::io(Path::new(&search.names().join(", ")), e))?;
    Ok(all
        .into_iter()
        .filter(|l| restype.is_none_or(|t| t == l.restype))
        .collect())
}

/// One resource of the `ls` report.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LsEntry {
    /// `resref.ext`.
    pub name: String,
    /// The resource name.
    pub resref: String,
    /// The type's extension (or its id when it has none).
    #[serde(rename = "type")]
    pub restype: String,
    /// The type id.
    pub type_id: u16,
    /// Size in bytes.
    pub size: u64,
    /// Where the copy the search finds is.
    pub origin: String,
    /// Where the copies it hides are, in search order.
    pub shadows: Vec<String>,
}

/// The `ls` report: its serialisation is `ls --json`, `{"count": N, "resources": [...]}`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LsReport {
    /// How many resources.
    pub count: usize,
    /// The resources.
    pub resources: Vec<LsEntry>,
}

impl LsReport {
    /// The report of a listing.
    pub fn new(listing: &[Listing]) -> LsReport {
        LsReport {
            count: listing.len(),
            resources: listing
                .iter()
                .map(|l| LsEntry {
                    name: l.file_name(),
                    resref: l.resref.name(),
                    restype: l.restype.to_string(),
                    type_id: l.restype.id(),
                    size: l.size,
                    origin: l.origin.clone(),
                    shadows: l.shadows.clone(),
                })
                .collect(),
        }
    }
}

/// What `extract` wrote.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Extracted {
    /// The files written, in order.
    pub files: Vec<PathBuf>,
    /// Whether a manifest was written (a whole capsule).
    pub manifest: bool,
    /// The resources whose names are no safe file name, and what they were written as.
    pub renamed: Vec<Renamed>,
    /// The resources listed but not written, and why (`file` empty).
    pub skipped: Vec<Renamed>,
}

/// A resource written under another name than its own ([`names::file_name_problem`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Renamed {
    /// The name the container gives (`resref.ext`, exactly as stored; not safe to print raw).
    pub name: String,
    /// The file it was written as, in the output folder.
    pub file: String,
    /// Why the name could not be used.
    pub reason: String,
}

/// Writes resources named `names` (`resref.ext`), found through `capsules` and then the
/// session's game, into `out` (made if needed). With no names and exactly one capsule and no
/// game, the whole capsule is written, every member in table order, with its [`MANIFEST`];
/// with no names otherwise, every resource the search finds. A name found nowhere is an error
/// (nothing is written).
pub fn extract(
    session: &Session,
    capsules: &[PathBuf],
    names: &[String],
    out: &Path,
) -> Result<Extracted, Error> {
    if let ([path], true, true, true) = (
        capsules,
        names.is_empty(),
        session.game().is_none(),
        session.sources().capsules.is_empty(),
    ) && file_format(path) != Some(areakit_formats::any::Format::Key)
    {
        let capsule = Capsule::open(path).map_err(open_error)?;
        return extract_capsule(&capsule, out);
    }
    // Capsule member paths (`x.mod/a.wok`) name their capsule themselves.
    let (members, names): (Vec<&String>, Vec<&String>) = names
        .iter()
        .partition(|n| areakit_area::install::split_member_path(Path::new(n)).is_some());
    let mut found = Vec::with_capacity(members.len() + names.len());
    for m in members {
        let path = Path::new(m);
        let r = areakit_area::install::read_member_path(path)
            .map_err(open_error)?
            .ok_or_else(|| {
                Error::io(
                    path,
                    std::io::Error::new(std::io::ErrorKind::NotFound, "no such capsule member"),
                )
            })?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        found.push((name, r.data));
    }
    if !found.is_empty() && names.is_empty() && capsules.is_empty() {
        return write_extracted(found, out);
    }
    let search = session.resources(capsules)?;
    let mut wanted: Vec<(String, String)> = Vec::new();
    let mut skipped = Vec::new();
    if names.is_empty() && found.is_empty() {
        let all = search
            .list()
            .map_err(|e| Error::io(Path::new(&search.names().join(", ")), e))?;
        for l in &all {
            // A name that is no text cannot be asked for by name: listed, not extracted.
            if std::str::from_utf8(l.resref.name_bytes()).is_ok() {
                wanted.push((l.resref.name(), l.restype.to_string()));
            } else {
                skipped.push(Renamed {
                    name: l.file_name(),
                    file: String::new(),
                    reason: format!(
                        "its name's bytes {:02x?} are not text, so it cannot be looked up by name",
                        l.resref.name_bytes()
                    ),
                });
            }
        }
    } else {
        for n in names {
            let (r, e) = n
                .rsplit_once('.')
                .ok_or_else(|| Error::usage(format!("{n}: expected RESREF.EXT")))?;
            wanted.push((r.to_string(), e.to_string()));
        }
    }
    for (r, e) in &wanted {
        let res = search
            .get(r, e)
            .map_err(|err| Error::io(Path::new(&format!("{r}.{e}")), err))?
            .ok_or_else(|| {
                Error::io(
                    Path::new(&format!("{r}.{e}")),
                    std::io::Error::new(
                        std::io::ErrorKind::NotFound,
                        format!("not found in {}", search.names().join(", ")),
                    ),
                )
            })?;
        found.push((format!("{r}.{e}"), res.data));
    }
    let mut done = write_extracted(found, out)?;
    done.skipped = skipped;
    Ok(done)
}

/// Writes extracted resources (name, bytes) into `out`, each under a safe file name not used
/// yet ([`names::safe_file_name`]: `resource<i>.ext` for a name that is not), all or none.
fn write_extracted(found: Vec<(String, Vec<u8>)>, out: &Path) -> Result<Extracted, Error> {
    let mut result = Extracted::default();
    let mut used = HashSet::new();
    let mut files = Vec::with_capacity(found.len());
    for (i, (name, data)) in found.into_iter().enumerate() {
        let (safe, problem) = names::safe_file_name(&name, || fallback_name("resource", i, &name));
        let file = unique_name(&safe, &mut used);
        if let Some(p) = problem {
            result.renamed.push(Renamed {
                name,
                file: file.clone(),
                reason: p.to_string(),
            });
        }
        files.push((file, data));
    }
    result.files = write_into(out, &files)?;
    Ok(result)
}

/// `<prefix><i>.<ext>`: the extension of `name` when it is a safe one, else `bin`.
fn fallback_name(prefix: &str, i: usize, name: &str) -> String {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e)
        .filter(|e| names::file_name_problem(e).is_none() && !e.contains('.'))
        .unwrap_or("bin");
    format!("{prefix}{i}.{ext}")
}

/// Writes `files` (safe names) into the folder `out`, made if needed, as one set: all or
/// none (a folder this call made is removed again when the write fails). Every path is
/// confined to `out`: a name that is a link leading out of it is refused.
fn write_into(out: &Path, files: &[(String, Vec<u8>)]) -> Result<Vec<PathBuf>, Error> {
    let made = !out.exists();
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let result = (|| {
        let root = std::fs::canonicalize(out).map_err(|e| Error::io(out, e))?;
        let paths: Vec<PathBuf> = files.iter().map(|(n, _)| out.join(n)).collect();
        for p in &paths {
            confined(&root, p)?;
        }
        let set: Vec<Member<'_>> = paths
            .iter()
            .zip(files)
            .map(|(p, (_, b))| Member::file(p, b))
            .collect();
        write_set(&set)?;
        Ok(paths)
    })();
    if result.is_err() && made {
        let _ = std::fs::remove_dir(out);
    }
    result
}

/// Refuses a path in `root` that leads out of it once links are resolved.
fn confined(root: &Path, path: &Path) -> Result<(), Error> {
    let resolved = match std::fs::canonicalize(path) {
        Ok(r) => r,
        // Not there yet: its folder is `root` itself.
        Err(_) if std::fs::symlink_metadata(path).is_err() => return Ok(()),
        // A dangling link: where it points is outside anything we can check.
        Err(e) => return Err(Error::io(path, e)),
    };
    if resolved.starts_with(root) {
        Ok(())
    } else {
        Err(Error::io(
            path,
            std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "a link to {}, outside the output folder: nothing was written",
                    resolved.display()
                ),
            ),
        ))
    }
}

/// A file name not used yet in this extraction (compared without regard to case): `name.ext`,
/// else `name~2.ext`, `name~3.ext`, ...
fn unique_name(name: &str, used: &mut HashSet<String>) -> String {
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    let mut candidate = name.to_string();
    let mut n = 2;
    while !used.insert(candidate.to_ascii_lowercase()) {
        candidate = format!("{stem}~{n}.{ext}");
        n += 1;
    }
    candidate
}

/// The file name a member is written under: its `name.ext` when that is a safe file name
/// ([`names::file_name_problem`]), else `member<i>.ext`; with the reason when renamed.
fn member_file_name(
    i: usize,
    resref: &ResRef,
    restype: ResType,
) -> (String, Option<names::UnsafeName>) {
    let name = resref.file_name(restype);
    match names::file_name_problem(&name) {
        None => (name, None),
        Some(p) => (format!("member{i}.{restype}"), Some(p)),
    }
}

/// Writes every member of a capsule, and its manifest, as one set: the manifest (what `pack`
/// reads first) appears last, once every member is in place.
pub fn extract_capsule(capsule: &Capsule, out: &Path) -> Result<Extracted, Error> {
    let path = capsule.path();
    let data = read_file(path)?;
    let invalid = |e: DecodeError| Error::invalid(path, e);
    let mut used = HashSet::new();
    used.insert(MANIFEST.to_ascii_lowercase());
    let mut renamed = Vec::new();
    let mut name_all = |stored: Vec<(ResRef, ResType)>| -> Vec<String> {
        stored
            .into_iter()
            .enumerate()
            .map(|(i, (resref, restype))| {
                let (safe, problem) = member_file_name(i, &resref, restype);
                let file = unique_name(&safe, &mut used);
                if let Some(p) = problem {
                    renamed.push(Renamed {
                        name: resref.file_name(restype),
                        file: file.clone(),
                        reason: p.to_string(),
                    });
                }
                file
            })
            .collect()
    };
    let (manifest, members): (Manifest, Vec<(String, Vec<u8>)>) = match capsule.kind() {
        CapsuleKind::Erf(_) => {
            let e = erf::read(&data).map_err(invalid)?;
            let files = name_all(e.resources.iter().map(|r| (r.resref, r.restype)).collect());
            let m = Manifest::of_erf(&e, &files);
            let data = e.resources.into_iter().map(|r| r.data);
            (m, files.into_iter().zip(data).collect())
        }
        CapsuleKind::Rim => {
            let r = rim::read(&data).map_err(invalid)?;
            let files = name_all(r.resources.iter().map(|m| (m.resref, m.restype)).collect());
            let m = Manifest::of_rim(&r, &files);
            let data = r.resources.into_iter().map(|m| m.data);
            (m, files.into_iter().zip(data).collect())
        }
    };
    let text = serde_json::to_string_pretty(&manifest).map_err(|e| {
        Error::io(
            &out.join(MANIFEST),
            std::io::Error::other(format!("the manifest does not serialise: {e}")),
        )
    })?;
    let mut files = Vec::with_capacity(members.len() + 1);
    files.push((MANIFEST.to_string(), text.into_bytes()));
    files.extend(members);
    let mut written = write_into(out, &files)?;
    written.remove(0);
    Ok(Extracted {
        files: written,
        manifest: true,
        renamed,
        skipped: Vec::new(),
    })
}

/// What `pack` built.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Packed {
    /// Members written.
    pub members: usize,
    /// Bytes written.
    pub bytes: usize,
    /// Whether the folder's manifest was followed (else a new layout).
    pub from_manifest: bool,
}

/// The capsule kind an output path's extension names (`mod`, `erf`, `sav`, `hak`, `rim`).
pub fn kind_of_output(out: &Path) -> Result<CapsuleKind, Error> {
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    Ok(match ext.as_deref() {
        Some("mod") => CapsuleKind::Erf(ErfKind::Mod),
        Some("erf") => CapsuleKind::Erf(ErfKind::Erf),
        Some("sav") => CapsuleKind::Erf(ErfKind::Sav),
        Some("hak") => CapsuleKind::Erf(ErfKind::Hak),
        Some("rim") => CapsuleKind::Rim,
        _ => {
            return Err(Error::usage(format!(
                "{}: the output must end in .mod, .erf, .sav, .hak or .rim",
                out.display()
            )));
        }
    })
}

/// Builds a capsule from the regular files of `dir` (not its subfolders; each named
/// `resref.ext`) and writes it to `out` atomically; the type comes from `out`'s extension.
/// With the folder's [`MANIFEST`] of the same family (ERF or RIM), members keep its order,
/// names, header and, while sizes are unchanged, its layout: an unmodified extraction gives
/// the capsule's own bytes back.
pub fn pack(dir: &Path, out: &Path) -> Result<Packed, Error> {
    let kind = kind_of_output(out)?;
    if !dir.exists() && areakit_area::install::split_member_path(dir).is_some() {
        return Err(Error::usage(format!(
            "{}: a member of a capsule, not a folder: pack takes a folder of resources",
            dir.display()
        )));
    }
    let meta = std::fs::metadata(dir).map_err(|e| Error::io(dir, e))?;
    if !meta.is_dir() {
        return Err(Error::usage(format!(
            "{}: pack takes a folder of resources",
            dir.display()
        )));
    }
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let path = entry.path();
        if !path.is_file() || same_file(&path, out) {
            continue;
        }
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .map(str::to_string)
        else {
            return Err(Error::usage(format!(
                "{}: file name is not UTF-8",
                path.display()
            )));
        };
        if name.eq_ignore_ascii_case(MANIFEST) || name.starts_with('.') {
            continue;
        }
        files.push((name, path));
    }
    files.sort();
    let manifest_path = dir.join(MANIFEST);
    let manifest = read_manifest(&manifest_path, kind)?;
    let from_manifest = manifest.is_some();
    let enc = |source: EncodeError| Error::Encode {
        path: out.to_path_buf(),
        source,
    };
    let (bytes, members) = match (kind, manifest.map(|m| m.body)) {
        (CapsuleKind::Erf(k), Some(Body::Erf(m))) => {
            let mut e = erf_from_manifest(&m, dir, &files, &manifest_path)?;
            e.header.kind = k;
            let n = e.resources.len();
            (erf::write(&e).map_err(enc)?, n)
        }
        (CapsuleKind::Rim, Some(Body::Rim(m))) => {
            let r = rim_from_manifest(&m, dir, &files, &manifest_path)?;
            let n = r.resources.len();
            (rim::write(&r).map_err(enc)?, n)
        }
        (kind, _) => {
            let mut data = Vec::with_capacity(files.len());
            for (name, path) in &files {
                data.push((name.clone(), read_file(path)?));
            }
            let n = data.len();
            let bytes = match kind {
                CapsuleKind::Erf(k) => erf::write(&Erf::from_files(k, data).map_err(enc)?),
                CapsuleKind::Rim => rim::write(&Rim::from_files(data).map_err(enc)?),
            }
            .map_err(enc)?;
            (bytes, n)
        }
    };
    write_atomic(out, &bytes)?;
    Ok(Packed {
        members,
        bytes: bytes.len(),
        from_manifest,
    })
}

/// The folder's manifest, when it has one of the family `kind` writes (a manifest of the
/// other family is passed over: its layout cannot apply); an error at line:column when it is
/// no manifest.
fn read_manifest(path: &Path, kind: CapsuleKind) -> Result<Option<Manifest>, Error> {
    if !path.is_file() {
        return Ok(None);
    }
    let text = read_file(path)?;
    let at = |e: serde_json::Error| {
        Error::invalid(
            path,
            DecodeError::malformed_text(
                u32::try_from(e.line()).unwrap_or(u32::MAX),
                u32::try_from(e.column()).unwrap_or(u32::MAX),
                format!("not a capsule manifest: {e}"),
            ),
        )
    };
    #[derive(serde::Deserialize)]
    struct Family {
        format: Option<String>,
    }
    let family = match kind {
        CapsuleKind::Erf(_) => "erf",
        CapsuleKind::Rim => "rim",
    };
    let peek: Family = serde_json::from_slice(&text).map_err(at)?;
    if peek.format.as_deref() != Some(family) {
        return Ok(None);
    }
    serde_json::from_slice(&text).map(Some).map_err(at)
}

/// A manifest whose fields do not fit its capsule.
fn bad_manifest(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::invalid(
        path,
        DecodeError::new(
            areakit_formats::ErrorKind::Malformed,
            areakit_formats::Location::Input,
            e.to_string(),
        ),
    )
}

/// A member to pack: its key, its index in the manifest (if it has one) and its data.
struct MemberData {
    resref: ResRef,
    restype: ResType,
    index: Option<usize>,
    data: Vec<u8>,
}

/// The data of the members a manifest names, read from `dir`, in its order; then the
/// folder's other files (appended, keyed by their names). Each with its index in the
/// manifest, if it has one.
fn member_data(
    named: &[manifest::Named<'_>],
    dir: &Path,
    files: &[(String, PathBuf)],
    manifest_path: &Path,
) -> Result<Vec<MemberData>, Error> {
    // A member that cannot be read makes the manifest unusable (as a file it names that is
    // not there).
    let read = |p: &Path| {
        std::fs::read(p).map_err(|e| bad_manifest(manifest_path, format!("{}: {e}", p.display())))
    };
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (i, m) in named.iter().enumerate() {
        // A manifest names files in its own folder only: no path, no link out of it.
        if let Some(p) = names::file_name_problem(m.file) {
            return Err(bad_manifest(
                manifest_path,
                format!(
                    "member {i}: file {}: not a file name in this folder ({p})",
                    m.file.escape_debug()
                ),
            ));
        }
        seen.insert(m.file.to_string());
        out.push(MemberData {
            resref: m.resref,
            restype: m.restype,
            index: Some(i),
            data: read(&dir.join(m.file))?,
        });
    }
    for (name, path) in files {
        if seen.contains(name) {
            continue;
        }
        let (r, t) = parse_file_name(name).map_err(|e| bad_manifest(manifest_path, e.0))?;
        out.push(MemberData {
            resref: r,
            restype: t,
            index: None,
            data: read(path)?,
        });
    }
    Ok(out)
}

fn erf_from_manifest(
    m: &manifest::ErfManifest,
    dir: &Path,
    files: &[(String, PathBuf)],
    path: &Path,
) -> Result<Erf, Error> {
    let (mut e, named) = m.start().map_err(|x| bad_manifest(path, x))?;
    for member in member_data(&named, dir, files, path)? {
        e.push(member.resref, member.restype, member.data);
        if let (Some(last), Some(i)) = (e.resources.last_mut(), member.index) {
            last.id = m.members[i].id;
            last.unused = m.members[i].unused;
        }
    }
    e.layout = m.layout();
    Ok(e)
}

fn rim_from_manifest(
    m: &manifest::RimManifest,
    dir: &Path,
    files: &[(String, PathBuf)],
    path: &Path,
) -> Result<Rim, Error> {
    let (mut r, named) = m.start().map_err(|x| bad_manifest(path, x))?;
    for member in member_data(&named, dir, files, path)? {
        r.push(member.resref, member.restype, member.data);
        if let (Some(last), Some(i)) = (r.resources.last_mut(), member.index) {
            last.id = m.members[i].id;
            last.type_high = m.members[i].type_high;
        }
    }
    r.layout = m.layout();
    Ok(r)
}
