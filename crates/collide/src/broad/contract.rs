//! The broad-phase contract: the one trait every structure implements, in
//! 2D and 3D, and its statistics.

use super::events::{FrameEvents, Pair};
use super::read::Query;
use super::snapshot::Snapshot;
use crate::error::Error;
use crate::geometry::{Aabb, Vector};
use crate::handle::Handle;
use std::ops::ControlFlow;
use std::sync::Arc;

/// Work counters of the last [`BroadPhase::step`], for comparing structures
/// by the work they do as well as by time.
///
/// ```
/// use collide::{Aabb2, BroadPhase, Brute, StepStats};
/// use glam::Vec2;
/// let mut world: Brute<Vec2> = Brute::new();
/// for x in [0.0, 1.0, 10.0] {
///     world.insert(Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 2.0, 2.0))?, ())?;
/// }
/// world.step();
/// let expected = StepStats {
///     objects: 3,
///     candidates_tested: 3, // brute force tests all 3 * 2 / 2 pairs
///     maintenance_ops: 0,
///     pairs: 1,
///     started: 1,
///     stopped: 0,
/// };
/// assert_eq!(world.stats(), expected);
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepStats {
    /// Live objects after the step.
    pub objects: usize,
    /// Candidate pairs given a full box test during the step.
    pub candidates_tested: u64,
    /// Structure maintenance operations during the frame (endpoint swaps,
    /// cell moves, node changes; 0 for brute force).
    pub maintenance_ops: u64,
    /// Overlapping pairs after the step.
    pub pairs: usize,
    /// Pairs that started overlapping in the step.
    pub started: usize,
    /// Pairs that stopped overlapping in the step (removals included).
    pub stopped: usize,
}

/// A broad phase: keeps the set of overlapping box pairs current as objects
/// move, and reports when a pair starts and stops overlapping.
///
/// The life of a frame: call [`insert`](Self::insert),
/// [`update`](Self::update) and [`remove`](Self::remove) as objects change,
/// then [`step`](Self::step) once; it returns that frame's events.
///
/// Guarantees, the same for every structure:
/// - pairs follow the overlap rule of [`Aabb::overlaps`] exactly: no pair is
///   missed and none is invented;
/// - a pair is (lower handle, higher handle); events and pairs come sorted,
///   nothing depends on hash order or thread count;
/// - removing an object reports `stopped` for each of its pairs at the next
///   step;
/// - a stale or foreign handle is refused with an [`Error`], never applied
///   to another object.
///
/// The trait is object safe: `Box<dyn BroadPhase<Vec2, u64>>` lets a program
/// pick a structure at run time.
///
/// ```
/// use collide::{Aabb2, BroadPhase, Brute, Pair};
/// use glam::Vec2;
///
/// let mut world: Brute<Vec2, &str> = Brute::new();
/// let player = world.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(1.0))?, "player")?;
/// let coin = world.insert(Aabb2::new(Vec2::splat(3.0), Vec2::splat(4.0))?, "coin")?;
/// assert!(world.step().is_empty());
///
/// world.update(player, Aabb2::new(Vec2::splat(2.5), Vec2::splat(3.5))?)?;
/// let events = world.step();
/// assert_eq!(events.started, vec![Pair::new(player, coin)]);
/// assert_eq!(world.value(coin), Some(&"coin"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait BroadPhase<V: Vector, T>: Query<V> {
    /// Adds an object with its box and a user value; it takes part in pairs
    /// from the next [`step`](Self::step).
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute, Query};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2, &str> = Brute::new();
    /// let unit = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// let h = world.insert(unit, "crate")?;
    /// world.insert(unit, "barrel")?;
    /// assert!(world.pairs().is_empty()); // not paired until the next step
    /// assert_eq!(world.step().started.len(), 1);
    /// assert_eq!((world.aabb(h), world.value(h)), (Some(unit), Some(&"crate")));
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error>;

    /// Gives an object a new box (a move, a resize or a teleport).
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute, Query};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// let h = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// let moved = Aabb2::new(Vec2::splat(50.0), Vec2::splat(52.0))?;
    /// world.update(h, moved)?;
    /// assert_eq!(world.aabb(h), Some(moved));
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error>;

    /// Gives many objects new boxes at once: `handles[k]` gets `boxes[k]`,
    /// the same as calling [`update`](Self::update) for each in order. The
    /// two slices are columns, as an ECS keeps them; different lengths are
    /// refused with [`Error::BatchLengths`] before anything is applied. A
    /// handle named twice ends with its last box; at a stale or foreign
    /// handle the batch stops with that error, the moves before it applied
    /// and the rest not.
    ///
    /// The grids split a large batch across threads (rayon's current pool)
    /// when its handles' slots rise strictly, as they do when a game names
    /// its objects in the order it inserted them; the result is the same on
    /// any number of threads. Other structures apply the moves one by one.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Error, Grid, HandleError, Query};
    /// use glam::Vec2;
    /// let mut world: Grid<Vec2> = Grid::hashed();
    /// let a = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// let b = world.insert(Aabb2::new(Vec2::splat(5.0), Vec2::splat(6.0))?, ())?;
    /// let c = world.insert(Aabb2::new(Vec2::splat(8.0), Vec2::splat(9.0))?, ())?;
    /// let near = Aabb2::new(Vec2::splat(0.5), Vec2::splat(1.5))?;
    /// world.update_many(&[a, b], &[near, near])?;
    /// assert_eq!(world.step().started.len(), 1);
    ///
    /// // A removed object's handle stops the batch where it stands.
    /// world.remove(b)?;
    /// let far = Aabb2::new(Vec2::splat(90.0), Vec2::splat(91.0))?;
    /// let refused = world.update_many(&[a, b, c], &[far, far, far]);
    /// assert_eq!(refused, Err(HandleError::Stale(b).into()));
    /// assert_eq!(world.aabb(a), Some(far)); // before it: applied
    /// assert_ne!(world.aabb(c), Some(far)); // after it: not
    ///
    /// // One box per handle.
    /// let short = world.update_many(&[a, c], &[near]);
    /// assert_eq!(short, Err(Error::BatchLengths { handles: 2, boxes: 1 }));
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn update_many(&mut self, handles: &[Handle], boxes: &[Aabb<V>]) -> Result<(), Error> {
        check_batch_lengths(handles, boxes)?;
        for (&handle, &aabb) in handles.iter().zip(boxes) {
            self.update(handle, aabb)?;
        }
        Ok(())
    }

    /// Removes an object and returns its user value. Its pairs are reported
    /// as stopped at the next step.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2, &str> = Brute::new();
    /// let h = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, "coin")?;
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, "player")?;
    /// world.step();
    /// assert_eq!(world.remove(h)?, "coin");
    /// assert_eq!(world.step().stopped.len(), 1);
    /// assert!(world.remove(h).is_err()); // the handle is stale now
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn remove(&mut self, handle: Handle) -> Result<T, Error>;

    /// Brings the structure up to date and returns this frame's events.
    ///
    /// The events are shared, not borrowed: the world stays free to read and
    /// change while a caller walks them. A structure reuses the event
    /// buffers from step to step when the caller has let go of the last
    /// step's events; keeping them past the next step costs that step a
    /// fresh buffer.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute, Pair};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// let a = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// let b = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// assert_eq!(world.step().started, vec![Pair::new(a, b)]);
    /// assert!(world.step().is_empty()); // still overlapping: no new event
    ///
    /// // React while holding the events: they do not borrow the world.
    /// world.update(b, Aabb2::new(Vec2::splat(5.0), Vec2::splat(6.0))?)?;
    /// let events = world.step();
    /// for pair in &events.stopped {
    ///     world.remove(pair.b())?;
    /// }
    /// assert_eq!(world.step().stopped, Vec::<Pair>::new()); // already reported
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn step(&mut self) -> Arc<FrameEvents>;

    /// The events of the last step (what [`step`](Self::step) returned).
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// let stepped = world.step();
    /// assert_eq!(world.events(), &*stepped);
    /// assert_eq!(world.events().started.len(), 1);
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn events(&self) -> &FrameEvents;

    /// The overlapping pairs as of the last step, sorted.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute, Pair};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// let unit = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// let h = [world.insert(unit, ())?, world.insert(unit, ())?, world.insert(unit, ())?];
    /// world.step();
    /// let expected = [Pair::new(h[0], h[1]), Pair::new(h[0], h[2]), Pair::new(h[1], h[2])];
    /// assert_eq!(world.pairs(), expected);
    /// assert!(world.step().is_empty()); // pairs persist; events do not
    /// assert_eq!(world.pairs().len(), 3);
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn pairs(&self) -> &[Pair];

    /// Counters of the last step.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// for _ in 0..4 {
    ///     world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// }
    /// world.step();
    /// assert_eq!((world.stats().objects, world.stats().pairs), (4, 6));
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn stats(&self) -> StepStats;

    /// The object's user value, or `None` for a stale or foreign handle.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2, u64> = Brute::new();
    /// let other: Brute<Vec2, u64> = Brute::new();
    /// let h = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, 42)?;
    /// assert_eq!(world.value(h), Some(&42));
    /// assert_eq!(other.value(h), None); // foreign handle
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn value(&self, handle: Handle) -> Option<&T>;

    /// The object's user value to change in place, or `None` for a stale or
    /// foreign handle.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Grid};
    /// use glam::Vec2;
    /// let mut world: Grid<Vec2, u32> = Grid::hashed();
    /// let coin = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, 10)?;
    /// *world.value_mut(coin).unwrap() += 5; // picked up twice
    /// assert_eq!(world.value(coin), Some(&15));
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn value_mut(&mut self, handle: Handle) -> Option<&mut T>;

    /// Calls `visit` with every live object (its handle, current box and
    /// value), in handle order, until it returns [`ControlFlow::Break`].
    /// Sees changes made since the last step.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Bvh};
    /// use glam::Vec2;
    /// use std::ops::ControlFlow;
    /// let mut world: Bvh<Vec2, &str> = Bvh::new();
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, "crate")?;
    /// let gone = world.insert(Aabb2::new(Vec2::ONE, Vec2::splat(2.0))?, "barrel")?;
    /// world.insert(Aabb2::new(Vec2::splat(5.0), Vec2::splat(6.0))?, "player")?;
    /// world.remove(gone)?;
    /// let mut names = Vec::new();
    /// let _ = world.for_each_object(&mut |_handle, _aabb, name| {
    ///     names.push(*name);
    ///     ControlFlow::Continue(())
    /// });
    /// assert_eq!(names, ["crate", "player"]);
    /// # Ok::<(), collide::Error>(())
    /// ```
    // The visitor's signature says what it gets; an alias would hide it.
    #[allow(clippy::type_complexity)]
    fn for_each_object(
        &self,
        visit: &mut dyn FnMut(Handle, Aabb<V>, &T) -> ControlFlow<()>,
    ) -> ControlFlow<()>;

    /// A frozen copy of the structure as it is now, for queries from other
    /// threads while this one goes on (see [`Snapshot`]). It sees updates
    /// made since the last step, as queries on the owner do.
    ///
    /// Every structure of this crate copies its own query arrays, so the
    /// snapshot answers as fast as the owner. The provided implementation
    /// (for structures outside this crate) lists the objects through
    /// [`Query::query_aabb`] over the whole f32 range (a box of zero
    /// size on the very edge of that range escapes it) and tests them all
    /// per query.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Query, Sap};
    /// use glam::Vec2;
    /// let mut world: Sap<Vec2, &str> = Sap::new();
    /// let a = world.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?, "crate")?;
    /// world.step();
    /// let before = world.snapshot();
    /// world.update(a, Aabb2::new(Vec2::splat(10.0), Vec2::splat(12.0))?)?;
    /// world.step();
    /// let origin = Vec2::splat(1.0);
    /// assert_eq!(before.query_point_all(origin)?, vec![a]); // where it was
    /// assert!(world.query_point_all(origin)?.is_empty());
    /// assert_eq!(before.aabb(a), Some(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?));
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn snapshot(&self) -> Snapshot<V> {
        Snapshot::listed(self)
    }
}

/// [`Error::BatchLengths`] unless there is one box per handle.
pub(crate) fn check_batch_lengths<B>(handles: &[Handle], boxes: &[B]) -> Result<(), Error> {
    if handles.len() == boxes.len() {
        Ok(())
    } else {
        Err(Error::BatchLengths {
            handles: handles.len(),
            boxes: boxes.len(),
        })
    }
}

/// A box that every box with a non-empty interior overlaps: the query
/// bounds of an unbounded region.
pub(crate) fn everything<V: Vector>() -> Aabb<V> {
    Aabb::new(V::from_axes(|_| f32::MIN), V::from_axes(|_| f32::MAX))
        .expect("the f32 range is a valid box")
}

/// A boxed structure is a structure, so `Box<dyn BroadPhase<V, T>>` can be
/// wrapped (for example in [`Verified`](crate::Verified)).
impl<V: Vector, T, B: BroadPhase<V, T> + ?Sized> BroadPhase<V, T> for Box<B> {
    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        (**self).insert(aabb, value)
    }
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        (**self).update(handle, aabb)
    }
    fn update_many(&mut self, handles: &[Handle], boxes: &[Aabb<V>]) -> Result<(), Error> {
        (**self).update_many(handles, boxes)
    }
    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        (**self).remove(handle)
    }
    fn step(&mut self) -> Arc<FrameEvents> {
        (**self).step()
    }
    fn events(&self) -> &FrameEvents {
        (**self).events()
    }
    fn pairs(&self) -> &[Pair] {
        (**self).pairs()
    }
    fn stats(&self) -> StepStats {
        (**self).stats()
    }
    fn value(&self, handle: Handle) -> Option<&T> {
        (**self).value(handle)
    }
    fn value_mut(&mut self, handle: Handle) -> Option<&mut T> {
        (**self).value_mut(handle)
    }
    fn for_each_object(
        &self,
        visit: &mut dyn FnMut(Handle, Aabb<V>, &T) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        (**self).for_each_object(visit)
    }
    fn snapshot(&self) -> Snapshot<V> {
        (**self).snapshot()
    }
}

/// `value_mut` and `for_each_object` for a structure whose values live in
/// the `Slots` at `self.$($arena).+` (its boxes through [`Query::aabb`]).
macro_rules! objects_from_slots {
    ($($arena:ident).+) => {
        fn value_mut(&mut self, handle: Handle) -> Option<&mut T> {
            self.$($arena).+.get_mut(handle).ok()
        }

        fn for_each_object(
            &self,
            visit: &mut dyn FnMut(Handle, Aabb<V>, &T) -> std::ops::ControlFlow<()>,
        ) -> std::ops::ControlFlow<()> {
            for (handle, value) in self.$($arena).+.iter() {
                let aabb = $crate::broad::Query::aabb(self, handle).expect("a live object has a box");
                visit(handle, aabb, value)?;
            }
            std::ops::ControlFlow::Continue(())
        }
    };
}
pub(crate) use objects_from_slots;
