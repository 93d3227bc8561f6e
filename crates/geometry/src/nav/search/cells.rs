//! The graphs the searches run on: convex cells joined across their edges. The triangles
//! are one such graph, the polygons merged from them ([`crate::nav::poly`]) another; the
//! searches are written once over [`Cells`].

use super::pool::NONE;
use crate::nav::mesh::{NO_TRIANGLE, NavMesh};
use crate::nav::poly::{NO_POLYGON, Polygons};

/// Convex cells (counter-clockwise in plan) joined across their edges, edge `i` running from
/// corner `i` to `i + 1`.
pub(crate) trait Cells {
    /// Number of cells.
    fn count(&self) -> usize;
    /// Cell `c`'s corners, counter-clockwise in plan.
    fn corners(&self, c: u32) -> &[u32];
    /// The cell across edge `e` of `c` and its index of that edge, or `NONE`.
    fn across(&self, c: u32, e: usize) -> (u32, u8);
    /// The cell holding triangle `t` (`NONE` for a triangle without plan area).
    fn of_triangle(&self, t: u32) -> u32;
    /// Whether cell `c`, entered by edge `e`, leads nowhere else (a search does not enter it
    /// unless it holds the goal).
    fn dead_end(&self, c: u32, e: usize) -> bool;
    /// The bridge tree the searches skip dead ends by: per cell its component, per component
    /// its parent and depth ([`crate::nav::poly`]); `None` where there is none.
    fn component(&self, c: u32) -> u32;
    fn tree(&self) -> Option<(&[u32], &[u32])>;
}

/// The triangles of a mesh, with the bridge tree of its polygons when given.
#[derive(Clone, Copy)]
pub(crate) struct Triangles<'a> {
    pub(crate) mesh: &'a NavMesh,
    pub(crate) polygons: Option<&'a Polygons>,
}

impl Cells for Triangles<'_> {
    #[inline]
    fn count(&self) -> usize {
        self.mesh.tris.len()
    }

    #[inline]
    fn corners(&self, c: u32) -> &[u32] {
        &self.mesh.tris[c as usize]
    }

    #[inline]
    fn across(&self, c: u32, e: usize) -> (u32, u8) {
        match self.mesh.links[c as usize][e] {
            NO_TRIANGLE => (NONE, 0),
            l => (l >> 2, (l & 3) as u8),
        }
    }

    #[inline]
    fn of_triangle(&self, t: u32) -> u32 {
        if self.mesh.is_flat(t) { NONE } else { t }
    }

    #[inline]
    fn dead_end(&self, c: u32, e: usize) -> bool {
        let l = self.mesh.links[c as usize];
        l[(e + 1) % 3] == NO_TRIANGLE && l[(e + 2) % 3] == NO_TRIANGLE
    }

    #[inline]
    fn component(&self, c: u32) -> u32 {
        match self.polygons {
            Some(p) => p.comp[p.tri_poly[c as usize] as usize],
            None => 0,
        }
    }

    fn tree(&self) -> Option<(&[u32], &[u32])> {
        self.polygons
            .map(|p| (&p.comp_parent[..], &p.comp_depth[..]))
    }
}

impl Cells for Polygons {
    #[inline]
    fn count(&self) -> usize {
        Polygons::count(self)
    }

    #[inline]
    fn corners(&self, c: u32) -> &[u32] {
        Polygons::corners(self, c)
    }

    #[inline]
    fn across(&self, c: u32, e: usize) -> (u32, u8) {
        let s = self.first[c as usize] as usize + e;
        match self.adj[s] {
            NO_POLYGON => (NONE, 0),
            q => (q, self.adj_edge[s]),
        }
    }

    #[inline]
    fn of_triangle(&self, t: u32) -> u32 {
        self.tri_poly[t as usize]
    }

    #[inline]
    fn dead_end(&self, _: u32, _: usize) -> bool {
        // A polygon with one way out is a leaf of the bridge tree, skipped already.
        false
    }

    #[inline]
    fn component(&self, c: u32) -> u32 {
        self.comp[c as usize]
    }

    fn tree(&self) -> Option<(&[u32], &[u32])> {
        Some((&self.comp_parent, &self.comp_depth))
    }
}

/// Marks with `stamp`, in `allowed`, the components on the bridge-tree path between cells
/// `a` and `b` (all when the cells have no tree): only those can hold a shortest path.
pub(crate) fn allow_path<C: Cells>(cells: &C, allowed: &mut [u32], stamp: u32, a: u32, b: u32) {
    let Some((parent, depth)) = cells.tree() else {
        allowed.iter_mut().for_each(|x| *x = stamp);
        return;
    };
    let (mut a, mut b) = (cells.component(a), cells.component(b));
    while a != b {
        if depth[a as usize] >= depth[b as usize] {
            allowed[a as usize] = stamp;
            a = parent[a as usize];
        } else {
            allowed[b as usize] = stamp;
            b = parent[b as usize];
        }
        if a == NONE || b == NONE {
            return;
        }
    }
    allowed[a as usize] = stamp;
}

/// The number of components of `cells`' bridge tree (1 without one).
pub(crate) fn components<C: Cells>(cells: &C) -> usize {
    cells.tree().map_or(1, |t| t.0.len())
}
