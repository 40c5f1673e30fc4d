//! The parts of a step both sweep-and-prunes share: measuring the objects
//! (sweep axis, spanning threshold, jump distance), sorting out who moved
//! where, the spanners' pairs, and settling the lists afterwards. Each
//! kind's own step is beside its type (`all_axes.rs`, `band_sap.rs`).

use super::base::{
    ALIVE, ENTERING, IN_AXES, JUMPED, LEAVING, SPANNER, STALE, SweepBase, TOUCHED, largest_extent,
    swept_extent,
};
use super::config::{SapStats, Spanners};
use super::parts::Proxies;
use crate::broad::events::pair_key;
use crate::broad::headroom::{keep_headroom, reserve_headroom};
use crate::geometry::Vector;

/// After an over-budget step, this many steps re-sort directly before the
/// incremental repair is tried again.
const RETRY_AFTER: u64 = 8;
/// More entering objects than this share of those in the axes: re-sort
/// rather than merge and sweep (or scan).
const MASS_INSERT_SHARE: usize = 4;
/// A jump is a move of the centre by more than this many median sizes.
const JUMP_SIZES: f32 = 4.0;

/// The median of `values` (reordered), 0 for none.
pub(super) fn median(values: &mut [f32]) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    let mid = values.len() / 2;
    *values.select_nth_unstable_by(mid, f32::total_cmp).1
}

impl<V: Vector, T> SweepBase<V, T> {
    /// Starts a step: counts it, and measures the objects when due (the
    /// first step, then every `remeasure_every` steps). Returns whether it
    /// measured.
    pub(super) fn begin_step(&mut self) -> bool {
        self.measures.steps += 1;
        let every = u64::from(self.config.remeasure_every);
        let due = !self.sorted.built || (self.measures.steps - 1).is_multiple_of(every);
        if due {
            self.measure();
        }
        due
    }

    /// Whether this step should re-sort from scratch whatever the swaps
    /// cost: mass inserts, or incoherent motion lately.
    pub(super) fn must_resort(&self) -> bool {
        let in_axes = self.proxies.objects.len() - self.sorted.spanners.len();
        self.work.entering.len() * MASS_INSERT_SHARE > in_axes
            || self.measures.steps < self.measures.incoherent_until
    }

    /// A repair ran over its swap budget: re-sort directly for a while.
    pub(super) fn over_budget(&mut self) {
        self.measures.incoherent_until = self.measures.steps + RETRY_AFTER;
    }

    /// Ends a step: records its statistics and marks the arrays current.
    pub(super) fn end_step(&mut self, mut stats: SapStats, tested: u64) {
        stats.sweep_axis = self.measures.sweep_axis;
        stats.spanners = self.sorted.spanners.len();
        stats.jumps = std::mem::take(&mut self.measures.jumps);
        stats.variance = self.measures.sap_stats.variance;
        let swaps = stats.swaps.iter().sum();
        self.measures.sap_stats = stats;
        self.measures.stats = self
            .tracker
            .stats(self.proxies.objects.len(), tested, swaps);
        self.sorted.built = true;
        self.proxies.dirty = false;
        for &p in &self.proxies.stale {
            self.proxies.status[p as usize] &= !STALE;
        }
        keep_headroom(&mut self.proxies.stale);
        self.proxies.stale.clear();
        keep_headroom(&mut self.proxies.stale_boxes);
        self.proxies.stale_boxes.clear();
        self.sorted.spanners_changed = false;
    }

    /// Measures the centre variance per axis and the median size; picks the
    /// sweep axis, the spanning threshold and the jump distance, and sends
    /// every object whose list changes to the next classification.
    pub(super) fn measure(&mut self) {
        let mut count = 0f64;
        let mut mean = [0f64; 3];
        let mut m2 = [0f64; 3];
        self.work.extents.clear();
        for (p, aabb) in self.proxies.boxes.iter().enumerate() {
            if self.proxies.status[p] & ALIVE == 0 {
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
            self.work.extents.push(largest_extent(aabb));
        }
        let mut variance = [0f64; 3];
        if count > 0.0 {
            for a in 0..V::DIM {
                variance[a] = m2[a] / count;
            }
        }
        self.measures.sap_stats.variance = variance;
        let positive = |x: f32| x > 0.0 && x.is_finite();
        let size = median(&mut self.work.extents);
        self.measures.jump_distance = if positive(size) {
            JUMP_SIZES * size
        } else {
            f32::INFINITY
        };
        // The spanning threshold each axis would have as the sweep axis.
        let mut thresholds = [f32::INFINITY; 3];
        for (a, threshold) in thresholds.iter_mut().enumerate().take(V::DIM) {
            self.work.extents.clear();
            for (p, aabb) in self.proxies.boxes.iter().enumerate() {
                if self.proxies.status[p] & ALIVE != 0 {
                    self.work.extents.push(swept_extent(aabb, a));
                }
            }
            let swept_median = median(&mut self.work.extents);
            *threshold = match self.config.spanners {
                Spanners::Relative { factor } if positive(swept_median) => factor * swept_median,
                Spanners::Extent(extent) => extent,
                _ => f32::INFINITY,
            };
        }
        self.measures.sweep_axis = self
            .config
            .sweep_axis
            .unwrap_or_else(|| self.pick_sweep_axis(&variance, &thresholds));
        self.measures.span_extent = thresholds[self.measures.sweep_axis];
        for p in 0..self.proxies.boxes.len() {
            let status = self.proxies.status[p];
            if status & ALIVE != 0 && (status & SPANNER != 0) != self.spans(&self.proxies.boxes[p])
            {
                if status & TOUCHED == 0 {
                    self.proxies.touched.push(p as u32);
                }
                self.proxies.status[p] |= TOUCHED;
            }
        }
    }

    /// The axis with the largest variance of centres, unless objects
    /// spanning the world across it are many and another axis, along which
    /// they would be spanners, has fewer than half as many: those go in
    /// the spanner index rather than in every band of `sap1` (a floor
    /// across the sweep axis would be in all of them) or every sweep
    /// window of `sap`.
    fn pick_sweep_axis(&self, variance: &[f64; 3], thresholds: &[f32; 3]) -> usize {
        let widest = (0..V::DIM).fold(0, |best, a| {
            if variance[a] > variance[best] {
                a
            } else {
                best
            }
        });
        // Per axis as the sweep axis: objects spanning along another.
        let mut across = [0usize; 3];
        for (p, aabb) in self.proxies.boxes.iter().enumerate() {
            if self.proxies.status[p] & ALIVE == 0 {
                continue;
            }
            let long = |b: usize| swept_extent(aabb, b) > thresholds[b];
            for (a, count) in across.iter_mut().enumerate().take(V::DIM) {
                if (0..V::DIM).any(|b| b != a && long(b)) {
                    *count += 1;
                }
            }
        }
        let fewest = (0..V::DIM).fold(
            widest,
            |best, a| {
                if across[a] < across[best] { a } else { best }
            },
        );
        if across[fewest] * 2 < across[widest] {
            fewest
        } else {
            widest
        }
    }

    /// Sorts the touched objects into leaving (keys and pairs dropped),
    /// entering (keys merged, pairs found by a sweep or `sap1`'s scan), the
    /// spanning list, and the dead.
    pub(super) fn classify(&mut self) {
        self.work.leaving.clear();
        self.work.entering.clear();
        self.work.dead.clear();
        for k in 0..self.proxies.touched.len() {
            let p = self.proxies.touched[k];
            let i = p as usize;
            let mut s = self.proxies.status[i] & !TOUCHED;
            if s & ALIVE == 0 {
                if s & (IN_AXES | SPANNER) != 0 {
                    s |= LEAVING;
                    self.work.leaving.push(p);
                }
                s &= !SPANNER;
                self.work.dead.push(p);
            } else if self.spans(&self.proxies.boxes[i]) {
                if s & SPANNER == 0 {
                    if s & IN_AXES != 0 {
                        s |= LEAVING;
                        self.work.leaving.push(p);
                    }
                    s |= SPANNER;
                    self.sorted.spanners.push(p);
                    self.sorted.spanners_changed = true;
                }
            } else if s & SPANNER != 0 || s & JUMPED != 0 {
                // Back from the spanning list, or a jump: drop every pair
                // and find them again; unchanged pairs flip twice and give
                // no event.
                s = (s & !SPANNER) | LEAVING | ENTERING;
                self.work.leaving.push(p);
                self.work.entering.push(p);
            } else if s & IN_AXES == 0 {
                s |= ENTERING;
                self.work.entering.push(p);
            }
            self.proxies.status[i] = s & !JUMPED;
        }
        // Filled by the calls before the next step: room for as many.
        keep_headroom(&mut self.proxies.touched);
        self.proxies.touched.clear();
        let status = &self.proxies.status;
        self.sorted
            .spanners
            .retain(|&p| status[p as usize] & SPANNER != 0);
    }

    /// Calls `on_pair(spanner, other)` for every overlapping pair with a
    /// spanning object, once, through the spanner index (see
    /// `spanners.rs`). Returns the number of box tests.
    pub(super) fn spanner_pairs(&mut self, mut on_pair: impl FnMut(u32, u32)) -> u64 {
        if self.sorted.spanners.is_empty() {
            return 0;
        }
        self.rebuild_spanner_index();
        let (index, boxes, status) = (
            &self.sorted.spanner_index,
            &self.proxies.boxes,
            &self.proxies.status,
        );
        let mut tested = 0u64;
        // Spanners against each other: each pair from its lower rank.
        for (rank, s) in index.proxies().enumerate() {
            let aabb = &boxes[s as usize];
            tested += index.candidates(aabb, |t| {
                let t_proxy = index.proxy(t);
                if t as usize > rank && aabb.overlaps(&boxes[t_proxy as usize]) {
                    on_pair(s, t_proxy);
                }
            });
        }
        // Everyone else against the spanners.
        for (q, aabb) in boxes.iter().enumerate() {
            if status[q] & (ALIVE | SPANNER) != ALIVE {
                continue;
            }
            tested += index.candidates(aabb, |rank| {
                let s = index.proxy(rank);
                if boxes[s as usize].overlaps(aabb) {
                    on_pair(s, q as u32);
                }
            });
        }
        tested
    }

    /// Writes to `out` the slot pair keys, sorted and unique, of every
    /// overlapping pair with a spanning object (see `spanners.rs`).
    /// Returns the number of box tests.
    pub(super) fn spanner_slot_keys(&mut self, out: &mut Vec<u64>) -> u64 {
        out.clear();
        if self.sorted.spanners.is_empty() {
            return 0;
        }
        self.rebuild_spanner_index();
        let Proxies {
            proxy_of,
            boxes,
            handle_of,
            status,
            ..
        } = &self.proxies;
        // Every live object outside the spanning list, in slot order (a
        // slot's proxy may have been freed and given to another slot).
        let others = proxy_of.iter().enumerate().filter_map(|(slot, &p)| {
            let i = p as usize;
            let listed = i < status.len()
                && status[i] & (ALIVE | SPANNER) == ALIVE
                && handle_of[i].index() as usize == slot;
            listed.then_some((slot as u32, p))
        });
        self.sorted
            .spanner_index
            .slot_keys(boxes, others, &mut self.work.spanner_lists, out)
    }

    fn rebuild_spanner_index(&mut self) {
        let handle_of = &self.proxies.handle_of;
        self.sorted
            .spanner_index
            .rebuild(&self.sorted.spanners, &self.proxies.boxes, |p| {
                handle_of[p as usize].index()
            });
    }

    /// Appends proxy pair keys to `keys` as slot pair keys.
    pub(super) fn extend_by_slot(&self, keys: &mut Vec<u64>, by_proxy: &[u64]) {
        let slot = |p: u32| self.proxies.handle_of[p as usize].index();
        keys.extend(
            by_proxy
                .iter()
                .map(|&k| pair_key(slot((k >> 32) as u32), slot(k as u32))),
        );
    }

    /// Applies the step's list changes to the statuses and frees the
    /// proxies of removed objects.
    pub(super) fn settle(&mut self) {
        for &p in &self.work.leaving {
            self.proxies.status[p as usize] &= !(LEAVING | IN_AXES);
        }
        for &p in &self.work.entering {
            self.proxies.status[p as usize] =
                (self.proxies.status[p as usize] & !ENTERING) | IN_AXES;
        }
        for &p in &self.work.dead {
            self.proxies.status[p as usize] = 0;
            self.proxies.free.push(p);
        }
    }

    /// Leaves room in the lists this step filled for the next step's
    /// wandering counts, so that a steady state allocates nothing (see
    /// `headroom.rs`). The caller's own lists: `spanner_keys`, the most
    /// spanner pair keys it keeps, and `kept_pairs`, the pairs it keeps
    /// (the shared scratch gets room for the largest merge or sort it
    /// serves). Returns the room the spanners' pair keys get.
    pub(super) fn make_room(&mut self, spanner_keys: usize, kept_pairs: usize) -> usize {
        for list in [
            &mut self.work.leaving,
            &mut self.work.entering,
            &mut self.work.dead,
            &mut self.sorted.spanners,
            &mut self.proxies.free,
        ] {
            keep_headroom(list);
        }
        // These trade the spanners' pair keys among them (the entering
        // objects' keys and the sorts use them too): each gets room for
        // the most any of them holds.
        let spanner_keys = spanner_keys
            .max(self.work.fresh.len())
            .max(self.work.keys.len());
        for keys in [&mut self.work.fresh, &mut self.work.keys] {
            reserve_headroom(keys, spanner_keys);
        }
        let mut largest = (kept_pairs + self.work.keys.len()).max(spanner_keys);
        for keys in &mut self.sorted.arrays {
            keep_headroom(keys);
            largest = largest.max(keys.len());
        }
        reserve_headroom(&mut self.work.scratch, largest);
        keep_headroom(&mut self.work.extents);
        self.sorted.spanner_index.make_room();
        self.work.spanner_lists.make_room();
        spanner_keys
    }
}
