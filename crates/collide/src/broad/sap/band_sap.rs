//! [`BandSap`]: sweep and prune along one axis, in bands across it (`sap1`),
//! its step and the broad-phase contract. The bands are in `one_axis.rs`,
//! their scan in `band_scan.rs`, the steps that keep the pairs of objects
//! that did not move in `coherent.rs`.

use super::band_scan::BandScan;
use super::bands::Bands;
use super::base::{MOVED, SweepBase, contract_from_base};
use super::config::{SapConfig, SapStats};
use super::spanner_moves::{key_changes, spanner_pair_changes};
use crate::broad::contract::{BroadPhase, StepStats};
use crate::broad::events::{FrameEvents, Pair};
use crate::broad::headroom::keep_headroom;
use crate::broad::query::{QueryBudget, QueryStats};
use crate::broad::radix::merge_sorted;
use crate::broad::snapshot::Snapshot;
use crate::broad::split_sort::{SplitSort, pair_key_bits};
use crate::error::Error;
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::{Handle, Slots};
use std::ops::ControlFlow;

/// `sap1`: keys per allowed swap. `sap1` scans every step anyway, so only
/// the radix sort competes with the repair. With one key per object and
/// band, this rule matched the better of always and never re-sorting on
/// every scene and motion tried, within noise (figures: BENCHMARKS.md).
const SAP1_KEYS_PER_SWAP: u64 = 2;

/// The swap budget of one band's array of `len` keys (see
/// [`SAP1_KEYS_PER_SWAP`]).
pub(super) fn swap_budget(len: usize) -> u64 {
    len.max(64) as u64 / SAP1_KEYS_PER_SWAP
}

/// Incremental sweep-and-prune along one axis, in bands across it
/// (`sap1`), in 2D and 3D: candidates by a forward scan, each given a box
/// test.
///
/// It sorts only one axis, by each object's min (the one with the largest
/// variance of centres, or the one along floors that span the world
/// across it, see [`SapConfig::sweep_axis`]), and scans it for candidates (intervals overlapping on
/// that axis). It cuts the world across that axis into bands a few object
/// sizes wide, each with its objects sorted by their min and its own scan,
/// so a scan meets only its band's objects (much faster than one sweep on
/// `uniform`; on `flat`, whose band axis is thin, little or no faster;
/// figures: BENCHMARKS.md). When at most half the
/// objects moved since the last step, it keeps the pairs of the others and
/// scans only around the movers (see `coherent.rs`).
///
/// The keys stay sorted from step to step, repaired by insertion sort;
/// when the swaps would cost more than a fresh sort (fast or teleporting
/// objects, mass inserts), a radix sort re-sorts from scratch. Objects far
/// longer than the rest along the sweep axis (floors, walls; see
/// [`Spanners`](super::Spanners)) live in a separate list tested against
/// everyone through an index on the axis where they are thinnest. While
/// they stay put and few pairs change, a step finds their pairs' changes
/// around the movers' old and new boxes instead of every pair again (see
/// `spanner_moves.rs`).
///
/// Pick it for flat worlds (a side-scroller), fast motion, and scenes
/// where most objects rest. Cost per step: O(n + candidates within bands),
/// or O(n + pairs + the movers' candidates) when few moved; memory
/// O(n + pairs).
///
/// ```
/// use collide::{Aabb2, BandSap, BroadPhase, Pair};
/// use glam::Vec2;
/// let mut sap: BandSap<Vec2, &str> = BandSap::new();
/// let a = sap.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?, "a")?;
/// let b = sap.insert(Aabb2::new(Vec2::splat(5.0), Vec2::splat(6.0))?, "b")?;
/// assert!(sap.step().is_empty());
/// sap.update(b, Aabb2::new(Vec2::splat(1.0), Vec2::splat(3.0))?)?;
/// assert_eq!(sap.step().started, vec![Pair::new(a, b)]);
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Debug)]
pub struct BandSap<V: Vector, T = ()> {
    pub(super) base: SweepBase<V, T>,
    /// the arrays of bands dropped when the band count fell, kept
    /// for when it rises again.
    pub(super) spare_bands: Vec<Vec<u64>>,
    /// The bands across the sweep axis.
    pub(super) bands: Bands,
    /// per proxy, the bands it is in (inclusive), as of the last
    /// step.
    pub(super) band_lo: Vec<u32>,
    pub(super) band_hi: Vec<u32>,
    /// per band, keys to merge in this step.
    pub(super) band_fresh: Vec<Vec<u64>>,
    /// per band, how many keys a fill is about to push (counted
    /// first, so each band's array is made room for once).
    pub(super) band_counts: Vec<u32>,
    /// proxies whose bands changed this step, with their old ones.
    pub(super) rebanded: Vec<(u32, u32, u32)>,
    /// a split repair's boundaries, in bands, and each part's
    /// swaps (`None`: over its budget).
    pub(super) repair_bounds: Vec<usize>,
    pub(super) repair_swaps: Vec<Option<u64>>,
    /// the scan of the bands (columns and split parts).
    pub(super) band_scan: BandScan,
    /// the sort of the bands' pairs (split across threads when
    /// they are many).
    pub(super) split_sort: SplitSort,
    /// slot pair keys of the pairs among objects in the bands,
    /// sorted, kept from step to step.
    pub(super) band_pairs: Vec<u64>,
    /// no box in the bands is longer than this along the sweep axis,
    /// unless `max_extent_stale` (see `coherent.rs`).
    pub(super) max_extent: f32,
    /// `max_extent` must be measured over every object before the
    /// next coherent step (after a scan of every band, and at each
    /// re-measurement).
    pub(super) max_extent_stale: bool,
    /// `band_pairs` before this step, when its changes come from the
    /// moves (see `spanner_moves.rs`).
    pub(super) last_band_pairs: Vec<u64>,
}

impl<V: Vector, T> Default for BandSap<V, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Vector, T> BandSap<V, T> {
    /// An empty structure with the default settings.
    ///
    /// ```
    /// use collide::{BandSap, BroadPhase, Query};
    /// use glam::Vec3;
    /// let sap: BandSap<Vec3> = BandSap::new();
    /// assert!(sap.is_empty());
    /// ```
    pub fn new() -> Self {
        Self::with_config(SapConfig::default()).expect("the default settings are valid")
    }

    /// An empty structure with `config`, or the setting that is out of
    /// range.
    ///
    /// ```
    /// use collide::{BandSap, SapConfig};
    /// use glam::Vec2;
    /// // Force the sweep axis to y (for example to show what a bad axis costs).
    /// let config = SapConfig { sweep_axis: Some(1), ..SapConfig::default() };
    /// let sap: BandSap<Vec2> = BandSap::with_config(config)?;
    /// assert_eq!(sap.sweep_axis(), 1);
    /// let bad = SapConfig { sweep_axis: Some(2), ..SapConfig::default() };
    /// assert!(BandSap::<Vec2>::with_config(bad).unwrap_err().to_string().contains("sweep_axis"));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn with_config(config: SapConfig) -> Result<Self, Error> {
        config.validate(V::DIM)?;
        Ok(Self::around(SweepBase::new(config, Slots::new(), 1)))
    }

    fn around(base: SweepBase<V, T>) -> Self {
        Self {
            base,
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
            last_band_pairs: Vec::new(),
        }
    }

    /// The settings.
    pub fn config(&self) -> &SapConfig {
        &self.base.config
    }

    /// The axis scanned (0 = x): the configured one, or the one picked at
    /// the last measurement (see [`SapConfig::sweep_axis`]).
    ///
    /// ```
    /// use collide::{Aabb2, BandSap, BroadPhase};
    /// use glam::Vec2;
    /// let mut sap: BandSap<Vec2> = BandSap::new();
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
        self.base.measures.sweep_axis
    }

    /// What the last step did, beyond [`BroadPhase::stats`].
    ///
    /// ```
    /// use collide::{Aabb2, BandSap, BroadPhase};
    /// use glam::Vec2;
    /// let mut sap: BandSap<Vec2> = BandSap::new();
    /// sap.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// sap.step();
    /// assert_eq!(sap.sap_stats().resorts, 1); // the first step sorts
    /// assert_eq!(sap.sap_stats().bands, 1);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn sap_stats(&self) -> SapStats {
        self.base.measures.sap_stats
    }

    /// What the queries read (the bands too), without the user values and
    /// the pair state.
    fn frozen(&self) -> BandSap<V, ()> {
        let mut frozen = BandSap::around(self.base.frozen());
        frozen.bands = self.bands.clone();
        frozen
    }

    /// See [`SweepBase::search`]: a slab scan of each band the region
    /// covers.
    fn search<R: Region<V> + ?Sized>(
        &self,
        region: &R,
        budget: &QueryBudget,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.base
            .search(region, budget, stats, visit, Some(&self.bands))
    }

    /// The whole step.
    fn step_all(&mut self) {
        let mut stats = SapStats::default();
        let mut resort = !self.base.sorted.built;
        let before = self.base.measures.sweep_axis;
        if self.base.begin_step() {
            resort |= self.base.measures.sweep_axis != before;
            resort |= self.measure_bands();
            // Coherent steps only raise it: measure it again now and then,
            // so one long box passing through does not lengthen every
            // later scan.
            self.max_extent_stale = true;
        }
        self.base.classify();
        resort |= self.base.must_resort();
        let mut tested = 0u64;
        stats.moved = self.take_moves();
        if !resort {
            self.update_bands();
            if self.repair_bands(&mut stats).is_err() {
                self.base.over_budget();
                resort = true;
            }
        }
        if resort {
            self.sort_bands_from_scratch();
            stats.resorts = 1;
        }
        self.finish_one_axis(&mut stats, &mut tested);
        // The movers' marks are for this step only.
        self.base
            .proxies
            .status
            .iter_mut()
            .for_each(|s| *s &= !MOVED);
        self.base.settle();
        self.base.make_room(0, self.band_pairs.len());
        keep_headroom(&mut self.band_pairs);
        keep_headroom(&mut self.rebanded);
        stats.bands = self.bands.count;
        self.base.end_step(stats, tested);
    }

    /// The step's pairs: the kept pairs brought up to date around the objects
    /// that moved (a coherent step, see `coherent.rs`) or found anew by a
    /// scan of every band, plus the spanners' pairs; a sorted merge gives
    /// the events.
    fn finish_one_axis(&mut self, stats: &mut SapStats, tested: &mut u64) {
        let from_moves = self.base.spanner_moves_suffice();
        if from_moves {
            self.last_band_pairs.clear();
            self.last_band_pairs.extend_from_slice(&self.band_pairs);
        }
        let resorted = stats.resorts != 0;
        if !resorted {
            self.merge_into_bands();
        }
        stats.coherent = !resorted && self.coherent(stats);
        if stats.coherent {
            *tested += self.coherent_pairs();
        } else {
            let mut pairs = std::mem::take(&mut self.band_pairs);
            pairs.clear();
            let candidates = self.scan_bands(&mut pairs);
            let key_bits = pair_key_bits(self.base.proxies.objects.capacity_index());
            self.split_sort.sort(&mut pairs, key_bits);
            debug_assert!(pairs.windows(2).all(|w| w[0] < w[1]));
            self.band_pairs = pairs;
            self.max_extent_stale = true;
            stats.sweep_candidates = candidates;
            *tested += candidates;
        }
        stats.spanners_from_moves = from_moves;
        if from_moves {
            *tested += self.finish_from_moves();
            return;
        }
        let mut spanner_keys = std::mem::take(&mut self.base.work.fresh);
        *tested += self.base.spanner_slot_keys(&mut spanner_keys);
        if spanner_keys.is_empty() {
            self.base
                .tracker
                .finish_keys(&self.band_pairs, &self.base.proxies.objects);
        } else {
            // The spanners' pairs merged with the kept ones (no pair is in
            // both: one side is a spanner).
            merge_sorted(&self.band_pairs, &spanner_keys, &mut self.base.work.scratch);
            self.base
                .tracker
                .finish_keys(&self.base.work.scratch, &self.base.proxies.objects);
        }
        keep_headroom(&mut spanner_keys);
        self.base.work.fresh = spanner_keys;
        self.base.sorted.spanner_pairs_kept = !self.base.sorted.spanners.is_empty();
    }

    /// Ends a step by the changes of the pairs among the objects in the
    /// bands and of the spanners' pairs with the movers (see
    /// `spanner_moves.rs`). Returns the number of candidates tested.
    fn finish_from_moves(&mut self) -> u64 {
        let SweepBase {
            proxies,
            sorted,
            tracker,
            ..
        } = &mut self.base;
        let (last, now) = (&self.last_band_pairs, &self.band_pairs);
        let handles = proxies.objects.live_handles();
        let pair_of = |k: u64| Pair::new(handles.at((k >> 32) as u32), handles.at(k as u32));
        let mut tested = 0;
        tracker.finish_keyed_changes(&proxies.objects, |started, stopped| {
            key_changes(last, now, pair_of, started, stopped);
            tested = spanner_pair_changes(proxies, &sorted.spanner_index, started, stopped);
        });
        keep_headroom(&mut self.last_band_pairs);
        tested
    }
}

contract_from_base!(BandSap, "sap1");

impl<V: Vector, T> BroadPhase<V, T> for BandSap<V, T> {
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        if self.base.update(handle, aabb)? {
            let p = self.base.proxies.proxy_of[handle.index() as usize];
            self.base.proxies.status[p as usize] |= MOVED;
        }
        Ok(())
    }
    contract_from_base!(@write);
}
