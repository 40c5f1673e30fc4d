//! Rays through the BVH nearest first: a walk of both trees ordered by
//! where the ray enters each node, so hits come out in the order the ray
//! enters them and a visitor that wants only the first stops the walk.
//!
//! A heap holds nodes and objects keyed by entry `t` (nodes before objects
//! at equal `t`, objects by slot index, which orders them as their
//! handles). An object popped from it is the nearest hit not yet reported:
//! every node still in the heap is entered no sooner, and so are the
//! objects below it. Cost: about the nodes the ray's first hits lie
//! under, times a heap operation.

use super::tree::NONE;
use super::view::View;
use crate::broad::query::{QueryBudget, QueryStats, RayHit};
use crate::geometry::{Ray, Vector};
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::ControlFlow;

/// A heap entry: entry t as bits (t >= 0, so bits order like values),
/// kind, and node or slot index.
type Entry = Reverse<(u32, u8, u32)>;

thread_local! {
    /// Each thread's heap for ray walks, kept between queries so that a
    /// warm query allocates nothing (it holds as much as the largest walk
    /// the thread made).
    static HEAP: RefCell<BinaryHeap<Entry>> = const { RefCell::new(BinaryHeap::new()) };
}

/// What a heap entry is: a node of the moving tree, of the resting tree,
/// or an object (in that order at equal `t`).
const MOVING: u8 = 0;
const RESTING: u8 = 1;
const OBJECT: u8 = 2;

impl<V: Vector> View<'_, V> {
    /// Calls `visit` with the hits of `ray` by entry `t`, then handle,
    /// until it breaks or `budget` runs out.
    pub(super) fn ray_nearest_first(
        &self,
        ray: &Ray<V>,
        budget: &QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        let mut stats = QueryStats::default();
        HEAP.with(|kept| match kept.try_borrow_mut() {
            Ok(mut heap) => {
                heap.clear();
                let _ = self.ray_walk(ray, budget, &mut stats, &mut heap, visit);
            }
            // A ray query from inside another's visitor: its own heap.
            Err(_) => {
                let _ = self.ray_walk(ray, budget, &mut stats, &mut BinaryHeap::new(), visit);
            }
        });
        stats
    }

    fn ray_walk(
        &self,
        ray: &Ray<V>,
        budget: &QueryBudget,
        stats: &mut QueryStats,
        heap: &mut BinaryHeap<Entry>,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let arena = |kind: u8| {
            if kind == MOVING {
                self.moving
            } else {
                self.resting
            }
        };
        for kind in [MOVING, RESTING] {
            let root = arena(kind).root;
            if root != NONE {
                if !stats.visit(budget) {
                    return ControlFlow::Break(());
                }
                if let Some(t) = ray.entry(&arena(kind).nodes[root as usize].bound) {
                    heap.push(Reverse((t.to_bits(), kind, root)));
                }
            }
        }
        // Objects out of their leaves' boxes, or inserted without a leaf
        // yet, until the step: by their box.
        for &i in self.escaped {
            if !stats.test(budget) {
                return ControlFlow::Break(());
            }
            if let Some(t) = ray.entry(&self.boxes[i as usize]) {
                heap.push(Reverse((t.to_bits(), OBJECT, i)));
            }
        }
        // The entry being expanded; a nearer child is taken straight on
        // when nothing in the heap is nearer, saving a push and a pop.
        let mut next = heap.pop();
        while let Some(Reverse((bits, kind, id))) = next {
            next = None;
            if kind == OBJECT {
                stats.hits += 1;
                let handle = (self.handle)(id);
                visit(RayHit {
                    handle,
                    t: f32::from_bits(bits),
                })?;
            } else {
                let nodes = &arena(kind).nodes;
                let node = &nodes[id as usize];
                if node.is_leaf() {
                    let i = node.object;
                    // Escaped objects were pushed above, by their current box.
                    if self.escaped_at[i as usize] == NONE {
                        if !stats.test(budget) {
                            return ControlFlow::Break(());
                        }
                        if let Some(t) = ray.entry(&self.boxes[i as usize]) {
                            next = Some(Reverse((t.to_bits(), OBJECT, i)));
                        }
                    }
                } else {
                    for child in [node.left, node.right] {
                        if !stats.visit(budget) {
                            return ControlFlow::Break(());
                        }
                        if let Some(t) = ray.entry(&nodes[child as usize].bound) {
                            let entry = Reverse((t.to_bits(), kind, child));
                            // Keep the nearer of the two in hand.
                            match next {
                                Some(held) if held >= entry => heap.push(entry),
                                Some(held) => {
                                    heap.push(held);
                                    next = Some(entry);
                                }
                                None => next = Some(entry),
                            }
                        }
                    }
                }
            }
            // Go on with the entry in hand only if nothing queued is nearer.
            next = match (next, heap.peek()) {
                (Some(held), Some(top)) if *top > held => {
                    heap.push(held);
                    heap.pop()
                }
                (Some(held), _) => Some(held),
                (None, _) => heap.pop(),
            };
        }
        ControlFlow::Continue(())
    }
}
