//! Batch updates split across threads by object slot: the kernel of
//! [`BroadPhase::update_many`](super::BroadPhase::update_many) for a
//! structure whose update of one object writes only that object's slots
//! of its per-object arrays.
//!
//! A batch whose handles' slots rise strictly (each object once, in slot
//! order, as a game that names its objects in insertion order gives them)
//! is cut in two at a move, and the structure's per-slot arrays at that
//! move's slot, recursively with `rayon::join` (no allocation), so that
//! each part owns the slots of its own moves and no two parts write the
//! same memory. Each move leaves an outcome; the structure then reads
//! the outcomes in move order on the calling thread for what must stay
//! sequential (its lists, a move to another level), so the result is what
//! updating the objects one by one gives, on any number of threads.
//!
//! What it costs: one pass that checks every handle and the order of the
//! slots (split the same way), then the split kernel, then the sequential
//! walk of the outcomes (one per move).

use super::parallel::join;
use crate::handle::Handle;

/// Per-object arrays (or views of them) that can be cut in two at a slot,
/// so that each part of a batch owns the slots of its moves.
pub(crate) trait SlotSplit: Send + Sized {
    /// The slots before `slot` and the slots from `slot` on (`slot` is an
    /// object index, not an offset into the view).
    fn split_at_slot(self, slot: u32) -> (Self, Self);
}

/// What [`check_moves`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MovesChecked {
    /// The position of the first move whose handle was refused.
    pub(crate) first_refused: Option<usize>,
    /// Whether the moves' slots rise strictly, the split path's condition.
    pub(crate) rising: bool,
}

impl MovesChecked {
    /// Nothing checked: no refused handle known, and the split path not
    /// to be taken.
    pub(crate) const UNCHECKED: Self = Self {
        first_refused: None,
        rising: false,
    };
}

/// Checks every handle with `holds` and whether their slots rise strictly,
/// in `parts` parts on the thread pool.
pub(crate) fn check_moves(
    handles: &[Handle],
    parts: usize,
    holds: &(impl Fn(Handle) -> bool + Sync),
) -> MovesChecked {
    /// What [`check_moves`] finds for `handles`, which start at position
    /// `first` of the batch.
    fn halves(
        handles: &[Handle],
        first: usize,
        parts: usize,
        holds: &(impl Fn(Handle) -> bool + Sync),
    ) -> MovesChecked {
        if parts <= 1 {
            // One pass for both answers, with no early exit: a refused
            // handle is rare. (Slots that stop rising after a refused
            // handle send the batch one by one, which is only slower.)
            let mut checked = MovesChecked {
                first_refused: None,
                rising: true,
            };
            let mut previous = None;
            for (k, &handle) in handles.iter().enumerate() {
                if !holds(handle) && checked.first_refused.is_none() {
                    checked.first_refused = Some(first + k);
                }
                checked.rising &= previous < Some(handle.index());
                previous = Some(handle.index());
            }
            return checked;
        }
        let mid = handles.len() * (parts / 2) / parts;
        let (left, right) = handles.split_at(mid);
        let (l, r) = join(
            || halves(left, first, parts / 2, holds),
            || halves(right, first + mid, parts - parts / 2, holds),
        );
        let seam = match (left.last(), right.first()) {
            (Some(a), Some(b)) => a.index() < b.index(),
            _ => true,
        };
        MovesChecked {
            first_refused: l.first_refused.or(r.first_refused),
            rising: l.rising && r.rising && seam,
        }
    }
    halves(handles, 0, parts.max(1), holds)
}

/// Runs `kernel(slots, slot, value)` for every move (`handles[k]` gets
/// `values[k]`; the slots must rise strictly, see [`check_moves`]) in
/// `parts` parts on the thread pool, each part with the view of the slots
/// its moves name; writes each move's outcome into `outcomes` (one per
/// move) and returns the sum of the kernel's counts.
pub(crate) fn apply_split<A: Sync + Copy, O: Send, S: SlotSplit>(
    handles: &[Handle],
    values: &[A],
    outcomes: &mut [O],
    slots: S,
    parts: usize,
    kernel: &(impl Fn(&mut S, u32, A) -> (O, u64) + Sync),
) -> u64 {
    fn halves<A: Sync + Copy, O: Send, S: SlotSplit>(
        handles: &[Handle],
        values: &[A],
        outcomes: &mut [O],
        mut slots: S,
        parts: usize,
        kernel: &(impl Fn(&mut S, u32, A) -> (O, u64) + Sync),
    ) -> u64 {
        let mid = handles.len() * (parts / 2) / parts.max(1);
        if parts <= 1 || mid == 0 {
            let mut count = 0;
            for ((&handle, &value), outcome) in handles.iter().zip(values).zip(outcomes.iter_mut())
            {
                let (o, c) = kernel(&mut slots, handle.index(), value);
                *outcome = o;
                count += c;
            }
            return count;
        }
        let (left_slots, right_slots) = slots.split_at_slot(handles[mid].index());
        let (left, right) = handles.split_at(mid);
        let (left_values, right_values) = values.split_at(mid);
        let (left_out, right_out) = outcomes.split_at_mut(mid);
        let (l, r) = join(
            || halves(left, left_values, left_out, left_slots, parts / 2, kernel),
            || {
                halves(
                    right,
                    right_values,
                    right_out,
                    right_slots,
                    parts - parts / 2,
                    kernel,
                )
            },
        );
        l + r
    }
    debug_assert!(handles.len() == values.len() && handles.len() == outcomes.len());
    halves(handles, values, outcomes, slots, parts, kernel)
}

/// Cuts an array view that starts at slot `base` in two at slot `slot`
/// (the second piece then starts at `slot`). For [`SlotSplit`] impls; the
/// split path cuts only at slots of rising moves, so `slot` is never below
/// `base`.
pub(crate) fn cut<T>(slice: &mut [T], base: u32, slot: u32) -> (&mut [T], &mut [T]) {
    debug_assert!(
        slot >= base,
        "cut at slot {slot} below the view's base {base}"
    );
    slice.split_at_mut((slot - base) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handle::Slots;

    /// A view of one array from slot `base`.
    struct View<'a> {
        base: u32,
        values: &'a mut [u32],
    }

    impl SlotSplit for View<'_> {
        fn split_at_slot(self, slot: u32) -> (Self, Self) {
            let (left, right) = cut(self.values, self.base, slot);
            (
                View {
                    base: self.base,
                    values: left,
                },
                View {
                    base: slot,
                    values: right,
                },
            )
        }
    }

    fn handles(count: usize) -> (Slots<()>, Vec<Handle>) {
        let mut slots = Slots::new();
        let handles = (0..count).map(|_| slots.insert(()).unwrap()).collect();
        (slots, handles)
    }

    #[test]
    fn split_kernel_writes_each_named_slot_once_whatever_the_parts() {
        let (_, handles) = handles(1000);
        // Every third slot, with the value 7 * slot.
        let moved: Vec<Handle> = handles.iter().copied().step_by(3).collect();
        let sevens: Vec<u32> = moved.iter().map(|h| 7 * h.index()).collect();
        for parts in [1, 2, 3, 5, 16, 2000] {
            let mut values = vec![0u32; 1000];
            let mut outcomes = vec![0u8; moved.len()];
            let view = View {
                base: 0,
                values: &mut values,
            };
            let count = apply_split(
                &moved,
                &sevens,
                &mut outcomes,
                view,
                parts,
                &|v, slot, value| {
                    v.values[(slot - v.base) as usize] += value;
                    ((slot % 2) as u8, 1)
                },
            );
            assert_eq!(count, moved.len() as u64, "{parts} parts");
            for (slot, &v) in values.iter().enumerate() {
                let expected = if slot % 3 == 0 { 7 * slot as u32 } else { 0 };
                assert_eq!(v, expected, "slot {slot}, {parts} parts");
            }
            for (h, &o) in moved.iter().zip(&outcomes) {
                assert_eq!(o, (h.index() % 2) as u8, "{parts} parts");
            }
        }
    }

    #[test]
    fn check_finds_the_first_refused_move_and_unordered_slots() {
        let (mut slots, handles) = handles(100);
        slots.remove(handles[40]).unwrap();
        slots.remove(handles[70]).unwrap();
        let live = slots.live_handles();
        let holds = |h| live.holds(h);
        let all = handles.clone();
        for parts in [1, 2, 3, 7, 100] {
            let checked = check_moves(&all, parts, &holds);
            assert_eq!(checked.first_refused, Some(40), "{parts} parts");
            assert!(checked.rising, "{parts} parts");
            // Swapping two neighbours anywhere (the seam of two parts
            // included) breaks the order; a repeated slot does too.
            for at in [0, 49, 50, 98] {
                let mut swapped = all.clone();
                swapped.swap(at, at + 1);
                assert!(
                    !check_moves(&swapped, parts, &holds).rising,
                    "{parts} parts, at {at}"
                );
            }
            let mut repeated = all.clone();
            repeated[51] = repeated[50];
            assert!(
                !check_moves(&repeated, parts, &holds).rising,
                "{parts} parts"
            );
            let fine = &all[..40];
            assert_eq!(
                check_moves(fine, parts, &holds),
                MovesChecked {
                    first_refused: None,
                    rising: true
                }
            );
        }
    }
}
