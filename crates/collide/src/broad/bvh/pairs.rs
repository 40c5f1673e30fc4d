//! Pair finding for the BVH: one tree against itself (every pair once), and
//! the moving tree against the resting one.
//!
//! Both walk pairs of nodes from an explicit stack, split the node with the
//! larger bound, and stack only the pairs whose bounds overlap (tested when
//! the child is read, rather than after the pair waited on the stack); two
//! leaves get the exact box test on the objects' current boxes, or with no
//! boxes given count as a pair when their own bounds overlap (the candidate
//! cache).

use super::tree::{Arena, NONE, Node, area};
use crate::broad::events::pair_key;
use crate::geometry::{Aabb, Vector};

/// What a traversal did: leaf pairs given the exact box test.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Traversal {
    pub(super) tested: u64,
}

/// Stacks the traversals reuse from one step to the next.
#[derive(Clone, Debug, Default)]
pub(super) struct PairScratch {
    pairs: Vec<(u32, u32)>,
    nodes: Vec<u32>,
}

/// Pushes the key of every overlapping pair of objects in `arena` onto
/// `keys` (each pair once, unsorted): pairs whose `boxes` overlap, or with
/// `None`, whose leaves overlap.
pub(super) fn self_pairs<V: Vector>(
    arena: &Arena<V>,
    boxes: Option<&[Aabb<V>]>,
    scratch: &mut PairScratch,
    keys: &mut Vec<u64>,
) -> Traversal {
    let nodes = &arena.nodes;
    // Every internal node's two children against each other: in memory
    // order when every node is in the tree (after a whole build), else
    // found from the root.
    scratch.pairs.clear();
    let mut pair_children = |node: &Node<V>| {
        if !node.is_leaf() {
            let (left, right) = (&nodes[node.left as usize], &nodes[node.right as usize]);
            if left.bound.overlaps(&right.bound) {
                scratch.pairs.push((node.left, node.right));
            }
        }
    };
    if arena.preorder {
        nodes.iter().for_each(&mut pair_children);
    } else {
        scratch.nodes.clear();
        if arena.root != NONE {
            scratch.nodes.push(arena.root);
        }
        while let Some(n) = scratch.nodes.pop() {
            let node = &nodes[n as usize];
            if !node.is_leaf() {
                scratch.nodes.push(node.left);
                scratch.nodes.push(node.right);
            }
            pair_children(node);
        }
    }
    descend(arena, arena, boxes, &mut scratch.pairs, keys)
}

/// Pushes the key of every overlapping pair with one object in `a` and the
/// other in `b` onto `keys` (unsorted), by `boxes` or leaves as
/// [`self_pairs`].
pub(super) fn cross_pairs<V: Vector>(
    a: &Arena<V>,
    b: &Arena<V>,
    boxes: Option<&[Aabb<V>]>,
    scratch: &mut PairScratch,
    keys: &mut Vec<u64>,
) -> Traversal {
    scratch.pairs.clear();
    if a.root != NONE
        && b.root != NONE
        && a.nodes[a.root as usize]
            .bound
            .overlaps(&b.nodes[b.root as usize].bound)
    {
        scratch.pairs.push((a.root, b.root));
    }
    descend(a, b, boxes, &mut scratch.pairs, keys)
}

/// Works off `stack`: pairs of a node of `a` and a node of `b` (which may
/// be the same arena) whose bounds overlap.
fn descend<V: Vector>(
    a: &Arena<V>,
    b: &Arena<V>,
    boxes: Option<&[Aabb<V>]>,
    stack: &mut Vec<(u32, u32)>,
    keys: &mut Vec<u64>,
) -> Traversal {
    let mut done = Traversal::default();
    while let Some((x, y)) = stack.pop() {
        let (nx, ny) = (&a.nodes[x as usize], &b.nodes[y as usize]);
        let split_x = match (nx.is_leaf(), ny.is_leaf()) {
            (true, true) => {
                done.tested += 1;
                let (i, j) = (nx.object, ny.object);
                if boxes.is_none_or(|b| b[i as usize].overlaps(&b[j as usize])) {
                    keys.push(pair_key(i, j));
                }
                continue;
            }
            (true, false) => false,
            (false, true) => true,
            (false, false) => area(&nx.bound) >= area(&ny.bound),
        };
        if split_x {
            for child in [nx.left, nx.right] {
                if a.nodes[child as usize].bound.overlaps(&ny.bound) {
                    stack.push((child, y));
                }
            }
        } else {
            for child in [ny.left, ny.right] {
                if nx.bound.overlaps(&b.nodes[child as usize].bound) {
                    stack.push((x, child));
                }
            }
        }
    }
    done
}
