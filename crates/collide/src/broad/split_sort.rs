//! Sorting a step's pair keys on the thread pool: the same sorted keys as
//! the one-thread radix sort (`radix.rs`), whatever the thread count.
//!
//! Pair keys are many in crowded scenes, and their radix sort was a large
//! share of a `sap1` step there (measured with perf), all on one thread.
//! Split, it runs in two regions:
//!
//! 1. Each chunk of the keys (equal lengths) counts its keys per bucket of
//!    the top 8 bits and copies them, grouped by bucket, into its own
//!    range of a second buffer.
//! 2. The buckets are cut into runs of about equal keys, one per part;
//!    each part radix sorts its buckets' keys from every chunk straight
//!    into its own range of the output (the first pass reads the chunks'
//!    groups where they lie, and the number of passes decides where the
//!    first one writes, so the last one ends in the output). A part's
//!    keys all lie below the next part's, so the ranges put together are
//!    sorted.
//!
//! Both regions read and write each key about as often as the one-thread
//! sort does, but on every thread.

use super::headroom::reserve_headroom;
use super::parallel::{for_each_range_mut, parts_for, split_by_weight};
use super::radix::{radix_sort_by_key, sort_keys};

/// Bits of the top digit that cuts the keys into buckets.
const BUCKET_BITS: u32 = 8;
const BUCKETS: usize = 1 << BUCKET_BITS;
/// Widest digit of a part's passes, as in `radix.rs`.
const MAX_DIGIT_BITS: u32 = 11;
const MAX_PASSES: usize = 64_usize.div_ceil(MAX_DIGIT_BITS as usize);

/// Memory reused from one sort to the next.
#[derive(Clone, Debug, Default)]
pub(crate) struct SplitSort {
    /// The one-thread sort's scratch; a split sort's keys grouped by
    /// bucket within each chunk.
    grouped: Vec<u64>,
    /// Per chunk: where each bucket's keys start in its range of
    /// `grouped`, and whether a key was past the bound.
    chunks: Vec<Chunk>,
    chunk_bounds: Vec<usize>,
    /// Per part: its first bucket (and one past the last part's).
    cuts: Vec<usize>,
    /// Per part: where its keys start in the output.
    out_bounds: Vec<usize>,
    /// Per part: the other buffer of its passes.
    spare: Vec<Vec<u64>>,
}

#[derive(Clone, Debug)]
struct Chunk {
    /// Bucket `b`'s keys are at `starts[b]..starts[b + 1]` of the chunk's
    /// range.
    starts: [u32; BUCKETS + 1],
    /// A key was `2^key_bits` or more: sort on one thread instead.
    out_of_bound: bool,
}

impl Default for Chunk {
    fn default() -> Self {
        Self {
            starts: [0; BUCKETS + 1],
            out_of_bound: false,
        }
    }
}

impl SplitSort {
    /// Sorts `keys` ascending, every key below `2^key_bits`: on the calling
    /// thread (`sort_keys`) under `PARALLEL_MIN` keys or with one
    /// thread, else as the module documentation says. A key at or past the
    /// bound is not lost: the keys are then sorted on one thread.
    pub(crate) fn sort(&mut self, keys: &mut Vec<u64>, key_bits: u32) {
        let n = keys.len();
        let split = parts_for(n);
        if split <= 1 || key_bits > 64 {
            sort_keys(keys, &mut self.grouped);
            return;
        }
        // Bucket = the top BUCKET_BITS of the keys' `key_bits`.
        let shift = key_bits.saturating_sub(BUCKET_BITS);
        let bucket_of = move |k: u64| ((k >> shift) as usize).min(BUCKETS - 1);
        let limit = if key_bits == 64 {
            u64::MAX
        } else {
            (1u64 << key_bits) - 1
        };
        reserve_headroom(&mut self.grouped, n);
        self.grouped.resize(n, 0);
        self.chunk_bounds.clear();
        self.chunk_bounds.extend((0..=split).map(|k| n * k / split));
        if self.chunks.len() < split {
            self.chunks.resize_with(split, Default::default);
        }
        let source = &keys[..];
        let chunk_bounds = &self.chunk_bounds[..];
        let group = |p: usize, out: &mut [u64], chunk: &mut Chunk| {
            let chunk_keys = &source[chunk_bounds[p]..chunk_bounds[p + 1]];
            let mut counts = [0u32; BUCKETS];
            let mut all = 0u64;
            for &k in chunk_keys {
                all |= k;
                counts[bucket_of(k)] += 1;
            }
            chunk.out_of_bound = all > limit;
            let mut sum = 0;
            for (start, &count) in chunk.starts.iter_mut().zip(&counts) {
                *start = sum;
                sum += count;
            }
            chunk.starts[BUCKETS] = sum;
            let mut at = chunk.starts;
            for &k in chunk_keys {
                let b = bucket_of(k);
                out[at[b] as usize] = k;
                at[b] += 1;
            }
        };
        for_each_range_mut(
            &mut self.grouped,
            chunk_bounds,
            &mut self.chunks[..split],
            &group,
        );
        let chunks = &self.chunks[..split];
        if chunks.iter().any(|c| c.out_of_bound) {
            radix_sort_by_key(keys, &mut self.grouped, |&k| k);
            return;
        }
        // Cut the buckets into parts of about equal keys.
        let bucket_len = |b: usize| -> usize {
            chunks
                .iter()
                .map(|c| (c.starts[b + 1] - c.starts[b]) as usize)
                .sum()
        };
        split_by_weight(BUCKETS, split, bucket_len, &mut self.cuts);
        self.out_bounds.clear();
        let mut at = 0;
        for k in 0..split {
            self.out_bounds.push(at);
            at += (self.cuts[k]..self.cuts[k + 1])
                .map(bucket_len)
                .sum::<usize>();
        }
        self.out_bounds.push(at);
        if self.spare.len() < split {
            self.spare.resize_with(split, Vec::new);
        }
        let (grouped, cuts) = (&self.grouped[..], &self.cuts[..]);
        let sort_part = |k: usize, out: &mut [u64], spare: &mut Vec<u64>| {
            let (first, end) = (cuts[k], cuts[k + 1]);
            // The part's keys: from each chunk, its buckets' group.
            let sources = chunks.iter().zip(chunk_bounds).map(|(c, &base)| {
                let (from, to) = (c.starts[first] as usize, c.starts[end] as usize);
                &grouped[base + from..base + to]
            });
            sort_gathered(sources, out, spare, shift, first, end);
        };
        for_each_range_mut(keys, &self.out_bounds, &mut self.spare[..split], &sort_part);
    }
}

/// Radix sorts the keys of `sources` (all in buckets `first..end`, see
/// [`SplitSort::sort`]) into `out`, which holds exactly as many; `spare`
/// is the other buffer of the passes.
fn sort_gathered<'a>(
    sources: impl Iterator<Item = &'a [u64]> + Clone,
    out: &mut [u64],
    spare: &mut Vec<u64>,
    shift: u32,
    first: usize,
    end: usize,
) {
    let n = out.len();
    if n == 0 {
        return;
    }
    // Bits that can differ between the part's keys: those under the
    // bucket digit, and the bucket's bits that differ across the range.
    let bucket_bits = usize::BITS - (first ^ (end - 1)).leading_zeros();
    let bits = shift + bucket_bits;
    let passes = bits.div_ceil(MAX_DIGIT_BITS).max(1) as usize;
    let digit_bits = bits.div_ceil(passes as u32).max(1);
    let mask = (1u64 << digit_bits) - 1;
    let digit = |k: u64, pass: usize| ((k >> (digit_bits as usize * pass)) & mask) as usize;
    // 48 KiB on the stack, as in `radix.rs`: no allocation per call.
    let mut counts = [[0u32; 1 << MAX_DIGIT_BITS]; MAX_PASSES];
    for source in sources.clone() {
        for &k in source {
            for (pass, table) in counts.iter_mut().enumerate().take(passes) {
                table[digit(k, pass)] += 1;
            }
        }
    }
    // Passes where every key has the same digit are skipped; the first
    // pass that runs writes where the number that run makes the last one
    // end in `out`.
    let runs = |pass: usize| !counts[pass].iter().any(|&c| c as usize == n);
    let run_count = (0..passes).filter(|&p| runs(p)).count();
    reserve_headroom(spare, n);
    spare.resize(n, 0);
    if run_count == 0 {
        // One key value throughout: copy the keys over.
        let mut at = 0;
        for source in sources {
            out[at..at + source.len()].copy_from_slice(source);
            at += source.len();
        }
        return;
    }
    let spare = &mut spare[..n];
    // Whether the keys are in `out` (else in `spare`) after a pass: after
    // an odd number of passes the last one wrote where the first one did.
    let mut in_out = run_count % 2 == 1;
    for (nth, pass) in (0..passes).filter(|&p| runs(p)).enumerate() {
        let mut offsets = [0u32; 1 << MAX_DIGIT_BITS];
        let mut sum = 0;
        for (offset, &count) in offsets.iter_mut().zip(counts[pass].iter()) {
            *offset = sum;
            sum += count;
        }
        let mut scatter = |src: &[u64], dst: &mut [u64]| {
            for &k in src {
                let d = digit(k, pass);
                dst[offsets[d] as usize] = k;
                offsets[d] += 1;
            }
        };
        if nth == 0 {
            let dst: &mut [u64] = if in_out { &mut *out } else { &mut *spare };
            for source in sources.clone() {
                scatter(source, dst);
            }
        } else if in_out {
            scatter(out, spare);
            in_out = false;
        } else {
            scatter(spare, out);
            in_out = true;
        }
    }
    debug_assert!(in_out, "the last pass writes the output");
}

/// The bits of pair keys (`lower << 32 | higher`) of indices below
/// `count`: a bound for [`SplitSort::sort`].
pub(crate) fn pair_key_bits(count: usize) -> u32 {
    32 + (usize::BITS - count.leading_zeros())
}

#[cfg(all(test, feature = "parallel"))]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;

    /// Sorts `keys` on a pool of `threads` threads and checks the result
    /// against the standard sort.
    fn check(keys: &[u64], key_bits: u32, threads: usize, sort: &mut SplitSort) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        let mut expected = keys.to_vec();
        expected.sort_unstable();
        let mut got = keys.to_vec();
        pool.install(|| sort.sort(&mut got, key_bits));
        assert!(
            got == expected,
            "{} keys under 2^{key_bits}, {threads} threads",
            keys.len()
        );
    }

    #[test]
    fn sorts_like_the_standard_sort_on_any_thread_count() {
        let mut rng = TestRng::new(11);
        let mut sort = SplitSort::default();
        for (n, key_bits) in [
            (0, 40),
            (1, 40),
            (300, 40),
            (5_000, 49),
            (5_000, 64),
            (5_000, 9),
            (5_000, 3),
            (20_000, 36),
        ] {
            let mask = if key_bits == 64 {
                u64::MAX
            } else {
                (1u64 << key_bits) - 1
            };
            let keys: Vec<u64> = (0..n).map(|_| rng.next_u64() & mask).collect();
            for threads in [1, 2, 3, 5] {
                check(&keys, key_bits, threads, &mut sort);
            }
        }
    }

    #[test]
    fn crowded_buckets_equal_keys_and_sorted_input_come_out_sorted() {
        let mut sort = SplitSort::default();
        // Pair keys of a few objects with many partners: most keys in one
        // bucket.
        let crowded: Vec<u64> = (0..6_000u64)
            .map(|i| ((i % 3) << 32) | (i * 7919 % 100_000))
            .collect();
        let same = vec![0xdead_beef_u64; 4_000];
        let ascending: Vec<u64> = (0..4_000u64).map(|i| i << 20).collect();
        let descending: Vec<u64> = ascending.iter().rev().copied().collect();
        for keys in [&crowded, &same, &ascending, &descending] {
            for threads in [2, 3] {
                check(keys, 49, threads, &mut sort);
            }
        }
    }

    #[test]
    fn a_key_past_the_bound_is_still_sorted() {
        let mut sort = SplitSort::default();
        let mut keys: Vec<u64> = (0..3_000u64).rev().collect();
        keys[1_234] = u64::MAX;
        check(&keys, 12, 2, &mut sort);
    }
}
