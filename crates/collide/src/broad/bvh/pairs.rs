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
use crate::broad::headroom::{keep_headroom, reserve_headroom};
use crate::broad::parallel::{for_each_part, parts_for, split_by_weight};
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
    /// A split traversal's work below the cut, its parts' boundaries and
    /// the parts (see [`all_pairs`]).
    tasks: Vec<Task>,
    bounds: Vec<usize>,
    parts: Vec<PartScratch>,
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
    // Every internal node's two children against each other.
    scratch.pairs.clear();
    if arena.root != NONE {
        pair_children_under(arena, arena.root, &mut scratch.nodes, &mut scratch.pairs);
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
        if nx.is_leaf() && ny.is_leaf() {
            done.tested += 1;
            let (i, j) = (nx.object, ny.object);
            if boxes.is_none_or(|b| b[i as usize].overlaps(&b[j as usize])) {
                keys.push(pair_key(i, j));
            }
            continue;
        }
        split_pair(a, b, x, y, stack);
    }
    done
}

/// Splits the pair of node `x` of `a` and node `y` of `b` (not both
/// leaves): the one with the larger bound, or the one that is not a leaf,
/// pushing onto `stack` its children that overlap the other node (tested
/// here, while the parent's links are at hand).
#[inline(always)]
fn split_pair<V: Vector>(a: &Arena<V>, b: &Arena<V>, x: u32, y: u32, stack: &mut Vec<(u32, u32)>) {
    let (nx, ny) = (&a.nodes[x as usize], &b.nodes[y as usize]);
    let split_x = !nx.is_leaf() && (ny.is_leaf() || area(&nx.bound) >= area(&ny.bound));
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

/// Every overlapping pair of objects not both resting: [`self_pairs`] of
/// `moving` and [`cross_pairs`] of `moving` against `resting`, pushed onto
/// `keys` (unsorted). With 16,384 leaves or more in the moving tree
/// (`PARALLEL_MIN`) and more than one thread, the traversal is cut: the
/// pairs of nodes higher than a cut height are walked on the calling
/// thread, and the work below the cut (each low subtree's own pairs, and
/// pairs of low nodes) is handed out in parts on the thread pool, each
/// into its own keys, appended in part order.
pub(super) fn all_pairs<V: Vector>(
    moving: &Arena<V>,
    resting: &Arena<V>,
    boxes: Option<&[Aabb<V>]>,
    scratch: &mut PairScratch,
    keys: &mut Vec<u64>,
) -> Traversal {
    let leaves = moving.nodes.len().div_ceil(2);
    let split = parts_for(leaves);
    if split <= 1 {
        let own = self_pairs(moving, boxes, scratch, keys);
        let cross = cross_pairs(moving, resting, boxes, scratch, keys);
        return Traversal {
            tested: own.tested + cross.tested,
        };
    }
    // Subtrees at most `cut` high hold at most 2^cut leaves: about 16
    // tasks per part.
    let cut = (leaves / (split * 16)).max(2).ilog2();
    let PairScratch {
        pairs: stack,
        nodes: walk,
        tasks,
        bounds,
        parts,
    } = scratch;
    tasks.clear();
    // The moving tree's own pairs: nodes above the cut pair their children
    // here; a subtree at or below it is one task.
    walk.clear();
    stack.clear();
    if moving.root != NONE {
        walk.push(moving.root);
    }
    while let Some(n) = walk.pop() {
        let node = &moving.nodes[n as usize];
        if node.is_leaf() {
            continue;
        }
        if node.height <= cut {
            tasks.push(Task::Within(n));
            continue;
        }
        let (left, right) = (
            &moving.nodes[node.left as usize],
            &moving.nodes[node.right as usize],
        );
        if left.bound.overlaps(&right.bound) {
            stack.push((node.left, node.right));
        }
        walk.push(node.left);
        walk.push(node.right);
    }
    descend_to_cut(moving, moving, stack, cut, tasks, Task::Own);
    // The moving tree against the resting one.
    stack.clear();
    if moving.root != NONE
        && resting.root != NONE
        && moving.nodes[moving.root as usize]
            .bound
            .overlaps(&resting.nodes[resting.root as usize].bound)
    {
        stack.push((moving.root, resting.root));
    }
    descend_to_cut(moving, resting, stack, cut, tasks, Task::Cross);
    // The parts: tasks of about equal weight (leaves under their nodes, at
    // most 2^height).
    let weight = |task: &Task| match *task {
        Task::Within(n) => 1usize << moving.nodes[n as usize].height,
        Task::Own(x, y) => {
            1usize
                << moving.nodes[x as usize]
                    .height
                    .max(moving.nodes[y as usize].height)
        }
        Task::Cross(x, y) => {
            1usize
                << moving.nodes[x as usize]
                    .height
                    .max(resting.nodes[y as usize].height)
        }
    };
    // Room for as many next step (see `headroom.rs`); the stacks grow to
    // the trees' depth and stay.
    keep_headroom(tasks);
    let tasks = &tasks[..];
    split_by_weight(tasks.len(), split, |t| weight(&tasks[t]), bounds);
    if parts.len() < split {
        parts.resize_with(split, Default::default);
    }
    let bounds = &bounds[..];
    for_each_part(&mut parts[..split], |k, part| {
        part.keys.clear();
        part.tested = 0;
        for task in &tasks[bounds[k]..bounds[k + 1]] {
            part.pairs.clear();
            let (a, b) = match *task {
                Task::Within(n) => {
                    pair_children_under(moving, n, &mut part.nodes, &mut part.pairs);
                    (moving, moving)
                }
                Task::Own(x, y) => {
                    part.pairs.push((x, y));
                    (moving, moving)
                }
                Task::Cross(x, y) => {
                    part.pairs.push((x, y));
                    (moving, resting)
                }
            };
            part.tested += descend(a, b, boxes, &mut part.pairs, &mut part.keys).tested;
        }
    });
    let parts = &mut parts[..split];
    let found: usize = parts.iter().map(|part| part.keys.len()).sum();
    reserve_headroom(keys, keys.len() + found);
    for part in parts.iter_mut() {
        keys.extend_from_slice(&part.keys);
        // Room for as many next step (see `headroom.rs`).
        keep_headroom(&mut part.keys);
    }
    Traversal {
        tested: parts.iter().map(|part| part.tested).sum(),
    }
}

/// Work below a split traversal's cut (see [`all_pairs`]).
#[derive(Clone, Copy, Debug)]
enum Task {
    /// Every pair within the moving tree's subtree under this node.
    Within(u32),
    /// Every pair of one object under each node, both of the moving tree.
    Own(u32, u32),
    /// The same, the first node of the moving tree, the second of the
    /// resting one.
    Cross(u32, u32),
}

/// One part of a split traversal: its stacks and keys.
#[derive(Clone, Debug, Default)]
struct PartScratch {
    pairs: Vec<(u32, u32)>,
    nodes: Vec<u32>,
    keys: Vec<u64>,
    tested: u64,
}

/// Pushes onto `pairs` the children of every internal node in the
/// subtree under `root` whose bounds overlap: in memory order when the
/// nodes are in pre-order (after a whole build), else found by a walk
/// from `root` (`walk` is scratch).
fn pair_children_under<V: Vector>(
    arena: &Arena<V>,
    root: u32,
    walk: &mut Vec<u32>,
    pairs: &mut Vec<(u32, u32)>,
) {
    let nodes = &arena.nodes;
    let mut pair_children = |node: &Node<V>| {
        if !node.is_leaf() {
            let (left, right) = (&nodes[node.left as usize], &nodes[node.right as usize]);
            if left.bound.overlaps(&right.bound) {
                pairs.push((node.left, node.right));
            }
        }
    };
    if arena.preorder {
        // The subtree is the run of nodes from its root to its rightmost
        // leaf, read in memory order.
        let mut last = root;
        while !nodes[last as usize].is_leaf() {
            last = nodes[last as usize].right;
        }
        debug_assert!(
            nodes[root as usize..=last as usize]
                .iter()
                .all(|n| n.is_leaf() || (n.left > root && n.right <= last)),
            "a subtree in pre-order is one run of nodes"
        );
        nodes[root as usize..=last as usize]
            .iter()
            .for_each(&mut pair_children);
        return;
    }
    walk.clear();
    walk.push(root);
    while let Some(n) = walk.pop() {
        let node = &nodes[n as usize];
        if !node.is_leaf() {
            walk.push(node.left);
            walk.push(node.right);
        }
        pair_children(node);
    }
}

/// [`descend`] down to the cut: pairs of nodes both at most `cut` high go
/// to `tasks` (as `task(x, y)`) instead of being walked, so no two leaves
/// are met here.
fn descend_to_cut<V: Vector>(
    a: &Arena<V>,
    b: &Arena<V>,
    stack: &mut Vec<(u32, u32)>,
    cut: u32,
    tasks: &mut Vec<Task>,
    task: fn(u32, u32) -> Task,
) {
    while let Some((x, y)) = stack.pop() {
        let (nx, ny) = (&a.nodes[x as usize], &b.nodes[y as usize]);
        if nx.height <= cut && ny.height <= cut {
            tasks.push(task(x, y));
            continue;
        }
        split_pair(a, b, x, y, stack);
    }
}
