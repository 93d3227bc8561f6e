//! The AABB tree over the faces of a walkmesh: building it, and checking a stored one.
//!
//! Layout (as stored in walkmeshes): nodes in pre-order, root first, the left child of an
//! internal node right after it, `2n - 1` nodes for `n` faces, one leaf per face.

use crate::mesh::{AabbNode, Mesh, NO_CHILD};

/// Plane code of a split along `axis` (0, 1, 2) in the positive direction.
pub const fn plane_code(axis: usize) -> u32 {
    1 << axis
}

/// The axis (0, 1, 2) of a plane code (positive or negative), if it is one.
pub const fn plane_axis(plane: u32) -> Option<usize> {
    match plane {
        1 | 8 => Some(0),
        2 | 16 => Some(1),
        4 | 32 => Some(2),
        _ => None,
    }
}

struct Task {
    lo: usize,
    hi: usize,
    parent: u32,
    right: bool,
}

/// Which writer's tree to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Style {
    /// The game's walkmesh compiler: median split along the longest box axis, boxes padded
    /// (min - 0.01, max + 0.0101), plane = the axis and direction from the left to the right
    /// child's box.
    #[default]
    Compiler,
    /// PyKotor's writer: mean split, unpadded boxes, plane `1 << axis` ([`build_mean_split`]).
    PyKotor,
}

/// Padding the compiler subtracts from box minima.
pub const PAD_MIN: f32 = 0.01;
/// Padding the compiler adds to box maxima.
pub const PAD_MAX: f32 = 0.0101;

/// Builds the tree in the given style.
pub fn build_with(mesh: &Mesh, style: Style) -> Vec<AabbNode> {
    match style {
        Style::Compiler => build_median_split(mesh),
        Style::PyKotor => build_mean_split(mesh),
    }
}

/// Builds the tree the way the game's compiler does (the default for new meshes).
pub fn build(mesh: &Mesh) -> Vec<AabbNode> {
    build_median_split(mesh)
}

/// The compiler's tree: for each node the box of its faces' vertices; the longest axis of the
/// box (`x` if no shorter than `y` and `z`, else `y` if no shorter than `z`, else `z`); the
/// faces ordered by centroid `(v1 + v2 + v3) / 3` (double precision) along it, ties by face
/// index; the first half (rounded down) goes left. Boxes are padded by [`PAD_MIN`] /
/// [`PAD_MAX`]. The plane names the axis along which the right child's box centre lies
/// farthest from the left child's, with its sign (`1/2/4` positive, `8/16/32` negative); when
/// the two boxes coincide, the split axis.
pub fn build_median_split(mesh: &Mesh) -> Vec<AabbNode> {
    let n = mesh.faces.len();
    if n == 0 {
        return Vec::new();
    }
    let centre: Vec<[f64; 3]> = (0..n)
        .map(|i| {
            let t = mesh.tri(i);
            [0, 1, 2].map(|k| (f64::from(t[0][k]) + f64::from(t[1][k]) + f64::from(t[2][k])) / 3.0)
        })
        .collect();
    let fbox: Vec<([f32; 3], [f32; 3])> = (0..n).map(|i| face_box(mesh, i)).collect();
    let mut idx: Vec<u32> = (0..n as u32).collect();
    let mut nodes: Vec<AabbNode> = Vec::with_capacity(2 * n - 1);
    let mut axes: Vec<u8> = Vec::with_capacity(2 * n - 1);
    let mut stack = vec![Task {
        lo: 0,
        hi: n,
        parent: NO_CHILD,
        right: false,
    }];
    while let Some(Task {
        lo,
        hi,
        parent,
        right,
    }) = stack.pop()
    {
        let me = nodes.len() as u32;
        if parent != NO_CHILD {
            let p = &mut nodes[parent as usize];
            if right {
                p.right = me;
            } else {
                p.left = me;
            }
        }
        let faces = &mut idx[lo..hi];
        let mut min = [f32::INFINITY; 3];
        let mut max = [f32::NEG_INFINITY; 3];
        for &f in faces.iter() {
            let (a, b) = fbox[f as usize];
            for k in 0..3 {
                min[k] = min[k].min(a[k]);
                max[k] = max[k].max(b[k]);
            }
        }
        let pmin = min.map(|c| c - PAD_MIN);
        let pmax = max.map(|c| c + PAD_MAX);
        if faces.len() == 1 {
            nodes.push(AabbNode {
                min: pmin,
                max: pmax,
                face: faces[0] as i32,
                plane: 0,
                left: NO_CHILD,
                right: NO_CHILD,
            });
            axes.push(0);
            continue;
        }
        let ext = [0, 1, 2].map(|k| max[k] - min[k]);
        let axis = if ext[0] >= ext[1] && ext[0] >= ext[2] {
            0
        } else if ext[1] >= ext[2] {
            1
        } else {
            2
        };
        let mid = faces.len() / 2;
        faces.select_nth_unstable_by(mid, |&a, &b| {
            centre[a as usize][axis]
                .total_cmp(&centre[b as usize][axis])
                .then(a.cmp(&b))
        });
        nodes.push(AabbNode {
            min: pmin,
            max: pmax,
            face: -1,
            plane: plane_code(axis),
            left: NO_CHILD,
            right: NO_CHILD,
        });
        axes.push(axis as u8);
        stack.push(Task {
            lo: lo + mid,
            hi,
            parent: me,
            right: true,
        });
        stack.push(Task {
            lo,
            hi: lo + mid,
            parent: me,
            right: false,
        });
    }
    // Planes from the children's boxes.
    for i in 0..nodes.len() {
        let nd = nodes[i];
        if nd.face >= 0 {
            continue;
        }
        let (l, r) = (nodes[nd.left as usize], nodes[nd.right as usize]);
        let d = [0, 1, 2].map(|k| {
            (f64::from(r.min[k]) + f64::from(r.max[k])) / 2.0
                - (f64::from(l.min[k]) + f64::from(l.max[k])) / 2.0
        });
        let mut a = 0;
        for k in 1..3 {
            if d[k].abs() > d[a].abs() {
                a = k;
            }
        }
        nodes[i].plane = if d[a] > 0.0 {
            1 << a
        } else if d[a] < 0.0 {
            8 << a
        } else {
            plane_code(axes[i] as usize)
        };
    }
    nodes
}

/// PyKotor's tree (the writer of most community walkmeshes).
///
/// Each node splits its faces by comparing their centroids with the mean centroid along the
/// longest side of the node's box (`y` if longer than `x`, then `z` if longer than `y`), trying
/// the next axis when all centroids fall on one side; when no axis separates them the faces
/// are split in half in face order, so every face always gets its leaf.
pub fn build_mean_split(mesh: &Mesh) -> Vec<AabbNode> {
    let n = mesh.faces.len();
    if n == 0 {
        return Vec::new();
    }
    let centre: Vec<[f64; 3]> = (0..n)
        .map(|i| {
            let t = mesh.tri(i);
            let mut c = [0.0; 3];
            for (k, ck) in c.iter_mut().enumerate() {
                *ck = (f64::from(t[0][k]) + f64::from(t[1][k]) + f64::from(t[2][k])) / 3.0;
            }
            c
        })
        .collect();
    let mut idx: Vec<u32> = (0..n as u32).collect();
    let mut scratch: Vec<u32> = Vec::with_capacity(n);
    let mut nodes: Vec<AabbNode> = Vec::with_capacity(2 * n - 1);
    let mut stack = vec![Task {
        lo: 0,
        hi: n,
        parent: NO_CHILD,
        right: false,
    }];
    while let Some(Task {
        lo,
        hi,
        parent,
        right,
    }) = stack.pop()
    {
        let me = nodes.len() as u32;
        if parent != NO_CHILD {
            let p = &mut nodes[parent as usize];
            if right {
                p.right = me;
            } else {
                p.left = me;
            }
        }
        let faces = &mut idx[lo..hi];
        let mut min = [f32::INFINITY; 3];
        let mut max = [f32::NEG_INFINITY; 3];
        let mut sum = [0.0f64; 3];
        for &f in faces.iter() {
            for v in mesh.tri(f as usize) {
                for k in 0..3 {
                    min[k] = min[k].min(v[k]);
                    max[k] = max[k].max(v[k]);
                }
            }
            let c = &centre[f as usize];
            for k in 0..3 {
                sum[k] += c[k];
            }
        }
        if faces.len() == 1 {
            nodes.push(AabbNode {
                min,
                max,
                face: faces[0] as i32,
                plane: 0,
                left: NO_CHILD,
                right: NO_CHILD,
            });
            continue;
        }
        let count = faces.len() as f64;
        let mean = sum.map(|s| s / count);
        let size = [0, 1, 2].map(|k| f64::from(max[k]) - f64::from(min[k]));
        let mut axis = 0;
        if size[1] > size[0] {
            axis = 1;
        }
        if size[2] > size[1] {
            axis = 2;
        }
        let mut mid = None;
        for _ in 0..3 {
            // Stable partition: centroids below the mean first.
            scratch.clear();
            let mut left = 0;
            for j in 0..faces.len() {
                let f = faces[j];
                if centre[f as usize][axis] < mean[axis] {
                    faces[left] = f;
                    left += 1;
                } else {
                    scratch.push(f);
                }
            }
            faces[left..].copy_from_slice(&scratch);
            if left > 0 && left < faces.len() {
                mid = Some(left);
                break;
            }
            axis = (axis + 1) % 3;
        }
        let mid = mid.unwrap_or(faces.len() / 2);
        nodes.push(AabbNode {
            min,
            max,
            face: -1,
            plane: plane_code(axis),
            left: NO_CHILD,
            right: NO_CHILD,
        });
        stack.push(Task {
            lo: lo + mid,
            hi,
            parent: me,
            right: true,
        });
        stack.push(Task {
            lo,
            hi: lo + mid,
            parent: me,
            right: false,
        });
    }
    nodes
}

/// What is wrong with a stored tree, for the first problem found.
#[derive(Debug, Clone, PartialEq)]
pub enum TreeProblem {
    /// The tree is empty but the mesh has faces (or the other way round).
    Empty,
    /// Not `2n - 1` nodes.
    NodeCount {
        /// Nodes stored.
        nodes: usize,
        /// Faces.
        faces: usize,
    },
    /// A child index is out of range, or the node is reached twice (a cycle or shared child).
    BadChild {
        /// The node.
        node: usize,
    },
    /// An internal node lacks a child or a leaf has one; or a leaf names no valid face.
    BadNode {
        /// The node.
        node: usize,
    },
    /// A face has no leaf, or several.
    FaceLeaves {
        /// The face.
        face: usize,
        /// How many leaves name it.
        leaves: usize,
    },
    /// Not in pre-order (left child right after its parent, root at 0).
    NotPreOrder {
        /// The node.
        node: usize,
    },
    /// A node's box does not contain a face below it.
    BoxMissesFace {
        /// The node.
        node: usize,
        /// The face.
        face: usize,
    },
}

/// Checks that a stored tree can answer queries: a proper binary tree from node 0 with one leaf
/// per face and boxes that contain the faces below them. Pre-order and node count are
/// reported separately by [`check_layout`].
pub fn check_usable(mesh: &Mesh, nodes: &[AabbNode]) -> Result<(), TreeProblem> {
    let nf = mesh.faces.len();
    if nodes.is_empty() {
        return if nf == 0 {
            Ok(())
        } else {
            Err(TreeProblem::Empty)
        };
    }
    let mut seen = vec![false; nodes.len()];
    let mut leaves = vec![0usize; nf];
    let mut visit: Vec<usize> = Vec::with_capacity(nodes.len());
    let mut stack: Vec<usize> = vec![0];
    while let Some(i) = stack.pop() {
        if seen[i] {
            return Err(TreeProblem::BadChild { node: i });
        }
        seen[i] = true;
        visit.push(i);
        let n = &nodes[i];
        if n.face >= 0 {
            let f = n.face as usize;
            if f >= nf || n.left != NO_CHILD || n.right != NO_CHILD {
                return Err(TreeProblem::BadNode { node: i });
            }
            leaves[f] += 1;
        } else {
            if n.face != -1 || n.left == NO_CHILD || n.right == NO_CHILD {
                return Err(TreeProblem::BadNode { node: i });
            }
            for c in [n.right, n.left] {
                if c as usize >= nodes.len() {
                    return Err(TreeProblem::BadChild { node: i });
                }
                stack.push(c as usize);
            }
        }
    }
    if let Some((face, &l)) = leaves.iter().enumerate().find(|(_, l)| **l != 1) {
        return Err(TreeProblem::FaceLeaves { face, leaves: l });
    }
    // Bottom-up: the union of the face boxes below each node must lie in its box.
    let mut union: Vec<([f32; 3], [f32; 3], usize)> =
        vec![([f32::INFINITY; 3], [f32::NEG_INFINITY; 3], usize::MAX); nodes.len()];
    for &i in visit.iter().rev() {
        let n = &nodes[i];
        let (umin, umax, witness) = if n.face >= 0 {
            let (a, b) = face_box(mesh, n.face as usize);
            (a, b, n.face as usize)
        } else {
            let (l, r) = (union[n.left as usize], union[n.right as usize]);
            let mut a = l.0;
            let mut b = l.1;
            for k in 0..3 {
                a[k] = a[k].min(r.0[k]);
                b[k] = b[k].max(r.1[k]);
            }
            (a, b, l.2.min(r.2))
        };
        if !contains(n.min, n.max, umin, umax) {
            // Name a face that sticks out.
            let face = first_face_outside(mesh, nodes, i).unwrap_or(witness);
            return Err(TreeProblem::BoxMissesFace { node: i, face });
        }
        union[i] = (umin, umax, witness);
    }
    Ok(())
}

/// The first face below node `i` whose box is not inside the node's box (tree shape checked).
fn first_face_outside(mesh: &Mesh, nodes: &[AabbNode], i: usize) -> Option<usize> {
    let (bmin, bmax) = (nodes[i].min, nodes[i].max);
    let mut stack = vec![i];
    while let Some(j) = stack.pop() {
        let n = &nodes[j];
        if n.face >= 0 {
            let (a, b) = face_box(mesh, n.face as usize);
            if !contains(bmin, bmax, a, b) {
                return Some(n.face as usize);
            }
        } else {
            stack.push(n.right as usize);
            stack.push(n.left as usize);
        }
    }
    None
}

/// Checks the stored layout: `2n - 1` nodes and pre-order with the left child next.
pub fn check_layout(nodes: &[AabbNode], faces: usize) -> Result<(), TreeProblem> {
    if faces > 0 && nodes.len() != 2 * faces - 1 {
        return Err(TreeProblem::NodeCount {
            nodes: nodes.len(),
            faces,
        });
    }
    for (i, n) in nodes.iter().enumerate() {
        if n.face < 0 && n.left as usize != i + 1 {
            return Err(TreeProblem::NotPreOrder { node: i });
        }
    }
    Ok(())
}

/// The box of face `f`.
#[inline]
pub fn face_box(mesh: &Mesh, f: usize) -> ([f32; 3], [f32; 3]) {
    let t = mesh.tri(f);
    let mut min = t[0];
    let mut max = t[0];
    for v in &t[1..] {
        for k in 0..3 {
            min[k] = min[k].min(v[k]);
            max[k] = max[k].max(v[k]);
        }
    }
    (min, max)
}

#[inline]
fn contains(bmin: [f32; 3], bmax: [f32; 3], fmin: [f32; 3], fmax: [f32; 3]) -> bool {
    (0..3).all(|k| bmin[k] <= fmin[k] && fmax[k] <= bmax[k])
}
