//! `check_bwm`: structural and geometric checks of a BWM walkmesh. Codes are documented in
//! `docs/checks.md`.

use areakit_formats::bwm::raw::Table;
use areakit_formats::bwm::{Bwm, WalkmeshType};
use areakit_formats::{Finding, Place};
use areakit_geometry::aabb::{self, TreeProblem};
use areakit_geometry::analysis::{self, Tolerances};
use areakit_geometry::derive::{edge_vertices, face_plane};
use areakit_geometry::query::Locator;
use areakit_geometry::{Mesh, NO_CHILD, NONE};

use super::{nodes_of, to_mesh};

/// The node a broken tree is reported at, and what is wrong there, in words.
fn tree_problem_message(p: &TreeProblem, nodes: &[areakit_geometry::AabbNode]) -> (usize, String) {
    let n = nodes.len();
    match *p {
        TreeProblem::BadChild { node } => {
            let children = nodes
                .get(node)
                .map(|x| {
                    format!(
                        " (children {} and {})",
                        child_name(x.left),
                        child_name(x.right)
                    )
                })
                .unwrap_or_default();
            (
                node,
                format!(
                    "AABB node {node} names a child{children} that is not one of the {n} nodes, \
                     or that another node already names (a cycle or a shared subtree): queries \
                     below it loop or read out of bounds"
                ),
            )
        }
        TreeProblem::BadNode { node } => (
            node,
            format!(
                "AABB node {node} is neither a leaf naming one face with no children nor an \
                 inner node with two children"
            ),
        ),
        TreeProblem::Empty => (
            0,
            format!("the AABB tree has {n} nodes, which does not fit the face count"),
        ),
        _ => (0, format!("the AABB tree is unusable ({p:?})")),
    }
}

fn child_name(c: u32) -> String {
    if c == NO_CHILD {
        "none".into()
    } else {
        c.to_string()
    }
}

fn face_place(mesh: &Mesh, f: u32) -> Place {
    let p = Place::default().face(f);
    if (f as usize) < mesh.faces.len() && mesh.validate().is_ok() {
        p.position(analysis::centroid(mesh, f as usize))
    } else {
        p
    }
}

fn edge_place(mesh: &Mesh, code: u32) -> Place {
    let p = Place::default().face(code / 3).edge(code % 3);
    if ((code / 3) as usize) < mesh.faces.len() {
        p.position(analysis::edge_midpoint(mesh, code))
    } else {
        p
    }
}

/// Every finding for a walkmesh: structure first (tables, indices, tree, adjacency, edges,
/// perimeters), then geometry (degenerate, duplicate, non-manifold, downward, T-junctions,
/// cracks, overlaps, small islands, stored normals/planes and adjacency against geometry).
///
/// `Error` only where the bytes prove the walkmesh broken (an index past its table, a tree that
/// loses faces or has boxes that miss them, no tree, perimeter loops that do not cover the edge
/// table); everything else is a warning. The evidence per code is in `docs/checks.md`.
pub fn check_bwm(bwm: &Bwm) -> Vec<Finding> {
    cap_per_code(check_bwm_all(bwm), MAX_PER_CODE)
}

/// At most this many findings of one code are listed; the rest are counted in one more
/// finding of the same code.
pub const MAX_PER_CODE: usize = 100;

/// Keeps the first `max` findings of each code and adds, for a code with more, one finding
/// (same code and severity) that counts the rest.
pub fn cap_per_code(findings: Vec<Finding>, max: usize) -> Vec<Finding> {
    // Per code: how many, and the first finding not listed (its place marks the rest).
    let mut seen: std::collections::HashMap<&'static str, (usize, Option<Finding>)> =
        std::collections::HashMap::new();
    let mut out = Vec::with_capacity(findings.len().min(16 * max));
    for f in findings {
        let e = seen.entry(f.code).or_insert((0, None));
        e.0 += 1;
        if e.0 <= max {
            out.push(f);
        } else if e.1.is_none() {
            e.1 = Some(f);
        }
    }
    let mut extra: Vec<_> = seen
        .into_iter()
        .filter_map(|(_, (n, first))| Some((n, first?)))
        .collect();
    extra.sort_by_key(|(_, f)| f.code);
    for (n, first) in extra {
        let message = format!(
            "{} more `{}` findings not listed, the first of them here (the first {max} are listed)",
            n - max,
            first.code
        );
        out.push(Finding { message, ..first });
    }
    out
}

/// Every finding of [`check_bwm`], uncapped.
pub fn check_bwm_all(bwm: &Bwm) -> Vec<Finding> {
    let mut out = Vec::new();
    let mesh = to_mesh(bwm);
    let nf = bwm.faces.len();
    let area = bwm.walkmesh_type == WalkmeshType::Area;

    // --- Tables and indices -------------------------------------------------------------
    if bwm.normals.len() != nf || bwm.distances.len() != nf {
        out.push(Finding::error(
            "bwm-table-length",
            Place::default().item("normals"),
            format!(
                "{nf} faces but {} normals and {} planar distances (one each per face)",
                bwm.normals.len(),
                bwm.distances.len()
            ),
        ));
    }
    if let Err(e) = mesh.validate() {
        let place = match e {
            areakit_geometry::MeshError::VertexIndex { face, .. } => Place::default()
                .face(face as u32)
                .at(bwm.record_offset(Table::Faces, face, 0)),
            areakit_geometry::MeshError::NotFinite { vertex } => Place::default()
                .item(format!("vertices[{vertex}]"))
                .at(bwm.record_offset(Table::Vertices, vertex, 0)),
            _ => Place::default(),
        };
        out.push(Finding::error("bwm-vertex-index", place, e.to_string()));
        return out; // geometry checks need valid indices
    }

    // --- Walkable faces first -------------------------------------------------------------
    let walkable_prefix = mesh.walkable.iter().take_while(|w| **w).count();
    let walkable_total = mesh.walkable_count();
    if walkable_prefix != walkable_total {
        let f = walkable_prefix
            + mesh.walkable[walkable_prefix..]
                .iter()
                .position(|w| *w)
                .unwrap_or(0);
        out.push(Finding::warning(
            "bwm-walkable-not-first",
            face_place(&mesh, f as u32),
            format!(
                "walkable face {f} comes after non-walkable face {walkable_prefix}: every tool \
                 writes walkable faces first (readers map adjacency records to the walkable faces \
                 in file order)"
            ),
        ));
    }
    let nadj = bwm.adjacency.len();
    if area && nadj != walkable_total {
        let msg =
            format!("{nadj} adjacency records but {walkable_total} faces with walkable materials");
        if nadj < walkable_total {
            out.push(Finding::warning(
                "bwm-walkable-count",
                Place::default().item("adjacency"),
                format!("{msg}: the last walkable faces have no adjacency record (no neighbours)"),
            ));
        } else {
            out.push(Finding::warning(
                "bwm-walkable-count",
                Place::default().item("adjacency"),
                format!("{msg}: the extra records describe non-walkable faces"),
            ));
        }
    }

    // --- Adjacency ------------------------------------------------------------------------
    let w = nadj.min(nf);
    let mut adj_ok = true;
    for (f, a) in bwm.adjacency.iter().enumerate().take(w) {
        for (k, &v) in a.iter().enumerate() {
            if v == NONE {
                continue;
            }
            if v < 0 || v as usize >= w * 3 {
                adj_ok = false;
                // An index past the face table names no face at all: a reader following it
                // reads out of bounds. An edge of a face without an adjacency record is only
                // suspicious.
                let out_of_table = v < 0 || v as usize >= nf * 3;
                let msg = if out_of_table {
                    format!("adjacency {v} is neither -1 nor an edge of the {nf} faces")
                } else {
                    format!(
                        "adjacency {v} names an edge of face {}, which is not one of the {w} walkable faces",
                        v / 3
                    )
                };
                let place = edge_place(&mesh, (f * 3 + k) as u32).at(bwm.record_offset(
                    Table::Adjacency,
                    f,
                    4 * k,
                ));
                out.push(if out_of_table {
                    Finding::error("bwm-adjacency-index", place, msg)
                } else {
                    Finding::warning("bwm-adjacency-index", place, msg)
                });
                continue;
            }
            let back = bwm.adjacency[v as usize / 3][v as usize % 3];
            if back != (f * 3 + k) as i32 {
                out.push(Finding::warning(
                    "bwm-adjacency-asymmetric",
                    edge_place(&mesh, (f * 3 + k) as u32),
                    format!(
                        "face {f} edge {k} points to {v} (face {} edge {}), which points back to {back}",
                        v / 3,
                        v % 3
                    ),
                ));
            }
        }
    }
    if adj_ok {
        for (f, k, stored, expected) in analysis::adjacency_mismatches(&mesh, &bwm.adjacency) {
            out.push(Finding::warning(
                "bwm-adjacency-geometry",
                edge_place(&mesh, f * 3 + k),
                format!("stored adjacency {stored} but the shared vertices give {expected}"),
            ));
        }
    }

    // --- Edges and perimeters ---------------------------------------------------------------
    if area {
        check_edges(bwm, &mesh, w, adj_ok, &mut out);
    }

    // --- AABB tree ----------------------------------------------------------------------------
    let nodes = nodes_of(bwm);
    if area {
        check_tree(bwm, &mesh, &nodes, &mut out);
    }

    // --- Geometry -----------------------------------------------------------------------------
    check_geometry(bwm, &mesh, &nodes, &mut out);
    out
}

fn check_edges(bwm: &Bwm, mesh: &Mesh, w: usize, adj_ok: bool, out: &mut Vec<Finding>) {
    let ne = bwm.edges.len();
    let mut listed = vec![false; w * 3];
    let mut edges_ok = true;
    for (i, e) in bwm.edges.iter().enumerate() {
        let code = e.edge as usize;
        if code >= w * 3 {
            edges_ok = false;
            // Past the face table: no face has this edge (an out-of-bounds read for a reader
            // resolving it). An edge of a face without adjacency is only suspicious.
            let nf = mesh.faces.len();
            let place = Place::default()
                .item(format!("edges[{i}]"))
                .edge(i as u32)
                .at(bwm.record_offset(Table::Edges, i, 0));
            out.push(if code >= nf * 3 {
                Finding::error(
                    "bwm-edge-index",
                    place,
                    format!("edge {code} is not an edge of the {nf} faces"),
                )
            } else {
                Finding::warning(
                    "bwm-edge-index",
                    place,
                    format!("edge {code} is not an edge of the {w} walkable faces"),
                )
            });
            continue;
        }
        if listed[code] {
            out.push(Finding::warning(
                "bwm-edge-duplicate",
                edge_place(mesh, code as u32).item(format!("edges[{i}]")),
                format!("edge {code} is listed twice"),
            ));
        }
        listed[code] = true;
        if adj_ok && bwm.adjacency[code / 3][code % 3] != NONE {
            out.push(Finding::warning(
                "bwm-edge-not-boundary",
                edge_place(mesh, code as u32).item(format!("edges[{i}]")),
                format!(
                    "edge {code} is listed as a boundary edge but has neighbour {}",
                    bwm.adjacency[code / 3][code % 3]
                ),
            ));
        }
        if e.transition < -1 {
            out.push(Finding::warning(
                "bwm-edge-transition",
                edge_place(mesh, code as u32).item(format!("edges[{i}]")),
                format!("transition {} is neither -1 nor a room index", e.transition),
            ));
        }
    }
    if adj_ok {
        for (code, &seen) in listed.iter().enumerate() {
            if bwm.adjacency[code / 3][code % 3] == NONE && !seen {
                out.push(Finding::warning(
                    "bwm-edge-missing",
                    edge_place(mesh, code as u32),
                    format!("boundary edge {code} (no neighbour) is missing from the edge table"),
                ));
            }
        }
    }
    // Perimeters.
    let p = &bwm.perimeters;
    if ne > 0 && p.is_empty() {
        out.push(Finding::error(
            "bwm-perimeter",
            Place::default().item("perimeters"),
            format!("{ne} edges but no perimeter loops: the engine cannot walk the boundary"),
        ));
    } else if !p.is_empty() {
        let ascending = p.windows(2).all(|w| w[0] < w[1]) && p[0] > 0;
        if !ascending || *p.last().unwrap_or(&0) as usize != ne {
            out.push(Finding::error(
                "bwm-perimeter",
                Place::default().item("perimeters"),
                format!(
                    "perimeter ends {:?} must ascend from 1 and end at the edge count {ne}",
                    &p[..p.len().min(8)]
                ),
            ));
        } else if edges_ok {
            let mut start = 0usize;
            for (li, &end) in p.iter().enumerate() {
                let end = end as usize;
                for i in start..end {
                    let next = if i + 1 < end { i + 1 } else { start };
                    let (_, v) = edge_vertices(mesh, bwm.edges[i].edge);
                    let (u, _) = edge_vertices(mesh, bwm.edges[next].edge);
                    if v != u {
                        out.push(Finding::warning(
                            "bwm-perimeter-loop",
                            edge_place(mesh, bwm.edges[i].edge).item(format!("edges[{i}]")),
                            format!(
                                "loop {li}: edge {i} ends at vertex {v} but the next edge starts at vertex {u}"
                            ),
                        ));
                        break;
                    }
                }
                start = end;
            }
        }
    }
}

fn check_tree(
    bwm: &Bwm,
    mesh: &Mesh,
    nodes: &[areakit_geometry::AabbNode],
    out: &mut Vec<Finding>,
) {
    let nf = mesh.faces.len();
    if nodes.is_empty() {
        if nf > 0 {
            out.push(Finding::error(
                "bwm-aabb-missing",
                Place::default().item("aabb"),
                format!("an area walkmesh with {nf} faces has no AABB tree"),
            ));
        }
        return;
    }
    if bwm.aabb_root != 0 {
        out.push(Finding::warning(
            "bwm-aabb-root",
            Place::offset(0x6C),
            format!("AABB root word is {}, every tool writes 0", bwm.aabb_root),
        ));
    }
    match aabb::check_layout(nodes, nf) {
        Err(TreeProblem::NodeCount { nodes: n, faces }) => {
            // Fewer nodes than a tree of one leaf per face needs: some face has no leaf, or a
            // node lacks a child (out.wok). More: nodes no query reaches.
            let msg = format!(
                "{n} AABB nodes for {faces} faces; a tree with one leaf per face has {}",
                2 * faces - 1
            );
            let place = Place::default().item("aabb");
            out.push(if n < 2 * faces - 1 {
                Finding::error("bwm-aabb-count", place, msg)
            } else {
                Finding::warning("bwm-aabb-count", place, msg)
            });
        }
        Err(TreeProblem::NotPreOrder { node }) => out.push(Finding::warning(
            "bwm-aabb-order",
            Place::default().item(format!("aabb[{node}]")),
            format!("node {node}: the left child is not the next node (the tools write pre-order)"),
        )),
        _ => {}
    }
    let node_at = |node: usize| bwm.record_offset(Table::Aabb, node, 0);
    match aabb::check_usable(mesh, nodes) {
        Ok(()) => {}
        Err(TreeProblem::BoxMissesFace { node, face }) => out.push(Finding::error(
            "bwm-aabb-box",
            face_place(mesh, face as u32)
                .item(format!("aabb[{node}]"))
                .at(node_at(node)),
            format!("node {node}'s box does not contain face {face}: queries there miss the face"),
        )),
        Err(TreeProblem::FaceLeaves { face, leaves }) => out.push(Finding::error(
            "bwm-aabb-tree",
            face_place(mesh, face as u32).item("aabb"),
            format!("face {face} has {leaves} leaves in the AABB tree (needs exactly 1)"),
        )),
        Err(p) => {
            let (node, msg) = tree_problem_message(&p, nodes);
            out.push(Finding::error(
                "bwm-aabb-tree",
                Place::default()
                    .item(format!("aabb[{node}]"))
                    .at(node_at(node)),
                msg,
            ));
        }
    }
    // Planes and the unknown word (per node, first few reported).
    let mut bad_planes = 0;
    for (i, (n, raw)) in nodes.iter().zip(&bwm.aabb_nodes).enumerate() {
        let ok = if n.face >= 0 {
            n.plane == 0 && n.left == NO_CHILD && n.right == NO_CHILD
        } else {
            aabb::plane_axis(n.plane).is_some()
        };
        if !ok {
            bad_planes += 1;
            if bad_planes <= 5 {
                out.push(Finding::warning(
                    "bwm-aabb-plane",
                    Place::default().item(format!("aabb[{i}]")),
                    format!(
                        "node {i}: plane {} (leaves have 0, internal nodes 1/2/4 or 8/16/32)",
                        n.plane
                    ),
                ));
            }
        }
        if raw.unknown != 4 {
            out.push(Finding::warning(
                "bwm-aabb-unknown",
                Place::default().item(format!("aabb[{i}]")),
                format!(
                    "node {i}: the word after the face is {}, every tool writes 4",
                    raw.unknown
                ),
            ));
        }
    }
    if bad_planes > 5 {
        out.push(Finding::warning(
            "bwm-aabb-plane",
            Place::default().item("aabb"),
            format!("{} more nodes with an unexpected plane", bad_planes - 5),
        ));
    }
}

fn check_geometry(
    bwm: &Bwm,
    mesh: &Mesh,
    nodes: &[areakit_geometry::AabbNode],
    out: &mut Vec<Finding>,
) {
    let tol = Tolerances::default();
    for f in analysis::degenerate_faces(mesh, &tol) {
        out.push(Finding::warning(
            "bwm-degenerate-face",
            face_place(mesh, f),
            format!(
                "face {f} has (nearly) zero area ({:.2e} m²){}",
                analysis::face_area(mesh, f as usize),
                if mesh.walkable[f as usize] {
                    ", on the walkable surface"
                } else {
                    ""
                }
            ),
        ));
    }
    for (a, b) in analysis::duplicate_faces(mesh) {
        out.push(Finding::warning(
            "bwm-duplicate-face",
            face_place(mesh, b),
            format!("face {b} has the same corners as face {a}"),
        ));
    }
    for group in analysis::non_manifold_edges(mesh) {
        let c = group[0];
        out.push(Finding::warning(
            "bwm-non-manifold-edge",
            edge_place(mesh, c),
            format!(
                "{} walkable faces share this edge ({}): adjacency can name only one",
                group.len(),
                group
                    .iter()
                    .map(|c| format!("face {} edge {}", c / 3, c % 3))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    for f in analysis::downward_walkable(mesh) {
        out.push(Finding::warning(
            "bwm-walkable-facing-down",
            face_place(mesh, f),
            format!("walkable face {f} faces down (normal z < 0): its winding is reversed"),
        ));
    }
    for (code, v) in analysis::t_junctions(mesh, &tol) {
        out.push(Finding::warning(
            "bwm-t-junction",
            edge_place(mesh, code).position(mesh.vertices[v as usize]),
            format!(
                "vertex {v} lies on boundary edge {} of face {} without splitting it",
                code % 3,
                code / 3
            ),
        ));
    }
    for (a, b) in analysis::cracks(mesh, &tol) {
        out.push(Finding::warning(
            "bwm-crack",
            edge_place(mesh, a),
            format!(
                "boundary edges face {} edge {} and face {} edge {} coincide but are not joined",
                a / 3,
                a % 3,
                b / 3,
                b % 3
            ),
        ));
    }
    let locator = Locator::new(mesh, nodes);
    for (a, b, p) in analysis::overlaps(mesh, &locator, &tol) {
        out.push(Finding::warning(
            "bwm-overlap",
            Place::default().face(a).position(p),
            format!(
                "walkable faces {a} and {b} overlap at nearly the same height (< {} m)",
                tol.overlap_height
            ),
        ));
    }
    for (faces, area) in analysis::walkable_islands(mesh) {
        if area < tol.min_island_area {
            let f = faces[0];
            out.push(Finding::warning(
                "bwm-small-island",
                face_place(mesh, f),
                format!(
                    "a walkable island of {} face(s) and {area:.3} m² is too small to stand on",
                    faces.len()
                ),
            ));
        }
    }
    // Stored normals and planes against the geometry.
    let mut bad_n = Vec::new();
    let mut bad_d = Vec::new();
    for f in 0..mesh
        .faces
        .len()
        .min(bwm.normals.len())
        .min(bwm.distances.len())
    {
        let (n, _) = face_plane(mesh.tri(f));
        if n == [0.0; 3] {
            continue; // degenerate: reported above
        }
        let s = bwm.normals[f];
        if (0..3).any(|k| (s[k] - n[k]).abs() > 1e-3) {
            bad_n.push(f);
            continue;
        }
        let v = mesh.vertices[mesh.faces[f][0] as usize];
        let d = -((s[0] * v[0] + s[1] * v[1]) + s[2] * v[2]);
        if (d - bwm.distances[f]).abs() > 1e-3 * (1.0 + d.abs()) {
            bad_d.push(f);
        }
    }
    for f in bad_n {
        out.push(Finding::warning(
            "bwm-normal-mismatch",
            face_place(mesh, f as u32),
            format!(
                "stored normal {:?} of face {f} differs from the geometry's {:?}",
                bwm.normals[f],
                face_plane(mesh.tri(f)).0
            ),
        ));
    }
    for f in bad_d {
        out.push(Finding::warning(
            "bwm-plane-mismatch",
            face_place(mesh, f as u32),
            format!(
                "stored planar distance {} of face {f} does not put vertex 1 on the plane",
                bwm.distances[f]
            ),
        ));
    }
}
