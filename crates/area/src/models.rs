//! Room models (KotOR binary MDL + MDX) against their walkmeshes: rigid transforms and mirrors
//! of a model that keep it consistent with the same transform of its WOK, the model's walkmesh
//! faces in model space, and the comparison of those faces with a WOK.
//!
//! A model is moved without touching its vertices: a translation or a rotation about z changes
//! the placement of the root's children (and their animation keys), so every node keeps its own
//! geometry, AABB tree and MDX rows. A mirror cannot be a rotation, so it is baked into every
//! node: positions, orientations (conjugated by the mirror), vertices, normals, tangent spaces,
//! face winding and adjacency, bounds, skin bind poses, dangly and saber vertices, animation
//! keys; the AABB trees are rebuilt from the mirrored faces.

use areakit_formats::finding::{Finding, Place};
use areakit_formats::mdl::quat::{self, Quat, mul as qmul, rotate as qrotate};
use areakit_formats::mdl::{self, Aabb, AabbNode, Controller, Mesh, Model, Node};
use areakit_geometry::transform::{Axis, Transform};

/// Controller types the transform rewrites (the same on every node type).
const POSITION: u32 = 8;
const ORIENTATION: u32 = 20;

fn f64s(v: [f32; 3]) -> [f64; 3] {
    v.map(f64::from)
}

fn f32s(v: [f64; 3]) -> [f32; 3] {
    v.map(|c| c as f32)
}

/// A walkmesh face of a model (an aabb node's face) in model space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelFace {
    /// The aabb node (index into the model's nodes).
    pub node: usize,
    /// The face within the node's mesh.
    pub face: usize,
    /// Its corners in model space.
    pub corners: [[f32; 3]; 3],
    /// Its material.
    pub material: u32,
}

/// Every face of the model's aabb (walkmesh) nodes, in model space.
pub fn walkmesh_faces(m: &Model) -> Vec<ModelFace> {
    let world = m.world_transforms();
    let mut out = Vec::new();
    for (i, n) in m.nodes.iter().enumerate() {
        let (Some(mesh), Some(_)) = (&n.mesh, &n.aabb) else {
            continue;
        };
        let (q, t) = world[i];
        let place = |v: [f32; 3]| {
            let r = qrotate(q, f64s(v));
            f32s([r[0] + t[0], r[1] + t[1], r[2] + t[2]])
        };
        for (f, face) in mesh.faces.iter().enumerate() {
            let Some(corners) = face
                .vertices
                .iter()
                .map(|&v| mesh.positions.get(usize::from(v)).map(|&p| place(p)))
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            out.push(ModelFace {
                node: i,
                face: f,
                corners: [corners[0], corners[1], corners[2]],
                material: face.material,
            });
        }
    }
    out
}

/// The model's walkmesh as a BWM: the faces of its aabb nodes in model space, with their
/// materials, and every derived table rebuilt (what `render`, `view` and `query` use for a model
/// alone). Empty when the model has no aabb node.
pub fn model_walkmesh(m: &Model) -> Result<areakit_formats::bwm::Bwm, areakit_geometry::MeshError> {
    walkmesh_of_faces(&walkmesh_faces(m))
}

/// A walkmesh of model faces (KotOR's or NWN's aabb nodes, in model space), their materials
/// kept, corners at the same place one vertex (so that faces sharing an edge are neighbours)
/// and every derived table rebuilt. Empty without faces.
pub fn walkmesh_of_faces(
    faces: &[ModelFace],
) -> Result<areakit_formats::bwm::Bwm, areakit_geometry::MeshError> {
    use areakit_formats::bwm::{Bwm, Face, Material};
    let mut ground = Bwm::default();
    let mut index: std::collections::HashMap<[u32; 3], u32> = Default::default();
    for f in faces {
        let vertices = f.corners.map(|c| {
            *index.entry(c.map(f32::to_bits)).or_insert_with(|| {
                ground.vertices.push(c);
                ground.vertices.len() as u32 - 1
            })
        });
        ground.faces.push(Face {
            vertices,
            material: Material::from_id(f.material),
        });
    }
    if ground.faces.is_empty() {
        return Ok(ground);
    }
    crate::walkmesh::rebuild(&ground)
}

/// How far apart two corners may be and still be the same (metres).
pub const MATCH_TOLERANCE: f32 = 0.01;

/// Compares the model's walkmesh faces, placed at `offset`, with a WOK's:
/// `model-walkmesh-mismatch` (warning) for each WOK face no model face matches and each model
/// face no WOK face matches (the first few, then a count), with the face and its position. Faces
/// match when their corners agree within [`MATCH_TOLERANCE`] in any order. A model without aabb
/// nodes gives nothing.
///
/// A game area's WOK is stored in area space: the room model's walkmesh moved to the room's LYT
/// position (`offset`). Kit rooms keep both at the origin.
pub fn walkmesh_mismatch(
    model: &Model,
    wok: &areakit_formats::bwm::Bwm,
    model_name: &str,
    offset: [f32; 3],
) -> Vec<Finding> {
    let mut ours = walkmesh_faces(model);
    for f in &mut ours {
        for c in &mut f.corners {
            *c = [c[0] + offset[0], c[1] + offset[1], c[2] + offset[2]];
        }
    }
    if ours.is_empty() {
        return Vec::new();
    }
    let theirs: Vec<[[f32; 3]; 3]> = wok
        .faces
        .iter()
        .filter_map(|f| {
            let c = f.vertices.map(|v| wok.vertices.get(v as usize).copied());
            Some([c[0]?, c[1]?, c[2]?])
        })
        .collect();
    let key = |c: &[[f32; 3]; 3]| {
        let s = 1.0 / 0.25;
        let m = [
            (c[0][0] + c[1][0] + c[2][0]) / 3.0,
            (c[0][1] + c[1][1] + c[2][1]) / 3.0,
            (c[0][2] + c[1][2] + c[2][2]) / 3.0,
        ];
        m.map(|x| (x * s).floor() as i64)
    };
    let same = |a: &[[f32; 3]; 3], b: &[[f32; 3]; 3]| {
        let close =
            |p: [f32; 3], q: [f32; 3]| (0..3).all(|k| (p[k] - q[k]).abs() <= MATCH_TOLERANCE);
        a.iter().all(|&p| b.iter().any(|&q| close(p, q)))
            && b.iter().all(|&p| a.iter().any(|&q| close(p, q)))
    };
    let mut grid: std::collections::HashMap<[i64; 3], Vec<usize>> = Default::default();
    for (i, c) in theirs.iter().enumerate() {
        grid.entry(key(c)).or_default().push(i);
    }
    let near = |c: &[[f32; 3]; 3]| {
        let k = key(c);
        let mut v = Vec::new();
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    if let Some(list) = grid.get(&[k[0] + dx, k[1] + dy, k[2] + dz]) {
                        v.extend_from_slice(list);
                    }
                }
            }
        }
        v
    };
    let mut matched_wok = vec![false; theirs.len()];
    let mut unmatched_model = Vec::new();
    for f in &ours {
        match near(&f.corners)
            .into_iter()
            .find(|&j| same(&f.corners, &theirs[j]))
        {
            Some(j) => matched_wok[j] = true,
            None => unmatched_model.push(f),
        }
    }
    // A WOK face matched by no model face may still equal one (duplicates): look again.
    for (j, c) in theirs.iter().enumerate() {
        if !matched_wok[j] && ours.iter().any(|f| same(&f.corners, c)) {
            matched_wok[j] = true;
        }
    }
    let mut out = Vec::new();
    const SHOWN: usize = 5;
    let missing: Vec<usize> = (0..theirs.len()).filter(|&j| !matched_wok[j]).collect();
    for &j in missing.iter().take(SHOWN) {
        out.push(Finding::warning(
            "model-walkmesh-mismatch",
            Place::default()
                .face(j as u32)
                .position(centroid(&theirs[j])),
            format!("WOK face {j} has no matching face in the walkmesh of model {model_name}"),
        ));
    }
    for f in unmatched_model.iter().take(SHOWN) {
        out.push(Finding::warning(
            "model-walkmesh-mismatch",
            Place::default()
                .item(format!(
                    "{model_name}/{}",
                    model.node_name(&model.nodes[f.node])
                ))
                .face(f.face as u32)
                .position(centroid(&f.corners)),
            format!(
                "model {model_name}'s walkmesh face {} has no matching face in the WOK",
                f.face
            ),
        ));
    }
    let more = missing.len().saturating_sub(SHOWN) + unmatched_model.len().saturating_sub(SHOWN);
    if more > 0 {
        out.push(Finding::warning(
            "model-walkmesh-mismatch",
            Place::default(),
            format!(
                "{more} more faces differ between model {model_name} and its WOK ({} WOK faces \
                 unmatched, {} model faces unmatched)",
                missing.len(),
                unmatched_model.len()
            ),
        ));
    }
    out
}

/// The model's own findings ([`mdl::validate`]) with their positions in area space: a
/// position a check gives in its node's space (a degenerate face's corner) goes through the
/// node's world transform and the room's LYT `position`, so the finding points where the face
/// stands in the area.
pub fn placed_findings(model: &Model, position: [f32; 3]) -> Vec<Finding> {
    let world = model.world_transforms();
    let paths: std::collections::HashMap<String, usize> = (0..model.nodes.len())
        .map(|i| (model.node_path(i), i))
        .collect();
    let at = f64s(position.map(|c| if c.is_finite() { c } else { 0.0 }));
    mdl::validate(model)
        .into_iter()
        .map(|mut f| {
            let node = f.place.item.as_ref().and_then(|p| paths.get(p)).copied();
            if let (Some(p), Some(i)) = (f.place.position, node) {
                let (q, t) = world.get(i).copied().unwrap_or((quat::IDENTITY, [0.0; 3]));
                let r = qrotate(q, f64s(p));
                f.place.position = Some(f32s([
                    r[0] + t[0] + at[0],
                    r[1] + t[1] + at[1],
                    r[2] + t[2] + at[2],
                ]));
            }
            f
        })
        .collect()
}

/// Where a room model stands in its WOK's space when no layout says it: the offset between the
/// lowest corners of the model's walkmesh faces and of the WOK's vertices (zero for kit rooms,
/// the LYT position for a game area's room). `None` without walkmesh faces or WOK vertices.
pub fn placement_offset(model: &Model, wok: &areakit_formats::bwm::Bwm) -> Option<[f32; 3]> {
    let ours = walkmesh_faces(model);
    let lowest = |pts: &mut dyn Iterator<Item = [f32; 3]>| {
        pts.fold(None, |acc: Option<[f32; 3]>, p| {
            Some(acc.map_or(p, |a| [a[0].min(p[0]), a[1].min(p[1]), a[2].min(p[2])]))
        })
    };
    let a = lowest(&mut ours.iter().flat_map(|f| f.corners))?;
    let used: Vec<[f32; 3]> = wok
        .faces
        .iter()
        .flat_map(|f| f.vertices)
        .filter_map(|v| wok.vertices.get(v as usize).copied())
        .collect();
    let b = lowest(&mut used.into_iter())?;
    Some([b[0] - a[0], b[1] - a[1], b[2] - a[2]])
}

fn centroid(c: &[[f32; 3]; 3]) -> [f32; 3] {
    [0, 1, 2].map(|k| (c[0][k] + c[1][k] + c[2][k]) / 3.0)
}

/// Applies transform steps in order.
pub fn transform(m: &mut Model, steps: &[Transform]) {
    for &t in steps {
        match t {
            Transform::Translate(d) => place_children(m, [1.0, 0.0, 0.0, 0.0], f64s(d)),
            Transform::RotateZ(deg) => {
                let half = deg.to_radians() / 2.0;
                let q = [half.cos(), 0.0, 0.0, half.sin()];
                // Exact quarter turns for the positions (no rounding): the same points as the
                // walkmesh transform gives.
                place_children_with(m, q, |p| t.point(p));
            }
            Transform::Mirror(axis) => mirror(m, axis),
        }
    }
}

fn place_children(m: &mut Model, q: Quat, d: [f64; 3]) {
    place_children_with(m, q, |p| {
        let r = qrotate(q, f64s(p));
        f32s([r[0] + d[0], r[1] + d[1], r[2] + d[2]])
    });
}

/// Moves the root's children by rotation `q` (in the root's frame, which is model space for the
/// identity roots of real files); `point` maps a rest position (rotation, then translation).
fn place_children_with(m: &mut Model, q: Quat, point: impl Fn([f32; 3]) -> [f32; 3]) {
    let Some(root) = m.nodes.first() else { return };
    let children: Vec<usize> = root.children.iter().map(|&c| c as usize).collect();
    let names: Vec<u16> = children
        .iter()
        .filter_map(|&c| m.nodes.get(c).map(|n| n.name_index))
        .collect();
    for &c in &children {
        let Some(n) = m.nodes.get_mut(c) else {
            continue;
        };
        n.position = point(n.position);
        n.orientation = quat32(qmul(q, quat::normalize(n.orientation.map(f64::from))));
        rotate_keys(n, q, false);
    }
    for a in &mut m.animations {
        for n in &mut a.nodes {
            if names.contains(&n.name_index) {
                rotate_keys(n, q, true);
            }
        }
    }
    (m.header.bounds_min, m.header.bounds_max) =
        moved_box(m.header.bounds_min, m.header.bounds_max, &point);
}

/// The box round a model's box `min`-`max` with its eight corners moved by `point`; a box
/// with a side below zero (none) is kept as it is.
pub(crate) fn moved_box(
    min: [f32; 3],
    max: [f32; 3],
    point: &impl Fn([f32; 3]) -> [f32; 3],
) -> ([f32; 3], [f32; 3]) {
    if !min.iter().zip(&max).all(|(a, b)| a <= b) {
        return (min, max);
    }
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for k in 0..8 {
        let c = [0, 1, 2].map(|a| if k >> a & 1 == 0 { min[a] } else { max[a] });
        let p = point(c);
        for a in 0..3 {
            lo[a] = lo[a].min(p[a]);
            hi[a] = hi[a].max(p[a]);
        }
    }
    (lo, hi)
}

fn quat32(q: Quat) -> [f32; 4] {
    q.map(|c| c as f32)
}

/// Rotates a node's position and orientation keys by `q`: position keys of an animation are
/// offsets from the rest position (rotated as vectors); the single geometry key is the rest
/// position itself, set again from the node.
fn rotate_keys(n: &mut Node, q: Quat, animation: bool) {
    let controllers: Vec<Controller> = n.controllers.clone();
    for c in controllers {
        match c.kind {
            POSITION => {
                let width = c.width();
                if width < 3 {
                    continue;
                }
                for r in 0..usize::from(c.rows) {
                    let at = usize::from(c.data_index) + r * width;
                    // Bezier rows hold value and tangents: all vectors.
                    for k in 0..width / 3 {
                        let o = at + 3 * k;
                        let Some(v) = n.controller_data.get(o..o + 3) else {
                            continue;
                        };
                        let v = [v[0], v[1], v[2]];
                        let new = if animation || k > 0 {
                            f32s(qrotate(q, f64s(v)))
                        } else {
                            n.position
                        };
                        n.controller_data[o..o + 3].copy_from_slice(&new);
                    }
                }
            }
            ORIENTATION => map_orientation_keys(n, &c, |k| qmul(q, k)),
            _ => {}
        }
    }
}

/// Rewrites every orientation key of `c` through `f` (keys are stored x, y, z, w; two columns
/// are one compressed quaternion word).
fn map_orientation_keys(n: &mut Node, c: &Controller, f: impl Fn(Quat) -> Quat) {
    let width = c.width();
    for r in 0..usize::from(c.rows) {
        let at = usize::from(c.data_index) + r * width;
        match width {
            4 => {
                let Some(v) = n.controller_data.get(at..at + 4) else {
                    continue;
                };
                let q = f([
                    f64::from(v[3]),
                    f64::from(v[0]),
                    f64::from(v[1]),
                    f64::from(v[2]),
                ]);
                n.controller_data[at..at + 4].copy_from_slice(&[
                    q[1] as f32,
                    q[2] as f32,
                    q[3] as f32,
                    q[0] as f32,
                ]);
            }
            2 => {
                let Some(&bits) = n.controller_data.get(at) else {
                    continue;
                };
                let q = f(quat::decompress(bits.to_bits()));
                n.controller_data[at] = f32::from_bits(quat::compress(q));
            }
            _ => {}
        }
    }
}

/// The mirror of a vector.
pub(crate) fn mv(axis: Axis, v: [f32; 3]) -> [f32; 3] {
    Transform::Mirror(axis).vector(v)
}

/// A rotation conjugated by the mirror: the mirror image of the rotation.
pub(crate) fn mq(axis: Axis, q: Quat) -> Quat {
    match axis {
        Axis::X => [q[0], q[1], -q[2], -q[3]],
        Axis::Y => [q[0], -q[1], q[2], -q[3]],
    }
}

fn mirror(m: &mut Model, axis: Axis) {
    for n in &mut m.nodes {
        mirror_node(n, axis, false);
    }
    for a in &mut m.animations {
        for n in &mut a.nodes {
            mirror_node(n, axis, true);
        }
    }
    let h = &mut m.header;
    mirror_box(axis, &mut h.bounds_min, &mut h.bounds_max);
}

fn mirror_node(n: &mut Node, axis: Axis, animation: bool) {
    n.position = mv(axis, n.position);
    let q = [0, 1, 2, 3].map(|i| f64::from(n.orientation[i]));
    n.orientation = quat32(mq(axis, q));
    for c in n.controllers.clone() {
        match c.kind {
            POSITION => {
                let width = c.width();
                for r in 0..usize::from(c.rows) {
                    let at = usize::from(c.data_index) + r * width;
                    for k in 0..width / 3 {
                        let o = at + 3 * k;
                        if let Some(v) = n.controller_data.get(o..o + 3) {
                            let v = mv(axis, [v[0], v[1], v[2]]);
                            n.controller_data[o..o + 3].copy_from_slice(&v);
                        }
                    }
                }
            }
            ORIENTATION => map_orientation_keys(n, &c, |k| mq(axis, k)),
            _ => {}
        }
    }
    if animation {
        return;
    }
    if let Some(mesh) = &mut n.mesh {
        mirror_mesh(mesh, axis);
    }
    if let Some(s) = &mut n.skin {
        for q in &mut s.qbones {
            *q = quat32(mq(axis, q.map(f64::from)));
        }
        for t in &mut s.tbones {
            *t = mv(axis, *t);
        }
    }
    if let Some(d) = &mut n.dangly {
        for v in &mut d.vertices {
            *v = mv(axis, *v);
        }
    }
    if let Some(s) = &mut n.saber {
        for v in s.positions.iter_mut().chain(s.normals.iter_mut()) {
            *v = mv(axis, *v);
        }
    }
    if let (Some(mesh), Some(aabb)) = (&n.mesh, &mut n.aabb) {
        *aabb = rebuild_aabb(mesh);
    }
}

fn mirror_mesh(mesh: &mut Mesh, axis: Axis) {
    for v in mesh.positions.iter_mut() {
        *v = mv(axis, *v);
    }
    let vd = &mut mesh.vertices;
    for v in vd.positions.iter_mut().chain(vd.normals.iter_mut()) {
        *v = mv(axis, *v);
    }
    for set in &mut vd.tangents {
        for t in set.iter_mut() {
            for j in 0..3 {
                let v = mv(axis, [t[3 * j], t[3 * j + 1], t[3 * j + 2]]);
                t[3 * j..3 * j + 3].copy_from_slice(&v);
            }
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

/// Mirrors a mesh's faces (planes, winding, adjacency), index lists, box and average point
/// across `axis` (both games' meshes keep these alike).
pub(crate) fn mirror_faces(
    axis: Axis,
    faces: &mut [mdl::Face],
    index_lists: &mut [Vec<u16>],
    [min, max, average]: [&mut [f32; 3]; 3],
) {
    for f in faces {
        f.normal = mv(axis, f.normal);
        f.vertices.swap(1, 2);
        // Edges (a,b), (b,c), (c,a) become (a,c), (c,b), (b,a).
        f.adjacent.swap(0, 2);
    }
    for list in index_lists {
        for tri in list.chunks_exact_mut(3) {
            tri.swap(1, 2);
        }
    }
    mirror_box(axis, min, max);
    *average = mv(axis, *average);
}

/// Mirrors a box across `axis`.
pub(crate) fn mirror_box(axis: Axis, min: &mut [f32; 3], max: &mut [f32; 3]) {
    let k = match axis {
        Axis::X => 0,
        Axis::Y => 1,
    };
    (min[k], max[k]) = (-max[k], -min[k]);
}

/// What the game's compiler derives from the geometry of a model compiled from MDL ASCII
/// (`mdl::from_ascii`, which keeps only what the text says): each mesh's face planes,
/// adjacency (through shared edge positions), bounds, average point, radius and area
/// ([`areakit_geometry::model_mesh`]), the model's bounds and radius when the text gave none,
/// and the AABB trees the text did not list ([`build_missing_aabb_trees`]).
pub fn derive_compiled(m: &mut Model) {
    use areakit_geometry::model_mesh;
    for n in &mut m.nodes {
        let Some(mesh) = n.mesh.as_mut() else {
            continue;
        };
        let faces: Vec<[u16; 3]> = mesh.faces.iter().map(|f| f.vertices).collect();
        let planes = model_mesh::face_planes(&mesh.positions, &faces);
        let adjacent = model_mesh::edge_adjacency(&mesh.positions, &faces);
        for ((f, (normal, distance)), adj) in mesh.faces.iter_mut().zip(planes).zip(adjacent) {
            f.normal = normal;
            f.distance = distance;
            f.adjacent = adj;
        }
        if let Some(e) = model_mesh::extent(&mesh.positions, &faces) {
            mesh.bounds_min = e.min;
            mesh.bounds_max = e.max;
            mesh.average = e.average;
            mesh.radius = e.radius;
            mesh.total_area = e.area;
        }
    }
    let h = &m.header;
    if h.bounds_min == [0.0; 3] && h.bounds_max == [0.0; 3] {
        model_bounds(m);
    }
    if m.header.radius == 0.0 {
        let half = (0..3).map(|k| (m.header.bounds_max[k] - m.header.bounds_min[k]) / 2.0);
        m.header.radius = half.map(|x| x * x).sum::<f32>().sqrt();
    }
    build_missing_aabb_trees(m);
}

/// The model's box: every mesh vertex placed by its node's model-space transform.
fn model_bounds(m: &mut Model) {
    let world = m.world_transforms();
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for (i, n) in m.nodes.iter().enumerate() {
        let Some(mesh) = &n.mesh else { continue };
        for p in &mesh.positions {
            let w = qrotate(world[i].0, f64s(*p));
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
    }
}

/// Builds the tree of every aabb node whose tree is empty (a model compiled from MDL ASCII
/// without `aabb` rows) with [`rebuild_aabb`].
pub fn build_missing_aabb_trees(m: &mut Model) {
    for n in &mut m.nodes {
        if let (Some(mesh), Some(aabb)) = (&n.mesh, &mut n.aabb)
            && aabb.tree.is_empty()
            && !mesh.faces.is_empty()
        {
            *aabb = rebuild_aabb(mesh);
        }
    }
}

/// A model's AABB tree over its mesh's faces, built as the game's walkmesh compiler builds a
/// WOK's (pre-order, one leaf per face).
pub fn rebuild_aabb(mesh: &Mesh) -> Aabb {
    aabb_of_faces(&mesh.positions, &mesh.faces)
}

/// An AABB tree over `faces` of `positions`, as the game's walkmesh compiler builds one
/// (pre-order, one leaf per face); both games' compiled models use it. A face naming a vertex
/// the mesh does not have (a broken file, which `check` reports) leaves no tree at all: there
/// is no box to give it.
pub fn aabb_of_faces(positions: &[[f32; 3]], faces: &[mdl::Face]) -> Aabb {
    if faces.iter().any(|f| {
        f.vertices
            .iter()
            .any(|&v| usize::from(v) >= positions.len())
    }) {
        return Aabb { tree: Vec::new() };
    }
    let g = areakit_geometry::Mesh {
        vertices: positions.to_vec(),
        faces: faces.iter().map(|f| f.vertices.map(u32::from)).collect(),
        walkable: vec![true; faces.len()],
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

/// Whether `mdl::Model` node `i` is an aabb node (for callers listing walkmesh nodes).
pub fn is_walkmesh_node(n: &Node) -> bool {
    n.flags & mdl::flags::AABB != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_face_naming_a_missing_vertex_leaves_no_tree_and_no_panic() {
        let positions = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let face = |vertices| mdl::Face {
            normal: [0.0, 0.0, 1.0],
            distance: 0.0,
            material: 0,
            adjacent: [0xFFFF; 3],
            vertices,
        };
        assert_eq!(aabb_of_faces(&positions, &[face([0, 1, 2])]).tree.len(), 1);
        assert!(
            aabb_of_faces(&positions, &[face([0, 1, 2]), face([0, 1, 7])])
                .tree
                .is_empty()
        );
    }

    #[test]
    fn a_model_finding_gives_its_position_in_the_area() {
        // A degenerate face (two corners the same) in a mesh node moved by (1, 2, 0) under the
        // root, the room at LYT position (100, 50, 3): the finding points at the area position.
        let mut m = crate::visgen::trimesh_model(
            "r",
            &[
                [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
                [[0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.0, 1.0, 0.0]],
            ],
        );
        m.nodes[1].position = [1.0, 2.0, 0.0];
        let f: Vec<Finding> = placed_findings(&m, [100.0, 50.0, 3.0])
            .into_iter()
            .filter(|f| f.code == "mdl-degenerate-face")
            .collect();
        assert_eq!(f.len(), 1, "{f:?}");
        let p = f[0].place.position.unwrap();
        assert!(
            (p[0] - 101.5).abs() < 1e-4 && (p[1] - 52.5).abs() < 1e-4 && (p[2] - 3.0).abs() < 1e-4,
            "{p:?}"
        );
        // Unplaced, the check gives the node's own coordinates.
        let raw = mdl::validate(&m);
        let q = raw
            .iter()
            .find(|f| f.code == "mdl-degenerate-face")
            .unwrap()
            .place
            .position
            .unwrap();
        assert_eq!(q, [0.5, 0.5, 0.0]);
    }
}
