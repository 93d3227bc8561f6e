//! Checks of a Holocron kit (`areakit check KIT.json`): each component's files, its hooks
//! against its walkmesh (on an opening, facing out, not twice, the door fitting the doorway),
//! its model against its WOK and its minimap image against its walkable ground. The codes and
//! the evidence for their thresholds are in `docs/checks.md` ("Kit checks").

use std::path::Path;

use areakit_formats::bwm::{self, Bwm};
use areakit_formats::{Finding, Place, Severity};

use super::kit::{Kit, KitComponent, read_limited};

/// A hook this close (metres, in plan) to its doorway edge joins a neighbour's: two rooms
/// hooked together then put their doorway edges within relink's 0.1 m. The corpus kits' hooks
/// lie within 6 cm of theirs, but one (0.15 m).
pub const HOOK_ON_DOORWAY: f32 = 0.1;

/// A hook farther than this (metres, in plan) from every doorway edge of its walkmesh is not
/// on an opening: rooms hooked there do not meet (the layout's explicit joins allow 0.5 m).
pub const HOOK_ON_OPENING: f32 = 0.5;

/// Two hooks of one component this close (metres, in plan) are one hook listed twice (a
/// warning: the corpus `endarspire` kit's `bridge_1` lists its hook 1 twice).
pub const DUPLICATE_HOOK: f32 = 0.05;

/// A door this much wider (metres) than its doorway's walkable edge does not fit it. A door
/// model overlaps its frame: the corpus kits' 3.6 m door stands in doorways from 3.50 m.
pub const DOOR_SLACK: f32 = 0.25;

/// A component image that puts less than this share of its walkable ground on its content
/// misses it (the corpus images put at least 95.7%, but one with the wrong WOK: 27%).
pub const IMAGE_SHARE: f32 = 0.9;

/// How far (metres) either side of a doorway edge the facing test looks.
const FACING_PROBE: f32 = 0.3;

/// The largest kit file read (as the build's).
const MAX_KIT_FILE: u64 = 256 << 20;

/// Whether JSON text is a Holocron kit: an object with a `components` array of objects with
/// an `id`, and a `doors` array.
pub fn looks_like_kit(text: &[u8]) -> bool {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(text) else {
        return false;
    };
    let comps = v.get("components").and_then(|c| c.as_array());
    comps.is_some_and(|c| c.iter().all(|x| x.get("id").is_some_and(|i| i.is_string())))
        && v.get("doors").is_some_and(|d| d.is_array())
}

/// Everything the checks of a kit found: findings name the component (`room`), the file in
/// the kit folder (`file`) and the JSON item (`components[2].doorhooks[1]`).
pub fn check_kit(kit: &Kit) -> Vec<Finding> {
    let mut out = Vec::new();
    if !kit.dir.is_dir() {
        out.push(Finding::warning(
            "kit-file-missing",
            Place::default().file(kit.dir.display().to_string()),
            format!(
                "kit {:?}: its folder {} is missing, so no component can be built",
                kit.id,
                kit.dir.display()
            ),
        ));
    }
    for (d, door) in kit.doors.iter().enumerate() {
        for resref in [&door.utd_k1, &door.utd_k2] {
            if kit.dir.is_dir() && kit.file(&format!("{resref}.utd")).is_none() {
                out.push(Finding::warning(
                    "kit-file-missing",
                    Place::default()
                        .item(format!("doors[{d}]"))
                        .file(format!("{resref}.utd")),
                    format!("door {d}: no {resref}.utd in the kit folder: its doorways stay open"),
                ));
            }
        }
    }
    for (ci, c) in kit.components.iter().enumerate() {
        out.extend(component_findings(kit, ci, c));
    }
    out
}

/// The findings of one component.
fn component_findings(kit: &Kit, ci: usize, c: &KitComponent) -> Vec<Finding> {
    let mut out = Vec::new();
    let place = || Place::default().room(c.id.clone());
    if kit.dir.is_dir() {
        let missing: Vec<String> = ["wok", "mdl", "mdx", "png"]
            .iter()
            .map(|e| format!("{}.{e}", c.id))
            .filter(|n| kit.file(n).is_none())
            .collect();
        if !missing.is_empty() {
            out.push(Finding::warning(
                "kit-file-missing",
                place().item(format!("components[{ci}]")),
                format!(
                    "component {}: {} missing from the kit folder; a layout using it {}",
                    c.id,
                    missing.join(", "),
                    if missing[0].ends_with(".wok") {
                        "cannot be built"
                    } else {
                        "builds without it"
                    }
                ),
            ));
        }
    }
    let wok = match kit.file(&format!("{}.wok", c.id)) {
        Some(p) => match read_limited(&p, MAX_KIT_FILE)
            .map_err(|e| e.to_string())
            .and_then(|d| bwm::read(&d).map_err(|e| e.to_string()))
        {
            Ok(w) => Some(w),
            Err(e) => {
                out.push(Finding::error(
                    "kit-file-invalid",
                    place().file(format!("{}.wok", c.id)),
                    format!("component {}: {e}", c.id),
                ));
                None
            }
        },
        None => None,
    };
    out.extend(hook_findings(kit, ci, wok.as_ref()));
    let Some(wok) = wok else { return out };
    if let (Some(m), Some(x)) = (
        kit.file(&format!("{}.mdl", c.id)),
        kit.file(&format!("{}.mdx", c.id)),
    ) {
        let read =
            read_limited(&m, MAX_KIT_FILE).and_then(|a| Ok((a, read_limited(&x, MAX_KIT_FILE)?)));
        match read
            .map_err(|e| e.to_string())
            .and_then(|(a, b)| areakit_formats::mdl::read(&a, &b).map_err(|e| e.to_string()))
        {
            Ok(model) => {
                let name = format!("{}.mdl", c.id);
                out.extend(
                    crate::models::walkmesh_mismatch(&model, &wok, &name, [0.0; 3])
                        .into_iter()
                        .map(|mut f| {
                            f.place.room = Some(c.id.clone());
                            f.place.file = Some(format!("{}.wok", c.id));
                            f
                        }),
                );
            }
            Err(e) => out.push(Finding::error(
                "kit-file-invalid",
                place().file(format!("{}.mdl", c.id)),
                format!("component {}: {e}", c.id),
            )),
        }
    }
    if let Some(p) = kit.file(&format!("{}.png", c.id)) {
        match read_limited(&p, MAX_KIT_FILE)
            .map_err(|e| e.to_string())
            .and_then(|d| crate::minimap::decode_room_png(&d).map_err(|e| e.to_string()))
        {
            Ok(img) => {
                let share = image_share(&img, &wok);
                if share < IMAGE_SHARE {
                    out.push(Finding::warning(
                        "kit-image-off-ground",
                        place().file(format!("{}.png", c.id)),
                        format!(
                            "component {}: its image puts {:.0}% of the walkable ground of {}.wok on content (centred on the origin, {} px per unit); the minimap will not show this room where it is",
                            c.id,
                            share * 100.0,
                            c.id,
                            crate::minimap::KIT_PIXELS_PER_UNIT
                        ),
                    ));
                }
            }
            Err(e) => out.push(Finding::error(
                "kit-file-invalid",
                place().file(format!("{}.png", c.id)),
                format!("component {}: {e}", c.id),
            )),
        }
    }
    out
}

/// The share of the walkmesh's walkable ground (a 0.1 m grid) within a pixel of the image's
/// content, the image centred on the component's origin at the kits' scale, `+y` up.
pub fn image_share(img: &crate::minimap::RoomImage, wok: &Bwm) -> f32 {
    let pts = crate::minimap::walkable_samples(&[wok], 0.1, 200_000);
    if pts.is_empty() {
        return 1.0;
    }
    let ppu = crate::minimap::KIT_PIXELS_PER_UNIT;
    let (w, h) = (i64::from(img.width), i64::from(img.height));
    let content = |x: i64, y: i64| {
        x >= 0 && y >= 0 && x < w && y < h && {
            let o = ((y * w + x) * 4) as usize;
            img.rgba
                .get(o..o + 4)
                .is_some_and(|px| !crate::minimap::is_background(px))
        }
    };
    let hits = pts
        .iter()
        .filter(|p| {
            let ix = (w as f32 / 2.0 + p[0] * ppu).floor() as i64;
            let iy = (h as f32 / 2.0 - p[1] * ppu).floor() as i64;
            (-1..=1).any(|dy| (-1..=1).any(|dx| content(ix + dx, iy + dy)))
        })
        .count();
    hits as f32 / pts.len() as f32
}

/// The hooks' findings: a door the kit does not have, a hook listed twice, and with the
/// walkmesh: a hook whose transition no edge carries, a hook off its doorway or off every
/// opening, a hook facing into its room, a door wider than its doorway.
pub fn hook_findings(kit: &Kit, ci: usize, wok: Option<&Bwm>) -> Vec<Finding> {
    let c = &kit.components[ci];
    let mut out = Vec::new();
    for (k, h) in c.hooks.iter().enumerate() {
        let place = || {
            Place::default()
                .room(c.id.clone())
                .item(format!("components[{ci}].doorhooks[{k}]"))
                .position([h.x, h.y, h.z])
        };
        let label = format!("{}/{} hook {k}", kit.id, c.id);
        // A kit without doors leaves every doorway open (the build warns at each).
        if h.door >= kit.doors.len() && !kit.doors.is_empty() {
            out.push(Finding::error(
                "kit-hook-door-unknown",
                place(),
                format!(
                    "{label} uses door {} but the kit has {} doors",
                    h.door,
                    kit.doors.len()
                ),
            ));
        }
        if let Some(j) = c.hooks[..k]
            .iter()
            .position(|o| plan_dist([o.x, o.y], [h.x, h.y]) <= DUPLICATE_HOOK)
        {
            out.push(Finding::warning(
                "kit-hook-duplicate",
                place(),
                format!("{label} stands where hook {j} stands: one doorway listed twice (the build joins one of them; the other meets nothing)"),
            ));
        }
        let Some(w) = wok else { continue };
        out.extend(doorway_findings(w, h, &label, kit, place()));
    }
    out
}

/// A hook against its walkmesh.
fn doorway_findings(
    w: &Bwm,
    h: &super::kit::KitHook,
    label: &str,
    kit: &Kit,
    place: Place,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let p = [h.x, h.y];
    let segs = |pred: &dyn Fn(i32) -> bool| -> Vec<[[f32; 2]; 2]> {
        w.edges
            .iter()
            .filter(|e| pred(e.transition))
            .filter_map(|e| {
                let f = w.face_positions(e.face() as usize)?;
                let s = e.side() as usize;
                let (a, b) = (f[s], f[(s + 1) % 3]);
                Some([[a[0], a[1]], [b[0], b[1]]])
            })
            .collect()
    };
    let marked = segs(&|t| t >= 0);
    let transitions: Vec<i32> = w
        .edges
        .iter()
        .filter(|e| e.transition >= 0)
        .map(|e| e.transition)
        .collect();
    let own = segs(&|t| t == h.edge);
    let nearest = |list: &[[[f32; 2]; 2]]| {
        list.iter()
            .enumerate()
            .map(|(i, s)| (seg_dist(p, *s), i))
            .min_by(|a, b| a.0.total_cmp(&b.0))
    };
    // The doorway: the edges marked with the hook's transition. When none carries it, or
    // they lie off the hook while another doorway's edges lie at it, a warning, and the
    // doorway is the marked edges it stands at (else all marked edges, else the boundary).
    let own_d = nearest(&own).map(|x| x.0);
    let mut doorway = own;
    if own_d.is_none_or(|d| d > HOOK_ON_OPENING) {
        let other = nearest(&marked).filter(|&(d, _)| d <= HOOK_ON_OPENING);
        let at = match other {
            Some((od, i)) => format!(
                "; the doorway it stands at ({od:.2} m away) carries {}",
                transitions[i]
            ),
            None => String::new(),
        };
        if own_d.is_none() || other.is_some() {
            out.push(Finding::warning(
                "kit-hook-edge-unmarked",
                place.clone(),
                match own_d {
                    None => format!(
                        "{label} names transition {} but no edge of its walkmesh carries it{at}",
                        h.edge
                    ),
                    Some(d) => format!(
                        "{label} names transition {}, whose edges lie {d:.2} m away{at}",
                        h.edge
                    ),
                },
            ));
        }
        if let Some((_, i)) = other {
            let t = transitions[i];
            doorway = marked
                .iter()
                .zip(&transitions)
                .filter(|x| *x.1 == t)
                .map(|x| *x.0)
                .collect();
        } else if own_d.is_none() {
            doorway = if marked.is_empty() {
                segs(&|_| true)
            } else {
                marked.clone()
            };
        }
    }
    let Some((d, at)) = doorway
        .iter()
        .map(|s| (seg_dist(p, *s), closest(p, *s)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
    else {
        return out;
    };
    if d > HOOK_ON_OPENING {
        out.push(Finding::error(
            "kit-hook-off-opening",
            place,
            format!("{label} is {d:.2} m from its walkmesh's nearest doorway edge: not on an opening, so rooms hooked here do not meet"),
        ));
        return out;
    }
    if d > HOOK_ON_DOORWAY {
        out.push(Finding::warning(
            "kit-hook-off-doorway",
            place.clone(),
            format!("{label} is {d:.2} m from its doorway edge: a room hooked here leaves a gap wider than relink's {:.2} m, and its doorway stays unlinked", crate::relink::RelinkOptions::default().tolerance),
        ));
    }
    // Facing: the direction the doorway faces, counter-clockwise from +y.
    let (s, co) = h.rotation.to_radians().sin_cos();
    let dir = [-s, co];
    let on = |q: [f32; 2]| on_walkable(w, q);
    let ahead = [at[0] + dir[0] * FACING_PROBE, at[1] + dir[1] * FACING_PROBE];
    let behind = [at[0] - dir[0] * FACING_PROBE, at[1] - dir[1] * FACING_PROBE];
    if on(ahead) && !on(behind) {
        out.push(Finding::error(
            "kit-hook-faces-inward",
            place,
            format!(
                "{label} faces into its room (rotation {}°): the ground lies ahead of it and none behind; a room hooked here would be placed over this one",
                h.rotation
            ),
        ));
        return out;
    }
    // The doorway's width: its edges' extent across the facing direction.
    if let Some(door) = kit.doors.get(h.door) {
        let across = [dir[1], -dir[0]];
        let proj: Vec<f32> = doorway
            .iter()
            .flatten()
            .map(|q| q[0] * across[0] + q[1] * across[1])
            .collect();
        let lo = proj.iter().copied().fold(f32::MAX, f32::min);
        let hi = proj.iter().copied().fold(f32::MIN, f32::max);
        let width = hi - lo;
        if h.edge >= 0 && width > 0.0 && door.width > width + DOOR_SLACK {
            out.push(Finding::warning(
                "kit-door-too-wide",
                place,
                format!(
                    "{label}: door {} is {:.2} m wide, its doorway {width:.2} m: the door juts into the walls",
                    h.door, door.width
                ),
            ));
        }
    }
    out
}

/// Whether a plan point lies on a walkable face.
fn on_walkable(w: &Bwm, q: [f32; 2]) -> bool {
    (0..w.faces.len())
        .filter(|&i| w.faces[i].material.is_walkable())
        .filter_map(|i| w.face_positions(i))
        .any(|t| {
            let s = |a: [f32; 3], b: [f32; 3]| {
                (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0])
            };
            let (d0, d1, d2) = (s(t[0], t[1]), s(t[1], t[2]), s(t[2], t[0]));
            (d0 >= 0.0 && d1 >= 0.0 && d2 >= 0.0) || (d0 <= 0.0 && d1 <= 0.0 && d2 <= 0.0)
        })
}

fn plan_dist(a: [f32; 2], b: [f32; 2]) -> f32 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// The point of segment `s` nearest `p`.
fn closest(p: [f32; 2], s: [[f32; 2]; 2]) -> [f32; 2] {
    let [a, b] = s;
    let d = [b[0] - a[0], b[1] - a[1]];
    let len2 = d[0] * d[0] + d[1] * d[1];
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    [a[0] + d[0] * t, a[1] + d[1] * t]
}

fn seg_dist(p: [f32; 2], s: [[f32; 2]; 2]) -> f32 {
    plan_dist(p, closest(p, s))
}

/// The error findings of the hooks of component `id` (what makes the build refuse a room of
/// it), as one message naming the kit, the component and each hook; `None` when there are
/// none.
pub fn broken_hooks(kit: &Kit, id: &str, wok: &Bwm) -> Option<String> {
    let ci = kit
        .components
        .iter()
        .position(|c| c.id.eq_ignore_ascii_case(id))?;
    let errors: Vec<String> = hook_findings(kit, ci, Some(wok))
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| format!("{} [{}]", f.message, f.code))
        .collect();
    (!errors.is_empty()).then(|| errors.join("; "))
}

/// Reads and checks a kit JSON file.
pub fn check_kit_file(path: &Path) -> Result<Vec<Finding>, super::BuildError> {
    let kit = super::kit::read_kit_json(path)?;
    Ok(check_kit(&kit))
}
