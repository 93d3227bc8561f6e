//! The node-tree walk both compiled-model codecs share: pre-order with an explicit stack (a
//! hostile file cannot exhaust the thread's stack), a depth bound, cycles refused, and, where
//! the caller allows it, a node block reached from two parents kept as one arena node that two
//! parents list (a real KotOR animation does this; the writer then writes the block once and
//! points both parents at it, as the source does).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::space::{Fail, bad};
use crate::error::DecodeError;

/// The deepest node tree the walk accepts (creature skeletons are about 20 levels deep).
pub(crate) const MAX_DEPTH: usize = 128;

/// A node of a tree arena: its children are indices into the same arena.
pub(crate) trait TreeNode {
    fn children(&self) -> &[u32];
    fn children_mut(&mut self) -> &mut Vec<u32>;
}

/// The parent of every node of an arena (`None` for the root; the last parent where two list
/// the same node).
pub(crate) fn parents<N: TreeNode>(nodes: &[N]) -> Vec<Option<usize>> {
    let mut out = vec![None; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        for &c in n.children() {
            if let Some(slot) = out.get_mut(c as usize) {
                *slot = Some(i);
            }
        }
    }
    out
}

/// The slash-separated path of node `index` of an arena from its root, each node named by
/// `name` (a cycle stops the climb).
pub(crate) fn node_path<N: TreeNode>(
    nodes: &[N],
    index: usize,
    name: impl Fn(&N) -> String,
) -> String {
    let parents = parents(nodes);
    let mut chain = Vec::new();
    let mut at = Some(index);
    while let Some(i) = at {
        if chain.len() > nodes.len() {
            break;
        }
        chain.push(nodes.get(i).map(&name).unwrap_or_default());
        at = parents.get(i).copied().flatten();
    }
    chain.reverse();
    chain.join("/")
}

/// Node arenas reserved from the count words of the headers (a tree read into a reserved arena
/// is not moved as it grows). Hostile words cannot make it allocate much: all the arenas of a
/// file together reserve at most as many nodes as the file's node headers could number.
pub(crate) struct Reserve {
    left: usize,
}

impl Reserve {
    /// For a space of `space_len` bytes whose node headers take `node_header` bytes each.
    pub fn new(space_len: usize, node_header: usize) -> Self {
        Reserve {
            left: space_len / node_header.max(1),
        }
    }

    /// An empty arena with room for `word` nodes, within what is left.
    pub fn arena<T>(&mut self, word: u32) -> Vec<T> {
        let n = (word as usize).min(self.left);
        self.left -= n;
        Vec::with_capacity(n)
    }
}

/// The hash of a node pointer: one multiplication, its high half folded down. Chosen pointers
/// can at worst make the lookups quadratic in the number of nodes, which the file's size
/// bounds; the default hasher's resistance costs a tenth of the decode.
#[derive(Default)]
pub(crate) struct PointerHash(u64);

impl Hasher for PointerHash {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(u32::from(b) ^ (self.0 as u32).rotate_left(8));
        }
    }

    fn write_u32(&mut self, i: u32) {
        self.0 = u64::from(i).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// What a reader supplies to [`read_tree`].
pub(crate) trait TreeReader {
    type Node: TreeNode;
    /// Reads the node at `ptr` at `depth` below the root; returns it and its children's
    /// pointers.
    fn read_node(&mut self, ptr: u32, depth: usize) -> Result<(Self::Node, Vec<u32>), DecodeError>;
    /// `e`, met `depth` below the root, located with the path of the parent node.
    fn locate(&mut self, depth: usize, e: DecodeError) -> DecodeError;
    /// An error of the walk at `ptr` (a model-data offset; both layouts put the model data
    /// after a 12-byte file header), `depth` below the root, located.
    fn walk_error(&mut self, ptr: u32, depth: usize, limit: bool, msg: &str) -> DecodeError {
        let at = u64::from(ptr) + 12;
        let e = if limit {
            DecodeError::limit_at(at, msg)
        } else {
            DecodeError::malformed_at(at, msg)
        };
        self.locate(depth, e)
    }
}

/// How a node block reached a second time is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sharing {
    /// An error (a geometry tree).
    Refused,
    /// One arena node listed by both parents (animation trees).
    Allowed,
}

/// Reads the tree at `root` into `nodes` (pre-order); returns whether a node block was reached
/// from two parents.
pub(crate) fn read_tree<R: TreeReader>(
    r: &mut R,
    root: u32,
    sharing: Sharing,
    nodes: &mut Vec<R::Node>,
) -> Result<bool, DecodeError> {
    let mut index_at: HashMap<u32, u32, BuildHasherDefault<PointerHash>> =
        HashMap::with_capacity_and_hasher(nodes.capacity(), BuildHasherDefault::default());
    let mut path: Vec<u32> = Vec::new();
    let mut shared = false;
    // (pointer, parent index, depth); children pushed in reverse so they pop in order.
    let mut stack = vec![(root, None::<u32>, 0usize)];
    while let Some((ptr, parent, depth)) = stack.pop() {
        path.truncate(depth);
        if depth > MAX_DEPTH {
            let msg = format!("the node tree is deeper than {MAX_DEPTH} levels");
            return Err(r.walk_error(ptr, depth, true, &msg));
        }
        if let Some(&i) = index_at.get(&ptr) {
            if path.contains(&ptr) {
                return Err(r.walk_error(ptr, depth, false, "the node tree has a cycle"));
            }
            if sharing == Sharing::Refused {
                return Err(r.walk_error(
                    ptr,
                    depth,
                    false,
                    "a node reached twice: the node tree has a cycle or a shared node",
                ));
            }
            shared = true;
            if let Some(p) = parent {
                nodes[p as usize].children_mut().push(i);
            }
            continue;
        }
        let (node, kids) = r.read_node(ptr, depth)?;
        let index = nodes.len() as u32;
        index_at.insert(ptr, index);
        path.push(ptr);
        if let Some(p) = parent {
            nodes[p as usize].children_mut().push(index);
        }
        nodes.push(node);
        for &c in kids.iter().rev() {
            stack.push((c, Some(index), depth + 1));
        }
    }
    Ok(shared)
}

/// What a writer supplies to [`write_tree`].
pub(crate) trait TreeWriter {
    type Node: TreeNode;
    /// Writes node `i` of `nodes` whose parent is at `parent` (0 for the root); returns its
    /// offset and its child table's.
    fn write_node(
        &mut self,
        nodes: &[Self::Node],
        i: usize,
        parent: u32,
    ) -> Result<(u32, u32), Fail>;
    /// Writes the word `v` at `at` (a child table slot).
    fn put_word(&mut self, at: u32, v: u32);
}

/// Writes the tree of `nodes` from its root (pre-order, as [`read_tree`] walks it); returns the
/// root's offset. A node listed by two parents is written once (with [`Sharing::Allowed`]).
pub(crate) fn write_tree<W: TreeWriter>(
    w: &mut W,
    nodes: &[W::Node],
    sharing: Sharing,
) -> Result<u32, Fail> {
    if nodes.is_empty() {
        return Err(bad("a node tree needs a root node"));
    }
    let mut at = vec![None::<u32>; nodes.len()];
    let mut path: Vec<usize> = Vec::new();
    let mut root = 0;
    // (node, parent's offset, where the parent's child table wants this node's offset, depth)
    let mut stack = vec![(0usize, 0u32, None::<u32>, 0usize)];
    while let Some((i, parent, slot, depth)) = stack.pop() {
        path.truncate(depth);
        if depth > MAX_DEPTH {
            return Err(bad(format!(
                "node {i}: the tree is deeper than {MAX_DEPTH} levels"
            )));
        }
        let off = match at[i] {
            Some(off) => {
                if sharing == Sharing::Refused || path.contains(&i) {
                    return Err(bad(format!(
                        "node {i} is reached twice (a cycle, or a shared node where none may be)"
                    )));
                }
                off
            }
            None => {
                let (off, table) = w.write_node(nodes, i, parent)?;
                at[i] = Some(off);
                path.push(i);
                for (k, &c) in nodes[i].children().iter().enumerate().rev() {
                    let c = c as usize;
                    if c >= nodes.len() {
                        return Err(bad(format!("node {i} has child {c}, which is not there")));
                    }
                    stack.push((c, off, Some(table + 4 * k as u32), depth + 1));
                }
                off
            }
        };
        match slot {
            Some(s) => w.put_word(s, off),
            None => root = off,
        }
    }
    Ok(root)
}
