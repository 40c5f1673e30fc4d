//! [`Sap`]: the sweep-and-prune structure, its objects and the
//! broad-phase contract. The step itself is in `step.rs`.

use super::band_scan::BandScan;
use super::bands::Bands;
use super::config::{SapConfig, SapKind, SapStats};
use super::endpoints::{MAX_PROXIES, is_start, proxy, scan_slab};
use super::pairset::PairSet;
use super::spanners::SpannerIndex;
use super::sweep::OpenSet;
use crate::broad::Query;
use crate::broad::contract::{BroadPhase, StepStats};
use crate::broad::events::{FrameEvents, Pair, PairTracker};
use crate::broad::query::{QueryBudget, QueryStats, queries_by_search};
use crate::broad::snapshot::Snapshot;
use crate::broad::split_sort::SplitSort;
use crate::error::Error;
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::{Handle, HandleError, Slots};
use std::ops::ControlFlow;

/// Per-proxy status bits.
pub(super) const ALIVE: u8 = 1;
/// Its endpoints are in the sorted axes.
pub(super) const IN_AXES: u8 = 2;
/// It lives in the world-spanning list.
pub(super) const SPANNER: u8 = 4;
/// It is in the `touched` list for the next step.
pub(super) const TOUCHED: u8 = 8;
/// It jumped far since the last step (re-inserted instead of swapped).
pub(super) const JUMPED: u8 = 16;
/// This step drops its endpoints and pairs.
pub(super) const LEAVING: u8 = 32;
/// This step merges its endpoints into the axes and finds its pairs.
pub(super) const ENTERING: u8 = 64;
/// `sap1`: its box changed since the last step (or it enters the bands):
/// its key is refreshed and its pairs found again (see `coherent.rs`).
pub(super) const MOVED: u8 = 128;

/// Incremental sweep-and-prune, `sap` (every axis, exact pair events) or
/// `sap1` (one axis plus a box test), in 2D and 3D.
///
/// Each object's box is projected on the axes as a start and an end (`sap`)
/// or as its min on the sweep axis (`sap1`). The keys stay sorted from step
/// to step: a step gives them their new values and repairs the order by
/// insertion sort, so its cost follows the number of swaps, which is small
/// when objects move little (temporal coherence). Equal values put an end
/// before a start, matching the strict overlap rule.
///
/// - `sap` keeps every axis sorted. When a start passes an end, two
///   intervals begin to overlap on that axis and the full boxes are tested;
///   when an end passes a start, they stop and the pair (if any) ends. The
///   pairs and the events come out of the swaps themselves: no sweep and no
///   diff in a coherent step.
/// - `sap1` sorts only the axis with the largest variance of centres and
///   scans it for candidates (intervals overlapping on that axis), each
///   given a box test. When at most half the objects moved since the last
///   step, it keeps the pairs of the others and scans only around the
///   movers (see `coherent.rs`). It cuts the world across that axis into
///   bands a few object sizes wide, each with its objects sorted by their
///   min and its own scan, so a scan meets only its band's objects (at
///   100,000 objects on `uniform`, 2 times faster than one sweep in 2D and
///   4.5 in 3D; on `flat`, whose band axis is thin, 1.2 times in 2D and no
///   faster in 3D; BENCHMARKS.md at commits 54ca4eb and 80fe933). See
///   `one_axis.rs`.
///
/// When the swaps would cost more than a fresh sort (fast or teleporting
/// objects, mass inserts), the step re-sorts from scratch with a radix sort
/// and rebuilds the pairs with one sweep (`sap1`: its scan). Objects that
/// jump far are
/// re-inserted rather than swapped across the world. Objects far longer
/// than the rest along the sweep axis (floors, walls; see
/// [`Spanners`](super::Spanners)) live in a separate list tested against
/// everyone through an index on the axis where they are thinnest.
///
/// Pick it when motion is coherent, the world is unbounded or flat, or the
/// started and stopped events matter more than the pair list. Cost per
/// step: O(n + swaps) for `sap`; O(n + candidates within bands) for
/// `sap1`, or O(n + pairs + the movers' candidates) when few moved;
/// memory O(n + pairs).
///
/// ```
/// use collide::{Aabb2, BroadPhase, Pair, Sap, SapKind};
/// use glam::Vec2;
/// let mut sap: Sap<Vec2, &str> = Sap::new(SapKind::AllAxes);
/// let a = sap.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?, "a")?;
/// let b = sap.insert(Aabb2::new(Vec2::splat(5.0), Vec2::splat(6.0))?, "b")?;
/// assert!(sap.step().is_empty());
/// sap.update(b, Aabb2::new(Vec2::splat(1.0), Vec2::splat(3.0))?)?;
/// assert_eq!(sap.step().started, vec![Pair::new(a, b)]);
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Debug)]
pub struct Sap<V: Vector, T = ()> {
    pub(super) kind: SapKind,
    pub(super) config: SapConfig,
    pub(super) objects: Slots<T>,
    /// Slot index to proxy.
    pub(super) proxy_of: Vec<u32>,
    /// Per proxy: box, handle, status.
    pub(super) boxes: Vec<Aabb<V>>,
    pub(super) handle_of: Vec<Handle>,
    pub(super) status: Vec<u8>,
    /// Proxies free for reuse; a removed object's proxy is freed at the end
    /// of the next step, so a slot reused before the step never mixes the
    /// old object's endpoints and pairs with the new one's.
    pub(super) free_proxies: Vec<u32>,
    /// Proxies inserted, removed, jumped or changing list since the last
    /// step.
    pub(super) touched: Vec<u32>,
    /// Sorted keys: endpoints, one array per axis (`sap`), or mins, one
    /// array per band, all on the sweep axis (`sap1`, see `one_axis.rs`).
    pub(super) axes: Vec<Vec<u64>>,
    /// `sap1`: the arrays of bands dropped when the band count fell, kept
    /// for when it rises again.
    pub(super) spare_bands: Vec<Vec<u64>>,
    /// `sap1`: the bands across the sweep axis (one for `sap`).
    pub(super) bands: Bands,
    /// `sap1`: per proxy, the bands it is in (inclusive), as of the last
    /// step.
    pub(super) band_lo: Vec<u32>,
    pub(super) band_hi: Vec<u32>,
    /// `sap1`: per band, keys to merge in this step.
    pub(super) band_fresh: Vec<Vec<u64>>,
    /// `sap1`: per band, how many keys a fill is about to push (counted
    /// first, so each band's array is made room for once).
    pub(super) band_counts: Vec<u32>,
    /// `sap1`: proxies whose bands changed this step, with their old ones.
    pub(super) rebanded: Vec<(u32, u32, u32)>,
    /// `sap1`: a split repair's boundaries, in bands, and each part's
    /// swaps (`None`: over its budget).
    pub(super) repair_bounds: Vec<usize>,
    pub(super) repair_swaps: Vec<Option<u64>>,
    /// `sap1`: the scan of the bands (columns and split parts).
    pub(super) band_scan: BandScan,
    /// `sap1`: the sort of the bands' pairs (split across threads when
    /// they are many).
    pub(super) split_sort: SplitSort,
    /// `sap1`: slot pair keys of the pairs among objects in the bands,
    /// sorted, kept from step to step.
    pub(super) band_pairs: Vec<u64>,
    /// `sap1`: no box in the bands is longer than this along the sweep axis,
    /// unless `max_extent_stale` (see `coherent.rs`).
    pub(super) max_extent: f32,
    /// `sap1`: `max_extent` must be measured over every object before the
    /// next coherent step (after a scan of every band, and at each
    /// re-measurement).
    pub(super) max_extent_stale: bool,
    /// True once the axes have been sorted from scratch.
    pub(super) built: bool,
    /// Proxies in the world-spanning list.
    pub(super) spanners: Vec<u32>,
    /// The spanners grouped and sorted for the pair search.
    pub(super) spanner_index: SpannerIndex,
    /// `sap`: the current pairs, and the changes of the step being taken.
    pub(super) set: PairSet,
    /// `sap`: proxy pair keys of last step's pairs with a spanner, sorted.
    pub(super) span_keys: Vec<u64>,
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
    /// True when an object changed since the last step (queries must not
    /// trust the sorted axes).
    pub(super) dirty: bool,
    pub(super) jumps: u64,
    // Scratch, reused every step.
    pub(super) leaving: Vec<u32>,
    pub(super) entering: Vec<u32>,
    pub(super) dead: Vec<u32>,
    pub(super) fresh: Vec<u64>,
    pub(super) scratch: Vec<u64>,
    pub(super) keys: Vec<u64>,
    pub(super) extents: Vec<f32>,
    pub(super) open: OpenSet,
    pub(super) open_fresh: OpenSet,
}

impl<V: Vector, T> Sap<V, T> {
    /// An empty structure with the default settings.
    ///
    /// ```
    /// use collide::{BroadPhase, Sap, SapKind, Query};
    /// use glam::Vec3;
    /// let sap: Sap<Vec3> = Sap::new(SapKind::OneAxis);
    /// assert!(sap.is_empty());
    /// ```
    pub fn new(kind: SapKind) -> Self {
        Self::with_config(kind, SapConfig::default()).expect("the default settings are valid")
    }

    /// An empty structure with `config`, or the setting that is out of
    /// range.
    ///
    /// ```
    /// use collide::{Sap, SapConfig, SapKind};
    /// use glam::Vec2;
    /// let bad = SapConfig { sweep_axis: Some(2), ..SapConfig::default() };
    /// let err = Sap::<Vec2>::with_config(SapKind::OneAxis, bad).unwrap_err();
    /// assert!(err.to_string().contains("sweep_axis"));
    /// ```
    pub fn with_config(kind: SapKind, config: SapConfig) -> Result<Self, Error> {
        config.validate(V::DIM)?;
        Ok(Self::build_with(kind, config, Slots::new()))
    }

    fn build_with(kind: SapKind, config: SapConfig, objects: Slots<T>) -> Self {
        let arrays = match kind {
            SapKind::AllAxes => V::DIM,
            SapKind::OneAxis => 1,
        };
        Self {
            kind,
            config,
            objects,
            proxy_of: Vec::new(),
            boxes: Vec::new(),
            handle_of: Vec::new(),
            status: Vec::new(),
            free_proxies: Vec::new(),
            touched: Vec::new(),
            axes: vec![Vec::new(); arrays],
            spare_bands: Vec::new(),
            bands: Bands::single(),
            band_lo: Vec::new(),
            band_hi: Vec::new(),
            band_fresh: Vec::new(),
            band_counts: Vec::new(),
            rebanded: Vec::new(),
            repair_bounds: Vec::new(),
            repair_swaps: Vec::new(),
            band_scan: BandScan::default(),
            split_sort: SplitSort::default(),
            band_pairs: Vec::new(),
            max_extent: 0.0,
            max_extent_stale: true,
            built: false,
            spanners: Vec::new(),
            spanner_index: SpannerIndex::default(),
            set: PairSet::default(),
            span_keys: Vec::new(),
            tracker: PairTracker::default(),
            stats: StepStats::default(),
            sap_stats: SapStats::default(),
            steps: 0,
            sweep_axis: config.sweep_axis.unwrap_or(0),
            span_extent: f32::INFINITY,
            jump_distance: f32::INFINITY,
            incoherent_until: 0,
            dirty: false,
            jumps: 0,
            leaving: Vec::new(),
            entering: Vec::new(),
            dead: Vec::new(),
            fresh: Vec::new(),
            scratch: Vec::new(),
            keys: Vec::new(),
            extents: Vec::new(),
            open: OpenSet::default(),
            open_fresh: OpenSet::default(),
        }
    }

    /// What the queries read (boxes, sorted axes, bands, spanners, the
    /// sweep axis), without the user values and the pair state, for a
    /// snapshot.
    fn frozen(&self) -> Sap<V, ()> {
        let objects = self.objects.frozen_copy(|_| ());
        let mut frozen = Sap::build_with(self.kind, self.config, objects);
        frozen.proxy_of = self.proxy_of.clone();
        frozen.boxes = self.boxes.clone();
        frozen.handle_of = self.handle_of.clone();
        frozen.status = self.status.clone();
        frozen.axes = self.axes.clone();
        frozen.bands = self.bands.clone();
        frozen.built = self.built;
        frozen.spanners = self.spanners.clone();
        frozen.sweep_axis = self.sweep_axis;
        frozen.span_extent = self.span_extent;
        frozen.dirty = self.dirty;
        frozen
    }

    /// The settings.
    ///
    /// ```
    /// use collide::{Sap, SapConfig, SapKind};
    /// use glam::Vec2;
    /// let sap: Sap<Vec2> = Sap::new(SapKind::AllAxes);
    /// assert_eq!(sap.config(), &SapConfig::default());
    /// ```
    pub fn config(&self) -> &SapConfig {
        &self.config
    }

    /// Which sweep-and-prune this is.
    ///
    /// ```
    /// use collide::{Sap, SapKind};
    /// use glam::Vec3;
    /// assert_eq!(Sap::<Vec3>::new(SapKind::OneAxis).kind(), SapKind::OneAxis);
    /// ```
    pub fn kind(&self) -> SapKind {
        self.kind
    }

    /// The axis used for sweeps (0 = x): the configured one, or the one with
    /// the largest variance of centres at the last measurement.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Sap, SapKind};
    /// use glam::Vec2;
    /// let mut sap: Sap<Vec2> = Sap::new(SapKind::OneAxis);
    /// for i in 0..10 {
    ///     // A column: the centres vary along y only.
    ///     let p = Vec2::new(0.0, 10.0 * i as f32);
    ///     sap.insert(Aabb2::new(p, p + Vec2::ONE)?, ())?;
    /// }
    /// sap.step();
    /// assert_eq!(sap.sweep_axis(), 1);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn sweep_axis(&self) -> usize {
        self.sweep_axis
    }

    /// What the last step did, beyond [`BroadPhase::stats`].
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Sap, SapKind};
    /// use glam::Vec2;
    /// let mut sap: Sap<Vec2> = Sap::new(SapKind::AllAxes);
    /// sap.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// sap.step();
    /// assert_eq!(sap.sap_stats().resorts, 1); // the first step sorts
    /// assert_eq!(sap.sap_stats().bands, 1);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn sap_stats(&self) -> SapStats {
        self.sap_stats
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

    fn touch(&mut self, p: u32, bits: u8) {
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
    /// (each scanned start, or `sap1` key, counts as a visit), otherwise
    /// (or for a region without bounds) by testing every object. Breaks when `visit` does or
    /// the budget runs out (then `stats` says truncated).
    pub(super) fn search<R: Region<V> + ?Sized>(
        &self,
        region: &R,
        budget: &QueryBudget,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut test = |p: u32, stats: &mut QueryStats| {
            stats.candidate(budget, region, &self.boxes[p as usize], || {
                visit(self.handle_of[p as usize])
            })
        };
        let live = |p: u32| self.status[p as usize] & ALIVE != 0;
        let bounds = region.bounds();
        let current = !self.dirty && self.built && self.span_extent.is_finite();
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
        let arrays = match self.kind {
            SapKind::OneAxis => {
                let (lo, hi) = self.bands.range_of(&bounds);
                lo as usize..hi as usize + 1
            }
            SapKind::AllAxes => axis..axis + 1,
        };
        let banded = self.kind == SapKind::OneAxis;
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
                    let home = !banded || self.bands.home(&bounds, object) as usize == array;
                    if home && object.overlaps(&bounds) {
                        flow = test(q, stats);
                    }
                },
            );
            flow?;
        }
        for &s in &self.spanners {
            test(s, stats)?;
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

impl<V: Vector, T> Query<V> for Sap<V, T> {
    fn name(&self) -> &str {
        match self.kind {
            SapKind::AllAxes => "sap",
            SapKind::OneAxis => "sap1",
        }
    }
    fn len(&self) -> usize {
        self.objects.len()
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.objects.check(handle).ok()?;
        Some(self.boxes[self.proxy_of[handle.index() as usize] as usize])
    }
    queries_by_search!();
}

impl<V: Vector, T> BroadPhase<V, T> for Sap<V, T> {
    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
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
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        self.objects.check(handle)?;
        let p = self.proxy_of[handle.index() as usize];
        let i = p as usize;
        let old = std::mem::replace(&mut self.boxes[i], aabb);
        let status = self.status[i];
        self.dirty = true;
        if status & IN_AXES != 0 && self.jumped(&old, &aabb) {
            self.jumps += 1;
            self.touch(p, JUMPED);
        } else if (status & SPANNER != 0) != self.spans(&aabb) {
            self.touch(p, 0);
        }
        if self.kind == SapKind::OneAxis && old != aabb {
            self.status[i] |= MOVED;
        }
        Ok(())
    }
    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        let value = self.objects.remove(handle)?;
        let p = self.proxy_of[handle.index() as usize];
        self.status[p as usize] &= !ALIVE;
        self.touch(p, 0);
        self.dirty = true;
        Ok(value)
    }
    fn step(&mut self) -> &FrameEvents {
        self.step_all();
        self.tracker.events()
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
        self.objects.get(handle)
    }
    fn snapshot(&self) -> Snapshot<V> {
        Snapshot::new(self.frozen())
    }
}

crate::broad::hosted::hosted_by_objects!(Sap);
