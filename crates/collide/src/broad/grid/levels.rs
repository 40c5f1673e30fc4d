//! Configuring a grid and registering objects: which level, which cells,
//! or the overflow list; hysteresis between levels. Registration is
//! recorded here and applied to the levels' sorted entries at the next step.

use super::cells::CellFrame;
use super::config::{MAX_DENSE_CELLS, auto_cell_size};
use super::core::{Grid, GridKind, Place};
use super::level::Level;
use crate::geometry::{Aabb, Vector};

/// Levels of a hierarchical grid: level `L` has cells of `base * 2^L`.
pub(crate) const MAX_LEVELS: usize = 24;

impl<V: Vector, T> Grid<V, T> {
    /// Chooses cell size (and bounds, for the dense kind) from the objects
    /// present and registers them all.
    pub(super) fn configure(&mut self) {
        let live: Vec<u32> = self.objects.iter().map(|(h, _)| h.index()).collect();
        let boxes = &self.boxes;
        let mut cell = self.config.cell_size.unwrap_or_else(|| {
            let live_boxes: Vec<Aabb<V>> = live.iter().map(|&i| boxes[i as usize]).collect();
            let by_cost = self.kind != GridKind::Hierarchical;
            auto_cell_size(&live_boxes, self.config.max_cells_per_object, by_cost)
        });
        let level = match self.kind {
            GridKind::Hashed | GridKind::Hierarchical => {
                Level::new(CellFrame::new([0.0; 3], cell), None)
            }
            GridKind::Dense => {
                let bounds = self.config.bounds.unwrap_or_else(|| {
                    let union = live
                        .iter()
                        .map(|&i| boxes[i as usize])
                        .reduce(|a, b| a.union(&b))
                        .unwrap_or_default();
                    // One cell of margin; `new` fails only if that overflows
                    // to infinity, where the union itself is the best bound.
                    Aabb::new(
                        V::from_axes(|a| union.min().axis(a) - cell),
                        V::from_axes(|a| union.max().axis(a) + cell),
                    )
                    .unwrap_or(union)
                });
                let extent =
                    |a: usize| f64::from(bounds.max().axis(a)) - f64::from(bounds.min().axis(a));
                let cells_for = |size: f64| -> f64 {
                    (0..V::DIM)
                        .map(|a| (extent(a) / size).ceil().max(1.0))
                        .product()
                };
                let mut size = f64::from(cell);
                if cells_for(size) > MAX_DENSE_CELLS {
                    size *= (cells_for(size) / MAX_DENSE_CELLS).powf(1.0 / V::DIM as f64) * 1.0001;
                    cell = size as f32;
                }
                let mut dims = [1; 3];
                for (a, d) in dims.iter_mut().enumerate().take(V::DIM) {
                    *d = (extent(a) / size).ceil().max(1.0) as i32;
                }
                let origin = [0, 1, 2].map(|a| {
                    if a < V::DIM {
                        f64::from(bounds.min().axis(a))
                    } else {
                        0.0
                    }
                });
                Level::new(CellFrame::new(origin, cell), Some(dims))
            }
        };
        self.base_cell = cell;
        // hgrid: the top level's cell is the first to reach a quarter of
        // the world; anything larger is world-spanning and lives apart.
        let world = live
            .iter()
            .map(|&i| boxes[i as usize])
            .reduce(|a, b| a.union(&b))
            .map_or(0.0, |u| {
                (0..V::DIM).map(|a| u.size().axis(a)).fold(0.0f32, f32::max)
            });
        self.top_level = (0..MAX_LEVELS)
            .find(|&l| world > 0.0 && 4.0 * self.level_cell(l) >= world)
            .unwrap_or(MAX_LEVELS - 1);
        self.levels = vec![level];
        for i in live {
            self.place(i);
        }
    }

    /// The cell edge of level `level`.
    fn level_cell(&self, level: usize) -> f32 {
        self.base_cell * (1u32 << level) as f32
    }

    /// The level for object `i`: the smallest whose cell holds its largest
    /// extent; with hysteresis when it already has a level. `None`: too big
    /// for any level (overflow).
    fn level_for(&self, i: u32, current: Option<u8>) -> Option<u8> {
        if self.kind != GridKind::Hierarchical {
            return Some(0);
        }
        let size = self.boxes[i as usize].size();
        let extent = (0..V::DIM).map(|a| size.axis(a)).fold(0.0f32, f32::max);
        let fresh = (0..=self.top_level)
            .find(|&l| extent <= self.level_cell(l))
            .map(|l| l as u8);
        match current {
            None => fresh,
            Some(cur) => {
                let cur_level = usize::from(cur);
                let too_big = extent > self.level_cell(cur_level);
                let too_small = cur_level > 0
                    && extent < self.config.demote_ratio * self.level_cell(cur_level - 1);
                if too_big || too_small {
                    fresh
                } else {
                    Some(cur)
                }
            }
        }
    }

    fn ensure_level(&mut self, level: usize) {
        while self.levels.len() <= level {
            let cell = self.level_cell(self.levels.len());
            self.levels
                .push(Level::new(CellFrame::new([0.0; 3], cell), None));
        }
    }

    /// Registers object `i` by its current box (no-op before configuring).
    pub(super) fn place(&mut self, i: u32) {
        if !self.levels.is_empty() {
            let level = self.level_for(i, None);
            self.place_at(i, level);
        }
    }

    /// Registers object `i` in `level`'s cells, or in the overflow list when
    /// it has no level, does not fit the bounds or covers too many cells.
    fn place_at(&mut self, i: u32, level: Option<u8>) {
        let index = i as usize;
        if let Some(l) = level {
            self.ensure_level(usize::from(l));
            let target = &self.levels[usize::from(l)];
            let range = target.frame.range_of(&self.boxes[index]);
            let fits = range.count(V::DIM) <= u64::from(self.config.max_cells_per_object)
                && target.holds(&range);
            if fits {
                self.cell_changes += range.count(V::DIM);
                self.ranges[index] = range;
                self.levels_of[index] = l;
                self.places[index] = Place::Cells;
                self.mark_dirty(i);
                return;
            }
        }
        self.places[index] = Place::Overflow(self.overflow.len() as u32);
        self.overflow.push(i);
    }

    /// Unregisters object `i`.
    pub(super) fn unplace(&mut self, i: u32) {
        let index = i as usize;
        match self.places[index] {
            Place::Unplaced => {}
            Place::Cells => {
                self.cell_changes += self.ranges[index].count(V::DIM);
                self.mark_dirty(i);
            }
            Place::Overflow(at) => {
                self.overflow.swap_remove(at as usize);
                if let Some(&moved) = self.overflow.get(at as usize) {
                    self.places[moved as usize] = Place::Overflow(at);
                }
            }
        }
        self.places[index] = Place::Unplaced;
    }

    /// Re-registers object `i` after its box changed. Within its level, an
    /// object that stays in the same cells costs nothing; one that changes
    /// cells is marked for re-registration at the next step. A change of
    /// level (or to or from the overflow list) happens within this call, so
    /// no query ever sees the object missing.
    pub(super) fn relocate(&mut self, i: u32) {
        if self.levels.is_empty() {
            return;
        }
        let index = i as usize;
        let current = (self.places[index] == Place::Cells).then_some(self.levels_of[index]);
        let level = self.level_for(i, current);
        if current.is_some() && level == current {
            let target = &self.levels[usize::from(self.levels_of[index])];
            let old = self.ranges[index];
            let new = target.frame.range_of(&self.boxes[index]);
            // Axis by axis over the dimension only: comparing the whole
            // ranges went through memory and stalled (measured with perf).
            if (0..V::DIM).all(|a| new.min[a] == old.min[a] && new.max[a] == old.max[a]) {
                return;
            }
            let new_count = new.count(V::DIM);
            let fits =
                new_count <= u64::from(self.config.max_cells_per_object) && target.holds(&new);
            if fits {
                // Cells left plus cells entered.
                self.cell_changes +=
                    old.count(V::DIM) + new_count - 2 * old.shared_count(&new, V::DIM);
                self.ranges[index] = new;
                self.mark_dirty(i);
                return;
            }
        } else if current.is_some() && level.is_some() {
            self.level_changes += 1;
        }
        self.unplace(i);
        self.place_at(i, level);
    }
}
