//! KotOR path graphs (PTH): checking one against the walkable ground of its area, and
//! generating one from the ground.
//!
//! A PTH (a GFF, [`areakit_formats::gff::Pth`]) holds points (x, y; no height) and, per point,
//! a range of connections to other points. The game's creatures use it to plan routes the
//! walkmesh alone does not give them, walking straight between connected points; so each point
//! should stand on walkable ground and each connection should be walkable in a straight line.

use areakit_formats::gff::views::Pth;
use areakit_formats::{Finding, Place};
use areakit_geometry::nav::{self, Location, NavData, Path, Request, Searcher};
use glam::Vec3;

use crate::navigation::{AreaNav, NavError, NavOptions, NavSource};

/// How close (relative, and metres) a path's length must be to the straight segment's for a
/// connection the exact sight test refuses to count as walkable all the same (a line that
/// grazes a corner by a rounding error).
const STRAIGHT_TOLERANCE: f32 = 1e-4;

/// Whether the straight segment between two located points stays on the ground (the exact
/// walk through the triangles), or the shortest path between them is no longer than it by
/// more than [`STRAIGHT_TOLERANCE`].
fn walkable(data: &NavData, s: &mut Searcher, a: Location, b: Location, out: &mut Path) -> bool {
    if s.sees(data.mesh, a, b) {
        return true;
    }
    if s.path_between(data, a, b, &Request::default(), out)
        .is_err()
    {
        return false;
    }
    let d = (b.point - a.point).truncate().length();
    out.length_plan <= d * (1.0 + STRAIGHT_TOLERANCE) + STRAIGHT_TOLERANCE
}

/// The findings of a path graph on the ground of `nav` (built without radius or objects):
///
/// - `pth-connection-index` (error): a connection range past the connection list, or a
///   destination that is no point (the engine would read past its tables);
/// - `pth-point-off-ground` (warning): a point over no walkable face;
/// - `pth-connection-off-ground` (warning): two connected points the straight walk between
///   which leaves the walkable ground (or which lie on different islands); reported once per
///   pair.
pub fn check_pth(pth: &Pth, nav: &AreaNav, file: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    let place = |i: usize| {
        let p = pth.points[i];
        Place::default()
            .file(file)
            .item(format!("Path_Points[{i}]"))
            .position([p.x, p.y, 0.0])
    };
    let located: Vec<Option<Location>> = pth
        .points
        .iter()
        .map(|p| nav.mesh().locate(p.x, p.y, None))
        .collect();
    for (i, l) in located.iter().enumerate() {
        if l.is_none() {
            out.push(Finding::warning(
                "pth-point-off-ground",
                place(i),
                format!(
                    "path point {i} ({}, {}) stands on no walkable face",
                    pth.points[i].x, pth.points[i].y
                ),
            ));
        }
    }
    let data = nav.set.data();
    let mut s = Searcher::new();
    let mut path = Path::default();
    let n = pth.points.len();
    let mut seen = std::collections::HashSet::new();
    for (i, p) in pth.points.iter().enumerate() {
        let (first, count) = (p.first_connection as usize, p.connection_count as usize);
        if first
            .checked_add(count)
            .is_none_or(|end| end > pth.connections.len())
        {
            out.push(Finding::error(
                "pth-connection-index",
                place(i),
                format!(
                    "point {i}: connections {first}..{} lie past the {} connections",
                    first.saturating_add(count),
                    pth.connections.len()
                ),
            ));
            continue;
        }
        for &d in pth.neighbours(i) {
            let d = d as usize;
            if d >= n {
                out.push(Finding::error(
                    "pth-connection-index",
                    place(i),
                    format!("point {i}: a connection to point {d}, but there are {n} points"),
                ));
                continue;
            }
            if !seen.insert((i.min(d), i.max(d))) {
                continue;
            }
            let (Some(a), Some(b)) = (located[i], located[d]) else {
                continue;
            };
            if !walkable(&data, &mut s, a, b, &mut path) {
                out.push(Finding::warning(
                    "pth-connection-off-ground",
                    place(i),
                    format!(
                        "the straight walk from point {i} to point {d} leaves the walkable ground"
                    ),
                ));
            }
        }
    }
    out
}

/// How [`generate_pth`] places points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PthOptions {
    /// The radius the points and connections keep from walls (metres).
    pub radius: f32,
    /// Corners closer than this to a kept point are merged into it (metres).
    pub spacing: f32,
    /// Longest connection (metres).
    pub max_link: f32,
    /// Most connections a point gets to its nearest visible points (more are added where
    /// needed to join the graph).
    pub max_neighbours: usize,
}

impl Default for PthOptions {
    fn default() -> Self {
        PthOptions {
            radius: nav::clearance::HUMAN_RADIUS,
            spacing: 1.5,
            max_link: 30.0,
            max_neighbours: 10,
        }
    }
}

/// Generates a path graph from an area's ground: the corners where shortest paths turn (on
/// the ground carved for `radius`, so `radius` from the walls), merged within `spacing`; a
/// point on every island without a corner; connections between points that see each other
/// (the straight line between them stays on the ground) up to `max_link` apart, the nearest `max_neighbours`
/// each; then every island's points are joined into one graph along shortest paths.
pub fn generate_pth(source: &NavSource, options: &PthOptions) -> Result<Pth, NavError> {
    let nav = AreaNav::build(
        source,
        &[],
        &NavOptions {
            radius: options.radius,
            ..NavOptions::default()
        },
    )?;
    let mesh = nav.mesh();
    let data = nav.set.data();
    let verts = mesh.vertices();
    // Corners, thinned greedily in vertex order (deterministic).
    let mut points: Vec<Location> = Vec::new();
    let spacing2 = options.spacing * options.spacing;
    let mut grid: std::collections::HashMap<(i64, i64), Vec<usize>> = Default::default();
    let cell = options.spacing.max(0.01);
    let key = |p: Vec3| ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64);
    let near =
        |pts: &Vec<Location>, p: Vec3, grid: &std::collections::HashMap<(i64, i64), Vec<usize>>| {
            let (cx, cy) = key(p);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(v) = grid.get(&(cx + dx, cy + dy))
                        && v.iter()
                            .any(|&i| (pts[i].point - p).truncate().length_squared() < spacing2)
                    {
                        return true;
                    }
                }
            }
            false
        };
    for v in 0..verts.len() as u32 {
        if !mesh.is_corner(v) {
            continue;
        }
        let p = verts[v as usize];
        if near(&points, p, &grid) {
            continue;
        }
        let Some(l) = mesh.locate(p.x, p.y, Some(p.z)) else {
            continue;
        };
        grid.entry(key(p)).or_default().push(points.len());
        points.push(l);
    }
    // Islands without a point get one at the centre of their first triangle.
    let mut has_point = vec![false; mesh.islands().len()];
    for l in &points {
        has_point[mesh.island_of(l.triangle) as usize] = true;
    }
    for (i, isl) in mesh.islands().iter().enumerate() {
        if has_point[i] || isl.plan_area < 0.5 {
            continue;
        }
        let [a, b, c] = mesh.triangle_points(isl.first_triangle);
        let p = (a + b + c) / 3.0;
        if let Some(l) = mesh.locate(p.x, p.y, Some(p.z)) {
            points.push(l);
        }
    }
    // Visibility connections.
    let n = points.len();
    let mut s = Searcher::new();
    let mut path = Path::default();
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
    let max2 = options.max_link * options.max_link;
    for i in 0..n {
        let mut cands: Vec<(f32, usize)> = (0..n)
            .filter(|&j| j != i)
            .filter(|&j| mesh.island_of(points[j].triangle) == mesh.island_of(points[i].triangle))
            .map(|j| {
                (
                    (points[j].point - points[i].point)
                        .truncate()
                        .length_squared(),
                    j,
                )
            })
            .filter(|&(d2, _)| d2 <= max2)
            .collect();
        cands.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut kept = 0;
        for (_, j) in cands {
            if kept == options.max_neighbours {
                break;
            }
            if adj[i].contains(&(j as u32)) {
                kept += 1;
                continue;
            }
            if s.sees(mesh, points[i], points[j]) {
                adj[i].push(j as u32);
                adj[j].push(i as u32);
                kept += 1;
            }
        }
    }
    // Join each island's components along shortest paths (their turns become points).
    loop {
        let comp = components(&adj);
        let mut joined = false;
        let mut first_of: std::collections::HashMap<(u32, usize), usize> = Default::default();
        for i in 0..points.len() {
            let key = (mesh.island_of(points[i].triangle), comp[i]);
            first_of.entry(key).or_insert(i);
        }
        let mut by_island: std::collections::BTreeMap<u32, Vec<usize>> = Default::default();
        for (&(isl, _), &i) in &first_of {
            by_island.entry(isl).or_default().push(i);
        }
        for reps in by_island.values_mut() {
            reps.sort_unstable();
            for w in reps.windows(2) {
                let (a, b) = (w[0], w[1]);
                if s.path_between(&data, points[a], points[b], &Request::default(), &mut path)
                    .is_err()
                {
                    continue;
                }
                let mut prev = a;
                let turns = path.points.len();
                for q in path.points.iter().take(turns - 1).skip(1) {
                    let Some(l) = mesh.locate(q.x, q.y, Some(q.z)) else {
                        continue;
                    };
                    points.push(l);
                    adj.push(Vec::new());
                    let id = points.len() - 1;
                    adj[prev].push(id as u32);
                    adj[id].push(prev as u32);
                    prev = id;
                }
                adj[prev].push(b as u32);
                adj[b].push(prev as u32);
                joined = true;
            }
        }
        if !joined {
            break;
        }
    }
    for a in &mut adj {
        a.sort_unstable();
        a.dedup();
    }
    let positions: Vec<[f32; 2]> = points.iter().map(|l| [l.point.x, l.point.y]).collect();
    Ok(Pth::from_adjacency(&positions, &adj))
}

fn components(adj: &[Vec<u32>]) -> Vec<usize> {
    let mut comp = vec![usize::MAX; adj.len()];
    let mut c = 0;
    for start in 0..adj.len() {
        if comp[start] != usize::MAX {
            continue;
        }
        let mut stack = vec![start];
        comp[start] = c;
        while let Some(v) = stack.pop() {
            for &w in &adj[v] {
                if comp[w as usize] == usize::MAX {
                    comp[w as usize] = c;
                    stack.push(w as usize);
                }
            }
        }
        c += 1;
    }
    comp
}
