//! `sap1`'s step: the bands across the sweep axis, each holding its
//! objects sorted by their lower bound on that axis, and the scan that
//! finds each band's pairs.
//!
//! A band's array holds one key per object: the order-preserving bits of
//! the object's min on the sweep axis, a bit saying whether this band is
//! the object's first (lowest) band, and the proxy. The array is repaired
//! by insertion sort from step to step like `sap`'s endpoints, but with
//! one key per object instead of two. Before the scan, the band's boxes,
//! slots and first-band bits are copied into columns in the band's order
//! ([`BandColumns`](super::band_scan::BandColumns)), so the scan reads memory in order: each box meets
//! the boxes after it until one starts at or past its end (every pair that
//! overlaps on the sweep axis, once, with no list of open intervals to
//! keep). A pair is reported only in the band holding the lower edge of
//! the two boxes' overlap on the band axis, which is the first band of one
//! of the two (the band map is monotone), so the first-band bits decide it
//! without computing the band. A step where few objects moved keeps the
//! others' pairs and scans around the movers only (`coherent.rs`).
//!
//! Against the previous design (both endpoints in every band, swept with
//! a list of open intervals), `sap1` gained on every scene measured
//! (figures: BENCHMARKS.md).

use super::band_sap::{BandSap, swap_budget};
use super::bands::Bands;
use super::base::{ALIVE, ENTERING, IN_AXES, LEAVING, MOVED, SPANNER, SweepBase, swept_extent};
use super::config::SapStats;
use super::endpoints::{ENDPOINT_ORDER_SHIFT, sort_unique};
use super::endpoints::{OverBudget, is_start, key, merge_into, proxy, repair};
use super::parts::{Proxies, SortedKeys, StepWork};
use super::step::median;
use crate::broad::headroom::{reserve_headroom, with_margin};
use crate::broad::parallel::{for_each_range_mut, parts_for, split_by_weight};
use crate::geometry::Vector;

/// `sap1`'s band width, in median object sizes along the band axis: 4, 8
/// and 16 sizes cost about the same, and any of them is much faster than
/// one band on `uniform`, little or no faster on `flat` (figures:
/// BENCHMARKS.md).
const BAND_SIZES: f32 = 8.0;
/// Bands narrower than [`BAND_SIZES`] when the spread across the sweep axis
/// is short: this many bands where each can still be
/// [`NARROWEST_BAND_SIZES`] median sizes wide, else bands of that width
/// (see [`band_width`]). A thin corridor (3D `flat`, a few dozen sizes
/// across the sweep axis) otherwise gets one band and hundreds of
/// candidates per object; 8 bands cut its candidates several times over
/// and made it much faster, and cost 2D `flat` nothing (figures:
/// BENCHMARKS.md). Wide worlds (`uniform`) keep 8-size bands.
const MIN_BANDS: f32 = 8.0;
/// The narrowest band, in median sizes (see [`MIN_BANDS`]); 16 bands of at
/// least one size cut 3D `flat`'s candidates only a little further, and
/// made 2D `flat` no faster.
const NARROWEST_BAND_SIZES: f32 = 2.0;

/// The width of `sap1`'s bands for objects of median size `size` whose
/// centres spread over `spread` across the sweep axis: 8 sizes, or the
/// spread over 8 where that is narrower, but no narrower than 2 sizes.
fn band_width(size: f32, spread: f32) -> f32 {
    (BAND_SIZES * size)
        .min(spread / MIN_BANDS)
        .max(NARROWEST_BAND_SIZES * size)
}

/// The key of an object in a band's array: its min on the sweep axis,
/// whether the band is its first, and its proxy. Keys order by the min.
#[inline]
pub(super) fn band_key(min: f32, first_band: bool, proxy: u32) -> u64 {
    key(min, first_band, proxy)
}

/// True when the band holding this key is its object's first band.
#[inline]
pub(super) fn in_first_band(key: u64) -> bool {
    is_start(key)
}

impl<V: Vector, T> BandSap<V, T> {
    /// Measures the bands across the sweep axis (on the other axis with the
    /// largest variance of centres, a few median sizes wide). Returns true
    /// when they changed enough to re-sort: a different axis, or a count or
    /// width 25% off, or a spread no longer covered.
    pub(super) fn measure_bands(&mut self) -> bool {
        let sweep_axis = self.base.measures.sweep_axis;
        let variance = self.base.measures.sap_stats.variance;
        let Some(axis) = (0..V::DIM)
            .filter(|&a| a != sweep_axis)
            .max_by(|&a, &b| variance[a].total_cmp(&variance[b]))
        else {
            return false;
        };
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        self.base.work.extents.clear();
        for (p, aabb) in self.base.proxies.boxes.iter().enumerate() {
            if self.base.proxies.status[p] & ALIVE != 0 && !self.base.spans(aabb) {
                let centre = aabb.center().axis(axis);
                lo = lo.min(centre);
                hi = hi.max(centre);
                self.base.work.extents.push(swept_extent(aabb, axis));
            }
        }
        let size = median(&mut self.base.work.extents);
        let fresh = Bands::new(axis, lo, hi, band_width(size, hi - lo));
        let old = &self.bands;
        if fresh.count == 1 && old.count == 1 {
            return false;
        }
        let close = |a: f32, b: f32| (a / b - 1.0).abs() < 0.25;
        let keep = old.count > 1
            && fresh.axis == old.axis
            && close(fresh.count as f32, old.count as f32)
            && close(fresh.size, old.size)
            && lo >= old.lower()
            && hi <= old.upper();
        if keep {
            return false;
        }
        self.bands = fresh;
        true
    }

    /// Before a repair: the bands of each moved or entering object (no
    /// other object's box changed); those whose bands changed are
    /// remembered with their old ones (the repair drops them from bands
    /// they left, the merge adds them to bands they entered).
    pub(super) fn update_bands(&mut self) {
        self.rebanded.clear();
        let n = self.base.proxies.boxes.len();
        self.band_lo.resize(n, 0);
        self.band_hi.resize(n, 0);
        let objects = self
            .base
            .proxies
            .boxes
            .iter()
            .zip(&self.base.proxies.status);
        let bands = self.band_lo.iter_mut().zip(self.band_hi.iter_mut());
        for (p, ((aabb, &s), (band_lo, band_hi))) in objects.zip(bands).enumerate() {
            if s & (ALIVE | SPANNER | MOVED) != ALIVE | MOVED {
                continue;
            }
            let (lo, hi) = self.bands.range_of(aabb);
            if s & ENTERING != 0 {
                (*band_lo, *band_hi) = (lo, hi);
            } else if s & IN_AXES != 0 && (lo, hi) != (*band_lo, *band_hi) {
                self.rebanded.push((p as u32, *band_lo, *band_hi));
                (*band_lo, *band_hi) = (lo, hi);
            }
        }
    }

    /// Repairs every band's array: new keys for the moved objects that
    /// stay, dropping those that left the band or the axes, then an
    /// insertion sort (its swaps counted in `stats`). With 16,384 keys or
    /// more in all, the bands are cut into parts of about equal keys that
    /// run on the thread pool (see `broad/parallel.rs`); each band is
    /// repaired the same way whichever thread does it.
    pub(super) fn repair_bands(&mut self, stats: &mut SapStats) -> Result<(), OverBudget> {
        let axis = self.base.measures.sweep_axis;
        let Self {
            base,
            band_lo,
            band_hi,
            repair_bounds: bounds,
            repair_swaps: part_swaps,
            ..
        } = self;
        let SweepBase {
            sorted: SortedKeys { arrays: axes, .. },
            proxies: Proxies { boxes, status, .. },
            ..
        } = base;
        let (boxes, status, band_lo, band_hi) = (&*boxes, &*status, &*band_lo, &*band_hi);
        let repair_band = |band: u32, keys: &mut Vec<u64>| {
            let budget = swap_budget(keys.len());
            repair(
                keys,
                |k| {
                    let p = proxy(k) as usize;
                    let (lo, hi) = (band_lo[p], band_hi[p]);
                    let s = status[p];
                    let stays = s & LEAVING == 0 && lo <= band && band <= hi;
                    stays.then(|| match s & MOVED {
                        0 => k,
                        _ => band_key(boxes[p].min().axis(axis), lo == band, p as u32),
                    })
                },
                |_, _| {},
                budget,
            )
        };
        let total: usize = axes.iter().map(Vec::len).sum();
        let split = parts_for(total).min(axes.len());
        let swaps = if split <= 1 {
            let mut swaps = 0u64;
            for (band, keys) in axes.iter_mut().enumerate() {
                swaps += repair_band(band as u32, keys)?;
            }
            swaps
        } else {
            split_by_weight(axes.len(), split, |b| axes[b].len(), bounds);
            part_swaps.clear();
            part_swaps.resize(split, None);
            let bounds = &bounds[..];
            let repair_part = |k: usize, bands: &mut [Vec<u64>], swaps: &mut Option<u64>| {
                let mut sum = 0u64;
                for (b, keys) in bands.iter_mut().enumerate() {
                    let Ok(band_swaps) = repair_band((bounds[k] + b) as u32, keys) else {
                        return; // `swaps` stays `None`
                    };
                    sum += band_swaps;
                }
                *swaps = Some(sum);
            };
            for_each_range_mut(axes, bounds, part_swaps, &repair_part);
            let mut swaps = 0u64;
            for part in part_swaps.iter() {
                swaps += part.ok_or(OverBudget)?;
            }
            swaps
        };
        stats.swaps[axis] = swaps;
        Ok(())
    }

    /// Rebuilds every band's array from the objects. Each band's keys are
    /// counted first and its array made room for with a margin (see
    /// `headroom.rs`), so band sizes that wander from one re-sort to the
    /// next, and arrays handed from one band to another when the bands are
    /// re-cut, settle without allocating.
    pub(super) fn sort_bands_from_scratch(&mut self) {
        let count = self.bands.count as usize;
        reserve_headroom(&mut self.base.sorted.arrays, count);
        reserve_headroom(&mut self.spare_bands, self.base.sorted.arrays.len());
        // Bands dropped keep their memory for bands added later.
        while self.base.sorted.arrays.len() > count {
            let spare = self
                .base
                .sorted
                .arrays
                .pop()
                .expect("more bands than the count");
            self.spare_bands.push(spare);
        }
        while self.base.sorted.arrays.len() < count {
            self.base
                .sorted
                .arrays
                .push(self.spare_bands.pop().unwrap_or_default());
        }
        let n = self.base.proxies.boxes.len();
        self.band_lo.resize(n, 0);
        self.band_hi.resize(n, 0);
        reserve_headroom(&mut self.band_counts, count);
        self.band_counts.clear();
        self.band_counts.resize(count, 0);
        for (p, aabb) in self.base.proxies.boxes.iter().enumerate() {
            let s = self.base.proxies.status[p];
            if s & ALIVE == 0 || s & SPANNER != 0 {
                continue;
            }
            let (lo, hi) = self.bands.range_of(aabb);
            (self.band_lo[p], self.band_hi[p]) = (lo, hi);
            for band in lo..=hi {
                self.band_counts[band as usize] += 1;
            }
        }
        for (keys, &keys_in_band) in self.base.sorted.arrays.iter_mut().zip(&self.band_counts) {
            keys.clear();
            reserve_headroom(keys, keys_in_band as usize);
        }
        let axis = self.base.measures.sweep_axis;
        for (p, aabb) in self.base.proxies.boxes.iter().enumerate() {
            let s = self.base.proxies.status[p];
            if s & ALIVE == 0 || s & SPANNER != 0 {
                continue;
            }
            let (lo, hi) = (self.band_lo[p], self.band_hi[p]);
            let min = aabb.min().axis(axis);
            for band in lo..=hi {
                self.base.sorted.arrays[band as usize].push(band_key(min, band == lo, p as u32));
            }
        }
        for keys in &mut self.base.sorted.arrays {
            sort_unique(keys, &mut self.base.work.scratch, ENDPOINT_ORDER_SHIFT);
        }
        self.stock_spare_bands();
    }

    /// Keeps arrays ready for the bands a later re-cut may add (the world
    /// growing): when none is left, an eighth of the band count plus one,
    /// each with room for half an average band (bands added at the edges
    /// start small). Every band's list of arrivals, the spares' included,
    /// gets room for a few before a band first needs it. Taking a spare
    /// allocates nothing, so the band count can wander up to those without
    /// allocating.
    fn stock_spare_bands(&mut self) {
        if self.spare_bands.is_empty() {
            let count = self.base.sorted.arrays.len();
            let keys: usize = self.base.sorted.arrays.iter().map(Vec::len).sum();
            let room = keys / count.max(1) / 2;
            let spares = count / 8 + 1;
            reserve_headroom(&mut self.spare_bands, spares);
            self.spare_bands
                .extend((0..spares).map(|_| Vec::with_capacity(with_margin(room))));
        }
        let bands = self.base.sorted.arrays.len() + self.spare_bands.len();
        if self.band_fresh.len() < bands {
            reserve_headroom(&mut self.band_fresh, bands);
            self.band_fresh.resize_with(bands, Vec::new);
        }
        for fresh in &mut self.band_fresh {
            reserve_headroom(fresh, 0);
        }
    }

    /// Merges the keys of entering objects, and of objects that entered
    /// new bands, into those bands. The keys per band are counted first,
    /// so each band's list of fresh keys is made room for once.
    pub(super) fn merge_into_bands(&mut self) {
        let count = self.base.sorted.arrays.len();
        if self.band_fresh.len() < count {
            reserve_headroom(&mut self.band_fresh, count);
            self.band_fresh.resize_with(count, Vec::new);
        }
        reserve_headroom(&mut self.band_counts, count);
        self.band_counts.clear();
        self.band_counts.resize(count, 0);
        let axis = self.base.measures.sweep_axis;
        let Self {
            base,
            band_fresh,
            band_counts,
            band_lo,
            band_hi,
            rebanded,
            ..
        } = self;
        let SweepBase {
            proxies: Proxies { boxes, .. },
            work: StepWork { entering, .. },
            ..
        } = base;
        // The bands object `p` enters: all of its bands, or those outside
        // its old ones.
        let new_bands = |p: u32, old: Option<(u32, u32)>| {
            let (lo, hi) = (band_lo[p as usize], band_hi[p as usize]);
            (lo..=hi).filter(move |&band| {
                old.is_none_or(|(old_lo, old_hi)| band < old_lo || band > old_hi)
            })
        };
        let arrivals = || {
            let fresh = entering.iter().map(|&p| (p, None));
            fresh.chain(rebanded.iter().map(|&(p, lo, hi)| (p, Some((lo, hi)))))
        };
        let mut any = false;
        for (p, old) in arrivals() {
            for band in new_bands(p, old) {
                band_counts[band as usize] += 1;
                any = true;
            }
        }
        if !any {
            return;
        }
        for (fresh, &arriving) in band_fresh.iter_mut().zip(band_counts.iter()) {
            reserve_headroom(fresh, arriving as usize);
        }
        for (p, old) in arrivals() {
            let lo = band_lo[p as usize];
            let min = boxes[p as usize].min().axis(axis);
            for band in new_bands(p, old) {
                band_fresh[band as usize].push(band_key(min, band == lo, p));
            }
        }
        for (keys, fresh) in self.base.sorted.arrays.iter_mut().zip(&mut self.band_fresh) {
            if !fresh.is_empty() {
                fresh.sort_unstable();
                merge_into(keys, fresh);
                fresh.clear();
            }
        }
    }

    /// Scans every band, keeping each pair only in its home band; pushes
    /// slot pair keys to `keys` (unsorted). Returns the candidates tested.
    pub(super) fn scan_bands(&mut self, keys: &mut Vec<u64>) -> u64 {
        self.band_scan.scan_all(
            &self.base.sorted.arrays,
            &self.base.proxies.boxes,
            &self.base.proxies.handle_of,
            self.base.measures.sweep_axis,
            keys,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_are_narrower_in_thin_worlds_but_never_below_two_sizes() {
        // A wide world: 8 sizes.
        assert_eq!(band_width(12.5, 10_000.0), 100.0);
        // 2D `flat` at 100,000 objects: the spread over 8.
        assert_eq!(band_width(12.5, 400.0), 50.0);
        // 3D `flat` at 100,000 objects: the 2-size floor.
        assert_eq!(band_width(12.5, 186.0), 25.0);
        // Nothing to cut: the width is 0 and `Bands::new` makes one band.
        assert_eq!(band_width(0.0, 0.0), 0.0);
        assert_eq!(Bands::new(1, 0.0, 10.0, band_width(12.5, 10.0)).count, 1);
    }
}
