//! Splitting a step's work across cores, with the same output whatever the
//! thread count.
//!
//! With the `parallel` feature (on by default) a structure's step splits its
//! larger kernels into parts that run on rayon's current thread pool: the
//! global pool, or the one a caller picks with
//! `rayon::ThreadPool::install`. Each part writes into its own buffer, and
//! the parts are put together in part order, so what the step finds does
//! not depend on which thread ran which part, nor on how many threads there
//! are. The structures sort their pair keys afterwards in any case, so
//! only the set found matters to their events.
//!
//! A kernel under [`PARALLEL_MIN`] items runs on the calling thread: handing
//! a few thousand items to other threads costs more than it saves. Without
//! the feature, or in a pool of one thread, everything runs on the calling
//! thread.

/// Below this many items (registrations, objects) a kernel is not split.
#[cfg(not(test))]
pub(crate) const PARALLEL_MIN: usize = 1 << 14;
/// Unit tests split from a few hundred items, so that their small scenes
/// take the split paths (on the default pool, and on the pools of
/// `broad/parallel_tests.rs`).
#[cfg(test)]
pub(crate) const PARALLEL_MIN: usize = 256;

/// Parts per thread: more parts than threads even out parts of unequal
/// cost (crowded cells, clusters) at the price of a few more buffers.
const PARTS_PER_THREAD: usize = 4;

/// The number of parts to split `len` items into: 1 (run on the calling
/// thread) for fewer than [`PARALLEL_MIN`] items or one thread, otherwise
/// a few per thread, no more than one per `PARALLEL_MIN / 4` items (parts
/// cut between cells or by key can still come out smaller, or empty).
pub(crate) fn parts_for(len: usize) -> usize {
    if len < PARALLEL_MIN {
        return 1;
    }
    let threads = thread_count();
    if threads <= 1 {
        return 1;
    }
    (threads * PARTS_PER_THREAD)
        .min(len / (PARALLEL_MIN / 4))
        .max(1)
}

/// The number of threads the step's kernels may use: rayon's current pool,
/// or 1 without the `parallel` feature.
fn thread_count() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads()
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}

/// Runs `work(k, &mut parts[k])` for every part: on the thread pool with
/// the `parallel` feature, in order on the calling thread without it.
pub(crate) fn for_each_part<T: Send>(parts: &mut [T], work: impl Fn(usize, &mut T) + Sync + Send) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        parts
            .par_iter_mut()
            .enumerate()
            .for_each(|(k, part)| work(k, part));
    }
    #[cfg(not(feature = "parallel"))]
    {
        for (k, part) in parts.iter_mut().enumerate() {
            work(k, part);
        }
    }
}

/// Runs `work(k, &mut target[offsets[k]..offsets[k + 1]], &mut states[k])`
/// for every part `k` (`offsets` ascending from 0 to at most
/// `target.len()`, one more than `states`): on the thread pool with the
/// `parallel` feature, by halving the parts with `rayon::join` (no
/// allocation), in order without it.
pub(crate) fn for_each_range_mut<T: Send, S: Send>(
    target: &mut [T],
    offsets: &[usize],
    states: &mut [S],
    work: &(impl Fn(usize, &mut [T], &mut S) + Sync),
) {
    fn halves<T: Send, S: Send>(
        target: &mut [T],
        offsets: &[usize],
        states: &mut [S],
        first: usize,
        work: &(impl Fn(usize, &mut [T], &mut S) + Sync),
    ) {
        let parts = states.len();
        if parts == 1 {
            work(
                first,
                &mut target[..offsets[1] - offsets[0]],
                &mut states[0],
            );
            return;
        }
        let mid = parts / 2;
        let (left, right) = target.split_at_mut(offsets[mid] - offsets[0]);
        let (left_states, right_states) = states.split_at_mut(mid);
        join(
            || halves(left, &offsets[..=mid], left_states, first, work),
            || halves(right, &offsets[mid..], right_states, first + mid, work),
        );
    }
    debug_assert_eq!(offsets.len(), states.len() + 1);
    if !states.is_empty() {
        debug_assert_eq!(offsets[0], 0);
        halves(target, offsets, states, 0, work);
    }
}

/// `rayon::join` with the `parallel` feature, one after the other without.
pub(crate) fn join<A: Send, B: Send>(
    left: impl FnOnce() -> A + Send,
    right: impl FnOnce() -> B + Send,
) -> (A, B) {
    #[cfg(feature = "parallel")]
    {
        rayon::join(left, right)
    }
    #[cfg(not(feature = "parallel"))]
    {
        (left(), right())
    }
}

/// Splits `0..len` into `parts` ranges of about equal length whose inner
/// boundaries satisfy `can_split_at` (moved forward until they do), writing
/// the `parts + 1` boundaries into `bounds`. Used to cut sorted
/// registrations between cells, so that no cell is split between parts.
pub(crate) fn split_points(
    len: usize,
    parts: usize,
    can_split_at: impl Fn(usize) -> bool,
    bounds: &mut Vec<usize>,
) {
    bounds.clear();
    bounds.push(0);
    for k in 1..parts {
        let mut at = (len * k / parts).max(*bounds.last().unwrap_or(&0));
        while at < len && at > 0 && !can_split_at(at) {
            at += 1;
        }
        bounds.push(at);
    }
    bounds.push(len);
}

/// Splits `0..count` into `parts` ranges of about equal total `weight`,
/// writing the `parts + 1` boundaries into `bounds` (a range may come out
/// empty). Used to hand out `sap1`'s bands, whose lengths differ, so that
/// each part gets about as many keys.
pub(crate) fn split_by_weight(
    count: usize,
    parts: usize,
    weight: impl Fn(usize) -> usize,
    bounds: &mut Vec<usize>,
) {
    let total: usize = (0..count).map(&weight).sum();
    bounds.clear();
    bounds.push(0);
    let mut sum = 0;
    for i in 0..count {
        // Part k starts at the first item with at least k / parts of the
        // total before it.
        while bounds.len() < parts && sum * parts >= total * bounds.len() && sum > 0 {
            bounds.push(i);
        }
        sum += weight(i);
    }
    while bounds.len() < parts {
        bounds.push(count);
    }
    bounds.push(count);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_points_never_cut_a_run_and_cover_everything() {
        // Runs of equal keys: a boundary may only fall where the key changes.
        let keys: Vec<u32> = (0..1000u32).map(|i| i / 7 + (i / 300) * 50).collect();
        let mut bounds = Vec::new();
        for parts in [1, 2, 3, 8, 64, 2000] {
            split_points(
                keys.len(),
                parts,
                |at| keys[at] != keys[at - 1],
                &mut bounds,
            );
            assert_eq!(bounds.len(), parts + 1);
            assert_eq!((bounds[0], bounds[parts]), (0, keys.len()));
            assert!(bounds.windows(2).all(|w| w[0] <= w[1]));
            for &at in &bounds[1..parts] {
                let between_runs = at == 0 || at == keys.len() || keys[at] != keys[at - 1];
                assert!(between_runs, "cut inside a run at {at}");
            }
        }
    }

    #[test]
    fn weighted_splits_even_out_the_weight_and_cover_everything() {
        let weights = [5, 0, 1, 1, 1, 1, 9, 0, 2, 2, 2, 0];
        let mut bounds = Vec::new();
        for parts in [1, 2, 3, 4, 7, 20] {
            split_by_weight(weights.len(), parts, |i| weights[i], &mut bounds);
            assert_eq!(bounds.len(), parts + 1);
            assert_eq!((bounds[0], bounds[parts]), (0, weights.len()));
            assert!(bounds.windows(2).all(|w| w[0] <= w[1]), "{bounds:?}");
        }
        split_by_weight(weights.len(), 2, |i| weights[i], &mut bounds);
        // 24 in all: the second part starts at the first item with 12 or
        // more before it (18 before item 7).
        assert_eq!(bounds, [0, 7, 12]);
        split_by_weight(weights.len(), 3, |i| weights[i], &mut bounds);
        assert_eq!(bounds, [0, 5, 7, 12]);
        // Nothing to weigh: every item in the first part.
        split_by_weight(4, 3, |_| 0, &mut bounds);
        assert_eq!(bounds, [0, 4, 4, 4]);
    }

    #[test]
    fn ranges_are_handed_out_once_each_and_in_place() {
        let offsets = [0, 3, 3, 10, 11, 20];
        let mut target = vec![usize::MAX; 25];
        let mut lengths = vec![0; offsets.len() - 1];
        let work = |k, part: &mut [usize], length: &mut usize| {
            part.fill(k);
            *length = part.len();
        };
        for_each_range_mut(&mut target, &offsets, &mut lengths, &work);
        for k in 0..offsets.len() - 1 {
            assert!(target[offsets[k]..offsets[k + 1]].iter().all(|&v| v == k));
            assert_eq!(lengths[k], offsets[k + 1] - offsets[k]);
        }
        // Past the last offset nothing is touched.
        assert!(target[20..].iter().all(|&v| v == usize::MAX));
    }

    #[test]
    fn small_inputs_stay_on_the_calling_thread() {
        assert_eq!(parts_for(0), 1);
        assert_eq!(parts_for(PARALLEL_MIN - 1), 1);
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn large_inputs_split_by_the_pool_size() {
        let pool = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool")
        };
        assert_eq!(pool(1).install(|| parts_for(1 << 20)), 1);
        assert_eq!(pool(3).install(|| parts_for(1 << 20)), 3 * PARTS_PER_THREAD);
        // Parts stay at least a quarter of the threshold long.
        assert_eq!(pool(3).install(|| parts_for(PARALLEL_MIN)), 4);
    }
}
