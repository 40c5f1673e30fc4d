//! The broad-phase contract: the one trait every structure implements, in
//! 2D and 3D, and its statistics.

use super::events::{FrameEvents, Pair};
use super::query::{
    QueryBudget, QueryStats, RayHit, collect_hits, collect_sorted, first_hit, sorted_ray_hits,
};
use super::snapshot::Snapshot;
use crate::error::Error;
use crate::geometry::{Aabb, Ray, Region, Vector};
use crate::handle::Handle;
use std::ops::ControlFlow;

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
pub trait BroadPhase<V: Vector, T> {
    /// The structure's name as `collide replay --structure` spells it.
    ///
    /// ```
    /// use collide::{BroadPhase, Brute};
    /// use glam::Vec2;
    /// assert_eq!(Brute::<Vec2>::new().name(), "brute");
    /// ```
    fn name(&self) -> &str;

    /// Adds an object with its box and a user value; it takes part in pairs
    /// from the next [`step`](Self::step).
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
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
    /// use collide::{Aabb2, BroadPhase, Brute};
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
    /// use collide::{Aabb2, BroadPhase, Error, Grid, HandleError};
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
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute, Pair};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// let a = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// let b = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// assert_eq!(world.step().started, vec![Pair::new(a, b)]);
    /// assert!(world.step().is_empty()); // still overlapping: no new event
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn step(&mut self) -> &FrameEvents;

    /// The events of the last step (what [`step`](Self::step) returned).
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// let stepped = world.step().clone();
    /// assert_eq!(world.events(), &stepped);
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

    /// Number of live objects.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// let h = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// world.remove(h)?;
    /// assert_eq!(world.len(), 1); // counts at once, before any step
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn len(&self) -> usize;

    /// True when the structure holds no object.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// assert!(world.is_empty());
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// assert!(!world.is_empty());
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The object's current box, or `None` for a stale or foreign handle.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// let unit = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// let h = world.insert(unit, ())?;
    /// assert_eq!(world.aabb(h), Some(unit));
    /// world.remove(h)?;
    /// assert_eq!(world.aabb(h), None);
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>>;

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

    /// Calls `visit` for each object whose current box overlaps `aabb`
    /// (overlap rule of [`Aabb::overlaps`]), each once, until it returns
    /// [`ControlFlow::Break`]. Sees updates made since the last step.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use glam::Vec2;
    /// use std::ops::ControlFlow;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// for x in [0.0, 3.0, 6.0] {
    ///     world.insert(Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 2.0, 2.0))?, ())?;
    /// }
    /// let mut seen = 0;
    /// let area = Aabb2::new(Vec2::ZERO, Vec2::new(10.0, 1.0))?;
    /// let flow = world.query_aabb(&area, &mut |_| {
    ///     seen += 1;
    ///     if seen == 2 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    /// });
    /// assert!(flow.is_break());
    /// assert_eq!(seen, 2); // stopped early; no step was needed
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()>;

    /// All objects overlapping `aabb`, sorted by handle.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// let a = world.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?, ())?;
    /// world.insert(Aabb2::new(Vec2::splat(5.0), Vec2::splat(6.0))?, ())?;
    /// let c = world.insert(Aabb2::new(Vec2::splat(1.0), Vec2::splat(3.0))?, ())?;
    /// let area = Aabb2::new(Vec2::ZERO, Vec2::splat(4.0))?;
    /// assert_eq!(world.query_aabb_all(&area), vec![a, c]);
    /// # Ok::<(), collide::Error>(())
    /// ```
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
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?, ())?;
    /// assert!(world.query_aabb_any(&Aabb2::new(Vec2::splat(1.0), Vec2::splat(5.0))?));
    /// // touching is not overlapping:
    /// assert!(!world.query_aabb_any(&Aabb2::new(Vec2::splat(2.0), Vec2::splat(5.0))?));
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn query_aabb_any(&self, aabb: &Aabb<V>) -> bool {
        self.query_aabb(aabb, &mut |_| ControlFlow::Break(()))
            .is_break()
    }

    /// All objects holding `point` strictly inside (the overlap rule applied
    /// to the zero-size box at `point`), sorted by handle. A non-finite
    /// point is an error.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute};
    /// use glam::Vec2;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// let h = world.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?, ())?;
    /// assert_eq!(world.query_point_all(Vec2::splat(1.0))?, vec![h]);
    /// assert!(world.query_point_all(Vec2::new(2.0, 1.0))?.is_empty()); // on the edge
    /// assert!(world.query_point_all(Vec2::new(f32::NAN, 0.0)).is_err());
    /// # Ok::<(), collide::Error>(())
    /// ```
    fn query_point_all(&self, point: V) -> Result<Vec<Handle>, Error> {
        Ok(self.query_aabb_all(&Aabb::from_point(point)?))
    }

    /// Calls `visit` for each object whose current box `region` hits (a
    /// box, a ray, a swept box, a frustum: see [`Region`]), each once,
    /// until it returns [`ControlFlow::Break`] or `budget` runs out; says
    /// what it did, and whether the budget cut it short. Sees updates made
    /// since the last step.
    ///
    /// Structures prune their nodes or cells with the region; the
    /// provided implementation asks [`BroadPhase::query_aabb`] for the
    /// objects in the region's bounds (for a region without bounds, the
    /// whole f32 range: a box of zero size at its very edge escapes it)
    /// and tests each, so it counts no visits. Every structure of this
    /// crate overrides it.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Bvh, QueryBudget, geometry::SweptAabb};
    /// use glam::Vec2;
    /// use std::ops::ControlFlow;
    /// let mut world: Bvh<Vec2> = Bvh::new();
    /// let wall = world.insert(Aabb2::new(Vec2::new(20.0, -5.0), Vec2::new(21.0, 5.0))?, ())?;
    /// let bullet = Aabb2::new(Vec2::ZERO, Vec2::splat(0.5))?;
    /// let path = SweptAabb::new(bullet, Vec2::new(60.0, 0.0))?;
    /// let mut hit = Vec::new();
    /// let stats = world.query_region(&path, QueryBudget::default(), &mut |h| {
    ///     hit.push(h);
    ///     ControlFlow::Continue(())
    /// });
    /// assert_eq!((hit, stats.hits, stats.truncated), (vec![wall], 1, false));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn query_region(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        let bounds = region.bounds().unwrap_or_else(everything);
        let mut stats = QueryStats::default();
        let _ = self.query_aabb(&bounds, &mut |h| {
            let aabb = self.aabb(h).expect("query_aabb reports live objects");
            stats.candidate(&budget, region, &aabb, || visit(h))
        });
        stats
    }

    /// Every object `region` hits, sorted by handle, and the query's
    /// statistics (see [`BroadPhase::query_region`]).
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Grid, QueryBudget};
    /// use collide::geometry::{Frustum, Plane};
    /// use glam::Vec2;
    /// let mut world: Grid<Vec2> = Grid::hashed();
    /// let left = world.insert(Aabb2::new(Vec2::new(-5.0, 0.0), Vec2::new(-4.0, 1.0))?, ())?;
    /// world.insert(Aabb2::new(Vec2::new(4.0, 0.0), Vec2::new(5.0, 1.0))?, ())?;
    /// let west = Frustum::new(&[Plane::new(Vec2::X, 0.0)])?; // x < 0
    /// let (hits, stats) = world.query_region_all(&west, QueryBudget::default());
    /// assert_eq!((hits, stats.truncated), (vec![left], false));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn query_region_all(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
    ) -> (Vec<Handle>, QueryStats) {
        collect_sorted(|visit| self.query_region(region, budget, visit))
    }

    /// Calls `visit` with the objects `ray` hits in the order it enters
    /// them (by `t`, ties by handle), until it returns
    /// [`ControlFlow::Break`]; within `budget` (a truncated query may have
    /// missed nearer objects: see [`QueryStats::truncated`]).
    ///
    /// The provided implementation collects every hit, then sorts them; the
    /// BVH walks its nodes nearest first instead, so a visitor that stops
    /// early (the closest hit) stops the walk too.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute, QueryBudget, geometry::Ray};
    /// use glam::Vec2;
    /// use std::ops::ControlFlow;
    /// let mut world: Brute<Vec2> = Brute::new();
    /// for x in [9.0, 3.0, 6.0] {
    ///     world.insert(Aabb2::new(Vec2::new(x, -1.0), Vec2::new(x + 1.0, 1.0))?, ())?;
    /// }
    /// let ray = Ray::new(Vec2::ZERO, Vec2::X, 100.0)?;
    /// let mut first_two = Vec::new();
    /// world.query_ray(&ray, QueryBudget::default(), &mut |hit| {
    ///     first_two.push(hit.t);
    ///     if first_two.len() == 2 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    /// });
    /// assert_eq!(first_two, [3.0, 6.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn query_ray(
        &self,
        ray: &Ray<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        sorted_ray_hits(
            ray,
            |h| self.aabb(h),
            |visit| self.query_region(ray, budget, visit),
            visit,
        )
    }

    /// Every object `ray` hits, in the order it enters them (by `t`, ties
    /// by handle). See [`RayHit`] for an example.
    fn query_ray_all(&self, ray: &Ray<V>) -> Vec<RayHit> {
        collect_hits(|visit| self.query_ray(ray, QueryBudget::default(), visit))
    }

    /// The first object `ray` enters (ties by handle), if any.
    ///
    /// ```
    /// use collide::{Aabb3, BroadPhase, Bvh, geometry::Ray};
    /// use glam::Vec3;
    /// let mut world: Bvh<Vec3> = Bvh::new();
    /// let floor = world.insert(Aabb3::new(Vec3::new(-9.0, -1.0, -9.0), Vec3::new(9.0, 0.0, 9.0))?, ())?;
    /// let down = Ray::new(Vec3::new(0.0, 5.0, 0.0), -Vec3::Y, 10.0)?;
    /// let hit = world.query_ray_closest(&down).unwrap();
    /// assert_eq!((hit.handle, hit.t), (floor, 5.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn query_ray_closest(&self, ray: &Ray<V>) -> Option<RayHit> {
        first_hit(|visit| self.query_ray(ray, QueryBudget::default(), visit))
    }

    /// Whether `ray` hits any object; stops at the first found.
    fn query_ray_any(&self, ray: &Ray<V>) -> bool {
        let mut any = false;
        self.query_region(ray, QueryBudget::default(), &mut |_| {
            any = true;
            ControlFlow::Break(())
        });
        any
    }

    /// A frozen copy of the structure as it is now, for queries from other
    /// threads while this one goes on (see [`Snapshot`]). It sees updates
    /// made since the last step, as queries on the owner do.
    ///
    /// Every structure of this crate copies its own query arrays, so the
    /// snapshot answers as fast as the owner. The provided implementation
    /// (for structures outside this crate) lists the objects through
    /// [`BroadPhase::query_aabb`] over the whole f32 range (a box of zero
    /// size on the very edge of that range escapes it) and tests them all
    /// per query.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Sap, SapKind};
    /// use glam::Vec2;
    /// let mut world: Sap<Vec2, &str> = Sap::new(SapKind::AllAxes);
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
    fn name(&self) -> &str {
        (**self).name()
    }
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
    fn query_region(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        (**self).query_region(region, budget, visit)
    }
    fn query_ray(
        &self,
        ray: &Ray<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        (**self).query_ray(ray, budget, visit)
    }
    fn snapshot(&self) -> Snapshot<V> {
        (**self).snapshot()
    }
}
