//! The conservative VIS: each room's shell and openings ([`super::shell`]), the cells and
//! portals they make and the flow of lines through them ([`super::flow`]). Two rooms may see
//! each other when the flow of either reaches the other. No sample spacing enters it: the
//! result depends on the geometry alone (`docs/vis.md`).

use std::sync::atomic::{AtomicUsize, Ordering};

use glam::{Vec2, Vec3};

use super::flow::{self, Cells};
use super::shell::{self, Shell, basis};
use super::{VisOptions, VisRoom, floor_faces, occluder_faces};

/// How far past a portal's plane a room's eye may stand before the room is taken to stand in
/// the cell beyond as well (metres): a walkable floor ends at its doorway's edge, which lies
/// within a few centimetres of the doorway's plane.
pub const EYE_SLACK: f32 = 0.05;

/// What the portal method found.
#[derive(Debug, Clone, Default)]
pub struct PortalVis {
    /// Pairs `(a, b)`, `a < b`, that a line may join through the openings.
    pub pairs: Vec<(usize, usize)>,
    /// Boundary loops of the shells.
    pub loops: usize,
    /// Openings found.
    pub openings: usize,
    /// Doorways (two rooms' openings that meet).
    pub doorways: usize,
    /// One-way portals (each opening crossed either way).
    pub portals: usize,
    /// Probe lines cast to tell openings from pockets.
    pub probes: u64,
    /// Portal sequences the flows visited.
    pub steps: usize,
    /// Rooms without a shell (they stand in the outside).
    pub outside: Vec<usize>,
    /// Rooms some of whose drawn faces look out of their shell.
    pub seen_from_outside: Vec<usize>,
    /// Rooms whose flow ran out of its budget (they see every room the portals connect).
    pub over_budget: Vec<usize>,
    /// Rooms with a model but no walkable floor (a skybox, doorway padding): no cell; drawn
    /// from every room that sees a room they touch, or the outside.
    pub attached: Vec<usize>,
}

/// Runs `f(i)` for `i` in `0..n` on `threads` threads (0: one per core), results in order.
fn parallel<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    }
    .clamp(1, 64)
    .min(n.max(1));
    if threads == 1 {
        return (0..n).map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut parts: Vec<(usize, T)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break;
                        }
                        out.push((i, f(i)));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    parts.sort_by_key(|p| p.0);
    parts.into_iter().map(|p| p.1).collect()
}

/// A portal flattened onto its plane, for point tests: its basis, its corners in it (counter-
/// clockwise), its edges' unit normals pointing in.
struct Flat {
    origin: Vec3,
    u: Vec3,
    v: Vec3,
    corners: Vec<Vec2>,
    inward: Vec<Vec2>,
}

impl Flat {
    fn new(poly: &[Vec3], normal: Vec3) -> Flat {
        let (u, v) = basis(normal);
        let origin = poly[0];
        let mut corners: Vec<Vec2> = poly
            .iter()
            .map(|q| Vec2::new((*q - origin).dot(u), (*q - origin).dot(v)))
            .collect();
        let area: f32 = (0..corners.len())
            .map(|i| corners[i].perp_dot(corners[(i + 1) % corners.len()]))
            .sum();
        if area < 0.0 {
            corners.reverse();
        }
        let inward = (0..corners.len())
            .map(|i| {
                (corners[(i + 1) % corners.len()] - corners[i])
                    .perp()
                    .normalize_or_zero()
            })
            .collect();
        Flat {
            origin,
            u,
            v,
            corners,
            inward,
        }
    }

    /// Whether `p`, flattened onto the plane, lies within `margin` of the polygon.
    fn holds(&self, p: Vec3, margin: f32) -> bool {
        let q = Vec2::new((p - self.origin).dot(self.u), (p - self.origin).dot(self.v));
        self.corners
            .iter()
            .zip(&self.inward)
            .all(|(c, n)| n.dot(q - *c) >= -margin)
    }
}

/// The cells a room starts its flow from: its own (the outside without a shell), and the cell
/// beyond each of its portals whose plane its eyes (floor points at 0.1 m and at eye height)
/// pass by more than [`EYE_SLACK`] over the portal.
fn starts(cells: &Cells, flats: &[Flat], room: usize, floor: &[[Vec3; 3]], eye: f32) -> Vec<usize> {
    let own = if cells.outside[room] {
        cells.outside_cell()
    } else {
        room
    };
    let mut out = vec![own];
    if cells.outside[room] {
        return out;
    }
    let points: Vec<Vec3> = floor
        .iter()
        .flat_map(|t| [t[0], t[1], t[2], (t[0] + t[1] + t[2]) / 3.0])
        .flat_map(|p| [p + Vec3::Z * 0.1, p + Vec3::Z * eye])
        .collect();
    for &pi in &cells.out[room] {
        let p = &cells.portals[pi];
        if out.contains(&p.to) {
            continue;
        }
        if points
            .iter()
            .any(|&q| p.normal.dot(q) - p.d > EYE_SLACK && flats[pi].holds(q, 0.25))
        {
            out.push(p.to);
        }
    }
    out
}

/// The pairs of rooms a line may join through their openings (placeholders left out), and
/// what was found on the way.
pub fn portal_vis(rooms: &[VisRoom<'_>], opts: &VisOptions) -> PortalVis {
    let n = rooms.len();
    let live = |i: usize| rooms[i].name != areakit_formats::lyt::PLACEHOLDER_ROOM;
    let floors: Vec<Vec<[Vec3; 3]>> = rooms.iter().map(floor_faces).collect();
    // A room with a model and no floor stands in no cell of its own: nobody stands in it.
    let attached: Vec<bool> = (0..n)
        .map(|i| live(i) && rooms[i].model.is_some() && floors[i].is_empty())
        .collect();
    // Each room's drawn faces (area space) and whether each hides, once.
    let faces: Vec<Vec<([Vec3; 3], bool)>> = parallel(n, opts.threads, |i| {
        rooms[i]
            .model
            .filter(|_| live(i))
            .map(|m| {
                occluder_faces(m, rooms[i].position)
                    .into_iter()
                    .map(|(t, o)| (t.map(Vec3::from), o))
                    .collect()
            })
            .unwrap_or_default()
    });
    let shells: Vec<Option<Shell>> = parallel(n, opts.threads, |i| {
        if !live(i) || attached[i] || rooms[i].model.is_none() {
            return None;
        }
        let opaque: Vec<[Vec3; 3]> = faces[i].iter().filter(|f| f.1).map(|f| f.0).collect();
        if opaque.is_empty() {
            return None;
        }
        let drawn: Vec<[Vec3; 3]> = faces[i].iter().map(|f| f.0).collect();
        Some(shell::shell(&opaque, &drawn))
    });
    let cells = flow::cells(&shells);
    let flats: Vec<Flat> = cells
        .portals
        .iter()
        .map(|p| Flat::new(&p.poly, p.normal))
        .collect();
    let flows = parallel(n, opts.threads, |a| {
        if !live(a) || attached[a] {
            return None;
        }
        Some(flow::flow(
            &cells,
            &starts(&cells, &flats, a, &floors[a], opts.eye_height.max(0.1)),
        ))
    });
    let outside = cells.outside_cell();
    // What the outside sees: every room it reaches through the rooms' openings onto it.
    let beyond = flow::outside_flow(&cells);
    let mut sees = vec![false; n * n];
    let mut out = PortalVis {
        loops: shells.iter().flatten().map(|s| s.loops).sum(),
        openings: shells.iter().flatten().map(|s| s.openings.len()).sum(),
        doorways: cells.doorways,
        portals: cells.portals.len(),
        probes: shells.iter().flatten().map(|s| s.probes).sum(),
        outside: (0..n)
            .filter(|&i| live(i) && !attached[i] && cells.outside[i])
            .collect(),
        attached: (0..n).filter(|&i| attached[i]).collect(),
        seen_from_outside: (0..n)
            .filter(|&i| live(i) && cells.seen_from_outside[i])
            .collect(),
        ..PortalVis::default()
    };
    out.steps += beyond.steps;
    for (a, f) in flows.iter().enumerate() {
        let Some(f) = f else { continue };
        out.steps += f.steps;
        if f.over_budget || (f.reached[outside] && beyond.over_budget) {
            out.over_budget.push(a);
        }
        let out_reached = f.reached[outside];
        for b in 0..n {
            if b == a || !live(b) || attached[b] {
                continue;
            }
            let seen = (!cells.outside[b] && (f.reached[b] || (out_reached && beyond.reached[b])))
                || (out_reached && (cells.outside[b] || cells.seen_from_outside[b]));
            if seen {
                sees[a * n + b] = true;
                sees[b * n + a] = true;
            }
        }
    }
    // Attached rooms are drawn from every room that sees (or is) a room whose box they touch,
    // and from every room that reaches the outside.
    let boxes: Vec<Option<(Vec3, Vec3)>> = (0..n)
        .map(|i| {
            let pts: Vec<Vec3> = if rooms[i].model.is_some() {
                faces[i].iter().flat_map(|f| f.0).collect()
            } else {
                floors[i]
                    .iter()
                    .flatten()
                    .flat_map(|&p| [p, p + Vec3::Z * 3.0])
                    .collect()
            };
            pts.iter()
                .filter(|p| p.is_finite())
                .fold(None, |b: Option<(Vec3, Vec3)>, &p| {
                    Some(b.map_or((p, p), |(l, h)| (l.min(p), h.max(p))))
                })
        })
        .collect();
    let touch = |a: usize, b: usize| match (boxes[a], boxes[b]) {
        (Some((la, ha)), Some((lb, hb))) => {
            let g = Vec3::splat(0.5);
            !((la - g).cmpgt(hb).any() || (lb - g).cmpgt(ha).any())
        }
        _ => false,
    };
    for p in (0..n).filter(|&i| attached[i]) {
        for x in (0..n).filter(|&i| live(i) && !attached[i]) {
            let reaches_outside = flows[x].as_ref().is_some_and(|f| f.reached[outside]);
            let near = (0..n).any(|r| !attached[r] && (r == x || sees[x * n + r]) && touch(r, p));
            if reaches_outside || near {
                sees[x * n + p] = true;
                sees[p * n + x] = true;
            }
        }
    }
    for a in 0..n {
        for b in a + 1..n {
            if sees[a * n + b] {
                out.pairs.push((a, b));
            }
        }
    }
    out
}
