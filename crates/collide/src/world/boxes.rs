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
use crate::motion::{Geometry, VisitPiece};
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

/// A sweep meets a convex collider as its shape, a compound part by part
/// and a mesh triangle by triangle (segments in 2D), the pieces near its
/// path only.
impl<V: Space, T> Geometry<V, V::Pose> for World<V, T> {
    fn shape(&self, handle: Handle) -> Option<(&dyn Support<V>, V::Pose)> {
        let e = self.colliders.get(handle)?;
        Some((convex(&e.shape)?, e.pose))
    }

    fn pieces(&self, handle: Handle, near: &Aabb<V>, visit: &mut VisitPiece<'_, V, V::Pose>) {
        if let Some(e) = self.colliders.get(handle) {
            pieces(&e.shape, &e.pose, near, visit);
        }
    }
}

/// The shape as the sweeps read it, if it is one convex shape.
fn convex<V: Space>(shape: &ColliderShape<V>) -> Option<&dyn Support<V>> {
    match shape {
        ColliderShape::Convex(s) => Some(V::support(s)),
        _ => None,
    }
}

thread_local! {
    /// The part numbers [`pieces`] sorts, kept per thread so that a warm
    /// sweep allocates nothing.
    static NEAR_PARTS: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Each convex piece of `shape` at `pose` whose box may meet `near`, in
/// part order (a sweep that slides out of several pieces moves out of
/// them in this order, so it is the parts' order, not the tree's).
fn pieces<V: Space>(
    shape: &ColliderShape<V>,
    pose: &V::Pose,
    near: &Aabb<V>,
    visit: &mut VisitPiece<'_, V, V::Pose>,
) {
    let visit_part = |i: u32, visit: &mut VisitPiece<'_, V, V::Pose>| {
        if let Some((s, p)) = shape.part_at(i, pose) {
            visit(i, V::support(&s), p);
        }
    };
    if shape.is_convex() {
        return visit_part(0, visit);
    }
    NEAR_PARTS.with(|cell| {
        // A visit that sweeps again (re-entered) gets a list of its own.
        let mut fresh = Vec::new();
        let mut held = cell.try_borrow_mut();
        let parts = match held.as_deref_mut() {
            Ok(parts) => parts,
            Err(_) => &mut fresh,
        };
        parts.clear();
        let _ = shape.visit_near_parts(pose, near, |i| {
            parts.push(i);
            ControlFlow::Continue(())
        });
        parts.sort_unstable();
        for &i in parts.iter() {
            visit_part(i, visit);
        }
    });
}

/// Reads a snapshot's colliders as the world's, as they were.
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

    fn pieces(&self, handle: Handle, near: &Aabb<V>, visit: &mut VisitPiece<'_, V, V::Pose>) {
        if let (Some(shape), Some(pose)) = (self.shape(handle), self.pose(handle)) {
            pieces(shape, &pose, near, visit);
        }
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
