//! The mesh's own tables from its triangles: neighbour links, fans split, islands, corners.

use super::{Island, NO_TRIANGLE, cross2, plan};
use crate::nav::union_find::root;
use glam::Vec3;

/// Neighbour links (see the module docs for the rule).
pub(super) fn link(tris: &[[u32; 3]], flat: &[bool], nv: usize) -> Vec<[u32; 3]> {
    // Edges listed under their lower vertex: (other vertex, code = tri * 4 + edge, forward).
    let mut start = vec![0u32; nv + 1];
    for (t, f) in tris.iter().zip(flat) {
        if *f {
            continue;
        }
        for k in 0..3 {
            start[t[k].min(t[(k + 1) % 3]) as usize + 1] += 1;
        }
    }
    for i in 0..nv {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    // other vertex (high 32 bits) | code (low 32 bits; bit 31 set for a backward edge)
    let mut entries = vec![0u64; start[nv] as usize];
    for (ti, (t, f)) in tris.iter().zip(flat).enumerate() {
        if *f {
            continue;
        }
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            let slot = &mut fill[a.min(b) as usize];
            let back = if a > b { 1u64 << 31 } else { 0 };
            entries[*slot as usize] =
                (u64::from(a.max(b)) << 32) | back | (ti as u64 * 4 + k as u64);
            *slot += 1;
        }
    }
    let mut links = vec![[NO_TRIANGLE; 3]; tris.len()];
    for v in 0..nv {
        let list = &mut entries[start[v] as usize..start[v + 1] as usize];
        if list.len() < 2 {
            continue;
        }
        // Sorted: by the other vertex, then backward flag, then code (lowest triangle first).
        list.sort_unstable();
        let mut i = 0;
        while i < list.len() {
            let hi = list[i] >> 32;
            let mut j = i;
            while j < list.len() && list[j] >> 32 == hi {
                j += 1;
            }
            // The group i..j shares the edge; forward entries come first.
            let group = &list[i..j];
            let fwd = group.iter().find(|&&e| e & (1 << 31) == 0);
            let bwd = group.iter().find(|&&e| e & (1 << 31) != 0);
            if let (Some(&f), Some(&b)) = (fwd, bwd) {
                let cf = (f & 0x7fff_ffff) as u32;
                let cb = (b & 0x7fff_ffff) as u32;
                links[(cf >> 2) as usize][(cf & 3) as usize] = cb;
                links[(cb >> 2) as usize][(cb & 3) as usize] = cf;
            }
            i = j;
        }
    }
    links
}

/// Neighbour links from a file's own table (`given`: per triangle the triangles it names, in
/// any order): a pair each of which names the other, sharing an edge by vertex index, from
/// opposite sides of it (both counter-clockwise, the edge runs the other way in each). An
/// edge already joined keeps its first partner (in triangle order).
pub(super) fn link_given(tris: &[[u32; 3]], flat: &[bool], given: &[[u32; 3]]) -> Vec<[u32; 3]> {
    let n = tris.len();
    let mut links = vec![[NO_TRIANGLE; 3]; n];
    let names = |t: usize, u: u32| given[t].contains(&u);
    for t in 0..n {
        if flat[t] {
            continue;
        }
        for &u in &given[t] {
            let ui = u as usize;
            if u == NO_TRIANGLE || ui <= t || ui >= n || flat[ui] || !names(ui, t as u32) {
                continue;
            }
            let (a, b) = (tris[t], tris[ui]);
            for k in 0..3 {
                let (x, y) = (a[k], a[(k + 1) % 3]);
                let Some(j) = (0..3).find(|&j| b[j] == y && b[(j + 1) % 3] == x) else {
                    continue;
                };
                if links[t][k] == NO_TRIANGLE && links[ui][j] == NO_TRIANGLE {
                    links[t][k] = (ui * 4 + j) as u32;
                    links[ui][j] = (t * 4 + k) as u32;
                }
                break;
            }
        }
    }
    links
}

/// Gives every fan of a vertex after its first a vertex of its own (appended after the
/// surface's, numbered in triangle order): the triangles that touch a vertex and are joined
/// through the edges leaving it form a fan; where the ground meets itself only at the vertex,
/// it has several. Rewrites those triangles' corners and returns, per new vertex, the vertex it
/// copies.
pub(super) fn split_fans(
    tris: &mut [[u32; 3]],
    links: &[[u32; 3]],
    flat: &[bool],
    nv: usize,
) -> Vec<u32> {
    // Union-find over the corners (triangle * 3 + corner): a link joins the corners at each
    // end of its edge.
    let n = tris.len() * 3;
    let mut parent: Vec<u32> = (0..n as u32).collect();
    for (t, l) in links.iter().enumerate() {
        for (e, &link) in l.iter().enumerate() {
            if link == NO_TRIANGLE || (link >> 2) < t as u32 {
                continue;
            }
            let (u, j) = ((link >> 2) as usize, (link & 3) as usize);
            // Our corner e is its corner j + 1; our corner e + 1 its corner j.
            for (a, b) in [
                (3 * t + e, 3 * u + (j + 1) % 3),
                (3 * t + (e + 1) % 3, 3 * u + j),
            ] {
                let (ra, rb) = (root(&mut parent, a as u32), root(&mut parent, b as u32));
                if ra != rb {
                    parent[ra.max(rb) as usize] = ra.min(rb);
                }
            }
        }
    }
    // Per vertex, the fan (root) that keeps it; per other root, its new vertex.
    let mut keeper = vec![u32::MAX; nv];
    let mut copy_of_root: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    let mut split = Vec::new();
    for (t, tri) in tris.iter_mut().enumerate() {
        if flat[t] {
            continue;
        }
        for (k, corner) in tri.iter_mut().enumerate() {
            let v = *corner;
            let r = root(&mut parent, (3 * t + k) as u32);
            let kv = &mut keeper[v as usize];
            if *kv == u32::MAX {
                *kv = r;
            } else if *kv != r {
                let id = *copy_of_root.entry(r).or_insert_with(|| {
                    split.push(v);
                    (nv + split.len() - 1) as u32
                });
                *corner = id;
            }
        }
    }
    split
}

pub(super) fn find_islands(
    vertices: &[Vec3],
    tris: &[[u32; 3]],
    links: &[[u32; 3]],
    flat: &[bool],
) -> (Vec<u32>, Vec<Island>) {
    let n = tris.len();
    let mut island = vec![NO_TRIANGLE; n];
    let mut islands = Vec::new();
    let mut stack = Vec::new();
    for seed in 0..n {
        if island[seed] != NO_TRIANGLE {
            continue;
        }
        let id = islands.len() as u32;
        let mut info = Island {
            triangles: 0,
            plan_area: 0.0,
            area_3d: 0.0,
            first_triangle: seed as u32,
        };
        island[seed] = id;
        stack.push(seed as u32);
        while let Some(t) = stack.pop() {
            let tu = t as usize;
            info.triangles += 1;
            if !flat[tu] {
                let [a, b, c] = tris[tu].map(|i| vertices[i as usize].as_dvec3());
                info.plan_area += 0.5 * cross2([a.x, a.y], [b.x, b.y], [c.x, c.y]).abs();
                info.area_3d += 0.5 * (b - a).cross(c - a).length();
            }
            for &l in &links[tu] {
                if l != NO_TRIANGLE {
                    let m = (l >> 2) as usize;
                    if island[m] == NO_TRIANGLE {
                        island[m] = id;
                        stack.push(m as u32);
                    }
                }
            }
        }
        islands.push(info);
    }
    (island, islands)
}

pub(super) fn find_corners(
    vertices: &[Vec3],
    tris: &[[u32; 3]],
    links: &[[u32; 3]],
    flat: &[bool],
) -> Vec<u64> {
    let nv = vertices.len();
    let mut boundary = vec![false; nv];
    for ((t, l), f) in tris.iter().zip(links).zip(flat) {
        if *f {
            continue;
        }
        for k in 0..3 {
            if l[k] == NO_TRIANGLE {
                boundary[t[k] as usize] = true;
                boundary[t[(k + 1) % 3] as usize] = true;
            }
        }
    }
    // The plan angles round the boundary vertices only.
    let mut angle = vec![0.0f64; nv];
    for (t, f) in tris.iter().zip(flat) {
        if *f || !t.iter().any(|&v| boundary[v as usize]) {
            continue;
        }
        let p = t.map(|i| plan(vertices[i as usize]));
        for k in 0..3 {
            if !boundary[t[k] as usize] {
                continue;
            }
            let o = p[k];
            let a = p[(k + 1) % 3];
            let b = p[(k + 2) % 3];
            let u = [a[0] - o[0], a[1] - o[1]];
            let w = [b[0] - o[0], b[1] - o[1]];
            let ang = (u[0] * w[1] - u[1] * w[0]).atan2(u[0] * w[0] + u[1] * w[1]);
            angle[t[k] as usize] += ang;
        }
    }
    let mut bits = vec![0u64; nv.div_ceil(64)];
    for v in 0..nv {
        if boundary[v] && angle[v] >= std::f64::consts::PI - 1e-6 {
            bits[v / 64] |= 1 << (v % 64);
        }
    }
    bits
}
