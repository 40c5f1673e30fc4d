//! Cells: the integer lattice a grid lays over space, cell ranges, the
//! corner-cell rule that reports each pair once, and 64-bit cell keys.

use crate::geometry::{Aabb, Vector};
use std::ops::ControlFlow;

/// Integer cell coordinates; axes past the dimension are always 0.
pub(crate) type CellCoord = [i32; 3];

/// `1.5 * 2^52`: adding it to an f64 of magnitude below 2^51 rounds it to
/// the nearest integer and leaves that integer in the low bits of the sum
/// (see `CellFrame::cell_on_axis`).
const ROUNDING_BIAS: f64 = 6_755_399_441_055_744.0;

/// 3D cell coordinates are clamped to `-2^20 ..= 2^20 - 1` per axis.
const LIMIT_3D: i32 = (1 << 20) - 1;

/// A cell's 64-bit key, unique per cell and increasing with x along a row
/// (fixed y and z), so a row's cells are contiguous in key order: in 2D the
/// y then x coordinate side by side, in 3D three 21-bit fields z, y, x
/// (coordinates are clamped to fit, see [`CellFrame::cell_of`]).
#[inline]
pub(crate) fn hashed_key(c: CellCoord, dim: usize) -> u64 {
    if dim == 2 {
        (u64::from(c[1] as u32 ^ 0x8000_0000) << 32) | u64::from(c[0] as u32 ^ 0x8000_0000)
    } else {
        let field = |v: i32| (i64::from(v) + i64::from(LIMIT_3D) + 1) as u64;
        (field(c[2]) << 42) | (field(c[1]) << 21) | field(c[0])
    }
}

/// The cell of a [`hashed_key`].
pub(crate) fn hashed_coords(key: u64, dim: usize) -> CellCoord {
    if dim == 2 {
        [
            (key as u32 ^ 0x8000_0000) as i32,
            ((key >> 32) as u32 ^ 0x8000_0000) as i32,
            0,
        ]
    } else {
        let field =
            |shift: u32| (((key >> shift) & 0x1f_ffff) as i64 - i64::from(LIMIT_3D) - 1) as i32;
        [field(0), field(21), field(42)]
    }
}

/// The map from world coordinates to cells: `floor((x - origin) / size)`,
/// computed in f64 and saturated (to `i32` in 2D, to 21 bits per axis in 3D
/// so a cell packs into a 64-bit key), so it is monotone for every finite
/// input: huge coordinates land in the outermost cells, never wrap.
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

    /// The corner of cell 0, in world units.
    pub(crate) fn origin(&self) -> [f64; 3] {
        self.origin
    }

    /// The cell on `axis` saturated to `-limit - 1 ..= limit`. The scaled
    /// coordinate is clamped in f64 first (clamping commutes with floor at
    /// integer bounds), then rounded to the nearest integer by adding
    /// [`ROUNDING_BIAS`] (the sum's low 32 bits are that integer, in two's
    /// complement) and stepped down when the rounding went up: a floor with
    /// no libm call (the baseline x86-64 target has no rounding
    /// instruction) and no saturating conversion, whose checks for NaN and
    /// range were a large share of `Grid::update` (measured with perf),
    /// though the value is already clamped.
    #[inline]
    fn cell_on_axis(&self, x: f32, axis: usize, limit: i32) -> i32 {
        let v = (f64::from(x) - self.origin[axis]) * self.inv_size;
        let v = v.max(-f64::from(limit) - 1.0).min(f64::from(limit));
        let biased = v + ROUNDING_BIAS;
        let nearest = biased.to_bits() as i32;
        nearest - i32::from(biased - ROUNDING_BIAS > v)
    }

    /// The world coordinate where cell `c` starts on `axis`.
    pub(crate) fn cell_start(&self, c: i32, axis: usize) -> f64 {
        self.origin[axis] + f64::from(c) * self.size
    }

    /// The index of the cell holding coordinate `x` on `axis`, unsaturated
    /// (so possibly beyond the cells that exist).
    pub(crate) fn cell_index_f64(&self, x: f64, axis: usize) -> f64 {
        ((x - self.origin[axis]) * self.inv_size).floor()
    }

    /// The largest cell index on an axis in dimension `dim`: cells beyond
    /// saturate into it.
    pub(crate) fn limit(dim: usize) -> i32 {
        if dim == 3 { LIMIT_3D } else { i32::MAX }
    }

    #[inline]
    pub(crate) fn cell_of<V: Vector>(&self, p: V) -> CellCoord {
        let limit = Self::limit(V::DIM);
        let mut c = [0; 3];
        for (axis, slot) in c.iter_mut().enumerate().take(V::DIM) {
            *slot = self.cell_on_axis(p.axis(axis), axis, limit);
        }
        c
    }

    /// The corner cell of two boxes: the cell holding the lower corner of
    /// their overlap. Because the map is monotone, it is also the largest of
    /// their lowest cells per axis, `max(cell(a.min), cell(b.min))`, so both
    /// boxes cover it (when they overlap) and reporting a pair only in this
    /// cell reports it exactly once, with no set. A query region counts as
    /// a box here. The grid finds this cell from its registrations' bits
    /// ([`super::level::Reg::is_corner`]); this is the definition the tests
    /// hold them to.
    #[cfg(test)]
    pub(crate) fn overlap_corner<V: Vector>(&self, a: &Aabb<V>, b: &Aabb<V>) -> CellCoord {
        self.cell_of(a.min().max_each(b.min()))
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
    /// Number of cells, saturating at `u64::MAX` for the widest ranges.
    /// Only the first `dim` axes are read (the others hold one cell), which
    /// saves a saturating product per call in 2D.
    #[inline]
    pub(crate) fn count(&self, dim: usize) -> u64 {
        (0..dim)
            .map(|a| (i64::from(self.max[a]) - i64::from(self.min[a]) + 1) as u64)
            .fold(1u64, u64::saturating_mul)
    }

    #[inline]
    pub(crate) fn contains(&self, c: CellCoord) -> bool {
        (0..3).all(|a| self.min[a] <= c[a] && c[a] <= self.max[a])
    }

    /// Number of cells in both ranges (0 when disjoint), without branches;
    /// reads the first `dim` axes, as [`CellRange::count`] does.
    #[inline]
    pub(crate) fn shared_count(&self, other: &CellRange, dim: usize) -> u64 {
        (0..dim)
            .map(|a| {
                let low = i64::from(self.min[a].max(other.min[a]));
                let high = i64::from(self.max[a].min(other.max[a]));
                (high - low + 1).max(0) as u64
            })
            .fold(1u64, u64::saturating_mul)
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

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn negative_coordinates_map_with_floor() {
        let frame = CellFrame::new([0.0; 3], 10.0);
        assert_eq!(
            frame.cell_on_axis(-0.5, 0, i32::MAX),
            -1,
            "floor, not truncation toward zero"
        );
        assert_eq!(frame.cell_on_axis(-10.0, 0, i32::MAX), -1);
        assert_eq!(frame.cell_on_axis(-10.01, 0, i32::MAX), -2);
        assert_eq!(frame.cell_on_axis(9.99, 0, i32::MAX), 0);
        assert_eq!(frame.cell_on_axis(10.0, 0, i32::MAX), 1);
    }

    #[test]
    fn keys_round_trip_and_are_unique_per_cell() {
        for dim in [2, 3] {
            let lim = if dim == 2 { i32::MAX } else { LIMIT_3D };
            let z = |v: i32| if dim == 3 { v } else { 0 };
            let cells = [
                [0, 0, 0],
                [-1, 0, z(0)],
                [0, -1, z(1)],
                [lim, -lim - 1, z(lim)],
                [-lim - 1, lim, z(-lim - 1)],
                [7, -3, z(-9)],
            ];
            let keys: Vec<u64> = cells.iter().map(|c| hashed_key(*c, dim)).collect();
            for (c, k) in cells.iter().zip(&keys) {
                assert_eq!(hashed_coords(*k, dim), *c, "dim {dim}");
            }
            let mut unique = keys.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), keys.len());
        }
    }

    #[test]
    fn huge_coordinates_saturate_monotonically() {
        let frame = CellFrame::new([0.0; 3], 1.0);
        assert_eq!(frame.cell_on_axis(3.0e38, 0, i32::MAX), i32::MAX);
        assert_eq!(frame.cell_on_axis(-3.0e38, 0, i32::MAX), i32::MIN);
        let frame3 = CellFrame::new([0.0; 3], 1.0);
        let far = frame3.cell_of(glam::Vec3::new(3.0e38, -3.0e38, 5.0));
        assert_eq!(far, [LIMIT_3D, -LIMIT_3D - 1, 5]);
        let wide = CellRange {
            min: [i32::MIN, 0, 0],
            max: [i32::MAX, 0, 0],
        };
        assert_eq!(wide.count(2), 1u64 << 32);
        let widest = CellRange {
            min: [i32::MIN; 3],
            max: [i32::MAX; 3],
        };
        assert_eq!(widest.count(3), u64::MAX, "saturates");
    }

    #[test]
    fn shared_count_agrees_with_the_intersection() {
        let mut rng = crate::test_rng::TestRng::new(11);
        let mut coord = || (rng.next_u64() % 9) as i32 - 4;
        for _ in 0..2000 {
            let mut range = || {
                let (a, b, c, d, e, f) = (coord(), coord(), coord(), coord(), coord(), coord());
                CellRange {
                    min: [a.min(b), c.min(d), e.min(f)],
                    max: [a.max(b), c.max(d), e.max(f)],
                }
            };
            let (r, s) = (range(), range());
            let expected = r.intersect(&s).map_or(0, |i| i.count(3));
            assert_eq!(r.shared_count(&s, 3), expected, "{r:?} and {s:?}");
        }
    }

    /// The corner cell from the two ranges.
    fn corner_cell(a: &CellCoord, b: &CellCoord) -> CellCoord {
        [a[0].max(b[0]), a[1].max(b[1]), a[2].max(b[2])]
    }

    #[test]
    fn corner_cell_is_covered_by_both_boxes() {
        let frame = CellFrame::new([0.0; 3], 4.0);
        let a = Aabb::new(Vec2::new(-3.0, 1.0), Vec2::new(5.0, 9.0)).unwrap();
        let b = Aabb::new(Vec2::new(2.0, -6.0), Vec2::new(11.0, 2.0)).unwrap();
        let (ra, rb) = (frame.range_of(&a), frame.range_of(&b));
        let corner = corner_cell(&ra.min, &rb.min);
        assert!(ra.contains(corner) && rb.contains(corner));
        assert_eq!(corner, frame.overlap_corner(&a, &b));
        assert_eq!(corner, frame.cell_of(Vec2::new(2.0, 1.0)));
    }
}
