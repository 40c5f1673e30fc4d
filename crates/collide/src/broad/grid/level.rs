//! One level of a grid: its registrations (object, cell) kept sorted by
//! cell key in flat arrays, so a cell's objects are contiguous and the step
//! reads memory in order.
//!
//! Between steps only the objects that changed cells are re-registered: their
//! old entries are dropped and their new ones merged in, one linear pass
//! (a sort of just the newcomers, a radix sort when they are many).

use super::cells::{CellCoord, CellFrame, CellRange, hashed_coords, hashed_key};
use crate::broad::radix::radix_sort_by_key;
use crate::geometry::{Aabb, Vector};
use std::ops::{ControlFlow, Range};

/// One object registered in one cell: 16 bytes, since the step moves
/// every registration of a level through its sort. The corner rule works
/// from the two boxes instead of stored cells (see
/// [`CellFrame::overlap_corner`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Reg {
    /// The cell's key (see [`Level::key`]).
    pub(crate) key: u64,
    /// The object's slot index.
    pub(crate) object: u32,
}

/// A level: a cell frame, the registrations sorted by key, and the boxes of
/// the registered objects in the same order (gathered at each step).
#[derive(Debug)]
pub(crate) struct Level<V: Vector> {
    pub(crate) frame: CellFrame,
    /// Dense grids: the number of cells per axis (keys are linear indices).
    /// Hashed: `None` (keys pack the coordinates).
    dims: Option<[i32; 3]>,
    pub(crate) regs: Vec<Reg>,
    pub(crate) boxes: Vec<Aabb<V>>,
    next: Vec<Reg>,
    incoming: Vec<Reg>,
    scratch: Vec<Reg>,
}

/// Newcomers above this count are radix sorted rather than compared.
const RADIX_THRESHOLD: usize = 2048;

impl<V: Vector> Level<V> {
    pub(crate) fn new(frame: CellFrame, dims: Option<[i32; 3]>) -> Self {
        Self {
            frame,
            dims,
            regs: Vec::new(),
            boxes: Vec::new(),
            next: Vec::new(),
            incoming: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// The frame and registrations, without the step's scratch, for a
    /// snapshot.
    pub(crate) fn frozen(&self) -> Self {
        Self {
            regs: self.regs.clone(),
            ..Self::new(self.frame, self.dims)
        }
    }

    /// The key of cell `c` (inside the bounds, for a dense level).
    #[inline]
    pub(crate) fn key(&self, c: CellCoord) -> u64 {
        match self.dims {
            Some(d) => {
                debug_assert!(
                    (0..3).all(|a| 0 <= c[a] && c[a] < d[a]),
                    "dense key of cell {c:?} outside the bounds {d:?}"
                );
                c[0] as u64 + d[0] as u64 * (c[1] as u64 + d[1] as u64 * c[2] as u64)
            }
            None => hashed_key(c, V::DIM),
        }
    }

    /// The cell of a key.
    fn coords(&self, key: u64) -> CellCoord {
        match self.dims {
            Some(d) => {
                let (w, h) = (d[0] as u64, d[1] as u64);
                [
                    (key % w) as i32,
                    ((key / w) % h) as i32,
                    (key / (w * h)) as i32,
                ]
            }
            None => hashed_coords(key, V::DIM),
        }
    }

    /// The part of `range` that can hold cells: inside the bounds (dense) or
    /// all of it (hashed).
    pub(crate) fn clip(&self, range: &CellRange) -> Option<CellRange> {
        match self.dims {
            Some(d) => range.intersect(&CellRange {
                min: [0; 3],
                max: [d[0] - 1, d[1] - 1, d[2] - 1],
            }),
            None => Some(*range),
        }
    }

    /// Whether `c` is a cell this level can hold: inside the bounds (dense)
    /// or inside the clamped lattice (hashed).
    pub(crate) fn in_lattice(&self, c: CellCoord) -> bool {
        match self.dims {
            Some(d) => (0..3).all(|a| 0 <= c[a] && c[a] < d[a]),
            None => hashed_coords(hashed_key(c, V::DIM), V::DIM) == c,
        }
    }

    /// Whether every cell of `range` can be registered.
    pub(crate) fn holds(&self, range: &CellRange) -> bool {
        self.clip(range) == Some(*range)
    }

    /// Replaces the registrations of the objects `is_stale` names with
    /// `fresh` ones, keeping the order by key. With `everything`, `fresh`
    /// holds every object of the level and the old entries are all dropped
    /// without a merge (the path for incoherent motion).
    pub(crate) fn reregister(
        &mut self,
        is_stale: impl Fn(u32) -> bool,
        fresh: impl Iterator<Item = (u32, CellRange)>,
        everything: bool,
    ) {
        self.fill_incoming(fresh);
        if self.incoming.len() > RADIX_THRESHOLD {
            radix_sort_by_key(&mut self.incoming, &mut self.scratch, |r| r.key);
        } else {
            self.incoming.sort_unstable_by_key(|r| r.key);
        }
        if everything {
            std::mem::swap(&mut self.regs, &mut self.incoming);
            return;
        }
        self.next.clear();
        let mut fresh = self.incoming.iter().peekable();
        for reg in &self.regs {
            if is_stale(reg.object) {
                continue;
            }
            while let Some(new) = fresh.next_if(|n| n.key < reg.key) {
                self.next.push(*new);
            }
            self.next.push(*reg);
        }
        self.next.extend(fresh);
        std::mem::swap(&mut self.regs, &mut self.next);
    }

    /// Puts the registrations of `fresh` into `incoming`, in no particular
    /// order. A range of at most 2 cells per axis (nearly every object, with
    /// the automatic cell size) writes all 2^D corner cells and keeps those
    /// it covers by advancing the write position or not: the loop over a
    /// range of 1 or 2 cells per axis mispredicted its branches (measured
    /// with perf). Keys are linear in the cell coordinates within a level,
    /// so the corners are the lowest cell's key plus per-axis strides.
    fn fill_incoming(&mut self, fresh: impl Iterator<Item = (u32, CellRange)>) {
        let stride = self.strides();
        let corners = 1usize << V::DIM;
        let mut buffer = std::mem::take(&mut self.incoming);
        let mut at = 0;
        for (object, range) in fresh {
            if buffer.len() < at + corners {
                // Grown a little at a time: the buffer ends each call at the
                // count written, and the next call regrows it past that.
                buffer.resize(at + 64 * corners, Reg::default());
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
                    buffer[at] = Reg { key, object };
                    at += usize::from(covered);
                }
                debug_assert!(
                    buffer[at - (range.count() as usize)..at]
                        .iter()
                        .all(|r| self.key(self.coords(r.key)) == r.key
                            && range.contains(self.coords(r.key)))
                );
            } else {
                buffer.truncate(at);
                range.for_each(|c| {
                    buffer.push(Reg {
                        key: self.key(c),
                        object,
                    })
                });
                at = buffer.len();
            }
        }
        buffer.truncate(at);
        self.incoming = buffer;
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
        self.boxes
            .extend(self.regs.iter().map(|r| boxes[r.object as usize]));
    }

    /// The registrations of the cell with `key`.
    pub(crate) fn run(&self, key: u64) -> Range<usize> {
        let start = self.regs.partition_point(|r| r.key < key);
        let end = start + self.regs[start..].partition_point(|r| r.key == key);
        start..end
    }

    /// Calls `f(cell, registrations)` for every registered cell in `range`
    /// until it breaks. Keys increase with x along a row, so each row of the
    /// range is one binary search and a walk over its registered cells; when
    /// the range has more rows than there are registrations, all cells are
    /// walked and filtered instead.
    pub(crate) fn for_each_cell_in(
        &self,
        range: &CellRange,
        mut f: impl FnMut(CellCoord, Range<usize>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some(range) = self.clip(range) else {
            return ControlFlow::Continue(());
        };
        let rows = (i64::from(range.max[1]) - i64::from(range.min[1]) + 1) as u128
            * (i64::from(range.max[2]) - i64::from(range.min[2]) + 1) as u128;
        if rows > self.regs.len() as u128 {
            for run in self.runs() {
                let c = self.coords(self.regs[run.start].key);
                if range.contains(c) {
                    f(c, run)?;
                }
            }
            return ControlFlow::Continue(());
        }
        for z in range.min[2]..=range.max[2] {
            for y in range.min[1]..=range.max[1] {
                self.for_each_cell_in_row(range.min[0], range.max[0], y, z, &mut f)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Calls `f(cell, registrations)` for every registered cell of row
    /// `(y, z)` with x in `[x0, x1]` (clipped to the bounds of a dense
    /// level), in order, until it breaks.
    pub(crate) fn for_each_cell_in_row(
        &self,
        x0: i32,
        x1: i32,
        y: i32,
        z: i32,
        mut f: impl FnMut(CellCoord, Range<usize>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let row = CellRange {
            min: [x0, y, z],
            max: [x1, y, z],
        };
        let Some(row) = self.clip(&row) else {
            return ControlFlow::Continue(());
        };
        let first = self.key(row.min);
        let last = self.key(row.max);
        let mut start = self.regs.partition_point(|r| r.key < first);
        while start < self.regs.len() && self.regs[start].key <= last {
            let key = self.regs[start].key;
            let mut end = start + 1;
            while end < self.regs.len() && self.regs[end].key == key {
                end += 1;
            }
            f(self.coords(key), start..end)?;
            start = end;
        }
        ControlFlow::Continue(())
    }

    /// The runs of registrations that share a cell, in key order.
    pub(crate) fn runs(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        let mut start = 0;
        std::iter::from_fn(move || {
            if start >= self.regs.len() {
                return None;
            }
            let key = self.regs[start].key;
            let len = self.regs[start..]
                .iter()
                .position(|r| r.key != key)
                .unwrap_or(self.regs.len() - start);
            let run = start..start + len;
            start += len;
            Some(run)
        })
    }

    /// Number of registered cells.
    pub(crate) fn occupied_cells(&self) -> usize {
        self.runs().count()
    }
}
