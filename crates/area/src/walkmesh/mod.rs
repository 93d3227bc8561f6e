//! Walkmesh operations on BWM files: conversion between [`Bwm`] and the format-free
//! [`Mesh`], rebuilding derived data, queries, transforms and checks.

pub mod check;

pub use check::check_bwm;

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
/// the transitions stored in the edge table and the AABB style of the stored tree
/// ([`aabb_style_of`]).
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
    rebuild_styled(bwm, transitions, aabb_style_of(bwm))
}

/// [`rebuild_with_transitions`] with an explicit AABB style.
pub fn rebuild_styled(
    bwm: &Bwm,
    transitions: &[[i32; 3]],
    style: AabbStyle,
) -> Result<Bwm, MeshError> {
    let mesh = to_mesh(bwm);
    let r = gd::rebuild(&mesh, transitions, style)?;
    Ok(from_rebuilt(bwm, r))
}

pub use areakit_geometry::aabb::Style as AabbStyle;

/// The writer style of the stored AABB tree: [`AabbStyle::PyKotor`] when the root box is
/// exactly the bounds of the faces' vertices (PyKotor does not pad), else
/// [`AabbStyle::Compiler`] (also for walkmeshes without a tree). Rebuilding keeps the style
/// of the input.
///
/// The bounds are those of the vertices the faces use, the ones a tree encloses: a vertex no
/// face names (a leftover of an editor) lies outside every box, so comparing with the bounds of
/// all vertices would read a rebuilt PyKotor tree as a compiler one, and a second rebuild
/// would pad it (found by the `walkmesh` fuzz target).
pub fn aabb_style_of(bwm: &Bwm) -> AabbStyle {
    match (bwm.aabb_nodes.first(), bwm.face_bounds()) {
        (Some(root), Some((lo, hi))) if root.min == lo && root.max == hi => AabbStyle::PyKotor,
        _ => AabbStyle::Compiler,
    }
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

// -------------------------------------------------------------------------------------------
// Queries
// -------------------------------------------------------------------------------------------

use areakit_geometry::query::{self, FaceFilter, Locator, NearestHit, RayHit};
use areakit_geometry::transform::Transform;

/// A walkmesh prepared for queries: the mesh, its stored tree and materials.
#[derive(Debug, Clone)]
pub struct QueryMesh {
    /// The format-free mesh.
    pub mesh: Mesh,
    /// The stored AABB tree (used when usable, see [`Locator::new`]).
    pub nodes: Vec<geom::AabbNode>,
    /// The material of each face.
    pub materials: Vec<Material>,
}

impl QueryMesh {
    /// Prepares a walkmesh. Fails only on a model with bad vertex indices or lengths.
    pub fn new(bwm: &Bwm) -> Result<Self, MeshError> {
        let mesh = to_mesh(bwm);
        mesh.validate()?;
        Ok(QueryMesh {
            mesh,
            nodes: nodes_of(bwm),
            materials: bwm.faces.iter().map(|f| f.material).collect(),
        })
    }

    /// A locator (uses the stored tree if usable, else builds one).
    pub fn locator(&self) -> Locator<'_> {
        Locator::new(&self.mesh, &self.nodes)
    }
}

/// The answer of `areakit query --at`.
#[derive(Debug, Clone, PartialEq)]
pub struct PointAnswer {
    /// The face at the point, if any.
    pub face: Option<u32>,
    /// Its height at the point.
    pub z: Option<f32>,
    /// Its material.
    pub material: Option<Material>,
    /// Whether it is walkable (false without a face).
    pub walkable: bool,
}

impl serde::Serialize for PointAnswer {
    /// `{"face": i|null, "z": h|null, "material": "name"|null, "walkable": bool}`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut o = s.serialize_struct("PointAnswer", 4)?;
        o.serialize_field("face", &self.face)?;
        o.serialize_field("z", &self.z)?;
        o.serialize_field("material", &self.material.map(|m| m.name()))?;
        o.serialize_field("walkable", &self.walkable)?;
        o.end()
    }
}

/// The answer of `areakit query --ray`.
#[derive(Debug, Clone, PartialEq)]
pub struct RayAnswer {
    /// The hit, if any.
    pub hit: Option<RayHit>,
    /// The material of the face hit.
    pub material: Option<Material>,
    /// Whether the face hit is walkable.
    pub walkable: bool,
}

impl serde::Serialize for RayAnswer {
    /// `{"face": i|null, "distance": d|null, "point": [x,y,z]|null, "material": ..., "walkable": bool}`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut o = s.serialize_struct("RayAnswer", 5)?;
        o.serialize_field("face", &self.hit.map(|h| h.face))?;
        o.serialize_field("distance", &self.hit.map(|h| h.distance))?;
        o.serialize_field("point", &self.hit.map(|h| h.point))?;
        o.serialize_field("material", &self.material.map(|m| m.name()))?;
        o.serialize_field("walkable", &self.walkable)?;
        o.end()
    }
}

impl QueryMesh {
    /// The face at `(x, y)` (walkable faces first; with `z`, the one nearest that height;
    /// else the highest), see [`areakit_geometry::query`]. Prepares a [`Locator`] for this one
    /// query: for many, take [`QueryMesh::locator`] once and ask it.
    pub fn at(&self, x: f32, y: f32, z: Option<f32>) -> PointAnswer {
        let hit = self.locator().face_at(x, y, z, FaceFilter::All);
        self.point_answer(hit)
    }

    fn point_answer(&self, hit: Option<query::PointHit>) -> PointAnswer {
        PointAnswer {
            face: hit.map(|h| h.face),
            z: hit.map(|h| h.z),
            material: hit.and_then(|h| self.materials.get(h.face as usize).copied()),
            walkable: hit.is_some_and(|h| h.walkable),
        }
    }

    /// The nearest face hit by a ray (any face, both sides). One query, as [`QueryMesh::at`].
    pub fn ray(&self, origin: [f32; 3], dir: [f32; 3]) -> RayAnswer {
        let hit = self.locator().ray(origin, dir, FaceFilter::All);
        RayAnswer {
            hit,
            material: hit.and_then(|h| self.materials.get(h.face as usize).copied()),
            walkable: hit.is_some_and(|h| self.mesh.walkable[h.face as usize]),
        }
    }

    /// The nearest point of the walkable surface. One query, as [`QueryMesh::at`].
    pub fn nearest_walkable(&self, p: [f32; 3]) -> Option<NearestHit> {
        self.locator().nearest_walkable(p)
    }
}

/// `areakit query FILE --at X,Y [--z Z]`: the face at a point of a walkmesh.
pub fn query_at(bwm: &Bwm, x: f32, y: f32, z: Option<f32>) -> Result<PointAnswer, MeshError> {
    Ok(QueryMesh::new(bwm)?.at(x, y, z))
}

/// `areakit query FILE --ray X,Y,Z:DX,DY,DZ`: the nearest face hit by a ray.
pub fn query_ray(bwm: &Bwm, origin: [f32; 3], dir: [f32; 3]) -> Result<RayAnswer, MeshError> {
    Ok(QueryMesh::new(bwm)?.ray(origin, dir))
}

/// Several rooms placed in an area, for area-wide queries whose answers name the room.
#[derive(Debug, Clone)]
pub struct Area {
    /// `(room name, offset, prepared mesh)`.
    pub rooms: Vec<(String, [f32; 3], QueryMesh)>,
}

/// An area-wide point answer.
#[derive(Debug, Clone, PartialEq)]
pub struct AreaPointAnswer {
    /// The room hit, if any.
    pub room: Option<String>,
    /// The answer within that room (heights in area space).
    pub answer: PointAnswer,
}

impl Area {
    /// Prepares the rooms: `(name, offset, walkmesh)`; a room's vertices are offset by its
    /// offset in the area.
    pub fn new(rooms: &[(String, [f32; 3], Bwm)]) -> Result<Self, MeshError> {
        let rooms = rooms
            .iter()
            .map(|(n, o, b)| Ok((n.clone(), *o, QueryMesh::new(b)?)))
            .collect::<Result<_, MeshError>>()?;
        Ok(Area { rooms })
    }

    /// Builds the per-room locators once, for many queries.
    pub fn locators(&self) -> Vec<query::Room<'_>> {
        self.rooms
            .iter()
            .map(|(n, o, q)| query::Room {
                name: n.clone(),
                offset: *o,
                locator: q.locator(),
            })
            .collect()
    }

    /// The face at `(x, y)` over all rooms. Prepares every room's locator for this one query:
    /// for many, take [`Area::locators`] once.
    pub fn at(&self, x: f32, y: f32, z: Option<f32>) -> AreaPointAnswer {
        let locs = self.locators();
        match query::area_face_at(&locs, x, y, z, FaceFilter::All) {
            Some(h) => AreaPointAnswer {
                room: Some(h.name),
                answer: self.rooms[h.room].2.point_answer(Some(h.hit)),
            },
            None => AreaPointAnswer {
                room: None,
                answer: PointAnswer {
                    face: None,
                    z: None,
                    material: None,
                    walkable: false,
                },
            },
        }
    }

    /// The nearest ray hit over all rooms: `(room name, hit)`.
    pub fn ray(&self, origin: [f32; 3], dir: [f32; 3]) -> Option<(String, RayHit)> {
        let locs = self.locators();
        query::area_ray(&locs, origin, dir, FaceFilter::All).map(|h| (h.name, h.hit))
    }
}

// -------------------------------------------------------------------------------------------
// Transforms
// -------------------------------------------------------------------------------------------

/// Applies transform steps in order (to the vertices and to the hook and position points),
/// remaps transitions (`(from, Some(to))`, or `None` to clear), then rebuilds every derived
/// table (AABB in the style of the input). Mirrors flip the face winding and carry the edge
/// transitions along.
pub fn transform(
    bwm: &Bwm,
    steps: &[Transform],
    remap: &[(i32, Option<i32>)],
) -> Result<Bwm, MeshError> {
    let mut mesh = to_mesh(bwm);
    mesh.validate()?;
    let mut trans = transitions_of(bwm);
    let mut out = bwm.clone();
    for &t in steps {
        geom::transform::apply(&mut mesh, &mut trans, t);
        for p in out
            .relative_use
            .iter_mut()
            .chain(out.absolute_use.iter_mut())
            .chain(std::iter::once(&mut out.position))
        {
            *p = t.point(*p);
        }
    }
    geom::transform::remap_transitions(&mut trans, remap);
    out.vertices = mesh.vertices;
    for (f, v) in out.faces.iter_mut().zip(&mesh.faces) {
        f.vertices = *v;
    }
    rebuild_styled(&out, &trans, aabb_style_of(bwm))
}

/// A `--remap` pair that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RemapError {
    /// No `=`.
    #[error("expected FROM=TO in {0:?}")]
    Pair(String),
    /// No room index before `=`.
    #[error("expected a room index before '=' in {0:?}")]
    From(String),
    /// Neither a room index nor `none` after `=`.
    #[error("expected a room index or 'none' after '=' in {0:?}")]
    To(String),
}

/// Parses `A=B,C=none` (also `C=-1`) into transition remap pairs.
pub fn parse_remap(s: &str) -> Result<Vec<(i32, Option<i32>)>, RemapError> {
    s.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|pair| {
            let (a, b) = pair
                .split_once('=')
                .ok_or_else(|| RemapError::Pair(pair.to_string()))?;
            let from: i32 = a
                .trim()
                .parse()
                .map_err(|_| RemapError::From(pair.to_string()))?;
            let b = b.trim();
            let to = if b.eq_ignore_ascii_case("none") || b == "-1" {
                None
            } else {
                let to = b.parse::<i32>().ok().filter(|v| *v >= 0);
                Some(to.ok_or_else(|| RemapError::To(pair.to_string()))?)
            };
            Ok((from, to))
        })
        .collect()
}
