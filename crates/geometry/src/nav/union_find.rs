//! Union-find over `u32` ids, as the navigation builders use it: `parent[x] == x` at a root.

/// The root of `x`'s set, halving the path on the way.
pub(crate) fn root(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let p = parent[parent[x as usize] as usize];
        parent[x as usize] = p;
        x = p;
    }
    x
}
