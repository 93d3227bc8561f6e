//! The build as stages with typed outputs: layout → placement → links → doors → visibility →
//! paths → minimap → records → files. Each stage takes what the earlier ones made; every
//! layout error comes from the first stage, before any geometry work; the caller is told
//! as each stage starts ([`Stage`]).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use areakit_formats::bwm::{self, Bwm};
use areakit_formats::gff::{self, Gff};
use areakit_formats::lyt::{self, DoorHook, Lyt};
use areakit_formats::mdl::{self, Game, Model};
use areakit_formats::vis::Vis;
use areakit_geometry::transform::Transform;
use serde::Serialize;

use super::{
    BuildError, BuildInput, BuildReport, Built, BuiltConnection, BuiltRoom, Component, ModuleFile,
    PaddingKind, Placement, TargetGame, check_module_name, connect, interior_point,
    lyt_orientation, placements, records, rename_model, retarget, room_name, steps_of,
    walkable_triangles,
};
use crate::area::{Area, AreaRoom};
use crate::minimap::{self, MinimapRoom, PlacedImage};
use crate::navigation::{AreaNav, NavOptions, NavSource, PathMode, PathPoint};
use crate::relink::{self, RelinkOptions};
use crate::visgen::{self, VisOptions, VisRoom};

/// A stage of a build, as the progress callback is told of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// The layout checked: names, placements, hooks and connections.
    Layout,
    /// Walkmeshes and models flipped, turned and moved; overlaps refused.
    Placement,
    /// Room links from geometry.
    Links,
    /// Doors, the skybox, doorway padding.
    Doors,
    /// The VIS from the rooms' openings.
    Visibility,
    /// The entry point, paths to every room, the path graph (PTH).
    Paths,
    /// The minimap and the ARE map block.
    Minimap,
    /// ARE, GIT, IFO.
    Records,
    /// Every file encoded.
    Files,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 9] = [
        Stage::Layout,
        Stage::Placement,
        Stage::Links,
        Stage::Doors,
        Stage::Visibility,
        Stage::Paths,
        Stage::Minimap,
        Stage::Records,
        Stage::Files,
    ];

    /// A few words for a progress line.
    pub fn describe(self) -> &'static str {
        match self {
            Stage::Layout => "checking the layout",
            Stage::Placement => "placing rooms",
            Stage::Links => "linking walkmeshes",
            Stage::Doors => "placing doors",
            Stage::Visibility => "computing visibility",
            Stage::Paths => "finding paths",
            Stage::Minimap => "drawing the minimap",
            Stage::Records => "writing records",
            Stage::Files => "encoding files",
        }
    }
}

/// What a build computed that a check of the module would compute again: handed to it so
/// that the VIS flow and the navigation data are made once.
#[derive(Debug, Clone, Default)]
pub struct BuildFacts {
    /// The pairs of LYT rooms (indices) a line may join ([`visgen::conservative_pairs`]).
    pub vis_pairs: Vec<(usize, usize)>,
    /// The navigation data of the module's ground (no blockers, no radius), when built.
    pub nav: Option<AreaNav>,
}

/// Stage 1: the layout checked.
struct Plan<'a> {
    input: &'a BuildInput,
    module: String,
    n: usize,
    names: Vec<String>,
    places: Vec<Placement>,
    joints: Vec<super::Joint>,
    game: Game,
    warnings: Vec<String>,
}

impl<'a> Plan<'a> {
    fn comp(&self, i: usize) -> &'a Component {
        let input: &'a BuildInput = self.input;
        &input.components[input.room_components[i]]
    }
}

/// Stage 2: rooms placed.
struct Placed {
    woks: Vec<Bwm>,
    models: Vec<Option<Model>>,
    lightmap_names: HashMap<String, String>,
}

/// Stage 3: rooms linked.
struct Linked {
    hook_link: Vec<Vec<Option<usize>>>,
    linked: BTreeMap<(usize, usize), usize>,
    room_links: Vec<usize>,
    connected: Vec<bool>,
}

/// Stage 4: doors and the rooms without a floor.
struct Doors {
    doors: Vec<records::DoorSpec>,
    connections: Vec<BuiltConnection>,
    lyt: Lyt,
    sky: Option<(String, Model)>,
    pads: Vec<(String, Model, [usize; 2], [f32; 3])>,
    /// The door templates (UTD files).
    files: Vec<ModuleFile>,
}

/// Stage 5: the VIS.
struct Visible {
    vis: Vis,
    pairs: Vec<(usize, usize)>,
}

/// Stage 6: where the player starts and walks.
struct Paths {
    entry: [f32; 3],
    reached: Vec<bool>,
    nav: Option<AreaNav>,
    pth: Option<Vec<u8>>,
}

/// Stage 7: the minimap.
struct Minimap {
    map: areakit_formats::gff::views::AreMap,
    coverage: f32,
    images: usize,
    tga: Vec<u8>,
}

fn plan(input: &BuildInput) -> Result<Plan<'_>, BuildError> {
    let layout = &input.layout;
    let module = layout.module.to_ascii_lowercase();
    check_module_name(&module)?;
    let n = layout.rooms.len();
    if n == 0 {
        return Err(BuildError::Layout("the layout has no room".into()));
    }
    if input.room_components.len() != n
        || input
            .room_components
            .iter()
            .any(|&c| c >= input.components.len())
    {
        return Err(BuildError::Layout(
            "every layout room needs its component".into(),
        ));
    }
    let mut warnings: Vec<String> = Vec::new();
    let places = placements(input)?;
    let joints = connect(input, &places, &mut warnings)?;
    let names: Vec<String> = (0..n).map(|i| room_name(&module, i, n)).collect();
    let game = match input.game {
        TargetGame::K1 => Game::K1,
        TargetGame::K2 => Game::K2,
    };
    Ok(Plan {
        input,
        module,
        n,
        names,
        places,
        joints,
        game,
        warnings,
    })
}

fn place(p: &mut Plan<'_>) -> Result<Placed, BuildError> {
    let n = p.n;
    // Walkmeshes in area space, transitions cleared (relink sets them from geometry).
    let mut woks: Vec<Bwm> = Vec::with_capacity(n);
    for (i, place) in p.places.iter().enumerate() {
        let c = p.comp(i);
        let clear: Vec<(i32, Option<i32>)> = {
            let mut v: Vec<i32> = c
                .walkmesh
                .edges
                .iter()
                .map(|e| e.transition)
                .filter(|&t| t >= 0)
                .collect();
            v.sort_unstable();
            v.dedup();
            v.into_iter().map(|t| (t, None)).collect()
        };
        let w = crate::walkmesh::transform(&c.walkmesh, &steps_of(place, true), &clear)
            .map_err(|e| BuildError::invalid(format!("room {i} ({}) walkmesh", c.label), e))?;
        if walkable_triangles(&w).next().is_none() {
            p.warnings.push(format!(
                "room {i} ({}): its walkmesh has no walkable face",
                c.label
            ));
        }
        woks.push(w);
    }
    super::check_overlaps(
        &(0..n)
            .map(|i| (format!("{} {}", p.names[i], p.comp(i).label), &woks[i]))
            .collect::<Vec<_>>(),
    )?;
    // Lightmaps the kits supply get module names.
    let mut lightmap_names: HashMap<String, String> = HashMap::new();
    let mut stems: Vec<String> = p
        .input
        .supplies
        .lightmaps
        .iter()
        .map(|f| f.resref.to_ascii_lowercase())
        .collect();
    stems.sort();
    stems.dedup();
    for (k, s) in stems.into_iter().enumerate() {
        lightmap_names.insert(s, format!("{}_lm{k}", p.module));
    }
    // Models: flipped and rotated (the LYT position places them), renamed, for the game.
    let mut models: Vec<Option<Model>> = Vec::with_capacity(n);
    for i in 0..n {
        let c = p.comp(i);
        let Some(src) = &c.model else {
            p.warnings.push(format!(
                "room {i} ({}) has no model: the game draws nothing there",
                c.label
            ));
            models.push(None);
            continue;
        };
        let mut m = src.clone();
        crate::models::transform(&mut m, &steps_of(&p.places[i], false));
        rename_model(&mut m, &p.names[i], &lightmap_names);
        retarget(&mut m, p.game);
        models.push(Some(m));
    }
    Ok(Placed {
        woks,
        models,
        lightmap_names,
    })
}

fn link(p: &mut Plan<'_>, placed: &mut Placed) -> Result<Linked, BuildError> {
    let n = p.n;
    let mut hook_link: Vec<Vec<Option<usize>>> =
        (0..n).map(|i| vec![None; p.comp(i).hooks.len()]).collect();
    for &(a, ha, b, hb, _) in &p.joints {
        hook_link[a][ha] = Some(b);
        hook_link[b][hb] = Some(a);
    }
    for (i, hooks) in hook_link.iter().enumerate() {
        for (h, l) in hooks.iter().enumerate() {
            if l.is_none() {
                p.warnings.push(format!(
                    "room {i} ({} {}) hook {h} meets no other room's hook: its doorway leads nowhere",
                    p.names[i],
                    p.comp(i).label
                ));
            }
        }
    }
    // Room links from geometry, by the code `relink` runs.
    {
        let mut refs: Vec<Option<&mut Bwm>> = placed.woks.iter_mut().map(Some).collect();
        relink::relink(&mut refs, &RelinkOptions::default());
    }
    let mut linked: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let mut room_links = vec![0usize; n];
    for (i, w) in placed.woks.iter().enumerate() {
        for e in &w.edges {
            if e.transition >= 0 && (e.transition as usize) < n {
                let j = e.transition as usize;
                *linked.entry((i.min(j), i.max(j))).or_default() += 1;
                room_links[i] += 1;
            }
        }
    }
    for &(a, ha, b, hb, _) in &p.joints {
        if !linked.contains_key(&(a.min(b), a.max(b))) {
            return Err(BuildError::Placement(format!(
                "rooms {a} ({}) and {b} ({}) connect at hooks {ha} and {hb}, but no walkable edges of their walkmeshes meet there: check the kit's hooks and the rooms' placement",
                p.comp(a).label,
                p.comp(b).label
            )));
        }
    }
    // Rooms reachable over the connections from room 0.
    let mut graph: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, _, b, _, _) in &p.joints {
        graph[a].push(b);
        graph[b].push(a);
    }
    let mut connected = vec![false; n];
    let mut stack = vec![0usize];
    connected[0] = true;
    while let Some(r) = stack.pop() {
        for &o in &graph[r] {
            if !connected[o] {
                connected[o] = true;
                stack.push(o);
            }
        }
    }
    for (i, c) in connected.iter().enumerate() {
        if !c {
            p.warnings.push(format!(
                "room {i} ({} {}) is not connected to the entry room: the player cannot walk there",
                p.names[i],
                p.comp(i).label
            ));
        }
    }
    Ok(Linked {
        hook_link,
        linked,
        room_links,
        connected,
    })
}

fn doors(p: &mut Plan<'_>, placed: &Placed) -> Result<Doors, BuildError> {
    let mut out = Doors {
        doors: Vec::new(),
        connections: Vec::new(),
        lyt: Lyt::default(),
        sky: None,
        pads: Vec::new(),
        files: Vec::new(),
    };
    for (i, pl) in p.places.iter().enumerate() {
        out.lyt
            .rooms
            .push(lyt::Placement::new(p.names[i].clone(), pl.position));
    }
    // Each connection's doorway: the midpoint of its two hooks (the door and any padding).
    let doorway: Vec<[f32; 3]> = p
        .joints
        .iter()
        .map(|&(a, ha, b, hb, _)| {
            let pa = p.places[a].point(p.comp(a).hooks[ha].position);
            let pb = p.places[b].point(p.comp(b).hooks[hb].position);
            [0, 1, 2].map(|c| (pa[c] + pb[c]) / 2.0)
        })
        .collect();
    place_doors(p, &doorway, &mut out)?;
    add_skybox(p, placed, &mut out);
    pad_doorways(p, placed, &doorway, &mut out);
    Ok(out)
}

/// The doors at the connections (the wider door of the two hooks, at their doorway): their
/// UTDs, GIT entries and LYT door hooks; a warning where neither kit holds the door.
fn place_doors(p: &mut Plan<'_>, doorway: &[[f32; 3]], out: &mut Doors) -> Result<(), BuildError> {
    let module = p.module.clone();
    for (k, &(a, ha, b, hb, explicit)) in p.joints.iter().enumerate() {
        let (hook_a, hook_b) = (p.comp(a).hooks[ha], p.comp(b).hooks[hb]);
        let da = p.comp(a).doors.get(hook_a.door).and_then(Option::as_ref);
        let db = p.comp(b).doors.get(hook_b.door).and_then(Option::as_ref);
        let (door, room, hook) = match (da, db) {
            (Some(x), Some(y)) if y.width > x.width => (Some(y), b, hook_b),
            (Some(x), _) => (Some(x), a, hook_a),
            (None, y) => (y, b, hook_b),
        };
        let at = doorway[k];
        let bearing = p.places[room].direction(hook.rotation).to_radians();
        let resref = format!("{module}_dor{k:02}");
        if let Some(d) = door {
            out.files.push(ModuleFile {
                resref: resref.clone(),
                ext: "utd".into(),
                data: gff::write(&records::rename_utd(&d.utd, &resref))
                    .map_err(|e| BuildError::encode(format!("{resref}.utd"), e))?,
            });
            out.doors.push(records::DoorSpec {
                template: resref.clone(),
                tag: resref.clone(),
                position: at,
                bearing,
                linked: false,
            });
            let mut hook = DoorHook::new(p.names[room].clone(), resref.clone(), at);
            hook.orientation = lyt_orientation(bearing);
            out.lyt.doorhooks.push(hook);
        } else {
            p.warnings.push(format!(
                "rooms {a} ({}) and {b} ({}) connect, but neither hook's kit holds its door template: the doorway stays open",
                p.comp(a).label,
                p.comp(b).label
            ));
        }
        out.connections.push(BuiltConnection {
            rooms: [a, b],
            hooks: [ha, hb],
            door: if door.is_some() {
                resref
            } else {
                String::new()
            },
            position: at,
            explicit,
        });
    }
    Ok(())
}

/// The skybox: a room at the origin, seen from everywhere.
fn add_skybox(p: &mut Plan<'_>, placed: &Placed, out: &mut Doors) {
    let (input, module) = (p.input, p.module.clone());
    if let Some(s) = &input.layout.skybox {
        match &input.supplies.skybox {
            Some(m) => {
                let name = format!("{module}_sky");
                let mut m = m.clone();
                rename_model(&mut m, &name, &placed.lightmap_names);
                retarget(&mut m, p.game);
                out.lyt
                    .rooms
                    .push(lyt::Placement::new(name.clone(), [0.0; 3]));
                out.sky = Some((name, m));
            }
            None => p
                .warnings
                .push(format!("skybox {s:?}: no kit supplies it; left out")),
        }
    }
}

/// Doorway padding (Holocron's rule): where two connected doors differ in height (width), the
/// smaller door's kit pads it with its `top` (`side`) model of the smallest size above the
/// other door's, turned to the door's bearing, at the door.
fn pad_doorways(p: &mut Plan<'_>, placed: &Placed, doorway: &[[f32; 3]], out: &mut Doors) {
    let (input, module) = (p.input, p.module.clone());
    for (k, &(a, ha, b, hb, _)) in p.joints.iter().enumerate() {
        let (hook_a, hook_b) = (p.comp(a).hooks[ha], p.comp(b).hooks[hb]);
        let (da, db) = (
            p.comp(a).doors.get(hook_a.door).and_then(Option::as_ref),
            p.comp(b).doors.get(hook_b.door).and_then(Option::as_ref),
        );
        let (da, db) = match (da, db) {
            (Some(da), Some(db)) => (da, db),
            (None, None) => continue,
            (Some(_), None) | (None, Some(_)) => {
                let unknown = if da.is_none() { a } else { b };
                p.warnings.push(format!(
                    "rooms {a} and {b}: the door size of room {unknown} ({}) at this doorway is unknown, so whether the doors leave a gap is not known",
                    p.comp(unknown).label
                ));
                continue;
            }
        };
        let at = doorway[k];
        for (kind, small_a, other) in [
            (
                PaddingKind::Top,
                da.height < db.height,
                da.height.max(db.height),
            ),
            (
                PaddingKind::Side,
                da.width < db.width,
                da.width.max(db.width),
            ),
        ] {
            let differs = match kind {
                PaddingKind::Top => da.height != db.height,
                PaddingKind::Side => da.width != db.width,
            };
            if !differs {
                continue;
            }
            let (room, hook) = if small_a { (a, hook_a) } else { (b, hook_b) };
            let what = if kind == PaddingKind::Top {
                "height"
            } else {
                "width"
            };
            let Some(kit) = &p.comp(room).kit else {
                p.warnings.push(format!(
                    "rooms {a} and {b}: their doors differ in {what} ({:.2} m and {:.2} m), and room {room} is no kit room with padding models: the gap stays open",
                    if kind == PaddingKind::Top { da.height } else { da.width },
                    if kind == PaddingKind::Top { db.height } else { db.width },
                ));
                continue;
            };
            let need = (other * 100.0).round() as u32;
            let Some(pad) = input
                .supplies
                .padding
                .iter()
                .filter(|q| {
                    q.kind == kind
                        && q.kit.eq_ignore_ascii_case(kit)
                        && q.door == hook.door
                        && q.size_cm > need
                })
                .min_by_key(|q| q.size_cm)
            else {
                p.warnings.push(format!(
                    "rooms {a} and {b}: their doors differ in {what}, and kit {kit:?} has no {} padding for door {} above {need} cm: the gap stays open",
                    if kind == PaddingKind::Top { "top" } else { "side" },
                    hook.door
                ));
                continue;
            };
            let name = format!("{module}_pad{:02}", out.pads.len());
            let mut m = pad.model.clone();
            let bearing = p.places[room].direction(hook.rotation);
            crate::models::transform(&mut m, &[Transform::RotateZ(bearing as f64)]);
            rename_model(&mut m, &name, &placed.lightmap_names);
            retarget(&mut m, p.game);
            out.lyt.rooms.push(lyt::Placement::new(name.clone(), at));
            out.pads.push((name, m, [a, b], at));
        }
    }
}

fn visibility(p: &mut Plan<'_>, placed: &Placed, linked: &Linked, doors: &Doors) -> Visible {
    // Over every LYT room (the skybox and the padding models are rooms without a floor:
    // drawn from every room that sees a room they touch), exactly as `vis generate` computes
    // it from the written module; linked rooms always see each other.
    let mut rooms: Vec<VisRoom> = (0..p.n)
        .map(|i| VisRoom {
            name: p.names[i].clone(),
            walkmesh: Some(&placed.woks[i]),
            model: placed.models[i].as_ref(),
            position: p.places[i].position,
        })
        .collect();
    if let Some((name, m)) = &doors.sky {
        rooms.push(VisRoom {
            name: name.clone(),
            walkmesh: None,
            model: Some(m),
            position: [0.0; 3],
        });
    }
    for (name, m, _, at) in &doors.pads {
        rooms.push(VisRoom {
            name: name.clone(),
            walkmesh: None,
            model: Some(m),
            position: *at,
        });
    }
    let links: Vec<(usize, usize)> = linked.linked.keys().copied().collect();
    let opts = VisOptions {
        threads: p.input.threads,
        ..VisOptions::default()
    };
    let r = visgen::generate_vis(&rooms, &links, &opts);
    p.warnings.extend(r.warnings.iter().cloned());
    let index: HashMap<String, usize> = rooms
        .iter()
        .enumerate()
        .map(|(i, r)| (r.name.to_ascii_lowercase(), i))
        .collect();
    let index = &index;
    let mut pairs: Vec<(usize, usize)> = r
        .vis
        .rooms
        .iter()
        .flat_map(|e| {
            let a = index.get(&e.name.to_ascii_lowercase()).copied();
            e.visible
                .iter()
                .filter_map(move |o| Some((a?, *index.get(&o.to_ascii_lowercase())?)))
        })
        .map(|(a, b)| (a.min(b), a.max(b)))
        .filter(|(a, b)| a != b)
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    Visible { vis: r.vis, pairs }
}

fn paths(
    p: &mut Plan<'_>,
    placed: &Placed,
    linked: &Linked,
    doors: &Doors,
    vis: &Visible,
) -> Result<Paths, BuildError> {
    let (n, module) = (p.n, &p.module);
    let woks = &placed.woks;
    // Entry point: on walkable ground in the first room.
    let entry = match p.input.layout.entry {
        Some(e) => {
            let q = crate::walkmesh::query_at(&woks[0], e[0], e[1], Some(e[2])).ok();
            if !q.as_ref().is_some_and(|a| a.walkable) {
                return Err(BuildError::Placement(format!(
                    "entry {e:?} is not on walkable ground of room 0 ({})",
                    p.comp(0).label
                )));
            }
            e
        }
        None => interior_point(&woks[0]).ok_or_else(|| {
            BuildError::Placement(format!(
                "room 0 ({}) has no walkable ground for the entry point",
                p.comp(0).label
            ))
        })?,
    };
    // Paths from the entry to every connected room, on the module's own ground.
    let area = Area {
        dir: PathBuf::new(),
        resref: module.clone(),
        lyt_path: PathBuf::from(format!("{module}.lyt")),
        lyt: doors.lyt.clone(),
        vis_path: None,
        vis: Some(vis.vis.clone()),
        vis_error: None,
        rooms: doors
            .lyt
            .rooms
            .iter()
            .enumerate()
            .map(|(i, r)| AreaRoom {
                name: r.name.clone(),
                wok_path: None,
                wok: woks.get(i).cloned(),
                wok_error: None,
            })
            .collect(),
        unlisted_woks: Vec::new(),
    };
    let source = NavSource::from_area(&area);
    let nav = AreaNav::build(&source, &[], &NavOptions::default()).map_err(|e| {
        BuildError::Placement(format!(
            "the module's walkable ground cannot be navigated, so no path from the entry can be checked: {e}"
        ))
    })?;
    let reached = reach(&nav, entry, woks);
    for (i, &r) in reached.iter().enumerate().take(n) {
        if linked.connected[i] && !r {
            return Err(BuildError::Placement(format!(
                "room {i} ({} {}) is connected in the layout, but no path from the entry reaches it",
                p.names[i],
                p.comp(i).label
            )));
        }
    }
    // The path graph the game's creatures walk by, from the walkmesh.
    let pth = match crate::pth::generate_pth(&source, &crate::pth::PthOptions::default()) {
        Ok(g) => Some(
            g.to_bytes()
                .map_err(|e| BuildError::encode(format!("{module}.pth"), e))?,
        ),
        Err(e) => {
            p.warnings.push(format!(
                "no path graph ({module}.pth) was written: the ground carved for a creature's radius cannot be navigated: {e}"
            ));
            None
        }
    };
    Ok(Paths {
        entry,
        reached,
        nav: Some(nav),
        pth,
    })
}

/// Which rooms a path from `entry` reaches (each room's interior point as the goal).
fn reach(nav: &AreaNav, entry: [f32; 3], woks: &[Bwm]) -> Vec<bool> {
    let n = woks.len();
    let mut searcher = areakit_geometry::nav::Searcher::new();
    let from = PathPoint {
        x: entry[0],
        y: entry[1],
        z: Some(entry[2]),
    };
    (0..n)
        .map(|i| {
            let Some(goal) = interior_point(&woks[i]) else {
                return false;
            };
            let to = PathPoint {
                x: goal[0],
                y: goal[1],
                z: Some(goal[2]),
            };
            nav.find(&mut searcher, from, to, PathMode::Fast, 0.5)
                .found()
        })
        .collect()
}

fn minimap(p: &Plan<'_>, placed: &Placed) -> Result<Minimap, BuildError> {
    let n = p.n;
    let woks = &placed.woks;
    let images: Vec<Option<PlacedImage>> = (0..n)
        .map(|i| {
            p.comp(i).image.as_ref().map(|image| PlacedImage {
                image,
                position: p.places[i].position,
                rotation_deg: p.places[i].rotation,
                flip_x: p.places[i].flip_x,
                flip_y: p.places[i].flip_y,
            })
        })
        .collect();
    let count = images.iter().filter(|i| i.is_some()).count();
    let rooms: Vec<MinimapRoom> = (0..n)
        .map(|i| MinimapRoom {
            walkmesh: Some(&woks[i]),
            image: images[i],
        })
        .collect();
    let opts = minimap::MinimapOptions {
        game: match p.input.game {
            TargetGame::K1 => minimap::Game::K1,
            TargetGame::K2 => minimap::Game::K2,
        },
        ..minimap::MinimapOptions::default()
    };
    let mm =
        minimap::render_minimap(&rooms, &opts).map_err(|e| BuildError::encode("minimap", e))?;
    let samples = minimap::walkable_samples(&woks.iter().collect::<Vec<_>>(), 0.5, 200_000);
    let coverage = minimap::coverage_in(mm.game, &mm.map, mm.width, mm.height, &mm.rgba, &samples);
    let tga = areakit_formats::tga::write(
        &areakit_formats::tga::Tga {
            width: mm.width,
            height: mm.height,
            rgba: mm.rgba,
        },
        areakit_formats::tga::WriteOptions::default(),
    )
    .map_err(|e| BuildError::encode(format!("lbl_map{}.tga", p.module), e))?;
    Ok(Minimap {
        map: mm.map,
        coverage,
        images: count,
        tga,
    })
}

/// Stage 8: ARE, GIT and IFO.
fn records(
    p: &Plan<'_>,
    doors: &Doors,
    paths: &Paths,
    mm: &Minimap,
) -> Result<Vec<ModuleFile>, BuildError> {
    let (layout, module, game) = (&p.input.layout, &p.module, p.input.game);
    let are = records::make_are(&records::AreaSpec {
        resref: module.clone(),
        name: layout.name.clone(),
        lighting: layout.lighting,
        map: Some(mm.map),
        rooms: doors.lyt.rooms.iter().map(|r| r.name.clone()).collect(),
        game,
    });
    let git = records::make_git(&doors.doors, game);
    let ifo = records::make_ifo(&records::ModuleSpec {
        resref: module.clone(),
        name: layout.name.clone(),
        entry: paths.entry,
        entry_direction: [0.0, 1.0],
        game,
    });
    let enc = |g: &Gff, what: &str| gff::write(g).map_err(|e| BuildError::encode(what, e));
    Ok(vec![
        ModuleFile {
            resref: module.clone(),
            ext: "are".into(),
            data: enc(&are, "ARE")?,
        },
        ModuleFile {
            resref: module.clone(),
            ext: "git".into(),
            data: enc(&git, "GIT")?,
        },
        ModuleFile {
            resref: "module".into(),
            ext: "ifo".into(),
            data: enc(&ifo, "IFO")?,
        },
    ])
}

/// A model as its MDL and MDX files.
fn model_files(name: &str, m: &Model, files: &mut Vec<ModuleFile>) -> Result<(), BuildError> {
    let (mdl_bytes, mdx_bytes) =
        mdl::write(m).map_err(|e| BuildError::encode(format!("{name}.mdl"), e))?;
    files.push(ModuleFile {
        resref: name.to_string(),
        ext: "mdl".into(),
        data: mdl_bytes,
    });
    files.push(ModuleFile {
        resref: name.to_string(),
        ext: "mdx".into(),
        data: mdx_bytes,
    });
    Ok(())
}

/// Stage 9: every file of the module, in a stable order.
fn files(
    p: &mut Plan<'_>,
    placed: &Placed,
    doors: Doors,
    vis: &Visible,
    paths: &mut Paths,
    mm: Minimap,
    records: Vec<ModuleFile>,
) -> Result<Vec<ModuleFile>, BuildError> {
    let input = p.input;
    let module = p.module.clone();
    let mut files: Vec<ModuleFile> = Vec::new();
    for f in &input.supplies.lightmaps {
        let to = &placed.lightmap_names[&f.resref.to_ascii_lowercase()];
        files.push(ModuleFile {
            resref: to.clone(),
            ext: f.ext.clone(),
            data: f.data.clone(),
        });
    }
    files.extend(doors.files);
    files.push(ModuleFile {
        resref: format!("lbl_map{module}"),
        ext: "tga".into(),
        data: mm.tga,
    });
    files.extend(records);
    files.push(ModuleFile {
        resref: module.clone(),
        ext: "lyt".into(),
        data: lyt::write(&doors.lyt).map_err(|e| BuildError::encode("LYT", e))?,
    });
    files.push(ModuleFile {
        resref: module.clone(),
        ext: "vis".into(),
        data: areakit_formats::vis::write(&vis.vis).map_err(|e| BuildError::encode("VIS", e))?,
    });
    if let Some(pth) = paths.pth.take() {
        files.push(ModuleFile {
            resref: module.clone(),
            ext: "pth".into(),
            data: pth,
        });
    }
    for i in 0..p.n {
        files.push(ModuleFile {
            resref: p.names[i].clone(),
            ext: "wok".into(),
            data: bwm::write(&placed.woks[i])
                .map_err(|e| BuildError::encode(format!("{}.wok", p.names[i]), e))?,
        });
        if let Some(m) = &placed.models[i] {
            model_files(&p.names[i], m, &mut files)?;
        }
    }
    for (name, m) in doors
        .sky
        .iter()
        .map(|(n, m)| (n, m))
        .chain(doors.pads.iter().map(|(n, m, _, _)| (n, m)))
    {
        model_files(name, m, &mut files)?;
    }
    for f in input.supplies.textures.iter().chain(&input.supplies.always) {
        if files
            .iter()
            .any(|g| g.resref.eq_ignore_ascii_case(&f.resref) && g.ext == f.ext)
        {
            p.warnings.push(format!(
                "kit file {}.{} has the name of a module file: left out",
                f.resref, f.ext
            ));
            continue;
        }
        files.push(ModuleFile {
            resref: f.resref.to_ascii_lowercase(),
            ext: f.ext.clone(),
            data: f.data.clone(),
        });
    }
    Ok(files)
}

/// Builds the module, telling `progress` as each stage starts.
pub fn build_with(input: &BuildInput, progress: &dyn Fn(Stage)) -> Result<Built, BuildError> {
    progress(Stage::Layout);
    let mut p = plan(input)?;
    progress(Stage::Placement);
    let mut placed = place(&mut p)?;
    progress(Stage::Links);
    let linked = link(&mut p, &mut placed)?;
    progress(Stage::Doors);
    let doors = doors(&mut p, &placed)?;
    progress(Stage::Visibility);
    let vis = visibility(&mut p, &placed, &linked, &doors);
    progress(Stage::Paths);
    let mut paths = paths(&mut p, &placed, &linked, &doors, &vis)?;
    progress(Stage::Minimap);
    let mm = minimap(&p, &placed)?;
    progress(Stage::Records);
    let records = records(&p, &doors, &paths, &mm)?;
    let (coverage, images) = (mm.coverage, mm.images);
    let connections = doors.connections.clone();
    progress(Stage::Files);
    let files = files(&mut p, &placed, doors, &vis, &mut paths, mm, records)?;
    let rooms = (0..p.n)
        .map(|i| BuiltRoom {
            name: p.names[i].clone(),
            source: p.comp(i).label.clone(),
            position: p.places[i].position,
            rotation: p.places[i].rotation,
            flip_x: p.places[i].flip_x,
            flip_y: p.places[i].flip_y,
            hooks: linked.hook_link[i].clone(),
            links: linked.room_links[i],
            reached: paths.reached[i],
        })
        .collect();
    Ok(Built {
        files,
        report: BuildReport {
            module: p.module.clone(),
            game: input.game,
            layout: input.layout.kind,
            rooms,
            connections,
            entry: paths.entry,
            vis_pairs: vis.pairs.len(),
            linked_pairs: linked.linked.len(),
            minimap_coverage: coverage,
            minimap_images: images,
            warnings: std::mem::take(&mut p.warnings),
        },
        facts: BuildFacts {
            vis_pairs: vis.pairs,
            nav: paths.nav,
        },
    })
}
