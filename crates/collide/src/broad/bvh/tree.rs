//! The node arena of the BVH: insertion by surface-area cost, removal with
//! refit to the root, AVL rotations. Whole-tree builds are in `build.rs`.

use crate::broad::headroom::reserve_headroom;
use crate::geometry::{Aabb, Vector};

pub(crate) const NONE: u32 = u32::MAX;

/// [`Arena::refit_leaves`] recomputes every internal node in one pass
/// when at least one leaf in this many changes and the nodes are in
/// pre-order.
const WHOLE_REFIT_SHARE: usize = 16;

#[derive(Clone, Debug)]
pub(crate) struct Node<V: Vector> {
    /// Leaves: the object's fat box; internal nodes: the union of the
    /// children's bounds.
    pub(crate) bound: Aabb<V>,
    pub(crate) parent: u32,
    pub(crate) left: u32,
    /// `NONE` for a leaf.
    pub(crate) right: u32,
    /// Leaves: the object's slot index.
    pub(crate) object: u32,
    /// Leaves 0; internal nodes 1 + the taller child.
    pub(crate) height: u32,
}

impl<V: Vector> Node<V> {
    pub(crate) fn is_leaf(&self) -> bool {
        self.right == NONE
    }
}

/// The surface-area measure the insertion cost uses: the perimeter in 2D,
/// the surface area in 3D (computed in f64).
pub(crate) fn area<V: Vector>(b: &Aabb<V>) -> f64 {
    let s = |a: usize| f64::from(b.max().axis(a)) - f64::from(b.min().axis(a));
    if V::DIM == 2 {
        2.0 * (s(0) + s(1))
    } else {
        2.0 * (s(0) * s(1) + s(1) * s(2) + s(2) * s(0))
    }
}

/// Memory [`Arena::refit_leaves`] reuses: per node whether it is queued,
/// and the queued nodes by height.
#[derive(Clone, Debug, Default)]
pub(crate) struct RefitScratch {
    marked: Vec<bool>,
    by_height: Vec<Vec<u32>>,
}

#[derive(Clone, Debug)]
pub(crate) struct Arena<V: Vector> {
    pub(crate) nodes: Vec<Node<V>>,
    free: Vec<u32>,
    pub(crate) root: u32,
    /// The internal nodes' areas summed by the last whole build.
    pub(super) built_area: f64,
    /// The nodes are in depth-first pre-order (each node, then its whole
    /// left subtree, then its right one) and none is free: true after a
    /// whole build, until anything changes the tree's shape. Then a pass
    /// over `nodes` backwards refits every node after its children, and a
    /// subtree is the run of nodes from its root to its rightmost leaf
    /// (the split traversal in `pairs.rs` reads it so).
    pub(super) preorder: bool,
}

impl<V: Vector> Default for Arena<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Vector> Arena<V> {
    pub(crate) fn new() -> Self {
        Self {
            nodes: Vec::new(),
            free: Vec::new(),
            root: NONE,
            built_area: 0.0,
            preorder: false,
        }
    }

    /// Stores `node` in a free slot or a new one (a whole build sets
    /// [`Arena::preorder`] again when it is done).
    pub(super) fn alloc(&mut self, node: Node<V>) -> u32 {
        self.preorder = false;
        match self.free.pop() {
            Some(i) => {
                self.nodes[i as usize] = node;
                i
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        }
    }

    /// Adds a leaf for `object` with fat box `bound` and returns it.
    pub(crate) fn insert_leaf(&mut self, object: u32, bound: Aabb<V>) -> u32 {
        let leaf = self.alloc(Node {
            bound,
            parent: NONE,
            left: NONE,
            right: NONE,
            object,
            height: 0,
        });
        self.insert_subtree(leaf);
        leaf
    }

    /// Links the subtree under `node` (built apart, without a parent) into
    /// the tree beside the node where it adds the least area, as
    /// [`Arena::insert_leaf`] places a leaf. The ancestors are rebalanced,
    /// not the new parent: a subtree much taller than its new sibling stays
    /// so until a rebuild (the BVH rebuilds whole when more than
    /// a quarter of its leaves are new).
    pub(super) fn insert_subtree(&mut self, node: u32) {
        let bound = self.nodes[node as usize].bound;
        if self.root == NONE {
            self.root = node;
            return;
        }
        // Descend to the sibling that costs least (Box2D's heuristic:
        // the area the new parent adds, plus what the ancestors inherit).
        let mut index = self.root;
        while !self.nodes[index as usize].is_leaf() {
            let n = &self.nodes[index as usize];
            let combined = area(&n.bound.union(&bound));
            let cost_here = 2.0 * combined;
            let inherited = 2.0 * (combined - area(&n.bound));
            let child_cost = |c: u32| {
                let child = &self.nodes[c as usize];
                let joined = area(&child.bound.union(&bound));
                if child.is_leaf() {
                    joined + inherited
                } else {
                    joined - area(&child.bound) + inherited
                }
            };
            let (cost_left, cost_right) = (child_cost(n.left), child_cost(n.right));
            if cost_here < cost_left && cost_here < cost_right {
                break;
            }
            // On a tie (identical boxes, sorted rows), take the shorter
            // child, so ties do not build a chain.
            index = match cost_left.total_cmp(&cost_right) {
                std::cmp::Ordering::Less => n.left,
                std::cmp::Ordering::Greater => n.right,
                std::cmp::Ordering::Equal => {
                    let height = |c: u32| self.nodes[c as usize].height;
                    if height(n.left) <= height(n.right) {
                        n.left
                    } else {
                        n.right
                    }
                }
            };
        }
        let sibling = index;
        let old_parent = self.nodes[sibling as usize].parent;
        let height = 1 + self.nodes[sibling as usize]
            .height
            .max(self.nodes[node as usize].height);
        let parent = self.alloc(Node {
            bound: self.nodes[sibling as usize].bound.union(&bound),
            parent: old_parent,
            left: sibling,
            right: node,
            object: NONE,
            height,
        });
        self.nodes[sibling as usize].parent = parent;
        self.nodes[node as usize].parent = parent;
        if old_parent == NONE {
            self.root = parent;
        } else if self.nodes[old_parent as usize].left == sibling {
            self.nodes[old_parent as usize].left = parent;
        } else {
            self.nodes[old_parent as usize].right = parent;
        }
        self.refit_from(old_parent);
    }

    /// Removes `leaf`: its sibling takes the parent's place.
    pub(crate) fn remove_leaf(&mut self, leaf: u32) {
        self.preorder = false;
        self.free.push(leaf);
        if leaf == self.root {
            self.root = NONE;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let p = &self.nodes[parent as usize];
        let sibling = if p.left == leaf { p.right } else { p.left };
        let grand = p.parent;
        self.free.push(parent);
        self.nodes[sibling as usize].parent = grand;
        if grand == NONE {
            self.root = sibling;
        } else {
            if self.nodes[grand as usize].left == parent {
                self.nodes[grand as usize].left = sibling;
            } else {
                self.nodes[grand as usize].right = sibling;
            }
            self.refit_from(grand);
        }
    }

    /// Recomputes bounds and heights from `node` up to the root, rotating
    /// where one child is more than one level taller than the other (AVL
    /// style, as Box2D's dynamic tree does), so the height stays near
    /// log2 n under any order of inserts and removes.
    pub(super) fn refit_from(&mut self, mut node: u32) {
        while node != NONE {
            node = self.balance(node);
            self.fix(node);
            node = self.nodes[node as usize].parent;
        }
    }

    /// Gives each leaf of `leaves` its new bound and recomputes the
    /// ancestors' bounds once each; the tree keeps its shape.
    ///
    /// When the nodes are in pre-order (see [`Arena::preorder`]) and at
    /// least one leaf in [`WHOLE_REFIT_SHARE`] changes (a tree of `n`
    /// leaves has `2n - 1` nodes), every internal node
    /// is recomputed by one pass backwards over the array, children before
    /// parents and in memory order. Otherwise the ancestors are queued by
    /// height (which grows toward the root) and recomputed lowest first,
    /// stopping on every path at the first bound that does not change.
    /// A walk up from each leaf repeats the upper levels, and with many
    /// leaves changing the queue's reads of scattered nodes cost far more
    /// than the pass, which made such steps faster (figures: BENCHMARKS.md).
    pub(crate) fn refit_leaves(
        &mut self,
        leaves: impl ExactSizeIterator<Item = (u32, Aabb<V>)>,
        scratch: &mut RefitScratch,
    ) {
        if self.preorder && leaves.len() * WHOLE_REFIT_SHARE >= self.nodes.len() / 2 {
            for (leaf, bound) in leaves {
                self.nodes[leaf as usize].bound = bound;
            }
            for node in (0..self.nodes.len()).rev() {
                let n = &self.nodes[node];
                if !n.is_leaf() {
                    let joined = self.nodes[n.left as usize]
                        .bound
                        .union(&self.nodes[n.right as usize].bound);
                    self.nodes[node].bound = joined;
                }
            }
            return;
        }
        // Sized by the arena's capacity, which the arenas that trade places
        // with this one (see `shadow.rs`) share, not by its length.
        reserve_headroom(&mut scratch.marked, self.nodes.capacity());
        scratch.marked.resize(self.nodes.len(), false);
        // Each leaf marks at most one node of each height, and the nodes of
        // height h head disjoint subtrees of at least 2h + 1 nodes: bucket
        // h gets room (with a margin, see `headroom.rs`) for the fewer of
        // those two counts, so no refit of as many leaves allocates, and
        // the buckets together hold about as many entries as the tree has
        // nodes at most (bucket 0, leaves, is never used).
        let (most, nodes) = (leaves.len(), self.nodes.len());
        let room = move |h: usize| {
            if h == 0 {
                0
            } else {
                most.min(nodes / (2 * h + 1))
            }
        };
        for (h, bucket) in scratch.by_height.iter_mut().enumerate() {
            bucket.clear();
            reserve_headroom(bucket, room(h));
        }
        let mark = |scratch: &mut RefitScratch, nodes: &[Node<V>], node: u32| {
            if node != NONE && !scratch.marked[node as usize] {
                scratch.marked[node as usize] = true;
                let h = nodes[node as usize].height as usize;
                while scratch.by_height.len() <= h {
                    let mut bucket = Vec::new();
                    reserve_headroom(&mut bucket, room(scratch.by_height.len()));
                    scratch.by_height.push(bucket);
                }
                scratch.by_height[h].push(node);
            }
        };
        for (leaf, bound) in leaves {
            self.nodes[leaf as usize].bound = bound;
            let parent = self.nodes[leaf as usize].parent;
            mark(scratch, &self.nodes, parent);
        }
        let mut h = 1;
        while h < scratch.by_height.len() {
            let mut k = 0;
            while k < scratch.by_height[h].len() {
                let node = scratch.by_height[h][k];
                k += 1;
                scratch.marked[node as usize] = false;
                let n = &self.nodes[node as usize];
                let joined = self.nodes[n.left as usize]
                    .bound
                    .union(&self.nodes[n.right as usize].bound);
                if joined != n.bound {
                    let parent = n.parent;
                    self.nodes[node as usize].bound = joined;
                    mark(scratch, &self.nodes, parent);
                }
            }
            h += 1;
        }
    }

    /// Recomputes `node`'s bound and height from its children.
    fn fix(&mut self, node: u32) {
        let n = &self.nodes[node as usize];
        let (l, r) = (&self.nodes[n.left as usize], &self.nodes[n.right as usize]);
        let (bound, height) = (l.bound.union(&r.bound), 1 + l.height.max(r.height));
        let n = &mut self.nodes[node as usize];
        n.bound = bound;
        n.height = height;
    }

    fn height_of(&self, node: u32) -> i64 {
        i64::from(self.nodes[node as usize].height)
    }

    /// Points `parent`'s link that went to `old` at `new` (or the root).
    pub(super) fn relink(&mut self, parent: u32, old: u32, new: u32) {
        self.preorder = false;
        if parent == NONE {
            self.root = new;
        } else if self.nodes[parent as usize].left == old {
            self.nodes[parent as usize].left = new;
        } else {
            self.nodes[parent as usize].right = new;
        }
    }

    /// Rotates the taller child of `a` above it when the heights of `a`'s
    /// children differ by more than one; returns the node now in `a`'s
    /// place.
    fn balance(&mut self, a: u32) -> u32 {
        let node = &self.nodes[a as usize];
        if node.is_leaf() || node.height < 2 {
            return a;
        }
        let (b, c) = (node.left, node.right);
        let skew = self.height_of(c) - self.height_of(b);
        if skew.abs() <= 1 {
            return a;
        }
        // `up` is the taller child; `keep` stays under `a` on the other side.
        let (up, keep, up_is_right) = if skew > 1 {
            (c, b, true)
        } else {
            (b, c, false)
        };
        let (f, g) = (self.nodes[up as usize].left, self.nodes[up as usize].right);
        let parent = self.nodes[a as usize].parent;
        // `up` takes `a`'s place; `a` becomes `up`'s child.
        self.nodes[up as usize].parent = parent;
        self.relink(parent, a, up);
        self.nodes[a as usize].parent = up;
        // The taller grandchild stays with `up`, the shorter moves to `a`.
        let (stay, moved) = if self.height_of(f) > self.height_of(g) {
            (f, g)
        } else {
            (g, f)
        };
        self.nodes[up as usize].left = a;
        self.nodes[up as usize].right = stay;
        self.nodes[moved as usize].parent = a;
        if up_is_right {
            self.nodes[a as usize].left = keep;
            self.nodes[a as usize].right = moved;
        } else {
            self.nodes[a as usize].left = moved;
            self.nodes[a as usize].right = keep;
        }
        self.fix(a);
        self.fix(up);
        up
    }

    /// The root's height (0 for one leaf or none).
    pub(crate) fn height(&self) -> u32 {
        if self.root == NONE {
            0
        } else {
            self.nodes[self.root as usize].height
        }
    }

    /// Makes room for `nodes` nodes and an eighth more (the objects
    /// inserted while a background rebuild runs), and for an eighth of
    /// them on the free list.
    pub(super) fn reserve(&mut self, nodes: usize) {
        let spare = nodes / 8 + 64;
        if self.nodes.capacity() < nodes + spare {
            self.nodes.reserve_exact(nodes + spare - self.nodes.len());
        }
        reserve_headroom(&mut self.free, spare);
    }

    /// Drops every node (before a whole-tree build).
    pub(super) fn reset(&mut self) {
        self.nodes.clear();
        self.free.clear();
        self.root = NONE;
        self.built_area = 0.0;
        self.preorder = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::bvh::build::{BuildScratch, BvhBuild, Leaf};
    use crate::test_rng::TestRng;
    use glam::Vec2;

    fn random_box(rng: &mut TestRng) -> Aabb<Vec2> {
        let low = Vec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
        let size = Vec2::new(rng.range(0.0, 6.0), rng.range(0.0, 6.0));
        Aabb::new(low, low + size).unwrap()
    }

    /// Moving a third of the leaves of a freshly built tree (refitted by
    /// the pass over the array) and of the same tree after a reinsertion
    /// (by the queue of ancestors) leaves every internal bound exactly the
    /// union of its children's, and the leaves with their new bounds.
    #[test]
    fn refitting_many_leaves_gives_every_node_the_union_of_its_children() {
        for reinserted in [false, true] {
            let mut rng = TestRng::new(7);
            let n = 600;
            let mut leaves: Vec<Leaf<Vec2>> =
                (0..n as u32).map(|i| (i, random_box(&mut rng))).collect();
            let mut arena = Arena::<Vec2>::new();
            let mut leaf_of = vec![NONE; n];
            arena.rebuild_with(
                BvhBuild::Morton,
                &mut leaves,
                &mut BuildScratch::default(),
                &mut |object, leaf| leaf_of[object as usize] = leaf,
            );
            assert!(arena.preorder, "a whole build places nodes in pre-order");
            if reinserted {
                arena.remove_leaf(leaf_of[0]);
                leaf_of[0] = arena.insert_leaf(0, random_box(&mut rng));
                assert!(!arena.preorder, "a reinsertion breaks the order");
            }
            let moved: Vec<(u32, Aabb<Vec2>)> = (0..n)
                .step_by(3)
                .map(|i| (leaf_of[i], random_box(&mut rng)))
                .collect();
            arena.refit_leaves(moved.iter().copied(), &mut RefitScratch::default());
            for &(leaf, bound) in &moved {
                assert_eq!(arena.nodes[leaf as usize].bound, bound);
            }
            let mut stack = vec![arena.root];
            let mut internal = 0;
            while let Some(node) = stack.pop() {
                let n = &arena.nodes[node as usize];
                if n.is_leaf() {
                    continue;
                }
                internal += 1;
                let (l, r) = (
                    &arena.nodes[n.left as usize],
                    &arena.nodes[n.right as usize],
                );
                assert_eq!(
                    n.bound,
                    l.bound.union(&r.bound),
                    "node {node}, {reinserted}"
                );
                stack.extend([n.left, n.right]);
            }
            assert_eq!(internal, n - 1);
        }
    }
}
