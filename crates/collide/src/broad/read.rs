//! The read side of the broad-phase contract: [`Query`], what every
//! structure and every [`Snapshot`](super::Snapshot) answers. Game code
//! that only looks things up takes `&impl Query<V>` (or
//! `&dyn Query<V>`) and works on a live structure and on a snapshot
//! alike; [`BroadPhase`](super::BroadPhase) adds the write side.

use super::contract::everything;
use super::query::{
    QueryBudget, QueryStats, RayHit, collect_hits, collect_sorted, sorted_ray_hits,
};
use crate::error::Error;
use crate::geometry::{Aabb, Ray, Region, Vector};
use crate::handle::Handle;
use std::ops::ControlFlow;

/// Read-only queries over a set of boxes by handle: its size, a handle's
/// box, and box, point, region and ray queries with visitors that stop
/// early, budgets and statistics. Every structure implements it, and so
/// does [`Snapshot`](super::Snapshot), so code written against it runs on
/// the owner's thread and on reader threads alike.
///
/// Only [`name`](Self::name), [`len`](Self::len), [`aabb`](Self::aabb)
/// and [`query_aabb`](Self::query_aabb) are required; the rest are
/// provided from them, and each structure of this crate overrides the
/// region and ray queries with its own pruning.
///
/// ```
/// use collide::{Aabb2, BroadPhase, Grid, Query};
/// use glam::Vec2;
///
/// /// Anything that can be queried: a live world or a snapshot.
/// fn crates_near(world: &impl Query<Vec2>, at: Vec2) -> usize {
///     let around = Aabb2::from_center_half_extents(at, Vec2::splat(2.0)).unwrap();
///     world.query_aabb_all(&around).len()
/// }
///
/// let mut grid: Grid<Vec2> = Grid::hashed();
/// grid.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
/// grid.step();
/// let snapshot = grid.snapshot();
/// assert_eq!(crates_near(&grid, Vec2::ZERO), 1);
/// assert_eq!(crates_near(&snapshot, Vec2::ZERO), 1);
/// # Ok::<(), collide::Error>(())
/// ```
pub trait Query<V: Vector> {
    /// The structure's name as `collide replay --structure` spells it.
    ///
    /// ```
    /// use collide::{BroadPhase, Query, Brute};
    /// use glam::Vec2;
    /// assert_eq!(Brute::<Vec2>::new().name(), "brute");
    /// ```
    fn name(&self) -> &str;

    /// Number of live objects.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Query, Brute};
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
    /// use collide::{Aabb2, BroadPhase, Query, Brute};
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
    /// use collide::{Aabb2, BroadPhase, Query, Brute};
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

    /// Calls `visit` for each object whose current box overlaps `aabb`
    /// (overlap rule of [`Aabb::overlaps`]), each once, until it returns
    /// [`ControlFlow::Break`]. Sees updates made since the last step.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Query, Brute};
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
    /// use collide::{Aabb2, BroadPhase, Query, Brute};
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
    /// use collide::{Aabb2, BroadPhase, Query, Brute};
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
    /// use collide::{Aabb2, BroadPhase, Query, Brute};
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
    /// provided implementation asks [`Query::query_aabb`] for the
    /// objects in the region's bounds (for a region without bounds, the
    /// whole f32 range: a box of zero size at its very edge escapes it)
    /// and tests each, so it counts no visits. Every structure of this
    /// crate overrides it.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Query, Bvh, QueryBudget, geometry::SweptAabb};
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
    /// statistics (see [`Query::query_region`]).
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Query, Grid, QueryBudget};
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
    /// use collide::{Aabb2, BroadPhase, Query, Brute, QueryBudget, geometry::Ray};
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
    /// use collide::{Aabb3, BroadPhase, Query, Bvh, geometry::Ray};
    /// use glam::Vec3;
    /// let mut world: Bvh<Vec3> = Bvh::new();
    /// let floor = world.insert(Aabb3::new(Vec3::new(-9.0, -1.0, -9.0), Vec3::new(9.0, 0.0, 9.0))?, ())?;
    /// let down = Ray::new(Vec3::new(0.0, 5.0, 0.0), -Vec3::Y, 10.0)?;
    /// let hit = world.query_ray_closest(&down).unwrap();
    /// assert_eq!((hit.handle, hit.t), (floor, 5.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn query_ray_closest(&self, ray: &Ray<V>) -> Option<RayHit> {
        self.query_ray_first(ray, &mut |_, t| Some(t))
            .map(|(t, handle)| RayHit { handle, t })
    }

    /// The object with the nearest exact hit along `ray`, for a caller
    /// whose objects are smaller than their boxes (shapes): `exact(handle,
    /// t)` gives where the ray enters the object itself (never before
    /// `t`, where it enters the box), or `None` for a miss. Returns the
    /// smallest `(t, handle)` found. Boxes entered beyond the best hit so
    /// far are never tested, so a structure may walk them in any order
    /// (the BVH walks depth first, nearer child first).
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Query, Bvh, geometry::Ray};
    /// use glam::Vec2;
    /// let mut world: Bvh<Vec2> = Bvh::new();
    /// let hollow = world.insert(Aabb2::new(Vec2::new(2.0, -1.0), Vec2::new(4.0, 1.0))?, ())?;
    /// let solid = world.insert(Aabb2::new(Vec2::new(3.0, -1.0), Vec2::new(5.0, 1.0))?, ())?;
    /// let ray = Ray::new(Vec2::ZERO, Vec2::X, 10.0)?;
    /// // The first box holds nothing the ray meets; the second is solid.
    /// let first = world.query_ray_first(&ray, &mut |h, t| (h == solid).then_some(t));
    /// assert_eq!(first, Some((3.0, solid)));
    /// # let _ = hollow;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn query_ray_first(
        &self,
        ray: &Ray<V>,
        exact: &mut dyn FnMut(Handle, f32) -> Option<f32>,
    ) -> Option<(f32, Handle)> {
        let mut best: Option<(f32, Handle)> = None;
        self.query_ray(ray, QueryBudget::default(), &mut |hit| {
            if best.is_some_and(|b| hit.t > b.0) {
                return ControlFlow::Break(());
            }
            if let Some(t) = exact(hit.handle, hit.t) {
                if best.is_none_or(|b| (t, hit.handle) < b) {
                    best = Some((t, hit.handle));
                }
            }
            ControlFlow::Continue(())
        });
        best
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
}

impl<V: Vector, Q: Query<V> + ?Sized> Query<V> for Box<Q> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn len(&self) -> usize {
        (**self).len()
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        (**self).aabb(handle)
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
    fn query_ray_first(
        &self,
        ray: &Ray<V>,
        exact: &mut dyn FnMut(Handle, f32) -> Option<f32>,
    ) -> Option<(f32, Handle)> {
        (**self).query_ray_first(ray, exact)
    }
}

/// [`Query::query_aabb`] answered by a region query (for structures whose
/// own search is by region): whether `visit` broke.
pub(crate) fn aabb_by_region<V: Vector>(
    query: &(impl Query<V> + ?Sized),
    aabb: &Aabb<V>,
    visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut flow = ControlFlow::Continue(());
    query.query_region(aabb, QueryBudget::default(), &mut |h| {
        flow = visit(h);
        flow
    });
    flow
}

/// [`Query`] for a wrapper that answers with the structure at
/// `self.$field` (the checking and filtering wrappers).
macro_rules! query_through {
    ($field:ident) => {
        fn name(&self) -> &str {
            self.$field.name()
        }
        fn len(&self) -> usize {
            self.$field.len()
        }
        fn aabb(&self, handle: $crate::Handle) -> Option<$crate::Aabb<V>> {
            self.$field.aabb(handle)
        }
        fn query_aabb(
            &self,
            aabb: &$crate::Aabb<V>,
            visit: &mut dyn FnMut($crate::Handle) -> std::ops::ControlFlow<()>,
        ) -> std::ops::ControlFlow<()> {
            self.$field.query_aabb(aabb, visit)
        }
        fn query_region(
            &self,
            region: &dyn $crate::geometry::Region<V>,
            budget: $crate::QueryBudget,
            visit: &mut dyn FnMut($crate::Handle) -> std::ops::ControlFlow<()>,
        ) -> $crate::QueryStats {
            self.$field.query_region(region, budget, visit)
        }
        fn query_ray(
            &self,
            ray: &$crate::geometry::Ray<V>,
            budget: $crate::QueryBudget,
            visit: &mut dyn FnMut($crate::RayHit) -> std::ops::ControlFlow<()>,
        ) -> $crate::QueryStats {
            self.$field.query_ray(ray, budget, visit)
        }
        fn query_ray_first(
            &self,
            ray: &$crate::geometry::Ray<V>,
            exact: &mut dyn FnMut($crate::Handle, f32) -> Option<f32>,
        ) -> Option<(f32, $crate::Handle)> {
            self.$field.query_ray_first(ray, exact)
        }
    };
}
pub(crate) use query_through;
