//! Configuring a grid and registering objects: which level, which cells,
//! or the overflow list; hysteresis between levels. Registration is
//! recorded here and applied to the levels' sorted entries at the next step.

use super::cells::{CellFrame, CellRange};
use super::config::{MAX_DENSE_CELLS, auto_cell_size};
use super::core::{Grid, GridKind, Place};
use super::level::Level;
use crate::broad::batch::{MovesChecked, SlotSplit, apply_split, check_moves, cut};
use crate::broad::contract::{BroadPhase, check_batch_lengths};
use crate::broad::parallel::parts_for;
use crate::error::Error;
use crate::geometry::{Aabb, Vector};
use crate::handle::Handle;
use crate::math;

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
                    // An axis narrower than a cell counts one cell whatever
                    // the size, so one scaling by the per-axis share may
                    // leave too many cells (bounds 10^30 long and 1 wide);
                    // each round grows the cell by at least 0.1%, and one
                    // as long as the bounds gives a single cell.
                    while cells_for(size) > MAX_DENSE_CELLS {
                        let share =
                            math::powf(cells_for(size) / MAX_DENSE_CELLS, 1.0 / V::DIM as f64);
                        size *= share.max(1.001);
                    }
                    cell = (size as f32).min(f32::MAX);
                    size = f64::from(cell);
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
        self.level_rule().cell(level)
    }

    /// What decides the objects' levels, as the batch kernel takes it.
    fn level_rule(&self) -> LevelRule {
        LevelRule {
            hierarchical: self.kind == GridKind::Hierarchical,
            base_cell: self.base_cell,
            top_level: self.top_level,
            demote_ratio: self.config.demote_ratio,
        }
    }

    /// The level for object `i` (see [`LevelRule::level_for`]).
    fn level_for(&self, i: u32, current: Option<u8>) -> Option<u8> {
        self.level_rule()
            .level_for(&self.boxes[i as usize], current)
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

    /// Gives live object `i` a new box and re-registers it.
    #[inline]
    pub(super) fn move_object(&mut self, i: u32, aabb: Aabb<V>) {
        self.boxes[i as usize] = aabb;
        self.relocate(i);
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
        let (outcome, changes) = shift_within_level(
            self.level_rule(),
            &self.levels,
            self.config.max_cells_per_object,
            placed_level(&self.places, &self.levels_of, i),
            &self.boxes[index],
            &mut self.ranges[index],
            &mut self.dirty[index],
        );
        self.cell_changes += changes;
        self.settle(i, outcome);
    }

    /// The part of a relocation that stays on the calling thread: listing
    /// a newly dirty object, or moving it to another level, the overflow
    /// list or a larger set of cells.
    #[inline]
    fn settle(&mut self, i: u32, outcome: Shift) {
        match outcome {
            Shift::Kept => {}
            Shift::Dirtied => self.dirty_list.push(i),
            Shift::Replace => self.replace(i),
        }
    }

    /// Registers object `i` anew after [`shift_within_level`] could not.
    #[inline(never)]
    fn replace(&mut self, i: u32) {
        let current = placed_level(&self.places, &self.levels_of, i);
        let level = self.level_for(i, current);
        if current.is_some() && level.is_some() && level != current {
            self.level_changes += 1;
        }
        self.unplace(i);
        self.place_at(i, level);
    }

    /// [`BroadPhase::update_many`](crate::BroadPhase::update_many): a
    /// large batch whose slots rise strictly has its boxes stored and its
    /// cell ranges recomputed in parts on the thread pool (see
    /// `broad/batch.rs`), the rest of each relocation follows in move order
    /// on the calling thread; anything else goes move by move.
    pub(super) fn update_batch(
        &mut self,
        handles: &[Handle],
        boxes: &[Aabb<V>],
    ) -> Result<(), Error> {
        check_batch_lengths(handles, boxes)?;
        let parts = parts_for(handles.len());
        let checked = if parts > 1 && !self.levels.is_empty() {
            let live = self.objects.live_handles();
            check_moves(handles, parts, &|h| live.holds(h))
        } else {
            MovesChecked::UNCHECKED
        };
        if !checked.rising {
            for (&handle, &aabb) in handles.iter().zip(boxes) {
                self.update(handle, aabb)?;
            }
            return Ok(());
        }
        // The moves before the first refused one split; from it on one by
        // one, so that its `update` gives the error and stops there.
        let good = checked.first_refused.unwrap_or(handles.len());
        self.update_split(&handles[..good], &boxes[..good], parts);
        for (&handle, &aabb) in handles[good..].iter().zip(&boxes[good..]) {
            self.update(handle, aabb)?;
        }
        Ok(())
    }

    /// The split path of [`Grid::update_batch`] for live handles whose
    /// slots rise strictly.
    fn update_split(&mut self, handles: &[Handle], boxes: &[Aabb<V>], parts: usize) {
        let mut outcomes = std::mem::take(&mut self.outcomes);
        outcomes.clear();
        outcomes.resize(handles.len(), Shift::Kept);
        let (rule, max_cells, levels) = (
            self.level_rule(),
            self.config.max_cells_per_object,
            &self.levels,
        );
        let view = GridSlots {
            base: 0,
            boxes: &mut self.boxes,
            ranges: &mut self.ranges,
            dirty: &mut self.dirty,
            places: &self.places,
            levels_of: &self.levels_of,
        };
        let kernel = |s: &mut GridSlots<'_, V>, slot: u32, aabb: Aabb<V>| {
            let at = (slot - s.base) as usize;
            s.boxes[at] = aabb;
            let placed = placed_level(s.places, s.levels_of, slot);
            let (shift, changes) = shift_within_level(
                rule,
                levels,
                max_cells,
                placed,
                &aabb,
                &mut s.ranges[at],
                &mut s.dirty[at],
            );
            (shift, changes)
        };
        self.cell_changes += apply_split(handles, boxes, &mut outcomes, view, parts, &kernel);
        for (&handle, &outcome) in handles.iter().zip(&outcomes) {
            self.settle(handle.index(), outcome);
        }
        self.outcomes = outcomes;
    }
}

/// What decides an object's level, copied out of the grid so that the
/// batch kernel can use it beside the grid's borrowed arrays.
#[derive(Clone, Copy, Debug)]
struct LevelRule {
    hierarchical: bool,
    base_cell: f32,
    top_level: usize,
    demote_ratio: f32,
}

impl LevelRule {
    /// The cell edge of level `level`.
    fn cell(self, level: usize) -> f32 {
        self.base_cell * (1u32 << level) as f32
    }

    /// The level for a box: the smallest whose cell holds its largest
    /// extent; with hysteresis when it already has one (`current`). `None`:
    /// too big for any level (overflow). Always level 0 outside `hgrid`.
    #[inline(always)]
    fn level_for<V: Vector>(self, aabb: &Aabb<V>, current: Option<u8>) -> Option<u8> {
        if !self.hierarchical {
            return Some(0);
        }
        let size = aabb.size();
        let extent = (0..V::DIM).map(|a| size.axis(a)).fold(0.0f32, f32::max);
        let fresh = (0..=self.top_level)
            .find(|&l| extent <= self.cell(l))
            .map(|l| l as u8);
        match current {
            None => fresh,
            Some(cur) => {
                let cur_level = usize::from(cur);
                let too_big = extent > self.cell(cur_level);
                let too_small =
                    cur_level > 0 && extent < self.demote_ratio * self.cell(cur_level - 1);
                if too_big || too_small {
                    fresh
                } else {
                    Some(cur)
                }
            }
        }
    }
}

/// Object `i`'s level while it is registered in cells.
fn placed_level(places: &[Place], levels_of: &[u8], i: u32) -> Option<u8> {
    (places[i as usize] == Place::Cells).then(|| levels_of[i as usize])
}

/// The outcome of [`shift_within_level`] (one per move in a batch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shift {
    /// Same cells, or new cells of an object already marked dirty.
    Kept,
    /// New cells in the same level, and newly marked dirty: it joins the
    /// dirty list.
    Dirtied,
    /// Another level, too many cells, outside the bounds, or not in cells
    /// at all: unregister and register again.
    Replace,
}

/// Re-registers one object within its level when it can, touching only
/// that object's cell range and dirty flag (so a batch can run it in
/// parts): returns the outcome and the cells left plus entered.
#[inline(always)]
fn shift_within_level<V: Vector>(
    rule: LevelRule,
    levels: &[Level<V>],
    max_cells: u32,
    placed: Option<u8>,
    aabb: &Aabb<V>,
    range: &mut CellRange,
    dirty: &mut bool,
) -> (Shift, u64) {
    let Some(current) = placed.filter(|_| rule.level_for(aabb, placed) == placed) else {
        return (Shift::Replace, 0);
    };
    let target = &levels[usize::from(current)];
    let old = *range;
    let new = target.frame.range_of(aabb);
    // Axis by axis over the dimension only: comparing the whole ranges
    // went through memory and stalled (measured with perf).
    if (0..V::DIM).all(|a| new.min[a] == old.min[a] && new.max[a] == old.max[a]) {
        return (Shift::Kept, 0);
    }
    let new_count = new.count(V::DIM);
    if new_count > u64::from(max_cells) || !target.holds(&new) {
        return (Shift::Replace, 0);
    }
    // Cells left plus cells entered.
    let changes = old.count(V::DIM) + new_count - 2 * old.shared_count(&new, V::DIM);
    *range = new;
    let fresh = !std::mem::replace(dirty, true);
    (if fresh { Shift::Dirtied } else { Shift::Kept }, changes)
}

/// The grid's per-object arrays from slot `base`, as one part of a batch
/// writes them; where objects are placed is only read.
struct GridSlots<'a, V: Vector> {
    base: u32,
    boxes: &'a mut [Aabb<V>],
    ranges: &'a mut [CellRange],
    dirty: &'a mut [bool],
    places: &'a [Place],
    levels_of: &'a [u8],
}

impl<V: Vector> SlotSplit for GridSlots<'_, V> {
    fn split_at_slot(self, slot: u32) -> (Self, Self) {
        let (boxes, boxes_right) = cut(self.boxes, self.base, slot);
        let (ranges, ranges_right) = cut(self.ranges, self.base, slot);
        let (dirty, dirty_right) = cut(self.dirty, self.base, slot);
        let right = GridSlots {
            base: slot,
            boxes: boxes_right,
            ranges: ranges_right,
            dirty: dirty_right,
            places: self.places,
            levels_of: self.levels_of,
        };
        let left = GridSlots {
            base: self.base,
            boxes,
            ranges,
            dirty,
            places: self.places,
            levels_of: self.levels_of,
        };
        (left, right)
    }
}
