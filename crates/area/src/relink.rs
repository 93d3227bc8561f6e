//! Room links from geometry: every walkable boundary edge of one room that coincides with a
//! walkable boundary edge of another links to that room's LYT index (`areakit relink`).
//!
//! A KotOR room walkmesh lists the boundary edges of its walkable surface
//! ([`Bwm::edges`], `face * 3 + side`); an edge's transition is the LYT index of the room a
//! creature walks into across it, `-1` for none. The walkmeshes are in area space (the LYT
//! position of a room is not added), so the edges of two rooms that meet lie on each other.
//!
//! Two boundary edges of different rooms **coincide** when, with `tol` the tolerance
//! ([`RelinkOptions::tolerance`]) and the longer of the two taken as the reference line:
//!
//! 1. their directions are within [`MAX_ANGLE_DEGREES`] of parallel (either sense);
//! 2. their projections on the reference overlap by more than `tol` (a T-junction — a short
//!    edge on part of a long one — is an overlap like any other);
//! 3. along that overlap the other edge stays within `tol` of the reference (in 3-D: both
//!    ends of the overlapping part are checked; the distance is linear between them);
//! 4. their faces lie on opposite sides of the edge (the third corners of the two faces,
//!    taken perpendicular to the edge, point away from each other): two floors that overlap
//!    on the same side do not lead into each other.
//!
//! Each edge then leads into the room whose coinciding edges overlap it the most (ties: the
//! lower room index); an edge that coincides with nothing has no transition, except a link
//! into a room whose walkmesh is not there (not loaded: nothing to check it against), which is
//! kept. A link into a room index past the layout, into a `****` placeholder or into the room
//! itself is cleared. The rule is symmetric (each pair is judged once, for both edges), so every
//! link set has its link back; only an edge that meets two rooms at once (a long edge of one
//! room along two others) can be left one-way, and it is reported ([`Relinked::shared`]).
//!
//! The edges are compared through a sweep over their boxes sorted along the area's longer
//! horizontal axis, and only edges whose box meets another room's box are swept: no pair of
//! far-apart edges is ever tested.
//!
//! ```
//! use areakit_area::relink::{relink, RelinkOptions};
//! use areakit_formats::bwm::Bwm;
//! let mut rooms: Vec<Option<&mut Bwm>> = Vec::new();
//! assert!(relink(&mut rooms, &RelinkOptions::default()).is_empty());
//! ```

use areakit_formats::bwm::Bwm;

/// Two edges more than this far from parallel never coincide, whatever the tolerance.
pub const MAX_ANGLE_DEGREES: f32 = 10.0;

/// Edges shorter than this (metres) are points: they coincide with nothing.
const MIN_EDGE_LENGTH: f32 = 1e-4;

/// Settings of [`relink`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RelinkOptions {
    /// How far apart (metres, in 3-D) two boundary edges may be and still coincide; they must
    /// also overlap by more than this. Default 0.1: the doorway edges of two Holocron kit
    /// rooms whose door hooks meet are up to about 5 cm apart, real game rooms' edges are
    /// the same vertices.
    pub tolerance: f32,
}

impl Default for RelinkOptions {
    fn default() -> Self {
        RelinkOptions {
            tolerance: crate::area::LINK_TOLERANCE,
        }
    }
}

/// One transition changed by [`relink`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LinkChange {
    /// The room's LYT index.
    pub room: usize,
    /// The room's LYT name (empty from [`relink`], which knows no names).
    pub room_name: String,
    /// The face of the edge.
    pub face: u32,
    /// Which edge of the face (0..3).
    pub side: u32,
    /// The transition before (`None`: no link).
    pub from: Option<u32>,
    /// The transition after.
    pub to: Option<u32>,
}

/// A boundary edge that coincides with edges of several other rooms: it can lead into one of
/// them only (the one it overlaps the most), so the links of the others along it stay one-way.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SharedEdge {
    /// The room's LYT index.
    pub room: usize,
    /// The room's LYT name (empty from [`relink`]).
    pub room_name: String,
    /// The face of the edge.
    pub face: u32,
    /// Which edge of the face.
    pub side: u32,
    /// The rooms it meets, with the length (metres) of edge it shares with each, longest
    /// first; the first is the one it now leads into.
    pub rooms: Vec<(u32, f32)>,
}

/// What [`relink_detailed`] did.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Relinked {
    /// The transitions changed, in room, face, side order.
    pub changes: Vec<LinkChange>,
    /// Edges that meet several rooms (see [`SharedEdge`]), in room, face, side order.
    pub shared: Vec<SharedEdge>,
    /// Links kept without a check because the room they lead into has no walkmesh here.
    pub unverified: usize,
    /// Boundary edges with a transition after the run.
    pub links: usize,
    /// Pairs of edges from different rooms whose boxes met and were tested.
    pub pairs_tested: usize,
}

/// What is known of a room besides its walkmesh.
#[derive(Debug, Clone, Copy, Default)]
struct RoomInfo<'a> {
    /// The LYT name, if known.
    name: &'a str,
    /// A `****` placeholder: no room there, a link into it is wrong.
    placeholder: bool,
}

/// Sets the transitions of `rooms` (area-space walkmeshes indexed by LYT room index; `None` =
/// no WOK) from geometry; returns what changed, in room, face, side order.
///
/// A `None` room is a room of the layout whose walkmesh is not at hand: links into it are
/// kept (see the module documentation). Every other byte of each walkmesh is left as it was.
pub fn relink(rooms: &mut [Option<&mut Bwm>], opts: &RelinkOptions) -> Vec<LinkChange> {
    let info = vec![RoomInfo::default(); rooms.len()];
    relink_rooms(rooms, &info, opts).changes
}

/// [`relink`] on an area: its rooms' walkmeshes, with their names in the changes, and links
/// into `****` placeholder rooms cleared.
pub fn relink_area(area: &mut crate::area::Area, opts: &RelinkOptions) -> Vec<LinkChange> {
    relink_detailed(area, opts).changes
}

/// [`relink_area`], with the edges shared by several rooms and counts.
pub fn relink_detailed(area: &mut crate::area::Area, opts: &RelinkOptions) -> Relinked {
    let names: Vec<(String, bool)> = area
        .rooms
        .iter()
        .map(|r| (r.name.clone(), r.is_placeholder()))
        .collect();
    let info: Vec<RoomInfo<'_>> = names
        .iter()
        .map(|(name, placeholder)| RoomInfo {
            name,
            placeholder: *placeholder,
        })
        .collect();
    let mut woks: Vec<Option<&mut Bwm>> = area.rooms.iter_mut().map(|r| r.wok.as_mut()).collect();
    relink_rooms(&mut woks, &info, opts)
}

/// A boundary edge in the sweep.
#[derive(Debug, Clone, Copy)]
struct Seg {
    /// The room's index.
    room: u32,
    /// Index in the room's edge table.
    entry: u32,
    /// End points.
    a: [f32; 3],
    b: [f32; 3],
    /// The third corner of the edge's face.
    c: [f32; 3],
    /// The box, widened by the tolerance.
    lo: [f32; 3],
    hi: [f32; 3],
}

/// The segment of edge `edge` (`face * 3 + side`) and the third corner of its face.
fn edge_points(bwm: &Bwm, edge: u32) -> Option<[[f32; 3]; 3]> {
    let p = bwm.face_positions((edge / 3) as usize)?;
    let s = (edge % 3) as usize;
    Some([p[s], p[(s + 1) % 3], p[(s + 2) % 3]])
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn scale(a: [f32; 3], k: f32) -> [f32; 3] {
    [a[0] * k, a[1] * k, a[2] * k]
}

fn length(a: [f32; 3]) -> f32 {
    dot(a, a).sqrt()
}

fn finite(p: [f32; 3]) -> bool {
    p.iter().all(|c| c.is_finite())
}

/// The part of `v` perpendicular to the unit vector `u`.
fn perpendicular(v: [f32; 3], u: [f32; 3]) -> [f32; 3] {
    sub(v, scale(u, dot(v, u)))
}

/// How long (metres) two boundary edges coincide (see the module documentation), or `None`
/// when they do not. Each is `[a, b, c]`: the edge from `a` to `b` and the third corner `c`
/// of its face. The answer does not depend on the order of the two.
pub fn coincide(e: [[f32; 3]; 3], f: [[f32; 3]; 3], tol: f32) -> Option<f32> {
    let (le, lf) = (length(sub(e[1], e[0])), length(sub(f[1], f[0])));
    if !(le >= MIN_EDGE_LENGTH && lf >= MIN_EDGE_LENGTH) {
        return None;
    }
    // The longer one is the reference line (ties: a fixed order of the points, so that the
    // result is the same both ways).
    let (r, o, len) = if le > lf || (le == lf && key(e) <= key(f)) {
        (e, f, le)
    } else {
        (f, e, lf)
    };
    let u = scale(sub(r[1], r[0]), 1.0 / len);
    let d = sub(o[1], o[0]);
    let lo_len = length(d);
    if dot(u, d).abs() < lo_len * MAX_ANGLE_DEGREES.to_radians().cos() {
        return None;
    }
    let ta = dot(sub(o[0], r[0]), u);
    let tb = dot(sub(o[1], r[0]), u);
    let (lo, hi) = (ta.min(tb).max(0.0), ta.max(tb).min(len));
    let overlap = hi - lo;
    if overlap.is_nan() || overlap <= tol {
        return None;
    }
    // The other edge's points over the overlap, at its two ends.
    let at = |t: f32| {
        let k = (t - ta) / (tb - ta);
        [o[0][0] + d[0] * k, o[0][1] + d[1] * k, o[0][2] + d[2] * k]
    };
    for t in [lo, hi] {
        let off = perpendicular(sub(at(t), r[0]), u);
        let d2 = dot(off, off);
        if d2.is_nan() || d2 > tol * tol {
            return None;
        }
    }
    // Faces on opposite sides of the edge.
    let side_r = perpendicular(sub(r[2], r[0]), u);
    let side_o = perpendicular(sub(o[2], r[0]), u);
    let facing = dot(side_r, side_o);
    if facing.is_nan() || facing >= 0.0 {
        return None;
    }
    Some(overlap)
}

/// An order of edges independent of which one is asked about first.
fn key(e: [[f32; 3]; 3]) -> [u32; 6] {
    let (a, b) = (e[0].map(f32::to_bits), e[1].map(f32::to_bits));
    [a[0], a[1], a[2], b[0], b[1], b[2]]
}

/// The sweep and the decisions, shared by [`relink`] and [`relink_detailed`].
fn relink_rooms(
    rooms: &mut [Option<&mut Bwm>],
    info: &[RoomInfo<'_>],
    opts: &RelinkOptions,
) -> Relinked {
    let tol = if opts.tolerance.is_finite() {
        opts.tolerance.max(0.0)
    } else {
        0.0
    };
    let n = rooms.len();

    let (segs, boxes) = placed_edges(rooms, tol);
    let (mut met, pairs_tested) = meetings(&segs, &boxes, tol);

    // Decide, room by room.
    let mut by_entry: Vec<Vec<(u32, usize)>> = vec![Vec::new(); n];
    for (idx, s) in segs.iter().enumerate() {
        by_entry[s.room as usize].push((s.entry, idx));
    }
    let mut out = Relinked {
        pairs_tested,
        ..Relinked::default()
    };
    let name = |r: usize| info.get(r).map(|i| i.name.to_string()).unwrap_or_default();
    let known_elsewhere = |t: u32, own: usize| {
        let t = t as usize;
        t != own && t < n && !info.get(t).is_some_and(|i| i.placeholder)
    };
    let absent: Vec<bool> = rooms.iter().map(Option::is_none).collect();
    for room in 0..n {
        let mut placed = std::mem::take(&mut by_entry[room]).into_iter().peekable();
        let mut changes = Vec::new();
        let Some(wok) = rooms[room].as_deref_mut() else {
            continue;
        };
        for (entry, e) in wok.edges.iter_mut().enumerate() {
            let old = e.transition();
            let seg = match placed.peek() {
                Some(&(en, idx)) if en as usize == entry => {
                    placed.next();
                    Some(idx)
                }
                _ => None,
            };
            let new = match seg {
                // An edge without a place (its face or vertices are missing): only a link
                // that cannot be right goes.
                None => old.filter(|&t| known_elsewhere(t, room)),
                Some(idx) => {
                    let mut cands = std::mem::take(&mut met[idx]);
                    cands.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
                    if cands.len() > 1 {
                        out.shared.push(SharedEdge {
                            room,
                            room_name: name(room),
                            face: e.face(),
                            side: e.side(),
                            rooms: cands.clone(),
                        });
                    }
                    match cands.first() {
                        Some(&(to, _)) => Some(to),
                        // No edge of a room at hand meets it: a link stays only into a room
                        // of the layout whose walkmesh is not here.
                        None => old.filter(|&t| {
                            let keep = known_elsewhere(t, room) && absent[t as usize];
                            if keep {
                                out.unverified += 1;
                            }
                            keep
                        }),
                    }
                }
            };
            if new.is_some() {
                out.links += 1;
            }
            if new != old {
                e.transition = new.map_or(-1, |t| i32::try_from(t).unwrap_or(-1));
                changes.push(LinkChange {
                    room,
                    room_name: name(room),
                    face: e.face(),
                    side: e.side(),
                    from: old,
                    to: new,
                });
            }
        }
        changes.sort_by_key(|c| (c.face, c.side));
        out.changes.extend(changes);
    }
    out.shared.sort_by_key(|s| (s.room, s.face, s.side));
    out
}

/// A room's bounding box, widened by the tolerance.
type RoomBox = Option<([f32; 3], [f32; 3])>;

/// Every boundary edge that has a place (its face and vertices exist and are finite), and each
/// room's box.
fn placed_edges(rooms: &[Option<&mut Bwm>], tol: f32) -> (Vec<Seg>, Vec<RoomBox>) {
    let n = rooms.len();
    let mut segs: Vec<Seg> = Vec::new();
    let mut boxes: Vec<RoomBox> = vec![None; n];
    for (room, wok) in rooms.iter().enumerate() {
        let Some(wok) = wok else { continue };
        for (entry, e) in wok.edges.iter().enumerate() {
            let Some([a, b, c]) = edge_points(wok, e.edge) else {
                continue;
            };
            if !(finite(a) && finite(b) && finite(c)) {
                continue;
            }
            let mut lo = [0.0; 3];
            let mut hi = [0.0; 3];
            for k in 0..3 {
                lo[k] = a[k].min(b[k]) - tol;
                hi[k] = a[k].max(b[k]) + tol;
            }
            let bx = boxes[room].get_or_insert((lo, hi));
            for k in 0..3 {
                bx.0[k] = bx.0[k].min(lo[k]);
                bx.1[k] = bx.1[k].max(hi[k]);
            }
            segs.push(Seg {
                room: room as u32,
                entry: entry as u32,
                a,
                b,
                c,
                lo,
                hi,
            });
        }
    }
    (segs, boxes)
}

/// How much of each placed edge coincides with edges of other rooms (per room, in metres),
/// swept along the longer horizontal axis; and how many pairs were compared.
fn meetings(segs: &[Seg], boxes: &[RoomBox], tol: f32) -> (Vec<Vec<(u32, f32)>>, usize) {
    let n = boxes.len();
    // Only edges that reach into another room's box can meet another room's edge.
    let meets = |l: &[f32; 3], h: &[f32; 3], bl: &[f32; 3], bh: &[f32; 3]| {
        (0..3).all(|k| l[k] <= bh[k] && bl[k] <= h[k])
    };
    let near_rooms: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            let Some((l, h)) = boxes[i] else {
                return Vec::new();
            };
            (0..n)
                .filter(|&j| j != i && boxes[j].is_some_and(|(bl, bh)| meets(&l, &h, &bl, &bh)))
                .collect()
        })
        .collect();
    let mut sweep: Vec<u32> = (0..segs.len() as u32)
        .filter(|&s| {
            let s = &segs[s as usize];
            near_rooms[s.room as usize]
                .iter()
                .any(|&j| boxes[j].is_some_and(|(bl, bh)| meets(&s.lo, &s.hi, &bl, &bh)))
        })
        .collect();
    // Sweep along the longer horizontal axis of what is swept.
    let axis = {
        let (mut l, mut h) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
        for &s in &sweep {
            let s = &segs[s as usize];
            for k in 0..2 {
                l[k] = l[k].min(s.lo[k]);
                h[k] = h[k].max(s.hi[k]);
            }
        }
        usize::from(h[1] - l[1] > h[0] - l[0])
    };
    sweep.sort_by(|&x, &y| segs[x as usize].lo[axis].total_cmp(&segs[y as usize].lo[axis]));

    // Overlap with each other room, per swept edge.
    let mut met: Vec<Vec<(u32, f32)>> = vec![Vec::new(); segs.len()];
    let mut pairs_tested = 0usize;
    for (k, &i) in sweep.iter().enumerate() {
        let s = segs[i as usize];
        for &j in &sweep[k + 1..] {
            let t = &segs[j as usize];
            if t.lo[axis] > s.hi[axis] {
                break;
            }
            if t.room == s.room || !meets(&s.lo, &s.hi, &t.lo, &t.hi) {
                continue;
            }
            pairs_tested += 1;
            if let Some(len) = coincide([s.a, s.b, s.c], [t.a, t.b, t.c], tol) {
                add(&mut met[i as usize], t.room, len);
                add(&mut met[j as usize], s.room, len);
            }
        }
    }
    (met, pairs_tested)
}

/// Adds `len` metres of shared edge with `room`.
fn add(v: &mut Vec<(u32, f32)>, room: u32, len: f32) {
    match v.iter_mut().find(|(r, _)| *r == room) {
        Some(x) => x.1 += len,
        None => v.push((room, len)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use areakit_formats::bwm::{Edge, Face, Material, WalkmeshType};

    /// A flat rectangular room `[x0, x1] × [y0, y1]` at height `z`: two counter-clockwise
    /// triangles; its edge table lists the four sides (bottom, right, top, left) with no link.
    fn rect(x0: f32, y0: f32, x1: f32, y1: f32, z: f32) -> Bwm {
        let walk = Material::ALL
            .iter()
            .copied()
            .find(|m| m.is_walkable())
            .unwrap();
        Bwm {
            walkmesh_type: WalkmeshType::Area,
            vertices: vec![[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]],
            faces: vec![
                Face {
                    vertices: [0, 1, 2],
                    material: walk,
                },
                Face {
                    vertices: [0, 2, 3],
                    material: walk,
                },
            ],
            adjacency: vec![[-1, -1, 3], [2, -1, -1]],
            edges: [0, 1, 4, 5]
                .into_iter()
                .map(|edge| Edge {
                    edge,
                    transition: -1,
                })
                .collect(),
            perimeters: vec![4],
            ..Bwm::default()
        }
    }

    const BOTTOM: usize = 0;
    const RIGHT: usize = 1;
    const TOP: usize = 2;
    const LEFT: usize = 3;

    fn run(rooms: &mut [Bwm]) -> Vec<LinkChange> {
        let mut refs: Vec<Option<&mut Bwm>> = rooms.iter_mut().map(Some).collect();
        relink(&mut refs, &RelinkOptions::default())
    }

    fn links(w: &Bwm) -> Vec<i32> {
        w.edges.iter().map(|e| e.transition).collect()
    }

    #[test]
    fn shared_edge_links_both_ways_and_a_second_run_changes_nothing() {
        let mut rooms = [rect(0.0, 0.0, 2.0, 2.0, 0.0), rect(2.0, 0.0, 4.0, 2.0, 0.0)];
        let changes = run(&mut rooms);
        assert_eq!(links(&rooms[0]), [-1, 1, -1, -1]);
        assert_eq!(links(&rooms[1]), [-1, -1, -1, 0]);
        assert_eq!(
            changes,
            [
                LinkChange {
                    room: 0,
                    room_name: String::new(),
                    face: 0,
                    side: 1,
                    from: None,
                    to: Some(1)
                },
                LinkChange {
                    room: 1,
                    room_name: String::new(),
                    face: 1,
                    side: 2,
                    from: None,
                    to: Some(0)
                },
            ]
        );
        assert!(run(&mut rooms).is_empty());
    }

    #[test]
    fn a_gap_within_the_tolerance_links_and_a_wider_one_does_not() {
        // 5 cm apart (a kit's doorways), and 1 cm lower: within 0.1 m in 3-D.
        let mut rooms = [
            rect(0.0, 0.0, 2.0, 2.0, 0.0),
            rect(2.05, 0.0, 4.0, 2.0, -0.01),
        ];
        run(&mut rooms);
        assert_eq!(rooms[0].edges[RIGHT].transition, 1);
        assert_eq!(rooms[1].edges[LEFT].transition, 0);
        let mut rooms = [rect(0.0, 0.0, 2.0, 2.0, 0.0), rect(2.2, 0.0, 4.0, 2.0, 0.0)];
        assert!(run(&mut rooms).is_empty());
        // A floor 0.5 m above the edge is another storey.
        let mut rooms = [rect(0.0, 0.0, 2.0, 2.0, 0.0), rect(2.0, 0.0, 4.0, 2.0, 0.5)];
        assert!(run(&mut rooms).is_empty());
    }

    #[test]
    fn t_junction_links_the_short_edge_and_the_long_one() {
        // Room 1's left side (4 m) runs along room 0's right side (2 m) and past it.
        let mut rooms = [rect(0.0, 1.0, 2.0, 3.0, 0.0), rect(2.0, 0.0, 4.0, 4.0, 0.0)];
        run(&mut rooms);
        assert_eq!(links(&rooms[0]), [-1, 1, -1, -1]);
        assert_eq!(links(&rooms[1]), [-1, -1, -1, 0]);
    }

    #[test]
    fn an_edge_along_two_rooms_leads_into_the_one_it_shares_most_with() {
        // Room 2's left side meets room 0 over 1.5 m and room 1 over 2.5 m.
        let mut rooms = [
            rect(0.0, 0.0, 2.0, 1.5, 0.0),
            rect(0.0, 1.5, 2.0, 4.0, 0.0),
            rect(2.0, 0.0, 4.0, 4.0, 0.0),
        ];
        let mut area_rooms: Vec<Option<&mut Bwm>> = rooms.iter_mut().map(Some).collect();
        let info = vec![RoomInfo::default(); 3];
        let done = relink_rooms(&mut area_rooms, &info, &RelinkOptions::default());
        assert_eq!(rooms[0].edges[RIGHT].transition, 2);
        assert_eq!(rooms[1].edges[RIGHT].transition, 2);
        assert_eq!(rooms[2].edges[LEFT].transition, 1);
        assert_eq!(done.shared.len(), 1);
        let s = &done.shared[0];
        assert_eq!((s.room, s.face, s.side), (2, 1, 2));
        assert_eq!(s.rooms.iter().map(|r| r.0).collect::<Vec<_>>(), [1, 0]);
        assert!((s.rooms[0].1 - 2.5).abs() < 1e-4 && (s.rooms[1].1 - 1.5).abs() < 1e-4);
    }

    #[test]
    fn stale_one_way_out_of_range_and_self_links_are_cleared() {
        let mut rooms = [
            rect(0.0, 0.0, 2.0, 2.0, 0.0),
            rect(2.0, 0.0, 4.0, 2.0, 0.0),
            rect(10.0, 0.0, 12.0, 2.0, 0.0),
        ];
        rooms[0].edges[RIGHT].transition = 2; // stale: leads into the wrong room
        rooms[0].edges[TOP].transition = 1; // one-way: nothing of room 1 there
        rooms[1].edges[BOTTOM].transition = 7; // past the layout
        rooms[2].edges[LEFT].transition = 2; // into itself
        let changes = run(&mut rooms);
        assert_eq!(links(&rooms[0]), [-1, 1, -1, -1]);
        assert_eq!(links(&rooms[1]), [-1, -1, -1, 0]);
        assert_eq!(links(&rooms[2]), [-1, -1, -1, -1]);
        let summary: Vec<_> = changes
            .iter()
            .map(|c| (c.room, c.face, c.side, c.from, c.to))
            .collect();
        assert_eq!(
            summary,
            [
                (0, 0, 1, Some(2), Some(1)),
                (0, 1, 1, Some(1), None),
                (1, 0, 0, Some(7), None),
                (1, 1, 2, None, Some(0)),
                (2, 1, 2, Some(2), None),
            ]
        );
    }

    #[test]
    fn links_into_a_room_without_walkmesh_are_kept_and_into_a_placeholder_cleared() {
        let mut a = rect(0.0, 0.0, 2.0, 2.0, 0.0);
        a.edges[RIGHT].transition = 1;
        a.edges[TOP].transition = 2;
        let mut refs = [Some(&mut a), None, None];
        let info = [
            RoomInfo::default(),
            RoomInfo::default(),
            RoomInfo {
                name: "****",
                placeholder: true,
            },
        ];
        let done = relink_rooms(&mut refs, &info, &RelinkOptions::default());
        assert_eq!(done.unverified, 1);
        assert_eq!(done.links, 1);
        assert_eq!(links(&a), [-1, 1, -1, -1]);
    }

    #[test]
    fn overlapping_floors_on_the_same_side_and_crossing_edges_do_not_link() {
        // Room 1 lies over room 0's right half: their right sides coincide, same side.
        let mut rooms = [rect(0.0, 0.0, 2.0, 2.0, 0.0), rect(1.0, 0.0, 2.0, 2.0, 0.0)];
        run(&mut rooms);
        assert_eq!(links(&rooms[0])[RIGHT], -1);
        assert_eq!(links(&rooms[1])[RIGHT], -1);
        // Corners that touch, and sides that only meet end to end, share no length.
        let mut rooms = [rect(0.0, 0.0, 2.0, 2.0, 0.0), rect(2.0, 2.0, 4.0, 4.0, 0.0)];
        assert!(run(&mut rooms).is_empty());
    }

    #[test]
    fn coincide_is_symmetric_and_rejects_angles() {
        let e = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.0, 1.0, 0.0]];
        let f = [[1.5, 0.02, 0.0], [0.5, 0.0, 0.0], [1.0, -1.0, 0.0]];
        let a = coincide(e, f, 0.1).unwrap();
        assert_eq!(coincide(f, e, 0.1), Some(a));
        assert!((a - 1.0).abs() < 1e-5);
        // 20 degrees off: the far end is 0.07 m away over 0.2 m, but it is no shared edge.
        let g = [[0.0, 0.0, 0.0], [0.2, 0.0728, 0.0], [0.0, -1.0, 0.0]];
        assert_eq!(coincide(e, g, 0.1), None);
        // Degenerate and non-finite edges coincide with nothing.
        let p = [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, -1.0, 0.0]];
        assert_eq!(coincide(e, p, 0.1), None);
        let n = [[f32::NAN, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, -1.0, 0.0]];
        assert_eq!(coincide(e, n, 0.1), None);
    }

    #[test]
    fn edges_whose_face_is_missing_keep_a_link_into_a_room_and_lose_one_past_the_layout() {
        let mut rooms = [rect(0.0, 0.0, 2.0, 2.0, 0.0), rect(5.0, 0.0, 7.0, 2.0, 0.0)];
        rooms[0].edges.push(Edge {
            edge: 99 * 3,
            transition: 1,
        });
        rooms[0].edges.push(Edge {
            edge: 98 * 3,
            transition: 9,
        });
        let changes = run(&mut rooms);
        assert_eq!(rooms[0].edges[4].transition, 1);
        assert_eq!(rooms[0].edges[5].transition, -1);
        assert_eq!(changes.len(), 1);
    }

    #[test]
    fn only_transitions_change() {
        let mut rooms = [rect(0.0, 0.0, 2.0, 2.0, 0.0), rect(2.0, 0.0, 4.0, 2.0, 0.0)];
        let before = rooms.clone();
        run(&mut rooms);
        for (a, b) in rooms.iter().zip(&before) {
            let mut a = a.clone();
            for (x, y) in a.edges.iter_mut().zip(&b.edges) {
                x.transition = y.transition;
            }
            assert_eq!(&a, b);
        }
    }
}
