//! Rebuilding a worn BVH a piece at a time, so that no frame pays for a
//! whole rebuild (a full rebuild of 65,536 leaves has been reported to
//! cost an engine a 108 ms frame): what [`Bvh::renew`](super::Bvh::renew) starts.
//! The step itself rebuilds a worn tree whole in the background instead
//! (`shadow.rs`): leaves never change subtree here, so a renewal cannot
//! undo the wear of objects drifting out of their subtree's region.
//!
//! A renewal runs over several steps. Each step it measures every subtree
//! (leaves below, internal surface areas summed), takes the largest
//! subtrees of at most `budget` leaves, and rebuilds the worst of them
//! (most internal area per leaf relative to their own bound) by median
//! splits until `budget` leaves are spent; the ancestors are refitted. It
//! ends once as many leaves as the tree holds have been rebuilt. Cost per
//! step: one pass over the nodes plus building `budget` leaves.
//!
//! Leaves never change subtree, so the nodes above the rebuilt subtrees
//! keep their shape. Measured on 20,000 objects worn by reinsertion (the
//! `wear_probe` example of collide-bench, run repeatedly): the renewal's
//! slowest step took 1.14 to 1.23 times a normal step, a whole median
//! rebuild's 1.48 to 1.6 times; afterwards the renewed tree's surface-area
//! cost was 318 against 299 for the whole rebuild (421 worn), and its steps
//! 2.6 to 3.3 ms against 2.2 to 3.1 ms (4.6 to 5.3 ms worn).

use super::build::{BuildScratch, BvhBuild, Leaf};
use super::tree::{Arena, NONE, area};
use crate::geometry::Vector;

/// A renewal in progress, and the memory it reuses.
#[derive(Clone, Debug, Default)]
pub(super) struct Renewal<V: Vector> {
    /// Leaves still to rebuild before the renewal ends (0: none running).
    left: usize,
    /// Per node: leaves below it, and its subtree's internal areas summed.
    counts: Vec<u32>,
    areas: Vec<f64>,
    order: Vec<u32>,
    candidates: Vec<(f64, u32)>,
    leaves: Vec<Leaf<V>>,
    scratch: BuildScratch<V>,
    /// Subtrees rebuilt, in all.
    pub(super) subtrees: u64,
}

impl<V: Vector> Renewal<V> {
    /// Whether a renewal is running.
    pub(super) fn running(&self) -> bool {
        self.left > 0
    }

    /// Starts renewing a tree of `leaves` leaves.
    pub(super) fn start(&mut self, leaves: usize) {
        self.left = leaves.max(1);
    }

    /// Stops the renewal (the whole tree was rebuilt).
    pub(super) fn cancel(&mut self) {
        self.left = 0;
    }

    /// Rebuilds the worst subtrees of `arena`, `budget` leaves at most
    /// (but at least one subtree); calls `placed(object, leaf)` for every
    /// new leaf. Returns the leaves rebuilt.
    pub(super) fn step(
        &mut self,
        arena: &mut Arena<V>,
        budget: usize,
        placed: &mut dyn FnMut(u32, u32),
    ) -> usize {
        if arena.root == NONE {
            self.left = 0;
            return 0;
        }
        self.measure(arena);
        // The largest subtrees of at most `budget` leaves (and at least 4:
        // smaller ones cannot be improved much).
        self.candidates.clear();
        let budget_u32 = u32::try_from(budget).unwrap_or(u32::MAX);
        for &n in &self.order {
            let node = &arena.nodes[n as usize];
            let count = self.counts[n as usize];
            let parent_over = node.parent == NONE || self.counts[node.parent as usize] > budget_u32;
            if count >= 4 && count <= budget_u32 && parent_over {
                let own = area(&node.bound);
                let wear = if own > 0.0 && own.is_finite() {
                    self.areas[n as usize] / own / f64::from(count)
                } else {
                    0.0
                };
                self.candidates.push((wear, n));
            }
        }
        // Worst first; ties by node index, so the order is deterministic.
        self.candidates
            .sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut spent = 0usize;
        for k in 0..self.candidates.len() {
            let n = self.candidates[k].1;
            let count = self.counts[n as usize] as usize;
            if spent > 0 && spent + count > budget {
                break;
            }
            arena.rebuild_subtree(n, &mut self.leaves, &mut self.scratch, placed);
            self.subtrees += 1;
            spent += count;
        }
        if spent == 0 {
            // Nothing worth rebuilding (a tree of tiny subtrees).
            self.left = 0;
        }
        self.left = self.left.saturating_sub(spent);
        spent
    }

    /// Fills `counts` and `areas` for every node below the root, and
    /// `order` with the nodes, parents before children.
    fn measure(&mut self, arena: &Arena<V>) {
        let len = arena.nodes.len();
        self.counts.clear();
        self.counts.resize(len, 0);
        self.areas.clear();
        self.areas.resize(len, 0.0);
        self.order.clear();
        self.order.push(arena.root);
        let mut k = 0;
        while k < self.order.len() {
            let node = &arena.nodes[self.order[k] as usize];
            if !node.is_leaf() {
                self.order.push(node.left);
                self.order.push(node.right);
            }
            k += 1;
        }
        for &n in self.order.iter().rev() {
            let node = &arena.nodes[n as usize];
            if node.is_leaf() {
                self.counts[n as usize] = 1;
            } else {
                let (l, r) = (node.left as usize, node.right as usize);
                self.counts[n as usize] = self.counts[l] + self.counts[r];
                self.areas[n as usize] = area(&node.bound) + self.areas[l] + self.areas[r];
            }
        }
    }
}

impl<V: Vector> Arena<V> {
    /// Rebuilds the subtree under `node` by median splits, in place: its
    /// nodes are freed, a new subtree over the same leaves takes its place,
    /// and the ancestors are refitted (with rotations).
    fn rebuild_subtree(
        &mut self,
        node: u32,
        leaves: &mut Vec<Leaf<V>>,
        scratch: &mut BuildScratch<V>,
        placed: &mut dyn FnMut(u32, u32),
    ) {
        let parent = self.nodes[node as usize].parent;
        leaves.clear();
        let mut k = self.free_len();
        self.release(node);
        // The freed nodes are the ones pushed by `release`, leaves among them.
        while k < self.free_len() {
            let n = self.free_at(k);
            let freed = &self.nodes[n as usize];
            if freed.is_leaf() {
                leaves.push((freed.object, freed.bound));
            }
            k += 1;
        }
        let kept_area = self.built_area;
        let new = self.build_under(BvhBuild::Median, leaves, scratch, parent, placed);
        self.built_area = kept_area;
        self.relink(parent, node, new);
        self.refit_from(parent);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Aabb;
    use crate::test_rng::TestRng;
    use glam::Vec2;

    /// Checks links, bounds and heights; returns the objects of the leaves,
    /// sorted.
    fn check(arena: &Arena<Vec2>, leaf_of: &[u32]) -> Vec<u32> {
        let mut objects = Vec::new();
        let mut stack = vec![arena.root];
        assert_eq!(arena.nodes[arena.root as usize].parent, NONE);
        while let Some(n) = stack.pop() {
            let node = &arena.nodes[n as usize];
            if node.is_leaf() {
                assert_eq!(
                    leaf_of[node.object as usize], n,
                    "leaf_of of {}",
                    node.object
                );
                objects.push(node.object);
                continue;
            }
            for c in [node.left, node.right] {
                assert_eq!(arena.nodes[c as usize].parent, n);
                assert!(node.bound.contains(&arena.nodes[c as usize].bound));
                stack.push(c);
            }
            let h = 1 + arena.nodes[node.left as usize]
                .height
                .max(arena.nodes[node.right as usize].height);
            assert_eq!(node.height, h);
        }
        objects.sort_unstable();
        objects
    }

    #[test]
    fn renewal_rebuilds_every_leaf_within_the_budget_and_lowers_the_cost() {
        let mut rng = TestRng::new(5);
        let mut arena: Arena<Vec2> = Arena::new();
        let n = 4000u32;
        let mut leaf_of = vec![NONE; n as usize];
        let place = |rng: &mut TestRng| {
            let p = Vec2::new(rng.range(0.0, 2000.0), rng.range(0.0, 2000.0));
            Aabb::new(p, p + Vec2::splat(6.0)).unwrap()
        };
        for i in 0..n {
            leaf_of[i as usize] = arena.insert_leaf(i, place(&mut rng));
        }
        // Wear it: every object jumps somewhere else, one by one.
        for _ in 0..3 {
            for i in 0..n {
                arena.remove_leaf(leaf_of[i as usize]);
                leaf_of[i as usize] = arena.insert_leaf(i, place(&mut rng));
            }
        }
        let worn = arena.quality().sah_cost;
        let mut renewal = Renewal::default();
        renewal.start(n as usize);
        let budget = 500;
        let mut steps = 0;
        while renewal.running() {
            let spent = renewal.step(&mut arena, budget, &mut |o, l| leaf_of[o as usize] = l);
            assert!(spent > 0 && spent <= budget, "step {steps}: {spent} leaves");
            assert_eq!(check(&arena, &leaf_of), (0..n).collect::<Vec<_>>());
            steps += 1;
        }
        assert!(
            steps >= 8,
            "{steps} steps for {n} leaves at {budget} a step"
        );
        let renewed = arena.quality().sah_cost;
        assert!(renewed < worn, "cost {worn} before, {renewed} after");
        assert!(renewal.subtrees >= 8);
    }

    #[test]
    fn a_tree_within_the_budget_is_rebuilt_whole() {
        let mut arena: Arena<Vec2> = Arena::new();
        let mut leaf_of = vec![NONE; 50];
        for i in 0..50u32 {
            let p = Vec2::new(i as f32 * 2.0, 0.0);
            leaf_of[i as usize] = arena.insert_leaf(i, Aabb::new(p, p + Vec2::ONE).unwrap());
        }
        let mut renewal = Renewal::default();
        renewal.start(50);
        let spent = renewal.step(&mut arena, 1000, &mut |o, l| leaf_of[o as usize] = l);
        assert_eq!((spent, renewal.running()), (50, false));
        assert_eq!(check(&arena, &leaf_of).len(), 50);
    }
}
