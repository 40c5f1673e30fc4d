//! `sap1`'s coherent steps: when few objects moved since the last step, the
//! pairs among the others are kept and only the movers' pairs are found
//! again.
//!
//! `sap1` keeps the pairs of the objects in its bands (not the spanners')
//! from step to step, sorted. An object whose box changed is marked as
//! moved. When at most one object in [`COHERENT_SHARE`] moved, entered or
//! left, a step refreshes only the movers' keys, drops only their pairs,
//! and finds their new ones by a short scan around their place in each of
//! their bands: forward while the next box starts before theirs ends,
//! backward as far as the longest box in the bands reaches. No scan of
//! every band and no sort of every pair. This is what makes resting
//! objects cheap (in a game most bodies sleep; the shared `resting` motion
//! moves about one object in 11 per frame): a step costs a status read per
//! key, two lookups per kept pair, the movers' scans, a sort of their new
//! pairs and the merge that turns the pairs into events (plus, with
//! world-spanning objects, their test against everyone and a merge of
//! their pairs). Otherwise the step scans every band as before.
//!
//! Growing the boxes by a margin (Box2D's fat boxes), so that fewer objects
//! count as moved under slow motion, was measured and dropped (figures:
//! BENCHMARKS.md).

use super::band_sap::BandSap;
use super::base::{ALIVE, IN_AXES, LEAVING, MOVED, SPANNER, SweepBase, swept_extent};
use super::config::SapStats;
use super::endpoints::sort_unique;
use super::endpoints::{key, proxy};
use super::one_axis::in_first_band;
use super::parts::{Measures, Proxies, SortedKeys, StepWork};
use crate::broad::events::pair_key;
use crate::broad::headroom::reserve_headroom;
use crate::geometry::Vector;

/// A step is coherent (pairs found around the movers only) when at most
/// one object in this many moved, entered or left. Coherent steps win
/// clearly when few objects move and lose when all do, breaking even well
/// above half; half leaves room for denser scenes, whose movers have more
/// candidates each (figures: BENCHMARKS.md).
const COHERENT_SHARE: usize = 2;

/// The largest `f32` at or below `a - b`.
fn lower_difference(a: f32, b: f32) -> f32 {
    let exact = f64::from(a) - f64::from(b);
    let rounded = exact as f32;
    if f64::from(rounded) > exact {
        rounded.next_down()
    } else {
        rounded
    }
}

impl<V: Vector, T> BandSap<V, T> {
    /// Marks the entering objects as moved too. Returns how many objects in
    /// the bands moved or entered.
    pub(super) fn take_moves(&mut self) -> u64 {
        for &p in &self.base.work.entering {
            self.base.proxies.status[p as usize] |= MOVED;
        }
        let moved = |s: u16| s & (ALIVE | SPANNER | MOVED) == ALIVE | MOVED;
        self.base
            .proxies
            .status
            .iter()
            .filter(|&&s| moved(s))
            .count() as u64
    }

    /// Brings the longest extent along the sweep axis up to date for a
    /// coherent step: raised by the movers', or measured over every object
    /// in the bands after a step that scanned them all (which does not keep
    /// it, to spare fast motion the work).
    fn update_max_extent(&mut self) {
        let axis = self.base.measures.sweep_axis;
        let stale = std::mem::take(&mut self.max_extent_stale);
        let wanted = if stale { ALIVE } else { ALIVE | MOVED };
        let mut longest = if stale { 0.0 } else { self.max_extent };
        for (aabb, &s) in self
            .base
            .proxies
            .boxes
            .iter()
            .zip(&self.base.proxies.status)
        {
            if s & (ALIVE | SPANNER | wanted) == wanted {
                longest = longest.max(swept_extent(aabb, axis));
            }
        }
        self.max_extent = longest;
    }

    /// True when this step may keep the pairs of the objects that did not
    /// move (see [`COHERENT_SHARE`]).
    pub(super) fn coherent(&self, stats: &SapStats) -> bool {
        let in_axes = self.base.proxies.objects.len() - self.base.sorted.spanners.len();
        let changed = stats.moved as usize + self.base.work.leaving.len();
        changed * COHERENT_SHARE <= in_axes
    }

    /// A coherent step's pairs: drops those of the moved and leaving
    /// objects from the kept list and adds the movers' new ones, found
    /// around their keys in each of their bands. Each new pair is found
    /// once: in its home band (the first band of one of the two), from the
    /// earlier of the two in the band when both moved, else from the mover.
    /// Returns the candidates tested.
    pub(super) fn coherent_pairs(&mut self) -> u64 {
        self.update_max_extent();
        let Self {
            base,
            band_pairs,
            max_extent,
            ..
        } = self;
        let SweepBase {
            sorted: SortedKeys { arrays: axes, .. },
            proxies:
                Proxies {
                    boxes,
                    status,
                    proxy_of,
                    handle_of,
                    ..
                },
            work: StepWork { fresh, scratch, .. },
            measures: Measures { sweep_axis, .. },
            ..
        } = base;
        // A slot whose object left keeps no pair: it is leaving, or it was
        // freed and taken by an entering object or a spanner.
        let kept = |slot: u32| {
            status[proxy_of[slot as usize] as usize] & (IN_AXES | MOVED | LEAVING) == IN_AXES
        };
        fresh.clear();
        let axis = *sweep_axis;
        let reach = *max_extent;
        let mut tested = 0u64;
        for band in axes.iter() {
            for (i, &k) in band.iter().enumerate() {
                let p = proxy(k) as usize;
                if status[p] & MOVED == 0 {
                    continue;
                }
                let (aabb, first_p) = (&boxes[p], in_first_band(k));
                let slot_p = handle_of[p].index();
                let mut pair = |kq: u64| {
                    let q = proxy(kq) as usize;
                    tested += 1;
                    if (first_p || in_first_band(kq)) && aabb.overlaps(&boxes[q]) {
                        fresh.push(pair_key(slot_p, handle_of[q].index()));
                    }
                };
                // Later keys start before this box ends.
                let until = key(aabb.max().axis(axis), false, 0);
                for &kq in band[i + 1..].iter().take_while(|&&kq| kq < until) {
                    pair(kq);
                }
                // Earlier keys of objects that did not move (a mover finds
                // this one from its own place), back as far as the longest
                // box reaches.
                let from = key(lower_difference(aabb.min().axis(axis), reach), false, 0);
                for &kq in band[..i].iter().rev().take_while(|&&kq| kq >= from) {
                    if status[proxy(kq) as usize] & MOVED == 0 {
                        pair(kq);
                    }
                }
            }
        }
        // One pass: the kept pairs that stand, merged with the new ones
        // (a few instructions fewer than a retain and then a merge).
        sort_unique(fresh, scratch, 0);
        scratch.clear();
        reserve_headroom(scratch, band_pairs.len() + fresh.len());
        let mut j = 0;
        for &k in band_pairs.iter() {
            if kept((k >> 32) as u32) && kept(k as u32) {
                while j < fresh.len() && fresh[j] < k {
                    scratch.push(fresh[j]);
                    j += 1;
                }
                scratch.push(k);
            }
        }
        scratch.extend_from_slice(&fresh[j..]);
        std::mem::swap(band_pairs, scratch);
        tested
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lower_difference_never_rounds_up() {
        for (a, b) in [
            (1.0f32, 1e-9f32),
            (1e8, 0.3),
            (-3.0, 1e30),
            (0.1, 0.2),
            (5.0, 0.0),
        ] {
            let d = lower_difference(a, b);
            assert!(f64::from(d) <= f64::from(a) - f64::from(b), "{a} - {b}");
            assert!(
                f64::from(d.next_up()) > f64::from(a) - f64::from(b),
                "{a} - {b}"
            );
        }
    }
}
