//! NWN compiled models ↔ the format-free geometry: where each node stands (its position and
//! orientation controllers), what the game's compiler derives when it compiles MDL ASCII (face
//! planes, adjacency, bounds, radius, vertex normals, skin bind poses, AABB trees), the faces of
//! the aabb (walkmesh) nodes in model space and as a BWM walkmesh, and moving a model.

use areakit_formats::bwm::Bwm;
use areakit_formats::mdl::nwn::{Compiled, Mesh, Model, Node};
use areakit_formats::mdl::quat::{self, IDENTITY, Quat, conj, mul as qmul, rotate as qrotate};
use areakit_formats::mdl::{Aabb, flags};
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
/// box and radius (fixed values: [`model_bounds`]), each skin's bind poses (one per node: the node's model-space transform
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

/// The model's box and radius as NWN's compilers write them: every one of the 108 corpus
/// models holds the box (-5, -5, -1)-(5, 5, 10), whatever its meshes; the radius is 40, or 7
/// for the tiles and creatures of NWN:EE's compiler (the four such corpus models).
fn model_bounds(m: &mut Model) {
    m.header.bounds_min = [-5.0, -5.0, -1.0];
    m.header.bounds_max = [5.0, 5.0, 10.0];
    m.header.radius = if matches!(m.header.classification, 2 | 4) {
        7.0
    } else {
        40.0
    };
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
    crate::models::aabb_of_faces(mesh.positions(), &mesh.faces)
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

/// Applies transform steps in order to an NWN compiled model, as
/// [`crate::models::transform`] does to a KotOR one: a translation or a rotation about z moves
/// the root's children (their position and orientation controllers, a position controller
/// added where a child had none, and the keys of the animation nodes of the same names:
/// NWN's animation positions are absolute); a mirror is baked into every node (keys,
/// vertices, normals, tangents, face winding and adjacency, bounds, bind poses, animated-mesh
/// sets) and the AABB trees are rebuilt.
pub fn transform(m: &mut Model, steps: &[areakit_geometry::transform::Transform]) {
    use areakit_geometry::transform::Transform;
    for &t in steps {
        match t {
            Transform::Translate(d) => {
                place_children(m, IDENTITY, |p| [p[0] + d[0], p[1] + d[1], p[2] + d[2]])
            }
            Transform::RotateZ(deg) => {
                let half = deg.to_radians() / 2.0;
                place_children(m, [half.cos(), 0.0, 0.0, half.sin()], |p| t.point(p));
            }
            Transform::Mirror(axis) => mirror(m, axis),
        }
    }
}

/// Rewrites every key of the controllers of type `kind`: `f` gets each row's values.
fn map_keys(n: &mut Node, kind: u32, mut f: impl FnMut(&mut [f32])) {
    for c in n.controllers.clone() {
        if c.kind != kind {
            continue;
        }
        let width = c.width();
        for r in 0..usize::from(c.rows) {
            let at = usize::from(c.data_index) + r * width;
            if let Some(v) = n.controller_data.get_mut(at..at + width) {
                f(v);
            }
        }
    }
}

/// [`turn_keys`] on a root child, given a position controller first where it has none.
fn move_keys(n: &mut Node, q: Quat, point: &impl Fn([f32; 3]) -> [f32; 3]) {
    if n.first_key(POSITION).is_none() {
        // A child without a position controller stands at its parent's origin: give it one.
        add_key(n, POSITION, &[0.0, 0.0, 0.0]);
    }
    turn_keys(n, q, point);
}

/// Gives a node a one-key controller of `kind` at time 0 with `values`, at the end of its
/// controller data. The header's indices are 16-bit: a node whose data already reaches past
/// them (no compiler writes one) gets none.
fn add_key(n: &mut Node, kind: u32, values: &[f32]) {
    let start = n.controller_data.len();
    let (Ok(time_index), Ok(data_index), Ok(columns)) = (
        u16::try_from(start),
        u16::try_from(start + 1),
        u8::try_from(values.len()),
    ) else {
        return;
    };
    n.controller_data.push(0.0);
    n.controller_data.extend_from_slice(values);
    n.controllers.push(areakit_formats::mdl::nwn::Controller {
        kind,
        rows: 1,
        time_index,
        data_index,
        columns,
        padding: 0,
    });
}

/// Rewrites a node's position keys through `point` (bezier rows: the value moves, the tangents
/// turn by `q`) and its orientation keys through `q ·`.
fn turn_keys(n: &mut Node, q: Quat, point: &impl Fn([f32; 3]) -> [f32; 3]) {
    map_keys(n, POSITION, |v| {
        if v.len() >= 3 {
            let p = point([v[0], v[1], v[2]]);
            v[..3].copy_from_slice(&p);
            for t in v[3..].chunks_exact_mut(3) {
                let r = qrotate(q, [t[0], t[1], t[2]].map(f64::from));
                t.copy_from_slice(&r.map(|c| c as f32));
            }
        }
    });
    map_keys(n, ORIENTATION, |v| {
        if v.len() == 4 {
            let r = qmul(q, [v[3], v[0], v[1], v[2]].map(f64::from));
            v.copy_from_slice(&[r[1] as f32, r[2] as f32, r[3] as f32, r[0] as f32]);
        }
    });
}

/// Moves the root's children (in the root's frame: model space for the identity roots of real
/// files) and their animation keys, and the model's box.
fn place_children(m: &mut Model, q: Quat, point: impl Fn([f32; 3]) -> [f32; 3]) {
    let Some(root) = m.nodes.first() else { return };
    let children: Vec<usize> = root.children.iter().map(|&c| c as usize).collect();
    let names: Vec<String> = children
        .iter()
        .filter_map(|&c| m.nodes.get(c).map(|n| n.name().to_ascii_lowercase()))
        .collect();
    for &c in &children {
        let Some(n) = m.nodes.get_mut(c) else {
            continue;
        };
        if n.first_key(ORIENTATION).is_none() && q != IDENTITY {
            add_key(n, ORIENTATION, &[0.0, 0.0, 0.0, 1.0]);
        }
        move_keys(n, q, &point);
    }
    for a in &mut m.animations {
        for n in &mut a.nodes {
            if names.contains(&n.name().to_ascii_lowercase()) {
                turn_keys(n, q, &point);
            }
        }
    }
    (m.header.bounds_min, m.header.bounds_max) =
        crate::models::moved_box(m.header.bounds_min, m.header.bounds_max, &point);
}

fn mirror(m: &mut Model, axis: areakit_geometry::transform::Axis) {
    use crate::models::{mq, mv};
    let keys = |n: &mut Node| {
        map_keys(n, POSITION, |v| {
            for t in v.chunks_exact_mut(3) {
                t.copy_from_slice(&mv(axis, [t[0], t[1], t[2]]));
            }
        });
        map_keys(n, ORIENTATION, |v| {
            if v.len() == 4 {
                let r = mq(axis, [v[3], v[0], v[1], v[2]].map(f64::from));
                v.copy_from_slice(&[r[1] as f32, r[2] as f32, r[3] as f32, r[0] as f32]);
            }
        });
    };
    for n in &mut m.nodes {
        keys(n);
        if let Some(mesh) = &mut n.mesh {
            mirror_mesh(mesh, axis);
        }
        if let Some(s) = &mut n.skin {
            for q in &mut s.qbones {
                *q = mq(axis, q.map(f64::from)).map(|c| c as f32);
            }
            for t in &mut s.tbones {
                *t = mv(axis, *t);
            }
        }
        if let Some(a) = &mut n.anim {
            for v in a.vertices.iter_mut().flatten() {
                *v = mv(axis, *v);
            }
        }
        if let (Some(mesh), Some(aabb)) = (&n.mesh, &mut n.aabb)
            && !mesh.faces.is_empty()
        {
            *aabb = build_aabb(mesh);
        }
    }
    for a in &mut m.animations {
        for n in &mut a.nodes {
            keys(n);
        }
    }
    let h = &mut m.header;
    crate::models::mirror_box(axis, &mut h.bounds_min, &mut h.bounds_max);
}

fn mirror_mesh(mesh: &mut Mesh, axis: areakit_geometry::transform::Axis) {
    use crate::models::{mirror_faces, mv};
    for v in mesh
        .positions
        .iter_mut()
        .flatten()
        .chain(mesh.normals.iter_mut().flatten())
    {
        *v = mv(axis, *v);
    }
    // NWN:EE tangents (12 bytes per vertex) mirror; the handedness (4 bytes) flips.
    if let Some(t) = &mut mesh.extra[3] {
        for c in t.chunks_exact_mut(12) {
            let f = |i: usize| f32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
            let v = mv(axis, [f(0), f(4), f(8)]);
            for (i, x) in v.iter().enumerate() {
                c[4 * i..4 * i + 4].copy_from_slice(&x.to_le_bytes());
            }
        }
    }
    if let Some(h) = &mut mesh.extra[5] {
        for c in h.chunks_exact_mut(4) {
            let w = -f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            c.copy_from_slice(&w.to_le_bytes());
        }
    }
    mirror_faces(
        axis,
        &mut mesh.faces,
        &mut mesh.index_lists,
        [
            &mut mesh.bounds_min,
            &mut mesh.bounds_max,
            &mut mesh.average,
        ],
    );
}
