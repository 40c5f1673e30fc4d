//! What the queries read: both trees, the boxes and the escaped objects,
//! borrowed from a [`Bvh`](super::Bvh) or from a
//! BVH snapshot (`snapshot.rs`), so both answer with the same code.

use super::tree::{Arena, NONE};
use crate::broad::query::{QueryBudget, QueryStats};
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::Handle;
use std::ops::ControlFlow;

/// The trees as a query sees them.
pub(super) struct View<'a, V: Vector> {
    pub(super) moving: &'a Arena<V>,
    pub(super) resting: &'a Arena<V>,
    pub(super) boxes: &'a [Aabb<V>],
    pub(super) escaped: &'a [u32],
    pub(super) escaped_at: &'a [u32],
    /// The handle of a live object's slot index.
    pub(super) handle: &'a dyn Fn(u32) -> Handle,
}

impl<V: Vector> View<'_, V> {
    /// The queries' traversal: both trees, pruned by `region` at every
    /// node (the hit rule is monotone and a node's bound holds its
    /// leaves'), then the escaped objects by their current boxes. Breaks
    /// when `visit` does or the budget runs out (then `stats` says
    /// truncated).
    pub(super) fn search<R: Region<V> + ?Sized>(
        &self,
        region: &R,
        budget: &QueryBudget,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut stack: NodeStack = NodeStack::default();
        for arena in [self.moving, self.resting] {
            if arena.root != NONE {
                stack.push(arena.root);
            }
            while let Some(n) = stack.pop() {
                if !stats.visit(budget) {
                    return ControlFlow::Break(());
                }
                let node = &arena.nodes[n as usize];
                if !region.hits(&node.bound) {
                    continue;
                }
                if node.is_leaf() {
                    let i = node.object as usize;
                    // Escaped objects are tested below, by their current box.
                    if self.escaped_at[i] == NONE {
                        self.test_one(region, node.object, budget, stats, visit)?;
                    }
                } else {
                    stack.push(node.left);
                    stack.push(node.right);
                }
            }
        }
        for &i in self.escaped {
            self.test_one(region, i, budget, stats, visit)?;
        }
        ControlFlow::Continue(())
    }

    /// Gives object `i` the exact test and reports it on a hit.
    fn test_one<R: Region<V> + ?Sized>(
        &self,
        region: &R,
        i: u32,
        budget: &QueryBudget,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        stats.candidate(budget, region, &self.boxes[i as usize], || {
            visit((self.handle)(i))
        })
    }
}

/// Nodes still to visit: on the call stack up to [`INLINE`]
/// deep, so a query allocates nothing; spilling to the heap beyond (a tree
/// left deep by a burst of inserts before the next step's rebuild).
pub(super) struct NodeStack<T = u32> {
    inline: [T; INLINE],
    len: usize,
    spill: Vec<T>,
}

/// Nodes kept without allocating: twice the depth of a balanced tree of
/// 2^32 leaves.
const INLINE: usize = 64;

impl<T: Copy> NodeStack<T> {
    pub(super) fn push(&mut self, node: T) {
        if self.len < INLINE {
            self.inline[self.len] = node;
            self.len += 1;
        } else {
            self.spill.push(node);
        }
    }

    pub(super) fn pop(&mut self) -> Option<T> {
        if let Some(node) = self.spill.pop() {
            return Some(node);
        }
        self.len = self.len.checked_sub(1)?;
        Some(self.inline[self.len])
    }
}

impl<T: Copy + Default> Default for NodeStack<T> {
    fn default() -> Self {
        NodeStack {
            inline: [T::default(); INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NodeStack;

    #[test]
    fn the_node_stack_pops_in_reverse_past_its_inline_part() {
        let mut stack: NodeStack = NodeStack::default();
        for n in 0..200 {
            stack.push(n);
        }
        let popped: Vec<u32> = std::iter::from_fn(|| stack.pop()).collect();
        assert_eq!(popped, (0..200).rev().collect::<Vec<_>>());
        assert_eq!(stack.pop(), None);
    }
}
