//! One level of a grid: its registrations (object, cell) kept sorted by
//! cell key in flat arrays, so a cell's objects are contiguous and the step
//! reads memory in order.
//!
//! Between steps only the objects that changed cells are re-registered
//! (see the `register` module).

mod register;

pub(crate) use register::gather_range;

use super::cells::{CellCoord, CellFrame, CellRange, hashed_coords, hashed_key};
use crate::geometry::{Aabb, Vector};
use std::ops::{ControlFlow, Range};

/// One object registered in one cell: 16 bytes, since the step moves
/// every registration of a level through its sort.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Reg {
    /// The cell's key (see [`Level::key`]).
    pub(crate) key: u64,
    /// The object's slot index.
    pub(crate) object: u32,
    /// Bit `a` set when this cell is the lowest of the object's range on
    /// axis `a`. Two objects sharing a cell report their pair there only
    /// when their bits together cover every axis (see [`Reg::is_corner`]).
    pub(crate) lowest: u8,
}

impl Reg {
    /// Whether the cell of `self` and `other` (registrations of two
    /// overlapping objects in one cell) is their corner cell, the largest
    /// of their lowest cells per axis (`CellFrame::overlap_corner`): both
    /// cover the cell, so on each axis it is at least both lowest cells, and
    /// it is their largest exactly when it is one of them. Integer bits
    /// instead of the floors of the boxes' corner (measured with perf: the
    /// floors were a large share of the pair kernel).
    #[inline]
    pub(crate) fn is_corner(&self, other: &Reg, dim: usize) -> bool {
        (self.lowest | other.lowest) == all_axes(dim)
    }

    /// [`Reg::is_corner`] against a box or query region that is not
    /// registered here but covers `cell` with the cells `range`: its own
    /// bits come from the range.
    #[inline]
    pub(crate) fn is_corner_with(&self, range: &CellRange, cell: CellCoord, dim: usize) -> bool {
        (self.lowest | lowest_bits(range, cell, dim)) == all_axes(dim)
    }

    /// The registration as one 64-bit word, `key << 35 | lowest << 32 |
    /// object`, for keys below 2^29 (a dense level's; see
    /// [`super::config::MAX_DENSE_CELLS`]).
    #[inline]
    fn pack(self) -> u64 {
        debug_assert!(self.key < 1 << (64 - PACKED_KEY_SHIFT));
        self.key << PACKED_KEY_SHIFT | u64::from(self.lowest) << 32 | u64::from(self.object)
    }

    /// The registration [`Reg::pack`] packed.
    #[inline]
    fn unpack(packed: u64) -> Reg {
        Reg {
            key: packed >> PACKED_KEY_SHIFT,
            object: packed as u32,
            lowest: (packed >> 32) as u8 & 0b111,
        }
    }
}

/// Where [`Reg::pack`] puts the key: above the object (32 bits) and the
/// lowest-cell bits (3).
const PACKED_KEY_SHIFT: u32 = 35;

/// The [`Reg::lowest`] bits of every axis of dimension `dim`.
#[inline]
fn all_axes(dim: usize) -> u8 {
    (1u8 << dim) - 1
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
    /// The box of each registration's object, copied at each step.
    pub(crate) boxes: Vec<Aabb<V>>,
    /// The merge with branches writes here, then swaps with `regs`.
    next: Vec<Reg>,
    /// Hashed levels: the new registrations, and the radix sort's scratch,
    /// which then holds the kept ones for the merge without branches.
    incoming: Vec<Reg>,
    scratch: Vec<Reg>,
    /// Dense levels: the same two, with registrations packed by
    /// [`Reg::pack`].
    packed: Vec<u64>,
    packed_scratch: Vec<u64>,
    /// Where a merge split across threads cuts the registrations.
    cuts: MergeCuts,
}

/// The bookkeeping of a merge split across threads, kept between steps.
#[derive(Debug, Default)]
struct MergeCuts {
    /// Part boundaries in the registrations (parts + 1).
    bounds: Vec<usize>,
    /// Kept registrations per part.
    kept: Vec<usize>,
    /// Where each part's fresh registrations start (parts + 1).
    fresh_at: Vec<usize>,
    /// Where each part's output starts (parts + 1).
    offsets: Vec<usize>,
}

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
            packed: Vec::new(),
            packed_scratch: Vec::new(),
            cuts: MergeCuts::default(),
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

    /// A dense level's bounds: the region its cells cover; `None` for a
    /// hashed level.
    pub(crate) fn dense_bounds(&self) -> Option<Aabb<V>> {
        let dims = self.dims?;
        let (origin, size) = (self.frame.origin(), f64::from(self.frame.size()));
        let corner = |a: usize, cells: i32| (origin[a] + f64::from(cells) * size) as f32;
        Aabb::new(
            V::from_axes(|a| corner(a, 0)),
            V::from_axes(|a| corner(a, dims[a])),
        )
        .ok()
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
    #[inline]
    pub(crate) fn holds(&self, range: &CellRange) -> bool {
        match self.dims {
            // Every axis at once (`&`, not `&&`): objects near the bounds
            // make the outcome hard to predict per axis.
            Some(d) => (0..3).fold(true, |inside, a| {
                inside & (range.min[a] >= 0) & (range.max[a] < d[a])
            }),
            None => true,
        }
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

/// [`Reg::lowest`] of cell `c` in `range`.
fn lowest_bits(range: &CellRange, c: CellCoord, dim: usize) -> u8 {
    (0..dim).fold(0, |bits, a| bits | u8::from(c[a] == range.min[a]) << a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::grid::config::MAX_DENSE_CELLS;

    #[test]
    fn packed_registrations_round_trip() {
        // Dense keys stay far below what packing holds, even when rounding
        // the cells per axis up adds a row or a column.
        assert!(4.0 * MAX_DENSE_CELLS < (1u64 << (64 - PACKED_KEY_SHIFT)) as f64);
        for reg in [
            Reg::default(),
            Reg {
                key: (1 << 29) - 1,
                object: u32::MAX,
                lowest: 0b111,
            },
            Reg {
                key: 12_345,
                object: 7,
                lowest: 0b010,
            },
        ] {
            assert_eq!(Reg::unpack(reg.pack()), reg);
        }
        let keys = [
            Reg::default().pack(),
            (Reg {
                key: 1,
                ..Reg::default()
            })
            .pack(),
        ];
        assert!(keys[0] >> PACKED_KEY_SHIFT < keys[1] >> PACKED_KEY_SHIFT);
    }

    /// The registrations' bits pick the cell the boxes' corner names, for
    /// two registered boxes and for a box against an unregistered one (a
    /// probe or a query region), on a hashed and a dense level.
    fn corner_bits_agree_with_the_boxes<V: Vector>() {
        let mut rng = crate::test_rng::TestRng::new(29);
        let hashed = Level::<V>::new(CellFrame::new([0.0; 3], 1.5), None);
        let dense = Level::<V>::new(CellFrame::new([-20.0; 3], 1.5), Some([30; 3]));
        let mut random_box = || {
            let low = V::from_axes(|_| rng.range(-4.0, 4.0));
            let size = V::from_axes(|_| rng.range(0.0, 4.0));
            Aabb::new(low, V::from_axes(|a| low.axis(a) + size.axis(a))).unwrap()
        };
        let mut checked = 0;
        for _ in 0..3000 {
            let (a, b) = (random_box(), random_box());
            for level in [&hashed, &dense] {
                let (ra, rb) = (level.frame.range_of(&a), level.frame.range_of(&b));
                let regs = |range: CellRange| {
                    let mut out = Vec::new();
                    level.fill(&mut out, std::iter::once((0, range)), |r| r);
                    out
                };
                let (regs_a, regs_b) = (regs(ra), regs(rb));
                let corner = level.frame.overlap_corner(&a, &b);
                for x in &regs_a {
                    let cell = level.coords(x.key);
                    for y in regs_b.iter().filter(|y| y.key == x.key) {
                        let expected = cell == corner;
                        assert_eq!(x.is_corner(y, V::DIM), expected, "{a:?} {b:?} {cell:?}");
                        assert_eq!(x.is_corner_with(&rb, cell, V::DIM), expected);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked} shared cells checked");
    }

    #[test]
    fn corner_bits_agree_with_the_boxes_in_2d_and_3d() {
        corner_bits_agree_with_the_boxes::<glam::Vec2>();
        corner_bits_agree_with_the_boxes::<glam::Vec3>();
    }
}
