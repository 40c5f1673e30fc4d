//! The resting tree of the BVH: objects whose boxes have not changed for
//! [`REST_STEPS`] steps (static and sleeping objects) leave the moving tree
//! for this one, whose leaves hold their exact boxes. Their pairs with each
//! other cannot change while they rest, so they are kept as a sorted key
//! list, completed from the last step's pairs when objects arrive (no
//! query); a step costs the resting objects nothing but that list's merge
//! into the frame's pairs (and a pass over it when some leave).
//! An object that moves again, or is removed, leaves at the next step, and
//! its keys with it.

use super::build::{BuildScratch, BvhBuild, Leaf};
use super::tree::{Arena, NONE};
use crate::broad::radix::merge_sorted;
use crate::geometry::{Aabb, Vector};

/// Steps an object's box must stay the same before it moves to the resting
/// tree (about 0.13 s at 60 steps per second).
pub(super) const REST_STEPS: u32 = 8;

/// More arrivals than one in this many of the resting tree (and more than
/// 64): rebuild the tree, rather than insert one by one.
const MASS_SHARE: usize = 2;

#[derive(Clone, Debug, Default)]
pub(super) struct RestingTree<V: Vector> {
    pub(super) arena: Arena<V>,
    /// Pairs among resting objects, sorted keys; keys naming an object in
    /// `left` are stale until [`RestingTree::forget_left`].
    pub(super) keys: Vec<u64>,
    /// Objects in the tree.
    pub(super) len: usize,
    /// Slot indices that left the tree since the last step.
    left: Vec<u32>,
    /// Per slot index: whether it is in `left`.
    left_mark: Vec<bool>,
    /// New resting pairs, and the merge buffer.
    found: Vec<u64>,
    merged: Vec<u64>,
    stack: Vec<u32>,
    leaves: Vec<Leaf<V>>,
    build_scratch: BuildScratch<V>,
}

impl<V: Vector> RestingTree<V> {
    /// Takes object `object`'s leaf out of the tree; its pairs go at the
    /// next [`RestingTree::forget_left`].
    pub(super) fn leave(&mut self, object: u32, leaf: u32) {
        self.arena.remove_leaf(leaf);
        self.len -= 1;
        let i = object as usize;
        if self.left_mark.len() <= i {
            self.left_mark.resize(i + 1, false);
        }
        if !self.left_mark[i] {
            self.left_mark[i] = true;
            self.left.push(object);
        }
    }

    /// Whether `object` left the tree since the last step (its keys may
    /// still be listed).
    pub(super) fn has_left(&self, object: u32) -> bool {
        self.left_mark.get(object as usize) == Some(&true)
    }

    /// Drops the keys of the objects that left.
    pub(super) fn forget_left(&mut self) {
        if self.left.is_empty() {
            return;
        }
        let left = |i: u64| self.left_mark.get(i as usize) == Some(&true);
        self.keys
            .retain(|&k| !left(k >> 32) && !left(k & 0xffff_ffff));
        for &i in &self.left {
            self.left_mark[i as usize] = false;
        }
        self.left.clear();
    }

    /// Adds `arrivals` (slot indices, with their boxes in `boxes`) to the
    /// tree, calling `placed(object, leaf)` for every leaf that is new or
    /// moved, and their pairs with resting objects to the key list:
    /// `last_keys` are the keys the last step found in the moving tree
    /// (sorted), of which those whose two objects rest now are new resting
    /// pairs. Every arrival was in the moving tree at the last step and
    /// every resting object has the box it had then (an arrival's has not
    /// changed for [`REST_STEPS`] steps, one that changed woke), so these
    /// are exactly the missing pairs, found without a query. Call after
    /// [`RestingTree::forget_left`].
    pub(super) fn admit(
        &mut self,
        arrivals: &[u32],
        boxes: &[Aabb<V>],
        last_keys: impl Iterator<Item = u64>,
        placed: &mut dyn FnMut(u32, u32),
    ) {
        if arrivals.is_empty() {
            return;
        }
        debug_assert!(self.left.is_empty(), "forget_left comes first");
        self.len += arrivals.len();
        self.found.clear();
        self.found.extend(last_keys);
        merge_sorted(&self.keys, &self.found, &mut self.merged);
        std::mem::swap(&mut self.keys, &mut self.merged);
        debug_assert!(self.keys.windows(2).all(|w| w[0] < w[1]));
        if arrivals.len() > 64 && arrivals.len() * MASS_SHARE > self.len {
            // Morton order: the fastest build, for a level at rest after
            // loading (see `BvhBuild`).
            self.collect_leaves();
            self.leaves
                .extend(arrivals.iter().map(|&i| (i, boxes[i as usize])));
            self.rebuild(BvhBuild::Morton, placed);
            return;
        }
        for &i in arrivals {
            let leaf = self.arena.insert_leaf(i, boxes[i as usize]);
            placed(i, leaf);
        }
    }

    /// Rebuilds the tree from its own leaves by `method`.
    pub(super) fn rebuild_all(&mut self, method: BvhBuild, placed: &mut dyn FnMut(u32, u32)) {
        self.collect_leaves();
        self.rebuild(method, placed);
    }

    /// Puts every leaf of the tree into `self.leaves` (cleared first).
    fn collect_leaves(&mut self) {
        self.leaves.clear();
        self.stack.clear();
        if self.arena.root != NONE {
            self.stack.push(self.arena.root);
        }
        while let Some(n) = self.stack.pop() {
            let node = &self.arena.nodes[n as usize];
            if node.is_leaf() {
                self.leaves.push((node.object, node.bound));
            } else {
                self.stack.push(node.left);
                self.stack.push(node.right);
            }
        }
    }

    fn rebuild(&mut self, method: BvhBuild, placed: &mut dyn FnMut(u32, u32)) {
        let mut leaves = std::mem::take(&mut self.leaves);
        self.arena
            .rebuild_with(method, &mut leaves, &mut self.build_scratch, placed);
        self.leaves = leaves;
    }
}
