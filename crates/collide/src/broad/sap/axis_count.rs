//! The classic other way of turning swaps into pairs: keep, for each
//! pair, the axes on which the two intervals overlap; the pair exists while
//! all of them do. The classic form counts the axes; we keep one bit per axis, set
//! again from the two boxes on that axis at each swap, because with the
//! strict rule a zero-size interval's end sorts before its own start, and a
//! count driven by swap kinds alone then drifts (the lattice tests caught
//! it). A hash map entry for every pair that overlaps on at least one axis
//! (the one-axis candidates, per axis) and a hash update on every start-end
//! swap.
//!
//! Kept behind [`PairRule::AxisCount`](super::PairRule) so the comparison
//! with the box test can be run again; the box test is the default because
//! it measured faster (BENCHMARKS.md at commit 36a3a50, "Sweep and prune").

use rustc_hash::FxHashMap;

/// Overlapping axes (one bit each) per proxy pair key; pairs overlapping on
/// no axis have no entry.
#[derive(Clone, Debug, Default)]
pub(crate) struct AxisCounts {
    masks: FxHashMap<u64, u8>,
}

impl AxisCounts {
    /// Records whether the pair `k` overlaps on `axis`; returns whether it
    /// overlapped on all `dim` axes before and after.
    #[inline]
    pub(crate) fn set_axis(
        &mut self,
        k: u64,
        axis: usize,
        overlaps: bool,
        dim: usize,
    ) -> (bool, bool) {
        let full = (1u8 << dim) - 1;
        let bit = 1u8 << axis;
        if overlaps {
            let mask = self.masks.entry(k).or_insert(0);
            let before = *mask == full;
            *mask |= bit;
            (before, *mask == full)
        } else if let Some(mask) = self.masks.get_mut(&k) {
            let before = *mask == full;
            *mask &= !bit;
            if *mask == 0 {
                self.masks.remove(&k);
            }
            (before, false)
        } else {
            (false, false)
        }
    }

    /// Drops every entry of a proxy for which `leaving` holds.
    pub(crate) fn remove_of(&mut self, leaving: impl Fn(usize) -> bool) {
        self.masks
            .retain(|&k, _| !leaving((k >> 32) as usize) && !leaving(k as u32 as usize));
    }

    /// Forgets every entry (before a re-sort counts again).
    pub(crate) fn clear(&mut self) {
        self.masks.clear();
    }

    /// Marks `axis` as overlapping for the pair `k` (counting from
    /// scratch, no pair change).
    #[inline]
    pub(crate) fn add(&mut self, k: u64, axis: usize) {
        *self.masks.entry(k).or_insert(0) |= 1 << axis;
    }

    /// Number of pairs overlapping on all `dim` axes.
    pub(crate) fn full(&self, dim: usize) -> usize {
        let full = (1u8 << dim) - 1;
        self.masks.values().filter(|&&m| m == full).count()
    }
}
