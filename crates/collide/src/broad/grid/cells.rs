//! Cells: the integer lattice a grid lays over space, and the two ways to
//! store its cells (a dense array over fixed bounds, or a hash of cell
//! coordinates for unbounded space) behind one [`CellStore`].

use crate::geometry::{Aabb, Vector};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::ops::ControlFlow;

/// Integer cell coordinates; axes past the dimension are always 0.
pub(crate) type CellCoord = [i32; 3];

/// The map from world coordinates to cells: `floor((x - origin) / size)`,
/// computed in f64 and saturated to `i32`, so it is monotone for every
/// finite input (huge coordinates land in the outermost cells, never wrap).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CellFrame {
    origin: [f64; 3],
    size: f64,
    inv_size: f64,
}

impl CellFrame {
    pub(crate) fn new(origin: [f64; 3], size: f32) -> Self {
        Self {
            origin,
            size: f64::from(size),
            inv_size: 1.0 / f64::from(size),
        }
    }

    /// The cell edge length, in world units.
    pub(crate) fn size(&self) -> f32 {
        self.size as f32
    }

    #[inline]
    pub(crate) fn cell_on_axis(&self, x: f32, axis: usize) -> i32 {
        // `as` saturates, and floor of a finite f64 is finite.
        ((f64::from(x) - self.origin[axis]) * self.inv_size).floor() as i32
    }

    #[inline]
    pub(crate) fn cell_of<V: Vector>(&self, p: V) -> CellCoord {
        let mut c = [0; 3];
        for (axis, slot) in c.iter_mut().enumerate().take(V::DIM) {
            *slot = self.cell_on_axis(p.axis(axis), axis);
        }
        c
    }

    /// The cells a box covers (both corners' cells, inclusive).
    #[inline]
    pub(crate) fn range_of<V: Vector>(&self, aabb: &Aabb<V>) -> CellRange {
        CellRange {
            min: self.cell_of(aabb.min()),
            max: self.cell_of(aabb.max()),
        }
    }
}

/// An inclusive box of cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct CellRange {
    pub(crate) min: CellCoord,
    pub(crate) max: CellCoord,
}

impl CellRange {
    /// Number of cells, exact even for the widest ranges.
    pub(crate) fn count(&self) -> u128 {
        (0..3)
            .map(|a| (i64::from(self.max[a]) - i64::from(self.min[a]) + 1) as u128)
            .product()
    }

    #[inline]
    pub(crate) fn contains(&self, c: CellCoord) -> bool {
        (0..3).all(|a| self.min[a] <= c[a] && c[a] <= self.max[a])
    }

    /// The overlap of two ranges, if any.
    pub(crate) fn intersect(&self, other: &CellRange) -> Option<CellRange> {
        let mut r = CellRange::default();
        for a in 0..3 {
            r.min[a] = self.min[a].max(other.min[a]);
            r.max[a] = self.max[a].min(other.max[a]);
            if r.min[a] > r.max[a] {
                return None;
            }
        }
        Some(r)
    }

    /// Calls `f` for every cell, x fastest.
    #[inline]
    pub(crate) fn for_each(&self, mut f: impl FnMut(CellCoord)) {
        let _ = self.try_for_each(|c| {
            f(c);
            ControlFlow::Continue(())
        });
    }

    /// Calls `f` for every cell, x fastest, until it breaks.
    #[inline]
    pub(crate) fn try_for_each(
        &self,
        mut f: impl FnMut(CellCoord) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for z in self.min[2]..=self.max[2] {
            for y in self.min[1]..=self.max[1] {
                for x in self.min[0]..=self.max[0] {
                    f([x, y, z])?;
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// The cell with the lower corner of the overlap of two boxes, from their
/// cell ranges: `cell(max(a.min, b.min)) = max(cell(a.min), cell(b.min))`
/// because the cell map is monotone. Both boxes cover it, so reporting a
/// pair only in this cell reports it exactly once, with no set.
#[inline]
pub(crate) fn corner_cell(a: &CellCoord, b: &CellCoord) -> CellCoord {
    [a[0].max(b[0]), a[1].max(b[1]), a[2].max(b[2])]
}

/// Where cells live: turns cell coordinates into slots of a [`CellStore`].
pub(crate) trait CellIndex {
    /// The slot of cell `c`, if it is allocated.
    fn slot(&self, c: CellCoord) -> Option<u32>;
    /// Records that cell `c` now lives in `slot`.
    fn bind(&mut self, c: CellCoord, slot: u32);
    /// Forgets cell `c` (it became empty).
    fn unbind(&mut self, c: CellCoord);
    /// The part of `range` that can hold cells (dense: inside the bounds;
    /// hashed: all of it).
    fn clip(&self, range: &CellRange) -> Option<CellRange>;
}

/// Cells of a dense grid over fixed bounds: a flat table of slots, 4 bytes
/// per cell of the bounds.
#[derive(Clone, Debug)]
pub(crate) struct DenseIndex {
    dims: [i32; 3],
    table: Vec<u32>,
}

impl DenseIndex {
    pub(crate) fn new(dims: [i32; 3]) -> Self {
        let total: usize = dims.iter().map(|&d| d as usize).product();
        Self {
            dims,
            table: vec![u32::MAX; total],
        }
    }

    /// The cells of the bounds.
    pub(crate) fn extent(&self) -> CellRange {
        CellRange {
            min: [0; 3],
            max: [self.dims[0] - 1, self.dims[1] - 1, self.dims[2] - 1],
        }
    }

    #[inline]
    fn linear(&self, c: CellCoord) -> Option<usize> {
        if (0..3).all(|a| 0 <= c[a] && c[a] < self.dims[a]) {
            Some(
                c[0] as usize
                    + self.dims[0] as usize
                        * (c[1] as usize + self.dims[1] as usize * c[2] as usize),
            )
        } else {
            None
        }
    }
}

impl CellIndex for DenseIndex {
    #[inline]
    fn slot(&self, c: CellCoord) -> Option<u32> {
        let s = self.table[self.linear(c)?];
        (s != u32::MAX).then_some(s)
    }

    fn bind(&mut self, c: CellCoord, slot: u32) {
        if let Some(i) = self.linear(c) {
            self.table[i] = slot;
        }
    }

    fn unbind(&mut self, c: CellCoord) {
        if let Some(i) = self.linear(c) {
            self.table[i] = u32::MAX;
        }
    }

    fn clip(&self, range: &CellRange) -> Option<CellRange> {
        range.intersect(&self.extent())
    }
}

/// Cells of a hashed grid: a hash map from cell coordinates to slots, so
/// only occupied cells cost memory and space is unbounded.
#[derive(Clone, Debug, Default)]
pub(crate) struct HashedIndex {
    map: FxHashMap<CellCoord, u32>,
}

impl CellIndex for HashedIndex {
    #[inline]
    fn slot(&self, c: CellCoord) -> Option<u32> {
        self.map.get(&c).copied()
    }

    fn bind(&mut self, c: CellCoord, slot: u32) {
        self.map.insert(c, slot);
    }

    fn unbind(&mut self, c: CellCoord) {
        self.map.remove(&c);
    }

    fn clip(&self, range: &CellRange) -> Option<CellRange> {
        Some(*range)
    }
}

/// Either index, chosen when the grid is configured.
#[derive(Clone, Debug)]
pub(crate) enum AnyIndex {
    Dense(DenseIndex),
    Hashed(HashedIndex),
}

impl CellIndex for AnyIndex {
    #[inline]
    fn slot(&self, c: CellCoord) -> Option<u32> {
        match self {
            AnyIndex::Dense(d) => d.slot(c),
            AnyIndex::Hashed(h) => h.slot(c),
        }
    }

    fn bind(&mut self, c: CellCoord, slot: u32) {
        match self {
            AnyIndex::Dense(d) => d.bind(c, slot),
            AnyIndex::Hashed(h) => h.bind(c, slot),
        }
    }

    fn unbind(&mut self, c: CellCoord) {
        match self {
            AnyIndex::Dense(d) => d.unbind(c),
            AnyIndex::Hashed(h) => h.unbind(c),
        }
    }

    fn clip(&self, range: &CellRange) -> Option<CellRange> {
        match self {
            AnyIndex::Dense(d) => d.clip(range),
            AnyIndex::Hashed(h) => h.clip(range),
        }
    }
}

impl AnyIndex {
    /// Whether every cell of `range` can be stored (dense: inside bounds).
    pub(crate) fn holds(&self, range: &CellRange) -> bool {
        match self {
            AnyIndex::Dense(d) => d.clip(range) == Some(*range),
            AnyIndex::Hashed(_) => true,
        }
    }
}

/// One cell: its coordinates and the objects registered in it. Up to six
/// objects are stored inline, so reading a typical cell is one memory
/// access, not two (measured: the step's pair loop spent 40% of its time
/// waiting for out-of-line lists at 100,000 objects).
#[derive(Clone, Debug, Default)]
pub(crate) struct Cell {
    pub(crate) coords: CellCoord,
    pub(crate) objects: SmallVec<[u32; 6]>,
    /// Position in [`CellStore::occupied`], or `u32::MAX` when empty.
    occupied_at: u32,
    /// Position in [`CellStore::crowded`], or `u32::MAX` with fewer than
    /// two objects.
    crowded_at: u32,
}

/// Cells with their object lists, allocated on demand and recycled when
/// empty (their list memory is kept, so steady state does not allocate).
#[derive(Clone, Debug)]
pub(crate) struct CellStore<I = AnyIndex> {
    pub(crate) index: I,
    pub(crate) cells: Vec<Cell>,
    /// Slots of the non-empty cells.
    pub(crate) occupied: Vec<u32>,
    /// Slots of the cells with two objects or more: the only ones that can
    /// hold a pair, so the step visits only these.
    pub(crate) crowded: Vec<u32>,
    free: Vec<u32>,
}

impl<I: CellIndex> CellStore<I> {
    pub(crate) fn new(index: I) -> Self {
        Self {
            index,
            cells: Vec::new(),
            occupied: Vec::new(),
            crowded: Vec::new(),
            free: Vec::new(),
        }
    }

    /// The slot of cell `c`, if it holds objects.
    #[inline]
    pub(crate) fn index_slot(&self, c: CellCoord) -> Option<u32> {
        self.index.slot(c)
    }

    /// Registers `object` in cell `c`.
    pub(crate) fn add(&mut self, c: CellCoord, object: u32) {
        let slot = match self.index.slot(c) {
            Some(slot) => slot,
            None => {
                let slot = match self.free.pop() {
                    Some(slot) => slot,
                    None => {
                        self.cells.push(Cell {
                            occupied_at: u32::MAX,
                            crowded_at: u32::MAX,
                            ..Cell::default()
                        });
                        (self.cells.len() - 1) as u32
                    }
                };
                self.index.bind(c, slot);
                let cell = &mut self.cells[slot as usize];
                cell.coords = c;
                cell.occupied_at = self.occupied.len() as u32;
                self.occupied.push(slot);
                slot
            }
        };
        let cell = &mut self.cells[slot as usize];
        cell.objects.push(object);
        if cell.objects.len() == 2 {
            cell.crowded_at = self.crowded.len() as u32;
            self.crowded.push(slot);
        }
    }

    /// Unregisters `object` from cell `c`; frees the cell when it empties.
    pub(crate) fn remove(&mut self, c: CellCoord, object: u32) {
        let Some(slot) = self.index.slot(c) else {
            debug_assert!(false, "object {object} is not in cell {c:?}");
            return;
        };
        let cell = &mut self.cells[slot as usize];
        if let Some(k) = cell.objects.iter().position(|&o| o == object) {
            cell.objects.swap_remove(k);
        }
        if cell.objects.len() == 1 {
            let at = cell.crowded_at as usize;
            cell.crowded_at = u32::MAX;
            self.crowded.swap_remove(at);
            if let Some(&moved) = self.crowded.get(at) {
                self.cells[moved as usize].crowded_at = at as u32;
            }
            return;
        }
        let cell = &mut self.cells[slot as usize];
        if cell.objects.is_empty() {
            let at = cell.occupied_at as usize;
            cell.occupied_at = u32::MAX;
            self.occupied.swap_remove(at);
            if let Some(&moved) = self.occupied.get(at) {
                self.cells[moved as usize].occupied_at = at as u32;
            }
            self.index.unbind(c);
            self.free.push(slot);
        }
    }

    /// Calls `f(cell)` for every occupied cell in `range` until it breaks,
    /// visiting at most min(cells in range, occupied cells).
    pub(crate) fn for_each_in(
        &self,
        range: &CellRange,
        mut f: impl FnMut(&Cell) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some(range) = self.index.clip(range) else {
            return ControlFlow::Continue(());
        };
        if range.count() <= self.occupied.len() as u128 {
            range.try_for_each(|c| match self.index.slot(c) {
                Some(slot) => f(&self.cells[slot as usize]),
                None => ControlFlow::Continue(()),
            })
        } else {
            for &slot in &self.occupied {
                let cell = &self.cells[slot as usize];
                if range.contains(cell.coords) {
                    f(cell)?;
                }
            }
            ControlFlow::Continue(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn negative_coordinates_map_with_floor() {
        let frame = CellFrame::new([0.0; 3], 10.0);
        assert_eq!(
            frame.cell_on_axis(-0.5, 0),
            -1,
            "floor, not truncation toward zero"
        );
        assert_eq!(frame.cell_on_axis(-10.0, 0), -1);
        assert_eq!(frame.cell_on_axis(-10.01, 0), -2);
        assert_eq!(frame.cell_on_axis(9.99, 0), 0);
        assert_eq!(frame.cell_on_axis(10.0, 0), 1);
    }

    #[test]
    fn huge_coordinates_saturate_monotonically() {
        let frame = CellFrame::new([0.0; 3], 1.0);
        assert_eq!(frame.cell_on_axis(3.0e38, 0), i32::MAX);
        assert_eq!(frame.cell_on_axis(-3.0e38, 0), i32::MIN);
        let wide = CellRange {
            min: [i32::MIN, 0, 0],
            max: [i32::MAX, 0, 0],
        };
        assert_eq!(wide.count(), 1u128 << 32);
    }

    #[test]
    fn corner_cell_is_covered_by_both_boxes() {
        let frame = CellFrame::new([0.0; 3], 4.0);
        let a = Aabb::new(Vec2::new(-3.0, 1.0), Vec2::new(5.0, 9.0)).unwrap();
        let b = Aabb::new(Vec2::new(2.0, -6.0), Vec2::new(11.0, 2.0)).unwrap();
        let (ra, rb) = (frame.range_of(&a), frame.range_of(&b));
        let corner = corner_cell(&ra.min, &rb.min);
        assert!(ra.contains(corner) && rb.contains(corner));
        assert_eq!(corner, frame.cell_of(Vec2::new(2.0, 1.0)));
    }

    #[test]
    fn store_recycles_empty_cells() {
        let mut store = CellStore::new(HashedIndex::default());
        store.add([1, 2, 0], 7);
        store.add([1, 2, 0], 8);
        store.add([-5, 0, 0], 7);
        assert_eq!(store.occupied.len(), 2);
        assert_eq!(store.crowded.len(), 1);
        store.remove([1, 2, 0], 7);
        assert_eq!(store.crowded.len(), 0);
        store.remove([1, 2, 0], 8);
        assert_eq!(store.occupied.len(), 1);
        store.add([9, 9, 0], 1);
        assert_eq!(store.cells.len(), 2, "the freed cell is reused");
        let mut seen = Vec::new();
        let _ = store.for_each_in(
            &CellRange {
                min: [-10, -10, 0],
                max: [10, 10, 0],
            },
            |c| {
                seen.push(c.coords);
                ControlFlow::Continue(())
            },
        );
        seen.sort();
        assert_eq!(seen, vec![[-5, 0, 0], [9, 9, 0]]);
    }

    #[test]
    fn dense_index_clips_to_its_bounds() {
        let index = DenseIndex::new([4, 3, 1]);
        let r = CellRange {
            min: [-2, 1, 0],
            max: [10, 7, 0],
        };
        assert_eq!(
            index.clip(&r),
            Some(CellRange {
                min: [0, 1, 0],
                max: [3, 2, 0]
            })
        );
        assert_eq!(index.slot([4, 0, 0]), None);
    }
}
