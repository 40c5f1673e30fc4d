//! `sap`'s pair set: the current pairs as proxy pair keys, with the flips of
//! the step being taken (each key whose membership changed, once per
//! change) and a pair count per proxy, so most "does this pair exist?"
//! questions are answered without hashing.

use crate::broad::headroom::{keep_headroom, reserve_headroom, with_margin};
use rustc_hash::FxHashSet;

/// The current pairs of `sap`, keyed by [`pair_key`](crate::broad::events)
/// of the two proxies.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairSet {
    keys: FxHashSet<u64>,
    /// Per proxy: how many pairs it is in.
    counts: Vec<u32>,
    /// Keys whose membership changed during this step, once per change.
    flips: Vec<u64>,
}

#[inline]
fn halves(k: u64) -> (usize, usize) {
    ((k >> 32) as usize, k as u32 as usize)
}

impl PairSet {
    /// Makes room for proxies below `proxies`.
    pub(crate) fn reserve_proxies(&mut self, proxies: usize) {
        if self.counts.len() < proxies {
            self.counts.resize(proxies, 0);
        }
    }

    /// Adds `k`; records a flip if it was absent.
    #[inline]
    pub(crate) fn insert(&mut self, k: u64) {
        if self.keys.insert(k) {
            let (a, b) = halves(k);
            self.counts[a] += 1;
            self.counts[b] += 1;
            self.flips.push(k);
        }
    }

    /// Removes `k`; records a flip if it was present. A proxy with no pair
    /// answers without a hash lookup.
    #[inline]
    pub(crate) fn remove(&mut self, k: u64) {
        let (a, b) = halves(k);
        if self.counts[a] == 0 || self.counts[b] == 0 {
            return;
        }
        if self.keys.remove(&k) {
            self.counts[a] -= 1;
            self.counts[b] -= 1;
            self.flips.push(k);
        }
    }

    /// True if `k` is a current pair.
    pub(crate) fn contains(&self, k: u64) -> bool {
        self.keys.contains(&k)
    }

    /// Number of pairs.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// Removes every pair of a proxy for which `leaving` holds (one pass
    /// over the set), recording the flips.
    pub(crate) fn remove_pairs_of(&mut self, leaving: impl Fn(usize) -> bool) {
        let Self {
            keys,
            counts,
            flips,
        } = self;
        keys.retain(|&k| {
            let (a, b) = halves(k);
            let gone = leaving(a) || leaving(b);
            if gone {
                counts[a] -= 1;
                counts[b] -= 1;
                flips.push(k);
            }
            !gone
        });
    }

    /// Replaces the pairs with `keys` (after a re-sort) and forgets the
    /// flips.
    pub(crate) fn reset(&mut self, keys: &[u64]) {
        self.keys.clear();
        self.counts.iter_mut().for_each(|c| *c = 0);
        keep_headroom(&mut self.flips);
        self.flips.clear();
        for &k in keys {
            if self.keys.insert(k) {
                let (a, b) = halves(k);
                self.counts[a] += 1;
                self.counts[b] += 1;
            }
        }
        self.make_room();
    }

    /// Keeps free room in the set for the next step's new pairs: past it,
    /// an insert would grow the table (an allocation per step while the
    /// pair count wanders). Tombstones left by removals eat the room too;
    /// reserving then rehashes in place once the table is twice the pairs,
    /// which growth by doubling reaches after a few steps.
    ///
    /// The flips of a step number up to the pairs that stopped plus those
    /// that started, which under teleports wander far more than the pair
    /// count: the list keeps room for twice as many flips as there are
    /// pairs.
    fn make_room(&mut self) {
        let len = self.keys.len();
        self.keys.reserve(with_margin(len) - len);
        reserve_headroom(&mut self.flips, 2 * len);
    }

    /// Calls `on_change(key, now_present)` for each key whose membership
    /// changed an odd number of times this step (a net change), in key
    /// order, and forgets the flips.
    pub(crate) fn drain_changes(&mut self, mut on_change: impl FnMut(u64, bool)) {
        self.flips.sort_unstable();
        let mut i = 0;
        while i < self.flips.len() {
            let k = self.flips[i];
            let mut j = i + 1;
            while j < self.flips.len() && self.flips[j] == k {
                j += 1;
            }
            if (j - i) % 2 == 1 {
                on_change(k, self.keys.contains(&k));
            }
            i = j;
        }
        // Room for as many flips next step (see `headroom.rs`).
        keep_headroom(&mut self.flips);
        self.flips.clear();
        self.make_room();
    }
}
