//! The kernel of a `sap1` step: one band's pairs, from its boxes laid out
//! as columns in the band's order (by min on the sweep axis).
//!
//! Each box meets the boxes after it until one starts at or past its end:
//! every pair overlapping on the sweep axis, once, with no list of open
//! intervals to keep. The candidates are tested eight at a time from the
//! columns, in a form the compiler turns into vector compares, and only
//! the pairs are written. That suits both kinds of scene: few candidates
//! per box (2D `uniform`), where a block is mostly padding but costs no
//! mispredicted loop exit, and many (3D `flat`). Testing boxes with fewer
//! than eight candidates one at a time instead took more instructions and
//! mispredicted more branches (measured with cachegrind).

use super::endpoints::proxy;
use super::one_axis::in_first_band;
use super::sweep::{LANES, block_overlaps};
use crate::broad::events::pair_key;
use crate::broad::headroom::{keep_headroom, reserve_headroom, with_margin};
use crate::broad::parallel::{for_each_part, parts_for, split_by_weight};
use crate::geometry::{Aabb, Vector};
use crate::handle::Handle;

/// The scan of every band, on the calling thread or cut into parts of
/// whole bands that run on the thread pool (see `broad/parallel.rs`).
#[derive(Clone, Debug, Default)]
pub(super) struct BandScan {
    /// The columns of the band being scanned on the calling thread.
    columns: BandColumns,
    /// A split scan's parts: each its own columns and pairs.
    parts: Vec<ScanPart>,
    /// A split scan's boundaries, in bands.
    bounds: Vec<usize>,
}

/// One part of a split scan.
#[derive(Clone, Debug, Default)]
struct ScanPart {
    columns: BandColumns,
    keys: Vec<u64>,
    tested: u64,
}

impl BandScan {
    /// Scans every band of `bands` (arrays of band keys, see `one_axis.rs`)
    /// and appends the slot pair keys of the pairs they hold (each once, in
    /// its home band) to `keys`, unsorted; returns the candidates tested.
    /// With 16,384 keys or more in all (`PARALLEL_MIN`), the bands are
    /// cut into parts of about equal keys; the parts' pairs are appended in
    /// part order, so `keys` is the same whatever the thread count.
    pub(super) fn scan_all<V: Vector>(
        &mut self,
        bands: &[Vec<u64>],
        boxes: &[Aabb<V>],
        handle_of: &[Handle],
        sweep_axis: usize,
        keys: &mut Vec<u64>,
    ) -> u64 {
        let total: usize = bands.iter().map(Vec::len).sum();
        let split = parts_for(total).min(bands.len());
        if split <= 1 {
            return scan_bands(bands, boxes, handle_of, sweep_axis, &mut self.columns, keys);
        }
        split_by_weight(bands.len(), split, |b| bands[b].len(), &mut self.bounds);
        if self.parts.len() < split {
            self.parts.resize_with(split, Default::default);
        }
        let bounds = &self.bounds[..];
        for_each_part(&mut self.parts[..split], |k, part| {
            part.keys.clear();
            part.tested = scan_bands(
                &bands[bounds[k]..bounds[k + 1]],
                boxes,
                handle_of,
                sweep_axis,
                &mut part.columns,
                &mut part.keys,
            );
        });
        let parts = &mut self.parts[..split];
        let found: usize = parts.iter().map(|part| part.keys.len()).sum();
        reserve_headroom(keys, keys.len() + found);
        for part in parts.iter_mut() {
            keys.extend_from_slice(&part.keys);
            // Room for as many next step (see `headroom.rs`).
            keep_headroom(&mut part.keys);
        }
        parts.iter().map(|part| part.tested).sum()
    }
}

/// Scans each of `bands` in turn through `columns`, appending pair keys to
/// `keys`; returns the candidates tested.
fn scan_bands<V: Vector>(
    bands: &[Vec<u64>],
    boxes: &[Aabb<V>],
    handle_of: &[Handle],
    sweep_axis: usize,
    columns: &mut BandColumns,
    keys: &mut Vec<u64>,
) -> u64 {
    let mut candidates = 0;
    let mut at = keys.len();
    for band in bands {
        if band.len() < 2 {
            continue;
        }
        columns.reset::<V>(band.len());
        for (i, &k) in band.iter().enumerate() {
            let p = proxy(k) as usize;
            columns.set(i, &boxes[p], handle_of[p].index(), in_first_band(k));
        }
        candidates += columns.scan::<V>(sweep_axis, keys, &mut at);
    }
    keys.truncate(at);
    candidates
}

/// One band's boxes, slots and first-band marks in the band's order, as
/// columns, with [`LANES`] entries of padding that overlap nothing so a
/// block never reads past the end.
#[derive(Clone, Debug, Default)]
pub(super) struct BandColumns {
    /// Per axis: the boxes' min and max.
    lo: [Vec<f32>; 3],
    hi: [Vec<f32>; 3],
    /// The object's slot (what pair keys are made of).
    slots: Vec<u32>,
    /// 1 when the band is the object's first, else 0.
    first: Vec<u32>,
}

impl BandColumns {
    /// Sizes the columns for a band of `len` objects, padding included;
    /// [`BandColumns::set`] fills entries `0..len`.
    pub(super) fn reset<V: Vector>(&mut self, len: usize) {
        for a in 0..V::DIM {
            self.lo[a].clear();
            self.lo[a].resize(len + LANES, f32::INFINITY);
            self.hi[a].clear();
            self.hi[a].resize(len + LANES, f32::NEG_INFINITY);
        }
        self.slots.clear();
        self.slots.resize(len + LANES, 0);
        self.first.clear();
        self.first.resize(len + LANES, 0);
    }

    /// Sets entry `i` to one object.
    #[inline]
    pub(super) fn set<V: Vector>(&mut self, i: usize, aabb: &Aabb<V>, slot: u32, first_band: bool) {
        for a in 0..V::DIM {
            self.lo[a][i] = aabb.min().axis(a);
            self.hi[a][i] = aabb.max().axis(a);
        }
        self.slots[i] = slot;
        self.first[i] = u32::from(first_band);
    }

    /// Finds the band's pairs (see the module documentation): writes slot
    /// pair keys into `out` from `*at` on, growing it as needed, advances
    /// `*at` past them, and returns the candidates tested. The pair of two
    /// objects counts when their boxes overlap and the band is the first of
    /// one of them (the home rule).
    pub(super) fn scan<V: Vector>(
        &mut self,
        swept: usize,
        out: &mut Vec<u64>,
        at: &mut usize,
    ) -> u64 {
        let n = self.slots.len() - LANES;
        let starts = &self.lo[swept];
        let mut tested = 0u64;
        let mut w = *at;
        for i in 0..n {
            let end = self.hi[swept][i];
            // The candidates are the next boxes that start before this one
            // ends (the padding starts at infinity, so the search stops
            // there). The first block is counted without a branch: in
            // most scenes a box has fewer candidates than lanes, and a loop
            // would mispredict its exit once per box.
            let next = &starts[i + 1..];
            let mut count = next[..LANES].iter().filter(|&&s| s < end).count();
            if count == LANES {
                count += next[LANES..].iter().take_while(|&&s| s < end).count();
            }
            let stop = i + 1 + count;
            if count == 0 {
                continue;
            }
            tested += count as u64;
            if out.len() < with_margin(w + count) {
                // The whole capacity, which keeps a margin (see
                // `headroom.rs`).
                reserve_headroom(out, w + count);
                out.resize(out.capacity(), 0);
            }
            w += self.test_blocks::<V>(i, stop, &mut out[w..w + count]);
        }
        *at = w;
        tested
    }

    /// Box `i` against boxes `i + 1 .. stop`, [`LANES`] at a time: a mask of
    /// the lanes that overlap on every axis, then the pairs among them.
    /// Returns the pairs written.
    #[inline]
    fn test_blocks<V: Vector>(&self, i: usize, stop: usize, out: &mut [u64]) -> usize {
        let (slot_i, first_i) = (self.slots[i], self.first[i]);
        let mut w = 0;
        let mut base = i + 1;
        while base < stop {
            let live = (stop - base).min(LANES);
            let mut mask = (1u32 << live) - 1;
            for a in 0..V::DIM {
                let (lo, hi) = (&self.lo[a], &self.hi[a]);
                mask &= block_overlaps(lo, hi, base, lo[i], hi[i]);
            }
            if first_i == 0 {
                let first = &self.first[base..base + LANES];
                let mut m = 0u32;
                for (l, &f) in first.iter().enumerate() {
                    m |= f << l;
                }
                mask &= m;
            }
            while mask != 0 {
                let j = base + mask.trailing_zeros() as usize;
                out[w] = pair_key(slot_i, self.slots[j]);
                w += 1;
                mask &= mask - 1;
            }
            base += LANES;
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Aabb2;
    use glam::Vec2;

    /// The scan of one band against every pair tested directly, with
    /// `first` marking the objects whose first band this is.
    fn check(boxes: &[Aabb2], first: &[bool]) {
        let mut order: Vec<usize> = (0..boxes.len()).collect();
        order.sort_by(|&a, &b| boxes[a].min().x.total_cmp(&boxes[b].min().x));
        let mut columns = BandColumns::default();
        columns.reset::<Vec2>(boxes.len());
        for (i, &o) in order.iter().enumerate() {
            columns.set(i, &boxes[o], o as u32, first[o]);
        }
        let (mut out, mut at) = (vec![7; 3], 3);
        let tested = columns.scan::<Vec2>(0, &mut out, &mut at);
        out.truncate(at);
        let mut got = out[3..].to_vec();
        got.sort_unstable();
        let mut want = Vec::new();
        let mut candidates = 0;
        for a in 0..boxes.len() {
            for b in a + 1..boxes.len() {
                let on_axis =
                    boxes[b].min().x < boxes[a].max().x && boxes[a].min().x < boxes[b].max().x;
                candidates += u64::from(on_axis);
                if boxes[a].overlaps(&boxes[b]) && (first[a] || first[b]) {
                    want.push(pair_key(a as u32, b as u32));
                }
            }
        }
        want.sort_unstable();
        assert_eq!(got, want, "{} boxes", boxes.len());
        assert!(
            tested >= candidates,
            "{tested} tested, {candidates} overlap on x"
        );
    }

    fn boxed(x: f32, y: f32, w: f32, h: f32) -> Aabb2 {
        Aabb2::new(Vec2::new(x, y), Vec2::new(x + w, y + h)).unwrap()
    }

    #[test]
    fn every_run_length_around_the_lanes_matches_the_direct_test() {
        // One long box followed by `k` short ones inside it on x (k
        // candidates), for k around one and two blocks; every other short
        // box misses on y, and some are not in their first band.
        for k in 0..20 {
            let mut boxes = vec![boxed(0.0, 0.0, 100.0, 1.0)];
            boxes.extend((0..k).map(|i| boxed(1.0 + i as f32, (i % 2) as f32 * 5.0, 0.5, 1.0)));
            for first_of_long in [true, false] {
                let first: Vec<bool> = (0..boxes.len())
                    .map(|i| if i == 0 { first_of_long } else { i % 3 != 0 })
                    .collect();
                check(&boxes, &first);
            }
        }
    }

    #[test]
    fn ties_touching_and_zero_size_boxes_match_the_direct_test() {
        let boxes = vec![
            boxed(0.0, 0.0, 2.0, 2.0),
            boxed(0.0, 0.0, 2.0, 2.0), // identical
            boxed(2.0, 0.0, 2.0, 2.0), // touches on x: no pair
            boxed(1.0, 1.0, 0.0, 0.0), // a point inside the first two
            boxed(0.0, 1.0, 0.0, 0.0), // a point on their left edge
            boxed(-0.0, 0.5, 1.0, 1.0),
            boxed(-3.0, -3.0, 3.0, 3.0), // touches the first at a corner
        ];
        for mask in 0..(1 << boxes.len()) {
            let first: Vec<bool> = (0..boxes.len()).map(|i| mask & (1 << i) != 0).collect();
            check(&boxes, &first);
        }
    }
}
