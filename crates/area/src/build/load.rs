//! Loading what a layout names into a [`BuildInput`]: kit components from a kits folder,
//! other rooms through a reader the caller gives (the application reads files, capsule
//! members and game resources through its session).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use areakit_formats::bwm::{self, Bwm};
use areakit_formats::gff;
use areakit_formats::mdl::{self, Model};

use super::kit::{self, Kit};
use super::{
    BuildError, BuildInput, Component, ComponentHook, DoorTemplate, Layout, Malformed, RoomSource,
    SuppliedFile, Supplies, TargetGame,
};
use crate::minimap;

/// The largest single kit file read (room models are a few MB).
const MAX_KIT_FILE: u64 = 256 << 20;

/// Reads a file a layout names (a path, a capsule member path, a game resource).
pub type Reader<'a> = dyn Fn(&str) -> Result<Vec<u8>, BuildError> + 'a;

/// Loads every room of `layout`: kit components from `kits` (the `--kits` folder, else the
/// folder the layout names, relative to `layout_dir`), other rooms through `read`.
pub fn load(
    layout: Layout,
    kits: Option<&Path>,
    layout_dir: &Path,
    read: &Reader<'_>,
) -> Result<BuildInput, BuildError> {
    let game = layout.game.unwrap_or_default();
    let kits_dir: Option<PathBuf> = kits
        .map(Path::to_path_buf)
        .or_else(|| layout.kits.as_ref().map(|k| layout_dir.join(k)));
    let mut loaded_kits: HashMap<String, Kit> = HashMap::new();
    let mut components: Vec<Component> = Vec::new();
    let mut by_key: HashMap<String, usize> = HashMap::new();
    let mut room_components = Vec::with_capacity(layout.rooms.len());
    for (i, room) in layout.rooms.iter().enumerate() {
        let key = match &room.source {
            RoomSource::Kit { kit, component } => {
                format!(
                    "kit:{}/{}",
                    kit.to_ascii_lowercase(),
                    component.to_ascii_lowercase()
                )
            }
            RoomSource::Files {
                walkmesh, model, ..
            } => format!("files:{walkmesh}|{model:?}|{i}"),
        };
        if let Some(&c) = by_key.get(&key) {
            room_components.push(c);
            continue;
        }
        let c = match &room.source {
            RoomSource::Kit { kit, component } => {
                let dir = kits_dir.as_deref().ok_or_else(|| {
                    BuildError::Missing(format!(
                        "room {i} uses kit {kit:?}: name the kits folder (--kits DIR, or \"kits\" in the layout)"
                    ))
                })?;
                let k = match loaded_kits.entry(kit.to_ascii_lowercase()) {
                    std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert(kit::load_kit(dir, kit)?)
                    }
                };
                kit_component(k, component, game).map_err(|e| match e {
                    BuildError::Missing(m) => BuildError::Missing(format!("room {i}: {m}")),
                    other => other,
                })?
            }
            RoomSource::Files {
                model,
                walkmesh,
                minimap: image,
                hooks,
                door,
            } => files_component(
                model.as_deref(),
                walkmesh,
                image.as_deref(),
                hooks,
                door.as_ref(),
                read,
            )?,
        };
        by_key.insert(key, components.len());
        room_components.push(components.len());
        components.push(c);
    }
    let mut supplies = Supplies::default();
    let mut kit_ids: Vec<&String> = loaded_kits.keys().collect();
    kit_ids.sort();
    for id in kit_ids {
        let k = &loaded_kits[id];
        for (sub, list) in [
            ("lightmaps", &mut supplies.lightmaps),
            ("textures", &mut supplies.textures),
            ("always", &mut supplies.always),
        ] {
            for p in k.files_in(sub) {
                let (stem, ext) = stem_ext(&p);
                let wanted = match sub {
                    "always" => !ext.is_empty(),
                    _ => ext == "tga" || ext == "txi" || ext == "tpc",
                };
                if !wanted {
                    continue;
                }
                list.push(SuppliedFile {
                    resref: stem,
                    ext,
                    data: kit::read_limited(&p, MAX_KIT_FILE)?,
                });
            }
        }
        for p in k.files_in("doorway") {
            let (stem, ext) = stem_ext(&p);
            if ext != "mdl" {
                continue;
            }
            let Some((kind, door, size_cm)) = super::padding_name(&stem) else {
                continue;
            };
            let Some(mdx) =
                kit::find_file(p.parent().unwrap_or(Path::new(".")), &format!("{stem}.mdx"))
            else {
                continue;
            };
            supplies.padding.push(super::Padding {
                kit: k.id.clone(),
                kind,
                door,
                size_cm,
                model: read_model(&p, &mdx)?,
            });
        }
        if supplies.skybox.is_none()
            && let Some(name) = &layout.skybox
        {
            let sky = k.dir.join("skyboxes");
            if let (Some(m), Some(x)) = (
                kit::find_file(&sky, &format!("{name}.mdl")),
                kit::find_file(&sky, &format!("{name}.mdx")),
            ) {
                supplies.skybox = Some(read_model(&m, &x)?);
            }
        }
    }
    Ok(BuildInput {
        layout,
        components,
        room_components,
        supplies,
        game,
        threads: 0,
    })
}

fn stem_ext(p: &Path) -> (String, String) {
    (
        p.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        p.extension()
            .map(|s| s.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default(),
    )
}

fn read_model(mdl_path: &Path, mdx_path: &Path) -> Result<Model, BuildError> {
    let a = kit::read_limited(mdl_path, MAX_KIT_FILE)?;
    let b = kit::read_limited(mdx_path, MAX_KIT_FILE)?;
    mdl::read(&a, &b).map_err(|e| BuildError::invalid(mdl_path.display().to_string(), e))
}

fn read_wok(what: &str, data: &[u8]) -> Result<Bwm, BuildError> {
    bwm::read(data).map_err(|e| BuildError::invalid(what.to_string(), e))
}

/// Loads a kit component: WOK (required), model (MDL + MDX, when both are there), minimap
/// PNG (when there), hooks, the kit's doors for `game`.
pub fn kit_component(k: &Kit, id: &str, game: TargetGame) -> Result<Component, BuildError> {
    let c = k.component(id).ok_or_else(|| {
        BuildError::Missing(format!(
            "kit {:?} has no component {id:?} (it has: {})",
            k.id,
            k.components
                .iter()
                .map(|c| c.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })?;
    let label = format!("{}/{}", k.id, c.id);
    let wok_path = k.file(&format!("{}.wok", c.id)).ok_or_else(|| {
        BuildError::Missing(format!("{label}: no {}.wok in {}", c.id, k.dir.display()))
    })?;
    let walkmesh = read_wok(
        &wok_path.display().to_string(),
        &kit::read_limited(&wok_path, MAX_KIT_FILE)?,
    )?;
    // A hook off its opening, facing in or naming no door: refused here,
    // before any geometry work (the kit check's errors, `docs/checks.md`).
    if let Some(message) = super::kit_check::broken_hooks(k, &c.id, &walkmesh) {
        return Err(BuildError::invalid(
            format!("kit {:?} component {:?}", k.id, c.id),
            Malformed::BrokenHook(message),
        ));
    }
    let model = match (
        k.file(&format!("{}.mdl", c.id)),
        k.file(&format!("{}.mdx", c.id)),
    ) {
        (Some(m), Some(x)) => Some(read_model(&m, &x)?),
        _ => None,
    };
    let image = match k.file(&format!("{}.png", c.id)) {
        Some(p) => Some(
            minimap::decode_room_png(&kit::read_limited(&p, MAX_KIT_FILE)?)
                .map_err(|e| BuildError::invalid(p.display().to_string(), e))?,
        ),
        None => None,
    };
    let mut doors = Vec::with_capacity(k.doors.len());
    for d in &k.doors {
        let resref = match game {
            TargetGame::K1 => &d.utd_k1,
            TargetGame::K2 => &d.utd_k2,
        };
        let Some(p) = k.file(&format!("{resref}.utd")) else {
            // Doorways of this kind stay open (the build warns at each connection).
            doors.push(None);
            continue;
        };
        let utd = gff::read(&kit::read_limited(&p, MAX_KIT_FILE)?)
            .map_err(|e| BuildError::invalid(p.display().to_string(), e))?;
        doors.push(Some(DoorTemplate {
            label: format!("{}/{resref}", k.id),
            utd,
            width: d.width,
            height: d.height,
        }));
    }
    let mut hooks = Vec::with_capacity(c.hooks.len());
    for (h, hook) in c.hooks.iter().enumerate() {
        if hook.door >= doors.len() && !k.doors.is_empty() {
            return Err(BuildError::Missing(format!(
                "{label}: hook {h} uses door {} but the kit has {} doors",
                hook.door,
                doors.len()
            )));
        }
        hooks.push(ComponentHook {
            position: [hook.x, hook.y, hook.z],
            rotation: hook.rotation,
            door: hook.door,
            edge: Some(hook.edge),
        });
    }
    Ok(Component {
        label,
        walkmesh,
        model,
        hooks,
        image,
        doors,
        kit: Some(k.id.clone()),
    })
}

fn files_component(
    model: Option<&str>,
    walkmesh: &str,
    image: Option<&str>,
    hooks: &[super::layout::HookSpec],
    door: Option<&super::layout::DoorSpec>,
    read: &Reader<'_>,
) -> Result<Component, BuildError> {
    let mut wok = read_wok(walkmesh, &read(walkmesh)?)?;
    let model = match model {
        Some(m) => {
            let mdl_bytes = read(m)?;
            let mdx_name = match m.rsplit_once('.') {
                Some((stem, _)) => format!("{stem}.mdx"),
                None => format!("{m}.mdx"),
            };
            let mdx_bytes = read(&mdx_name)?;
            Some(
                mdl::read(&mdl_bytes, &mdx_bytes)
                    .map_err(|e| BuildError::invalid(m.to_string(), e))?,
            )
        }
        None => None,
    };
    // A game room's WOK is in its area's space: move it to the model's.
    if let Some(m) = &model
        && let Some(off) = crate::models::placement_offset(m, &wok)
        && off.iter().any(|c| c.abs() > 1e-4)
    {
        wok = crate::walkmesh::transform(
            &wok,
            &[areakit_geometry::transform::Transform::Translate(
                off.map(|c| -c),
            )],
            &[],
        )
        .map_err(|e| BuildError::invalid(walkmesh.to_string(), e))?;
    }
    let image = match image {
        Some(p) => Some(
            minimap::decode_room_png(&read(p)?)
                .map_err(|e| BuildError::invalid(p.to_string(), e))?,
        ),
        None => None,
    };
    let doors = match door {
        Some(d) => vec![Some(DoorTemplate {
            label: d.utd.clone(),
            utd: gff::read(&read(&d.utd)?).map_err(|e| BuildError::invalid(d.utd.clone(), e))?,
            width: d.width,
            height: 0.0,
        })],
        None => Vec::new(),
    };
    Ok(Component {
        label: walkmesh.to_string(),
        walkmesh: wok,
        model,
        hooks: hooks
            .iter()
            .map(|h| ComponentHook {
                position: h.position,
                rotation: h.rotation,
                door: 0,
                edge: None,
            })
            .collect(),
        image,
        doors,
        kit: None,
    })
}
