//! Endpoint keys and the operations on one sorted axis: the insertion-sort
//! repair that reports every swap, the merge of new endpoints, and the
//! slab scan used by queries.
//!
//! An endpoint is one `u64`: the order-preserving bits of the coordinate in
//! the high half, then one bit that is 0 for an end (max) and 1 for a start
//! (min), then the 31-bit proxy id. Comparing keys as integers therefore
//! orders by value, puts an end before a start at equal values (the
//! tie fix matching the strict overlap rule of [`Aabb::overlaps`]) and breaks
//! the remaining ties by proxy, so no two keys are equal. `sap1`'s band
//! keys have the same form, all of them mins, with that bit saying whether
//! the band is the object's first (`one_axis.rs`).

use crate::broad::headroom::reserve_headroom;
use crate::broad::radix::radix_sort_by_key;
use crate::geometry::{Aabb, Vector};

/// The most proxies an axis can name (31 bits).
pub(crate) const MAX_PROXIES: u32 = 1 << 31;
const START_BIT: u64 = 1 << 31;
const PROXY_MASK: u64 = START_BIT - 1;

/// The bits of `x` as a `u32` that orders like the float, with -0.0 taken
/// as +0.0 (they compare equal as floats, so they must as keys).
#[inline]
pub(crate) fn ordered_bits(x: f32) -> u32 {
    let bits = (x + 0.0).to_bits(); // -0.0 + 0.0 == +0.0
    if bits & 0x8000_0000 != 0 {
        !bits
    } else {
        bits | 0x8000_0000
    }
}

/// The key of one endpoint.
#[inline]
pub(crate) fn key(value: f32, is_start: bool, proxy: u32) -> u64 {
    debug_assert!(proxy < MAX_PROXIES);
    (u64::from(ordered_bits(value)) << 32) | if is_start { START_BIT } else { 0 } | u64::from(proxy)
}

/// The proxy a key belongs to.
#[inline]
pub(crate) fn proxy(key: u64) -> u32 {
    (key & PROXY_MASK) as u32
}

/// True for a start (min) endpoint.
#[inline]
pub(crate) fn is_start(key: u64) -> bool {
    key & START_BIT != 0
}

/// True when one key is a start and the other an end.
#[inline]
pub(crate) fn kinds_differ(a: u64, b: u64) -> bool {
    (a ^ b) & START_BIT != 0
}

/// The key of the same endpoint with a fresh value taken from `aabb`.
#[inline]
pub(crate) fn refreshed<V: Vector>(old: u64, aabb: &Aabb<V>, axis: usize) -> u64 {
    // Indexed rather than branched: starts and ends come in no pattern.
    let start = is_start(old);
    let values = [aabb.max().axis(axis), aabb.min().axis(axis)];
    key(values[usize::from(start)], start, proxy(old))
}

/// Below this many keys a comparison sort beats the radix sort's fixed
/// cost (its 48 KiB of counters).
const RADIX_MIN: usize = 4096;

/// Endpoint keys pushed in proxy order need sorting on their value and
/// kind bits only: the stable radix sort keeps equal ones in proxy order,
/// which is the order of the low bits. Three digit passes instead of six.
pub(crate) const ENDPOINT_ORDER_SHIFT: u32 = 31;

/// Sorts distinct keys; with a radix sort on `key >> shift` when that many
/// are worth it, which gives the full order when the items are already in
/// order on their low `shift` bits among equal high bits.
pub(crate) fn sort_unique(keys: &mut Vec<u64>, scratch: &mut Vec<u64>, shift: u32) {
    if keys.len() < RADIX_MIN {
        keys.sort_unstable();
    } else {
        radix_sort_by_key(keys, scratch, |k| *k >> shift);
    }
    debug_assert!(keys.windows(2).all(|w| w[0] < w[1]));
}

/// The swap budget ran out: the caller re-sorts from scratch.
#[derive(Debug)]
pub(crate) struct OverBudget;

/// Brings one sorted axis up to date: drops the endpoints `fresh` maps to
/// `None`, gives the others their new key, then restores the order by
/// insertion sort. Each time an endpoint moves left past another,
/// `on_swap(moving, passed)` is called: insertion sort swaps each inverted
/// pair exactly once, so every change of order between two endpoints is
/// reported once. Returns the number of swaps, or [`OverBudget`] as soon as
/// it would exceed `budget` (the axis is then out of order: sort it anew).
///
/// Two passes: the refresh reads the boxes in no particular order but has
/// no dependency from one endpoint to the next, so its loads overlap; the
/// sort is a chain of unpredictable branches over memory read in order.
/// Two passes beat one interleaved pass (figures: BENCHMARKS.md).
///
/// Cost: one pass plus one step per swap.
pub(crate) fn repair(
    keys: &mut Vec<u64>,
    mut fresh: impl FnMut(u64) -> Option<u64>,
    mut on_swap: impl FnMut(u64, u64),
    budget: u64,
) -> Result<u64, OverBudget> {
    let mut write = 0usize;
    for read in 0..keys.len() {
        if let Some(k) = fresh(keys[read]) {
            keys[write] = k;
            write += 1;
        }
    }
    keys.truncate(write);
    let mut swaps = 0u64;
    for i in 1..keys.len() {
        let k = keys[i];
        let mut j = i;
        while j > 0 && keys[j - 1] > k {
            on_swap(k, keys[j - 1]);
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = k;
        swaps += (i - j) as u64;
        if swaps > budget {
            return Err(OverBudget);
        }
    }
    Ok(swaps)
}

/// Merges the sorted keys `fresh` into the sorted `keys`, in place: `keys`
/// grows by `fresh.len()` (with a margin, see `headroom.rs`) and the merge
/// fills it from the back, so no key moves twice and no buffer trades
/// places with another (which would hand a band's array the shared
/// scratch's capacity, and the scratch a band's).
pub(crate) fn merge_into(keys: &mut Vec<u64>, fresh: &[u64]) {
    if fresh.is_empty() {
        return;
    }
    let old = keys.len();
    reserve_headroom(keys, old + fresh.len());
    keys.resize(old + fresh.len(), 0);
    let (mut i, mut j) = (old, fresh.len());
    for w in (0..keys.len()).rev() {
        // Equal keys (never two endpoints, which name their proxy) would
        // end fresh first, as `merge_sorted` orders them.
        if i == 0 || fresh[j - 1] > keys[i - 1] {
            j -= 1;
            keys[w] = fresh[j];
        } else {
            i -= 1;
            keys[w] = keys[i];
        }
        if j == 0 {
            break; // the rest of `keys` is in place
        }
    }
}

/// Calls `on_key(k)` for every key on the sorted `keys` whose value lies
/// in `[lo - 2 max_extent, hi)` (twice, and in f64, so rounding can never
/// cut a candidate off): given that no interval on the axis is longer than
/// `max_extent`, the starts among them are the intervals that can overlap
/// `[lo, hi]` (`sap1`'s band keys are all mins).
/// Cost: a binary search plus the keys in that slab.
pub(crate) fn scan_slab(keys: &[u64], lo: f32, hi: f32, max_extent: f32, on_key: impl FnMut(u64)) {
    let from = key(
        (f64::from(lo) - 2.0 * f64::from(max_extent)) as f32,
        false,
        0,
    );
    let until = key(hi, false, 0);
    let first = keys.partition_point(|&k| k < from);
    keys[first..]
        .iter()
        .take_while(|&&k| k < until)
        .copied()
        .for_each(on_key);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_in_place_equals_sorting_the_union() {
        let mut rng = crate::test_rng::TestRng::new(8);
        for (old, new) in [(0, 3), (5, 0), (1, 1), (40, 7), (7, 40), (300, 300)] {
            let mut keys: Vec<u64> = (0..old).map(|_| rng.next_u64() % 1000).collect();
            let mut fresh: Vec<u64> = (0..new).map(|_| rng.next_u64() % 1000).collect();
            keys.sort_unstable();
            fresh.sort_unstable();
            let mut want = [keys.clone(), fresh.clone()].concat();
            want.sort_unstable();
            merge_into(&mut keys, &fresh);
            assert_eq!(keys, want, "{old} kept, {new} fresh");
        }
    }

    #[test]
    fn keys_order_like_the_floats_with_ends_first_at_ties() {
        let values = [-1e30f32, -2.5, -0.0, 0.0, 1e-40, 3.0, 3.5, f32::MAX];
        for &a in &values {
            for &b in &values {
                let (ka, kb) = (key(a, true, 1), key(b, false, 2));
                // A start before an end means "a < b" under the strict rule.
                assert_eq!(ka < kb, a < b, "{a} start vs {b} end");
                assert_eq!(ordered_bits(a) < ordered_bits(b), a < b, "{a} vs {b}");
            }
        }
        assert_eq!(proxy(key(7.0, true, 12345)), 12345);
        assert!(is_start(key(7.0, true, 0)) && !is_start(key(7.0, false, 0)));
    }

    #[test]
    fn repair_reports_each_inversion_once() {
        let mut keys: Vec<u64> = vec![5, 1, 4, 2, 3].into_iter().map(|v| v << 32).collect();
        let mut swaps = Vec::new();
        let n = repair(&mut keys, Some, |a, b| swaps.push((a >> 32, b >> 32)), 100).unwrap();
        assert_eq!(keys, (1..=5).map(|v| v << 32).collect::<Vec<_>>());
        assert_eq!(n, 6); // the inversions of 5 1 4 2 3
        assert_eq!(swaps.len(), 6);
        let mut again = keys.clone();
        // Reversing every key inverts all 10 pairs: over a budget of 2.
        assert!(repair(&mut again, |k| Some(u64::MAX - k), |_, _| {}, 2).is_err());
    }
}
