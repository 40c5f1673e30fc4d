//! What both sweep-and-prunes share: the objects and their proxies (box,
//! handle, status), the sorted key arrays, the world-spanning list, the
//! measurements (sweep axis, spanning threshold, jump distance), the pair
//! tracker and the step's lists, and the queries, which scan the sorted
//! keys of the sweep axis. [`Sap`](super::Sap) and
//! [`BandSap`](super::BandSap) each add their own state beside it.

use super::bands::Bands;
use super::config::{SapConfig, SapStats};
use super::endpoints::{MAX_PROXIES, is_start, proxy, scan_slab};
use super::spanners::SpannerIndex;
use crate::broad::contract::StepStats;
use crate::broad::events::PairTracker;
use crate::broad::query::{QueryBudget, QueryStats};
use crate::error::Error;
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::{Handle, HandleError, Slots};
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

/// The state both sweep-and-prunes keep (see the module docs).
#[derive(Debug)]
pub(super) struct SweepBase<V: Vector, T> {
    pub(super) config: SapConfig,
    pub(super) objects: Slots<T>,
    /// Slot index to proxy.
    pub(super) proxy_of: Vec<u32>,
    /// Per proxy: box, handle, status.
    pub(super) boxes: Vec<Aabb<V>>,
    pub(super) handle_of: Vec<Handle>,
    pub(super) status: Vec<u16>,
    /// Proxies free for reuse; a removed object's proxy is freed at the end
    /// of the next step, so a slot reused before the step never mixes the
    /// old object's endpoints and pairs with the new one's.
    pub(super) free_proxies: Vec<u32>,
    /// Proxies inserted, removed, jumped or changing list since the last
    /// step.
    pub(super) touched: Vec<u32>,
    /// Sorted keys: endpoints, one array per axis ([`Sap`](super::Sap)),
    /// or mins, one array per band, all on the sweep axis
    /// ([`BandSap`](super::BandSap), see `one_axis.rs`).
    pub(super) axes: Vec<Vec<u64>>,
    /// True once the axes have been sorted from scratch.
    pub(super) built: bool,
    /// Proxies in the world-spanning list.
    pub(super) spanners: Vec<u32>,
    /// The spanners grouped and sorted for the pair search.
    pub(super) spanner_index: SpannerIndex,
    pub(super) tracker: PairTracker,
    pub(super) stats: StepStats,
    pub(super) sap_stats: SapStats,
    pub(super) steps: u64,
    pub(super) sweep_axis: usize,
    /// Largest extent an object in the axes may have (infinite: no
    /// separate list).
    pub(super) span_extent: f32,
    /// A move of the centre beyond this (plus the object's size) counts as
    /// a jump.
    pub(super) jump_distance: f32,
    /// Until this step, go straight to a re-sort (motion was incoherent).
    pub(super) incoherent_until: u64,
    /// True when an object changed since the last step: queries trust the
    /// sorted axes only for the objects not `touched` nor `stale`, and
    /// test those directly.
    pub(super) dirty: bool,
    /// Proxies in the axes whose box changed since the last step, once
    /// each (marked [`STALE`]).
    pub(super) stale: Vec<u32>,
    pub(super) jumps: u64,
    // Scratch, reused every step.
    pub(super) leaving: Vec<u32>,
    pub(super) entering: Vec<u32>,
    pub(super) dead: Vec<u32>,
    pub(super) fresh: Vec<u64>,
    pub(super) scratch: Vec<u64>,
    pub(super) keys: Vec<u64>,
    pub(super) extents: Vec<f32>,
}

impl<V: Vector, T> SweepBase<V, T> {
    /// Empty, with `arrays` sorted arrays to start with.
    pub(super) fn new(config: SapConfig, objects: Slots<T>, arrays: usize) -> Self {
        Self {
            config,
            objects,
            proxy_of: Vec::new(),
            boxes: Vec::new(),
            handle_of: Vec::new(),
            status: Vec::new(),
            free_proxies: Vec::new(),
            touched: Vec::new(),
            axes: vec![Vec::new(); arrays],
            built: false,
            spanners: Vec::new(),
            spanner_index: SpannerIndex::default(),
            tracker: PairTracker::default(),
            stats: StepStats::default(),
            sap_stats: SapStats::default(),
            steps: 0,
            sweep_axis: config.sweep_axis.unwrap_or(0),
            span_extent: f32::INFINITY,
            jump_distance: f32::INFINITY,
            incoherent_until: 0,
            dirty: false,
            stale: Vec::new(),
            jumps: 0,
            leaving: Vec::new(),
            entering: Vec::new(),
            dead: Vec::new(),
            fresh: Vec::new(),
            scratch: Vec::new(),
            keys: Vec::new(),
            extents: Vec::new(),
        }
    }

    /// What the queries read (boxes, sorted arrays, spanners, the sweep
    /// axis), without the user values and the pair state, for a snapshot.
    pub(super) fn frozen(&self) -> SweepBase<V, ()> {
        let objects = self.objects.frozen_copy(|_| ());
        let mut frozen = SweepBase::new(self.config, objects, 0);
        frozen.proxy_of = self.proxy_of.clone();
        frozen.boxes = self.boxes.clone();
        frozen.handle_of = self.handle_of.clone();
        frozen.status = self.status.clone();
        frozen.axes = self.axes.clone();
        frozen.built = self.built;
        frozen.spanners = self.spanners.clone();
        frozen.sweep_axis = self.sweep_axis;
        frozen.span_extent = self.span_extent;
        frozen.dirty = self.dirty;
        frozen.touched = self.touched.clone();
        frozen.stale = self.stale.clone();
        frozen
    }

    /// The object's box, or `None` for a stale or foreign handle.
    pub(super) fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.objects.check(handle).ok()?;
        Some(self.boxes[self.proxy_of[handle.index() as usize] as usize])
    }

    /// Adds an object; it joins the arrays or the spanning list at the
    /// next step.
    pub(super) fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        let handle = self.objects.insert(value)?;
        let p = match self.allocate_proxy(aabb, handle) {
            Ok(p) => p,
            Err(e) => {
                let _ = self.objects.remove(handle);
                return Err(e);
            }
        };
        let slot = handle.index() as usize;
        if self.proxy_of.len() <= slot {
            self.proxy_of.resize(slot + 1, u32::MAX);
        }
        self.proxy_of[slot] = p;
        self.touch(p, 0);
        self.dirty = true;
        Ok(handle)
    }

    /// Moves an object; returns whether its box changed.
    pub(super) fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<bool, Error> {
        self.objects.check(handle)?;
        let p = self.proxy_of[handle.index() as usize];
        let i = p as usize;
        let old = std::mem::replace(&mut self.boxes[i], aabb);
        let status = self.status[i];
        self.dirty = true;
        if status & (IN_AXES | STALE) == IN_AXES && old != aabb {
            self.status[i] |= STALE;
            self.stale.push(p);
        }
        if status & IN_AXES != 0 && self.jumped(&old, &aabb) {
            self.jumps += 1;
            self.touch(p, JUMPED);
        } else if (status & SPANNER != 0) != self.spans(&aabb) {
            self.touch(p, 0);
        }
        Ok(old != aabb)
    }

    /// Removes an object; its proxy is freed at the next step.
    pub(super) fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        let value = self.objects.remove(handle)?;
        let p = self.proxy_of[handle.index() as usize];
        self.status[p as usize] &= !ALIVE;
        self.touch(p, 0);
        self.dirty = true;
        Ok(value)
    }

    /// True when `aabb` belongs in the world-spanning list: it is far longer
    /// than the others along the sweep axis, where it would meet every
    /// object of every sweep or scan. (Along the other axes a long object
    /// costs a sweep nothing.)
    pub(super) fn spans(&self, aabb: &Aabb<V>) -> bool {
        swept_extent(aabb, self.sweep_axis) > self.span_extent
    }

    /// True when the move from `old` to `new` is a jump: re-inserting is
    /// cheaper than swapping across everything in between.
    fn jumped(&self, old: &Aabb<V>, new: &Aabb<V>) -> bool {
        let reach = self.jump_distance + largest_extent(new).max(largest_extent(old));
        (0..V::DIM).any(|a| {
            let twice_old = old.min().axis(a) + old.max().axis(a);
            let twice_new = new.min().axis(a) + new.max().axis(a);
            (twice_new - twice_old).abs() > 2.0 * reach
        })
    }

    fn touch(&mut self, p: u32, bits: u16) {
        let status = &mut self.status[p as usize];
        if *status & TOUCHED == 0 {
            self.touched.push(p);
        }
        *status |= TOUCHED | bits;
    }

    fn allocate_proxy(&mut self, aabb: Aabb<V>, handle: Handle) -> Result<u32, Error> {
        if let Some(p) = self.free_proxies.pop() {
            let i = p as usize;
            self.boxes[i] = aabb;
            self.handle_of[i] = handle;
            self.status[i] = ALIVE;
            return Ok(p);
        }
        let p = self.boxes.len() as u32;
        if p >= MAX_PROXIES {
            return Err(HandleError::Full.into());
        }
        self.boxes.push(aabb);
        self.handle_of.push(handle);
        self.status.push(ALIVE);
        Ok(p)
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
            stats.candidate(budget, region, &self.boxes[p as usize], || {
                visit(self.handle_of[p as usize])
            })
        };
        let live = |p: u32| self.status[p as usize] & ALIVE != 0;
        let bounds = region.bounds();
        let current = self.built && self.span_extent.is_finite();
        let (Some(bounds), true) = (bounds, current) else {
            for p in 0..self.boxes.len() as u32 {
                if live(p) {
                    test(p, stats)?;
                }
            }
            return ControlFlow::Continue(());
        };
        // Objects in the axes are no longer than the spanning threshold
        // along the sweep axis: scan that axis (in each band the bounds
        // cover, reporting an object only in the home band of the two).
        let axis = self.sweep_axis;
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
                &self.axes[array],
                bounds.min().axis(axis),
                bounds.max().axis(axis),
                self.span_extent,
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
                    let object = &self.boxes[q as usize];
                    let home = bands.is_none_or(|b| b.home(&bounds, object) as usize == array);
                    if home && object.overlaps(&bounds) && self.keyed(q) {
                        flow = test(q, stats);
                    }
                },
            );
            flow?;
        }
        for &s in &self.spanners {
            if self.keyed(s) {
                test(s, stats)?;
            }
        }
        if self.dirty {
            // What changed since the last step, at its box now: inserted,
            // jumped or changing list (touched), and moved in the axes.
            for &p in &self.touched {
                if live(p) {
                    test(p, stats)?;
                }
            }
            for &p in &self.stale {
                if self.status[p as usize] & (ALIVE | TOUCHED) == ALIVE {
                    test(p, stats)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Whether the sorted axes (or the spanning list) hold the proxy `p`
    /// as it is: alive and unchanged since the last step.
    fn keyed(&self, p: u32) -> bool {
        self.status[p as usize] & (ALIVE | TOUCHED | STALE) == ALIVE
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
                self.base.objects.len()
            }

            fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
                self.base.aabb(handle)
            }

            $crate::broad::query::queries_by_search!();
        }

        impl<V: Vector> $crate::broad::hosted::Hosted<V> for $structure<V> {
            fn arena(&mut self) -> &mut dyn $crate::broad::hosted::HostedArena {
                &mut self.base.objects
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
            self.base.stats
        }

        fn value(&self, handle: Handle) -> Option<&T> {
            self.base.objects.get(handle)
        }

        $crate::broad::contract::objects_from_slots!(base.objects);

        fn snapshot(&self) -> Snapshot<V> {
            Snapshot::new(self.frozen())
        }
    };
}
pub(super) use contract_from_base;
