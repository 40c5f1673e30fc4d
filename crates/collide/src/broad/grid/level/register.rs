//! Re-registering a level's objects between steps: the objects that
//! changed cells have their old entries dropped and their new ones merged
//! in, one linear pass (a sort of just the newcomers, a radix sort when
//! they are many), and the boxes are copied beside the registrations.

use super::{Level, Reg, all_axes, lowest_bits};
use crate::broad::grid::cells::CellRange;
use crate::broad::headroom::reserve_headroom;
use crate::broad::parallel::{for_each_part, for_each_range_mut, parts_for, split_points};
use crate::broad::radix::{RADIX_MIN, radix_sort_by_key};
use crate::geometry::{Aabb, Vector};

/// [`Level::merge_fresh`] takes the merge with branches when fewer than
/// one registration in this many is new.
const FEW_STALE: usize = 8;

impl<V: Vector> Level<V> {
    /// Replaces the registrations of the objects `is_stale` names with
    /// `fresh` ones, keeping the order by key; the pair step then copies the
    /// objects' boxes next to them ([`Level::gather`], or [`gather_range`]
    /// per part when split). With `everything`, `fresh` holds
    /// every object of the level and the old entries are all dropped (the
    /// path for incoherent motion).
    pub(crate) fn reregister(
        &mut self,
        is_stale: impl Fn(u32) -> bool + Sync,
        fresh: impl Iterator<Item = (u32, CellRange)>,
        everything: bool,
    ) {
        if everything {
            // Nothing old is kept: no pass over the stale entries.
            self.regs.clear();
        }
        if self.dims.is_some() {
            // A dense level's keys fit in 29 bits, so a registration packs
            // into 8 bytes and the sort moves half the memory (measured with
            // perf: the sort of 16-byte registrations was a large share of a
            // frame under fast motion).
            let mut packed = std::mem::take(&mut self.packed);
            let mut scratch = std::mem::take(&mut self.packed_scratch);
            let stores = (Reg::pack, Reg::unpack);
            self.refill(&mut packed, &mut scratch, fresh, stores, is_stale);
            (self.packed, self.packed_scratch) = (packed, scratch);
        } else {
            let mut incoming = std::mem::take(&mut self.incoming);
            let mut scratch = std::mem::take(&mut self.scratch);
            let stores = (|reg| reg, |reg| reg);
            self.refill(&mut incoming, &mut scratch, fresh, stores, is_stale);
            (self.incoming, self.scratch) = (incoming, scratch);
        }
    }

    /// [`Level::reregister`]'s work in the registrations' form for the
    /// sort, `R`, which `stores.0` makes and `stores.1` reads: fills
    /// `buffer` with the fresh registrations, sorts them by key (radix
    /// sorted into `scratch` when many) and merges them in (`scratch`
    /// holding the kept ones).
    fn refill<R: Copy + Default + Sync>(
        &mut self,
        buffer: &mut Vec<R>,
        scratch: &mut Vec<R>,
        fresh: impl Iterator<Item = (u32, CellRange)>,
        (store, unpack): (impl Fn(Reg) -> R + Copy, impl Fn(R) -> Reg + Copy + Sync),
        is_stale: impl Fn(u32) -> bool + Sync,
    ) {
        self.fill(buffer, fresh, store);
        if buffer.len() > RADIX_MIN {
            radix_sort_by_key(buffer, scratch, |&r| unpack(r).key);
        } else {
            buffer.sort_unstable_by_key(|&r| unpack(r).key);
        }
        self.merge_fresh(is_stale, buffer, scratch, (store, unpack));
    }

    /// Drops the stale registrations and merges the sorted `incoming` ones
    /// (as `unpack` makes them) with the rest; on the path without branches
    /// the kept ones are first compacted into `kept`, as `store` makes them.
    ///
    /// When many entries are new (one in [`FEW_STALE`] or more; a third
    /// under fast motion), whether an entry is stale and which list the
    /// next entry comes from are coin tosses the branch predictor loses, so
    /// the kept entries are compacted without a branch and then merged
    /// choosing each source with a conditional move; when few are (slow
    /// motion) the branches predict well and the plain merge saves the
    /// compaction's pass (figures: BENCHMARKS.md).
    ///
    /// The kept entries are compacted in the sort's form (8-byte words for a
    /// dense level), so the merge picks one of two words instead of one of
    /// two 16-byte registrations through memory, and the boxes are copied
    /// afterwards by [`Level::gather`], a loop of independent loads that
    /// keeps more cache misses in flight than the merge did while copying
    /// them; both made the refresh faster (figures: BENCHMARKS.md).
    fn merge_fresh<R: Copy + Default + Sync>(
        &mut self,
        is_stale: impl Fn(u32) -> bool + Sync,
        incoming: &[R],
        kept: &mut Vec<R>,
        (store, unpack): (impl Fn(Reg) -> R, impl Fn(R) -> Reg + Copy + Sync),
    ) {
        if incoming.len() * FEW_STALE < self.regs.len() {
            self.merge_fresh_plain(is_stale, incoming, unpack);
            return;
        }
        reserve_headroom(kept, self.regs.len());
        kept.resize(self.regs.len(), R::default());
        let mut count = 0;
        for reg in &self.regs {
            kept[count] = store(*reg);
            count += usize::from(!is_stale(reg.object));
        }
        kept.truncate(count);
        // Every entry below is overwritten: resizing keeps old contents.
        let total = count + incoming.len();
        reserve_headroom(&mut self.regs, total);
        // The plain merge's list, which trades places with this one.
        reserve_headroom(&mut self.next, total);
        self.regs.resize(total, Reg::default());
        let (mut i, mut j, mut k) = (0, 0, 0);
        while i < kept.len() && j < incoming.len() {
            // Equal keys keep the kept entry first.
            let (old, new) = (kept[i], incoming[j]);
            let fresh = unpack(new).key < unpack(old).key;
            self.regs[k] = unpack(if fresh { new } else { old });
            i += usize::from(!fresh);
            j += usize::from(fresh);
            k += 1;
        }
        let rest = kept[i..].iter().chain(&incoming[j..]);
        for (slot, &r) in self.regs[k..].iter_mut().zip(rest) {
            *slot = unpack(r);
        }
    }

    /// [`Level::merge_fresh`] with a branch per entry, for few stale ones;
    /// the boxes are copied afterwards by the pair step (copying them here
    /// measured slower).
    fn merge_fresh_plain<R: Copy + Sync>(
        &mut self,
        is_stale: impl Fn(u32) -> bool + Sync,
        incoming: &[R],
        unpack: impl Fn(R) -> Reg + Copy + Sync,
    ) {
        let split = parts_for(self.regs.len());
        if split > 1 {
            self.merge_fresh_split(split, is_stale, incoming, unpack);
            return;
        }
        self.next.clear();
        let mut fresh = FreshKeys::new(incoming, unpack);
        for reg in &self.regs {
            if is_stale(reg.object) {
                continue;
            }
            while fresh.next_key < reg.key {
                self.next.push(fresh.take());
            }
            self.next.push(*reg);
        }
        self.next.extend(fresh.rest());
        std::mem::swap(&mut self.regs, &mut self.next);
        // The two lists trade places every step: both keep the margin.
        let len = self.regs.len();
        reserve_headroom(&mut self.regs, len);
        reserve_headroom(&mut self.next, len);
    }

    /// [`Level::merge_fresh_plain`] cut into `split` parts that run on the
    /// thread pool, with the same result. The registrations are cut between
    /// cells; each part takes the fresh ones whose keys fall from its first
    /// key up to the next part's, and writes its kept and fresh ones into
    /// its own range of the output, which starts after the kept entries of
    /// the parts before it and their fresh ones.
    fn merge_fresh_split<R: Copy + Sync>(
        &mut self,
        split: usize,
        is_stale: impl Fn(u32) -> bool + Sync,
        incoming: &[R],
        unpack: impl Fn(R) -> Reg + Copy + Sync,
    ) {
        let regs = &self.regs[..];
        let cuts = &mut self.cuts;
        split_points(
            regs.len(),
            split,
            |at| regs[at].key != regs[at - 1].key,
            &mut cuts.bounds,
        );
        let bounds = &cuts.bounds[..];
        cuts.kept.clear();
        cuts.kept.resize(split, 0);
        for_each_part(&mut cuts.kept, |k, kept| {
            let part = &regs[bounds[k]..bounds[k + 1]];
            *kept = part.iter().filter(|r| !is_stale(r.object)).count();
        });
        // Where each part's fresh registrations start in `incoming`, and
        // where its output starts.
        cuts.fresh_at.clear();
        cuts.offsets.clear();
        let mut kept_before = 0;
        for (k, &at) in bounds.iter().enumerate() {
            // Part 0 takes the fresh entries below every key, the last part
            // those above.
            let fresh_at = match at {
                _ if k == 0 => 0,
                at if at >= regs.len() => incoming.len(),
                at => incoming.partition_point(|&r| unpack(r).key < regs[at].key),
            };
            cuts.fresh_at.push(fresh_at);
            cuts.offsets.push(kept_before + fresh_at);
            kept_before += cuts.kept.get(k).copied().unwrap_or(0);
        }
        let total = cuts.offsets[split];
        debug_assert_eq!(total, kept_before + incoming.len());
        reserve_headroom(&mut self.next, total);
        self.next.resize(total, Reg::default());
        let fresh_at = &cuts.fresh_at[..];
        let mut units = vec![(); split];
        let merge_part = |k: usize, out: &mut [Reg], _: &mut ()| {
            let part = &regs[bounds[k]..bounds[k + 1]];
            let mut fresh = FreshKeys::new(&incoming[fresh_at[k]..fresh_at[k + 1]], unpack);
            let mut at = 0;
            for reg in part {
                if is_stale(reg.object) {
                    continue;
                }
                while fresh.next_key < reg.key {
                    out[at] = fresh.take();
                    at += 1;
                }
                out[at] = *reg;
                at += 1;
            }
            for new in fresh.rest() {
                out[at] = new;
                at += 1;
            }
            debug_assert_eq!(at, out.len());
        };
        // A vector of `()` allocates nothing.
        for_each_range_mut(&mut self.next, &cuts.offsets, &mut units, &merge_part);
        std::mem::swap(&mut self.regs, &mut self.next);
        let len = self.regs.len();
        reserve_headroom(&mut self.regs, len);
        reserve_headroom(&mut self.next, len);
    }

    /// Puts the registrations of `fresh` into `buffer` (replacing its
    /// contents), each as `store` makes it, in no particular order. A range
    /// of at most 2 cells per axis (nearly every object, with the automatic
    /// cell size) writes all 2^D corner cells and keeps those it covers by
    /// advancing the write position or not: the loop over a range of 1 or 2
    /// cells per axis mispredicted its branches (measured with perf). Keys
    /// are linear in the cell coordinates within a level, so the corners are
    /// the lowest cell's key plus per-axis strides.
    pub(super) fn fill<R: Copy + Default>(
        &self,
        buffer: &mut Vec<R>,
        fresh: impl Iterator<Item = (u32, CellRange)>,
        store: impl Fn(Reg) -> R,
    ) {
        let stride = self.strides();
        let corners = 1usize << V::DIM;
        let mut at = 0;
        for (object, range) in fresh {
            if buffer.len() < at + corners {
                // Grown a little at a time: the buffer ends each call at the
                // count written, and the next call regrows it past that.
                buffer.resize(at + 64 * corners, R::default());
            }
            let spans = [0, 1, 2].map(|a| range.max[a] - range.min[a]);
            if spans.iter().all(|&s| s <= 1) {
                let base = self.key(range.min);
                for corner in 0..corners {
                    let mut key = base;
                    let mut covered = true;
                    for (a, step) in stride.iter().enumerate().take(V::DIM) {
                        let up = corner >> a & 1 == 1;
                        // Wraps only for a corner not covered (past the
                        // lattice's last cell), whose entry is overwritten.
                        key = key.wrapping_add(u64::from(up) * step);
                        covered &= !up | (spans[a] == 1);
                    }
                    // The corner's bits say which axes it is up on; it is
                    // at the range's lowest on the others.
                    let lowest = !(corner as u8) & all_axes(V::DIM);
                    debug_assert!(
                        !covered
                            || (self.key(self.coords(key)) == key
                                && range.contains(self.coords(key))
                                && lowest == lowest_bits(&range, self.coords(key), V::DIM))
                    );
                    buffer[at] = store(Reg {
                        key,
                        object,
                        lowest,
                    });
                    at += usize::from(covered);
                }
            } else {
                buffer.truncate(at);
                range.for_each(|c| {
                    buffer.push(store(Reg {
                        key: self.key(c),
                        object,
                        lowest: lowest_bits(&range, c, V::DIM),
                    }))
                });
                at = buffer.len();
            }
        }
        buffer.truncate(at);
    }

    /// How much a cell's key grows per step along each axis (keys are
    /// linear in the coordinates within the lattice).
    fn strides(&self) -> [u64; 3] {
        match self.dims {
            Some(d) => [1, d[0] as u64, d[0] as u64 * d[1] as u64],
            None if V::DIM == 2 => [1, 1 << 32, 0],
            None => [1, 1 << 21, 1 << 42],
        }
    }

    /// Copies the current box of every registered object next to its
    /// registration (reads scattered, writes in order).
    pub(crate) fn gather(&mut self, boxes: &[Aabb<V>]) {
        self.boxes.clear();
        reserve_headroom(&mut self.boxes, self.regs.len());
        self.boxes
            .extend(self.regs.iter().map(|r| boxes[r.object as usize]));
    }

    /// Makes `boxes` as long as the registrations without filling it, for
    /// parts that each gather their own range (see
    /// [`gather_range`]).
    pub(crate) fn size_boxes(&mut self) {
        // Every entry is overwritten: resizing keeps the old contents and
        // writes only a longer tail.
        reserve_headroom(&mut self.boxes, self.regs.len());
        self.boxes.resize(self.regs.len(), Aabb::default());
    }
}

/// The sorted fresh registrations a plain merge takes from, with the key
/// of the next one held as a plain `u64` (`u64::MAX` once none is left:
/// no kept key is below it, and fresh ones with that key are left to
/// [`FreshKeys::rest`]). A `Peekable` over the unpacked registrations kept
/// its peeked one on the stack in pieces and read it back whole, stalling
/// the loop on every kept entry (measured with perf: the merge cost a
/// dense grid clearly more than a hashed one, whose registrations need no
/// unpacking).
struct FreshKeys<'a, R, U> {
    incoming: &'a [R],
    unpack: U,
    at: usize,
    next_key: u64,
}

impl<'a, R: Copy, U: Fn(R) -> Reg> FreshKeys<'a, R, U> {
    fn new(incoming: &'a [R], unpack: U) -> Self {
        let next_key = incoming.first().map_or(u64::MAX, |&r| unpack(r).key);
        Self {
            incoming,
            unpack,
            at: 0,
            next_key,
        }
    }

    /// The next fresh registration; only while `next_key` is below a kept
    /// key, so one is left.
    #[inline]
    fn take(&mut self) -> Reg {
        let reg = (self.unpack)(self.incoming[self.at]);
        self.at += 1;
        self.next_key = self
            .incoming
            .get(self.at)
            .map_or(u64::MAX, |&r| (self.unpack)(r).key);
        reg
    }

    /// The fresh registrations not taken, in order.
    fn rest(self) -> impl Iterator<Item = Reg> + 'a
    where
        U: 'a,
    {
        let unpack = self.unpack;
        self.incoming[self.at..].iter().map(move |&r| unpack(r))
    }
}

/// [`Level::gather`] for one range of registrations, into its range of
/// boxes.
pub(crate) fn gather_range<V: Vector>(regs: &[Reg], out: &mut [Aabb<V>], boxes: &[Aabb<V>]) {
    for (slot, reg) in out.iter_mut().zip(regs) {
        *slot = boxes[reg.object as usize];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::grid::cells::CellFrame;

    /// After every kind of re-registration (everything at once, many
    /// objects moved, few moved; dense and hashed), the level holds exactly
    /// the registrations of every object's current cells, sorted by key,
    /// with each object's current box beside it.
    fn reregistering_matches_registering_afresh<V: Vector>() {
        let mut rng = crate::test_rng::TestRng::new(41);
        let hashed = Level::<V>::new(CellFrame::new([0.0; 3], 1.5), None);
        let dense = Level::<V>::new(CellFrame::new([-20.0; 3], 1.5), Some([30; 3]));
        for mut level in [hashed, dense] {
            let random_box = |rng: &mut crate::test_rng::TestRng| {
                let low = V::from_axes(|_| rng.range(-15.0, 15.0));
                let size = V::from_axes(|_| rng.range(0.0, 3.0));
                Aabb::new(low, V::from_axes(|a| low.axis(a) + size.axis(a))).unwrap()
            };
            // More objects than the radix sort's threshold, so both sorts run.
            let n = 3000;
            let mut boxes: Vec<Aabb<V>> = (0..n).map(|_| random_box(&mut rng)).collect();
            let check = |level: &mut Level<V>, boxes: &[Aabb<V>], case: &str| {
                level.gather(boxes);
                let mut expected = Vec::new();
                for (object, aabb) in boxes.iter().enumerate() {
                    level
                        .frame
                        .range_of(aabb)
                        .for_each(|c| expected.push((level.key(c), object as u32)));
                }
                expected.sort_unstable();
                assert!(
                    level.regs.windows(2).all(|w| w[0].key <= w[1].key),
                    "{case}"
                );
                let mut got: Vec<(u64, u32)> =
                    level.regs.iter().map(|r| (r.key, r.object)).collect();
                got.sort_unstable();
                assert_eq!(got, expected, "{case}");
                for (reg, aabb) in level.regs.iter().zip(&level.boxes) {
                    assert_eq!(*aabb, boxes[reg.object as usize], "{case}");
                }
            };
            let all = |boxes: &[Aabb<V>], level: &Level<V>| -> Vec<(u32, CellRange)> {
                (0..n as u32)
                    .map(|i| (i, level.frame.range_of(&boxes[i as usize])))
                    .collect()
            };
            let fresh = all(&boxes, &level);
            level.reregister(|_| true, fresh.into_iter(), true);
            check(&mut level, &boxes, "everything");
            // Few moved (the merge with branches), many moved (without;
            // at 0.14 in 2D the new entries are few enough for the standard
            // sort), then everything again.
            for (round, share) in [0.01, 0.05, 0.14, 0.4, 0.9, 0.02].into_iter().enumerate() {
                let moved: Vec<u32> = (0..n as u32)
                    .filter(|_| rng.range(0.0, 1.0) < share)
                    .collect();
                let mut stale = vec![false; n];
                for &i in &moved {
                    boxes[i as usize] = random_box(&mut rng);
                    stale[i as usize] = true;
                }
                let fresh: Vec<(u32, CellRange)> = moved
                    .iter()
                    .map(|&i| (i, level.frame.range_of(&boxes[i as usize])))
                    .collect();
                level.reregister(|o| stale[o as usize], fresh.into_iter(), false);
                check(&mut level, &boxes, &format!("round {round}, {share} moved"));
            }
            let fresh = all(&boxes, &level);
            level.reregister(|_| true, fresh.into_iter(), true);
            check(&mut level, &boxes, "everything again");
        }
    }

    /// The plain merges, whole and cut into parts, keep the order by key
    /// with a kept registration before a fresh one of the same key, up to
    /// keys of `u64::MAX` (a 2D hashed cell at the top of both axes), and
    /// drop the stale ones. (The test above compares sorted lists, so it
    /// sees neither.)
    #[test]
    fn plain_merges_put_kept_before_fresh_on_equal_keys_up_to_the_largest_key() {
        let reg = |key, object| Reg {
            key,
            object,
            lowest: 0,
        };
        let top = u64::MAX;
        let kept = [
            reg(1, 0),
            reg(5, 1),
            reg(5, 2),
            reg(9, 3),
            reg(top, 4),
            reg(top, 5),
        ];
        let fresh = [reg(0, 10), reg(5, 11), reg(7, 12), reg(top, 13)];
        let stale = |object: u32| object == 2;
        let expected = [
            reg(0, 10),
            reg(1, 0),
            reg(5, 1),
            reg(5, 11),
            reg(7, 12),
            reg(9, 3),
            reg(top, 4),
            reg(top, 5),
            reg(top, 13),
        ];
        let level = || {
            let mut level = Level::<glam::Vec2>::new(CellFrame::new([0.0; 3], 1.0), None);
            level.regs = kept.to_vec();
            level
        };
        let mut whole = level();
        whole.merge_fresh_plain(stale, &fresh, |r| r);
        assert_eq!(whole.regs, expected, "whole");
        for split in [2, 3] {
            let mut parts = level();
            parts.merge_fresh_split(split, stale, &fresh, |r| r);
            assert_eq!(parts.regs, expected, "in {split} parts");
        }
    }

    #[test]
    fn reregistering_matches_registering_afresh_in_2d_and_3d() {
        reregistering_matches_registering_afresh::<glam::Vec2>();
        reregistering_matches_registering_afresh::<glam::Vec3>();
    }
}
