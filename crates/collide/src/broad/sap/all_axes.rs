//! [`Sap`]: sweep and prune with every axis kept sorted, its step (repair
//! by insertion sort, pairs from the swaps; or a re-sort and one sweep)
//! and the broad-phase contract.

use super::base::{ALIVE, ENTERING, LEAVING, SPANNER, SweepBase, contract_from_base};
use super::config::{SapConfig, SapStats};
use super::endpoints::{
    ENDPOINT_ORDER_SHIFT, OverBudget, is_start, key, kinds_differ, merge_into, proxy, refreshed,
    repair, sort_unique,
};
use super::pairset::PairSet;
use super::parts::{Measures, Proxies, SortedKeys, StepWork};
use super::sweep::{OpenSet, SweepFor, sweep};
use crate::broad::contract::{BroadPhase, StepStats};
use crate::broad::events::{FrameEvents, Pair, pair_key};
use crate::broad::query::{QueryBudget, QueryStats};
use crate::broad::snapshot::Snapshot;
use crate::error::Error;
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::{Handle, Slots};
use std::ops::ControlFlow;

/// `sap`: the swap budget per endpoint of an axis, past which the axis is
/// re-sorted instead of repaired. Insertion sort wins when few endpoints
/// move (under one swap per endpoint), both cost the same near 2.5, and
/// re-sorting wins when many endpoints move (8 and up, and under fast
/// motion always) (figures: BENCHMARKS.md).
const SAP_SWAPS_PER_ENDPOINT: u64 = 4;

/// The swap budget of one axis of `len` endpoints (see
/// [`SAP_SWAPS_PER_ENDPOINT`]).
fn swap_budget(len: usize) -> u64 {
    SAP_SWAPS_PER_ENDPOINT * len.max(64) as u64
}

/// Incremental sweep-and-prune on every axis (`sap`), in 2D and 3D: exact
/// pair events straight from endpoint swaps.
///
/// Each object's box is projected on every axis as a start and an end. The
/// keys stay sorted from step to step: a step gives them their new values
/// and repairs the order by insertion sort, so its cost follows the number
/// of swaps, which is small when objects move little (temporal coherence).
/// Equal values put an end before a start, matching the strict overlap
/// rule. When a start passes an end, two intervals begin to overlap on
/// that axis and the full boxes are tested; when an end passes a start,
/// they stop and the pair (if any) ends. The pairs and the events come out
/// of the swaps themselves: no sweep and no diff in a coherent step.
///
/// When the swaps would cost more than a fresh sort (fast or teleporting
/// objects, mass inserts), the step re-sorts from scratch with a radix sort
/// and rebuilds the pairs with one sweep along the axis with the largest
/// variance of centres. Objects that jump far are re-inserted rather than
/// swapped across the world. Objects far longer than the rest along the
/// sweep axis (floors, walls; see [`Spanners`](super::Spanners)) live in a
/// separate list tested against everyone through an index on the axis
/// where they are thinnest.
///
/// Pick it when motion is coherent and the started and stopped events
/// matter more than the pair list; for flat worlds, fast motion and
/// resting objects pick [`BandSap`](super::BandSap). Cost per step:
/// O(n + swaps); memory O(n + pairs).
///
/// ```
/// use collide::{Aabb2, BroadPhase, Pair, Sap};
/// use glam::Vec2;
/// let mut sap: Sap<Vec2, &str> = Sap::new();
/// let a = sap.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?, "a")?;
/// let b = sap.insert(Aabb2::new(Vec2::splat(5.0), Vec2::splat(6.0))?, "b")?;
/// assert!(sap.step().is_empty());
/// sap.update(b, Aabb2::new(Vec2::splat(1.0), Vec2::splat(3.0))?)?;
/// assert_eq!(sap.step().started, vec![Pair::new(a, b)]);
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Debug)]
pub struct Sap<V: Vector, T = ()> {
    pub(super) base: SweepBase<V, T>,
    /// The current pairs, and the changes of the step being taken.
    pub(super) set: PairSet,
    /// Proxy pair keys of last step's pairs with a spanner, sorted.
    pub(super) span_keys: Vec<u64>,
    pub(super) open: OpenSet,
    pub(super) open_fresh: OpenSet,
}

impl<V: Vector, T> Default for Sap<V, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Vector, T> Sap<V, T> {
    /// An empty structure with the default settings.
    ///
    /// ```
    /// use collide::{BroadPhase, Query, Sap};
    /// use glam::Vec3;
    /// let sap: Sap<Vec3> = Sap::new();
    /// assert!(sap.is_empty());
    /// ```
    pub fn new() -> Self {
        Self::with_config(SapConfig::default()).expect("the default settings are valid")
    }

    /// An empty structure with `config`, or the setting that is out of
    /// range.
    ///
    /// ```
    /// use collide::{Sap, SapConfig};
    /// use glam::Vec2;
    /// let bad = SapConfig { sweep_axis: Some(2), ..SapConfig::default() };
    /// let err = Sap::<Vec2>::with_config(bad).unwrap_err();
    /// assert!(err.to_string().contains("sweep_axis"));
    /// ```
    pub fn with_config(config: SapConfig) -> Result<Self, Error> {
        config.validate(V::DIM)?;
        Ok(Self::around(SweepBase::new(config, Slots::new(), V::DIM)))
    }

    fn around(base: SweepBase<V, T>) -> Self {
        Self {
            base,
            set: PairSet::default(),
            span_keys: Vec::new(),
            open: OpenSet::default(),
            open_fresh: OpenSet::default(),
        }
    }

    /// The settings.
    ///
    /// ```
    /// use collide::{Sap, SapConfig};
    /// use glam::Vec2;
    /// assert_eq!(Sap::<Vec2>::new().config(), &SapConfig::default());
    /// ```
    pub fn config(&self) -> &SapConfig {
        &self.base.config
    }

    /// The axis used for full sweeps (0 = x): the configured one, or the
    /// one picked at the last measurement (see [`SapConfig::sweep_axis`]).
    pub fn sweep_axis(&self) -> usize {
        self.base.measures.sweep_axis
    }

    /// What the last step did, beyond [`BroadPhase::stats`].
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Sap};
    /// use glam::Vec2;
    /// let mut sap: Sap<Vec2> = Sap::new();
    /// let a = sap.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// sap.insert(Aabb2::new(Vec2::splat(3.0), Vec2::splat(4.0))?, ())?;
    /// sap.step(); // the first step sorts from scratch
    /// assert_eq!(sap.sap_stats().resorts, 1);
    /// sap.update(a, Aabb2::new(Vec2::splat(2.5), Vec2::splat(3.5))?)?;
    /// sap.step(); // on each axis b's start passes a's end: they overlap
    /// let stats = sap.sap_stats();
    /// assert_eq!(stats.resorts, 0);
    /// assert_eq!(stats.swaps, [1, 1, 0]); // one swap per axis
    /// assert_eq!(stats.axis_overlaps_started, 2);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn sap_stats(&self) -> SapStats {
        self.base.measures.sap_stats
    }

    /// What the queries read, without the user values and the pair state.
    fn frozen(&self) -> Sap<V, ()> {
        Sap::around(self.base.frozen())
    }

    /// See [`SweepBase::search`]: a slab scan of the sweep axis.
    fn search<R: Region<V> + ?Sized>(
        &self,
        region: &R,
        budget: &QueryBudget,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.base.search(region, budget, stats, visit, None)
    }

    /// The whole step.
    fn step_all(&mut self) {
        let mut stats = SapStats::default();
        let mut resort = !self.base.sorted.built;
        self.base.begin_step();
        self.base.classify();
        resort |= self.base.must_resort();
        let mut tested = 0u64;
        if !resort && self.repair_all(&mut stats, &mut tested).is_err() {
            self.base.over_budget();
            resort = true;
        }
        if resort {
            self.sort_from_scratch();
            stats.resorts = 1;
            self.finish_by_sweep(&mut stats, &mut tested);
        } else {
            self.finish_incremental(&mut stats, &mut tested);
        }
        self.base.settle();
        let room = self.base.make_room(self.span_keys.len(), 0);
        crate::broad::headroom::reserve_headroom(&mut self.span_keys, room);
        stats.bands = 1;
        self.base.end_step(stats, tested);
    }

    /// Drops the leaving objects' pairs, then repairs every axis,
    /// turning swaps into pair changes.
    fn repair_all(&mut self, stats: &mut SapStats, tested: &mut u64) -> Result<(), OverBudget> {
        // Every axis holds the same endpoints.
        let budget = swap_budget(self.base.sorted.arrays[0].len());
        let Self { base, set, .. } = self;
        let SweepBase {
            sorted: SortedKeys { arrays: axes, .. },
            proxies: Proxies { boxes, status, .. },
            work: StepWork { leaving, .. },
            ..
        } = base;
        set.reserve_proxies(boxes.len());
        if !leaving.is_empty() {
            set.remove_pairs_of(|p| status[p] & LEAVING != 0);
        }
        for (axis, keys) in axes.iter_mut().enumerate() {
            let (mut begins, mut ends, mut tests) = (0u64, 0u64, 0u64);
            let swaps = repair(
                keys,
                |k| {
                    let p = proxy(k) as usize;
                    (status[p] & LEAVING == 0).then(|| refreshed(k, &boxes[p], axis))
                },
                |moving, passed| {
                    // Two starts or two ends: no overlap changes.
                    if !kinds_differ(moving, passed) {
                        return;
                    }
                    let (p, q) = (proxy(moving), proxy(passed));
                    if p == q {
                        return;
                    }
                    let k = pair_key(p, q);
                    let (bp, bq) = (&boxes[p as usize], &boxes[q as usize]);
                    if is_start(moving) {
                        begins += 1;
                    } else {
                        ends += 1;
                    }
                    if is_start(moving) {
                        tests += 1;
                        if bp.overlaps(bq) {
                            set.insert(k);
                        }
                    } else {
                        set.remove(k);
                    }
                },
                budget,
            )?;
            stats.swaps[axis] = swaps;
            stats.axis_overlaps_started += begins;
            stats.axis_overlaps_ended += ends;
            *tested += tests;
        }
        Ok(())
    }

    /// Rebuilds every sorted array from the objects, with a radix sort.
    fn sort_from_scratch(&mut self) {
        for array in 0..self.base.sorted.arrays.len() {
            let axis = array;
            let keys = &mut self.base.sorted.arrays[array];
            keys.clear();
            for (p, aabb) in self.base.proxies.boxes.iter().enumerate() {
                let s = self.base.proxies.status[p];
                if s & ALIVE != 0 && s & SPANNER == 0 {
                    keys.push(key(aabb.min().axis(axis), true, p as u32));
                    keys.push(key(aabb.max().axis(axis), false, p as u32));
                }
            }
            sort_unique(keys, &mut self.base.work.scratch, ENDPOINT_ORDER_SHIFT);
        }
    }

    /// Merges the entering objects' endpoints into every sorted array.
    fn merge_entering(&mut self) {
        if self.base.work.entering.is_empty() {
            return;
        }
        for array in 0..self.base.sorted.arrays.len() {
            let axis = array;
            self.base.work.fresh.clear();
            for &p in &self.base.work.entering {
                let aabb = &self.base.proxies.boxes[p as usize];
                self.base
                    .work
                    .fresh
                    .push(key(aabb.min().axis(axis), true, p));
                self.base
                    .work
                    .fresh
                    .push(key(aabb.max().axis(axis), false, p));
            }
            self.base.work.fresh.sort_unstable();
            merge_into(&mut self.base.sorted.arrays[array], &self.base.work.fresh);
        }
    }

    /// After a repair: merges the entering objects and finds their
    /// pairs, refreshes the spanners' pairs, and turns the flips into events.
    fn finish_incremental(&mut self, stats: &mut SapStats, tested: &mut u64) {
        self.merge_entering();
        // Spanners: one merge of this step's pairs with the last step's.
        // New ones are added, gone ones removed; a pair in both is added
        // again only if a side left this step (its pairs were dropped).
        let mut keys = std::mem::take(&mut self.base.work.keys);
        keys.clear();
        *tested += self.base.spanner_pairs(|s, q| keys.push(pair_key(s, q)));
        sort_unique(&mut keys, &mut self.base.work.scratch, 0);
        self.set.reserve_proxies(self.base.proxies.boxes.len());
        let status = &self.base.proxies.status;
        let left = |k: u64| (status[(k >> 32) as usize] | status[k as u32 as usize]) & LEAVING != 0;
        let (old, set) = (&self.span_keys, &mut self.set);
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < keys.len() {
            if j == keys.len() || (i < old.len() && old[i] < keys[j]) {
                set.remove(old[i]);
                i += 1;
            } else if i == old.len() || keys[j] < old[i] {
                set.insert(keys[j]);
                j += 1;
            } else {
                if left(keys[j]) {
                    set.insert(keys[j]);
                }
                i += 1;
                j += 1;
            }
        }
        std::mem::swap(&mut self.span_keys, &mut keys);
        self.base.work.keys = keys;
        if !self.base.work.entering.is_empty() {
            let Self {
                base,
                set,
                open,
                open_fresh,
                ..
            } = self;
            let SweepBase {
                sorted: SortedKeys { arrays: axes, .. },
                proxies: Proxies { boxes, status, .. },
                measures: Measures { sweep_axis, .. },
                ..
            } = base;
            let sweep_axis = *sweep_axis;
            let candidates = sweep(
                &axes[sweep_axis],
                boxes,
                sweep_axis,
                SweepFor::Fresh,
                |p| p,
                |p| status[p as usize] & ENTERING != 0,
                open,
                open_fresh,
                |p, q| set.insert(pair_key(p, q)),
            );
            stats.sweep_candidates = candidates;
            *tested += candidates;
        }
        let Self { base, set, .. } = self;
        let SweepBase {
            proxies: Proxies { handle_of, .. },
            tracker,
            ..
        } = base;
        tracker.finish_with_events(|started, stopped| {
            set.drain_changes(|k, present| {
                let pair = Pair::new(handle_of[(k >> 32) as usize], handle_of[k as u32 as usize]);
                if present {
                    started.push(pair);
                } else {
                    stopped.push(pair);
                }
            });
        });
    }

    /// After a re-sort: one full sweep (plus the spanners) gives the
    /// pairs, and a sorted merge the events.
    fn finish_by_sweep(&mut self, stats: &mut SapStats, tested: &mut u64) {
        if stats.resorts == 0 {
            self.merge_entering();
        }
        let mut keys = std::mem::take(&mut self.base.work.keys);
        keys.clear();
        // Tagged by slot index: sorted slot pair keys are the pair order.
        let handle_of = &self.base.proxies.handle_of;
        let candidates = sweep(
            &self.base.sorted.arrays[self.base.measures.sweep_axis],
            &self.base.proxies.boxes,
            self.base.measures.sweep_axis,
            SweepFor::All,
            |p| handle_of[p as usize].index(),
            |_| false,
            &mut self.open,
            &mut self.open_fresh,
            |a, b| keys.push(pair_key(a, b)),
        );
        stats.sweep_candidates = candidates;
        *tested += candidates;
        let in_axes = keys.len();
        let mut spanner_keys = std::mem::take(&mut self.base.work.fresh);
        spanner_keys.clear();
        *tested += self
            .base
            .spanner_pairs(|s, q| spanner_keys.push(pair_key(s, q)));
        self.base.extend_by_slot(&mut keys, &spanner_keys);
        // The pair set (by proxy) and the spanners' pairs, for the next
        // repair.
        let proxy_of = &self.base.proxies.proxy_of;
        let by_proxy = |k: u64| pair_key(proxy_of[(k >> 32) as usize], proxy_of[k as u32 as usize]);
        self.base.work.scratch.clear();
        self.base
            .work
            .scratch
            .extend(keys[..in_axes].iter().map(|&k| by_proxy(k)));
        self.base.work.scratch.extend_from_slice(&spanner_keys);
        self.set.reserve_proxies(self.base.proxies.boxes.len());
        self.set.reset(&self.base.work.scratch);
        spanner_keys.sort_unstable();
        std::mem::swap(&mut self.span_keys, &mut spanner_keys);
        self.base.work.fresh = spanner_keys;
        sort_unique(&mut keys, &mut self.base.work.scratch, 0);
        self.base
            .tracker
            .finish_keys(&keys, &self.base.proxies.objects);
        self.base.work.keys = keys;
    }
}

contract_from_base!(Sap, "sap");

impl<V: Vector, T> BroadPhase<V, T> for Sap<V, T> {
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        self.base.update(handle, aabb).map(|_| ())
    }
    contract_from_base!(@write);
}
