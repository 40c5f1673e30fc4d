//! The full sweep of one sorted axis: each start meets the intervals open at
//! that point, and each such candidate gets a full box test.
//!
//! The open intervals are kept as columns (one array per axis and side), so
//! the candidate tests of one start run over memory in order, eight at a
//! time, in a form the compiler turns into vector compares. This is where a
//! `sap1` step and every re-sort spend their time.

use super::endpoints::{is_start, proxy};
use crate::geometry::{Aabb, Vector};
use std::ops::Range;

/// "Not in the open list" in [`OpenSet::pos`].
const CLOSED: u32 = u32::MAX;
/// "End already passed, start not yet" (zero-size boxes: their end sorts
/// before their start).
const ENDED: u32 = u32::MAX - 1;
/// Candidates tested per block.
const LANES: usize = 8;

/// The objects whose interval is open at the current point of a sweep.
#[derive(Clone, Debug, Default)]
pub(crate) struct OpenSet {
    ids: Vec<u32>,
    /// Per axis: the open boxes' min and max.
    lo: [Vec<f32>; 3],
    hi: [Vec<f32>; 3],
    /// Per proxy: its index in the columns, [`CLOSED`] or [`ENDED`].
    pos: Vec<u32>,
}

impl OpenSet {
    fn prepare(&mut self, proxies: usize) {
        self.ids.clear();
        self.lo.iter_mut().for_each(Vec::clear);
        self.hi.iter_mut().for_each(Vec::clear);
        if self.pos.len() < proxies {
            self.pos.resize(proxies, CLOSED);
        }
    }

    fn len(&self) -> usize {
        self.ids.len()
    }

    /// Opens `p`, unless its end was already passed (a zero-size box).
    fn open<V: Vector>(&mut self, p: u32, aabb: &Aabb<V>) {
        let slot = &mut self.pos[p as usize];
        if *slot == ENDED {
            *slot = CLOSED;
            return;
        }
        *slot = self.ids.len() as u32;
        self.ids.push(p);
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
        for a in 0..V::DIM {
            self.lo[a].swap_remove(at);
            self.hi[a].swap_remove(at);
        }
        if let Some(&moved) = self.ids.get(at) {
            self.pos[moved as usize] = at as u32;
        }
    }

    /// Calls `on_hit(q)` for every open `q` whose box overlaps `aabb` on
    /// every axis of `axes`.
    #[inline]
    fn overlapping<V: Vector>(
        &self,
        aabb: &Aabb<V>,
        axes: Range<usize>,
        mut on_hit: impl FnMut(u32),
    ) {
        let n = self.ids.len();
        let (min, max) = (aabb.min(), aabb.max());
        let blocks = n / LANES * LANES;
        let mut base = 0;
        while base < blocks {
            let mut mask = u32::MAX;
            for a in axes.clone() {
                let lo = &self.lo[a][base..base + LANES];
                let hi = &self.hi[a][base..base + LANES];
                let (amin, amax) = (min.axis(a), max.axis(a));
                let mut m = 0u32;
                for l in 0..LANES {
                    m |= u32::from((lo[l] < amax) & (amin < hi[l])) << l;
                }
                mask &= m;
            }
            while mask != 0 {
                on_hit(self.ids[base + mask.trailing_zeros() as usize]);
                mask &= mask - 1;
            }
            base += LANES;
        }
        for i in blocks..n {
            if axes
                .clone()
                .all(|a| self.lo[a][i] < max.axis(a) && min.axis(a) < self.hi[a][i])
            {
                on_hit(self.ids[i]);
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

/// One pass over a sorted axis: each start meets the intervals open at that
/// point, and each such candidate is tested on the axes `test_axes` (all of
/// them for a box test); `on_pair(p, q)` is called for each pair that
/// passes, once. Returns the number of candidates tested.
///
/// Cost: O(endpoints + candidates), where the candidates are the pairs
/// overlapping on this axis (restricted to fresh ones with
/// [`SweepFor::Fresh`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn sweep<V: Vector>(
    keys: &[u64],
    boxes: &[Aabb<V>],
    what: SweepFor,
    test_axes: Range<usize>,
    is_fresh: impl Fn(u32) -> bool,
    open: &mut OpenSet,
    open_fresh: &mut OpenSet,
    mut on_pair: impl FnMut(u32, u32),
) -> u64 {
    open.prepare(boxes.len());
    open_fresh.prepare(boxes.len());
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
        against.overlapping(aabb, test_axes.clone(), |q| on_pair(p, q));
        open.open(p, aabb);
        if fresh {
            open_fresh.open(p, aabb);
        }
    }
    debug_assert!(open.ids.is_empty() && open_fresh.ids.is_empty());
    tested
}
