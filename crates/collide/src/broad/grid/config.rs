//! Grid settings and the automatic choice of cell size and bounds.

use crate::error::Error;
use crate::geometry::{Aabb, Vector};

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
    /// step from the sizes of the objects present: 1.5 times the 90th
    /// percentile of their largest extent, so most objects cover at most
    /// 2^D cells (the factor was measured: BENCHMARKS.md, and the demo's
    /// cell-size study).
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
    /// seed 002's "promote above 8, demote below 6".
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

/// The automatic cell size is this multiple of the 90th percentile extent.
/// Measured with collide-bench at 100,000 objects: against 1.0, 1.5 was 10
/// to 15% faster on `uniform` and even on `clustered`; 2.0 was faster still
/// on `uniform` but 10% slower on `clustered`.
pub(crate) const CELL_FACTOR: f32 = 1.5;

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

/// The automatic cell size for `boxes`: [`CELL_FACTOR`] times the 90th
/// percentile of their largest extent; for boxes of zero size, the mean
/// spacing of their centres; never zero.
pub(crate) fn auto_cell_size<V: Vector>(boxes: &mut dyn Iterator<Item = Aabb<V>>) -> f32 {
    let mut extents = Vec::new();
    let mut bounds: Option<Aabb<V>> = None;
    for b in boxes {
        let size = b.size();
        extents.push((0..V::DIM).map(|a| size.axis(a)).fold(0.0f32, f32::max));
        bounds = Some(bounds.map_or(b, |u| u.union(&b)));
    }
    if extents.is_empty() {
        return 1.0;
    }
    let k = (extents.len() * 9 / 10).min(extents.len() - 1);
    let (_, p90, _) = extents.select_nth_unstable_by(k, f32::total_cmp);
    let p90 = *p90;
    if p90 > 0.0 && p90.is_finite() {
        return CELL_FACTOR * p90;
    }
    // Points: aim for about one object per cell.
    let spread = bounds.map_or(0.0, |b| {
        let size = b.size();
        (0..V::DIM).map(|a| size.axis(a)).fold(0.0f32, f32::max)
    });
    let per_axis = (extents.len() as f32).powf(1.0 / V::DIM as f32);
    let spacing = spread / per_axis;
    if spacing > 0.0 && spacing.is_finite() {
        spacing
    } else {
        1.0
    }
}
