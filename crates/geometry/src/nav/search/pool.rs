//! The searches' working memory: the node pool, the open list, and the per-vertex and
//! per-cell records of one query, stamped so that a new query starts clean without clearing
//! them.

use super::START;

/// The interval's left end is exactly the cell corner it lies at.
pub(crate) const L_VERT: u8 = 1;
/// The interval's right end is exactly the cell corner it lies at.
pub(crate) const R_VERT: u8 = 2;
/// The root lies on the entry edge itself: the node sees the whole cell.
pub(crate) const COLLINEAR: u8 = 4;
/// A complete path (its `g` is the whole length).
pub(crate) const FINAL: u8 = 8;
/// A sweep node whose landmark bound is still to be taken (when it leaves the queue).
pub(crate) const LAZY_BOUND: u8 = 16;
/// The left ray runs from `ldef` to the root (a ray inherited through a turn), not from the
/// root through `ldef`.
pub(crate) const L_BEHIND: u8 = 32;
/// Likewise for the right ray and `rdef`.
pub(crate) const R_BEHIND: u8 = 64;

/// A Polyanya search node: a root and an interval on an edge of the cell it looks into.
///
/// The interval's ends are kept twice: as positions (`l`, `r`, exact where the end is a
/// cell corner, else rounded), and exactly, as the rays from the root that bound it: each
/// passes through the root and a point `def` (a vertex, or the start), so every decision of
/// the expansion (which side of a ray a corner lies, whether a ray passes through a corner) is
/// the sign of a cross product of exact points.
#[derive(Clone, Copy)]
pub(crate) struct Node {
    /// The interval's left end (seen from the root).
    pub(crate) l: [f64; 2],
    /// The interval's right end.
    pub(crate) r: [f64; 2],
    /// Length from the start to the root (for a final node: the whole length).
    pub(crate) g: f64,
    /// The root: a vertex, or [`START`].
    pub(crate) root: u32,
    /// The cell the node looks into (for a final node: the goal's).
    pub(crate) cell: u32,
    /// The node this one came from ([`NONE`] for the first ones).
    pub(crate) parent: u32,
    /// For collinear nodes: the cell the sweep round the root started from.
    pub(crate) sweep: u32,
    /// The points that fix the left and right rays with the root (see `L_BEHIND`).
    pub(crate) ldef: u32,
    pub(crate) rdef: u32,
    /// The entry edge of `cell` (its index among the cell's edges).
    pub(crate) edge: u8,
    pub(crate) flags: u8,
}

/// "None" for nodes, cells and vertices.
pub(crate) const NONE: u32 = u32::MAX;

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Node(root {}, cell {}.{}, l {:?}, r {:?}, g {}, flags {})",
            if self.root == START {
                -1
            } else {
                i64::from(self.root)
            },
            self.cell,
            self.edge,
            self.l,
            self.r,
            self.g,
            self.flags
        )
    }
}

/// A successor being built: the node and its `f`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Succ {
    pub(crate) node: Node,
    pub(crate) f: f64,
}

/// A queue key: non-negative finite floats order as their bits.
#[inline]
pub(crate) fn key(f: f64) -> u64 {
    f.max(0.0).to_bits()
}

/// An open list: a 4-ary min-heap. Four children per node halve the depth of a binary heap,
/// and a node's children sit side by side (one cache line for `u64` keys), so a pop, the
/// searches' most frequent cost, touches fewer lines.
#[derive(Debug, Clone)]
pub(crate) struct Quad<T> {
    keys: Vec<T>,
}

impl<T> Default for Quad<T> {
    fn default() -> Self {
        Quad { keys: Vec::new() }
    }
}

impl<T: Ord + Copy> Quad<T> {
    pub(crate) fn clear(&mut self) {
        self.keys.clear();
    }

    #[inline]
    pub(crate) fn push(&mut self, key: T) {
        let mut i = self.keys.len();
        self.keys.push(key);
        while i > 0 {
            let parent = (i - 1) / 4;
            let p = self.keys[parent];
            if p <= key {
                break;
            }
            self.keys[i] = p;
            i = parent;
        }
        self.keys[i] = key;
    }

    #[inline]
    pub(crate) fn pop(&mut self) -> Option<T> {
        let last = self.keys.pop()?;
        let n = self.keys.len();
        if n == 0 {
            return Some(last);
        }
        let top = self.keys[0];
        // Move the hole down along the smallest children, then put `last` in it.
        let mut i = 0;
        loop {
            let first = 4 * i + 1;
            if first >= n {
                break;
            }
            let end = (first + 4).min(n);
            let mut best = first;
            let mut bk = self.keys[first];
            for c in first + 1..end {
                let k = self.keys[c];
                if k < bk {
                    best = c;
                    bk = k;
                }
            }
            if bk >= last {
                break;
            }
            self.keys[i] = bk;
            i = best;
        }
        self.keys[i] = last;
        Some(top)
    }
}

/// A cell's state in an A* search over cells: everything one expansion reads or writes about
/// a cell, in one place.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CellState {
    /// The query that last reached it ([`Pool::stamp`]).
    pub(crate) stamp: u32,
    /// Length from the start to the entry point (single precision keeps the record at 16
    /// bytes; it only steers the search, the path's length is measured afterwards).
    pub(crate) g: f32,
    /// The cell it was entered from ([`NONE`] for the start's).
    pub(crate) parent: u32,
    /// The edge it was entered by (its midpoint is the entry point); [`NO_EDGE`] for the
    /// start's cell.
    pub(crate) entry: u8,
    /// Taken from the queue.
    pub(crate) closed: bool,
}

/// [`CellState::entry`] of the start's cell, and a corridor step's edge where it was not
/// entered by one.
pub(crate) const NO_EDGE: u8 = u8::MAX;

/// The working memory of the searches on cells.
#[derive(Debug, Default)]
pub(crate) struct Pool {
    pub(crate) nodes: Vec<Node>,
    /// Polyanya's queue: (`f` key, node).
    pub(crate) heap: Quad<(u64, u32)>,
    /// Per vertex: the best `g` a root was reached with, valid where `vstamp == stamp`.
    vbest: Vec<f64>,
    vstamp: Vec<u32>,
    /// Per bridge-tree component: `stamp` when a query may enter it.
    pub(crate) allowed: Vec<u32>,
    /// The current query's stamp.
    pub(crate) stamp: u32,
    /// Per cell: its A* state; the A* queue (`f` as `f32` bits above, the cell below).
    pub(crate) cells: Vec<CellState>,
    pub(crate) cqueue: Quad<u64>,
    /// One expansion's successors; a sweep's pending nodes; a sweep's events (vertex,
    /// distance, node); a flood's distances per vertex.
    pub(crate) buf: Vec<Succ>,
    pub(crate) stack: Vec<u32>,
    pub(crate) events: Vec<(u32, f64, u32)>,
    pub(crate) fdist: Vec<f64>,
}

impl Pool {
    /// Starts a query over `vertices` vertices, `cells` cells and `comps` components: a fresh
    /// stamp, empty nodes and queues.
    pub(crate) fn prepare(&mut self, vertices: usize, cells: usize, comps: usize) {
        if self.vstamp.len() < vertices {
            self.vstamp.resize(vertices, 0);
            self.vbest.resize(vertices, 0.0);
        }
        if self.allowed.len() < comps {
            self.allowed.resize(comps, 0);
        }
        if self.cells.len() < cells {
            self.cells.resize(cells, CellState::default());
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.vstamp.fill(0);
            self.cells.iter_mut().for_each(|s| s.stamp = 0);
            self.allowed.fill(0);
            self.stamp = 1;
        }
        self.nodes.clear();
        self.heap.clear();
        self.cqueue.clear();
    }

    /// Records `g` for root vertex `v`; false when a shorter way to it is known.
    #[inline]
    pub(crate) fn claim_root(&mut self, v: u32, g: f64) -> bool {
        let i = v as usize;
        if self.vstamp[i] == self.stamp {
            if self.vbest[i] < g {
                return false;
            }
            self.vbest[i] = g;
        } else {
            self.vstamp[i] = self.stamp;
            self.vbest[i] = g;
        }
        true
    }

    /// Whether a node rooted at `v` with `g` is beaten by a shorter way to `v`.
    #[inline]
    pub(crate) fn beaten(&self, v: u32, g: f64) -> bool {
        v != START && self.vstamp[v as usize] == self.stamp && self.vbest[v as usize] < g
    }

    /// Adds a node to the pool and the queue.
    #[inline]
    pub(crate) fn push(&mut self, s: Succ) {
        let i = self.nodes.len() as u32;
        self.nodes.push(s.node);
        self.heap.push((key(s.f), i));
    }
}

#[cfg(test)]
mod tests {
    use super::Quad;

    #[test]
    fn quad_heap_pops_in_order_through_interleaved_pushes() {
        let mut q = Quad::default();
        let mut reference = std::collections::BinaryHeap::new();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut popped = 0;
        for round in 0..5_000u64 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Small keys: many ties, which the packed keys break by their low bits.
            for k in 0..rng % 4 {
                let key = (rng >> 20) % 64 * 8 + k;
                q.push(key);
                reference.push(std::cmp::Reverse(key));
            }
            if round % 3 != 0 {
                assert_eq!(q.pop(), reference.pop().map(|r| r.0));
                popped += 1;
            }
        }
        while let Some(std::cmp::Reverse(k)) = reference.pop() {
            assert_eq!(q.pop(), Some(k));
            popped += 1;
        }
        assert_eq!(q.pop(), None);
        assert!(popped > 5_000);
        q.push(3);
        q.clear();
        assert_eq!(q.pop(), None);
    }
}
