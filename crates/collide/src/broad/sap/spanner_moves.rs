//! The pair changes of a step found from the moves alone, for `sap1`
//! with world-spanning objects.
//!
//! When no spanner moved, entered or left since the last step and no
//! object entered or left the sorted arrays, a spanner's pair with another
//! object can change only if that object moved, and only where its box
//! then and now differ on overlapping the spanner: one index search around
//! each mover's old and new box, instead of finding, sorting and merging
//! every spanner pair again (most of them unchanged: a floor under a crowd
//! holds thousands). The pairs among the others change by the difference
//! of their kept sorted keys. Both feed the pair list's merge as events.

use super::base::{ALIVE, SPANNER, SweepBase};
use super::parts::Proxies;
use super::spanners::SpannerIndex;
use crate::broad::events::Pair;
use crate::geometry::Vector;

/// The moves find the changes only while the last step changed at most
/// one pair in this many: each change costs a sort and a merge step of
/// the event lists, where a step that finds every pair again pays the
/// same for changes and kept pairs (fast motion past floors).
const CHANGES_PER_PAIR: usize = 4;

impl<V: Vector, T> SweepBase<V, T> {
    /// Whether this step (classified) may take the spanners' pair changes
    /// from the moves: the last step's pairs and index hold the spanners
    /// as they are, no object entered, left or died, and every slot names
    /// the object it named then.
    pub(super) fn spanner_moves_suffice(&self) -> bool {
        self.sorted.spanner_pairs_kept
            && !self.sorted.spanners_changed
            && !self.sorted.spanners.is_empty()
            && self.work.leaving.is_empty()
            && self.work.entering.is_empty()
            && self.work.dead.is_empty()
            && self.proxies.stale_boxes.len() == self.proxies.stale.len()
            && self.tracker.keyed(&self.proxies.objects)
            && self.tracker.events().len() * CHANGES_PER_PAIR <= self.tracker.pairs().len()
    }
}

/// Pushes the spanners' pairs with the moved objects that started and
/// stopped overlapping since the last step (see the module
/// documentation). Returns the number of candidates tested.
pub(super) fn spanner_pair_changes<V: Vector, T>(
    proxies: &Proxies<V, T>,
    index: &SpannerIndex,
    started: &mut Vec<Pair>,
    stopped: &mut Vec<Pair>,
) -> u64 {
    let Proxies {
        boxes,
        handle_of,
        status,
        stale,
        stale_boxes,
        ..
    } = proxies;
    let mut tested = 0;
    for (&q, old) in stale.iter().zip(stale_boxes) {
        let q = q as usize;
        let new = &boxes[q];
        if status[q] & (ALIVE | SPANNER) != ALIVE || new == old {
            continue;
        }
        tested += index.candidates(&old.union(new), |rank| {
            let s = index.proxy(rank) as usize;
            let (was, is) = (boxes[s].overlaps(old), boxes[s].overlaps(new));
            if was != is {
                let pair = Pair::new(handle_of[s], handle_of[q]);
                if is {
                    started.push(pair);
                } else {
                    stopped.push(pair);
                }
            }
        });
    }
    tested
}

/// Pushes the pairs of the keys in `now` but not in `last` to `started`
/// and of those in `last` but not in `now` to `stopped` (both sorted,
/// unique [`pair_key`](crate::broad::events::pair_key)s).
pub(super) fn key_changes(
    last: &[u64],
    now: &[u64],
    pair_of: impl Fn(u64) -> Pair,
    started: &mut Vec<Pair>,
    stopped: &mut Vec<Pair>,
) {
    let (mut i, mut j) = (0, 0);
    while i < last.len() && j < now.len() {
        if last[i] < now[j] {
            stopped.push(pair_of(last[i]));
            i += 1;
        } else if now[j] < last[i] {
            started.push(pair_of(now[j]));
            j += 1;
        } else {
            i += 1;
            j += 1;
        }
    }
    stopped.extend(last[i..].iter().map(|&k| pair_of(k)));
    started.extend(now[j..].iter().map(|&k| pair_of(k)));
}
