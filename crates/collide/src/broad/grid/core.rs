//! [`Grid`]: the grid broad phase, one implementation for the dense grid
//! (`grid`), the hashed grid (`hashgrid`) and the hierarchical grid
//! (`hgrid`), in 2D and 3D.

use super::cells::CellRange;
use super::config::GridConfig;
use super::level::Level;
use super::levels::Shift;
use super::pairs::{PairScratch, grid_pairs};
use crate::broad::Query;
use crate::broad::contract::{BroadPhase, StepStats};
use crate::broad::events::{FrameEvents, Pair, PairTracker};
use crate::broad::query::{QueryBudget, QueryStats, queries_by_search};
use crate::broad::snapshot::Snapshot;
use crate::error::Error;
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::{Handle, Slots};
use std::ops::ControlFlow;
use std::sync::Arc;

/// Which cell storage a [`Grid`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridKind {
    /// `grid`: one level, a flat table over fixed bounds; objects outside
    /// go to the overflow list.
    Dense,
    /// `hashgrid`: one level, a hash of cell coordinates; unbounded, memory
    /// only for occupied cells.
    Hashed,
    /// `hgrid`: hashed levels whose cell size doubles per level; each
    /// object lives in the level that fits its size, with hysteresis.
    Hierarchical,
}

/// Counters of a grid's last step, beside the common [`StepStats`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GridStats {
    /// The cell edge length of level 0, in world units (0 before the first
    /// step chose it).
    pub cell_size: f32,
    /// Levels holding at least one object (1 for `grid` and `hashgrid`).
    pub levels: usize,
    /// Cells holding at least one object, over all levels.
    pub occupied_cells: usize,
    /// Objects in the overflow list (outside the dense bounds, or covering
    /// more than `max_cells_per_object` cells, or larger than the top
    /// level).
    pub overflow_objects: usize,
    /// Cell list insertions and removals since the previous step.
    pub cell_changes: u64,
    /// Objects that moved to another level since the previous step.
    pub level_changes: u64,
}

/// Where an object is registered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// Not registered: the grid is not configured yet, or the slot is free.
    Unplaced,
    /// In every cell of its range, in level `levels_of[i]`.
    Cells,
    /// In the overflow list at this position.
    Overflow(u32),
}

/// A grid broad phase: `grid` (dense), `hashgrid` (hashed) or `hgrid`
/// (hierarchical); see [`GridKind`].
///
/// Each object is registered in every cell its box covers. A step tests the
/// objects that share a cell and reports a pair only in the cell holding the
/// lower corner of the two boxes' overlap, so each pair comes once without a
/// set. Only objects that change cells touch the cell lists. Events come from
/// a merge of this step's sorted pairs with the last step's.
///
/// Objects outside a dense grid's bounds, and objects covering more than
/// [`GridConfig::max_cells_per_object`] cells (floors, walls), live in an
/// overflow list: they are tested against the cells their box covers and
/// against each other by a sweep, never lost.
///
/// The hierarchical grid keeps one hashed level per size class, the cell
/// size doubling per level. An object moves up a level when its largest
/// extent exceeds its level's cell and down only when it falls below
/// [`GridConfig::demote_ratio`] times the cell of the level below (the
/// gap keeps an object whose size hovers at a boundary from moving every
/// frame). Objects are tested against their
/// own level's cells and probe every coarser level. Objects larger than a
/// quarter of the world (the objects' extent when the grid was configured)
/// live in the overflow list, so floors and walls do not sit in one coarse
/// cell that every small object probes.
///
/// Pick a grid for scenes of similar-sized objects spread evenly, the hashed kind when the world has no bounds, the hierarchical
/// kind when sizes vary by orders of magnitude. Cost per step: O(occupied
/// cells + objects per cell²), plus one probe per object and coarser level
/// for `hgrid`; memory: about 40 bytes per (object, cell) registration.
///
/// With the `parallel` feature (on by default), a step over a level of
/// 16,384 registrations or more is cut between cells into parts that run
/// on rayon's current thread pool when it has more than one thread; the
/// events are the same on any number of threads. Step inside a pool of
/// your own to choose the threads:
///
/// ```
/// use collide::{Aabb2, BroadPhase, Grid};
/// use glam::Vec2;
/// let mut grid: Grid<Vec2> = Grid::hashed();
/// for i in 0..100 {
///     let x = i as f32;
///     grid.insert(Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 1.5, 1.0))?, ())?;
/// }
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let started = pool.install(|| grid.step().started.len());
/// assert_eq!(started, 99);
/// # Ok::<(), collide::Error>(())
/// ```
///
/// ```
/// use collide::{Aabb2, BroadPhase, Grid, Pair};
/// use glam::Vec2;
/// let mut grid: Grid<Vec2> = Grid::hashed();
/// let a = grid.insert(Aabb2::new(Vec2::new(-5.0, -5.0), Vec2::new(1.0, 1.0))?, ())?;
/// let b = grid.insert(Aabb2::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 2.0))?, ())?;
/// assert_eq!(grid.step().started, vec![Pair::new(a, b)]);
/// assert!(grid.grid_stats().cell_size > 0.0); // chosen from the objects
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Debug)]
pub struct Grid<V: Vector, T = ()> {
    pub(super) kind: GridKind,
    pub(super) config: GridConfig<V>,
    pub(super) objects: Slots<T>,
    /// Per slot index: the box, its cell range (in its level's frame), its
    /// level and where it is registered.
    pub(super) boxes: Vec<Aabb<V>>,
    pub(super) ranges: Vec<CellRange>,
    pub(super) levels_of: Vec<u8>,
    pub(super) places: Vec<Place>,
    /// Empty until configured; one level except for `hgrid`.
    pub(super) levels: Vec<Level<V>>,
    /// Objects whose registrations are out of date (inserted, removed,
    /// changed cells or level) since the last step, each once.
    pub(super) dirty: Vec<bool>,
    pub(super) dirty_list: Vec<u32>,
    /// Scratch of [`update_many`](BroadPhase::update_many): one outcome
    /// per move of a split batch.
    pub(super) outcomes: Vec<Shift>,
    pub(super) base_cell: f32,
    /// `hgrid`: the highest level; larger objects go to the overflow list.
    pub(super) top_level: usize,
    pub(super) overflow: Vec<u32>,
    tracker: PairTracker,
    scratch: PairScratch,
    stats: StepStats,
    pub(super) cell_changes: u64,
    pub(super) level_changes: u64,
    last: (u64, u64),
}

impl<V: Vector, T> Grid<V, T> {
    /// A dense grid (`grid`) with automatic cell size and bounds, both chosen
    /// at the first step from the objects present.
    ///
    /// ```
    /// use collide::{BroadPhase, Grid, GridKind, Query};
    /// let grid: Grid<glam::Vec2> = Grid::dense();
    /// assert_eq!((grid.kind(), grid.name()), (GridKind::Dense, "grid"));
    /// assert_eq!(grid.cell_size(), None); // not chosen yet
    /// ```
    pub fn dense() -> Self {
        Self::build(GridKind::Dense, GridConfig::default())
    }

    /// A hashed grid (`hashgrid`) with automatic cell size.
    ///
    /// ```
    /// use collide::{BroadPhase, Grid, Query};
    /// let grid: Grid<glam::Vec3> = Grid::hashed();
    /// assert_eq!(grid.name(), "hashgrid");
    /// ```
    pub fn hashed() -> Self {
        Self::build(GridKind::Hashed, GridConfig::default())
    }

    /// A hierarchical grid (`hgrid`) with automatic base cell size.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Grid, GridConfig, GridKind};
    /// use glam::Vec2;
    /// let config = GridConfig { cell_size: Some(2.0), ..GridConfig::default() };
    /// let mut grid: Grid<Vec2> = Grid::with_config(GridKind::Hierarchical, config)?;
    /// let pebble = grid.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// let rock = grid.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(30.0))?, ())?;
    /// grid.step();
    /// assert!(grid.level_of(rock) > grid.level_of(pebble));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn hierarchical() -> Self {
        Self::build(GridKind::Hierarchical, GridConfig::default())
    }

    /// A grid of `kind` with these settings, or an error naming a bad one.
    /// `bounds` only matters to the dense kind; for `hgrid`, `cell_size` is
    /// the cell of level 0.
    ///
    /// ```
    /// use collide::{Error, Grid, GridConfig, GridKind};
    /// let bad = GridConfig { cell_size: Some(-1.0), ..GridConfig::default() };
    /// let err = Grid::<glam::Vec2>::with_config(GridKind::Hashed, bad).unwrap_err();
    /// assert!(matches!(err, Error::Setting { name: "cell_size", .. }));
    /// ```
    pub fn with_config(kind: GridKind, config: GridConfig<V>) -> Result<Self, Error> {
        config.validate()?;
        Ok(Self::build(kind, config))
    }

    /// An empty grid; configured at once when its settings fix the cells
    /// (else at the first step).
    fn build(kind: GridKind, config: GridConfig<V>) -> Self {
        let mut grid = Self::unconfigured(kind, config, Slots::new());
        let settled =
            config.cell_size.is_some() && (kind != GridKind::Dense || config.bounds.is_some());
        if settled {
            grid.configure();
        }
        grid
    }

    /// A grid holding `objects` with nothing else filled in: no boxes, no
    /// levels (a snapshot copies them in after).
    fn unconfigured(kind: GridKind, config: GridConfig<V>, objects: Slots<T>) -> Self {
        Self {
            kind,
            config,
            objects,
            boxes: Vec::new(),
            ranges: Vec::new(),
            levels_of: Vec::new(),
            places: Vec::new(),
            levels: Vec::new(),
            dirty: Vec::new(),
            dirty_list: Vec::new(),
            outcomes: Vec::new(),
            base_cell: 0.0,
            top_level: 0,
            overflow: Vec::new(),
            tracker: PairTracker::default(),
            scratch: PairScratch::default(),
            stats: StepStats::default(),
            cell_changes: 0,
            level_changes: 0,
            last: (0, 0),
        }
    }

    /// Dense, hashed or hierarchical.
    ///
    /// ```
    /// use collide::{Grid, GridKind};
    /// assert_eq!(Grid::<glam::Vec2>::hierarchical().kind(), GridKind::Hierarchical);
    /// ```
    pub fn kind(&self) -> GridKind {
        self.kind
    }

    /// The cell edge length (of level 0), once chosen: at construction when
    /// given, else at the first step with objects.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Grid};
    /// use glam::Vec2;
    /// let mut grid: Grid<Vec2> = Grid::hashed();
    /// grid.insert(Aabb2::new(Vec2::ZERO, Vec2::new(4.0, 2.0))?, ())?;
    /// grid.step();
    /// // Alone, the box wants the smallest cell that holds it in one piece
    /// // (of 1, 1.5, 2, ... times its largest extent; see GridConfig).
    /// assert_eq!(grid.cell_size(), Some(6.0));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn cell_size(&self) -> Option<f32> {
        self.levels.first().map(|l| l.frame.size())
    }

    /// Counters of the last step.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Grid, GridConfig, GridKind};
    /// use glam::Vec2;
    /// let config = GridConfig { cell_size: Some(2.0), ..GridConfig::default() };
    /// let mut grid: Grid<Vec2> = Grid::with_config(GridKind::Hashed, config)?;
    /// grid.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// grid.insert(Aabb2::new(Vec2::ZERO, Vec2::new(1.0e6, 1.0))?, ())?; // a floor
    /// grid.step();
    /// assert_eq!(grid.grid_stats().overflow_objects, 1);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn grid_stats(&self) -> GridStats {
        GridStats {
            cell_size: self.cell_size().unwrap_or(0.0),
            levels: self.levels.iter().filter(|l| !l.regs.is_empty()).count(),
            occupied_cells: self.levels.iter().map(Level::occupied_cells).sum(),
            overflow_objects: self.overflow.len(),
            cell_changes: self.last.0,
            level_changes: self.last.1,
        }
    }

    /// The level an object lives in, or `None` if it is in the overflow
    /// list (or the grid is not configured yet). See
    /// [`Grid::hierarchical`] for an example.
    pub fn level_of(&self, handle: Handle) -> Option<usize> {
        self.objects.check(handle).ok()?;
        let i = handle.index() as usize;
        (self.places[i] == Place::Cells).then(|| usize::from(self.levels_of[i]))
    }

    /// Brings every level's registrations up to date: the dirty objects'
    /// entries are replaced (the pair step then gathers the current boxes).
    fn refresh_levels(&mut self) {
        if !self.dirty_list.is_empty() {
            // When most objects changed cells, re-register everything in
            // slot order instead of merging.
            let everything = 2 * self.dirty_list.len() > self.objects.len();
            for (l, level) in self.levels.iter_mut().enumerate() {
                let (dirty, places, levels_of, ranges) =
                    (&self.dirty, &self.places, &self.levels_of, &self.ranges);
                let in_level = |i: u32| {
                    let at = i as usize;
                    (places[at] == Place::Cells && usize::from(levels_of[at]) == l)
                        .then(|| (i, ranges[at]))
                };
                if everything {
                    let all = (0..places.len() as u32).filter_map(in_level);
                    level.reregister(|_| true, all, true);
                } else {
                    let fresh = self.dirty_list.iter().filter_map(|&i| in_level(i));
                    level.reregister(|o| dirty[o as usize], fresh, false);
                }
            }
            for &i in &self.dirty_list {
                self.dirty[i as usize] = false;
            }
            self.dirty_list.clear();
        }
    }

    /// Marks object `i`'s registrations out of date.
    pub(super) fn mark_dirty(&mut self, i: u32) {
        if !self.dirty[i as usize] {
            self.dirty[i as usize] = true;
            self.dirty_list.push(i);
        }
    }

    /// The handle of the live object in slot `index`.
    #[inline]
    pub(super) fn handle_at(&self, index: u32) -> Handle {
        self.objects.live_handle_at(index)
    }

    fn ensure_slot(&mut self, index: usize) {
        if self.boxes.len() <= index {
            self.boxes.resize(index + 1, Aabb::default());
            self.ranges.resize(index + 1, CellRange::default());
            self.levels_of.resize(index + 1, 0);
            self.places.resize(index + 1, Place::Unplaced);
            self.dirty.resize(index + 1, false);
        }
    }
}

impl<V: Vector, T> Query<V> for Grid<V, T> {
    fn name(&self) -> &str {
        match self.kind {
            GridKind::Dense => "grid",
            GridKind::Hashed => "hashgrid",
            GridKind::Hierarchical => "hgrid",
        }
    }
    fn len(&self) -> usize {
        self.objects.len()
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.objects.check(handle).ok()?;
        Some(self.boxes[handle.index() as usize])
    }
    queries_by_search!();
}

impl<V: Vector, T> BroadPhase<V, T> for Grid<V, T> {
    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        let handle = self.objects.insert(value)?;
        let i = handle.index();
        self.ensure_slot(i as usize);
        self.boxes[i as usize] = aabb;
        self.place(i);
        Ok(handle)
    }
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        self.objects.check(handle)?;
        self.move_object(handle.index(), aabb);
        Ok(())
    }
    fn update_many(&mut self, handles: &[Handle], boxes: &[Aabb<V>]) -> Result<(), Error> {
        self.update_batch(handles, boxes)
    }
    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        let value = self.objects.remove(handle)?;
        self.unplace(handle.index());
        Ok(value)
    }
    fn step(&mut self) -> Arc<FrameEvents> {
        if self.levels.is_empty() && !self.objects.is_empty() {
            self.configure();
        }
        self.refresh_levels();
        let tested = grid_pairs(
            &mut self.levels,
            &self.boxes,
            &self.levels_of,
            &self.places,
            &self.overflow,
            &mut self.scratch,
        );
        self.tracker.finish_keys(&self.scratch.keys, &self.objects);
        self.last = (
            std::mem::take(&mut self.cell_changes),
            std::mem::take(&mut self.level_changes),
        );
        self.stats = self.tracker.stats(self.objects.len(), tested, self.last.0);
        self.tracker.shared_events()
    }
    fn events(&self) -> &FrameEvents {
        self.tracker.events()
    }
    fn pairs(&self) -> &[Pair] {
        self.tracker.pairs()
    }
    fn stats(&self) -> StepStats {
        self.stats
    }
    fn value(&self, handle: Handle) -> Option<&T> {
        self.objects.get(handle)
    }
    crate::broad::contract::objects_from_slots!(objects);
    fn snapshot(&self) -> Snapshot<V> {
        Snapshot::new(self.frozen())
    }
}

impl<V: Vector, T> Grid<V, T> {
    /// What the queries read, without the user values and the pair state,
    /// for a snapshot.
    fn frozen(&self) -> Grid<V, ()> {
        let objects = self.objects.frozen_copy(|_| ());
        let mut frozen = Grid::unconfigured(self.kind, self.config, objects);
        frozen.boxes = self.boxes.clone();
        frozen.ranges = self.ranges.clone();
        frozen.levels_of = self.levels_of.clone();
        frozen.places = self.places.clone();
        frozen.levels = self.levels.iter().map(Level::frozen).collect();
        frozen.dirty = self.dirty.clone();
        frozen.dirty_list = self.dirty_list.clone();
        frozen.base_cell = self.base_cell;
        frozen.top_level = self.top_level;
        frozen.overflow = self.overflow.clone();
        frozen
    }
}

impl<V: Vector> crate::broad::hosted::Hosted<V> for Grid<V> {
    fn arena(&mut self) -> &mut dyn crate::broad::hosted::HostedArena {
        &mut self.objects
    }

    fn one_level_cells(&self) -> Option<crate::broad::hosted::OneLevelCells<V>> {
        if self.kind == GridKind::Hierarchical {
            return None;
        }
        Some(crate::broad::hosted::OneLevelCells {
            cell_size: self.cell_size()?,
            bounds: self.levels.first().and_then(Level::dense_bounds),
            overflow: self.overflow.len(),
        })
    }
}
