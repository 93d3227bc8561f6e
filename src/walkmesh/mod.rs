//! Walkmesh operations on BWM files: conversion between [`Bwm`] and the format-free
//! [`Mesh`](areakit_geometry::Mesh), rebuilding derived data, queries, transforms and checks.

use areakit_formats::bwm::{AabbNode, Bwm, Edge, Face, Material, WalkmeshType};
use areakit_geometry::derive as gd;
use areakit_geometry::{self as geom, Mesh, MeshError, NONE};

/// The format-free mesh of a walkmesh: vertices, faces and walkability from the materials.
pub fn to_mesh(bwm: &Bwm) -> Mesh {
    Mesh {
        vertices: bwm.vertices.clone(),
        faces: bwm.faces.iter().map(|f| f.vertices).collect(),
        walkable: bwm.faces.iter().map(|f| f.material.is_walkable()).collect(),
    }
}

/// The per-face-edge transitions stored in the edge table (`[-1; 3]` for faces without any).
/// Edge entries naming a face that does not exist are ignored.
pub fn transitions_of(bwm: &Bwm) -> Vec<[i32; 3]> {
    let mut t = vec![[NONE; 3]; bwm.faces.len()];
    for e in &bwm.edges {
        if let Some(slot) = t.get_mut(e.face() as usize) {
            slot[e.side() as usize] = e.transition;
        }
    }
    t
}

/// The stored AABB tree in the geometry crate's node type.
pub fn nodes_of(bwm: &Bwm) -> Vec<geom::AabbNode> {
    bwm.aabb_nodes
        .iter()
        .map(|n| geom::AabbNode {
            min: n.min,
            max: n.max,
            face: n.face,
            plane: n.plane,
            left: n.left,
            right: n.right,
        })
        .collect()
}

/// Rebuilds every derived table (normals, planar distances, walkable-first order, adjacency,
/// boundary edges and perimeters, AABB tree) from the vertices, faces and materials, keeping
/// the transitions stored in the edge table.
///
/// Placeable and door walkmeshes (type 0) get normals and distances only, like the files of
/// the game's tools. The result is laid out afresh ([`Bwm::source_layout`] is dropped).
pub fn rebuild(bwm: &Bwm) -> Result<Bwm, MeshError> {
    rebuild_with_transitions(bwm, &transitions_of(bwm))
}

/// [`rebuild`] with explicit per-face-edge transitions (`transitions[face][edge]`, `-1` for
/// none; one entry per face of `bwm`, missing entries count as none) — for meshes compiled
/// from ASCII models, where the transitions come with the faces.
pub fn rebuild_with_transitions(bwm: &Bwm, transitions: &[[i32; 3]]) -> Result<Bwm, MeshError> {
    let mesh = to_mesh(bwm);
    let r = gd::rebuild(&mesh, transitions)?;
    Ok(from_rebuilt(bwm, r))
}

/// A walkmesh from a rebuilt mesh: header fields and vertices from `template`, faces in the
/// new order with their materials, derived tables from the rebuild.
fn from_rebuilt(template: &Bwm, r: gd::Rebuilt) -> Bwm {
    let area = template.walkmesh_type == WalkmeshType::Area;
    let faces: Vec<Face> = r
        .order
        .iter()
        .zip(&r.mesh.faces)
        .map(|(&old, &v)| Face {
            vertices: v,
            material: template
                .faces
                .get(old as usize)
                .map_or(Material::NonWalk, |f| f.material),
        })
        .collect();
    let d = r.derived;
    Bwm {
        walkmesh_type: template.walkmesh_type,
        relative_use: template.relative_use,
        absolute_use: template.absolute_use,
        position: template.position,
        vertices: r.mesh.vertices,
        faces,
        normals: d.normals,
        distances: d.distances,
        aabb_nodes: if area {
            d.aabb.iter().map(to_bwm_node).collect()
        } else {
            Vec::new()
        },
        aabb_root: 0,
        adjacency: if area { d.adjacency } else { Vec::new() },
        edges: if area {
            d.edges
                .iter()
                .map(|e| Edge {
                    edge: e.edge,
                    transition: e.transition,
                })
                .collect()
        } else {
            Vec::new()
        },
        perimeters: if area { d.perimeters } else { Vec::new() },
        source_layout: None,
    }
}

fn to_bwm_node(n: &geom::AabbNode) -> AabbNode {
    AabbNode {
        min: n.min,
        max: n.max,
        face: n.face,
        unknown: 4,
        plane: n.plane,
        left: n.left,
        right: n.right,
    }
}
