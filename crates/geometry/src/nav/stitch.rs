//! Stitching the regions (rooms) of a surface into one conforming triangle set.
//!
//! The rooms of an area are separate triangle sets: each has its own vertices, and where two
//! rooms meet, their walkable boundary edges lie on the same line (in KotOR also marked with a
//! transition to the other room). [`stitch`] joins them:
//!
//! 1. **Boundary edges.** In each region, an edge used by exactly one of its triangles (by
//!    vertex indices, as the files store them) is a boundary edge. Within a region nothing
//!    else is joined: triangles that only overlap or touch in plan stay apart.
//! 2. **Matching.** Two boundary edges of *different* regions match when each one's end points
//!    lie within `tolerance` of the other's line **in 3-D** and their overlap along the line is
//!    longer than `tolerance`. Floors that overlap in plan at different heights therefore do
//!    not match. Candidates come from a hash grid over the edges' boxes (cells about the
//!    median boundary edge long), so the work grows with the number of boundary edges, not
//!    its square.
//! 3. **Splitting.** An end point of one matched edge that lies inside the other (more than
//!    `tolerance` from its ends) splits that edge: its triangle is split at the other
//!    region's vertex (a T-junction removed). A triangle split on one edge becomes a fan from
//!    the opposite corner; one split on several edges becomes a fan from a new vertex at its
//!    centroid.
//! 4. **Welding.** End points of matched edges within `tolerance` of each other (along the
//!    line and across it) become one vertex: the lowest index keeps its position, so no
//!    coordinate moves. Triangles that welding makes degenerate are dropped (counted).
//!
//! The result is a [`Surface`] whose matched seams share vertex indices, so
//! [`NavMesh`](super::NavMesh) joins the rooms there, plus a report of the seams: for each
//! pair of regions, the matched segments with the triangle edges on both sides (in the input
//! numbering), so an area layer can compare them with the rooms' own links.

use super::surface::{Surface, SurfaceError};
use crate::nav::union_find::root;
use glam::{DVec3, Vec3};
use std::collections::HashMap;

/// One matched piece of a seam between two regions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeamSegment {
    /// The edge on the side of the lower region: input triangle and edge `k` (from its corner
    /// `k` to `k + 1`).
    pub a: (u32, u8),
    /// The edge on the side of the higher region.
    pub b: (u32, u8),
    /// Where the overlap starts (on edge `a`).
    pub from: Vec3,
    /// Where it ends (on edge `a`).
    pub to: Vec3,
}

/// The seam between two regions.
#[derive(Debug, Clone, PartialEq)]
pub struct Seam {
    /// The two regions, lower first.
    pub regions: [u32; 2],
    /// The matched segments.
    pub segments: Vec<SeamSegment>,
    /// Their total length.
    pub length: f32,
}

/// The result of [`stitch`].
#[derive(Debug, Clone, PartialEq)]
pub struct Stitched {
    /// The conforming surface (input vertices first, in their order, then any centroids).
    pub surface: Surface,
    /// For each output triangle, the input triangle it came from.
    pub origin: Vec<u32>,
    /// The seams, by region pair.
    pub seams: Vec<Seam>,
    /// Input triangles that were split at another region's vertex.
    pub split_triangles: usize,
    /// Vertices merged into another one.
    pub welded_vertices: usize,
    /// Triangles dropped because welding made them degenerate.
    pub dropped_triangles: usize,
}

#[derive(Clone, Copy)]
struct BEdge {
    tri: u32,
    k: u8,
    a: u32,
    b: u32,
    region: u32,
}

/// Stitches the regions of `surface` along coincident boundary edges (see the
/// [module docs](self)). `tolerance` is a 3-D distance in world units (e.g. `1e-3`).
pub fn stitch(surface: &Surface, tolerance: f32) -> Result<Stitched, SurfaceError> {
    surface.validate()?;
    let tol = f64::from(if tolerance.is_finite() {
        tolerance.max(0.0)
    } else {
        0.0
    });
    let verts = &surface.vertices;
    let tris = &surface.triangles;
    let regions = &surface.regions;
    let pos = |v: u32| verts[v as usize].as_dvec3();

    // 1. Boundary edges per region.
    let mut keys: Vec<(u32, u32, u32, u32)> = Vec::with_capacity(tris.len() * 3);
    for (t, (tri, &r)) in tris.iter().zip(regions).enumerate() {
        if tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] {
            continue;
        }
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            keys.push((r, a.min(b), a.max(b), (t * 3 + k) as u32));
        }
    }
    keys.sort_unstable();
    let mut edges: Vec<BEdge> = Vec::new();
    let mut i = 0;
    while i < keys.len() {
        let mut j = i + 1;
        while j < keys.len()
            && keys[j].0 == keys[i].0
            && keys[j].1 == keys[i].1
            && keys[j].2 == keys[i].2
        {
            j += 1;
        }
        if j == i + 1 {
            let code = keys[i].3;
            let (t, k) = (code / 3, (code % 3) as usize);
            let tri = tris[t as usize];
            edges.push(BEdge {
                tri: t,
                k: k as u8,
                a: tri[k],
                b: tri[(k + 1) % 3],
                region: keys[i].0,
            });
        }
        i = j;
    }
    drop(keys);

    // 2. Candidate pairs through a hash grid over the edges' boxes.
    let mut lens: Vec<f64> = edges
        .iter()
        .map(|e| (pos(e.b) - pos(e.a)).length())
        .collect();
    let cell = if lens.is_empty() {
        1.0
    } else {
        let mid = lens.len() / 2;
        let (_, m, _) = lens.select_nth_unstable_by(mid, f64::total_cmp);
        m.max(4.0 * tol).max(1e-6)
    };
    lens.clear();
    let inv = 1.0 / cell;
    let cell_of = |p: DVec3| -> [i64; 3] {
        [
            (p.x * inv).floor() as i64,
            (p.y * inv).floor() as i64,
            (p.z * inv).floor() as i64,
        ]
    };
    let range = |e: &BEdge| -> ([i64; 3], [i64; 3]) {
        let (p, q) = (pos(e.a), pos(e.b));
        let lo = p.min(q) - DVec3::splat(tol);
        let hi = p.max(q) + DVec3::splat(tol);
        (cell_of(lo), cell_of(hi))
    };
    let mut grid: HashMap<[i64; 3], Vec<u32>> = HashMap::new();
    for (ei, e) in edges.iter().enumerate() {
        let (lo, hi) = range(e);
        // An edge spanning absurdly many cells (a huge edge among tiny ones) is clamped to a
        // bounded box of cells along its length.
        let span = (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
        if span > 4096 {
            let (p, q) = (pos(e.a), pos(e.b));
            let steps = (((q - p).length() * inv).ceil() as i64).clamp(1, 1 << 16);
            let mut last = None;
            for s in 0..=steps {
                let c = cell_of(p + (q - p) * (s as f64 / steps as f64));
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        for dz in -1..=1 {
                            let cc = [c[0] + dx, c[1] + dy, c[2] + dz];
                            if last != Some(cc) {
                                let v = grid.entry(cc).or_default();
                                if v.last() != Some(&(ei as u32)) {
                                    v.push(ei as u32);
                                }
                            }
                        }
                    }
                }
                last = Some(c);
            }
            continue;
        }
        for x in lo[0]..=hi[0] {
            for y in lo[1]..=hi[1] {
                for z in lo[2]..=hi[2] {
                    grid.entry([x, y, z]).or_default().push(ei as u32);
                }
            }
        }
    }
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for list in grid.values() {
        for (x, &i) in list.iter().enumerate() {
            for &j in &list[x + 1..] {
                let (ei, ej) = (&edges[i as usize], &edges[j as usize]);
                if ei.region != ej.region {
                    pairs.push((i.min(j), i.max(j)));
                }
            }
        }
    }
    drop(grid);
    pairs.sort_unstable();
    pairs.dedup();

    // 3. Matches: splits and welds.
    let nv = verts.len();
    let mut parent: Vec<u32> = (0..nv as u32).collect();
    let mut splits: HashMap<(u32, u8), Vec<(f64, u32)>> = HashMap::new();
    let mut seam_map: HashMap<[u32; 2], Vec<SeamSegment>> = HashMap::new();
    for &(i, j) in &pairs {
        let (e1, e2) = (edges[i as usize], edges[j as usize]);
        let (p0, p1, q0, q1) = (pos(e1.a), pos(e1.b), pos(e2.a), pos(e2.b));
        let d1 = p1 - p0;
        let d2 = q1 - q0;
        let (l1, l2) = (d1.length(), d2.length());
        if l1 == 0.0 || l2 == 0.0 {
            continue;
        }
        let (u1, u2) = (d1 / l1, d2 / l2);
        let off = |p: DVec3, o: DVec3, u: DVec3| (p - o).cross(u).length();
        if off(q0, p0, u1) > tol
            || off(q1, p0, u1) > tol
            || off(p0, q0, u2) > tol
            || off(p1, q0, u2) > tol
        {
            continue;
        }
        let s0 = (q0 - p0).dot(u1);
        let s1 = (q1 - p0).dot(u1);
        let lo = s0.min(s1).max(0.0);
        let hi = s0.max(s1).min(l1);
        if hi - lo <= tol {
            continue;
        }
        // Splits and welds, both ways.
        for (e, o, ou, ol, other) in [(e1, p0, u1, l1, e2), (e2, q0, u2, l2, e1)] {
            for v in [other.a, other.b] {
                let s = (pos(v) - o).dot(ou);
                if s > tol && s < ol - tol {
                    splits.entry((e.tri, e.k)).or_default().push((s / ol, v));
                } else {
                    let w = if s <= tol { e.a } else { e.b };
                    if (pos(w) - pos(v)).length() <= 2.0 * tol {
                        let (rw, rv) = (root(&mut parent, w), root(&mut parent, v));
                        if rw != rv && (pos(rw) - pos(rv)).length() <= 2.0 * tol {
                            let (lo, hi) = (rw.min(rv), rw.max(rv));
                            parent[hi as usize] = lo;
                        }
                    }
                }
            }
        }
        let (ea, eb, pa) = if e1.region < e2.region {
            (e1, e2, (p0 + u1 * lo, p0 + u1 * hi))
        } else {
            // Report the segment on the lower region's edge.
            let t0 = (p0 + u1 * lo - q0).dot(u2);
            let t1 = (p0 + u1 * hi - q0).dot(u2);
            (e2, e1, (q0 + u2 * t0.min(t1), q0 + u2 * t0.max(t1)))
        };
        seam_map
            .entry([ea.region, eb.region])
            .or_default()
            .push(SeamSegment {
                a: (ea.tri, ea.k),
                b: (eb.tri, eb.k),
                from: pa.0.as_vec3(),
                to: pa.1.as_vec3(),
            });
    }

    // Split points of one edge within `tolerance` of each other (end points of two other
    // regions' edges meeting there) become one vertex, before any triangle is written.
    for ((t, k), list) in splits.iter_mut() {
        let tri = tris[*t as usize];
        let len = (pos(tri[(*k as usize + 1) % 3]) - pos(tri[*k as usize])).length();
        list.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for w in list.windows(2) {
            if (w[1].0 - w[0].0) * len <= tol {
                let (ra, rb) = (root(&mut parent, w[0].1), root(&mut parent, w[1].1));
                if ra != rb {
                    let (lo, hi) = (ra.min(rb), ra.max(rb));
                    parent[hi as usize] = lo;
                }
            }
        }
    }

    // 4. The output triangles.
    let mut vertices = verts.clone();
    let mut triangles = Vec::with_capacity(tris.len());
    let mut out_regions = Vec::with_capacity(tris.len());
    let mut origin = Vec::with_capacity(tris.len());
    let mut split_triangles = 0;
    let mut dropped = 0;
    let mut ring: Vec<u32> = Vec::new();
    let mut local: Vec<Vec<(f64, u32)>> = vec![Vec::new(), Vec::new(), Vec::new()];
    for (t, (tri, &r)) in tris.iter().zip(regions).enumerate() {
        let mut split_edges = 0;
        for (k, l) in local.iter_mut().enumerate() {
            l.clear();
            if let Some(s) = splits.get(&(t as u32, k as u8)) {
                l.extend_from_slice(s);
                l.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                l.dedup_by(|b, a| a.1 == b.1 || root(&mut parent, a.1) == root(&mut parent, b.1));
                if !l.is_empty() {
                    split_edges += 1;
                }
            }
        }
        let mut emit = |tri: [u32; 3], parent: &mut Vec<u32>| {
            let m = tri.map(|v| root(parent, v));
            if m[0] == m[1] || m[1] == m[2] || m[0] == m[2] {
                dropped += 1;
            } else {
                triangles.push(m);
                out_regions.push(r);
                origin.push(t as u32);
            }
        };
        if split_edges == 0 {
            emit(*tri, &mut parent);
            continue;
        }
        split_triangles += 1;
        if split_edges == 1 {
            let k = (0..3).find(|&k| !local[k].is_empty()).unwrap_or(0);
            let apex = tri[(k + 2) % 3];
            ring.clear();
            ring.push(tri[k]);
            ring.extend(local[k].iter().map(|s| s.1));
            ring.push(tri[(k + 1) % 3]);
            for w in ring.windows(2) {
                emit([w[0], w[1], apex], &mut parent);
            }
        } else {
            let c =
                (verts[tri[0] as usize] + verts[tri[1] as usize] + verts[tri[2] as usize]) / 3.0;
            let ci = vertices.len() as u32;
            vertices.push(c);
            parent.push(ci);
            ring.clear();
            for k in 0..3 {
                ring.push(tri[k]);
                ring.extend(local[k].iter().map(|s| s.1));
            }
            ring.push(tri[0]);
            for w in ring.windows(2) {
                emit([w[0], w[1], ci], &mut parent);
            }
        }
    }
    let welded_vertices = (0..parent.len() as u32)
        .filter(|&v| root(&mut parent, v) != v)
        .count();

    let mut seams: Vec<Seam> = seam_map
        .into_iter()
        .map(|(regions, mut segments)| {
            segments.sort_by(|x, y| x.a.cmp(&y.a).then(x.b.cmp(&y.b)));
            let length = segments
                .iter()
                .map(|s| (s.to - s.from).as_dvec3().length())
                .sum::<f64>() as f32;
            Seam {
                regions,
                segments,
                length,
            }
        })
        .collect();
    seams.sort_by_key(|s| s.regions);
    Ok(Stitched {
        surface: Surface {
            links: Vec::new(),
            vertices,
            triangles,
            regions: out_regions,
        },
        origin,
        seams,
        split_triangles,
        welded_vertices,
        dropped_triangles: dropped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Region 0: the unit square as two triangles. Region 1: a square to its right whose left
    /// edge has a vertex in the middle (a T-junction against region 0's right edge). Region 2:
    /// a square above region 1 at height 1 (over region 1's top edge in plan only).
    fn rooms() -> Surface {
        let v = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
        Surface {
            links: Vec::new(),
            vertices: vec![
                v(0.0, 0.0, 0.0),
                v(1.0, 0.0, 0.0),
                v(1.0, 1.0, 0.0),
                v(0.0, 1.0, 0.0),
                // Region 1.
                v(1.0, 0.0, 0.0),
                v(2.0, 0.0, 0.0),
                v(2.0, 1.0, 0.0),
                v(1.0, 1.0, 0.0),
                v(1.0, 0.5, 0.0),
                // Region 2 (z = 1).
                v(1.0, 1.0, 1.0),
                v(2.0, 1.0, 1.0),
                v(2.0, 2.0, 1.0),
                v(1.0, 2.0, 1.0),
            ],
            triangles: vec![
                [0, 1, 2],
                [0, 2, 3],
                [4, 5, 8],
                [8, 5, 6],
                [8, 6, 7],
                [9, 10, 11],
                [9, 11, 12],
            ],
            regions: vec![0, 0, 1, 1, 1, 2, 2],
        }
    }

    #[test]
    fn t_junction_split_welded_and_reported() {
        let st = stitch(&rooms(), 1e-4).unwrap();
        assert_eq!(st.seams.len(), 1, "{:?}", st.seams);
        let seam = &st.seams[0];
        assert_eq!(seam.regions, [0, 1]);
        assert!((seam.length - 1.0).abs() < 1e-6);
        assert_eq!(seam.segments.len(), 2);
        assert!(seam.segments.iter().all(|s| s.a == (0, 1)));
        // Triangle 0 (right edge 1-2) split at region 1's vertex 8: two triangles.
        assert_eq!(st.split_triangles, 1);
        assert_eq!(st.surface.triangles.len(), 8);
        assert_eq!(st.origin, vec![0, 0, 1, 2, 3, 4, 5, 6]);
        // Region 1's corners 4 and 7 welded to region 0's 1 and 2.
        assert_eq!(st.welded_vertices, 2);
        assert!(
            st.surface
                .triangles
                .iter()
                .all(|t| !t.contains(&4) && !t.contains(&7))
        );
        let m = crate::nav::NavMesh::build(&st.surface).unwrap();
        assert!(m.reachable(0, 3));
        // Region 2 lies at z = 1: not joined.
        assert!(!m.reachable(0, 6));
    }
}
