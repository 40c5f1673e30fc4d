//! One sweep-and-prune step: measure, sort out who moved where, repair the
//! sorted axes (turning swaps into pair events for `sap`), or re-sort from
//! scratch when that is cheaper, and hand the events over.

use super::config::{SapKind, SapStats, Spanners};
use super::core::{
    ALIVE, ENTERING, IN_AXES, JUMPED, LEAVING, SPANNER, Sap, TOUCHED, largest_extent, swept_extent,
};
use super::endpoints::{
    OverBudget, is_start, key, kinds_differ, merge_into, proxy, refreshed, repair,
};
use super::sweep::{SweepFor, sweep};
use crate::broad::events::{Pair, pair_key};
use crate::broad::headroom::{keep_headroom, reserve_headroom};
use crate::broad::radix::{merge_sorted, radix_sort_by_key};
use crate::broad::split_sort::pair_key_bits;
use crate::geometry::Vector;

/// After an over-budget step, this many steps re-sort directly before the
/// incremental repair is tried again.
const RETRY_AFTER: u64 = 8;
/// More entering objects than this share of those in the axes: re-sort
/// rather than merge and sweep (or scan).
const MASS_INSERT_SHARE: usize = 4;
/// `sap`: the swap budget per endpoint of an axis. Measured with
/// collide-bench on 2D and 3D `uniform` (variants that always re-sorted
/// and that never did):
/// at 1,000 objects slow motion makes 0.75 swaps per endpoint and repairing
/// is faster (72 against 113 us), at 10,000 it makes 2.5 and both cost the
/// same, at 100,000 it makes 8 and re-sorting wins (26 against 30 ms); fast
/// motion (6 to 60 per endpoint) always favours re-sorting, by 2 to 6
/// times. BENCHMARKS.md at commit 36a3a50 has the tables.
const SAP_SWAPS_PER_ENDPOINT: u64 = 4;
/// `sap1`: keys per allowed swap. `sap1` scans every step anyway, so only
/// the radix sort competes with the repair. Measured with both endpoints
/// per object, the radix sort won on every shared scene from 0.75 swaps
/// per endpoint up (87 against 95 us at 1,000 objects); with one key per
/// object and band (commit f736aa6), this rule was within the runs' spread
/// of the better of always and never re-sorting on 2D and 3D `uniform`
/// and `flat`, slow and fast, at 10,000 and 100,000 objects (two runs
/// each, BENCHMARKS.md at commit 36a3a50, "`sap1` by sorted mins and a forward scan").
const SAP1_KEYS_PER_SWAP: u64 = 2;
/// A jump is a move of the centre by more than this many median sizes.
const JUMP_SIZES: f32 = 4.0;
/// Below this many keys a comparison sort beats the radix sort's fixed
/// cost (its 48 KiB of counters).
const RADIX_MIN: usize = 4096;
/// Endpoint keys pushed in proxy order need sorting on their value and
/// kind bits only: the stable radix sort keeps equal ones in proxy order,
/// which is the order of the low bits. Three digit passes instead of six.
pub(super) const ENDPOINT_ORDER_SHIFT: u32 = 31;

/// Sorts distinct keys; with a radix sort on `key >> shift` when that many
/// are worth it, which gives the full order when the items are already in
/// order on their low `shift` bits among equal high bits.
pub(super) fn sort_unique(keys: &mut Vec<u64>, scratch: &mut Vec<u64>, shift: u32) {
    if keys.len() < RADIX_MIN {
        keys.sort_unstable();
    } else {
        radix_sort_by_key(keys, scratch, |k| *k >> shift);
    }
    debug_assert!(keys.windows(2).all(|w| w[0] < w[1]));
}

/// The swap budget of one sorted array of `len` keys (see
/// [`SAP_SWAPS_PER_ENDPOINT`] and [`SAP1_KEYS_PER_SWAP`]).
pub(super) fn swap_budget(kind: SapKind, len: usize) -> u64 {
    let len = len.max(64) as u64;
    match kind {
        SapKind::AllAxes => SAP_SWAPS_PER_ENDPOINT * len,
        SapKind::OneAxis => len / SAP1_KEYS_PER_SWAP,
    }
}

/// The median of `values` (reordered), 0 for none.
pub(super) fn median(values: &mut [f32]) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    let mid = values.len() / 2;
    *values.select_nth_unstable_by(mid, f32::total_cmp).1
}

impl<V: Vector, T> Sap<V, T> {
    /// The whole step.
    pub(super) fn step_all(&mut self) {
        self.steps += 1;
        let mut stats = SapStats::default();
        let mut resort = !self.built;
        let one_axis = self.kind == SapKind::OneAxis;
        let every = u64::from(self.config.remeasure_every);
        if !self.built || (self.steps - 1).is_multiple_of(every) {
            let before = self.sweep_axis;
            self.measure();
            if one_axis {
                resort |= self.sweep_axis != before;
                resort |= self.measure_bands();
                // Coherent steps only raise it: measure it again now and
                // then, so one long box passing through does not lengthen
                // every later scan.
                self.max_extent_stale = true;
            }
        }
        self.classify();
        let in_axes = self.objects.len() - self.spanners.len();
        resort |= self.entering.len() * MASS_INSERT_SHARE > in_axes;
        resort |= self.steps < self.incoherent_until;
        let mut tested = 0u64;
        if one_axis {
            stats.moved = self.take_moves();
            if !resort {
                self.update_bands();
            }
        }
        if !resort {
            let repaired = match self.kind {
                SapKind::AllAxes => self.repair_all(&mut stats, &mut tested),
                SapKind::OneAxis => self.repair_bands(&mut stats),
            };
            if repaired.is_err() {
                self.incoherent_until = self.steps + RETRY_AFTER;
                resort = true;
            }
        }
        if resort {
            self.sort_from_scratch();
            stats.resorts = 1;
        }
        match (self.kind, resort) {
            (SapKind::AllAxes, false) => self.finish_incremental(&mut stats, &mut tested),
            (SapKind::AllAxes, true) => self.finish_by_sweep(&mut stats, &mut tested),
            (SapKind::OneAxis, _) => self.finish_one_axis(&mut stats, &mut tested),
        }
        self.settle();
        self.make_room();
        stats.sweep_axis = self.sweep_axis;
        stats.bands = self.bands.count;
        stats.spanners = self.spanners.len();
        stats.jumps = std::mem::take(&mut self.jumps);
        stats.variance = self.sap_stats.variance;
        let swaps = stats.swaps.iter().sum();
        self.sap_stats = stats;
        self.stats = self.tracker.stats(self.objects.len(), tested, swaps);
        self.built = true;
        self.dirty = false;
    }

    /// Measures the centre variance per axis and the median size; picks the
    /// sweep axis, the spanning threshold and the jump distance, and sends
    /// every object whose list changes to the next classification.
    fn measure(&mut self) {
        let mut count = 0f64;
        let mut mean = [0f64; 3];
        let mut m2 = [0f64; 3];
        self.extents.clear();
        for (p, aabb) in self.boxes.iter().enumerate() {
            if self.status[p] & ALIVE == 0 {
                continue;
            }
            count += 1.0;
            for a in 0..V::DIM {
                // Welford's update: stable for large coordinates.
                let c = 0.5 * (f64::from(aabb.min().axis(a)) + f64::from(aabb.max().axis(a)));
                let delta = c - mean[a];
                mean[a] += delta / count;
                m2[a] += delta * (c - mean[a]);
            }
            self.extents.push(largest_extent(aabb));
        }
        let mut variance = [0f64; 3];
        if count > 0.0 {
            for a in 0..V::DIM {
                variance[a] = m2[a] / count;
            }
        }
        self.sap_stats.variance = variance;
        self.sweep_axis = self.config.sweep_axis.unwrap_or_else(|| {
            (0..V::DIM).fold(0, |best, a| {
                if variance[a] > variance[best] {
                    a
                } else {
                    best
                }
            })
        });
        let positive = |x: f32| x > 0.0 && x.is_finite();
        let size = median(&mut self.extents);
        self.jump_distance = if positive(size) {
            JUMP_SIZES * size
        } else {
            f32::INFINITY
        };
        // The spanning threshold is along the sweep axis.
        self.extents.clear();
        for (p, aabb) in self.boxes.iter().enumerate() {
            if self.status[p] & ALIVE != 0 {
                self.extents.push(swept_extent(aabb, self.sweep_axis));
            }
        }
        let swept_median = median(&mut self.extents);
        self.span_extent = match self.config.spanners {
            Spanners::Relative { factor } if positive(swept_median) => factor * swept_median,
            Spanners::Extent(extent) => extent,
            _ => f32::INFINITY,
        };
        for p in 0..self.boxes.len() {
            let status = self.status[p];
            if status & ALIVE != 0 && (status & SPANNER != 0) != self.spans(&self.boxes[p]) {
                if status & TOUCHED == 0 {
                    self.touched.push(p as u32);
                }
                self.status[p] |= TOUCHED;
            }
        }
    }

    /// Sorts the touched objects into leaving (keys and pairs dropped),
    /// entering (keys merged, pairs found by a sweep or `sap1`'s scan), the
    /// spanning list, and the dead.
    fn classify(&mut self) {
        self.leaving.clear();
        self.entering.clear();
        self.dead.clear();
        for k in 0..self.touched.len() {
            let p = self.touched[k];
            let i = p as usize;
            let mut s = self.status[i] & !TOUCHED;
            if s & ALIVE == 0 {
                if s & (IN_AXES | SPANNER) != 0 {
                    s |= LEAVING;
                    self.leaving.push(p);
                }
                s &= !SPANNER;
                self.dead.push(p);
            } else if self.spans(&self.boxes[i]) {
                if s & SPANNER == 0 {
                    if s & IN_AXES != 0 {
                        s |= LEAVING;
                        self.leaving.push(p);
                    }
                    s |= SPANNER;
                    self.spanners.push(p);
                }
            } else if s & SPANNER != 0 || s & JUMPED != 0 {
                // Back from the spanning list, or a jump: drop every pair
                // and find them again; unchanged pairs flip twice and give
                // no event.
                s = (s & !SPANNER) | LEAVING | ENTERING;
                self.leaving.push(p);
                self.entering.push(p);
            } else if s & IN_AXES == 0 {
                s |= ENTERING;
                self.entering.push(p);
            }
            self.status[i] = s & !JUMPED;
        }
        // Filled by the calls before the next step: room for as many.
        keep_headroom(&mut self.touched);
        self.touched.clear();
        let status = &self.status;
        self.spanners.retain(|&p| status[p as usize] & SPANNER != 0);
    }

    /// The swap budget of one array of `len` keys: past it, a re-sort
    /// (radix sort, then one sweep or scan) is cheaper than going on
    /// swapping.
    fn budget(&self, len: usize) -> u64 {
        swap_budget(self.kind, len)
    }

    /// `sap`: drops the leaving objects' pairs, then repairs every axis,
    /// turning swaps into pair changes.
    fn repair_all(&mut self, stats: &mut SapStats, tested: &mut u64) -> Result<(), OverBudget> {
        // Every axis holds the same endpoints.
        let budget = self.budget(self.axes[0].len());
        let Self {
            axes,
            boxes,
            status,
            set,
            leaving,
            ..
        } = self;
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

    /// The axis each sorted array holds.
    fn array_axis(&self, array: usize) -> usize {
        match self.kind {
            SapKind::AllAxes => array,
            SapKind::OneAxis => self.sweep_axis,
        }
    }

    /// Rebuilds every sorted array from the objects, with a radix sort.
    fn sort_from_scratch(&mut self) {
        if self.kind == SapKind::OneAxis {
            self.sort_bands_from_scratch();
            return;
        }
        for array in 0..self.axes.len() {
            let axis = self.array_axis(array);
            let keys = &mut self.axes[array];
            keys.clear();
            for (p, aabb) in self.boxes.iter().enumerate() {
                let s = self.status[p];
                if s & ALIVE != 0 && s & SPANNER == 0 {
                    keys.push(key(aabb.min().axis(axis), true, p as u32));
                    keys.push(key(aabb.max().axis(axis), false, p as u32));
                }
            }
            sort_unique(keys, &mut self.scratch, ENDPOINT_ORDER_SHIFT);
        }
    }

    /// Merges the entering objects' endpoints into every sorted array
    /// (`sap1`: their keys, and those of objects that entered new bands,
    /// into the bands).
    fn merge_entering(&mut self) {
        if self.kind == SapKind::OneAxis {
            self.merge_into_bands();
            return;
        }
        if self.entering.is_empty() {
            return;
        }
        for array in 0..self.axes.len() {
            let axis = self.array_axis(array);
            self.fresh.clear();
            for &p in &self.entering {
                let aabb = &self.boxes[p as usize];
                self.fresh.push(key(aabb.min().axis(axis), true, p));
                self.fresh.push(key(aabb.max().axis(axis), false, p));
            }
            self.fresh.sort_unstable();
            merge_into(&mut self.axes[array], &self.fresh);
        }
    }

    /// Calls `on_pair(spanner, other)` for every overlapping pair with a
    /// spanning object, once, through the spanner index (see
    /// `spanners.rs`). Returns the number of box tests.
    fn spanner_pairs(&mut self, mut on_pair: impl FnMut(u32, u32)) -> u64 {
        if self.spanners.is_empty() {
            return 0;
        }
        self.spanner_index.rebuild(&self.spanners, &self.boxes);
        let (index, boxes, status) = (&self.spanner_index, &self.boxes, &self.status);
        let mut tested = 0u64;
        // Spanners against each other: each pair from its lower proxy.
        for &s in &self.spanners {
            let aabb = &boxes[s as usize];
            tested += index.candidates(aabb, |t| {
                if t > s && aabb.overlaps(&boxes[t as usize]) {
                    on_pair(s, t);
                }
            });
        }
        // Everyone else against the spanners.
        for (q, aabb) in boxes.iter().enumerate() {
            if status[q] & (ALIVE | SPANNER) != ALIVE {
                continue;
            }
            tested += index.candidates(aabb, |s| {
                if boxes[s as usize].overlaps(aabb) {
                    on_pair(s, q as u32);
                }
            });
        }
        tested
    }

    /// `sap` after a repair: merges the entering objects and finds their
    /// pairs, refreshes the spanners' pairs, and turns the flips into events.
    fn finish_incremental(&mut self, stats: &mut SapStats, tested: &mut u64) {
        self.merge_entering();
        // Spanners: one merge of this step's pairs with the last step's.
        // New ones are added, gone ones removed; a pair in both is added
        // again only if a side left this step (its pairs were dropped).
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        *tested += self.spanner_pairs(|s, q| keys.push(pair_key(s, q)));
        sort_unique(&mut keys, &mut self.scratch, 0);
        self.set.reserve_proxies(self.boxes.len());
        let status = &self.status;
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
        self.keys = keys;
        if !self.entering.is_empty() {
            let Self {
                axes,
                boxes,
                status,
                set,
                open,
                open_fresh,
                ..
            } = self;
            let candidates = sweep(
                &axes[self.sweep_axis],
                boxes,
                self.sweep_axis,
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
        let Self {
            set,
            handle_of,
            tracker,
            ..
        } = self;
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

    /// Appends proxy pair keys to `keys` as slot pair keys.
    fn extend_by_slot(&self, keys: &mut Vec<u64>, by_proxy: &[u64]) {
        let slot = |p: u32| self.handle_of[p as usize].index();
        keys.extend(
            by_proxy
                .iter()
                .map(|&k| pair_key(slot((k >> 32) as u32), slot(k as u32))),
        );
    }

    /// `sap1`'s pairs: the kept pairs brought up to date around the objects
    /// that moved (a coherent step, see `coherent.rs`) or found anew by a
    /// scan of every band, plus the spanners' pairs; a sorted merge gives
    /// the events.
    fn finish_one_axis(&mut self, stats: &mut SapStats, tested: &mut u64) {
        let resorted = stats.resorts != 0;
        if !resorted {
            self.merge_entering();
        }
        stats.coherent = !resorted && self.coherent(stats);
        if stats.coherent {
            *tested += self.coherent_pairs();
        } else {
            let mut pairs = std::mem::take(&mut self.band_pairs);
            pairs.clear();
            let candidates = self.scan_bands(&mut pairs);
            let key_bits = pair_key_bits(self.objects.capacity_index());
            self.split_sort.sort(&mut pairs, key_bits);
            debug_assert!(pairs.windows(2).all(|w| w[0] < w[1]));
            self.band_pairs = pairs;
            self.max_extent_stale = true;
            stats.sweep_candidates = candidates;
            *tested += candidates;
        }
        let mut spanner_keys = std::mem::take(&mut self.fresh);
        spanner_keys.clear();
        *tested += self.spanner_pairs(|s, q| spanner_keys.push(pair_key(s, q)));
        if spanner_keys.is_empty() {
            self.tracker.finish_keys(&self.band_pairs, &self.objects);
        } else {
            // The spanners' few pairs sorted, then merged with the kept
            // ones (no pair is in both: one side is a spanner).
            let mut keys = std::mem::take(&mut self.keys);
            keys.clear();
            self.extend_by_slot(&mut keys, &spanner_keys);
            sort_unique(&mut keys, &mut self.scratch, 0);
            merge_sorted(&self.band_pairs, &keys, &mut self.scratch);
            self.tracker.finish_keys(&self.scratch, &self.objects);
            self.keys = keys;
        }
        keep_headroom(&mut spanner_keys);
        self.fresh = spanner_keys;
    }

    /// `sap` after a re-sort: one full sweep (plus the spanners) gives the
    /// pairs, and a sorted merge the events.
    fn finish_by_sweep(&mut self, stats: &mut SapStats, tested: &mut u64) {
        if stats.resorts == 0 {
            self.merge_entering();
        }
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        // Tagged by slot index: sorted slot pair keys are the pair order.
        let handle_of = &self.handle_of;
        let candidates = sweep(
            &self.axes[self.sweep_axis],
            &self.boxes,
            self.sweep_axis,
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
        let mut spanner_keys = std::mem::take(&mut self.fresh);
        spanner_keys.clear();
        *tested += self.spanner_pairs(|s, q| spanner_keys.push(pair_key(s, q)));
        self.extend_by_slot(&mut keys, &spanner_keys);
        // The pair set (by proxy) and the spanners' pairs, for the next
        // repair.
        let proxy_of = &self.proxy_of;
        let by_proxy = |k: u64| pair_key(proxy_of[(k >> 32) as usize], proxy_of[k as u32 as usize]);
        self.scratch.clear();
        self.scratch
            .extend(keys[..in_axes].iter().map(|&k| by_proxy(k)));
        self.scratch.extend_from_slice(&spanner_keys);
        self.set.reserve_proxies(self.boxes.len());
        self.set.reset(&self.scratch);
        spanner_keys.sort_unstable();
        std::mem::swap(&mut self.span_keys, &mut spanner_keys);
        self.fresh = spanner_keys;
        sort_unique(&mut keys, &mut self.scratch, 0);
        self.tracker.finish_keys(&keys, &self.objects);
        self.keys = keys;
    }

    /// Leaves room in the lists this step filled for the next step's
    /// wandering counts, so that a steady state allocates nothing (see
    /// `headroom.rs`). The shared scratch gets room for the largest merge
    /// or sort it serves.
    fn make_room(&mut self) {
        for list in [
            &mut self.leaving,
            &mut self.entering,
            &mut self.dead,
            &mut self.spanners,
            &mut self.free_proxies,
        ] {
            keep_headroom(list);
        }
        // These three trade the spanners' pair keys among them (the
        // entering objects' keys and the sorts use them too): each gets
        // room for the most any of them holds.
        let spanner_keys = self
            .span_keys
            .len()
            .max(self.fresh.len())
            .max(self.keys.len());
        for keys in [&mut self.span_keys, &mut self.fresh, &mut self.keys] {
            reserve_headroom(keys, spanner_keys);
        }
        keep_headroom(&mut self.band_pairs);
        let mut largest = (self.band_pairs.len() + self.keys.len()).max(spanner_keys);
        for keys in &mut self.axes {
            keep_headroom(keys);
            largest = largest.max(keys.len());
        }
        reserve_headroom(&mut self.scratch, largest);
        keep_headroom(&mut self.rebanded);
        keep_headroom(&mut self.extents);
        self.spanner_index.make_room();
    }

    /// Applies the step's list changes to the statuses and frees the
    /// proxies of removed objects.
    fn settle(&mut self) {
        self.settle_moves();
        for &p in &self.leaving {
            self.status[p as usize] &= !(LEAVING | IN_AXES);
        }
        for &p in &self.entering {
            self.status[p as usize] = (self.status[p as usize] & !ENTERING) | IN_AXES;
        }
        for &p in &self.dead {
            self.status[p as usize] = 0;
            self.free_proxies.push(p);
        }
    }
}
