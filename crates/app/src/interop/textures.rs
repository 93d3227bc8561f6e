//! Textures for exported scenes: where they are looked up ([`texture_places`]), and the
//! pictures of every texture a scene's materials name, found, decoded and made PNG
//! ([`attach_textures`]), with a report of what was embedded and what is missing. The layout in
//! glTF (base colour, the lightmap on the second UV set, alpha modes) is in `docs/interop.md`.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::json;

use super::{AlphaMode, Scene, SceneImage};
use crate::Error;
use crate::input::Opened;
use crate::session::Session;
use crate::texture::{FoundTexture, MissingTexture, TextureLookup};
use areakit_area::install::SearchPath;
use areakit_area::resources::FolderResources;

/// What was done with the textures of a scene.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TextureReport {
    /// The places searched, in order.
    pub places: Vec<String>,
    /// The textures embedded.
    pub embedded: Vec<EmbeddedTexture>,
    /// The textures named but not embedded (their materials stay flat).
    pub missing: Vec<MissingTexture>,
}

/// A texture embedded in a scene.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EmbeddedTexture {
    /// The name as the model spells it.
    pub name: String,
    /// Where it was found.
    pub origin: String,
    /// `tpc` or `tga`.
    pub format: &'static str,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// `opaque`, `mask`, `blend` or `additive`.
    pub alpha: &'static str,
    /// Used as a lightmap (on the second UV set).
    pub lightmap: bool,
}

impl AlphaMode {
    /// The name in reports and `extras`.
    pub fn name(self) -> &'static str {
        match self {
            AlphaMode::Opaque => "opaque",
            AlphaMode::Mask => "mask",
            AlphaMode::Blend => "blend",
            AlphaMode::Additive => "additive",
        }
    }
}

/// How the game draws a diffuse texture's alpha: `blending additive` adds it; `blending
/// punchthrough` cuts it out (alpha test), as does DXT1's 1-bit alpha; other alpha blends,
/// unless the TXI gives an environment or bump map, whose strength the alpha then is (the
/// texture is opaque). Opaque pixels are opaque.
pub fn alpha_mode(t: &FoundTexture) -> AlphaMode {
    use areakit_formats::txi::Blending;
    match t.txi.blending() {
        Blending::Additive => return AlphaMode::Additive,
        Blending::Punchthrough => return AlphaMode::Mask,
        Blending::Default => {}
    }
    if t.image.is_opaque() {
        return AlphaMode::Opaque;
    }
    if t.txi.get("envmaptexture").is_some()
        || t.txi.get("bumpmaptexture").is_some()
        || t.txi.get("bumpyshinytexture").is_some()
    {
        return AlphaMode::Opaque;
    }
    if t.encoding == Some("dxt1") {
        return AlphaMode::Mask;
    }
    AlphaMode::Blend
}

/// A folder as a place, named by its path; `None` when it is no folder.
fn folder_place(dir: &Path) -> Option<(String, FolderResources)> {
    let f = FolderResources::open(dir).ok()?;
    Some((dir.display().to_string(), f))
}

/// The places textures are looked up in for `opened` (read from `input`): the area's
/// resources (its folder, or its capsule and the game), or the model's folder (a model inside a
/// capsule: the capsule); then the `textures` and `lightmaps` folders beside it (a Holocron
/// kit's layout); then `extra` folders in the order given (`--textures`); then the game
/// (`--game`: override, the module's capsules, KEY/BIF). A folder of `extra` that cannot be
/// read is an error.
pub fn texture_places(
    session: &Session,
    opened: &Opened,
    input: &Path,
    extra: &[PathBuf],
) -> Result<SearchPath, Error> {
    let mut places = SearchPath::new();
    let home: Option<PathBuf> = match opened {
        Opened::Area {
            module, resources, ..
        } => {
            places.push(
                format!("the area's resources ({})", module.area.resref),
                Box::new(resources.clone()),
            );
            Some(module.area.dir.clone())
        }
        Opened::File { .. } => {
            if input.is_file() {
                let dir = match input.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                if let Some((name, f)) = folder_place(&dir) {
                    places.push(name, Box::new(f));
                }
                Some(dir)
            } else {
                if let Some((capsule, _, _)) = areakit_area::install::split_member_path(input)
                    && let Ok(c) = crate::session::open_capsule_or_key(&capsule)
                {
                    places.push(capsule.display().to_string(), c);
                }
                None
            }
        }
    };
    if let Some(dir) = home {
        for sub in ["textures", "lightmaps"] {
            if let Some(d) = areakit_area::install::find_in_dir(&dir, sub).filter(|d| d.is_dir())
                && let Some((name, f)) = folder_place(&d)
            {
                places.push(name, Box::new(f));
            }
        }
    }
    for dir in extra {
        let f = FolderResources::open(dir).map_err(|e| Error::io(dir, e))?;
        places.push(dir.display().to_string(), Box::new(f));
    }
    if let (Some(dir), Some(game)) = (&session.sources().game, session.game()) {
        places.push(dir.display().to_string(), Box::new(game.clone()));
    }
    Ok(places)
}

/// Every texture name the scene's materials use: (lower-case key, spelling, used as a lightmap).
fn texture_names(scene: &Scene) -> Vec<(String, String, bool)> {
    let mut out: Vec<(String, String, bool)> = Vec::new();
    for g in scene
        .nodes
        .iter()
        .filter_map(|n| n.mesh.as_ref())
        .flat_map(|m| &m.groups)
    {
        for (name, lightmap) in [(&g.maps.diffuse, false), (&g.maps.lightmap, true)] {
            let Some(name) = name else { continue };
            let key = name.to_ascii_lowercase();
            match out.iter_mut().find(|(k, ..)| *k == key) {
                Some(e) => e.2 |= lightmap,
                None => out.push((key, name.clone(), lightmap)),
            }
        }
    }
    out
}

/// Finds, decodes and PNG-encodes every texture the scene's materials name (in parallel) and
/// puts the pictures into [`Scene::images`]; a texture that is not found or does not decode is
/// listed as missing (its material stays flat), never an error.
pub fn attach_textures(scene: &mut Scene, lookup: &TextureLookup) -> TextureReport {
    attach_textures_sized(scene, lookup, None)
}

/// [`attach_textures`], each picture halved until no side exceeds `max_side` (a viewer's
/// smaller pages; `None`: full size).
pub fn attach_textures_sized(
    scene: &mut Scene,
    lookup: &TextureLookup,
    max_side: Option<u32>,
) -> TextureReport {
    use rayon::prelude::*;
    let names = texture_names(scene);
    let spellings: Vec<String> = names.iter().map(|(_, s, _)| s.clone()).collect();
    let found = lookup.find_all(&spellings);
    let encoded: Vec<Result<(FoundTexture, Vec<u8>), MissingTexture>> = found
        .into_par_iter()
        .map(|r| {
            let mut t = r?;
            while let Some(m) = max_side
                && t.image.width.max(t.image.height) > m.max(1)
            {
                t.image = t.image.half();
            }
            match areakit_formats::png::write(&t.image) {
                Ok(png) => Ok((t, png)),
                Err(e) => Err(MissingTexture {
                    name: t.name.clone(),
                    reason: format!("cannot be made PNG: {e}"),
                }),
            }
        })
        .collect();
    let mut report = TextureReport {
        places: lookup.places().into_iter().map(str::to_string).collect(),
        ..TextureReport::default()
    };
    for ((key, _, lightmap), r) in names.into_iter().zip(encoded) {
        match r {
            Ok((t, png)) => {
                let alpha = if lightmap {
                    AlphaMode::Opaque
                } else {
                    alpha_mode(&t)
                };
                let txi = String::from_utf8_lossy(t.txi.body()).into_owned();
                report.embedded.push(EmbeddedTexture {
                    name: t.name.clone(),
                    origin: t.origin.clone(),
                    format: t.format,
                    width: t.image.width,
                    height: t.image.height,
                    alpha: alpha.name(),
                    lightmap,
                });
                scene.images.insert(
                    key,
                    SceneImage {
                        name: t.name.clone(),
                        png,
                        alpha,
                        extras: json!({"kind": "texture", "source": t.origin, "format": t.format,
                            "encoding": t.encoding, "txi": (!txi.trim().is_empty()).then_some(txi),
                            "cube_map": t.cube, "blending": alpha.name()}),
                    },
                );
            }
            Err(m) => report.missing.push(m),
        }
    }
    report
}
