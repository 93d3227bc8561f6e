//! Room visibility (VIS) from geometry: sight lines from eye height above the walkable floor,
//! through the openings, against the room models (`areakit vis generate`), and the checks of a
//! VIS against them (`vis-missing-pair`, `vis-excess-pair`).
//!
//! **Method: sampled rays** (the reasons and the measurements are in `docs/vis.md`).
//!
//! 1. *Sampling* ([`prepare`]): every room's walkable floor (its WOK's walkable faces, or without
//!    a WOK its model's aabb faces placed at the room's LYT position) is sampled on a
//!    low-discrepancy pattern at [`VisOptions::eye_spacing`]; every room's drawn surface (the
//!    faces of its model's rendered meshes, or without a model its walkable floor) at
//!    [`VisOptions::target_spacing`], each target a little in front of its face. The occluders
//!    are the opaque rendered faces of every model (see [`occluder_faces`]).
//! 2. *BVH* ([`Prepared::build`]): a bounding volume hierarchy over the occluders; each floor
//!    point is raised to [`VisOptions::eye_height`] (or just under a lower ceiling), and a room's
//!    eye points are also targets in it.
//! 3. *Ray tests* ([`VisScene::sight_lines`]): two rooms see each other when a segment from an
//!    eye point of one to a target of the other meets no occluder (a face seen from behind
//!    blocks its own target: surfaces are drawn one-sided). Each pair stops at its first sight
//!    line; the pairs run on all cores.
//!
//! The VIS lists both directions of every pair with a sight line and of every pair of rooms
//! whose walkmeshes are linked. With no room model at all there is nothing to sample against:
//! rooms within [`VisOptions::fallback_depth`] links of each other in the walkmesh room graph
//! see each other, and the result says so in a warning.

pub mod bvh;
pub mod flow;
pub mod portals;
pub mod shell;
pub mod synthetic;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicUsize, Ordering};

use areakit_formats::bwm::{Bwm, Material};
use areakit_formats::finding::{Finding, Place};
use areakit_formats::mdl::{self, Model};
use areakit_formats::vis::Vis;
use glam::Vec3;
use serde::Serialize;

use bvh::{Bvh, Tri};

/// One room of the area, as the generator sees it.
#[derive(Debug, Clone)]
pub struct VisRoom<'a> {
    /// The room's name (the LYT's; `****` placeholders are left out of the VIS).
    pub name: String,
    /// Its walkmesh, in area space (a WOK as the game stores it).
    pub walkmesh: Option<&'a Bwm>,
    /// Its model, in model space.
    pub model: Option<&'a Model>,
    /// The room's LYT position: where the model's origin stands in area space.
    pub position: [f32; 3],
}

/// How visibility is generated and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct VisOptions {
    /// Height of the eye above the walkable floor, in metres (1.7: a standing character's eyes;
    /// see `docs/vis.md`).
    pub eye_height: f32,
    /// Without any room model, nothing bounds what a room sees, so every room sees every
    /// other (`None`); `Some(depth)`: rooms this many walkmesh links apart or fewer see each
    /// other instead (not conservative: a warning says so).
    pub fallback_depth: Option<usize>,
    /// Look for sampled sight lines too (at the spacings below) and report which pairs one
    /// confirms: a refinement, reported as such; it never removes a pair.
    pub confirm: bool,
    /// Distance between eye points on the floor, in metres.
    pub eye_spacing: f32,
    /// Distance between target points on the drawn surfaces, in metres.
    pub target_spacing: f32,
    /// Eye points and target points per room at most (the spacing of a larger room grows).
    pub max_samples_per_room: usize,
    /// How far from a free edge of an occluder (an edge no other occluder face shares: the
    /// side of a doorway, a window) a sight line may pass and still get through, in metres.
    pub margin: f32,
    /// Threads for the ray tests (0: one per core).
    pub threads: usize,
    /// Pixels along a side of each face of an eye's cube map (0: no cube maps, every segment
    /// tested). An exact shortcut: it changes the time, never the result.
    pub cube: usize,
}

impl Default for VisOptions {
    fn default() -> Self {
        VisOptions {
            eye_height: DEFAULT_EYE_HEIGHT,
            fallback_depth: None,
            confirm: false,
            eye_spacing: 1.5,
            target_spacing: 1.5,
            max_samples_per_room: 4096,
            margin: 0.02,
            threads: 0,
            cube: 16,
        }
    }
}

/// The sample spacings [`check_spacing`] picks from, finest first.
pub const CHECK_SPACINGS: [f32; 5] = [0.5, 0.75, 1.0, 1.25, 1.5];

/// Eye points per area that [`check_spacing`] allows at most (walkable area / spacing²).
pub const CHECK_EYE_BUDGET: f32 = 6000.0;

/// The sample spacing `check` uses on an area: the finest of [`CHECK_SPACINGS`] that keeps the
/// walkable floor (all rooms' walkable faces, m²) within [`CHECK_EYE_BUDGET`] eye points — small
/// areas are sampled densely (a module of kit rooms, ~1 000 m², at 0.5 m: the spacing `areakit
/// build` generates with, so a built module meets its own VIS), large ones at the 1.5 m of
/// `vis generate`.
pub fn check_spacing(rooms: &[VisRoom<'_>]) -> f32 {
    let area: f64 = rooms
        .iter()
        .filter_map(|r| r.walkmesh)
        .flat_map(|w| {
            w.faces
                .iter()
                .filter(|f| f.material.is_walkable())
                .map(|f| {
                    let p = |i: u32| {
                        w.vertices
                            .get(i as usize)
                            .map_or(Vec3::ZERO, |v| Vec3::from(*v))
                    };
                    let (a, b, c) = (p(f.vertices[0]), p(f.vertices[1]), p(f.vertices[2]));
                    f64::from((b - a).cross(c - a).length() * 0.5)
                })
        })
        .sum();
    CHECK_SPACINGS
        .into_iter()
        .find(|s| area / f64::from(s * s) <= f64::from(CHECK_EYE_BUDGET))
        .unwrap_or(CHECK_SPACINGS[CHECK_SPACINGS.len() - 1])
}

/// The default eye height: 1.7 m above the walkable floor.
pub const DEFAULT_EYE_HEIGHT: f32 = 1.7;

/// How far in front of its face a target point stands, in metres.
pub const TARGET_OFFSET: f32 = 0.02;

/// Rooms at most a VIS is made or checked for (the pairs grow as the square of the rooms; the
/// games' areas have under a hundred): beyond it [`generate_vis`] makes none and says so, and
/// [`vis_findings`] checks nothing.
pub const MAX_ROOMS: usize = 2048;

/// What [`generate_vis`] made.
#[derive(Debug, Clone, Serialize)]
pub struct VisResult {
    /// The visibility: one entry per room (LYT order), the rooms it sees in LYT order.
    #[serde(serialize_with = "serialize_vis")]
    pub vis: Vis,
    /// `portals` (with `and sampled sight lines` when they were looked for), `every pair`
    /// (no room model) or `walkmesh room graph (depth N)`.
    pub method: String,
    /// Rooms (placeholders left out).
    pub rooms: usize,
    /// Rooms with a model.
    pub rooms_with_models: usize,
    /// Pairs of rooms that see each other (each pair once; the VIS lists both directions).
    pub pairs: usize,
    /// Pairs in the VIS that no sampled sight line joins, when sight lines were sampled
    /// ([`VisOptions::confirm`]; else `None`): what the VIS may give away.
    pub pairs_without_sampled_line: Option<usize>,
    /// Pairs of rooms whose walkmeshes are linked.
    pub linked_pairs: usize,
    /// Eye points over all rooms.
    pub eye_points: usize,
    /// Target points over all rooms.
    pub target_points: usize,
    /// Occluder triangles.
    pub occluder_triangles: usize,
    /// Segments tested (eye to target). The count varies a little with the threads (a pair
    /// found by one side is not tested again from the other); the VIS does not.
    pub rays: u64,
    /// Rays cast for the eyes' cube maps.
    pub cube_rays: u64,
    /// The eye height used, in metres.
    pub eye_height: f32,
    /// Boundary loops of the rooms' shells.
    pub shell_loops: usize,
    /// Openings found in the shells (loops a line can pass out through).
    pub openings: usize,
    /// Doorways: two rooms' openings that meet.
    pub doorways: usize,
    /// Probe lines cast to tell openings from pockets.
    pub probes: u64,
    /// Portal sequences the flows visited.
    pub portal_steps: usize,
    /// Pairs a sampled sight line joins that the portals did not give: a shell with an
    /// opening its probes missed (each is named in a warning; the VIS is not changed, so
    /// that it is the same at any spacing).
    pub pairs_from_sampling: usize,
    /// What the result cannot promise (rooms without models, the fallback).
    pub warnings: Vec<String>,
}

fn serialize_vis<S: serde::Serializer>(vis: &Vis, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(vis.rooms.len()))?;
    for r in &vis.rooms {
        m.serialize_entry(&r.name, &r.visible)?;
    }
    m.end()
}

/// A sight line: from an eye point of one room to a target point of another.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Witness {
    /// The room of the eye.
    pub from: usize,
    /// The eye point (area space).
    pub eye: [f32; 3],
    /// The target point (area space), in the other room.
    pub target: [f32; 3],
}

/// A target point: where it is, and the face it stands in front of (none for an eye point).
#[derive(Debug, Clone, Copy)]
struct Target {
    at: Vec3,
    /// Seen only from where `(eye - at)·normal > 0`.
    normal: Option<Vec3>,
}

/// One room's samples.
#[derive(Debug, Clone, Default)]
struct RoomSamples {
    placeholder: bool,
    /// Floor points (before raising them to eye height).
    floor: Vec<Vec3>,
    eyes: Vec<Vec3>,
    targets: Vec<Target>,
}

/// Phase 1: the samples and the occluder triangles, before the hierarchy.
#[derive(Debug, Clone)]
pub struct Prepared {
    rooms: Vec<RoomSamples>,
    occluders: Vec<Tri>,
    opts: VisOptions,
}

/// Phase 2: the occluder hierarchy and the eye points; ready for ray tests.
#[derive(Debug, Clone)]
pub struct VisScene {
    rooms: Vec<RoomSamples>,
    bvh: Bvh,
    opts: VisOptions,
}

/// Phase 3: for each pair of rooms, a sight line or none.
#[derive(Debug, Clone, Default)]
pub struct SightLines {
    /// Rooms (the scene's count).
    pub rooms: usize,
    /// The pairs `(a, b)`, `a < b`, with a sight line, and one such line.
    pub seen: Vec<((usize, usize), Witness)>,
    /// Segments tested (eye to target).
    pub rays: u64,
    /// Rays cast for the eyes' cube maps.
    pub cube_rays: u64,
}

impl SightLines {
    /// The sight line between `a` and `b`, if one was found.
    pub fn between(&self, a: usize, b: usize) -> Option<&Witness> {
        let key = (a.min(b), a.max(b));
        self.seen
            .binary_search_by(|(k, _)| k.cmp(&key))
            .ok()
            .map(|i| &self.seen[i].1)
    }
}

/// The faces of `model`'s meshes that are drawn (render flag set, not an aabb walkmesh node),
/// in area space (the model's origin at `position`), each with whether it hides what is behind
/// it: an occluder is a plain trimesh (no skin, dangly, animated or saber mesh: those move)
/// with no transparency hint and no alpha key under 0.99. The front side is the one the stored
/// face normal points to (the winding's, where the stored normal is missing).
pub fn occluder_faces(model: &Model, position: [f32; 3]) -> Vec<([[f32; 3]; 3], bool)> {
    let world = model.world_transforms();
    let offset = position.map(|c| if c.is_finite() { f64::from(c) } else { 0.0 });
    let mut out = Vec::new();
    for (i, n) in model.nodes.iter().enumerate() {
        let Some(mesh) = &n.mesh else { continue };
        if n.aabb.is_some() || n.flags & mdl::flags::AABB != 0 || mesh.render == 0 {
            continue;
        }
        let moving = mdl::flags::SKIN | mdl::flags::DANGLY | mdl::flags::ANIM | mdl::flags::SABER;
        let translucent = mesh.transparency_hint != 0
            || n.controllers
                .iter()
                .filter(|c| c.kind == ALPHA)
                .any(|c| n.keys(c).any(|(_, v)| v.first().is_some_and(|a| *a < 0.99)));
        let opaque = n.flags & moving == 0 && !translucent;
        let (q, t) = world
            .get(i)
            .copied()
            .unwrap_or((mdl::quat::IDENTITY, [0.0; 3]));
        let place = |v: [f32; 3]| -> [f32; 3] {
            let p = mdl::quat::rotate(q, v.map(f64::from));
            [
                (p[0] + t[0] + offset[0]) as f32,
                (p[1] + t[1] + offset[1]) as f32,
                (p[2] + t[2] + offset[2]) as f32,
            ]
        };
        let placed: Vec<[f32; 3]> = mesh.positions.iter().map(|&v| place(v)).collect();
        for f in &mesh.faces {
            let c = f.vertices.map(|v| placed.get(usize::from(v)).copied());
            let (Some(a), Some(b), Some(c)) = (c[0], c[1], c[2]) else {
                continue;
            };
            if ![a, b, c].iter().flatten().all(|x| x.is_finite()) {
                continue;
            }
            let (va, vb, vc) = (Vec3::from(a), Vec3::from(b), Vec3::from(c));
            let wind = (vb - va).cross(vc - va);
            let stored = mdl::quat::rotate(q, f.normal.map(f64::from));
            let stored = Vec3::new(stored[0] as f32, stored[1] as f32, stored[2] as f32);
            // Wound the other way than the stored normal says: turn it so the winding's
            // normal points to the front.
            if stored.is_finite() && wind.dot(stored) < 0.0 {
                out.push(([a, c, b], opaque));
            } else {
                out.push(([a, b, c], opaque));
            }
        }
    }
    out
}

/// The controller type of a mesh's alpha.
const ALPHA: u32 = 132;

/// The walkable faces of a room in area space: its walkmesh's, or without one its model's aabb
/// faces placed at `position`.
fn floor_faces(room: &VisRoom<'_>) -> Vec<[Vec3; 3]> {
    let mut out = Vec::new();
    if let Some(w) = room.walkmesh {
        for f in &w.faces {
            if !f.material.is_walkable() {
                continue;
            }
            let c = f.vertices.map(|v| w.vertices.get(v as usize).copied());
            if let (Some(a), Some(b), Some(c)) = (c[0], c[1], c[2]) {
                out.push([a, b, c].map(Vec3::from));
            }
        }
    } else if let Some(m) = room.model {
        let at = Vec3::from(room.position.map(|c| if c.is_finite() { c } else { 0.0 }));
        for f in crate::models::walkmesh_faces(m) {
            if Material::from_id(f.material).is_walkable() {
                out.push(f.corners.map(|c| Vec3::from(c) + at));
            }
        }
    }
    out.retain(|t| t.iter().all(|c| c.is_finite()));
    out
}

/// Points spread over `tris` at about one per `spacing`² of area (at most `cap`; the spacing
/// grows to keep to it), on a low-discrepancy (R2) pattern carried across the triangles, so
/// small faces get points in proportion to their area. Each point comes with its triangle's
/// index. A surface with area but no point by this rule gets its largest face's centroid.
fn sample_triangles(tris: &[[Vec3; 3]], spacing: f32, cap: usize) -> Vec<(Vec3, usize)> {
    let area = |t: &[Vec3; 3]| 0.5 * (t[1] - t[0]).cross(t[2] - t[0]).length();
    let total: f64 = tris.iter().map(|t| f64::from(area(t))).sum();
    let mut out = Vec::new();
    if tris.is_empty() || !total.is_finite() || cap == 0 {
        return out;
    }
    let spacing = f64::from(spacing.max(1e-3));
    let mut density = 1.0 / (spacing * spacing);
    if total * density > cap as f64 {
        density = cap as f64 / total;
    }
    const A1: f64 = 0.754_877_666_246_692_8;
    const A2: f64 = 0.569_840_290_998_053_3;
    let mut acc = 0.5f64;
    let mut k = 0u64;
    for (i, t) in tris.iter().enumerate() {
        acc += f64::from(area(t)) * density;
        while acc >= 1.0 && out.len() < cap {
            acc -= 1.0;
            k += 1;
            let mut u = (0.5 + k as f64 * A1).fract() as f32;
            let mut v = (0.5 + k as f64 * A2).fract() as f32;
            if u + v > 1.0 {
                u = 1.0 - u;
                v = 1.0 - v;
            }
            out.push((t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v, i));
        }
    }
    if out.is_empty()
        && let Some((i, t)) = tris
            .iter()
            .enumerate()
            .max_by(|a, b| area(a.1).total_cmp(&area(b.1)))
        && area(t) > 0.0
    {
        out.push(((t[0] + t[1] + t[2]) / 3.0, i));
    }
    out
}

/// Phase 1 of [`generate_vis`]: the rooms' floor and target samples and the occluder
/// triangles (with their free edges marked).
pub fn prepare(rooms: &[VisRoom<'_>], opts: &VisOptions) -> Prepared {
    let mut out = Vec::with_capacity(rooms.len());
    let mut occluders: Vec<[Vec3; 3]> = Vec::new();
    for room in rooms {
        let placeholder = room.name == areakit_formats::lyt::PLACEHOLDER_ROOM;
        let mut s = RoomSamples {
            placeholder,
            ..RoomSamples::default()
        };
        if placeholder {
            out.push(s);
            continue;
        }
        let floor = floor_faces(room);
        s.floor = sample_triangles(&floor, opts.eye_spacing, opts.max_samples_per_room)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        let drawn: Vec<([Vec3; 3], bool)> = match room.model {
            Some(m) => occluder_faces(m, room.position)
                .into_iter()
                .map(|(c, o)| (c.map(Vec3::from), o))
                .collect(),
            None => Vec::new(),
        };
        occluders.extend(drawn.iter().filter(|d| d.1).map(|d| d.0));
        // Targets: the drawn surface, or without one the floor.
        let (surface, lift): (Vec<[Vec3; 3]>, f32) = if drawn.is_empty() {
            (floor, 0.05)
        } else {
            (drawn.into_iter().map(|d| d.0).collect(), TARGET_OFFSET)
        };
        let normals: Vec<Option<Vec3>> = surface
            .iter()
            .map(|t| {
                let n = (t[1] - t[0]).cross(t[2] - t[0]).normalize_or_zero();
                (n != Vec3::ZERO).then_some(n)
            })
            .collect();
        for (p, i) in sample_triangles(&surface, opts.target_spacing, opts.max_samples_per_room) {
            let Some(n) = normals[i] else { continue };
            // A floor without a model is seen from above whichever way it is wound.
            let n = if lift != TARGET_OFFSET && n.z < 0.0 {
                -n
            } else {
                n
            };
            s.targets.push(Target {
                at: p + n * lift,
                normal: Some(n),
            });
        }
        out.push(s);
    }
    let occluders = with_margins(&occluders, opts.margin);
    Prepared {
        rooms: out,
        occluders,
        opts: opts.clone(),
    }
}

/// The occluder triangles with a margin along their free edges (edges whose two corners, to
/// the millimetre, no other occluder triangle joins; a triangle repeated counts once).
fn with_margins(tris: &[[Vec3; 3]], margin: f32) -> Vec<Tri> {
    use std::collections::HashMap;
    let key = |p: Vec3| (p * 1000.0).round().as_ivec3().to_array();
    let mut ids: HashMap<[i32; 3], u32> = HashMap::with_capacity(tris.len());
    let corner_ids: Vec<[u32; 3]> = tris
        .iter()
        .map(|t| {
            t.map(|c| {
                let n = ids.len() as u32;
                *ids.entry(key(c)).or_insert(n)
            })
        })
        .collect();
    let edge = |a: u32, b: u32| (a.min(b), a.max(b));
    let mut uses: HashMap<(u32, u32), u32> = HashMap::with_capacity(tris.len() * 3 / 2);
    // A face repeated (the coincident walls of two neighbouring rooms, either winding) is one
    // face: its edges stay free where the opening is.
    let mut faces: HashMap<[u32; 3], u32> = HashMap::with_capacity(tris.len());
    let mut groups = Vec::with_capacity(tris.len());
    for c in &corner_ids {
        let mut sorted = *c;
        sorted.sort_unstable();
        let next = faces.len() as u32;
        let group = *faces.entry(sorted).or_insert(next);
        groups.push(group);
        if group != next {
            continue;
        }
        for k in 0..3 {
            *uses.entry(edge(c[k], c[(k + 1) % 3])).or_default() += 1;
        }
    }
    let patches = convex_patches(tris, &corner_ids, &groups);
    tris.iter()
        .zip(&corner_ids)
        .zip(groups)
        .map(|((t, c), group)| {
            let free = [0, 1, 2].map(|k| uses.get(&edge(c[k], c[(k + 1) % 3])) == Some(&1));
            let mut tri = Tri::with_margin(*t, free, margin);
            tri.group = patches[group as usize];
            tri
        })
        .collect()
}

/// Vertices of a patch at most.
const PATCH_CORNERS: usize = 64;

/// Groups the faces (`groups[i]`: the face of triangle `i`, numbered in first-seen order) into
/// convex planar patches: a face joins its neighbour across an edge when they lie in one plane,
/// face the same way and the polygon stays convex. Returns each face's patch. The cube maps
/// close a pixel whose four corner rays meet one patch: the patch is convex, so every ray
/// between them meets it too.
fn convex_patches(tris: &[[Vec3; 3]], corner_ids: &[[u32; 3]], groups: &[u32]) -> Vec<u32> {
    use std::collections::HashMap;
    let faces = groups.iter().map(|&g| g as usize + 1).max().unwrap_or(0);
    // The first triangle of each face, and where each corner id is.
    let mut first = vec![usize::MAX; faces];
    let mut at: HashMap<u32, Vec3> = HashMap::new();
    for (i, &g) in groups.iter().enumerate() {
        if first[g as usize] == usize::MAX {
            first[g as usize] = i;
            for k in 0..3 {
                at.entry(corner_ids[i][k]).or_insert(tris[i][k]);
            }
        }
    }
    let normal = |f: usize| {
        let t = &tris[first[f]];
        (t[1] - t[0]).cross(t[2] - t[0]).normalize_or_zero()
    };
    let edge = |a: u32, b: u32| (a.min(b), a.max(b));
    let mut across: HashMap<(u32, u32), Vec<usize>> = HashMap::with_capacity(faces * 3 / 2);
    for (f, &i) in first.iter().enumerate() {
        let c = corner_ids[i];
        for k in 0..3 {
            across
                .entry(edge(c[k], c[(k + 1) % 3]))
                .or_default()
                .push(f);
        }
    }
    let mut patch = vec![u32::MAX; faces];
    for f in 0..faces {
        if patch[f] != u32::MAX {
            continue;
        }
        let id = f as u32;
        patch[f] = id;
        let n = normal(f);
        if n == Vec3::ZERO {
            continue;
        }
        let mut poly: Vec<u32> = corner_ids[first[f]].to_vec();
        let origin = at[&poly[0]];
        let turn = |a: u32, b: u32, c: u32| {
            let (a, b, c) = (at[&a], at[&b], at[&c]);
            (b - a).cross(c - b).dot(n)
        };
        let mut grown = true;
        while grown && poly.len() < PATCH_CORNERS {
            grown = false;
            for i in 0..poly.len() {
                let (u, v) = (poly[i], poly[(i + 1) % poly.len()]);
                let Some(list) = across.get(&edge(u, v)) else {
                    continue;
                };
                let Some((q, w)) = list.iter().find_map(|&q| {
                    if patch[q] != u32::MAX || normal(q).dot(n) < 0.9999 {
                        return None;
                    }
                    let w = *corner_ids[first[q]].iter().find(|&&x| x != u && x != v)?;
                    ((at[&w] - origin).dot(n).abs() < 1e-3).then_some((q, w))
                }) else {
                    continue;
                };
                let prev = poly[(i + poly.len() - 1) % poly.len()];
                let next = poly[(i + 2) % poly.len()];
                if turn(prev, u, w) >= -1e-6 && turn(u, w, v) >= -1e-6 && turn(w, v, next) >= -1e-6
                {
                    poly.insert(i + 1, w);
                    patch[q] = id;
                    grown = true;
                    break;
                }
            }
        }
    }
    patch
}

impl Prepared {
    /// Phase 2: builds the occluder hierarchy and raises each floor point to eye height (just
    /// under an occluder above it, where one is lower); each room's eye points join its
    /// targets.
    pub fn build(self) -> VisScene {
        let bvh = Bvh::build(self.occluders);
        let h = self.opts.eye_height.max(0.1);
        let mut rooms = self.rooms;
        let up = Vec3::Z;
        for r in &mut rooms {
            r.eyes = r
                .floor
                .iter()
                .map(|&p| {
                    let o = p + up * 0.05;
                    match bvh.first_hit(o, up, h - 0.05) {
                        Some(s) => o + up * (s - 0.05).max(0.0),
                        None => p + up * h,
                    }
                })
                .collect();
            let eyes = r.eyes.clone();
            r.targets
                .extend(eyes.into_iter().map(|at| Target { at, normal: None }));
        }
        VisScene {
            rooms,
            bvh,
            opts: self.opts,
        }
    }

    /// Occluder triangles.
    pub fn occluder_count(&self) -> usize {
        self.occluders.len()
    }
}

impl VisScene {
    /// Occluder triangles in the hierarchy.
    pub fn occluder_count(&self) -> usize {
        self.bvh.len()
    }

    /// Eye points over all rooms.
    pub fn eye_count(&self) -> usize {
        self.rooms.iter().map(|r| r.eyes.len()).sum()
    }

    /// Target points over all rooms (eye points included).
    pub fn target_count(&self) -> usize {
        self.rooms.iter().map(|r| r.targets.len()).sum()
    }

    /// The cube map of an eye: for each pixel of each face, the occluder that the pixel's whole
    /// cone meets (its four corner rays all first meet that triangle, or copies of it, which is
    /// convex: so does every ray between them), or none.
    fn cube_map(&self, e: Vec3, res: usize, rays: &mut u64) -> Vec<u32> {
        // (`rays` counts the corner rays cast.)
        let r1 = res + 1;
        let mut corners = vec![(u32::MAX, u32::MAX); r1 * r1];
        let mut out = vec![u32::MAX; 6 * res * res];
        for f in 0..6 {
            for j in 0..r1 {
                for i in 0..r1 {
                    let u = -1.0 + 2.0 * i as f32 / res as f32;
                    let v = -1.0 + 2.0 * j as f32 / res as f32;
                    *rays += 1;
                    corners[j * r1 + i] = self
                        .bvh
                        .first_hit_triangle(e, face_dir(f, u, v), f32::MAX)
                        .map_or((u32::MAX, u32::MAX), |h| (self.bvh.group(h.1), h.1));
                }
            }
            for j in 0..res {
                for i in 0..res {
                    // The same face, whichever copy of it each corner ray met.
                    let (g, c) = corners[j * r1 + i];
                    if g != u32::MAX
                        && corners[j * r1 + i + 1].0 == g
                        && corners[(j + 1) * r1 + i].0 == g
                        && corners[(j + 1) * r1 + i + 1].0 == g
                    {
                        out[(f * res + j) * res + i] = c;
                    }
                }
            }
        }
        out
    }

    /// Phase 3: for every pair of rooms (placeholders left out), a sight line or none.
    ///
    /// Rooms are taken in turn (on all cores): from each eye point of a room, every target of
    /// each room it has not been found to see yet (by either side) is tested, until one is
    /// seen. An eye with many targets to test first makes its cube map ([`VisOptions::cube`]):
    /// a target whose pixel's cone meets one occluder and that lies beyond that occluder's
    /// plane is hidden without a ray; every other target gets its segment tested.
    pub fn sight_lines(&self) -> SightLines {
        self.sight_lines_for(&|_, _| true)
    }

    /// [`VisScene::sight_lines`] for the pairs `wanted` names only (either order).
    pub fn sight_lines_for(&self, wanted: &(dyn Fn(usize, usize) -> bool + Sync)) -> SightLines {
        let n = self.rooms.len();
        let live = |i: usize| !self.rooms[i].placeholder;
        let pair = |a: usize, b: usize| {
            let (a, b) = (a.min(b), a.max(b));
            a * n + b
        };
        let seen: Vec<std::sync::atomic::AtomicBool> =
            (0..n * n).map(|_| Default::default()).collect();
        let order: Vec<usize> = (0..n)
            .filter(|&i| live(i) && !self.rooms[i].eyes.is_empty())
            .collect();
        let threads = match self.opts.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        }
        .clamp(1, 64)
        .min(order.len().max(1));
        let res = self.opts.cube.min(256);
        let cube_cost = 6 * (res + 1) * (res + 1);
        let next = AtomicUsize::new(0);
        let work = || {
            let mut found = Vec::new();
            let mut rays = 0u64;
            let mut cube_rays = 0u64;
            loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&a) = order.get(k) else { break };
                let ra = &self.rooms[a];
                for &e in &ra.eyes {
                    let pending: Vec<usize> = (0..n)
                        .filter(|&b| {
                            b != a
                                && live(b)
                                && !self.rooms[b].targets.is_empty()
                                && wanted(a.min(b), a.max(b))
                                && !seen[pair(a, b)].load(Ordering::Relaxed)
                        })
                        .collect();
                    if pending.is_empty() {
                        break;
                    }
                    let work: usize = pending.iter().map(|&b| self.rooms[b].targets.len()).sum();
                    let cube = (res > 0 && !self.bvh.is_empty() && work > 2 * cube_cost)
                        .then(|| self.cube_map(e, res, &mut cube_rays));
                    for b in pending {
                        if seen[pair(a, b)].load(Ordering::Relaxed) {
                            continue;
                        }
                        for t in &self.rooms[b].targets {
                            if let Some(nm) = t.normal
                                && (e - t.at).dot(nm) <= 0.0
                            {
                                continue;
                            }
                            if let Some(cube) = &cube {
                                let tri = cube[pixel(t.at - e, res)];
                                if tri != u32::MAX && self.bvh.separates(tri, e, t.at) {
                                    continue;
                                }
                            }
                            rays += 1;
                            if !self.bvh.blocked(e, t.at) {
                                seen[pair(a, b)].store(true, Ordering::Relaxed);
                                found.push((
                                    (a.min(b), a.max(b)),
                                    Witness {
                                        from: a,
                                        eye: e.to_array(),
                                        target: t.at.to_array(),
                                    },
                                ));
                                break;
                            }
                        }
                    }
                }
            }
            (found, rays, cube_rays)
        };
        type Part = (Vec<((usize, usize), Witness)>, u64, u64);
        let parts: Vec<Part> = if threads == 1 {
            vec![work()]
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_default())
                    .collect()
            })
        };
        let mut out = SightLines {
            rooms: n,
            ..SightLines::default()
        };
        for (found, rays, cube_rays) in parts {
            out.seen.extend(found);
            out.rays += rays;
            out.cube_rays += cube_rays;
        }
        // Both sides may have found the pair at the same time: keep the first line of each
        // (by the eye's room, then its coordinates, so the choice does not depend on timing).
        out.seen.sort_by(|x, y| {
            x.0.cmp(&y.0).then(x.1.from.cmp(&y.1.from)).then(
                x.1.eye
                    .partial_cmp(&y.1.eye)
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
        });
        out.seen.dedup_by(|x, y| x.0 == y.0);
        out
    }
}

/// The direction through point (u, v) ∈ [-1, 1]² of cube face `f` (+x, -x, +y, -y, +z, -z).
#[inline]
fn face_dir(f: usize, u: f32, v: f32) -> Vec3 {
    match f {
        0 => Vec3::new(1.0, u, v),
        1 => Vec3::new(-1.0, u, v),
        2 => Vec3::new(u, 1.0, v),
        3 => Vec3::new(u, -1.0, v),
        4 => Vec3::new(u, v, 1.0),
        _ => Vec3::new(u, v, -1.0),
    }
}

/// The cube-map pixel (of [`face_dir`]'s faces, `res` × `res` each) whose cone holds direction
/// `d` (a direction on a pixel's border belongs to either pixel; both cones hold it).
#[inline]
fn pixel(d: Vec3, res: usize) -> usize {
    let a = d.abs();
    let (f, m, u, v) = if a.x >= a.y && a.x >= a.z {
        (if d.x >= 0.0 { 0 } else { 1 }, a.x, d.y, d.z)
    } else if a.y >= a.z {
        (if d.y >= 0.0 { 2 } else { 3 }, a.y, d.x, d.z)
    } else {
        (if d.z >= 0.0 { 4 } else { 5 }, a.z, d.x, d.y)
    };
    let cell = |x: f32| {
        let k = ((x / m.max(f32::MIN_POSITIVE) + 1.0) * 0.5 * res as f32) as usize;
        k.min(res - 1)
    };
    (f * res + cell(v)) * res + cell(u)
}

/// Unordered pairs of distinct, known rooms from `links` (sorted, without repeats).
fn link_pairs(links: &[(usize, usize)], n: usize) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = links
        .iter()
        .filter(|&&(a, b)| a != b && a < n && b < n)
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Pairs of rooms at most `depth` links apart in the room graph.
fn graph_pairs(links: &[(usize, usize)], n: usize, depth: usize) -> Vec<(usize, usize)> {
    let mut adj = vec![Vec::new(); n];
    for (a, b) in link_pairs(links, n) {
        adj[a].push(b);
        adj[b].push(a);
    }
    let mut out = Vec::new();
    let mut dist = vec![usize::MAX; n];
    for s in 0..n {
        dist.fill(usize::MAX);
        dist[s] = 0;
        let mut queue = std::collections::VecDeque::from([s]);
        while let Some(r) = queue.pop_front() {
            if dist[r] >= depth {
                continue;
            }
            for &x in &adj[r] {
                if dist[x] == usize::MAX {
                    dist[x] = dist[r] + 1;
                    queue.push_back(x);
                }
            }
        }
        out.extend(
            (s + 1..n)
                .filter(|&x| dist[x] != usize::MAX)
                .map(|x| (s, x)),
        );
    }
    out
}

/// The VIS listing both directions of each pair: one entry per room in room order (placeholders
/// left out), its visible rooms in room order.
fn vis_of(rooms: &[VisRoom<'_>], pairs: &[(usize, usize)]) -> Vis {
    let mut sees = vec![Vec::new(); rooms.len()];
    for &(a, b) in pairs {
        sees[a].push(b);
        sees[b].push(a);
    }
    let mut vis = Vis::default();
    for (i, r) in rooms.iter().enumerate() {
        if r.name == areakit_formats::lyt::PLACEHOLDER_ROOM {
            continue;
        }
        let mut list = std::mem::take(&mut sees[i]);
        list.sort_unstable();
        list.dedup();
        let entry = vis.add_room(&r.name);
        entry.visible = list.into_iter().map(|j| rooms[j].name.clone()).collect();
    }
    vis
}

/// Whether any room has a model (else nothing bounds what a room sees).
fn any_model(rooms: &[VisRoom<'_>]) -> bool {
    rooms.iter().any(|r| r.model.is_some())
}

/// The sight lines between the rooms (the three phases in a row).
pub fn sight_lines(rooms: &[VisRoom<'_>], opts: &VisOptions) -> (VisScene, SightLines) {
    let scene = prepare(rooms, opts).build();
    let lines = scene.sight_lines();
    (scene, lines)
}

/// The pairs `(a, b)`, `a < b`, of live rooms that may see each other: with a room model,
/// those a line may join through the rooms' openings ([`portals::portal_vis`]) and those whose
/// walkmeshes are linked; without any, every pair (or with [`VisOptions::fallback_depth`], the
/// room graph). Also what the portal method found, when it ran.
pub fn conservative_pairs(
    rooms: &[VisRoom<'_>],
    links: &[(usize, usize)],
    opts: &VisOptions,
) -> (Vec<(usize, usize)>, Option<portals::PortalVis>) {
    let n = rooms.len();
    let live = |i: usize| rooms[i].name != areakit_formats::lyt::PLACEHOLDER_ROOM;
    let mut pairs: Vec<(usize, usize)> = link_pairs(links, n)
        .into_iter()
        .filter(|&(a, b)| live(a) && live(b))
        .collect();
    let found = if any_model(rooms) {
        let p = portals::portal_vis(rooms, opts);
        pairs.extend(p.pairs.iter().copied());
        Some(p)
    } else {
        match opts.fallback_depth {
            Some(depth) => pairs.extend(graph_pairs(links, n, depth)),
            None => {
                for a in 0..n {
                    pairs.extend((a + 1..n).map(|b| (a, b)));
                }
            }
        }
        None
    };
    pairs.retain(|&(a, b)| live(a) && live(b));
    pairs.sort_unstable();
    pairs.dedup();
    (pairs, found)
}

/// Generates the area's VIS: rooms see each other when a line may join them through their
/// openings ([`portals`]: the shells' openings, the cells and portals they make, the flow of
/// lines through them) or their walkmeshes are linked (`links`: pairs of room indices, either
/// order). No sample spacing enters it. Without any room model, every room sees every other
/// (or, with [`VisOptions::fallback_depth`], the rooms that many links apart). With
/// [`VisOptions::confirm`], sampled sight lines are looked for too, as a check: the pairs none
/// joins are counted, and a pair one joins that the portals did not give is named in a warning
/// (a shell with an opening its probes missed) but not added: the VIS never depends on the
/// spacing.
pub fn generate_vis(
    rooms: &[VisRoom<'_>],
    links: &[(usize, usize)],
    opts: &VisOptions,
) -> VisResult {
    let live = |i: usize| rooms[i].name != areakit_formats::lyt::PLACEHOLDER_ROOM;
    let linked: Vec<(usize, usize)> = link_pairs(links, rooms.len())
        .into_iter()
        .filter(|&(a, b)| live(a) && live(b))
        .collect();
    let too_many = rooms.len() > MAX_ROOMS;
    let (pairs, found) = if too_many {
        (Vec::new(), None)
    } else {
        conservative_pairs(rooms, links, opts)
    };
    let mut result = VisResult {
        vis: Vis::default(),
        method: String::new(),
        rooms: (0..rooms.len()).filter(|&i| live(i)).count(),
        rooms_with_models: rooms.iter().filter(|r| r.model.is_some()).count(),
        pairs: 0,
        pairs_without_sampled_line: None,
        linked_pairs: linked.len(),
        eye_points: 0,
        target_points: 0,
        occluder_triangles: 0,
        rays: 0,
        cube_rays: 0,
        eye_height: opts.eye_height,
        shell_loops: 0,
        openings: 0,
        doorways: 0,
        probes: 0,
        portal_steps: 0,
        pairs_from_sampling: 0,
        warnings: Vec::new(),
    };
    if too_many {
        result.method = "none (too many rooms)".to_string();
        result.warnings.push(format!(
            "{} rooms: more than {MAX_ROOMS}, so no VIS was made",
            rooms.len()
        ));
        return result;
    }
    let Some(p) = found else {
        result.method = match opts.fallback_depth {
            Some(depth) => {
                result.warnings.push(format!(
                    "no room models: visibility is taken from the walkmesh room graph (rooms at \
                     most {depth} link(s) apart see each other), not from geometry: rooms \
                     farther apart that do see each other will pop in"
                ));
                format!("walkmesh room graph (depth {depth})")
            }
            None => {
                result.warnings.push(
                    "no room models: nothing bounds what a room sees, so every room sees every \
                     other (give the rooms' models, or --depth for the walkmesh room graph)"
                        .to_string(),
                );
                "every pair".to_string()
            }
        };
        result.pairs = pairs.len();
        result.vis = vis_of(rooms, &pairs);
        return result;
    };
    let names =
        |list: &[usize]| -> Vec<&str> { list.iter().map(|&i| rooms[i].name.as_str()).collect() };
    if !p.outside.is_empty() {
        result.warnings.push(format!(
            "{} room(s) without a model or anything opaque ({}): they have no walls, so they \
             see and are seen through every opening of the other rooms",
            p.outside.len(),
            list_names(&names(&p.outside))
        ));
    }
    if !p.over_budget.is_empty() {
        result.warnings.push(format!(
            "{} room(s) ({}) open onto more portal sequences than are followed ({}): they are \
             taken to see every room the portals connect",
            p.over_budget.len(),
            list_names(&names(&p.over_budget)),
            portals_budget()
        ));
    }
    result.method = "portals".to_string();
    result.shell_loops = p.loops;
    result.openings = p.openings;
    result.doorways = p.doorways;
    result.probes = p.probes;
    result.portal_steps = p.steps;
    if opts.confirm {
        result.method.push_str(" and sampled sight lines");
        let (scene, lines) = sight_lines(rooms, opts);
        result.eye_points = scene.eye_count();
        result.target_points = scene.target_count();
        result.occluder_triangles = scene.occluder_count();
        result.rays = lines.rays;
        result.cube_rays = lines.cube_rays;
        let missed: Vec<&((usize, usize), Witness)> = lines
            .seen
            .iter()
            .filter(|(k, _)| pairs.binary_search(k).is_err())
            .collect();
        for ((a, b), w) in &missed {
            result.warnings.push(format!(
                "a sampled sight line joins `{}` and `{}` (from {} to {}) where no opening was \
                 found: the shell has an opening its probes missed (the VIS is left as the \
                 portals give it, the same at any spacing; add the pair by hand if it is real)",
                rooms[*a].name,
                rooms[*b].name,
                fmt_point(w.eye),
                fmt_point(w.target)
            ));
        }
        result.pairs_from_sampling = missed.len();
        result.pairs_without_sampled_line = Some(
            pairs
                .iter()
                .filter(|&&(a, b)| lines.between(a, b).is_none())
                .count(),
        );
    }
    result.pairs = pairs.len();
    result.vis = vis_of(rooms, &pairs);
    result
}

fn portals_budget() -> usize {
    flow::FLOW_BUDGET
}

/// The first few names, then a count.
fn list_names(names: &[&str]) -> String {
    let mut s = names.iter().take(8).copied().collect::<Vec<_>>().join(", ");
    if names.len() > 8 {
        s.push_str(&format!(", and {} more", names.len() - 8));
    }
    s
}

/// Findings per code at most (then one more finding with the count of the rest).
pub const FINDINGS_PER_CODE: usize = 100;

fn fmt_point(p: [f32; 3]) -> String {
    format!("({:.2}, {:.2}, {:.2})", p[0], p[1], p[2])
}

/// Checks `vis` against the rooms' geometry (only when some room has a model: otherwise
/// nothing is measured and nothing is reported):
/// - `vis-missing-pair` (warning): a sampled sight line joins two rooms (looked for only
///   between rooms a line may join through their openings) but the VIS does not list one
///   under the other (in one direction or both): the unlisted room pops in;
/// - `vis-excess-pair` (info): the VIS lists a room under another that no line can reach
///   through the openings ([`conservative_pairs`]) and whose walkmesh is not linked to it: it
///   is drawn for nothing.
///
/// `known`: the conservative pairs when the caller has them (a module just built), else they
/// are computed. Findings name the room (`place.room`) and, for a missing pair, the eye point
/// of the sight line (`place.position`); the caller names the file.
pub fn vis_findings(
    rooms: &[VisRoom<'_>],
    links: &[(usize, usize)],
    vis: &Vis,
    opts: &VisOptions,
    known: Option<&[(usize, usize)]>,
) -> Vec<Finding> {
    if !any_model(rooms) || rooms.len() > MAX_ROOMS {
        return Vec::new();
    }
    let computed;
    let pairs: &[(usize, usize)] = match known {
        Some(k) => k,
        None => {
            computed = conservative_pairs(rooms, links, opts).0;
            &computed
        }
    };
    let n = rooms.len();
    let skip = |a: usize, b: usize| {
        let (na, nb) = (&rooms[a].name, &rooms[b].name);
        na == areakit_formats::lyt::PLACEHOLDER_ROOM
            || nb == areakit_formats::lyt::PLACEHOLDER_ROOM
            || na.eq_ignore_ascii_case(nb)
    };
    let listed = |a: usize, b: usize| {
        (
            vis.is_visible(&rooms[a].name, &rooms[b].name),
            vis.is_visible(&rooms[b].name, &rooms[a].name),
        )
    };
    // Sight lines are looked for only where they could pop in: pairs a line may join that
    // the VIS does not list both ways.
    let candidates: Vec<(usize, usize)> = pairs
        .iter()
        .copied()
        .filter(|&(a, b)| !skip(a, b) && listed(a, b) != (true, true))
        .collect();
    let lines = if candidates.is_empty() {
        SightLines::default()
    } else {
        let scene = prepare(rooms, opts).build();
        scene.sight_lines_for(&|a, b| candidates.binary_search(&(a, b)).is_ok())
    };
    let linked = link_pairs(links, n);
    let mut missing = Vec::new();
    let mut excess = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if skip(a, b) {
                continue;
            }
            let (na, nb) = (&rooms[a].name, &rooms[b].name);
            let (ab, ba) = listed(a, b);
            if let Some(w) = lines.between(a, b)
                && !(ab && ba)
            {
                let (from, to) = if w.from == a { (na, nb) } else { (nb, na) };
                let lacks = match (ab, ba) {
                    (false, false) => {
                        format!("lists neither `{nb}` under `{na}` nor `{na}` under `{nb}`")
                    }
                    (false, true) => format!("does not list `{nb}` under `{na}`"),
                    _ => format!("does not list `{na}` under `{nb}`"),
                };
                missing.push(Finding::warning(
                    "vis-missing-pair",
                    Place::default().room(from.clone()).position(w.eye),
                    format!(
                        "`{from}` sees `{to}` (a sight line from {} to {}), but the VIS \
                         {lacks}: the room pops in",
                        fmt_point(w.eye),
                        fmt_point(w.target)
                    ),
                ));
            } else if (ab || ba)
                && pairs.binary_search(&(a, b)).is_err()
                && linked.binary_search(&(a, b)).is_err()
            {
                let shown = match (ab, ba) {
                    (true, true) => format!("`{nb}` under `{na}` and `{na}` under `{nb}`"),
                    (true, false) => format!("`{nb}` under `{na}`"),
                    _ => format!("`{na}` under `{nb}`"),
                };
                let room = if ab { na } else { nb };
                excess.push(Finding::info(
                    "vis-excess-pair",
                    Place::default().room(room.clone()),
                    format!(
                        "the VIS lists {shown}, but no line can pass from one room to the other \
                         through their openings and their walkmeshes are not linked: drawing \
                         it costs and shows nothing"
                    ),
                ));
            }
        }
    }
    let mut out = Vec::new();
    for (code, list, info) in [
        ("vis-missing-pair", missing, false),
        ("vis-excess-pair", excess, true),
    ] {
        let rest = list.len().saturating_sub(FINDINGS_PER_CODE);
        out.extend(list.into_iter().take(FINDINGS_PER_CODE));
        if rest > 0 {
            let msg = format!("{rest} more `{code}` findings not listed");
            out.push(if info {
                Finding::info(code, Place::default(), msg)
            } else {
                Finding::warning(code, Place::default(), msg)
            });
        }
    }
    out
}

/// A model of one rendered trimesh node holding `triangles` (model space), named `name`, that
/// writes and reads back (positions and normals in its MDX rows): rooms for tests, benches and
/// examples. Triangles beyond 21 845 per node go into further nodes (vertex indices are 16-bit).
pub fn trimesh_model(name: &str, triangles: &[[[f32; 3]; 3]]) -> Model {
    use mdl::{Face, Game, Mesh, Node, VertexData, flags, mdx_flags};
    let mut m = Model::new(Game::K1, name);
    m.nodes[0].orientation = [1.0, 0.0, 0.0, 0.0];
    for chunk in triangles.chunks(21_845) {
        let mut positions = Vec::with_capacity(chunk.len() * 3);
        let mut faces = Vec::with_capacity(chunk.len());
        let mut normals = Vec::with_capacity(chunk.len() * 3);
        for t in chunk {
            let [a, b, c] = t.map(Vec3::from);
            let n = (b - a).cross(c - a).normalize_or_zero();
            let base = positions.len() as u16;
            positions.extend_from_slice(t);
            normals.extend([n.to_array(); 3]);
            faces.push(Face {
                normal: n.to_array(),
                distance: -n.dot(a),
                material: 0,
                adjacent: [0xFFFF; 3],
                vertices: [base, base + 1, base + 2],
            });
        }
        let mut offsets = [-1; 11];
        offsets[0] = 0;
        offsets[1] = 12;
        let indices: Vec<u16> = faces.iter().flat_map(|f| f.vertices).collect();
        let node_flags = flags::HEADER | flags::MESH;
        let mesh = Mesh {
            function_pointers: Game::K1.mesh_function_pointers(node_flags),
            faces,
            index_lists: vec![indices],
            inverted_counters: vec![1],
            unknown: [-1, -1, 0],
            mdx_stride: 24,
            mdx_flags: mdx_flags::POSITION | mdx_flags::NORMAL,
            mdx_offsets: offsets,
            render: 1,
            vertices: VertexData {
                positions: positions.clone(),
                normals,
                ..VertexData::default()
            },
            positions,
            ..Mesh::default()
        };
        let index = m.nodes.len() as u16;
        m.names.push(format!("{name}_mesh{index}").into_bytes());
        m.nodes.push(Node {
            flags: node_flags,
            node_number: index,
            name_index: index,
            orientation: [1.0, 0.0, 0.0, 0.0],
            mesh: Some(mesh),
            ..Node::default()
        });
        m.nodes[0].children.push(u32::from(index));
    }
    m.geometry.node_count = m.nodes.len() as u32;
    m
}
