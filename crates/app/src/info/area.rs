//! What `areakit info` says of an area (a folder holding a LYT, a LYT, a capsule holding a
//! module, a LYT inside a capsule): its rooms with their positions, walkmeshes and links, the
//! LYT's door hooks, the GIT's doors and placeables, the VIS pairs, the bounds of the walkable
//! ground and the module's entry point. Opened as every command that reads an area opens it
//! ([`crate::input::open_module_with`]).

use std::collections::BTreeSet;

use areakit_area::module::{Module, ModuleObject};
use areakit_area::objects::{ObjectKind, Orientation};
use serde::Serialize;

use super::Bounds;

/// `info` of an area.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AreaInfo {
    /// The area's resref (its LYT's name).
    pub area: String,
    /// The LYT it was read from.
    pub lyt: String,
    /// Each LYT room, in LYT order (the index is the room's transition number).
    pub rooms: Vec<AreaRoomInfo>,
    /// The LYT's door hooks.
    pub door_hooks: Vec<DoorHookInfo>,
    /// The GIT's doors, in file order (none without a GIT).
    pub doors: Vec<AreaObjectInfo>,
    /// The GIT's placeables, in file order.
    pub placeables: Vec<AreaObjectInfo>,
    /// The VIS, when the area has one that decodes.
    pub vis: Option<AreaVisInfo>,
    /// The box round every room's walkable faces (`null` when no room has one).
    pub walkable_bounds: Option<Bounds>,
    /// The module's entry point (`null` without a `module.ifo`).
    pub entry: Option<EntryInfo>,
    /// What could not be read: a room's walkmesh, the VIS, a module record.
    pub problems: Vec<String>,
}

/// A room of the area.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AreaRoomInfo {
    /// The room's name (its model and walkmesh resref).
    pub name: String,
    /// Its LYT position.
    pub position: [f32; 3],
    /// Where its walkmesh came from (`null`: none found, or it did not decode).
    pub walkmesh: Option<String>,
    /// Faces of the walkmesh.
    pub faces: usize,
    /// Walkable faces.
    pub walkable_faces: usize,
    /// The box round its walkable faces.
    pub walkable_bounds: Option<Bounds>,
    /// The rooms its walkmesh's edges link to (their LYT indices).
    pub links: Vec<u32>,
    /// The rooms its VIS entry lists (`null` when the VIS has no entry for it).
    pub sees: Option<usize>,
}

/// A LYT door hook.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DoorHookInfo {
    /// The room it belongs to.
    pub room: String,
    /// Its door name.
    pub door: String,
    /// Its position.
    pub position: [f32; 3],
    /// Its heading about the vertical axis, degrees counter-clockwise from +x.
    pub bearing: f32,
}

/// A door or placeable of the GIT.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AreaObjectInfo {
    /// Its tag.
    pub tag: Option<String>,
    /// Its template (`TemplateResRef`).
    pub template: Option<String>,
    /// Its position.
    pub position: [f32; 3],
    /// Its heading about the vertical axis, degrees counter-clockwise from +x.
    pub bearing: f32,
    /// Whether its walkmesh was found (through its appearance table and the resources).
    pub walkmesh: bool,
    /// A door leading to another module.
    pub leads_out: bool,
    /// Where it is declared (`m01aa.git: Door List[2]`).
    pub source: String,
}

/// The area's VIS in numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AreaVisInfo {
    /// Parent entries.
    pub rooms: usize,
    /// Child entries.
    pub links: usize,
    /// Pairs of distinct LYT rooms of which at least one lists the other.
    pub pairs: usize,
    /// Of those, pairs only one of the two lists.
    pub one_way_pairs: usize,
    /// LYT rooms the VIS has no entry for.
    pub rooms_without_entry: Vec<String>,
}

/// The module's entry point (`module.ifo`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntryInfo {
    /// The entry area's resref.
    pub area: Option<String>,
    /// Where the player starts.
    pub position: Option<[f32; 3]>,
    /// The direction the player faces (x, y).
    pub direction: Option<[f32; 2]>,
}

/// The `info` of the area of `module`.
pub fn area_info(module: &Module) -> AreaInfo {
    let area = &module.area;
    let mut problems = Vec::new();
    let links = area.links();
    let rooms: Vec<AreaRoomInfo> = area
        .rooms
        .iter()
        .enumerate()
        .map(|(i, room)| {
            if let Some(e) = &room.wok_error {
                problems.push(format!("room {} ({}): {e}", i, room.name));
            }
            let wok = room.wok.as_ref();
            let targets: BTreeSet<u32> =
                links.iter().filter(|l| l.from == i).map(|l| l.to).collect();
            AreaRoomInfo {
                name: room.name.clone(),
                position: area.lyt.rooms.get(i).map_or([0.0; 3], |p| p.position),
                walkmesh: wok
                    .and(room.wok_path.as_ref())
                    .map(|p| p.display().to_string()),
                faces: wok.map_or(0, |w| w.faces.len()),
                walkable_faces: wok.map_or(0, |w| w.walkable_face_count()),
                walkable_bounds: wok.and_then(walkable_bounds),
                links: targets.into_iter().collect(),
                sees: area
                    .vis
                    .as_ref()
                    .and_then(|v| v.room(&room.name))
                    .map(|r| r.visible.len()),
            }
        })
        .collect();
    problems.extend(area.missing_walkmeshes_note());
    if let Some(e) = &area.vis_error {
        problems.push(format!("VIS: {e}"));
    }
    problems.extend(module.findings.iter().map(|f| f.message.clone()));
    let walkable = rooms
        .iter()
        .filter_map(|r| r.walkable_bounds.as_ref())
        .fold(None, |acc: Option<Bounds>, b| {
            Some(match acc {
                None => b.clone(),
                Some(a) => union(&a, b),
            })
        });
    let objects = |kind: ObjectKind| {
        module
            .objects
            .iter()
            .filter(|o| o.object.kind == kind)
            .map(object_info)
            .collect()
    };
    AreaInfo {
        area: area.resref.clone(),
        lyt: area.lyt_path.display().to_string(),
        door_hooks: area
            .lyt
            .doorhooks
            .iter()
            .map(|h| DoorHookInfo {
                room: h.room.clone(),
                door: h.door.clone(),
                position: h.position,
                bearing: {
                    // The LYT stores `w x y z`.
                    let [w, x, y, z] = h.orientation;
                    degrees(yaw_of(&Orientation::Quaternion([x, y, z, w])))
                },
            })
            .collect(),
        vis: area.vis.as_ref().map(|v| vis_info(v, &rooms)),
        rooms,
        doors: objects(ObjectKind::Door),
        placeables: objects(ObjectKind::Placeable),
        walkable_bounds: walkable,
        entry: module.ifo.as_ref().map(|ifo| EntryInfo {
            area: ifo
                .value
                .entry_area
                .as_ref()
                .map(|t| t.to_str().into_owned()),
            position: ifo.value.entry_position,
            direction: ifo.value.entry_direction,
        }),
        problems,
    }
}

fn object_info(o: &ModuleObject) -> AreaObjectInfo {
    AreaObjectInfo {
        tag: o.object.tag.clone(),
        template: o.template.clone(),
        position: o.object.position,
        bearing: degrees(yaw_of(&o.object.orientation)),
        walkmesh: o.walkmesh.is_some(),
        leads_out: o.leads_out,
        source: o.object.source.clone(),
    }
}

fn vis_info(vis: &areakit_formats::vis::Vis, rooms: &[AreaRoomInfo]) -> AreaVisInfo {
    let index = |name: &str| rooms.iter().position(|r| r.name.eq_ignore_ascii_case(name));
    let mut listed: BTreeSet<(usize, usize)> = BTreeSet::new();
    for parent in &vis.rooms {
        let Some(a) = index(&parent.name) else {
            continue;
        };
        for child in &parent.visible {
            if let Some(b) = index(child)
                && a != b
            {
                listed.insert((a, b));
            }
        }
    }
    let pairs: BTreeSet<(usize, usize)> =
        listed.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    let one_way = pairs
        .iter()
        .filter(|&&(a, b)| !(listed.contains(&(a, b)) && listed.contains(&(b, a))))
        .count();
    let s = vis.summary();
    AreaVisInfo {
        rooms: s.rooms,
        links: s.links,
        pairs: pairs.len(),
        one_way_pairs: one_way,
        rooms_without_entry: rooms
            .iter()
            .filter(|r| r.sees.is_none() && r.name != areakit_formats::lyt::PLACEHOLDER_ROOM)
            .map(|r| r.name.clone())
            .collect(),
    }
}

/// The box round the walkable faces of `wok`.
fn walkable_bounds(wok: &areakit_formats::bwm::Bwm) -> Option<Bounds> {
    let mut out: Option<Bounds> = None;
    for f in wok.faces.iter().filter(|f| f.material.is_walkable()) {
        for &v in &f.vertices {
            let Some(&p) = wok.vertices.get(v as usize) else {
                continue;
            };
            let b = Bounds { min: p, max: p };
            out = Some(match out {
                None => b,
                Some(a) => union(&a, &b),
            });
        }
    }
    out
}

fn union(a: &Bounds, b: &Bounds) -> Bounds {
    Bounds {
        min: std::array::from_fn(|k| a.min[k].min(b.min[k])),
        max: std::array::from_fn(|k| a.max[k].max(b.max[k])),
    }
}

/// The heading about the vertical axis, radians counter-clockwise from +x: where the object's
/// rotation ([`Orientation::rotation`]) turns +x, in plan.
fn yaw_of(o: &Orientation) -> f32 {
    let x = o.rotation() * glam::Vec3::X;
    x.y.atan2(x.x)
}

fn degrees(r: f32) -> f32 {
    let d = r.to_degrees().rem_euclid(360.0);
    // Round to 1e-3 degrees, so that 90° prints as 90 and not 89.99999.
    (d * 1000.0).round() / 1000.0
}
