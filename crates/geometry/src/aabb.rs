//! The AABB tree over the faces of a walkmesh: building it, and checking a stored one.
//!
//! Layout (as stored in walkmeshes): nodes in pre-order, root first, the left child of an
//! internal node right after it, `2n - 1` nodes for `n` faces, one leaf per face.

use crate::mesh::{AabbNode, Mesh, NO_CHILD};

mod build;

pub(crate) use build::tri_box;
pub use build::{build_mean_split, build_median_split};

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

/// Builds trees and keeps its working memory (and, through [`TreeBuilder::build_into`], the
/// caller's output) between builds: a program that rebuilds many walkmeshes, or the same one
/// again after an edit, pays for the memory once. The trees are those of [`build_with`].
///
/// ```
/// use areakit_geometry::{Mesh, aabb};
/// let mesh = Mesh {
///     vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]],
///     faces: vec![[0, 1, 2], [1, 3, 2]],
///     walkable: vec![true, true],
/// };
/// let mut builder = aabb::TreeBuilder::new();
/// let mut nodes = Vec::new();
/// builder.build_into(&mesh, aabb::Style::Compiler, &mut nodes);
/// assert_eq!(nodes, aabb::build(&mesh));
/// ```
#[derive(Default)]
pub struct TreeBuilder {
    median: build::MedianScratch,
    mean: build::MeanScratch,
}

impl TreeBuilder {
    /// A builder with no memory yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds the tree of `mesh` in `style` into `out`, replacing its contents (its allocation
    /// is reused).
    pub fn build_into(&mut self, mesh: &Mesh, style: Style, out: &mut Vec<AabbNode>) {
        match style {
            Style::Compiler => build::median_into(&mut self.median, mesh, out),
            Style::PyKotor => build::mean_into(&mut self.mean, mesh, out),
        }
    }

    /// Builds the tree of `mesh` in `style` into a new vector.
    pub fn build(&mut self, mesh: &Mesh, style: Style) -> Vec<AabbNode> {
        let mut out = Vec::new();
        self.build_into(mesh, style, &mut out);
        out
    }
}

/// Builds the tree the way the game's compiler does (the default for new meshes).
pub fn build(mesh: &Mesh) -> Vec<AabbNode> {
    build_median_split(mesh)
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
    build::tri_box(&mesh.tri(f))
}

#[inline]
fn contains(bmin: [f32; 3], bmax: [f32; 3], fmin: [f32; 3], fmax: [f32; 3]) -> bool {
    (0..3).all(|k| bmin[k] <= fmin[k] && fmax[k] <= bmax[k])
}
