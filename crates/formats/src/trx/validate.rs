//! Consistency checks of a decoded terrain file. Codes are documented in
//! `docs/checks.md`.

use super::model::{Trx, Walkmesh};
use super::raw::{NO_NODE, NODE_INDEX_MASK, NONE_U16, NONE_U32};
use crate::finding::{Finding, Place};

/// Checks a decoded file and returns every finding (path-table problems are grouped: one
/// finding per tile and code, with the count and the first example).
///
/// Errors: indices out of range (the engine would read out of bounds), tiles sharing
/// triangles, path tables whose shape does not match their tile. Warnings: asymmetric links,
/// edges that disagree with their triangles, triangles outside their tile, path tables that
/// step to a non-neighbour or never arrive, islands inconsistent with the triangles, stale
/// derived data (centres, tile counts).
pub fn validate(trx: &Trx) -> Vec<Finding> {
    let mut out = Vec::new();
    for (pi, p) in trx.packets.iter().enumerate() {
        if let super::Packet::Aswm(a) = p {
            validate_walkmesh(&a.walkmesh, &format!("packets[{pi}]"), &mut out);
        }
    }
    out
}

fn place(item: String) -> Place {
    Place::default().item(item)
}

/// Checks one walkmesh; `prefix` names it in the findings' item paths.
pub fn validate_walkmesh(w: &Walkmesh, prefix: &str, out: &mut Vec<Finding>) {
    let nv = w.vertices.len();
    let ne = w.edges.len();
    let nt = w.triangles.len();
    let ni = w.islands.len();
    let baked = w.is_baked();

    for (i, e) in w.edges.iter().enumerate() {
        for (k, &v) in e.vertices.iter().enumerate() {
            if v as usize >= nv {
                out.push(Finding::error(
                    "trx-vertex-index",
                    place(format!("{prefix}.edges[{i}].vertices[{k}]")),
                    format!("vertex index {v} >= vertex count {nv}"),
                ));
            }
        }
        for (k, &t) in e.triangles.iter().enumerate() {
            if t != NONE_U32 && t as usize >= nt {
                out.push(Finding::error(
                    "trx-triangle-index",
                    place(format!("{prefix}.edges[{i}].triangles[{k}]")),
                    format!("triangle index {t} >= triangle count {nt}"),
                ));
            }
        }
    }

    for (i, t) in w.triangles.iter().enumerate() {
        let f = |s: &str| format!("{prefix}.triangles[{i}].{s}");
        let mut verts_ok = true;
        for (k, &v) in t.vertices.iter().enumerate() {
            if v as usize >= nv {
                verts_ok = false;
                out.push(Finding::error(
                    "trx-vertex-index",
                    place(f(&format!("vertices[{k}]"))).face(i as u32),
                    format!("vertex index {v} >= vertex count {nv}"),
                ));
            }
        }
        for k in 0..3 {
            let le = t.linked_edges[k];
            let lt = t.linked_triangles[k];
            if le != NONE_U32 && le as usize >= ne {
                out.push(Finding::error(
                    "trx-edge-index",
                    place(f(&format!("linked_edges[{k}]"))).face(i as u32),
                    format!("edge index {le} >= edge count {ne}"),
                ));
            }
            if lt != NONE_U32 && lt as usize >= nt {
                out.push(Finding::error(
                    "trx-triangle-index",
                    place(f(&format!("linked_triangles[{k}]"))).face(i as u32),
                    format!("triangle index {lt} >= triangle count {nt}"),
                ));
                continue;
            }
            if lt != NONE_U32
                && !w.triangles[lt as usize]
                    .linked_triangles
                    .contains(&(i as u32))
            {
                out.push(Finding::warning(
                    "trx-link-asymmetric",
                    place(f(&format!("linked_triangles[{k}]"))).face(i as u32),
                    format!("triangle {i} links triangle {lt}, which does not link back"),
                ));
            }
            if let Some(e) = w.edges.get(le as usize) {
                let mut want = [i as u32, lt];
                let mut have = e.triangles;
                want.sort_unstable();
                have.sort_unstable();
                if want != have {
                    out.push(Finding::warning(
                        "trx-edge-mismatch",
                        place(f(&format!("linked_edges[{k}]"))).face(i as u32).edge(k as u32),
                        format!(
                            "edge {le} joins triangles {:?}, but triangle {i}'s slot {k} says it joins {i} and {}",
                            e.triangles,
                            if lt == NONE_U32 { "none".to_string() } else { lt.to_string() }
                        ),
                    ));
                }
            }
        }
        if verts_ok {
            let c = t.vertices.map(|v| w.vertices[v as usize]);
            let mx = (c[0][0] + c[1][0] + c[2][0]) / 3.0;
            let my = (c[0][1] + c[1][1] + c[2][1]) / 3.0;
            if (mx - t.center[0]).abs() > 1e-3 || (my - t.center[1]).abs() > 1e-3 {
                out.push(Finding::warning(
                    "trx-stale-centre",
                    place(f("center")).face(i as u32),
                    format!(
                        "stored centre ({}, {}) is not the vertices' mean ({mx}, {my})",
                        t.center[0], t.center[1]
                    ),
                ));
            }
        }
        if t.island != NONE_U16 && usize::from(t.island) >= ni && baked {
            out.push(Finding::error(
                "trx-island-index",
                place(f("island")).face(i as u32),
                format!("island index {} >= island count {ni}", t.island),
            ));
        }
        if baked && (t.island != NONE_U16) != t.is_walkable() {
            out.push(Finding::warning(
                "trx-island-mismatch",
                place(f("island")).face(i as u32),
                if t.is_walkable() {
                    "walkable triangle without an island".to_string()
                } else {
                    format!("non-walkable triangle in island {}", t.island)
                },
            ));
        }
    }

    validate_tiles(w, prefix, baked, out);
    if baked {
        validate_islands(w, prefix, out);
    }
}

#[allow(clippy::needless_range_loop)]
fn validate_tiles(w: &Walkmesh, prefix: &str, baked: bool, out: &mut Vec<Finding>) {
    let nt = w.triangles.len();
    if w.tiles.len() as u64 != u64::from(w.grid_width) * u64::from(w.grid_height) {
        out.push(Finding::error(
            "trx-tile-range",
            place(format!("{prefix}.tiles")),
            format!(
                "{} tiles for a {} x {} grid",
                w.tiles.len(),
                w.grid_width,
                w.grid_height
            ),
        ));
    }
    let mut owner = vec![usize::MAX; nt];
    let width = w.tile_width;
    let gw = w.grid_width.max(1) as usize;
    for (ti, tile) in w.tiles.iter().enumerate() {
        let f = |s: &str| format!("{prefix}.tiles[{ti}].{s}");
        let r = tile.triangle_range();
        if r.end > nt as u64 {
            out.push(Finding::error(
                "trx-tile-range",
                place(f("triangles_offset")),
                format!(
                    "triangles {}..{} exceed the triangle count {nt}",
                    r.start, r.end
                ),
            ));
            continue;
        }
        let (x, y) = ((ti % gw) as f32, (ti / gw) as f32);
        let e = width * 0.01;
        let mut verts: Vec<u32> = Vec::new();
        let mut edges: Vec<u32> = Vec::new();
        for t in r.start as usize..r.end as usize {
            if owner[t] != usize::MAX {
                out.push(Finding::error(
                    "trx-tile-overlap",
                    place(f("triangles_offset")).face(t as u32),
                    format!("triangle {t} is also owned by tile {}", owner[t]),
                ));
            } else {
                owner[t] = ti;
            }
            let c = w.triangles[t].center;
            if !(c[0] >= x * width - e
                && c[0] <= (x + 1.0) * width + e
                && c[1] >= y * width - e
                && c[1] <= (y + 1.0) * width + e)
            {
                out.push(Finding::warning(
                    "trx-tile-outside",
                    place(f("triangles_offset")).face(t as u32),
                    format!(
                        "triangle {t}'s centre ({}, {}) lies outside tile {ti}",
                        c[0], c[1]
                    ),
                ));
            }
            verts.extend_from_slice(&w.triangles[t].vertices);
            edges.extend(
                w.triangles[t]
                    .linked_edges
                    .iter()
                    .filter(|&&e| e != NONE_U32),
            );
        }
        verts.sort_unstable();
        verts.dedup();
        edges.sort_unstable();
        edges.dedup();
        if baked
            && (verts.len() != tile.vertex_count as usize
                || edges.len() != tile.edge_count as usize)
        {
            out.push(Finding::warning(
                "trx-stale-tile-counts",
                place(f("vertex_count")),
                format!(
                    "header counts {} vertices and {} edges; the tile's triangles use {} and {}",
                    tile.vertex_count,
                    tile.edge_count,
                    verts.len(),
                    edges.len()
                ),
            ));
        }
        if baked {
            validate_path_table(w, ti, prefix, out);
        }
    }
    for (t, &o) in owner.iter().enumerate() {
        if o == usize::MAX && !w.tiles.is_empty() {
            out.push(Finding::warning(
                "trx-tile-unowned",
                place(format!("{prefix}.triangles[{t}]")).face(t as u32),
                format!("triangle {t} belongs to no tile"),
            ));
        }
    }
}

#[allow(clippy::needless_range_loop)]
fn validate_path_table(w: &Walkmesh, ti: usize, prefix: &str, out: &mut Vec<Finding>) {
    let tile = &w.tiles[ti];
    let p = &tile.path_table;
    let item = format!("{prefix}.tiles[{ti}].path_table");
    let n = p.node_to_local.len();
    let mut shape = Vec::new();
    if p.local_to_node.len() != tile.triangle_count as usize {
        shape.push(format!(
            "{} local-to-node entries for {} triangles",
            p.local_to_node.len(),
            tile.triangle_count
        ));
    }
    if p.nodes.len() != n * n {
        shape.push(format!("{} node bytes for {n} nodes", p.nodes.len()));
    }
    for (l, &node) in p.local_to_node.iter().enumerate() {
        if node != NO_NODE
            && (usize::from(node) >= n || p.node_to_local[usize::from(node)] as usize != l)
        {
            shape.push(format!(
                "local triangle {l} maps to node {node}, which does not map back"
            ));
            break;
        }
    }
    for (k, &l) in p.node_to_local.iter().enumerate() {
        if l as usize >= p.local_to_node.len()
            || u64::from(tile.triangles_offset) + u64::from(l) >= w.triangles.len() as u64
        {
            shape.push(format!(
                "node {k} names local triangle {l}, outside the tile"
            ));
            break;
        }
    }
    for &v in &p.nodes {
        if v != NO_NODE && usize::from(v & NODE_INDEX_MASK) >= n {
            shape.push(format!("node byte {v:#04x} names a node >= {n}"));
            break;
        }
    }
    if !shape.is_empty() {
        out.push(Finding::error(
            "trx-path-table-shape",
            place(item),
            shape.join("; "),
        ));
        return;
    }
    let off = tile.triangles_offset as usize;
    let global = |node: usize| off + p.node_to_local[node] as usize;
    let hop = |s: usize, t: usize| -> Option<usize> {
        let v = p.nodes[s * n + t];
        (v != NO_NODE).then_some(usize::from(v & NODE_INDEX_MASK))
    };
    let (mut non_neighbour, mut first_nn) = (0u64, None);
    let (mut no_arrival, mut first_na) = (0u64, None);
    // state per (start) for one target: 0 unknown, 1 in progress, 2 reaches, 3 fails
    let mut state = vec![0u8; n];
    for t in 0..n {
        state.fill(0);
        state[t] = 2;
        for s in 0..n {
            if s == t {
                continue;
            }
            if let Some(h) = hop(s, t) {
                let gs = global(s);
                let gh = global(h);
                if !w.triangles[gs].linked_triangles.contains(&(gh as u32)) {
                    non_neighbour += 1;
                    first_nn.get_or_insert((s, t, h));
                }
            }
        }
        for s in 0..n {
            if state[s] != 0 || hop(s, t).is_none() {
                continue;
            }
            let mut chain = Vec::new();
            let mut cur = s;
            let result = loop {
                match state[cur] {
                    2 => break 2,
                    1 | 3 => break 3,
                    _ => {}
                }
                state[cur] = 1;
                chain.push(cur);
                match hop(cur, t) {
                    Some(h) => cur = h,
                    None => break 3,
                }
            };
            for c in chain {
                state[c] = result;
            }
        }
        for s in 0..n {
            if s != t && state[s] == 3 && hop(s, t).is_some() {
                no_arrival += 1;
                first_na.get_or_insert((s, t));
            }
        }
    }
    if let Some((s, t, h)) = first_nn {
        out.push(Finding::warning(
            "trx-path-non-neighbour",
            place(item.clone()),
            format!(
                "{non_neighbour} entries step to a triangle that is not adjacent (first: node {s} toward {t} steps to {h})"
            ),
        ));
    }
    if let Some((s, t)) = first_na {
        out.push(Finding::warning(
            "trx-path-no-arrival",
            place(item),
            format!("{no_arrival} entries never reach their target (first: node {s} toward {t})"),
        ));
    }
}

fn validate_islands(w: &Walkmesh, prefix: &str, out: &mut Vec<Finding>) {
    let ni = w.islands.len();
    let nt = w.triangles.len();
    let mut counts = vec![0u32; ni];
    for t in &w.triangles {
        if let Some(c) = counts.get_mut(usize::from(t.island)) {
            *c += 1;
        }
    }
    for (i, isl) in w.islands.iter().enumerate() {
        let f = |s: &str| format!("{prefix}.islands[{i}].{s}");
        if isl.index as usize != i {
            out.push(Finding::warning(
                "trx-island-mismatch",
                place(f("index")),
                format!("island {i} says it is island {}", isl.index),
            ));
        }
        if isl.triangle_count != counts[i] {
            out.push(Finding::warning(
                "trx-island-mismatch",
                place(f("triangle_count")),
                format!(
                    "island {i} counts {} triangles, but {} triangles name it",
                    isl.triangle_count, counts[i]
                ),
            ));
        }
        if isl.links.len() != isl.distances.len() || isl.links.len() != isl.exits.len() {
            out.push(Finding::error(
                "trx-island-mismatch",
                place(f("links")),
                format!(
                    "{} links, {} distances, {} exits (one each per link)",
                    isl.links.len(),
                    isl.distances.len(),
                    isl.exits.len()
                ),
            ));
        }
        for (k, &l) in isl.links.iter().enumerate() {
            if l as usize >= ni {
                out.push(Finding::error(
                    "trx-island-index",
                    place(f(&format!("links[{k}]"))),
                    format!("island index {l} >= island count {ni}"),
                ));
                continue;
            }
            let Some(&e) = isl.exits.get(k) else { continue };
            if e as usize >= nt {
                out.push(Finding::error(
                    "trx-triangle-index",
                    place(f(&format!("exits[{k}]"))),
                    format!("triangle index {e} >= triangle count {nt}"),
                ));
                continue;
            }
            let tri = &w.triangles[e as usize];
            let touches = tri.linked_triangles.iter().any(|&v| {
                w.triangles
                    .get(v as usize)
                    .is_some_and(|o| u32::from(o.island) == l)
            });
            if usize::from(tri.island) != i || !touches {
                out.push(Finding::warning(
                    "trx-island-mismatch",
                    place(f(&format!("exits[{k}]"))).face(e),
                    format!(
                        "exit triangle {e} toward island {l} is in island {} and {} island {l}",
                        tri.island,
                        if touches { "touches" } else { "does not touch" }
                    ),
                ));
            }
        }
    }
    if w.island_paths.len() != ni * ni {
        out.push(Finding::error(
            "trx-island-path-shape",
            place(format!("{prefix}.island_paths")),
            format!("{} entries for {ni} islands", w.island_paths.len()),
        ));
        return;
    }
    let mut bad = 0u64;
    let mut first = None;
    for (k, p) in w.island_paths.iter().enumerate() {
        if p.next != NONE_U16 {
            let from = k / ni.max(1);
            let ok = usize::from(p.next) < ni && w.islands[from].links.contains(&u32::from(p.next));
            if !ok {
                bad += 1;
                first.get_or_insert((from, k % ni.max(1), p.next));
            }
        }
    }
    if let Some((s, t, h)) = first {
        out.push(Finding::warning(
            "trx-island-path-non-neighbour",
            place(format!("{prefix}.island_paths")),
            format!("{bad} entries step to an island that is not linked (first: {s} toward {t} steps to {h})"),
        ));
    }
}
