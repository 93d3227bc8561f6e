//! The fast mode's corridor search: A* over cells (a cell's position is the midpoint of the
//! edge it was entered by; costs are plan distances between those points; the heuristic is
//! the plan distance to the goal). The corridor then gives the path by the funnel
//! ([`super::funnel`]).

use super::cells::Cells;
use super::polyanya::Query;
use super::pool::{CellState, NO_EDGE, NONE, Pool};
use super::result::PathError;
use crate::nav::mesh::NavMesh;

/// One cell of a corridor and the edge (its own index) it was entered by ([`NO_EDGE`] for the
/// first).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Step {
    pub(crate) cell: u32,
    pub(crate) edge: u8,
}

/// A fast-mode queue entry: `f` rounded to `f32` above (non-negative floats order as their
/// bits), the cell below; smaller `f` first, then the lower cell.
#[inline]
fn queue_key(f: f32, c: u32) -> u64 {
    (u64::from(f.max(0.0).to_bits()) << 32) | u64::from(c)
}

/// A* from the start's cell to the goal's: the corridor into `steps`, and the cells taken
/// from the queue.
pub(crate) fn corridor<C: Cells>(
    pool: &mut Pool,
    mesh: &NavMesh,
    cells: &C,
    q: &Query,
    steps: &mut Vec<Step>,
) -> Result<usize, PathError> {
    let stamp = pool.stamp;
    let c0 = q.start_cell;
    pool.cells[c0 as usize] = CellState {
        stamp,
        g: 0.0,
        parent: NONE,
        entry: NO_EDGE,
        closed: false,
    };
    // Single precision throughout: the search only steers (the path is measured
    // afterwards), and the corners are stored in `f32`.
    let (qs, qt) = (q.s.map(|c| c as f32), q.t.map(|c| c as f32));
    let dist32 = |a: [f32; 2], b: [f32; 2]| {
        let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
        (dx * dx + dy * dy).sqrt()
    };
    let vpos = |v: u32| {
        let p = mesh.vertices[v as usize];
        [p.x, p.y]
    };
    pool.cqueue.push(queue_key(dist32(qs, qt), c0));
    let mut expanded = 0usize;
    let mut found = false;
    while let Some(k) = pool.cqueue.pop() {
        let c = k as u32;
        let st = &mut pool.cells[c as usize];
        if st.closed {
            continue;
        }
        st.closed = true;
        let (g, entry) = (st.g, st.entry);
        expanded += 1;
        if c == q.goal {
            found = true;
            break;
        }
        let corners = cells.corners(c);
        let n = corners.len();
        let mid = |i: usize| {
            let (a, b) = (vpos(corners[i]), vpos(corners[(i + 1) % n]));
            [(a[0] + b[0]) * 0.5, (a[1] + b[1]) * 0.5]
        };
        let here = if entry == NO_EDGE {
            qs
        } else {
            mid(entry as usize)
        };
        for i in 0..n {
            let (nb, nb_edge) = cells.across(c, i);
            if nb == NONE {
                continue;
            }
            let ns = pool.cells[nb as usize];
            let seen = ns.stamp == stamp;
            if seen && ns.closed
                || (!q.allowed.is_empty() && q.allowed[cells.component(nb) as usize] != q.stamp)
            {
                continue;
            }
            let m = mid(i);
            let g2 = g + dist32(here, m);
            if seen && ns.g <= g2 {
                continue;
            }
            pool.cells[nb as usize] = CellState {
                stamp,
                g: g2,
                parent: c,
                entry: nb_edge,
                closed: false,
            };
            pool.cqueue.push(queue_key(g2 + dist32(m, qt), nb));
        }
    }
    if !found {
        return Err(PathError::NotFound);
    }
    steps.clear();
    let mut c = q.goal;
    while c != NONE {
        let st = pool.cells[c as usize];
        steps.push(Step {
            cell: c,
            edge: st.entry,
        });
        c = st.parent;
    }
    steps.reverse();
    Ok(expanded)
}
