//! What both sweep-and-prunes share: the objects and their proxies (box,
//! handle, status), the sorted key arrays, the world-spanning list, the
//! measurements (sweep axis, spanning threshold, jump distance), the pair
//! tracker and the step's lists, and the queries, which scan the sorted
//! keys of the sweep axis. [`Sap`](super::Sap) and
//! [`BandSap`](super::BandSap) each add their own state beside it.

use super::bands::Bands;
use super::config::SapConfig;
use super::endpoints::{is_start, proxy, scan_slab};
use super::parts::{Measures, Proxies, SortedKeys, StepWork};
use crate::broad::events::PairTracker;
use crate::broad::query::{QueryBudget, QueryStats};
use crate::error::Error;
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::{Handle, Slots};
use std::ops::ControlFlow;

/// Per-proxy status bits.
pub(super) const ALIVE: u16 = 1;
/// Its endpoints are in the sorted axes.
pub(super) const IN_AXES: u16 = 2;
/// It lives in the world-spanning list.
pub(super) const SPANNER: u16 = 4;
/// It is in the `touched` list for the next step.
pub(super) const TOUCHED: u16 = 8;
/// It jumped far since the last step (re-inserted instead of swapped).
pub(super) const JUMPED: u16 = 16;
/// This step drops its endpoints and pairs.
pub(super) const LEAVING: u16 = 32;
/// This step merges its endpoints into the axes and finds its pairs.
pub(super) const ENTERING: u16 = 64;
/// [`BandSap`](super::BandSap): its box changed since the last step (or it
/// enters the bands): its key is refreshed and its pairs found again (see
/// `coherent.rs`).
pub(super) const MOVED: u16 = 128;
/// Its box changed since the last step while its keys stay in the axes:
/// they are stale, so queries skip it in the axes and test it from the
/// `stale` list.
pub(super) const STALE: u16 = 256;

/// The state both sweep-and-prunes keep (see the module docs), in parts
/// by what they serve (`parts.rs`).
#[derive(Debug)]
pub(super) struct SweepBase<V: Vector, T> {
    pub(super) config: SapConfig,
    pub(super) proxies: Proxies<V, T>,
    pub(super) sorted: SortedKeys,
    pub(super) measures: Measures,
    pub(super) tracker: PairTracker,
    pub(super) work: StepWork,
}

impl<V: Vector, T> SweepBase<V, T> {
    /// Empty, with `arrays` sorted arrays to start with.
    pub(super) fn new(config: SapConfig, objects: Slots<T>, arrays: usize) -> Self {
        Self {
            config,
            proxies: Proxies::new(objects),
            sorted: SortedKeys::new(arrays),
            measures: Measures::new(config.sweep_axis.unwrap_or(0)),
            tracker: PairTracker::default(),
            work: StepWork::default(),
        }
    }

    /// What the queries read (boxes, sorted arrays, spanners, the sweep
    /// axis), without the user values and the pair state, for a snapshot.
    pub(super) fn frozen(&self) -> SweepBase<V, ()> {
        let objects = self.proxies.objects.frozen_copy(|_| ());
        SweepBase {
            config: self.config,
            proxies: self.proxies.frozen(objects),
            sorted: self.sorted.frozen(),
            measures: self.measures.frozen(),
            tracker: PairTracker::default(),
            work: StepWork::default(),
        }
    }

    /// The object's box, or `None` for a stale or foreign handle.
    pub(super) fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.proxies.objects.check(handle).ok()?;
        Some(self.proxies.boxes[self.proxies.proxy_of[handle.index() as usize] as usize])
    }

    /// Adds an object; it joins the arrays or the spanning list at the
    /// next step.
    pub(super) fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        let handle = self.proxies.objects.insert(value)?;
        let p = match self.proxies.allocate(aabb, handle) {
            Ok(p) => p,
            Err(e) => {
                let _ = self.proxies.objects.remove(handle);
                return Err(e);
            }
        };
        let slot = handle.index() as usize;
        if self.proxies.proxy_of.len() <= slot {
            self.proxies.proxy_of.resize(slot + 1, u32::MAX);
        }
        self.proxies.proxy_of[slot] = p;
        self.proxies.touch(p, 0);
        self.proxies.dirty = true;
        Ok(handle)
    }

    /// Moves an object; returns whether its box changed.
    pub(super) fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<bool, Error> {
        self.proxies.objects.check(handle)?;
        let p = self.proxies.proxy_of[handle.index() as usize];
        let i = p as usize;
        let old = std::mem::replace(&mut self.proxies.boxes[i], aabb);
        let status = self.proxies.status[i];
        self.proxies.dirty = true;
        if status & (IN_AXES | STALE) == IN_AXES && old != aabb {
            self.proxies.status[i] |= STALE;
            self.proxies.stale.push(p);
            // Only spanners' pairs are found from the moves; without
            // spanners the lists differ in length and no step uses them.
            if !self.sorted.spanners.is_empty() {
                self.proxies.stale_boxes.push(old);
            }
        }
        if status & SPANNER != 0 && old != aabb {
            self.sorted.spanners_changed = true;
        }
        if status & IN_AXES != 0 && self.jumped(&old, &aabb) {
            self.measures.jumps += 1;
            self.proxies.touch(p, JUMPED);
        } else if (status & SPANNER != 0) != self.spans(&aabb) {
            self.proxies.touch(p, 0);
        }
        Ok(old != aabb)
    }

    /// Removes an object; its proxy is freed at the next step.
    pub(super) fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        let value = self.proxies.objects.remove(handle)?;
        let p = self.proxies.proxy_of[handle.index() as usize];
        self.proxies.status[p as usize] &= !ALIVE;
        self.proxies.touch(p, 0);
        self.proxies.dirty = true;
        Ok(value)
    }

    /// True when `aabb` belongs in the world-spanning list: it is far longer
    /// than the others along the sweep axis, where it would meet every
    /// object of every sweep or scan. (Along the other axes a long object
    /// costs a sweep nothing.)
    pub(super) fn spans(&self, aabb: &Aabb<V>) -> bool {
        swept_extent(aabb, self.measures.sweep_axis) > self.measures.span_extent
    }

    /// True when the move from `old` to `new` is a jump: re-inserting is
    /// cheaper than swapping across everything in between.
    fn jumped(&self, old: &Aabb<V>, new: &Aabb<V>) -> bool {
        let reach = self.measures.jump_distance + largest_extent(new).max(largest_extent(old));
        (0..V::DIM).any(|a| {
            let twice_old = old.min().axis(a) + old.max().axis(a);
            let twice_new = new.min().axis(a) + new.max().axis(a);
            (twice_new - twice_old).abs() > 2.0 * reach
        })
    }

    /// Calls `visit` for each live object `region` hits: by a slab scan of
    /// the sweep axis over the region's bounds when the axes are current
    /// (each scanned start, or band key, counts as a visit; `bands` are the
    /// bands of a [`BandSap`](super::BandSap)), otherwise
    /// (or for a region without bounds) by testing every object. Breaks when `visit` does or
    /// the budget runs out (then `stats` says truncated).
    pub(super) fn search<R: Region<V> + ?Sized>(
        &self,
        region: &R,
        budget: &QueryBudget,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
        bands: Option<&Bands>,
    ) -> ControlFlow<()> {
        let mut test = |p: u32, stats: &mut QueryStats| {
            stats.candidate(budget, region, &self.proxies.boxes[p as usize], || {
                visit(self.proxies.handle_of[p as usize])
            })
        };
        let bounds = region.bounds();
        let current = self.sorted.built && self.measures.span_extent.is_finite();
        let (Some(bounds), true) = (bounds, current) else {
            for p in 0..self.proxies.boxes.len() as u32 {
                if self.proxies.live(p) {
                    test(p, stats)?;
                }
            }
            return ControlFlow::Continue(());
        };
        // Objects in the axes are no longer than the spanning threshold
        // along the sweep axis: scan that axis (in each band the bounds
        // cover, reporting an object only in the home band of the two).
        let axis = self.measures.sweep_axis;
        let arrays = match bands {
            Some(bands) => {
                let (lo, hi) = bands.range_of(&bounds);
                lo as usize..hi as usize + 1
            }
            None => axis..axis + 1,
        };
        let banded = bands.is_some();
        let mut flow = ControlFlow::Continue(());
        for array in arrays {
            scan_slab(
                &self.sorted.arrays[array],
                bounds.min().axis(axis),
                bounds.max().axis(axis),
                self.measures.span_extent,
                |k| {
                    // `sap`'s axis holds ends too; `sap1`'s bands only mins.
                    if flow.is_break() || (!banded && !is_start(k)) {
                        return;
                    }
                    let q = proxy(k);
                    if !stats.visit(budget) {
                        flow = ControlFlow::Break(());
                        return;
                    }
                    let object = &self.proxies.boxes[q as usize];
                    let home = bands.is_none_or(|b| b.home(&bounds, object) as usize == array);
                    if home && object.overlaps(&bounds) && self.proxies.keyed(q) {
                        flow = test(q, stats);
                    }
                },
            );
            flow?;
        }
        for &s in &self.sorted.spanners {
            if self.proxies.keyed(s) {
                test(s, stats)?;
            }
        }
        if self.proxies.dirty {
            // What changed since the last step, at its box now: inserted,
            // jumped or changing list (touched), and moved in the axes.
            for &p in &self.proxies.touched {
                if self.proxies.live(p) {
                    test(p, stats)?;
                }
            }
            for &p in &self.proxies.stale {
                if self.proxies.status[p as usize] & (ALIVE | TOUCHED) == ALIVE {
                    test(p, stats)?;
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// The side of `aabb` along `axis`.
pub(super) fn swept_extent<V: Vector>(aabb: &Aabb<V>, axis: usize) -> f32 {
    aabb.max().axis(axis) - aabb.min().axis(axis)
}

/// The largest side of `aabb`.
pub(super) fn largest_extent<V: Vector>(aabb: &Aabb<V>) -> f32 {
    let size = aabb.size();
    (0..V::DIM).map(|a| size.axis(a)).fold(0.0f32, f32::max)
}

/// The contract of a sweep-and-prune `$structure` (named `$name`) answered
/// from its [`SweepBase`], but `update` (each kind marks moves its own
/// way), which the structure's `BroadPhase` impl writes itself before
/// calling `contract_from_base!(@write)`. The structure provides
/// `search`, `step_all` and `frozen`.
macro_rules! contract_from_base {
    ($structure:ident, $name:literal) => {
        impl<V: Vector, T> $crate::broad::Query<V> for $structure<V, T> {
            fn name(&self) -> &str {
                $name
            }

            fn len(&self) -> usize {
                self.base.proxies.objects.len()
            }

            fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
                self.base.aabb(handle)
            }

            $crate::broad::query::queries_by_search!();
        }

        impl<V: Vector> $crate::broad::hosted::Hosted<V> for $structure<V> {
            fn arena(&mut self) -> &mut dyn $crate::broad::hosted::HostedArena {
                &mut self.base.proxies.objects
            }
        }
    };
    (@write) => {
        fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
            self.base.insert(aabb, value)
        }

        fn remove(&mut self, handle: Handle) -> Result<T, Error> {
            self.base.remove(handle)
        }

        fn step(&mut self) -> std::sync::Arc<FrameEvents> {
            self.step_all();
            self.base.tracker.shared_events()
        }

        fn events(&self) -> &FrameEvents {
            self.base.tracker.events()
        }

        fn pairs(&self) -> &[Pair] {
            self.base.tracker.pairs()
        }

        fn stats(&self) -> StepStats {
            self.base.measures.stats
        }

        fn value(&self, handle: Handle) -> Option<&T> {
            self.base.proxies.objects.get(handle)
        }

        $crate::broad::contract::objects_from_slots!(base.proxies.objects);

        fn snapshot(&self) -> Snapshot<V> {
            Snapshot::new(self.frozen())
        }
    };
}
pub(super) use contract_from_base;
