//! The full sweep of one sorted axis: each start meets the intervals open at
//! that point, and each such candidate gets a full box test.
//!
//! The open intervals are kept as columns (one array per axis and side), so
//! the candidate tests of one start run over memory in order, eight at a
//! time, in a form the compiler turns into vector compares. `sap` sweeps
//! after a re-sort and for entering objects; `sap1` scans its bands
//! instead (`band_scan.rs`).

use super::endpoints::{is_start, proxy};
use crate::broad::headroom::reserve_headroom;
use crate::geometry::{Aabb, Vector};

/// "Not in the open list" in [`OpenSet::pos`].
const CLOSED: u32 = u32::MAX;
/// "End already passed, start not yet" (zero-size boxes: their end sorts
/// before their start).
const ENDED: u32 = u32::MAX - 1;
/// Candidates tested per block.
pub(super) const LANES: usize = 8;

/// Bit `l` set when interval `base + l` of the columns `lo`, `hi`
/// overlaps `lo_i..hi_i` strictly: the block test of the sweep and of
/// `sap1`'s scan, in a form the compiler turns into vector compares.
#[inline]
pub(super) fn block_overlaps(lo: &[f32], hi: &[f32], base: usize, lo_i: f32, hi_i: f32) -> u32 {
    let (lo, hi) = (&lo[base..base + LANES], &hi[base..base + LANES]);
    let mut m = 0u32;
    for l in 0..LANES {
        m |= u32::from((lo[l] < hi_i) & (lo_i < hi[l])) << l;
    }
    m
}

/// The objects whose interval is open at the current point of a sweep.
#[derive(Clone, Debug, Default)]
pub(crate) struct OpenSet {
    /// Proxies, to keep `pos` right when the last entry moves.
    ids: Vec<u32>,
    /// What pairs are reported as (see [`sweep`]'s `tag_of`).
    tags: Vec<u32>,
    /// Per axis: the open boxes' min and max.
    lo: [Vec<f32>; 3],
    hi: [Vec<f32>; 3],
    /// Per proxy: its index in the columns, [`CLOSED`] or [`ENDED`].
    pos: Vec<u32>,
    /// The most boxes open at once in any sweep so far: the columns keep
    /// room for it and a margin, so a new high by a few boxes (long boxes
    /// lining up) does not regrow them.
    peak: usize,
}

impl OpenSet {
    fn prepare(&mut self, proxies: usize, dim: usize) {
        self.ids.clear();
        self.tags.clear();
        self.lo.iter_mut().for_each(Vec::clear);
        self.hi.iter_mut().for_each(Vec::clear);
        let peak = self.peak;
        reserve_headroom(&mut self.ids, peak);
        reserve_headroom(&mut self.tags, peak);
        for column in self.lo[..dim].iter_mut().chain(&mut self.hi[..dim]) {
            reserve_headroom(column, peak);
        }
        if self.pos.len() < proxies {
            self.pos.resize(proxies, CLOSED);
        }
    }

    fn len(&self) -> usize {
        self.ids.len()
    }

    /// Opens `p`, unless its end was already passed (a zero-size box).
    fn open<V: Vector>(&mut self, p: u32, tag: u32, aabb: &Aabb<V>) {
        let slot = &mut self.pos[p as usize];
        if *slot == ENDED {
            *slot = CLOSED;
            return;
        }
        *slot = self.ids.len() as u32;
        self.peak = self.peak.max(self.ids.len() + 1);
        self.ids.push(p);
        self.tags.push(tag);
        for a in 0..V::DIM {
            self.lo[a].push(aabb.min().axis(a));
            self.hi[a].push(aabb.max().axis(a));
        }
    }

    fn close<V: Vector>(&mut self, p: u32) {
        let at = self.pos[p as usize];
        if at == CLOSED {
            self.pos[p as usize] = ENDED;
            return;
        }
        self.pos[p as usize] = CLOSED;
        let at = at as usize;
        self.ids.swap_remove(at);
        self.tags.swap_remove(at);
        for a in 0..V::DIM {
            self.lo[a].swap_remove(at);
            self.hi[a].swap_remove(at);
        }
        if let Some(&moved) = self.ids.get(at) {
            self.pos[moved as usize] = at as u32;
        }
    }

    /// Calls `on_hit(q)` for every open `q` whose box overlaps `aabb` on
    /// every axis in the bit set `axes`.
    #[inline]
    fn overlapping<V: Vector>(&self, aabb: &Aabb<V>, axes: u8, mut on_hit: impl FnMut(u32)) {
        let n = self.ids.len();
        let (min, max) = (aabb.min(), aabb.max());
        let tested = |a: usize| axes & (1 << a) != 0;
        let blocks = n / LANES * LANES;
        let mut base = 0;
        while base < blocks {
            let mut mask = u32::MAX;
            for a in (0..V::DIM).filter(|&a| tested(a)) {
                mask &= block_overlaps(&self.lo[a], &self.hi[a], base, min.axis(a), max.axis(a));
            }
            while mask != 0 {
                on_hit(self.tags[base + mask.trailing_zeros() as usize]);
                mask &= mask - 1;
            }
            base += LANES;
        }
        for i in blocks..n {
            if (0..V::DIM)
                .filter(|&a| tested(a))
                .all(|a| self.lo[a][i] < max.axis(a) && min.axis(a) < self.hi[a][i])
            {
                on_hit(self.tags[i]);
            }
        }
    }
}

/// What a sweep looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SweepFor {
    /// Every overlapping pair.
    All,
    /// Only pairs with at least one proxy for which `is_fresh` holds.
    Fresh,
}

/// One pass over the keys sorted on axis `swept`: each start meets the
/// intervals open at that point, and each such candidate gets a box test;
/// `on_pair(tag_of(p), tag_of(q))` is called for each pair of proxies `p`,
/// `q` that passes, once (tags let the caller get slot indices without a
/// lookup per pair). Returns the number of candidates.
///
/// An open interval starts no later than the new one and ends after its
/// start, so when the new interval has positive length the swept axis
/// needs no test: in 2D only one axis is compared. Only a zero-length
/// interval can meet an open one it does not overlap (one starting at the
/// same value), and then the swept axis is tested too.
///
/// Cost: O(endpoints + candidates), where the candidates are the pairs
/// overlapping on this axis (restricted to fresh ones with
/// [`SweepFor::Fresh`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn sweep<V: Vector>(
    keys: &[u64],
    boxes: &[Aabb<V>],
    swept: usize,
    what: SweepFor,
    tag_of: impl Fn(u32) -> u32,
    is_fresh: impl Fn(u32) -> bool,
    open: &mut OpenSet,
    open_fresh: &mut OpenSet,
    mut on_pair: impl FnMut(u32, u32),
) -> u64 {
    open.prepare(boxes.len(), V::DIM);
    open_fresh.prepare(boxes.len(), V::DIM);
    let mut tested = 0u64;
    for &k in keys {
        let p = proxy(k);
        let fresh = what == SweepFor::Fresh && is_fresh(p);
        if !is_start(k) {
            open.close::<V>(p);
            if fresh {
                open_fresh.close::<V>(p);
            }
            continue;
        }
        let aabb = &boxes[p as usize];
        let against = if what == SweepFor::All || fresh {
            &*open
        } else {
            &*open_fresh
        };
        tested += against.len() as u64;
        let tag = tag_of(p);
        let swept_bit = 1u8 << swept;
        let degenerate = aabb.min().axis(swept) >= aabb.max().axis(swept);
        let mut axes = (1u8 << V::DIM) - 1;
        if !degenerate {
            axes &= !swept_bit;
        }
        against.overlapping(aabb, axes, |q| on_pair(tag, q));
        open.open(p, tag, aabb);
        if fresh {
            open_fresh.open(p, tag, aabb);
        }
    }
    debug_assert!(open.ids.is_empty() && open_fresh.ids.is_empty());
    tested
}
