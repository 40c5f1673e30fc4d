//! The world read as boxes and shapes by collider handle: [`Query`] over
//! the colliders' broad-phase boxes (grown by their margin), and motion's
//! [`Geometry`], so a sweep or any box-level reader runs on a world or a
//! snapshot as on a bare structure.

use super::collider_shape::ColliderShape;
use super::snapshot::WorldSnapshot;
use super::space::Space;
use super::world::World;
use crate::broad::{QueryBudget, QueryStats, RayHit};
use crate::geometry::{Aabb, Ray, Region};
use crate::motion::Geometry;
use crate::narrow::Support;
use crate::{Handle, Query};
use std::ops::ControlFlow;

/// The four queries of [`Query`], each through the type's `view()`.
macro_rules! queries_through_view {
    () => {
        fn query_aabb(
            &self,
            aabb: &Aabb<V>,
            visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            self.view().query_aabb(aabb, visit)
        }

        fn query_region(
            &self,
            region: &dyn Region<V>,
            budget: QueryBudget,
            visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
        ) -> QueryStats {
            self.view().query_region(region, budget, visit)
        }

        fn query_ray(
            &self,
            ray: &Ray<V>,
            budget: QueryBudget,
            visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
        ) -> QueryStats {
            self.view().query_ray(ray, budget, visit)
        }

        fn query_ray_first(
            &self,
            ray: &Ray<V>,
            exact: &mut dyn FnMut(Handle, f32) -> Option<f32>,
        ) -> Option<(f32, Handle)> {
            self.view().query_ray_first(ray, exact)
        }
    };
}

/// Reads a world's colliders through the broad phase under it.
///
/// ```
/// use collide::Query;
/// use collide::motion::{Response, SweepLimits, d2::Sweeper};
/// use collide::narrow::d2::{Circle, Cuboid, Pose};
/// use collide::world::{Collider2, World2};
/// use glam::Vec2;
/// let mut world = World2::new();
/// let wall = world.insert(Collider2::fixed(Cuboid::new(Vec2::new(0.5, 5.0))?, Pose::at(Vec2::new(10.0, 0.0))?, ()))?;
/// assert_eq!(world.query_aabb_all(&world.aabb(wall).unwrap()), [wall]);
/// let mut sweeper = Sweeper::new(Response::Stop, SweepLimits::default());
/// let done = sweeper.sweep_in(&world, &Circle::new(0.5)?, Pose::IDENTITY, Vec2::new(20.0, 0.0));
/// assert_eq!(done.hits[0].handle, wall);
/// assert!((done.end.position().x - 9.0).abs() < 1e-4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl<V: Space, T> Query<V> for World<V, T> {
    fn name(&self) -> &str {
        self.broad.name()
    }

    fn len(&self) -> usize {
        self.colliders.len()
    }

    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.broad.aabb(self.colliders.get(handle)?.proxy())
    }

    queries_through_view!();
}

impl<V: Space, T> World<V, T> {
    /// The broad phase's queries, its handles turned into colliders'.
    fn view(&self) -> Mapped<'_, V, impl Fn(Handle) -> Option<Handle> + '_> {
        mapped(&*self.broad, |p| self.broad.value(p).copied())
    }
}

/// A sweep reads one convex shape per object: compounds and meshes are
/// not offered to it (the mover passes them); cast against them with
/// [`WorldQuery::cast_shape`](super::WorldQuery::cast_shape).
impl<V: Space, T> Geometry<V, V::Pose> for World<V, T> {
    fn shape(&self, handle: Handle) -> Option<(&dyn Support<V>, V::Pose)> {
        let e = self.colliders.get(handle)?;
        Some((convex(&e.shape)?, e.pose))
    }
}

/// The shape as the sweeps read it, if it is one convex shape.
fn convex<V: Space>(shape: &ColliderShape<V>) -> Option<&dyn Support<V>> {
    match shape {
        ColliderShape::Convex(s) => Some(V::support(s)),
        _ => None,
    }
}

/// Reads a snapshot's colliders as the world's, as they were (compounds
/// and meshes passed by sweeps, as on the world).
impl<V: Space, T> Query<V> for WorldSnapshot<V, T> {
    fn name(&self) -> &str {
        self.broad().name()
    }

    fn len(&self) -> usize {
        self.broad().len()
    }

    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.broad().aabb(self.proxy_of(handle)?)
    }

    queries_through_view!();
}

impl<V: Space, T> WorldSnapshot<V, T> {
    /// The frozen broad phase's queries, its handles turned into
    /// colliders'.
    fn view(&self) -> Mapped<'_, V, impl Fn(Handle) -> Option<Handle> + '_> {
        mapped(self.broad(), |p| self.handle_of(p))
    }
}

impl<V: Space, T> Geometry<V, V::Pose> for WorldSnapshot<V, T> {
    fn shape(&self, handle: Handle) -> Option<(&dyn Support<V>, V::Pose)> {
        Some((convex(self.shape(handle)?)?, self.pose(handle)?))
    }
}

/// A broad phase's queries with its handles turned into colliders'.
struct Mapped<'a, V: Space, F> {
    broad: &'a dyn Query<V>,
    collider: F,
}

fn mapped<V: Space, F: Fn(Handle) -> Option<Handle>>(
    broad: &dyn Query<V>,
    collider: F,
) -> Mapped<'_, V, F> {
    Mapped { broad, collider }
}

impl<V: Space, F: Fn(Handle) -> Option<Handle>> Mapped<'_, V, F> {
    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.broad
            .query_aabb(aabb, &mut |p| match (self.collider)(p) {
                Some(h) => visit(h),
                None => ControlFlow::Continue(()),
            })
    }

    fn query_region(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        self.broad
            .query_region(region, budget, &mut |p| match (self.collider)(p) {
                Some(h) => visit(h),
                None => ControlFlow::Continue(()),
            })
    }

    fn query_ray(
        &self,
        ray: &Ray<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        self.broad
            .query_ray(ray, budget, &mut |hit| match (self.collider)(hit.handle) {
                Some(handle) => visit(RayHit { handle, t: hit.t }),
                None => ControlFlow::Continue(()),
            })
    }

    /// The nearest exact hit, the broad phase's handles turned into
    /// colliders' (and the best kept by collider handle, which orders
    /// ties as the caller does).
    fn query_ray_first(
        &self,
        ray: &Ray<V>,
        exact: &mut dyn FnMut(Handle, f32) -> Option<f32>,
    ) -> Option<(f32, Handle)> {
        let mut best: Option<(f32, Handle)> = None;
        self.broad.query_ray_first(ray, &mut |p, t_box| {
            let h = (self.collider)(p)?;
            let t = exact(h, t_box)?;
            if best.is_none_or(|b| (t, h) < b) {
                best = Some((t, h));
            }
            Some(t)
        });
        best
    }
}
