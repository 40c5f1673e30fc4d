//! Pairs and per-frame pair events, and the sorted-merge diff that turns two
//! frames' pair lists into started and stopped events.

use super::contract::StepStats;
use super::headroom::{keep_headroom, reserve_headroom};
use super::parallel::{for_each_range_mut, parts_for, split_points};
use crate::handle::{Handle, Slots};
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

/// Two overlapping objects, always stored as (lower handle, higher handle),
/// so A-B and B-A are the same pair.
///
/// ```
/// use collide::{BroadPhase, Brute, Aabb2, Pair};
/// use glam::Vec2;
/// let mut world: Brute<Vec2> = Brute::new();
/// let a = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
/// let b = world.insert(Aabb2::new(Vec2::splat(0.5), Vec2::splat(2.0))?, ())?;
/// assert_eq!(Pair::new(b, a), Pair::new(a, b));
/// assert_eq!(Pair::new(b, a).a(), a.min(b));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Pair {
    a: Handle,
    b: Handle,
}

impl Pair {
    /// The [`pair_key`] of the two slots.
    #[inline]
    pub(crate) fn key(&self) -> u64 {
        pair_key(self.a.index(), self.b.index())
    }

    /// The pair of `x` and `y` in (lower, higher) order.
    ///
    /// ```
    /// use collide::{Pair, Slots};
    /// let mut slots = Slots::new();
    /// let (x, y) = (slots.insert(())?, slots.insert(())?);
    /// let p = Pair::new(y, x);
    /// assert_eq!((p.a(), p.b()), (x, y));
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    #[inline]
    pub fn new(x: Handle, y: Handle) -> Self {
        if x <= y {
            Self { a: x, b: y }
        } else {
            Self { a: y, b: x }
        }
    }

    /// The lower handle.
    ///
    /// ```
    /// use collide::{Pair, Slots};
    /// let mut slots = Slots::new();
    /// let (x, y) = (slots.insert(())?, slots.insert(())?);
    /// assert_eq!(Pair::new(y, x).a(), x);
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    #[inline]
    pub fn a(self) -> Handle {
        self.a
    }

    /// The higher handle.
    ///
    /// ```
    /// use collide::{Pair, Slots};
    /// let mut slots = Slots::new();
    /// let (x, y) = (slots.insert(())?, slots.insert(())?);
    /// assert_eq!(Pair::new(y, x).b(), y);
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    #[inline]
    pub fn b(self) -> Handle {
        self.b
    }

    /// True if `h` is one side of the pair.
    ///
    /// ```
    /// use collide::{Pair, Slots};
    /// let mut slots = Slots::new();
    /// let (x, y, z) = (slots.insert(())?, slots.insert(())?, slots.insert(())?);
    /// let p = Pair::new(x, z);
    /// assert!(p.contains(x) && p.contains(z));
    /// assert!(!p.contains(y));
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    #[inline]
    pub fn contains(self, h: Handle) -> bool {
        self.a == h || self.b == h
    }
}

impl fmt::Display for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.a, self.b)
    }
}

/// The pair events of one step: pairs that started overlapping and pairs
/// that stopped (moved apart, or one side was removed). Both lists are
/// sorted ascending and hold each pair once.
///
/// ```
/// use collide::{BroadPhase, Brute, Aabb2, Pair};
/// use glam::Vec2;
/// let mut world: Brute<Vec2> = Brute::new();
/// let a = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
/// let b = world.insert(Aabb2::new(Vec2::splat(0.5), Vec2::splat(2.0))?, ())?;
/// assert_eq!(world.step().started, vec![Pair::new(a, b)]);
/// world.remove(b)?;
/// assert_eq!(world.step().stopped, vec![Pair::new(a, b)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameEvents {
    /// Pairs overlapping now that were not at the previous step, sorted.
    pub started: Vec<Pair>,
    /// Pairs overlapping at the previous step that are not now, sorted.
    pub stopped: Vec<Pair>,
}

impl FrameEvents {
    /// Number of events (started plus stopped).
    ///
    /// ```
    /// use collide::{FrameEvents, Pair, Slots};
    /// let mut slots = Slots::new();
    /// let h = (0..3).map(|_| slots.insert(())).collect::<Result<Vec<_>, _>>()?;
    /// let mut events = FrameEvents::default();
    /// events.set_difference(&[Pair::new(h[0], h[1])], &[Pair::new(h[1], h[2])]);
    /// assert_eq!(events.len(), 2); // one started, one stopped
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.started.len() + self.stopped.len()
    }

    /// True when nothing started or stopped.
    ///
    /// ```
    /// use collide::{FrameEvents, Pair, Slots};
    /// let mut slots = Slots::new();
    /// let pairs = [Pair::new(slots.insert(())?, slots.insert(())?)];
    /// let mut events = FrameEvents::default();
    /// assert!(events.is_empty());
    /// events.set_difference(&pairs, &pairs); // nothing changed
    /// assert!(events.is_empty());
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.started.is_empty() && self.stopped.is_empty()
    }

    /// Replaces the events with the difference between two sorted,
    /// duplicate-free pair lists, in one merge pass (no hashing). Reuses the
    /// event vectors' memory.
    ///
    /// ```
    /// use collide::{FrameEvents, Pair, Slots};
    /// let mut slots = Slots::new();
    /// let h: Vec<_> = (0..3).map(|_| slots.insert(()).unwrap()).collect();
    /// let before = [Pair::new(h[0], h[1]), Pair::new(h[0], h[2])];
    /// let after = [Pair::new(h[0], h[2]), Pair::new(h[1], h[2])];
    /// let mut events = FrameEvents::default();
    /// events.set_difference(&before, &after);
    /// assert_eq!(events.started, vec![Pair::new(h[1], h[2])]);
    /// assert_eq!(events.stopped, vec![Pair::new(h[0], h[1])]);
    /// ```
    pub fn set_difference(&mut self, previous: &[Pair], current: &[Pair]) {
        debug_assert!(previous.windows(2).all(|w| w[0] < w[1]));
        debug_assert!(current.windows(2).all(|w| w[0] < w[1]));
        self.started.clear();
        self.stopped.clear();
        let (mut i, mut j) = (0, 0);
        while i < previous.len() && j < current.len() {
            match previous[i].cmp(&current[j]) {
                Ordering::Less => {
                    self.stopped.push(previous[i]);
                    i += 1;
                }
                Ordering::Greater => {
                    self.started.push(current[j]);
                    j += 1;
                }
                Ordering::Equal => {
                    i += 1;
                    j += 1;
                }
            }
        }
        self.stopped.extend_from_slice(&previous[i..]);
        self.started.extend_from_slice(&current[j..]);
    }
}

/// A step's events, kept so that a step can hand them out without lending
/// the structure: edited in place while the caller holds no copy (no
/// allocation in a steady state), moved to a fresh buffer of the same
/// capacity when the caller kept the last ones.
#[derive(Clone, Debug, Default)]
pub(crate) struct SharedEvents(Arc<FrameEvents>);

impl SharedEvents {
    /// The events to overwrite.
    pub(crate) fn edit(&mut self) -> &mut FrameEvents {
        if Arc::get_mut(&mut self.0).is_none() {
            let kept = &self.0;
            self.0 = Arc::new(FrameEvents {
                started: Vec::with_capacity(kept.started.capacity()),
                stopped: Vec::with_capacity(kept.stopped.capacity()),
            });
        }
        Arc::get_mut(&mut self.0).expect("no other holder of a fresh buffer")
    }

    /// The events to read.
    pub(crate) fn get(&self) -> &FrameEvents {
        &self.0
    }

    /// Another holder of the events.
    pub(crate) fn share(&self) -> Arc<FrameEvents> {
        Arc::clone(&self.0)
    }
}

/// The pairs of the last step, the pairs of the step being built, and the
/// events between them: the bookkeeping every structure that finds its pairs
/// afresh each step shares. Memory is reused from step to step.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairTracker {
    current: Vec<Pair>,
    next: Vec<Pair>,
    events: SharedEvents,
    /// When the last step ended by [`PairTracker::finish_keys`], the
    /// objects' [`Slots::reuses`] then: while that count is unchanged, a
    /// slot names the same object in both steps, so the merge compares the
    /// new keys with the keys of the current pairs' slots and copies the
    /// kept pairs.
    keyed_at: Option<u64>,
    /// A merge split across threads: each part's started and stopped pairs.
    parts: Vec<(Vec<Pair>, Vec<Pair>)>,
    /// A merge split across threads: where each part's keys and old pairs
    /// start (parts + 1 each).
    key_cuts: Vec<usize>,
    old_cuts: Vec<usize>,
}

impl PairTracker {
    /// Starts a step: returns the (emptied) list to fill with this step's
    /// pairs, sorted and without duplicates.
    pub(crate) fn begin(&mut self) -> &mut Vec<Pair> {
        self.next.clear();
        &mut self.next
    }

    /// Ends a step: the filled list becomes the current pairs and the
    /// events are their difference from the previous ones.
    pub(crate) fn finish(&mut self) -> &FrameEvents {
        self.keyed_at = None;
        self.events.edit().set_difference(&self.current, &self.next);
        std::mem::swap(&mut self.current, &mut self.next);
        self.make_room();
        self.events.get()
    }

    /// Leaves room in the lists for the next step's wandering counts, so
    /// that a steady state allocates nothing (see `headroom.rs`).
    fn make_room(&mut self) {
        let pairs = self.current.len();
        reserve_headroom(&mut self.current, pairs);
        reserve_headroom(&mut self.next, pairs);
        let FrameEvents { started, stopped } = self.events.edit();
        keep_headroom(started);
        keep_headroom(stopped);
    }

    /// Ends a step from pair keys ([`pair_key`], sorted, unique) of live
    /// slot indices of `objects`.
    ///
    /// When the last step also ended here and no slot was reused since, the
    /// events come from a merge of the two steps' keys: integer compares,
    /// and handles looked up only for the started pairs (the kept ones are
    /// copied from the last step's list). Otherwise every key becomes a
    /// pair and the lists are compared by [`FrameEvents::set_difference`].
    pub(crate) fn finish_keys<T>(&mut self, keys: &[u64], objects: &Slots<T>) -> &FrameEvents {
        debug_assert!(keys.windows(2).all(|w| w[0] < w[1]), "sorted, unique");
        let handles = objects.live_handles();
        let pair_of = move |k: u64| {
            let (a, b) = (handles.at((k >> 32) as u32), handles.at(k as u32));
            debug_assert!(a < b, "pair keys hold the lower slot first");
            Pair { a, b }
        };
        let reuses = objects.reuses();
        if self.keyed_at == Some(reuses) {
            let split = parts_for(keys.len().max(self.current.len()));
            if split > 1 {
                self.merge_keys_split(split, keys, pair_of);
            } else {
                self.merge_keys(keys, pair_of);
            }
        } else {
            let next = self.begin();
            next.extend(keys.iter().map(|&k| pair_of(k)));
            self.finish();
        }
        self.keyed_at = Some(reuses);
        self.events.get()
    }

    /// The merge of [`PairTracker::finish_keys`] on the calling thread: the
    /// last step's pairs, compared by the key of their slots, against this
    /// step's keys ([`merge_part`] over everything).
    fn merge_keys(&mut self, keys: &[u64], pair_of: impl Fn(u64) -> Pair + Copy) {
        debug_assert!(self.current.windows(2).all(|w| w[0].key() < w[1].key()));
        self.size_next(keys, pair_of);
        let FrameEvents { started, stopped } = self.events.edit();
        started.clear();
        stopped.clear();
        merge_part(
            &self.current,
            keys,
            &mut self.next,
            started,
            stopped,
            pair_of,
        );
        std::mem::swap(&mut self.current, &mut self.next);
        self.make_room();
    }

    /// Makes the next pair list as long as `keys` (one pair per key); its
    /// old contents stay, to be overwritten.
    fn size_next(&mut self, keys: &[u64], pair_of: impl Fn(u64) -> Pair) {
        // Any pair will do as filler: every entry is overwritten.
        let filler = self.current.first().copied();
        if let Some(filler) = filler.or_else(|| keys.first().map(|&k| pair_of(k))) {
            self.next.resize(keys.len(), filler);
        }
        self.next.truncate(keys.len());
    }

    /// [`PairTracker::merge_keys`] cut into `split` parts that run on the
    /// thread pool, with the same result. Part `k` takes an equal share of
    /// the keys and the old pairs whose keys fall from its first key up to
    /// the next part's; the new pair list (one pair per key) is written in
    /// place, each part into its keys' range, and the parts' started and
    /// stopped pairs are appended in part order.
    fn merge_keys_split(
        &mut self,
        split: usize,
        keys: &[u64],
        pair_of: impl Fn(u64) -> Pair + Copy + Sync,
    ) {
        self.size_next(keys, pair_of);
        let old_pairs = &self.current[..];
        split_points(keys.len(), split, |_| true, &mut self.key_cuts);
        let key_cuts = &self.key_cuts[..];
        // Part 0 starts at the first old pair and the last part ends at the
        // last one whatever the keys (none at all: every old pair stops).
        self.old_cuts.clear();
        self.old_cuts.extend((0..=split).map(|k| match key_cuts[k] {
            _ if k == 0 => 0,
            at if at >= keys.len() => old_pairs.len(),
            at => old_pairs.partition_point(|p| p.key() < keys[at]),
        }));
        let old_cuts = &self.old_cuts[..];
        if self.parts.len() < split {
            self.parts.resize_with(split, Default::default);
        }
        let merge_cut =
            |k: usize, next: &mut [Pair], (started, stopped): &mut (Vec<Pair>, Vec<Pair>)| {
                started.clear();
                stopped.clear();
                let old_pairs = &old_pairs[old_cuts[k]..old_cuts[k + 1]];
                let keys = &keys[key_cuts[k]..key_cuts[k + 1]];
                merge_part(old_pairs, keys, next, started, stopped, pair_of);
                // Room for as many next step, whose cuts fall elsewhere.
                keep_headroom(started);
                keep_headroom(stopped);
            };
        for_each_range_mut(
            &mut self.next,
            key_cuts,
            &mut self.parts[..split],
            &merge_cut,
        );
        let parts = &self.parts[..split];
        let FrameEvents { started, stopped } = self.events.edit();
        started.clear();
        stopped.clear();
        reserve_headroom(started, parts.iter().map(|p| p.0.len()).sum());
        reserve_headroom(stopped, parts.iter().map(|p| p.1.len()).sum());
        for (part_started, part_stopped) in parts {
            started.extend_from_slice(part_started);
            stopped.extend_from_slice(part_stopped);
        }
        std::mem::swap(&mut self.current, &mut self.next);
        self.make_room();
    }

    /// Ends a step whose events a structure found itself (incremental pair
    /// tracking): `fill` pushes the started and the stopped pairs, in any
    /// order; they are sorted and applied to the pair list by one merge
    /// (skipped when nothing changed).
    pub(crate) fn finish_with_events(
        &mut self,
        fill: impl FnOnce(&mut Vec<Pair>, &mut Vec<Pair>),
    ) -> &FrameEvents {
        self.keyed_at = None;
        let events = self.events.edit();
        events.started.clear();
        events.stopped.clear();
        fill(&mut events.started, &mut events.stopped);
        if events.is_empty() {
            return self.events.get();
        }
        // Pairs of one list are live at one step, so their keys differ and
        // order them as the pairs do.
        events.started.sort_unstable_by_key(Pair::key);
        events.stopped.sort_unstable_by_key(Pair::key);
        self.next.clear();
        reserve_headroom(&mut self.next, self.current.len() + events.started.len());
        apply_changes(
            &self.current,
            &events.started,
            &events.stopped,
            &mut self.next,
        );
        debug_assert!(self.next.windows(2).all(|w| w[0] < w[1]));
        std::mem::swap(&mut self.current, &mut self.next);
        self.make_room();
        self.events.get()
    }

    /// Whether every slot of `objects` names the object it named when the
    /// pairs were last keyed ([`PairTracker::finish_keys`]): slot keys of
    /// this step and of that one may be compared.
    pub(crate) fn keyed<T>(&self, objects: &Slots<T>) -> bool {
        self.keyed_at == Some(objects.reuses())
    }

    /// [`PairTracker::finish_with_events`] for a step of a structure that
    /// also ends steps by [`PairTracker::finish_keys`]: while no slot of
    /// `objects` was reused, its next step may still merge by key.
    pub(crate) fn finish_keyed_changes<T>(
        &mut self,
        objects: &Slots<T>,
        fill: impl FnOnce(&mut Vec<Pair>, &mut Vec<Pair>),
    ) -> &FrameEvents {
        let keyed = self.keyed(objects);
        self.finish_with_events(fill);
        if keyed {
            self.keyed_at = Some(objects.reuses());
        }
        self.events.get()
    }

    /// The pairs of the last step.
    pub(crate) fn pairs(&self) -> &[Pair] {
        &self.current
    }

    /// The events of the last step.
    pub(crate) fn events(&self) -> &FrameEvents {
        self.events.get()
    }

    /// The events of the last step, to hand out from a step.
    pub(crate) fn shared_events(&self) -> Arc<FrameEvents> {
        self.events.share()
    }

    /// The step's statistics, from its work counters and the lists.
    pub(crate) fn stats(&self, objects: usize, tested: u64, maintenance: u64) -> StepStats {
        StepStats {
            objects,
            candidates_tested: tested,
            maintenance_ops: maintenance,
            pairs: self.current.len(),
            started: self.events.get().started.len(),
            stopped: self.events.get().stopped.len(),
        }
    }
}

/// Two slot indices as one sortable key, `lower << 32 | higher`: structures
/// collect these while finding pairs, sort them, and hand them to
/// [`PairTracker::finish_keys`].
#[inline]
pub(crate) fn pair_key(a: u32, b: u32) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (u64::from(lo) << 32) | u64::from(hi)
}

/// Writes `current` less `stopped` plus `started` to `next`, all sorted by
/// key, `stopped` a subset of `current` and `started` disjoint from it: the
/// kept pairs between two changes are copied as one run, found by a
/// galloping search from the last change, so few changes cost little more
/// than the copy and many no more than a merge.
fn apply_changes(current: &[Pair], started: &[Pair], stopped: &[Pair], next: &mut Vec<Pair>) {
    let (mut from, mut s, mut x) = (0, 0, 0);
    while s < started.len() || x < stopped.len() {
        let stop = s == started.len() || (x < stopped.len() && stopped[x].key() < started[s].key());
        let key = if stop {
            stopped[x].key()
        } else {
            started[s].key()
        };
        let at = from + first_at_or_after(&current[from..], key);
        next.extend_from_slice(&current[from..at]);
        from = at;
        if stop {
            debug_assert_eq!(
                current.get(at),
                Some(&stopped[x]),
                "a stopped pair was current"
            );
            from += 1;
            x += 1;
        } else {
            next.push(started[s]);
            s += 1;
        }
    }
    next.extend_from_slice(&current[from..]);
}

/// The index of the first of `pairs` (sorted by key) whose key is not
/// below `key`: probes at 1, 2, 4, ... from the start, then a bisection
/// of the last gap.
fn first_at_or_after(pairs: &[Pair], key: u64) -> usize {
    let mut bound = 1;
    while bound <= pairs.len() && pairs[bound - 1].key() < key {
        bound *= 2;
    }
    // Every pair before `bound / 2` is below `key`; the first one not
    // below is at `bound - 1` or before, or there is none.
    let (lo, hi) = (bound / 2, bound.min(pairs.len()));
    lo + pairs[lo..hi].partition_point(|p| p.key() < key)
}

/// The merge of two steps' pairs, by key, for one range of keys: writes
/// `next[j]` for `keys[j]` (the old pair when its key is among the old
/// ones, otherwise a new pair, also pushed to `started`) and pushes the old
/// pairs whose keys are not among `keys` to `stopped`. `old_pairs` are the
/// old pairs whose keys fall in the range's span.
fn merge_part(
    old_pairs: &[Pair],
    keys: &[u64],
    next: &mut [Pair],
    started: &mut Vec<Pair>,
    stopped: &mut Vec<Pair>,
    pair_of: impl Fn(u64) -> Pair,
) {
    debug_assert_eq!(next.len(), keys.len());
    let mut i = 0;
    for (slot, &new) in next.iter_mut().zip(keys) {
        while i < old_pairs.len() && old_pairs[i].key() < new {
            stopped.push(old_pairs[i]);
            i += 1;
        }
        if i < old_pairs.len() && old_pairs[i].key() == new {
            *slot = old_pairs[i];
            i += 1;
        } else {
            let pair = pair_of(new);
            started.push(pair);
            *slot = pair;
        }
    }
    stopped.extend_from_slice(&old_pairs[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;

    /// Changes applied by runs give the pair list a set computation gives:
    /// none, a few, changes at both ends, and most pairs changing.
    #[test]
    fn changes_applied_by_runs_match_the_set_of_pairs() {
        let mut rng = TestRng::new(5);
        let mut slots = Slots::new();
        let handles: Vec<Handle> = (0..60).map(|_| slots.insert(()).unwrap()).collect();
        let every: Vec<Pair> = (0..60)
            .flat_map(|a| (a + 1..60).map(move |b| (a, b)))
            .map(|(a, b)| Pair::new(handles[a], handles[b]))
            .collect();
        let mut tracker = PairTracker::default();
        let mut expected: Vec<Pair> = Vec::new();
        for round in 0..200 {
            // Change a share of the pairs that grows with the round.
            let share = [0, 1, 30, 1000][round % 4];
            let (mut started, mut stopped) = (Vec::new(), Vec::new());
            for pair in &every {
                if rng.below(1000) < share {
                    if expected.binary_search(pair).is_ok() {
                        stopped.push(*pair);
                    } else {
                        started.push(*pair);
                    }
                }
            }
            if round % 7 == 0 {
                // The first and the last pair, whichever way they go.
                for pair in [every[0], every[every.len() - 1]] {
                    started.retain(|p| *p != pair);
                    stopped.retain(|p| *p != pair);
                    if expected.binary_search(&pair).is_ok() {
                        stopped.push(pair);
                    } else {
                        started.push(pair);
                    }
                }
            }
            expected.retain(|p| !stopped.contains(p));
            expected.extend(&started);
            expected.sort_unstable();
            let (s, x) = (started.clone(), stopped.clone());
            tracker.finish_with_events(|a, b| {
                a.extend(s.iter().rev());
                b.extend(x.iter().rev());
            });
            assert_eq!(tracker.pairs(), &expected[..], "round {round}");
            started.sort_unstable();
            stopped.sort_unstable();
            assert_eq!(tracker.events().started, started);
            assert_eq!(tracker.events().stopped, stopped);
        }
    }

    /// The merge of keys (no slot reused since the last step) gives the
    /// events and pairs the comparison of handle pairs gives, over random
    /// steps.
    #[test]
    fn events_from_keys_match_the_difference_of_pairs() {
        let mut slots = Slots::new();
        for _ in 0..40 {
            slots.insert(()).unwrap();
        }
        let mut rng = TestRng::new(17);
        let (mut tracker, mut previous) = (PairTracker::default(), Vec::<Pair>::new());
        for step in 0..30 {
            let mut keys: Vec<u64> = (0..rng.next_u64() % 120)
                .map(|_| {
                    let (a, b) = (rng.next_u64() % 40, rng.next_u64() % 40);
                    pair_key(a as u32, b as u32)
                })
                .filter(|k| k >> 32 != k & 0xffff_ffff)
                .collect();
            keys.sort_unstable();
            keys.dedup();
            let events = tracker.finish_keys(&keys, &slots).clone();
            let current: Vec<Pair> = keys
                .iter()
                .map(|&k| {
                    let handle = |i: u64| slots.handle_at(i as u32).unwrap();
                    Pair::new(handle(k >> 32), handle(k & 0xffff_ffff))
                })
                .collect();
            let mut expected = FrameEvents::default();
            expected.set_difference(&previous, &current);
            assert_eq!(events, expected, "step {step}");
            assert_eq!(tracker.pairs(), current.as_slice(), "step {step}");
            previous = current;
        }
    }

    /// The merge split into parts gives what the merge on one thread gives,
    /// for any number of parts, including steps with no pairs after many
    /// (regression: every old pair was dropped without a stopped event) and
    /// steps with fewer keys than parts.
    #[test]
    fn the_split_merge_of_keys_matches_the_merge_on_one_thread() {
        let mut slots = Slots::new();
        for _ in 0..300 {
            slots.insert(()).unwrap();
        }
        let handles = slots.live_handles();
        let pair_of = move |k: u64| Pair::new(handles.at((k >> 32) as u32), handles.at(k as u32));
        let mut rng = TestRng::new(5);
        let mut random_keys = |count: u64| {
            let mut keys: Vec<u64> = (0..count)
                .map(|_| {
                    let a = (rng.next_u64() % 150) as u32;
                    pair_key(a, 150 + (rng.next_u64() % 150) as u32)
                })
                .collect();
            keys.sort_unstable();
            keys.dedup();
            keys
        };
        let steps = [
            random_keys(2_000),
            Vec::new(),
            random_keys(2_000),
            random_keys(1_500),
            random_keys(3),
            Vec::new(),
            Vec::new(),
            random_keys(2_500),
        ];
        for split in [2, 3, 5, 8, 64] {
            let (mut one, mut parts) = (PairTracker::default(), PairTracker::default());
            for (step, keys) in steps.iter().enumerate() {
                one.merge_keys(keys, pair_of);
                parts.merge_keys_split(split, keys, pair_of);
                assert_eq!(
                    parts.events.get(),
                    one.events.get(),
                    "{split} parts, step {step}"
                );
                assert_eq!(parts.current, one.current, "{split} parts, step {step}");
            }
        }
    }

    /// Regression: a removed object's slot taken by a new object that
    /// overlaps the same neighbour gives the same pair key in both steps,
    /// but the pairs differ; the merge of keys alone would report nothing.
    #[test]
    fn a_reused_slot_ends_the_old_pair_and_starts_the_new_one() {
        let mut slots = Slots::new();
        let (a, b) = (slots.insert(()).unwrap(), slots.insert(()).unwrap());
        let mut tracker = PairTracker::default();
        let key = [pair_key(a.index(), b.index())];
        tracker.finish_keys(&key, &slots);
        slots.remove(b).unwrap();
        let c = slots.insert(()).unwrap();
        assert_eq!(c.index(), b.index(), "the slot is reused");
        let events = tracker.finish_keys(&key, &slots);
        assert_eq!(events.stopped, vec![Pair::new(a, b)]);
        assert_eq!(events.started, vec![Pair::new(a, c)]);
        assert_eq!(tracker.pairs(), [Pair::new(a, c)]);
    }
}
