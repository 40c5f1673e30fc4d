//! `brute`: the O(n²) reference broad phase.
//!
//! Every step tests every pair of live objects with [`Aabb::overlaps`] and
//! diffs the result against the previous step. It is the oracle that every
//! other structure is checked against ([`super::Verified`]), and it is the
//! right choice for a few dozen objects: no maintenance, no tuning.
//!
//! Cost: n(n-1)/2 box tests per step, memory O(n + pairs).

use super::contract::{BroadPhase, StepStats};
use super::events::{FrameEvents, Pair, PairTracker};
use super::query::{QueryBudget, QueryStats, test_each};
use super::snapshot::Snapshot;
use crate::broad::Query;
use crate::error::Error;
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::{Handle, Slots};
use std::ops::ControlFlow;
use std::sync::Arc;

/// `brute`: the O(n²) reference broad phase.
///
/// Every step tests every pair of live objects with [`Aabb::overlaps`] and
/// diffs the result against the previous step. It is the oracle every other
/// structure is checked against ([`Verified`](crate::Verified)), and the
/// right choice for a few dozen objects: no maintenance, no tuning.
///
/// Cost: n(n-1)/2 box tests per step; memory O(n + pairs).
///
/// ```
/// use collide::{Aabb3, BroadPhase, Brute};
/// use glam::Vec3;
/// let mut world: Brute<Vec3> = Brute::new();
/// world.insert(Aabb3::new(Vec3::ZERO, Vec3::splat(2.0))?, ())?;
/// world.insert(Aabb3::new(Vec3::ONE, Vec3::splat(3.0))?, ())?;
/// assert_eq!(world.step().started.len(), 1);
/// assert_eq!(world.stats().candidates_tested, 1);
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Debug)]
pub struct Brute<V: Vector, T = ()> {
    objects: Slots<(Aabb<V>, T)>,
    tracker: PairTracker,
    stats: StepStats,
    // Scratch, reused every step so steady state does not allocate.
    live: Vec<(Handle, Aabb<V>)>,
}

impl<V: Vector, T> Default for Brute<V, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Vector, T> Brute<V, T> {
    /// An empty structure.
    ///
    /// ```
    /// use collide::{BroadPhase, Brute, Query};
    /// use glam::Vec2;
    /// let world: Brute<Vec2, &str> = Brute::new();
    /// assert!(world.is_empty() && world.pairs().is_empty());
    /// ```
    pub fn new() -> Self {
        Self {
            objects: Slots::new(),
            tracker: PairTracker::default(),
            stats: StepStats::default(),
            live: Vec::new(),
        }
    }
}

impl<V: Vector, T> Brute<V, T> {
    /// The object list without the user values, for a snapshot.
    fn frozen(&self) -> Brute<V, ()> {
        Brute {
            objects: self.objects.frozen_copy(|(aabb, _)| (*aabb, ())),
            tracker: PairTracker::default(),
            stats: StepStats::default(),
            live: Vec::new(),
        }
    }
}

impl<V: Vector, T> Query<V> for Brute<V, T> {
    fn name(&self) -> &str {
        "brute"
    }
    fn len(&self) -> usize {
        self.objects.len()
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.objects.get(handle).map(|(aabb, _)| *aabb)
    }
    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for (handle, (object, _)) in self.objects.iter() {
            if object.overlaps(aabb) {
                visit(handle)?;
            }
        }
        ControlFlow::Continue(())
    }
    /// Every object gets the exact test (no bounds, no visits).
    fn query_region(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        let objects = self.objects.iter().map(|(h, (aabb, _))| (h, aabb));
        test_each(objects, region, budget, visit)
    }
}

impl<V: Vector, T> BroadPhase<V, T> for Brute<V, T> {
    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        Ok(self.objects.insert((aabb, value))?)
    }
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        self.objects.get_mut(handle)?.0 = aabb;
        Ok(())
    }
    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        Ok(self.objects.remove(handle)?.1)
    }
    fn step(&mut self) -> Arc<FrameEvents> {
        self.live.clear();
        self.live
            .extend(self.objects.iter().map(|(h, (aabb, _))| (h, *aabb)));
        let next = self.tracker.begin();
        // Handles come in slot order, so (i, j) with i < j is already the
        // sorted pair order: no sort needed.
        for (i, (hi, bi)) in self.live.iter().enumerate() {
            for (hj, bj) in &self.live[i + 1..] {
                if bi.overlaps(bj) {
                    next.push(Pair::new(*hi, *hj));
                }
            }
        }
        self.tracker.finish();
        let n = self.live.len() as u64;
        self.stats = self
            .tracker
            .stats(self.live.len(), n * n.saturating_sub(1) / 2, 0);
        self.tracker.shared_events()
    }
    fn events(&self) -> &FrameEvents {
        self.tracker.events()
    }
    fn pairs(&self) -> &[Pair] {
        self.tracker.pairs()
    }
    fn stats(&self) -> StepStats {
        self.stats
    }
    fn value(&self, handle: Handle) -> Option<&T> {
        self.objects.get(handle).map(|(_, value)| value)
    }
    fn value_mut(&mut self, handle: Handle) -> Option<&mut T> {
        self.objects.get_mut(handle).ok().map(|(_, value)| value)
    }
    fn for_each_object(
        &self,
        visit: &mut dyn FnMut(Handle, Aabb<V>, &T) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for (handle, (aabb, value)) in self.objects.iter() {
            visit(handle, *aabb, value)?;
        }
        ControlFlow::Continue(())
    }
    fn snapshot(&self) -> Snapshot<V> {
        Snapshot::new(self.frozen())
    }
}

crate::broad::hosted::hosted_by_objects!(Brute);
