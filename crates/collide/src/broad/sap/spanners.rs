//! The world-spanning objects' index: the spanners grouped by the axis on
//! which each is thinnest, each group sorted by its minimum on that axis.
//!
//! A floor spans the world along x but is thin along y, so the objects that
//! can touch it are found by its y interval alone. Every other object asks
//! each group for the spanners whose interval on the group's axis can
//! overlap its own: a binary search, then the few candidates, each given a
//! box test. Cost per step: O(s log s) to rebuild the index, then
//! O(n (log s + hits)) for everyone against it, instead of the s n of
//! testing every spanner against every object.
//!
//! The spanners' pairs come out as sorted slot pair keys without a sort of
//! them all ([`SpannerIndex::slot_keys`]): the others are visited in slot
//! order, so the pairs whose spanner has the lower slot need only one
//! counting pass over the spanners, which are few.

use crate::broad::events::pair_key;
use crate::broad::headroom::keep_headroom;
use crate::broad::radix::merge_sorted;
use crate::geometry::{Aabb, Vector};

/// The spanners' largest extent on an axis, grown by this factor, bounds
/// how far below an object's minimum a spanner it overlaps can start,
/// whatever the rounding of the sizes.
const EXTENT_SLACK: f64 = 1.0 + 1e-6;

/// Spanners thin along one axis.
#[derive(Clone, Debug, Default)]
struct Group {
    /// (minimum on the axis, rank), sorted.
    entries: Vec<(f32, u32)>,
    /// The largest extent on the axis among the group.
    max_extent: f32,
    /// Per bucket of minimums, the first entry in it or after, then the
    /// entry count: a search starts in its bucket instead of bisecting
    /// every entry.
    starts: Vec<u32>,
    /// The first entry's minimum, and buckets per unit along the axis.
    origin: f32,
    scale: f32,
}

impl Group {
    /// The bucket of a minimum: monotonic in `x` (a subtraction and a
    /// multiplication by positive constants round monotonically), clamped
    /// to the buckets.
    fn bucket(&self, x: f32) -> usize {
        // A float-to-integer cast saturates: below the origin is bucket 0.
        (((x - self.origin) * self.scale) as usize).min(self.starts.len() - 2)
    }

    /// Sorts the entries and buckets them, one bucket per entry over the
    /// span of their minimums.
    fn finish(&mut self) {
        self.entries
            .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        self.starts.clear();
        let (Some(first), Some(last)) = (self.entries.first(), self.entries.last()) else {
            return;
        };
        let buckets = self.entries.len();
        let span = last.0 - first.0;
        self.origin = first.0;
        self.scale = if span > 0.0 {
            buckets as f32 / span
        } else {
            0.0
        };
        self.starts.resize(buckets + 1, 0);
        let mut at = 0;
        for bucket in 0..buckets {
            self.starts[bucket] = at as u32;
            while at < self.entries.len() && self.bucket(self.entries[at].0) == bucket {
                at += 1;
            }
        }
        self.starts[buckets] = self.entries.len() as u32;
    }

    /// The first entry whose minimum is not below `from`.
    fn first_from(&self, from: f32) -> usize {
        let bucket = self.bucket(from);
        let (lo, hi) = (
            self.starts[bucket] as usize,
            self.starts[bucket + 1] as usize,
        );
        // Entries of lower buckets are below `from`, of higher ones not.
        lo + self.entries[lo..hi].partition_point(|e| e.0 < from)
    }
}

/// See the module documentation.
#[derive(Clone, Debug, Default)]
pub(crate) struct SpannerIndex {
    groups: [Group; 3],
    /// Per rank, (slot, proxy): the spanners in slot order.
    by_rank: Vec<(u32, u32)>,
}

/// The working lists of [`SpannerIndex::slot_keys`], kept from step to
/// step so a warm step allocates nothing.
#[derive(Clone, Debug, Default)]
pub(crate) struct SlotKeyLists {
    /// `rank << 32 | slot` of the pairs whose spanner has the lower slot,
    /// in the order of the other's slot.
    under: Vec<u64>,
    /// Per rank, its count among `under`, then where its keys go.
    starts: Vec<u32>,
    /// Keys of the pairs whose other object has the lower slot, sorted.
    over: Vec<u64>,
    /// Keys of the spanners' pairs among themselves, sorted.
    among: Vec<u64>,
    /// The merges' output.
    merged: Vec<u64>,
}

impl SlotKeyLists {
    /// Leaves room for the next step's wandering counts (see `headroom.rs`).
    pub(crate) fn make_room(&mut self) {
        for list in [
            &mut self.under,
            &mut self.over,
            &mut self.among,
            &mut self.merged,
        ] {
            keep_headroom(list);
        }
        keep_headroom(&mut self.starts);
    }
}

impl SpannerIndex {
    /// Rebuilds the index from the spanners' current boxes (by proxy) and
    /// their slots.
    pub(crate) fn rebuild<V: Vector>(
        &mut self,
        spanners: &[u32],
        boxes: &[Aabb<V>],
        slot_of: impl Fn(u32) -> u32,
    ) {
        self.by_rank.clear();
        self.by_rank
            .extend(spanners.iter().map(|&p| (slot_of(p), p)));
        self.by_rank.sort_unstable();
        for group in &mut self.groups {
            group.entries.clear();
            group.max_extent = 0.0;
        }
        for (rank, &(_, p)) in self.by_rank.iter().enumerate() {
            let aabb = &boxes[p as usize];
            let size = aabb.size();
            let axis = (0..V::DIM)
                .min_by(|&x, &y| size.axis(x).total_cmp(&size.axis(y)))
                .unwrap_or(0);
            let group = &mut self.groups[axis];
            group.entries.push((aabb.min().axis(axis), rank as u32));
            group.max_extent = group.max_extent.max(size.axis(axis));
        }
        for group in &mut self.groups {
            group.finish();
        }
    }

    /// Leaves room for the next rebuild's wandering group sizes (see
    /// `headroom.rs`).
    pub(crate) fn make_room(&mut self) {
        for group in &mut self.groups {
            keep_headroom(&mut group.entries);
            keep_headroom(&mut group.starts);
        }
        keep_headroom(&mut self.by_rank);
    }

    /// The proxies of the spanners, by rank (slot order).
    pub(crate) fn proxies(&self) -> impl Iterator<Item = u32> + '_ {
        self.by_rank.iter().map(|&(_, p)| p)
    }

    /// The proxy of the spanner of `rank`.
    pub(crate) fn proxy(&self, rank: u32) -> u32 {
        self.by_rank[rank as usize].1
    }

    /// Calls `on_candidate(rank)` for every spanner whose interval on its
    /// group's axis can overlap `aabb`'s (a superset of the spanners
    /// overlapping `aabb`), each once. Returns the number of candidates.
    pub(crate) fn candidates<V: Vector>(
        &self,
        aabb: &Aabb<V>,
        mut on_candidate: impl FnMut(u32),
    ) -> u64 {
        let mut count = 0;
        for (axis, group) in self.groups.iter().enumerate().take(V::DIM) {
            if group.entries.is_empty() {
                continue;
            }
            // A spanner overlaps on the axis only if its minimum lies in
            // (min - its extent, max). Its true extent may pass its rounded
            // size by an ulp: the largest size grown by a millionth, in
            // f64, then rounded down to f32.
            let below =
                f64::from(aabb.min().axis(axis)) - f64::from(group.max_extent) * EXTENT_SLACK;
            let mut from = below as f32;
            if f64::from(from) > below {
                from = from.next_down();
            }
            let until = aabb.max().axis(axis);
            let first = group.first_from(from);
            for &(_, s) in group.entries[first..].iter().take_while(|e| e.0 < until) {
                count += 1;
                on_candidate(s);
            }
        }
        count
    }

    /// Writes to `out` the slot pair keys, sorted and unique, of every
    /// overlapping pair with a spanner: among the spanners, and of each of
    /// `others` (slot, proxy), which must come in increasing slot order and
    /// hold no spanner. `boxes` are by proxy. Returns the number of box
    /// tests.
    ///
    /// Cost: the search, then one counting pass over the pairs whose
    /// spanner has the lower slot (they come grouped by the other's slot;
    /// the pass groups them by spanner, in slot order), a sort of each
    /// other's few pairs with spanners of a higher slot, and a merge.
    pub(crate) fn slot_keys<V: Vector>(
        &self,
        boxes: &[Aabb<V>],
        others: impl Iterator<Item = (u32, u32)>,
        lists: &mut SlotKeyLists,
        out: &mut Vec<u64>,
    ) -> u64 {
        let SlotKeyLists {
            under,
            starts,
            over,
            among,
            merged,
        } = lists;
        under.clear();
        over.clear();
        among.clear();
        starts.clear();
        starts.resize(self.by_rank.len(), 0);
        let by_rank = &self.by_rank;
        let mut tested = 0;
        for (rank, &(slot, p)) in by_rank.iter().enumerate() {
            let aabb = &boxes[p as usize];
            tested += self.candidates(aabb, |t| {
                let (t_slot, t_proxy) = by_rank[t as usize];
                if t as usize > rank && aabb.overlaps(&boxes[t_proxy as usize]) {
                    among.push(pair_key(slot, t_slot));
                }
            });
        }
        among.sort_unstable();
        for (slot, p) in others {
            let aabb = &boxes[p as usize];
            let first = over.len();
            tested += self.candidates(aabb, |rank| {
                let (s_slot, s_proxy) = by_rank[rank as usize];
                if boxes[s_proxy as usize].overlaps(aabb) {
                    if s_slot < slot {
                        under.push((u64::from(rank) << 32) | u64::from(slot));
                        starts[rank as usize] += 1;
                    } else {
                        over.push(pair_key(slot, s_slot));
                    }
                }
            });
            over[first..].sort_unstable();
        }
        // Counts to starts, then each key to its spanner's place: the
        // others' slots rise within each spanner's run.
        let mut at = 0;
        for start in starts.iter_mut() {
            let count = *start;
            *start = at;
            at += count;
        }
        out.clear();
        out.resize(under.len(), 0);
        for &entry in under.iter() {
            let rank = (entry >> 32) as usize;
            let place = &mut starts[rank];
            out[*place as usize] = (u64::from(by_rank[rank].0) << 32) | (entry & 0xffff_ffff);
            *place += 1;
        }
        for extra in [&*over, &*among] {
            if !extra.is_empty() {
                merge_sorted(out, extra, merged);
                std::mem::swap(out, merged);
            }
        }
        debug_assert!(out.windows(2).all(|w| w[0] < w[1]));
        tested
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;
    use glam::Vec2;

    #[test]
    fn candidates_include_every_overlapping_spanner() {
        let boxes = vec![
            // A floor (thin in y) and a wall (thin in x).
            Aabb::new(Vec2::new(0.0, 10.0), Vec2::new(1000.0, 12.0)).unwrap(),
            Aabb::new(Vec2::new(500.0, 0.0), Vec2::new(503.0, 1000.0)).unwrap(),
        ];
        let mut index = SpannerIndex::default();
        index.rebuild(&[0, 1], &boxes, |p| p);
        let probe = |min: Vec2, max: Vec2| {
            let mut found = Vec::new();
            index.candidates(&Aabb::new(min, max).unwrap(), |s| found.push(s));
            found.sort();
            found
        };
        assert_eq!(
            probe(Vec2::new(490.0, 5.0), Vec2::new(510.0, 15.0)),
            vec![0, 1]
        );
        assert_eq!(
            probe(Vec2::new(10.0, 500.0), Vec2::new(20.0, 510.0)),
            Vec::<u32>::new()
        );
        assert_eq!(probe(Vec2::new(10.0, 11.0), Vec2::new(20.0, 11.5)), vec![0]);
    }

    /// The first entry from a minimum, through the buckets, is the one a
    /// bisection of every entry finds: repeated minimums, one minimum for
    /// all, and probes below, between and above them.
    #[test]
    fn the_bucketed_search_finds_what_bisection_finds() {
        let mut rng = TestRng::new(7);
        for round in 0..200 {
            let count = 1 + rng.below(40);
            let mut group = Group::default();
            for rank in 0..count {
                let min = match round % 3 {
                    0 => rng.range(-50.0, 50.0),
                    1 => (rng.below(5) as f32) * 10.0,
                    _ => 1e5,
                };
                group.entries.push((min, rank as u32));
            }
            group.finish();
            for _ in 0..50 {
                let from = match rng.below(3) {
                    0 => group.entries[rng.below(count)].0,
                    1 => rng.range(-80.0, 80.0),
                    _ => group.entries[rng.below(count)].0.next_up(),
                };
                let bisected = group.entries.partition_point(|e| e.0 < from);
                assert_eq!(group.first_from(from), bisected, "from {from}");
            }
        }
    }

    /// The slot keys of the spanners' pairs are sorted, unique and the
    /// pairs a test of every box against every spanner finds, whichever
    /// side has the lower slot, spanners among themselves included.
    #[test]
    fn slot_keys_are_the_sorted_pairs_a_brute_force_finds() {
        let mut rng = TestRng::new(11);
        let mut lists = SlotKeyLists::default();
        let mut keys = Vec::new();
        for _ in 0..30 {
            let (objects, spanning) = (60 + rng.below(60), 1 + rng.below(12));
            let mut boxes = Vec::new();
            for p in 0..objects + spanning {
                let min = rng.in_square() * 100.0;
                let size = if p < spanning {
                    // Floors and walls, some overlapping each other.
                    if rng.below(2) == 0 {
                        Vec2::new(100.0, rng.range(0.5, 6.0))
                    } else {
                        Vec2::new(rng.range(0.5, 6.0), 100.0)
                    }
                } else {
                    Vec2::splat(rng.range(0.5, 8.0))
                };
                // A spanner starts at 0 along the axis it spans.
                let min = Vec2::select(size.cmpgt(Vec2::splat(50.0)), Vec2::ZERO, min);
                boxes.push(Aabb::new(min, min + size).unwrap());
            }
            // Slots shuffled against proxies, so spanners sit below,
            // among and above the others.
            let mut slot_of: Vec<u32> = (0..boxes.len() as u32).collect();
            for i in (1..slot_of.len()).rev() {
                slot_of.swap(i, rng.below(i + 1));
            }
            let spanners: Vec<u32> = (0..spanning as u32).collect();
            let mut index = SpannerIndex::default();
            index.rebuild(&spanners, &boxes, |p| slot_of[p as usize]);
            let mut others: Vec<(u32, u32)> = (spanning as u32..boxes.len() as u32)
                .map(|p| (slot_of[p as usize], p))
                .collect();
            others.sort_unstable();
            index.slot_keys(&boxes, others.iter().copied(), &mut lists, &mut keys);
            let mut expected = Vec::new();
            for s in 0..spanning {
                for q in s + 1..boxes.len() {
                    if boxes[s].overlaps(&boxes[q]) {
                        expected.push(pair_key(slot_of[s], slot_of[q]));
                    }
                }
            }
            expected.sort_unstable();
            assert!(!expected.is_empty());
            assert_eq!(keys, expected);
        }
    }
}
