//! NWN compiled models ↔ the format-free geometry: where each node stands (its position and
//! orientation controllers), what the game's compiler derives when it compiles MDL ASCII (face
//! planes, adjacency, bounds, radius, vertex normals, skin bind poses, AABB trees), the faces of
//! the aabb (walkmesh) nodes in model space and as a BWM walkmesh, and moving a model.

use areakit_formats::bwm::Bwm;
use areakit_formats::mdl::nwn::{Compiled, Mesh, Model, Node};
use areakit_formats::mdl::quat::{self, IDENTITY, Quat, conj, mul as qmul, rotate as qrotate};
use areakit_formats::mdl::{Aabb, AabbNode, flags};
use areakit_geometry::model_mesh;

use crate::models::{ModelFace, walkmesh_of_faces};

/// The position controller.
const POSITION: u32 = 8;
/// The orientation controller (x, y, z, w).
const ORIENTATION: u32 = 20;

/// A node's rest position: its position controller's first key.
pub fn rest_position(n: &Node) -> [f32; 3] {
    match n.first_key(POSITION) {
        Some(v) if v.len() >= 3 => [v[0], v[1], v[2]],
        _ => [0.0; 3],
    }
}

/// A node's rest orientation (w, x, y, z): its orientation controller's first key.
pub fn rest_orientation(n: &Node) -> Quat {
    match n.first_key(ORIENTATION) {
        Some(v) if v.len() >= 4 => quat::normalize([v[3], v[0], v[1], v[2]].map(f64::from)),
        _ => IDENTITY,
    }
}

/// Where each geometry node stands in model space: rotation and translation, its ancestors'
/// rest positions and orientations applied.
pub fn world_transforms(m: &Model) -> Vec<(Quat, [f64; 3])> {
    let mut out = vec![(IDENTITY, [0.0; 3]); m.nodes.len()];
    let mut seen = vec![false; m.nodes.len()];
    let mut stack = vec![(0usize, IDENTITY, [0.0f64; 3])];
    while let Some((i, pq, pt)) = stack.pop() {
        let Some(n) = m.nodes.get(i) else { continue };
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        let p = qrotate(pq, rest_position(n).map(f64::from));
        let t = [pt[0] + p[0], pt[1] + p[1], pt[2] + p[2]];
        let q = qmul(pq, rest_orientation(n));
        out[i] = (q, t);
        for &c in &n.children {
            stack.push((c as usize, q, t));
        }
    }
    out
}

/// What the game's compiler derives for a model compiled from NWN MDL ASCII
/// ([`areakit_formats::mdl::nwn::from_ascii`], which keeps only what the text says): face
/// planes, adjacency through shared edge positions, each mesh's bounds, average point and
/// radius, vertex normals from the smoothing groups where the text gave none, the model's
/// bounds and radius, each skin's bind poses (one per node: the node's model-space transform
/// inverted, composed with the skin node's), and the AABB trees the text did not list.
pub fn derive_compiled(c: &mut Compiled) {
    let smoothing = std::mem::take(&mut c.smoothing);
    let m = &mut c.model;
    for (n, groups) in m
        .nodes
        .iter_mut()
        .zip(smoothing.iter().chain(std::iter::repeat(&None)))
    {
        if let Some(mesh) = n.mesh.as_mut() {
            derive_mesh(mesh, groups.as_deref());
        }
    }
    model_bounds(m);
    bind_poses(m);
    for n in &mut m.nodes {
        if let (Some(mesh), Some(aabb)) = (&n.mesh, &mut n.aabb)
            && aabb.tree.is_empty()
            && !mesh.faces.is_empty()
        {
            *aabb = build_aabb(mesh);
        }
    }
}

fn derive_mesh(mesh: &mut Mesh, groups: Option<&[u32]>) {
    let positions = mesh.positions().to_vec();
    let faces: Vec<[u16; 3]> = mesh.faces.iter().map(|f| f.vertices).collect();
    let planes = model_mesh::face_planes(&positions, &faces);
    let adjacent = model_mesh::edge_adjacency(&positions, &faces);
    for ((f, (normal, distance)), adj) in mesh.faces.iter_mut().zip(planes).zip(adjacent) {
        f.normal = normal;
        f.distance = distance;
        f.adjacent = adj;
    }
    if let Some(e) = model_mesh::extent(&positions, &faces) {
        mesh.bounds_min = e.min;
        mesh.bounds_max = e.max;
        mesh.average = e.average;
        mesh.radius = e.radius;
    }
    if let Some(groups) = groups
        && mesh.normals.is_none()
    {
        mesh.normals = Some(model_mesh::vertex_normals(&positions, &faces, groups));
    }
}

/// The model's box (every mesh vertex placed by its node's transform) and radius (half its
/// diagonal), as the compiler writes them.
fn model_bounds(m: &mut Model) {
    let world = world_transforms(m);
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for (i, n) in m.nodes.iter().enumerate() {
        let Some(mesh) = &n.mesh else { continue };
        for p in mesh.positions() {
            let w = qrotate(world[i].0, p.map(f64::from));
            for k in 0..3 {
                let x = (w[k] + world[i].1[k]) as f32;
                lo[k] = lo[k].min(x);
                hi[k] = hi[k].max(x);
            }
        }
    }
    if lo[0].is_finite() {
        m.header.bounds_min = lo;
        m.header.bounds_max = hi;
        let half = (0..3).map(|k| (hi[k] - lo[k]) / 2.0);
        m.header.radius = half.map(|x| x * x).sum::<f32>().sqrt();
    }
}

/// Each skin's bind poses, one per node in node-number order: the node's model-space transform
/// inverted, composed with the skin node's.
fn bind_poses(m: &mut Model) {
    let world = world_transforms(m);
    let count = m.nodes.len();
    let mut by_number = vec![(IDENTITY, [0.0; 3]); count];
    for (i, n) in m.nodes.iter().enumerate() {
        if let Some(slot) = usize::try_from(n.node_number)
            .ok()
            .and_then(|k| by_number.get_mut(k))
        {
            *slot = world[i];
        }
    }
    for (k, n) in m.nodes.iter_mut().enumerate() {
        let Some(s) = n.skin.as_mut() else { continue };
        let (sq, st) = world[k];
        s.qbones.clear();
        s.tbones.clear();
        for &(bq, bt) in &by_number {
            let inv = conj(bq);
            let q = qmul(inv, sq);
            let t = qrotate(inv, [st[0] - bt[0], st[1] - bt[1], st[2] - bt[2]]);
            s.qbones.push(q.map(|c| c as f32));
            s.tbones.push(t.map(|c| c as f32));
        }
        s.constants = vec![[0, 0]; count];
        s.bone_map.resize(count, -1);
    }
}

/// A mesh's AABB tree over its faces, built as the game's compiler builds a walkmesh's.
pub fn build_aabb(mesh: &Mesh) -> Aabb {
    let g = areakit_geometry::Mesh {
        vertices: mesh.positions().to_vec(),
        faces: mesh
            .faces
            .iter()
            .map(|f| f.vertices.map(u32::from))
            .collect(),
        walkable: vec![true; mesh.faces.len()],
    };
    let nodes = areakit_geometry::aabb::build(&g);
    let child = |c: u32| (c != areakit_geometry::NO_CHILD).then_some(c);
    Aabb {
        tree: nodes
            .iter()
            .map(|n| AabbNode {
                min: n.min,
                max: n.max,
                left: child(n.left),
                right: child(n.right),
                face: n.face,
                plane: n.plane,
            })
            .collect(),
    }
}

/// Whether a node is an aabb (walkmesh) node.
pub fn is_walkmesh_node(n: &Node) -> bool {
    n.flags & u32::from(flags::AABB) != 0
}

/// Every face of the model's aabb (walkmesh) nodes, in model space.
pub fn walkmesh_faces(m: &Model) -> Vec<ModelFace> {
    let world = world_transforms(m);
    let mut out = Vec::new();
    for (i, n) in m.nodes.iter().enumerate() {
        let Some(mesh) = n.mesh.as_ref().filter(|_| is_walkmesh_node(n)) else {
            continue;
        };
        let p = mesh.positions();
        let place = |v: u16| {
            let w = qrotate(world[i].0, p[usize::from(v)].map(f64::from));
            [0, 1, 2].map(|k| (w[k] + world[i].1[k]) as f32)
        };
        for (face, f) in mesh.faces.iter().enumerate() {
            if f.vertices.iter().all(|&v| usize::from(v) < p.len()) {
                out.push(ModelFace {
                    node: i,
                    face,
                    corners: f.vertices.map(place),
                    material: f.material,
                });
            }
        }
    }
    out
}

/// The model's walkmesh as a BWM: the faces of its aabb nodes in model space, with their
/// materials, every derived table rebuilt (what `render`, `view`, `query` and `path` use for a
/// tile or placeable). Empty when the model has no aabb node.
pub fn model_walkmesh(m: &Model) -> Result<Bwm, areakit_geometry::MeshError> {
    walkmesh_of_faces(&walkmesh_faces(m))
}
