//! A stable LSD radix sort on 64-bit keys, for sorting many records per
//! frame in O(n) rather than O(n log n) (grid registrations after incoherent
//! motion), and the merge of two sorted key lists.

use super::headroom::reserve_headroom;

/// Merges the sorted keys `a` and `b` into `out` (cleared first); keys in
/// both come twice.
pub(crate) fn merge_sorted(a: &[u64], b: &[u64], out: &mut Vec<u64>) {
    out.clear();
    reserve_headroom(out, a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] < b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

/// Sorts the keys `items` ascending: by [`radix_sort_by_key`] when there
/// are more than [`RADIX_MIN`], by the standard library's unstable sort
/// otherwise (a radix pass costs its bucket counts however few the keys).
/// `scratch` is reused memory, as for [`radix_sort_by_key`].
pub(crate) fn sort_keys(items: &mut Vec<u64>, scratch: &mut Vec<u64>) {
    if items.len() > RADIX_MIN {
        radix_sort_by_key(items, scratch, |&k| k);
    } else {
        items.sort_unstable();
    }
}

/// [`sort_keys`] radix sorts more keys than this, and a grid level more new
/// registrations.
pub(crate) const RADIX_MIN: usize = 2048;

/// Sorts `items` by `key` (ascending, stable) in as few passes of at most
/// 11-bit digits as the bits that differ between the keys need, with the
/// digits spread evenly over those bits (grid cell keys over 17 bits: two
/// passes of 9 bits, 512 buckets each, rather than 11 and 6 bits).
/// `scratch` is reused memory; its contents are unspecified after.
///
/// Cost: one pass to find the differing bits, one counting pass, and one
/// scatter pass per digit.
pub(crate) fn radix_sort_by_key<T: Copy>(
    items: &mut Vec<T>,
    scratch: &mut Vec<T>,
    key: impl Fn(&T) -> u64,
) {
    let n = items.len();
    // Both buffers get room for `n` with a margin, as they may swap; from
    // the first call, so the first keys to sort allocate nothing either.
    reserve_headroom(items, n);
    reserve_headroom(scratch, n);
    if n < 2 {
        return;
    }
    let first = key(&items[0]);
    let differing = items.iter().fold(0, |acc, item| acc | (key(item) ^ first));
    if differing == 0 {
        return;
    }
    let low = differing.trailing_zeros() as usize;
    let bits = 64 - differing.leading_zeros() as usize - low;
    let passes = bits.div_ceil(MAX_BITS);
    let digit_bits = bits.div_ceil(passes);
    let mask = (1u64 << digit_bits) - 1;
    let digit = |item: &T, pass: usize| ((key(item) >> (low + digit_bits * pass)) & mask) as usize;
    // 48 KiB on the stack: no allocation per call.
    let mut counts = [[0u32; RADIX]; MAX_PASSES];
    for item in items.iter() {
        for (pass, table) in counts.iter_mut().enumerate().take(passes) {
            table[digit(item, pass)] += 1;
        }
    }
    // The first pass overwrites all of `scratch`: only its length matters.
    scratch.truncate(n);
    let have = scratch.len();
    scratch.extend_from_slice(&items[have..]);
    let mut in_scratch = false;
    for (pass, table) in counts.iter().enumerate().take(passes) {
        if table.iter().any(|&c| c as usize == n) {
            continue; // every key has the same digit here
        }
        let mut offsets = [0u32; RADIX];
        let mut sum = 0;
        for (offset, &count) in offsets.iter_mut().zip(table.iter()) {
            *offset = sum;
            sum += count;
        }
        let (src, dst): (&[T], &mut [T]) = if in_scratch {
            (&scratch[..], &mut items[..])
        } else {
            (&items[..], &mut scratch[..])
        };
        for item in src {
            let bucket = digit(item, pass);
            dst[offsets[bucket] as usize] = *item;
            offsets[bucket] += 1;
        }
        in_scratch = !in_scratch;
    }
    if in_scratch {
        std::mem::swap(items, scratch);
    }
}

const MAX_BITS: usize = 11;
const RADIX: usize = 1 << MAX_BITS;
const MAX_PASSES: usize = 64_usize.div_ceil(MAX_BITS);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;

    #[test]
    fn merging_keeps_the_order() {
        let mut out = vec![99];
        merge_sorted(&[1, 4, 9], &[2, 3, 10, 11], &mut out);
        assert_eq!(out, [1, 2, 3, 4, 9, 10, 11]);
        merge_sorted(&[], &[5], &mut out);
        assert_eq!(out, [5]);
    }

    #[test]
    fn sorts_stably_like_the_standard_sort() {
        let mut rng = TestRng::new(3);
        for (n, mask) in [
            (0, u64::MAX),
            (1, u64::MAX),
            (1000, u64::MAX),
            (5000, 0xff_ff00),
            (777, 7),
        ] {
            let items: Vec<(u64, u32)> = (0..n).map(|i| (rng.next_u64() & mask, i)).collect();
            let mut expected = items.clone();
            expected.sort_by_key(|x| x.0); // stable
            let (mut got, mut scratch) = (items, Vec::new());
            radix_sort_by_key(&mut got, &mut scratch, |x| x.0);
            assert_eq!(got, expected, "n {n} mask {mask:x}");
        }
    }
}
