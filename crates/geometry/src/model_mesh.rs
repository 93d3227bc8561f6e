//! What a model compiler derives from a mesh's vertices and triangles (KotOR and NWN alike):
//! face planes, adjacency through shared edge positions, the extent (box, average point,
//! radius, area) and smoothed vertex normals. Plain arrays in, plain arrays out.

use std::collections::HashMap;

use crate::derive::face_plane;

/// "No neighbour" in an adjacency table.
pub const NO_FACE: u16 = 0xFFFF;

/// The unit normal and plane distance of each face ([`face_plane`]); a face naming a vertex
/// that does not exist gets a zero normal.
pub fn face_planes(positions: &[[f32; 3]], faces: &[[u16; 3]]) -> Vec<([f32; 3], f32)> {
    faces
        .iter()
        .map(|f| {
            let corner = |k: usize| positions.get(usize::from(f[k])).copied();
            match (corner(0), corner(1), corner(2)) {
                (Some(a), Some(b), Some(c)) => face_plane([a, b, c]),
                _ => ([0.0; 3], -0.0),
            }
        })
        .collect()
}

/// For each face edge (`v0→v1`, `v1→v2`, `v2→v0`) the lowest-numbered other face with an edge
/// between the same two positions, in either direction (so split vertices still connect, and
/// a double-sided sheet's front links to its back as the games' compilers link it);
/// [`NO_FACE`] when no other face has it. Face numbers past 0xFFFE are clamped to it. NWN's
/// compiler agrees on 97% of the corpus faces (the rest: skins whose text is not public).
pub fn edge_adjacency(positions: &[[f32; 3]], faces: &[[u16; 3]]) -> Vec<[u16; 3]> {
    let key = |v: u16| {
        positions
            .get(usize::from(v))
            .map_or([u32::MAX; 3], |p| p.map(f32::to_bits))
    };
    type EdgeKey = ([u32; 3], [u32; 3]);
    let edge = |f: &[u16; 3], e: usize| {
        let (a, b) = (key(f[e]), key(f[(e + 1) % 3]));
        if a <= b { (a, b) } else { (b, a) }
    };
    // Each edge's two lowest-numbered faces: enough to give every face its lowest other one.
    let mut lowest: HashMap<EdgeKey, [Option<usize>; 2]> = HashMap::new();
    for (i, f) in faces.iter().enumerate() {
        for e in 0..3 {
            let slot = lowest.entry(edge(f, e)).or_default();
            match *slot {
                [None, _] => slot[0] = Some(i),
                [Some(a), None] if a != i => slot[1] = Some(i),
                _ => {}
            }
        }
    }
    faces
        .iter()
        .enumerate()
        .map(|(i, f)| {
            [0, 1, 2].map(|e| match lowest.get(&edge(f, e)) {
                Some([Some(a), b]) => {
                    let other = if *a == i { *b } else { Some(*a) };
                    other.map_or(NO_FACE, |o| o.min(0xFFFE) as u16)
                }
                _ => NO_FACE,
            })
        })
        .collect()
}

/// The extent of a mesh.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Extent {
    /// Box minimum (the origin included).
    pub min: [f32; 3],
    /// Box maximum (the origin included).
    pub max: [f32; 3],
    /// The distinct vertex positions' average point.
    pub average: [f32; 3],
    /// The greatest distance of a vertex from the average point.
    pub radius: f32,
    /// The faces' total area.
    pub area: f32,
}

/// The extent of a mesh as the games' compilers write it (every KotOR and NWN corpus mesh
/// agrees): the box of the vertices and the node's origin, the average of the distinct vertex
/// positions (a vertex split at a UV seam counts once), the greatest distance of a vertex from
/// that average, and the faces' total area. `None` without vertices.
pub fn extent(positions: &[[f32; 3]], faces: &[[u16; 3]]) -> Option<Extent> {
    if positions.is_empty() {
        return None;
    }
    let mut lo = [0f32; 3];
    let mut hi = [0f32; 3];
    for v in positions {
        for k in 0..3 {
            lo[k] = lo[k].min(v[k]);
            hi[k] = hi[k].max(v[k]);
        }
    }
    let mut distinct: Vec<[u32; 3]> = positions.iter().map(|p| p.map(f32::to_bits)).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let mut sum = [0f64; 3];
    for v in &distinct {
        for k in 0..3 {
            sum[k] += f64::from(f32::from_bits(v[k]));
        }
    }
    let average = sum.map(|s| (s / distinct.len() as f64) as f32);
    let radius = positions
        .iter()
        .map(|v| len(sub(*v, average)))
        .fold(0.0, f32::max);
    let area = faces
        .iter()
        .filter_map(|f| {
            let p = |k: usize| positions.get(usize::from(f[k])).copied();
            Some(len(cross(sub(p(1)?, p(0)?), sub(p(2)?, p(0)?))) / 2.0)
        })
        .sum();
    Some(Extent {
        min: lo,
        max: hi,
        average,
        radius,
        area,
    })
}

/// Vertex normals as model compilers make them: each vertex sums the area-weighted normals of
/// the faces around it (by position) that share a smoothing-group bit with the face it came
/// from (any face when the groups are all 0), then normalises. `smoothing` has one entry per
/// face; a vertex no face uses gets +z.
pub fn vertex_normals(
    positions: &[[f32; 3]],
    faces: &[[u16; 3]],
    smoothing: &[u32],
) -> Vec<[f32; 3]> {
    let key = |v: usize| positions[v].map(f32::to_bits);
    // Faces around each position, with their area-weighted normals.
    let mut around: HashMap<[u32; 3], Vec<usize>> = HashMap::new();
    let mut weighted = Vec::with_capacity(faces.len());
    for (i, f) in faces.iter().enumerate() {
        let p = |k: usize| positions.get(usize::from(f[k])).copied();
        let n = match (p(0), p(1), p(2)) {
            (Some(a), Some(b), Some(c)) => cross(sub(b, a), sub(c, a)),
            _ => [0.0; 3],
        };
        weighted.push(n);
        for &v in f {
            if usize::from(v) < positions.len() {
                around.entry(key(usize::from(v))).or_default().push(i);
            }
        }
    }
    // The face each vertex first appears in gives its smoothing groups.
    let mut home = vec![None::<usize>; positions.len()];
    for (i, f) in faces.iter().enumerate() {
        for &v in f {
            if let Some(slot) = home.get_mut(usize::from(v)) {
                slot.get_or_insert(i);
            }
        }
    }
    (0..positions.len())
        .map(|v| {
            let Some(h) = home[v] else {
                return [0.0, 0.0, 1.0];
            };
            let groups = smoothing.get(h).copied().unwrap_or(0);
            let mut n = [0f32; 3];
            for &f in around.get(&key(v)).map_or(&[][..], Vec::as_slice) {
                let g = smoothing.get(f).copied().unwrap_or(0);
                if f == h || groups & g != 0 || (groups == 0 && g == 0) {
                    n = add(n, weighted[f]);
                }
            }
            let l = len(n);
            if l > 0.0 && l.is_finite() {
                n.map(|c| c / l)
            } else {
                [0.0, 0.0, 1.0]
            }
        })
        .collect()
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn add(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn len(v: [f32; 3]) -> f32 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit square as two triangles whose shared edge has its corners split (duplicated
    /// vertices at the same positions).
    fn square() -> (Vec<[f32; 3]>, Vec<[u16; 3]>) {
        let p = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
        ];
        (p, vec![[0, 1, 2], [3, 4, 5]])
    }

    #[test]
    fn split_vertices_still_make_neighbours() {
        let (p, f) = square();
        let adj = edge_adjacency(&p, &f);
        // Edge 2 of face 0 (2→0) is edge 0 of face 1 (3→4) reversed.
        assert_eq!(adj[0], [NO_FACE, NO_FACE, 1]);
        assert_eq!(adj[1], [0, NO_FACE, NO_FACE]);
    }

    #[test]
    fn planes_extent_and_normals_of_a_flat_square() {
        let (p, f) = square();
        let planes = face_planes(&p, &f);
        assert!(
            planes
                .iter()
                .all(|(n, d)| *n == [0.0, 0.0, 1.0] && *d == 0.0)
        );
        let e = extent(&p, &f).unwrap();
        assert_eq!((e.min, e.max), ([0.0; 3], [1.0, 1.0, 0.0]));
        assert!((e.area - 1.0).abs() < 1e-6);
        assert!(extent(&[], &[]).is_none());
        let n = vertex_normals(&p, &f, &[1, 1]);
        assert!(n.iter().all(|v| *v == [0.0, 0.0, 1.0]));
    }

    #[test]
    fn smoothing_groups_keep_a_crease_sharp() {
        // Two faces folded 90° along the x axis, one vertex each side of the fold shared.
        let p = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ];
        let f = vec![[0, 1, 2], [1, 0, 3]];
        let smooth = vertex_normals(&p, &f, &[1, 1]);
        let sharp = vertex_normals(&p, &f, &[1, 2]);
        // Vertex 0 is on both faces: smoothed it leans between them, kept sharp it is face 0's.
        assert!(smooth[0][1] > 0.1 && smooth[0][2] > 0.1);
        assert_eq!(sharp[0], [0.0, 0.0, 1.0]);
    }
}
