//! Holocron Toolset kits on disk: `<kits>/<kit>.json` (components with door hooks, doors)
//! beside a `<kits>/<kit>/` folder holding, per component, `<id>.mdl`/`.mdx` (room model),
//! `<id>.wok` (walkmesh, model space) and `<id>.png` (minimap image); the door templates
//! (`<utd>.utd`); optional `textures/`, `lightmaps/` (TGA + TXI), `always/` (copied as is),
//! `skyboxes/` (MDL + MDX) and `doorway/` (`side<door>_<size>`/`top<door>_<size>` padding
//! models). Facts from PyKotor's `pykotor/tools/indoorkit.py` and the corpus kits.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::BuildError;

/// A kit's JSON.
#[derive(Debug, Clone)]
pub struct Kit {
    /// Its id (the JSON's `id`, else the file stem).
    pub id: String,
    /// Display name.
    pub name: String,
    /// The kit's folder (`<kits>/<id>`).
    pub dir: PathBuf,
    /// Components, in file order.
    pub components: Vec<KitComponent>,
    /// Door kinds; a hook's `door` indexes this.
    pub doors: Vec<KitDoor>,
}

/// A component (room) of a kit.
#[derive(Debug, Clone, Deserialize)]
pub struct KitComponent {
    /// Its id (file stem of its model, walkmesh and image).
    pub id: String,
    /// Display name.
    #[serde(default)]
    pub name: String,
    /// Door hooks.
    #[serde(default, rename = "doorhooks")]
    pub hooks: Vec<KitHook>,
}

/// A door hook of a kit component, in the component's space.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct KitHook {
    /// Position x.
    pub x: f32,
    /// Position y.
    pub y: f32,
    /// Position z.
    pub z: f32,
    /// The direction the doorway faces, degrees counter-clockwise from +y.
    #[serde(default)]
    pub rotation: f32,
    /// The kit door used here.
    #[serde(default)]
    pub door: usize,
    /// The transition value that marks this doorway's edges in the component's WOK (20, 21,
    /// ... in the Holocron kits).
    #[serde(default)]
    pub edge: i32,
}

/// A door kind of a kit.
#[derive(Debug, Clone, Deserialize)]
pub struct KitDoor {
    /// The K1 template's resref (a `.utd` in the kit folder).
    pub utd_k1: String,
    /// The K2 template's resref.
    pub utd_k2: String,
    /// Doorway width.
    #[serde(default)]
    pub width: f32,
    /// Doorway height.
    #[serde(default)]
    pub height: f32,
}

#[derive(Deserialize)]
struct KitJson {
    #[serde(default)]
    name: String,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    components: Vec<KitComponent>,
    #[serde(default)]
    doors: Vec<KitDoor>,
}

/// The largest kit JSON read (a kit with hundreds of components is under 1 MB).
const MAX_KIT_JSON: u64 = 16 << 20;

/// Loads kit `id` from the kits folder: `<id>.json`, else the JSON whose `id` is `id`.
pub fn load_kit(kits: &Path, id: &str) -> Result<Kit, BuildError> {
    let direct = find_file(kits, &format!("{id}.json"));
    let mut candidates: Vec<PathBuf> = direct.into_iter().collect();
    if candidates.is_empty() {
        let rd = std::fs::read_dir(kits).map_err(|e| BuildError::io(kits, e))?;
        for e in rd.flatten() {
            let p = e.path();
            if p.extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("json"))
            {
                candidates.push(p);
            }
        }
        candidates.sort();
    }
    for path in candidates {
        let kit = read_kit_json(&path)?;
        if kit.id.eq_ignore_ascii_case(id) {
            return Ok(kit);
        }
    }
    Err(BuildError::Missing(format!(
        "kit {id:?}: no {id}.json (or JSON with that id) in {}",
        kits.display()
    )))
}

/// Reads one kit JSON; the kit folder is the JSON's stem beside it.
pub fn read_kit_json(path: &Path) -> Result<Kit, BuildError> {
    let text = read_limited(path, MAX_KIT_JSON)?;
    let text = String::from_utf8(text)
        .map_err(|_| BuildError::Layout(format!("{}: not UTF-8 JSON", path.display())))?;
    let j: KitJson = serde_json::from_str(&text).map_err(|e| {
        BuildError::Layout(format!(
            "{}:{}:{}: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id = j.id.unwrap_or_else(|| stem.clone());
    let parent = path.parent().unwrap_or(Path::new("."));
    let dir = find_file(parent, &id)
        .or_else(|| find_file(parent, &stem))
        .unwrap_or_else(|| parent.join(&id));
    Ok(Kit {
        id,
        name: j.name,
        dir,
        components: j.components,
        doors: j.doors,
    })
}

impl Kit {
    /// The component with this id (case-insensitive).
    pub fn component(&self, id: &str) -> Option<&KitComponent> {
        self.components
            .iter()
            .find(|c| c.id.eq_ignore_ascii_case(id))
    }

    /// A file of the kit folder (case-insensitive), if present.
    pub fn file(&self, name: &str) -> Option<PathBuf> {
        find_file(&self.dir, name)
    }

    /// Every regular file of a sub-folder (`textures`, `lightmaps`, `always`, ...), sorted by
    /// name; none when the folder is absent.
    pub fn files_in(&self, sub: &str) -> Vec<PathBuf> {
        let Some(d) = find_file(&self.dir, sub) else {
            return Vec::new();
        };
        let mut out: Vec<PathBuf> = std::fs::read_dir(&d)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        out.sort();
        out
    }
}

/// `dir/name`, matched case-insensitively when the exact name is absent.
pub fn find_file(dir: &Path, name: &str) -> Option<PathBuf> {
    let exact = dir.join(name);
    if exact.exists() {
        return Some(exact);
    }
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(name))
        })
}

/// Reads a regular file of at most `limit` bytes.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, BuildError> {
    let meta = std::fs::metadata(path).map_err(|e| BuildError::io(path, e))?;
    if meta.len() > limit {
        return Err(BuildError::Layout(format!(
            "{}: {} bytes, more than the {limit} this input may have",
            path.display(),
            meta.len()
        )));
    }
    crate::io::read_regular_file(path).map_err(|e| BuildError::io(path, e))
}
