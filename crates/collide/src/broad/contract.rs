//! The broad-phase contract: the one trait every structure implements, in
//! 2D and 3D, and its statistics.

use super::events::{FrameEvents, Pair};
use crate::error::Error;
use crate::geometry::{Aabb, Vector};
use crate::handle::Handle;
use std::ops::ControlFlow;

/// Work counters of the last [`BroadPhase::step`], for comparing structures
/// as seed 000 does.
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
pub trait BroadPhase<V: Vector, T> {
    /// The structure's name as `collide replay --structure` spells it.
    fn name(&self) -> &str;

    /// Adds an object with its box and a user value; it takes part in pairs
    /// from the next [`step`](Self::step).
    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error>;

    /// Gives an object a new box (a move, a resize or a teleport).
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error>;

    /// Removes an object and returns its user value. Its pairs are reported
    /// as stopped at the next step.
    fn remove(&mut self, handle: Handle) -> Result<T, Error>;

    /// Brings the structure up to date and returns this frame's events.
    fn step(&mut self) -> &FrameEvents;

    /// The events of the last step (what [`step`](Self::step) returned).
    fn events(&self) -> &FrameEvents;

    /// The overlapping pairs as of the last step, sorted.
    fn pairs(&self) -> &[Pair];

    /// Counters of the last step.
    fn stats(&self) -> StepStats;

    /// Number of live objects.
    fn len(&self) -> usize;

    /// True when the structure holds no object.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The object's current box, or `None` for a stale or foreign handle.
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>>;

    /// The object's user value, or `None` for a stale or foreign handle.
    fn value(&self, handle: Handle) -> Option<&T>;

    /// Calls `visit` for each object whose current box overlaps `aabb`
    /// (overlap rule of [`Aabb::overlaps`]), each once, until it returns
    /// [`ControlFlow::Break`]. Sees updates made since the last step.
    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()>;

    /// All objects overlapping `aabb`, sorted by handle.
    fn query_aabb_all(&self, aabb: &Aabb<V>) -> Vec<Handle> {
        let mut out = Vec::new();
        let _ = self.query_aabb(aabb, &mut |h| {
            out.push(h);
            ControlFlow::Continue(())
        });
        out.sort_unstable();
        out
    }

    /// Whether any object overlaps `aabb`; stops at the first.
    fn query_aabb_any(&self, aabb: &Aabb<V>) -> bool {
        self.query_aabb(aabb, &mut |_| ControlFlow::Break(()))
            .is_break()
    }

    /// All objects holding `point` strictly inside (the overlap rule applied
    /// to the zero-size box at `point`), sorted by handle. A non-finite
    /// point is an error.
    fn query_point_all(&self, point: V) -> Result<Vec<Handle>, Error> {
        Ok(self.query_aabb_all(&Aabb::from_point(point)?))
    }
}

/// A boxed structure is a structure, so `Box<dyn BroadPhase<V, T>>` can be
/// wrapped (for example in [`Verified`](crate::Verified)).
impl<V: Vector, T, B: BroadPhase<V, T> + ?Sized> BroadPhase<V, T> for Box<B> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        (**self).insert(aabb, value)
    }
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        (**self).update(handle, aabb)
    }
    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        (**self).remove(handle)
    }
    fn step(&mut self) -> &FrameEvents {
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
    fn len(&self) -> usize {
        (**self).len()
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        (**self).aabb(handle)
    }
    fn value(&self, handle: Handle) -> Option<&T> {
        (**self).value(handle)
    }
    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        (**self).query_aabb(aabb, visit)
    }
}
