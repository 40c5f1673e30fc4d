//! Grid settings and the automatic choice of cell size and bounds.

use super::cells::{CellFrame, hashed_key};
use crate::error::Error;
use crate::geometry::{Aabb, Vector};
use crate::math;

/// Settings of a grid. Every field has an automatic default; see
/// [`GridConfig::default`].
///
/// ```
/// use collide::{Aabb2, Grid, GridConfig, GridKind};
/// use glam::Vec2;
/// let config = GridConfig {
///     cell_size: Some(32.0),
///     bounds: Some(Aabb2::new(Vec2::ZERO, Vec2::splat(1024.0))?),
///     ..GridConfig::default()
/// };
/// let grid: Grid<Vec2> = Grid::with_config(GridKind::Dense, config)?;
/// assert_eq!(grid.cell_size(), Some(32.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridConfig<V: Vector> {
    /// Cell edge length in world units, `> 0`. `None`: chosen at the first
    /// step from the objects present. The dense and hashed grids try 1 to 8
    /// times the 90th percentile of the objects' largest extent and keep
    /// the size with the lowest predicted cost (registrations against
    /// objects sharing a cell, counted on the objects where they are): about
    /// the objects' size when they are crowded, several times it when they
    /// are sparse. The hierarchical grid's level 0 is 1.5 times that
    /// percentile. Both were measured (figures: BENCHMARKS.md and the
    /// demo's cell-size study).
    pub cell_size: Option<f32>,
    /// Dense grid only: the region its cells cover. `None`: the bounds of
    /// the objects present at the first step, plus one cell. Objects
    /// outside go to the overflow list; the hashed grid ignores this.
    pub bounds: Option<Aabb<V>>,
    /// Objects covering more cells than this (world-spanning floors and
    /// walls) go to the overflow list instead of every cell; `>= 1`.
    pub max_cells_per_object: u32,
    /// Hierarchical grid only: an object moves down a level when its largest
    /// extent falls below this share of the lower level's cell (it moves up
    /// as soon as it exceeds its own level's cell). In `(0, 1]`; 0.75 gives
    /// "promote above 8, demote below 6" on cells of 8.
    pub demote_ratio: f32,
}

impl<V: Vector> Default for GridConfig<V> {
    /// Automatic cell size and bounds; at most 16 cells per object; demote
    /// below 0.75 of the lower level's cell.
    fn default() -> Self {
        Self {
            cell_size: None,
            bounds: None,
            max_cells_per_object: 16,
            demote_ratio: 0.75,
        }
    }
}

/// The most cells a dense grid's bounds may span (cell keys stay small and
/// the cell count bounded); larger bounds get larger cells.
pub(crate) const MAX_DENSE_CELLS: f64 = (1u64 << 22) as f64;

/// The hierarchical grid's automatic base cell is this multiple of the
/// 90th percentile extent: against 1.0, 1.5 was faster on `uniform` and
/// even on `clustered` (figures: BENCHMARKS.md).
pub(crate) const CELL_FACTOR: f32 = 1.5;

/// The cell sizes the dense and hashed grids choose from, as multiples of
/// the 90th percentile extent (see [`cost_based_cell_size`]).
const CELL_FACTORS: [f32; 8] = [1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0];

/// What one registration (an object in one cell) costs a step, in units of
/// one candidate test (two objects sharing a cell). Fitted on the shared
/// scenes with the cell size forced to each candidate, and re-fitted once
/// the level's refresh and the pair kernel had changed: 18 moves most
/// scenes' choice one size up, faster or alike, and keeps 3D `clustered`
/// at 2, which a weight above about 20 would raise to a size slower under
/// slow motion (figures: BENCHMARKS.md).
const REGISTRATION_COST: f64 = 18.0;

/// At most this many objects (every k-th) are registered per candidate
/// size to predict its cost.
const COST_SAMPLE: usize = 16_384;

impl<V: Vector> GridConfig<V> {
    /// Checks every setting.
    pub(crate) fn validate(&self) -> Result<(), Error> {
        if let Some(size) = self.cell_size {
            if !(size.is_finite() && size > 0.0) {
                return Err(Error::Setting {
                    name: "cell_size",
                    value: f64::from(size),
                    expected: "a finite number of world units above 0",
                });
            }
        }
        if self.max_cells_per_object == 0 {
            return Err(Error::Setting {
                name: "max_cells_per_object",
                value: 0.0,
                expected: "at least 1",
            });
        }
        if !(self.demote_ratio > 0.0 && self.demote_ratio <= 1.0) {
            return Err(Error::Setting {
                name: "demote_ratio",
                value: f64::from(self.demote_ratio),
                expected: "above 0 and at most 1",
            });
        }
        if let Some(bounds) = self.bounds {
            if (0..V::DIM).any(|a| bounds.size().axis(a) <= 0.0) {
                return Err(Error::Setting {
                    name: "bounds",
                    value: (0..V::DIM)
                        .map(|a| f64::from(bounds.size().axis(a)))
                        .fold(f64::INFINITY, f64::min),
                    expected: "a box with positive extent on every axis",
                });
            }
        }
        Ok(())
    }
}

/// The automatic cell size for `boxes`. With `by_cost` (the dense and
/// hashed grids), the candidate of [`CELL_FACTORS`] times the 90th
/// percentile of their largest extent with the lowest predicted cost (see
/// [`cost_based_cell_size`]); else [`CELL_FACTOR`] times that percentile.
/// For boxes of zero size, the mean spacing of their centres; never zero.
pub(crate) fn auto_cell_size<V: Vector>(
    boxes: &[Aabb<V>],
    max_cells_per_object: u32,
    by_cost: bool,
) -> f32 {
    let mut scratch = CellSizeScratch::default();
    let Some(p90) = p90_extent(boxes, &mut scratch.extents) else {
        return 1.0;
    };
    if p90 > 0.0 && p90.is_finite() {
        if by_cost {
            let sample = CostSample::new(boxes, boxes.len(), max_cells_per_object);
            return cost_based_cell_size(&sample, p90, &mut scratch.keys).0;
        }
        return (CELL_FACTOR * p90).min(f32::MAX);
    }
    // Points: aim for about one object per cell.
    let spread = boxes
        .iter()
        .copied()
        .reduce(|a, b| a.union(&b))
        .map_or(0.0, |b| largest_extent(&b));
    let per_axis = math::powf(boxes.len() as f32, 1.0 / V::DIM as f32);
    let spacing = spread / per_axis;
    if spacing > 0.0 && spacing.is_finite() {
        spacing
    } else {
        1.0
    }
}

/// Reused memory for working out a cell size ([`judge_cell_size`]),
/// so that doing it again allocates nothing.
#[derive(Debug, Default)]
pub(crate) struct CellSizeScratch {
    extents: Vec<f32>,
    keys: Vec<u64>,
}

impl CellSizeScratch {
    /// Room (emptied) for a sample of `boxes` in `dim` dimensions whose
    /// boxes cover on average up to twice 2 cells per axis at the smallest
    /// size tried (boxes at the 90th percentile extent cover up to 2).
    pub(crate) fn reserve(&mut self, boxes: usize, dim: usize) {
        self.extents.clear();
        self.extents.reserve(boxes);
        self.keys.clear();
        self.keys.reserve(boxes << (dim + 1));
    }
}

/// For the objects that `sample` (every k-th of them) stands for,
/// `represented` in all: the cell size a dense or hashed grid would choose
/// now, and the predicted costs of it and of `current` (the size a grid
/// runs with). `None` when the sample's boxes have no positive size to go
/// by.
pub(crate) fn judge_cell_size<V: Vector>(
    sample: &[Aabb<V>],
    represented: usize,
    max_cells_per_object: u32,
    current: f32,
    scratch: &mut CellSizeScratch,
) -> Option<CellVerdict> {
    let (best, best_cost) = choose_cell_size(sample, represented, max_cells_per_object, scratch)?;
    let sample = CostSample::new(sample, represented, max_cells_per_object);
    let current_cost = sample.predicted_cost(current, &mut scratch.keys);
    Some(CellVerdict {
        best,
        best_cost,
        current_cost,
    })
}

/// For the objects that `sample` (every k-th of them) stands for,
/// `represented` in all: the cell size a dense or hashed grid would choose
/// now, and its predicted cost. `None` when the sample's boxes have no
/// positive size to go by.
pub(crate) fn choose_cell_size<V: Vector>(
    sample: &[Aabb<V>],
    represented: usize,
    max_cells_per_object: u32,
    scratch: &mut CellSizeScratch,
) -> Option<(f32, f64)> {
    let p90 = p90_extent(sample, &mut scratch.extents)?;
    if !(p90 > 0.0 && p90.is_finite()) {
        return None;
    }
    let sample = CostSample::new(sample, represented, max_cells_per_object);
    Some(cost_based_cell_size(&sample, p90, &mut scratch.keys))
}

/// The 90th percentile of the boxes' largest extent (gathered into
/// `extents`); `None` for none.
fn p90_extent<V: Vector>(boxes: &[Aabb<V>], extents: &mut Vec<f32>) -> Option<f32> {
    extents.clear();
    extents.extend(boxes.iter().map(largest_extent));
    let k = (extents.len() * 9 / 10).min(extents.len().checked_sub(1)?);
    Some(*extents.select_nth_unstable_by(k, f32::total_cmp).1)
}

fn largest_extent<V: Vector>(aabb: &Aabb<V>) -> f32 {
    let size = aabb.size();
    (0..V::DIM).map(|a| size.axis(a)).fold(0.0f32, f32::max)
}

/// The candidate cell size (each of [`CELL_FACTORS`] times `p90`) with the
/// lowest predicted step cost for the `sample`'s boxes where they are: registrations
/// times [`REGISTRATION_COST`] plus candidate tests (pairs of objects
/// sharing a cell), counted by registering a sample of the boxes and
/// scaled up to all of them (registrations grow with the sample, shared
/// cells with its square). Small cells cost registrations (each object
/// covers more cells), large ones cost tests (each cell holds more
/// objects): sparse scenes such as 3D `uniform` want cells several times
/// the objects' size, dense ones such as `flat` about their size. Objects
/// that would cover more than `max_cells_per_object` cells (the overflow
/// list's) are left out. Ties go to the smaller size.
///
/// `keys` is scratch. Returns the size and its predicted cost.
fn cost_based_cell_size<V: Vector>(
    sample: &CostSample<'_, V>,
    p90: f32,
    keys: &mut Vec<u64>,
) -> (f32, f64) {
    let mut best = (CELL_FACTORS[0] * p90, f64::INFINITY);
    for factor in CELL_FACTORS {
        let size = factor * p90;
        if !size.is_finite() {
            break; // boxes near f32::MAX: larger sizes overflow too
        }
        let cost = sample.predicted_cost(size, keys);
        if cost < best.1 {
            best = (size, cost);
        }
    }
    best
}

/// The boxes a cost is predicted from (those of a grid, or a sample of
/// them standing for `represented` objects), every `stride`-th standing
/// for `1 / share` objects.
struct CostSample<'a, V: Vector> {
    boxes: &'a [Aabb<V>],
    stride: usize,
    share: f64,
    max_cells_per_object: u32,
}

impl<'a, V: Vector> CostSample<'a, V> {
    fn new(boxes: &'a [Aabb<V>], represented: usize, max_cells_per_object: u32) -> Self {
        let stride = boxes.len().div_ceil(COST_SAMPLE).max(1);
        let share = boxes.len().div_ceil(stride) as f64 / represented.max(boxes.len()) as f64;
        Self {
            boxes,
            stride,
            share,
            max_cells_per_object,
        }
    }

    /// The predicted step cost of cells of `size` (see
    /// [`cost_based_cell_size`]); `keys` is scratch.
    fn predicted_cost(&self, size: f32, keys: &mut Vec<u64>) -> f64 {
        let frame = CellFrame::new([0.0; 3], size);
        keys.clear();
        let mut registrations = 0u64;
        for aabb in self.boxes.iter().step_by(self.stride) {
            let range = frame.range_of(aabb);
            let count = range.count(V::DIM);
            if count > u64::from(self.max_cells_per_object) {
                continue;
            }
            registrations += count;
            range.for_each(|c| keys.push(hashed_key(c, V::DIM)));
        }
        keys.sort_unstable();
        let tests: u64 = keys
            .chunk_by(|a, b| a == b)
            .map(|run| {
                let k = run.len() as u64;
                k * (k - 1) / 2
            })
            .sum();
        let share = self.share;
        REGISTRATION_COST * registrations as f64 / share + tests as f64 / (share * share)
    }
}

/// What [`judge_cell_size`] found: the cell size a grid would choose now,
/// and the predicted step costs of it and of the size it runs with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CellVerdict {
    /// The size a dense or hashed grid would choose now.
    pub(crate) best: f32,
    /// Its predicted cost.
    pub(crate) best_cost: f64,
    /// The predicted cost of the size the grid runs with.
    pub(crate) current_cost: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn a_lone_object_gets_the_smallest_cell_that_holds_it() {
        // No pairs at any size: registrations decide, and of the sizes
        // that hold the box in one cell the smallest wins the tie.
        let lone = [Aabb::new(glam::Vec2::ZERO, glam::Vec2::new(4.0, 2.0)).unwrap()];
        assert_eq!(auto_cell_size(&lone, 16, true), 6.0);
        // Boxes near the largest float: a finite size, never infinity.
        let huge = [Aabb::new(glam::Vec2::ZERO, glam::Vec2::splat(f32::MAX)).unwrap()];
        for by_cost in [true, false] {
            assert!(auto_cell_size(&huge, 16, by_cost).is_finite());
        }
        // Points get their spacing; nothing gets zero.
        let points =
            [glam::Vec2::ZERO, glam::Vec2::new(9.0, 0.0)].map(|p| Aabb::from_point(p).unwrap());
        assert_eq!(auto_cell_size(&points, 16, true), 9.0 / 2f32.sqrt());
        assert_eq!(auto_cell_size::<glam::Vec2>(&[], 16, true), 1.0);
    }
}
