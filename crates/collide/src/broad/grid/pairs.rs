//! The grid's pair-finding kernel: pairs within each level's cells (runs of
//! registrations with one key, their boxes side by side), objects probing
//! coarser levels, overflow objects probing every level, and overflow
//! objects against each other.

use super::core::Place;
use super::level::Level;
use crate::broad::events::pair_key;
use crate::broad::headroom::{reserve_headroom, with_margin};
use crate::geometry::{Aabb, Vector};
use std::ops::ControlFlow;

/// Memory reused from step to step.
#[derive(Debug, Default)]
pub(crate) struct PairScratch {
    /// Overlapping pairs as `lower index << 32 | higher index`, sorted.
    pub(crate) keys: Vec<u64>,
    order: Vec<u32>,
    sort: Vec<u64>,
}

/// Finds every overlapping pair once, into `scratch.keys` (sorted), and
/// returns the number of box tests made. Levels must be refreshed (their
/// registrations and gathered boxes current).
pub(crate) fn grid_pairs<V: Vector>(
    levels: &[Level<V>],
    boxes: &[Aabb<V>],
    levels_of: &[u8],
    places: &[Place],
    overflow: &[u32],
    scratch: &mut PairScratch,
) -> u64 {
    let keys = &mut scratch.keys;
    keys.clear();
    let mut tested = 0;
    for level in levels {
        tested += cell_pairs(level, keys);
    }
    if levels.len() > 1 {
        // Each object probes the coarser levels; a pair across levels is
        // found once, from its finer side.
        for (i, place) in places.iter().enumerate() {
            if *place != Place::Cells {
                continue;
            }
            let from = usize::from(levels_of[i]) + 1;
            for level in &levels[from.min(levels.len())..] {
                if !level.regs.is_empty() {
                    tested += probe(level, i as u32, &boxes[i], keys);
                }
            }
        }
    }
    for &o in overflow {
        for level in levels {
            tested += probe(level, o, &boxes[o as usize], keys);
        }
    }
    tested += sweep(boxes, overflow, &mut scratch.order, keys);
    crate::broad::radix::radix_sort_by_key(keys, &mut scratch.sort, |k| *k);
    tested
}

/// Objects sharing a cell; a pair counts only in its corner cell. Reads the
/// registrations and their boxes in order. Every tested pair's key is
/// written and the write position advances only for a hit: whether two
/// boxes overlap is a coin toss the branch predictor loses (measured on 2D
/// `uniform` fast at 100,000 objects: the conditional push mispredicted
/// about 80,000 times a frame under cachegrind's branch simulation, and
/// this kernel's share of a perf profile fell from 18% to 14% without it).
/// Testing each registration against the next few whatever their cell,
/// to avoid the loops over short runs, was slower (17%).
fn cell_pairs<V: Vector>(level: &Level<V>, keys: &mut Vec<u64>) -> u64 {
    let (regs, boxes) = (&level.regs, &level.boxes);
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
            let var = ids.iter().map(|i| (centre(i) - mean).powi(2)).sum::<f64>() / n;
            (axis, var)
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(0, |(axis, _)| axis)
}
