//! [`Runner`]: drives any [`BroadPhase`] with frames of [`Record`]s that
//! name objects by the caller's ids, and reports events by those ids.

use super::idmap::IdMap;
use super::record::NotPresent;
use super::record::Record;
use collide::BroadPhase;
use collide::Error;
use collide::Handle;
use collide::{Aabb, Vector};
use rustc_hash::FxHashMap;

/// One pair event in the caller's ids: `a < b`.
///
/// ```
/// use collide::{Aabb2, Brute};
/// use collide_scenes::{IdEvent, Record, Runner};
/// use glam::Vec2;
/// let aabb = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
/// let (mut world, mut runner) = (Brute::<Vec2, u64>::new(), Runner::new());
/// let mut events = Vec::new();
/// runner.apply(&mut world, &[Record::Upsert { id: 20, aabb }, Record::Upsert { id: 10, aabb }])?;
/// runner.step(&mut world, &mut events);
/// assert_eq!(events, vec![IdEvent { a: 10, b: 20, started: true }]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IdEvent {
    /// The lower id.
    pub a: u64,
    /// The higher id.
    pub b: u64,
    /// True for started, false for stopped.
    pub started: bool,
}

/// Why a record could not be applied.
///
/// ```
/// use collide::Brute;
/// use collide_scenes::{NotPresent, Record, RunError, Runner};
/// use glam::Vec2;
/// let (mut world, mut runner) = (Brute::<Vec2, u64>::new(), Runner::new());
/// let err = runner.apply(&mut world, &[Record::Remove { id: 5 }]).unwrap_err();
/// assert_eq!(err, RunError::UnknownId(NotPresent(5)));
/// assert_eq!(err.to_string(), "object 5 is not present, so it cannot be removed");
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RunError {
    /// A remove named an id that is not present.
    #[error(transparent)]
    UnknownId(#[from] NotPresent),
    /// The structure refused a call.
    #[error(transparent)]
    Structure(#[from] Error),
}

/// Applies frames of records to a structure, keeping the map from the
/// caller's ids to handles. Values stored in the structure are the ids.
///
/// ```
/// use collide_scenes::{Runner, Scene, SceneConfig, SceneKind};
/// use collide::{BroadPhase, Brute, Query};
/// use glam::Vec2;
///
/// let mut scene = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Uniform, 200));
/// let mut world = Brute::<Vec2, u64>::new();
/// let mut runner = Runner::new();
/// let (mut frame, mut events) = (Vec::new(), Vec::new());
/// for _ in 0..10 {
///     scene.next_frame(&mut frame);
///     runner.apply(&mut world, &frame)?;
///     runner.step(&mut world, &mut events);
///     assert!(events.iter().all(|e| e.a < e.b));
/// }
/// assert_eq!(world.len(), 200);
/// # Ok::<(), collide_scenes::RunError>(())
/// ```
#[derive(Debug)]
pub struct Runner<V: Vector> {
    handles: IdMap<Handle>,
    /// Whether moves go to [`BroadPhase::update_many`] in runs (see
    /// [`Runner::batching`]) instead of one [`BroadPhase::update`] each.
    batching: bool,
    /// A batching runner's moves since the last insert or remove (handles
    /// and their new boxes), kept between frames so that applying
    /// allocates nothing in steady state.
    moved: Vec<Handle>,
    moved_to: Vec<Aabb<V>>,
    /// Removed since the last step: the ids that the stopped events of
    /// removed objects need.
    removed: FxHashMap<Handle, u64>,
}

impl<V: Vector> Default for Runner<V> {
    fn default() -> Self {
        Self {
            handles: IdMap::default(),
            batching: false,
            moved: Vec::new(),
            moved_to: Vec::new(),
            removed: FxHashMap::default(),
        }
    }
}

impl<V: Vector> Runner<V> {
    /// A runner with no objects.
    ///
    /// ```
    /// use collide_scenes::Runner;
    /// let runner = Runner::<glam::Vec2>::new();
    /// assert!(runner.is_empty() && runner.handle(0).is_none());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// A runner that hands each run of moves between inserts and removes to
    /// [`BroadPhase::update_many`] as two columns (handles, boxes), as a
    /// game that keeps its objects in columns would; the grids split such
    /// a batch across threads. [`Runner::new`]'s runner calls
    /// [`BroadPhase::update`] per move instead, which is faster for frames
    /// of records: gathering the columns costs more than splitting them
    /// saves (figures: BENCHMARKS.md).
    ///
    /// ```
    /// use collide_scenes::{Runner, Scene, SceneConfig, SceneKind};
    /// use collide::{BroadPhase, Grid};
    /// use glam::Vec2;
    /// let mut scene = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Uniform, 500));
    /// let (mut one, mut batched) = (Grid::<Vec2, u64>::hashed(), Grid::<Vec2, u64>::hashed());
    /// let (mut runner, mut batching) = (Runner::new(), Runner::batching());
    /// let (mut frame, mut a, mut b) = (Vec::new(), Vec::new(), Vec::new());
    /// for _ in 0..5 {
    ///     scene.next_frame(&mut frame);
    ///     runner.apply(&mut one, &frame)?;
    ///     batching.apply(&mut batched, &frame)?;
    ///     runner.step(&mut one, &mut a);
    ///     batching.step(&mut batched, &mut b);
    ///     assert_eq!(a, b);
    /// }
    /// # Ok::<(), collide_scenes::RunError>(())
    /// ```
    pub fn batching() -> Self {
        Self {
            batching: true,
            ..Self::default()
        }
    }

    /// The handle of object `id`, if present.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use collide_scenes::{Record, Runner};
    /// use glam::Vec2;
    /// let aabb = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// let (mut world, mut runner) = (Brute::<Vec2, u64>::new(), Runner::new());
    /// runner.apply(&mut world, &[Record::Upsert { id: 7, aabb }])?;
    /// let h = runner.handle(7).expect("7 was inserted");
    /// assert_eq!(world.value(h), Some(&7)); // the structure stores the id
    /// assert_eq!(runner.handle(8), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn handle(&self, id: u64) -> Option<Handle> {
        self.handles.get(id).copied()
    }

    /// Number of objects present.
    ///
    /// ```
    /// use collide::{Aabb2, Brute};
    /// use collide_scenes::{Record, Runner};
    /// use glam::Vec2;
    /// let aabb = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// let (mut world, mut runner) = (Brute::<Vec2, u64>::new(), Runner::new());
    /// let frame = [Record::Upsert { id: 1, aabb }, Record::Upsert { id: 2, aabb }];
    /// runner.apply(&mut world, &frame)?;
    /// runner.apply(&mut world, &[Record::Upsert { id: 1, aabb }])?; // a move, not a new object
    /// assert_eq!(runner.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> usize {
        self.handles.len()
    }

    /// True when no object is present.
    ///
    /// ```
    /// use collide::{Aabb2, Brute};
    /// use collide_scenes::{Record, Runner};
    /// use glam::Vec2;
    /// let aabb = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// let (mut world, mut runner) = (Brute::<Vec2, u64>::new(), Runner::new());
    /// runner.apply(&mut world, &[Record::Upsert { id: 1, aabb }])?;
    /// runner.apply(&mut world, &[Record::Remove { id: 1 }])?;
    /// assert!(runner.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.handles.is_empty()
    }

    /// Applies one frame's records (inserts, moves, removes), without
    /// stepping.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute, Query};
    /// use collide_scenes::{Record, Runner};
    /// use glam::Vec2;
    /// let (mut world, mut runner) = (Brute::<Vec2, u64>::new(), Runner::new());
    /// let aabb = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// runner.apply(&mut world, &[Record::Upsert { id: 1, aabb }])?;
    /// let moved = Aabb2::new(Vec2::splat(4.0), Vec2::splat(5.0))?;
    /// runner.apply(&mut world, &[Record::Upsert { id: 1, aabb: moved }])?;
    /// assert_eq!(world.aabb(runner.handle(1).unwrap()), Some(moved));
    /// assert!(world.pairs().is_empty()); // applied, not yet stepped
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn apply(
        &mut self,
        world: &mut (impl BroadPhase<V, u64> + ?Sized),
        records: &[Record<V>],
    ) -> Result<(), RunError> {
        self.moved.clear();
        self.moved_to.clear();
        for record in records {
            match *record {
                Record::Upsert { id, aabb } => match self.handles.get(id) {
                    Some(&h) if self.batching => {
                        self.moved.push(h);
                        self.moved_to.push(aabb);
                    }
                    Some(&h) => world.update(h, aabb)?,
                    None => {
                        self.flush_moves(world)?;
                        let h = world.insert(aabb, id)?;
                        self.handles.insert(id, h);
                    }
                },
                Record::Remove { id } => {
                    self.flush_moves(world)?;
                    let h = *self.handles.get(id).ok_or(NotPresent(id))?;
                    world.remove(h)?;
                    self.handles.remove(id);
                    self.removed.insert(h, id);
                }
            }
        }
        self.flush_moves(world)
    }

    /// Applies the moves gathered since the last insert or remove, so that
    /// the records take effect in their order.
    fn flush_moves(
        &mut self,
        world: &mut (impl BroadPhase<V, u64> + ?Sized),
    ) -> Result<(), RunError> {
        if !self.moved.is_empty() {
            world.update_many(&self.moved, &self.moved_to)?;
            self.moved.clear();
            self.moved_to.clear();
        }
        Ok(())
    }

    /// Steps the structure and writes its events into `out` (cleared
    /// first) in the caller's ids, sorted by (a, b).
    ///
    /// ```
    /// use collide::{Aabb2, Brute};
    /// use collide_scenes::{IdEvent, Record, Runner};
    /// use glam::Vec2;
    /// let aabb = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// let (mut world, mut runner) = (Brute::<Vec2, u64>::new(), Runner::new());
    /// let mut events = Vec::new();
    /// let frame = [Record::Upsert { id: 1, aabb }, Record::Upsert { id: 2, aabb }];
    /// runner.apply(&mut world, &frame)?;
    /// runner.step(&mut world, &mut events);
    /// runner.apply(&mut world, &[Record::Remove { id: 2 }])?;
    /// runner.step(&mut world, &mut events); // the removed object's id is still known
    /// assert_eq!(events, vec![IdEvent { a: 1, b: 2, started: false }]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn step(&mut self, world: &mut (impl BroadPhase<V, u64> + ?Sized), out: &mut Vec<IdEvent>) {
        world.step();
        self.collect_events(world, out);
    }

    /// Writes the events of the step `world` just took into `out` (cleared
    /// first) in the caller's ids, sorted by (a, b). Use this instead of
    /// [`Runner::step`] to time `world.step()` alone.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use collide_scenes::{IdEvent, Record, Runner};
    /// use glam::Vec2;
    /// use std::time::Instant;
    /// let aabb = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// let (mut world, mut runner) = (Brute::<Vec2, u64>::new(), Runner::new());
    /// let mut events = Vec::new();
    /// let frame = [Record::Upsert { id: 3, aabb }, Record::Upsert { id: 4, aabb }];
    /// runner.apply(&mut world, &frame)?;
    /// let start = Instant::now();
    /// world.step();
    /// let _step_time = start.elapsed();
    /// runner.collect_events(&world, &mut events);
    /// assert_eq!(events, vec![IdEvent { a: 3, b: 4, started: true }]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn collect_events(
        &mut self,
        world: &(impl BroadPhase<V, u64> + ?Sized),
        out: &mut Vec<IdEvent>,
    ) {
        let removed = &self.removed;
        let id = |h: Handle| -> u64 {
            world
                .value(h)
                .copied()
                .or_else(|| removed.get(&h).copied())
                .expect("a handle in an event is live or was removed since the last step")
        };
        out.clear();
        let events = world.events();
        for (pairs, started) in [(&events.started, true), (&events.stopped, false)] {
            out.extend(pairs.iter().map(|p| {
                let (x, y) = (id(p.a()), id(p.b()));
                IdEvent {
                    a: x.min(y),
                    b: x.max(y),
                    started,
                }
            }));
        }
        out.sort_unstable();
        self.removed.clear();
    }
}
