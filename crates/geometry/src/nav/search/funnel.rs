//! The funnel algorithm (string pulling): the shortest path through a corridor of cells, from
//! the portals (the edges crossed) between them. The fast mode's A* corridor, and a corridor
//! given from outside (the NWN2 engine's baked route), become paths here.

use super::START;
use super::astar::Step;
use super::cells::Cells;
use super::result::Turn;
use crate::nav::mesh::{NavMesh, cross2, plan};

/// A portal: its left point and vertex, its right point and vertex, seen walking the corridor
/// forward. The start and goal are portals of one point (`START`, `START - 1`).
pub(crate) type Portal = ([f64; 2], u32, [f64; 2], u32);

/// The portals of a corridor of cells: the start, then per step after the first the edge it
/// was entered by (the entered cell's corner `e` on the left, `e + 1` on the right).
pub(crate) fn portals<C: Cells>(
    mesh: &NavMesh,
    cells: &C,
    s: [f64; 2],
    steps: &[Step],
    out: &mut Vec<Portal>,
) {
    out.clear();
    out.push((s, START, s, START));
    for step in &steps[1..] {
        let c = cells.corners(step.cell);
        let e = usize::from(step.edge);
        let (vl, vr) = (c[e], c[(e + 1) % c.len()]);
        out.push((
            plan(mesh.vertices[vl as usize]),
            vl,
            plan(mesh.vertices[vr as usize]),
            vr,
        ));
    }
}

/// The funnel over `portals` (the start's, the corridor's edges; the goal's is added here)
/// from `s` (on vertex `s_vertex`, or `START`) to `t`: the turns after the start, each with the
/// index of the corridor edge before which the path reaches it, into `turns` (the start and
/// the goal not included). A turn at the start's own vertex is none.
pub(crate) fn funnel(
    mesh: &NavMesh,
    portals: &mut Vec<Portal>,
    (s, s_vertex): ([f64; 2], u32),
    t: [f64; 2],
    turns: &mut Vec<Turn>,
) {
    turns.clear();
    // A start lying on the first portals (on the edge of its cell) crosses them where it
    // stands, and a goal on the last ones likewise: they become points, which keeps the
    // funnel from opening at an apex on its own portal's line.
    let on = |p: [f64; 2], (l, _, r, _): Portal| {
        let d = [r[0] - l[0], r[1] - l[1]];
        let u = (p[0] - l[0]) * d[0] + (p[1] - l[1]) * d[1];
        cross2(l, r, p) == 0.0 && u >= 0.0 && u <= d[0] * d[0] + d[1] * d[1]
    };
    let n = portals.len();
    let mut i = 1;
    while i < n && on(s, portals[i]) {
        portals[i] = (s, START, s, START);
        i += 1;
    }
    let mut j = n;
    while j > i && on(t, portals[j - 1]) {
        portals[j - 1] = (t, START - 1, t, START - 1);
        j -= 1;
    }
    portals.push((t, START - 1, t, START - 1));
    let mut push = |v: u32, at: usize| {
        if v < START - 1 && v != s_vertex && turns.last().is_none_or(|l: &Turn| l.0 != v) {
            turns.push((v, mesh.vertices[v as usize], at));
        }
    };
    let (mut apex, mut apex_id) = (s, START);
    let (mut left, mut left_id) = (s, START);
    let (mut right, mut right_id) = (s, START);
    let (mut left_i, mut right_i) = (0usize, 0usize);
    let mut i = 1;
    let n = portals.len();
    while i < n {
        let (pl, pl_id, pr, pr_id) = portals[i];
        // Right leg.
        if cross2(apex, right, pr) >= 0.0 {
            if apex_id == right_id || cross2(apex, left, pr) < 0.0 {
                (right, right_id, right_i) = (pr, pr_id, i);
            } else {
                // The right leg crosses the left: the left point is a turn.
                (apex, apex_id) = (left, left_id);
                push(left_id, left_i - 1);
                (right, right_id, right_i) = (apex, left_id, left_i);
                i = left_i + 1;
                continue;
            }
        }
        // Left leg.
        if cross2(apex, left, pl) <= 0.0 {
            if apex_id == left_id || cross2(apex, right, pl) > 0.0 {
                (left, left_id, left_i) = (pl, pl_id, i);
            } else {
                (apex, apex_id) = (right, right_id);
                push(right_id, right_i - 1);
                (left, left_id, left_i) = (apex, right_id, right_i);
                i = right_i + 1;
                continue;
            }
        }
        i += 1;
    }
}
