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
//!
//! Nodes are tested with the ray's reciprocal direction (multiplies, not
//! divisions, and no choice of faces by the direction's sign), widened by
//! a few units in the last place so the test never refuses a node the
//! exact test would enter, nor puts it later; objects get the exact test
//! ([`Ray::entry`]), and so do nodes for a ray whose direction is so small
//! on some axis that its reciprocal overflows.

use super::tree::NONE;
use super::view::{NodeStack, View};
use crate::broad::query::{QueryBudget, QueryStats, RayHit};
use crate::geometry::{Aabb, Ray, Vector};
use crate::handle::Handle;
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

/// How a walk tests nodes against its ray: where the ray enters a box, or
/// a little sooner; `None` only where the exact test ([`Ray::entry`])
/// gives `None` too.
trait NodeTest<V: Vector> {
    fn entry(&self, b: &Aabb<V>) -> Option<f32>;
}

/// The exact test itself (divisions): for a ray with a direction so small
/// on some axis that its reciprocal overflows.
impl<V: Vector> NodeTest<V> for Ray<V> {
    fn entry(&self, b: &Aabb<V>) -> Option<f32> {
        Ray::entry(self, b)
    }
}

/// A ray ready for many node tests: its origin and reciprocal direction.
///
/// Each axis takes the lesser of its two faces' `t` as where the ray
/// enters the slab and the greater as where it leaves, with no choice by
/// the direction's sign. No NaN arises where the reciprocal is finite.
/// Where the direction is 0 the reciprocal is infinite: an origin inside
/// the slab gives (-inf, inf), one outside two equal infinities that
/// refuse, and one on a face a NaN, which the comparisons pass over or
/// turn into a refusal; either is right, since a ray lying in a face does
/// not enter the open box.
struct Slabs {
    origin: [f32; 3],
    inverse: [f32; 3],
    max_t: f32,
}

impl Slabs {
    /// `None` for a direction so small on some axis (but not 0) that its
    /// reciprocal overflows: the product would be infinite where the
    /// quotient is not.
    fn new<V: Vector>(ray: &Ray<V>) -> Option<Self> {
        let (o, d) = (ray.origin(), ray.direction());
        let mut out = Slabs {
            origin: [0.0; 3],
            inverse: [0.0; 3],
            max_t: ray.max_t(),
        };
        for a in 0..V::DIM {
            out.origin[a] = o.axis(a);
            out.inverse[a] = 1.0 / d.axis(a);
            if d.axis(a) != 0.0 && !out.inverse[a].is_finite() {
                return None;
            }
        }
        Some(out)
    }
}

impl<V: Vector> NodeTest<V> for Slabs {
    /// The reciprocal's product is within 1.5 units in the last place of
    /// the quotient, so widening entry and exit by 4 keeps every node the
    /// exact test enters, never later. An infinite end (a slab the ray
    /// never reaches) widens to a NaN, which the negated test refuses.
    #[inline]
    fn entry(&self, b: &Aabb<V>) -> Option<f32> {
        let (min, max) = (b.min(), b.max());
        let (mut enter, mut exit) = (f32::NEG_INFINITY, f32::INFINITY);
        // Constant axes, so that nothing is bounds-checked.
        let mut slab = |a: usize| {
            let low = (min.axis(a) - self.origin[a]) * self.inverse[a];
            let high = (max.axis(a) - self.origin[a]) * self.inverse[a];
            let near = if high < low { high } else { low };
            let far = if low > high { low } else { high };
            enter = if near > enter { near } else { enter };
            exit = if far < exit { far } else { exit };
        };
        slab(0);
        slab(1);
        if V::DIM == 3 {
            slab(2);
        }
        let slack = 4.0 * f32::EPSILON;
        let (enter, exit) = (enter - enter.abs() * slack, exit + exit.abs() * slack);
        if !(enter <= exit && exit >= 0.0 && enter <= self.max_t) {
            return None;
        }
        Some(enter.max(0.0))
    }
}

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
                self.ray_walk_by(ray, budget, &mut stats, &mut heap, visit);
            }
            // A ray query from inside another's visitor: its own heap.
            Err(_) => {
                self.ray_walk_by(ray, budget, &mut stats, &mut BinaryHeap::new(), visit);
            }
        });
        stats
    }

    /// [`View::ray_walk`] with the fastest node test the ray allows.
    fn ray_walk_by(
        &self,
        ray: &Ray<V>,
        budget: &QueryBudget,
        stats: &mut QueryStats,
        heap: &mut BinaryHeap<Entry>,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) {
        let _ = match Slabs::new(ray) {
            Some(slabs) => self.ray_walk(ray, &slabs, budget, stats, heap, visit),
            None => self.ray_walk(ray, ray, budget, stats, heap, visit),
        };
    }

    fn ray_walk(
        &self,
        ray: &Ray<V>,
        slabs: &impl NodeTest<V>,
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
                if let Some(t) = slabs.entry(&arena(kind).nodes[root as usize].bound) {
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
                        if let Some(t) = slabs.entry(&nodes[child as usize].bound) {
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

    /// The nearest exact hit (see [`Query::query_ray_first`]): depth
    /// first, the nearer child first, skipping every node and box the ray
    /// enters beyond the best hit so far; no heap.
    ///
    /// [`Query::query_ray_first`]: crate::Query::query_ray_first
    pub(super) fn ray_first(
        &self,
        ray: &Ray<V>,
        exact: &mut dyn FnMut(Handle, f32) -> Option<f32>,
    ) -> Option<(f32, Handle)> {
        match Slabs::new(ray) {
            Some(slabs) => self.ray_first_by(ray, &slabs, exact),
            None => self.ray_first_by(ray, ray, exact),
        }
    }

    fn ray_first_by(
        &self,
        ray: &Ray<V>,
        test: &impl NodeTest<V>,
        exact: &mut dyn FnMut(Handle, f32) -> Option<f32>,
    ) -> Option<(f32, Handle)> {
        // The best hit so far; `best_t` is +inf until there is one.
        let mut best_t = f32::INFINITY;
        let mut best: Option<Handle> = None;
        let mut offer = |i: u32, best_t: &mut f32, best: &mut Option<Handle>| {
            let Some(t_box) = ray.entry(&self.boxes[i as usize]) else {
                return;
            };
            if t_box > *best_t {
                return;
            }
            let handle = (self.handle)(i);
            if let Some(t) = exact(handle, t_box) {
                if best.is_none_or(|b| (t, handle) < (*best_t, b)) {
                    (*best_t, *best) = (t, Some(handle));
                }
            }
        };
        // Objects out of their leaves' boxes: by their current box.
        for &i in self.escaped {
            offer(i, &mut best_t, &mut best);
        }
        let mut stack: NodeStack<(u32, f32)> = NodeStack::default();
        for arena in [self.moving, self.resting] {
            if arena.root == NONE {
                continue;
            }
            let nodes = &arena.nodes[..];
            if let Some(t) = test.entry(&nodes[arena.root as usize].bound) {
                stack.push((arena.root, t));
            }
            while let Some((n, t)) = stack.pop() {
                if t > best_t {
                    continue;
                }
                let node = &nodes[n as usize];
                if node.is_leaf() {
                    if self.escaped_at[node.object as usize] == NONE {
                        offer(node.object, &mut best_t, &mut best);
                    }
                    continue;
                }
                let (left, right) = (node.left, node.right);
                let near = test.entry(&nodes[left as usize].bound);
                let far = test.entry(&nodes[right as usize].bound);
                match (near, far) {
                    // The farther first, so the nearer comes off first.
                    (Some(a), Some(b)) => {
                        if b < a {
                            stack.push((left, a));
                            stack.push((right, b));
                        } else {
                            stack.push((right, b));
                            stack.push((left, a));
                        }
                    }
                    (Some(a), None) => stack.push((left, a)),
                    (None, Some(b)) => stack.push((right, b)),
                    (None, None) => {}
                }
            }
        }
        best.map(|h| (best_t, h))
    }
}

#[cfg(test)]
mod tests {
    use super::{NodeTest, Slabs};
    use crate::geometry::{Aabb, Ray};
    use crate::test_rng::TestRng;
    use glam::Vec3;

    /// A coordinate for the cases: often exactly on a plane through the
    /// origin's coordinate, or a hair beside it, near or far from 0.
    fn coordinate(rng: &mut TestRng, origin: f32) -> f32 {
        match rng.below(4) {
            0 => origin,
            1 => origin + rng.range(-1e-6, 1e-6) * origin.abs().max(1.0),
            _ => origin + rng.range(-4.0, 4.0),
        }
    }

    #[test]
    fn the_node_test_keeps_every_box_the_exact_test_enters_and_never_later() {
        let mut rng = TestRng::new(17);
        let (mut entered, mut refused) = (0, 0);
        for _ in 0..200_000 {
            let far = [0.0, 1e3, -1e5][rng.below(3)];
            let origin = Vec3::new(far + rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), far);
            // Directions along an axis or a plane a third of the time.
            let mut d = Vec3::new(rng.normal(), rng.normal(), rng.normal());
            for a in 0..3 {
                if rng.below(3) == 0 {
                    d[a] = if rng.below(2) == 0 { 0.0 } else { -0.0 };
                }
            }
            let Ok(ray) = Ray::new(origin, d, rng.range(0.0, 8.0)) else {
                continue;
            };
            let (a, b) = (
                Vec3::from_array([0, 1, 2].map(|k| coordinate(&mut rng, origin[k]))),
                Vec3::from_array([0, 1, 2].map(|k| coordinate(&mut rng, origin[k]))),
            );
            let aabb = Aabb::new(a.min(b), a.max(b)).unwrap();
            // Every direction here has finite reciprocals or exact zeros.
            let slabs = Slabs::new(&ray).expect("no tiny direction");
            match ray.entry(&aabb) {
                Some(t) => {
                    let node = slabs.entry(&aabb);
                    assert!(
                        node.is_some_and(|n| n <= t),
                        "{ray:?} {aabb:?}: exact {t}, node test {node:?}"
                    );
                    entered += 1;
                }
                None => refused += 1,
            }
        }
        assert!(entered > 10_000 && refused > 10_000, "{entered} {refused}");
    }

    #[test]
    fn a_direction_whose_reciprocal_overflows_takes_the_exact_test() {
        // Moving down by the least f32 a unit of t, the ray reaches a box
        // three of those below its origin at t = 3: the reciprocal would
        // be -inf.
        let ray = Ray::new(Vec3::ZERO, Vec3::new(1e-3, -1e-45, 0.0), 10.0).unwrap();
        assert!(Slabs::new(&ray).is_none());
        let below = Aabb::new(Vec3::new(-1.0, -1.0, -1.0), Vec3::new(1.0, -4e-45, 1.0)).unwrap();
        assert!(ray.entry(&below).is_some_and(|t| t > 2.0 && t < 5.0));
        let zero = Ray::new(Vec3::ZERO, Vec3::new(1.0, -0.0, 0.0), 10.0).unwrap();
        assert!(Slabs::new(&zero).is_some());
    }
}
