//! The grid's pair-finding kernel: pairs within each level's cells (runs of
//! registrations with one key, their boxes side by side), objects probing
//! coarser levels, overflow objects probing every level, and overflow
//! objects against each other.

use super::core::Place;
use super::level::{Level, Reg, gather_range};
use crate::broad::events::pair_key;
use crate::broad::headroom::{keep_headroom, reserve_headroom, with_margin};
use crate::broad::parallel::{for_each_part, for_each_range_mut, parts_for, split_points};
use crate::broad::split_sort::{SplitSort, pair_key_bits};
use crate::geometry::{Aabb, Vector};
use crate::math;
use std::ops::ControlFlow;

/// Memory reused from step to step.
#[derive(Debug, Default)]
pub(crate) struct PairScratch {
    /// Overlapping pairs as `lower index << 32 | higher index`, sorted.
    pub(crate) keys: Vec<u64>,
    order: Vec<u32>,
    sort: SplitSort,
    /// A split step's parts: each part's keys and box tests.
    parts: Vec<(Vec<u64>, u64)>,
    /// A split step's part boundaries.
    bounds: Vec<usize>,
}

/// Gathers every level's boxes, finds every overlapping pair once, into
/// `scratch.keys` (sorted), and returns the number of box tests made.
/// Levels must be refreshed (their registrations current).
pub(crate) fn grid_pairs<V: Vector>(
    levels: &mut [Level<V>],
    boxes: &[Aabb<V>],
    levels_of: &[u8],
    places: &[Place],
    overflow: &[u32],
    scratch: &mut PairScratch,
) -> u64 {
    let PairScratch {
        keys,
        order,
        sort,
        parts,
        bounds,
    } = scratch;
    keys.clear();
    let mut tested = 0;
    for level in levels.iter_mut() {
        tested += level_pairs(level, boxes, keys, parts, bounds);
    }
    let levels = &*levels;
    if levels.len() > 1 {
        // Each object probes the coarser levels; a pair across levels is
        // found once, from its finer side.
        let probe_coarser = |i: usize, keys: &mut Vec<u64>| {
            if places[i] != Place::Cells {
                return 0;
            }
            let from = usize::from(levels_of[i]) + 1;
            let mut tested = 0;
            for level in &levels[from.min(levels.len())..] {
                if !level.regs.is_empty() {
                    tested += probe(level, i as u32, &boxes[i], keys);
                }
            }
            tested
        };
        let split = parts_for(places.len());
        if split <= 1 {
            tested += (0..places.len())
                .map(|i| probe_coarser(i, keys))
                .sum::<u64>();
        } else {
            split_points(places.len(), split, |_| true, bounds);
            let bounds = &bounds[..];
            tested += run_parts(parts, split, keys, |k, out| {
                (bounds[k]..bounds[k + 1])
                    .map(|i| probe_coarser(i, out))
                    .sum()
            });
        }
    }
    for &o in overflow {
        for level in levels {
            tested += probe(level, o, &boxes[o as usize], keys);
        }
    }
    tested += sweep(boxes, overflow, order, keys);
    sort.sort(keys, pair_key_bits(boxes.len()));
    tested
}

/// Gathers `level`'s boxes and appends the pairs within its cells to
/// `keys`; returns the box tests made. A large level is cut between cells
/// into parts that run on the thread pool (see `broad/parallel.rs`), each
/// gathering its own boxes and then testing them while they are in its
/// core's cache; the parts' keys are appended in part order. (One task per
/// part rather than a gather and a pair pass: handing work to a sleeping
/// thread took up to a millisecond on the benchmark machine.)
fn level_pairs<V: Vector>(
    level: &mut Level<V>,
    boxes: &[Aabb<V>],
    keys: &mut Vec<u64>,
    parts: &mut Vec<(Vec<u64>, u64)>,
    bounds: &mut Vec<usize>,
) -> u64 {
    let split = parts_for(level.regs.len());
    if split <= 1 {
        level.gather(boxes);
        return cell_pairs(&level.regs, &level.boxes, keys);
    }
    level.size_boxes();
    let regs = &level.regs[..];
    split_points(
        regs.len(),
        split,
        |at| regs[at].key != regs[at - 1].key,
        bounds,
    );
    if parts.len() < split {
        parts.resize_with(split, Default::default);
    }
    let bounds = &bounds[..];
    let gather_and_test = |k: usize, out: &mut [Aabb<V>], (found, tested): &mut (Vec<u64>, u64)| {
        let regs = &regs[bounds[k]..bounds[k + 1]];
        gather_range(regs, out, boxes);
        found.clear();
        *tested = cell_pairs(regs, out, found);
    };
    for_each_range_mut(
        &mut level.boxes,
        bounds,
        &mut parts[..split],
        &gather_and_test,
    );
    append_parts(&parts[..split], keys)
}

/// Appends the parts' keys to `keys` in part order; returns the sum of
/// their box tests.
fn append_parts(parts: &[(Vec<u64>, u64)], keys: &mut Vec<u64>) -> u64 {
    let found: usize = parts.iter().map(|(out, _)| out.len()).sum();
    reserve_headroom(keys, keys.len() + found);
    for (out, _) in parts {
        keys.extend_from_slice(out);
    }
    parts.iter().map(|(_, tested)| tested).sum()
}

/// Runs `work(k, keys of part k)` for `split` parts on the thread pool,
/// then appends the parts' keys to `keys` in part order; returns the sum of
/// what `work` returned (box tests). The parts' buffers are kept for the
/// next step.
fn run_parts(
    parts: &mut Vec<(Vec<u64>, u64)>,
    split: usize,
    keys: &mut Vec<u64>,
    work: impl Fn(usize, &mut Vec<u64>) -> u64 + Sync + Send,
) -> u64 {
    if parts.len() < split {
        parts.resize_with(split, Default::default);
    }
    let parts = &mut parts[..split];
    for_each_part(parts, |k, (out, tested)| {
        out.clear();
        *tested = work(k, out);
        // Room for as many next step, whose cuts fall elsewhere.
        keep_headroom(out);
    });
    append_parts(parts, keys)
}

/// Objects sharing a cell; a pair counts only in its corner cell. Reads the
/// registrations and their boxes in order. Every tested pair's key is
/// written and the write position advances only for a hit: whether two
/// boxes overlap is a coin toss the branch predictor loses (measured with
/// cachegrind and perf: a conditional push mispredicted often and made
/// this kernel clearly slower). Testing each registration against the next
/// few whatever their cell, to avoid the loops over short runs, was slower.
///
/// Inlined into both callers (one level whole, or one part of it): called
/// out of line, the inner loop took more instructions per tested pair
/// (measured with cachegrind).
#[inline(always)]
fn cell_pairs<V: Vector>(regs: &[Reg], boxes: &[Aabb<V>], keys: &mut Vec<u64>) -> u64 {
    let mut at = keys.len();
    let mut tested = 0;
    let mut start = 0;
    while start < regs.len() {
        let cell = regs[start].key;
        let mut end = start + 1;
        while end < regs.len() && regs[end].key == cell {
            end += 1;
        }
        let n = end - start;
        let run_pairs = n * (n - 1) / 2;
        let (cell_regs, cell_boxes) = (&regs[start..end], &boxes[start..end]);
        // Room for the whole run's tests is the usual case; otherwise room
        // is made for each object's (at most n - 1), not the run's: what
        // the list needs then is the pairs found plus the largest cell,
        // which wanders far less than the square of it.
        let room = keys.len() >= with_margin(at + run_pairs);
        for (i, (reg_i, box_i)) in cell_regs.iter().zip(cell_boxes).enumerate() {
            if !room && keys.len() < with_margin(at + n) {
                // The whole capacity: it has a margin (no allocation while
                // the pair count wanders, here or in the sort) and growth
                // stays geometric.
                reserve_headroom(keys, at + n);
                keys.resize(keys.capacity(), 0);
            }
            // Slices and locals, so the inner loop keeps its pointers in
            // registers instead of reloading them after every store.
            let out = &mut keys[..];
            let later = cell_regs[i + 1..].iter().zip(&cell_boxes[i + 1..]);
            for (reg_j, box_j) in later {
                let hit = box_i.overlaps(box_j) & reg_i.is_corner(reg_j, V::DIM);
                out[at] = pair_key(reg_i.object, reg_j.object);
                at += usize::from(hit);
            }
        }
        tested += run_pairs as u64;
        start = end;
    }
    keys.truncate(at);
    tested
}

/// Object `a` (not registered in `level`) against the objects of the cells
/// its box covers there; a pair counts only in its corner cell.
fn probe<V: Vector>(level: &Level<V>, a: u32, box_a: &Aabb<V>, keys: &mut Vec<u64>) -> u64 {
    let range_a = level.frame.range_of(box_a);
    let mut tested = 0;
    let _ = level.for_each_cell_in(&range_a, |cell, run| {
        for k in run {
            tested += 1;
            let reg = &level.regs[k];
            if box_a.overlaps(&level.boxes[k]) && reg.is_corner_with(&range_a, cell, V::DIM) {
                keys.push(pair_key(a, reg.object));
            }
        }
        ControlFlow::Continue(())
    });
    tested
}

/// All overlapping pairs among `ids` by one sort and sweep on the axis where
/// their centres spread most; returns the number of box tests.
fn sweep<V: Vector>(
    boxes: &[Aabb<V>],
    ids: &[u32],
    order: &mut Vec<u32>,
    keys: &mut Vec<u64>,
) -> u64 {
    if ids.len() < 2 {
        return 0;
    }
    let axis = widest_axis(boxes, ids);
    order.clear();
    order.extend_from_slice(ids);
    order.sort_unstable_by(|&a, &b| {
        boxes[a as usize]
            .min()
            .axis(axis)
            .total_cmp(&boxes[b as usize].min().axis(axis))
    });
    let mut tested = 0;
    for (k, &a) in order.iter().enumerate() {
        let box_a = &boxes[a as usize];
        for &b in &order[k + 1..] {
            let box_b = &boxes[b as usize];
            if box_b.min().axis(axis) >= box_a.max().axis(axis) {
                break;
            }
            tested += 1;
            if box_a.overlaps(box_b) {
                keys.push(pair_key(a, b));
            }
        }
    }
    tested
}

/// The axis with the largest variance of box centres.
fn widest_axis<V: Vector>(boxes: &[Aabb<V>], ids: &[u32]) -> usize {
    let n = ids.len() as f64;
    (0..V::DIM)
        .map(|axis| {
            let centre = |i: &u32| f64::from(boxes[*i as usize].center().axis(axis));
            let mean = ids.iter().map(centre).sum::<f64>() / n;
            let var = ids
                .iter()
                .map(|i| math::powi(centre(i) - mean, 2))
                .sum::<f64>()
                / n;
            (axis, var)
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(0, |(axis, _)| axis)
}
