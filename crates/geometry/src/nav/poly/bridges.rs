//! The bridge tree of a graph: its bridges (edges whose removal splits their part), the
//! components joined without crossing one, and the tree the bridges make of them.
//!
//! On the polygon graph it prunes the searches ([`super::Polygons`]): a shortest path from the
//! start to the goal stays in the components on the tree path between theirs, since entering
//! another one would mean leaving it by the same bridge, and the part in between could be
//! replaced by a straight piece of that edge. Whole dead-end corridors and rooms behind a
//! single edge are never searched.

use crate::nav::mesh::NO_TRIANGLE;

/// Per node its component, per component its parent in the bridge tree and its depth.
pub(crate) type BridgeTree = (Vec<u32>, Vec<u32>, Vec<u32>);

/// The 2-edge-connected components of a graph given by its edge slots and the tree its bridges
/// make of them (one per connected part, rooted at the component of its lowest node).
///
/// `slots(v)` is node `v`'s range of edge slots; `across(slot)` the node on the other side and
/// the slot that leads back, or `None` for a wall. Parallel edges (two slots joining the same
/// two nodes) are never bridges.
pub(crate) fn bridge_tree(
    n: usize,
    slots: impl Fn(u32) -> std::ops::Range<usize>,
    across: impl Fn(usize) -> Option<(u32, usize)>,
) -> BridgeTree {
    const UNSEEN: u32 = u32::MAX;
    let total = if n == 0 { 0 } else { slots(n as u32 - 1).end };
    let mut tin = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    // The node's own slot of the tree edge it was entered by.
    let mut entry = vec![usize::MAX; n];
    let mut bridge = vec![false; total];
    let mut timer = 0u32;
    // (node, next slot to look at)
    let mut stack: Vec<(u32, usize)> = Vec::new();
    for root in 0..n as u32 {
        if tin[root as usize] != UNSEEN {
            continue;
        }
        tin[root as usize] = timer;
        low[root as usize] = timer;
        timer += 1;
        stack.push((root, slots(root).start));
        while let Some(&mut (t, ref mut k)) = stack.last_mut() {
            let tu = t as usize;
            if *k < slots(t).end {
                let slot = *k;
                *k += 1;
                if slot == entry[tu] {
                    continue;
                }
                let Some((nb, back)) = across(slot) else {
                    continue;
                };
                let nb = nb as usize;
                if tin[nb] == UNSEEN {
                    tin[nb] = timer;
                    low[nb] = timer;
                    timer += 1;
                    entry[nb] = back;
                    stack.push((nb as u32, slots(nb as u32).start));
                } else {
                    low[tu] = low[tu].min(tin[nb]);
                }
            } else {
                stack.pop();
                let e = entry[tu];
                // The parent is across our entry slot.
                if e != usize::MAX
                    && let Some((p, pe)) = across(e)
                {
                    let p = p as usize;
                    low[p] = low[p].min(low[tu]);
                    if low[tu] > tin[p] {
                        bridge[e] = true;
                        bridge[pe] = true;
                    }
                }
            }
        }
    }
    drop(tin);
    drop(low);
    drop(entry);
    // Components: flood fill without crossing bridges.
    let mut comp = vec![NO_TRIANGLE; n];
    let mut ncomp = 0u32;
    let mut queue: Vec<u32> = Vec::new();
    for seed in 0..n {
        if comp[seed] != NO_TRIANGLE {
            continue;
        }
        comp[seed] = ncomp;
        queue.push(seed as u32);
        while let Some(t) = queue.pop() {
            for slot in slots(t) {
                if bridge[slot] {
                    continue;
                }
                if let Some((nb, _)) = across(slot)
                    && comp[nb as usize] == NO_TRIANGLE
                {
                    comp[nb as usize] = ncomp;
                    queue.push(nb);
                }
            }
        }
        ncomp += 1;
    }
    // The bridge tree: components are numbered in order of their lowest node, so a
    // component's parent (reached first from the root) is found by a search over the
    // bridges from each root component.
    let nc = ncomp as usize;
    let mut start = vec![0u32; nc + 1];
    for t in 0..n as u32 {
        for slot in slots(t) {
            if bridge[slot] {
                start[comp[t as usize] as usize + 1] += 1;
            }
        }
    }
    for i in 0..nc {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut adj = vec![0u32; start[nc] as usize];
    for t in 0..n as u32 {
        for slot in slots(t) {
            if bridge[slot]
                && let Some((nb, _)) = across(slot)
            {
                let c = comp[t as usize] as usize;
                adj[fill[c] as usize] = comp[nb as usize];
                fill[c] += 1;
            }
        }
    }
    let mut parent = vec![NO_TRIANGLE; nc];
    let mut depth = vec![u32::MAX; nc];
    for root in 0..nc {
        if depth[root] != u32::MAX {
            continue;
        }
        depth[root] = 0;
        queue.push(root as u32);
        while let Some(c) = queue.pop() {
            let cu = c as usize;
            for &d in &adj[start[cu] as usize..start[cu + 1] as usize] {
                if depth[d as usize] == u32::MAX {
                    depth[d as usize] = depth[cu] + 1;
                    parent[d as usize] = c;
                    queue.push(d);
                }
            }
        }
    }
    (comp, parent, depth)
}
