//! `areakit relink`: an area's room links set from geometry, as a typed report.
//!
//! The area is opened as every area input is ([`crate::input::open_module_with`]: a LYT, a
//! folder, a module folder, a capsule, a LYT member of a capsule, a game module), its rooms'
//! transitions are set by [`areakit_area::relink`], and the area's files are written as loose
//! files to the output folder: every room WOK (a changed one re-encoded, which changes only
//! its transitions; an unchanged one as its bytes were read), the LYT and the VIS. The output
//! folder is then an area areakit opens. The input is never written: an output folder that
//! is the input's folder is refused.

use std::path::{Path, PathBuf};

use areakit_area::relink::{self as rl, SharedEdge};
pub use areakit_area::relink::{LinkChange, RelinkOptions};
use areakit_area::resources::Resources;
use areakit_formats::bwm;

use crate::Error;
use crate::atomic::{Member, write_set};
use crate::input::open_module_with;
use crate::session::{Session, same_file};

/// What `relink` did: its serialisation is `areakit relink --json`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RelinkReport {
    /// The input as given.
    pub input: PathBuf,
    /// The output folder.
    pub output: PathBuf,
    /// The tolerance used (metres).
    pub tolerance: f32,
    /// Rooms in the layout.
    pub rooms: usize,
    /// Rooms whose walkmesh was found and read (the others' links are not judged).
    pub rooms_with_wok: usize,
    /// Every transition changed, in room, face, side order.
    pub changes: Vec<LinkChange>,
    /// Links added where there were none.
    pub set: usize,
    /// Links removed.
    pub cleared: usize,
    /// Links moved from one room to another.
    pub changed: usize,
    /// Edges with a link after the run.
    pub links: usize,
    /// Links kept unchecked: they lead into a room of the layout whose walkmesh is not here.
    pub unverified: usize,
    /// Edges that meet several rooms and lead into one (the others' links along them stay
    /// one-way).
    pub shared: Vec<SharedEdge>,
    /// The files written, in order: the WOKs (room order), the LYT, the VIS.
    pub written: Vec<PathBuf>,
    /// The WOKs among them that were re-encoded (their links changed).
    pub rewritten: Vec<PathBuf>,
}

/// Relinks the area `input` names and writes its files to the folder `output` (created when
/// missing). Refuses (usage error) an output folder that is the input's folder, and an output
/// that is an existing file.
pub fn relink(
    session: &Session,
    input: &Path,
    output: &Path,
    opts: &RelinkOptions,
) -> Result<RelinkReport, Error> {
    if !(opts.tolerance.is_finite() && opts.tolerance >= 0.0) {
        return Err(Error::usage(format!(
            "--tolerance {}: expected a distance in metres, 0 or more",
            opts.tolerance
        )));
    }
    let Some((module, resources)) = open_module_with(session, Some(input))? else {
        return Err(Error::usage(format!(
            "{}: not an area (relink takes a LYT, a folder, a module folder, a capsule or a game module)",
            input.display()
        )));
    };
    let mut area = module.area;
    if input.is_dir() && same_file(input, output) || same_file(&area.dir, output) {
        return Err(Error::usage(format!(
            "{}: is the input's folder; relink never overwrites its input (write to another folder)",
            output.display()
        )));
    }
    if output.exists() && !output.is_dir() {
        return Err(Error::usage(format!(
            "{}: not a folder (relink writes an area's files into a folder)",
            output.display()
        )));
    }

    let done = rl::relink_detailed(&mut area, opts);

    // The bytes of everything written are made before the first write.
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut rewritten = Vec::new();
    let changed_rooms: std::collections::BTreeSet<usize> =
        done.changes.iter().map(|c| c.room).collect();
    for (i, room) in area.rooms.iter().enumerate() {
        let (Some(wok), Some(path)) = (&room.wok, &room.wok_path) else {
            continue;
        };
        let name = file_name(path, &room.name, "wok");
        let target = output.join(&name);
        let bytes = if changed_rooms.contains(&i) {
            rewritten.push(target.clone());
            bwm::write(wok).map_err(|e| Error::encode(path, e))?
        } else {
            original(&*resources, &room.name, "wok", path)?
        };
        files.push((target, bytes));
    }
    let lyt_name = file_name(&area.lyt_path, &area.resref, "lyt");
    files.push((
        output.join(lyt_name),
        original(&*resources, &area.resref, "lyt", &area.lyt_path)?,
    ));
    if let (Some(path), Some(_)) = (&area.vis_path, &area.vis) {
        files.push((
            output.join(file_name(path, &area.resref, "vis")),
            original(&*resources, &area.resref, "vis", path)?,
        ));
    }

    std::fs::create_dir_all(output).map_err(|e| Error::io(output, e))?;
    // One set, the LYT (what a reader opens) first: never the new layout beside old rooms.
    let mut set: Vec<Member<'_>> = files.iter().map(|(p, b)| Member::file(p, b)).collect();
    if let Some(i) = set.iter().position(|m| {
        m.path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("lyt"))
    }) {
        set.swap(0, i);
    }
    write_set(&set)?;

    let count = |f: fn(&LinkChange) -> bool| done.changes.iter().filter(|c| f(c)).count();
    Ok(RelinkReport {
        input: input.to_path_buf(),
        output: output.to_path_buf(),
        tolerance: opts.tolerance,
        rooms: area.rooms.len(),
        rooms_with_wok: area.rooms.iter().filter(|r| r.wok.is_some()).count(),
        set: count(|c| c.from.is_none() && c.to.is_some()),
        cleared: count(|c| c.from.is_some() && c.to.is_none()),
        changed: count(|c| c.from.is_some() && c.to.is_some()),
        changes: done.changes,
        links: done.links,
        unverified: done.unverified,
        shared: done.shared,
        written: files.into_iter().map(|(p, _)| p).collect(),
        rewritten,
    })
}

/// The file name to write a resource under: the name it was found under (a file's, or a
/// capsule member's `name.ext`), else `<resref>.<ext>`.
fn file_name(found: &Path, resref: &str, ext: &str) -> String {
    found
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| format!("{}.{ext}", resref.to_ascii_lowercase()))
}

/// The bytes of a resource as the area read them, again from the place it was found in.
fn original(res: &dyn Resources, resref: &str, ext: &str, origin: &Path) -> Result<Vec<u8>, Error> {
    match res.get(resref, ext) {
        Ok(Some(r)) => Ok(r.data),
        Ok(None) => Err(Error::io(
            origin,
            std::io::Error::new(std::io::ErrorKind::NotFound, "gone since the area was read"),
        )),
        Err(e) => Err(Error::io(origin, e)),
    }
}
